//! How often the risk-aware style at c = 5 and c = 95 plays another move than the ordinary
//! search (`RISK_COUNT` positions, default 100, of `risk::measurement_position`; depth
//! `RISK_DEPTH`, default 12, at 80 %; no clock), what the changed moves are worth by the
//! ordinary search at depth - 1 and at depth + 1 (each move's child searched afresh), and the
//! time against the ordinary search's. A measurement (docs/history/measurements.md#session-9),
//! not a check:
//!
//! `RISK_COUNT=100 cargo run --release --example risk_deviations`

use oxello::base::OrderingEval;
use oxello::board::{Board, Square};
use oxello::eval::Evaluator;
use oxello::search::midgame::Searcher;
use oxello::search::request::SearchResult;
use oxello::search::risk::{self, Risk, RiskLine};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod common;
use common::{at_80, setting};

/// Below any disc value: a move that is not there.
const INF_DISCS: i32 = 65;

/// The ordinary search and the style at `c` of `b` (each with a fresh table), their times
/// added to `times` (ordinary, style).
fn both(
    searcher: &mut Searcher,
    eval: &dyn OrderingEval,
    b: Board,
    depth: u32,
    c: u32,
    times: (&mut Duration, &mut Duration),
) -> (SearchResult, Vec<RiskLine>) {
    let stop = AtomicBool::new(false);
    let req = at_80(b, depth);
    searcher.clear();
    let t0 = Instant::now();
    let ab = searcher.run(&req, eval, &stop, &mut |_| {});
    *times.0 += t0.elapsed();
    searcher.clear();
    let t0 = Instant::now();
    let lines = risk::search(searcher, &req, Risk::new(c), eval, &stop, false, &mut |_| {});
    *times.1 += t0.elapsed();
    (ab, lines)
}

/// The value for us of the move `sq` of `b`: its child searched `depth` plies at 80 %, fresh
/// table.
fn move_value(searcher: &mut Searcher, eval: &dyn OrderingEval, b: &Board, sq: Square, depth: u32) -> i32 {
    let stop = AtomicBool::new(false);
    let Some(child) = sq.index().and_then(|sq| b.play(sq)) else {
        return -INF_DISCS;
    };
    searcher.clear();
    -searcher.run(&at_80(child, depth), eval, &stop, &mut |_| {}).score
}

fn main() -> Result<(), String> {
    let (count, depth) = (setting("RISK_COUNT", 100) as usize, setting("RISK_DEPTH", 12).max(2));
    let eval = Evaluator::embedded().map_err(|e| e.to_string())?;
    let mut searcher = Searcher::new(64);
    for c in [5, 95] {
        let (mut changed, mut loss, mut deeper_loss) = (0, 0, 0);
        let (mut t_ab, mut t_risk) = (Duration::ZERO, Duration::ZERO);
        for k in 0..count {
            let b = risk::measurement_position(k);
            let (ab, lines) = both(&mut searcher, &eval, b, depth, c, (&mut t_ab, &mut t_risk));
            let (Some(ordinary), Some(played)) = (ab.best, lines.first().and_then(|l| l.pv.first().copied())) else {
                continue;
            };
            if played == ordinary {
                continue;
            }
            changed += 1;
            let shallow = move_value(&mut searcher, &eval, &b, played, depth - 1);
            let deep = move_value(&mut searcher, &eval, &b, ordinary, depth + 1)
                - move_value(&mut searcher, &eval, &b, played, depth + 1);
            loss += ab.score - shallow;
            deeper_loss += deep;
            println!(
                "c = {c}: {} empties, ordinary {ordinary} ({}), played {played} ({shallow} at depth {}, {deep} below at depth {})",
                b.empty_count(),
                ab.score,
                depth - 1,
                depth + 1
            );
        }
        println!(
            "c = {c} %, depth {depth} @ 80 %: another move in {changed} of {count} positions, {loss} discs below the ordinary value in all (by depth + 1: {deeper_loss}); time {:.1} s against {:.1} s",
            t_risk.as_secs_f64(),
            t_ab.as_secs_f64()
        );
    }
    Ok(())
}
