//! An optional non-linear layer over the evaluation's own terms (issue 41 item 5; an
//! experiment, not the default): every term the linear model reads (each pattern instance's
//! configuration, the mobility pair, the potential-mobility pair, the offset by empties, the
//! edge moves) also reads a vector of `DIM` numbers; a position's vectors are summed and the
//! value gains `bias + Σ_k v_k · max(0, c_k + acc_k)` (discs). This is the first layer of an
//! NNUE, with the linear model kept beside it, and it is read at the same indices as the
//! linear weights, so the same symmetric folding serves it.
//!
//! The file `net.bin`: magic `OXNT`, version 1, the pattern set it was trained for, `DIM`, a
//! mask of the stages it covers (bit s for stage s); then for each covered stage in order its
//! `STAGE_WEIGHTS × DIM` vector entries (row after row, little-endian i16 in 1/`QUANT`), then `c`,
//! `v` (`DIM` little-endian f32 each) and the bias (f32); then an FNV-1a checksum of
//! everything before it. Stages without a net are evaluated by the linear model alone.

use super::fold::Folding;
use super::weights::{self, EvalError, WeightsProblem};
use super::{STAGE_WEIGHTS, STAGES};

pub const MAGIC: &[u8; 4] = b"OXNT";
pub const VERSION: u32 = 1;
/// Vector length (the hidden units): fixed so that the accumulation compiles to a few vector
/// registers.
pub const DIM: usize = 16;
/// Vector entries are stored in 1/QUANT: the folded tables sum up to four entries, so a stored
/// entry is bounded by `weights::MAX_WEIGHT` (8 units).
pub const QUANT: f32 = 1024.0;
const HEADER: usize = 20;

/// One stage's layer, folded as the linear weights are (`Evaluator::from_weights`).
pub struct NetStage {
    /// `STAGE_WEIGHTS` rows of `DIM` entries in 1/QUANT.
    pub rows: Vec<[i16; DIM]>,
    /// `c` in 1/QUANT.
    pub c: [i32; DIM],
    /// `v` scaled so that `v · acc` (acc in 1/QUANT) is in 1/256 disc.
    pub v: [f32; DIM],
    /// In 1/256 disc.
    pub bias: f32,
}

/// The layer as trained (unfolded, in units), what the file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct RawStage {
    pub stage: usize,
    /// `STAGE_WEIGHTS × DIM` entries in 1/QUANT.
    pub entries: Vec<i16>,
    pub c: [f32; DIM],
    pub v: [f32; DIM],
    pub bias: f32,
}

pub struct Net {
    pub stages: Vec<Option<NetStage>>,
}

fn err(file: &str, problem: WeightsProblem) -> EvalError {
    EvalError {
        file: file.to_string(),
        problem,
    }
}

