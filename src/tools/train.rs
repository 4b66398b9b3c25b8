//! `oxello train`: least-squares fit of the pattern weights on self-play records.
//!
//! Per stage (one stage per thread: stages share no weights, so the split is exact and the
//! result deterministic), the ridge least-squares problem is solved by preconditioned conjugate
//! gradients on its normal equations — full passes over the data, no learning rate; online
//! Adam, used before, stopped at a noise floor no better than this optimum. Then a few
//! reweighted rounds turn it into a Huber fit (residuals beyond `huber` discs count linearly),
//! which matches the absolute error we report better than squares do. Every 10th game is held
//! out; the iterate with the lowest held-out error is kept per stage. Symmetry needs no
//! augmentation: every shape is read on all 8 images of the board, so the model is symmetric
//! by construction.

use crate::base::OrderingEval;
use crate::eval::dataset::{Label, Record};
use crate::eval::weights::MAX_WEIGHT;
use crate::eval::{self, Evaluator, SCALE, STAGE_WEIGHTS, STAGES, TERM_BASES, TERMS};
use crate::search::endgame::Solver;

pub struct TrainOptions {
    /// Conjugate-gradient iterations of the least-squares fit (each reweighted round runs half).
    pub iterations: usize,
    /// Ridge strength λ: pulls rarely seen configurations towards zero.
    pub ridge: f32,
    /// Huber threshold in discs (0: plain least squares).
    pub huber: f32,
    /// Reweighted rounds of the Huber fit.
    pub huber_rounds: usize,
    pub threads: usize,
    /// A training record also trains stages within this many empties of its own.
    pub share: u32,
    /// Weights to start from (warm start); zeros when None. The fit learns a correction to
    /// them and the ridge pulls the correction to zero, so configurations the new data rarely
    /// shows keep what earlier rounds learned instead of shrinking towards zero.
    pub init: Option<Evaluator>,
    /// Added to every game-result label (see `calibrate`).
    pub label_shift: LabelShift,
    /// Stages to fit (None: all); the others keep the starting weights.
    pub stages: Option<Vec<usize>>,
    /// Share of the training games used (for learning curves); held-out games are all kept.
    pub fraction: f64,
    /// Give the off-line records (siblings) an offset per empties count of their own during
    /// the fit, not part of the evaluation. A sibling follows a move the line's player did not
    /// choose, so it is better for its side to move than the line by construction; at 14-16
    /// empties the exact siblings outnumber the line two to one, and without this the
    /// evaluation's own offset there takes on their mean and overrates every position a
    /// search meets by 3-4 discs (docs/history/training.md#session-23).
    pub off_line_offset: bool,
    /// Training records whose label is beyond ± the first value (discs) count the second
    /// value times (1: all alike). Games with blunders and drifting shallow games fill the
    /// corpus with lopsided positions; this tests whether they pull a linear stage away from
    /// the balanced ones games are decided on (for stages 4-8 they did not:
    /// docs/history/training.md#session-27). Held-out records are not reweighted.
    pub lopsided: (f32, f32),
}

/// The fit's weights of a stage: the evaluation's, then the off-line offsets by empties.
const FIT_WEIGHTS: usize = STAGE_WEIGHTS + 61;
/// `Sample::off_line` of a record that has no off-line offset.
const ON_LINE: u8 = u8::MAX;

impl TrainOptions {
    fn fits(&self, stage: usize) -> bool {
        self.stages.as_ref().is_none_or(|s| s.contains(&stage))
    }

    fn start(&self, stage: usize) -> Vec<f32> {
        self.init
            .as_ref()
            .map_or_else(|| vec![0f32; STAGE_WEIGHTS], |e| e.stage_weights(stage))
    }

    /// The starting weights with the off-line offsets (zero) after them.
    fn fit_start(&self, stage: usize) -> Vec<f32> {
        let mut w = self.start(stage);
        w.resize(FIT_WEIGHTS, 0.0);
        w
    }
}

/// Correction of game-result labels by the parity of the empties. Before the perfect-play part
/// a game is played by a shallow search; the side to move at the last searched position gives
/// away what its move loses, so the result understates the exact score of positions where that
/// side is to move (odd empties when perfect play starts at 20) and the losses of both sides
/// roughly cancel at the others.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LabelShift {
    pub odd: f32,
    pub even: f32,
}

impl LabelShift {
    fn of(&self, empties: u32) -> f32 {
        if empties % 2 == 1 { self.odd } else { self.even }
    }
}

