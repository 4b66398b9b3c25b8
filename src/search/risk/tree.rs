//! The style's two plies of distributions, generic over where searched values come from.
//!
//! A root move `m` of ordinary value `v` (its child searched `depth - 1` plies) has the
//! distribution of `v + X - median(X)` with `X = S + min over replies r of (d_r + E_r)`: each
//! reply is a leaf at `depth - 2` plies (a pass takes no ply), `d_r` its distance above the
//! lowest reply's (measured `DISTANCE_SHALLOWER` plies short); a leaf's error, σ_r at its
//! depth (`Leaves::sigma`, 0 when solved), is split into a part the siblings share, S (the
//! lowest reply's), and an independent one, E_r (`SIBLING_CORRELATION`). The median is `v`
//! itself: `v` is already the minimax of the replies' searched values, so the minimum over
//! the replies' errors, whose median lies below the lowest reply's, would count that effect a
//! second time (a style that did so played another move than the ordinary search in 4 % of
//! positions at c = 50, docs/history/measurements.md#session-5). The replies give
//! the distribution's shape only: its value at the confidence is `v + spread`, the spread the
//! (1 - c) quantile of `X - median(X)` (0 at c = 50, at most 0 above, at least 0 below);
//! σ → 0 makes every distribution a step at `v`, the ordinary search's value and choice.
//!
//! Only what can change the choice is searched (`Tree::refine`). The spread does not depend
//! on `v`, so a move beats the chosen move's value `w` (below 64) exactly when
//! `v > w - spread`, and the ordinary search found every other move worth at most the chosen
//! move's ordinary value `v*`: at c ≥ 50 (spread ≤ 0) a move can only win if `w < v*`, so at
//! c = 50 (`w = v*`) no other move is searched. Otherwise a bound on the move's spread from
//! its replies' σ alone (`Tree::spread_bound`, no search) gives a floor its ordinary value
//! must pass: the ordinary search's table or one null-window search of its child rules most
//! moves out; only the rest have their replies searched (the distances,
//! `DISTANCE_SHALLOWER` plies short) and, unless `w - spread ≥ v*`, one more null-window
//! search at `w - spread` rules the move out or gives the value to search exactly: exact
//! given the ordinary values. Replies more than (z + 3)σ above the lowest (z: the normal quantile of
//! the confidence's level) are left out: they move the minimum's CDF by less than
//! 1 - Φ(3) ≈ 0.13 % anywhere up to the value used; approximate, and exact with σ = 0.

use super::super::dist::Dist;
use super::super::mpc::inverse_normal;
use crate::board::bits::Squares;
use crate::board::{Board, Square};

/// A searched value from the side to move's view, with the σ of its error.
#[derive(Clone, Debug)]
pub struct Leaf {
    pub score: i32,
    pub sigma: f64,
    pub pv: Vec<Square>,
}

/// Where searched values come from (the ordinary search, or a test double).
pub trait Leaves {
    /// `b` (not over; it may have to pass) searched `depth` plies, the value wanted only
    /// inside `window` (outside it a fail-soft bound will do); None when stopped.
    fn leaf(&mut self, b: &Board, depth: u32, window: (i32, i32)) -> Option<Leaf>;

    /// The σ a leaf of `b` searched `depth` plies is expected to have (at most).
    fn sigma(&self, b: &Board, depth: u32) -> f64;

    /// A lower bound on `b`'s value (its side to move) that a search of `depth` plies would
    /// take from an earlier search (the ordinary search's table), if there is one.
    fn lower_bound(&self, b: &Board, depth: u32) -> Option<i32>;
}

/// Disc values lie within ±64: a window bound of ±INF is no bound.
const INF: i32 = 65;

/// Replies this many σ above the quantile's level are left out (see the module).
const REPLY_SIGMAS: f64 = 3.0;

