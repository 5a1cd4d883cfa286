//! Cross-checks between the queries: the boolean test agrees with the sign of the signed
//! distance, swapping A and B flips the contact, and a GJK cache makes the next query warm.

use crate::common::*;
use kollide_math::Point2;
use kollide_math::{Iso2, Vec2};
use kollide_narrowphase::{GjkCache, GjkOutcome, QuerySettings, contact, gjk, intersection_test};
use kollide_shapes::{Capsule, ConvexPolygon, MinkowskiDifference};

#[test]
fn intersection_test_agrees_with_signed_distance() {
    let mut rng = rng(31);
    let s = QuerySettings::<f64>::default();
    let capsule =
        Capsule::<f64, 2>::new(Point2::new(-0.5, 0.0), Point2::new(0.5, 0.0), 0.3).unwrap();
    for i in 0..5_000 {
        let pa = random_polygon(&mut rng);
        let pose_a = random_pose(&mut rng, Vec2::zeros(), 0.0);
        let pose_b = random_pose(&mut rng, Vec2::zeros(), 2.0);
        let a = ConvexPolygon::from_convex_ccw(&pa).unwrap();
        let c = contact(&pose_a, &a, &pose_b, &capsule, f64::MAX, &s).expect("unbounded margin");
        let hit = intersection_test(&pose_a, &a, &pose_b, &capsule, None, &s);
        // Within 1e-9 of touching either answer is right.
        if c.separation.abs() > 1e-9 {
            assert_eq!(hit.intersecting, c.separation < 0.0, "case {i}: sep {}", c.separation);
        }
        let r = contact(&pose_b, &capsule, &pose_a, &a, f64::MAX, &s).unwrap();
        assert!((r.separation - c.separation).abs() < 1e-9, "case {i}");
        assert!((r.normal + c.normal).norm() < 1e-6 || c.separation.abs() < 1e-9, "case {i}");
        assert!((r.point_a - c.point_b).norm() < 1e-6 || c.separation.abs() < 1e-9, "case {i}");
    }
}

#[test]
fn a_cached_direction_makes_the_next_query_warm() {
    let s = QuerySettings::<f64>::default();
    let a = ConvexPolygon::regular(64, 1.0).unwrap();
    let b = ConvexPolygon::regular(48, 0.7).unwrap();
    let pa = Iso2::identity();
    let pb = Iso2::new(Vec2::new(1.2, 1.4), 0.3);
    let mut cache = GjkCache::default();
    assert!(!intersection_test(&pa, &a, &pb, &b, Some(&mut cache), &s).intersecting);
    // The cached direction separates at once: one iteration.
    let pos_ab = Iso2::new(Vec2::new(1.2, 1.4), 0.3);
    let md = MinkowskiDifference::new(&a, &b, pos_ab).with_hints(cache.hints.0, cache.hints.1);
    let cold = gjk(&MinkowskiDifference::new(&a, &b, pos_ab), &Vec2::new(-1.0, 0.3), 0.0, 0.0, &s);
    let warm = gjk(&md, &cache.dir, 0.0, 0.0, &s);
    assert!(matches!(warm.outcome, GjkOutcome::Separated { .. }));
    assert_eq!(warm.iterations, 1);
    assert!(cold.iterations >= warm.iterations);
    // Moving B a little keeps the cache useful and the answer right.
    let pb2 = Iso2::new(Vec2::new(1.19, 1.39), 0.31);
    assert!(!intersection_test(&pa, &a, &pb2, &b, Some(&mut cache), &s).intersecting);
    let pb3 = Iso2::new(Vec2::new(0.5, 0.5), 0.31);
    assert!(intersection_test(&pa, &a, &pb3, &b, Some(&mut cache), &s).intersecting);
}
