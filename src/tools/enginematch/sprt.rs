//! Sequential probability ratio test on game results: is engine A `elo1` stronger than B
//! (H1) or only `elo0` (H0)? The log-likelihood ratio is the normal approximation of the
//! generalised SPRT over the per-game scores (1, 1/2, 0): with mean score x̄ and n games,
//! LLR = n (s1 − s0)(2x̄ − s0 − s1) / (2v), where s0, s1 are the expected scores of the two
//! hypotheses (logistic Elo). The per-game variance v is the trinomial's at the hypotheses'
//! midpoint score s with the observed draw rate r, v = s(1 − s) − r/4, rather than the sample
//! variance, which is zero after a run of wins and would never let a one-sided match stop.
//! The draw rate is counted with one more game that is not a draw, r = draws / (n + 1): with
//! r = 1 after a first draw, v was zero and the test accepted H0 after one game.
//! The test stops when the LLR leaves [ln(β/(1−α)), ln((1−β)/α)] (Wald's bounds).

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    /// H0 accepted: A is not `elo1` stronger.
    H0,
    /// H1 accepted: A is at least `elo1` stronger.
    H1,
}

/// Expected score of a side `elo` stronger.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// Parses `elo0,elo1`.
    pub fn parse(bounds: &str, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let (a, b) = bounds
            .split_once(',')
            .ok_or_else(|| format!("--sprt '{bounds}': expected ELO0,ELO1, e.g. 0,10"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("--sprt '{bounds}': '{x}' is not a number"))
        };
        let (elo0, elo1) = (num(a)?, num(b)?);
        if elo1 <= elo0 {
            return Err(format!("--sprt '{bounds}': ELO1 must be above ELO0"));
        }
        for (name, p) in [("--alpha", alpha), ("--beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} {p}: expected a probability between 0 and 0.5"));
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Wald's bounds on the LLR: (lower, upper).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio after `wins`, `draws`, `losses` from A's side.
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        let n = f64::from(wins + draws + losses);
        if n == 0.0 {
            return 0.0;
        }
        let mean = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let mid = (s0 + s1) / 2.0;
        let draw_rate = f64::from(draws) / (n + 1.0);
        let var = (mid * (1.0 - mid) - draw_rate / 4.0).max(1e-6);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, wins: u32, draws: u32, losses: u32) -> Verdict {
        let (lo, hi) = self.bounds();
        let llr = self.llr(wins, draws, losses);
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn bounds_are_walds() {
        let (lo, hi) = sprt(0.0, 10.0).bounds();
        assert!((lo + 2.944_439).abs() < 1e-5 && (hi - 2.944_439).abs() < 1e-5);
    }

    /// 60 wins, 20 draws, 20 losses: mean 0.7; s0 = 0.5, s1 = 1/(1 + 10^(-0.05)) = 0.528751,
    /// midpoint 0.514376, v = 0.514376 · 0.485624 − (20/101)/4 = 0.200288;
    /// LLR = 100 · 0.028751 · (1.4 − 1.028751) / (2 · 0.200288) = 2.6647.
    #[test]
    fn llr_by_hand() {
        let got = sprt(0.0, 20.0).llr(60, 20, 20);
        assert!((got - 2.664_7).abs() < 1e-3, "{got}");
        assert_eq!(sprt(0.0, 20.0).verdict(60, 20, 20), Verdict::Continue);
        assert_eq!(sprt(0.0, 20.0).verdict(70, 10, 20), Verdict::H1);
    }

    /// Five straight wins are as likely as (0.528751 / 0.5)^5 under the two hypotheses: an LLR of
    /// 0.28, which the approximation matches; a run of wins still ends the test in time.
    #[test]
    fn one_sided_runs_and_even_results() {
        let t = sprt(0.0, 20.0);
        assert!(
            (t.llr(5, 0, 0) - 5.0 * (0.528_751f64 / 0.5).ln()).abs() < 0.01,
            "{}",
            t.llr(5, 0, 0)
        );
        assert_eq!(t.verdict(3, 0, 3), Verdict::Continue);
        assert_eq!(t.verdict(60, 0, 0), Verdict::H1);
        assert_eq!(t.verdict(800, 400, 800), Verdict::H0);
        assert!(t.llr(200, 100, 200) < 0.0);
    }

    /// A match that opens with draws goes on: one draw once ended a match with LLR -927.
    #[test]
    fn opening_draws_do_not_end_the_test() {
        let t = sprt(0.0, 30.0);
        for draws in 1..=5 {
            assert_eq!(t.verdict(0, draws, 0), Verdict::Continue, "{draws} draws");
        }
        assert!(t.llr(0, 1, 0).abs() < 0.01, "{}", t.llr(0, 1, 0));
    }

    #[test]
    fn bad_arguments_are_named() {
        assert!(Sprt::parse("0,10", 0.05, 0.05).is_ok());
        assert!(Sprt::parse("10,0", 0.05, 0.05).unwrap_err().contains("ELO1"));
        assert!(Sprt::parse("x,10", 0.05, 0.05).unwrap_err().contains("'x'"));
        assert!(Sprt::parse("0", 0.05, 0.05).unwrap_err().contains("ELO0,ELO1"));
        assert!(Sprt::parse("0,10", 0.7, 0.05).unwrap_err().contains("--alpha"));
    }
}
