//! A search value as a distribution over the disc scores -64..=64 (risk-aware search,
//! DESIGN.md §7): a CDF in 129 steps. f64 rather than f32: the maximum of many children is
//! a product of many factors near 1, and quantiles compare such products; 1 KB a node is
//! nothing at the handful of plies the distributions are carried.

/// Lowest and highest disc score.
const MIN: i32 = -64;
const STEPS: usize = 129;

/// `cdf[k]` = P(X ≤ k - 64); `cdf[128]` = 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Dist {
    cdf: [f64; STEPS],
}

impl Dist {
    /// A certain value (a solved position, or σ = 0).
    pub fn exact(v: i32) -> Dist {
        Dist::normal(f64::from(v), 0.0)
    }

    /// N(mean, σ²) on the integers: P(X ≤ x) = Φ((x + ½ - mean) / σ), the tails folded onto
    /// ±64. σ = 0 is the step at the rounded mean.
    pub fn normal(mean: f64, sigma: f64) -> Dist {
        let mut cdf = [1.0; STEPS];
        for (k, p) in cdf.iter_mut().enumerate().take(STEPS - 1) {
            let x = (k as i32 + MIN) as f64 + 0.5 - mean;
            *p = if sigma > 0.0 {
                super::mpc::normal_cdf(x / sigma)
            } else if x > 0.0 {
                1.0
            } else {
                0.0
            };
        }
        Dist { cdf }
    }

    /// P(X ≤ x).
    pub fn cdf(&self, x: i32) -> f64 {
        match x {
            x if x < MIN => 0.0,
            x if x >= -MIN => 1.0,
            x => self.cdf[(x - MIN) as usize],
        }
    }

    /// The distribution of -X (negamax: the value seen from the other side).
    pub fn neg(&self) -> Dist {
        // P(-X ≤ x) = P(X ≥ -x) = 1 - P(X ≤ -x - 1).
        let mut cdf = [1.0; STEPS];
        for (k, p) in cdf.iter_mut().enumerate() {
            let x = k as i32 + MIN;
            *p = 1.0 - self.cdf(-x - 1);
        }
        Dist { cdf }
    }

    /// The distribution of max(X, Y) for independent X and Y: the product of the CDFs.
    pub fn max(&self, other: &Dist) -> Dist {
        let mut cdf = self.cdf;
        for (p, q) in cdf.iter_mut().zip(other.cdf.iter()) {
            *p *= q;
        }
        Dist { cdf }
    }

    /// The distribution of X + Z for Z ~ N(0, s²) independent of X, on the integers as
    /// `normal`: P(X + Z ≤ x) = Σ_k P(X = k) Φ((x + ½ - k) / s). s = 0 is X itself.
    pub fn blur(&self, s: f64) -> Dist {
        if s <= 0.0 {
            return self.clone();
        }
        let mut cdf = [1.0; STEPS];
        for (i, p) in cdf.iter_mut().enumerate().take(STEPS - 1) {
            let x = i as i32 + MIN;
            *p = (MIN..=-MIN)
                .map(|k| (self.cdf(k) - self.cdf(k - 1)) * super::mpc::normal_cdf((f64::from(x - k) + 0.5) / s))
                .sum();
        }
        Dist { cdf }
    }

    /// The distribution of X + k, the tails folded onto ±64 as `normal`'s.
    pub fn shift(&self, k: i32) -> Dist {
        let mut cdf = [1.0; STEPS];
        for (i, p) in cdf.iter_mut().enumerate().take(STEPS - 1) {
            // P(X + k ≤ x) = P(X ≤ x - k); `cdf` is 0 below -64 and 1 from 64 on, which folds.
            *p = self.cdf(i as i32 + MIN - k);
        }
        Dist { cdf }
    }

    /// The q-quantile: the smallest x with P(X ≤ x) ≥ q (q in (0, 1]).
    pub fn quantile(&self, q: f64) -> i32 {
        let k = self.cdf.iter().position(|&p| p >= q).unwrap_or(STEPS - 1);
        k as i32 + MIN
    }

