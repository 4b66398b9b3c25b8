//! Play and protocols: the terminal game, NBoard and GTP, and what `oxello` does without a
//! command (the terminal game on a terminal, else the protocol the first line speaks).

use super::{Eval, Globals, Outcome, load};
use clap::Subcommand;
use oxello::engine::searcher::SearchThinker;
use oxello::engine::terminal::{Style, Terminal};
use oxello::engine::{self, EngineOptions, UserClock};
use oxello::protocol::io::{Output, ProtocolKind};
use oxello::serve::{Config, Server, open_browser};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum Command {
    /// Play against the engine in the terminal (also the default when stdin is a terminal).
    Play(ProtocolArgs),
    /// Speak NBoard on stdin/stdout (with no subcommand, the first line picks the protocol).
    Nboard(ProtocolArgs),
    /// Speak GTP on stdin/stdout.
    Gtp(ProtocolArgs),
    /// Serve a board in the browser: play the engine, analyse, import and export games.
    Serve(ServeArgs),
}

/// Options of `oxello serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Only this machine can connect to the default; another address
    /// lets other machines in, and the page must then be opened under that address.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Open the page in the desktop's browser.
    #[arg(long)]
    open: bool,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads. Default: every core.
    #[arg(long, default_value_t = all_cores())]
    threads: usize,
    #[command(flatten)]
    clock: ClockArgs,
}

/// `--move-time` / `--game-time` (as Edax's `-move-time` / `-game-time`).
#[derive(clap::Args, Default, Clone, Copy)]
pub struct ClockArgs {
    /// Seconds for each of the engine's moves, when the controller gives no clock.
    #[arg(long, value_name = "S", conflicts_with = "game_time", value_parser = seconds)]
    move_time: Option<f64>,
    /// Seconds for the engine's whole game, counted down by the engine from its own moves,
    /// when the controller gives no clock (GTP `time_settings`, a GGF `TI[]` replace it).
    #[arg(long, value_name = "S", value_parser = seconds)]
    game_time: Option<f64>,
}

impl ClockArgs {
    pub fn clock(&self) -> UserClock {
        match (self.move_time, self.game_time) {
            (Some(s), _) => UserClock::MoveTime(s),
            (None, Some(s)) => UserClock::GameTime(s),
            (None, None) => UserClock::None,
        }
    }
}

/// A positive, finite number of seconds.
pub fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e6 => Ok(s),
        _ => Err("expected a number of seconds above 0".into()),
    }
}

/// Options of the protocol front-ends and the terminal game.
#[derive(clap::Args)]
pub struct ProtocolArgs {
    /// Level (0-60) until the GUI sets one (NBoard `set depth`, GTP `set_level`); default 12.
    /// Under a clock a level chosen here or by the GUI caps the search; with none chosen the
    /// clock decides how deep to search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=60))]
    level: Option<u32>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads (the midgame shares a node's moves once its first is searched, the solver its table). Default: every core.
    #[arg(long, default_value_t = all_cores())]
    threads: usize,
    /// Think in the risk-aware style: the move whose value is reached with this confidence
    /// in percent (95: safe, 5: risky, 50: the median); until the GUI changes it (NBoard
    /// `set risk C`, GTP `oxello-risk C`; 0 = off). Default: the ordinary search.
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(1..=99))]
    risk: Option<u32>,
    #[command(flatten)]
    clock: ClockArgs,
    /// Think on the opponent's time (GTP `oxello-ponder on|off` and NBoard `set ponder on|off`
    /// switch it). Off by default: on a shared or single core the ponder takes the opponent's
    /// CPU, and an engine match must turn it on for both sides to be fair.
    #[arg(long)]
    ponder: bool,
}

/// The level when none is chosen.
const DEFAULT_LEVEL: u32 = 12;

/// The number of cores this machine offers (1 if unknown).
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for ProtocolArgs {
    fn default() -> Self {
        ProtocolArgs {
            level: None,
            hash: 64,
            threads: all_cores(),
            risk: None,
            clock: ClockArgs::default(),
            ponder: false,
        }
    }
}

