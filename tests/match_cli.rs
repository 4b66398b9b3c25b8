//! `oxello match` over GTP and NBoard: oxello against itself, against GRhino, under a clock,
//! and against engines that crash or answer nothing (the runner records a forfeit and never
//! hangs).

mod common;

use common::{Scratch, run};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_oxello")
}

/// A scratch folder for the test `tag`, a GGF path in it, and the same as text.
fn temp_ggf(tag: &str) -> (Scratch, std::path::PathBuf, String) {
    let dir = Scratch::new(&format!("match-{tag}"));
    let ggf = dir.join("match.ggf");
    let g = ggf.to_str().expect("utf-8").to_string();
    (dir, ggf, g)
}

/// A number field of the match's one-line JSON report.
fn json_number(out: &str, key: &str) -> Option<f64> {
    out.split(&format!("\"{key}\":"))
        .nth(1)
        .and_then(|r| r.split([',', '}']).next())
        .and_then(|v| v.parse().ok())
}

/// Plays `count` openings (2 games each) between `a` and `b`; asserts a clean run (no forfeit)
/// and that every game was written as a finished GGF game. Returns the GGF lines.
fn clean_match(tag: &str, a: &str, b: &str, count: usize) -> Vec<String> {
    let (_dir, ggf, g) = temp_ggf(tag);
    let g = g.as_str();
    let n = count.to_string();
    let (code, out, err) = run(&["match", "--engine-a", a, "--engine-b", b, "--count", &n, "--ggf", g, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("\"games\":{}", 2 * count)) && out.contains("\"forfeits\":0"),
        "{a} vs {b}: {out}"
    );
    // Each side's thinking time is reported, and both sides thought.
    for key in ["seconds_a", "seconds_b"] {
        assert!(json_number(&out, key).is_some_and(|s| s > 0.0), "{key}: {out}");
    }
    let games: Vec<String> = std::fs::read_to_string(&ggf)
        .expect("ggf written")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(games.len(), 2 * count);
    for line in &games {
        assert!(oxello::ggf::GgfGame::parse(line).is_ok_and(|g| g.game.is_over()), "{line}");
    }
    games
}

#[test]
fn oxello_against_itself_over_gtp() {
    clean_match(
        "gtp",
        &format!("{} gtp --level 2", bin()),
        &format!("{} gtp --level 1", bin()),
        2,
    );
}

/// A fake engine: `sh` running `script`, written in `dir` as `tag`. Returns the command line.
fn fake_engine(dir: &std::path::Path, tag: &str, script: &str) -> String {
    let path = dir.join(format!("fake-{tag}.sh"));
    std::fs::write(&path, script).expect("script written");
    format!("sh {}", path.to_str().expect("utf-8"))
}

/// A GTP engine that answers everything until its first `genmove`, and then `action`.
fn gtp_engine_that(dir: &std::path::Path, tag: &str, action: &str) -> String {
    let script = format!(
        "while read -r line; do\n  case \"$line\" in\n    genmove*) {action} ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
    );
    fake_engine(dir, tag, &script)
}

#[test]
fn crashing_and_silent_engines_forfeit() {
    let (dir, _, g) = temp_ggf("bad");
    let g = g.as_str();
    let a = format!("{} gtp --level 1", bin());
    // Both take the game's start; at their first move one dies (saying why on stderr) and one
    // never answers (a time-out).
    // Bytes that are not UTF-8 on stderr must not stop its reading.
    let dies = gtp_engine_that(&dir, "dies", "printf '\\377\\376\\n' >&2; echo 'out of memory' >&2; exit 3");
    let hangs = gtp_engine_that(&dir, "hangs", "exec sleep 30");
    for (bad, why) in [
        (dies, "B crashed; its stderr ended: \u{fffd}\u{fffd} / out of memory"),
        (hangs, "B timed out on 'genmove"),
    ] {
        let t0 = std::time::Instant::now();
        let (code, out, err) = run(&[
            "match",
            "--engine-a",
            &a,
            "--engine-b",
            &bad,
            "--count",
            "1",
            "--timeout",
            "1",
            "--ggf",
            g,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("+2 =0 -0"), "{bad}: {out}");
        assert!(out.contains(&format!("forfeit: game 1: {why}")), "{bad}: {out}");
        assert!(out.contains(&format!("forfeit: game 2: {why}")), "{bad}: {out}");
        assert!(t0.elapsed() < std::time::Duration::from_secs(20));
    }
}

/// An engine that cannot take its first game (it exits at once, as one given a bad option
/// does, or never answers) would forfeit every game in seconds: the match stops instead, with
/// the reason, and writes no game.
#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let (_dir, ggf, g) = temp_ggf("nostart");
    let g = g.as_str();
    let a = format!("{} gtp --level 1", bin());
    let missing = format!("{} --params /nonexistent-oxello-params gtp", bin());
    for (bad, why) in [
        (
            missing.as_str(),
            "B crashed; its stderr ended: oxello: /nonexistent-oxello-params/eval.bin: cannot read",
        ),
        ("true", "B crashed"),
        ("sleep 30", "B timed out on 'boardsize 8'"),
    ] {
        let _ = std::fs::remove_file(&ggf);
        let t0 = std::time::Instant::now();
        let (code, out, err) = run(&[
            "match",
            "--engine-a",
            &a,
            "--engine-b",
            bad,
            "--count",
            "3",
            "--timeout",
            "1",
            "--ggf",
            g,
        ]);
        assert_ne!(code, 0, "{bad}: {out}");
        assert!(
            err.contains(&format!("the first game could not start: {why}")),
            "{bad}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(&ggf).unwrap_or_default(),
            "",
            "{bad}: no game written"
        );
        assert!(t0.elapsed() < std::time::Duration::from_secs(10));
    }
}

