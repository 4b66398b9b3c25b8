//! Replays the transcripts in `protocol-tests/*.txt` against the built `oxello` binary.
//!
//! Transcript format, one directive per line (the first character(s) and a space):
//!
//! ```text
//! # comment            ignored, as are blank lines
//! ! arg arg ...        command-line arguments (before the first `>`; default: none)
//! > text               send `text` and a newline to the engine's stdin
//! >> a\nb\nc            send several lines (`\n` separates them) in ONE write, as a GUI
//!                      that pipelines a batch of commands does
//! >* N text            send one line of N bytes made of `text` repeated (e.g. a 1 MB line)
//! @ MS                 the next expectation must be met within MS milliseconds of the
//!                      last send (latency: e.g. `pong` during a deep search)
//! < text               the next output line is exactly `text` (`<` alone: an empty line)
//! ~ glob               the next output line matches `glob` (`*` any run, `?` any one char)
//! + glob               allow lines matching `glob` to be skipped by the next `..`
//! .. glob              skip output lines until one matches `glob`; when `+` globs were
//!                      given, every skipped line must match one of them (they are then reset)
//! $                    close stdin (EOF): the engine must exit successfully
//! ```
//!
//! Every expectation waits up to `TIMEOUT` for its line. At the end of the file stdin is
//! closed (unless `$` did it), the engine must exit with success, and it must have printed
//! nothing that no directive accounted for.

mod common;

use common::Engine;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `*` matches any run of characters, `?` any one character; everything else itself.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // matches[j] = pattern[..i] matches text[..j], row by row over i.
    let mut matches = vec![false; t.len() + 1];
    matches[0] = true;
    for &pc in &p {
        let mut next = vec![false; t.len() + 1];
        if pc == '*' {
            let mut any = false;
            for j in 0..=t.len() {
                any |= matches[j];
                next[j] = any;
            }
        } else {
            for j in 1..=t.len() {
                next[j] = matches[j - 1] && (pc == '?' || pc == t[j - 1]);
            }
        }
        matches = next;
    }
    matches[t.len()]
}

/// Runs one transcript; the error names the transcript line.
fn replay(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut args: Vec<String> = Vec::new();
    let mut engine: Option<Engine> = None;
    let mut allowed: Vec<String> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let at = |msg: String| format!("line {}: {msg}", n + 1);
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let (tag, rest) = raw.split_once(' ').unwrap_or((raw, ""));
        if tag == "!" {
            if engine.is_some() {
                return Err(at("`!` after the engine started".into()));
            }
            args = rest.split_whitespace().map(str::to_string).collect();
            continue;
        }
        if engine.is_none() {
            engine = Some(Engine::start(&args).map_err(at)?);
        }
        let Some(e) = engine.as_mut() else { continue };
        match tag {
            ">" => e.send(rest).map_err(at)?,
            ">>" => e.send(&rest.replace("\\n", "\n")).map_err(at)?,
            ">*" => {
                let (n, unit) = rest
                    .split_once(' ')
                    .ok_or_else(|| at("`>*` needs a size and a text".into()))?;
                let n: usize = n.parse().map_err(|_| at(format!("bad size '{n}'")))?;
                let line: String = unit.chars().cycle().take(n).collect();
                e.send(&line).map_err(at)?;
            }
            "@" => {
                let ms: u64 = rest.trim().parse().map_err(|_| at(format!("bad latency '{rest}'")))?;
                e.deadline = Some(e.sent + Duration::from_millis(ms));
                continue;
            }
            "<" => {
                let got = e.next().map_err(|m| at(format!("expected '{rest}': {m}")))?;
                if got != rest {
                    return Err(at(format!("expected '{rest}', got '{got}'")));
                }
            }
            "~" => {
                let got = e.next().map_err(|m| at(format!("expected ~ '{rest}': {m}")))?;
                if !glob(rest, &got) {
                    return Err(at(format!("expected ~ '{rest}', got '{got}'")));
                }
            }
            "+" => allowed.push(rest.to_string()),
            ".." => {
                loop {
                    let got = e.next().map_err(|m| at(format!("skipping to '{rest}': {m}")))?;
                    if glob(rest, &got) {
                        break;
                    }
                    if !allowed.is_empty() && !allowed.iter().any(|a| glob(a, &got)) {
                        return Err(at(format!("unexpected '{got}' while skipping to '{rest}'")));
                    }
                }
                allowed.clear();
            }
            "$" => e.close().map_err(at)?,
            other => return Err(at(format!("unknown directive '{other}'"))),
        }
        if matches!(tag, "<" | "~" | "..") {
            e.deadline = None;
        }
    }
    let mut e = match engine {
        Some(e) => e,
        None => Engine::start(&args)?,
    };
    if !e.exited {
        e.close().map_err(|m| format!("at the end: {m}"))?;
    }
    let extra: Vec<String> = e.lines.try_iter().map(|(_, l)| l).collect();
    if !extra.is_empty() {
        return Err(format!("unexpected output at the end: {extra:?}"));
    }
    Ok(())
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn protocol_transcripts() {
    let files = transcripts();
    assert!(!files.is_empty(), "no transcripts in protocol-tests/");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            replay(f)
                .err()
                .map(|e| format!("{}: {e}", f.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()))
        })
        .collect();
    assert!(failures.is_empty(), "transcript failures:\n{}", failures.join("\n"));
}

#[test]
fn glob_matching() {
    assert!(glob("search * 0 *", "search D6-C3 0.50 0 10"));
    assert!(glob("=== ??/*.??/*.???", "=== F5/-1.50/0.123"));
    assert!(!glob("=== ??/*.??/*.???", "=== PA"));
    assert!(glob("*", ""));
    assert!(!glob("?", ""));
    assert!(glob("a*b*c", "aXXbYYc"));
    assert!(!glob("a*b*c", "aXXbYY"));
}
