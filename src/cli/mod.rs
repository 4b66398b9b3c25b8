//! The commands of the `oxello` binary, one module per group of commands: each module owns
//! its commands' options (clap structs) and the functions that run them.
//!
//! Errors go to stderr as `oxello: <what>: <why>`, where <what> is the file (with `:line` when
//! a line is to blame), the option with its value, or the command, and <why> says what was
//! expected where that is not obvious. Usage errors found by clap keep clap's own format.
//!
//! Exit codes:
//! - 0: done (the protocols and the terminal game exit 0 at `quit` or the end of input);
//! - 1: a check failed: `solve` computed a score or best move other than the file lists;
//! - 2: bad usage or bad input: an option clap rejects or the command rejects, an input file
//!   that cannot be read or is malformed (weights, tables, book, openings, datasets, a match's
//!   GGF file), an output file that cannot be written, a match engine that cannot be started;
//! - 3: `solve` found malformed OBF lines (reported in its output; the other lines are still
//!   solved). A wrong score takes precedence: 1 when both happen.

pub mod analysis;
pub mod book;
pub mod load;
pub mod matches;
pub mod play;
pub mod training;

use oxello::search::endgame::OrderingEval;
use std::path::PathBuf;
use std::process::ExitCode;

/// The evaluation selected by the global options; the protocols take ownership of it.
pub type Eval = Box<dyn OrderingEval + Send + Sync>;

/// What a command ends with: its exit code, or the message of an exit with code 2.
pub type Outcome = Result<ExitCode, String>;

/// The log target of the commands' own messages: the program's name, not the module's path.
const LOG: &str = "oxello";

/// Options that every command accepts, before or after its name.
#[derive(clap::Args)]
pub struct Globals {
    /// Log diagnostics to stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// Directory with eval.bin (and optionally mpc.txt, levels.txt) replacing the embedded ones.
    #[arg(long, global = true)]
    pub params: Option<PathBuf>,
    /// Use the hand-written bootstrap evaluation instead of the trained weights.
    #[arg(long, global = true)]
    pub bootstrap_eval: bool,
    /// Opening book file replacing the embedded one; NBoard `learn` saves into it (a missing
    /// file starts empty and is created by the first `learn`).
    #[arg(long, global = true, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Start with an empty book (games learned in the session still go into it).
    #[arg(long, global = true, conflicts_with = "book")]
    pub no_book: bool,
}

/// Sends the log to stderr at the level of `-v`.
pub fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => log::LevelFilter::Warn,
        1 => log::LevelFilter::Info,
        _ => log::LevelFilter::Debug,
    };
    env_logger::Builder::new()
        .filter_level(level)
        .target(env_logger::Target::Stderr)
        .init();
}

/// The exit code of a command; an error is printed first.
pub fn exit(outcome: Outcome) -> ExitCode {
    outcome.unwrap_or_else(|e| {
        eprintln!("oxello: {e}");
        ExitCode::from(2)
    })
}
