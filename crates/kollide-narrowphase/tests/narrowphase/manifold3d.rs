//! 3D manifolds: named cases with exact answers (in f64 and f32), properties on random pairs
//! (symmetry, points on both surfaces, deepest point = exact GJK/EPA depth and never shallower,
//! normal = EPA normal, never empty on overlap), and feature-id stability of resting boxes.

use crate::common::{point_segment, rng};
use kollide_manifold::{ContactId, Manifold};
use kollide_math::{Iso3, Point3, Rot3, Scalar, Vec3};
use kollide_narrowphase::{QuerySettings, contact, manifold3};
use kollide_shapes::{Ball, Capsule, ConvexPolyhedron, Cuboid, Cylinder, Shape3};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rstest::rstest;

fn l<N: Scalar>(x: f64) -> N {
    N::lit(x)
}

fn v<N: Scalar>(x: f64, y: f64, z: f64) -> Vec3<N> {
    Vec3::new(l(x), l(y), l(z))
}

fn cuboid<N: Scalar>(x: f64, y: f64, z: f64) -> Shape3<N> {
    Cuboid::new(v(x, y, z)).unwrap().into()
}

fn ball<N: Scalar>(r: f64) -> Shape3<N> {
    Ball::new(l(r)).unwrap().into()
}

/// A capsule along local x.
fn capsule_x<N: Scalar>(half: f64, r: f64) -> Shape3<N> {
    Capsule::new(Point3::from(v(-half, 0.0, 0.0)), Point3::from(v(half, 0.0, 0.0)), l(r))
        .unwrap()
        .into()
}

fn at<N: Scalar>(x: f64, y: f64, z: f64) -> Iso3<N> {
    Iso3::translation(l(x), l(y), l(z))
}

fn rotated<N: Scalar>(x: f64, y: f64, z: f64, axis_angle: [f64; 3]) -> Iso3<N> {
    Iso3::new(v(x, y, z), v(axis_angle[0], axis_angle[1], axis_angle[2]))
}

/// The shapes and poses of a named case.
type Case<N> = (Shape3<N>, Iso3<N>, Shape3<N>, Iso3<N>);

fn case<N: Scalar>(name: &str) -> Case<N> {
    let h = 0.5f64.sqrt();
    match name {
        // A unit cube resting 1 cm deep on a wide box.
        "cube_on_wide_box" => {
            (cuboid(5.0, 0.5, 5.0), at(0.0, -0.5, 0.0), cuboid(0.5, 0.5, 0.5), at(0.3, 0.49, -0.2))
        }
        // A unit cube turned 45° about the vertical, 1 cm into an equal cube: the clipped
        // face is an octagon, reduced to four points.
        "cube_rotated_45_on_box" => (
            cuboid(0.5, 0.5, 0.5),
            at(0.0, 0.0, 0.0),
            cuboid(0.5, 0.5, 0.5),
            rotated(0.0, 0.99, 0.0, [0.0, core::f64::consts::FRAC_PI_4, 0.0]),
        ),
        // A cube standing on a corner, 0.1 into a face.
        "cube_corner_into_face" => {
            let down = Rot3::rotation_between(&v::<f64>(-1.0, -1.0, -1.0), &-Vec3::y()).unwrap();
            let pose = Iso3::from_parts(v(0.0, 0.75f64.sqrt() - 0.1, 0.0).into(), down.cast());
            (cuboid(5.0, 0.5, 5.0), at(0.0, -0.5, 0.0), cuboid(0.5, 0.5, 0.5), pose)
        }
        // Two cubes standing on edges, the top one's bottom edge (along x) crossing the bottom
        // one's top edge (along z), 0.05 deep: one contact, normal z × x = y.
        "edge_edge_crossing" => (
            cuboid(0.5, 0.5, 0.5),
            rotated(0.0, 0.0, 0.0, [0.0, 0.0, core::f64::consts::FRAC_PI_4]),
            cuboid(0.5, 0.5, 0.5),
            rotated(0.0, 2.0 * h - 0.05, 0.0, [core::f64::consts::FRAC_PI_4, 0.0, 0.0]),
        ),
        // A ball whose centre is inside a box, 0.2 below the top face.
        "ball_centre_inside_box" => {
            (cuboid(1.0, 1.0, 1.0), at(0.0, 0.0, 0.0), ball(0.5), at(0.1, 0.8, 0.2))
        }
        // Coincident balls: the documented normal (A's +x), depth = sum of radii.
        "coincident_balls" => (ball(0.5), at(2.0, 1.0, 0.0), ball(0.25), at(2.0, 1.0, 0.0)),
        // One capsule on another, parallel, 0.1 deep: two contacts.
        "parallel_capsules" => {
            (capsule_x(1.0, 0.25), at(0.0, 0.0, 0.0), capsule_x(0.5, 0.25), at(0.3, 0.4, 0.0))
        }
        // A capsule lying 1 cm deep on a box: two contacts.
        "capsule_on_box" => {
            (cuboid(2.0, 0.5, 2.0), at(0.0, -0.5, 0.0), capsule_x(0.5, 0.25), at(0.1, 0.24, 0.3))
        }
        // A cylinder standing 1 cm deep on a box: points of the cap's rim.
        "cylinder_on_box" => (
            cuboid(2.0, 0.5, 2.0),
            at(0.0, -0.5, 0.0),
            Cylinder::new(l(0.5), l(0.3)).unwrap().into(),
            at(0.2, 0.49, 0.0),
        ),
        _ => unreachable!("unknown case {name}"),
    }
}

