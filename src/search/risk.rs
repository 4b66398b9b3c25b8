//! Risk-aware search (DESIGN.md §7), an optional search style: the top plies of the tree carry
//! distributions instead of numbers.
//!
//! The tree: the root and `plies - 1` more plies are searched full width (no forward pruning)
//! with distributions ([`Dist`]); each node at `plies` below the root is a leaf whose value
//! comes from the ordinary search ([`Searcher`]) at the remaining depth, with σ from the
//! Multi-ProbCut error model ([`leaf_sigma`]); solved leaves have σ = 0. A node's distribution
//! is that of the best of its children, P(best ≤ x) = Π P(child ≤ x) (children independent),
//! negated from ply to ply. The root plays the move whose value at confidence c, the (1 - c)
//! quantile of its distribution, is highest (`Dist::value`).
//!
//! Exact: with σ = 0 every distribution is a step and the root's value is the alpha-beta value
//! of the same tree (a test checks it). The one cut is exact for the quantile semantics: a
//! root move's quantile only falls as its opponent's replies are added (the product of CDFs
//! only falls), so once its partial quantile is no better than the best move's, its other
//! replies cannot make it the choice and are skipped (`prune`); a reply's leaf low enough to
//! decide that alone is searched with that as alpha (`Tree::window`). Approximate: everything
//! below the leaves (the ordinary search, with its own pruning), the independence of siblings,
//! and, with `prune`, leaves 3σ or more above the lowest reply left out (`Tree::window`).

use super::dist::{Dist, Odds};
use super::endgame::OrderingEval;
use super::midgame::Searcher;
use super::mpc::{MpcTable, inverse_normal};
use super::request::{DepthKind, SearchRequest};
use crate::board::bits::Squares;
use crate::board::{Board, Square};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Plies of distribution propagation by default: the root and the opponent's replies. One
/// ply would only compare the σ of the moves (equal unless solved); the maximum over the
/// replies is where the style acts.
pub const DEFAULT_PLIES: u32 = 2;

/// The style's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Risk {
    /// Confidence in percent (1-99) with which the value used is reached.
    pub confidence: u32,
    /// Plies carried as distributions (at least 1).
    pub plies: u32,
}

impl Risk {
    pub fn new(confidence: u32) -> Risk {
        Risk {
            confidence: confidence.clamp(1, 99),
            plies: DEFAULT_PLIES,
        }
    }
}

/// A leaf's value from the side to move's view, with the σ of its error.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub score: i32,
    pub sigma: f64,
    pub pv: Vec<Square>,
}

/// Where leaves get their values (the ordinary search, or a test double).
pub trait Leaves {
    /// `b` (not over; it may have to pass) searched `depth` plies, the value wanted only
    /// inside `window` (outside it a fail-soft bound will do); None when stopped.
    fn leaf(&mut self, b: &Board, depth: u32, window: (i32, i32)) -> Option<Leaf>;

    /// The σ a leaf of `b` searched `depth` plies is expected to have.
    fn sigma(&self, b: &Board, depth: u32) -> f64;
}

/// Disc values lie within ±64: a window bound of ±INF is no bound.
const INF: i32 = 65;

/// Leaves this many σ above the lowest one are left out (see `Tree::window`).
const WINDOW_SIGMAS: f64 = 3.0;

/// The σ of a depth-`depth` value at `empties` empties: the σ of the fitted pair whose check
/// depth is `depth` and whose gap is the largest fitted (6 plies, else 5, 4, 3, 2; the pairs
/// above the deepest fitted depth are the shifted ones of `MpcTable::checks_at`). That is the
/// spread between the leaf's value and a search 6 plies deeper, the deepest look-ahead the
/// fit measured: the error of a leaf against its own deeper search. Stages outside the table
/// use the nearest one; 0 (alpha-beta) when the table has nothing for this depth.
pub fn leaf_sigma(mpc: &MpcTable, empties: u32, depth: u32) -> f64 {
    let lo = mpc.fits().iter().map(|f| f.min_empties).min().unwrap_or(empties);
    let hi = mpc.fits().iter().map(|f| f.max_empties).max().unwrap_or(empties);
    let e = empties.clamp(lo, hi.max(lo));
    (2..=6)
        .rev()
        .find_map(|gap| mpc.checks_at(e, depth + gap).find(|f| f.check == depth))
        .map_or(0.0, |f| f.sigma)
}

