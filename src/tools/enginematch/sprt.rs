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
//!
//! A match plays each opening twice, colours swapped, and the two games of a pair are not
//! independent: an opening that favours one colour tends to give each engine the win with it.
//! `llr_pairs` counts the pairs instead (the pentanomial model, as fishtest does): the same
//! formula over the pairs' mean scores (0, 1/4, 1/2, 3/4, 1 a game) with the pairs' variance.
//! That variance is the observed one, drawn towards the trinomial's for two independent games
//! by `PRIOR_PAIRS` pairs' weight, so that a first few even pairs (variance near zero) cannot end
//! the test. On the fifty-seventh and fifty-eighth sessions' clock SPRT (2,327 games, XOT) the
//! pairs' variance was 0.84 of the independent games': the same verdict in about 16 % fewer games.

/// Weight, in pairs, of the trinomial variance that the observed pairs' variance is drawn to.
const PRIOR_PAIRS: f64 = 50.0;

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

    /// The log-likelihood ratio over colour-swapped pairs: `pairs[k]` is how many pairs gave A
    /// `k` half-points (0: two losses … 4: two wins); `draws`, the drawn games among them.
    pub fn llr_pairs(&self, pairs: &[u32; 5], draws: u32) -> f64 {
        let n: f64 = pairs.iter().map(|&c| f64::from(c)).sum();
        if n == 0.0 {
            return 0.0;
        }
        // A pair's mean score a game.
        let x = |k: usize| k as f64 / 4.0;
        let mean = pairs.iter().enumerate().map(|(k, &c)| f64::from(c) * x(k)).sum::<f64>() / n;
        let observed = pairs
            .iter()
            .enumerate()
            .map(|(k, &c)| f64::from(c) * (x(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        let mid = (s0 + s1) / 2.0;
        let draw_rate = f64::from(draws) / (2.0 * n + 1.0);
        let independent = (mid * (1.0 - mid) - draw_rate / 4.0).max(1e-6) / 2.0;
        let var = ((n * observed + PRIOR_PAIRS * independent) / (n + PRIOR_PAIRS)).max(1e-6);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// Where an LLR stands against Wald's bounds.
    pub fn decide(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    pub fn verdict(&self, wins: u32, draws: u32, losses: u32) -> Verdict {
        self.decide(self.llr(wins, draws, losses))
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

    /// 120 pairs [10, 20, 40, 30, 20] with 30 draws, SPRT(0, 10): mean 67.5 / 120 = 0.5625 a
    /// game; observed pair variance 0.0846354; s1 = 0.514387, midpoint 0.507194, draw rate
    /// 30 / 241, independent pair variance (0.507194 · 0.492806 − 0.124481 / 4) / 2 = 0.109414;
    /// drawn towards it by 50 pairs: (120 · 0.0846354 + 50 · 0.109414) / 170 = 0.091923;
    /// LLR = 120 · 0.014387 · (1.125 − 1.014387) / (2 · 0.091923) = 1.0387.
    #[test]
    fn pairs_llr_by_hand() {
        let got = sprt(0.0, 10.0).llr_pairs(&[10, 20, 40, 30, 20], 30);
        assert!((got - 1.038_7).abs() < 1e-3, "{got}");
    }

    /// Even pairs (each engine wins with the favoured colour) have no variance of their own: the
    /// prior keeps a first run of them from ending the test, as with draws.
    #[test]
    fn a_run_of_even_pairs_does_not_end_the_test() {
        let t = sprt(0.0, 10.0);
        for even in 1..=20 {
            let llr = t.llr_pairs(&[0, 0, even, 0, 0], 0);
            assert_eq!(t.decide(llr), Verdict::Continue, "{even} even pairs: {llr}");
        }
    }

    /// Pairs that split more often than independent games would (the colour decides) give a
    /// larger LLR for the same games than the trinomial; pairs whose two games agree more
    /// (the engine decides) a smaller one.
    #[test]
    fn pairs_weigh_the_games_by_their_correlation() {
        let t = sprt(0.0, 10.0);
        // 400 pairs, 460 wins, 0 draws, 340 losses either way.
        let split = t.llr_pairs(&[40, 0, 260, 0, 100], 0);
        let together = t.llr_pairs(&[155, 0, 30, 0, 215], 0);
        let games = t.llr(460, 0, 340);
        assert!(split > games && games > together, "{split} {games} {together}");
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
