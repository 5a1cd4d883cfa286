//! Differential tests of contact manifolds against Box2D v3 (through `boxdd`) and parry
//! (parry2d / parry3d 0.31), with an exact oracle deciding every disagreement.
//!
//! **2D** (1,200 seeded pairs of convex polygons with 3–8 vertices and of boxes): kollide's
//! `manifold2` in `f64`, Box2D's `b2CollidePolygons` and parry's `contact_manifold_pfm_pfm` /
//! `contact_manifold_cuboid_cuboid` in `f32`, all on the same vertices (Box2D's hull orders them;
//! the others are built from its list) and the same `f32` poses. Pairs overlap by `1e-3 … 0.1`
//! (placed by bisection on the exact separation). Three families: random orientations, boxes
//! nearly face to face (B turned by a multiple of 90° ± 0.05 rad, so two-point manifolds are
//! common), and polygons at random orientations overlapping up to 0.3.
//!
//! **3D** (600 pairs of boxes): kollide's `manifold3` in `f64` against parry3d's
//! `contact_manifold_cuboid_cuboid`; random orientations, and nearly face to face.
//!
//! **The oracle** (`f64`): SAT over every candidate axis gives the exact penetration of two
//! overlapping convex polytopes and its axis (2D: [`polygon_separation`]; 3D: 3 + 3 face normals
//! and 9 edge cross products, computed here). For a face axis the exact manifold is the incident
//! face (the other shape's face most anti-parallel to the axis) clipped to the reference face's
//! side planes, keeping the points within the margin; for a 3D edge axis it is one point. The
//! oracle's deepest separation is the smallest separation of its points.
//!
//! **What is compared.** The normal (within `1e-3`), the deepest separation (within `1e-3`) and
//! the number of contacts within the margin (Box2D and parry also report clipped points farther
//! apart than the margin; kollide drops them; kollide keeps at most 4 in 3D, so 3D counts are
//! compared capped at 4). A pair is **degenerate** when the exact answer is sensitive to
//! rounding: two SAT axes within `1e-3` of each other (the libraries' reference-face biases
//! differ: kollide prefers A's face unless B's is better by 1e-4 of the size, Box2D has no bias),
//! two candidate incident faces within `1e-4` of equally anti-parallel, or an oracle point within
//! `1e-4` of the margin or of a side plane. Contact counts are only compared on non-degenerate
//! pairs; normals and depths on all, with ties accepted when the chosen axis's separation is
//! within `1e-3` of the exact one.
//!
//! kollide must match the oracle on every pair (normal up to ties, deepest separation, and count
//! on non-degenerate pairs). The peers' disagreements with kollide are counted and attributed
//! with the oracle; the tallies are printed
//! (`cargo test --test narrowphase manifold_diff -- --nocapture`; `KOLLIDE_DIFF_LIST=1` also lists
//! every 3D pair where parry disagrees with the oracle).
//!
//! Findings when this was written: in 2D kollide, Box2D and parry agree on every normal, depth
//! and count except one tie each (a normal on two axes 1e-3 apart, both accepted). In 3D every
//! count difference with parry is on an edge–edge axis, where kollide (and the oracle) give one
//! point and parry the clipped points of the two support features (up to 4, with separations
//! measured to the other feature's plane); on face axes the counts agree.

use kollide_math::{Iso2, Iso3, Point2, Vec2, Vec3};
use kollide_narrowphase::{Owner, manifold2, manifold3, polygon_separation};
use kollide_shapes::{ConvexPolygon, Cuboid, Shape2, Shape3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The speculative margin of all three libraries (Box2D's fixed `B2_SPECULATIVE_DISTANCE`).
const MARGIN: f64 = 0.02;
/// Agreement expected between `f64` kollide, the oracle and the `f32` peers.
const TOL: f64 = 1e-3;
/// Two SAT axes this close are a tie (the libraries' face biases may pick either).
const TIE: f64 = 1e-3;
/// Distance to a clipping or margin boundary that makes a contact count rounding-sensitive.
const EDGE: f64 = 1e-4;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// What one library said about one pair, in world coordinates.
#[derive(Clone, Copy, Debug)]
struct Answer<const D: usize> {
    normal: [f64; D],
    deepest: f64,
    /// Contacts with a separation up to [`MARGIN`] (capped at 4).
    within: usize,
}

/// The exact manifold, and whether its contact count is rounding-sensitive.
#[derive(Clone, Copy, Debug)]
struct Oracle<const D: usize> {
    exact: Answer<D>,
    /// Every axis whose separation is within [`TIE`] of the best (normals from A to B).
    ties: [Option<[f64; D]>; 4],
    degenerate: bool,
    /// The exact axis is a 3D edge–edge axis (one contact point).
    edge_axis: bool,
}

fn close<const D: usize>(a: &[f64; D], b: &[f64; D]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= TOL)
}

/// The same axis twice (parallel edges of a box on either shape give the same SAT axis).
fn same_axis<const D: usize>(a: &[f64; D], b: &[f64; D]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9)
}

