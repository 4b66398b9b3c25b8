//! Midgame search: iterative deepening over negamax PVS (NegaScout) with aspiration windows or
//! MTD(f) at the root, a transposition table, eval-based move ordering, and a hand-off to the
//! exact endgame solver when the remaining empties are within the requested solve depth.

use super::draw;
use super::endgame::{EXACT, SolveMode, SolveParams, Solver};
use super::mpc::{MpcTable, TO_END};
use super::request::{Driver, PROBABLE_PERCENTS, Pruning, SearchInfo, SearchRequest, SearchResult};
use super::split::{Pool, SplitPoint};
use super::stack::Stack;
use super::tt::{Store, TranspositionTable};
use crate::base::{DepthKind, Isa, Kernel, OrderingEval};
use crate::board::bits::{self, Squares};
use crate::board::{Board, Square};
use crate::eval::incremental::{Deltas, Features, LANES};
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Selectivity recorded in the TT for full-width (non-pruned) midgame results.
const FULL_WIDTH: u32 = 100;
/// Scores are discs; anything outside this range is a bound sentinel.
const INF: i32 = 65;
/// Half-width of the first aspiration window at the root, in discs.
const ASPIRATION: i32 = 3;
/// At this remaining depth and above, moves are ordered by a shallow search (below it, by the
/// children's static evaluation).
const SHALLOW_ORDER_DEPTH: u32 = 9;
/// Half-width of the window of the ordering searches around the node's alpha, in discs.
const ORDER_WINDOW: i32 = 2;
/// Ordered moves: (key, square, child position).
type Ordered = Stack<(i32, usize, Board), MAX_MOVES>;
/// The most legal moves a position has, with room to spare (the move lists' capacity).
const MAX_MOVES: usize = 64;
/// A principal variation on the stack (PV nodes made a heap line each before). 128 holds
/// every line: at most 60 moves and as many passes.
type Line = Stack<Square, 128>;
/// Nodes between two checks of the clock and the stop flag.
const POLL_INTERVAL: u64 = 4096;
/// ProbCut check searches may themselves use ProbCut only this many levels deep. Three (was
/// two): the deep checks of 18–22-ply searches are themselves deep enough to prune, and
/// level 17's games are the same at 0.83× its time (docs/history/measurements.md#session-10).
const MAX_MPC_NESTING: u32 = 3;
/// Null-window nodes this close to the leaves neither probe nor store the TT: the memory
/// access costs more than the few leaves it saves.
const TT_MIN_DEPTH: u32 = 3;
/// PV nodes share their younger brothers with idle threads at this remaining depth and above.
const SPLIT_MIN_DEPTH: u32 = 6;
/// Null-window nodes do so from this remaining depth, once their eldest brother (or any later
/// one) failed to refute them: from 4 rather than 6, and at any brother rather than the second
/// only, two threads searched `bench --depth 18 --selectivity 80` in 0.95x the time (fifty-fourth
/// session, with the waiting owner counted idle; docs/history/measurements.md#session-54).
const SPLIT_NWS_DEPTH: u32 = 4;
/// Null-window nodes at this remaining depth and above look up their children in the TT
/// before ordering them (enhanced transposition cutoff): one child already known to refute
/// the node saves the ordering searches and the move loop.
const ETC_MIN_DEPTH: u32 = 4;
/// Square classes in the order moves are tried near the leaves: corners, the edges' and the
/// centre's squares, the C-squares next to the corners, the X-squares diagonal to them.
const SQUARE_PRIORITY: [u64; 4] = [
    0x8100_0000_0000_0081,
    !(0x8100_0000_0000_0081 | 0x42C3_0000_0000_C342),
    0x4281_0000_0000_8142,
    0x0042_0000_0000_4200,
];
/// A selective search hands over to the exact solver at this many empties.
const SELECTIVE_SOLVE_EMPTIES: u32 = 12;

/// The engine's search: owns the transposition tables; one search at a time.
pub struct Searcher {
    tt: TranspositionTable,
    solver: Solver,
    /// Multi-ProbCut parameters (the embedded table unless replaced).
    pub mpc: MpcTable,
    /// The root's window (`run_window`); (-INF, INF) for `run`.
    window: (i32, i32),
}

/// Which compiled copy of the recursive functions a `Run` uses (see `base::kernel`).
struct Portable;
#[cfg(target_arch = "x86_64")]
struct X86V3;

/// Per-search state shared by the recursive functions; `K` picks the compiled copy.
struct Run<'a, K> {
    tt: &'a TranspositionTable,
    solver: &'a mut Solver,
    eval: &'a dyn OrderingEval,
    /// Updates the leaves' pattern indices move by move.
    deltas: &'static Deltas,
    mpc: &'a MpcTable,
    /// ProbCut threshold t (None: no ProbCut), N-best width, and the confidence percentage
    /// recorded with results.
    t: Option<f64>,
    nbest: Option<usize>,
    selectivity: u32,
    mpc_nesting: u32,
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
    /// The helper threads and the split points offered to them (None: one thread).
    pool: Option<&'a Pool>,
    /// The innermost split point this thread is searching under: its cut stops the work.
    split: Option<Arc<SplitPoint>>,
    /// The root's window: the aspiration windows stay inside it, a value outside is a bound.
    window: (i32, i32),
    /// The value of a proven draw to the root's side to move (`SearchRequest::draw`), and
    /// what says whose turn it is at a node: the root's empties and the parity of the passes
    /// on the way down (the side to move changes with every move and every pass).
    draw: i32,
    root_empties: u32,
    passes: u32,
    kernel: PhantomData<K>,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        // The endgame solver gets its own table, a quarter of the budget.
        Searcher {
            tt: TranspositionTable::new(hash_mb.max(4) * 3 / 4),
            solver: Solver::new(hash_mb.max(4) / 4),
            mpc: MpcTable::embedded().unwrap_or_default(),
            window: (-INF, INF),
        }
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.solver.tt.clear();
    }

    /// A lower bound on `b`'s value (for its side to move) that the table holds from a search
    /// at least `depth` plies deep at `percent` selectivity or more: what a search of `b` at
    /// that depth would take as a cut-off.
    pub fn known_lower_bound(&self, b: &Board, depth: u32, percent: u32) -> Option<i32> {
        self.tt
            .probe(b)
            .filter(|h| h.depth >= depth && h.selectivity >= percent)
            .map(|h| h.lower)
    }

    /// Runs a search. Progress goes to `report` after every iteration; `stop` aborts promptly and
    /// the best move found so far is still returned.
    pub fn run(
        &mut self,
        req: &SearchRequest,
        eval: &dyn OrderingEval,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tt.new_search();
        let start = Instant::now();
        let b = req.board;
        if b.moves() != 0 {
            return self.run_threads(req, eval, stop, start, report);
        }
        if b.pass().moves() == 0 {
            return SearchResult {
                best: None,
                score: b.final_score(),
                kind: DepthKind::Exact,
                nodes: 0,
                time: start.elapsed(),
                pv: Vec::new(),
            };
        }
        // Forced pass: search the opponent's position and present it from our side.
        let mut flipped = |i: &SearchInfo| {
            let mut pv = vec![Square::Pass];
            pv.extend(i.pv.iter().copied());
            report(&SearchInfo {
                score: -i.score,
                pv,
                ..i.clone()
            });
        };
        let passed = SearchRequest {
            board: b.pass(),
            draw: -req.draw,
            ..req.clone()
        };
        let window = self.window;
        self.window = (-window.1, -window.0);
        let mut r = self.run_threads(&passed, eval, stop, start, &mut flipped);
        self.window = window;
        r.score = -r.score;
        r.pv.insert(0, Square::Pass);
        r.best = Some(Square::Pass);
        r
    }

    /// `run` with the root's value wanted only inside (alpha, beta): a fail-soft value at or
    /// below alpha is an upper bound, at or above beta a lower bound (the risk-aware style's
    /// leaves). Solves within the solve depths are exact all the same.
    pub fn run_window(
        &mut self,
        req: &SearchRequest,
        eval: &dyn OrderingEval,
        stop: &AtomicBool,
        (alpha, beta): (i32, i32),
    ) -> SearchResult {
        self.window = (alpha.max(-INF), beta.min(INF));
        let r = self.run(req, eval, stop, &mut |_| {});
        self.window = (-INF, INF);
        r
    }

    /// The search proper. Several threads share the work at split points (`search::split`):
    /// once a node's first child is searched, idle threads take its younger brothers.
    /// A root within the solve depth also hands the solve to the solver's own threads.
    fn run_threads(
        &mut self,
        req: &SearchRequest,
        eval: &dyn OrderingEval,
        stop: &AtomicBool,
        start: Instant,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.solver.threads = req.threads.max(1);
        let kernel = self.solver.kernel;
        let args = RunArgs {
            window: self.window,
            tt: &self.tt,
            eval,
            mpc: &self.mpc,
            req,
            stop,
            start,
        };
        think(kernel, args, &mut self.solver, report)
    }
}

