//! Does the evaluation gain from a non-linear combination of its own terms? For each stage, the
//! shipped weights' value of every corpus record is split into 18 group sums (the 14 pattern
//! shapes over their 8 images, mobility, potential mobility, the offset by empties, the edge
//! moves); on the training games' records two corrections are fitted to the labels and judged on
//! the held-out games' (game number 9 mod 10):
//! - gains: a weight per group and a bias (a linear re-weighting of what the stage already says);
//! - network: the gains plus a hidden layer of `HIDDEN` ReLU units over the group sums.
//!
//! If the network beats the gains by a clear margin, interactions between the terms (say, the
//! edges counting for less once the corners are settled) are worth a model that has them; if
//! not, the linear form is not what holds the evaluation back. A measurement
//! (docs/history/training.md#session-26), not a check:
//!
//! `STAGES=2,3,4 cargo run --release --example group_mlp -- corpus`
//!
//! Settings: `STAGES` (comma list, default 2,3,4), `TRAIN` records a stage (default 400000,
//! every k-th), `HIDDEN` (16), `EPOCHS` (8), `SEED` (1); labels as `oxello train --labels
//! deep-from-21` (deep searches from 21 empties, results below), siblings of every game.

use oxello::board::Board;
use oxello::corpus::LabelPolicy;
use oxello::corpus::store::Corpus;
use oxello::eval::patterns::{INSTANCES, N_SHAPES};
use oxello::eval::{self, Evaluator, TERMS};
use oxello::rng::SplitMix;

mod common;
use common::setting;

const GROUPS: usize = N_SHAPES + 4;
/// Inputs: the group sums, the empties within the stage, then (with `BOARD=1`) each square's
/// disc for each side (zeros otherwise).
const INPUTS: usize = GROUPS + 1 + 128;
/// Group sums are a few discs; this brings them near unit size for the optimiser.
const INPUT_SCALE: f32 = 1.0 / 8.0;

/// Which group each term of `eval::features` belongs to.
fn group_of(term: usize) -> usize {
    if term < INSTANCES {
        term % N_SHAPES
    } else {
        (N_SHAPES + term - INSTANCES).min(GROUPS - 1)
    }
}

struct Sample {
    x: [f32; INPUTS],
    target: f32,
}

fn sample(w: &[f32], b: &Board, score: f32, bmi2: bool, stage: usize, board: bool) -> Sample {
    let mut x = [0f32; INPUTS];
    for (term, i) in eval::features(b, bmi2).iter().enumerate() {
        x[group_of(term)] += w[*i as usize];
    }
    for v in &mut x[..GROUPS] {
        *v *= INPUT_SCALE;
    }
    let centre = (stage as u32 * eval::STAGE_WIDTH) as f32 + (eval::STAGE_WIDTH as f32 - 1.0) / 2.0;
    x[GROUPS] = (b.empty_count() as f32 - centre) / 3.0;
    if board {
        for sq in 0..64 {
            x[GROUPS + 1 + sq] = (b.player >> sq & 1) as f32;
            x[GROUPS + 1 + 64 + sq] = (b.opponent >> sq & 1) as f32;
        }
    }
    Sample { x, target: score }
}

/// The correction model: bias + gains · x (+ v · relu(W x + c) when `hidden` > 0).
struct Model {
    hidden: usize,
    /// [bias, gains (INPUTS), W (hidden × INPUTS), c (hidden), v (hidden)]
    p: Vec<f32>,
}

impl Model {
    fn new(hidden: usize, seed: &mut SplitMix) -> Model {
        let n = 1 + INPUTS + hidden * INPUTS + 2 * hidden;
        let mut p = vec![0f32; n];
        // Gains start at 1/INPUT_SCALE for the group sums: the model starts as the stage itself.
        for g in &mut p[1..1 + GROUPS] {
            *g = 1.0 / INPUT_SCALE;
        }
        let w0 = 1 + INPUTS;
        for w in &mut p[w0..w0 + hidden * INPUTS] {
            *w = (next(seed) - 0.5) * 2.0 / (INPUTS as f32).sqrt();
        }
        let v0 = w0 + hidden * INPUTS + hidden;
        for v in &mut p[v0..] {
            *v = (next(seed) - 0.5) * 0.2;
        }
        Model { hidden, p }
    }

    /// The prediction and, when `grad` is given, d(prediction)/d(p) added into it times `scale`.
    fn run(&self, x: &[f32; INPUTS], grad: Option<(&mut [f32], f32)>) -> f32 {
        let (h, p) = (self.hidden, &self.p);
        let w0 = 1 + INPUTS;
        let (c0, v0) = (w0 + h * INPUTS, w0 + h * INPUTS + h);
        let mut y = p[0] + p[1..w0].iter().zip(x).map(|(g, x)| g * x).sum::<f32>();
        let mut acts = [0f32; 64];
        for k in 0..h {
            let row = &p[w0 + k * INPUTS..][..INPUTS];
            let a = p[c0 + k] + row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>();
            acts[k] = a.max(0.0);
            y += p[v0 + k] * acts[k];
        }
        if let Some((g, s)) = grad {
            g[0] += s;
            for (gi, xi) in g[1..w0].iter_mut().zip(x) {
                *gi += s * xi;
            }
            for k in 0..h {
                g[v0 + k] += s * acts[k];
                if acts[k] > 0.0 {
                    let d = s * p[v0 + k];
                    g[c0 + k] += d;
                    for (gi, xi) in g[w0 + k * INPUTS..][..INPUTS].iter_mut().zip(x) {
                        *gi += d * xi;
                    }
                }
            }
        }
        y
    }

