//! Multi-ProbCut parameters: for each game stage and (depth d, check depth d') pair the linear
//! model v = a·v' + b + e, e ~ N(0, σ²), fitted by `oxello fit-mpc` and stored in `params/mpc.txt`.

use std::fmt;
use std::path::Path;

/// One fitted pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub min_empties: u32,
    pub max_empties: u32,
    /// Depth of the search being predicted (60 = to the end of the game).
    pub depth: u32,
    pub check: u32,
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
    pub r2: f64,
    pub samples: u32,
}

#[derive(Clone, Debug, Default)]
pub struct MpcTable {
    fits: Vec<Fit>,
    /// `checks_at` answered in advance for every (empties, depth) up to `TO_END`: the search
    /// asks at every node of 3+ plies, and scanning the fits there cost an eighth of the
    /// time of a level-17 search (perf, thirty-first session). `index[e * STRIDE + d]` is the
    /// range of `shifted` holding the checks for empties `e` and depth `d`.
    index: Vec<(u16, u16)>,
    shifted: Vec<Fit>,
}

const STRIDE: usize = TO_END as usize + 1;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MpcError {
    pub file: String,
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for MpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: the file as a whole (it cannot be read, or is empty).
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.problem)
        }
    }
}

impl std::error::Error for MpcError {}

const EMBEDDED: &str = include_str!("../../params/mpc.txt");

/// Depth value that stands for "solved to the end of the game".
pub const TO_END: u32 = 60;

/// Cut threshold t for a confidence percentage: P(|Z| < t) = p, Z standard normal.
/// 100 % means no forward pruning (None). Edax's levels 73/87/95/98/99 % give t ≈ 1.1/1.5/2.0/2.3/2.6.
pub fn threshold(percent: u32) -> Option<f64> {
    if percent >= 100 {
        return None;
    }
    let p = (percent.max(1) as f64 / 100.0 + 1.0) / 2.0;
    Some(inverse_normal(p))
}

/// Confidence percentage of a threshold: 100·P(|Z| < t), rounded.
pub fn confidence(t: f64) -> u32 {
    ((2.0 * normal_cdf(t) - 1.0) * 100.0).round() as u32
}

/// Φ(x) from the Abramowitz–Stegun 7.1.26 erf approximation (error < 1.5e-7).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t + 0.254_829_592)
            * t
            * (-z * z).exp();
    let erf = if x >= 0.0 { y } else { -y };
    0.5 * (1.0 + erf)
}

