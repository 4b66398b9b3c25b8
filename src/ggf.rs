//! GGF (Generic Game Format) games as NBoard and GGS write them: reader and writer.
//!
//! Grammar (PROTOCOLS.md §2): `[1|2] (; {NAME[value]} ;)`. Every standard tag is read; unknown
//! tags are skipped (NBoard's own reader would throw, but other writers add tags). Every
//! `B`/`W` item is replayed in order on the `BO` position, passes included, and validated, so
//! the side to move at the end is right (pitfall 6.1).

use crate::board::{Color, Position, Square};
use crate::game::{Clock, Game, GameError, Ply};
use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{multispace0, one_of};
use nom::combinator::opt;
use std::fmt;
use std::fmt::Write as _;

/// How a finished game ended (`RE[score[:r|:t|:s]]`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameEnd {
    Normal,
    Resigned,
    Timeout,
    /// Score agreed by both players.
    Agreed,
}

/// The `RE` tag.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum GgfResult {
    /// `?`, or adjourned/aborted: no score.
    Unfinished,
    Score {
        black_minus_white: f64,
        end: GameEnd,
    },
}

/// A GGF game: the header tags and the game record (start position from `BO`, plies from
/// `B`/`W`, clocks from `TI`/`TB`/`TW`).
#[derive(Clone, Debug, Default)]
pub struct GgfGame {
    /// The GGS match-count prefix (`1` or `2`), if present.
    pub match_count: Option<u8>,
    pub place: Option<String>,
    pub date: Option<String>,
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    pub black_rating: Option<f64>,
    pub white_rating: Option<f64>,
    /// `TY`, kept verbatim (only plain 8x8 games are accepted).
    pub match_type: Option<String>,
    pub result: Option<GgfResult>,
    /// `KB`, `KW`, `KM` verbatim (komi games only; we play no komi).
    pub komi_black: Option<String>,
    pub komi_white: Option<String>,
    pub komi_value: Option<String>,
    pub comment: Option<String>,
    pub game: Game,
}

/// Why a GGF text was rejected.
#[derive(Clone, PartialEq, Debug)]
pub enum GgfError {
    /// The text does not follow the grammar; `offset` is a byte offset into it.
    Syntax { offset: usize, expected: &'static str },
    /// A tag's value cannot be understood.
    BadValue { tag: String, value: String, reason: String },
    /// A move item cannot be read or is not legal; `ply` counts from 1 at `BO`.
    Ply { ply: usize, item: String, reason: String },
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgfError::Syntax { offset, expected } => write!(f, "GGF syntax: expected {expected} at offset {offset}"),
            GgfError::BadValue { tag, value, reason } => write!(f, "GGF {tag}[{value}]: {reason}"),
            GgfError::Ply { ply, item, reason } => write!(f, "GGF ply {ply} {item}: {reason}"),
        }
    }
}

impl std::error::Error for GgfError {}

/// Parses a number the way our sources write them: plain decimals, Java's long decimals and
/// exponents (`2.7680000000000002`, `1.0E-4`), and a decimal comma from comma locales (`0,50`).
pub fn parse_number(text: &str) -> Option<f64> {
    let t = text.trim();
    let v = if t.contains(',') && !t.contains('.') {
        t.replacen(',', ".", 1).parse::<f64>().ok()?
    } else {
        t.parse::<f64>().ok()?
    };
    v.is_finite().then_some(v)
}

/// Parses a move: `F5`/`f5`, any prefix of `PASS` (`PA`, `pass`), `--`.
pub fn parse_move(text: &str) -> Option<Square> {
    let t = text.trim().to_ascii_lowercase();
    if !t.is_empty() && "pass".starts_with(&t) {
        return Some(Square::Pass);
    }
    match Square::parse(&t) {
        Ok(Square::At(i)) => Some(Square::At(i)),
        Ok(Square::Pass) if t == "--" => Some(Square::Pass),
        _ => None,
    }
}

/// Parses a move-list item `mv[/eval[/time]]`; eval may be blank (`F5//2.4`).
pub fn parse_ply(text: &str) -> Result<Ply, String> {
    let mut parts = text.split('/');
    let mv_text = parts.next().unwrap_or("");
    let mv = parse_move(mv_text).ok_or_else(|| format!("bad move '{}'", mv_text.trim()))?;
    let number = |part: Option<&str>, what: &str| -> Result<Option<f64>, String> {
        match part.map(str::trim) {
            None | Some("") => Ok(None),
            Some(p) => parse_number(p).map(Some).ok_or_else(|| format!("bad {what} '{p}'")),
        }
    };
    let eval = number(parts.next(), "eval")?;
    let time = number(parts.next(), "time")?;
    if let Some(extra) = parts.next() {
        return Err(format!("unexpected '/{extra}' after the time"));
    }
    Ok(Ply { mv, eval, time })
}

