//! The static error of several evaluations on one labelled dataset (text records, e.g. the
//! search leaves `leaf_error` writes with OUT), by empties band: which evaluation is best where
//! a search reads it. A measurement (docs/history/training.md#session-56), not a check:
//!
//! `cargo run --release --example leaf_mae -- FILE [DIR...]`
//!
//! Each DIR is read as `--params DIR` reads it (its `eval.bin`, and its `net.bin` if there is
//! one); `shipped` names the embedded weights with the embedded layer, `linear` without it.
//! Prints per band: MAE in discs and the bias (evaluation − label, side to move's view).

use oxello::eval::Evaluator;
use oxello::eval::dataset;

const BANDS: [(u32, u32); 6] = [(6, 11), (12, 15), (16, 19), (20, 23), (24, 29), (30, 60)];

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: leaf_mae FILE [DIR...]")?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let (records, bad) = dataset::parse(&text);
    if let Some((line, why)) = bad.first() {
        return Err(format!("{file}:{line}: {why}"));
    }
    let mut names: Vec<String> = args.collect();
    if names.is_empty() {
        names.push("shipped".into());
    }
    println!("{file}: {} records", records.len());
    println!("| evaluation | {} |", BANDS.map(|(lo, hi)| format!("{lo}-{hi}")).join(" | "));
    println!("|---|{}", "---|".repeat(BANDS.len()));
    for name in &names {
        let eval = match name.as_str() {
            "shipped" => Evaluator::embedded_with_layer(),
            "linear" => Evaluator::embedded(),
            dir => Evaluator::load_or_embedded(Some(std::path::Path::new(dir))),
        }
        .map_err(|e| e.to_string())?;
        let mut cells = Vec::new();
        for (lo, hi) in BANDS {
            let (mut n, mut abs, mut bias) = (0usize, 0f64, 0f64);
            for r in records.iter().filter(|r| (lo..=hi).contains(&r.board.empty_count())) {
                let d = f64::from(eval.evaluate_fine(&r.board)) / 256.0 - f64::from(r.score);
                n += 1;
                abs += d.abs();
                bias += d;
            }
            let n1 = n.max(1) as f64;
            cells.push(if n == 0 {
                "-".into()
            } else {
                format!("{:.3} ({:+.2}, {n})", abs / n1, bias / n1)
            });
        }
        println!("| {name} | {} |", cells.join(" | "));
    }
    Ok(())
}
