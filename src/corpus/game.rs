//! One game of the corpus: how it started, its moves, its result, and the labels of the
//! positions it reached; replayed into positions, checked, and turned into training records.
//!
//! Positions are numbered by the moves: position `i` is the one in which `moves[i]` is played.
//! Passes are not stored (a side with no legal move passes; the replay does it), so every
//! numbered position has a legal move — exactly the positions worth a training record.

use crate::board::{Color, Position};
use crate::eval::dataset::{Label, Record};

/// How a game's first moves were chosen: positions the engine did not choose itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartKind {
    /// Uniformly random legal moves from the start position.
    Random,
    /// An opening of the XOT list (then, optionally, random moves).
    Xot,
    /// A game given from outside (another engine's or player's), followed move by move.
    Line,
    /// An opening of another openings file (e.g. `book/openings.txt`).
    Opening,
}

impl StartKind {
    pub fn code(self) -> u8 {
        match self {
            StartKind::Random => 0,
            StartKind::Xot => 1,
            StartKind::Line => 2,
            StartKind::Opening => 3,
        }
    }

    pub fn from_code(c: u8) -> Option<StartKind> {
        Some(match c {
            0 => StartKind::Random,
            1 => StartKind::Xot,
            2 => StartKind::Line,
            3 => StartKind::Opening,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            StartKind::Random => "random",
            StartKind::Xot => "xot",
            StartKind::Line => "line",
            StartKind::Opening => "opening",
        }
    }
}

/// How the game started: its kind, how many of its first moves were not chosen by the
/// engine's search, and which line of the source file (0 when none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub kind: StartKind,
    pub plies: u8,
    pub id: u32,
}

/// A search's value of one position, deeper than the search that chose the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepLabel {
    pub position: u8,
    pub depth: u8,
    /// Multi-ProbCut confidence in percent (100: none).
    pub selectivity: u8,
    /// Discs, from the view of the side to move at `position`.
    pub value: i8,
}

/// The exact score of a move not played: the child of `position` after `square`, from the
/// view of the side to move in that child.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sibling {
    pub position: u8,
    pub square: u8,
    pub value: i8,
}

/// A deeper search's value of a move not played: the child of `position` after `square`, from
/// the view of the side to move in that child — positions the game did not choose, valued as
/// well as the line's deep labels, so a fit sees how the moves of one position compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepSibling {
    pub position: u8,
    pub square: u8,
    pub depth: u8,
    /// Multi-ProbCut confidence in percent (100: none).
    pub selectivity: u8,
    pub value: i8,
}

/// The exact score of a position reached from `position` of the line by `moves`, random legal
/// moves of both sides (passes left out), from the view of its side to move: a position like
/// a search's leaves, several poor moves away from any played line, which neither the line
/// nor its siblings (one move off it) reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    pub position: u8,
    pub moves: Vec<u8>,
    pub value: i8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in its generator run (the run's games are numbered from 0).
    pub index: u32,
    pub start: Start,
    /// Squares 0..63 (a1 = 0, h8 = 63), passes left out.
    pub moves: Vec<u8>,
    /// Black's final disc difference (empty squares to the winner).
    pub result: i8,
    /// The first position from which both sides played perfectly (every position from there
    /// has the exact score `result`, from its mover's view); None: no perfect play.
    pub exact_from: Option<u8>,
    /// The value of the search that chose each move (or, on the opening moves, of the same
    /// search run for its label), for positions `0..search.len()`, from the mover's view;
    /// `search_depth` in the shard header says how deep.
    pub search: Vec<i8>,
    pub deep: Vec<DeepLabel>,
    pub siblings: Vec<Sibling>,
    /// Format version 2: deep values of moves not played (empty in version-1 shards).
    pub deep_siblings: Vec<DeepSibling>,
    /// Format version 3: random walks off the line, solved (empty before).
    pub walks: Vec<Walk>,
}

