//! Stage 7 of the step: continuous collision for fast bodies.
//!
//! Speculative contacts (stage 3) stop a fast body only at the features that were closest at
//! the start of the step; a body that crosses many times its own size in a step can reach a
//! thin wall somewhere else, and tunnel. This stage runs after the positions are written back.
//! It picks the *fast* bodies: dynamic bodies marked as bullets
//! ([`BodyDesc::bullet`](crate::BodyDesc#structfield.bullet)) and dynamic bodies whose motion
//! over the step (the centre's displacement plus the turn's chord at the shape's farthest
//! point) exceeds [`FAST_FRACTION`] of the shape's smallest half width. Each fast body's motion
//! is a [`Sweep`] from its pose at the start of the step to its pose now. The static and
//! kinematic bodies whose boxes meet the box of that sweep (found in the world's tree of bodies)
//! are swept against it with [`time_of_impact`], and the body is moved back to the earliest time
//! of impact, a small target separation short of touching, keeping its velocity. The next
//! step's speculative contact then stops it (Box2D v3's continuous step, after Erin Catto,
//! "Continuous Collision", GDC 2013). Everything else keeps speculative contacts alone.
//!
//! **Starting in contact.** A fast body that already touches a wall at the start of the step
//! (sliding along it, or stopped there by the last step) gives no time of impact: the contacts
//! are in charge of its surface. Its *core* is swept instead, a ball of a quarter of its
//! smallest half width at its centre of mass, so that the centre never enters the wall (Box2D
//! v3's fallback).
//!
//! **Bullets** are also swept against the dynamic bodies that are not bullets, standing at the
//! poses the step leaves them in: bullets run in a second pass, after every other fast body has
//! been moved back (Box2D v3's order), so what they are swept against is final. Two bullets,
//! and two fast bodies that are not bullets, rely on speculative contacts between them.
//!
//! **Limits.** Bodies are found by their boxes in the world's tree, which holds the boxes of the
//! start of the step: a kinematic or dynamic body that moves into the path from far away in the
//! same step is missed (a kinematic body's own motion over the step is swept). The contact hook
//! does not see this stage: a fast body is stopped at a one-way platform. A sweep turns by the
//! shortest turn between the step's two rotations.
//!
//! The stage moves only fast bodies, each against bodies it does not move, one body at a time
//! in slot order, on the caller's thread, so its result does not depend on the number of
//! threads. With no fast body it costs one pass over the bodies.

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_narrowphase::composite::BodyQueries;
use kollide_narrowphase::{QuerySettings, Sweep, ToiStatus};
use kollide_shapes::{Aabb, Ball};

use super::solver_bodies::SolverBodies;
use crate::world::Slot;
use crate::{Body, BodyHandle, BodyKind, Dim, SolverDim, StepReport, World, WorldError};
use kollide_shapes::tree::Tree;

/// A body is fast when it moves more than this fraction of its smallest half width in a step
/// (Box2D v3's safety factor).
pub(crate) const FAST_FRACTION: f64 = 0.5;

/// The separation (m) a fast body is left at from what it hits: a quarter of Box2D's linear
/// slop (5 mm), or of [`crate::StepSettings::linear_slop`] when that is larger.
const TARGET_SLOP: f64 = 0.005;

type PoseOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Pose;

/// `true` when the bodies in slots `a` and `b` are joined by a joint that keeps them from
/// colliding (`no_collide` is sorted).
fn jointed(no_collide: &[(u32, u32)], a: u32, b: u32) -> bool {
    !no_collide.is_empty() && no_collide.binary_search(&(a.min(b), a.max(b))).is_ok()
}

/// The stage's buffers, reused from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContinuousStage {
    /// The bodies near one fast body's sweep that it is swept against.
    candidates: Vec<u32>,
}

/// What the stage reads besides the slots.
pub(crate) struct ContinuousInput<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The solver's bodies: where each body started the step.
    pub(crate) start: &'a SolverBodies<N, D>,
    /// The tree of the bodies' boxes: each moving body's box for this step (see
    /// `broadphase_update.rs`), a static body's AABB.
    pub(crate) tree: &'a Tree<N, D>,
    /// [`crate::StepSettings::linear_slop`].
    pub(crate) linear_slop: N,
    /// The slot pairs `(low, high)` that must not collide (jointed bodies), sorted.
    pub(crate) no_collide: &'a [(u32, u32)],
}

