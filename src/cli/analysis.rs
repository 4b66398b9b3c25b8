//! Analysis and benchmarks: solve, perft, analyze, bench.

use super::{Eval, Globals, Outcome, load};
use clap::Subcommand;
use oxello::base::Kernel;
use oxello::base::OrderingEval;
use oxello::board::notation::render;
use oxello::engine::UserClock;
use oxello::perft::{self, PassPolicy};
use oxello::search::endgame::SolveMode;
use oxello::search::midgame::Searcher;
use oxello::search::request::{Driver, Pruning};
use oxello::tools::accuracy;
use oxello::tools::analyze::{self, AnalyzeDepth};
use oxello::tools::bench;
use oxello::tools::solve::{self, SolveOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Subcommand)]
pub enum Command {
    /// Solve every position of an OBF file exactly (or WLD) and check the listed scores.
    Solve(SolveArgs),
    /// Count the leaves of the game tree (move generator check).
    Perft(PerftArgs),
    /// Score every legal move of a position, best first.
    Analyze(AnalyzeArgs),
    /// Fixed-depth search of fixed positions: prints nodes and nodes/s (the search signature).
    Bench(BenchArgs),
    /// A fixed-depth search of every position of an OBF file that lists every move's value
    /// (Edax's hard-20/25/30): MAE, best move, top 2, within ±3 and ±6, nodes and time.
    Accuracy(AccuracyArgs),
}

/// Which evaluation `accuracy` and `analyze` search with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalChoice {
    /// The weights with their non-linear layer (what levels 17 and up and the clock read).
    Layer,
    /// The linear pattern weights alone (what the lower levels read).
    Linear,
}

#[derive(clap::Args)]
pub struct AccuracyArgs {
    file: PathBuf,
    /// Search depth in plies.
    #[arg(long, default_value_t = 15)]
    depth: u32,
    /// Multi-ProbCut confidence in percent (73, 87, 95, 98, 99; 100 = exact alpha-beta).
    #[arg(long, default_value_t = 73, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    /// Transposition table size in MB (cleared before every position).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Which evaluation the search reads.
    #[arg(long, value_enum, default_value = "layer")]
    eval: EvalChoice,
    /// Score every move with its own search one ply shallower and take the best, as
    /// `oxello analyze --depth D` lists them, instead of one search of the position.
    #[arg(long)]
    analyze: bool,
    /// One JSON object per line, then a totals object.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct SolveArgs {
    file: PathBuf,
    /// Win/loss/draw only.
    #[arg(long)]
    wld: bool,
    /// One JSON object per line, then a totals object.
    #[arg(long)]
    json: bool,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Order moves by mobility only, not by the evaluation.
    #[arg(long)]
    no_eval_order: bool,
    /// Threads per solve (ABDADA over the shared table).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Confidence of the last pass in percent: 100 proves the result; less is a probable
    /// solve (ProbCut against the evaluation): faster, and a wrong result does not fail.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
}

#[derive(clap::Args)]
pub struct PerftArgs {
    depth: u32,
    /// Whether a forced pass uses a ply of depth.
    #[arg(long, value_enum, default_value = "move")]
    pass_policy: PassPolicy,
    /// Start from this position ("<64 squares> <X|O>") instead of the initial one.
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
}

