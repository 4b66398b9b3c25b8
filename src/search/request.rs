//! What a search is asked to do and what it reports. The search never prints: front-ends turn
//! these values into text.

use crate::base::DepthKind;
use crate::board::{Board, Square};
use std::time::Duration;

/// When to stop. Every limit that is set applies; the first reached stops the search.
/// With none set the search runs until the stop flag is raised (or the game is solved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum midgame depth in plies.
    pub depth: Option<u32>,
    /// Time for this move: the search is aborted when it is used up, and iterations are not
    /// started past 0.3 of it (an iteration costs about twice all the ones before it).
    pub time: Option<Duration>,
    /// The time to aim for (the time manager's soft target, below `time`): no iteration is
    /// started past 0.6 of it either, so that a move ends near its target on average and the
    /// hard limit is there for the iteration that runs long.
    pub target: Option<Duration>,
}

/// Root search driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Driver {
    /// Principal-variation search with aspiration windows.
    #[default]
    Pvs,
    /// MTD(f): a sequence of null-window searches converging on the value.
    Mtdf,
}

#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub board: Board,
    pub limits: Limits,
    /// Empties at or below which the position is solved exactly / for win-loss-draw.
    pub exact_empties: u32,
    pub wld_empties: u32,
    /// Above `wld_empties`, empties at or below which a probable WLD solve (a ProbCut search
    /// to the end) at `PROBABLE_PERCENTS[i]` replaces the midgame search; 0 = none.
    pub probable_empties: [u32; 3],
    pub driver: Driver,
    /// Forward pruning: none (exact alpha-beta), Multi-ProbCut or N-best.
    pub pruning: Pruning,
    /// Search threads (young brothers shared at split points, one table); 1 = deterministic single thread.
    pub threads: usize,
    /// The value of a proven draw to the side to move at `board`, in discs: -1, 0 or 1
    /// (contempt, `search::draw`). Games that end level inside the tree and exact solves of 0
    /// count as this for the root's side and as its opposite for the other side.
    pub draw: i32,
}

impl SearchRequest {
    /// A full-width PVS search of `board` to `depth` plies, no endgame solve: the building block
    /// of benchmarks, data tools and tests.
    pub fn fixed_depth(board: Board, depth: u32) -> SearchRequest {
        SearchRequest {
            board,
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            exact_empties: 0,
            wld_empties: 0,
            probable_empties: [0; 3],
            driver: Driver::Pvs,
            pruning: Pruning::None,
            threads: 1,
            draw: 0,
        }
    }
}

/// Confidences of the probable WLD solves of `SearchRequest::probable_empties`, in percent.
pub const PROBABLE_PERCENTS: [u32; 3] = [95, 80, 50];

/// Forward pruning of the midgame search.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Pruning {
    /// Full-width alpha-beta.
    #[default]
    None,
    /// Multi-ProbCut with cut threshold `t` (in standard deviations).
    ProbCut { t: f64 },
    /// Only the `n` best moves by shallow score are searched at each inner node.
    NBest { n: u32 },
}

impl Pruning {
    /// ProbCut at a confidence percentage (100 % = no pruning), as Edax's selectivity levels.
    pub fn from_percent(percent: u32) -> Pruning {
        match super::mpc::threshold(percent) {
            Some(t) => Pruning::ProbCut { t },
            None => Pruning::None,
        }
    }

    /// The confidence percentage reported with the depth (`18@95%`) and kept in the TT.
    pub fn percent(&self) -> u32 {
        match *self {
            Pruning::None => 100,
            Pruning::ProbCut { t } => super::mpc::confidence(t).clamp(1, 99),
            Pruning::NBest { .. } => 1,
        }
    }
}

/// One progress report: the result of a finished iteration (or solve).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub kind: DepthKind,
    /// Side to move's score in discs (WLD: -1, 0, +1 times a sign, see `DepthKind::Wld`).
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Square>,
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play: `Pass` when the side to move must pass, None when the game is over.
    pub best: Option<Square>,
    pub score: i32,
    pub kind: DepthKind,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Square>,
}