/// Measures the shift: solves up to `count` game-labelled training records at each of the two
/// empties counts `at` (one odd, one even: the first two before perfect play, 21 and 22 for
/// self-play's default), spread over the data, and returns the mean of exact − label for each
/// parity, with the number of positions solved. Held-out games are not used.
pub fn calibrate(
    records: &[Record],
    count: usize,
    at: [u32; 2],
    eval: &(dyn OrderingEval + Sync),
    threads: usize,
) -> (LabelShift, usize) {
    let pick = |empties: u32| -> Vec<Record> {
        let all: Vec<&Record> = records
            .iter()
            .filter(|r| r.game % 10 != 9 && r.label == Label::Game && r.board.empty_count() == empties && r.board.moves() != 0)
            .collect();
        let step = (all.len() / count.max(1)).max(1);
        all.into_iter().step_by(step).take(count).copied().collect()
    };
    let mean_gap = |sample: &[Record]| -> f32 {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let sum = parking_lot::Mutex::new(0i64);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let stop = std::sync::atomic::AtomicBool::new(false);
                    let mut solver = Solver::new(16);
                    while let Some(r) = sample.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        let exact = solver.solve_exact_guided(&r.board, eval, &stop).score;
                        *sum.lock() += (exact - r.score as i32) as i64;
                    }
                });
            }
        });
        sum.into_inner() as f32 / sample.len().max(1) as f32
    };
    let (odd, even) = if at[0] % 2 == 1 {
        (pick(at[0]), pick(at[1]))
    } else {
        (pick(at[1]), pick(at[0]))
    };
    let shift = LabelShift {
        odd: mean_gap(&odd),
        even: mean_gap(&even),
    };
    (shift, odd.len() + even.len())
}

/// Held-out mean absolute error (discs) per stage, with sample counts.
#[derive(Clone, Debug, Default)]
pub struct StageReport {
    pub stage: usize,
    pub train: usize,
    pub holdout: usize,
    pub mae: f64,
    /// The starting weights' held-out error (zeros, or the warm start's): what the fit gained.
    pub start_mae: f64,
    /// Error on the training records of the stage's own empties (the gap to `mae` is overfitting).
    pub train_mae: f64,
    /// Iterations (over all rounds) up to the kept iterate.
    pub iterations_used: usize,
}

struct Sample {
    /// The weights the evaluation of the sample adds up (`eval::features`), each less its
    /// term's base (`eval::TERM_BASES`): half the memory of full indices.
    terms: [u16; TERMS],
    /// The empties count of an off-line record fitted with its own offset, else `ON_LINE`.
    off_line: u8,
    target: f32,
    /// The record belongs to this stage (not borrowed from a neighbour).
    own: bool,
    /// The record's weight in the fit before the Huber rounds (`TrainOptions::lopsided`).
    prior: f32,
}

impl Sample {
    /// Indices of the sample's weights in a stage.
    fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        let extra = (self.off_line != ON_LINE).then_some(STAGE_WEIGHTS + self.off_line as usize);
        self.terms
            .iter()
            .zip(&TERM_BASES)
            .map(|(&t, &base)| (base + t as u32) as usize)
            .chain(extra)
    }
}

fn predict(w: &[f32], s: &Sample) -> f32 {
    s.indices().map(|i| w[i]).sum::<f32>()
}

fn mae(w: &[f32], samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    samples.iter().map(|s| (predict(w, s) - s.target).abs() as f64).sum::<f64>() / samples.len() as f64
}

/// The best iterate so far: held-out error, weights, iteration count when found, iterations run.
struct Best {
    mae: f64,
    weights: Vec<f32>,
    at: usize,
    run: usize,
}

impl Best {
    fn offer(&mut self, w: &[f32], hold: &[Sample]) {
        let e = mae(w, hold);
        if e < self.mae || self.mae.is_nan() {
            self.mae = e;
            self.weights.copy_from_slice(w);
            self.at = self.run;
        }
    }
}

/// `Aᵀ C (A v)` for the stage's design matrix A (one row per sample) and sample weights C,
/// plus `lambda·v`.
fn normal_product(samples: &[Sample], c: &[f32], v: &[f32], lambda: f64) -> Vec<f64> {
    let mut out: Vec<f64> = v.iter().map(|&x| lambda * x as f64).collect();
    for (s, &cs) in samples.iter().zip(c) {
        let q = (predict(v, s) * cs) as f64;
        for i in s.indices() {
            out[i] += q;
        }
    }
    out
}

