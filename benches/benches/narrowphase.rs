//! Benchmarks of the narrowphase (`kollide-narrowphase`) against parry (parry2d / parry3d 0.31).
//!
//! Every group runs one batch of [`PAIRS`] seeded queries through kollide (function id `kollide`)
//! and through parry (function id `parry`), so `cargo xtask bench` can print the ratio
//! kollide/parry from one run. One benchmark iteration is the whole batch, run once, or 20 times
//! for the ball–ball contacts (a batch of 1,000 of them takes only a few microseconds, too short
//! to time well).
//!
//! **Precision.** Both libraries run in `f32` (parry's default build): kollide with
//! `QuerySettings::<f32>::default()`.
//!
//! **parry's call path.** parry is called through its typed routines in `parry::query::details`
//! (`contact_support_map_support_map`, `distance_support_map_support_map`,
//! `intersection_test_support_map_support_map`, `contact_ball_ball`,
//! `cast_shapes_support_map_support_map` and `RayCast::cast_ray_and_get_normal`), which are what
//! its `dyn Shape` dispatcher ends up calling, minus the dispatch. Like kollide, the relative
//! pose `pos_a⁻¹ · pos_b` is computed inside the timed loop.
//!
//! **Inputs at controlled signed distances.** Shapes come from small seeded pools (the same
//! vertex lists feed both libraries: a polygon is first built by parry, whose constructor drops
//! nearly collinear vertices, and kollide's polygon is built from parry's vertices). For each pair
//! A gets a random pose and B a random rotation; B's position is `c_A + t·u` for a random unit
//! direction `u`, and `t` is solved (regula falsi, [`kollide_benches::find_crossing`]) so that
//! kollide's exact `f64` signed distance of the pair equals the target (to `1e-10`); when the
//! target cannot be reached on `t ∈ [0, 4]` (a thin pair never overlaps that deep) the pair is
//! redrawn. "deep" is a signed distance of `−0.25` (shapes are 0.2–2 units across). Concentric
//! placements (`t = 0`) are avoided on purpose: they are a degenerate start for GJK on symmetric
//! shapes, where parry 0.31 returns a zero depth for about half of the box pairs. The pair's
//! targets cycle through the list relevant to the query:
//!
//! * intersection tests and ball–ball contacts: `±1e-1, ±1e-2, ±1e-3` and deep;
//! * distances (GJK only): `+1e-1, +1e-2, +1e-3`;
//! * penetrations (EPA): `−1e-3, −1e-2, −1e-1` and deep.
//!
//! Rays are placed the same way: a segment of length 8 along the ray, centred on the shape (a
//! 32-vertex hull, or a box rounded by 0.05–0.3), is slid sideways until its signed distance to
//! the shape is the target (positive: the ray misses by that much; negative: it grazes that deep).
//!
//! Shape casts start from the apart pairs: B is moved back 3 m along the line from A's centre to
//! its own and thrown back at 6 m/s (`max_toi = 1`), so each cast flies 3 m before it meets the
//! gap, with parry's default options (`stop_at_penetration`, no target distance).
//!
//! Before timing, each group prints how far kollide's and parry's answers are apart on its batch;
//! with `KOLLIDE_BENCH_DIFF=1` in the environment it also lists every query where they differ
//! by more than `1e-3`.
//!
//! With `KOLLIDE_ALT=<rounds>` (and optionally `KOLLIDE_ALT_ONLY=<part of a group name>`), each
//! group runs kollide's and parry's batches in turn, `rounds` times, instead of criterion's
//! timing, and prints the median of the per-round time ratios ([`kollide_benches::alternate`]).

use std::hint::black_box;

use crate::parry_poses::{parry_pose2, parry_pose3};
use criterion::{Criterion, Throughput};
use kollide::narrowphase::{
    QuerySettings, Ray, closest_points, contact, distance, intersection_test, ray_cast, shape_cast,
};
use kollide::prelude::*;
use kollide_benches::{
    SEED, alternate, alternating_rounds, counting_instructions, find_crossing, one_iteration,
    place_pair_2d, place_pair_3d, points_in_cube, random_rotation, random_unit, rng,
    unit_directions,
};
use parry2d::query::details as p2q;
use parry3d::query::details as p3q;
use parry3d::query::{RayCast, ShapeCastOptions};
use rand::Rng;

