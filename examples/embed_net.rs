//! Does the evaluation gain from capacity beyond one weight per pattern configuration? The
//! model the issue names (Neural Reversi's form, NNUE's first layer): every term of
//! `eval::features` (each pattern instance's configuration, the mobility pair, the potential
//! mobility pair, the offset by empties, the edge moves) reads a vector of `DIM` numbers instead
//! of one; the vectors of a position's 123 terms are summed, and the value is the linear
//! model's sum plus `Σ_k v_k · relu(acc_k + c_k)`. With `DIM = 0` it is the linear model,
//! trained the same way on the same records: the control that separates "more fitting on this
//! data" from "more capacity".
//!
//! For each stage in `STAGES`, the records of the corpus runs given (labels as `oxello train
//! --labels deep-from-21`, lines and siblings) are split by game (game number 9 mod 10 held out);
//! the linear part starts from the shipped weights; stochastic gradient descent on the squared
//! error, one record at a time, a learning rate that falls linearly to a tenth. Prints the
//! held-out MAE after each epoch. A measurement (docs/history/training.md#session-36; the
//! commands that rebuild the shipped layer: docs/corpus-and-training.md), not a check:
//!
//! `STAGES=5 DIM=16 cargo run --release --example embed_net -- corpus/xot-d8-e20-bl5-w2-r13-s12`
//!
//! Settings: `STAGES` (comma list, default 5), `DIM` (0..=64, default 16), `EPOCHS` (4), `TRAIN`
//! (most training records a stage, every k-th, default all), `LR` (embedding learning rate in
//! 1e-4, default 10), `LIN_LR` (linear weights' rate in 1e-5, default 20), `DECAY` (weight decay
//! of the vectors a touched row in 1e-6, default 10), `SKIP_SQUARES` (the shapes of that many
//! squares or more read no vector: 10 leaves the five big shapes, whose tables do not stay in
//! the caches, to the linear part alone; the engine then reads no rows of them), `SEED` (1), `OUT` (a directory: each
//! stage's result is written there as `stage-N.lin`, the linear weights, and `stage-N.net`, a
//! one-stage `net.bin`; rows no training record reached are zeroed). With `ASSEMBLE=1` and
//! `OUT`, no training: the shipped weights with every `stage-N.*` in `OUT` put in are written
//! as `OUT/eval.bin` and `OUT/net.bin` (what `--params OUT` reads; the layer folded for the
//! engine, `net.bin` version 3, while `stage-N.net` keep it as trained), and the engine's own
//! evaluation of the held-out records is compared with the shipped weights', stage by stage.
//! `HEADS=1` gives each empties count of a stage its own output head (`c`, `v`, the second
//! layer), the rows shared; `L2=n` adds a second layer of n units (at most `net::MAX_L2`)
//! over the first's activations. Either writes `net.bin` versions 4 / 5 (`src/eval/net.rs`).
//! `EXTRA_DATA=FILE`: text records (e.g. `leaf_error`'s search leaves) of each stage join its
//! training set, `EXTRA_WEIGHT` copies each.
//! `BASE_NET=FILE` with `ASSEMBLE`: stages with no `stage-N.net` keep FILE's layer (e.g.
//! `params/net.bin`) instead of none.
//! `DIM` must be one the engine reads (`net::DIMS`: 8 or 16) for a run that writes.

use oxello::corpus::LabelPolicy;
use oxello::corpus::store::Corpus;
use oxello::eval::net::{self, RawStage};
use oxello::eval::{self, Evaluator, STAGE_WEIGHTS, STAGE_WIDTH, STAGES, TERMS, patterns};
use oxello::rng::SplitMix;
use std::path::PathBuf;
use std::time::Instant;

mod common;
use common::{quantize, setting, uniform, write_stage};

struct Set {
    /// `TERMS` feature indices a record, flat.
    features: Vec<u32>,
    targets: Vec<f32>,
    /// The output head each record reads (`HEADS`: its empties within the stage, else 0).
    heads: Vec<u8>,
    /// Held out only: is the position also among the training records (a transposition, or
    /// the same opening played the same way in two games)?
    seen: Vec<bool>,
}