/// An engine we did not write: GRhino (Debian `grhino`, GTP, `/usr/games/gtp-rhino`). It
/// refuses every pass syntax, so the runner's pass handling is exercised for real when a game
/// has a pass. Ignored by a plain `cargo test` (the list says why); `.ci/run` installs GRhino
/// and runs it with `--ignored`, or prints that it skipped it.
#[test]
#[ignore = "needs GRhino (/usr/games/gtp-rhino, Debian grhino); .ci/run runs it"]
fn oxello_against_grhino() {
    let rhino = "/usr/games/gtp-rhino";
    assert!(
        std::path::Path::new(rhino).exists(),
        "{rhino} not installed (apt-get install grhino)"
    );
    clean_match("rhino", &format!("{} gtp --level 4", bin()), &format!("{rhino} --level 1"), 1);
}

/// The runner drives NBoard engines as the GUI does, and mixes protocols in one match.
#[test]
fn nboard_and_mixed_protocol_matches() {
    for (a, b) in [
        (
            format!("nboard:{} nboard --level 2", bin()),
            format!("nboard:{} nboard --level 1", bin()),
        ),
        (
            format!("nboard:{} nboard --level 2", bin()),
            format!("gtp:{} gtp --level 1", bin()),
        ),
    ] {
        clean_match("nb", &a, &b, 1);
    }
}

