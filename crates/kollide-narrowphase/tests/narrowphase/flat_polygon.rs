//! A flat convex polygon in 3D (`ConvexPolyhedron::from_coplanar_points`, a polyhedron with two
//! opposite faces) through the queries: `manifold3` (a box resting on it touches at four points),
//! `contact` and `distance` against an independent linear-scan support map of the same points,
//! and `ray_cast` against the analytic plane crossing and point-in-polygon test.

use crate::common::Cloud;
use kollide_math::{Iso3, Point2, Point3, Rot3, Scalar, Vec3};
use kollide_narrowphase::{QuerySettings, Ray, contact, distance, manifold3, ray_cast};
use kollide_shapes::{Ball, ConvexPolyhedron, Cuboid, HasMass3, Shape3, ShapeError, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn l<N: Scalar>(x: f64) -> N {
    N::lit(x)
}

/// A 2 × 2 square in the `y = 0` plane, counter-clockwise seen from `+y`, with an extra point
/// inside and one on an edge (both merged away).
fn floor<N: Scalar>() -> ConvexPolyhedron<N> {
    let p = |x: f64, z: f64| Point3::new(l(x), N::zero(), l(z));
    let pts = [p(-1.0, -1.0), p(-1.0, 1.0), p(0.0, 1.0), p(1.0, 1.0), p(1.0, -1.0), p(0.2, 0.3)];
    ConvexPolyhedron::from_coplanar_points(&pts).unwrap()
}

fn box_resting<N: Scalar>(tol: f64) {
    let floor: Shape3<N> = floor::<N>().into();
    assert!(matches!(&floor, Shape3::Polyhedron(p) if p.is_flat() && p.vertices().len() == 4));
    let boxes: [Shape3<N>; 2] = [
        Cuboid::new(Vec3::repeat(l(0.25))).unwrap().into(),
        ConvexPolyhedron::from_cuboid(Vec3::repeat(l(0.25))).unwrap().into(),
    ];
    for b in &boxes {
        let pose_b =
            Iso3::new(Vec3::new(l(0.1), l(0.24), l(-0.2)), Vec3::new(N::zero(), l(0.3), N::zero()));
        let m = manifold3::<N, ()>(&Iso3::identity(), &floor, &pose_b, b, l(0.0));
        assert_eq!(m.len(), 4, "{b:?}");
        assert!((m.normal - Vec3::y()).norm().to_f64() < tol, "{:?}", m.normal);
        for c in m.contacts() {
            assert!((c.separation.to_f64() + 0.01).abs() < tol, "{}", c.separation);
            assert!(c.point_a.y.to_f64().abs() < tol, "on the floor: {:?}", c.point_a);
        }
        // Apart by 0.05 with a margin of 0.1: four predicted points.
        let up =
            Iso3::new(Vec3::new(l(0.1), l(0.30), l(-0.2)), Vec3::new(N::zero(), l(0.3), N::zero()));
        let m = manifold3::<N, ()>(&Iso3::identity(), &floor, &up, b, l(0.1));
        assert_eq!(m.len(), 4);
        assert!(m.contacts().iter().all(|c| (c.separation.to_f64() - 0.05).abs() < tol));
        // Beside the floor, not over it: nothing.
        let beside = Iso3::translation(l(2.0), l(0.0), l(0.0));
        assert!(manifold3::<N, ()>(&Iso3::identity(), &floor, &beside, b, l(0.1)).is_empty());
    }
}

#[test]
fn a_box_resting_on_a_flat_polygon_gives_four_points() {
    box_resting::<f64>(1e-9);
    box_resting::<f32>(1e-4);
}

/// A ball whose centre is on the floor's plane but outside its outline is apart from it (the
/// solid ball-polyhedron test would call the centre "inside" both face planes); one above the
/// middle touches it at one point.
#[test]
fn balls_and_the_flat_polygon() {
    let floor: Shape3<f64> = floor::<f64>().into();
    let ball: Shape3<f64> = Ball::new(0.25).unwrap().into();
    let beside = Iso3::translation(1.5, 0.0, 0.0);
    assert!(manifold3::<f64, ()>(&Iso3::identity(), &floor, &beside, &ball, 0.1).is_empty());
    let m = manifold3::<f64, ()>(
        &Iso3::identity(),
        &floor,
        &Iso3::translation(0.3, 0.2, 0.1),
        &ball,
        0.0,
    );
    assert_eq!(m.len(), 1);
    assert!((m.contacts()[0].separation + 0.05).abs() < 1e-9);
    assert!((m.normal - Vec3::y()).norm() < 1e-9);
    // Below the floor: pushed down.
    let m = manifold3::<f64, ()>(
        &Iso3::identity(),
        &floor,
        &Iso3::translation(0.3, -0.2, 0.1),
        &ball,
        0.0,
    );
    assert_eq!(m.len(), 1);
    assert!((m.normal + Vec3::y()).norm() < 1e-9);
}

/// A random convex polygon on a random plane: its points in 3D and the 2D coordinates they came
/// from, with the plane's pose.
fn random_flat(rng: &mut ChaCha8Rng) -> (Vec<Point2<f64>>, Iso3<f64>, ConvexPolyhedron<f64>) {
    let n = rng.random_range(3..12);
    let mut angles: Vec<f64> =
        (0..n).map(|_| rng.random_range(0.0..std::f64::consts::TAU)).collect();
    angles.sort_by(f64::total_cmp);
    angles.dedup_by(|a, b| (*a - *b).abs() < 0.1);
    let (rx, rz) = (rng.random_range(0.5..3.0), rng.random_range(0.5..3.0));
    let flat: Vec<Point2<f64>> =
        angles.iter().map(|a| Point2::new(rx * a.cos(), rz * a.sin())).collect();
    let plane = Iso3::new(
        Vec3::new(
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
            rng.random_range(-2.0..2.0),
        ),
        Vec3::new(
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
        ),
    );
    let pts: Vec<Point3<f64>> = flat.iter().map(|p| plane * Point3::new(p.x, 0.0, p.y)).collect();
    let poly = ConvexPolyhedron::from_coplanar_points(&pts);
    let poly = match poly {
        Ok(p) => p,
        // Fewer than three angles survived the spacing: draw again.
        Err(_) => return random_flat(rng),
    };
    (flat, plane, poly)
}

/// `contact` and `distance` of a box against the flat polygon agree with the same queries
/// against a linear-scan support map of the same points (a different shape implementation).
#[test]
fn contact_and_distance_agree_with_a_cloud_oracle() {
    contact_cases(false);
}

/// The contact identity `point_b − point_a = separation · normal` on the same cases, for the
/// flat polygon and for the linear-scan cloud alike (EPA's witness points on a flat Minkowski
/// face, issue 12 item 7).
#[test]
fn contact_identity_holds_on_the_flat_polygon() {
    contact_cases(true);
}

fn contact_cases(identity: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let settings = QuerySettings::default();
    let (mut hits, mut apart) = (0, 0);
    for case in 0..400 {
        let (_, plane, poly) = random_flat(&mut rng);
        let cloud = Cloud { points: poly.vertices().to_vec() };
        let b = Cuboid::new(Vec3::new(
            rng.random_range(0.1..1.0),
            rng.random_range(0.1..1.0),
            rng.random_range(0.1..1.0),
        ))
        .unwrap();
        let pose_b = Iso3::from_parts(
            (plane.translation.vector
                + Vec3::new(
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                ))
            .into(),
            Rot3::new(Vec3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
            )),
        );
        let id = Iso3::identity();
        let (d, _) = distance(&id, &poly, &pose_b, &b, &settings);
        let (d_ref, _) = distance(&id, &cloud, &pose_b, &b, &settings);
        assert!((d - d_ref).abs() < 1e-9, "case {case}: {d} vs {d_ref}");
        let got = contact(&id, &poly, &pose_b, &b, 10.0, &settings);
        let want = contact(&id, &cloud, &pose_b, &b, 10.0, &settings);
        let (got, want) = (got.expect("within the margin"), want.expect("within the margin"));
        assert!(
            (got.separation - want.separation).abs() < 1e-7,
            "case {case}: {} vs {}",
            got.separation,
            want.separation
        );
        // On a flat contact the witness is not unique: the cloud (no polytope structure, so
        // polished as a curved shape would be) may pick another point of the same face. Both
        // must lie on A's supporting plane along the normal.
        for c in [&got, &want] {
            let n = c.normal;
            let h = poly.support_point(&id, &n).coords.dot(&n);
            assert!((c.point_a.coords.dot(&n) - h).abs() < 1e-7, "case {case}: {c:?} off plane");
        }
        assert!((got.normal - want.normal).norm() < 1e-7, "case {case}: {got:?} vs {want:?}");
        if identity {
            let gap = got.point_b - got.point_a - got.normal * got.separation;
            assert!(gap.norm() < 1e-7, "case {case}: identity off by {}: {got:?}", gap.norm());
        }
        if got.separation < 0.0 {
            hits += 1;
        } else {
            apart += 1;
        }
    }
    assert!(hits > 50 && apart > 50, "both overlapping ({hits}) and apart ({apart}) cases ran");
}

