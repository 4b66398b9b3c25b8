//! A `net.bin` (the non-linear layer, `src/eval/net.rs`) folded for the engine: version 3, the
//! one-byte rows the engine reads, so that an engine process loads it with a copy where a
//! version-2 file (the layer as trained) is folded at every load (0.64 s for a layer with
//! vectors on every shape). `ASSEMBLE=1` of `examples/embed_net.rs` already writes version 3;
//! this turns an older file, or a trainer's `stage-N.net`, into one.
//!
//! `cargo run --release --example net_fold -- IN/net.bin OUT/net.bin`
//!
//! The folding is this build's: a build that folds the terms otherwise refuses the file (its
//! fingerprint differs) and it must be folded again from the version-2 file. Prints the check
//! that the folded file gives the engine the same layer as the input.

use oxello::eval::Evaluator;
use std::process::ExitCode;

const USAGE: &str = "usage: net_fold IN/net.bin OUT/net.bin";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("net_fold: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [src, dst] = args.as_slice() else {
        return Err(format!("{USAGE} ({} arguments given, 2 expected)", args.len()));
    };
    let bytes = std::fs::read(src).map_err(|e| format!("{src}: cannot read: {e}"))?;
    let out = Evaluator::fold_net_file(&bytes, src).map_err(|e| e.to_string())?;
    // Folding the folded file again must give it back byte for byte: the copy the engine
    // makes of it is the layer the fold made.
    let again = Evaluator::fold_net_file(&out, dst).map_err(|e| e.to_string())?;
    if again != out {
        return Err(format!("{dst}: the folded file does not read back as itself"));
    }
    std::fs::write(dst, &out).map_err(|e| format!("{dst}: cannot write: {e}"))?;
    println!(
        "{dst}: {} bytes (from {} bytes), reads back as itself",
        out.len(),
        bytes.len()
    );
    Ok(())
}
