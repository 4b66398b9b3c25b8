//! The book file: plain text, one position per line, sorted, so that `git diff` shows what a
//! build or a learned game changed. See book/README.md.
//!
//! ```text
//! oxello-book 1
//! # board (64 squares, side to move) value depth kind deviation deviation-value
//! ---------------------------OX------XO--------------------------- X 0 14@95% node -- -
//! ```

use super::{Book, Deviation, Entry};
use crate::base::SearchDepth;
use crate::board::notation::{format_position, parse_position};
use crate::board::{Board, Color, Position, Square};
use std::fmt;
use std::path::Path;

const MAGIC: &str = "oxello-book";
const VERSION: u32 = 1;
const EMBEDDED: &str = include_str!("../../book/book.txt");

/// Why a book cannot be read or written. `line` is 0 when the error is about the whole file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookError {
    pub file: String,
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.problem)
        }
    }
}

impl std::error::Error for BookError {}

fn parse_depth(s: &str) -> Option<SearchDepth> {
    match s {
        "100%" => Some(SearchDepth::Exact),
        "100%W" => Some(SearchDepth::Wld),
        _ => match s.split_once('@') {
            Some((d, p)) => Some(SearchDepth::Selective {
                depth: d.parse().ok()?,
                percent: p.strip_suffix('%')?.parse().ok().filter(|p| (1..100).contains(p))?,
            }),
            None => s.parse().ok().map(SearchDepth::Plies),
        },
    }
}

fn parse_value(s: &str) -> Option<i32> {
    s.parse().ok().filter(|v: &i32| (-64..=64).contains(v))
}

/// One line's fields: board, side, value, depth, kind, deviation move, deviation value.
fn parse_line(line: &str) -> Result<(Board, Entry), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [board, side, value, depth, kind, dev_move, dev_value] = fields[..] else {
        return Err(format!("expected 7 fields, found {}", fields.len()));
    };
    let pos = parse_position(&format!("{board} {side}")).map_err(|e| e.to_string())?;
    let value = parse_value(value).ok_or_else(|| format!("bad value '{value}' (expected -64..64)"))?;
    let depth = parse_depth(depth).ok_or_else(|| format!("bad depth '{depth}' (expected 14, 14@95%, 100% or 100%W)"))?;
    // Informational (recomputed on save), but a typo should not pass unnoticed.
    if !matches!(kind, "leaf" | "node") {
        return Err(format!("bad kind '{kind}' (expected leaf or node)"));
    }
    let deviation = match (dev_move, dev_value) {
        ("--", "-") => None,
        (m, v) => {
            let mv = Square::parse(m).map_err(|e| e.to_string())?;
            let legal = match mv {
                Square::At(sq) => pos.board.moves() >> sq & 1 != 0,
                Square::Pass => pos.board.moves() == 0 && !pos.board.is_game_over(),
            };
            if !legal {
                return Err(format!("deviation {m} is not a legal move"));
            }
            let value = parse_value(v).ok_or_else(|| format!("bad deviation value '{v}'"))?;
            Some(Deviation { mv, value })
        }
    };
    Ok((pos.board, Entry { value, depth, deviation }))
}

impl Book {
    /// The book shipped in the binary (book/book.txt).
    pub fn embedded() -> Result<Book, BookError> {
        Book::parse(EMBEDDED, "book/book.txt (embedded)")
    }

    pub fn load(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| BookError {
            file: name.clone(),
            line: 0,
            problem: format!("cannot read: {e}"),
        })?;
        Book::parse(&text, &name)
    }

    /// Parses a book; `file` names it in errors. Blank lines and `#` comments are skipped.
    pub fn parse(text: &str, file: &str) -> Result<Book, BookError> {
        let err = |line: usize, problem: String| BookError {
            file: file.to_string(),
            line,
            problem,
        };
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let header = lines.next().map(|(n, l)| (n, l.split_whitespace().collect::<Vec<_>>()));
        match header {
            Some((_, h)) if h.len() == 2 && h[0] == MAGIC && h[1] == VERSION.to_string() => {}
            Some((n, h)) if h.first() == Some(&MAGIC) => {
                return Err(err(
                    n,
                    format!("unsupported version '{}' (this build reads {VERSION})", h[1..].join(" ")),
                ));
            }
            Some((n, _)) => return Err(err(n, format!("missing header '{MAGIC} {VERSION}'"))),
            None => return Err(err(0, format!("empty file (expected the header '{MAGIC} {VERSION}')"))),
        }
        let mut book = Book::new();
        for (n, line) in lines {
            let (board, entry) = parse_line(line).map_err(|p| err(n, p))?;
            if book.contains(&board) {
                return Err(err(n, "position listed twice (up to symmetry)".into()));
            }
            book.insert(&board, entry);
        }
        Ok(book)
    }

    /// The file text: header, then positions by ply and board, each in canonical orientation.
    pub fn to_text(&self) -> String {
        let mut rows: Vec<(u32, String)> = self
            .iter()
            .map(|(b, e)| {
                // The colour is only for readers: without passes, Black moves on even disc counts.
                let discs = 64 - b.empty_count();
                let to_move = if discs % 2 == 0 { Color::Black } else { Color::White };
                let pos = Position { board: b, to_move };
                let kind = if self.is_interior(&b) { "node" } else { "leaf" };
                let dev = match e.deviation {
                    Some(d) => format!("{} {}", d.mv.to_string().to_uppercase(), d.value),
                    None => "-- -".into(),
                };
                (
                    discs,
                    format!("{} {} {} {kind} {dev}\n", format_position(&pos), e.value, e.depth),
                )
            })
            .collect();
        rows.sort();
        let mut text = format!(
            "{MAGIC} {VERSION}\n# board (64 squares a1..h8, side to move) value depth leaf|node deviation deviation-value\n\
             # values in discs for the side to move; see book/README.md\n"
        );
        for (_, row) in rows {
            text.push_str(&row);
        }
        text
    }

    /// Writes the book atomically: see `write_atomic`.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        write_atomic(path, self.to_text().as_bytes())
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it, so a crash never leaves
/// half a book.
pub(super) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BookError> {
    let err = |problem: String| BookError {
        file: path.display().to_string(),
        line: 0,
        problem,
    };
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    // Synced before the rename, so that not even a power cut leaves a short book behind.
    let write = |tmp: &Path| -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::File::create(tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    write(&tmp).map_err(|e| err(format!("cannot write {}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(format!("cannot replace: {e}"))
    })
}
