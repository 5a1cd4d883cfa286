//! Constructors whose tolerances are relative to the shape's own extent (hulls far from the
//! origin), and `ConvexPolygon::from_convex_polyline` checked against `from_hull` of the same
//! points as an oracle.

use kollide_math::{Point2, Point3, Scalar, Vec2, Vec3};
use kollide_shapes::{
    ConvexPolygon, ConvexPolyhedron, ShapeError, SupportMap, convex_hull_2d, convex_hull_3d,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A box of the given size with its corner at `offset` on every axis: 8 corners, 6 quad faces,
/// and a support point exactly at the right corner in 26 directions.
fn box_far_away<N: Scalar>(offset: f64, size: f64) {
    let corner = |i: u32| {
        let k = |b: u32| N::lit(offset + if i & (1 << b) != 0 { size } else { 0.0 });
        Point3::new(k(0), k(1), k(2))
    };
    let mut cloud: Vec<Point3<N>> = (0..8).map(corner).collect();
    // A point in the middle of a face and one inside: neither may become a vertex.
    let mid = |t: f64| N::lit(offset + size * t);
    cloud.push(Point3::new(mid(0.5), mid(0.5), mid(1.0)));
    cloud.push(Point3::new(mid(0.3), mid(0.6), mid(0.4)));
    let hull = convex_hull_3d(&cloud).unwrap_or_else(|e| panic!("{offset} {size}: {e}"));
    assert_eq!(hull.vertices.len(), 8, "{offset} {size}");
    assert_eq!(hull.faces.len(), 6);
    assert!(hull.faces.iter().all(|f| f.len() == 4));
    let poly = ConvexPolyhedron::from_points(&cloud).unwrap();
    for n in hull.normals.iter() {
        let axis = n.iter().filter(|x| x.abs().to_f64() > 1.0 - 1e-6).count();
        assert_eq!(axis, 1, "face normal {n:?} of a box is an axis");
    }
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                if (dx, dy, dz) == (0, 0, 0) {
                    continue;
                }
                let d = Vec3::new(N::lit(dx as f64), N::lit(dy as f64), N::lit(dz as f64));
                let best = (0..8).map(|i| corner(i).coords.dot(&d)).fold(N::lit(-1e300), N::max);
                let got = poly.local_support_point(&d).coords.dot(&d);
                assert_eq!(got, best, "{offset} {size} {d:?}");
            }
        }
    }
    // The 2D hull and polygon the same way.
    let square: Vec<Point2<N>> = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.5, 0.0)]
        .iter()
        .map(|&(x, y)| Point2::new(N::lit(offset + size * x), N::lit(offset + size * y)))
        .collect();
    assert_eq!(convex_hull_2d(&square).unwrap().len(), 4, "{offset} {size}");
    assert_eq!(ConvexPolygon::from_hull(&square).unwrap().len(), 4);
    assert_eq!(ConvexPolygon::from_convex_ccw(&square[..4]).unwrap().len(), 4);
    let outline = [square[0], square[4], square[1], square[2], square[3]];
    assert_eq!(ConvexPolygon::from_convex_polyline(&outline).unwrap().len(), 4);
}

/// A unit box at `1e6` used to be refused as "coincident" or "collinear" because the hull
/// tolerance grew with the coordinates; it is relative to the extent now.
#[test]
fn hulls_far_from_the_origin_f64() {
    for offset in [0.0, 1e3, 1e6, -1e6, 1e9] {
        for size in [1.0, 1e-3, 1e-5] {
            box_far_away::<f64>(offset, size);
        }
    }
}

/// In `f32`, within the envelope (`MAX_COORDINATE = 1e5`): a unit box at `1e5` has corners that
/// `f32` represents exactly, and the hull keeps it (the old tolerance, `128 ε · 1e5 ≈ 1.5`,
/// refused it as collinear).
#[test]
fn hulls_far_from_the_origin_f32() {
    for offset in [0.0, 1e3, 9e4, -9e4] {
        box_far_away::<f32>(offset, 1.0);
    }
    for size in [0.25, 0.015625] {
        box_far_away::<f32>(1024.0, size);
    }
}

