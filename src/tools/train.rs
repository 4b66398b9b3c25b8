//! `oxello train`: least-squares fit of the pattern weights on self-play records.
//!
//! Online Adam on the squared error, one stage per thread (stages share no weights, so the
//! split is exact and the result deterministic). Every 10th game is held out; the weights of
//! the epoch with the lowest held-out error are kept per stage. Symmetry needs no augmentation:
//! every shape is read on all 8 images of the board, so the model is symmetric by construction.

use crate::eval::dataset::Record;
use crate::eval::patterns::INSTANCES;
use crate::eval::weights::MAX_WEIGHT;
use crate::eval::{self, BIAS, Evaluator, Features, MOBILITY, PARITY, SCALE, STAGE_WEIGHTS, STAGES};

pub struct TrainOptions {
    pub epochs: usize,
    pub learning_rate: f32,
    pub l2: f32,
    pub threads: usize,
    /// A training record also trains stages within this many empties of its own.
    pub share: u32,
    /// Weights to start from (warm start); zeros when None.
    pub init: Option<Evaluator>,
}

/// Held-out mean absolute error (discs) per stage, with sample counts.
#[derive(Clone, Debug, Default)]
pub struct StageReport {
    pub stage: usize,
    pub train: usize,
    pub holdout: usize,
    pub mae: f64,
    pub epochs_used: usize,
}

struct Sample {
    indices: [u32; INSTANCES],
    mobility: f32,
    parity: f32,
    target: f32,
}

fn to_sample(f: Features, target: i8) -> Sample {
    Sample {
        indices: f.indices,
        mobility: f.mobility as f32,
        parity: f.parity as f32,
        target: target as f32,
    }
}

fn predict(w: &[f32], s: &Sample) -> f32 {
    s.indices.iter().map(|&i| w[i as usize]).sum::<f32>() + s.mobility * w[MOBILITY] + w[BIAS] + s.parity * w[PARITY]
}

fn mae(w: &[f32], samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.iter().map(|s| (predict(w, s) - s.target).abs() as f64).sum::<f64>() / samples.len() as f64
}

/// Trains one stage; returns its weights (discs) and report.
fn train_stage(stage: usize, train: &[Sample], hold: &[Sample], opts: &TrainOptions) -> (Vec<f32>, StageReport) {
    let mut w = opts
        .init
        .as_ref()
        .map_or_else(|| vec![0f32; STAGE_WEIGHTS], |e| e.stage_weights(stage));
    let mut m = vec![0f32; STAGE_WEIGHTS];
    let mut v = vec![0f32; STAGE_WEIGHTS];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut t = 0i32;
    let mut best = (mae(&w, hold), w.clone(), 0);
    // A fixed pseudo-random visiting order per epoch keeps runs reproducible.
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64 ^ stage as u64;
    for epoch in 1..=opts.epochs {
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        for &k in &order {
            let s = &train[k];
            let err = predict(&w, s) - s.target;
            t = t.saturating_add(1);
            let lr = opts.learning_rate * (1.0 - b2.powi(t.min(100_000))).sqrt() / (1.0 - b1.powi(t.min(100_000)));
            let mut step = |j: usize, g: f32| {
                let g = g + opts.l2 * w[j];
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                w[j] -= lr * m[j] / (v[j].sqrt() + eps);
            };
            for &i in &s.indices {
                step(i as usize, err);
            }
            step(MOBILITY, err * s.mobility);
            step(BIAS, err);
            step(PARITY, err * s.parity);
        }
        let e = mae(&w, hold);
        if e < best.0 || best.0.is_nan() {
            best = (e, w.clone(), epoch);
        }
    }
    let report = StageReport {
        stage,
        train: train.len(),
        holdout: hold.len(),
        mae: best.0,
        epochs_used: best.2,
    };
    (best.1, report)
}

