//! Plays one labelled game for the corpus: an opening the engine does not choose (given moves,
//! then random ones), then a fixed-depth search per move until `exact` empties, then perfect
//! play. Every position before perfect play is searched once — for the move where the engine
//! chooses, for the label alone on the opening moves — and keeps that value as its label;
//! sampled positions get a deeper search's value too, and the moves not played near the end
//! can be solved (siblings).

use super::game::{DeepLabel, DeepSibling, GameRecord, Sibling, Start, Walk, black_view};
use crate::base::OrderingEval;
use crate::board::Position;
use crate::board::Square;
use crate::search::endgame::Solver;
use crate::search::midgame::Searcher;
use crate::search::request::{Pruning, SearchRequest};
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Depth of the search that chooses (and labels) each move.
    pub depth: u32,
    /// Its Multi-ProbCut confidence in percent (100: none).
    pub selectivity: u32,
    /// Perfect play (exact labels) from this many empties.
    pub exact: u32,
    /// Random moves after the given opening moves: a count drawn from this range.
    pub random_plies: RangeInclusive<u32>,
    /// Solve the moves not played whose child has empties in this range (empty range: none).
    pub siblings: RangeInclusive<u32>,
    /// Deeper searches of sampled positions.
    pub deep: Option<DeepOptions>,
    /// Moves the engine would not choose, in the middle of the game.
    pub blunders: Option<Blunders>,
    /// Random walks off the line, solved.
    pub walks: Option<Walks>,
}

/// From each position of the line with empties in `from`, `count` walks of a number of plies
/// drawn from `plies`, each move a random legal one, and the exact score of where each ends:
/// the positions a search's leaves are (after poor moves of both sides), which the line and
/// its siblings do not show the evaluation (docs/history/training.md#session-23).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walks {
    pub count: u32,
    pub from: RangeInclusive<u32>,
    pub plies: RangeInclusive<u32>,
}

/// Where a move is now and then one the search did not choose: a search's leaves are mostly
/// positions some plies after such a move (a refutation line), which games of chosen moves
/// alone do not reach, and the evaluation has to know them as well.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blunders {
    /// The chance, in percent, that a move at these empties is a random other legal move…
    pub percent: u32,
    /// …where the position has empties in this range (above perfect play).
    pub empties: RangeInclusive<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeepOptions {
    pub depth: u32,
    pub selectivity: u32,
    /// Positions with empties in this range are candidates…
    pub empties: RangeInclusive<u32>,
    /// …and every `every`-th of them (by empties count) is searched.
    pub every: u32,
    /// Every `siblings_every`-th deep-labelled position (0: none) also has each move not
    /// played searched (deep siblings; children whose mover must pass left out)…
    pub siblings_every: u32,
    /// …this deep (at `selectivity`).
    pub siblings_depth: u32,
}

/// A reproducible generator per game: the crate's splitmix64.
pub use crate::rng::SplitMix as Rng;

/// What plays a game: the move-choosing search, a second searcher for the deep labels (its
/// deeper table entries would otherwise change what the shallow searches return, and with it
/// the games), and the solver.
pub struct Players {
    pub searcher: Searcher,
    pub deep: Searcher,
    pub solver: Solver,
}

impl Players {
    pub fn new(hash_mb: usize, deep: bool) -> Players {
        Players {
            searcher: Searcher::new(hash_mb),
            deep: Searcher::new(if deep { hash_mb } else { 1 }),
            solver: Solver::new(hash_mb),
        }
    }
}

