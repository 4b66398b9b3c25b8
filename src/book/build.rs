//! `oxello book build`: a book grown from a position by our own searches. Every move of an
//! expanded position is searched; the moves within `window` discs of the best are expanded in
//! turn until `plies`, where positions become leaves valued by one search.

use super::{Book, Deviation, Entry, Searched, Valuer, child_value, children};
use crate::board::{Board, Square};
use crate::protocol::SearchDepth;
use crate::search::endgame::OrderingEval;
use crate::search::midgame::Searcher;
use crate::search::request::{Pruning, SearchRequest};
use std::sync::atomic::AtomicBool;

#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Plies from the root after which positions are leaves.
    pub plies: u32,
    /// Moves this many discs or less below the best are expanded.
    pub window: i32,
}

/// A fixed-depth midgame search (no endgame solve: book positions are far from the end).
pub struct SearchValuer<'a> {
    pub searcher: Searcher,
    pub eval: &'a dyn OrderingEval,
    pub depth: u32,
    pub pruning: Pruning,
    pub threads: usize,
}

impl Valuer for SearchValuer<'_> {
    fn search(&mut self, board: &Board) -> Searched {
        let req = SearchRequest {
            pruning: self.pruning,
            threads: self.threads,
            ..SearchRequest::fixed_depth(*board, self.depth)
        };
        let r = self.searcher.run(&req, self.eval, &AtomicBool::new(false), &mut |_| {});
        let depth = SearchDepth::from(r.kind);
        Searched {
            best: r.best.unwrap_or(Square::Pass),
            value: r.score.clamp(-64, 64),
            depth,
        }
    }
}

/// Builds a book from `root`; `progress` hears the book size after each new position.
pub fn build(root: &Board, opts: &BuildOptions, valuer: &mut dyn Valuer, progress: &mut dyn FnMut(usize)) -> Book {
    let mut book = Book::new();
    expand(&mut book, root, 0, opts, valuer, progress);
    book.negamax();
    book
}

fn expand(book: &mut Book, b: &Board, ply: u32, opts: &BuildOptions, valuer: &mut dyn Valuer, progress: &mut dyn FnMut(usize)) {
    // Transpositions and symmetric images are expanded once.
    if book.contains(b) || b.is_game_over() {
        return;
    }
    if ply >= opts.plies {
        let r = valuer.search(b);
        let deviation = Some(Deviation {
            mv: r.best,
            value: r.value,
        });
        book.insert(
            b,
            Entry {
                value: r.value,
                depth: r.depth,
                deviation,
            },
        );
        progress(book.len());
        return;
    }
    let mut scored: Vec<(Square, Board, i32, SearchDepth)> = children(b)
        .into_iter()
        .map(|(mv, c)| {
            let (v, d) = child_value(&c, valuer);
            (mv, c, v, d)
        })
        .collect();
    scored.sort_by_key(|&(_, _, v, _)| -v);
    let Some(&(_, _, best, depth)) = scored.first() else { return };
    // A placeholder value until the children are in: `negamax` settles it.
    book.insert(
        b,
        Entry {
            value: best,
            depth,
            deviation: None,
        },
    );
    progress(book.len());
    for &(_, c, v, _) in &scored {
        if v >= best - opts.window {
            expand(book, &c, ply + 1, opts, valuer, progress);
        }
    }
    // The best move that stayed out (expanded children may have been game over).
    let deviation = scored
        .iter()
        .find(|(_, c, _, _)| !book.contains(c))
        .map(|&(mv, _, value, _)| Deviation { mv, value });
    book.insert(
        b,
        Entry {
            value: deviation.map_or(best, |d| d.value),
            depth,
            deviation,
        },
    );
}
