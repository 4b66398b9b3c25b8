//! Terminal play (`oxello play`): a person against the engine, one command per line.

use super::book::EngineBook;
use super::{Think, ThinkInfo, ThinkRequest, move_budget, think_position};
use crate::board::notation::{Square, render};
use crate::board::{Color, Position};
use crate::game::{Game, Ply};
use crate::ggf::GgfGame;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const HELP: &str = "commands: a move (f5), pass, undo, redo, hint, level N, time SECONDS (engine clock per game, 0 = none), \
swap, new, save FILE, load FILE (transcript or GGF), board, help, quit";

pub struct Terminal<'a> {
    thinker: &'a mut dyn Think,
    game: Game,
    level: u32,
    engine: Color,
    engine_clock: Option<Duration>,
    book: EngineBook,
}

impl<'a> Terminal<'a> {
    pub fn new(thinker: &'a mut dyn Think, level: u32) -> Terminal<'a> {
        Terminal {
            thinker,
            game: Game::new(Position::start()),
            level,
            engine: Color::White,
            engine_clock: None,
            book: EngineBook::default(),
        }
    }

    /// Plays book moves while the position is in `book`.
    pub fn with_book(self, book: EngineBook) -> Terminal<'a> {
        Terminal { book, ..self }
    }

    fn show(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let pos = self.game.position();
        write!(out, "{}", render(&pos))?;
        let (b, w) = pos.black_white();
        let mover = if pos.to_move == Color::Black {
            "X (black)"
        } else {
            "O (white)"
        };
        if self.game.is_over() {
            writeln!(
                out,
                "X {} - O {}: game over, {:+} for black",
                b.count_ones(),
                w.count_ones(),
                self.game.final_score()
            )
        } else {
            writeln!(
                out,
                "X {} - O {}, {mover} to move ('.' marks legal moves)",
                b.count_ones(),
                w.count_ones()
            )
        }
    }

    /// Lets the engine move while it is its turn (passing when it must).
    fn engine_moves(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let stop = AtomicBool::new(false);
        while !self.game.is_over() && self.game.position().to_move == self.engine {
            let pos = self.game.position();
            if let Some(choice) = self.book.choose(&pos) {
                writeln!(out, "oxello plays {} ({:+.2}, book)", choice.mv, choice.value)?;
                if self.game.play(Ply::bare(choice.mv)).is_err() {
                    writeln!(out, "internal error: the book move {} was refused", choice.mv)?;
                    break;
                }
                continue;
            }
            let req = ThinkRequest {
                position: pos,
                depth: self.level,
                time: self
                    .engine_clock
                    .map(|c| move_budget(c.as_secs_f64(), None, pos.board.empty_count())),
                moves: 1,
                draw_value: 0.0,
            };
            let t0 = Instant::now();
            let mut lines = Vec::new();
            let r = think_position(self.thinker, &req, &stop, &mut |i| lines.push(i));
            for i in &lines {
                let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
                writeln!(
                    out,
                    "  depth {:<8} score {:+6.2} nodes {:>10}  {}",
                    i.depth.to_string(),
                    i.score,
                    i.nodes,
                    pv.join(" ")
                )?;
            }
            let Some(r) = r else { break };
            if let Some(c) = self.engine_clock.as_mut() {
                *c = c.saturating_sub(t0.elapsed());
            }
            writeln!(
                out,
                "oxello plays {} ({:+.2}, {:.2} s)",
                r.best,
                r.score,
                t0.elapsed().as_secs_f64()
            )?;
            if self.game.play(Ply::bare(r.best)).is_err() {
                writeln!(out, "internal error: the engine's move {} was refused", r.best)?;
                break;
            }
        }
        self.show(out)
    }

