//! Against the book Edax 4.6 wrote itself (tests/data/edax/, see its README.md).

use super::format::{EdaxFile, NO_MOVE};
use super::*;
use crate::base::SearchDepth;
use crate::board::Position;
use crate::board::notation::{parse_position, play_transcript};

const SMALL: &[u8] = include_bytes!("../../../tests/data/edax/small.dat");
const EXPORT: &str = include_str!("../../../tests/data/edax/small-export.txt");
const SHOW: &str = include_str!("../../../tests/data/edax/edax-book-show.txt");
const GAMES: &str = include_str!("../../../tests/data/edax/games.txt");

fn small() -> Book {
    Book::from_edax(SMALL, "small.dat").expect("Edax's book imports").0
}

#[test]
fn the_file_reads_and_writes_back_byte_for_byte() {
    let file = EdaxFile::parse(SMALL).expect("parses");
    assert_eq!(file.records.len(), 2246);
    assert_eq!((file.header.version, file.header.release, file.header.level), (4, 6, 10));
    assert_eq!(file.to_bytes(), SMALL);
}

#[test]
fn import_gives_the_positions_levels_and_deviations_of_edax_export() {
    let (book, report) = Book::from_edax(SMALL, "small.dat").expect("imports");
    assert_eq!(report.positions, 2246);
    assert_eq!((report.dangling_links, report.leaves_into_book), (0, 0));
    let mut n = 0;
    for line in EXPORT.lines() {
        let fields: Vec<&str> = line.split(',').collect();
        let [board, lvl, mv, score] = fields[..] else {
            panic!("bad export line {line}");
        };
        let pos = parse_position(board).expect("Edax board");
        let e = book.probe(&pos.board).unwrap_or_else(|| panic!("{board} not imported"));
        let lvl: u8 = lvl.parse().expect("level");
        assert_eq!(e.depth, level::depth(lvl, pos.board.empty_count()), "{line}");
        match mv {
            "--" => {
                assert_eq!(e.deviation, None, "{line}");
                assert_eq!(score, "-127", "{line}");
            }
            m => {
                let d = e.deviation.unwrap_or_else(|| panic!("no deviation: {line}"));
                assert_eq!(d.mv, Square::parse(m).expect("move"), "{line}");
                assert_eq!(d.value.to_string(), score, "{line}");
            }
        }
        n += 1;
    }
    assert_eq!(n, book.len());
}

/// Every Edax link is an oxello book move with the same score, and the values agree.
#[test]
fn import_gives_edax_book_moves_and_values() {
    let book = small();
    let file = EdaxFile::parse(SMALL).expect("parses");
    for r in &file.records {
        let b = Board::new(r.player, r.opponent);
        let e = book.probe(&b).expect("in book");
        assert_eq!(e.value, i32::from(r.value));
        let mut ours: Vec<(Square, i32)> = book
            .moves(&b)
            .into_iter()
            .filter(|m| m.in_book)
            .map(|m| (m.mv, m.value))
            .collect();
        let mut theirs: Vec<(Square, i32)> = r
            .links
            .iter()
            .map(|l| (legal_move(&b, l.mv).expect("legal"), i32::from(l.score)))
            .collect();
        ours.sort_by_key(|m| m.0.index());
        theirs.sort_by_key(|m| m.0.index());
        assert_eq!(ours, theirs, "{b:?}");
    }
    // Negamaxing it again changes nothing: Edax's values are its negamax.
    let mut again = book.clone();
    again.negamax();
    assert_eq!(again.to_text(), book.to_text());
}

