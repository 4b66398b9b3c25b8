//! Is the evaluation as good at the positions a search asks it about as at the game lines it is
//! fitted on? Searches positions of held-out corpus games as a level does (`LEAF_LEVEL`, default
//! 17: its depth, selectivity and solves), keeps a sample of the leaves they evaluate, solves
//! those with at most `LEAF_MAX` empties exactly, values those up to `LEAF_DEEP_MAX` by a
//! 12-ply search at 80 % (as the corpus's deep labels) and prints the static evaluation's
//! error on them per empties band, beside its error on the corpus's labelled positions of the
//! same bands (the game line, and the siblings: positions after a move not played). A measurement
//! (docs/history/training.md#session-34), not a check; needs the `leaf-sample` feature:
//!
//! `cargo run --release --features leaf-sample --example leaf_error -- DIR [OUT]`
//!
//! `LEAF_DEPTH=D` searches to a fixed depth at `LEAF_SEL` % (73) instead; `LEAF_TRAIN_ROOTS=1`
//! takes the roots from the training games (for a training dataset). `LEAF_LAYER=1` searches and judges with the shipped layer as well (the linear weights alone
//! by default). `LEAF_ROOTS` roots (default 200) at `LEAF_ROOT_MIN`-`LEAF_ROOT_MAX` empties (30-38), one leaf
//! in `LEAF_EVERY` (2000) kept, at most `LEAF_PER_ROOT` (20) a root. With OUT the labelled leaves
//! are written as a training dataset (`exact` and `search` records, one `# game` a root).

use oxello::board::Board;
use oxello::board::notation::format_position;
use oxello::board::{Color, Position};
use oxello::corpus::LabelPolicy;
use oxello::corpus::store::Corpus;
use oxello::eval::Evaluator;
use oxello::eval::dataset::Label;
use oxello::search::endgame::{SolveMode, Solver};
use oxello::search::leaf_sample;
use oxello::search::levels::Levels;
use oxello::search::midgame::Searcher;
use oxello::search::request::{Pruning, SearchRequest};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

mod common;
use common::{at_80, setting};

/// Error sums of one empties band.
#[derive(Default, Clone, Copy)]
struct Band {
    n: u64,
    abs: f64,
    bias: f64,
}

impl Band {
    fn add(&mut self, eval: i32, label: i32) {
        let d = f64::from(eval - label);
        self.n += 1;
        self.abs += d.abs();
        self.bias += d;
    }

    fn show(&self) -> String {
        if self.n == 0 {
            return "-".into();
        }
        format!(
            "{:.2} ({:+.2}, {})",
            self.abs / self.n as f64,
            self.bias / self.n as f64,
            self.n
        )
    }
}

/// One band's errors on all its positions and on the near-level ones (|label| <= 8 discs),
/// where a search's bounds mostly are.
#[derive(Default, Clone, Copy)]
struct Cell {
    all: Band,
    near: Band,
}

impl Cell {
    fn add(&mut self, eval: i32, label: i32) {
        self.all.add(eval, label);
        if label.abs() <= 8 {
            self.near.add(eval, label);
        }
    }

    fn show(&self) -> String {
        format!("{} / {}", self.all.show(), self.near.show())
    }
}

const BANDS: [(u32, u32); 8] = [(6, 11), (12, 15), (16, 19), (20, 23), (24, 29), (30, 35), (36, 41), (42, 47)];

