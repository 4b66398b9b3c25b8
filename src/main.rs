//! The `oxello` command line.

use clap::{Parser, Subcommand};
use oxello::board::notation::{parse_position, play_transcript, render};
use oxello::board::{Board, Position};
use oxello::book::Book;
use oxello::engine::book::EngineBook;
use oxello::engine::searcher::SearchThinker;
use oxello::engine::terminal::Terminal;
use oxello::engine::{self, EngineOptions};
use oxello::eval::Evaluator;
use oxello::eval::bootstrap::BootstrapEval;
use oxello::perft::{PassPolicy, perft};
use oxello::protocol::io::{Output, ProtocolKind};
use oxello::search::endcut::EndCut;
use oxello::search::endgame::OrderingEval;
use oxello::search::endgame::SolveMode;
use oxello::search::kernel::Kernel;
use oxello::search::levels::Levels;
use oxello::search::mpc::MpcTable;
use oxello::search::request::Driver;
use oxello::search::request::Pruning;
use oxello::tools::analyze::{self, AnalyzeDepth};
use oxello::tools::solve::{self, SolveOptions};
use oxello::tools::{bench, enginematch, evalmae, fitendcut, fitmpc, matchplay, probcut_report, train};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "oxello", version, about = "A tournament-strength Othello engine")]
struct Cli {
    /// Log diagnostics to stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Directory with eval.bin (and optionally mpc.txt, levels.txt) replacing the embedded ones.
    #[arg(long, global = true)]
    params: Option<std::path::PathBuf>,
    /// Use the hand-written bootstrap evaluation instead of the trained weights.
    #[arg(long, global = true)]
    bootstrap_eval: bool,
    /// Opening book file replacing the embedded one; NBoard `learn` saves into it (a missing
    /// file starts empty and is created by the first `learn`).
    #[arg(long, global = true, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Start with an empty book (games learned in the session still go into it).
    #[arg(long, global = true, conflicts_with = "book")]
    no_book: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak NBoard on stdin/stdout (with no subcommand, the first line picks the protocol).
    Nboard(ProtocolArgs),
    /// Speak GTP on stdin/stdout.
    Gtp(ProtocolArgs),
    /// Play against the engine in the terminal (also the default when stdin is a terminal).
    Play(ProtocolArgs),
    /// Count the leaves of the game tree (move generator check).
    Perft {
        depth: u32,
        /// Whether a forced pass uses a ply of depth.
        #[arg(long, value_enum, default_value = "move")]
        pass_policy: PassPolicy,
        /// Start from this position ("<64 squares> <X|O>") instead of the initial one.
        #[arg(long, allow_hyphen_values = true)]
        board: Option<String>,
    },
    /// Solve every position of an OBF file exactly (or WLD) and check the listed scores.
    Solve {
        file: std::path::PathBuf,
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
    },
    /// Score every legal move of a position, best first.
    Analyze(AnalyzeArgs),
    /// Fixed-depth search of fixed positions: prints nodes and nodes/s (the search signature).
    Bench {
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
    },
    /// Fit the Multi-ProbCut parameters on self-play positions and draw the v'-v plots.
    FitMpc(FitMpcArgs),
    /// Fit the endgame ProbCut model (exact score from a 2/4-ply evaluation search) per empties count.
    FitEndcut(FitEndcutArgs),
    /// Reproduce Buro's ProbCut tables (Table 2: node savings; Table 1: tournament).
    ProbcutReport {
        /// Only this table (default: both).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
        table: Option<u8>,
        /// Positions per disc count (Table 2).
        #[arg(long, default_value_t = 50)]
        positions: usize,
        /// Search depth (Table 2).
        #[arg(long, default_value_t = 12)]
        depth: u32,
        /// Games per threshold (Table 1; the paper used 70).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Time per move in milliseconds (Table 1).
        #[arg(long, default_value_t = 100)]
        time_ms: u64,
        /// ProbCut threshold t for Table 2.
        #[arg(long, default_value_t = 1.5)]
        t: f64,
        /// Width of the N-best comparison (Table 2).
        #[arg(long, default_value_t = 3)]
        nbest: u32,
        #[arg(long)]
        json: bool,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Fit the evaluation weights on self-play records (ridge least squares by conjugate gradients, then a Huber refinement).
    Train {
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<std::path::PathBuf>,
        #[arg(long, default_value = "params/eval.bin")]
        out: std::path::PathBuf,
        /// Conjugate-gradient iterations of the least-squares fit.
        #[arg(long, default_value_t = 100)]
        iterations: usize,
        /// Ridge strength (pulls rarely seen pattern configurations towards zero).
        #[arg(long, default_value_t = 10.0)]
        ridge: f32,
        /// Huber threshold in discs for the reweighted rounds (0: plain least squares).
        #[arg(long, default_value_t = 4.0)]
        huber: f32,
        #[arg(long, default_value_t = 2)]
        huber_rounds: usize,
        /// Solve this many game-labelled training positions at 21 and at 22 empties and shift
        /// the game-result labels of each parity by the mean error found (0: no shift).
        #[arg(long, default_value_t = 0)]
        calibrate: usize,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Records also train the stages within this many empties of their own.
        #[arg(long, default_value_t = 2)]
        share: u32,
        /// Start from the selected weights (embedded or `--params`) instead of zeros: the fit
        /// learns a correction to them (the ridge pulls it to zero), so new data refines what
        /// earlier rounds learned without their datasets.
        #[arg(long)]
        warm_start: bool,
        /// Fit only these stages (stage = empties / 6); the others keep the starting weights.
        #[arg(long, num_args = 1..)]
        stages: Option<Vec<usize>>,
        /// Use about this share of the training games (learning curves; held-out games all stay).
        #[arg(long, default_value_t = 1.0)]
        fraction: f64,
    },
    /// Write balanced openings: random N-ply lines whose search score is within ±max discs.
    Openings {
        #[arg(long, default_value_t = 100)]
        count: usize,
        #[arg(long, default_value_t = 8)]
        plies: u32,
        #[arg(long, default_value_t = 8)]
        depth: u32,
        #[arg(long, default_value_t = 2)]
        max_score: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Match the selected evaluation against the bootstrap one at equal depth (both colours).
    EvalMatch {
        /// Openings file (one transcript per line).
        #[arg(long, default_value = "book/openings.txt")]
        openings: std::path::PathBuf,
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Empties from which both sides solve exactly.
        #[arg(long, default_value_t = 14)]
        exact: u32,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long)]
        json: bool,
    },
    /// Mean absolute error of the evaluation and of a fixed-depth search on held-out self-play
    /// positions, against exact scores (solved here) or deep-search values.
    EvalMae {
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<std::path::PathBuf>,
        #[arg(long, default_value_t = 100)]
        positions: usize,
        #[arg(long, default_value_t = 20)]
        min_empties: u32,
        #[arg(long, default_value_t = 24)]
        max_empties: u32,
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Also write the measured positions with their reference values here (a dataset that
        /// later runs can measure without solving or searching again)
        #[arg(long)]
        save: Option<std::path::PathBuf>,
        /// Reference values from a search of this depth instead of exact solves (for positions
        /// too far from the end to solve; 0: solve). Search labels in the data are kept.
        #[arg(long, default_value_t = 0)]
        reference_depth: u32,
        /// Selectivity of the reference search (percent; 100: none).
        #[arg(long, default_value_t = 95, value_parser = clap::value_parser!(u32).range(1..=100))]
        reference_selectivity: u32,
    },
    /// Match two engines (GTP or NBoard command lines) over an openings file, colours swapped.
    Match(MatchArgs),
    /// Build or inspect an opening book.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Generate training games (resumable; appends to OUT).
    Selfplay {
        #[arg(long, default_value = "data/selfplay.txt")]
        out: std::path::PathBuf,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Random plies at the start of each game (a range).
        #[arg(long, default_value_t = 8)]
        random_min: u32,
        #[arg(long, default_value_t = 24)]
        random_max: u32,
        /// Midgame search depth per move.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Selectivity of the midgame searches (Multi-ProbCut confidence in percent; 100: none).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
        selectivity: u32,
        /// Label positions before the perfect-play part with their own search's value (kind
        /// `search`), not the game's result; the random plies are searched for their label too.
        #[arg(long)]
        search_labels: bool,
        /// Empties from which the game is played perfectly (exact labels).
        #[arg(long, default_value_t = 20)]
        exact: u32,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also solve and record the moves not played, for children with empties from
        /// --sibling-min to --sibling-max (exact labels off the game line; 0 0: off).
        #[arg(long, default_value_t = 0)]
        sibling_min: u32,
        #[arg(long, default_value_t = 0)]
        sibling_max: u32,
    },
}

#[derive(Subcommand)]
enum BookAction {
    /// Build a book from the start position by our own searches: every move of an expanded
    /// position is searched, moves within --window discs of the best are expanded, up to
    /// --plies; the values are then negamaxed.
    Build {
        #[arg(long, default_value = "book/book.txt")]
        out: std::path::PathBuf,
        #[arg(long, default_value_t = 8)]
        plies: u32,
        /// Midgame search depth of the valuations.
        #[arg(long, default_value_t = 10)]
        depth: u32,
        /// Multi-ProbCut confidence in percent (100 = exact alpha-beta).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
        selectivity: u32,
        /// Expand moves at most this many discs below the best.
        #[arg(long, default_value_t = 2)]
        window: i32,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Print the book moves of a position with their values, best first (the book is the
    /// embedded one unless --book FILE).
    Show {
        /// The position: "<64 squares> <X|O>" (default: the start position).
        #[arg(long, allow_hyphen_values = true)]
        board: Option<String>,
        /// Moves played from that position first, e.g. f5d6c3.
        #[arg(long)]
        moves: Option<String>,
    },
}

/// Options of `oxello match`.
#[derive(clap::Args)]
struct MatchArgs {
    /// Engine A's command line, prefixed `gtp:` (the default) or `nboard:`, e.g.
    /// "oxello gtp --level 8" or "nboard:oxello nboard --level 8".
    #[arg(long)]
    engine_a: String,
    #[arg(long)]
    engine_b: String,
    #[arg(long, default_value = "book/openings.txt")]
    openings: std::path::PathBuf,
    /// Use only the first N openings (2 games each).
    #[arg(long)]
    count: Option<usize>,
    /// Seconds an engine may take for one answer before it loses the game.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Seconds on each side's clock for a whole game (GTP time_settings/time_left, NBoard
    /// TI and move times); an engine that runs out loses. Default: no clock.
    #[arg(long)]
    time: Option<f64>,
    /// Stop early by a sequential probability ratio test: ELO0,ELO1 (e.g. 0,10); the
    /// log-likelihood ratio is shown after every game
    #[arg(long)]
    sprt: Option<String>,
    /// The SPRT's false-positive rate
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's false-negative rate
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Where every game is written as GGF (one per line).
    #[arg(long, default_value = "match.ggf")]
    ggf: std::path::PathBuf,
    /// Go on with a stopped match: the games already in the GGF file count as played (they
    /// must be this match's, in order) and the next ones are appended.
    #[arg(long)]
    resume: bool,
    #[arg(long)]
    json: bool,
}

/// Options of the protocol front-ends.
#[derive(clap::Args)]
struct ProtocolArgs {
    /// Level (0-60) until the GUI sets one (NBoard `set depth`, GTP `set_level`).
    #[arg(long, default_value_t = 12)]
    level: u32,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads (ABDADA over the shared tables). Default: every core.
    #[arg(long, default_value_t = all_cores())]
    threads: usize,
}

/// The number of cores this machine offers (1 if unknown).
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for ProtocolArgs {
    fn default() -> Self {
        ProtocolArgs {
            level: 12,
            hash: 64,
            threads: all_cores(),
        }
    }
}

#[derive(clap::Args)]
struct AnalyzeArgs {
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
    #[arg(long)]
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
    /// Search threads (lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(clap::Args)]
struct FitMpcArgs {
    /// Dataset files (self-play records).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<std::path::PathBuf>,
    /// Positions per game stage.
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Deepest search fitted.
    #[arg(long, default_value_t = 10)]
    max_depth: u32,
    #[arg(long, default_value = "params/mpc.txt")]
    out: std::path::PathBuf,
    #[arg(long, default_value = "params/plots")]
    plots: std::path::PathBuf,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args, Debug)]
struct FitEndcutArgs {
    /// Dataset files (self-play records); exact-labelled positions of held-out games are used.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<std::path::PathBuf>,
    /// Positions per empties count (at most).
    #[arg(long, default_value_t = 3000)]
    per_empties: usize,
    #[arg(long, default_value_t = 10)]
    min_empties: u32,
    #[arg(long, default_value_t = 20)]
    max_empties: u32,
    /// Rows past the labelled range are extrapolated up to this many empties.
    #[arg(long, default_value_t = 40)]
    extrapolate_to: u32,
    #[arg(long, default_value = "params/endcut.txt")]
    out: std::path::PathBuf,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The evaluation selected on the command line: trained weights (embedded or from --params)
/// or the bootstrap evaluation.
fn load_eval(params: Option<&std::path::Path>, bootstrap: bool) -> Result<Box<dyn OrderingEval + Send + Sync>, String> {
    if bootstrap {
        return Ok(Box::new(BootstrapEval));
    }
    Evaluator::load_or_embedded(params)
        .map(|e| Box::new(e) as Box<dyn OrderingEval + Send + Sync>)
        .map_err(|e| e.to_string())
}

/// The MPC table: `--params DIR/mpc.txt` when present, else the embedded one.
fn load_mpc(params: Option<&std::path::Path>) -> Result<MpcTable, String> {
    match params.map(|d| d.join("mpc.txt")).filter(|p| p.exists()) {
        Some(p) => MpcTable::load(&p).map_err(|e| e.to_string()),
        None => MpcTable::embedded().map_err(|e| e.to_string()),
    }
}

/// `--params DIR/endcut.txt`, when present, replaces the embedded endgame ProbCut model (it
/// belongs to the weights in the same directory).
fn install_endcut(params: Option<&std::path::Path>) -> Result<(), String> {
    let Some(path) = params.map(|d| d.join("endcut.txt")).filter(|p| p.exists()) else {
        return Ok(());
    };
    let name = path.display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let model = EndCut::parse(&text, &name).map_err(|e| e.to_string())?;
    EndCut::install(model);
    Ok(())
}

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    let level = match cli.verbose {
        0 => log::LevelFilter::Warn,
        1 => log::LevelFilter::Info,
        _ => log::LevelFilter::Debug,
    };
    env_logger::Builder::new()
        .filter_level(level)
        .target(env_logger::Target::Stderr)
        .init();
    if let Err(e) = install_endcut(cli.params.as_deref()) {
        eprintln!("oxello: {e}");
        return ExitCode::from(2);
    }
    let owned_eval = match load_eval(cli.params.as_deref(), cli.bootstrap_eval) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("oxello: {e}");
            return ExitCode::from(2);
        }
    };
    let eval: &(dyn OrderingEval + Sync) = owned_eval.as_ref();
    match cli.command.take() {
        Some(Command::Perft {
            depth,
            pass_policy,
            board,
        }) => run_perft(depth, pass_policy, board.as_deref()),
        Some(Command::Solve {
            file,
            wld,
            json,
            hash,
            no_eval_order,
            threads,
        }) => run_solve(
            &file,
            wld,
            json,
            hash,
            threads,
            (!no_eval_order).then_some(eval as &dyn OrderingEval),
        ),
        Some(Command::Selfplay {
            out,
            games,
            random_min,
            random_max,
            depth,
            selectivity,
            search_labels,
            exact,
            threads,
            seed,
            sibling_min,
            sibling_max,
        }) => {
            let opts = oxello::tools::selfplay::SelfplayOptions {
                games,
                random_plies_min: random_min,
                random_plies_max: random_max.max(random_min),
                depth,
                selectivity,
                search_labels,
                exact,
                threads,
                seed,
                hash_mb: 16,
                siblings: sibling_min..=sibling_max,
            };
            if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            match oxello::tools::selfplay::run(&out, &opts, eval) {
                Ok(n) => {
                    eprintln!("selfplay: {n} games written to {}", out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("oxello: selfplay: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Analyze(args)) => run_analyze(&args, eval),
        Some(Command::Bench {
            depth,
            selectivity,
            driver,
            json,
            hash,
            threads,
        }) => {
            let r = bench::run(depth, driver, Pruning::from_percent(selectivity), eval, hash, threads);
            print!("{}", bench::format(&r, depth, driver, json));
            ExitCode::SUCCESS
        }
        Some(Command::ProbcutReport {
            table,
            positions,
            depth,
            games,
            time_ms,
            t,
            nbest,
            json,
            threads,
            seed,
        }) => {
            let opts = probcut_report::ReportOptions {
                positions,
                depth,
                games,
                time_per_move: std::time::Duration::from_millis(time_ms),
                t,
                nbest,
                seed,
                threads,
            };
            let mpc = match load_mpc(cli.params.as_deref()) {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("oxello: {e}");
                    return ExitCode::from(2);
                }
            };
            if table != Some(1) {
                let rows = probcut_report::table2(&opts, &mpc, eval, true);
                if !json {
                    println!("Table 2: {depth}-ply searches, brute force vs selective, {positions} positions per disc count\n");
                }
                print!("{}", probcut_report::format_table2(&rows, json));
            }
            if table != Some(2) {
                let rows = probcut_report::table1(&opts, eval, true);
                if !json {
                    println!("\nTable 1: ProbCut vs full width at {time_ms} ms per move, {games} games per row\n");
                }
                print!("{}", probcut_report::format_table1(&rows, json));
            }
            ExitCode::SUCCESS
        }
        Some(Command::Train {
            data,
            out,
            iterations,
            ridge,
            huber,
            huber_rounds,
            calibrate,
            threads,
            share,
            warm_start,
            stages,
            fraction,
        }) => {
            if let Some(bad) = stages.iter().flatten().find(|&&s| s >= oxello::eval::STAGES) {
                eprintln!("oxello: --stages {bad}: stages are 0..={}", oxello::eval::STAGES - 1);
                return ExitCode::from(2);
            }
            if !(fraction > 0.0 && fraction <= 1.0) {
                eprintln!("oxello: --fraction {fraction}: must be in (0, 1]");
                return ExitCode::from(2);
            }
            let init = if warm_start {
                match Evaluator::load_or_embedded(cli.params.as_deref()) {
                    Ok(e) => Some(e),
                    Err(e) => {
                        eprintln!("oxello: {e}");
                        return ExitCode::from(2);
                    }
                }
            } else {
                None
            };
            run_train(
                &data,
                &out,
                train::TrainOptions {
                    iterations,
                    ridge,
                    huber,
                    huber_rounds,
                    threads,
                    share,
                    init,
                    label_shift: train::LabelShift::default(),
                    stages,
                    fraction,
                },
                calibrate,
                eval,
            )
        }
        Some(Command::Openings {
            count,
            plies,
            depth,
            max_score,
            seed,
        }) => {
            for line in matchplay::generate_openings(count, plies, depth, max_score, eval, seed) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Some(Command::EvalMatch {
            openings,
            depth,
            exact,
            threads,
            json,
        }) => run_eval_match(&openings, depth, exact, threads, json, eval),
        Some(Command::EvalMae {
            data,
            positions,
            min_empties,
            max_empties,
            depth,
            save,
            reference_depth,
            reference_selectivity,
        }) => {
            let Some(records) = read_records(&data, "eval-mae") else {
                return ExitCode::from(2);
            };
            let picked = evalmae::pick(&records, min_empties..=max_empties, positions);
            let reference = match reference_depth {
                0 => evalmae::Reference::Exact,
                d => evalmae::Reference::Search {
                    depth: d,
                    percent: reference_selectivity,
                },
            };
            let r = evalmae::measure(&picked, depth, reference, eval, true);
            if let Some(path) = save
                && let Err(e) = std::fs::write(&path, evalmae::format_records(&r.solved))
            {
                eprintln!("eval-mae: cannot write {}: {e}", path.display());
                return ExitCode::from(2);
            }
            let against = match reference {
                evalmae::Reference::Exact => "exact scores".to_string(),
                evalmae::Reference::Search { depth, percent } => format!("depth-{depth} searches at {percent} %"),
            };
            println!(
                "{} held-out positions at {min_empties}-{max_empties} empties, against {against}: static evaluation MAE {:.2} discs, depth-{depth} search MAE {:.2} discs",
                r.positions, r.static_mae, r.search_mae
            );
            println!("empties positions static-MAE static-bias depth-{depth}-MAE depth-{depth}-bias");
            for x in &r.rows {
                println!(
                    "{:7} {:9} {:10.2} {:11.2} {:11.2} {:12.2}",
                    x.empties, x.positions, x.static_mae, x.static_bias, x.search_mae, x.search_bias
                );
            }
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Book {
            action:
                BookAction::Build {
                    out,
                    plies,
                    depth,
                    selectivity,
                    window,
                    threads,
                    hash,
                },
        }) => {
            let opts = oxello::book::BuildOptions { plies, window };
            let valuer = oxello::book::SearchValuer {
                searcher: oxello::search::midgame::Searcher::new(hash),
                eval,
                depth,
                pruning: Pruning::from_percent(selectivity),
                threads: threads.max(1),
            };
            run_book_build(&out, &opts, valuer)
        }
        Some(Command::Book {
            action: BookAction::Show { board, moves },
        }) => match load_book(cli.book.as_deref(), cli.no_book) {
            Ok(b) => run_book_show(&b.book, board.as_deref(), moves.as_deref()),
            Err(e) => {
                eprintln!("oxello: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::FitMpc(args)) => run_fit_mpc(&args, eval),
        Some(Command::FitEndcut(args)) => run_fit_endcut(&args, eval),
        Some(Command::Nboard(args)) => run_protocol(Some(ProtocolKind::Nboard), &args, &cli, owned_eval),
        Some(Command::Gtp(args)) => run_protocol(Some(ProtocolKind::Gtp), &args, &cli, owned_eval),
        Some(Command::Play(args)) => run_play(&args, &cli, owned_eval),
        None if std::io::stdin().is_terminal() => run_play(&ProtocolArgs::default(), &cli, owned_eval),
        None => run_protocol(None, &ProtocolArgs::default(), &cli, owned_eval),
    }
}

/// The engines' book: empty with --no-book, the file of --book (empty when it does not exist
/// yet), else the embedded one.
fn load_book(file: Option<&std::path::Path>, no_book: bool) -> Result<EngineBook, String> {
    if no_book {
        return Ok(EngineBook::default());
    }
    let Some(path) = file else {
        let book = Book::embedded().map_err(|e| e.to_string())?;
        return Ok(EngineBook { book, file: None });
    };
    let book = if path.exists() {
        Book::load(path).map_err(|e| e.to_string())?
    } else {
        log::warn!("book {} does not exist yet: starting empty", path.display());
        Book::new()
    };
    Ok(EngineBook {
        book,
        file: Some(path.to_path_buf()),
    })
}

fn run_book_build(out: &std::path::Path, opts: &oxello::book::BuildOptions, mut valuer: oxello::book::SearchValuer) -> ExitCode {
    let t0 = Instant::now();
    let mut shown = 0;
    let book = oxello::book::build(&Board::START, opts, &mut valuer, &mut |n| {
        if n >= shown + 100 {
            shown = n;
            eprintln!("book build: {n} positions, {:.0} s", t0.elapsed().as_secs_f64());
        }
    });
    if let Err(e) = book.save(out) {
        eprintln!("oxello: {e}");
        return ExitCode::from(2);
    }
    println!(
        "{} positions written to {} in {:.1} s",
        book.len(),
        out.display(),
        t0.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// The position of `--board` (default: the start) after the `--moves` transcript, if any;
/// None after printing the error.
fn position_option(board: Option<&str>, moves: Option<&str>) -> Option<Position> {
    let start = board_option(board)?;
    match moves.map(|m| play_transcript(start, m)) {
        None => Some(start),
        Some(Ok(line)) => Some(*line.last().unwrap_or(&start)),
        Some(Err(e)) => {
            eprintln!("oxello: bad --moves: {e}");
            None
        }
    }
}

fn run_book_show(book: &Book, board: Option<&str>, moves: Option<&str>) -> ExitCode {
    let Some(pos) = position_option(board, moves) else {
        return ExitCode::from(2);
    };
    print!("{}", render(&pos));
    let list = book.moves(&pos.board);
    match book.probe(&pos.board) {
        None => println!("not in book ({} positions)", book.len()),
        Some(e) => println!("in book: value {:+} for the side to move, depth {}", e.value, e.depth),
    }
    for m in list {
        let line: Vec<String> = book.line(&pos.board, m.mv).iter().map(|s| s.to_string()).collect();
        let kind = if m.in_book { "book" } else { "best deviation" };
        println!(
            "{:<4} {:+4}  {:<8} {kind:<15} {}",
            m.mv.to_string(),
            m.value,
            m.depth.to_string(),
            line.join(" ")
        );
    }
    ExitCode::SUCCESS
}

/// The search behind the protocols and the terminal game.
fn thinker(args: &ProtocolArgs, cli: &Cli, eval: Box<dyn OrderingEval + Send + Sync>) -> Result<SearchThinker, String> {
    // A params directory may also replace the level table and the Multi-ProbCut table.
    let file = |name: &str| cli.params.as_ref().map(|d| d.join(name)).filter(|p| p.exists());
    let levels = match file("levels.txt") {
        Some(p) => Levels::load(&p),
        None => Levels::embedded(),
    }
    .map_err(|e| e.to_string())?;
    let mut thinker = SearchThinker::new(args.hash, eval, levels, args.threads.max(1));
    if let Some(p) = file("mpc.txt") {
        thinker.set_mpc(MpcTable::load(&p).map_err(|e| e.to_string())?);
    }
    Ok(thinker)
}

/// The interactive terminal game.
fn run_play(args: &ProtocolArgs, cli: &Cli, eval: Box<dyn OrderingEval + Send + Sync>) -> ExitCode {
    let (mut thinker, book) = match thinker(args, cli, eval).and_then(|t| Ok((t, load_book(cli.book.as_deref(), cli.no_book)?))) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("oxello: {e}");
            return ExitCode::from(2);
        }
    };
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    match Terminal::new(&mut thinker, args.level)
        .with_book(book)
        .run(&mut input, &mut out)
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oxello: {e}");
            ExitCode::from(2)
        }
    }
}

/// Serves a protocol on stdin/stdout until quit or EOF.
fn run_protocol(
    kind: Option<ProtocolKind>,
    args: &ProtocolArgs,
    cli: &Cli,
    eval: Box<dyn OrderingEval + Send + Sync>,
) -> ExitCode {
    let (thinker, book) =
        match thinker(args, cli, eval).and_then(|t| Ok((Box::new(t), load_book(cli.book.as_deref(), cli.no_book)?))) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("oxello: {e}");
                return ExitCode::from(2);
            }
        };
    let input = std::io::BufReader::new(std::io::stdin());
    let out = Output::new(Box::new(std::io::stdout()));
    engine::run(kind, input, out, thinker, EngineOptions { depth: args.level, book });
    ExitCode::SUCCESS
}

/// The `--board` option: the start position when absent; None (after a message) when malformed.
fn board_option(board: Option<&str>) -> Option<Position> {
    match board.map(parse_position) {
        None => Some(Position::start()),
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            eprintln!("oxello: bad --board: {e}");
            None
        }
    }
}

fn run_perft(depth: u32, policy: PassPolicy, board: Option<&str>) -> ExitCode {
    let Some(pos) = board_option(board) else {
        return ExitCode::from(2);
    };
    let kernel = Kernel::detect();
    log::info!("kernel: {}", kernel.name());
    let b: Board = pos.board;
    for d in 1..=depth {
        let t0 = Instant::now();
        let n = perft(b, d, policy, kernel);
        let s = t0.elapsed().as_secs_f64();
        println!(
            "perft {d:>2}: {n:>16} leaves {s:>9.3} s {:>8.1} M leaves/s",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
    ExitCode::SUCCESS
}

fn run_analyze(args: &AnalyzeArgs, eval: &(dyn OrderingEval + Sync)) -> ExitCode {
    let AnalyzeArgs {
        board,
        moves,
        depth,
        level,
        json,
        driver,
        hash,
        selectivity,
        threads,
    } = args;
    let (board, moves, depth, level, json, driver, hash, selectivity) = (
        board.as_deref(),
        moves.as_deref(),
        *depth,
        *level,
        *json,
        *driver,
        *hash,
        *selectivity,
    );
    let Some(pos) = position_option(board, moves) else {
        return ExitCode::from(2);
    };
    let depth = match depth {
        Some(d) => AnalyzeDepth {
            depth: d,
            exact_empties: 0,
            wld_empties: 0,
            pruning: Pruning::from_percent(selectivity.unwrap_or(100)),
            threads: *threads,
        },
        None => {
            let levels = match Levels::embedded() {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("oxello: {e}");
                    return ExitCode::from(2);
                }
            };
            let l = levels.get(level.unwrap_or(10));
            AnalyzeDepth {
                depth: l.depth,
                exact_empties: l.exact_empties,
                wld_empties: l.wld_empties,
                pruning: Pruning::from_percent(selectivity.unwrap_or(l.selectivity)),
                threads: *threads,
            }
        }
    };
    if !json {
        print!("{}", render(&pos));
    }
    let result = analyze::analyze(&pos.board, depth, driver, eval, hash);
    print!("{}", analyze::format(&result, json));
    ExitCode::SUCCESS
}

fn run_eval_match(
    openings: &std::path::Path,
    depth: u32,
    exact: u32,
    threads: usize,
    json: bool,
    eval: &(dyn OrderingEval + Sync),
) -> ExitCode {
    let Some(text) = read_text(openings) else {
        return ExitCode::from(2);
    };
    let lines = match matchplay::parse_openings(&text) {
        Ok(l) => l,
        Err((line, e)) => {
            eprintln!("oxello: {}:{line}: {e}", openings.display());
            return ExitCode::from(2);
        }
    };
    fn make<'a>(name: &str, e: &'a (dyn OrderingEval + Sync), depth: u32, exact: u32) -> matchplay::Player<'a> {
        matchplay::Player {
            name: name.to_string(),
            eval: e,
            depth: Some(depth),
            time_per_move: None,
            exact_empties: exact,
            wld_empties: exact,
            pruning: Pruning::None,
        }
    }
    let a = make("evaluation", eval, depth, exact);
    let b = make("bootstrap", &BootstrapEval, depth, exact);
    let s = matchplay::run_match(&a, &b, &lines, threads, 16, !json);
    if json {
        println!(
            "{{\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"percent\":{:.1},\"average_discs\":{:.2}}}",
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            s.percent(),
            s.discs as f64 / s.games().max(1) as f64
        );
    } else {
        println!(
            "evaluation vs bootstrap at depth {depth}: {} games, +{} ={} -{}, {:.1} %, average {:+.2} discs",
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            s.percent(),
            s.discs as f64 / s.games().max(1) as f64
        );
    }
    ExitCode::SUCCESS
}

/// The games of a stopped match's GGF file (none if it does not exist). A torn last line (the
/// run was killed while writing it) is cut off so that the next game starts on a line of its
/// own; a bad line before it is an error naming the line.
fn played_games(path: &std::path::Path) -> Result<Vec<oxello::ggf::GgfGame>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
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
        match (oxello::ggf::GgfGame::parse(line.trim()), torn) {
            (_, true) => {
                let cut = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|f| f.set_len(valid as u64));
                cut.map_err(|e| format!("cannot cut the torn last line of {}: {e}", path.display()))?;
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

fn run_match(args: &MatchArgs) -> ExitCode {
    let MatchArgs {
        engine_a,
        engine_b,
        openings,
        count,
        timeout,
        time: clock,
        sprt,
        alpha,
        beta,
        ggf,
        resume,
        json,
    } = args;
    let (count, timeout, clock, json) = (*count, *timeout, *clock, *json);
    let sprt = match sprt
        .as_deref()
        .map(|s| enginematch::Sprt::parse(s, *alpha, *beta))
        .transpose()
    {
        Ok(t) => t,
        Err(e) => {
            eprintln!("oxello: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(text) = read_text(openings) else {
        return ExitCode::from(2);
    };
    let mut lines = Vec::new();
    for (i, l) in text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).enumerate() {
        if l.is_empty() {
            continue;
        }
        match oxello::board::notation::play_transcript(Position::start(), l)
            .and_then(|_| oxello::board::notation::parse_transcript(l))
        {
            Ok(moves) => lines.push(moves),
            Err(e) => {
                eprintln!("oxello: {}:{}: {e}", openings.display(), i + 1);
                return ExitCode::from(2);
            }
        }
    }
    lines.truncate(count.unwrap_or(usize::MAX));
    let previous = if *resume {
        match played_games(ggf) {
            Ok(games) => games,
            Err(e) => {
                eprintln!("oxello: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        Vec::new()
    };
    let opened = if *resume {
        std::fs::OpenOptions::new().create(true).append(true).open(ggf)
    } else {
        std::fs::File::create(ggf)
    };
    let mut file = match opened {
        Ok(f) => f,
        Err(e) => {
            eprintln!("oxello: cannot write {}: {e}", ggf.display());
            return ExitCode::from(2);
        }
    };
    let timeout = std::time::Duration::from_secs_f64(timeout.clamp(0.01, 1e6));
    let opts = enginematch::MatchOptions {
        timeout,
        clock: clock.map(|s| std::time::Duration::from_secs_f64(s.clamp(0.1, 1e6))),
        sprt,
        progress: !json,
    };
    match enginematch::run(engine_a, engine_b, &lines, &opts, &previous, &mut file) {
        Ok(r) => {
            let (elo, lo, hi) = r.elo();
            let avg = r.discs as f64 / r.games().max(1) as f64;
            let verdict = |v: enginematch::Verdict| match v {
                enginematch::Verdict::H0 => "H0 accepted",
                enginematch::Verdict::H1 => "H1 accepted",
                enginematch::Verdict::Continue => "no decision",
            };
            if json {
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
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("oxello: {e}");
            ExitCode::from(2)
        }
    }
}

/// Reads dataset files; bad records are reported by line (the first ten per file) and skipped.
fn read_records(data: &[std::path::PathBuf], tool: &str) -> Option<Vec<oxello::eval::dataset::Record>> {
    let mut records = Vec::new();
    for (k, file) in data.iter().enumerate() {
        let text = read_text(file)?;
        let (r, errors) = oxello::eval::dataset::parse_file(&text, k);
        for (line, e) in errors.iter().take(10) {
            eprintln!("{tool}: {}:{line}: {e}", file.display());
        }
        if errors.len() > 10 {
            eprintln!("{tool}: {}: {} more bad records", file.display(), errors.len() - 10);
        }
        records.extend(r);
    }
    eprintln!("{tool}: {} records", records.len());
    Some(records)
}

fn run_fit_endcut(args: &FitEndcutArgs, eval: &(dyn OrderingEval + Sync)) -> ExitCode {
    let Some(records) = read_records(&args.data, "fit-endcut") else {
        return ExitCode::from(2);
    };
    let opts = fitendcut::EndCutOptions {
        per_empties: args.per_empties,
        min_empties: args.min_empties,
        max_empties: args.max_empties,
        extrapolate_to: args.extrapolate_to.min(64),
        threads: args.threads,
        seed: args.seed,
    };
    let table = fitendcut::run(&records, &opts, eval);
    let fitted = table.fits().iter().filter(|f| f.samples > 0).count();
    if fitted == 0 {
        eprintln!(
            "fit-endcut: no exact-labelled held-out positions with {}-{} empties",
            args.min_empties, args.max_empties
        );
        return ExitCode::from(2);
    }
    let header = format!(
        "Endgame ProbCut: exact score v = a*v' + b + e, e ~ N(0, sigma^2), v' = the solver's check search\n\
         (2 plies below {} empties, 4 from there). One row per empties count; samples 0 = extrapolated.\n\
         Regenerate with: {}",
        oxello::search::endcut::DEEP_CHECK_FROM,
        command_line()
    );
    if let Err(e) = std::fs::write(&args.out, table.to_text(&header)) {
        eprintln!("oxello: cannot write {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    for f in table.fits() {
        println!(
            "empties {:2} check {}: a {:.3} b {:+.2} sigma {:.2} r2 {:.3} samples {}",
            f.min_empties, f.check, f.a, f.b, f.sigma, f.r2, f.samples
        );
    }
    println!("written to {}", args.out.display());
    ExitCode::SUCCESS
}

fn run_train(
    data: &[std::path::PathBuf],
    out: &std::path::Path,
    mut opts: train::TrainOptions,
    calibrate: usize,
    eval: &(dyn OrderingEval + Sync),
) -> ExitCode {
    let Some(records) = read_records(data, "train") else {
        return ExitCode::from(2);
    };
    if calibrate > 0 {
        let (shift, n) = train::calibrate(&records, calibrate, [21, 22], eval, opts.threads);
        eprintln!(
            "train: {n} game-labelled positions solved: labels shifted by {:+.2} at odd empties, {:+.2} at even",
            shift.odd, shift.even
        );
        opts.label_shift = shift;
    }
    let (evaluator, _) = train::train(&records, &opts, true);
    let (mae, n) = train::holdout_mae(&evaluator, &records, 20..=24);
    println!("held-out MAE of the static evaluation at 20-24 empties (exact labels): {mae:.2} discs over {n} positions");
    if let Err(e) = std::fs::write(out, evaluator.encode()) {
        eprintln!("oxello: cannot write {}: {e}", out.display());
        return ExitCode::from(2);
    }
    println!("weights written to {}", out.display());
    ExitCode::SUCCESS
}

fn run_fit_mpc(args: &FitMpcArgs, eval: &(dyn OrderingEval + Sync)) -> ExitCode {
    let FitMpcArgs {
        data,
        positions: per_stage,
        max_depth,
        out,
        plots,
        threads,
        seed,
    } = args;
    let (per_stage, max_depth, threads, seed) = (*per_stage, *max_depth, *threads, *seed);
    let mut positions = Vec::new();
    for file in data {
        match std::fs::read_to_string(file) {
            Ok(text) => {
                let (p, errors) = fitmpc::read_positions(&text);
                for (line, e) in errors.iter().take(10) {
                    eprintln!("fit-mpc: {}:{line}: {e}", file.display());
                }
                if errors.len() > 10 {
                    eprintln!("fit-mpc: {}: {} more bad records", file.display(), errors.len() - 10);
                }
                positions.extend(p);
            }
            Err(e) => {
                eprintln!("oxello: cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        }
    }
    let opts = fitmpc::FitOptions {
        positions_per_stage: per_stage,
        max_depth: max_depth.min(14),
        threads,
        seed,
    };
    let (table, svgs) = fitmpc::run(&positions, &opts, eval);
    let header = format!(
        "Multi-ProbCut parameters: v = a*v' + b + e, e ~ N(0, sigma^2), per stage (empties) and depth pair.\n\
         depth 60 = exact score. Regenerate with: {}",
        command_line()
    );
    if let Err(e) = std::fs::write(out, table.to_text(&header)) {
        eprintln!("oxello: cannot write {}: {e}", out.display());
        return ExitCode::from(2);
    }
    let _ = std::fs::create_dir_all(plots);
    for (name, svg) in svgs {
        if let Err(e) = std::fs::write(plots.join(&name), svg) {
            eprintln!("oxello: cannot write plot {name}: {e}");
            return ExitCode::from(2);
        }
    }
    println!(
        "{:>5} {:>5} {:>5} {:>5} {:>7} {:>7} {:>6} {:>6} {:>6}",
        "emin", "emax", "d", "d'", "a", "b", "sigma", "r2", "n"
    );
    for f in table.fits() {
        println!(
            "{:>5} {:>5} {:>5} {:>5} {:>7.3} {:>7.2} {:>6.2} {:>6.3} {:>6}",
            f.min_empties, f.max_empties, f.depth, f.check, f.a, f.b, f.sigma, f.r2, f.samples
        );
    }
    ExitCode::SUCCESS
}

fn run_solve(
    file: &std::path::Path,
    wld: bool,
    json: bool,
    hash: usize,
    threads: usize,
    eval: Option<&dyn OrderingEval>,
) -> ExitCode {
    let Some(text) = read_text(file) else {
        return ExitCode::from(2);
    };
    let opts = SolveOptions {
        mode: if wld { SolveMode::Wld } else { SolveMode::Exact },
        eval,
        json,
        hash_mb: hash,
        threads,
    };
    let mut out = std::io::stdout().lock();
    match solve::run(&text, &opts, &mut out) {
        Ok(sum) if sum.wrong > 0 => ExitCode::from(1),
        Ok(sum) if sum.errors > 0 => ExitCode::from(3),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oxello: {e}");
            ExitCode::from(2)
        }
    }
}

/// A file's text, or None after telling stderr why it cannot be read.
fn read_text(path: &std::path::Path) -> Option<String> {
    std::fs::read_to_string(path)
        .map_err(|e| eprintln!("oxello: cannot read {}: {e}", path.display()))
        .ok()
}

/// This run's command line as `oxello ARGS` (not the binary's path), for file headers.
fn command_line() -> String {
    std::iter::once("oxello".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}
