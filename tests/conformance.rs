//! Conformance harnesses: whole games against the real binary, driven exactly as the GUIs do.
//!
//! NBoard: the engine layer of the NBoard GUI (novello `ParsedEngine`, PROTOCOLS.md §1.2):
//! before every request it brings the engine up to date (`move <mli>` when the game grew by
//! one item, `set game <GGF>` otherwise), sends `set contempt`/`set depth` only when they
//! changed, then `ping N` from one global counter with gaps, then the request; replies count
//! only after the matching `pong`. GTP: a controller as in a match runner, with ids, undo,
//! explicit and implicit passes, time commands and `final_score` checked against our own count.

mod common;

use common::Engine;
use oxello::board::notation::square_name;
use oxello::board::{Color, Position};

/// Seeded xorshift, so every game is reproducible.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Square of a move text (`F5`, `d6`); None for a pass (`PA`, `pass`).
fn parse_square(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let (c, r) = (b.first()?.to_ascii_lowercase(), *b.get(1)?);
    ((b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r)).then(|| (r - b'1') as usize * 8 + (c - b'a') as usize)
}

/// Plays a move text (from the GUI's or the engine's mli) on `pos`; an error names the move.
fn apply(pos: &Position, mv: &str) -> Result<Position, String> {
    let must_pass = pos.board.moves() == 0;
    match parse_square(mv) {
        None if must_pass && mv.to_ascii_uppercase().starts_with("PA") => Ok(pos.pass()),
        Some(sq) if !must_pass => pos.play(sq).ok_or(format!("illegal move {mv}")),
        _ => Err(format!("move '{mv}' does not fit (side to move must pass: {must_pass})")),
    }
}

/// A random legal move for the scripted user, as a move text.
fn random_move(pos: &Position, rng: &mut Rng) -> String {
    let moves: Vec<usize> = (0..64).filter(|&sq| pos.board.moves() >> sq & 1 != 0).collect();
    if moves.is_empty() {
        return "PA".into();
    }
    square_name(moves[rng.below(moves.len())]).to_uppercase()
}

/// Replays move items from the start position.
fn replay(items: &[String]) -> Result<Position, String> {
    items
        .iter()
        .try_fold(Position::start(), |pos, mli| apply(&pos, mli.split('/').next().unwrap_or("")))
}

/// A GGF game as NBoard writes it: start position, 5-minute clock, every item incl. passes.
fn ggf(items: &[String]) -> String {
    let mut s = String::from(
        "(;GM[Othello]PC[NBoard]DT[2026-11-22 12:00:00 GMT]PB[user]PW[oxello]RE[?]TI[5:00]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    for (i, mli) in items.iter().enumerate() {
        s.push_str(&format!("{}[{mli}]", if i % 2 == 0 { 'B' } else { 'W' }));
    }
    s.push_str(";)");
    s
}

/// What NBoard accepts from an engine (PROTOCOLS.md §1.4): a known first word, and the field
/// rules of hint lines.
fn check_line(line: &str, pos: &Position) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |w: &str| !w.contains(['e', 'E']) && w.parse::<f64>().is_ok();
    match words.first().copied() {
        None => Ok(()),
        Some("set") if words.get(1) == Some(&"myname") => Ok(()),
        Some("status" | "pong" | "learned" | "===") => Ok(()),
        Some("nodestats") if words.len() == 3 && words[1].parse::<u64>().is_ok() && number(words[2]) => Ok(()),
        Some("search" | "book") if words.len() >= 5 => {
            let first = words[1].get(..2).unwrap_or("");
            apply(pos, first).map_err(|e| format!("hint pv '{}' does not start with a playable move: {e}", words[1]))?;
            let evals_ok = words[2].split(',').all(number);
            let depth_ok = words[4].starts_with(|c: char| c.is_ascii_digit());
            if evals_ok && words[3].parse::<i32>().is_ok() && depth_ok {
                Ok(())
            } else {
                Err(format!("malformed hint line '{line}'"))
            }
        }
        Some(_) => Err(format!("line NBoard would misread: '{line}'")),
    }
}

/// The GUI's side of one NBoard engine.
struct NboardGui {
    engine: Engine,
    /// The game as the GUI has it (move items) and as the engine was last told.
    game: Vec<String>,
    told: Option<Vec<String>>,
    depth: u32,
    depth_told: Option<u32>,
    contempt: i32,
    contempt_told: i32,
    /// The global ping counter shared with other engines: it also moves without a ping.
    ping: u32,
    moves_sent: usize,
    games_sent: usize,
}

impl NboardGui {
    fn start(depth: u32) -> Result<NboardGui, String> {
        let args = ["nboard", "--threads", "1", "--hash", "8"].map(String::from);
        let mut engine = Engine::start(&args)?;
        engine.send("nboard 2")?;
        Ok(NboardGui {
            engine,
            game: Vec::new(),
            told: None,
            depth,
            depth_told: None,
            contempt: 0,
            contempt_told: 0,
            ping: 100,
            moves_sent: 0,
            games_sent: 0,
        })
    }

