//! `oxello analyze`: the score of every legal move of a position, best first.

use crate::base::DepthKind;
use crate::base::OrderingEval;
use crate::board::{Board, Square};
use crate::json::JsonObject;
use crate::search::dist::Odds;
use crate::search::midgame::Searcher;
use crate::search::request::{Driver, Limits, Pruning, SearchRequest};
use crate::search::risk::{self, Risk};
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
    /// Time for the whole analysis (`--move-time` / `--game-time`), shared by the moves.
    pub time: Option<std::time::Duration>,
}

impl AnalyzeDepth {
    /// The search of `board` to `plies` with these solve depths and pruning.
    fn request(&self, board: Board, plies: u32, driver: Driver) -> SearchRequest {
        SearchRequest {
            board,
            limits: Limits {
                depth: Some(plies),
                time: self.time,
                target: self.time,
            },
            exact_empties: self.exact_empties,
            wld_empties: self.wld_empties,
            probable_empties: self.probable_empties,
            driver,
            pruning: self.pruning,
            threads: self.threads,
            draw: 0,
        }
    }
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
    /// The chances of the side to move after this move (the risk-aware style's analysis).
    pub odds: Option<Odds>,
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
    // A time for the analysis is shared equally by the moves.
    let depth = AnalyzeDepth {
        time: depth.time.map(|t| t / choices.len().max(1) as u32),
        ..depth
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
                    odds: None,
                };
            }
            let req = depth.request(child, depth.depth - 1, driver);
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
                odds: None,
            }
        })
        .collect();
    out.sort_by_key(|m| std::cmp::Reverse(m.score));
    out
}

/// Every legal move of `b` valued by the risk-aware style at `confidence` percent (its value
/// at that confidence and its chances), best first. Within the solve depths, or without a
/// move or a depth, the ordinary analysis, with the chances of its values.
pub fn analyze_risk(
    b: &Board,
    depth: AnalyzeDepth,
    driver: Driver,
    eval: &dyn OrderingEval,
    searcher: &mut Searcher,
    confidence: u32,
) -> Vec<MoveScore> {
    let req = depth.request(*b, depth.depth, driver);
    if b.moves() == 0 || depth.depth == 0 || risk::solved_by_search(&req) {
        let mut moves = analyze(b, depth, driver, eval, searcher);
        let empties = b.empty_count().saturating_sub(1);
        for m in &mut moves {
            let plies = match m.kind {
                DepthKind::Midgame { depth, .. } => Some(depth.saturating_sub(1)),
                _ => None,
            };
            m.odds = Some(risk::odds(&searcher.mpc, empties, m.score, plies));
        }
        return moves;
    }
    let stop = AtomicBool::new(false);
    let lines = risk::search(searcher, &req, Risk::new(confidence), eval, &stop, true, &mut |_| {});
    lines
        .into_iter()
        .map(|l| MoveScore {
            mv: l.pv.first().copied().unwrap_or(Square::Pass),
            score: l.score,
            kind: l.kind,
            nodes: l.nodes,
            pv: l.pv,
            odds: Some(l.odds),
        })
        .collect()
}

/// Depth as GUIs show it: `12`, `100%W`, `100%`.
pub fn depth_string(kind: DepthKind) -> String {
    crate::base::SearchDepth::from(kind).to_string()
}

pub fn pv_string(pv: &[Square]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Formats the analysis as a table or as JSON lines.
pub fn format(moves: &[MoveScore], json: bool) -> String {
    let mut s = String::new();
    let odds = moves.iter().any(|m| m.odds.is_some());
    if !json {
        let chances = if odds {
            format!(" {:>6} {:>6}", "win%", "draw%")
        } else {
            String::new()
        };
        s.push_str(&format!(
            "{:>4} {:>6}{chances} {:>6} {:>12}  pv\n",
            "move", "score", "depth", "nodes"
        ));
    }
    for m in moves {
        let depth = match m.kind {
            DepthKind::Midgame { depth, .. } => depth as i64,
            _ => 60,
        };
        if json {
            let mut o = JsonObject::new().str("move", &m.mv.to_string()).int("score", m.score as i64);
            if let Some(c) = m.odds {
                o = o.float("win", c.win, 4).float("draw", c.draw, 4);
            }
            let o = o
                .int("depth", depth)
                .str("depth_string", &depth_string(m.kind))
                .int("nodes", m.nodes as i64)
                .str("pv", &pv_string(&m.pv));
            s.push_str(&o.finish());
            s.push('\n');
        } else {
            let chances = m
                .odds
                .map(|c| format!(" {:>6.1} {:>6.1}", 100.0 * c.win, 100.0 * c.draw))
                .unwrap_or_default();
            s.push_str(&format!(
                "{:>4} {:>+6}{chances} {:>6} {:>12}  {}\n",
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
