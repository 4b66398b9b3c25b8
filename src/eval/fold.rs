//! Folded weight tables for fast evaluation.
//!
//! Training reads every shape on all 8 images of the board (112 instances), but most shapes
//! are symmetric themselves (a row reads the same squares backwards under a mirror), so
//! several images cover the same squares. Summing those images' weights into one table
//! entry per configuration leaves 58 distinct instances to read, with the exact same sum.
//! Each instance is read straight off the board (no transformed copies): its squares are
//! gathered in ascending order and a small table turns those bits into the base-3 index in
//! the instance's own digit order.

use super::patterns::{OFFSETS, PATTERN_WEIGHTS, SHAPES, gather};
use crate::board::symmetry;

/// One distinct instance: the squares it covers, where its digit table starts in
/// `Folding::digits`, and where its weights start in a stage's weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    pub cover: u64,
    pub digits: usize,
    pub offset: usize,
}

/// Entries of one digit table: every subset of up to 10 squares.
const DIGIT_TABLE: usize = 1024;

/// The original-board squares image `s` reads for `shape`, in digit order.
fn reading(shape: usize, s: usize) -> Vec<usize> {
    let inv = symmetry::inverse(s);
    SHAPES[shape]
        .iter()
        .map(|&m| symmetry::apply_square(inv, m as usize))
        .collect()
}

/// For the images of one instance read relative to representative `rep`: digit j of image s
/// is digit `perm[j]` of the representative's reading. Sorted, so two instances with the
/// same structure compare equal.
fn perms(shape: usize, rep: usize, images: &[usize]) -> Vec<Vec<usize>> {
    let base = reading(shape, rep);
    let mut out: Vec<Vec<usize>> = images
        .iter()
        .map(|&s| {
            reading(shape, s)
                .iter()
                .map(|sq| base.iter().position(|b| b == sq).unwrap_or(0))
                .collect()
        })
        .collect();
    out.sort();
    out
}

/// The instances to read and, per shape, where each configuration's folded-in weights are:
/// `maps[shape][k][c]` is the index, in the shape's table, of configuration `c` (read on an
/// instance's representative image) as the instance's k-th image reads it.
pub struct Folding {
    pub instances: Vec<Instance>,
    /// Digit tables, `DIGIT_TABLE` entries each: bit k set = the instance's k-th square (in
    /// ascending order) is occupied; the value is that configuration's base-3 index with 1s.
    pub digits: Vec<u16>,
    maps: Vec<Vec<Vec<u32>>>,
}

static SHARED: std::sync::LazyLock<Folding> = std::sync::LazyLock::new(Folding::new);

impl Folding {
    /// The folding, made once a process: the weights and the layer are folded at different
    /// times (the layer when a level that reads it is first searched), and making it takes
    /// about 8 ms.
    pub fn shared() -> &'static Folding {
        &SHARED
    }

    pub fn new() -> Folding {
        let mut instances = Vec::new();
        let mut digits: Vec<u16> = Vec::new();
        let mut maps = Vec::new();
        for (shape, &offset) in OFFSETS[..SHAPES.len()].iter().enumerate() {
            // Group the images by the set of squares they cover.
            let mut groups: Vec<(u64, Vec<usize>)> = Vec::new();
            for s in 0..8 {
                let cover = reading(shape, s).iter().fold(0u64, |m, &sq| m | 1 << sq);
                match groups.iter_mut().find(|g| g.0 == cover) {
                    Some(g) => g.1.push(s),
                    None => groups.push((cover, vec![s])),
                }
            }
            // Every group is a coset of the identity's group: pick a representative whose
            // images relate to it as the identity's relate to the identity, so one folded
            // table serves all.
            let fold = perms(shape, 0, &groups[0].1);
            for &(cover, ref images) in &groups {
                let rep = images
                    .iter()
                    .copied()
                    .find(|&r| perms(shape, r, images) == fold)
                    .unwrap_or(images[0]);
                let table = digit_table(&reading(shape, rep));
                // Instances that read their squares in the same order share a table.
                let at = digits
                    .chunks_exact(DIGIT_TABLE)
                    .position(|t| t == table.as_slice())
                    .unwrap_or_else(|| {
                        digits.extend_from_slice(&table);
                        digits.len() / DIGIT_TABLE - 1
                    });
                instances.push(Instance {
                    cover,
                    digits: at * DIGIT_TABLE,
                    offset,
                });
            }
            maps.push(fold.iter().map(|perm| permuted_indices(perm)).collect());
        }
        Folding { instances, digits, maps }
    }

    /// One stage's pattern tables folded (weights in the same units, same layout).
    pub fn fold(&self, stage: &[i16]) -> Vec<i16> {
        let mut out = vec![0i16; PATTERN_WEIGHTS];
        for (shape, maps) in self.maps.iter().enumerate() {
            let table = &stage[OFFSETS[shape]..];
            for (c, o) in out[OFFSETS[shape]..OFFSETS[shape + 1]].iter_mut().enumerate() {
                let sum: i32 = maps.iter().map(|m| table[m[c] as usize] as i32).sum();
                // In range: the decoder bounds every weight by MAX_WEIGHT, 4 * MAX_WEIGHT fits.
                *o = sum as i16;
            }
        }
        out
    }

    /// What `fold` gives for each of the `dim` channels of a table stored a row at a time
    /// (`stage[r * dim + k]` is channel k of row r; the result likewise, in i32), for the
    /// shapes with `with[shape]` set; the others' rows are left zero. A map's row is one
    /// contiguous read of `dim` entries, where folding the channels one by one reads each
    /// entry apart: the non-linear layer folds 16 channels at load, and this keeps the load short.
    pub fn fold_rows(&self, stage: &[i16], dim: usize, with: &[bool]) -> Vec<i32> {
        let mut out = vec![0i32; PATTERN_WEIGHTS * dim];
        for (shape, maps) in self.maps.iter().enumerate().filter(|&(k, _)| with[k]) {
            let table = &stage[OFFSETS[shape] * dim..];
            let rows = out[OFFSETS[shape] * dim..OFFSETS[shape + 1] * dim].chunks_exact_mut(dim);
            for (c, o) in rows.enumerate() {
                for m in maps {
                    let row = &table[m[c] as usize * dim..][..dim];
                    for (a, &x) in o.iter_mut().zip(row) {
                        *a += i32::from(x);
                    }
                }
                // As `fold`, whose i16 results these are.
                for a in o.iter_mut() {
                    *a = i32::from(*a as i16);
                }
            }
        }
        out
    }
}

