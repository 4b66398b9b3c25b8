//! Data and report subcommands end to end, with tiny parameters: selfplay -> train ->
//! fit-mpc -> fit-endcut, probcut-report JSON rows, selectivity in reported depths, bad weights files.

mod common;

use common::run;

#[test]
fn selfplay_train_fit_mpc_pipeline() {
    let dir = common::Scratch::new("pipeline");
    let data = dir.join("games.txt");
    let d = data.to_str().expect("utf-8");
    let (code, _, err) = run(&[
        "selfplay",
        "--out",
        d,
        "--games",
        "40",
        "--depth",
        "2",
        "--exact",
        "12",
        "--threads",
        "2",
        "--sibling-min",
        "8",
        "--sibling-max",
        "9",
    ]);
    assert_eq!(code, 0, "{err}");
    let weights = dir.join("eval.bin");
    let (code, out, err) = run(&[
        "train",
        "--data",
        d,
        "--out",
        weights.to_str().expect("utf-8"),
        "--iterations",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("weights written"), "{out}");
    assert!(err.contains("stage 0"), "{err}");
    // The trained file loads through --params.
    let (code, out, _) = run(&["--params", dir.to_str().expect("utf-8"), "analyze", "--depth", "2", "--json"]);
    assert_eq!((code, out.lines().count()), (0, 4));
    let mpc = dir.join("mpc.txt");
    let plots = dir.join("plots");
    let (code, out, err) = run(&[
        "fit-mpc",
        "--data",
        d,
        "--positions",
        "6",
        "--max-depth",
        "5",
        "--out",
        mpc.to_str().expect("utf-8"),
        "--plots",
        plots.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sigma") && out.contains("r2"), "{out}");
    let table = std::fs::read_to_string(&mpc).expect("mpc written");
    assert!(
        table
            .lines()
            .any(|l| !l.starts_with('#') && l.split_whitespace().count() == 9),
        "{table}"
    );
    assert!(std::fs::read_dir(&plots).expect("plots").count() > 0);
    // Endgame ProbCut model: fitted rows on the solved part (4 held-out games), extrapolated past it.
    let endcut = dir.join("endcut.txt");
    let e = endcut.to_str().expect("utf-8");
    let (code, out, err) = run(&[
        "fit-endcut",
        "--data",
        d,
        "--min-empties",
        "6",
        "--max-empties",
        "12",
        "--extrapolate-to",
        "16",
        "--out",
        e,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("empties 16 check 4") && out.contains("samples 0"), "{out}");
    let rows: Vec<Vec<String>> = std::fs::read_to_string(&endcut)
        .expect("endcut written")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert!(rows.iter().all(|r| r.len() == 9 && r[2] == "60"), "{rows:?}");
    assert!(rows.iter().any(|r| r[0] == "12" && r[8] != "0") && rows.iter().any(|r| r[0] == "16" && r[8] == "0"));
    // No labelled positions in the range: a clear error, nothing written.
    let (code, _, err) = run(&[
        "fit-endcut",
        "--data",
        d,
        "--min-empties",
        "40",
        "--max-empties",
        "44",
        "--out",
        e,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no exact-labelled held-out positions"), "{err}");
}

#[test]
fn probcut_report_json_rows() {
    let (code, out, err) = run(&["probcut-report", "--table", "2", "--positions", "2", "--depth", "4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 15, "{out}"); // 5 disc counts x 3 methods
    for key in [
        "discs",
        "nodes_brute",
        "nodes_selective",
        "speedup",
        "same_move",
        "same_value",
    ] {
        assert!(rows.iter().all(|r| r.contains(&format!("\"{key}\":"))), "{key}: {out}");
    }
    let (code, out, err) = run(&["probcut-report", "--table", "1", "--games", "2", "--time-ms", "5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 6, "{out}");
    for key in ["\"t\":", "\"wins\":", "\"draws\":", "\"losses\":", "\"percent\":"] {
        assert!(rows.iter().all(|r| r.contains(key)), "{key}: {out}");
    }
}

#[test]
fn selectivity_shows_in_depth_strings() {
    let (code, out, _) = run(&["analyze", "--moves", "f5d6", "--depth", "6", "--selectivity", "95", "--json"]);
    assert_eq!(code, 0);
    assert!(out.lines().all(|l| l.contains("\"depth_string\":\"6@95%\"")), "{out}");
    let (code, out, _) = run(&["analyze", "--moves", "f5d6", "--depth", "4", "--json"]);
    assert_eq!(code, 0);
    assert!(out.lines().all(|l| l.contains("\"depth_string\":\"4\"")), "{out}");
    assert_ne!(run(&["analyze", "--selectivity", "0"]).0, 0);
}

#[test]
fn bad_weights_file_is_a_clear_error() {
    let dir = common::Scratch::new("badparams");
    std::fs::write(dir.join("eval.bin"), b"OXEV-garbage").expect("write");
    let (code, _, err) = run(&["--params", dir.to_str().expect("utf-8"), "bench", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("eval.bin") && err.contains("truncated"), "{err}");
}

#[test]
fn bad_endcut_file_is_a_clear_error() {
    let dir = common::Scratch::new("badendcut");
    std::fs::write(dir.join("endcut.txt"), "20 20 60 2 x 0 1 0.9 10\n").expect("write");
    let (code, _, err) = run(&["--params", dir.to_str().expect("utf-8"), "bench", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("endcut.txt"), "{err}");
}

#[test]
fn train_rejects_a_stage_out_of_range() {
    let (code, _, err) = run(&["train", "--data", "missing.txt", "--stages", "3", "12"]);
    assert_eq!(code, 2);
    assert!(err.contains("--stages 12"), "{err}");
}

#[test]
fn train_rejects_a_fraction_out_of_range() {
    for bad in ["0", "1.5", "NaN"] {
        let (code, _, err) = run(&["train", "--data", "missing.txt", "--fraction", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("--fraction"), "{bad}: {err}");
    }
}

/// `--params DIR` with a `levels.txt` replaces the level table of the protocols: level 5 made a
/// full-width depth-2 level hints at depth 2 (the embedded level 5 searches 5 plies at 87 %).
#[test]
fn params_dir_replaces_the_level_table() {
    let dir = common::Scratch::new("levels");
    let manifest = env!("CARGO_MANIFEST_DIR");
    std::fs::copy(format!("{manifest}/params/eval.bin"), dir.join("eval.bin")).expect("weights");
    let table = std::fs::read_to_string(format!("{manifest}/params/levels.txt")).expect("levels");
    let table: String = table
        .lines()
        .map(|l| if l.starts_with("5 ") { "5 2 4 4 100" } else { l })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("levels.txt"), table).expect("write levels");
    let depths = |params: Option<&std::path::Path>| -> Vec<String> {
        let mut args: Vec<String> = vec!["nboard".into(), "--no-book".into()];
        if let Some(p) = params {
            args.extend(["--params".to_string(), p.display().to_string()]);
        }
        let mut e = common::Engine::start(&args).expect("engine starts");
        let start = "(;GM[Othello]PC[t]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
        // No ping: it would stop the hint. The hint ends with its node statistics.
        for line in ["nboard 2", "set depth 5", &format!("set game {start}"), "hint 1"] {
            e.send(line).expect("send");
        }
        let mut depths = Vec::new();
        while let Ok(line) = e.next() {
            if line.starts_with("nodestats") {
                break;
            }
            if line.starts_with("search ") {
                depths.push(line.rsplit(' ').next().unwrap_or("").to_string());
            }
        }
        e.close().expect("clean exit");
        depths
    };
    assert_eq!(depths(Some(&dir)).last().map(String::as_str), Some("2"));
    assert_eq!(depths(None).last().map(String::as_str), Some("5@87%"));
    // `analyze --level` reads the same table (it used the embedded one).
    let analyzed = |params: &[&str]| {
        let mut args = params.to_vec();
        args.extend(["--no-book", "analyze", "--level", "5", "--json"]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out.lines().next().unwrap_or("").to_string()
    };
    let dir_arg = dir.display().to_string();
    assert!(analyzed(&["--params", &dir_arg]).contains("\"depth_string\":\"2\""));
    assert!(analyzed(&[]).contains("\"depth_string\":\"5@87%\""));
}

/// `selfplay --lines`: legal game lines become games (line N is game N), a bad line is
/// skipped and counted, and a rerun plays nothing new.
#[test]
fn selfplay_follows_given_games() {
    let dir = common::Scratch::new("lines");
    let lines = dir.join("lines.txt");
    let wthor_1980s = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1";
    std::fs::write(&lines, format!("{wthor_1980s}\nf5f5\n{wthor_1980s}\n")).expect("write");
    let data = dir.join("games.txt");
    let _ = std::fs::remove_file(&data);
    let args = [
        "selfplay",
        "--lines",
        lines.to_str().expect("utf-8"),
        "--out",
        data.to_str().expect("utf-8"),
        "--exact",
        "10",
        "--threads",
        "1",
    ];
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 games in") && err.contains("1 skipped"), "{err}");
    let text = std::fs::read_to_string(&data).expect("data");
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("# game")).collect();
    assert_eq!(headers, ["# game 0", "# game 2"]);
    // Start position first, labelled with the game's result after perfect play from 10 empties.
    let first = text.lines().nth(1).expect("a record");
    assert!(
        first.starts_with("---------------------------OX------XO--------------------------- X "),
        "{first}"
    );
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 games already in"), "{err}");
    assert_eq!(std::fs::read_to_string(&data).expect("data"), text);
}
