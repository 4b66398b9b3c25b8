//! The NBoard session: game state and the handling of each command (PROTOCOLS.md §1).

use super::book::EngineBook;
use super::{EngineOptions, Flow, Session, Think, ThinkInfo, ThinkRequest, move_budget, think_position};
use crate::board::{Board, Color, Square};
use crate::game::{Game, Ply};
use crate::protocol::io::Output;
use crate::protocol::nboard::{Command, ParseError, Reply};
use std::collections::HashMap;
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Our name for `set myname`: one alphanumeric word, as NBoard requires.
pub const NAME: &str = "oxello";

pub type Item = Result<Command, ParseError>;

/// For the reader thread: which inputs stop a running search.
pub fn interrupts(item: &Item) -> bool {
    item.as_ref().is_ok_and(Command::interrupts)
}

pub struct NboardSession {
    game: Game,
    depth: u32,
    /// Centidiscs from Black's point of view.
    contempt: i32,
    /// The risk-aware style's confidence in percent (`set risk`); None: the ordinary search.
    risk: Option<u32>,
    thinker: Box<dyn Think>,
    book: EngineBook,
    /// Games to learn, oldest first. A `learn` that later commands interrupt goes on when no
    /// input waits (`Session::background`), so that `ping` and `quit` are never kept waiting.
    learning: VecDeque<Game>,
    /// Seconds we took for each `go` answer of the current game, by position and move: the
    /// clock counts them even when the GUI sends our moves back without their time.
    thought: HashMap<(Board, Square), f64>,
}

impl NboardSession {
    pub fn new(thinker: Box<dyn Think>, opts: EngineOptions) -> NboardSession {
        NboardSession {
            game: Game::default(),
            depth: opts.depth,
            contempt: 0,
            risk: opts.risk,
            thinker,
            book: opts.book,
            learning: VecDeque::new(),
            thought: HashMap::new(),
        }
    }

    fn request(&self, moves: usize, timed: bool) -> ThinkRequest {
        let position = self.game.position();
        let black_view = f64::from(self.contempt) / 100.0;
        let draw_value = match position.to_move {
            Color::Black => black_view,
            Color::White => -black_view,
        };
        // `go` is bound by the GGF clock as well as the depth; hints by the depth only.
        let time = if timed {
            self.game
                .time_left_using(position.to_move, |pos, ply| {
                    let ours = self.thought.get(&(pos.board, ply.mv)).copied().unwrap_or(0.0);
                    ply.time.unwrap_or(0.0).max(ours)
                })
                .map(|left| move_budget(left, None, position.board.empty_count()))
        } else {
            None
        };
        ThinkRequest {
            position,
            depth: self.depth,
            time,
            moves,
            draw_value,
            risk: self.risk,
        }
    }

    /// Streams every reported line as a `search` hint, then the node count.
    fn think(&mut self, req: &ThinkRequest, stop: &AtomicBool, out: &mut Output) -> Option<super::ThinkResult> {
        let mut report = |info: ThinkInfo| out.line(&hint_line(false, info));
        let r = think_position(self.thinker.as_mut(), req, stop, &mut report)?;
        out.line(
            &Reply::NodeStats {
                nodes: r.nodes,
                seconds: r.seconds,
            }
            .to_string(),
        );
        Some(r)
    }

    fn go(&mut self, stop: &AtomicBool, out: &mut Output) {
        let t0 = Instant::now();
        let pos = self.game.position();
        if pos.board.is_game_over() {
            out.line(&Reply::Status("game over: no move to make".into()).to_string());
            return;
        }
        // A forced pass needs no thought; the GUI still asks (PROTOCOLS.md §1.7).
        let ply = if pos.board.moves() == 0 {
            Ply::bare(Square::Pass)
        } else if let Some(choice) = self.book.choose(&pos) {
            Ply {
                mv: choice.mv,
                eval: Some(choice.value),
                time: Some(t0.elapsed().as_secs_f64()),
            }
        } else {
            let req = self.request(1, true);
            let Some(r) = self.think(&req, stop, out) else { return };
            Ply {
                mv: r.best,
                eval: Some(r.score),
                time: Some(t0.elapsed().as_secs_f64()),
            }
        };
        // Only this game's positions matter to its clock.
        let positions: Vec<Board> = self.game.positions().iter().map(|p| p.board).collect();
        self.thought.retain(|(b, _), _| positions.contains(b));
        self.thought.insert((pos.board, ply.mv), t0.elapsed().as_secs_f64());
        // Not applied: the GUI sends `move` back if it accepts it (pitfall 6.6).
        out.line(&Reply::Move(ply).to_string());
    }

