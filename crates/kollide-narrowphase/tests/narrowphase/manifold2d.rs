//! 2D manifolds: the seed's pictures in words as named cases, properties on random pairs
//! (symmetry, points on both surfaces, deepest point = EPA depth, normal = SAT normal), and
//! feature-id stability of a resting box.

use crate::common::*;
use kollide_manifold::Manifold;
use kollide_math::{Iso2, Point2, Vec2};
use kollide_narrowphase::{QuerySettings, contact, manifold2, polygon_separation};
use kollide_shapes::{Capsule, Circle, ConvexPolygon, Cuboid, Shape2, SupportMap};
use rand::Rng;
use rstest::rstest;

fn cuboid(hx: f64, hy: f64) -> Shape2<f64> {
    Cuboid::new(Vec2::new(hx, hy)).unwrap().into()
}

fn capsule(half: f64, r: f64) -> Shape2<f64> {
    Capsule::new(Point2::new(-half, 0.0), Point2::new(half, 0.0), r).unwrap().into()
}

fn m(
    pa: Iso2<f64>,
    a: &Shape2<f64>,
    pb: Iso2<f64>,
    b: &Shape2<f64>,
    margin: f64,
) -> Manifold<f64, 2> {
    manifold2(&pa, a, &pb, b, margin)
}

#[rstest]
// A unit box resting 1 cm deep on a wide box: two contacts, both 1 cm deep, normal up.
#[case::box_resting_on_box(cuboid(5.0, 0.5), Iso2::translation(0.0, -0.5), cuboid(0.5, 0.5), Iso2::translation(0.3, 0.49), 2, -0.01, Vec2::y())]
// A box rotated 45° pushing its corner 0.1 into a face: one contact.
#[case::rotated_box_corner_into_face(cuboid(5.0, 0.5), Iso2::translation(0.0, -0.5), cuboid(0.5, 0.5), Iso2::new(Vec2::new(0.0, 0.5f64.sqrt() - 0.1), std::f64::consts::FRAC_PI_4), 1, -0.1, Vec2::y())]
// A circle whose centre is inside a box, 0.2 below the top face: pushed out through the top.
#[case::circle_centre_inside_box(cuboid(1.0, 1.0), Iso2::identity(), Circle::new(0.5).unwrap().into(), Iso2::translation(0.1, 0.8), 1, -0.7, Vec2::y())]
// Coincident circles: the documented normal (A's +x), depth = sum of radii.
#[case::coincident_circles(Circle::new(0.5).unwrap().into(), Iso2::translation(2.0, 1.0), Circle::new(0.25).unwrap().into(), Iso2::translation(2.0, 1.0), 1, -0.75, Vec2::x())]
// Parallel capsules, one on the other, overlapping 0.1: two contacts.
#[case::parallel_capsules(capsule(1.0, 0.25), Iso2::identity(), capsule(0.5, 0.25), Iso2::translation(0.3, 0.4), 2, -0.1, Vec2::y())]
// Capsules end to end, 0.05 apart, with a 0.1 margin: one speculative vertex–vertex contact.
#[case::capsules_end_to_end(
    capsule(1.0, 0.25),
    Iso2::identity(),
    capsule(1.0, 0.25),
    Iso2::translation(2.55, 0.0),
    1,
    0.05,
    Vec2::x()
)]
// Circle on a capsule's side.
#[case::circle_on_capsule(capsule(1.0, 0.25), Iso2::identity(), Circle::new(0.5).unwrap().into(), Iso2::translation(0.2, 0.7), 1, -0.05, Vec2::y())]
fn named_cases(
    #[case] a: Shape2<f64>,
    #[case] pa: Iso2<f64>,
    #[case] b: Shape2<f64>,
    #[case] pb: Iso2<f64>,
    #[case] count: usize,
    #[case] sep: f64,
    #[case] normal: Vec2<f64>,
) {
    let man = m(pa, &a, pb, &b, 0.1);
    assert_eq!(man.len(), count, "{man:?}");
    assert!((man.normal - normal).norm() < 1e-9, "normal {:?}", man.normal);
    for c in man.contacts() {
        assert!((c.separation - sep).abs() < 1e-9, "separation {} vs {sep}", c.separation);
        let gap = (c.point_b - c.point_a).dot(&man.normal);
        assert!((gap - c.separation).abs() < 1e-9);
    }
    // Swapping A and B gives the flipped manifold (coincident centres have no unique normal).
    let swapped = m(pb, &b, pa, &a, 0.1);
    assert_eq!(swapped.len(), count);
    if pa.translation != pb.translation {
        assert!((swapped.normal + man.normal).norm() < 1e-9);
    }
}

