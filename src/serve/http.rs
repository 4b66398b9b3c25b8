//! Just enough HTTP/1.1 for one local page: a request read with bounded head and body, the
//! local-only checks on Host and Origin, responses with a length, and Server-Sent Events.
//! Every response closes its connection, so there is no keep-alive state to get wrong.

use std::io::{BufRead, Read, Write};

/// The most a request line plus headers may take.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most a body may take: a GGF game is a few kilobytes.
pub const MAX_BODY: usize = 64 * 1024;

#[derive(Clone, PartialEq, Debug)]
pub struct Request {
    pub method: String,
    /// The path without the query string.
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// A request that cannot be served, as the status and message to answer it with.
#[derive(Clone, PartialEq, Debug)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

pub fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal {
        status,
        message: message.into(),
    }
}

/// Reads one line of the head, counting it against `budget`.
fn head_line(input: &mut impl BufRead, budget: &mut usize) -> Result<String, Refusal> {
    let mut line = Vec::new();
    // `take` bounds the read even when no newline ever comes.
    let n = Read::take(&mut *input, *budget as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(|e| refuse(400, format!("cannot read the request: {e}")))?;
    if n > *budget {
        return Err(refuse(431, "request head too large"));
    }
    if n == 0 || line.last() != Some(&b'\n') {
        return Err(refuse(400, "request ended early"));
    }
    *budget -= n;
    let text = String::from_utf8(line).map_err(|_| refuse(400, "request head is not UTF-8"))?;
    Ok(text.trim_end_matches(['\r', '\n']).to_string())
}

/// Reads a request: at most `MAX_HEAD` bytes of head and `MAX_BODY` of body (given by
/// Content-Length; chunked bodies are refused).
pub fn read_request(input: &mut impl BufRead) -> Result<Request, Refusal> {
    let mut budget = MAX_HEAD;
    let first = head_line(input, &mut budget)?;
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(refuse(400, "bad request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(refuse(505, "only HTTP/1.x is spoken here"));
    }
    let path = target.split('?').next().unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let line = head_line(input, &mut budget)?;
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').ok_or_else(|| refuse(400, "bad header line"))?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let mut req = Request {
        method: method.to_string(),
        path,
        headers,
        body: Vec::new(),
    };
    if req.header("transfer-encoding").is_some() {
        return Err(refuse(411, "send a Content-Length, not a chunked body"));
    }
    let length = match req.header("content-length") {
        None => 0,
        Some(v) => v.parse::<usize>().map_err(|_| refuse(400, "bad Content-Length"))?,
    };
    if length > MAX_BODY {
        return Err(refuse(413, format!("body of {length} bytes; the limit is {MAX_BODY}")));
    }
    req.body.resize(length, 0);
    input
        .read_exact(&mut req.body)
        .map_err(|_| refuse(400, "body shorter than its Content-Length"))?;
    Ok(req)
}

/// `host[:port]` split into the host (an IPv6 address keeps its brackets) and the port;
/// None when it is neither (e.g. `[::1]evil`, `localhost:80:x`).
fn split_authority(authority: &str) -> Option<(&str, Option<&str>)> {
    let (name, rest) = match authority.strip_prefix('[') {
        Some(v6) => {
            let end = v6.find(']')? + 2;
            authority.split_at(end)
        }
        None => authority.find(':').map_or((authority, ""), |i| authority.split_at(i)),
    };
    match rest.strip_prefix(':') {
        None if rest.is_empty() => Some((name, None)),
        Some(port) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => Some((name, Some(port))),
        _ => None,
    }
}

/// Who may talk to the server: pages served from it under a local name, or under the name
/// `--host` gave. Checking the names is what stops DNS rebinding: a page on evil.example whose
/// name was made to point at 127.0.0.1 still sends `Host: evil.example`.
#[derive(Clone, Debug)]
pub struct Access {
    /// Host names allowed besides localhost, 127.0.0.1 and [::1].
    pub extra_host: Option<String>,
    pub port: u16,
}

impl Access {
    fn is_allowed_name(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        matches!(name.as_str(), "localhost" | "127.0.0.1" | "[::1]")
            || self.extra_host.as_deref().is_some_and(|h| h.eq_ignore_ascii_case(&name))
    }

    /// Refuses a request whose Host is missing or not ours, or that comes from a page of
    /// another origin (browsers send Origin on cross-origin requests and on every POST).
    pub fn check(&self, req: &Request) -> Result<(), Refusal> {
        let host = req.header("host").ok_or_else(|| refuse(400, "no Host header"))?;
        if !split_authority(host).is_some_and(|(name, _)| self.is_allowed_name(name)) {
            return Err(refuse(403, format!("Host '{host}' is not this local server")));
        }
        if let Some(origin) = req.header("origin") {
            let port = self.port.to_string();
            let ok = origin
                .strip_prefix("http://")
                .and_then(split_authority)
                .is_some_and(|(name, p)| self.is_allowed_name(name) && p == Some(port.as_str()));
            if !ok {
                return Err(refuse(403, format!("Origin '{origin}' is not this local server")));
            }
        }
        Ok(())
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

/// Headers every response carries: no caching, no sniffing, no framing by other sites.
const COMMON: &str =
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nConnection: close\r\n";

/// Writes a whole response.
pub fn respond(out: &mut impl Write, status: u16, content_type: &str, body: &[u8]) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{COMMON}\r\n",
        reason(status),
        body.len()
    )?;
    out.write_all(body)?;
    out.flush()
}

/// Starts a Server-Sent Events response; `event` writes its events.
pub fn start_events(out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{COMMON}\r\n")?;
    out.flush()
}

/// One event: its name and its data (a `data:` line per line of `data`), flushed at once so
/// the page sees each search report when it comes.
pub fn event(out: &mut impl Write, name: &str, data: &str) -> std::io::Result<()> {
    let mut frame = format!("event: {name}\n");
    for line in data.split('\n') {
        frame += &format!("data: {line}\n");
    }
    frame.push('\n');
    out.write_all(frame.as_bytes())?;
    out.flush()
}

/// A comment line: keeps the stream alive and finds out whether the reader went away.
pub fn keep_alive(out: &mut impl Write) -> std::io::Result<()> {
    out.write_all(b": still thinking\n\n")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> Result<Request, Refusal> {
        read_request(&mut std::io::BufReader::new(text))
    }

    #[test]
    fn a_request_with_a_body() {
        let r =
            read(b"POST /api/state?x=1 HTTP/1.1\r\nHost: localhost:8080\r\nContent-Length: 4\r\n\r\n{}\r\nextra").expect("valid");
        assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/api/state"));
        assert_eq!(r.header("host"), Some("localhost:8080"));
        assert_eq!(r.body, b"{}\r\n");
    }

    #[test]
    fn heads_and_bodies_are_bounded() {
        let status = |t: &[u8]| read(t).err().map(|r| r.status);
        let big_header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(status(big_header.as_bytes()), Some(431));
        let endless = "a".repeat(MAX_HEAD * 2);
        assert_eq!(status(endless.as_bytes()), Some(431));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(MAX_HEAD / 6 + 1));
        assert_eq!(status(many.as_bytes()), Some(431));
        let body = format!("POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n", MAX_BODY + 1);
        assert_eq!(status(body.as_bytes()), Some(413));
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            Some(400)
        );
        assert_eq!(status(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"), Some(400));
        assert_eq!(status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), Some(411));
        assert_eq!(status(b"GET / HTTP/1.1\r\nno colon\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET /\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET / HTTP/2\r\n\r\n"), Some(505));
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: x"), Some(400));
        assert_eq!(status(b""), Some(400));
        assert_eq!(status(b"GET / HTTP/1.1\r\nX: \xff\r\n\r\n"), Some(400));
    }

    fn with(headers: &[(&str, &str)]) -> Request {
        Request {
            method: "GET".into(),
            path: "/".into(),
            headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
            body: Vec::new(),
        }
    }

    #[test]
    fn only_local_hosts_and_origins_get_in() {
        let access = Access {
            extra_host: None,
            port: 8080,
        };
        let ok = |h: &[(&str, &str)]| access.check(&with(h)).is_ok();
        assert!(ok(&[("host", "localhost:8080")]));
        assert!(ok(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")]));
        assert!(ok(&[("host", "[::1]:8080"), ("origin", "http://[::1]:8080")]));
        assert!(ok(&[("host", "LOCALHOST")]));
        assert!(!ok(&[]));
        assert!(!ok(&[("host", "evil.example:8080")]));
        assert!(!ok(&[("host", "localhost.evil.example")]));
        assert!(!ok(&[("host", "127.0.0.1.nip.io:8080")]));
        assert!(!ok(&[("host", "localhost:8080"), ("origin", "http://evil.example")]));
        assert!(!ok(&[("host", "localhost:8080"), ("origin", "http://localhost:9999")]));
        assert!(!ok(&[("host", "localhost:8080"), ("origin", "null")]));
        assert!(!ok(&[("host", "localhost:8080"), ("origin", "https://localhost:8080")]));
        assert!(!ok(&[("host", "[::1]evil:8080")]));
        assert!(!ok(&[("host", "localhost:80:x")]));
        assert!(!ok(&[("host", "localhost:8080"), ("origin", "http://localhost:x:8080")]));
        let lan = Access {
            extra_host: Some("192.168.1.5".into()),
            port: 8080,
        };
        assert!(
            lan.check(&with(&[("host", "192.168.1.5:8080"), ("origin", "http://192.168.1.5:8080")]))
                .is_ok()
        );
        assert!(lan.check(&with(&[("host", "evil.example")])).is_err());
    }

    #[test]
    fn events_are_framed_one_data_line_per_line() {
        let mut out = Vec::new();
        event(&mut out, "info", "{\"a\":1}").expect("written");
        event(&mut out, "note", "two\nlines").expect("written");
        keep_alive(&mut out).expect("written");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "event: info\ndata: {\"a\":1}\n\nevent: note\ndata: two\ndata: lines\n\n: still thinking\n\n"
        );
        let mut head = Vec::new();
        start_events(&mut head).expect("written");
        let head = String::from_utf8_lossy(&head);
        assert!(
            head.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"),
            "{head}"
        );
        assert!(head.ends_with("\r\n\r\n") && !head.contains("Content-Length"), "{head}");
    }
}
