//! The engine side of the protocols: the `Think` API a search implements, the protocol
//! sessions that turn commands into thinking and replies, and the loop that runs them.
//!
//! Threads (DESIGN.md §2): a reader thread parses stdin and raises the stop flag
//! (`protocol::io`); this thread owns the game, the searcher and stdout, and handles commands
//! strictly in order. Searches never print: they report `ThinkInfo`, the session formats it.

pub mod book;
pub mod clock;
pub mod gtp;
pub mod nboard;
pub mod ponder;
pub mod searcher;
pub mod terminal;

use crate::base::SearchDepth;
use crate::board::{Position, Square};
use crate::protocol::io::{self, Input, Message, Output, ProtocolKind, StopSignal};
use crate::search::dist::Odds;
use crossbeam_channel::{Receiver, TryRecvError};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use crate::time::Budget;

/// What to think about.
#[derive(Clone, Copy, Debug)]
pub struct ThinkRequest {
    /// The side to move has at least one legal move ([`think_position`] handles passes and
    /// finished games before a `Think` is called).
    pub position: Position,
    /// The level (NBoard `set depth`, GTP `set_level`, `--level`): a row of params/levels.txt
    /// (midgame depth, solve empties, selectivity), not a number of plies.
    pub level: u32,
    /// Time for this decision: aim for `target`, never past `hard`; None = limited by depth only.
    pub time: Option<Budget>,
    /// The clock decides how deep to search: no level was chosen (`--level`, GTP `set_level`,
    /// NBoard `set depth`), so `depth` is ignored and the searcher deepens while `time` allows.
    pub by_clock: bool,
    /// A ponder: search as the move under `time` would (same level and solve depths), but with
    /// no time limit, until the stop flag is raised or the search is complete.
    pub until_stopped: bool,
    /// How many root moves need a reported value: 1 for a move choice, N for `hint N`.
    pub moves: usize,
    /// Value of a draw in discs from the side to move's point of view (NBoard contempt).
    pub draw_value: f64,
    /// The risk-aware search style at this confidence in percent (`--risk`); None: the
    /// ordinary search.
    pub risk: Option<u32>,
}

impl ThinkRequest {
    /// A move choice at `level` under `time` (None: the level alone); the clock decides the
    /// depth when a clock is given and no level was chosen. No contempt, no ponder.
    pub fn for_move(position: Position, level: u32, time: Option<Budget>, risk: Option<u32>, level_chosen: bool) -> ThinkRequest {
        ThinkRequest {
            position,
            level,
            time,
            moves: 1,
            draw_value: 0.0,
            risk,
            by_clock: time.is_some() && !level_chosen,
            until_stopped: false,
        }
    }
}

/// One reported line: the value of the move that starts `pv`.
#[derive(Clone, PartialEq, Debug)]
pub struct ThinkInfo {
    pub pv: Vec<Square>,
    /// Discs, from the side to move's point of view.
    pub score: f64,
    pub depth: SearchDepth,
    /// Nodes and seconds since the start of this `think`.
    pub nodes: u64,
    pub seconds: f64,
    /// The chances of the side to move by this line (the risk-aware style reports them).
    pub odds: Option<Odds>,
}

/// The decision.
#[derive(Clone, PartialEq, Debug)]
pub struct ThinkResult {
    /// Always a legal move of the position, even when stopped early.
    pub best: Square,
    pub score: f64,
    pub depth: SearchDepth,
    pub pv: Vec<Square>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A searcher. `think` must poll `stop` and return promptly (with its best move so far) once
/// it is set; it reports lines through `report` as it goes and never prints.
pub trait Think {
    fn think(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult;
}

/// Runs `thinker` on any position: None when the game is over. When the side to move must
/// pass, the thinking is about the position after the pass and every line and the result get
/// `PA` in front (value negated back to the passer's view).
pub fn think_position(
    thinker: &mut dyn Think,
    req: &ThinkRequest,
    stop: &AtomicBool,
    report: &mut dyn FnMut(ThinkInfo),
) -> Option<ThinkResult> {
    let b = req.position.board;
    if b.is_game_over() {
        return None;
    }
    let t0 = std::time::Instant::now();
    let r = think_or_pass(thinker, req, stop, report);
    // What benches/timed_games.sh counts: a budget is a hard limit, any excess is a defect.
    if let Some(budget) = req.time.map(|b| b.hard)
        && t0.elapsed() > budget
    {
        log::warn!(
            "over budget: {:.4} s for a budget of {:.4} s at {} empties",
            t0.elapsed().as_secs_f64(),
            budget.as_secs_f64(),
            b.empty_count()
        );
    }
    Some(r)
}

/// `think_position` once the game is known not to be over.
fn think_or_pass(
    thinker: &mut dyn Think,
    req: &ThinkRequest,
    stop: &AtomicBool,
    report: &mut dyn FnMut(ThinkInfo),
) -> ThinkResult {
    let b = req.position.board;
    if b.moves() != 0 {
        return thinker.think(req, stop, report);
    }
    let passed = ThinkRequest {
        position: req.position.pass(),
        moves: 1,
        draw_value: -req.draw_value,
        ..*req
    };
    let mut r = thinker.think(&passed, stop, &mut |mut info: ThinkInfo| {
        info.pv.insert(0, Square::Pass);
        info.score = -info.score;
        info.odds = info.odds.map(|o| o.flip());
        report(info);
    });
    r.pv.insert(0, Square::Pass);
    r.best = Square::Pass;
    r.score = -r.score;
    r
}

/// Time for one move from the time left (for the next `moves_to_go` moves, or the rest of
/// the game) and the increment each move gives back: the TimeManager's target and hard limit,
/// the hard limit at least 2 ms (a depth-1 search always completes).
pub fn move_budget(seconds_left: f64, increment: f64, moves_to_go: Option<u32>, empties: u32) -> Budget {
    let clock = crate::time::Clock {
        remaining: crate::time::seconds(seconds_left),
        increment: crate::time::seconds(increment),
        moves_to_go,
    };
    let b = crate::time::budget(&clock, empties);
    let hard = b.hard.max(Duration::from_millis(2));
    Budget {
        target: b.target.min(hard),
        hard,
    }
}

/// A fixed time a move (`--move-time`): the whole of it may be used, less what the exchange of
/// lines costs.
pub fn fixed_budget(seconds: f64) -> Budget {
    let hard = crate::time::seconds(seconds * 0.95 - 0.01).max(Duration::from_millis(2));
    Budget { target: hard, hard }
}

/// Whether to go on after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// A protocol session: state plus the handling of one parsed input line.
pub trait Session {
    type Item;
    fn handle(&mut self, item: Self::Item, stop: &AtomicBool, out: &mut Output) -> Flow;