impl ContinuousStage {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Sweeps the fast bodies and moves each back to its earliest time of impact; counts the
    /// sweeps and the bodies moved back in `report`.
    pub(crate) fn run<N: Scalar, const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        input: &ContinuousInput<'_, N, D>,
        report: &mut StepReport,
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        // Bullets go second: they are swept against the other dynamic bodies too, at the
        // poses the first pass leaves them in.
        let mut bullets = false;
        for index in 0..slots.len() {
            // The solver's dense copy rules out most bodies before the slot is read.
            let sb = &input.start.bodies[index];
            if !sb.dynamic {
                continue;
            }
            let Some(body) = &slots[index].body else { continue };
            if body.desc.bullet {
                bullets = true;
                continue;
            }
            if moved_far(body, sb, &input.start.states[index].dp) && !body.desc.sensor {
                self.sweep(slots, index, input, report);
            }
        }
        if bullets {
            for index in 0..slots.len() {
                let bullet = slots[index].body.as_ref().is_some_and(|b| {
                    b.desc.bullet && b.desc.kind == BodyKind::Dynamic && !b.desc.sensor
                });
                if bullet {
                    self.sweep(slots, index, input, report);
                }
            }
        }
    }

    /// Sweeps the body in slot `index` over the step and moves it back to its earliest time of
    /// impact, if any.
    fn sweep<N: Scalar, const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        index: usize,
        input: &ContinuousInput<'_, N, D>,
        report: &mut StepReport,
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        let Some(body) = &slots[index].body else { return };
        let start = start_pose(input.start, index, &body.local_center);
        let sweep = Sweep::between(start, body.desc.pose, body.local_center);
        report.continuous_sweeps += 1;
        let t = self.earliest_impact(slots, index, &sweep, input);
        if t < N::one() {
            report.toi_hits += 1;
            if let Some(b) = slots[index].body.as_mut() {
                b.desc.pose = sweep.pose_at(t);
            }
        }
    }

    /// The earliest time of impact of the body in slot `index`, moving on `sweep`, with the
    /// static and kinematic bodies near it, and the dynamic ones that are not bullets when it is
    /// a bullet (1 when it hits none).
    fn earliest_impact<N: Scalar, const D: usize>(
        &mut self,
        slots: &[Slot<N, D>],
        index: usize,
        sweep: &Sweep<N, D, PoseOf<N, D>>,
        input: &ContinuousInput<'_, N, D>,
    ) -> N
    where
        Dim<D>: SolverDim<N, D>,
    {
        let Some(body) = &slots[index].body else { return N::one() };
        let target = target_separation(body, input.linear_slop);
        let bounds = swept_box(body, sweep).loosened(target);
        self.candidates.clear();
        input.tree.query_aabb(&bounds, |other| {
            let near = slots.get(other as usize).and_then(|s| s.body.as_ref()).is_some_and(|o| {
                let dynamic = o.desc.kind == BodyKind::Dynamic;
                other as usize != index
                    && (!dynamic || (body.desc.bullet && !o.desc.bullet))
                    && !o.desc.sensor
                    && body.desc.collision_groups.interacts(&o.desc.collision_groups)
                    && !jointed(input.no_collide, index as u32, other)
            });
            if near {
                self.candidates.push(other);
            }
            true
        });
        let settings = QuerySettings::default();
        let mut earliest = N::one();
        for &other in &self.candidates {
            let Some(o) = &slots[other as usize].body else { continue };
            let other_sweep = match o.desc.kind {
                BodyKind::Kinematic => {
                    let start = start_pose(input.start, other as usize, &o.local_center);
                    Sweep::between(start, o.desc.pose, o.local_center)
                }
                // A dynamic body (for a bullet) stands where this step leaves it, as in
                // Box2D v3.
                BodyKind::Static | BodyKind::Dynamic => Sweep::fixed(o.desc.pose),
            };
            let toi = o.desc.shape.time_of_impact(
                &other_sweep,
                &body.desc.shape,
                sweep,
                target,
                target * N::lit(0.25),
                &settings,
            );
            let mut t = toi.t;
            if toi.status == ToiStatus::Overlapping {
                // Touching at the start (sliding along a wall, resting, just stopped there): the
                // contacts have the shape, but its centre must not cross into the other body.
                t = core_impact(o, &other_sweep, body, sweep, target, &settings);
            }
            // A failed search still gives a safe time (short of the hit): moving there is
            // never wrong, only early.
            let hit =
                matches!(toi.status, ToiStatus::Hit | ToiStatus::Failed | ToiStatus::Overlapping);
            if hit && t > N::zero() && t < earliest {
                earliest = t;
            }
        }
        earliest
    }
}

/// For a body that starts the sweep touching `other`: when its *core*, a ball of a quarter of
/// its smallest half width at its centre of mass, comes within the target of `other` (1 when it
/// does not). This keeps the centre out of the other body while the contacts handle the
/// surfaces; Box2D v3 falls back on the same core.
fn core_impact<N: Scalar, const D: usize>(
    other: &Body<N, D>,
    other_sweep: &Sweep<N, D, PoseOf<N, D>>,
    body: &Body<N, D>,
    sweep: &Sweep<N, D, PoseOf<N, D>>,
    target: N,
    settings: &QuerySettings<N>,
) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    let Ok(core) = Ball::<N, D>::new(body.min_extent * N::lit(0.25)) else { return N::one() };
    let center = sweep.start.transform_point(&body.local_center);
    let start = PoseOf::<N, D>::from_translation(center.coords);
    let core_sweep = Sweep::translation(start, sweep.translation);
    let tolerance = target * N::lit(0.25);
    let toi = other.desc.shape.time_of_impact_convex(
        other_sweep,
        &core,
        &core_sweep,
        target,
        tolerance,
        settings,
    );
    match toi.status {
        ToiStatus::Hit | ToiStatus::Failed => toi.t,
        _ => N::one(),
    }
}

