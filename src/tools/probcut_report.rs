//! `oxello probcut-report`: reproduces Buro's ProbCut tables with our own search.
//!
//! Table 2: fixed-depth searches, brute force against forward pruning (Multi-ProbCut,
//! single-pair ProbCut as in the 1995 paper, and N-best selective search) on positions with
//! 12, 20, 28, 36 and 44 discs drawn reproducibly from self-play games.
//! Table 1: a tournament, ProbCut at several thresholds t against the full-width search at
//! equal time per move, from balanced openings with colours swapped.

use super::matchplay::{Player, Score, generate_openings, run_match};
use crate::base::OrderingEval;
use crate::board::bits::Squares;
use crate::board::{Board, Position, Square};
use crate::json::JsonObject;
use crate::search::midgame::Searcher;
use crate::search::mpc::MpcTable;
use crate::search::request::{Pruning, SearchRequest};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub const DISC_COUNTS: [u32; 5] = [12, 20, 28, 36, 44];
pub const TOURNAMENT_T: [f64; 6] = [1.2, 1.35, 1.5, 1.65, 1.8, 2.0];

pub struct ReportOptions {
    pub positions: usize,
    pub depth: u32,
    pub games: usize,
    pub time_per_move: Duration,
    /// ProbCut threshold used in Table 2.
    pub t: f64,
    /// Width of the N-best comparison.
    pub nbest: u32,
    pub seed: u64,
    pub threads: usize,
}

/// One line of Table 2 for one pruning method.
#[derive(Clone, Debug)]
pub struct Table2Row {
    pub method: String,
    pub discs: u32,
    pub nodes_brute: f64,
    pub nodes_brute_std: f64,
    pub nodes_selective: f64,
    pub nodes_selective_std: f64,
    pub speedup: f64,
    pub same_move: f64,
    pub same_value: f64,
}

/// Positions with `discs` discs from quick self-play games (random first plies, then a
/// 2-ply search), one per game, reproducible from the seed.
pub fn sample_positions(discs: u32, count: usize, seed: u64, eval: &dyn OrderingEval) -> Vec<Board> {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4);
    let mut out = Vec::new();
    let mut game = 0u64;
    while out.len() < count && game < count as u64 * 20 {
        game += 1;
        let mut state = (seed ^ (game.wrapping_mul(0x9E37_79B9_7F4A_7C15))) | 1;
        let mut rnd = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n.max(1) as u64) as usize
        };
        let random_plies = 2 + rnd(6) as u32;
        let mut pos = Position::start();
        let mut ply = 0;
        while (pos.board.player | pos.board.opponent).count_ones() < discs && !pos.board.is_game_over() {
            let m = pos.board.moves();
            if m == 0 {
                pos = pos.pass();
                continue;
            }
            let sq = if ply < random_plies {
                Squares(m).nth(rnd(m.count_ones())).unwrap_or(0)
            } else {
                let req = SearchRequest::fixed_depth(pos.board, 2);
                match searcher.run(&req, eval, &stop, &mut |_| {}).best {
                    Some(Square::At(s)) => s as usize,
                    _ => m.trailing_zeros() as usize,
                }
            };
            pos = pos.play(sq).unwrap_or(pos);
            ply += 1;
        }
        if (pos.board.player | pos.board.opponent).count_ones() == discs && pos.board.moves() != 0 {
            out.push(pos.board);
        }
    }
    out
}

fn search(b: &Board, depth: u32, pruning: Pruning, mpc: &MpcTable, eval: &dyn OrderingEval) -> (Option<Square>, i32, u64) {
    let stop = AtomicBool::new(false);
    let mut s = Searcher::new(32);
    s.mpc = mpc.clone();
    let req = SearchRequest {
        pruning,
        ..SearchRequest::fixed_depth(*b, depth.min(b.empty_count()))
    };
    let r = s.run(&req, eval, &stop, &mut |_| {});
    (r.best, r.score, r.nodes)
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(1) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
    (m, var.sqrt())
}

