//! `oxello corpus` end to end: generate (resumable, sharded) → stats → merge → train and fit-mpc from the
//! corpus; damaged shards named with exit code 2; and the corpus committed in the repository
//! reads whole.

use std::path::Path;
mod common;

use common::{Scratch, run};

fn temp(name: &str) -> Scratch {
    Scratch::new(&format!("corpus-cli-{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// `corpus generate` into `dir` with small settings; `extra` flags replace the defaults.
fn generate(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let defaults = [
        ("--games", "20"),
        ("--chunk-games", "10"),
        ("--depth", "2"),
        ("--exact", "12"),
        ("--threads", "2"),
        ("--siblings", "10-11"),
    ];
    let mut args = vec!["corpus", "generate", "--dir", s(dir)];
    for (flag, value) in defaults {
        if !extra.contains(&flag) {
            args.extend([flag, value]);
        }
    }
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn generate_resume_stats_merge_train() {
    let t = temp("pipeline");
    let a = t.join("a");
    let (code, out, err) = generate(&a, &["--shard", "1/2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 chunks written (10 games"), "{out}");
    let (code, out, err) = generate(&a, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("1 chunks written") && out.contains("1 chunks of this shard were there already"),
        "{out}"
    );
    let (code, out, err) = run(&["corpus", "stats", s(&a)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("20 games (2 held out), "), "{out}");
    assert!(out.contains("run random-d2-e12-s1: 2 shards, 20 games;"), "{out}");
    let siblings = out
        .lines()
        .find(|l| l.starts_with("10-19"))
        // empties, positions, exact, game, +search, deep, siblings, deep siblings
        .and_then(|l| l.split_whitespace().nth(6))
        .and_then(|v| v.parse::<u64>().ok())
        .expect("a 10-19 row");
    assert!(siblings > 20, "{out}");

    // Another machine's run, merged in; merging again copies nothing.
    let b = t.join("b");
    let (code, _, err) = generate(&b, &["--seed", "9"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["corpus", "merge", "--into", s(&a), s(&b)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("2 shards copied"), "{out}");
    let (_, out, _) = run(&["corpus", "merge", "--into", s(&a), s(&b)]);
    assert!(out.starts_with("0 shards copied") && out.contains("2 already there"), "{out}");

    // A settings change on an existing run is refused, naming the setting.
    let (code, _, err) = generate(&a, &["--depth", "3", "--run", "random-d2-e12-s1"]);
    assert_eq!(code, 2);
    assert!(err.contains("search_depth: 2 here, 3 asked"), "{err}");

    // The weights fit from the corpus, with either label.
    for labels in ["game", "search"] {
        let weights = t.join(format!("eval-{labels}.bin"));
        let (code, out, err) = run(&[
            "train",
            "--data",
            s(&a),
            "--labels",
            labels,
            "--iterations",
            "5",
            "--out",
            s(&weights),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("weights written"), "{out}");
        assert!(err.contains("train: "), "{err}");
    }

    // Multi-ProbCut refitted on the corpus's held-out positions (the weights change, so must it).
    let mpc = t.join("mpc.txt");
    let (code, out, err) = run(&[
        "fit-mpc",
        "--data",
        s(&a),
        "--positions",
        "3",
        "--max-depth",
        "3",
        "--threads",
        "1",
        "--out",
        s(&mpc),
        "--plots",
        s(&t.join("plots")),
    ]);
    assert_eq!(code, 0, "{err}");
    let table = std::fs::read_to_string(&mpc).expect("mpc.txt written");
    let rows: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!rows.is_empty() && out.contains("emin"), "{table}\n{out}");
}

#[test]
fn a_damaged_shard_is_named() {
    let t = temp("damaged");
    let (code, _, err) = generate(&t, &["--games", "10"]);
    assert_eq!(code, 0, "{err}");
    let shard = t.join("random-d2-e12-s1").join("c000000.oxc");
    let bytes = std::fs::read(&shard).expect("shard");
    std::fs::write(&shard, &bytes[..bytes.len() - 10]).expect("cut");
    let out = t.join("x.bin");
    for args in [
        vec!["corpus", "stats", s(&t)],
        vec!["train", "--data", s(&t), "--out", s(&out)],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(
            err.starts_with(&format!("oxello: {}: checksum mismatch", shard.display())),
            "{args:?}: {err}"
        );
    }
}

/// Every shard committed under corpus/ is whole: the data the shipped weights are refitted
/// from; it holds at least the 30 M labelled positions issue 41 asks for, within its 150 MB.
#[test]
fn the_repository_corpus_reads_whole() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let (code, out, err) = run(&["corpus", "stats", s(&corpus)]);
    assert_eq!(code, 0, "{err}");
    // "G games (H held out), P labelled positions, B bytes (…)"
    let words: Vec<&str> = out.lines().next().unwrap_or("").split_whitespace().collect();
    let number = |k: usize| words.get(k).and_then(|w| w.trim_matches(',').parse::<u64>().ok());
    let (games, positions, bytes) = (number(0), number(5), number(8));
    assert!(games.is_some_and(|g| g >= 3000), "{out}");
    assert!(positions.is_some_and(|p| p >= 30_000_000), "{out}");
    assert!(bytes.is_some_and(|b| b <= 150_000_000), "{out}");
    println!("{out}");
}

/// A run with walks from the command line: its header says so, `corpus stats` counts them in
/// their own column, `train --off-line-offset` fits from it and reports the siblings' offsets,
/// and a walk length the format cannot hold is refused before any game.
#[test]
fn walks_from_the_command_line() {
    let t = temp("walks");
    let (code, out, err) = generate(&t, &["--walks", "2", "--walk-from", "14-16", "--walk-plies", "2-3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 chunks written"), "{out}");
    let (code, out, err) = run(&["corpus", "stats", s(&t)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("walks=2 from each position at empties 14-16, 2-3 plies, solved"),
        "{out}"
    );
    let walks = out
        .lines()
        .find(|l| l.starts_with("10-19"))
        // empties, positions, exact, game, +search, deep, siblings, deep siblings, walks
        .and_then(|l| l.split_whitespace().nth(8))
        .and_then(|v| v.parse::<u64>().ok())
        .expect("a 10-19 row");
    assert!(walks >= 20, "{out}");
    let weights = t.join("eval.bin");
    let (code, out, err) = run(&[
        "train",
        "--data",
        s(&t),
        "--iterations",
        "5",
        "--off-line-offset",
        "--out",
        s(&weights),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("weights written"), "{out}");
    assert!(err.contains("off-line offsets by empties"), "{err}");
    let other = t.join("other");
    let (code, _, err) = generate(&other, &["--walks", "1", "--walk-plies", "0-61"]);
    assert_eq!(code, 2);
    assert!(err.contains("--walk-plies"), "{err}");
}