/// Queries per benchmark iteration.
const PAIRS: usize = 1000;

/// A signed distance a pair is placed at.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// This signed distance (negative: penetrating).
    Gap(f64),
    /// A penetration of [`DEEP`], a large part of the shapes' size.
    Deep,
}

impl Target {
    /// The signed distance itself.
    fn value(self) -> f64 {
        match self {
            Gap(g) => g,
            Deep => DEEP,
        }
    }
}

use Target::{Deep, Gap};

/// Both sides of touching, and deep.
const BOTH: [Target; 7] =
    [Gap(1e-1), Gap(1e-2), Gap(1e-3), Gap(-1e-3), Gap(-1e-2), Gap(-1e-1), Deep];
/// Apart only (distance queries).
const APART: [Target; 3] = [Gap(1e-1), Gap(1e-2), Gap(1e-3)];
/// Penetrating only (EPA).
const PENETRATING: [Target; 4] = [Gap(-1e-3), Gap(-1e-2), Gap(-1e-1), Deep];

/// The signed distance of the "deep" bucket.
const DEEP: f64 = -0.25;

/// Solves for the slide `t ∈ [0, 4]` that puts the pair at `target` (every shape here fits in a
/// ball of radius 2 around its origin, so `t = 4` separates any pair).
fn slide_to(target: Target, sd: impl FnMut(f64) -> f64) -> Option<f64> {
    find_crossing(sd, 0.0, 4.0, target.value(), 1e-10)
}

// ------------------------------------------------------------------------------------------------
// 2D polygons.

/// A convex polygon in both libraries (and in `f64` kollide for placing pairs).
#[repr(align(64))] // the same cache-line position in every run (see `Pair2`)
struct Polygon {
    k: ConvexPolygon<f32>,
    k64: ConvexPolygon<f64>,
    p: parry2d::shape::ConvexPolygon,
}

/// `count` hulls of 3–24 random points in `[-1, 1]²`.
fn polygon_pool(count: usize) -> Vec<Polygon> {
    let mut r = rng(SEED ^ 0x2d);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let n = r.random_range(3..=24);
        let cloud: Vec<parry2d::math::Vector> = points_in_cube::<2>(r.random(), n, 1.0)
            .iter()
            .map(|p| parry2d::math::Vector::new(p[0] as f32, p[1] as f32))
            .collect();
        let Some(p) = parry2d::shape::ConvexPolygon::from_convex_hull(&cloud) else { continue };
        let pts: Vec<Point2<f32>> = p.points().iter().map(|v| Point2::new(v.x, v.y)).collect();
        let pts64: Vec<Point2<f64>> = pts.iter().map(|v| v.cast::<f64>()).collect();
        let (Ok(k), Ok(k64)) =
            (ConvexPolygon::from_convex_ccw(&pts), ConvexPolygon::from_convex_ccw(&pts64))
        else {
            continue;
        };
        out.push(Polygon { k, k64, p });
    }
    out
}

/// One posed 2D pair, in both libraries' types. Aligned to a cache line, so that where the
/// allocator puts the batch does not decide, run by run, whether a pose straddles two lines.
#[repr(align(64))]
struct Pair2 {
    a: usize,
    b: usize,
    pose_a: Iso2<f32>,
    pose_b: Iso2<f32>,
    pa: parry2d::math::Pose,
    pb: parry2d::math::Pose,
}

/// [`PAIRS`] polygon pairs at the signed distances `targets` (cycled).
fn polygon_pairs(pool: &[Polygon], targets: &[Target], seed: u64) -> Vec<Pair2> {
    let s = QuerySettings::<f64>::default();
    let sd = |a: usize, pa: &Iso2<f64>, b: usize, pb: &Iso2<f64>| {
        closest_points(pa, &pool[a].k64, pb, &pool[b].k64, &s).separation
    };
    let mut r = rng(seed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let target = targets[out.len() % targets.len()].value();
        let Some((a, b, pose_a, pose_b)) = place_pair_2d(&mut r, pool.len(), target, sd) else {
            continue;
        };
        let (pa, pb) = (parry_pose2(&pose_a), parry_pose2(&pose_b));
        out.push(Pair2 { a, b, pa, pb, pose_a, pose_b });
    }
    out
}

