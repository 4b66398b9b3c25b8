//! Time management: turns a game clock into a time budget for one move. No search types here:
//! callers pass the clock and the number of empty squares, and get durations back.

use std::time::Duration;

/// What the clock says for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move (Fischer increment).
    pub increment: Duration,
    /// Moves to play before the clock is refilled (GTP byo-yomi stones); None: sudden death.
    pub moves_to_go: Option<u32>,
}

/// Budget for one move: aim for `target`, never go past `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub target: Duration,
    pub hard: Duration,
}

/// Kept back for the process and pipe latency so the clock never runs out: once, and again for
/// each of our moves still to come (the GUI's clock also counts the exchange of lines). 40 ms
/// and 4 ms used more of a 2-second clock but lost games on time on a loaded core (fourteenth
/// session): back to 50 and 10 until a match on a busy machine shows the smaller margin safe.
const SAFETY: Duration = Duration::from_millis(50);
const PER_MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// Relative effort of a move at `empties`, shaped like the time a tuned level spends where
/// (level 17 against NTest depth 16, 200 XOT games, fifteenth session; seconds a move:
/// 0.025 at 44+ empties, 0.05 at 28-43, 0.03 at 24-27 where the 95 % solves replace the
/// midgame search, 0.21 at 20-23 where the proven WLD and exact solves come, 0.02 at 16-19,
/// nothing below). The first proven solve takes about two fifths of a level's game; weights
/// that leaned to the midgame cut it short under a clock (45 % against NTest depth 16 where
/// the level itself scored 59 %, fourteenth session). Once a solve has gone through, the
/// moves after it come from its table at once.
fn weight(empties: u32) -> f64 {
    match empties {
        0..=12 => 0.03,
        13..=17 => 0.15,
        18..=19 => 0.5,
        20..=23 => 4.5,
        24..=27 => 0.7,
        28..=43 => 1.0,
        _ => 0.45,
    }
}

/// The most of what is left that one move may use: half, and four fifths where the first proven
/// solve comes (20-23 empties): the moves after a solve come from its table, so what it leaves
/// unused is lost, and a solve cut short plays the midgame guess. Against NTest depth 16 at
/// `--game-time 1.3` (200 XOT games, seventeenth session): 55.5 % against the half's 53.5 %,
/// the same clock use; the slowest tenth of the solves got 0.50 s instead of 0.43.
fn hard_share(empties: u32) -> f64 {
    if (20..=23).contains(&empties) { 0.8 } else { 0.5 }
}

/// A move's target scaled to a whole game's clock at the same pace (what a level's seconds a
/// game are compared with).
pub fn game_equivalent(target: Duration, empties: u32) -> Duration {
    let full: f64 = (2..=60).rev().step_by(2).map(weight).sum();
    target.mul_f64(full / weight(empties))
}

/// Seconds from outside (a controller's clock, a command) as a `Duration`, saturating: negative
/// or NaN is 0, anything above 10^9 s (31 years) is 10^9 s, where `Duration::from_secs_f64`
/// would panic (GTP `time_settings 1e300 0 0` did, found by fuzzing the protocol sessions).
pub fn seconds(s: f64) -> Duration {
    Duration::from_secs_f64(if s.is_nan() { 0.0 } else { s.clamp(0.0, 1e9) })
}

/// The reserve kept for the exchange of lines of one move with `remaining` on the clock (10 ms,
/// less on short clocks). A controller's clock counts it; our own count of a move's thinking
/// cannot see it, so a clock we count ourselves is charged part of it with every move
/// (`charged`).
pub fn move_overhead(remaining: Duration) -> Duration {
    PER_MOVE_OVERHEAD.min(remaining.mul_f64(0.004))
}

/// What a clock we count ourselves is charged for a move that took `used` with `remaining` on
/// the clock before it: the move and half the reserve `budget` keeps for the exchange of lines
/// (4-5 ms a move). A controller's clock runs for that exchange too; on a loaded machine it
/// adds up over a game (2 ms a move unseen with four busy processes on two cores).
pub fn charged(used: Duration, remaining: Duration) -> Duration {
    used + move_overhead(remaining) / 2
}

