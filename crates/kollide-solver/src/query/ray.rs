//! Ray casts against the world's bodies: the closest hit, every hit, or any hit.

use core::cmp::Ordering;

use kollide_math::{Point, Pose, Scalar, Tolerances, Vector};
use kollide_narrowphase::composite::BodyQueries;
use kollide_narrowphase::{QuerySettings, Ray};

use super::{QueryError, QueryFilter};
use crate::{Body, BodyHandle, Dim, SolverDim, World};

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
        let rel = Tolerances::<N>::new().relative_length;
        self.query_tree().cast_ray_masked(
            &ray.origin,
            &ray.dir,
            max_t,
            filter.mask(),
            |slot, bound| {
                if let Some(hit) = self.ray_hit(slot, ray, max_t, bound, rel, filter) {
                    let better = best.is_none_or(|b| {
                        hit.t < b.t || (hit.t == b.t && hit.body.index < b.body.index)
                    });
                    if better {
                        best = Some(hit);
                    }
                }
                Some(best.map_or(bound, |b| b.t))
            },
        );
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
        let rel = Tolerances::<N>::new().relative_length;
        self.query_tree().cast_ray_masked(
            &ray.origin,
            &ray.dir,
            max_t,
            filter.mask(),
            |slot, bound| match self.ray_hit(slot, ray, max_t, bound, rel, filter) {
                Some(hit) if !f(hit) => None,
                _ => Some(bound),
            },
        );
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

    /// The hit of the ray on the body in `slot`, if the filter sees it and the ray hits it. A
    /// body the ray provably misses before `bound` (the best hit so far) is skipped without
    /// asking the narrowphase ([`may_hit`]); any other is asked exactly what a loop over all
    /// bodies asks.
    // Out of line, so that the closures calling it stay small enough to be inlined into the
    // tree's walk (whose loop would otherwise spill the ray's slabs around every call).
    #[inline(never)]
    fn ray_hit(
        &self,
        slot: u32,
        ray: &Ray<N, D>,
        max_t: N,
        bound: N,
        rel: N,
        filter: &QueryFilter<'_, N, D>,
    ) -> Option<RayHit<N, D>> {
        let (handle, body) = self.slot_body(slot)?;
        if !may_hit(body, ray, bound, rel) || !filter.accepts(handle, body) {
            return None;
        }
        let settings = QuerySettings::default();
        let hit = body.desc.shape.ray_cast(&body.desc.pose, ray, max_t, &settings)?;
        Some(RayHit { body: handle, t: hit.t, normal: hit.normal, point: hit.point_a })
    }
}

