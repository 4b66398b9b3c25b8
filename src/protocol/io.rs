//! Line I/O for the protocols: a reader thread that parses stdin and raises the stop flag,
//! and the single, flushing writer of stdout.
//!
//! The reader raises the stop flag itself the moment an interrupting command (NBoard `ping`,
//! a new position, `quit`, EOF) arrives, so a running search stops at once; the engine still
//! handles commands strictly in order, so the stopped search's last lines precede the `pong`.

use crossbeam_channel::{Receiver, unbounded};
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

/// What the reader delivers: a parsed line, or the end of input (which means quit).
#[derive(Debug)]
pub enum Input<T> {
    Line(T),
    Eof,
}

/// One queued input, with whether it must stop a running search.
#[derive(Debug)]
pub struct Message<T> {
    pub input: Input<T>,
    pub interrupting: bool,
}

/// The stop flag searches poll, kept raised while an interrupting command waits in the queue.
///
/// A bare flag would race: if the engine cleared it when taking a command, it could wipe out
/// the flag the reader had just raised for the next one. Counting the interrupting commands
/// still queued lets the engine clear the flag only when none is.
#[derive(Default, Debug)]
pub struct StopSignal {
    flag: AtomicBool,
    pending: AtomicUsize,
    /// Raised by every input, interrupting or not: what stops background work (a ponder, a
    /// `learn`), which must give way to any command.
    input: AtomicBool,
}

impl StopSignal {
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// The flag to hand to searches.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Reader side: an interrupting command is about to be queued.
    fn announce(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.flag.store(true, Ordering::SeqCst);
    }

    /// The flag background work polls: raised by the next input of any kind.
    pub fn input_flag(&self) -> &AtomicBool {
        &self.input
    }

    /// Engine side, before looking at the queue and starting background work: the input flag
    /// is lowered, so it only reports inputs queued from now on. (The reader raises it after
    /// queueing, so an input is always either seen in the queue or raises the flag later.)
    pub fn clear_input(&self) {
        self.input.store(false, Ordering::SeqCst);
    }

    /// Reader side: an input was queued.
    fn input_arrived(&self) {
        self.input.store(true, Ordering::SeqCst);
    }

    /// Engine side: an interrupting command was taken from the queue. Its flag has done its job
    /// (whatever it stopped has finished); keep the flag raised only if another one waits.
    pub fn taken(&self) {
        self.pending.fetch_sub(1, Ordering::SeqCst);
        self.flag.store(false, Ordering::SeqCst);
        // Re-check after clearing: a command announced in between must not lose its stop.
        if self.pending.load(Ordering::SeqCst) > 0 {
            self.flag.store(true, Ordering::SeqCst);
        }
    }
}

/// Strips the line terminator; invalid UTF-8 is replaced rather than fatal.
fn decode(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_end_matches(['\n', '\r']).to_string()
}

/// Starts the reader thread. `first` is a line already read (protocol detection) that is
/// delivered before the rest of `input`. The thread ends at EOF, on a read error, or when the
/// engine stops listening.
pub fn spawn_reader<T: Send + 'static>(
    first: Option<String>,
    mut input: impl BufRead + Send + 'static,
    parse: fn(&str) -> T,
    interrupts: fn(&T) -> bool,
    stop: Arc<StopSignal>,
) -> Receiver<Message<T>> {
    let (tx, rx) = unbounded();
    let send = move |input: Input<T>, interrupting: bool| {
        if interrupting {
            stop.announce();
        }
        let sent = tx.send(Message { input, interrupting }).is_ok();
        stop.input_arrived();
        sent
    };
    thread::spawn(move || {
        if let Some(line) = first {
            let item = parse(&line);
            let i = interrupts(&item);
            if !send(Input::Line(item), i) {
                return;
            }
        }
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    send(Input::Eof, true);
                    return;
                }
                Ok(_) => {
                    let line = decode(&buf);
                    log::debug!("< {line}");
                    let item = parse(&line);
                    let i = interrupts(&item);
                    if !send(Input::Line(item), i) {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// Reads lines until the first non-blank one (for protocol detection). None at EOF.
pub fn first_command_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {
                let line = decode(&buf);
                if !line.trim().is_empty() {
                    return Some(line);
                }
            }
        }
    }
}

/// Which protocol to speak.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProtocolKind {
    Nboard,
    Gtp,
}

