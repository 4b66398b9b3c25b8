//! The weights file: `OXEV` magic, format version, pattern-set id, stage count, weights per
//! stage, the weights as little-endian i16, then an FNV-1a checksum of everything before it.

use std::fmt;

pub const MAGIC: &[u8; 4] = b"OXEV";
pub const VERSION: u32 = 1;
/// Identifies `patterns::SHAPES` plus the extra terms; bumped when they change. Set 1 had
/// mobility and bias; set 2 added a weight for odd empties; set 3 had mobility and an offset
/// per empties count; set 4 has tables over mobility and potential mobility; set 5 adds three
/// 10-square shapes (corner triangle, edge block, corner cross); set 6 a table over both sides'
/// legal moves on an edge.
pub const PATTERN_SET: u32 = 6;
const HEADER: usize = 20;
/// Largest weight magnitude accepted (128 discs): the evaluation sums up to four weights into
/// one i16 table entry (`eval::fold`).
pub const MAX_WEIGHT: i16 = 8191;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsProblem {
    Truncated {
        len: usize,
        expected: usize,
    },
    BadMagic,
    Version(u32),
    PatternSet(u32),
    Shape {
        stages: u32,
        per_stage: u32,
    },
    Checksum {
        stored: u32,
        computed: u32,
    },
    Range {
        index: usize,
        value: i16,
    },
    /// A `net.bin` version the reader does not take (`eval::net`), and the versions it does.
    LayerVersion {
        version: u32,
        reads: &'static str,
    },
    /// A folded `net.bin` (version 3) made for another folding of the terms than this build's.
    Layout {
        stored: u32,
        computed: u32,
    },
    /// A number of a folded layer outside what the engine reads (which, and why).
    LayerEntry(String),
    Io(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    pub file: String,
    pub problem: WeightsProblem,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = match &self.problem {
            WeightsProblem::Truncated { len, expected } => format!("truncated: {len} bytes, expected {expected}"),
            WeightsProblem::BadMagic => "not an oxello weights file (bad magic)".into(),
            WeightsProblem::Version(v) => format!("format version {v}, this build reads {VERSION}"),
            WeightsProblem::PatternSet(v) => format!("pattern set {v}, this build uses {PATTERN_SET}"),
            WeightsProblem::Shape { stages, per_stage } => format!("unexpected size: {stages} stages x {per_stage} weights"),
            WeightsProblem::Checksum { stored, computed } => {
                format!("checksum mismatch (stored {stored:08x}, computed {computed:08x})")
            }
            WeightsProblem::Range { index, value } => {
                format!("weight {index} is {value}, outside +-{MAX_WEIGHT}")
            }
            WeightsProblem::LayerVersion { version, reads } => format!("layer format version {version}, this reads {reads}"),
            WeightsProblem::Layout { stored, computed } => format!(
                "the layer was folded for another layout of the evaluation's terms (fingerprint {stored:08x}, this build's {computed:08x}); fold it again from its version-2 file with `cargo run --release --example net_fold`"
            ),
            WeightsProblem::LayerEntry(what) => what.clone(),
            WeightsProblem::Io(e) => format!("cannot read: {e}"),
        };
        write!(f, "{}: {p}", self.file)
    }
}

impl std::error::Error for EvalError {}

/// 32-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(0x811C_9DC5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

pub fn encode(stages: u32, per_stage: u32, weights: &[i16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + weights.len() * 2 + 4);
    out.extend_from_slice(MAGIC);
    for v in [VERSION, PATTERN_SET, stages, per_stage] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A decoded file: pattern set, stage count, weights.
pub type Decoded = (u32, u32, Vec<i16>);

/// Decodes and checks a weights file. `per_stage(set)` is the number of weights per stage this
/// build reads for pattern set `set` (None: a set it does not read).
pub fn decode(bytes: &[u8], file: &str, per_stage_of: impl Fn(u32) -> Option<u32>) -> Result<Decoded, EvalError> {
    let err = |problem| EvalError {
        file: file.to_string(),
        problem,
    };
    if bytes.len() < HEADER + 4 {
        return Err(err(WeightsProblem::Truncated {
            len: bytes.len(),
            expected: HEADER + 4,
        }));
    }
    if &bytes[..4] != MAGIC {
        return Err(err(WeightsProblem::BadMagic));
    }
    let word = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let (version, set, stages, per_stage) = (word(4), word(8), word(12), word(16));
    if version != VERSION {
        return Err(err(WeightsProblem::Version(version)));
    }
    let Some(expected_per_stage) = per_stage_of(set) else {
        return Err(err(WeightsProblem::PatternSet(set)));
    };
    if per_stage != expected_per_stage || stages == 0 || stages > 64 {
        return Err(err(WeightsProblem::Shape { stages, per_stage }));
    }
    let n = stages as usize * per_stage as usize;
    let expected = HEADER + 2 * n + 4;
    if bytes.len() != expected {
        return Err(err(WeightsProblem::Truncated {
            len: bytes.len(),
            expected,
        }));
    }
    let stored = word(expected - 4);
    let computed = fnv1a(&bytes[..expected - 4]);
    if stored != computed {
        return Err(err(WeightsProblem::Checksum { stored, computed }));
    }
    let weights: Vec<i16> = bytes[HEADER..expected - 4]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    if let Some((index, &value)) = weights.iter().enumerate().find(|(_, w)| w.abs() > MAX_WEIGHT) {
        return Err(err(WeightsProblem::Range { index, value }));
    }
    Ok((set, stages, weights))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_corruption() {
        let w: Vec<i16> = (0..30).map(|i| i * 7 - 100).collect();
        let bytes = encode(3, 10, &w);
        assert_eq!(decode(&bytes, "f", |_| Some(10)), Ok((PATTERN_SET, 3, w.clone())));
        let p = |b: &[u8]| decode(b, "f", |_| Some(10)).map_err(|e| e.problem);
        assert!(matches!(p(&bytes[..bytes.len() - 1]), Err(WeightsProblem::Truncated { .. })));
        assert!(matches!(p(&bytes[..10]), Err(WeightsProblem::Truncated { .. })));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(p(&bad), Err(WeightsProblem::BadMagic));
        let mut bad = bytes.clone();
        bad[4] = 9;
        assert_eq!(p(&bad), Err(WeightsProblem::Version(9)));
        let mut bad = bytes.clone();
        bad[30] ^= 1;
        assert!(matches!(p(&bad), Err(WeightsProblem::Checksum { .. })));
        assert!(matches!(
            decode(&bytes, "f", |_| Some(11)).map_err(|e| e.problem),
            Err(WeightsProblem::Shape { .. })
        ));
        let mut big = w.clone();
        big[5] = MAX_WEIGHT + 1;
        let out_of_range = encode(3, 10, &big);
        assert_eq!(
            p(&out_of_range),
            Err(WeightsProblem::Range {
                index: 5,
                value: MAX_WEIGHT + 1
            })
        );
        assert_eq!(
            decode(&bytes, "f", |_| None).map_err(|e| e.problem),
            Err(WeightsProblem::PatternSet(PATTERN_SET))
        );
        let e = decode(&bad, "params/eval.bin", |_| Some(10)).expect_err("corrupt");
        assert!(e.to_string().starts_with("params/eval.bin: checksum mismatch"));
    }
}
