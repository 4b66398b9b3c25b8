//! Bit-level move generation: legal moves and flips on a pair of bitboards.
//!
//! Bit i is square i, A1 = bit 0, H1 = bit 7, A8 = bit 56, H8 = bit 63 (OBF order).
//! The fast functions here are plain Rust written so that, once inlined into a caller compiled
//! with `popcnt`/`lzcnt`/`bmi1` enabled (see `base::kernel`), they become single instructions;
//! compiled without those features they are still correct. `oracle` is the slow, obviously
//! correct reference the tests compare them against.

/// All squares except the A and H files: stops horizontal/diagonal shifts wrapping around.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Moves in one direction by Kogge–Stone style propagation: `shift` > 0 shifts left
/// (towards H8), < 0 shifts right. `mask` holds the opponent discs allowed to be jumped.
#[inline(always)]
fn dir_moves(p: u64, mask: u64, shift: u32, left: bool) -> u64 {
    let sh = |x: u64, n: u32| if left { x << n } else { x >> n };
    let mut t = mask & sh(p, shift);
    t |= mask & sh(t, shift);
    let m2 = mask & sh(mask, shift);
    t |= m2 & sh(t, 2 * shift);
    t |= m2 & sh(t, 2 * shift);
    sh(t, shift)
}

/// Legal moves of the player `p` against the opponent `o`.
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    let h = o & NOT_EDGE_FILES;
    let m = dir_moves(p, h, 1, true)
        | dir_moves(p, h, 1, false)
        | dir_moves(p, o, 8, true)
        | dir_moves(p, o, 8, false)
        | dir_moves(p, h, 7, true)
        | dir_moves(p, h, 7, false)
        | dir_moves(p, h, 9, true)
        | dir_moves(p, h, 9, false);
    m & !(p | o)
}

/// Legal moves of four positions (`p[i]` to move against `o[i]`), one at a time.
#[inline(always)]
pub fn moves_x4(p: &[u64; 4], o: &[u64; 4]) -> [u64; 4] {
    [moves(p[0], o[0]), moves(p[1], o[1]), moves(p[2], o[2]), moves(p[3], o[3])]
}

/// The same with AVX2, one position per 64-bit lane: the eight directions run on all four
/// positions at once.
///
/// # Safety
/// The CPU must support AVX2 (checked with `is_x86_feature_detected!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub fn moves_x4_avx2(p: &[u64; 4], o: &[u64; 4]) -> [u64; 4] {
    use std::arch::x86_64::*;
    // Kogge-Stone fill in one direction, as `dir_moves`, with immediate shifts.
    macro_rules! dir {
        ($sh:ident, $s:literal, $s2:literal, $p:expr, $mask:expr) => {{
            let mut t = _mm256_and_si256($mask, $sh::<$s>($p));
            t = _mm256_or_si256(t, _mm256_and_si256($mask, $sh::<$s>(t)));
            let m2 = _mm256_and_si256($mask, $sh::<$s>($mask));
            t = _mm256_or_si256(t, _mm256_and_si256(m2, $sh::<$s2>(t)));
            t = _mm256_or_si256(t, _mm256_and_si256(m2, $sh::<$s2>(t)));
            $sh::<$s>(t)
        }};
    }
    // SAFETY: unaligned loads and stores of four u64 from and to arrays of four u64.
    unsafe {
        let vp = _mm256_loadu_si256(p.as_ptr().cast());
        let vo = _mm256_loadu_si256(o.as_ptr().cast());
        let h = _mm256_and_si256(vo, _mm256_set1_epi64x(NOT_EDGE_FILES as i64));
        let m = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_or_si256(dir!(_mm256_slli_epi64, 1, 2, vp, h), dir!(_mm256_srli_epi64, 1, 2, vp, h)),
                _mm256_or_si256(dir!(_mm256_slli_epi64, 8, 16, vp, vo), dir!(_mm256_srli_epi64, 8, 16, vp, vo)),
            ),
            _mm256_or_si256(
                _mm256_or_si256(dir!(_mm256_slli_epi64, 7, 14, vp, h), dir!(_mm256_srli_epi64, 7, 14, vp, h)),
                _mm256_or_si256(dir!(_mm256_slli_epi64, 9, 18, vp, h), dir!(_mm256_srli_epi64, 9, 18, vp, h)),
            ),
        );
        let m = _mm256_andnot_si256(_mm256_or_si256(vp, vo), m);
        let mut out = [0u64; 4];
        _mm256_storeu_si256(out.as_mut_ptr().cast(), m);
        out
    }
}

