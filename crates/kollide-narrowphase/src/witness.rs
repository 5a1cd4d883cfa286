//! Witness points of a penetrating contact that lie on both shapes.
//!
//! A contact along the unit normal `n` (from A to B) with separation `s < 0` needs two points:
//! one on A's supporting feature along `n` (the face, edge or vertex of A farthest along `n`),
//! one on B's supporting feature along `−n`, with `point_b − point_a = s·n`. So both points
//! have the same projection onto the plane orthogonal to `n`, and that projection must lie in
//! the projections of both features.
//!
//! When `n` is the direction of least penetration of two polytopes, the face of the Minkowski
//! difference `A − B` that it is the normal of is `F_A ⊕ (−F_B)`, and the origin projects into
//! that face: the two features' projections overlap (the separating axis theorem; Gottschalk,
//! Lin and Manocha, "OBBTree", SIGGRAPH 1996). Every point of the overlap, lifted onto each
//! supporting plane, is a valid pair. Of them this module picks the one nearest a hint (the
//! caller's first guess), so an answer that was already valid does not move.
//!
//! Two callers need it. EPA reads its witnesses from the barycentric weights of the polytope
//! face it stopped at; a flat face of `A − B` is split into several triangles of EPA's
//! polytope, all at the same distance, and when the origin projects outside the one EPA chose,
//! the clamped weights put a witness on A's feature and the other off B's, by up to the size of
//! the face. The exact separating-axis fallback (`sat.rs`) knows the axis but not the pair. In
//! both cases the features are listed from the cores' vertices and the overlap is found here:
//! intervals in 2D; in 3D, the features' projections made convex polygons (Andrew's monotone
//! chain) and one clipped by the other (Sutherland and Hodgman, "Reentrant polygon clipping",
//! CACM 1974), or two segments' closest points when neither has area (an edge against an edge).

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::SupportMap;
use smallvec::SmallVec;

/// The vertices of a supporting feature (a face, an edge or a vertex), in one frame.
pub(crate) type Feature<const D: usize> = SmallVec<[Vector<f64, D>; 8]>;

/// A point of the plane orthogonal to the normal, in the coordinates of a basis of that plane.
type P2 = [f64; 2];

/// A convex polygon (or a segment, or a point) in the plane, counter-clockwise.
type Poly = SmallVec<[P2; 8]>;

/// The vertices of `verts` within `tol` of the largest `v·dir`: the supporting feature along
/// `dir`, and that largest value.
pub(crate) fn feature<const D: usize>(
    verts: &[Vector<f64, D>],
    dir: &Vector<f64, D>,
    tol: f64,
) -> (Feature<D>, f64) {
    let top = verts.iter().map(|v| v.dot(dir)).fold(f64::MIN, f64::max);
    (verts.iter().filter(|v| v.dot(dir) >= top - tol).copied().collect(), top)
}

/// A vector orthogonal to the unit `n` whose projection lies in the projections of both `fa`
/// and `fb` onto the plane orthogonal to `n`, the one nearest `hint`'s projection; `None` when
/// the projections are farther than `tol` apart (then `n` is not the axis of least penetration).
pub(crate) fn common_point<const D: usize>(
    fa: &[Vector<f64, D>],
    fb: &[Vector<f64, D>],
    n: &Vector<f64, D>,
    hint: &Vector<f64, D>,
    tol: f64,
) -> Option<Vector<f64, D>> {
    if fa.is_empty() || fb.is_empty() {
        return None;
    }
    let (u, v) = plane_basis(n);
    let to2 = |p: &Vector<f64, D>| [p.dot(&u), p.dot(&v)];
    let q = to2(hint);
    let x = if D == 2 {
        // The plane is a line: the features project to intervals.
        let span = |f: &[Vector<f64, D>]| {
            f.iter()
                .map(|p| p.dot(&u))
                .fold((f64::MAX, f64::MIN), |(lo, hi), t| (lo.min(t), hi.max(t)))
        };
        let ((lo_a, hi_a), (lo_b, hi_b)) = (span(fa), span(fb));
        let (lo, hi) = (lo_a.max(lo_b), hi_a.min(hi_b));
        if lo > hi + tol {
            return None;
        }
        [if lo > hi { 0.5 * (lo + hi) } else { q[0].clamp(lo, hi) }, 0.0]
    } else {
        let pa = hull(fa.iter().map(to2));
        let pb = hull(fb.iter().map(to2));
        overlap_nearest(&pa, &pb, q, tol)?
    };
    Some(u * x[0] + v * x[1])
}

