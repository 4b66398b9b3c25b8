//! `oxello match`: two engines given as command lines, speaking GTP or NBoard, play every
//! opening twice (colours swapped), at their own depth or under a clock per game. Illegal
//! moves, crashes, time-outs and lost clocks lose the game for the offender and never hang the
//! runner. Every game is written as GGF (with each move's time); the result as W-D-L, average
//! discs, score and an Elo difference with a 95 % interval.

mod gtp;
mod nboard;
mod process;
mod sprt;

pub use sprt::{Sprt, Verdict};

use crate::board::notation::Square;
use crate::board::{Color, Position};
use crate::game::{Clock, Game, Ply};
use crate::ggf::{GameEnd, GgfGame, GgfResult};
use process::Process;
use std::io::Write;
use std::time::{Duration, Instant};

/// One side of a game, whatever protocol it speaks.
trait Player {
    fn name(&self) -> &str;
    /// A new game from `game` (the opening already played), with `clock` per side if any.
    fn start(&mut self, game: &Game, clock: Option<Duration>, timeout: Duration) -> Result<(), String>;
    /// The engine's move (as it wrote it) for the side to move of `game`, which has a legal move.
    fn choose(&mut self, game: &Game, left: Option<Duration>, timeout: Duration) -> Result<String, String>;
    /// A ply was played (`chosen_here`: this engine chose it), taking `secs`.
    fn played(&mut self, mover: Color, mv: Square, secs: f64, chosen_here: bool, timeout: Duration) -> Result<(), String>;
}

/// Starts engine `name` (A or B) from `gtp:<command>`, `nboard:<command>`,
/// `nboard:depth=N:<command>` (the GUI's `set depth N`) or a plain (GTP) command line. Errors
/// name the option that gave it (`--engine-a`).
fn spawn(name: &str, spec: &str) -> Result<Box<dyn Player>, String> {
    let bad = |why: String| {
        format!(
            "--engine-{} '{spec}': {why}; an engine is COMMAND, gtp:COMMAND, nboard:COMMAND or nboard:depth=N:COMMAND",
            name.to_ascii_lowercase()
        )
    };
    if let Some(rest) = spec.strip_prefix("nboard:") {
        let (depth, cmd) = match rest.strip_prefix("depth=").and_then(|r| r.split_once(':')) {
            Some((d, cmd)) => {
                let d = d.parse::<u32>().map_err(|_| bad(format!("bad depth '{d}'")))?;
                (Some(d), cmd)
            }
            None => (None, rest),
        };
        Ok(Box::new(nboard::NboardPlayer::new(
            Process::spawn(name, cmd).map_err(bad)?,
            depth,
        )))
    } else {
        let cmd = spec.strip_prefix("gtp:").unwrap_or(spec);
        Ok(Box::new(gtp::GtpPlayer::new(Process::spawn(name, cmd).map_err(bad)?)))
    }
}

/// How a game ended, from Black's side.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub black_minus_white: i32,
    /// Set when a side lost by an illegal move, a crash, a time-out or its clock.
    pub forfeit: Option<String>,
    /// Whether both engines took the game's start (board, clock, opening moves).
    pub started: bool,
    pub game: Game,
}

/// Slack over an engine's clock before the runner stops waiting for its answer.
const CLOCK_SLACK: Duration = Duration::from_secs(1);

/// The game after `opening`'s moves (a pass played where one is forced; it stops at the first
/// illegal move).
fn after_opening(opening: &[Square]) -> Game {
    let mut game = Game::new(Position::start());
    for &mv in opening {
        if game.position().board.moves() == 0 && game.play(Ply::bare(Square::Pass)).is_err() {
            break;
        }
        if game.play(Ply::bare(mv)).is_err() {
            break;
        }
    }
    game
}

/// The side to move after `opening`.
fn opening_mover(opening: &[Square]) -> Color {
    after_opening(opening).position().to_move
}