fn check_case<N: Scalar>(name: &str, count: (usize, usize), sep: f64, normal: [f64; 3], tol: f64) {
    let (a, pa, b, pb) = case::<N>(name);
    let margin = l::<N>(0.1);
    let man: Manifold<N, 3> = manifold3(&pa, &a, &pb, &b, margin);
    assert!(man.len() >= count.0 && man.len() <= count.1, "{name}: {} contacts", man.len());
    let normal = v::<N>(normal[0], normal[1], normal[2]);
    assert!((man.normal - normal).norm().to_f64() < tol, "{name}: normal {:?}", man.normal);
    for c in man.contacts() {
        assert!(
            (c.separation.to_f64() - sep).abs() < tol,
            "{name}: separation {} vs {sep}",
            c.separation
        );
        let gap = (c.point_b - c.point_a).dot(&man.normal);
        assert!((gap - c.separation).to_f64().abs() < tol, "{name}: points vs separation");
    }
    if name == "cylinder_on_box" {
        // Every point is on the cap's rim (the inscribed octagon's corners are on the circle).
        for c in man.contacts() {
            let local = pb.inverse_transform_point(&c.point_b);
            let radial = (local.x * local.x + local.z * local.z).sqrt();
            assert!((radial.to_f64() - 0.3).abs() < tol && (local.y.to_f64() + 0.5).abs() < tol);
        }
    }
    if name == "edge_edge_crossing" {
        let c = man.contacts()[0];
        let h = 0.5f64.sqrt();
        assert!((c.point_a - Point3::from(v::<N>(0.0, h, 0.0))).norm().to_f64() < tol);
        assert!((c.point_b - Point3::from(v::<N>(0.0, h - 0.05, 0.0))).norm().to_f64() < tol);
    }
    // Swapping A and B gives the flipped manifold (coincident centres have no unique normal).
    let swapped: Manifold<N, 3> = manifold3(&pb, &b, &pa, &a, margin);
    assert_eq!(swapped.len(), man.len(), "{name}: swapped count");
    if pa.translation != pb.translation {
        assert!((swapped.normal + man.normal).norm().to_f64() < tol, "{name}: swapped normal");
    }
}

#[rstest]
#[case::cube_on_wide_box("cube_on_wide_box", (4, 4), -0.01, [0.0, 1.0, 0.0])]
#[case::cube_rotated_45_on_box("cube_rotated_45_on_box", (4, 4), -0.01, [0.0, 1.0, 0.0])]
#[case::cube_corner_into_face("cube_corner_into_face", (1, 1), -0.1, [0.0, 1.0, 0.0])]
#[case::edge_edge_crossing("edge_edge_crossing", (1, 1), -0.05, [0.0, 1.0, 0.0])]
#[case::ball_centre_inside_box("ball_centre_inside_box", (1, 1), -0.7, [0.0, 1.0, 0.0])]
#[case::coincident_balls("coincident_balls", (1, 1), -0.75, [1.0, 0.0, 0.0])]
#[case::parallel_capsules("parallel_capsules", (2, 2), -0.1, [0.0, 1.0, 0.0])]
#[case::capsule_on_box("capsule_on_box", (2, 2), -0.01, [0.0, 1.0, 0.0])]
#[case::cylinder_on_box("cylinder_on_box", (3, 4), -0.01, [0.0, 1.0, 0.0])]
fn named_cases(
    #[case] name: &str,
    #[case] count: (usize, usize),
    #[case] sep: f64,
    #[case] normal: [f64; 3],
) {
    check_case::<f64>(name, count, sep, normal, 1e-7);
    check_case::<f32>(name, count, sep, normal, 2e-4);
}