// ------------------------------------------------------------------------------------------------
// 3D shapes.

/// A convex polyhedron in both libraries (and in `f64` kollide for placing pairs).
#[repr(align(64))] // the same cache-line position in every run (see `Pair2`)
struct Hull {
    k: ConvexPolyhedron<f32>,
    k64: ConvexPolyhedron<f64>,
    p: parry3d::shape::ConvexPolyhedron,
}

/// `count` hulls of `n` random points on the ellipsoid with semi-axes 1, 0.8, 0.6 (every point is
/// a vertex of the hull).
fn hull_pool(count: usize, n: usize) -> Vec<Hull> {
    let mut r = rng(SEED ^ n as u64);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let pts: Vec<Point3<f32>> = unit_directions::<3>(r.random(), n)
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
        out.push(Hull { k, k64, p });
    }
    out
}

/// A box in both libraries.
#[repr(align(64))] // the same cache-line position in every run (see `Pair2`)
struct Box3 {
    k: Cuboid<f32, 3>,
    k64: Cuboid<f64, 3>,
    p: parry3d::shape::Cuboid,
}

fn box_pool(count: usize) -> Vec<Box3> {
    let mut r = rng(SEED ^ 0xb0c5);
    (0..count)
        .map(|_| {
            let h = Vec3::new(
                r.random_range(0.2..1.0f32),
                r.random_range(0.2..1.0f32),
                r.random_range(0.2..1.0f32),
            );
            Box3 {
                k: Cuboid::new(h).expect("positive extents"),
                k64: Cuboid::new(h.cast::<f64>()).expect("positive extents"),
                p: parry3d::shape::Cuboid::new(parry3d::math::Vector::new(h.x, h.y, h.z)),
            }
        })
        .collect()
}

/// A rounded box in both libraries.
struct RoundBox3 {
    k: Rounded<Cuboid<f32, 3>, f32>,
    k64: Rounded<Cuboid<f64, 3>, f64>,
    p: parry3d::shape::RoundCuboid,
}

/// Boxes of half extents 0.2..1 rounded by 0.05..0.3.
fn round_box_pool(count: usize) -> Vec<RoundBox3> {
    let mut r = rng(SEED ^ 0x20b0);
    (0..count)
        .map(|_| {
            let h = Vec3::new(
                r.random_range(0.2..1.0f32),
                r.random_range(0.2..1.0f32),
                r.random_range(0.2..1.0f32),
            );
            let radius = r.random_range(0.05..0.3f32);
            let k = Cuboid::new(h).expect("positive extents");
            let k64 = Cuboid::new(h.cast::<f64>()).expect("positive extents");
            RoundBox3 {
                k: Rounded::new(k, radius).expect("positive radius"),
                k64: Rounded::new(k64, f64::from(radius)).expect("positive radius"),
                p: parry3d::shape::RoundShape {
                    inner_shape: parry3d::shape::Cuboid::new(parry3d::math::Vector::new(
                        h.x, h.y, h.z,
                    )),
                    border_radius: radius,
                },
            }
        })
        .collect()
}

/// A ball in both libraries.
#[repr(align(64))] // the same cache-line position in every run (see `Pair2`)
struct Sphere {
    k: Ball<f32, 3>,
    k64: Ball<f64, 3>,
    p: parry3d::shape::Ball,
}

fn ball_pool(count: usize) -> Vec<Sphere> {
    let mut r = rng(SEED ^ 0xba11);
    (0..count)
        .map(|_| {
            let radius = r.random_range(0.2..1.0f32);
            Sphere {
                k: Ball::new(radius).expect("positive radius"),
                k64: Ball::new(f64::from(radius)).expect("positive radius"),
                p: parry3d::shape::Ball::new(radius),
            }
        })
        .collect()
}

