//! Edax binary books: reading never panics; a file that reads writes back to the same bytes;
//! an imported book exports to an Edax book that imports to the same book.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::book::Book;
use oxello::book::edax::format::EdaxFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = EdaxFile::parse(data) {
        assert_eq!(file.to_bytes(), data);
    }
    if let Ok((book, _)) = Book::from_edax(data, "fuzz") {
        let bytes = book.to_edax([0; 8]).to_bytes();
        let (again, _) = Book::from_edax(&bytes, "exported").expect("an exported book imports");
        assert_eq!(again.to_text(), book.to_text());
    }
});
