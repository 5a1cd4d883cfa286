//! Polytope pairs (boxes, triangles, polygons, polyhedra; 2D and 3D; `f32` and `f64`) on
//! nearly degenerate input, against an exact oracle: SAT over every face normal and edge–edge
//! axis, and brute-force feature distances when apart, computed in `f64` from the very same
//! inputs (the shapes' stored vertices and the poses' stored numbers, rotations a few ulps off
//! unit included). Classes: identical, nested, touching, near-touching, 10⁴:1 sizes, 1000:1
//! slivers, far from the origin, rotations a few ulps off unit.
//!
//! Checked per case: `intersection_test`, `contact` (margin 0: no silent miss, no false hit),
//! `closest_points` (separation within the error bound, `point_b − point_a = separation ·
//! normal`, unit normal) and `distance`. Error bounds: `f64` `1e-9 · max(|d|, size)`, `f32`
//! `1e-3 · max(|d|, 0.01)`; a miss or a false hit counts only outside the touching band (that
//! bound).

use crate::common::{point_segment, point_triangle, segment_segment};
use kollide_math::{Iso2, Iso3, Point2, Point3, Pose, Scalar, Vec2, Vec3};
use kollide_narrowphase::{QuerySettings, closest_points, contact, distance, intersection_test};
use kollide_shapes::{ConvexPolygon, ConvexPolyhedron, Cuboid, Shape2, Shape3, Triangle};
use nalgebra::{Complex, Quaternion, UnitComplex, UnitQuaternion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const CLASSES: [&str; 8] =
    ["identical", "nested", "touching", "near", "ratio", "sliver", "far", "ulps"];

/// A 2D or 3D polytope in f64 for the oracle: vertices, face normals, edges (vertex pairs).
struct Poly<const D: usize> {
    v: Vec<nalgebra::SVector<f64, D>>,
    normals: Vec<nalgebra::SVector<f64, D>>,
    edges: Vec<[usize; 2]>,
    /// Triangles (3D faces fanned) for brute-force distances.
    tris: Vec<[usize; 3]>,
}

fn cross<const D: usize>(
    u: &nalgebra::SVector<f64, D>,
    v: &nalgebra::SVector<f64, D>,
) -> Vec3<f64> {
    Vec3::new(u[0], u[1], u[2]).cross(&Vec3::new(v[0], v[1], v[2]))
}

fn support_gap<const D: usize>(a: &Poly<D>, b: &Poly<D>, n: &nalgebra::SVector<f64, D>) -> f64 {
    let max_a = a.v.iter().map(|p| p.dot(n)).fold(f64::MIN, f64::max);
    let min_b = b.v.iter().map(|p| p.dot(n)).fold(f64::MAX, f64::min);
    min_b - max_a
}

/// The exact signed distance when overlapping, a lower bound when apart.
fn sat<const D: usize>(a: &Poly<D>, b: &Poly<D>) -> f64 {
    let mut axes: Vec<nalgebra::SVector<f64, D>> = Vec::new();
    axes.extend(a.normals.iter().chain(&b.normals).copied());
    if D == 3 {
        for ea in &a.edges {
            for eb in &b.edges {
                let c = cross(&(a.v[ea[1]] - a.v[ea[0]]), &(b.v[eb[1]] - b.v[eb[0]]));
                if c.norm()
                    > 1e-12 * (a.v[ea[1]] - a.v[ea[0]]).norm() * (b.v[eb[1]] - b.v[eb[0]]).norm()
                {
                    axes.push(nalgebra::SVector::from_fn(|i, _| c[i]));
                }
            }
        }
    }
    axes.iter()
        .filter(|n| n.norm() > 0.0)
        .flat_map(|n| {
            let n = n.normalize();
            [support_gap(a, b, &n), support_gap(a, b, &-n)]
        })
        .fold(f64::MIN, f64::max)
}

/// The exact distance of two disjoint polytopes: the least distance over feature pairs.
fn brute_distance<const D: usize>(a: &Poly<D>, b: &Poly<D>) -> f64 {
    let p3 =
        |p: &nalgebra::SVector<f64, D>| Point3::new(p[0], p[1], if D == 3 { p[2] } else { 0.0 });
    let mut best = f64::MAX;
    for (x, y) in [(a, b), (b, a)] {
        for p in x.v.iter().map(p3) {
            for e in &y.edges {
                best = best.min(point_segment(&p, &p3(&y.v[e[0]]), &p3(&y.v[e[1]])));
            }
            for t in &y.tris {
                let [u, v, w] = t.map(|k| p3(&y.v[k]));
                best = best.min(point_triangle(&p, &u, &v, &w));
            }
        }
    }
    for ea in &a.edges {
        for eb in &b.edges {
            best = best.min(segment_segment(
                &p3(&a.v[ea[0]]),
                &p3(&a.v[ea[1]]),
                &p3(&b.v[eb[0]]),
                &p3(&b.v[eb[1]]),
            ));
        }
    }
    best
}

fn signed_distance<const D: usize>(a: &Poly<D>, b: &Poly<D>) -> f64 {
    let s = sat(a, b);
    if s <= 0.0 { s } else { brute_distance(a, b) }
}

// ---- 2D -------------------------------------------------------------------------------------

fn iso2_f64<N: Scalar>(p: &Iso2<N>) -> Iso2<f64> {
    let c = Complex::new(p.rotation.re.to_f64(), p.rotation.im.to_f64());
    Iso2::from_parts(p.translation.vector.map(|x| x.to_f64()).into(), UnitComplex::new_unchecked(c))
}

fn poly2<N: Scalar>(s: &Shape2<N>, pose: &Iso2<N>, origin: &Iso2<N>) -> Poly<2> {
    let mut pose = iso2_f64(pose);
    // Relative to A's position, exactly: world coordinates near 1e6 would round the oracle.
    pose.translation.vector -= iso2_f64(origin).translation.vector;
    let local: Vec<Point2<f64>> = match s {
        Shape2::Cuboid(c) => {
            let h = c.half_extents().map(|x| x.to_f64());
            vec![
                Point2::new(-h.x, -h.y),
                Point2::new(h.x, -h.y),
                Point2::new(h.x, h.y),
                Point2::new(-h.x, h.y),
            ]
        }
        Shape2::Triangle(t) => t.vertices().iter().map(|p| p.map(|x| x.to_f64())).collect(),
        Shape2::Polygon(p) => p.vertices().iter().map(|p| p.map(|x| x.to_f64())).collect(),
        _ => unreachable!(),
    };
    let v: Vec<Vec2<f64>> = local.iter().map(|p| (pose * p).coords).collect();
    let k = v.len();
    let normals = (0..k)
        .map(|i| {
            let e = v[(i + 1) % k] - v[i];
            Vec2::new(e.y, -e.x)
        })
        .collect();
    let edges = (0..k).map(|i| [i, (i + 1) % k]).collect();
    Poly { v, normals, edges, tris: Vec::new() }
}

fn iso3_f64<N: Scalar>(p: &Iso3<N>) -> Iso3<f64> {
    let q = p.rotation.into_inner().coords.map(|x| x.to_f64());
    Iso3::from_parts(
        p.translation.vector.map(|x| x.to_f64()).into(),
        UnitQuaternion::new_unchecked(Quaternion::from(q)),
    )
}

fn poly3<N: Scalar>(s: &Shape3<N>, pose: &Iso3<N>, origin: &Iso3<N>) -> Poly<3> {
    let mut pose = iso3_f64(pose);
    pose.translation.vector -= iso3_f64(origin).translation.vector;
    let (local, faces): (Vec<Point3<f64>>, Vec<Vec<usize>>) = match s {
        Shape3::Cuboid(c) => {
            let h = c.half_extents().map(|x| x.to_f64());
            let v = (0..8)
                .map(|i| {
                    Point3::new(
                        if i & 1 == 0 { -h.x } else { h.x },
                        if i & 2 == 0 { -h.y } else { h.y },
                        if i & 4 == 0 { -h.z } else { h.z },
                    )
                })
                .collect();
            // Faces as vertex loops (counter-clockwise from outside).
            let f = vec![
                vec![0, 2, 6, 4],
                vec![1, 5, 7, 3],
                vec![0, 4, 5, 1],
                vec![2, 3, 7, 6],
                vec![0, 1, 3, 2],
                vec![4, 6, 7, 5],
            ];
            (v, f)
        }
        Shape3::Triangle(t) => (
            t.vertices().iter().map(|p| p.map(|x| x.to_f64())).collect(),
            vec![vec![0, 1, 2], vec![0, 2, 1]],
        ),
        Shape3::Polyhedron(h) => (
            h.vertices().iter().map(|p| p.map(|x| x.to_f64())).collect(),
            (0..h.num_faces()).map(|i| h.face(i).iter().map(|&k| k as usize).collect()).collect(),
        ),
        _ => unreachable!(),
    };
    let v: Vec<Vec3<f64>> = local.iter().map(|p| (pose * p).coords).collect();
    let mut normals = Vec::new();
    let mut edges = Vec::new();
    let mut tris = Vec::new();
    for f in &faces {
        // Newell's normal, from the posed vertices.
        let mut n = Vec3::zeros();
        for i in 0..f.len() {
            let (p, q) = (v[f[i]], v[f[(i + 1) % f.len()]]);
            n += Vec3::new(
                (p.y - q.y) * (p.z + q.z),
                (p.z - q.z) * (p.x + q.x),
                (p.x - q.x) * (p.y + q.y),
            );
        }
        normals.push(n);
        for i in 0..f.len() {
            let e = [f[i], f[(i + 1) % f.len()]];
            if !edges.iter().any(|g: &[usize; 2]| (g[0] == e[1] && g[1] == e[0]) || *g == e) {
                edges.push(e);
            }
        }
        for i in 1..f.len() - 1 {
            tris.push([f[0], f[i], f[i + 1]]);
        }
    }
    Poly { v, normals, edges, tris }
}

// ---- case generation --------------------------------------------------------------------------

/// A rotation's stored numbers scaled by `1 + kε`, `k` in -8..=8 (what integration leaves).
fn off_unit3<N: Scalar>(q: UnitQuaternion<N>, k: i32) -> UnitQuaternion<N> {
    let f = N::one() + N::lit(k as f64) * N::EPSILON;
    UnitQuaternion::new_unchecked(q.into_inner() * f)
}

fn off_unit2<N: Scalar>(r: UnitComplex<N>, k: i32) -> UnitComplex<N> {
    let f = N::one() + N::lit(k as f64) * N::EPSILON;
    UnitComplex::new_unchecked(Complex::new(r.re * f, r.im * f))
}

fn rand_hull2(rng: &mut ChaCha8Rng, sx: f64, sy: f64) -> Vec<Point2<f64>> {
    let n = rng.random_range(3..=10);
    (0..n).map(|_| Point2::new(rng.random_range(-sx..sx), rng.random_range(-sy..sy))).collect()
}

/// A random 2D polytope of size about `size` and aspect `aspect` (1 = round).
fn shape2<N: Scalar>(rng: &mut ChaCha8Rng, size: f64, aspect: f64) -> Shape2<N> {
    let (sx, sy) = (size, size / aspect);
    loop {
        let s: Option<Shape2<N>> = match rng.random_range(0..3) {
            0 => Cuboid::new(Vec2::new(
                N::lit(sx * rng.random_range(0.3..1.0)),
                N::lit(sy * rng.random_range(0.3..1.0)),
            ))
            .ok()
            .map(Shape2::Cuboid),
            1 => {
                let p = rand_hull2(rng, sx, sy);
                Triangle::new_any_winding(p[0].map(N::lit), p[1].map(N::lit), p[2].map(N::lit))
                    .ok()
                    .map(Shape2::Triangle)
            }
            _ => {
                let p: Vec<Point2<N>> =
                    rand_hull2(rng, sx, sy).iter().map(|p| p.map(N::lit)).collect();
                ConvexPolygon::from_hull(&p).ok().map(Shape2::Polygon)
            }
        };
        if let Some(s) = s {
            return s;
        }
    }
}

fn shape3<N: Scalar>(rng: &mut ChaCha8Rng, size: f64, aspect: f64) -> Shape3<N> {
    let (sx, sz) = (size, size / aspect);
    loop {
        let s: Option<Shape3<N>> = match rng.random_range(0..4) {
            0 | 1 => Cuboid::new(Vec3::new(
                N::lit(sx * rng.random_range(0.3..1.0)),
                N::lit(sx * rng.random_range(0.3..1.0)),
                N::lit(sz * rng.random_range(0.3..1.0)),
            ))
            .ok()
            .map(Shape3::Cuboid),
            2 => {
                let n = rng.random_range(4..=12);
                let p: Vec<Point3<N>> = (0..n)
                    .map(|_| {
                        Point3::new(
                            N::lit(rng.random_range(-sx..sx)),
                            N::lit(rng.random_range(-sx..sx)),
                            N::lit(rng.random_range(-sz..sz)),
                        )
                    })
                    .collect();
                ConvexPolyhedron::from_points(&p).ok().map(Shape3::Polyhedron)
            }
            _ => {
                let p = |rng: &mut ChaCha8Rng| {
                    Point3::new(
                        N::lit(rng.random_range(-sx..sx)),
                        N::lit(rng.random_range(-sx..sx)),
                        N::lit(rng.random_range(-sz..sz)),
                    )
                };
                let (a, b, c) = (p(rng), p(rng), p(rng));
                Triangle::new(a, b, c).ok().map(Shape3::Triangle)
            }
        };
        if let Some(s) = s {
            return s;
        }
    }
}

/// Places B by `-s_target` along axis `n` from its current position so that the support gap
/// along `n` becomes `target` (exact for face contacts).
fn shift_for_gap<const D: usize>(
    a: &Poly<D>,
    b: &Poly<D>,
    n: &nalgebra::SVector<f64, D>,
    target: f64,
) -> nalgebra::SVector<f64, D> {
    n * (target - support_gap(a, b, n))
}

struct Case2<N: Scalar> {
    a: Shape2<N>,
    pa: Iso2<N>,
    b: Shape2<N>,
    pb: Iso2<N>,
}
struct Case3<N: Scalar> {
    a: Shape3<N>,
    pa: Iso3<N>,
    b: Shape3<N>,
    pb: Iso3<N>,
}

fn class_params(class: &str, rng: &mut ChaCha8Rng, far: f64) -> (f64, f64, f64, f64, f64) {
    // (size A, size B, aspect, centre offset magnitude, gap target or NaN for "overlap random")
    let size = 10f64.powf(rng.random_range(-1.0..1.0));
    match class {
        "ratio" => {
            // Sizes 10..100 against 1e-3..1e-2 (10⁴:1), the small one sunk by a fraction of it.
            let big = 10f64.powf(rng.random_range(1.0..2.0));
            let small = big * 1e-4;
            (big, small, 1.0, 0.0, -rng.random_range(0.1..0.9) * small)
        }
        "sliver" => (
            size,
            size * rng.random_range(0.5..1.5),
            1000.0,
            0.0,
            -rng.random_range(0.0..1.0) * size * 2e-3,
        ),
        "far" => (
            size,
            size,
            1.0,
            far * 10f64.powf(rng.random_range(-2.0..0.0)),
            rng.random_range(-0.5..0.1) * size,
        ),
        "touching" => (size, size * rng.random_range(0.1..2.0), 1.0, 0.0, 0.0),
        "near" => (
            size,
            size * rng.random_range(0.1..2.0),
            1.0,
            0.0,
            size * 10f64.powf(rng.random_range(-5.0..-2.0))
                * if rng.random_bool(0.5) { 1.0 } else { -1.0 },
        ),
        _ => (size, size, 1.0, 0.0, f64::NAN),
    }
}

fn case2<N: Scalar>(class: &str, rng: &mut ChaCha8Rng, far: f64) -> Case2<N> {
    let (sa, sb, aspect, off, gap) = class_params(class, rng, far);
    let a = shape2::<N>(rng, sa, aspect);
    let angle = rng.random_range(-3.2..3.2);
    let k = if class == "ulps" || class == "identical" { rng.random_range(-8..=8) } else { 0 };
    let centre =
        Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)).normalize() * off;
    let pa =
        Iso2::from_parts(centre.map(N::lit).into(), off_unit2(UnitComplex::new(N::lit(angle)), k));
    match class {
        "identical" | "ulps" => {
            let pb = if class == "identical" {
                pa
            } else {
                let kb = rng.random_range(-8..=8);
                let d = Vec2::new(rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3)) * sa;
                Iso2::from_parts(
                    (centre + d).map(N::lit).into(),
                    off_unit2(UnitComplex::new(N::lit(angle + rng.random_range(-0.01..0.01))), kb),
                )
            };
            Case2 { b: a.clone(), a, pa, pb }
        }
        "nested" => {
            let sn = sa * rng.random_range(0.01..0.2);
            let b = shape2::<N>(rng, sn, 1.0);
            let d = Vec2::new(rng.random_range(-0.1..0.1), rng.random_range(-0.1..0.1)) * sa;
            let ang: f64 = rng.random_range(-3.2..3.2);
            let pb =
                Iso2::from_parts((centre + d).map(N::lit).into(), UnitComplex::new(N::lit(ang)));
            Case2 { a, pa, b, pb }
        }
        _ => {
            let b = shape2::<N>(rng, sb, aspect);
            let ang_b = if class == "sliver" {
                angle + rng.random_range(-1e-3..1e-3)
            } else {
                rng.random_range(-3.2..3.2)
            };
            let pb0 = Iso2::from_parts(centre.map(N::lit).into(), UnitComplex::new(N::lit(ang_b)));
            let (pa64, pb64) = (poly2(&a, &pa, &pa), poly2(&b, &pb0, &pa));
            // Axis: one of A's edge normals (face contact), or a random direction.
            let n = if rng.random_bool(0.7) || class == "sliver" {
                let i = rng.random_range(0..pa64.normals.len());
                pa64.normals[i].normalize()
            } else {
                let t: f64 = rng.random_range(0.0..6.3);
                Vec2::new(t.cos(), t.sin())
            };
            let gap = if gap.is_nan() { -rng.random_range(0.0..0.5) * sa } else { gap };
            let shift = shift_for_gap(&pa64, &pb64, &n, gap);
            let pb = Iso2::from_parts((centre + shift).map(N::lit).into(), pb0.rotation);
            Case2 { a, pa, b, pb }
        }
    }
}