/// One posed 3D pair, in both libraries' types. Aligned to a cache line, so that where the
/// allocator puts the batch does not decide, run by run, whether a pose straddles two lines.
#[repr(align(64))]
struct Pair3 {
    a: usize,
    b: usize,
    pose_a: Iso3<f32>,
    pose_b: Iso3<f32>,
    pa: parry3d::math::Pose,
    pb: parry3d::math::Pose,
}

/// [`PAIRS`] pairs from `pool` at the signed distances `targets` (cycled); `sd` is kollide's
/// exact `f64` signed distance of shapes `a` and `b` at the two poses.
fn pairs_3d(
    count: usize,
    targets: &[Target],
    seed: u64,
    sd: impl Fn(usize, &Iso3<f64>, usize, &Iso3<f64>) -> f64,
) -> Vec<Pair3> {
    let mut r = rng(seed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let target = targets[out.len() % targets.len()].value();
        let Some((a, b, pose_a, pose_b)) = place_pair_3d(&mut r, count, target, &sd) else {
            continue;
        };
        let (pa, pb) = (parry_pose3(&pose_a), parry_pose3(&pose_b));
        out.push(Pair3 { a, b, pa, pb, pose_a, pose_b });
    }
    out
}

/// One ray against a posed hull, in both libraries' types.
struct RayCase {
    hull: usize,
    pose: Iso3<f32>,
    ray: Ray<f32, 3>,
    p_pose: parry3d::math::Pose,
    p_ray: parry3d::query::Ray,
}

/// [`PAIRS`] rays against the `count` shapes of a pool at the signed distances `targets`
/// (cycled). `sd(h, pose, seg_pose, seg)` is the signed distance from shape `h` at `pose` to the
/// segment `seg` at `seg_pose`, in `f64`.
fn ray_cases(
    count: usize,
    targets: &[Target],
    seed: u64,
    sd: impl Fn(usize, &Iso3<f64>, &Iso3<f64>, &Segment<f64, 3>) -> f64,
) -> Vec<RayCase> {
    let mut r = rng(seed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let target = targets[out.len() % targets.len()];
        let h = r.random_range(0..count);
        let c = Vec3::new(
            r.random_range(-10.0..10.0),
            r.random_range(-10.0..10.0),
            r.random_range(-10.0..10.0),
        );
        let pose = Iso3::new(c, random_rotation(&mut r));
        let d = Vec3::from(random_unit::<3>(&mut r));
        // A unit direction perpendicular to the ray to slide it along.
        let w = d.cross(&Vec3::from(random_unit::<3>(&mut r))).normalize();
        let seg =
            Segment::new(Point3::from(-d * 4.0), Point3::from(d * 4.0)).expect("distinct ends");
        let seg_pose = |t: f64| Iso3::translation(c.x + w.x * t, c.y + w.y * t, c.z + w.z * t);
        let Some(t) = slide_to(target, |t| sd(h, &pose, &seg_pose(t), &seg)) else { continue };
        let origin = (c + w * t - d * 4.0).cast::<f32>();
        let (pose, dir) = (pose.cast::<f32>(), d.cast::<f32>());
        out.push(RayCase {
            hull: h,
            p_pose: parry_pose3(&pose),
            p_ray: parry3d::query::Ray::new(
                parry3d::math::Vector::new(origin.x, origin.y, origin.z),
                parry3d::math::Vector::new(dir.x, dir.y, dir.z),
            ),
            pose,
            ray: Ray { origin: Point3::from(origin), dir },
        });
    }
    out
}

// ------------------------------------------------------------------------------------------------
// The groups.

/// Runs one group: the same batch of `n` queries through kollide (`ours(i)`) and parry
/// (`theirs(i)`); one iteration is the whole batch, [`passes`] times. Each closure returns a
/// number per query (a signed distance, a time of impact, or 0/1 for a boolean), summed so
/// nothing is optimised away.
///
/// Before timing, prints how far the two libraries' answers are apart on the batch (a sanity
/// check that both answer the same question; parry is expected within about `1e-3` relative).
fn group(
    c: &mut Criterion,
    name: &str,
    n: usize,
    ours: impl Fn(usize) -> f32,
    theirs: impl Fn(usize) -> f32,
) {
    if !counting_instructions() {
        compare(name, n, &ours, &theirs);
    }
    let passes = passes(name);
    if let Some(rounds) = alternating_rounds(name) {
        let (mut ours, mut theirs) = (|| batch(&ours, n, passes), || batch(&theirs, n, passes));
        let mut libs: [(&str, &mut dyn FnMut() -> f32); 2] =
            [("kollide", &mut ours), ("parry", &mut theirs)];
        alternate(name, rounds, &mut libs);
        return;
    }
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements((n * passes) as u64));
    g.bench_function("kollide", |b| b.iter(|| batch(&ours, n, passes)));
    g.bench_function("parry", |b| b.iter(|| batch(&theirs, n, passes)));
    g.finish();
}

