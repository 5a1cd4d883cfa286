//! Contacts in closed form between a core that is a point or a segment (a ball, a capsule, a
//! segment) and a core whose distance to a point has one (a cylinder, a cone).
//!
//! * **The point inside** ([`point_inside_contact`]): the ball leaves through the part of the
//!   other core's boundary nearest its centre ([`SupportMap::local_core_depth`]).
//! * **The cores apart** ([`projection_contact`]): with `π` the other core's projection
//!   ([`SupportMap::local_core_projection`]) and `p(t) = s₀ + t (s₁ − s₀)` the segment, the
//!   distance `f(t) = |p(t) − π(p(t))|` from a point of a line to a convex set is convex in `t`,
//!   and differentiable where it is positive, with `f′(t) = (p − π(p))·(s₁ − s₀) / f(t)`: the
//!   unit vector from the projection, along the segment. Its least value on `[0, 1]` is at an
//!   end where `f′` does not change sign, and otherwise where it does, found by bisecting the
//!   sign of `f′` to the last bit of `t`. The normal is then the boundary's own normal at the
//!   projection ([`SupportMap::local_core_normal_toward`]; at a rim or an apex the direction
//!   from the projection, made orthogonal to the segment where `f′(t) = 0`, as the optimality of
//!   `t` requires), and the segment's point has `f′ = 0` to rounding: both
//!   witnesses lie on their supporting planes, which GJK on a curved core reaches only slowly
//!   (Gilbert, Johnson, Keerthi 1988; the convexity of the distance to a convex set: Rockafellar,
//!   *Convex Analysis*, 1970).
//!
//! Either answer is exact to rounding and costs a few dozen projections; where neither applies
//! (the segment meets the other core, or that core has no closed form) the caller runs GJK and
//! EPA.

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::SupportMap;

use crate::{ShapeContact, Status};

/// [`contact`] when one shape's core is a point (a ball) inside the other's core, in closed form
/// where the other shape has one ([`SupportMap::local_core_depth`]): the ball leaves through the
/// nearest part of the core's boundary. `None` otherwise (the point outside, or no closed form).
pub(crate) fn point_inside_contact<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    // `c` is the ball's centre, `m` the other core's outward normal nearest it, `depth` deep.
    let (ball_is_a, c, depth, m) = if a.core_is_point() {
        let c = crate::query::core_center(pos_a, a);
        let (depth, m) = b.local_core_depth(&pos_b.inverse_transform_point(&c))?;
        (true, c, depth, pos_b.transform_vector(&m).normalize())
    } else if b.core_is_point() {
        let c = crate::query::core_center(pos_b, b);
        let (depth, m) = a.local_core_depth(&pos_a.inverse_transform_point(&c))?;
        (false, c, depth, pos_a.transform_vector(&m).normalize())
    } else {
        return None;
    };
    let (ra, rb) = (a.radius(), b.radius());
    let separation = -(depth + ra + rb);
    // The normal from A to B is the way B leaves: out through A's boundary when the ball is
    // B, and the ball A leaving B is B moving the other way.
    let (normal, point_a) = if ball_is_a { (-m, c - m * ra) } else { (m, c + m * (depth + ra)) };
    Some(ShapeContact {
        point_a,
        point_b: point_a + normal * separation,
        normal,
        separation,
        status: Status::Converged,
    })
}

