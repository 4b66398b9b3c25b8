//! Split points of the parallel midgame search (young brothers wait, Feldmann 1993): once a
//! node's first move is searched without a cut-off, its other moves may be shared with idle
//! threads. A split point owns copies of what its workers need, so it outlives no borrow; its
//! owner waits until every worker has left before it reads the values.
//!
//! A thread searching inside a split point checks the point's `cut` flag and its ancestors'
//! (a brother beat alpha: the rest of the work is useless). An owner waiting for its workers
//! helps at split points below its own only, so it is free again as soon as its own point is.

use crate::board::Board;
use crate::eval::incremental::Features;
use parking_lot::{Condvar, Mutex};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};

/// Spins of a helper looking for work before it sleeps (some 50 µs).
const SPINS: u32 = 20_000;

/// A child's value not known (yet).
const UNSEARCHED: i32 = i32::MIN;

/// The moves of one node shared between threads: each child's null-window value against `alpha`.
pub struct SplitPoint {
    pub board: Board,
    pub features: Features,
    /// (square, child position) in the owner's order.
    pub children: Vec<(usize, Board)>,
    /// The parent's alpha: children are searched with the window (-alpha - 1, -alpha).
    pub alpha: i32,
    /// The parent's remaining depth.
    pub depth: u32,
    /// ProbCut nesting of the node (checks inside checks are bounded).
    pub mpc_nesting: u32,
    /// Parity of the passes from the root to the node (whose turn it is, for contempt).
    pub passes: u32,
    /// Stop taking children once one is above alpha (a null-window node is refuted).
    pub stop_on_cut: bool,
    /// The split point the creating thread was searching under, if any.
    pub parent: Option<Arc<SplitPoint>>,
    next: AtomicUsize,
    values: Vec<AtomicI32>,
    cut: AtomicBool,
    workers: AtomicUsize,
}

impl SplitPoint {
    pub fn new(
        board: Board,
        features: Features,
        children: Vec<(usize, Board)>,
        (alpha, depth, mpc_nesting, passes): (i32, u32, u32, u32),
        stop_on_cut: bool,
        parent: Option<Arc<SplitPoint>>,
    ) -> SplitPoint {
        let values = children.iter().map(|_| AtomicI32::new(UNSEARCHED)).collect();
        SplitPoint {
            board,
            features,
            children,
            alpha,
            depth,
            mpc_nesting,
            passes,
            stop_on_cut,
            parent,
            next: AtomicUsize::new(0),
            values,
            cut: AtomicBool::new(false),
            workers: AtomicUsize::new(0),
        }
    }

    /// The next child to search, or None when all are taken or the point was cut.
    pub fn take(&self) -> Option<(usize, usize, Board)> {
        if self.cut.load(Ordering::Relaxed) {
            return None;
        }
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        self.children.get(k).map(|&(sq, child)| (k, sq, child))
    }

    fn has_work(&self) -> bool {
        !self.cut.load(Ordering::Relaxed) && self.next.load(Ordering::Relaxed) < self.children.len()
    }

    /// Records child `k`'s value (parent's view); one above alpha cuts the point if asked to.
    pub fn record(&self, k: usize, value: i32) {
        self.values[k].store(value, Ordering::Release);
        if self.stop_on_cut && value > self.alpha {
            self.cut.store(true, Ordering::Relaxed);
        }
    }

    /// Each child's value; None: not searched (cut, or the search was stopped).
    pub fn values(&self) -> Vec<Option<i32>> {
        self.values
            .iter()
            .map(|v| Some(v.load(Ordering::Acquire)).filter(|&v| v != UNSEARCHED))
            .collect()
    }

    /// Was this point or one it lies under cut?
    pub fn cut_here_or_above(&self) -> bool {
        let mut sp = Some(self);
        while let Some(p) = sp {
            if p.cut.load(Ordering::Relaxed) {
                return true;
            }
            sp = p.parent.as_deref();
        }
        false
    }

    fn lies_under(&self, other: &SplitPoint) -> bool {
        let mut sp = self.parent.as_deref();
        while let Some(p) = sp {
            if std::ptr::eq(p, other) {
                return true;
            }
            sp = p.parent.as_deref();
        }
        false
    }

