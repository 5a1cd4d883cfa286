//! Benchmarks of contact manifolds (`manifold2` / `manifold3`) against Box2D v3 and parry.
//!
//! Every group runs one batch of [`PAIRS`] seeded, slightly overlapping pairs through kollide
//! (function id `kollide`) and through each peer (`box2d-raw`, `box2d-safe`, `parry`), so
//! `cargo xtask bench` can print the ratios from one run. One benchmark iteration is the whole
//! batch.
//!
//! | group | kollide | box2d-raw / box2d-safe | parry |
//! |---|---|---|---|
//! | `manifold2d/polygons` | `manifold2` on `Shape2::Polygon` | `b2CollidePolygons` | `contact_manifold_pfm_pfm` |
//! | `manifold2d/boxes` | `manifold2` on `Shape2::Cuboid` | `b2CollidePolygons` (`b2MakeBox`) | `contact_manifold_cuboid_cuboid` |
//! | `manifold3d/cuboids` | `manifold3` on `Shape3::Cuboid` | — | `contact_manifold_cuboid_cuboid` |
//! | `manifold3d/hulls` | `manifold3` on `Shape3::Polyhedron` (24 points) | — | `contact_manifold_pfm_pfm` |
//! | `manifold3d/hull256`, `manifold3d/hull1000` | the same on hulls of 256 and 1000 points | — | the same |
//!
//! **Precision.** Everything runs in `f32`.
//!
//! **Same vertices.** 2D polygons have 3–8 vertices (Box2D's limit is 8): points on a random
//! ellipse at jittered angles, so no vertex is nearly collinear with its neighbours. Box2D's
//! hull (`b2ComputeHull`) orders them first; kollide and parry are built from Box2D's vertex list,
//! and a polygon is redrawn unless all three keep every vertex.
//!
//! **Placement.** For each pair A gets a random pose within 10 units of the origin and B a
//! random rotation; B slides along a random direction until kollide's exact `f64` signed distance
//! is the target ([`kollide_benches::find_crossing`]). The targets cycle through `+5e-3` (inside
//! the speculative margin), `−1e-3`, `−1e-2` and `−5e-2`: "overlapping slightly", as a solver
//! sees resting and colliding contacts.
//!
//! **Margin.** Every library reports contacts up to [`MARGIN`] = 0.02 apart, Box2D's fixed
//! speculative distance (4 × its linear slop of 0.005).
//!
//! **Call paths** (all from two world poses, the relative pose computed inside the timed loop,
//! as a world step would):
//!
//! * kollide: `manifold2(&pose_a, &a, &pose_b, &b, MARGIN)`: contacts in world coordinates.
//! * Box2D, two ids, both with `xf = b2InvMulTransforms(xf_a, xf_b)` computed in Rust from the
//!   stored cosine/sine transforms, and contacts in A's frame:
//!   * `box2d-raw`: Box2D's C routine `b2CollidePolygons(&a, &b, xf)` itself, through
//!     `boxdd-sys`, on `b2Polygon`s built once before timing (the fair peer: what Box2D's own
//!     contact update calls). This is the benches' one `unsafe` call ([`raw`]).
//!   * `box2d-safe`: boxdd's **safe** wrapper `boxdd::collide_polygons(a, b, xf)`: besides the C
//!     routine, every call validates both polygons (finite values, convexity, area and centroid,
//!     in `f64`), checks the transform and takes a process-wide atomic "lease", which costs
//!     several times the routine itself.
//! * parry: the typed routine its dispatcher ends in, on one reused `ContactManifold` that is
//!   cleared (points and cached normals) before each query, so no spatial coherence is reused:
//!   contacts in A's frame.
//!
//! Before timing, each group prints how far the peers' answers are from kollide's (normal,
//! deepest separation, contact count); with `KOLLIDE_BENCH_DIFF=1` in the environment it also
//! lists every pair where they differ. `tests/narrowphase/manifold_diff.rs` in
//! `kollide-narrowphase` is the differential test with an exact oracle.
//!
//! **Instruction counts.** With `KOLLIDE_ONCE=1`, each group only runs every library's batch
//! once (to compare the answers) and skips timing: under `valgrind --tool=callgrind
//! --toggle-collect=<the library's call, e.g. '*kollide_3d*'>` that counts one batch's
//! instructions.
//!
//! `KOLLIDE_ONLY=<part of a group name>` builds and runs only the groups whose names contain it.
//!
//! **Alternating rounds.** With `KOLLIDE_ALT=<rounds>` (and optionally `KOLLIDE_ALT_ONLY=<part of
//! a group name>`), each group runs every library's batch in turn, `rounds` times, instead of
//! criterion's timing, and prints the median batch times and the median (and quartiles) of the
//! per-round ratios to kollide ([`kollide_benches::alternate`]): on a shared machine these
//! ratios repeat far better than separate criterion runs.