/// How an answer compares with the oracle.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Verdict {
    normal_ok: bool,
    depth_ok: bool,
    count_ok: bool,
}

impl Verdict {
    fn of<const D: usize>(x: &Answer<D>, o: &Oracle<D>) -> Self {
        let normal_ok = close(&x.normal, &o.exact.normal)
            || o.ties.iter().flatten().any(|n| close(&x.normal, n));
        // On a tie the other axis's manifold may be up to the tie gap deeper.
        let depth_tol = if o.ties.iter().flatten().count() > 1 { TOL + TIE } else { TOL };
        Self {
            normal_ok,
            depth_ok: (x.deepest - o.exact.deepest).abs() <= depth_tol,
            count_ok: o.degenerate || x.within.min(4) == o.exact.within.min(4),
        }
    }

    fn ok(&self) -> bool {
        self.normal_ok && self.depth_ok && self.count_ok
    }
}

/// Tallies of one peer against kollide, attributed by the oracle.
#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    degenerate: usize,
    /// Pairs where the peer and kollide differ (normal, deepest separation, or count).
    differ: [usize; 3],
    /// Of those, where the oracle sides with kollide only, with the peer only, with both (ties,
    /// degenerate counts) or with neither.
    kollide_right: usize,
    peer_right: usize,
    both_right: usize,
    neither: usize,
    /// The worst deepest-separation error of the peer against the oracle.
    peer_worst_depth: f64,
    /// Pairs where the counts differ and the exact axis is a 3D edge–edge axis.
    count_on_edge_axis: usize,
}

impl Tally {
    fn add<const D: usize>(&mut self, o: &Oracle<D>, k: &Answer<D>, p: &Answer<D>) {
        self.pairs += 1;
        self.degenerate += usize::from(o.degenerate);
        let normal = !close(&k.normal, &p.normal);
        let depth = (k.deepest - p.deepest).abs() > TOL;
        let count = k.within.min(4) != p.within.min(4);
        self.differ[0] += usize::from(normal);
        self.differ[1] += usize::from(depth);
        self.differ[2] += usize::from(count);
        self.count_on_edge_axis += usize::from(count && o.edge_axis);
        self.peer_worst_depth = self.peer_worst_depth.max((p.deepest - o.exact.deepest).abs());
        if normal || depth || count {
            match (Verdict::of(k, o).ok(), Verdict::of(p, o).ok()) {
                (true, false) => self.kollide_right += 1,
                (false, true) => self.peer_right += 1,
                (true, true) => self.both_right += 1,
                (false, false) => self.neither += 1,
            }
        }
    }

    fn print(&self, what: &str) {
        eprintln!(
            "{what}: {} pairs ({} degenerate); differ from kollide: normal {}, deepest {}, count \
             {}; of the differing pairs the oracle backs kollide {}, the peer {}, both {}, \
             neither {}; peer's worst depth error {:.1e}; counts differing on an edge–edge axis \
             {}",
            self.pairs,
            self.degenerate,
            self.differ[0],
            self.differ[1],
            self.differ[2],
            self.kollide_right,
            self.peer_right,
            self.both_right,
            self.neither,
            self.peer_worst_depth,
            self.count_on_edge_axis
        );
    }
}

// ------------------------------------------------------------------------------------------------
// 2D.

/// One 2D shape in every library.
struct Poly {
    /// Local vertices, counter-clockwise, as Box2D ordered them.
    verts: Vec<Point2<f64>>,
    k: Shape2<f64>,
    k_poly: ConvexPolygon<f64>,
    b: boxdd::Polygon,
    p: ParryShape2,
}

enum ParryShape2 {
    Polygon(parry2d::shape::ConvexPolygon),
    Cuboid(parry2d::shape::Cuboid),
}

