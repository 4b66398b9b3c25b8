use super::format::{Shard, ShardHeader};
use super::game::{GameRecord, LabelPolicy, StartKind};
use super::generate::{self, GenerateOptions, Starts, shard_path};
use super::play::{Blunders, DeepOptions, PlayOptions, Walks};
use super::store::{self, Corpus};
use crate::base::OrderingEval;
use crate::board::Board;
use crate::eval::dataset::{Label, Record};
use crate::search::endgame::{SolveMode, Solver};
use crate::search::midgame::Searcher;
use crate::search::request::SearchRequest;
use std::path::Path;
use std::sync::atomic::AtomicBool;

struct Mobility;
impl OrderingEval for Mobility {
    fn evaluate(&self, b: &Board) -> i32 {
        b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32
    }
}

fn temp(name: &str) -> crate::scratch::Scratch {
    crate::scratch::Scratch::new(&format!("corpus-{name}"))
}

fn options(dir: &Path) -> GenerateOptions {
    GenerateOptions {
        dir: dir.to_path_buf(),
        run: "t".into(),
        games: 4,
        chunk_games: 2,
        shard: (0, 1),
        threads: 2,
        seed: 5,
        hash_mb: 4,
        play: PlayOptions {
            depth: 2,
            selectivity: 100,
            exact: 10,
            random_plies: 8..=20,
            siblings: 8..=9,
            deep: Some(DeepOptions {
                depth: 4,
                selectivity: 100,
                empties: 30..=40,
                every: 3,
                siblings_every: 2,
                siblings_depth: 3,
            }),
            blunders: None,
            walks: None,
        },
        starts: Starts::Random,
        describe: ShardHeader::default(),
        time_limit: None,
    }
}

fn quiet(_: u64, _: &generate::Summary, _: f64) {}

fn generate(opts: &GenerateOptions) -> generate::Summary {
    generate::run(opts, &Mobility, &quiet).expect("generate")
}