/// Formats a ply as a GGF item: `F5`, `F5/1.5`, `F5//2.449`, `PA`. Numbers are written
/// exactly, without exponent (Rust's `Display` for f64 never uses one).
pub fn format_ply(ply: &Ply) -> String {
    let mut s = match ply.mv {
        Square::Pass => "PA".to_string(),
        Square::At(_) => ply.mv.to_string().to_uppercase(),
    };
    if ply.eval.is_some() || ply.time.is_some() {
        s.push('/');
        if let Some(e) = ply.eval {
            let _ = write!(s, "{e}");
        }
    }
    if let Some(t) = ply.time {
        let _ = write!(s, "/{t}");
    }
    s
}

/// Parses one time `[[d.]h:]m:s`, or plain seconds; an empty field is 0 (as `OsClock`).
fn parse_time(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() {
        return Some(0.0);
    }
    if !t.contains(':') {
        return parse_number(t).filter(|v| (0.0..=MAX_TIME).contains(v));
    }
    let fields: Vec<&str> = t.split(':').collect();
    if fields.len() > 3 {
        return None;
    }
    let int = |f: &str| -> Option<f64> {
        let f = f.trim();
        if f.is_empty() {
            Some(0.0)
        } else if f.bytes().all(|b| b.is_ascii_digit()) {
            f.parse::<u32>().ok().map(f64::from)
        } else {
            None
        }
    };
    // The first field may be `days.hours`, only when all three fields are present.
    let (first, rest) = fields.split_first()?;
    let mut total = match first.split_once('.') {
        Some((d, h)) if fields.len() == 3 => int(d)? * 24.0 + int(h)?,
        Some(_) => return None,
        None => int(first)?,
    };
    let (last, middle) = rest.split_last()?;
    for f in middle {
        total = total * 60.0 + int(f)?;
    }
    let secs = if last.trim().is_empty() {
        0.0
    } else {
        parse_number(last).filter(|v| *v >= 0.0)?
    };
    // Longer than any game (about three years): garbage, and it would not print back.
    Some(total * 60.0 + secs).filter(|&t| t <= MAX_TIME)
}

/// The longest time a clock field may hold, in seconds.
const MAX_TIME: f64 = 1e8;

/// Parses a clock `time[/increment[/grace]]`: `5:00`, `05:00//02:00`, `0//0`, `300`.
pub fn parse_clock(text: &str) -> Option<Clock> {
    let mut parts = text.split('/');
    let main = parse_time(parts.next().unwrap_or(""))?;
    let increment = match parts.next() {
        Some(p) => parse_time(p)?,
        None => 0.0,
    };
    let grace = match parts.next() {
        Some(p) => parse_time(p)?,
        None => Clock::DEFAULT_GRACE,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(Clock { main, increment, grace })
}

/// Writes whole seconds as `OsClock` does: `s`, `m:ss` or `h:mm:ss`.
fn format_time(seconds: f64) -> String {
    let s = seconds.max(0.0) as u64;
    match s {
        0..=60 => s.to_string(),
        61..=3600 => format!("{}:{:02}", s / 60, s % 60),
        _ => format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60),
    }
}

/// Formats a clock: `5:00`, `5:00/10`, `5:00//2:00` (grace written only when not 120 s).
pub fn format_clock(c: &Clock) -> String {
    let mut s = format_time(c.main);
    // Decided on the whole seconds written, so that a printed clock prints back the same.
    let whole = |t: f64| t.max(0.0) as u64;
    let default_grace = whole(c.grace) == whole(Clock::DEFAULT_GRACE);
    let increment = whole(c.increment) != 0;
    if increment || !default_grace {
        s.push('/');
        if increment {
            s.push_str(&format_time(c.increment));
        }
        if !default_grace {
            s.push('/');
            s.push_str(&format_time(c.grace));
        }
    }
    s
}