/// The budget for the move at `empties` empties.
pub fn budget(clock: &Clock, empties: u32) -> Budget {
    // Our own moves from here: every other empty square (passes are rare).
    let ours: Vec<u32> = (0..=empties).rev().step_by(2).take_while(|&e| e > 0).collect();
    let ours: Vec<u32> = match clock.moves_to_go {
        Some(n) => ours.into_iter().take(n.max(1) as usize).collect(),
        None => ours,
    };
    // The per-move reserve shrinks with short clocks: 10 ms for each of 26 moves would keep back
    // a fifth of a 1.2 s game (fifteenth session: 53 % of such a clock used).
    let per_move = move_overhead(clock.remaining);
    let remaining = clock.remaining.saturating_sub(SAFETY + per_move * ours.len() as u32);
    let total: f64 = ours.iter().map(|&e| weight(e)).sum::<f64>().max(weight(empties));
    let share = remaining.mul_f64(weight(empties) / total);
    let target = (share + clock.increment.mul_f64(0.9)).min(remaining);
    // The hard limit lets an iteration or a solve run over the target, but never uses more
    // than `hard_share` of what is left (plus the increment that comes back).
    let hard = (target * 3)
        .min(remaining.mul_f64(hard_share(empties)) + clock.increment.mul_f64(0.9))
        .max(target)
        .min(remaining);
    Budget { target, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_from_outside_saturate() {
        assert_eq!(seconds(1.5), Duration::from_millis(1500));
        assert_eq!(seconds(-3.0), Duration::ZERO);
        assert_eq!(seconds(f64::NAN), Duration::ZERO);
        assert_eq!(seconds(1e300), Duration::from_secs(1_000_000_000));
        assert_eq!(seconds(f64::INFINITY), Duration::from_secs(1_000_000_000));
    }

    fn clock(secs: u64) -> Clock {
        Clock {
            remaining: Duration::from_secs(secs),
            increment: Duration::ZERO,
            moves_to_go: None,
        }
    }

    #[test]
    fn a_move_is_charged_half_the_reserve_for_the_exchange() {
        let ms = Duration::from_millis;
        // 10 ms reserve on a long clock, 0.4 % of a short one: half of it is charged.
        assert_eq!(charged(ms(100), Duration::from_secs(60)), ms(105));
        assert_eq!(charged(ms(100), Duration::from_secs(2)), ms(104));
        assert_eq!(charged(ms(0), Duration::ZERO), ms(0));
        // Over a game the charges stay within what `budget` kept back for them.
        let c = clock(2);
        let kept = c.remaining - (c.remaining.saturating_sub(SAFETY + move_overhead(c.remaining) * 30));
        let charged_total: Duration = (0..30).map(|_| charged(Duration::ZERO, c.remaining)).sum();
        assert!(charged_total < kept, "{charged_total:?} {kept:?}");
    }

    #[test]
    fn a_whole_game_never_exceeds_the_clock() {
        for total in [1u64, 10, 60, 300] {
            let mut c = clock(total);
            let mut used = Duration::ZERO;
            for empties in (1..=60).rev().step_by(2) {
                let b = budget(&c, empties);
                assert!(b.target <= b.hard && b.hard <= c.remaining);
                // Worst case: every move uses its hard limit.
                c.remaining = c.remaining.saturating_sub(b.hard);
                used += b.hard;
            }
            assert!(used <= Duration::from_secs(total), "{total}: {used:?}");
            assert!(c.remaining > Duration::ZERO);
        }
    }

    #[test]
    fn solve_region_gets_more_time_than_the_opening() {
        let c = clock(300);
        assert!(budget(&c, 22).target > budget(&c, 56).target);
        // A typical 5-minute game spends a few seconds per opening move.
        let t = budget(&c, 56).target.as_secs_f64();
        assert!((2.0..20.0).contains(&t), "{t}");
    }

    /// Where a level's first proven solve comes (20-23 empties) the move gets about two fifths
    /// of what is left, and a midgame move a few per cent: a level's own profile (fifteenth
    /// session); the hard limit lets the solve run to four fifths of the clock left, a midgame
    /// move to half.
    #[test]
    fn the_first_solve_gets_what_it_needs() {
        for secs in [1u64, 2, 10, 60] {
            let c = clock(secs);
            let solve = budget(&c, 23);
            let left = c.remaining.as_secs_f64();
            assert!(solve.target.as_secs_f64() > 0.35 * left, "{secs}: {solve:?}");
            let hard = solve.hard.as_secs_f64();
            assert!((0.6 * left..=0.8 * left + 1e-9).contains(&hard), "{secs}: {solve:?}");
            assert!(budget(&c, 36).hard.as_secs_f64() <= 0.5 * left + 1e-9, "{secs}");
            let midgame = budget(&c, 36).target.as_secs_f64();
            assert!((0.03 * left..0.08 * left).contains(&midgame), "{secs}: {midgame}");
        }
    }

    /// The reserve for the exchange of lines is 10 ms a move, less on short clocks.
    #[test]
    fn short_clocks_keep_back_less_for_each_move() {
        let kept = |secs: f64| {
            let c = Clock {
                remaining: Duration::from_secs_f64(secs),
                increment: Duration::ZERO,
                moves_to_go: None,
            };
            // Spend every move's target: what is left at the end was kept back.
            let mut c = c;
            for empties in (1..=52).rev().step_by(2) {
                let b = budget(&c, empties);
                c.remaining = c.remaining.saturating_sub(b.target);
            }
            c.remaining.as_secs_f64() / secs
        };
        assert!(kept(1.2) < 0.2, "{}", kept(1.2));
        assert!(kept(60.0) < 0.02, "{}", kept(60.0));
    }

    #[test]
    fn increment_and_byo_yomi() {
        let c = Clock {
            remaining: Duration::from_secs(10),
            increment: Duration::from_secs(2),
            moves_to_go: None,
        };
        assert!(budget(&c, 40).target >= Duration::from_millis(1800));
        let c = Clock {
            remaining: Duration::from_secs(10),
            increment: Duration::ZERO,
            moves_to_go: Some(1),
        };
        assert!(budget(&c, 40).target > Duration::from_secs(9));
        assert_eq!(budget(&clock(0), 30).hard, Duration::ZERO);
    }
}
