//! `oxello accuracy FILE.obf`: how well a fixed-depth search chooses and values moves, on OBF
//! files that list every move's exact value (Edax's `hard-20/25/30.obf`).
//!
//! Defined as play does it: one search a position at the given depth and selectivity, one
//! thread, the table cleared before each position. The chosen move is the search's best move,
//! its score the search's score (whole discs: oxello's search works in discs; Neural Reversi
//! prints tenths). Against the file's values:
//! - error: |score − best listed value|; MAE is its mean;
//! - best move: the chosen move's listed value equals the best value (ties count);
//! - top 2: its value is at least the second entry's (the list is best first);
//! - within ±3 (±6): the error is at most 3 (6), inclusive.
//!
//! `Mode::Analyze` instead scores every legal move with its own search one ply shallower
//! (`tools::analyze`, what `oxello analyze --depth D` prints) and takes the first line: the
//! definition an outside tester used with `analyze`, kept to compare with it.

use crate::base::OrderingEval;
use crate::board::{Board, Square};
use crate::json::JsonObject;
use crate::obf::{self, ObfLine, ObfPosition};
use crate::search::midgame::Searcher;
use crate::search::request::{Driver, Limits, Pruning, SearchRequest};
use crate::tools::analyze::{self, AnalyzeDepth, pv_string};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One search of the position (as the engine plays).
    Search,
    /// Every move searched on its own one ply shallower, the best first (`oxello analyze`).
    Analyze,
}

#[derive(Clone, Copy, Debug)]
pub struct AccuracyOptions {
    pub depth: u32,
    pub pruning: Pruning,
    pub mode: Mode,
    pub json: bool,
}

/// One position's outcome.
#[derive(Clone, Debug)]
pub struct Judged {
    pub line: usize,
    pub empties: u32,
    pub mv: Square,
    pub score: i32,
    /// The best listed value.
    pub best: i32,
    /// The chosen move's listed value (None: the file does not list it).
    pub move_value: Option<i32>,
    pub nodes: u64,
    pub seconds: f64,
    pub pv: Vec<Square>,
}

impl Judged {
    pub fn error(&self) -> i32 {
        (self.score - self.best).abs()
    }
    pub fn is_best(&self) -> bool {
        self.move_value == Some(self.best)
    }
}

/// Is the chosen move among the best two of `p`'s list (ties with the second count)?
fn in_top(p: &ObfPosition, value: Option<i32>, n: usize) -> bool {
    match (value, p.scores.get(n - 1).or(p.scores.last())) {
        (Some(v), Some(&(_, nth))) => v >= nth,
        _ => false,
    }
}

/// Totals over a file.
#[derive(Default, Debug, Clone)]
pub struct AccuracySummary {
    pub positions: usize,
    /// Lines that could not be read, or listed no values.
    pub skipped: usize,
    pub abs_error: u64,
    pub best: usize,
    pub top2: usize,
    pub within3: usize,
    pub within6: usize,
    pub nodes: u64,
    pub seconds: f64,
}

impl AccuracySummary {
    pub fn mae(&self) -> f64 {
        self.abs_error as f64 / self.positions.max(1) as f64
    }
    fn percent(&self, n: usize) -> f64 {
        100.0 * n as f64 / self.positions.max(1) as f64
    }
    fn add(&mut self, j: &Judged, top2: bool) {
        self.positions += 1;
        self.abs_error += j.error() as u64;
        self.best += j.is_best() as usize;
        self.top2 += top2 as usize;
        self.within3 += (j.error() <= 3) as usize;
        self.within6 += (j.error() <= 6) as usize;
        self.nodes += j.nodes;
        self.seconds += j.seconds;
    }
}