#[test]
fn resting_box_keeps_its_reference_face_and_ids_under_rotation_noise() {
    let ground = cuboid(5.0, 0.5);
    let b = cuboid(0.5, 0.5);
    let mut rng = rng(41);
    let first = m(Iso2::translation(0.0, -0.5), &ground, Iso2::translation(0.0, 0.495), &b, 0.01);
    assert_eq!(first.len(), 2);
    for _ in 0..100 {
        let noise = rng.random_range(-1e-4..1e-4);
        let man = m(
            Iso2::translation(0.0, -0.5),
            &ground,
            Iso2::new(Vec2::new(0.0, 0.495), noise),
            &b,
            0.01,
        );
        assert_eq!(man.len(), 2);
        let ids: Vec<_> = man.contacts().iter().map(|c| c.id).collect();
        let first_ids: Vec<_> = first.contacts().iter().map(|c| c.id).collect();
        assert_eq!(ids, first_ids);
        assert!((man.normal - Vec2::y()).norm() < 1e-12, "the ground stays the reference");
    }
    // The same with two equal boxes stacked (the nearly-tied case the bias is for).
    let first = m(Iso2::identity(), &b, Iso2::translation(0.0, 0.995), &b, 0.01);
    for _ in 0..100 {
        let noise = rng.random_range(-1e-4..1e-4);
        let man = m(Iso2::identity(), &b, Iso2::new(Vec2::new(0.0, 0.995), noise), &b, 0.01);
        let ids: Vec<_> = man.contacts().iter().map(|c| c.id).collect();
        let first_ids: Vec<_> = first.contacts().iter().map(|c| c.id).collect();
        assert_eq!(ids, first_ids);
    }
}

/// The signed distance from `p` to the boundary of a (rounded) shape, for polygons: the largest
/// edge-plane distance (exact inside and in face regions) or the vertex distance.
fn boundary_distance(shape: &Shape2<f64>, pose: &Iso2<f64>, p: &Point2<f64>) -> f64 {
    let q = pose.inverse_transform_point(p);
    let r = shape.radius();
    // Distance to the core: by GJK against a point (a tiny circle) is overkill; sample the core
    // support function instead through its vertices where available.
    let core_dist = match shape {
        Shape2::Polygon(poly) => {
            let inside = poly
                .normals()
                .iter()
                .zip(poly.vertices())
                .map(|(n, v)| n.dot(&(q - v)))
                .fold(f64::MIN, f64::max);
            if inside <= 0.0 {
                inside
            } else {
                let n = poly.len();
                (0..n)
                    .map(|i| {
                        let (a, b) = (poly.vertex(i), poly.vertex(i + 1));
                        let e = b - a;
                        let t = ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
                        (q - (a + e * t)).norm()
                    })
                    .fold(f64::MAX, f64::min)
            }
        }
        Shape2::Capsule(c) => {
            let (a, b) = (c.segment().a(), c.segment().b());
            let e = b - a;
            let t = ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            (q - (a + e * t)).norm()
        }
        Shape2::Circle(_) => q.coords.norm(),
        _ => unreachable!(),
    };
    core_dist - r
}

