//! Composite shapes: every typed error of `HeightField::new` and `Compound::new`, the
//! heightfield's layout, neighbours and active edges, piece visits against brute force, and the
//! compound's mass properties against shapes whose union they equal.

use core::ops::ControlFlow;

use kollide_math::{Iso2, Iso3, Point3, Pose, Vec2, Vec3};
use kollide_shapes::{
    Aabb, Ball, BoundingVolume, CompositeShape, Compound2, Compound3, CompoundError, Cuboid,
    HasMass2, HasMass3, HeightField, HeightFieldError, Shape2, Shape3,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn heightfield_errors_name_the_sample() {
    let s = Vec3::new(4.0, 1.0, 4.0);
    assert_eq!(
        HeightField::new(1, 5, vec![0.0f64; 5], s),
        Err(HeightFieldError::TooSmall { rows: 1, cols: 5 })
    );
    assert_eq!(
        HeightField::new(5, 1, vec![0.0f64; 5], s),
        Err(HeightFieldError::TooSmall { rows: 5, cols: 1 })
    );
    assert_eq!(
        HeightField::new(3, 3, vec![0.0f64; 8], s),
        Err(HeightFieldError::WrongLength { rows: 3, cols: 3, len: 8 })
    );
    let mut h = vec![0.0f64; 12];
    h[7] = f64::NAN;
    assert!(matches!(
        HeightField::new(3, 4, h.clone(), s),
        Err(HeightFieldError::NonFiniteHeight { row: 1, col: 3, .. })
    ));
    h[7] = f64::INFINITY;
    assert!(matches!(
        HeightField::new(3, 4, h, s),
        Err(HeightFieldError::NonFiniteHeight { row: 1, col: 3, .. })
    ));
    for (axis, bad) in [
        ('x', Vec3::new(0.0, 1.0, 1.0)),
        ('y', Vec3::new(1.0, -1.0, 1.0)),
        ('z', Vec3::new(1.0, 1.0, f64::NAN)),
    ] {
        assert!(matches!(
            HeightField::new(2, 2, vec![0.0f64; 4], bad),
            Err(HeightFieldError::BadScale { axis: a, .. }) if a == axis
        ));
    }
    // Envelope: heights beyond MAX_COORDINATE after scaling, extents, and cells below MIN_SIZE.
    let mut h = vec![0.0f32; 4];
    h[2] = 2e5;
    let e = HeightField::new(2, 2, h, Vec3::new(1.0f32, 1.0, 1.0)).unwrap_err();
    assert!(
        matches!(&e, HeightFieldError::OutOfEnvelope { what, .. } if what.contains("row 1, column 0")),
        "{e}"
    );
    let e = HeightField::new(2, 2, vec![1.0f32; 4], Vec3::new(1.0f32, 1e6, 1.0)).unwrap_err();
    assert!(matches!(e, HeightFieldError::OutOfEnvelope { .. }));
    let e = HeightField::new(2, 2, vec![0.0f32; 4], Vec3::new(3e5f32, 1.0, 1.0)).unwrap_err();
    assert!(
        matches!(&e, HeightFieldError::OutOfEnvelope { what, .. } if what.contains("x")),
        "{e}"
    );
    let e = HeightField::new(2, 1001, vec![0.0f32; 2002], Vec3::new(0.5f32, 1.0, 1.0)).unwrap_err();
    assert!(
        matches!(&e, HeightFieldError::OutOfEnvelope { what, .. } if what.contains("cell size along x")),
        "{e}"
    );
    // Messages name the sample.
    let mut h = vec![0.0f64; 6];
    h[4] = f64::NAN;
    let msg = HeightField::new(2, 3, h, s).unwrap_err().to_string();
    assert!(msg.contains("row 1, column 1"), "{msg}");
}

#[test]
fn heightfield_layout_matches_the_docs() {
    let (rows, cols) = (3, 4);
    let h: Vec<f64> = (0..rows * cols).map(|k| k as f64 * 0.1).collect();
    let f = HeightField::new(rows, cols, h.clone(), Vec3::new(3.0, 2.0, 4.0)).unwrap();
    assert_eq!(f.triangle_count(), 12);
    assert_eq!(f.sample(0, 0), Point3::new(-1.5, 0.0, -2.0));
    assert_eq!(f.sample(2, 3), Point3::new(1.5, h[11] * 2.0, 2.0));
    for i in 0..f.triangle_count() as u32 {
        let t = f.triangle(i);
        assert!(t.normal().y > 0.0, "triangle {i} faces down");
        // Each neighbour relation is symmetric and shares the same two corners.
        for k in 0..3 {
            if let Some((o, ko)) = f.neighbour(i, k) {
                assert_eq!(f.neighbour(o, ko), Some((i, k)));
                let u = f.triangle(o);
                let (a, b) = (t.vertex(k), t.vertex((k + 1) % 3));
                let (c, d) = (u.vertex(ko), u.vertex((ko + 1) % 3));
                assert!((a == d && b == c) || (a == c && b == d), "edge {k} of {i} vs {ko} of {o}");
            }
        }
    }
    // A flat field: every internal edge inactive, every boundary edge active.
    let flat = HeightField::new(4, 4, vec![0.0f64; 16], Vec3::new(3.0, 1.0, 3.0)).unwrap();
    let mut boundary = 0;
    for i in 0..flat.triangle_count() as u32 {
        let bits = flat.active_edges(i).unwrap();
        for k in 0..3 {
            let on_boundary = flat.neighbour(i, k).is_none();
            assert_eq!(bits & (1 << k) != 0, on_boundary, "triangle {i} edge {k}");
            boundary += on_boundary as usize;
        }
    }
    assert_eq!(boundary, 4 * 3);
    // A sharp convex ridge along z at x = 0 is active; the same bent the other way (a valley) is
    // not.
    for (sign, active) in [(-1.0, true), (1.0, false)] {
        let h: Vec<f64> = (0..9).map(|k| sign * ((k % 3) as f64 - 1.0).abs()).collect();
        let f = HeightField::new(3, 3, h, Vec3::new(2.0, 1.0, 2.0)).unwrap();
        // Triangle 1 of cell (0, 0) has edge 1 on x = 0, shared with triangle 0 of cell (0, 1).
        assert_eq!(f.active_edges(1).unwrap() & 2 != 0, active, "sign {sign}");
    }
}

/// The cells visited for a box are exactly those whose triangles' boxes overlap it (brute
/// force), and a ray visits cells in increasing `t_exit`.
#[test]
fn heightfield_visits_against_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut visited, mut visited_apart, mut culled_by_box) = (0, 0, 0);
    for _ in 0..500 {
        let (rows, cols) = (rng.random_range(2..9), rng.random_range(2..9));
        let h = (0..rows * cols).map(|_| rng.random_range(0.0..1.0)).collect();
        let f = HeightField::new(rows, cols, h, Vec3::new(5.0, 1.0, 4.0)).unwrap();
        let c = Point3::new(
            rng.random_range(-4.0..4.0),
            rng.random_range(-1.0..2.0),
            rng.random_range(-3.0..3.0),
        );
        let half = Vec3::new(
            rng.random_range(0.0..1.5),
            rng.random_range(0.0..1.5),
            rng.random_range(0.0..1.5),
        );
        let query = Aabb::from_half_extents(c, half);
        let mut seen = vec![false; f.triangle_count()];
        let _ = f.visit_pieces_in(&query, |i, pose, _| {
            assert!(pose.is_none());
            seen[i as usize] = true;
            ControlFlow::Continue(())
        });
        let mut overlapping = 0;
        for (i, was_seen) in seen.iter().enumerate() {
            if triangle_meets_box(&f.triangle(i as u32).vertices(), &query) {
                assert!(was_seen, "triangle {i} overlaps the box but was not visited");
                overlapping += 1;
            }
        }
        visited += seen.iter().filter(|s| **s).count();
        visited_apart += seen.iter().filter(|s| **s).count() - overlapping;
        culled_by_box += (0..f.triangle_count())
            .filter(|i| !seen[*i] && f.triangle(*i as u32).local_aabb().intersects(&query))
            .count();
    }
    // The visit culls more than triangle boxes would, and visits few triangles apart from it.
    assert!(culled_by_box > 100, "{culled_by_box} triangles culled whose boxes overlap");
    assert!(visited_apart * 5 < visited, "{visited_apart} of {visited} visited apart from the box");
}