    /// Learns `game`; false when stopped before the end (nothing wrong is stored; learning it
    /// again goes on where it stopped).
    fn learn_game(&mut self, game: &Game, stop: &AtomicBool, out: &mut Output) -> bool {
        match self.book.learn(game, self.thinker.as_mut(), self.depth, stop) {
            Ok(l) if !l.finished => false,
            Ok(l) => {
                log::info!("learned {} new book positions", l.added);
                out.line(&Reply::Learned.to_string());
                true
            }
            Err(e) => {
                out.line(&Reply::Status(e).to_string());
                true
            }
        }
    }

    /// `analysis <moves made> <eval>` for every position, last first, each from its mover's view.
    fn analyze(&mut self, stop: &AtomicBool, out: &mut Output) {
        let positions: Vec<_> = self.game.positions().to_vec();
        for (k, &position) in positions.iter().enumerate().rev() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let eval = if position.board.is_game_over() {
                f64::from(position.board.final_score())
            } else {
                let req = ThinkRequest {
                    position,
                    depth: self.depth,
                    time: None,
                    moves: 1,
                    draw_value: 0.0,
                    risk: self.risk,
                };
                match think_position(self.thinker.as_mut(), &req, stop, &mut |_| {}) {
                    Some(r) => r.score,
                    None => continue,
                }
            };
            out.line(&Reply::Analysis { moves_made: k, eval }.to_string());
        }
    }
}

/// A `search` or `book` hint line (the number of games is not tracked: 0).
fn hint_line(book: bool, info: ThinkInfo) -> String {
    Reply::Hint {
        book,
        pv: info.pv,
        eval: info.score,
        games: 0,
        depth: info.depth,
        odds: info.odds,
    }
    .to_string()
}

impl Session for NboardSession {
    type Item = Item;

    fn handle(&mut self, item: Item, stop: &AtomicBool, out: &mut Output) -> Flow {
        let cmd = match item {
            Ok(c) => c,
            Err(e) => {
                out.line(&Reply::Status(e.to_string()).to_string());
                return Flow::Continue;
            }
        };
        match cmd {
            Command::Nboard(_) => out.line(&Reply::MyName(NAME.into()).to_string()),
            Command::SetDepth(d) => self.depth = d.clamp(1, 60),
            Command::SetContempt(c) => self.contempt = c,
            Command::SetRisk(c) => self.risk = c,
            Command::SetGame(g) => self.game = g.game,
            Command::Move(ply) => {
                if let Err(e) = self.game.play_forcing_pass(ply) {
                    out.line(&Reply::Status(format!("move rejected ({e}); position kept")).to_string());
                }
            }
            Command::Hint(n) => {
                // Book moves first, as `book` lines; the search then goes on as usual.
                for info in self.book.hints(&self.game.position()) {
                    out.line(&hint_line(true, info));
                }
                let req = self.request(n as usize, false);
                if self.think(&req, stop, out).is_none() {
                    out.line(&Reply::Status("game over: nothing to analyse".into()).to_string());
                }
            }
            Command::Go => self.go(stop, out),
            Command::Ping(n) => out.line(&Reply::Pong(n).to_string()),
            Command::Learn => {
                self.learning.push_back(self.game.clone());
                self.background(stop, out);
            }
            Command::Analyze => self.analyze(stop, out),
            Command::Quit => return Flow::Quit,
            Command::Ignored(word) => log::debug!("ignored command '{word}'"),
        }
        Flow::Continue
    }

    fn has_background(&self) -> bool {
        !self.learning.is_empty()
    }

    fn background(&mut self, stop: &AtomicBool, out: &mut Output) {
        while let Some(game) = self.learning.front().cloned() {
            if !self.learn_game(&game, stop, out) {
                return;
            }
            self.learning.pop_front();
        }
    }
}
