//! Edax's binary opening book (`oxello book import` / `book export`): an Edax book read into
//! oxello's book and an oxello book written in Edax's format. The mapping is in
//! book/README.md; the bytes are in `format`, Edax's levels in `level`.
//!
//! Both books key positions by the smallest of the 8 symmetric images of (player, opponent),
//! with the same bit order (a1 = bit 0), and both keep values from the side to move's view,
//! so positions, values and deviations (Edax's "leaf") carry over unchanged. Edax also stores
//! its book moves ("links") with their scores; oxello finds them by probing the children, so
//! links are checked on import and recomputed on export.

pub mod format;
mod hash;
pub mod level;
mod negamax;

use super::{Book, BookError, Deviation, Entry, children};
use crate::board::{Board, Square};
use format::{EdaxFile, Header, Link, NO_MOVE, PASS, Record};
use std::collections::HashSet;
use std::path::Path;

/// Edax's value for "no move" (leaf of a position whose moves are all in the book).
const SCORE_INF: i8 = 127;
/// The four centre squares, occupied on every legal board.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// What an import found besides the book.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ImportReport {
    pub positions: usize,
    /// Edax links (book moves) in the file.
    pub links: usize,
    /// Links to positions that are not in the file (an Edax book merged but not fixed): oxello
    /// has no place for a book move without its position, so they are left out.
    pub dangling_links: usize,
    /// Leaves (best deviations) whose position is in the book: book moves for oxello.
    pub leaves_into_book: usize,
}

fn edax_move(mv: Square) -> u8 {
    match mv {
        Square::At(sq) => sq,
        Square::Pass => PASS,
    }
}

/// The oxello move of an Edax move of `b`, if legal there.
fn legal_move(b: &Board, mv: u8) -> Option<Square> {
    match mv {
        PASS if b.moves() == 0 && b.pass().moves() != 0 => Some(Square::Pass),
        0..=63 if b.moves() >> mv & 1 != 0 => Some(Square::At(mv)),
        _ => None,
    }
}

fn check_score(what: &str, score: i32) -> Result<i32, String> {
    if (-64..=64).contains(&score) {
        Ok(score)
    } else {
        Err(format!("{what} {score} out of range (-64..64)"))
    }
}

/// One record as an oxello entry (the board in the record's orientation), or what is wrong.
fn entry(r: &Record) -> Result<(Board, Entry), String> {
    if r.player & r.opponent != 0 {
        return Err("two discs on one square".into());
    }
    if (r.player | r.opponent) & CENTRE != CENTRE {
        return Err("a centre square is empty".into());
    }
    if r.level > 60 {
        return Err(format!("level {} out of range (0..60)", r.level));
    }
    let b = Board::new(r.player, r.opponent);
    let value = check_score("value", r.value.into())?;
    let mut seen = HashSet::new();
    for l in &r.links {
        if legal_move(&b, l.mv).is_none() {
            return Err(format!("book move {} is not legal", move_name(l.mv)));
        }
        check_score("book move score", l.score.into())?;
        if !seen.insert(l.mv) {
            return Err(format!("book move {} listed twice", move_name(l.mv)));
        }
    }
    let deviation = match r.leaf.mv {
        NO_MOVE => None,
        m => {
            let mv = legal_move(&b, m).ok_or_else(|| format!("best deviation {} is not legal", move_name(m)))?;
            if seen.contains(&m) {
                return Err(format!("best deviation {} is also a book move", move_name(m)));
            }
            let value = check_score("deviation score", r.leaf.score.into())?;
            Some(Deviation { mv, value })
        }
    };
    let depth = level::depth(r.level, b.empty_count());
    Ok((b, Entry { value, depth, deviation }))
}

fn move_name(mv: u8) -> String {
    match mv {
        0..=63 => Square::At(mv).to_string(),
        PASS => "pass".into(),
        NO_MOVE => "none".into(),
        other => format!("#{other}"),
    }
}

/// Today's date as Edax writes it (year, month, day, hour, minute, second, padding), UTC.
pub fn date_now() -> [u8; 8] {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of(secs)
}

/// Civil date of a Unix time (days to year/month/day after Howard Hinnant's algorithm).
fn date_of(secs: u64) -> [u8; 8] {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let y = i16::try_from(year).unwrap_or(i16::MAX).to_le_bytes();
    [
        y[0],
        y[1],
        month as u8,
        day as u8,
        (rem / 3600) as u8,
        (rem / 60 % 60) as u8,
        (rem % 60) as u8,
        0,
    ]
}

