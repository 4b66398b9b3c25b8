//! Driving a GTP engine: `play`/`genmove`, the clock by `time_settings`/`time_left`.

use super::Player;
use super::process::Process;
use crate::board::Color;
use crate::board::notation::Square;
use crate::game::Game;
use crate::protocol::gtp::format_vertex;
use std::time::{Duration, Instant};

pub struct GtpPlayer {
    p: Process,
}

fn colour_word(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl GtpPlayer {
    pub fn new(p: Process) -> GtpPlayer {
        GtpPlayer { p }
    }

    /// Sends one command and returns the success text, or why it failed.
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<String, String> {
        self.p.send(command)?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.p.recv(deadline, command)?;
            if let Some(rest) = line.strip_prefix('=') {
                // Skip an optional id, then drain the rest of the response up to its blank line.
                let text = rest.trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
                self.p.drain_response(Duration::from_millis(200));
                return Ok(text);
            }
            if let Some(rest) = line.strip_prefix('?') {
                return Err(format!("{} refused '{command}': {}", self.p.name, rest.trim()));
            }
        }
    }

    /// Tells a move or pass. Some engines (GRhino) track passes themselves and reject every
    /// pass syntax, which is harmless; a crash or time-out is not.
    fn tell(&mut self, mover: Color, mv: Square, timeout: Duration) -> Result<(), String> {
        match self.ask(&format!("play {} {}", colour_word(mover), format_vertex(mv)), timeout) {
            Err(why) if mv == Square::Pass && why.contains(" refused ") => Ok(()),
            r => r.map(|_| ()),
        }
    }
}

impl Player for GtpPlayer {
    fn name(&self) -> &str {
        &self.p.name
    }

    fn start(&mut self, game: &Game, clock: Option<Duration>, timeout: Duration) -> Result<(), String> {
        self.ask("boardsize 8", timeout)?;
        self.ask("clear_board", timeout)?;
        if let Some(c) = clock {
            self.ask(&format!("time_settings {} 0 0", c.as_secs()), timeout)?;
        }
        for (ply, pos) in game.plies().iter().zip(game.positions()) {
            self.tell(pos.to_move, ply.mv, timeout)?;
        }
        Ok(())
    }

    fn choose(&mut self, game: &Game, left: Option<Duration>, timeout: Duration) -> Result<String, String> {
        let mover = game.position().to_move;
        if let Some(l) = left {
            // Whole seconds, rounded down: the engine never believes it has more than it has.
            self.ask(&format!("time_left {} {} 0", colour_word(mover), l.as_secs()), timeout)?;
        }
        self.ask(&format!("genmove {}", colour_word(mover)), timeout)
    }

    fn played(&mut self, mover: Color, mv: Square, _secs: f64, chosen_here: bool, timeout: Duration) -> Result<(), String> {
        // `genmove` already played the engine's own move on its board.
        if chosen_here { Ok(()) } else { self.tell(mover, mv, timeout) }
    }
}
