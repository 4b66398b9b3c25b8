//! The games of a version-4 shard: every field coded by the adaptive range coder
//! (`range_coder`) in a context where it is nearly predictable from what came before, so a
//! shard takes about a fifth of the bytes of the plain version 1–3 layout.
//!
//! Games follow one another in one stream whose models adapt across the whole shard. For each
//! game, in order (a "gap" is a position minus the previous one of its list minus 1, a
//! "difference" the value minus a prediction the decoder makes the same way; both as a
//! zigzagged byte):
//! - its number (the difference from the previous game's number + 1), start kind, opening
//!   plies, start id;
//! - the move count and each move as its rank among the legal moves of its position, in the
//!   context of how many there are (passes are implied, as in the plain layout);
//! - the result is not stored: it is the final board's (the replay that every shard gets
//!   checks it, and only games that replay are packed);
//! - the first position of perfect play, the difference from the first position with 20 or
//!   fewer empties (255 for none in both);
//! - the search labels: their count (the difference from the first position of perfect play,
//!   or the move count), then each value's difference from the previous one seen from this
//!   side (negated when the side to move changed), in the context of the empties;
//! - the deep labels: count, then each one's gap, depth and selectivity (differences from the
//!   previous deep label's in the shard) and value (difference from the position's search
//!   label);
//! - the siblings: count, then each one's gap, square (its rank among the position's legal
//!   moves, in the context of the previous sibling's rank at that position) and value
//!   (difference from minus the position's exact value: what the move not played loses);
//! - the deep siblings: the same, with depth and selectivity as the deep labels', and the value's
//!   difference from minus the position's deep label (its search label when it has none);
//! - the walks: count, then each one's gap, move count, moves as ranks among the legal moves, and
//!   the value of the position reached (in the context of its empties).

use super::game::{DeepLabel, DeepSibling, GameRecord, Sibling, Start, StartKind, Walk, black_view};
use super::range_coder::{Contexts, Decoder, Encoder, Tree, Uint, unzigzag, zigzag};
use crate::board::Position;

/// Contexts by empties: 4 empties each.
const EMPTIES_CONTEXTS: usize = 16;
/// Contexts for a rank: by the legal move count (or the previous rank + 1), up to 40.
const RANK_CONTEXTS: usize = 41;

/// The adaptive state of one shard's stream: the same sequence of updates on both sides.
struct Models {
    index: Uint,
    kind: Tree<2>,
    plies: Tree<8>,
    id: Uint,
    move_count: Tree<6>,
    moves: Contexts<6>,
    exact_from: Tree<8>,
    search_count: Tree<8>,
    search: Contexts<8>,
    deep_count: Tree<8>,
    deep_gap: Tree<8>,
    depth: Tree<8>,
    selectivity: Tree<8>,
    deep_value: Contexts<8>,
    sibling_count: Uint,
    sibling_place: ChildPlaces,
    sibling_value: Tree<8>,
    dsib_count: Uint,
    dsib_place: ChildPlaces,
    dsib_depth: Tree<8>,
    dsib_selectivity: Tree<8>,
    dsib_value: Contexts<8>,
    walk_count: Uint,
    walk_gap: Tree<8>,
    walk_length: Tree<6>,
    walk_moves: Contexts<6>,
    walk_value: Contexts<8>,
    /// The previous game's number, deep label's and deep sibling's depth and selectivity.
    last_index: u32,
    last_deep: (u8, u8),
    last_dsib: (u8, u8),
}