/// `false` only when the ray provably misses `body` for every `t ≤ bound`: it misses the ball
/// about the body's origin of its bounding radius grown by `rel·max(radius, distance to the
/// ray's origin)` (`rel`: [`Tolerances::relative_length`]). The narrowphase reports a hit
/// within a hundredth of that growth of the shape, and the rounding of this test is far below
/// it, so a body skipped here is one the narrowphase would not hit before `bound` either. Exact
/// for balls, and a cheap reject for everything. Any NaN on the way keeps the body.
#[inline]
fn may_hit<N: Scalar, const D: usize>(body: &Body<N, D>, ray: &Ray<N, D>, bound: N, rel: N) -> bool
where
    Dim<D>: SolverDim<N, D>,
{
    let m = ray.origin.coords - body.desc.pose.translation();
    let (mm, b, dd) = (m.norm_squared(), m.dot(&ray.dir), ray.dir.norm_squared());
    let r = body.bounding_radius + rel * body.bounding_radius.max_of(mm.sqrt());
    let r2 = r * r;
    if mm.partial_cmp(&r2) != Some(Ordering::Greater) {
        // Starts inside (or a NaN).
        return true;
    }
    if b >= N::zero() {
        // Starts outside, moving away.
        return false;
    }
    // The squared distance from the centre to the line, from the perpendicular part of `m`
    // (not `mm − b²/dd`, which cancels for small balls far away).
    let perp = m - ray.dir * (b / dd);
    let perp2 = perp.norm_squared();
    if perp2 > r2 {
        return false;
    }
    let entry = (-b - ((r2 - perp2) * dd).sqrt()) / dd;
    entry.partial_cmp(&bound) != Some(Ordering::Greater)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BodyDesc;
    use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
    use kollide_shapes::{Ball, BodyShape2, Cuboid, Shape2};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Counts of the cases `may_hit` rejected and of the misses it kept.
    #[derive(Default)]
    struct Tally {
        rejected: usize,
        kept_misses: usize,
    }

    /// Whatever `may_hit` rejects, the narrowphase does not hit before `bound`.
    fn check<N: Scalar, const D: usize>(body: &Body<N, D>, ray: &Ray<N, D>, bound: N, t: &mut Tally)
    where
        Dim<D>: SolverDim<N, D>,
    {
        let rel = Tolerances::<N>::new().relative_length;
        let settings = QuerySettings::default();
        let hit = body.desc.shape.ray_cast(&body.desc.pose, ray, bound, &settings);
        if may_hit(body, ray, bound, rel) {
            t.kept_misses += usize::from(hit.is_none());
        } else {
            assert!(hit.is_none(), "rejected a hit: {hit:?} on {ray:?} up to {bound:?}");
            t.rejected += 1;
        }
    }

    fn lit<N: Scalar>(x: f64) -> N {
        N::lit(x)
    }

    /// Seeded balls and boxes of sizes from 3e-3 to 10, rays from up to 100 m away aimed at
    /// them, grazing them (a relative 1e-6 beside the ball) or anywhere, with bounds short of
    /// the hit and beyond it.
    fn seeded_2d<N: Scalar>() -> Tally
    where
        Dim<2>: SolverDim<N, 2, Shape = BodyShape2<N>, Pose = Iso2<N>>,
    {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let mut t = Tally::default();
        for _ in 0..4000 {
            let size = 10f64.powf(rng.random_range(-2.5..1.0));
            let c = Point2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
            let pose = Iso2::new(Vec2::new(lit(c.x), lit(c.y)), lit(rng.random_range(0.0..6.3)));
            let desc = if rng.random::<bool>() {
                BodyDesc::fixed(Shape2::from(Ball::new(lit::<N>(size)).unwrap()))
            } else {
                let half = Vec2::new(lit(size), lit(size * 0.5));
                BodyDesc::fixed(Shape2::from(Cuboid::new(half).unwrap()))
            };
            let body = Body::new(desc.pose(pose)).unwrap();
            let far = 10f64.powf(rng.random_range(-2.0..2.0));
            let a: f64 = rng.random_range(0.0..6.3);
            let o = Point2::new(c.x + far * a.cos(), c.y + far * a.sin());
            let aim = match rng.random_range(0..3) {
                // At the centre, beside it by the radius (grazing a ball) or anywhere.
                0 => c,
                1 => c + Vec2::new(-a.sin(), a.cos()) * size * (1.0 + 1e-6),
                _ => c + Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)) * size,
            };
            let d = (aim - o).normalize();
            let ray =
                Ray { origin: Point2::new(lit(o.x), lit(o.y)), dir: Vec2::new(lit(d.x), lit(d.y)) };
            for bound in [far * 0.5, far, far * 2.0, 1e3] {
                check(&body, &ray, lit(bound), &mut t);
            }
        }
        t
    }

    #[test]
    fn may_hit_rejects_only_what_the_narrowphase_misses() {
        for t in [seeded_2d::<f32>(), seeded_2d::<f64>()] {
            assert!(t.rejected > 2000 && t.kept_misses > 100, "{} {}", t.rejected, t.kept_misses);
        }
        // 3D, a small ball far away: the case where `mm − b²` would cancel.
        let ball = Body::new(
            BodyDesc::fixed(Ball::new(1e-3f32).unwrap()).pose(Iso3::translation(90.0, 0.0, 0.0)),
        )
        .unwrap();
        let mut t = Tally::default();
        for k in -40..=40 {
            let y = 1e-3 * (1.0 + f64::from(k) * 1e-5);
            let d = Vec3::new(90.0, y, 0.0).normalize();
            let dir = Vec3::new(d.x as f32, d.y as f32, d.z as f32);
            check(&ball, &Ray { origin: Point3::origin(), dir }, 100.0, &mut t);
        }
        let ray = Ray { origin: Point3::origin(), dir: Vec3::new(0.0f32, 1.0, 0.0) };
        check(&ball, &ray, 100.0, &mut t);
        assert!(t.rejected >= 1, "{}", t.rejected);
    }
}
