//! Protocol soak (issue 19): seeded random command streams, both protocols, as a careless or
//! hostile controller would send them — valid commands, out-of-range numbers, garbage, long
//! lines, invalid UTF-8, pings with gaps, pipelined commands. Checked: every NBoard `ping` gets
//! its `pong` in order and promptly; every GTP command line gets exactly one response carrying
//! its id; the engine exits cleanly on `quit` and on EOF.
//!
//! The regular tests run a few sessions. `benches/soak.sh` runs the ignored `soak_long` with
//! `SOAK_SESSIONS` and `SOAK_SECONDS` (10,000 sessions or 30 minutes) and prints the figures.

mod common;

use oxello::board::Position;
use oxello::board::notation::square_name;
use std::collections::VecDeque;
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Commands per session.
const COMMANDS: usize = 300;
/// A pong or a GTP response later than this is a hang.
const HANG: Duration = Duration::from_secs(10);
/// What the regular tests accept for a pong and for the exit after `quit`/EOF: far above what
/// the engine needs (benches/soak.sh reports the real figures) so that a loaded CI machine
/// does not fail the test, far below what a GUI would call a freeze.
const PONG_LIMIT: Duration = Duration::from_millis(1000);
const EXIT_LIMIT: Duration = Duration::from_millis(1000);

struct Rng(u64);
impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Figures of one or more sessions.
#[derive(Default, Debug)]
struct Stats {
    sessions: usize,
    lines: usize,
    pongs: usize,
    responses: usize,
    /// The first pong of each session (it includes the engine's start-up), then the others.
    startup_pongs: Vec<Duration>,
    pong_latencies: Vec<Duration>,
    exits: Vec<Duration>,
}

impl Stats {
    fn add(&mut self, other: Stats) {
        self.sessions += other.sessions;
        self.lines += other.lines;
        self.pongs += other.pongs;
        self.responses += other.responses;
        self.startup_pongs.extend(other.startup_pongs);
        self.pong_latencies.extend(other.pong_latencies);
        self.exits.extend(other.exits);
    }
}

fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    v.get(((v.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or_default()
}

/// The engine, with each output line time-stamped as it arrives.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
}

impl Proc {
    fn start(args: &[&str]) -> Result<Proc, String> {
        let (child, stdin, lines) = common::spawn(args)?;
        Ok(Proc {
            child,
            stdin: Some(stdin),
            lines,
        })
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin closed")?;
        let mut line = bytes.to_vec();
        line.push(b'\n');
        stdin
            .write_all(&line)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot send: {e}"))
    }

    fn next(&self, limit: Duration) -> Result<(Instant, String), String> {
        match self.lines.recv_timeout(limit) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(format!("no output within {limit:?} (hang)")),
            Err(RecvTimeoutError::Disconnected) => Err("output ended".into()),
        }
    }

    /// After `quit` (or with `eof`, after closing stdin): the time to a successful exit.
    fn exit(&mut self, eof: bool, t0: Instant) -> Result<Duration, String> {
        if eof {
            self.stdin = None;
        }
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) if s.success() => return Ok(t0.elapsed()),
                Ok(Some(s)) => return Err(format!("exited with {s}")),
                Ok(None) if t0.elapsed() > HANG => return Err("still running after quit/EOF".into()),
                Ok(None) => thread::sleep(Duration::from_millis(1)),
                Err(e) => return Err(format!("cannot wait: {e}")),
            }
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A random legal game prefix of up to `plies` moves, as NBoard/GGF move texts.
fn random_game(rng: &mut Rng, plies: usize) -> Vec<String> {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.board.is_game_over() {
            break;
        }
        let legal: Vec<usize> = (0..64).filter(|&s| pos.board.moves() >> s & 1 != 0).collect();
        if legal.is_empty() {
            moves.push("PA".to_string());
            pos = pos.pass();
            continue;
        }
        let sq = legal[rng.below(legal.len())];
        moves.push(square_name(sq).to_uppercase());
        pos = pos.play(sq).expect("a legal move");
    }
    moves
}

