//! `f32` contacts between a polytope and a large radius, nearly touching: the normal must attain
//! the separation it reports.
//!
//! GJK stops once the cores' distance is within its tolerance, and that distance hardly moves
//! with the normal's direction, so a triangle 1e-5 from a ball of radius 40 once got a normal
//! 1e-4 rad off and points 3e-3 off the triangle (the hostile suite, seed 19). The oracle here is
//! the support gap along the reported normal, computed in `f64` from the same `f32` inputs.

use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
use kollide_narrowphase::{QuerySettings, contact};
use kollide_shapes::{Ball, Cuboid, Triangle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The allowed miss: a millionth of the size, and the rounding of `f32` coordinates near `reach`.
fn tol(scale: f64, reach: f64) -> f64 {
    1e-5 * scale + 16.0 * f32::EPSILON as f64 * reach
}

#[test]
fn triangle_near_large_circle_normal_attains_f32() {
    let mut r = ChaCha8Rng::seed_from_u64(19);
    let settings = QuerySettings::<f32>::default();
    let (mut checked, mut worst) = (0, 0.0f64);
    for _ in 0..30000 {
        let p = |r: &mut ChaCha8Rng| {
            Point2::new(r.random_range(-50.0f32..50.0), r.random_range(-50.0..50.0))
        };
        let Ok(tri) = Triangle::new(p(&mut r), p(&mut r), p(&mut r)) else { continue };
        let radius: f32 = r.random_range(10.0..40.0);
        let ball = Ball::new(radius).unwrap();
        let pos_a = Iso2::new(
            Vec2::new(r.random_range(-100.0..100.0), r.random_range(-100.0..100.0)),
            r.random_range(-3.0..3.0),
        );
        // Place the ball's centre `radius + gap` out from the triangle's closest point, along a
        // random direction: first far out, then moved in to the wanted gap by the f64 distance.
        let dir = Vec2::new(r.random_range(-1.0f32..1.0), r.random_range(-1.0..1.0));
        let Some(dir) = dir.try_normalize(1e-3) else { continue };
        let centre_local = |d: f32| Point2::from(dir * d);
        // Bisect the core distance (f64) from the triangle to the centre to `radius + gap`.
        let gap: f64 = r.random_range(-1e-4..1e-4) * 50.0;
        let dist = |d: f32| tri_point_distance(&tri, &centre_local(d));
        let (mut lo, mut hi) = (0.0f32, 200.0f32);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if dist(mid) < radius as f64 + gap { lo = mid } else { hi = mid }
        }
        let pos_b = Iso2::from_parts(
            pos_a.transform_point(&centre_local(hi)).coords.into(),
            pos_a.rotation,
        );
        let c = contact(&pos_a, &tri, &pos_b, &ball, f32::MAX, &settings).unwrap();
        // The gap along the normal, in f64: the ball's lowest point minus the triangle's highest.
        let n = c.normal.map(|x| x as f64);
        let world = |q: Point2<f32>| pos_a.transform_point(&q).coords.map(|x| x as f64);
        let max_a = (0..3).map(|i| world(tri.vertex(i)).dot(&n)).fold(f64::MIN, f64::max);
        let centre = pos_b.translation.vector.map(|x| x as f64);
        let g = centre.dot(&n) - radius as f64 - max_a;
        let miss = (g - c.separation as f64).abs();
        let reach = pos_b.translation.vector.norm() as f64 + 100.0;
        worst = worst.max(miss / tol(50.0, reach));
        checked += 1;
    }
    assert!(checked > 12_000, "{checked} cases");
    assert!(worst <= 1.0, "the worst miss is {worst} times the tolerance");
}

#[test]
fn box_near_large_ball_normal_attains_f32() {
    let mut r = ChaCha8Rng::seed_from_u64(23);
    let settings = QuerySettings::<f32>::default();
    let (mut checked, mut worst) = (0, 0.0f64);
    for _ in 0..30000 {
        let h = Vec3::new(
            r.random_range(1.0f32..30.0),
            r.random_range(1.0..30.0),
            r.random_range(1.0..30.0),
        );
        let bx = Cuboid::new(h).unwrap();
        let radius: f32 = r.random_range(10.0..40.0);
        let ball = Ball::new(radius).unwrap();
        let t = Vec3::new(
            r.random_range(-100.0..100.0),
            r.random_range(-100.0..100.0),
            r.random_range(-100.0..100.0),
        );
        let pos_a = Iso3::new(
            t,
            Vec3::new(
                r.random_range(-3.0..3.0),
                r.random_range(-3.0..3.0),
                r.random_range(-3.0..3.0),
            ),
        );
        let dir = Vec3::new(
            r.random_range(-1.0f32..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        let Some(dir) = dir.try_normalize(1e-3) else { continue };
        let gap: f64 = r.random_range(-1e-4..1e-4) * 30.0;
        let dist = |d: f32| box_point_distance(&h, &Point3::from(dir * d));
        let (mut lo, mut hi) = (0.0f32, 200.0f32);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if dist(mid) < radius as f64 + gap { lo = mid } else { hi = mid }
        }
        let centre = pos_a.transform_point(&Point3::from(dir * hi));
        let pos_b = Iso3::from_parts(centre.coords.into(), pos_a.rotation);
        let c = contact(&pos_a, &bx, &pos_b, &ball, f32::MAX, &settings).unwrap();
        let n = c.normal.map(|x| x as f64);
        let max_a = (0..8u32)
            .map(|i| pos_a.transform_point(&bx.vertex(i)).coords.map(|x| x as f64).dot(&n))
            .fold(f64::MIN, f64::max);
        let g = centre.coords.map(|x| x as f64).dot(&n) - radius as f64 - max_a;
        let miss = (g - c.separation as f64).abs();
        let reach = centre.coords.norm() as f64 + 100.0;
        worst = worst.max(miss / tol(30.0, reach));
        checked += 1;
    }
    assert!(checked > 12_000, "{checked} cases");
    assert!(worst <= 1.0, "the worst miss is {worst} times the tolerance");
}

/// The distance from `p` to the triangle (in its frame), in `f64`.
fn tri_point_distance(t: &Triangle<f32, 2>, p: &Point2<f32>) -> f64 {
    let v: Vec<Vec2<f64>> = (0..3).map(|i| t.vertex(i).coords.map(|x| x as f64)).collect();
    let p = p.coords.map(|x| x as f64);
    let seg = |a: Vec2<f64>, b: Vec2<f64>| {
        let d = b - a;
        let s = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
        (a + d * s - p).norm()
    };
    let cross = |a: Vec2<f64>, b: Vec2<f64>| (b - a).perp(&(p - a));
    let s = [cross(v[0], v[1]), cross(v[1], v[2]), cross(v[2], v[0])];
    if s.iter().all(|&x| x >= 0.0) || s.iter().all(|&x| x <= 0.0) {
        return 0.0;
    }
    seg(v[0], v[1]).min(seg(v[1], v[2])).min(seg(v[2], v[0]))
}

/// The distance from `p` to the box of half extents `h` (in its frame), in `f64`.
fn box_point_distance(h: &Vec3<f32>, p: &Point3<f32>) -> f64 {
    let q = p.coords.map(|x| x as f64);
    let h = h.map(|x| x as f64);
    let out = Vec3::new(
        (q.x.abs() - h.x).max(0.0),
        (q.y.abs() - h.y).max(0.0),
        (q.z.abs() - h.z).max(0.0),
    );
    out.norm()
}
