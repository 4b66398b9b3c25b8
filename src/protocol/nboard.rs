//! The NBoard protocol (version 2, PROTOCOLS.md §1): commands from the GUI and our replies.

use super::{fixed, token, whole, whole_int};
use crate::base::SearchDepth;
use crate::board::Square;
use crate::game::Ply;
use crate::ggf::{GgfGame, parse_ply};
use crate::search::dist::Odds;
use nom::Parser;
use nom::character::complete::space0;
use std::fmt;

/// A command from the GUI.
#[derive(Clone, Debug)]
pub enum Command {
    /// `nboard <version>`: the handshake (the GUI sends 2).
    Nboard(u32),
    /// `set depth <n>`: maximum midgame depth.
    SetDepth(u32),
    /// `set game <GGF>`: replace the game with the position at the end of this one.
    SetGame(Box<GgfGame>),
    /// `set contempt <n>`: draw value in centidiscs from Black's point of view.
    SetContempt(i32),
    /// `set risk <c>`: the risk-aware search style at confidence c percent (1-99); 0 or
    /// `off`: the ordinary search (an oxello extension).
    SetRisk(Option<u32>),
    /// `set ponder on|off`: think on the opponent's time (an oxello extension).
    SetPonder(bool),
    /// `move <mv>[/<eval>[/<time>]]` (slashes or spaces): play it.
    Move(Ply),
    /// `hint <n>`: stream evaluations of the best `n` moves.
    Hint(u32),
    /// `go`: choose a move (do not play it).
    Go,
    /// `ping <n>`: stop searching, then answer `pong <n>` with the same text.
    Ping(String),
    Learn,
    Analyze,
    Quit,
    /// Blank lines, unknown commands and harmless ones (`new`, `clear`, `set myname`, ...).
    /// Keeps the command word for logging.
    Ignored(String),
}

impl Command {
    /// Whether this command must stop a running search when it arrives. Settings do not: the
    /// GUI always follows them with `ping`, which does.
    pub fn interrupts(&self) -> bool {
        !matches!(
            self,
            Command::SetDepth(_) | Command::SetContempt(_) | Command::SetRisk(_) | Command::SetPonder(_) | Command::Ignored(_)
        )
    }
}

/// A known command with bad arguments. Its text goes to the GUI as a `status` line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// Parses one line from the GUI.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let Ok((rest, word)) = token(line) else {
        return Ok(Command::Ignored(String::new()));
    };
    let args = rest.trim();
    let err = |what: &str| Err(ParseError(format!("cannot parse '{line}': {what}")));
    match word.to_ascii_lowercase().as_str() {
        "nboard" => match whole_int(args) {
            Some(v) => Ok(Command::Nboard(v)),
            None => err("expected a protocol version"),
        },
        "set" => parse_set(line, args),
        "move" => {
            // Some tools forward `=== d6 -1.00 0.0` verbatim, with spaces for slashes.
            let item = args.split_whitespace().collect::<Vec<_>>().join("/");
            parse_ply(&item).map(Command::Move).or_else(|e| err(&e))
        }
        "hint" => match whole_int(args) {
            Some(n) if n > 0 => Ok(Command::Hint(n)),
            _ => err("expected a positive number of moves"),
        },
        "ping" => match whole(args, super::integer_text) {
            Some(n) => Ok(Command::Ping(n.to_string())),
            None => err("expected a number"),
        },
        "go" => Ok(Command::Go),
        "learn" => Ok(Command::Learn),
        "analyze" => Ok(Command::Analyze),
        "quit" => Ok(Command::Quit),
        other => Ok(Command::Ignored(other.to_string())),
    }
}

/// `set depth|game|contempt|risk|myname ...`; unknown variables are ignored.
fn parse_set(line: &str, args: &str) -> Result<Command, ParseError> {
    let err = |what: &str| Err(ParseError(format!("cannot parse '{line}': {what}")));
    let Ok((value, (name, _))) = (token, space0).parse(args) else {
        return err("expected a variable name");
    };
    match name.to_ascii_lowercase().as_str() {
        "depth" => match whole_int(value) {
            Some(d) => Ok(Command::SetDepth(d)),
            None => err("expected a depth"),
        },
        "contempt" => match whole_int(value) {
            Some(c) => Ok(Command::SetContempt(c)),
            None => err("expected a contempt in centidiscs"),
        },
        "risk" => match super::risk_confidence(value) {
            Some(c) => Ok(Command::SetRisk(c)),
            None => err("expected a confidence in percent (1-99), or 0 or off"),
        },
        "ponder" => match value.trim().to_ascii_lowercase().as_str() {
            "on" | "1" | "true" => Ok(Command::SetPonder(true)),
            "off" | "0" | "false" => Ok(Command::SetPonder(false)),
            _ => err("expected on or off"),
        },
        "game" => match GgfGame::parse(value) {
            Ok(g) => Ok(Command::SetGame(Box::new(g))),
            Err(e) => err(&e.to_string()),
        },
        other => Ok(Command::Ignored(format!("set {other}"))),
    }
}