/// A random rotation.
fn random_rotation(rng: &mut ChaCha8Rng) -> Rot3<f64> {
    let axis = Vec3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    Rot3::from_scaled_axis(axis.normalize() * rng.random_range(0.0..core::f64::consts::PI))
}

fn random_shape(rng: &mut ChaCha8Rng, kind: u32) -> Shape3<f64> {
    match kind {
        0 => cuboid(
            rng.random_range(0.1..1.0),
            rng.random_range(0.1..1.0),
            rng.random_range(0.1..1.0),
        ),
        1 => loop {
            let n = rng.random_range(4..=40);
            let s = [
                rng.random_range(0.2..1.0),
                rng.random_range(0.2..1.0),
                rng.random_range(0.2..1.0),
            ];
            let pts: Vec<Point3<f64>> = (0..n)
                .map(|_| {
                    Point3::new(
                        rng.random_range(-s[0]..s[0]),
                        rng.random_range(-s[1]..s[1]),
                        rng.random_range(-s[2]..s[2]),
                    )
                })
                .collect();
            if let Ok(p) = ConvexPolyhedron::from_points(&pts) {
                break p.into();
            }
        },
        2 => ball(rng.random_range(0.1..1.0)),
        _ => capsule_x(rng.random_range(0.1..1.0), rng.random_range(0.05..0.5)),
    }
}

/// The signed distance from `p` to the boundary of `shape` at `pose`: for boxes and polyhedra the
/// largest face-plane distance (exact inside and on faces), for round shapes the distance to the
/// core minus the radius.
fn boundary_distance(shape: &Shape3<f64>, pose: &Iso3<f64>, p: &Point3<f64>) -> f64 {
    let q = pose.inverse_transform_point(p);
    match shape {
        Shape3::Cuboid(c) => {
            (0..3).map(|i| q[i].abs() - c.half_extents()[i]).fold(f64::MIN, f64::max)
        }
        Shape3::Polyhedron(poly) => (0..poly.num_faces())
            .map(|i| poly.face_normal(i).dot(&(q - poly.vertices()[poly.face(i)[0] as usize])))
            .fold(f64::MIN, f64::max),
        Shape3::Ball(b) => q.coords.norm() - b.radius(),
        Shape3::Capsule(c) => {
            let (a, b) = (c.segment().a(), c.segment().b());
            let e = b - a;
            let t = ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            (q - (a + e * t)).norm() - c.radius()
        }
        _ => unreachable!(),
    }
}

