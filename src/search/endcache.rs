//! A small per-thread cache of exact-solve bounds for the nodes below the shared table's first
//! empties (`SolverConfig::ec_min` to `tt_min`, and the parity search's from
//! `shallow_cache_min`): direct-mapped, no atomics, small enough to stay in the core's own
//! caches. At these empties the shared table's probes and stores (a cache miss
//! each, in a 64 MB table) cost more than the nodes they save; this cache's cost less.
//!
//! An entry holds exact-score bounds of one board (the board is compared in full) and the move
//! that last proved one. The bounds are facts about the board (the score is exact and the
//! number of empties follows from the board), so an entry stays valid from one solve to the
//! next. A root solve clears it all the same, so that its node count is its own; the exact
//! tests a midgame search makes at its leaves keep it.

use std::cell::RefCell;

/// Entries of a thread's cache: 2^15 of 24 bytes, 768 KiB. (2^16 held 3.4 % fewer nodes on
/// the hard-20 quarter and was 1.4 % faster, paired, but its 0.75 MiB more a thread took a
/// two-thread game past the memory the README promises, `tests/memory.rs`.)
const BITS: u32 = 15;

#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

/// What a probe found: exact-score bounds and the move that last proved one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheHit {
    pub lower: i32,
    pub upper: i32,
    pub best: usize,
}

pub(crate) struct EndCache {
    slots: Box<[Entry]>,
}

thread_local! {
    static CACHE: RefCell<EndCache> = RefCell::new(EndCache::new());
}

impl EndCache {
    fn new() -> EndCache {
        EndCache {
            slots: vec![Entry::default(); 1 << BITS].into_boxed_slice(),
        }
    }

    /// Runs `f` with this thread's cache (one borrow per solve, not per node).
    pub(crate) fn with<R>(f: impl FnOnce(&mut EndCache) -> R) -> R {
        CACHE.with_borrow_mut(f)
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    #[inline]
    fn index(p: u64, o: u64) -> usize {
        ((p ^ o.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BITS)) as usize
    }

    /// Starts loading the board's slot into the cache (a probe of it follows soon).
    #[inline]
    pub(crate) fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let e: *const Entry = &self.slots[Self::index(p, o)];
            // SAFETY: prefetching is a hint; the pointer is into our own slots.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(e.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The bounds stored for the board (p to move, o), if any.
    #[inline]
    pub(crate) fn probe(&self, p: u64, o: u64) -> Option<CacheHit> {
        let e = &self.slots[Self::index(p, o)];
        (e.player == p && e.opponent == o).then_some(CacheHit {
            lower: e.lower as i32,
            upper: e.upper as i32,
            best: e.best as usize,
        })
    }

    /// Records a null-window search (alpha, alpha + 1) of the board that returned `score`
    /// (fail-soft) with `best` the move that gave it; merged with the board's entry, else
    /// replacing the slot's.
    #[inline]
    pub(crate) fn store(&mut self, p: u64, o: u64, alpha: i32, score: i32, best: usize) {
        let e = &mut self.slots[Self::index(p, o)];
        let (mut lo, mut hi) = if score > alpha { (score, 64) } else { (-64, score) };
        if e.player == p && e.opponent == o {
            lo = lo.max(e.lower as i32);
            hi = hi.min(e.upper as i32);
        }
        *e = Entry {
            player: p,
            opponent: o,
            lower: lo as i8,
            upper: hi as i8,
            best: best as u8,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_only_for_its_board_and_merges_its_bounds() {
        let mut c = EndCache::new();
        let (p, o) = (0x0000_0010_0800_0000u64, 0x0000_0008_1000_0000u64);
        assert_eq!(c.probe(p, o), None);
        // Fail high at alpha 3 (score 6): lower bound 6.
        c.store(p, o, 3, 6, 19);
        assert_eq!(
            c.probe(p, o),
            Some(CacheHit {
                lower: 6,
                upper: 64,
                best: 19
            })
        );
        // Fail low at alpha 11 (score 10): the bounds merge to [6, 10].
        c.store(p, o, 11, 10, 20);
        assert_eq!(
            c.probe(p, o),
            Some(CacheHit {
                lower: 6,
                upper: 10,
                best: 20
            })
        );
        // The same discs with the sides swapped are another board.
        assert_eq!(c.probe(o, p), None);
        // A board of the same slot replaces the entry; the old board then misses.
        let other = (0..u64::MAX)
            .map(|k| (p ^ (k << 40), o))
            .find(|&(q, r)| (q, r) != (p, o) && q & r == 0 && EndCache::index(q, r) == EndCache::index(p, o));
        if let Some((q, r)) = other {
            c.store(q, r, 0, -2, 5);
            assert_eq!(c.probe(p, o), None);
            assert_eq!(
                c.probe(q, r),
                Some(CacheHit {
                    lower: -64,
                    upper: -2,
                    best: 5
                })
            );
        }
    }
}