/// One benchmark iteration: `passes` passes over the batch of `n` queries, answers summed.
fn batch(f: &impl Fn(usize) -> f32, n: usize, passes: usize) -> f32 {
    one_iteration(|| (0..passes).map(|_| (0..black_box(n)).map(f).sum::<f32>()).sum::<f32>())
}

/// How many times one iteration of group `name` runs its batch: 1, except for the groups whose
/// batch takes only a few microseconds (ball–ball contacts), which run it 20 times so that one
/// iteration takes tens of microseconds, long enough for the timer's resolution and overhead.
fn passes(name: &str) -> usize {
    if name.starts_with("ball_ball/") { 20 } else { 1 }
}

/// Prints how far kollide's and parry's answers are apart on the batch (and, with
/// `KOLLIDE_BENCH_DIFF`, every query where they differ).
fn compare(name: &str, n: usize, ours: &impl Fn(usize) -> f32, theirs: &impl Fn(usize) -> f32) {
    let (mut worst, mut worst_at, mut differ) = (0.0f32, 0, 0);
    for i in 0..n {
        let d = (ours(i) - theirs(i)).abs();
        if d > 1e-3 {
            differ += 1;
        }
        if d > worst {
            (worst, worst_at) = (d, i);
        }
    }
    eprintln!(
        "{name}: {n} queries; |kollide − parry| > 1e-3 on {differ}, worst {worst:.2e} (query \
         {worst_at}: kollide {}, parry {})",
        ours(worst_at),
        theirs(worst_at)
    );
    if std::env::var_os("KOLLIDE_BENCH_DIFF").is_some() {
        for i in 0..n {
            let (o, t) = (ours(i), theirs(i));
            if (o - t).abs() > 1e-3 {
                eprintln!("  {name} query {i}: kollide {o}, parry {t}");
            }
        }
    }
}

/// Signed distance of a kollide contact with margin 0 (`+1` when proven apart).
fn sep<const D: usize>(c: Option<kollide::narrowphase::ShapeContact<f32, D>>) -> f32 {
    c.map_or(1.0, |c| c.separation)
}

/// `1` for `true`, `0` for `false`.
fn one(b: bool) -> f32 {
    f32::from(u8::from(b))
}

fn polygons_2d(c: &mut Criterion) {
    let s = QuerySettings::<f32>::default();
    let pool = polygon_pool(64);
    let k = |i: usize| &pool[i].k;
    let p = |i: usize| &pool[i].p;

    let pairs = polygon_pairs(&pool, &BOTH, 1);
    group(
        c,
        "gjk_intersection/polygons2d",
        pairs.len(),
        |i| {
            let q = &pairs[i];
            one(intersection_test(&q.pose_a, k(q.a), &q.pose_b, k(q.b), None, &s).intersecting)
        },
        |i| {
            let q = &pairs[i];
            let pos12 = q.pa.inv_mul(&q.pb);
            one(p2q::intersection_test_support_map_support_map(&pos12, p(q.a), p(q.b)))
        },
    );

    let pairs = polygon_pairs(&pool, &APART, 2);
    group(
        c,
        "gjk_distance/polygons2d",
        pairs.len(),
        |i| {
            let q = &pairs[i];
            distance(&q.pose_a, k(q.a), &q.pose_b, k(q.b), &s).0
        },
        |i| {
            let q = &pairs[i];
            p2q::distance_support_map_support_map(&q.pa.inv_mul(&q.pb), p(q.a), p(q.b))
        },
    );

    let pairs = polygon_pairs(&pool, &PENETRATING, 3);
    group(
        c,
        "epa/polygons2d",
        pairs.len(),
        |i| {
            let q = &pairs[i];
            sep(contact(&q.pose_a, k(q.a), &q.pose_b, k(q.b), 0.0, &s))
        },
        |i| {
            let q = &pairs[i];
            let pos12 = q.pa.inv_mul(&q.pb);
            p2q::contact_support_map_support_map(&pos12, p(q.a), p(q.b), 0.0)
                .map_or(1.0, |h| h.dist)
        },
    );
}

