//! Interim `Think` implementation until the midgame Searcher lands: the exact endgame solver
//! at 14 empties or fewer, otherwise a 1-ply greedy choice. It only exists so the protocol
//! front-end can be exercised end to end; the real search replaces it.

use super::{Think, ThinkInfo, ThinkRequest, ThinkResult};
use crate::board::bits::Squares;
use crate::board::{Board, Square};
use crate::protocol::SearchDepth;
use crate::search::endgame::{SolveMode, Solver};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Solve exactly at or below this many empties (a few milliseconds on this machine).
const EXACT_EMPTIES: u32 = 14;
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// b2, g2, b7, g7: squares that give corners away.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

pub struct InterimThinker {
    solver: Solver,
}

impl InterimThinker {
    pub fn new(hash_mb: usize) -> InterimThinker {
        InterimThinker {
            solver: Solver::new(hash_mb),
        }
    }

    /// Exact values: the root alone for a move choice, every move for hints.
    fn solve(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> Option<ThinkResult> {
        let t0 = Instant::now();
        let b = req.position.board;
        let mut nodes = 0;
        let mut best: Option<ThinkResult> = None;
        let roots: Vec<(Vec<Square>, Board)> = if req.moves <= 1 {
            vec![(Vec::new(), b)]
        } else {
            Squares(b.moves())
                .filter_map(|sq| Some((vec![Square::At(sq as u8)], b.play(sq)?)))
                .collect()
        };
        for (prefix, board) in roots {
            let r = self.solver.solve(&board, SolveMode::Exact, None, stop);
            nodes += r.nodes;
            if r.aborted {
                break;
            }
            let (score, pv) = if prefix.is_empty() {
                (r.score, r.pv)
            } else {
                (-r.score, prefix.into_iter().chain(r.pv).collect::<Vec<_>>())
            };
            let seconds = t0.elapsed().as_secs_f64();
            let score = f64::from(score);
            report(ThinkInfo {
                pv: pv.clone(),
                score,
                depth: SearchDepth::Exact,
                nodes,
                seconds,
            });
            let first = *pv.first()?;
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(ThinkResult {
                    best: first,
                    score,
                    depth: SearchDepth::Exact,
                    pv,
                    nodes,
                    seconds,
                });
            }
        }
        best.map(|b| ThinkResult {
            nodes,
            seconds: t0.elapsed().as_secs_f64(),
            ..b
        })
    }
}

/// Interim 1-ply heuristic: corners good, X-squares bad, opponent mobility bad.
fn greedy_value(after: &Board, sq: usize) -> f64 {
    let bit = 1u64 << sq;
    let corner = if bit & CORNERS != 0 { 10.0 } else { 0.0 };
    let x_square = if bit & X_SQUARES != 0 { -5.0 } else { 0.0 };
    // `after` is from the opponent's point of view: its moves are the replies.
    corner + x_square - f64::from(after.moves().count_ones())
}

/// Interim 1-ply greedy choice, every move reported best first.
fn greedy(req: &ThinkRequest, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
    let t0 = Instant::now();
    let b = req.position.board;
    let mut scored: Vec<(f64, usize)> = Squares(b.moves())
        .filter_map(|sq| b.play(sq).map(|after| (greedy_value(&after, sq), sq)))
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let nodes = scored.len() as u64;
    for &(score, sq) in scored.iter().take(req.moves.max(1)) {
        let seconds = t0.elapsed().as_secs_f64();
        report(ThinkInfo {
            pv: vec![Square::At(sq as u8)],
            score,
            depth: SearchDepth::Plies(1),
            nodes,
            seconds,
        });
    }
    // The caller guarantees a legal move; Pass is only a fallback that cannot happen.
    let (score, best) = scored
        .first()
        .map(|&(s, sq)| (s, Square::At(sq as u8)))
        .unwrap_or((0.0, Square::Pass));
    ThinkResult {
        best,
        score,
        depth: SearchDepth::Plies(1),
        pv: vec![best],
        nodes,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

impl Think for InterimThinker {
    fn think(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
        if req.position.board.empty_count() <= EXACT_EMPTIES
            && let Some(r) = self.solve(req, stop, report)
        {
            return r;
        }
        // Stopped before any exact value, or too many empties: answer at once.
        greedy(req, report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn request(position: Position, moves: usize) -> ThinkRequest {
        ThinkRequest {
            position,
            depth: 10,
            time: None,
            moves,
            draw_value: 0.0,
        }
    }

    #[test]
    fn greedy_in_the_opening_gives_legal_moves() {
        let mut t = InterimThinker::new(1);
        let stop = AtomicBool::new(false);
        let mut lines = Vec::new();
        let r = t.think(&request(Position::start(), 4), &stop, &mut |i| lines.push(i));
        assert_eq!(lines.len(), 4);
        assert!(Position::start().board.moves() >> r.best.index().unwrap_or(64) & 1 == 1);
        assert_eq!(r.depth, SearchDepth::Plies(1));
    }

    #[test]
    fn exact_near_the_end_matches_the_solver() {
        // Play the last legal move each ply down to 10 empties: solved exactly, and the
        // solver itself is the oracle.
        let mut late = Position::start();
        while late.board.empty_count() > 10 || late.board.moves() == 0 {
            let m = late.board.moves();
            late = if m == 0 {
                late.pass()
            } else {
                late.play(63 - m.leading_zeros() as usize).expect("legal")
            };
            assert!(!late.board.is_game_over());
        }
        let stop = AtomicBool::new(false);
        let mut t = InterimThinker::new(1);
        let mut lines = Vec::new();
        let r = t.think(&request(late, 1), &stop, &mut |i| lines.push(i));
        let oracle = Solver::new(1).solve(&late.board, SolveMode::Exact, None, &stop);
        assert_eq!(r.score, f64::from(oracle.score));
        assert_eq!(r.depth, SearchDepth::Exact);
        assert_eq!(lines.len(), 1);
        let mut hints = Vec::new();
        let all = t.think(&request(late, 64), &stop, &mut |i| hints.push(i));
        assert_eq!(hints.len(), late.board.moves().count_ones() as usize);
        assert_eq!(all.score, r.score);
        // Stopped before anything: still a legal move.
        let stopped = AtomicBool::new(true);
        let s = t.think(&request(late, 1), &stopped, &mut |_| {});
        assert!(late.board.moves() >> s.best.index().unwrap_or(64) & 1 == 1);
    }
}