#[test]
fn random_pairs_satisfy_the_manifold_properties() {
    let mut rng = rng(7);
    let s = QuerySettings::<f64>::default();
    let (mut done, mut symmetric, mut normal_checked) = (0, 0, 0);
    let mut kinds_seen = [[0usize; 4]; 4];
    while done < 1_500 {
        let (ka, kb) = (rng.random_range(0..4), rng.random_range(0..4));
        let a = random_shape(&mut rng, ka);
        let b = random_shape(&mut rng, kb);
        let pa = Iso3::from_parts(Vec3::zeros().into(), random_rotation(&mut rng));
        let t = Vec3::new(
            rng.random_range(-1.2..1.2),
            rng.random_range(-1.2..1.2),
            rng.random_range(-1.2..1.2),
        );
        let pb = Iso3::from_parts(t.into(), random_rotation(&mut rng));
        let man: Manifold<f64, 3> = manifold3(&pa, &a, &pb, &b, 0.0);
        let exact = contact(&pa, &a, &pb, &b, 0.0, &s);
        let c = match exact {
            None => {
                assert!(man.is_empty(), "a manifold without overlap: {ka} {kb}");
                continue;
            }
            Some(c) if c.separation > -1e-6 => continue,
            Some(c) => c,
        };
        done += 1;
        kinds_seen[ka as usize][kb as usize] += 1;
        let ctx = format!("kinds {ka} {kb}, exact {c:?}, manifold {man:?}");
        assert!(!man.is_empty(), "empty manifold on overlap: {ctx}");
        assert!(man.len() <= 4);
        // The deepest contact is the exact depth (within the bias tolerance, 1e-4 of the size,
        // about 1e-4 here), and never shallower.
        let deepest = man.min_separation().unwrap();
        assert!((deepest - c.separation).abs() < 2e-4, "deepest {deepest}: {ctx}");
        assert!(
            deepest <= c.separation + 1e-7,
            "shallower than exact by {}: {ctx}",
            deepest - c.separation
        );
        // The normal is EPA's, unless the bias picked a nearly tied axis.
        if (deepest - c.separation).abs() < 1e-8 {
            normal_checked += 1;
            assert!((man.normal - c.normal).norm() < 1e-3, "normal {:?}: {ctx}", man.normal);
        }
        // Every contact point is on its shape's surface: exactly for sharp shapes, up to the
        // clipping slack (1e-4 of the size, ≤ 2e-4 here, see `face_clip.rs`) beyond a reference
        // face's rim, measured against a neighbouring face that may be tilted (hence 3×); a
        // round shape's non-deepest point may sit inside it by less than its radius.
        for k in man.contacts() {
            for (shape, pose, p) in [(&a, &pa, &k.point_a), (&b, &pb, &k.point_b)] {
                let d = boundary_distance(shape, pose, p);
                let inside = match shape {
                    Shape3::Capsule(cap) => cap.radius(),
                    _ => 1e-7,
                };
                // The hull merges nearly coplanar triangles into one face, whose vertices may
                // stand slightly off its fitted plane: its own vertices are that far "outside".
                let flat = match shape {
                    Shape3::Polyhedron(poly) => poly
                        .vertices()
                        .iter()
                        .map(|v| boundary_distance(shape, &Iso3::identity(), v))
                        .fold(0.0, f64::max),
                    _ => 0.0,
                };
                assert!(
                    d < 6e-4 + flat && d > -inside - 6e-4,
                    "point off its surface by {d} local {:?}: {ctx}",
                    pose.inverse_transform_point(p)
                );
            }
            let err = (k.point_b - k.point_a).dot(&man.normal) - k.separation;
            assert!(err.abs() < 1e-7, "points vs separation {err}: {ctx}");
        }
        // Symmetry when the reference choice is not a near tie: the normal (a face normal for
        // SAT routines) and the feature ids are the same. Ids are symmetric ((reference face,
        // incident vertex) flips to (vertex, face), edge crossings stay edge pairs), so in the
        // generic routine, whose normal is EPA's either way, a nearly tied reference face may
        // still differ; the points are then the same up to the clipping slack times the slope
        // of a resting face (≤ 1.7e-4 · tan 8°), hence 5e-5.
        let swapped: Manifold<f64, 3> = manifold3(&pb, &b, &pa, &a, 0.0);
        let swapped = swapped.flipped();
        if (swapped.normal - man.normal).norm() < 1e-6 && ids(&swapped) == ids(&man) {
            symmetric += 1;
            for x in man.contacts() {
                let y = swapped.find(x.id).unwrap();
                assert!(
                    (x.separation - y.separation).abs() < 5e-5,
                    "asymmetric {swapped:?}: {ctx}"
                );
            }
        }
    }
    assert!(symmetric > 1_200, "symmetric cases {symmetric}");
    assert!(normal_checked > 1_000, "normal checked {normal_checked}");
    assert!(kinds_seen.iter().flatten().all(|&k| k > 20), "pairs {kinds_seen:?}");
}

fn ids(m: &Manifold<f64, 3>) -> Vec<ContactId> {
    let mut v: Vec<ContactId> = m.contacts().iter().map(|c| c.id).collect();
    v.sort();
    v
}

/// A random rotation by at most `angle` radians about a random axis.
fn noise(rng: &mut ChaCha8Rng, angle: f64) -> Rot3<f64> {
    let axis = Vec3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    Rot3::from_scaled_axis(axis.normalize() * rng.random_range(-angle..angle))
}