/// Table 2 rows for every method and disc count.
pub fn table2(opts: &ReportOptions, mpc: &MpcTable, eval: &(dyn OrderingEval + Sync), progress: bool) -> Vec<Table2Row> {
    // Single-pair ProbCut as in the 1995 paper: only the 8-from-4 check.
    let single = MpcTable::new(mpc.fits().iter().filter(|f| f.depth == 8 && f.check == 4).copied().collect());
    let methods: Vec<(String, Pruning, &MpcTable)> = vec![
        (format!("Multi-ProbCut t={}", opts.t), Pruning::ProbCut { t: opts.t }, mpc),
        (format!("ProbCut 8/4 t={}", opts.t), Pruning::ProbCut { t: opts.t }, &single),
        (format!("N-best n={}", opts.nbest), Pruning::NBest { n: opts.nbest }, mpc),
    ];
    let mut rows = Vec::new();
    for &discs in &DISC_COUNTS {
        let boards = sample_positions(discs, opts.positions, opts.seed, eval);
        let brute: Vec<(Option<Square>, i32, u64)> = boards
            .iter()
            .map(|b| search(b, opts.depth, Pruning::None, mpc, eval))
            .collect();
        let (bm, bs) = mean_std(&brute.iter().map(|r| r.2 as f64).collect::<Vec<_>>());
        for (name, pruning, table) in &methods {
            let sel: Vec<(Option<Square>, i32, u64)> =
                boards.iter().map(|b| search(b, opts.depth, *pruning, table, eval)).collect();
            let (sm, ss) = mean_std(&sel.iter().map(|r| r.2 as f64).collect::<Vec<_>>());
            let n = boards.len().max(1) as f64;
            let same_move = brute.iter().zip(&sel).filter(|(a, b)| a.0 == b.0).count() as f64 * 100.0 / n;
            let same_value = brute.iter().zip(&sel).filter(|(a, b)| a.1 == b.1).count() as f64 * 100.0 / n;
            rows.push(Table2Row {
                method: name.clone(),
                discs,
                nodes_brute: bm,
                nodes_brute_std: bs,
                nodes_selective: sm,
                nodes_selective_std: ss,
                speedup: bm / sm.max(1.0),
                same_move,
                same_value,
            });
            if progress {
                eprintln!("probcut-report: {discs} discs, {name}: {:.1}x", bm / sm.max(1.0));
            }
        }
    }
    rows
}

/// Table 1: (t, score of the ProbCut side) per threshold.
pub fn table1(opts: &ReportOptions, eval: &(dyn OrderingEval + Sync), progress: bool) -> Vec<(f64, Score)> {
    let openings: Vec<Position> = generate_openings(opts.games.div_ceil(2), 8, 4, Pruning::None, -4..=4, eval, opts.seed)
        .iter()
        .filter_map(|l| crate::board::notation::play_transcript(Position::start(), l).ok())
        .filter_map(|l| l.last().copied())
        .collect();
    let player = |name: String, pruning: Pruning| Player {
        name,
        eval,
        depth: None,
        time_per_move: Some(opts.time_per_move),
        exact_empties: 14,
        wld_empties: 16,
        pruning,
    };
    TOURNAMENT_T
        .iter()
        .map(|&t| {
            let a = player(format!("ProbCut t={t}"), Pruning::ProbCut { t });
            let b = player("full-width".into(), Pruning::None);
            (t, run_match(&a, &b, &openings, opts.threads, 16, progress))
        })
        .collect()
}

pub fn format_table2(rows: &[Table2Row], json: bool) -> String {
    let mut s = String::new();
    if !json {
        s.push_str("| method | discs | nodes brute (std) | nodes selective (std) | speed-up | same move | same value |\n");
        s.push_str("|---|---|---|---|---|---|---|\n");
    }
    for r in rows {
        if json {
            let o = JsonObject::new()
                .str("method", &r.method)
                .int("discs", r.discs as i64)
                .float("nodes_brute", r.nodes_brute, 0)
                .float("nodes_brute_std", r.nodes_brute_std, 0)
                .float("nodes_selective", r.nodes_selective, 0)
                .float("nodes_selective_std", r.nodes_selective_std, 0)
                .float("speedup", r.speedup, 2)
                .float("same_move", r.same_move, 1)
                .float("same_value", r.same_value, 1);
            s.push_str(&o.finish());
            s.push('\n');
        } else {
            s.push_str(&format!(
                "| {} | {} | {:.0} ({:.0}) | {:.0} ({:.0}) | {:.2} | {:.1} % | {:.1} % |\n",
                r.method,
                r.discs,
                r.nodes_brute,
                r.nodes_brute_std,
                r.nodes_selective,
                r.nodes_selective_std,
                r.speedup,
                r.same_move,
                r.same_value
            ));
        }
    }
    s
}

pub fn format_table1(rows: &[(f64, Score)], json: bool) -> String {
    let mut s = String::new();
    if !json {
        s.push_str("| t | wins | draws | losses | winning % |\n|---|---|---|---|---|\n");
    }
    for (t, sc) in rows {
        if json {
            let o = JsonObject::new()
                .float("t", *t, 2)
                .int("wins", sc.wins as i64)
                .int("draws", sc.draws as i64)
                .int("losses", sc.losses as i64)
                .float("percent", sc.percent(), 1);
            s.push_str(&o.finish());
            s.push('\n');
        } else {
            s.push_str(&format!(
                "| {t} | {} | {} | {} | {:.1} % |\n",
                sc.wins,
                sc.draws,
                sc.losses,
                sc.percent()
            ));
        }
    }
    s
}
