//! `oxello selfplay`: games from randomised openings for training data.
//!
//! Each game: a few random plies, then a fixed-depth search per move until `exact` empties,
//! then perfect play (exact solver). Positions on the perfect-play part are labelled with their
//! exact score (`exact`); earlier ones with the final result of the game (`game`), or, with
//! `search_labels`, with the value of their own search (`search`): a game result after many
//! imperfect moves is a noisy label of a midgame position, a deeper search's value a far less
//! noisy one (the random plies are searched for their label too). Records are
//! `<64 squares> <X|O> <score> <kind>`, score from the side to move's view. Each game is
//! appended as one block headed `# game N`, so a stopped run resumes where it left off.

use crate::base::OrderingEval;
use crate::board::notation::format_position;
use crate::board::{Position, Square};
use crate::eval::dataset::Label;
// A reproducible generator per game: the crate's splitmix64.
use crate::rng::SplitMix as Rng;
use crate::search::endgame::Solver;
use crate::search::midgame::Searcher;
use crate::search::request::{Pruning, SearchRequest};
use parking_lot::Mutex;
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct SelfplayOptions {
    pub games: u64,
    pub random_plies_min: u32,
    pub random_plies_max: u32,
    pub depth: u32,
    /// Selectivity of the midgame searches (Multi-ProbCut confidence in percent; 100: none).
    pub selectivity: u32,
    /// Label the positions before `exact` empties with their search value, not the result.
    pub search_labels: bool,
    pub exact: u32,
    pub threads: usize,
    pub seed: u64,
    pub hash_mb: usize,
    /// Also solve the other children (the moves not played) of game-line positions when the
    /// child has empties in this range, and record them as exact: many more exact labels where
    /// solving is cheap, and off-line positions like those a search visits. Empty range: off.
    pub siblings: std::ops::RangeInclusive<u32>,
    /// Games to follow instead of random plies and searches (game N follows line N) until
    /// `exact` empties: records of other players' games (say, a tournament database), labelled
    /// as self-play games are. Each line must be legal and reach `exact` empties or the end.
    /// Empty: self-play.
    pub lines: Vec<Vec<usize>>,
}

/// Plays one game and returns its records (without the header).
pub fn play_game(
    index: u64,
    opts: &SelfplayOptions,
    eval: &dyn OrderingEval,
    searcher: &mut Searcher,
    solver: &mut Solver,
) -> Vec<String> {
    let stop = AtomicBool::new(false);
    let mut rng = Rng(opts.seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let span = (opts.random_plies_max.saturating_sub(opts.random_plies_min) + 1) as u64;
    let line = opts.lines.get(index as usize);
    if line.is_some_and(|l| l.is_empty()) {
        return Vec::new();
    }
    let random_plies = if line.is_some() {
        0
    } else {
        opts.random_plies_min + rng.below(span) as u32
    };
    let mut pos = Position::start();
    let mut history: Vec<Position> = Vec::new();
    let mut exact_from: Option<(usize, i32)> = None; // (index in history, exact score there)
    let mut searched: Vec<Option<i32>> = Vec::new(); // search labels, by index in history
    let mut ply = 0;
    let search = |searcher: &mut Searcher, b| {
        let req = SearchRequest {
            pruning: Pruning::from_percent(opts.selectivity),
            ..SearchRequest::fixed_depth(b, opts.depth)
        };
        searcher.run(&req, eval, &stop, &mut |_| {})
    };
    while !pos.board.is_game_over() {
        history.push(pos);
        searched.push(None);
        let b = pos.board;
        let moves = b.moves();
        if moves == 0 {
            pos = pos.pass();
            continue;
        }
        let empties = b.empty_count();
        let mv = if ply < random_plies {
            if opts.search_labels && empties > opts.exact {
                searched[history.len() - 1] = Some(search(searcher, b).score);
            }
            rng.bit_of(moves)
        } else if let Some(&sq) = line.and_then(|l| l.get(ply as usize)).filter(|_| empties > opts.exact) {
            if opts.search_labels {
                searched[history.len() - 1] = Some(search(searcher, b).score);
            }
            sq
        } else if empties <= opts.exact {
            let r = solver.solve_exact_guided(&b, eval, &stop);
            if exact_from.is_none() {
                exact_from = Some((history.len() - 1, r.score));
            }
            match r.best {
                Some(Square::At(sq)) => sq as usize,
                _ => moves.trailing_zeros() as usize,
            }
        } else {
            let r = search(searcher, b);
            if opts.search_labels {
                searched[history.len() - 1] = Some(r.score);
            }
            match r.best {
                Some(Square::At(sq)) => sq as usize,
                _ => moves.trailing_zeros() as usize,
            }
        };
        pos = pos.play(mv).unwrap_or_else(|| pos.pass());
        ply += 1;
    }
    history.push(pos);
    // Final result from Black's view, then each position's label from its mover's view.
    let last = pos;
    let black_final = match last.to_move {
        crate::board::Color::Black => last.board.final_score(),
        crate::board::Color::White => -last.board.final_score(),
    };
    let exact_start = exact_from.map_or(usize::MAX, |(i, _)| i);
    let mut records: Vec<String> = history
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.board.is_game_over() && p.board.moves() != 0)
        .map(|(i, p)| {
            let result = match p.to_move {
                crate::board::Color::Black => black_final,
                crate::board::Color::White => -black_final,
            };
            let (score, kind) = match searched.get(i).copied().flatten() {
                _ if i >= exact_start => (result, Label::Exact),
                Some(v) => (v.clamp(-64, 64), Label::Search),
                None => (result, Label::Game),
            };
            format!("{} {} {}", format_position(p), score, kind.name())
        })
        .collect();
    records.extend(sibling_records(&history, opts, eval, solver));
    records
}