impl Models {
    fn new() -> Models {
        Models {
            index: Uint::default(),
            kind: Tree::default(),
            plies: Tree::default(),
            id: Uint::default(),
            move_count: Tree::default(),
            moves: Contexts::new(RANK_CONTEXTS),
            exact_from: Tree::default(),
            search_count: Tree::default(),
            search: Contexts::new(EMPTIES_CONTEXTS),
            deep_count: Tree::default(),
            deep_gap: Tree::default(),
            depth: Tree::default(),
            selectivity: Tree::default(),
            deep_value: Contexts::new(EMPTIES_CONTEXTS),
            sibling_count: Uint::default(),
            sibling_place: ChildPlaces::new(),
            sibling_value: Tree::default(),
            dsib_count: Uint::default(),
            dsib_place: ChildPlaces::new(),
            dsib_depth: Tree::default(),
            dsib_selectivity: Tree::default(),
            dsib_value: Contexts::new(EMPTIES_CONTEXTS),
            walk_count: Uint::default(),
            walk_gap: Tree::default(),
            walk_length: Tree::default(),
            walk_moves: Contexts::new(RANK_CONTEXTS),
            walk_value: Contexts::new(EMPTIES_CONTEXTS),
            last_index: u32::MAX,
            last_deep: (0, 0),
            last_dsib: (0, 0),
        }
    }
}

/// Where the children of the line (siblings, deep siblings) are: each one's position as a gap
/// from the one before, its square as its rank among the position's legal moves, in the context
/// of the previous child's rank when at the same position (0 at a new one).
struct ChildPlaces {
    gap: Tree<8>,
    rank: Contexts<6>,
    /// The previous child's position and rank in this game.
    last: (u8, u32),
}

impl ChildPlaces {
    fn new() -> ChildPlaces {
        ChildPlaces {
            gap: Tree::default(),
            rank: Contexts::new(RANK_CONTEXTS),
            last: (u8::MAX, 0),
        }
    }

    fn start_game(&mut self) {
        self.last = (u8::MAX, 0);
    }

    fn context(&self, position: u8) -> usize {
        if position == self.last.0 {
            self.last.1 as usize + 1
        } else {
            0
        }
    }

    /// Codes a child of `line[position]` by `square`; returns that position (None: not a legal
    /// move of a position of the line).
    fn put(&mut self, e: &mut Encoder, line: &[Position], position: u8, square: u8) -> Option<Position> {
        self.gap.put(e, diff(position, self.last.0.wrapping_add(1)));
        let p = *line.get(position as usize)?;
        let r = rank(p.board.moves(), square)?;
        self.rank.at(self.context(position)).put(e, r);
        self.last = (position, r);
        Some(p)
    }

    /// The next child: its position, square, and the position it is a child of.
    fn get(&mut self, d: &mut Decoder, line: &[Position], what: &str) -> Result<(u8, u8, Position), String> {
        let position = undiff(self.gap.get(d), self.last.0.wrapping_add(1));
        let p = *line
            .get(position as usize)
            .ok_or_else(|| format!("{what} on position {position} of {}", line.len()))?;
        let r = self.rank.at(self.context(position)).get(d);
        let square = square_of_rank(p.board.moves(), r).ok_or_else(|| format!("{what} of rank {r} on position {position}"))?;
        self.last = (position, r);
        Ok((position, square, p))
    }
}

fn empties_context(p: &Position) -> usize {
    p.board.empty_count() as usize / 4
}

/// `sq`'s rank among the set squares of `moves` (None: not one of them).
fn rank(moves: u64, sq: u8) -> Option<u32> {
    (sq < 64 && moves >> sq & 1 == 1).then(|| (moves & ((1u64 << sq) - 1)).count_ones())
}

/// The square of rank `r` among the set squares of `moves`.
fn square_of_rank(mut moves: u64, r: u32) -> Option<u8> {
    if r >= moves.count_ones() {
        return None;
    }
    for _ in 0..r {
        moves &= moves - 1;
    }
    Some(moves.trailing_zeros() as u8)
}

/// A byte minus a prediction, as a symbol (and back).
fn diff(v: u8, predicted: u8) -> u32 {
    zigzag(v.wrapping_sub(predicted) as i8)
}

fn undiff(symbol: u32, predicted: u8) -> u8 {
    predicted.wrapping_add(unzigzag(symbol) as u8)
}