#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// The position: "<64 squares> <X|O>" (default: the start position).
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// Moves played from that position first, e.g. f5d6c3.
    #[arg(long)]
    moves: Option<String>,
    /// Search depth in plies (0 = static evaluation of each resulting position).
    #[arg(long, conflicts_with = "level")]
    depth: Option<u32>,
    /// Level 0-60 (midgame depth, solve empties and selectivity from params/levels.txt).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=60))]
    level: Option<u32>,
    /// Multi-ProbCut confidence in percent (73, 87, 95, 98, 99; 100 = exact alpha-beta).
    /// Default: the level's, or 100 with --depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: Option<u32>,
    #[arg(long)]
    json: bool,
    #[arg(long, value_enum, default_value = "pvs")]
    driver: Driver,
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Value the moves in the risk-aware style: each move's value reached with this confidence
    /// in percent (95: pessimistic, 5: optimistic, 50: the median) and its chances (win%,
    /// draw%). Default: the ordinary search.
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(1..=99))]
    risk: Option<u32>,
    /// Search threads (they share the moves of a node once its first move is searched).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Which evaluation the search reads. Default: the layer with --depth and by time, the
    /// level's own with --level (params/levels.txt marks the levels that read the layer).
    #[arg(long, value_enum)]
    eval: Option<EvalChoice>,
    /// Seconds for the whole analysis, shared by the moves (`--game-time` means the same here);
    /// with no --depth or --level the time alone decides how deep (level 20's solves and
    /// pruning, depth 60).
    #[command(flatten)]
    clock: super::play::ClockArgs,
}

