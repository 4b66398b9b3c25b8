//! The one search thread behind the page. Requests hand it jobs; the latest request wins: it
//! stops the running search and any job still queued, so at most one search runs and a page
//! that moved on never waits for thinking it no longer wants.

use crate::base::SearchDepth;
use crate::board::{Position, Square};
use crate::engine::book::EngineBook;
use crate::engine::{Budget, Think, ThinkInfo, ThinkRequest, think_position};
use crossbeam_channel::{Receiver, Sender, unbounded};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(test)]
use std::time::Duration;

/// What the page asks of the engine.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Task {
    /// Choose a move (from the book when the position is in it) within `time` if given.
    Move { time: Option<Budget>, by_clock: bool },
    /// Value every legal move, depth after depth, after listing the book's moves.
    Analyze,
}

/// The engine's decision, or the best move when analysis ends.
#[derive(Clone, PartialEq, Debug)]
pub struct Decision {
    pub best: Square,
    /// Side to move's view, in discs.
    pub score: f64,
    /// None for a book move.
    pub depth: Option<SearchDepth>,
    pub pv: Vec<Square>,
}

/// What a job reports, in order: `Book` (analysis only), `Line`s, then `Done` once.
#[derive(Clone, PartialEq, Debug)]
pub enum Event {
    Book(Vec<ThinkInfo>),
    Line(ThinkInfo),
    /// None when the game is over.
    Done(Option<Decision>),
}

struct Job {
    position: Position,
    level: u32,
    task: Task,
    stop: Arc<AtomicBool>,
    events: Sender<Event>,
}

/// A handle on a submitted job: its reports and its stop flag.
pub struct Handle {
    pub events: Receiver<Event>,
    pub stop: Arc<AtomicBool>,
}

pub struct Worker {
    jobs: Sender<Job>,
    /// The stop flag of the latest job (running or queued).
    latest: Mutex<Option<Arc<AtomicBool>>>,
    /// `serve --game-time` / `--move-time`.
    pub clock: crate::engine::UserClock,
}

impl Worker {
    /// Starts the search thread; it ends when the worker is dropped.
    pub fn start(mut thinker: Box<dyn Think + Send>, book: EngineBook) -> std::io::Result<Worker> {
        let (jobs, queue) = unbounded::<Job>();
        std::thread::Builder::new().name("search".into()).spawn(move || {
            for job in queue {
                // A job stopped before it started was replaced by a later one.
                if !job.stop.load(Ordering::SeqCst) {
                    run(thinker.as_mut(), &book, &job);
                }
            }
        })?;
        Ok(Worker {
            jobs,
            latest: Mutex::new(None),
            clock: crate::engine::UserClock::None,
        })
    }

    pub fn with_clock(self, clock: crate::engine::UserClock) -> Worker {
        Worker { clock, ..self }
    }

    /// Queues a job behind a stop of everything before it.
    pub fn submit(&self, position: Position, level: u32, task: Task) -> Handle {
        let (events, receiver) = unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let mut latest = self.latest.lock();
        if let Some(previous) = latest.replace(stop.clone()) {
            previous.store(true, Ordering::SeqCst);
        }
        let job = Job {
            position,
            level,
            task,
            stop: stop.clone(),
            events,
        };
        // Only fails when the search thread is gone; the handle then reports nothing and
        // the caller sees its channel closed.
        let _ = self.jobs.send(job);
        Handle { events: receiver, stop }
    }

    /// Stops whatever the engine is doing.
    pub fn stop(&self) {
        if let Some(latest) = self.latest.lock().as_ref() {
            latest.store(true, Ordering::SeqCst);
        }
    }
}

fn run(thinker: &mut dyn Think, book: &EngineBook, job: &Job) {
    let pos = job.position;
    // Sends fail only when the page stopped listening; the job's stop flag is then set.
    let send = |e: Event| {
        let _ = job.events.send(e);
    };
    if let Task::Move { .. } = job.task
        && let Some(choice) = book.choose(&pos, 0)
    {
        send(Event::Done(Some(Decision {
            best: choice.mv,
            score: choice.value,
            depth: None,
            pv: vec![choice.mv],
        })));
        return;
    }
    let (time, by_clock, moves) = match job.task {
        Task::Move { time, by_clock } => (time, by_clock, 1),
        Task::Analyze => {
            send(Event::Book(book.hints(&pos)));
            (None, false, pos.board.moves().count_ones().max(1) as usize)
        }
    };
    let req = ThinkRequest {
        position: pos,
        level: job.level,
        time,
        moves,
        draw_value: 0.0,
        // The browser board plays and analyses with the ordinary search.
        risk: None,
        by_clock,
        // Pondering is for the protocols; the page's engine thinks only when asked.
        until_stopped: false,
    };
    let r = think_position(thinker, &req, &job.stop, &mut |i| send(Event::Line(i)));
    send(Event::Done(r.map(|r| Decision {
        best: r.best,
        score: r.score,
        depth: Some(r.depth),
        pv: r.pv,
    })));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ThinkResult;

    /// Reports a line, then thinks until stopped: stands in for a long search.
    struct UntilStopped;
    impl Think for UntilStopped {
        fn think(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
            let sq = Square::At(req.position.board.moves().trailing_zeros() as u8);
            report(ThinkInfo {
                pv: vec![sq],
                score: 1.0,
                depth: SearchDepth::Plies(1),
                nodes: 1,
                seconds: 0.0,
                odds: None,
            });
            while !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            ThinkResult {
                best: sq,
                score: 1.0,
                depth: SearchDepth::Plies(1),
                pv: vec![sq],
                nodes: 1,
                seconds: 0.0,
            }
        }
    }

    fn next(h: &Handle) -> Event {
        h.events.recv_timeout(Duration::from_secs(10)).expect("an event")
    }

    #[test]
    fn a_new_job_stops_the_running_one_and_a_stop_ends_the_last() {
        let w = Worker::start(Box::new(UntilStopped), EngineBook::default()).expect("thread");
        let first = w.submit(
            Position::start(),
            5,
            Task::Move {
                time: None,
                by_clock: false,
            },
        );
        assert!(matches!(next(&first), Event::Line(_)));
        let second = w.submit(Position::start(), 5, Task::Analyze);
        // The first is stopped and still says what it found.
        assert!(matches!(next(&first), Event::Done(Some(_))));
        assert_eq!(next(&second), Event::Book(Vec::new()));
        assert!(matches!(next(&second), Event::Line(_)));
        w.stop();
        assert!(matches!(next(&second), Event::Done(Some(_))));
    }

    #[test]
    fn queued_jobs_that_were_replaced_never_run() {
        let w = Worker::start(Box::new(UntilStopped), EngineBook::default()).expect("thread");
        let handles: Vec<Handle> = (0..5).map(|_| w.submit(Position::start(), 5, Task::Analyze)).collect();
        let last = handles.last().expect("five");
        assert!(matches!(next(last), Event::Book(_)));
        assert!(matches!(next(last), Event::Line(_)));
        w.stop();
        assert!(matches!(next(last), Event::Done(Some(_))));
        // The replaced ones that never started closed their channels without an event.
        let skipped = handles
            .iter()
            .filter(|h| h.events.recv_timeout(Duration::from_secs(1)).is_err())
            .count();
        assert!(skipped >= 3, "{skipped}");
    }
}
