//! `analyze` and `bench` against the real binary.

mod common;

/// Exit code and stdout.
fn run(args: &[&str]) -> (i32, String) {
    let (code, out, _) = common::run(args);
    (code, out)
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line.find(&format!("\"{key}\":")).map(|i| i + key.len() + 3).unwrap_or(0);
    let rest = &line[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim_matches('"')
}

#[test]
fn analyze_scores_every_legal_move_best_first() {
    let (code, out) = run(&["analyze", "--moves", "f5d6c3", "--depth", "4", "--json"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let mut moves: Vec<&str> = lines.iter().map(|l| field(l, "move")).collect();
    moves.sort();
    assert_eq!(moves, ["d3", "f3", "f4", "g5"]);
    let scores: Vec<i32> = lines.iter().map(|l| field(l, "score").parse().expect("score")).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{out}");
    assert!(
        lines
            .iter()
            .all(|l| field(l, "depth") == "4" && field(l, "nodes").parse::<u64>().is_ok())
    );
}

#[test]
fn analyze_depth_zero_and_exact_endgame() {
    let (code, out) = run(&["analyze", "--depth", "0", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 4);
    // FFO #20-39 line 1 (6 empties): H5 +6 is best, G6 -2.
    let b = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X";
    let (code, out) = run(&["analyze", "--board", b, "--level", "10", "--json"]);
    assert_eq!(code, 0);
    let first = out.lines().next().expect("a move");
    assert_eq!((field(first, "move"), field(first, "score")), ("h5", "6"), "{out}");
    assert!(
        out.lines().any(|l| field(l, "move") == "g6" && field(l, "score") == "-2"),
        "{out}"
    );
}

#[test]
fn analyze_rejects_bad_input() {
    assert_eq!(run(&["analyze", "--moves", "f5f5"]).0, 2);
    assert_eq!(run(&["analyze", "--board", "xyz"]).0, 2);
}

#[test]
fn bench_signature_is_deterministic() {
    let (c1, a) = run(&["bench", "--depth", "6", "--json"]);
    let (c2, b) = run(&["bench", "--depth", "6", "--json"]);
    assert_eq!((c1, c2), (0, 0));
    let nodes = |s: &str| field(s.lines().last().unwrap_or(""), "nodes").to_string();
    assert_eq!(nodes(&a), nodes(&b));
    assert!(nodes(&a).parse::<u64>().expect("nodes") > 1000);
}

/// The node count of the default `bench` (depth 10, one thread, fresh table): it changes only
/// when the search or the evaluation changes, and then this number changes with it, on purpose.
#[test]
fn bench_signature_is_pinned() {
    let (code, out) = run(&["bench", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(field(out.lines().last().unwrap_or(""), "nodes"), "2497320", "{out}");
}

#[test]
fn analyze_risk_reports_chances() {
    // The risk-aware style values every move (its value at the confidence) with its chances.
    let (code, out) = run(&["analyze", "--moves", "f5d6c3", "--depth", "4", "--risk", "95", "--json"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for l in &lines {
        let win: f64 = field(l, "win").parse().expect("win");
        let draw: f64 = field(l, "draw").parse().expect("draw");
        assert!((0.0..=1.0).contains(&win) && (0.0..=1.0).contains(&(win + draw)), "{l}");
        assert_eq!(field(l, "depth"), "4");
    }
    let scores: Vec<i32> = lines.iter().map(|l| field(l, "score").parse().expect("score")).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{out}");
    // A safe value is no higher than the risky one of the same move.
    let (_, risky) = run(&["analyze", "--moves", "f5d6c3", "--depth", "4", "--risk", "5", "--json"]);
    let value = |out: &str, mv: &str| -> i32 {
        out.lines()
            .find(|l| field(l, "move") == mv)
            .and_then(|l| field(l, "score").parse().ok())
            .expect("the move")
    };
    for mv in ["d3", "f3", "f4", "g5"] {
        assert!(value(&out, mv) <= value(&risky, mv), "{mv}: {out}\n{risky}");
    }
    let (code, text) = run(&["analyze", "--moves", "f5d6c3", "--depth", "4", "--risk", "50"]);
    assert_eq!(code, 0);
    assert!(text.contains("win%  draw%"), "{text}");
    assert_eq!(run(&["analyze", "--risk", "100"]).0, 2);
}

/// A copy of the shipped parameters in a fresh directory, level 6 marked to read the
/// non-linear layer, with the layer (`net.bin`) or without it.
fn params_with_level_6_marked(with_net: bool) -> common::Scratch {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("params");
    let dir = common::Scratch::new(&format!("analyze-layer-{with_net}"));
    for f in ["eval.bin", "mpc.txt", "endcut.txt"] {
        std::fs::copy(shipped.join(f), dir.join(f)).expect("copy params");
    }
    if with_net {
        std::fs::copy(shipped.join("net.bin"), dir.join("net.bin")).expect("copy net.bin");
    }
    let levels = std::fs::read_to_string(shipped.join("levels.txt")).expect("levels.txt");
    let marked: String = levels
        .lines()
        .map(|l| {
            if l.starts_with("6 ") {
                format!("{l} layer\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert_ne!(marked, levels, "level 6's row is in levels.txt");
    std::fs::write(dir.join("levels.txt"), marked).expect("write levels.txt");
    dir
}

/// `analyze --level N` reads the evaluation the engine reads at level N: the layer only at the
/// levels marked for it, even when `--params` gives one.
#[test]
fn analyze_reads_the_layer_only_at_the_levels_marked_for_it() {
    let (with, without) = (params_with_level_6_marked(true), params_with_level_6_marked(false));
    let analyze = |dir: &std::path::Path, level: &str| {
        let d = dir.to_str().expect("utf-8 temp dir");
        let (code, out) = run(&["--params", d, "analyze", "--moves", "f5d6c3d3c4", "--level", level, "--json"]);
        assert_eq!(code, 0, "{out}");
        out
    };
    // Level 5 is not marked: the layer in the directory is not read.
    assert_eq!(analyze(&with, "5"), analyze(&without, "5"));
    // Level 6 is: it searches and values otherwise.
    assert_ne!(analyze(&with, "6"), analyze(&without, "6"));
}

/// `analyze --depth D` reads the strongest evaluation (the layer), as the field's accuracy
/// tests expect of a fixed-depth analysis; `--eval linear` reads the linear weights alone, and
/// `--eval layer` is the default said out loud.
#[test]
fn analyze_at_a_depth_reads_the_layer_unless_told_otherwise() {
    let analyze = |extra: &[&str]| {
        let mut args = vec!["analyze", "--moves", "f5d6c3d3c4", "--depth", "5", "--json"];
        args.extend_from_slice(extra);
        let (code, out) = run(&args);
        assert_eq!(code, 0, "{out}");
        out
    };
    let (plain, layer, linear) = (analyze(&[]), analyze(&["--eval", "layer"]), analyze(&["--eval", "linear"]));
    assert_eq!(plain, layer);
    assert_ne!(plain, linear, "the layer moves this position's values");
    // Level 5 reads no layer (not marked); `--eval layer` makes it read one.
    let level = |extra: &[&str]| {
        let mut args = vec!["analyze", "--moves", "f5d6c3d3c4", "--level", "5", "--json"];
        args.extend_from_slice(extra);
        run(&args).1
    };
    assert_eq!(level(&[]), level(&["--eval", "linear"]));
    assert_ne!(level(&[]), level(&["--eval", "layer"]));
}

/// `accuracy` on an OBF file: a search to the end of an 8-empties position scores MAE 0 and the
/// best move; a line it cannot read makes the exit code 3 (the others still judged); a missing
/// file is a usage error (2).
#[test]
fn accuracy_judges_a_file_and_names_what_it_could_not_read() {
    let dir = common::Scratch::new("analyze-cli-accuracy");
    let ffo = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ffo/fforum-20-39.obf")).expect("FFO file");
    let first = ffo.lines().next().expect("a line").to_string();
    let good = dir.join("good.obf");
    std::fs::write(&good, format!("{first}\n")).expect("write");
    let args = |file: &std::path::Path| {
        vec![
            "accuracy".to_string(),
            file.display().to_string(),
            "--depth".into(),
            "10".into(),
            "--selectivity".into(),
            "100".into(),
            "--json".into(),
        ]
    };
    let call = |file: &std::path::Path| {
        let a = args(file);
        run(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (code, out) = call(&good);
    assert_eq!(code, 0, "{out}");
    let totals = out.lines().last().expect("totals");
    assert_eq!(field(totals, "positions"), "1", "{out}");
    assert_eq!(field(totals, "mae"), "0.000", "{out}");
    assert_eq!(field(totals, "best_move"), "100.0", "{out}");
    let bad = dir.join("bad.obf");
    std::fs::write(&bad, format!("{first}\nnot a position\n")).expect("write");
    let (code, out) = call(&bad);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("\"line\":2,\"error\""), "{out}");
    assert_eq!(field(out.lines().last().expect("totals"), "positions"), "1", "{out}");
    let (code, _) = call(&dir.join("missing.obf"));
    assert_eq!(code, 2);
}
