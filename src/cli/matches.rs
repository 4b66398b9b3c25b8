//! Matches and reports: `match` plays two engine programs against each other.

use super::{Outcome, load};
use clap::Subcommand;
use oxello::board::notation::{parse_transcript, play_transcript};
use oxello::board::{Position, Square};
use oxello::ggf::GgfGame;
use oxello::tools::enginematch::{self, MatchOptions, Sprt, Verdict};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Subcommand)]
pub enum Command {
    /// Match two engines (GTP or NBoard command lines) over an openings file, colours swapped.
    Match(MatchArgs),
}

#[derive(clap::Args)]
pub struct MatchArgs {
    /// Engine A's command line, prefixed `gtp:` (the default) or `nboard:`, e.g.
    /// "oxello gtp --level 8" or "nboard:oxello nboard --level 8".
    #[arg(long)]
    engine_a: String,
    #[arg(long)]
    engine_b: String,
    #[arg(long, default_value = "book/openings.txt")]
    openings: PathBuf,
    /// Use only the first N openings (2 games each).
    #[arg(long)]
    count: Option<usize>,
    /// Seconds an engine may take for one answer before it loses the game.
    #[arg(long, default_value_t = 60.0, allow_negative_numbers = true)]
    timeout: f64,
    /// Seconds on each side's clock for a whole game (GTP time_settings/time_left, NBoard
    /// TI and move times); an engine that runs out loses. Default: no clock.
    #[arg(long, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Stop early by a sequential probability ratio test: ELO0,ELO1 (e.g. 0,10), over each
    /// opening's pair of games (pentanomial; per game with --a-to-move); the log-likelihood
    /// ratio is shown after every game
    #[arg(long)]
    sprt: Option<String>,
    /// The SPRT's false-positive rate
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    alpha: f64,
    /// The SPRT's false-negative rate
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    beta: f64,
    /// Where every game is written as GGF (one per line).
    #[arg(long, default_value = "match.ggf")]
    ggf: PathBuf,
    /// Go on with a stopped match: the games already in the GGF file count as played (they
    /// must be this match's, in order) and the next ones are appended.
    #[arg(long)]
    resume: bool,
    #[arg(long)]
    json: bool,
    /// Play each opening once, A as the side to move after it (e.g. openings where the side
    /// to move is behind: A always plays from behind); default: twice, colours swapped.
    #[arg(long)]
    a_to_move: bool,
}

pub fn run(command: Command) -> Outcome {
    let Command::Match(args) = command;
    for (option, seconds) in [("--timeout", Some(args.timeout)), ("--time", args.time)] {
        if let Some(s) = seconds.filter(|s| s.is_nan() || *s <= 0.0) {
            return Err(format!("{option} {s}: expected a number of seconds greater than 0"));
        }
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| Sprt::parse(s, args.alpha, args.beta))
        .transpose()?;
    let lines = openings(&args.openings)?;
    let lines = &lines[..lines.len().min(args.count.unwrap_or(usize::MAX))];
    let previous = if args.resume { played_games(&args.ggf)? } else { Vec::new() };
    let opened = if args.resume {
        std::fs::OpenOptions::new().create(true).append(true).open(&args.ggf)
    } else {
        std::fs::File::create(&args.ggf)
    };
    let mut file = opened.map_err(|e| format!("{}: cannot write: {e}", args.ggf.display()))?;
    let opts = MatchOptions {
        timeout: Duration::from_secs_f64(args.timeout.clamp(0.01, 1e6)),
        clock: args.time.map(|s| Duration::from_secs_f64(s.clamp(0.1, 1e6))),
        sprt,
        progress: !args.json,
        a_to_move: args.a_to_move,
    };
    let r = enginematch::run(&args.engine_a, &args.engine_b, lines, &opts, &previous, &mut file)?;
    let (elo, lo, hi) = r.elo();
    let avg = r.discs as f64 / r.games().max(1) as f64;
    let verdict = |v: Verdict| match v {
        Verdict::H0 => "H0 accepted",
        Verdict::H1 => "H1 accepted",
        Verdict::Continue => "no decision",
    };
    if args.json {
        println!(
            "{{\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"average_discs\":{avg:.2},\"score\":{:.1},\"elo\":{elo:.0},\"elo_low\":{lo:.0},\"elo_high\":{hi:.0},\"forfeits\":{},\"seconds_a\":{:.3},\"seconds_b\":{:.3}{}}}",
            r.games(),
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.score(),
            r.forfeits.len(),
            r.seconds[0],
            r.seconds[1],
            r.sprt
                .map(|(llr, v)| format!(",\"llr\":{llr:.3},\"sprt\":\"{}\"", verdict(v)))
                .unwrap_or_default()
        );
    } else {
        println!(
            "A vs B: {} games, +{} ={} -{}, {avg:+.2} discs/game, {:.1} %, Elo {elo:+.0} (95 %: {lo:+.0} .. {hi:+.0}); thinking time A {:.1} s, B {:.1} s",
            r.games(),
            r.wins,
            r.draws,
            r.losses,
            100.0 * r.score(),
            r.seconds[0],
            r.seconds[1]
        );
        if let Some((llr, v)) = r.sprt {
            println!("SPRT: LLR {llr:+.2}, {}", verdict(v));
        }
        for f in &r.forfeits {
            println!("  forfeit: {f}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The openings file's move lines (one transcript per line, `#` comments), each checked to be
/// legal from the start position.
fn openings(path: &Path) -> Result<Vec<Vec<Square>>, String> {
    let text = load::openings_text(path)?;
    let mut lines = Vec::new();
    for (i, l) in text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).enumerate() {
        if l.is_empty() {
            continue;
        }
        let moves = play_transcript(Position::start(), l)
            .and_then(|_| parse_transcript(l))
            .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        lines.push(moves);
    }
    Ok(lines)
}

/// The games of a stopped match's GGF file (none if it does not exist). A torn last line (the
/// run was killed while writing it) is cut off so that the next game starts on a line of its
/// own; a bad line before it is an error naming the line.
fn played_games(path: &Path) -> Result<Vec<GgfGame>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let mut games = Vec::new();
    let mut valid = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            valid += line.len();
            continue;
        }
        let torn = i + 1 == lines.len() && !line.ends_with('\n');
        match (GgfGame::parse(line.trim()), torn) {
            (_, true) => {
                let cut = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(valid as u64));
                cut.map_err(|e| format!("{}: cannot cut the torn last line: {e}", path.display()))?;
            }
            (Ok(g), false) => {
                games.push(g);
                valid += line.len();
            }
            (Err(e), false) => return Err(format!("{}:{}: {e}", path.display(), i + 1)),
        }
    }
    Ok(games)
}
