//! Terminal play (`oxello play`): a person against the engine, one command per line.

use super::book::EngineBook;
use super::{Think, ThinkInfo, ThinkRequest, UserClock, fixed_budget, move_budget, think_position};
use crate::base::SearchDepth;
use crate::board::notation::{Square, render};
use crate::board::{Color, Position};
use crate::game::{Game, Ply};
use crate::ggf::GgfGame;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const HELP: &str = "commands: a move (f5), pass, undo, redo, hint, level N, time SECONDS (engine clock per game, 0 = none), \
movetime SECONDS (engine time per move, 0 = none; without a level set the clock decides the depth), \
swap, new, save FILE, load FILE (transcript or GGF), board, help, quit";

/// How the output looks. Both are for a person at a terminal; piped output (and the tests)
/// get plain, line-based text.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Style {
    /// ANSI colours on the board and the engine's messages.
    pub colour: bool,
    /// The engine's thinking on one line rewritten in place (carriage returns) instead of a
    /// line per depth.
    pub live: bool,
}

impl Style {
    /// The style for an output that is (or is not) a terminal, given the value of the
    /// `NO_COLOR` environment variable: any non-empty value turns colours off
    /// (<https://no-color.org>), not the updating line.
    pub fn detect(is_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> Style {
        Style {
            colour: is_terminal && no_color.is_none_or(|v| v.is_empty()),
            live: is_terminal,
        }
    }

    /// `text` in the ANSI style `code` (e.g. `1;31`), or as it is without colours.
    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// ANSI styles: black discs, white discs, legal-move marks, empty squares and coordinates,
/// the engine's move, book moves.
const BLACK: &str = "1;31";
const WHITE: &str = "1;36";
const LEGAL: &str = "32";
const DIM: &str = "2";
const STRONG: &str = "1";
const BOOK: &str = "33";

/// The longest updating line: wider lines would wrap, and a carriage return only goes back
/// to the start of the last screen line.
const LIVE_WIDTH: usize = 79;

/// Where the engine's thinking goes: one line per report, or (live) one line rewritten.
struct Progress<'o> {
    out: &'o mut dyn Write,
    live: bool,
    /// Whether non-live reports are printed (the engine's move) or dropped (hints print their
    /// own summary).
    lines: bool,
    /// Characters of the live line on screen.
    width: usize,
    error: Option<std::io::Error>,
}

impl Progress<'_> {
    fn report(&mut self, text: &str) {
        let r = if self.live {
            let shown: String = format!("thinking:{text}").chars().take(LIVE_WIDTH).collect();
            let pad = self.width;
            self.width = shown.chars().count();
            write!(self.out, "\r{shown:<pad$}").and_then(|()| self.out.flush())
        } else if self.lines {
            writeln!(self.out, "{text}")
        } else {
            Ok(())
        };
        if let Err(e) = r {
            self.error.get_or_insert(e);
        }
    }

    /// Clears the live line; the first write error, if any.
    fn finish(mut self) -> std::io::Result<()> {
        if self.live && self.width > 0 {
            let width = self.width;
            if let Err(e) = write!(self.out, "\r{:width$}\r", "") {
                self.error.get_or_insert(e);
            }
        }
        self.error.map_or(Ok(()), Err)
    }
}

/// What a search depth means, in words.
fn depth_label(d: SearchDepth) -> String {
    match d {
        SearchDepth::Plies(n) => format!("depth {n}"),
        SearchDepth::Selective { depth, percent } => format!("depth {depth}@{percent}%"),
        SearchDepth::Exact => "exact solve".into(),
        SearchDepth::Wld => "win/loss/draw solve".into(),
        SearchDepth::ProbableWld { percent } => format!("{percent}% win/loss/draw solve"),
    }
}

fn pv_text(pv: &[Square]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "X (black)",
        Color::White => "O (white)",
    }
}

/// One report of the engine's search: depth, score, nodes, line.
fn thinking_line(i: &ThinkInfo) -> String {
    let odds = i.odds.map(|o| format!(" {o}")).unwrap_or_default();
    format!(
        "  {:<14} score {:+6.2}{odds} nodes {:>10}  {}",
        depth_label(i.depth),
        i.score,
        i.nodes,
        pv_text(&i.pv)
    )
}