fn band_of(empties: u32) -> Option<usize> {
    BANDS.iter().position(|&(lo, hi)| (lo..=hi).contains(&empties))
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: leaf_error DIR [OUT]")?;
    let out = args.next();
    let roots = setting("LEAF_ROOTS", 200) as usize;
    let (root_min, root_max) = (setting("LEAF_ROOT_MIN", 30), setting("LEAF_ROOT_MAX", 38));
    let every = u64::from(setting("LEAF_EVERY", 2000).max(1));
    let per_root = setting("LEAF_PER_ROOT", 20) as usize;
    let leaf_max = setting("LEAF_MAX", 20);
    let deep_max = setting("LEAF_DEEP_MAX", 0);

    let level = Levels::embedded().map_err(|e| e.to_string())?.get(setting("LEAF_LEVEL", 17));
    // `LEAF_LAYER=1`: search and judge with the shipped layer too (what levels 17 and 20, the
    // clock and `oxello accuracy` read), not the linear weights alone.
    let eval = if setting("LEAF_LAYER", 0) != 0 {
        Evaluator::embedded_with_layer()
    } else {
        Evaluator::embedded()
    }
    .map_err(|e| e.to_string())?;
    let corpus = Corpus::load(&[std::path::PathBuf::from(&dir)]).map_err(|e| e.to_string())?;
    let records = corpus.records(LabelPolicy::DeepFrom(21), 1.0);
    // `LEAF_TRAIN_ROOTS=1`: roots (and the corpus's own figures) from the training games
    // instead of the held-out ones, for a training dataset of leaves (OUT).
    let want = if setting("LEAF_TRAIN_ROOTS", 0) != 0 {
        |g: u64| g % 10 != 9
    } else {
        |g: u64| g % 10 == 9
    };
    let held_out: Vec<_> = records.iter().filter(|r| want(r.game)).collect();

    // The corpus's own labelled positions (exact or deep), line and siblings.
    let (mut line, mut sib) = ([Cell::default(); BANDS.len()], [Cell::default(); BANDS.len()]);
    for r in held_out.iter().filter(|r| r.label != Label::Game) {
        if let Some(i) = band_of(r.board.empty_count()) {
            let e = eval.evaluate(&r.board);
            if r.off_line { &mut sib[i] } else { &mut line[i] }.add(e, i32::from(r.score));
        }
    }

    // Roots: game-line positions of held-out games, spread over the file.
    let candidates: Vec<Board> = held_out
        .iter()
        .filter(|r| !r.off_line && (root_min..=root_max).contains(&r.board.empty_count()))
        .map(|r| r.board)
        .collect();
    let step = (candidates.len() / roots.max(1)).max(1);
    let mut searcher = Searcher::new(64);
    let mut solver = Solver::new(16);
    let mut labeller = Searcher::new(16);
    let stop = AtomicBool::new(false);
    let mut leaves = [Cell::default(); BANDS.len()];
    let mut text = String::new();
    let (mut sampled, mut solved) = (0usize, 0usize);
    // Sampled leaves per stage (6 empties each).
    let mut histogram = [0usize; 10];
    for (k, root) in candidates.iter().step_by(step).take(roots).enumerate() {
        let empties = root.empty_count();
        // `LEAF_DEPTH=D` (with `LEAF_SEL=S`, default 73): a fixed-depth search at S % as
        // `oxello accuracy` does, instead of the level's.
        let req = match setting("LEAF_DEPTH", 0) {
            0 => SearchRequest {
                pruning: Pruning::from_percent(level.selectivity_at(empties)),
                exact_empties: level.exact_empties,
                wld_empties: level.wld_empties,
                probable_empties: level.probable_empties,
                ..SearchRequest::fixed_depth(*root, level.depth_at(empties))
            },
            d => SearchRequest {
                pruning: Pruning::from_percent(setting("LEAF_SEL", 73)),
                ..SearchRequest::fixed_depth(*root, d)
            },
        };
        searcher.clear();
        leaf_sample::start(every, 0x5EED ^ (k as u64).wrapping_mul(0x9E37_79B9));
        searcher.run(&req, &eval, &stop, &mut |_| {});
        let mut got = leaf_sample::take();
        sampled += got.len();
        for b in &got {
            histogram[(b.empty_count() as usize / 6).min(9)] += 1;
        }
        got.retain(|b| b.empty_count() <= leaf_max.max(deep_max));
        let _ = writeln!(text, "# game {k}");
        for b in got.iter().step_by((got.len() / per_root.max(1)).max(1)).take(per_root) {
            let (score, kind) = if b.empty_count() <= leaf_max {
                (solver.solve(b, SolveMode::Exact, Some(&eval), &stop).score, "exact")
            } else {
                // The corpus's deep labels: 12 plies at 80 %.
                labeller.clear();
                (labeller.run(&at_80(*b, 12), &eval, &stop, &mut |_| {}).score, "search")
            };
            solved += 1;
            if let Some(i) = band_of(b.empty_count()) {
                leaves[i].add(eval.evaluate(b), score);
            }
            let board = format_position(&Position::from_black_white(b.player, b.opponent, Color::Black));
            let _ = writeln!(text, "{board} {score} {kind}");
        }
    }
    println!("{dir}: {roots} roots at {root_min}-{root_max} empties, {sampled} leaves sampled, {solved} solved");
    let shares: Vec<String> = histogram
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| format!("{}-{}: {:.1} %", 6 * i, 6 * i + 5, 100.0 * n as f64 / sampled.max(1) as f64))
        .collect();
    println!("leaves by empties: {}", shares.join(", "));
    println!("static error, discs (bias, positions), all / near-level: band | search leaves | game line | siblings");
    for (i, (lo, hi)) in BANDS.iter().enumerate() {
        println!("{lo}-{hi} | {} | {} | {}", leaves[i].show(), line[i].show(), sib[i].show());
    }
    if let Some(out) = out {
        std::fs::write(&out, text).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(())
}