#[derive(clap::Args)]
pub struct BenchArgs {
    #[arg(long, default_value_t = 10)]
    depth: u32,
    /// Multi-ProbCut confidence in percent (100 = exact alpha-beta).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    #[arg(long, value_enum, default_value = "pvs")]
    driver: Driver,
    #[arg(long)]
    json: bool,
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads (1 keeps the node count a fixed signature).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn run(command: Command, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    match command {
        Command::Solve(args) => solve(&args, eval),
        Command::Perft(args) => perft(&args),
        Command::Analyze(args) => analyze(&args, globals, eval),
        Command::Bench(args) => {
            let r = bench::run(
                args.depth,
                args.driver,
                Pruning::from_percent(args.selectivity),
                &load::mpc(globals.params.as_deref())?,
                eval,
                args.hash,
                args.threads,
            );
            print!("{}", bench::format(&r, args.depth, args.driver, args.json));
            Ok(ExitCode::SUCCESS)
        }
        Command::Accuracy(args) => accuracy_run(&args, globals, eval),
    }
}

/// The evaluation `choice` names, where it is not `eval` itself: the layer is the
/// evaluation's own (--params DIR with a net.bin), else the embedded one.
fn chosen_eval(
    choice: EvalChoice,
    globals: &Globals,
    eval: &(dyn OrderingEval + Sync),
    command: &str,
) -> Result<Option<Eval>, String> {
    Ok(match choice {
        EvalChoice::Layer if eval.without_layer().is_none() => match load::layer_loader(globals) {
            Some(make) => Some(make()?),
            None => {
                return Err(format!(
                    "{command}: --eval layer needs a net.bin beside --params DIR's eval.bin (or use --eval linear)"
                ));
            }
        },
        EvalChoice::Layer => None,
        EvalChoice::Linear => eval.without_layer(),
    })
}

/// Exit code 3 when a line could not be judged (malformed, or no values listed).
fn accuracy_run(args: &AccuracyArgs, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let text = load::read_text(&args.file)?;
    let own = chosen_eval(args.eval, globals, eval, "accuracy")?;
    let eval = own.as_deref().map_or(eval, |e| e as &(dyn OrderingEval + Sync));
    let opts = accuracy::AccuracyOptions {
        depth: args.depth,
        pruning: Pruning::from_percent(args.selectivity),
        mode: if args.analyze {
            accuracy::Mode::Analyze
        } else {
            accuracy::Mode::Search
        },
        json: args.json,
    };
    let mut searcher = Searcher::new(args.hash);
    searcher.mpc = load::mpc(globals.params.as_deref())?;
    let mut out = std::io::stdout().lock();
    let sum = accuracy::run(&text, &opts, eval, &mut searcher, &mut out)
        .map_err(|e| format!("accuracy: cannot write to stdout: {e}"))?;
    Ok(if sum.skipped > 0 {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// Exit code 1 when a score is wrong, 3 when a line is malformed (see the module `cli`).
fn solve(args: &SolveArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let text = load::read_text(&args.file)?;
    let opts = SolveOptions {
        mode: if args.wld { SolveMode::Wld } else { SolveMode::Exact },
        eval: (!args.no_eval_order).then_some(eval as &dyn OrderingEval),
        json: args.json,
        hash_mb: args.hash,
        threads: args.threads,
        selectivity: args.selectivity,
    };
    let mut out = std::io::stdout().lock();
    let sum = solve::run(&text, &opts, &mut out).map_err(|e| format!("solve: cannot write to stdout: {e}"))?;
    Ok(if sum.wrong > 0 {
        ExitCode::from(1)
    } else if sum.errors > 0 {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

fn perft(args: &PerftArgs) -> Outcome {
    let pos = load::board_option(args.board.as_deref())?;
    let kernel = Kernel::detect();
    log::info!(target: super::LOG, "kernel: {}", kernel.name());
    for d in 1..=args.depth {
        let t0 = Instant::now();
        let n = perft::perft(pos.board, d, args.pass_policy, kernel);
        let s = t0.elapsed().as_secs_f64();
        println!(
            "perft {d:>2}: {n:>16} leaves {s:>9.3} s {:>8.1} M leaves/s",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn analyze(args: &AnalyzeArgs, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let pos = load::position_option(args.board.as_deref(), args.moves.as_deref())?;
    let time = match args.clock.clock() {
        UserClock::MoveTime(s) | UserClock::GameTime(s) => Some(oxello::time::seconds(s)),
        UserClock::None => None,
    };
    // The evaluation the engine reads at the level: with the non-linear layer at the levels
    // marked for it (so that `analyze --level N` searches as the engine plays level N) and by
    // time (as the engine's clock, `engine::searcher::clock_level`); at a depth the user
    // names, the layer too (the strongest evaluation; the field's accuracy tests are run at
    // a fixed depth); `--eval` overrides each.
    let mut own: Option<Eval> = match args.eval {
        Some(choice) => chosen_eval(choice, globals, eval, "analyze")?,
        None if args.depth.is_some() && eval.without_layer().is_none() => {
            // With --params DIR and no net.bin there is no layer: the linear weights, as the
            // levels marked `layer` then read them.
            load::layer_loader(globals).map(|make| make()).transpose()?
        }
        None => None,
    };
    let depth = match args.depth {
        Some(d) => AnalyzeDepth {
            depth: d,
            exact_empties: 0,
            wld_empties: 0,
            probable_empties: [0; 3],
            pruning: Pruning::from_percent(args.selectivity.unwrap_or(100)),
            threads: args.threads,
            time,
        },
        None => {
            // A time and no level: level 20's solves and pruning, as deep as the time allows.
            let by_time = time.is_some() && args.level.is_none();
            let l = load::levels(globals)?.get(args.level.unwrap_or(if by_time { 20 } else { 10 }));
            if args.eval.is_none() {
                own = if l.layer || by_time {
                    load::layer_loader(globals).map(|make| make()).transpose()?
                } else {
                    eval.without_layer()
                };
            }
            AnalyzeDepth {
                depth: if by_time { 60 } else { l.depth },
                exact_empties: l.exact_empties,
                wld_empties: l.wld_empties,
                probable_empties: l.probable_empties,
                pruning: Pruning::from_percent(args.selectivity.unwrap_or(l.selectivity)),
                threads: args.threads,
                time,
            }
        }
    };
    let eval = own.as_deref().map_or(eval, |e| e as &(dyn OrderingEval + Sync));
    if !args.json {
        print!("{}", render(&pos));
    }
    let mut searcher = Searcher::new(args.hash);
    searcher.mpc = load::mpc(globals.params.as_deref())?;
    let result = match args.risk {
        Some(c) => analyze::analyze_risk(&pos.board, depth, args.driver, eval, &mut searcher, c),
        None => analyze::analyze(&pos.board, depth, args.driver, eval, &mut searcher),
    };
    print!("{}", analyze::format(&result, args.json));
    Ok(ExitCode::SUCCESS)
}
