//! A game record: start position, the plies played (passes included, each with an optional
//! evaluation and time), a cursor for undo/redo, and the clocks.
//!
//! Passes are explicit plies, as in GGF and the NBoard protocol: a `Pass` ply is legal only when
//! the side to move has no move. Keeping them explicit is what keeps the side to move right
//! (PROTOCOLS.md pitfall 6.1); importers that read pass-free transcripts insert them.

use crate::board::notation::parse_transcript;
use crate::board::{Color, Position, Square};
use std::fmt;

/// One ply: a move or a pass, with what the player reported about it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Ply {
    pub mv: Square,
    /// Evaluation in discs from the mover's point of view, if reported.
    pub eval: Option<f64>,
    /// Seconds the mover spent, if reported.
    pub time: Option<f64>,
}

impl Ply {
    /// A ply with no evaluation and no time.
    pub fn bare(mv: Square) -> Ply {
        Ply {
            mv,
            eval: None,
            time: None,
        }
    }
}

/// A game clock as GGS/NBoard define it (`OsClock`): seconds for the game, seconds added after
/// each move, and a one-time grace period added at the first timeout.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Clock {
    pub main: f64,
    pub increment: f64,
    pub grace: f64,
}

impl Clock {
    /// GGS's default grace period when a clock does not give one.
    pub const DEFAULT_GRACE: f64 = 120.0;

    /// No time on the clock: NBoard's `TI[0//0]` means "no clock", so callers treat it as absent.
    pub fn is_unlimited(&self) -> bool {
        self.main <= 0.0 && self.increment <= 0.0
    }

    /// Time left after the given move times, following `OsClock.update`: each move subtracts its
    /// time; the first time the clock goes negative the grace is added once; then the increment.
    pub fn remaining(&self, times: impl IntoIterator<Item = f64>) -> f64 {
        let mut left = self.main;
        let mut timeouts = 0;
        for t in times {
            left -= t;
            if left < 0.0 {
                if timeouts == 0 {
                    left += self.grace;
                    timeouts = 1;
                }
                if left < 0.0 {
                    left = 0.0;
                    timeouts = 2;
                }
            }
            if timeouts < 2 {
                left += self.increment;
            }
        }
        left
    }
}

