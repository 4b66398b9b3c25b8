//! Endgame ProbCut model: with n empties the exact score v is predicted from a d′-ply search
//! of the evaluation, v = a·v′ + b + e, e ~ N(0, σ²). `oxello fit-endcut` fits a, b, σ per
//! empties count and check depth on exact-labelled self-play positions of held-out games and
//! writes `params/endcut.txt` (the `mpc.txt` line format, depth 60 = exact); rows past the
//! solved range carry 0 samples: σ extrapolated linearly in the empties by the same command.

use super::mpc::{MpcError, MpcTable, TO_END};
use std::sync::OnceLock;

/// From this many empties the 4-ply check is used, below it the 2-ply one (measured on FFO
/// #40-#49: the deeper check pays for itself only far from the end).
pub const DEEP_CHECK_FROM: u32 = 20;

/// Check depths `fit-endcut` fits: the two the solver uses.
pub const CHECKS: [u32; 2] = [2, 4];

/// The check depth used at `n` empties.
pub fn check_depth(n: u32) -> u32 {
    if n >= DEEP_CHECK_FROM { CHECKS[1] } else { CHECKS[0] }
}

/// One empties count's model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CutModel {
    pub check: u32,
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
}

impl CutModel {
    /// The bounds on v′ that predict, with threshold t, a score above `alpha` (cut high when
    /// v′ ≥ the first) or at most `alpha` (cut low when v′ ≤ the second):
    /// a·v′ + b − tσ ≥ alpha + 1 and a·v′ + b + tσ ≤ alpha.
    pub fn bounds(&self, alpha: i32, t: f64) -> (i32, i32) {
        let margin = t * self.sigma;
        let hi = ((alpha as f64 + 1.0 + margin - self.b) / self.a).ceil() as i32;
        let lo = ((alpha as f64 - margin - self.b) / self.a).floor() as i32;
        (hi, lo)
    }
}

/// The model per empties count (None: no ProbCut there).
#[derive(Debug)]
pub struct EndCut {
    by_empties: [Option<CutModel>; 65],
}

const EMBEDDED: &str = include_str!("../../params/endcut.txt");
static ACTIVE: OnceLock<EndCut> = OnceLock::new();

impl EndCut {
    /// No forward pruning anywhere.
    pub const NONE: EndCut = EndCut { by_empties: [None; 65] };

    /// Picks, for every empties count, the exact-score row with the check depth the solver uses.
    pub fn from_table(t: &MpcTable) -> EndCut {
        let mut by_empties = [None; 65];
        for (n, slot) in by_empties.iter_mut().enumerate() {
            let n = n as u32;
            let check = check_depth(n);
            *slot = t.checks(n, TO_END).find(|f| f.check == check).map(|f| CutModel {
                check,
                a: f.a,
                b: f.b,
                sigma: f.sigma,
            });
        }
        EndCut { by_empties }
    }

    pub fn parse(text: &str, file: &str) -> Result<EndCut, MpcError> {
        MpcTable::parse(text, file).map(|t| EndCut::from_table(&t))
    }

    /// The model in use: the one `install`ed (`--params DIR/endcut.txt`), else the shipped one;
    /// if that failed to parse (a test guards against that) ProbCut is off.
    pub fn active() -> &'static EndCut {
        ACTIVE.get_or_init(|| EndCut::parse(EMBEDDED, "params/endcut.txt (embedded)").unwrap_or(EndCut::NONE))
    }

    /// Makes `model` the active one for the rest of the process (the program does this at
    /// start-up, before any solve). False when a model was already in use.
    #[must_use]
    pub fn install(model: EndCut) -> bool {
        ACTIVE.set(model).is_ok()
    }

    #[inline]
    pub fn at(&self, n: u32) -> Option<&CutModel> {
        self.by_empties.get(n as usize)?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_model_covers_the_selective_range() {
        let e = EndCut::parse(EMBEDDED, "endcut.txt").expect("embedded endcut.txt parses");
        for n in 14..=36 {
            let m = e.at(n).expect("a model for every empties count the passes reach");
            assert_eq!(m.check, check_depth(n));
            assert!(m.sigma > 1.0 && m.sigma < 20.0 && m.a > 0.5 && m.a < 1.5, "{n}: {m:?}");
        }
    }

    #[test]
    fn bounds_follow_the_linear_model() {
        let m = CutModel {
            check: 2,
            a: 1.0,
            b: 0.0,
            sigma: 4.0,
        };
        // t = 1: cut high when v' >= alpha + 1 + 4, low when v' <= alpha - 4.
        assert_eq!(m.bounds(10, 1.0), (15, 6));
        let skew = CutModel { a: 0.5, b: 2.0, ..m };
        // 0.5 v' + 2 - 4 >= 11  <=>  v' >= 26;  0.5 v' + 2 + 4 <= 10  <=>  v' <= 8.
        assert_eq!(skew.bounds(10, 1.0), (26, 8));
    }
}
