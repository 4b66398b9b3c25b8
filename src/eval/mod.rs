//! Pattern evaluation: per game stage, a weight for every configuration of every shape in
//! `patterns`, summed over the 8 symmetric images of the board, plus tables over mobility,
//! potential mobility and the legal moves on each edge, and an offset by empties. Integer
//! arithmetic; weights in 1/64 disc.

pub mod bootstrap;
pub mod dataset;
pub mod fold;
pub mod incremental;
pub mod net;
pub mod patterns;
pub mod weights;

use crate::base::OrderingEval;
use crate::base::{Isa, Kernel};
use crate::board::Board;
use crate::board::bits;
use crate::board::symmetry;
use incremental::LANES;
use patterns::{INSTANCES, PATTERN_WEIGHTS};
pub use weights::EvalError;

/// Weights per stage: the pattern tables, a table over (side to move's moves, opponent's
/// moves), a table over the two sides' potential mobility, an offset per number of empty
/// squares (0..=60), then a table over the two sides' legal moves on an edge. The tables replace
/// one linear mobility weight: what a move more or less is worth depends on how many there are
/// (no move at all is a pass). The offset carries the parity of the empties (the side to move
/// expects the last move when it is odd) at each count. The edge table sees who can take a
/// corner or an edge square, which depends on lines the disc patterns do not cover.
pub const STAGE_WEIGHTS: usize = EDGE_MOBILITY + EDGE_TABLE;
/// Move counts are capped at `MOB_SIDE - 1` (game positions with more moves are very rare).
pub const MOB_SIDE: usize = 32;
/// Potential mobility (empty squares next to the other side's discs) is capped at `POT_SIDE - 1`.
pub const POT_SIDE: usize = 40;
pub const MOBILITY: usize = PATTERN_WEIGHTS;
pub const POTENTIAL: usize = MOBILITY + MOB_SIDE * MOB_SIDE;
/// Index of the offset for 0 empties; the one for `e` empties is `BY_EMPTIES + e`.
pub const BY_EMPTIES: usize = POTENTIAL + POT_SIDE * POT_SIDE;
/// The edge-move table: index = the side to move's moves on the edge's 8 squares (a byte, in
/// the edge's order) + 256 × the opponent's. Read on all 8 images (each edge both ways).
pub const EDGE_MOBILITY: usize = BY_EMPTIES + 61;
const EDGE_TABLE: usize = 1 << 16;
const EDGE_IMAGES: usize = 8;
/// Terms of one evaluation: every pattern instance, then mobility, potential mobility, offset,
/// then the edge moves on each image. Each is one weight of the stage (a one-hot feature).
pub const TERMS: usize = INSTANCES + 3 + EDGE_IMAGES;
/// Where each term's weights start in a stage: a term's index minus its base fits in 16 bits
/// (no table is larger than 3^10), which halves the trainer's samples.
pub const TERM_BASES: [u32; TERMS] = {
    let mut bases = [0u32; TERMS];
    let mut j = 0;
    while j < INSTANCES {
        // `patterns` lists the instances image by image, shape by shape.
        bases[j] = patterns::OFFSETS[j % patterns::SHAPES.len()] as u32;
        j += 1;
    }
    bases[INSTANCES] = MOBILITY as u32;
    bases[INSTANCES + 1] = POTENTIAL as u32;
    bases[INSTANCES + 2] = BY_EMPTIES as u32;
    let mut k = INSTANCES + 3;
    while k < TERMS {
        bases[k] = EDGE_MOBILITY as u32;
        k += 1;
    }
    bases
};
/// Weights per stage of the older pattern sets, still read: set 1 had a mobility weight and a
/// bias, set 2 also a weight for odd empties, set 3 a mobility weight and offsets by empties,
/// set 4 the mobility tables and offsets, set 5 more shapes. Sets 1-4 had the first
/// `SET4_SHAPES` shapes only; sets 1-5 had no edge-move table.
const SET4_SHAPES: usize = 11;
const SET4_PATTERN_WEIGHTS: usize = patterns::OFFSETS[SET4_SHAPES];
const SET1_STAGE_WEIGHTS: usize = SET4_PATTERN_WEIGHTS + 2;
const SET2_STAGE_WEIGHTS: usize = SET4_PATTERN_WEIGHTS + 3;
const SET3_STAGE_WEIGHTS: usize = SET4_PATTERN_WEIGHTS + 1 + 61;
const SET4_STAGE_WEIGHTS: usize = SET4_PATTERN_WEIGHTS + (EDGE_MOBILITY - PATTERN_WEIGHTS);
const SET5_STAGE_WEIGHTS: usize = EDGE_MOBILITY;
/// How far (discs) beyond the window the linear part must lie for a lazy evaluation to skip
/// the non-linear layer (`evaluate_fine_features_within`); `OXELLO_LAZY_MARGIN` overrides it
/// for measurements.
pub const LAZY_MARGIN: i32 = 4;
/// Weights are stored in 1/SCALE disc.
pub const SCALE: i32 = 64;
/// Stages by empties: stage = min(empties, 59) / STAGE_WIDTH.
pub const STAGE_WIDTH: u32 = 6;
pub const STAGES: usize = 10;

const EMBEDDED: &[u8] = include_bytes!("../../params/eval.bin");
/// The non-linear layer trained over `EMBEDDED`'s terms (`params/README.md`).
const EMBEDDED_NET: &[u8] = include_bytes!("../../params/net.bin");

pub fn stage(empties: u32) -> usize {
    (empties.min(59) / STAGE_WIDTH) as usize
}

