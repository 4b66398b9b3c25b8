//! An engine process: lines in through its stdin, lines out through a reader thread, so no
//! read can block the runner past a deadline, whatever the engine does.

use crossbeam_channel::{Receiver, RecvTimeoutError};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Lines of an engine's stderr kept for the message when it crashes (an engine that cannot
/// start usually says why there, and the last lines are the ones that name it).
const STDERR_KEPT: usize = 3;
const STDERR_LINE_CHARS: usize = 300;

/// The tail of an engine's stderr, and whether the engine has closed it.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    closed: bool,
}

pub struct Process {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<StderrTail>>,
}

impl Process {
    /// Starts `command` (split on white space; no shell).
    pub fn spawn(name: &str, command: &str) -> Result<Process, String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (prog, args) = words.split_first().ok_or("empty command")?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start '{prog}': {e}"))?;
        let stdin = child.stdin.take().ok_or_else(|| format!("{name}: no stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| format!("{name}: no stdout"))?;
        let errout = child.stderr.take().ok_or_else(|| format!("{name}: no stderr"))?;
        // Always read stderr, so a chatty engine never blocks on a full pipe.
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            // Bytes, not `lines()`: text that is not UTF-8 must not stop the reading.
            let mut reader = BufReader::new(errout);
            let mut buf = Vec::new();
            while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                // A line is kept to its first STDERR_LINE_CHARS characters: a message, not a dump.
                let l: String = String::from_utf8_lossy(&buf)
                    .trim_end()
                    .chars()
                    .take(STDERR_LINE_CHARS)
                    .collect();
                buf.clear();
                let mut t = tail.lock();
                if t.lines.len() == STDERR_KEPT {
                    t.lines.pop_front();
                }
                t.lines.push_back(l);
            }
            tail.lock().closed = true;
        });
        let (tx, lines) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            name: name.to_string(),
            child,
            stdin,
            lines,
            stderr,
        })
    }

    /// "NAME crashed", with the last lines the engine wrote to stderr. Its stdout is closed,
    /// so stderr closes at about the same time: wait briefly for its last lines.
    fn crashed(&self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        while !self.stderr.lock().closed && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let tail = self.stderr.lock();
        let said: Vec<&str> = tail.lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
        if said.is_empty() {
            format!("{} crashed", self.name)
        } else {
            format!("{} crashed; its stderr ended: {}", self.name, said.join(" / "))
        }
    }

    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.crashed())
    }

    /// The next output line (trimmed), or why none came before `deadline`; `waiting_for`
    /// names the command in the error.
    pub fn recv(&self, deadline: Instant, waiting_for: &str) -> Result<String, String> {
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(l) => Ok(l.trim().to_string()),
            Err(RecvTimeoutError::Timeout) => Err(format!("{} timed out on '{waiting_for}'", self.name)),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// Lines already written or arriving within `wait`, up to a blank line (GTP's response end).
    pub fn drain_response(&self, wait: Duration) {
        while let Ok(l) = self.lines.recv_timeout(wait) {
            if l.trim().is_empty() {
                break;
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