pub struct Terminal<'a> {
    thinker: &'a mut dyn Think,
    game: Game,
    level: u32,
    engine: Color,
    engine_clock: Option<Duration>,
    /// The game clock's start, to refill it for a new game.
    clock_start: Option<Duration>,
    /// Seconds a move (`--move-time`, `time S move`), when no game clock is set.
    move_time: Option<f64>,
    /// The level was chosen (`--level`, `level N`): under a clock it caps the search; without
    /// one the clock decides.
    level_explicit: bool,
    book: EngineBook,
    style: Style,
    /// The risk-aware style's confidence in percent; None: the ordinary search.
    risk: Option<u32>,
}

impl<'a> Terminal<'a> {
    pub fn new(thinker: &'a mut dyn Think, level: u32) -> Terminal<'a> {
        Terminal {
            thinker,
            game: Game::new(Position::start()),
            level,
            engine: Color::White,
            engine_clock: None,
            clock_start: None,
            move_time: None,
            level_explicit: false,
            book: EngineBook::default(),
            style: Style::default(),
            risk: None,
        }
    }

    /// `--move-time` / `--game-time`, and whether `--level` was given.
    pub fn with_clock(self, clock: UserClock, level_explicit: bool) -> Terminal<'a> {
        let (engine_clock, move_time) = match clock {
            UserClock::None => (None, None),
            UserClock::MoveTime(s) => (None, Some(s)),
            UserClock::GameTime(s) => (Some(crate::time::seconds(s)), None),
        };
        Terminal {
            engine_clock,
            clock_start: engine_clock,
            move_time,
            level_explicit,
            ..self
        }
    }

