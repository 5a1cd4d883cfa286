//! Shape queries against the world's bodies: a moving shape's first hit (time of impact), and
//! the bodies overlapping a box or a shape.

use kollide_math::{Pose, Scalar, Vector};
use kollide_narrowphase::composite::BodyQueries;
use kollide_narrowphase::{CastHit, QuerySettings};
use kollide_shapes::{Aabb, BoundingVolume};

use super::{QueryError, QueryFilter};
use crate::{BodyHandle, Dim, SolverDim, World};

/// The first body a moving shape hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit<N: Scalar, const D: usize> {
    /// The body hit.
    pub body: BodyHandle,
    /// The time of impact, the contact points (`point_a` on the body, `point_b` on the moving
    /// shape, both at the time of impact) and the normal from the body to the shape, as
    /// [`kollide_narrowphase::shape_cast`] gives them with the body as A.
    pub hit: CastHit<N, D>,
}

type PoseOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Pose;

fn check_pose<N: Scalar, const D: usize>(pose: &PoseOf<N, D>) -> Result<(), QueryError>
where
    Dim<D>: SolverDim<N, D>,
{
    if pose.is_finite() { Ok(()) } else { Err(QueryError::NonFinite("pose")) }
}

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The first body that `shape`, starting at `pose` and moving with `velocity` (no
    /// rotation), touches for `t` in `[0, max_t]`, among the bodies `filter` sees; `None` when
    /// it touches none. A shape that already overlaps or touches a body hits it at `t = 0`.
    /// Ties go to the lower slot. A non-finite pose or velocity, a negative, NaN or infinite
    /// `max_t`, or an excluded handle that names no body is refused.
    pub fn cast_shape<S>(
        &self,
        shape: &S,
        pose: &PoseOf<N, D>,
        velocity: &Vector<N, D>,
        max_t: N,
        filter: &QueryFilter<'_, N, D>,
    ) -> Result<Option<ShapeHit<N, D>>, QueryError>
    where
        S: BoundingVolume<N, D> + ?Sized,
    {
        check_pose::<N, D>(pose)?;
        if !velocity.iter().all(|x| x.is_finite_value()) {
            return Err(QueryError::NonFinite("velocity"));
        }
        if !(max_t.is_finite_value() && max_t >= N::zero()) {
            return Err(QueryError::BadMaxT(max_t.to_f64()));
        }
        filter.check(self)?;
        let start = shape.aabb(pose);
        let d = velocity * max_t;
        let swept = start.merged(&Aabb::new(start.mins + d, start.maxs + d));
        if !(0..D).all(|k| swept.mins[k].is_finite_value() && swept.maxs[k].is_finite_value()) {
            return Err(QueryError::NonFinite("swept box"));
        }
        let settings = QuerySettings::default();
        let mut best: Option<ShapeHit<N, D>> = None;
        self.query_tree().query_aabb_masked(&swept, filter.mask(), |slot| {
            let Some((handle, body)) = self.slot_body(slot) else { return true };
            if !filter.accepts(handle, body) {
                return true;
            }
            let (pb, sb) = (&body.desc.pose, &body.desc.shape);
            if let Some(hit) = sb.cast_convex(pb, shape, pose, velocity, max_t, &settings) {
                let better = best.is_none_or(|b| {
                    hit.t < b.hit.t || (hit.t == b.hit.t && handle.index < b.body.index)
                });
                if better {
                    best = Some(ShapeHit { body: handle, hit });
                }
            }
            true
        });
        Ok(best)
    }

    /// Calls `f` with every body `filter` sees whose AABB overlaps or touches `aabb`, until
    /// `f` returns `false`. A box that is not finite or is inverted, or an excluded handle that
    /// names no body, is refused.
    pub fn intersect_aabb(
        &self,
        aabb: &Aabb<N, D>,
        filter: &QueryFilter<'_, N, D>,
        mut f: impl FnMut(BodyHandle) -> bool,
    ) -> Result<(), QueryError> {
        if !(0..D).all(|k| aabb.mins[k].is_finite_value() && aabb.maxs[k].is_finite_value()) {
            return Err(QueryError::NonFinite("box"));
        }
        if (0..D).any(|k| aabb.mins[k] > aabb.maxs[k]) {
            return Err(QueryError::InvertedAabb);
        }
        filter.check(self)?;
        self.query_tree().query_aabb_masked(aabb, filter.mask(), |slot| {
            let Some((handle, body)) = self.slot_body(slot) else { return true };
            let tight = self.broadphase.aabb(slot);
            if filter.accepts(handle, body) && tight.is_some_and(|t| t.intersects(aabb)) {
                return f(handle);
            }
            true
        });
        Ok(())
    }

    /// Calls `f` with every body `filter` sees whose shape overlaps or touches `shape` placed
    /// at `pose` (exactly, by [`kollide_narrowphase::intersection_test`]), until `f` returns
    /// `false`. A non-finite pose or an excluded handle that names no body is refused.
    pub fn intersect_shape<S>(
        &self,
        shape: &S,
        pose: &PoseOf<N, D>,
        filter: &QueryFilter<'_, N, D>,
        mut f: impl FnMut(BodyHandle) -> bool,
    ) -> Result<(), QueryError>
    where
        S: BoundingVolume<N, D> + ?Sized,
    {
        check_pose::<N, D>(pose)?;
        filter.check(self)?;
        let settings = QuerySettings::default();
        self.query_tree().query_aabb_masked(&shape.aabb(pose), filter.mask(), |slot| {
            let Some((handle, body)) = self.slot_body(slot) else { return true };
            if filter.accepts(handle, body)
                && body
                    .desc
                    .shape
                    .intersects_convex(&body.desc.pose, shape, pose, &settings)
                    .intersecting
            {
                return f(handle);
            }
            true
        });
        Ok(())
    }
}