/// Every label of generated games is what it claims: exact labels the solver's score, search
/// labels the value of a search of the stored depth, deep labels a deeper search's, siblings
/// the solver's score of the move not played; the shard reads back as written.
#[test]
fn labels_are_what_they_say() {
    let dir = temp("labels");
    let opts = options(&dir);
    let s = generate(&opts);
    assert_eq!((s.chunks_written, s.games), (2, 4));
    let corpus = Corpus::load(&[dir.to_path_buf()]).expect("load");
    assert_eq!(corpus.shards.len(), 2);
    let stop = AtomicBool::new(false);
    let (mut solver, mut searcher) = (Solver::new(4), Searcher::new(4));
    let search = |searcher: &mut Searcher, b: Board, depth: u32| {
        searcher
            .run(&SearchRequest::fixed_depth(b, depth), &Mobility, &stop, &mut |_| {})
            .score
            .clamp(-64, 64)
    };
    let (mut exact, mut searched, mut deep, mut siblings, mut deep_siblings) = (0, 0, 0, 0, 0);
    for (path, shard) in &corpus.shards {
        assert_eq!(&Shard::load(path).expect("reload"), shard);
        assert_eq!(Shard::decode(&shard.encode(), path).expect("decode"), *shard);
        for g in &shard.games {
            let positions = g.replay().expect("replay");
            let e = g.exact_from.expect("perfect play from 10 empties") as usize;
            assert_eq!(positions[e].board.empty_count().max(10), 10);
            assert!(positions[e - 1].board.empty_count() > 10);
            for (i, p) in positions.iter().enumerate().skip(e) {
                let r = solver.solve(&p.board, SolveMode::Exact, None, &stop).score;
                assert_eq!(
                    super::game::black_view(p, r),
                    g.result as i32,
                    "game {} position {i}",
                    g.index
                );
                exact += 1;
            }
            assert_eq!(g.search.len(), e, "one search label a position before perfect play");
            for (i, &v) in g.search.iter().enumerate() {
                assert_eq!(search(&mut searcher, positions[i].board, 2), v as i32);
                searched += 1;
            }
            for d in &g.deep {
                let p = positions[d.position as usize];
                assert!((30..=40).contains(&p.board.empty_count()));
                assert_eq!(search(&mut searcher, p.board, 4), d.value as i32);
                deep += 1;
            }
            for sb in &g.siblings {
                let child = positions[sb.position as usize].play(sb.square as usize).expect("legal");
                assert!((8..=9).contains(&child.board.empty_count()));
                assert_eq!(
                    solver.solve(&child.board, SolveMode::Exact, None, &stop).score,
                    sb.value as i32
                );
                siblings += 1;
            }
            for sb in &g.deep_siblings {
                assert!(g.deep.iter().any(|d| d.position == sb.position), "a deep-labelled position's");
                let child = positions[sb.position as usize].play(sb.square as usize).expect("legal");
                assert_eq!(search(&mut searcher, child.board, 3), sb.value as i32);
                deep_siblings += 1;
            }
        }
    }
    assert!(deep_siblings >= 4, "{deep_siblings}");
    // Training records: one per position and sibling, labelled by the policy.
    let game = corpus.records(LabelPolicy::Game, 1.0);
    assert!(game.iter().any(|r| r.label == Label::Game));
    assert_eq!(game.len(), corpus.records(LabelPolicy::Search, 1.0).len());
    assert!(exact >= 40 && searched > 100 && siblings > 4, "{exact} {searched} {siblings}");
    assert!(deep >= 4, "{deep}");
    // deep-from-N: at N empties and more only the deep labels (and exact scores) remain;
    // below N the game's result as with `game`.
    let deep_only = corpus.records(LabelPolicy::DeepFrom(20), 1.0);
    let search_labelled = |r: &&Record| r.label == Label::Search;
    assert_eq!(deep_only.iter().filter(search_labelled).count(), deep + deep_siblings);
    assert!(deep_only.iter().all(|r| r.label != Label::Game || r.board.empty_count() < 20));
    assert_eq!(
        deep_only.len(),
        // (deep labels replace the result under every policy: `game` holds them too)
        game.iter()
            .filter(|r| r.label != Label::Game || r.board.empty_count() < 20)
            .count()
    );
    assert!(LabelPolicy::parse("deep-from-28") == Ok(LabelPolicy::DeepFrom(28)));
    assert!(LabelPolicy::parse("deep-from-61").is_err() && LabelPolicy::parse("deep").is_err());
    let records = corpus.records(LabelPolicy::Search, 1.0);
    let n: usize = corpus.shards.iter().flat_map(|(_, s)| &s.games).map(|g| g.labelled()).sum();
    assert_eq!(records.len(), n);
    // A sibling share of 0 leaves only the game lines (no game here is held out, whose
    // siblings would stay).
    let lines: usize = corpus
        .shards
        .iter()
        .flat_map(|(_, s)| &s.games)
        .map(|g| g.moves.len() + g.deep_siblings.len())
        .sum();
    assert_eq!(corpus.records(LabelPolicy::Search, 0.0).len(), lines);
    assert!(lines < n);
    assert_eq!(
        records.iter().filter(|r| r.game % 10 == 9).count(),
        0,
        "games 0-3: none held out"
    );
    assert_eq!(corpus.stats().positions(), n as u64);
    let report = corpus.stats().report();
    assert!(
        report.starts_with(&format!("4 games (0 held out), {n} labelled positions")),
        "{report}"
    );
}

/// Running again plays only what is missing; `--shard I/N` splits the chunks so that two
/// halves give the very files one whole run gives; other settings are refused.
#[test]
fn resumes_and_shards_reproduce_the_whole_run() {
    let whole = temp("whole");
    let mut opts = options(&whole);
    opts.games = 6;
    assert_eq!(generate(&opts).chunks_written, 3);
    let again = generate(&opts);
    assert_eq!((again.chunks_written, again.chunks_present), (0, 3));

    let halves = temp("halves");
    let mut half = options(&halves);
    half.games = 2;
    assert_eq!(generate(&half).chunks_written, 1);
    half.games = 6;
    half.shard = (1, 2);
    assert_eq!(generate(&half).chunks_written, 1, "chunk 1");
    half.shard = (0, 2);
    let s = generate(&half);
    assert_eq!((s.chunks_written, s.chunks_present), (1, 1), "chunk 2; chunk 0 was there");
    for c in 0..3 {
        let a = std::fs::read(shard_path(&whole.join("t"), c)).expect("whole");
        let b = std::fs::read(shard_path(&halves.join("t"), c)).expect("half");
        assert_eq!(a, b, "chunk {c}");
    }

    half.play.depth = 3;
    let e = generate::run(&half, &Mobility, &quiet)
        .expect_err("other settings")
        .to_string();
    assert!(e.contains("search_depth: 2 here, 3 asked"), "{e}");
    assert!(e.contains(&halves.join("t").display().to_string()), "{e}");
}

