//! Pair queries in closed form for shapes whose cores are segments or points: balls, capsules,
//! segments (and rounded versions of them), against each other, in 2D and 3D.
//!
//! Such a shape is its core segment `p1p2` grown by a radius (zero for a segment; a ball's core is
//! a segment whose ends coincide). Two of them overlap exactly when their cores are closer than
//! the sum of the radii, so everything follows from the closest points of two segments
//! ([`segments_closest`], Ericson, *Real-Time Collision Detection*, 2005, §5.1.9), without GJK
//! or EPA:
//!
//! * **Cores apart** (distance `δ > 0`): the normal joins the closest points, the separation is
//!   `δ − r_a − r_b`. Exact. Where a closest point is interior to its segment the offset is
//!   perpendicular to that axis, and is made so: its component along the axis is rounding.
//! * **Cores meeting in 3D**: the Minkowski difference of two segments is a parallelogram (or a
//!   segment, or a point): flat. Moving B out of that plane by the sum of the radii separates the
//!   shapes, and no shorter move does, so the depth is exactly `r_a + r_b` along the plane's
//!   normal: the cross product of the two axes, or, for parallel axes (and points), the offset
//!   of the centres perpendicular to the axis, or a fixed perpendicular when that is zero too.
//! * **Cores crossing in 2D**: the parallelogram has area. Its four edges belong to the four end
//!   points (an edge of `A − B` is an end of A against all of B's segment, or all of A's segment
//!   against an end of B), and the origin's distance to each is where the crossing sits along
//!   the other segment, times the sine of the angle between them. The nearest edge gives the
//!   normal and the depth of the cores; the radii are added.
//!
//! The separation is always measured along the chosen normal with the cores' own support
//! points, and the witness points are built from it, so `point_b − point_a = separation ·
//! normal` holds by construction, and moving B by `−separation · normal` makes the shapes touch.
//!
//! Everything runs in A's frame (B's core moved there first), so shapes far from the origin are
//! as accurate as near it, and in `f64` whatever the scalar: the closed form is a few dozen
//! operations, and `f32` is not enough for nearly parallel segments, whose common normal is only
//! accurate to `ε / sin` of their angle.

use kollide_math::{Point, Pose, Scalar, Vector, geom};
use kollide_shapes::SupportMap;

use crate::dim::{from_slice, to3};
use crate::manifold::{segment_point_closest, segments_closest};
use crate::{ShapeContact, Status};

/// The closed-form contact of two shapes whose cores are segments or points, in world space, or
/// `None` when either core is something else (the caller then runs GJK and EPA).
#[inline]
pub(crate) fn segment_cores_contact<N, const D: usize, P, A, B>(
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
    let ([p1, p2], [q1, q2]) = (a.core_segment()?, b.core_segment()?);
    let pos_ab = pos_a.inv_compose(pos_b);
    let q = [pos_ab.transform_point(&q1), pos_ab.transform_point(&q2)];
    let c = cores_contact(&[p1, p2], &q, a.radius(), b.radius());
    Some(ShapeContact {
        point_a: pos_a.transform_point(&c.point_a),
        point_b: pos_a.transform_point(&c.point_b),
        normal: pos_a.transform_vector(&c.normal),
        separation: c.separation,
        status: Status::Converged,
    })
}

/// A contact in A's frame, radii applied.
struct Local<N: Scalar, const D: usize> {
    /// On A's surface.
    point_a: Point<N, D>,
    /// On B's surface.
    point_b: Point<N, D>,
    /// Unit, from A to B.
    normal: Vector<N, D>,
    /// `(point_b − point_a) · normal`, negative when penetrating.
    separation: N,
}

/// The contact of the segment cores `p` (A's) and `q` (B's, in A's frame) grown by `ra` and
/// `rb`, computed in `f64` whatever `N` (see the module docs), in A's frame.
fn cores_contact<N: Scalar, const D: usize>(
    p: &[Point<N, D>; 2],
    q: &[Point<N, D>; 2],
    ra: N,
    rb: N,
) -> Local<N, D> {
    let wide = |x: &Point<N, D>| Point::from(x.coords.map(|c| c.to_f64()));
    let c = local_contact(&p.map(|x| wide(&x)), &q.map(|x| wide(&x)), ra.to_f64(), rb.to_f64());
    let narrow = |x: &Point<f64, D>| Point::from(x.coords.map(N::lit));
    Local {
        point_a: narrow(&c.point_a),
        point_b: narrow(&c.point_b),
        normal: c.normal.map(N::lit),
        separation: N::lit(c.separation),
    }
}

