//! An optional non-linear layer over the evaluation's own terms (issue 41 item 5; an
//! experiment, not the default): every term the linear model reads (each pattern instance's
//! configuration, the mobility pair, the potential-mobility pair, the offset by empties, the
//! edge moves) also reads a vector of `dim` numbers (8, 16 or 32); a position's vectors are summed and the
//! value gains `bias + Σ_k v_k · max(0, c_k + acc_k)` (discs). This is the first layer of an
//! NNUE, with the linear model kept beside it, and it is read at the same indices as the
//! linear weights, so the same symmetric folding serves it.
//!
//! The file `net.bin`: magic `OXNT`, version 2, the pattern set it was trained for, `dim`, a
//! mask of the stages it covers (bit s for stage s); then for each covered stage in order a
//! bitmap of its rows with a nonzero entry (`STAGE_WEIGHTS` bits, row r at bit r % 8 of byte
//! r / 8), the `dim` entries of each of those rows in order (little-endian i16 in 1/`QUANT`),
//! then `c`, `v` (`dim` little-endian f32 each) and the bias (f32); then an FNV-1a checksum of
//! everything before it. Stages without a net are evaluated by the linear model alone. A layer
//! on the small shapes leaves most rows zero (the big shapes', the unreached configurations'):
//! version 1 (still read), which stored every row, took 105 MB for one that now takes 13.
//!
//! Version 3 holds the layer as the engine reads it (`Net`), folded and in one byte an entry,
//! so that loading it is a copy: folding a layer with vectors on every shape (16 channels, 8
//! stages) took 0.64 s, which every new engine process paid, where a copy takes a few
//! hundredths. Magic, version 3, pattern set, `dim`, stage mask as above, then the fingerprint
//! of the folding it was made with (`layout_fingerprint`: a build that folds the terms
//! otherwise refuses the file rather than read its rows at the wrong places); for each covered
//! stage a bitmap of its nonzero rows, those rows (`dim` i8 each, within ±127), `c` (`dim`
//! i32), `v` (`dim` f32) and the bias (f32, 1/256 disc), the units `NetStage` holds them in;
//! then a checksum (`checksum`, FNV-1a over 8-byte words) of everything before it. The trainer
//! writes version 2 (`examples/embed_net.rs`), which keeps what was trained; `net_fold`
//! (or `ASSEMBLE`) makes the version 3 that ships.
//!
//! Versions 4 (as trained) and 5 (folded) add what follows the accumulator (issue 82: the
//! per-ply output stacks of Neural Reversi's form, in small): an output **head** per empties
//! count of a stage (`heads` = 1 or `STAGE_WIDTH`; a position reads head `min(empties, 59) %
//! STAGE_WIDTH`) and an optional **second layer** of `l2` units over the first's activations,
//! `Σ_j u_j · max(0, b2_j + Σ_k w2_jk · max(0, c_k + acc_k))` added to the value. The header
//! gains two words after what version 2 (resp. 3) holds, `heads` and `l2`; each stage's tail is
//! `c` (heads × dim), `v` (heads × dim), the biases (heads), `w2` (heads × l2 × dim, row j
//! after row j as trained, column k after column k folded), `b2` and `u` (heads × l2 each).
//! With one head and no second layer a file is written as version 2 (resp. 3), byte for byte
//! what it was.

use super::fold::Folding;
use super::patterns::{N_SHAPES, OFFSETS};
use super::weights::{self, EvalError, WeightsProblem};
use super::{STAGE_WEIGHTS, STAGE_WIDTH, STAGES};

pub const MAGIC: &[u8; 4] = b"OXNT";
/// The version `encode` writes: the layer as trained.
pub const VERSION: u32 = 2;
/// The version `Net::encode` writes: the layer folded for the engine.
pub const FOLDED_VERSION: u32 = 3;
const FOLDED_HEADER: usize = 24;
/// The vector lengths (hidden units) the engine reads: each has its own accumulation, a few
/// vector registers wide.
pub const DIMS: [usize; 3] = [8, 16, 32];
/// The longest of them: `NetStage` holds `c` and `v` at this length, zero past its `dim`.
const MAX_DIM: usize = 32;
/// The most units a second layer may have (versions 4 and 5).
pub const MAX_L2: usize = 32;
/// The version `encode` writes for a layer with heads per empties or a second layer.
pub const HEADED_VERSION: u32 = 4;
/// The version `Net::encode` writes for such a layer, folded.
pub const FOLDED_HEADED_VERSION: u32 = 5;
/// Trained entries are stored in 1/QUANT: the folded tables sum up to four entries, so a stored
/// entry is bounded by `weights::MAX_WEIGHT` (8 units).
pub const QUANT: f32 = 1024.0;
/// The share of a stage's folded entries that its one-byte scale represents without clipping:
/// the few beyond it saturate, so that they do not coarsen the scale of all the others.
const CLIP_QUANTILE: f64 = 0.9999;
const HEADER: usize = 20;

/// One stage's layer, folded as the linear weights are (`Evaluator::from_weights`) and held in
/// one byte an entry: a row is 8, 16 or 32 bytes, so a stage's table is a quarter to half of what
/// two-byte entries take and more of it stays in the caches.
#[derive(PartialEq)]
pub struct NetStage {
    dim: usize,
    /// The pattern instances (lanes of the incremental indices) whose shape has a nonzero
    /// vector somewhere in this stage: a layer trained with vectors on some shapes only
    /// (`SKIP_SQUARES` in `examples/embed_net.rs`) reads only those rows.
    lanes: Vec<u8>,
    /// `STAGE_WEIGHTS` rows of `dim` entries, in 1/`scale` unit.
    rows: Vec<i8>,
    /// One head, or one per empties count of the stage (`head_of`).
    heads: Vec<Head>,
}

/// What follows the accumulator for the positions one head serves.
#[derive(PartialEq)]
struct Head {
    /// `c` in 1/`scale` unit (zero past `dim`).
    c: [i32; MAX_DIM],
    /// `v` scaled so that `v · acc` (acc in 1/`scale` unit) is in 1/256 disc (zero past `dim`).
    v: [f32; MAX_DIM],
    /// In 1/256 disc.
    bias: f32,
    /// The second layer's units (0: none).
    l2: usize,
    /// `w2` in 1/`scale` of its trained value, column k (the first layer's unit k) after
    /// column k, `l2` entries each: the sum runs over the active units, a column at a time.
    w2: Vec<f32>,
    /// In units, `l2` each.
    b2: Vec<f32>,
    /// In 1/256 disc a unit.
    u: Vec<f32>,
}

/// The layer as trained (unfolded, in units), what the file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct RawStage {
    pub stage: usize,
    /// `STAGE_WEIGHTS × dim` entries in 1/QUANT, row after row.
    pub entries: Vec<i16>,
    /// `dim` numbers a head, head after head.
    pub c: Vec<f32>,
    pub v: Vec<f32>,
    /// One a head: 1, or `STAGE_WIDTH` (one per empties count of the stage).
    pub bias: Vec<f32>,
    /// The second layer's units (0: none); then `w2` holds `l2 × dim` numbers a head (unit j's
    /// row after row), `b2` and `u` `l2` a head.
    pub l2: usize,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub u: Vec<f32>,
}

impl RawStage {
    pub fn dim(&self) -> usize {
        self.entries.len() / STAGE_WEIGHTS
    }

    pub fn heads(&self) -> usize {
        self.bias.len()
    }

    /// The numbers after the rows, in file order.
    fn tail(&self) -> impl Iterator<Item = &f32> {
        self.c
            .iter()
            .chain(&self.v)
            .chain(&self.bias)
            .chain(&self.w2)
            .chain(&self.b2)
            .chain(&self.u)
    }
}

/// The numbers of a stage's tail: `c`, `v`, biases, `w2`, `b2`, `u`.
fn tail_numbers(dim: usize, heads: usize, l2: usize) -> usize {
    heads * (2 * dim + 1 + l2 * dim + 2 * l2)
}

/// Where a file's stages begin, its heads and second-layer units: a header of `base` bytes,
/// or, for the headed versions (4 and 5), two words more that give them, checked.
fn header_heads_l2(bytes: &[u8], base: usize, headed: bool, file: &str) -> Result<(usize, usize, usize), EvalError> {
    if !headed {
        return Ok((base, 1, 0));
    }
    if bytes.len() < base + 12 {
        return Err(truncated(file, bytes.len(), base + 12));
    }
    let (heads, l2) = (word(bytes, base) as usize, word(bytes, base + 4) as usize);
    if (heads != 1 && heads != STAGE_WIDTH as usize) || l2 > MAX_L2 {
        return Err(err(
            file,
            WeightsProblem::LayerEntry(format!(
                "{heads} heads and {l2} second-layer units (this reads 1 or {} heads, at most {MAX_L2} units)",
                STAGE_WIDTH
            )),
        ));
    }
    Ok((base + 8, heads, l2))
}