use std::hint::black_box;

use crate::parry_poses::{parry_pose2, parry_pose3};
use boxdd_sys::ffi;
use criterion::{Criterion, Throughput};
use kollide::narrowphase::{QuerySettings, closest_points, manifold2, manifold3};
use kollide::prelude::*;
use kollide_benches::{
    SEED, alternate, alternating_rounds, counting_instructions, one_iteration, place_pair_2d,
    place_pair_3d, rng, unit_directions,
};
use parry2d::query::ContactManifold as ContactManifold2;
use parry2d::query::details as p2q;
use parry3d::query::ContactManifold as ContactManifold3;
use parry3d::query::details as p3q;
use rand::Rng;

/// Pairs per benchmark iteration.
const PAIRS: usize = 1000;

/// The speculative margin of every library: Box2D's fixed `B2_SPECULATIVE_DISTANCE`.
const MARGIN: f32 = 0.02;

/// Signed distances the pairs are placed at (cycled).
const TARGETS: [f64; 4] = [5e-3, -1e-3, -1e-2, -5e-2];

/// What a library answered for one pair: enough to compare, and a number to sum.
#[derive(Clone, Copy, Debug)]
struct Answer<const D: usize> {
    /// Contacts in the manifold.
    count: usize,
    /// Contacts with a separation up to [`MARGIN`] (Box2D and parry also report contacts
    /// farther apart than the margin once the pair is within it).
    within: usize,
    /// The normal from A to B in world coordinates (zero when empty).
    normal: [f32; D],
    /// The smallest separation of the contacts (`+1` when empty).
    deepest: f32,
}

impl<const D: usize> Answer<D> {
    fn empty() -> Self {
        Self { count: 0, within: 0, normal: [0.0; D], deepest: 1.0 }
    }

    /// One number per query for the timed loop (nothing is optimised away).
    fn checksum(&self) -> f32 {
        self.deepest + self.count as f32
    }
}

// ------------------------------------------------------------------------------------------------
// 2D shapes.

/// A 2D shape in every library's types (and in `f64` kollide for placing pairs).
#[repr(align(64))] // the same cache-line position in every run (see `Pair2` of the narrowphase bench)
struct Shape2d {
    k: Shape2<f32>,
    k64: ConvexPolygon<f64>,
    b: boxdd::Polygon,
    /// The same polygon as Box2D's C struct, for the `box2d-raw` id.
    b_raw: ffi::b2Polygon,
    p: ParryShape2,
}

/// The parry shape, with the routine the dispatcher would pick for it.
enum ParryShape2 {
    Polygon(parry2d::shape::ConvexPolygon),
    Cuboid(parry2d::shape::Cuboid),
}