/// Ray casts against a pool of `count` shapes of one kind: shape `h` is `k(h)` to kollide (its
/// `f64` copy `k64(h)` places the rays, see [`ray_cases`]) and `p(h)` to parry.
fn ray_group<'a, K, K64, P>(
    c: &mut Criterion,
    name: &str,
    count: usize,
    seed: u64,
    k: impl Fn(usize) -> &'a K,
    k64: impl Fn(usize) -> &'a K64,
    p: impl Fn(usize) -> &'a P,
) where
    K: SupportMap<f32, 3> + 'a,
    K64: SupportMap<f64, 3> + 'a,
    P: RayCast + 'a,
{
    let (s, s64) = (QuerySettings::<f32>::default(), QuerySettings::<f64>::default());
    let rays = ray_cases(count, &BOTH, seed, |h, pose, seg_pose, seg| {
        closest_points(pose, k64(h), seg_pose, seg, &s64).separation
    });
    group(
        c,
        name,
        rays.len(),
        |i| {
            let q = &rays[i];
            ray_cast(&q.pose, k(q.hull), &q.ray, 10.0, &s).map_or(-1.0, |h| h.t)
        },
        |i| {
            let q = &rays[i];
            let hit = p(q.hull).cast_ray_and_get_normal(&q.p_pose, &q.p_ray, 10.0, true);
            hit.map_or(-1.0, |h| h.time_of_impact)
        },
    );
}

/// EPA (contact with margin 0) on penetrating pairs of one kind of 3D shape.
fn epa_3d<K, P>(c: &mut Criterion, name: &str, k: &[&K], p: &[&P], pairs: &[Pair3])
where
    K: SupportMap<f32, 3>,
    P: parry3d::shape::SupportMap,
{
    let s = QuerySettings::<f32>::default();
    group(
        c,
        name,
        pairs.len(),
        |i| {
            let q = &pairs[i];
            sep(contact(&q.pose_a, k[q.a], &q.pose_b, k[q.b], 0.0, &s))
        },
        |i| {
            let q = &pairs[i];
            let pos12 = q.pa.inv_mul(&q.pb);
            p3q::contact_support_map_support_map(&pos12, p[q.a], p[q.b], 0.0)
                .map_or(1.0, |h| h.dist)
        },
    );
}