/// Fits all stages. `holdout(game)` says which games are held out.
pub fn train(records: &[Record], opts: &TrainOptions, progress: bool) -> (Evaluator, Vec<StageReport>) {
    let bmi2 = eval::has_bmi2();
    let mut per_stage: Vec<(Vec<Sample>, Vec<Sample>)> = (0..STAGES).map(|_| (Vec::new(), Vec::new())).collect();
    for r in records {
        let st = eval::stage(r.board.empty_count());
        if r.game % 10 == 9 {
            per_stage[st].1.push(to_sample(eval::features(&r.board, bmi2), r.score));
        } else {
            // Training records also serve the neighbouring stages within `opts.share` empties:
            // with little data, borrowing from nearby stages beats fitting each alone.
            let e = r.board.empty_count();
            for (k, slot) in per_stage.iter_mut().enumerate() {
                let (lo, hi) = (
                    k as u32 * eval::STAGE_WIDTH,
                    k as u32 * eval::STAGE_WIDTH + eval::STAGE_WIDTH - 1,
                );
                if e + opts.share >= lo && e <= hi + opts.share {
                    slot.0.push(to_sample(eval::features(&r.board, bmi2), r.score));
                }
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = parking_lot::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let st = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((train, hold)) = per_stage.get(st) else { break };
                    let (w, rep) = train_stage(st, train, hold, opts);
                    if progress {
                        eprintln!(
                            "train: stage {st} (empties {}-{}): {} train, {} held out, MAE {:.2} discs (epoch {})",
                            st as u32 * eval::STAGE_WIDTH,
                            st as u32 * eval::STAGE_WIDTH + eval::STAGE_WIDTH - 1,
                            rep.train,
                            rep.holdout,
                            rep.mae,
                            rep.epochs_used
                        );
                    }
                    results.lock().push((st, w, rep));
                }
            });
        }
    });
    let mut results = results.into_inner();
    results.sort_by_key(|r| r.0);
    let mut weights = vec![0i16; STAGES * STAGE_WEIGHTS];
    let mut reports = Vec::new();
    for (st, w, rep) in results {
        for (j, x) in w.iter().enumerate() {
            weights[st * STAGE_WEIGHTS + j] = (x * SCALE as f32).round().clamp(-MAX_WEIGHT as f32, MAX_WEIGHT as f32) as i16;
        }
        reports.push(rep);
    }
    (Evaluator::from_weights(weights), reports)
}

/// Held-out MAE of the quantised evaluator on records within `empties` (exact labels only).
pub fn holdout_mae(e: &Evaluator, records: &[Record], empties: std::ops::RangeInclusive<u32>) -> (f64, usize) {
    let sel: Vec<&Record> = records
        .iter()
        .filter(|r| r.game % 10 == 9 && r.exact && empties.contains(&r.board.empty_count()))
        .collect();
    let sum: f64 = sel
        .iter()
        .map(|r| (e.evaluate_fine(&r.board) as f64 / 256.0 - r.score as f64).abs())
        .sum();
    (sum / sel.len().max(1) as f64, sel.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_lowers_the_held_out_error() {
        let data = crate::eval::dataset::random_solved(1500, 12, 1234);
        let opts = TrainOptions {
            epochs: 8,
            learning_rate: 0.01,
            l2: 0.0,
            threads: 2,
            share: 0,
            init: None,
        };
        let (e, reports) = train(&data, &opts, false);
        let rep = reports.iter().find(|r| r.holdout > 0).expect("a stage with held-out data");
        let zero = mae(&vec![0f32; STAGE_WEIGHTS], &[]);
        assert!(zero.is_nan());
        // The constant predictor's error: mean |score| of the held-out set.
        let hold: Vec<&Record> = data.iter().filter(|r| r.game % 10 == 9).collect();
        let baseline = hold.iter().map(|r| (r.score as f64).abs()).sum::<f64>() / hold.len() as f64;
        assert!(rep.mae < baseline, "{} vs {baseline}", rep.mae);
        let (q, n) = holdout_mae(&e, &data, 12..=12);
        assert!(n > 0 && q < baseline, "{q} vs {baseline}");
    }
}
