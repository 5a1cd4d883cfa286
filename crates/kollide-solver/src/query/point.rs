//! Point projection: the body surface nearest to a point, or the body the point is inside.

use kollide_math::{Point, Pose, Scalar};
use kollide_narrowphase::QuerySettings;
use kollide_narrowphase::composite::BodyQueries;
use kollide_shapes::PointShape;

use super::{QueryError, QueryFilter};
use crate::{BodyHandle, Dim, SolverDim, World};

/// The projection of a point on the nearest body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection<N: Scalar, const D: usize> {
    /// The body.
    pub body: BodyHandle,
    /// The point of the body's surface nearest to the query point.
    pub point: Point<N, D>,
    /// The signed distance from the surface to the query point: negative inside the body.
    pub distance: N,
    /// `true` when the query point is inside the body (`distance < 0`).
    pub inside: bool,
}

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The body `filter` sees whose surface is nearest to `point`, with the nearest surface
    /// point and the signed distance; `None` when the filter sees no body within `max_dist`.
    /// When the point is inside bodies, the one it is deepest inside (most negative distance).
    /// Ties go to the lower slot. A non-finite point, a negative or NaN `max_dist` (`+∞` is
    /// allowed), or an excluded handle that names no body is refused.
    pub fn project_point(
        &self,
        point: &Point<N, D>,
        max_dist: N,
        filter: &QueryFilter<'_, N, D>,
    ) -> Result<Option<PointProjection<N, D>>, QueryError> {
        if !point.iter().all(|x| x.is_finite_value()) {
            return Err(QueryError::NonFinite("point"));
        }
        if max_dist.is_nan_value() || max_dist < N::zero() {
            return Err(QueryError::BadMaxT(max_dist.to_f64()));
        }
        filter.check(self)?;
        let mut best: Option<PointProjection<N, D>> = None;
        self.query_tree().nearest_masked(point, max_dist, filter.mask(), |slot, bound| {
            if let Some(p) = self.project_on(slot, point, filter)
                && p.distance <= max_dist
                && best.is_none_or(|b| {
                    p.distance < b.distance
                        || (p.distance == b.distance && p.body.index < b.body.index)
                })
            {
                best = Some(p);
            }
            // Bodies deeper than the best inside one contain the point: keep boxes at 0.
            Some(best.map_or(bound, |b| b.distance.max_of(N::zero())))
        });
        Ok(best)
    }

    /// The projection of `point` on the body in `slot`, if the filter sees it.
    fn project_on(
        &self,
        slot: u32,
        point: &Point<N, D>,
        filter: &QueryFilter<'_, N, D>,
    ) -> Option<PointProjection<N, D>> {
        let (handle, body) = self.slot_body(slot)?;
        if !filter.accepts(handle, body) {
            return None;
        }
        let at = <Dim<D> as SolverDim<N, D>>::Pose::from_translation(point.coords);
        let settings = QuerySettings::default();
        let c = body.desc.shape.closest_to_convex(&body.desc.pose, &PointShape, &at, &settings)?;
        Some(PointProjection {
            body: handle,
            point: c.point_a,
            distance: c.separation,
            inside: c.separation < N::zero(),
        })
    }
}
