//! Opening book: `book build`, `merge`, `show`, `stats`, `learn`, and Edax's format with
//! `import`/`export` (NBoard `learn` adds games during play as `book learn` does).

use super::{Eval, Globals, Outcome, load, play};
use clap::Subcommand;
use oxello::base::OrderingEval;
use oxello::base::SearchDepth;
use oxello::board::notation::render;
use oxello::board::{Board, Position};
use oxello::book::stats::Stats;
use oxello::book::{self, Book, BuildOptions, SearchValuer, Shard};
use oxello::search::midgame::Searcher;
use oxello::search::request::Pruning;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
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
    /// Print the book moves of a position with their values, best first, and the main line
    /// (the book is the embedded one unless --book FILE).
    Show(ShowArgs),
    /// Print the book's size, positions by ply and by search depth, and the values where its
    /// main lines end.
    Stats(StatsArgs),
    /// Add whole games (GGF files or one transcript per line) to the book of --book FILE,
    /// valuing new positions by searches at --level; the file is saved after each game.
    Learn(LearnArgs),
    /// Search again, deeper, the positions of a book file that games reach (one side playing
    /// its best book moves, the other any), round after round until none is shallower than
    /// --depth; the file is saved as it goes, and a stopped run continues where it stopped.
    Deepen(DeepenArgs),
    /// Merge books (the workers of a sharded build) into one and negamax it.
    Merge(MergeArgs),
    /// Read an Edax book (.dat, Edax's `book save`) into an oxello book file.
    Import(ImportArgs),
    /// Write the book (embedded, or --book FILE) as an Edax book (.dat) Edax can `book load`.
    Export(ExportArgs),
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
    /// Continue a stopped build from --out (saved every --save-every seconds) instead of
    /// starting afresh; the options must be the stopped build's.
    #[arg(long)]
    resume: bool,
    /// Seconds between saves of --out during the build.
    #[arg(long, default_value_t = 300)]
    save_every: u64,
    /// Worker I of N (1-based, e.g. 3/8): expands only its share of the positions at
    /// --shard-ply; `book merge` joins the N files.
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(u32, u32)>,
    /// The ply at which a sharded build splits (below --plies).
    #[arg(long, default_value_t = 4)]
    shard_ply: u32,
}

/// `I/N` with 1 <= I <= N.
fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let parsed = s
        .split_once('/')
        .and_then(|(i, n)| Some((i.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?)));
    match parsed {
        Some((i, n)) if (1..=n).contains(&i) => Ok((i, n)),
        _ => Err(format!("'{s}': expected I/N with 1 <= I <= N, e.g. 1/4")),
    }
}

#[derive(clap::Args)]
pub struct StatsArgs {
    /// Main lines follow the book moves at most this many discs below the best.
    #[arg(long, default_value_t = 0)]
    window: i32,
}