fn case3<N: Scalar>(class: &str, rng: &mut ChaCha8Rng, far: f64) -> Case3<N> {
    let (sa, sb, aspect, off, gap) = class_params(class, rng, far);
    let a = shape3::<N>(rng, sa, aspect);
    let axis = Vec3::new(
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
        rng.random_range(-3.0..3.0),
    );
    let rot = |ax: Vec3<f64>| UnitQuaternion::from_scaled_axis(ax.map(N::lit));
    let k = if class == "ulps" || class == "identical" { rng.random_range(-8..=8) } else { 0 };
    let centre = Vec3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
    .normalize()
        * off;
    let pa = Iso3::from_parts(centre.map(N::lit).into(), off_unit3(rot(axis), k));
    match class {
        "identical" | "ulps" => {
            let pb = if class == "identical" {
                pa
            } else {
                let kb = rng.random_range(-8..=8);
                let d = Vec3::new(
                    rng.random_range(-0.3..0.3),
                    rng.random_range(-0.3..0.3),
                    rng.random_range(-0.3..0.3),
                ) * sa;
                let jitter = Vec3::new(
                    rng.random_range(-0.01..0.01),
                    rng.random_range(-0.01..0.01),
                    rng.random_range(-0.01..0.01),
                );
                Iso3::from_parts((centre + d).map(N::lit).into(), off_unit3(rot(axis + jitter), kb))
            };
            Case3 { b: a.clone(), a, pa, pb }
        }
        "nested" => {
            let sn = sa * rng.random_range(0.01..0.2);
            let b = shape3::<N>(rng, sn, 1.0);
            let d = Vec3::new(
                rng.random_range(-0.1..0.1),
                rng.random_range(-0.1..0.1),
                rng.random_range(-0.1..0.1),
            ) * sa;
            let ax = Vec3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
            );
            let pb = Iso3::from_parts((centre + d).map(N::lit).into(), rot(ax));
            Case3 { a, pa, b, pb }
        }
        _ => {
            let b = shape3::<N>(rng, sb, aspect);
            let ax_b = if class == "sliver" {
                axis + Vec3::new(
                    rng.random_range(-1e-3..1e-3),
                    rng.random_range(-1e-3..1e-3),
                    rng.random_range(-1e-3..1e-3),
                )
            } else {
                Vec3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                )
            };
            let pb0 = Iso3::from_parts(centre.map(N::lit).into(), rot(ax_b));
            let (pa64, pb64) = (poly3(&a, &pa, &pa), poly3(&b, &pb0, &pa));
            let n = if rng.random_bool(0.7) || class == "sliver" {
                let i = rng.random_range(0..pa64.normals.len());
                pa64.normals[i].normalize()
            } else {
                Vec3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                )
                .normalize()
            };
            let gap = if gap.is_nan() { -rng.random_range(0.0..0.5) * sa } else { gap };
            let shift = shift_for_gap(&pa64, &pb64, &n, gap);
            let pb = Iso3::from_parts((centre + shift).map(N::lit).into(), pb0.rotation);
            Case3 { a, pa, b, pb }
        }
    }
}

