//! The parameter files: evaluation weights (binary), level table, Multi-ProbCut and endgame
//! cut tables. The first byte picks the parser; none may panic on any input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::search::endcut::EndCut;
use oxello::search::levels::Levels;
use oxello::search::mpc::MpcTable;

fuzz_target!(|data: &[u8]| {
    let Some((&kind, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    match kind % 4 {
        0 => {
            let _ = oxello::eval::Evaluator::from_bytes(rest, "fuzz");
        }
        1 => {
            let _ = Levels::parse(&text, "fuzz");
        }
        2 => {
            let _ = MpcTable::parse(&text, "fuzz");
        }
        _ => {
            let _ = EndCut::parse(&text, "fuzz");
        }
    }
});
