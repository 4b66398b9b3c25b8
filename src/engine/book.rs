//! The opening book as the engines use it: probed before thinking, grown by NBoard `learn`.

use super::{Think, ThinkInfo, ThinkRequest, think_position};
use crate::board::{Board, Color, Position, Square};
use crate::book::{Book, Learned, Searched, Valuer};
use crate::game::Game;
use crate::protocol::SearchDepth;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// The engine's book and where learned games are saved (None: in memory only, as for the
/// embedded book, which is never written).
#[derive(Clone, Default, Debug)]
pub struct EngineBook {
    pub book: Book,
    pub file: Option<PathBuf>,
}

/// A book move chosen for `go`/`genmove`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct BookChoice {
    pub mv: Square,
    /// Side to move's view, in discs.
    pub value: f64,
}

impl EngineBook {
    /// The best move of a position with at least one book move (the deviation included when
    /// it is better); None out of book, at a book leaf (our own search is then at least as
    /// deep) and when a pass is forced.
    pub fn choose(&self, pos: &Position) -> Option<BookChoice> {
        let moves = self.book.moves(&pos.board);
        if !moves.iter().any(|m| m.in_book) || pos.board.moves() == 0 {
            return None;
        }
        moves.first().map(|m| BookChoice {
            mv: m.mv,
            value: f64::from(m.value),
        })
    }

    /// One hint per move into the book, best first, with the book line as its PV.
    pub fn hints(&self, pos: &Position) -> Vec<ThinkInfo> {
        let b = pos.board;
        self.book
            .moves(&b)
            .into_iter()
            .filter(|m| m.in_book)
            .map(|m| ThinkInfo {
                pv: self.book.line(&b, m.mv),
                score: f64::from(m.value),
                depth: m.depth,
                nodes: 0,
                seconds: 0.0,
                odds: None,
            })
            .collect()
    }

    /// Adds a game from the start position (either side to move: White first is the start
    /// after a pass) or from a set-up position that is in the book, valuing new positions with
    /// `thinker` at `level`, and saves the book to its file if it has one. `stop` ends the
    /// learn early with what was valued so far (`Learned::finished` false; learning the game
    /// again goes on from there).
    pub fn learn(&mut self, game: &Game, thinker: &mut dyn Think, level: u32, stop: &AtomicBool) -> Result<Learned, String> {
        let start = game.start().board;
        if start != Position::start().board && !self.book.contains(&start) {
            return Err("game not learned: it starts neither from the initial position nor from a book position".into());
        }
        let line: Vec<Board> = game.positions().iter().map(|p| p.board).collect();
        let mut valuer = ThinkValuer { thinker, level, stop };
        let learned = self.book.learn(&line, &mut valuer);
        if let Some(file) = &self.file {
            // `save` writes a new file and renames it: a kill leaves the old book whole.
            self.book
                .save(file)
                .map_err(|e| format!("game learned but the book was not saved: {e}"))?;
        }
        Ok(learned)
    }
}

/// Book values from the engine's own search at a level.
struct ThinkValuer<'a> {
    thinker: &'a mut dyn Think,
    level: u32,
    stop: &'a AtomicBool,
}

impl Valuer for ThinkValuer<'_> {
    fn search(&mut self, board: &Board) -> Searched {
        let req = ThinkRequest {
            position: Position {
                board: *board,
                to_move: Color::Black,
            },
            depth: self.level,
            time: None,
            moves: 1,
            draw_value: 0.0,
            // Book values are the ordinary search's.
            risk: None,
        };
        // A search cut short is not stored: `Book::learn` asks `stopped` before storing.
        match think_position(self.thinker, &req, self.stop, &mut |_| {}) {
            Some(r) => Searched {
                best: r.best,
                value: r.score.round().clamp(-64.0, 64.0) as i32,
                depth: r.depth,
            },
            None => Searched {
                best: Square::Pass,
                value: board.final_score(),
                depth: SearchDepth::Exact,
            },
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}