// ---- checks -----------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    wrong: usize,
    misses: usize,
    false_hits: usize,
    identity: usize,
    by_class: std::collections::BTreeMap<String, usize>,
    worst: Vec<String>,
}

/// `x ≤ tol`, false for NaN.
fn within(x: f64, tol: f64) -> bool {
    x <= tol
}

fn bound<N: Scalar>(d: f64, size: f64) -> f64 {
    if N::EPSILON.to_f64() > 1e-10 { 1e-3 * d.abs().max(0.01) } else { 1e-9 * d.abs().max(size) }
}

#[allow(clippy::too_many_arguments)]
fn check<N: Scalar, const D: usize, P: Pose<N, D>, S: kollide_shapes::SupportMap<N, D>>(
    t: &mut Tally,
    label: &str,
    a: &S,
    pa: &P,
    b: &S,
    pb: &P,
    d: f64,
    size: f64,
) {
    let s = QuerySettings::<N>::default();
    t.cases += 1;
    let tol = bound::<N>(d, size);
    let mut bad = Vec::new();
    let hit = intersection_test(pa, a, pb, b, None, &s);
    if d < -tol && !hit.intersecting {
        t.misses += 1;
        bad.push(format!("miss(it) {:?}", hit.status));
    }
    if d > tol && hit.intersecting {
        t.false_hits += 1;
        bad.push("false hit(it)".into());
    }
    let c0 = contact(pa, a, pb, b, N::zero(), &s);
    if d < -tol && c0.is_none() {
        t.misses += 1;
        bad.push("miss(contact)".into());
    }
    if d > tol && c0.is_some() {
        t.false_hits += 1;
        bad.push("false hit(contact)".into());
    }
    let c = closest_points(pa, a, pb, b, &s);
    let sep = c.separation.to_f64();
    if !within((sep - d).abs(), tol) {
        t.wrong += 1;
        bad.push(format!("sep {sep:e} vs {d:e} {:?}", c.status));
    }
    let gap = (c.point_b - c.point_a - c.normal * c.separation).map(|x| x.to_f64()).norm();
    let n1 = (c.normal.map(|x| x.to_f64()).norm() - 1.0).abs();
    let pt_scale = c.point_a.coords.map(|x| x.to_f64()).amax().max(1.0);
    if !within(gap, tol.max(pt_scale * N::EPSILON.to_f64() * 64.0)) || !within(n1, 1e-3) {
        t.identity += 1;
        bad.push(format!("identity gap {gap:e} |n|-1 {n1:e}"));
    }
    let (dist, _) = distance(pa, a, pb, b, &s);
    if !within((dist.to_f64() - d.max(0.0)).abs(), tol) {
        t.wrong += 1;
        bad.push(format!("distance {:e} vs {:e}", dist.to_f64(), d.max(0.0)));
    }
    if !bad.is_empty() {
        let key = label.split(" #").next().unwrap_or("").to_string()
            + " "
            + label.rsplit(' ').next().unwrap_or("");
        let k = t.by_class.entry(key).or_insert(0);
        *k += 1;
        if *k <= 2 {
            t.worst.push(format!("{label}: d={d:e} {}", bad.join("; ")));
        }
    }
}