/// Searches `b` (a position where the side to move has a move) as the options say.
fn choose(
    b: &Board,
    opts: &AccuracyOptions,
    eval: &dyn OrderingEval,
    searcher: &mut Searcher,
) -> (Square, i32, u64, Vec<Square>) {
    match opts.mode {
        Mode::Search => {
            let req = SearchRequest {
                board: *b,
                limits: Limits {
                    depth: Some(opts.depth),
                    time: None,
                    target: None,
                },
                exact_empties: 0,
                wld_empties: 0,
                probable_empties: [0; 3],
                driver: Driver::Pvs,
                pruning: opts.pruning,
                threads: 1,
                draw: 0,
            };
            let stop = AtomicBool::new(false);
            let r = searcher.run(&req, eval, &stop, &mut |_| {});
            (r.best.unwrap_or(Square::Pass), r.score, r.nodes, r.pv)
        }
        Mode::Analyze => {
            let depth = AnalyzeDepth {
                depth: opts.depth,
                exact_empties: 0,
                wld_empties: 0,
                probable_empties: [0; 3],
                pruning: opts.pruning,
                threads: 1,
                time: None,
            };
            let moves = analyze::analyze(b, depth, Driver::Pvs, eval, searcher);
            let nodes = moves.iter().map(|m| m.nodes).sum();
            match moves.first() {
                Some(m) => (m.mv, m.score, nodes, m.pv.clone()),
                None => (Square::Pass, 0, nodes, Vec::new()),
            }
        }
    }
}

/// Judges one position (None when it lists no values or the side to move must pass).
pub fn judge(
    p: &ObfPosition,
    opts: &AccuracyOptions,
    eval: &dyn OrderingEval,
    searcher: &mut Searcher,
) -> Option<(Judged, bool)> {
    let best = p.expected()?;
    let b = p.position.board;
    if b.moves() == 0 {
        return None;
    }
    searcher.clear();
    let t0 = Instant::now();
    let (mv, score, nodes, pv) = choose(&b, opts, eval, searcher);
    let seconds = t0.elapsed().as_secs_f64();
    let move_value = p.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s);
    let j = Judged {
        line: p.line,
        empties: b.empty_count(),
        mv,
        score,
        best,
        move_value,
        nodes,
        seconds,
        pv,
    };
    let top2 = in_top(p, move_value, 2);
    Some((j, top2))
}

/// Judges every line of `text` and writes one line a position and the totals to `out`.
pub fn run(
    text: &str,
    opts: &AccuracyOptions,
    eval: &dyn OrderingEval,
    searcher: &mut Searcher,
    out: &mut dyn Write,
) -> std::io::Result<AccuracySummary> {
    let mut sum = AccuracySummary::default();
    if !opts.json {
        writeln!(
            out,
            "{:>4} {:>3} {:>4} {:>6} {:>5} {:>6} {:>5} {:>12} {:>8}  pv",
            "line", "emp", "move", "score", "best", "value", "error", "nodes", "seconds"
        )?;
    }
    for entry in obf::parse_file(text) {
        let p = match entry {
            ObfLine::Blank => continue,
            ObfLine::Error { line, error } => {
                sum.skipped += 1;
                skipped_line(out, opts.json, line, &error.to_string())?;
                continue;
            }
            ObfLine::Position(p) => p,
        };
        let Some((j, top2)) = judge(&p, opts, eval, searcher) else {
            sum.skipped += 1;
            skipped_line(out, opts.json, p.line, "no move values listed, or no legal move")?;
            continue;
        };
        sum.add(&j, top2);
        let value = j.move_value.map_or("-".to_string(), |v| format!("{v:+}"));
        if opts.json {
            let o = JsonObject::new()
                .int("line", j.line as i64)
                .int("empties", j.empties as i64)
                .str("move", &j.mv.to_string())
                .int("score", j.score as i64)
                .int("best", j.best as i64)
                .opt_int("move_value", j.move_value.map(|v| v as i64))
                .int("error", j.error() as i64)
                .bool("best_move", j.is_best())
                .bool("top2", top2)
                .int("nodes", j.nodes as i64)
                .float("seconds", j.seconds, 4)
                .str("pv", &pv_string(&j.pv));
            writeln!(out, "{}", o.finish())?;
        } else {
            writeln!(
                out,
                "{:>4} {:>3} {:>4} {:>+6} {:>+5} {:>6} {:>5} {:>12} {:>8.3}  {}",
                j.line,
                j.empties,
                j.mv,
                j.score,
                j.best,
                value,
                j.error(),
                j.nodes,
                j.seconds,
                pv_string(&j.pv)
            )?;
        }
        out.flush()?;
    }
    write_summary(&sum, opts.json, out)?;
    Ok(sum)
}