/// The weight indices (within one stage) of a board's terms: the pattern instances, then the
/// other terms as `extra_terms` gives them.
pub fn features(b: &Board, bmi2: bool) -> [u32; TERMS] {
    let mut indices = [0u32; TERMS];
    let patterns: &mut [u32; INSTANCES] = (&mut indices[..INSTANCES]).try_into().expect("INSTANCES terms");
    #[cfg(target_arch = "x86_64")]
    if bmi2 {
        // SAFETY: `bmi2` is true only when the CPU was detected to support BMI2.
        unsafe { patterns::indices_bmi2(b.player, b.opponent, patterns) };
    } else {
        patterns::indices_portable(b.player, b.opponent, patterns);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = bmi2;
        patterns::indices_portable(b.player, b.opponent, patterns);
    }
    let (moves, replies) = (bits::moves(b.player, b.opponent), bits::moves(b.opponent, b.player));
    let extra = extra_terms(b, moves, replies);
    for (slot, x) in indices[INSTANCES..].iter_mut().zip(extra) {
        *slot = x as u32;
    }
    for (s, slot) in indices[INSTANCES + 3..].iter_mut().enumerate() {
        let row = |x: u64| (symmetry::apply(s, x) & 0xFF) as usize;
        *slot = (EDGE_MOBILITY + row(moves) + 256 * row(replies)) as u32;
    }
    indices
}

/// Indices of the terms besides the patterns: mobility pair, potential-mobility pair, offset
/// by empties. `moves` and `replies` are the two sides' legal moves.
#[inline(always)]
fn extra_terms(b: &Board, moves: u64, replies: u64) -> [usize; 3] {
    let cap = |n: u32, side: usize| (n as usize).min(side - 1);
    let mobility = cap(moves.count_ones(), MOB_SIDE) * MOB_SIDE + cap(replies.count_ones(), MOB_SIDE);
    let empty = b.empties();
    let potential = |x: u64| cap((bits::adjacent(x) & empty).count_ones(), POT_SIDE);
    let empties = b.empty_count();
    [
        MOBILITY + mobility,
        POTENTIAL + potential(b.opponent) * POT_SIDE + potential(b.player),
        BY_EMPTIES + empties.min(60) as usize,
    ]
}

/// The 8 squares of each edge as a byte, in the edge's order (rows 1 and 8, columns A and H).
#[inline(always)]
fn edges(x: u64) -> [usize; 4] {
    // Column A's bits (squares 0, 8, .., 56) land in the top byte in order: the products of
    // the 8 bits and the multiplier's 8 bits fall on distinct bits, so nothing carries.
    const COLUMN_A: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let column = |y: u64| ((y & COLUMN_A).wrapping_mul(GATHER) >> 56) as usize;
    [(x & 0xFF) as usize, (x >> 56) as usize, column(x), column(x >> 7)]
}

/// Folds the edge-move table over reversal: entry (p, o) becomes the sum of the entries of
/// both reading directions, so one read per edge gives what the 8 images add up.
fn fold_edge_table(t: &[i16]) -> Vec<i16> {
    let rev = |i: usize| ((i & 0xFF) as u8).reverse_bits() as usize | (((i >> 8) as u8).reverse_bits() as usize) << 8;
    // In range: both entries are bounded by MAX_WEIGHT, twice that fits.
    (0..EDGE_TABLE).map(|i| t[i] + t[rev(i)]).collect()
}

/// The rows of one stage's folded table that the terms besides the patterns read: mobility,
/// potential mobility, offset by empties and the four edges' moves. Computed once a leaf, for
/// the linear sum and the non-linear layer both.
#[inline(always)]
fn other_rows(b: &Board, moves: u64) -> [u32; 7] {
    let replies = bits::moves(b.opponent, b.player);
    let [mobility, potential, offset] = extra_terms(b, moves, replies);
    let (em, er) = (edges(moves), edges(replies));
    let edge = |j: usize| (EDGE_MOBILITY + em[j] + 256 * er[j]) as u32;
    [
        mobility as u32,
        potential as u32,
        offset as u32,
        edge(0),
        edge(1),
        edge(2),
        edge(3),
    ]
}

/// Sum of the terms besides the patterns in one stage's folded weights `w`.
#[inline(always)]
fn other_terms(w: &[i16], rows: &[u32; 7]) -> i32 {
    rows.iter().map(|&r| w[r as usize] as i32).sum()
}

pub fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[derive(Clone)]
pub struct Evaluator {
    /// As trained and stored: every shape on all 8 images. Shared (as `folded`) by the copies:
    /// the levels that read the layer take a copy of the plain evaluation with it.
    weights: std::sync::Arc<[i16]>,
    /// The same, folded to the distinct instances (`fold`): what `evaluate` reads.
    folded: std::sync::Arc<[i16]>,
    instances: Vec<fold::Instance>,
    /// Each instance's table offset within a stage, lane by lane as `Features` holds the
    /// indices (padding lanes 0): what the vector gather of the leaf evaluation adds.
    lane_offsets: [u32; LANES],
    digits: Vec<u16>,
    bmi2: bool,
    /// The compiled copy of the leaf evaluation to use (`evaluate_features`).
    kernel: Kernel,
    /// The optional non-linear layer (`net`), shared by the search threads' copies.
    net: Option<std::sync::Arc<net::Net>>,
    /// `LAZY_MARGIN` in 1/256 disc.
    lazy_margin: i32,
}

impl Evaluator {
    /// Weights as the decoder or trainer gives them, each within `weights::MAX_WEIGHT`.
    pub fn from_weights(weights: Vec<i16>) -> Evaluator {
        let folding = fold::Folding::shared();
        // A plain loop: collecting a flat_map element by element took a third of the start-up.
        let mut folded = Vec::with_capacity(weights.len());
        for stage in weights.chunks_exact(STAGE_WEIGHTS) {
            folded.extend_from_slice(&folding.fold(stage));
            folded.extend_from_slice(&stage[PATTERN_WEIGHTS..EDGE_MOBILITY]);
            folded.extend(fold_edge_table(&stage[EDGE_MOBILITY..]));
        }
        let mut lane_offsets = [0u32; LANES];
        for (o, inst) in lane_offsets.iter_mut().zip(&folding.instances) {
            *o = inst.offset as u32;
        }
        Evaluator {
            weights: weights.into(),
            folded: folded.into(),
            lane_offsets,
            instances: folding.instances.clone(),
            digits: folding.digits.clone(),
            bmi2: has_bmi2(),
            kernel: Kernel::detect(),
            net: None,
            lazy_margin: 256 * LAZY_MARGIN,
        }
    }

