//! The GTP session: game state and the handling of each command (PROTOCOLS.md §4).

use super::clock::{GtpClock, Left, Settings};
use super::ponder::Ponder;
use super::{Budget, EngineOptions, Flow, Session, Think, ThinkRequest, UserClock, fixed_budget, think_position};
use crate::board::notation::render;
use crate::board::{Color, Square};
use crate::game::{Game, Ply};
use crate::protocol::gtp::{COMMANDS, Command, ParseError, Request, format_response, format_vertex};
use crate::protocol::io::Output;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub type Item = Result<Option<Request>, ParseError>;

/// For the reader thread: which inputs stop a running search.
pub fn interrupts(item: &Item) -> bool {
    matches!(item, Ok(Some(r)) if r.command.interrupts())
}

pub struct GtpSession {
    game: Game,
    level: u32,
    /// `--level` or `set_level` chose the level: under a clock it caps the search. Otherwise
    /// the clock decides (when there is one).
    level_explicit: bool,
    /// `--move-time`: seconds a move, when the controller gives no clock.
    move_time: Option<f64>,
    ponder: Ponder,
    /// Our own count of each colour's clock, corrected by every `time_left`.
    time: GtpClock,
    /// Ply count before each `play`/`genmove`, so `undo` also takes back an implicit pass.
    history: Vec<usize>,
    thinker: Box<dyn Think>,
    book: super::book::EngineBook,
    /// The risk-aware style's confidence in percent (`oxello-risk`); None: the ordinary search.
    risk: Option<u32>,
}

type Answer = Result<String, String>;

impl GtpSession {
    pub fn new(thinker: Box<dyn Think>, opts: EngineOptions) -> GtpSession {
        let (time, move_time) = match opts.clock {
            UserClock::None => (GtpClock::default(), None),
            UserClock::MoveTime(s) => (GtpClock::default(), Some(s)),
            UserClock::GameTime(s) => (
                GtpClock::new(Settings {
                    main: s,
                    byo_time: 0.0,
                    byo_stones: 0,
                }),
                None,
            ),
        };
        GtpSession {
            game: Game::default(),
            level: opts.level,
            level_explicit: opts.level_explicit,
            move_time,
            ponder: Ponder::new(opts.ponder),
            time,
            history: Vec::new(),
            thinker,
            book: opts.book,
            risk: opts.risk,
        }
    }

    /// Makes `colour` the side to move by inserting the pass when the other side must pass
    /// (Edax/Egaroucid leniency); otherwise the colour is wrong.
    fn align_colour(&mut self, colour: Color) -> Result<(), String> {
        let pos = self.game.position();
        if pos.to_move == colour {
            return Ok(());
        }
        if pos.board.moves() == 0 && !pos.board.is_game_over() {
            self.game.play(Ply::bare(Square::Pass)).map_err(|e| e.to_string())
        } else {
            Err("wrong color".into())
        }
    }

    fn undo_to(&mut self, plies: usize) {
        while self.game.moves_since_start() > plies && self.game.undo() {}
    }

    fn play(&mut self, colour: Color, mv: Square) -> Answer {
        let before = self.game.moves_since_start();
        if self.game.is_over() {
            return Err("illegal move".into());
        }
        self.align_colour(colour)?;
        if self.game.play(Ply::bare(mv)).is_err() {
            self.undo_to(before);
            return Err("illegal move".into());
        }
        self.history.push(before);
        Ok(String::new())
    }