/// The chances behind an ordinary search result: a midgame value of `depth` plies is
/// N(score, σ²) with `leaf_sigma`; solved results (None; probable solves too) are taken as
/// certain.
pub fn odds(mpc: &MpcTable, empties: u32, score: i32, depth: Option<u32>) -> Odds {
    match depth {
        Some(d) => Dist::normal(f64::from(score), leaf_sigma(mpc, empties, d)).odds(),
        None => Dist::exact(score).odds(),
    }
}

/// Whether the root is within the request's solve depths, where the ordinary search answers
/// alone: a solved position has σ = 0, and the style with σ = 0 is alpha-beta.
pub fn solved_by_search(req: &SearchRequest) -> bool {
    let probable = req.probable_empties.iter().copied().max().unwrap_or(0);
    req.board.empty_count() <= req.exact_empties.max(req.wld_empties).max(probable)
}

/// One root move as the style values it.
#[derive(Clone, Debug)]
pub struct RiskMove {
    pub mv: Square,
    pub dist: Dist,
    /// `dist`'s value at the confidence.
    pub value: i32,
    /// The move, the reply with the best median, ..., the leaf's PV.
    pub pv: Vec<Square>,
    /// False when the move was cut: `dist` then holds only its first replies and `value` is
    /// an upper bound, no better than the best move's.
    pub complete: bool,
}

/// A node's distribution and line.
struct Node {
    dist: Dist,
    pv: Vec<Square>,
    complete: bool,
}

/// The distribution tree over a source of leaves.
pub struct Tree<L> {
    pub leaves: L,
    risk: Risk,
    /// Each node's median from its mover's view, from earlier iterations: orders the children
    /// (the opponent's best reply first makes the cut come early).
    seen: HashMap<Board, i32>,
    /// Cut root moves and search leaves with windows (`root`'s `prune`).
    prune: bool,
}

impl<L: Leaves> Tree<L> {
    pub fn new(leaves: L, risk: Risk) -> Tree<L> {
        Tree {
            leaves,
            risk,
            seen: HashMap::new(),
            prune: false,
        }
    }

    /// Every legal move of `b` (which has one) valued with leaves `leaf_depth` deep, best
    /// first; `order` (an earlier iteration's moves) is searched first. With `prune`, moves
    /// that cannot be the choice are cut (see the module). None when stopped.
    pub fn root(&mut self, b: &Board, leaf_depth: u32, prune: bool, order: &[Square]) -> Option<Vec<RiskMove>> {
        let c = self.risk.confidence;
        self.prune = prune;
        let mut moves: Vec<usize> = Squares(b.moves()).collect();
        moves.sort_by_key(|&sq| order.iter().position(|&m| m == Square::At(sq as u8)).unwrap_or(usize::MAX));
        let mut out: Vec<RiskMove> = Vec::new();
        let mut best: Option<i32> = None;
        for sq in moves {
            let Some(child) = b.play(sq) else { continue };
            let cut = best.filter(|_| prune);
            let node = self.node(&child, self.risk.plies.max(1) - 1, leaf_depth, cut)?;
            let dist = node.dist.neg();
            let value = dist.value(c);
            if best.is_none_or(|v| value > v) {
                best = Some(value);
            }
            let mv = Square::At(sq as u8);
            out.push(RiskMove {
                mv,
                dist,
                value,
                pv: std::iter::once(mv).chain(node.pv).collect(),
                complete: node.complete,
            });
        }
        // Stable: among equal values the first searched (the one chosen) stays first.
        out.sort_by_key(|m| std::cmp::Reverse(m.value));
        Some(out)
    }

    /// The window of a leaf searched under a node whose parent has the best value `cut` (in
    /// the leaf's mover's view, as the leaf's value) and whose lowest exact leaf so far is
    /// `least`. Below: a leaf at or under `lo` alone makes the node's value at the confidence
    /// no better than `cut` (its CDF at `cut` is at least 1 - c), so the parent cuts: exact.
    /// Above: a leaf at `least` + 3σ or more changes the CDF of the minimum by less than
    /// 1 - Φ(3) ≈ 0.13 % anywhere up to `least`; such a leaf is left out (approximate; with
    /// σ = 0, exact: alpha-beta's null window).
    fn window(&self, b: &Board, leaf_depth: u32, cut: Option<i32>, least: Option<i32>) -> (i32, i32) {
        let sigma = self.leaves.sigma(b, leaf_depth);
        let hi = least.map_or(INF, |m| m + (WINDOW_SIGMAS * sigma).ceil() as i32);
        let z = inverse_normal(1.0 - f64::from(self.risk.confidence) / 100.0);
        let lo = cut.map_or(-INF, |best| (f64::from(best) + 0.5 - sigma * z).floor() as i32);
        // An empty window (σ of this leaf above the others'): only the cut side is kept.
        if lo + 1 >= hi { (lo, INF) } else { (lo, hi) }
    }