/// A convex polygon of 3–8 vertices on a random ellipse, or `None` when a library would drop a
/// vertex.
fn random_polygon(r: &mut ChaCha8Rng) -> Option<Poly> {
    let n = r.random_range(3..=8usize);
    let (ax, ay) = (r.random_range(0.3..1.0), r.random_range(0.3..1.0));
    let phase: f64 = r.random_range(0.0..std::f64::consts::TAU);
    let step = std::f64::consts::TAU / n as f64;
    let pts: Vec<boxdd::Vec2> = (0..n)
        .map(|i| {
            let t = phase + step * (i as f64 + r.random_range(-0.3..0.3));
            boxdd::Vec2::new((ax * t.cos()) as f32, (ay * t.sin()) as f32)
        })
        .collect();
    let b = boxdd::shapes::polygon_from_points(pts, 0.0).ok()?;
    if b.count() != n {
        return None;
    }
    let verts: Vec<Point2<f64>> =
        b.vertices().iter().map(|v| Point2::new(f64::from(v.x), f64::from(v.y))).collect();
    let k_poly = ConvexPolygon::from_convex_ccw(&verts).ok()?;
    let pv = b.vertices().iter().map(|v| parry2d::math::Vector::new(v.x, v.y)).collect();
    let p = parry2d::shape::ConvexPolygon::from_convex_polyline(pv)?;
    if p.points().len() != n {
        return None;
    }
    Some(Poly { verts, k: Shape2::Polygon(k_poly.clone()), k_poly, b, p: ParryShape2::Polygon(p) })
}

fn random_box(r: &mut ChaCha8Rng) -> Poly {
    let (hx, hy) = (r.random_range(0.2..1.0f32), r.random_range(0.2..1.0f32));
    let h = Vec2::new(f64::from(hx), f64::from(hy));
    let k_poly = ConvexPolygon::from_box(h).unwrap();
    Poly {
        verts: k_poly.vertices().to_vec(),
        k: Shape2::Cuboid(Cuboid::new(h).unwrap()),
        k_poly,
        b: boxdd::shapes::box_polygon(hx, hy).unwrap(),
        p: ParryShape2::Cuboid(parry2d::shape::Cuboid::new(parry2d::math::Vector::new(hx, hy))),
    }
}

/// The pose rounded to `f32` (what the peers see), back in `f64`: translation and angle rounded,
/// so the rotation stays exactly unit.
fn round2(p: &Iso2<f64>) -> Iso2<f64> {
    let t = p.translation.vector.cast::<f32>().cast::<f64>();
    Iso2::new(t, f64::from(p.rotation.angle() as f32))
}

/// The pose rounded to `f32`, back in `f64`, with the rotation renormalised.
fn round3(p: &Iso3<f64>) -> Iso3<f64> {
    let t = p.translation.vector.cast::<f32>().cast::<f64>();
    let q = p.rotation.into_inner().cast::<f32>().cast::<f64>();
    Iso3::from_parts(t.into(), nalgebra::UnitQuaternion::new_normalize(q))
}

