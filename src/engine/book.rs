//! The opening book as the engines use it: probed before thinking, grown by NBoard `learn`.

use super::{Think, ThinkInfo, ThinkRequest, think_position};
use crate::base::SearchDepth;
use crate::board::{Board, Color, Position, Square};
use crate::book::{Book, BookMove, Learned, Searched, Valuer};
use crate::game::Game;
use crate::rng::{GAMMA, mix};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The engine's book and where learned games are saved (None: in memory only, as for the
/// embedded book, which is never written).
#[derive(Clone, Default, Debug)]
pub struct EngineBook {
    pub book: Book,
    pub file: Option<PathBuf>,
    /// Book moves within this many discs of the best are played at random, so that games
    /// from the same position differ (0: always the best).
    pub randomness: u32,
    pub rng: Lottery,
}

/// The book's random choices (splitmix64): a seed from the clock unless one is given, so
/// that two engine processes do not repeat each other; shared state, so `choose` needs no
/// `&mut`.
#[derive(Debug, Default)]
pub struct Lottery(AtomicU64);

impl Lottery {
    pub fn seeded(seed: u64) -> Lottery {
        Lottery(AtomicU64::new(seed))
    }

    /// A seed from the clock and the process id.
    pub fn from_clock() -> Lottery {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Lottery::seeded(nanos ^ u64::from(std::process::id()).rotate_left(32))
    }

    /// A number below `n` (n ≥ 1).
    fn below(&self, n: usize) -> usize {
        let s = self.0.fetch_add(GAMMA, Ordering::Relaxed).wrapping_add(GAMMA);
        (mix(s) % n.max(1) as u64) as usize
    }
}

impl Clone for Lottery {
    fn clone(&self) -> Lottery {
        Lottery::seeded(self.0.load(Ordering::Relaxed))
    }
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
    /// it is better), or with `randomness`, any book move within that many discs of the best,
    /// each as likely; None out of book, at a book leaf (our own search is then at least as
    /// deep) and when a pass is forced. A move the book proves a draw (value 0 from an exact or
    /// WLD solve) counts as `draw` discs (contempt, `search::draw`), its real value reported.
    pub fn choose(&self, pos: &Position, draw: i32) -> Option<BookChoice> {
        let moves = self.book.moves(&pos.board);
        if !moves.iter().any(|m| m.in_book) || pos.board.moves() == 0 {
            return None;
        }
        let valued = |m: &BookMove| {
            if m.value == 0 && matches!(m.depth, SearchDepth::Exact | SearchDepth::Wld) {
                draw
            } else {
                m.value
            }
        };
        // The first of the best: among equal values the book's order (book moves first).
        let (top, best) = moves
            .iter()
            .enumerate()
            .fold(None, |acc: Option<(usize, &BookMove)>, (i, m)| match acc {
                Some((_, b)) if valued(b) >= valued(m) => acc,
                _ => Some((i, m)),
            })?;
        let floor = valued(best) - self.randomness as i32;
        let candidates: Vec<_> = moves
            .iter()
            .enumerate()
            .filter(|&(i, m)| (i == top || m.in_book) && valued(m) >= floor)
            .map(|(_, m)| m)
            .collect();
        let m = if candidates.len() > 1 {
            candidates[self.rng.below(candidates.len())]
        } else {
            best
        };
        Some(BookChoice {
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
            by_clock: false,
            until_stopped: false,
            level: self.level,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Without randomness the best move every time; with it, only book moves within the
    /// given discs of the best, and more than one of them over many draws.
    #[test]
    fn randomness_picks_among_near_best_book_moves() {
        let book = Book::embedded().expect("embedded book");
        let pos = Position::start().play(37).expect("f5");
        let moves = book.moves(&pos.board);
        let best = moves[0];
        let steady = EngineBook {
            book: book.clone(),
            ..EngineBook::default()
        };
        for _ in 0..20 {
            assert_eq!(steady.choose(&pos, 0).map(|c| c.mv), Some(best.mv));
        }
        for discs in [2, 64] {
            let random = EngineBook {
                book: book.clone(),
                randomness: discs,
                rng: Lottery::seeded(7),
                ..EngineBook::default()
            };
            let mut seen = std::collections::HashSet::new();
            for _ in 0..200 {
                let c = random.choose(&pos, 0).expect("in book");
                let m = moves.iter().find(|m| m.mv == c.mv).expect("a listed move");
                assert!(m.in_book || m.mv == best.mv, "{:?}", c.mv);
                assert!(m.value >= best.value - discs as i32, "{:?} {}", c.mv, m.value);
                seen.insert(c.mv);
            }
            let eligible = moves
                .iter()
                .filter(|m| (m.in_book || m.mv == best.mv) && m.value >= best.value - discs as i32)
                .count();
            assert_eq!(seen.len(), eligible, "every eligible move drawn over 200 draws");
            assert!(eligible > 1 || discs == 2);
        }
    }

    /// Contempt in the book: of two book moves valued 0, one a proven draw (an exact solve)
    /// and one an even estimate, a draw worth +1 takes the draw and a draw worth -1 the
    /// estimate; the move's reported value stays the book's. A proven draw worth +1 does not
    /// beat a better estimate (+2).
    #[test]
    fn contempt_chooses_between_a_book_draw_and_an_estimate() {
        use crate::book::Entry;
        // f5 d6 c3: no symmetry maps one of its replies onto another (their book entries differ).
        let line = crate::board::notation::play_transcript(Position::start(), "f5d6c3").expect("legal line");
        let pos = line[line.len() - 1];
        let children: Vec<(u8, Board)> = crate::board::bits::Squares(pos.board.moves())
            .map(|sq| (sq as u8, pos.board.play(sq).expect("legal")))
            .collect();
        let [(a, after_a), (b, after_b), (c, after_c), ..] = children[..] else {
            panic!("f5 d6 c3 has more than three replies")
        };
        let keys: std::collections::HashSet<_> = [after_a, after_b, after_c]
            .iter()
            .map(|x| crate::board::symmetry::canonical(x).0)
            .collect();
        assert_eq!(keys.len(), 3);
        let book_with = |c_value: i32| {
            let mut book = Book::new();
            let entry = |value, depth| Entry {
                value,
                depth,
                deviation: None,
            };
            book.insert(&pos.board, entry(0, SearchDepth::Plies(20)));
            // Values of the children are from their side to move's point of view.
            book.insert(&after_a, entry(0, SearchDepth::Plies(20)));
            book.insert(&after_b, entry(0, SearchDepth::Exact));
            book.insert(&after_c, entry(-c_value, SearchDepth::Plies(20)));
            EngineBook {
                book,
                ..EngineBook::default()
            }
        };
        let book = book_with(-4);
        let chosen = |draw| book.choose(&pos, draw).map(|c| (c.mv, c.value));
        assert_eq!(chosen(1), Some((Square::At(b), 0.0)));
        assert_eq!(chosen(-1), Some((Square::At(a), 0.0)));
        // Without contempt the two are equal (either may be drawn), the worse one never.
        assert!([Some((Square::At(a), 0.0)), Some((Square::At(b), 0.0))].contains(&chosen(0)));
        let book = book_with(2);
        assert_eq!(book.choose(&pos, 1).map(|c| c.mv), Some(Square::At(c)));
    }
}
