//! `oxello eval-mae`: accuracy of the evaluation against reference values. Positions at the
//! given empties are taken from held-out games (game number ≡ 9 mod 10, never trained on),
//! given a reference value — the exact score (solved unless the record is an exact label) or,
//! where solving is out of reach (30–40 empties), a deep selective search's value — and compared
//! with the static evaluation and with a fixed-depth search. The references can be saved as
//! records, so later runs (other weights) measure the same set without computing them again.

use crate::base::OrderingEval;
use crate::board::bits::Squares;
use crate::board::notation::format_position;
use crate::board::{Board, Color, Position};
use crate::eval::dataset::{Label, Record};
use crate::search::endgame::Solver;
use crate::search::midgame::Searcher;
use crate::search::request::{Pruning, SearchRequest};
use std::sync::atomic::AtomicBool;

pub struct MaeReport {
    pub positions: usize,
    pub static_mae: f64,
    pub search_mae: f64,
    /// The same per empties count, with the mean signed errors (evaluation − exact).
    pub rows: Vec<MaeRow>,
    /// The positions with their reference values, as exact- or search-labelled records.
    pub solved: Vec<Record>,
}

/// How positions without a usable label get their reference value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// Solved exactly; only exact labels are taken as they are.
    Exact,
    /// A search to `depth` plies at `percent` selectivity; exact and search labels are taken as
    /// they are (a saved test set), game results are not.
    Search { depth: u32, percent: u32 },
}

/// Up to `count` held-out positions with empties in `range`, spread over the range (one a
/// game and empties count). `any_game`: from every game, for data no fit has seen.
pub fn pick(records: &[Record], range: std::ops::RangeInclusive<u32>, count: usize, any_game: bool) -> Vec<Record> {
    let width = (range.end() - range.start() + 1) as usize;
    let mut out = Vec::new();
    for e in range {
        let mut seen = std::collections::HashSet::new();
        out.extend(
            records
                .iter()
                .filter(|r| (any_game || r.game % 10 == 9) && r.board.empty_count() == e && r.board.moves() != 0)
                .filter(|r| seen.insert(r.game))
                .take(count.div_ceil(width))
                .copied(),
        );
    }
    out.truncate(count);
    out
}

#[derive(Clone, Copy, Debug, Default)]
pub struct MaeRow {
    pub empties: u32,
    pub positions: usize,
    pub static_mae: f64,
    pub static_bias: f64,
    pub search_mae: f64,
    pub search_bias: f64,
    /// The records' own labels against the reference, where the label is not the reference.
    pub label_positions: usize,
    pub label_mae: f64,
    pub label_bias: f64,
}

/// Measures `positions` against their references. `fresh`: compute the reference even for
/// search-labelled records (whose labels are then measured, not trusted).
pub fn measure(
    positions: &[Record],
    depth: u32,
    reference: Reference,
    fresh: bool,
    eval: &dyn OrderingEval,
    progress: bool,
) -> MaeReport {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(64);
    let mut searcher = Searcher::new(64);
    let (mut s_err, mut d_err) = (0.0, 0.0);
    let mut rows: std::collections::BTreeMap<u32, MaeRow> = std::collections::BTreeMap::new();
    let mut solved = Vec::new();
    for (i, r) in positions.iter().enumerate() {
        let (exact, label) = match (r.label, reference) {
            (Label::Exact, _) => (r.score as i32, r.label),
            (Label::Search, Reference::Search { .. }) if !fresh => (r.score as i32, r.label),
            (_, Reference::Exact) => {
                solver.tt.clear();
                (solver.solve_exact_guided(&r.board, eval, &stop).score, Label::Exact)
            }
            (_, Reference::Search { depth, percent }) => {
                searcher.clear();
                let req = SearchRequest {
                    pruning: Pruning::from_percent(percent),
                    ..SearchRequest::fixed_depth(r.board, depth)
                };
                (searcher.run(&req, eval, &stop, &mut |_| {}).score, Label::Search)
            }
        };
        solved.push(Record {
            score: exact as i8,
            label,
            ..*r
        });
        searcher.clear();
        let req = SearchRequest::fixed_depth(r.board, depth);
        let searched = searcher.run(&req, eval, &stop, &mut |_| {}).score;
        let (se, de) = ((eval.evaluate(&r.board) - exact) as f64, (searched - exact) as f64);
        s_err += se.abs();
        d_err += de.abs();
        let empties = r.board.empty_count();
        let row = rows.entry(empties).or_insert(MaeRow {
            empties,
            ..MaeRow::default()
        });
        row.positions += 1;
        row.static_mae += se.abs();
        row.static_bias += se;
        row.search_mae += de.abs();
        row.search_bias += de;
        if r.label != Label::Exact && (fresh || r.label == Label::Game) {
            let le = (r.score as i32 - exact) as f64;
            row.label_positions += 1;
            row.label_mae += le.abs();
            row.label_bias += le;
        }
        if progress {
            eprint!("\reval-mae: {}/{} positions solved   ", i + 1, positions.len());
        }
    }
    if progress {
        eprintln!();
    }
    let n = positions.len().max(1) as f64;
    let mut rows: Vec<MaeRow> = rows.into_values().collect();
    for x in &mut rows {
        let k = x.positions as f64;
        x.static_mae /= k;
        x.static_bias /= k;
        x.search_mae /= k;
        x.search_bias /= k;
        let l = x.label_positions.max(1) as f64;
        x.label_mae /= l;
        x.label_bias /= l;
    }
    MaeReport {
        rows,
        positions: positions.len(),
        static_mae: s_err / n,
        search_mae: d_err / n,
        solved,
    }
}

