//! A sample of the positions the midgame search evaluates at its leaves (built only with the
//! `leaf-sample` feature, for measurements: which positions the evaluation is asked about, as
//! against the game lines it is fitted on). Each thread keeps its own sample; without the
//! feature the search has no hook at all.

use crate::board::Board;
use std::cell::RefCell;

struct Sampler {
    /// Keep one leaf in `every` (0: sampling off).
    every: u64,
    state: u64,
    boards: Vec<Board>,
}

thread_local! {
    static SAMPLER: RefCell<Sampler> = const {
        RefCell::new(Sampler { every: 0, state: 0x9E37_79B9_7F4A_7C15, boards: Vec::new() })
    };
}

/// Starts sampling this thread's leaves, one in `every` on average, drawn with `seed`.
pub fn start(every: u64, seed: u64) {
    SAMPLER.with(|s| {
        let mut s = s.borrow_mut();
        s.every = every;
        s.state = seed | 1;
        s.boards.clear();
    });
}

/// The leaves sampled on this thread since `start` (or the last `take`).
pub fn take() -> Vec<Board> {
    SAMPLER.with(|s| std::mem::take(&mut s.borrow_mut().boards))
}

/// Called by the search for every leaf it evaluates.
#[inline]
pub fn offer(b: &Board) {
    SAMPLER.with(|s| {
        let mut s = s.borrow_mut();
        if s.every == 0 {
            return;
        }
        // xorshift64: the draw must not depend on the board, or some leaves would never be kept.
        s.state ^= s.state << 13;
        s.state ^= s.state >> 7;
        s.state ^= s.state << 17;
        if s.state % s.every == 0 {
            s.boards.push(*b);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::bootstrap::BootstrapEval;
    use crate::search::midgame::Searcher;
    use crate::search::request::SearchRequest;
    use std::sync::atomic::AtomicBool;

    /// Every leaf is kept at a rate of 1, about a tenth at 10, none before `start`.
    #[test]
    fn a_search_offers_its_leaves() {
        let stop = AtomicBool::new(false);
        let req = SearchRequest::fixed_depth(Board::START, 6);
        let mut searcher = Searcher::new(1);
        let _ = take();
        searcher.run(&req, &BootstrapEval, &stop, &mut |_| {});
        assert!(take().is_empty(), "nothing is kept before start");
        start(1, 7);
        searcher.clear();
        searcher.run(&req, &BootstrapEval, &stop, &mut |_| {});
        let all = take();
        assert!(all.len() > 100, "{} leaves", all.len());
        // Iterative deepening and the ordering searches evaluate leaves at every depth up to 6.
        assert!(all.iter().all(|b| (54..=59).contains(&b.empty_count())));
        assert!(all.iter().any(|b| b.empty_count() == 54), "the leaves of the 6-ply iteration");
        start(10, 7);
        searcher.clear();
        searcher.run(&req, &BootstrapEval, &stop, &mut |_| {});
        let tenth = take().len();
        assert!(tenth * 20 > all.len() && tenth * 5 < all.len(), "{tenth} of {}", all.len());
        start(0, 7);
    }
}