fn parse_result(text: &str) -> Option<GgfResult> {
    let t = text.trim();
    if t.starts_with('?') || t.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Some(GgfResult::Unfinished);
    }
    let (num, suffix) = match t.split_once(':') {
        Some((n, s)) => (n, Some(s.trim())),
        None => (t, None),
    };
    let black_minus_white = parse_number(num)?;
    let end = match suffix {
        None => GameEnd::Normal,
        Some("r") => GameEnd::Resigned,
        Some("t") => GameEnd::Timeout,
        Some("s") => GameEnd::Agreed,
        // `:l` = adjourned: no final score.
        Some("l") => return Some(GgfResult::Unfinished),
        Some(_) => return None,
    };
    Some(GgfResult::Score { black_minus_white, end })
}

/// NBoard writes the score as an integer when it is whole.
fn format_result(r: &GgfResult) -> String {
    match r {
        GgfResult::Unfinished => "?".to_string(),
        GgfResult::Score { black_minus_white, end } => {
            let mut s = if black_minus_white.fract() == 0.0 {
                format!("{}", *black_minus_white as i64)
            } else {
                format!("{black_minus_white}")
            };
            s.push_str(match end {
                GameEnd::Normal => "",
                GameEnd::Resigned => ":r",
                GameEnd::Timeout => ":t",
                GameEnd::Agreed => ":s",
            });
            s
        }
    }
}

/// Parses `BO[8 <64 squares, spaces allowed> <mover>]`.
fn parse_board(text: &str) -> Result<Position, String> {
    let t = text.trim_start();
    let size_len = t.find(char::is_whitespace).unwrap_or(t.len());
    let size = &t[..size_len];
    if size != "8" {
        return Err(format!("board size '{size}' is not supported (only 8)"));
    }
    let cells: Vec<char> = t[size_len..].chars().filter(|c| !c.is_whitespace()).collect();
    let Some((&mover, squares)) = cells.split_last() else {
        return Err("no squares".to_string());
    };
    if squares.len() != 64 {
        return Err(format!(
            "{} characters, expected 64 squares and the side to move",
            cells.len()
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, &c) in squares.iter().enumerate() {
        match c {
            '*' | 'x' | 'X' => black |= 1 << i,
            'O' | 'o' | '0' => white |= 1 << i,
            '-' | '.' | '_' => {}
            other => return Err(format!("bad square character '{other}'")),
        }
    }
    let to_move = match mover {
        '*' | 'x' | 'X' | 'B' | 'b' => Color::Black,
        'O' | 'o' | '0' | 'W' | 'w' => Color::White,
        other => return Err(format!("bad side to move '{other}'")),
    };
    Ok(Position::from_black_white(black, white, to_move))
}

/// `BO` value as NBoard writes it: 64 squares in one run, `*` black, `O` white.
fn format_board(pos: &Position) -> String {
    let (black, white) = pos.black_white();
    let squares: String = (0..64)
        .map(|i| match (black >> i & 1, white >> i & 1) {
            (1, _) => '*',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect();
    let mover = match pos.to_move {
        Color::Black => '*',
        Color::White => 'O',
    };
    format!("8 {squares} {mover}")
}

/// Checks `TY`: an 8x8 game; anti, octagonal and other sizes are refused.
fn check_match_type(text: &str) -> Result<(), String> {
    let t = text.trim();
    let t = t.strip_prefix('s').unwrap_or(t);
    let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
    if digits != "8" {
        return Err(format!("board type '{digits}' is not supported (only 8)"));
    }
    if t[digits.len()..].contains('a') {
        return Err("anti-Othello is not supported".to_string());
    }
    Ok(())
}

/// `[ws] [1|2] [ws] "(;"`
fn header(i: &str) -> IResult<&str, Option<char>> {
    let (i, (_, count, _, _)) = (multispace0, opt(one_of("12")), multispace0, tag("(;")).parse(i)?;
    Ok((i, count))
}

fn tag_name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric()).parse(i)
}

/// Reads a tag value up to the first unescaped `]`; `\]` and `\\` are escapes.
/// Returns the value and the rest after the `]`, or None if it is not terminated.
fn tag_value(i: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = i.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            ']' => return Some((out, &i[k + 1..])),
            '\\' => match chars.clone().next() {
                Some((_, n @ (']' | '\\'))) => {
                    out.push(n);
                    chars.next();
                }
                _ => out.push('\\'),
            },
            c => out.push(c),
        }
    }
    None
}

/// Escapes `\` and `]` for a tag value.
fn escape_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace(']', "\\]")
}

