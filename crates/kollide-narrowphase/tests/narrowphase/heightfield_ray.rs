//! Ray casts on heightfields, against an oracle that knows nothing of the grid walk: the
//! surface's height under a point, found by scanning every triangle for the one whose footprint
//! holds it, and the ray's height above the surface sampled along the ray.
//!
//! The surface is the graph of a continuous function over the field's footprint, so a segment
//! inside the footprint that starts above the surface and ends below it must meet it. The
//! hostile rays aim at the places where a per-triangle test can let a ray slip through: sample
//! points, cell edges and diagonals, rays running exactly along grid lines and diagonals.

use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_narrowphase::composite::composite_ray_cast;
use kollide_narrowphase::{QuerySettings, Ray};
use kollide_shapes::{CompositeShape, HeightField, SurfaceRay};
use nalgebra::Translation3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A `rows × cols` field of random heights in `[0, amp]` spanning `size × size`.
fn field<N: Scalar>(rng: &mut ChaCha8Rng, n: usize, amp: f64, size: f64) -> HeightField<N> {
    let h = (0..n * n).map(|_| N::lit(rng.random_range(0.0..=amp))).collect();
    HeightField::new(n, n, h, Vec3::new(N::lit(size), N::one(), N::lit(size))).unwrap()
}

/// The surface's height under `(x, z)` (local), from the triangle whose footprint holds it.
fn height_under<N: Scalar>(f: &HeightField<N>, x: f64, z: f64) -> Option<(f64, Vec3<f64>)> {
    (0..f.triangle_count() as u32).find_map(|i| {
        let v = f.triangle(i).vertices().map(|p| p.map(|c| c.to_f64()));
        let (a, b, c) = (v[0], v[1], v[2]);
        // Barycentric coordinates in the xz plane.
        let d = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
        let u = ((x - a.x) * (c.z - a.z) - (c.x - a.x) * (z - a.z)) / d;
        let w = ((b.x - a.x) * (z - a.z) - (x - a.x) * (b.z - a.z)) / d;
        let tol = if N::EPSILON.to_f64() > 1e-10 { 1e-5 } else { 1e-9 };
        (u >= -tol && w >= -tol && u + w <= 1.0 + tol).then(|| {
            let n = (b - a).cross(&(c - a)).normalize();
            (a.y + u * (b.y - a.y) + w * (c.y - a.y), n * n.y.signum())
        })
    })
}

/// The ray's height above the surface at parameter `t` (local frame), when over the footprint.
fn gap<N: Scalar>(f: &HeightField<N>, o: &Point3<f64>, d: &Vec3<f64>, t: f64) -> Option<f64> {
    let p = o + d * t;
    height_under(f, p.x, p.z).map(|(h, _)| p.y - h)
}

/// Checks one hit (or miss) against the oracle: the hit lies on the surface, nothing is crossed
/// before it, and a segment from above to below the surface is never missed.
fn check<N: Scalar>(f: &HeightField<N>, o: Point3<f64>, d: Vec3<f64>, max_t: f64, what: &str) {
    let ray = Ray { origin: o.map(N::lit), dir: d.map(N::lit) };
    let s = QuerySettings::<N>::default();
    let hit = composite_ray_cast(&Iso3::identity(), f, &ray, N::lit(max_t), &s);
    let own = f.surface_ray(&ray.origin, &ray.dir, N::lit(max_t));
    assert!(!matches!(own, SurfaceRay::AskPieces), "{what}: the field's own walk did not run");
    let tol = if N::EPSILON.to_f64() > 1e-10 { 2e-3 } else { 1e-9 };
    let (g0, g1) = (gap(f, &o, &d, 0.0), gap(f, &o, &d, max_t));
    match hit {
        Some(h) => {
            let t = h.t.to_f64();
            assert!((0.0..=max_t * (1.0 + 1e-6)).contains(&t), "{what}: t = {t}");
            let g = gap(f, &o, &d, t).expect("a hit lies over the footprint");
            assert!(
                g.abs() <= tol * (1.0 + d.norm() * t),
                "{what}: {g} off the surface at t = {t}"
            );
            assert!(h.normal.dot(&ray.dir) <= N::zero(), "{what}: the normal faces away");
            // Nothing crossed before the hit: the gap keeps the start's sign up to it.
            if let Some(g0) = g0.filter(|g| g.abs() > tol) {
                for k in 0..200 {
                    let tk = t * f64::from(k) / 200.0;
                    if let Some(g) = gap(f, &o, &d, tk) {
                        assert!(g * g0.signum() >= -tol, "{what}: crossed at {tk} before {t}");
                    }
                }
            }
        }
        None => {
            if let (Some(g0), Some(g1)) = (g0, g1) {
                assert!(
                    g0 * g1 > 0.0 || g0.abs().min(g1.abs()) <= tol,
                    "{what}: missed, {o:?} {d:?} {max_t} gaps {g0} {g1}, field {f:?}"
                );
            }
        }
    }
}