/// A move as NBoard writes it: `F5`, `PA`.
pub fn format_move(mv: Square) -> String {
    match mv {
        Square::Pass => "PA".to_string(),
        Square::At(_) => mv.to_string().to_uppercase(),
    }
}

/// A principal variation: `F5-D6-C3`, passes as `PA`.
pub fn format_pv(pv: &[Square]) -> String {
    pv.iter().map(|&m| format_move(m)).collect::<Vec<_>>().join("-")
}

/// A line to the GUI.
#[derive(Clone, PartialEq, Debug)]
pub enum Reply {
    /// `set myname <name>`: one word.
    MyName(String),
    /// `pong <n>`, echoing the ping's text.
    Pong(String),
    /// `status <text>`; empty text clears the status.
    Status(String),
    /// `=== <mv>[/<eval>[/<time>]]`: our move for `go`. Eval in discs, time in seconds.
    Move(Ply),
    /// `search|book <pv> <eval> <games> <depth> [win W% draw D%]`: one hint, eval and odds
    /// from the mover's view (the odds in the free text the protocol allows after the depth).
    Hint {
        book: bool,
        pv: Vec<Square>,
        eval: f64,
        games: u32,
        depth: SearchDepth,
        odds: Option<Odds>,
    },
    /// `nodestats <nodes> <seconds>` since the start of the current search.
    NodeStats { nodes: u64, seconds: f64 },
    /// `analysis <moves made> <eval>` for `analyze`, eval from the mover's view.
    Analysis { moves_made: usize, eval: f64 },
    /// `learned`
    Learned,
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::MyName(name) => write!(f, "set myname {}", name.split_whitespace().next().unwrap_or("oxello")),
            Reply::Pong(n) => write!(f, "pong {n}"),
            Reply::Status(text) if text.is_empty() => f.write_str("status"),
            Reply::Status(text) => write!(f, "status {}", text.replace(['\n', '\r'], " ")),
            Reply::Move(ply) => {
                write!(f, "=== {}", format_move(ply.mv))?;
                match (ply.eval, ply.time) {
                    (None, None) => Ok(()),
                    (eval, None) => write!(f, "/{}", eval.map(|e| fixed(e, 2)).unwrap_or_default()),
                    (eval, Some(t)) => write!(f, "/{}/{}", eval.map(|e| fixed(e, 2)).unwrap_or_default(), fixed(t, 3)),
                }
            }
            Reply::Hint {
                book,
                pv,
                eval,
                games,
                depth,
                odds,
            } => {
                let kind = if *book { "book" } else { "search" };
                let pv = if pv.is_empty() { "PA".to_string() } else { format_pv(pv) };
                write!(f, "{kind} {pv} {} {games} {depth}", fixed(*eval, 2))?;
                match odds {
                    Some(o) => write!(f, " {o}"),
                    None => Ok(()),
                }
            }
            Reply::NodeStats { nodes, seconds } => write!(f, "nodestats {nodes} {}", fixed(*seconds, 3)),
            Reply::Analysis { moves_made, eval } => write!(f, "analysis {moves_made} {}", fixed(*eval, 2)),
            Reply::Learned => f.write_str("learned"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("test square")
    }

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    #[test]
    fn handshake_and_settings() {
        assert!(matches!(ok("nboard 2"), Command::Nboard(2)));
        assert!(matches!(ok("set depth 12"), Command::SetDepth(12)));
        assert!(matches!(ok("  set   depth  60 "), Command::SetDepth(60)));
        assert!(matches!(ok("set contempt -100"), Command::SetContempt(-100)));
        assert!(matches!(ok("set contempt 100"), Command::SetContempt(100)));
        assert!(matches!(ok("set risk 95"), Command::SetRisk(Some(95))));
        assert!(matches!(ok("set risk off"), Command::SetRisk(None)));
        assert!(parse("set risk 100").is_err());
        assert!(matches!(ok("set ponder on"), Command::SetPonder(true)));
        assert!(matches!(ok("set ponder 0"), Command::SetPonder(false)));
        assert!(parse("set ponder maybe").is_err());
        assert!(matches!(ok("set myname Fred"), Command::Ignored(_)));
        assert!(matches!(ok("set colour blue"), Command::Ignored(_)));
    }

    #[test]
    fn set_game_keeps_the_ggf() {
        let line = "set game (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[chris]PW[MyEngine]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.449];)";
        let Command::SetGame(g) = ok(line) else {
            panic!("not a set game")
        };
        assert_eq!(g.game.moves_since_start(), 1);
        assert_eq!(g.black_name.as_deref(), Some("chris"));
    }