/// A GGF text split into its match count and its (name, unescaped value) tags, in order.
struct RawGame {
    match_count: Option<u8>,
    tags: Vec<(String, String)>,
}

/// Splits a GGF game into its tags, in order, with the match count.
fn tags(text: &str) -> Result<RawGame, GgfError> {
    let offset = |rest: &str| text.len() - rest.len();
    let (mut rest, count) = header(text).map_err(|_| GgfError::Syntax {
        offset: offset(text.trim_start()),
        expected: "'(;' (optionally after a match count 1 or 2)",
    })?;
    let mut tags = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(";)") {
            let trailing = after.trim();
            // A GGS synchro match (count 2) may be followed by its second game; we read the first.
            if !trailing.is_empty() && count != Some('2') {
                return Err(GgfError::Syntax {
                    offset: offset(after.trim_start()),
                    expected: "end of text after ';)'",
                });
            }
            break;
        }
        let (after_name, name) = tag_name(rest).map_err(|_| GgfError::Syntax {
            offset: offset(rest),
            expected: "a tag name or ';)'",
        })?;
        let Some(after_bracket) = after_name.strip_prefix('[') else {
            return Err(GgfError::Syntax {
                offset: offset(after_name),
                expected: "'['",
            });
        };
        let (value, after_value) = tag_value(after_bracket).ok_or(GgfError::Syntax {
            offset: offset(after_bracket),
            expected: "']' closing the tag value",
        })?;
        tags.push((name.to_string(), value));
        rest = after_value;
    }
    let match_count = count.and_then(|c| c.to_digit(10)).map(|d| d as u8);
    Ok(RawGame { match_count, tags })
}

impl GgfGame {
    /// A GGF record of `game` with empty header fields.
    pub fn new(game: Game) -> GgfGame {
        GgfGame {
            game,
            ..GgfGame::default()
        }
    }

    /// Reads one GGF game.
    pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
        let RawGame { match_count, tags } = tags(text)?;
        let mut g = GgfGame {
            match_count,
            ..GgfGame::default()
        };
        let mut start = Position::start();
        let (mut both, mut black_clock, mut white_clock) = (None, None, None);
        let mut items: Vec<(Color, String)> = Vec::new();
        for (name, value) in tags {
            let bad = |reason: String| GgfError::BadValue {
                tag: name.clone(),
                value: value.clone(),
                reason,
            };
            let clock = |v: &str| parse_clock(v).ok_or_else(|| bad("bad clock (expected [[d.]h:]m:s[/inc[/grace]])".into()));
            let rating = |v: &str| parse_number(v).ok_or_else(|| bad("bad rating".into()));
            match name.as_str() {
                "GM" if !value.trim().eq_ignore_ascii_case("othello") => return Err(bad("not an Othello game".into())),
                "GM" => {}
                "PC" => g.place = Some(value),
                "DT" => g.date = Some(value),
                "PB" => g.black_name = Some(value),
                "PW" => g.white_name = Some(value),
                "RB" => g.black_rating = Some(rating(&value)?),
                "RW" => g.white_rating = Some(rating(&value)?),
                "TI" => both = Some(clock(&value)?),
                "TB" => black_clock = Some(clock(&value)?),
                "TW" => white_clock = Some(clock(&value)?),
                "TY" => {
                    check_match_type(&value).map_err(bad)?;
                    g.match_type = Some(value);
                }
                "BO" => start = parse_board(&value).map_err(bad)?,
                "RE" => g.result = Some(parse_result(&value).ok_or_else(|| bad("bad result".into()))?),
                "B" => items.push((Color::Black, value)),
                "W" => items.push((Color::White, value)),
                "KB" => g.komi_black = Some(value),
                "KW" => g.komi_white = Some(value),
                "KM" => g.komi_value = Some(value),
                "CO" => g.comment = Some(value),
                _ => {} // unknown tags are ignored
            }
        }
        g.game = Game::new(start);
        g.game.set_clock(Color::Black, black_clock.or(both));
        g.game.set_clock(Color::White, white_clock.or(both));
        for (colour, text) in items {
            replay_item(&mut g.game, colour, &text)?;
        }
        Ok(g)
    }

    /// Writes the game in NBoard's tag order:
    /// `GM PC [DT] PB PW RE [RB] [RW] (TI | TB TW) TY BO [KB KW KM] [CO] {B|W} ;)`.
    pub fn write(&self) -> String {
        let mut s = String::from("(;GM[Othello]");
        let mut put = |name: &str, value: &str| {
            let _ = write!(s, "{name}[{}]", escape_value(value));
        };
        put("PC", self.place.as_deref().unwrap_or("oxello"));
        if let Some(d) = &self.date {
            put("DT", d);
        }
        put("PB", self.black_name.as_deref().unwrap_or(""));
        put("PW", self.white_name.as_deref().unwrap_or(""));
        put("RE", &format_result(&self.result.unwrap_or(GgfResult::Unfinished)));
        if let Some(r) = self.black_rating {
            put("RB", &r.to_string());
        }
        if let Some(r) = self.white_rating {
            put("RW", &r.to_string());
        }
        match (self.game.clock(Color::Black), self.game.clock(Color::White)) {
            // Compared as written: clocks that differ below a second print the same and must
            // print back the same (found by fuzzing: TB[0]TW[0] came back as TI[0]).
            (Some(b), Some(w)) if format_clock(&b) == format_clock(&w) => put("TI", &format_clock(&b)),
            (b, w) => {
                if let Some(b) = b {
                    put("TB", &format_clock(&b));
                }
                if let Some(w) = w {
                    put("TW", &format_clock(&w));
                }
            }
        }
        put("TY", self.match_type.as_deref().unwrap_or("8"));
        put("BO", &format_board(&self.game.start()));
        for (name, v) in [
            ("KB", &self.komi_black),
            ("KW", &self.komi_white),
            ("KM", &self.komi_value),
            ("CO", &self.comment),
        ] {
            if let Some(v) = v {
                put(name, v);
            }
        }
        for (ply, pos) in self.game.plies().iter().zip(self.game.positions()) {
            let name = match pos.to_move {
                Color::Black => "B",
                Color::White => "W",
            };
            put(name, &format_ply(ply));
        }
        s.push_str(";)");
        s
    }
}

