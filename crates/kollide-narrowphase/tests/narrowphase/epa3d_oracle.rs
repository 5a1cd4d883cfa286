//! EPA and GJK in 3D against an exact SAT oracle that needs no hull: for small point clouds, the
//! candidate axes are the normals of every triple of points of A and of B (a superset of the face
//! normals) and the cross products of every pair of point-pair directions of A and B (a superset
//! of the edge–edge axes). The overlap along any direction is at least the penetration depth, and
//! the true axis is among the candidates, so the minimum overlap is the exact depth.

use crate::common::{Cloud, overlap_along3 as overlap_along, random_pose3 as random_pose, rng};
use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_narrowphase::{QuerySettings, Status, closest_points, contact, intersection_test};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

fn random_cloud(rng: &mut ChaCha8Rng) -> Vec<Point3<f64>> {
    match rng.random_range(0..4) {
        // A random cloud of 4..=9 points.
        0 => {
            let n = rng.random_range(4..=9);
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
        // A box.
        1 => {
            let h = Vec3::new(
                rng.random_range(0.1..1.0),
                rng.random_range(0.1..1.0),
                rng.random_range(0.1..1.0),
            );
            (0..8)
                .map(|i| {
                    Point3::new(
                        if i & 1 == 0 { -h.x } else { h.x },
                        if i & 2 == 0 { -h.y } else { h.y },
                        if i & 4 == 0 { -h.z } else { h.z },
                    )
                })
                .collect()
        }
        // A flat one: thickness 1/50 of its width.
        2 => {
            let n = rng.random_range(4..=8);
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
        // A tetrahedron.
        _ => (0..4)
            .map(|_| {
                Point3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
            })
            .collect(),
    }
}

fn sat_depth(a: &[Point3<f64>], b: &[Point3<f64>]) -> f64 {
    let mut axes: Vec<Vec3<f64>> = Vec::new();
    for poly in [a, b] {
        for i in 0..poly.len() {
            for j in (i + 1)..poly.len() {
                for k in (j + 1)..poly.len() {
                    let n = (poly[j] - poly[i]).cross(&(poly[k] - poly[i]));
                    if n.norm() > 1e-12 {
                        axes.push(n.normalize());
                    }
                }
            }
        }
    }
    let dirs = |p: &[Point3<f64>]| {
        let mut d = Vec::new();
        for i in 0..p.len() {
            for j in (i + 1)..p.len() {
                d.push(p[j] - p[i]);
            }
        }
        d
    };
    for ea in dirs(a) {
        for eb in dirs(b) {
            let n = ea.cross(&eb);
            if n.norm() > 1e-12 * ea.norm() * eb.norm() {
                axes.push(n.normalize());
            }
        }
    }
    axes.iter()
        .flat_map(|n| [overlap_along(a, b, n), overlap_along(a, b, &-n)])
        .fold(f64::MAX, f64::min)
}

fn cast<N: Scalar>(p: &[Point3<f64>]) -> Vec<Point3<N>> {
    p.iter().map(|p| p.map(N::lit)).collect()
}

fn cast_pose<N: Scalar>(p: &Iso3<f64>) -> Iso3<N> {
    Iso3::from_parts(
        p.translation.vector.map(N::lit).into(),
        kollide_math::Rot3::new_normalize(p.rotation.into_inner().cast::<N>()),
    )
}

fn epa_vs_sat<N: Scalar>(seed: u64, count: usize, center: Vec3<f64>, tol: f64) -> usize {
    let mut rng = rng(seed);
    let settings = QuerySettings::<N>::default();
    let mut cases = 0;
    let mut not_converged = 0;
    while cases < count {
        let pa = random_cloud(&mut rng);
        let pb = random_cloud(&mut rng);
        let (pose_a, pose_b) =
            (random_pose(&mut rng, center, 0.0), random_pose(&mut rng, center, 1.0));
        let (qa, qb) = (cast_pose::<N>(&pose_a), cast_pose::<N>(&pose_b));
        // The oracle sees the same (rounded) world vertices as kollide.
        let wa: Vec<Point3<f64>> =
            cast::<N>(&pa).iter().map(|p| (qa * p).map(|x| x.to_f64())).collect();
        let wb: Vec<Point3<f64>> =
            cast::<N>(&pb).iter().map(|p| (qb * p).map(|x| x.to_f64())).collect();
        let depth = sat_depth(&wa, &wb);
        if depth <= 1e-6 {
            continue;
        }
        cases += 1;
        let a = Cloud { points: cast::<N>(&pa) };
        let b = Cloud { points: cast::<N>(&pb) };
        let c = contact(&qa, &a, &qb, &b, N::zero(), &settings)
            .unwrap_or_else(|| panic!("missed an overlap of depth {depth}"));
        let got = -c.separation.to_f64();
        assert!(
            (got - depth).abs() <= tol,
            "case {cases}: EPA {got} vs SAT {depth}, err {:e}, status {:?}",
            (got - depth).abs(),
            c.status
        );
        let n = c.normal.map(|x| x.to_f64());
        let along = overlap_along(&wa, &wb, &n);
        assert!((along - depth).abs() <= tol * 10.0, "normal not minimal: {along} vs {depth}");
        if c.status != Status::Converged {
            not_converged += 1;
        }
    }
    not_converged
}

#[test]
fn epa3_matches_sat_f64() {
    let bad = epa_vs_sat::<f64>(11, 2_000, Vec3::zeros(), 1e-9);
    assert_eq!(bad, 0);
}

#[test]
fn epa3_matches_sat_f32() {
    epa_vs_sat::<f32>(12, 2_000, Vec3::zeros(), 1e-4);
}

#[test]
fn epa3_matches_sat_far_from_origin() {
    epa_vs_sat::<f64>(13, 500, Vec3::new(1000.0, -1000.0, 1000.0), 1e-9);
    // At 1,000 units, an f32 ulp is 6.1e-5; allow a few.
    epa_vs_sat::<f32>(14, 500, Vec3::new(1000.0, -1000.0, 1000.0), 3e-4);
}

#[test]
fn gjk3_distance_is_consistent() {
    // Disjoint pairs: the witness gap equals the distance; the SAT lower bound does not exceed it.
    let mut rng = rng(15);
    let s = QuerySettings::<f64>::default();
    let mut done = 0;
    while done < 2_000 {
        let pa = random_cloud(&mut rng);
        let pb = random_cloud(&mut rng);
        let (pose_a, pose_b) =
            (random_pose(&mut rng, Vec3::zeros(), 0.0), random_pose(&mut rng, Vec3::zeros(), 2.5));
        let wa: Vec<_> = pa.iter().map(|p| pose_a * p).collect();
        let wb: Vec<_> = pb.iter().map(|p| pose_b * p).collect();
        let sat = sat_depth(&wa, &wb);
        if sat >= -1e-6 {
            continue;
        }
        done += 1;
        let a = Cloud { points: pa };
        let b = Cloud { points: pb };
        let c = closest_points(&pose_a, &a, &pose_b, &b, &s);
        assert!(c.separation > 0.0);
        let gap = (c.point_b - c.point_a).norm();
        assert!((gap - c.separation).abs() < 1e-9);
        // The separating-axis bound: distance ≥ −SAT (SAT gives the max over axes of the gap).
        assert!(c.separation >= -sat - 1e-9, "{} < {}", c.separation, -sat);
        assert!(!intersection_test(&pose_a, &a, &pose_b, &b, None, &s).intersecting);
        // Both witnesses lie on their shapes' surfaces: the gap along the normal is the distance.
        assert!((overlap_along(&wa, &wb, &c.normal) + c.separation).abs() < 1e-7);
    }
}
