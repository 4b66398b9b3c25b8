//! Whether a root move's own features predict the error of its value (issue 22). The error
//! model gives every leaf at a depth and stage the same σ, so the style's moves differ only in
//! their replies' structure; a per-move source of uncertainty would have to predict how far a
//! move's value moves with depth *relative to its siblings'* (the style compares the moves of
//! one position). Measured 2026-11-26 (docs/history/measurements.md#session-10, its second
//! section; docs/risk.md#how-it-works): the same-parity
//! instability across iterations does not; the last step with the odd/even difference removed,
//! and the number of close replies, do at every depth measured, weakly (within-position
//! correlations about 0.1); so the style keeps one σ per depth and stage.
//!
//! `RISK_COUNT=200 RISK_LOW=8 [RISK_FIRST=0] [RISK_SAMPLES=FILE] cargo run --release --example risk_move_uncertainty`

use oxello::board::Board;
use oxello::board::bits::Squares;
use oxello::eval::Evaluator;
use oxello::search::midgame::Searcher;
use oxello::search::mpc::MpcTable;
use oxello::search::risk::{self, leaf_sigma};
use std::sync::atomic::AtomicBool;

mod common;
use common::{at_80, setting};

/// One root move's child: the error of its depth-`low` value against `low + 6` plies, the
/// error model's σ for it, the position it came from, and the candidate features.
struct Sample {
    error: f64,
    sigma: f64,
    position: usize,
    features: Vec<f64>,
    /// The child's values at depths 1..=low + 6 (index 0 unused).
    values: Vec<f64>,
}

/// The features measured, in `Sample::features`' order; the last is added once every sample
/// is in (`parity_adjusted`).
const FEATURES: [&str; 9] = [
    "|v(d) - v(d-2)|",
    "|v(d-4) - v(d-6)|",
    "sum |v(k) - v(k-2)| for k <= d",
    "replies within 3 of the best",
    "best reply - second (discs)",
    "replies (mobility)",
    "empties",
    "the style's own sd",
    "|v(d) - v(d-1) - mean|",
];

/// Adds to every sample the distance between its last two iterations, which differ in parity,
/// less their mean difference over all samples (odd and even depths differ by themselves).
fn parity_adjusted(samples: &mut [Sample], low: u32) {
    let d = low as usize;
    let diff = |s: &Sample| s.values[d] - s.values[d - 1];
    let offset = samples.iter().map(diff).sum::<f64>() / samples.len() as f64;
    println!("mean v(d) - v(d-1): {offset:+.2} discs");
    for s in samples.iter_mut() {
        let f = (diff(s) - offset).abs();
        s.features.push(f);
    }
}

/// `child`'s value at every depth 1..=`depth` (its iterations, 80 %), for its side to move.
fn iterations(searcher: &mut Searcher, eval: &Evaluator, child: Board, depth: u32) -> Vec<f64> {
    let stop = AtomicBool::new(false);
    let mut values = vec![f64::NAN; depth as usize + 1];
    searcher.run(&at_80(child, depth), eval, &stop, &mut |i| {
        if let oxello::base::DepthKind::Midgame { depth: d, .. } = i.kind {
            values[d as usize] = f64::from(i.score);
        }
    });
    values
}

