//! "Being searched" marks shared by the threads of a parallel search (ABDADA, Weill 1996):
//! a thread entering a node marks it; another thread meeting that node as a younger brother
//! defers it and searches its other moves first, so the threads spread over the tree instead
//! of repeating each other's work. When it comes back to a deferred move, the transposition
//! table usually holds the other thread's result already.

use crate::board::Board;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A small lossy table of the positions some thread is searching right now.
pub struct BusyTable {
    slots: Vec<AtomicU64>,
    mask: usize,
}

impl BusyTable {
    /// `2^bits` slots; collisions only cost a needless deferral or a missed one.
    pub fn new(bits: u32) -> BusyTable {
        BusyTable {
            slots: (0..1usize << bits).map(|_| AtomicU64::new(0)).collect(),
            mask: (1usize << bits) - 1,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[key as usize & self.mask]
    }

    /// The key of `b` (never 0, which marks a free slot).
    #[inline]
    pub fn key(b: &Board) -> u64 {
        b.hash() | 1
    }

    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_set_and_cleared() {
        let t = BusyTable::new(8);
        let k = BusyTable::key(&Board::START);
        assert!(!t.is_busy(k));
        t.enter(k);
        assert!(t.is_busy(k));
        t.leave(k);
        assert!(!t.is_busy(k));
    }
}
