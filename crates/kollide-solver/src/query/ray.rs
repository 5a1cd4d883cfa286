//! Ray casts against the world's bodies: the closest hit, every hit, or any hit.

use kollide_math::{Point, Scalar, Vector};
use kollide_narrowphase::{QuerySettings, Ray, ray_cast};

use super::{QueryError, QueryFilter};
use crate::{BodyHandle, Dim, SolverDim, World};

/// Where a ray hit a body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit<N: Scalar, const D: usize> {
    /// The body hit.
    pub body: BodyHandle,
    /// The ray parameter of the hit: the hit point is `origin + t·dir`.
    pub t: N,
    /// The unit outward normal of the surface hit; zero when the ray starts inside (`t = 0`).
    pub normal: Vector<N, D>,
    /// The hit point.
    pub point: Point<N, D>,
}

/// Checks a ray and its length.
fn check_ray<N: Scalar, const D: usize>(ray: &Ray<N, D>, max_t: N) -> Result<(), QueryError> {
    if !ray.origin.iter().all(|x| x.is_finite_value()) {
        return Err(QueryError::NonFinite("ray origin"));
    }
    if !ray.dir.iter().all(|x| x.is_finite_value()) {
        return Err(QueryError::NonFinite("ray direction"));
    }
    if ray.dir.iter().all(|x| *x == N::zero()) {
        return Err(QueryError::ZeroDirection);
    }
    if max_t.is_nan_value() || max_t < N::zero() {
        return Err(QueryError::BadMaxT(max_t.to_f64()));
    }
    Ok(())
}

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The first body the ray `origin + t·dir`, `0 ≤ t ≤ max_t`, hits among those `filter`
    /// sees (`None` when it hits none). A ray starting inside a body hits it at `t = 0` with a
    /// zero normal. Two bodies hit at the same `t`: the one in the lower slot.
    ///
    /// A NaN or infinite origin or direction, a zero direction, a negative or NaN `max_t`
    /// (`+∞` is allowed), or an excluded handle that names no body is refused.
    pub fn cast_ray(
        &self,
        ray: &Ray<N, D>,
        max_t: N,
        filter: &QueryFilter<'_, N, D>,
    ) -> Result<Option<RayHit<N, D>>, QueryError> {
        check_ray(ray, max_t)?;
        filter.check(self)?;
        let mut best: Option<RayHit<N, D>> = None;
        self.query_tree().cast_ray(&ray.origin, &ray.dir, max_t, |slot, bound| {
            if let Some(hit) = self.ray_hit(slot, ray, max_t, filter) {
                let better = best
                    .is_none_or(|b| hit.t < b.t || (hit.t == b.t && hit.body.index < b.body.index));
                if better {
                    best = Some(hit);
                }
            }
            Some(best.map_or(bound, |b| b.t))
        });
        Ok(best)
    }

    /// Calls `f` with every hit of the ray on the bodies `filter` sees (each body once, in no
    /// particular order) until `f` returns `false`. Input is checked as by
    /// [`World::cast_ray`].
    pub fn cast_ray_all(
        &self,
        ray: &Ray<N, D>,
        max_t: N,
        filter: &QueryFilter<'_, N, D>,
        mut f: impl FnMut(RayHit<N, D>) -> bool,
    ) -> Result<(), QueryError> {
        check_ray(ray, max_t)?;
        filter.check(self)?;
        self.query_tree().cast_ray(&ray.origin, &ray.dir, max_t, |slot, bound| {
            match self.ray_hit(slot, ray, max_t, filter) {
                Some(hit) if !f(hit) => None,
                _ => Some(bound),
            }
        });
        Ok(())
    }

    /// Some hit of the ray on a body `filter` sees, not necessarily the first: the cheapest
    /// way to ask whether anything lies on a segment (line of sight). Input is checked as by
    /// [`World::cast_ray`].
    pub fn cast_ray_any(
        &self,
        ray: &Ray<N, D>,
        max_t: N,
        filter: &QueryFilter<'_, N, D>,
    ) -> Result<Option<RayHit<N, D>>, QueryError> {
        let mut any = None;
        self.cast_ray_all(ray, max_t, filter, |hit| {
            any = Some(hit);
            false
        })?;
        Ok(any)
    }

    /// The hit of the ray on the body in `slot`, if the filter sees it and the ray hits it.
    fn ray_hit(
        &self,
        slot: u32,
        ray: &Ray<N, D>,
        max_t: N,
        filter: &QueryFilter<'_, N, D>,
    ) -> Option<RayHit<N, D>> {
        let (handle, body) = self.slot_body(slot)?;
        if !filter.accepts(handle, body) {
            return None;
        }
        let hit =
            ray_cast(&body.desc.pose, &body.desc.shape, ray, max_t, &QuerySettings::default())?;
        Some(RayHit { body: handle, t: hit.t, normal: hit.normal, point: hit.point_a })
    }
}