/// `book show` in Edax: best score and the moves with their scores, `<m:v>` the deviation.
#[test]
fn import_matches_edax_book_show() {
    let book = small();
    let game = GAMES.lines().next().expect("a game");
    let mut blocks = 0;
    for block in SHOW.split("\n--\n") {
        let empties: usize = block
            .split("empties =")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .expect("empties");
        let plies = 60 - empties;
        let line = play_transcript(Position::start(), &game[..2 * plies]).expect("legal");
        let pos = line.last().expect("position").board;
        let best: i32 = block
            .split("Best score: ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .expect("best score");
        assert_eq!(book.probe(&pos).map(|e| e.value), Some(best));
        let moves_line = block.lines().find(|l| l.starts_with("Moves:")).expect("moves");
        let mut theirs: Vec<(Square, i32, bool)> = moves_line["Moves:".len()..]
            .split_whitespace()
            .map(|m| {
                let in_book = m.starts_with('[');
                let (mv, v) = m[1..m.len() - 1].split_once(':').expect("m:v");
                (Square::parse(mv).expect("move"), v.parse().expect("score"), in_book)
            })
            .collect();
        let mut ours: Vec<(Square, i32, bool)> = book.moves(&pos).into_iter().map(|m| (m.mv, m.value, m.in_book)).collect();
        ours.sort_by_key(|m| m.0.index());
        theirs.sort_by_key(|m| m.0.index());
        assert_eq!(ours, theirs, "{block}");
        blocks += 1;
    }
    assert_eq!(blocks, 3);
}

/// Export of the imported book: Edax's header (given its date), and every position with the
/// same board, value, bounds, statistics, level, leaf and links as Edax's file, in the same
/// hash buckets. Not the same bytes: within a bucket Edax keeps insertion order, and among
/// links of equal score the order they were added in; the file records neither (see
/// book/README.md).
#[test]
fn export_of_the_import_is_edax_file_but_for_orders_it_does_not_record() {
    let original = EdaxFile::parse(SMALL).expect("parses");
    let exported = small().to_edax(original.header.date);
    assert_eq!(exported.header, original.header);
    assert_eq!(exported.records.len(), original.records.len());
    let by_board: std::collections::HashMap<(u64, u64), &Record> =
        original.records.iter().map(|r| ((r.player, r.opponent), r)).collect();
    let (mut same_place, mut same_links) = (0, 0);
    for (i, r) in exported.records.iter().enumerate() {
        let o = by_board.get(&(r.player, r.opponent)).expect("same boards");
        let fields = |r: &Record| (r.wins, r.draws, r.losses, r.lines, r.value, r.lower, r.upper, r.level, r.leaf);
        assert_eq!(fields(r), fields(o));
        // The same links, best first; only equal scores may come in another order.
        let mut a = r.links.clone();
        let mut b = o.links.clone();
        assert_eq!(
            a.iter().map(|l| l.score).collect::<Vec<_>>(),
            b.iter().map(|l| l.score).collect::<Vec<_>>()
        );
        same_links += usize::from(a == b);
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // The same bucket at every place; only positions sharing a bucket may be swapped.
        let q = &original.records[i];
        assert_eq!(hash::bucket(r, 2246), hash::bucket(q, 2246));
        same_place += usize::from(r.player == q.player && r.opponent == q.opponent);
    }
    assert_eq!((same_place, same_links), (2222, 2232));
    // Through the bytes again: the same oxello book.
    let (back, _) = Book::from_edax(&exported.to_bytes(), "exported").expect("re-imports");
    assert_eq!(back.to_text(), small().to_text());
}

#[test]
fn exported_oxello_book_reads_back() {
    let book = Book::embedded().expect("embedded");
    let file = book.to_edax(date_of(0));
    let (back, report) = Book::from_edax(&file.to_bytes(), "x").expect("re-imports");
    assert_eq!(report.dangling_links, 0);
    assert_eq!(back.len(), book.len());
    // Values and deviations survive; depths become the nearest Edax level.
    for (b, e) in book.iter() {
        let x = back.probe(&b).expect("kept");
        assert_eq!(x.value, e.value);
        let into_book = |d: &Deviation| children(&b).iter().any(|(m, c)| *m == d.mv && book.contains(c));
        assert_eq!(x.deviation, e.deviation.filter(|d| !into_book(d)));
    }
    assert!(file.records.iter().all(|r| r.leaf.mv != NO_MOVE || r.leaf.score == -127));
}

#[test]
fn dates_are_civil() {
    assert_eq!(date_of(0), [0xb2, 0x07, 1, 1, 0, 0, 0, 0]);
    // 2026-11-24 07:05:37 UTC
    assert_eq!(date_of(1_795_503_937), [0xea, 0x07, 11, 24, 7, 5, 37, 0]);
}

fn error(bytes: &[u8]) -> String {
    match Book::from_edax(bytes, "bad.dat") {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_files_are_errors_naming_file_and_position() {
    assert!(error(b"").starts_with("bad.dat: truncated header"), "{}", error(b""));
    assert!(error(&SMALL[..30]).contains("truncated header"));
    let mut wrong = SMALL.to_vec();
    wrong[0] = b'Y';
    assert!(error(&wrong).contains("not an Edax book"));
    let mut v5 = SMALL.to_vec();
    v5[8] = 5;
    assert!(error(&v5).contains("version 5.6"));
    // Cut inside the second position.
    let cut = &SMALL[..format::HEADER_BYTES + 60];
    assert!(error(cut).starts_with("bad.dat: position 2 (byte"), "{}", error(cut));
    let mut count = SMALL.to_vec();
    count[38] = 7;
    assert!(error(&count).contains("the header counts"));
    // First position: value, level, a link's move.
    let first = format::HEADER_BYTES;
    let mut value = SMALL.to_vec();
    value[first + 32] = 100;
    value[first + 33] = 0;
    assert!(
        error(&value).contains("position 1 (byte 42): value 100 out of range"),
        "{}",
        error(&value)
    );
    let mut lvl = SMALL.to_vec();
    lvl[first + 39] = 61;
    assert!(error(&lvl).contains("level 61 out of range"));
    let mut link = SMALL.to_vec();
    link[first + 41] = 0; // a1
    assert!(error(&link).contains("is not legal"), "{}", error(&link));
    let mut discs = SMALL.to_vec();
    discs[first + 8..first + 16].copy_from_slice(&SMALL[first..first + 8]);
    assert!(error(&discs).contains("two discs on one square"));
    let mut dup = SMALL.to_vec();
    let first_len = 42 + 2 * usize::from(SMALL[first + 38]);
    dup.extend_from_slice(&SMALL[first..first + first_len]);
    dup[38] = dup[38].wrapping_add(1);
    assert!(error(&dup).contains("listed twice"), "{}", error(&dup));
}

#[test]
fn depths_of_imported_positions_are_level_ten() {
    let book = small();
    for (b, e) in book.iter() {
        let want = if b.empty_count() <= 20 {
            SearchDepth::Exact
        } else {
            SearchDepth::Plies(10)
        };
        assert_eq!(e.depth, want);
    }
}
