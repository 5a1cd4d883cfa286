//! EPA on kollide's own convex polyhedra (random hulls of 4–40 points, boxes, flat hulls, and a
//! 256-vertex sphere hull that exercises hill climbing) against exact SAT over the hulls' face
//! normals and the cross products of every pair of edges.

use crate::common::{overlap_along3 as overlap_along, random_pose3, rng};
use kollide_math::{Iso3, Point3, Vec3};
use kollide_narrowphase::{QuerySettings, Status, contact};
use kollide_shapes::ConvexPolyhedron;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn random_hull(rng: &mut ChaCha8Rng, kind: u32) -> ConvexPolyhedron<f64> {
    loop {
        let pts: Vec<Point3<f64>> = match kind {
            0 => {
                let n = rng.random_range(4..=40);
                (0..n)
                    .map(|_| {
                        Point3::new(
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-1.0..1.0),
                        )
                    })
                    .collect()
            }
            1 => {
                let h = Vec3::new(
                    rng.random_range(0.1..1.0),
                    rng.random_range(0.1..1.0),
                    rng.random_range(0.1..1.0),
                );
                return ConvexPolyhedron::from_cuboid(h).unwrap();
            }
            2 => {
                let n = rng.random_range(4..=20);
                (0..n)
                    .map(|_| {
                        Point3::new(
                            rng.random_range(-1.0..1.0),
                            rng.random_range(-0.02..0.02),
                            rng.random_range(-1.0..1.0),
                        )
                    })
                    .collect()
            }
            _ => {
                // 64 points on a unit sphere (golden spiral): hill climbing runs above 16 vertices.
                let n = 64;
                (0..n)
                    .map(|i| {
                        let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                        let r = (1.0 - y * y).sqrt();
                        let phi = i as f64 * 2.399_963_229_728_653;
                        Point3::new(r * phi.cos(), y, r * phi.sin())
                    })
                    .collect()
            }
        };
        if let Ok(h) = ConvexPolyhedron::from_points(&pts) {
            return h;
        }
    }
}

fn world(h: &ConvexPolyhedron<f64>, pose: &Iso3<f64>) -> Vec<Point3<f64>> {
    h.vertices().iter().map(|p| pose * p).collect()
}

fn sat_depth(
    ha: &ConvexPolyhedron<f64>,
    pa: &Iso3<f64>,
    hb: &ConvexPolyhedron<f64>,
    pb: &Iso3<f64>,
) -> f64 {
    let (wa, wb) = (world(ha, pa), world(hb, pb));
    let mut axes: Vec<Vec3<f64>> = Vec::new();
    axes.extend(ha.face_normals().iter().map(|n| pa * n.into_inner()));
    axes.extend(hb.face_normals().iter().map(|n| pb * n.into_inner()));
    let edges = |h: &ConvexPolyhedron<f64>, w: &[Point3<f64>]| -> Vec<Vec3<f64>> {
        h.edges().iter().map(|e| w[e.vertices[1] as usize] - w[e.vertices[0] as usize]).collect()
    };
    for ea in edges(ha, &wa) {
        for eb in edges(hb, &wb) {
            let n = ea.cross(&eb);
            if n.norm() > 1e-9 * ea.norm() * eb.norm() {
                axes.push(n.normalize());
            }
        }
    }
    axes.iter()
        .flat_map(|n| [overlap_along(&wa, &wb, n), overlap_along(&wa, &wb, &-n)])
        .fold(f64::MAX, f64::min)
}

#[test]
fn epa_on_hulls_matches_sat() {
    let mut rng = rng(21);
    let s = QuerySettings::<f64>::default();
    let mut cases = 0;
    let mut worst: f64 = 0.0;
    while cases < 2_000 {
        let ka = rng.random_range(0..4);
        let kb = rng.random_range(0..3);
        let ha = random_hull(&mut rng, ka);
        let hb = random_hull(&mut rng, kb);
        let (pa, pb) = (
            random_pose3(&mut rng, Vec3::zeros(), 0.0),
            random_pose3(&mut rng, Vec3::zeros(), 1.0),
        );
        let depth = sat_depth(&ha, &pa, &hb, &pb);
        if depth <= 1e-6 {
            continue;
        }
        cases += 1;
        let c = contact(&pa, &ha, &pb, &hb, 0.0, &s).expect("no miss");
        let err = (-c.separation - depth).abs();
        worst = worst.max(err);
        assert!(err <= 1e-9, "case {cases}: EPA {} vs SAT {depth} ({:?})", -c.separation, c.status);
        assert_eq!(c.status, Status::Converged);
        let along = overlap_along(&world(&ha, &pa), &world(&hb, &pb), &c.normal);
        assert!((along - depth).abs() <= 1e-8, "normal not minimal");
    }
    eprintln!("worst EPA error over {cases} hull pairs: {worst:e}");
}
