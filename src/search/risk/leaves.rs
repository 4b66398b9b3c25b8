//! The style's searched values from the ordinary search.

use super::leaf_sigma;
use super::tree::{Leaf, Leaves};
use crate::base::DepthKind;
use crate::base::OrderingEval;
use crate::board::Board;
use crate::search::midgame::Searcher;
use crate::search::mpc::MpcTable;
use crate::search::request::SearchRequest;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
        // Within the exact empties a leaf is solved.
        if b.empty_count() <= self.template.exact_empties {
            return 0.0;
        }
        leaf_sigma(&self.sigmas, b.empty_count(), depth)
    }

    fn lower_bound(&self, b: &Board, depth: u32) -> Option<i32> {
        self.searcher.known_lower_bound(b, depth, self.template.pruning.percent())
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
        // A search cut short would mix a partial value into the tree: the refinement is dropped.
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