/// Lines no protocol knows: printable noise, long lines, control characters, invalid UTF-8.
fn garbage(rng: &mut Rng) -> Vec<u8> {
    match rng.below(8) {
        0 => Vec::new(),
        1 => b"   \t  ".to_vec(),
        2 => (0..rng.below(60)).map(|_| b' ' + rng.below(95) as u8).collect(),
        3 => vec![b'x'; 1000 + rng.below(100_000)],
        4 => (0..rng.below(40))
            .map(|_| rng.below(256) as u8)
            .filter(|&b| b != b'\n')
            .collect(),
        5 => "é♟ 黒 \u{7f}\u{1b}[2J ping".as_bytes().to_vec(),
        6 => format!("{} {}", rng.next(), rng.next()).into_bytes(),
        _ => b"\r".to_vec(),
    }
}

/// One NBoard session: random commands with valid pings in between; every pong is checked
/// in order and timed from its ping to its arrival.
fn nboard_session(seed: u64) -> Result<Stats, String> {
    let mut rng = Rng::new(seed);
    let mut engine = Proc::start(&["nboard", "--threads", "1", "--hash", "4", "--no-book"])?;
    let mut stats = Stats {
        sessions: 1,
        ..Stats::default()
    };
    engine.send(b"nboard 2")?;
    let mut ping: u64 = rng.below(1000) as u64;
    let mut expected: VecDeque<(String, Instant, String)> = VecDeque::new();
    let mut previous = String::from("(start-up)");
    // The first ping is answered once the engine is up: its latency is the start-up's.
    expected.push_back((ping.to_string(), Instant::now(), previous.clone()));
    engine.send(format!("ping {ping}").as_bytes())?;
    while !expected.is_empty() {
        let (at, l) = engine.next(HANG)?;
        check_pong(&l, at, &mut expected, &mut stats)?;
    }
    for i in 0..COMMANDS {
        let line: Vec<u8> = match rng.below(20) {
            0..=3 => {
                ping += [1, 1, 2, 7, 1000][rng.below(5)];
                let text = if rng.chance(3) {
                    format!("{ping}000000000000000000000")
                } else {
                    ping.to_string()
                };
                expected.push_back((text.clone(), Instant::now(), previous.clone()));
                format!("ping {text}").into_bytes()
            }
            4 => {
                let d = rng.pick(&["1", "2", "3", "4", "5", "6", "0", "-3", "61", "99999999999", "x", ""]);
                format!("set depth {d}").into_bytes()
            }
            5 => format!(
                "set contempt {}",
                rng.pick(&["0", "100", "-100", "5000", "-99999999999", "y"])
            )
            .into_bytes(),
            6 | 7 => {
                let plies = rng.below(62);
                let moves = random_game(&mut rng, plies);
                let mut ggf = format!(
                    "(;GM[Othello]PC[soak]TI[{}]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
                    rng.pick(&["5:00//0", "0//0", "1", "x"])
                );
                for (k, m) in moves.iter().enumerate() {
                    ggf.push_str(&format!("{}[{m}]", if k % 2 == 0 { "B" } else { "W" }));
                }
                ggf.push_str(";)");
                if rng.chance(25) {
                    let cut = rng.below(ggf.len());
                    ggf.truncate(cut);
                }
                format!("set game {ggf}").into_bytes()
            }
            8 | 9 => {
                let m = if rng.chance(80) {
                    square_name(rng.below(64)).to_uppercase()
                } else {
                    rng.pick(&["PA", "Z9", "", "A1/3/x"]).to_string()
                };
                format!("move {m}/{}/0.01", rng.below(20)).into_bytes()
            }
            10 | 11 => b"go".to_vec(),
            12 => format!("hint {}", rng.pick(&["1", "3", "0", "-2", "99999999999", "q"])).into_bytes(),
            13 => b"learn".to_vec(),
            14 => b"analyze".to_vec(),
            15 => rng
                .pick(&[
                    "nboard 2",
                    "nboard 1",
                    "nboard 3",
                    "set myname x",
                    "set unknown 1",
                    "ping",
                    "ping x",
                    "ping 1 2",
                ])
                .as_bytes()
                .to_vec(),
            _ => garbage(&mut rng),
        };
        engine.send(&line)?;
        previous = String::from_utf8_lossy(&line).chars().take(50).collect();
        stats.lines += 1;
        if i % 40 == 0 || rng.chance(3) {
            thread::sleep(Duration::from_millis(rng.below(30) as u64));
        }
        // A GUI waits for its pong before most requests: drain what has come.
        while let Ok((at, l)) = engine.lines.try_recv() {
            check_pong(&l, at, &mut expected, &mut stats)?;
        }
    }
    ping += 1;
    expected.push_back((ping.to_string(), Instant::now(), previous.clone()));
    engine.send(format!("ping {ping}").as_bytes())?;
    while !expected.is_empty() {
        let (at, l) = engine.next(HANG)?;
        check_pong(&l, at, &mut expected, &mut stats)?;
    }
    let eof = rng.chance(50);
    if !eof {
        engine.send(b"quit")?;
    }
    stats.exits.push(engine.exit(eof, Instant::now())?);
    Ok(stats)
}