/// The share of a leaf's error variance its sibling replies share (the same position one
/// move apart): only the rest is independent from reply to reply. Fitted: the siblings'
/// errors of depth-4 and depth-6 searches against searches 6 plies deeper (300 random
/// midgame positions, 3,436 children, 80 %) correlate 0.30 and 0.24
/// (`examples/risk_sibling_correlation.rs`). It was 0.8, the value that brought c = 50 to the ordinary move before
/// the median was anchored on the ordinary value; that anchoring makes c = 50 the ordinary
/// search whatever ρ, and 0.8 left the moves' shapes nearly alike.
const SIBLING_CORRELATION: f64 = 0.3;

/// The replies' distances from the lowest are measured this many plies short of their leaf
/// depth: exact values of every close reply at full depth cost several times the ordinary
/// search, and the distances only spread a move's distribution around its exact ordinary value.
const DISTANCE_SHALLOWER: u32 = 6;

/// One root move as the style values it.
#[derive(Clone, Debug)]
pub struct RiskMove {
    pub dist: Dist,
    /// `dist`'s value at the confidence.
    pub value: i32,
    /// The move, the lowest reply, then that leaf's PV (the move alone when it ends the game).
    pub pv: Vec<Square>,
}

/// A move's distribution around its ordinary value (see the module).
struct Shape {
    /// `X - median(X)`: median 0.
    dist: Dist,
    /// The lowest reply, then that leaf's PV (empty when the move ends the game).
    line: Vec<Square>,
}

pub struct Tree<L> {
    pub leaves: L,
    /// Percent, 1-99.
    confidence: u32,
    /// The normal quantile of the level the value is read at: Φ⁻¹(1 - c).
    z: f64,
}

/// `child`'s replies as (move, position with the root's side to move, leaf depth): a pass
/// takes no ply.
fn replies(child: &Board, depth: u32) -> Vec<(Square, Board, u32)> {
    if child.moves() == 0 {
        return vec![(Square::Pass, child.pass(), depth - 1)];
    }
    Squares(child.moves())
        .filter_map(|sq| child.play(sq).map(|g| (Square::At(sq as u8), g, depth - 2)))
        .collect()
}

impl<L: Leaves> Tree<L> {
    pub fn new(leaves: L, confidence: u32) -> Tree<L> {
        let confidence = confidence.clamp(1, 99);
        Tree {
            leaves,
            confidence,
            z: inverse_normal(1.0 - f64::from(confidence) / 100.0),
        }
    }

    /// The move `sq` of `b` whose ordinary value at `depth` (our view) is `value`, with the
    /// child's line `line` (its first move is searched first), as a distribution. `depth` ≥ 3.
    pub fn value_move(&mut self, b: &Board, sq: usize, value: i32, line: &[Square], depth: u32) -> Option<RiskMove> {
        let shape = self.shape(b, sq, line, depth)?;
        Some(self.place(sq, shape, value))
    }

    /// The move `sq` with the shape `shape` and the ordinary value `value`.
    fn place(&self, sq: usize, shape: Shape, value: i32) -> RiskMove {
        let dist = shape.dist.shift(value);
        RiskMove {
            value: dist.value(self.confidence),
            dist,
            pv: [Square::At(sq as u8)].into_iter().chain(shape.line).collect(),
        }
    }

