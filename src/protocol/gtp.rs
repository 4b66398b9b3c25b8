//! GTP for Othello (PROTOCOLS.md §4): commands, and the `=id text` / `?id message` framing.
//!
//! Coordinates are Othello's: a1 is the top-left corner, rows grow downwards.

use super::{integer_text, token, whole, whole_int};
use crate::board::{Color, Square};
use crate::ggf::parse_number;
use nom::character::complete::space1;

/// Every command we answer, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_game",
    "list_games",
    "set_level",
    "oxello-risk",
    "oxello-ponder",
    "oxello-clock",
    "kgs-time_settings",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

#[derive(Clone, PartialEq, Debug)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(u32),
    ClearBoard,
    Komi(f64),
    Play(Color, Square),
    GenMove(Color),
    /// Like genmove, but the move is not played.
    RegGenMove(Color),
    Undo,
    ShowBoard,
    FinalScore,
    /// Main time and Canadian byo-yomi, in seconds; `byo_stones == 0` means no byo-yomi.
    TimeSettings {
        main: f64,
        byo_time: f64,
        byo_stones: u32,
    },
    TimeLeft {
        colour: Color,
        seconds: f64,
        stones: u32,
    },
    SetGame(String),
    ListGames,
    /// Search level (neural-reversi's `set_level`): our midgame depth.
    SetLevel(u32),
    /// `oxello-risk <c>`: the risk-aware search style at confidence c percent (1-99); 0 or
    /// `off`: the ordinary search.
    Risk(Option<u32>),
    /// `oxello-ponder on|off`: think on the opponent's time.
    Ponder(bool),
    /// `oxello-clock`: how the next move of the side to move would be timed (the clock left,
    /// and whether the clock or the level decides), for a controller's log or a test.
    Clock,
    RulesGameId,
    RulesBoardSize,
    RulesBoard,
    RulesLegalMoves,
    RulesSideToMove,
    RulesFinalResult,
}

impl Command {
    /// GTP is synchronous, so only `quit` needs to stop a running genmove; pipelined commands
    /// (a controller may send the next one early) wait their turn.
    pub fn interrupts(&self) -> bool {
        matches!(self, Command::Quit)
    }
}

/// A command with the id to echo.
#[derive(Clone, PartialEq, Debug)]
pub struct Request {
    pub id: Option<String>,
    pub command: Command,
}

/// A line that could not be parsed: the reply is `?id message`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    pub id: Option<String>,
    pub message: String,
}