/// `count` convex polygons of 3–8 vertices on random ellipses (semi-axes 0.3–1).
fn polygon_pool(count: usize) -> Vec<Shape2d> {
    let mut r = rng(SEED ^ 0x3a21);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
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
        let Ok(b) = boxdd::shapes::polygon_from_points(pts, 0.0) else { continue };
        if b.count() != n {
            continue;
        }
        let verts: Vec<Point2<f32>> = b.vertices().iter().map(|v| Point2::new(v.x, v.y)).collect();
        let v64: Vec<Point2<f64>> = verts.iter().map(|v| v.cast::<f64>()).collect();
        let pv = verts.iter().map(|v| parry2d::math::Vector::new(v.x, v.y)).collect();
        let (Ok(k), Ok(k64), Some(p)) = (
            ConvexPolygon::from_convex_ccw(&verts),
            ConvexPolygon::from_convex_ccw(&v64),
            parry2d::shape::ConvexPolygon::from_convex_polyline(pv),
        ) else {
            continue;
        };
        if p.points().len() != n {
            continue;
        }
        let b_raw = b.into_raw();
        out.push(Shape2d { k: Shape2::Polygon(k), k64, b, b_raw, p: ParryShape2::Polygon(p) });
    }
    out
}

/// `count` boxes with half extents 0.2–1.
fn box_pool(count: usize) -> Vec<Shape2d> {
    let mut r = rng(SEED ^ 0xb0c2);
    (0..count)
        .map(|_| {
            let h = Vec2::new(r.random_range(0.2..1.0f32), r.random_range(0.2..1.0f32));
            let b = boxdd::shapes::box_polygon(h.x, h.y).expect("positive extents");
            Shape2d {
                k: Shape2::Cuboid(Cuboid::new(h).expect("positive extents")),
                k64: ConvexPolygon::from_box(h.cast::<f64>()).expect("positive extents"),
                b,
                b_raw: b.into_raw(),
                p: ParryShape2::Cuboid(parry2d::shape::Cuboid::new(parry2d::math::Vector::new(
                    h.x, h.y,
                ))),
            }
        })
        .collect()
}

/// One posed 2D pair in every library's types.
#[repr(align(64))] // the same cache-line position in every run (see `Pair2` of the narrowphase bench)
struct Pair2 {
    a: usize,
    b: usize,
    pose_a: Iso2<f32>,
    pose_b: Iso2<f32>,
    /// Box2D transforms: `[x, y, cos, sin]`.
    xa: [f32; 4],
    xb: [f32; 4],
    pa: parry2d::math::Pose,
    pb: parry2d::math::Pose,
}

/// [`PAIRS`] pairs from `pool` at the [`TARGETS`] signed distances.
fn pairs_2d(pool: &[Shape2d], seed: u64) -> Vec<Pair2> {
    let s = QuerySettings::<f64>::default();
    let sd = |a: usize, pa: &Iso2<f64>, b: usize, pb: &Iso2<f64>| {
        closest_points(pa, &pool[a].k64, pb, &pool[b].k64, &s).separation
    };
    let b2 = |p: &Iso2<f32>| {
        let t = p.translation.vector;
        [t.x, t.y, p.rotation.re, p.rotation.im]
    };
    let mut r = rng(seed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let target = TARGETS[out.len() % TARGETS.len()];
        let Some((a, b, pose_a, pose_b)) = place_pair_2d(&mut r, pool.len(), target, sd) else {
            continue;
        };
        out.push(Pair2 {
            a,
            b,
            xa: b2(&pose_a),
            xb: b2(&pose_b),
            pa: parry_pose2(&pose_a),
            pb: parry_pose2(&pose_b),
            pose_a,
            pose_b,
        });
    }
    out
}

/// `b2InvMulTransforms(a, b)`: B's transform in A's frame, as Box2D's contact update computes it.
fn b2_relative(a: &[f32; 4], b: &[f32; 4]) -> ffi::b2Transform {
    let [ax, ay, ca, sa] = *a;
    let [bx, by, cb, sb] = *b;
    let (dx, dy) = (bx - ax, by - ay);
    ffi::b2Transform {
        p: ffi::b2Vec2 { x: ca * dx + sa * dy, y: -sa * dx + ca * dy },
        q: ffi::b2Rot { c: ca * cb + sa * sb, s: ca * sb - sa * cb },
    }
}

/// The benches' one direct call into Box2D's C library.
#[allow(unsafe_code)]
mod raw {
    use boxdd_sys::ffi;