impl Set {
    fn new() -> Set {
        Set {
            features: Vec::new(),
            targets: Vec::new(),
            heads: Vec::new(),
            seen: Vec::new(),
        }
    }
    fn len(&self) -> usize {
        self.targets.len()
    }
    fn row(&self, i: usize) -> &[u32] {
        let w = width();
        &self.features[i * w..][..w]
    }
}

struct Model {
    dim: usize,
    lin: Vec<f32>,
    /// `dim` numbers per stage weight.
    emb: Vec<f32>,
    /// `dim` numbers per output head (one head, or one per empties of the stage with
    /// `HEADS=1`), head after head.
    c: Vec<f32>,
    v: Vec<f32>,
    bias: f32,
    /// `L2`: units of a second dense layer over the first's activations (0: none); per head
    /// `l2 × dim` weights `w2`, `l2` biases `b2` and `l2` output weights `u`.
    l2: usize,
    w2: Vec<f32>,
    b2: Vec<f32>,
    u: Vec<f32>,
}

impl Model {
    /// Returns the value through output head `head`; fills `acts` with the hidden units'
    /// activations.
    fn forward(&self, f: &[u32], head: u8, acts: &mut [f32; 64]) -> f32 {
        let mut acts2 = [0f32; 64];
        self.forward2(f, head, acts, &mut acts2)
    }

    /// `forward`, also filling `acts2` with the second layer's activations (`L2`).
    fn forward2(&self, f: &[u32], head: u8, acts: &mut [f32; 64], acts2: &mut [f32; 64]) -> f32 {
        let d = self.dim;
        let (c, v) = (&self.c[head as usize * d..][..d], &self.v[head as usize * d..][..d]);
        let mut y = self.bias;
        let mut acc = [0f32; 64];
        for &i in f {
            y += self.lin[i as usize];
            if d > 0 {
                for (a, e) in acc[..d].iter_mut().zip(&self.emb[i as usize * d..][..d]) {
                    *a += e;
                }
            }
        }
        for k in 0..d {
            acts[k] = (acc[k] + c[k]).max(0.0);
            y += v[k] * acts[k];
        }
        let l2 = self.l2;
        if l2 > 0 {
            let h = head as usize;
            let (w2, b2, u) = (
                &self.w2[h * l2 * d..][..l2 * d],
                &self.b2[h * l2..][..l2],
                &self.u[h * l2..][..l2],
            );
            for j in 0..l2 {
                let z = b2[j] + w2[j * d..][..d].iter().zip(&acts[..d]).map(|(w, a)| w * a).sum::<f32>();
                acts2[j] = z.max(0.0);
                y += u[j] * acts2[j];
            }
        }
        y
    }

    fn mae(&self, set: &Set) -> f64 {
        self.mae_over(set, 0..set.len()).0
    }

    /// MAE over the held-out records whose position no training record has, and their count.
    fn mae_novel(&self, set: &Set) -> (f64, usize) {
        self.mae_over(set, (0..set.len()).filter(|&i| !set.seen[i]))
    }

    /// MAE over the records `which` of `set`, and their count.
    fn mae_over(&self, set: &Set, which: impl Iterator<Item = usize>) -> (f64, usize) {
        let mut acts = [0f32; 64];
        let (mut sum, mut n) = (0f64, 0usize);
        for i in which {
            sum += (self.forward(set.row(i), set.heads[i], &mut acts) - set.targets[i]).abs() as f64;
            n += 1;
        }
        (sum / n.max(1) as f64, n)
    }
}

/// Uniform in [-1, 1).
/// Extra terms beyond the engine's (a measurement only: the engine reads none of them).
/// `STABLE=1`: the two sides' stable-disc counts (rows `STAGE_WEIGHTS + n` and `+ 65 + n`);
/// `QPAR=1`: which quadrants hold an odd number of empties (16 rows from `+ 130`).
fn extras() -> (bool, bool) {
    (setting("STABLE", 0) != 0, setting("QPAR", 0) != 0)
}

