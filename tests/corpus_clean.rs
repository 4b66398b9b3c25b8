//! No position of the accuracy and solving benchmarks (Edax's hard-20, hard-25 and hard-30,
//! under the 8 symmetries) is in the training corpus: figures on those files stay tests of
//! positions the weights never saw. The files are GPL-3 and not in the repository; their keys
//! are (`tests/data/problem-keys.txt`, made by `examples/problem_keys.rs`).

use oxello::board::symmetry::{apply_board, canonical};
use oxello::corpus::Shard;
use oxello::corpus::game::LabelPolicy;
use oxello::corpus::store::shard_files;
use std::collections::HashSet;
use std::path::Path;

fn keys() -> HashSet<(u64, u64)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/problem-keys.txt"))
        .expect("tests/data/problem-keys.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace().map(|x| u64::from_str_radix(x, 16).expect("a hex key"));
            (w.next().expect("player"), w.next().expect("opponent"))
        })
        .collect()
}

#[test]
fn no_benchmark_position_is_in_the_corpus() {
    let keys = keys();
    assert_eq!(keys.len(), 876, "276 + 311 + 289 distinct positions");
    // Only records with as many empties as some key need the 8 images.
    let empties: HashSet<u32> = keys.iter().map(|&(p, o)| 64 - (p | o).count_ones()).collect();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let files = shard_files(&corpus).expect("the corpus folder");
    let (mut records, mut found, mut control) = (0u64, Vec::new(), None);
    for f in &files {
        let shard = Shard::load(f).expect("a readable shard");
        for g in &shard.games {
            let positions = g.replay().expect("a game that replays");
            // Every record a fit can read: the line, the solved and searched siblings, the walks.
            for r in g.records(&positions, LabelPolicy::Game, 0, true) {
                records += 1;
                control.get_or_insert(r.board);
                if !empties.contains(&r.board.empty_count()) {
                    continue;
                }
                let (c, _) = canonical(&r.board);
                if keys.contains(&(c.player, c.opponent)) {
                    found.push(format!("{} game {}", f.display(), g.index));
                }
            }
        }
    }
    assert!(records > 50_000_000, "only {records} records read: is the corpus there?");
    assert!(found.is_empty(), "benchmark positions in the corpus: {found:?}");
    // The check would find a corpus position given in another orientation: every image of a
    // position has the same key.
    let b = control.expect("a record");
    let key = |b| {
        let (c, _) = canonical(&b);
        (c.player, c.opponent)
    };
    assert!((0..8).all(|s| key(apply_board(s, &b)) == key(b)));
}