/// Conjugate gradients on the weighted ridge least-squares normal equations
/// (`(AᵀCA + λI) w = AᵀCy`) with a diagonal preconditioner, from `w`; tracks the iterate with
/// the lowest held-out error in `best`.
fn cg(train: &[Sample], c: &[f32], hold: &[Sample], w: &mut [f32], iterations: usize, lambda: f64, best: &mut Best) {
    let mut diag = vec![lambda.max(1e-3); w.len()];
    let mut r: Vec<f64> = w.iter().map(|&x| -lambda * x as f64).collect();
    for (s, &cs) in train.iter().zip(c) {
        let cs = cs as f64;
        let res = (s.target - predict(w, s)) as f64 * cs;
        for i in s.indices() {
            diag[i] += cs;
            r[i] += res;
        }
    }
    let mut z: Vec<f64> = r.iter().zip(&diag).map(|(a, d)| a / d).collect();
    let mut p: Vec<f32> = z.iter().map(|&x| x as f32).collect();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    for _ in 0..iterations {
        let q = normal_product(train, c, &p, lambda);
        let pq: f64 = p.iter().zip(&q).map(|(&a, b)| a as f64 * b).sum();
        if pq <= 0.0 || !pq.is_finite() {
            break;
        }
        let alpha = rz / pq;
        for j in 0..w.len() {
            w[j] += (alpha * p[j] as f64) as f32;
            r[j] -= alpha * q[j];
            z[j] = r[j] / diag[j];
        }
        let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for j in 0..w.len() {
            p[j] = (z[j] + beta * p[j] as f64) as f32;
        }
        best.run += 1;
        best.offer(w, hold);
    }
}

/// Trains one stage: least squares by conjugate gradients, then the reweighted Huber rounds
/// (each sample weighted by `huber / max(|residual|, huber)` of the best fit so far).
/// Samples' targets are relative to the stage's starting weights (see `train`), so the fit
/// starts from zero.
fn train_stage(stage: usize, train: &[Sample], hold: &[Sample], opts: &TrainOptions) -> (Vec<f32>, StageReport) {
    let lambda = opts.ridge as f64;
    let mut w = vec![0f32; FIT_WEIGHTS];
    let mut c: Vec<f32> = train.iter().map(|s| s.prior).collect();
    let start_mae = mae(&w, hold);
    let mut best = Best {
        mae: start_mae,
        weights: w.clone(),
        at: 0,
        run: 0,
    };
    cg(train, &c, hold, &mut w, opts.iterations, lambda, &mut best);
    if opts.huber > 0.0 {
        for _ in 0..opts.huber_rounds {
            w.copy_from_slice(&best.weights);
            for (s, cs) in train.iter().zip(c.iter_mut()) {
                *cs = s.prior * opts.huber / (predict(&w, s) - s.target).abs().max(opts.huber);
            }
            cg(train, &c, hold, &mut w, opts.iterations / 2, lambda, &mut best);
        }
    }
    let own: Vec<&Sample> = train.iter().filter(|s| s.own).collect();
    let train_mae = own
        .iter()
        .map(|s| (predict(&best.weights, s) - s.target).abs() as f64)
        .sum::<f64>()
        / own.len().max(1) as f64;
    let report = StageReport {
        stage,
        train: train.len(),
        holdout: hold.len(),
        mae: best.mae,
        start_mae,
        train_mae,
        iterations_used: best.at,
    };
    (best.weights, report)
}

/// Is game `game` in a subset of about `fraction` of all games? A hash of the number, so the
/// subset is spread over every data file and rounds alike, and each subset contains the smaller.
fn in_fraction(game: u64, fraction: f64) -> bool {
    crate::rng::in_hashed_share(game, crate::rng::GAMMA, fraction)
}

