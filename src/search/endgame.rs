//! Exact endgame solver (and win/loss/draw mode).
//!
//! PVS at the root and along the principal variation, null-window search everywhere else.
//! Above `shallow_max` empties: fastest-first ordering (fewest opponent replies), the table's
//! move first (searched before the others are ordered), transposition table (per-thread cache
//! just above `shallow_max`), stability cutoff, and an optional evaluation hook for ordering far
//! from the end. At `shallow_max` empties and below: no move list, squares tried in
//! quadrant-parity order, stability cutoff from 4 empties, the per-thread cache from 5.
//! The last empty square is scored by a flip count alone.

use super::busy::BusyTable;
use super::endcache::EndCache;
use super::endcut::EndCut;
use super::mpc;
use super::stack::Stack;
use super::tt::{Store, TranspositionTable};
use crate::base::{Isa, Kernel, OrderingEval};
use crate::board::bits::{self, Squares};
use crate::board::stability::stable_discs;
use crate::board::{Board, Square};
use crate::eval::incremental::{Deltas, Features, LANES};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Exact score or only win/loss/draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SolveMode {
    Exact,
    Wld,
}

#[derive(Clone, Debug)]
pub struct SolveResult {
    /// Exact score in discs (side to move's view); in WLD mode only its sign is meaningful
    /// (+2 or more = win, 0 = draw, -2 or less = loss) and it is normalised to -1/0/+1.
    pub score: i32,
    /// Best move (`Pass` when the side to move must pass); None when the game is over.
    pub best: Option<Square>,
    pub pv: Vec<Square>,
    pub nodes: u64,
    /// True when the stop flag interrupted the solve: the result is not to be trusted.
    pub aborted: bool,
}

/// Tunables of the solver, measured on the FFO set.
#[derive(Clone, Copy, Debug)]
pub struct SolverConfig {
    /// At or below this many empties: parity-ordered search without move list or TT.
    pub shallow_max: u32,
    /// At or above this many empties the TT is probed and stored (from 9 or 8 it saved nodes
    /// but its cache misses cost more time than they saved; see `ec_min`). From 11 rather
    /// than 10 (the cache holding 10): hard-20 quarter 159.5 M -> 161.8 M nodes but 1.026x
    /// faster (paired), the table's probes at 10 empties being cache misses.
    pub tt_min: u32,
    /// From this many empties to below `tt_min` the thread's own small cache (`endcache`)
    /// is probed and stored instead: its entries at 7 empties took 12 % off hard-20's nodes at
    /// no cost in time, where the shared table's took 13 % and slowed the solve.
    pub ec_min: u32,
    /// The parity search probes and stores the same cache from this many empties: 5.4 % fewer
    /// nodes on a quarter of hard-20, time 1-2 % better in paired runs (within the noise).
    pub shallow_cache_min: u32,
    /// At or above this many empties the ordering evaluation (if any) is used (from 12 rather
    /// than 14: 14 % fewer nodes on hard-20, and faster; from 11 fewer nodes still, slower).
    /// From 13 since the flips and the move picking got cheaper (fifty-fourth session): 5 %
    /// more nodes on the hard-20 quarter but 0.96x the time, FFO #40-#49 8.7 % more nodes
    /// and 0.90x the time (paired); from 14 slower again.
    pub eval_order_min: u32,
    /// The ordering search gains a ply every this many empties above `eval_order_min`.
    /// Every 4 rather than 3 (fifty-fourth session): FFO #50 and #51 (26-27 empties) 0.87x the
    /// time, FFO #40-#49 and the hard-20 quarter the same (paired): deep orderings at 25 and
    /// more empties cost more than their better order saved.
    pub eval_depth_step: u32,
    /// Weight of the ordering search's score (discs) against the reply count (1024 a reply).
    pub eval_weight: i32,
    /// At or above this many empties, parallel threads mark nodes and defer busy ones.
    pub busy_min: u32,
    /// At or above this many empties, enhanced transposition cutoff is tried: in the shared
    /// table for the children it holds, in the thread's cache for those below `tt_min`
    /// (from 8 rather than 10: 1.8 % fewer nodes on the hard-20 quarter, time within noise).
    pub etc_min: u32,
    /// Selective passes (confidence %, ascending) run before the exact one when an ordering
    /// evaluation is given and the root has at least `selective_root_min` empties: ProbCut
    /// on a shallow evaluation search finds the likely score and fills the TT with good moves
    /// cheaply, as Edax's iterated selectivity does. The final pass is always exact.
    /// From 18 empties rather than 22: the passes took 16 % off hard-20's nodes (20 empties).
    pub selective_passes: &'static [u32],
    pub selective_root_min: u32,
    /// ProbCut is tried in the selective passes at or above this many empties.
    pub probcut_min: u32,
    /// The fitted model those cuts test against.
    pub cut: &'static EndCut,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            shallow_max: 6,
            tt_min: 11,
            ec_min: 7,
            shallow_cache_min: 5,
            eval_order_min: 13,
            eval_depth_step: 4,
            eval_weight: 512,
            busy_min: 10,
            etc_min: 8,
            selective_passes: &[50, 80, 95],
            selective_root_min: 18,
            probcut_min: 10,
            cut: EndCut::active(),
        }
    }
}

/// State shared by one solve: TT, node counter, stop flag.
pub(crate) struct Ctx<'a> {
    pub tt: &'a TranspositionTable,
    pub nodes: u64,
    pub stop: &'a AtomicBool,
    /// Abort when this instant passes (time-limited searches).
    pub deadline: Option<Instant>,
    pub aborted: bool,
    pub eval: Option<&'a dyn OrderingEval>,
    pub cfg: SolverConfig,
    /// Shared "being searched" marks when several threads solve together.
    pub busy: Option<&'a BusyTable>,
    /// Confidence of this pass (`EXACT` = no forward pruning) and its cut threshold t.
    pub selectivity: u32,
    pub cut_t: f64,
    /// Set when a result under the current node rests on forward pruning: a ProbCut cut, or a
    /// bound a selective pass stored. A selective pass's node whose subtree set nothing has an
    /// exact result, and is stored as exact, for the passes after it to cut with (see
    /// `nws_moves`).
    pub pruned: bool,
    /// The pattern indices of the nodes on the current path, for their children.
    pub features: FeatureSlots,
    /// This thread's cache of the nodes below `tt_min` empties.
    pub ec: &'a mut EndCache,
}

/// In a selective pass every node past the cutoffs reads its pattern indices for ProbCut's
/// checks; from scratch they took 4.5 % of a level-17 solve's instructions at 25 empties.
/// So each such node keeps its indices and its board in the slot of its empties count, and a
/// child whose board is one move from the board in the slot above its own derives its indices
/// from there (`Features::play`, a few vector additions). A slot always holds a board with
/// that board's indices, so a stale slot is only a miss, never a wrong value. (Looked up by
/// the child rather than handed down by the parent: an argument, or a hand-off in the parent's
/// move loop, slowed the exact solver's every node by 1.5–2 %.)
pub(crate) struct FeatureSlots {
    at: [Slot; 62],
}

#[derive(Clone, Copy)]
struct Slot {
    f: Features,
    player: u64,
    opponent: u64,
}

impl FeatureSlots {
    pub fn new() -> FeatureSlots {
        let f = Features::new(Deltas::get(), &Board::new(0, 0));
        FeatureSlots {
            at: [Slot {
                f,
                player: 0,
                opponent: 0,
            }; 62],
        }
    }

    /// Fills slot n with (p, o) and its indices: from slot n + 1 where that holds the board
    /// (p, o) was reached from by one move, else from scratch.
    #[inline]
    fn fill(&mut self, p: u64, o: u64, n: u32) {
        let n = n as usize;
        let up = &self.at[n + 1];
        // A move from (up.player, up.opponent) gives (p, o): the mover's discs are now `o`,
        // the placed disc is the one new square, the flipped discs left `up.opponent` for `o`.
        let placed = (p | o) & !(up.player | up.opponent);
        let flips = up.opponent & !p;
        let f = if placed.count_ones() == 1 && up.opponent & p == p && o == up.player | flips | placed {
            up.f.play(Deltas::get(), placed.trailing_zeros() as usize, flips)
        } else {
            Features::new(Deltas::get(), &Board::new(p, o))
        };
        self.at[n] = Slot {
            f,
            player: p,
            opponent: o,
        };
    }
}

impl Ctx<'_> {
    /// Polled at high empties only: cheap enough, and a stop arrives within milliseconds.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if !self.aborted && (self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether this solve is to end, without marking it: for the ordering searches, which
    /// take `&Ctx` and only need to know that their work is no longer wanted.
    #[inline]
    fn stop_seen(&self) -> bool {
        self.aborted || self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The squares adjacent to each square: a move there can flip only if one holds an opponent.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut m = 0u64;
        let mut dy = -1;
        while dy <= 1 {
            let mut dx = -1;
            while dx <= 1 {
                let (nx, ny) = (x + dx, y + dy);
                if (dx != 0 || dy != 0) && nx >= 0 && nx < 8 && ny >= 0 && ny < 8 {
                    m |= 1u64 << (ny * 8 + nx);
                }
                dx += 1;
            }
            dy += 1;
        }
        t[sq] = m;
        sq += 1;
    }
    t
};

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// A square's quadrant as a bit of a 4-bit parity word (bit q: quadrant q of `QUADRANTS`,
/// column 4+ adding 1 and row 4+ adding 2, has an odd number of empties).
#[inline]
fn quadrant_bit(sq: usize) -> usize {
    1 << ((sq >> 2 & 1) | (sq >> 4 & 2))
}
/// The squares of the quadrants a parity word marks odd.
static ODD_SQUARES: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut w = 0;
    while w < 16 {
        let mut q = 0;
        while q < 4 {
            if w >> q & 1 != 0 {
                t[w] |= QUADRANTS[q];
            }
            q += 1;
        }
        w += 1;
    }
    t
};

