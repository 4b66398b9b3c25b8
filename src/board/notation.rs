//! Text notation: squares (`a1`..`h8`, `pa`/`pass`), 64-character board strings with the side
//! to move, and move transcripts such as `f5d6c3d3c4`.

use super::{Color, Position};
use std::fmt;

/// A move as written in notation: a square index 0..64 or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Square {
    At(u8),
    Pass,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    BadSquare(String),
    BadLength(usize),
    BadChar {
        index: usize,
        ch: char,
    },
    MissingSide,
    BadSide(String),
    IllegalMove {
        ply: usize,
        mv: String,
    },
    /// Pass written although the side to move has a legal move.
    IllegalPass {
        ply: usize,
    },
    GameOver {
        ply: usize,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadSquare(s) => write!(f, "bad square '{s}' (expected a1..h8 or pass)"),
            NotationError::BadLength(n) => write!(f, "board has {n} squares, expected 64"),
            NotationError::BadChar { index, ch } => {
                write!(
                    f,
                    "bad character '{ch}' at square {} (expected X, O, -, *, x, o or .)",
                    index + 1
                )
            }
            NotationError::MissingSide => write!(f, "missing side to move after the 64 squares"),
            NotationError::BadSide(s) => write!(f, "bad side to move '{s}' (expected X or O)"),
            NotationError::IllegalMove { ply, mv } => write!(f, "illegal move {mv} at ply {ply}"),
            NotationError::IllegalPass { ply } => write!(f, "pass at ply {ply} although a move is available"),
            NotationError::GameOver { ply } => write!(f, "move at ply {ply} after the game is over"),
        }
    }
}

impl std::error::Error for NotationError {}

impl Square {
    /// Parses `a1`..`h8` (any case), `pa`, `pass`, `ps` or `--` as a pass.
    pub fn parse(s: &str) -> Result<Square, NotationError> {
        let t = s.trim();
        let lower = t.to_ascii_lowercase();
        if matches!(lower.as_str(), "pa" | "pass" | "ps" | "--" | "@@") {
            return Ok(Square::Pass);
        }
        let b = lower.as_bytes();
        if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
            Ok(Square::At((b[1] - b'1') * 8 + (b[0] - b'a')))
        } else {
            Err(NotationError::BadSquare(t.to_string()))
        }
    }

    pub fn index(self) -> Option<usize> {
        match self {
            Square::At(i) => Some(i as usize),
            Square::Pass => None,
        }
    }
}

/// Lowercase name of a square index (`a1`).
pub fn square_name(sq: usize) -> String {
    let col = (b'a' + (sq % 8) as u8) as char;
    let row = (b'1' + (sq / 8) as u8) as char;
    format!("{col}{row}")
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Square::At(i) => f.write_str(&square_name(*i as usize)),
            Square::Pass => f.write_str("pa"),
        }
    }
}

/// Parses a board string: 64 squares A1..H8 (`X`/`*`/`x` black, `O`/`o` white, `-`/`.` empty),
/// white space, then the side to move `X`/`*`/`x`/`B` or `O`/`o`/`W`.
/// Anything after the side to move is ignored (OBF puts `;` fields there).
pub fn parse_position(s: &str) -> Result<Position, NotationError> {
    let s = s.trim_start();
    let squares: Vec<char> = s.chars().take_while(|c| !c.is_whitespace() && *c != ';').collect();
    if squares.len() != 64 {
        return Err(NotationError::BadLength(squares.len()));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, &ch) in squares.iter().enumerate() {
        match ch {
            'X' | 'x' | '*' => black |= 1u64 << i,
            'O' | 'o' => white |= 1u64 << i,
            '-' | '.' => {}
            c => return Err(NotationError::BadChar { index: i, ch: c }),
        }
    }
    let rest = s[squares.iter().map(|c| c.len_utf8()).sum::<usize>()..].trim_start();
    let side: String = rest.chars().take_while(|c| !c.is_whitespace() && *c != ';').collect();
    let to_move = match side.as_str() {
        "" => return Err(NotationError::MissingSide),
        "X" | "x" | "*" | "B" | "b" => Color::Black,
        "O" | "o" | "W" | "w" => Color::White,
        other => return Err(NotationError::BadSide(other.to_string())),
    };
    Ok(Position::from_black_white(black, white, to_move))
}