/// `ray_cast` on the flat polygon gives the same hit as on the linear-scan cloud of its points.
#[test]
fn ray_cast_agrees_with_a_cloud_oracle() {
    ray_cases(false);
}

/// `ray_cast` against the plane crossing and a point-in-polygon test in the plane's coordinates,
/// for the flat polygon and the cloud alike (rays from outside once got `t = 0`, `Degenerate`:
/// issue 12 item 6).
#[test]
fn ray_cast_agrees_with_the_plane_crossing() {
    ray_cases(true);
}

fn ray_cases(analytic: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let settings = QuerySettings::default();
    let (mut hits, mut misses, mut should_hit) = (0, 0, 0);
    for case in 0..1000 {
        let (flat, plane, poly) = random_flat(&mut rng);
        // A target point on the plane, inside or outside the outline, and a ray towards it.
        let target = Point2::new(rng.random_range(-3.5..3.5), rng.random_range(-3.5..3.5));
        let inside_by = (0..flat.len())
            .map(|i| {
                let (a, b) = (flat[i], flat[(i + 1) % flat.len()]);
                let e = (b - a).normalize();
                // Positive inside (counter-clockwise in (x, z) seen from −y is clockwise from +y;
                // take the sign from the centroid instead of relying on the winding).
                let c = flat.iter().fold(Vec3::zeros(), |s, p| s + Vec3::new(p.x, 0.0, p.y))
                    / flat.len() as f64;
                let side = |p: Point2<f64>| e.x * (p.y - a.y) - e.y * (p.x - a.x);
                let s = side(Point2::new(c.x, c.z)).signum();
                s * side(target)
            })
            .fold(f64::INFINITY, f64::min);
        if inside_by.abs() < 1e-6 {
            continue;
        }
        let world_target = plane * Point3::new(target.x, 0.0, target.y);
        let height = rng.random_range(0.5..4.0) * if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        let slant = Vec3::new(rng.random_range(-1.0..1.0), 0.0, rng.random_range(-1.0..1.0));
        let origin = world_target + plane.rotation * (Vec3::y() * height + slant);
        let dir = (world_target - origin) * 0.5; // t = 2 at the plane
        let ray = Ray { origin, dir };
        let hit = ray_cast(&Iso3::identity(), &poly, &ray, 10.0, &settings);
        let cloud = Cloud { points: poly.vertices().to_vec() };
        let hit_ref = ray_cast(&Iso3::identity(), &cloud, &ray, 10.0, &settings);
        match (hit, hit_ref) {
            (Some(h), Some(r)) => assert!((h.t - r.t).abs() < 1e-9, "case {case}: {h:?} vs {r:?}"),
            (None, None) => {}
            other => panic!("case {case}: {other:?}"),
        }
        if !analytic {
            hits += usize::from(hit.is_some());
            misses += usize::from(hit.is_none());
            should_hit += usize::from(inside_by > 0.0);
            continue;
        }
        if inside_by > 0.0 {
            let h = hit.unwrap_or_else(|| panic!("case {case}: missed, {inside_by} inside"));
            assert!((h.t - 2.0).abs() < 1e-9, "case {case}: t = {}", h.t);
            let n_plane = plane.rotation * Vec3::y();
            assert!(
                h.normal.dot(&n_plane).abs() > 1.0 - 1e-9,
                "case {case}: normal {:?}",
                h.normal
            );
            assert!(h.normal.dot(&dir) < 0.0, "the normal faces the ray");
            hits += 1;
        } else {
            assert!(hit.is_none(), "case {case}: hit {hit:?} though {} outside", -inside_by);
            misses += 1;
        }
    }
    println!("{hits} hits and {misses} misses; {should_hit} rays aim inside the outline");
    assert!(hits > 50 && misses > 200, "{hits} hits, {misses} misses");
}