/// The first position with 20 or fewer empties (255: none), where perfect play usually starts.
fn exact_prediction(line: &[Position]) -> u8 {
    line.iter().position(|p| p.board.empty_count() <= 20).map_or(255, |i| i as u8)
}

/// The predicted search label at position `i` from the one before it.
fn search_prediction(line: &[Position], search: &[i8], i: usize) -> i8 {
    match i {
        0 => 0,
        _ if line[i].to_move == line[i - 1].to_move => search[i - 1],
        _ => search[i - 1].wrapping_neg(),
    }
}

/// The line's exact value at `position` from its mover's view, when perfect play had started.
fn exact_at(line: &[Position], g: &GameRecord, position: usize) -> Option<i8> {
    let from = g.exact_from? as usize;
    (position >= from).then(|| black_view(&line[position], g.result as i32) as i8)
}

/// What a deep sibling's value is predicted from: minus its position's deep or search label.
fn dsib_prediction(g: &GameRecord, position: usize) -> i8 {
    let deep = g.deep.iter().rev().find(|d| d.position as usize == position).map(|d| d.value);
    deep.or_else(|| g.search.get(position).copied()).unwrap_or(0).wrapping_neg()
}

/// The packed bytes of `games`, or None when one of them does not replay (the caller then
/// keeps the plain layout, which stores any game as it is).
pub fn encode(games: &[GameRecord]) -> Option<Vec<u8>> {
    let mut m = Models::new();
    let mut e = Encoder::default();
    for g in games {
        let line = g.replay().ok()?;
        encode_game(g, &line, &mut m, &mut e)?;
    }
    Some(e.finish())
}

fn encode_game(g: &GameRecord, line: &[Position], m: &mut Models, e: &mut Encoder) -> Option<()> {
    m.index.put(e, g.index.wrapping_sub(m.last_index.wrapping_add(1)));
    m.last_index = g.index;
    m.kind.put(e, g.start.kind.code() as u32);
    m.plies.put(e, g.start.plies as u32);
    m.id.put(e, g.start.id);
    m.move_count.put(e, g.moves.len() as u32);
    for (p, &sq) in line.iter().zip(&g.moves) {
        let moves = p.board.moves();
        m.moves.at(moves.count_ones() as usize).put(e, rank(moves, sq)?);
    }
    m.exact_from.put(e, diff(g.exact_from.unwrap_or(255), exact_prediction(line)));
    m.search_count
        .put(e, diff(g.search.len() as u8, g.exact_from.map_or(line.len() as u8, |x| x)));
    for (i, &v) in g.search.iter().enumerate() {
        let predicted = search_prediction(line, &g.search, i);
        m.search.at(empties_context(&line[i])).put(e, diff(v as u8, predicted as u8));
    }
    m.deep_count.put(e, g.deep.len() as u32);
    let mut last = u8::MAX;
    for d in &g.deep {
        m.deep_gap.put(e, diff(d.position, last.wrapping_add(1)));
        last = d.position;
        m.depth.put(e, diff(d.depth, m.last_deep.0));
        m.selectivity.put(e, diff(d.selectivity, m.last_deep.1));
        m.last_deep = (d.depth, d.selectivity);
        let predicted = g.search.get(d.position as usize).copied().unwrap_or(0);
        let p = line.get(d.position as usize)?;
        m.deep_value
            .at(empties_context(p))
            .put(e, diff(d.value as u8, predicted as u8));
    }
    m.sibling_count.put(e, g.siblings.len() as u32);
    m.sibling_place.start_game();
    for s in &g.siblings {
        m.sibling_place.put(e, line, s.position, s.square)?;
        let predicted = exact_at(line, g, s.position as usize).unwrap_or(0).wrapping_neg();
        m.sibling_value.put(e, diff(s.value as u8, predicted as u8));
    }
    m.dsib_count.put(e, g.deep_siblings.len() as u32);
    m.dsib_place.start_game();
    for s in &g.deep_siblings {
        let p = m.dsib_place.put(e, line, s.position, s.square)?;
        m.dsib_depth.put(e, diff(s.depth, m.last_dsib.0));
        m.dsib_selectivity.put(e, diff(s.selectivity, m.last_dsib.1));
        m.last_dsib = (s.depth, s.selectivity);
        let predicted = dsib_prediction(g, s.position as usize);
        m.dsib_value
            .at(empties_context(&p))
            .put(e, diff(s.value as u8, predicted as u8));
    }
    m.walk_count.put(e, g.walks.len() as u32);
    let mut last = u8::MAX;
    for w in &g.walks {
        m.walk_gap.put(e, diff(w.position, last.wrapping_add(1)));
        last = w.position;
        m.walk_length.put(e, w.moves.len() as u32);
        let mut p = *line.get(w.position as usize)?;
        for &sq in &w.moves {
            if p.board.moves() == 0 {
                p = p.pass();
            }
            let moves = p.board.moves();
            m.walk_moves.at(moves.count_ones() as usize).put(e, rank(moves, sq)?);
            p = p.play(sq as usize)?;
        }
        let end = GameRecord::walk_end(line, w)?;
        m.walk_value.at(empties_context(&end)).put(e, zigzag(w.value));
    }
    Some(())
}