const EXTRA_ROWS: usize = 146;

fn width() -> usize {
    let (st, qp) = extras();
    TERMS + 2 * usize::from(st) + usize::from(qp)
}

fn extra_terms(b: &oxello::board::Board, out: &mut Vec<u32>) {
    let (st, qp) = extras();
    let base = STAGE_WEIGHTS as u32;
    if st {
        let me = oxello::board::stability::stable_discs(b.player, b.opponent).count_ones();
        let them = oxello::board::stability::stable_discs(b.opponent, b.player).count_ones();
        out.push(base + me);
        out.push(base + 65 + them);
    }
    if qp {
        let empty = !(b.player | b.opponent);
        let quads = [
            0x0000_0000_0F0F_0F0Fu64,
            0x0000_0000_F0F0_F0F0,
            0x0F0F_0F0F_0000_0000,
            0xF0F0_F0F0_0000_0000,
        ];
        let mask = quads
            .iter()
            .enumerate()
            .fold(0u32, |m, (k, q)| m | ((empty & q).count_ones() & 1) << k);
        out.push(base + 130 + mask);
    }
}

// The gradient loops index several arrays by the same unit: clearer as index loops.
#[allow(clippy::needless_range_loop)]
fn main() -> Result<(), String> {
    let paths = common::corpus_paths();
    let stages = common::stages("5")?;
    let dim = setting("DIM", 16) as usize;
    if dim > 64 {
        return Err("DIM: at most 64".into());
    }
    let epochs = setting("EPOCHS", 4);
    let per_stage = setting("TRAIN", u32::MAX) as usize;
    let lr0 = setting("LR", 10) as f32 * 1e-4;
    let lin_lr0 = setting("LIN_LR", 20) as f32 * 1e-5;
    let decay = setting("DECAY", 10) as f32 * 1e-6;
    let mut seed = SplitMix(u64::from(setting("SEED", 1)));
    let out = std::env::var("OUT").ok().map(PathBuf::from);
    if out.is_some() && width() != TERMS {
        return Err("OUT: the engine reads no STABLE / QPAR terms (a measurement only)".into());
    }
    if out.is_some() && !net::DIMS.contains(&dim) {
        return Err(format!("OUT: the engine reads a layer of DIM {:?}", net::DIMS));
    }
    // `HEADS=1`: one output head (c, v, and the second layer) per empties count of the
    // stage, the accumulator's rows shared (the per-ply output stacks of Neural Reversi's
    // form, in miniature; `net.bin` versions 4 and 5).
    let per_empties = setting("HEADS", 0) != 0;
    let n_heads = if per_empties { STAGE_WIDTH as usize } else { 1 };
    // `L2=n`: a second dense layer of n units over the first's activations.
    let l2 = setting("L2", 0) as usize;
    if l2 > net::MAX_L2 {
        return Err(format!("L2: at most {}", net::MAX_L2));
    }
    // `LIN_FROM=FILE`: the linear part starts from (and with `LIN_LR=0` keeps) that
    // `eval.bin`'s weights instead of the shipped ones, e.g. a stage refitted by `oxello train`;
    // with `OUT` each trained stage's `stage-N.lin` is then that file's stage.
    let evaluator = match std::env::var("LIN_FROM") {
        Ok(path) => Evaluator::load(std::path::Path::new(&path)).map_err(|e| e.to_string())?,
        Err(_) => Evaluator::embedded().map_err(|e| e.to_string())?,
    };
    let corpus = Corpus::load(&paths).map_err(|e| e.to_string())?;
    let records = corpus.records(LabelPolicy::DeepFrom(21), 1.0);
    drop(corpus);
    let bmi2 = eval::has_bmi2();
    if setting("ASSEMBLE", 0) != 0 {
        let dir = out.ok_or("ASSEMBLE needs OUT")?;
        return assemble(&dir, &evaluator, &records);
    }
    println!(
        "{} records; DIM {dim}, {epochs} epochs, LR {lr0}, LIN_LR {lin_lr0}, DECAY {decay}",
        records.len()
    );
    // `SPAN=n`: a stage's layer also trains on the records within n empties of its own (the
    // neighbouring stages' nearest), each fitted on the residual of its own stage's linear
    // value, so that the rows see more positions; the held-out set stays the stage's own.
    let span = setting("SPAN", 0);
    let lin_all: Vec<Vec<f32>> = if span > 0 {
        (0..STAGES).map(|s| evaluator.stage_weights(s)).collect()
    } else {
        Vec::new()
    };
    for &st in &stages {
        let lo = st as u32 * STAGE_WIDTH;
        let hi = lo + STAGE_WIDTH - 1;
        let own = |r: &&oxello::eval::dataset::Record| {
            let e = r.board.empty_count();
            if r.game % 10 == 9 || span == 0 {
                eval::stage(e) == st
            } else {
                e + span >= lo && e <= hi + span && e.min(59) / STAGE_WIDTH < STAGES as u32
            }
        };
        let n_train = records.iter().filter(own).filter(|r| r.game % 10 != 9).count();
        let every = n_train.div_ceil(per_stage.max(1)).max(1);
        let (mut train, mut hold) = (Set::new(), Set::new());
        let mut k = 0usize;
        let mut in_train = std::collections::HashSet::new();
        let mut hold_boards = Vec::new();
        for r in records.iter().filter(own) {
            if r.game % 10 == 9 {
                hold_boards.push(r.board);
            } else if (k + 1).is_multiple_of(every) {
                in_train.insert(r.board);
            }
            let set = if r.game % 10 == 9 {
                &mut hold
            } else {
                k += 1;
                if !k.is_multiple_of(every) {
                    continue;
                }
                &mut train
            };
            let feats = eval::features(&r.board, bmi2);
            let rs = eval::stage(r.board.empty_count());
            // A neighbour's record: its target less its own stage's linear value, plus this
            // stage's, so that this stage's layer learns that stage's residual.
            let shift = if rs == st {
                0.0
            } else {
                let (own_lin, this_lin) = (&lin_all[rs], &lin_all[st]);
                feats.iter().map(|&j| this_lin[j as usize] - own_lin[j as usize]).sum::<f32>()
            };
            set.features.extend_from_slice(&feats);
            extra_terms(&r.board, &mut set.features);
            set.targets.push(f32::from(r.score) + shift);
            set.heads.push(if per_empties {
                (r.board.empty_count().clamp(lo, hi) % STAGE_WIDTH) as u8
            } else {
                0
            });
        }
        // `EXTRA_DATA=FILE` (text records, e.g. the search leaves `leaf_error` writes): its
        // records of this stage join the training set, each `EXTRA_WEIGHT` times (default 1).
        if let Ok(file) = std::env::var("EXTRA_DATA") {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
            let (extra, bad) = oxello::eval::dataset::parse(&text);
            if let Some((line, why)) = bad.first() {
                return Err(format!("{file}:{line}: {why}"));
            }
            let copies = setting("EXTRA_WEIGHT", 1);
            let mut added = 0usize;
            for r in extra.iter().filter(|r| eval::stage(r.board.empty_count()) == st) {
                for _ in 0..copies {
                    train.features.extend_from_slice(&eval::features(&r.board, bmi2));
                    extra_terms(&r.board, &mut train.features);
                    train.targets.push(f32::from(r.score));
                    train.heads.push(if per_empties {
                        (r.board.empty_count().clamp(lo, hi) % STAGE_WIDTH) as u8
                    } else {
                        0
                    });
                    added += 1;
                }
            }
            println!("stage {st}: {added} training records from {file} ({copies} copies each)");
        }
        hold.seen = hold_boards.iter().map(|b| in_train.contains(b)).collect();
        drop(in_train);
        // `SKIP_SQUARES=n`: the shapes of n squares or more read no vector (their rows stay
        // zero), to see what the layer gains from the tables that stay in the caches.
        let skip = setting("SKIP_SQUARES", 99) as usize;
        let rows_n = STAGE_WEIGHTS + EXTRA_ROWS;
        let vectored: Vec<bool> = (0..rows_n)
            .map(|r| {
                (0..patterns::N_SHAPES)
                    .all(|s| patterns::SHAPES[s].len() < skip || !(patterns::OFFSETS[s]..patterns::OFFSETS[s + 1]).contains(&r))
            })
            .collect();
        let mut m = Model {
            dim,
            lin: {
                let mut l = evaluator.stage_weights(st);
                l.resize(rows_n, 0.0);
                l
            },
            emb: (0..rows_n * dim)
                .map(|i| {
                    if vectored[i / dim.max(1)] {
                        uniform(&mut seed) * 0.1
                    } else {
                        0.0
                    }
                })
                .collect(),
            c: vec![0.0; dim * n_heads],
            v: {
                let v: Vec<f32> = (0..dim).map(|_| uniform(&mut seed) * 0.5).collect();
                // Every head starts as the one head does.
                v.iter().copied().cycle().take(dim * n_heads).collect()
            },
            bias: 0.0,
            l2,
            w2: {
                let w: Vec<f32> = (0..l2 * dim)
                    .map(|_| uniform(&mut seed) / (dim.max(1) as f32).sqrt())
                    .collect();
                w.iter().copied().cycle().take(l2 * dim * n_heads).collect()
            },
            b2: vec![0.1; l2 * n_heads],
            u: vec![0.0; l2 * n_heads],
        };
        let lin_only = Model {
            dim: 0,
            lin: m.lin.clone(),
            emb: Vec::new(),
            c: Vec::new(),
            v: Vec::new(),
            bias: 0.0,
            l2: 0,
            w2: Vec::new(),
            b2: Vec::new(),
            u: Vec::new(),
        };
        let (novel, n_novel) = lin_only.mae_novel(&hold);
        println!(
            "stage {st}: {} train, {} held out; shipped: train {:.3}, held out {:.3}; the {n_novel} held-out positions no training record has: {novel:.3}",
            train.len(),
            hold.len(),
            lin_only.mae(&train),
            lin_only.mae(&hold)
        );
        let mut order: Vec<u32> = (0..train.len() as u32).collect();
        let total = (epochs as usize * train.len()).max(1) as f32;
        let mut step = 0usize;
        let mut acts = [0f32; 64];
        let mut acts2 = [0f32; 64];
        let mut seen = vec![false; rows_n];
        // `ADA=n`: the rows' steps by row-wise Adagrad (learning rate n / 1000 over the root of
        // the row's summed squared gradients), so that rows few records reach still move far.
        let ada = setting("ADA", 0) as f32 * 1e-3;
        let mut g2 = vec![1e-3f32; if ada > 0.0 { rows_n } else { 0 }];
        for epoch in 0..epochs {
            let t0 = Instant::now();
            if epoch == 0 {
                for &i in &order {
                    for &j in train.row(i as usize) {
                        seen[j as usize] = true;
                    }
                }
            }
            for i in (1..order.len()).rev() {
                order.swap(i, seed.below(i as u64 + 1) as usize);
            }
            for &i in &order {
                let fall = 1.0 - 0.9 * step as f32 / total;
                step += 1;
                let (lr, lin_lr) = (lr0 * fall, lin_lr0 * fall);
                let f = train.row(i as usize);
                let head = train.heads[i as usize];
                let err = m.forward2(f, head, &mut acts, &mut acts2) - train.targets[i as usize];
                // Squared error, clipped so that a wild label does not throw the vectors.
                let g = err.clamp(-16.0, 16.0);
                m.bias -= lin_lr * g;
                // The gradient reaching each first-layer unit: through `v`, and through the
                // second layer where there is one.
                let mut dh = [0f32; 64];
                let h = head as usize * dim;
                for k in 0..dim {
                    dh[k] = g * m.v[h + k];
                }
                if l2 > 0 {
                    let hh = head as usize;
                    for j in 0..l2 {
                        if acts2[j] > 0.0 {
                            let dz = g * m.u[hh * l2 + j];
                            let w = &mut m.w2[(hh * l2 + j) * dim..][..dim];
                            for k in 0..dim {
                                dh[k] += dz * w[k];
                                w[k] -= lr * dz * acts[k];
                            }
                            m.b2[hh * l2 + j] -= lr * dz;
                        }
                        m.u[hh * l2 + j] -= lr * g * acts2[j];
                    }
                }
                let mut up = [0f32; 64];
                for k in 0..dim {
                    if acts[k] > 0.0 {
                        up[k] = lr * dh[k];
                        m.c[h + k] -= up[k];
                    }
                    m.v[h + k] -= lr * g * acts[k];
                }
                let norm2 = if ada > 0.0 {
                    dh[..dim]
                        .iter()
                        .zip(&acts[..dim])
                        .map(|(d, a)| if *a > 0.0 { d * d } else { 0.0 })
                        .sum::<f32>()
                        / dim as f32
                } else {
                    0.0
                };
                for &j in f {
                    m.lin[j as usize] -= lin_lr * g;
                    if dim > 0 && vectored[j as usize] && ada > 0.0 {
                        let acc = &mut g2[j as usize];
                        *acc += norm2;
                        let rate = ada * fall / (lr * acc.sqrt());
                        for (e, u) in m.emb[j as usize * dim..][..dim].iter_mut().zip(&up[..dim]) {
                            *e -= u * rate + decay * *e;
                        }
                    } else if dim > 0 && vectored[j as usize] {
                        for (e, u) in m.emb[j as usize * dim..][..dim].iter_mut().zip(&up[..dim]) {
                            *e -= u + decay * *e;
                        }
                    }
                }
            }
            println!(
                "  stage {st} DIM {dim} L2 {l2} epoch {}: train {:.3}, held out {:.3} ({:.0} s)",
                epoch + 1,
                m.mae_over(&train, 0..train.len().min(200_000)).0,
                m.mae(&hold),
                t0.elapsed().as_secs_f64()
            );
        }
        // Rows no training record reached keep their random start: zero them.
        for (r, &hit) in seen.iter().enumerate() {
            if !hit && dim > 0 {
                m.emb[r * dim..][..dim].iter_mut().for_each(|e| *e = 0.0);
            }
        }
        // How far the layer moves the linear part's value: what a lazy evaluation may skip.
        let mut moved: Vec<f32> = (0..hold.len())
            .map(|i| {
                let f = hold.row(i);
                let lin: f32 = m.bias + f.iter().map(|&j| m.lin[j as usize]).sum::<f32>();
                (m.forward(f, hold.heads[i], &mut acts) - lin).abs()
            })
            .collect();
        moved.sort_by(f32::total_cmp);
        let q = |p: f64| moved.get(((moved.len() as f64 - 1.0) * p) as usize).copied().unwrap_or(0.0);
        println!(
            "  stage {st}: the layer moves the value by {:.2} discs on average; 50 / 90 / 95 / 99 %: {:.2} / {:.2} / {:.2} / {:.2}",
            moved.iter().map(|&x| x as f64).sum::<f64>() / moved.len().max(1) as f64,
            q(0.5),
            q(0.9),
            q(0.95),
            q(0.99)
        );
        let (novel, n_novel) = m.mae_novel(&hold);
        println!(
            "  stage {st} DIM {dim} final (unseen rows zeroed): held out {:.3}; the {n_novel} held-out positions no training record has: {novel:.3}",
            m.mae(&hold)
        );
        if let Some(dir) = &out {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let raw = RawStage {
                stage: st,
                entries: m.emb[..STAGE_WEIGHTS * dim]
                    .iter()
                    .map(|e| quantize(*e, net::QUANT))
                    .collect(),
                c: m.c.clone(),
                v: m.v.clone(),
                // One bias for every head: the trainer fits one (with the linear part).
                bias: vec![m.bias; n_heads],
                l2,
                w2: m.w2.clone(),
                b2: m.b2.clone(),
                u: m.u.clone(),
            };
            // The extra rows (`STABLE`, `QPAR`) are never written (`OUT` refuses them).
            write_stage(dir, &m.lin[..STAGE_WEIGHTS], raw)?;
        }
    }
    Ok(())
}

