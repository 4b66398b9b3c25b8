//! GTP's game clock as the engine keeps it (`time_settings`, `time_left`; Canadian byo-yomi as
//! GTP defines it): one clock per colour, counted down by our own measured thinking time and
//! reset to the controller's figure whenever a `time_left` comes. GTP does not oblige the
//! controller to send `time_left`, so without our own count every move would be budgeted
//! from the full main time and the game clock would run out.

use super::{Budget, move_budget};
use crate::board::Color;
#[cfg(test)]
use std::time::Duration;

/// `time_settings main byo_time byo_stones`, in seconds.
#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub struct Settings {
    pub main: f64,
    pub byo_time: f64,
    pub byo_stones: u32,
}

impl Settings {
    /// GTP: byo-yomi time with no stones means no time limit; so does no time at all (the
    /// default before any `time_settings`).
    fn unlimited(&self) -> bool {
        (self.byo_time > 0.0 && self.byo_stones == 0) || (self.main <= 0.0 && self.byo_time <= 0.0)
    }

    fn has_byo_yomi(&self) -> bool {
        self.byo_time > 0.0 && self.byo_stones > 0
    }

    /// A colour's clock at the start of a game.
    fn fresh(&self) -> Left {
        if self.main <= 0.0 && self.has_byo_yomi() {
            Left {
                seconds: self.byo_time,
                stones: self.byo_stones,
            }
        } else {
            Left {
                seconds: self.main.max(0.0),
                stones: 0,
            }
        }
    }
}

/// What is left on one colour's clock, as `time_left` states it: seconds, and the stones
/// still to play in the byo-yomi period (0: still in main time).
#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub struct Left {
    pub seconds: f64,
    pub stones: u32,
}

#[derive(Clone, Copy, Default, Debug)]
pub struct GtpClock {
    settings: Settings,
    /// Black's and White's clocks.
    left: [Left; 2],
    /// Our own count of each clock from the last time the controller's figure contradicted
    /// it, and the moves charged since (see `set_left`).
    own: [Left; 2],
    moves: [u32; 2],
}

/// What one exchange of lines may cost on the controller's clock beyond the move's own
/// thinking (pipes, scheduling on a loaded core), allowed for when our own count fills in the
/// fraction of a whole-second `time_left`.
const EXCHANGE: f64 = 0.01;

fn index(colour: Color) -> usize {
    if colour == Color::Black { 0 } else { 1 }
}

impl GtpClock {
    /// `time_settings`: both clocks start again.
    pub fn new(settings: Settings) -> GtpClock {
        GtpClock {
            settings,
            left: [settings.fresh(); 2],
            own: [settings.fresh(); 2],
            moves: [0; 2],
        }
    }

    /// A new game (`clear_board`) under the same settings.
    pub fn restart(&mut self) {
        *self = GtpClock::new(self.settings);
    }

    /// `time_left`: the controller's figure replaces our own count. GTP's time is an integer,
    /// so a figure F means F to F+1 seconds, and on short clocks the fraction matters (taking
    /// F alone, the GTP side used 1.1 s of a 2 s clock and scored 14.5 % against the same
    /// engine over NBoard, whose times are exact: fifteenth session). Our own count C fills it
    /// in, less 10 ms for each move since C was last corrected (C misses what the exchange of
    /// lines costs on the controller's clock; taking C as it was lost 10 games of 50 on time on
    /// a loaded core, fourteenth session), and never outside [F, F+1). A figure that C
    /// contradicts (below F, or a second or more above it) resets C to F and a half.
    pub fn set_left(&mut self, colour: Color, left: Left) {
        let i = index(colour);
        let figure = left.seconds.max(0.0);
        let whole = figure.fract() == 0.0;
        let own = self.own[i];
        let seconds = if whole && own.stones == left.stones {
            if own.seconds < figure || own.seconds >= figure + 1.0 {
                self.own[i] = Left {
                    seconds: figure + 0.5,
                    ..left
                };
                self.moves[i] = 0;
                figure
            } else {
                (own.seconds - EXCHANGE * f64::from(self.moves[i])).clamp(figure, figure + 0.999)
            }
        } else {
            self.own[i] = Left { seconds: figure, ..left };
            self.moves[i] = 0;
            figure
        };
        self.left[i] = Left { seconds, ..left };
    }

    pub fn left(&self, colour: Color) -> Left {
        self.left[index(colour)]
    }

    /// Time for one move of `colour` at `empties` empties; None = no limit.
    pub fn budget(&self, colour: Color, empties: u32) -> Option<Budget> {
        if self.settings.unlimited() {
            return None;
        }
        let s = &self.settings;
        let left = self.left(colour);
        if left.stones > 0 {
            return Some(move_budget(left.seconds, 0.0, Some(left.stones), empties));
        }
        let main = move_budget(left.seconds, 0.0, None, empties);
        if !s.has_byo_yomi() {
            return Some(main);
        }
        // Running over the main time only starts the byo-yomi: a move may take what a move of
        // a fresh period may; the overrun is charged to that period (`charge`).
        let period = move_budget(s.byo_time, 0.0, Some(s.byo_stones), empties);
        Some(if period.hard > main.hard { period } else { main })
    }

    /// Whether a clock is running (`time_settings` with a limit, or `--game-time`).
    pub fn is_timed(&self) -> bool {
        !self.settings.unlimited()
    }

    /// Counts `used` seconds of thinking for a move of `colour`, as the controller's clock will.
    pub fn charge(&mut self, colour: Color, used: f64) {
        if self.settings.unlimited() {
            return;
        }
        let i = index(colour);
        self.moves[i] += 1;
        Self::count(self.settings, &mut self.own[i], used);
        Self::count(self.settings, &mut self.left[i], used);
    }

