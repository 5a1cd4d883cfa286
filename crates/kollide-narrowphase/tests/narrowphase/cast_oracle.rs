//! The casts against answers computed another way, on seeded cases by the thousand: `ray_cast` on
//! every shape kind, `shape_cast` of balls and of polytopes, and `directional_penetration`, in 2D
//! and 3D, `f32` and `f64`, at sizes from 1e-2 to 1e2, size ratios up to 1e4:1, near and far from
//! the origin.
//!
//! **Oracles.** Each shape is also described in `f64` ([`Geo`]), from the very values the kollide
//! shape was built from (rounded to the scalar under test), so the oracle sees the same shape.
//! * Rays: closed forms: a quadratic for balls, the union of two balls and a finite cylinder for
//!   capsules, slabs over the face planes for boxes, polygons and polyhedra (the planes found by
//!   brute force over the points, not by kollide's hull), a quadratic and a slab for cylinders,
//!   the quadratic of the double cone cut by the base slab for cones, and plane crossings for
//!   triangles and segments. Every shape also has a convex *gauge* (a signed function that is
//!   negative exactly inside and never exceeds the distance outside); its minimum along the ray,
//!   found by golden-section search, says how clearly a ray hits or misses, and a root of it is a
//!   second, numeric entry time that the closed forms are checked against.
//! * Ball–ball casts: the quadratic `|Δc + t·v| = r_a + r_b`.
//! * Polytope casts and directional penetration: an exact SAT sweep. For every candidate axis the
//!   projected motion gives the interval of times at which the projections overlap; the shapes
//!   touch from the largest entry to the smallest exit. The axes are the normals of all pairs of
//!   point differences (2D) and the cross products of all pairs of point differences (3D), a
//!   superset of the face normals and edge–edge axes, which is harmless: any axis gives a
//!   necessary condition, and the complete set is among them.
//!
//! **What is checked.** A ray or cast that clearly hits (the gauge goes below `−band`) must hit;
//! one that clearly misses (the gauge stays above `band`) must miss; in between, either answer is
//! right but a hit must lie on the surface. A hit must have the oracle's time (within the band,
//! measured along the motion), a hit point or witness points on the surfaces, and a normal whose
//! plane supports the shapes at the hit (for casts: from A to B, `max_A n·a = min_B n·b`).
//! Never a NaN, never a panic. Every test counts the outcomes it checked and asserts that each
//! kind of case ran.

use kollide_math::{Iso2, Iso3, Point2, Point3, Scalar, Vec2, Vec3};
use kollide_narrowphase::{
    CastHit, QuerySettings, Ray, Status, directional_penetration, ray_cast, shape_cast,
};
use kollide_shapes::{
    Ball, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder, Rounded, SMALL_HULL,
    Segment, SupportMap, Triangle,
};
use nalgebra::{Matrix3, Quaternion, Translation2, Translation3, UnitComplex, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type V = nalgebra::Vector3<f64>;

// ---------------------------------------------------------------------------------------------
// The f64 description of a shape in the world.

/// A rigid placement in `f64`: `p ↦ m·p + t`, read from the pose kollide uses (its rotation may
/// be a few ulps off unit in `f32`, as kollide sees it).
#[derive(Clone, Copy, Debug)]
struct Xf {
    m: Matrix3<f64>,
    t: V,
}

impl Xf {
    fn apply(&self, p: &V) -> V {
        self.m * p + self.t
    }
    fn local(&self, p: &V) -> V {
        self.m.transpose() * (p - self.t)
    }
    fn local_dir(&self, d: &V) -> V {
        self.m.transpose() * d
    }
}

/// A shape in the world, in `f64`. 2D shapes lie in the plane `z = 0`.
#[derive(Clone, Debug)]
enum Geo {
    Ball {
        c: V,
        r: f64,
    },
    Capsule {
        a: V,
        b: V,
        r: f64,
    },
    /// A solid polytope: `n·p ≤ off` for every plane, and its points.
    Planes {
        planes: Vec<(V, f64)>,
        pts: Vec<V>,
    },
    Cylinder {
        xf: Xf,
        h: f64,
        r: f64,
    },
    Cone {
        xf: Xf,
        h: f64,
        r: f64,
    },
    /// A box of half extents `h` (`h.z = 0` in 2D) grown by `r`.
    RoundBox {
        xf: Xf,
        h: V,
        r: f64,
    },
    /// A flat 3D triangle.
    Triangle {
        a: V,
        b: V,
        c: V,
    },
    Segment {
        a: V,
        b: V,
    },
}

fn dist_segment(p: &V, a: &V, b: &V) -> f64 {
    let ab = b - a;
    let s = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
    (p - (a + ab * s)).norm()
}

/// The closest point of a triangle to `p`, by the Voronoi regions of its vertices and edges.
fn closest_on_triangle(p: &V, a: &V, b: &V, c: &V) -> V {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let k = 1.0 / (va + vb + vc);
    a + ab * (vb * k) + ac * (vc * k)
}

impl Geo {
    /// A convex function, negative exactly inside, never above the distance outside (exactly the
    /// distance for balls, capsules, rounded boxes, triangles and segments).
    fn gauge(&self, p: &V) -> f64 {
        match self {
            Geo::Ball { c, r } => (p - c).norm() - r,
            Geo::Capsule { a, b, r } => dist_segment(p, a, b) - r,
            Geo::Planes { planes, .. } => {
                planes.iter().map(|(n, off)| n.dot(p) - off).fold(f64::MIN, f64::max)
            }
            Geo::Cylinder { xf, h, r } => {
                let q = xf.local(p);
                (q.y.abs() - h).max(q.x.hypot(q.z) - r)
            }
            Geo::Cone { xf, h, r } => {
                let q = xf.local(p);
                let big_h = 2.0 * h;
                let side = (big_h * q.x.hypot(q.z) + r * q.y - r * h) / big_h.hypot(*r);
                (-q.y - h).max(side)
            }
            Geo::RoundBox { xf, h, r } => {
                let q = xf.local(p);
                let e = q.abs() - h;
                let outside = e.map(|x| x.max(0.0)).norm();
                outside + e.max().min(0.0) - r
            }
            Geo::Triangle { a, b, c } => (p - closest_on_triangle(p, a, b, c)).norm(),
            Geo::Segment { a, b } => dist_segment(p, a, b),
        }
    }

    /// `max n·p` over the shape.
    fn support(&self, n: &V) -> f64 {
        match self {
            Geo::Ball { c, r } => c.dot(n) + r * n.norm(),
            Geo::Capsule { a, b, r } => a.dot(n).max(b.dot(n)) + r * n.norm(),
            Geo::Planes { pts, .. } => pts.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max),
            Geo::Cylinder { xf, h, r } => {
                let l = xf.local_dir(n);
                xf.t.dot(n) + h * l.y.abs() + r * l.x.hypot(l.z)
            }
            Geo::Cone { xf, h, r } => {
                let l = xf.local_dir(n);
                xf.t.dot(n) + (h * l.y).max(-h * l.y + r * l.x.hypot(l.z))
            }
            Geo::RoundBox { xf, h, r } => {
                let l = xf.local_dir(n);
                xf.t.dot(n) + h.dot(&l.abs()) + r * n.norm()
            }
            Geo::Triangle { a, b, c } => a.dot(n).max(b.dot(n)).max(c.dot(n)),
            Geo::Segment { a, b } => a.dot(n).max(b.dot(n)),
        }
    }

    fn is_flat(&self) -> bool {
        matches!(self, Geo::Triangle { .. } | Geo::Segment { .. })
    }

    /// The closed-form interval of `t` (over all reals) with `o + t·d` in the shape, or `None`
    /// when the line misses. `None` for shapes without one here (rounded boxes, flat shapes).
    fn line_interval(&self, o: &V, d: &V) -> Option<Option<(f64, f64)>> {
        Some(match self {
            Geo::Ball { c, r } => ball_interval(o, d, c, *r),
            Geo::Capsule { a, b, r } => {
                let pieces = [
                    ball_interval(o, d, a, *r),
                    ball_interval(o, d, b, *r),
                    finite_cylinder_interval(o, d, a, b, *r),
                ];
                pieces.iter().flatten().fold(None, |acc: Option<(f64, f64)>, p| {
                    Some(acc.map_or(*p, |a| (a.0.min(p.0), a.1.max(p.1))))
                })
            }
            Geo::Planes { planes, .. } => {
                let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
                for (n, off) in planes {
                    let (num, den) = (off - n.dot(o), n.dot(d));
                    if den == 0.0 {
                        if num < 0.0 {
                            return Some(None);
                        }
                    } else if den < 0.0 {
                        lo = lo.max(num / den);
                    } else {
                        hi = hi.min(num / den);
                    }
                }
                (lo <= hi).then_some((lo, hi))
            }
            Geo::Cylinder { xf, h, r } => {
                let (q, e) = (xf.local(o), xf.local_dir(d));
                let Some(slab) = slab_interval(q.y, e.y, *h) else { return Some(None) };
                let (qa, qb) = (e.x * e.x + e.z * e.z, q.x * e.x + q.z * e.z);
                let side = quadratic_le0(qa, 2.0 * qb, q.x * q.x + q.z * q.z - r * r);
                intersect(side, Some(slab))
            }
            Geo::Cone { xf, h, r } => {
                let (q, e) = (xf.local(o), xf.local_dir(d));
                let Some(slab) = slab_interval(q.y, e.y, *h) else { return Some(None) };
                // H²ρ² − r²(h − y)² ≤ 0 with y ≤ h is the solid cone; within the slab only the
                // lower nappe counts, so each piece of the double cone is cut by the slab.
                let hh = 4.0 * h * h;
                let (u0, u1) = (h - q.y, -e.y);
                let qa = hh * (e.x * e.x + e.z * e.z) - r * r * u1 * u1;
                let qb = 2.0 * (hh * (q.x * e.x + q.z * e.z) - r * r * u0 * u1);
                let qc = hh * (q.x * q.x + q.z * q.z) - r * r * u0 * u0;
                double_cone_in_slab(qa, qb, qc, slab)
            }
            _ => return None,
        })
    }
}