/// Past the time limit no chunk is begun; the chunks begun are finished.
#[test]
fn the_time_limit_stops_between_chunks() {
    let dir = temp("limit");
    let mut opts = options(&dir);
    opts.time_limit = Some(std::time::Duration::ZERO);
    assert_eq!(generate(&opts).chunks_written, 0);
    opts.time_limit = Some(std::time::Duration::from_millis(50));
    opts.games = 2000;
    let s = generate(&opts);
    assert!(s.chunks_written >= 1 && s.chunks_written < 1000, "{s:?}");
    assert_eq!(
        Corpus::load(&[dir.to_path_buf()]).expect("whole").shards.len() as u64,
        s.chunks_written
    );
}

/// A damaged shard is an error naming the file; the temporary file of a killed writer is no
/// shard and is removed when the run goes on.
#[test]
fn damaged_files_are_named_and_killed_writes_leave_the_corpus_whole() {
    let dir = temp("damaged");
    let opts = options(&dir);
    generate(&opts);
    let path = shard_path(&dir.join("t"), 0);
    let bytes = std::fs::read(&path).expect("read");
    let name = path.display().to_string();
    let cases: [(&str, Vec<u8>); 4] = [
        ("truncated", bytes[..bytes.len() - 7].to_vec()),
        ("flipped", {
            let mut b = bytes.clone();
            b[40] ^= 4;
            b
        }),
        ("magic", b"NOPE and more bytes than the header".to_vec()),
        ("empty", Vec::new()),
    ];
    for (what, b) in cases {
        let e = Shard::decode(&b, &path).expect_err(what).to_string();
        assert!(e.starts_with(&format!("{name}: ")), "{what}: {e}");
    }
    // A torn temporary file beside the shards: readers skip it, the generator removes it.
    let tmp = dir.join("t").join("c000002.oxc.999.tmp");
    std::fs::write(&tmp, &bytes[..bytes.len() / 2]).expect("write");
    assert_eq!(Corpus::load(&[dir.to_path_buf()]).expect("load").shards.len(), 2);
    let mut more = options(&dir);
    more.games = 6;
    generate(&more);
    assert!(!tmp.exists());
    assert_eq!(Corpus::load(&[dir.to_path_buf()]).expect("load").shards.len(), 3);
    // A shard cut short in place is reported with its name.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("write");
    let e = Corpus::load(&[dir.to_path_buf()]).err().expect("damaged").to_string();
    assert!(e.starts_with(&name) && e.contains("truncated or corrupt"), "{e}");
}

/// Merging copies what is missing, skips what is there, refuses a chunk with other games.
#[test]
fn merge_copies_checks_and_refuses_conflicts() {
    let a = temp("merge-a");
    let into = temp("merge-into");
    let mut opts = options(&a);
    opts.games = 2;
    generate(&opts);
    let r = store::merge(&[a.to_path_buf()], &into).expect("merge");
    assert_eq!((r.copied, r.already), (1, 0));
    let r = store::merge(&[a.to_path_buf()], &into).expect("merge again");
    assert_eq!((r.copied, r.already), (0, 1));
    let b = temp("merge-b");
    let mut other = options(&b);
    other.games = 2;
    other.seed = 6;
    generate(&other);
    let e = store::merge(&[b.to_path_buf()], &into).expect_err("conflict").to_string();
    assert!(e.contains("differs from"), "{e}");
    // Two files holding one chunk cannot be loaded together.
    let e = Corpus::load(&[a.to_path_buf(), b.to_path_buf()])
        .err()
        .expect("twice")
        .to_string();
    assert!(e.contains("chunk 0 of run 't' again"), "{e}");
}