    /// Chooses a move for `colour`, and plays it when `commit`.
    fn genmove(&mut self, colour: Color, commit: bool, stop: &AtomicBool) -> Answer {
        let before = self.game.moves_since_start();
        if self.game.is_over() {
            return Ok("pass".into());
        }
        self.align_colour(colour)?;
        let t0 = Instant::now();
        let position = self.game.position();
        let mv = if position.board.moves() == 0 {
            Square::Pass
        } else if let Some(choice) = self.book.choose(&position, 0) {
            choice.mv
        } else {
            self.ponder.check(&position);
            let req = self.request(position, position.board.empty_count());
            match think_position(self.thinker.as_mut(), &req, stop, &mut |_| {}) {
                Some(r) => {
                    if commit && let Some(after) = r.best.index().and_then(|sq| position.play(sq)) {
                        // What the next move would get, for the ponder's level and solves.
                        let next = self.request(after, position.board.empty_count().saturating_sub(2));
                        self.ponder.start(after, r.best, &r.pv, next);
                    }
                    r.best
                }
                None => Square::Pass,
            }
        };
        let used = t0.elapsed().as_secs_f64();
        if commit {
            // The controller's clock runs for this move whatever it tells us later, and also
            // for the exchange of lines around it, which `t0` cannot see (a 2 s game ran
            // 4.7 ms over before this charge).
            let left = crate::time::seconds(self.time.left(position.to_move).seconds);
            let charged = crate::time::charged(crate::time::seconds(used), left);
            self.time.charge(position.to_move, charged.as_secs_f64());
        }
        let ply = Ply {
            mv,
            eval: None,
            time: Some(used),
        };
        if commit && self.game.play(ply).is_ok() {
            self.history.push(before);
        } else {
            self.undo_to(before);
        }
        Ok(format_vertex(mv))
    }

    /// The search for a move at `position`, budgeted as at `empties` empties: the controller's
    /// clock (or `--game-time`'s), else `--move-time`; the level caps it when one was chosen.
    fn request(&self, position: crate::board::Position, empties: u32) -> ThinkRequest {
        let clock = self.time.budget(position.to_move, empties);
        let time: Option<Budget> = match (clock, self.move_time) {
            (Some(c), _) => Some(c),
            (None, Some(s)) => Some(fixed_budget(s)),
            (None, None) => None,
        };
        ThinkRequest::for_move(position, self.level, time, self.risk, self.level_explicit)
    }

    /// `oxello-clock`: e.g. `black 9.950 s 0 stones; by clock: target 0.123 s, hard 0.370 s`.
    fn clock_report(&self) -> String {
        let position = self.game.position();
        let colour = if position.to_move == Color::Black { "black" } else { "white" };
        let left = self.time.left(position.to_move);
        let req = self.request(position, position.board.empty_count());
        let how = match req.time {
            None => return format!("{colour} no clock; level {}", self.level),
            Some(_) if req.by_clock => "by clock".to_string(),
            Some(_) => format!("level {} capped", self.level),
        };
        let budget = req.time.map_or(String::new(), |b| {
            format!(": target {:.3} s, hard {:.3} s", b.target.as_secs_f64(), b.hard.as_secs_f64())
        });
        let clock = if self.time.is_timed() {
            format!("{:.3} s {} stones", left.seconds, left.stones)
        } else {
            "move time".to_string()
        };
        format!("{colour} {clock}; {how}{budget}")
    }

    /// Black-minus-white, as `B+n`, `W+n` or `0`: with empties to the winner once the game
    /// is over, the plain disc difference before.
    fn final_score(&self) -> String {
        let score = if self.game.is_over() {
            self.game.final_score()
        } else {
            let (black, white) = self.game.position().black_white();
            black.count_ones() as i32 - white.count_ones() as i32
        };
        match score {
            0 => "0".into(),
            s if s > 0 => format!("B+{s}"),
            s => format!("W+{}", -s),
        }
    }