    /// The same weights with a non-linear layer over their terms (`net`).
    pub fn with_net(self, raw: &[net::RawStage]) -> Evaluator {
        self.with_layer(net::Net::new(raw, fold::Folding::shared(), fold_edge_table))
    }

    /// The same weights with the layer of a `net.bin` of any version (`net::Net::load`).
    pub fn with_net_file(self, bytes: &[u8], name: &str) -> Result<Evaluator, EvalError> {
        let layer = net::Net::load(bytes, name, fold::Folding::shared(), fold_edge_table)?;
        Ok(self.with_layer(layer))
    }

    fn with_layer(mut self, layer: net::Net) -> Evaluator {
        self.net = Some(std::sync::Arc::new(layer));
        let margin = std::env::var("OXELLO_LAZY_MARGIN").ok().and_then(|s| s.parse::<i32>().ok());
        self.lazy_margin = 256 * margin.unwrap_or(LAZY_MARGIN);
        self
    }

    /// The weights shipped in the binary.
    /// Made once a process (a fifth of the start-up): the layer's loader takes it again,
    /// and the copies share its tables.
    pub fn embedded() -> Result<Evaluator, EvalError> {
        static MADE: std::sync::OnceLock<Result<Evaluator, EvalError>> = std::sync::OnceLock::new();
        MADE.get_or_init(|| Evaluator::from_bytes(EMBEDDED, "params/eval.bin (embedded)"))
            .clone()
    }

    /// The weights shipped in the binary with the non-linear layer shipped for them, which
    /// the levels marked `layer` read (the engine makes it on the first search at such a level).
    pub fn embedded_with_layer() -> Result<Evaluator, EvalError> {
        Evaluator::embedded()?.with_net_file(EMBEDDED_NET, "params/net.bin (embedded)")
    }

    /// A `net.bin` of any version as the version-3 file that holds it folded for this build
    /// (`net`): what ships, since the engine then loads it with a copy.
    pub fn fold_net_file(bytes: &[u8], name: &str) -> Result<Vec<u8>, EvalError> {
        Evaluator::fold_net_file_stages(bytes, name, |_| true)
    }

    /// The same with only the stages `keep` takes (`examples/net_keep_stages.rs`).
    pub fn fold_net_file_stages(bytes: &[u8], name: &str, keep: impl Fn(usize) -> bool) -> Result<Vec<u8>, EvalError> {
        let folding = fold::Folding::shared();
        let mut layer = net::Net::load(bytes, name, folding, fold_edge_table)?;
        for (stage, s) in layer.stages.iter_mut().enumerate() {
            if !keep(stage) {
                *s = None;
            }
        }
        Ok(layer.encode(net::layout_fingerprint(folding, fold_edge_table)))
    }

    /// The layer of `over` where it has a stage, `base`'s elsewhere, as one folded file: a
    /// retrained stage put into the shipped layer (`examples/embed_net.rs`, `BASE_NET`). Both
    /// files must hold layers of one shape (units, heads, second layer).
    pub fn merge_net_files(base: (&[u8], &str), over: (&[u8], &str)) -> Result<Vec<u8>, EvalError> {
        let folding = fold::Folding::shared();
        let mut layer = net::Net::load(base.0, base.1, folding, fold_edge_table)?;
        let top = net::Net::load(over.0, over.1, folding, fold_edge_table)?;
        for (s, t) in layer.stages.iter_mut().zip(top.stages) {
            if t.is_some() {
                *s = t;
            }
        }
        Ok(layer.encode(net::layout_fingerprint(folding, fold_edge_table)))
    }

