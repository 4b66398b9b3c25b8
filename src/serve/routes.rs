//! What each address does. The page keeps the game (its moves) and sends it with every
//! request, so the server holds no game state: every answer follows from the request alone,
//! and the rules, notation and GGF are the engine's own.

use super::http::{self, Refusal, Request, refuse};
use super::worker::{Decision, Event, Task, Worker};
use crate::board::notation::{format_position, parse_position};
use crate::board::{Color, Position, Square};
use crate::engine::{ThinkInfo, UserClock, fixed_budget, move_budget};
use crate::game::{Game, Ply};
use crate::ggf::GgfGame;
use crate::json::Json;
use crossbeam_channel::RecvTimeoutError;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

const PAGE: &str = include_str!("page.html");

/// How often a quiet event stream is written to, to find out whether the page still listens.
const KEEP_ALIVE: Duration = Duration::from_secs(2);

/// Answers one request on `out`.
pub fn handle(req: &Request, worker: &Worker, out: &mut impl Write) -> std::io::Result<()> {
    let r = match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/") => return http::respond(out, 200, "text/html; charset=utf-8", page(worker.clock).as_bytes()),
        ("POST", "/api/move" | "/api/analyze") => match think_request(req, worker.clock) {
            Ok((pos, level, task)) => return stream(worker, pos, level, task, out),
            Err(e) => Err(e),
        },
        ("POST", "/api/state") => body(req).and_then(|b| game(&b)).map(|g| state(&g)),
        ("POST", "/api/import") => body(req).and_then(|b| import(&b)).map(|g| state(&g)),
        ("POST", "/api/export") => body(req).and_then(|b| export(&b)),
        ("POST", "/api/stop") => {
            worker.stop();
            Ok(Json::obj([("stopped", Json::Bool(true))]))
        }
        (_, "/" | "/api/move" | "/api/analyze" | "/api/state" | "/api/import" | "/api/export" | "/api/stop") => {
            Err(refuse(405, format!("{} is not allowed on {}", req.method, req.path)))
        }
        _ => Err(refuse(404, format!("nothing at {}", req.path))),
    };
    match r {
        Ok(json) => http::respond(out, 200, "application/json", json.to_string().as_bytes()),
        Err(e) => error(out, &e),
    }
}

/// A refusal as a JSON `{"error": ...}` answer.
pub fn error(out: &mut impl Write, e: &Refusal) -> std::io::Result<()> {
    let body = Json::obj([("error", Json::str(e.message.clone()))]).to_string();
    http::respond(out, e.status, "application/json", body.as_bytes())
}

fn body(req: &Request) -> Result<Json, Refusal> {
    let text = std::str::from_utf8(&req.body).map_err(|_| refuse(400, "the body is not UTF-8"))?;
    let json = Json::parse(text).map_err(|e| refuse(400, e))?;
    match json {
        Json::Obj(_) => Ok(json),
        _ => Err(refuse(400, "the body must be a JSON object")),
    }
}

/// An optional string field.
fn text<'a>(b: &'a Json, key: &str) -> Result<Option<&'a str>, Refusal> {
    match b.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Str(s)) => Ok(Some(s)),
        Some(_) => Err(refuse(400, format!("'{key}' must be a string"))),
    }
}

/// An optional number field within `range`.
fn number(b: &Json, key: &str, range: std::ops::RangeInclusive<f64>) -> Result<Option<f64>, Refusal> {
    match b.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Num(n)) if range.contains(n) => Ok(Some(*n)),
        Some(_) => Err(refuse(
            400,
            format!("'{key}' must be a number from {} to {}", range.start(), range.end()),
        )),
    }
}

/// The game of a request: `start` (a board string; default the initial position) and `moves`
/// (a transcript; forced passes may be left out). A forced pass at the end is played, so the
/// side to move always has a move unless the game is over.
fn game(b: &Json) -> Result<Game, Refusal> {
    let start = match text(b, "start")? {
        Some(s) => parse_position(s).map_err(|e| refuse(400, format!("start: {e}")))?,
        None => Position::start(),
    };
    let moves = text(b, "moves")?.unwrap_or("");
    let mut g = Game::from_transcript(start, moves).map_err(|e| refuse(400, format!("moves: {e}")))?;
    if !g.is_over() && g.position().board.moves() == 0 {
        g.play(Ply::bare(Square::Pass)).map_err(|e| refuse(400, e.to_string()))?;
    }
    Ok(g)
}

