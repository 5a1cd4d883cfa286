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
//! **Rounded shapes** (van den Bergen's margins). A ball, capsule or rounded box is a core grown
//! by a radius `m`. The cast runs on the cores, and `x` stops at distance `m` from them: step 3
//! tests `v·w > m|v|` and advances to the plane `m` in front of the support plane, and step 4 stops
//! when `|v| ≤ m + tolerance`. The core of a ball or capsule is a point or a segment, whose
//! simplex is exact, where a cast on the grown (curved) shape would need ever more support points
//! along a long thin simplex, and stall in rounding short of the surface. The normal is the last
//! `v`, and the witness points are the cores' witnesses moved out by their radii along it.
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

use kollide_math::{Point, Pose, Scalar, Vec3, Vector};
use kollide_shapes::{CoreRay, MinkowskiDifference, PointShape, SupportMap, SupportPoint};

use crate::cso::Widened;
use crate::query::scale_of;
use crate::{Cso, QuerySettings, ShapeContact, Simplex, SimplexVertex, SingleShape, Status};

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
    gjk_ray_cast_on(crate::cso::debug_erased(&cso), origin, dir, max_t, tolerance, settings)
}

/// [`gjk_ray_cast`] on the CSO that `debug_erased` gives.
fn gjk_ray_cast_on<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    max_t: N,
    tolerance: N,
    settings: &QuerySettings<N>,
) -> Option<(N, Vector<N, D>, SupportPoint<N, D>, Status)> {
    let limits = Limits { max_t, tolerance, margin: N::zero() };
    // Nothing else to ask about the set: a stall at the start is left as it is.
    ray_cast_cso::<N, D, C, SupportPoint<N, D>>(cso, origin, dir, &limits, settings, &|_, _| None)
        .map(|r| (r.t, r.normal, r.closest, r.status))
}

/// Where [`ray_cast_cso`] stopped.
struct RawCast<N: Scalar, const D: usize> {
    /// The ray parameter of the hit.
    t: N,
    /// The hit normal (zero for a hit at the start).
    normal: Vector<N, D>,
    /// The closest point of the set, with its witnesses.
    closest: SupportPoint<N, D>,
    status: Status,
    /// The iteration ended on a stall (no progress at a fixed point, or the iteration cap)
    /// rather than within the tolerance of the set: rounding had the last word.
    stalled: bool,
}

impl<N: Scalar, const D: usize> RawCast<N, D> {
    fn new(t: N, normal: Vector<N, D>, closest: SupportPoint<N, D>, status: Status) -> Self {
        RawCast { t, normal, closest, status, stalled: true }
    }
}

/// How many times a stalled ray cast starts a fresh simplex at its current `x`.
///
/// A stall far from the surface comes from rounding, not from the geometry:
/// a simplex that keeps a support point far from `x` (a long edge of a sliver, the far end of a
/// long segment) gives a closest point whose error, relative to the small `|v|`, turns `v` by
/// enough that the next support point brings no progress, or is one the simplex already holds.
/// `x` itself is still right (it only ever moves to separating planes), so the cast goes on from
/// there with only the support points near it.
const MAX_RESTARTS: u32 = 2;

/// The caller's proof that a cast's start is apart: given the simplex's `v` and whether the
/// simplex holds the start point, the separation vector (`x` minus the closest point of the
/// cores' set) when the shapes are proven apart, `None` otherwise.
type Apart<'f, N, const D: usize> = &'f dyn Fn(&Vector<N, D>, bool) -> Option<Vector<N, D>>;

/// Where a ray cast stops: `λ ≤ max_t`, and `x` within `tolerance` of the set grown by `margin`.
struct Limits<N> {
    max_t: N,
    tolerance: N,
    margin: N,
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

/// [`gjk_ray_cast`] against `cso` grown by `limits.margin`, with the simplex vertices of type
/// `V` (see [`CastVertex`]): with bare points, the returned support point carries the closest
/// point with both witnesses at the origin. `apart_at_start(v, inside)` is the caller's proof
/// that the start is apart ([`start_stall`], [`inside_at_start`]; `inside` when the simplex
/// holds the start point).
fn ray_cast_cso<N, const D: usize, C, V>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
    settings: &QuerySettings<N>,
    apart_at_start: Apart<'_, N, D>,
) -> Option<RawCast<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
    V: CastVertex<N, D>,
{
    ray_cast_on::<N, D, _, V>(
        crate::cso::debug_erased(&cso),
        origin,
        dir,
        limits,
        settings,
        apart_at_start,
    )
}

