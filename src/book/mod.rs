//! The opening book (DESIGN.md §8): positions keyed by their symmetry-normalised board, each
//! with a negamaxed value, the depth of the searches behind it, and the best move that leaves
//! the book (its "deviation", as NTest and Edax keep). Book moves are not stored: the children
//! of a position are found by playing each legal move and probing.
//!
//! Values are discs from the side to move's point of view. A position's value is the best of
//! its deviation and of minus the value of each child in the book.

pub mod build;
pub mod deepen;
pub mod edax;
mod file;
pub mod games;
pub mod stats;

pub use build::{BuildOptions, SearchValuer, Shard, build, resume};
pub use file::BookError;

use crate::base::SearchDepth;
use crate::board::symmetry::{apply_square, canonical, inverse};
use crate::board::{Board, Square};
use std::collections::{HashMap, HashSet};

/// Learning stops after this many plies: deeper positions are the search's business.
pub const LEARN_PLIES: usize = 36;

/// The best move that leaves the book and its value (side to move's view).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Deviation {
    pub mv: Square,
    pub value: i32,
}

/// One book position, stored in canonical orientation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Negamaxed value in discs, side to move's view.
    pub value: i32,
    /// Depth (and selectivity) of the searches that valued this position's moves.
    pub depth: SearchDepth,
    /// None when every move leads into the book (or the position is over).
    pub deviation: Option<Deviation>,
}

/// A move of a book position, as `moves` lists it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookMove {
    pub mv: Square,
    /// Side to move's view.
    pub value: i32,
    pub depth: SearchDepth,
    /// True for a move into a book position, false for the deviation.
    pub in_book: bool,
}

/// A search that values positions for the book.
pub trait Valuer {
    /// The best move of a position that is not over, its value (side to move's view) and the
    /// depth of the search.
    fn search(&mut self, board: &Board) -> Searched;

    /// Whether searches have been stopped: what they returned since is not a value to keep.
    fn stopped(&self) -> bool {
        false
    }
}

/// What `Book::learn` did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Learned {
    /// Positions added to the book.
    pub added: usize,
    /// False when the valuer was stopped: the positions valued so far are in (the book is
    /// negamaxed), the rest not; learning the same game again goes on where it stopped.
    pub finished: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Searched {
    pub best: Square,
    pub value: i32,
    pub depth: SearchDepth,
}

type Key = (u64, u64);

fn key(b: &Board) -> (Key, usize) {
    let (c, s) = canonical(b);
    ((c.player, c.opponent), s)
}

/// Maps a move through symmetry `s` (passes are fixed).
fn map_move(s: usize, mv: Square) -> Square {
    match mv {
        Square::At(sq) => Square::At(apply_square(s, sq as usize) as u8),
        Square::Pass => Square::Pass,
    }
}

/// The positions after each legal move, or after the forced pass; none when the game is over.
pub fn children(b: &Board) -> Vec<(Square, Board)> {
    let moves = b.moves();
    if moves == 0 {
        return if b.pass().moves() == 0 {
            Vec::new()
        } else {
            vec![(Square::Pass, b.pass())]
        };
    }
    crate::board::bits::Squares(moves)
        .filter_map(|sq| b.play(sq).map(|c| (Square::At(sq as u8), c)))
        .collect()
}

/// One ply deeper: the depth of a child's search seen from its parent.
fn deeper(d: SearchDepth) -> SearchDepth {
    match d {
        SearchDepth::Plies(n) => SearchDepth::Plies(n + 1),
        SearchDepth::Selective { depth, percent } => SearchDepth::Selective {
            depth: depth + 1,
            percent,
        },
        exact => exact,
    }
}

/// The value of a child from its parent's view, by search (or the final score).
fn child_value(child: &Board, valuer: &mut dyn Valuer) -> (i32, SearchDepth) {
    if child.is_game_over() {
        return (-child.final_score(), SearchDepth::Exact);
    }
    let r = valuer.search(child);
    (-r.value, deeper(r.depth))
}

