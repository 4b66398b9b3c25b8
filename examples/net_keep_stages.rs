//! A copy of a `net.bin` (the non-linear layer, `src/eval/net.rs`) that keeps only the stages up
//! to MAX_STAGE, so that an engine given `--params DIR` with it reads the layer only where few
//! squares are empty (stage = empties / 6: stage 3 is 18-23 empties). For measurements such as the
//! forty-fourth session's (docs/history/training.md#session-44): which stages of the layer pay
//! for their time.
//!
//! `cargo run --release --example net_keep_stages -- params/net.bin OUT/net.bin MAX_STAGE`
//!
//! The file is read and written by the engine's own `net::decode` and `net::encode` (the layout
//! from the build's pattern set, which the file's header must name; no `eval.bin` is needed).
//! Each kept stage is written as it was read, so a copy of a file the trainer wrote holds the
//! same bytes for its stages; a version-1 file comes out in version 2, a folded one (version 3,
//! what ships) stays folded. OUT's
//! directory must exist; put the matching `eval.bin` beside the copy for `--params OUT`.

use oxello::eval::{Evaluator, net};
use std::process::ExitCode;

const USAGE: &str = "usage: net_keep_stages IN/net.bin OUT/net.bin MAX_STAGE";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("net_keep_stages: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [src, dst, max_stage] = args.as_slice() else {
        return Err(format!("{USAGE} ({} arguments given, 3 expected)", args.len()));
    };
    let max_stage: usize = max_stage
        .parse()
        .map_err(|e| format!("MAX_STAGE '{max_stage}': not a stage number ({e}); {USAGE}"))?;
    let bytes = std::fs::read(src).map_err(|e| format!("{src}: cannot read: {e}"))?;
    if net::is_folded(&bytes) {
        // A folded file (what ships): its stages are kept folded.
        let out = Evaluator::fold_net_file_stages(&bytes, src, |s| s <= max_stage).map_err(|e| e.to_string())?;
        std::fs::write(dst, &out).map_err(|e| format!("{dst}: cannot write: {e}"))?;
        println!("{dst}: the folded stages up to {max_stage}, {} bytes", out.len());
        return Ok(());
    }
    let all = net::decode(&bytes, src).map_err(|e| e.to_string())?;
    let stages = |raw: &[net::RawStage]| raw.iter().map(|s| s.stage).collect::<Vec<_>>();
    let keep: Vec<net::RawStage> = all.iter().filter(|s| s.stage <= max_stage).cloned().collect();
    if keep.is_empty() {
        // `encode` of no stage would name a unit count of its own: there is nothing to keep,
        // and a directory without a net.bin already reads no layer.
        return Err(format!(
            "{src}: MAX_STAGE {max_stage} keeps none of its stages {:?}; for no layer, leave net.bin out of the --params directory",
            stages(&all)
        ));
    }
    let out = net::encode(&keep);
    std::fs::write(dst, &out).map_err(|e| format!("{dst}: cannot write: {e}"))?;
    println!("{dst}: stages {:?} of {:?}, {} bytes", stages(&keep), stages(&all), out.len());
    Ok(())
}