/// `OUT/eval.bin` and `OUT/net.bin` from the shipped weights and `OUT/stage-N.*`, then the
/// held-out MAE of the engine's evaluation, shipped against assembled, per stage.
fn assemble(dir: &std::path::Path, shipped: &Evaluator, records: &[oxello::eval::dataset::Record]) -> Result<(), String> {
    let read = |name: String| {
        let path = dir.join(&name);
        std::fs::read(&path).ok().map(|b| (b, path.display().to_string()))
    };
    let mut weights: Vec<i16> = Vec::with_capacity(STAGES * STAGE_WEIGHTS);
    let mut raws = Vec::new();
    for st in 0..STAGES {
        match read(format!("stage-{st}.lin")) {
            Some((bytes, name)) => {
                if bytes.len() != STAGE_WEIGHTS * 2 {
                    return Err(format!("{name}: {} bytes, expected {}", bytes.len(), STAGE_WEIGHTS * 2));
                }
                weights.extend(bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])));
            }
            None => weights.extend(shipped.stage_weights(st).iter().map(|w| quantize(*w, eval::SCALE as f32))),
        }
        if let Some((bytes, name)) = read(format!("stage-{st}.net")) {
            raws.extend(net::decode(&bytes, &name).map_err(|e| e.to_string())?);
        }
    }
    let shape = |r: &RawStage| (r.dim(), r.heads(), r.l2);
    if let Some(first) = raws.first()
        && let Some(other) = raws.iter().find(|r| shape(r) != shape(first))
    {
        return Err(format!(
            "{}: stage {} has (units, heads, second-layer units) {:?}, stage {} has {:?}: one net.bin holds one shape",
            dir.display(),
            first.stage,
            shape(first),
            other.stage,
            shape(other)
        ));
    }
    let lin = Evaluator::from_weights(weights);
    // The layer folded for the engine (net.bin version 3), which loads with a copy; the
    // stage-N.net files keep it as trained.
    let mut folded = Evaluator::fold_net_file(&net::encode(&raws), "the assembled layer").map_err(|e| e.to_string())?;
    // `BASE_NET=FILE`: the stages with no `stage-N.net` keep that file's layer (a retrained
    // stage put into the shipped layer) instead of reading none.
    if let Ok(base) = std::env::var("BASE_NET") {
        let bytes = std::fs::read(&base).map_err(|e| format!("{base}: {e}"))?;
        folded = Evaluator::merge_net_files((&bytes, &base), (&folded, "the assembled layer")).map_err(|e| e.to_string())?;
    }
    for (name, bytes) in [("eval.bin", lin.encode()), ("net.bin", folded)] {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let new = Evaluator::load_or_embedded(Some(dir)).map_err(|e| e.to_string())?;
    println!(
        "assembled {}: net stages {:?}",
        dir.display(),
        raws.iter().map(|r| r.stage).collect::<Vec<_>>()
    );
    let shipped_layer = Evaluator::embedded_with_layer().map_err(|e| e.to_string())?;
    println!("| stage | held out | shipped linear | shipped with its layer | linear part | with the layer |");
    println!("|---|---|---|---|---|---|");
    for st in 0..STAGES {
        let (mut n, mut a, mut b, mut c, mut d) = (0usize, 0f64, 0f64, 0f64, 0f64);
        for r in records
            .iter()
            .filter(|r| r.game % 10 == 9 && eval::stage(r.board.empty_count()) == st)
        {
            let t = f64::from(r.score);
            n += 1;
            a += (f64::from(shipped.evaluate_fine(&r.board)) / 256.0 - t).abs();
            d += (f64::from(shipped_layer.evaluate_fine(&r.board)) / 256.0 - t).abs();
            b += (f64::from(lin.evaluate_fine(&r.board)) / 256.0 - t).abs();
            c += (f64::from(new.evaluate_fine(&r.board)) / 256.0 - t).abs();
        }
        let n = n.max(1) as f64;
        println!(
            "| {st} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            n as usize,
            a / n,
            d / n,
            b / n,
            c / n
        );
    }
    Ok(())
}