/// Why a ply cannot be added. `ply` counts from 1 at the start position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    IllegalMove {
        ply: usize,
        mv: Square,
    },
    /// A pass although the side to move has a move.
    IllegalPass {
        ply: usize,
    },
    GameOver {
        ply: usize,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalMove { ply, mv } => write!(f, "illegal move {} at ply {ply}", mv.to_string().to_uppercase()),
            GameError::IllegalPass { ply } => write!(f, "pass at ply {ply} although a move is available"),
            GameError::GameOver { ply } => write!(f, "ply {ply} played after the game is over"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game: `plies[..cursor]` are played; `plies[cursor..]` can be redone.
#[derive(Clone, Debug)]
pub struct Game {
    /// `positions[i]` is the position before `plies[i]`; one more entry than `plies`.
    positions: Vec<Position>,
    plies: Vec<Ply>,
    cursor: usize,
    /// Start clocks of (black, white); None = no clock.
    clocks: [Option<Clock>; 2],
}

fn colour_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            plies: Vec::new(),
            cursor: 0,
            clocks: [None, None],
        }
    }

    /// Imports a transcript such as `f5d6c3` (explicit `pa` allowed), inserting forced passes.
    pub fn from_transcript(start: Position, text: &str) -> Result<Game, TranscriptError> {
        let moves = parse_transcript(text).map_err(|e| TranscriptError::Syntax(e.to_string()))?;
        let mut game = Game::new(start);
        for mv in moves {
            game.play_forcing_pass(Ply::bare(mv)).map_err(TranscriptError::Game)?;
        }
        Ok(game)
    }

    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The position after the played plies.
    pub fn position(&self) -> Position {
        self.positions[self.cursor]
    }

    /// The plies played so far (not the redo tail).
    pub fn plies(&self) -> &[Ply] {
        &self.plies[..self.cursor]
    }

    /// Every position from the start to the current one (`moves_since_start() + 1` entries).
    pub fn positions(&self) -> &[Position] {
        &self.positions[..=self.cursor]
    }

    /// Plies played since the start position, passes included (NBoard's "movesMade").
    pub fn moves_since_start(&self) -> usize {
        self.cursor
    }

    /// Plays a ply, validating it. A pass is legal only when the side to move has no move.
    /// Drops the redo tail.
    pub fn play(&mut self, ply: Ply) -> Result<(), GameError> {
        let next = self.after(ply.mv)?;
        self.plies.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.plies.push(ply);
        self.positions.push(next);
        self.cursor += 1;
        Ok(())
    }

    /// Plays a move, first inserting a pass if the side to move has no move but the opponent
    /// does (for sources that leave forced passes out). Returns whether a pass was inserted.
    pub fn play_forcing_pass(&mut self, ply: Ply) -> Result<bool, GameError> {
        let b = self.position().board;
        let forced = matches!(ply.mv, Square::At(_)) && b.moves() == 0 && b.pass().moves() != 0;
        if forced {
            self.play(Ply::bare(Square::Pass))?;
        }
        if let Err(e) = self.play(ply) {
            if forced {
                self.undo();
                self.plies.truncate(self.cursor);
                self.positions.truncate(self.cursor + 1);
            }
            return Err(e);
        }
        Ok(forced)
    }

    /// The position after `mv`, or why it is not legal now.
    fn after(&self, mv: Square) -> Result<Position, GameError> {
        let pos = self.position();
        let ply = self.cursor + 1;
        if pos.board.is_game_over() {
            return Err(GameError::GameOver { ply });
        }
        match mv {
            Square::Pass if pos.board.moves() == 0 => Ok(pos.pass()),
            Square::Pass => Err(GameError::IllegalPass { ply }),
            Square::At(sq) => pos.play(sq as usize).ok_or(GameError::IllegalMove { ply, mv }),
        }
    }

    /// Whether `mv` is legal in the current position.
    pub fn is_legal(&self, mv: Square) -> bool {
        self.after(mv).is_ok()
    }

    /// Takes back one ply (kept for redo). False at the start.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Replays one undone ply. False when there is none.
    pub fn redo(&mut self) -> bool {
        if self.cursor == self.plies.len() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// Neither side can move.
    pub fn is_over(&self) -> bool {
        self.position().board.is_game_over()
    }

    /// Disc difference black minus white, empties to the winner; meaningful when the game is over.
    pub fn final_score(&self) -> i32 {
        let pos = self.position();
        let s = pos.board.final_score();
        match pos.to_move {
            Color::Black => s,
            Color::White => -s,
        }
    }

    pub fn set_clock(&mut self, colour: Color, clock: Option<Clock>) {
        self.clocks[colour_index(colour)] = clock;
    }

    pub fn clock(&self, colour: Color) -> Option<Clock> {
        self.clocks[colour_index(colour)]
    }

    /// Seconds left on `colour`'s clock after its played plies (None without a clock, or with
    /// an unlimited one such as `TI[0//0]`).
    pub fn time_left(&self, colour: Color) -> Option<f64> {
        self.time_left_using(colour, |_, ply| ply.time.unwrap_or(0.0))
    }

    /// As `time_left`, with each ply's time given by `time_of(position before it, ply)`.
    pub fn time_left_using(&self, colour: Color, time_of: impl Fn(&Position, &Ply) -> f64) -> Option<f64> {
        let clock = self.clock(colour).filter(|c| !c.is_unlimited())?;
        let times = self
            .plies()
            .iter()
            .zip(&self.positions)
            .filter(|(_, pos)| pos.to_move == colour)
            .map(|(ply, pos)| time_of(pos, ply));
        Some(clock.remaining(times))
    }
}

/// Why a transcript could not be imported.
#[derive(Clone, PartialEq, Debug)]
pub enum TranscriptError {
    Syntax(String),
    Game(GameError),
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Syntax(s) => f.write_str(s),
            TranscriptError::Game(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TranscriptError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_position;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("test square")
    }

    #[test]
    fn play_undo_redo() {
        let mut g = Game::default();
        g.play(Ply::bare(sq("f5"))).expect("legal");
        g.play(Ply::bare(sq("d6"))).expect("legal");
        assert_eq!(g.moves_since_start(), 2);
        assert_eq!(g.position().to_move, Color::Black);
        assert!(g.undo());
        assert_eq!(g.moves_since_start(), 1);
        assert_eq!(g.plies().len(), 1);
        assert!(g.redo());
        assert!(!g.redo());
        assert_eq!(g.moves_since_start(), 2);
        assert!(g.undo() && g.undo() && !g.undo());
        assert_eq!(g.position(), Position::start());
        // Playing after undo drops the redo tail.
        g.play(Ply::bare(sq("d3"))).expect("legal");
        assert!(!g.redo());
        assert_eq!(g.positions().len(), 2);
    }

