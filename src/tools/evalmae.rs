//! `oxello eval-mae`: accuracy of the evaluation against reference values. Positions at the
//! given empties are taken from held-out games (game number ≡ 9 mod 10, never trained on),
//! given a reference value — the exact score (solved unless the record is an exact label) or,
//! where solving is out of reach (30–40 empties), a deep selective search's value — and compared
//! with the static evaluation and with a fixed-depth search. The references can be saved as
//! records, so later runs (other weights) measure the same set without computing them again.

use crate::base::OrderingEval;
use crate::board::notation::format_position;
use crate::board::{Color, Position};
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