/// [`ray_cast_cso`] on the CSO that `debug_erased` gives.
fn ray_cast_on<N, const D: usize, C, V>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
    settings: &QuerySettings<N>,
    apart_at_start: Apart<'_, N, D>,
) -> Option<RawCast<N, D>>
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
    // `v` starts from `first`, which the simplex does not hold: it is no closest point of the
    // simplex, so the first step cannot be judged by its progress (judging it so reported a hit
    // at `t = 0` on receding pairs; regression tests in tests/narrowphase/cast_oracle.rs).
    // `last2` is the squared length of the last closest point of the simplex (none yet).
    let mut last2 = N::MAX;
    let mut restarts = 0u32;
    let (max_t, margin) = (limits.max_t, limits.margin);
    let reach = margin + limits.tolerance;
    let reach2 = reach * reach;
    // Within this of the core, a stalled iteration is as close as rounding allows.
    let near = margin + limits.tolerance * N::lit(100.0);
    let near2 = near * near;
    // A stall before `x` ever moved (see [`StartStall`]): a proven miss ends the cast, a proven
    // separation restarts it from the plane it found, and anything else falls through to the
    // usual stall handling.
    macro_rules! resolve_start_stall {
        () => {
            match start_stall(&v, dir, &ps[..len], &x, limits, apart_at_start) {
                StartStall::Miss => return None,
                StartStall::Step(l, n) => {
                    (lambda, x, normal) = (l, origin + dir * l, n);
                    (len, last2, v) = (0, N::MAX, n);
                    continue;
                }
                StartStall::Unresolved => {}
            }
        };
    }
    for _ in 0..settings.cast_max_iterations {
        if v.norm_squared() <= reach2 {
            let n = hit_normal(&normal, &v, margin);
            // The witnesses come from the simplex's barycentric weights, `v` from its facet
            // ([`facet_closest_point`]). On a long thin facet rounding can leave the weights'
            // point off `x − v` by more than the tolerance while `v` itself is right: the
            // witnesses would not meet at the hit. That is a stall of the weights, settled as
            // the others are.
            let off = x - closest.point - v;
            return Some(RawCast {
                stalled: off.norm_squared() > reach2,
                ..RawCast::new(lambda, n, closest, Status::Converged)
            });
        }
        let p = cso.support(&v);
        let w = x - p.point;
        // `v·w` less the margin: positive when `x` is beyond the grown support plane.
        let vw = if margin > N::zero() { v.dot(&w) - margin * v.norm() } else { v.dot(&w) };
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
        let unmoved = normal == Vector::<N, D>::zeros();
        if !moved && unmoved && (known || len == ps.len()) {
            // Stalled before `x` ever moved: see [`StartStall`].
            resolve_start_stall!();
        }
        if !moved && (known || len == ps.len()) {
            // `x` stayed put and the support point is already spanned: as close as this simplex
            // allows. Far from the surface, rounding in a long thin simplex has turned `v`
            // (see [`MAX_RESTARTS`]).
            if v.norm_squared() <= near2 || restarts == MAX_RESTARTS {
                let status =
                    if v.norm_squared() <= near2 { Status::Converged } else { Status::Degenerate };
                return Some(RawCast::new(
                    lambda,
                    hit_normal(&normal, &v, margin),
                    closest,
                    status,
                ));
            }
            restarts += 1;
            (len, last2) = (0, N::MAX);
            continue;
        }
        // After `x` moved, the simplex must be solved again at the new `x` even when `p` is
        // already one of its points: returning here instead reported the previous `x`'s closest
        // point as a hit (false hits and early entries; regression tests `ray_cast_regression_*`
        // in tests/narrowphase/hard_cases.rs).
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
        let vv = facet_closest_point(&s);
        // Keep the surviving points of X (undo the shift by x).
        len = s.len();
        for (k, q) in s.points().iter().enumerate() {
            ps[k] = q.shifted(&x);
        }
        let vv2 = vv.norm_squared();
        // At a fixed `x` a larger simplex can only be closer; when rounding says otherwise (a
        // sliver), the witnesses of the closer one are kept.
        if moved || vv2 < last2 {
            closest = V::closest(&s, &x, &vv);
        }
        if inside {
            // Inside from the start, or on the surface. After a move `x` lies on a separating
            // plane, so a simplex that "contains" it far from the surface is a sliver that
            // rounding misjudged: go on with a fresh one from the plane's normal.
            if normal == Vector::<N, D>::zeros() {
                match inside_at_start(&vv, dir, limits, apart_at_start) {
                    StartStall::Miss => return None,
                    StartStall::Step(l, n) => {
                        (lambda, x, normal) = (l, origin + dir * l, n);
                        (len, last2, v) = (0, N::MAX, n);
                        continue;
                    }
                    StartStall::Unresolved => {}
                }
            }
            if normal == Vector::<N, D>::zeros() || vv2 <= near2 {
                // Overlapping at the start is an answer, not a stall.
                let r =
                    RawCast::new(lambda, normalize_or_zero(&normal), closest, Status::Converged);
                return Some(RawCast { stalled: normal != Vector::<N, D>::zeros(), ..r });
            }
            if restarts == MAX_RESTARTS {
                let n = hit_normal(&normal, &vv, margin);
                return Some(RawCast::new(lambda, n, closest, Status::Degenerate));
            }
            restarts += 1;
            (len, last2, v) = (0, N::MAX, normal);
            continue;
        }
        if !moved && vv2 >= last2 && unmoved {
            // As above (the previous `v` is the better one).
            resolve_start_stall!();
        }
        if !moved && vv2 >= last2 {
            // No progress at a fixed `x`: rounding has the last word. Near the surface that is
            // the answer; farther, start a fresh simplex at `x` (see [`MAX_RESTARTS`]).
            if vv2 <= near2 || restarts == MAX_RESTARTS {
                let status = if vv2 <= near2 { Status::Converged } else { Status::Degenerate };
                return Some(RawCast::new(
                    lambda,
                    hit_normal(&normal, &v, margin),
                    closest,
                    status,
                ));
            }
            // The fresh simplex starts from the new direction: from the old one it would retrace
            // the same steps.
            restarts += 1;
            (len, last2, v) = (0, N::MAX, vv);
            continue;
        }
        v = vv;
        last2 = vv2;
    }
    Some(RawCast::new(lambda, hit_normal(&normal, &v, margin), closest, Status::IterationCap))
}

/// [`ray_cast_cso`] again, in `f64` on the same support points ([`Widened`]), for an `N` cast
/// that stalled: the simplex arithmetic that rounding stalled in `N` (a sliver's, most often)
/// has room to spare in `f64`. The answer is rounded back to `N`.
#[cold]
#[inline(never)]
fn widened_cast<N, const D: usize, C>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
    apart: Apart<'_, N, D>,
) -> Option<RawCast<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    widened_cast_on(crate::cso::debug_erased(&cso), origin, dir, limits, apart)
}