    #[test]
    fn illegal_plies_are_errors_naming_the_ply() {
        let mut g = Game::default();
        assert_eq!(
            g.play(Ply::bare(sq("a1"))),
            Err(GameError::IllegalMove { ply: 1, mv: sq("a1") })
        );
        assert_eq!(g.play(Ply::bare(Square::Pass)), Err(GameError::IllegalPass { ply: 1 }));
        g.play(Ply::bare(sq("f5"))).expect("legal");
        let e = g.play(Ply::bare(sq("f5"))).expect_err("occupied");
        assert_eq!(e.to_string(), "illegal move F5 at ply 2");
        assert_eq!(g.moves_since_start(), 1);
    }

    /// Builds a position from (square, char) overrides on a board filled with `fill`.
    fn board(fill: char, marks: &[(usize, char)], side: char) -> Position {
        let mut squares = vec![fill; 64];
        for &(i, c) in marks {
            squares[i] = c;
        }
        let text: String = squares.into_iter().collect();
        parse_position(&format!("{text} {side}")).expect("valid test board")
    }

    /// Black a1, white b1, White to move: White has no move, Black has c1.
    fn white_must_pass() -> Position {
        board('-', &[(0, 'X'), (1, 'O')], 'O')
    }

    #[test]
    fn passes_are_explicit_plies() {
        let start = white_must_pass();
        let mut g = Game::new(start);
        assert!(!g.is_over());
        assert!(g.play(Ply::bare(sq("c1"))).is_err());
        g.play(Ply::bare(Square::Pass)).expect("forced pass");
        assert_eq!(g.position().to_move, Color::Black);
        g.play(Ply::bare(sq("c1"))).expect("black c1");
        assert!(g.is_over());
        assert_eq!(g.final_score(), 64);
        assert_eq!(g.moves_since_start(), 2);
        assert!(matches!(g.play(Ply::bare(Square::Pass)), Err(GameError::GameOver { ply: 3 })));
    }

    #[test]
    fn forced_pass_is_inserted_for_pass_free_sources() {
        let mut g = Game::new(white_must_pass());
        assert_eq!(g.play_forcing_pass(Ply::bare(sq("c1"))), Ok(true));
        assert_eq!(g.plies().len(), 2);
        assert_eq!(g.plies()[0].mv, Square::Pass);
        // A failed move after an inserted pass leaves the game as it was.
        let mut g = Game::new(white_must_pass());
        assert!(g.play_forcing_pass(Ply::bare(sq("a1"))).is_err());
        assert_eq!(g.moves_since_start(), 0);
        assert!(!g.redo());
        let g = Game::from_transcript(white_must_pass(), "c1").expect("imports");
        assert_eq!(g.moves_since_start(), 2);
        assert!(Game::from_transcript(Position::start(), "f5x9").is_err());
        assert!(matches!(
            Game::from_transcript(Position::start(), "f5d6c3c3"),
            Err(TranscriptError::Game(GameError::IllegalMove { ply: 4, .. }))
        ));
    }

    #[test]
    fn final_score_is_black_minus_white_with_empties_to_winner() {
        // White to move, game over: white b1 c1, h8 empty, black elsewhere -> black +60.
        let g = Game::new(board('X', &[(1, 'O'), (2, 'O'), (63, '-')], 'O'));
        assert!(g.is_over());
        assert_eq!(g.final_score(), 61 - 2 + 1);
    }

    #[test]
    fn clocks_follow_osclock() {
        let c = Clock {
            main: 10.0,
            increment: 1.0,
            grace: 5.0,
        };
        assert_eq!(c.remaining([]), 10.0);
        assert_eq!(c.remaining([3.0, 2.0]), 7.0);
        // Timeout: grace added once, then the increment.
        assert_eq!(c.remaining([12.0]), 4.0);
        // Second timeout: zero, no more increments.
        assert_eq!(c.remaining([12.0, 10.0, 1.0]), 0.0);
        let mut g = Game::default();
        g.set_clock(
            Color::Black,
            Some(Clock {
                main: 300.0,
                increment: 0.0,
                grace: 120.0,
            }),
        );
        g.play(Ply {
            mv: sq("f5"),
            eval: None,
            time: Some(2.5),
        })
        .expect("legal");
        g.play(Ply {
            mv: sq("d6"),
            eval: Some(0.0),
            time: Some(7.0),
        })
        .expect("legal");
        assert_eq!(g.time_left(Color::Black), Some(297.5));
        assert_eq!(g.time_left(Color::White), None);
        g.set_clock(
            Color::White,
            Some(Clock {
                main: 0.0,
                increment: 0.0,
                grace: 0.0,
            }),
        );
        assert_eq!(g.time_left(Color::White), None);
    }
}
