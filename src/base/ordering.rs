//! The evaluation the searches call. The trait sits below both the evaluation (which implements
//! it) and the searches (which call it), so neither imports the other for it.

use crate::board::Board;

/// Index lanes of the incremental pattern features: the folded instances, padded to a
/// multiple of the vector width. Here because `OrderingEval::evaluate_features` takes them.
pub const LANES: usize = 64;

/// Scores the position for the side to move (higher is better); used to order moves
/// far from the end. The midgame evaluation implements it.
pub trait OrderingEval: Sync {
    fn evaluate(&self, b: &Board) -> i32;
    /// The same when the caller already has the side to move's legal moves.
    fn evaluate_with_moves(&self, b: &Board, _moves: u64) -> i32 {
        self.evaluate(b)
    }
    /// The value a search's leaf needs where only `[lo, hi]` must be exact, for a caller that
    /// keeps no pattern indices (the endgame's ProbCut checks): `evaluate_with_moves` may be
    /// a cheaper estimate than this.
    fn evaluate_with_moves_within(&self, b: &Board, moves: u64, _lo: i32, _hi: i32) -> i32 {
        self.evaluate_with_moves(b, moves)
    }
    /// The same when the caller also keeps the position's incremental pattern indices (the
    /// side to move's view, `Features::me`).
    ///
    /// # Safety
    /// `me` must be `b`'s indices as `eval::incremental::Features` computes them: an
    /// implementation may read tables at those indices unchecked.
    unsafe fn evaluate_features(&self, b: &Board, _me: &[u16; LANES], moves: u64) -> i32 {
        self.evaluate_with_moves(b, moves)
    }
    /// The same where only values within `[lo, hi]` need to be exact: an implementation with
    /// a cheap first estimate may return it when that estimate lies clearly outside (on the
    /// same side as the exact value, but for rare misses). `lo > hi` asks for the cheap
    /// estimate alone (move ordering).
    ///
    /// # Safety
    /// As `evaluate_features`.
    unsafe fn evaluate_features_within(&self, b: &Board, me: &[u16; LANES], moves: u64, _lo: i32, _hi: i32) -> i32 {
        // SAFETY: the caller keeps `evaluate_features`' contract.
        unsafe { self.evaluate_features(b, me, moves) }
    }
    /// The same evaluation without its costly optional part (the pattern evaluation's
    /// non-linear layer), for the levels that do not read it; `None` when there is none.
    fn without_layer(&self) -> Option<Box<dyn OrderingEval + Send + Sync>> {
        None
    }
}