    /// The value reached with confidence `percent`: the (1 - c) quantile (c = 95 %: the
    /// pessimistic value, c = 5 %: the optimistic one, 50 %: the median).
    pub fn value(&self, percent: u32) -> i32 {
        self.quantile(1.0 - f64::from(percent.clamp(1, 99)) / 100.0)
    }

    /// P(X > 0): the probability that the side to move wins.
    pub fn win(&self) -> f64 {
        1.0 - self.cdf(0)
    }

    /// P(X = 0).
    pub fn draw(&self) -> f64 {
        self.cdf(0) - self.cdf(-1)
    }

    pub fn odds(&self) -> Odds {
        Odds {
            win: self.win(),
            draw: self.draw(),
        }
    }
}

/// The chances of the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Odds {
    pub win: f64,
    pub draw: f64,
}

impl Odds {
    /// The same chances from the other side.
    pub fn flip(self) -> Odds {
        Odds {
            win: (1.0 - self.win - self.draw).max(0.0),
            draw: self.draw,
        }
    }
}

impl std::fmt::Display for Odds {
    /// `win 62.5% draw 1.0%`: NBoard hints' free text and the terminal's lines.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "win {:.1}% draw {:.1}%", 100.0 * self.win, 100.0 * self.draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_behave_as_numbers() {
        let (a, b) = (Dist::exact(3), Dist::exact(-5));
        for c in [1, 5, 50, 95, 99] {
            assert_eq!(a.value(c), 3);
            assert_eq!(a.neg().value(c), -3);
            assert_eq!(a.max(&b).value(c), 3);
            assert_eq!(b.neg().max(&a.neg()).value(c), 5);
        }
        assert_eq!(Dist::exact(64).value(50), 64);
        assert_eq!(Dist::exact(-64).neg().value(50), 64);
        assert_eq!((a.win(), a.draw()), (1.0, 0.0));
        assert_eq!((Dist::exact(0).win(), Dist::exact(0).draw()), (0.0, 1.0));
    }

    #[test]
    fn the_maximum_of_three_even_children_is_positive_seven_times_in_eight() {
        // DESIGN.md §7: three N(0, σ²) children give P(best > 0) = 1 - 0.5³ = 87.5 % (here on
        // integers, so P(best > 0) is P(best ≥ 1) = 1 - Φ(0.5/σ)³; σ large makes it 87.5 %).
        let n = Dist::normal(0.0, 400.0);
        let m = n.max(&n).max(&n);
        assert!((m.win() - 0.875).abs() < 0.01, "{}", m.win());
    }

    #[test]
    fn blurring_adds_a_normal_error() {
        let d = Dist::exact(3).blur(4.0);
        let n = Dist::normal(3.0, 4.0);
        assert!((-64..=64).all(|x| (d.cdf(x) - n.cdf(x)).abs() < 1e-6));
        assert_eq!(Dist::normal(5.0, 2.0).blur(0.0), Dist::normal(5.0, 2.0));
    }

    #[test]
    fn shifting_moves_every_quantile() {
        let d = Dist::normal(3.0, 5.0);
        for c in [5, 50, 95] {
            assert_eq!(d.shift(-7).value(c), d.value(c) - 7);
            assert_eq!(d.shift(4).value(c), d.value(c) + 4);
        }
        // Folded at the ends: every quantile stays within ±64.
        assert_eq!(Dist::exact(60).shift(10), Dist::exact(64));
        assert_eq!(Dist::exact(-60).shift(-10), Dist::exact(-64));
    }

    #[test]
    fn quantiles_follow_the_normal_table() {
        let d = Dist::normal(10.0, 4.0);
        assert_eq!(d.value(50), 10);
        // 1.645 σ = 6.6 discs either side.
        assert_eq!(d.value(95), 3);
        assert_eq!(d.value(5), 17);
        assert_eq!(d.neg().value(50), -10);
        assert_eq!(d.neg().value(95), -17);
        assert!((d.win() - (1.0 - crate::search::mpc::normal_cdf(-9.5 / 4.0))).abs() < 1e-9);
    }
}