    /// Thinks in the risk-aware style at this confidence (`--risk`).
    pub fn with_risk(self, risk: Option<u32>) -> Terminal<'a> {
        Terminal { risk, ..self }
    }

    /// Plays book moves while the position is in `book`.
    pub fn with_book(self, book: EngineBook) -> Terminal<'a> {
        Terminal { book, ..self }
    }

    /// Colours and the updating thinking line (default: neither).
    pub fn with_style(self, style: Style) -> Terminal<'a> {
        Terminal { style, ..self }
    }

    /// The board with coordinates, `.` on the legal moves; in colour, the last move underlined.
    fn board_text(&self, pos: &Position) -> String {
        let st = self.style;
        if !st.colour {
            return render(pos);
        }
        let (black, white) = pos.black_white();
        let legal = pos.board.moves();
        let last = match self.game.plies().last().map(|p| p.mv) {
            Some(Square::At(i)) => Some(usize::from(i)),
            _ => None,
        };
        let mut out = format!("  {}\n", st.paint(DIM, "a b c d e f g h"));
        for row in 0..8 {
            out += &st.paint(DIM, &(row + 1).to_string());
            for col in 0..8 {
                let i = row * 8 + col;
                let (code, c) = if black >> i & 1 != 0 {
                    (BLACK, "X")
                } else if white >> i & 1 != 0 {
                    (WHITE, "O")
                } else if legal >> i & 1 != 0 {
                    (LEGAL, ".")
                } else {
                    (DIM, "-")
                };
                let code = if Some(i) == last {
                    format!("{code};4")
                } else {
                    code.to_string()
                };
                out += " ";
                out += &st.paint(&code, c);
            }
            out += "\n";
        }
        out
    }

    fn show(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let pos = self.game.position();
        write!(out, "{}", self.board_text(&pos))?;
        let (b, w) = pos.black_white();
        let (b, w) = (b.count_ones(), w.count_ones());
        if self.game.is_over() {
            return self.game_over(out);
        }
        let mover = colour_name(pos.to_move);
        if pos.board.moves() == 0 {
            writeln!(out, "X {b} - O {w}, {mover} has no legal move: type 'pass'")
        } else {
            writeln!(out, "X {b} - O {w}, {mover} to move ('.' marks legal moves)")
        }
    }

    /// The final result and the game record.
    fn game_over(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (b, w) = self.game.position().black_white();
        let (b, w) = (b.count_ones(), w.count_ones());
        let score = self.game.final_score();
        let winner = match score {
            0 => None,
            s if s > 0 => Some(Color::Black),
            _ => Some(Color::White),
        };
        let result = match winner {
            None => "a draw".to_string(),
            Some(c) => format!("{} wins by {}", colour_name(c), score.abs()),
        };
        let who = match winner {
            None => "",
            Some(c) if c == self.engine => ": oxello wins",
            Some(_) => ": you win",
        };
        let empties = 64 - b - w;
        let note = if empties > 0 && winner.is_some() {
            format!(" (the {empties} empty squares count for the winner)")
        } else {
            String::new()
        };
        let line = format!("game over: X {b} - O {w}, {result}{note}{who}");
        writeln!(out, "{}", self.style.paint(STRONG, &line))?;
        self.record(out, "game record")
    }

    /// The moves played, as a transcript `load` reads back (forced passes left out).
    fn transcript(&self) -> String {
        self.game
            .plies()
            .iter()
            .filter(|p| p.mv != Square::Pass)
            .map(|p| p.mv.to_string())
            .collect()
    }

    fn record(&self, out: &mut dyn Write, title: &str) -> std::io::Result<()> {
        let from = if self.game.start() == Position::start() {
            ""
        } else {
            " (from the loaded start position)"
        };
        writeln!(out, "{title}{from}: {}", self.transcript())
    }

    /// Lets the engine move while it is its turn (passing when it must).
    fn engine_moves(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let stop = AtomicBool::new(false);
        let st = self.style;
        while !self.game.is_over() && self.game.position().to_move == self.engine {
            let pos = self.game.position();
            if let Some(choice) = self.book.choose(&pos, 0) {
                let says = format!("oxello plays {}", choice.mv);
                writeln!(out, "{} (book move, {:+.2})", st.paint(STRONG, &says), choice.value)?;
                if self.game.play(Ply::bare(choice.mv)).is_err() {
                    writeln!(out, "internal error: the book move {} was refused", choice.mv)?;
                    break;
                }
                continue;
            }
            let time = match (self.engine_clock, self.move_time) {
                (Some(c), _) => Some(move_budget(c.as_secs_f64(), 0.0, None, pos.board.empty_count())),
                (None, Some(s)) => Some(fixed_budget(s)),
                (None, None) => None,
            };
            let req = ThinkRequest::for_move(pos, self.level, time, self.risk, self.level_explicit);
            let t0 = Instant::now();
            let mut progress = Progress {
                out: &mut *out,
                live: st.live,
                lines: true,
                width: 0,
                error: None,
            };
            let r = think_position(self.thinker, &req, &stop, &mut |i| progress.report(&thinking_line(&i)));
            progress.finish()?;
            let Some(r) = r else { break };
            if let Some(c) = self.engine_clock.as_mut() {
                *c = c.saturating_sub(t0.elapsed());
            }
            let says = format!("oxello plays {}", r.best);
            writeln!(
                out,
                "{} ({:+.2}, {}, {:.2} s)",
                st.paint(STRONG, &says),
                r.score,
                depth_label(r.depth),
                t0.elapsed().as_secs_f64()
            )?;
            if self.game.play(Ply::bare(r.best)).is_err() {
                writeln!(out, "internal error: the engine's move {} was refused", r.best)?;
                break;
            }
        }
        self.show(out)
    }

    /// Every legal move scored, best first: the book's moves once each, with the book's value
    /// (and this level's search value beside it), then the other moves as this level's search
    /// values them.
    fn hint(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.game.is_over() {
            return writeln!(out, "the game is over; type 'new' for another");
        }
        let st = self.style;
        let stop = AtomicBool::new(false);
        let pos = self.game.position();
        let moves = pos.board.moves().count_ones().max(1) as usize;
        let req = ThinkRequest {
            position: pos,
            level: self.level,
            time: None,
            moves,
            draw_value: 0.0,
            risk: self.risk,
            by_clock: false,
            until_stopped: false,
        };
        let mut last = Vec::new();
        let mut progress = Progress {
            out: &mut *out,
            live: st.live,
            lines: false,
            width: 0,
            error: None,
        };
        think_position(self.thinker, &req, &stop, &mut |i| {
            progress.report(&thinking_line(&i));
            last.push(i);
        });
        progress.finish()?;
        // Keep the deepest round only: one line per move.
        let deepest = last.last().map(|l| l.depth);
        let search: Vec<&ThinkInfo> = last.iter().filter(|l| Some(l.depth) == deepest).collect();
        let searched = |mv: Square| search.iter().find(|l| l.pv.first() == Some(&mv));
        let book = self.book.hints(&pos);
        let in_book = |mv: Square| book.iter().any(|b| b.pv.first() == Some(&mv));
        writeln!(
            out,
            "hints for {}, in discs for {0}: book moves first, then the others, each best first",
            colour_name(pos.to_move)
        )?;
        let mut differ = None;
        for b in &book {
            let Some(&mv) = b.pv.first() else { continue };
            let tag = st.paint(BOOK, &format!("{:<14}", "book move"));
            let now = match searched(mv) {
                Some(s) => {
                    if (s.score - b.score).abs() >= 0.005 {
                        differ.get_or_insert((b.depth, s.depth));
                    }
                    format!("  ({} now: {:+.2})", depth_label(s.depth), s.score)
                }
                None => String::new(),
            };
            writeln!(out, "  {:<4} {:+6.2}  {tag} {}{now}", mv.to_string(), b.score, pv_text(&b.pv))?;
        }
        for s in search.iter().filter(|s| s.pv.first().is_some_and(|&mv| !in_book(mv))) {
            let mv = s.pv.first().map(|m| m.to_string()).unwrap_or_default();
            writeln!(
                out,
                "  {mv:<4} {:+6.2}  {:<14} {}",
                s.score,
                depth_label(s.depth),
                pv_text(&s.pv)
            )?;
        }
        if let Some((book_depth, now)) = differ {
            writeln!(
                out,
                "note: book values come from the opening book's own searches ({} at each book position,\n\
      negamaxed along its lines); in brackets, what this level's search ({}) finds now: it sees\n\
      less far ahead. Where the two differ, the book value is the better guide.",
                depth_label(book_depth),
                depth_label(now)
            )?;
        }
        Ok(())
    }

    fn load(&mut self, path: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
        let text = text.trim();
        self.game = if text.contains("(;") {
            GgfGame::parse(text).map_err(|e| format!("{path}: {e}"))?.game
        } else {
            Game::from_transcript(Position::start(), text)
                .map_err(|e| format!("{path}: {e} (expected a transcript such as f5d6c3, or a GGF game)"))?
        };
        Ok(())
    }

    fn save(&self, path: &str) -> Result<(), String> {
        std::fs::write(path, self.transcript() + "\n").map_err(|e| format!("{path}: cannot write: {e}"))
    }

    /// Handles one input line; false on quit.
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return Ok(true) };
        let arg = words.next();
        match (cmd.to_ascii_lowercase().as_str(), arg) {
            ("quit" | "exit" | "q", _) => return Ok(false),
            ("help" | "?", _) => writeln!(out, "{HELP}")?,
            ("board", _) => self.show(out)?,
            ("new", _) => {
                self.game = Game::new(Position::start());
                self.engine_clock = self.clock_start;
                self.engine_moves(out)?;
            }
            ("undo", _) => {
                // Take back to the human's previous turn.
                let mut undone = self.game.undo();
                while undone && self.game.position().to_move == self.engine && self.game.moves_since_start() > 0 {
                    undone = self.game.undo();
                }
                if !undone {
                    writeln!(out, "nothing to undo")?;
                }
                self.show(out)?;
            }
            ("redo", _) => {
                if !self.game.redo() {
                    writeln!(out, "nothing to redo")?;
                }
                self.show(out)?;
            }
            ("hint", _) => self.hint(out)?,
            ("swap", _) if self.game.is_over() => writeln!(out, "the game is over; type 'new' for another")?,
            ("swap", _) => {
                self.engine = self.engine.other();
                self.engine_moves(out)?;
            }
            ("level", Some(n)) => match n.parse::<u32>() {
                Ok(l) if l <= 60 => {
                    self.level = l;
                    self.level_explicit = true;
                    writeln!(out, "level {l}")?;
                }
                _ => writeln!(out, "level must be a number from 0 to 60")?,
            },
            ("time", Some(s)) => match s.parse::<f64>() {
                Ok(t) if t.is_finite() && t >= 0.0 => {
                    self.engine_clock = (t > 0.0).then(|| crate::time::seconds(t));
                    self.clock_start = self.engine_clock;
                    writeln!(
                        out,
                        "engine clock: {}",
                        if t > 0.0 { format!("{t} s per game") } else { "none".into() }
                    )?;
                }
                _ => writeln!(out, "time must be a number of seconds")?,
            },
            ("movetime", Some(s)) => match s.parse::<f64>() {
                Ok(t) if t.is_finite() && t >= 0.0 => {
                    self.move_time = (t > 0.0).then_some(t);
                    let what = if t > 0.0 { format!("{t} s per move") } else { "none".into() };
                    writeln!(out, "engine time per move: {what}")?;
                }
                _ => writeln!(out, "movetime must be a number of seconds")?,
            },
            ("save", Some(path)) => match self.save(path) {
                Ok(()) => writeln!(out, "saved to {path}")?,
                Err(e) => writeln!(out, "{e}")?,
            },
            ("load", Some(path)) => match self.load(path) {
                Ok(()) => self.engine_moves(out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            ("level" | "time" | "movetime" | "save" | "load", None) => writeln!(out, "'{cmd}' needs an argument; {HELP}")?,
            _ => match Square::parse(cmd) {
                Ok(mv) if self.game.position().to_move == self.engine && !self.game.is_over() => {
                    writeln!(out, "it is the engine's turn ({mv} ignored); type 'swap' to take this side")?
                }
                Ok(mv) => match self.game.play(Ply::bare(mv)) {
                    Ok(()) => self.engine_moves(out)?,
                    Err(e) => writeln!(out, "{e}; legal moves are marked '.'")?,
                },
                Err(_) => writeln!(out, "unknown command '{cmd}'; {HELP}")?,
            },
        }
        Ok(true)
    }

    /// Plays until quit or end of input; an unfinished game's record is printed at the end.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "oxello: you play X (black); {HELP}")?;
        self.show(out)?;
        let mut line = String::new();
        loop {
            write!(out, "> ")?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 || !self.handle(line.trim(), out)? {
                if !self.game.is_over() && !self.game.plies().is_empty() {
                    self.record(out, "\ngame record so far (load it to go on)")?;
                }
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;
    use crate::engine::searcher::SearchThinker;
    use crate::eval::Evaluator;
    use crate::search::levels::Levels;

    fn thinker() -> SearchThinker {
        let eval = Evaluator::embedded().expect("weights");
        SearchThinker::new(8, Box::new(eval), Levels::embedded().expect("levels"), 1)
    }

    fn embedded_book() -> EngineBook {
        EngineBook {
            book: Book::embedded().expect("embedded book"),
            ..EngineBook::default()
        }
    }

    /// Runs a script; the output as text.
    fn session(level: u32, book: EngineBook, style: Style, script: &str) -> String {
        let mut thinker = thinker();
        let mut t = Terminal::new(&mut thinker, level).with_book(book).with_style(style);
        let mut out = Vec::new();
        t.run(&mut script.as_bytes(), &mut out).expect("runs");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn a_short_session() {
        let text = session(
            2,
            EngineBook::default(),
            Style::default(),
            "f5\nzz\na1\nhint\nundo\nlevel 99\nlevel 3\nswap\nquit\n",
        );
        assert!(text.contains("oxello plays"), "{text}");
        assert!(text.contains("unknown command 'zz'"), "{text}");
        assert!(text.contains("illegal move A1"), "{text}");
        assert!(text.contains("level must be a number"), "{text}");
        assert!(text.contains("level 3"), "{text}");
        assert!(text.matches("depth").count() > 3, "{text}");
    }

    /// The hint lines (move first) after the header.
    fn hint_lines(text: &str) -> Vec<&str> {
        let start = text.find("hints for").expect("a hint header");
        text[start..].lines().skip(1).take_while(|l| l.starts_with("  ")).collect()
    }

    #[test]
    fn a_hint_lists_every_move_once_book_moves_marked() {
        // After f5 d6 the book has c3, c4 and c6; the level-4 search values some of them
        // differently: each is still listed once, as a book move, with the search value beside.
        let text = session(4, embedded_book(), Style::default(), "f5\nhint\nquit\n");
        let lines = hint_lines(&text);
        let mut moves: Vec<&str> = lines.iter().filter_map(|l| l.split_whitespace().next()).collect();
        assert_eq!(moves.len(), 5, "{text}"); // c3 c4 c5 c6 c7
        moves.sort_unstable();
        moves.dedup();
        assert_eq!(moves.len(), 5, "a move listed twice: {text}");
        let book: Vec<&&str> = lines.iter().filter(|l| l.contains("book move")).collect();
        assert!(book.len() >= 2, "{text}");
        for l in &book {
            assert!(l.contains("(depth 4 now: "), "book lines carry the search value: {l}");
        }
        let searched = lines
            .iter()
            .filter(|l| l.contains("depth 4 ") && !l.contains("book move"))
            .count();
        assert_eq!(book.len() + searched, 5, "{text}");
        assert!(text.contains("note: book values come from the opening book"), "{text}");
    }

    #[test]
    fn without_a_book_every_hint_is_a_search() {
        let text = session(3, EngineBook::default(), Style::default(), "hint\nquit\n");
        let lines = hint_lines(&text);
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines.iter().all(|l| l.contains("depth 3") && !l.contains("book")), "{text}");
        assert!(!text.contains("note:"), "{text}");
    }

    /// `swap` after every engine move makes the engine play both sides to the end.
    #[test]
    fn a_finished_game_ends_with_the_result_and_a_record_that_loads_back() {
        let script = "swap\n".repeat(70) + "quit\n";
        let text = session(1, EngineBook::default(), Style::default(), &script);
        assert_eq!(text.matches("game over: ").count(), 1, "{text}");
        assert!(text.contains("the game is over; type 'new'"), "{text}");
        let over = text.lines().find(|l| l.starts_with("game over: ")).expect("result");
        assert!(over.contains(" wins by ") || over.contains("a draw"), "{over}");
        let record = text.lines().find_map(|l| l.strip_prefix("game record: ")).expect("a record");
        let game = Game::from_transcript(Position::start(), record).expect("the record replays");
        assert!(game.is_over(), "{record}");
        let (b, w) = game.position().black_white();
        assert!(
            over.contains(&format!("X {} - O {}", b.count_ones(), w.count_ones())),
            "{over}"
        );
        assert!(!text.contains("game record so far"), "{text}");
    }

    #[test]
    fn quitting_mid_game_prints_the_record_so_far() {
        let text = session(1, EngineBook::default(), Style::default(), "f5\n");
        let record = text
            .lines()
            .find_map(|l| l.strip_prefix("game record so far (load it to go on): "))
            .expect("a record");
        assert_eq!(record.len(), 4, "{text}");
        assert!(record.starts_with("f5"), "{text}");
        // Nothing was played: nothing to record.
        let text = session(1, EngineBook::default(), Style::default(), "quit\n");
        assert!(!text.contains("game record"), "{text}");
    }

    #[test]
    fn no_color_and_pipes_turn_colours_off() {
        use std::ffi::OsStr;
        let on = Style {
            colour: true,
            live: true,
        };
        assert_eq!(Style::detect(true, None), on);
        assert_eq!(Style::detect(true, Some(OsStr::new(""))), on);
        assert_eq!(
            Style::detect(true, Some(OsStr::new("1"))),
            Style {
                colour: false,
                live: true
            }
        );
        assert_eq!(Style::detect(false, None), Style::default());
        assert_eq!(Style::detect(false, Some(OsStr::new("1"))), Style::default());
    }

    #[test]
    fn plain_output_has_no_escape_codes_or_carriage_returns() {
        let text = session(6, embedded_book(), Style::default(), "f5\nhint\nf4\nundo\nquit\n");
        assert!(!text.contains('\x1b') && !text.contains('\r'), "{text:?}");
        // Without colours the board is the plain one the other commands print.
        assert!(text.contains(&render(&Position::start())), "{text}");
    }

    #[test]
    fn a_terminal_gets_colours_and_one_updating_thinking_line() {
        let style = Style {
            colour: true,
            live: true,
        };
        let text = session(6, EngineBook::default(), style, "f5\nquit\n");
        assert!(text.contains("\x1b[1;31mX\x1b[0m"), "{text:?}");
        // The depth lines overwrite each other on one line, cleared before the move is shown.
        let before_move = &text[..text.find("oxello plays").expect("a move")];
        let thinking = &before_move[before_move.rfind("> ").expect("the prompt")..];
        assert!(thinking.matches("\rthinking:  depth").count() >= 3, "{thinking:?}");
        assert!(!thinking.contains('\n'), "{thinking:?}");
        let shown = thinking.strip_suffix("\r\x1b[1m").expect("cleared before the move");
        let (shown, blank) = shown.rsplit_once('\r').expect("a cleared line");
        let last = shown.rsplit('\r').next().unwrap_or_default();
        assert_eq!(blank, " ".repeat(last.chars().count()), "{thinking:?}");
        for part in thinking.split('\r') {
            assert!(part.chars().count() <= LIVE_WIDTH, "{part:?}");
        }
        // Live without colours (NO_COLOR on a terminal): carriage returns, no escape codes.
        let text = session(
            6,
            EngineBook::default(),
            Style {
                colour: false,
                live: true,
            },
            "f5\nquit\n",
        );
        assert!(text.contains("\rthinking:") && !text.contains('\x1b'), "{text:?}");
    }
}