/// [`crate::contact`] when one core is a point or segment and the other has a closed-form
/// projection, for cores apart (see the module docs); `None` otherwise.
pub(crate) fn projection_contact<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
) -> Option<ShapeContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    // In `f32` the projections' rounding tilts the normal more than the `f32` path does, which
    // re-runs curved pairs in `f64` on the same support points (`query.rs`).
    if N::EPSILON.to_f64() > 1e-10 {
        return None;
    }
    let (ra, rb) = (a.radius(), b.radius());
    // `on_s`, `on_k`: the nearest points of the segment core and the other core, in world space.
    let (normal, point_a, point_b, dist) = if let Some(seg) = a.core_segment() {
        let (on_s, on_k, n, d) = nearest(&seg.map(|p| pos_a.transform_point(&p)), pos_b, b)?;
        (n, on_s + n * ra, on_k - n * rb, d)
    } else if let Some(seg) = b.core_segment() {
        let (on_s, on_k, n, d) = nearest(&seg.map(|p| pos_b.transform_point(&p)), pos_a, a)?;
        (-n, on_k - n * ra, on_s + n * rb, d)
    } else {
        return None;
    };
    Some(ShapeContact {
        point_a,
        point_b,
        normal,
        separation: dist - (ra + rb),
        status: Status::Converged,
    })
}

/// The nearest points of the segment `seg` (world space) and `k`'s core, for a segment apart
/// from the core: bisection of the sign of the distance's derivative (module docs). Returns the
/// two points, the unit vector from the segment's to the core's and their distance, the last
/// two from `k`'s frame (far from the origin, world coordinates would cancel). `None` when `k`
/// has no closed-form projection or the segment meets the core.
#[allow(clippy::type_complexity)]
fn nearest<N, const D: usize, P, K>(
    seg: &[Point<N, D>; 2],
    pos_k: &P,
    k: &K,
) -> Option<(Point<N, D>, Point<N, D>, Vector<N, D>, N)>
where
    N: Scalar,
    P: Pose<N, D>,
    K: SupportMap<N, D> + ?Sized,
{
    let (s0, s1) = (pos_k.inverse_transform_point(&seg[0]), pos_k.inverse_transform_point(&seg[1]));
    let dir = s1 - s0;
    let at = |t: N| s0 + dir * t;
    // The projection of `p(t)` and the sign of `f′(t)`; `None` inside the core.
    let slope = |t: N| {
        let p = at(t);
        let q = k.local_core_projection(&p)?;
        Some((q, (p - q).dot(&dir)))
    };
    let (q0, g0) = slope(N::zero())?;
    let (t, q) = if g0 >= N::zero() {
        (N::zero(), q0)
    } else {
        let (q1, g1) = slope(N::one())?;
        if g1 <= N::zero() { (N::one(), q1) } else { bisect(&slope)? }
    };
    let p = at(t);
    // A segment that grazes the core leaves a distance of rounding size: GJK and EPA decide it.
    // Below `√ε` of the size the bisection's `t` is set by rounding too (the distance is flat
    // along the segment), and the rim's normal at that `q` need not be the one at the nearest
    // point: a segment 1.6e-7 from a cone 150 m across (1e-9 of the size) got a normal whose gap
    // missed by 2.2e-7. (Tried: `ε^(2/3)` of the size, which fixed two grazes and broke that one.)
    let size = k.bounding_radius().max_of(dir.norm());
    let d = (q - p).norm();
    if d <= size * N::EPSILON.sqrt() {
        return None;
    }
    // The boundary's own normal where it has one: `q − p` is short and its rounding is that of
    // the coordinates. The check keeps a normal that does not face `p` (rounding at a corner)
    // from being used.
    let own = k.local_core_normal_toward(&p).filter(|m| m.dot(&(q - p)) < -d * N::lit(0.5));
    let n = match own {
        Some(m) if t > N::zero() && t < N::one() => {
            across_both_lines(-m, &dir, ruling(k, &m, size * N::EPSILON.sqrt()))
        }
        Some(m) => -m,
        None => optimal_along_segment((q - p) / d, &dir, t),
    };
    let n = pos_k.transform_vector(&n);
    Some((pos_k.transform_point(&p), pos_k.transform_point(&q), n, d))
}

