//! Does the layer gain from one table of vectors shared by every stage? The shipped layer
//! (`examples/embed_net.rs`) gives each stage its own rows, and the fifty-fourth and
//! fifty-fifth sessions found those rows short of data (a doubling of a stage's records: −0.07
//! to −0.13 disc; a neighbour stage's records fed to the same rows: nothing). Neural Reversi's
//! accumulator is one for all plies, with outputs per ply: every position trains every row it
//! reads. Here the rows are one table (`SHARED=1`) or one a stage (`SHARED=0`, the control,
//! the shipped form), and each stage keeps its own output (`c`, `v`, a bias; `HEADS=1`: one a
//! empties count), both trained in one pass over the stages' records in one random order, with
//! the same seed, rate schedule and epochs, so that the two differ only in the sharing.
//!
//! The linear part is the shipped one and stays fixed (`LIN_LR=0` in `embed_net`'s terms): the
//! layer learns the residual, which is computed once a record. Records: `deep-from-21` labels
//! of the corpus runs given (lines, siblings, walks); games numbered 9 mod 10 held out. A
//! measurement (docs/history/training.md#session-57), not a check:
//!
//! `SHARED=1 DIM=16 EPOCHS=4 cargo run --release --example shared_net -- corpus`
//!
//! Settings: `STAGES` (comma list, default 1..=8), `SHARED` (1), `DIM` (16, at most 64),
//! `EPOCHS` (4), `LR` (rows' rate in 1e-4, 10), `DECAY` (1e-6, 10), `SEED` (1), `HEADS` (0),
//! `TRAIN` (at most this many training records in all, every k-th), `HOLD` (comma list of
//! corpus runs: the held-out records are those runs' games numbered 9 mod 10 instead of the
//! runs trained on, so that fits on different runs are judged on one set), `OUT` (a directory: each
//! stage's layer written as `stage-N.net` with its rows, shared or not, and `stage-N.lin` the
//! shipped linear weights, so that `ASSEMBLE=1 OUT=DIR embed_net` makes the engine's
//! `net.bin` of them; `DIM` must then be one the engine reads).

use oxello::board::Board;
use oxello::corpus::LabelPolicy;
use oxello::corpus::store::Corpus;
use oxello::eval::net::{self, RawStage};
use oxello::eval::{self, Evaluator, STAGE_WEIGHTS, STAGE_WIDTH};
use oxello::rng::SplitMix;
use std::path::PathBuf;
use std::time::Instant;

mod common;
use common::{quantize, setting, uniform, write_stage};

/// A record as the loop reads it: the board (features are recomputed each visit, which costs
/// less than a tenth of a step and keeps 58 M records in 1.4 GB), the residual the layer must
/// learn, and its output head.
#[derive(Clone)]
struct Rec {
    board: Board,
    resid: f32,
    head: u16,
    slot: u8,
}

struct Model {
    dim: usize,
    shared: bool,
    /// Rows: `STAGE_WEIGHTS × dim` shared, or that per slot.
    emb: Vec<f32>,
    /// `dim` numbers a head.
    c: Vec<f32>,
    v: Vec<f32>,
    bias: Vec<f32>,
}

impl Model {
    fn row_base(&self, slot: u8) -> usize {
        if self.shared { 0 } else { slot as usize * STAGE_WEIGHTS }
    }

    /// The layer's value for `f` through head `head`; `acts` gets the units' activations.
    fn forward(&self, f: &[u32], slot: u8, head: u16, acts: &mut [f32; 64]) -> f32 {
        let d = self.dim;
        let base = self.row_base(slot);
        let mut acc = [0f32; 64];
        for &j in f {
            for (a, e) in acc[..d].iter_mut().zip(&self.emb[(base + j as usize) * d..][..d]) {
                *a += e;
            }
        }
        let h = head as usize;
        let (c, v) = (&self.c[h * d..][..d], &self.v[h * d..][..d]);
        let mut y = self.bias[h];
        for k in 0..d {
            acts[k] = (acc[k] + c[k]).max(0.0);
            y += v[k] * acts[k];
        }
        y
    }
}

/// Held-out MAE per slot: (layer, linear alone, count).
fn held_out(m: &Model, hold: &[Rec], n_slots: usize, bmi2: bool) -> Vec<(f64, f64, usize)> {
    let mut acts = [0f32; 64];
    let mut sums = vec![(0f64, 0f64, 0usize); n_slots];
    for r in hold {
        let f = eval::features(&r.board, bmi2);
        let y = m.forward(&f, r.slot, r.head, &mut acts);
        let s = &mut sums[r.slot as usize];
        s.0 += f64::from((y - r.resid).abs());
        s.1 += f64::from(r.resid.abs());
        s.2 += 1;
    }
    sums.iter()
        .map(|&(a, b, n)| (a / n.max(1) as f64, b / n.max(1) as f64, n))
        .collect()
}

