//! Stage 5 of the step: the contact solver. [`run`] prepares the bundles, runs the substeps of
//! the soft step on them (see `contact_solver.rs`) and hands the impulses back to the manifolds.
//!
//! It is written over the lane type `L`; the world picks `L` at compile time from its scalar
//! type ([`SolverDim::Lanes`]: four `f32` lanes, or one `f64`).
//!
//! **Threads.** The substeps run as one [`Program`] on every thread, over the thread's share
//! of the work (`schedule.rs`): its chunk of each wave and its range of bodies, with a barrier
//! (`barrier.rs`) after each wave and each integration. On one thread the program is the same
//! with a barrier that returns at once and the slots in a plain slice; on several the threads
//! share the slots as atomics (`slots.rs`). A thread solves the same constraints in the same
//! order whatever the thread count, so the numbers never depend on it.

use kollide_math::{Point, Scalar, Vector};

use super::barrier::{Alone, SpinBarrier, Wait};
use super::schedule::{self, Chunk, Segment, ThreadBundles, Work};
use crate::contact_prepare::{self, Group, PrepareFrom};
use crate::contact_solver::{self as cs, BodyState, Pass, PrepareInput, SolverBody, SpeedLimits};
use crate::events::HitThresholds;
use crate::joint::solver::{self as js, Prepared, Substep};
use crate::lane_dim::DimLanes;
use crate::slots::{SharedRows, SharedSlots, Slots};
use crate::{ContactPair, Dim, HitEvent, SolverDim};

/// A force and a torque on a dynamic body during a step, as the changes of velocity per second
/// they cause: `(slot, F / m, I⁻¹ τ)`.
pub(crate) type Acceleration<N, const D: usize> =
    (u32, Vector<N, D>, <Dim<D> as SolverDim<N, D>>::Angular);

/// The solver's buffers, reused from step to step.
#[derive(Clone, Debug)]
pub(crate) struct Scratch<L: DimLanes<D>, const D: usize> {
    /// Each bundle's constraints, and each thread's bundles.
    groups: Vec<Group>,
    mine: Vec<ThreadBundles<L, D>>,
    slots: Vec<L::Slot>,
    /// The slots as the threads of a parallel solve share them.
    shared_rows: SharedRows<L>,
    classes: Vec<u8>,
    order: Vec<u32>,
    /// The first bundle of each wave, and the segments between the threads' barriers.
    wave_starts: Vec<u32>,
    segments: Vec<Segment>,
}

impl<L: DimLanes<D>, const D: usize> Default for Scratch<L, D> {
    fn default() -> Self {
        Self {
            groups: Vec::new(),
            mine: Vec::new(),
            slots: Vec::new(),
            shared_rows: SharedRows::default(),
            classes: Vec::new(),
            order: Vec::new(),
            wave_starts: Vec::new(),
            segments: Vec::new(),
        }
    }
}

/// The solve stage's buffers: for the scalar type's lanes, and for one lane (which the tests
/// compare against).
#[derive(Clone, Debug)]
pub(crate) struct SolveStage<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    lanes: Scratch<<Dim<D> as SolverDim<N, D>>::Lanes, D>,
    one_lane: Scratch<<Dim<D> as SolverDim<N, D>>::OneLane, D>,
    /// Solve on the scalar type's lanes (`f32`: four constraints at a time); the tests turn it
    /// off (`World::set_simd_lanes`) to compare with one lane, which must give the same numbers.
    pub(crate) simd: bool,
}

impl<N: Scalar, const D: usize> SolveStage<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Empty buffers, on the scalar type's lanes.
    pub(crate) fn new() -> Self {
        Self { lanes: Scratch::default(), one_lane: Scratch::default(), simd: true }
    }

    /// Solves the contacts over the step's substeps on up to `threads` threads (see [`run`]);
    /// returns the number of bundles of more than one lane and the threads that ran.
    pub(crate) fn run(&mut self, input: SolveInput<'_, N, D>, threads: usize) -> (usize, usize) {
        if self.simd {
            run(&mut self.lanes, input, threads)
        } else {
            run(&mut self.one_lane, input, threads)
        }
    }
}