/// Rays through the seams: vertical rays onto samples, edge midpoints and diagonals; rays
/// running exactly along grid lines and along diagonals, through samples; from above and below.
fn seams<N: Scalar>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cases = 0;
    for _ in 0..20 {
        let n = rng.random_range(2..9);
        let size = rng.random_range(1.0..20.0);
        let amp = rng.random_range(0.0..4.0);
        let f = field::<N>(&mut rng, n, amp, size);
        let (cell, lo) = (size / (n - 1) as f64, -size / 2.0);
        let (top, bottom) = (f.local_aabb().maxs.y.to_f64() + 1.0, -1.0);
        for i in 0..n {
            for j in 0..n {
                let (x, z) = (lo + cell * j as f64, lo + cell * i as f64);
                let half = cell / 2.0;
                // Onto the sample, the middle of its two edges and of the diagonal through it.
                for (dx, dz) in [(0.0, 0.0), (half, 0.0), (0.0, half), (half, -half)] {
                    let (px, pz) = ((x + dx).min(-lo), (z + dz).max(lo).min(-lo));
                    let down = Vec3::new(0.0, -1.0, 0.0);
                    check(&f, Point3::new(px, top, pz), down, top - bottom, "vertical");
                    check(&f, Point3::new(px, bottom, pz), -down, top - bottom, "up");
                    cases += 2;
                }
                // Along the grid lines through the sample, and along the diagonal through it.
                let k = rng.random_range(0.05..2.0);
                for d in
                    [Vec3::new(1.0, -k, 0.0), Vec3::new(0.0, -k, -1.0), Vec3::new(1.0, -k, -1.0)]
                {
                    let o = Point3::new(x - d.x * cell, top, z - d.z * cell);
                    let (o, len) = clip_to_footprint(o, d, lo);
                    check(&f, o, d, len, "along a grid line");
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 1000, "{cases} cases");
}

/// Moves `o` along `d` into the footprint `[lo, −lo]²` if needed, and the length of `d` that
/// stays in it.
fn clip_to_footprint(o: Point3<f64>, d: Vec3<f64>, lo: f64) -> (Point3<f64>, f64) {
    let (mut t0, mut t1) = (0.0f64, f64::MAX);
    for k in [0, 2] {
        if d[k] != 0.0 {
            let (a, b) = ((lo - o[k]) / d[k], (-lo - o[k]) / d[k]);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
    }
    (o + d * t0, (t1 - t0).max(0.0) * (1.0 - 1e-12))
}

#[test]
fn rays_through_seams_never_miss_f64() {
    seams::<f64>(0x5ea4);
}

#[test]
fn rays_through_seams_never_miss_f32() {
    seams::<f32>(0x5ea5);
}

/// Random rays from above, below and inside the field's box: every answer checked by the oracle.
fn random_rays<N: Scalar>(seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut hits, mut misses) = (0, 0);
    for case in 0..3000 {
        let n = rng.random_range(2..10);
        let size = rng.random_range(0.5..30.0);
        let amp = rng.random_range(0.0..3.0);
        let f = field::<N>(&mut rng, n, amp, size);
        let half = size / 2.0;
        let o = Point3::new(
            rng.random_range(-half..half),
            rng.random_range(-1.0..4.0),
            rng.random_range(-half..half),
        );
        let d = Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        ) * 10f64.powf(rng.random_range(-2.0..2.0));
        let (o, len) = clip_to_footprint(o, d, -half);
        let max_t = len * rng.random_range(0.2..1.0);
        check(&f, o, d, max_t, &format!("case {case}"));
        let ray = Ray { origin: o.map(N::lit), dir: d.map(N::lit) };
        let s = QuerySettings::<N>::default();
        match composite_ray_cast(&Iso3::identity(), &f, &ray, N::lit(max_t), &s) {
            Some(_) => hits += 1,
            None => misses += 1,
        }
    }
    assert!(hits > 500 && misses > 500, "hits {hits}, misses {misses}");
}

#[test]
fn random_rays_match_the_oracle_f64() {
    random_rays::<f64>(0x4a71);
}

#[test]
fn random_rays_match_the_oracle_f32() {
    random_rays::<f32>(0x4a72);
}

/// The hit's normal is the normal of the triangle under it, turned to face the ray.
#[test]
fn normals_are_the_hit_triangles() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e57);
    let f = field::<f64>(&mut rng, 12, 3.0, 11.0);
    let s = QuerySettings::<f64>::default();
    let mut checked = 0;
    for _ in 0..2000 {
        let o = Point3::new(rng.random_range(-5.0..5.0), 5.0, rng.random_range(-5.0..5.0));
        let d = Vec3::new(rng.random_range(-1.0..1.0), -1.0, rng.random_range(-1.0..1.0));
        let ray = Ray { origin: o, dir: d };
        let Some(h) = composite_ray_cast(&Iso3::identity(), &f, &ray, 20.0, &s) else {
            continue;
        };
        let p = o + d * h.t;
        let (_, n) = height_under(&f, p.x, p.z).unwrap();
        // Near an edge, either triangle's normal is right.
        let (fx, fz) = ((p.x + 5.5).fract(), (p.z + 5.5).fract());
        let near_edge =
            [fx, 1.0 - fx, fz, 1.0 - fz, (fx + fz - 1.0).abs()].iter().any(|e| *e < 1e-6);
        if !near_edge {
            assert!((h.normal + n).norm() < 1e-9 || (h.normal - n).norm() < 1e-9);
            assert!(h.normal.y > 0.0, "a ray from above sees the upper side");
            checked += 1;
        }
    }
    assert!(checked > 1500, "{checked}");
}