    /// GoGui's board: rows top to bottom as GoGui draws them (row 8 first), `X`/`O`/`.`, so
    /// the coordinates GoGui shows are the ones we use.
    fn gogui_board(&self) -> String {
        let (black, white) = self.game.position().black_white();
        (0..8)
            .rev()
            .map(|row| {
                (0..8)
                    .map(|col| {
                        let bit = 1u64 << (row * 8 + col);
                        if black & bit != 0 {
                            'X'
                        } else if white & bit != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn legal_moves(&self) -> String {
        let b = self.game.position().board;
        if b.is_game_over() {
            return String::new();
        }
        if b.moves() == 0 {
            return "pass".into();
        }
        crate::board::bits::Squares(b.moves())
            .map(|sq| Square::At(sq as u8).to_string().to_uppercase())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn final_result(&self) -> String {
        if !self.game.is_over() {
            return "Game not over".into();
        }
        match self.game.final_score() {
            0 => "Draw".into(),
            s if s > 0 => format!("Black wins by {s} discs"),
            s => format!("White wins by {} discs", -s),
        }
    }

    fn answer(&mut self, command: Command, stop: &AtomicBool) -> Answer {
        Ok(match command {
            Command::ProtocolVersion => "2".into(),
            Command::Name => super::nboard::NAME.into(),
            Command::Version => env!("CARGO_PKG_VERSION").into(),
            Command::KnownCommand(c) => COMMANDS.contains(&c.as_str()).to_string(),
            Command::ListCommands => COMMANDS.join("\n"),
            Command::Quit => String::new(),
            Command::BoardSize(8) => String::new(),
            Command::BoardSize(_) => return Err("unacceptable size".into()),
            Command::ClearBoard => {
                self.game = Game::default();
                self.history.clear();
                self.time.restart();
                String::new()
            }
            Command::Komi(_) => String::new(),
            Command::Play(c, mv) => return self.play(c, mv),
            Command::GenMove(c) => return self.genmove(c, true, stop),
            Command::RegGenMove(c) => return self.genmove(c, false, stop),
            Command::Undo => {
                let Some(before) = self.history.pop() else {
                    return Err("cannot undo".into());
                };
                self.undo_to(before);
                String::new()
            }
            Command::ShowBoard => {
                let pos = self.game.position();
                let mover = if pos.to_move == Color::Black {
                    "X (black)"
                } else {
                    "O (white)"
                };
                format!("\n{}{mover} to move", render(&pos))
            }
            Command::FinalScore => self.final_score(),
            Command::TimeSettings {
                main,
                byo_time,
                byo_stones,
            } => {
                self.time = GtpClock::new(Settings {
                    main,
                    byo_time,
                    byo_stones,
                });
                String::new()
            }
            Command::TimeLeft { colour, seconds, stones } => {
                self.time.set_left(colour, Left { seconds, stones });
                String::new()
            }
            Command::SetGame(name) if name.eq_ignore_ascii_case("othello") => String::new(),
            Command::SetGame(_) => return Err("unsupported game".into()),
            Command::ListGames | Command::RulesGameId => "Othello".into(),
            Command::SetLevel(n) => {
                self.level = n.clamp(1, 60);
                self.level_explicit = true;
                String::new()
            }
            Command::Ponder(on) => {
                self.ponder.enabled = on;
                String::new()
            }
            Command::Clock => self.clock_report(),
            Command::Risk(c) => {
                self.risk = c;
                String::new()
            }
            Command::RulesBoardSize => "8".into(),
            Command::RulesBoard => self.gogui_board(),
            Command::RulesLegalMoves => self.legal_moves(),
            Command::RulesSideToMove => if self.game.position().to_move == Color::Black {
                "black"
            } else {
                "white"
            }
            .into(),
            Command::RulesFinalResult => self.final_result(),
        })
    }
}

/// Commands after which a ponder is no longer about the game: anything but questions and the
/// clock's reports (a `time_left` comes before every `genmove` of some controllers).
fn changes_game(command: &Command) -> bool {
    !matches!(
        command,
        Command::ProtocolVersion
            | Command::Name
            | Command::Version
            | Command::KnownCommand(_)
            | Command::ListCommands
            | Command::ShowBoard
            | Command::FinalScore
            | Command::TimeLeft { .. }
            | Command::Komi(_)
            | Command::ListGames
            | Command::RulesGameId
            | Command::RulesBoardSize
            | Command::RulesBoard
            | Command::RulesLegalMoves
            | Command::RulesSideToMove
            | Command::RulesFinalResult
            | Command::Clock
    )
}

impl Session for GtpSession {
    type Item = Item;

    fn has_background(&self) -> bool {
        self.ponder.pending()
    }

    fn background(&mut self, stop: &AtomicBool, _out: &mut Output) {
        self.ponder.run(self.thinker.as_mut(), stop);
    }

    fn handle(&mut self, item: Item, stop: &AtomicBool, out: &mut Output) -> Flow {
        match item {
            Ok(None) => Flow::Continue,
            Err(e) => {
                out.text(&format_response(e.id.as_deref(), Err(&e.message)));
                Flow::Continue
            }
            Ok(Some(Request { id, command })) => {
                let quit = command == Command::Quit;
                if changes_game(&command) {
                    self.ponder.cancel();
                }
                let answer = self.answer(command, stop);
                out.text(&format_response(id.as_deref(), answer.as_deref().map_err(String::as_str)));
                if quit { Flow::Quit } else { Flow::Continue }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SearchDepth;
    use crate::board::Position;
    use crate::engine::{ThinkInfo, ThinkResult};
    use parking_lot::Mutex;
    use std::sync::Arc;

    /// Plays the first legal move and expects the opponent's first legal move in reply; records
    /// every request. A ponder (`until_stopped`) takes `ponder_ms` and then completes.
    struct Scripted {
        seen: Arc<Mutex<Vec<ThinkRequest>>>,
        ponder_ms: u64,
    }

    fn first(p: &Position) -> Option<Square> {
        let m = p.board.moves();
        (m != 0).then(|| Square::At(m.trailing_zeros() as u8))
    }

    impl Think for Scripted {
        fn think(&mut self, req: &ThinkRequest, _: &AtomicBool, _: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
            self.seen.lock().push(*req);
            if req.until_stopped {
                std::thread::sleep(std::time::Duration::from_millis(self.ponder_ms));
            }
            let best = first(&req.position).unwrap_or(Square::Pass);
            let after = best.index().and_then(|sq| req.position.play(sq));
            let pv = [Some(best), after.and_then(|a| first(&a))].into_iter().flatten().collect();
            ThinkResult {
                best,
                score: 0.0,
                depth: SearchDepth::Plies(1),
                pv,
                nodes: 1,
                seconds: 0.0,
            }
        }
    }

    fn session(ponder: bool, ponder_ms: u64) -> (GtpSession, Arc<Mutex<Vec<ThinkRequest>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let thinker = Scripted {
            seen: seen.clone(),
            ponder_ms,
        };
        let opts = EngineOptions {
            level: 12,
            book: super::super::book::EngineBook::default(),
            risk: None,
            level_explicit: false,
            clock: UserClock::None,
            ponder,
        };
        (GtpSession::new(Box::new(thinker), opts), seen)
    }

    fn send(s: &mut GtpSession, line: &str) -> String {
        let sink = crate::engine::tests::Sink::default();
        let mut out = Output::new(Box::new(sink.clone()));
        s.handle(crate::protocol::gtp::parse(line), &AtomicBool::new(false), &mut out);
        String::from_utf8_lossy(&sink.0.lock()).trim().to_string()
    }

    /// Plays `genmove b` and returns (our move, the reply the search expected).
    fn our_move(s: &mut GtpSession) -> (String, Square) {
        let mv = send(s, "genmove b");
        let pos = s.game.position();
        (mv, first(&pos).expect("white has a move"))
    }

    /// Clocks no GUI sets but a line can say (`time_settings 1e300 0 0` panicked converting the
    /// time left; found by fuzzing whole sessions): each move is still played.
    #[test]
    fn absurd_clocks_still_play() {
        for clock in [
            "1e300 0 0",
            "111111111111111111111111111111111111111 0 0",
            "300 1e300 1",
            "inf 0 0",
        ] {
            let (mut s, _) = session(false, 0);
            let answer = send(&mut s, &format!("time_settings {clock}"));
            let mv = send(&mut s, "genmove b");
            assert!(mv.starts_with("= ") && mv.len() > 2, "{clock}: {answer} / {mv}");
            let mv = send(&mut s, "genmove w");
            assert!(mv.starts_with("= ") && mv.len() > 2, "{clock}: {mv}");
        }
    }

    #[test]
    fn ponder_hit_and_miss() {
        let (mut s, seen) = session(true, 0);
        send(&mut s, "time_settings 60 0 0");
        let (_, reply) = our_move(&mut s);
        // The ponder waits for the serve loop; it is about the position after the expected reply,
        // searched as the next move would be (by the clock, no time limit).
        assert!(s.has_background());
        s.background(&AtomicBool::new(false), &mut Output::new(Box::new(std::io::sink())));
        assert!(!s.has_background(), "a completed ponder is not run again");
        let ponder = *seen.lock().last().expect("pondered");
        let expected = s.game.position().play(reply.index().expect("a square")).expect("legal");
        assert!(ponder.until_stopped && ponder.by_clock && ponder.time.is_some());
        assert_eq!(ponder.position, expected);
        // Hit: the opponent plays the expected reply.
        send(&mut s, &format!("play w {reply}"));
        assert!(!s.has_background(), "play ends the ponder");
        send(&mut s, "genmove b");
        assert_eq!((s.ponder.hits, s.ponder.misses), (1, 0));
        let last = *seen.lock().last().expect("searched");
        assert!(!last.until_stopped, "the move's own search is timed");
        // Miss: another reply.
        let pos = s.game.position();
        let other = crate::board::bits::Squares(pos.board.moves())
            .map(|sq| Square::At(sq as u8))
            .find(|&m| Some(m) != first(&pos))
            .expect("white has two moves");
        send(&mut s, &format!("play w {other}"));
        send(&mut s, "genmove b");
        assert_eq!((s.ponder.hits, s.ponder.misses), (1, 1));
    }

    #[test]
    fn ponder_is_off_by_default_and_switched_by_command() {
        let (mut s, _) = session(false, 0);
        send(&mut s, "genmove b");
        assert!(!s.has_background());
        assert_eq!(send(&mut s, "oxello-ponder on"), "=");
        send(&mut s, "genmove w");
        assert!(s.has_background());
        // Questions and time_left keep it; anything else that changes the game ends it.
        send(&mut s, "name");
        send(&mut s, "time_left b 10 0");
        assert!(s.has_background());
        send(&mut s, "set_level 4");
        assert!(!s.has_background());
    }

    #[test]
    fn pondering_never_counts_against_our_clock() {
        let (mut s, _) = session(true, 300);
        send(&mut s, "time_settings 10 0 0");
        send(&mut s, "genmove b");
        let after_move = s.time.left(Color::Black).seconds;
        // The opponent thinks; we ponder for 0.3 s.
        s.background(&AtomicBool::new(false), &mut Output::new(Box::new(std::io::sink())));
        let reply = first(&s.game.position()).expect("a reply");
        send(&mut s, &format!("play w {reply}"));
        send(&mut s, "genmove b");
        let left = s.time.left(Color::Black).seconds;
        assert!(after_move - left < 0.1, "{after_move} -> {left}");
    }

    #[test]
    fn the_clock_decides_without_a_level() {
        let (mut s, seen) = session(false, 0);
        send(&mut s, "genmove b");
        assert!(seen.lock()[0].time.is_none() && !seen.lock()[0].by_clock);
        send(&mut s, "time_settings 60 0 0");
        send(&mut s, "genmove w");
        assert!(seen.lock()[1].time.is_some() && seen.lock()[1].by_clock);
        send(&mut s, "set_level 10");
        send(&mut s, "genmove b");
        let capped = seen.lock()[2];
        assert!(capped.time.is_some() && !capped.by_clock && capped.level == 10);
    }
}