#[derive(PartialEq)]
pub struct Net {
    pub stages: Vec<Option<NetStage>>,
}

fn err(file: &str, problem: WeightsProblem) -> EvalError {
    EvalError {
        file: file.to_string(),
        problem,
    }
}

fn truncated(file: &str, len: usize, expected: usize) -> EvalError {
    err(file, WeightsProblem::Truncated { len, expected })
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The vector length and the stage mask a header (of at least `HEADER` bytes) gives, checked
/// against this build (pattern set, the lengths the engine has code for, the stages).
fn dim_and_mask(bytes: &[u8], file: &str) -> Result<(usize, u32), EvalError> {
    if word(bytes, 8) != weights::PATTERN_SET {
        return Err(err(file, WeightsProblem::PatternSet(word(bytes, 8))));
    }
    let (dim, mask) = (word(bytes, 12), word(bytes, 16));
    if !DIMS.contains(&(dim as usize)) || mask >> STAGES != 0 {
        return Err(err(
            file,
            WeightsProblem::Shape {
                stages: mask,
                per_stage: dim,
            },
        ));
    }
    Ok((dim as usize, mask))
}

/// The length, checksum included, that the header and the stages' bitmaps announce — each
/// stage a bitmap (none with `bitmaps` false: version 1 stores every row), `row_bytes` a row
/// it marks, `tail` bytes — worked out before anything else in the file is trusted.
fn announced_len(
    bytes: &[u8],
    file: &str,
    header: usize,
    stages: u32,
    bitmaps: bool,
    row_bytes: usize,
    tail: usize,
) -> Result<usize, EvalError> {
    let bitmap_len = STAGE_WEIGHTS.div_ceil(8);
    let mut expected = header;
    for _ in 0..stages {
        let rows = if !bitmaps {
            STAGE_WEIGHTS
        } else if expected + bitmap_len + 4 > bytes.len() {
            return Err(truncated(file, bytes.len(), expected + bitmap_len + 4));
        } else {
            let ones: u32 = bytes[expected..expected + bitmap_len].iter().map(|b| b.count_ones()).sum();
            expected += bitmap_len;
            ones as usize
        };
        expected += rows * row_bytes + tail;
    }
    Ok(expected + 4)
}

/// One stage's table as both versions store it: a bitmap of the rows (`dim` entries each) with
/// a nonzero entry, then those rows, each entry written by `put`.
fn put_sparse_rows<T: Copy + Default + PartialEq>(out: &mut Vec<u8>, table: &[T], dim: usize, put: impl Fn(T, &mut Vec<u8>)) {
    let mut bitmap = vec![0u8; STAGE_WEIGHTS.div_ceil(8)];
    let mut kept = Vec::new();
    for (r, row) in table.chunks_exact(dim).enumerate() {
        if row.iter().any(|&x| x != T::default()) {
            bitmap[r / 8] |= 1 << (r % 8);
            row.iter().for_each(|&x| put(x, &mut kept));
        }
    }
    out.extend_from_slice(&bitmap);
    out.extend_from_slice(&kept);
}

/// Whether `bytes` claim to be a folded layer (version 3 or 5), which only `Net::load` reads.
pub fn is_folded(bytes: &[u8]) -> bool {
    bytes.len() >= 8
        && &bytes[..4] == MAGIC
        && (bytes[4..8] == FOLDED_VERSION.to_le_bytes() || bytes[4..8] == FOLDED_HEADED_VERSION.to_le_bytes())
}

/// The file for `raw`, whose stages must share one `dim`, heads count and second layer (the
/// trainer's output does): version 2, or 4 where there are heads or a second layer.
pub fn encode(raw: &[RawStage]) -> Vec<u8> {
    let first = raw.first();
    let dim = first.map_or(DIMS[1], RawStage::dim);
    let (heads, l2) = first.map_or((1, 0), |s| (s.heads(), s.l2));
    assert!(raw.iter().all(|s| s.dim() == dim
        && s.heads() == heads
        && s.l2 == l2
        && s.tail().count() == tail_numbers(dim, heads, l2)
        && s.entries.len() == STAGE_WEIGHTS * dim));
    let plain = heads == 1 && l2 == 0;
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    let mask = raw.iter().fold(0u32, |m, s| m | 1 << s.stage);
    let version = if plain { VERSION } else { HEADED_VERSION };
    for v in [version, weights::PATTERN_SET, dim as u32, mask] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    if !plain {
        for v in [heads as u32, l2 as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    let mut sorted: Vec<&RawStage> = raw.iter().collect();
    sorted.sort_by_key(|s| s.stage);
    for s in sorted {
        // One pass fills the bitmap and the kept rows; the bitmap goes first in the file.
        put_sparse_rows(&mut out, &s.entries, dim, |e, bytes| bytes.extend(e.to_le_bytes()));
        for x in s.tail() {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = weights::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

pub fn decode(bytes: &[u8], file: &str) -> Result<Vec<RawStage>, EvalError> {
    if bytes.len() < HEADER + 4 {
        return Err(truncated(file, bytes.len(), HEADER + 4));
    }
    if &bytes[..4] != MAGIC {
        return Err(err(file, WeightsProblem::BadMagic));
    }
    let version = word(bytes, 4);
    if version != 1 && version != VERSION && version != HEADED_VERSION {
        return Err(err(
            file,
            WeightsProblem::LayerVersion {
                version,
                reads: "versions 1, 2 and 4, the layer as trained (versions 3 and 5 hold it folded for the engine)",
            },
        ));
    }
    let (dim, mask) = dim_and_mask(bytes, file)?;
    let (header, heads, l2) = header_heads_l2(bytes, HEADER, version == HEADED_VERSION, file)?;
    let tail = tail_numbers(dim, heads, l2) * 4;
    let bitmap_len = STAGE_WEIGHTS.div_ceil(8);
    let expected = announced_len(bytes, file, header, mask.count_ones(), version != 1, dim * 2, tail)?;
    if bytes.len() != expected {
        return Err(truncated(file, bytes.len(), expected));
    }
    let end = expected - 4;
    let stored = word(bytes, end);
    let computed = weights::fnv1a(&bytes[..end]);
    if stored != computed {
        return Err(err(file, WeightsProblem::Checksum { stored, computed }));
    }
    let mut out = Vec::new();
    let mut at = header;
    for stage in (0..STAGES).filter(|s| mask >> s & 1 == 1) {
        // The rows this stage stores, in order.
        let rows: Vec<usize> = if version == 1 {
            (0..STAGE_WEIGHTS).collect()
        } else {
            let bitmap = &bytes[at..at + bitmap_len];
            at += bitmap_len;
            (0..STAGE_WEIGHTS).filter(|&r| bitmap[r / 8] >> (r % 8) & 1 == 1).collect()
        };
        let size = rows.len() * dim * 2;
        let mut entries = vec![0i16; STAGE_WEIGHTS * dim];
        let values = bytes[at..at + size].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]));
        let slots = rows.iter().flat_map(|&r| r * dim..(r + 1) * dim);
        for (slot, value) in slots.zip(values) {
            if value.abs() > weights::MAX_WEIGHT {
                return Err(err(file, WeightsProblem::Range { index: slot, value }));
            }
            entries[slot] = value;
        }
        at += size;
        let mut numbers = bytes[at..at + tail]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut take = |n: usize| (&mut numbers).take(n).collect::<Vec<f32>>();
        let (c, v, bias) = (take(heads * dim), take(heads * dim), take(heads));
        let (w2, b2, u) = (take(heads * l2 * dim), take(heads * l2), take(heads * l2));
        at += tail;
        out.push(RawStage {
            stage,
            entries,
            c,
            v,
            bias,
            l2,
            w2,
            b2,
            u,
        });
    }
    Ok(out)
}

/// A stage's layer folded as the linear weights are (row after row, `dim` entries a row, in
/// 1/QUANT; i32 for the scale's arithmetic).
fn fold(s: &RawStage, folding: &Folding, fold_edges: impl Fn(&[i16]) -> Vec<i16>) -> Vec<i32> {
    let dim = s.dim();
    // The shapes with a vector: the trainer leaves the big shapes without (SKIP_SQUARES), and
    // their tables are most of the rows.
    let with: Vec<bool> = (0..N_SHAPES)
        .map(|k| s.entries[OFFSETS[k] * dim..OFFSETS[k + 1] * dim].iter().any(|&x| x != 0))
        .collect();
    let mut folded = folding.fold_rows(&s.entries, dim, &with);
    folded.resize(STAGE_WEIGHTS * dim, 0);
    let (patterns, edge) = (super::PATTERN_WEIGHTS, super::EDGE_MOBILITY);
    for (slot, &x) in s.entries[patterns * dim..edge * dim].iter().enumerate() {
        folded[patterns * dim + slot] = i32::from(x);
    }
    for k in 0..dim {
        let channel: Vec<i16> = (edge..STAGE_WEIGHTS).map(|r| s.entries[r * dim + k]).collect();
        for (r, x) in fold_edges(&channel).into_iter().enumerate() {
            folded[(edge + r) * dim + k] = i32::from(x);
        }
    }
    folded
}

/// The magnitude the one-byte entries reach (127): `CLIP_QUANTILE` of the nonzero ones.
fn clip_top(folded: &[i32]) -> i32 {
    let mut mags: Vec<i32> = folded.iter().map(|x| x.abs()).filter(|&x| x > 0).collect();
    if mags.is_empty() {
        return 1;
    }
    let at = ((mags.len() - 1) as f64 * CLIP_QUANTILE) as usize;
    *mags.select_nth_unstable(at).1
}

impl Net {
    /// The layer folded for the evaluation: each channel folded as a linear weight table, then
    /// put in one byte an entry at a scale of the stage's own.
    pub fn new(raw: &[RawStage], folding: &Folding, fold_edges: impl Fn(&[i16]) -> Vec<i16>) -> Net {
        let mut stages: Vec<Option<NetStage>> = (0..STAGES).map(|_| None).collect();
        for s in raw {
            let dim = s.dim();
            let folded = fold(s, folding, &fold_edges);
            // Each shape's table scanned once (an instance's `offset` is its shape's).
            let vectored: Vec<bool> = (0..N_SHAPES)
                .map(|k| folded[OFFSETS[k] * dim..OFFSETS[k + 1] * dim].iter().any(|&x| x != 0))
                .collect();
            let lanes = lanes_of(folding, &vectored);
            let top = clip_top(&folded);
            // One byte step = `top / 127` of 1/QUANT unit: `scale` steps a unit.
            let scale = 127.0 * QUANT / top as f32;
            let rows = folded
                .iter()
                // Most entries are zero (the shapes without vectors): no rounding for them.
                .map(|&x| match x {
                    0 => 0,
                    _ => (x as f32 * 127.0 / top as f32).round().clamp(-127.0, 127.0) as i8,
                })
                .collect();
            let l2 = s.l2;
            let heads = (0..s.heads())
                .map(|h| {
                    let mut c = [0i32; MAX_DIM];
                    let mut v = [0f32; MAX_DIM];
                    for k in 0..dim {
                        c[k] = (s.c[h * dim + k] * scale).round() as i32;
                        v[k] = s.v[h * dim + k] * 256.0 / scale;
                    }
                    // Column k after column k: the trainer's row j, entry k at `k · l2 + j`.
                    let w2 = (0..dim * l2)
                        .map(|i| s.w2[(h * l2 + i % l2) * dim + i / l2] / scale)
                        .collect();
                    Head {
                        c,
                        v,
                        bias: s.bias[h] * 256.0,
                        l2,
                        w2,
                        b2: s.b2[h * l2..][..l2].to_vec(),
                        u: s.u[h * l2..][..l2].iter().map(|u| u * 256.0).collect(),
                    }
                })
                .collect();
            stages[s.stage] = Some(NetStage { dim, lanes, rows, heads });
        }
        Net { stages }
    }
}

/// The pattern instances whose shape has a vector (`vectored[shape]`): the lanes a stage reads.
fn lanes_of(folding: &Folding, vectored: &[bool]) -> Vec<u8> {
    (0..folding.instances.len())
        .filter(|&i| (0..N_SHAPES).any(|k| OFFSETS[k] == folding.instances[i].offset && vectored[k]))
        .map(|i| i as u8)
        .collect()
}

/// FNV-1a over little-endian 8-byte words (then the bytes left over), folded to 32 bits:
/// the byte-wise FNV-1a of version 2 is eight times slower, and a folded layer is read
/// whole by every engine process that searches a level marked `layer`.
pub fn checksum(bytes: &[u8]) -> u32 {
    const PRIME: u64 = 0x0000_0100_0000_01B3;
    let mut words = bytes.chunks_exact(8);
    let mut h = 0xCBF2_9CE4_8422_2325u64;
    for w in &mut words {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(PRIME);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    (h ^ h >> 32) as u32
}

/// A fingerprint of how `folding` and `fold_edges` lay out a stage's folded rows: a table of
/// fixed pseudo-random entries, folded as a layer of one channel, hashed. A version-3 file
/// records the one it was folded with; a build whose folding differs (another instance
/// order, another representative image) would read its rows at the wrong places.
pub fn layout_fingerprint(folding: &Folding, fold_edges: impl Fn(&[i16]) -> Vec<i16>) -> u32 {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let entries = (0..STAGE_WEIGHTS)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) % 2001) as i16 - 1000
        })
        .collect();
    let probe = RawStage {
        stage: 0,
        entries,
        c: vec![0.0],
        v: vec![0.0],
        bias: vec![0.0],
        l2: 0,
        w2: Vec::new(),
        b2: Vec::new(),
        u: Vec::new(),
    };
    let folded = fold(&probe, folding, fold_edges);
    let bytes: Vec<u8> = folded.iter().flat_map(|x| x.to_le_bytes()).collect();
    checksum(&bytes)
}

