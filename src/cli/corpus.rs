//! `oxello corpus …`: the training corpus in `corpus/` — grow it, check it and print its
//! figures, merge another machine's shards into it (see `oxello::corpus`).

use super::{Globals, Outcome, load};
use clap::Subcommand;
use oxello::base::OrderingEval;
use oxello::board::{Position, Square};
use oxello::corpus::format::ShardHeader;
use oxello::corpus::generate::{self, GenerateOptions, Starts};
use oxello::corpus::play::{Blunders, DeepOptions, PlayOptions, Walks};
use oxello::corpus::store::{self, Corpus};
use oxello::corpus::{LabelPolicy, StartKind};
use oxello::eval::Evaluator;
use oxello::eval::weights::fnv1a;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Subcommand)]
pub enum Action {
    /// Play labelled games into the corpus (resumable: run it again to go on; `--shard I/N`
    /// splits a run between machines).
    Generate(Box<GenerateArgs>),
    /// Check every shard and print the corpus's figures: games, positions per empties band,
    /// label sources, starts, runs.
    Stats(StatsArgs),
    /// Copy the shards of other corpus folders into this one (each checked; a chunk present
    /// with other contents is refused).
    Merge(MergeArgs),
    /// Rewrite the shards written in the plain layout of older builds (versions 1-3) in the
    /// packed one (version 4, about a fifth of the bytes); each is read back before it
    /// replaces the old file.
    Compact(StatsArgs),
}

#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The corpus folder (the run's shards go to DIR/RUN/).
    #[arg(long, default_value = "corpus")]
    dir: PathBuf,
    /// The run's name (default: from the start and the settings, e.g. random-d4-e20-s1).
    #[arg(long)]
    run: Option<String>,
    /// Games in the run (numbered from 0; whole chunks). With --lines: one game a line.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Games a shard file holds.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    chunk_games: u32,
    /// Play only the chunks c with c mod N = I (I/N), e.g. 0/2 on one machine and 1/2 on another.
    #[arg(long, default_value = "0/1", value_parser = parse_shard)]
    shard: (u64, u64),
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Hash table per thread (MB), for the searches and the solver each.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Depth of the search that chooses (and labels) each move.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Its selectivity (Multi-ProbCut confidence in percent; 100: none).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    /// Perfect play (exact labels) from this many empties.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact: u32,
    /// Random moves after the opening: at least this many (default 8 from the start, 0 after
    /// --xot / --openings / --lines)…
    #[arg(long)]
    random_min: Option<u32>,
    /// …and at most this many (default 24 from the start, 4 after --xot / --openings, 0 after --lines).
    #[arg(long)]
    random_max: Option<u32>,
    /// Solve the moves not played whose child has empties in this range (A-B, or "none").
    #[arg(long, default_value = "none", value_parser = parse_range)]
    siblings: std::ops::RangeInclusive<u32>,
    /// A deeper search's value for sampled positions: its depth (0: none).
    #[arg(long, default_value_t = 0)]
    deep_depth: u32,
    #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u32).range(1..=100))]
    deep_selectivity: u32,
    /// Positions with empties in this range are sampled for deep labels…
    #[arg(long, default_value = "25-50", value_parser = parse_range)]
    deep_empties: std::ops::RangeInclusive<u32>,
    /// …one empties count in this many (each game its own).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=60))]
    deep_every: u32,
    /// Also value by the deep search every move not played at every K-th deep-labelled
    /// position (deep siblings: positions the game did not choose; 0: none).
    #[arg(long, default_value_t = 0, value_name = "K")]
    deep_siblings: u32,
    /// The deep siblings' search depth (default: --deep-depth).
    #[arg(long, value_name = "D")]
    deep_sibling_depth: Option<u32>,
    /// The chance in percent that a move in --blunder-empties is a random other legal move
    /// (0: none): games then reach positions a few plies after a poor move, what a search's
    /// leaves mostly are.
    #[arg(long, default_value_t = 0, value_name = "P", value_parser = clap::value_parser!(u32).range(0..=100))]
    blunders: u32,
    /// …at positions with empties in this range (above --exact).
    #[arg(long, default_value = "24-58", value_parser = parse_range)]
    blunder_empties: std::ops::RangeInclusive<u32>,
    /// From each position of the line with --walk-from empties, this many random walks of
    /// --walk-plies random legal moves, each solved (0: none): positions like a search's
    /// leaves, poor moves of both sides away from any line.
    #[arg(long, default_value_t = 0, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=20))]
    walks: u32,
    #[arg(long, default_value = "20-24", value_parser = parse_range)]
    walk_from: std::ops::RangeInclusive<u32>,
    #[arg(long, default_value = "6-8", value_parser = parse_range)]
    walk_plies: std::ops::RangeInclusive<u32>,
    /// Start each game with a random opening of the XOT list (a file of transcripts, one a
    /// line, e.g. Egaroucid's bin/resources/xot/openingslarge.txt), then random moves.
    #[arg(long, conflicts_with_all = ["openings", "lines"])]
    xot: Option<PathBuf>,
    /// Never start from the lines of --xot / --openings numbered (from 1) by a multiple of N:
    /// they stay for held-out test sets and matches (0: use every line).
    #[arg(long, default_value_t = 10)]
    reserve: u32,
    /// The same with another openings file (e.g. book/openings.txt).
    #[arg(long, conflicts_with = "lines")]
    openings: Option<PathBuf>,
    /// Follow the games of this file (GGF records or transcripts, e.g. a match's games against
    /// another engine) to --exact empties, game N of the run = game N of the file.
    #[arg(long)]
    lines: Option<PathBuf>,
    /// Stop beginning new chunks after this many minutes (the chunks begun are finished).
    #[arg(long)]
    minutes: Option<f64>,
}