    pub fn load(path: &std::path::Path) -> Result<Evaluator, EvalError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| EvalError {
            file: name.clone(),
            problem: weights::WeightsProblem::Io(e.to_string()),
        })?;
        Evaluator::from_bytes(&bytes, &name)
    }

    /// Weights from the bytes of an eval.bin (`name` for errors).
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Evaluator, EvalError> {
        let (set, stages, w) = weights::decode(bytes, name, |set| match set {
            1 => Some(SET1_STAGE_WEIGHTS as u32),
            2 => Some(SET2_STAGE_WEIGHTS as u32),
            3 => Some(SET3_STAGE_WEIGHTS as u32),
            4 => Some(SET4_STAGE_WEIGHTS as u32),
            5 => Some(SET5_STAGE_WEIGHTS as u32),
            weights::PATTERN_SET => Some(STAGE_WEIGHTS as u32),
            _ => None,
        })?;
        if stages as usize != STAGES {
            return Err(EvalError {
                file: name.to_string(),
                problem: weights::WeightsProblem::Shape {
                    stages,
                    per_stage: STAGE_WEIGHTS as u32,
                },
            });
        }
        let w = match set {
            1 => upgrade_set5(&upgrade_set4(&upgrade_set3(&upgrade_set12(&w, SET1_STAGE_WEIGHTS)))),
            2 => upgrade_set5(&upgrade_set4(&upgrade_set3(&upgrade_set12(&w, SET2_STAGE_WEIGHTS)))),
            3 => upgrade_set5(&upgrade_set4(&upgrade_set3(&w))),
            4 => upgrade_set5(&upgrade_set4(&w)),
            5 => upgrade_set5(&w),
            _ => w,
        };
        Ok(Evaluator::from_weights(w))
    }

    /// `DIR/eval.bin` when a params directory is given, else the embedded weights.
    pub fn load_or_embedded(params: Option<&std::path::Path>) -> Result<Evaluator, EvalError> {
        match params {
            Some(dir) => {
                let e = Evaluator::load(&dir.join("eval.bin"))?;
                let path = dir.join("net.bin");
                if !path.exists() {
                    return Ok(e);
                }
                let name = path.display().to_string();
                let bytes = std::fs::read(&path).map_err(|x| EvalError {
                    file: name.clone(),
                    problem: weights::WeightsProblem::Io(x.to_string()),
                })?;
                e.with_net_file(&bytes, &name)
            }
            None => Evaluator::embedded(),
        }
    }

    /// Weights of stage `stage` in discs (training starts from them).
    pub fn stage_weights(&self, stage: usize) -> Vec<f32> {
        self.weights[stage * STAGE_WEIGHTS..][..STAGE_WEIGHTS]
            .iter()
            .map(|&w| w as f32 / SCALE as f32)
            .collect()
    }

    pub fn encode(&self) -> Vec<u8> {
        weights::encode(STAGES as u32, STAGE_WEIGHTS as u32, &self.weights)
    }

    /// Side to move's score in 1/256 disc, unclamped.
    pub fn evaluate_fine(&self, b: &Board) -> i32 {
        let moves = bits::moves(b.player, b.opponent);
        let linear = self.evaluate_fine_with_moves(b, moves);
        if self.net.is_none() {
            return linear;
        }
        let f = incremental::Features::new(incremental::Deltas::get(), b);
        // SAFETY: `f` holds `b`'s indices, computed from scratch.
        linear + unsafe { self.net_term(b, f.me(), &other_rows(b, moves)) }
    }

    /// The non-linear layer's part of the value (1/256 disc), 0 where it does not cover the
    /// stage.
    ///
    /// # Safety
    /// `me` must be `b`'s incremental indices (as for `evaluate_fine_features`), `others` its
    /// `other_rows`: the layer's rows are read unchecked at them.
    #[inline(always)]
    unsafe fn net_term(&self, b: &Board, me: &[u16; LANES], others: &[u32; 7]) -> i32 {
        let Some(ns) = self.net_stage(b) else {
            return 0;
        };
        let n = self.instances.len();
        let head = ns.head_of(b.empty_count());
        match self.kernel.isa() {
            Isa::Portable => ns.value(&self.net_rows(me, others)[..n + 7], head),
            // SAFETY: `Kernel::detect` found AVX2 for this copy; `me` holds `b`'s indices (the
            // callers' contract), so `lane_offsets[i] + me[i]` is instance i's row of the
            // folded table, as the linear sum reads it, and `other_rows` gives rows of it.
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { ns.value_avx2(&me[..n], &self.lane_offsets[..n], others, head) },
        }
    }

    /// The layer of `b`'s stage, if one covers it.
    #[inline(always)]
    fn net_stage(&self, b: &Board) -> Option<&net::NetStage> {
        self.net.as_ref()?.stages[stage(b.empty_count())].as_ref()
    }

    /// The rows of the folded table a position reads: its instances' (`me`), then `others`.
    #[inline(always)]
    fn net_rows(&self, me: &[u16; LANES], others: &[u32; 7]) -> [u32; LANES + 7] {
        let mut rows = [0u32; LANES + 7];
        let n = self.instances.len();
        for ((r, &o), &x) in rows.iter_mut().zip(&self.lane_offsets).zip(me).take(n) {
            *r = o + u32::from(x);
        }
        rows[n..n + 7].copy_from_slice(others);
        rows
    }

    /// The same when the side to move's legal moves are known.
    #[inline]
    fn evaluate_fine_with_moves(&self, b: &Board, moves: u64) -> i32 {
        match self.kernel.isa() {
            Isa::Portable => self.fine_with_moves(b, moves),
            // SAFETY: `Kernel::detect` found every feature this copy is compiled for.
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { self.fine_with_moves_x86v3(b, moves) },
        }
    }

    /// `fine_with_moves` compiled for x86-64-v3 (hardware population counts; see
    /// `within_x86v3`): the endgame's evaluation searches land here.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn fine_with_moves_x86v3(&self, b: &Board, moves: u64) -> i32 {
        self.fine_with_moves(b, moves)
    }

    #[inline(always)]
    fn fine_with_moves(&self, b: &Board, moves: u64) -> i32 {
        let w = self.stage(b);
        (self.pattern_sum(b, w) + other_terms(w, &other_rows(b, moves))) * (256 / SCALE)
    }

    /// The same from the position's incremental pattern indices, in the fastest compiled copy:
    /// the search's leaves land here.
    ///
    /// # Safety
    /// `me` must be `b`'s indices as `incremental::Features::new` computes them (or `play` along
    /// real moves keeps them): the vector copy reads the weight tables at those indices unchecked.
    pub unsafe fn evaluate_fine_features(&self, b: &Board, me: &[u16; LANES], moves: u64) -> i32 {
        // SAFETY: the same contract.
        unsafe { self.evaluate_fine_features_within(b, me, moves, i32::MIN, i32::MAX) }
    }

    /// The same where only values within `[lo, hi]` (1/256 disc) need to be exact: where the
    /// linear part lies `LAZY_MARGIN` beyond them, the non-linear layer is not read.
    ///
    /// # Safety
    /// As `evaluate_fine_features`.
    #[inline]
    pub unsafe fn evaluate_fine_features_within(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        match self.kernel.isa() {
            // SAFETY: this function's contract.
            Isa::Portable => unsafe { self.within_portable(b, me, moves, lo, hi) },
            // SAFETY: `Kernel::detect` found every feature this copy is compiled for; the rest
            // is this function's contract.
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 if self.kernel.wide() => unsafe { self.within_x86v4(b, me, moves, lo, hi) },
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { self.within_x86v3(b, me, moves, lo, hi) },
        }
    }

    /// `fine_features_x86v3` sixteen lanes a gather (AVX-512): half the gather instructions
    /// for the same loads. The loads still wait on the caches (the first use of the gathered
    /// weights takes a third of the evaluation's samples), so the gain is the instructions
    /// around them: 3–4.5 % of a level-17 midgame search, 1 % of a 25-empties solve.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512bw,avx512vl")]
    fn fine_features_x86v4(&self, b: &Board, me: &[u16; LANES], others: &[u32; 7]) -> i32 {
        use std::arch::x86_64::*;
        const { assert!(LANES.is_multiple_of(16)) };
        let w = self.stage(b);
        let n = self.instances.len();
        let base = w.as_ptr() as *const i32;
        let mut acc = _mm512_setzero_si512();
        for lane in (0..n).step_by(16) {
            // SAFETY: `lane + 16 <= LANES`, so both 16-lane reads are inside their arrays; each
            // index is in this stage's pattern tables as in `fine_features_x86v3`, and lanes
            // past `n` are masked off and read nothing.
            unsafe {
                let x = _mm256_loadu_si256(me.as_ptr().add(lane) as *const __m256i);
                let off = _mm512_loadu_si512(self.lane_offsets.as_ptr().add(lane) as *const _);
                let idx = _mm512_add_epi32(_mm512_cvtepu16_epi32(x), off);
                let g = if lane + 16 <= n {
                    _mm512_i32gather_epi32::<2>(idx, base)
                } else {
                    let live = ((1u32 << (n - lane)) - 1) as __mmask16;
                    _mm512_mask_i32gather_epi32::<2>(_mm512_setzero_si512(), live, idx, base)
                };
                // Each lane read two weights; the low one (little-endian) is this lane's.
                acc = _mm512_add_epi32(acc, _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(g)));
            }
        }
        let patterns = _mm512_reduce_add_epi32(acc);
        (patterns + other_terms(w, others)) * (256 / SCALE)
    }

    /// The portable copy, kept out of line: inlined, it made every caller of this function
    /// (the search's leaves, through `OrderingEval`) save and restore registers and reserve
    /// its stack for a body the x86-64-v3 CPUs never run (the wrapper had 2 % of a level-17
    /// search's samples, most of them at its entry and exit).
    ///
    /// # Safety
    /// As `evaluate_fine_features`.
    #[inline(never)]
    unsafe fn within_portable(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        // SAFETY: the same contract.
        unsafe { self.within::<false>(b, me, moves, lo, hi) }
    }

    /// `evaluate_fine_features_within` compiled for x86-64-v3 as a whole. The rows besides the
    /// patterns (the opponent's moves, four population counts) took 14 % of a midgame search,
    /// a third of the leaf evaluation, while they were compiled for the baseline CPU: bits
    /// counted in software, moves generated one direction at a time (thirty-eighth session).
    ///
    /// # Safety
    /// As `evaluate_fine_features`, on a CPU with these features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    unsafe fn within_x86v3(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        // SAFETY: the same contract; inlined, it is compiled with these features.
        unsafe { self.within::<false>(b, me, moves, lo, hi) }
    }

    /// The same with AVX-512 as well: the pattern weights sixteen lanes a gather
    /// (`fine_features_x86v4`).
    ///
    /// # Safety
    /// As `evaluate_fine_features`, on a CPU with these features.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2,avx512f,avx512bw,avx512vl")]
    unsafe fn within_x86v4(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        // SAFETY: the same contract; inlined, it is compiled with these features.
        unsafe { self.within::<true>(b, me, moves, lo, hi) }
    }

    /// The body of `evaluate_fine_features_within` for every copy (the linear sum in the
    /// kernel's own form; `WIDE`: the AVX-512 gathers, called only from `within_x86v4`).
    ///
    /// # Safety
    /// As `evaluate_fine_features`.
    #[inline(always)]
    unsafe fn within<const WIDE: bool>(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        let others = other_rows(b, moves);
        let linear = match self.kernel.isa() {
            Isa::Portable => self.fine_features(b, me, &others),
            // SAFETY: `WIDE` only from `within_x86v4`, called only when `Kernel::detect` found
            // AVX-512 (`Kernel::wide`).
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 if WIDE => unsafe { self.fine_features_x86v4(b, me, &others) },
            // SAFETY: `Kernel::detect` found every feature this copy is compiled for.
            #[cfg(target_arch = "x86_64")]
            Isa::X86V3 => unsafe { self.fine_features_x86v3(b, me, &others) },
        };
        if self.net.is_none() || linear.saturating_sub(self.lazy_margin) >= hi || linear.saturating_add(self.lazy_margin) <= lo {
            return linear;
        }
        // SAFETY: this function's contract.
        linear + unsafe { self.net_term(b, me, &others) }
    }

    /// The leaf evaluation with the pattern weights fetched by AVX2 gathers: eight loads an
    /// instruction keep all of them in flight at once, where the scalar loop's 58 loads did not
    /// fit the CPU's reorder window and waited on the cache in turns.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    fn fine_features_x86v3(&self, b: &Board, me: &[u16; LANES], others: &[u32; 7]) -> i32 {
        use std::arch::x86_64::*;
        const { assert!(LANES.is_multiple_of(8)) };
        let w = self.stage(b);
        let n = self.instances.len();
        let base = w.as_ptr() as *const i32;
        let mut acc = _mm256_setzero_si256();
        for lane in (0..n).step_by(8) {
            // SAFETY: `lane + 8 <= LANES`, so both 8-lane reads are inside their arrays. Every
            // index is its instance's offset plus a base-3 index below that shape's table size
            // (`Features` sums powers of 3 of the instance's own squares), so each 4-byte read
            // starts at a pattern weight of this stage and ends at most 2 bytes past it, still
            // inside the stage (the other tables follow the patterns). Lanes past `n` are masked
            // off and read nothing.
            unsafe {
                let x = _mm_loadu_si128(me.as_ptr().add(lane) as *const __m128i);
                let off = _mm256_loadu_si256(self.lane_offsets.as_ptr().add(lane) as *const __m256i);
                let idx = _mm256_add_epi32(_mm256_cvtepu16_epi32(x), off);
                let g = if lane + 8 <= n {
                    _mm256_i32gather_epi32::<2>(base, idx)
                } else {
                    let live = _mm256_cmpgt_epi32(
                        _mm256_set1_epi32((n - lane) as i32),
                        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    );
                    _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), base, idx, live)
                };
                // Each lane read two weights; the low one (little-endian) is this lane's.
                acc = _mm256_add_epi32(acc, _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(g)));
            }
        }
        let sum = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b01_00_11_10>(sum));
        let sum = _mm_add_epi32(sum, _mm_shuffle_epi32::<0b10_11_00_01>(sum));
        let patterns = _mm_cvtsi128_si32(sum);
        (patterns + other_terms(w, others)) * (256 / SCALE)
    }

    #[inline(always)]
    fn fine_features(&self, b: &Board, me: &[u16; LANES], others: &[u32; 7]) -> i32 {
        let w = self.stage(b);
        let patterns: i32 = self
            .instances
            .iter()
            .zip(me)
            .map(|(i, &x)| w[i.offset + x as usize] as i32)
            .sum();
        (patterns + other_terms(w, others)) * (256 / SCALE)
    }

    /// The folded weights of `b`'s stage.
    #[inline]
    fn stage(&self, b: &Board) -> &[i16] {
        &self.folded[stage(b.empty_count()) * STAGE_WEIGHTS..][..STAGE_WEIGHTS]
    }

    #[inline]
    fn pattern_sum(&self, b: &Board, w: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is true only when the CPU was detected to support BMI2.
            return unsafe { fold::sum_bmi2(b.player, b.opponent, &self.instances, &self.digits, w) };
        }
        fold::sum_portable(b.player, b.opponent, &self.instances, &self.digits, w)
    }

    /// The same score from the unfolded weights, one term per instance as training sees it.
    #[cfg(test)]
    fn evaluate_unfolded(&self, b: &Board) -> i32 {
        let w = &self.weights[stage(b.empty_count()) * STAGE_WEIGHTS..][..STAGE_WEIGHTS];
        features(b, self.bmi2).iter().map(|&i| w[i as usize] as i32).sum::<i32>() * (256 / SCALE)
    }

    /// Side to move's score in discs, rounded and clamped to [-64, 64].
    pub fn evaluate(&self, b: &Board) -> i32 {
        to_discs(self.evaluate_fine(b))
    }
}