/// GTP preprocessing: drop control characters except tab (which becomes a space) and cut
/// `#` comments.
fn clean(line: &str) -> String {
    let no_comment = line.split('#').next().unwrap_or("");
    no_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// `b`, `black`, `w`, `white` in any case.
pub fn parse_colour(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// A vertex `a1`..`h8` (any case) or `pass`.
pub fn parse_vertex(s: &str) -> Option<Square> {
    Square::parse(s).ok()
}

/// Parses one line. `Ok(None)` for blank and comment-only lines, which get no reply.
pub fn parse(line: &str) -> Result<Option<Request>, ParseError> {
    let cleaned = clean(line);
    let text = cleaned.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let (text, id) = match integer_text(text) {
        Ok((rest, id)) if !id.starts_with(['+', '-']) && (rest.is_empty() || rest.starts_with(' ')) => {
            (rest.trim_start(), Some(id))
        }
        _ => (text, None),
    };
    let fail = |message: &str| ParseError {
        id: id.map(str::to_string),
        message: message.to_string(),
    };
    let Ok((args, word)) = token(text) else {
        return Err(fail("missing command"));
    };
    let args = args.trim();
    let colour = |a: &str| {
        whole(a, token)
            .and_then(parse_colour)
            .ok_or_else(|| fail("syntax error (expected a colour)"))
    };
    let number = |a: &str| parse_number(a).ok_or_else(|| fail("syntax error (expected a number)"));
    let int = |a: &str| whole_int::<u32>(a).ok_or_else(|| fail("syntax error (expected an integer)"));
    let command = match word.to_ascii_lowercase().as_str() {
        "protocol_version" => Command::ProtocolVersion,
        "name" => Command::Name,
        "version" => Command::Version,
        "known_command" => Command::KnownCommand(
            whole(args, token)
                .ok_or_else(|| fail("syntax error (expected a command name)"))?
                .to_string(),
        ),
        "list_commands" => Command::ListCommands,
        "quit" => Command::Quit,
        "boardsize" => Command::BoardSize(int(args)?),
        "clear_board" => Command::ClearBoard,
        "komi" => Command::Komi(number(args)?),
        "play" => {
            let (c, v) = whole(args, (token, space1, token))
                .map(|(c, _, v)| (c, v))
                .ok_or_else(|| fail("syntax error (expected a colour and a vertex)"))?;
            let c = parse_colour(c).ok_or_else(|| fail("syntax error (wrong or missing color)"))?;
            let v = parse_vertex(v).ok_or_else(|| fail("syntax error (bad vertex)"))?;
            Command::Play(c, v)
        }
        "genmove" => Command::GenMove(colour(args)?),
        "reg_genmove" => Command::RegGenMove(colour(args)?),
        "undo" => Command::Undo,
        "showboard" => Command::ShowBoard,
        "final_score" => Command::FinalScore,
        "time_settings" => {
            let (m, _, t, _, s) = whole(args, (token, space1, token, space1, token))
                .ok_or_else(|| fail("syntax error (expected main_time byo_yomi_time byo_yomi_stones)"))?;
            Command::TimeSettings {
                main: number(m)?,
                byo_time: number(t)?,
                byo_stones: int(s)?,
            }
        }
        "time_left" => {
            let (c, _, t, _, s) = whole(args, (token, space1, token, space1, token))
                .ok_or_else(|| fail("syntax error (expected colour time stones)"))?;
            Command::TimeLeft {
                colour: colour(c)?,
                seconds: number(t)?,
                stones: int(s)?,
            }
        }
        "set_game" => Command::SetGame(args.to_string()),
        "list_games" => Command::ListGames,
        "set_level" => Command::SetLevel(int(args)?),
        "oxello-clock" => Command::Clock,
        "oxello-ponder" => match args.trim().to_ascii_lowercase().as_str() {
            "on" | "1" | "true" => Command::Ponder(true),
            "off" | "0" | "false" => Command::Ponder(false),
            _ => return Err(fail("syntax error (expected on or off)")),
        },
        // KGS's clock kinds as GTP time settings: Japanese byo-yomi (each period one move) as
        // Canadian periods of one stone, which is what it means for the next move.
        "kgs-time_settings" => {
            let words: Vec<&str> = args.split_whitespace().collect();
            let (main, byo_time, byo_stones) = match words.as_slice() {
                ["none"] => (0.0, 1.0, 0),
                ["absolute", m] => (number(m)?, 0.0, 0),
                ["byoyomi", m, t, periods] => {
                    int(periods)?;
                    (number(m)?, number(t)?, 1)
                }
                ["canadian", m, t, s] => (number(m)?, number(t)?, int(s)?),
                _ => {
                    return Err(fail(
                        "syntax error (expected none, absolute M, byoyomi M T P or canadian M T S)",
                    ));
                }
            };
            Command::TimeSettings {
                main,
                byo_time,
                byo_stones,
            }
        }
        "oxello-risk" => Command::Risk(
            super::risk_confidence(args)
                .ok_or_else(|| fail("syntax error (expected a confidence in percent 1-99, or 0 or off)"))?,
        ),
        "gogui-rules_game_id" => Command::RulesGameId,
        "gogui-rules_board_size" => Command::RulesBoardSize,
        "gogui-rules_board" => Command::RulesBoard,
        "gogui-rules_legal_moves" => Command::RulesLegalMoves,
        "gogui-rules_side_to_move" => Command::RulesSideToMove,
        "gogui-rules_final_result" => Command::RulesFinalResult,
        _ => return Err(fail("unknown command")),
    };
    Ok(Some(Request {
        id: id.map(str::to_string),
        command,
    }))
}

/// Formats a response: `=id text\n\n` on success, `?id message\n\n` on failure. An empty text
/// gives `=id` alone; a text starting with a newline (a board) follows the `=` directly.
pub fn format_response(id: Option<&str>, result: Result<&str, &str>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t),
        Err(t) => ('?', t),
    };
    let id = id.unwrap_or("");
    let text = text.trim_end();
    if text.is_empty() || text.starts_with('\n') {
        format!("{mark}{id}{text}\n\n")
    } else {
        format!("{mark}{id} {text}\n\n")
    }
}