    /// Box2D's `b2CollidePolygons`: the manifold of `a` and `b` (placed by `xf` in A's frame), in
    /// A's frame.
    pub fn collide_polygons(
        a: &ffi::b2Polygon,
        b: &ffi::b2Polygon,
        xf: ffi::b2Transform,
    ) -> ffi::b2LocalManifold {
        // SAFETY: `b2CollidePolygons` only reads the two polygons through the pointers, which come
        // from live references for the whole call, and returns its result by value (it keeps no
        // pointer and touches no global state). Both polygons were made by Box2D's own
        // constructors (`b2MakePolygon` from `b2ComputeHull`, or `b2MakeBox`, through boxdd, which
        // validated them), so they satisfy the routine's invariants (1–8 counter-clockwise
        // vertices with unit normals), and `xf` is a rigid transform (unit rotation) computed from
        // two rigid poses.
        unsafe { ffi::b2CollidePolygons(a, b, xf) }
    }
}

fn kollide_2d(pool: &[Shape2d], q: &Pair2) -> Answer<2> {
    let m = manifold2::<f32, ()>(&q.pose_a, &pool[q.a].k, &q.pose_b, &pool[q.b].k, MARGIN);
    match m.min_separation() {
        Some(d) => {
            Answer { count: m.len(), within: m.len(), normal: [m.normal.x, m.normal.y], deepest: d }
        }
        None => Answer::empty(),
    }
}

fn box2d_raw_2d(pool: &[Shape2d], q: &Pair2) -> Answer<2> {
    let xf = b2_relative(&q.xa, &q.xb);
    let m = raw::collide_polygons(&pool[q.a].b_raw, &pool[q.b].b_raw, xf);
    let points = &m.points[..m.pointCount.clamp(0, 2) as usize];
    let Some(deepest) = points.iter().map(|p| p.separation).reduce(f32::min) else {
        return Answer::empty();
    };
    let within = points.iter().filter(|p| p.separation <= MARGIN).count();
    // The normal is in A's frame; rotate it to the world.
    let (c, s, n) = (q.xa[2], q.xa[3], m.normal);
    let normal = [c * n.x - s * n.y, s * n.x + c * n.y];
    Answer { count: points.len(), within, normal, deepest }
}

fn box2d_safe_2d(pool: &[Shape2d], q: &Pair2) -> Answer<2> {
    let xf = boxdd::Transform::from_raw(b2_relative(&q.xa, &q.xb)).expect("a rigid transform");
    let m = boxdd::collide_polygons(pool[q.a].b, pool[q.b].b, xf).expect("valid polygons");
    if m.is_empty() {
        return Answer::empty();
    }
    let deepest = m.points().iter().fold(f32::MAX, |d, p| d.min(p.separation));
    let within = m.points().iter().filter(|p| p.separation <= MARGIN).count();
    // The normal is in A's frame; rotate it to the world.
    let (c, s, n) = (q.xa[2], q.xa[3], m.normal);
    let normal = [c * n.x - s * n.y, s * n.x + c * n.y];
    Answer { count: m.point_count(), within, normal, deepest }
}

fn parry_2d(pool: &[Shape2d], q: &Pair2, m: &mut ContactManifold2<(), ()>) -> Answer<2> {
    m.clear();
    m.local_n1 = parry2d::math::Vector::ZERO;
    m.local_n2 = parry2d::math::Vector::ZERO;
    let pos12 = q.pa.inv_mul(&q.pb);
    match (&pool[q.a].p, &pool[q.b].p) {
        (ParryShape2::Polygon(a), ParryShape2::Polygon(b)) => {
            p2q::contact_manifold_pfm_pfm(&pos12, a, 0.0, None, b, 0.0, None, MARGIN, m);
        }
        (ParryShape2::Cuboid(a), ParryShape2::Cuboid(b)) => {
            p2q::contact_manifold_cuboid_cuboid(&pos12, a, b, MARGIN, m);
        }
        _ => unreachable!("a pool holds one kind of shape"),
    }
    let Some(deepest) = m.points.iter().map(|p| p.dist).reduce(f32::min) else {
        return Answer::empty();
    };
    let within = m.points.iter().filter(|p| p.dist <= MARGIN).count();
    let n = q.pa.rotation * m.local_n1;
    Answer { count: m.points.len(), within, normal: [n.x, n.y], deepest }
}