/// Records as dataset text (`# game N` blocks, side to move written as X), readable by
/// `dataset::parse`.
pub fn format_records(records: &[Record]) -> String {
    let mut out = String::new();
    for r in records {
        let pos = Position {
            board: r.board,
            to_move: Color::Black,
        };
        out.push_str(&format!(
            "# game {}\n{} {} {}\n",
            r.game,
            format_position(&pos),
            r.score,
            r.label.name()
        ));
    }
    out
}

/// How well a fixed-depth search chooses moves: each move's exact value (its child solved)
/// against the value of the move the search picks. Unlike the MAE above it does not see a bias
/// shared by all moves — an offset per empties count moves every leaf of a fixed-depth search
/// alike and changes no choice — so it tells whether a fit plays better, not only whether its
/// scores are closer.
#[derive(Clone, Copy, Debug, Default)]
pub struct LossRow {
    pub empties: u32,
    pub positions: usize,
    /// Mean of best value − chosen move's value, in discs (≥ 0).
    pub loss: f64,
    /// Positions where the chosen move is a best one.
    pub best: usize,
}

pub struct LossReport {
    pub positions: usize,
    pub loss: f64,
    pub best: usize,
    pub rows: Vec<LossRow>,
    /// Every child solved, with its exact score (side to move's view), for a cache.
    pub solved: Vec<Record>,
}

/// Exact scores of positions already solved (a previous run's `LossReport::solved`), so that
/// fits are compared on the same children without solving them again.
pub type ExactCache = std::collections::HashMap<Board, i32>;

/// Each legal move's exact value, in the mover's view; children not in `cache` are solved
/// (ordered by `eval`, which changes the time, not the value) and added to it and to `solved`.
fn move_values(
    b: &Board,
    eval: &dyn OrderingEval,
    solver: &mut Solver,
    stop: &AtomicBool,
    cache: &mut ExactCache,
    solved: &mut Vec<Record>,
    game: u64,
) -> Vec<(usize, i32)> {
    let mut out = Vec::new();
    for sq in Squares(b.moves()) {
        let Some(child) = b.play(sq) else { continue };
        let value = match cache.get(&child) {
            Some(&v) => v,
            None => {
                solver.tt.clear();
                let v = solver.solve_exact_guided(&child, eval, stop).score;
                cache.insert(child, v);
                solved.push(Record {
                    board: child,
                    score: v as i8,
                    label: Label::Exact,
                    game,
                    off_line: true,
                });
                v
            }
        };
        out.push((sq, -value));
    }
    out
}