#[test]
fn random_pairs_satisfy_the_manifold_properties() {
    let mut rng = rng(42);
    let s = QuerySettings::<f64>::default();
    let mut done = 0;
    let mut symmetric_checked = 0;
    while done < 3_000 {
        let kind = rng.random_range(0..3);
        let a: Shape2<f64> =
            ConvexPolygon::from_convex_ccw(&random_polygon(&mut rng)).unwrap().into();
        let b: Shape2<f64> = match kind {
            0 => ConvexPolygon::from_convex_ccw(&random_polygon(&mut rng)).unwrap().into(),
            1 => capsule(rng.random_range(0.1..1.0), rng.random_range(0.05..0.5)),
            _ => Circle::new(rng.random_range(0.05..1.0)).unwrap().into(),
        };
        let pa = random_pose(&mut rng, Vec2::zeros(), 0.0);
        let pb = random_pose(&mut rng, Vec2::zeros(), 1.5);
        let man = m(pa, &a, pb, &b, 0.0);
        let exact = contact(&pa, &a, &pb, &b, 0.0, &s);
        match exact {
            None => {
                assert!(man.is_empty(), "manifold without overlap");
                continue;
            }
            Some(c) if c.separation > -1e-6 => continue,
            Some(_) => {}
        }
        let c = exact.unwrap();
        done += 1;
        assert!(!man.is_empty(), "EPA finds depth {} but the manifold is empty", -c.separation);
        // The deepest contact is the EPA depth, and the normal is the EPA/SAT normal.
        // The biased reference-face choice may cost up to 1e-4 of the shapes' size (~1 here).
        let deepest = man.min_separation().unwrap();
        assert!((deepest - c.separation).abs() < 1e-4, "deepest {deepest} vs EPA {}", c.separation);
        assert!(deepest <= c.separation + 1e-9, "the manifold is never shallower than EPA");
        if let (0, Shape2::Polygon(x), Shape2::Polygon(y)) = (kind, &a, &b) {
            let sat = polygon_separation(&pa, x, &pb, y);
            assert!((sat.separation - deepest).abs() < 1e-4);
        }
        assert!((man.normal - c.normal).norm() < 1e-4 || (deepest - c.separation).abs() > 1e-9);
        // Every contact point is on its shape's surface.
        for k in man.contacts() {
            assert!(boundary_distance(&a, &pa, &k.point_a).abs() < 1e-7, "point_a off A");
            let db = boundary_distance(&b, &pb, &k.point_b);
            // A rounded shape's non-deepest point sits a radius below its core point along the
            // normal: on the surface when the core edge is parallel to the reference face, inside
            // (by less than the radius) when it is tilted, never outside. See `manifold/polygon.rs`.
            let inside_allowance = if kind == 1 { b.radius() } else { 1e-7 };
            assert!(db < 1e-7 && db > -inside_allowance, "point_b off B by {db}: kind {kind}");
        }
        // Symmetry when the reference face choice is not a near tie.
        let swapped = m(pb, &b, pa, &a, 0.0).flipped();
        if (swapped.normal - man.normal).norm() < 1e-9 && swapped.len() == man.len() {
            symmetric_checked += 1;
            for (x, y) in man.contacts().iter().zip(swapped.contacts()) {
                assert!((x.separation - y.separation).abs() < 1e-9);
            }
        }
    }
    assert!(symmetric_checked > 2_000, "symmetric cases {symmetric_checked}");
}

/// Two identical capsules at one pose (hostile case 0x080f0582665a9a05, `f64`): the cores'
/// SAT separation is zero give or take rounding, and when the rounding made it positive the
/// end-to-end rule took the line between two coincident end points as the normal, nearly along
/// the axis. The normal must be the axis's perpendicular, with both ends in contact 2r deep.
/// (Without the guard against such ends, this test fails.)
#[test]
fn identical_capsules_at_one_pose_are_pushed_apart_across_their_axis() {
    let mut rng = rng(0xca95);
    for _ in 0..500 {
        let mut p = || Point2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
        let (a, b) = (p(), p());
        let r = rng.random_range(0.01..15.0);
        let shape: Shape2<f64> = Capsule::new(a, b, r).unwrap().into();
        let pose = Iso2::new(Vec2::new(rng.random_range(-30.0..30.0), 0.0), rng.random());
        let axis = pose.rotation * (b - a).normalize();
        let k = m(pose, &shape, pose, &shape, 0.0);
        assert_eq!(k.len(), 2, "{k:?}");
        assert!(k.normal.dot(&axis).abs() < 1e-9, "normal {:?} along the axis {axis:?}", k.normal);
        for c in k.contacts() {
            assert!((c.separation + 2.0 * r).abs() < 1e-9 * r.max(1.0), "{c:?}");
            let id = c.point_b - c.point_a - k.normal * c.separation;
            assert!(id.norm() < 1e-9 * 60.0, "{c:?}");
        }
    }
}