// ------------------------------------------------------------------------------------------------
// 3D shapes.

/// A 3D shape in both libraries' types.
#[repr(align(64))] // the same cache-line position in every run (see `Pair2` of the narrowphase bench)
struct Shape3d {
    k: Shape3<f32>,
    k64: Shape3<f64>,
    p: ParryShape3,
}

enum ParryShape3 {
    Polyhedron(parry3d::shape::ConvexPolyhedron),
    Cuboid(parry3d::shape::Cuboid),
}

fn cuboid_pool(count: usize) -> Vec<Shape3d> {
    let mut r = rng(SEED ^ 0xb0c3);
    (0..count)
        .map(|_| {
            let h = Vec3::new(
                r.random_range(0.2..1.0f32),
                r.random_range(0.2..1.0f32),
                r.random_range(0.2..1.0f32),
            );
            Shape3d {
                k: Shape3::Cuboid(Cuboid::new(h).expect("positive extents")),
                k64: Shape3::Cuboid(Cuboid::new(h.cast::<f64>()).expect("positive extents")),
                p: ParryShape3::Cuboid(parry3d::shape::Cuboid::new(parry3d::math::Vector::new(
                    h.x, h.y, h.z,
                ))),
            }
        })
        .collect()
}

/// `count` hulls of `points` random points on the ellipsoid with semi-axes 1, 0.8, 0.6 (every
/// point a vertex).
fn hull_pool(count: usize, points: usize) -> Vec<Shape3d> {
    // (The 24-point pool keeps the seed it always had.)
    let mut r = rng(SEED ^ 0x4a11 ^ if points == 24 { 0 } else { (points as u64) << 16 });
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let pts: Vec<Point3<f32>> = unit_directions::<3>(r.random(), points)
            .iter()
            .map(|d| Point3::new(d[0] as f32, (d[1] * 0.8) as f32, (d[2] * 0.6) as f32))
            .collect();
        let pts64: Vec<Point3<f64>> = pts.iter().map(|p| p.cast::<f64>()).collect();
        let cloud: Vec<parry3d::math::Vector> =
            pts.iter().map(|p| parry3d::math::Vector::new(p.x, p.y, p.z)).collect();
        let (Ok(k), Ok(k64), Some(p)) = (
            ConvexPolyhedron::from_points(&pts),
            ConvexPolyhedron::from_points(&pts64),
            parry3d::shape::ConvexPolyhedron::from_convex_hull(&cloud),
        ) else {
            continue;
        };
        out.push(Shape3d {
            k: Shape3::Polyhedron(k),
            k64: Shape3::Polyhedron(k64),
            p: ParryShape3::Polyhedron(p),
        });
    }
    out
}

/// One posed 3D pair in both libraries' types.
#[repr(align(64))] // the same cache-line position in every run (see `Pair2` of the narrowphase bench)
struct Pair3 {
    a: usize,
    b: usize,
    pose_a: Iso3<f32>,
    pose_b: Iso3<f32>,
    pa: parry3d::math::Pose,
    pb: parry3d::math::Pose,
}

/// The exact `f64` signed distance of two kollide 3D shapes (for placing pairs).
fn sd3(a: &Shape3<f64>, pa: &Iso3<f64>, b: &Shape3<f64>, pb: &Iso3<f64>) -> f64 {
    let s = QuerySettings::<f64>::default();
    match (a, b) {
        (Shape3::Cuboid(x), Shape3::Cuboid(y)) => closest_points(pa, x, pb, y, &s).separation,
        (Shape3::Polyhedron(x), Shape3::Polyhedron(y)) => {
            closest_points(pa, x, pb, y, &s).separation
        }
        _ => unreachable!("a pool holds one kind of shape"),
    }
}

