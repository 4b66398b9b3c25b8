//! Board strings, transcripts, squares and OBF lines: parsing never panics; a parsed position
//! prints back to itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::board::notation::{format_position, parse_position, parse_transcript, play_transcript};
use oxello::board::{Position, Square};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = parse_position(&text) {
        assert_eq!(parse_position(&format_position(&pos)).ok(), Some(pos));
    }
    let _ = parse_transcript(&text);
    let _ = play_transcript(Position::start(), &text);
    let _ = Square::parse(&text);
    let _ = oxello::obf::parse_file(&text);
});
