//! Transposition table: one entry per bucket slot, full-board verification, replacement by
//! depth and age. Shared by the endgame solver and (later) the midgame search.

use crate::board::Board;

/// Sentinel for "no best move recorded".
pub const NO_MOVE: u8 = 64;

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub player: u64,
    pub opponent: u64,
    /// Lower and upper bounds on the score, in discs.
    pub lower: i8,
    pub upper: i8,
    /// Search depth (empties for exact solves).
    pub depth: u8,
    /// Selectivity level the bounds hold at (higher = more exact).
    pub selectivity: u8,
    pub best: u8,
    pub age: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        player: 0,
        opponent: 0,
        lower: -64,
        upper: 64,
        depth: 0,
        selectivity: 0,
        best: NO_MOVE,
        age: 0,
    };
}

/// What a probe found: bounds valid at `depth`/`selectivity`, and the best move if any.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub lower: i32,
    pub upper: i32,
    pub depth: u32,
    pub selectivity: u32,
    pub best: Option<usize>,
}

/// Data to store after a search of a node.
pub struct Store {
    pub depth: u32,
    pub selectivity: u32,
    pub alpha: i32,
    pub beta: i32,
    pub score: i32,
    pub best: Option<usize>,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two entries, at least 1024).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        TranspositionTable {
            entries: vec![Entry::EMPTY; n],
            mask: n - 2,
            age: 0,
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.age = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn bucket(&self, b: &Board) -> usize {
        (b.hash() as usize) & self.mask
    }

    #[inline]
    pub fn probe(&self, b: &Board) -> Option<Hit> {
        let i = self.bucket(b);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.player == b.player && e.opponent == b.opponent && (e.depth > 0 || e.best != NO_MOVE))
            .map(|e| Hit {
                lower: e.lower as i32,
                upper: e.upper as i32,
                depth: e.depth as u32,
                selectivity: e.selectivity as u32,
                best: (e.best != NO_MOVE).then_some(e.best as usize),
            })
    }

    /// Records the result of a search with window (alpha, beta) that returned `score`
    /// (fail-soft): score <= alpha is an upper bound, score >= beta a lower bound.
    #[inline]
    pub fn store(&mut self, b: &Board, s: Store) {
        let i = self.bucket(b);
        let age = self.age;
        let (lo, hi) = if s.score <= s.alpha {
            (-64, s.score)
        } else if s.score >= s.beta {
            (s.score, 64)
        } else {
            (s.score, s.score)
        };
        let depth = s.depth.min(255) as u8;
        let sel = s.selectivity.min(255) as u8;
        let best = s.best.map_or(NO_MOVE, |m| m as u8);
        let pair = &mut self.entries[i..i + 2];
        // Same position: tighten the bounds if the depth/selectivity agree, else replace.
        if let Some(e) = pair.iter_mut().find(|e| e.player == b.player && e.opponent == b.opponent) {
            if e.depth == depth && e.selectivity == sel {
                e.lower = e.lower.max(lo as i8);
                e.upper = e.upper.min(hi as i8);
                if e.lower > e.upper {
                    (e.lower, e.upper) = (lo as i8, hi as i8);
                }
            } else if (depth, sel) >= (e.depth, e.selectivity) {
                (e.lower, e.upper, e.depth, e.selectivity) = (lo as i8, hi as i8, depth, sel);
            } else {
                return;
            }
            if best != NO_MOVE {
                e.best = best;
            }
            e.age = age;
            return;
        }
        // Otherwise replace the stale or shallower of the two slots.
        let victim = if pair[0].age != age || (pair[1].age == age && pair[0].depth <= pair[1].depth) {
            0
        } else {
            1
        };
        pair[victim] = Entry {
            player: b.player,
            opponent: b.opponent,
            lower: lo as i8,
            upper: hi as i8,
            depth,
            selectivity: sel,
            best,
            age,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_bounds() {
        let mut tt = TranspositionTable::new(1);
        let b = Board::START;
        assert!(tt.probe(&b).is_none());
        let st = |score| Store {
            depth: 10,
            selectivity: 0,
            alpha: 0,
            beta: 1,
            score,
            best: Some(19),
        };
        tt.store(&b, st(4));
        let h = tt.probe(&b).expect("stored");
        assert_eq!((h.lower, h.upper, h.best), (4, 64, Some(19)));
        tt.store(&b, st(-2));
        // The contradiction (lower 4 > upper -2) resets to the newest result.
        let h = tt.probe(&b).expect("stored");
        assert_eq!((h.lower, h.upper), (-64, -2));
    }
}