/// Formats a position as 64 squares (`X` black, `O` white, `-` empty), a space and the mover.
pub fn format_position(pos: &Position) -> String {
    let (black, white) = pos.black_white();
    let mut s: String = (0..64)
        .map(|i| {
            if black >> i & 1 != 0 {
                'X'
            } else if white >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s.push(' ');
    s.push(match pos.to_move {
        Color::Black => 'X',
        Color::White => 'O',
    });
    s
}

/// Applies one move in notation to a position, passing automatically when the side to move has
/// no legal move but the opponent does (so `f5d6...` transcripts need no explicit passes).
/// An explicit pass is accepted only when the side to move has no move.
pub fn apply_move(pos: &Position, mv: Square, ply: usize) -> Result<Position, NotationError> {
    let b = pos.board;
    if b.is_game_over() {
        return Err(NotationError::GameOver { ply });
    }
    match mv {
        Square::Pass => {
            if b.moves() != 0 {
                return Err(NotationError::IllegalPass { ply });
            }
            Ok(pos.pass())
        }
        Square::At(sq) => {
            let cur = if b.moves() == 0 { pos.pass() } else { *pos };
            cur.play(sq as usize)
                .ok_or_else(|| NotationError::IllegalMove { ply, mv: mv.to_string() })
        }
    }
}

/// Splits a transcript (`f5d6c3`, `F5 D6 C3`, `f5-d6-c3`, with optional `pa`) into moves.
pub fn parse_transcript(s: &str) -> Result<Vec<Square>, NotationError> {
    let compact: String = s.chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != ',').collect();
    let bytes = compact.as_bytes();
    if !compact.is_ascii() || !bytes.len().is_multiple_of(2) {
        return Err(NotationError::BadSquare(compact));
    }
    bytes
        .chunks(2)
        .map(|c| Square::parse(std::str::from_utf8(c).unwrap_or("??")))
        .collect()
}

/// Plays a transcript from `start`, validating every move; returns every position, the start
/// first. A side with no move passes implicitly.
pub fn play_transcript(start: Position, s: &str) -> Result<Vec<Position>, NotationError> {
    let moves = parse_transcript(s)?;
    let mut line = vec![start];
    for (i, mv) in moves.into_iter().enumerate() {
        let last = *line.last().unwrap_or(&start);
        line.push(apply_move(&last, mv, i + 1)?);
    }
    Ok(line)
}

/// Human-readable board with coordinates (`X` black, `O` white, `.` legal move, `-` empty).
pub fn render(pos: &Position) -> String {
    let (black, white) = pos.black_white();
    let legal = pos.board.moves();
    let mut out = String::from("  a b c d e f g h\n");
    for row in 0..8 {
        out.push_str(&format!("{} ", row + 1));
        for col in 0..8 {
            let i = row * 8 + col;
            let c = if black >> i & 1 != 0 {
                'X'
            } else if white >> i & 1 != 0 {
                'O'
            } else if legal >> i & 1 != 0 {
                '.'
            } else {
                '-'
            };
            out.push(c);
            out.push(if col == 7 { '\n' } else { ' ' });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        for sq in 0..64 {
            let name = square_name(sq);
            assert_eq!(Square::parse(&name), Ok(Square::At(sq as u8)));
            assert_eq!(Square::parse(&name.to_uppercase()), Ok(Square::At(sq as u8)));
            assert_eq!(Square::At(sq as u8).to_string(), name);
        }
        assert_eq!(Square::parse("PA"), Ok(Square::Pass));
        assert_eq!(Square::parse("pass"), Ok(Square::Pass));
        assert!(Square::parse("i1").is_err());
        assert!(Square::parse("a9").is_err());
        assert!(Square::parse("a").is_err());
    }

    #[test]
    fn board_strings_round_trip() {
        let start = Position::start();
        let s = format_position(&start);
        assert_eq!(s, "---------------------------OX------XO--------------------------- X");
        assert_eq!(parse_position(&s), Ok(start));
        let alt = s.replace('X', "*").replace('-', ".").replace('O', "o");
        assert_eq!(parse_position(&alt.replace(" *", " X")), Ok(start));
        let white = parse_position(&s.replace(" X", " O")).expect("valid");
        assert_eq!(white.to_move, Color::White);
        assert_eq!(format_position(&white), s.replace(" X", " O"));
    }

    #[test]
    fn bad_board_strings() {
        let good = "---------------------------OX------XO---------------------------";
        assert_eq!(parse_position(&good[1..]), Err(NotationError::BadLength(63)));
        assert_eq!(
            parse_position(&format!("{} X", &good[1..])),
            Err(NotationError::BadLength(63))
        );
        assert_eq!(parse_position(good), Err(NotationError::MissingSide));
        assert!(matches!(parse_position(&format!("{good} Z")), Err(NotationError::BadSide(_))));
        assert_eq!(parse_position(&format!("{good}- X")), Err(NotationError::BadLength(65)));
        let bad = good.replacen('-', "q", 1);
        assert_eq!(
            parse_position(&format!("{bad} X")),
            Err(NotationError::BadChar { index: 0, ch: 'q' })
        );
    }

    #[test]
    fn transcripts() {
        let line = play_transcript(Position::start(), "f5d6c3d3c4").expect("legal");
        assert_eq!(line.len(), 6);
        assert_eq!(line[5].to_move, Color::White);
        assert!(matches!(
            play_transcript(Position::start(), "f5f5"),
            Err(NotationError::IllegalMove { ply: 2, .. })
        ));
        assert!(matches!(
            play_transcript(Position::start(), "f5pa"),
            Err(NotationError::IllegalPass { ply: 2 })
        ));
        assert!(play_transcript(Position::start(), "f5d").is_err());
        assert!(play_transcript(Position::start(), "F5-D6-C3").is_ok());
    }
}