/// What labels the positions before perfect play get in training.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelPolicy {
    /// The game's result (what the shipped weights were fitted on).
    Game,
    /// The value of the search that chose the move.
    Search,
    /// The search's value at this many empties and more, the game's result below: on the
    /// XOT test set the 4-ply search's value is the closer label far from the end (2.5 discs
    /// from a 16-ply search at 30–44 empties, the result 8.5), the result near it (21–24
    /// empties: 3.3 from the exact score, the search 4.2).
    SearchFrom(u32),
    /// Only the deeper searches' values at this many empties and more (positions there
    /// without one give no record), the game's result below: for training on the labels that
    /// are better than the evaluation (a 12-ply search is 1.1 discs from a 16-ply one at
    /// 30–44 empties, the static evaluation 3.6, the 4-ply search 2.5, the result 8.5).
    DeepFrom(u32),
}

impl LabelPolicy {
    /// `game`, `search`, `search-from-N` or `deep-from-N`.
    pub fn parse(s: &str) -> Result<LabelPolicy, String> {
        let bad = || format!("'{s}': expected game, search, search-from-N or deep-from-N (N empties, at most 60)");
        let empties = |n: &str| n.parse().ok().filter(|&n: &u32| n <= 60);
        match s {
            "game" => Ok(LabelPolicy::Game),
            "search" => Ok(LabelPolicy::Search),
            _ => {
                if let Some(n) = s.strip_prefix("search-from-") {
                    empties(n).map(LabelPolicy::SearchFrom).ok_or_else(bad)
                } else if let Some(n) = s.strip_prefix("deep-from-") {
                    empties(n).map(LabelPolicy::DeepFrom).ok_or_else(bad)
                } else {
                    Err(bad())
                }
            }
        }
    }

    fn searched(self, empties: u32) -> bool {
        match self {
            LabelPolicy::Game | LabelPolicy::DeepFrom(_) => false,
            LabelPolicy::Search => true,
            LabelPolicy::SearchFrom(n) => empties >= n,
        }
    }

    /// Whether a position with no deep label and no exact score gives no record.
    fn needs_deep(self, empties: u32) -> bool {
        matches!(self, LabelPolicy::DeepFrom(n) if empties >= n)
    }
}

impl GameRecord {
    /// Labelled positions the game holds: its line, its siblings, its deep siblings and its
    /// walks.
    pub fn labelled(&self) -> usize {
        self.moves.len() + self.siblings.len() + self.deep_siblings.len() + self.walks.len()
    }

    /// The position a walk reaches from `line` (the game's replayed positions), None when a
    /// move is not legal or the walk leaves its side to move without a move.
    pub fn walk_end(line: &[Position], w: &Walk) -> Option<Position> {
        let mut p = *line.get(w.position as usize)?;
        for &sq in &w.moves {
            if p.board.moves() == 0 {
                p = p.pass();
            }
            p = (sq < 64).then(|| p.play(sq as usize)).flatten()?;
        }
        if p.board.moves() == 0 {
            p = p.pass();
        }
        (p.board.moves() != 0).then_some(p)
    }