/// Slides B along `u` from A's centre until the exact separation is `target` (bisection: the
/// SAT separation along a line is convex, and rises from its minimum).
fn place2(
    a: &Poly,
    pose_a: &Iso2<f64>,
    b: &Poly,
    angle_b: f64,
    u: Vec2<f64>,
    target: f64,
) -> Iso2<f64> {
    let c = pose_a.translation.vector;
    let sep = |t: f64| {
        polygon_separation(pose_a, &a.k_poly, &Iso2::new(c + u * t, angle_b), &b.k_poly).separation
    };
    // The minimum is near t = 0 (centres together); march out to bracket, then bisect.
    let (mut lo, mut hi) = (0.0, 4.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if sep(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    round2(&Iso2::new(c + u * hi, angle_b))
}

fn world2(p: &Poly, pose: &Iso2<f64>) -> Vec<Point2<f64>> {
    p.verts.iter().map(|v| pose * v).collect()
}

fn outward(poly: &[Point2<f64>], i: usize) -> Vec2<f64> {
    let e = poly[(i + 1) % poly.len()] - poly[i];
    Vec2::new(e.y, -e.x).normalize()
}

/// Every edge's separation: `(separation, normal from A to B)`, from both polygons.
fn all_axes2(wa: &[Point2<f64>], wb: &[Point2<f64>]) -> Vec<(f64, Vec2<f64>)> {
    let sep = |r: &[Point2<f64>], i: usize, o: &[Point2<f64>]| {
        let n = outward(r, i);
        o.iter().map(|v| n.dot(&(v - r[i]))).fold(f64::MAX, f64::min)
    };
    let mut out: Vec<(f64, Vec2<f64>)> =
        (0..wa.len()).map(|i| (sep(wa, i, wb), outward(wa, i))).collect();
    out.extend((0..wb.len()).map(|i| (sep(wb, i, wa), -outward(wb, i))));
    out.sort_by(|x, y| y.0.total_cmp(&x.0));
    out
}

fn oracle2(a: &Poly, pose_a: &Iso2<f64>, b: &Poly, pose_b: &Iso2<f64>) -> Oracle<2> {
    let s = polygon_separation(pose_a, &a.k_poly, pose_b, &b.k_poly);
    let (wa, wb) = (world2(a, pose_a), world2(b, pose_b));
    let axes = all_axes2(&wa, &wb);
    assert!(
        (axes[0].0 - s.separation).abs() < 1e-12,
        "polygon_separation is SAT: {} vs {}",
        axes[0].0,
        s.separation
    );
    let mut degenerate = false;
    let mut ties = [None; 4];
    let mut k = 0;
    for (sep, n) in &axes {
        // Distinct axes (a box has parallel edges on both shapes) within the tie gap.
        if s.separation - sep <= TIE
            && k < 4
            && !ties.iter().flatten().any(|m: &[f64; 2]| same_axis(m, &[n.x, n.y]))
        {
            ties[k] = Some([n.x, n.y]);
            k += 1;
        }
    }
    degenerate |= k > 1;
    // Reference face and incident polygon.
    let (r, i, e) = match s.owner {
        Owner::A => (&wa, &wb, s.edge),
        Owner::B => (&wb, &wa, s.edge),
    };
    let n = outward(r, e);
    let mut dots: Vec<(f64, usize)> = (0..i.len()).map(|j| (outward(i, j).dot(&n), j)).collect();
    dots.sort_by(|x, y| x.0.total_cmp(&y.0));
    degenerate |= dots.len() > 1 && dots[1].0 - dots[0].0 < EDGE;
    let ie = dots[0].1;
    let (p1, p2) = (i[ie], i[(ie + 1) % i.len()]);
    let (v1, v2) = (r[e], r[(e + 1) % r.len()]);
    let t = (v2 - v1).normalize();
    let (lo, hi) = (0.0, t.dot(&(v2 - v1)));
    let (s1, s2) = (t.dot(&(p1 - v1)), t.dot(&(p2 - v1)));
    let mut pts = Vec::new();
    for (sa, sb, pa, pb) in [(s1, s2, p1, p2), (s2, s1, p2, p1)] {
        // Clip endpoint `pa` into [lo, hi] along the segment towards `pb`.
        let clamped = sa.clamp(lo, hi);
        degenerate |= (sa - lo).abs() < EDGE || (sa - hi).abs() < EDGE;
        if (sa < lo && sb < lo) || (sa > hi && sb > hi) {
            continue;
        }
        let q =
            if (sb - sa).abs() > 0.0 { pa + (pb - pa) * ((clamped - sa) / (sb - sa)) } else { pa };
        pts.push(n.dot(&(q - v1)));
    }
    let deepest = pts.iter().copied().fold(f64::MAX, f64::min);
    degenerate |= pts.iter().any(|d| (d - MARGIN).abs() < EDGE);
    let within = pts.iter().filter(|d| **d <= MARGIN).count();
    Oracle {
        exact: Answer { normal: [s.normal.x, s.normal.y], deepest, within },
        ties,
        degenerate,
        edge_axis: false,
    }
}

fn kollide2(a: &Poly, pose_a: &Iso2<f64>, b: &Poly, pose_b: &Iso2<f64>) -> Answer<2> {
    let m = manifold2::<f64, ()>(pose_a, &a.k, pose_b, &b.k, MARGIN);
    let deepest = m.min_separation().unwrap_or(f64::MAX);
    Answer { normal: [m.normal.x, m.normal.y], deepest, within: m.len() }
}

fn box2d2(a: &Poly, pose_a: &Iso2<f64>, b: &Poly, pose_b: &Iso2<f64>) -> Answer<2> {
    let pos_ab = pose_a.inverse() * pose_b;
    let t = pos_ab.translation.vector;
    let xf = boxdd::Transform::from_pos_angle(
        boxdd::Vec2::new(t.x as f32, t.y as f32),
        pos_ab.rotation.angle() as f32,
    )
    .unwrap();
    let m = boxdd::collide_polygons(a.b, b.b, xf).unwrap();
    let n = pose_a.rotation * Vec2::new(f64::from(m.normal.x), f64::from(m.normal.y));
    let seps = m.points().iter().map(|p| f64::from(p.separation));
    Answer {
        normal: [n.x, n.y],
        deepest: seps.clone().fold(f64::MAX, f64::min),
        within: seps.filter(|d| *d <= MARGIN).count(),
    }
}

fn parry_pose2(p: &Iso2<f64>) -> parry2d::math::Pose {
    let t = p.translation.vector;
    parry2d::math::Pose::new(
        parry2d::math::Vector::new(t.x as f32, t.y as f32),
        p.rotation.angle() as f32,
    )
}

fn parry2(a: &Poly, pose_a: &Iso2<f64>, b: &Poly, pose_b: &Iso2<f64>) -> Answer<2> {
    let mut m = parry2d::query::ContactManifold::<(), ()>::new();
    let pos12 = parry_pose2(pose_a).inv_mul(&parry_pose2(pose_b));
    let pm = MARGIN as f32;
    match (&a.p, &b.p) {
        (ParryShape2::Polygon(x), ParryShape2::Polygon(y)) => {
            parry2d::query::details::contact_manifold_pfm_pfm(
                &pos12, x, 0.0, None, y, 0.0, None, pm, &mut m,
            );
        }
        (ParryShape2::Cuboid(x), ParryShape2::Cuboid(y)) => {
            parry2d::query::details::contact_manifold_cuboid_cuboid(&pos12, x, y, pm, &mut m);
        }
        _ => unreachable!(),
    }
    let n = pose_a.rotation * Vec2::new(f64::from(m.local_n1.x), f64::from(m.local_n1.y));
    let seps = m.points.iter().map(|p| f64::from(p.dist));
    Answer {
        normal: [n.x, n.y],
        deepest: seps.clone().fold(f64::MAX, f64::min),
        within: seps.filter(|d| *d <= MARGIN).count(),
    }
}

#[derive(Clone, Copy, Debug)]
enum Family2 {
    /// Polygons or boxes at random orientations, overlapping 1e-3 … 0.1.
    Random,
    /// Boxes nearly face to face (B turned by k·90° ± 0.05 rad), overlapping 1e-3 … 0.1.
    FaceToFace,
    /// Polygons at random orientations, overlapping up to 0.3.
    Deep,
}

/// Box2D's foundation must be initialised once per process before any shape is made. nextest
/// runs every test in a process of its own, so each test that touches Box2D calls this first.
fn init_box2d() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        boxdd::Foundation::initialize_default().expect("Box2D foundation");
    });
}

