//! Subcommands that run the engine over files and report figures.

pub mod accuracy;
pub mod analyze;
pub mod bench;
pub mod enginematch;
pub mod evalmae;
pub mod fitendcut;
pub mod fitmpc;
pub mod matchplay;
pub mod probcut_report;
pub mod selfplay;
pub mod solve;
pub mod train;

/// Random games stopped at `empties` empties and labelled by the exact solver: test data for
/// the fitting tools (here, above both `eval` and `search`, which `eval` must not import).
#[cfg(test)]
pub(crate) fn random_solved(games: u64, empties: u32, seed: u64) -> Vec<crate::eval::dataset::Record> {
    use crate::eval::dataset::{Label, Record};
    use crate::search::endgame::{SolveMode, Solver};
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut solver = Solver::new(4);
    let mut out = Vec::new();
    let mut seed = seed;
    for game in 0..games {
        let b = crate::board::random_game(&mut seed, empties);
        if b.moves() == 0 {
            continue;
        }
        let score = solver.solve(&b, SolveMode::Exact, None, &stop).score as i8;
        out.push(Record {
            board: b,
            score,
            label: Label::Exact,
            game,
            off_line: false,
        });
    }
    out
}
