//! `oxello bench`: the search signature. Fixed positions, fixed depth, one thread, fresh TT;
//! the total node count changes only when the search or the evaluation changes. `--threads`
//! measures the parallel speed-up on the same work (node counts then vary run to run).

use crate::base::OrderingEval;
use crate::board::Board;
use crate::board::notation::parse_position;
use crate::json::JsonObject;
use crate::search::midgame::Searcher;
use crate::search::mpc::MpcTable;
use crate::search::request::{Driver, Pruning, SearchRequest};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Positions from self-play games at 52, 48, ..., 24 empties: early to late midgame.
pub const POSITIONS: [&str; 8] = [
    "------------O------XOX-----XOX-----XOX-------X-------X---------- X",
    "------------X------XXX----OOOX-----OXXO---OX-X----X------------- X",
    "-------X------X---O--XO---XOXOXX---XO--O--XXXO----O------O------ X",
    "---------X--------XX---X---XOOX--X-OXOO---XO-O---XXXXXO----O---O X",
    "----------XO----X-X-----XXXXX---OOXXX---OXXXX---OXXX----XXXXX--- X",
    "OO-X-OO--OO-XO----OOOXX---OOXX-----OOXX---OOXX----OXXX----XX---- X",
    "-------X------XX----XXXX---OXXX--XXXXXX-OOXXXX-XOOOOOO--OOOOOO-- X",
    "----O---O--OOX--OOOOXXX-OXXXOX--OXXOXX--OOOOXXX-OXOOX---OOOO---- X",
];

pub struct BenchResult {
    pub nodes: u64,
    pub seconds: f64,
    pub per_position: Vec<(u64, f64, i32)>,
}

/// The bench positions (constants, checked by a test).
pub fn positions() -> Vec<Board> {
    POSITIONS
        .iter()
        .filter_map(|s| parse_position(s).ok())
        .map(|p| p.board)
        .collect()
}

pub fn run(
    depth: u32,
    driver: Driver,
    pruning: Pruning,
    mpc: &MpcTable,
    eval: &dyn OrderingEval,
    hash_mb: usize,
    threads: usize,
) -> BenchResult {
    let stop = AtomicBool::new(false);
    let mut per_position = Vec::new();
    for b in positions() {
        let mut s = Searcher::new(hash_mb);
        s.mpc = mpc.clone();
        let req = SearchRequest {
            driver,
            pruning,
            threads,
            ..SearchRequest::fixed_depth(b, depth)
        };
        let t0 = Instant::now();
        let r = s.run(&req, eval, &stop, &mut |_| {});
        per_position.push((r.nodes, t0.elapsed().as_secs_f64(), r.score));
    }
    BenchResult {
        nodes: per_position.iter().map(|p| p.0).sum(),
        seconds: per_position.iter().map(|p| p.1).sum(),
        per_position,
    }
}

pub fn format(r: &BenchResult, depth: u32, driver: Driver, json: bool) -> String {
    let nps = r.nodes as f64 / r.seconds.max(1e-9);
    if json {
        let mut s = String::new();
        for (i, (n, t, score)) in r.per_position.iter().enumerate() {
            let o = JsonObject::new()
                .int("position", i as i64 + 1)
                .int("score", *score as i64)
                .int("nodes", *n as i64)
                .float("seconds", *t, 4);
            s.push_str(&o.finish());
            s.push('\n');
        }
        let o = JsonObject::new()
            .bool("totals", true)
            .int("depth", depth as i64)
            .str("driver", &format!("{driver:?}").to_lowercase())
            .int("nodes", r.nodes as i64)
            .float("seconds", r.seconds, 3)
            .float("nodes_per_second", nps, 0);
        s.push_str(&o.finish());
        s.push('\n');
        s
    } else {
        let mut s = String::new();
        for (i, (n, t, score)) in r.per_position.iter().enumerate() {
            s.push_str(&format!(
                "position {:>2}: score {:>+3} {:>12} nodes {:>8.3} s\n",
                i + 1,
                score,
                n,
                t
            ));
        }
        s.push_str(&format!(
            "{} nodes, {:.0} nodes/s (depth {depth}, {driver:?}, {:.3} s)\n",
            r.nodes, nps, r.seconds
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_positions_parse_and_have_moves() {
        let p = positions();
        assert_eq!(p.len(), POSITIONS.len());
        assert!(p.iter().all(|b| b.moves() != 0));
    }
}