/// [`widened_cast`] on the CSO that `debug_erased` gives.
fn widened_cast_on<N, const D: usize, C>(
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
    apart: Apart<'_, N, D>,
) -> Option<RawCast<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let wide = |v: &Vector<N, D>| v.map(|x| x.to_f64());
    let narrow = |v: &Vector<f64, D>| v.map(N::lit);
    let settings = QuerySettings::<f64>::default();
    let limits64 = Limits {
        max_t: limits.max_t.to_f64(),
        tolerance: limits.tolerance.to_f64(),
        margin: limits.margin.to_f64(),
    };
    let apart64 = |v: &Vector<f64, D>, inside: bool| apart(&narrow(v), inside).map(|u| wide(&u));
    let r = ray_cast_cso::<f64, D, _, SupportPoint<f64, D>>(
        &Widened::new(cso),
        &wide(origin),
        &wide(dir),
        &limits64,
        &settings,
        &apart64,
    )?;
    let point = |p: &Point<f64, D>| Point::from(narrow(&p.coords));
    let closest = SupportPoint {
        point: narrow(&r.closest.point),
        a: point(&r.closest.a),
        b: point(&r.closest.b),
    };
    Some(RawCast {
        stalled: r.stalled,
        ..RawCast::new(N::lit(r.t), narrow(&r.normal), closest, r.status)
    })
}

/// `r`, or the same cast settled in `f64` ([`widened_cast`]) for an `f32` cast that stalled,
/// or, between shapes whose exact fallback is `costly` (large hulls, whose pair query walks both
/// in full), whose normal is [`unattained`] at its hit: that rerun is kept only where its own
/// normal attains. Callers run [`ray_cast_cso`] themselves and pass its answer: with the cast
/// inside the helper, the compiler laid the cast's loop out worse in some builds.
#[inline(always)]
fn settled<N, const D: usize, C>(
    r: RawCast<N, D>,
    cso: &C,
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
    apart: Apart<'_, N, D>,
    costly: bool,
) -> Option<RawCast<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    if N::EPSILON.to_f64() < 1e-10 {
        return Some(r);
    }
    if r.stalled {
        return widened_cast(cso, origin, dir, limits, apart);
    }
    let (margin, tolerance) = (limits.margin, limits.tolerance);
    let attains = |r: &RawCast<N, D>| {
        let hit = origin + dir * r.t.min_of(limits.max_t);
        !unattained(cso, &hit, &r.normal, (margin, tolerance), origin.norm())
    };
    if costly && !attains(&r) {
        // `f32` rounding between large hulls: the `f64` rerun costs a cast, where the caller's
        // pair query would walk both hulls in full (two touching 1000-vertex hulls: 6 M
        // instructions, over a millisecond).
        return Some(widened_cast(cso, origin, dir, limits, apart).filter(attains).unwrap_or(r));
    }
    Some(r)
}

/// The closest point to the origin of a simplex, computed for a facet (an edge in 2D, a triangle
/// in 3D) as `n (n·a) / |n|²`, `n` the facet's normal from its edges and `a` a vertex, when the
/// facet is wider than its distance to the origin and that distance is small against the
/// vertices' coordinates.
///
/// The weighted sum of the vertices is the same point, but its direction carries the rounding of
/// the vertices' coordinates divided by the point's length, `ε |a| / |v|`: near a long facet the
/// cast's support plane tilts with it, and its offset at a support point far along the facet is
/// off by that tilt times the distance (an `f32` ray 6 mm from an 8 m segment stalled 0.5 mm short
/// of it). The normal from the edges carries `ε |a|` over the facet's width instead, which is the
/// smaller error exactly when the facet is wider than `|v|`. (Close support points of a curved
/// surface make narrow facets, for which the weighted sum stays the better estimate.)
fn facet_closest_point<N: Scalar, const D: usize, V: SimplexVertex<N, D>>(
    s: &Simplex<N, D, V>,
) -> Vector<N, D> {
    let v = s.closest_point();
    let p = s.points();
    if p.len() != D {
        return v;
    }
    let a = *p[0].point();
    // The tilt costs a relative error of about `ε |a|² / |v|²` in the cast's step: negligible
    // until `|v|` is well below `|a|`, so the normal is computed only there.
    if v.norm_squared() > N::EPSILON.sqrt() * a.norm_squared() {
        return v;
    }
    let ab = p[1].point() - a;
    let (n, width2): (Vector<N, D>, N) = if D == 2 {
        (Vector::from_fn(|k, _| if k == 0 { -ab[1] } else { ab[0] }), ab.norm_squared())
    } else {
        let (ac, bc) = (p[2].point() - a, p[2].point() - p[1].point());
        let c = Vec3::new(ab[0], ab[1], ab[2]).cross(&Vec3::new(ac[0], ac[1], ac[2]));
        // The triangle's smallest height, squared: `|n|² / (longest edge)²`.
        let longest2 = ab.norm_squared().max_of(ac.norm_squared()).max_of(bc.norm_squared());
        (Vector::from_fn(|k, _| c[k]), c.norm_squared() / longest2)
    };
    let n2 = n.norm_squared();
    if !(width2 > v.norm_squared() && n2 > N::zero()) {
        return v;
    }
    n * (n.dot(&a) / n2)
}

/// How close to the (grown) set a cast's point `x` must come to count as on its surface: the
/// pair queries' relative touching tolerance times the larger of the shapes' size `scale` and
/// `coords`, the size of the coordinates the cast computes with (the ray's origin, or the
/// offset between the shapes), a few ulps of which the simplex cannot resolve below.
///
/// Not floored at unit size as [`Tolerances::length`] is: on centimetre shapes near the origin
/// the floor made the tolerance a sizeable fraction of the shapes, and casts reported contact at
/// `t = 0` between shapes `3e-7` apart.
///
/// [`Tolerances::length`]: kollide_math::Tolerances::length
#[inline]
fn cast_tolerance<N: Scalar>(settings: &QuerySettings<N>, scale: N, coords: N) -> N {
    settings.tolerances.relative_length * N::lit(0.01) * scale.max_of(coords)
}