/// The discs of `me` stable at the corners: each owned corner and the owned squares next to
/// it along the edges (a cheap lower bound of stability, for ordering).
#[inline]
fn corner_stability(me: u64) -> u32 {
    // Corners and their edge neighbours: A1 B1 A2, H1 G1 H2, A8 B8 A7, H8 G8 H7.
    let c = me & CORNERS;
    let next = ((c << 1) & 0x0200_0000_0000_0002)
        | ((c >> 1) & 0x4000_0000_0000_0040)
        | ((c << 8) & 0x0000_0000_0000_8100)
        | ((c >> 8) & 0x0081_0000_0000_0000);
    (c | (next & me)).count_ones()
}

/// A move list: (ordering key, square, flips), picked best first by `select` as the search
/// goes (a cut after the first moves leaves the rest unsorted).
type MoveList = Stack<(i32, u8, u64), 64>;

/// Swaps the best move of `list[i..]` into place `i` and returns it. The keys are unique
/// (`unique_key`), so the order the moves are picked in does not depend on how earlier swaps
/// left the rest. Returned from the registers it was swapped through: read back from the list
/// right after the swap's 16-byte write, its flips (an 8-byte read inside that write) waited
/// on the store (7 % of `nws_moves`' samples on that read): hard-20 quarter 5.25 -> 5.10 s,
/// FFO #40-#49 11.07 -> 10.89 s (paired, the same nodes).
// The swap written out (not `slice::swap`): the picked entry stays in the registers it was
// read into and is returned from there.
#[allow(clippy::manual_swap)]
#[inline(always)]
fn select(list: &mut [(i32, u8, u64)], i: usize) -> (i32, u8, u64) {
    // The best key kept in a register and both updates made conditional moves: a branch on
    // each comparison was mispredicted at every new maximum.
    let (mut best, mut key) = (i, list[i].0);
    for (j, m) in list.iter().enumerate().skip(i + 1) {
        let better = m.0 > key;
        best = if better { j } else { best };
        key = if better { m.0 } else { key };
    }
    let item = list[best];
    list[best] = list[i];
    list[i] = item;
    item
}

/// An ordering key made unique by the square: among equal keys the square earlier in Edax's
/// presorted order first (corners, ..., X-squares last; it was the lower square first):
/// hard-20 quarter 177.0 M -> 175.6 M nodes, FFO #40-#49 341.2 M -> 331.3 M and 0.965x the
/// time (paired), at the cost of a table lookup.
#[inline(always)]
fn unique_key(key: i32, sq: usize) -> i32 {
    key.saturating_mul(64).saturating_add(SQUARE_RANK[sq] as i32)
}

/// Edax's presorted order of the squares: corners, the centre's ring, the edges, the second
/// ring, C-squares, X-squares.
const PRESORTED: [usize; 64] = {
    const fn sq(name: &[u8; 2]) -> usize {
        (name[0] - b'a') as usize + 8 * (name[1] - b'1') as usize
    }
    let names: [&[u8; 2]; 64] = [
        b"a1", b"a8", b"h1", b"h8", b"c4", b"c5", b"d3", b"d6", b"e3", b"e6", b"f4", b"f5", b"c3", b"c6", b"f3", b"f6", b"a3",
        b"a6", b"c1", b"c8", b"f1", b"f8", b"h3", b"h6", b"a4", b"a5", b"d1", b"d8", b"e1", b"e8", b"h4", b"h5", b"b4", b"b5",
        b"d2", b"d7", b"e2", b"e7", b"g4", b"g5", b"b3", b"b6", b"c2", b"c7", b"f2", b"f7", b"g3", b"g6", b"a2", b"a7", b"b1",
        b"b8", b"g1", b"g8", b"h2", b"h7", b"b2", b"b7", b"g2", b"g7", b"d4", b"d5", b"e4", b"e5",
    ];
    let mut t = [0usize; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = sq(names[i]);
        i += 1;
    }
    t
};

/// Tie-break of equal ordering keys: the earlier a square in `PRESORTED`, the higher.
static SQUARE_RANK: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[PRESORTED[i]] = 63 - i as u8;
        i += 1;
    }
    t
};
/// Fastest-first key weights, against 1024 an opponent reply (a corner reply counts twice):
/// each empty square next to the mover's discs (the opponent's potential mobility); a move
/// into a quadrant of odd parity; each of the mover's discs stable at a corner after the
/// move. Measured on a quarter of hard-20 (every fourth position): the parity bonus took
/// 1.7 % off the nodes, the corner stability 6.8 %.
const POT_WEIGHT: i32 = 256;
const PARITY_WEIGHT: i32 = 512;
const CORNER_STABILITY_WEIGHT: i32 = 384;
/// The parity search tries the stability cutoff from this many empties: it took 29 % off
/// hard-20's nodes and 8 % off its time; from 3 empties the nodes went down 7 % more but
/// the time up 3.5 %.
const SHALLOW_STABILITY_MIN: u32 = 4;
/// ... and only where alpha is at least 2 n - 2 with n empties (Edax's thresholds at 4-6
/// empties take the same values): below that the cutoff seldom succeeds and computing the
/// stable discs costs more than the nodes it saves. Hard-20 quarter: 2.2 % more nodes,
/// 0.97x the time (paired A B A B x 5); alpha >= 2 n was as fast, 2 n + 4 slower, and the
/// same threshold above 6 empties no faster.
const SHALLOW_STABILITY_SLACK: i32 = 2;
/// ProbCut's checks (2- and 4-ply evaluation searches, most of the evaluation's time in a
/// solve) are searched only where the node's static evaluation lies within this many discs of
/// the bound they test: hard-20 quarter 0.980x the time (nodes +0.2 %), FFO #40-#49 0.981x
/// (nodes the same), paired; 6 discs took FFO #40-#49 to +3 % nodes and 1.028x.
const PROBCUT_PRETEST_MARGIN: i32 = 10;
/// Without an evaluation, a 3-ply mobility search orders moves from this many empties.
const MOBILITY_ORDER_MIN: u32 = 18;
/// The ordering search is not counted and does not poll the stop flag inside (a node skips the
/// ordering searches it has left once a stop is seen), so its depth is bounded:
/// 6 plies at most (reached at 32 empties), and 4 beyond 32 empties, where a solve is analysis
/// that runs until stopped (NBoard `set depth 60`, then `learn`). Uncapped, a node at 55 empties
/// took seconds to order and left `ping` unanswered; with 6 plies there, 20-45 ms.
const ORDER_DEPTH_MAX: u32 = 6;
const ORDER_DEPTH_FAR: u32 = 4;
const ORDER_FAR_FROM: u32 = 33;

/// The squares next to a corner: X-squares (diagonal) and C-squares (along the edges).
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// Within a parity group the parity search tries the other squares (corners among them)
/// before the C-squares, and the X-squares last, as Edax's presorted empties do, from
/// `SHALLOW_TIER_MIN` empties. Hard-20 quarter (with `SQUARE_RANK`) 175.6 M -> 167.0 M nodes,
/// FFO #40-#49 331.3 M -> 321.2 M, time the same (paired: 5.16 / 5.19 s, 11.49 / 11.55 s).
/// At 3 empties too: 166.3 M nodes on the quarter but 1.045x the time on FFO #40-#49 (its
/// children are the last two plies, where the order matters least). The squares of a group
/// are packed in tier order by `pext`: looping over the tiers one by one (six loops a node)
/// took 1.08x the time on the quarter.
const SHALLOW_TIER_MIN: u32 = 4;
const SHALLOW_TIERS: [u64; 3] = [!(X_SQUARES | C_SQUARES), C_SQUARES, X_SQUARES];
/// The evaluation searches (ProbCut's checks, the ordering searches) try corners first, then
/// the other squares, C-squares and X-squares last (they took the squares in order): a cut
/// comes sooner. Hard-20 quarter: 19 % fewer evaluated leaves in ProbCut's checks (6.03 M ->
/// 4.87 M), the same nodes, 5.18 -> 5.05 s (5 pairs); FFO #40-#49 12 % fewer leaves, time the
/// same (10.88 / 10.86 s, 4 pairs). A check's verdict does not depend on the order.
const EVAL_AB_TIERS: [u64; 4] = [CORNERS, !(CORNERS | X_SQUARES | C_SQUARES), C_SQUARES, X_SQUARES];
/// Where each tier starts in a packed word (see `nws_shallow_moves`).
const TIER_SHIFT: [u32; 3] = [
    0,
    SHALLOW_TIERS[0].count_ones(),
    SHALLOW_TIERS[0].count_ones() + SHALLOW_TIERS[1].count_ones(),
];
/// The square of each bit of a packed word: the tiers' squares, each tier in square order.
const TIERED: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    let mut tier = 0;
    while tier < 3 {
        let mut sq = 0;
        while sq < 64 {
            if SHALLOW_TIERS[tier] >> sq & 1 != 0 {
                t[i] = sq as u8;
                i += 1;
            }
            sq += 1;
        }
        tier += 1;
    }
    t
};