fn run<N: Scalar>(cases_per_class: usize, far: f64) -> Tally {
    let mut t = Tally::default();
    for (ci, class) in CLASSES.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + ci as u64);
        for i in 0..cases_per_class {
            if i % 2 == 0 {
                let c = case2::<N>(class, &mut rng, far);
                let d = signed_distance(&poly2(&c.a, &c.pa, &c.pa), &poly2(&c.b, &c.pb, &c.pa));
                let size = kollide_shapes::SupportMap::<N, 2>::bounding_radius(&c.a)
                    .to_f64()
                    .min(kollide_shapes::SupportMap::<N, 2>::bounding_radius(&c.b).to_f64());
                check(
                    &mut t,
                    &format!("2d {class} #{i} {}-{}", kind2(&c.a), kind2(&c.b)),
                    &c.a,
                    &c.pa,
                    &c.b,
                    &c.pb,
                    d,
                    size,
                );
            } else {
                let c = case3::<N>(class, &mut rng, far);
                let d = signed_distance(&poly3(&c.a, &c.pa, &c.pa), &poly3(&c.b, &c.pb, &c.pa));
                let size = kollide_shapes::SupportMap::<N, 3>::bounding_radius(&c.a)
                    .to_f64()
                    .min(kollide_shapes::SupportMap::<N, 3>::bounding_radius(&c.b).to_f64());
                let label = format!("3d {class} #{i} {}-{}", kind3(&c.a), kind3(&c.b));
                check(&mut t, &label, &c.a, &c.pa, &c.b, &c.pb, d, size);
            }
        }
    }
    t
}

