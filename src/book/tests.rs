use super::*;
use crate::board::notation::play_transcript;
use crate::board::symmetry::apply_board;
use crate::board::{Position, Square};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

fn after(moves: &str) -> Board {
    let line = play_transcript(Position::start(), moves).expect("legal test line");
    line.last().expect("start included").board
}

fn leaf(value: i32, dev: Option<(&str, i32)>) -> Entry {
    Entry {
        value,
        depth: SearchDepth::Plies(4),
        deviation: dev.map(|(m, value)| Deviation { mv: sq(m), value }),
    }
}

/// Values a position by its disc difference; the best move is the first legal one.
pub(super) struct Discs;
impl Valuer for Discs {
    fn search(&mut self, b: &Board) -> Searched {
        Searched {
            best: children(b).first().map_or(Square::Pass, |c| c.0),
            value: b.player.count_ones() as i32 - b.opponent.count_ones() as i32,
            depth: SearchDepth::Plies(1),
        }
    }
}

/// Every value is the best of the deviation and of minus each book child, and no deviation
/// leads into the book.
pub(super) fn assert_negamaxed(book: &Book) {
    for (b, e) in book.iter() {
        let kids: Vec<i32> = children(&b)
            .iter()
            .filter_map(|(_, c)| book.probe(c).map(|x| -x.value))
            .collect();
        if let Some(best) = kids.iter().copied().chain(e.deviation.map(|d| d.value)).max() {
            assert_eq!(e.value, best, "{b:?}");
        }
        if let Some(d) = e.deviation {
            let (_, c) = children(&b)
                .into_iter()
                .find(|(m, _)| *m == d.mv)
                .expect("deviation is legal");
            assert!(!book.contains(&c), "deviation into the book at {b:?}");
        }
    }
}

#[test]
fn negamax_on_a_hand_built_tree() {
    // f5, then White's d6 (with one book reply) and f6 in the book; f4 is the deviation.
    let mut book = Book::new();
    book.insert(&after("f5"), leaf(0, Some(("f4", 1))));
    book.insert(&after("f5d6"), leaf(0, Some(("c5", 2))));
    book.insert(&after("f5d6c3"), leaf(-4, Some(("d3", -4))));
    book.insert(&after("f5f6"), leaf(-3, None));
    book.negamax();
    // d6: best of its deviation (2) and c3 (4) = 4 for Black.
    assert_eq!(book.probe(&after("f5d6")).map(|e| e.value), Some(4));
    // f5: best of f4 (1), d6 (-4) and f6 (+3) = 3 for White.
    assert_eq!(book.probe(&after("f5")).map(|e| e.value), Some(3));
    let moves: Vec<(Square, i32, bool)> = book.moves(&after("f5")).iter().map(|m| (m.mv, m.value, m.in_book)).collect();
    assert_eq!(moves, [(sq("f6"), 3, true), (sq("f4"), 1, false), (sq("d6"), -4, true)]);
    assert_eq!(book.line(&after("f5"), sq("d6")), [sq("d6"), sq("c3"), sq("d3")]);
    assert_negamaxed(&book);
    // The start position is not in the book, so it has no book moves.
    assert!(book.moves(&Board::START).is_empty());
}

#[test]
fn the_eight_images_of_a_position_share_one_entry() {
    let b = after("f5d6c3");
    let mut book = Book::new();
    book.insert(&b, leaf(2, Some(("d3", 2))));
    book.insert(&after("f5d6c3f4"), leaf(-1, None));
    book.negamax();
    assert_eq!(book.len(), 2);
    for s in 0..8 {
        let image = apply_board(s, &b);
        let e = book.probe(&image).expect("every image probes the entry");
        assert_eq!(e.value, 2);
        let d3 = Square::At(apply_square(s, 19) as u8);
        assert_eq!(e.deviation.map(|d| d.mv), Some(d3), "symmetry {s}");
        // Book moves are found in the image's own coordinates.
        let f4 = Square::At(apply_square(s, 29) as u8);
        let moves: Vec<(Square, bool)> = book.moves(&image).iter().map(|m| (m.mv, m.in_book)).collect();
        assert_eq!(moves, [(d3, false), (f4, true)], "symmetry {s}");
    }
}

#[test]
fn files_round_trip() {
    let book = build(&Board::START, &BuildOptions { plies: 3, window: 64 }, &mut Discs, &mut |_| {});
    assert_negamaxed(&book);
    let text = book.to_text();
    assert!(text.starts_with("oxello-book 1\n"));
    let back = Book::parse(&text, "t").expect("own output parses");
    assert_eq!(back.entries, book.entries);
    assert_eq!(back.to_text(), text);
    assert!(text.lines().any(|l| l.ends_with("-- -") && l.contains(" node ")));
    assert!(text.lines().any(|l| l.contains(" leaf ")));
}