/// Exact records of the children not played from game-line positions (see
/// `SelfplayOptions::siblings`); children whose mover must pass are skipped.
fn sibling_records(history: &[Position], opts: &SelfplayOptions, eval: &dyn OrderingEval, solver: &mut Solver) -> Vec<String> {
    // The move played from position i is the one that leads to position i + 1.
    let played = |i: usize, sq: usize| {
        let next = history.get(i + 1).map(|n| n.board);
        history[i].play(sq).map(|c| c.board) == next
    };
    crate::corpus::play::solve_siblings(history, &played, &opts.siblings, eval, solver)
        .into_iter()
        .map(|s| format!("{} {} exact", format_position(&s.child), s.score))
        .collect()
}

/// Game indices already present in `path` (complete blocks only: a block counts once its
/// header and at least one record are there; a torn last line is left for the reader to report).
fn done_games(path: &Path) -> HashSet<u64> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashSet::new();
    };
    let mut done = HashSet::new();
    let mut current: Option<u64> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# game ") {
            current = rest.trim().parse().ok();
        } else if !line.trim().is_empty()
            && let Some(g) = current.take()
        {
            done.insert(g);
        }
    }
    done
}

/// Runs self-play, appending to `out`. Progress goes to stderr.
pub fn run(out: &Path, opts: &SelfplayOptions, eval: &(dyn OrderingEval + Sync)) -> io::Result<u64> {
    let done = done_games(out);
    let todo: Vec<u64> = (0..opts.games).filter(|g| !done.contains(g)).collect();
    if !done.is_empty() {
        eprintln!(
            "selfplay: {} games already in {}, {} to play",
            done.len(),
            out.display(),
            todo.len()
        );
    }
    let file = Mutex::new(OpenOptions::new().create(true).append(true).open(out)?);
    let next = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let finished = AtomicU64::new(0);
    let failed = Mutex::new(None::<io::Error>);
    let start = Instant::now();
    let total = todo.len() as u64;
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| {
                let mut searcher = Searcher::new(opts.hash_mb);
                let mut solver = Solver::new(opts.hash_mb);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= total || failed.lock().is_some() {
                        break;
                    }
                    let g = todo[k as usize];
                    let records = play_game(g, opts, eval, &mut searcher, &mut solver);
                    if records.is_empty() {
                        continue;
                    }
                    let mut block = format!("# game {g}\n");
                    for r in &records {
                        block.push_str(r);
                        block.push('\n');
                    }
                    // One write per game: a stopped run loses at most the game in progress.
                    if let Err(e) = file.lock().write_all(block.as_bytes()) {
                        *failed.lock() = Some(e);
                        break;
                    }
                    positions.fetch_add(records.len() as u64, Ordering::Relaxed);
                    let f = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(f, total, positions.load(Ordering::Relaxed), start);
                }
            });
        }
    });
    eprintln!();
    if let Some(e) = failed.lock().take() {
        return Err(e);
    }
    Ok(finished.load(Ordering::Relaxed))
}

