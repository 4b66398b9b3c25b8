//! Pattern indices kept up to date move by move, so a leaf's evaluation reads its weights
//! directly instead of gathering every instance's squares off the board.
//!
//! A position's `Features` hold the base-3 index of every folded instance (`fold::Folding`)
//! twice: as the side to move sees it (1 = own disc, 2 = opponent's) and as the opponent
//! sees it. A move turns one view into the other, so a child's indices are the parent's other
//! view plus the placed disc and the flipped discs, each square adding a fixed vector of
//! powers of 3 (`Deltas`): a few 128-byte vector additions instead of 58 gathers.

use super::fold::Folding;
use crate::board::Board;
use crate::board::bits::Squares;
use std::sync::LazyLock;

/// Index lanes: defined with the ordering trait, whose signature carries them.
pub use crate::base::LANES;

/// Every instance's index from both sides' views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Features {
    /// 1 = the side to move's disc, 2 = the opponent's.
    me: [u16; LANES],
    /// 1 = the opponent's disc, 2 = the side to move's.
    opp: [u16; LANES],
}

/// For each square, what one disc of the "1" side on it adds to each instance's index.
pub struct Deltas {
    square: [[u16; LANES]; 64],
}

static DELTAS: LazyLock<Deltas> = LazyLock::new(|| Deltas::new(Folding::shared()));

impl Deltas {
    /// The table of the shipped pattern set (built once).
    pub fn get() -> &'static Deltas {
        &DELTAS
    }

    fn new(folding: &Folding) -> Deltas {
        let mut square = [[0u16; LANES]; 64];
        for (i, inst) in folding.instances.iter().enumerate() {
            // The digit table maps occupancy bits (the cover's squares in ascending order) to
            // the base-3 index with 1s: one bit alone gives that square's power of 3.
            for (rank, sq) in Squares(inst.cover).enumerate() {
                square[sq][i] = folding.digits[inst.digits + (1 << rank)];
            }
        }
        Deltas { square }
    }

    /// Sum of the squares' vectors over a set of squares.
    #[inline(always)]
    fn sum(&self, squares: u64) -> [u16; LANES] {
        let mut acc = [0u16; LANES];
        for sq in Squares(squares) {
            add(&mut acc, &self.square[sq]);
        }
        acc
    }
}

#[inline(always)]
fn add(acc: &mut [u16; LANES], x: &[u16; LANES]) {
    for (a, &b) in acc.iter_mut().zip(x) {
        *a = a.wrapping_add(b);
    }
}

impl Features {
    /// The indices of a board, from scratch.
    pub fn new(d: &Deltas, b: &Board) -> Features {
        let (p, o) = (d.sum(b.player), d.sum(b.opponent));
        let mut f = Features { me: p, opp: o };
        add(&mut f.me, &o);
        add(&mut f.me, &o);
        add(&mut f.opp, &p);
        add(&mut f.opp, &p);
        f
    }

    /// The side to move's indices (what the leaf evaluation reads).
    #[inline(always)]
    pub fn me(&self) -> &[u16; LANES] {
        &self.me
    }

    /// The child's indices after the side to move plays `sq`, flipping `flips`.
    #[inline(always)]
    pub fn play(&self, d: &Deltas, sq: usize, flips: u64) -> Features {
        let placed = &d.square[sq];
        let flipped = d.sum(flips);
        Features {
            me: self.child_me(placed, &flipped),
            // The parent's "me" view with the new disc as 1 and the flipped discs 2 -> 1.
            opp: std::array::from_fn(|k| self.me[k].wrapping_add(placed[k]).wrapping_sub(flipped[k])),
        }
    }

    /// Only the child's "me" view (`play`'s), for a leaf: all its evaluation reads.
    #[inline(always)]
    pub fn play_me(&self, d: &Deltas, sq: usize, flips: u64) -> [u16; LANES] {
        self.child_me(&d.square[sq], &d.sum(flips))
    }

    /// The child's side to move is the parent's opponent: its "me" view is the parent's "opp"
    /// view with the new disc as 2 and the flipped discs 1 -> 2.
    #[inline(always)]
    fn child_me(&self, placed: &[u16; LANES], flipped: &[u16; LANES]) -> [u16; LANES] {
        std::array::from_fn(|k| self.opp[k].wrapping_add(placed[k].wrapping_mul(2)).wrapping_add(flipped[k]))
    }

    /// The indices after a pass: the views swap.
    #[inline(always)]
    pub fn pass(&self) -> Features {
        Features {
            me: self.opp,
            opp: self.me,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits;

    /// Indices kept move by move through random games (passes included) equal the indices
    /// computed from scratch, and the "me" view is what the folded evaluation reads.
    #[test]
    fn incremental_indices_match_the_board() {
        let folding = Folding::new();
        let d = Deltas::get();
        let mut seed = 12345u64;
        for _ in 0..200 {
            let mut b = Board::START;
            let mut f = Features::new(d, &b);
            loop {
                assert_eq!(f, Features::new(d, &b));
                for (i, inst) in folding.instances.iter().enumerate() {
                    let t = &folding.digits[inst.digits..];
                    let want = t[super::super::patterns::gather(b.player, inst.cover)]
                        + 2 * t[super::super::patterns::gather(b.opponent, inst.cover)];
                    assert_eq!(f.me[i], want);
                }
                let m = b.moves();
                if m == 0 {
                    if b.pass().moves() == 0 {
                        break;
                    }
                    (b, f) = (b.pass(), f.pass());
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let sq = Squares(m).nth((seed % m.count_ones() as u64) as usize).unwrap_or(0);
                let flips = bits::flips(b.player, b.opponent, sq);
                (b, f) = (b.play_flips(sq, flips), f.play(d, sq, flips));
            }
        }
    }
}