    fn hint(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let stop = AtomicBool::new(false);
        let pos = self.game.position();
        for i in self.book.hints(&pos) {
            hint_line(out, &i, "book")?;
        }
        let moves = pos.board.moves().count_ones().max(1) as usize;
        let req = ThinkRequest {
            position: pos,
            depth: self.level,
            time: None,
            moves,
            draw_value: 0.0,
        };
        let mut last = Vec::new();
        think_position(self.thinker, &req, &stop, &mut |i| last.push(i));
        // Keep the deepest round only: one line per move.
        let deepest = last.last().map(|l| l.depth);
        for i in last.iter().filter(|l| Some(l.depth) == deepest) {
            hint_line(out, i, "depth")?;
        }
        Ok(())
    }

    fn load(&mut self, path: &str) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let text = text.trim();
        self.game = if text.contains("(;") {
            GgfGame::parse(text).map_err(|e| format!("{path}: {e}"))?.game
        } else {
            Game::from_transcript(Position::start(), text).map_err(|e| format!("{path}: {e}"))?
        };
        Ok(())
    }

    fn save(&self, path: &str) -> Result<(), String> {
        let moves: String = self.game.plies().iter().map(|p| p.mv.to_string()).collect();
        std::fs::write(path, moves + "\n").map_err(|e| format!("cannot write {path}: {e}"))
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
            ("swap", _) => {
                self.engine = self.engine.other();
                self.engine_moves(out)?;
            }
            ("level", Some(n)) => match n.parse::<u32>() {
                Ok(l) if l <= 60 => {
                    self.level = l;
                    writeln!(out, "level {l}")?;
                }
                _ => writeln!(out, "level must be a number from 0 to 60")?,
            },
            ("time", Some(s)) => match s.parse::<f64>() {
                Ok(t) if t.is_finite() && t >= 0.0 => {
                    self.engine_clock = (t > 0.0).then(|| Duration::from_secs_f64(t));
                    writeln!(
                        out,
                        "engine clock: {}",
                        if t > 0.0 { format!("{t} s per game") } else { "none".into() }
                    )?;
                }
                _ => writeln!(out, "time must be a number of seconds")?,
            },
            ("save", Some(path)) => match self.save(path) {
                Ok(()) => writeln!(out, "saved to {path}")?,
                Err(e) => writeln!(out, "{e}")?,
            },
            ("load", Some(path)) => match self.load(path) {
                Ok(()) => self.engine_moves(out)?,
                Err(e) => writeln!(out, "{e}")?,
            },
            ("level" | "time" | "save" | "load", None) => writeln!(out, "'{cmd}' needs an argument; {HELP}")?,
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

    /// Plays until quit or end of input.
    pub fn run(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "oxello: you play X (black); {HELP}")?;
        self.show(out)?;
        let mut line = String::new();
        loop {
            write!(out, "> ")?;
            out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 || !self.handle(line.trim(), out)? {
                return Ok(());
            }
        }
    }
}

/// One line of `hint`: move, score, where it came from (`book` or `depth`) and depth, line.
fn hint_line(out: &mut dyn Write, i: &ThinkInfo, source: &str) -> std::io::Result<()> {
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    writeln!(
        out,
        "  {:<4} {:+6.2}  {source} {}  {}",
        pv.first().cloned().unwrap_or_default(),
        i.score,
        i.depth,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::searcher::SearchThinker;
    use crate::eval::Evaluator;
    use crate::search::levels::Levels;

    #[test]
    fn a_short_session() {
        let eval = Evaluator::embedded().expect("weights");
        let mut thinker = SearchThinker::new(8, Box::new(eval), Levels::embedded().expect("levels"), 1);
        let mut t = Terminal::new(&mut thinker, 2);
        let script = "f5\nzz\na1\nhint\nundo\nlevel 99\nlevel 3\nswap\nquit\n";
        let mut out = Vec::new();
        t.run(&mut script.as_bytes(), &mut out).expect("runs");
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("oxello plays"), "{text}");
        assert!(text.contains("unknown command 'zz'"), "{text}");
        assert!(text.contains("illegal move A1"), "{text}");
        assert!(text.contains("level must be a number"), "{text}");
        assert!(text.contains("level 3"), "{text}");
        assert!(text.matches("depth").count() > 3, "{text}");
    }
}
