use super::*;
use crate::book::tests::{Discs, assert_negamaxed};
use crate::book::{BuildOptions, build};

/// A "deeper" valuer: the disc difference moved by a fixed amount that depends on the
/// position (so that deepening changes the book's choices), the last legal move, depth 3.
/// Stopped after `left` searches when `left` is set: its later answers are garbage.
struct Deeper {
    left: Option<usize>,
}
impl Valuer for Deeper {
    fn search(&mut self, b: &Board) -> Searched {
        if let Some(left) = &mut self.left {
            if *left == 0 {
                return Searched {
                    best: Square::Pass,
                    value: 99,
                    depth: SearchDepth::Plies(99),
                };
            }
            *left -= 1;
        }
        let shift = ((b.player ^ b.opponent.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as i32 % 7 - 3;
        Searched {
            best: children(b).last().map_or(Square::Pass, |c| c.0),
            value: b.player.count_ones() as i32 - b.opponent.count_ones() as i32 + shift,
            depth: SearchDepth::Plies(3),
        }
    }
    fn stopped(&self) -> bool {
        self.left == Some(0)
    }
}

/// `Deeper` whose stop is seen only after a garbage answer, as a real search's stop flag is
/// set between searches.
struct StopsAfter(Deeper, bool);
impl Valuer for StopsAfter {
    fn search(&mut self, b: &Board) -> Searched {
        self.1 = self.0.stopped();
        self.0.search(b)
    }
    fn stopped(&self) -> bool {
        self.1
    }
}

const TARGET: SearchDepth = SearchDepth::Plies(3);

fn small_book() -> Book {
    build(&Board::START, &BuildOptions { plies: 5, window: 2 }, &mut Discs, &mut |_| {})
}

/// Deepens with the given valuers, at most 50 rounds, quietly.
fn deepen_with(book: &mut Book, window: i32, valuers: &mut [&mut (dyn Valuer + Send)]) -> Report {
    deepen(book, &Board::START, window, TARGET, 50, valuers, &mut |_, _, _| {})
}

#[test]
fn depths_compare_by_plies_then_selectivity() {
    let sel = |depth, percent| SearchDepth::Selective { depth, percent };
    assert!(at_least(sel(22, 80), sel(22, 80)));
    assert!(at_least(sel(23, 95), sel(22, 80)));
    assert!(!at_least(sel(22, 70), sel(22, 80)));
    assert!(!at_least(sel(21, 100), sel(22, 80)));
    assert!(at_least(SearchDepth::Plies(22), sel(22, 80)));
    assert!(!at_least(sel(22, 80), SearchDepth::Plies(22)));
    assert!(at_least(SearchDepth::Exact, SearchDepth::Plies(40)));
    assert!(at_least(SearchDepth::Wld, sel(30, 95)));
}

/// The side whose choices are followed plays only its best book moves (within the window);
/// the other side any book move; both colours in turn.
#[test]
fn reachable_follows_one_side_s_best_moves_and_all_the_other_s() {
    let book = small_book();
    let all = reachable(&book, &Board::START, 64);
    assert_eq!(all.len(), book.len());
    let narrow = reachable(&book, &Board::START, 0);
    assert!(narrow.len() < all.len(), "{} of {}", narrow.len(), all.len());
    assert_eq!(narrow[0], Board::START);
    // Every book child of a reached position is reached when the other side moves there:
    // some colour's opponent is to move in every position, so a position's book children
    // are reached at least when the position is reached as the other side's.
    let start_children: Vec<Board> = children(&Board::START)
        .into_iter()
        .map(|(_, c)| c)
        .filter(|c| book.contains(c))
        .collect();
    for c in &start_children {
        assert!(narrow.iter().any(|r| key(r).0 == key(c).0));
    }
    // Wherever a position is reached, its best book moves are followed.
    for b in &narrow {
        let moves = book.moves(b);
        let Some(best) = moves.first().map(|m| m.value) else {
            continue;
        };
        for m in moves.iter().filter(|m| m.in_book && m.value == best) {
            let (_, c) = children(b).into_iter().find(|(mv, _)| *mv == m.mv).expect("legal");
            assert!(narrow.iter().any(|r| key(r).0 == key(&c).0));
        }
    }
}

#[test]
fn deepening_reaches_every_reachable_position_and_negamaxes() {
    let mut book = small_book();
    let before = book.clone();
    let report = deepen_with(&mut book, 0, &mut [&mut Deeper { left: None }]);
    assert!(report.finished && report.rounds >= 1 && report.searches > 0, "{report:?}");
    assert!(shallow(&book, &Board::START, 0, TARGET).is_empty());
    assert_negamaxed(&book);
    assert_eq!(book.len(), before.len());
    for b in reachable(&book, &Board::START, 0) {
        let e = book.probe(&b).expect("in book");
        assert!(
            at_least(e.depth, TARGET) || (book.is_interior(&b) && e.deviation.is_none()),
            "{b:?}"
        );
    }
    // Positions no game reaches keep their shallow values.
    assert!(book.iter().any(|(_, e)| e.depth == SearchDepth::Plies(1)));
    // Deepening the deepened book does nothing.
    let again = deepen_with(&mut book.clone(), 0, &mut [&mut Deeper { left: None }]);
    assert_eq!((again.rounds, again.searches, again.finished), (0, 0, true));
}

/// Two valuers in parallel store what one stores.
#[test]
fn parallel_valuers_give_the_same_book() {
    let mut one = small_book();
    deepen_with(&mut one, 1, &mut [&mut Deeper { left: None }]);
    let mut two = small_book();
    let (mut a, mut b) = (Deeper { left: None }, Deeper { left: None });
    deepen_with(&mut two, 1, &mut [&mut a, &mut b]);
    assert_eq!(one.to_text(), two.to_text());
}

/// A stopped deepening stores no value of the stopped search, and a second run finishes it.
#[test]
fn a_stopped_deepening_stores_nothing_wrong_and_resumes() {
    for stop_after in [0, 1, 7, 20] {
        let mut book = small_book();
        let first = deepen_with(&mut book, 0, &mut [&mut StopsAfter(Deeper { left: Some(stop_after) }, false)]);
        assert!(!first.finished);
        assert_eq!(first.searches, stop_after);
        assert!(
            book.iter()
                .all(|(_, e)| e.value.abs() <= 64 && e.depth != SearchDepth::Plies(99))
        );
        assert_negamaxed(&book);
        // Through the file, as a resumed run reads it.
        let mut book = Book::parse(&book.to_text(), "stopped").expect("parses");
        let second = deepen_with(&mut book, 0, &mut [&mut Deeper { left: None }]);
        assert!(second.finished);
        assert!(shallow(&book, &Board::START, 0, TARGET).is_empty());
    }
}
