//! Pattern evaluation: per game stage, a weight for every configuration of every shape in
//! `patterns`, summed over the 8 symmetric images of the board, plus a mobility term and a
//! bias. Integer arithmetic; weights in 1/64 disc.

pub mod bootstrap;
pub mod dataset;
pub mod fold;
pub mod patterns;
pub mod weights;

use crate::board::Board;
use crate::board::bits;
use crate::search::endgame::OrderingEval;
use patterns::{INSTANCES, PATTERN_WEIGHTS};
pub use weights::EvalError;

/// Weights per stage: the pattern tables, then the mobility weight, then an offset per number
/// of empty squares (0..=60). The offset carries the parity of the empties (the side to move
/// expects the last move when it is odd) at each count rather than one weight per stage, whose
/// misfit left the evaluation and searches ending at odd empties biased by a disc or more.
pub const STAGE_WEIGHTS: usize = PATTERN_WEIGHTS + 1 + 61;
pub const MOBILITY: usize = PATTERN_WEIGHTS;
/// Index of the offset for 0 empties; the one for `e` empties is `BY_EMPTIES + e`.
pub const BY_EMPTIES: usize = PATTERN_WEIGHTS + 1;
/// Weights per stage of the older pattern sets, still read: set 1 had the mobility weight and
/// a bias, set 2 also a weight for odd empties. Both become offsets by empties.
const SET1_STAGE_WEIGHTS: usize = PATTERN_WEIGHTS + 2;
const SET2_STAGE_WEIGHTS: usize = PATTERN_WEIGHTS + 3;
/// Weights are stored in 1/SCALE disc.
pub const SCALE: i32 = 64;
/// Stages by empties: stage = min(empties, 59) / STAGE_WIDTH.
pub const STAGE_WIDTH: u32 = 6;
pub const STAGES: usize = 10;

const EMBEDDED: &[u8] = include_bytes!("../../params/eval.bin");

pub fn stage(empties: u32) -> usize {
    (empties.min(59) / STAGE_WIDTH) as usize
}

/// Feature indices of a board (pattern instances), its mobility difference and empties.
pub struct Features {
    pub indices: [u32; INSTANCES],
    pub mobility: i32,
    pub empties: u32,
}

/// Computes the features with the fastest routine this CPU has.
pub fn features(b: &Board, bmi2: bool) -> Features {
    let mut indices = [0u32; INSTANCES];
    #[cfg(target_arch = "x86_64")]
    if bmi2 {
        // SAFETY: `bmi2` is true only when the CPU was detected to support BMI2.
        unsafe { patterns::indices_bmi2(b.player, b.opponent, &mut indices) };
    } else {
        patterns::indices_portable(b.player, b.opponent, &mut indices);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = bmi2;
        patterns::indices_portable(b.player, b.opponent, &mut indices);
    }
    let mobility = bits::moves(b.player, b.opponent).count_ones() as i32 - bits::moves(b.opponent, b.player).count_ones() as i32;
    Features {
        indices,
        mobility,
        empties: b.empty_count(),
    }
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
    /// As trained and stored: every shape on all 8 images.
    weights: Vec<i16>,
    /// The same, folded to the distinct instances (`fold`): what `evaluate` reads.
    folded: Vec<i16>,
    instances: Vec<fold::Instance>,
    digits: Vec<u16>,
    bmi2: bool,
}

impl Evaluator {
    /// Weights as the decoder or trainer gives them, each within `weights::MAX_WEIGHT`.
    pub fn from_weights(weights: Vec<i16>) -> Evaluator {
        let folding = fold::Folding::new();
        let folded = weights
            .chunks_exact(STAGE_WEIGHTS)
            .flat_map(|stage| {
                let mut f = folding.fold(stage);
                f.extend_from_slice(&stage[PATTERN_WEIGHTS..]);
                f
            })
            .collect();
        Evaluator {
            weights,
            folded,
            instances: folding.instances,
            digits: folding.digits,
            bmi2: has_bmi2(),
        }
    }

    /// The weights shipped in the binary.
    pub fn embedded() -> Result<Evaluator, EvalError> {
        Evaluator::decode(EMBEDDED, "params/eval.bin (embedded)")
    }