/// The training and held-out samples of each stage in `stages`, in record order: a held-out
/// record (every 10th game) serves its own stage; a training record in the learning-curve
/// subset also the neighbouring stages within `opts.share` empties — with little data,
/// borrowing from nearby stages beats fitting each alone.
fn stage_samples(
    records: &[Record],
    opts: &TrainOptions,
    start: &[Vec<f32>],
    stages: &[usize],
) -> Vec<(Vec<Sample>, Vec<Sample>)> {
    let bmi2 = eval::has_bmi2();
    let mut per_stage: Vec<(Vec<Sample>, Vec<Sample>)> = stages.iter().map(|_| (Vec::new(), Vec::new())).collect();
    let label = |r: &Record| {
        r.score as f32
            + if r.label == Label::Game {
                opts.label_shift.of(r.board.empty_count())
            } else {
                0.0
            }
    };
    for r in records {
        let (st, e) = (eval::stage(r.board.empty_count()), r.board.empty_count());
        let held_out = r.game % 10 == 9;
        let serves = |k: usize| {
            let lo = k as u32 * eval::STAGE_WIDTH;
            let hi = lo + eval::STAGE_WIDTH - 1;
            if held_out {
                k == st
            } else {
                in_fraction(r.game, opts.fraction) && e + opts.share >= lo && e <= hi + opts.share
            }
        };
        if !stages.iter().any(|&k| serves(k)) {
            // Skipped before the costly feature extraction.
            continue;
        }
        let mut terms = [0u16; TERMS];
        for ((t, i), base) in terms.iter_mut().zip(eval::features(&r.board, bmi2)).zip(TERM_BASES) {
            *t = (i - base) as u16;
        }
        let target = label(r);
        let prior = if !held_out && target.abs() > opts.lopsided.0 {
            opts.lopsided.1
        } else {
            1.0
        };
        for (&k, slot) in stages.iter().zip(per_stage.iter_mut()).filter(|(k, _)| serves(**k)) {
            let mut sample = Sample {
                terms,
                off_line: if opts.off_line_offset && r.off_line {
                    e as u8
                } else {
                    ON_LINE
                },
                target,
                own: k == st,
                prior,
            };
            sample.target -= predict(&start[k], &sample);
            if held_out { &mut slot.1 } else { &mut slot.0 }.push(sample);
        }
    }
    per_stage
}

