//! Shared helpers of the narrowphase tests: a point-cloud shape, random convex sets, the SAT
//! oracle for 2D polygons, and exact point, segment and triangle distances ([`distance`]).
#![allow(dead_code, missing_docs)]

mod distance;

pub use distance::{point_segment, point_triangle, segment_segment};

use kollide_math::{Iso2, Iso3, Point, Point2, Point3, Scalar, Vec2, Vec3, Vector};
use kollide_shapes::{SupportMap, Triangle, convex_hull_2d};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The convex hull of a point cloud, by linear scan: a shape independent of kollide's own
/// polygon code, so it can serve as an oracle input.
#[derive(Clone, Debug)]
pub struct Cloud<N: Scalar, const D: usize> {
    pub points: Vec<Point<N, D>>,
}

impl<N: Scalar, const D: usize> SupportMap<N, D> for Cloud<N, D> {
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D> {
        let mut best = self.points[0];
        let mut bd = best.coords.dot(dir);
        for p in &self.points[1..] {
            let d = p.coords.dot(dir);
            if d > bd {
                bd = d;
                best = *p;
            }
        }
        best
    }
}

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `tri` made a sliver: its third corner moved to within 1e-5 of its first edge's length from
/// that edge's line (`None` when that leaves no valid triangle).
pub fn sliver_of(tri: &Triangle<f64, 3>, r: &mut ChaCha8Rng) -> Option<Triangle<f64, 3>> {
    let (a, b) = (tri.a(), tri.b());
    let mid = a + (b - a) * r.random_range(0.2..0.8);
    let up = (tri.c() - mid).normalize();
    Triangle::new(a, b, mid + up * 1e-5 * (b - a).norm()).ok()
}

/// A random unit vector, uniform on the sphere (rejection from the cube).
pub fn random_unit3(r: &mut ChaCha8Rng) -> Vec3<f64> {
    loop {
        let v = Vec3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

/// A random convex polygon (as a CCW hull) of one of several kinds, centred near the origin.
pub fn random_polygon(rng: &mut ChaCha8Rng) -> Vec<Point2<f64>> {
    loop {
        let kind = rng.random_range(0..4);
        let pts: Vec<Point2<f64>> = match kind {
            // A random cloud of 3..=24 points.
            0 => {
                let n = rng.random_range(3..=24);
                (0..n)
                    .map(|_| Point2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)))
                    .collect()
            }
            // A box.
            1 => {
                let hx = rng.random_range(0.1..1.0);
                let hy = rng.random_range(0.1..1.0);
                vec![
                    Point2::new(-hx, -hy),
                    Point2::new(hx, -hy),
                    Point2::new(hx, hy),
                    Point2::new(-hx, hy),
                ]
            }
            // A triangle.
            2 => (0..3)
                .map(|_| Point2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)))
                .collect(),
            // A sliver with aspect 50:1.
            _ => {
                let n = rng.random_range(3..=8);
                (0..n)
                    .map(|_| {
                        Point2::new(rng.random_range(-1.0..1.0), rng.random_range(-0.02..0.02))
                    })
                    .collect()
            }
        };
        if let Ok(hull) = convex_hull_2d(&pts) {
            let area: f64 = (0..hull.len())
                .map(|i| {
                    let a = hull[i];
                    let b = hull[(i + 1) % hull.len()];
                    a.x * b.y - a.y * b.x
                })
                .sum();
            if area > 1e-4 {
                return hull;
            }
        }
    }
}

pub fn random_pose(rng: &mut ChaCha8Rng, center: Vec2<f64>, spread: f64) -> Iso2<f64> {
    let mut jitter = || if spread > 0.0 { rng.random_range(-spread..spread) } else { 0.0 };
    let t = center + Vec2::new(jitter(), jitter());
    Iso2::new(t, rng.random_range(-3.2..3.2))
}

pub fn to_world(poly: &[Point2<f64>], pose: &Iso2<f64>) -> Vec<Point2<f64>> {
    poly.iter().map(|p| pose.transform_point(p)).collect()
}

/// `max over A of a·n − min over B of b·n`: how far B must move along `n` to separate.
pub fn overlap_along(a: &[Point2<f64>], b: &[Point2<f64>], n: &Vec2<f64>) -> f64 {
    let max_a = a.iter().map(|p| p.coords.dot(n)).fold(f64::MIN, f64::max);
    let min_b = b.iter().map(|p| p.coords.dot(n)).fold(f64::MAX, f64::min);
    max_a - min_b
}

/// The exact penetration depth of two convex polygons (world vertices, CCW) by SAT over every
/// edge normal of both: the Minkowski difference's edges are exactly these normals. Returns the
/// depth (negative = separated lower bound) and the minimising normal from A to B.
pub fn sat_depth(a: &[Point2<f64>], b: &[Point2<f64>]) -> (f64, Vec2<f64>) {
    let mut best = (f64::MAX, Vec2::x());
    for poly in [a, b] {
        for i in 0..poly.len() {
            let e = poly[(i + 1) % poly.len()] - poly[i];
            let n = Vec2::new(e.y, -e.x).normalize();
            for n in [n, -n] {
                let o = overlap_along(a, b, &n);
                if o < best.0 {
                    best = (o, n);
                }
            }
        }
    }
    best
}

/// Brute-force distance between two disjoint convex polygons: the minimum over vertex–edge pairs.
pub fn brute_distance(a: &[Point2<f64>], b: &[Point2<f64>]) -> f64 {
    fn seg_dist(p: &Point2<f64>, s0: &Point2<f64>, s1: &Point2<f64>) -> f64 {
        let e = s1 - s0;
        let t = ((p - s0).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
        (p - (s0 + e * t)).norm()
    }
    let mut best = f64::MAX;
    for (x, y) in [(a, b), (b, a)] {
        for p in x {
            for i in 0..y.len() {
                best = best.min(seg_dist(p, &y[i], &y[(i + 1) % y.len()]));
            }
        }
    }
    best
}

pub fn cast_points<N: Scalar>(pts: &[Point2<f64>]) -> Vec<Point2<N>> {
    pts.iter().map(|p| Point2::new(N::lit(p.x), N::lit(p.y))).collect()
}

pub fn cast_pose<N: Scalar>(p: &Iso2<f64>) -> Iso2<N> {
    Iso2::new(
        Vec2::new(N::lit(p.translation.vector.x), N::lit(p.translation.vector.y)),
        N::lit(p.rotation.angle()),
    )
}

/// A random 3D pose: translation `center` plus up to `spread` on each axis, random rotation.
pub fn random_pose3(rng: &mut ChaCha8Rng, center: Vec3<f64>, spread: f64) -> Iso3<f64> {
    let mut j = || if spread > 0.0 { rng.random_range(-spread..spread) } else { 0.0 };
    let t = center + Vec3::new(j(), j(), j());
    let axis = Vec3::new(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    );
    Iso3::new(t, axis)
}

/// 3D twin of [`overlap_along`]: how far B must move along `n` to separate from A.
pub fn overlap_along3(a: &[Point3<f64>], b: &[Point3<f64>], n: &Vec3<f64>) -> f64 {
    let max_a = a.iter().map(|p| p.coords.dot(n)).fold(f64::MIN, f64::max);
    let min_b = b.iter().map(|p| p.coords.dot(n)).fold(f64::MAX, f64::min);
    max_a - min_b
}