/// What a cast that stalled at its start (`x` never moved, the support point in direction `v`
/// already in the simplex or bringing no progress) makes of it; see [`start_stall`].
enum StartStall<N: Scalar, const D: usize> {
    /// The start is proven apart and the ray does not reach the separating plane by `max_t`.
    Miss,
    /// The start is proven apart: `x` steps to the plane `margin` in front of the set along the
    /// proven separation vector (the ray parameter and that vector).
    Step(N, Vector<N, D>),
    /// Touching or too close to call: the usual stall handling decides.
    Unresolved,
}

/// Resolves a stall at the start of a cast.
///
/// In exact arithmetic a stall means the simplex reaches as far along `v` as the set does, so
/// `x − v` is the set's closest point and the support plane passes through it (`v·w = |v|²`):
/// the cast would step to the plane or report the miss. Rounding in `v` (a few ulps of the
/// simplex's coordinates, large against a small `|v|`) tilts it and makes `v·w` negative, and
/// taking the stall for contact at `t = 0` reported hits between shapes many tolerances apart.
/// When `|v|` is beyond the tolerance and beyond the length at which its direction is noise
/// ([`noise`]), the caller's `apart` is asked for the separation vector (`x` minus the closest
/// point of the set of cores) to trust: `v` itself for a single shape, the pair query's
/// closest points (with their exact fallbacks) for a Minkowski difference, whose sliver
/// simplices rounding can get wrong by more; `None` when the start is not proven apart.
#[cold]
fn start_stall<N: Scalar, const D: usize, V: SimplexVertex<N, D>>(
    v: &Vector<N, D>,
    dir: &Vector<N, D>,
    ps: &[V],
    x: &Vector<N, D>,
    limits: &Limits<N>,
    apart: Apart<'_, N, D>,
) -> StartStall<N, D> {
    let margin = limits.margin;
    if v.norm() <= margin + limits.tolerance + noise(ps, x) {
        return StartStall::Unresolved;
    }
    apart(v, false).map_or(StartStall::Unresolved, |u| step_from_apart(&u, dir, limits))
}

/// A cast whose simplex holds its start point (`x` never moved) would report an overlap at
/// `t = 0`. Rounding can misjudge a sliver simplex so (a box of millimetres by one of tens of
/// metres, in `f32`): the caller's `apart` (the pair query with its exact fallbacks) is asked
/// first, and a start it proves apart is a miss or a step as in [`start_stall`].
#[cold]
fn inside_at_start<N: Scalar, const D: usize>(
    v: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
    apart: Apart<'_, N, D>,
) -> StartStall<N, D> {
    match apart(v, true) {
        Some(u) if u.norm() > limits.margin + limits.tolerance => step_from_apart(&u, dir, limits),
        _ => StartStall::Unresolved,
    }
}

/// What a start proven apart along `u` (`x` minus the closest point of the cores' set) means
/// for the cast: a miss when the ray does not reach the grown set's plane by `max_t`, else the
/// step to that plane.
fn step_from_apart<N: Scalar, const D: usize>(
    u: &Vector<N, D>,
    dir: &Vector<N, D>,
    limits: &Limits<N>,
) -> StartStall<N, D> {
    let margin = limits.margin;
    let (vv, vr) = (u.norm_squared(), u.dot(dir));
    let gap = vv - margin * vv.sqrt();
    if vr >= N::zero() || gap > limits.max_t * -vr {
        return StartStall::Miss;
    }
    if gap <= N::zero() {
        return StartStall::Unresolved;
    }
    StartStall::Step(gap / -vr, *u)
}

/// The length below which a closest point computed from the simplex points `ps` of the set at
/// the point `x` has no direction to trust: some tens of ulps of their largest coordinate (the
/// rounding of the reduction, a few ulps, turns a `v` of a few times that length by a sizeable
/// angle). A stalled `v` no longer than this, beyond the tolerance, touches the set as far as
/// the arithmetic can tell.
#[cold]
fn noise<N: Scalar, const D: usize, V: SimplexVertex<N, D>>(ps: &[V], x: &Vector<N, D>) -> N {
    let mut m = x.amax();
    for p in ps {
        m = m.max_of(p.point().amax());
    }
    m * N::EPSILON * N::lit(64.0)
}

/// The witness points of the whole shapes from those of their cores: out by each radius along the
/// normal `n` (unit, from A to B, or zero when the cast started inside).
#[inline]
fn grown_witnesses<N: Scalar, const D: usize>(
    w: &SupportPoint<N, D>,
    n: &Vector<N, D>,
    ra: N,
    rb: N,
) -> (Point<N, D>, Point<N, D>) {
    (w.a + n * ra, w.b - n * rb)
}

/// `true` when every component of `a` and `b` is finite and `limit ≥ 0`. Branch-free: `x · 0`
/// is zero for every finite `x` and NaN for an infinite or NaN one.
#[inline(always)]
fn finite_input<N: Scalar, const D: usize>(a: &Vector<N, D>, b: &Vector<N, D>, limit: N) -> bool {
    let mut probe = N::zero();
    for k in 0..D {
        probe += a[k] * N::zero() + b[k] * N::zero();
    }
    probe == N::zero() && limit >= N::zero()
}

/// The unit normal of a hit: the normal of the last plane `x` moved to, or zero when it never
/// moved. With a margin, `x` ends at distance `margin` from the core, and `v` (from the core's
/// closest point to `x`) is the exact normal of the grown surface there, where the last plane's
/// normal lags one step behind.
#[inline]
fn hit_normal<N: Scalar, const D: usize>(
    normal: &Vector<N, D>,
    v: &Vector<N, D>,
    margin: N,
) -> Vector<N, D> {
    if margin > N::zero() && *normal != Vector::<N, D>::zeros() {
        normalize_or_zero(v)
    } else {
        normalize_or_zero(normal)
    }
}

fn normalize_or_zero<N: Scalar, const D: usize>(v: &Vector<N, D>) -> Vector<N, D> {
    let n = v.norm();
    if n > N::zero() { v / n } else { Vector::zeros() }
}

