//! Shared by the integration tests: run the real binary, or talk to it line by line.
#![allow(dead_code)] // each test crate uses its own part

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// How long a conversation waits for any one line.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Runs `oxello` with `args`; returns the exit code, stdout and stderr.
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An engine's output lines, each with the time it arrived.
pub type Lines = Receiver<(Instant, String)>;

/// Starts `oxello` with `args`: the process, its stdin, and its output lines, each stamped
/// with the time it arrived (stderr is dropped). Lines are read as bytes: one that is not
/// UTF-8 (a reply quoting garbage input) is kept, lossily, instead of ending the output.
pub fn spawn<S: AsRef<OsStr>>(args: &[S]) -> Result<(Child, ChildStdin, Lines), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start oxello: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let (tx, lines) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).split(b'\n') {
            let Ok(line) = line else { break };
            let text = String::from_utf8_lossy(&line).trim_end_matches('\r').to_string();
            if tx.send((Instant::now(), text)).is_err() {
                break;
            }
        }
    });
    Ok((child, stdin, lines))
}

/// The engine under test.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Output lines with their arrival times (`spawn`).
    pub lines: Lines,
    pub exited: bool,
    /// When the last line was sent, and the latency deadline of the next expectation.
    pub sent: Instant,
    pub deadline: Option<Instant>,
}

impl Engine {
    pub fn start(args: &[String]) -> Result<Engine, String> {
        let (child, stdin, lines) = spawn(args)?;
        Ok(Engine {
            child,
            stdin: Some(stdin),
            lines,
            exited: false,
            sent: Instant::now(),
            deadline: None,
        })
    }

    /// Writes `text` and a newline in one write and flushes.
    pub fn send(&mut self, text: &str) -> Result<(), String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(b'\n');
        stdin
            .write_all(&bytes)
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot send '{}': {e}", text.chars().take(60).collect::<String>()))?;
        self.sent = Instant::now();
        Ok(())
    }

    /// The next output line; an error at EOF, at the timeout, or past a latency deadline.
    pub fn next(&mut self) -> Result<String, String> {
        let limit = self.deadline.map_or(TIMEOUT, |d| d.saturating_duration_since(Instant::now()));
        match self.lines.recv_timeout(limit) {
            Ok((_, line)) => Ok(line),
            Err(RecvTimeoutError::Timeout) if self.deadline.is_some() => Err("latency limit exceeded".to_string()),
            Err(RecvTimeoutError::Timeout) => Err(format!("no output within {TIMEOUT:?}")),
            Err(RecvTimeoutError::Disconnected) => Err("output ended".to_string()),
        }
    }

    /// Closes stdin and waits for a successful exit.
    pub fn close(&mut self) -> Result<(), String> {
        self.stdin = None;
        let t0 = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => {
                    self.exited = true;
                    return Ok(());
                }
                Ok(Some(status)) => return Err(format!("engine exited with {status}")),
                Ok(None) if t0.elapsed() > TIMEOUT => return Err("engine did not exit after EOF".to_string()),
                Ok(None) => thread::sleep(Duration::from_millis(10)),
                Err(e) => return Err(format!("cannot wait for the engine: {e}")),
            }
        }
    }
}

impl Engine {
    /// The engine's process id (to read its memory figures).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Skips lines until one equal to `line`; returns the lines skipped.
    pub fn skip_to(&mut self, line: &str) -> Result<Vec<String>, String> {
        let mut skipped = Vec::new();
        loop {
            let got = self.next().map_err(|e| format!("waiting for '{line}': {e}"))?;
            if got == line {
                return Ok(skipped);
            }
            skipped.push(got);
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if !self.exited {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

// The library's own test scratch folder, shared as source (the library keeps it out of its
// public API: it is compiled only for tests).
#[path = "../../src/scratch.rs"]
mod scratch;
#[allow(unused_imports)] // not every test crate makes scratch folders
pub(crate) use scratch::Scratch;