/// Games from a list of lines start with a line (never a reserved one), and followed games
/// keep their moves until perfect play.
#[test]
fn starts_from_lists_and_followed_games() {
    let dir = temp("starts");
    let lines: Vec<Vec<u8>> = ["f5d6c3d3c4", "f5f6e6f4", "f5d6c5f4e3", "f5f4e3f6d3"]
        .iter()
        .map(|t| {
            crate::board::notation::parse_transcript(t)
                .expect("transcript")
                .into_iter()
                .filter_map(|m| match m {
                    crate::board::Square::At(sq) => Some(sq),
                    crate::board::Square::Pass => None,
                })
                .collect()
        })
        .collect();
    let mut opts = options(&dir);
    opts.games = 10;
    opts.chunk_games = 10;
    opts.play.random_plies = 0..=0;
    opts.starts = Starts::Pick {
        kind: StartKind::Xot,
        lines: lines.clone(),
        reserve: 2,
    };
    generate(&opts);
    let corpus = Corpus::load(&[dir.to_path_buf()]).expect("load");
    for g in &corpus.shards[0].1.games {
        assert_eq!(g.start.kind, StartKind::Xot);
        assert!(g.start.id % 2 == 1, "line {} is reserved", g.start.id);
        let line = &lines[g.start.id as usize - 1];
        assert_eq!(&g.moves[..line.len()], &line[..]);
        assert_eq!(g.start.plies as usize, line.len());
    }
    let follow = temp("follow");
    let mut opts = options(&follow);
    opts.starts = Starts::Follow { lines: lines.clone() };
    opts.chunk_games = 3;
    let s = generate(&opts);
    assert_eq!((s.chunks_written, s.games), (2, 4), "4 lines in chunks of 3");
    let corpus = Corpus::load(&[follow.to_path_buf()]).expect("load");
    let games: Vec<&GameRecord> = corpus.shards.iter().flat_map(|(_, s)| &s.games).collect();
    for (g, line) in games.iter().zip(&lines) {
        assert_eq!(g.start.kind, StartKind::Line);
        assert_eq!(&g.moves[..line.len()], &line[..]);
    }
}

/// The sibling share keeps about that share of games, nested as the share grows.
#[test]
fn sibling_share_picks_about_that_share_of_games() {
    use super::store::in_share;
    let kept = |share| (0..10_000u64).filter(|&g| in_share(g, share)).count();
    assert!((2_300..2_700).contains(&kept(0.25)), "{}", kept(0.25));
    assert_eq!(kept(0.0), 0);
    assert_eq!(kept(1.0), 10_000);
    assert!((0..10_000u64).all(|g| !in_share(g, 0.25) || in_share(g, 0.5)));
}

/// Deep siblings are searched after the game: without them the games and every other label
/// are the same, and the shards are written as format version 1 (what runs before them wrote).
#[test]
fn deep_siblings_change_nothing_else() {
    let (with, without) = (temp("deep-sib-on"), temp("deep-sib-off"));
    generate(&options(&with));
    let mut opts = options(&without);
    if let Some(d) = opts.play.deep.as_mut() {
        d.siblings_every = 0;
    }
    generate(&opts);
    let a = Corpus::load(&[with.to_path_buf()]).expect("load");
    let b = Corpus::load(&[without.to_path_buf()]).expect("load");
    for ((_, x), (path, y)) in a.shards.iter().zip(&b.shards) {
        assert_eq!(
            Shard::version_of(&y.encode_plain()),
            Some(1),
            "plain version 1 without deep siblings"
        );
        assert_eq!(Shard::version_of(&x.encode_plain()), Some(2));
        assert_eq!(Shard::version_of(&std::fs::read(path).expect("read")), Some(4));
        assert_eq!(x.games.len(), y.games.len());
        for (g, h) in x.games.iter().zip(&y.games) {
            assert!(h.deep_siblings.is_empty());
            let mut g = g.clone();
            g.deep_siblings.clear();
            assert_eq!(&g, h);
        }
    }
}

/// With blunders every move in their range is drawn (100 %): the games are those without
/// blunders up to the first position in the range, where the move played is not the one
/// the search chose; the game's opening plies then cover the last blunder, and the run's
/// header says so (absent without blunders, as in the runs before them).
#[test]
fn blunders_leave_the_searched_move_and_are_recorded() {
    let (with, without) = (temp("blunders-on"), temp("blunders-off"));
    let mut opts = options(&with);
    opts.play.deep = None;
    opts.play.blunders = Some(Blunders {
        percent: 100,
        empties: 30..=40,
    });
    generate(&opts);
    opts.dir = without.to_path_buf();
    opts.play.blunders = None;
    generate(&opts);
    let a = Corpus::load(&[with.to_path_buf()]).expect("load");
    let b = Corpus::load(&[without.to_path_buf()]).expect("load");
    for ((_, x), (_, y)) in a.shards.iter().zip(&b.shards) {
        assert_eq!(x.header.get("blunders"), Some("100 % at empties 30-40"));
        assert_eq!(y.header.get("blunders"), None);
        for (g, h) in x.games.iter().zip(&y.games) {
            let line = h.replay().expect("replay");
            let first = (h.start.plies as usize..h.moves.len())
                .find(|&i| (30..=40).contains(&line[i].board.empty_count()) && line[i].board.moves().count_ones() > 1)
                .expect("a position with a choice in the range");
            assert_eq!(g.moves[..first], h.moves[..first], "game {}", g.index);
            assert_ne!(g.moves[first], h.moves[first], "game {}", g.index);
            let replayed = g.replay().expect("replay");
            let last = (0..g.moves.len())
                .rev()
                .find(|&i| (30..=40).contains(&replayed[i].board.empty_count()) && replayed[i].board.moves().count_ones() > 1)
                .expect("last");
            assert_eq!(g.start.plies as usize, last + 1, "game {}", g.index);
        }
    }
}