    /// The shape of the move `sq` of `b` at `depth` (see the module): `X - median(X)` and the
    /// lowest reply's line, the child's line `line` searched first. The same whatever the
    /// order of the replies (given the same leaf values), so that a shape measured before the
    /// move's ordinary value is known is the one it is valued with.
    fn shape(&mut self, b: &Board, sq: usize, line: &[Square], depth: u32) -> Option<Shape> {
        let child = b.play(sq)?;
        if child.is_game_over() {
            return Some(Shape {
                dist: Dist::exact(0),
                line: Vec::new(),
            });
        }
        let mut order = replies(&child, depth);
        if let Some(i) = order.iter().position(|r| Some(&r.0) == line.first()) {
            order[..=i].rotate_right(1);
        }
        // (reply, value from our view, σ, margin, leaf PV), and the lowest value so far.
        let mut kept: Vec<(Square, i32, f64, i32, Vec<Square>)> = Vec::new();
        let mut least: Option<i32> = None;
        for (r, g, d) in order {
            let sigma = self.leaves.sigma(&g, d);
            let margin = self.reply_margin(sigma);
            // Kept when at most `margin` above the lowest: a tie with the lowest is kept whatever
            // the order.
            let hi = least.map_or(INF, |m| m + margin + 1);
            let leaf = if g.is_game_over() {
                Leaf {
                    score: g.final_score(),
                    sigma: 0.0,
                    pv: Vec::new(),
                }
            } else {
                self.leaves
                    .leaf(&g, d.saturating_sub(DISTANCE_SHALLOWER).max(1), (-INF, hi))?
            };
            if leaf.score >= hi {
                continue;
            }
            least = Some(least.map_or(leaf.score, |m| m.min(leaf.score)));
            // A solved leaf stays solved deeper; the others have the σ of their full depth.
            let sigma = if leaf.sigma > 0.0 { sigma } else { 0.0 };
            kept.push((r, leaf.score, sigma, margin, leaf.pv));
        }
        let least = least?;
        // Kept early, when the lowest was higher, but too far above the final lowest: left out,
        // so that the kept replies do not depend on the order (a reply left out during the
        // loop is that far above the final lowest too).
        kept.retain(|k| k.1 <= least + k.3);
        let (own, shared) = ((1.0 - SIBLING_CORRELATION).sqrt(), SIBLING_CORRELATION.sqrt());
        // The minimum over the replies' own errors is the negated maximum of their negations;
        // the error they share moves them together, that of the lowest reply's σ.
        let dist = kept
            .iter()
            .map(|&(_, y, sigma, _, _)| Dist::normal(-f64::from(y - least), own * sigma))
            .reduce(|a, b| a.max(&b))?
            .neg();
        // Among equal lowest replies the first square, not the first searched: the same shape
        // whatever the order.
        let (reply, _, anchor_sigma, _, leaf_pv) = kept.into_iter().min_by_key(|k| {
            (
                k.1,
                match k.0 {
                    Square::At(sq) => i32::from(sq),
                    Square::Pass => -1,
                },
            )
        })?;
        let dist = dist.blur(shared * anchor_sigma);
        // The median goes to 0: the ordinary value is the distribution's median.
        let median = dist.value(50);
        Some(Shape {
            dist: dist.shift(-median),
            line: [reply].into_iter().chain(leaf_pv).collect(),
        })
    }

    /// Discs above the lowest reply beyond which a reply of this σ is left out.
    fn reply_margin(&self, sigma: f64) -> i32 {
        ((self.z + REPLY_SIGMAS).max(0.0) * sigma).ceil() as i32
    }

    /// The most the spread of the move `sq` of `b` at `depth` can be, from its replies' σ
    /// alone (no search): what rules a move out before its shape is measured. Below c = 50
    /// the widest shape is one reply of the largest σ, its distribution N(0, σ²) (a minimum
    /// over several replies only narrows it, the `refine`/`all` test checks); above, the
    /// narrowest is the error the replies share, N(0, ρσ²) with the smallest σ (adding the
    /// minimum over the replies' own errors, which is log-concave, only widens a normal); a
    /// disc for the discrete quantiles. None when the move is illegal.
    fn spread_bound(&self, b: &Board, sq: usize, depth: u32) -> Option<i32> {
        let child = b.play(sq)?;
        if child.is_game_over() {
            return Some(0);
        }
        // A leaf that reaches the end of the game is solved: σ = 0.
        let sigmas = replies(&child, depth)
            .iter()
            .map(|(_, g, d)| {
                if g.empty_count() <= *d {
                    0.0
                } else {
                    self.leaves.sigma(g, *d)
                }
            })
            .collect::<Vec<_>>();
        if self.confidence < 50 {
            let widest = sigmas.iter().copied().reduce(f64::max).unwrap_or(0.0);
            Some(Dist::normal(0.0, widest).value(self.confidence) + 1)
        } else {
            let narrowest = sigmas.iter().copied().reduce(f64::min).unwrap_or(0.0);
            Some((Dist::normal(0.0, SIBLING_CORRELATION.sqrt() * narrowest).value(self.confidence) + 1).min(0))
        }
    }