#[derive(Clone, Default, Debug)]
pub struct Book {
    entries: HashMap<Key, Entry>,
}

impl Book {
    pub fn new() -> Book {
        Book::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn contains(&self, b: &Board) -> bool {
        self.entries.contains_key(&key(b).0)
    }

    /// The entry of `b` with its deviation mapped to `b`'s orientation.
    pub fn probe(&self, b: &Board) -> Option<Entry> {
        let (k, s) = key(b);
        let back = inverse(s);
        self.entries.get(&k).map(|e| Entry {
            deviation: e.deviation.map(|d| Deviation {
                mv: map_move(back, d.mv),
                ..d
            }),
            ..*e
        })
    }

    /// Stores `entry` for `b`, its deviation given in `b`'s orientation.
    pub fn insert(&mut self, b: &Board, entry: Entry) {
        let (k, s) = key(b);
        let stored = Entry {
            deviation: entry.deviation.map(|d| Deviation {
                mv: map_move(s, d.mv),
                ..d
            }),
            ..entry
        };
        self.entries.insert(k, stored);
    }

    /// The moves of a book position, best first: every move into a book position, and the
    /// deviation. Empty when `b` is not in the book.
    pub fn moves(&self, b: &Board) -> Vec<BookMove> {
        let Some(entry) = self.probe(b) else {
            return Vec::new();
        };
        let mut list: Vec<BookMove> = children(b)
            .into_iter()
            .filter_map(|(mv, c)| {
                self.probe(&c).map(|e| BookMove {
                    mv,
                    value: -e.value,
                    depth: e.depth,
                    in_book: true,
                })
            })
            .collect();
        if let Some(d) = entry.deviation {
            list.push(BookMove {
                mv: d.mv,
                value: d.value,
                depth: entry.depth,
                in_book: false,
            });
        }
        // Stable: among equal values book moves stay ahead of the deviation.
        list.sort_by_key(|m| -m.value);
        list
    }

    /// The book line after `mv`: the best book move of each position while there is one.
    pub fn line(&self, b: &Board, mv: Square) -> Vec<Square> {
        let mut pv = vec![mv];
        let mut cur = match mv {
            Square::At(sq) => b.play(sq as usize),
            Square::Pass => Some(b.pass()),
        };
        while let Some(pos) = cur {
            let Some(best) = self.moves(&pos).into_iter().next() else {
                break;
            };
            pv.push(best.mv);
            if !best.in_book || pv.len() >= 60 {
                break;
            }
            cur = children(&pos).into_iter().find(|(m, _)| *m == best.mv).map(|(_, c)| c);
        }
        pv
    }

    /// The best move that leaves the book from `b` (every child not in the book searched).
    fn deviation(&self, b: &Board, valuer: &mut dyn Valuer) -> (Option<Deviation>, Option<SearchDepth>) {
        let mut best: Option<Deviation> = None;
        let mut depth = None;
        for (mv, c) in children(b) {
            if valuer.stopped() {
                break;
            }
            if self.contains(&c) {
                continue;
            }
            let (value, d) = child_value(&c, valuer);
            depth.get_or_insert(d);
            if best.is_none_or(|x| value > x.value) {
                best = Some(Deviation { mv, value });
            }
        }
        (best, depth)
    }

    /// Adds a game's positions (`line`, start first) up to `LEARN_PLIES`: new positions get
    /// their deviation searched, the last one a plain search; positions whose deviation has
    /// just entered the book get a new one; then the whole book is negamaxed again.
    /// A stopped valuer ends the learn early without storing the value it was computing.
    pub fn learn(&mut self, line: &[Board], valuer: &mut dyn Valuer) -> Learned {
        let line: Vec<Board> = line
            .iter()
            .take(LEARN_PLIES + 1)
            .take_while(|b| !b.is_game_over())
            .copied()
            .collect();
        let mut added = 0;
        let mut finished = true;
        // From the end, so that a position's move along the game is in the book when its
        // deviation is searched.
        for (i, b) in line.iter().enumerate().rev() {
            match self.probe(b) {
                None if i + 1 == line.len() => {
                    let r = valuer.search(b);
                    if valuer.stopped() {
                        finished = false;
                        break;
                    }
                    let dev = Deviation {
                        mv: r.best,
                        value: r.value,
                    };
                    self.insert(
                        b,
                        Entry {
                            value: r.value,
                            depth: r.depth,
                            deviation: Some(dev),
                        },
                    );
                    added += 1;
                }
                None => {
                    if !self.revalue(b, valuer, None) {
                        finished = false;
                        break;
                    }
                    added += 1;
                }
                Some(e) => {
                    let left = e
                        .deviation
                        .is_some_and(|d| children(b).iter().any(|(m, c)| *m == d.mv && self.contains(c)));
                    if left && !self.revalue(b, valuer, Some(e.depth)) {
                        finished = false;
                        break;
                    }
                }
            }
        }
        self.negamax();
        Learned { added, finished }
    }

    /// (Re)searches the deviation of `b` and stores it (the value is settled by `negamax`);
    /// false, storing nothing, when the valuer was stopped.
    fn revalue(&mut self, b: &Board, valuer: &mut dyn Valuer, old_depth: Option<SearchDepth>) -> bool {
        let (deviation, depth) = self.deviation(b, valuer);
        if valuer.stopped() {
            return false;
        }
        let depth = depth.or(old_depth).unwrap_or(SearchDepth::Exact);
        self.insert(
            b,
            Entry {
                value: deviation.map_or(0, |d| d.value),
                depth,
                deviation,
            },
        );
        true
    }

    /// Recomputes every value: the best of the deviation and of minus each book child.
    pub fn negamax(&mut self) {
        let keys: Vec<Key> = self.entries.keys().copied().collect();
        let mut done = HashSet::new();
        for k in keys {
            self.negamax_key(k, &mut done);
        }
    }

    /// Depth of recursion is bounded by the plies left in the game: children have more discs
    /// (or are a pass, which cannot follow a pass inside the book).
    fn negamax_key(&mut self, k: Key, done: &mut HashSet<Key>) -> i32 {
        let Some(entry) = self.entries.get(&k).copied() else {
            return 0;
        };
        if done.contains(&k) {
            return entry.value;
        }
        let b = Board::new(k.0, k.1);
        let mut best = entry.deviation.map(|d| d.value);
        for (_, c) in children(&b) {
            let (ck, _) = key(&c);
            if self.entries.contains_key(&ck) {
                let v = -self.negamax_key(ck, done);
                best = Some(best.map_or(v, |x| x.max(v)));
            }
        }
        if let (Some(v), Some(e)) = (best, self.entries.get_mut(&k)) {
            e.value = v;
        }
        done.insert(k);
        best.unwrap_or(entry.value)
    }

    /// Adds the positions of `other` that are not in this book (a position in both keeps this
    /// book's entry), then negamaxes: the workers of a sharded build share the positions above
    /// the split, built by the same searches.
    pub fn merge(&mut self, other: &Book) {
        for (k, e) in &other.entries {
            self.entries.entry(*k).or_insert(*e);
        }
        self.negamax();
    }

    /// Every entry as (canonical board, entry).
    pub fn iter(&self) -> impl Iterator<Item = (Board, &Entry)> {
        self.entries.iter().map(|(k, e)| (Board::new(k.0, k.1), e))
    }

    /// Whether `b` (canonical) has a child in the book.
    pub fn is_interior(&self, b: &Board) -> bool {
        children(b).iter().any(|(_, c)| self.contains(c))
    }
}

#[cfg(test)]
mod tests;
