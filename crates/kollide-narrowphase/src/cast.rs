//! Ray casts, shape casts (time of impact) and penetration along a direction, all from one GJK
//! ray cast on a support-mapped set.
//!
//! **GJK ray cast** (van den Bergen, "Ray Casting against General Convex Objects with Application
//! to Continuous Collision Detection", 2004). To find the first point `s + λ r` (`λ ≥ 0`) of a
//! convex set `X`, keep a point `x = s + λ r` on the ray and run GJK on `x − X`:
//!
//! 1. `v` ← closest point of the simplex `{x − pᵢ}` to the origin (`v = x −` closest point of `X`
//!    found so far);
//! 2. `p` ← `support_X(v)`, `w = x − p`;
//! 3. if `v·w > 0`, the plane through `p` with normal `v` separates `x` from `X`: if the ray
//!    points away from it (`v·r ≥ 0`) it misses; otherwise advance `λ ← λ − v·w / v·r` to that
//!    plane and remember `v` as the normal;
//! 4. stop when `|v|` is below the tolerance: `x` is on the surface, and the last `v` is its
//!    outward normal.
//!
//! The simplex is solved again from its points of `X` at every step (shifting them by the
//! current `x`). A ray against one shape needs only `λ` and the normal, so its simplex stores
//! the bare points; shape casts store the witness points too, for the contact points.
//!
//! **Shape cast.** B moving with velocity `vel` (relative to A) hits A at the first `t` with
//! `t·vel ∈ A − B`: a ray from the origin along `vel` against the Minkowski difference.
//!
//! **Penetration along a direction** (the PPV seed). B overlaps A; the shortest translation
//! `t·d` (`t ≥ 0`) of B that separates them is the exit point of the ray from the origin along `d`
//! inside `A − B`. We cast from a point of the ray beyond `A − B` back towards the origin.

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::{MinkowskiDifference, SupportMap, SupportPoint};

use crate::query::scale_of;
use crate::{Cso, QuerySettings, Simplex, SimplexVertex, SingleShape, Status};

/// A ray `origin + t · dir`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray<N: Scalar, const D: usize> {
    /// Where the ray starts.
    pub origin: Point<N, D>,
    /// Its direction (need not be unit; `t` is measured in multiples of it).
    pub dir: Vector<N, D>,
}

/// Where a ray or a cast hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit<N: Scalar, const D: usize> {
    /// The ray parameter (ray cast) or time of impact (shape cast) of the hit.
    pub t: N,
    /// The unit outward normal of the surface hit (ray cast), or the contact normal from A to B
    /// (shape cast). Zero when the cast starts inside (t = 0).
    pub normal: Vector<N, D>,
    /// The hit point (ray cast), or the contact point on A at the time of impact (shape cast).
    pub point_a: Point<N, D>,
    /// The contact point on B at the time of impact (shape cast; equal to `point_a` for rays).
    pub point_b: Point<N, D>,
    /// How the iteration ended.
    pub status: Status,
}

/// Raw GJK ray cast against a CSO in its own frame. Returns `None` on a miss; `max_t` bounds `λ`.
pub fn gjk_ray_cast<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    max_t: N,
    tolerance: N,
    settings: &QuerySettings<N>,
) -> Option<(N, Vector<N, D>, SupportPoint<N, D>, Status)> {
    ray_cast_cso::<N, D, C, SupportPoint<N, D>>(cso, origin, dir, max_t, tolerance, settings)
}

/// What the ray cast keeps per simplex vertex: a [`SupportPoint`] when the witness points of the
/// closest point are wanted (shape casts), the bare point otherwise (a ray against one shape
/// needs the hit parameter and normal alone). The bare points make every copy of the simplex
/// three numbers per vertex instead of nine; the arithmetic on the points is the same.
trait CastVertex<N: Scalar, const D: usize>: SimplexVertex<N, D> {
    /// `x − p` for this vertex `p`, keeping whatever else it carries.
    fn shifted(&self, x: &Vector<N, D>) -> Self;
    /// The closest point of `x − s` to the origin, as a support point (witnesses at the origin
    /// when the vertices carry none); `vv` is `s`'s closest point.
    fn closest(s: &Simplex<N, D, Self>, x: &Vector<N, D>, vv: &Vector<N, D>) -> SupportPoint<N, D>;
}

impl<N: Scalar, const D: usize> CastVertex<N, D> for SupportPoint<N, D> {
    #[inline(always)]
    fn shifted(&self, x: &Vector<N, D>) -> Self {
        SupportPoint { point: x - self.point, a: self.a, b: self.b }
    }