fn intersect(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let (a, b) = (a?, b?);
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo <= hi).then_some((lo, hi))
}

/// `{t : |q + t·e| ≤ h}` on one axis.
fn slab_interval(q: f64, e: f64, h: f64) -> Option<(f64, f64)> {
    if e == 0.0 {
        return (q.abs() <= h).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let (t0, t1) = ((-h - q) / e, (h - q) / e);
    Some((t0.min(t1), t0.max(t1)))
}

/// `{t : a t² + b t + c ≤ 0}` for `a ≥ 0`.
fn quadratic_le0(a: f64, b: f64, c: f64) -> Option<(f64, f64)> {
    if a == 0.0 {
        return if b == 0.0 {
            (c <= 0.0).then_some((f64::NEG_INFINITY, f64::INFINITY))
        } else if b > 0.0 {
            Some((f64::NEG_INFINITY, -c / b))
        } else {
            Some((-c / b, f64::INFINITY))
        };
    }
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    // The stable pair of roots.
    let s = disc.sqrt();
    let qq = -0.5 * (b + b.signum() * s);
    let (r0, r1) = if qq == 0.0 { (0.0, 0.0) } else { (qq / a, c / qq) };
    Some((r0.min(r1), r0.max(r1)))
}

fn double_cone_in_slab(a: f64, b: f64, c: f64, slab: (f64, f64)) -> Option<(f64, f64)> {
    if a >= 0.0 {
        return intersect(quadratic_le0(a, b, c), Some(slab));
    }
    // a < 0: the set is outside the roots (or everything when there are none).
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return Some(slab);
    }
    let s = disc.sqrt();
    let (r0, r1) = ((-b + s) / (2.0 * a), (-b - s) / (2.0 * a));
    let (lo, hi) = (r0.min(r1), r0.max(r1));
    let left = intersect(Some((f64::NEG_INFINITY, lo)), Some(slab));
    let right = intersect(Some((hi, f64::INFINITY)), Some(slab));
    match (left, right) {
        (Some(l), Some(r)) => Some((l.0, r.1)),
        (l, r) => l.or(r),
    }
}

fn ball_interval(o: &V, d: &V, c: &V, r: f64) -> Option<(f64, f64)> {
    let oc = o - c;
    quadratic_le0(d.norm_squared(), 2.0 * oc.dot(d), oc.norm_squared() - r * r)
}

/// The finite cylinder of radius `r` around the segment `a b` (without its end balls).
fn finite_cylinder_interval(o: &V, d: &V, a: &V, b: &V, r: f64) -> Option<(f64, f64)> {
    let len = (b - a).norm();
    let u = (b - a) / len;
    let (q, e) = (o - a, *d);
    let along = slab_interval(q.dot(&u) - 0.5 * len, e.dot(&u), 0.5 * len)?;
    let (qp, ep) = (q - u * q.dot(&u), e - u * e.dot(&u));
    let side = quadratic_le0(ep.norm_squared(), 2.0 * qp.dot(&ep), qp.norm_squared() - r * r);
    intersect(side, Some(along))
}

/// Golden-section minimum of a convex function on `[lo, hi]`: `(argmin, min)`.
fn convex_min(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    const G: f64 = 0.618_033_988_749_894_9;
    let (mut x1, mut x2) = (hi - G * (hi - lo), lo + G * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..120 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - G * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + G * (hi - lo);
            f2 = f(x2);
        }
    }
    let best = [(lo, f(lo)), (x1, f1), (x2, f2), (hi, f(hi))];
    best.into_iter().fold((lo, f64::INFINITY), |b, c| if c.1 < b.1 { c } else { b })
}

/// The first `t` in `[lo, hi]` with `f(t) ≤ 0`, for `f` decreasing there with `f(hi) ≤ 0`.
fn first_root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    if f(lo) <= 0.0 {
        return lo;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) <= 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

// ---------------------------------------------------------------------------------------------
// Scalars, poses and random draws.

fn v3<N: Scalar>(v: &Vec3<N>) -> V {
    v.map(|x| x.to_f64())
}

fn v2<N: Scalar>(v: &Vec2<N>) -> V {
    V::new(v.x.to_f64(), v.y.to_f64(), 0.0)
}

fn n3<N: Scalar>(v: &V) -> Vec3<N> {
    Vec3::new(N::lit(v.x), N::lit(v.y), N::lit(v.z))
}