fn pairs_3d(pool: &[Shape3d], seed: u64) -> Vec<Pair3> {
    let sd = |a: usize, pa: &Iso3<f64>, b: usize, pb: &Iso3<f64>| {
        sd3(&pool[a].k64, pa, &pool[b].k64, pb)
    };
    let mut r = rng(seed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let target = TARGETS[out.len() % TARGETS.len()];
        let Some((a, b, pose_a, pose_b)) = place_pair_3d(&mut r, pool.len(), target, sd) else {
            continue;
        };
        let (pa, pb) = (parry_pose3(&pose_a), parry_pose3(&pose_b));
        out.push(Pair3 { a, b, pa, pb, pose_a, pose_b });
    }
    out
}

#[inline(never)] // a symbol of its own, for `callgrind --toggle-collect` (see `KOLLIDE_ONCE`)
fn kollide_3d(pool: &[Shape3d], q: &Pair3) -> Answer<3> {
    let m = manifold3::<f32, ()>(&q.pose_a, &pool[q.a].k, &q.pose_b, &pool[q.b].k, MARGIN);
    match m.min_separation() {
        Some(d) => Answer { count: m.len(), within: m.len(), normal: m.normal.into(), deepest: d },
        None => Answer::empty(),
    }
}

#[inline(never)] // as `kollide_3d`
fn parry_3d(pool: &[Shape3d], q: &Pair3, m: &mut ContactManifold3<(), ()>) -> Answer<3> {
    m.clear();
    m.local_n1 = parry3d::math::Vector::ZERO;
    m.local_n2 = parry3d::math::Vector::ZERO;
    let pos12 = q.pa.inv_mul(&q.pb);
    match (&pool[q.a].p, &pool[q.b].p) {
        (ParryShape3::Polyhedron(a), ParryShape3::Polyhedron(b)) => {
            p3q::contact_manifold_pfm_pfm(&pos12, a, 0.0, None, b, 0.0, None, MARGIN, m);
        }
        (ParryShape3::Cuboid(a), ParryShape3::Cuboid(b)) => {
            p3q::contact_manifold_cuboid_cuboid(&pos12, a, b, MARGIN, m);
        }
        _ => unreachable!("a pool holds one kind of shape"),
    }
    let Some(deepest) = m.points.iter().map(|p| p.dist).reduce(f32::min) else {
        return Answer::empty();
    };
    let within = m.points.iter().filter(|p| p.dist <= MARGIN).count();
    let n = q.pa.rotation * m.local_n1;
    Answer { count: m.points.len(), within, normal: [n.x, n.y, n.z], deepest }
}

// ------------------------------------------------------------------------------------------------
// The groups.

