//! Engine-vs-engine matches inside one process: two player configurations play every opening
//! twice with colours swapped. Used for evaluation strength tests and the ProbCut tournament.

use crate::base::OrderingEval;
use crate::board::notation::{NotationError, play_transcript, square_name};
use crate::board::{Board, Position, Square};
use crate::search::midgame::Searcher;
use crate::search::request::{Driver, Limits, Pruning, SearchRequest};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// How one side plays.
pub struct Player<'a> {
    pub name: String,
    pub eval: &'a (dyn OrderingEval + Sync),
    pub depth: Option<u32>,
    pub time_per_move: Option<Duration>,
    pub exact_empties: u32,
    pub wld_empties: u32,
    pub pruning: Pruning,
}

/// Outcome counts from player A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Sum of disc differences (A minus B).
    pub discs: i64,
}

impl Score {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Winning percentage, a draw counting half.
    pub fn percent(&self) -> f64 {
        100.0 * (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

/// Plays one game from `opening`; returns the final disc difference for Black.
pub fn play_game(black: &Player, white: &Player, opening: Position, searchers: &mut [Searcher; 2]) -> i32 {
    let stop = AtomicBool::new(false);
    let mut pos = opening;
    while !pos.board.is_game_over() {
        if pos.board.moves() == 0 {
            pos = pos.pass();
            continue;
        }
        let (player, searcher) = match pos.to_move {
            crate::board::Color::Black => (black, &mut searchers[0]),
            crate::board::Color::White => (white, &mut searchers[1]),
        };
        let req = SearchRequest {
            board: pos.board,
            limits: Limits {
                depth: player.depth,
                time: player.time_per_move,
                target: None,
            },
            exact_empties: player.exact_empties,
            wld_empties: player.wld_empties,
            probable_empties: [0; 3],
            driver: Driver::Pvs,
            pruning: player.pruning,
            threads: 1,
            draw: 0,
        };
        let r = searcher.run(&req, player.eval, &stop, &mut |_| {});
        pos = match r.best {
            Some(Square::At(sq)) => pos.play(sq as usize).unwrap_or_else(|| pos.pass()),
            _ => pos.pass(),
        };
    }
    let (b, w) = pos.black_white();
    Board::new(b, w).final_score()
}

/// Plays every opening twice (A black then A white) on `threads` threads.
pub fn run_match(a: &Player, b: &Player, openings: &[Position], threads: usize, hash_mb: usize, progress: bool) -> Score {
    let jobs: Vec<(usize, bool)> = (0..openings.len()).flat_map(|i| [(i, true), (i, false)]).collect();
    let next = AtomicUsize::new(0);
    let results = parking_lot::Mutex::new(Score::default());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut searchers = [Searcher::new(hash_mb), Searcher::new(hash_mb)];
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(i, a_black)) = jobs.get(k) else { break };
                    searchers.iter_mut().for_each(Searcher::clear);
                    let black_score = if a_black {
                        play_game(a, b, openings[i], &mut searchers)
                    } else {
                        play_game(b, a, openings[i], &mut searchers)
                    };
                    let d = if a_black { black_score } else { -black_score };
                    let mut s = results.lock();
                    match d.signum() {
                        1 => s.wins += 1,
                        0 => s.draws += 1,
                        _ => s.losses += 1,
                    }
                    s.discs += d as i64;
                    if progress {
                        eprint!(
                            "\r{} vs {}: {}/{} games, +{} ={} -{} ({:.1} %)   ",
                            a.name,
                            b.name,
                            s.games(),
                            jobs.len(),
                            s.wins,
                            s.draws,
                            s.losses,
                            s.percent()
                        );
                    }
                }
            });
        }
    });
    if progress {
        eprintln!();
    }
    results.into_inner()
}

/// Reads an openings file: one transcript per line (`f5d6c3...`), `#` comments. An error
/// comes with its line number (from 1).
pub fn parse_openings(text: &str) -> Result<Vec<Position>, (usize, NotationError)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| {
            let start = Position::start();
            play_transcript(start, l)
                .map(|line| *line.last().unwrap_or(&start))
                .map_err(|e| (i + 1, e))
        })
        .collect()
}

/// Generates `count` distinct balanced openings of `plies` random moves: positions whose
/// `depth`-ply score (searched with `pruning`) is in `scores` (the side to move's view). Deterministic for
/// a seed.
pub fn generate_openings(
    count: usize,
    plies: u32,
    depth: u32,
    pruning: Pruning,
    scores: std::ops::RangeInclusive<i32>,
    eval: &dyn OrderingEval,
    seed: u64,
) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rnd = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(16);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < count * 1000 {
        attempts += 1;
        let mut pos = Position::start();
        let mut line = String::new();
        for _ in 0..plies {
            let m = pos.board.moves();
            if m == 0 {
                break;
            }
            let sq = crate::board::bits::Squares(m).nth(rnd(m.count_ones())).unwrap_or(0);
            line.push_str(&square_name(sq));
            pos = pos.play(sq).unwrap_or(pos);
        }
        let key = crate::board::symmetry::canonical(&pos.board).0;
        if pos.board.moves() == 0 || !seen.insert(key) {
            continue;
        }
        let req = SearchRequest {
            pruning,
            ..SearchRequest::fixed_depth(pos.board, depth)
        };
        let r = searcher.run(&req, eval, &stop, &mut |_| {});
        if scores.contains(&r.score) {
            out.push(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Discs;
    impl OrderingEval for Discs {
        fn evaluate(&self, b: &Board) -> i32 {
            b.player.count_ones() as i32 - b.opponent.count_ones() as i32
        }
    }
    struct Mobility;
    impl OrderingEval for Mobility {
        fn evaluate(&self, b: &Board) -> i32 {
            let corners = 0x8100_0000_0000_0081u64;
            let mob = b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32;
            mob + 8 * ((b.player & corners).count_ones() as i32 - (b.opponent & corners).count_ones() as i32)
        }
    }

    fn player<'a>(name: &str, eval: &'a (dyn OrderingEval + Sync)) -> Player<'a> {
        Player {
            name: name.into(),
            eval,
            depth: Some(2),
            time_per_move: None,
            exact_empties: 8,
            wld_empties: 8,
            pruning: Pruning::None,
        }
    }

    #[test]
    fn openings_are_balanced_distinct_and_parse_back() {
        let o = generate_openings(6, 6, 2, Pruning::None, -6..=6, &Mobility, 3);
        assert_eq!(o.len(), 6);
        let parsed = parse_openings(&o.join("\n")).expect("valid");
        assert_eq!(parsed.len(), 6);
        assert!(matches!(
            parse_openings("f5d6 # a comment\n\nf5f5\n"),
            Err((3, NotationError::IllegalMove { ply: 2, .. }))
        ));
    }

    #[test]
    fn match_counts_both_colours_and_a_better_eval_wins() {
        let openings = parse_openings(&generate_openings(6, 4, 2, Pruning::None, -10..=10, &Discs, 5).join("\n")).expect("valid");
        let s = run_match(&player("mob", &Mobility), &player("discs", &Discs), &openings, 2, 2, false);
        assert_eq!(s.games(), 12);
        assert!(s.percent() > 50.0, "{s:?}");
    }
}