fn n2<N: Scalar>(v: &V) -> Vec2<N> {
    Vec2::new(N::lit(v.x), N::lit(v.y))
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn log_uniform(rng: &mut ChaCha8Rng, lo: f64, hi: f64) -> f64 {
    (rng.random_range(lo.ln()..hi.ln())).exp()
}

fn unit(rng: &mut ChaCha8Rng, dim: usize) -> V {
    loop {
        let mut v = V::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), 0.0);
        if dim == 3 {
            v.z = rng.random_range(-1.0..1.0);
        }
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

fn in_ball(rng: &mut ChaCha8Rng, dim: usize) -> V {
    unit(rng, dim) * rng.random_range(0.0f64..1.0).powf(1.0 / dim as f64)
}

/// A placement near the origin (within a few sizes) or far from it (10 to 1000 sizes away).
fn center(rng: &mut ChaCha8Rng, dim: usize, size: f64) -> V {
    let far = rng.random_bool(0.3);
    let dist = if far { size * log_uniform(rng, 10.0, 1000.0) } else { size * 2.0 };
    in_ball(rng, dim) * dist
}

fn pose3<N: Scalar>(rng: &mut ChaCha8Rng, c: &V) -> (Iso3<N>, Xf) {
    let axis = unit(rng, 3) * rng.random_range(0.0..std::f64::consts::PI);
    let q = UnitQuaternion::from_scaled_axis(axis).into_inner();
    let qn = Quaternion::new(N::lit(q.w), N::lit(q.i), N::lit(q.j), N::lit(q.k));
    let pose = Iso3::from_parts(
        Translation3::new(N::lit(c.x), N::lit(c.y), N::lit(c.z)),
        UnitQuaternion::new_unchecked(qn),
    );
    let qf = Quaternion::new(qn.w.to_f64(), qn.i.to_f64(), qn.j.to_f64(), qn.k.to_f64());
    let m = UnitQuaternion::new_unchecked(qf).to_rotation_matrix().into_inner();
    (pose, Xf { m, t: v3(&pose.translation.vector) })
}

fn pose2<N: Scalar>(rng: &mut ChaCha8Rng, c: &V) -> (Iso2<N>, Xf) {
    let a: f64 = rng.random_range(-3.2..3.2);
    let (re, im) = (N::lit(a.cos()), N::lit(a.sin()));
    let pose = Iso2::from_parts(
        Translation2::new(N::lit(c.x), N::lit(c.y)),
        UnitComplex::new_unchecked(nalgebra::Complex::new(re, im)),
    );
    let (re, im) = (re.to_f64(), im.to_f64());
    let m = Matrix3::new(re, -im, 0.0, im, re, 0.0, 0.0, 0.0, 1.0);
    (pose, Xf { m, t: v2(&pose.translation.vector) })
}

/// Rounds `x` to the scalar under test, as an `f64`.
fn iso3_at<N: Scalar>(c: &V) -> Iso3<N> {
    Iso3::from_parts(Translation3::from(n3::<N>(c)), UnitQuaternion::identity())
}

fn iso2_at<N: Scalar>(c: &V) -> Iso2<N> {
    Iso2::from_parts(Translation2::from(n2::<N>(c)), UnitComplex::identity())
}

fn rd<N: Scalar>(x: f64) -> f64 {
    N::lit(x).to_f64()
}

/// The face planes of the convex hull of `pts` (3D, or 2D in `z = 0` when `dim == 2`), by brute
/// force: a plane through three (two) points is a face when no point is beyond it.
fn hull_planes(pts: &[V], dim: usize) -> Vec<(V, f64)> {
    // Tolerances from the points' spread and their distance from the origin (rounding).
    let mid = pts.iter().sum::<V>() / pts.len() as f64;
    let scale = pts.iter().map(|p| (p - mid).norm()).fold(0.0, f64::max).max(1e-300);
    let slack = 1e-9 * scale + 1e-13 * mid.norm();
    let mut planes = Vec::new();
    let n = pts.len();
    let mut test = |nrm: V| {
        let len = nrm.norm();
        if len < 1e-14 * scale * scale {
            return;
        }
        let nrm = nrm / len;
        let off = pts.iter().map(|p| p.dot(&nrm)).fold(f64::MIN, f64::max);
        let on = pts.iter().filter(|p| p.dot(&nrm) >= off - slack).count();
        if on >= dim {
            planes.push((nrm, off));
        }
    };
    for i in 0..n {
        for j in i + 1..n {
            if dim == 2 {
                let e = pts[j] - pts[i];
                test(V::new(e.y, -e.x, 0.0));
                test(V::new(-e.y, e.x, 0.0));
            } else {
                for k in j + 1..n {
                    let c = (pts[j] - pts[i]).cross(&(pts[k] - pts[i]));
                    test(c);
                    test(-c);
                }
            }
        }
    }
    planes
}

// ---------------------------------------------------------------------------------------------
// One type for every shape kind under test, delegating every method of `SupportMap` (the
// shapes' own fast paths included) to the shape.

macro_rules! any_shape {
    ($name:ident, $d:literal, [$($v:ident($t:ty)),*]) => {
        // A test's shapes, one at a time: the size of the largest variant costs nothing.
        #[allow(clippy::large_enum_variant)]
        enum $name<N: Scalar> {
            $($v($t),)*
        }
        $(impl<N: Scalar> From<$t> for $name<N> {
            fn from(s: $t) -> Self {
                Self::$v(s)
            }
        })*
        impl<N: Scalar> SupportMap<N, $d> for $name<N> {
            fn local_core_support(&self, dir: &nalgebra::SVector<N, $d>) -> nalgebra::Point<N, $d> {
                match self { $(Self::$v(s) => s.local_core_support(dir),)* }
            }
            fn radius(&self) -> N {
                match self { $(Self::$v(s) => SupportMap::<N, $d>::radius(s),)* }
            }
            fn bounding_radius(&self) -> N {
                match self { $(Self::$v(s) => s.bounding_radius(),)* }
            }
            fn core_is_point(&self) -> bool {
                match self { $(Self::$v(s) => s.core_is_point(),)* }
            }
            fn small_hull(&self) -> Option<&[nalgebra::Point<N, $d>; SMALL_HULL]> {
                match self { $(Self::$v(s) => s.small_hull(),)* }
            }
            fn local_core_support_hinted(
                &self,
                dir: &nalgebra::SVector<N, $d>,
                hint: &mut u32,
            ) -> nalgebra::Point<N, $d> {
                match self { $(Self::$v(s) => s.local_core_support_hinted(dir, hint),)* }
            }
            fn core_segment(&self) -> Option<[nalgebra::Point<N, $d>; 2]> {
                match self { $(Self::$v(s) => s.core_segment(),)* }
            }
            fn local_core_ray(
                &self,
                origin: &nalgebra::SVector<N, $d>,
                dir: &nalgebra::SVector<N, $d>,
                max_t: N,
            ) -> Option<kollide_shapes::CoreRay<N, $d>> {
                match self { $(Self::$v(s) => s.local_core_ray(origin, dir, max_t),)* }
            }
        }
    };
}

any_shape!(Any3, 3, [
    Ball(Ball<N, 3>),
    Capsule(Capsule<N, 3>),
    Cuboid(Cuboid<N, 3>),
    Cylinder(Cylinder<N>),
    Cone(Cone<N>),
    Hull(ConvexPolyhedron<N>),
    Triangle(Triangle<N, 3>),
    Segment(Segment<N, 3>),
    Round(Rounded<Cuboid<N, 3>, N>)
]);
any_shape!(Any2, 2, [
    Ball(Ball<N, 2>),
    Capsule(Capsule<N, 2>),
    Cuboid(Cuboid<N, 2>),
    Polygon(ConvexPolygon<N>),
    Triangle(Triangle<N, 2>),
    Segment(Segment<N, 2>),
    Round(Rounded<Cuboid<N, 2>, N>)
]);

// ---------------------------------------------------------------------------------------------
// Shapes: the kollide shape and its f64 description, drawn at random.

/// A 3D shape of one kind, of size about `size` (`kind` 0..9: ball, capsule, box, cylinder, cone,
/// hull, triangle, segment, rounded box).
fn shape3<N: Scalar>(
    rng: &mut ChaCha8Rng,
    kind: usize,
    size: f64,
    c: &V,
) -> (Any3<N>, Iso3<N>, Geo) {
    let (pose, xf) = pose3::<N>(rng, c);
    let len = |rng: &mut ChaCha8Rng| {
        rd::<N>((size * rng.random_range(0.05..1.0)).max(N::MIN_SIZE.to_f64()))
    };
    let local_pts = |rng: &mut ChaCha8Rng, k: usize| -> Vec<V> {
        (0..k).map(|_| (in_ball(rng, 3) * size).map(rd::<N>)).collect()
    };
    let world = |p: &V| xf.apply(p);
    match kind {
        0 => {
            let r = len(rng);
            let s = Ball::<N, 3>::new(N::lit(r)).unwrap();
            (Any3::from(s), pose, Geo::Ball { c: xf.t, r })
        }
        1 => {
            let (h, r) = (len(rng), len(rng));
            let (a, b) = (V::new(0.0, -h, 0.0), V::new(0.0, h, 0.0));
            let s = Capsule::new(Point3::from(n3::<N>(&a)), Point3::from(n3::<N>(&b)), N::lit(r))
                .unwrap();
            (Any3::from(s), pose, Geo::Capsule { a: world(&a), b: world(&b), r })
        }
        2 => {
            let h = V::new(len(rng), len(rng), len(rng));
            let s = Cuboid::new(n3::<N>(&h)).unwrap();
            let pts: Vec<V> = (0..8)
                .map(|i| {
                    let sg = |b: usize| if i & b == 0 { -1.0 } else { 1.0 };
                    world(&V::new(sg(1) * h.x, sg(2) * h.y, sg(4) * h.z))
                })
                .collect();
            (Any3::from(s), pose, Geo::Planes { planes: hull_planes(&pts, 3), pts })
        }
        3 => {
            let (h, r) = (len(rng), len(rng));
            let s = Cylinder::new(N::lit(h), N::lit(r)).unwrap();
            (Any3::from(s), pose, Geo::Cylinder { xf, h, r })
        }
        4 => {
            let (h, r) = (len(rng), len(rng));
            let s = Cone::new(N::lit(h), N::lit(r)).unwrap();
            (Any3::from(s), pose, Geo::Cone { xf, h, r })
        }
        5 => loop {
            let k = rng.random_range(4..=10);
            let pts = local_pts(rng, k);
            let np: Vec<Point3<N>> = pts.iter().map(|p| Point3::from(n3::<N>(p))).collect();
            let Ok(s) = ConvexPolyhedron::from_points(&np) else { continue };
            let wp: Vec<V> = pts.iter().map(world).collect();
            let planes = hull_planes(&wp, 3);
            if planes.len() < 4 {
                continue;
            }
            break (Any3::from(s), pose, Geo::Planes { planes, pts: wp });
        },
        6 => loop {
            let p = local_pts(rng, 3);
            let np = p.iter().map(|q| Point3::from(n3::<N>(q))).collect::<Vec<_>>();
            let Ok(s) = Triangle::new(np[0], np[1], np[2]) else { continue };
            if (p[1] - p[0]).cross(&(p[2] - p[0])).norm() < 0.05 * size * size {
                continue;
            }
            let (a, b, c) = (world(&p[0]), world(&p[1]), world(&p[2]));
            break (Any3::from(s), pose, Geo::Triangle { a, b, c });
        },
        7 => loop {
            let p = local_pts(rng, 2);
            if (p[1] - p[0]).norm() < 0.1 * size {
                continue;
            }
            let s =
                Segment::new(Point3::from(n3::<N>(&p[0])), Point3::from(n3::<N>(&p[1]))).unwrap();
            break (Any3::from(s), pose, Geo::Segment { a: world(&p[0]), b: world(&p[1]) });
        },
        _ => {
            let h = V::new(len(rng), len(rng), len(rng));
            let r = rd::<N>((len(rng) * 0.5).max(N::MIN_SIZE.to_f64()));
            let s = Rounded::new(Cuboid::new(n3::<N>(&h)).unwrap(), N::lit(r)).unwrap();
            (Any3::from(s), pose, Geo::RoundBox { xf, h, r })
        }
    }
}

/// A 2D shape of one kind (`kind` 0..7: circle, capsule, box, polygon, triangle, segment,
/// rounded box).
fn shape2<N: Scalar>(
    rng: &mut ChaCha8Rng,
    kind: usize,
    size: f64,
    c: &V,
) -> (Any2<N>, Iso2<N>, Geo) {
    let (pose, xf) = pose2::<N>(rng, c);
    let len = |rng: &mut ChaCha8Rng| {
        rd::<N>((size * rng.random_range(0.05..1.0)).max(N::MIN_SIZE.to_f64()))
    };
    let local_pts = |rng: &mut ChaCha8Rng, k: usize| -> Vec<V> {
        (0..k).map(|_| (in_ball(rng, 2) * size).map(rd::<N>)).collect()
    };
    let world = |p: &V| xf.apply(p);
    let p2 = |p: &V| Point2::from(n2::<N>(p));
    match kind {
        0 => {
            let r = len(rng);
            (Any2::from(Ball::<N, 2>::new(N::lit(r)).unwrap()), pose, Geo::Ball { c: xf.t, r })
        }
        1 => {
            let (h, r) = (len(rng), len(rng));
            let (a, b) = (V::new(-h, 0.0, 0.0), V::new(h, 0.0, 0.0));
            let s = Capsule::new(p2(&a), p2(&b), N::lit(r)).unwrap();
            (Any2::from(s), pose, Geo::Capsule { a: world(&a), b: world(&b), r })
        }
        2 => {
            let h = V::new(len(rng), len(rng), 0.0);
            let s = Cuboid::new(n2::<N>(&h)).unwrap();
            let pts: Vec<V> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|(x, y)| world(&V::new(x * h.x, y * h.y, 0.0)))
                .collect();
            (Any2::from(s), pose, Geo::Planes { planes: hull_planes(&pts, 2), pts })
        }
        3 | 4 => loop {
            let k = if kind == 4 { 3 } else { rng.random_range(3..=9) };
            let pts = local_pts(rng, k);
            let np: Vec<Point2<N>> = pts.iter().map(p2).collect();
            let wp: Vec<V> = pts.iter().map(world).collect();
            let planes = hull_planes(&wp, 2);
            if planes.len() < 3 {
                continue;
            }
            let area = (pts[1] - pts[0]).cross(&(pts[2] - pts[0])).z;
            if kind == 4 {
                if area.abs() < 0.05 * size * size {
                    continue;
                }
                let Ok(s) = Triangle::new_any_winding(np[0], np[1], np[2]) else { continue };
                break (Any2::from(s), pose, Geo::Planes { planes, pts: wp });
            }
            let Ok(s) = ConvexPolygon::from_hull(&np) else { continue };
            break (Any2::from(s), pose, Geo::Planes { planes, pts: wp });
        },
        5 => loop {
            let p = local_pts(rng, 2);
            if (p[1] - p[0]).norm() < 0.1 * size {
                continue;
            }
            let s = Segment::new(p2(&p[0]), p2(&p[1])).unwrap();
            break (Any2::from(s), pose, Geo::Segment { a: world(&p[0]), b: world(&p[1]) });
        },
        _ => {
            let h = V::new(len(rng), len(rng), 0.0);
            let r = rd::<N>((len(rng) * 0.5).max(N::MIN_SIZE.to_f64()));
            let s = Rounded::new(Cuboid::new(n2::<N>(&h)).unwrap(), N::lit(r)).unwrap();
            (Any2::from(s), pose, Geo::RoundBox { xf, h, r })
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rays.

/// What the oracle says about a ray.
struct RayTruth {
    /// The entry time when the ray clearly hits.
    must_hit: Option<f64>,
    /// The ray clearly misses.
    must_miss: bool,
}

/// Outcome counters; every test asserts that each kind of case ran.
#[derive(Default, Debug)]
struct Tally {
    hits: usize,
    misses: usize,
    between: usize,
    inside: usize,
    zero_dir: usize,
    normals: usize,
    closed_forms: usize,
    /// Hits whose status is not `Converged` (checked like the others).
    unconverged: usize,
}

/// The tolerance band of a query, as a distance: kollide's length tolerance (relative to the
/// shapes' size) plus the rounding of the scalar at the coordinates involved.
fn band<N: Scalar>(size: f64, coords: f64) -> f64 {
    let eps = N::EPSILON.to_f64();
    // kollide reports a hit as converged within its length tolerance of the surface.
    let length = eps.sqrt() * 0.1 * size.max(1.0);
    2.0 * length + 256.0 * eps * (coords + size)
}

/// A distance `band` from a surface of normal `n`, measured along the motion `d`.
fn along(band: f64, n: &V, d: &V) -> f64 {
    let cos = if *n == V::zeros() { 1.0 } else { n.dot(d).abs() / d.norm() };
    4.0 * band / cos.max(0.02)
}

fn ray_truth(geo: &Geo, o: &V, d: &V, max_t: f64, band: f64, tally: &mut Tally) -> RayTruth {
    let g = |t: f64| geo.gauge(&(o + d * t));
    let (tmin, gmin) = convex_min(g, 0.0, max_t);
    if geo.is_flat() {
        return flat_ray_truth(geo, o, d, max_t, band, gmin);
    }
    if gmin > band {
        return RayTruth { must_hit: None, must_miss: true };
    }
    if gmin >= -band {
        return RayTruth { must_hit: None, must_miss: false };
    }
    let numeric = first_root(g, 0.0, tmin);
    let t = match geo.line_interval(o, d) {
        Some(iv) => {
            let (lo, _) = iv.expect("the gauge says the line enters the shape");
            let closed = lo.max(0.0);
            let scale = d.norm() * (1.0 + closed);
            assert!(
                (closed - numeric).abs() * d.norm() <= 1e-7 * scale + band,
                "the two oracles disagree: {closed} vs {numeric} on {geo:?}"
            );
            tally.closed_forms += 1;
            closed
        }
        None => numeric,
    };
    RayTruth { must_hit: Some(t), must_miss: false }
}

/// Rays against triangles and segments: they hit through a crossing point, which must lie clearly
/// inside to require a hit. In 3D a ray meets a segment only by accident: no hit is required.
fn flat_ray_truth(geo: &Geo, o: &V, d: &V, max_t: f64, band: f64, gmin: f64) -> RayTruth {
    if gmin > band {
        return RayTruth { must_hit: None, must_miss: true };
    }
    let none = RayTruth { must_hit: None, must_miss: false };
    let (t, inside_margin) = match geo {
        Geo::Triangle { a, b, c } => {
            let n = (b - a).cross(&(c - a)).normalize();
            let den = n.dot(d);
            if den.abs() < 0.05 * d.norm() {
                return none;
            }
            let t = n.dot(&(a - o)) / den;
            let x = o + d * t;
            let edge = |p: &V, q: &V| {
                let e = (q - p).normalize();
                n.cross(&e).dot(&(x - p))
            };
            (t, edge(a, b).min(edge(b, c)).min(edge(c, a)))
        }
        Geo::Segment { a, b } if d.z == 0.0 && a.z == 0.0 && b.z == 0.0 && o.z == 0.0 => {
            let e = b - a;
            let den = d.x * e.y - d.y * e.x;
            if den.abs() < 0.05 * d.norm() * e.norm() {
                return none;
            }
            let w = a - o;
            let t = (w.x * e.y - w.y * e.x) / den;
            let s = (w.x * d.y - w.y * d.x) / den;
            (t, (s.min(1.0 - s)) * e.norm())
        }
        _ => return none,
    };
    let margin = 8.0 * band;
    let clear_t = t * d.norm() > margin && (max_t - t) * d.norm() > margin;
    if inside_margin > margin && clear_t {
        RayTruth { must_hit: Some(t), must_miss: false }
    } else {
        none
    }
}

/// Checks one ray-cast answer against the oracle.
fn check_ray(
    geo: &Geo,
    o: &V,
    d: &V,
    max_t: f64,
    got: Option<(f64, V, V, Status)>,
    band: f64,
    tally: &mut Tally,
) {
    let truth = ray_truth(geo, o, d, max_t, band, tally);
    let ctx = || format!("{geo:?}\n o {o:?} d {d:?} max_t {max_t} band {band:e}: got {got:?}");
    let Some((t, n, x, status)) = got else {
        assert!(truth.must_hit.is_none(), "silent miss, entry at {:?}: {}", truth.must_hit, ctx());
        if truth.must_miss {
            tally.misses += 1;
        } else {
            tally.between += 1;
        }
        return;
    };
    assert!(!truth.must_miss, "false hit: {}", ctx());
    assert!(t.is_finite() && n.iter().all(|c| c.is_finite()), "NaN: {}", ctx());
    tally.unconverged += usize::from(!status.is_converged());
    assert!((0.0..=max_t).contains(&t), "t out of range: {}", ctx());
    assert!((x - (o + d * t)).norm() <= band + 1e-6 * x.norm(), "hit point: {}", ctx());
    let on = geo.gauge(&x);
    if t > 0.0 {
        assert!(on.abs() <= 2.0 * band, "hit point off the surface by {on:e}: {}", ctx());
    } else {
        assert!(on <= 2.0 * band, "hit at 0 from outside ({on:e}): {}", ctx());
        tally.inside += 1;
    }
    if let Some(want) = truth.must_hit {
        let slack = along(band, &n, d);
        assert!((t - want).abs() * d.norm() <= slack, "t {t} vs {want}: {}", ctx());
        tally.hits += 1;
    } else {
        tally.between += 1;
    }
    if n != V::zeros() {
        assert!((n.norm() - 1.0).abs() < 1e-3, "normal not unit: {}", ctx());
        let gap = geo.support(&n) - n.dot(&x);
        assert!(gap.abs() <= 4.0 * band, "normal's plane is {gap:e} off the shape: {}", ctx());
        assert!(n.dot(d) <= 1e-3 * d.norm(), "normal faces away from the ray: {}", ctx());
        tally.normals += 1;
    } else {
        assert!(t == 0.0, "zero normal on a hit at t > 0: {}", ctx());
    }
}

/// A ray towards the shape (aimed at a point near it), sometimes with a zero direction, and its
/// range.
fn random_ray(rng: &mut ChaCha8Rng, dim: usize, c: &V, size: f64) -> (V, V, f64) {
    let o = c + unit(rng, dim) * size * rng.random_range(0.0..4.0);
    if rng.random_bool(0.05) {
        return (o, V::zeros(), 1.0);
    }
    let aim = c + in_ball(rng, dim) * size * 1.2;
    let k = log_uniform(rng, 0.1, 10.0);
    let d = (aim - o) * k;
    if d.norm() < 1e-3 * size * k {
        return (o, unit(rng, dim) * size * k, 2.0 / k);
    }
    (o, d, rng.random_range(0.3..3.0) / k)
}

fn rays3<N: Scalar>(seed: u64, cases: usize) -> Tally {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut tally = Tally::default();
    for i in 0..cases {
        let size = log_uniform(&mut rng, 1e-2, 1e2);
        let c = center(&mut rng, 3, size);
        let (shape, pose, geo) = shape3::<N>(&mut rng, i % 9, size, &c);
        let (o, d, max_t) = random_ray(&mut rng, 3, &c, size);
        let ray = Ray { origin: Point3::from(n3::<N>(&o)), dir: n3::<N>(&d) };
        let (o, d, max_t) = (v3(&ray.origin.coords), v3(&ray.dir), rd::<N>(max_t));
        let got = ray_cast(&pose, &shape, &ray, N::lit(max_t), &s);
        let got = got.map(|h| (h.t.to_f64(), v3(&h.normal), v3(&h.point_a.coords), h.status));
        if d == V::zeros() {
            tally.zero_dir += 1;
        }
        let b = band::<N>(size, c.norm() + o.norm() + d.norm() * max_t);
        check_ray(&geo, &o, &d, max_t, got, b, &mut tally);
    }
    tally
}

fn rays2<N: Scalar>(seed: u64, cases: usize) -> Tally {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut tally = Tally::default();
    for i in 0..cases {
        let size = log_uniform(&mut rng, 1e-2, 1e2);
        let c = center(&mut rng, 2, size);
        let (shape, pose, geo) = shape2::<N>(&mut rng, i % 7, size, &c);
        let (o, d, max_t) = random_ray(&mut rng, 2, &c, size);
        let ray = Ray { origin: Point2::from(n2::<N>(&o)), dir: n2::<N>(&d) };
        let (o, d, max_t) = (v2(&ray.origin.coords), v2(&ray.dir), rd::<N>(max_t));
        let got = ray_cast(&pose, &shape, &ray, N::lit(max_t), &s);
        let got = got.map(|h| (h.t.to_f64(), v2(&h.normal), v2(&h.point_a.coords), h.status));
        if d == V::zeros() {
            tally.zero_dir += 1;
        }
        let b = band::<N>(size, c.norm() + o.norm() + d.norm() * max_t);
        check_ray(&geo, &o, &d, max_t, got, b, &mut tally);
    }
    tally
}

fn assert_rays_ran(t: &Tally, cases: usize) {
    eprintln!("{t:?}");
    assert!(t.hits > cases / 5, "{t:?}");
    assert!(t.misses > cases / 5, "{t:?}");
    assert!(t.inside > cases / 50, "{t:?}");
    assert!(t.zero_dir > cases / 50, "{t:?}");
    assert!(t.normals > cases / 5, "{t:?}");
    assert!(t.closed_forms > cases / 10, "{t:?}");
    assert!(t.between < cases / 10, "too many cases left undecided: {t:?}");
}

#[test]
fn rays_3d_f64() {
    let t = rays3::<f64>(1, 9_000);
    assert_rays_ran(&t, 9_000);
}

#[test]
fn rays_3d_f32() {
    let t = rays3::<f32>(2, 9_000);
    assert_rays_ran(&t, 9_000);
}

#[test]
fn rays_2d_f64() {
    let t = rays2::<f64>(3, 7_000);
    assert_rays_ran(&t, 7_000);
}

#[test]
fn rays_2d_f32() {
    let t = rays2::<f32>(4, 7_000);
    assert_rays_ran(&t, 7_000);
}

/// A zero direction stays at its origin: a hit at `t = 0` inside, no hit outside (however close).
#[test]
fn zero_direction_rays() {
    let s = QuerySettings::<f64>::default();
    let cube = Cuboid::new(Vec3::new(1.0, 1.0, 1.0)).unwrap();
    let ball = Ball::<f64, 3>::new(1.0).unwrap();
    for (o, inside) in [(0.0, true), (0.999, true), (1.001, false), (5.0, false)] {
        let ray = Ray { origin: Point3::new(o, 0.0, 0.0), dir: Vec3::zeros() };
        for hit in [
            ray_cast(&Iso3::identity(), &cube, &ray, 10.0, &s),
            ray_cast(&Iso3::identity(), &ball, &ray, 10.0, &s),
        ] {
            match hit {
                Some(h) => {
                    assert!(inside, "hit from outside at {o}: {h:?}");
                    assert_eq!((h.t, h.normal), (0.0, Vec3::zeros()));
                }
                None => assert!(!inside, "miss from inside at {o}"),
            }
        }
    }
    // Non-finite input never hits.
    let nan = Ray { origin: Point3::new(f64::NAN, 0.0, 0.0), dir: Vec3::x() };
    assert!(ray_cast(&Iso3::identity(), &cube, &nan, 10.0, &s).is_none());
    let inf = Ray { origin: Point3::origin(), dir: Vec3::new(f64::INFINITY, 0.0, 0.0) };
    assert!(ray_cast(&Iso3::identity(), &cube, &inf, 10.0, &s).is_none());
    let inside = Ray { origin: Point3::origin(), dir: Vec3::x() };
    assert!(ray_cast(&Iso3::identity(), &cube, &inside, f64::NAN, &s).is_none());
    assert!(ray_cast(&Iso3::identity(), &cube, &inside, -1.0, &s).is_none());
}

// ---------------------------------------------------------------------------------------------
// Shape casts and directional penetration.

/// One SAT axis: the projections of A and of B at `t = 0` and the speed of B along it.
#[derive(Clone, Copy, Debug)]
struct Axis {
    n: V,
    a: (f64, f64),
    b: (f64, f64),
    s: f64,
}

impl Axis {
    /// The separation along the axis at time `t` (negative: overlap).
    fn sep(&self, t: f64) -> f64 {
        (self.b.0 + self.s * t - self.a.1).max(self.a.0 - self.b.1 - self.s * t)
    }
}

fn project(pts: &[V], n: &V) -> (f64, f64) {
    pts.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.dot(n)), hi.max(p.dot(n))))
}

