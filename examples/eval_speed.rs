//! Nanoseconds an evaluation, from scratch (`Evaluator::evaluate_fine`), for the linear
//! weights and the weights with their layer: the embedded ones, or those of `--params`-style
//! directories given as arguments (each with `eval.bin` and `net.bin`). The positions are the
//! children of 20,000 positions of random games at 12-52 empties, evaluated one parent's
//! children after another, as a search's leaves come (siblings share most rows, so the
//! caches hold what they would hold there); best of 5 passes. Positions far apart one after
//! another instead (`SCATTER=1`) give the cost of rows read from memory.
//!
//! `cargo run --release --example eval_speed -- [DIR...]`

use oxello::board::Board;
use oxello::eval::Evaluator;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// A position of a game of random moves stopped at `empties` (or at its end).
fn random_game(seed: &mut u64, empties: u32) -> Board {
    let mut b = Board::START;
    while b.empty_count() > empties && !b.is_game_over() {
        let moves = b.moves();
        if moves == 0 {
            b = b.pass();
            continue;
        }
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let pick = (*seed % u64::from(moves.count_ones())) as usize;
        let sq = (0..64).filter(|&s| moves >> s & 1 != 0).nth(pick).unwrap_or(0);
        b = b.play(sq).unwrap_or(b);
    }
    b
}

fn ns_an_evaluation(e: &Evaluator, boards: &[Board]) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t0 = Instant::now();
        let mut sum = 0i64;
        for b in boards {
            sum += i64::from(e.evaluate_fine(black_box(b)));
        }
        black_box(sum);
        best = best.min(t0.elapsed().as_secs_f64() * 1e9 / boards.len() as f64);
    }
    best
}

fn main() -> Result<(), String> {
    let mut seed = 1u64;
    let parents: Vec<Board> = (0..20_000u32)
        .map(|i| random_game(&mut seed, 13 + i % 41))
        .filter(|b| b.moves() != 0)
        .collect();
    let mut boards: Vec<Board> = parents
        .iter()
        .flat_map(|p| (0..64).filter_map(move |sq| if p.moves() >> sq & 1 != 0 { p.play(sq) } else { None }))
        .filter(|b| !b.is_game_over())
        .collect();
    if std::env::var("SCATTER").is_ok_and(|v| v == "1") {
        // A fixed stride through the list: neighbours come from other parents.
        let n = boards.len();
        boards = (0..n).map(|i| boards[i * 7919 % n]).collect();
    }
    let mut evals: Vec<(String, Evaluator)> = Vec::new();
    let shipped = Evaluator::embedded_with_layer().map_err(|e| e.to_string())?;
    evals.push((
        "linear (embedded eval.bin)".into(),
        Evaluator::embedded().map_err(|e| e.to_string())?,
    ));
    evals.push(("layer (embedded net.bin)".into(), shipped));
    for dir in std::env::args().skip(1) {
        let e = Evaluator::load_or_embedded(Some(Path::new(&dir))).map_err(|e| e.to_string())?;
        evals.push((dir, e));
    }
    println!("{} positions, 12-52 empties", boards.len());
    for (name, e) in &evals {
        println!("{:>8.1} ns  {name}", ns_an_evaluation(e, &boards));
    }
    Ok(())
}