    fn mae(&self, set: &[Sample]) -> f64 {
        set.iter()
            .map(|s| (self.run(&s.x, None) - s.target).abs() as f64)
            .sum::<f64>()
            / set.len().max(1) as f64
    }
}

/// Uniform in [0, 1).
fn next(seed: &mut SplitMix) -> f32 {
    (seed.next_u64() >> 40) as f32 / (1u64 << 24) as f32
}

/// Adam on the squared error, mini-batches of 256, the held-out error after each epoch; returns
/// the best held-out MAE seen.
fn fit(model: &mut Model, train: &[Sample], hold: &[Sample], epochs: u32, seed: &mut SplitMix) -> f64 {
    let n = model.p.len();
    let (mut m, mut v, mut g) = (vec![0f32; n], vec![0f32; n], vec![0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut t = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = model.mae(hold);
    for epoch in 0..epochs {
        // Shuffle, and a learning rate that halves over the last epochs.
        for i in (1..order.len()).rev() {
            order.swap(i, seed.below(i as u64 + 1) as usize);
        }
        let lr = 2e-3 * if epoch + 3 > epochs { 0.3 } else { 1.0 };
        for batch in order.chunks(256) {
            g.iter_mut().for_each(|x| *x = 0.0);
            for &i in batch {
                let s = &train[i];
                let err = model.run(&s.x, None) - s.target;
                model.run(&s.x, Some((&mut g, 2.0 * err / batch.len() as f32)));
            }
            t += 1;
            for k in 0..n {
                m[k] = b1 * m[k] + (1.0 - b1) * g[k];
                v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
                let mh = m[k] / (1.0 - b1.powi(t));
                let vh = v[k] / (1.0 - b2.powi(t));
                model.p[k] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        let e = model.mae(hold);
        eprintln!(
            "  hidden {:2} epoch {}: train {:.3}, held out {:.3}",
            model.hidden,
            epoch + 1,
            model.mae(&train[..train.len().min(50_000)]),
            e
        );
        best = best.min(e);
    }
    best
}

fn main() -> Result<(), String> {
    let paths = common::corpus_paths();
    let stages = common::stages("2,3,4")?;
    let (per_stage, hidden, epochs) = (
        setting("TRAIN", 400_000) as usize,
        setting("HIDDEN", 16) as usize,
        setting("EPOCHS", 8),
    );
    if hidden > 64 {
        return Err("HIDDEN: at most 64".into());
    }
    let mut seed = SplitMix(u64::from(setting("SEED", 1)));
    let line_only = setting("LINE_ONLY", 0) != 0;
    let board = setting("BOARD", 0) != 0;
    let evaluator = Evaluator::embedded().map_err(|e| e.to_string())?;
    let corpus = Corpus::load(&paths).map_err(|e| e.to_string())?;
    let records = corpus.records(LabelPolicy::DeepFrom(21), 1.0);
    drop(corpus);
    let bmi2 = eval::has_bmi2();
    println!(
        "{} records; shipped weights; labels deep-from-21; {}; {}",
        records.len(),
        if line_only { "game lines only" } else { "lines and siblings" },
        if board { "group sums and the squares" } else { "group sums" }
    );
    println!("| stage (empties) | train / held out | shipped | gains | network ({hidden} ReLU) |");
    println!("|---|---|---|---|---|");
    for &st in &stages {
        let w = evaluator.stage_weights(st);
        let own = |r: &&oxello::eval::dataset::Record| eval::stage(r.board.empty_count()) == st && !(line_only && r.off_line);
        let n_train = records.iter().filter(own).filter(|r| r.game % 10 != 9).count();
        let every = n_train.div_ceil(per_stage.max(1)).max(1);
        let (mut train, mut hold) = (Vec::new(), Vec::new());
        let mut k = 0usize;
        for r in records.iter().filter(own) {
            let s = sample(&w, &r.board, f32::from(r.score), bmi2, st, board);
            if r.game % 10 == 9 {
                hold.push(s);
            } else {
                k += 1;
                if k.is_multiple_of(every) {
                    train.push(s);
                }
            }
        }
        let shipped = Model::new(0, &mut seed).mae(&hold);
        eprintln!(
            "stage {st}: {} train, {} held out, shipped {shipped:.3}",
            train.len(),
            hold.len()
        );
        let gains = fit(&mut Model::new(0, &mut seed), &train, &hold, epochs, &mut seed);
        let net = fit(&mut Model::new(hidden, &mut seed), &train, &hold, epochs, &mut seed);
        let lo = st as u32 * eval::STAGE_WIDTH;
        println!(
            "| {st} ({lo}-{}) | {} / {} | {shipped:.3} | {gains:.3} | {net:.3} |",
            lo + eval::STAGE_WIDTH - 1,
            train.len(),
            hold.len()
        );
    }
    // Keep TERMS in view: a new term kind must get a group above.
    const { assert!(TERMS == INSTANCES + 3 + 8) };
    Ok(())
}