/// Prints how far a peer's answers are from kollide's on a batch: normals more than 1e-3 apart,
/// deepest separations more than 1e-3 apart, different counts of contacts within the margin, and
/// the histograms of the counts as reported.
fn compare<const D: usize>(name: &str, peer: &str, ours: &[Answer<D>], theirs: &[Answer<D>]) {
    let (mut normals, mut depths, mut counts) = (0, 0, 0);
    let mut hist = ([0usize; 9], [0usize; 9], [0usize; 9]);
    for (o, t) in ours.iter().zip(theirs) {
        let dn = o.normal.iter().zip(&t.normal).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
        normals += usize::from(dn > 1e-3);
        depths += usize::from((o.deepest - t.deepest).abs() > 1e-3);
        counts += usize::from(o.within != t.within);
        hist.0[o.count.min(8)] += 1;
        hist.1[t.count.min(8)] += 1;
        hist.2[t.within.min(8)] += 1;
    }
    if std::env::var_os("KOLLIDE_BENCH_DIFF").is_some() {
        for (i, (o, t)) in ours.iter().zip(theirs).enumerate() {
            let dn = o.normal.iter().zip(&t.normal).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
            if dn > 1e-3 || (o.deepest - t.deepest).abs() > 1e-3 || o.within != t.within {
                eprintln!(
                    "  {name} pair {i} (target {}): kollide {o:?}, {peer} {t:?}",
                    TARGETS[i % 4]
                );
            }
        }
    }
    let show = |h: &[usize; 9]| {
        h.iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| format!("{k}:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    eprintln!(
        "{name}: {} pairs; {peer} vs kollide: normal differs (>1e-3) on {normals}, deepest \
         separation on {depths}, contacts within the margin on {counts}; contacts reported: \
         kollide [{}], {peer} [{}] ({peer} within the margin [{}])",
        ours.len(),
        show(&hist.0),
        show(&hist.1),
        show(&hist.2),
    );
}

/// Runs one group: `n` queries through each `(id, query)` in `libs`, one iteration per batch.
fn group<const D: usize>(
    c: &mut Criterion,
    name: &str,
    n: usize,
    libs: &mut [(&str, &mut dyn FnMut(usize) -> Answer<D>)],
) {
    if !counting_instructions() {
        let answers: Vec<Vec<Answer<D>>> =
            libs.iter_mut().map(|(_, f)| (0..n).map(&mut *f).collect()).collect();
        for (k, (peer, _)) in libs.iter().enumerate().skip(1) {
            compare(name, peer, &answers[0], &answers[k]);
        }
    }
    if std::env::var_os("KOLLIDE_ONCE").is_some() {
        return;
    }
    if let Some(rounds) = alternating_rounds(name) {
        // (One closure type for every library: each captures its own query.)
        let mut batches: Vec<_> = libs
            .iter_mut()
            .map(|(id, f)| (*id, move || (0..black_box(n)).map(|i| f(i).checksum()).sum::<f32>()))
            .collect();
        alternate(name, rounds, &mut batches);
        return;
    }
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(n as u64));
    for (id, f) in libs.iter_mut() {
        g.bench_function(*id, |b| {
            b.iter(|| one_iteration(|| (0..black_box(n)).map(|i| f(i).checksum()).sum::<f32>()))
        });
    }
    g.finish();
}

fn manifold_2d(c: &mut Criterion) {
    if std::env::var("KOLLIDE_ONLY").is_ok_and(|o| !"manifold2d".contains(&o) && !o.contains("2d"))
    {
        return;
    }
    boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let mut pm = ContactManifold2::<(), ()>::new();
    for (name, pool, seed) in
        [("manifold2d/polygons", polygon_pool(64), 21), ("manifold2d/boxes", box_pool(32), 22)]
    {
        let pairs = pairs_2d(&pool, seed);
        group(
            c,
            name,
            pairs.len(),
            &mut [
                ("kollide", &mut |i: usize| kollide_2d(&pool, &pairs[i])),
                ("box2d-raw", &mut |i: usize| box2d_raw_2d(&pool, &pairs[i])),
                ("box2d-safe", &mut |i: usize| box2d_safe_2d(&pool, &pairs[i])),
                ("parry", &mut |i: usize| parry_2d(&pool, &pairs[i], &mut pm)),
            ],
        );
    }
}

fn manifold_3d(c: &mut Criterion) {
    let mut pm = ContactManifold3::<(), ()>::new();
    // `KOLLIDE_ONLY=<part of a group name>` skips building the other groups' pools.
    let only = std::env::var("KOLLIDE_ONLY").unwrap_or_default();
    for (name, points, count, seed) in [
        ("manifold3d/cuboids", 0, 32, 31),
        ("manifold3d/hulls", 24, 16, 32),
        ("manifold3d/hull256", 256, 8, 33),
        ("manifold3d/hull1000", 1000, 4, 34),
    ] {
        if !name.contains(&only) {
            continue;
        }
        let pool = if points == 0 { cuboid_pool(count) } else { hull_pool(count, points) };
        let pairs = pairs_3d(&pool, seed);
        group(
            c,
            name,
            pairs.len(),
            &mut [
                ("kollide", &mut |i: usize| kollide_3d(&pool, &pairs[i])),
                ("parry", &mut |i: usize| parry_3d(&pool, &pairs[i], &mut pm)),
            ],
        );
    }
}

short_bench_group!(super::manifold_2d, super::manifold_3d);