/// Replays one `B`/`W` item. The colour letter must name the side to move; a source that
/// left out a forced pass gets it inserted.
fn replay_item(game: &mut Game, colour: Color, text: &str) -> Result<(), GgfError> {
    let letter = match colour {
        Color::Black => 'B',
        Color::White => 'W',
    };
    let item = format!("{letter}[{text}]");
    let err = |game: &Game, reason: String| GgfError::Ply {
        ply: game.moves_since_start() + 1,
        item: item.clone(),
        reason,
    };
    let ply = parse_ply(text).map_err(|r| err(game, r))?;
    let pos = game.position();
    let result = if pos.to_move == colour {
        game.play(ply).map(|_| ())
    } else if ply.mv != Square::Pass && pos.board.moves() == 0 {
        game.play_forcing_pass(ply).map(|_| ())
    } else {
        return Err(err(game, format!("{:?} is to move", pos.to_move)));
    };
    result.map_err(|e: GameError| err(game, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{format_position, parse_position};

    const NBOARD_EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2022-01-17 12:52:30 GMT]PB[d7urb]PW[Edax24]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//2.449]W[D6/0.00]B[C5//1.264]W[F4/1.00]B[D3//1.338];)";
    const GGS_EXAMPLE: &str = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]RB[2196.37]RW[2200.35]TI[05:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01];)";

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("test square")
    }

    #[test]
    fn reads_the_nboard_example() {
        let g = GgfGame::parse(NBOARD_EXAMPLE).expect("parses");
        assert_eq!(g.place.as_deref(), Some("NBoard"));
        assert_eq!(g.date.as_deref(), Some("2022-01-17 12:52:30 GMT"));
        assert_eq!(g.black_name.as_deref(), Some("d7urb"));
        assert_eq!(g.white_name.as_deref(), Some("Edax24"));
        assert_eq!(g.result, Some(GgfResult::Unfinished));
        assert_eq!(g.match_count, None);
        assert_eq!(g.game.start(), Position::start());
        let plies = g.game.plies();
        assert_eq!(plies.len(), 5);
        assert_eq!(
            plies[0],
            Ply {
                mv: sq("f5"),
                eval: None,
                time: Some(2.449)
            }
        );
        assert_eq!(
            plies[1],
            Ply {
                mv: sq("d6"),
                eval: Some(0.0),
                time: None
            }
        );
        assert_eq!(
            plies[3],
            Ply {
                mv: sq("f4"),
                eval: Some(1.0),
                time: None
            }
        );
        assert_eq!(g.game.position().to_move, Color::White);
        let clock = Clock {
            main: 300.0,
            increment: 0.0,
            grace: 120.0,
        };
        assert_eq!(g.game.clock(Color::Black), Some(clock));
        assert_eq!(g.game.clock(Color::White), Some(clock));
        assert_eq!(g.game.time_left(Color::Black), Some(300.0 - 2.449 - 1.264 - 1.338));
    }

    #[test]
    fn reads_the_ggs_example() {
        let g = GgfGame::parse(GGS_EXAMPLE).expect("parses");
        assert_eq!(g.match_count, Some(1));
        assert_eq!(g.black_rating, Some(2196.37));
        assert_eq!(g.white_rating, Some(2200.35));
        assert_eq!(
            g.result,
            Some(GgfResult::Score {
                black_minus_white: 0.0,
                end: GameEnd::Normal
            })
        );
        assert_eq!(
            g.game.clock(Color::Black),
            Some(Clock {
                main: 300.0,
                increment: 0.0,
                grace: 120.0
            })
        );
        assert_eq!(g.game.plies().len(), 2);
        assert_eq!(g.game.plies()[1].mv, sq("c5"));
        assert_eq!(g.game.plies()[1].time, Some(0.01));
    }

    #[test]
    fn writes_nboard_order_and_round_trips() {
        let g = GgfGame::parse(NBOARD_EXAMPLE).expect("parses");
        assert_eq!(
            g.write(),
            NBOARD_EXAMPLE.replace("D6/0.00", "D6/0").replace("F4/1.00", "F4/1")
        );
        let again = GgfGame::parse(&g.write()).expect("re-parses");
        assert_eq!(again.game.plies(), g.game.plies());
        assert_eq!(again.game.position(), g.game.position());
        let ggs = GgfGame::parse(GGS_EXAMPLE).expect("parses");
        let w = ggs.write();
        assert!(w.starts_with("(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]RE[0]RB[2196.37]RW[2200.35]TI[5:00]TY[8]BO[8 "), "{w}");
        assert!(w.ends_with("B[D3//0.01]W[C5//0.01];)"), "{w}");
    }

    #[test]
    fn passes_in_the_move_list_keep_the_side_to_move() {
        // White has no move (black a1, white b1, White to move); Black then plays c1.
        let board = format!("8 *O{} O", "-".repeat(62));
        let text = format!("(;GM[Othello]BO[{board}]W[PA]B[c1];)");
        let g = GgfGame::parse(&text).expect("parses");
        assert_eq!(g.game.moves_since_start(), 2);
        assert!(g.game.is_over());
        assert_eq!(g.game.final_score(), 64);
        // `pass`, `PASS`, `--` are passes too.
        for pass in ["pass", "PASS", "--", "Pa"] {
            let t = format!("(;GM[Othello]BO[{board}]W[{pass}/-3.5/1];)");
            let g = GgfGame::parse(&t).expect("parses");
            assert_eq!(
                g.game.plies()[0],
                Ply {
                    mv: Square::Pass,
                    eval: Some(-3.5),
                    time: Some(1.0)
                }
            );
            assert_eq!(g.game.position().to_move, Color::Black);
        }
        // A pass-free source: B[c1] while White is to move and must pass.
        let g = GgfGame::parse(&format!("(;GM[Othello]BO[{board}]B[c1];)")).expect("forced pass inserted");
        assert_eq!(g.game.moves_since_start(), 2);
        // But a pass where a move exists is an error naming the ply.
        let e = GgfGame::parse(&format!("{}W[PA];)", &NBOARD_EXAMPLE[..NBOARD_EXAMPLE.len() - 2])).expect_err("illegal pass");
        assert_eq!(
            e,
            GgfError::Ply {
                ply: 6,
                item: "W[PA]".into(),
                reason: "pass at ply 6 although a move is available".into()
            }
        );
    }

    #[test]
    fn board_variants() {
        let spaced = "(;GM[othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)";
        assert_eq!(GgfGame::parse(spaced).expect("parses").game.start(), Position::start());
        let alt = "(;BO[8 ___________________________0x______Xo___________________________ O];)";
        let start_white = parse_position(&format_position(&Position::start()).replace(" X", " O")).expect("valid");
        assert_eq!(GgfGame::parse(alt).expect("parses").game.start(), start_white);
        let dots = "(;BO[8 ...........................O*......*O........................... *];)";
        assert_eq!(GgfGame::parse(dots).expect("parses").game.start(), Position::start());
    }

    #[test]
    fn numbers_with_long_decimals_and_exponents() {
        let t = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5/2.7680000000000002/1e-3]W[d6//1.0E-4]B[c3/0,50];)";
        let g = GgfGame::parse(t).expect("parses");
        let p = g.game.plies();
        assert_eq!(
            p[0],
            Ply {
                mv: sq("f5"),
                eval: Some(2.7680000000000002),
                time: Some(0.001)
            }
        );
        assert_eq!(p[1].time, Some(0.0001));
        assert_eq!(p[2].eval, Some(0.5));
        // Written without exponents.
        assert!(g.write().contains("W[D6//0.0001]"), "{}", g.write());
    }

    #[test]
    fn fuzz_found_clocks_print_back_the_same() {
        // Found by `benches/fuzz.sh` (target ggf): a fraction of a second of increment printed
        // as `/0/`, which printed back as `//`.
        // And clocks that differ below a second: printed as TB[0]TW[0], they printed back as TI[0].
        for text in ["(;GM[Othello]TI[2/0.0000354/6];)", "(;GM[Othello]TB[0.4]TW[0];)"] {
            let printed = GgfGame::parse(text).expect("parses").write();
            assert_eq!(GgfGame::parse(&printed).expect("printed parses").write(), printed);
        }
    }

    #[test]
    fn clocks() {
        let c = |main, increment, grace| Some(Clock { main, increment, grace });
        assert_eq!(parse_clock("5:00"), c(300.0, 0.0, 120.0));
        assert_eq!(parse_clock("05:00//02:00"), c(300.0, 0.0, 120.0));
        assert_eq!(parse_clock("0//0"), c(0.0, 0.0, 0.0));
        assert_eq!(parse_clock("300"), c(300.0, 0.0, 120.0));
        // Found by fuzzing: an absurd grace parsed, then printed as hours that did not parse back.
        assert_eq!(parse_clock("5:00//2:0033333333333333333333"), None);
        assert_eq!(parse_clock("1e300"), None);
        assert_eq!(parse_clock("1:00:00/10/30"), c(3600.0, 10.0, 30.0));
        assert_eq!(parse_clock("1.02:00:00"), c(26.0 * 3600.0, 0.0, 120.0));
        assert_eq!(parse_clock("2:30.5"), c(150.5, 0.0, 120.0));
        assert_eq!(parse_clock("abc"), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
        assert_eq!(parse_clock("1.2:3"), None);
        assert_eq!(parse_clock("5:00/1/2/3"), None);
        assert_eq!(parse_clock("-5"), None);
        for text in ["5:00", "5:00/10", "5:00//1:30", "5:00/3/0", "1:00:05", "0//0", "45"] {
            let clock = parse_clock(text).expect("valid");
            assert_eq!(format_clock(&clock), text);
        }
        let mut g = GgfGame::new(Game::default());
        g.game.set_clock(Color::Black, c(60.0, 0.0, 120.0));
        g.game.set_clock(Color::White, c(120.0, 0.0, 120.0));
        assert!(g.write().contains("TB[60]TW[2:00]TY[8]"), "{}", g.write());
        let g = GgfGame::parse("(;TI[0//0]TB[1:00];)").expect("parses");
        assert_eq!(g.game.clock(Color::Black), c(60.0, 0.0, 120.0));
        assert_eq!(g.game.time_left(Color::White), None);
    }

    #[test]
    fn results() {
        let r = |t: &str| GgfGame::parse(&format!("(;RE[{t}];)")).map(|g| g.result);
        let score = |v: f64, end| {
            Ok(Some(GgfResult::Score {
                black_minus_white: v,
                end,
            }))
        };
        assert_eq!(r("-64.00:r"), score(-64.0, GameEnd::Resigned));
        assert_eq!(r("+12:t"), score(12.0, GameEnd::Timeout));
        assert_eq!(r("3.5:s"), score(3.5, GameEnd::Agreed));
        assert_eq!(r("?"), Ok(Some(GgfResult::Unfinished)));
        assert!(r("+1:q").is_err());
        let mut g = GgfGame::new(Game::default());
        g.result = Some(GgfResult::Score {
            black_minus_white: -64.0,
            end: GameEnd::Resigned,
        });
        assert!(g.write().contains("RE[-64:r]"));
    }

    #[test]
    fn tags_unknown_escaped_and_all_known() {
        let t = "2 (;GM[Othello]PC[x]XX[ignored \\] still]PB[a\\]b]PW[c\\\\d]CO[hi]KB[1]KW[2]KM[3]TY[s8r12]TB[1:00]TW[2:00]ZZ9[];) (;GM[Othello];)";
        let g = GgfGame::parse(t).expect("parses");
        assert_eq!(g.match_count, Some(2));
        assert_eq!(g.black_name.as_deref(), Some("a]b"));
        assert_eq!(g.white_name.as_deref(), Some("c\\d"));
        assert_eq!(g.comment.as_deref(), Some("hi"));
        assert_eq!(g.komi_value.as_deref(), Some("3"));
        assert_eq!(g.match_type.as_deref(), Some("s8r12"));
        let w = g.write();
        assert!(w.contains("PB[a\\]b]PW[c\\\\d]"), "{w}");
        assert_eq!(GgfGame::parse(&w).expect("re-parses").black_name.as_deref(), Some("a]b"));
        // Whitespace between tags is allowed.
        assert!(GgfGame::parse("  ( ;GM[Othello] ;)").is_err());
        assert!(GgfGame::parse("\n(; GM[Othello]\n B[f5] ;)\n").is_ok());
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let bad = [
            "",
            "(",
            "(;",
            "(;GM[Othello]",
            "(;GM[Othello",
            "(;GM[Go];)",
            "3 (;;)",
            "(;[x];)",
            "(;GM Othello;)",
            "(;;) trailing",
            "(;BO[8 ---];)",
            "(;BO[10 ---------------------------O*------*O--------------------------- *];)",
            "(;BO[8 ---------------------------O*------*O--------------------------- ?];)",
            "(;BO[8 --------------------------QO*------*O--------------------------- *];)",
            "(;BO[];)",
            "(;TI[5:xx];)",
            "(;TY[88];)",
            "(;TY[8a];)",
            "(;RB[high];)",
            "(;B[f5/x];)",
            "(;B[f5/1/2/3];)",
            "(;B[z9];)",
            "(;B[];)",
            "(;W[f5];)",
            "(;B[f5]B[f5];)",
            "(;B[a1];)",
            "(;B[f5/NaN];)",
            "(;B[f5//inf];)",
            "(;RE[];)",
            "(;GM[Othello]B[\u{e9}\u{e9}];)",
        ];
        for text in bad {
            assert!(GgfGame::parse(text).is_err(), "accepted {text:?}");
        }
        let e = GgfGame::parse("(;B[f5]W[f5];)").expect_err("illegal");
        assert_eq!(e.to_string(), "GGF ply 2 W[f5]: illegal move F5 at ply 2");
        let e = GgfGame::parse("(;GM[Othello").expect_err("unterminated");
        assert_eq!(e.to_string(), "GGF syntax: expected ']' closing the tag value at offset 5");
        // Arbitrary truncations and byte soup never panic.
        for cut in 0..NBOARD_EXAMPLE.len() {
            if NBOARD_EXAMPLE.is_char_boundary(cut) {
                let _ = GgfGame::parse(&NBOARD_EXAMPLE[..cut]);
            }
        }
        let _ = GgfGame::parse("(;B[\\");
        let _ = GgfGame::parse("(;B[f5\\]];)");
    }

    #[test]
    fn ply_items() {
        assert_eq!(parse_ply("F5"), Ok(Ply::bare(sq("f5"))));
        assert_eq!(parse_ply("f5//"), Ok(Ply::bare(sq("f5"))));
        assert_eq!(
            parse_ply("PA//3.107"),
            Ok(Ply {
                mv: Square::Pass,
                eval: None,
                time: Some(3.107)
            })
        );
        assert_eq!(
            parse_ply("d6/-1.00"),
            Ok(Ply {
                mv: sq("d6"),
                eval: Some(-1.0),
                time: None
            })
        );
        assert!(parse_ply("").is_err());
        assert!(parse_ply("f").is_err());
        assert_eq!(
            format_ply(&Ply {
                mv: Square::Pass,
                eval: None,
                time: Some(3.107)
            }),
            "PA//3.107"
        );
        assert_eq!(
            format_ply(&Ply {
                mv: sq("d6"),
                eval: Some(-1.5),
                time: None
            }),
            "D6/-1.5"
        );
        assert_eq!(format_ply(&Ply::bare(sq("a1"))), "A1");
    }
}
