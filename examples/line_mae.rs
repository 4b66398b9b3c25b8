//! Static error of the shipped evaluation against the corpus's deep labels on the game lines,
//! per empties band, for each corpus folder given: `cargo run --release --example line_mae -- DIR...`
//! (held-out games only unless ALL=1).
use oxello::corpus::LabelPolicy;
use oxello::corpus::store::Corpus;
use oxello::eval::Evaluator;

fn main() -> Result<(), String> {
    let all = std::env::var("ALL").is_ok_and(|v| v == "1");
    let evaluator = Evaluator::embedded().map_err(|e| e.to_string())?;
    let bands = [(24, 29), (30, 35), (36, 41), (42, 50)];
    for dir in std::env::args().skip(1) {
        let corpus = Corpus::load(&[std::path::PathBuf::from(&dir)]).map_err(|e| e.to_string())?;
        let records = corpus.records(LabelPolicy::DeepFrom(21), 1.0);
        let mut line = format!("{dir}:");
        for (lo, hi) in bands {
            let (mut n, mut err, mut bias) = (0u64, 0f64, 0f64);
            for r in records.iter().filter(|r| !r.off_line && (all || r.game % 10 == 9)) {
                let e = r.board.empty_count();
                if e < lo || e > hi {
                    continue;
                }
                let d = f64::from(evaluator.evaluate(&r.board)) - f64::from(r.score);
                n += 1;
                err += d.abs();
                bias += d;
            }
            if n > 0 {
                line += &format!("  {lo}-{hi}: {:.2} (bias {:+.2}, {n})", err / n as f64, bias / n as f64);
            }
        }
        println!("{line}");
    }
    Ok(())
}