#[rstest]
#[case::on_wide_box(cuboid(5.0, 0.5, 5.0), Iso3::translation(0.0, -0.5, 0.0))]
#[case::on_equal_cube(cuboid(0.5, 0.5, 0.5), Iso3::translation(0.0, -0.5, 0.0))]
fn resting_cube_keeps_its_reference_face_and_ids_under_rotation_noise(
    #[case] ground: Shape3<f64>,
    #[case] pose: Iso3<f64>,
) {
    let cube = cuboid(0.5, 0.5, 0.5);
    let mut rng = rng(43);
    let at = Vec3::new(0.0, 0.495, 0.0);
    let first: Manifold<f64, 3> =
        manifold3(&pose, &ground, &Iso3::translation(0.0, 0.495, 0.0), &cube, 0.01);
    assert_eq!(first.len(), 4);
    for _ in 0..100 {
        let pb = Iso3::from_parts(at.into(), noise(&mut rng, 1e-4));
        let man: Manifold<f64, 3> = manifold3(&pose, &ground, &pb, &cube, 0.01);
        assert_eq!(ids(&man), ids(&first));
        assert!((man.normal - Vec3::y()).norm() < 1e-12, "the ground stays the reference");
    }
}

/// How far `p` (world) is outside the box `h` placed at `pose` (negative inside).
fn outside_box(pose: &Iso3<f64>, h: &Vec3<f64>, p: &Point3<f64>) -> f64 {
    let q = pose.inverse_transform_point(p);
    (0..3).map(|i| q[i].abs() - h[i]).fold(f64::MIN, f64::max)
}

/// A box resting on another one 50 µm wider on each side, whose rims are closer than the
/// clipping slack (1e-4 of the pair's size): the slack keeps the incident corners, which lie
/// beyond the reference face's rim, and they were lifted onto the face's plane there, 50 µm
/// off the reference box. They are now moved back onto the rim, for the boxes' own clipper and
/// for the general one (a hull standing for the box) alike.
#[rstest]
fn points_kept_by_the_clipping_slack_lie_on_both_boxes(#[values(false, true)] hull: bool) {
    let (ha, hb) = (Vec3::new(1.0, 0.5, 1.0), Vec3::new(1.0 + 5e-5, 0.5, 1.0 + 5e-5));
    let a = Shape3::Cuboid(Cuboid::new(ha).unwrap());
    let b = if hull {
        Shape3::Polyhedron(ConvexPolyhedron::from_cuboid(hb).unwrap())
    } else {
        Shape3::Cuboid(Cuboid::new(hb).unwrap())
    };
    let pa = Iso3::identity();
    let pb = Iso3::translation(0.0, 1.0 - 1e-3, 0.0);
    let m = manifold3::<f64, ()>(&pa, &a, &pb, &b, 0.0);
    assert_eq!(m.len(), 4, "{m:?}");
    for c in m.contacts() {
        assert!((c.separation + 1e-3).abs() < 1e-12, "{c:?}");
        let (oa, ob) = (outside_box(&pa, &ha, &c.point_a), outside_box(&pb, &hb, &c.point_b));
        assert!(oa < 1e-12 && ob < 1e-12, "point_a {oa:e}, point_b {ob:e} outside: {c:?}");
    }
}

/// Two cylinder hulls of 1000 vertices (radius 1, height 2, caps of 500 vertices), B's bottom
/// cap 0.1 deep in A's top cap, centred, moved sideways and turned about the axis. The caps'
/// side planes are clipped in linear time and the slack rule locates points in logarithmic
/// time (the plane-by-plane passes took milliseconds here); the contacts must still lie on
/// both caps, 0.1 deep.
#[rstest]
fn large_caps_resting_on_each_other_touch_on_both_caps(
    #[values((0.0, 0.0), (0.3, 0.1), (1.2, -0.5))] shift: (f64, f64),
    #[values(0.0, 0.003)] turn: f64,
) {
    let ring = |y: f64| {
        (0..500).map(move |k| {
            let a = k as f64 * core::f64::consts::TAU / 500.0;
            Point3::new(a.cos(), y, a.sin())
        })
    };
    let points: Vec<_> = ring(-1.0).chain(ring(1.0)).collect();
    let hull = Shape3::Polyhedron(ConvexPolyhedron::from_points(&points).unwrap());
    let pa = Iso3::identity();
    let pb = Iso3::new(Vec3::new(shift.0, 1.9, shift.1), Vec3::new(0.0, turn, 0.0));
    let m = manifold3::<f64, ()>(&pa, &hull, &pb, &hull, 0.0);
    assert_eq!(m.len(), 4, "{m:?}");
    let mut spread: f64 = 0.0;
    for c in m.contacts() {
        assert!((c.separation + 0.1).abs() < 1e-9, "{c:?}");
        let (qa, qb) = (c.point_a, pb.inverse_transform_point(&c.point_b));
        assert!((qa.y - 1.0).abs() < 1e-9 && (qb.y + 1.0).abs() < 1e-9, "{c:?}");
        assert!(qa.coords.xz().norm() < 1.0 + 1e-9 && qb.coords.xz().norm() < 1.0 + 1e-9);
        let normal = m.normal;
        assert!((c.point_b - c.point_a - normal * c.separation).norm() < 1e-9, "{c:?}");
        for d in m.contacts() {
            spread = spread.max((c.point_a - d.point_a).norm());
        }
    }
    // The four points span the overlap of the caps (a lens 0.7 wide for the largest shift).
    assert!(spread > 0.6, "{m:?}");
}