/// What one thread's `Run` is made of, besides its solver.
#[derive(Clone, Copy)]
struct RunArgs<'a> {
    window: (i32, i32),
    tt: &'a TranspositionTable,
    eval: &'a dyn OrderingEval,
    mpc: &'a MpcTable,
    req: &'a SearchRequest,
    stop: &'a AtomicBool,
    start: Instant,
}

/// Iterative deepening in the compiled copy `kernel` names, with `req.threads - 1` helper
/// threads waiting for split points for the length of the search.
fn think(kernel: Kernel, args: RunArgs<'_>, solver: &mut Solver, report: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
    let threads = args.req.threads.max(1);
    if threads == 1 {
        return main_thread(kernel, args, solver, None, report);
    }
    let pool = Pool::default();
    let mut solvers: Vec<Solver> = (1..threads).map(|_| Solver::with_table(solver.tt.clone())).collect();
    std::thread::scope(|scope| {
        for helper_solver in solvers.iter_mut() {
            let pool = &pool;
            scope.spawn(move || helper_thread(kernel, args, helper_solver, pool));
        }
        // Closed on the way out even if the main thread panics, so the helpers never wait on.
        let _close = ClosePool(&pool);
        main_thread(kernel, args, solver, Some(&pool), report)
    })
}

struct ClosePool<'p>(&'p Pool);

impl Drop for ClosePool<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

fn main_thread(
    kernel: Kernel,
    args: RunArgs<'_>,
    solver: &mut Solver,
    pool: Option<&Pool>,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let req = args.req;
    match kernel.isa() {
        Isa::Portable => Run::<Portable>::new(args, solver, pool).think(&req.board, req, report),
        // SAFETY: `Kernel::detect` found every feature this copy is compiled for.
        #[cfg(target_arch = "x86_64")]
        Isa::X86V3 => unsafe { Run::<X86V3>::new(args, solver, pool).think(&req.board, req, report) },
    }
}

/// A helper's life: jobs from the pool until the main thread's search is over.
fn helper_thread(kernel: Kernel, args: RunArgs<'_>, solver: &mut Solver, pool: &Pool) {
    match kernel.isa() {
        Isa::Portable => Run::<Portable>::new(args, solver, Some(pool)).help(),
        // SAFETY: `Kernel::detect` found every feature this copy is compiled for.
        #[cfg(target_arch = "x86_64")]
        Isa::X86V3 => unsafe { Run::<X86V3>::new(args, solver, Some(pool)).help() },
    }
}

impl<'a, K> Run<'a, K> {
    fn new(args: RunArgs<'a>, solver: &'a mut Solver, pool: Option<&'a Pool>) -> Run<'a, K> {
        let RunArgs {
            window,
            tt,
            eval,
            mpc,
            req,
            stop,
            start,
        } = args;
        Run {
            tt,
            solver,
            eval,
            deltas: Deltas::get(),
            mpc,
            t: match req.pruning {
                Pruning::ProbCut { t } => Some(t),
                _ => None,
            },
            nbest: match req.pruning {
                Pruning::NBest { n } => Some(n.max(1) as usize),
                _ => None,
            },
            selectivity: req.pruning.percent(),
            mpc_nesting: 0,
            stop,
            start,
            deadline: req.limits.time.map(|t| start + t),
            nodes: 0,
            aborted: false,
            pool,
            split: None,
            window,
            draw: req.draw,
            root_empties: req.board.empty_count(),
            passes: 0,
            kernel: PhantomData,
        }
    }

    /// Polls the stop flag and the clock every few thousand nodes.
    #[inline]
    fn poll(&mut self) -> bool {
        if self.nodes.is_multiple_of(POLL_INTERVAL) && !self.aborted {
            self.aborted = self.must_stop();
        }
        self.aborted
    }

    /// Stopped, out of time, or a brother at a split point above made the work useless.
    fn must_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.split.as_ref().is_some_and(|sp| sp.cut_here_or_above())
    }

    /// May this node share its moves? Only when a helper is waiting for work.
    #[inline]
    fn can_split(&self) -> bool {
        self.pool.is_some_and(|p| p.has_idle())
    }

    fn evaluate(&self, b: &Board) -> i32 {
        self.eval.evaluate(b).clamp(-64, 64)
    }

    /// The value of a proven draw to the side to move at `b`, a position of the tree below
    /// the root: the root's side gets `draw`, the other side its opposite; 0 without contempt.
    #[inline]
    fn draw_at(&self, b: &Board) -> i32 {
        if self.draw == 0 {
            return 0;
        }
        if (self.root_empties - b.empty_count() + self.passes).is_multiple_of(2) {
            self.draw
        } else {
            -self.draw
        }
    }

    /// The TT entries of `b` are kept apart by the value a draw has there: a bound found with
    /// one contempt (or for the other side under the same contempt) is not a bound under
    /// another. Tag 0 without contempt, so that those searches are unchanged.
    #[inline]
    fn tag(&self, b: &Board) -> u8 {
        self.draw_at(b) as i8 as u8
    }

    /// The score of the finished game `b`, a draw valued with contempt.
    #[inline]
    fn final_score(&self, b: &Board) -> i32 {
        draw::value(b.final_score(), self.draw_at(b))
    }

    /// The evaluation of a leaf whose pattern indices and legal moves are known. Only values
    /// within `[lo, hi]` need be exact (`OrderingEval::evaluate_features_within`; `lo > hi` for
    /// move ordering, which takes the cheap estimate).
    #[inline]
    fn evaluate_leaf(&self, b: &Board, me: &[u16; LANES], moves: u64, lo: i32, hi: i32) -> i32 {
        #[cfg(feature = "leaf-sample")]
        super::leaf_sample::offer(b);
        // SAFETY: every caller passes `b`'s indices, kept by the search from `Features::new`
        // at the root through `Features::play`/`play_me` with each move's real flips and `pass`.
        unsafe { self.eval.evaluate_features_within(b, me, moves, lo, hi) }.clamp(-64, 64)
    }