    /// `b`'s distribution from its mover's view, `plies` above the leaves. `cut`: the parent's
    /// best value so far; once the partial maximum over the children searched, seen from the
    /// parent (negated), has a value no better than it, the other children are skipped (an
    /// exact cut, see the module).
    fn node(&mut self, b: &Board, plies: u32, leaf_depth: u32, cut: Option<i32>) -> Option<Node> {
        if b.is_game_over() {
            return Some(Node {
                dist: Dist::exact(b.final_score()),
                pv: Vec::new(),
                complete: true,
            });
        }
        if plies == 0 {
            let leaf = self.leaves.leaf(b, leaf_depth, (-INF, INF))?;
            self.seen.insert(*b, leaf.score);
            return Some(Node {
                dist: Dist::normal(f64::from(leaf.score), leaf.sigma),
                pv: leaf.pv,
                complete: true,
            });
        }
        if b.moves() == 0 {
            // A pass takes no ply (as in the ordinary search); the parent's bound is not this side's.
            let n = self.node(&b.pass(), plies, leaf_depth, None)?;
            return Some(Node {
                dist: n.dist.neg(),
                pv: std::iter::once(Square::Pass).chain(n.pv).collect(),
                complete: n.complete,
            });
        }
        let mut children: Vec<(usize, Board)> = Squares(b.moves()).filter_map(|sq| b.play(sq).map(|c| (sq, c))).collect();
        // The child best for us (lowest for its mover) first; unseen ones last.
        children.sort_by_key(|(_, c)| self.seen.get(c).copied().unwrap_or(i32::MAX));
        let c = self.risk.confidence;
        let mut max: Option<Dist> = None;
        let mut line: (i32, Vec<Square>) = (i32::MIN, Vec::new());
        let count = children.len();
        let windows = self.prune && plies == 1;
        // The lowest leaf value known exactly so far, from the leaves' mover's view.
        let mut least: Option<i32> = None;
        for (i, (sq, child)) in children.into_iter().enumerate() {
            let mut refuted = false;
            let n = if windows && !child.is_game_over() {
                let window = self.window(&child, leaf_depth, cut, least);
                let leaf = self.leaves.leaf(&child, leaf_depth, window)?;
                self.seen.insert(child, leaf.score);
                if leaf.score >= window.1 {
                    continue;
                }
                refuted = leaf.score <= window.0;
                if !refuted {
                    least = Some(least.map_or(leaf.score, |m| m.min(leaf.score)));
                }
                Node {
                    dist: Dist::normal(f64::from(leaf.score), leaf.sigma),
                    pv: leaf.pv,
                    complete: true,
                }
            } else {
                self.node(&child, plies - 1, leaf_depth, None)?
            };
            let d = n.dist.neg();
            let median = d.value(50);
            if median > line.0 {
                line = (median, std::iter::once(Square::At(sq as u8)).chain(n.pv).collect());
            }
            let m = max.map_or(d.clone(), |m| m.max(&d));
            let done = refuted || cut.is_some_and(|v| m.neg().value(c) <= v);
            max = Some(m);
            if done && i + 1 < count {
                return max.map(|dist| Node {
                    dist,
                    pv: line.1,
                    complete: false,
                });
            }
        }
        let dist = max.unwrap_or_else(|| Dist::exact(b.final_score()));
        self.seen.insert(*b, dist.value(50));
        Some(Node {
            dist,
            pv: line.1,
            complete: true,
        })
    }
}

/// Leaves valued by the ordinary search.
pub struct SearchLeaves<'a> {
    pub searcher: &'a mut Searcher,
    /// Where the leaves' σ comes from (the searcher's own ProbCut table in play).
    pub sigmas: MpcTable,
    pub eval: &'a dyn OrderingEval,
    /// The request each leaf search copies (board and depth replaced).
    pub template: SearchRequest,
    pub stop: &'a AtomicBool,
    pub deadline: Option<Instant>,
    pub nodes: u64,
}