/// The `count` games packed in `bytes`; an error says what is wrong (the caller names the
/// file and checks each game by replaying it).
pub fn decode(bytes: &[u8], count: usize) -> Result<Vec<GameRecord>, String> {
    let mut m = Models::new();
    let mut d = Decoder::new(bytes);
    let mut games = Vec::with_capacity(count.min(bytes.len()));
    for k in 0..count {
        let g = decode_game(&mut m, &mut d).map_err(|msg| format!("game {} of {count}: {msg}", k + 1))?;
        if d.overran() {
            return Err(format!("game {} of {count}: the packed games end early", k + 1));
        }
        games.push(g);
    }
    Ok(games)
}

fn decode_game(m: &mut Models, d: &mut Decoder) -> Result<GameRecord, String> {
    let damaged = || "a damaged number".to_string();
    let index = m.last_index.wrapping_add(1).wrapping_add(m.index.get(d).ok_or_else(damaged)?);
    m.last_index = index;
    let kind = m.kind.get(d) as u8;
    let kind = StartKind::from_code(kind).ok_or_else(|| format!("unknown start kind {kind}"))?;
    let plies = m.plies.get(d) as u8;
    let id = m.id.get(d).ok_or_else(damaged)?;
    let n = m.move_count.get(d) as usize;
    if n > 60 {
        return Err(format!("{n} moves (at most 60)"));
    }
    let mut pos = Position::start();
    let mut line = Vec::with_capacity(n);
    let mut moves = Vec::with_capacity(n);
    for i in 0..n {
        if pos.board.moves() == 0 {
            pos = pos.pass();
        }
        let legal = pos.board.moves();
        let r = m.moves.at(legal.count_ones() as usize).get(d);
        let sq = square_of_rank(legal, r).ok_or_else(|| format!("move {}: no legal move of rank {r}", i + 1))?;
        line.push(pos);
        moves.push(sq);
        pos = pos
            .play(sq as usize)
            .ok_or_else(|| format!("move {}: {sq} is not legal", i + 1))?;
    }
    if pos.board.moves() == 0 {
        pos = pos.pass();
    }
    let result = black_view(&pos, pos.board.final_score()) as i8;
    let exact = undiff(m.exact_from.get(d), exact_prediction(&line));
    let exact_from = (exact != 255).then_some(exact);
    let s = undiff(m.search_count.get(d), exact_from.unwrap_or(n as u8)) as usize;
    if s > n {
        return Err(format!("{s} search labels for {n} positions"));
    }
    let mut search = Vec::with_capacity(s);
    for i in 0..s {
        let predicted = search_prediction(&line, &search, i);
        search.push(undiff(m.search.at(empties_context(&line[i])).get(d), predicted as u8) as i8);
    }
    let at = |position: u8, what: &str| {
        line.get(position as usize)
            .copied()
            .ok_or_else(|| format!("{what} on position {position} of {n}"))
    };
    let count = m.deep_count.get(d) as usize;
    let mut deep = Vec::with_capacity(count);
    let mut last = u8::MAX;
    for _ in 0..count {
        let position = undiff(m.deep_gap.get(d), last.wrapping_add(1));
        last = position;
        let depth = undiff(m.depth.get(d), m.last_deep.0);
        let selectivity = undiff(m.selectivity.get(d), m.last_deep.1);
        m.last_deep = (depth, selectivity);
        let p = at(position, "a deep label")?;
        let predicted = search.get(position as usize).copied().unwrap_or(0);
        let value = undiff(m.deep_value.at(empties_context(&p)).get(d), predicted as u8) as i8;
        deep.push(DeepLabel {
            position,
            depth,
            selectivity,
            value,
        });
    }
    let mut g = GameRecord {
        index,
        start: Start { kind, plies, id },
        moves,
        result,
        exact_from,
        search,
        deep,
        siblings: Vec::new(),
        deep_siblings: Vec::new(),
        walks: Vec::new(),
    };
    let count = m.sibling_count.get(d).ok_or_else(damaged)? as usize;
    if count > u16::MAX as usize {
        return Err(format!("{count} siblings"));
    }
    m.sibling_place.start_game();
    for _ in 0..count {
        let (position, square, _) = m.sibling_place.get(d, &line, "a sibling")?;
        let predicted = exact_at(&line, &g, position as usize).unwrap_or(0).wrapping_neg();
        let value = undiff(m.sibling_value.get(d), predicted as u8) as i8;
        g.siblings.push(Sibling { position, square, value });
    }
    let count = m.dsib_count.get(d).ok_or_else(damaged)? as usize;
    if count > u16::MAX as usize {
        return Err(format!("{count} deep siblings"));
    }
    m.dsib_place.start_game();
    for _ in 0..count {
        let (position, square, p) = m.dsib_place.get(d, &line, "a deep sibling")?;
        let depth = undiff(m.dsib_depth.get(d), m.last_dsib.0);
        let selectivity = undiff(m.dsib_selectivity.get(d), m.last_dsib.1);
        m.last_dsib = (depth, selectivity);
        let predicted = dsib_prediction(&g, position as usize);
        let value = undiff(m.dsib_value.at(empties_context(&p)).get(d), predicted as u8) as i8;
        g.deep_siblings.push(DeepSibling {
            position,
            square,
            depth,
            selectivity,
            value,
        });
    }
    let count = m.walk_count.get(d).ok_or_else(damaged)? as usize;
    if count > u16::MAX as usize {
        return Err(format!("{count} walks"));
    }
    let mut last = u8::MAX;
    for k in 0..count {
        let position = undiff(m.walk_gap.get(d), last.wrapping_add(1));
        last = position;
        let length = m.walk_length.get(d) as usize;
        if length > 60 {
            return Err(format!("a walk of {length} moves (at most 60)"));
        }
        let mut p = at(position, "a walk")?;
        let mut walk = Vec::with_capacity(length);
        for _ in 0..length {
            if p.board.moves() == 0 {
                p = p.pass();
            }
            let legal = p.board.moves();
            let r = m.walk_moves.at(legal.count_ones() as usize).get(d);
            let sq = square_of_rank(legal, r).ok_or_else(|| format!("walk {}: no legal move of rank {r}", k + 1))?;
            walk.push(sq);
            p = p
                .play(sq as usize)
                .ok_or_else(|| format!("walk {}: {sq} is not legal", k + 1))?;
        }
        let w = Walk {
            position,
            moves: walk,
            value: 0,
        };
        let end = GameRecord::walk_end(&line, &w).ok_or_else(|| format!("walk {} ends where no one can move", k + 1))?;
        let value = unzigzag(m.walk_value.at(empties_context(&end)).get(d));
        g.walks.push(Walk { value, ..w });
    }
    Ok(g)
}