    pub fn leave(&self) {
        self.workers.fetch_sub(1, Ordering::Release);
    }

    pub fn busy(&self) -> bool {
        self.workers.load(Ordering::Acquire) > 0
    }
}

/// The split points with work left, and the helper threads waiting for one.
#[derive(Default)]
pub struct Pool {
    open: Mutex<Vec<Arc<SplitPoint>>>,
    /// How many points are offered (read without the lock by spinning threads).
    offered: AtomicUsize,
    wake: Condvar,
    idle: AtomicUsize,
    over: AtomicBool,
    /// Nodes searched by the helpers in jobs already finished.
    pub helper_nodes: AtomicU64,
}

impl Pool {
    /// Is a helper waiting for work? (A hint: it may be taken by the time a point is offered.)
    #[inline]
    pub fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    /// Counts the calling owner as idle until the guard drops: an owner waiting for the
    /// workers of its split point can take work only from points below it, and those exist
    /// only if the workers split for it (they split only when someone is idle).
    pub fn owner_waiting(&self) -> OwnerWaiting<'_> {
        self.idle.fetch_add(1, Ordering::Relaxed);
        OwnerWaiting(self)
    }

    /// Offers a split point to the waiting helpers.
    pub fn publish(&self, sp: &Arc<SplitPoint>) {
        let mut open = self.open.lock();
        open.push(sp.clone());
        self.offered.store(open.len(), Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Takes a split point off the offer: after this no new worker joins it.
    pub fn withdraw(&self, sp: &Arc<SplitPoint>) {
        let mut open = self.open.lock();
        open.retain(|p| !Arc::ptr_eq(p, sp));
        self.offered.store(open.len(), Ordering::Relaxed);
    }

    /// A helper's next job (joined: `leave` when done), or None when the search is over. It
    /// spins a little first (a futex wake-up costs more than a small split point's work), then
    /// sleeps, so that it does not take a core from the solver's own threads.
    pub fn wait_for_job(&self) -> Option<Arc<SplitPoint>> {
        self.idle.fetch_add(1, Ordering::Relaxed);
        let job = self.spin_for_job().or_else(|| self.sleep_for_job());
        self.idle.fetch_sub(1, Ordering::Relaxed);
        job
    }

    fn spin_for_job(&self) -> Option<Arc<SplitPoint>> {
        for _ in 0..SPINS {
            if self.over.load(Ordering::Relaxed) {
                return None;
            }
            if self.offered.load(Ordering::Relaxed) > 0
                && let Some(sp) = self.join(&self.open.lock(), |_| true)
            {
                return Some(sp);
            }
            std::hint::spin_loop();
        }
        None
    }

    fn sleep_for_job(&self) -> Option<Arc<SplitPoint>> {
        let mut open = self.open.lock();
        loop {
            if self.over.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(sp) = self.join(&open, |_| true) {
                return Some(sp);
            }
            self.wake.wait(&mut open);
        }
    }

    /// Joins the first offered point with work left that `fits`.
    fn join(&self, open: &[Arc<SplitPoint>], fits: impl Fn(&SplitPoint) -> bool) -> Option<Arc<SplitPoint>> {
        let sp = open.iter().find(|p| p.has_work() && fits(p))?;
        sp.workers.fetch_add(1, Ordering::Relaxed);
        Some(sp.clone())
    }

    /// For an owner waiting on `own`: a point below it with work left (joined), if any.
    pub fn job_under(&self, own: &SplitPoint) -> Option<Arc<SplitPoint>> {
        if self.offered.load(Ordering::Relaxed) == 0 {
            return None;
        }
        self.join(&self.open.lock(), |p| p.lies_under(own))
    }

    /// Ends the helpers' wait for good.
    pub fn close(&self) {
        let _open = self.open.lock();
        self.over.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }
}

/// An owner counted idle while it waits (`Pool::owner_waiting`).
pub struct OwnerWaiting<'p>(&'p Pool);

impl Drop for OwnerWaiting<'_> {
    fn drop(&mut self) {
        self.0.idle.fetch_sub(1, Ordering::Relaxed);
    }
}