    /// The positions in which each move was played, checked: every move legal, the game
    /// played to its end, the stored result equal to the final board's, and every label on a
    /// position of the game (siblings: a legal move other than the one played).
    pub fn replay(&self) -> Result<Vec<Position>, String> {
        let mut pos = Position::start();
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, &sq) in self.moves.iter().enumerate() {
            if pos.board.moves() == 0 && !pos.board.is_game_over() {
                pos = pos.pass();
            }
            let Some(next) = (sq < 64).then(|| pos.play(sq as usize)).flatten() else {
                return Err(format!("move {} ({sq}) is not legal", i + 1));
            };
            out.push(pos);
            pos = next;
        }
        if pos.board.moves() == 0 && !pos.board.is_game_over() {
            pos = pos.pass();
        }
        if !pos.board.is_game_over() {
            return Err(format!("the game stops after {} moves before its end", self.moves.len()));
        }
        let black = black_view(&pos, pos.board.final_score());
        if black != self.result as i32 {
            return Err(format!("result {} but the final board gives {black}", self.result));
        }
        let n = out.len();
        if self.exact_from.is_some_and(|e| e as usize > n) || self.search.len() > n {
            return Err("a label past the game's last move".into());
        }
        if let Some(d) = self.deep.iter().find(|d| d.position as usize >= n) {
            return Err(format!("a deep label on position {} of {n}", d.position));
        }
        let not_played = |position: u8, square: u8| {
            out.get(position as usize)
                .is_some_and(|p| square < 64 && p.board.moves() >> square & 1 == 1 && self.moves[position as usize] != square)
        };
        for s in &self.siblings {
            if !not_played(s.position, s.square) {
                return Err(format!(
                    "sibling {} of position {} is no other legal move",
                    s.square, s.position
                ));
            }
        }
        for s in &self.deep_siblings {
            if !not_played(s.position, s.square) {
                return Err(format!(
                    "deep sibling {} of position {} is no other legal move",
                    s.square, s.position
                ));
            }
        }
        for (k, w) in self.walks.iter().enumerate() {
            if Self::walk_end(&out, w).is_none() {
                return Err(format!(
                    "walk {} from position {} is not a legal line to a position with a move",
                    k + 1,
                    w.position
                ));
            }
        }
        Ok(out)
    }

    /// The training records of the game: every position of the line (exact from perfect play
    /// on, else by `policy`; deep labels replace either before perfect play), every deep
    /// sibling (searched), every walk (exact) and, when `siblings`, every sibling (exact). `game` is the number
    /// the records carry (held out when ≡ 9 mod 10).
    pub fn records(&self, positions: &[Position], policy: LabelPolicy, game: u64, siblings: bool) -> Vec<Record> {
        let mut out = Vec::with_capacity(self.labelled());
        let exact_from = self.exact_from.map_or(usize::MAX, |e| e as usize);
        for (i, p) in positions.iter().enumerate() {
            let result = black_view(p, self.result as i32) as i8;
            let deep = self.deep.iter().rev().find(|d| d.position as usize == i);
            let (score, label) = if i >= exact_from {
                (result, Label::Exact)
            } else if let Some(d) = deep {
                (d.value, Label::Search)
            } else if policy.needs_deep(p.board.empty_count()) {
                continue;
            } else {
                match self.search.get(i) {
                    Some(&v) if policy.searched(p.board.empty_count()) => (v, Label::Search),
                    _ => (result, Label::Game),
                }
            };
            out.push(Record {
                board: p.board,
                score: score.clamp(-64, 64),
                label,
                game,
                off_line: false,
            });
        }
        // Children of the line: (position, square, value, label).
        let deep = self
            .deep_siblings
            .iter()
            .map(|s| (s.position, s.square, s.value, Label::Search));
        let exact = self
            .siblings
            .iter()
            .filter(|_| siblings)
            .map(|s| (s.position, s.square, s.value, Label::Exact));
        for (position, square, value, label) in deep.chain(exact) {
            let Some(child) = positions.get(position as usize).and_then(|p| p.play(square as usize)) else {
                continue;
            };
            out.push(Record {
                board: child.board,
                score: value.clamp(-64, 64),
                label,
                game,
                off_line: true,
            });
        }
        // Walks are not off the line in the siblings' sense: random moves of both sides favour
        // neither, so they need no offset of their own.
        for w in &self.walks {
            if let Some(end) = Self::walk_end(positions, w) {
                out.push(Record {
                    board: end.board,
                    score: w.value.clamp(-64, 64),
                    label: Label::Exact,
                    game,
                    off_line: false,
                });
            }
        }
        out
    }
}

/// A value from the view of `p`'s side to move turned to Black's view (and back: the same map).
pub fn black_view(p: &Position, v: i32) -> i32 {
    match p.to_move {
        Color::Black => v,
        Color::White => -v,
    }
}
