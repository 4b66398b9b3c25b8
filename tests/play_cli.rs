//! `oxello play` driven by a script on a pipe, as a person would type it: what the tests of
//! `src/engine/terminal.rs` check on the engine side, here through the real binary (whose
//! stdout is then no terminal: plain lines, no colours, no carriage returns).

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `oxello play ARGS` with `script` on stdin and `env` set; exit code and stdout.
fn play(args: &[&str], env: &[(&str, &str)], script: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .arg("play")
        .args(["--threads", "1", "--hash", "8"])
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("oxello starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("script written");
    let out = child.wait_with_output().expect("oxello ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
    )
}

/// The lines of the first hint (after its header).
fn hint_lines(text: &str) -> Vec<&str> {
    let start = text.find("hints for").expect("a hint");
    text[start..].lines().skip(1).take_while(|l| l.starts_with("  ")).collect()
}

#[test]
fn a_hint_lists_each_move_once_and_marks_the_book() {
    // The start position: the four moves are all in the built-in book, valued -1 there and
    // -2 by a level-3 search; each must appear once, as a book move.
    let (code, text) = play(&["--level", "3"], &[], "hint\nquit\n");
    assert_eq!(code, 0, "{text}");
    let lines = hint_lines(&text);
    let mut moves: Vec<&str> = lines.iter().filter_map(|l| l.split_whitespace().next()).collect();
    moves.sort_unstable();
    assert_eq!(moves, ["c4", "d3", "e6", "f5"], "{text}");
    assert!(
        lines.iter().all(|l| l.contains("book move") && l.contains("(depth 3 now: ")),
        "{text}"
    );
    assert!(text.contains("the book value is the better guide"), "{text}");
    // Without the book: every move once, from the search.
    let (_, text) = play(&["--no-book", "--level", "4"], &[], "hint\nquit\n");
    let lines = hint_lines(&text);
    let mut moves: Vec<&str> = lines.iter().filter_map(|l| l.split_whitespace().next()).collect();
    moves.sort_unstable();
    assert_eq!(moves, ["c4", "d3", "e6", "f5"], "{text}");
    assert!(lines.iter().all(|l| l.contains("depth 4") && !l.contains("book")), "{text}");
}

#[test]
fn piped_output_has_no_escape_codes_with_or_without_no_color() {
    let script = "f5\nhint\nboard\nd3\nquit\n";
    for env in [&[][..], &[("NO_COLOR", "1")][..], &[("NO_COLOR", "")][..]] {
        let (code, text) = play(&["--level", "6"], env, script);
        assert_eq!(code, 0, "{env:?}: {text}");
        assert!(text.contains("oxello plays"), "{env:?}: {text}");
        assert!(!text.contains('\x1b'), "{env:?}: escape code in {text:?}");
        assert!(!text.contains('\r'), "{env:?}: carriage return in {text:?}");
    }
}

#[test]
fn a_finished_game_prints_the_result_and_a_record_that_loads_back() {
    // `swap` after each engine move: the engine plays both sides to the end.
    let script = "swap\n".repeat(70) + "quit\n";
    let (code, text) = play(&["--level", "1"], &[], &script);
    assert_eq!(code, 0, "{text}");
    let over = text.lines().find(|l| l.starts_with("game over: X ")).expect("a result");
    assert!(over.contains(" wins by ") || over.contains("a draw"), "{over}");
    let record = text.lines().find_map(|l| l.strip_prefix("game record: ")).expect("a record");
    assert!(record.len() >= 2 * 50 && record.starts_with(['c', 'd', 'e', 'f']), "{record}");
    // The record is a transcript `load` reads back: the same finished game, the same result.
    let dir = std::env::temp_dir().join(format!("oxello-play-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("game.txt");
    std::fs::write(&file, record).expect("record written");
    let (_, again) = play(&[], &[], &format!("load {}\nquit\n", file.display()));
    // The same result (who won "you" or "oxello" depends on the sides, which load keeps).
    let result = over.rsplit_once(": ").map_or(over, |(r, _)| r);
    assert!(again.contains(result), "{again}");
    assert!(again.contains(&format!("game record: {record}")), "{again}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_end_of_input_prints_the_record_so_far() {
    let (code, text) = play(&["--level", "1"], &[], "f5\n");
    assert_eq!(code, 0, "{text}");
    let record = text
        .lines()
        .find_map(|l| l.strip_prefix("game record so far (load it to go on): "))
        .expect("a record");
    assert!(record.starts_with("f5") && record.len() == 4, "{text}");
}

#[test]
fn a_bad_file_to_load_is_named() {
    let (code, text) = play(&[], &[], "load /nonexistent/game.txt\nquit\n");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("/nonexistent/game.txt: cannot read: "), "{text}");
}
