//! `oxello book deepen`: values again, by deeper searches, the book positions that games can
//! reach. A book valued at the playing level cannot choose better than the engine's own
//! search, and negamax over it prefers the lines whose shallow values err upwards; deepening
//! the positions its choices lead to, then negamaxing and looking again where the choices now
//! lead, removes that bias where it matters without deepening the whole book.

use super::{Book, Deviation, Entry, Key, Searched, Valuer, child_value, children, key};
use crate::base::SearchDepth;
use crate::board::{Board, Square};
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Whether values from a search of depth `d` are at least as deep as `target` (solves are).
pub fn at_least(d: SearchDepth, target: SearchDepth) -> bool {
    let (depth, percent) = match d {
        SearchDepth::Exact | SearchDepth::Wld | SearchDepth::ProbableWld { .. } => return true,
        SearchDepth::Plies(n) => (n, 100),
        SearchDepth::Selective { depth, percent } => (depth, percent),
    };
    match target {
        SearchDepth::Plies(n) => depth >= n && percent >= 100,
        SearchDepth::Selective { depth: t, percent: p } => depth >= t && percent >= p,
        _ => false,
    }
}

/// The book positions reachable from `root` when one side (either, in turn) plays only book
/// moves within `window` discs of its best move and the other side any book move; root first.
pub fn reachable(book: &Book, root: &Board, window: i32) -> Vec<Board> {
    let mut seen: HashSet<(Key, bool)> = HashSet::new();
    let mut listed: HashSet<Key> = HashSet::new();
    let mut order = Vec::new();
    let mut stack = vec![(*root, true), (*root, false)];
    while let Some((b, ours)) = stack.pop() {
        let k = key(&b).0;
        if !book.contains(&b) || !seen.insert((k, ours)) {
            continue;
        }
        if listed.insert(k) {
            order.push(b);
        }
        let moves = book.moves(&b);
        let Some(best) = moves.first().map(|m| m.value) else {
            continue;
        };
        let kids = children(&b);
        for m in moves.iter().filter(|m| m.in_book && (!ours || m.value >= best - window)) {
            if let Some(&(_, c)) = kids.iter().find(|(mv, _)| *mv == m.mv) {
                stack.push((c, !ours));
            }
        }
    }
    order
}

/// One search that deepens a book position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Job {
    /// The book position.
    pub position: Board,
    /// The deviation searched again (its position is the child after it); None for a leaf,
    /// searched as a whole.
    pub deviation: Option<Square>,
}

/// The positions of `reachable(book, root, window)` valued by searches shallower than
/// `target`: leaves (no book child) are searched again whole, nodes only at their deviation
/// (the other moves that leave the book were below it at the book's depth; a node whose every
/// move is in the book has nothing to search).
pub fn shallow(book: &Book, root: &Board, window: i32, target: SearchDepth) -> Vec<Job> {
    reachable(book, root, window)
        .into_iter()
        .filter_map(|b| {
            let e = book.probe(&b)?;
            if at_least(e.depth, target) {
                return None;
            }
            if !book.is_interior(&b) {
                return Some(Job {
                    position: b,
                    deviation: None,
                });
            }
            e.deviation.map(|d| Job {
                position: b,
                deviation: Some(d.mv),
            })
        })
        .collect()
}

/// What a job's search found, to be stored by `apply`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Deepened {
    pub job: Job,
    /// The best move leaving the book and its value, side to move's view.
    pub deviation: Deviation,
    pub depth: SearchDepth,
}

/// Runs `job`'s search; None when the valuer was stopped (nothing to store).
pub fn run(job: Job, valuer: &mut dyn Valuer) -> Option<Deepened> {
    let (deviation, depth) = match job.deviation {
        None => {
            let Searched { best, value, depth } = valuer.search(&job.position);
            (Deviation { mv: best, value }, depth)
        }
        Some(mv) => {
            let (_, c) = children(&job.position).into_iter().find(|(m, _)| *m == mv)?;
            let (value, depth) = child_value(&c, valuer);
            (Deviation { mv, value }, depth)
        }
    };
    (!valuer.stopped()).then_some(Deepened { job, deviation, depth })
}

impl Book {
    /// Stores a deepened search (the values above it are settled by `negamax`).
    pub fn apply(&mut self, d: &Deepened) {
        if self.contains(&d.job.position) {
            self.insert(
                &d.job.position,
                Entry {
                    value: d.deviation.value,
                    depth: d.depth,
                    deviation: Some(d.deviation),
                },
            );
        }
    }
}

/// What `deepen` did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Report {
    /// Rounds of (find the shallow reachable positions, search them, negamax).
    pub rounds: usize,
    pub searches: usize,
    /// False when a valuer was stopped or `rounds` ran out before no reachable position was
    /// shallow.
    pub finished: bool,
}

/// Deepens `book` to `target` where games from `root` can go (`reachable` with `window`),
/// round after round until no reachable position is shallow or `max_rounds` have run. The
/// valuers search in parallel, one thread each; `progress` sees the book after each stored
/// search (to report or save it).
pub fn deepen(
    book: &mut Book,
    root: &Board,
    window: i32,
    target: SearchDepth,
    max_rounds: usize,
    valuers: &mut [&mut (dyn Valuer + Send)],
    progress: &mut (dyn FnMut(&Book, usize, usize) + Send),
) -> Report {
    let mut report = Report::default();
    // A file saved in the middle of a round holds new values not yet negamaxed.
    book.negamax();
    while report.rounds < max_rounds {
        let jobs = shallow(book, root, window, target);
        if jobs.is_empty() {
            report.finished = true;
            return report;
        }
        report.rounds += 1;
        let next = AtomicUsize::new(0);
        let shared = Mutex::new((&mut *book, 0usize, &mut *progress));
        let stopped = std::thread::scope(|s| {
            let workers: Vec<_> = valuers
                .iter_mut()
                .map(|valuer| {
                    let (next, jobs, shared) = (&next, &jobs, &shared);
                    s.spawn(move || {
                        while let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                            let Some(done) = run(job, &mut **valuer) else {
                                return true;
                            };
                            let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
                            let (book, count, progress) = &mut *guard;
                            book.apply(&done);
                            *count += 1;
                            progress(book, *count, jobs.len());
                        }
                        false
                    })
                })
                .collect();
            workers.into_iter().any(|w| w.join().unwrap_or(true))
        });
        report.searches += shared.into_inner().unwrap_or_else(|p| p.into_inner()).1;
        book.negamax();
        if stopped {
            return report;
        }
    }
    report.finished = shallow(book, root, window, target).is_empty();
    report
}

#[cfg(test)]
mod tests;
