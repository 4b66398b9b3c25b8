//! The `oxello` command line.

use clap::{Parser, Subcommand};
use oxello::board::notation::parse_position;
use oxello::board::{Board, Position};
use oxello::engine::interim::InterimThinker;
use oxello::engine::{self, EngineOptions};
use oxello::perft::{PassPolicy, perft};
use oxello::protocol::io::{Output, ProtocolKind};
use oxello::search::endgame::SolveMode;
use oxello::search::kernel::Kernel;
use oxello::tools::solve::{self, SolveOptions};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "oxello", version, about = "A tournament-strength Othello engine")]
struct Cli {
    /// Log diagnostics to stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Options of the protocol front-ends.
#[derive(clap::Args)]
struct ProtocolArgs {
    /// Midgame depth until the GUI sets one (NBoard `set depth`, GTP `set_level`).
    #[arg(long, default_value_t = 12)]
    level: u32,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

impl Default for ProtocolArgs {
    fn default() -> Self {
        ProtocolArgs { level: 12, hash: 64 }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Speak NBoard on stdin/stdout (with no subcommand, the first line picks the protocol).
    Nboard(ProtocolArgs),
    /// Speak GTP on stdin/stdout.
    Gtp(ProtocolArgs),
    /// Count the leaves of the game tree (move generator check).
    Perft {
        depth: u32,
        /// Whether a forced pass uses a ply of depth.
        #[arg(long, value_enum, default_value = "move")]
        pass_policy: PassPolicy,
        /// Start from this position ("<64 squares> <X|O>") instead of the initial one.
        #[arg(long)]
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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let level = match cli.verbose {
        0 => log::LevelFilter::Warn,
        1 => log::LevelFilter::Info,
        _ => log::LevelFilter::Debug,
    };
    env_logger::Builder::new()
        .filter_level(level)
        .target(env_logger::Target::Stderr)
        .init();
    match cli.command {
        Some(Command::Perft {
            depth,
            pass_policy,
            board,
        }) => run_perft(depth, pass_policy, board.as_deref()),
        Some(Command::Solve { file, wld, json, hash }) => run_solve(&file, wld, json, hash),
        Some(Command::Nboard(args)) => run_protocol(Some(ProtocolKind::Nboard), &args),
        Some(Command::Gtp(args)) => run_protocol(Some(ProtocolKind::Gtp), &args),
        None => run_protocol(None, &ProtocolArgs::default()),
    }
}

/// Serves a protocol on stdin/stdout until quit or EOF.
fn run_protocol(kind: Option<ProtocolKind>, args: &ProtocolArgs) -> ExitCode {
    let input = std::io::BufReader::new(std::io::stdin());
    let out = Output::new(Box::new(std::io::stdout()));
    let thinker = Box::new(InterimThinker::new(args.hash));
    engine::run(kind, input, out, thinker, EngineOptions { depth: args.level });
    ExitCode::SUCCESS
}

fn run_perft(depth: u32, policy: PassPolicy, board: Option<&str>) -> ExitCode {
    let pos = match board.map(parse_position) {
        None => Position::start(),
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("oxello: bad --board: {e}");
            return ExitCode::from(2);
        }
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

fn run_solve(file: &std::path::Path, wld: bool, json: bool, hash: usize) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("oxello: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let opts = SolveOptions {
        mode: if wld { SolveMode::Wld } else { SolveMode::Exact },
        json,
        hash_mb: hash,
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