/// An orthonormal basis `(u, v)` of the plane orthogonal to the unit `n` (`v` zero in 2D).
pub(crate) fn plane_basis<N: Scalar, const D: usize>(
    n: &Vector<N, D>,
) -> (Vector<N, D>, Vector<N, D>) {
    let mut u = Vector::<N, D>::zeros();
    let mut v = Vector::<N, D>::zeros();
    if D == 2 {
        (u[0], u[1]) = (-n[1], n[0]);
        return (u, v);
    }
    // The cross product of `n` with the axis it is least aligned with.
    let k = (0..3)
        .min_by(|&i, &j| n[i].abs().partial_cmp(&n[j].abs()).unwrap_or(core::cmp::Ordering::Equal))
        .unwrap_or(0);
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    (u[i], u[j]) = (-n[j], n[i]);
    u /= u.norm();
    (v[0], v[1], v[2]) =
        (n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]);
    (u, v)
}

/// `(b − a) × (c − a)`: positive when `a, b, c` turn counter-clockwise.
fn cross(a: P2, b: P2, c: P2) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The convex hull of `points`, counter-clockwise, without collinear or repeated vertices
/// (Andrew's monotone chain); one point or two for a degenerate set.
fn hull(points: impl Iterator<Item = P2>) -> Poly {
    let mut pts: Poly = points.collect();
    pts.sort_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut out = Poly::new();
    for pass in 0..2 {
        let start = out.len();
        let iter: &mut dyn Iterator<Item = &P2> =
            if pass == 0 { &mut pts.iter() } else { &mut pts.iter().rev() };
        for &p in iter {
            while out.len() >= start + 2 && cross(out[out.len() - 2], out[out.len() - 1], p) <= 0.0
            {
                out.pop();
            }
            out.push(p);
        }
        // The last point of each chain is the first of the next.
        out.pop();
    }
    out
}

/// The point of `a ∩ b` nearest `q`, or `None` when they are farther than `tol` apart.
fn overlap_nearest(a: &Poly, b: &Poly, q: P2, tol: f64) -> Option<P2> {
    let (area, other) = match (a.len() >= 3, b.len() >= 3) {
        (_, true) => (b, a),
        (true, false) => (a, b),
        (false, false) => return segments_meet(a, b, tol),
    };
    // Without slack first, so that the point is inside both; with it when rounding leaves
    // features that only touch without a common point.
    let mut clipped = clip(other, area, 0.0);
    if clipped.is_empty() {
        clipped = clip(other, area, tol);
    }
    (!clipped.is_empty()).then(|| nearest(&clipped, q))
}

