//! Opening book: `book build` and `book show` (NBoard `learn` adds games during play).

use super::{Globals, Outcome, load};
use clap::Subcommand;
use oxello::board::Board;
use oxello::board::notation::render;
use oxello::book::{self, BuildOptions, SearchValuer};
use oxello::search::endgame::OrderingEval;
use oxello::search::midgame::Searcher;
use oxello::search::request::Pruning;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Subcommand)]
pub enum Command {
    /// Build or inspect an opening book.
    Book {
        #[command(subcommand)]
        action: Action,
    },
}

#[derive(Subcommand)]
pub enum Action {
    /// Build a book from the start position by our own searches: every move of an expanded
    /// position is searched, moves within --window discs of the best are expanded, up to
    /// --plies; the values are then negamaxed.
    Build(BuildArgs),
    /// Print the book moves of a position with their values, best first (the book is the
    /// embedded one unless --book FILE).
    Show(ShowArgs),
}

#[derive(clap::Args)]
pub struct BuildArgs {
    #[arg(long, default_value = "book/book.txt")]
    out: PathBuf,
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
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// The position: "<64 squares> <X|O>" (default: the start position).
    #[arg(long, allow_hyphen_values = true)]
    board: Option<String>,
    /// Moves played from that position first, e.g. f5d6c3.
    #[arg(long)]
    moves: Option<String>,
}

pub fn run(command: Command, globals: &Globals, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let Command::Book { action } = command;
    match action {
        Action::Build(args) => build(&args, eval),
        Action::Show(args) => show(&args, globals),
    }
}

fn build(args: &BuildArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    load::output_folder(&args.out)?;
    let opts = BuildOptions {
        plies: args.plies,
        window: args.window,
    };
    let mut valuer = SearchValuer {
        searcher: Searcher::new(args.hash),
        eval,
        depth: args.depth,
        pruning: Pruning::from_percent(args.selectivity),
        threads: args.threads.max(1),
    };
    let t0 = Instant::now();
    let mut shown = 0;
    let book = book::build(&Board::START, &opts, &mut valuer, &mut |n| {
        if n >= shown + 100 {
            shown = n;
            eprintln!("book build: {n} positions, {:.0} s", t0.elapsed().as_secs_f64());
        }
    });
    book.save(&args.out).map_err(|e| e.to_string())?;
    println!(
        "{} positions written to {} in {:.1} s",
        book.len(),
        args.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn show(args: &ShowArgs, globals: &Globals) -> Outcome {
    let book = load::book(globals)?.book;
    let pos = load::position_option(args.board.as_deref(), args.moves.as_deref())?;
    print!("{}", render(&pos));
    match book.probe(&pos.board) {
        None => println!("not in book ({} positions)", book.len()),
        Some(e) => println!("in book: value {:+} for the side to move, depth {}", e.value, e.depth),
    }
    for m in book.moves(&pos.board) {
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
    Ok(ExitCode::SUCCESS)
}