/// A ray from below sees the underside; a ray starting on the surface hits at 0; a field far
/// from the origin answers as one at the origin; bad input misses.
#[test]
fn below_on_far_and_bad_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xbad);
    let f = field::<f64>(&mut rng, 6, 2.0, 5.0);
    let s = QuerySettings::<f64>::default();
    let up = Ray { origin: Point3::new(0.3, -1.0, 0.2), dir: Vec3::y() };
    let h = composite_ray_cast(&Iso3::identity(), &f, &up, 10.0, &s).unwrap();
    assert!(h.normal.y < 0.0);
    let (y, _) = height_under(&f, 0.3, 0.2).unwrap();
    assert!((h.t - (y + 1.0)).abs() < 1e-12);
    let on = Ray { origin: Point3::new(0.3, y, 0.2), dir: Vec3::new(0.3, 1.0, 0.1) };
    let h = composite_ray_cast(&Iso3::identity(), &f, &on, 10.0, &s).unwrap();
    assert!(h.t.abs() < 1e-12, "{}", h.t);

    let far = Iso3::from_parts(Translation3::new(1e5, -3e4, 7e4), Default::default());
    let down = Ray { origin: Point3::new(0.3, 5.0, 0.2), dir: -Vec3::y() };
    let moved = Ray { origin: far * down.origin, dir: down.dir };
    let near = composite_ray_cast(&Iso3::identity(), &f, &down, 10.0, &s).unwrap();
    let away = composite_ray_cast(&far, &f, &moved, 10.0, &s).unwrap();
    assert!((near.t - away.t).abs() < 1e-9, "{} {}", near.t, away.t);

    let nan = Ray { origin: Point3::new(f64::NAN, 5.0, 0.2), dir: -Vec3::y() };
    assert!(composite_ray_cast(&Iso3::identity(), &f, &nan, 10.0, &s).is_none());
    for max_t in [f64::NAN, -1.0] {
        assert!(composite_ray_cast(&Iso3::identity(), &f, &down, max_t, &s).is_none());
    }
    let still = Ray { origin: Point3::new(0.3, 5.0, 0.2), dir: Vec3::zeros() };
    assert!(composite_ray_cast(&Iso3::identity(), &f, &still, 10.0, &s).is_none());
    let huge = Ray { origin: Point3::new(0.3, 5.0, 0.2), dir: Vec3::new(1e-3, -1e30, 0.0) };
    let h = composite_ray_cast(&Iso3::identity(), &f, &huge, 1.0, &s).unwrap();
    assert!((h.t * 1e30 - (5.0 - y)).abs() < 1e-6);
}