    #[inline(always)]
    fn closest(
        s: &Simplex<N, D, Self>,
        x: &Vector<N, D>,
        _vv: &Vector<N, D>,
    ) -> SupportPoint<N, D> {
        let (vv, a, b) = s.closest();
        SupportPoint { point: x - vv, a: Point::from(a), b: Point::from(b) }
    }
}

impl<N: Scalar, const D: usize> CastVertex<N, D> for Vector<N, D> {
    #[inline(always)]
    fn shifted(&self, x: &Vector<N, D>) -> Self {
        x - self
    }

    #[inline(always)]
    fn closest(
        _s: &Simplex<N, D, Self>,
        x: &Vector<N, D>,
        vv: &Vector<N, D>,
    ) -> SupportPoint<N, D> {
        SupportPoint { point: x - vv, a: Point::origin(), b: Point::origin() }
    }
}

/// [`gjk_ray_cast`], with the simplex vertices of type `V` (see [`CastVertex`]): with bare
/// points, the returned support point carries the closest point with both witnesses at the
/// origin.
fn ray_cast_cso<N, const D: usize, C, V>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    max_t: N,
    tolerance: N,
    settings: &QuerySettings<N>,
) -> Option<(N, Vector<N, D>, SupportPoint<N, D>, Status)>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
    V: CastVertex<N, D>,
{
    let mut lambda = N::zero();
    let mut x = *origin;
    let mut normal = Vector::<N, D>::zeros();
    // Simplex of points of X; the simplex solved below holds x − p for the current x.
    let first = cso.support(dir);
    let mut ps: [V; 4] = [V::from_support(&first); 4];
    let mut len = 0usize;
    let mut v = x - first.point;
    let mut closest = first;
    let tol2 = tolerance * tolerance;
    for _ in 0..settings.cast_max_iterations {
        if v.norm_squared() <= tol2 {
            return Some((lambda, normalize_or_zero(&normal), closest, Status::Converged));
        }
        let p = cso.support(&v);
        let w = x - p.point;
        let vw = v.dot(&w);
        let mut moved = false;
        if vw > N::zero() {
            let vr = v.dot(dir);
            if vr >= N::zero() {
                return None;
            }
            lambda -= vw / vr;
            if lambda > max_t {
                return None;
            }
            x = origin + dir * lambda;
            normal = v;
            moved = true;
        }
        let known = ps[..len].iter().any(|q| *q.point() == p.point);
        if !moved && (known || len == ps.len()) {
            // `x` stayed put and the support point is already spanned: we are as close as
            // rounding allows.
            return Some((lambda, normalize_or_zero(&normal), closest, Status::Converged));
        }
        // After `x` moved, the simplex must be solved again at the new `x` even when `p` is
        // already one of its points: returning here instead reported the previous `x`'s closest
        // point as a hit (false hits and early entries; regression tests `ray_cast_regression_*`
        // in tests/hard_cases.rs).
        if !known && len < ps.len() {
            ps[len] = V::from_support(&p);
            len += 1;
        }
        // Closest point of {x − pᵢ} to the origin.
        let mut s = Simplex::<N, D, V>::new(ps[0].shifted(&x));
        for q in &ps[1..len] {
            s.push(q.shifted(&x));
        }
        let inside = s.reduce();
        let vv = s.closest_point();
        // Keep the surviving points of X (undo the shift by x).
        len = s.len();
        for (k, q) in s.points().iter().enumerate() {
            ps[k] = q.shifted(&x);
        }
        closest = V::closest(&s, &x, &vv);
        if inside {
            return Some((lambda, normalize_or_zero(&normal), closest, Status::Converged));
        }
        if !moved && vv.norm_squared() >= v.norm_squared() {
            // No progress at a fixed `x`: rounding has the last word, and `x` is within `|v|` of
            // the surface. Iterating on would only reach the cap with the same answer.
            let status = if vv.norm_squared() <= tol2 * N::lit(1e4) {
                Status::Converged
            } else {
                Status::Degenerate
            };
            return Some((lambda, normalize_or_zero(&normal), closest, status));
        }
        v = vv;
    }
    Some((lambda, normalize_or_zero(&normal), closest, Status::IterationCap))
}

fn normalize_or_zero<N: Scalar, const D: usize>(v: &Vector<N, D>) -> Vector<N, D> {
    let n = v.norm();
    if n > N::zero() { v / n } else { Vector::zeros() }
}

