//! The 8 symmetries of the board (dihedral group D4) on bitboards and squares.

use super::Board;

/// Mirrors columns: a1 <-> h1.
#[inline]
pub fn mirror_horizontal(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Flips rows: a1 <-> a8.
#[inline]
pub fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Transposes along the a1-h8 diagonal: b1 <-> a2.
#[inline]
pub fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// Applies symmetry `s` (0..8; 0 = identity): bit 2 transposes, then bit 0 mirrors the
/// columns and bit 1 flips the rows.
#[inline]
pub fn apply(s: usize, mut x: u64) -> u64 {
    if s & 4 != 0 {
        x = transpose(x);
    }
    if s & 1 != 0 {
        x = mirror_horizontal(x);
    }
    if s & 2 != 0 {
        x = flip_vertical(x);
    }
    x
}

/// Image of square `sq` under symmetry `s`.
pub fn apply_square(s: usize, sq: usize) -> usize {
    apply(s, 1u64 << sq).trailing_zeros() as usize
}

/// The symmetry that undoes `s`: transposition does not commute with the reflections.
pub fn inverse(s: usize) -> usize {
    (0..8)
        .find(|&t| (0..64).all(|sq| apply_square(t, apply_square(s, sq)) == sq))
        .unwrap_or(0)
}

pub fn apply_board(s: usize, b: &Board) -> Board {
    Board::new(apply(s, b.player), apply(s, b.opponent))
}

/// The smallest (player, opponent) image over the 8 symmetries and the symmetry that gives it:
/// one key for all symmetric positions (book lookups).
pub fn canonical(b: &Board) -> (Board, usize) {
    (0..8)
        .map(|s| (apply_board(s, b), s))
        .min_by_key(|(x, _)| (x.player, x.opponent))
        .unwrap_or((*b, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bits;

    fn naive(s: usize, sq: usize) -> usize {
        let (mut x, mut y) = (sq % 8, sq / 8);
        if s & 4 != 0 {
            std::mem::swap(&mut x, &mut y);
        }
        if s & 1 != 0 {
            x = 7 - x;
        }
        if s & 2 != 0 {
            y = 7 - y;
        }
        y * 8 + x
    }

    #[test]
    fn symmetries_match_coordinates() {
        for s in 0..8 {
            for sq in 0..64 {
                assert_eq!(apply_square(s, sq), naive(s, sq), "s={s} sq={sq}");
                assert_eq!(apply_square(inverse(s), apply_square(s, sq)), sq);
            }
        }
    }

    #[test]
    fn moves_commute_with_symmetry() {
        let b = Board::START.play(37).and_then(|b| b.play(43)).expect("f5 d6");
        for s in 0..8 {
            let t = apply_board(s, &b);
            assert_eq!(apply(s, b.moves()), bits::moves(t.player, t.opponent));
            assert_eq!(canonical(&t).0, canonical(&b).0);
        }
    }
}