#[test]
fn flat_polygon_errors() {
    let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    let square = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(1.0, 0.0, 1.0), p(0.0, 0.0, 1.0)];
    let poly = ConvexPolyhedron::from_coplanar_points(&square).unwrap();
    assert_eq!(poly.mass_properties(1.0), Err(ShapeError::NoMass("flat polygon")));
    assert!(poly.face_normal(0).y < 0.0, "counter-clockwise in the order given, seen from −y");
    assert!((poly.local_support_point(&Vec3::new(1.0, 0.0, 1.0)) - p(1.0, 0.0, 1.0)).norm() == 0.0);
    let mut bent = square;
    bent[2].y = 1e-3;
    assert!(matches!(
        ConvexPolyhedron::from_coplanar_points(&bent),
        Err(ShapeError::NotCoplanar { .. })
    ));
    let line = [p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0), p(2.0, 2.0, 2.0)];
    assert_eq!(
        ConvexPolyhedron::from_coplanar_points(&line),
        Err(ShapeError::Degenerate("collinear"))
    );
    assert_eq!(
        ConvexPolyhedron::from_coplanar_points(&square[..2]),
        Err(ShapeError::TooFewPoints { got: 2, needed: 3 })
    );
    // A solid is refused by the flat constructor, and a flat cloud by the solid one.
    let tet = [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0), p(0.0, 0.0, 1.0)];
    assert!(matches!(
        ConvexPolyhedron::from_coplanar_points(&tet),
        Err(ShapeError::NotCoplanar { .. })
    ));
    assert_eq!(ConvexPolyhedron::from_points(&square), Err(ShapeError::Degenerate("coplanar")));
    // Far from the origin (f64) and in f32 within the envelope.
    let far: Vec<Point3<f64>> = square.iter().map(|q| q + Vec3::new(1e6, -1e6, 1e6)).collect();
    assert_eq!(ConvexPolyhedron::from_coplanar_points(&far).unwrap().vertices().len(), 4);
    let far32: Vec<Point3<f32>> =
        square.iter().map(|q| (q + Vec3::new(9e4, 0.0, -9e4)).cast::<f32>()).collect();
    assert_eq!(ConvexPolyhedron::from_coplanar_points(&far32).unwrap().vertices().len(), 4);
    assert_eq!(SupportMap::<f64, 3>::radius(&poly), 0.0);
}
