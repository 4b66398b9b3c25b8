//! Transposition table: one entry per bucket slot, full-board verification, replacement by
//! depth and age. Shared by the endgame solver and (later) the midgame search.

use crate::board::Board;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU64};

/// Sentinel for "no best move recorded".
pub const NO_MOVE: u8 = 64;

/// One slot: the board (to verify hits) and the packed data, written without locks. Both key
/// words hold `word ^ data`, so a slot torn by two threads writing at once (any of the three
/// words from the other write) fails the check and reads as a miss instead of returning
/// another position's bounds, or bounds under a board mixed from the two positions.
struct Slot {
    player_x: AtomicU64,
    opponent_x: AtomicU64,
    data: AtomicU64,
}

/// Unpacked slot data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Data {
    lower: i8,
    upper: i8,
    depth: u8,
    selectivity: u8,
    best: u8,
    age: u8,
    /// What else the bounds depend on (byte 7): the value of a draw to the side to move
    /// (contempt) as an `i8`, 0 without contempt. Entries of another tag are misses.
    tag: u8,
}

impl Data {
    /// `epoch` (byte 6, never 0) marks the slot as written since the table's last clear.
    fn pack(self, epoch: u8) -> u64 {
        u64::from_le_bytes([
            self.lower as u8,
            self.upper as u8,
            self.depth,
            self.selectivity,
            self.best,
            self.age,
            epoch,
            self.tag,
        ])
    }

    /// None for a slot not written since the table's last clear (byte 6 holds the epoch of
    /// the write; a never-written slot holds 0, which is never an epoch).
    fn unpack(x: u64, epoch: u8) -> Option<Data> {
        let b = x.to_le_bytes();
        (b[6] == epoch).then_some(Data {
            lower: b[0] as i8,
            upper: b[1] as i8,
            depth: b[2],
            selectivity: b[3],
            best: b[4],
            age: b[5],
            tag: b[7],
        })
    }
}

impl Slot {
    fn empty() -> Slot {
        Slot {
            player_x: AtomicU64::new(0),
            opponent_x: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }
    }

    /// The slot's data if it holds `b` under `tag` (and was not torn).
    #[inline]
    fn read(&self, b: &Board, tag: u8, epoch: u8) -> Option<Data> {
        let data = self.data.load(Relaxed);
        if self.opponent_x.load(Relaxed) ^ data != b.opponent
            || self.player_x.load(Relaxed) ^ data != b.player
            || (data >> 56) as u8 != tag
        {
            return None;
        }
        Data::unpack(data, epoch)
    }

    /// Any position's data (for replacement decisions).
    #[inline]
    fn peek(&self, epoch: u8) -> Option<Data> {
        Data::unpack(self.data.load(Relaxed), epoch)
    }

    #[inline]
    fn write(&self, b: &Board, d: Data, epoch: u8) {
        let data = d.pack(epoch);
        self.data.store(data, Relaxed);
        self.opponent_x.store(b.opponent ^ data, Relaxed);
        self.player_x.store(b.player ^ data, Relaxed);
    }
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

/// Two slots in one cache line, so a probe costs one memory access.
#[repr(align(64))]
struct Bucket([Slot; 2]);

/// Shared between search threads: all methods take `&self`.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    age: AtomicU8,
    /// Slots written under another epoch read as empty: `clear` moves to the next epoch
    /// instead of zeroing the table (64 MB zeroed before each of hard-20's 276 solves took
    /// about 4 % of the run), and zeroes it only when the 255 epochs are used up.
    epoch: AtomicU8,
}