fn check_pong(
    line: &str,
    at: Instant,
    expected: &mut VecDeque<(String, Instant, String)>,
    stats: &mut Stats,
) -> Result<(), String> {
    let Some(text) = line.strip_prefix("pong ") else {
        return if line == "pong" { Err("a bare pong".into()) } else { Ok(()) };
    };
    let (want, sent, before) = expected.pop_front().ok_or(format!("'{line}' without a ping"))?;
    if text != want {
        return Err(format!("'{line}' out of order: expected 'pong {want}'"));
    }
    let latency = at.saturating_duration_since(sent);
    if std::env::var_os("SOAK_VERBOSE").is_some() && latency > Duration::from_millis(20) {
        eprintln!("pong {want} after {latency:?}; the command before the ping: {before}");
    }
    if stats.pongs == 0 {
        stats.startup_pongs.push(latency);
    } else {
        stats.pong_latencies.push(latency);
    }
    stats.pongs += 1;
    Ok(())
}

/// The id a GTP line's response must carry, and whether it gets one at all (GTP §2.4: control
/// characters but tab removed, `#` comments cut, empty lines ignored).
fn gtp_expectation(line: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(line);
    let cleaned: String = text
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let first = cleaned.split_whitespace().next()?;
    Some(if first.bytes().all(|b| b.is_ascii_digit()) {
        first.to_string()
    } else {
        String::new()
    })
}

/// One GTP session: random commands, each line's response read and matched to its id.
fn gtp_session(seed: u64) -> Result<Stats, String> {
    let mut rng = Rng::new(seed);
    let mut engine = Proc::start(&["gtp", "--threads", "1", "--hash", "4", "--no-book", "--level", "3"])?;
    let mut stats = Stats {
        sessions: 1,
        ..Stats::default()
    };
    let colours = ["b", "w", "black", "WHITE", "x", ""];
    for _ in 0..COMMANDS {
        let command = match rng.below(20) {
            0 => rng
                .pick(&[
                    "protocol_version",
                    "name",
                    "version",
                    "list_commands",
                    "showboard",
                    "final_score",
                ])
                .to_string(),
            1 => format!("known_command {}", rng.pick(&["genmove", "play", "fly", ""])),
            2 => format!("boardsize {}", rng.pick(&["8", "7", "19", "-1", "x", "99999999999"])),
            3 => "clear_board".to_string(),
            4 => format!("komi {}", rng.pick(&["0", "6.5", "-1e300", "nan", "x"])),
            5..=7 => {
                let v = if rng.chance(85) {
                    square_name(rng.below(64))
                } else {
                    rng.pick(&["pass", "PASS", "i9", "a0", ""]).to_string()
                };
                format!("play {} {v}", rng.pick(&colours))
            }
            8..=10 => format!("genmove {}", rng.pick(&colours)),
            11 => "undo".to_string(),
            12 => format!(
                "time_settings {} {} {}",
                rng.pick(&["0", "1", "300", "-5", "1e400", "x"]),
                rng.pick(&["0", "0.5", "10", "-1"]),
                rng.pick(&["0", "1", "5", "-1", "99999999999"])
            ),
            13 => format!(
                "time_left {} {} {}",
                rng.pick(&colours),
                rng.pick(&["0", "0.2", "30", "-3", "inf"]),
                rng.pick(&["0", "3", "-1"])
            ),
            14 => format!("set_level {}", rng.pick(&["1", "2", "3", "4", "0", "-2", "99999999999", "q"])),
            15 => rng
                .pick(&[
                    "gogui-rules_legal_moves",
                    "gogui-rules_board",
                    "gogui-rules_side_to_move",
                    "gogui-rules_final_result",
                    "set_game Othello",
                    "set_game Go",
                    "list_games",
                    "loadsgf x",
                ])
                .to_string(),
            _ => String::from_utf8_lossy(&garbage(&mut rng)).into_owned(),
        };
        let mut line = match rng.below(4) {
            0 => command.into_bytes(),
            1 => format!("{} {command}", rng.below(100_000)).into_bytes(),
            2 => format!("{}  {command}  # a comment", rng.below(100)).into_bytes(),
            _ => format!(
                "{}\t{command}",
                rng.pick(&["7", "123456789012345678901234567890", "+3", "-4", "0x1f", "#"])
            )
            .into_bytes(),
        };
        if rng.chance(3) {
            line = garbage(&mut rng);
        }
        engine.send(&line)?;
        stats.lines += 1;
        let Some(id) = gtp_expectation(&line) else { continue };
        let (_, first) = engine.next(HANG)?;
        let ok = first.strip_prefix(['=', '?']).is_some_and(|rest| {
            rest.starts_with(id.as_str())
                && rest[id.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || !c.is_ascii_digit())
        });
        if !ok {
            return Err(format!(
                "'{}' answered '{first}' (expected id '{id}')",
                String::from_utf8_lossy(&line)
            ));
        }
        loop {
            let (_, l) = engine.next(HANG)?;
            if l.is_empty() {
                break;
            }
            if l.starts_with(['=', '?']) {
                return Err(format!("'{}': a second response '{l}'", String::from_utf8_lossy(&line)));
            }
        }
        stats.responses += 1;
    }
    let eof = rng.chance(50);
    let t0 = Instant::now();
    if !eof {
        engine.send(b"9 quit")?;
        let (_, l) = engine.next(HANG)?;
        if l != "=9" {
            return Err(format!("quit answered '{l}'"));
        }
    }
    stats.exits.push(engine.exit(eof, t0)?);
    if let Ok((_, l)) = engine.lines.try_recv()
        && !l.is_empty()
    {
        return Err(format!("output after quit: '{l}'"));
    }
    Ok(stats)
}