pub fn run(command: Command, globals: &Globals, eval: Eval) -> Outcome {
    match command {
        Command::Play(args) => terminal_game(&args, globals, eval),
        Command::Nboard(args) => protocol(Some(ProtocolKind::Nboard), &args, globals, eval),
        Command::Gtp(args) => protocol(Some(ProtocolKind::Gtp), &args, globals, eval),
        Command::Serve(args) => serve(&args, globals, eval),
    }
}

/// `oxello` without a command.
pub fn default(globals: &Globals, eval: Eval) -> Outcome {
    if std::io::stdin().is_terminal() {
        terminal_game(&ProtocolArgs::default(), globals, eval)
    } else {
        protocol(None, &ProtocolArgs::default(), globals, eval)
    }
}

/// The search behind the protocols and the terminal game.
fn thinker(args: &ProtocolArgs, globals: &Globals, eval: Eval) -> Result<SearchThinker, String> {
    search_thinker(args.hash, args.threads, globals, eval)
}

/// The engines' search with `hash` MB and `threads` threads (also `book learn`'s).
pub(super) fn search_thinker(hash: usize, threads: usize, globals: &Globals, eval: Eval) -> Result<SearchThinker, String> {
    // A params directory may also replace the level table and the Multi-ProbCut table.
    let mut thinker = SearchThinker::new(hash, eval, load::levels(globals)?, threads.max(1));
    thinker.set_mpc(load::mpc(globals.params.as_deref())?);
    if let Some(layer) = load::layer_loader(globals) {
        thinker.set_layer_loader(layer);
    }
    Ok(thinker)
}

fn terminal_game(args: &ProtocolArgs, globals: &Globals, eval: Eval) -> Outcome {
    let mut thinker = thinker(args, globals, eval)?;
    let book = load::book(globals)?;
    let mut input = std::io::stdin().lock();
    let out = std::io::stdout();
    let style = Style::detect(out.is_terminal(), std::env::var_os("NO_COLOR").as_deref());
    let mut out = out.lock();
    Terminal::new(&mut thinker, args.level.unwrap_or(DEFAULT_LEVEL))
        .with_clock(args.clock.clock(), args.level.is_some())
        .with_book(book)
        .with_style(style)
        .with_risk(args.risk)
        .run(&mut input, &mut out)
        .map_err(|e| format!("play: cannot read stdin or write stdout: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Serves a protocol (None: the one the first line speaks) on stdin/stdout until quit or EOF.
fn protocol(kind: Option<ProtocolKind>, args: &ProtocolArgs, globals: &Globals, eval: Eval) -> Outcome {
    let thinker = Box::new(thinker(args, globals, eval)?);
    let book = load::book(globals)?;
    let input = std::io::BufReader::new(std::io::stdin());
    let out = Output::new(Box::new(std::io::stdout()));
    engine::run(
        kind,
        input,
        out,
        thinker,
        EngineOptions {
            level: args.level.unwrap_or(DEFAULT_LEVEL),
            book,
            risk: args.risk,
            level_explicit: args.level.is_some(),
            clock: args.clock.clock(),
            ponder: args.ponder,
        },
    );
    Ok(ExitCode::SUCCESS)
}

/// Serves the page until the process is ended; the address goes to stdout first.
fn serve(args: &ServeArgs, globals: &Globals, eval: Eval) -> Outcome {
    let thinker = Box::new(search_thinker(args.hash, args.threads, globals, eval)?);
    let book = load::book(globals)?;
    let config = Config {
        host: args.host.clone(),
        port: args.port,
        clock: args.clock.clock(),
    };
    let server =
        Server::bind(&config, thinker, book).map_err(|e| format!("serve: cannot listen on {}:{}: {e}", args.host, args.port))?;
    let url = server.url();
    println!("oxello serves the board at {url} (Ctrl-C ends it)");
    // The line is read by scripts that start the server on port 0.
    std::io::stdout()
        .flush()
        .map_err(|e| format!("serve: cannot write stdout: {e}"))?;
    if args.open
        && let Err(e) = open_browser(&url)
    {
        eprintln!("oxello: serve: cannot open a browser ({e}); open {url} yourself");
    }
    server.run().map_err(|e| format!("serve: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