/// `nboard:depth=N:COMMAND` sends the GUI's `set depth N` after `nboard 2`: an engine whose own
/// level is 30 then plays at depth 2 and the games finish in moments. A bad depth is a clear error.
#[test]
fn nboard_engines_get_the_depth() {
    let dir = Scratch::new("match-nboard-depth");
    let (log, script) = (dir.join("input.log"), dir.join("engine.sh"));
    let body = format!(
        "#!/bin/sh\ntee -a {} | exec {} nboard --level 30 --threads 1\n",
        log.display(),
        bin()
    );
    std::fs::write(&script, body).expect("script");
    let a = format!("nboard:depth=2:sh {}", script.display());
    let t0 = std::time::Instant::now();
    clean_match("depth", &a, &format!("gtp:{} gtp --level 1", bin()), 1);
    assert!(t0.elapsed() < std::time::Duration::from_secs(30));
    let sent = std::fs::read_to_string(&log).expect("engine input logged");
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(lines.iter().filter(|l| **l == "set depth 2").count(), 2, "{sent}");
    assert_eq!(lines.iter().position(|l| *l == "set depth 2"), Some(1), "{sent}");
    let (code, _, err) = run(&[
        "match",
        "--engine-a",
        "nboard:depth=x:true",
        "--engine-b",
        "true",
        "--count",
        "1",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("bad depth 'x'"), "{err}");
}

/// An SPRT stops a one-sided match early (level 4 against level 1 wins nearly every game) and
/// reports its verdict; bad bounds are a clear error.
#[test]
fn sprt_stops_a_decisive_match_early() {
    let (_dir, _, g) = temp_ggf("sprt");
    let g = g.as_str();
    let (a, b) = (format!("{} gtp --level 4", bin()), format!("{} gtp --level 1", bin()));
    let (code, out, err) = run(&[
        "match",
        "--engine-a",
        &a,
        "--engine-b",
        &b,
        "--count",
        "100",
        "--sprt",
        "0,200",
        "--ggf",
        g,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"sprt\":\"H1 accepted\""), "{out}");
    let games = json_number(&out, "games").unwrap_or(0.0);
    assert!((1.0..200.0).contains(&games), "{out}");
    let (code, _, err) = run(&["match", "--engine-a", &a, "--engine-b", &b, "--sprt", "10,0"]);
    assert_eq!(code, 2);
    assert!(err.contains("ELO1 must be above ELO0"), "{err}");
}

/// Under a clock (2 s a side, deep levels so the clock is what limits them) both protocols
/// finish every game without losing on time, and the GGF records the clock and move times.
/// It measures the engine's clock keeping, so it runs alone: beside the other match tests on a
/// two-core host a starved engine once lost a game on time (thirty-first session's CI), its
/// thinking delayed by processes it does not know of. `.ci/run` runs it with `--ignored` after
/// the rest.
#[test]
#[ignore = "timing: runs alone, .ci/run runs it after the other tests"]
fn clocked_games_stay_within_the_clock() {
    let (_dir, ggf, g) = temp_ggf("clock");
    let g = g.as_str();
    let a = format!("nboard:{} nboard --level 30 --threads 1", bin());
    let b = format!("gtp:{} gtp --level 30 --threads 1", bin());
    let (code, out, err) = run(&[
        "match",
        "--engine-a",
        &a,
        "--engine-b",
        &b,
        "--count",
        "1",
        "--time",
        "2",
        "--ggf",
        g,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"games\":2") && out.contains("\"forfeits\":0"), "{out}");
    let games = std::fs::read_to_string(&ggf).expect("ggf written");
    for line in games.lines() {
        let record = oxello::ggf::GgfGame::parse(line).expect("ggf");
        assert!(record.game.is_over());
        for colour in [oxello::board::Color::Black, oxello::board::Color::White] {
            let left = record.game.time_left(colour).expect("clock recorded");
            assert!(left >= 0.0, "{colour:?} overran its clock: {line}");
        }
    }
}

/// An NBoard engine that takes the game but dies at its first `go` forfeits, and the report
/// names it.
#[test]
fn a_crashing_nboard_engine_forfeits() {
    let (dir, _, g) = temp_ggf("mute");
    let g = g.as_str();
    let a = format!("nboard:{} nboard --level 1", bin());
    let b = format!(
        "nboard:{}",
        fake_engine(
            &dir,
            "nboard-dies",
            "while read -r cmd arg rest; do\n  case \"$cmd\" in\n    ping) echo \"pong $arg\" ;;\n    go) exit 3 ;;\n  esac\ndone\n"
        )
    );
    let (code, out, _) = run(&[
        "match",
        "--engine-a",
        &a,
        "--engine-b",
        &b,
        "--count",
        "1",
        "--timeout",
        "2",
        "--ggf",
        g,
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("forfeit: game 1: B crashed"), "{out}");
}

/// A stopped match goes on with `--resume`: the complete games in the GGF file count as played,
/// a torn last line is cut off, and games that are not this match's are refused.
#[test]
fn a_stopped_match_resumes() {
    let (_dir, ggf, g) = temp_ggf("resume");
    let g = g.as_str();
    let (a, b) = (format!("{} gtp --level 2", bin()), format!("{} gtp --level 1", bin()));
    let args = |extra: &[&'static str]| {
        let mut v = vec![
            "match",
            "--engine-a",
            &a,
            "--engine-b",
            &b,
            "--count",
            "2",
            "--ggf",
            g,
            "--json",
        ];
        v.extend_from_slice(extra);
        v.into_iter().map(str::to_string).collect::<Vec<String>>()
    };
    let call = |v: Vec<String>| run(&v.iter().map(String::as_str).collect::<Vec<&str>>());
    let (code, full, err) = call(args(&[]));
    assert_eq!(code, 0, "{err}");
    let games: Vec<String> = std::fs::read_to_string(&ggf)
        .expect("ggf")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(games.len(), 4);
    // Stopped during the third game's write: two games and half a line.
    let torn = format!("{}\n{}\n{}", games[0], games[1], &games[2][..games[2].len() / 2]);
    std::fs::write(&ggf, torn).expect("write");
    let (code, out, err) = call(args(&["--resume"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_number(&out, "games"), Some(4.0), "{out}");
    let now: Vec<String> = std::fs::read_to_string(&ggf)
        .expect("ggf")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(now.len(), 4);
    assert_eq!(now[..2], games[..2], "the played games are kept");
    for line in &now {
        assert!(oxello::ggf::GgfGame::parse(line).is_ok_and(|g| g.game.is_over()), "{line}");
    }
    // The resumed games count as they were: the same tally when nothing is left to play.
    let (code, again, err) = call(args(&["--resume"]));
    assert_eq!(code, 0, "{err}");
    for key in ["wins", "draws", "losses", "seconds_a", "seconds_b"] {
        assert_eq!(json_number(&again, key), json_number(&out, key), "{key}: {again} / {out}");
    }
    assert_eq!(std::fs::read_to_string(&ggf).expect("ggf").lines().count(), 4);
    assert!(full.contains("\"games\":4"), "{full}");
    // Colours swapped in the first game: not this match's games.
    std::fs::write(&ggf, format!("{}\n", games[1])).expect("write");
    let (code, _, err) = call(args(&["--resume"]));
    assert_eq!(code, 2);
    assert!(err.contains("game 1 of the played games"), "{err}");
}