/// NBoard always starts with `nboard N`; anything else is taken as GTP (where an unknown
/// first command at least gets a well-formed `? unknown command`).
pub fn detect(first_line: &str) -> ProtocolKind {
    let word = first_line.split_whitespace().next().unwrap_or("");
    if word.eq_ignore_ascii_case("nboard") {
        ProtocolKind::Nboard
    } else {
        ProtocolKind::Gtp
    }
}

/// The one owner of stdout: writes whole lines and flushes each (GUIs read through pipes).
/// A failed write (the GUI went away) marks the output broken and the engine loop ends.
pub struct Output {
    w: Box<dyn Write>,
    broken: bool,
}

impl Output {
    pub fn new(w: Box<dyn Write>) -> Output {
        Output { w, broken: false }
    }

    /// Writes `line` and a newline, then flushes.
    pub fn line(&mut self, line: &str) {
        log::debug!("> {line}");
        self.text(&format!("{line}\n"));
    }

    /// Writes `text` as is (GTP replies carry their own blank line), then flushes.
    pub fn text(&mut self, text: &str) {
        if self.broken {
            return;
        }
        if self.w.write_all(text.as_bytes()).and_then(|_| self.w.flush()).is_err() {
            self.broken = true;
        }
    }

    pub fn is_broken(&self) -> bool {
        self.broken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn stop_signal_stays_raised_while_interrupts_are_queued() {
        let s = StopSignal::new();
        assert!(!s.flag().load(Ordering::SeqCst));
        s.announce();
        s.announce();
        assert!(s.flag().load(Ordering::SeqCst));
        s.taken();
        assert!(s.flag().load(Ordering::SeqCst), "a second interrupt is still queued");
        s.taken();
        assert!(!s.flag().load(Ordering::SeqCst));
    }

    #[test]
    fn reader_delivers_lines_in_order_then_eof() {
        let stop = Arc::new(StopSignal::new());
        let input = Cursor::new(b"a\r\nstop\n\xff\xfe\nlast".to_vec());
        let rx = spawn_reader(Some("first".into()), input, |l| l.to_string(), |l| l == "stop", stop.clone());
        let got: Vec<_> = rx.iter().map(|m| (m.input, m.interrupting)).collect();
        let lines: Vec<String> = got
            .iter()
            .map(|(i, _)| match i {
                Input::Line(l) => l.clone(),
                Input::Eof => "<eof>".to_string(),
            })
            .collect();
        assert_eq!(lines, ["first", "a", "stop", "\u{fffd}\u{fffd}", "last", "<eof>"]);
        assert_eq!(got.iter().filter(|(_, i)| *i).count(), 2);
        assert!(stop.flag().load(Ordering::SeqCst));
    }

    #[test]
    fn detection_and_first_line() {
        let mut input = Cursor::new(b"\n  \nnboard 2\nping 1\n".to_vec());
        let first = first_command_line(&mut input).expect("a line");
        assert_eq!(first, "nboard 2");
        assert_eq!(detect(&first), ProtocolKind::Nboard);
        assert_eq!(detect("1 protocol_version"), ProtocolKind::Gtp);
        assert_eq!(detect("NBOARD 1"), ProtocolKind::Nboard);
        assert_eq!(first_command_line(&mut Cursor::new(b"\n\n".to_vec())), None);
    }

    /// A writer that fails, like a closed pipe.
    struct Closed;
    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn broken_output_is_noticed() {
        let mut out = Output::new(Box::new(Closed));
        out.line("pong 1");
        assert!(out.is_broken());
    }
}
