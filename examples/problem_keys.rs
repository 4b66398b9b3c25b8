//! Prints one key a position of the OBF files given: the smallest of its 8 symmetric images
//! as `player opponent` in hex (the side to move's discs first). `tests/data/problem-keys.txt`
//! holds the keys of Edax's `hard-20/25/30.obf`, so that a test can check that no position of
//! the accuracy and solving benchmarks is in the training corpus without shipping the files:
//!
//! `cargo run --release --example problem_keys -- hard-20.obf hard-25.obf hard-30.obf`

use oxello::board::symmetry::canonical;
use oxello::obf::{self, ObfLine};
use std::collections::BTreeSet;

fn main() -> Result<(), String> {
    let mut keys = BTreeSet::new();
    for file in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        for entry in obf::parse_file(&text) {
            match entry {
                ObfLine::Blank => {}
                ObfLine::Error { line, error } => return Err(format!("{file}: line {line}: {error}")),
                ObfLine::Position(p) => {
                    let (c, _) = canonical(&p.position.board);
                    keys.insert((c.player, c.opponent));
                }
            }
        }
    }
    for (p, o) in keys {
        println!("{p:016x} {o:016x}");
    }
    Ok(())
}
