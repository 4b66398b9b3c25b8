//! GGF game records: parsing never panics; a parsed game prints and parses back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::ggf::GgfGame;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = GgfGame::parse(&text) {
        let printed = game.write();
        let again = GgfGame::parse(&printed).expect("a printed game parses");
        assert_eq!(again.write(), printed);
    }
});