/// Casts a ray against a shape placed at `pose`. Returns the first hit with `0 ≤ t ≤ max_t`, or
/// `None` when the ray misses. A ray starting inside the shape hits at `t = 0` with a zero normal.
///
/// A zero direction is a ray that stays at its origin: it hits at `t = 0` (zero normal) when the
/// origin is inside the shape or on its surface, and misses otherwise. A ray with a non-finite
/// origin or direction, or a `max_t` that is negative or NaN, misses.
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
    let closed =
        if shape.radius() == N::zero() { shape.local_core_ray(&origin, &dir, max_t) } else { None };
    let (t, n, status) = if shape.core_is_point() {
        let (t, n) = ray_ball(&origin, &dir, shape, max_t)?;
        (t, n, Status::Converged)
    } else if let Some(closed) = closed {
        let CoreRay::Hit { t, normal } = closed else { return None };
        (t, normal, Status::Converged)
    } else {
        let tolerance = cast_tolerance(settings, scale_of(shape, shape), origin.norm());
        let cso = SingleShape { shape, with_radius: false };
        let limits = Limits { max_t, tolerance, margin: shape.radius() };
        // Apart at the start only across a proven separating plane: the core's support plane
        // along `v`, with the ray's origin beyond it (asked only while the cast is still at its
        // origin).
        let apart = |v: &Vector<N, D>, _inside: bool| {
            let n = v.try_normalize(N::zero())?;
            let gap = (origin - shape.local_core_support(&n).coords).dot(&n);
            (gap > N::zero()).then(|| n * gap)
        };
        let r =
            ray_cast_cso::<N, D, _, Vector<N, D>>(&cso, &origin, &dir, &limits, settings, &apart)?;
        let r = settled(r, &cso, &origin, &dir, &limits, &apart, false)?;
        (
            r.t,
            rounded_normal::<N, D, P, S>(shape, &(origin + dir * r.t), r.normal, settings),
            r.status,
        )
    };
    // Checked on hits only, off the path of the misses: non-finite input must not hit.
    if !finite_input(&ray.origin.coords, &ray.dir, max_t) {
        return None;
    }
    let hit = pose.transform_point(&Point::from(origin + dir * t));
    Some(CastHit { t, normal: pose.transform_vector(&n), point_a: hit, point_b: hit, status })
}

/// The outward normal of a shape with a radius at its surface point `x` (local frame), where the
/// cast found `normal` (zero for a start inside, kept so).
///
/// The cast stops once `x` is within its tolerance of the grown surface, and its direction, from
/// a simplex of the core's support points, converges more slowly than its distance: by about the
/// square root of the relative tolerance, a tilt that on a flat face moves the support plane by
/// the face's width times it (`1e-3` rad in `f32`). `x` lies a radius away from the core, so the
/// pair query of the core's point nearest to it ([`PointShape`] placed at `x`), whose exact
/// fallbacks settle flat faces, rims and edges, gives the normal. Shapes without a radius take
/// the last plane's normal, exact on a flat face.
fn rounded_normal<N, const D: usize, P, S>(
    shape: &S,
    x: &Vector<N, D>,
    normal: Vector<N, D>,
    settings: &QuerySettings<N>,
) -> Vector<N, D>
where
    N: Scalar,
    P: Pose<N, D>,
    S: SupportMap<N, D> + ?Sized,
{
    if shape.radius() == N::zero() || normal == Vector::<N, D>::zeros() {
        return normal;
    }
    let c = crate::closest_points(
        &P::identity(),
        shape,
        &P::from_translation(*x),
        &PointShape,
        settings,
    );
    // A normal turned against the cast's is no polish of it (the query found no direction).
    if c.normal.dot(&normal) > N::zero() { c.normal } else { normal }
}

/// A ray (local `origin`, `dir`) against a shape whose core is a point (a ball), in closed form:
/// the first root of `|o + t d − c|² = r²`. A start inside or on the ball hits at `t = 0` with a
/// zero normal, as the general cast does; a zero direction from outside misses.
///
/// The root is taken as `(|m|² − r²) / (−b + √(|d|² h²))` (`m = o − c`, `b = m · d`, `h²` the
/// ball's radius squared less the squared distance from its centre to the line), which has no
/// cancellation for a ray coming at the ball from afar: there the textbook `(−b − √…) / |d|²`
/// subtracts two nearly equal numbers, and so does the textbook discriminant `b² − |d|²(|m|² −
/// r²)` (Ericson, *Real-Time Collision Detection*, 2005, §5.3.2; Press et al., *Numerical
/// Recipes*, §5.6).
fn ray_ball<N: Scalar, const D: usize, S: SupportMap<N, D> + ?Sized>(
    origin: &Vector<N, D>,
    dir: &Vector<N, D>,
    ball: &S,
    max_t: N,
) -> Option<(N, Vector<N, D>)> {
    let r = ball.radius();
    let m = origin - ball.local_core_support(dir).coords;
    let c = m.norm_squared() - r * r;
    if c <= N::zero() {
        return (max_t >= N::zero()).then(|| (N::zero(), Vector::zeros()));
    }
    let b = m.dot(dir);
    if b >= N::zero() {
        return None;
    }
    // The discriminant `b² − |d|² c` from the perpendicular part of `m`: for a small ball far
    // away the two terms are nearly equal and their difference is rounding.
    let dd = dir.norm_squared();
    let perp = m - dir * (b / dd);
    let h2 = r * r - perp.norm_squared();
    if h2 < N::zero() {
        return None;
    }
    let t = c / (-b + (h2 * dd).sqrt());
    (t <= max_t).then(|| (t, normalize_or_zero(&(m + dir * t))))
}

