//! `oxello analyze`: the score of every legal move of a position, best first.

use super::json::JsonObject;
use crate::board::{Board, Square};
use crate::search::endgame::OrderingEval;
use crate::search::midgame::Searcher;
use crate::search::request::{DepthKind, Driver, Limits, Pruning, SearchRequest};
use std::sync::atomic::AtomicBool;

/// How deep to look at each move.
#[derive(Clone, Copy, Debug)]
pub struct AnalyzeDepth {
    /// Midgame depth of the position (each move is searched one ply less).
    pub depth: u32,
    pub exact_empties: u32,
    pub wld_empties: u32,
    pub probable_empties: [u32; 3],
    pub pruning: Pruning,
    pub threads: usize,
}

/// One analysed move.
#[derive(Clone, Debug)]
pub struct MoveScore {
    pub mv: Square,
    /// Side to move's score in discs after this move.
    pub score: i32,
    pub kind: DepthKind,
    pub nodes: u64,
    pub pv: Vec<Square>,
}

/// Scores every legal move of `b` (a single `pa` entry when the side to move must pass).
pub fn analyze(
    b: &Board,
    depth: AnalyzeDepth,
    driver: Driver,
    eval: &dyn OrderingEval,
    searcher: &mut Searcher,
) -> Vec<MoveScore> {
    let stop = AtomicBool::new(false);
    let moves = b.moves();
    let choices: Vec<(Square, Board)> = if moves == 0 {
        if b.pass().moves() == 0 {
            return Vec::new();
        }
        vec![(Square::Pass, b.pass())]
    } else {
        crate::board::bits::Squares(moves)
            .filter_map(|sq| b.play(sq).map(|c| (Square::At(sq as u8), c)))
            .collect()
    };
    let mut out: Vec<MoveScore> = choices
        .into_iter()
        .map(|(mv, child)| {
            if depth.depth == 0 {
                // Static evaluation of the resulting position, from our side.
                let score = if child.is_game_over() {
                    -child.final_score()
                } else {
                    -eval.evaluate(&child)
                };
                return MoveScore {
                    mv,
                    score,
                    kind: DepthKind::Midgame { depth: 0, percent: 100 },
                    nodes: 1,
                    pv: vec![mv],
                };
            }
            let req = SearchRequest {
                board: child,
                limits: Limits {
                    depth: Some(depth.depth - 1),
                    ..Limits::default()
                },
                exact_empties: depth.exact_empties,
                wld_empties: depth.wld_empties,
                probable_empties: depth.probable_empties,
                driver,
                pruning: depth.pruning,
                threads: depth.threads,
            };
            let r = searcher.run(&req, eval, &stop, &mut |_| {});
            let mut pv = vec![mv];
            pv.extend(r.pv);
            let kind = match r.kind {
                DepthKind::Midgame { depth, percent } => DepthKind::Midgame {
                    depth: depth + 1,
                    percent,
                },
                k => k,
            };
            MoveScore {
                mv,
                score: -r.score,
                kind,
                nodes: r.nodes,
                pv,
            }
        })
        .collect();
    out.sort_by_key(|m| std::cmp::Reverse(m.score));
    out
}

/// Depth as GUIs show it: `12`, `100%W`, `100%`.
pub fn depth_string(kind: DepthKind) -> String {
    crate::protocol::SearchDepth::from(kind).to_string()
}

pub fn pv_string(pv: &[Square]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Formats the analysis as a table or as JSON lines.
pub fn format(moves: &[MoveScore], json: bool) -> String {
    let mut s = String::new();
    if !json {
        s.push_str(&format!("{:>4} {:>6} {:>6} {:>12}  pv\n", "move", "score", "depth", "nodes"));
    }
    for m in moves {
        let depth = match m.kind {
            DepthKind::Midgame { depth, .. } => depth as i64,
            _ => 60,
        };
        if json {
            let o = JsonObject::new()
                .str("move", &m.mv.to_string())
                .int("score", m.score as i64)
                .int("depth", depth)
                .str("depth_string", &depth_string(m.kind))
                .int("nodes", m.nodes as i64)
                .str("pv", &pv_string(&m.pv));
            s.push_str(&o.finish());
            s.push('\n');
        } else {
            s.push_str(&format!(
                "{:>4} {:>+6} {:>6} {:>12}  {}\n",
                m.mv,
                m.score,
                depth_string(m.kind),
                m.nodes,
                pv_string(&m.pv)
            ));
        }
    }
    s
}