#[derive(clap::Args)]
pub struct StatsArgs {
    /// Corpus folders or shard files.
    #[arg(default_value = "corpus")]
    paths: Vec<PathBuf>,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The corpus folder to copy into.
    #[arg(long, default_value = "corpus")]
    into: PathBuf,
    /// Corpus folders or shard files to copy.
    #[arg(required = true)]
    sources: Vec<PathBuf>,
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("'{s}': expected I/N with 0 <= I < N, e.g. 0/2");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

fn parse_range(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    if s == "none" {
        #[allow(clippy::reversed_empty_ranges)]
        return Ok(1..=0);
    }
    let bad = || format!("'{s}': expected A-B with A <= B <= 60, or none");
    let (a, b) = s.split_once('-').ok_or_else(bad)?;
    let (a, b): (u32, u32) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if a > b || b > 60 {
        return Err(bad());
    }
    Ok(a..=b)
}

pub fn run(action: Action, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    match action {
        Action::Generate(args) => generate(&args, globals, eval),
        Action::Stats(args) => {
            let corpus = Corpus::load(&args.paths).map_err(|e| e.to_string())?;
            print!("{}", corpus.stats().report());
            Ok(ExitCode::SUCCESS)
        }
        Action::Merge(args) => {
            let r = store::merge(&args.sources, &args.into).map_err(|e| e.to_string())?;
            println!(
                "{} shards copied into {}, {} already there",
                r.copied,
                args.into.display(),
                r.already
            );
            Ok(ExitCode::SUCCESS)
        }
        Action::Compact(args) => {
            for path in &args.paths {
                let r = store::compact(path).map_err(|e| e.to_string())?;
                println!(
                    "{}: {} shards packed, {} already packed; {} bytes -> {} bytes",
                    path.display(),
                    r.packed,
                    r.already,
                    r.bytes_before,
                    r.bytes_after
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The games of a file as squares from the start position (passes left out); errors name
/// the file and the line or game.
fn read_lines(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let text = load::read_text(path)?;
    let games = oxello::book::games::read_games(&text, &path.display().to_string())?;
    let mut out = Vec::with_capacity(games.len());
    for (k, g) in games.iter().enumerate() {
        if g.start() != Position::start() {
            return Err(format!(
                "{}: game {}: starts from a set-up position; corpus games start from the start position",
                path.display(),
                k + 1
            ));
        }
        out.push(
            g.plies()
                .iter()
                .filter_map(|p| match p.mv {
                    Square::At(sq) => Some(sq),
                    Square::Pass => None,
                })
                .collect(),
        );
    }
    if out.is_empty() {
        return Err(format!("{}: no game or opening in the file", path.display()));
    }
    Ok(out)
}

/// What identifies the evaluation that plays: the checksum of its weights file.
fn eval_name(globals: &Globals) -> Result<String, String> {
    if globals.bootstrap_eval {
        return Ok("bootstrap".into());
    }
    let e = Evaluator::load_or_embedded(globals.params.as_deref()).map_err(|e| e.to_string())?;
    let linear = format!("eval.bin fnv1a {:08x}", fnv1a(&e.encode()));
    // A `net.bin` beside `--params DIR`'s `eval.bin` is read by every search of the run (its
    // games and its labels): the run's settings name it too.
    let net = globals.params.as_ref().map(|d| d.join("net.bin")).filter(|p| p.exists());
    match net {
        Some(p) => {
            let bytes = std::fs::read(&p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
            Ok(format!("{linear} + net.bin fnv1a {:08x}", fnv1a(&bytes)))
        }
        None => Ok(linear),
    }
}

fn generate(args: &GenerateArgs, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let mut describe = ShardHeader::default();
    describe.set("eval", eval_name(globals)?);
    let file_note = |path: &Path| -> Result<String, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().to_string());
        Ok(format!("{name} fnv1a {:08x}", fnv1a(&bytes)))
    };
    let picked = [(&args.xot, StartKind::Xot), (&args.openings, StartKind::Opening)]
        .into_iter()
        .find_map(|(p, kind)| p.as_ref().map(|p| (p, kind)));
    let (starts, random_default) = if let Some((p, kind)) = picked {
        describe.set("start_file", file_note(p)?);
        let lines = read_lines(p)?;
        let reserve = args.reserve;
        (Starts::Pick { kind, lines, reserve }, (0, 4))
    } else if let Some(p) = &args.lines {
        describe.set("start_file", file_note(p)?);
        (Starts::Follow { lines: read_lines(p)? }, (0, 0))
    } else {
        (Starts::Random, (8, 24))
    };
    let random_min = args.random_min.unwrap_or(random_default.0);
    let random_max = args.random_max.unwrap_or(random_default.1.max(random_min));
    if random_max < random_min {
        return Err(format!("--random-max {random_max} is below --random-min {random_min}"));
    }
    let kind = match &starts {
        Starts::Random => StartKind::Random,
        Starts::Pick { kind, .. } => *kind,
        Starts::Follow { .. } => StartKind::Line,
    };
    let run = args
        .run
        .clone()
        .unwrap_or_else(|| format!("{}-d{}-e{}-s{}", kind.name(), args.depth, args.exact, args.seed));
    if run.is_empty() || run.starts_with('.') || run.contains(['/', '\\']) {
        return Err(format!(
            "--run '{run}': a run's name is a folder name (no '/', not starting with '.')"
        ));
    }
    if args.walks > 0 && (args.walk_plies.is_empty() || *args.walk_plies.start() == 0 || *args.walk_plies.end() > 60) {
        return Err("--walk-plies: a range of 1 to 60 plies".into());
    }
    let opts = GenerateOptions {
        dir: args.dir.clone(),
        run,
        games: args.games,
        chunk_games: args.chunk_games,
        shard: args.shard,
        threads: args.threads,
        seed: args.seed,
        hash_mb: args.hash,
        play: PlayOptions {
            depth: args.depth,
            selectivity: args.selectivity,
            exact: args.exact,
            random_plies: random_min..=random_max,
            siblings: args.siblings.clone(),
            deep: (args.deep_depth > 0).then(|| DeepOptions {
                depth: args.deep_depth,
                selectivity: args.deep_selectivity,
                empties: args.deep_empties.clone(),
                every: args.deep_every,
                siblings_every: args.deep_siblings,
                siblings_depth: args.deep_sibling_depth.unwrap_or(args.deep_depth),
            }),
            blunders: (args.blunders > 0).then(|| Blunders {
                percent: args.blunders,
                empties: args.blunder_empties.clone(),
            }),
            walks: (args.walks > 0).then(|| Walks {
                count: args.walks,
                from: args.walk_from.clone(),
                plies: args.walk_plies.clone(),
            }),
        },
        starts,
        describe,
        time_limit: args.minutes.map(|m| Duration::from_secs_f64(m.max(0.0) * 60.0)),
    };
    let progress = |chunk: u64, s: &generate::Summary, secs: f64| {
        eprintln!(
            "corpus: {} chunk {chunk} written; this sitting {} chunks, {} games, {} positions, {:.2} games/s",
            opts.run,
            s.chunks_written,
            s.games,
            s.positions,
            s.games as f64 / secs.max(1e-9)
        );
    };
    let s = generate::run(&opts, eval, &progress).map_err(|e| e.to_string())?;
    println!(
        "corpus: run {} in {}: {} chunks written ({} games, {} positions), {} chunks of this shard were there already",
        opts.run,
        args.dir.display(),
        s.chunks_written,
        s.games,
        s.positions,
        s.chunks_present
    );
    Ok(ExitCode::SUCCESS)
}

/// Reads the training records of corpus folders or shard files.
pub fn records(paths: &[PathBuf], policy: LabelPolicy, sibling_share: f64) -> Result<Vec<oxello::eval::dataset::Record>, String> {
    let corpus = Corpus::load(paths).map_err(|e| e.to_string())?;
    Ok(corpus.records(policy, sibling_share))
}
