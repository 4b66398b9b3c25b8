//! Contempt: the value of a proven draw (NBoard `set contempt`, PROTOCOLS.md §1.3).
//!
//! The searches work in whole discs, and every final score of a game is even (the empties go
//! to the winner, so the two counts add up to 64). A draw valued at one disc either way
//! therefore sits strictly between a loss by two and a win by two: the order of real results
//! never changes, a win is still preferred to a draw and a draw to a loss, and only the
//! comparison of a proven draw with an *estimate* moves (a draw at +1 beats an estimate of 0,
//! at -1 it loses to it). A larger value would make a draw tie with or beat a real win; the
//! contempt is capped at one disc for that reason. NBoard sends only +100, 0 and -100
//! centidiscs, exactly one disc or nothing.
//!
//! Because the map from a real score `v` to its value with contempt, [`value`], is monotone
//! for such draws, an exact solver that knows nothing of contempt still answers a null-window
//! question about the valued score: "valued above alpha" is "real score above
//! [`threshold`]`(alpha)`", and the solver's fail-soft bound maps through [`value`]. The
//! solver and its table stay free of contempt.

/// The value of a draw in whole discs from `discs` (side to move's view, any sign): 0 for 0,
/// otherwise one disc in the contempt's direction (see the module notes for the cap).
pub fn from_discs(discs: f64) -> i32 {
    if discs > 0.0 {
        1
    } else if discs < 0.0 {
        -1
    } else {
        0
    }
}

/// A real score (or a fail-soft bound on one) valued with a draw worth `draw` (-1, 0 or 1).
#[inline]
pub fn value(score: i32, draw: i32) -> i32 {
    if score == 0 { draw } else { score }
}

/// The largest real score whose [`value`] is at most `alpha`: a real score is above it
/// exactly when its value is above `alpha`.
#[inline]
pub fn threshold(alpha: i32, draw: i32) -> i32 {
    match draw {
        // Draws are worth 1: a value above 0 is any score from 0 up.
        1 if alpha == 0 => -1,
        // Draws are worth -1: a value above -1 is a win.
        -1 if alpha == -1 => 0,
        _ => alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contempt_is_one_disc_in_its_direction() {
        assert_eq!(from_discs(0.0), 0);
        assert_eq!(from_discs(1.0), 1);
        assert_eq!(from_discs(-1.0), -1);
        assert_eq!(from_discs(0.25), 1);
        assert_eq!(from_discs(-3.0), -1);
    }

    /// `threshold` is what its definition says, and a null-window test of the real score at
    /// the threshold answers the valued question, with a fail-soft bound that stays a bound:
    /// every alpha, every real score, every bound a solver could return.
    #[test]
    fn threshold_turns_a_valued_question_into_a_real_one() {
        for draw in -1..=1 {
            // The map is monotone: that is what makes the translation possible.
            for x in -66..66 {
                assert!(value(x, draw) <= value(x + 1, draw), "draw {draw} at {x}");
            }
            for alpha in -66..=66 {
                let t = threshold(alpha, draw);
                assert!(
                    value(t, draw) <= alpha && value(t + 1, draw) > alpha,
                    "draw {draw} alpha {alpha}"
                );
                for v in (-64..=64).step_by(2) {
                    assert_eq!(v > t, value(v, draw) > alpha, "draw {draw} alpha {alpha} score {v}");
                    // Fail high with a lower bound s <= v, or low with an upper bound s >= v.
                    for s in -65..=65 {
                        if s > t && s <= v {
                            assert!(value(s, draw) > alpha && value(s, draw) <= value(v, draw));
                        }
                        if s <= t && s >= v {
                            assert!(value(s, draw) <= alpha && value(s, draw) >= value(v, draw));
                        }
                    }
                }
            }
        }
        // Without contempt nothing changes.
        for alpha in -66..=66 {
            assert_eq!(threshold(alpha, 0), alpha);
            assert_eq!(value(alpha, 0), alpha);
        }
    }

    /// The exact solver, which knows nothing of contempt, answers the valued null-window
    /// questions through `threshold` and `value` (as the midgame's solve hand-offs ask them):
    /// the side of alpha is right and the fail-soft score is a bound on the valued score.
    #[test]
    fn solver_answers_questions_about_valued_scores() {
        use crate::search::endgame::{SolveMode, Solver};
        use std::sync::atomic::AtomicBool;
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4);
        let mut seed = 4242u64;
        let mut draws = 0;
        for game in 0..400 {
            let b = crate::board::random_game(&mut seed, 8 + game % 4);
            if b.is_game_over() {
                continue;
            }
            let exact = solver.solve(&b, SolveMode::Exact, None, &stop).score;
            draws += usize::from(exact == 0);
            for draw in -1..=1 {
                let valued = value(exact, draw);
                for alpha in -8..=8 {
                    solver.tt.clear();
                    let r = solver.null_window(&b, threshold(alpha, draw), &stop, None, None);
                    let s = value(r.score, draw);
                    assert_eq!(s > alpha, valued > alpha, "{b:?} draw {draw} alpha {alpha}");
                    if s > alpha {
                        assert!(
                            valued >= s,
                            "{b:?} draw {draw} alpha {alpha}: lower bound {s}, value {valued}"
                        );
                    } else {
                        assert!(
                            valued <= s,
                            "{b:?} draw {draw} alpha {alpha}: upper bound {s}, value {valued}"
                        );
                    }
                }
            }
        }
        assert!(draws >= 8, "{draws} drawn endgames");
    }
}