// The gradient loop indexes several arrays by the same unit: clearer as index loops.
#[allow(clippy::needless_range_loop)]
fn main() -> Result<(), String> {
    let paths = common::corpus_paths();
    let stages = common::stages("1,2,3,4,5,6,7,8")?;
    let shared = setting("SHARED", 1) != 0;
    let dim = setting("DIM", 16) as usize;
    if dim == 0 || dim > 64 {
        return Err("DIM: 1..=64".into());
    }
    let epochs = setting("EPOCHS", 4);
    let lr0 = setting("LR", 10) as f32 * 1e-4;
    let decay = setting("DECAY", 10) as f32 * 1e-6;
    let most = setting("TRAIN", u32::MAX) as usize;
    let per_empties = setting("HEADS", 0) != 0;
    let heads_a_slot = if per_empties { STAGE_WIDTH as usize } else { 1 };
    let mut seed = SplitMix(u64::from(setting("SEED", 1)));
    let out = std::env::var("OUT").ok().map(PathBuf::from);
    if out.is_some() && !net::DIMS.contains(&dim) {
        return Err(format!("OUT: the engine reads a layer of DIM {:?}", net::DIMS));
    }
    let evaluator = Evaluator::embedded().map_err(|e| e.to_string())?;
    let lin: Vec<Vec<f32>> = stages.iter().map(|&s| evaluator.stage_weights(s)).collect();
    let mut slot_of = [u8::MAX; eval::STAGES];
    for (k, &s) in stages.iter().enumerate() {
        slot_of[s] = k as u8;
    }
    let bmi2 = eval::has_bmi2();
    let t0 = Instant::now();
    let corpus = Corpus::load(&paths).map_err(|e| e.to_string())?;
    let mut records = corpus.records(LabelPolicy::DeepFrom(21), 1.0);
    drop(corpus);
    if let Ok(list) = std::env::var("HOLD") {
        let hold_paths: Vec<PathBuf> = list.split(',').map(PathBuf::from).collect();
        let corpus = Corpus::load(&hold_paths).map_err(|e| e.to_string())?;
        records.retain(|r| r.game % 10 != 9);
        records.extend(
            corpus
                .records(LabelPolicy::DeepFrom(21), 1.0)
                .into_iter()
                .filter(|r| r.game % 10 == 9),
        );
    }
    let n_train = records
        .iter()
        .filter(|r| r.game % 10 != 9 && slot_of[eval::stage(r.board.empty_count())] != u8::MAX)
        .count();
    let every = n_train.div_ceil(most.max(1)).max(1);
    // A record of trained stage `slot` as the loop reads it.
    let to_rec = |r: &oxello::eval::dataset::Record, slot: u8| {
        let e = r.board.empty_count();
        let l: f32 = eval::features(&r.board, bmi2)
            .iter()
            .map(|&j| lin[slot as usize][j as usize])
            .sum();
        let within = if per_empties { (e.min(59) % STAGE_WIDTH) as usize } else { 0 };
        Rec {
            board: r.board,
            resid: f32::from(r.score) - l,
            head: (slot as usize * heads_a_slot + within) as u16,
            slot,
        }
    };
    let (mut train, mut hold) = (Vec::new(), Vec::new());
    let mut k = 0usize;
    for r in &records {
        let slot = slot_of[eval::stage(r.board.empty_count())];
        if slot == u8::MAX {
            continue;
        }
        let held = r.game % 10 == 9;
        if !held {
            k += 1;
            if !k.is_multiple_of(every) {
                continue;
            }
        }
        let rec = to_rec(r, slot);
        if held { hold.push(rec) } else { train.push(rec) }
    }
    drop(records);
    // `REPEAT=DIR:k`: that run's training records k times in all (a weight on one kind of data).
    if let Ok(spec) = std::env::var("REPEAT") {
        let (dir, k) = spec.rsplit_once(':').ok_or("REPEAT: DIR:k")?;
        let k: usize = k.parse().map_err(|e| format!("REPEAT: {k:?}: {e}"))?;
        let corpus = Corpus::load(&[PathBuf::from(dir)]).map_err(|e| e.to_string())?;
        let extra = corpus.records(LabelPolicy::DeepFrom(21), 1.0);
        let before = train.len();
        for r in extra.iter().filter(|r| r.game % 10 != 9) {
            let slot = slot_of[eval::stage(r.board.empty_count())];
            if slot != u8::MAX {
                let rec = to_rec(r, slot);
                train.extend(std::iter::repeat_n(rec, k.saturating_sub(1)));
            }
        }
        println!("REPEAT {dir}: {} more training records", train.len() - before);
    }
    println!(
        "stages {stages:?}: {} train, {} held out ({:.0} s to load); SHARED {}, DIM {dim}, HEADS {}, {epochs} epochs, LR {lr0}, DECAY {decay}",
        train.len(),
        hold.len(),
        t0.elapsed().as_secs_f64(),
        u8::from(shared),
        u8::from(per_empties)
    );
    let n_slots = stages.len();
    let n_heads = n_slots * heads_a_slot;
    let tables = if shared { 1 } else { n_slots };
    let mut m = Model {
        dim,
        shared,
        emb: (0..tables * STAGE_WEIGHTS * dim).map(|_| uniform(&mut seed) * 0.1).collect(),
        c: vec![0.0; n_heads * dim],
        v: {
            let v: Vec<f32> = (0..dim).map(|_| uniform(&mut seed) * 0.5).collect();
            v.iter().copied().cycle().take(n_heads * dim).collect()
        },
        bias: vec![0.0; n_heads],
    };
    let mut seen = vec![false; tables * STAGE_WEIGHTS];
    for r in &train {
        let base = m.row_base(r.slot);
        for &j in &eval::features(&r.board, bmi2) {
            seen[base + j as usize] = true;
        }
    }
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let total = (epochs as usize * train.len()).max(1) as f32;
    let mut step = 0usize;
    let mut acts = [0f32; 64];
    for epoch in 0..epochs {
        let t = Instant::now();
        for i in (1..order.len()).rev() {
            order.swap(i, seed.below(i as u64 + 1) as usize);
        }
        for &i in &order {
            let fall = 1.0 - 0.9 * step as f32 / total;
            step += 1;
            let lr = lr0 * fall;
            let r = &train[i as usize];
            let f = eval::features(&r.board, bmi2);
            let err = m.forward(&f, r.slot, r.head, &mut acts) - r.resid;
            // Squared error, clipped so that a wild label does not throw the vectors.
            let g = err.clamp(-16.0, 16.0);
            let h = r.head as usize * dim;
            // The bias at a hundredth of the rows' rate: the linear part carries the offsets.
            m.bias[r.head as usize] -= lr * 0.01 * g;
            let mut up = [0f32; 64];
            for k in 0..dim {
                if acts[k] > 0.0 {
                    up[k] = lr * g * m.v[h + k];
                    m.c[h + k] -= up[k];
                }
                m.v[h + k] -= lr * g * acts[k];
            }
            let base = m.row_base(r.slot);
            for &j in &f {
                for (e, u) in m.emb[(base + j as usize) * dim..][..dim].iter_mut().zip(&up[..dim]) {
                    *e -= u + decay * *e;
                }
            }
        }
        let ho = held_out(&m, &hold, n_slots, bmi2);
        let line: Vec<String> = stages.iter().zip(&ho).map(|(s, (a, _, _))| format!("{s}: {a:.3}")).collect();
        println!(
            "  epoch {}: held out by stage {} ({:.0} s)",
            epoch + 1,
            line.join(", "),
            t.elapsed().as_secs_f64()
        );
    }
    // Rows no training record reached keep their random start: zero them.
    for (r, &hit) in seen.iter().enumerate() {
        if !hit {
            m.emb[r * dim..][..dim].iter_mut().for_each(|e| *e = 0.0);
        }
    }
    let ho = held_out(&m, &hold, n_slots, bmi2);
    println!("| stage | held out | linear alone | with the layer |");
    println!("|---|---|---|---|");
    for (s, (a, b, n)) in stages.iter().zip(&ho) {
        println!("| {s} | {n} | {b:.3} | {a:.3} |");
    }
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (slot, &st) in stages.iter().enumerate() {
            let base = m.row_base(slot as u8) * dim;
            let hs = slot * heads_a_slot * dim..(slot + 1) * heads_a_slot * dim;
            let raw = RawStage {
                stage: st,
                entries: m.emb[base..base + STAGE_WEIGHTS * dim]
                    .iter()
                    .map(|e| quantize(*e, net::QUANT))
                    .collect(),
                c: m.c[hs.clone()].to_vec(),
                v: m.v[hs].to_vec(),
                bias: m.bias[slot * heads_a_slot..(slot + 1) * heads_a_slot].to_vec(),
                l2: 0,
                w2: Vec::new(),
                b2: Vec::new(),
                u: Vec::new(),
            };
            write_stage(dir, &lin[slot], raw)?;
        }
    }
    Ok(())
}