#[test]
fn bad_lines_are_named_by_file_and_line() {
    let start = "---------------------------OX------XO--------------------------- X";
    let cases = [
        ("", "b.txt: empty file"),
        ("hello\n", "b.txt:1: missing header"),
        ("oxello-book 2\n", "b.txt:1: unsupported version '2'"),
        ("oxello-book 1\n# c\n\nfoo\n", "b.txt:4: expected 7 fields, found 1"),
        (
            &format!("oxello-book 1\n{start} 0 4 node f4 0\n"),
            "b.txt:2: deviation f4 is not a legal move",
        ),
        (&format!("oxello-book 1\n{start} 99 4 node -- -\n"), "b.txt:2: bad value '99'"),
        (
            &format!("oxello-book 1\n{start} 0 4@100% node -- -\n"),
            "b.txt:2: bad depth '4@100%'",
        ),
        (&format!("oxello-book 1\n{start} 0 4 twig -- -\n"), "b.txt:2: bad kind 'twig'"),
        (
            &format!("oxello-book 1\n{}Z X 0 4 node -- -\n", &start[..63]),
            "b.txt:2: bad character 'Z'",
        ),
        (
            &format!("oxello-book 1\n{start} 0 4 node -- -\n{start} 0 4 node -- -\n"),
            "b.txt:3: position listed twice",
        ),
    ];
    for (text, want) in cases {
        let e = Book::parse(text, "b.txt").expect_err(want);
        assert!(e.to_string().starts_with(want), "{e} / {want}");
    }
    assert!(Book::parse(&format!("oxello-book 1\n{start} 0 22@95% node D3 -1\n"), "b").is_ok());
}

#[test]
fn saving_replaces_the_file_atomically() {
    let dir = crate::scratch::Scratch::new("book-save");
    let path = dir.join("b.txt");
    let mut book = Book::new();
    book.insert(&after("f5"), leaf(0, Some(("f4", 1))));
    book.save(&path).expect("saves");
    book.insert(&after("f5d6"), leaf(-1, Some(("c3", -1))));
    book.negamax();
    book.save(&path).expect("saves again");
    assert_eq!(Book::load(&path).map(|b| b.len()), Ok(2));
    assert!(!dir.join("b.txt.tmp").exists());
    // A directory in the way: an error naming the file, not a panic.
    let e = book.save(&dir).expect_err("cannot replace a directory");
    assert!(e.to_string().contains("oxello-book-save"), "{e}");
}

#[test]
fn learning_adds_the_game_and_renegamaxes() {
    let line = |moves: &str| -> Vec<Board> {
        play_transcript(Position::start(), moves)
            .expect("legal")
            .iter()
            .map(|p| p.board)
            .collect()
    };
    let mut book = Book::new();
    assert_eq!(
        book.learn(&line("f5d6c3"), &mut Discs),
        Learned {
            added: 4,
            finished: true
        }
    );
    assert_negamaxed(&book);
    // The last position is a leaf whose deviation is its search's best move (d3, the first).
    let last = book.probe(&after("f5d6c3")).expect("learned");
    assert_eq!(last.deviation.map(|d| d.mv), Some(sq("d3")));
    // Learning further along that move moves the deviation elsewhere.
    assert_eq!(book.learn(&line("f5d6c3d3c4"), &mut Discs).added, 2);
    assert_negamaxed(&book);
    let e = book.probe(&after("f5d6c3")).expect("learned");
    assert!(e.deviation.is_some_and(|d| d.mv != sq("d3")));
    // A symmetric image of a learned game adds nothing.
    assert_eq!(book.learn(&line("d3c5f6"), &mut Discs).added, 0);
    // Only the first LEARN_PLIES plies are learned.
    let mut long = vec![Board::START];
    while let Some((_, next)) = long.last().and_then(|b| children(b).into_iter().next()) {
        long.push(next);
    }
    assert!(long.len() > LEARN_PLIES + 1);
    let mut book = Book::new();
    book.learn(&long, &mut Discs);
    assert_eq!(book.len(), LEARN_PLIES + 1);
}

/// `Discs` until `left` searches are done, then stopped: its later answers are garbage.
struct StopsAfter {
    left: usize,
}

impl Valuer for StopsAfter {
    fn search(&mut self, board: &Board) -> Searched {
        if self.left == 0 {
            return Searched {
                best: Square::Pass,
                value: 99,
                depth: SearchDepth::Plies(0),
            };
        }
        self.left -= 1;
        Discs.search(board)
    }

    fn stopped(&self) -> bool {
        self.left == 0
    }
}