/// Lowercase vertex for replies: `d3`, `pass`.
pub fn format_vertex(mv: Square) -> String {
    match mv {
        Square::Pass => "pass".to_string(),
        Square::At(_) => mv.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Command {
        match parse(line) {
            Ok(Some(r)) => r.command,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("test square")
    }

    #[test]
    fn ids_blank_lines_and_comments() {
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   # just a comment"), Ok(None));
        assert_eq!(
            parse("12 name # trailing comment"),
            Ok(Some(Request {
                id: Some("12".into()),
                command: Command::Name
            }))
        );
        assert_eq!(
            parse("name\r"),
            Ok(Some(Request {
                id: None,
                command: Command::Name
            }))
        );
        assert_eq!(
            parse("\tname"),
            Ok(Some(Request {
                id: None,
                command: Command::Name
            }))
        );
        assert_eq!(
            parse("7 frob"),
            Err(ParseError {
                id: Some("7".into()),
                message: "unknown command".into()
            })
        );
        assert_eq!(
            parse("7"),
            Err(ParseError {
                id: Some("7".into()),
                message: "missing command".into()
            })
        );
        // A command word that starts with digits is not an id.
        assert_eq!(parse("3x").map_err(|e| e.id), Err(None));
    }

    #[test]
    fn play_any_case_and_pass() {
        assert_eq!(cmd("play b d3"), Command::Play(Color::Black, sq("d3")));
        assert_eq!(cmd("play B D3"), Command::Play(Color::Black, sq("d3")));
        assert_eq!(cmd("play WHITE c5"), Command::Play(Color::White, sq("c5")));
        assert_eq!(cmd("play w pass"), Command::Play(Color::White, Square::Pass));
        assert_eq!(cmd("PLAY w PASS"), Command::Play(Color::White, Square::Pass));
        for bad in [
            "play",
            "play b",
            "play x d3",
            "play b z9",
            "play b d3 e4",
            "genmove",
            "genmove q",
        ] {
            assert!(matches!(parse(bad), Err(ParseError { .. })), "{bad}");
        }
    }

    #[test]
    fn all_recommended_commands_parse() {
        assert_eq!(cmd("protocol_version"), Command::ProtocolVersion);
        assert_eq!(cmd("known_command play"), Command::KnownCommand("play".into()));
        assert_eq!(cmd("boardsize 8"), Command::BoardSize(8));
        assert_eq!(cmd("komi 0.5"), Command::Komi(0.5));
        assert_eq!(cmd("genmove white"), Command::GenMove(Color::White));
        assert_eq!(cmd("reg_genmove b"), Command::RegGenMove(Color::Black));
        assert_eq!(
            cmd("time_settings 300 0 0"),
            Command::TimeSettings {
                main: 300.0,
                byo_time: 0.0,
                byo_stones: 0
            }
        );
        assert_eq!(
            cmd("time_left b 12.5 0"),
            Command::TimeLeft {
                colour: Color::Black,
                seconds: 12.5,
                stones: 0
            }
        );
        assert_eq!(cmd("set_game Othello"), Command::SetGame("Othello".into()));
        assert_eq!(cmd("set_level 10"), Command::SetLevel(10));
        for name in COMMANDS {
            // Known (even when arguments are missing).
            assert_ne!(
                parse(name).err().map(|e| e.message),
                Some("unknown command".to_string()),
                "{name}"
            );
        }
        for bad in [
            "boardsize",
            "boardsize x",
            "komi x",
            "time_settings 1 2",
            "time_left x 1 0",
            "set_level -1",
            "known_command",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn interrupts_only_on_quit() {
        assert!(cmd("quit").interrupts());
        assert!(!cmd("genmove b").interrupts());
    }

    #[test]
    fn framing() {
        assert_eq!(format_response(None, Ok("2")), "= 2\n\n");
        assert_eq!(format_response(Some("5"), Ok("")), "=5\n\n");
        assert_eq!(format_response(Some("5"), Err("illegal move")), "?5 illegal move\n\n");
        assert_eq!(format_response(None, Ok("\n  a b\n1 X\n")), "=\n  a b\n1 X\n\n");
        assert_eq!(format_vertex(sq("d3")), "d3");
        assert_eq!(format_vertex(Square::Pass), "pass");
    }
}
