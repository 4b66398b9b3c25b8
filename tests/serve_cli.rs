//! `oxello serve` over real sockets: the local-only checks, the body limit, bad JSON, the
//! event stream's framing, and a server that goes on serving after each bad request.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server on a free port; killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oxello"))
        .args(["serve", "--port", "0", "--threads", "1", "--hash", "8"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a first line");
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Server { child, port }
}

/// Sends raw bytes; the whole answer (the server closes every connection).
fn raw(port: u16, request: &[u8]) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    // The server may answer (413) and close before it has read everything we send.
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn post(port: u16, path: &str, headers: &str, body: &str) -> String {
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(port, req.as_bytes())
}

fn status(answer: &str) -> &str {
    answer.get(9..12).unwrap_or("")
}

#[test]
fn only_local_pages_get_answers() {
    let s = start(&[]);
    let page = raw(
        s.port,
        format!("GET / HTTP/1.1\r\nHost: localhost:{}\r\n\r\n", s.port).as_bytes(),
    );
    assert_eq!(status(&page), "200", "{page}");
    assert!(page.contains("<title>oxello</title>"));
    // DNS rebinding: the right address under another name.
    let rebound = raw(s.port, b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n");
    assert_eq!(status(&rebound), "403", "{rebound}");
    assert!(
        rebound.ends_with(r#"{"error":"Host 'evil.example' is not this local server"}"#),
        "{rebound}"
    );
    let no_host = raw(s.port, b"GET / HTTP/1.1\r\n\r\n");
    assert_eq!(status(&no_host), "400", "{no_host}");
    let foreign = post(s.port, "/api/stop", "Origin: http://evil.example\r\n", "{}");
    assert_eq!(status(&foreign), "403", "{foreign}");
    let own = post(s.port, "/api/stop", &format!("Origin: http://127.0.0.1:{}\r\n", s.port), "{}");
    assert_eq!(status(&own), "200", "{own}");
}

#[test]
fn bad_requests_are_refused_and_the_server_goes_on() {
    let s = start(&[]);
    let big = "x".repeat(70_000);
    let answer = post(s.port, "/api/import", "", &big);
    assert_eq!(status(&answer), "413", "{answer}");
    assert_eq!(status(&post(s.port, "/api/state", "", "{\"moves\":")), "400");
    let answer = post(s.port, "/api/state", "", r#"{"moves":"f5e6"}"#);
    assert!(answer.contains("illegal move"), "{answer}");
    assert_eq!(status(&raw(s.port, b"\x00\xff garbage\r\n\r\n")), "400");
    assert_eq!(status(&raw(s.port, &[b'a'; 20_000])), "431");
    // A client that connects and says nothing does not stop the others.
    let _idle = TcpStream::connect(("127.0.0.1", s.port)).expect("connects");
    let answer = post(s.port, "/api/state", "", r#"{"moves":"f5"}"#);
    assert_eq!(status(&answer), "200", "{answer}");
    assert!(answer.contains(r#""toMove":"white""#), "{answer}");
}

#[test]
fn thinking_streams_as_server_sent_events() {
    let s = start(&["--no-book"]);
    let answer = post(s.port, "/api/analyze", "", r#"{"moves":"f5d6","level":4}"#);
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head");
    assert!(
        head.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"),
        "{head}"
    );
    let events: Vec<&str> = body.split_terminator("\n\n").collect();
    assert_eq!(events.first(), Some(&"event: book\ndata: []"), "{body}");
    let lines = events
        .iter()
        .filter(|e| e.starts_with("event: line\ndata: {\"move\":"))
        .count();
    assert_eq!(lines, 5 * 4, "five moves, four depths: {body}");
    let done = events.last().expect("events");
    assert!(done.starts_with("event: done\ndata: {\"move\":"), "{body}");
    assert!(events.iter().all(|e| e.lines().count() == 2), "{body}");
}
