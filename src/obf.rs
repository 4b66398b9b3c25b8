//! OBF files: one position per line, `<64 squares> <side>;` then optional `Move:Score;`
//! fields (best first). Text after `%` is a comment.
//!
//! Variants read: the FFO files (best move or a few moves with their scores), Edax's problem
//! files (`hard-20/25/30.obf`: every legal move's exact value, best first, then the end marker
//! `--:-127;`, which Edax writes after the last move and reads as "no more moves"), and bare
//! positions with no fields. A `--:-127` field ends the line's fields; anything after it is
//! ignored, as Edax does. Any other score outside −64..64 is refused.

use crate::board::notation::{NotationError, Square, parse_position};
use crate::board::{Board, Position};
use std::fmt;

/// One solvable line of an OBF file.
#[derive(Clone, Debug)]
pub struct ObfPosition {
    /// 1-based line number in the file.
    pub line: usize,
    pub position: Position,
    /// The listed `(move, score)` fields, best first.
    pub scores: Vec<(Square, i32)>,
}

impl ObfPosition {
    /// The exact value: the first listed score.
    pub fn expected(&self) -> Option<i32> {
        self.scores.first().map(|&(_, s)| s)
    }

    /// Is `mv` one of the moves listed with the best score? (None if nothing is listed.)
    pub fn is_best_move(&self, mv: Square) -> Option<bool> {
        let best = self.expected()?;
        Some(self.scores.iter().any(|&(m, s)| m == mv && s == best))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObfError {
    Board(NotationError),
    BadField(String),
    GameOver,
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObfError::Board(e) => write!(f, "{e}"),
            ObfError::BadField(s) => write!(f, "bad move:score field '{s}'"),
            ObfError::GameOver => write!(f, "the game is over: neither side can move"),
        }
    }
}

/// A line's outcome: skipped (blank or comment), a position, or an error.
pub enum ObfLine {
    Blank,
    Position(ObfPosition),
    Error { line: usize, error: ObfError },
}

/// Parses one line (1-based `line` number for messages).
pub fn parse_line(text: &str, line: usize) -> ObfLine {
    let text = text.split('%').next().unwrap_or("").trim();
    if text.is_empty() {
        return ObfLine::Blank;
    }
    match parse_fields(text, line) {
        Ok(p) => ObfLine::Position(p),
        Err(error) => ObfLine::Error { line, error },
    }
}

fn parse_fields(text: &str, line: usize) -> Result<ObfPosition, ObfError> {
    let mut fields = text.split(';');
    let position = parse_position(fields.next().unwrap_or("")).map_err(ObfError::Board)?;
    let board: &Board = &position.board;
    if board.is_game_over() {
        return Err(ObfError::GameOver);
    }
    let mut scores = Vec::new();
    for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let (mv, score) = field.split_once(':').ok_or_else(|| ObfError::BadField(field.to_string()))?;
        if is_end_marker(mv, score) {
            break;
        }
        let mv = Square::parse(mv).map_err(|_| ObfError::BadField(field.to_string()))?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| ObfError::BadField(field.to_string()))?;
        if !(-64..=64).contains(&score) {
            return Err(ObfError::BadField(field.to_string()));
        }
        scores.push((mv, score));
    }
    Ok(ObfPosition { line, position, scores })
}

/// Edax's end-of-moves marker `--:-127` (a pass with a value no game can have).
fn is_end_marker(mv: &str, score: &str) -> bool {
    mv.trim() == "--" && score.trim() == "-127"
}

/// Parses a whole file, line by line.
pub fn parse_file(text: &str) -> Vec<ObfLine> {
    text.lines().enumerate().map(|(i, l)| parse_line(l, i + 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";

    #[test]
    fn parses_ffo_line() {
        let ObfLine::Position(p) = parse_line(FFO40, 1) else {
            panic!("not parsed")
        };
        assert_eq!(p.expected(), Some(38));
        assert_eq!(p.is_best_move(Square::parse("a2").unwrap_or(Square::Pass)), Some(true));
        assert_eq!(p.position.board.empty_count(), 20);
    }

    /// The shape of Edax's `hard-20.obf` lines: every move's value, best first, then `--:-127;`.
    const EDAX_LINE: &str = "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X; \
                             E1:+0; F8:-2; H6:-6; F1:-6; G8:-6; A7:-6; G1:-8; B7:-10; G7:-20; --:-127;";

    #[test]
    fn edax_end_marker_ends_the_fields() {
        let ObfLine::Position(p) = parse_line(EDAX_LINE, 7) else {
            panic!("Edax's line was refused")
        };
        assert_eq!(p.scores.len(), 9, "the marker is not a move");
        assert_eq!(p.expected(), Some(0));
        assert!(p.scores.iter().all(|&(m, _)| m != Square::Pass));
        // Fields after the marker are ignored, as Edax ignores them.
        let trailing = EDAX_LINE.replace("--:-127;", "--:-127; junk;");
        assert!(matches!(parse_line(&trailing, 1), ObfLine::Position(q) if q.scores.len() == 9));
        // Comments after the marker still work.
        let commented = format!("{EDAX_LINE} % hard-20 #1");
        assert!(matches!(parse_line(&commented, 1), ObfLine::Position(q) if q.scores.len() == 9));
    }

    #[test]
    fn out_of_range_scores_are_still_refused() {
        for bad in ["A2:-127", "--:-65", "--:+127", "A2:+65", "--:-128"] {
            let line = FFO40.replace("A2:+38", bad);
            assert!(
                matches!(parse_line(&line, 1), ObfLine::Error { error: ObfError::BadField(ref f), .. } if f == bad),
                "{bad} should be refused"
            );
        }
    }

    #[test]
    fn bad_lines_are_reported() {
        assert!(matches!(parse_line("", 1), ObfLine::Blank));
        assert!(matches!(parse_line("% only a comment", 1), ObfLine::Blank));
        assert!(matches!(
            parse_line(&FFO40[1..], 3),
            ObfLine::Error {
                line: 3,
                error: ObfError::Board(NotationError::BadLength(63))
            }
        ));
        assert!(matches!(
            parse_line(&FFO40.replace("X;", ";"), 1),
            ObfLine::Error {
                error: ObfError::Board(_),
                ..
            }
        ));
        assert!(matches!(
            parse_line(&FFO40.replace("A2:+38", "A2+38"), 1),
            ObfLine::Error {
                error: ObfError::BadField(_),
                ..
            }
        ));
        let full = format!("{} X;", "X".repeat(64));
        assert!(matches!(
            parse_line(&full, 1),
            ObfLine::Error {
                error: ObfError::GameOver,
                ..
            }
        ));
    }
}
