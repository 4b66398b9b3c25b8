//! NBoard command lines: parsing never panics, and what parses prints back without panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(command) = oxello::protocol::nboard::parse(&line) {
        let _ = command.interrupts();
        let _ = format!("{command:?}");
    }
});