impl Book {
    /// Reads an Edax book file (`file` names it in errors).
    pub fn from_edax(bytes: &[u8], file: &str) -> Result<(Book, ImportReport), BookError> {
        let err = |problem: String| BookError {
            file: file.to_string(),
            line: 0,
            problem,
        };
        let parsed = EdaxFile::parse(bytes).map_err(|e| {
            err(match e.record {
                Some(n) => format!("position {n} (byte {}): {}", e.offset, e.problem),
                None => e.problem,
            })
        })?;
        let mut book = Book::new();
        let mut report = ImportReport::default();
        let mut offset = format::HEADER_BYTES;
        for (i, r) in parsed.records.iter().enumerate() {
            let (b, e) = entry(r).map_err(|p| err(format!("position {} (byte {offset}): {p}", i + 1)))?;
            if book.contains(&b) {
                return Err(err(format!(
                    "position {} (byte {offset}): listed twice (up to symmetry)",
                    i + 1
                )));
            }
            book.insert(&b, e);
            offset += 42 + 2 * r.links.len();
        }
        for r in &parsed.records {
            let b = Board::new(r.player, r.opponent);
            // A leaf into the book is a book move (Edax's `book link` makes it one).
            if let Some(mut e) = book.probe(&b)
                && let Some(d) = e.deviation
                && children(&b).iter().any(|(m, c)| *m == d.mv && book.contains(c))
            {
                e.deviation = None;
                book.insert(&b, e);
                report.leaves_into_book += 1;
            }
            for l in &r.links {
                report.links += 1;
                let child = match legal_move(&b, l.mv) {
                    Some(Square::At(sq)) => b.play(sq as usize),
                    Some(Square::Pass) => Some(b.pass()),
                    None => None,
                };
                if !child.is_some_and(|c| book.contains(&c)) {
                    report.dangling_links += 1;
                }
            }
        }
        report.positions = book.len();
        Ok((book, report))
    }

    pub fn load_edax(path: &Path) -> Result<(Book, ImportReport), BookError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| BookError {
            file: name.clone(),
            line: 0,
            problem: format!("cannot read: {e}"),
        })?;
        Book::from_edax(&bytes, &name)
    }

    /// The book as Edax's file structure, saved on `date`. See book/README.md for what is
    /// not kept (game statistics, bounds) and how depths become levels.
    pub fn to_edax(&self, date: [u8; 8]) -> EdaxFile {
        // The book's level: the deepest midgame search in it (Edax's default when none).
        let book_level = self
            .iter()
            .filter_map(|(b, e)| level::midgame_depth(e.depth).filter(|&d| d < b.empty_count()))
            .max()
            .map_or(21, |d| d.min(60) as u8);
        let mut records: Vec<Record> = self
            .iter()
            .map(|(b, e)| {
                let empties = b.empty_count();
                let links: Vec<Link> = children(&b)
                    .into_iter()
                    .filter_map(|(mv, c)| {
                        self.probe(&c).map(|ce| Link {
                            score: (-ce.value).clamp(-64, 64) as i8,
                            mv: edax_move(mv),
                        })
                    })
                    .collect();
                // A deviation that has since entered the book (by a transposition) is a book
                // move now: Edax keeps a move either as a link or as the leaf.
                let leaf = e.deviation.filter(|d| !links.iter().any(|l| l.mv == edax_move(d.mv))).map_or(
                    Link {
                        score: -SCORE_INF,
                        mv: NO_MOVE,
                    },
                    |d| Link {
                        score: d.value.clamp(-64, 64) as i8,
                        mv: edax_move(d.mv),
                    },
                );
                let value = e.value.clamp(-64, 64) as i16;
                Record {
                    player: b.player,
                    opponent: b.opponent,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    lines: 0,
                    value,
                    lower: value,
                    upper: value,
                    level: level::level(e.depth, empties, book_level),
                    links,
                    leaf,
                }
            })
            .collect();
        // As Edax's `book fix` leaves a book: negamaxed, links sorted, in hash table order.
        negamax::negamax(&mut records);
        records.iter_mut().for_each(negamax::sort_links);
        hash::sort(&mut records);
        let empties = self.iter().map(|(b, _)| b.empty_count()).min().unwrap_or(60);
        EdaxFile {
            header: Header {
                version: 4,
                release: 6,
                date,
                level: book_level.into(),
                empties: empties as i32,
                midgame_error: negamax::MIDGAME_ERROR,
                endcut_error: negamax::ENDCUT_ERROR,
                verbosity: 0,
                count: i32::try_from(records.len()).unwrap_or(i32::MAX),
            },
            records,
        }
    }

    /// Writes the book as an Edax book, atomically (a temporary file, then a rename).
    pub fn save_edax(&self, path: &Path) -> Result<(), BookError> {
        super::file::write_atomic(path, &self.to_edax(date_now()).to_bytes())
    }
}

#[cfg(test)]
mod tests;
