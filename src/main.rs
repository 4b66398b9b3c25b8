//! The `oxello` command line: parses it and hands the command to its group's module in `cli`
//! (which documents the error style and the exit codes).

mod cli;

use clap::{Parser, Subcommand};
use cli::{Globals, analysis, book, matches, play, training};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "oxello", version, about = "A tournament-strength Othello engine")]
struct Cli {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The groups of commands, one module each; `oxello --help` lists the commands by group.
#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Play(play::Command),
    #[command(flatten)]
    Analysis(analysis::Command),
    #[command(flatten)]
    Training(training::Command),
    #[command(flatten)]
    Book(book::Command),
    #[command(flatten)]
    Matches(matches::Command),
}

fn main() -> ExitCode {
    let cli: Cli = cli::parse();
    cli::init_logging(cli.globals.verbose);
    // Every command loads the evaluation first, so a bad --params fails all of them alike.
    let globals = &cli.globals;
    cli::exit(cli::load::evaluation(globals).and_then(|eval| match cli.command {
        None => play::default(globals, eval),
        Some(Command::Play(c)) => play::run(c, globals, eval),
        Some(Command::Analysis(c)) => analysis::run(c, globals, eval.as_ref()),
        Some(Command::Training(c)) => training::run(c, globals, eval.as_ref()),
        Some(Command::Book(c)) => book::run(c, globals, eval),
        Some(Command::Matches(c)) => matches::run(c),
    }))
}
