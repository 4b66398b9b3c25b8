//! The protocols' `Think` on top of the real search: levels from `params/levels.txt`
//! (midgame depth, exact/WLD solve empties, selectivity), the trained evaluation, MPC.

use super::{Budget, Think, ThinkInfo, ThinkRequest, ThinkResult};
use crate::base::DepthKind;
use crate::base::OrderingEval;
use crate::base::SearchDepth;
use crate::board::Square;
use crate::board::bits::Squares;
use crate::search::levels::{Level, Levels};
use crate::search::midgame::Searcher;
use crate::search::request::{Driver, Limits, Pruning, SearchInfo, SearchRequest};
use crate::search::risk::{self, Risk, RiskLine};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

pub struct SearchThinker {
    searcher: Searcher,
    evals: Evaluations,
    levels: Levels,
    threads: usize,
}

fn info(i: &SearchInfo, prefix: Option<Square>, sign: f64, start: Instant, nodes_before: u64) -> ThinkInfo {
    ThinkInfo {
        pv: prefix.into_iter().chain(i.pv.iter().copied()).collect(),
        score: sign * f64::from(i.score),
        depth: SearchDepth::from(i.kind),
        nodes: nodes_before + i.nodes,
        seconds: start.elapsed().as_secs_f64(),
        odds: None,
    }
}

/// A root move of the risk-aware style as a reported line.
fn risk_info(l: &RiskLine) -> ThinkInfo {
    ThinkInfo {
        pv: l.pv.clone(),
        score: f64::from(l.score),
        depth: SearchDepth::from(l.kind),
        nodes: l.nodes,
        seconds: l.time.as_secs_f64(),
        odds: Some(l.odds),
    }
}

/// Seconds a game and side of levels 10-20 on this machine class (the level-time tables of
/// the ninth to twelfth sessions, self-play, one thread: docs/history/measurements.md#session-9
/// and the three after it; today's: docs/figures.md#levels-seconds-a-game), the ladder the
/// clock climbs.
const LEVEL_SECONDS: [(u32, f64); 11] = [
    (10, 0.06),
    (11, 0.09),
    (12, 0.165),
    (13, 0.19),
    (14, 0.37),
    (15, 0.51),
    (16, 0.8),
    (17, 1.1),
    (18, 2.5),
    (19, 4.6),
    (20, 7.5),
];

/// The share of a game's clock a level may need on average: games vary (a level's slowest game
/// takes about 1.5x its mean) and the hard limits cut the slow moves short.
const LEVEL_SHARE: f64 = 0.9;

/// Plies past the level's depth that a move by the clock may search when its target allows.
const CLOCK_EXTRA_PLIES: u32 = 4;

/// The search when the clock decides: the deepest level of the table whose seconds a game fit
/// the clock at its present pace (the levels' depths, solves and pruning were tuned at equal
/// time against NTest, and beat a search that only deepened by the clock: fourteenth session).
/// Beyond level 20's needs, level 20's pruning and solves with the midgame depth left to the
/// clock (depth 60: iterations stop at the time manager's target), and the exact and WLD solves
/// from as many empties as a third of the hard limit pays for (modelled as 0.03 s at 20 empties,
/// 1.9x a square more: FFO #20-#39, 20-26 empties, about 0.14 s each on this machine). Below
/// level 10's needs, the lower levels (about twice as fast a level).
///
/// The level chosen reads the non-linear layer (where there is one), whatever its row says:
/// by the clock, at equal time, the all-shapes layer won its SPRT(0, 15) against the same
/// engine without it (2 s a game, XOT openings: H1; docs/history/training.md#session-51).
/// The small-shape layer before it had shown no gain there (10 s a game: 49.0 % of 311 games),
/// and the clock kept the evaluation without a layer until then. Under a clock the first
/// search does not wait for the layer to be made (`waits_for_layer`).
pub fn clock_level(budget: Budget, empties: u32, levels: &Levels, threads: usize) -> Level {
    Level {
        layer: true,
        ..clock_row(budget, empties, levels, threads)
    }
}