    fn position(&self) -> Result<Position, String> {
        replay(&self.game)
    }

    /// updateState, then `ping`, then the request; returns the lines up to the matching pong
    /// (output of earlier requests, which the GUI drops) after checking them.
    fn request(&mut self, command: &str, gap: u32) -> Result<(), String> {
        match &self.told {
            Some(t) if t.len() + 1 == self.game.len() && self.game.starts_with(t) => {
                let last = self.game.last().cloned().unwrap_or_default();
                self.engine.send(&format!("move {last}"))?;
                self.moves_sent += 1;
            }
            Some(t) if *t == self.game => {}
            _ => {
                self.engine.send(&format!("set game {}", ggf(&self.game)))?;
                self.games_sent += 1;
            }
        }
        self.told = Some(self.game.clone());
        if self.contempt != self.contempt_told {
            self.engine.send(&format!("set contempt {}", self.contempt))?;
            self.contempt_told = self.contempt;
        }
        if self.depth_told != Some(self.depth) {
            self.engine.send(&format!("set depth {}", self.depth))?;
            self.depth_told = Some(self.depth);
        }
        self.ping += gap;
        self.engine.send(&format!("ping {}", self.ping))?;
        self.engine.send(command)?;
        let pos = self.position()?;
        let pong = format!("pong {}", self.ping);
        loop {
            let line = self.engine.next()?;
            if line == pong {
                return Ok(());
            }
            if line.starts_with("pong") {
                return Err(format!("expected '{pong}', got '{line}'"));
            }
            // Lines before the pong belong to the previous request: the GUI drops them, but
            // they must still parse.
            if !line.starts_with("search") && !line.starts_with("book") {
                check_line(&line, &pos)?;
            }
        }
    }

    /// `go`: the engine's move item, checked to be legal; the game does not change (the GUI
    /// applies it).
    fn go(&mut self) -> Result<String, String> {
        self.request("go", 2)?;
        let pos = self.position()?;
        loop {
            let line = self.engine.next()?;
            check_line(&line, &pos)?;
            if let Some(rest) = line.strip_prefix("=== ") {
                let mli = rest.trim().replace(' ', "/");
                apply(&pos, mli.split('/').next().unwrap_or(""))?;
                let eval = mli.split('/').nth(1).unwrap_or("");
                if !eval.is_empty() && (eval.contains(['e', 'E']) || eval.parse::<f64>().is_err()) {
                    return Err(format!("eval of '{line}' is not a plain number"));
                }
                return Ok(mli);
            }
        }
    }

    /// `hint n`: waits for the first hint line (checked); the next request's ping stops the
    /// rest, whose lines are checked there.
    fn hint(&mut self, n: u32) -> Result<(), String> {
        self.request(&format!("hint {n}"), 1)?;
        let pos = self.position()?;
        loop {
            let line = self.engine.next()?;
            check_line(&line, &pos)?;
            if line.starts_with("search") || line.starts_with("book") {
                let pass_first = line
                    .split_whitespace()
                    .nth(1)
                    .is_some_and(|pv| pv.to_ascii_uppercase().starts_with("PA"));
                if pos.board.moves() == 0 && !pass_first {
                    return Err(format!("hint when the side must pass does not start with PA: '{line}'"));
                }
                return Ok(());
            }
        }
    }
}

/// One whole NBoard game: the engine plays White (or both sides), the user Black with hints
/// on its turns, depth and contempt changes, a rewind, and pings with gaps.
fn nboard_game(seed: u64, engine_plays_both: bool) -> Result<(), String> {
    let mut rng = Rng(seed);
    let mut gui = NboardGui::start(2)?;
    let mut passes = 0;
    let mut rewound = false;
    loop {
        let pos = gui.position()?;
        if pos.board.is_game_over() {
            break;
        }
        let ply = gui.game.len();
        if ply % 16 == 15 {
            gui.depth = if gui.depth == 2 { 4 } else { 2 };
        }
        if ply == 30 {
            gui.contempt = 100;
        }
        let engine_turn = engine_plays_both || pos.to_move == Color::White;
        if engine_turn {
            let mli = gui.go()?;
            passes += usize::from(mli.to_ascii_uppercase().starts_with("PA"));
            // The GUI echoes the accepted move item back unchanged.
            gui.game.push(mli);
        } else {
            gui.hint([4, 1, 64][ply % 3])?;
            let mv = random_move(&pos, &mut rng);
            passes += usize::from(mv == "PA");
            let time = if ply % 5 == 0 { "2.7680000000000002" } else { "0.5" };
            gui.game.push(format!("{mv}//{time}"));
        }
        // Review an earlier position once (set game truncated), then take two plies back.
        if ply == 20 && !rewound {
            rewound = true;
            let keep = gui.game.len() - 6;
            let saved = gui.game.clone();
            gui.game.truncate(keep);
            gui.hint(4)?;
            gui.game = saved;
            gui.game.truncate(gui.game.len() - 2);
        }
    }
    // The game over step bumps the shared counter without a ping; the next ping still pongs.
    gui.ping += 3;
    gui.request("hint 1", 1)?;
    assert!(
        gui.moves_sent > 10,
        "seed {seed}: the GUI should mostly send `move` ({})",
        gui.moves_sent
    );
    assert!(gui.games_sent >= 2, "seed {seed}: first request and rewinds send `set game`");
    gui.engine.close()?;
    eprintln!("nboard game seed {seed}: {} items, {passes} passes", gui.game.len());
    Ok(())
}