fn squares(bits: u64) -> Json {
    Json::Arr(
        (0..64)
            .filter(|i| bits >> i & 1 != 0)
            .map(|i| Json::str(Square::At(i).to_string()))
            .collect(),
    )
}

fn colour(c: Color) -> Json {
    Json::str(match c {
        Color::Black => "black",
        Color::White => "white",
    })
}

/// The moves of a game as a transcript with its passes (`pa`).
fn transcript(g: &Game) -> String {
    g.plies().iter().map(|p| p.mv.to_string()).collect()
}

/// Everything the page draws: the board, whose move, the legal moves, the discs, the result.
fn state(g: &Game) -> Json {
    let pos = g.position();
    let (b, w) = pos.black_white();
    let over = g.is_over();
    let last = g.plies().last().map(|p| p.mv);
    let board: String = format_position(&pos).chars().take(64).collect();
    Json::obj([
        ("start", Json::str(format_position(&g.start()))),
        ("moves", Json::str(transcript(g))),
        ("board", Json::str(board)),
        ("toMove", colour(pos.to_move)),
        ("legal", squares(if over { 0 } else { pos.board.moves() })),
        ("last", last.map_or(Json::Null, |m| Json::str(m.to_string()))),
        ("black", Json::Num(f64::from(b.count_ones()))),
        ("white", Json::Num(f64::from(w.count_ones()))),
        ("over", Json::Bool(over)),
        // Black's discs minus White's, empties to the winner.
        (
            "result",
            if over {
                Json::Num(f64::from(g.final_score()))
            } else {
                Json::Null
            },
        ),
    ])
}

/// A game from `text`: a GGF record or a transcript.
fn import(b: &Json) -> Result<Game, Refusal> {
    let t = text(b, "text")?.unwrap_or("").trim();
    if t.contains("(;") {
        GgfGame::parse(t)
            .map(|g| g.game)
            .map_err(|e| refuse(400, format!("GGF: {e}")))
    } else {
        Game::from_transcript(Position::start(), t)
            .map_err(|e| refuse(400, format!("{e} (expected a transcript such as f5d6c3, or a GGF game)")))
    }
}

/// The game as a transcript (forced passes left out) and as GGF, with the players' names.
fn export(b: &Json) -> Result<Json, Refusal> {
    let g = game(b)?;
    let moves: String = g
        .plies()
        .iter()
        .filter(|p| p.mv != Square::Pass)
        .map(|p| p.mv.to_string())
        .collect();
    let mut ggf = GgfGame::new(g);
    ggf.black_name = text(b, "black")?.map(str::to_string);
    ggf.white_name = text(b, "white")?.map(str::to_string);
    Ok(Json::obj([("transcript", Json::str(moves)), ("ggf", Json::str(ggf.write()))]))
}

/// The position, level and task of `/api/move` (`clock`: the engine's seconds left for the
/// game, none or 0 for no clock) or `/api/analyze`.
/// The page, its clock preset to `--game-time` when one was given.
fn page(clock: UserClock) -> String {
    match clock {
        UserClock::GameTime(s) => PAGE.replace(
            r#"id="clock-minutes" type="number" min="0" max="600" step="0.5" value="0""#,
            &format!(
                r#"id="clock-minutes" type="number" min="0" max="600" step="0.5" value="{}""#,
                s / 60.0
            ),
        ),
        _ => PAGE.to_string(),
    }
}

fn think_request(req: &Request, default: UserClock) -> Result<(Position, u32, Task), Refusal> {
    let b = body(req)?;
    let g = game(&b)?;
    let chosen = number(&b, "level", 0.0..=60.0)?;
    let level = chosen.unwrap_or(12.0) as u32;
    let task = if req.path == "/api/move" {
        let clock = number(&b, "clock", 0.0..=1e6)?.filter(|&c| c > 0.0);
        let empties = g.position().board.empty_count();
        // No level chosen (the page's "clock" entry) and a clock: the clock decides the depth.
        let time = match (clock, default) {
            (Some(c), _) => Some(move_budget(c, 0.0, None, empties)),
            (None, UserClock::MoveTime(s)) => Some(fixed_budget(s)),
            (None, _) => None,
        };
        Task::Move {
            time,
            by_clock: chosen.is_none() && time.is_some(),
        }
    } else {
        Task::Analyze
    };
    Ok((g.position(), level, task))
}