    /// The ordinary search's choice `best` of `b` (value `value` at `depth` ≥ 3, line `line`
    /// from the move; every other move worth at most `value` to it) refined: the move with the
    /// highest value at the confidence, `best` unless another is strictly higher. None when
    /// stopped before `best`'s own shape is known; stopped later, the best of the moves
    /// compared so far (each is compared in full or not at all).
    pub fn refine(&mut self, b: &Board, depth: u32, best: usize, value: i32, line: &[Square]) -> Option<RiskMove> {
        let shape = self.shape(b, best, line.get(1..).unwrap_or(&[]), depth)?;
        let mut chosen = self.place(best, shape, value);
        // The moves the ordinary search left closest below `value` first (its table's bounds;
        // unknown ones first): under a clock the refinement may not reach them all.
        let mut others: Vec<(i32, usize)> = Squares(b.moves())
            .filter(|&sq| sq != best)
            .map(|sq| {
                let known = b.play(sq).and_then(|c| self.leaves.lower_bound(&c, depth - 1));
                (known.map_or(INF, |l| -l), sq)
            })
            .collect();
        others.sort_by_key(|&(at_most, sq)| (std::cmp::Reverse(at_most), sq));
        for (_, sq) in others {
            // A move's value is its ordinary value plus its spread, within ±64: nothing beats 64.
            // At c ≥ 50 the spread is at most 0 and the ordinary value at most `value`.
            if chosen.value >= 64 || (self.confidence >= 50 && value <= chosen.value) {
                break;
            }
            match self.challenge(b, sq, depth, chosen.value, value) {
                Some(Some(m)) if m.value > chosen.value => chosen = m,
                Some(_) => {}
                None => break,
            }
        }
        Some(chosen)
    }

    /// The move `sq` of `b` valued when it may beat `w`, the chosen move's value at the
    /// confidence (`best` the ordinary value, at least the move's): Some(None) when it cannot,
    /// None when stopped. It beats `w` exactly when its ordinary value is above
    /// `w - spread`; the spread's bound rules most moves out with no search or one null-window
    /// search of the child (the shape, the replies' searches, costs several times that: measuring
    /// every move's shape cost 3-5x the ordinary search, docs/history/measurements.md#session-9).
    fn challenge(&mut self, b: &Board, sq: usize, depth: u32, w: i32, best: i32) -> Option<Option<RiskMove>> {
        let child = b.play(sq)?;
        let beats = |this: &mut Self, floor: i32| -> Option<bool> {
            // Every ordinary value is at most `best`, and at most what the table knows.
            if floor >= best || this.leaves.lower_bound(&child, depth - 1).is_some_and(|l| -l <= floor) {
                return Some(false);
            }
            if floor < -64 || child.is_game_over() {
                return Some(true);
            }
            Some(-this.leaves.leaf(&child, depth - 1, (-floor - 1, -floor))?.score > floor)
        };
        if !beats(self, w - self.spread_bound(b, sq, depth)?)? {
            return Some(None);
        }
        let shape = self.shape(b, sq, &[], depth)?;
        let floor = w - shape.dist.value(self.confidence);
        if !beats(self, floor)? {
            return Some(None);
        }
        let Some(c) = self.exact_child(&child, depth - 1, floor.max(-INF))? else {
            return Some(None);
        };
        Some(Some(self.place(sq, shape, -c.score)))
    }

    /// `child` (the opponent to move) searched `depth` plies when its value for us is above
    /// `floor`; Some(None) when it is not.
    fn exact_child(&mut self, child: &Board, depth: u32, floor: i32) -> Option<Option<Leaf>> {
        if child.is_game_over() {
            return Some((-child.final_score() > floor).then(|| Leaf {
                score: child.final_score(),
                sigma: 0.0,
                pv: Vec::new(),
            }));
        }
        let leaf = self.leaves.leaf(child, depth, (-INF, -floor))?;
        Some((-leaf.score > floor).then_some(leaf))
    }