    /// The pattern indices of `child`, reached from `b` by a move on `sq`.
    #[inline]
    fn child_features(&self, b: &Board, f: &Features, sq: usize, child: &Board) -> Features {
        // The child's opponent owns the parent's discs, the new disc and the flipped ones.
        f.play(self.deltas, sq, child.opponent ^ b.player ^ (1u64 << sq))
    }

    /// Exact null-window value from the endgame solver (depth reaches the end of the game).
    /// With contempt the solver still answers about the real score: the question is moved to
    /// the real score's threshold and its bound valued back (`search::draw`).
    fn solve_nws(&mut self, b: &Board, alpha: i32) -> i32 {
        let draw = self.draw_at(b);
        let r = self
            .solver
            .null_window(b, draw::threshold(alpha, draw), self.stop, self.deadline, None);
        self.nodes += r.nodes;
        if r.aborted {
            self.aborted = true;
        }
        draw::value(r.score, draw)
    }

    /// Does the search reach the end of the game here and hand over to the exact solver?
    /// A selective search keeps pruning until only a few empties are left.
    fn solves_exactly(&self, b: &Board, depth: u32) -> bool {
        let empties = b.empty_count();
        depth >= empties && (self.selectivity >= FULL_WIDTH || empties <= SELECTIVE_SOLVE_EMPTIES)
    }

    /// Follows the TT's best moves from `b` (at most `depth` moves).
    fn tt_line(&self, b: &Board, depth: u32) -> Vec<Square> {
        let mut line = Vec::new();
        let mut cur = *b;
        // The line's own passes decide whose turn it is below `b` (the root here).
        let mut tag = self.tag(b);
        while (line.len() as u32) < depth {
            if cur.moves() == 0 {
                if cur.pass().moves() == 0 {
                    break;
                }
                line.push(Square::Pass);
                cur = cur.pass();
                tag = tag.wrapping_neg();
                continue;
            }
            let Some(sq) = self
                .tt
                .probe_tagged(&cur, tag)
                .and_then(|h| h.best)
                .filter(|&m| cur.moves() >> m & 1 != 0)
            else {
                break;
            };
            line.push(Square::At(sq as u8));
            cur = cur.play_flips(sq, bits::flips(cur.player, cur.opponent, sq));
            tag = tag.wrapping_neg();
        }
        line
    }

    /// Nodes of this thread and of the helpers' finished jobs.
    fn all_nodes(&self) -> u64 {
        self.nodes + self.pool.map_or(0, |p| p.helper_nodes.load(Ordering::Relaxed))
    }

    fn info(&self, kind: DepthKind, score: i32, pv: &[Square]) -> SearchInfo {
        SearchInfo {
            kind,
            score,
            nodes: self.all_nodes(),
            time: self.start.elapsed(),
            pv: pv.to_vec(),
        }
    }

    fn result(&self, info: SearchInfo) -> SearchResult {
        SearchResult {
            best: info.pv.first().copied(),
            score: info.score,
            kind: info.kind,
            nodes: self.all_nodes(),
            time: self.start.elapsed(),
            pv: info.pv,
        }
    }
}

