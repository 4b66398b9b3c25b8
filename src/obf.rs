//! OBF files: one position per line, `<64 squares> <side>;` then optional `Move:Score;`
//! fields (best first). Text after `%` is a comment.

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