    /// Whether work that later commands interrupted is left to do (an NBoard `learn`).
    fn has_background(&self) -> bool {
        false
    }

    /// Goes on with that work until it is done or `stop` is raised.
    fn background(&mut self, _stop: &AtomicBool, _out: &mut Output) {}
}

/// Handles queued inputs in order until quit, EOF or a broken output; while none waits, goes
/// on with the session's background work (stopped by the next command the reader announces).
pub fn serve<S: Session>(session: &mut S, rx: &Receiver<Message<S::Item>>, stop: &StopSignal, out: &mut Output) {
    loop {
        let next = if session.has_background() {
            stop.clear_input();
            match rx.try_recv() {
                Ok(msg) => Ok(msg),
                Err(TryRecvError::Empty) => {
                    session.background(stop.input_flag(), out);
                    continue;
                }
                Err(TryRecvError::Disconnected) => Err(()),
            }
        } else {
            rx.recv().map_err(|_| ())
        };
        let Ok(msg) = next else { break };
        if msg.interrupting {
            stop.taken();
        }
        let flow = match msg.input {
            Input::Eof => Flow::Quit,
            Input::Line(item) => session.handle(item, stop.flag(), out),
        };
        if flow == Flow::Quit || out.is_broken() {
            break;
        }
    }
}

/// Engine-wide settings from the command line.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Default level until the GUI sets one.
    pub level: u32,
    pub book: book::EngineBook,
    /// The risk-aware style's confidence in percent (`--risk`); None: the ordinary search.
    pub risk: Option<u32>,
    /// `level` was chosen (`--level`), not the default: under a clock it caps the search.
    pub level_explicit: bool,
    /// `--move-time` / `--game-time`.
    pub clock: UserClock,
    /// `--ponder`: think on the opponent's time.
    pub ponder: bool,
}

/// A clock set on the command line (Edax's `-move-time` / `-game-time`); the controller's own
/// clock (GTP `time_settings`, a GGF `TI`) replaces it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum UserClock {
    #[default]
    None,
    /// Seconds for every move.
    MoveTime(f64),
    /// Seconds for the whole game, counted down by the engine itself.
    GameTime(f64),
}

