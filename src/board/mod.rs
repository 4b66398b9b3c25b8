//! The board: two bitboards from the side to move's point of view.

pub mod bits;
pub mod notation;
pub mod stability;
pub mod symmetry;

pub use notation::{NotationError, Square};

/// A position. `player` holds the discs of the side to move, `opponent` the others.
/// Which colour is to move is tracked by the caller (see [`Position`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub player: u64,
    pub opponent: u64,
}

/// Disc colours. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// A board plus the colour to move: what notation and protocols talk about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub board: Board,
    pub to_move: Color,
}

impl Board {
    /// The standard start position, Black (to move) on d5 and e4.
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    pub fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    #[inline]
    pub fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    #[inline(always)]
    pub fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    #[inline(always)]
    pub fn moves(&self) -> u64 {
        bits::moves(self.player, self.opponent)
    }

    /// Discs flipped by playing `sq` (0 if the move is illegal or the square is taken).
    #[inline]
    pub fn flips(&self, sq: usize) -> u64 {
        if self.empties() >> sq & 1 == 0 {
            return 0;
        }
        bits::flips(self.player, self.opponent, sq)
    }

    /// The board after the side to move plays `sq` with the given `flips` (sides swapped).
    #[inline]
    pub fn play_flips(&self, sq: usize, flips: u64) -> Board {
        Board {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ (1u64 << sq),
        }
    }

    /// Plays `sq` if it is legal, returning the new board (sides swapped).
    pub fn play(&self, sq: usize) -> Option<Board> {
        let f = self.flips(sq);
        (f != 0).then(|| self.play_flips(sq, f))
    }

    /// The board after a pass: the same discs, the other side to move.
    #[inline]
    pub fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && self.pass().moves() == 0
    }

    /// Final disc difference for the side to move, empties counted for the winner
    /// (tournament rules).
    #[inline]
    pub fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let e = 64 - p - o;
        let d = p - o;
        if d > 0 {
            d + e
        } else if d < 0 {
            d - e
        } else {
            0
        }
    }

    /// A fast 64-bit hash of the two bitboards (multiply and xor-shift).
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h =
            self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.opponent.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }
}

impl Position {
    pub fn start() -> Position {
        Position {
            board: Board::START,
            to_move: Color::Black,
        }
    }

    /// Plays `sq` for the side to move if legal.
    pub fn play(&self, sq: usize) -> Option<Position> {
        self.board.play(sq).map(|board| Position {
            board,
            to_move: self.to_move.other(),
        })
    }

    pub fn pass(&self) -> Position {
        Position {
            board: self.board.pass(),
            to_move: self.to_move.other(),
        }
    }

    /// Discs of (black, white).
    pub fn black_white(&self) -> (u64, u64) {
        match self.to_move {
            Color::Black => (self.board.player, self.board.opponent),
            Color::White => (self.board.opponent, self.board.player),
        }
    }

    pub fn from_black_white(black: u64, white: u64, to_move: Color) -> Position {
        let board = match to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Position { board, to_move }
    }
}

/// A random game from the start down to `empties` empties (or its end): test positions.
#[cfg(test)]
pub fn random_game(seed: &mut u64, empties: u32) -> Board {
    let mut b = Board::START;
    while b.empty_count() > empties && !b.is_game_over() {
        let m = b.moves();
        if m == 0 {
            b = b.pass();
            continue;
        }
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let k = (*seed >> 33) as u32 % m.count_ones();
        b = b.play(bits::Squares(m).nth(k as usize).unwrap_or(0)).unwrap_or(b);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_score_gives_empties_to_winner() {
        assert_eq!(Board::new(0xFF, 0xFF00).final_score(), 0);
        assert_eq!(Board::new(0x1FF, 0xFF00).final_score(), 64 - 8 - 8);
        assert_eq!(Board::new(0xFF, 0x1FF00).final_score(), -(64 - 8 - 8));
        assert_eq!(Board::new(!0 ^ 1, 1).final_score(), 62);
    }

    #[test]
    fn play_and_pass() {
        let b = Board::START;
        let after = b.play(19).expect("d3 is legal");
        assert_eq!(after.opponent.count_ones(), 4);
        assert_eq!(after.player.count_ones(), 1);
        assert!(b.play(0).is_none());
        assert_eq!(b.pass().pass(), b);
        assert!(!b.is_game_over());
        assert!(Board::new(!0, 0).is_game_over());
    }
}