/// Φ⁻¹(p) by bisection on an erf approximation (Abramowitz–Stegun 7.1.26): plenty for t.
pub(crate) fn inverse_normal(p: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0, 10.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

impl MpcTable {
    pub fn embedded() -> Result<MpcTable, MpcError> {
        MpcTable::parse(EMBEDDED, "params/mpc.txt (embedded)")
    }

    pub fn load(path: &Path) -> Result<MpcTable, MpcError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| MpcError {
            file: name.clone(),
            line: 0,
            problem: format!("cannot read: {e}"),
        })?;
        MpcTable::parse(&text, &name)
    }

    pub fn new(fits: Vec<Fit>) -> MpcTable {
        let mut fits = fits;
        fits.sort_by_key(|f| (f.min_empties, f.depth, f.check));
        let mut table = MpcTable {
            fits,
            index: Vec::with_capacity(STRIDE * STRIDE),
            shifted: Vec::new(),
        };
        for e in 0..=TO_END {
            for d in 0..=TO_END {
                let start = table.shifted.len();
                let checks: Vec<Fit> = table.scan_checks_at(e, d).collect();
                table.shifted.extend(checks);
                table.index.push((start as u16, table.shifted.len() as u16));
            }
        }
        table
    }

    pub fn fits(&self) -> &[Fit] {
        &self.fits
    }

    /// Parses `min_empties max_empties depth check a b sigma r2 samples` lines, `#` comments.
    pub fn parse(text: &str, file: &str) -> Result<MpcTable, MpcError> {
        let mut fits = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |problem: String| MpcError {
                file: file.to_string(),
                line: i + 1,
                problem,
            };
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 9 {
                return Err(err(format!("expected 9 fields, found {}", f.len())));
            }
            let int = |k: usize| f[k].parse::<u32>().map_err(|e| err(format!("field {}: {e}", k + 1)));
            let real = |k: usize| {
                f[k].parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(format!("field {}: not a finite number", k + 1)))
            };
            let fit = Fit {
                min_empties: int(0)?,
                max_empties: int(1)?,
                depth: int(2)?,
                check: int(3)?,
                a: real(4)?,
                b: real(5)?,
                sigma: real(6)?,
                r2: real(7)?,
                samples: int(8)?,
            };
            if fit.a <= 0.0 || fit.sigma <= 0.0 || fit.check >= fit.depth || fit.min_empties > fit.max_empties {
                return Err(err("need a > 0, sigma > 0, check < depth, min_empties <= max_empties".into()));
            }
            fits.push(fit);
        }
        // A file cut before its first fit would silently turn selectivity off.
        if fits.is_empty() {
            return Err(MpcError {
                file: file.to_string(),
                line: text.lines().count(),
                problem: "no fits (a truncated file?)".into(),
            });
        }
        Ok(MpcTable::new(fits))
    }

    /// The checks for a node of `depth` with `empties` empties, shallowest first.
    pub fn checks(&self, empties: u32, depth: u32) -> impl Iterator<Item = &Fit> {
        self.fits
            .iter()
            .filter(move |f| f.depth == depth && (f.min_empties..=f.max_empties).contains(&empties))
    }

    /// The checks to run at a node of height `depth`: the fitted pairs, or above the deepest
    /// fitted midgame depth the pairs of the deepest fitted depth of the same parity, shifted
    /// up with the same gap d - d'. Without this the top of a deep search would run full width;
    /// σ falls slowly as the depth grows at a fixed gap (21-28 empties, gap 4: 3.98 at depth 6,
    /// 3.57 at 8, 2.93 at 10), so the shifted σ errs on the safe side.
    pub fn checks_at(&self, empties: u32, depth: u32) -> impl Iterator<Item = Fit> + '_ {
        let (e, d) = (empties as usize, depth as usize);
        // Beyond the index (or in a table built by `Default`, which has none) the fits are scanned.
        let slot = if e < STRIDE && d < STRIDE {
            self.index.get(e * STRIDE + d)
        } else {
            None
        };
        let indexed = slot.map(|&(start, end)| self.shifted[start as usize..end as usize].iter().copied());
        let scanned = if indexed.is_none() {
            Some(self.scan_checks_at(empties, depth))
        } else {
            None
        };
        indexed.into_iter().flatten().chain(scanned.into_iter().flatten())
    }

    /// `checks_at` computed from the fits (what the index holds, and the answer beyond it).
    fn scan_checks_at(&self, empties: u32, depth: u32) -> impl Iterator<Item = Fit> + '_ {
        let in_stage = move |f: &&Fit| (f.min_empties..=f.max_empties).contains(&empties);
        let fitted = if depth == TO_END || self.checks(empties, depth).next().is_some() {
            depth
        } else {
            self.fits
                .iter()
                .filter(in_stage)
                .map(|f| f.depth)
                .filter(|&d| d != TO_END && d < depth && (depth - d).is_multiple_of(2))
                .max()
                .unwrap_or(depth)
        };
        self.checks(empties, fitted).map(move |f| Fit {
            depth,
            check: f.check + (depth - fitted),
            ..*f
        })
    }

    /// Writes the table in the format `parse` reads.
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        for l in header.lines() {
            s.push_str("# ");
            s.push_str(l);
            s.push('\n');
        }
        s.push_str("# min_empties max_empties depth check a b sigma r2 samples\n");
        for f in &self.fits {
            s.push_str(&format!(
                "{} {} {} {} {:.4} {:.4} {:.4} {:.4} {}\n",
                f.min_empties, f.max_empties, f.depth, f.check, f.a, f.b, f.sigma, f.r2, f.samples
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_match_the_normal_table() {
        assert!((threshold(95).unwrap_or(0.0) - 1.96).abs() < 0.01);
        assert!((threshold(87).unwrap_or(0.0) - 1.51).abs() < 0.01);
        assert!(threshold(100).is_none());
        assert_eq!(confidence(1.5), 87);
        assert_eq!(confidence(2.0), 95);
    }

    #[test]
    fn the_index_answers_as_the_scan_does() {
        let t = MpcTable::embedded().expect("embedded table");
        let mut answered = 0;
        for e in 0..=TO_END + 2 {
            for d in 0..=TO_END + 2 {
                let fast: Vec<Fit> = t.checks_at(e, d).collect();
                let slow: Vec<Fit> = t.scan_checks_at(e, d).collect();
                assert_eq!(fast, slow, "empties {e}, depth {d}");
                answered += fast.len();
            }
        }
        // Most (empties, depth) pairs have checks: an index of empty ranges would pass the
        // comparison only if the scan found nothing either.
        assert!(answered > 1000, "{answered}");
        // A table built by Default has no index and no fits: no checks, no panic.
        assert_eq!(MpcTable::default().checks_at(30, 8).count(), 0);
    }

    #[test]
    fn round_trip_and_errors() {
        let t = MpcTable::new(vec![Fit {
            min_empties: 30,
            max_empties: 39,
            depth: 8,
            check: 4,
            a: 1.01,
            b: -0.2,
            sigma: 3.5,
            r2: 0.9,
            samples: 100,
        }]);
        let back = MpcTable::parse(&t.to_text("test"), "t").expect("parses");
        assert_eq!(back.fits().len(), 1);
        assert_eq!(back.checks(35, 8).count(), 1);
        assert_eq!(back.checks(45, 8).count(), 0);
        // Cut before its first fit: an error, not a table that turns selectivity off.
        assert!(MpcTable::parse("# min_empties max_empties depth check a b sigma r2 samples\n", "f").is_err());
        // Above the deepest fitted depth, the pairs of that depth's parity move up.
        let shifted: Vec<(u32, u32)> = back.checks_at(35, 12).map(|f| (f.depth, f.check)).collect();
        assert_eq!(shifted, [(12, 8)]);
        assert_eq!(back.checks_at(35, 11).count(), 0);
        assert_eq!(back.checks_at(35, 6).count(), 0);
        let e = MpcTable::parse("1 2 3\n", "f").expect_err("short");
        assert_eq!((e.line, e.file.as_str()), (1, "f"));
        assert_eq!(e.to_string(), "f:1: expected 9 fields, found 3");
        let e = MpcTable::parse("", "f").expect_err("empty");
        assert_eq!(e.to_string(), "f: no fits (a truncated file?)");
        assert!(MpcTable::parse("30 39 8 4 1 0 NaN 0.9 10\n", "f").is_err());
        assert!(MpcTable::parse("30 39 8 9 1 0 1 0.9 10\n", "f").is_err());
    }

    #[test]
    fn embedded_table_parses() {
        assert!(MpcTable::embedded().is_ok());
    }
}
