//! What Edax's `book negamax` stores besides values: the bounds of each position's value and
//! the game statistics of the lines through it, computed from the start position as Edax
//! does, so that an exported book shows in Edax as if Edax had negamaxed it. Positions the
//! start does not reach keep their value as both bounds and no statistics.

use super::format::{NO_MOVE, PASS, Record};
use super::level;
use crate::board::Board;
use crate::board::symmetry::canonical;
use std::collections::HashMap;

/// Edax's default errors of midgame and selective endgame values, in discs.
pub const MIDGAME_ERROR: i32 = 2;
pub const ENDCUT_ERROR: i32 = 1;

#[derive(Clone, Copy, Default)]
struct Done {
    value: i32,
    lower: i32,
    upper: i32,
    wins: u64,
    draws: u64,
    losses: u64,
    lines: u64,
}

struct Negamax<'a> {
    records: &'a [Record],
    index: HashMap<(u64, u64), usize>,
    done: Vec<Option<Done>>,
}

impl Negamax<'_> {
    fn child(&self, r: &Record, mv: u8) -> Option<usize> {
        let b = Board::new(r.player, r.opponent);
        let next = match mv {
            PASS => Some(b.pass()),
            NO_MOVE => None,
            sq => b.play(usize::from(sq)),
        }?;
        let (c, _) = canonical(&next);
        self.index.get(&(c.player, c.opponent)).copied()
    }

    fn run(&mut self, i: usize) -> Done {
        if let Some(d) = self.done[i] {
            return d;
        }
        let r = &self.records[i];
        let empties = 64 - (r.player | r.opponent).count_ones();
        let (depth, selectivity) = level::search(r.level, empties);
        let bias = (depth & 1) as i32 - (empties & 1) as i32;
        let inf = 127;
        let mut d = Done {
            value: -inf,
            lower: -inf,
            upper: -inf,
            ..Done::default()
        };
        let leaf = i32::from(r.leaf.score);
        if r.leaf.mv != NO_MOVE && leaf > -inf {
            d.value = leaf;
            let error = if depth < empties {
                (MIDGAME_ERROR + bias, MIDGAME_ERROR - bias)
            } else if selectivity < 5 {
                (ENDCUT_ERROR, ENDCUT_ERROR)
            } else {
                match leaf.signum() {
                    1 => d.wins += 1,
                    -1 => d.losses += 1,
                    _ => d.draws += 1,
                }
                (0, 0)
            };
            d.lower = leaf - error.0;
            d.upper = leaf + error.1;
            d.lines += 1;
        }
        // Marked before the children: a cycle cannot happen (children have more discs, a pass
        // cannot follow a pass), but a bad file must not recurse forever.
        self.done[i] = Some(d);
        let links: Vec<u8> = r.links.iter().map(|l| l.mv).collect();
        for mv in links {
            let Some(c) = self.child(&self.records[i], mv) else {
                continue;
            };
            let cd = self.run(c);
            d.value = d.value.max(-cd.value);
            d.lower = d.lower.max(-cd.upper);
            d.upper = d.upper.max(-cd.lower);
            d.wins += cd.losses;
            d.draws += cd.draws;
            d.losses += cd.wins;
            d.lines += cd.lines;
        }
        // Stored as Edax stores them (u32, capped): children's counts are read back capped,
        // so that the many lines through transpositions cannot overflow.
        let cap = |x: u64| x.min(u64::from(u32::MAX));
        (d.wins, d.draws, d.losses, d.lines) = (cap(d.wins), cap(d.draws), cap(d.losses), cap(d.lines));
        self.done[i] = Some(d);
        d
    }
}

/// Sets the bounds and statistics of every record reached from the start position (link
/// scores and values are already the book's negamax).
pub fn negamax(records: &mut [Record]) {
    let index = records.iter().enumerate().map(|(i, r)| ((r.player, r.opponent), i)).collect();
    let mut n = Negamax {
        records,
        index,
        done: vec![None; records.len()],
    };
    let (start, _) = canonical(&Board::START);
    if let Some(&root) = n.index.get(&(start.player, start.opponent)) {
        n.run(root);
    }
    let done = n.done;
    let cap = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
    let short = |x: i32| x.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    for (r, d) in records.iter_mut().zip(done) {
        if let Some(d) = d {
            (r.lower, r.upper) = (short(d.lower), short(d.upper));
            (r.wins, r.draws, r.losses, r.lines) = (cap(d.wins), cap(d.draws), cap(d.losses), cap(d.lines));
        }
    }
}

/// Edax's order of links after `book sort`: a selection sort, best score first, of links
/// found in square order (as Edax's `book link` adds them); equal scores are not kept in order.
pub fn sort_links(r: &mut Record) {
    r.links.sort_by_key(|l| l.mv);
    let n = r.links.len();
    for i in 0..n.saturating_sub(1) {
        let mut best = i;
        for j in i + 1..n {
            if r.links[j].score > r.links[best].score {
                best = j;
            }
        }
        r.links.swap(i, best);
    }
}
