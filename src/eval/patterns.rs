//! The pattern set: base shapes (edges, corners, lines, diagonals), each read on all 8
//! symmetric images of the board, so one weight table per shape serves every orientation
//! and the evaluation is exactly symmetric.
//!
//! A shape's index is a base-3 number over its squares in ascending square order
//! (0 empty, 1 side to move, 2 opponent). The board is transformed rather than the shape, so
//! the digit order is the same for every orientation.

use crate::board::symmetry;

pub const N_SHAPES: usize = 14;
/// Base shapes as square lists (A1 = 0). Sizes at most 10. Pattern sets 1-4 had the first 11.
pub const SHAPES: [&[u8]; N_SHAPES] = [
    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],      // edge + 2 X-squares
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],      // corner 3x3
    &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],    // corner 2x5
    &[8, 9, 10, 11, 12, 13, 14, 15],       // row 2
    &[16, 17, 18, 19, 20, 21, 22, 23],     // row 3
    &[24, 25, 26, 27, 28, 29, 30, 31],     // row 4
    &[0, 9, 18, 27, 36, 45, 54, 63],       // main diagonal
    &[1, 10, 19, 28, 37, 46, 55],          // diagonal of 7
    &[2, 11, 20, 29, 38, 47],              // diagonal of 6
    &[3, 12, 21, 30, 39],                  // diagonal of 5
    &[4, 13, 22, 31],                      // diagonal of 4
    &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],   // corner triangle
    &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13],   // edge block
    &[0, 1, 8, 9, 10, 17, 18, 19, 26, 27], // corner cross: main diagonal and its neighbours
];

pub const SHAPE_NAMES: [&str; N_SHAPES] = [
    "edge+2X",
    "corner3x3",
    "corner2x5",
    "row2",
    "row3",
    "row4",
    "diag8",
    "diag7",
    "diag6",
    "diag5",
    "diag4",
    "triangle",
    "edgeblock",
    "cross",
];

/// Bit masks of the shapes.
pub const MASKS: [u64; N_SHAPES] = {
    let mut m = [0u64; N_SHAPES];
    let mut i = 0;
    while i < N_SHAPES {
        let mut j = 0;
        while j < SHAPES[i].len() {
            m[i] |= 1u64 << SHAPES[i][j];
            j += 1;
        }
        i += 1;
    }
    m
};

/// 3^n for each shape: the size of its weight table.
pub const fn table_size(shape: usize) -> usize {
    let mut n = 1;
    let mut k = 0;
    while k < SHAPES[shape].len() {
        n *= 3;
        k += 1;
    }
    n
}

/// Offsets of each shape's table inside one stage's weight vector.
pub const OFFSETS: [usize; N_SHAPES + 1] = {
    let mut o = [0usize; N_SHAPES + 1];
    let mut i = 0;
    while i < N_SHAPES {
        o[i + 1] = o[i] + table_size(i);
        i += 1;
    }
    o
};

/// Pattern weights per stage (the other terms follow them, see `eval::STAGE_WEIGHTS`).
pub const PATTERN_WEIGHTS: usize = OFFSETS[N_SHAPES];

/// Instances per evaluation: every shape on every symmetric image.
pub const INSTANCES: usize = N_SHAPES * 8;

/// Binary digits (bit i) to the base-3 number with the same digits: 10-bit inputs.
static B2T: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut x = 0;
    while x < 1024 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut b = 0;
        while b < 10 {
            if x >> b & 1 != 0 {
                v += p;
            }
            p *= 3;
            b += 1;
        }
        t[x] = v;
        x += 1;
    }
    t
};

/// Gathers the bits of `x` selected by `mask` into the low bits (what PEXT does), portably.
#[inline(always)]
pub(super) fn gather(x: u64, mut mask: u64) -> usize {
    let mut out = 0usize;
    let mut bit = 0;
    while mask != 0 {
        let sq = mask.trailing_zeros();
        out |= ((x >> sq & 1) as usize) << bit;
        bit += 1;
        mask &= mask - 1;
    }
    out
}

/// Feature indices (into one stage's weight vector) of every instance, portable version.
#[inline(always)]
pub fn indices_portable(p: u64, o: u64, out: &mut [u32; INSTANCES]) {
    for s in 0..8 {
        let (tp, to) = (symmetry::apply(s, p), symmetry::apply(s, o));
        for k in 0..N_SHAPES {
            let idx = B2T[gather(tp, MASKS[k])] as usize + 2 * B2T[gather(to, MASKS[k])] as usize;
            out[s * N_SHAPES + k] = (OFFSETS[k] + idx) as u32;
        }
    }
}

/// The same with the BMI2 PEXT instruction.
///
/// # Safety
/// The CPU must support BMI2 (checked with `is_x86_feature_detected!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
pub fn indices_bmi2(p: u64, o: u64, out: &mut [u32; INSTANCES]) {
    use std::arch::x86_64::_pext_u64;
    for s in 0..8 {
        let (tp, to) = (symmetry::apply(s, p), symmetry::apply(s, o));
        for k in 0..N_SHAPES {
            let idx = B2T[_pext_u64(tp, MASKS[k]) as usize] as usize + 2 * B2T[_pext_u64(to, MASKS[k]) as usize] as usize;
            out[s * N_SHAPES + k] = (OFFSETS[k] + idx) as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_sorted_and_small() {
        for s in SHAPES {
            assert!(s.windows(2).all(|w| w[0] < w[1]) && s.len() <= 10);
        }
        assert_eq!(PATTERN_WEIGHTS, 5 * 59049 + 19683 + 3 * 6561 + 6561 + 2187 + 729 + 243 + 81);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn bmi2_matches_portable() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        let mut seed = 99u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = seed;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (p, o) = (occ & seed, occ & !seed);
            let (mut a, mut b) = ([0u32; INSTANCES], [0u32; INSTANCES]);
            indices_portable(p, o, &mut a);
            // SAFETY: BMI2 was detected above.
            unsafe { indices_bmi2(p, o, &mut b) };
            assert_eq!(a, b);
        }
    }
}