#[test]
fn manifolds_2d_against_box2d_and_parry() {
    init_box2d();
    let mut r = rng(0x6d61_6e32);
    let (mut vs_box2d, mut vs_parry) = (Tally::default(), Tally::default());
    let mut kollide_wrong = Vec::new();
    for family in [Family2::Random, Family2::FaceToFace, Family2::Deep] {
        let mut done = 0;
        while done < 400 {
            let (a, b) = match family {
                Family2::Random if done % 2 == 0 => (random_box(&mut r), random_box(&mut r)),
                Family2::FaceToFace => (random_box(&mut r), random_box(&mut r)),
                _ => match (random_polygon(&mut r), random_polygon(&mut r)) {
                    (Some(a), Some(b)) => (a, b),
                    _ => continue,
                },
            };
            let c = Vec2::new(r.random_range(-5.0..5.0), r.random_range(-5.0..5.0));
            let angle_a = r.random_range(-3.2..3.2);
            let pose_a = round2(&Iso2::new(c, angle_a));
            let angle_b = match family {
                Family2::FaceToFace => {
                    angle_a
                        + f64::from(r.random_range(0..4u8)) * std::f64::consts::FRAC_PI_2
                        + r.random_range(-0.05..0.05)
                }
                _ => r.random_range(-3.2..3.2),
            };
            let phi: f64 = r.random_range(0.0..std::f64::consts::TAU);
            let u = Vec2::new(phi.cos(), phi.sin());
            let target = match family {
                Family2::Deep => -r.random_range(1e-3..0.3),
                _ => -10f64.powf(r.random_range(-3.0..-1.0)),
            };
            let pose_b = place2(&a, &pose_a, &b, angle_b, u, target);
            let o = oracle2(&a, &pose_a, &b, &pose_b);
            if o.exact.deepest > 0.0 || o.exact.within == 0 {
                continue; // rounding the pose to f32 separated the pair: not an overlapping pair
            }
            let k = kollide2(&a, &pose_a, &b, &pose_b);
            if !Verdict::of(&k, &o).ok() {
                kollide_wrong.push(format!("{family:?} #{done}: kollide {k:?}, oracle {o:?}"));
            }
            vs_box2d.add(&o, &k, &box2d2(&a, &pose_a, &b, &pose_b));
            vs_parry.add(&o, &k, &parry2(&a, &pose_a, &b, &pose_b));
            done += 1;
        }
    }
    vs_box2d.print("2D vs Box2D v3");
    vs_parry.print("2D vs parry2d");
    assert!(
        kollide_wrong.is_empty(),
        "kollide disagrees with the oracle on {} pairs:\n{}",
        kollide_wrong.len(),
        kollide_wrong.join("\n")
    );
}