/// The SAT axes of two point sets (see the module docs), with B moving at `rel` relative to A.
fn sat_axes(a: &[V], b: &[V], rel: &V, dim: usize) -> Vec<Axis> {
    let mut dirs = Vec::new();
    for set in [a, b] {
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                dirs.push(set[j] - set[i]);
            }
        }
    }
    let mut normals = Vec::new();
    if dim == 2 {
        normals.extend(dirs.iter().map(|e| V::new(-e.y, e.x, 0.0)));
    } else {
        for i in 0..dirs.len() {
            for j in i + 1..dirs.len() {
                normals.push(dirs[i].cross(&dirs[j]));
            }
        }
    }
    normals
        .into_iter()
        .filter_map(|n| {
            let len = n.norm();
            (len > 1e-300).then(|| n / len)
        })
        .map(|n| Axis { n, a: project(a, &n), b: project(b, &n), s: rel.dot(&n) })
        .collect()
}

/// The largest separation over the axes at time `t` (the SAT distance lower bound, or minus the
/// depth).
fn sat_gap(axes: &[Axis], t: f64) -> f64 {
    axes.iter().map(|a| a.sep(t)).fold(f64::MIN, f64::max)
}

/// The interval of times at which the two polytopes touch: `(entry, exit)`, or `None`.
fn sat_sweep(axes: &[Axis]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for ax in axes {
        // Overlap while b0 + s t ≤ a1 and b1 + s t ≥ a0.
        if ax.s == 0.0 {
            if ax.b.0 > ax.a.1 || ax.b.1 < ax.a.0 {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((ax.a.1 - ax.b.0) / ax.s, (ax.a.0 - ax.b.1) / ax.s);
        lo = lo.max(t1.min(t2));
        hi = hi.min(t1.max(t2));
    }
    (lo <= hi).then_some((lo, hi))
}

/// What a cast must return: the entry time when the pair clearly meets in `[0, max_toi]`.
struct CastTruth {
    must_hit: Option<f64>,
    must_miss: bool,
}

/// The truth of a cast of B (moving at `rel` relative to A) from its gap function (exact SAT or
/// the ball distance) and its entry time.
fn cast_truth(gap: impl Fn(f64) -> f64, entry: Option<f64>, max_toi: f64, band: f64) -> CastTruth {
    let (_, gmin) = convex_min(&gap, 0.0, max_toi);
    if gmin > band {
        return CastTruth { must_hit: None, must_miss: true };
    }
    if gmin >= -band {
        return CastTruth { must_hit: None, must_miss: false };
    }
    let t = entry.expect("the gap goes negative, so the pair meets").max(0.0);
    CastTruth { must_hit: Some(t), must_miss: false }
}

#[derive(Default, Debug)]
struct CastTally {
    hits: usize,
    misses: usize,
    between: usize,
    at_start: usize,
    receding_misses: usize,
    touching: usize,
    grazing: usize,
    beyond_max: usize,
    normals: usize,
    /// Hits whose status is not `Converged` (checked like the others).
    unconverged: usize,
}

/// How B moves in a cast case.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Motion {
    Approach,
    Recede,
    /// Along the plane of a separating axis (sliding past, or along a face when touching).
    Graze,
    Random,
}

/// Checks one shape-cast answer. `a_at`/`b_at` map a world point at time `t` back to the start
/// placement of each shape (subtracting its motion).
#[allow(clippy::too_many_arguments)]
fn check_cast(
    a: &Geo,
    b: &Geo,
    vel_a: &V,
    vel_b: &V,
    max_toi: f64,
    truth: &CastTruth,
    got: Option<Got>,
    band: f64,
    tally: &mut CastTally,
    what: &str,
) {
    let rel = vel_b - vel_a;
    let ctx = || {
        format!(
            "{what}\nA {a:?}\nB {b:?}\nvel_a {vel_a:?} vel_b {vel_b:?} max_toi {max_toi} band \
             {band:e}: got {got:?}"
        )
    };
    let Some((t, n, pa, pb, status)) = got else {
        assert!(truth.must_hit.is_none(), "silent miss at {:?}: {}", truth.must_hit, ctx());
        if truth.must_miss {
            tally.misses += 1
        } else {
            tally.between += 1
        }
        return;
    };
    assert!(!truth.must_miss, "false hit: {}", ctx());
    let finite = t.is_finite() && (n + pa + pb).iter().all(|c| c.is_finite());
    assert!(finite, "NaN: {}", ctx());
    tally.unconverged += usize::from(!status.is_converged());
    assert!((0.0..=max_toi).contains(&t), "t out of range: {}", ctx());
    match truth.must_hit {
        Some(want) => {
            let err = (t - want).abs() * rel.norm();
            let slack = along(band, &n, &rel);
            assert!(err <= slack, "t {t} vs {want} ({err:e} along the motion): {}", ctx());
            tally.hits += 1;
        }
        None => tally.between += 1,
    }
    if t == 0.0 {
        tally.at_start += 1;
    }
    // The witnesses on the surfaces, touching (at t = 0 the shapes may overlap: any points).
    let (qa, qb) = (pa - vel_a * t, pb - vel_b * t);
    if t > 0.0 {
        assert!(a.gauge(&qa).abs() <= 4.0 * band, "point_a off A: {}", ctx());
        assert!(b.gauge(&qb).abs() <= 4.0 * band, "point_b off B: {}", ctx());
        assert!((pa - pb).norm() <= 8.0 * band, "witnesses apart: {}", ctx());
    }
    if n != V::zeros() {
        // The normal's plane touches both shapes at the time of impact, A below, B above.
        assert!((n.norm() - 1.0).abs() < 1e-3, "normal not unit: {}", ctx());
        let top_a = a.support(&n) + n.dot(vel_a) * t;
        let bottom_b = -b.support(&-n) + n.dot(vel_b) * t;
        assert!((bottom_b - top_a).abs() <= 8.0 * band, "normal's planes apart: {}", ctx());
        if t > 0.0 {
            assert!(n.dot(&rel) <= 1e-3 * rel.norm(), "B moves along the normal: {}", ctx());
        }
        tally.normals += 1;
    } else {
        assert!(t == 0.0, "zero normal on a hit at t > 0: {}", ctx());
    }
}

/// Sizes of A and B: both from 1e-2 to 1e2, and one time in three a ratio up to 1e4:1.
fn pair_sizes(rng: &mut ChaCha8Rng) -> (f64, f64) {
    let sa = log_uniform(rng, 1e-2, 1e2);
    if rng.random_bool(0.33) {
        let sb = (sa / log_uniform(rng, 1.0, 1e4)).max(1e-2);
        if rng.random_bool(0.5) { (sa, sb) } else { (sb, sa) }
    } else {
        (sa, log_uniform(rng, 1e-2, 1e2))
    }
}

/// The velocities of a cast case: `(vel_a, vel_b)` with `vel_b − vel_a` as `motion` asks, `axis`
/// being the unit direction from A to B.
fn velocities(rng: &mut ChaCha8Rng, dim: usize, motion: Motion, axis: &V, dist: f64) -> (V, V) {
    let speed = dist * log_uniform(rng, 0.05, 5.0);
    let rel = match motion {
        Motion::Approach => -(axis + in_ball(rng, dim) * 0.3).normalize() * speed,
        Motion::Recede => (axis + in_ball(rng, dim) * 0.3).normalize() * speed,
        Motion::Graze => {
            let mut p = unit(rng, dim);
            p -= axis * axis.dot(&p);
            p.normalize() * speed
        }
        Motion::Random => unit(rng, dim) * speed,
    };
    let vel_a = if rng.random_bool(0.5) { V::zeros() } else { in_ball(rng, dim) * speed };
    (vel_a, vel_a + rel)
}

/// The separating direction of two polytopes at `t = 0` (the SAT axis of least overlap or
/// largest gap, from A to B) and that gap.
fn sat_axis_at_start(axes: &[Axis]) -> (V, f64) {
    let mut best = (V::x(), f64::MIN);
    for ax in axes {
        let up = ax.b.0 - ax.a.1;
        let down = ax.a.0 - ax.b.1;
        if up > best.1 {
            best = (ax.n, up);
        }
        if down > best.1 {
            best = (-ax.n, down);
        }
    }
    best
}

/// Polytope pairs in 3D (boxes, hulls, triangles, segments), by the SAT sweep.
fn polytope_casts3<N: Scalar>(seed: u64, cases: usize) -> CastTally {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut tally = CastTally::default();
    let kinds = [2usize, 5, 6, 7];
    for i in 0..cases {
        let (sa, sb) = pair_sizes(&mut rng);
        let ca = center(&mut rng, 3, sa);
        let a = body3::<N>(&mut rng, kinds[i % 4], sa, &ca);
        let dir = unit(&mut rng, 3);
        let cb = ca + dir * (sa + sb) * rng.random_range(0.3..2.5);
        let b_seed: u64 = rng.random();
        let mut b = body3::<N>(&mut self::rng(b_seed), kinds[(i / 4) % 4], sb, &cb);
        let motion = [Motion::Approach, Motion::Recede, Motion::Graze, Motion::Random][i % 4];
        let touching = i % 5 == 0;
        let axes0 = sat_axes(&points(&a.2), &points(&b.2), &V::zeros(), 3);
        let (axis, gap0) = sat_axis_at_start(&axes0);
        if touching {
            // The same B moved along the separating axis until it touches A (as rounding
            // allows).
            b = body3::<N>(&mut self::rng(b_seed), kinds[(i / 4) % 4], sb, &(cb - axis * gap0));
        }
        let (vel_a, vel_b) = velocities(&mut rng, 3, motion, &axis, (sa + sb) * 0.5);
        let (vel_a, vel_b) = (v3(&n3::<N>(&vel_a)), v3(&n3::<N>(&vel_b)));
        let max_toi = rd::<N>(log_uniform(&mut rng, 0.1, 10.0));
        run_polytope_cast::<N, 3, _>(&a, &b, &vel_a, &vel_b, max_toi, &s, &mut tally, |ba, bb| {
            let hit = shape_cast(
                &ba.1,
                &n3::<N>(&vel_a),
                &ba.0,
                &bb.1,
                &n3::<N>(&vel_b),
                &bb.0,
                N::lit(max_toi),
                &s,
            );
            hit.map(lift3)
        });
        count_kind(&mut tally, touching, motion);
    }
    tally
}

fn count_kind(tally: &mut CastTally, touching: bool, motion: Motion) {
    if touching {
        tally.touching += 1;
    }
    if motion == Motion::Graze {
        tally.grazing += 1;
    }
}

/// A cast hit in `f64`: time, normal, witnesses and status.
type Got = (f64, V, V, V, Status);

fn lift3<N: Scalar>(h: CastHit<N, 3>) -> Got {
    (h.t.to_f64(), v3(&h.normal), v3(&h.point_a.coords), v3(&h.point_b.coords), h.status)
}

fn lift2<N: Scalar>(h: CastHit<N, 2>) -> Got {
    (h.t.to_f64(), v2(&h.normal), v2(&h.point_a.coords), v2(&h.point_b.coords), h.status)
}

/// A placed body: its shape, pose and description.
type Placed3<N> = (Any3<N>, Iso3<N>, Geo);
type Placed2<N> = (Any2<N>, Iso2<N>, Geo);

fn body3<N: Scalar>(rng: &mut ChaCha8Rng, kind: usize, size: f64, c: &V) -> Placed3<N> {
    shape3::<N>(rng, kind, size, c)
}

fn body2<N: Scalar>(rng: &mut ChaCha8Rng, kind: usize, size: f64, c: &V) -> Placed2<N> {
    shape2::<N>(rng, kind, size, c)
}

/// The points of a polytope description.
fn points(g: &Geo) -> Vec<V> {
    match g {
        Geo::Planes { pts, .. } => pts.clone(),
        Geo::Triangle { a, b, c } => vec![*a, *b, *c],
        Geo::Segment { a, b } => vec![*a, *b],
        _ => unreachable!("not a polytope"),
    }
}

/// Runs one polytope cast through `cast` and checks it against the SAT sweep.
#[allow(clippy::too_many_arguments)]
fn run_polytope_cast<N: Scalar, const D: usize, T>(
    a: &T,
    b: &T,
    vel_a: &V,
    vel_b: &V,
    max_toi: f64,
    _s: &QuerySettings<N>,
    tally: &mut CastTally,
    cast: impl Fn(&T, &T) -> Option<Got>,
) where
    T: PlacedBody,
{
    let rel = vel_b - vel_a;
    let (pa, pb) = (points(a.geo()), points(b.geo()));
    let axes = sat_axes(&pa, &pb, &rel, D);
    let sweep = sat_sweep(&axes);
    let coords = pa.iter().chain(&pb).map(|p| p.norm()).fold(0.0, f64::max);
    let band = band::<N>(bounding(&pa).max(bounding(&pb)), coords + rel.norm() * max_toi);
    let entry = sweep.map(|(lo, _)| lo);
    let truth = cast_truth(|t| sat_gap(&axes, t), entry, max_toi, band);
    if let Some((lo, _)) = sweep
        && lo > max_toi
        && truth.must_miss
    {
        tally.beyond_max += 1;
    }
    if rel.dot(&(centroid(&pb) - centroid(&pa))) > 0.0 && truth.must_miss {
        tally.receding_misses += 1;
    }
    let got = cast(a, b);
    check_cast(a.geo(), b.geo(), vel_a, vel_b, max_toi, &truth, got, band, tally, "polytopes");
}

fn centroid(p: &[V]) -> V {
    p.iter().sum::<V>() / p.len() as f64
}

fn bounding(p: &[V]) -> f64 {
    let c = centroid(p);
    p.iter().map(|q| (q - c).norm()).fold(0.0, f64::max)
}

/// Access to the description of a placed body.
trait PlacedBody {
    fn geo(&self) -> &Geo;
}

impl<N: Scalar> PlacedBody for Placed3<N> {
    fn geo(&self) -> &Geo {
        &self.2
    }
}

impl<N: Scalar> PlacedBody for Placed2<N> {
    fn geo(&self) -> &Geo {
        &self.2
    }
}

/// Polygon pairs in 2D (boxes, polygons, triangles, segments), by the SAT sweep.
fn polytope_casts2<N: Scalar>(seed: u64, cases: usize) -> CastTally {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut tally = CastTally::default();
    let kinds = [2usize, 3, 4, 5];
    for i in 0..cases {
        let (sa, sb) = pair_sizes(&mut rng);
        let ca = center(&mut rng, 2, sa);
        let a = body2::<N>(&mut rng, kinds[i % 4], sa, &ca);
        let dir = unit(&mut rng, 2);
        let cb = ca + dir * (sa + sb) * rng.random_range(0.3..2.5);
        let b_seed: u64 = rng.random();
        let mut b = body2::<N>(&mut self::rng(b_seed), kinds[(i / 4) % 4], sb, &cb);
        let motion = [Motion::Approach, Motion::Recede, Motion::Graze, Motion::Random][i % 4];
        let touching = i % 5 == 0;
        let axes0 = sat_axes(&points(&a.2), &points(&b.2), &V::zeros(), 2);
        let (axis, gap0) = sat_axis_at_start(&axes0);
        if touching {
            b = body2::<N>(&mut self::rng(b_seed), kinds[(i / 4) % 4], sb, &(cb - axis * gap0));
        }
        let (vel_a, vel_b) = velocities(&mut rng, 2, motion, &axis, (sa + sb) * 0.5);
        let (vel_a, vel_b) = (v2(&n2::<N>(&vel_a)), v2(&n2::<N>(&vel_b)));
        let max_toi = rd::<N>(log_uniform(&mut rng, 0.1, 10.0));
        run_polytope_cast::<N, 2, _>(&a, &b, &vel_a, &vel_b, max_toi, &s, &mut tally, |ba, bb| {
            let hit = shape_cast(
                &ba.1,
                &n2::<N>(&vel_a),
                &ba.0,
                &bb.1,
                &n2::<N>(&vel_b),
                &bb.0,
                N::lit(max_toi),
                &s,
            );
            hit.map(lift2)
        });
        count_kind(&mut tally, touching, motion);
    }
    tally
}

fn assert_casts_ran(t: &CastTally, cases: usize) {
    eprintln!("{t:?}");
    assert!(t.hits > cases / 10, "{t:?}");
    assert!(t.misses > cases / 10, "{t:?}");
    assert!(t.at_start > cases / 50, "{t:?}");
    assert!(t.receding_misses > cases / 20, "{t:?}");
    assert!(t.touching > cases / 10, "{t:?}");
    assert!(t.grazing > cases / 10, "{t:?}");
    assert!(t.beyond_max > cases / 100, "{t:?}");
    assert!(t.normals > cases / 20, "{t:?}");
    assert!(t.between < cases / 4, "too many cases left undecided: {t:?}");
}

#[test]
fn polytope_casts_3d_f64() {
    let t = polytope_casts3::<f64>(11, 3_000);
    assert_casts_ran(&t, 3_000);
}

#[test]
fn polytope_casts_3d_f32() {
    let t = polytope_casts3::<f32>(12, 3_000);
    assert_casts_ran(&t, 3_000);
}

#[test]
fn polytope_casts_2d_f64() {
    let t = polytope_casts2::<f64>(13, 3_000);
    assert_casts_ran(&t, 3_000);
}

#[test]
fn polytope_casts_2d_f32() {
    let t = polytope_casts2::<f32>(14, 3_000);
    assert_casts_ran(&t, 3_000);
}

/// Ball–ball casts against the quadratic, 2D and 3D.
fn ball_casts<N: Scalar>(seed: u64, cases: usize, dim: usize) -> CastTally {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut tally = CastTally::default();
    for i in 0..cases {
        let (sa, sb) = pair_sizes(&mut rng);
        let (ra, rb) = (rd::<N>(sa), rd::<N>(sb));
        let ca = center(&mut rng, dim, sa).map(rd::<N>);
        let axis = unit(&mut rng, dim);
        let touching = i % 5 == 0;
        let dist = if touching { ra + rb } else { (ra + rb) * rng.random_range(0.3..2.5) };
        let cb = (ca + axis * dist).map(rd::<N>);
        let motion = [Motion::Approach, Motion::Recede, Motion::Graze, Motion::Random][i % 4];
        let (vel_a, vel_b) = velocities(&mut rng, dim, motion, &axis, ra + rb);
        let (vel_a, vel_b) = (vel_a.map(rd::<N>), vel_b.map(rd::<N>));
        let max_toi = rd::<N>(log_uniform(&mut rng, 0.1, 10.0));
        let rel = vel_b - vel_a;
        let (ga, gb) = (Geo::Ball { c: ca, r: ra }, Geo::Ball { c: cb, r: rb });
        let gap = |t: f64| (cb - ca + rel * t).norm() - ra - rb;
        let entry = ball_interval(&V::zeros(), &rel, &(ca - cb), ra + rb).map(|iv| iv.0);
        let band = band::<N>(sa.max(sb), ca.norm() + cb.norm() + rel.norm() * max_toi);
        let truth = cast_truth(gap, entry, max_toi, band);
        if rel.dot(&(cb - ca)) > 0.0 && truth.must_miss {
            tally.receding_misses += 1;
        }
        if entry.is_some_and(|e| e > max_toi) && truth.must_miss {
            tally.beyond_max += 1;
        }
        let got = if dim == 3 {
            let (a, b) = (Ball::<N, 3>::new(N::lit(ra)).unwrap(), Ball::new(N::lit(rb)).unwrap());
            let (pa, pb) = (iso3_at::<N>(&ca), iso3_at::<N>(&cb));
            shape_cast(&pa, &n3(&vel_a), &a, &pb, &n3(&vel_b), &b, N::lit(max_toi), &s).map(lift3)
        } else {
            let (a, b) = (Ball::<N, 2>::new(N::lit(ra)).unwrap(), Ball::new(N::lit(rb)).unwrap());
            let (pa, pb) = (iso2_at::<N>(&ca), iso2_at::<N>(&cb));
            shape_cast(&pa, &n2(&vel_a), &a, &pb, &n2(&vel_b), &b, N::lit(max_toi), &s).map(lift2)
        };
        check_cast(&ga, &gb, &vel_a, &vel_b, max_toi, &truth, got, band, &mut tally, "balls");
        count_kind(&mut tally, touching, motion);
    }
    tally
}

#[test]
fn ball_casts_f64() {
    for dim in [2, 3] {
        let t = ball_casts::<f64>(20 + dim as u64, 3_000, dim);
        assert_casts_ran(&t, 3_000);
    }
}

#[test]
fn ball_casts_f32() {
    for dim in [2, 3] {
        let t = ball_casts::<f32>(30 + dim as u64, 3_000, dim);
        assert_casts_ran(&t, 3_000);
    }
}

/// The reproducer of issue 12: a receding pair of boxes reported a hit at `t = 0`.
#[test]
fn receding_boxes_do_not_hit() {
    fn case<N: Scalar>() {
        let c = Cuboid::new(Vec3::new(N::lit(0.5), N::lit(0.5), N::lit(0.5))).unwrap();
        let pb = Iso3::translation(N::lit(2.0), N::lit(0.2), N::lit(0.1));
        let vel = Vec3::new(N::lit(1.0), N::lit(0.1), N::lit(0.05));
        let s = QuerySettings::default();
        let hit = shape_cast(&Iso3::identity(), &Vec3::zeros(), &c, &pb, &vel, &c, N::one(), &s);
        assert!(hit.is_none(), "{hit:?}");
        // The same pair approaching hits when the gap of 1 along x closes.
        let hit = shape_cast(&Iso3::identity(), &Vec3::zeros(), &c, &pb, &-vel, &c, N::one(), &s)
            .expect("the approaching pair hits");
        assert!((hit.t.to_f64() - 1.0).abs() < 1e-4, "{hit:?}");
    }
    case::<f32>();
    case::<f64>();
}

/// Directional penetration of overlapping polytopes: the exit time of the SAT sweep along the
/// direction, and `None` for pairs clearly apart.
fn directional3<N: Scalar>(seed: u64, cases: usize) -> (usize, usize) {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let kinds = [2usize, 5, 6, 7];
    let (mut checked, mut apart) = (0, 0);
    for i in 0..cases {
        let (sa, sb) = pair_sizes(&mut rng);
        let ca = center(&mut rng, 3, sa);
        let a = body3::<N>(&mut rng, kinds[i % 2], sa, &ca);
        let cb = ca + in_ball(&mut rng, 3) * (sa + sb) * 0.8;
        let b = body3::<N>(&mut rng, kinds[(i / 2) % 4], sb, &cb);
        let d = unit(&mut rng, 3).map(rd::<N>);
        let (pa, pb) = (points(&a.2), points(&b.2));
        let axes = sat_axes(&pa, &pb, &d, 3);
        let coords = pa.iter().chain(&pb).map(|p| p.norm()).fold(0.0, f64::max);
        let band = band::<N>(bounding(&pa).max(bounding(&pb)), coords + sa + sb);
        let gap0 = sat_gap(&axes, 0.0);
        let got = directional_penetration(&a.1, &a.0, &b.1, &b.0, &n3::<N>(&d), &s);
        let ctx = || format!("A {:?}\nB {:?}\nd {d:?} band {band:e}: got {got:?}", a.2, b.2);
        if gap0 > band {
            assert!(got.is_none(), "penetration of a separated pair: {}", ctx());
            apart += 1;
            continue;
        }
        if gap0 > -band {
            continue;
        }
        let (_, exit) = sat_sweep(&axes).expect("overlapping at t = 0");
        let h = got.unwrap_or_else(|| panic!("silent miss: {}", ctx()));
        let t = h.t.to_f64();
        assert!(t.is_finite(), "NaN: {}", ctx());
        let n = v3(&h.normal);
        assert!((t - exit).abs() <= along(band, &n, &d), "t {t} vs exit {exit}: {}", ctx());
        // Moved by t·d, B touches A: the normal's planes meet.
        if n != V::zeros() {
            let top_a = a.2.support(&n);
            let bottom_b = -b.2.support(&-n) + n.dot(&d) * t;
            assert!((bottom_b - top_a).abs() <= 8.0 * band, "normal's planes apart: {}", ctx());
        }
        checked += 1;
    }
    (checked, apart)
}

#[test]
fn directional_penetration_f64() {
    let (checked, apart) = directional3::<f64>(40, 2_000);
    assert!(checked > 300 && apart > 100, "{checked} checked, {apart} apart");
}

#[test]
fn directional_penetration_f32() {
    let (checked, apart) = directional3::<f32>(41, 2_000);
    assert!(checked > 300 && apart > 100, "{checked} checked, {apart} apart");
}

/// Directional penetration of overlapping balls, 2D and 3D: the exit root of the quadratic
/// `|Δc + t·d| = r_a + r_b` in `f64`, with the witnesses touching after the push (the hostile
/// suite, seed 8080: two `f32` balls of 8 mm and 6 mm 7.8e-6 deep were pushed apart by the
/// general cast with witnesses 1.1e-7 apart). Held to a few dozen ulps of the coordinates, and
/// every overlap, nested, concentric, touching and deep, must be pushed out.
fn ball_directional<N: Scalar>(seed: u64, cases: usize, dim: usize) -> usize {
    let mut rng = rng(seed);
    let s = QuerySettings::<N>::default();
    let mut checked = 0;
    for i in 0..cases {
        let (sa, sb) = pair_sizes(&mut rng);
        let (ra, rb) = (rd::<N>(sa), rd::<N>(sb));
        let ca = center(&mut rng, dim, sa).map(rd::<N>);
        let depth: f64 = [0.0, 1e-6, 0.3, 0.99, 1.0][i % 5];
        let offset = unit(&mut rng, dim) * (ra + rb) * (1.0 - depth);
        let cb = (ca + offset).map(rd::<N>);
        let d = unit(&mut rng, dim).map(rd::<N>);
        let m = cb - ca;
        if m.norm() > ra + rb {
            continue;
        }
        // The exit root along the unit direction, from the quadratic in `f64`.
        let u = d / d.norm();
        let (b, c) = (m.dot(&u), m.norm_squared() - (ra + rb).powi(2));
        let exit = -b + (b * b - c).sqrt();
        let got = if dim == 3 {
            let (a, bb) = (Ball::<N, 3>::new(N::lit(ra)).unwrap(), Ball::new(N::lit(rb)).unwrap());
            let (pa, pb) = (iso3_at::<N>(&ca), iso3_at::<N>(&cb));
            directional_penetration(&pa, &a, &pb, &bb, &n3::<N>(&d), &s).map(lift3)
        } else {
            let (a, bb) = (Ball::<N, 2>::new(N::lit(ra)).unwrap(), Ball::new(N::lit(rb)).unwrap());
            let (pa, pb) = (iso2_at::<N>(&ca), iso2_at::<N>(&cb));
            directional_penetration(&pa, &a, &pb, &bb, &n2::<N>(&d), &s).map(lift2)
        };
        let ulps = 64.0 * N::EPSILON.to_f64() * (ca.norm() + cb.norm() + ra + rb);
        let Some(h) = got else {
            // Touching, to rounding: nothing to push.
            assert!(m.norm() >= ra + rb - ulps, "overlapping balls not pushed: {m:?} {d:?}");
            continue;
        };
        let ctx = || format!("ra {ra:e} rb {rb:e} m {m:?} d {d:?}: {h:?}");
        let (t, n, pa, pb, status) = h;
        assert_eq!(status, Status::Converged, "{}", ctx());
        assert!((t - exit).abs() <= ulps / n.dot(&u).max(1e-3), "t vs exit {exit}: {}", ctx());
        assert!((pb - pa).norm() <= ulps, "witnesses apart: {}", ctx());
        let moved = m + u * t;
        assert!((n - moved / moved.norm()).norm() <= 1e-3, "normal: {}", ctx());
        checked += 1;
    }
    checked
}

#[test]
fn ball_directional_penetration() {
    for dim in [2, 3] {
        assert!(ball_directional::<f64>(50 + dim as u64, 2_000, dim) > 1_500);
        assert!(ball_directional::<f32>(60 + dim as u64, 2_000, dim) > 1_500);
    }
}

/// Rays at boxes, `f64`, 2D and 3D: the closed form (the slab test of `Cuboid`'s
/// `local_core_ray`) gives the entry time to rounding and the face's exact normal, where the
/// cast by GJK stops within its tolerance of the surface. Against the slab intervals of this
/// file, at 1e-12 of the size; about half the rays hit.
#[test]
fn box_rays_exact_f64() {
    fn run<const D: usize, P: kollide_math::Pose<f64, D>>(seed: u64, pose: &P) -> usize {
        let mut rng = rng(seed);
        let settings = QuerySettings::<f64>::default();
        let mut hits = 0;
        for _ in 0..2000 {
            let size = log_uniform(&mut rng, 1e-2, 1e2);
            let h =
                kollide_math::Vector::<f64, D>::from_fn(|_, _| size * rng.random_range(0.1..1.0));
            let cuboid = Cuboid::new(h).unwrap();
            let o =
                kollide_math::Vector::<f64, D>::from_fn(|_, _| size * rng.random_range(-4.0..4.0));
            let target =
                kollide_math::Vector::<f64, D>::from_fn(|i, _| h[i] * rng.random_range(-1.5..1.5));
            let d = (target - o) * rng.random_range(0.5..2.0);
            let ray = Ray { origin: o.into(), dir: d };
            let truth = (0..D).try_fold((0.0f64, f64::MAX), |acc, i| {
                intersect(Some(acc), slab_interval(o[i], d[i], h[i]))
            });
            let hit = ray_cast(pose, &cuboid, &ray, 10.0, &settings);
            match (truth, hit) {
                (None, None) => {}
                (Some((t0, _)), Some(hit)) if t0 > 0.0 => {
                    assert!((hit.t - t0).abs() * d.norm() <= 1e-12 * size, "t {} vs {t0}", hit.t);
                    let axis = (0..D).find(|&i| hit.normal[i] != 0.0).unwrap();
                    let mut e = kollide_math::Vector::<f64, D>::zeros();
                    e[axis] = hit.normal[axis];
                    assert_eq!(hit.normal, e, "normal {:?} not a face's", hit.normal);
                    hits += 1;
                }
                (Some((t0, _)), Some(hit)) => assert!(t0 == 0.0 && hit.t == 0.0),
                (t, h) => panic!("oracle {t:?} vs kollide {h:?}"),
            }
        }
        hits
    }
    assert!(run(71, &Iso2::<f64>::identity()) > 600);
    assert!(run(72, &Iso3::<f64>::identity()) > 500);
}
