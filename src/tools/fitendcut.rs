//! `oxello fit-endcut`: fits the endgame ProbCut model (`search::endcut`). For every empties
//! count with exact labels it pairs the solver's check search v′ (2 and 4 plies on the
//! evaluation) with the exact score v on positions of held-out games — the evaluation was
//! trained on the others, whose residuals would understate σ — and fits v = a·v′ + b by least
//! squares. Past the labelled range σ is extrapolated linearly in the empties count and a, b
//! are the mean of the three farthest fitted rows; those rows say `samples 0`.

use super::fitmpc::fit_line;
use crate::base::OrderingEval;
use crate::eval::dataset::{Label, Record};
use crate::search::endcut::CHECKS;
use crate::search::endgame::Solver;
use crate::search::mpc::{Fit, MpcTable, TO_END};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct EndCutOptions {
    /// Positions used per empties count (at most).
    pub per_empties: usize,
    /// Empties counts fitted from data.
    pub min_empties: u32,
    pub max_empties: u32,
    /// Rows are extrapolated up to this many empties.
    pub extrapolate_to: u32,
    pub threads: usize,
    pub seed: u64,
}

/// Held-out exact records, up to `per_empties` per empties count, reproducibly shuffled.
fn pick<'a>(records: &'a [Record], opts: &EndCutOptions) -> Vec<&'a Record> {
    let mut pool: Vec<&Record> = records
        .iter()
        .filter(|r| r.label == Label::Exact && r.game % 10 == 9 && r.board.moves() != 0)
        .filter(|r| (opts.min_empties..=opts.max_empties).contains(&r.board.empty_count()))
        .collect();
    let mut state = opts.seed | 1;
    for i in (1..pool.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        pool.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let mut count = BTreeMap::new();
    pool.retain(|r| {
        let c = count.entry(r.board.empty_count()).or_insert(0usize);
        *c += 1;
        *c <= opts.per_empties
    });
    pool
}

/// (empties, check) → pairs (v′, v).
fn collect(picked: &[&Record], threads: usize, eval: &(dyn OrderingEval + Sync)) -> BTreeMap<(u32, u32), Vec<(f64, f64)>> {
    let next = AtomicUsize::new(0);
    let out = parking_lot::Mutex::new(BTreeMap::<(u32, u32), Vec<(f64, f64)>>::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                // Only the kernel choice of a solver is used: no table needed.
                let solver = Solver::new(1);
                let mut local: Vec<((u32, u32), (f64, f64))> = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(r) = picked.get(i) else { break };
                    for check in CHECKS {
                        let v1 = solver.eval_search(&r.board, eval, check);
                        local.push(((r.board.empty_count(), check), (v1 as f64, r.score as f64)));
                    }
                }
                let mut all = out.lock();
                for (k, p) in local {
                    all.entry(k).or_default().push(p);
                }
            });
        }
    });
    out.into_inner()
}

/// Fitted rows plus extrapolated ones, per check depth.
pub fn run(records: &[Record], opts: &EndCutOptions, eval: &(dyn OrderingEval + Sync)) -> MpcTable {
    let picked = pick(records, opts);
    let pairs = collect(&picked, opts.threads, eval);
    let mut fits = Vec::new();
    for check in CHECKS {
        let mut fitted = Vec::new();
        for n in opts.min_empties..=opts.max_empties {
            let Some(pts) = pairs.get(&(n, check)) else { continue };
            if let Some((a, b, sigma, r2)) = fit_line(pts).filter(|f| f.0 > 0.0) {
                fitted.push(Fit {
                    min_empties: n,
                    max_empties: n,
                    depth: TO_END,
                    check,
                    a,
                    b,
                    sigma,
                    r2,
                    samples: pts.len() as u32,
                });
            }
        }
        let sigmas: Vec<(f64, f64)> = fitted.iter().map(|f| (f.min_empties as f64, f.sigma)).collect();
        if let Some((slope, icept, _, _)) = fit_line(&sigmas) {
            let tail = &fitted[fitted.len() - 3..];
            let a = tail.iter().map(|f| f.a).sum::<f64>() / 3.0;
            let b = tail.iter().map(|f| f.b).sum::<f64>() / 3.0;
            let last = fitted[fitted.len() - 1];
            for n in last.max_empties + 1..=opts.extrapolate_to {
                // Never below the farthest fitted σ: uncertainty does not shrink with distance.
                let sigma = (icept + slope * n as f64).max(last.sigma);
                fits.push(Fit {
                    min_empties: n,
                    max_empties: n,
                    depth: TO_END,
                    check,
                    a,
                    b,
                    sigma,
                    r2: 0.0,
                    samples: 0,
                });
            }
        }
        fits.extend(fitted);
    }
    MpcTable::new(fits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crude evaluation: disc difference.
    struct Discs;
    impl OrderingEval for Discs {
        fn evaluate(&self, b: &crate::board::Board) -> i32 {
            b.player.count_ones() as i32 - b.opponent.count_ones() as i32
        }
    }

    #[test]
    fn fits_the_labelled_range_and_extrapolates_beyond() {
        let mut records = crate::tools::random_solved(300, 12, 7);
        records.extend(crate::tools::random_solved(300, 13, 8));
        records.extend(crate::tools::random_solved(300, 14, 9));
        // Training games (not ≡ 9 mod 10) must be ignored: relabel half of them wildly.
        for r in records.iter_mut().filter(|r| r.game % 10 != 9) {
            r.score = 64;
        }
        let opts = EndCutOptions {
            per_empties: 100,
            min_empties: 12,
            max_empties: 14,
            extrapolate_to: 18,
            threads: 2,
            seed: 3,
        };
        let t = run(&records, &opts, &Discs);
        for check in CHECKS {
            let rows: Vec<&Fit> = t.fits().iter().filter(|f| f.check == check).collect();
            assert_eq!(
                rows.iter().map(|f| f.min_empties).collect::<Vec<_>>(),
                (12..=18).collect::<Vec<_>>()
            );
            for f in &rows {
                assert!(f.depth == TO_END && f.min_empties == f.max_empties);
                assert_eq!(f.samples == 0, f.min_empties > 14, "{f:?}");
                // Held-out labels are exact: a disc count predicts them loosely but sanely.
                assert!(f.a > 0.0 && f.sigma > 1.0 && f.sigma < 40.0, "{f:?}");
            }
            let last = rows.iter().find(|f| f.min_empties == 14).map_or(0.0, |f| f.sigma);
            assert!(rows.iter().filter(|f| f.samples == 0).all(|f| f.sigma >= last));
            assert!(rows.iter().filter(|f| f.samples > 0).all(|f| f.samples <= 100));
        }
        // The table reads back as the solver's model.
        let cut = crate::search::endcut::EndCut::from_table(&t);
        assert!(cut.at(14).is_some() && cut.at(18).is_some() && cut.at(19).is_none());
    }
}