/// Fits all stages; games numbered 9 mod 10 are held out.
pub fn train(records: &[Record], opts: &TrainOptions, progress: bool) -> (Evaluator, Vec<StageReport>) {
    // Targets are what the starting weights leave unexplained: the fit finds a correction.
    let start: Vec<Vec<f32>> = (0..STAGES).map(|k| opts.fit_start(k)).collect();
    let mut results = Vec::new();
    let fitted: Vec<usize> = (0..STAGES).filter(|&k| opts.fits(k)).collect();
    for st in (0..STAGES).filter(|&k| !opts.fits(k)) {
        results.push((
            st,
            opts.start(st),
            StageReport {
                stage: st,
                ..StageReport::default()
            },
        ));
    }
    // The samples of all stages at once outgrow the machine: a record serves about 1.7 stages
    // at some 256 bytes a sample, so all stages of 31 M records would take about 13 GB, and
    // the corpus's budget holds four times that. So the stages are built and fitted one batch at a time, as many as threads
    // fit at once; a batch's samples are freed before the next is built. Each stage sees the
    // same samples in the same order either way, so the weights do not depend on the batching.
    for batch in fitted.chunks(opts.threads.max(1)) {
        let per_stage = stage_samples(records, opts, &start, batch);
        let done = parking_lot::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for (&st, (train, hold)) in batch.iter().zip(&per_stage) {
                let (start, done) = (&start, &done);
                scope.spawn(move || {
                    let (mut w, rep) = train_stage(st, train, hold, opts);
                    for (x, s) in w.iter_mut().zip(&start[st]) {
                        *x += s;
                    }
                    if progress && opts.off_line_offset {
                        let lo = st * eval::STAGE_WIDTH as usize;
                        let offsets: Vec<String> = (lo..lo + eval::STAGE_WIDTH as usize)
                            .map(|e| format!("{e}: {:+.2}", w[STAGE_WEIGHTS + e]))
                            .collect();
                        eprintln!("train: stage {st}: off-line offsets by empties (discs) {}", offsets.join(", "));
                    }
                    // The off-line offsets are the fit's alone.
                    w.truncate(STAGE_WEIGHTS);
                    if progress {
                        eprintln!(
                            "train: stage {st} (empties {}-{}): {} train, {} held out, MAE {:.2} -> {:.2} discs (iteration {}; training MAE {:.2})",
                            st as u32 * eval::STAGE_WIDTH,
                            st as u32 * eval::STAGE_WIDTH + eval::STAGE_WIDTH - 1,
                            rep.train,
                            rep.holdout,
                            rep.start_mae,
                            rep.mae,
                            rep.iterations_used,
                            rep.train_mae
                        );
                    }
                    done.lock().push((st, w, rep));
                });
            }
        });
        results.extend(done.into_inner());
    }
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
        .filter(|r| r.game % 10 == 9 && r.label == Label::Exact && empties.contains(&r.board.empty_count()))
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

    /// Small, quick options for the tests.
    fn options() -> TrainOptions {
        TrainOptions {
            iterations: 20,
            ridge: 1.0,
            huber: 4.0,
            huber_rounds: 1,
            threads: 2,
            share: 0,
            init: None,
            label_shift: LabelShift::default(),
            stages: None,
            fraction: 1.0,
            off_line_offset: false,
            lopsided: (f32::INFINITY, 1.0),
        }
    }

    /// Lopsided training records at weight 0 leave the fit as if they were not there, and the
    /// held-out ones still count; at weight 1 the option changes nothing.
    #[test]
    fn lopsided_records_weigh_what_they_are_told() {
        let data = crate::tools::random_solved(1500, 12, 99);
        let beyond = 24.0;
        let fit = |records: &[Record], lopsided| {
            let opts = TrainOptions { lopsided, ..options() };
            train(records, &opts, false)
        };
        let lopsided = |r: &Record| r.game % 10 != 9 && (r.score as f32).abs() > beyond;
        let n = data.iter().filter(|r| lopsided(r)).count();
        assert!(n > 100 && n * 2 < data.len(), "{n} lopsided of {}", data.len());
        let kept: Vec<Record> = data.iter().filter(|r| !lopsided(r)).cloned().collect();
        let (dropped, dropped_rep) = fit(&kept, (f32::INFINITY, 1.0));
        let (zero, zero_rep) = fit(&data, (beyond, 0.0));
        assert_eq!(zero.stage_weights(2), dropped.stage_weights(2));
        assert_eq!(zero_rep[2].holdout, dropped_rep[2].holdout);
        let (plain, _) = fit(&data, (f32::INFINITY, 1.0));
        let (one, _) = fit(&data, (beyond, 1.0));
        assert_eq!(plain.stage_weights(2), one.stage_weights(2));
        assert_ne!(plain.stage_weights(2), zero.stage_weights(2));
    }

    /// The stages are built and fitted in batches of `threads` (to bound memory); records
    /// shared between neighbouring stages must reach each stage alike whatever the batches,
    /// so one thread (two batches) and two or three (one batch) give the same weights and reports.
    #[test]
    fn the_fit_does_not_depend_on_how_stages_are_batched() {
        let mut data = Vec::new();
        for (k, empties) in [10, 11, 12, 13].into_iter().enumerate() {
            data.extend(
                crate::tools::random_solved(200, empties, 77 + k as u64)
                    .into_iter()
                    .map(|r| Record {
                        game: r.game + 1000 * k as u64,
                        ..r
                    }),
            );
        }
        let fit = |threads| {
            let opts = TrainOptions {
                threads,
                share: 2,
                iterations: 6,
                huber_rounds: 0,
                ..options()
            };
            train(&data, &opts, false)
        };
        let (one, one_rep) = fit(1);
        for (st, rep) in one_rep.iter().enumerate().filter(|(st, _)| (1..=2).contains(st)) {
            assert!(one.stage_weights(st).iter().any(|&w| w != 0.0), "stage {st} was not fitted");
            assert!(rep.train > rep.holdout && rep.holdout > 0, "stage {st}");
        }
        // Each stage borrows the other's records within 2 empties (10 and 11 for stage 2, 12
        // and 13 for stage 1): the same records reach both.
        assert_eq!(one_rep[1].train, one_rep[2].train);
        for threads in [2, 3] {
            let (e, rep) = fit(threads);
            for st in 0..STAGES {
                assert_eq!(e.stage_weights(st), one.stage_weights(st), "stage {st}, {threads} threads");
                assert_eq!((rep[st].train, rep[st].holdout), (one_rep[st].train, one_rep[st].holdout));
            }
        }
    }

    #[test]
    fn training_lowers_the_held_out_error() {
        let data = crate::tools::random_solved(1500, 12, 1234);
        let (e, reports) = train(&data, &options(), false);
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

    /// Off-line records whose labels sit 8 discs above what their boards say: fitted with
    /// their own offset, the evaluation of the line's positions stays unbiased; without it,
    /// it takes on a good part of the shift.
    #[test]
    fn the_off_line_offset_keeps_the_shift_out_of_the_evaluation() {
        let line = crate::tools::random_solved(1200, 12, 4321);
        // Copies of the same positions as off-line records of other games, labelled 8 higher.
        let mut data = line.clone();
        data.extend(line.iter().map(|r| Record {
            score: (r.score + 8).min(64),
            off_line: true,
            game: r.game + 1_000_000,
            ..*r
        }));
        let bias = |offset: bool| {
            let opts = TrainOptions {
                iterations: 30,
                huber: 0.0,
                off_line_offset: offset,
                ..options()
            };
            let (e, _) = train(&data, &opts, false);
            line.iter()
                .map(|r| (e.evaluate(&r.board) - r.score as i32) as f64)
                .sum::<f64>()
                / line.len() as f64
        };
        let (with, without) = (bias(true), bias(false));
        assert!(with.abs() < 1.0, "bias with the off-line offset {with:.2}");
        assert!(without > 2.5, "bias without it {without:.2}");
    }

    /// With `stages` set only those stages are fitted; the others keep the starting weights.
    #[test]
    fn only_the_selected_stages_are_fitted() {
        let data = crate::tools::random_solved(300, 12, 77);
        let opts = TrainOptions {
            iterations: 5,
            share: 6,
            stages: Some(vec![2]),
            ..options()
        };
        let (e, reports) = train(&data, &opts, false);
        for (st, report) in reports.iter().enumerate() {
            let w = e.stage_weights(st);
            assert_eq!(w.iter().any(|&x| x != 0.0), st == 2, "stage {st}");
            assert_eq!(report.train > 0, st == 2, "stage {st}");
        }
    }

    /// A warm start learns a correction to the starting weights: the weights of configurations
    /// no training record shows keep their starting values (a ridge towards zero would shrink
    /// them), and the held-out error is no worse than the start's.
    #[test]
    fn a_warm_start_keeps_what_the_data_does_not_show() {
        let start = crate::eval::Evaluator::embedded().expect("weights");
        let data = crate::tools::random_solved(400, 14, 31);
        let opts = TrainOptions {
            iterations: 10,
            share: 0,
            stages: Some(vec![2]),
            init: Some(start.clone()),
            ..options()
        };
        let (e, reports) = train(&data, &opts, false);
        let seen: std::collections::HashSet<usize> = data
            .iter()
            .filter(|r| r.game % 10 != 9)
            .flat_map(|r| eval::features(&r.board, eval::has_bmi2()))
            .map(|i| i as usize)
            .collect();
        let (before, after) = (start.stage_weights(2), e.stage_weights(2));
        let mut changed = 0;
        for (i, (a, b)) in before.iter().zip(&after).enumerate() {
            if a != b {
                assert!(seen.contains(&i), "weight {i} changed without data: {a} -> {b}");
                changed += 1;
            }
        }
        assert!(changed > 0, "the data changed nothing");
        let start_mae = holdout_mae(&start, &data, 14..=14).0;
        assert!(reports[2].mae <= start_mae + 0.01, "{} vs {start_mae}", reports[2].mae);
    }

    /// A fraction keeps about that share of the training games, nested, and every held-out one.
    #[test]
    fn a_fraction_trains_on_a_nested_subset_of_games() {
        let data = crate::tools::random_solved(2000, 12, 9);
        let opts = |fraction| TrainOptions {
            iterations: 1,
            huber: 0.0,
            fraction,
            ..options()
        };
        let count = |fraction| {
            let (_, reports) = train(&data, &opts(fraction), false);
            (
                reports.iter().map(|r| r.train).sum::<usize>(),
                reports.iter().map(|r| r.holdout).sum::<usize>(),
            )
        };
        let (all, hold) = count(1.0);
        let (half, hold_half) = count(0.5);
        assert_eq!(hold, hold_half);
        assert!(half * 10 > all * 4 && half * 10 < all * 6, "{half} of {all}");
        for g in 0..1000 {
            assert!(!in_fraction(g, 0.25) || in_fraction(g, 0.5));
        }
    }

    /// Game labels 4 discs below the exact score at odd empties and 2 above at even ones are
    /// measured as shifts of +4 and -2.
    #[test]
    fn calibration_measures_the_label_error() {
        let eval = crate::eval::Evaluator::embedded().expect("weights");
        let mut records = crate::tools::random_solved(40, 11, 5);
        records.extend(crate::tools::random_solved(40, 12, 6));
        for r in &mut records {
            r.label = Label::Game;
            r.score += if r.board.empty_count() == 11 { -4 } else { 2 };
        }
        let (shift, n) = calibrate(&records, 6, [11, 12], &eval, 2);
        assert_eq!((shift, n), (LabelShift { odd: 4.0, even: -2.0 }, 12));
    }
}
