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
}

fn index(colour: Color) -> usize {
    if colour == Color::Black { 0 } else { 1 }
}

impl GtpClock {
    /// `time_settings`: both clocks start again.
    pub fn new(settings: Settings) -> GtpClock {
        GtpClock {
            settings,
            left: [settings.fresh(); 2],
        }
    }

    /// A new game (`clear_board`) under the same settings.
    pub fn restart(&mut self) {
        *self = GtpClock::new(self.settings);
    }

    /// `time_left`: the controller's figure replaces our own count. GTP's time is an integer,
    /// so a figure F means F to F+1 seconds; when our own count C lies in that second, the
    /// clock is taken as F + (C − F)/2. Taking C itself lost 10 games of 50 on time on a loaded
    /// core (fourteenth session): C misses the time the controller sees for the exchange of
    /// lines, and that drift added up. Halving it each move keeps the drift from adding up
    /// (at most half of one move's), while F alone threw away half a second a move on average:
    /// on a 2 s clock the GTP side used 1.1 s a game and scored 14.5 % against the same engine
    /// over NBoard, whose times are exact (fifteenth session).
    pub fn set_left(&mut self, colour: Color, left: Left) {
        let ours = self.left[index(colour)];
        let figure = left.seconds.max(0.0);
        let whole = figure.fract() == 0.0;
        let seconds = if whole && ours.stones == left.stones && ours.seconds > figure && ours.seconds < figure + 1.0 {
            figure + (ours.seconds - figure) / 2.0
        } else {
            figure
        };
        self.left[index(colour)] = Left { seconds, ..left };
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
        let s = self.settings;
        if s.unlimited() {
            return;
        }
        let left = &mut self.left[index(colour)];
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
        // Cut to whole seconds (59.7 left by our count), half the fraction our count adds.
        c.charge(Color::Black, 0.3);
        c.set_left(
            Color::Black,
            Left {
                seconds: 59.0,
                stones: 0,
            },
        );
        assert!((c.left(Color::Black).seconds - 59.35).abs() < 1e-9);
        // A figure below our count by more than a second, or with a fraction, is taken as it is.
        c.set_left(
            Color::Black,
            Left {
                seconds: 50.0,
                stones: 0,
            },
        );
        assert_eq!(c.left(Color::Black).seconds, 50.0);
        c.set_left(
            Color::Black,
            Left {
                seconds: 49.5,
                stones: 0,
            },
        );
        assert_eq!(c.left(Color::Black).seconds, 49.5);
        // A figure above our count wins too (the controller's clock is the one that decides).
        c.set_left(
            Color::Black,
            Left {
                seconds: 55.0,
                stones: 0,
            },
        );
        assert_eq!(c.left(Color::Black).seconds, 55.0);
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