/// One child's sample (None when it has too few iterations, e.g. near the end); `modelled`
/// the style's own sd for the move (`risk::move_sd`).
fn sample(
    searcher: &mut Searcher,
    eval: &Evaluator,
    mpc: &MpcTable,
    child: Board,
    low: u32,
    position: usize,
    modelled: f64,
) -> Option<Sample> {
    let v = iterations(searcher, eval, child, low + 6);
    let d = low as usize;
    if v.iter().skip(1).any(|x| x.is_nan()) {
        return None;
    }
    let wander: f64 = (3..=d).map(|k| (v[k] - v[k - 2]).abs()).sum();
    // The replies from the child's side, searched 2 plies short of their place at depth d.
    let stop = AtomicBool::new(false);
    let mut replies: Vec<f64> = Squares(child.moves())
        .filter_map(|sq| child.play(sq))
        .map(|g| -f64::from(searcher.run(&at_80(g, low - 3), eval, &stop, &mut |_| {}).score))
        .collect();
    replies.sort_by(|a, b| b.total_cmp(a));
    let close = replies
        .iter()
        .filter(|&&r| r >= replies.first().copied().unwrap_or(0.0) - 3.0)
        .count();
    let gap = if replies.len() >= 2 { replies[0] - replies[1] } else { 64.0 };
    Some(Sample {
        error: v[d + 6] - v[d],
        sigma: leaf_sigma(mpc, child.empty_count(), low),
        position,
        features: vec![
            (v[d] - v[d - 2]).abs(),
            (v[d - 4] - v[d - 6]).abs(),
            wander,
            close as f64,
            gap,
            f64::from(child.moves().count_ones()),
            f64::from(child.empty_count()),
            modelled,
        ],
        values: v,
    })
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn correlation(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (mean(x), mean(y));
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

/// `values` minus the mean of their position's.
fn within(samples: &[Sample], values: &[f64]) -> Vec<f64> {
    let last = samples.iter().map(|s| s.position).max().unwrap_or(0);
    let mut sums = vec![(0.0, 0); last + 1];
    for (s, v) in samples.iter().zip(values) {
        sums[s.position].0 += v;
        sums[s.position].1 += 1;
    }
    samples
        .iter()
        .zip(values)
        .map(|(s, v)| v - sums[s.position].0 / f64::from(sums[s.position].1))
        .collect()
}

/// The error's root mean square in each fifth of the samples ordered by `feature` (ties in
/// the order measured), with the feature's range there.
fn fifths(samples: &[Sample], feature: usize, normalised: bool) -> Vec<(f64, f64, f64)> {
    let mut order: Vec<&Sample> = samples.iter().collect();
    order.sort_by(|a, b| a.features[feature].total_cmp(&b.features[feature]));
    order
        .chunks(order.len().div_ceil(5))
        .map(|c| {
            let e = c.iter().map(|s| if normalised { s.error / s.sigma } else { s.error });
            let rms = (e.map(|x| x * x).sum::<f64>() / c.len() as f64).sqrt();
            (c[0].features[feature], c[c.len() - 1].features[feature], rms)
        })
        .collect()
}

/// Within each position whose moves differ in `feature`: the move-specific error (the
/// error minus its position's mean, what the style's choice between siblings depends on) of
/// the move with the lowest feature and of the one with the highest, their RMS over all
/// such positions, and how many positions.
fn extremes(samples: &[Sample], feature: usize) -> (f64, f64, usize) {
    let errors: Vec<f64> = samples.iter().map(|s| s.error).collect();
    let own = within(samples, &errors);
    let last = samples.iter().map(|s| s.position).max().unwrap_or(0);
    let (mut low, mut high, mut n) = (0.0, 0.0, 0);
    for p in 0..=last {
        let group: Vec<(f64, f64)> = samples
            .iter()
            .zip(&own)
            .filter(|(s, _)| s.position == p)
            .map(|(s, &e)| (s.features[feature], e))
            .collect();
        let lo = group.iter().min_by(|a, b| a.0.total_cmp(&b.0));
        let hi = group.iter().max_by(|a, b| a.0.total_cmp(&b.0));
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo.0 < hi.0
        {
            low += lo.1 * lo.1;
            high += hi.1 * hi.1;
            n += 1;
        }
    }
    ((low / n as f64).sqrt(), (high / n as f64).sqrt(), n)
}

/// Whether a root move's own features predict the error of its value (issue 22): for
/// `RISK_COUNT` random midgame positions (as `deviations`, from the `RISK_FIRST`-th: several
/// runs can share the work), every move's child searched to
/// `RISK_LOW` + 6 plies at 80 % (its iterations give the values at every depth), its replies
/// at `RISK_LOW` - 3; the error is v(low + 6) - v(low). Prints, per feature, the correlation
/// of |error| with it (all samples, and within positions: both minus their position's mean),
/// the error's RMS by fifths of the feature (in discs, and over the error model's σ), the
/// least-squares line |error| / σ = p + q·feature, and the RMS of the move-specific errors of
/// each position's lowest- and highest-feature moves (`extremes`). `RISK_SAMPLES=FILE` writes
/// every sample (position, error, σ, features, the values at depths 1..=low + 6) for
/// `benches/move_uncertainty.py`.
fn main() -> Result<(), String> {
    let (count, low) = (setting("RISK_COUNT", 200) as usize, setting("RISK_LOW", 8));
    let first = setting("RISK_FIRST", 0) as usize;
    if low < 7 {
        return Err("RISK_LOW below 7 leaves no shallow pair".into());
    }
    let mut searcher = Searcher::new(64);
    let mpc = MpcTable::embedded().map_err(|e| e.to_string())?;
    let eval = Evaluator::embedded().map_err(|e| e.to_string())?;
    let mut samples = Vec::new();
    for k in first..first + count {
        let b = risk::measurement_position(k);
        searcher.clear();
        for sq in Squares(b.moves()) {
            let Some(child) = b.play(sq).filter(|c| !c.is_game_over() && c.empty_count() > low + 6) else {
                continue;
            };
            let Some(modelled) = risk::move_sd(&mut searcher, &eval, &b, sq, low + 1) else {
                continue;
            };
            samples.extend(sample(&mut searcher, &eval, &mpc, child, low, k, modelled));
        }
    }
    parity_adjusted(&mut samples, low);
    let abs: Vec<f64> = samples.iter().map(|s| s.error.abs()).collect();
    let ratio: Vec<f64> = samples.iter().map(|s| s.error.abs() / s.sigma).collect();
    let rms = (samples.iter().map(|s| s.error * s.error).sum::<f64>() / samples.len() as f64).sqrt();
    println!(
        "depth {low} against {}: {} children of {count} positions; error RMS {rms:.2}, model σ mean {:.2}",
        low + 6,
        samples.len(),
        mean(&samples.iter().map(|s| s.sigma).collect::<Vec<_>>())
    );
    for (i, name) in FEATURES.iter().enumerate() {
        let f: Vec<f64> = samples.iter().map(|s| s.features[i]).collect();
        let (fw, aw) = (within(&samples, &f), within(&samples, &abs));
        // Least squares |error| / σ = p + q·f.
        let (mf, mr) = (mean(&f), mean(&ratio));
        let q =
            f.iter().zip(&ratio).map(|(x, y)| (x - mf) * (y - mr)).sum::<f64>() / f.iter().map(|x| (x - mf).powi(2)).sum::<f64>();
        println!(
            "{name}: r(|error|) {:.3}, within positions {:.3}, r(|error|/σ) {:.3}; |error|/σ = {:.3} + {:.4}·f",
            correlation(&f, &abs),
            correlation(&fw, &aw),
            correlation(&f, &ratio),
            mr - q * mf,
            q
        );
        for (raw, norm) in fifths(&samples, i, false).iter().zip(fifths(&samples, i, true)) {
            println!(
                "    f {:>5.1} .. {:>5.1}: RMS {:.2} discs, {:.2} σ",
                raw.0, raw.1, raw.2, norm.2
            );
        }
        let (lo, hi, n) = extremes(&samples, i);
        println!("    within {n} positions, the move-specific error of the lowest-f move: RMS {lo:.2}, of the highest: {hi:.2}");
    }
    // Every sample for further analysis: RISK_SAMPLES=FILE.
    if let Ok(path) = std::env::var("RISK_SAMPLES") {
        // A header names the columns, so that the analysis reads the features from the file.
        let header = ["position", "error", "sigma"]
            .into_iter()
            .map(String::from)
            .chain(FEATURES.iter().map(|f| f.to_string()))
            .chain((1..=low + 6).map(|d| format!("v{d}")))
            .collect::<Vec<_>>()
            .join(",");
        let lines: Vec<String> = std::iter::once(header)
            .chain(samples.iter().map(|s| {
                let cols = [s.position as f64, s.error, s.sigma]
                    .into_iter()
                    .chain(s.features.iter().copied());
                cols.chain(s.values.iter().skip(1).copied())
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            }))
            .collect();
        std::fs::write(&path, lines.join("\n") + "\n").map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