/// A one-line progress bar on stderr.
fn progress(done: u64, total: u64, positions: u64, start: Instant) {
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let rate = done as f64 / secs;
    let eta = (total - done) as f64 / rate.max(1e-9);
    let width = 30;
    let filled = (done * width / total.max(1)) as usize;
    eprint!(
        "\r[{}{}] {done}/{total} games, {positions} positions, {rate:.2} games/s, ETA {eta:.0} s   ",
        "#".repeat(filled),
        " ".repeat(width as usize - filled)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::board::notation::parse_position;

    struct Mobility;
    impl OrderingEval for Mobility {
        fn evaluate(&self, b: &Board) -> i32 {
            b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32
        }
    }

    fn opts() -> SelfplayOptions {
        SelfplayOptions {
            games: 3,
            random_plies_min: 10,
            random_plies_max: 20,
            depth: 2,
            selectivity: 100,
            search_labels: false,
            exact: 12,
            threads: 2,
            seed: 7,
            hash_mb: 4,
            siblings: 6..=8,
            lines: Vec::new(),
        }
    }

    #[test]
    fn games_are_labelled_consistently_and_resume() {
        let dir = crate::scratch::Scratch::new("selfplay");
        let out = dir.join("data.txt");
        let mut o = opts();
        o.games = 2;
        assert_eq!(run(&out, &o, &Mobility).expect("selfplay"), 2);
        o.games = 3;
        assert_eq!(
            run(&out, &o, &Mobility).expect("resume"),
            1,
            "only the missing game is played"
        );
        let text = std::fs::read_to_string(&out).expect("read");
        assert_eq!(text.lines().filter(|l| l.starts_with("# game")).count(), 3);
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(4);
        let mut siblings = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 4, "{line}");
            let pos = parse_position(line).expect("board");
            let score: i32 = fields[2].parse().expect("score");
            if fields[3] == "exact" {
                assert!(pos.board.empty_count() <= 12);
                siblings += (6..=8).contains(&pos.board.empty_count()) as usize;
                assert_eq!(
                    solver
                        .solve(&pos.board, crate::search::endgame::SolveMode::Exact, None, &stop)
                        .score,
                    score,
                    "{line}"
                );
            } else {
                assert_eq!(fields[3], "game");
            }
        }
        // The game lines of 3 games hold at most 9 positions with 6-8 empties: the rest are
        // solved siblings (each checked above).
        assert!(siblings > 9, "{siblings} exact records at 6-8 empties");
    }

    /// With search labels every position before the perfect-play part carries the value of its
    /// own fixed-depth search, none the game's result.
    #[test]
    fn search_labels_are_the_positions_search_values() {
        let dir = crate::scratch::Scratch::new("selfplay-search");
        let out = dir.join("data.txt");
        let o = SelfplayOptions {
            games: 2,
            search_labels: true,
            siblings: 0..=0,
            lines: Vec::new(),
            ..opts()
        };
        assert_eq!(run(&out, &o, &Mobility).expect("selfplay"), 2);
        let text = std::fs::read_to_string(&out).expect("read");
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(4);
        let mut searched = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let pos = parse_position(line).expect("board");
            assert_ne!(fields[3], "game", "{line}");
            if fields[3] == "search" {
                assert!(pos.board.empty_count() > 12, "{line}");
                let req = SearchRequest::fixed_depth(pos.board, 2);
                let value = searcher.run(&req, &Mobility, &stop, &mut |_| {}).score.clamp(-64, 64);
                assert_eq!(fields[2].parse::<i32>().expect("score"), value, "{line}");
                searched += 1;
            }
        }
        assert!(searched >= 2 * 30, "{searched} search labels in 2 games");
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;
    use crate::board::notation::{format_position, play_transcript};

    /// A game from a transcript: its positions up to the perfect-play part, in order, with the
    /// result of that game after perfect play from `exact` empties; an empty line is no game.
    #[test]
    fn followed_games_keep_their_moves() {
        // A 1980s tournament game (WTHOR), 60 moves.
        let line = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1";
        let positions = play_transcript(Position::start(), line).expect("legal");
        let moves: Vec<usize> = crate::board::notation::parse_transcript(line)
            .expect("moves")
            .into_iter()
            .filter_map(|m| match m {
                Square::At(sq) => Some(sq as usize),
                Square::Pass => None,
            })
            .collect();
        let o = SelfplayOptions {
            games: 2,
            random_plies_min: 10,
            random_plies_max: 20,
            depth: 2,
            selectivity: 100,
            search_labels: false,
            exact: 10,
            threads: 1,
            seed: 7,
            hash_mb: 4,
            siblings: 0..=0,
            lines: vec![moves, Vec::new()],
        };
        let eval = crate::eval::bootstrap::BootstrapEval;
        let (mut searcher, mut solver) = (Searcher::new(4), Solver::new(4));
        let records = play_game(0, &o, &eval, &mut searcher, &mut solver);
        // 50 moves from 60 empties reach 10: the line's 50 positions before it are "game".
        let game: Vec<&String> = records.iter().filter(|r| r.ends_with(" game")).collect();
        assert_eq!(game.len(), 50);
        for (r, p) in game.iter().zip(&positions) {
            assert!(r.starts_with(&format_position(p)), "{r}");
        }
        // Black's result: one value, negated for white's positions.
        let black: Vec<i32> = game
            .iter()
            .zip(&positions)
            .map(|(r, p)| {
                let v: i32 = r.split_whitespace().nth(2).and_then(|v| v.parse().ok()).unwrap_or(99);
                if p.to_move == crate::board::Color::Black { v } else { -v }
            })
            .collect();
        assert!(black.iter().all(|&v| v == black[0]), "{black:?}");
        assert!(records.iter().skip(50).all(|r| r.ends_with(" exact")));
        assert!(play_game(1, &o, &eval, &mut searcher, &mut solver).is_empty());
    }
}
