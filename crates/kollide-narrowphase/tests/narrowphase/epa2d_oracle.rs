//! EPA and GJK in 2D against exact answers: SAT over all edge normals (penetration) and
//! vertex–edge brute force (distance), on thousands of seeded random polygon pairs, in f64 and
//! f32, near the origin and far from it.

use crate::common::*;
use kollide_math::{Iso2, Pose, Scalar, Vec2};
use kollide_narrowphase::{QuerySettings, Status, closest_points, contact, intersection_test};

struct Report {
    cases: usize,
    worst_rel: f64,
    not_converged: usize,
}

/// Runs `count` overlapping pairs at `offset` from the origin in scalar `N` and checks EPA depth
/// against SAT within `tol` (relative to the shapes' size, ~1).
fn epa_vs_sat<N: Scalar>(seed: u64, count: usize, offset: Vec2<f64>, tol: f64) -> Report {
    let mut rng = rng(seed);
    let settings = QuerySettings::<N>::default();
    let mut rep = Report { cases: 0, worst_rel: 0.0, not_converged: 0 };
    while rep.cases < count {
        let pa = random_polygon(&mut rng);
        let pb = random_polygon(&mut rng);
        let pose_a = random_pose(&mut rng, offset, 0.0);
        let pose_b = random_pose(&mut rng, offset, 1.0);
        // The oracle works on the f64 world vertices the kollide query will see (after casting).
        let wa = to_world(&pa, &pose_a);
        let wb = to_world(&pb, &pose_b);
        let (depth, _) = sat_depth(&wa, &wb);
        if depth <= 1e-6 {
            continue;
        }
        rep.cases += 1;
        let a = Cloud { points: cast_points::<N>(&pa) };
        let b = Cloud { points: cast_points::<N>(&pb) };
        let (qa, qb) = (cast_pose::<N>(&pose_a), cast_pose::<N>(&pose_b));
        let c = contact(&qa, &a, &qb, &b, N::zero(), &settings)
            .unwrap_or_else(|| panic!("missed an overlap of depth {depth} (case {})", rep.cases));
        let got = -c.separation.to_f64();
        let err = (got - depth).abs();
        rep.worst_rel = rep.worst_rel.max(err);
        assert!(
            err <= tol,
            "case {}: EPA depth {got} vs SAT {depth} (err {err:e}, status {:?})",
            rep.cases,
            c.status
        );
        // The normal is minimal: the overlap along it equals the depth.
        let n = Vec2::new(c.normal.x.to_f64(), c.normal.y.to_f64());
        let along = overlap_along(&wa, &wb, &n);
        assert!((along - depth).abs() <= tol * 10.0, "normal not minimal: {along} vs {depth}");
        // Witness points are consistent: point_a − point_b = depth · normal.
        let d = (c.point_a - c.point_b).map(|x| x.to_f64());
        assert!(
            (d - n * got).norm()
                <= tol * 10.0 + 1e-3 * f64::from(u8::from(N::EPSILON.to_f64() > 1e-10))
        );
        if c.status != Status::Converged {
            rep.not_converged += 1;
        }
    }
    rep
}

#[test]
fn epa_matches_sat_f64_near_origin() {
    let rep = epa_vs_sat::<f64>(1, 10_000, Vec2::zeros(), 1e-9);
    assert_eq!(rep.cases, 10_000);
    assert_eq!(rep.not_converged, 0, "worst error {:e}", rep.worst_rel);
}

#[test]
fn epa_matches_sat_f32_near_origin() {
    let rep = epa_vs_sat::<f32>(2, 10_000, Vec2::zeros(), 1e-4);
    assert_eq!(rep.cases, 10_000);
}

#[test]
fn epa_matches_sat_far_from_origin() {
    // 1,000 units away: f32 coordinates there have an ulp of 6.1e-5, so a few ulps is ~2.5e-4.
    let off = Vec2::new(1000.0, -1000.0);
    epa_vs_sat::<f32>(3, 2_000, off, 2.5e-4);
    epa_vs_sat::<f64>(4, 2_000, off, 1e-9);
    epa_vs_sat::<f64>(5, 1_000, Vec2::new(1e4, 1e4), 1e-8);
}