#[derive(clap::Args)]
pub struct LearnArgs {
    /// Game files: GGF (several games per file allowed) or transcripts, one game per line.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Search level of the values of new positions (as the engines' --level).
    #[arg(long, default_value_t = 12)]
    level: u32,
    #[arg(long, default_value_t = 64)]
    hash: usize,
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(clap::Args)]
pub struct DeepenArgs {
    /// The book file, deepened in place.
    file: PathBuf,
    /// Midgame search depth of the new values.
    #[arg(long, default_value_t = 22)]
    depth: u32,
    /// Multi-ProbCut confidence in percent (100 = exact alpha-beta).
    #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u32).range(1..=100))]
    selectivity: u32,
    /// The choosing side follows its book moves at most this many discs below its best (as
    /// `--book-randomness` plays them; 0: its best only).
    #[arg(long, default_value_t = 0)]
    window: i32,
    /// Searches at once (one thread each).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table of each search, in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Stop after this many rounds.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Seconds between saves of the file.
    #[arg(long, default_value_t = 120)]
    save_every: u64,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// Book files; a position in several keeps the first file's entry.
    #[arg(required = true)]
    books: Vec<PathBuf>,
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct ImportArgs {
    /// The Edax book.
    file: PathBuf,
    /// The oxello book to write (default: FILE with the extension .txt).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ExportArgs {
    /// The Edax book to write.
    file: PathBuf,
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

pub fn run(command: Command, globals: &Globals, eval: Eval) -> Outcome {
    let Command::Book { action } = command;
    match action {
        Action::Build(args) => build(&args, eval.as_ref()),
        Action::Show(args) => show(&args, globals),
        Action::Stats(args) => stats(&args, globals),
        Action::Learn(args) => learn(&args, globals, eval),
        Action::Deepen(args) => deepen(&args, eval.as_ref()),
        Action::Merge(args) => merge(&args),
        Action::Import(args) => import(&args),
        Action::Export(args) => export(&args, globals),
    }
}

fn build(args: &BuildArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    load::output_folder(&args.out)?;
    let opts = BuildOptions {
        plies: args.plies,
        window: args.window,
    };
    let mut valuer = search_valuer(eval, args.hash, args.depth, args.selectivity, args.threads);
    let shard = args.shard.map(|(i, n)| Shard {
        index: i - 1,
        count: n,
        ply: args.shard_ply,
    });
    if shard.is_some_and(|s| s.count > 1 && s.ply >= args.plies) {
        return Err(format!(
            "book build: --shard-ply {} must be below --plies {}",
            args.shard_ply, args.plies
        ));
    }
    let mut book = if args.resume && args.out.exists() {
        let book = Book::load(&args.out).map_err(|e| e.to_string())?;
        eprintln!("book build: resuming from {} positions in {}", book.len(), args.out.display());
        book
    } else {
        Book::new()
    };
    let t0 = Instant::now();
    let mut shown = book.len();
    // Saved as it grows, so that a stopped build resumes (`--resume`).
    let mut saver = PeriodicSave::new(&args.out, args.save_every);
    book::resume(&mut book, &Board::START, &opts, shard, &mut valuer, &mut |b: &Book| {
        let n = b.len();
        if n >= shown + 100 {
            shown = n;
            eprintln!("book build: {n} positions, {:.0} s", t0.elapsed().as_secs_f64());
        }
        saver.tick(b);
    });
    saver.finish(&book)?;
    println!(
        "{} positions written to {} in {:.1} s",
        book.len(),
        args.out.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn deepen(args: &DeepenArgs, eval: &(dyn OrderingEval + Sync)) -> Outcome {
    let mut book = Book::load(&args.file).map_err(|e| e.to_string())?;
    let target = SearchDepth::Selective {
        depth: args.depth,
        percent: args.selectivity,
    };
    let mut valuers: Vec<SearchValuer> = (0..args.threads.max(1))
        .map(|_| search_valuer(eval, args.hash, args.depth, args.selectivity, 1))
        .collect();
    let mut refs: Vec<&mut (dyn book::Valuer + Send)> = valuers.iter_mut().map(|v| v as _).collect();
    let t0 = Instant::now();
    // Saved as it goes, so that a stopped run continues.
    let mut saver = PeriodicSave::new(&args.file, args.save_every);
    let report = book::deepen::deepen(
        &mut book,
        &Board::START,
        args.window,
        target,
        args.rounds,
        &mut refs,
        &mut |b: &Book, done, jobs| {
            if done == 1 || done % 50 == 0 || done == jobs {
                eprintln!(
                    "book deepen: {done} of {jobs} searches this round, {:.0} s",
                    t0.elapsed().as_secs_f64()
                );
            }
            saver.tick(b);
        },
    );
    saver.finish(&book)?;
    println!(
        "{} searches in {} rounds, {:.1} s; {}: {}",
        report.searches,
        report.rounds,
        t0.elapsed().as_secs_f64(),
        args.file.display(),
        if report.finished {
            "every position games reach is valued at that depth"
        } else {
            "not finished: run it again to continue"
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// The fixed-depth search that values book positions.
fn search_valuer(
    eval: &(dyn OrderingEval + Sync),
    hash: usize,
    depth: u32,
    selectivity: u32,
    threads: usize,
) -> SearchValuer<'_> {
    SearchValuer {
        searcher: Searcher::new(hash),
        eval,
        depth,
        pruning: Pruning::from_percent(selectivity),
        threads: threads.max(1),
    }
}

/// Saves a book being built or deepened every `every` seconds (negamaxed, so that the file is
/// a book to play from), so that a stopped run goes on from the file; `finish` saves the end.
struct PeriodicSave<'a> {
    path: &'a Path,
    every: u64,
    last: Instant,
    error: Option<String>,
}

impl<'a> PeriodicSave<'a> {
    fn new(path: &'a Path, every: u64) -> Self {
        PeriodicSave {
            path,
            every,
            last: Instant::now(),
            error: None,
        }
    }

    fn tick(&mut self, b: &Book) {
        if self.last.elapsed().as_secs() >= self.every && self.error.is_none() {
            let mut copy = b.clone();
            copy.negamax();
            self.error = copy.save(self.path).err().map(|e| e.to_string());
            self.last = Instant::now();
        }
    }

    fn finish(self, book: &Book) -> Result<(), String> {
        match self.error {
            Some(e) => Err(e),
            None => book.save(self.path).map_err(|e| e.to_string()),
        }
    }
}

fn merge(args: &MergeArgs) -> Outcome {
    let mut merged = Book::new();
    for path in &args.books {
        merged.merge(&Book::load(path).map_err(|e| e.to_string())?);
    }
    merged.save(&args.out).map_err(|e| e.to_string())?;
    println!("{} positions written to {}", merged.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn stats(args: &StatsArgs, globals: &Globals) -> Outcome {
    let book = load::book(globals)?.book;
    print!("{}", Stats::of(&book, &Position::start(), args.window));
    Ok(ExitCode::SUCCESS)
}

fn learn(args: &LearnArgs, globals: &Globals, eval: Eval) -> Outcome {
    if globals.book.is_none() {
        return Err("book learn: which book? give it with --book FILE (created if missing)".into());
    }
    let mut engine_book = load::book(globals)?;
    let mut thinker = play::search_thinker(args.hash, args.threads, globals, eval)?;
    let stop = AtomicBool::new(false);
    let (mut games, mut added) = (0, 0);
    for path in &args.files {
        let name = path.display().to_string();
        let text = load::read_text(path)?;
        for (i, game) in book::games::read_games(&text, &name)?.iter().enumerate() {
            let learned = engine_book
                .learn(game, &mut thinker, args.level, &stop)
                .map_err(|e| format!("{name}: game {}: {e}", i + 1))?;
            games += 1;
            added += learned.added;
        }
    }
    println!(
        "{games} games learned: {added} new positions, {} in {}",
        engine_book.book.len(),
        globals.book.as_deref().map(|p| p.display().to_string()).unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}

fn import(args: &ImportArgs) -> Outcome {
    let (book, report) = Book::load_edax(&args.file).map_err(|e| e.to_string())?;
    let out = args.out.clone().unwrap_or_else(|| args.file.with_extension("txt"));
    if out == args.file {
        return Err(format!("book import: --out {} would overwrite the Edax book", out.display()));
    }
    book.save(&out).map_err(|e| e.to_string())?;
    println!(
        "{} positions ({} Edax book moves) imported from {} into {}",
        report.positions,
        report.links,
        args.file.display(),
        out.display()
    );
    if report.dangling_links > 0 {
        eprintln!(
            "book import: {} Edax book moves lead to positions missing from {} (not kept; Edax's `book fix` repairs such a book)",
            report.dangling_links,
            args.file.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn export(args: &ExportArgs, globals: &Globals) -> Outcome {
    let book = load::book(globals)?.book;
    book.save_edax(&args.file).map_err(|e| e.to_string())?;
    println!("{} positions exported to {}", book.len(), args.file.display());
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
    let moves = book.moves(&pos.board);
    if let Some(best) = moves.first() {
        let line: Vec<String> = book.line(&pos.board, best.mv).iter().map(|s| s.to_string()).collect();
        println!("main line: {}", line.join(" "));
    }
    for m in moves {
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
