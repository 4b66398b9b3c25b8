//! Memory (issue 19): the engine's peak RSS stays within the transposition table (`--hash`, MB)
//! plus the fixed overhead the README states (33 MB), here over a whole 2 s game at level 30
//! with two threads, both colours played by `genmove`. Linux only (it reads /proc).

mod common;

use common::Engine;

/// The fixed overhead the README promises, in MB (MiB, as `--hash` counts them).
const OVERHEAD_MB: u64 = 33;

/// One GTP reply's first line.
fn ask(e: &mut Engine, cmd: &str) -> String {
    e.send(cmd).expect("send");
    let first = e.next().expect("a reply");
    while !e.next().expect("reply lines").is_empty() {}
    assert!(first.starts_with('='), "{cmd}: {first}");
    first
}

/// The process's peak resident set (VmHWM) in KiB, if /proc tells it.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "reads the peak resident set from Linux's /proc")]
fn peak_rss_stays_within_the_hash_plus_the_fixed_overhead() {
    assert!(std::path::Path::new("/proc/self/status").exists(), "no /proc on this Linux");
    let hash = 16;
    let args: Vec<String> = ["gtp", "--level", "30", "--threads", "2", "--no-book", "--hash", "16"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut e = Engine::start(&args).expect("engine starts");
    ask(&mut e, "time_settings 2 0 0");
    let mut passes = 0;
    let mut colour = 'b';
    let mut moves = 0;
    while passes < 2 && moves < 130 {
        let mv = ask(&mut e, &format!("genmove {colour}"));
        passes = if mv.contains("pass") { passes + 1 } else { 0 };
        colour = if colour == 'b' { 'w' } else { 'b' };
        moves += 1;
    }
    assert!(passes == 2, "the game did not end: {moves} genmoves");
    let peak = peak_rss_kib(e.pid()).expect("VmHWM in /proc");
    assert!(
        peak <= (hash + OVERHEAD_MB) * 1024,
        "peak RSS {peak} KiB over {hash} MB + {OVERHEAD_MB} MB"
    );
    e.close().expect("exits");
}
