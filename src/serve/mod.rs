//! `oxello serve`: the analysis board in the browser. A small HTTP/1.1 server of our own on
//! std::net (one page, a few JSON calls and event streams; a framework would be most of the
//! binary) in front of one search thread.
//!
//! Threads: the accepting loop, one short-lived thread per connection (at most
//! `MAX_CONNECTIONS`), and the search thread of `worker`. Connections only parse, check and
//! format; the search thread only searches and reports.

pub mod http;
pub mod routes;
pub mod worker;

use crate::engine::Think;
use crate::engine::book::EngineBook;
use std::io::BufReader;
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use worker::Worker;

/// Connections served at once; more get a 503 (a page needs two or three).
const MAX_CONNECTIONS: usize = 32;

/// How long a client may take to send its request, or to take a chunk of the answer.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// Where to listen.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    /// 0: any free port.
    pub port: u16,
    /// `--game-time` (the page's clock to start with) or `--move-time` (each move's time when
    /// the page's clock is off).
    pub clock: crate::engine::UserClock,
}

/// The listening server; `run` serves until the process ends.
pub struct Server {
    listener: TcpListener,
    access: http::Access,
    worker: Arc<Worker>,
}

impl Server {
    pub fn bind(config: &Config, thinker: Box<dyn Think + Send>, book: EngineBook) -> std::io::Result<Server> {
        let listener = TcpListener::bind((config.host.as_str(), config.port))?;
        let port = listener.local_addr()?.port();
        // A loopback address needs no other name; any other is what the page is opened under.
        let loopback = config.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback()) || config.host == "localhost";
        let extra_host = (!loopback).then(|| match config.host.parse::<IpAddr>() {
            Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
            _ => config.host.clone(),
        });
        Ok(Server {
            listener,
            access: http::Access { extra_host, port },
            worker: Arc::new(Worker::start(thinker, book)?.with_clock(config.clock)),
        })
    }

    /// The page's address.
    pub fn url(&self) -> String {
        let host = self.access.extra_host.as_deref().unwrap_or("127.0.0.1");
        format!("http://{host}:{}/", self.access.port)
    }

    /// Accepts connections until the listener fails.
    pub fn run(self) -> std::io::Result<()> {
        let active = Arc::new(AtomicUsize::new(0));
        for stream in self.listener.incoming() {
            let mut stream = match stream {
                Ok(s) => s,
                // E.g. out of file descriptors: refuse this one, keep serving.
                Err(e) => {
                    log::warn!(target: "oxello", "cannot accept a connection: {e}");
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
            };
            let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
            let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
            if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                active.fetch_sub(1, Ordering::SeqCst);
                let _ = routes::error(&mut stream, &http::refuse(503, "too many connections"));
                continue;
            }
            let (access, worker, done) = (self.access.clone(), self.worker.clone(), active.clone());
            let spawned = std::thread::Builder::new().name("connection".into()).spawn(move || {
                if let Err(e) = connection(&stream, &access, &worker) {
                    log::debug!(target: "oxello", "connection: {e}");
                }
                done.fetch_sub(1, Ordering::SeqCst);
            });
            if let Err(e) = spawned {
                active.fetch_sub(1, Ordering::SeqCst);
                log::warn!(target: "oxello", "cannot start a connection thread: {e}");
            }
        }
        Ok(())
    }
}

/// Reads, checks and answers one request.
fn connection(stream: &TcpStream, access: &http::Access, worker: &Worker) -> std::io::Result<()> {
    let mut out = stream;
    let request = http::read_request(&mut BufReader::new(stream)).and_then(|r| access.check(&r).map(|()| r));
    match request {
        Ok(r) => {
            log::info!(target: "oxello", "{} {}", r.method, r.path);
            routes::handle(&r, worker, &mut out)
        }
        Err(e) => {
            log::info!(target: "oxello", "refused: {} {}", e.status, e.message);
            routes::error(&mut out, &e)
        }
    }
}

/// Opens `url` in the desktop's browser; an error says why not.
pub fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
}
