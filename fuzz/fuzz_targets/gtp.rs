//! GTP command lines: parsing never panics; every line gets a well-formed response frame.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::protocol::gtp;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    match gtp::parse(&line) {
        Ok(Some(request)) => {
            let response = gtp::format_response(request.id.as_deref(), Ok(""));
            assert!(response.ends_with("\n\n"));
        }
        Ok(None) => {}
        Err(e) => {
            let response = gtp::format_response(e.id.as_deref(), Err(&e.message));
            assert!(response.starts_with('?') && response.ends_with("\n\n"));
        }
    }
});
