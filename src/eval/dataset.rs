//! Training records: `<64 squares> <X|O> <score> <kind>`, score = final disc difference from
//! the side to move's view, kind `exact` (solved), `search` (a deeper search's value) or `game`
//! (the played result). Blank lines and `#` comments are skipped; bad records are reported by
//! line number.

use crate::board::Board;
use crate::board::notation::parse_position;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub board: Board,
    pub score: i8,
    pub label: Label,
    /// The game the record came from (`# game N` header; `parse_file` keeps files apart), for
    /// held-out splits by game.
    pub game: u64,
    /// A child of a played position after a move not played (a corpus sibling): by
    /// construction better for its side to move than the line was, which the trainer can
    /// model apart (`TrainOptions::off_line_offset`). Text datasets do not mark it.
    pub off_line: bool,
}

/// Where a record's score comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The exact final score under perfect play.
    Exact,
    /// The value of a search of the position (deeper than the evaluation's own view).
    Search,
    /// The final result of the game the position was played in.
    Game,
}

impl Label {
    /// The kind field of the text format.
    pub fn name(self) -> &'static str {
        match self {
            Label::Exact => "exact",
            Label::Search => "search",
            Label::Game => "game",
        }
    }
}

/// Parses a dataset; returns the records and the errors (line number, message).
pub fn parse(text: &str) -> (Vec<Record>, Vec<(usize, String)>) {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    let mut game = 0u64;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("# game ").and_then(|n| n.trim().parse().ok()) {
            game = n;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_record(line, game) {
            Ok(r) => records.push(r),
            Err(e) => errors.push((i + 1, e)),
        }
    }
    (records, errors)
}

/// Game numbers restart in every file. Records of the `file`-th of several files get
/// `file × GAME_STRIDE` added, so games stay distinct across files (per-game sampling does not
/// merge two files' games) while the held-out split, game mod 10, stays as it was.
const GAME_STRIDE: u64 = 1_000_000_000;

/// `parse` for the `file`-th (from 0) of several dataset files.
pub fn parse_file(text: &str, file: usize) -> (Vec<Record>, Vec<(usize, String)>) {
    let (mut records, errors) = parse(text);
    for r in &mut records {
        r.game += file as u64 * GAME_STRIDE;
    }
    (records, errors)
}

fn parse_record(line: &str, game: u64) -> Result<Record, String> {
    let pos = parse_position(line).map_err(|e| e.to_string())?;
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(format!("expected 4 fields, found {}", fields.len()));
    }
    let score: i8 = fields[2]
        .parse()
        .ok()
        .filter(|s: &i8| (-64..=64).contains(s))
        .ok_or_else(|| format!("bad score '{}'", fields[2]))?;
    let label = match fields[3] {
        "exact" => Label::Exact,
        "search" => Label::Search,
        "game" => Label::Game,
        k => return Err(format!("bad kind '{k}' (expected exact, search or game)")),
    };
    Ok(Record {
        board: pos.board,
        score,
        label,
        game,
        off_line: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_records_are_reported_by_line() {
        let start = "---------------------------OX------XO--------------------------- X";
        let text = format!(
            "# game 0\n{start} 4 game\n\n{start} 99 game\n{start} 4 maybe\n{start}\nnonsense\n{start} -2 exact\n{start} 3 search\n"
        );
        let (records, errors) = parse(&text);
        assert_eq!(records.len(), 3);
        assert_eq!(errors.iter().map(|e| e.0).collect::<Vec<_>>(), [4, 5, 6, 7]);
        assert_eq!((records[0].label, records[0].score), (Label::Game, 4));
        assert_eq!((records[1].label, records[1].score), (Label::Exact, -2));
        assert_eq!((records[2].label, records[2].score), (Label::Search, 3));
        assert_eq!(records[0].game, 0);
    }

    /// The same game number in two files stays two games, held out alike.
    #[test]
    fn games_stay_distinct_across_files() {
        let text = "# game 19\n---------------------------OX------XO--------------------------- X 0 game\n";
        let (a, _) = parse_file(text, 0);
        let (b, _) = parse_file(text, 1);
        assert_eq!(a[0].game, 19);
        assert_ne!(a[0].game, b[0].game);
        assert_eq!(b[0].game % 10, 9);
    }
}