/// The part of `subject` (a polygon, a segment or a point) inside the convex polygon `by`,
/// by clipping against each edge's line in turn (Sutherland–Hodgman), with `tol` of slack: a
/// polygon, a segment (two points) or a point, as `subject` was, or nothing.
fn clip(subject: &Poly, by: &Poly, tol: f64) -> Poly {
    let mut out: Poly = subject.clone();
    for i in 0..by.len() {
        let (e0, e1) = (by[i], by[(i + 1) % by.len()]);
        let len = ((e1[0] - e0[0]).powi(2) + (e1[1] - e0[1]).powi(2)).sqrt();
        let side = |p: P2| cross(e0, e1, p) / len + tol;
        let input = core::mem::take(&mut out);
        let cut = |p: P2, r: P2, sp: f64, sr: f64| {
            let t = sp / (sp - sr);
            [p[0] + (r[0] - p[0]) * t, p[1] + (r[1] - p[1]) * t]
        };
        if let [p, r] = input[..] {
            // A segment is clipped as an open chain, its two ends kept or moved onto the line,
            // so that it stays a segment. Taken as a closed polygon, its two edges are the same
            // segment there and back, each crossing is pushed twice, and the result is three or
            // more collinear points: [`nearest`] read them as a polygon, whose inside test (no
            // edge with `q` on its right) every point of their line passes. A triangle's long
            // edge against a box's face (`f32`, a 47 m sliver 8.6e-3 deep in a thin rounded box)
            // kept its hint 0.21 beyond the face's end, and the witness on the box lay off it.
            let (sp, sr) = (side(p), side(r));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sr >= 0.0) {
                out.push(cut(p, r, sp, sr));
            }
            if sr >= 0.0 {
                out.push(r);
            }
        } else {
            for k in 0..input.len() {
                let (p, r) = (input[k], input[(k + 1) % input.len()]);
                let (sp, sr) = (side(p), side(r));
                if sp >= 0.0 {
                    out.push(p);
                }
                if (sp >= 0.0) != (sr >= 0.0) && input.len() > 1 {
                    out.push(cut(p, r, sp, sr));
                }
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// The point of the convex `poly` (a polygon, a segment or a point) nearest `q`.
fn nearest(poly: &Poly, q: P2) -> P2 {
    let n = poly.len();
    if n >= 3 && (0..n).all(|i| cross(poly[i], poly[(i + 1) % n], q) >= 0.0) {
        return q;
    }
    let mut best = (f64::MAX, poly[0]);
    for i in 0..n {
        let p = on_segment(poly[i], poly[(i + 1) % n], q);
        let d = (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2);
        if d < best.0 {
            best = (d, p);
        }
    }
    best.1
}

/// The point of segment `a b` nearest `q`.
fn on_segment(a: P2, b: P2, q: P2) -> P2 {
    let e = [b[0] - a[0], b[1] - a[1]];
    let len2 = e[0] * e[0] + e[1] * e[1];
    let t = if len2 > 0.0 {
        (((q[0] - a[0]) * e[0] + (q[1] - a[1]) * e[1]) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [a[0] + e[0] * t, a[1] + e[1] * t]
}

/// Where two segments (or points) meet: the middle of their closest points when those are
/// within `tol`.
fn segments_meet(a: &Poly, b: &Poly, tol: f64) -> Option<P2> {
    let ends = |p: &Poly| (p[0], p[p.len() - 1]);
    let ((a0, a1), (b0, b1)) = (ends(a), ends(b));
    // Two segments that cross meet where their lines do; otherwise the closest pair has an end
    // point of one of them.
    let (da, db) = (cross(a0, a1, b0), cross(a0, a1, b1));
    let (dc, dd) = (cross(b0, b1, a0), cross(b0, b1, a1));
    if da * db < 0.0 && dc * dd < 0.0 {
        let t = dc / (dc - dd);
        return Some([a0[0] + (a1[0] - a0[0]) * t, a0[1] + (a1[1] - a0[1]) * t]);
    }
    let pairs = [
        (a0, on_segment(b0, b1, a0)),
        (a1, on_segment(b0, b1, a1)),
        (on_segment(a0, a1, b0), b0),
        (on_segment(a0, a1, b1), b1),
    ];
    let dist2 = |(p, q): &(P2, P2)| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2);
    let (p, q) = pairs.iter().min_by(|x, y| dist2(x).total_cmp(&dist2(y)))?;
    (dist2(&(*p, *q)) <= tol * tol).then(|| [0.5 * (p[0] + q[0]), 0.5 * (p[1] + q[1])])
}

/// Calls `f` with each vertex of a shape's core, placed by `rot` (matrix columns) and `t`, in
/// `f64`, when the core has finitely many (a polytope, a segment, a point); `false` otherwise.
fn each_core_vertex<N, const D: usize, S>(
    s: &S,
    rot: &[Vector<f64, D>; D],
    t: &Vector<f64, D>,
    f: &mut dyn FnMut(Vector<f64, D>),
) -> bool
where
    N: Scalar,
    S: SupportMap<N, D> + ?Sized,
{
    let place = |p: Point<N, D>| placed(rot, t, &p);
    if let Some(poly) = s.polytope() {
        (0..poly.vertex_count()).for_each(|i| f(place(poly.vertex(i))));
    } else if let Some(ends) = s.core_segment() {
        ends.into_iter().for_each(|p| f(place(p)));
    } else {
        return false;
    }
    true
}

/// `p` (in a shape's frame) placed by `rot` (matrix columns) and `t`, in `f64`.
fn placed<N: Scalar, const D: usize>(
    rot: &[Vector<f64, D>; D],
    t: &Vector<f64, D>,
    p: &Point<N, D>,
) -> Vector<f64, D> {
    let mut out = *t;
    for (i, c) in rot.iter().enumerate() {
        out += c * p[i].to_f64();
    }
    out
}

/// The supporting feature along `dir` of a shape's core and the largest `v·dir`. A curved core
/// lists it itself ([`SupportMap::curved_core_feature`]); for the others the shape's support
/// point gives the largest, one pass over the vertices ([`each_core_vertex`]) the rest, and
/// only the feature is stored.
fn core_feature<N, const D: usize, S>(
    s: &S,
    rot: &[Vector<f64, D>; D],
    t: &Vector<f64, D>,
    dir: &Vector<f64, D>,
    tol: f64,
) -> Option<(Feature<D>, f64)>
where
    N: Scalar,
    S: SupportMap<N, D> + ?Sized,
{
    // The direction in the shape's frame: the transposed rotation (a rotation's inverse).
    let local = Vector::<N, D>::from_fn(|i, _| N::lit(rot[i].dot(dir)));
    let mut on = Feature::new();
    if s.curved_core_feature(&local, N::lit(tol), &mut |p| on.push(placed(rot, t, &p))) {
        let top = on.iter().map(|v| v.dot(dir)).fold(f64::MIN, f64::max);
        return Some((on, top));
    }
    let p = s.local_core_support(&local);
    let mut top = placed(rot, t, &p).dot(dir);
    let finite = each_core_vertex(s, rot, t, &mut |v| {
        let h = v.dot(dir);
        if h >= top - tol {
            on.push(v);
            // Rounding in `N` can pick a support point a hair below the largest.
            top = top.max(h);
        }
    });
    finite.then_some((on, top))
}

/// Witnesses on both cores for a penetration of `a` and `b` (B placed by `pos_ab` in A's frame)
/// along the unit `normal` with core separation `sep`, nearest the first guess `hint` (on A):
/// `(point_a, point_b)` on the cores, in A's frame. `None` when a core has no vertex list
/// (a curved core) or the features do not overlap along `normal`.
pub(crate) fn on_features<N, const D: usize, P, A, B>(
    a: &A,
    b: &B,
    pos_ab: &P,
    normal: &Vector<N, D>,
    sep: N,
    hint: &Point<N, D>,
    tol: N,
) -> Option<(Point<N, D>, Point<N, D>)>
where
    N: Scalar,
    P: Pose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let identity: [Vector<f64, D>; D] = core::array::from_fn(|i| {
        let mut c = Vector::<f64, D>::zeros();
        c[i] = 1.0;
        c
    });
    let n = normal.map(|x| x.to_f64());
    let tol = tol.to_f64();
    let (fa, top_a) = core_feature(a, &identity, &Vector::zeros(), &n, tol)?;
    let (rot_b, t_b) = (pos_ab.rotation_columns_f64(), pos_ab.translation().map(|x| x.to_f64()));
    let (fb, _) = core_feature(b, &rot_b, &t_b, &-n, tol)?;
    let x = common_point(&fa, &fb, &n, &hint.coords.map(|x| x.to_f64()), tol)?;
    let pa = x + n * top_a;
    let pb = pa + n * sep.to_f64();
    Some((Point::from(pa.map(N::lit)), Point::from(pb.map(N::lit))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment that crosses a square's side, with a hint on the segment's line beyond the
    /// square: the common point is where the segment leaves the square, not the hint.
    #[test]
    fn a_clipped_segment_keeps_its_hint_inside_the_overlap() {
        let square: Poly =
            [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]].into_iter().collect();
        let segment: Poly = [[0.0, -3.0], [0.0, 3.0]].into_iter().collect();
        let clipped = clip(&segment, &square, 0.0);
        assert_eq!(clipped.len(), 2, "{clipped:?}");
        let p = overlap_nearest(&segment, &square, [0.0, -2.5], 0.0).unwrap();
        assert_eq!(p, [0.0, -1.0]);
        let p = overlap_nearest(&square, &segment, [0.0, 2.0], 0.0).unwrap();
        assert_eq!(p, [0.0, 1.0]);
    }
}
