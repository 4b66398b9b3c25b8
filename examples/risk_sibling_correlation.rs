//! The correlation of sibling leaves' errors (the risk-aware style's `SIBLING_CORRELATION`):
//! for `RISK_COUNT` positions (default 300) of `risk::measurement_position`, every child
//! searched at `RISK_LOW` (default 4) and 6 plies deeper, at 80 %; the share of the errors'
//! variance between positions (one minus the mean within-sibling variance over the total).
//! A measurement (docs/history/measurements.md#session-9):
//!
//! `RISK_COUNT=300 RISK_LOW=4 cargo run --release --example risk_sibling_correlation`

use oxello::board::bits::Squares;
use oxello::eval::Evaluator;
use oxello::search::midgame::Searcher;
use oxello::search::request::{Pruning, SearchRequest};
use oxello::search::risk;
use std::sync::atomic::AtomicBool;

mod common;
use common::setting;

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn main() -> Result<(), String> {
    let (count, low) = (setting("RISK_COUNT", 300) as usize, setting("RISK_LOW", 4));
    let eval = Evaluator::embedded().map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(64);
    let mut groups: Vec<Vec<f64>> = Vec::new();
    for k in 0..count {
        let b = risk::measurement_position(k);
        let mut errors = Vec::new();
        for sq in Squares(b.moves()) {
            let Some(child) = b.play(sq).filter(|c| !c.is_game_over()) else {
                continue;
            };
            let mut value = |depth: u32| {
                let req = SearchRequest {
                    pruning: Pruning::from_percent(80),
                    ..SearchRequest::fixed_depth(child, depth)
                };
                f64::from(searcher.run(&req, &eval, &stop, &mut |_| {}).score)
            };
            errors.push(value(low + 6) - value(low));
        }
        if errors.len() >= 2 {
            groups.push(errors);
        }
    }
    if groups.is_empty() {
        return Err("no position with two children to compare".into());
    }
    let all: Vec<f64> = groups.iter().flatten().copied().collect();
    let m = mean(&all);
    let total = all.iter().map(|e| (e - m).powi(2)).sum::<f64>() / all.len() as f64;
    let within = groups
        .iter()
        .map(|g| {
            let m = mean(g);
            g.iter().map(|e| (e - m).powi(2)).sum::<f64>() / (g.len() - 1) as f64
        })
        .sum::<f64>()
        / groups.len() as f64;
    println!(
        "depth {low} against {}: {} positions, {} children, error sd {:.2}, within siblings {:.2}: correlation {:.2}",
        low + 6,
        groups.len(),
        all.len(),
        total.sqrt(),
        within.sqrt(),
        1.0 - within / total
    );
    Ok(())
}