/// The body's pose at the start of the step, from the solver's copy (its centre of mass and
/// rotation then).
fn start_pose<N: Scalar, const D: usize>(
    start: &SolverBodies<N, D>,
    index: usize,
    local_center: &Point<N, D>,
) -> PoseOf<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let sb = &start.bodies[index];
    let origin = sb.center.coords - Dim::<D>::rotate(&sb.q0, &local_center.coords);
    Dim::<D>::pose_from(origin, sb.q0)
}

/// `true` when a body that is not a bullet moved more than [`FAST_FRACTION`] of its smallest
/// half width in the step: its centre by `dp`, and each point by at most the chord of its turn
/// times the shape's reach from the centre. Squared lengths first, so that the usual slow body
/// costs no square root.
#[inline]
fn moved_far<N: Scalar, const D: usize>(
    body: &Body<N, D>,
    sb: &crate::contact_solver::SolverBody<N, D>,
    dp: &Vector<N, D>,
) -> bool
where
    Dim<D>: SolverDim<N, D>,
{
    let limit = body.min_extent * N::lit(FAST_FRACTION);
    let moved2 = dp.norm_squared();
    let turned2 = chord_squared::<N, D>(&sb.q0, &sb.q) * body.reach * body.reach;
    let half2 = limit * limit * N::lit(0.25);
    if moved2 <= half2 && turned2 <= half2 {
        return false;
    }
    moved2.sqrt() + turned2.max_of(N::zero()).sqrt() > limit
}

/// The squared chord `(2 sin(θ/2))²` of the turn `θ` from `a` to `b`, from the dot product of
/// their stored components: `2 − 2 cos θ` for unit complex numbers (2D), `4 (1 − (a·b)²)` for
/// unit quaternions (3D, where `a·b = ±cos(θ/2)`).
#[inline]
fn chord_squared<N: Scalar, const D: usize>(
    a: &<Dim<D> as SolverDim<N, D>>::Rotation,
    b: &<Dim<D> as SolverDim<N, D>>::Rotation,
) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    let (ca, cb) = (Dim::<D>::rotation_components(a), Dim::<D>::rotation_components(b));
    let dot = ca[0] * cb[0] + ca[1] * cb[1] + ca[2] * cb[2] + ca[3] * cb[3];
    if D == 2 { N::lit(2.0) * (N::one() - dot) } else { N::lit(4.0) * (N::one() - dot * dot) }
}

/// The separation a fast body is left at: a quarter of the linear slop (at least
/// [`TARGET_SLOP`]), and at most a tenth of the body's smallest half width.
fn target_separation<N: Scalar, const D: usize>(body: &Body<N, D>, linear_slop: N) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    let slop = linear_slop.max_of(N::lit(TARGET_SLOP)) * N::lit(0.25);
    slop.min_of(body.min_extent * N::lit(0.1))
}

/// A box around every pose of the body on `sweep`: the balls around its centre of mass at both
/// ends that hold the whole shape in any rotation (a turning body can reach beyond the boxes of
/// its two end poses).
fn swept_box<N: Scalar, const D: usize>(
    body: &Body<N, D>,
    sweep: &Sweep<N, D, PoseOf<N, D>>,
) -> Aabb<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let reach = body.reach;
    let c0 = sweep.start.transform_point(&body.local_center);
    let c1 = c0 + sweep.translation;
    let r = Vector::<N, D>::repeat(reach);
    Aabb::new(c0 - r, c0 + r).merged(&Aabb::new(c1 - r, c1 + r))
}

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Makes a dynamic body a bullet, or an ordinary body again (see
    /// [`BodyDesc::bullet`](crate::BodyDesc#structfield.bullet)). A stale handle, or a body
    /// that is not dynamic, is refused and changes nothing.
    pub fn set_bullet(&mut self, h: BodyHandle, bullet: bool) -> Result<(), WorldError> {
        let kind = self.body(h)?.desc.kind;
        if kind != BodyKind::Dynamic {
            return Err(WorldError::WrongKind { needed: BodyKind::Dynamic, actual: kind });
        }
        if let Some(b) = self.slots[h.index as usize].body.as_mut() {
            b.desc.bullet = bullet;
        }
        self.disturb(h.index);
        Ok(())
    }
}