impl Net {
    /// The layer in a `net.bin` of any version: version 3 copied as it is, versions 1 and 2
    /// (the layer as trained) folded here (`Net::new`).
    pub fn load(bytes: &[u8], file: &str, folding: &Folding, fold_edges: impl Fn(&[i16]) -> Vec<i16>) -> Result<Net, EvalError> {
        if is_folded(bytes) {
            let fingerprint = layout_fingerprint(folding, &fold_edges);
            Net::decode(bytes, file, folding, fingerprint)
        } else {
            Ok(Net::new(&decode(bytes, file)?, folding, fold_edges))
        }
    }

    /// The version-3 file of this layer (its stages must share one `dim`; `Net::new` of a
    /// trainer's file gives that), for the folding whose fingerprint is `fingerprint`.
    pub fn encode(&self, fingerprint: u32) -> Vec<u8> {
        let covered: Vec<(usize, &NetStage)> = self
            .stages
            .iter()
            .enumerate()
            .filter_map(|(k, s)| Some((k, s.as_ref()?)))
            .collect();
        let dim = covered.first().map_or(DIMS[1], |(_, s)| s.dim);
        let (heads, l2) = covered.first().map_or((1, 0), |(_, s)| (s.heads.len(), s.heads[0].l2));
        assert!(
            covered
                .iter()
                .all(|(_, s)| s.dim == dim && s.heads.len() == heads && s.heads[0].l2 == l2),
            "one net.bin holds one size"
        );
        let plain = heads == 1 && l2 == 0;
        let mask = covered.iter().fold(0u32, |m, (k, _)| m | 1 << k);
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let version = if plain { FOLDED_VERSION } else { FOLDED_HEADED_VERSION };
        for v in [version, weights::PATTERN_SET, dim as u32, mask, fingerprint] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if !plain {
            for v in [heads as u32, l2 as u32] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let put = |out: &mut Vec<u8>, x: &[f32]| x.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        for (_, s) in covered {
            put_sparse_rows(&mut out, &s.rows, dim, |e, bytes| bytes.push(e as u8));
            for h in &s.heads {
                h.c[..dim].iter().for_each(|c| out.extend_from_slice(&c.to_le_bytes()));
            }
            s.heads.iter().for_each(|h| put(&mut out, &h.v[..dim]));
            s.heads.iter().for_each(|h| put(&mut out, &[h.bias]));
            s.heads.iter().for_each(|h| put(&mut out, &h.w2));
            s.heads.iter().for_each(|h| put(&mut out, &h.b2));
            s.heads.iter().for_each(|h| put(&mut out, &h.u));
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A version-3 file's layer, checked whole (length, checksum, fingerprint `layout`, every
    /// entry within what the engine's arithmetic takes) before any of it is used.
    fn decode(bytes: &[u8], file: &str, folding: &Folding, layout: u32) -> Result<Net, EvalError> {
        if bytes.len() < FOLDED_HEADER + 4 {
            return Err(truncated(file, bytes.len(), FOLDED_HEADER + 4));
        }
        let (dim, mask) = dim_and_mask(bytes, file)?;
        let headed = word(bytes, 4) == FOLDED_HEADED_VERSION;
        let (header, heads, l2) = header_heads_l2(bytes, FOLDED_HEADER, headed, file)?;
        let tail = tail_numbers(dim, heads, l2) * 4;
        let bitmap_len = STAGE_WEIGHTS.div_ceil(8);
        let expected = announced_len(bytes, file, header, mask.count_ones(), true, dim, tail)?;
        if bytes.len() != expected {
            return Err(truncated(file, bytes.len(), expected));
        }
        let end = expected - 4;
        let (stored, computed) = (word(bytes, end), checksum(&bytes[..end]));
        if stored != computed {
            return Err(err(file, WeightsProblem::Checksum { stored, computed }));
        }
        if word(bytes, 20) != layout {
            return Err(err(
                file,
                WeightsProblem::Layout {
                    stored: word(bytes, 20),
                    computed: layout,
                },
            ));
        }
        let entry = |what: String| err(file, WeightsProblem::LayerEntry(what));
        let mut stages: Vec<Option<NetStage>> = (0..STAGES).map(|_| None).collect();
        let mut at = header;
        for stage in (0..STAGES).filter(|s| mask >> s & 1 == 1) {
            let bitmap = &bytes[at..at + bitmap_len];
            at += bitmap_len;
            let ones = bitmap.iter().map(|b| b.count_ones() as usize).sum::<usize>();
            let stored = &bytes[at..at + ones * dim];
            let has_row = |r: usize| bitmap[r / 8] >> (r % 8) & 1 == 1;
            // The bitmap's padding bits past the last row would name no row.
            if let Some(r) = (STAGE_WEIGHTS..bitmap_len * 8).find(|&r| has_row(r)) {
                return Err(entry(format!(
                    "stage {stage}: the bitmap names row {r}, beyond the {STAGE_WEIGHTS} rows"
                )));
            }
            // Copied a run of consecutive rows at a time (most rows come in long runs): a row
            // at a time took a third of the load.
            let mut rows = vec![0i8; STAGE_WEIGHTS * dim];
            let (mut r, mut from, mut below) = (0, 0, false);
            while r < STAGE_WEIGHTS {
                if r % 8 == 0 && bitmap[r / 8] == 0 {
                    r += 8;
                    continue;
                }
                let start = r;
                while r < STAGE_WEIGHTS && has_row(r) {
                    r += 1;
                }
                let n = (r - start) * dim;
                for (d, &b) in rows[start * dim..][..n].iter_mut().zip(&stored[from..from + n]) {
                    *d = b as i8;
                    // Checked in the copy's own pass: a scan apart took a third of the load.
                    below |= b == 0x80;
                }
                from += n;
                r += usize::from(r == start);
            }
            // -128 is the one byte beyond ±127, the bound under which `value_avx2`'s 16-bit
            // sums of up to 258 rows cannot overflow.
            if below {
                let i = stored.iter().position(|&b| b == 0x80).unwrap_or_default();
                return Err(entry(format!("stage {stage}: stored entry {i} is -128, outside +-127")));
            }
            let vectored: Vec<bool> = (0..N_SHAPES).map(|k| (OFFSETS[k]..OFFSETS[k + 1]).any(has_row)).collect();
            at += ones * dim;
            let number = |k: usize| [bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]];
            let float = |k: usize| f32::from_le_bytes(number(k));
            // Where each part of the tail begins (`Net::encode`'s order).
            let (c_at, v_at) = (at, at + 4 * heads * dim);
            let bias_at = v_at + 4 * heads * dim;
            let w2_at = bias_at + 4 * heads;
            let (b2_at, u_at) = (w2_at + 4 * heads * l2 * dim, w2_at + 4 * heads * l2 * (dim + 1));
            let mut head_list = Vec::with_capacity(heads);
            for h in 0..heads {
                let mut c = [0i32; MAX_DIM];
                let mut v = [0f32; MAX_DIM];
                for k in 0..dim {
                    c[k] = i32::from_le_bytes(number(c_at + 4 * (h * dim + k)));
                    v[k] = float(v_at + 4 * (h * dim + k));
                    // `acc + c` stays far within i32 (acc is at most 258 rows of 127).
                    if c[k].unsigned_abs() > 1 << 24 || !v[k].is_finite() {
                        return Err(entry(format!("stage {stage}: unit {k} has c = {}, v = {}", c[k], v[k])));
                    }
                }
                let bias = float(bias_at + 4 * h);
                if !bias.is_finite() {
                    return Err(entry(format!("stage {stage}: the bias is {bias}")));
                }
                let w2: Vec<f32> = (0..l2 * dim).map(|i| float(w2_at + 4 * (h * l2 * dim + i))).collect();
                let b2: Vec<f32> = (0..l2).map(|j| float(b2_at + 4 * (h * l2 + j))).collect();
                let u: Vec<f32> = (0..l2).map(|j| float(u_at + 4 * (h * l2 + j))).collect();
                if let Some(x) = w2.iter().chain(&b2).chain(&u).find(|x| !x.is_finite()) {
                    return Err(entry(format!("stage {stage}: a second-layer weight is {x}")));
                }
                head_list.push(Head {
                    c,
                    v,
                    bias,
                    l2,
                    w2,
                    b2,
                    u,
                });
            }
            at += tail;
            stages[stage] = Some(NetStage {
                dim,
                lanes: lanes_of(folding, &vectored),
                rows,
                heads: head_list,
            });
        }
        Ok(Net { stages })
    }
}

impl NetStage {
    /// The pattern instances this stage's layer reads.
    pub fn lanes(&self) -> &[u8] {
        &self.lanes
    }

    /// The head a position of `empties` empties reads.
    #[inline(always)]
    pub fn head_of(&self, empties: u32) -> usize {
        if self.heads.len() == 1 {
            0
        } else {
            (empties.min(59) % STAGE_WIDTH) as usize
        }
    }

    /// The layer's value in 1/256 disc for the folded rows `rows` of one position, read
    /// through head `head` (`head_of`).
    #[inline(always)]
    pub fn value(&self, rows: &[u32], head: usize) -> i32 {
        let mut acc = [0i32; MAX_DIM];
        for &r in rows {
            // An index outside the table would be a bug in the caller; the bounds check keeps
            // it a panic rather than a wild read, and costs little beside the row's load.
            let row = &self.rows[r as usize * self.dim..][..self.dim];
            for (a, &x) in acc.iter_mut().zip(row) {
                *a += i32::from(x);
            }
        }
        self.output(&acc, &self.heads[head])
    }

    /// The same with AVX2, from the instances' indices `me` and their table offsets (the row
    /// of instance i is `offsets[i] + me[i]`) and the other terms' rows: a row is one 8- or 16-byte load or two
    /// 16-byte loads (32 units), widened to i16 lanes (at most 258 rows of ±127 stay within i16). Gives
    /// exactly what `value` gives.
    ///
    /// # Safety
    /// The CPU must support AVX2, and every `offsets[i] + me[i]` and every `others` entry must
    /// be a row of the table (below `STAGE_WEIGHTS`): rows are read unchecked.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub unsafe fn value_avx2(&self, me: &[u16], offsets: &[u32], others: &[u32; 7], head: usize) -> i32 {
        use std::arch::x86_64::*;
        debug_assert!(me.len() + others.len() <= 258 && me.len() <= offsets.len());
        let head = &self.heads[head];
        // The accumulator, for the second layer (where there is one) to read as `output` does.
        let mut spill = [0i32; MAX_DIM];
        let second = head.l2 > 0;
        let mut keep = |at: usize, x: __m256i| {
            if second {
                // SAFETY: `at` is 0, 8, 16 or 24: eight i32 within `spill`'s 32.
                unsafe { _mm256_storeu_si256(spill.as_mut_ptr().add(at) as *mut __m256i, x) }
            }
        };
        let rows = self
            .lanes
            .iter()
            .map(|&i| offsets[i as usize] + u32::from(me[i as usize]))
            .chain(others.iter().copied());
        let base = self.rows.as_ptr();
        let unit = |a, c, v| {
            _mm256_mul_ps(
                _mm256_cvtepi32_ps(_mm256_max_epi32(_mm256_add_epi32(a, c), _mm256_setzero_si256())),
                v,
            )
        };
        // The units' c and v, eight a load.
        // SAFETY: `c` and `v` hold `MAX_DIM` (32) numbers each; loads take any alignment.
        let cv = |k: usize| unsafe {
            (
                _mm256_loadu_si256(head.c.as_ptr().add(k) as *const __m256i),
                _mm256_loadu_ps(head.v.as_ptr().add(k)),
            )
        };
        let widen = |acc: __m256i| {
            (
                _mm256_cvtepi16_epi32(_mm256_castsi256_si128(acc)),
                _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(acc)),
            )
        };
        // `s8` is `output`'s eight-lane stage: units k and k + 16 (when there are 32), then k + 8.
        let s8 = match self.dim {
            32 => {
                let (mut a, mut b) = (_mm256_setzero_si256(), _mm256_setzero_si256());
                for r in rows {
                    debug_assert!((r as usize) < STAGE_WEIGHTS);
                    // SAFETY: row `r` is in the table (the contract), 32 bytes at `32 r`; the
                    // loads take any alignment.
                    let (x, y) = unsafe {
                        let at = base.add(r as usize * 32);
                        (
                            _mm_loadu_si128(at as *const __m128i),
                            _mm_loadu_si128(at.add(16) as *const __m128i),
                        )
                    };
                    a = _mm256_add_epi16(a, _mm256_cvtepi8_epi16(x));
                    b = _mm256_add_epi16(b, _mm256_cvtepi8_epi16(y));
                }
                let ((u0, u8), (u16, u24)) = (widen(a), widen(b));
                keep(0, u0);
                keep(8, u8);
                keep(16, u16);
                keep(24, u24);
                let (p0, p8, p16, p24) = (
                    unit(u0, cv(0).0, cv(0).1),
                    unit(u8, cv(8).0, cv(8).1),
                    unit(u16, cv(16).0, cv(16).1),
                    unit(u24, cv(24).0, cv(24).1),
                );
                _mm256_add_ps(_mm256_add_ps(p0, p16), _mm256_add_ps(p8, p24))
            }
            16 => {
                let mut acc = _mm256_setzero_si256();
                for r in rows {
                    debug_assert!((r as usize) < STAGE_WEIGHTS);
                    // SAFETY: row `r` is in the table (the contract), 16 bytes at `16 r`; the
                    // load takes any alignment.
                    let x = unsafe { _mm_loadu_si128(base.add(r as usize * 16) as *const __m128i) };
                    acc = _mm256_add_epi16(acc, _mm256_cvtepi8_epi16(x));
                }
                let (lo, hi) = widen(acc);
                keep(0, lo);
                keep(8, hi);
                _mm256_add_ps(unit(lo, cv(0).0, cv(0).1), unit(hi, cv(8).0, cv(8).1))
            }
            _ => {
                let mut acc = _mm_setzero_si128();
                for r in rows {
                    debug_assert!((r as usize) < STAGE_WEIGHTS);
                    // SAFETY: row `r` is in the table, 8 bytes at `8 r`.
                    let x = unsafe { _mm_loadl_epi64(base.add(r as usize * 8) as *const __m128i) };
                    acc = _mm_add_epi16(acc, _mm_cvtepi8_epi16(x));
                }
                // Units 8-15 are zeros (c = v = 0): their term is +0.0, as in `output`.
                let zero = unit(_mm256_setzero_si256(), cv(8).0, cv(8).1);
                let wide = _mm256_cvtepi16_epi32(acc);
                keep(0, wide);
                _mm256_add_ps(unit(wide, cv(0).0, cv(0).1), zero)
            }
        };
        let s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps::<1>(s8));
        let s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
        let s1 = _mm_add_ss(s2, _mm_shuffle_ps::<0b01>(s2, s2));
        let first = head.bias + _mm_cvtss_f32(s1);
        if second {
            (first + head.second(self.dim, &spill)).round_ties_even() as i32
        } else {
            first.round_ties_even() as i32
        }
    }

    /// `bias + Σ_k v_k · max(0, acc_k + c_k)` rounded, summed as a tree (lanes k and k + 16,
    /// then k and k + 8, k and k + 4, k and k + 2, the last two) so that the vector copy sums
    /// in the same order and gives the same value. Units past `dim` have `c = v = 0`, so
    /// their terms are zeros, which change no sum (a layer of 16 units gives what it gave
    /// when this tree began at k + 8).
    #[inline(always)]
    fn output(&self, acc: &[i32; MAX_DIM], head: &Head) -> i32 {
        let p: [f32; MAX_DIM] = std::array::from_fn(|k| (acc[k] + head.c[k]).max(0) as f32 * head.v[k]);
        let s16: [f32; 16] = std::array::from_fn(|k| p[k] + p[k + 16]);
        let s8: [f32; 8] = std::array::from_fn(|k| s16[k] + s16[k + 8]);
        let s4: [f32; 4] = std::array::from_fn(|k| s8[k] + s8[k + 4]);
        let s2: [f32; 2] = std::array::from_fn(|k| s4[k] + s4[k + 2]);
        let first = head.bias + (s2[0] + s2[1]);
        // Ties to even: one instruction, where `round` is a library call.
        if head.l2 > 0 {
            (first + head.second(self.dim, acc)).round_ties_even() as i32
        } else {
            first.round_ties_even() as i32
        }
    }
}