    /// Every legal move of `b` valued at `depth` ≥ 3, best first (among equal values, the
    /// lower square first). None when stopped.
    pub fn all(&mut self, b: &Board, depth: u32) -> Option<Vec<RiskMove>> {
        let mut out = Vec::new();
        for sq in Squares(b.moves()) {
            let child = b.play(sq)?;
            // Every value is above -INF: the child is always there.
            let Some(c) = self.exact_child(&child, depth - 1, -INF)? else {
                continue;
            };
            out.push(self.value_move(b, sq, -c.score, &c.pv, depth)?);
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.value));
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A hand-built tree from the start position: the table holds the positions after two
    /// plies (value for their side to move, σ); a position after one ply is the best of its
    /// replies (one ply of negamax). The second field counts the searches of positions after
    /// one ply (the root moves' children).
    struct Table(HashMap<Board, (i32, f64)>, usize);
    impl Leaves for Table {
        fn leaf(&mut self, b: &Board, _: u32, _: (i32, i32)) -> Option<Leaf> {
            if let Some(&(score, sigma)) = self.0.get(b) {
                return Some(Leaf {
                    score,
                    sigma,
                    pv: Vec::new(),
                });
            }
            self.1 += 1;
            Squares(b.moves())
                .filter_map(|sq| Some((sq, -self.0.get(&b.play(sq)?)?.0)))
                .max_by_key(|&(_, s)| s)
                .map(|(sq, score)| Leaf {
                    score,
                    sigma: 0.0,
                    pv: vec![Square::At(sq as u8)],
                })
        }

        fn sigma(&self, b: &Board, _: u32) -> f64 {
            self.0.get(b).map_or(0.0, |l| l.1)
        }

        fn lower_bound(&self, _: &Board, _: u32) -> Option<i32> {
            None
        }
    }

    /// The ordinary choice of the table's root: (move, value, line).
    fn ordinary(tree: &mut Tree<Table>, b: &Board) -> (usize, i32, Vec<Square>) {
        Squares(b.moves())
            .filter_map(|sq| {
                let leaf = tree.leaves.leaf(&b.play(sq)?, 1, (-INF, INF))?;
                Some((sq, -leaf.score, [Square::At(sq as u8)].into_iter().chain(leaf.pv).collect()))
            })
            .max_by_key(|m| (m.1, std::cmp::Reverse(m.0)))
            .expect("a move")
    }

    /// Every grandchild of the start under the root move `name`, with `value(i)` for the i-th.
    fn under(b: &Board, name: &str, value: impl Fn(usize) -> (i32, f64)) -> Vec<(Board, (i32, f64))> {
        let sq = Square::parse(name).ok().and_then(|s| s.index()).expect("square");
        let child = b.play(sq).expect("legal");
        Squares(child.moves())
            .enumerate()
            .map(|(i, r)| (child.play(r).expect("legal"), value(i)))
            .collect()
    }

