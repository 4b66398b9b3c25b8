//! Driving an NBoard engine the way the NBoard GUI does (PROTOCOLS.md §1.2): `nboard 2`, the
//! game by `set game` (clock in `TI`) after `set depth` when a depth was given, then `move` per ply with the time it took, and a
//! `ping`/`pong` handshake before every request; `go` announces a move without playing it.

use super::Player;
use super::process::Process;
use crate::board::Color;
use crate::board::notation::Square;
use crate::game::Game;
use crate::ggf::GgfGame;
use std::time::{Duration, Instant};

pub struct NboardPlayer {
    p: Process,
    /// Ping numbers grow by more than one, as the GUI's shared counter does.
    ping: u64,
    /// The GUI's depth setting (`set depth N`); without it an engine thinks at its own default.
    depth: Option<u32>,
}

impl NboardPlayer {
    pub fn new(p: Process, depth: Option<u32>) -> NboardPlayer {
        NboardPlayer { p, ping: 0, depth }
    }

    /// `ping n`, then everything up to `pong n`.
    fn sync(&mut self, timeout: Duration) -> Result<(), String> {
        self.ping += 2;
        let want = format!("pong {}", self.ping);
        self.p.send(&format!("ping {}", self.ping))?;
        let deadline = Instant::now() + timeout;
        while self.p.recv(deadline, "ping")? != want {}
        Ok(())
    }
}

impl Player for NboardPlayer {
    fn name(&self) -> &str {
        &self.p.name
    }

    /// The clock is in the game record (`TI`), as the GUI sends it.
    fn start(&mut self, game: &Game, _clock: Option<Duration>, timeout: Duration) -> Result<(), String> {
        self.p.send("nboard 2")?;
        if let Some(d) = self.depth {
            self.p.send(&format!("set depth {d}"))?;
        }
        self.p.send(&format!("set game {}", GgfGame::new(game.clone()).write()))?;
        self.sync(timeout)
    }

    fn choose(&mut self, _game: &Game, _left: Option<Duration>, timeout: Duration) -> Result<String, String> {
        // The clock travels in the game record: TI and each move's time.
        self.sync(timeout)?;
        self.p.send("go")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.p.recv(deadline, "go")?;
            if let Some(rest) = line.strip_prefix("===") {
                // `=== MV[/eval[/time]]`, slashes or spaces.
                let mv = rest.trim().split(['/', ' ']).next().unwrap_or("");
                return Ok(mv.to_string());
            }
        }
    }

    fn played(&mut self, _mover: Color, mv: Square, secs: f64, _chosen_here: bool, _timeout: Duration) -> Result<(), String> {
        let mv = match mv {
            Square::Pass => "PA".to_string(),
            Square::At(_) => mv.to_string().to_uppercase(),
        };
        self.p.send(&format!("move {mv}//{secs:.3}"))
    }
}