/// Asks the kernel to back the 2 MiB-aligned part of `[start, start + len)` with huge pages,
/// before the first touch maps its pages. A probe lands on a random page of the table, so
/// with 4 KiB pages nearly every probe (and the endgame's look-ahead prefetches, several a
/// node) missed the TLB as well as the cache; a 64 MB table is 32 huge pages. Only a hint:
/// where the kernel declines (or is not Linux) the table works as before.
fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        let lo = start.next_multiple_of(HUGE);
        let hi = (start + len) / HUGE * HUGE;
        if hi > lo {
            // SAFETY: the range lies inside the caller's own allocation (rounded inwards to
            // whole huge pages); MADV_HUGEPAGE changes how it is backed, never its contents,
            // and a failure (an old kernel, THP off) leaves it as it was.
            unsafe { madvise(lo as *mut std::ffi::c_void, hi - lo, MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (rounded down to a power of two buckets, at least 512).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(512);
        let n = 1usize << (usize::BITS - 1 - n.leading_zeros());
        let mut buckets = Vec::with_capacity(n);
        advise_huge_pages(buckets.as_ptr() as usize, n * std::mem::size_of::<Bucket>());
        buckets.extend((0..n).map(|_| Bucket([Slot::empty(), Slot::empty()])));
        let t = TranspositionTable {
            buckets,
            mask: n - 1,
            age: AtomicU8::new(0),
            epoch: AtomicU8::new(1),
        };
        // The zeroed allocation maps its pages lazily; the first store to each would then
        // fault mid-search, and with several threads every such fault flushes the other
        // cores' TLBs (measured: ~40 % of a 2-thread midgame search). Touch them all now.
        t.zero();
        t
    }

    /// Forgets every entry: the next epoch, or zeroed slots once the epochs are used up. Not
    /// while a search uses the table (as before: a probe racing a clear may see either).
    pub fn clear(&self) {
        match self.epoch.load(Relaxed) {
            u8::MAX => self.zero(),
            e => self.epoch.store(e + 1, Relaxed),
        }
        self.age.store(0, Relaxed);
    }

    /// Zeroes every slot and starts again at epoch 1.
    fn zero(&self) {
        for s in self.buckets.iter().flat_map(|b| &b.0) {
            s.data.store(0, Relaxed);
            s.opponent_x.store(0, Relaxed);
            s.player_x.store(0, Relaxed);
        }
        self.epoch.store(1, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    #[inline]
    fn bucket(&self, b: &Board) -> &[Slot; 2] {
        &self.buckets[(b.hash() as usize) & self.mask].0
    }

    /// Starts loading `b`'s bucket into the cache (a probe of it follows soon).
    #[inline]
    pub fn prefetch(&self, b: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(b).as_ptr() as *const i8;
            // SAFETY: prefetching is a hint; the pointer is into our own allocation.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = b;
    }

    #[inline]
    pub fn probe(&self, b: &Board) -> Option<Hit> {
        self.probe_tagged(b, 0)
    }

    /// `probe` of the entry stored for `b` under `tag` (`store_tagged`): searches whose
    /// values depend on something besides the board (a draw's value) keep them apart.
    #[inline]
    pub fn probe_tagged(&self, b: &Board, tag: u8) -> Option<Hit> {
        let epoch = self.epoch.load(Relaxed);
        self.bucket(b).iter().find_map(|s| s.read(b, tag, epoch)).map(|d| Hit {
            lower: d.lower as i32,
            upper: d.upper as i32,
            depth: d.depth as u32,
            selectivity: d.selectivity as u32,
            best: (d.best != NO_MOVE).then_some(d.best as usize),
        })
    }

    /// Records the result of a search with window (alpha, beta) that returned `score`
    /// (fail-soft): score <= alpha is an upper bound, score >= beta a lower bound.
    #[inline]
    pub fn store(&self, b: &Board, s: Store) {
        self.store_tagged(b, s, 0)
    }

    /// `store` under `tag`: the entry answers `probe_tagged` with the same tag only.
    #[inline]
    pub fn store_tagged(&self, b: &Board, s: Store, tag: u8) {
        let age = self.age.load(Relaxed);
        let epoch = self.epoch.load(Relaxed);
        let (lo, hi) = if s.score <= s.alpha {
            (-64, s.score)
        } else if s.score >= s.beta {
            (s.score, 64)
        } else {
            (s.score, s.score)
        };
        let mut d = Data {
            lower: lo.clamp(-64, 64) as i8,
            upper: hi.clamp(-64, 64) as i8,
            depth: s.depth.min(255) as u8,
            selectivity: s.selectivity.min(255) as u8,
            best: s.best.map_or(NO_MOVE, |m| m as u8),
            age,
            tag,
        };
        let pair = self.bucket(b);
        // Same position: tighten the bounds if depth and selectivity agree, else keep the deeper.
        if let Some((slot, old)) = pair.iter().find_map(|s| s.read(b, tag, epoch).map(|o| (s, o))) {
            if (old.depth, old.selectivity) == (d.depth, d.selectivity) {
                let (l, u) = (old.lower.max(d.lower), old.upper.min(d.upper));
                if l <= u {
                    (d.lower, d.upper) = (l, u);
                }
            } else if (d.depth, d.selectivity) < (old.depth, old.selectivity) {
                return;
            }
            if d.best == NO_MOVE {
                d.best = old.best;
            }
            slot.write(b, d, epoch);
            return;
        }
        // Otherwise replace a stale or the shallower of the two slots.
        let (a0, a1) = (pair[0].peek(epoch), pair[1].peek(epoch));
        let victim = match (a0, a1) {
            (None, _) => 0,
            (_, None) => 1,
            (Some(x), Some(y)) => {
                if x.age != age || (y.age == age && x.depth <= y.depth) {
                    0
                } else {
                    1
                }
            }
        };
        pair[victim].write(b, d, epoch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_bounds() {
        let tt = TranspositionTable::new(1);
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

    /// Entries stored under a tag (a draw's value) answer probes with that tag only, and do
    /// not merge with another tag's entry for the same board.
    #[test]
    fn tags_keep_entries_apart() {
        let tt = TranspositionTable::new(1);
        let b = Board::START;
        let st = |score| Store {
            depth: 10,
            selectivity: 100,
            alpha: 0,
            beta: 1,
            score,
            best: None,
        };
        tt.store_tagged(&b, st(1), 1);
        assert!(tt.probe(&b).is_none());
        assert!(tt.probe_tagged(&b, 1u8.wrapping_neg()).is_none());
        assert_eq!(tt.probe_tagged(&b, 1).map(|h| h.lower), Some(1));
        tt.store(&b, st(-3));
        assert_eq!(tt.probe(&b).map(|h| (h.lower, h.upper)), Some((-64, -3)));
        assert_eq!(tt.probe_tagged(&b, 1).map(|h| (h.lower, h.upper)), Some((1, 64)));
    }

    /// A clear forgets every entry, through the 255 epochs and the zeroing after them, and
    /// an entry of an earlier epoch is an empty slot to the replacement.
    #[test]
    fn clear_forgets_entries_across_epochs() {
        let tt = TranspositionTable::new(1);
        let b = Board::START;
        let st = || Store {
            depth: 10,
            selectivity: 100,
            alpha: 0,
            beta: 1,
            score: 4,
            best: Some(19),
        };
        for round in 0..600 {
            tt.store(&b, st());
            assert!(tt.probe(&b).is_some(), "round {round}");
            tt.clear();
            assert!(tt.probe(&b).is_none(), "round {round}");
            let pair = tt.bucket(&b);
            let epoch = tt.epoch.load(Relaxed);
            assert!(epoch != 0 && pair.iter().all(|s| s.peek(epoch).is_none()), "round {round}");
        }
    }

    /// Two writes interleaved word by word: every mix of the three words that is not one
    /// whole write reads as a miss, for either board and for the boards mixed from both.
    #[test]
    fn torn_slots_read_as_misses() {
        let a = Board::START;
        let b = Board {
            player: 0x0000_0018_0800_0000,
            opponent: 0x0000_0000_1000_0000,
        };
        let da = Data {
            lower: -4,
            upper: 10,
            depth: 12,
            selectivity: 0,
            best: 19,
            age: 1,
            tag: 0,
        };
        let db = Data {
            lower: 6,
            best: 37,
            ..da
        };
        let (sa, sb) = (Slot::empty(), Slot::empty());
        sa.write(&a, da, 1);
        sb.write(&b, db, 1);
        let words = |s: &Slot| [s.player_x.load(Relaxed), s.opponent_x.load(Relaxed), s.data.load(Relaxed)];
        let (wa, wb) = (words(&sa), words(&sb));
        let mixed = [
            a,
            b,
            Board {
                player: a.player,
                opponent: b.opponent,
            },
            Board {
                player: b.player,
                opponent: a.opponent,
            },
        ];
        for pick in 0..8u32 {
            let w: Vec<u64> = (0..3).map(|i| if pick >> i & 1 == 0 { wa[i] } else { wb[i] }).collect();
            let torn = Slot::empty();
            torn.player_x.store(w[0], Relaxed);
            torn.opponent_x.store(w[1], Relaxed);
            torn.data.store(w[2], Relaxed);
            for board in &mixed {
                let expect = match pick {
                    0 if board == &a => Some(da),
                    7 if board == &b => Some(db),
                    _ => None,
                };
                assert_eq!(torn.read(board, 0, 1), expect, "words from b: {pick:03b}, board {board:?}");
            }
        }
    }
}