/// The bits of `x` under `mask`, packed to the low end (BMI2's `pext`), square by square.
#[inline(always)]
fn pext_soft(x: u64, mask: u64) -> u64 {
    let (mut r, mut bit) = (0, 1u64);
    for sq in Squares(mask) {
        if x >> sq & 1 != 0 {
            r |= bit;
        }
        bit <<= 1;
    }
    r
}

/// Each square for itself (a parity group below `SHALLOW_TIER_MIN` empties, not packed).
const IDENTITY: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// `pext_soft` in one instruction, for the copies compiled with BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
fn pext_bmi2(x: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(x, mask)
}

/// Instantiates the solver's recursive functions, each carrying the given attributes
/// (`#[target_feature]` for the fast copy). See `base::kernel`.
/// `$moves4` gives the legal moves of four positions at once, `$flips` the discs a move flips.
macro_rules! endgame_impl {
    ($moves4:path, $flips:path, $pext:path; $(#[$attr:meta])*) => {
        use super::*;

        /// The parity word (`quadrant_bit`) of a set of empty squares: the parity search
        /// tries the squares of odd quadrants first.
        $(#[$attr])*
        fn parity_word(empties: u64) -> usize {
            let mut w = 0;
            for (q, quadrant) in QUADRANTS.iter().enumerate() {
                w |= ((empties & quadrant).count_ones() as usize & 1) << q;
            }
            w
        }

        /// Score with one empty square `sq`; `p` to move, the opponent owns every other square.
        $(#[$attr])*
        fn solve_1(ctx: &mut Ctx, p: u64, sq: usize) -> i32 {
            ctx.nodes += 1;
            let pc = p.count_ones() as i32;
            let n = bits::last_flip_count(p, sq) as i32;
            if n > 0 {
                return 2 * (pc + n + 1) - 64;
            }
            let n2 = bits::last_flip_count(!p & !(1u64 << sq), sq) as i32;
            if n2 > 0 {
                return 2 * (pc - n2) - 64;
            }
            let d = 2 * pc - 63;
            if d > 0 { d + 1 } else { d - 1 }
        }

        /// Null-window search with the two empty squares of `empties` (no parity to order by).
        /// Fail-soft as `nws_shallow`.
        $(#[$attr])*
        fn solve_2(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, empties: u64) -> i32 {
            ctx.nodes += 1;
            let x1 = empties.trailing_zeros() as usize;
            let x2 = (empties & (empties - 1)).trailing_zeros() as usize;
            let mut best = -65;
            if NEIGHBOURS[x1] & o != 0 {
                let f = $flips(p, o, x1);
                if f != 0 {
                    best = -solve_1(ctx, o ^ f, x2);
                    if best > alpha {
                        return best;
                    }
                }
            }
            if NEIGHBOURS[x2] & o != 0 {
                let f = $flips(p, o, x2);
                if f != 0 {
                    return best.max(-solve_1(ctx, o ^ f, x1));
                }
            }
            if best != -65 {
                return best;
            }
            // No move: the opponent plays if it can (the pass is not a node of its own).
            let mut worst = 65;
            if NEIGHBOURS[x1] & p != 0 {
                let f = $flips(o, p, x1);
                if f != 0 {
                    worst = solve_1(ctx, p ^ f, x2);
                    if worst <= alpha {
                        return worst;
                    }
                }
            }
            if NEIGHBOURS[x2] & p != 0 {
                let f = $flips(o, p, x2);
                if f != 0 {
                    return worst.min(solve_1(ctx, p ^ f, x1));
                }
            }
            if worst != 65 {
                return worst;
            }
            Board::new(p, o).final_score()
        }

        /// Null-window search with 3..=shallow_max empties: parity order, no move list.
        /// Fail-soft: returns > alpha iff the true score is > alpha.
        $(#[$attr])*
        fn nws_shallow(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, empties: u64, n: u32, parity: usize) -> i32 {
            ctx.nodes += 1;
            if n >= SHALLOW_STABILITY_MIN
                && alpha >= 2 * n as i32 - SHALLOW_STABILITY_SLACK
                && 64 - 2 * o.count_ones() as i32 <= alpha
            {
                let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
                if bound <= alpha {
                    return bound;
                }
            }
            if n >= ctx.cfg.shallow_cache_min {
                if let Some(h) = ctx.ec.probe(p, o) {
                    if h.lower > alpha {
                        return h.lower;
                    }
                    if h.upper <= alpha {
                        return h.upper;
                    }
                }
                let s = nws_shallow_moves(ctx, p, o, alpha, empties, n, parity);
                ctx.ec.store(p, o, alpha, s, 64);
                return s;
            }
            nws_shallow_moves(ctx, p, o, alpha, empties, n, parity)
        }

        /// `nws_shallow` past its cutoffs: the moves.
        $(#[$attr])*
        fn nws_shallow_moves(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, empties: u64, n: u32, parity: usize) -> i32 {
            let mut best = -65;
            // Odd quadrants first; the parity word is kept move by move, not recounted.
            let odd = ODD_SQUARES[parity];
            let (first, second) = (empties & odd, empties & !odd);
            for group in [first, second] {
                // From `SHALLOW_TIER_MIN` empties the group's squares in tier order: bit i of
                // the packed word stands for square `TIERED[i]`.
                let (packed, map) = if n >= SHALLOW_TIER_MIN {
                    ($pext(group, SHALLOW_TIERS[0]) | $pext(group, SHALLOW_TIERS[1]) << TIER_SHIFT[1] | $pext(group, SHALLOW_TIERS[2]) << TIER_SHIFT[2], &TIERED)
                } else {
                    (group, &IDENTITY)
                };
                for i in Squares(packed) {
                    let sq = map[i] as usize;
                    if NEIGHBOURS[sq] & o == 0 {
                        continue;
                    }
                    let f = $flips(p, o, sq);
                    if f == 0 {
                        continue;
                    }
                    let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                    let s = if n == 3 {
                        -solve_2(ctx, np, no, -alpha - 1, empties ^ (1u64 << sq))
                    } else {
                        -nws_shallow(ctx, np, no, -alpha - 1, empties ^ (1u64 << sq), n - 1, parity ^ quadrant_bit(sq))
                    };
                    if s > best {
                        best = s;
                        if s > alpha {
                            return s;
                        }
                    }
                }
            }
            if best == -65 {
                // No move: pass if the opponent can move, else the game is over.
                if bits::moves(o, p) == 0 {
                    return Board::new(p, o).final_score();
                }
                ctx.nodes -= 1; // the pass is not a node of its own
                return -nws_shallow(ctx, o, p, -alpha - 1, empties, n, parity);
            }
            best
        }

        /// Fastest-first key of a move: fewest (corner-weighted) opponent replies first, then
        /// fewest empty squares next to our discs (the opponent's potential mobility).
        /// `indexed`: the parent's pattern indices and the move (square, flips) that gives the
        /// child, whenever the evaluation orders (`eval_order_min` empties and more).
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn order_key(ctx: &Ctx, np: u64, no: u64, replies: u64, n: u32, indexed: Option<(&Features, usize, u64)>, sq: usize, parity: usize) -> i32 {
            let mob = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            let pot = (bits::adjacent(no) & !(np | no)).count_ones() as i32;
            let mut key = -mob * 1024 - pot * POT_WEIGHT + CORNER_STABILITY_WEIGHT * corner_stability(no) as i32;
            if parity & quadrant_bit(sq) != 0 {
                key += PARITY_WEIGHT;
            }
            // Far from the end a shallow search orders better than the reply count.
            match (ctx.eval, indexed) {
                (Some(e), Some((parent, sq, flips))) => {
                    let d = if n >= ORDER_FAR_FROM {
                        ORDER_DEPTH_FAR
                    } else {
                        ((n - ctx.cfg.eval_order_min) / ctx.cfg.eval_depth_step).min(ORDER_DEPTH_MAX)
                    };
                    let deltas = Deltas::get();
                    let v = if d == 0 && replies != 0 {
                        // The cheap estimate (`lo > hi`): no layer for a one-leaf order.
                        // SAFETY: `play_me` gives the child's indices from its parent's.
                        unsafe {
                            e.evaluate_features_within(&Board::new(np, no), &parent.play_me(deltas, sq, flips), replies, 1, 0)
                        }
                    } else if d >= 2 && ctx.stop_seen() {
                        // Stopped: the order no longer matters (the next poll ends the solve),
                        // and a node's ordering searches could delay a `pong` by 100+ ms.
                        0
                    } else {
                        eval_ab_features(e, np, no, &parent.play(deltas, sq, flips), -65, 65, d)
                    };
                    key -= v * ctx.cfg.eval_weight;
                }
                (None, _) if n >= MOBILITY_ORDER_MIN => key -= mobility_search(np, no, 3) * 256,
                _ => {}
            }
            key
        }

        /// Fail-soft alpha-beta to `depth` plies on the evaluation (ordering far from the end).
        /// The position's pattern indices are computed once here and kept move by move below:
        /// from scratch at every leaf they took half of a 25-empties solve's instructions.
        $(#[$attr])*
        fn eval_ab(e: &dyn OrderingEval, p: u64, o: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
            if depth == 0 {
                return e.evaluate_with_moves_within(&Board::new(p, o), bits::moves(p, o), alpha, beta);
            }
            eval_ab_features(e, p, o, &Features::new(Deltas::get(), &Board::new(p, o)), alpha, beta, depth)
        }

        /// `eval_ab` from the position's pattern indices `f`.
        $(#[$attr])*
        fn eval_ab_features(e: &dyn OrderingEval, p: u64, o: u64, f: &Features, alpha: i32, beta: i32, depth: u32) -> i32 {
            eval_ab_killer(e, p, o, f, alpha, beta, depth, 0).0
        }

        /// `eval_ab_features` that tries the move `killer` (a bit; 0 for none) first where it is
        /// legal, and returns with its score the move that gave it (a bit; 0 for none): a
        /// sibling's refutation often refutes the next sibling too (the killer heuristic), and
        /// ProbCut's check tries the node's table move first. With both: hard-20 quarter
        /// 5.06 -> 5.02 s (5 pairs), FFO #40-#49 11.05 -> 10.96 s (3 pairs), the same nodes.
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn eval_ab_killer(e: &dyn OrderingEval, p: u64, o: u64, f: &Features, alpha: i32, beta: i32, depth: u32, killer: u64) -> (i32, u64) {
            if depth == 0 {
                return (eval_leaf(e, p, o, f.me(), alpha, beta), 0);
            }
            let m = bits::moves(p, o);
            if m == 0 {
                if bits::moves(o, p) == 0 {
                    return (Board::new(p, o).final_score(), 0);
                }
                return (-eval_ab_killer(e, o, p, &f.pass(), -beta, -alpha, depth - 1, 0).0, 0);
            }
            let d = Deltas::get();
            let mut alpha = alpha;
            let (mut best, mut best_move) = (-1000, 0);
            let mut child_killer = 0;
            // The killer, then corners first and X-squares last (`EVAL_AB_TIERS`): a cut
            // comes sooner.
            let k = killer & m;
            let rest = m ^ k;
            'tiers: for moves in [k, rest & EVAL_AB_TIERS[0], rest & EVAL_AB_TIERS[1], rest & EVAL_AB_TIERS[2], rest & EVAL_AB_TIERS[3]] {
                for sq in Squares(moves) {
                    let fl = $flips(p, o, sq);
                    let (cp, co) = (o ^ fl, p ^ fl ^ (1u64 << sq));
                    // A leaf needs only the side to move's view of its indices.
                    let s = if depth == 1 {
                        -eval_leaf(e, cp, co, &f.play_me(d, sq, fl), -beta, -alpha)
                    } else {
                        let (v, refutation) = eval_ab_killer(e, cp, co, &f.play(d, sq, fl), -beta, -alpha, depth - 1, child_killer);
                        child_killer = refutation;
                        -v
                    };
                    if s > best {
                        (best, best_move) = (s, 1u64 << sq);
                        if s > alpha {
                            alpha = s;
                            if s >= beta {
                                break 'tiers;
                            }
                        }
                    }
                }
            }
            (best, best_move)
        }

        /// The evaluation of `eval_ab`'s leaf (p, o) from its indices `me`.
        $(#[$attr])*
        fn eval_leaf(e: &dyn OrderingEval, p: u64, o: u64, me: &[u16; LANES], alpha: i32, beta: i32) -> i32 {
            // SAFETY: `me` holds the indices of (p, o): `eval_ab` computes them from scratch and
            // `eval_ab_features` keeps them with `play`/`play_me`/`pass` along real moves.
            unsafe { e.evaluate_features_within(&Board::new(p, o), me, bits::moves(p, o), alpha, beta) }
        }

        /// ProbCut of a selective pass: a shallow evaluation search v′ predicts the exact score
        /// v = a·v′ + b + e, e ~ N(0, σ²) (`endcut`); when the prediction clears the bound by
        /// t·σ, cut. `has`: slot n of `ctx.features` holds the node's indices.
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn probcut(ctx: &Ctx, p: u64, o: u64, alpha: i32, n: u32, has: bool, first: u64) -> Option<i32> {
            let e = ctx.eval?;
            let m = ctx.cfg.cut.at(n)?;
            let (hi, lo) = m.bounds(alpha, ctx.cut_t);
            let check = |a: i32, b: i32| {
                if has {
                    eval_ab_killer(e, p, o, &ctx.features.at[n as usize].f, a, b, m.check, first).0
                } else {
                    eval_ab(e, p, o, a, b, m.check)
                }
            };
            // The node's static evaluation first: a check whose bound lies more than
            // `PROBCUT_PRETEST_MARGIN` beyond it seldom cuts, and is not searched.
            let b = Board::new(p, o);
            let v0 = if has {
                // SAFETY: slot n of `ctx.features` holds the indices of (p, o) (`has`).
                unsafe { e.evaluate_features_within(&b, ctx.features.at[n as usize].f.me(), bits::moves(p, o), 1, 0) }
            } else {
                eval_ab(e, p, o, -1000, 1000, 0)
            };
            if hi <= 64 && v0 >= hi - PROBCUT_PRETEST_MARGIN && check(hi - 1, hi) >= hi {
                return Some(alpha + 1);
            }
            if lo >= -64 && v0 <= lo + PROBCUT_PRETEST_MARGIN && check(lo, lo + 1) <= lo {
                return Some(alpha);
            }
            None
        }

        /// Whether a node of `n` empties keeps its pattern indices in `ctx.features`: in a
        /// selective pass, from ProbCut's first empties (see `FeatureSlots`). Exact passes read
        /// them only to order moves, at fewer nodes: computed there.
        $(#[$attr])*
        #[inline]
        fn wants_features(ctx: &Ctx, n: u32) -> bool {
            ctx.selectivity < EXACT && ctx.eval.is_some() && n > ctx.cfg.shallow_max && n >= ctx.cfg.probcut_min
        }

        /// Negamax to `depth` plies on corner-weighted mobility difference: a cheap stand-in
        /// for an evaluation when none is given.
        $(#[$attr])*
        fn mobility_search(p: u64, o: u64, depth: u32) -> i32 {
            let m = bits::moves(p, o);
            if depth == 0 {
                let r = bits::moves(o, p);
                return (m.count_ones() + (m & CORNERS).count_ones()) as i32 - (r.count_ones() + (r & CORNERS).count_ones()) as i32;
            }
            if m == 0 {
                return -mobility_search(o, p, depth - 1);
            }
            let mut best = -1000;
            for sq in Squares(m) {
                let f = $flips(p, o, sq);
                best = best.max(-mobility_search(o ^ f, p ^ f ^ (1u64 << sq), depth - 1));
            }
            best
        }

        /// Child search dispatch by number of empties.
        $(#[$attr])*
        fn nws_child(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
            match n {
                0 => Board::new(p, o).final_score(),
                1 => {
                    let sq = (!(p | o)).trailing_zeros() as usize;
                    solve_1(ctx, p, sq)
                }
                2 => solve_2(ctx, p, o, alpha, !(p | o)),
                n if n <= ctx.cfg.shallow_max => {
                    let e = !(p | o);
                    nws_shallow(ctx, p, o, alpha, e, n, parity_word(e))
                }
                n => nws_mid(ctx, p, o, alpha, n),
            }
        }

        /// Move list with its ordering keys (unsorted: `select` picks from it): (key, square,
        /// flips). `has`: slot n of `ctx.features` holds the node's indices.
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn scored_moves(ctx: &Ctx, p: u64, o: u64, moves: u64, tt_move: Option<usize>, n: u32, list: &mut MoveList, has: bool) {
            // The parent's pattern indices, once, where the evaluation orders the children.
            let own;
            let parent = match ctx.eval {
                Some(_) if n >= ctx.cfg.eval_order_min => {
                    if has {
                        Some(&ctx.features.at[n as usize].f)
                    } else {
                        own = Features::new(Deltas::get(), &Board::new(p, o));
                        Some(&own)
                    }
                }
                _ => None,
            };
            let parity = parity_word(!(p | o));
            // Children in batches of four: their replies come from one (vectorised) call.
            let mut rest = moves;
            while rest != 0 {
                // Four places filled without a branch, so the four children stay in registers
                // on their way into one vector: filled under a loop's exits they went through
                // memory, and the vector read of the four scalar writes waited on a failed
                // store forwarding (9 % of this function's samples). A place past the moves
                // holds square 0's (junk) child, whose replies are not read.
                let lowest = |x: u64| x & x.wrapping_neg();
                let b0 = lowest(rest);
                let b1 = lowest(rest ^ b0);
                let b2 = lowest(rest ^ b0 ^ b1);
                let b3 = lowest(rest ^ b0 ^ b1 ^ b2);
                let placed = [b0, b1, b2, b3];
                rest ^= b0 | b1 | b2 | b3;
                let k = placed.iter().filter(|&&b| b != 0).count();
                let sqs = placed.map(|b| b.trailing_zeros() as usize & 63);
                let fs = [$flips(p, o, sqs[0]), $flips(p, o, sqs[1]), $flips(p, o, sqs[2]), $flips(p, o, sqs[3])];
                let cp = [o ^ fs[0], o ^ fs[1], o ^ fs[2], o ^ fs[3]];
                let co = [p ^ fs[0] ^ placed[0], p ^ fs[1] ^ placed[1], p ^ fs[2] ^ placed[2], p ^ fs[3] ^ placed[3]];
                let replies = $moves4(&cp, &co);
                for i in 0..k {
                    let key = if Some(sqs[i]) == tt_move {
                        i32::MAX
                    } else {
                        order_key(ctx, cp[i], co[i], replies[i], n, parent.map(|f| (f, sqs[i], fs[i])), sqs[i], parity)
                    };
                    list.push((unique_key(key, sqs[i]), sqs[i] as u8, fs[i]));
                }
            }
        }

        /// Enhanced transposition cutoff: a child whose stored upper bound already proves
        /// a score above alpha cuts before any child is searched. Returns the score and whether
        /// the bound came from a selective pass (`Ctx::pruned`).
        $(#[$attr])*
        fn etc(ctx: &Ctx, p: u64, o: u64, moves: u64, alpha: i32, n: u32) -> Option<(i32, bool)> {
            if n - 1 < ctx.cfg.tt_min {
                // The children are below the shared table's empties: their bounds are in this
                // thread's cache, not in the table. (Probing the table there, as ETC at 10
                // empties once did, cost a cache miss a child and found nothing.)
                if n - 1 < ctx.cfg.ec_min {
                    return None;
                }
                // All the children's slots are requested first so their cache misses (the
                // cache is larger than the core's own) overlap: 1.6 % faster, paired.
                let mut children: Stack<(u64, u64), 64> = Stack::new();
                for sq in Squares(moves) {
                    let f = $flips(p, o, sq);
                    let c = (o ^ f, p ^ f ^ (1u64 << sq));
                    ctx.ec.prefetch(c.0, c.1);
                    children.push(c);
                }
                for &(cp, co) in children.as_slice() {
                    if let Some(h) = ctx.ec.probe(cp, co)
                        && -h.upper > alpha
                    {
                        // The thread's cache holds exact bounds only.
                        return Some((-h.upper, false));
                    }
                }
                return None;
            }
            // All the children's buckets are requested first so their cache misses overlap.
            let mut children: Stack<Board, 64> = Stack::new();
            for sq in Squares(moves) {
                let f = $flips(p, o, sq);
                let child = Board::new(o ^ f, p ^ f ^ (1u64 << sq));
                ctx.tt.prefetch(&child);
                children.push(child);
            }
            for child in children.as_slice() {
                if let Some(h) = ctx.tt.probe(child)
                    && h.depth == n - 1
                    && h.selectivity >= ctx.selectivity
                    && -h.upper > alpha
                {
                    return Some((-h.upper, h.selectivity < EXACT));
                }
            }
            None
        }

        /// Null-window search above `shallow_max` empties.
        $(#[$attr])*
        fn nws_mid(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
            ctx.nodes += 1;
            if n >= 14 && ctx.should_stop() {
                return alpha;
            }
            let moves = bits::moves(p, o);
            if moves == 0 {
                if bits::moves(o, p) == 0 {
                    return Board::new(p, o).final_score();
                }
                ctx.nodes -= 1;
                return -nws_mid(ctx, o, p, -alpha - 1, n);
            }
            // Stable discs bound the score by 64 - 2 * stable(o), and o's disc count bounds those.
            if 64 - 2 * o.count_ones() as i32 <= alpha {
                let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
                if bound <= alpha {
                    return bound;
                }
            }
            let board = Board::new(p, o);
            let use_tt = n >= ctx.cfg.tt_min;
            let mut tt_move = None;
            if use_tt && let Some(h) = ctx.tt.probe(&board) {
                if h.depth == n && h.selectivity >= ctx.selectivity {
                    if h.lower > alpha {
                        ctx.pruned |= h.selectivity < EXACT;
                        return h.lower;
                    }
                    if h.upper <= alpha {
                        ctx.pruned |= h.selectivity < EXACT;
                        return h.upper;
                    }
                }
                tt_move = h.best;
            } else if !use_tt && n >= ctx.cfg.ec_min && let Some(h) = ctx.ec.probe(p, o) {
                if h.lower > alpha {
                    return h.lower;
                }
                if h.upper <= alpha {
                    return h.upper;
                }
                tt_move = (h.best < 64).then_some(h.best);
            }
            let has = wants_features(ctx, n);
            if has {
                ctx.features.fill(p, o, n);
                debug_assert!(ctx.features.at[n as usize].f == Features::new(Deltas::get(), &board), "derived indices differ");
            }
            if ctx.selectivity < EXACT
                && n >= ctx.cfg.probcut_min
                && let Some(s) = probcut(ctx, p, o, alpha, n, has, tt_move.map_or(0, |t| 1u64 << t))
            {
                ctx.pruned = true;
                return s;
            }
            // Parallel search: mark the node before its costly part (ETC, ordering) so another
            // thread meeting it as a younger brother puts it off.
            match ctx.busy.filter(|_| n >= ctx.cfg.busy_min) {
                Some(t) => {
                    let key = BusyTable::key(&board);
                    t.enter(key);
                    let s = nws_moves(ctx, p, o, alpha, n, moves, tt_move, has);
                    t.leave(key);
                    s
                }
                None => nws_moves(ctx, p, o, alpha, n, moves, tt_move, has),
            }
        }

        /// The part of `nws_mid` after the TT probe: ETC, then the moves; stores the result.
        /// `has`: slot n of `ctx.features` holds the node's indices.
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn nws_moves(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, n: u32, moves: u64, tt_move: Option<usize>, has: bool) -> i32 {
            if n >= ctx.cfg.etc_min
                && let Some((s, pruned)) = etc(ctx, p, o, moves, alpha, n)
            {
                ctx.pruned |= pruned;
                return s;
            }
            // Whether this node's subtree prunes, apart from what its elder siblings' did; per
            // child: a fail high's lower bound rests on the child that cut alone.
            let outer = std::mem::replace(&mut ctx.pruned, false);
            let (mut any_pruned, mut cut_pruned) = (false, false);
            let mut best = -65;
            let mut best_move = None;
            // The table's move first, before the others are ordered: when it cuts (as it
            // mostly does) their ordering (replies, evaluation searches) is not paid for.
            let mut rest = moves;
            if let Some(t) = tt_move.filter(|&t| moves >> t & 1 != 0) {
                let f = $flips(p, o, t);
                best = -nws_child(ctx, o ^ f, p ^ f ^ (1u64 << t), -alpha - 1, n - 1);
                if ctx.aborted {
                    return alpha;
                }
                (any_pruned, cut_pruned) = (ctx.pruned, ctx.pruned);
                best_move = Some(t);
                rest ^= 1u64 << t;
            }
            let mut list = MoveList::new();
            if best <= alpha && rest != 0 {
                if rest & (rest - 1) == 0 {
                    // One move left: nothing to order (its key, replies and evaluation
                    // searches included, would be computed for nothing).
                    let sq = rest.trailing_zeros() as usize;
                    list.push((0, sq as u8, $flips(p, o, sq)));
                } else {
                    scored_moves(ctx, p, o, rest, None, n, &mut list, has);
                }
            }
            // Younger brothers another thread is searching are put off to a second pass.
            let busy = ctx.busy.filter(|_| n > ctx.cfg.busy_min);
            let eldest = if best_move.is_some() { usize::MAX } else { 0 };
            let mut deferred = 0u64;
            'passes: for pass in 0..2 {
                for i in 0..list.as_slice().len() {
                    if pass == 1 && deferred >> i & 1 == 0 {
                        continue;
                    }
                    // Pass 0 picks every place in order; pass 1 revisits places it filled.
                    let (_, sq, f) = if pass == 0 { select(list.as_mut_slice(), i) } else { list.as_slice()[i] };
                    let sq = sq as usize;
                    let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                    if pass == 0 && i != eldest && busy.is_some_and(|t| t.is_busy(BusyTable::key(&Board::new(np, no)))) {
                        deferred |= 1 << i;
                        continue;
                    }
                    ctx.pruned = false;
                    let s = -nws_child(ctx, np, no, -alpha - 1, n - 1);
                    if ctx.aborted {
                        return alpha;
                    }
                    any_pruned |= ctx.pruned;
                    if s > best {
                        best = s;
                        best_move = Some(sq);
                        if s > alpha {
                            cut_pruned = ctx.pruned;
                            break 'passes;
                        }
                    }
                }
                if deferred == 0 {
                    break;
                }
            }
            // A subtree of a selective pass without a ProbCut cut or a selective bound in it
            // gave an exact result: stored as exact, the passes after this one (the exact one
            // above all) cut with it where they met only a selective bound before. Hard-20
            // quarter 167.0 M -> 160.6 M nodes, FFO #40-#49 321.2 M -> 316.4 M; with the cutting
            // child alone deciding a fail high: 159.2 M, 316.2 M.
            let pruned = if best > alpha { cut_pruned } else { any_pruned };
            let selectivity = if pruned { ctx.selectivity } else { EXACT };
            ctx.pruned = outer | pruned;
            if n >= ctx.cfg.tt_min {
                ctx.tt.store(
                    &Board::new(p, o),
                    Store { depth: n, selectivity, alpha, beta: alpha + 1, score: best, best: best_move },
                );
            } else if n >= ctx.cfg.ec_min && selectivity == EXACT {
                // The cache holds exact results only (below ProbCut's first empties every
                // result of a selective pass is).
                ctx.ec.store(p, o, alpha, best, best_move.unwrap_or(64));
            }
            best
        }

        /// Principal-variation search with window (alpha, beta); fills `pv` when the score is
        /// inside the window.
        $(#[$attr])*
        fn pvs(ctx: &mut Ctx, p: u64, o: u64, alpha: i32, beta: i32, n: u32, pv: &mut Vec<Square>) -> i32 {
            ctx.nodes += 1;
            pv.clear();
            // Polled as in `nws_mid`: down the PV each node orders its moves before any child
            // polls, and a stopped WLD pass (window too narrow for the probes) starts here.
            if n >= 14 && ctx.should_stop() {
                return alpha;
            }
            let moves = bits::moves(p, o);
            if moves == 0 {
                if bits::moves(o, p) == 0 {
                    return Board::new(p, o).final_score();
                }
                let mut child = Vec::new();
                let s = -pvs(ctx, o, p, -beta, -alpha, n, &mut child);
                pv.push(Square::Pass);
                pv.extend(child);
                return s;
            }
            let board = Board::new(p, o);
            let tt_move = ctx.tt.probe(&board).and_then(|h| h.best);
            // Kept for the children, whose ProbCut checks read theirs.
            let has = wants_features(ctx, n);
            if has {
                ctx.features.fill(p, o, n);
            }
            let mut list = MoveList::new();
            scored_moves(ctx, p, o, moves, tt_move, n, &mut list, has);
            let alpha0 = alpha;
            let mut alpha = alpha;
            let mut best = -65;
            let mut best_move = None;
            let mut child = Vec::new();
            for i in 0..list.as_slice().len() {
                let (_, sq, f) = select(list.as_mut_slice(), i);
                let sq = sq as usize;
                let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
                let mut s;
                if i == 0 {
                    s = -pvs(ctx, np, no, -beta, -alpha, n - 1, &mut child);
                } else {
                    // Without a re-search the child's line is unknown: no stale PV.
                    child.clear();
                    s = -nws_child(ctx, np, no, -alpha - 1, n - 1);
                    if s > alpha && s < beta && !ctx.aborted {
                        s = -pvs(ctx, np, no, -beta, -alpha, n - 1, &mut child);
                    }
                }
                if ctx.aborted {
                    return best.max(alpha);
                }
                if s > best {
                    best = s;
                    best_move = Some(sq);
                    pv.clear();
                    pv.push(Square::At(sq as u8));
                    pv.extend(child.iter().copied());
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
            ctx.tt.store(
                &board,
                Store { depth: n, selectivity: ctx.selectivity, alpha: alpha0, beta, score: best, best: best_move },
            );
            best
        }

        /// The ProbCut check search, for fitting its model. Safety: as `root`.
        #[allow(unused_unsafe)]
        $(#[$attr])*
        pub(in crate::search) unsafe fn eval_search(e: &dyn OrderingEval, b: Board, depth: u32) -> i32 {
            eval_ab(e, b.player, b.opponent, -1000, 1000, depth)
        }

        /// `eval_ab` with a window, for the tests. Safety: as `root`.
        #[cfg(test)]
        #[allow(unused_unsafe)]
        $(#[$attr])*
        pub(in crate::search) unsafe fn eval_window(e: &dyn OrderingEval, b: Board, alpha: i32, beta: i32, depth: u32) -> i32 {
            eval_ab(e, b.player, b.opponent, alpha, beta, depth)
        }

        /// Null-window entry (is the score above `alpha`?). Safety: as `root`.
        #[allow(unused_unsafe)]
        $(#[$attr])*
        pub(in crate::search) unsafe fn null_window(ctx: &mut Ctx, b: Board, alpha: i32) -> i32 {
            nws_child(ctx, b.player, b.opponent, alpha, b.empty_count())
        }

        /// Entry point. Safety: the caller checked that the CPU has this copy's features.
        #[allow(unused_unsafe)]
        $(#[$attr])*
        pub(in crate::search) unsafe fn root(ctx: &mut Ctx, b: Board, alpha: i32, beta: i32, guess: i32, pv: &mut Vec<Square>) -> i32 {
            let n = b.empty_count();
            // Null-window probes (as MTD(f)) narrow [lo, hi] around the guess; the TT they fill
            // makes the final PV search within the narrowed window cheap.
            let (mut lo, mut hi) = (alpha, beta);
            let mut g = guess;
            while hi - lo > 2 && n > ctx.cfg.shallow_max {
                g = g.clamp(lo + 1, hi - 1);
                // Odd probes suit the even exact scores; never at `lo`, which could not narrow
                // the window (selective passes return scores of either parity).
                let t = if g % 2 == 0 { g - 1 } else { g }.max(lo + 1);
                let s = nws_mid(ctx, b.player, b.opponent, t, n);
                if ctx.aborted {
                    return s;
                }
                if s > t {
                    lo = lo.max(s - 1);
                    g = s + 1;
                } else {
                    hi = hi.min(s + 1);
                    g = s - 1;
                }
            }
            pvs(ctx, b.player, b.opponent, lo, hi, n, pv)
        }
    };
}

/// Selectivity value recorded for exact results (no forward pruning).
pub const EXACT: u32 = 100;

mod portable {
    endgame_impl!(crate::board::bits::moves_x4, crate::board::bits::flips, super::pext_soft;);
}

#[cfg(target_arch = "x86_64")]
mod x86v3 {
    // The whole copy is compiled with AVX2, and its flips and batched move generation are the
    // hand-written AVX2 routines (see `base::kernel`).
    endgame_impl!(crate::board::bits::moves_x4_avx2, crate::board::bits::flips_avx2, super::pext_bmi2; #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);
}

/// The x86-64-v3 copy with AVX-512's leading-zero count in the flips (`bits::flips_avx512`),
/// for CPUs where `Kernel::lzcnt_wide` holds.
#[cfg(target_arch = "x86_64")]
mod x86v4 {
    endgame_impl!(crate::board::bits::moves_x4_avx2, crate::board::bits::flips_avx512, super::pext_bmi2; #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512vl,avx512cd")]);
}

/// The solver: owns its TT; one solve at a time.
pub struct Solver {
    /// Shared with the other threads of a parallel search.
    pub tt: Arc<TranspositionTable>,
    pub(crate) kernel: Kernel,
    pub config: SolverConfig,
    /// Threads of one solve (1: no helpers).
    pub threads: usize,
}

impl Solver {
    pub fn new(hash_mb: usize) -> Solver {
        Solver::with_table(Arc::new(TranspositionTable::new(hash_mb)))
    }

    /// A solver using an existing (shared) table.
    pub fn with_table(tt: Arc<TranspositionTable>) -> Solver {
        Solver {
            tt,
            kernel: Kernel::detect(),
            config: SolverConfig::default(),
            threads: 1,
        }
    }

    /// Solves `b` exactly (or WLD). `stop` aborts the solve (`aborted` is then set).
    pub fn solve(&mut self, b: &Board, mode: SolveMode, eval: Option<&dyn OrderingEval>, stop: &AtomicBool) -> SolveResult {
        self.solve_with(
            b,
            &SolveParams {
                mode,
                guess: 0,
                eval,
                deadline: None,
                selectivity: EXACT,
            },
            stop,
        )
    }

    /// Exact solve ordered by `eval`, its first window centred on the evaluation of `b` — how
    /// the data tools solve self-play positions.
    pub fn solve_exact_guided(&mut self, b: &Board, eval: &dyn OrderingEval, stop: &AtomicBool) -> SolveResult {
        self.solve_with(
            b,
            &SolveParams {
                mode: SolveMode::Exact,
                guess: eval.evaluate(b),
                eval: Some(eval),
                deadline: None,
                selectivity: EXACT,
            },
            stop,
        )
    }

    /// Null-window exact test: a fail-soft score, above `alpha` iff the true score is. The TT is
    /// kept from earlier calls (a midgame search calls this at many leaves).
    pub fn null_window(
        &mut self,
        b: &Board,
        alpha: i32,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        busy: Option<&BusyTable>,
    ) -> SolveResult {
        EndCache::with(|ec| self.null_window_in(b, alpha, stop, deadline, busy, ec))
    }

    fn null_window_in(
        &self,
        b: &Board,
        alpha: i32,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        busy: Option<&BusyTable>,
        ec: &mut EndCache,
    ) -> SolveResult {
        let mut ctx = Ctx {
            tt: &self.tt,
            nodes: 0,
            stop,
            deadline,
            aborted: false,
            eval: None,
            cfg: self.config,
            busy,
            selectivity: EXACT,
            cut_t: 0.0,
            pruned: false,
            features: FeatureSlots::new(),
            ec,
        };
        // SAFETY: `Kernel::detect` verified the CPU features of the x86 copy.
        let score = match self.kernel.isa() {
            Isa::Portable => unsafe { portable::null_window(&mut ctx, *b, alpha) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 if self.kernel.lzcnt_wide() => unsafe { x86v4::null_window(&mut ctx, *b, alpha) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { x86v3::null_window(&mut ctx, *b, alpha) },
        };
        SolveResult {
            score,
            best: None,
            pv: Vec::new(),
            nodes: ctx.nodes,
            aborted: ctx.aborted,
        }
    }

    /// Solves with a first guess of the score (e.g. a midgame search's) and an optional deadline.
    /// With `threads` > 1 every thread solves the root over the shared TT and busy marks; the
    /// calling thread's result is the answer.
    pub fn solve_with(&mut self, b: &Board, params: &SolveParams, stop: &AtomicBool) -> SolveResult {
        self.tt.new_search();
        if self.threads <= 1 {
            return self.root_search(b, params, stop, None);
        }
        let busy = BusyTable::new(16);
        let done = AtomicBool::new(false);
        let this = &*self;
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..this.threads)
                .map(|_| scope.spawn(|| this.root_search(b, params, &done, Some(&busy)).nodes))
                .collect();
            let mut r = this.root_search(b, params, stop, Some(&busy));
            done.store(true, Ordering::Relaxed);
            r.nodes += helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum::<u64>();
            r
        })
    }

    /// `solve_with` on this thread alone, whatever `threads` says: for solves inside a
    /// searched tree, where starting threads and a busy table for every PV node that reaches
    /// the solve depth cost more than the small solve gains (the midgame's helper threads are
    /// already busy with the tree's split points).
    pub fn solve_alone(&mut self, b: &Board, params: &SolveParams, stop: &AtomicBool) -> SolveResult {
        self.tt.new_search();
        self.root_search(b, params, stop, None)
    }

    /// One thread's search of the root.
    fn root_search(&self, b: &Board, params: &SolveParams, stop: &AtomicBool, busy: Option<&BusyTable>) -> SolveResult {
        // Cleared for each solve, so that a solve's node count does not depend on the solves
        // before it on this thread (768 KiB: tens of microseconds).
        EndCache::with(|ec| {
            ec.clear();
            self.root_search_in(b, params, stop, busy, ec)
        })
    }

    fn root_search_in(
        &self,
        b: &Board,
        params: &SolveParams,
        stop: &AtomicBool,
        busy: Option<&BusyTable>,
        ec: &mut EndCache,
    ) -> SolveResult {
        let (alpha, beta) = match params.mode {
            SolveMode::Exact => (-65, 65),
            SolveMode::Wld => (-1, 1),
        };
        let mut ctx = Ctx {
            tt: &self.tt,
            nodes: 0,
            stop,
            deadline: params.deadline,
            aborted: false,
            eval: params.eval,
            cfg: self.config,
            busy,
            selectivity: EXACT,
            cut_t: 0.0,
            pruned: false,
            features: FeatureSlots::new(),
            ec,
        };
        let mut pv = Vec::new();
        let mut guess = params.guess;
        // A probable solve (selectivity below 100 %) needs the evaluation for its cuts.
        let last = if params.eval.is_some() {
            params.selectivity.min(EXACT)
        } else {
            EXACT
        };
        if params.eval.is_some() && (b.empty_count() >= self.config.selective_root_min || last < EXACT) {
            for &percent in self.config.selective_passes.iter().filter(|&&p| p < last) {
                let Some(t) = mpc::threshold(percent) else { continue };
                (ctx.selectivity, ctx.cut_t) = (percent, t);
                guess = self.root_pass(&mut ctx, b, alpha, beta, guess, &mut pv);
            }
        }
        (ctx.selectivity, ctx.cut_t) = (last, mpc::threshold(last).unwrap_or(0.0));
        let score = self.root_pass(&mut ctx, b, alpha, beta, guess, &mut pv);
        let score = match params.mode {
            SolveMode::Exact => score,
            SolveMode::Wld => score.signum(),
        };
        SolveResult {
            score,
            best: pv.first().copied(),
            pv,
            nodes: ctx.nodes,
            aborted: ctx.aborted,
        }
    }
}

impl Solver {
    /// The `depth`-ply evaluation search the selective passes' ProbCut checks with.
    pub fn eval_search(&self, b: &Board, eval: &dyn OrderingEval, depth: u32) -> i32 {
        // SAFETY: `Kernel::detect` verified the CPU features of the x86 copy.
        match self.kernel.isa() {
            Isa::Portable => unsafe { portable::eval_search(eval, *b, depth) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 if self.kernel.lzcnt_wide() => unsafe { x86v4::eval_search(eval, *b, depth) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { x86v3::eval_search(eval, *b, depth) },
        }
    }

    /// One pass of the root search at the selectivity set in `ctx`.
    fn root_pass(&self, ctx: &mut Ctx, b: &Board, alpha: i32, beta: i32, guess: i32, pv: &mut Vec<Square>) -> i32 {
        // SAFETY: `Kernel::detect` verified the CPU features of the x86 copy.
        match self.kernel.isa() {
            Isa::Portable => unsafe { portable::root(ctx, *b, alpha, beta, guess, pv) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 if self.kernel.lzcnt_wide() => unsafe { x86v4::root(ctx, *b, alpha, beta, guess, pv) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { x86v3::root(ctx, *b, alpha, beta, guess, pv) },
        }
    }
}

/// Options of one solve beyond the position.
pub struct SolveParams<'a> {
    pub mode: SolveMode,
    /// Expected score: the null-window probes start there.
    pub guess: i32,
    pub eval: Option<&'a dyn OrderingEval>,
    pub deadline: Option<Instant>,
    /// Confidence of the last pass in percent: `EXACT` proves the result; below it the solve is
    /// probable (ProbCut against the evaluation, as NTest's and Edax's selective endgames).
    pub selectivity: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_position;

    #[test]
    fn square_ranks_are_a_permutation() {
        // Unique keys need every square's tie-break to differ.
        let mut seen = 0u64;
        for &r in SQUARE_RANK.iter() {
            seen |= 1u64 << r;
        }
        assert_eq!(seen, u64::MAX);
        assert!(SQUARE_RANK[0] > SQUARE_RANK[9], "a1 before b2");
    }

    #[test]
    fn tiered_squares_are_a_permutation_and_both_pexts_agree() {
        let mut seen = 0u64;
        for &sq in TIERED.iter() {
            seen |= 1u64 << sq;
        }
        assert_eq!(seen, u64::MAX);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x = x.rotate_left(17).wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x1234_5678;
            let g = x & x.rotate_left(29);
            // Packing a group and reading it back through `TIERED` gives the group again.
            let packed = pext_soft(g, SHALLOW_TIERS[0])
                | pext_soft(g, SHALLOW_TIERS[1]) << TIER_SHIFT[1]
                | pext_soft(g, SHALLOW_TIERS[2]) << TIER_SHIFT[2];
            assert_eq!(Squares(packed).map(|i| 1u64 << TIERED[i]).fold(0, |a, b| a | b), g);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                for m in SHALLOW_TIERS {
                    // SAFETY: the CPU has BMI2 (checked above).
                    assert_eq!(unsafe { pext_bmi2(g, m) }, pext_soft(g, m));
                }
            }
        }
    }

    #[test]
    fn quadrant_bit_names_the_quadrant_that_holds_the_square() {
        for sq in 0..64 {
            let q = quadrant_bit(sq).trailing_zeros() as usize;
            assert!(QUADRANTS[q] >> sq & 1 != 0, "square {sq}");
        }
    }

    /// A slot's indices are the scratch indices of its board whether they were derived from
    /// the slot above (one move away) or computed because the slot above is unrelated (a
    /// stale slot, a pass).
    #[test]
    fn feature_slots_derive_a_childs_indices_and_never_a_wrong_one() {
        let d = Deltas::get();
        let mut slots = FeatureSlots::new();
        let mut seed = 7u64;
        let (mut derived, mut fresh) = (0, 0);
        for game in 0..200u32 {
            let b = crate::board::random_game(&mut seed, 12 + game % 40);
            let n = b.empty_count();
            // The parent in slot n, then each child in slot n - 1, as the solver fills them.
            slots.fill(b.player, b.opponent, n);
            assert!(slots.at[n as usize].f == Features::new(d, &b));
            for sq in Squares(b.moves()) {
                let Some(c) = b.play(sq) else { continue };
                slots.fill(c.player, c.opponent, n - 1);
                assert!(slots.at[n as usize - 1].f == Features::new(d, &c), "child of {b:?} by {sq}");
                // Derived, not recomputed: the parent's indices changed by the move.
                let via_play = slots.at[n as usize].f.play(d, sq, bits::flips(b.player, b.opponent, sq));
                assert!(via_play == slots.at[n as usize - 1].f);
                derived += 1;
            }
            // A board that is no child of the slot above (a pass, or another game's) is
            // computed from scratch.
            let passed = b.pass();
            slots.fill(passed.player, passed.opponent, n - 1);
            assert!(slots.at[n as usize - 1].f == Features::new(d, &passed));
            fresh += 1;
        }
        assert!(derived > 1000 && fresh == 200, "{derived} {fresh}");
    }

    /// Plain negamax over every line: the oracle for small positions.
    fn minimax(b: Board) -> i32 {
        let m = b.moves();
        if m == 0 {
            if b.pass().moves() == 0 {
                return b.final_score();
            }
            return -minimax(b.pass());
        }
        Squares(m).map(|sq| -minimax(b.play(sq).expect("legal"))).max().unwrap_or(-64)
    }

    #[test]
    fn matches_minimax_on_random_endgames() {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4);
        let mut seed = 12345u64;
        for game in 0..200 {
            let b = crate::board::random_game(&mut seed, 9 + game % 3);
            let exact = minimax(b);
            for kernel in Kernel::every() {
                solver.kernel = kernel;
                solver.tt.clear();
                let r = solver.solve(&b, SolveMode::Exact, None, &stop);
                assert_eq!(r.score, exact, "{b:?} kernel {kernel:?}");
                let w = solver.solve(&b, SolveMode::Wld, None, &stop);
                assert_eq!(w.score, exact.signum());
                // The PV replays to a finished game with the announced score.
                let mut cur = b;
                let mut sign = 1;
                for mv in &r.pv {
                    cur = match mv {
                        Square::Pass => cur.pass(),
                        Square::At(sq) => cur.play(*sq as usize).expect("pv move legal"),
                    };
                    sign = -sign;
                }
                assert!(cur.is_game_over() || r.pv.is_empty());
                if !r.pv.is_empty() {
                    assert_eq!(sign * cur.final_score(), exact);
                }
            }
        }
    }

    /// The ordering searches keep their leaves' pattern indices move by move (passes
    /// included); they must see the values a leaf evaluated from scratch gives, window for
    /// window (the layer is lazy), in both compiled copies, with and without a layer.
    #[test]
    fn ordering_searches_see_the_values_leaves_have_from_scratch() {
        // The evaluation searches' own order (a sibling's refutation, then `EVAL_AB_TIERS`),
        // so that their fail-soft values outside the window match too; every leaf from scratch.
        fn reference(e: &dyn OrderingEval, b: Board, alpha: i32, beta: i32, depth: u32, killer: u64) -> (i32, u64) {
            let m = b.moves();
            if depth == 0 {
                return (e.evaluate_with_moves_within(&b, m, alpha, beta), 0);
            }
            if m == 0 {
                if b.pass().moves() == 0 {
                    return (b.final_score(), 0);
                }
                return (-reference(e, b.pass(), -beta, -alpha, depth - 1, 0).0, 0);
            }
            let (mut alpha, mut best, mut best_move, mut child_killer) = (alpha, -1000, 0, 0);
            let k = killer & m;
            let rest = m ^ k;
            'tiers: for moves in [
                k,
                rest & EVAL_AB_TIERS[0],
                rest & EVAL_AB_TIERS[1],
                rest & EVAL_AB_TIERS[2],
                rest & EVAL_AB_TIERS[3],
            ] {
                for sq in Squares(moves) {
                    let (v, refutation) = reference(e, b.play(sq).expect("a legal move"), -beta, -alpha, depth - 1, child_killer);
                    child_killer = refutation;
                    let s = -v;
                    if s > best {
                        (best, best_move) = (s, 1u64 << sq);
                        alpha = alpha.max(s);
                        if s >= beta {
                            break 'tiers;
                        }
                    }
                }
            }
            (best, best_move)
        }
        let plain = crate::eval::Evaluator::embedded().expect("embedded weights");
        let layered = plain.clone().with_net(&crate::eval::net::random_layers(16));
        let mut seed = 4242u64;
        let mut checked = 0;
        for game in 0..40 {
            let b = crate::board::random_game(&mut seed, 8 + game % 38);
            for e in [&plain as &dyn OrderingEval, &layered] {
                let v = reference(e, b, -1000, 1000, 1, 0).0;
                for depth in 0..4 {
                    for (alpha, beta) in [
                        (-1000, 1000),
                        (-65, 65),
                        (v - 1, v),
                        (v, v + 1),
                        (v + 6, v + 7),
                        (v - 7, v - 6),
                    ] {
                        let want = reference(e, b, alpha, beta, depth, 0).0;
                        // SAFETY: the portable copy needs no CPU feature.
                        assert_eq!(
                            unsafe { portable::eval_window(e, b, alpha, beta, depth) },
                            want,
                            "{b:?} {depth}"
                        );
                        #[cfg(target_arch = "x86_64")]
                        if Kernel::detect().isa() == Isa::X86V3 {
                            // SAFETY: `Kernel::detect` found the copy's features.
                            assert_eq!(unsafe { x86v3::eval_window(e, b, alpha, beta, depth) }, want, "{b:?} {depth}");
                        }
                        #[cfg(target_arch = "x86_64")]
                        if Kernel::detect().lzcnt_wide() {
                            // SAFETY: `Kernel::lzcnt_wide` found the copy's features.
                            assert_eq!(unsafe { x86v4::eval_window(e, b, alpha, beta, depth) }, want, "{b:?} {depth}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 40 * 2 * 4 * 6);
    }

    /// Two threads (busy marks, deferred brothers) and the evaluation ordering give the same
    /// scores as one thread without it, on endgames deep enough for both to take effect.
    #[test]
    fn parallel_eval_ordered_solve_agrees_with_single_thread() {
        struct Mobility;
        impl OrderingEval for Mobility {
            fn evaluate(&self, b: &Board) -> i32 {
                b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32
            }
        }
        let stop = AtomicBool::new(false);
        let mut seed = 777u64;
        for game in 0..12 {
            let b = crate::board::random_game(&mut seed, 14 + game % 3);
            let mut one = Solver::new(8);
            let expected = one.solve(&b, SolveMode::Exact, None, &stop).score;
            let mut two = Solver::new(8);
            two.threads = 2;
            let r = two.solve(&b, SolveMode::Exact, Some(&Mobility), &stop);
            assert_eq!(r.score, expected, "{b:?}");
            assert!(!r.aborted);
        }
    }

    /// Selective ProbCut passes before the exact one (here from 14 empties, cutting from 10,
    /// with a crude evaluation that mispredicts often) change the work, never the exact or
    /// WLD result.
    #[test]
    fn selective_passes_keep_the_solve_exact() {
        struct Corners;
        impl OrderingEval for Corners {
            fn evaluate(&self, b: &Board) -> i32 {
                let c = 0x8100_0000_0000_0081u64;
                4 * ((b.player & c).count_ones() as i32 - (b.opponent & c).count_ones() as i32)
            }
        }
        assert_selective_passes_exact(&Corners, 4242, 12, 3, true);
    }

    /// Solves `games` random positions of 14 to 13 + `spread` empties with selective passes
    /// from 14 empties, ProbCut from 10, ordered by `eval`: each exact score (and, with `wld`,
    /// each WLD result) must be the plain solve's.
    fn assert_selective_passes_exact(eval: &dyn OrderingEval, mut seed: u64, games: u32, spread: u32, wld: bool) {
        let stop = AtomicBool::new(false);
        for game in 0..games {
            let b = crate::board::random_game(&mut seed, 14 + game % spread);
            let expected = Solver::new(8).solve(&b, SolveMode::Exact, None, &stop).score;
            let mut selective = Solver::new(8);
            selective.config.selective_root_min = 14;
            selective.config.probcut_min = 10;
            let r = selective.solve(&b, SolveMode::Exact, Some(eval), &stop);
            assert_eq!(r.score, expected, "{b:?}");
            if wld {
                let w = selective.solve(&b, SolveMode::Wld, Some(eval), &stop);
                assert_eq!(w.score, expected.signum(), "{b:?}");
            }
        }
    }

    /// The selective passes store the nodes they searched without pruning as exact
    /// (`Ctx::pruned`), and the exact pass cuts with them: with an evaluation that misleads
    /// ProbCut (corners counted for the wrong side), most of the passes' results are wrong,
    /// and none of them may reach the exact pass as exact.
    #[test]
    fn misleading_selective_passes_leave_the_solve_exact() {
        struct AntiCorners;
        impl OrderingEval for AntiCorners {
            fn evaluate(&self, b: &Board) -> i32 {
                let c = 0x8100_0000_0000_0081u64;
                8 * ((b.opponent & c).count_ones() as i32 - (b.player & c).count_ones() as i32)
            }
        }
        assert_selective_passes_exact(&AntiCorners, 777, 24, 4, false);
    }

    #[test]
    fn stop_flag_aborts() {
        let stop = AtomicBool::new(true);
        let mut solver = Solver::new(1);
        let pos = parse_position("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O").expect("ffo 43");
        let r = solver.solve(&pos.board, SolveMode::Exact, None, &stop);
        assert!(r.aborted);
    }

    /// A stopped solve does no more work: a WLD pass (whose window is too narrow for the
    /// null-window probes) starts in `pvs`, which once went down the whole PV ordering every
    /// node with evaluation searches before anything polled, once per selective pass.
    #[test]
    fn a_stopped_wld_solve_returns_at_once() {
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let stop = AtomicBool::new(true);
        let mut solver = Solver::new(1);
        // FFO #43 (23 empties): above `selective_root_min`, so the selective passes run too.
        let pos = parse_position("--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O").expect("ffo 43");
        let r = solver.solve(&pos.board, SolveMode::Wld, Some(&eval), &stop);
        assert!(r.aborted);
        assert!(r.nodes <= 4, "{} nodes after the stop", r.nodes);
    }

    /// A guided solve far from the end (the start position) answers a stop promptly: the
    /// ordering searches between polls once took seconds a node there.
    #[test]
    fn stop_ends_a_guided_solve_from_the_start_position() {
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let flag = stop.clone();
        std::thread::spawn(move || {
            let mut solver = Solver::new(1);
            let r = solver.solve(&crate::board::Position::start().board, SolveMode::Exact, Some(&eval), &flag);
            let _ = tx.send(r.aborted);
        });
        std::thread::sleep(std::time::Duration::from_millis(300));
        let raised = std::time::Instant::now();
        stop.store(true, Ordering::SeqCst);
        let aborted = rx
            .recv_timeout(std::time::Duration::from_secs(2))
            .expect("the solve ignored the stop for 2 s");
        assert!(aborted);
        eprintln!("stopped after {:?}", raised.elapsed());
    }
}