/// [`directional_penetration`] of two balls (A at `pos_a` with centre `ca`, `m` from it to B's,
/// unit `d`, radii `ra`, `rb`), in closed form: the larger root of `|m + t d|² = (ra + rb)²`,
/// where B's centre leaves the ball of radius `ra + rb` about A's. The root is taken without
/// cancellation as in [`ray_ball`]: `−b + √h²` when `b = m·d < 0`, and `−c / (b + √h²)`
/// otherwise (`c = |m|² − (ra + rb)² ≤ 0`, `h²` the discriminant from `m`'s part across `d`).
fn balls_pushed_apart<N: Scalar, const D: usize, P: Pose<N, D>>(
    pos_a: &P,
    ca: Point<N, D>,
    m: Vector<N, D>,
    d: &Vector<N, D>,
    (ra, rb): (N, N),
) -> CastHit<N, D> {
    let r = ra + rb;
    let b = m.dot(d);
    let h2 = (r * r - (m - d * b).norm_squared()).max_of(N::zero());
    let t = if b < N::zero() {
        h2.sqrt() - b
    } else {
        let c = m.norm_squared() - r * r;
        let denominator = b + h2.sqrt();
        if denominator > N::zero() { -c / denominator } else { N::zero() }
    };
    let t = t.max_of(N::zero());
    let moved = m + d * t;
    // `|moved| = ra + rb > 0` but for rounding; should it vanish, the concentric balls' normal.
    let n =
        moved.try_normalize(N::zero()).unwrap_or_else(|| crate::query::concentric_normal(pos_a));
    CastHit {
        t,
        normal: n,
        point_a: ca + n * ra,
        point_b: ca + moved - n * rb,
        status: Status::Converged,
    }
}

/// Time of impact of B moving linearly with `vel_b` against A moving with `vel_a` (both world
/// velocities, constant over the cast). Returns the first `t` in `[0, max_toi]` at which the shapes
/// touch, with the contact points at that time and the normal from A to B; `None` when they do
/// not meet in that interval. Shapes that overlap at `t = 0` hit at `t = 0` with a zero normal;
/// shapes that touch at `t = 0` hit at `t = 0` (the normal may be zero), whether they approach or
/// not. With equal velocities the shapes stay put: a hit at `t = 0` when they overlap or touch,
/// `None` otherwise. A non-finite velocity, or a `max_toi` that is negative or NaN, gives `None`.
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
    let md = MinkowskiDifference::new(a, b, pos_ab);
    let tolerance = cast_tolerance(settings, scale_of(a, b), pos_ab.translation().norm());
    let limits = Limits { max_t: max_toi, tolerance, margin: a.radius() + b.radius() };
    // A Minkowski difference's simplex can be a sliver whose closest point rounding gets wrong
    // by more than its own noise estimate: a stalled start is taken for a miss only when the
    // pair query (with its exact fallbacks) agrees that the shapes are apart.
    let apart = |_: &Vector<N, D>, inside: bool| {
        // Asked because the simplex holds the start: overlapping shapes, the usual case then, are
        // told apart by the boolean query alone (`closest_points` would compute the penetration).
        if inside && crate::intersection_test(pos_a, a, pos_b, b, None, settings).intersecting {
            return None;
        }
        let c = crate::closest_points(pos_a, a, pos_b, b, settings);
        let n = pos_a.inverse_transform_vector(&c.normal);
        // `x − closest point` of the cores' difference: along the normal, by the core distance.
        (c.separation > tolerance).then(|| n * (c.separation + a.radius() + b.radius()))
    };
    let zero = Vector::zeros();
    let r =
        ray_cast_cso::<N, D, _, SupportPoint<N, D>>(&md, &zero, &rel, &limits, settings, &apart)?;
    let RawCast { t, normal: n, closest: w, status, .. } =
        settled(r, &md, &zero, &rel, &limits, &apart, false)?;
    if !finite_input(vel_a, vel_b, max_toi) {
        return None;
    }
    let curved = crate::query::curved(a) || crate::query::curved(b);
    let (wa, wb) = grown_witnesses(&w, &n, a.radius(), b.radius());
    // A cast that stalled is settled by the pair query at its hit, with Newton's steps on the
    // time: a 2.5 m segment 4e-9 from a box stalled a tenth of the way there and reported the
    // hit. So is a curved cast whose normal misses its contact, or whose witnesses, from its
    // last simplex's weights, miss each other by more than its tolerance although its point
    // reached the surface (a 2 cm segment's edge across a cone's rim left them 3.2e-11 apart, a
    // hundred times the tolerance). A polytope cast that converged keeps its own normal, the
    // better one there (two slivers near touching).
    let stalled = status != Status::Converged;
    if t > N::zero()
        && (stalled
            || ((limits.margin > N::zero() || curved)
                && unattained(&md, &(rel * t), &n, (limits.margin, tolerance), N::zero()))
            || (curved && (wb + rel * t - wa).norm() > N::lit(4.0) * tolerance))
    {
        let steps = if curved || stalled { 2 } else { 0 };
        let motion = Motion { vel_a: *vel_a, vel_b: *vel_b, max_t: max_toi, tolerance, steps };
        let hit = pair_hit(t, (pos_a, a), (pos_b, b), &motion, status, settings);
        let resolved = settings.tolerances.relative_length * scale_of(a, b);
        if stalled && receding(&hit, &motion, resolved) {
            return None;
        }
        return Some(hit);
    }
    // Witnesses are at the start poses; move them to the time of impact in the world.
    let pa = pos_a.transform_point(&wa) + vel_a * t;
    let pb = pos_a.transform_point(&wb) + vel_a * t + pos_a.transform_vector(&(rel * t));
    let hit = CastHit { t, normal: pos_a.transform_vector(&n), point_a: pa, point_b: pb, status };
    let miss = (wb + rel * t - wa).norm();
    if t > N::zero() && miss > N::lit(4.0) * tolerance {
        // A sharp pair whose witnesses miss each other although the cast converged: its last
        // simplex is a sliver far from the origin, whose weights rounding gets wrong along the
        // support plane (a 25 m box cast onto a parallel rounded plate in `f32`: 8.2e-4 apart).
        let motion = Motion { vel_a: *vel_a, vel_b: *vel_b, max_t: max_toi, tolerance, steps: 0 };
        let other = pair_hit(t, (pos_a, a), (pos_b, b), &motion, status, settings);
        return Some(nearer_witnesses(hit, other, miss, false));
    }
    Some(hit)
}

