//! `oxello book build`: a book grown from a position by our own searches. Every move of an
//! expanded position is searched; the moves within `window` discs of the best are expanded in
//! turn until `plies`, where positions become leaves valued by one search.

use super::{Book, Deviation, Entry, Key, Searched, Valuer, child_value, children};
use crate::base::OrderingEval;
use crate::base::SearchDepth;
use crate::board::{Board, Square};
use crate::search::midgame::Searcher;
use crate::search::request::{Pruning, SearchRequest};
use std::collections::HashSet;
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
    pub eval: &'a (dyn OrderingEval + Sync),
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

/// One of `count` workers of a sharded build: the positions reached at `ply` (the split)
/// are dealt out by their key, and worker `index` (0-based) expands only its own; every worker
/// builds the few positions above the split. Merged, the workers' books are the whole book.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
    pub ply: u32,
}

impl Shard {
    /// Whether this worker expands `b`, a position at the split ply.
    fn owns(&self, b: &Board) -> bool {
        let ((p, o), _) = super::key(b);
        // A fixed mix of the canonical key: the same in every worker and every run.
        let h = (p ^ o.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) % u64::from(self.count.max(1)) == u64::from(self.index)
    }
}

/// Builds a book from `root`; `progress` hears the book size after each new position.
pub fn build(root: &Board, opts: &BuildOptions, valuer: &mut dyn Valuer, progress: &mut dyn FnMut(usize)) -> Book {
    let mut book = Book::new();
    resume(&mut book, root, opts, None, valuer, &mut |b: &Book| progress(b.len()));
    book
}

/// Builds into `book`, which may hold a stopped build of the same options: its finished
/// positions are kept (and walked through), unfinished ones are done again. `progress` sees
/// the book after each new position (to report or save it); the book is negamaxed at the end.
pub fn resume(
    book: &mut Book,
    root: &Board,
    opts: &BuildOptions,
    shard: Option<Shard>,
    valuer: &mut dyn Valuer,
    progress: &mut dyn FnMut(&Book),
) {
    let mut walk = Walk {
        opts,
        shard: shard.filter(|s| s.count > 1 && s.ply < opts.plies),
        valuer,
        progress,
        visited: HashSet::new(),
        claimed: HashSet::new(),
        mine: Vec::new(),
    };
    walk.expand(book, root, 0);
    // Above the split first (the same searches in every worker), then this worker's part.
    if let Some(s) = walk.shard.take() {
        for b in std::mem::take(&mut walk.mine) {
            walk.visited.remove(&super::key(&b).0);
            walk.expand(book, &b, s.ply);
        }
    }
    book.negamax();
}

struct Walk<'a> {
    opts: &'a BuildOptions,
    shard: Option<Shard>,
    valuer: &'a mut dyn Valuer,
    progress: &'a mut dyn FnMut(&Book),
    /// Positions walked in this run (transpositions and symmetric images once).
    visited: HashSet<Key>,
    /// Positions at the split ply, expanded by some worker: in the book once merged.
    claimed: HashSet<Key>,
    /// This worker's positions at the split ply, expanded after the top of the tree.
    mine: Vec<Board>,
}

impl Walk<'_> {
    /// Whether `b` is in the book or will be once the workers' books are merged.
    fn in_book(&self, book: &Book, b: &Board) -> bool {
        book.contains(b) || self.claimed.contains(&super::key(b).0)
    }

    fn expand(&mut self, book: &mut Book, b: &Board, ply: u32) {
        if b.is_game_over() || !self.visited.insert(super::key(b).0) {
            return;
        }
        if let Some(shard) = self.shard
            && ply == shard.ply
        {
            self.claimed.insert(super::key(b).0);
            if shard.owns(b) {
                self.mine.push(*b);
            }
            return;
        }
        if let Some(e) = book.probe(b) {
            // Finished (by this run or a stopped one): a leaf, or a node whose deviation is
            // stored or whose every move is in the book. Its book children may not be.
            // Above a shard's split, the other workers' positions are known only by walking
            // there: those few positions are built again.
            let top = self.shard.is_some_and(|s| ply < s.ply);
            let finished = !top
                && (ply >= self.opts.plies || e.deviation.is_some() || children(b).iter().all(|(_, c)| self.in_book(book, c)));
            if finished {
                for (_, c) in children(b) {
                    if book.contains(&c) && ply < self.opts.plies {
                        self.expand(book, &c, ply + 1);
                    }
                }
                return;
            }
        }
        if ply >= self.opts.plies {
            let r = self.valuer.search(b);
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
            (self.progress)(book);
            return;
        }
        let mut scored: Vec<(Square, Board, i32, SearchDepth)> = children(b)
            .into_iter()
            .map(|(mv, c)| {
                let (v, d) = child_value(&c, self.valuer);
                (mv, c, v, d)
            })
            .collect();
        scored.sort_by_key(|&(_, _, v, _)| -v);
        let Some(&(_, _, best, depth)) = scored.first() else { return };
        // A placeholder until the children are in (no deviation: unfinished if stopped here);
        // `negamax` settles the value.
        book.insert(
            b,
            Entry {
                value: best,
                depth,
                deviation: None,
            },
        );
        (self.progress)(book);
        for &(_, c, v, _) in &scored {
            if v >= best - self.opts.window {
                self.expand(book, &c, ply + 1);
            }
        }
        // The best move that stayed out (expanded children may have been game over).
        let deviation = scored
            .iter()
            .find(|(_, c, _, _)| !self.in_book(book, c))
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
}