/// Speaks `kind` (or the protocol the first line reveals) on `input`/`out` until quit or EOF.
pub fn run(
    kind: Option<ProtocolKind>,
    mut input: impl BufRead + Send + 'static,
    out: Output,
    thinker: Box<dyn Think>,
    opts: EngineOptions,
) {
    let (kind, first) = match kind {
        Some(k) => (k, None),
        None => match io::first_command_line(&mut input) {
            Some(line) => (io::detect(&line), Some(line)),
            None => return,
        },
    };
    log::info!("speaking {kind:?}");
    let stop = Arc::new(StopSignal::new());
    let mut out = out;
    match kind {
        ProtocolKind::Nboard => {
            let rx = io::spawn_reader(first, input, crate::protocol::nboard::parse, nboard::interrupts, stop.clone());
            serve(&mut nboard::NboardSession::new(thinker, opts), &rx, &stop, &mut out);
        }
        ProtocolKind::Gtp => {
            let rx = io::spawn_reader(first, input, crate::protocol::gtp::parse, gtp::interrupts, stop.clone());
            serve(&mut gtp::GtpSession::new(thinker, opts), &rx, &stop, &mut out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_position;

    /// Plays the first legal move and reports it.
    struct FirstMove;
    impl Think for FirstMove {
        fn think(&mut self, req: &ThinkRequest, _: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
            let sq = Square::At(req.position.board.moves().trailing_zeros() as u8);
            report(ThinkInfo {
                pv: vec![sq],
                score: 2.0,
                depth: SearchDepth::Plies(1),
                nodes: 1,
                seconds: 0.0,
                odds: None,
            });
            ThinkResult {
                best: sq,
                score: 2.0,
                depth: SearchDepth::Plies(1),
                pv: vec![sq],
                nodes: 1,
                seconds: 0.0,
            }
        }
    }

    /// Thinks until stopped, then reports one line: stands in for a long search.
    struct UntilStopped;
    impl Think for UntilStopped {
        fn think(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::yield_now();
            }
            FirstMove.think(req, stop, report)
        }
    }

    /// Collects what the engine writes (the protocol sessions' tests use it too).
    #[derive(Clone, Default)]
    pub(super) struct Sink(pub(super) Arc<parking_lot::Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn run_with(input: &str, thinker: Box<dyn Think>) -> String {
        let sink = Sink::default();
        let input = std::io::Cursor::new(input.as_bytes().to_vec());
        run(
            None,
            input,
            Output::new(Box::new(sink.clone())),
            thinker,
            EngineOptions {
                level: 4,
                book: book::EngineBook::default(),
                risk: None,
                level_explicit: false,
                clock: UserClock::None,
                ponder: false,
            },
        );
        let bytes = sink.0.lock().clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[test]
    fn ping_stops_a_search_and_its_lines_come_first() {
        let out = run_with("nboard 2\nhint 4\nping 7\n", Box::new(UntilStopped));
        assert_eq!(out, "set myname oxello\nsearch D3 2.00 0 1\nnodestats 1 0.000\npong 7\n");
        // EOF alone stops a search too (the GUI went away).
        let out = run_with("nboard 2\ngo\n", Box::new(UntilStopped));
        // (The time field is measured, so only the rest of the line is fixed.)
        assert!(
            out.starts_with("set myname oxello\nsearch D3 2.00 0 1\nnodestats 1 0.000\n=== D3/2.00/"),
            "{out}"
        );
        assert_eq!(out.lines().count(), 4);
    }

    #[test]
    fn gtp_is_detected_and_quit_ends_the_loop() {
        let out = run_with("\n1 name\nquit\nname\n", Box::new(FirstMove));
        assert_eq!(out, "=1 oxello\n\n=\n\n");
    }

    fn request(position: Position) -> ThinkRequest {
        ThinkRequest {
            position,
            level: 1,
            time: None,
            moves: 1,
            draw_value: 0.0,
            risk: None,
            by_clock: false,
            until_stopped: false,
        }
    }

    #[test]
    fn passes_and_finished_games_are_handled_around_the_thinker() {
        let stop = AtomicBool::new(false);
        let mut lines = Vec::new();
        // White to move with no move; Black (a1, b1 white) can play c1.
        let must_pass = parse_position(&format!("XO{} O", "-".repeat(62))).expect("valid");
        let r = think_position(&mut FirstMove, &request(must_pass), &stop, &mut |i| lines.push(i)).expect("not over");
        assert_eq!(r.best, Square::Pass);
        assert_eq!(r.score, -2.0);
        assert_eq!(r.pv, vec![Square::Pass, Square::At(2)]);
        assert_eq!(lines[0].pv, vec![Square::Pass, Square::At(2)]);
        assert_eq!(lines[0].score, -2.0);
        let over = parse_position(&format!("X{} O", "-".repeat(63))).expect("valid");
        assert!(think_position(&mut FirstMove, &request(over), &stop, &mut |_| {}).is_none());
    }

    #[test]
    fn budgets_are_a_share_of_the_time_left() {
        let opening = move_budget(300.0, 0.0, None, 60);
        assert!(
            opening.hard > Duration::from_secs(2) && opening.hard < Duration::from_secs(60),
            "{opening:?}"
        );
        assert!(opening.target < opening.hard);
        assert_eq!(move_budget(0.0, 0.0, None, 10).hard, Duration::from_millis(2));
        assert!(move_budget(10.0, 0.0, None, 30).hard < Duration::from_secs(4));
        // The increment comes back after the move: most of it can be spent on each move, but
        // never more than is left.
        let with = move_budget(10.0, 2.0, None, 30);
        let without = move_budget(10.0, 0.0, None, 30);
        assert!(with.target > without.target + Duration::from_millis(1500), "{with:?}");
        assert!(move_budget(1.0, 2.0, None, 30).hard < Duration::from_secs(1));
        // A fixed time a move is used whole, less the exchange's margin.
        let fixed = fixed_budget(1.0);
        assert_eq!(fixed.target, fixed.hard);
        assert!(fixed.hard > Duration::from_millis(900) && fixed.hard < Duration::from_secs(1));
    }
}