/// Plays one game from `opening`; `clock` is each side's time for the whole game.
fn play_game(
    black: &mut (dyn Player + 'static),
    white: &mut (dyn Player + 'static),
    opening: &[Square],
    timeout: Duration,
    clock: Option<Duration>,
) -> Outcome {
    let mut game = after_opening(opening);
    if let Some(c) = clock {
        let c = Clock {
            main: c.as_secs_f64(),
            increment: 0.0,
            grace: 0.0,
        };
        game.set_clock(Color::Black, Some(c));
        game.set_clock(Color::White, Some(c));
    }
    let forfeit = |game: Game, loser: Color, why: String| Outcome {
        black_minus_white: if loser == Color::Black { -64 } else { 64 },
        forfeit: Some(why),
        started: true,
        game,
    };
    for (player, colour) in [(&mut *black, Color::Black), (&mut *white, Color::White)] {
        if let Err(why) = player.start(&game, clock, timeout) {
            return Outcome {
                started: false,
                ..forfeit(game, colour, why)
            };
        }
    }
    let mut left = [clock, clock];
    while !game.is_over() {
        let mover = game.position().to_move;
        let side = mover as usize;
        let must_pass = game.position().board.moves() == 0;
        let (me, other) = match mover {
            Color::Black => (&mut *black, &mut *white),
            Color::White => (&mut *white, &mut *black),
        };
        let t0 = Instant::now();
        let mv = if must_pass {
            Square::Pass
        } else {
            let wait = left[side].map_or(timeout, |l| timeout.min(l + CLOCK_SLACK));
            match me.choose(&game, left[side], wait) {
                Ok(text) => match Square::parse(&text) {
                    Ok(mv) if mv != Square::Pass && game.is_legal(mv) => mv,
                    _ => return forfeit(game, mover, format!("{} played an illegal move '{text}'", me.name())),
                },
                Err(why) => return forfeit(game, mover, why),
            }
        };
        let secs = t0.elapsed();
        if !must_pass && let Some(l) = left[side] {
            if secs > l {
                return forfeit(game, mover, format!("{} lost on time", me.name()));
            }
            left[side] = Some(l - secs);
        }
        let secs = if must_pass { 0.0 } else { secs.as_secs_f64() };
        if let Err(why) = me.played(mover, mv, secs, !must_pass, timeout) {
            return forfeit(game, mover, why);
        }
        if let Err(why) = other.played(mover, mv, secs, false, timeout) {
            return forfeit(game, mover.other(), why);
        }
        let ply = Ply {
            time: Some(secs),
            ..Ply::bare(mv)
        };
        if game.play(ply).is_err() {
            return forfeit(game, mover, format!("{} played an illegal move", me.name()));
        }
    }
    Outcome {
        black_minus_white: game.final_score(),
        forfeit: None,
        started: true,
        game,
    }
}

/// A game of a stopped run, checked against the game the match would play in its place:
/// the game, Black's disc margin, and whether it was forfeited.
fn resumed(done: &GgfGame, opening: &[Square], a_black: bool) -> Result<(Game, i32, Option<String>), String> {
    let black = if a_black { "A" } else { "B" };
    if done.black_name.as_deref() != Some(black) {
        return Err(format!("Black should be {black}"));
    }
    let played: Vec<Square> = done
        .game
        .plies()
        .iter()
        .map(|p| p.mv)
        .filter(|&s| s != Square::Pass)
        .collect();
    if done.game.start() != Position::start() || !played.starts_with(opening) {
        return Err("it does not start with this match's opening".into());
    }
    match done.result {
        Some(GgfResult::Score { black_minus_white, end }) => Ok((
            done.game.clone(),
            black_minus_white as i32,
            (end != GameEnd::Normal).then(|| "forfeited (in the resumed run)".to_string()),
        )),
        _ => Err("it has no result".into()),
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
    /// Each engine's thinking time over the match, in seconds (from sending the request to its
    /// answer, as the clock counts it): A, then B.
    pub seconds: [f64; 2],
    /// With an SPRT: the last log-likelihood ratio and where the test stands.
    pub sprt: Option<(f64, Verdict)>,
    /// Openings played both ways, by A's half-points over the two games (0 … 4).
    pub pairs: [u32; 5],
    /// Drawn games among those pairs.
    pub pair_draws: u32,
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

/// How the games are played.
pub struct MatchOptions {
    /// The longest an engine may take for one answer.
    pub timeout: Duration,
    /// Each side's time for a whole game (None: the engines' own depth decides).
    pub clock: Option<Duration>,
    /// Stop as soon as this test accepts a hypothesis.
    pub sprt: Option<Sprt>,
    pub progress: bool,
    /// Each opening once, A playing the side to move after it (positions where one side is
    /// ahead: A is always the side behind, or always the one ahead); else twice, colours swapped.
    pub a_to_move: bool,
}

/// Plays every opening twice; `ggf` receives each game as one line. Engines are command lines,
/// optionally prefixed `gtp:` (the default) or `nboard:`. `previous` are the games of a stopped
/// run of the same match, in order (its GGF file): they count as played and the match goes on
/// after them.
pub fn run(
    engine_a: &str,
    engine_b: &str,
    openings: &[Vec<Square>],
    opts: &MatchOptions,
    previous: &[GgfGame],
    ggf: &mut dyn Write,
) -> Result<MatchResult, String> {
    let mut result = MatchResult::default();
    let total = openings.len() * if opts.a_to_move { 1 } else { 2 };
    if previous.len() > total {
        return Err(format!("{} games already played, the match has {total}", previous.len()));
    }
    'games: for (i, opening) in openings.iter().enumerate() {
        let colours: &[bool] = if opts.a_to_move {
            if opening_mover(opening) == Color::Black {
                &[true]
            } else {
                &[false]
            }
        } else {
            &[true, false]
        };
        // A's half-points and draws over this opening's games.
        let (mut halves, mut drawn) = (0usize, 0u32);
        for &a_black in colours {
            let k = result.games() as usize;
            let (game, black_minus_white, forfeit) = match previous.get(k) {
                Some(done) => resumed(done, opening, a_black).map_err(|e| format!("game {} of the played games: {e}", k + 1))?,
                None => {
                    // Fresh processes per game: a crash in one game cannot spoil the next.
                    let mut a = spawn("A", engine_a)?;
                    let mut b = spawn("B", engine_b)?;
                    let (black, white) = if a_black { (&mut a, &mut b) } else { (&mut b, &mut a) };
                    let out = play_game(black.as_mut(), white.as_mut(), opening, opts.timeout, opts.clock);
                    // An engine that cannot take its first game (a bad option, a missing file)
                    // would forfeit every game in seconds: stop with its reason instead.
                    if !out.started && k == previous.len() {
                        let why = out.forfeit.unwrap_or_default();
                        return Err(format!("the first game could not start: {why}"));
                    }
                    let mut record = GgfGame::new(out.game.clone());
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
                    (out.game, out.black_minus_white, out.forfeit)
                }
            };
            let d = if a_black { black_minus_white } else { -black_minus_white };
            match d.signum() {
                1 => result.wins += 1,
                0 => result.draws += 1,
                _ => result.losses += 1,
            }
            halves += (d.signum() + 1) as usize;
            drawn += u32::from(d == 0);
            let pair_done = !opts.a_to_move && !a_black;
            if pair_done {
                result.pairs[halves] += 1;
                result.pair_draws += drawn;
            }
            result.discs += d as i64;
            for (ply, pos) in game.plies().iter().zip(game.positions()) {
                let a_moved = (pos.to_move == Color::Black) == a_black;
                result.seconds[usize::from(!a_moved)] += ply.time.unwrap_or(0.0);
            }
            if let Some(f) = &forfeit {
                result.forfeits.push(format!("game {}: {f}", result.games()));
            }
            // Colour-swapped pairs are tested as pairs (the pentanomial model, `sprt.rs`): the
            // LLR moves when an opening's second game ends. One game an opening: per game.
            if let Some(t) = opts.sprt
                && (opts.a_to_move || pair_done)
            {
                let llr = if opts.a_to_move {
                    t.llr(result.wins, result.draws, result.losses)
                } else {
                    t.llr_pairs(&result.pairs, result.pair_draws)
                };
                result.sprt = Some((llr, t.decide(llr)));
            }
            if opts.progress {
                let (elo, _, _) = result.elo();
                let llr = match (result.sprt, opts.sprt) {
                    (Some((llr, _)), Some(t)) => {
                        let (lo, hi) = t.bounds();
                        format!(", LLR {llr:+.2} ({lo:+.2} .. {hi:+.2})")
                    }
                    _ => String::new(),
                };
                eprint!(
                    "\rmatch: {}/{total} games (opening {}), A +{} ={} -{}, {:.1} %, Elo {elo:+.0}{llr}   ",
                    result.games(),
                    i + 1,
                    result.wins,
                    result.draws,
                    result.losses,
                    100.0 * result.score()
                );
            }
            if result.sprt.is_some_and(|(_, v)| v != Verdict::Continue) {
                break 'games;
            }
        }
    }
    if opts.progress {
        eprintln!();
    }
    Ok(result)
}
