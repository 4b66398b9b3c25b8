//! `oxello book build`/`show` and NBoard `learn` with a book file, against the real binary.

mod common;

use common::Engine;
use std::path::{Path, PathBuf};

fn positions(path: &PathBuf) -> usize {
    let text = std::fs::read_to_string(path).expect("book file");
    text.lines().skip(1).filter(|l| !l.starts_with('#')).count()
}

#[test]
fn build_then_show() {
    let dir = common::Scratch::new("book-build");
    let out = dir.join("b.txt");
    let out_s = out.to_string_lossy().into_owned();
    let (code, stdout, stderr) = common::run(&[
        "book",
        "build",
        "--out",
        &out_s,
        "--plies",
        "3",
        "--depth",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("positions written"), "{stdout}");
    assert!(positions(&out) >= 3);
    let (code, stdout, _) = common::run(&["--book", &out_s, "book", "show", "--moves", "f5"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("in book: value"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("d6") || l.starts_with("f6") || l.starts_with("f4")),
        "{stdout}"
    );
    // A broken line is reported with file and line number, and the engine does not start.
    std::fs::write(&out, "oxello-book 1\nnonsense\n").expect("write");
    let (code, _, stderr) = common::run(&["--book", &out_s, "book", "show"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("b.txt:2: expected 7 fields"), "{stderr}");
}

const GAME: &str = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[F3]B[E6];)";

fn learn(engine: &mut Engine, game: &str) -> String {
    engine.send(&format!("set game {game}")).expect("send");
    engine.send("learn").expect("send");
    engine.next().expect("reply to learn")
}

/// An NBoard engine using `file` as its book, past the handshake.
fn nboard_with_book(file: &Path, level: &str) -> Engine {
    let args: Vec<String> = ["--book", &file.to_string_lossy(), "nboard", "--level", level]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut e = Engine::start(&args).expect("engine starts");
    e.send("nboard 2").expect("send");
    assert_eq!(e.next().as_deref(), Ok("set myname oxello"));
    e
}

#[test]
fn learn_grows_the_book_file() {
    let dir = common::Scratch::new("book-learn");
    let file = dir.join("learned.txt");
    let mut e = nboard_with_book(&file, "2");
    // The file does not exist yet: the first learn creates it.
    assert_eq!(learn(&mut e, GAME).as_str(), "learned");
    assert_eq!(positions(&file), 10);
    let longer = GAME.replace("B[E6];)", "B[E6]W[E7]B[D7];)");
    assert_eq!(learn(&mut e, &longer).as_str(), "learned");
    assert_eq!(positions(&file), 12);
    e.close().expect("clean exit");
    // A new engine starts from the saved book: the learned line is in it.
    let (code, stdout, _) = common::run(&[
        "--book",
        &file.to_string_lossy(),
        "book",
        "show",
        "--moves",
        "f5d6c3d3c4f4f6f3e6e7",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.lines().any(|l| l.starts_with("d7") && l.contains("book")), "{stdout}");
}

#[test]
fn a_save_failure_is_a_status_line() {
    let dir = common::Scratch::new("book-nosave");
    let file = dir.join("missing-dir").join("b.txt");
    let mut e = nboard_with_book(&file, "1");
    let reply = learn(&mut e, GAME);
    assert!(reply.starts_with("status game learned but the book was not saved"), "{reply}");
    // Still serving.
    e.send("ping 1").expect("send");
    assert_eq!(e.next().as_deref(), Ok("pong 1"));
    e.close().expect("clean exit");
}

/// Sends `ping N` and returns how long the `pong N` took (other lines, such as a `learned`,
/// may come first).
fn ping(e: &mut Engine, n: u32) -> std::time::Duration {
    let t0 = std::time::Instant::now();
    e.send(&format!("ping {n}")).expect("send");
    loop {
        let line = e.next().expect("reply to ping");
        if line == format!("pong {n}") {
            return t0.elapsed();
        }
        assert!(!line.starts_with("pong"), "pong out of order: {line}");
    }
}

/// A long `learn` never keeps `ping` or `quit` waiting: a command stops it, it goes on when the
/// engine is idle again, a new game set meanwhile does not replace the game being learned, and
/// nothing from a search cut short is stored.
#[test]
fn ping_and_quit_are_served_during_a_learn() {
    let dir = common::Scratch::new("book-learn-busy");
    let file = dir.join("learned.txt");
    let mut e = nboard_with_book(&file, "2");
    // Deep enough that the learn would take minutes.
    e.send("set depth 30").expect("send");
    e.send(&format!("set game {GAME}")).expect("send");
    e.send("learn").expect("send");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let first = ping(&mut e, 1);
    // Another game while the first one is being learned, then a shallow depth to finish.
    let other = GAME.replace("B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[F6]W[F3]B[E6]", "B[F5]W[F6]B[E6]W[F4]");
    e.send(&format!("set game {other}")).expect("send");
    let second = ping(&mut e, 2);
    e.send("set depth 2").expect("send");
    ping(&mut e, 3);
    assert_eq!(e.next().as_deref(), Ok("learned"), "the interrupted learn finishes when idle");
    // The first game's 10 positions, none of the other's beyond the start.
    assert_eq!(positions(&file), 10);
    // `quit` during a deep learn exits at once.
    e.send("set depth 30").expect("send");
    e.send(&format!("set game {GAME}").replace("B[E6];)", "B[E6]W[E7]B[D7];)"))
        .expect("send");
    e.send("learn").expect("send");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let t0 = std::time::Instant::now();
    e.send("quit").expect("send");
    e.close().expect("clean exit");
    let quit = t0.elapsed();
    eprintln!("during a learn: pong after {first:?} and {second:?}, exit after {quit:?}");
    // The targets are 50 ms and 100 ms; a loaded CI machine gets some slack.
    for (what, t) in [("pong", first), ("pong", second), ("exit", quit)] {
        assert!(t < std::time::Duration::from_millis(1000), "{what} took {t:?}");
    }
}

/// A random game from the initial position as GGF (seeded xorshift).
fn random_game_ggf(seed: u64) -> String {
    use oxello::board::Position;
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = Position::start();
    let mut ggf = String::from(
        "(;GM[Othello]PC[test]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
    );
    for ply in 0..20 {
        let legal: Vec<usize> = (0..64).filter(|&s| pos.board.moves() >> s & 1 != 0).collect();
        if legal.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let sq = legal[(state % legal.len() as u64) as usize];
        let name = format!("{}{}", (b'A' + (sq % 8) as u8) as char, sq / 8 + 1);
        ggf.push_str(&format!("{}[{name}]", if ply % 2 == 0 { "B" } else { "W" }));
        pos = pos.play(sq).expect("legal");
    }
    ggf + ";)"
}

/// Killing the engine (SIGKILL) at any moment of a stream of learns, each of which saves the
/// whole book, leaves a book file that loads and has at least the positions it started with:
/// the save writes a new file and renames it over the old one.
#[test]
fn a_kill_during_book_saves_leaves_a_whole_book() {
    let dir = common::Scratch::new("book-kill");
    let file = dir.join("book.txt");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/book/book.txt"), &file).expect("copy the shipped book");
    let start = positions(&file);
    let mut seed = 1;
    for round in 0..12u64 {
        let mut e = nboard_with_book(&file, "1");
        for _ in 0..30 {
            seed += 1;
            e.send(&format!("set game {}", random_game_ggf(seed))).expect("send");
            e.send("learn").expect("send");
        }
        // Into the stream of saves (one has finished), at a different moment each round.
        e.skip_to("learned").expect("a learn finishes");
        std::thread::sleep(std::time::Duration::from_millis(round * 3));
        drop(e);
        let (code, stdout, stderr) = common::run(&["--book", &file.to_string_lossy(), "book", "show"]);
        assert_eq!(code, 0, "round {round}: {stderr}");
        assert!(stdout.contains("in book"), "round {round}: {stdout}");
        assert!(positions(&file) >= start, "round {round}: {} < {start}", positions(&file));
    }
    assert!(positions(&file) > start, "the learns were saved");
}

/// `book import` of Edax's own book, `book export` back, `stats`, `show`; errors name the file.
#[test]
fn edax_import_export_stats() {
    let dir = common::Scratch::new("book-edax");
    let dat = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/edax/small.dat");
    let txt = dir.join("small.txt");
    let txt_s = txt.to_string_lossy().into_owned();
    let (code, stdout, stderr) = common::run(&["book", "import", &dat.to_string_lossy(), "--out", &txt_s]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("2246 positions"), "{stdout}");
    let out = dir.join("back.dat");
    let (code, stdout, stderr) = common::run(&["--book", &txt_s, "book", "export", &out.to_string_lossy()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2246 positions exported"), "{stdout}");
    let (code, stdout, _) = common::run(&["book", "import", &out.to_string_lossy()]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("2246 positions"), "{stdout}");
    assert_eq!(std::fs::read(dir.join("back.txt")).ok(), std::fs::read(&txt).ok());
    let (code, stdout, _) = common::run(&["--book", &txt_s, "book", "stats"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("positions: 2246 ("), "{stdout}");
    assert!(stdout.contains("value for Black"), "{stdout}");
    let (code, stdout, _) = common::run(&["--book", &txt_s, "book", "show", "--moves", "d3e3f6"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("main line: "), "{stdout}");
    assert!(stdout.contains("best deviation"), "{stdout}");
    let bad = dir.join("bad.dat");
    std::fs::write(&bad, &std::fs::read(&dat).expect("dat")[..100]).expect("write");
    let (code, _, stderr) = common::run(&["book", "import", &bad.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.dat: position 2 (byte 86): truncated"), "{stderr}");
}

/// `book learn` of transcripts and GGF games (one from a set-up book position), then a
/// sharded build merged.
#[test]
fn learn_games_then_sharded_build() {
    let dir = common::Scratch::new("book-learn-games");
    let book = dir.join("b.txt");
    let book_s = book.to_string_lossy().into_owned();
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3d3c4\nf5f6e6f4\n").expect("write");
    let ggf = dir.join("g.ggf");
    // From the set-up position after f5 d6 c3 (in the book once the first game is in).
    let setup = "(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 ------------------*--------**------O**-----O-------------------- O]W[D3]B[C4]W[F4];)";
    std::fs::write(&ggf, format!("{GAME}\n{setup}\n")).expect("write");
    let (code, stdout, stderr) = common::run(&[
        "--book",
        &book_s,
        "book",
        "learn",
        &games.to_string_lossy(),
        &ggf.to_string_lossy(),
        "--level",
        "2",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("4 games learned"), "{stdout}");
    assert!(positions(&book) >= 10);
    let (code, _, stderr) = common::run(&["book", "learn", &games.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--book FILE"), "{stderr}");

    let mut parts = Vec::new();
    for i in 1..=2 {
        let out = dir.join(format!("shard{i}.txt"));
        let out_s = out.to_string_lossy().into_owned();
        let shard = format!("{i}/2");
        let (code, _, stderr) = common::run(&[
            "book",
            "build",
            "--out",
            &out_s,
            "--plies",
            "3",
            "--depth",
            "1",
            "--shard",
            &shard,
            "--shard-ply",
            "2",
        ]);
        assert_eq!(code, 0, "{stderr}");
        parts.push(out_s);
    }
    let merged = dir.join("merged.txt");
    let mut args = vec!["book", "merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged_s = merged.to_string_lossy().into_owned();
    args.extend(["--out", &merged_s]);
    let (code, stdout, stderr) = common::run(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("positions written"), "{stdout}");
    let (code, _, stderr) = common::run(&["book", "build", "--out", "x", "--shard", "3/2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("expected I/N"), "{stderr}");
}

/// `book deepen` searches again, deeper, what games from the start reach, in place; a second
/// run has nothing left to do.
#[test]
fn deepen_in_place() {
    let dir = common::Scratch::new("book-deepen");
    let out = dir.join("b.txt");
    let out_s = out.to_string_lossy().into_owned();
    let build = [
        "book", "build", "--out", &out_s, "--plies", "3", "--depth", "2", "--window", "64",
    ];
    let (code, _, stderr) = common::run(&build);
    assert_eq!(code, 0, "{stderr}");
    let before = positions(&out);
    let deepen = [
        "book",
        "deepen",
        &out_s,
        "--depth",
        "4",
        "--selectivity",
        "100",
        "--window",
        "0",
        "--threads",
        "2",
    ];
    let (code, stdout, stderr) = common::run(&deepen);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("every position games reach"), "{stdout}");
    assert_eq!(positions(&out), before);
    let (_, stats, _) = common::run(&["--book", &out_s, "book", "stats"]);
    // The leaves games reach are searched at 4 plies (every move of a node is in this book, so
    // nodes have no deviation to search); leaves no game reaches keep 2.
    assert!(stats.lines().any(|l| l.trim_start().starts_with("4 ")), "{stats}");
    assert!(stats.lines().any(|l| l.trim_start().starts_with("2 ")), "{stats}");
    let (code, stdout, _) = common::run(&deepen);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("0 searches in 0 rounds"), "{stdout}");
    let (code, _, stderr) = common::run(&["book", "deepen", &dir.join("missing.txt").to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.txt"), "{stderr}");
}