/// A line that was not judged, and why.
fn skipped_line(out: &mut dyn Write, json: bool, line: usize, why: &str) -> std::io::Result<()> {
    if json {
        writeln!(
            out,
            "{}",
            JsonObject::new().int("line", line as i64).str("error", why).finish()
        )
    } else {
        writeln!(out, "{line:>4} error: line {line}: {why}")
    }
}

fn write_summary(s: &AccuracySummary, json: bool, out: &mut dyn Write) -> std::io::Result<()> {
    let nps = s.nodes as f64 / s.seconds.max(1e-9);
    if json {
        let o = JsonObject::new()
            .bool("totals", true)
            .int("positions", s.positions as i64)
            .int("skipped", s.skipped as i64)
            .float("mae", s.mae(), 3)
            .float("best_move", s.percent(s.best), 1)
            .float("top2", s.percent(s.top2), 1)
            .float("within3", s.percent(s.within3), 1)
            .float("within6", s.percent(s.within6), 1)
            .int("nodes", s.nodes as i64)
            .float("seconds", s.seconds, 3)
            .float("nodes_per_second", nps, 0);
        writeln!(out, "{}", o.finish())
    } else {
        let per = |n: usize| format!("{:.1} % ({n}/{})", s.percent(n), s.positions);
        writeln!(out, "positions: {} ({} skipped)", s.positions, s.skipped)?;
        writeln!(out, "MAE:       {:.2} discs", s.mae())?;
        writeln!(out, "best move: {}", per(s.best))?;
        writeln!(out, "top 2:     {}", per(s.top2))?;
        writeln!(out, "within ±3: {}", per(s.within3))?;
        writeln!(out, "within ±6: {}", per(s.within6))?;
        writeln!(
            out,
            "nodes:     {} in {:.3} s, {:.0} nodes/s, {:.0} nodes and {:.4} s a position",
            s.nodes,
            s.seconds,
            nps,
            s.nodes as f64 / s.positions.max(1) as f64,
            s.seconds / s.positions.max(1) as f64
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::board::notation::format_position;
    use crate::eval::Evaluator;
    use crate::search::endgame::{SolveMode, Solver};

    fn eval() -> Evaluator {
        Evaluator::embedded().expect("embedded weights")
    }

    /// Lines of Edax's shape (every move's exact value, best first, then `--:-127;`) for random
    /// positions at `empties` empties, the values from the exact solver.
    fn edax_lines(count: u64, empties: u32, seed: u64) -> String {
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4);
        let mut text = String::from("% made by the test\n");
        let mut seed = seed;
        let mut made = 0;
        while made < count {
            let b = crate::board::random_game(&mut seed, empties);
            if b.moves() == 0 {
                continue;
            }
            let mut values: Vec<(Square, i32)> = crate::board::bits::Squares(b.moves())
                .filter_map(|sq| b.play(sq).map(|c| (Square::At(sq as u8), c)))
                .map(|(m, c)| {
                    let v = if c.moves() == 0 && c.pass().moves() == 0 {
                        -c.final_score()
                    } else if c.moves() == 0 {
                        solver.solve(&c.pass(), SolveMode::Exact, None, &stop).score
                    } else {
                        -solver.solve(&c, SolveMode::Exact, None, &stop).score
                    };
                    (m, v)
                })
                .collect();
            values.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
            let pos = crate::board::Position {
                board: b,
                to_move: Color::Black,
            };
            text.push_str(&format_position(&pos));
            for (m, v) in values {
                text.push_str(&format!("; {}:{v:+}", m.to_string().to_uppercase()));
            }
            text.push_str("; --:-127;\n");
            made += 1;
        }
        text
    }

    #[test]
    fn a_search_to_the_end_scores_every_figure_perfectly() {
        // Depth 12 with no pruning sees the end of 10-empties positions: every figure is exact.
        let text = edax_lines(6, 10, 11);
        let opts = AccuracyOptions {
            depth: 12,
            pruning: Pruning::from_percent(100),
            mode: Mode::Search,
            json: false,
        };
        let mut searcher = Searcher::new(16);
        let mut out = Vec::new();
        let s = run(&text, &opts, &eval(), &mut searcher, &mut out).expect("writes");
        let shown = String::from_utf8_lossy(&out);
        assert_eq!((s.positions, s.skipped), (6, 0), "{shown}");
        assert_eq!((s.abs_error, s.best, s.top2, s.within3), (0, 6, 6, 6), "{shown}");
        assert!(shown.contains("MAE:       0.00 discs"), "{shown}");
        assert!(shown.contains("best move: 100.0 % (6/6)"), "{shown}");
    }

    #[test]
    fn a_shallow_search_is_judged_against_the_listed_values() {
        let text = edax_lines(8, 16, 5);
        let mut searcher = Searcher::new(16);
        let mut errors = 0;
        for mode in [Mode::Search, Mode::Analyze] {
            let opts = AccuracyOptions {
                depth: 2,
                pruning: Pruning::from_percent(100),
                mode,
                json: false,
            };
            for line in text.lines() {
                let ObfLine::Position(p) = obf::parse_line(line, 1) else {
                    continue;
                };
                let (j, top2) = judge(&p, &opts, &eval(), &mut searcher).expect("judged");
                // Every legal move is listed, so the chosen one has a value, and the figures
                // follow from it and the score, whatever the shallow search chose.
                let v = j.move_value.expect("every move is listed");
                let second = p.scores.get(1).map_or(p.scores[0].1, |s| s.1);
                assert_eq!(j.best, p.scores[0].1);
                assert_eq!(j.is_best(), v == j.best);
                assert_eq!(top2, v >= second);
                assert_eq!(j.error(), (j.score - j.best).abs());
                errors += j.error();
            }
        }
        // A 2-ply search from 16 empties is not exact: the test would not see a wrong sign.
        assert!(errors > 0);
    }

    #[test]
    fn top_two_counts_ties_and_needs_a_listed_move() {
        let ffo = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";
        let ObfLine::Position(p) = obf::parse_line(ffo, 3) else {
            panic!("line refused")
        };
        assert!(in_top(&p, Some(36), 2));
        assert!(in_top(&p, Some(38), 2));
        assert!(!in_top(&p, Some(30), 2));
        assert!(!in_top(&p, None, 2));
    }

    #[test]
    fn unreadable_and_valueless_lines_are_counted_as_skipped() {
        let text = format!(
            "{}garbage line\n{}\n",
            edax_lines(1, 8, 3),
            "-".repeat(27) + "OX------OX" + &"-".repeat(27) + " X;"
        );
        let opts = AccuracyOptions {
            depth: 2,
            pruning: Pruning::from_percent(100),
            mode: Mode::Search,
            json: true,
        };
        let mut out = Vec::new();
        let s = run(&text, &opts, &eval(), &mut Searcher::new(4), &mut out).expect("writes");
        let shown = String::from_utf8_lossy(&out);
        assert_eq!((s.positions, s.skipped), (1, 2), "{shown}");
        // JSON lines throughout: two errors naming their lines, one position, the totals.
        assert!(shown.lines().all(|l| l.starts_with('{') && l.ends_with('}')), "{shown}");
        assert_eq!(shown.matches("\"error\":\"").count(), 2, "{shown}");
        assert!(shown.contains("\"line\":3"), "{shown}");
    }
}