    pub fn load(path: &std::path::Path) -> Result<Evaluator, EvalError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| EvalError {
            file: name.clone(),
            problem: weights::WeightsProblem::Io(e.to_string()),
        })?;
        Evaluator::decode(&bytes, &name)
    }

    fn decode(bytes: &[u8], name: &str) -> Result<Evaluator, EvalError> {
        let (set, stages, w) = weights::decode(bytes, name, |set| match set {
            1 => Some(SET1_STAGE_WEIGHTS as u32),
            2 => Some(SET2_STAGE_WEIGHTS as u32),
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
            1 => upgrade(&w, SET1_STAGE_WEIGHTS),
            2 => upgrade(&w, SET2_STAGE_WEIGHTS),
            _ => w,
        };
        Ok(Evaluator::from_weights(w))
    }

    /// `DIR/eval.bin` when a params directory is given, else the embedded weights.
    pub fn load_or_embedded(params: Option<&std::path::Path>) -> Result<Evaluator, EvalError> {
        match params {
            Some(dir) => Evaluator::load(&dir.join("eval.bin")),
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
        self.evaluate_fine_with_moves(b, bits::moves(b.player, b.opponent))
    }

    /// The same when the side to move's legal moves are known.
    #[inline]
    fn evaluate_fine_with_moves(&self, b: &Board, moves: u64) -> i32 {
        let empties = b.empty_count();
        let w = &self.folded[stage(empties) * STAGE_WEIGHTS..][..STAGE_WEIGHTS];
        let patterns = self.pattern_sum(b, w);
        let mobility = moves.count_ones() as i32 - bits::moves(b.opponent, b.player).count_ones() as i32;
        (patterns + mobility * w[MOBILITY] as i32 + w[BY_EMPTIES + empties.min(60) as usize] as i32) * (256 / SCALE)
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
        let f = features(b, self.bmi2);
        let w = &self.weights[stage(b.empty_count()) * STAGE_WEIGHTS..][..STAGE_WEIGHTS];
        let sum: i32 = f.indices.iter().map(|&i| w[i as usize] as i32).sum::<i32>()
            + f.mobility * w[MOBILITY] as i32
            + w[BY_EMPTIES + f.empties.min(60) as usize] as i32;
        sum * (256 / SCALE)
    }

    /// Side to move's score in discs, rounded and clamped to [-64, 64].
    pub fn evaluate(&self, b: &Board) -> i32 {
        to_discs(self.evaluate_fine(b))
    }
}

/// Set 1/2 stages (patterns, mobility, bias[, odd-empties weight]) as set 3 stages: the bias
/// (plus the parity weight at odd counts) becomes the offset at every empties count.
fn upgrade(old: &[i16], per_stage: usize) -> Vec<i16> {
    old.chunks_exact(per_stage)
        .flat_map(|s| {
            let (bias, parity) = (s[PATTERN_WEIGHTS + 1], s.get(PATTERN_WEIGHTS + 2).copied().unwrap_or(0));
            // Within ±8191 each: the sum is clamped to the format's range.
            let offset = |e: usize| {
                (bias as i32 + (e & 1) as i32 * parity as i32).clamp(-weights::MAX_WEIGHT as i32, weights::MAX_WEIGHT as i32)
                    as i16
            };
            s[..=PATTERN_WEIGHTS]
                .iter()
                .copied()
                .chain((0..=60).map(offset))
                .collect::<Vec<i16>>()
        })
        .collect()
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry;

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

    #[test]
    fn folded_tables_give_the_unfolded_sum() {
        let e = Evaluator::embedded().expect("embedded weights");
        let mut portable = e.clone();
        portable.bmi2 = false;
        let mut seed = 31u64;
        for k in 0..300 {
            let b = crate::board::random_game(&mut seed, k % 56 + 4);
            assert_eq!(e.evaluate_fine(&b), e.evaluate_unfolded(&b), "{b:?}");
            assert_eq!(portable.evaluate_fine(&b), e.evaluate_fine(&b), "{b:?}");
        }
    }

    /// Older files load: a set-2 file (bias and odd-empties weight) and a set-1 file (bias
    /// only) evaluate exactly as they did, through offsets by empties.
    #[test]
    fn older_pattern_sets_load_as_offsets() {
        let e = Evaluator::embedded().expect("embedded weights");
        for (set, per_stage) in [(1u32, SET1_STAGE_WEIGHTS), (2, SET2_STAGE_WEIGHTS)] {
            // An old file with bias 3 + stage and odd-empties weight -5 (set 2 only).
            let old: Vec<i16> = e
                .weights
                .chunks_exact(STAGE_WEIGHTS)
                .enumerate()
                .flat_map(|(k, s)| {
                    s[..=PATTERN_WEIGHTS]
                        .iter()
                        .copied()
                        .chain([3 + k as i16, -5])
                        .take(per_stage)
                })
                .collect();
            let mut bytes = weights::encode(STAGES as u32, per_stage as u32, &old);
            bytes[8..12].copy_from_slice(&set.to_le_bytes());
            let n = bytes.len() - 4;
            let sum = weights::fnv1a(&bytes[..n]);
            bytes[n..].copy_from_slice(&sum.to_le_bytes());
            let loaded = Evaluator::decode(&bytes, "old.bin").expect("old set decodes");
            for (k, s) in loaded.weights.chunks_exact(STAGE_WEIGHTS).enumerate() {
                assert_eq!(s[..=PATTERN_WEIGHTS], e.weights[k * STAGE_WEIGHTS..][..=PATTERN_WEIGHTS]);
                for em in 0..=60 {
                    let odd = if set == 2 && em % 2 == 1 { -5 } else { 0 };
                    assert_eq!(s[BY_EMPTIES + em], 3 + k as i16 + odd, "set {set} stage {k} empties {em}");
                }
            }
        }
    }

    #[test]
    fn corrupt_files_are_named_errors() {
        let dir = std::env::temp_dir().join(format!("oxello-eval-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("bad.bin");
        std::fs::write(&path, b"OXEV\x01").expect("write");
        let err = Evaluator::load(&path).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("bad.bin") && err.contains("truncated"), "{err}");
        assert!(Evaluator::load(&dir.join("missing.bin")).is_err());
    }
}
