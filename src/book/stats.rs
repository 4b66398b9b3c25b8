//! `oxello book stats`: how big a book is, how deep, and how balanced its main lines are.

use super::{Book, key};
use crate::board::{Color, Position, Square};
use std::collections::{BTreeMap, HashSet};
use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Stats {
    pub positions: usize,
    /// Positions with a move into the book.
    pub nodes: usize,
    /// Size of the book file as oxello saves it.
    pub bytes: usize,
    /// Ply (discs on the board - 4) -> (nodes, leaves).
    pub by_ply: BTreeMap<u32, (usize, usize)>,
    /// Search depth behind the values -> positions.
    pub by_depth: BTreeMap<String, usize>,
    /// The window of the main lines, in discs.
    pub window: i32,
    /// Value for Black -> positions where the main lines end.
    pub main_line_values: BTreeMap<i32, usize>,
}

/// Where the main lines from `root` end: they follow every book move within `window` discs of
/// the best move of each position (the deviation included in "best") until no book move does.
fn main_line_ends(book: &Book, root: &Position, window: i32) -> BTreeMap<i32, usize> {
    let mut ends = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut stack = vec![*root];
    while let Some(pos) = stack.pop() {
        if !seen.insert(key(&pos.board).0) {
            continue;
        }
        let moves = book.moves(&pos.board);
        let Some(best) = moves.first().map(|m| m.value) else {
            continue;
        };
        let next: Vec<Position> = moves
            .iter()
            .filter(|m| m.in_book && m.value >= best - window)
            .filter_map(|m| match m.mv {
                Square::At(sq) => pos.play(sq as usize),
                Square::Pass => Some(pos.pass()),
            })
            .collect();
        if next.is_empty() {
            let black = if pos.to_move == Color::Black { best } else { -best };
            *ends.entry(black).or_insert(0) += 1;
        }
        stack.extend(next);
    }
    ends
}

impl Stats {
    pub fn of(book: &Book, root: &Position, window: i32) -> Stats {
        let mut s = Stats {
            positions: book.len(),
            bytes: book.to_text().len(),
            window,
            main_line_values: main_line_ends(book, root, window),
            ..Stats::default()
        };
        for (b, e) in book.iter() {
            let ply = 60u32.saturating_sub(b.empty_count());
            let row = s.by_ply.entry(ply).or_insert((0, 0));
            if book.is_interior(&b) {
                s.nodes += 1;
                row.0 += 1;
            } else {
                row.1 += 1;
            }
            *s.by_depth.entry(e.depth.to_string()).or_insert(0) += 1;
        }
        s
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "positions: {} ({} nodes, {} leaves), {} bytes as saved",
            self.positions,
            self.nodes,
            self.positions - self.nodes,
            self.bytes
        )?;
        writeln!(f, "\nply  positions  nodes  leaves")?;
        for (ply, (nodes, leaves)) in &self.by_ply {
            writeln!(f, "{ply:>3}  {:>9}  {nodes:>5}  {leaves:>6}", nodes + leaves)?;
        }
        writeln!(f, "\ndepth of the values  positions")?;
        for (depth, n) in &self.by_depth {
            writeln!(f, "{depth:>19}  {n:>9}")?;
        }
        let lines: usize = self.main_line_values.values().sum();
        writeln!(
            f,
            "\nmain lines (book moves within {} discs of the best, from the start): {lines} end positions",
            self.window
        )?;
        writeln!(f, "value for Black  positions")?;
        for (v, n) in &self.main_line_values {
            writeln!(f, "{v:>+15}  {n:>9}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SearchDepth;
    use crate::book::{Deviation, Entry};

    #[test]
    fn counts_plies_depths_and_main_line_ends() {
        let start = Position::start();
        let mut book = Book::new();
        let entry = |value, dev: Option<(u8, i32)>| Entry {
            value,
            depth: SearchDepth::Plies(4),
            deviation: dev.map(|(sq, value)| Deviation {
                mv: Square::At(sq),
                value,
            }),
        };
        // Start: f5 (37) in book at +2 for Black; after f5, White's d6 (43) in book, f4 the
        // deviation. Values are the side to move's.
        let f5 = start.play(37).expect("f5");
        let d6 = f5.play(43).expect("d6");
        book.insert(&start.board, entry(2, None));
        book.insert(&f5.board, entry(-2, Some((29, -6))));
        book.insert(&d6.board, entry(2, Some((18, 2))));
        book.negamax();
        let s = Stats::of(&book, &start, 0);
        assert_eq!((s.positions, s.nodes), (3, 2));
        assert_eq!(s.by_ply.get(&0), Some(&(1, 0)));
        assert_eq!(s.by_ply.get(&2), Some(&(0, 1)));
        assert_eq!(s.by_depth.get("4"), Some(&3));
        assert_eq!(s.main_line_values, BTreeMap::from([(2, 1)]));
        assert_eq!(s.bytes, book.to_text().len());
        let text = s.to_string();
        assert!(text.starts_with("positions: 3 (2 nodes, 1 leaves)"), "{text}");
        assert!(text.contains("             +2          1"), "{text}");
    }
}