    #[test]
    fn moves_with_slashes_or_spaces() {
        let m = |line: &str| match ok(line) {
            Command::Move(p) => p,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(m("move F5"), Ply::bare(sq("f5")));
        assert_eq!(
            m("move f5//1.2"),
            Ply {
                mv: sq("f5"),
                eval: None,
                time: Some(1.2)
            }
        );
        assert_eq!(
            m("move D6/-1.00"),
            Ply {
                mv: sq("d6"),
                eval: Some(-1.0),
                time: None
            }
        );
        assert_eq!(
            m("move PA//3.107"),
            Ply {
                mv: Square::Pass,
                eval: None,
                time: Some(3.107)
            }
        );
        assert_eq!(
            m("move d6 -1.00 0.0"),
            Ply {
                mv: sq("d6"),
                eval: Some(-1.0),
                time: Some(0.0)
            }
        );
        assert_eq!(
            m("move c4/0.5/2.7680000000000002"),
            Ply {
                mv: sq("c4"),
                eval: Some(0.5),
                time: Some(2.7680000000000002)
            }
        );
        assert_eq!(m("move c4//1.0E-4").time, Some(0.0001));
    }

    #[test]
    fn requests() {
        assert!(matches!(ok("hint 4"), Command::Hint(4)));
        assert!(matches!(ok("go"), Command::Go));
        assert!(matches!(ok("learn"), Command::Learn));
        assert!(matches!(ok("analyze"), Command::Analyze));
        assert!(matches!(ok("quit"), Command::Quit));
        let big = "ping 123456789012345678901234567890";
        assert!(matches!(ok(big), Command::Ping(n) if n == "123456789012345678901234567890"));
        assert!(matches!(ok("ping 007"), Command::Ping(n) if n == "007"));
    }

    #[test]
    fn ignored_and_malformed() {
        for line in [
            "",
            "   ",
            "new",
            "clear",
            "remove_tree",
            "draw_tree",
            "frobnicate 3",
            "===",
            "Debug: hello",
        ] {
            assert!(matches!(ok(line), Command::Ignored(_)), "{line}");
        }
        for line in [
            "nboard",
            "nboard two",
            "set",
            "set depth",
            "set depth -3",
            "set depth 1 2",
            "set contempt x",
            "set game",
            "set game (;GM[Othello]B[a1];)",
            "set game (;GM[Othello",
            "move",
            "move z9",
            "move f5/x",
            "move f5/1/2/3",
            "hint",
            "hint 0",
            "hint x",
            "ping",
            "ping x",
            "ping 1 2",
        ] {
            let e = parse(line).expect_err(line);
            assert!(e.0.starts_with(&format!("cannot parse '{line}'")), "{e}");
        }
        assert_eq!(
            parse("set game (;B[a1];)").expect_err("illegal").to_string(),
            "cannot parse 'set game (;B[a1];)': GGF ply 1 B[a1]: illegal move A1 at ply 1"
        );
    }

    #[test]
    fn interrupting_commands() {
        assert!(ok("ping 1").interrupts());
        assert!(ok("quit").interrupts());
        assert!(ok("move f5").interrupts());
        assert!(ok("go").interrupts());
        assert!(!ok("set depth 3").interrupts());
        assert!(!ok("new").interrupts());
    }

    #[test]
    fn reply_lines() {
        let r = |reply: Reply| reply.to_string();
        assert_eq!(r(Reply::MyName("oxello".into())), "set myname oxello");
        assert_eq!(r(Reply::Pong("42".into())), "pong 42");
        assert_eq!(r(Reply::Status(String::new())), "status");
        assert_eq!(r(Reply::Status("two\nlines".into())), "status two lines");
        assert_eq!(
            r(Reply::Move(Ply {
                mv: sq("f5"),
                eval: Some(1.5),
                time: Some(0.1234)
            })),
            "=== F5/1.50/0.123"
        );
        assert_eq!(
            r(Reply::Move(Ply {
                mv: sq("f5"),
                eval: Some(-0.001),
                time: Some(1e-9)
            })),
            "=== F5/0.00/0.000"
        );
        assert_eq!(
            r(Reply::Move(Ply {
                mv: sq("f5"),
                eval: None,
                time: Some(2.0)
            })),
            "=== F5//2.000"
        );
        assert_eq!(r(Reply::Move(Ply::bare(Square::Pass))), "=== PA");
        let hint = Reply::Hint {
            book: false,
            pv: vec![sq("d6"), sq("c3"), Square::Pass, sq("c4")],
            eval: 0.5,
            games: 0,
            depth: SearchDepth::Plies(10),
            odds: None,
        };
        assert_eq!(r(hint), "search D6-C3-PA-C4 0.50 0 10");
        // The risk-aware style's chances go in the free text after the depth.
        let hint = Reply::Hint {
            book: false,
            pv: vec![sq("d6")],
            eval: 0.5,
            games: 0,
            depth: SearchDepth::Plies(10),
            odds: Some(Odds { win: 0.625, draw: 0.01 }),
        };
        assert_eq!(r(hint), "search D6 0.50 0 10 win 62.5% draw 1.0%");
        let book = Reply::Hint {
            book: true,
            pv: vec![],
            eval: -2.0,
            games: 12,
            depth: SearchDepth::Exact,
            odds: None,
        };
        assert_eq!(r(book), "book PA -2.00 12 100%");
        assert_eq!(
            r(Reply::NodeStats {
                nodes: 35805,
                seconds: 0.05
            }),
            "nodestats 35805 0.050"
        );
        assert_eq!(
            r(Reply::Analysis {
                moves_made: 61,
                eval: -3.0
            }),
            "analysis 61 -3.00"
        );
        assert_eq!(r(Reply::Learned), "learned");
    }
}