fn check(stats: &Stats) {
    let worst_pong = stats
        .pong_latencies
        .iter()
        .chain(&stats.startup_pongs)
        .max()
        .copied()
        .unwrap_or_default();
    let worst_exit = stats.exits.iter().max().copied().unwrap_or_default();
    assert!(worst_pong < PONG_LIMIT, "slowest pong {worst_pong:?}");
    assert!(worst_exit < EXIT_LIMIT, "slowest exit {worst_exit:?}");
}

#[test]
fn nboard_soak() {
    let mut stats = Stats::default();
    for seed in 1..=4 {
        stats.add(nboard_session(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}")));
    }
    assert!(stats.pongs > 200, "{stats:?}");
    check(&stats);
}

#[test]
fn gtp_soak() {
    let mut stats = Stats::default();
    for seed in 1..=4 {
        stats.add(gtp_session(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}")));
    }
    assert!(stats.responses > 800, "{stats:?}");
    check(&stats);
}

/// `benches/soak.sh`: sessions alternate between the protocols until `SOAK_SESSIONS` or
/// `SOAK_SECONDS`; prints the figures; fails on the first broken session (its seed is named).
#[test]
#[ignore]
fn soak_long() {
    let var = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    let (sessions, seconds, first) = (
        var("SOAK_SESSIONS", 10_000),
        var("SOAK_SECONDS", 1800),
        var("SOAK_SEED", 1000),
    );
    let t0 = Instant::now();
    let (mut nb, mut gtp) = (Stats::default(), Stats::default());
    let mut seed = first;
    while seed - first < sessions && t0.elapsed() < Duration::from_secs(seconds) {
        let (stats, result) = if seed % 2 == 0 {
            (&mut nb, nboard_session(seed))
        } else {
            (&mut gtp, gtp_session(seed))
        };
        stats.add(result.unwrap_or_else(|e| panic!("seed {seed} ({}): {e}", if seed % 2 == 0 { "nboard" } else { "gtp" })));
        seed += 1;
    }
    println!(
        "soak: {} sessions in {:.0} s, seeds {first}..{}",
        seed - first,
        t0.elapsed().as_secs_f64(),
        seed - 1
    );
    println!(
        "nboard: {} sessions, {} lines, {} pongs in order; first pong (with start-up) median {:?}, max {:?}; \
         other pongs median {:?}, 99 % {:?}, max {:?}; exit max {:?}",
        nb.sessions,
        nb.lines,
        nb.pongs,
        quantile(&mut nb.startup_pongs, 0.5),
        quantile(&mut nb.startup_pongs, 1.0),
        quantile(&mut nb.pong_latencies, 0.5),
        quantile(&mut nb.pong_latencies, 0.99),
        quantile(&mut nb.pong_latencies, 1.0),
        quantile(&mut nb.exits, 1.0)
    );
    println!(
        "gtp: {} sessions, {} lines, {} responses each with its id; exit median {:?}, max {:?}",
        gtp.sessions,
        gtp.lines,
        gtp.responses,
        quantile(&mut gtp.exits, 0.5),
        quantile(&mut gtp.exits, 1.0)
    );
    check(&nb);
    check(&gtp);
}

/// Ping latency while the engine is busy with deep work, as a GUI sees it: fresh NBoard engines
/// at depth 60 (searches that run until stopped), from the start position and from a random
/// position at 30 empties (a solve), a `go`, `hint 3`, `learn` or `analyze` sent, a pause of
/// 50-300 ms, then a `ping` timed to its `pong`. `benches/soak.sh` runs it after the soak;
/// `LATENCY_SAMPLES` (default 20) pings an engine, 3 engines a kind and position.
#[test]
#[ignore]
fn ping_latency_during_deep_work() {
    let samples = std::env::var("LATENCY_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let mut rng = Rng::new(19);
    let mut all = Vec::new();
    for kind in ["go", "hint 3", "learn", "analyze"] {
        for empties in [60, 30] {
            let mut latencies = Vec::new();
            for _ in 0..3 {
                let moves = random_game(&mut rng, 60 - empties);
                let mut ggf = String::from(
                    "(;GM[Othello]PC[soak]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
                );
                for (k, m) in moves.iter().enumerate() {
                    ggf.push_str(&format!("{}[{m}]", if k % 2 == 0 { "B" } else { "W" }));
                }
                ggf.push_str(";)");
                let mut engine = Proc::start(&["nboard", "--threads", "1", "--no-book"]).expect("engine");
                for line in ["nboard 2", "set depth 60", &format!("set game {ggf}"), "ping 0"] {
                    engine.send(line.as_bytes()).expect("send");
                }
                // Not timed: the engine's start-up.
                while engine.next(HANG).expect("start-up").1 != "pong 0" {}
                for ping in 1..=samples {
                    engine.send(kind.as_bytes()).expect("send");
                    let pause = 50 + rng.below(250) as u64;
                    thread::sleep(Duration::from_millis(pause));
                    let sent = Instant::now();
                    engine.send(format!("ping {ping}").as_bytes()).expect("send");
                    loop {
                        let (at, l) = engine.next(HANG).unwrap_or_else(|e| panic!("{kind}: {e}"));
                        if l == format!("pong {ping}") {
                            let latency = at.saturating_duration_since(sent);
                            if std::env::var_os("SOAK_VERBOSE").is_some() && latency > Duration::from_millis(20) {
                                eprintln!("{kind} at {empties} empties, {pause} ms in: pong after {latency:?}");
                            }
                            latencies.push(latency);
                            break;
                        }
                        assert!(!l.starts_with("pong"), "{kind}: '{l}' out of order");
                    }
                }
                engine.send(b"quit").expect("send");
                engine.exit(false, Instant::now()).expect("exit");
            }
            all.extend(latencies.iter().copied());
            println!(
                "ping during {kind} at {empties} empties: {} pings, median {:?}, 99 % {:?}, max {:?}",
                latencies.len(),
                quantile(&mut latencies, 0.5),
                quantile(&mut latencies, 0.99),
                quantile(&mut latencies, 1.0)
            );
        }
    }
    println!(
        "ping during deep work, all: {} pings, median {:?}, 99 % {:?}, max {:?}",
        all.len(),
        quantile(&mut all, 0.5),
        quantile(&mut all, 0.99),
        quantile(&mut all, 1.0)
    );
    assert!(quantile(&mut all, 1.0) < PONG_LIMIT);
}

/// Ping and quit while the engine ponders (issue 42): fresh engines with `--ponder` on a clock
/// and no level (so the ponder runs until something arrives); after each of their moves is
/// played back, pauses of 50-300 ms, then a request timed to its answer (NBoard `ping`, GTP
/// `name`), `samples` times; then `quit` timed to the exit. Returns (answer latencies, exit
/// times).
fn ponder_latencies(samples: usize, engines: usize) -> (Vec<Duration>, Vec<Duration>) {
    let mut rng = Rng::new(42);
    let (mut answers, mut exits) = (Vec::new(), Vec::new());
    for e in 0..engines {
        let gtp = e % 2 == 1;
        let protocol = if gtp { "gtp" } else { "nboard" };
        let mut engine = Proc::start(&[protocol, "--threads", "1", "--no-book", "--ponder"]).expect("engine");
        let setup: &[&str] = if gtp {
            &["time_settings 5 0 0"]
        } else {
            &[
                "nboard 2",
                "set game (;GM[Othello]PC[soak]TI[0:05]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
            ]
        };
        for line in setup {
            engine.send(line.as_bytes()).expect("send");
        }
        for n in 1..=samples {
            // Our move, played back: the ponder starts.
            our_move_then_ponder(&mut engine, gtp);
            thread::sleep(Duration::from_millis(50 + rng.below(250) as u64));
            let sent = Instant::now();
            let request = if gtp {
                b"name".to_vec()
            } else {
                format!("ping {n}").into_bytes()
            };
            engine.send(&request).expect("send");
            let want = if gtp { "= oxello".to_string() } else { format!("pong {n}") };
            loop {
                let (at, l) = engine.next(HANG).expect("an answer");
                if l == want {
                    answers.push(at.saturating_duration_since(sent));
                    break;
                }
            }
            if gtp {
                // The opponent's reply ends the ponder; back to our turn (any legal reply will do:
                // the engine plays for both colours here).
                engine.send(b"genmove w").expect("send");
                while !engine.next(HANG).expect("a move").1.starts_with("= ") {}
            } else {
                engine.send(b"go").expect("send");
                let reply = loop {
                    let (_, l) = engine.next(HANG).expect("a move");
                    if let Some(rest) = l.strip_prefix("=== ") {
                        break rest.split('/').next().unwrap_or("").to_string();
                    }
                };
                engine.send(format!("move {reply}").as_bytes()).expect("send");
            }
        }
        // One more move of ours and a ponder; quit in the middle of it.
        our_move_then_ponder(&mut engine, gtp);
        thread::sleep(Duration::from_millis(100));
        let t0 = Instant::now();
        engine.send(b"quit").expect("send");
        exits.push(engine.exit(false, t0).expect("exit"));
    }
    (answers, exits)
}

/// Asks for our move (GTP `genmove b`, NBoard `go`) and, over NBoard, plays it back: the
/// engine then ponders on the opponent's time.
fn our_move_then_ponder(engine: &mut Proc, gtp: bool) {
    engine.send(if gtp { b"genmove b".as_slice() } else { b"go" }).expect("send");
    let mv = loop {
        let (_, l) = engine.next(HANG).expect("a move");
        if gtp && l.starts_with("= ") {
            break l[2..].to_string();
        }
        if let Some(rest) = l.strip_prefix("=== ") {
            break rest.split('/').next().unwrap_or("").to_string();
        }
    };
    if !gtp {
        engine.send(format!("move {mv}").as_bytes()).expect("send");
    }
}

/// The regular check: pondering never keeps a ping or quit waiting (CI limits).
#[test]
fn ping_and_quit_during_a_ponder() {
    let (mut answers, mut exits) = ponder_latencies(3, 2);
    assert!(quantile(&mut answers, 1.0) < PONG_LIMIT, "{answers:?}");
    assert!(quantile(&mut exits, 1.0) < EXIT_LIMIT, "{exits:?}");
}

/// `benches/soak.sh`: the figures, against the issue's limits (50 ms a ping, 100 ms quit).
/// `LATENCY_SAMPLES` (default 20) requests an engine, 6 engines (NBoard and GTP alternating).
#[test]
#[ignore]
fn ponder_latency() {
    let samples = std::env::var("LATENCY_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let (mut answers, mut exits) = ponder_latencies(samples, 6);
    println!(
        "ping/name during a ponder: {} requests, median {:?}, 99 % {:?}, max {:?}; quit during a ponder: {} exits, max {:?}",
        answers.len(),
        quantile(&mut answers, 0.5),
        quantile(&mut answers, 0.99),
        quantile(&mut answers, 1.0),
        exits.len(),
        quantile(&mut exits, 1.0)
    );
    assert!(quantile(&mut answers, 1.0) < Duration::from_millis(50));
    assert!(quantile(&mut exits, 1.0) < Duration::from_millis(100));
}
