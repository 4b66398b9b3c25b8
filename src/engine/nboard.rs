//! The NBoard session: game state and the handling of each command (PROTOCOLS.md §1).

use super::book::EngineBook;
use super::ponder::Ponder;
use super::{EngineOptions, Flow, Session, Think, ThinkInfo, ThinkRequest, UserClock, fixed_budget, move_budget, think_position};
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
    /// The level (`--level`, `set depth`: NBoard calls it a depth).
    level: u32,
    /// `--level` or `set depth` chose the level (NBoard always sends one: its meaning stays, the
    /// user's depth limited by the clock). Without one a clock decides.
    level_explicit: bool,
    /// `--move-time` / `--game-time`, for games whose GGF has no clock.
    clock: UserClock,
    ponder: Ponder,
    /// The line our last `go` expected, from the position it was asked about.
    last_line: Option<(Board, Vec<Square>)>,
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
            level: opts.level,
            level_explicit: opts.level_explicit,
            clock: opts.clock,
            ponder: Ponder::new(opts.ponder),
            last_line: None,
            contempt: 0,
            risk: opts.risk,
            thinker,
            book: opts.book,
            learning: VecDeque::new(),
            thought: HashMap::new(),
        }
    }

    /// Seconds left on `colour`'s clock: the GGF's clock, else `--game-time` counted from our
    /// own moves' times; None without either. A move's time is the larger of the GUI's figure
    /// and ours, so a GUI that sends moves back without times still runs our clock down.
    fn time_left(&self, colour: Color) -> Option<f64> {
        let time_of = |pos: &crate::board::Position, ply: &Ply| {
            let ours = self.thought.get(&(pos.board, ply.mv)).copied().unwrap_or(0.0);
            ply.time.unwrap_or(0.0).max(ours)
        };
        if let Some(left) = self.game.time_left_using(colour, time_of) {
            return Some(left);
        }
        let UserClock::GameTime(s) = self.clock else { return None };
        let clock = crate::game::Clock {
            main: s,
            increment: 0.0,
            grace: 0.0,
        };
        let times = (self.game.plies().iter().zip(self.game.positions()))
            .filter(|(_, pos)| pos.to_move == colour)
            .map(|(ply, pos)| time_of(pos, ply));
        Some(clock.remaining(times))
    }

    /// The time for a move of `colour` at `empties` empties: by the GGF's clock (with its
    /// increment), else by `--game-time` counted from our own moves' times, else `--move-time`.
    fn budget(&self, colour: Color, empties: u32) -> Option<super::Budget> {
        let ggf_clock = self.game.clock(colour).filter(|c| !c.is_unlimited());
        match (self.time_left(colour), self.clock) {
            (Some(left), _) => {
                let increment = ggf_clock.map_or(0.0, |c| c.increment);
                Some(move_budget(left, increment, None, empties))
            }
            (None, UserClock::MoveTime(s)) => Some(fixed_budget(s)),
            (None, _) => None,
        }
    }

    fn request(&self, moves: usize, timed: bool) -> ThinkRequest {
        self.request_at(self.game.position(), moves, timed, None)
    }

    /// `request` for `position`, budgeted as at `empties` empties (default: its own).
    fn request_at(&self, position: crate::board::Position, moves: usize, timed: bool, empties: Option<u32>) -> ThinkRequest {
        let empties = empties.unwrap_or(position.board.empty_count());
        let black_view = f64::from(self.contempt) / 100.0;
        let draw_value = match position.to_move {
            Color::Black => black_view,
            Color::White => -black_view,
        };
        // `go` is bound by the GGF clock as well as the depth; hints by the depth only.
        let time = if timed { self.budget(position.to_move, empties) } else { None };
        ThinkRequest {
            position,
            level: self.level,
            time,
            moves,
            draw_value,
            risk: self.risk,
            by_clock: time.is_some() && !self.level_explicit,
            until_stopped: false,
        }
    }

    /// After a change of the game: when its last move is the one our `go` chose, the opponent
    /// is thinking and we ponder; otherwise no ponder.
    fn ponder_after_change(&mut self) {
        self.ponder.cancel();
        let (Some(last), Some(&before)) = (self.game.plies().last(), self.game.positions().iter().rev().nth(1)) else {
            return;
        };
        let Some((board, pv)) = self.last_line.clone() else { return };
        if board != before.board || !self.thought.contains_key(&(board, last.mv)) {
            return;
        }
        let after = self.game.position();
        let next = self.request_at(after, 1, true, Some(before.board.empty_count().saturating_sub(2)));
        self.ponder.start(after, last.mv, &pv, next);
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
        let left = self.time_left(pos.to_move);
        if pos.board.is_game_over() {
            out.line(&Reply::Status("game over: no move to make".into()).to_string());
            return;
        }
        // A forced pass needs no thought; the GUI still asks (PROTOCOLS.md §1.7).
        let ply = if pos.board.moves() == 0 {
            Ply::bare(Square::Pass)
        } else if let Some(choice) = self
            .book
            .choose(&pos, crate::search::draw::from_discs(self.request(1, false).draw_value))
        {
            Ply {
                mv: choice.mv,
                eval: Some(choice.value),
                time: Some(t0.elapsed().as_secs_f64()),
            }
        } else {
            self.ponder.check(&pos);
            let req = self.request(1, true);
            let Some(r) = self.think(&req, stop, out) else { return };
            self.last_line = Some((pos.board, r.pv.clone()));
            Ply {
                mv: r.best,
                eval: Some(r.score),
                time: Some(t0.elapsed().as_secs_f64()),
            }
        };
        // Our clock also runs for the exchange of lines around the move, which `t0` cannot
        // see: charge what the GTP side charges (half the budget's per-move reserve). Without
        // it a 2 s game with moves sent back without times ran 15 ms over on a loaded CI host.
        let charged = match left {
            Some(s) => crate::time::charged(t0.elapsed(), crate::time::seconds(s)).as_secs_f64(),
            None => t0.elapsed().as_secs_f64(),
        };
        // Only this game's positions matter to its clock.
        let positions: Vec<Board> = self.game.positions().iter().map(|p| p.board).collect();
        self.thought.retain(|(b, _), _| positions.contains(b));
        self.thought.insert((pos.board, ply.mv), charged);
        // Not applied: the GUI sends `move` back if it accepts it (pitfall 6.6).
        out.line(&Reply::Move(ply).to_string());
    }

    /// Learns `game`; false when stopped before the end (nothing wrong is stored; learning it
    /// again goes on where it stopped).
    fn learn_game(&mut self, game: &Game, stop: &AtomicBool, out: &mut Output) -> bool {
        match self.book.learn(game, self.thinker.as_mut(), self.level, stop) {
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
                    level: self.level,
                    time: None,
                    moves: 1,
                    draw_value: 0.0,
                    risk: self.risk,
                    by_clock: false,
                    until_stopped: false,
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
        // Anything but a ping or a setting ends a ponder; a new move may start the next one.
        if !matches!(
            cmd,
            Command::Ping(_)
                | Command::SetDepth(_)
                | Command::SetContempt(_)
                | Command::SetRisk(_)
                | Command::SetPonder(true)
                | Command::Ignored(_)
        ) {
            self.ponder.cancel();
        }
        match cmd {
            Command::Nboard(_) => out.line(&Reply::MyName(NAME.into()).to_string()),
            Command::SetDepth(d) => {
                self.level = d.clamp(1, 60);
                self.level_explicit = true;
            }
            Command::SetPonder(on) => self.ponder.enabled = on,
            Command::SetContempt(c) => self.contempt = c,
            Command::SetRisk(c) => self.risk = c,
            Command::SetGame(g) => {
                self.game = g.game;
                self.ponder_after_change();
            }
            Command::Move(ply) => {
                if let Err(e) = self.game.play_forcing_pass(ply) {
                    out.line(&Reply::Status(format!("move rejected ({e}); position kept")).to_string());
                }
                self.ponder_after_change();
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
        !self.learning.is_empty() || self.ponder.pending()
    }

    fn background(&mut self, stop: &AtomicBool, out: &mut Output) {
        if self.learning.is_empty() {
            self.ponder.run(self.thinker.as_mut(), stop);
            return;
        }
        while let Some(game) = self.learning.front().cloned() {
            if !self.learn_game(&game, stop, out) {
                return;
            }
            self.learning.pop_front();
        }
    }
}