/// Set 1/2 stages (patterns, mobility, bias[, odd-empties weight]) as set 3 stages: the bias
/// (plus the parity weight at odd counts) becomes the offset at every empties count.
fn upgrade_set12(old: &[i16], per_stage: usize) -> Vec<i16> {
    old.chunks_exact(per_stage)
        .flat_map(|s| {
            let (bias, parity) = (
                s[SET4_PATTERN_WEIGHTS + 1],
                s.get(SET4_PATTERN_WEIGHTS + 2).copied().unwrap_or(0),
            );
            let offset = |e: usize| clamp_weight(bias as i32 + (e & 1) as i32 * parity as i32);
            s[..=SET4_PATTERN_WEIGHTS]
                .iter()
                .copied()
                .chain((0..=60).map(offset))
                .collect::<Vec<i16>>()
        })
        .collect()
}

/// Set 3 stages (patterns, mobility weight, offsets) as set 4: the mobility table holds the
/// weight times the difference of the (capped) move counts, potential mobility is zero.
fn upgrade_set3(old: &[i16]) -> Vec<i16> {
    old.chunks_exact(SET3_STAGE_WEIGHTS)
        .flat_map(|s| {
            let mobility = s[SET4_PATTERN_WEIGHTS] as i32;
            let table =
                (0..MOB_SIDE * MOB_SIDE).map(|k| clamp_weight(mobility * ((k / MOB_SIDE) as i32 - (k % MOB_SIDE) as i32)));
            s[..SET4_PATTERN_WEIGHTS]
                .iter()
                .copied()
                .chain(table)
                .chain(std::iter::repeat_n(0, POT_SIDE * POT_SIDE))
                .chain(s[SET4_PATTERN_WEIGHTS + 1..].iter().copied())
                .collect::<Vec<i16>>()
        })
        .collect()
}