impl Head {
    /// The second layer's part of the value (1/256 disc) from the accumulator `acc` (1/`scale`
    /// unit): one code for every kernel, so that they give the same sums in the same order.
    #[inline(always)]
    fn second(&self, dim: usize, acc: &[i32; MAX_DIM]) -> f32 {
        let l2 = self.l2;
        let mut z = [0f32; MAX_L2];
        z[..l2].copy_from_slice(&self.b2);
        for (k, col) in self.w2.chunks_exact(l2).take(dim).enumerate() {
            let x = (acc[k] + self.c[k]).max(0);
            // An inactive unit adds nothing: skipped, in every kernel alike.
            if x == 0 {
                continue;
            }
            let x = x as f32;
            for (zj, &w) in z[..l2].iter_mut().zip(col) {
                *zj += w * x;
            }
        }
        z[..l2].iter().zip(&self.u).fold(0.0, |s, (zj, u)| s + zj.max(0.0) * u)
    }
}

/// A layer of random entries for every stage (other modules' tests: something that moves
/// the value a lot).
#[cfg(test)]
pub(crate) fn random_layers(dim: usize) -> Vec<RawStage> {
    (0..STAGES).map(|s| tests::raw(s, s as u64 + 7, dim)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn raw(stage: usize, seed: u64, dim: usize) -> RawStage {
        let mut x = seed;
        let entries = (0..STAGE_WEIGHTS * dim)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((x >> 33) % 2001) as i16 - 1000
            })
            .collect();
        RawStage {
            stage,
            entries,
            c: (0..dim).map(|k| k as f32 * 0.1).collect(),
            v: (0..dim).map(|k| 1.0 - k as f32 * 0.1).collect(),
            bias: vec![-0.5],
            l2: 0,
            w2: Vec::new(),
            b2: Vec::new(),
            u: Vec::new(),
        }
    }

    /// `raw` with `heads` output heads, each its own, and a second layer of `l2` units.
    pub(super) fn raw_headed(stage: usize, seed: u64, dim: usize, heads: usize, l2: usize) -> RawStage {
        let mut x = seed ^ 0x5DEE_CE66;
        let mut next = move || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) % 2001) as f32 / 1000.0 - 1.0
        };
        let base = raw(stage, seed, dim);
        RawStage {
            c: (0..heads * dim).map(|i| base.c[i % dim] + 0.3 * next()).collect(),
            v: (0..heads * dim).map(|i| base.v[i % dim] + 0.3 * next()).collect(),
            bias: (0..heads).map(|h| -0.5 + h as f32 * 0.25).collect(),
            l2,
            w2: (0..heads * l2 * dim).map(|_| 0.5 * next()).collect(),
            b2: (0..heads * l2).map(|_| 0.5 * next()).collect(),
            u: (0..heads * l2).map(|_| 2.0 * next()).collect(),
            ..base
        }
    }

    /// The shipped weights, a random layer for every stage, the two together, and the moves
    /// of a game that runs from 60 to 44 empties (stages 9 to 7).
    const LINE: [usize; 16] = [37, 43, 34, 29, 26, 20, 19, 42, 21, 18, 17, 44, 33, 25, 45, 41];
    fn with_random_layers(dim: usize) -> (crate::eval::Evaluator, Vec<RawStage>, crate::eval::Evaluator) {
        let shipped = crate::eval::Evaluator::embedded().expect("embedded weights");
        let layers: Vec<RawStage> = (0..STAGES).map(|s| raw(s, s as u64 + 7, dim)).collect();
        let e = shipped.clone().with_net(&layers);
        (shipped, layers, e)
    }

    #[test]
    fn a_net_file_round_trips_and_damage_is_named() {
        for dim in DIMS {
            let stages = vec![raw(5, 1, dim), raw(3, 2, dim)];
            let bytes = encode(&stages);
            let back = decode(&bytes, "n.bin").expect("decodes");
            assert_eq!(back, vec![raw(3, 2, dim), raw(5, 1, dim)]);
            let cut = decode(&bytes[..bytes.len() - 1], "n.bin").expect_err("truncated");
            assert!(matches!(cut.problem, WeightsProblem::Truncated { .. }), "{cut}");
            let mut flipped = bytes.clone();
            flipped[HEADER + STAGE_WEIGHTS.div_ceil(8) + 7] ^= 1;
            let bad = decode(&flipped, "n.bin").expect_err("checksum");
            assert!(matches!(bad.problem, WeightsProblem::Checksum { .. }), "{bad}");
            assert!(bad.to_string().contains("n.bin"));
        }
        let mut odd = encode(&[raw(5, 1, 8)]);
        odd[12] = 12;
        let shape = decode(&odd, "n.bin").expect_err("a vector length the engine has no code for");
        assert!(
            matches!(shape.problem, WeightsProblem::Shape { per_stage: 12, .. }),
            "{shape}"
        );
    }

    /// A layer with zero rows (the big shapes', the unreached ones) stores only the others,
    /// decodes to the same entries, and the first version's files, which stored every row,
    /// still read.
    #[test]
    fn a_file_stores_only_the_nonzero_rows_and_version_1_still_reads() {
        use crate::eval::patterns::SHAPES;
        let mut stages = vec![raw(2, 3, 16), raw(6, 4, 16)];
        for l in &mut stages {
            for k in (0..N_SHAPES).filter(|&k| SHAPES[k].len() >= 10) {
                l.entries[OFFSETS[k] * 16..OFFSETS[k + 1] * 16]
                    .iter_mut()
                    .for_each(|x| *x = 0);
            }
            // A row with one nonzero entry is kept whole.
            l.entries[(OFFSETS[N_SHAPES] + 3) * 16..(OFFSETS[N_SHAPES] + 4) * 16].fill(0);
            l.entries[(OFFSETS[N_SHAPES] + 5) * 16..(OFFSETS[N_SHAPES] + 6) * 16].fill(0);
            l.entries[(OFFSETS[N_SHAPES] + 5) * 16 + 15] = 9;
        }
        let bytes = encode(&stages);
        let nonzero: usize = (0..STAGE_WEIGHTS)
            .filter(|&r| stages[0].entries[r * 16..][..16].iter().any(|&x| x != 0))
            .count();
        let big: usize = (0..N_SHAPES)
            .filter(|&k| SHAPES[k].len() >= 10)
            .map(|k| OFFSETS[k + 1] - OFFSETS[k])
            .sum();
        assert!(nonzero < STAGE_WEIGHTS - big, "{nonzero} rows");
        assert_eq!(
            bytes.len(),
            HEADER + 2 * (STAGE_WEIGHTS.div_ceil(8) + nonzero * 16 * 2 + 33 * 4) + 4
        );
        assert_eq!(decode(&bytes, "n.bin").expect("decodes"), stages);
        // Version 1: every row.
        let mut v1 = Vec::new();
        v1.extend_from_slice(MAGIC);
        for w in [1, weights::PATTERN_SET, 16, 1 << 2 | 1 << 6] {
            v1.extend_from_slice(&w.to_le_bytes());
        }
        for s in &stages {
            for e in &s.entries {
                v1.extend_from_slice(&e.to_le_bytes());
            }
            for x in s.c.iter().chain(&s.v).chain(&s.bias) {
                v1.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = weights::fnv1a(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(decode(&v1, "v1.bin").expect("version 1 decodes"), stages);
        let mut later = bytes.clone();
        later[4] = 3;
        assert!(matches!(
            decode(&later, "n.bin").expect_err("version 3").problem,
            WeightsProblem::LayerVersion { version: 3, .. }
        ));
        // The last stage's bitmap with a stored row left out: the file holds more than its
        // header and bitmaps account for.
        let mut fewer = bytes[..bytes.len() - 4].to_vec();
        let second = HEADER + STAGE_WEIGHTS.div_ceil(8) + nonzero * 32 + 33 * 4;
        fewer[second + OFFSETS[1] / 8] &= !(1 << (OFFSETS[1] % 8));
        let sum = weights::fnv1a(&fewer);
        fewer.extend_from_slice(&sum.to_le_bytes());
        let e = decode(&fewer, "n.bin").expect_err("a row fewer than the bytes");
        assert!(matches!(e.problem, WeightsProblem::Truncated { .. }), "{e}");
        assert!(e.to_string().contains("n.bin"));
    }

    /// A folded file (version 3) gives back the layer `Net::new` made, row for row; the
    /// engine reads it from the same bytes whichever version it was given; damage is named.
    #[test]
    fn a_folded_file_loads_as_the_layer_it_was_folded_from() {
        use crate::eval::fold_edge_table;
        let folding = Folding::shared();
        let layout = layout_fingerprint(folding, fold_edge_table);
        for dim in DIMS {
            let raw = vec![raw(1, 11, dim), raw(4, 12, dim), raw(8, 13, dim)];
            let made = Net::new(&raw, folding, fold_edge_table);
            let bytes = made.encode(layout);
            assert_eq!(bytes[4..8], FOLDED_VERSION.to_le_bytes());
            let loaded = Net::load(&bytes, "n3.bin", folding, fold_edge_table).expect("loads");
            assert!(loaded == made, "dim {dim}: the folded file reads back as another layer");
            assert!(
                loaded
                    .stages
                    .iter()
                    .enumerate()
                    .all(|(k, s)| s.is_some() == [1, 4, 8].contains(&k))
            );
            // The trainer's file, folded at load, is the same layer.
            let from_raw = Net::load(&encode(&raw), "n2.bin", folding, fold_edge_table).expect("loads");
            assert!(from_raw == made);
            assert_eq!(loaded.encode(layout), bytes);
            let problem = |b: &[u8]| {
                Net::load(b, "n3.bin", folding, fold_edge_table)
                    .err()
                    .map(|e| (e.to_string(), e.problem))
            };
            let cut = problem(&bytes[..bytes.len() - 3]).expect("truncated");
            assert!(
                matches!(cut.1, WeightsProblem::Truncated { .. }) && cut.0.contains("n3.bin"),
                "{}",
                cut.0
            );
            let mut flipped = bytes.clone();
            flipped[bytes.len() / 2] ^= 0x10;
            assert!(matches!(
                problem(&flipped).expect("checksum").1,
                WeightsProblem::Checksum { .. }
            ));
            // Another build's folding: refused by name, not read at the wrong rows.
            let other = made.encode(layout ^ 1);
            let (text, p) = problem(&other).expect("another layout");
            assert!(
                matches!(p, WeightsProblem::Layout { .. }) && text.contains("net_fold"),
                "{text}"
            );
            // A byte of -128 (re-checksummed, so only the range check can refuse it).
            let resum = |mut b: Vec<u8>| {
                let end = b.len() - 4;
                let sum = checksum(&b[..end]);
                b[end..].copy_from_slice(&sum.to_le_bytes());
                b
            };
            let first_row = FOLDED_HEADER + STAGE_WEIGHTS.div_ceil(8);
            let mut low = bytes.clone();
            low[first_row + 1] = 0x80;
            let (text, p) = problem(&resum(low)).expect("-128");
            assert!(matches!(p, WeightsProblem::LayerEntry(_)) && text.contains("-128"), "{text}");
            // A non-finite output weight.
            let mut nan = bytes.clone();
            let v0 = nan.len() - 4 - 4 - 4 * dim;
            nan[v0..v0 + 4].copy_from_slice(&f32::NAN.to_le_bytes());
            let (text, p) = problem(&resum(nan)).expect("NaN");
            assert!(matches!(p, WeightsProblem::LayerEntry(_)), "{text}");
        }
        // A padding bit of the bitmap past the last row, with a row's bytes to match it.
        let made = Net::new(&[raw(2, 14, 8)], folding, fold_edge_table);
        let mut bytes = made.encode(layout);
        bytes.truncate(bytes.len() - 4);
        let last = FOLDED_HEADER + STAGE_WEIGHTS.div_ceil(8) - 1;
        assert_ne!(STAGE_WEIGHTS % 8, 0, "the test needs padding bits");
        bytes[last] |= 0x80;
        bytes.splice(last + 1..last + 1, [1u8; 8]);
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        let e = Net::load(&bytes, "n3.bin", folding, fold_edge_table)
            .err()
            .expect("padding bit");
        assert!(e.to_string().contains("beyond"), "{e}");
        // The trainer's decoder names what a folded file is.
        let e = decode(&made.encode(layout), "n3.bin").expect_err("folded");
        assert!(e.to_string().contains("folded"), "{e}");
    }

    /// Some of a file's stages, decoded and encoded again (`examples/net_keep_stages.rs`): the
    /// header with the kept stages' mask, then those stages' bytes exactly as the file held
    /// them, then a checksum of its own.
    #[test]
    fn a_subset_of_the_stages_keeps_their_bytes() {
        use crate::eval::patterns::SHAPES;
        let mut stages = vec![raw(1, 5, 16), raw(3, 6, 16), raw(7, 8, 16)];
        for l in &mut stages {
            for k in (0..N_SHAPES).filter(|&k| SHAPES[k].len() >= 10) {
                l.entries[OFFSETS[k] * 16..OFFSETS[k + 1] * 16].fill(0);
            }
        }
        let bytes = encode(&stages);
        // Each stage's block: its bitmap, its kept rows, c, v and the bias.
        let block = |s: &RawStage| encode(std::slice::from_ref(s))[HEADER..].len() - 4;
        let (first, second) = (block(&stages[0]), block(&stages[1]));
        let decoded = decode(&bytes, "n.bin").expect("decodes");
        let kept: Vec<RawStage> = decoded.into_iter().filter(|s| s.stage <= 3).collect();
        let subset = encode(&kept);
        assert_eq!(subset[..16], bytes[..16]);
        assert_eq!(subset[16..HEADER], (1u32 << 1 | 1 << 3).to_le_bytes());
        assert_eq!(subset[HEADER..subset.len() - 4], bytes[HEADER..HEADER + first + second]);
        assert_eq!(decode(&subset, "subset.bin").expect("decodes"), stages[..2]);
    }

    /// The folded layer the search reads sums what the unfolded one sums on every term of
    /// `features` (the trainer's view), exactly, on all 8 images, by the incremental indices
    /// and from scratch; the one-byte entries stay within their rounding (and clipping) of
    /// the exact value; and the layer moves the value.
    #[test]
    fn the_folded_layer_matches_the_trainers_view() {
        use crate::board::{Board, bits, symmetry};
        use crate::eval::incremental::{Deltas, Features};
        use crate::eval::{features, fold::Folding, fold_edge_table, has_bmi2, stage};
        let folding = Folding::new();
        for dim in DIMS {
            let (shipped, layers, e) = with_random_layers(dim);
            let folded: Vec<Vec<i32>> = layers.iter().map(|l| fold(l, &folding, fold_edge_table)).collect();
            let mut b = Board::START;
            let mut moved = 0;
            for sq in LINE {
                b = b.play(sq).unwrap_or(b.pass());
                let st = stage(b.empty_count());
                let (l, table) = (&layers[st], &folded[st]);
                let top = clip_top(table);
                let moves = bits::moves(b.player, b.opponent);
                let f = Features::new(Deltas::get(), &b);
                let ns = e.net_stage(&b).expect("a layer for every stage");
                let n = e.instances.len() + 7;
                let rows = e.net_rows(f.me(), &crate::eval::other_rows(&b, moves));
                let mut exact = vec![0f64; dim];
                let mut slack = vec![0f64; dim];
                for k in 0..dim {
                    let trainer: i64 = features(&b, has_bmi2())
                        .iter()
                        .map(|&i| i64::from(l.entries[i as usize * dim + k]))
                        .sum();
                    let engine: i64 = rows[..n].iter().map(|&r| i64::from(table[r as usize * dim + k])).sum();
                    assert_eq!(engine, trainer, "channel {k} of the {dim}");
                    exact[k] = engine as f64 / f64::from(QUANT) + f64::from(l.c[k]);
                    // In units: half a step a row, the clipped excess, and c's rounding.
                    let step = f64::from(top) / 127.0 / f64::from(QUANT);
                    slack[k] = step
                        * (n as f64 / 2.0
                            + 0.5
                            + rows[..n]
                                .iter()
                                .map(|&r| {
                                    (f64::from(table[r as usize * dim + k].abs()) / f64::from(top) * 127.0 - 127.0).max(0.0)
                                })
                                .sum::<f64>());
                }
                let layer = f64::from(l.bias[0]) + (0..dim).map(|k| exact[k].max(0.0) * f64::from(l.v[k])).sum::<f64>();
                let bound = 256.0 * (0..dim).map(|k| slack[k] * f64::from(l.v[k].abs())).sum::<f64>() + 1.0;
                let want = shipped.evaluate_fine(&b) as f64 + 256.0 * layer;
                let got = e.evaluate_fine(&b);
                assert!((got as f64 - want).abs() <= bound, "{got} against {want} ± {bound}");
                assert_eq!(got, shipped.evaluate_fine(&b) + ns.value(&rows[..n], 0));
                // SAFETY: `f` holds `b`'s indices, computed from scratch.
                assert_eq!(unsafe { e.evaluate_fine_features(&b, f.me(), moves) }, got);
                for s in 0..8 {
                    assert_eq!(e.evaluate_fine(&symmetry::apply_board(s, &b)), got);
                }
                moved += usize::from(got != shipped.evaluate_fine(&b));
            }
            assert!(moved > 10, "the layer changed {moved} values of 16");
        }
    }

    /// A layer trained with vectors on some shapes only (the others' rows zero) reads the
    /// rows of those shapes' instances alone, and gives what reading every row gives.
    #[test]
    fn a_layer_without_the_big_shapes_reads_only_the_others() {
        use crate::board::{Board, bits};
        use crate::eval::incremental::{Deltas, Features};
        use crate::eval::patterns::SHAPES;
        let shipped = crate::eval::Evaluator::embedded().expect("embedded weights");
        let mut layers: Vec<RawStage> = (0..STAGES).map(|s| raw(s, s as u64 + 7, 16)).collect();
        for l in &mut layers {
            for k in (0..N_SHAPES).filter(|&k| SHAPES[k].len() >= 10) {
                l.entries[OFFSETS[k] * 16..OFFSETS[k + 1] * 16]
                    .iter_mut()
                    .for_each(|x| *x = 0);
            }
        }
        let e = shipped.clone().with_net(&layers);
        let small = e
            .instances
            .iter()
            .filter(|i| (0..N_SHAPES).any(|k| OFFSETS[k] == i.offset && SHAPES[k].len() < 10))
            .count();
        assert!(small > 20 && small < e.instances.len(), "{small} instances of small shapes");
        let mut b = Board::START;
        for sq in LINE {
            b = b.play(sq).unwrap_or(b.pass());
            let ns = e.net_stage(&b).expect("a layer for every stage");
            assert_eq!(ns.lanes.len(), small);
            let moves = bits::moves(b.player, b.opponent);
            let f = Features::new(Deltas::get(), &b);
            let rows = e.net_rows(f.me(), &crate::eval::other_rows(&b, moves));
            let every_row = ns.value(&rows[..e.instances.len() + 7], 0);
            assert_ne!(every_row, 0);
            assert_eq!(e.evaluate_fine(&b), shipped.evaluate_fine(&b) + every_row);
        }
    }

    /// Every compiled copy of the leaf evaluation (portable, AVX2, AVX2 with AVX-512 gathers,
    /// as this CPU has them) gives the scalar layer's value, for every vector length the engine
    /// reads, from incremental indices and from scratch, on positions of every stage (the
    /// endgame ordering's `evaluate_fine_with_moves` reads the linear part alone).
    #[test]
    fn every_kernel_reads_the_layer_as_the_scalar_path_does() {
        use crate::base::Kernel;
        use crate::eval::incremental::{Deltas, Features};
        let shapes =
            DIMS.iter()
                .map(|&d| (d, 1, 0))
                .chain([(16, STAGE_WIDTH as usize, 16), (8, 1, 8), (32, STAGE_WIDTH as usize, 32)]);
        for (dim, heads, l2) in shapes {
            let shipped = crate::eval::Evaluator::embedded().expect("embedded weights");
            let layers: Vec<RawStage> = (0..STAGES).map(|s| raw_headed(s, s as u64 + 7, dim, heads, l2)).collect();
            let e = shipped.clone().with_net(&layers);
            let mut seed = 5u64;
            let mut portable = e.clone();
            portable.kernel = Kernel::PORTABLE;
            for k in 0..120 {
                let b = crate::board::random_game(&mut seed, k % 50 + 6);
                let f = Features::new(Deltas::get(), &b);
                let moves = b.moves();
                // SAFETY: `f` holds `b`'s indices.
                let scalar = unsafe { portable.evaluate_fine_features(&b, f.me(), moves) };
                assert_eq!(scalar, portable.evaluate_fine(&b));
                for kernel in Kernel::every() {
                    let mut x = e.clone();
                    x.kernel = kernel;
                    // SAFETY: as above.
                    let got = unsafe { x.evaluate_fine_features(&b, f.me(), moves) };
                    assert_eq!(got, scalar, "{dim} units, {heads} heads, {l2} second, {kernel:?}, {b:?}");
                }
                if (1..=8).contains(&crate::eval::stage(b.empty_count())) {
                    assert_ne!(scalar, shipped.evaluate_fine(&b), "the layer moves the value");
                }
            }
        }
    }

    /// A layer with a head per empties count and a second layer: written as version 4 (as
    /// trained) and 5 (folded), read back as it was, damage and impossible shapes named.
    #[test]
    fn a_headed_layer_round_trips_in_both_versions() {
        use crate::eval::fold_edge_table;
        let folding = Folding::shared();
        let layout = layout_fingerprint(folding, fold_edge_table);
        let heads = STAGE_WIDTH as usize;
        for (dim, l2) in [(8, 0), (16, 16), (32, 8)] {
            let stages = vec![raw_headed(5, 1, dim, heads, l2), raw_headed(3, 2, dim, heads, l2)];
            let bytes = encode(&stages);
            assert_eq!(bytes[4..8], HEADED_VERSION.to_le_bytes());
            let back = decode(&bytes, "h.bin").expect("decodes");
            assert_eq!(back, vec![stages[1].clone(), stages[0].clone()]);
            let cut = decode(&bytes[..bytes.len() - 1], "h.bin").expect_err("truncated");
            assert!(matches!(cut.problem, WeightsProblem::Truncated { .. }), "{cut}");
            let made = Net::new(&stages, folding, fold_edge_table);
            let folded = made.encode(layout);
            assert_eq!(folded[4..8], FOLDED_HEADED_VERSION.to_le_bytes());
            assert!(is_folded(&folded));
            let loaded = Net::load(&folded, "h5.bin", folding, fold_edge_table).expect("loads");
            assert!(
                loaded == made,
                "{dim} units, {l2}: the folded file reads back as another layer"
            );
            assert_eq!(loaded.encode(layout), folded);
            let from_raw = Net::load(&bytes, "h4.bin", folding, fold_edge_table).expect("loads");
            assert!(from_raw == made);
            // Folding keeps each head's numbers: `u` in 1/256 disc, `w2` transposed and
            // divided by the stage's one scale.
            let ns = made.stages[3].as_ref().expect("stage 3");
            let raw3 = &stages[1];
            for (h, head) in ns.heads.iter().enumerate() {
                assert_eq!(head.bias, raw3.bias[h] * 256.0);
                for j in 0..l2 {
                    assert_eq!(head.u[j], raw3.u[h * l2 + j] * 256.0);
                    assert_eq!(head.b2[j], raw3.b2[h * l2 + j]);
                }
                let ratio = head.w2.first().map_or(0.0, |w| w / raw3.w2[h * l2 * dim]);
                for (i, &w) in head.w2.iter().enumerate() {
                    let trained = raw3.w2[(h * l2 + i % l2) * dim + i / l2];
                    assert!(
                        (w - trained * ratio).abs() <= 1e-6 * trained.abs().max(1.0),
                        "head {h} entry {i}"
                    );
                }
            }
            // A non-finite second-layer weight, re-checksummed: refused by name.
            if l2 > 0 {
                let mut nan = folded.clone();
                let u_last = nan.len() - 4 - 4;
                nan[u_last..u_last + 4].copy_from_slice(&f32::NAN.to_le_bytes());
                let end = nan.len() - 4;
                let sum = checksum(&nan[..end]);
                nan[end..].copy_from_slice(&sum.to_le_bytes());
                let e = Net::load(&nan, "h5.bin", folding, fold_edge_table).err().expect("NaN");
                assert!(matches!(e.problem, WeightsProblem::LayerEntry(_)), "{e}");
            }
        }
        // Three heads: no stage has three empties counts to serve.
        let mut odd = encode(&[raw_headed(2, 9, 8, heads, 4)]);
        odd[HEADER..HEADER + 4].copy_from_slice(&3u32.to_le_bytes());
        let e = decode(&odd, "h.bin").expect_err("three heads");
        assert!(e.to_string().contains("3 heads"), "{e}");
    }

    /// Each empties count reads its own head, and the value is the first layer's plus the
    /// second's, as an f64 reading of the folded numbers gives it (within the rounding).
    #[test]
    fn each_empties_count_reads_its_head_and_the_second_layer() {
        use crate::board::bits;
        use crate::eval::incremental::{Deltas, Features};
        let shipped = crate::eval::Evaluator::embedded().expect("embedded weights");
        let heads = STAGE_WIDTH as usize;
        let layers: Vec<RawStage> = (0..STAGES).map(|s| raw_headed(s, s as u64 + 3, 16, heads, 16)).collect();
        let e = shipped.clone().with_net(&layers);
        let mut seed = 11u64;
        let (mut other_head_differs, mut second_moves) = (0, 0);
        for k in 0..60 {
            let b = crate::board::random_game(&mut seed, k % 48 + 8);
            let ns = e.net_stage(&b).expect("a layer for every stage");
            let head = ns.head_of(b.empty_count());
            assert_eq!(head, (b.empty_count().min(59) % STAGE_WIDTH) as usize);
            let moves = bits::moves(b.player, b.opponent);
            let f = Features::new(Deltas::get(), &b);
            let n = e.instances.len() + 7;
            let rows = e.net_rows(f.me(), &crate::eval::other_rows(&b, moves));
            let got = e.evaluate_fine(&b) - shipped.evaluate_fine(&b);
            assert_eq!(got, ns.value(&rows[..n], head));
            let mut acc = [0i64; 16];
            for &r in &rows[..n] {
                for (a, &x) in acc.iter_mut().zip(&ns.rows[r as usize * 16..][..16]) {
                    *a += i64::from(x);
                }
            }
            let h = &ns.heads[head];
            let act: Vec<f64> = (0..16).map(|k| ((acc[k] + i64::from(h.c[k])).max(0)) as f64).collect();
            let first = f64::from(h.bias) + (0..16).map(|k| act[k] * f64::from(h.v[k])).sum::<f64>();
            let second: f64 = (0..16)
                .map(|j| {
                    let z = f64::from(h.b2[j]) + (0..16).map(|k| f64::from(h.w2[k * 16 + j]) * act[k]).sum::<f64>();
                    z.max(0.0) * f64::from(h.u[j])
                })
                .sum();
            assert!(
                (f64::from(got) - (first + second)).abs() <= 1.0,
                "{got} against {}",
                first + second
            );
            second_moves += usize::from(second.abs() >= 1.0);
            other_head_differs += usize::from(ns.value(&rows[..n], (head + 1) % heads) != got);
        }
        assert!(
            other_head_differs > 50,
            "another head gave another value {other_head_differs} times in 60"
        );
        assert!(second_moves > 30, "the second layer moved {second_moves} values of 60");
    }

    /// The lazy reading: the layer where the linear value is near the window, the linear value
    /// alone where it lies beyond the margin or where the caller asks for the cheap estimate.
    #[test]
    fn the_lazy_evaluation_skips_the_layer_only_far_from_the_window() {
        use crate::board::{Board, bits};
        use crate::eval::incremental::{Deltas, Features};
        let (shipped, _, e) = with_random_layers(16);
        let b = LINE.iter().fold(Board::START, |b, &sq| b.play(sq).unwrap_or(b.pass()));
        let (moves, f) = (bits::moves(b.player, b.opponent), Features::new(Deltas::get(), &b));
        // SAFETY: `f` holds `b`'s indices, computed from scratch.
        let within = |lo, hi| unsafe { e.evaluate_fine_features_within(&b, f.me(), moves, lo, hi) };
        // SAFETY: as above.
        let (full, linear) = (
            unsafe { e.evaluate_fine_features(&b, f.me(), moves) },
            shipped.evaluate_fine(&b),
        );
        assert_ne!(full, linear, "the test's layer must move this value");
        let margin = 256 * crate::eval::LAZY_MARGIN;
        assert_eq!(within(linear, linear + 1), full);
        assert_eq!(within(linear + margin - 1, linear + margin), full);
        assert_eq!(within(linear + margin, linear + margin + 1), linear);
        assert_eq!(within(linear - margin - 1, linear - margin), linear);
        assert_eq!(within(i32::MAX, i32::MIN), linear);
        // The endgame's checks, which keep no indices, get the same lazy value (in discs).
        use crate::base::ordering::OrderingEval;
        let discs = |fine: i32| (fine + 128).div_euclid(256);
        let at = discs(linear);
        assert_ne!(discs(full), at, "the test's layer must move the value by a disc");
        assert_eq!(e.evaluate_with_moves_within(&b, moves, at, at + 1), discs(full));
        assert_eq!(e.evaluate_with_moves_within(&b, moves, at + 40, at + 41), discs(linear));
        assert_eq!(shipped.evaluate_with_moves_within(&b, moves, at, at + 1), discs(linear));
    }
}