/// A random strictly convex polygon: `n` points on an ellipse at sorted random angles (at least
/// a minimum gap apart), scaled and moved.
fn random_convex<N: Scalar>(rng: &mut ChaCha8Rng, n: usize) -> Vec<Point2<N>> {
    let (rx, ry) = (rng.random_range(0.1..10.0), rng.random_range(0.1..10.0));
    let (cx, cy) = (rng.random_range(-100.0..100.0), rng.random_range(-100.0..100.0));
    let mut angles: Vec<f64> = Vec::new();
    while angles.len() < n {
        let a = rng.random_range(0.0..core::f64::consts::TAU);
        let gap = 0.05;
        if angles.iter().all(|&b: &f64| {
            let d = (a - b).abs();
            d.min(core::f64::consts::TAU - d) > gap
        }) {
            angles.push(a);
        }
    }
    angles.sort_by(f64::total_cmp);
    angles
        .iter()
        .map(|a| Point2::new(N::lit(cx + rx * a.cos()), N::lit(cy + ry * a.sin())))
        .collect()
}

/// Adds repeated vertices and points on (or within an ulp or two of) the edges, then rotates the
/// start of the loop.
fn noisy_outline<N: Scalar>(rng: &mut ChaCha8Rng, clean: &[Point2<N>]) -> Vec<Point2<N>> {
    let n = clean.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (a, b) = (clean[i], clean[(i + 1) % n]);
        out.push(a);
        if rng.random_bool(0.3) {
            out.push(a);
        }
        let mut ts: Vec<f64> =
            (0..rng.random_range(0..4)).map(|_| rng.random_range(0.05..0.95)).collect();
        ts.sort_by(f64::total_cmp);
        for t in ts {
            out.push(a + (b - a) * N::lit(t));
        }
    }
    let shift = rng.random_range(0..out.len());
    out.rotate_left(shift);
    out
}

fn polyline_matches_hull<N: Scalar>(seed: u64, tol: f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut merged_some = 0;
    for case in 0..300 {
        let n = rng.random_range(3..24);
        let clean = random_convex::<N>(&mut rng, n);
        let outline = noisy_outline(&mut rng, &clean);
        let poly = ConvexPolygon::from_convex_polyline(&outline)
            .unwrap_or_else(|e| panic!("case {case}: {e} for {outline:?}"));
        let oracle = ConvexPolygon::from_hull(&outline)
            .unwrap_or_else(|e| panic!("case {case}: hull {e} for {outline:?}"));
        assert_eq!(poly.len(), oracle.len(), "case {case}");
        assert_eq!(poly.len(), n, "case {case}: every clean corner is kept, nothing else");
        // Same vertex set, each a clean corner.
        for v in poly.vertices() {
            assert!(oracle.vertices().contains(v), "case {case}: {v:?}");
            assert!(clean.contains(v), "case {case}: {v:?}");
        }
        // Same support in every direction.
        for k in 0..64 {
            let a = k as f64 * core::f64::consts::TAU / 64.0;
            let d = Vec2::new(N::lit(a.cos()), N::lit(a.sin()));
            let (p, q) = (poly.local_support_point(&d), oracle.local_support_point(&d));
            assert!((p.coords.dot(&d) - q.coords.dot(&d)).abs().to_f64() <= tol, "case {case}");
        }
        if outline.len() > n {
            merged_some += 1;
        }
        // The strict constructor refuses what this one merges.
        if outline.len() > n {
            assert!(ConvexPolygon::from_convex_ccw(&outline).is_err(), "case {case}");
        }
    }
    assert!(merged_some > 200, "the cases exercised the merging ({merged_some})");
}

#[test]
fn from_convex_polyline_agrees_with_the_hull() {
    polyline_matches_hull::<f64>(1, 1e-9);
    polyline_matches_hull::<f32>(2, 1e-3);
}