/// Set-4 stages as this set's: the shapes added since weigh zero.
fn upgrade_set4(old: &[i16]) -> Vec<i16> {
    old.chunks_exact(SET4_STAGE_WEIGHTS)
        .flat_map(|s| {
            s[..SET4_PATTERN_WEIGHTS]
                .iter()
                .copied()
                .chain(std::iter::repeat_n(0, PATTERN_WEIGHTS - SET4_PATTERN_WEIGHTS))
                .chain(s[SET4_PATTERN_WEIGHTS..].iter().copied())
                .collect::<Vec<i16>>()
        })
        .collect()
}

/// Set-5 stages as this set's: the edge-move table weighs zero.
fn upgrade_set5(old: &[i16]) -> Vec<i16> {
    old.chunks_exact(SET5_STAGE_WEIGHTS)
        .flat_map(|s| {
            s.iter()
                .copied()
                .chain(std::iter::repeat_n(0, EDGE_TABLE))
                .collect::<Vec<i16>>()
        })
        .collect()
}

/// Within the format's range (upgraded weights are sums and products of stored ones).
fn clamp_weight(w: i32) -> i16 {
    w.clamp(-weights::MAX_WEIGHT as i32, weights::MAX_WEIGHT as i32) as i16
}

fn to_discs(fine: i32) -> i32 {
    ((fine + 128).div_euclid(256)).clamp(-64, 64)
}

impl OrderingEval for Evaluator {
    fn evaluate(&self, b: &Board) -> i32 {
        Evaluator::evaluate(self, b)
    }

    fn evaluate_with_moves(&self, b: &Board, moves: u64) -> i32 {
        to_discs(self.evaluate_fine_with_moves(b, moves))
    }

    fn evaluate_with_moves_within(&self, b: &Board, moves: u64, lo: i32, hi: i32) -> i32 {
        // The indices from scratch only where a layer covers this stage (they are what it reads).
        if self.net_stage(b).is_none() {
            return self.evaluate_with_moves(b, moves);
        }
        let f = incremental::Features::new(incremental::Deltas::get(), b);
        // SAFETY: `f` holds `b`'s indices, computed from scratch.
        unsafe { self.evaluate_features_within(b, f.me(), moves, lo, hi) }
    }

    unsafe fn evaluate_features(&self, b: &Board, me: &[u16; LANES], moves: u64) -> i32 {
        // SAFETY: the trait method's contract is `evaluate_fine_features`'.
        to_discs(unsafe { self.evaluate_fine_features(b, me, moves) })
    }

