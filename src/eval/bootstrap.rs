//! A hand-written evaluation: mobility, potential mobility and corners. Round 0 of training
//! (the first self-play games) and the baseline the trained weights are measured against.

use crate::base::OrderingEval;
use crate::board::Board;
use crate::board::bits;

pub struct BootstrapEval;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares next to each corner (b2, g2, b7, g7) paired with their corner.
const X_SQUARES: [(u64, u64); 4] = [(1 << 9, 1), (1 << 14, 1 << 7), (1 << 49, 1 << 56), (1 << 54, 1 << 63)];

impl OrderingEval for BootstrapEval {
    fn evaluate(&self, b: &Board) -> i32 {
        let (p, o) = (b.player, b.opponent);
        let empty = b.empties();
        let mob = bits::moves(p, o).count_ones() as i32 - bits::moves(o, p).count_ones() as i32;
        // Frontier discs (next to empties) give the opponent moves later.
        let frontier = |x: u64| (x & bits::adjacent(empty)).count_ones() as i32;
        let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
        let x_risk: i32 = X_SQUARES
            .iter()
            .filter(|(_, c)| empty & c != 0)
            .map(|&(x, _)| (o & x != 0) as i32 - (p & x != 0) as i32)
            .sum();
        (mob + (frontier(o) - frontier(p)) / 2 + 4 * corners + 2 * x_risk).clamp(-64, 64)
    }
}