/// How many times faster than one thread `threads` search, as the clock counts it: the
/// ladder's seconds are one thread's, and a search on two threads is 1.66-1.74x as fast on
/// two cores (docs/figures.md#threads-the-extra-nodes-more-threads-cost), so with the one-thread
/// ladder a two-thread engine chose one thread's level and left its clock unused (two threads
/// against one at 6 s a game: 56.2 %, 3.4 s of the 6 used; docs/history/measurements.md#session-55).
/// Modelled as threads^0.7 (1.62x for two), never counting more threads than cores.
fn thread_speed(threads: usize) -> f64 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (threads.clamp(1, cores.max(1)) as f64).powf(0.7)
}

/// The level row (or, past level 20's time, the depth-60 level) a clock's budget allows.
fn clock_row(budget: Budget, empties: u32, levels: &Levels, threads: usize) -> Level {
    let speed = thread_speed(threads);
    let game = crate::time::game_equivalent(budget.target, empties).as_secs_f64() * LEVEL_SHARE * speed;
    let (top, top_seconds) = LEVEL_SECONDS[LEVEL_SECONDS.len() - 1];
    if game < top_seconds * 2.0 {
        // The nearest level rather than the one below: the levels are 1.3-2x apart, and taking
        // the one below left a third of the clock unused; a level that runs over its share is
        // corrected at the next moves, whose pace is measured again.
        let level = match LEVEL_SECONDS.iter().rev().find(|&&(_, s)| s <= game * 1.2) {
            Some(&(l, _)) => l,
            // Levels 1-9: each about 1.6x the one below.
            None => (1..10u32)
                .rev()
                .find(|&l| LEVEL_SECONDS[0].1 / 1.6f64.powi(10 - l as i32) <= game)
                .unwrap_or(1),
        };
        return levels.get(level);
    }
    let allowed = budget.hard.as_secs_f64() / 3.0 * speed;
    let exact = (0..=14u32)
        .map(|k| 14 + k)
        .take_while(|&e| 0.03 * 1.9f64.powi(e as i32 - 20) <= allowed)
        .last()
        .unwrap_or(12);
    let base = levels.get(top);
    let wld = base.wld_empties.max(exact + 2);
    Level {
        depth: 60,
        exact_empties: base.exact_empties.max(exact),
        wld_empties: wld,
        probable_empties: base.probable_empties.map(|p| p.max(wld)),
        opening: None,
        late: None,
        ..base
    }
}

/// Makes the evaluation with the non-linear layer (the shipped weights with the shipped
/// layer), for `SearchThinker::set_layer_loader`.
pub type LayerLoader = Arc<dyn Fn() -> Result<Box<dyn OrderingEval + Send + Sync>, String> + Send + Sync>;

type Layered = OnceLock<Option<Box<dyn OrderingEval + Send + Sync>>>;

/// The engine's evaluations: one without the non-linear layer, and one with it for the levels
/// that read it (`Level::layer`).
struct Evaluations {
    plain: Box<dyn OrderingEval + Send + Sync>,
    /// The evaluation given when it has a layer; else `load`'s, made when a level that reads it
    /// is first searched, so that the other levels never pay the layer's load (about 0.04 s from
    /// the folded file) or its memory (about 55 MB). `None` inside when there is no layer to read.
    layered: Arc<Layered>,
    load: Option<LayerLoader>,
    /// A load has begun beside a search that could not wait for it.
    loading: AtomicBool,
}

/// Runs `load` (at most once for the cell: `OnceLock` makes a second caller wait for the first).
fn make_layer(load: &LayerLoader) -> Option<Box<dyn OrderingEval + Send + Sync>> {
    match load() {
        Ok(e) => Some(e),
        Err(problem) => {
            // The engine keeps serving: the level searches as the others do.
            log::warn!("{problem}: level searches without the layer");
            None
        }
    }
}

