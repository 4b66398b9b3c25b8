//! Every user-facing error of the command line reads `oxello: <what>: <why>` on stderr, names
//! what was wrong (the file and line, the option and its value) and what would be right, and
//! exits with the code the README documents (2 for bad usage or bad input).

mod common;

use common::run;

/// A folder of this test's own: the tests run at once, and one removing a shared folder broke
/// another's output file.
fn temp_dir(test: &str) -> common::Scratch {
    common::Scratch::new(&format!("errors-cli-{test}"))
}

/// Runs `args`; checks exit code 2, that stderr's last line-group starts `oxello: ` and that it
/// contains each of `expected`.
fn fails(args: &[&str], expected: &[&str]) {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    let error = err
        .lines()
        .rfind(|l| l.starts_with("oxello: "))
        .unwrap_or_else(|| panic!("{args:?}: {err}"));
    let error_and_after = &err[err.rfind(error).unwrap_or(0)..];
    for e in expected {
        assert!(error_and_after.contains(e), "{args:?}: expected '{e}' in {err}");
    }
    assert!(!err.contains('\x1b'), "{args:?}: {err:?}");
}

#[test]
fn usage_errors_name_the_option_and_the_valid_values() {
    fails(
        &["play", "--level", "99"],
        &["oxello: invalid value '99' for '--level <LEVEL>'", "0..=60"],
    );
    fails(&["gtp", "--level", "x"], &["--level <LEVEL>", "invalid digit"]);
    fails(&["analyze", "--level", "61"], &["61 is not in 0..=60"]);
    fails(
        &["solve", "--wdl", "x.obf"],
        &["oxello: unexpected argument '--wdl'", "Usage: oxello solve"],
    );
    fails(&["frobnicate"], &["oxello: unrecognized subcommand 'frobnicate'"]);
    fails(
        &["analyze", "--board", "xyz"],
        &["oxello: --board 'xyz': board has 3 squares, expected 64"],
    );
    fails(&["book", "show", "--moves", "f5z9"], &["oxello: --moves 'f5z9': bad square"]);
}

#[test]
fn file_errors_name_the_file_and_line() {
    let dir = temp_dir("files");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "garbage\n").expect("written");
    let bad = bad.to_str().expect("UTF-8");
    fails(&["solve", "no-such-file.obf"], &["oxello: no-such-file.obf: cannot read: "]);
    fails(&["--book", bad, "play"], &[&format!("oxello: {bad}:1: ")]);
    fails(
        &["train", "--data", bad, "--out", "/dev/null"],
        &[&format!("oxello: {bad}: no usable record (expected lines")],
    );
    fails(&["eval-mae", "--data", bad], &["no usable record"]);
    fails(
        &["match", "--engine-a", "true", "--engine-b", "true", "--openings", bad],
        &[&format!("oxello: {bad}:1: bad square 'garbage'")],
    );
    fails(
        &[
            "match",
            "--engine-a",
            "true",
            "--engine-b",
            "true",
            "--openings",
            "no-such-openings.txt",
        ],
        &[
            "oxello: no-such-openings.txt: cannot read: ",
            "--openings FILE takes one opening a line",
        ],
    );
}

#[test]
fn outputs_that_cannot_be_written_fail_before_the_work() {
    let started = std::time::Instant::now();
    fails(
        &["book", "build", "--out", "no-such-folder/book.txt"],
        &["oxello: no-such-folder/book.txt: cannot write: no folder no-such-folder"],
    );
    let data = "book/openings.txt"; // any readable file: the output is checked first
    fails(
        &["train", "--data", data, "--out", "no-such-folder/eval.bin"],
        &["cannot write: no folder"],
    );
    fails(
        &["fit-mpc", "--data", data, "--out", "no-such-folder/mpc.txt"],
        &["cannot write: no folder"],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn match_engines_that_do_not_start_are_named_by_their_option() {
    let dir = temp_dir("engines");
    let ggf = dir.join("m.ggf");
    let ggf = ggf.to_str().expect("UTF-8");
    let common = ["--count", "1", "--ggf", ggf];
    fn m<'a>(a: &'a str, b: &'a str, common: &[&'a str]) -> Vec<&'a str> {
        [&["match", "--engine-a", a, "--engine-b", b][..], common].concat()
    }
    fails(
        &m("gtp:oxello-no-such-engine", "true", &common),
        &[
            "oxello: --engine-a 'gtp:oxello-no-such-engine': cannot start 'oxello-no-such-engine': ",
            "an engine is COMMAND, gtp:COMMAND",
        ],
    );
    fails(
        &m("true", "", &common),
        &["oxello: --engine-b '': empty command; an engine is "],
    );
    fails(
        &m("nboard:depth=x:true", "true", &common),
        &["oxello: --engine-a 'nboard:depth=x:true': bad depth 'x'"],
    );
    for (option, value) in [("--time", "-1"), ("--time", "0"), ("--timeout", "-2.5")] {
        let args = [&m("true", "true", &common)[..], &[option, value]].concat();
        fails(
            &args,
            &[&format!(
                "oxello: {option} {value}: expected a number of seconds greater than 0"
            )],
        );
    }
    let sprt = ["--sprt", "0,10", "--alpha", "-0.1"];
    fails(
        &[&m("true", "true", &common)[..], &sprt].concat(),
        &["oxello: --alpha -0.1: expected a probability"],
    );
}