impl Leaves for SearchLeaves<'_> {
    fn sigma(&self, b: &Board, depth: u32) -> f64 {
        leaf_sigma(&self.sigmas, b.empty_count(), depth)
    }

    fn leaf(&mut self, b: &Board, depth: u32, window: (i32, i32)) -> Option<Leaf> {
        let time = match self.deadline {
            Some(d) => Some(d.checked_duration_since(Instant::now()).filter(|t| !t.is_zero())?),
            None => None,
        };
        let mut req = self.template.clone();
        req.board = *b;
        req.limits.depth = Some(depth);
        req.limits.time = time;
        let r = self.searcher.run_window(&req, self.eval, self.stop, window);
        self.nodes += r.nodes;
        // A leaf cut short would mix a partial value into the tree: the iteration is dropped.
        if self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let sigma = match r.kind {
            DepthKind::Midgame { depth, .. } => leaf_sigma(&self.sigmas, b.empty_count(), depth),
            _ => 0.0,
        };
        Some(Leaf {
            score: r.score,
            sigma,
            pv: r.pv,
        })
    }
}

/// One reported root move.
#[derive(Clone, Debug)]
pub struct RiskLine {
    pub pv: Vec<Square>,
    /// The value at the confidence, in discs.
    pub score: i32,
    /// The chances of the move's distribution.
    pub odds: Odds,
    pub kind: DepthKind,
    /// Nodes and time since the start of the search.
    pub nodes: u64,
    pub time: Duration,
}