pub fn encode(raw: &[RawStage]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    let mask = raw.iter().fold(0u32, |m, s| m | 1 << s.stage);
    for v in [VERSION, weights::PATTERN_SET, DIM as u32, mask] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut sorted: Vec<&RawStage> = raw.iter().collect();
    sorted.sort_by_key(|s| s.stage);
    for s in sorted {
        for e in &s.entries {
            out.extend_from_slice(&e.to_le_bytes());
        }
        for x in s.c.iter().chain(&s.v).chain([&s.bias]) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = weights::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

pub fn decode(bytes: &[u8], file: &str) -> Result<Vec<RawStage>, EvalError> {
    let word = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if bytes.len() < HEADER + 4 {
        return Err(err(
            file,
            WeightsProblem::Truncated {
                len: bytes.len(),
                expected: HEADER + 4,
            },
        ));
    }
    if &bytes[..4] != MAGIC {
        return Err(err(file, WeightsProblem::BadMagic));
    }
    if word(4) != VERSION {
        return Err(err(file, WeightsProblem::Version(word(4))));
    }
    if word(8) != weights::PATTERN_SET {
        return Err(err(file, WeightsProblem::PatternSet(word(8))));
    }
    let (dim, mask) = (word(12), word(16));
    if dim as usize != DIM || mask >> STAGES != 0 {
        return Err(err(
            file,
            WeightsProblem::Shape {
                stages: mask,
                per_stage: dim,
            },
        ));
    }
    let per_stage = STAGE_WEIGHTS * DIM * 2 + (2 * DIM + 1) * 4;
    let expected = HEADER + mask.count_ones() as usize * per_stage + 4;
    if bytes.len() != expected {
        return Err(err(
            file,
            WeightsProblem::Truncated {
                len: bytes.len(),
                expected,
            },
        ));
    }
    let stored = word(expected - 4);
    let computed = weights::fnv1a(&bytes[..expected - 4]);
    if stored != computed {
        return Err(err(file, WeightsProblem::Checksum { stored, computed }));
    }
    let mut out = Vec::new();
    let mut at = HEADER;
    for stage in (0..STAGES).filter(|s| mask >> s & 1 == 1) {
        let entries: Vec<i16> = bytes[at..at + STAGE_WEIGHTS * DIM * 2]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        if let Some((index, &value)) = entries.iter().enumerate().find(|(_, e)| e.abs() > weights::MAX_WEIGHT) {
            return Err(err(file, WeightsProblem::Range { index, value }));
        }
        at += STAGE_WEIGHTS * DIM * 2;
        let float = |k: usize| f32::from_le_bytes([bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]);
        let c = std::array::from_fn(|k| float(at + 4 * k));
        let v = std::array::from_fn(|k| float(at + 4 * (DIM + k)));
        let bias = float(at + 8 * DIM);
        at += (2 * DIM + 1) * 4;
        out.push(RawStage {
            stage,
            entries,
            c,
            v,
            bias,
        });
    }
    Ok(out)
}

impl Net {
    /// The layer folded for the evaluation: each channel folded as a linear weight table.
    pub fn new(raw: &[RawStage], folding: &Folding, fold_edges: impl Fn(&[i16]) -> Vec<i16>) -> Net {
        let mut stages: Vec<Option<NetStage>> = (0..STAGES).map(|_| None).collect();
        for s in raw {
            let mut rows = vec![[0i16; DIM]; STAGE_WEIGHTS];
            for k in 0..DIM {
                let channel: Vec<i16> = (0..STAGE_WEIGHTS).map(|r| s.entries[r * DIM + k]).collect();
                let mut folded = folding.fold(&channel);
                folded.extend_from_slice(&channel[super::PATTERN_WEIGHTS..super::EDGE_MOBILITY]);
                folded.extend(fold_edges(&channel[super::EDGE_MOBILITY..]));
                for (row, x) in rows.iter_mut().zip(folded) {
                    row[k] = x;
                }
            }
            stages[s.stage] = Some(NetStage {
                rows,
                c: std::array::from_fn(|k| (s.c[k] * QUANT).round() as i32),
                v: std::array::from_fn(|k| s.v[k] * 256.0 / QUANT),
                bias: s.bias * 256.0,
            });
        }
        Net { stages }
    }
}

impl NetStage {
    /// Starts fetching row `r` into the caches.
    #[inline(always)]
    pub fn prefetch(&self, r: u32) {
        #[cfg(target_arch = "x86_64")]
        if let Some(row) = self.rows.get(r as usize) {
            // SAFETY: a prefetch is a hint; it reads nothing and the address is a real row.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(row.as_ptr() as *const i8) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = r;
    }

    /// The layer's value in 1/256 disc for the folded rows `rows` of one position.
    #[inline(always)]
    pub fn value(&self, rows: &[u32]) -> i32 {
        let mut acc = [0i32; DIM];
        for &r in rows {
            // An index outside the table would be a bug in the caller; the bounds check keeps
            // it a panic rather than a wild read, and costs little beside the row's load.
            let row = &self.rows[r as usize];
            for (a, &x) in acc.iter_mut().zip(row) {
                *a += x as i32;
            }
        }
        self.output(&acc)
    }

    /// The same with AVX2: a row is one 256-bit load, widened to two vectors of i32.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub unsafe fn value_avx2(&self, rows: &[u32]) -> i32 {
        use std::arch::x86_64::*;
        let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for &r in rows {
            let row = &self.rows[r as usize];
            // SAFETY: `row` is 16 i16, 32 readable bytes; the load takes any alignment.
            let x = unsafe { _mm256_loadu_si256(row.as_ptr() as *const __m256i) };
            lo = _mm256_add_epi32(lo, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(x)));
            hi = _mm256_add_epi32(hi, _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(x)));
        }
        let mut out = [0i32; DIM];
        // SAFETY: `out` is 64 writable bytes, two 32-byte halves.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, lo);
            _mm256_storeu_si256(out.as_mut_ptr().add(8) as *mut __m256i, hi);
        }
        self.output(&out)
    }

    #[inline(always)]
    fn output(&self, acc: &[i32; DIM]) -> i32 {
        let mut y = self.bias;
        for ((&a, &c), &v) in acc.iter().zip(&self.c).zip(&self.v) {
            y += (a + c).max(0) as f32 * v;
        }
        y.round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(stage: usize, seed: u64) -> RawStage {
        let mut x = seed;
        let entries = (0..STAGE_WEIGHTS * DIM)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 33) % 2001) as i16 - 1000
            })
            .collect();
        RawStage {
            stage,
            entries,
            c: std::array::from_fn(|k| k as f32 * 0.1),
            v: std::array::from_fn(|k| 1.0 - k as f32 * 0.1),
            bias: -0.5,
        }
    }

    /// The shipped weights, a random layer for every stage, the two together, and the moves
    /// of a game that runs from 60 to 44 empties (stages 9 to 7).
    const LINE: [usize; 16] = [37, 43, 34, 29, 26, 20, 19, 42, 21, 18, 17, 44, 33, 25, 45, 41];
    fn with_random_layers() -> (crate::eval::Evaluator, Vec<RawStage>, crate::eval::Evaluator) {
        let shipped = crate::eval::Evaluator::embedded().expect("embedded weights");
        let layers: Vec<RawStage> = (0..STAGES).map(|s| raw(s, s as u64 + 7)).collect();
        let e = shipped.clone().with_net(&layers);
        (shipped, layers, e)
    }

    #[test]
    fn a_net_file_round_trips_and_damage_is_named() {
        let stages = vec![raw(5, 1), raw(3, 2)];
        let bytes = encode(&stages);
        let back = decode(&bytes, "n.bin").expect("decodes");
        assert_eq!(back, vec![raw(3, 2), raw(5, 1)]);
        let cut = decode(&bytes[..bytes.len() - 1], "n.bin").expect_err("truncated");
        assert!(matches!(cut.problem, WeightsProblem::Truncated { .. }), "{cut}");
        let mut flipped = bytes.clone();
        flipped[HEADER + 7] ^= 1;
        let bad = decode(&flipped, "n.bin").expect_err("checksum");
        assert!(matches!(bad.problem, WeightsProblem::Checksum { .. }), "{bad}");
        assert!(bad.to_string().contains("n.bin"));
    }

    /// The folded layer the search reads gives what the unfolded one gives on every term of
    /// `features` (the trainer's view), on all 8 images, by the incremental indices and from
    /// scratch; and it moves the value.
    #[test]
    fn the_folded_layer_matches_the_trainers_view() {
        use crate::board::{Board, bits, symmetry};
        use crate::eval::incremental::{Deltas, Features};
        use crate::eval::{features, has_bmi2, stage};
        let (shipped, layers, e) = with_random_layers();
        let mut b = Board::START;
        let mut moved = 0;
        for sq in LINE {
            b = b.play(sq).unwrap_or(b.pass());
            let l = &layers[stage(b.empty_count())];
            let mut acc: [i64; DIM] = std::array::from_fn(|k| (l.c[k] * QUANT).round() as i64);
            for &i in &features(&b, has_bmi2()) {
                for (k, a) in acc.iter_mut().enumerate() {
                    *a += i64::from(l.entries[i as usize * DIM + k]);
                }
            }
            let layer: f64 = f64::from(l.bias) * 256.0
                + acc
                    .iter()
                    .zip(&l.v)
                    .map(|(&a, &v)| a.max(0) as f64 * f64::from(v) * 256.0 / f64::from(QUANT))
                    .sum::<f64>();
            let want = shipped.evaluate_fine(&b) as f64 + layer;
            let got = e.evaluate_fine(&b);
            assert!((got as f64 - want).abs() <= 1.0, "{got} against {want}");
            let moves = bits::moves(b.player, b.opponent);
            let f = Features::new(Deltas::get(), &b);
            // SAFETY: `f` holds `b`'s indices, computed from scratch.
            assert_eq!(unsafe { e.evaluate_fine_features(&b, f.me(), moves) }, got);
            for s in 0..8 {
                assert_eq!(e.evaluate_fine(&symmetry::apply_board(s, &b)), got);
            }
            moved += usize::from(got != shipped.evaluate_fine(&b));
        }
        assert!(moved > 10, "the layer changed {moved} values of 16");
    }

    /// The lazy reading: the layer where the linear value is near the window, the linear value
    /// alone where it lies beyond the margin or where the caller asks for the cheap estimate.
    #[test]
    fn the_lazy_evaluation_skips_the_layer_only_far_from_the_window() {
        use crate::board::{Board, bits};
        use crate::eval::incremental::{Deltas, Features};
        let (shipped, _, e) = with_random_layers();
        let b = LINE.iter().fold(Board::START, |b, &sq| b.play(sq).unwrap_or(b.pass()));
        let (moves, f) = (bits::moves(b.player, b.opponent), Features::new(Deltas::get(), &b));
        // SAFETY: `f` holds `b`'s indices, computed from scratch.
        let within = |lo, hi| unsafe { e.evaluate_fine_features_within(&b, f.me(), moves, lo, hi) };
        // SAFETY: as above.
        let (full, linear) = (
            unsafe { e.evaluate_fine_features(&b, f.me(), moves) },
            shipped.evaluate_fine(&b),
        );
        assert_ne!(full, linear, "the test's layer must move this value");
        let margin = 256 * crate::eval::LAZY_MARGIN;
        assert_eq!(within(linear, linear + 1), full);
        assert_eq!(within(linear + margin - 1, linear + margin), full);
        assert_eq!(within(linear + margin, linear + margin + 1), linear);
        assert_eq!(within(linear - margin - 1, linear - margin), linear);
        assert_eq!(within(i32::MAX, i32::MIN), linear);
    }
}