/// Whether a triangle and a box overlap: the separating axis test over the box's three axes,
/// the triangle's normal and the nine cross products of their edges (Akenine-Möller, "Fast
/// 3D Triangle-Box Overlap Testing", 2001), with a little slack for touching.
fn triangle_meets_box(t: &[Point3<f64>; 3], b: &Aabb<f64, 3>) -> bool {
    let c = nalgebra::center(&b.mins, &b.maxs);
    let h = (b.maxs - b.mins) / 2.0;
    let v = t.map(|p| p - c);
    let e = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    let mut axes = vec![Vec3::x(), Vec3::y(), Vec3::z(), e[0].cross(&e[1])];
    for edge in e {
        axes.extend([Vec3::x(), Vec3::y(), Vec3::z()].iter().map(|a| a.cross(&edge)));
    }
    axes.iter().filter(|a| a.norm() > 1e-12).all(|a| {
        let p = v.map(|q| q.dot(a));
        let r = h.x * a.x.abs() + h.y * a.y.abs() + h.z * a.z.abs();
        let slack = 1e-9 * a.norm();
        p.iter().cloned().fold(f64::MAX, f64::min) <= r + slack
            && p.iter().cloned().fold(f64::MIN, f64::max) >= -r - slack
    })
}

#[test]
fn compound_errors_name_the_child() {
    let ball: Shape3<f64> = Ball::new(1.0).unwrap().into();
    assert_eq!(Compound3::<f64>::new(vec![]).unwrap_err(), CompoundError::Empty);
    let nan = Iso3::translation(f64::NAN, 0.0, 0.0);
    assert_eq!(
        Compound3::new(vec![(Iso3::identity(), ball.clone()), (nan, ball.clone())]).unwrap_err(),
        CompoundError::NonFinitePose { child: 1 }
    );
    let mut skew = Iso3::identity();
    skew.rotation = nalgebra::Unit::new_unchecked(nalgebra::Quaternion::new(1.5, 0.0, 0.0, 0.0));
    assert!(matches!(
        Compound3::new(vec![(skew, ball.clone())]).unwrap_err(),
        CompoundError::NonUnitRotation { child: 0, .. }
    ));
    assert!(matches!(
        Compound3::new(vec![(Iso3::translation(0.0, 2e10, 0.0), ball)]).unwrap_err(),
        CompoundError::OutOfEnvelope { child: 0, .. }
    ));
    let disc: Shape2<f32> = Ball::new(1.0).unwrap().into();
    assert!(matches!(
        Compound2::new(vec![(Iso2::translation(2e5, 0.0), disc)]).unwrap_err(),
        CompoundError::OutOfEnvelope { child: 0, .. }
    ));
}