/// The cast's `hit`, or the pair query's `other` at the same time where its witnesses meet
/// better than the hit's, which `miss` apart: all of it on a `curved` pair (the cast's normal
/// is as far off as its witnesses there), the witnesses alone on a sharp one (whose converged
/// cast has the better normal: the pair query near touching is the noisier of the two on two
/// slivers).
fn nearer_witnesses<N: Scalar, const D: usize>(
    hit: CastHit<N, D>,
    other: CastHit<N, D>,
    miss: N,
    curved: bool,
) -> CastHit<N, D> {
    if (other.point_b - other.point_a).norm() >= miss {
        hit
    } else if curved {
        other
    } else {
        CastHit { point_a: other.point_a, point_b: other.point_b, ..hit }
    }
}

/// Whether a cast's normal `n` misses the contact it stopped at: with B moved by `x` (the ray's
/// point, in A's frame), the shapes (`cso`, grown by `margin`) overlap along `n` by more than
/// twice the cast's `tolerance`, where at a true contact normal they touch.
///
/// The cast stops once it is within its tolerance of touching, but near a curved rim (a cone's
/// or a cylinder's) that tolerance, set by the larger shape, leaves the closest point free to
/// slide along the rim, and the normal turns by that slide over the gap (the margin of a small
/// ball): 0.06 rad for a 5 mm ball against a 50 m cone in `f32`. One support query tells; the
/// callers then ask the pair query at the contact for its normal and witnesses. `shape_cast`
/// asks only for pairs with a radius or a curved core: sharp polytopes have not needed it in
/// the hostile suite, and the query is 4 % of a cast between 32-vertex hulls.
///
/// The gap is judged beyond its own rounding too: `x` was reached from a ray's start `reach`
/// away, and the gap is two dot products of points and a normal, each rounded to `ε`: about
/// `2ε (|x| + |s| + reach)` for the support point `s`. In `f32` that can be the larger of the
/// two bounds (a directional cast between 1000-vertex hulls 5 cm across starts a metre out,
/// and read −6e-8 against a tolerance of 1.7e-8 where its normal attains in `f64`; the pair
/// query that followed took over a millisecond).
fn unattained<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    x: &Vector<N, D>,
    n: &Vector<N, D>,
    (margin, tolerance): (N, N),
    reach: N,
) -> bool {
    let s = cso.support(n).point;
    let gap = x.dot(n) - s.dot(n) - margin;
    let rounding = N::lit(2.0) * N::EPSILON * (x.norm() + s.norm() + reach);
    gap < -N::lit(2.0) * tolerance - rounding
}

/// How a cast moves the shapes: each at its velocity (world frame), for times up to `max_t`,
/// and the cast's tolerance on the gap at its hit.
struct Motion<N: Scalar, const D: usize> {
    vel_a: Vector<N, D>,
    vel_b: Vector<N, D>,
    max_t: N,
    tolerance: N,
    /// Newton steps on the time: for curved pairs, whose casts stop short on a rim; none for
    /// polytopes, whose pair query near touching (two slivers) is the noisier of the two.
    steps: usize,
}

/// A hit at about `t` whose normal and witnesses are the pair query's on the shapes as they
/// stand then (A and B at their start poses, moved by `motion`): for a cast whose own normal is
/// [`unattained`], or that stopped at its iteration cap.
///
/// The cast's `t` is only as good as its normal: where that normal slid along a rim, the pair
/// query at `t` can still find a gap (or an overlap) beyond the cast's tolerance. The distance
/// from a point moving on a line to a convex set is convex in the time, so a Newton step on the
/// pair's separation (its rate the relative velocity along the normal) lands between `t` and the
/// true time of contact, never past it; two settle a gap the cast left on a curved pair. Where
/// the separation bends (a rim), a step can overshoot; the two times then bracket the contact
/// ([`bracketed`]).
fn pair_hit<N, const D: usize, P, A, B>(
    t: N,
    (pos_a, a): (&P, &A),
    (pos_b, b): (&P, &B),
    motion: &Motion<N, D>,
    status: Status,
    settings: &QuerySettings<N>,
) -> CastHit<N, D>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let at = |t: N| {
        let (at_a, at_b) =
            (pos_a.translated(&(motion.vel_a * t)), pos_b.translated(&(motion.vel_b * t)));
        crate::closest_points(&at_a, a, &at_b, b, settings)
    };
    let (mut t, mut c) = (t, at(t));
    for _ in 0..motion.steps {
        let rate = (motion.vel_b - motion.vel_a).dot(&c.normal);
        if c.separation.abs() <= motion.tolerance || rate == N::zero() {
            break;
        }
        let next = (t - c.separation / rate).max_of(N::zero()).min_of(motion.max_t);
        let closer = at(next);
        if closer.separation.abs() >= c.separation.abs() {
            // Stepped past the contact: near a rim the separation's rate is not the velocity
            // along the normal (a segment grazing a cone overshot from 2.6e-9 deep to 2.7e-9
            // apart). The two times bracket the contact; regula falsi between them.
            if (c.separation > N::zero()) != (closer.separation > N::zero()) {
                (t, c) = bracketed((t, c), (next, closer), motion.tolerance, &at);
            }
            break;
        }
        (t, c) = (next, closer);
    }
    CastHit { t, normal: c.normal, point_a: c.point_a, point_b: c.point_b, status }
}