/// What the contact part of a step works on.
pub(crate) struct SolveInput<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The touching pairs' solver inputs in wave order, and the wave of each.
    pub inputs: &'a [PrepareInput<N>],
    pub waves: &'a [u32],
    pub pairs: &'a mut [ContactPair<N, D>],
    /// The tangent velocities contact hooks set, by pair index (sorted).
    pub surfaces: &'a [(u32, Vector<N, D>)],
    /// The accelerations of the bodies that forces act on.
    pub accelerations: &'a [Acceleration<N, D>],
    /// Report the contacts that hit faster than their pair's threshold (m/s) into `hits`.
    pub hits_above: HitThresholds<'a, N, D>,
    pub hits: &'a mut Vec<HitEvent<N, D>>,
    pub bodies: &'a mut [SolverBody<N, D>],
    pub states: &'a mut [BodyState<N, D>],
    /// The step's joints, prepared; solved on the first thread before the contacts of each
    /// pass.
    pub joints: &'a mut [Prepared<N, D>],
    pub gravity: &'a Vector<N, D>,
    /// The substep and the number of substeps.
    pub h: N,
    pub substeps: u32,
    pub warm_starting: bool,
    pub restitution_threshold: N,
    pub max_push_velocity: N,
    pub linear_slop: N,
}

/// Runs the contact part of a step on up to `threads` threads; returns the number of bundles of
/// more than one lane it built (each is solved in every pass) and the number of threads that
/// solved them (one unless some wave was large enough to share).
pub(crate) fn run<L: DimLanes<D>, const D: usize>(
    scratch: &mut Scratch<L, D>,
    input: SolveInput<'_, L::Scalar, D>,
    threads: usize,
) -> (usize, usize)
where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let Scratch { groups, mine, slots, shared_rows, classes, order, wave_starts, segments } =
        scratch;
    let SolveInput { pairs, bodies, states, joints, h, .. } = input;
    let hits = input.hits_above.any();
    let from = PrepareFrom {
        inputs: input.inputs,
        waves: input.waves,
        pairs,
        bodies,
        states,
        surfaces: input.surfaces,
    };
    contact_prepare::plan::<L, D>(&from, classes, order, groups, wave_starts);
    let threads = if schedule::segments(wave_starts, groups.len(), threads, segments) {
        threads
    } else {
        schedule::segments(wave_starts, groups.len(), 1, segments);
        1
    };
    mine.resize_with(threads, ThreadBundles::default);
    let build = |t: usize, own: &mut ThreadBundles<L, D>| {
        build_bundles(&from, groups, segments, t, threads, hits, own);
    };
    if threads == 1 {
        build(0, &mut mine[0]);
    } else {
        std::thread::scope(|scope| {
            let mut theirs = mine.iter_mut().enumerate();
            let (_, own) = theirs.next().expect("thread 0's bundles");
            for (t, own) in theirs {
                scope.spawn(move || build(t, own));
            }
            build(0, own);
        });
    }
    to_slots::<L, D>(states, slots);
    let program = Program {
        gravity: input.gravity,
        accelerations: input.accelerations,
        h,
        inv_h: L::Scalar::lit(1.0) / h,
        substeps: input.substeps as usize,
        warm_starting: input.warm_starting,
        restitution_threshold: input.restitution_threshold,
        max_push: input.max_push_velocity,
        slop: input.linear_slop,
        surfaces: !input.surfaces.is_empty(),
        joints: !joints.is_empty(),
    };
    let mut work = schedule::split(mine, bodies, segments);
    if threads == 1 {
        let own = work.pop().expect("one thread's work");
        program.run(slots.as_mut_slice(), own, &Alone, joints);
    } else {
        let shared = SharedSlots::<L, D>::new(slots, shared_rows);
        let barrier = SpinBarrier::new(threads);
        let (program, barrier) = (&program, &barrier);
        std::thread::scope(|scope| {
            let mut work = work.into_iter();
            let own = work.next().expect("thread 0's work");
            for theirs in work {
                scope.spawn(move || program.run(&mut { shared }, theirs, barrier, &mut []));
            }
            program.run(&mut { shared }, own, barrier, joints);
        });
        shared.copy_to(slots);
    }
    from_slots::<L, D>(slots, states);
    let first_hit = input.hits.len();
    for own in mine.iter() {
        if hits {
            collect_hits(own, pairs, &input.hits_above, input.hits);
        }
        contact_prepare::store_impulses(&own.bundles, &own.points, pairs, input.warm_starting);
    }
    input.hits[first_hit..].sort_unstable_by_key(|h| (h.a, h.b));
    let bundles = mine.iter().map(|own| own.bundles.len()).sum();
    (if L::LANES > 1 { bundles } else { 0 }, threads)
}

