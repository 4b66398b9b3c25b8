//! The commands of the `oxello` binary, one module per group of `oxello --help`: each module
//! owns its commands' options (clap structs) and the functions that run them.
//!
//! Errors go to stderr as `oxello: <what>: <why>`, where <what> is the file (with `:line` when
//! a line is to blame), the option with its value, or the command, and <why> says what was
//! expected where that is not obvious. Usage errors found by clap (an unknown option, a value
//! out of range) read the same, `oxello: ` and clap's message, then clap's usage lines.
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
pub mod corpus;
pub mod load;
pub mod matches;
pub mod play;
pub mod training;

use clap::{CommandFactory, Parser, Subcommand};
use oxello::base::OrderingEval;
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
    /// Play any book move within this many discs of the best book move, at random (0: always
    /// the best), so that games from the same position differ.
    #[arg(long, global = true, default_value_t = 0, value_name = "DISCS")]
    pub book_randomness: u32,
}

/// Adds a group's commands to a clap command (`Subcommand::augment_subcommands`).
type AddCommands = fn(clap::Command) -> clap::Command;

/// The headings of `oxello --help`, each with the commands of its module. clap 4 puts all
/// subcommands under one heading, so the help template lists these groups instead.
const GROUPS: [(&str, AddCommands); 5] = [
    ("Play and protocols", <play::Command as Subcommand>::augment_subcommands),
    (
        "Analysis and benchmarks",
        <analysis::Command as Subcommand>::augment_subcommands,
    ),
    ("Data and training", <training::Command as Subcommand>::augment_subcommands),
    ("Opening book", <book::Command as Subcommand>::augment_subcommands),
    ("Matches and reports", <matches::Command as Subcommand>::augment_subcommands),
];

/// The root help: clap's default layout with the commands listed by group.
fn help_template(styles: &clap::builder::Styles) -> String {
    let (header, literal) = (styles.get_header(), styles.get_literal());
    let groups: Vec<(&str, clap::Command)> = GROUPS.iter().map(|(h, add)| (*h, add(clap::Command::new(*h)))).collect();
    let width = groups
        .iter()
        .flat_map(|(_, g)| g.get_subcommands())
        .map(|c| c.get_name().len())
        .max()
        .unwrap_or(0);
    let mut t = String::from("{before-help}{about-with-newline}\n{usage-heading} {usage}\n\n");
    for (heading, group) in &groups {
        t += &format!("{header}{heading}:{header:#}\n");
        for c in group.get_subcommands() {
            let (name, about) = (c.get_name(), c.get_about().map(|a| a.to_string()).unwrap_or_default());
            t += &format!("  {literal}{name}{literal:#}{:pad$}  {about}\n", "", pad = width - name.len());
        }
        t += "\n";
    }
    t += &format!("{header}Options:{header:#}\n{{options}}\n\n");
    t += &format!(
        "{literal}oxello help COMMAND{literal:#} (or {literal}oxello COMMAND --help{literal:#}) shows a command's options.{{after-help}}"
    );
    t
}

/// The command line with the grouped help.
fn command<P: CommandFactory>() -> clap::Command {
    let command = P::command();
    let template = help_template(command.get_styles());
    command.help_template(template)
}

/// Parses the command line like `P::parse()`, with the grouped help; a usage error is printed
/// in the style of the other errors and exits with code 2.
pub fn parse<P: Parser>() -> P {
    let mut command = command::<P>();
    command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|mut matches| P::from_arg_matches_mut(&mut matches))
        .unwrap_or_else(|e| {
            let e = e.format(&mut command);
            match usage_error(&e) {
                Some(message) => {
                    eprint!("{message}");
                    std::process::exit(2)
                }
                None => e.exit(),
            }
        })
}

/// clap's message for a usage error as `oxello: <what>: <why>` followed by clap's usage
/// lines; None for what is no error (help, version), which clap prints itself.
fn usage_error(e: &clap::Error) -> Option<String> {
    use clap::error::ErrorKind;
    let not_an_error = matches!(
        e.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if not_an_error || !e.use_stderr() {
        return None;
    }
    let text = e.render().to_string(); // without colours
    Some(format!("oxello: {}", text.strip_prefix("error: ").unwrap_or(&text)))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command is listed exactly once, under a heading, with its description.
    #[test]
    fn the_help_lists_every_command_in_a_group() {
        let help = command::<crate::Cli>().render_help().to_string();
        let root = crate::Cli::command();
        assert!(root.get_subcommands().count() > 15, "{help}"); // not vacuously true
        for c in root.get_subcommands() {
            let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
            let listed: Vec<&str> = help
                .lines()
                .filter(|l| {
                    l.strip_prefix("  ")
                        .and_then(|l| l.strip_prefix(c.get_name()))
                        .is_some_and(|r| r.starts_with(' '))
                })
                .collect();
            assert_eq!(listed.len(), 1, "{}: {help}", c.get_name());
            assert!(listed[0].ends_with(&about), "{}: {help}", c.get_name());
        }
        for (heading, _) in GROUPS {
            assert!(help.contains(&format!("\n{heading}:\n")), "{heading}: {help}");
        }
        assert!(help.contains("Options:\n  -v, --verbose"), "{help}");
    }

    fn usage(args: &[&str]) -> Option<String> {
        let e = command::<crate::Cli>().try_get_matches_from(args).err()?;
        usage_error(&e)
    }

    /// clap's usage errors read like the commands' own; help and version are no errors.
    #[test]
    fn usage_errors_read_like_the_others() {
        let e = usage(&["oxello", "play", "--level", "x"]).expect("an error");
        assert!(e.starts_with("oxello: invalid value 'x' for '--level <LEVEL>': "), "{e}");
        let e = usage(&["oxello", "gtp", "--level", "61"]).expect("an error");
        assert!(
            e.starts_with("oxello: invalid value '61' for '--level <LEVEL>': 61 is not in 0..=60"),
            "{e}"
        );
        let e = usage(&["oxello", "solve", "--wdl", "x.obf"]).expect("an error");
        assert!(e.starts_with("oxello: unexpected argument '--wdl' found"), "{e}");
        assert!(e.contains("Usage: oxello solve"), "{e}");
        assert!(!e.contains('\x1b'), "{e:?}");
        assert_eq!(usage(&["oxello", "--help"]), None);
        assert_eq!(usage(&["oxello", "--version"]), None);
        assert_eq!(usage(&["oxello", "book"]), None); // help for a group without its command
        assert!(usage(&["oxello", "play", "--level", "60"]).is_none());
    }
}