#[test]
fn nboard_whole_games_as_the_gui_plays_them() {
    for (seed, both) in [(11, false), (12, false), (13, true), (14, false)] {
        if let Err(e) = nboard_game(seed, both) {
            panic!("NBoard game seed {seed}: {e}");
        }
    }
}

/// A GTP controller: sends a command (with an id when given), returns the reply text after
/// `=`/`=id`, or an error on `?` or malformed framing.
fn gtp(engine: &mut Engine, id: Option<u32>, command: &str) -> Result<String, String> {
    let line = match id {
        Some(i) => format!("{i} {command}"),
        None => command.to_string(),
    };
    engine.send(&line)?;
    let first = engine.next()?;
    let prefix = format!("={}", id.map(|i| i.to_string()).unwrap_or_default());
    let rest = first
        .strip_prefix(&prefix)
        .ok_or(format!("'{line}' got '{first}'"))?
        .trim()
        .to_string();
    let mut text = rest;
    loop {
        let next = engine.next()?;
        if next.is_empty() {
            return Ok(text);
        }
        text.push('\n');
        text.push_str(&next);
    }
}

/// Black's score as GTP prints it: `B+n`, `W+n` or `0`.
fn gtp_score(pos: &Position) -> String {
    let s = match pos.to_move {
        Color::Black => pos.board.final_score(),
        Color::White => -pos.board.final_score(),
    };
    match s {
        0 => "0".into(),
        s if s > 0 => format!("B+{s}"),
        s => format!("W+{}", -s),
    }
}

/// One whole GTP game: oxello Black by `genmove`, a random White by `play`, undo, passes.
fn gtp_game(seed: u64, implicit_passes: bool, clock: bool) -> Result<(), String> {
    let mut rng = Rng(seed);
    let args = ["gtp", "--level", "2", "--threads", "1", "--hash", "8"].map(String::from);
    let mut engine = Engine::start(&args)?;
    gtp(&mut engine, Some(1), "boardsize 8")?;
    gtp(&mut engine, None, "clear_board")?;
    gtp(&mut engine, Some(2), "komi 0")?;
    if clock {
        gtp(&mut engine, None, "time_settings 60 0 0")?;
    }
    let mut history = vec![Position::start()];
    let mut id = 10;
    let mut undone = false;
    loop {
        let pos = *history.last().ok_or("empty history")?;
        if pos.board.is_game_over() {
            break;
        }
        id += 1;
        if pos.to_move == Color::Black {
            if clock {
                gtp(&mut engine, None, "time_left b 50 0")?;
            }
            let mv = gtp(&mut engine, Some(id), "genmove B")?;
            if mv != mv.to_lowercase() {
                return Err(format!("genmove reply not lowercase: '{mv}'"));
            }
            let next = if mv == "pass" {
                if pos.board.moves() != 0 {
                    return Err("engine passed with a legal move".into());
                }
                pos.pass()
            } else {
                apply(&pos, &mv)?
            };
            history.push(next);
        } else if pos.board.moves() == 0 && implicit_passes {
            // Leave White's pass implicit: the next `genmove b` must play on.
            history.push(pos.pass());
        } else {
            let mv = random_move(&pos, &mut rng);
            let text = if mv == "PA" { "pass".to_string() } else { mv.clone() };
            let colour = if id % 2 == 0 { "w" } else { "White" };
            gtp(&mut engine, Some(id), &format!("play {colour} {text}"))?;
            history.push(apply(&pos, &mv)?);
        }
        // Take back two plies once (controller undo), then continue from there.
        if history.len() == 24 && !undone {
            undone = true;
            gtp(&mut engine, None, "undo")?;
            gtp(&mut engine, Some(99), "undo")?;
            history.truncate(history.len() - 2);
        }
    }
    let end = *history.last().ok_or("empty history")?;
    let score = gtp(&mut engine, Some(500), "final_score")?;
    if score != gtp_score(&end) {
        return Err(format!("final_score {score}, expected {}", gtp_score(&end)));
    }
    // A move after the end is refused.
    engine.send("play b a1")?;
    let refused = engine.next()?;
    if !refused.starts_with('?') {
        return Err(format!("a move after game over got '{refused}'"));
    }
    engine.next()?;
    gtp(&mut engine, None, "quit")?;
    engine.close()?;
    Ok(())
}

#[test]
fn gtp_whole_games_as_a_controller_plays_them() {
    for (seed, implicit, clock) in [(21, false, false), (22, true, false), (23, true, true)] {
        if let Err(e) = gtp_game(seed, implicit, clock) {
            panic!("GTP game seed {seed}: {e}");
        }
    }
}