/// The contact of the segment cores `p` (A's) and `q` (B's, in A's frame) grown by `ra` and `rb`.
fn local_contact<N: Scalar, const D: usize>(
    p: &[Point<N, D>; 2],
    q: &[Point<N, D>; 2],
    ra: N,
    rb: N,
) -> Local<N, D> {
    let (pa, pb) = closest_points(p, q);
    let d = pb - pa;
    let dist = d.norm();
    // The rounding of the closest points: a few ulps of the largest coordinate.
    let extent = p
        .iter()
        .chain(q)
        .flat_map(|x| x.coords.iter().map(|c| c.abs()))
        .fold(N::zero(), |m, c| m.max_of(c));
    let tiny = N::EPSILON * N::lit(64.0) * extent;
    if D == 2
        && let Some(c) = crossing_2d(p, q, dist <= tiny, tiny, (ra, rb))
    {
        return c;
    }
    if dist > tiny {
        let perp = off_interiors(d, [(p, &pa), (q, &pb)], tiny);
        if perp.norm() > tiny {
            // The offset's direction is rounding over its length, `ε·extent/dist`: within a
            // millionth of the extent it can lean out of an end's cone by more than a 1e-10
            // turn, farther away it cannot.
            let n = if dist <= tiny * N::lit(1e8) {
                into_end_cones(perp.normalize(), [(p, &pa), (q, &pb)])
            } else {
                perp.normalize()
            };
            let core_sep = n.dot(&d);
            return grow(n, core_sep, pa, pa + n * core_sep, ra, rb);
        }
    }
    // The cores meet and their Minkowski difference is flat: the depth is the radii, along its
    // normal, from the meeting point.
    let n = flat_normal(p, q, tiny);
    grow(n, N::zero(), pa, pa, ra, rb)
}

/// `d`, the offset between the cores' closest points, without its components along the axis of
/// each segment whose closest point is interior to it.
///
/// At such a point the true offset is perpendicular to the axis; what is left along it is the
/// rounding of the closest points. When the cores nearly meet (a ball's centre within 1e-13 of
/// a capsule's axis) that rounding is a sizeable part of `d`, and the normal `d/|d|` tilted
/// along the axis by as much: its support point on the capsule jumped to an end.
pub(crate) fn off_interiors<N: Scalar, const D: usize>(
    d: Vector<N, D>,
    segments: [(&[Point<N, D>; 2], &Point<N, D>); 2],
    tiny: N,
) -> Vector<N, D> {
    // Gram–Schmidt: the axes of the interior points, made orthonormal, removed from `d`.
    let mut basis: [Option<Vector<N, D>>; 2] = [None, None];
    for (k, (s, x)) in segments.into_iter().enumerate() {
        let axis = s[1] - s[0];
        let len2 = axis.norm_squared();
        let t = (*x - s[0]).dot(&axis) / len2;
        if len2 <= tiny * tiny || !(t > N::lit(1e-9) && t < N::one() - N::lit(1e-9)) {
            continue;
        }
        let mut u = axis;
        for b in basis.iter().flatten() {
            u -= *b * b.dot(&u);
        }
        // A second axis within a milliradian of the first adds only its rounding.
        basis[k] = u.try_normalize(N::lit(1e-3) * len2.sqrt());
    }
    basis.iter().flatten().fold(d, |d, u| d - *u * u.dot(&d))
}

/// The unit normal `n` (from A to B) turned, where it leans out of the cone of normals that a
/// closest point at a segment's end allows: at an end of A, `n·u ≤ 0` for A's axis `u` pointing
/// from that end into A (else A's other end lies beyond the contact plane), and at an end of B,
/// `n·v ≥ 0` for B's axis `v` from its end. A leaning component is removed (square to each
/// interior point's axis, which `n` already is, and to the other end's correction).
///
/// Apart by more than rounding the offset of the closest points lies in those cones, to its
/// rounding. A hair apart (an end of one segment 7.5e-15 from the other's interior, at 0.2 m)
/// its direction is rounding noise, and it leant 1.6e-4 out of the cone: the support gap along
/// it was 3.5e-5 below the separation, and the witness on A sat that far off A's support plane.
fn into_end_cones<N: Scalar, const D: usize>(
    n: Vector<N, D>,
    segments: [(&[Point<N, D>; 2], &Point<N, D>); 2],
) -> Vector<N, D> {
    let mut done: [Option<Vector<N, D>>; 4] = [None; 4];
    let mut out = n;
    // The interior points' axes first: corrections keep square to them.
    for (k, (s, x)) in segments.iter().enumerate() {
        let axis = s[1] - s[0];
        let t = (**x - s[0]).dot(&axis) / axis.norm_squared();
        if t > N::lit(1e-9) && t < N::one() - N::lit(1e-9) {
            done[k] = orthonormal_to(axis, &done);
        }
    }
    for (k, (s, x)) in segments.iter().enumerate() {
        let axis = s[1] - s[0];
        let len2 = axis.norm_squared();
        let t = (**x - s[0]).dot(&axis) / len2;
        // The axis into the segment from its end, signed so that the cone is `n·c ≤ 0`.
        let into = if t <= N::lit(1e-9) {
            axis
        } else if t >= N::one() - N::lit(1e-9) {
            -axis
        } else {
            continue;
        };
        let c = if k == 0 { into } else { -into };
        if out.dot(&c) <= N::zero() {
            continue;
        }
        let Some(w) = orthonormal_to(c, &done) else { continue };
        let Some(turned) = (out - w * w.dot(&out)).try_normalize(N::EPSILON) else { continue };
        out = turned;
        done[2 + k] = Some(w);
    }
    out
}