/// The move loss of a `depth`-ply search with `eval` on `positions`, against exact values.
pub fn move_loss(
    positions: &[Record],
    depth: u32,
    eval: &dyn OrderingEval,
    cache: &mut ExactCache,
    progress: bool,
) -> LossReport {
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(64);
    let mut searcher = Searcher::new(64);
    let mut rows: std::collections::BTreeMap<u32, LossRow> = std::collections::BTreeMap::new();
    let mut solved = Vec::new();
    for (i, r) in positions.iter().enumerate() {
        let values = move_values(&r.board, eval, &mut solver, &stop, cache, &mut solved, r.game);
        let Some(best) = values.iter().map(|&(_, v)| v).max() else {
            continue;
        };
        searcher.clear();
        let chosen = searcher
            .run(&SearchRequest::fixed_depth(r.board, depth), eval, &stop, &mut |_| {})
            .best;
        let Some(chosen) = chosen.and_then(|s| s.index()) else {
            continue;
        };
        let Some(&(_, value)) = values.iter().find(|&&(sq, _)| sq == chosen) else {
            continue;
        };
        let loss = (best - value) as f64;
        let empties = r.board.empty_count();
        let row = rows.entry(empties).or_insert(LossRow {
            empties,
            ..LossRow::default()
        });
        row.positions += 1;
        row.loss += loss;
        row.best += usize::from(value == best);
        if progress {
            eprint!("\reval-mae: move loss {}/{} positions   ", i + 1, positions.len());
        }
    }
    if progress {
        eprintln!();
    }
    let rows: Vec<LossRow> = rows.into_values().collect();
    let n: usize = rows.iter().map(|x| x.positions).sum();
    let total: f64 = rows.iter().map(|x| x.loss).sum();
    let best = rows.iter().map(|x| x.best).sum();
    LossReport {
        positions: n,
        loss: total / n.max(1) as f64,
        best,
        rows: rows
            .into_iter()
            .map(|x| LossRow {
                loss: x.loss / x.positions.max(1) as f64,
                ..x
            })
            .collect(),
        solved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(count: usize, empties: u32) -> Vec<Record> {
        let mut seed = 11u64;
        (0..count)
            .map(|_| crate::board::random_game(&mut seed, empties))
            .filter(|b| b.moves() != 0)
            .enumerate()
            .map(|(g, board)| Record {
                board,
                score: 0,
                label: Label::Game,
                game: g as u64,
                off_line: false,
            })
            .collect()
    }

    /// A search that sees to the end picks a best move every time, and a 1-ply search loses
    /// something somewhere; every child is solved once and found in the cache the second time.
    #[test]
    fn move_loss_is_zero_for_a_search_to_the_end_and_the_cache_is_reused() {
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let picked = positions(40, 10);
        let mut cache = ExactCache::new();
        let deep = move_loss(&picked, 12, &eval, &mut cache, false);
        assert_eq!(deep.positions, picked.len());
        assert_eq!(deep.loss, 0.0);
        assert_eq!(deep.best, picked.len());
        let children: u32 = picked.iter().map(|r| r.board.moves().count_ones()).sum();
        assert_eq!(deep.solved.len(), children as usize);
        let shallow = move_loss(&picked, 1, &eval, &mut cache, false);
        assert!(shallow.solved.is_empty(), "solved again: {}", shallow.solved.len());
        assert!(shallow.loss > 0.0 && shallow.best < picked.len());
        let rows: usize = shallow.rows.iter().map(|x| x.positions).sum();
        assert_eq!(rows, shallow.positions);
    }

    /// The loss is the best value minus the chosen move's, read from the cache: a cache that
    /// says every move but one loses by 64 makes any other choice cost 64 discs.
    #[test]
    fn move_loss_reads_the_values_from_the_cache() {
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let picked = positions(1, 30);
        let b = picked[0].board;
        let mut stop_searcher = Searcher::new(1);
        let stop = AtomicBool::new(false);
        let chosen = stop_searcher
            .run(&SearchRequest::fixed_depth(b, 2), &eval, &stop, &mut |_| {})
            .best;
        let chosen = chosen.and_then(|s| s.index()).expect("a move");
        let mut cache = ExactCache::new();
        let mut other = None;
        for sq in Squares(b.moves()) {
            let child = b.play(sq).expect("legal");
            // Child values are the opponent's view: -64 there is +64 for the mover.
            let best = sq != chosen && other.is_none();
            if best {
                other = Some(sq);
            }
            cache.insert(child, if best { -64 } else { 0 });
        }
        assert!(other.is_some(), "the position needs two moves");
        let r = move_loss(&picked, 2, &eval, &mut cache, false);
        assert!(r.solved.is_empty());
        assert_eq!((r.positions, r.loss, r.best), (1, 64.0, 0));
    }
}