/// Whether a stalled cast's hit is a proven miss: the pair query there finds the shapes apart
/// by more than `resolved` (its own accuracy) and not closing along its normal. Under a
/// translation the distance of two convex shapes is a convex function of time (the distance
/// from a point moving on a line to their Minkowski difference), so from there it only grows;
/// before it, the cast proved the way free (and [`pair_hit`]'s steps never pass a contact). Two
/// segments passing 5.2e-9 from each other stalled at their closest approach.
fn receding<N: Scalar, const D: usize>(
    hit: &CastHit<N, D>,
    motion: &Motion<N, D>,
    resolved: N,
) -> bool {
    let separation = (hit.point_b - hit.point_a).dot(&hit.normal);
    let rate = (motion.vel_b - motion.vel_a).dot(&hit.normal);
    separation > resolved && rate >= N::zero()
}

/// The contact between two times whose separations have opposite signs, by the Illinois
/// variant of regula falsi (Dowell and Jarratt, "A modified regula falsi method for computing
/// the root of an equation", *BIT* 11, 1971): the time and the pair query there with the least
/// separation found in a few steps, `x` or `y` when none is nearer.
fn bracketed<N: Scalar, const D: usize>(
    x: (N, ShapeContact<N, D>),
    y: (N, ShapeContact<N, D>),
    tolerance: N,
    at: &dyn Fn(N) -> ShapeContact<N, D>,
) -> (N, ShapeContact<N, D>) {
    let mut best = if x.1.separation.abs() <= y.1.separation.abs() { x } else { y };
    let (mut a, mut b) = ((x.0, x.1.separation), (y.0, y.1.separation));
    let mut side = 0;
    for _ in 0..BRACKET_STEPS {
        let t = a.0 + (b.0 - a.0) * (a.1 / (a.1 - b.1));
        let c = at(t);
        let s = c.separation;
        if s.abs() < best.1.separation.abs() {
            best = (t, c);
        }
        if s.abs() <= tolerance {
            break;
        }
        // Keep the end on the other side; halve the kept end's value when it is kept twice.
        if (s > N::zero()) == (a.1 > N::zero()) {
            a = (t, s);
            if side == -1 {
                b.1 *= N::lit(0.5);
            }
            side = -1;
        } else {
            b = (t, s);
            if side == 1 {
                a.1 *= N::lit(0.5);
            }
            side = 1;
        }
    }
    best
}

/// Regula falsi steps at most when a Newton step on a cast's time overshot the contact.
const BRACKET_STEPS: usize = 6;

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
    if let Some((ca, m)) = crate::query::point_cores(pos_a, a, pos_b, b) {
        return Some(balls_pushed_apart(pos_a, ca, m, &(dir / len), (a.radius(), b.radius())));
    }
    let pos_ab = pos_a.inv_compose(pos_b);
    let d = pos_a.inverse_transform_vector(dir) / len;
    let md = MinkowskiDifference::new(a, b, pos_ab);
    let margin = a.radius() + b.radius();
    let scale = scale_of(a, b);
    // Start beyond A − B (grown by the radii) along d and cast back towards the origin.
    let far = md.support(&d).point.dot(&d).max_of(N::zero()) + margin + scale + N::one();
    let start = d * far;
    let tolerance = cast_tolerance(settings, scale, pos_ab.translation().norm());
    let limits = Limits { max_t: far, tolerance, margin };
    // The shapes overlap (tested above): the exit point exists, and no start is apart.
    let apart = |_: &Vector<N, D>, _: bool| None;
    let back = -d;
    let r =
        ray_cast_cso::<N, D, _, SupportPoint<N, D>>(&md, &start, &back, &limits, settings, &apart)?;
    let curved = crate::query::curved(a) || crate::query::curved(b);
    let costly = !curved && crate::query::exact_is_costly(a, b);
    let r = settled(r, &md, &start, &back, &limits, &apart, costly)?;
    let RawCast { t: s, normal: n, closest: w, status, .. } = r;
    let t = (far - s).max_of(N::zero());
    // At `t = 0` too: shapes that only touch exit at once, and the cast's normal there is any
    // support direction near the contact (5e-4 rad off a rounded box's face in `f32`, which
    // tilts the gap by the face's width times that).
    if (curved && status != Status::Converged)
        || unattained(&md, &(d * t), &n, (margin, tolerance), far)
    {
        let vel_b = pos_a.transform_vector(&d);
        let steps = if curved { 2 } else { 0 };
        let motion = Motion { vel_a: Vector::zeros(), vel_b, max_t: far, tolerance, steps };
        return Some(pair_hit(t, (pos_a, a), (pos_b, b), &motion, status, settings));
    }
    let (wa, wb) = grown_witnesses(&w, &n, a.radius(), b.radius());
    // At the exit point B has moved by t·d: its witness moves with it.
    let pa = pos_a.transform_point(&wa);
    let pb = pos_a.transform_point(&(wb + d * t));
    let hit = CastHit { t, normal: pos_a.transform_vector(&n), point_a: pa, point_b: pb, status };
    // With B moved by t·d, the witnesses should differ by the radii along the normal.
    let miss = (d * t - w.point - n * margin).norm();
    if t > N::zero() && miss > N::lit(2.0) * tolerance {
        // The cast's closest point lies off the ray's point, and its witnesses miss each other
        // by as much: on a curved pair by a chord's sag, on a sharp one by rounding where the
        // simplex is a sliver far from the origin (two nearly parallel 28 m plates in `f32`:
        // 7.8e-4 along the plane, which the support gap cannot see). The pair query at the
        // exit point is kept where its witnesses meet better.
        let vel_b = pos_a.transform_vector(&d);
        let steps = if curved { 2 } else { 0 };
        let motion = Motion { vel_a: Vector::zeros(), vel_b, max_t: far, tolerance, steps };
        let other = pair_hit(t, (pos_a, a), (pos_b, b), &motion, status, settings);
        return Some(nearer_witnesses(hit, other, miss, curved));
    }
    Some(hit)
}
