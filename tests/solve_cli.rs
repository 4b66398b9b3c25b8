//! The `solve` command against the real binary: FFO sets in exact and WLD mode, JSON output,
//! and per-line errors for malformed OBF lines.

use std::path::{Path, PathBuf};

fn ffo(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("ffo").join(name)
}

mod common;

/// Exit code and stdout.
fn run(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::run(args);
    (code, out)
}

/// Every line of the JSON report is a position with ok=true, and the totals count them.
fn check_json(stdout: &str, positions: usize) {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), positions + 1, "{stdout}");
    for l in &lines[..positions] {
        assert!(l.contains("\"ok\":true"), "not ok: {l}");
        assert!(
            l.contains("\"move\":\"") && l.contains("\"expected\":") && l.contains("\"nodes\":"),
            "{l}"
        );
    }
    assert!(lines[positions].contains("\"wrong\":0"), "{}", lines[positions]);
}

#[test]
fn ffo_1_19_exact_and_wld() {
    let path = ffo("fforum-1-19.obf");
    let p = path.to_str().expect("utf-8 path");
    let (code, out) = run(&["solve", p, "--json"]);
    assert_eq!(code, 0, "{out}");
    check_json(&out, 19);
    let (code, out) = run(&["solve", p, "--json", "--wld"]);
    assert_eq!(code, 0, "{out}");
    check_json(&out, 19);
}

#[test]
fn ffo_20_39_exact_and_wld() {
    let path = ffo("fforum-20-39.obf");
    let p = path.to_str().expect("utf-8 path");
    let (code, out) = run(&["solve", p, "--json"]);
    assert_eq!(code, 0, "{out}");
    check_json(&out, 20);
    let (code, out) = run(&["solve", p, "--json", "--wld"]);
    assert_eq!(code, 0, "{out}");
    check_json(&out, 20);
}

#[test]
fn human_table_and_wrong_expected_score() {
    let dir = common::Scratch::new("solve");
    let file = dir.join("wrong.obf");
    // FFO #20 with a deliberately wrong listed score.
    std::fs::write(
        &file,
        "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X; H5:+8;\n",
    )
    .expect("write");
    let (code, out) = run(&["solve", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("WRONG"), "{out}");
    assert!(out.contains("total: 1 positions, 1 wrong"), "{out}");
}

#[test]
fn malformed_lines_are_reported_and_others_solved() {
    let dir = common::Scratch::new("solve-bad");
    let file = dir.join("bad.obf");
    let good = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X; H5:+6;";
    // Black (X) to move has no move here but White does: solved by passing.
    let pass = "OOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOX-- X;";
    let text = [
        good,                              // 1 ok
        &good[1..],                        // 2 63 squares
        &good.replace("XXXO", "XXQO"),     // 3 bad character
        &good.replace(" X;", ";"),         // 4 no side to move
        &format!("{} X;", "X".repeat(64)), // 5 finished game
        "% a comment line",                // 6 skipped
        "",                                // 7 blank
        pass,                              // 8 forced pass
        good,                              // 9 ok again
    ]
    .join("\n");
    std::fs::write(&file, text).expect("write");
    let (code, out) = run(&["solve", file.to_str().expect("utf-8"), "--json"]);
    assert_eq!(code, 3, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("{\"line\":1,") && lines[0].contains("\"ok\":true"),
        "{out}"
    );
    assert!(lines[1].contains("\"line\":2") && lines[1].contains("63 squares"), "{out}");
    assert!(
        lines[2].contains("\"line\":3") && lines[2].contains("bad character 'Q'"),
        "{out}"
    );
    assert!(lines[3].contains("\"line\":4") && lines[3].contains("side to move"), "{out}");
    assert!(lines[4].contains("\"line\":5") && lines[4].contains("game is over"), "{out}");
    assert!(
        lines[5].contains("\"line\":8") && lines[5].contains("\"move\":\"pa\""),
        "{out}"
    );
    assert!(lines[6].contains("\"line\":9") && lines[6].contains("\"ok\":true"), "{out}");
    assert!(
        lines[7].contains("\"positions\":3") && lines[7].contains("\"errors\":4"),
        "{out}"
    );
    // The human table names the line numbers too.
    let (_, human) = run(&["solve", file.to_str().expect("utf-8")]);
    assert!(human.contains("error: line 2: board has 63 squares"), "{human}");
}

#[test]
fn missing_file_is_an_error_not_a_crash() {
    let (code, _) = run(&["solve", "/nonexistent/file.obf"]);
    assert_eq!(code, 2);
}

#[test]
fn perft_cli_matches_table() {
    let (code, out) = run(&["perft", "9", "--pass-policy", "skip"]);
    assert_eq!(code, 0);
    assert!(
        out.lines().any(|l| l.contains("perft  9:") && l.contains(" 3005320 ")),
        "{out}"
    );
    let (code, _) = run(&["perft", "3", "--board", "not a board"]);
    assert_eq!(code, 2);
}
