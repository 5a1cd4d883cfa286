//! Times of impact and overlap tests with a composite on one side or on both.
//!
//! A composite's pieces are rigidly attached to it, so a piece moves on the composite's sweep
//! seen from the piece's own frame ([`piece_sweep`]). The time of impact of a composite and a
//! convex shape is then the earliest of the pieces' [`time_of_impact`]s (conservative advancement,
//! as in Box2D v3's `b2TimeOfImpact` run on each child of a chain or mesh), over the pieces that
//! the convex shape can reach during the sweep. Two composites (a dynamic compound against level
//! geometry) take every piece of the second against the first.

use core::ops::ControlFlow;

use kollide_math::{Pose, Scalar};
use kollide_shapes::{Aabb, BoundingVolume, CompositeShape, placed_aabb};

use super::piece::PieceRay;
use super::query::piece_pose;
use crate::query::Intersection;
use crate::toi::{Sweep, SweepPose, Toi, ToiStatus, time_of_impact};
use crate::{QuerySettings, Status, composite::composite_intersection_test};

/// The sweep of a piece whose pose in its composite's frame is `own`, for the composite on
/// `sweep`: the same motion, with the start pose and the centre of mass seen from the piece.
pub fn piece_sweep<N, const D: usize, P>(sweep: &Sweep<N, D, P>, own: Option<&P>) -> Sweep<N, D, P>
where
    N: Scalar,
    P: SweepPose<N, D>,
{
    match own {
        None => *sweep,
        Some(p) => Sweep {
            start: sweep.start.compose(p),
            local_center: p.inverse_transform_point(&sweep.local_center),
            translation: sweep.translation,
            turn: sweep.turn,
        },
    }
}

/// A world box holding `b` over its whole sweep, grown by `grow`: the boxes at both ends when it
/// does not turn, else the box of its centre's path grown by its reach from the centre.
fn swept_box<N, const D: usize, P, B>(b: &B, sweep: &Sweep<N, D, P>, grow: N) -> Aabb<N, D>
where
    N: Scalar,
    P: SweepPose<N, D>,
    B: BoundingVolume<N, D> + ?Sized,
{
    if P::turn_angle(&sweep.turn) == N::zero() {
        let start = b.aabb(&sweep.start);
        let moved = Aabb::new(start.mins + sweep.translation, start.maxs + sweep.translation);
        return start.merged(&moved).loosened(grow);
    }
    let c0 = sweep.start.transform_point(&sweep.local_center);
    let c1 = c0 + sweep.translation;
    let reach = b.bounding_radius() + sweep.local_center.coords.norm();
    Aabb::new(c0.inf(&c1), c0.sup(&c1)).loosened(reach + grow)
}

/// `world` (a world box) in the frame of a composite on `sweep`: mapped by the start pose, then
/// grown by how far any of its points can move in that frame as the composite moves and turns.
fn box_in_sweep<N, const D: usize, P>(world: &Aabb<N, D>, sweep: &Sweep<N, D, P>) -> Aabb<N, D>
where
    N: Scalar,
    P: SweepPose<N, D>,
{
    let local = placed_aabb(world, &sweep.start.inverse());
    let turn = P::turn_angle(&sweep.turn);
    let shift = sweep.translation.norm();
    if turn == N::zero() && shift == N::zero() {
        return local;
    }
    let r = (local.center() - sweep.local_center).norm() + local.half_extents().norm();
    local.loosened(shift + turn * r)
}

/// The earlier of two times of impact: a hit, a failure (whose `t` is still safe) or an overlap
/// beats a separation; otherwise the smaller `t`. Iterations add up.
fn earlier<N: Scalar, const D: usize>(best: Option<Toi<N, D>>, toi: Toi<N, D>) -> Toi<N, D> {
    let Some(best) = best else { return toi };
    let iterations = best.iterations + toi.iterations;
    let arrives = |t: &Toi<N, D>| t.status != ToiStatus::Separated;
    let pick = match (arrives(&best), arrives(&toi)) {
        (false, true) => toi,
        (true, true) if toi.t < best.t => toi,
        _ => best,
    };
    Toi { iterations, ..pick }
}

