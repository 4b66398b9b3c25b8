//! `oxello book build`/`show` and NBoard `learn` with a book file, against the real binary.

mod common;

use common::Engine;
use std::path::{Path, PathBuf};

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxello-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn positions(path: &PathBuf) -> usize {
    let text = std::fs::read_to_string(path).expect("book file");
    text.lines().skip(1).filter(|l| !l.starts_with('#')).count()
}

#[test]
fn build_then_show() {
    let dir = scratch("book-build");
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
    let _ = std::fs::remove_dir_all(&dir);
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
    let dir = scratch("book-learn");
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
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_save_failure_is_a_status_line() {
    let dir = scratch("book-nosave");
    let file = dir.join("missing-dir").join("b.txt");
    let mut e = nboard_with_book(&file, "1");
    let reply = learn(&mut e, GAME);
    assert!(reply.starts_with("status game learned but the book was not saved"), "{reply}");
    // Still serving.
    e.send("ping 1").expect("send");
    assert_eq!(e.next().as_deref(), Ok("pong 1"));
    e.close().expect("clean exit");
    let _ = std::fs::remove_dir_all(&dir);
}