    /// Below `b` (the start): d3 a sure +2 whatever the reply (solved, σ = 0); after f5 the
    /// opponent has one sensible reply, to a +10 with σ = 8 (a big win with P(loss) ≈ 12 %);
    /// c4 and e6 clearly worse.
    fn small_or_big(b: &Board) -> HashMap<Board, (i32, f64)> {
        [
            under(b, "d3", |_| (2, 0.0)),
            under(b, "f5", |i| if i == 0 { (10, 8.0) } else { (60, 8.0) }),
            under(b, "c4", |_| (-10, 3.0)),
            under(b, "e6", |_| (-10, 3.0)),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    #[test]
    fn sure_small_win_against_likely_big_win() {
        // `small_or_big`: the ordinary search plays f5.
        let b = Board::START;
        let table = small_or_big(&b);
        let choose = |c: u32| {
            let mut tree = Tree::new(Table(table.clone(), 0), c);
            let (best, value, line) = ordinary(&mut tree, &b);
            let m = tree.refine(&b, 3, best, value, &line).expect("all leaves known");
            (m.pv[0].to_string(), m.value, m.dist.win())
        };
        // Safe: the pessimistic value of f5 (10 - 1.645·8 ≈ -3) is below d3's 2.
        let (mv, value, _) = choose(95);
        assert_eq!((mv.as_str(), value), ("d3", 2));
        // Risky: f5's optimistic value (≈ 23) beats 2.
        assert_eq!(choose(5).0, "f5");
        let (mv, value, win) = choose(50);
        assert_eq!((mv.as_str(), value), ("f5", 10));
        assert!((win - 0.883).abs() < 0.01, "{win}");
    }

    /// A table whose searches stop after as many leaves as the second field says.
    struct Budget(Table, usize);
    impl Leaves for Budget {
        fn leaf(&mut self, b: &Board, depth: u32, window: (i32, i32)) -> Option<Leaf> {
            self.1 = self.1.checked_sub(1)?;
            self.0.leaf(b, depth, window)
        }

        fn sigma(&self, b: &Board, depth: u32) -> f64 {
            self.0.sigma(b, depth)
        }

        fn lower_bound(&self, b: &Board, depth: u32) -> Option<i32> {
            self.0.lower_bound(b, depth)
        }
    }

    #[test]
    fn a_stopped_refinement_keeps_the_moves_it_compared() {
        // The table of `sure_small_win_against_likely_big_win` at c = 95: the ordinary search
        // plays f5, the safe style d3.
        let b = Board::START;
        let table = small_or_big(&b);
        let f5 = Square::parse("f5").ok().and_then(|s| s.index()).expect("square");
        let refine = |leaves: usize| {
            let mut tree = Tree::new(Budget(Table(table.clone(), 0), leaves), 95);
            let value = -tree.leaves.0.leaf(&b.play(f5)?, 1, (-INF, INF))?.score;
            tree.leaves.1 = leaves;
            tree.refine(&b, 3, f5, value, &[Square::At(f5 as u8)])
                .map(|m| m.pv[0].to_string())
        };
        // Stopped within f5's own shape (three replies): nothing to play but the ordinary move.
        assert_eq!(refine(2), None);
        // Stopped after it: f5, compared with no other move.
        assert_eq!(refine(3).as_deref(), Some("f5"));
        assert_eq!(refine(1000).as_deref(), Some("d3"));
    }

    #[test]
    fn refinement_chooses_as_valuing_every_move() {
        // Leaves with pseudo-random values and σ: the refinement's choice is worth what the
        // best of all moves valued in full is worth.
        let b = Board::START;
        let mut table = HashMap::new();
        let mut x: u64 = 7;
        for seed in 0..20 {
            for sq in Squares(b.moves()) {
                let c = b.play(sq).expect("legal");
                for sq2 in Squares(c.moves()) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407 + seed);
                    let g = c.play(sq2).expect("legal");
                    table.insert(g, (((x >> 33) % 21) as i32 - 10, ((x >> 20) % 6) as f64));
                }
            }
            for c in [5, 30, 50, 70, 95] {
                let mut tree = Tree::new(Table(table.clone(), 0), c);
                let (best, value, line) = ordinary(&mut tree, &b);
                tree.leaves.1 = 0;
                let refined = tree.refine(&b, 3, best, value, &line).expect("known");
                if c == 50 {
                    // The median is the ordinary value: the ordinary move, and no other move's
                    // child searched.
                    assert_eq!((refined.pv[0], refined.value), (Square::At(best as u8), value), "seed {seed}");
                    assert_eq!(tree.leaves.1, 0, "seed {seed}");
                }
                let all = tree.all(&b, 3).expect("known");
                assert_eq!(refined.value, all[0].value, "seed {seed}, c = {c}");
                let same = all.iter().find(|m| m.pv[0] == refined.pv[0]).expect("a legal move");
                assert_eq!(same.value, refined.value, "seed {seed}, c = {c}");
            }
        }
    }
}