/// The time of impact of a composite A on `sweep_a` and a convex shape B on `sweep_b` (see
/// [`time_of_impact`] for `target`, `tolerance` and the statuses): the earliest over the pieces
/// B can reach. When no piece is within reach the answer is [`ToiStatus::Separated`] at `t = 1`
/// with no contact.
#[allow(clippy::too_many_arguments)]
pub fn composite_time_of_impact<N, const D: usize, P, C, B>(
    a: &C,
    sweep_a: &Sweep<N, D, P>,
    b: &B,
    sweep_b: &Sweep<N, D, P>,
    target: N,
    tolerance: N,
    settings: &QuerySettings<N>,
) -> Toi<N, D>
where
    N: Scalar,
    P: SweepPose<N, D>,
    C: CompositeShape<N, D, Pose = P> + ?Sized,
    B: BoundingVolume<N, D> + ?Sized,
{
    if !(sweep_a.is_finite() && sweep_b.is_finite()) {
        return Toi { status: ToiStatus::BadInput, t: N::zero(), contact: None, iterations: 0 };
    }
    let grow = (target + tolerance).max_of(N::zero());
    let region = box_in_sweep(&swept_box(b, sweep_b, grow), sweep_a);
    earliest_over_pieces(a, &region, sweep_a, |piece, sweep| {
        time_of_impact(piece, sweep, b, sweep_b, target, tolerance, settings)
    })
}

/// The earliest of `toi_of(piece, its sweep)` over the pieces of `c` (on `sweep`) under
/// `region`, stopping at an overlap or bad input; [`ToiStatus::Separated`] at `t = 1` with no
/// contact when no piece is there.
fn earliest_over_pieces<N, const D: usize, P, C>(
    c: &C,
    region: &Aabb<N, D>,
    sweep: &Sweep<N, D, P>,
    mut toi_of: impl FnMut(&C::Piece, &Sweep<N, D, P>) -> Toi<N, D>,
) -> Toi<N, D>
where
    N: Scalar,
    P: SweepPose<N, D>,
    C: CompositeShape<N, D, Pose = P> + ?Sized,
{
    let mut best: Option<Toi<N, D>> = None;
    let _ = c.visit_pieces_in(region, |_, own, piece| {
        let toi = toi_of(piece, &piece_sweep(sweep, own));
        let stop = matches!(toi.status, ToiStatus::Overlapping | ToiStatus::BadInput);
        best = Some(earlier(best, toi));
        if stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    best.unwrap_or(Toi { status: ToiStatus::Separated, t: N::one(), contact: None, iterations: 0 })
}

/// The time of impact of two composites: every piece of B (on its own sweep) against A by
/// [`composite_time_of_impact`], the earliest kept. The contact's points and normal are A's to
/// B's, as for a convex B.
#[allow(clippy::too_many_arguments)]
pub fn pair_time_of_impact<N, const D: usize, P, CA, CB>(
    a: &CA,
    sweep_a: &Sweep<N, D, P>,
    b: &CB,
    sweep_b: &Sweep<N, D, P>,
    target: N,
    tolerance: N,
    settings: &QuerySettings<N>,
) -> Toi<N, D>
where
    N: Scalar,
    P: SweepPose<N, D>,
    CA: CompositeShape<N, D, Pose = P> + ?Sized,
    CB: CompositeShape<N, D, Pose = P> + ?Sized,
    CB::Piece: BoundingVolume<N, D>,
{
    earliest_over_pieces(b, &b.local_aabb(), sweep_b, |piece, sweep| {
        composite_time_of_impact(a, sweep_a, piece, sweep, target, tolerance, settings)
    })
}

/// `true` when a piece of composite A overlaps or touches a piece of composite B: the pieces of B
/// under A's box, each tested against A by [`composite_intersection_test`].
pub fn pair_intersection_test<N, const D: usize, P, CA, CB>(
    pos_a: &P,
    a: &CA,
    pos_b: &P,
    b: &CB,
    settings: &QuerySettings<N>,
) -> Intersection
where
    N: Scalar,
    P: Pose<N, D>,
    CA: CompositeShape<N, D, Pose = P> + ?Sized,
    CB: CompositeShape<N, D, Pose = P> + ?Sized,
    CA::Piece: PieceRay<N, D>,
    CB::Piece: BoundingVolume<N, D>,
{
    let a_in_b = placed_aabb(&a.local_aabb(), &pos_b.inv_compose(pos_a));
    let mut status = Status::Converged;
    let flow = b.visit_pieces_in(&a_in_b, |_, own, piece| {
        let pose = piece_pose(pos_b, own);
        let hit = composite_intersection_test(pos_a, a, &pose, piece, settings);
        status = status.worst(hit.status);
        if hit.intersecting { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    Intersection { intersecting: flow.is_break(), status }
}