/// Walks come after the game: the games and their other labels are those without them; each
/// walk is a line of legal moves of the given length from a position at the given empties,
/// its value the solver's score of where it ends; shards with walks are version 3 and read
/// back as written; the records, the stats and `labelled` count them; a walk with an illegal
/// move is an error naming the walk.
#[test]
fn walks_are_solved_positions_off_the_line_and_change_nothing_else() {
    let (with, without) = (temp("walks-on"), temp("walks-off"));
    let mut opts = options(&with);
    opts.play.deep = None;
    opts.play.walks = Some(Walks {
        count: 2,
        from: 14..=16,
        plies: 3..=4,
    });
    generate(&opts);
    opts.dir = without.to_path_buf();
    opts.play.walks = None;
    generate(&opts);
    let a = Corpus::load(&[with.to_path_buf()]).expect("load");
    let b = Corpus::load(&[without.to_path_buf()]).expect("load");
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(4);
    let mut walks = 0;
    for ((path, x), (other, y)) in a.shards.iter().zip(&b.shards) {
        assert_eq!(Shard::version_of(&std::fs::read(path).expect("read")), Some(4));
        assert_eq!(Shard::version_of(&std::fs::read(other).expect("read")), Some(4));
        assert_eq!(Shard::version_of(&x.encode_plain()), Some(3));
        assert_eq!(Shard::version_of(&y.encode_plain()), Some(1));
        assert_eq!(Shard::decode(&x.encode_plain(), path).expect("decode"), *x);
        assert_eq!(
            x.header.get("walks"),
            Some("2 from each position at empties 14-16, 3-4 plies, solved")
        );
        assert_eq!(y.header.get("walks"), None);
        assert_eq!(Shard::decode(&x.encode(), path).expect("decode"), *x);
        for (g, h) in x.games.iter().zip(&y.games) {
            let line = g.replay().expect("replay");
            let starts = line
                .iter()
                .filter(|p| (14..=16).contains(&p.board.empty_count()) && p.board.moves() != 0);
            assert!(g.walks.len() <= 2 * starts.count() && !g.walks.is_empty(), "game {}", g.index);
            for w in &g.walks {
                let from = line[w.position as usize].board.empty_count();
                assert!((14..=16).contains(&from) && (3..=4).contains(&w.moves.len()), "{w:?}");
                let end = GameRecord::walk_end(&line, w).expect("a legal walk");
                assert!(end.board.empty_count() <= from - 3);
                let exact = solver.solve(&end.board, SolveMode::Exact, None, &stop).score;
                assert_eq!(exact, w.value as i32);
                walks += 1;
            }
            let mut g = g.clone();
            g.walks.clear();
            assert_eq!(&g, h);
        }
    }
    let records = a.records(LabelPolicy::Search, 1.0);
    assert_eq!(records.len(), b.records(LabelPolicy::Search, 1.0).len() + walks);
    assert_eq!(a.stats().positions(), b.stats().positions() + walks as u64);
    assert!(a.stats().report().contains("walks"));
    // A walk whose move is not legal there: the shard is refused, naming the walk.
    let (path, shard) = &a.shards[0];
    let mut bad = shard.clone();
    let w = &mut bad.games[0].walks[0];
    w.moves[0] = (0..64u8)
        .find(|&sq| {
            let line = shard.games[0].replay().expect("replay");
            line[w.position as usize].board.moves() >> sq & 1 == 0
        })
        .expect("an illegal square");
    // (A game that does not replay cannot be packed: it is written plain, and refused.)
    assert_eq!(Shard::version_of(&bad.encode()), Some(3));
    let err = Shard::decode(&bad.encode(), path).expect_err("illegal walk");
    assert!(err.to_string().contains("walk 1 from position"), "{err}");
}