/// Builds thread `t`'s bundles (of `threads`): its chunk of each segment of `groups`; with
/// `hits`, keeps each point's normal velocity at the start of the step (the solver overwrites
/// it with the approach speed at impact; hits are measured at the start of the step, as Box2D
/// measures them).
fn build_bundles<L: DimLanes<D>, const D: usize>(
    from: &PrepareFrom<'_, L::Scalar, D>,
    groups: &[Group],
    segments: &[Segment],
    t: usize,
    threads: usize,
    hits: bool,
    own: &mut ThreadBundles<L, D>,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let spare = from.states.len() as u32;
    own.bundles.clear();
    own.points.clear();
    for segment in segments {
        let groups = &groups[segment.chunk(t, threads)];
        contact_prepare::build(from, groups, spare, &mut own.bundles, &mut own.points);
    }
    own.approach.clear();
    if hits {
        own.approach.extend(own.points.iter().map(|p| p.relative_velocity));
    }
}

/// The substeps of the soft step (see `contact_solver.rs`), as each thread runs them on its
/// share of the work.
struct Program<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    gravity: &'a Vector<N, D>,
    accelerations: &'a [Acceleration<N, D>],
    h: N,
    inv_h: N,
    substeps: usize,
    warm_starting: bool,
    restitution_threshold: N,
    max_push: N,
    slop: N,
    surfaces: bool,
    /// The step has joints: every thread meets the others at a barrier after the joints' part
    /// of each pass, which the first thread runs.
    joints: bool,
}