/// Iterative deepening of the style over the leaves' depth up to `req`'s depth (the plies of
/// distributions included), under its time limit and `stop`. `req` is the request the
/// ordinary search would get (level's solve depths, pruning, threads); its root must have a
/// move and lie above the solve depths (`solved_by_search`). Each finished iteration goes to
/// `report`, best move first: every move with `all_moves`, else the best one. Returns the last
/// finished iteration (empty when stopped before the first).
pub fn search(
    searcher: &mut Searcher,
    req: &SearchRequest,
    risk: Risk,
    eval: &dyn OrderingEval,
    stop: &AtomicBool,
    all_moves: bool,
    report: &mut dyn FnMut(&[RiskLine]),
) -> Vec<RiskLine> {
    let start = Instant::now();
    let b = req.board;
    let plies = risk.plies.max(1);
    let empties = b.empty_count();
    let depth = req.limits.depth.unwrap_or(empties).max(plies + 1);
    // Leaves deeper than the end of the game add nothing.
    let max_leaf = depth.min(empties.max(plies + 1)) - plies;
    let leaves = SearchLeaves {
        sigmas: searcher.mpc.clone(),
        searcher,
        eval,
        // Leaves are solved exactly within the exact depth; WLD values would be signs, not discs.
        template: SearchRequest {
            wld_empties: req.exact_empties,
            probable_empties: [0; 3],
            ..req.clone()
        },
        stop,
        deadline: req.limits.time.map(|t| start + t),
        nodes: 0,
    };
    let selectivity = req.pruning.percent();
    let mut tree = Tree::new(leaves, Risk { plies, ..risk });
    let mut last: Vec<RiskLine> = Vec::new();
    for leaf_depth in 1..=max_leaf {
        let order: Vec<Square> = last.iter().filter_map(|l| l.pv.first().copied()).collect();
        let Some(moves) = tree.root(&b, leaf_depth, !all_moves, &order) else {
            break;
        };
        let kind = DepthKind::Midgame {
            depth: leaf_depth + plies,
            percent: selectivity,
        };
        last = moves
            .iter()
            .filter(|m| m.complete)
            .take(if all_moves { usize::MAX } else { 1 })
            .map(|m| RiskLine {
                pv: m.pv.clone(),
                score: m.value,
                odds: m.dist.odds(),
                kind,
                nodes: tree.leaves.nodes,
                time: start.elapsed(),
            })
            .collect();
        report(&last);
        // Do not start an iteration that would most likely be cut off by the clock.
        if req.limits.time.is_some_and(|t| start.elapsed() > t.mul_f64(0.3)) {
            break;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built tree: leaves by the moves played from the start position.
    struct Table(HashMap<Board, (i32, f64)>);
    impl Leaves for Table {
        fn leaf(&mut self, b: &Board, _: u32, _: (i32, i32)) -> Option<Leaf> {
            let &(score, sigma) = self.0.get(b)?;
            Some(Leaf {
                score,
                sigma,
                pv: Vec::new(),
            })
        }

        fn sigma(&self, b: &Board, _: u32) -> f64 {
            self.0.get(b).map_or(0.0, |l| l.1)
        }
    }

    #[test]
    fn sure_small_win_against_likely_big_win() {
        // From the start, the four moves lead to four leaves (one ply of distributions): d3 is
        // a solved +2 (a sure small win), f5 a +10 with σ = 8 (a big win with P(loss) ≈ 10 %),
        // c4 and e6 clearly worse.
        let b = Board::START;
        let child = |name: &str| {
            let sq = Square::parse(name).ok().and_then(|s| s.index()).expect("square");
            b.play(sq).expect("legal")
        };
        // Leaf values are from the child's mover's view: negated.
        let table: HashMap<Board, (i32, f64)> = [
            (child("d3"), (-2, 0.0)),
            (child("f5"), (-10, 8.0)),
            (child("c4"), (10, 3.0)),
            (child("e6"), (8, 3.0)),
        ]
        .into_iter()
        .collect();
        let choose = |c: u32| {
            let risk = Risk { confidence: c, plies: 1 };
            let moves = Tree::new(Table(table.clone()), risk)
                .root(&b, 1, true, &[])
                .expect("all leaves known");
            (moves[0].mv.to_string(), moves[0].value)
        };
        // Safe: the pessimistic value of f5 (10 - 1.645·8 ≈ -3) is below d3's 2.
        assert_eq!(choose(95), ("d3".into(), 2));
        // Risky: f5's optimistic value (≈ 23) beats 2.
        assert_eq!(choose(5).0, "f5");
        assert_eq!(choose(50), ("f5".into(), 10));
        let moves = Tree::new(
            Table(table),
            Risk {
                confidence: 95,
                plies: 1,
            },
        )
        .root(&b, 1, false, &[]);
        let f5 = moves.iter().flatten().find(|m| m.mv.to_string() == "f5").expect("f5");
        assert!((f5.dist.win() - 0.887).abs() < 0.01, "{}", f5.dist.win());
    }

    #[test]
    fn pruned_and_full_trees_choose_alike() {
        // Two plies of distributions over leaves with pseudo-random values and σ.
        let b = Board::START;
        let mut table = HashMap::new();
        let mut x: u64 = 7;
        for sq in Squares(b.moves()) {
            let c = b.play(sq).expect("legal");
            for sq2 in Squares(c.moves()) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let g = c.play(sq2).expect("legal");
                table.insert(g, (((x >> 33) % 21) as i32 - 10, ((x >> 20) % 6) as f64));
            }
        }
        for c in [5, 30, 50, 70, 95] {
            let risk = Risk { confidence: c, plies: 2 };
            let full = Tree::new(Table(table.clone()), risk).root(&b, 1, false, &[]).expect("known");
            let cut = Tree::new(Table(table.clone()), risk).root(&b, 1, true, &[]).expect("known");
            assert_eq!((full[0].mv, full[0].value), (cut[0].mv, cut[0].value), "c = {c}");
            assert!(full.iter().all(|m| m.complete));
        }
    }
}

#[cfg(test)]
mod search_tests {
    use super::*;
    use crate::search::mpc::Fit;

    /// The embedded MPC table with every σ shrunk to nothing.
    pub(super) fn tiny_sigmas(scale: f64) -> MpcTable {
        let t = MpcTable::embedded().expect("embedded table");
        MpcTable::new(
            t.fits()
                .iter()
                .map(|f| Fit {
                    sigma: f.sigma * scale,
                    ..*f
                })
                .collect(),
        )
    }

    /// Random positions `plies` moves from the start (xorshift).
    pub(super) fn random_positions(count: usize, plies: u32, seed: u64) -> Vec<Board> {
        let mut x = seed | 1;
        let mut out = Vec::new();
        while out.len() < count {
            let mut b = Board::START;
            for _ in 0..plies {
                if b.moves() == 0 {
                    b = b.pass();
                }
                let m = b.moves();
                if m == 0 {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let sq = Squares(m).nth((x % u64::from(m.count_ones())) as usize).unwrap_or(0);
                b = b.play(sq).unwrap_or(b);
            }
            if b.moves() != 0 {
                out.push(b);
            }
        }
        out
    }

    #[test]
    fn without_sigma_the_style_is_alpha_beta() {
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(16);
        searcher.mpc = tiny_sigmas(1e-9);
        for (i, b) in random_positions(12, 20, 11).into_iter().enumerate() {
            let req = SearchRequest::fixed_depth(b, 5);
            let want = searcher.run(&req, &eval, &stop, &mut |_| {}).score;
            for c in [5, 50, 95] {
                let lines = search(&mut searcher, &req, Risk::new(c), &eval, &stop, false, &mut |_| {});
                let best = lines.first().expect("a finished iteration");
                assert_eq!(best.score, want, "position {i}, c = {c}");
                assert_eq!(best.kind, DepthKind::Midgame { depth: 5, percent: 100 });
                // The move achieves the value: a depth-4 search after it.
                let Some(Square::At(sq)) = best.pv.first().copied() else {
                    panic!("no move")
                };
                let child = b.play(sq as usize).expect("legal");
                let after = searcher.run(&SearchRequest::fixed_depth(child, 4), &eval, &stop, &mut |_| {});
                assert_eq!(-after.score, want, "position {i}, c = {c}");
            }
        }
    }
}

#[cfg(test)]
mod agreement {
    use super::*;
    use crate::search::request::Pruning;

    /// Issue 22's figure: at c = 50 % the style plays the ordinary search's move in at least
    /// 95 % of 500 random midgame positions (level 10: depth 10 at 80 %). Also counted: the
    /// same tree with σ → 0 (alpha-beta over full-width top plies), which differs from the
    /// ordinary search only by its pruning and ties. About two minutes:
    /// `cargo test --release -- --ignored median_agrees --nocapture`. It fails today: 422 of
    /// 500 (84.4 %), and 421 for σ → 0 (docs/measurements.md, 2026-11-25).
    #[test]
    #[ignore]
    fn median_agrees_with_the_ordinary_search() {
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(64);
        let (mut same, mut total, mut same_flat) = (0, 0, 0);
        let flat = super::search_tests::tiny_sigmas(1e-9);
        let (mut t_ab, mut t_risk) = (Duration::ZERO, Duration::ZERO);
        for (k, b) in super::search_tests::random_positions(500, 24, 5).into_iter().enumerate() {
            // Plies 16-33 (44-27 empties): the midgame.
            let b = super::search_tests::random_positions(1, 16 + (k as u32 % 18), k as u64 * 2 + 1)
                .first()
                .copied()
                .unwrap_or(b);
            let req = SearchRequest {
                pruning: Pruning::from_percent(80),
                ..SearchRequest::fixed_depth(b, 10)
            };
            searcher.clear();
            let t0 = Instant::now();
            let ab = searcher.run(&req, &eval, &stop, &mut |_| {});
            t_ab += t0.elapsed();
            searcher.clear();
            let t0 = Instant::now();
            let lines = search(&mut searcher, &req, Risk::new(50), &eval, &stop, false, &mut |_| {});
            t_risk += t0.elapsed();
            total += 1;
            if lines.first().and_then(|l| l.pv.first().copied()) == ab.best {
                same += 1;
            }
            // The search's own ProbCut keeps the fitted σ; only the leaves' σ goes (one
            // iteration at the full depth).
            searcher.clear();
            let leaves = SearchLeaves {
                searcher: &mut searcher,
                sigmas: flat.clone(),
                eval: &eval,
                template: req.clone(),
                stop: &stop,
                deadline: None,
                nodes: 0,
            };
            let moves = Tree::new(leaves, Risk::new(50)).root(&b, 8, true, &[]);
            if moves.and_then(|m| m.first().map(|m| m.mv)) == ab.best {
                same_flat += 1;
            }
        }
        let share = f64::from(same) / f64::from(total);
        println!(
            "c = 50 %: the ordinary search's move in {same} of {total} positions ({:.1} %); time {:.1} s against {:.1} s; the same tree with σ → 0: {same_flat}",
            100.0 * share,
            t_risk.as_secs_f64(),
            t_ab.as_secs_f64()
        );
        assert!(share >= 0.95, "{share}");
    }
}