/// A learn whose searches are stopped stores nothing it was computing, and learning the same
/// game again finishes it: the book ends as an uninterrupted learn leaves it.
#[test]
fn a_stopped_learn_stores_no_wrong_value_and_resumes() {
    let game: Vec<Board> = play_transcript(Position::start(), "f5d6c3d3c4f4")
        .expect("legal")
        .iter()
        .map(|p| p.board)
        .collect();
    let mut whole = Book::new();
    assert!(whole.learn(&game, &mut Discs).finished);
    for stop_after in [0, 1, 5, 12] {
        let mut book = Book::new();
        let first = book.learn(&game, &mut StopsAfter { left: stop_after });
        assert!(!first.finished, "stopped after {stop_after}");
        assert_negamaxed(&book);
        for b in &game {
            if let Some(e) = book.probe(b) {
                assert!(e.value.abs() <= 64 && e.deviation.is_none_or(|d| d.value.abs() <= 64));
            }
        }
        let second = book.learn(&game, &mut Discs);
        assert!(second.finished);
        assert_eq!(first.added + second.added, whole.len(), "stopped after {stop_after}");
        for b in &game {
            assert_eq!(book.probe(b), whole.probe(b), "stopped after {stop_after}");
        }
    }
}

/// A build stopped anywhere and resumed gives the book of an uninterrupted build.
#[test]
fn a_stopped_build_resumes() {
    let opts = BuildOptions { plies: 4, window: 2 };
    let full = build(&Board::START, &opts, &mut Discs, &mut |_| {});
    let mut snapshots = Vec::new();
    build::resume(&mut Book::new(), &Board::START, &opts, None, &mut Discs, &mut |b: &Book| {
        if b.len() % 7 == 3 {
            snapshots.push(b.clone());
        }
    });
    assert!(snapshots.len() > 3);
    for mut book in snapshots {
        // Through the file, as `--resume` reads it.
        book = Book::parse(&book.to_text(), "snapshot").expect("snapshot parses");
        build::resume(&mut book, &Board::START, &opts, None, &mut Discs, &mut |_| {});
        assert_eq!(book.to_text(), full.to_text());
    }
}

/// The workers of a sharded build, merged, give the book of one build.
#[test]
fn shards_merge_into_the_whole_book() {
    let opts = BuildOptions { plies: 4, window: 2 };
    let full = build(&Board::START, &opts, &mut Discs, &mut |_| {});
    for count in [1, 2, 3] {
        let mut merged = Book::new();
        let mut sizes = Vec::new();
        for index in 0..count {
            let mut book = Book::new();
            let shard = Shard { index, count, ply: 3 };
            build::resume(&mut book, &Board::START, &opts, Some(shard), &mut Discs, &mut |_| {});
            sizes.push(book.len());
            merged.merge(&book);
        }
        assert_eq!(merged.to_text(), full.to_text(), "{count} shards");
        // A stopped worker resumes to its own book.
        let shard = Shard { index: 0, count, ply: 3 };
        let mut whole = Book::new();
        build::resume(&mut whole, &Board::START, &opts, Some(shard), &mut Discs, &mut |_| {});
        let mut snapshots = Vec::new();
        build::resume(
            &mut Book::new(),
            &Board::START,
            &opts,
            Some(shard),
            &mut Discs,
            &mut |b: &Book| {
                if b.len() % 5 == 2 {
                    snapshots.push(b.clone());
                }
            },
        );
        for mut book in snapshots {
            build::resume(&mut book, &Board::START, &opts, Some(shard), &mut Discs, &mut |_| {});
            assert_eq!(book.to_text(), whole.to_text(), "{count} shards, resumed");
        }
        // Each worker holds the top and its share only.
        assert!(sizes.iter().sum::<usize>() < full.len() + count as usize * 20, "{sizes:?}");
    }
}

/// A game with a forced pass, learned from a set-up position in the book: the positions on
/// both sides of the pass go in, and the pass is the book move of the passing position.
#[test]
fn learning_a_game_with_a_pass() {
    // The first random game with a pass; its line from a few plies before the pass.
    let mut seed = 7u64;
    let line = (0..1000)
        .find_map(|_| {
            let mut line = vec![Board::START];
            let mut b = Board::START;
            while !b.is_game_over() {
                let m = b.moves();
                b = if m == 0 {
                    b.pass()
                } else {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let k = (seed >> 33) as usize % m.count_ones() as usize;
                    let sq = crate::board::bits::Squares(m).nth(k).unwrap_or(0);
                    b.play(sq).unwrap_or(b)
                };
                line.push(b);
            }
            let pass = line.iter().position(|b| b.moves() == 0 && !b.is_game_over())?;
            Some(line[pass.saturating_sub(4)..].to_vec())
        })
        .expect("some random game passes");
    let mut book = Book::new();
    let learned = book.learn(&line, &mut Discs);
    assert!(learned.finished && learned.added >= 5);
    let passing = line.iter().find(|b| b.moves() == 0 && !b.is_game_over()).expect("pass");
    assert!(book.contains(passing) && book.contains(&passing.pass()));
    assert!(book.moves(passing).iter().any(|m| m.mv == Square::Pass && m.in_book));
    assert_negamaxed(&book);
}