/// A 0.2 mm thin hull resting 30 µm deep on a 0.18 mm thin box turned 0.2° from it (a hostile
/// sliver case). The faces are nearly anti-parallel, so the clipping slack (1e-4 of the size,
/// here 12 µm) keeps points up to that far beyond the reference face's rim. Moving such a point
/// back onto the rim straight across the normal took it off the incident box by 10 µm where
/// the box's edge crosses the rim at an angle; it now goes to the nearest point of the face
/// clipped without slack, on both shapes.
#[test]
fn points_kept_by_the_slack_on_a_sliver_lie_on_both_shapes() {
    let hull = [
        [-0.023154610717139652, -1.0626663924896881e-5, -0.08587497215652798],
        [0.07182408478869544, -7.363864348751455e-5, 0.054626124878330864],
        [-0.08233284778740177, -5.2832365384605234e-5, 0.08640777601543057],
        [-0.018957887798120018, 0.00010524012257417573, 0.03681081421647644],
        [0.028194217148259836, -6.206102169143909e-5, -0.06614168163616332],
        [-0.01666184116581205, 0.0001044809219250956, -0.01965002966331717],
        [0.010790166787822478, -6.385550608023198e-5, 0.1185800587396644],
    ];
    let points: Vec<Point3<f64>> = hull.iter().map(|&[x, y, z]| Point3::new(x, y, z)).collect();
    let a = ConvexPolyhedron::from_points(&points).unwrap();
    let hb = Vec3::new(0.08623698373380506, 8.863205816435186e-5, 0.06193652926829452);
    let b = Shape3::Cuboid(Cuboid::new(hb).unwrap());
    let quat = |x, y, z, w| Rot3::from_quaternion(nalgebra::Quaternion::new(w, x, y, z));
    let pa = Iso3::from_parts(
        Vec3::new(0.05253850298318105, -0.009760687003191257, 0.09077324739515653).into(),
        quat(0.5096358477080913, 0.24561856106393185, -0.5973885269319911, -0.5683922704275317),
    );
    let pb = Iso3::from_parts(
        Vec3::new(-0.015643871395596358, -0.00856512706612876, 0.12343843603194515).into(),
        quat(0.5096055515331079, 0.2480545482021644, -0.5966124344424282, -0.5681766679753195),
    );
    let m = manifold3::<f64, ()>(&pa, &Shape3::Polyhedron(a.clone()), &pb, &b, 0.0);
    assert!(m.len() >= 2, "{m:?}");
    let outside_hull = |p: &Point3<f64>| {
        let q = pa.inverse_transform_point(p);
        (0..a.num_faces())
            .map(|f| a.face_normal(f).dot(&(q - a.vertices()[a.face(f)[0] as usize])))
            .fold(f64::MIN, f64::max)
    };
    for c in m.contacts() {
        let (oa, ob) = (outside_hull(&c.point_a), outside_box(&pb, &hb, &c.point_b));
        assert!(oa < 1e-12 && ob < 1e-12, "point_a {oa:e}, point_b {ob:e} outside: {c:?}");
    }
}