/// Two boxes side by side are one box: same mass, centre and inertia (parallel-axis theorem),
/// whichever way the halves are turned (a half box turned by 180° about its axis is itself).
#[test]
fn compound_mass_properties_equal_the_union() {
    let whole = Cuboid::new(Vec3::new(1.0, 0.5, 0.25)).unwrap().mass_properties(3.0).unwrap();
    let half: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.25)).unwrap().into();
    let turned = Iso3::new(Vec3::new(0.5, 0.0, 0.0), Vec3::x() * std::f64::consts::PI);
    let c = Compound3::new(vec![(Iso3::translation(-0.5, 0.0, 0.0), half.clone()), (turned, half)])
        .unwrap();
    let m = c.mass_properties(3.0).unwrap();
    assert!((m.mass - whole.mass).abs() < 1e-12);
    assert!(m.local_center.coords.norm() < 1e-12);
    assert!((m.inertia - whole.inertia).norm() < 1e-12, "{} vs {}", m.inertia, whole.inertia);
    // Shifted compound: the centre moves, the inertia about it does not.
    let half: Shape3<f64> = Cuboid::new(Vec3::new(0.5, 0.5, 0.25)).unwrap().into();
    let c = Compound3::new(vec![
        (Iso3::translation(1.5, 2.0, 0.0), half.clone()),
        (Iso3::translation(2.5, 2.0, 0.0), half),
    ])
    .unwrap();
    let m = c.mass_properties(3.0).unwrap();
    assert!((m.local_center - Point3::new(2.0, 2.0, 0.0)).norm() < 1e-12);
    assert!((m.inertia - whole.inertia).norm() < 1e-12);
    // 2D: four unit squares make a 2 × 2 square.
    let sq: Shape2<f64> = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap().into();
    let parts = [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]
        .map(|(x, y)| (Iso2::new(Vec2::new(x + 3.0, y), 1.2), sq.clone()));
    let m = Compound2::new(parts.to_vec()).unwrap().mass_properties(2.0).unwrap();
    let whole = Cuboid::new(Vec2::new(1.0, 1.0)).unwrap().mass_properties(2.0).unwrap();
    assert!((m.mass - whole.mass).abs() < 1e-12 && (m.inertia - whole.inertia).abs() < 1e-12);
    assert!((m.local_center.coords - Vec2::new(3.0, 0.0)).norm() < 1e-12);
    // A massless child (a segment) makes the compound's mass an error, not a NaN.
    let seg: Shape2<f64> =
        kollide_shapes::Segment::new(Point3::origin().xy(), Vec2::x().into()).unwrap().into();
    assert!(Compound2::new(vec![(Iso2::identity(), seg)]).unwrap().mass_properties(1.0).is_err());
}

#[test]
fn compound_aabb_and_visits() {
    let ball: Shape3<f64> = Ball::new(0.5).unwrap().into();
    let c = Compound3::new(vec![
        (Iso3::translation(-2.0, 0.0, 0.0), ball.clone()),
        (Iso3::translation(2.0, 0.0, 0.0), ball),
    ])
    .unwrap();
    let b = c.local_aabb();
    assert!((b.mins - Point3::new(-2.5, -0.5, -0.5)).norm() < 1e-12);
    let pose = Iso3::translation(0.0, 10.0, 0.0);
    assert!((c.aabb(&pose).maxs - Point3::new(2.5, 10.5, 0.5)).norm() < 1e-12);
    let mut visited = vec![];
    let _ = c.visit_pieces_in(
        &Aabb::from_half_extents(Point3::new(2.0, 0.0, 0.0), Vec3::repeat(0.1)),
        |i, p, _| {
            visited.push((i, p.unwrap().translation()));
            ControlFlow::Continue(())
        },
    );
    assert_eq!(visited, vec![(1, Vec3::new(2.0, 0.0, 0.0))]);
}