fn kind2<N: Scalar>(s: &Shape2<N>) -> &'static str {
    match s {
        Shape2::Cuboid(_) => "box",
        Shape2::Triangle(_) => "tri",
        _ => "poly",
    }
}

fn kind3<N: Scalar>(s: &Shape3<N>) -> &'static str {
    match s {
        Shape3::Cuboid(_) => "box",
        Shape3::Triangle(_) => "tri",
        _ => "hull",
    }
}

fn report(name: &str, t: &Tally) {
    println!(
        "{name}: {} cases, {} wrong, {} misses, {} false hits, {} identity",
        t.cases, t.wrong, t.misses, t.false_hits, t.identity
    );
    println!("  failing cases by class and pair: {:?}", t.by_class);
    for w in &t.worst {
        println!("  {w}");
    }
}

#[test]
fn f32_degenerate_polytopes_match_exact_sat() {
    let t = run::<f32>(1375, 1e4);
    report("f32", &t);
    assert_eq!(t.misses + t.false_hits + t.identity, 0, "{t:?}");
    // The goal: wrong in at most 10 of 11,000 degenerate f32 cases.
    assert!(t.wrong <= 10, "{t:?}");
}

#[test]
fn f64_degenerate_polytopes_match_exact_sat() {
    let t = run::<f64>(1375, 1e6);
    report("f64", &t);
    assert_eq!(t.misses + t.false_hits + t.identity + t.wrong, 0, "{t:?}");
}