/// Two 2 m segments 1 mm apart along y, turned 0.3° from each other about y: sharp edges that
/// pass each other at one point. Two contacts at the ends of their overlap would each have to
/// leave its segment by half the 5 mm sideways offset there to keep
/// `point_b − point_a = separation · normal`; the manifold is the exact contact alone. Exactly
/// parallel, the two ends are kept.
#[rstest]
fn sharp_edges_crossing_at_a_small_angle_touch_at_one_point(#[values(0.3, 0.0)] degrees: f64) {
    use kollide_shapes::Segment;
    let seg = Segment::new(Point3::new(0.0, 0.0, -1.0), Point3::new(0.0, 0.0, 1.0)).unwrap();
    let (a, b) = (Shape3::Segment(seg), Shape3::Segment(seg));
    let pa = Iso3::identity();
    let pb = Iso3::new(Vec3::new(0.0, 1e-3, 0.0), Vec3::new(0.0, degrees.to_radians(), 0.0));
    let m = manifold3::<f64, ()>(&pa, &a, &pb, &b, 2e-3);
    assert_eq!(m.len(), if degrees == 0.0 { 2 } else { 1 }, "{m:?}");
    assert!((m.normal - Vec3::y()).norm() < 1e-12, "{m:?}");
    for c in m.contacts() {
        assert!((c.separation - 1e-3).abs() < 1e-12, "{c:?}");
        let on_b = pb.inverse_transform_point(&c.point_b);
        assert!(c.point_a.x.abs() < 1e-12 && c.point_a.y.abs() < 1e-12, "point_a off A: {c:?}");
        assert!(on_b.x.abs() < 1e-12 && on_b.y.abs() < 1e-12, "point_b off B: {c:?}");
    }
}

/// A 40 m capsule lying on a 40 m capsule (or cylinder) turned 0.3° from it about the normal:
/// nearly parallel seen along the normal, so two contacts at the ends of the overlap. Their
/// axes there are 0.1 m apart sideways; the contacts used to keep each point on its own axis and
/// break `point_b − point_a = separation · normal` by that much. Each point now takes half of
/// the offset: the identity holds, and the points leave their round surfaces by only
/// `0.05² / 2r`.
#[rstest]
fn nearly_parallel_round_edges_give_two_contacts_that_keep_the_identity(
    #[values(false, true)] cylinder: bool,
    #[values(false, true)] f32: bool,
) {
    if f32 {
        nearly_parallel_round_edges::<f32>(cylinder);
    } else {
        nearly_parallel_round_edges::<f64>(cylinder);
    }
}

fn nearly_parallel_round_edges<N: Scalar>(cylinder: bool) {
    let a: Shape3<N> = if cylinder {
        Cylinder::new(l(20.0), l(1.0)).unwrap().into()
    } else {
        capsule_x(20.0, 1.0)
    };
    let pos_a = if cylinder {
        rotated(0.0, 0.0, 0.0, [0.0, 0.0, core::f64::consts::FRAC_PI_2])
    } else {
        at(0.0, 0.0, 0.0)
    };
    let b = capsule_x::<N>(20.0, 1.0);
    let pos_b = rotated(0.0, 1.9, 0.0, [0.0, 0.3f64.to_radians(), 0.0]);
    let m = manifold3::<N, ()>(&pos_a, &a, &pos_b, &b, l(0.0));
    assert_eq!(m.len(), 2, "{m:?}");
    let n = m.normal.map(|x| x.to_f64());
    assert!((n.y - 1.0).abs() < 1e-6, "{m:?}");
    let pb = rotated::<f64>(0.0, 1.9, 0.0, [0.0, 0.3f64.to_radians(), 0.0]);
    let (b1, b2) = (pb * Point3::new(-20.0, 0.0, 0.0), pb * Point3::new(20.0, 0.0, 0.0));
    for c in m.contacts() {
        let (pa, pbt) = (c.point_a.map(|x| x.to_f64()), c.point_b.map(|x| x.to_f64()));
        let s = c.separation.to_f64();
        assert!((s + 0.1).abs() < 2e-3, "{c:?}");
        let identity = (pbt - pa - n * s).norm();
        assert!(identity < 1e-4, "|point_b − point_a − separation·normal| = {identity}: {c:?}");
        // A's round side is about the x axis in both cases; B's about its own axis.
        let on_a = (pa.y * pa.y + pa.z * pa.z).sqrt() - 1.0;
        let on_b = point_segment(&pbt, &b1, &b2) - 1.0;
        assert!(on_a.abs() < 2e-3 && on_b.abs() < 2e-3, "off the surfaces {on_a}, {on_b}: {c:?}");
    }
}