/// Squares adjacent (8-neighbourhood) to any disc of `x`, `x` itself possibly included.
#[inline(always)]
pub fn adjacent(x: u64) -> u64 {
    let h = ((x << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((x >> 1) & NOT_EDGE_FILES_H);
    let xh = x | h;
    h | (xh << 8) | (xh >> 8)
}

/// All squares except the H file: stops right shifts wrapping.
const NOT_EDGE_FILES_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// Rays from each square: index `[sq][d]`, d in 0..4 towards higher bits (E, S, SE, SW),
/// d in 4..8 towards lower bits (W, N, NW, NE). The square itself is excluded.
/// Each square's eight rays fill one 64-byte cache line: aligned, no load of them is split
/// across two lines.
static RAYS: CacheLines = CacheLines(build_rays());

#[repr(align(64))]
struct CacheLines([[u64; 8]; 64]);

const fn build_rays() -> [[u64; 8]; 64] {
    // (dx, dy) per direction, in the order documented on RAYS.
    const DIRS: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = DIRS[d];
            let mut x = (sq % 8) as i32 + dx;
            let mut y = (sq / 8) as i32 + dy;
            let mut m = 0u64;
            while x >= 0 && x < 8 && y >= 0 && y < 8 {
                m |= 1u64 << (y * 8 + x);
                x += dx;
                y += dy;
            }
            rays[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Discs flipped when the player `p` plays on the empty square `sq` against `o`.
/// Returns 0 when the move flips nothing (is illegal).
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS.0[sq & 63];
    let mut f = 0u64;
    // Towards higher bits: the first non-opponent square is the lowest set bit of ray & !o.
    for &ray in &rays[..4] {
        let blockers = ray & !o;
        let first = blockers & blockers.wrapping_neg();
        let outflank = first & p;
        let run = outflank.wrapping_sub(1) & ray;
        f |= if outflank != 0 { run } else { 0 };
    }
    // Towards lower bits: the first non-opponent square is the highest set bit of ray & !o.
    for &ray in &rays[4..] {
        let blockers = ray & !o;
        let top = 63 - (blockers | 1).leading_zeros();
        let outflank = (1u64 << top) & p & ray;
        let run = ray & !((outflank << 1).wrapping_sub(1));
        f |= if outflank != 0 { run } else { 0 };
    }
    f
}

/// The same as `flips` with AVX2, the four rays of each half in the lanes of one vector.
/// Towards higher bits the first non-opponent square is the lowest set bit (x & -x, as the
/// scalar code); towards lower bits the rays are filled downward from their first
/// non-opponent square with shifts of 1, 2 and 4 steps, whose complement is the opponent run.
///
/// # Safety
/// The CPU must support AVX2 (checked with `is_x86_feature_detected!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2(p: u64, o: u64, sq: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS.0[sq & 63];
    // SAFETY: unaligned loads of four u64 from arrays of eight u64 (indices 0..4 and 4..8).
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.as_ptr().cast()),
            _mm256_loadu_si256(rays[4..].as_ptr().cast()),
        )
    };
    let vp = _mm256_set1_epi64x(p as i64);
    let vo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher bits (E, S, SE, SW).
    let blockers = _mm256_andnot_si256(vo, up);
    let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
    let outflank = _mm256_and_si256(first, vp);
    let run = _mm256_and_si256(_mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), up);
    let f_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), run);
    // Towards lower bits (W, N, NW, NE): a step is a right shift by 1, 8, 9, 7.
    let s1 = _mm256_set_epi64x(7, 9, 8, 1);
    let s2 = _mm256_set_epi64x(14, 18, 16, 2);
    let s4 = _mm256_set_epi64x(28, 36, 32, 4);
    let mut fill = _mm256_andnot_si256(vo, down);
    fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, s1));
    fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, s2));
    fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, s4));
    // The ray's squares before its first non-opponent square, then that square itself.
    let run = _mm256_andnot_si256(fill, down);
    let beyond = _mm256_andnot_si256(
        run,
        _mm256_and_si256(
            down,
            _mm256_srlv_epi64(_mm256_or_si256(run, _mm256_set1_epi64x((1u64 << (sq & 63)) as i64)), s1),
        ),
    );
    let f_down = _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(beyond, vp), zero), run);
    let f = _mm256_or_si256(f_up, f_down);
    let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    (_mm_cvtsi128_si64(h) | _mm_extract_epi64::<1>(h)) as u64
}