/// `v` made square to the unit vectors of `basis` and normalised; `None` when nothing is left.
fn orthonormal_to<N: Scalar, const D: usize>(
    v: Vector<N, D>,
    basis: &[Option<Vector<N, D>>],
) -> Option<Vector<N, D>> {
    let len = v.norm();
    let w = basis.iter().flatten().fold(v, |w, b| w - *b * b.dot(&w));
    w.try_normalize(N::lit(1e-6) * len)
}

/// The closest points of two segments, accurate for nearly parallel ones too.
///
/// Ericson's clamped solution divides by `a·e − b²`, which cancels for nearly parallel segments,
/// so its parameters can be far off there, and so can its distance. The minimum is attained
/// either at an end point of one segment (an end point–segment distance, well conditioned) or,
/// in 3D, at an interior point of both, where the distance is that of the two lines: the offset
/// of Ericson's points along the lines' common normal, which does not depend on where along the
/// lines they sit (when the lines are not nearly parallel, where that normal is ill-defined and
/// the end points decide anyway). The smallest of these candidates is returned.
fn closest_points<N: Scalar, const D: usize>(
    p: &[Point<N, D>; 2],
    q: &[Point<N, D>; 2],
) -> (Point<N, D>, Point<N, D>) {
    let (s, t, pa, pb) = segments_closest(&p[0], &p[1], &q[0], &q[1]);
    let mut best = ((pb - pa).norm_squared(), pa, pb);
    let mut consider = |x: Point<N, D>, y: Point<N, D>| {
        let d2 = (y - x).norm_squared();
        if d2 < best.0 {
            best = (d2, x, y);
        }
    };
    for x in p {
        consider(*x, segment_point_closest(&q[0], &q[1], x).1);
    }
    for y in q {
        consider(segment_point_closest(&p[0], &p[1], y).1, *y);
    }
    let interior = |x: N| x > N::zero() && x < N::one();
    if D == 3 && interior(s) && interior(t) {
        // The common normal's direction is accurate to about `ε / sin` of the lines' angle:
        // beyond `√ε` (parallel lines have no common normal) the end points decide.
        let (ua, ub) = (to3(&(p[1] - p[0])).normalize(), to3(&(q[1] - q[0])).normalize());
        let n = ua.cross(&ub);
        let sin = n.norm();
        if sin > N::EPSILON.sqrt() {
            let n = from_slice::<N, D>((n / sin).as_slice());
            consider(pa, pa + n * n.dot(&(pb - pa)));
        }
    }
    (best.1, best.2)
}

/// The contact of cores at `on_a` and `on_b` (with `on_b − on_a = core_sep · n`), grown by the
/// radii.
fn grow<N: Scalar, const D: usize>(
    n: Vector<N, D>,
    core_sep: N,
    on_a: Point<N, D>,
    on_b: Point<N, D>,
    ra: N,
    rb: N,
) -> Local<N, D> {
    Local {
        point_a: on_a + n * ra,
        point_b: on_b - n * rb,
        normal: n,
        separation: core_sep - (ra + rb),
    }
}