impl<N: Scalar, const D: usize> Program<'_, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The settings of the solve (`use_bias`) or relax pass of substep `sub`.
    ///
    /// Odd substeps sweep the contacts backwards; the pass index, which picks the point that
    /// leads in manifolds of three or more points, counts forward and backward substeps alike
    /// (0, 1, 2, 3, … in each direction), so that no corner is tied to one sweep direction.
    fn pass(&self, sub: usize, use_bias: bool) -> Pass<N> {
        Pass {
            inv_h: self.inv_h,
            max_push: self.max_push,
            slop: self.slop,
            use_bias,
            index: 2 * (sub / 2) + usize::from(!use_bias),
            reverse: sub % 2 == 1,
            surfaces: self.surfaces,
        }
    }

    /// Solves the joints once, with the soft bias (`use_bias`) or relaxed, and meets the
    /// other threads at `barrier` (only when the step has joints).
    #[inline(always)]
    fn solve_joints<L, S, W>(
        &self,
        slots: &mut S,
        joints: &mut [Prepared<N, D>],
        use_bias: bool,
        barrier: &W,
    ) where
        L: DimLanes<D, Scalar = N>,
        S: Slots<L, D> + ?Sized,
        W: Wait,
    {
        if self.joints {
            let step = Substep { h: self.h, inv_h: self.inv_h, use_bias };
            js::solve::<L, S, D>(slots, joints, &step);
            barrier.wait();
        }
    }

    /// Runs every substep and the restitution pass on one thread's `work`, meeting the other
    /// threads at `barrier` after each segment and each integration; the first thread also
    /// solves the `joints` (the others get none).
    fn run<L, S, W>(
        &self,
        slots: &mut S,
        work: Work<'_, L, D>,
        barrier: &W,
        joints: &mut [Prepared<N, D>],
    ) where
        L: DimLanes<D, Scalar = N>,
        S: Slots<L, D> + ?Sized,
        W: Wait,
    {
        let Work { mut chunks, bodies, first_body } = work;
        let h = self.h;
        for sub in 0..self.substeps {
            integrate_velocities::<L, D, S>(slots, bodies, first_body, self.gravity, h);
            if !self.accelerations.is_empty() {
                let range = first_body..first_body + bodies.len() as u32;
                accelerate::<L, D, S>(slots, self.accelerations, range, h);
            }
            barrier.wait();
            if self.warm_starting {
                if self.joints {
                    js::warm_start::<L, S, D>(slots, joints);
                    barrier.wait();
                }
                for c in &chunks {
                    cs::warm_start(slots, c.bundles, c.points);
                    barrier.wait();
                }
            }
            self.solve_joints(slots, joints, true, barrier);
            // Positions last moved before the previous substep's relax pass.
            sweep(slots, &mut chunks, self.pass(sub, true), sub == 0, barrier);
            integrate_positions::<L, D, S>(slots, bodies, first_body, h);
            barrier.wait();
            self.solve_joints(slots, joints, false, barrier);
            sweep(slots, &mut chunks, self.pass(sub, false), true, barrier);
        }
        for c in &mut chunks {
            cs::restitution(slots, c.bundles, c.points, self.restitution_threshold);
            barrier.wait();
        }
    }
}

/// One solver pass over a thread's chunks, in the pass's direction, waiting at the barrier
/// after each.
fn sweep<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized, W: Wait>(
    slots: &mut S,
    chunks: &mut [Chunk<'_, L, D>],
    pass: Pass<L::Scalar>,
    moved: bool,
    barrier: &W,
) {
    if pass.reverse {
        for c in chunks.iter_mut().rev() {
            cs::solve(slots, c.bundles, c.points, pass, moved);
            barrier.wait();
        }
    } else {
        for c in chunks.iter_mut() {
            cs::solve(slots, c.bundles, c.points, pass, moved);
            barrier.wait();
        }
    }
}

/// A body state as a slot.
#[inline(always)]
pub(crate) fn slot_of<L: DimLanes<D>, const D: usize>(s: &BodyState<L::Scalar, D>) -> L::Slot
where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    L::slot(
        core::array::from_fn(|k| s.v[k]),
        Dim::<D>::angular_components(&s.w),
        core::array::from_fn(|k| s.dp[k]),
        Dim::<D>::rotation_components(&s.dq),
    )
}

/// A slot as a body state.
#[inline(always)]
pub(crate) fn state_of<L: DimLanes<D>, const D: usize>(slot: &L::Slot) -> BodyState<L::Scalar, D>
where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let (v, w, dp, q) = L::slot_parts(slot);
    BodyState {
        v: Vector::from(v),
        w: Dim::<D>::angular_from_components(w),
        dp: Vector::from(dp),
        dq: Dim::<D>::rotation_from_components(q),
    }
}

/// Copies the body states into slots, plus the spare slot that takes the writes of lanes that
/// must not write.
fn to_slots<L: DimLanes<D>, const D: usize>(
    states: &[BodyState<L::Scalar, D>],
    slots: &mut Vec<L::Slot>,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    slots.clear();
    slots.extend(states.iter().map(slot_of::<L, D>));
    let zero = L::Scalar::lit(0.0);
    slots.push(L::slot([zero; D], [zero; 3], [zero; D], [zero; 4]));
}