/// The direction of the straight line on the core's boundary through the point whose outward
/// normal is `m` (a cylinder's or a cone's side), from the ends of the core's set supporting
/// `m` to within `tol`; `None` where that set is a point or a cap.
fn ruling<N, const D: usize, K>(k: &K, m: &Vector<N, D>, tol: N) -> Option<Vector<N, D>>
where
    N: Scalar,
    K: SupportMap<N, D> + ?Sized,
{
    let (mut ends, mut count) = ([Point::<N, D>::origin(); 2], 0);
    let listed = k.curved_core_feature(m, tol, &mut |e| {
        if count < 2 {
            ends[count] = e;
        }
        count += 1;
    });
    (listed && count == 2).then(|| ends[1] - ends[0])
}

/// `n`, the core's own normal at its point nearest a segment's inside point `p(t)`, turned
/// across the segment (`dir`) and across the core's straight line there (`line`, a side's),
/// as the exact normal is when the segment faces a side: both the segment's support function
/// and the side's have a kink across their lines, where an error in `n` moves the gap it attains
/// to first order, by the line's length times it. The bisection's `t` is off by what rounding
/// leaves of the sign of `f′`, and the core's normal at `q` turns with it (a segment 1.1e-6 from
/// a cone's side 8 across got one whose gap missed by 1.6e-8); a tilt across both lines moves
/// the gap to second order only.
fn across_both_lines<N: Scalar, const D: usize>(
    n: Vector<N, D>,
    dir: &Vector<N, D>,
    line: Option<Vector<N, D>>,
) -> Vector<N, D> {
    let Some(u) = dir.try_normalize(N::zero()) else {
        return n;
    };
    let mut out = n - u * n.dot(&u);
    // The side's line, less its part along the segment; nothing more when they are parallel.
    if let Some(g) = line
        && let Some(w) = (g - u * g.dot(&u)).try_normalize(g.norm() * N::lit(1e-3))
    {
        out -= w * out.dot(&w);
    }
    out.try_normalize(N::zero()).unwrap_or(n)
}

/// `n`, the unit vector from the segment's nearest point `p(t)` to the core's where the core
/// has no normal of its own (a rim, an apex), with its component along the segment set to what
/// the optimality of `t` requires: none inside `(0, 1)` (`f′(t) = 0`), none against the
/// segment's descent at an end (`f′(0) ≥ 0`, `f′(1) ≤ 0`). `q − p` is rounded at the
/// coordinates' scale, so its direction is off by about `ε·size/d`; the segment's support
/// function has a kink along `n·dir = 0`, where that error moves the gap the normal attains to
/// first order (by the segment's length times it), while a tilt within the segment's normal
/// plane moves it to second order only (the gap is stationary there at the optimum).
fn optimal_along_segment<N: Scalar, const D: usize>(
    n: Vector<N, D>,
    dir: &Vector<N, D>,
    t: N,
) -> Vector<N, D> {
    let len2 = dir.norm_squared();
    // A ball's core is a segment of no length: its support function has no kink.
    if len2 == N::zero() {
        return n;
    }
    let along = n.dot(dir) / len2;
    let allowed = if t <= N::zero() {
        along.min_of(N::zero())
    } else if t >= N::one() {
        along.max_of(N::zero())
    } else {
        N::zero()
    };
    (n - *dir * (along - allowed)).try_normalize(N::zero()).unwrap_or(n)
}

/// The last `t` in `(0, 1)` where `slope` changes sign from `−` to `+`, to the last bit, with its
/// projection; `None` if a midpoint is inside the core (the segment meets it).
fn bisect<N: Scalar, const D: usize>(
    slope: &dyn Fn(N) -> Option<(Point<N, D>, N)>,
) -> Option<(N, Point<N, D>)> {
    let (mut lo, mut hi) = (N::zero(), N::one());
    let mut best = None;
    for _ in 0..64 {
        let mid = (lo + hi) * N::lit(0.5);
        if mid <= lo || mid >= hi {
            break;
        }
        let (q, g) = slope(mid)?;
        best = Some((mid, q));
        if g > N::zero() { hi = mid } else { lo = mid }
    }
    best
}