fn shapes_3d(c: &mut Criterion) {
    let s = QuerySettings::<f32>::default();
    let s64 = QuerySettings::<f64>::default();

    let boxes = box_pool(32);
    let pairs = pairs_3d(boxes.len(), &PENETRATING, 4, |a, pa, b, pb| {
        closest_points(pa, &boxes[a].k64, pb, &boxes[b].k64, &s64).separation
    });
    let (k, p): (Vec<_>, Vec<_>) = boxes.iter().map(|x| (&x.k, &x.p)).unzip();
    epa_3d(c, "epa/boxes3d", &k, &p, &pairs);

    let hull32 = hull_pool(16, 32);
    let pairs = pairs_3d(hull32.len(), &PENETRATING, 5, |a, pa, b, pb| {
        closest_points(pa, &hull32[a].k64, pb, &hull32[b].k64, &s64).separation
    });
    let (k, p): (Vec<_>, Vec<_>) = hull32.iter().map(|x| (&x.k, &x.p)).unzip();
    epa_3d(c, "epa/hull32", &k, &p, &pairs);

    let hull256 = hull_pool(8, 256);
    let sd256 = |a: usize, pa: &Iso3<f64>, b: usize, pb: &Iso3<f64>| {
        closest_points(pa, &hull256[a].k64, pb, &hull256[b].k64, &s64).separation
    };
    let pairs = pairs_3d(hull256.len(), &PENETRATING, 6, sd256);
    let (k, p): (Vec<_>, Vec<_>) = hull256.iter().map(|x| (&x.k, &x.p)).unzip();
    epa_3d(c, "epa/hull256", &k, &p, &pairs);

    let pairs = pairs_3d(hull256.len(), &APART, 7, sd256);
    group(
        c,
        "gjk_distance/hull256",
        pairs.len(),
        |i| {
            let q = &pairs[i];
            distance(&q.pose_a, k[q.a], &q.pose_b, k[q.b], &s).0
        },
        |i| {
            let q = &pairs[i];
            p3q::distance_support_map_support_map(&q.pa.inv_mul(&q.pb), p[q.a], p[q.b])
        },
    );

    let balls = ball_pool(32);
    let pairs = pairs_3d(balls.len(), &BOTH, 8, |a, pa, b, pb| {
        closest_points(pa, &balls[a].k64, pb, &balls[b].k64, &s64).separation
    });
    group(
        c,
        "ball_ball/3d",
        pairs.len(),
        |i| {
            let q = &pairs[i];
            sep(contact(&q.pose_a, &balls[q.a].k, &q.pose_b, &balls[q.b].k, 0.0, &s))
        },
        |i| {
            let q = &pairs[i];
            let pos12 = q.pa.inv_mul(&q.pb);
            p3q::contact_ball_ball(&pos12, &balls[q.a].p, &balls[q.b].p, 0.0)
                .map_or(1.0, |h| h.dist)
        },
    );

    ray_group(
        c,
        "ray_cast/hull32",
        hull32.len(),
        9,
        |h| &hull32[h].k,
        |h| &hull32[h].k64,
        |h| &hull32[h].p,
    );
    // A rounded box's ray hit takes its normal from the box's point nearest the hit (see
    // `kollide_narrowphase::cast`), one more query than a sharp shape's hit.
    let round = round_box_pool(32);
    ray_group(
        c,
        "ray_cast/round_box",
        round.len(),
        11,
        |h| &round[h].k,
        |h| &round[h].k64,
        |h| &round[h].p,
    );

    let casts = cast_cases(&pairs_3d(hull32.len(), &APART, 10, |a, pa, b, pb| {
        closest_points(pa, &hull32[a].k64, pb, &hull32[b].k64, &s64).separation
    }));
    group(
        c,
        "shape_cast/hull32",
        casts.len(),
        |i| {
            let (q, v) = &casts[i];
            let (ka, kb) = (&hull32[q.a].k, &hull32[q.b].k);
            shape_cast(&q.pose_a, &Vec3::zeros(), ka, &q.pose_b, v, kb, 1.0, &s)
                .map_or(-1.0, |h| h.t)
        },
        |i| {
            let (q, v) = &casts[i];
            let vel12 = q.pa.rotation.inverse() * parry3d::math::Vector::new(v.x, v.y, v.z);
            let (pa, pb) = (&hull32[q.a].p, &hull32[q.b].p);
            let options = ShapeCastOptions::with_max_time_of_impact(1.0);
            p3q::cast_shapes_support_map_support_map(&q.pa.inv_mul(&q.pb), vel12, pa, pb, options)
                .map_or(-1.0, |h| h.time_of_impact)
        },
    );
}

/// Casts from pairs placed a small gap apart: B moved back 3 m along the line from A's centre
/// to its own, and thrown back along it at 6 m/s, so that it reaches the gap at about `t = 0.5`
/// (of `max_toi = 1`) after a flight of 3 m, as a game's sweep would start.
fn cast_cases(pairs: &[Pair3]) -> Vec<(Pair3, Vec3<f32>)> {
    pairs
        .iter()
        .map(|q| {
            let u = (q.pose_b.translation.vector - q.pose_a.translation.vector).normalize();
            let pose_b = q.pose_b.translated(&(u * 3.0));
            let moved = Pair3 { pb: parry_pose3(&pose_b), pose_b, ..*q };
            (moved, -u * 6.0)
        })
        .collect()
}

short_bench_group!(super::polygons_2d, super::shapes_3d);