// ------------------------------------------------------------------------------------------------
// 3D boxes.

/// A posed box in world coordinates (`f64`).
struct WorldBox {
    c: Vec3<f64>,
    /// Columns: the box's axes.
    axes: [Vec3<f64>; 3],
    h: [f64; 3],
}

impl WorldBox {
    fn new(pose: &Iso3<f64>, h: [f64; 3]) -> Self {
        let q = pose.rotation;
        Self { c: pose.translation.vector, axes: [q * Vec3::x(), q * Vec3::y(), q * Vec3::z()], h }
    }

    /// Half the box's extent along unit `n`.
    fn radius(&self, n: &Vec3<f64>) -> f64 {
        (0..3).map(|k| self.h[k] * self.axes[k].dot(n).abs()).sum()
    }

    /// The four corners of the face with outward normal `sign · axes[k]`, in order.
    fn face(&self, k: usize, sign: f64) -> [Vec3<f64>; 4] {
        let (u, v) = ((k + 1) % 3, (k + 2) % 3);
        let c = self.c + self.axes[k] * (sign * self.h[k]);
        let (du, dv) = (self.axes[u] * self.h[u], self.axes[v] * self.h[v]);
        [c - du - dv, c + du - dv, c + du + dv, c - du + dv]
    }
}

/// SAT over the 15 axes of two boxes: `(separation, normal from A to B, kind)` sorted by
/// separation, where kind is `0..3` for A's faces, `3..6` for B's, `6` for edge pairs.
fn all_axes3(a: &WorldBox, b: &WorldBox) -> Vec<(f64, Vec3<f64>, usize)> {
    let d = b.c - a.c;
    let mut out = Vec::new();
    let mut push = |n: Vec3<f64>, kind: usize| {
        let n = if n.dot(&d) < 0.0 { -n } else { n };
        out.push((n.dot(&d) - a.radius(&n) - b.radius(&n), n, kind));
    };
    for k in 0..3 {
        push(a.axes[k], k);
        push(b.axes[k], 3 + k);
    }
    for i in 0..3 {
        for j in 0..3 {
            let n = a.axes[i].cross(&b.axes[j]);
            if n.norm() > 1e-6 {
                push(n.normalize(), 6);
            }
        }
    }
    out.sort_by(|x, y| y.0.total_cmp(&x.0));
    out
}

/// Clips a convex polygon to the half-space `n·p ≤ d`, flagging points within [`EDGE`] of it.
fn clip_plane(poly: &[Vec3<f64>], n: &Vec3<f64>, d: f64, near: &mut bool) -> Vec<Vec3<f64>> {
    let mut out = Vec::new();
    for i in 0..poly.len() {
        let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
        let (dp, dq) = (n.dot(&p) - d, n.dot(&q) - d);
        *near |= dp.abs() < EDGE;
        if dp <= 0.0 {
            out.push(p);
        }
        if (dp < 0.0) != (dq < 0.0) && dp != 0.0 && dq != 0.0 {
            out.push(p + (q - p) * (dp / (dp - dq)));
        }
    }
    out
}