/// The normal of the flat Minkowski difference of two meeting cores: the cross product of the
/// axes in 3D when they are not parallel (the sine of their angle above `√ε`, where the cross
/// product's direction is accurate), oriented from A's centre towards B's; otherwise the offset
/// of the centres perpendicular to the (longer) axis, or a fixed perpendicular of it, or A's
/// local `+x` for two points.
fn flat_normal<N: Scalar, const D: usize>(
    p: &[Point<N, D>; 2],
    q: &[Point<N, D>; 2],
    tiny: N,
) -> Vector<N, D> {
    let (da, db) = (p[1] - p[0], q[1] - q[0]);
    let centres = nalgebra::center(&q[0], &q[1]) - nalgebra::center(&p[0], &p[1]);
    let (la, lb) = (da.norm(), db.norm());
    if D == 3 && la > tiny && lb > tiny {
        let (ua, ub) = (to3(&(da / la)), to3(&(db / lb)));
        let cross = ua.cross(&ub);
        let sin = cross.norm();
        if sin > N::EPSILON.sqrt() {
            let n = from_slice::<N, D>((cross / sin).as_slice());
            return if n.dot(&centres) < N::zero() { -n } else { n };
        }
    }
    let axis = if la >= lb { da } else { db };
    let len = la.max_of(lb);
    if len <= tiny {
        let mut x = Vector::zeros();
        x[0] = N::one();
        return match centres.try_normalize(N::zero()) {
            Some(c) if centres.norm() > tiny => c,
            _ => x,
        };
    }
    let u = axis / len;
    let w = centres - u * u.dot(&centres);
    let wl = w.norm();
    if wl > tiny {
        return w / wl;
    }
    perpendicular(&u)
}

/// A fixed unit vector perpendicular to the unit vector `u` (2D: `u` turned a quarter clockwise;
/// 3D: the first vector of [`geom::orthonormal_basis`]).
fn perpendicular<N: Scalar, const D: usize>(u: &Vector<N, D>) -> Vector<N, D> {
    if D == 2 {
        let mut n = Vector::zeros();
        n[0] = u[1];
        n[1] = -u[0];
        n
    } else {
        from_slice(geom::orthonormal_basis(&to3(u)).0.as_slice())
    }
}

/// Two 2D segments that cross or touch (not parallel): the contact along the nearest edge of
/// their Minkowski difference (separation `≤ −r_a − r_b`), with witness points on each. `None` when they
/// are apart, parallel or either is a point. `touching` (their closest points coincide within
/// rounding) skips the crossing test, which rounding can get wrong for touching segments.
fn crossing_2d<N: Scalar, const D: usize>(
    p: &[Point<N, D>; 2],
    q: &[Point<N, D>; 2],
    touching: bool,
    tiny: N,
    (ra, rb): (N, N),
) -> Option<Local<N, D>> {
    let cross = |u: &Vector<N, D>, v: &Vector<N, D>| u[0] * v[1] - u[1] * v[0];
    let (da, db) = (p[1] - p[0], q[1] - q[0]);
    let (la, lb) = (da.norm(), db.norm());
    if la <= tiny || lb <= tiny {
        return None;
    }
    // Orientation of each segment's ends against the other's line: opposite signs (or a zero)
    // on both sides means they cross or touch.
    let (o1, o2) = (cross(&da, &(q[0] - p[0])), cross(&da, &(q[1] - p[0])));
    let (o3, o4) = (cross(&db, &(p[0] - q[0])), cross(&db, &(p[1] - q[0])));
    let k = cross(&da, &db);
    let apart = o1 * o2 > N::zero() || o3 * o4 > N::zero();
    if (apart && !touching) || k.abs() <= N::EPSILON * la * lb {
        return None;
    }
    let perp = |v: &Vector<N, D>, len: N| -> Vector<N, D> {
        let mut n = Vector::zeros();
        n[0] = v[1] / len;
        n[1] = -v[0] / len;
        n
    };
    // SAT over the only edge normals of the parallelogram `A − B`: those of B's line (its edges
    // through A's ends) and of A's line (through B's ends). Along each, the push that separates
    // the cores is measured with their support points, which stays accurate for nearly parallel
    // segments, where the crossing point itself is not.
    let (nb, na) = (perp(&db, lb), perp(&da, la));
    let mut best: Option<(N, Vector<N, D>, bool)> = None;
    for (n, on_a_end) in [(nb, true), (-nb, true), (na, false), (-na, false)] {
        let max_a = p[0].coords.dot(&n).max_of(p[1].coords.dot(&n));
        let min_b = q[0].coords.dot(&n).min_of(q[1].coords.dot(&n));
        let push = max_a - min_b;
        if best.as_ref().is_none_or(|b| push < b.0) {
            best = Some((push, n, on_a_end));
        }
    }
    let (push, n, on_a_end) = best?;
    let core_sep = (-push).min_of(N::zero());
    let end = |s: &[Point<N, D>; 2], sign: N| {
        if s[0].coords.dot(&n) * sign >= s[1].coords.dot(&n) * sign { 0 } else { 1 }
    };
    let end = if on_a_end { end(p, N::one()) } else { end(q, -N::one()) };
    let (on_a, on_b) =
        if on_a_end { (p[end], p[end] + n * core_sep) } else { (q[end] - n * core_sep, q[end]) };
    Some(grow(n, core_sep, on_a, on_b, ra, rb))
}
