//! Whole protocol sessions (NBoard or GTP, as the first line says) fed from the fuzzer's
//! bytes, with a thinker that plays the first legal move: no command sequence may panic the
//! engine thread (a `set game`, `move`, `undo`, `learn` or clock command in any order).
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::board::Square;
use oxello::engine::book::EngineBook;
use oxello::engine::{EngineOptions, Think, ThinkInfo, ThinkRequest, ThinkResult, UserClock};
use oxello::base::SearchDepth;
use oxello::protocol::io::Output;
use std::sync::atomic::AtomicBool;

struct FirstMove;

impl Think for FirstMove {
    fn think(&mut self, req: &ThinkRequest, _: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
        let moves = req.position.board.moves();
        assert!(moves != 0, "asked to think with no legal move");
        let best = Square::At(moves.trailing_zeros() as u8);
        report(ThinkInfo {
            pv: vec![best],
            score: 0.0,
            depth: SearchDepth::Plies(1),
            nodes: 1,
            seconds: 0.0,
            odds: None,
        });
        ThinkResult {
            best,
            score: 0.0,
            depth: SearchDepth::Plies(1),
            pv: vec![best],
            nodes: 1,
            seconds: 0.0,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let input = std::io::Cursor::new(data.to_vec());
    let out = Output::new(Box::new(std::io::sink()));
    let opts = EngineOptions {
        level: 1,
        book: EngineBook::default(),
        risk: None,
        level_explicit: false,
        clock: UserClock::None,
        ponder: false,
    };
    oxello::engine::run(None, input, out, Box::new(FirstMove), opts);
});