fn oracle3(a: &WorldBox, b: &WorldBox) -> Oracle<3> {
    let axes = all_axes3(a, b);
    let (best, n, kind) = axes[0];
    let mut ties = [None; 4];
    let mut k = 0;
    for (sep, m, _) in &axes {
        if best - sep <= TIE
            && k < 4
            && !ties.iter().flatten().any(|t: &[f64; 3]| same_axis(t, &[m.x, m.y, m.z]))
        {
            ties[k] = Some([m.x, m.y, m.z]);
            k += 1;
        }
    }
    let mut degenerate = k > 1;
    let normal = [n.x, n.y, n.z];
    if kind == 6 {
        // Edge–edge: one point, at the exact separation.
        let exact = Answer { normal, deepest: best, within: usize::from(best <= MARGIN) };
        return Oracle { exact, ties, degenerate, edge_axis: true };
    }
    // Reference face (outward normal `rn`) and incident box.
    let (rbox, ibox, rk, rn) = if kind < 3 { (a, b, kind, n) } else { (b, a, kind - 3, -n) };
    let sign = if rbox.axes[rk].dot(&rn) > 0.0 { 1.0 } else { -1.0 };
    let mut dots: Vec<(f64, usize, f64)> =
        (0..3).flat_map(|j| [1.0, -1.0].map(|s| (ibox.axes[j].dot(&rn) * s, j, s))).collect();
    dots.sort_by(|x, y| x.0.total_cmp(&y.0));
    degenerate |= dots[1].0 - dots[0].0 < EDGE;
    let mut poly = ibox.face(dots[0].1, dots[0].2).to_vec();
    let face_c = rbox.c + rbox.axes[rk] * (sign * rbox.h[rk]);
    for s in 1..3 {
        let j = (rk + s) % 3;
        let ax = rbox.axes[j];
        poly = clip_plane(&poly, &ax, ax.dot(&rbox.c) + rbox.h[j], &mut degenerate);
        poly = clip_plane(&poly, &-ax, -ax.dot(&rbox.c) + rbox.h[j], &mut degenerate);
    }
    let seps: Vec<f64> = poly.iter().map(|p| rn.dot(&(p - face_c))).collect();
    degenerate |= seps.iter().any(|d| (d - MARGIN).abs() < EDGE);
    let deepest = seps.iter().copied().fold(f64::MAX, f64::min);
    let within = seps.iter().filter(|d| **d <= MARGIN).count();
    Oracle { exact: Answer { normal, deepest, within }, ties, degenerate, edge_axis: false }
}

fn parry_pose3(p: &Iso3<f64>) -> parry3d::math::Pose {
    let t = p.translation.vector;
    let q = p.rotation.quaternion();
    parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(t.x as f32, t.y as f32, t.z as f32),
        parry3d::math::Rot3::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32),
    )
}

fn random_rotation(r: &mut ChaCha8Rng) -> Vec3<f64> {
    Vec3::new(r.random_range(-3.1..3.1), r.random_range(-3.1..3.1), r.random_range(-3.1..3.1))
}

