//! `oxello match`: two engines given as command lines speaking GTP play every opening twice
//! (colours swapped). Illegal moves, crashes and time-outs lose the game for the offender and
//! never hang the runner. Every game is written as GGF; the result as W-D-L, average discs,
//! score and an Elo difference with a 95 % interval.

use crate::board::notation::Square;
use crate::board::{Color, Position};
use crate::game::{Game, Ply};
use crate::ggf::{GameEnd, GgfGame, GgfResult};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// A running GTP engine.
struct Engine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(name: &str, command: &str) -> Result<Engine, String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (prog, args) = words.split_first().ok_or_else(|| format!("{name}: empty command"))?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{name}: cannot start '{command}': {e}"))?;
        let stdin = child.stdin.take().ok_or_else(|| format!("{name}: no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| format!("{name}: no stdout"))?;
        let (tx, lines) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Ok(Engine {
            name: name.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// A pass the engine does not accept: some engines (GRhino) track passes themselves and
    /// reject every pass syntax, which is harmless; a crash or time-out is not.
    fn tell_pass(&mut self, colour: Color, timeout: Duration) -> Result<(), String> {
        match self.ask(&format!("play {} pass", colour_word(colour)), timeout) {
            Ok(_) => Ok(()),
            Err(why) if why.contains(" refused ") => Ok(()),
            Err(why) => Err(why),
        }
    }

    /// Sends one command and returns the success text, or why it failed.
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<String, String> {
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| format!("{} crashed", self.name))?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(format!("{} timed out on '{command}'", self.name)),
                Err(RecvTimeoutError::Disconnected) => return Err(format!("{} crashed", self.name)),
            };
            let line = line.trim();
            if let Some(rest) = line.strip_prefix('=') {
                // Skip an optional id, then drain the rest of the response up to its blank line.
                let text = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
                while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    if l.trim().is_empty() {
                        break;
                    }
                }
                return Ok(text);
            }
            if let Some(rest) = line.strip_prefix('?') {
                return Err(format!("{} refused '{command}': {}", self.name, rest.trim()));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a game ended, from Black's side.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub black_minus_white: i32,
    /// Set when a side lost by an illegal move, a crash or a time-out.
    pub forfeit: Option<String>,
    pub game: Game,
}

fn colour_word(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// Plays one game from `opening` (moves sent to both engines first).
fn play_game(black: &mut Engine, white: &mut Engine, opening: &[Square], timeout: Duration) -> Outcome {
    let mut game = Game::new(Position::start());
    let forfeit = |game: Game, loser: Color, why: String| Outcome {
        black_minus_white: if loser == Color::Black { -64 } else { 64 },
        forfeit: Some(why),
        game,
    };
    for cmd in ["boardsize 8", "clear_board"] {
        if let Err(why) = black.ask(cmd, timeout) {
            return forfeit(game, Color::Black, why);
        }
        if let Err(why) = white.ask(cmd, timeout) {
            return forfeit(game, Color::White, why);
        }
    }
    let mut book = opening.iter();
    while !game.is_over() {
        let mover = game.position().to_move;
        let must_pass = game.position().board.moves() == 0;
        let (me, other) = match mover {
            Color::Black => (&mut *black, &mut *white),
            Color::White => (&mut *white, &mut *black),
        };
        let mv = if must_pass {
            Square::Pass
        } else if let Some(&mv) = book.next() {
            if let Err(why) = me.ask(&format!("play {} {mv}", colour_word(mover)), timeout) {
                return forfeit(game, mover, why);
            }
            mv
        } else {
            match me.ask(&format!("genmove {}", colour_word(mover)), timeout) {
                Ok(text) => match Square::parse(&text) {
                    Ok(mv) if game.is_legal(mv) => mv,
                    _ => return forfeit(game, mover, format!("{} played an illegal move '{text}'", me.name)),
                },
                Err(why) => return forfeit(game, mover, why),
            }
        };
        if must_pass {
            if let Err(why) = me.tell_pass(mover, timeout) {
                return forfeit(game, mover, why);
            }
            if let Err(why) = other.tell_pass(mover, timeout) {
                return forfeit(game, mover.other(), why);
            }
        } else if let Err(why) = other.ask(
            &format!("play {} {}", colour_word(mover), crate::protocol::gtp::format_vertex(mv)),
            timeout,
        ) {
            return forfeit(game, mover.other(), why);
        }
        if game.play(Ply::bare(mv)).is_err() {
            return forfeit(game, mover, format!("{} played an illegal move", me.name));
        }
    }
    Outcome {
        black_minus_white: game.final_score(),
        forfeit: None,
        game,
    }
}

/// Result of a match from engine A's side.
#[derive(Clone, Debug, Default)]
pub struct MatchResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub discs: i64,
    pub forfeits: Vec<String>,
}

impl MatchResult {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
    /// Elo difference and its 95 % interval (from the per-game score's standard error).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let var =
            (self.wins as f64 * (1.0 - p).powi(2) + self.draws as f64 * (0.5 - p).powi(2) + self.losses as f64 * p.powi(2)) / n;
        let se = (var / n).sqrt();
        let elo = |p: f64| -400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
        (elo(p), elo(p - 1.96 * se), elo(p + 1.96 * se))
    }
}

/// Plays every opening twice; `ggf` receives each game as one line.
pub fn run(
    engine_a: &str,
    engine_b: &str,
    openings: &[Vec<Square>],
    timeout: Duration,
    ggf: &mut dyn Write,
    progress: bool,
) -> Result<MatchResult, String> {
    let mut result = MatchResult::default();
    let total = openings.len() * 2;
    for (i, opening) in openings.iter().enumerate() {
        for a_black in [true, false] {
            // Fresh processes per game: a crash in one game cannot spoil the next.
            let mut a = Engine::spawn("A", engine_a)?;
            let mut b = Engine::spawn("B", engine_b)?;
            let (black, white) = if a_black { (&mut a, &mut b) } else { (&mut b, &mut a) };
            let out = play_game(black, white, opening, timeout);
            let d = if a_black {
                out.black_minus_white
            } else {
                -out.black_minus_white
            };
            match d.signum() {
                1 => result.wins += 1,
                0 => result.draws += 1,
                _ => result.losses += 1,
            }
            result.discs += d as i64;
            if let Some(f) = &out.forfeit {
                result.forfeits.push(format!("game {}: {f}", result.games()));
            }
            let mut record = GgfGame::new(out.game);
            record.place = Some("oxello match".into());
            record.black_name = Some(if a_black { "A" } else { "B" }.into());
            record.white_name = Some(if a_black { "B" } else { "A" }.into());
            record.result = Some(GgfResult::Score {
                black_minus_white: out.black_minus_white as f64,
                end: if out.forfeit.is_some() {
                    GameEnd::Resigned
                } else {
                    GameEnd::Normal
                },
            });
            writeln!(ggf, "{}", record.write()).map_err(|e| format!("cannot write GGF: {e}"))?;
            if progress {
                eprint!(
                    "\rmatch: {}/{total} games (opening {}), A +{} ={} -{}   ",
                    result.games(),
                    i + 1,
                    result.wins,
                    result.draws,
                    result.losses
                );
            }
        }
    }
    if progress {
        eprintln!();
    }
    Ok(result)
}