/// For every configuration c of a shape, the index of the configuration whose digit j is
/// digit `perm[j]` of c.
fn permuted_indices(perm: &[usize]) -> Vec<u32> {
    let n = perm.len();
    let pow: Vec<u32> = (0..n).map(|j| 3u32.pow(j as u32)).collect();
    let mut digits = vec![0u32; n];
    (0..3u32.pow(n as u32))
        .map(|_| {
            let idx = perm.iter().zip(&pow).map(|(&i, &p)| digits[i] * p).sum();
            // Next configuration: a base-3 odometer.
            for d in digits.iter_mut() {
                *d += 1;
                if *d < 3 {
                    break;
                }
                *d = 0;
            }
            idx
        })
        .collect()
}

impl Default for Folding {
    fn default() -> Self {
        Folding::new()
    }
}

/// `reading` lists an instance's squares in digit order; the table maps the occupancy bits of
/// those squares, taken in ascending square order, to base-3 digits of 1 in digit order.
fn digit_table(reading: &[usize]) -> Vec<u16> {
    let mut ascending = reading.to_vec();
    ascending.sort_unstable();
    (0..DIGIT_TABLE)
        .map(|bits| {
            ascending
                .iter()
                .enumerate()
                .filter(|(k, _)| bits >> k & 1 != 0)
                .map(|(_, sq)| 3u16.pow(reading.iter().position(|r| r == sq).unwrap_or(0) as u32))
                .sum()
        })
        .collect()
}

/// Sum of the folded weights `w` (one stage) over the instances, portable version.
#[inline(always)]
pub fn sum_portable(p: u64, o: u64, instances: &[Instance], digits: &[u16], w: &[i16]) -> i32 {
    let mut sum = 0;
    for i in instances {
        let t = &digits[i.digits..][..DIGIT_TABLE];
        let idx = t[gather(p, i.cover) & 1023] as usize + 2 * t[gather(o, i.cover) & 1023] as usize;
        sum += w[i.offset + idx] as i32;
    }
    sum
}

/// The same with the BMI2 PEXT instruction.
///
/// # Safety
/// The CPU must support BMI2 (checked with `is_x86_feature_detected!`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
pub fn sum_bmi2(p: u64, o: u64, instances: &[Instance], digits: &[u16], w: &[i16]) -> i32 {
    use std::arch::x86_64::_pext_u64;
    let mut sum = 0;
    for i in instances {
        let t = &digits[i.digits..][..DIGIT_TABLE];
        let idx = t[_pext_u64(p, i.cover) as usize & 1023] as usize + 2 * t[_pext_u64(o, i.cover) as usize & 1023] as usize;
        sum += w[i.offset + idx] as i32;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_set_has_58_distinct_instances() {
        let f = Folding::new();
        assert_eq!(f.instances.len(), 58);
        // Each instance covers different squares from every other of its shape.
        for (k, a) in f.instances.iter().enumerate() {
            for b in &f.instances[k + 1..] {
                if a.offset == b.offset {
                    assert_ne!(a.cover, b.cover);
                }
            }
        }
    }

    #[test]
    fn folding_rows_gives_each_channel_as_folding_it_alone() {
        let f = Folding::new();
        let dim = 3;
        let mut rng = crate::rng::SplitMix(5);
        let stage: Vec<i16> = (0..PATTERN_WEIGHTS * dim).map(|_| rng.below(2001) as i16 - 1000).collect();
        // Every shape but the first two.
        let with: Vec<bool> = (0..OFFSETS.len() - 1).map(|k| k >= 2).collect();
        let rows = f.fold_rows(&stage, dim, &with);
        for k in 0..dim {
            let channel: Vec<i16> = (0..PATTERN_WEIGHTS).map(|r| stage[r * dim + k]).collect();
            let alone = f.fold(&channel);
            for r in 0..PATTERN_WEIGHTS {
                let expected = if r < OFFSETS[2] { 0 } else { i32::from(alone[r]) };
                assert_eq!(rows[r * dim + k], expected, "row {r} channel {k}");
            }
        }
    }
}