/// `flips_avx2` with AVX-512's per-lane leading-zero count (VL, CD): towards lower bits the
/// nearest non-opponent square of each ray is its highest set bit, found in one instruction
/// where the AVX2 routine fills the ray in three shift steps and looks one square beyond.
///
/// # Safety
/// The CPU must support AVX2 and AVX-512 F, VL and CD (checked with `is_x86_feature_detected!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
pub fn flips_avx512(p: u64, o: u64, sq: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS.0[sq & 63];
    // SAFETY: unaligned loads of four u64 from arrays of eight u64 (indices 0..4 and 4..8).
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.as_ptr().cast()),
            _mm256_loadu_si256(rays[4..].as_ptr().cast()),
        )
    };
    let vp = _mm256_set1_epi64x(p as i64);
    let vo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher bits (E, S, SE, SW): the nearest non-opponent square is the lowest set
    // bit; the squares below it on the ray flip when it is ours (none when there is none).
    let blockers = _mm256_andnot_si256(vo, up);
    let outflank = _mm256_and_si256(_mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers)), vp);
    let f_up = _mm256_maskz_and_epi64(
        _mm256_test_epi64_mask(outflank, outflank),
        _mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)),
        up,
    );
    // Towards lower bits (W, N, NW, NE): the nearest is the highest set bit (a shift by 64,
    // no such square, gives 0); the squares above it on the ray flip when it is ours.
    let lz = _mm256_lzcnt_epi64(_mm256_andnot_si256(vo, down));
    let outflank = _mm256_and_si256(_mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), lz), vp);
    let f_down = _mm256_and_si256(_mm256_slli_epi64::<1>(_mm256_sub_epi64(zero, outflank)), down);
    let f = _mm256_or_si256(f_up, f_down);
    let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    (_mm_cvtsi128_si64(h) | _mm_extract_epi64::<1>(h)) as u64
}