/// Casts a ray against a shape placed at `pose`. Returns the first hit with `0 ≤ t ≤ max_t`, or
/// `None` when the ray misses. A ray starting inside the shape hits at `t = 0` with a zero normal.
///
/// ```
/// use kollide_math::{Iso2, Point2, Vec2};
/// use kollide_shapes::Circle;
/// use kollide_narrowphase::{ray_cast, QuerySettings, Ray};
/// let c = Circle::new(1.0f64).unwrap();
/// let ray = Ray { origin: Point2::new(-5.0, 0.0), dir: Vec2::new(1.0, 0.0) };
/// let hit = ray_cast(&Iso2::identity(), &c, &ray, 100.0, &QuerySettings::default()).unwrap();
/// assert!((hit.t - 4.0).abs() < 1e-6);
/// assert!((hit.normal - Vec2::new(-1.0, 0.0)).norm() < 1e-6);
/// ```
pub fn ray_cast<N, const D: usize, P, S>(
    pose: &P,
    shape: &S,
    ray: &Ray<N, D>,
    max_t: N,
    settings: &QuerySettings<N>,
) -> Option<CastHit<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    S: SupportMap<N, D> + ?Sized,
{
    let origin = pose.inverse_transform_point(&ray.origin).coords;
    let dir = pose.inverse_transform_vector(&ray.dir);
    let scale = scale_of(shape, shape);
    let tol = settings.tolerances.length(scale) * N::lit(0.01);
    let cso = SingleShape { shape, with_radius: true };
    let (t, n, _, status) =
        ray_cast_cso::<N, D, _, Vector<N, D>>(&cso, &origin, &dir, max_t, tol, settings)?;
    let hit = pose.transform_point(&Point::from(origin + dir * t));
    Some(CastHit { t, normal: pose.transform_vector(&n), point_a: hit, point_b: hit, status })
}

/// Time of impact of B moving linearly with `vel_b` against A moving with `vel_a` (both world
/// velocities, constant over the cast). Returns the first `t` in `[0, max_toi]` at which the shapes
/// touch, with the contact points at that time and the normal from A to B; `None` when they do
/// not meet in that interval. Shapes that overlap at `t = 0` hit at `t = 0`.
pub fn shape_cast<N, const D: usize, P, A, B>(
    pos_a: &P,
    vel_a: &Vector<N, D>,
    a: &A,
    pos_b: &P,
    vel_b: &Vector<N, D>,
    b: &B,
    max_toi: N,
    settings: &QuerySettings<N>,
) -> Option<CastHit<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let pos_ab = pos_a.inv_compose(pos_b);
    let rel = pos_a.inverse_transform_vector(&(vel_b - vel_a));
    let md = MinkowskiDifference::new(a, b, pos_ab).with_radii();
    let tol = settings.tolerances.length(scale_of(a, b)) * N::lit(0.01);
    let (t, n, w, status) = gjk_ray_cast(&md, &Vector::zeros(), &rel, max_toi, tol, settings)?;
    // Witnesses are at the start poses; move them to the time of impact in the world.
    let pa = pos_a.transform_point(&w.a) + vel_a * t;
    let pb = pos_a.transform_point(&w.b) + vel_a * t + pos_a.transform_vector(&(rel * t));
    Some(CastHit { t, normal: pos_a.transform_vector(&n), point_a: pa, point_b: pb, status })
}

/// Penetration along a direction: the smallest `t ≥ 0` such that moving B by `t · dir̂` leaves the
/// shapes touching but no longer overlapping (`dir̂` is `dir` normalised). Returns `None` when
/// the shapes do not overlap (nothing to resolve) or `dir` is zero.
///
/// Useful to push B back along its own motion (`dir = −displacement`) instead of along the
/// minimal-depth normal, which can tunnel a fast object out of the wrong side.
pub fn directional_penetration<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    dir: &Vector<N, D>,
    settings: &QuerySettings<N>,
) -> Option<CastHit<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let len = dir.norm();
    if len == N::zero() || !len.is_finite_value() {
        return None;
    }
    if !crate::intersection_test(pos_a, a, pos_b, b, None, settings).intersecting {
        return None;
    }
    let pos_ab = pos_a.inv_compose(pos_b);
    let d = pos_a.inverse_transform_vector(dir) / len;
    let md = MinkowskiDifference::new(a, b, pos_ab).with_radii();
    let scale = scale_of(a, b);
    // Start beyond A − B along d and cast back towards the origin.
    let far = md.support(&d).point.dot(&d).max_of(N::zero()) + scale + N::one();
    let start = d * far;
    let tol = settings.tolerances.length(scale) * N::lit(0.01);
    let (s, n, w, status) = gjk_ray_cast(&md, &start, &-d, far, tol, settings)?;
    let t = (far - s).max_of(N::zero());
    // At the exit point B has moved by t·d: its witness moves with it.
    let pa = pos_a.transform_point(&w.a);
    let pb = pos_a.transform_point(&(w.b + d * t));
    Some(CastHit { t, normal: pos_a.transform_vector(&n), point_a: pa, point_b: pb, status })
}