impl Evaluations {
    fn new(eval: Box<dyn OrderingEval + Send + Sync>) -> Evaluations {
        let (plain, layered) = match eval.without_layer() {
            Some(plain) => (plain, OnceLock::from(Some(eval))),
            None => (eval, OnceLock::new()),
        };
        Evaluations {
            plain,
            layered: Arc::new(layered),
            load: None,
            loading: AtomicBool::new(false),
        }
    }

    /// The evaluation a search at `level` reads. When the layer is still to be made, a thread
    /// makes it; a search that `waits` (no clock: a fixed level) waits for it unless `stop` is
    /// set meanwhile, so that a stop or a protocol command is never held up by the load; one
    /// under a clock, whose time the load would take, or one that runs until stopped (pondering,
    /// analysis) searches without it, and the searches after read it.
    fn for_level(&self, level: &Level, waits: bool, stop: &AtomicBool) -> &(dyn OrderingEval + Send + Sync) {
        let plain = self.plain.as_ref();
        if !level.layer {
            return plain;
        }
        if let Some(made) = self.layered.get() {
            return made.as_deref().unwrap_or(plain);
        }
        let Some(load) = &self.load else {
            return plain;
        };
        if !self.loading.swap(true, Ordering::Relaxed) {
            let (cell, making) = (Arc::clone(&self.layered), Arc::clone(load));
            let spawned = std::thread::Builder::new()
                .name("layer-load".into())
                .spawn(move || cell.get_or_init(|| make_layer(&making)).is_some());
            if let Err(e) = spawned {
                log::warn!("cannot start a thread to load the layer: {e}; loading it here");
                return self.layered.get_or_init(|| make_layer(load)).as_deref().unwrap_or(plain);
            }
        }
        if waits {
            while !stop.load(Ordering::Relaxed) {
                if let Some(made) = self.layered.get() {
                    return made.as_deref().unwrap_or(plain);
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        plain
    }
}

/// Whether a search for `req` waits for the layer to be made: a fixed level, no clock (its
/// result must not depend on how fast the load went).
fn waits_for_layer(req: &ThinkRequest) -> bool {
    req.time.is_none() && !req.until_stopped
}

impl SearchThinker {
    pub fn new(hash_mb: usize, eval: Box<dyn OrderingEval + Send + Sync>, levels: Levels, threads: usize) -> SearchThinker {
        SearchThinker {
            searcher: Searcher::new(hash_mb),
            evals: Evaluations::new(eval),
            levels,
            threads,
        }
    }

    /// Where the levels that read a layer get it when the evaluation given has none: `load` runs
    /// once, when such a level is first searched (`Evaluations::for_level`). Ignored when the
    /// evaluation given has a layer of its own.
    pub fn set_layer_loader(&mut self, load: LayerLoader) {
        if self.evals.layered.get().is_none() {
            self.evals.load = Some(load);
        }
    }

    /// Replaces the Multi-ProbCut table (e.g. one from `--params DIR`).
    pub fn set_mpc(&mut self, mpc: crate::search::mpc::MpcTable) {
        self.searcher.mpc = mpc;
    }

    fn request(&self, board: crate::board::Board, level: Level, depth: u32, time: Option<Budget>) -> SearchRequest {
        SearchRequest {
            board,
            limits: Limits {
                depth: Some(depth),
                time: time.map(|b| b.hard),
                target: time.map(|b| b.target),
            },
            exact_empties: level.exact_empties,
            wld_empties: level.wld_empties,
            probable_empties: level.probable_empties,
            driver: Driver::Pvs,
            pruning: Pruning::from_percent(level.selectivity_at(board.empty_count())),
            threads: self.threads,
            draw: 0,
        }
    }

    /// `hint N`: every root move valued at each depth in turn (one depth string per round, as
    /// NBoard expects), then solved when the level reaches the end.
    fn hint(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
        let start = Instant::now();
        let level = self.levels.get(req.level);
        let b = req.position.board;
        let mut nodes = 0;
        let mut best: Option<ThinkResult> = None;
        // Taken once: every move and depth of the request reads the same evaluation.
        let eval = self.evals.for_level(&level, waits_for_layer(req), stop);
        for depth in 1..=level.depth.max(1) {
            let mut round: Vec<ThinkInfo> = Vec::new();
            for sq in Squares(b.moves()) {
                let Some(child) = b.play(sq) else { continue };
                let r = if depth == 1 {
                    // One ply: the evaluation of the position after the move.
                    crate::search::request::SearchResult {
                        best: None,
                        score: eval.evaluate(&child).clamp(-64, 64),
                        kind: DepthKind::Midgame {
                            depth: 0,
                            percent: level.selectivity_at(child.empty_count()),
                        },
                        nodes: 1,
                        time: start.elapsed(),
                        pv: Vec::new(),
                    }
                } else {
                    let child_req = SearchRequest {
                        // The child's side to move is the other one.
                        draw: -crate::search::draw::from_discs(req.draw_value),
                        ..self.request(child, level, depth - 1, None)
                    };
                    self.searcher.run(&child_req, eval, stop, &mut |_| {})
                };
                if stop.load(Ordering::Relaxed) && !round.is_empty() {
                    break;
                }
                let kind = match r.kind {
                    DepthKind::Midgame { depth: d, percent } => DepthKind::Midgame { depth: d + 1, percent },
                    k => k,
                };
                let line = SearchInfo {
                    kind,
                    score: -r.score,
                    nodes: r.nodes,
                    time: r.time,
                    pv: r.pv,
                };
                round.push(info(&line, Some(Square::At(sq as u8)), 1.0, start, nodes));
                nodes += r.nodes;
            }
            round.sort_by(|x, y| y.score.total_cmp(&x.score));
            for line in round.iter().take(req.moves.max(1)) {
                report(line.clone());
            }
            if let Some(top) = round.first() {
                best = Some(ThinkResult {
                    best: top.pv.first().copied().unwrap_or(Square::Pass),
                    score: top.score,
                    depth: top.depth,
                    pv: top.pv.clone(),
                    nodes,
                    seconds: start.elapsed().as_secs_f64(),
                });
            }
            let solved = round
                .first()
                .is_some_and(|l| matches!(l.depth, SearchDepth::Exact | SearchDepth::Wld));
            if stop.load(Ordering::Relaxed) || solved {
                break;
            }
        }
        best.unwrap_or_else(|| {
            let sq = Square::At(b.moves().trailing_zeros() as u8);
            ThinkResult {
                best: sq,
                score: 0.0,
                depth: SearchDepth::Plies(0),
                pv: vec![sq],
                nodes,
                seconds: start.elapsed().as_secs_f64(),
            }
        })
    }
}

impl SearchThinker {
    /// The risk-aware style at `confidence` (`req.moves` > 1: every move valued, as `hint`).
    fn risk(
        &mut self,
        req: &ThinkRequest,
        sreq: &SearchRequest,
        level: &Level,
        confidence: u32,
        stop: &AtomicBool,
        report: &mut dyn FnMut(ThinkInfo),
    ) -> ThinkResult {
        let start = Instant::now();
        let all = req.moves > 1;
        let lines = risk::search(
            &mut self.searcher,
            sreq,
            Risk::new(confidence),
            self.evals.for_level(level, waits_for_layer(req), stop),
            stop,
            all,
            &mut |lines| {
                for l in lines.iter().take(req.moves.max(1)) {
                    report(risk_info(l));
                }
            },
        );
        let b = req.position.board;
        // Stopped before the first iteration: any legal move.
        let first = Square::At(b.moves().trailing_zeros() as u8);
        match lines.first() {
            Some(l) => ThinkResult {
                best: l.pv.first().copied().unwrap_or(first),
                score: f64::from(l.score),
                depth: SearchDepth::from(l.kind),
                pv: l.pv.clone(),
                nodes: l.nodes,
                seconds: start.elapsed().as_secs_f64(),
            },
            None => ThinkResult {
                best: first,
                score: 0.0,
                depth: SearchDepth::Plies(0),
                pv: vec![first],
                nodes: 0,
                seconds: start.elapsed().as_secs_f64(),
            },
        }
    }
}

impl Think for SearchThinker {
    fn think(&mut self, req: &ThinkRequest, stop: &AtomicBool, report: &mut dyn FnMut(ThinkInfo)) -> ThinkResult {
        let start = Instant::now();
        let level = match req.time {
            Some(budget) if req.by_clock => clock_level(budget, req.position.board.empty_count(), &self.levels, self.threads),
            _ => self.levels.get(req.level),
        };
        let b = req.position.board;
        let time = req.time.filter(|_| !req.until_stopped);
        // By the clock the level sets the solves, the pruning and the depth to reach; time
        // left over from the target buys a few more plies (the levels are 1.4-2.3x apart, and
        // stopping at the level's depth left a third of a clock equal to NTest's unused).
        let depth = level.depth_at(b.empty_count()) + if req.by_clock { CLOCK_EXTRA_PLIES } else { 0 };
        let sreq = SearchRequest {
            draw: crate::search::draw::from_discs(req.draw_value),
            ..self.request(b, level, depth.max(1), time)
        };
        // The style's lines carry the chances; within the solve depths the ordinary search
        // answers (σ = 0 there) and its lines get the chances of its result.
        let mpc = req.risk.map(|_| self.searcher.mpc.clone());
        let mut report = |mut i: ThinkInfo| {
            if let Some(mpc) = &mpc
                && i.odds.is_none()
            {
                let depth = match i.depth {
                    SearchDepth::Plies(d) | SearchDepth::Selective { depth: d, .. } => Some(d),
                    _ => None,
                };
                i.odds = Some(risk::odds(mpc, b.empty_count(), i.score.round() as i32, depth));
            }
            report(i)
        };
        if let Some(c) = req.risk.filter(|_| !risk::solved_by_search(&sreq)) {
            // The style values real scores (its distributions model them): no contempt.
            let sreq = SearchRequest { draw: 0, ..sreq };
            return self.risk(req, &sreq, &level, c, stop, &mut report);
        }
        if req.moves > 1 {
            return self.hint(req, stop, &mut report);
        }
        let r = self.searcher.run(
            &sreq,
            self.evals.for_level(&level, waits_for_layer(req), stop),
            stop,
            &mut |i| report(info(i, None, 1.0, start, 0)),
        );
        // The search always yields a move when the side to move has one; keep a legal fallback.
        let best = match r.best {
            Some(Square::At(sq)) if b.moves() >> sq & 1 != 0 => Square::At(sq),
            _ => Square::At(b.moves().trailing_zeros() as u8),
        };
        ThinkResult {
            best,
            score: f64::from(r.score),
            depth: SearchDepth::from(r.kind),
            pv: if r.pv.first() == Some(&best) { r.pv } else { vec![best] },
            nodes: r.nodes,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::Evaluator;

    fn thinker() -> SearchThinker {
        let eval = Evaluator::embedded().expect("embedded weights");
        SearchThinker::new(8, Box::new(eval), Levels::embedded().expect("levels"), 1)
    }

    /// A fixed-level search for the best move from `position`, no clock.
    fn request(position: Position, level: u32) -> ThinkRequest {
        ThinkRequest {
            position,
            level,
            time: None,
            moves: 1,
            draw_value: 0.0,
            risk: None,
            by_clock: false,
            until_stopped: false,
        }
    }

    #[test]
    fn go_and_hint_give_legal_moves_with_depth_strings() {
        let mut t = thinker();
        let stop = AtomicBool::new(false);
        let req = request(Position::start(), 4);
        let mut lines = Vec::new();
        let r = t.think(&req, &stop, &mut |i| lines.push(i));
        assert!(Position::start().board.moves() >> r.best.index().unwrap_or(64) & 1 != 0);
        assert_eq!(lines.last().map(|l| l.depth), Some(SearchDepth::Plies(4)));
        let mut hints = Vec::new();
        t.think(&ThinkRequest { moves: 4, ..req }, &stop, &mut |i| hints.push(i));
        // Four moves per round, four rounds.
        assert_eq!(hints.len(), 16);
        assert!(hints[12..].iter().all(|h| h.depth == SearchDepth::Plies(4)));
    }

    /// The embedded level table with level 6 marked `layer` (and no other).
    fn levels_with_layer_at_6() -> Levels {
        let text: String = crate::search::levels::EMBEDDED
            .lines()
            .map(|l| {
                let row = l.strip_suffix(" layer").unwrap_or(l);
                if row.starts_with("6 ") {
                    format!("{row} layer\n")
                } else {
                    format!("{row}\n")
                }
            })
            .collect();
        let levels = Levels::parse(&text, "t").expect("levels");
        assert!(levels.get(6).layer && !levels.get(5).layer && !levels.get(20).layer);
        levels
    }

    /// The shipped weights without and with a random layer, the levels of
    /// `levels_with_layer_at_6`, and the position after F5.
    fn layer_setup() -> (Evaluator, Evaluator, Levels, Position) {
        let plain = Evaluator::embedded().expect("embedded weights");
        let layered = plain.clone().with_net(&crate::eval::net::random_layers(16));
        let position = Position::start().play(37).expect("F5");
        (plain, layered, levels_with_layer_at_6(), position)
    }

    /// An evaluation with a layer: the levels whose row says `layer` read it, the others
    /// search as the evaluation without it does, node for node.
    #[test]
    fn only_the_levels_marked_layer_read_the_layer() {
        let (plain, layered, levels, position) = layer_setup();
        let stop = AtomicBool::new(false);
        let think = |eval: &Evaluator, level: u32| {
            let mut t = SearchThinker::new(8, Box::new(eval.clone()), levels.clone(), 1);
            let r = t.think(&request(position, level), &stop, &mut |_| {});
            (r.score, r.nodes)
        };
        assert_eq!(think(&layered, 5), think(&plain, 5));
        assert_ne!(think(&layered, 6), think(&plain, 6));
    }

    /// An evaluation without a layer and a loader (the shipped engine): the loader runs on the
    /// first search at a level that reads the layer and never again, never for the other
    /// levels, and the level then searches as with the layer given at start; a loader that
    /// fails leaves the level searching without the layer.
    #[test]
    fn the_layer_is_loaded_once_on_the_first_search_at_a_level_that_reads_it() {
        use std::sync::atomic::AtomicUsize;
        let (plain, layered, levels, position) = layer_setup();
        let stop = AtomicBool::new(false);
        let loads = Arc::new(AtomicUsize::new(0));
        let given = |eval: &Evaluator| SearchThinker::new(8, Box::new(eval.clone()), levels.clone(), 1);
        let loading = || {
            let mut t = given(&plain);
            let (counter, made) = (Arc::clone(&loads), layered.clone());
            t.set_layer_loader(Arc::new(move || {
                counter.fetch_add(1, Ordering::Relaxed);
                Ok(Box::new(made.clone()))
            }));
            t
        };
        // Each comparison on a new thinker: a search leaves its hash table to the next.
        let think = |t: &mut SearchThinker, level: u32| {
            let r = t.think(&request(position, level), &stop, &mut |_| {});
            (r.score, r.nodes)
        };
        let mut t = loading();
        assert_eq!(think(&mut t, 5), think(&mut given(&plain), 5));
        think(&mut t, 4);
        assert_eq!(loads.load(Ordering::Relaxed), 0);
        let mut t = loading();
        assert_eq!(think(&mut t, 6), think(&mut given(&layered), 6));
        assert_eq!(loads.load(Ordering::Relaxed), 1);
        think(&mut t, 6);
        think(&mut t, 5);
        assert_eq!(loads.load(Ordering::Relaxed), 1);
        let mut failing = given(&plain);
        failing.set_layer_loader(Arc::new(|| Err("params/net.bin (embedded): truncated".to_string())));
        assert_eq!(think(&mut failing, 6), think(&mut given(&plain), 6));
        assert_ne!(think(&mut given(&layered), 6), think(&mut given(&plain), 6));

        // Under a clock the first search does not wait: it searches without the layer while a
        // thread makes it, and the searches after read it.
        loads.store(0, Ordering::Relaxed);
        let timed = ThinkRequest {
            time: Some(Budget {
                target: std::time::Duration::from_secs(60),
                hard: std::time::Duration::from_secs(60),
            }),
            ..request(position, 6)
        };
        let timed_think = |t: &mut SearchThinker| {
            let r = t.think(&timed, &stop, &mut |_| {});
            (r.score, r.nodes)
        };
        let mut t = loading();
        assert_eq!(timed_think(&mut t), timed_think(&mut given(&plain)));
        let waited = Instant::now();
        while t.evals.layered.get().is_none() && waited.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(matches!(t.evals.layered.get(), Some(Some(_))), "the layer was not made");
        timed_think(&mut t);
        assert_eq!(loads.load(Ordering::Relaxed), 1);
    }

    /// More threads than one climb the ladder faster: a budget picks at least the level one
    /// thread would, and on a machine of two cores or more a higher one somewhere on the ladder.
    #[test]
    fn more_threads_pick_a_level_at_least_as_deep() {
        let levels = Levels::embedded().expect("embedded levels");
        assert_eq!(thread_speed(1), 1.0);
        let mut higher = false;
        for ms in [20u64, 50, 100, 200, 400, 800] {
            let d = std::time::Duration::from_millis(ms);
            let b = Budget { target: d, hard: d * 3 };
            let (one, two) = (clock_level(b, 40, &levels, 1), clock_level(b, 40, &levels, 2));
            assert!(two.depth >= one.depth, "{ms} ms: {} < {}", two.depth, one.depth);
            higher |= two.depth > one.depth;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(higher, cores >= 2);
    }

    /// A level chosen by the clock reads the layer at every budget, also where the row it
    /// takes is not marked (the shipped table marks only levels 17 and 20).
    #[test]
    fn the_clock_reads_the_layer_at_every_budget() {
        let levels = Levels::embedded().expect("embedded levels");
        assert!(!levels.get(12).layer && levels.get(17).layer);
        for secs in [0.05, 0.5, 2.0, 10.0, 60.0, 600.0] {
            let d = std::time::Duration::from_secs_f64(secs);
            let level = clock_level(Budget { target: d, hard: d * 3 }, 40, &levels, 1);
            assert!(level.layer, "{secs} s");
        }
    }

    /// Through the `Think` API with the real evaluation: Black to move, E7 ends the game
    /// 31-31 at once (a1 and a8 can never be played), A8 leads on to a position valued 0 at
    /// level 1. A draw worth a disc (NBoard `set contempt 100`) takes E7, worth minus one A8;
    /// the same for White with the colours swapped (the view is the side to move's here).
    #[test]
    fn contempt_chooses_between_a_sure_draw_and_an_estimate() {
        let stop = AtomicBool::new(false);
        let pos = crate::board::notation::parse_position("-XXXXXXXXOXOOOXXXOOXOXXXXOOOXXOOXXOXOOOOXOXXXOOOXOOO-OOO-OOOOOOO X")
            .expect("valid");
        let req = |draw_value| ThinkRequest {
            draw_value,
            ..request(pos, 1)
        };
        let mut t = thinker();
        let r = t.think(&req(1.0), &stop, &mut |_| {});
        assert_eq!((r.best, r.score), (Square::At(52), 1.0));
        let r = t.think(&req(-1.0), &stop, &mut |_| {});
        assert_eq!(r.best, Square::At(56));
        // The same searcher again (its table holds the other contempt's bounds).
        let r = t.think(&req(1.0), &stop, &mut |_| {});
        assert_eq!(r.best, Square::At(52));
    }
}