/// A nearly straight outline: a circle sampled so densely that neighbouring vertices are within
/// the tolerance of their chord. `from_convex_ccw` refuses it; the polyline constructor merges
/// the flattest runs and stays within two tolerances of every input point.
#[test]
fn dense_circle_is_merged() {
    let n = 20000;
    let pts: Vec<Point2<f32>> = (0..n)
        .map(|k| {
            let a = k as f64 * core::f64::consts::TAU / n as f64;
            Point2::new(a.cos() as f32, a.sin() as f32)
        })
        .collect();
    assert!(ConvexPolygon::from_convex_ccw(&pts).is_err());
    let poly = ConvexPolygon::from_convex_polyline(&pts).unwrap();
    assert!(poly.len() > 100 && poly.len() < n, "{}", poly.len());
}

#[test]
fn from_convex_polyline_errors() {
    let p = |xy: &[(f64, f64)]| -> Vec<Point2<f64>> {
        xy.iter().map(|&(x, y)| Point2::new(x, y)).collect()
    };
    let dent = p(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (1.0, 1.9), (0.0, 2.0)]);
    assert_eq!(
        ConvexPolygon::from_convex_polyline(&dent),
        Err(ShapeError::NotConvex { vertex: 3 })
    );
    // A reflex corner far from any chord.
    let arrow = p(&[(0.0, 0.0), (2.0, 1.0), (0.0, 2.0), (0.5, 1.0)]);
    assert!(matches!(
        ConvexPolygon::from_convex_polyline(&arrow),
        Err(ShapeError::NotConvex { vertex: 3 })
    ));
    // Doubling back along a side: every point is on the boundary, but it is not an outline.
    let back = p(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]);
    assert!(matches!(
        ConvexPolygon::from_convex_polyline(&back),
        Err(ShapeError::NotConvex { .. })
    ));
    // Going round twice is not an outline.
    let twice = p(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)].repeat(2));
    assert!(ConvexPolygon::from_convex_polyline(&twice).is_err());
    let cw = p(&[(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0)]);
    assert_eq!(ConvexPolygon::from_convex_polyline(&cw), Err(ShapeError::Clockwise));
    let same = p(&[(1.0, 1.0), (1.0, 1.0), (1.0, 1.0)]);
    assert_eq!(
        ConvexPolygon::from_convex_polyline(&same),
        Err(ShapeError::Degenerate("coincident"))
    );
    let line = p(&[(0.0, 0.0), (1.0, 0.0), (2.0, 1e-17), (3.0, 0.0)]);
    assert_eq!(
        ConvexPolygon::from_convex_polyline(&line),
        Err(ShapeError::Degenerate("collinear"))
    );
    assert_eq!(
        ConvexPolygon::from_convex_polyline(&p(&[(0.0, 0.0), (1.0, 0.0)])),
        Err(ShapeError::TooFewPoints { got: 2, needed: 3 })
    );
    let nan = p(&[(0.0, 0.0), (1.0, f64::NAN), (0.0, 1.0)]);
    assert!(matches!(ConvexPolygon::from_convex_polyline(&nan), Err(ShapeError::NonFinite { .. })));
}

/// Found by the oracle above: a triangle whose lower chain is a run of nearly collinear points.
/// The hull's simplification used to let the chord from vertex 0 run all the way round to vertex
/// 0 itself (zero length, so it "covered" every vertex) and reported the triangle as collinear.
#[test]
fn hull_simplification_never_closes_the_loop_on_itself() {
    let v = [
        [91.29971529730014, 19.775314708413195],
        [91.62283757861205, 19.24104693773655],
        [93.5365808873304, 16.07676075157498],
        [93.66706258221163, 16.179232128990716],
        [93.73793387433689, 16.234889582934112],
        [93.28282379613435, 16.92856614771484],
        [92.58598858395989, 17.99067898447852],
        [89.93891120787421, 22.025341429669965],
    ];
    let pts: Vec<Point2<f64>> = v.iter().map(|c| Point2::new(c[0], c[1])).collect();
    assert_eq!(convex_hull_2d(&pts).unwrap().len(), 3);
    assert_eq!(ConvexPolygon::from_hull(&pts).unwrap().len(), 3);
}