/// Instantiates the recursive search functions for one compiled copy (kernel `$k`), each
/// carrying the given attributes (`#[target_feature]` for the fast copy); `$flips` computes a
/// move's flips (the AVX2 routine in the fast copy). See `base::kernel`.
macro_rules! midgame_impl {
    ($k:ty, $flips:path; $(#[$attr:meta])*) => {
        impl<'a> Run<'a, $k> {
            /// Multi-ProbCut: shallow null-window searches predict whether the `depth` search would
            /// fail high (v ≥ β) or low (v ≤ α); if one does with the configured confidence, cut.
            $(#[$attr])*
            fn probcut(&mut self, b: &Board, feats: &Features, alpha: i32, depth: u32) -> Option<i32> {
                let t = self.t?;
                if self.mpc_nesting >= MAX_MPC_NESTING {
                    return None;
                }
                let empties = b.empty_count();
                let fit_depth = if depth >= empties { TO_END } else { depth };
                let mpc = self.mpc;
                let beta = alpha + 1;
                for fit in mpc.checks_at(empties, fit_depth) {
                    self.mpc_nesting += 1;
                    let hi = ((t * fit.sigma + beta as f64 - fit.b) / fit.a).round() as i32;
                    let high = hi <= 64 && self.nws(b, feats, hi - 1, fit.check) >= hi;
                    let lo = ((-t * fit.sigma + alpha as f64 - fit.b) / fit.a).round() as i32;
                    let low = !high && lo >= -64 && self.nws(b, feats, lo, fit.check) <= lo;
                    self.mpc_nesting -= 1;
                    if self.aborted {
                        return Some(alpha);
                    }
                    if high {
                        return Some(beta);
                    }
                    if low {
                        return Some(alpha);
                    }
                }
                None
            }

            /// Moves of `b` ordered best first: TT move, then by a shallow search (deep nodes) or the
            /// evaluation of the child, with fewer opponent replies breaking ties.
            $(#[$attr])*
            fn ordered_moves(
                &mut self,
                b: &Board,
                f: &Features,
                depth: u32,
                alpha: i32,
                tt_move: Option<usize>,
                list: &mut Ordered,
            ) {
                for sq in Squares(b.moves()) {
                    let child = b.play_flips(sq, $flips(b.player, b.opponent, sq));
                    let replies = child.moves();
                    let key = if Some(sq) == tt_move {
                        i32::MAX
                    } else if depth >= 2 {
                        let cf = self.child_features(b, f, sq, &child);
                        let value = if depth >= SHALLOW_ORDER_DEPTH {
                            // A window around alpha: values far from it need no precision. A quarter
                            // of the depth: at the levels' selectivity deeper ordering searches
                            // (a third, from 7 plies) cost more time than their better order saves.
                            let (lo, hi) = ((alpha - ORDER_WINDOW).max(-INF), (alpha + ORDER_WINDOW).min(INF));
                            -self.pvs(&child, &cf, -hi, -lo, (depth - 5) / 4, &mut Line::new())
                        } else {
                            -self.evaluate_leaf(&child, cf.me(), replies, 1, 0)
                        };
                        value * 64 - replies.count_ones() as i32
                    } else {
                        -(replies.count_ones() as i32)
                    };
                    list.insert_sorted((key, sq, child), |x, y| x.0 > y.0);
                }
            }

            /// Null-window search: is the value of `b` (side to move) above `alpha`? Fail-soft.
            $(#[$attr])*
            fn nws(&mut self, b: &Board, f: &Features, alpha: i32, depth: u32) -> i32 {
                self.nodes += 1;
                if self.poll() {
                    return alpha;
                }
                let moves = b.moves();
                if moves == 0 {
                    if b.pass().moves() == 0 {
                        return self.final_score(b);
                    }
                    self.nodes -= 1;
                    self.passes ^= 1;
                    let s = -self.nws(&b.pass(), &f.pass(), -alpha - 1, depth);
                    self.passes ^= 1;
                    return s;
                }
                if depth == 0 {
                    return self.evaluate_leaf(b, f.me(), moves, alpha, alpha + 1);
                }
                if self.solves_exactly(b, depth) {
                    return self.solve_nws(b, alpha);
                }
                let mut tt_move = None;
                if let Some(h) = (depth >= TT_MIN_DEPTH).then(|| self.tt.probe_tagged(b, self.tag(b))).flatten() {
                    if h.depth >= depth && h.selectivity >= self.selectivity {
                        if h.lower > alpha {
                            return h.lower;
                        }
                        if h.upper <= alpha {
                            return h.upper;
                        }
                    }
                    tt_move = h.best;
                }
                self.nws_moves(b, f, alpha, depth, moves, tt_move)
            }

            /// `nws` of depth 0 for `child`, reached by `sq` flipping `flips` from the position
            /// whose indices are `f`: only the leaf's own view of the indices is computed,
            /// unless it must pass.
            $(#[$attr])*
            fn leaf(&mut self, child: &Board, f: &Features, sq: usize, flips: u64, alpha: i32) -> i32 {
                let moves = child.moves();
                if moves == 0 {
                    return self.nws(child, &f.play(self.deltas, sq, flips), alpha, 0);
                }
                self.nodes += 1;
                if self.poll() {
                    return alpha;
                }
                self.evaluate_leaf(child, &f.play_me(self.deltas, sq, flips), moves, alpha, alpha + 1)
            }

            /// The part of `nws` after the TT probe: ProbCut, then the moves.
            $(#[$attr])*
            fn nws_moves(&mut self, b: &Board, f: &Features, alpha: i32, depth: u32, moves: u64, tt_move: Option<usize>) -> i32 {
                if let Some(s) = self.probcut(b, f, alpha, depth) {
                    return s;
                }
                let mut best = -INF;
                let mut best_move = None;
                if depth <= 2 {
                    // Near the leaves a search or a sort per move costs more than it saves: the TT
                    // move first, then the squares by a fixed priority (sorting by the history
                    // heuristic saved 4-12 % of the nodes and cost 10-14 % more time).
                    let first = tt_move.filter(|&m| moves >> m & 1 != 0);
                    let rest = moves & !first.map_or(0, |m| 1u64 << m);
                    let by_class = SQUARE_PRIORITY.iter().flat_map(|&mask| Squares(rest & mask));
                    for sq in first.into_iter().chain(by_class) {
                        let flips = $flips(b.player, b.opponent, sq);
                        let child = b.play_flips(sq, flips);
                        let s = if depth == 1 {
                            -self.leaf(&child, f, sq, flips, -alpha - 1)
                        } else {
                            -self.nws(&child, &f.play(self.deltas, sq, flips), -alpha - 1, depth - 1)
                        };
                        if self.aborted {
                            return alpha;
                        }
                        if s > best {
                            best = s;
                            best_move = Some(sq);
                            if s > alpha {
                                break;
                            }
                        }
                    }
                } else {
                    if depth >= ETC_MIN_DEPTH
                        && let Some(s) = self.etc(b, alpha, depth, moves)
                    {
                        return s;
                    }
                    // The table's move first, before the others are ordered: where it refutes
                    // the node (most cut nodes), the ordering's evaluations or searches of every
                    // other child are not needed (Egaroucid orders only after its TT move).
                    let first = tt_move.filter(|&m| moves >> m & 1 != 0);
                    let mut searched = 0;
                    if let Some(sq) = first {
                        let child = b.play_flips(sq, $flips(b.player, b.opponent, sq));
                        let s = -self.nws(&child, &self.child_features(b, f, sq, &child), -alpha - 1, depth - 1);
                        if self.aborted {
                            return alpha;
                        }
                        (best, best_move, searched) = (s, Some(sq), 1);
                    }
                    let mut list = Ordered::new();
                    if best <= alpha {
                        // The table's move is keyed first without an evaluation: it is skipped.
                        self.ordered_moves(b, f, depth, alpha, first, &mut list);
                    }
                    let all = list.as_slice();
                    let from = searched.min(all.len());
                    let list = &all[from..all.len().min(self.nbest.unwrap_or(usize::MAX)).max(from)];
                    for (i, &(_, sq, child)) in list.iter().enumerate() {
                        if i + searched >= 1 && depth >= SPLIT_NWS_DEPTH && list.len() - i > 1 && self.can_split() {
                            // The elder brothers did not refute the node: share the others.
                            let values = self.split_search(b, f, &list[i..], alpha, depth, true);
                            for (v, &(_, sq, _)) in values.iter().zip(&list[i..]) {
                                if let Some(v) = *v
                                    && v > best
                                {
                                    (best, best_move) = (v, Some(sq));
                                }
                            }
                            break;
                        }
                        let s = -self.nws(&child, &self.child_features(b, f, sq, &child), -alpha - 1, depth - 1);
                        if self.aborted || s > alpha {
                            (best, best_move) = (s, Some(sq));
                            break;
                        }
                        if s > best {
                            (best, best_move) = (s, Some(sq));
                        }
                    }
                    if self.aborted {
                        return alpha;
                    }
                }
                if depth < TT_MIN_DEPTH {
                    return best;
                }
                self.tt.store_tagged(
                    b,
                    Store {
                        depth,
                        selectivity: self.selectivity,
                        alpha,
                        beta: alpha + 1,
                        score: best,
                        best: best_move,
                    },
                    self.tag(b),
                );
                best
            }

            /// Enhanced transposition cutoff: a child whose TT upper bound (from its side) is below
            /// `-alpha` proves `b` above `alpha`; that bound is returned.
            $(#[$attr])*
            fn etc(&self, b: &Board, alpha: i32, depth: u32, moves: u64) -> Option<i32> {
                // The children's side to move is the other one.
                let tag = self.tag(b).wrapping_neg();
                for sq in Squares(moves) {
                    let child = b.play_flips(sq, $flips(b.player, b.opponent, sq));
                    if let Some(h) = self.tt.probe_tagged(&child, tag)
                        && h.depth + 1 >= depth
                        && h.selectivity >= self.selectivity
                        && -h.upper > alpha
                    {
                        return Some(-h.upper);
                    }
                }
                None
            }

            /// Principal-variation search with window (alpha, beta); `pv` receives the line when the
            /// value is inside the window.
            $(#[$attr])*
            fn pvs(&mut self, b: &Board, f: &Features, alpha: i32, beta: i32, depth: u32, pv: &mut Line) -> i32 {
                self.nodes += 1;
                pv.clear();
                if self.poll() {
                    return alpha;
                }
                let moves = b.moves();
                if moves == 0 {
                    if b.pass().moves() == 0 {
                        return self.final_score(b);
                    }
                    self.nodes -= 1;
                    let mut child_pv = Line::new();
                    self.passes ^= 1;
                    let s = -self.pvs(&b.pass(), &f.pass(), -beta, -alpha, depth, &mut child_pv);
                    self.passes ^= 1;
                    pv.push(Square::Pass);
                    pv.extend_from_slice(child_pv.as_slice());
                    return s;
                }
                if depth == 0 {
                    return self.evaluate_leaf(b, f.me(), moves, alpha, beta);
                }
                if self.solves_exactly(b, depth) {
                    // Exact from here: the solver's PV search gives value and line together.
                    let r = self.solver.solve_alone(
                        b,
                        &SolveParams {
                            mode: SolveMode::Exact,
                            guess: self.evaluate(b),
                            eval: Some(self.eval),
                            deadline: self.deadline,
                            selectivity: EXACT,
                        },
                        self.stop,
                    );
                    self.nodes += r.nodes;
                    self.aborted |= r.aborted;
                    pv.extend_from_slice(&r.pv);
                    return draw::value(r.score, self.draw_at(b));
                }
                let tt_move = self.tt.probe_tagged(b, self.tag(b)).and_then(|h| h.best);
                let alpha0 = alpha;
                let mut alpha = alpha;
                let mut best = -INF;
                let mut best_move = None;
                let mut child_pv = Line::new();
                let mut list = Ordered::new();
                self.ordered_moves(b, f, depth.max(2), alpha, tt_move, &mut list);
                let list = list.as_slice();
                // Null-window values of younger brothers found by the threads together, each with
                // the alpha it was searched against.
                let mut scanned: [Option<(i32, i32)>; MAX_MOVES] = [None; MAX_MOVES];
                for (i, &(_, sq, child)) in list.iter().enumerate() {
                    let cf = self.child_features(b, f, sq, &child);
                    let mut s;
                    if i == 0 {
                        s = -self.pvs(&child, &cf, -beta, -alpha, depth - 1, &mut child_pv);
                    } else {
                        child_pv.clear();
                        if scanned[i].is_none() && depth >= SPLIT_MIN_DEPTH && list.len() - i >= 2 && self.can_split() {
                            let values = self.split_search(b, f, &list[i..], alpha, depth, true);
                            for (slot, v) in scanned[i..].iter_mut().zip(values) {
                                *slot = v.map(|v| (v, alpha));
                            }
                            if self.aborted {
                                return best.max(alpha0);
                            }
                        }
                        // A value that failed high against an older alpha is a lower bound: above
                        // today's alpha it goes to the re-search, below it says nothing.
                        s = match scanned[i] {
                            Some((v, a)) if v <= a || v > alpha => v,
                            _ => -self.nws(&child, &cf, -alpha - 1, depth - 1),
                        };
                        if s > alpha && s < beta && !self.aborted {
                            s = -self.pvs(&child, &cf, -beta, -alpha, depth - 1, &mut child_pv);
                        }
                    }
                    if self.aborted {
                        return best.max(alpha0);
                    }
                    if s > best {
                        best = s;
                        best_move = Some(sq);
                        pv.clear();
                        pv.push(Square::At(sq as u8));
                        pv.extend_from_slice(child_pv.as_slice());
                        if s > alpha {
                            alpha = s;
                            if s >= beta {
                                break;
                            }
                        }
                    }
                }
                self.tt.store_tagged(
                    b,
                    Store {
                        depth,
                        selectivity: self.selectivity,
                        alpha: alpha0,
                        beta,
                        score: best,
                        best: best_move,
                    },
                    self.tag(b),
                );
                best
            }

            /// The null-window values of `children` against `alpha` (parent's view), searched by
            /// this thread and whichever helpers join. None: not searched (a brother was above
            /// alpha and `stop_on_cut`, or the search was stopped).
            $(#[$attr])*
            fn split_search(
                &mut self,
                b: &Board,
                f: &Features,
                children: &[(i32, usize, Board)],
                alpha: i32,
                depth: u32,
                stop_on_cut: bool,
            ) -> Vec<Option<i32>> {
                let Some(pool) = self.pool else { return vec![None; children.len()] };
                let sp = Arc::new(SplitPoint::new(
                    *b,
                    *f,
                    children.iter().map(|&(_, sq, child)| (sq, child)).collect(),
                    (alpha, depth, self.mpc_nesting, self.passes),
                    stop_on_cut,
                    self.split.clone(),
                ));
                pool.publish(&sp);
                self.share(&sp);
                pool.withdraw(&sp);
                // Wait for the helpers still inside, helping with the points below this one
                // (counted idle meanwhile, so that they make such points).
                let mut waiting = Some(pool.owner_waiting());
                while sp.busy() {
                    match pool.job_under(&sp) {
                        Some(job) => {
                            drop(waiting.take());
                            self.share(&job);
                            job.leave();
                            waiting = Some(pool.owner_waiting());
                        }
                        None => std::hint::spin_loop(),
                    }
                }
                drop(waiting);
                // A cut of this point stopped this thread's own child, not its search.
                self.aborted = self.must_stop();
                sp.values()
            }

            /// This thread's part of a split point: children in turn until none is left, the
            /// point is cut or the search is stopped. Restores the thread's own split point.
            $(#[$attr])*
            fn share(&mut self, sp: &Arc<SplitPoint>) {
                let outer = self.split.replace(sp.clone());
                let nesting = std::mem::replace(&mut self.mpc_nesting, sp.mpc_nesting);
                let passes = std::mem::replace(&mut self.passes, sp.passes);
                while let Some((k, sq, child)) = sp.take() {
                    let cf = self.child_features(&sp.board, &sp.features, sq, &child);
                    let v = -self.nws(&child, &cf, -sp.alpha - 1, sp.depth - 1);
                    if self.aborted {
                        break;
                    }
                    sp.record(k, v);
                }
                self.mpc_nesting = nesting;
                self.passes = passes;
                self.split = outer;
                self.aborted = self.must_stop();
            }

            /// A helper thread's life: jobs from the pool until the search is over.
            $(#[$attr])*
            fn help(&mut self) {
                let Some(pool) = self.pool else { return };
                while let Some(job) = pool.wait_for_job() {
                    let before = self.nodes;
                    self.share(&job);
                    pool.helper_nodes.fetch_add(self.nodes - before, Ordering::Relaxed);
                    job.leave();
                }
            }

            /// One root iteration at `depth` by PVS with aspiration windows around `guess`.
            $(#[$attr])*
            fn root_pvs(&mut self, b: &Board, depth: u32, guess: i32, pv: &mut Line) -> i32 {
                let f = Features::new(self.deltas, b);
                let mut delta = ASPIRATION;
                let (lo, hi) = self.window;
                // A guess outside a narrow root window (the risk style's leaves) would give an
                // empty aspiration window; inside the full window this changes nothing.
                let guess = guess.clamp(lo, hi);
                let (mut alpha, mut beta) = if depth <= 2 {
                    (lo, hi)
                } else {
                    ((guess - delta).max(lo), (guess + delta).min(hi))
                };
                loop {
                    let s = self.pvs(b, &f, alpha, beta, depth, pv);
                    if self.aborted {
                        return s;
                    }
                    if s <= alpha && alpha > lo {
                        alpha = (s - delta).max(lo);
                    } else if s >= beta && beta < hi {
                        beta = (s + delta).min(hi);
                    } else {
                        return s;
                    }
                    delta *= 2;
                }
            }

            /// One root iteration at `depth` by MTD(f): null-window probes from `guess` until the
            /// bounds meet; the PV is read back from the TT.
            $(#[$attr])*
            fn root_mtdf(&mut self, b: &Board, depth: u32, guess: i32, pv: &mut Line) -> i32 {
                if depth < TT_MIN_DEPTH || self.solves_exactly(b, depth) {
                    // Null-window nodes this shallow leave no best move in the TT to read back,
                    // and a root the solver answers stores none either: the line read back was
                    // the last iteration's, whose first move need not reach the solved value.
                    return self.root_pvs(b, depth, guess, pv);
                }
                let f = Features::new(self.deltas, b);
                let (mut lower, mut upper) = (-INF, INF);
                let mut g = guess;
                while lower < upper {
                    let beta = if g == lower { g + 1 } else { g };
                    g = self.nws(b, &f, beta - 1, depth);
                    if self.aborted {
                        return g;
                    }
                    if g < beta {
                        upper = g;
                    } else {
                        lower = g;
                    }
                }
                pv.clear();
                pv.extend_from_slice(&self.tt_line(b, depth));
                g
            }

            /// Iterative deepening, then (within the solve depth) an exact or WLD solve. `b` has moves.
            $(#[$attr])*
            fn think(&mut self, b: &Board, req: &SearchRequest, report: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
                let empties = b.empty_count();
                // The mode and the confidence of the last pass (`EXACT`: a proof).
                let solve = if empties <= req.exact_empties {
                    Some((SolveMode::Exact, EXACT))
                } else if empties <= req.wld_empties {
                    Some((SolveMode::Wld, EXACT))
                } else {
                    PROBABLE_PERCENTS
                        .iter()
                        .zip(req.probable_empties)
                        .find(|&(_, most)| empties <= most)
                        .map(|(&percent, _)| (SolveMode::Wld, percent))
                };
                // Before a solve a short midgame search supplies the guess and a fallback move.
                let max_depth = match solve {
                    Some(_) => req.limits.depth.unwrap_or(60).min(empties.saturating_sub(10).clamp(1, 10)),
                    None => req.limits.depth.unwrap_or(60).min(empties),
                };
                let mut last: Option<SearchInfo> = None;
                let mut guess = self.evaluate(b);
                for depth in 1..=max_depth.max(1) {
                    let mut pv = Line::new();
                    let score = match req.driver {
                        Driver::Pvs => self.root_pvs(b, depth, guess, &mut pv),
                        Driver::Mtdf => self.root_mtdf(b, depth, guess, &mut pv),
                    };
                    // A stopped iteration is discarded, except that depth 1 always yields a move.
                    if self.aborted && last.is_some() {
                        break;
                    }
                    if pv.is_empty() {
                        // Only an aborted first iteration can end without a line: take the best-ordered move.
                        let mut list = Ordered::new();
                        self.ordered_moves(b, &Features::new(self.deltas, b), 1, 0, None, &mut list);
                        let first = list.as_slice().first().map_or(0, |m| m.1);
                        pv.push(Square::At(first as u8));
                    }
                    guess = score;
                    let kind = if depth >= empties {
                        DepthKind::Exact
                    } else {
                        DepthKind::Midgame {
                            depth,
                            percent: self.selectivity,
                        }
                    };
                    // A proven result is reported as it is: real scores are even, so an exact
                    // value of ±1 is a draw valued with contempt.
                    let score = if kind == DepthKind::Exact && self.draw != 0 && score == self.draw {
                        0
                    } else {
                        score
                    };
                    let info = self.info(kind, score, pv.as_slice());
                    report(&info);
                    last = Some(info);
                    if self.aborted || kind == DepthKind::Exact {
                        break;
                    }
                    // Do not start an iteration that would most likely be cut off by the clock.
                    if let Some(limit) = self.deadline.map(|d| d.saturating_duration_since(self.start))
                        && self.start.elapsed() > limit.mul_f64(0.3)
                    {
                        break;
                    }
                    if req.limits.target.is_some_and(|t| self.start.elapsed() > t.mul_f64(0.85)) {
                        break;
                    }
                }
                let mut best = last.unwrap_or_else(|| {
                    self.info(
                        DepthKind::Midgame {
                            depth: 0,
                            percent: FULL_WIDTH,
                        },
                        guess,
                        &[],
                    )
                });
                // Selective endgame: a ProbCut search to the end first gives a probable result fast.
                // Without a clock it is only the solve's guess, and from `selective_root_min`
                // empties the solver's own ProbCut passes give that guess themselves.
                let solver_passes = self.deadline.is_none() && empties >= self.solver.config.selective_root_min;
                if solve.is_some() && self.selectivity < FULL_WIDTH && !self.aborted && empties > SELECTIVE_SOLVE_EMPTIES && !solver_passes {
                    let mut pv = Line::new();
                    let score = self.root_pvs(b, empties, best.score, &mut pv);
                    if !self.aborted && !pv.is_empty() {
                        best = self.info(
                            DepthKind::Midgame {
                                depth: empties,
                                percent: self.selectivity,
                            },
                            score,
                            pv.as_slice(),
                        );
                        report(&best);
                    }
                }
                // The solve depths are the level's promise: a midgame depth limit below them does
                // not skip the solve (it did, and levels 10-19 played their 'solved' empties with
                // a ProbCut search that lost won endgames).
                if let Some((mode, selectivity)) = solve.filter(|_| !self.aborted) {
                    let r = self.solver.solve_with(
                        b,
                        &SolveParams {
                            mode,
                            guess: best.score,
                            eval: Some(self.eval),
                            deadline: self.deadline,
                            selectivity,
                        },
                        self.stop,
                    );
                    self.nodes += r.nodes;
                    if !r.aborted {
                        let kind = match mode {
                            SolveMode::Exact => DepthKind::Exact,
                            SolveMode::Wld if selectivity >= EXACT => DepthKind::Wld,
                            SolveMode::Wld => DepthKind::ProbableWld { percent: selectivity },
                        };
                        best = self.info(kind, r.score, &r.pv);
                        report(&best);
                    }
                }
                self.result(best)
            }
        }
    };
}

midgame_impl!(Portable, crate::board::bits::flips;);
#[cfg(target_arch = "x86_64")]
midgame_impl!(X86V3, crate::board::bits::flips_avx2; #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::play_transcript;
    use crate::board::{Board, Position};
    use crate::search::request::Limits;
    use std::time::Duration;

    /// A small stand-in evaluation for tests: discs and mobility.
    struct TestEval;
    impl OrderingEval for TestEval {
        fn evaluate(&self, b: &Board) -> i32 {
            let mob = b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32;
            let corners = 0x8100_0000_0000_0081u64;
            let c = (b.player & corners).count_ones() as i32 - (b.opponent & corners).count_ones() as i32;
            (mob + 4 * c).clamp(-64, 64)
        }
    }

    /// Plain fixed-depth negamax with the same leaf rules: the oracle.
    fn negamax(b: &Board, depth: u32) -> i32 {
        let m = b.moves();
        if m == 0 {
            if b.pass().moves() == 0 {
                return b.final_score();
            }
            return -negamax(&b.pass(), depth);
        }
        if depth == 0 {
            return TestEval.evaluate(b).clamp(-64, 64);
        }
        Squares(m)
            .map(|sq| -negamax(&b.play(sq).unwrap_or(*b), depth - 1))
            .max()
            .unwrap_or(-INF)
    }

    fn request(b: Board, depth: u32, driver: Driver) -> SearchRequest {
        SearchRequest {
            driver,
            ..SearchRequest::fixed_depth(b, depth)
        }
    }

    fn opening(moves: &str) -> Board {
        play_transcript(Position::start(), moves)
            .map(|l| l[l.len() - 1].board)
            .unwrap_or(Board::START)
    }

    #[test]
    fn fixed_depth_value_equals_negamax_for_both_drivers() {
        let stop = AtomicBool::new(false);
        for line in ["f5d6c3d3c4", "f5f6e6f4e3", "c4c3d3c5b3"] {
            let b = opening(line);
            for depth in 1..=5 {
                let want = negamax(&b, depth);
                for driver in [Driver::Pvs, Driver::Mtdf] {
                    let mut s = Searcher::new(8);
                    let r = s.run(&request(b, depth, driver), &TestEval, &stop, &mut |_| {});
                    assert_eq!(r.score, want, "{line} depth {depth} {driver:?}");
                    // The reported best move achieves the value.
                    let Some(Square::At(sq)) = r.best else { panic!("no move") };
                    let child = b.play(sq as usize).expect("legal best move");
                    assert_eq!(-negamax(&child, depth - 1), want);
                }
            }
        }
    }

    /// Nodes from depth 6 (PV) and 4 (null-window) share their younger brothers with idle threads (PV nodes under PVS,
    /// null-window nodes under both drivers; MTD(f) splits at its null-window root at once):
    /// the value of a full-width search stays the negamax value, and the best move achieves it.
    #[test]
    fn split_search_equals_negamax() {
        let stop = AtomicBool::new(false);
        for line in ["f5d6c3d3c4f4", "f5f6e6f4e3c5", "c4c3d3c5b3f4"] {
            let b = opening(line);
            let want = negamax(&b, 7);
            for threads in [2, 3] {
                for driver in [Driver::Pvs, Driver::Mtdf] {
                    let req = SearchRequest {
                        threads,
                        ..request(b, 7, driver)
                    };
                    let r = Searcher::new(8).run(&req, &TestEval, &stop, &mut |_| {});
                    assert_eq!(r.score, want, "{line} {threads} threads {driver:?}");
                    let Some(Square::At(sq)) = r.best else { panic!("no move") };
                    let child = b.play(sq as usize).expect("legal best move");
                    assert_eq!(-negamax(&child, 6), want, "{line} {threads} threads {driver:?}");
                }
            }
        }
    }

    #[test]
    fn same_search_twice_gives_same_nodes() {
        let stop = AtomicBool::new(false);
        let b = opening("f5d6c3d3c4f4f6");
        let n1 = Searcher::new(8)
            .run(&request(b, 7, Driver::Pvs), &TestEval, &stop, &mut |_| {})
            .nodes;
        let n2 = Searcher::new(8)
            .run(&request(b, 7, Driver::Pvs), &TestEval, &stop, &mut |_| {})
            .nodes;
        assert_eq!(n1, n2);
    }

    #[test]
    fn reports_every_iteration_and_stops_promptly() {
        let stop = AtomicBool::new(false);
        let b = opening("f5d6c3d3c4");
        let mut depths = Vec::new();
        Searcher::new(8).run(&request(b, 6, Driver::Pvs), &TestEval, &stop, &mut |i| depths.push(i.kind));
        assert_eq!(depths.len(), 6);
        // A raised stop flag still yields a legal move.
        let stop = AtomicBool::new(true);
        let t0 = Instant::now();
        let mut req = request(b, 30, Driver::Pvs);
        req.limits.depth = None;
        let r = Searcher::new(8).run(&req, &TestEval, &stop, &mut |_| {});
        assert!(t0.elapsed() < Duration::from_millis(200));
        let Some(Square::At(sq)) = r.best else { panic!("no move") };
        assert!(b.moves() >> sq & 1 != 0);
    }

    #[test]
    fn two_threads_agree_on_an_exact_endgame() {
        let stop = AtomicBool::new(false);
        // FFO #20-39 line 3: 17 empties, best g8 = +2.
        let pos = crate::board::notation::parse_position("--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O")
            .expect("valid");
        let req = SearchRequest {
            exact_empties: 20,
            wld_empties: 20,
            threads: 2,
            limits: Limits::default(),
            ..request(pos.board, 60, Driver::Pvs)
        };
        let r = Searcher::new(8).run(&req, &TestEval, &stop, &mut |_| {});
        assert_eq!((r.kind, r.score, r.best), (DepthKind::Exact, 2, Some(Square::At(62))));
    }

    #[test]
    fn two_threads_report_every_depth_of_the_main_thread() {
        // The helper runs a ply ahead; the answer and the reports are the main thread's.
        let stop = AtomicBool::new(false);
        let b = opening("f5d6c3d3c4f4");
        let req = SearchRequest {
            threads: 2,
            ..request(b, 7, Driver::Pvs)
        };
        let mut depths = Vec::new();
        let r = Searcher::new(8).run(&req, &TestEval, &stop, &mut |i| {
            if let DepthKind::Midgame { depth, .. } = i.kind {
                depths.push(depth);
            }
        });
        assert_eq!(depths, (1..=7).collect::<Vec<_>>());
        let Some(Square::At(sq)) = r.best else { panic!("no move") };
        assert!(b.moves() >> sq & 1 != 0);
    }

    #[test]
    fn time_limit_is_respected() {
        let stop = AtomicBool::new(false);
        let b = opening("f5d6c3d3c4");
        let mut req = request(b, 60, Driver::Pvs);
        req.limits = Limits {
            time: Some(Duration::from_millis(300)),
            ..Limits::default()
        };
        let t0 = Instant::now();
        let r = Searcher::new(8).run(&req, &TestEval, &stop, &mut |_| {});
        assert!(t0.elapsed() < Duration::from_millis(600), "{:?}", t0.elapsed());
        assert!(r.best.is_some());
    }

    #[test]
    fn solve_empties_are_solved_below_the_depth_limit() {
        // From a game lost to NTest at level 17 (depth 17, exact 18): at 18 empties the 80 %
        // ProbCut search to the end valued g1 at +4 and played it; the exact value is g6 = +4,
        // g1 = -2. A depth limit below the empties must not skip the level's exact solve.
        let stop = AtomicBool::new(false);
        let pos = crate::board::notation::parse_position("--O--O-O-XOOOOO--OOOOOX-OOXXXOOXOOOOXOOXXXOXXO-X--XOOO----OXOO-- X")
            .expect("valid");
        let req = SearchRequest {
            exact_empties: 18,
            wld_empties: 20,
            pruning: Pruning::from_percent(80),
            ..request(pos.board, 12, Driver::Pvs)
        };
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let r = Searcher::new(8).run(&req, &eval, &stop, &mut |_| {});
        assert_eq!((r.kind, r.score, r.best), (DepthKind::Exact, 4, Some(Square::At(46))));
        // Within the WLD empties the solve is a WLD one.
        let req = SearchRequest {
            exact_empties: 16,
            ..req
        };
        let r = Searcher::new(8).run(&req, &eval, &stop, &mut |_| {});
        assert_eq!((r.kind, r.score.signum()), (DepthKind::Wld, 1));
    }

    #[test]
    fn probable_empties_run_a_probable_wld_solve() {
        // 24 empties from a level-14 self-play game; e1 wins by 18 (exact solve).
        let stop = AtomicBool::new(false);
        let pos = crate::board::notation::parse_position("-----X----O-OX---XOOOXXX-XOOOOXX--OXOXOX--OXXOOO--OOXXO---XXXXX- X")
            .expect("valid");
        let eval = crate::eval::Evaluator::embedded().expect("embedded weights");
        let req = SearchRequest {
            exact_empties: 20,
            wld_empties: 22,
            probable_empties: [24, 26, 27],
            pruning: Pruning::from_percent(80),
            ..request(pos.board, 16, Driver::Pvs)
        };
        let r = Searcher::new(8).run(&req, &eval, &stop, &mut |_| {});
        assert_eq!((r.kind, r.score), (DepthKind::ProbableWld { percent: 95 }, 1));
        // The move played really wins: a proven WLD solve of the position after it.
        let Some(Square::At(sq)) = r.best else {
            panic!("no move: {r:?}")
        };
        let child = pos.board.play(sq as usize).expect("legal move");
        let params = SolveParams {
            mode: SolveMode::Wld,
            guess: 0,
            eval: Some(&eval),
            deadline: None,
            selectivity: EXACT,
        };
        assert_eq!(Solver::new(8).solve_with(&child, &params, &stop).score, -1);
        // Past the 95 % column the 80 % one applies; past all three, the midgame search.
        let r = Searcher::new(8).run(
            &SearchRequest {
                probable_empties: [23, 24, 24],
                ..req.clone()
            },
            &eval,
            &stop,
            &mut |_| {},
        );
        assert_eq!(r.kind, DepthKind::ProbableWld { percent: 80 });
        let r = Searcher::new(8).run(
            &SearchRequest {
                probable_empties: [23, 23, 23],
                ..req
            },
            &eval,
            &stop,
            &mut |_| {},
        );
        assert_eq!(r.kind, DepthKind::Midgame { depth: 16, percent: 80 });
    }

    #[test]
    fn endgame_hand_off_is_exact() {
        let stop = AtomicBool::new(false);
        // FFO #20-39 line 2: 15 empties, best g5 = 0.
        let pos = crate::board::notation::parse_position("OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O")
            .expect("valid");
        let mut req = request(pos.board, 60, Driver::Pvs);
        req.limits.depth = None;
        req.exact_empties = 20;
        req.wld_empties = 20;
        let r = Searcher::new(8).run(&req, &TestEval, &stop, &mut |_| {});
        assert_eq!(r.kind, DepthKind::Exact);
        assert_eq!(r.score, 0);
        assert_eq!(r.best, Some(Square::At(38)));
    }

    /// Fixed-depth negamax with a draw worth `draw` to the side to move at `b` (and its
    /// opposite to the other side): the oracle for contempt.
    fn negamax_draw(b: &Board, depth: u32, draw: i32) -> i32 {
        let m = b.moves();
        if m == 0 {
            if b.pass().moves() == 0 {
                return draw::value(b.final_score(), draw);
            }
            return -negamax_draw(&b.pass(), depth, -draw);
        }
        if depth == 0 {
            return TestEval.evaluate(b).clamp(-64, 64);
        }
        Squares(m)
            .map(|sq| -negamax_draw(&b.play(sq).unwrap_or(*b), depth - 1, -draw))
            .max()
            .unwrap_or(-INF)
    }

    /// Boards (not necessarily reachable) whose games can end early with squares left: a1 and
    /// a8 are empty and every line from them is of one colour up to the edge or the other
    /// corner, so neither side can ever play there; one to six more empties, with discs near
    /// them recoloured at random, leave moves to make before that.
    fn boards_ending_early(seed: u64, n: usize) -> Vec<Board> {
        let mut rng = crate::rng::SplitMix(seed);
        let mut rnd = || rng.next_u64();
        let at = |file: u64, rank: u64| 1u64 << (rank * 8 + file);
        let mut out = Vec::new();
        while out.len() < n {
            let (mut line, mut col) = ([0u64; 3], [false; 3]);
            for r in 1..7 {
                line[0] |= at(0, r);
            }
            for f in 1..8 {
                line[1] |= at(f, 0) | at(8 - f, f);
                line[2] |= at(f, f) | at(f, 7);
            }
            for c in col.iter_mut() {
                *c = rnd() % 2 == 0;
            }
            let corners = at(0, 0) | at(0, 7);
            let mut player = 0;
            for sq in 0..64 {
                let bit = 1u64 << sq;
                let mine = match line.iter().position(|l| l & bit != 0) {
                    Some(k) => col[k],
                    None => rnd() % 2 == 0,
                };
                if mine && bit & corners == 0 {
                    player |= bit;
                }
            }
            let mut empty = corners;
            for _ in 0..1 + rnd() % 6 {
                let sq = rnd() % 64;
                empty |= 1 << sq;
                for _ in 0..rnd() % 4 {
                    let near = (sq as i64 + [-9, -8, -7, -1, 1, 7, 8, 9][(rnd() % 8) as usize]).rem_euclid(64);
                    player ^= 1 << near;
                }
            }
            let b = Board {
                player: player & !empty,
                opponent: !player & !empty,
            };
            if b.moves() != 0 {
                out.push(b);
            }
        }
        out
    }

    /// With a draw worth ±1 the search's value is the oracle's at every depth, for both
    /// drivers and two threads, with one table kept across the three contempts (its entries
    /// must not leak from one to another); a proven root value is reported as the real score.
    #[test]
    fn contempt_values_draws_as_negamax_does() {
        let stop = AtomicBool::new(false);
        let mut changed = 0;
        // Boards on which the contempt changes some depth's value, and some on which it need not.
        let all = boards_ending_early(2026, 3000);
        let differs = |b: &Board| (1..=b.empty_count()).any(|d| negamax_draw(b, d, 1) != negamax_draw(b, d, -1));
        let boards = all.iter().filter(|b| differs(b)).take(30).chain(&all[..20]);
        for &b in boards {
            let empties = b.empty_count();
            let mut searcher = Searcher::new(4);
            for depth in 1..=empties {
                let want: Vec<i32> = (-1..=1).map(|d| negamax_draw(&b, depth, d)).collect();
                changed += usize::from(want[0] != want[2]);
                for draw in [1, -1, 0] {
                    for (driver, threads) in [(Driver::Pvs, 1), (Driver::Mtdf, 1), (Driver::Pvs, 2)] {
                        let req = SearchRequest {
                            draw,
                            threads,
                            ..request(b, depth, driver)
                        };
                        let r = searcher.run(&req, &TestEval, &stop, &mut |_| {});
                        let oracle = want[(draw + 1) as usize];
                        let expect = if r.kind == DepthKind::Exact {
                            negamax_draw(&b, 64, 0)
                        } else {
                            oracle
                        };
                        assert_eq!(r.score, expect, "{b:?} depth {depth} draw {draw} {driver:?} {threads}");
                        // The move played achieves the value with contempt.
                        let Some(Square::At(sq)) = r.best else { panic!("no move") };
                        let child = b.play(sq as usize).expect("legal best move");
                        assert_eq!(
                            -negamax_draw(&child, depth - 1, -draw),
                            oracle,
                            "{b:?} depth {depth} draw {draw} {driver:?} {threads} {:?} {}",
                            r.kind,
                            empties
                        );
                    }
                }
            }
        }
        // The boards do put a draw against an estimate.
        assert!(changed >= 30, "{changed}");
    }

    /// One move ends the game level at once (a proven draw), the other leads on to a position
    /// valued 0 by the evaluation: a draw worth +1 takes the draw, a draw worth -1 avoids it.
    #[test]
    fn contempt_chooses_between_a_sure_draw_and_an_estimate() {
        struct Level;
        impl OrderingEval for Level {
            fn evaluate(&self, _: &Board) -> i32 {
                0
            }
        }
        let stop = AtomicBool::new(false);
        let pos = crate::board::notation::parse_position("-XXXXXXXXOXOOOXXXOOXOXXXXOOOXXOOXXOXOOOOXOXXXOOOXOOO-OOO-OOOOOOO X")
            .expect("valid");
        let e7 = pos.board.play(52).expect("e7 is legal");
        assert!(e7.is_game_over() && e7.final_score() == 0);
        let a8 = pos.board.play(56).expect("a8 is legal");
        assert!(!a8.is_game_over());
        let mut searcher = Searcher::new(4);
        for (draw, best, score) in [(1, 52, 1), (-1, 56, 0)] {
            let req = SearchRequest {
                draw,
                ..request(pos.board, 1, Driver::Pvs)
            };
            let r = searcher.run(&req, &Level, &stop, &mut |_| {});
            assert_eq!((r.best, r.score), (Some(Square::At(best)), score), "draw {draw}");
        }
    }
}