#[test]
fn box_manifolds_3d_against_parry() {
    let mut r = rng(0x6d61_6e33);
    let mut vs_parry = Tally::default();
    let mut kollide_wrong = Vec::new();
    let mut done = 0;
    while done < 600 {
        let face_to_face = done % 2 == 1;
        let ha: [f64; 3] = std::array::from_fn(|_| f64::from(r.random_range(0.2..1.0f32)));
        let hb: [f64; 3] = std::array::from_fn(|_| f64::from(r.random_range(0.2..1.0f32)));
        let c = Vec3::new(
            r.random_range(-5.0..5.0),
            r.random_range(-5.0..5.0),
            r.random_range(-5.0..5.0),
        );
        let rot_a = random_rotation(&mut r);
        let pose_a = round3(&Iso3::new(c, rot_a));
        let rot_b = if face_to_face {
            // A's rotation, turned a little about a random axis.
            let w = Vec3::new(
                r.random_range(-0.05..0.05),
                r.random_range(-0.05..0.05),
                r.random_range(-0.05..0.05),
            );
            (pose_a.rotation * nalgebra::UnitQuaternion::new(w)).scaled_axis()
        } else {
            random_rotation(&mut r)
        };
        let dir = Vec3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        if dir.norm() < 0.1 {
            continue;
        }
        let u = dir.normalize();
        let target = -10f64.powf(r.random_range(-3.0..-1.0));
        let pose_b = |t: f64| Iso3::new(c + u * t, rot_b);
        let sep =
            |t: f64| all_axes3(&WorldBox::new(&pose_a, ha), &WorldBox::new(&pose_b(t), hb))[0].0;
        let (mut lo, mut hi) = (0.0, 4.0);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if sep(mid) < target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let pose_b = round3(&pose_b(hi));
        let (wa, wb) = (WorldBox::new(&pose_a, ha), WorldBox::new(&pose_b, hb));
        let o = oracle3(&wa, &wb);
        if o.exact.deepest > 0.0 || o.exact.within == 0 {
            continue;
        }
        let ka: Shape3<f64> = Cuboid::new(Vec3::from(ha)).unwrap().into();
        let kb: Shape3<f64> = Cuboid::new(Vec3::from(hb)).unwrap().into();
        let m = manifold3::<f64, ()>(&pose_a, &ka, &pose_b, &kb, MARGIN);
        let k = Answer {
            normal: m.normal.into(),
            deepest: m.min_separation().unwrap_or(f64::MAX),
            within: m.len(),
        };
        if !Verdict::of(&k, &o).ok() {
            let top: Vec<String> = all_axes3(&wa, &wb)
                .iter()
                .take(4)
                .map(|(sep, n, kind)| format!("{sep:.6} kind {kind} n {:.5?}", [n.x, n.y, n.z]))
                .collect();
            kollide_wrong.push(format!(
                "#{done} (face to face: {face_to_face}): kollide {k:?}, oracle {o:?}; axes {top:?}"
            ));
        }
        let f = |h: [f64; 3]| {
            parry3d::shape::Cuboid::new(parry3d::math::Vector::new(
                h[0] as f32,
                h[1] as f32,
                h[2] as f32,
            ))
        };
        let mut pm = parry3d::query::ContactManifold::<(), ()>::new();
        let pos12 = parry_pose3(&pose_a).inv_mul(&parry_pose3(&pose_b));
        parry3d::query::details::contact_manifold_cuboid_cuboid(
            &pos12,
            &f(ha),
            &f(hb),
            MARGIN as f32,
            &mut pm,
        );
        let n = pose_a.rotation
            * Vec3::new(
                f64::from(pm.local_n1.x),
                f64::from(pm.local_n1.y),
                f64::from(pm.local_n1.z),
            );
        let seps = pm.points.iter().map(|p| f64::from(p.dist));
        let p = Answer {
            normal: [n.x, n.y, n.z],
            deepest: seps.clone().fold(f64::MAX, f64::min),
            within: seps.filter(|d| *d <= MARGIN).count(),
        };
        if std::env::var_os("KOLLIDE_DIFF_LIST").is_some() && !Verdict::of(&p, &o).ok() {
            eprintln!(
                "3D #{done}: parry {p:?} ({} points, seps {:?}), kollide {k:?}, oracle {o:?}",
                pm.points.len(),
                pm.points.iter().map(|c| c.dist).collect::<Vec<_>>()
            );
        }
        vs_parry.add(&o, &k, &p);
        done += 1;
    }
    vs_parry.print("3D boxes vs parry3d");
    assert!(
        kollide_wrong.is_empty(),
        "kollide disagrees with the oracle on {} pairs:\n{}",
        kollide_wrong.len(),
        kollide_wrong.join("\n")
    );
}

/// The oracle itself, on cases with known answers.
#[test]
fn oracle_on_known_cases() {
    init_box2d();
    // A unit box 1 cm into a wide box, face to face: two points, 1 cm deep, normal up.
    let wide = random_box_with(5.0, 0.5);
    let unit = random_box_with(0.5, 0.5);
    let o = oracle2(&wide, &Iso2::translation(0.0, -0.5), &unit, &Iso2::translation(0.3, 0.49));
    assert_eq!(o.exact.within, 2);
    assert!((o.exact.deepest + 0.01).abs() < 1e-12);
    assert!(close(&o.exact.normal, &[0.0, 1.0]));
    // 3D: a unit cube 1 cm into a slab: four points.
    let a = WorldBox::new(&Iso3::translation(0.0, -0.5, 0.0), [5.0, 0.5, 5.0]);
    let b = WorldBox::new(&Iso3::translation(0.2, 0.49, -0.1), [0.5, 0.5, 0.5]);
    let o = oracle3(&a, &b);
    assert_eq!(o.exact.within, 4);
    assert!((o.exact.deepest + 0.01).abs() < 1e-12);
    assert!(close(&o.exact.normal, &[0.0, 1.0, 0.0]));
}

fn random_box_with(hx: f32, hy: f32) -> Poly {
    let h = Vec2::new(f64::from(hx), f64::from(hy));
    let k_poly = ConvexPolygon::from_box(h).unwrap();
    Poly {
        verts: k_poly.vertices().to_vec(),
        k: Shape2::Cuboid(Cuboid::new(h).unwrap()),
        k_poly,
        b: boxdd::shapes::box_polygon(hx, hy).unwrap(),
        p: ParryShape2::Cuboid(parry2d::shape::Cuboid::new(parry2d::math::Vector::new(hx, hy))),
    }
}