    /// Takes `used` seconds from one clock (main time, then byo-yomi periods).
    fn count(s: Settings, left: &mut Left, used: f64) {
        left.seconds -= used.max(0.0);
        if left.stones == 0 {
            if left.seconds >= 0.0 || !s.has_byo_yomi() {
                left.seconds = left.seconds.max(0.0);
                return;
            }
            // Main time ran out during this move: the rest of it is in the first period.
            *left = Left {
                seconds: s.byo_time + left.seconds,
                stones: s.byo_stones,
            };
        }
        left.seconds = left.seconds.max(0.0);
        left.stones -= 1;
        if left.stones == 0 {
            // The period's stones are played: a new period starts.
            *left = Left {
                seconds: s.byo_time,
                stones: s.byo_stones,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(main: f64, byo_time: f64, byo_stones: u32) -> GtpClock {
        GtpClock::new(Settings {
            main,
            byo_time,
            byo_stones,
        })
    }

    #[test]
    fn no_settings_or_byo_time_without_stones_is_unlimited() {
        assert_eq!(GtpClock::default().budget(Color::Black, 40), None);
        assert_eq!(clock(300.0, 10.0, 0).budget(Color::Black, 40), None);
        assert!(clock(300.0, 0.0, 0).budget(Color::Black, 40).is_some());
        assert!(clock(0.0, 10.0, 5).budget(Color::Black, 40).is_some());
    }

    /// A whole game in which every move uses its full budget stays within the main time.
    #[test]
    fn own_count_keeps_a_sudden_death_game_within_the_clock() {
        let mut c = clock(2.0, 0.0, 0);
        let mut used = 0.0;
        for empties in (1..=60).rev().step_by(2) {
            let b = c.budget(Color::White, empties).expect("timed").hard.as_secs_f64();
            c.charge(Color::White, b);
            used += b;
        }
        assert!(used < 2.0, "{used}");
        assert!(c.left(Color::White).seconds > 0.0);
        // The other colour's clock is untouched.
        assert_eq!(c.left(Color::Black).seconds, 2.0);
    }

    #[test]
    fn time_left_replaces_the_count_and_restart_refills() {
        let mut c = clock(60.0, 0.0, 0);
        c.charge(Color::Black, 10.0);
        assert_eq!(c.left(Color::Black).seconds, 50.0);
        c.set_left(Color::Black, Left { seconds: 5.0, stones: 0 });
        let b = c.budget(Color::Black, 40).expect("timed").hard;
        assert!(b < Duration::from_secs(2), "{b:?}");
        c.charge(Color::Black, 9.0);
        assert_eq!(c.left(Color::Black).seconds, 0.0, "never negative");
        c.restart();
        assert_eq!(c.left(Color::Black).seconds, 60.0);
        // Cut to whole seconds (59.7 left by our count after one move): our count less 10 ms
        // for that move fills in the fraction.
        c.charge(Color::Black, 0.3);
        let whole = |seconds: f64| Left { seconds, stones: 0 };
        c.set_left(Color::Black, whole(59.0));
        assert!((c.left(Color::Black).seconds - 59.69).abs() < 1e-9);
        // Two more moves of 0.2 s: 59.3 by our count, less 30 ms.
        c.charge(Color::Black, 0.2);
        c.charge(Color::Black, 0.2);
        c.set_left(Color::Black, whole(59.0));
        assert!((c.left(Color::Black).seconds - 59.27).abs() < 1e-9);
        // Never below the figure nor a second above it.
        c.charge(Color::Black, 0.28);
        c.set_left(Color::Black, whole(59.0));
        assert_eq!(c.left(Color::Black).seconds, 59.0);
        // A figure our count contradicts is taken as it is, and our count starts again from
        // its middle: below it (the controller gave time back) ...
        c.set_left(Color::Black, whole(61.0));
        assert_eq!(c.left(Color::Black).seconds, 61.0);
        c.set_left(Color::Black, whole(61.0));
        assert_eq!(c.left(Color::Black).seconds, 61.5);
        // ... or a second or more above it (our count ran ahead of the controller's).
        c.set_left(Color::Black, whole(50.0));
        assert_eq!(c.left(Color::Black).seconds, 50.0);
        // A figure with a fraction (not GTP's integers) is exact.
        c.set_left(Color::Black, whole(49.5));
        assert_eq!(c.left(Color::Black).seconds, 49.5);
    }

    #[test]
    fn byo_yomi_periods() {
        let mut c = clock(1.0, 10.0, 2);
        // Main time runs out during a move: the overrun is taken from the first period.
        c.charge(Color::Black, 1.5);
        assert_eq!(c.left(Color::Black), Left { seconds: 9.5, stones: 1 });
        // The period's last stone: a new period.
        c.charge(Color::Black, 3.0);
        assert_eq!(
            c.left(Color::Black),
            Left {
                seconds: 10.0,
                stones: 2
            }
        );
        // Within a period, one stone's budget leaves time for the others.
        let b = c.budget(Color::Black, 30).expect("timed").hard;
        assert!(b < Duration::from_secs(6), "{b:?}");
        // Straight byo-yomi (no main time).
        let c = clock(0.0, 5.0, 1);
        assert_eq!(c.left(Color::White), Left { seconds: 5.0, stones: 1 });
        assert!(c.budget(Color::White, 30).expect("timed").hard > Duration::from_secs(1));
    }
}
