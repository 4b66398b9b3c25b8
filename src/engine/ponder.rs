//! Thinking on the opponent's time (pondering), shared by the GTP and NBoard sessions.
//!
//! After our move the session hands over the position after the reply our search expects (or,
//! with no expected reply, the opponent's position itself, which covers all replies). The
//! search runs as `Session::background` work: `serve` starts it only while no input waits, and
//! any input raises the flag it polls, so a `ping`, a new position or `quit` waits for no more
//! than one poll of the search. The ponder leaves its results in the searcher's tables; when
//! the opponent plays the expected reply (a hit), the move's own search finds its iterations
//! there and goes on deeper from them; on a miss it simply starts. The time spent pondering is
//! never charged to our clock: only the move's own search is.

use super::{Think, ThinkRequest, think_position};
use crate::board::{Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Default)]
pub struct Ponder {
    /// `--ponder`, GTP `oxello-ponder`, NBoard `set ponder`.
    pub enabled: bool,
    /// The search still to run (or to resume after a harmless command stopped it).
    job: Option<ThinkRequest>,
    /// The position the last ponder searched, until the next move's search asks about it.
    pondered: Option<Position>,
    pub hits: u32,
    pub misses: u32,
}

impl Ponder {
    pub fn new(enabled: bool) -> Ponder {
        Ponder {
            enabled,
            ..Ponder::default()
        }
    }

    /// After our move `mv` from a position whose search expected `pv` (our move first): ponders
    /// the position after the expected reply, or `after` itself (the opponent to move) when the
    /// line stops at our move. `req` carries the level and budget the move would get.
    pub fn start(&mut self, after: Position, mv: Square, pv: &[Square], req: ThinkRequest) {
        self.job = None;
        if !self.enabled || after.board.is_game_over() {
            return;
        }
        let expected = match pv {
            [first, Square::At(reply), ..] if *first == mv => after.play(usize::from(*reply)),
            [first, Square::Pass, ..] if *first == mv && after.board.moves() == 0 => Some(after.pass()),
            _ => None,
        };
        let position = expected.filter(|p| !p.board.is_game_over()).unwrap_or(after);
        self.pondered = Some(position);
        self.job = Some(ThinkRequest {
            position,
            moves: 1,
            until_stopped: true,
            ..req
        });
    }

    /// Something changed the game (or a search of our own comes): no more pondering.
    pub fn cancel(&mut self) {
        self.job = None;
    }

    pub fn pending(&self) -> bool {
        self.job.is_some()
    }

    /// Runs the ponder until `stop` (any input) or the search is complete. A stopped ponder
    /// stays pending: if the next command does not cancel it, it runs again (its finished
    /// iterations come back from the table at once).
    pub fn run(&mut self, thinker: &mut dyn Think, stop: &AtomicBool) {
        let Some(req) = self.job else { return };
        think_position(thinker, &req, stop, &mut |_| {});
        if !stop.load(Ordering::Relaxed) {
            log::debug!("ponder complete");
            self.job = None;
        }
    }

    /// The move's search is about to start at `position`: whether the ponder had searched it
    /// (a hit), counted and logged. None when nothing was pondered.
    pub fn check(&mut self, position: &Position) -> Option<bool> {
        self.job = None;
        let pondered = self.pondered.take()?;
        let hit = pondered == *position;
        if hit {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        log::info!(
            "ponder {} ({} hits, {} misses)",
            if hit { "hit" } else { "miss" },
            self.hits,
            self.misses
        );
        Some(hit)
    }
}