/// Number of discs the player flips on `sq` when every other square is the opponent's
/// (the last empty square of the game). Each of the four lines through `sq` is gathered into
/// a byte (bit k = the line's square on file k, or on rank k for the column) and the flips
/// along it are looked up, which is cheaper than computing the flipped set.
#[inline(always)]
pub fn last_flip_count(p: u64, sq: usize) -> u32 {
    let sq = sq & 63;
    let (x, y) = (sq & 7, sq >> 3);
    let row = (p >> (y * 8)) as u8 as usize;
    let col = (((p >> x) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let diag = ((p & LINES[sq].0).wrapping_mul(FILE_A) >> 56) as usize;
    let anti = ((p & LINES[sq].1).wrapping_mul(FILE_A) >> 56) as usize;
    let t = &LINE_FLIPS;
    (t[x][row] + t[y][col] + t[x][diag] + t[x][anti]) as u32
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The diagonal (A1-H8 direction) and anti-diagonal through each square.
static LINES: [(u64, u64); 64] = {
    let mut t = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut k = 0;
        while k < 64 {
            let (kx, ky) = (k % 8, k / 8);
            if kx - ky == x - y {
                t[sq].0 |= 1u64 << k;
            }
            if kx + ky == x + y {
                t[sq].1 |= 1u64 << k;
            }
            k += 1;
        }
        sq += 1;
    }
    t
};

/// `[pos][line]`: discs flipped along an 8-square line by a move at `pos` when the player owns
/// the squares set in `line` and the opponent every other one. Squares beyond a short line
/// read as opponent discs with no player disc after them, so they never flip: one table
/// serves every line length.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards higher positions, then lower: a run of opponent squares closed by ours.
            let mut k = pos + 1;
            while k < 8 && line >> k & 1 == 0 {
                k += 1;
            }
            if k < 8 {
                n += k - pos - 1;
            }
            let mut k = pos as i32 - 1;
            while k >= 0 && line >> k & 1 == 0 {
                k -= 1;
            }
            if k >= 0 {
                n += pos - k as usize - 1;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// Iterates over the set bits of a bitboard, lowest first, as square indices.
#[derive(Clone, Copy)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// Reference implementations: walk square by square. Used as the test oracle only.
pub mod oracle {
    const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

    pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let (x0, y0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut all = 0u64;
        for (dx, dy) in DIRS {
            let (mut x, mut y) = (x0 + dx, y0 + dy);
            let mut run = 0u64;
            while (0..8).contains(&x) && (0..8).contains(&y) {
                let b = 1u64 << (y * 8 + x);
                if o & b != 0 {
                    run |= b;
                } else {
                    if p & b != 0 {
                        all |= run;
                    }
                    break;
                }
                x += dx;
                y += dy;
            }
        }
        all
    }

    pub fn moves(p: u64, o: u64) -> u64 {
        (0..64).filter(|&sq| flips(p, o, sq) != 0).fold(0, |m, sq| m | 1u64 << sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: reproducible random positions without a dependency.
    pub(crate) struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
    }

    fn random_position(rng: &mut Rng) -> (u64, u64) {
        // Vary density so sparse, dense and nearly full boards all appear.
        let density = rng.next() % 4;
        let mut occ = rng.next();
        for _ in 0..density {
            occ |= rng.next();
        }
        let colour = rng.next();
        (occ & colour, occ & !colour)
    }

    #[test]
    fn fast_equals_oracle_on_random_positions() {
        let mut rng = Rng(0x0123_4567_89AB_CDEF);
        for _ in 0..100_000 {
            let (p, o) = random_position(&mut rng);
            let m = moves(p, o);
            assert_eq!(m, oracle::moves(p, o), "moves p={p:#x} o={o:#x}");
            for sq in 0..64 {
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(flips(p, o, sq), oracle::flips(p, o, sq), "flips p={p:#x} o={o:#x} sq={sq}");
                }
            }
            for sq in Squares(!(p | o)) {
                let full_o = !p & !(1u64 << sq);
                assert_eq!(
                    last_flip_count(p, sq),
                    oracle::flips(p, full_o, sq).count_ones(),
                    "p={p:#x} sq={sq}"
                );
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_moves_x4_match_scalar() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = Rng(0xFEED_BEEF_1234_5678);
        for _ in 0..20_000 {
            let (mut p, mut o) = ([0u64; 4], [0u64; 4]);
            for i in 0..4 {
                (p[i], o[i]) = random_position(&mut rng);
            }
            // SAFETY: AVX2 was detected above.
            assert_eq!(unsafe { moves_x4_avx2(&p, &o) }, moves_x4(&p, &o));
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_flips_match_scalar() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = Rng(0x5EED_F11B_0000_0001);
        for _ in 0..50_000 {
            let (p, o) = random_position(&mut rng);
            for sq in Squares(!(p | o)) {
                // SAFETY: AVX2 was detected above.
                assert_eq!(unsafe { flips_avx2(p, o, sq) }, flips(p, o, sq), "p={p:#x} o={o:#x} sq={sq}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_flips_match_scalar() {
        if !crate::base::Kernel::detect().lzcnt_wide() {
            return;
        }
        let mut rng = Rng(0x5EED_F11B_0000_0002);
        for _ in 0..50_000 {
            let (p, o) = random_position(&mut rng);
            for sq in Squares(!(p | o)) {
                // SAFETY: the features were detected above.
                assert_eq!(
                    unsafe { flips_avx512(p, o, sq) },
                    flips(p, o, sq),
                    "p={p:#x} o={o:#x} sq={sq}"
                );
            }
        }
    }

    #[test]
    fn start_position_moves() {
        let p = (1u64 << 28) | (1u64 << 35); // black: e4, d5
        let o = (1u64 << 27) | (1u64 << 36); // white: d4, e5
        let m = moves(p, o);
        // d3 (19), c4 (26), f5 (37), e6 (44)
        assert_eq!(m, (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
    }
}
