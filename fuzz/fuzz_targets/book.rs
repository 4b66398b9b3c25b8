//! Book files: parsing never panics; a parsed book prints and parses back to the same text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::book::Book;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(book) = Book::parse(&text, "fuzz") {
        let printed = book.to_text();
        let again = Book::parse(&printed, "printed").expect("a printed book parses");
        assert_eq!(again.to_text(), printed);
    }
});