fn moves_text(pv: &[Square]) -> Json {
    Json::Arr(pv.iter().map(|m| Json::str(m.to_string())).collect())
}

/// A search line: the move it values (first of its PV), value, depth, PV, nodes.
fn line(i: &ThinkInfo) -> Json {
    Json::obj([
        ("move", i.pv.first().map_or(Json::Null, |m| Json::str(m.to_string()))),
        ("score", Json::Num(i.score)),
        ("depth", Json::str(i.depth.to_string())),
        ("pv", moves_text(&i.pv)),
        ("nodes", Json::Num(i.nodes as f64)),
        ("seconds", Json::Num(i.seconds)),
    ])
}

fn decision(d: &Option<Decision>) -> Json {
    match d {
        None => Json::obj([("over", Json::Bool(true))]),
        Some(d) => Json::obj([
            ("move", Json::str(d.best.to_string())),
            ("score", Json::Num(d.score)),
            ("depth", d.depth.map_or(Json::Null, |x| Json::str(x.to_string()))),
            ("book", Json::Bool(d.depth.is_none())),
            ("pv", moves_text(&d.pv)),
        ]),
    }
}

/// Streams a job's reports as events `book`, `line` and finally `done`. A page that goes away
/// stops its search: the next write (a report or the keep-alive) fails.
fn stream(worker: &Worker, pos: Position, level: u32, task: Task, out: &mut impl Write) -> std::io::Result<()> {
    let job = worker.submit(pos, level, task);
    let stop_on_error = |r: std::io::Result<()>| {
        if r.is_err() {
            job.stop.store(true, Ordering::SeqCst);
        }
        r
    };
    stop_on_error(http::start_events(out))?;
    loop {
        let r = match job.events.recv_timeout(KEEP_ALIVE) {
            Ok(Event::Book(lines)) => {
                let book = lines.iter().map(line).collect();
                http::event(out, "book", &Json::Arr(book).to_string())
            }
            Ok(Event::Line(i)) => http::event(out, "line", &line(&i).to_string()),
            Ok(Event::Done(d)) => return stop_on_error(http::event(out, "done", &decision(&d).to_string())),
            Err(RecvTimeoutError::Timeout) => http::keep_alive(out),
            // Replaced by a later request before it started.
            Err(RecvTimeoutError::Disconnected) => {
                return http::event(out, "done", &Json::obj([("superseded", Json::Bool(true))]).to_string());
            }
        };
        stop_on_error(r)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::book::EngineBook;
    use crate::engine::searcher::SearchThinker;
    use crate::eval::Evaluator;
    use crate::search::levels::Levels;

    fn worker() -> Worker {
        let eval = Evaluator::embedded().expect("weights");
        let thinker = SearchThinker::new(8, Box::new(eval), Levels::embedded().expect("levels"), 1);
        Worker::start(Box::new(thinker), EngineBook::default()).expect("thread")
    }

    fn post(path: &str, body: &str) -> Request {
        Request {
            method: "POST".into(),
            path: path.into(),
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        }
    }

    /// The status and body of the answer to `req`.
    fn answer(w: &Worker, req: &Request) -> (u16, String) {
        let mut out = Vec::new();
        handle(req, w, &mut out).expect("written");
        let text = String::from_utf8(out).expect("UTF-8");
        let status = text[9..12].parse().expect("a status");
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
        (status, body)
    }

    #[test]
    fn the_state_of_a_game() {
        let w = worker();
        let (status, body) = answer(&w, &post("/api/state", r#"{"moves":"f5d6"}"#));
        assert_eq!(status, 200, "{body}");
        let s = Json::parse(&body).expect("JSON");
        assert_eq!(s.get("toMove"), Some(&Json::str("black")));
        assert_eq!(s.get("last"), Some(&Json::str("d6")));
        assert_eq!(s.get("black").and_then(Json::as_f64), Some(3.0));
        let legal = s.get("legal").expect("legal moves");
        assert_eq!(legal, &Json::Arr(["c3", "c4", "c5", "c6", "c7"].map(Json::str).to_vec()));
    }

    #[test]
    fn bad_requests_get_clear_errors() {
        let w = worker();
        for (path, body, status, says) in [
            ("/api/state", "{", 400, "bad JSON"),
            ("/api/state", "[1]", 400, "must be a JSON object"),
            ("/api/state", r#"{"moves":5}"#, 400, "'moves' must be a string"),
            ("/api/state", r#"{"moves":"f5f5"}"#, 400, "illegal move"),
            ("/api/state", r#"{"moves":"zz"}"#, 400, "bad square"),
            ("/api/state", r#"{"start":"XO"}"#, 400, "start: "),
            ("/api/move", r#"{"level":99}"#, 400, "'level' must be a number from 0 to 60"),
            ("/api/move", r#"{"clock":-1}"#, 400, "'clock'"),
            ("/api/import", r#"{"text":"(;GM[Chess];)"}"#, 400, "GGF: "),
            ("/api/import", r#"{"text":"hello"}"#, 400, "expected a transcript"),
            ("/nowhere", "", 404, "nothing at /nowhere"),
        ] {
            let (s, b) = answer(&w, &post(path, body));
            assert_eq!(s, status, "{path} {body}: {b}");
            let message = Json::parse(&b)
                .ok()
                .and_then(|j| j.get("error").and_then(Json::as_str).map(str::to_string));
            assert!(message.as_deref().is_some_and(|m| m.contains(says)), "{path} {body}: {b}");
        }
        let get = Request {
            method: "GET".into(),
            ..post("/api/state", "")
        };
        assert_eq!(answer(&w, &get).0, 405);
        // The server still answers.
        assert_eq!(answer(&w, &post("/api/state", "{}")).0, 200);
    }

    #[test]
    fn import_and_export_go_round() {
        let w = worker();
        let (s, b) = answer(
            &w,
            &post("/api/export", r#"{"moves":"f5d6c3","black":"me","white":"oxello"}"#),
        );
        assert_eq!(s, 200, "{b}");
        let e = Json::parse(&b).expect("JSON");
        assert_eq!(e.get("transcript"), Some(&Json::str("f5d6c3")));
        let ggf = e.get("ggf").and_then(Json::as_str).expect("GGF").to_string();
        assert!(ggf.contains("PB[me]") && ggf.contains("B[F5]"), "{ggf}");
        let body = Json::obj([("text", Json::str(ggf))]).to_string();
        let (s, b) = answer(&w, &post("/api/import", &body));
        assert_eq!(s, 200, "{b}");
        assert_eq!(Json::parse(&b).expect("JSON").get("moves"), Some(&Json::str("f5d6c3")));
    }

    #[test]
    fn a_move_streams_lines_then_the_decision() {
        let w = worker();
        let (s, b) = answer(&w, &post("/api/move", r#"{"moves":"f5","level":4}"#));
        assert_eq!(s, 200, "{b}");
        let events: Vec<&str> = b.split("\n\n").filter(|e| !e.is_empty()).collect();
        assert!(events.len() >= 3, "{b}");
        assert!(
            events[..events.len() - 1]
                .iter()
                .all(|e| e.starts_with("event: line\ndata: {")),
            "{b}"
        );
        let done = events
            .last()
            .and_then(|e| e.strip_prefix("event: done\ndata: "))
            .expect("done last");
        let d = Json::parse(done).expect("JSON");
        let mv = d.get("move").and_then(Json::as_str).expect("a move");
        assert!(["d6", "f6", "f4"].contains(&mv), "{done}");
        // Analysis: the book first (empty here), then lines for all three moves.
        let (_, b) = answer(&w, &post("/api/analyze", r#"{"moves":"f5","level":3}"#));
        assert!(b.starts_with("event: book\ndata: []\n\n"), "{b}");
        for mv in ["d6", "f6", "f4"] {
            assert!(b.contains(&format!("\"move\":\"{mv}\"")), "{b}");
        }
        // A finished game: done at once.
        let (_, b) = answer(&w, &post("/api/move", &format!(r#"{{"start":"{} X"}}"#, "X".repeat(64))));
        assert_eq!(b, "event: done\ndata: {\"over\":true}\n\n");
    }
}