    unsafe fn evaluate_features_within(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        let (lo, hi) = if lo > hi {
            (i32::MAX, i32::MIN)
        } else {
            (lo.saturating_mul(256), hi.saturating_mul(256))
        };
        // SAFETY: the trait method's contract is `evaluate_fine_features`'.
        to_discs(unsafe { self.evaluate_fine_features_within(b, me, moves, lo, hi) })
    }

    fn without_layer(&self) -> Option<Box<dyn OrderingEval + Send + Sync>> {
        self.net.as_ref()?;
        Some(Box::new(Evaluator {
            net: None,
            ..self.clone()
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped layer decodes, covers the midgame stages (1-8) and moves their values.
    #[test]
    fn the_embedded_layer_loads_and_covers_the_midgame_stages() {
        let plain = Evaluator::embedded().expect("embedded weights");
        let layered = Evaluator::embedded_with_layer().expect("embedded layer");
        let mut b = Board::START;
        let (mut seen, mut moved) = (0, 0);
        for ply in 0..52 {
            let moves = bits::moves(b.player, b.opponent);
            let Some(sq) = bits::Squares(moves).nth(ply * 7 % moves.count_ones().max(1) as usize) else {
                break;
            };
            b = b.play(sq).expect("legal");
            if (1..=8).contains(&stage(b.empty_count())) {
                assert!(layered.net_stage(&b).is_some(), "no layer at {} empties", b.empty_count());
                seen += 1;
                moved += usize::from(layered.evaluate_fine(&b) != plain.evaluate_fine(&b));
            }
        }
        // A value the layer leaves as it was can happen (its part rounds to zero), rarely.
        assert!(seen > 40 && moved * 10 > seen * 9, "the layer moved {moved} of {seen} values");
        // Shipped folded (version 3), so that a process loads it with a copy, and with vectors
        // on every shape (the fiftieth session's layer; the one before left the big ones out).
        assert_eq!(EMBEDDED_NET[4..8], net::FOLDED_VERSION.to_le_bytes());
        let net = layered.net.as_ref().expect("a layer");
        let all_lanes = net.stages[1..=8]
            .iter()
            .flatten()
            .all(|s| s.lanes().len() == layered.instances.len());
        assert!(all_lanes, "a stage's layer reads only some of the pattern instances");
    }

    #[test]
    fn embedded_weights_load_and_are_symmetric() {
        let e = Evaluator::embedded().expect("embedded weights");
        let mut b = Board::START;
        for sq in [37, 43, 34, 29, 26] {
            b = b.play(sq).unwrap_or(b.pass());
            for s in 0..8 {
                assert_eq!(e.evaluate_fine(&symmetry::apply_board(s, &b)), e.evaluate_fine(&b));
            }
        }
    }

    /// The start position: 4 moves each, 10 empty squares next to each side's two discs.
    #[test]
    fn terms_beyond_the_patterns() {
        let f = features(&Board::START, has_bmi2());
        assert_eq!(
            f[INSTANCES..INSTANCES + 3],
            [
                (MOBILITY + 4 * MOB_SIDE + 4) as u32,
                (POTENTIAL + 10 * POT_SIDE + 10) as u32,
                (BY_EMPTIES + 60) as u32
            ]
        );
        // The opponent on rows 2, 5 and 8, nothing else: all 40 empty squares touch its discs
        // (counted as 39, the cap), none touches the side to move's, no moves.
        let rows = 0xFF00_00FF_0000_FF00u64;
        let f = features(&Board::new(0, rows), has_bmi2());
        assert_eq!(
            f[INSTANCES..INSTANCES + 3],
            [MOBILITY as u32, (POTENTIAL + 39 * POT_SIDE) as u32, (BY_EMPTIES + 40) as u32]
        );
    }

    /// Opponent on B1, side to move on C1: the side to move can take A1 and the opponent D1.
    /// Row 1 is read both ways; column A, which holds A1 too, both ways; the others are empty.
    #[test]
    fn edge_moves_are_read_on_every_image() {
        let b = Board::new(1 << 2, 1 << 1);
        let mut edge: Vec<u32> = features(&b, has_bmi2())[INSTANCES + 3..]
            .iter()
            .map(|&i| i - EDGE_MOBILITY as u32)
            .collect();
        edge.sort_unstable();
        assert_eq!(edge, [0, 0, 0, 0, 1, 0x80, 1 + 256 * 8, 0x80 + 256 * 0x10]);
    }

    #[test]
    fn terms_are_within_16_bits_of_their_bases() {
        let size = |j: usize| match j.checked_sub(INSTANCES) {
            None => patterns::table_size(j % patterns::SHAPES.len()),
            Some(extra) => [MOB_SIDE * MOB_SIDE, POT_SIDE * POT_SIDE, 61]
                .get(extra)
                .copied()
                .unwrap_or(EDGE_TABLE),
        };
        let mut seed = 7u64;
        for k in 0..300 {
            let b = crate::board::random_game(&mut seed, k % 56 + 4);
            for (j, (&i, &base)) in features(&b, has_bmi2()).iter().zip(&TERM_BASES).enumerate() {
                assert!(
                    i >= base && ((i - base) as usize) < size(j) && size(j) <= 1 << 16,
                    "term {j}: {i} from {base}"
                );
            }
        }
    }

    #[test]
    fn folded_tables_give_the_unfolded_sum() {
        // The shipped weights with an edge-move table that is not symmetric under reversal.
        let mut w = Evaluator::embedded().expect("embedded weights").weights.to_vec();
        for stage in w.chunks_exact_mut(STAGE_WEIGHTS) {
            for (i, x) in stage[EDGE_MOBILITY..].iter_mut().enumerate() {
                *x = (i * 7919 % 401) as i16 - 200;
            }
        }
        let e = Evaluator::from_weights(w);
        let mut portable = e.clone();
        portable.bmi2 = false;
        let mut seed = 31u64;
        for k in 0..300 {
            let b = crate::board::random_game(&mut seed, k % 56 + 4);
            assert_eq!(e.evaluate_fine(&b), e.evaluate_unfolded(&b), "{b:?}");
            assert_eq!(portable.evaluate_fine(&b), e.evaluate_fine(&b), "{b:?}");
            // The search's leaf evaluation from incremental indices, in every compiled copy.
            let f = incremental::Features::new(incremental::Deltas::get(), &b);
            let moves = b.moves();
            for kernel in Kernel::every() {
                let mut k = e.clone();
                k.kernel = kernel;
                assert_eq!(
                    // SAFETY: `f` was computed from `b`.
                    unsafe { k.evaluate_fine_features(&b, f.me(), moves) },
                    e.evaluate_fine(&b),
                    "{kernel:?} {b:?}"
                );
                // And the from-scratch entry the endgame's evaluation searches use.
                assert_eq!(k.evaluate_fine_with_moves(&b, moves), e.evaluate_fine(&b), "{kernel:?} {b:?}");
            }
        }
    }

    /// A weights file as an older pattern set wrote it (its set id, its stage size).
    fn encode_as_set(set: u32, per_stage: usize, w: &[i16]) -> Vec<u8> {
        let mut bytes = weights::encode(STAGES as u32, per_stage as u32, w);
        bytes[8..12].copy_from_slice(&set.to_le_bytes());
        let n = bytes.len() - 4;
        let sum = weights::fnv1a(&bytes[..n]);
        bytes[n..].copy_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Older files load and evaluate as they did: the shapes added by set 5 weigh zero, a set-4
    /// file keeps its tables and offsets, and a set-3 file (mobility weight, offsets by
    /// empties), a set-2 file (mobility, bias, odd-empties weight) and a set-1 file (mobility,
    /// bias) become mobility tables of weight × difference and offsets by empties.
    #[test]
    fn older_pattern_sets_load_as_tables_and_offsets() {
        let e = Evaluator::embedded().expect("embedded weights");
        let mobility = |k: usize| 20 + k as i16;
        let offset = |set: u32, k: usize, em: usize| match set {
            3 => 3 + k as i16 + em as i16,
            2 => 3 + k as i16 - 5 * (em % 2) as i16,
            _ => 3 + k as i16,
        };
        let sets = [
            (1u32, SET1_STAGE_WEIGHTS),
            (2, SET2_STAGE_WEIGHTS),
            (3, SET3_STAGE_WEIGHTS),
            (4, SET4_STAGE_WEIGHTS),
        ];
        for (set, per_stage) in sets {
            let old: Vec<i16> = e
                .weights
                .chunks_exact(STAGE_WEIGHTS)
                .enumerate()
                .flat_map(|(k, s)| {
                    let tail: Vec<i16> = match set {
                        4 => s[PATTERN_WEIGHTS..].to_vec(),
                        3 => std::iter::once(mobility(k))
                            .chain((0..=60).map(|em| offset(3, k, em)))
                            .collect(),
                        _ => vec![mobility(k), 3 + k as i16, -5],
                    };
                    s[..SET4_PATTERN_WEIGHTS]
                        .iter()
                        .copied()
                        .chain(tail)
                        .take(per_stage)
                        .collect::<Vec<i16>>()
                })
                .collect();
            let bytes = encode_as_set(set, per_stage, &old);
            let loaded = Evaluator::from_bytes(&bytes, "old.bin").expect("old set decodes");
            for (k, s) in loaded.weights.chunks_exact(STAGE_WEIGHTS).enumerate() {
                let current = &e.weights[k * STAGE_WEIGHTS..][..STAGE_WEIGHTS];
                assert_eq!(s[..SET4_PATTERN_WEIGHTS], current[..SET4_PATTERN_WEIGHTS]);
                assert!(s[SET4_PATTERN_WEIGHTS..PATTERN_WEIGHTS].iter().all(|&w| w == 0));
                assert!(s[EDGE_MOBILITY..].iter().all(|&w| w == 0));
                if set == 4 {
                    assert_eq!(s[PATTERN_WEIGHTS..EDGE_MOBILITY], current[PATTERN_WEIGHTS..EDGE_MOBILITY]);
                    continue;
                }
                for (pm, om) in [(0, 0), (5, 9), (31, 2), (12, 12)] {
                    let diff = pm as i16 - om as i16;
                    assert_eq!(s[MOBILITY + pm * MOB_SIDE + om], mobility(k) * diff, "set {set} stage {k}");
                }
                assert!(s[POTENTIAL..BY_EMPTIES].iter().all(|&w| w == 0));
                for em in 0..=60 {
                    assert_eq!(s[BY_EMPTIES + em], offset(set, k, em), "set {set} stage {k} empties {em}");
                }
            }
        }
    }

    /// A set-5 file keeps all its weights; the edge-move table weighs zero.
    #[test]
    fn set_5_files_load_without_edge_moves() {
        let e = Evaluator::embedded().expect("embedded weights");
        let old: Vec<i16> = e
            .weights
            .chunks_exact(STAGE_WEIGHTS)
            .flat_map(|s| s[..SET5_STAGE_WEIGHTS].to_vec())
            .collect();
        let bytes = encode_as_set(5, SET5_STAGE_WEIGHTS, &old);
        let loaded = Evaluator::from_bytes(&bytes, "set5.bin").expect("set 5 decodes");
        for (s, current) in loaded
            .weights
            .chunks_exact(STAGE_WEIGHTS)
            .zip(e.weights.chunks_exact(STAGE_WEIGHTS))
        {
            assert_eq!(s[..EDGE_MOBILITY], current[..EDGE_MOBILITY]);
            assert!(s[EDGE_MOBILITY..].iter().all(|&w| w == 0));
        }
    }

    #[test]
    fn corrupt_files_are_named_errors() {
        let dir = crate::scratch::Scratch::new("eval");
        let path = dir.join("bad.bin");
        std::fs::write(&path, b"OXEV\x01").expect("write");
        let err = Evaluator::load(&path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("bad.bin") && err.contains("truncated"), "{err}");
        assert!(Evaluator::load(&dir.join("missing.bin")).is_err());
    }
}
