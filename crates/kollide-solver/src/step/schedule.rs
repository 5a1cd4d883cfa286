//! Which thread solves which constraints, and when the threads meet: the schedule of a parallel
//! solve (as Box2D v3 runs its solver: Catto, "Solver2D" and the v3 solver posts, 2024).
//!
//! The constraints come in *waves* that share no dynamic body (see `colouring.rs`), so the
//! bundles of one wave can be solved by several threads at once, each taking a contiguous run of
//! them, and the result is the same as one thread solving them in order: no bundle reads
//! anything another bundle of its wave writes. The threads meet at a barrier after every wave,
//! since the next wave reads what this one wrote. A wave too small to be worth sharing is run by
//! thread 0 alone, and consecutive small waves share one barrier: a *segment* is the run of
//! bundles between two barriers. Each thread builds its chunks' bundles itself (the prepare
//! step, which reads only the bodies and the manifolds), into storage of its own
//! ([`ThreadBundles`]), and integrates a fixed range of the bodies.
//!
//! Every pass of the step (warm start, solve, relax, restitution) visits the same segments,
//! forwards or backwards, and each thread the same chunk of each segment, so which thread ran a
//! bundle never changes a number: the step is bit-identical for any thread count.

use core::ops::Range;

use crate::contact_solver::{Bundle, LanePoint, SolverBody};
use crate::lane_dim::DimLanes;
use crate::{Dim, SolverDim};

/// The fewest bundles a wave needs per thread to be shared between the threads. A bundle costs
/// a fraction of a microsecond a pass, about what a barrier costs, so a shared wave must give
/// every thread many of them.
pub(crate) const MIN_SHARED_BUNDLES: usize = 16;

/// A run of bundles between two barriers: one wave shared between the threads, or consecutive
/// waves too small to share, which thread 0 runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Segment {
    start: u32,
    end: u32,
    shared: bool,
}

impl Segment {
    /// The bundles of this segment that thread `t` of `threads` builds and solves.
    pub(crate) fn chunk(&self, t: usize, threads: usize) -> Range<usize> {
        let (start, n) = (self.start as usize, (self.end - self.start) as usize);
        if self.shared {
            start + n * t / threads..start + n * (t + 1) / threads
        } else if t == 0 {
            start..start + n
        } else {
            start..start
        }
    }
}

/// The bundles one thread builds and solves, its chunk of every segment in segment order,
/// with their points, and the points' approach speeds at the start of the step (for hit
/// events).
#[derive(Clone, Debug)]
pub(crate) struct ThreadBundles<L: DimLanes<D>, const D: usize> {
    pub(crate) bundles: Vec<Bundle<L, D>>,
    pub(crate) points: Vec<LanePoint<L, D>>,
    pub(crate) approach: Vec<L>,
}

impl<L: DimLanes<D>, const D: usize> Default for ThreadBundles<L, D> {
    fn default() -> Self {
        Self { bundles: Vec::new(), points: Vec::new(), approach: Vec::new() }
    }
}

/// Cuts `bundles` bundles, whose waves start at `wave_starts`, into `out`'s segments for
/// `threads` threads; returns whether any segment is shared (else one thread should run them).
pub(crate) fn segments(
    wave_starts: &[u32],
    bundles: usize,
    threads: usize,
    out: &mut Vec<Segment>,
) -> bool {
    out.clear();
    let mut any_shared = false;
    for (w, &start) in wave_starts.iter().enumerate() {
        let end = wave_starts.get(w + 1).copied().unwrap_or(bundles as u32);
        let shared = threads > 1 && (end - start) as usize >= MIN_SHARED_BUNDLES * threads;
        any_shared |= shared;
        match out.last_mut() {
            Some(last) if !shared && !last.shared => last.end = end,
            _ => out.push(Segment { start, end, shared }),
        }
    }
    any_shared
}

/// The bundles of one segment that one thread solves, and their points.
pub(crate) struct Chunk<'a, L: DimLanes<D>, const D: usize> {
    pub(crate) bundles: &'a mut [Bundle<L, D>],
    pub(crate) points: &'a mut [LanePoint<L, D>],
}

/// What one thread works on: its chunk of every segment, and the bodies it integrates (slots
/// `first_body..first_body + bodies.len()`).
pub(crate) struct Work<'a, L: DimLanes<D>, const D: usize>
where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    pub(crate) chunks: Vec<Chunk<'a, L, D>>,
    pub(crate) bodies: &'a mut [SolverBody<L::Scalar, D>],
    pub(crate) first_body: u32,
}

/// Hands each thread its bundles, cut into chunks by the segments, and a range of the bodies.
pub(crate) fn split<'a, L: DimLanes<D>, const D: usize>(
    mine: &'a mut [ThreadBundles<L, D>],
    bodies: &'a mut [SolverBody<L::Scalar, D>],
    segments: &[Segment],
) -> Vec<Work<'a, L, D>>
where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let (n, threads) = (bodies.len(), mine.len());
    let mut rest = bodies;
    mine.iter_mut()
        .enumerate()
        .map(|(t, own)| {
            let (first, end) = (n * t / threads, n * (t + 1) / threads);
            let (bodies, after) = core::mem::take(&mut rest).split_at_mut(end - first);
            rest = after;
            let (mut bundles, mut points) = (&mut own.bundles[..], &mut own.points[..]);
            let chunks = segments
                .iter()
                .map(|segment| {
                    let count = segment.chunk(t, threads).len();
                    let (chunk, after) = core::mem::take(&mut bundles).split_at_mut(count);
                    bundles = after;
                    let count = chunk.iter().map(|b| b.count as usize).sum();
                    let (pts, after) = core::mem::take(&mut points).split_at_mut(count);
                    points = after;
                    Chunk { bundles: chunk, points: pts }
                })
                .collect();
            Work { chunks, bodies, first_body: first as u32 }
        })
        .collect()
}
