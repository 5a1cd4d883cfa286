//! Shapes whose Minkowski difference is flat: a ball centred on a triangle, a segment or a
//! capsule's axis, and coplanar triangles. The cores touch, so EPA has no volume (area) to expand, and the only
//! normals with zero overlap are the ones across the flat difference: the triangle's plane
//! normal, a direction perpendicular to the segment. Any other direction overlaps by the flat
//! part's extent along it, so the normal is checked, not just the depth.

use kollide_math::{Iso2, Iso3, Point2, Point3, Scalar, Vec2, Vec3};
use kollide_narrowphase::{QuerySettings, contact, manifold3};
use kollide_shapes::{Ball, Capsule, Circle, Segment, Shape3, Triangle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn tol<N: Scalar>() -> f64 {
    if N::EPSILON.to_f64() > 1e-10 { 2e-4 } else { 1e-9 }
}

fn p3<N: Scalar>(r: &mut ChaCha8Rng, s: f64) -> Point3<N> {
    Point3::new(
        N::lit(r.random_range(-s..s)),
        N::lit(r.random_range(-s..s)),
        N::lit(r.random_range(-s..s)),
    )
}

fn pose3<N: Scalar>(r: &mut ChaCha8Rng) -> Iso3<N> {
    let t = p3::<N>(r, 3.0).coords;
    let axis = p3::<N>(r, 2.0).coords;
    Iso3::new(t, axis)
}

/// A random triangle that is not a sliver.
fn triangle<N: Scalar>(r: &mut ChaCha8Rng) -> Triangle<N, 3> {
    loop {
        let (a, b, c) = (p3::<N>(r, 1.0), p3::<N>(r, 1.0), p3::<N>(r, 1.0));
        let area = (b - a).cross(&(c - a)).norm().to_f64();
        if area > 0.2 {
            return Triangle::new(a, b, c).unwrap();
        }
    }
}

/// A point inside the triangle, away from its edges.
fn inside<N: Scalar>(r: &mut ChaCha8Rng, t: &Triangle<N, 3>) -> Point3<N> {
    let (u, v) = (r.random_range(0.1..0.8), r.random_range(0.1..0.8));
    let (u, v) = if u + v > 0.9 { (0.9 - v, 0.9 - u) } else { (u, v) };
    let [a, b, c] = t.vertices();
    a + (b - a) * N::lit(u) + (c - a) * N::lit(v)
}

fn face_normal<N: Scalar>(t: &Triangle<N, 3>) -> Vec3<N> {
    let [a, b, c] = t.vertices();
    (b - a).cross(&(c - a)).normalize()
}

fn ball_on_triangle<N: Scalar>() {
    let mut r = ChaCha8Rng::seed_from_u64(41);
    let settings = QuerySettings::<N>::default();
    for case in 0..500 {
        let tri = triangle::<N>(&mut r);
        let pose_t = pose3::<N>(&mut r);
        let radius = r.random_range(0.05..2.0);
        let ball = Ball::new(N::lit(radius)).unwrap();
        let centre = pose_t.transform_point(&inside(&mut r, &tri));
        let pose_b = Iso3::new(centre.coords, p3::<N>(&mut r, 2.0).coords);
        let plane = pose_t.rotation * face_normal(&tri);
        for (c, sign) in [
            (contact(&pose_b, &ball, &pose_t, &tri, N::zero(), &settings), 1.0),
            (contact(&pose_t, &tri, &pose_b, &ball, N::zero(), &settings), -1.0),
        ] {
            let c = c.unwrap_or_else(|| panic!("case {case}: no contact"));
            let t = tol::<N>() * radius.max(1.0);
            assert!(
                (c.separation.to_f64() + radius).abs() <= t,
                "case {case}: separation {:?}, want {}",
                c.separation,
                -radius
            );
            let along = c.normal.dot(&plane).to_f64().abs();
            assert!(
                along >= 1.0 - tol::<N>(),
                "case {case} ({sign}): normal off the plane normal by {}",
                1.0 - along
            );
            let id = (c.point_b - c.point_a - c.normal * c.separation).norm().to_f64();
            assert!(id <= t, "case {case}: identity off by {id}");
        }
    }
}

#[test]
fn ball_on_triangle_f32() {
    ball_on_triangle::<f32>();
}

#[test]
fn ball_on_triangle_f64() {
    ball_on_triangle::<f64>();
}

fn coplanar_triangles<N: Scalar>() {
    let mut r = ChaCha8Rng::seed_from_u64(42);
    let settings = QuerySettings::<N>::default();
    for case in 0..500 {
        let a = triangle::<N>(&mut r);
        // B: another triangle in A's plane, around a point inside A.
        let n = face_normal(&a);
        let (u, w) = {
            let e = (a.vertices()[1] - a.vertices()[0]).normalize();
            (e, n.cross(&e))
        };
        let o = inside(&mut r, &a);
        let mut corner = |k: f64| {
            let ang = k * 2.1 + r.random_range(-0.3..0.3);
            let rad = r.random_range(0.2..1.0);
            o + u * N::lit(rad * ang.cos()) + w * N::lit(rad * ang.sin())
        };
        let b = Triangle::new(corner(0.0), corner(1.0), corner(2.0)).unwrap();
        let pose = pose3::<N>(&mut r);
        let heights: Vec<f64> =
            b.vertices().iter().map(|v| (v - a.vertices()[0]).dot(&n).to_f64()).collect();
        // A small margin: B's corners are in A's plane only to rounding, so the pair may be
        // apart by an ulp, which is still within the margin.
        let c = contact(&pose, &a, &pose, &b, N::lit(1e-3), &settings)
            .unwrap_or_else(|| panic!("case {case}: no contact, heights {heights:?}"));
        let t = tol::<N>() * 2.0;
        assert!(c.separation.to_f64().abs() <= t, "case {case}: separation {:?}", c.separation);
        let along = c.normal.dot(&(pose.rotation * n)).to_f64().abs();
        assert!(
            along >= 1.0 - tol::<N>(),
            "case {case}: normal off the plane normal by {}",
            1.0 - along
        );
    }
}

#[test]
fn coplanar_triangles_f32() {
    coplanar_triangles::<f32>();
}

#[test]
fn coplanar_triangles_f64() {
    coplanar_triangles::<f64>();
}

fn ball_on_segment<N: Scalar>() {
    let mut r = ChaCha8Rng::seed_from_u64(43);
    let settings = QuerySettings::<N>::default();
    for case in 0..500 {
        let p = |r: &mut ChaCha8Rng| {
            Point2::new(N::lit(r.random_range(-1.0..1.0)), N::lit(r.random_range(-1.0..1.0)))
        };
        let (a, b) = (p(&mut r), p(&mut r));
        if (b - a).norm().to_f64() < 0.3 {
            continue;
        }
        let seg = Segment::new(a, b).unwrap();
        let pose_s = Iso2::new(
            Vec2::new(N::lit(r.random_range(-3.0..3.0)), N::lit(r.random_range(-3.0..3.0))),
            N::lit(r.random_range(-3.0..3.0)),
        );
        let radius = r.random_range(0.05..2.0);
        let ball = Circle::new(N::lit(radius)).unwrap();
        let centre = pose_s.transform_point(&(a + (b - a) * N::lit(r.random_range(0.1..0.9))));
        let pose_b = Iso2::new(centre.coords, N::lit(r.random_range(-3.0..3.0)));
        let along_seg = pose_s.rotation * (b - a).normalize();
        let c = contact(&pose_s, &seg, &pose_b, &ball, N::zero(), &settings)
            .unwrap_or_else(|| panic!("case {case}: no contact"));
        let t = tol::<N>() * radius.max(1.0);
        assert!(
            (c.separation.to_f64() + radius).abs() <= t,
            "case {case}: separation {:?}",
            c.separation
        );
        let across = c.normal.dot(&along_seg).to_f64().abs();
        assert!(
            across <= tol::<N>().sqrt() * 0.1,
            "case {case}: normal {:?} not across the segment",
            c.normal
        );
    }
}

#[test]
fn ball_on_segment_f32() {
    ball_on_segment::<f32>();
}

#[test]
fn ball_on_segment_f64() {
    ball_on_segment::<f64>();
}

/// A ball centred on a capsule's axis, through the manifold routine: the capsule's contact point
/// lies on its side (at its radius from the axis), wherever rounding puts the centre.
fn ball_on_capsule_axis<N: Scalar>() {
    let mut r = ChaCha8Rng::seed_from_u64(44);
    let mut checked = 0;
    for case in 0..500 {
        let (a, b) = (p3::<N>(&mut r, 3.0), p3::<N>(&mut r, 3.0));
        if (b - a).norm().to_f64() < 0.5 {
            continue;
        }
        let cap_r = r.random_range(0.1..4.0);
        let capsule: Shape3<N> = Capsule::new(a, b, N::lit(cap_r)).unwrap().into();
        let pose_c = pose3::<N>(&mut r);
        let ball_r = r.random_range(0.05..1.0);
        let ball: Shape3<N> = Ball::new(N::lit(ball_r)).unwrap().into();
        let on_axis = a + (b - a) * N::lit(r.random_range(0.1..0.9));
        let pose_b =
            Iso3::new(pose_c.transform_point(&on_axis).coords, p3::<N>(&mut r, 2.0).coords);
        let m = manifold3::<N, ()>(&pose_c, &capsule, &pose_b, &ball, N::zero());
        let c = m.contacts().first().unwrap_or_else(|| panic!("case {case}: no contact"));
        let local = pose_c.inverse_transform_point(&c.point_a);
        let axis = (b - a).normalize();
        let off = (local - a) - axis * axis.dot(&(local - a));
        let t = tol::<N>() * 10.0;
        assert!(
            (off.norm().to_f64() - cap_r).abs() <= t * cap_r.max(1.0),
            "case {case}: the capsule's point is {} from the axis, radius {cap_r}",
            off.norm()
        );
        assert!((c.separation.to_f64() + cap_r + ball_r).abs() <= t * 4.0, "case {case}: {c:?}");
        checked += 1;
    }
    assert!(checked > 400);
}

#[test]
fn ball_on_capsule_axis_f32() {
    ball_on_capsule_axis::<f32>();
}

#[test]
fn ball_on_capsule_axis_f64() {
    ball_on_capsule_axis::<f64>();
}