/// Triangles a hair apart, far from the origin: GJK stalls on them (its `v` is a short vector
/// rounded in long coordinates) and the exact fallback answers. Its own GJK stalled as well, and
/// SAT's best axis, a lower bound only when a vertex faces an edge, was reported as the distance:
/// these two 0.2 m triangles 3.5e-8 apart at 2.6e4 m (a hostile-suite case) came out 2.9e-8.
/// B is nudged by up to a micrometre to make a family of them.
#[test]
fn triangles_a_hair_apart_far_out_f64() {
    let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
    let a = Shape3::Triangle(
        Triangle::new_any_winding(
            p(0.06560082715170101, -0.08517573483310285, 0.023896801539615903),
            p(-0.0817192970366432, 0.08921027926185211, 0.05454592836666252),
            p(-0.0833650459000143, -0.05308569756509856, 0.0907134792795799),
        )
        .unwrap(),
    );
    let b = Shape3::Triangle(
        Triangle::new_any_winding(
            p(0.09616679293303639, 0.027504696064880332, -0.01930902785913099),
            p(-0.061761444303969466, 0.01446776465324748, 0.07475963417930813),
            p(0.02594487089435414, 0.08125174834578214, -0.026387244319365698),
        )
        .unwrap(),
    );
    let pose = |t: [f64; 3], q: [f64; 4]| {
        let q = UnitQuaternion::new_normalize(Quaternion::new(q[0], q[1], q[2], q[3]));
        Iso3::from_parts(Vec3::new(t[0], t[1], t[2]).into(), q)
    };
    let pa = pose(
        [14286.19593658905, -21531.6694191596, -14738.79229801963],
        [0.17168577814529648, -0.6790279521939935, -0.7007848346472363, -0.13544611197934572],
    );
    let pb0 = pose(
        [14286.307957909497, -21531.66221686365, -14738.791592433385],
        [0.4658369322495021, 0.7753712384062529, -0.4224338774737363, 0.0578360991702489],
    );
    let settings = QuerySettings::<f64>::default();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut checked, mut worst) = (0, 0.0f64);
    for k in 0..200 {
        let nudge = if k == 0 {
            Vec3::zeros()
        } else {
            Vec3::new(0.0, 0.0, 0.0).map(|_: f64| rng.random_range(-1e-6..1e-6))
        };
        let pb = Iso3::from_parts((pb0.translation.vector + nudge).into(), pb0.rotation);
        let truth = signed_distance(&poly3(&a, &pa, &pa), &poly3(&b, &pb, &pa));
        if truth <= 0.0 {
            continue;
        }
        let (d, _) = distance(&pa, &a, &pb, &b, &settings);
        let c = closest_points(&pa, &a, &pb, &b, &settings);
        worst = worst.max((d - truth).abs()).max((c.separation - truth).abs());
        checked += 1;
    }
    assert!(checked > 50, "only {checked} cases apart");
    // The oracle's bound for `f64`: a ten-billionth of the size (0.2 m here).
    assert!(worst <= 1e-9 * 0.2, "off by {worst:e} ({checked} cases)");
}