/// Copies the slots back into the body states.
fn from_slots<L: DimLanes<D>, const D: usize>(
    slots: &[L::Slot],
    states: &mut [BodyState<L::Scalar, D>],
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    for (s, slot) in states.iter_mut().zip(slots) {
        *s = state_of::<L, D>(slot);
    }
}

/// Integrates the velocities of the dynamic bodies among `bodies` (slots `first..`): gravity
/// and damping, body by body.
fn integrate_velocities<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized>(
    slots: &mut S,
    bodies: &[SolverBody<L::Scalar, D>],
    first: u32,
    gravity: &Vector<L::Scalar, D>,
    h: L::Scalar,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let limits = SpeedLimits::for_substep(h);
    for (i, b) in (first..).zip(bodies).filter(|(_, b)| b.dynamic) {
        let mut s = state_of::<L, D>(&slots.slot(i));
        cs::integrate_velocity(&mut s, b, gravity, h, &limits);
        slots.set_slot(i, &slot_of::<L, D>(&s));
    }
}

/// Integrates the positions of the moving bodies among `bodies` (slots `first..`) and their
/// motion since the step started.
fn integrate_positions<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized>(
    slots: &mut S,
    bodies: &mut [SolverBody<L::Scalar, D>],
    first: u32,
    h: L::Scalar,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    for (i, b) in (first..).zip(bodies.iter_mut()).filter(|(_, b)| b.moves) {
        let mut s = state_of::<L, D>(&slots.slot(i));
        cs::integrate_position(&mut s, b, h);
        slots.set_slot(i, &slot_of::<L, D>(&s));
    }
}

/// Adds the velocity the forces on the bodies of slots `range` give them over a substep `h`.
fn accelerate<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized>(
    slots: &mut S,
    accelerations: &[Acceleration<L::Scalar, D>],
    range: core::ops::Range<u32>,
    h: L::Scalar,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    for &(i, dv, dw) in accelerations.iter().filter(|a| range.contains(&a.0)) {
        let mut s = state_of::<L, D>(&slots.slot(i));
        s.v += dv * h;
        s.w += dw * h;
        slots.set_slot(i, &slot_of::<L, D>(&s));
    }
}

/// Appends a hit event for each pair of one thread's bundles whose fastest pushing point
/// approached faster than the pair's threshold (`above`) at the start of the step (see
/// [`HitEvent`]).
fn collect_hits<L: DimLanes<D>, const D: usize>(
    own: &ThreadBundles<L, D>,
    pairs: &[ContactPair<L::Scalar, D>],
    above: &HitThresholds<'_, L::Scalar, D>,
    hits: &mut Vec<HitEvent<L::Scalar, D>>,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let (bundles, points, approach) = (&own.bundles, &own.points, &own.approach);
    let zero = L::Scalar::lit(0.0);
    for b in bundles {
        let range = b.first as usize..b.first as usize + b.count as usize;
        let (pts, approach) = (&points[range.clone()], &approach[range]);
        for l in 0..b.used as usize {
            let pair = &pairs[L::index_lane(b.pair, l) as usize];
            let Some(threshold) = above.of_pair(pair.a.index, pair.b.index) else { continue };
            let mut best: Option<(L::Scalar, usize)> = None;
            for (i, (p, v)) in pts.iter().zip(approach).enumerate().take(pair.manifold.len()) {
                let speed = -v.lane(l);
                if p.max_normal_impulse.lane(l) > zero
                    && speed > threshold
                    && best.is_none_or(|(s, _)| speed > s)
                {
                    best = Some((speed, i));
                }
            }
            if let Some((speed, i)) = best {
                let c = &pair.manifold.contacts()[i];
                let point =
                    Point::from((c.point_a.coords + c.point_b.coords) * L::Scalar::lit(0.5));
                let normal = pair.manifold.normal;
                hits.push(HitEvent { a: pair.a, b: pair.b, speed, point, normal });
            }
        }
    }
}