/// Plays game `index`: `opening` (legal moves from the start, followed while the game has
/// more than `exact` empties), then random moves, searches and perfect play as above.
pub fn play_game(
    index: u32,
    start: Start,
    opening: &[u8],
    rng: &mut Rng,
    opts: &PlayOptions,
    eval: &dyn OrderingEval,
    players: &mut Players,
) -> GameRecord {
    let Players { searcher, deep, solver } = players;
    let stop = AtomicBool::new(false);
    let span = (opts.random_plies.end().saturating_sub(*opts.random_plies.start()) + 1) as u64;
    let random = *opts.random_plies.start() + rng.below(span) as u32;
    let mut pos = Position::start();
    let mut line: Vec<Position> = Vec::new();
    let mut last_blunder: Option<usize> = None;
    let mut rec = GameRecord {
        index,
        start,
        moves: Vec::new(),
        result: 0,
        exact_from: None,
        search: Vec::new(),
        deep: Vec::new(),
        siblings: Vec::new(),
        deep_siblings: Vec::new(),
        walks: Vec::new(),
    };
    let search = |searcher: &mut Searcher, pos: &Position, depth: u32, percent: u32| {
        let req = SearchRequest {
            pruning: Pruning::from_percent(percent),
            ..SearchRequest::fixed_depth(pos.board, depth)
        };
        searcher.run(&req, eval, &stop, &mut |_| {})
    };
    while !pos.board.is_game_over() {
        let moves = pos.board.moves();
        if moves == 0 {
            pos = pos.pass();
            continue;
        }
        let i = rec.moves.len();
        let empties = pos.board.empty_count();
        let mv = if empties <= opts.exact {
            let r = solver.solve_exact_guided(&pos.board, eval, &stop);
            rec.exact_from.get_or_insert(i as u8);
            match r.best {
                Some(Square::At(sq)) => sq as usize,
                _ => moves.trailing_zeros() as usize,
            }
        } else {
            let r = search(&mut *searcher, &pos, opts.depth, opts.selectivity);
            rec.search.push(r.score.clamp(-64, 64) as i8);
            if let Some(d) = opts.deep.as_ref().filter(|d| d.empties.contains(&empties))
                && empties % d.every.max(1) == index % d.every.max(1)
            {
                let v = search(&mut *deep, &pos, d.depth, d.selectivity).score;
                rec.deep.push(DeepLabel {
                    position: i as u8,
                    depth: d.depth as u8,
                    selectivity: d.selectivity as u8,
                    value: v.clamp(-64, 64) as i8,
                });
            }
            if let Some(&sq) = opening.get(i).filter(|&&sq| sq < 64 && moves >> sq & 1 == 1) {
                sq as usize
            } else if i < opening.len() + random as usize {
                rng.bit_of(moves)
            } else {
                let best = match r.best {
                    Some(Square::At(sq)) if moves >> sq & 1 == 1 => sq as usize,
                    _ => moves.trailing_zeros() as usize,
                };
                // The draws are made only when blunders are on, so the games of runs
                // without them stay what they were.
                let others = moves & !(1u64 << best);
                match &opts.blunders {
                    Some(b) if others != 0 && b.empties.contains(&empties) && rng.below(100) < b.percent as u64 => {
                        last_blunder = Some(i);
                        rng.bit_of(others)
                    }
                    _ => best,
                }
            }
        };
        line.push(pos);
        rec.moves.push(mv as u8);
        pos = pos.play(mv).unwrap_or_else(|| pos.pass());
    }
    rec.result = black_view(&pos, pos.board.final_score()) as i8;
    let chosen_from = rec.exact_from.map_or(rec.moves.len(), |e| e as usize);
    // The plies before the last move the engine's search did not choose (opening, random
    // moves, blunders): the result is what the play after them gave, not what a position
    // before them is worth.
    let unchosen = (opening.len() + random as usize).max(last_blunder.map_or(0, |b| b + 1));
    rec.start.plies = unchosen.min(chosen_from).min(255) as u8;
    rec.siblings = siblings(&line, &rec.moves, opts, eval, solver);
    if let Some(d) = opts.deep.as_ref().filter(|d| d.siblings_every > 0) {
        // After the game, with the deep searcher only, so the game and its other labels are
        // the same with or without them. Which one of every k deep-labelled positions: set by
        // a hash of the game's number, not the number, so that held-out games (≡ 9 mod 10)
        // sample both parities of empties too.
        let k = d.siblings_every as u64;
        let offset = (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        let sampled = rec
            .deep
            .iter()
            .enumerate()
            .filter(|(n, _)| (*n as u64 + offset).is_multiple_of(k));
        for i in sampled.map(|(_, label)| label.position as usize) {
            let p = line[i];
            for sq in crate::board::bits::Squares(p.board.moves()).filter(|&sq| sq != rec.moves[i] as usize) {
                let Some(child) = p.play(sq).filter(|c| c.board.moves() != 0) else {
                    continue;
                };
                let v = search(&mut *deep, &child, d.siblings_depth, d.selectivity).score;
                rec.deep_siblings.push(DeepSibling {
                    position: i as u8,
                    square: sq as u8,
                    depth: d.siblings_depth as u8,
                    selectivity: d.selectivity as u8,
                    value: v.clamp(-64, 64) as i8,
                });
            }
        }
    }
    if let Some(w) = &opts.walks {
        // Last, so the game and its other labels are the same with or without walks.
        rec.walks = walks(&line, w, rng, eval, solver);
    }
    rec
}

/// The walks of `opts` from the positions of `line`, solved; a walk that ends the game (or
/// ends where neither side can move) is left out.
fn walks(line: &[Position], opts: &Walks, rng: &mut Rng, eval: &dyn OrderingEval, solver: &mut Solver) -> Vec<Walk> {
    let stop = AtomicBool::new(false);
    let span = (opts.plies.end().saturating_sub(*opts.plies.start()) + 1) as u64;
    let mut out = Vec::new();
    for (i, start) in line.iter().enumerate() {
        if !opts.from.contains(&start.board.empty_count()) || start.board.moves() == 0 {
            continue;
        }
        for _ in 0..opts.count {
            let plies = *opts.plies.start() as u64 + rng.below(span);
            let mut p = *start;
            let mut moves = Vec::with_capacity(plies as usize);
            for _ in 0..plies {
                if p.board.moves() == 0 {
                    p = p.pass();
                }
                let legal = p.board.moves();
                if legal == 0 {
                    break;
                }
                let sq = rng.bit_of(legal);
                // (a legal move: play cannot refuse it)
                let Some(next) = p.play(sq) else { break };
                moves.push(sq as u8);
                p = next;
            }
            if p.board.moves() == 0 {
                p = p.pass();
            }
            if p.board.moves() == 0 {
                continue;
            }
            let score = solver.solve_exact_guided(&p.board, eval, &stop).score;
            out.push(Walk {
                position: i as u8,
                moves,
                value: score.clamp(-64, 64) as i8,
            });
        }
    }
    out
}

/// The exact scores of the children not played, where the child's empties are in
/// `opts.siblings`; children whose mover must pass are left out (not a training position).
fn siblings(line: &[Position], played: &[u8], opts: &PlayOptions, eval: &dyn OrderingEval, solver: &mut Solver) -> Vec<Sibling> {
    solve_siblings(
        line,
        &|i, sq| played.get(i) == Some(&(sq as u8)),
        &opts.siblings,
        eval,
        solver,
    )
    .into_iter()
    .map(|s| Sibling {
        position: s.position as u8,
        square: s.square as u8,
        value: s.score.clamp(-64, 64) as i8,
    })
    .collect()
}

/// A move not played in a game, solved: the position it was legal in, its square, the child
/// and the child's exact score from its mover's view.
pub struct SolvedSibling {
    pub position: usize,
    pub square: usize,
    pub child: Position,
    pub score: i32,
}

/// Solves the moves not played (`played(i, square)` says which move position `i` of `line`
/// played) whose child has empties in `empties`, skipping children whose mover must pass;
/// in line order, squares ascending. Shared by the corpus and the text self-play export.
pub fn solve_siblings(
    line: &[Position],
    played: &dyn Fn(usize, usize) -> bool,
    empties: &RangeInclusive<u32>,
    eval: &dyn OrderingEval,
    solver: &mut Solver,
) -> Vec<SolvedSibling> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for (i, p) in line.iter().enumerate() {
        let e = p.board.empty_count();
        if e == 0 || !empties.contains(&(e - 1)) {
            continue;
        }
        for sq in crate::board::bits::Squares(p.board.moves()) {
            let Some(child) = p.play(sq).filter(|c| c.board.moves() != 0) else {
                continue;
            };
            if played(i, sq) {
                continue;
            }
            let score = solver.solve_exact_guided(&child.board, eval, &stop).score;
            out.push(SolvedSibling {
                position: i,
                square: sq,
                child,
                score,
            });
        }
    }
    out
}