fn distance_vs_brute<N: Scalar>(seed: u64, count: usize, tol: f64) {
    let mut rng = rng(seed);
    let settings = QuerySettings::<N>::default();
    let mut done = 0;
    while done < count {
        let pa = random_polygon(&mut rng);
        let pb = random_polygon(&mut rng);
        let pose_a = random_pose(&mut rng, Vec2::zeros(), 0.0);
        let pose_b = random_pose(&mut rng, Vec2::zeros(), 2.5);
        let wa = to_world(&pa, &pose_a);
        let wb = to_world(&pb, &pose_b);
        if sat_depth(&wa, &wb).0 >= -1e-6 {
            continue;
        }
        done += 1;
        let expected = brute_distance(&wa, &wb);
        let a = Cloud { points: cast_points::<N>(&pa) };
        let b = Cloud { points: cast_points::<N>(&pb) };
        let (qa, qb) = (cast_pose::<N>(&pose_a), cast_pose::<N>(&pose_b));
        let c = closest_points(&qa, &a, &qb, &b, &settings);
        let got = c.separation.to_f64();
        assert!((got - expected).abs() <= tol, "distance {got} vs brute force {expected}");
        // The witness points are on the shapes' surfaces and their gap is the distance.
        let gap = (c.point_b - c.point_a).map(|x| x.to_f64()).norm();
        assert!((gap - expected).abs() <= tol * 4.0);
        assert!(!intersection_test(&qa, &a, &qb, &b, None, &settings).intersecting);
    }
}

#[test]
fn gjk_distance_matches_brute_force() {
    distance_vs_brute::<f64>(6, 5_000, 1e-9);
    distance_vs_brute::<f32>(7, 5_000, 1e-5);
}

#[test]
fn penetration_properties() {
    // Moving B by (depth + ε)·n separates; by (depth − ε)·n does not; swapping flips the normal.
    let mut rng = rng(8);
    let s = QuerySettings::<f64>::default();
    let mut done = 0;
    while done < 2_000 {
        let pa = random_polygon(&mut rng);
        let pb = random_polygon(&mut rng);
        let pose_a = random_pose(&mut rng, Vec2::zeros(), 0.0);
        let pose_b = random_pose(&mut rng, Vec2::zeros(), 1.0);
        let a = Cloud { points: pa.clone() };
        let b = Cloud { points: pb.clone() };
        let Some(c) = contact(&pose_a, &a, &pose_b, &b, 0.0, &s) else { continue };
        if c.separation > -1e-4 {
            continue;
        }
        done += 1;
        let depth = -c.separation;
        let eps = 1e-7;
        let out = Iso2::from_translation(c.normal * (depth + eps)) * pose_b;
        let inn = Iso2::from_translation(c.normal * (depth - eps)) * pose_b;
        assert!(!intersection_test(&pose_a, &a, &out, &b, None, &s).intersecting);
        assert!(intersection_test(&pose_a, &a, &inn, &b, None, &s).intersecting);
        let r = contact(&pose_b, &b, &pose_a, &a, 0.0, &s).expect("symmetric overlap");
        assert!((r.separation - c.separation).abs() < 1e-9);
        assert!((r.normal + c.normal).norm() < 1e-6, "{:?} vs {:?}", r.normal, c.normal);
        let _ = Pose::<f64, 2>::translation(&pose_a);
    }
}

/// kollide's own polygons (hill climbing above 16 vertices) through EPA and through the exact
/// Minkowski-difference depth, against the test-local SAT.
#[test]
fn convex_polygon_epa_and_exact_depth_agree_with_sat() {
    use kollide_narrowphase::polygon_separation;
    use kollide_shapes::ConvexPolygon;
    let mut rng = rng(9);
    let s = QuerySettings::<f64>::default();
    let mut done = 0;
    while done < 3_000 {
        let pa = if done % 5 == 0 {
            ConvexPolygon::regular(64, 1.0).unwrap().vertices().to_vec()
        } else {
            random_polygon(&mut rng)
        };
        let pb = random_polygon(&mut rng);
        let pose_a = random_pose(&mut rng, Vec2::zeros(), 0.0);
        let pose_b = random_pose(&mut rng, Vec2::zeros(), 1.0);
        let wa = to_world(&pa, &pose_a);
        let wb = to_world(&pb, &pose_b);
        let (depth, _) = sat_depth(&wa, &wb);
        if depth <= 1e-6 {
            continue;
        }
        done += 1;
        let a = ConvexPolygon::from_convex_ccw(&pa).unwrap();
        let b = ConvexPolygon::from_convex_ccw(&pb).unwrap();
        let exact = polygon_separation(&pose_a, &a, &pose_b, &b);
        assert!((exact.separation + depth).abs() < 1e-12, "{} vs {depth}", exact.separation);
        assert!((overlap_along(&wa, &wb, &exact.normal) - depth).abs() < 1e-9);
        let c = contact(&pose_a, &a, &pose_b, &b, 0.0, &s).expect("overlap");
        assert!((c.separation - exact.separation).abs() < 1e-9);
    }
}