/// A run with every kind of label (deep labels and siblings, exact siblings, blunders,
/// walks): both layouts read back to the same games; the packed one is far smaller; every
/// damage to the packed games is refused with the file's name; `compact` rewrites plain shards
/// packed and leaves packed ones alone; merge treats the two layouts of a chunk as the same.
#[test]
fn packed_shards_hold_every_label_in_a_fraction_of_the_bytes() {
    let (dir, plain_dir, into) = (temp("packed"), temp("packed-plain"), temp("packed-into"));
    let mut opts = options(&dir);
    opts.games = 48;
    opts.chunk_games = 24;
    opts.play.blunders = Some(Blunders {
        percent: 20,
        empties: 30..=50,
    });
    opts.play.walks = Some(Walks {
        count: 2,
        from: 14..=16,
        plies: 3..=4,
    });
    generate(&opts);
    let corpus = Corpus::load(&[dir.to_path_buf()]).expect("load");
    let (mut plain_bytes, mut packed_bytes) = (0, 0);
    for (path, shard) in &corpus.shards {
        let g = &shard.games;
        assert!(
            g.iter()
                .all(|g| !g.deep.is_empty() && !g.siblings.is_empty() && !g.walks.is_empty())
        );
        assert!(g.iter().any(|g| !g.deep_siblings.is_empty()));
        let (packed, plain) = (shard.encode(), shard.encode_plain());
        assert_eq!(Shard::version_of(&packed), Some(4));
        assert_eq!(Shard::decode(&packed, path).expect("packed"), *shard);
        assert_eq!(Shard::decode(&plain, path).expect("plain"), *shard);
        (plain_bytes, packed_bytes) = (plain_bytes + plain.len(), packed_bytes + packed.len());
        // Cut anywhere in the games, or any byte of them changed: an error naming the file.
        let games_at = packed.len() - 4 - super::packed::encode(g).expect("packs").len();
        // The games alone (the header text is the same in both layouts): 24 games, models that
        // start cold, labels of the mobility stand-in (noisier than a real evaluation's: a
        // 500-game chunk of the corpus packs to a fifth), still under half.
        let (plain_games, packed_games) = (plain.len() - games_at - 4, packed.len() - games_at - 4);
        assert!(
            2 * packed_games < plain_games,
            "packed {packed_games} bytes, plain {plain_games}"
        );
        for cut in [games_at, games_at + 1, packed.len() / 2, packed.len() - 5] {
            let e = Shard::decode(&packed[..cut], path).expect_err("cut").to_string();
            assert!(e.starts_with(&path.display().to_string()), "{e}");
        }
        for at in (games_at..packed.len()).step_by(37) {
            let mut b = packed.clone();
            b[at] ^= 0x10;
            assert!(Shard::decode(&b, path).is_err(), "byte {at} changed");
        }
        // The games alone, damaged behind the checksum's back: an error or other games, never
        // a panic.
        let body = &packed[games_at..packed.len() - 4];
        for at in (0..body.len()).step_by(11) {
            let mut b = body.to_vec();
            b[at] ^= 0x5A;
            let _ = super::packed::decode(&b, g.len());
        }
        let chunk = shard_path(&plain_dir.join("t"), shard.chunk());
        std::fs::create_dir_all(chunk.parent().expect("dir")).expect("mkdir");
        std::fs::write(&chunk, &plain).expect("write");
    }
    // A folder of plain shards merges into one of packed shards as the same chunks.
    let r = store::merge(&[dir.to_path_buf()], &into).expect("merge");
    assert_eq!((r.copied, r.already), (2, 0));
    let r = store::merge(&[plain_dir.to_path_buf()], &into).expect("merge plain");
    assert_eq!((r.copied, r.already), (0, 2));
    // Compacting packs the plain shards to the same games, once.
    let r = store::compact(&plain_dir).expect("compact");
    assert_eq!(
        (r.packed, r.already, r.bytes_before, r.bytes_after),
        (2, 0, plain_bytes as u64, packed_bytes as u64)
    );
    let again = Corpus::load(&[plain_dir.to_path_buf()]).expect("load");
    for ((_, x), (path, y)) in corpus.shards.iter().zip(&again.shards) {
        assert_eq!(x, y);
        assert_eq!(Shard::version_of(&std::fs::read(path).expect("read")), Some(4));
    }
    let r = store::compact(&plain_dir).expect("compact again");
    assert_eq!((r.packed, r.already), (0, 2));
}
