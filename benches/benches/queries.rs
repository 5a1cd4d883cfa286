//! World query benchmarks: closest-hit ray casts and box overlap queries on the same seeded
//! 10,000-body 2D scene in kollide, rapier 0.36 (its `QueryPipeline` over `BroadPhaseBvh`) and
//! Box2D v3.2 (`b2World_CastRayClosest` and `b2World_OverlapAABB`, through `boxdd`).
//!
//! | group | one iteration | ids |
//! |---|---|---|
//! | `queries2d/ray_closest` | 100 closest-hit rays of length 50 from random points in random directions | `kollide`, `rapier`, `box2d` |
//! | `queries2d/overlap_aabb` | 100 queries for the bodies whose AABB overlaps a random 10 × 10 box | `kollide`, `rapier`, `box2d` |
//!
//! **Scene.** 10,000 static bodies in a 1,000 × 1,000 m square: boxes of half extents in
//! [0.25, 1.5] m and discs of radius in [0.25, 1.5] m, every engine given the same shapes at the
//! same places (seed 16). Each engine is stepped once after building, as a game would, so its
//! tree is built; no engine is given settings beyond its defaults. Rays are unit directions with
//! a maximum length of 50 (rapier's `max_toi`, kollide's `max_t`; Box2D takes the translation
//! `50·dir`); rapier's rays are `solid`, as kollide's and Box2D's are. The overlap queries return
//! bodies whose *AABB* overlaps the box in all three (rapier's `intersect_aabb_conservative`,
//! kollide's `intersect_aabb`, Box2D's `overlap_aabb`).
//!
//! **Same answers.** Before timing, each engine's answer is checked against an oracle in f64:
//! the number of rays that hit a body (closed forms), and the number of (query, body) pairs
//! whose boxes overlap. kollide reports the bodies' own AABBs; rapier and Box2D report the
//! boxes of their trees, grown by a skin (0.04 m and 0.02 m), so their oracle grows the boxes
//! by as much. A bench whose engine answers otherwise panics instead of timing it.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_main};
use kollide::prelude::*;
use kollide::solver::QueryFilter;
use kollide_benches::{counting_instructions, listing, one_iteration, rng, wanted};
use rand::Rng;

const BODIES: usize = 10_000;
const SIDE: f32 = 1000.0;
const QUERIES: usize = 100;
const RAY_LENGTH: f32 = 50.0;
const BOX_HALF: f32 = 5.0;
/// How much rapier 0.36 grows a collider's box in its tree (`BroadPhaseBvh`'s change-detection
/// skin, 4 % of the length unit), which its `intersect_aabb_conservative` reports.
const RAPIER_SKIN: f32 = 0.04;
/// How much Box2D v3.2 grows a static shape's box in its tree (its speculative distance).
const BOX2D_SKIN: f32 = 0.02;

/// One body of the scene: centre, and half extents (a box) or radius (a disc).
#[derive(Clone, Copy)]
enum Body {
    Box([f32; 2], [f32; 2]),
    Disc([f32; 2], f32),
}

fn scene() -> Vec<Body> {
    let mut r = rng(16);
    (0..BODIES)
        .map(|_| {
            let c = [r.random::<f32>() * SIDE - SIDE / 2.0, r.random::<f32>() * SIDE - SIDE / 2.0];
            let is_box = r.random::<bool>();
            let mut size = || 0.25 + r.random::<f32>() * 1.25;
            if is_box { Body::Box(c, [size(), size()]) } else { Body::Disc(c, size()) }
        })
        .collect()
}

/// `QUERIES` rays: origin and unit direction.
fn rays() -> Vec<([f32; 2], [f32; 2])> {
    let mut r = rng(17);
    (0..QUERIES)
        .map(|_| {
            let o = [r.random::<f32>() * SIDE - SIDE / 2.0, r.random::<f32>() * SIDE - SIDE / 2.0];
            let a = r.random::<f32>() * std::f32::consts::TAU;
            (o, [a.cos(), a.sin()])
        })
        .collect()
}

/// `QUERIES` box centres.
fn centres() -> Vec<[f32; 2]> {
    let mut r = rng(18);
    (0..QUERIES)
        .map(|_| [r.random::<f32>() * SIDE - SIDE / 2.0, r.random::<f32>() * SIDE - SIDE / 2.0])
        .collect()
}

fn kollide_world(bodies: &[Body]) -> World2<f32> {
    let mut w = World2::new(Vec2::zeros()).unwrap();
    for b in bodies {
        let desc = match *b {
            Body::Box(c, h) => BodyDesc::fixed(Cuboid::new(Vec2::new(h[0], h[1])).unwrap())
                .pose(Iso2::translation(c[0], c[1])),
            Body::Disc(c, r) => {
                BodyDesc::fixed(Circle::new(r).unwrap()).pose(Iso2::translation(c[0], c[1]))
            }
        };
        w.add(desc).unwrap();
    }
    w.step(1.0 / 60.0).unwrap();
    w
}

fn rapier_world(bodies: &[Body]) -> rapier2d::prelude::PhysicsWorld {
    use rapier2d::prelude::*;
    let mut w = PhysicsWorld::new();
    w.gravity = Vector::new(0.0, 0.0);
    for b in bodies {
        let (c, collider) = match *b {
            Body::Box(c, h) => (c, ColliderBuilder::cuboid(h[0], h[1])),
            Body::Disc(c, r) => (c, ColliderBuilder::ball(r)),
        };
        w.insert(RigidBodyBuilder::fixed().translation(Vector::new(c[0], c[1])), collider);
    }
    w.step();
    w
}

struct Box2dWorld {
    world: boxdd::World,
}

fn box2d_world(bodies: &[Body]) -> Box2dWorld {
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let def = boxdd::WorldBuilder::from(foundation.world_def())
        .gravity(boxdd::Vec2::new(0.0, 0.0))
        .build()
        .expect("a world definition");
    let mut world = foundation.create_world(def).expect("a world");
    let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");
    for b in bodies {
        let c = match *b {
            Body::Box(c, _) | Body::Disc(c, _) => c,
        };
        let def = boxdd::BodyBuilder::from(foundation.body_def())
            .position(boxdd::Position::new(c[0], c[1]))
            .build()
            .expect("a body definition");
        let id = world.create_body(def).expect("a body");
        let mut body = world.body(id).expect("a body");
        match *b {
            Body::Box(_, h) => {
                let p = boxdd::shapes::box_polygon(h[0], h[1]).expect("extents");
                body.create_polygon(&shape, &p).expect("a box");
            }
            Body::Disc(_, r) => {
                let circle = boxdd::shapes::circle([0.0, 0.0], r).expect("a radius");
                body.create_circle(&shape, &circle).expect("a disc");
            }
        }
    }
    {
        let done = world.step(1.0 / 60.0, 4).expect("a step");
        assert!(done.post_step_error().is_none(), "Box2D reported a post-step error");
    }
    Box2dWorld { world }
}

/// How many of `rays` hit some body within `RAY_LENGTH`: the oracle every engine's answer is
/// checked against (closed forms in f64: a quadratic for the discs, slabs for the boxes).
fn ray_oracle(bodies: &[Body], rays: &[([f32; 2], [f32; 2])]) -> usize {
    let hits = |o: [f64; 2], d: [f64; 2], b: &Body| match *b {
        Body::Disc(c, r) => {
            let m = [o[0] - f64::from(c[0]), o[1] - f64::from(c[1])];
            let (b, c) =
                (m[0] * d[0] + m[1] * d[1], m[0] * m[0] + m[1] * m[1] - f64::from(r).powi(2));
            let disc = b * b - (d[0] * d[0] + d[1] * d[1]) * c;
            c <= 0.0 || (b < 0.0 && disc >= 0.0 && (-b - disc.sqrt()) <= f64::from(RAY_LENGTH))
        }
        Body::Box(c, h) => {
            let (mut lo, mut hi) = (0.0f64, f64::from(RAY_LENGTH));
            for k in 0..2 {
                let (min, max) = (f64::from(c[k] - h[k]), f64::from(c[k] + h[k]));
                let (t1, t2) = ((min - o[k]) / d[k], (max - o[k]) / d[k]);
                lo = lo.max(t1.min(t2));
                hi = hi.min(t1.max(t2));
            }
            lo <= hi
        }
    };
    rays.iter()
        .filter(|(o, d)| {
            let (o, d) = ([f64::from(o[0]), f64::from(o[1])], [f64::from(d[0]), f64::from(d[1])]);
            bodies.iter().any(|b| hits(o, d, b))
        })
        .count()
}

/// How many (body, query) pairs there are whose AABB, grown by `grow`, overlaps or touches the
/// query box: kollide's answer with no growth; Box2D and rapier report the boxes of their trees,
/// which are the bodies' AABBs grown by a margin.
fn overlap_oracle(bodies: &[Body], centres: &[[f32; 2]], grow: f32) -> usize {
    let aabb = |b: &Body| match *b {
        Body::Box(c, h) => (c, h),
        Body::Disc(c, r) => (c, [r, r]),
    };
    centres
        .iter()
        .map(|q| {
            bodies
                .iter()
                .filter(|b| {
                    let (c, h) = aabb(b);
                    (0..2).all(|k| {
                        let gap = (f64::from(c[k]) - f64::from(q[k])).abs();
                        gap <= f64::from(h[k]) + f64::from(grow) + f64::from(BOX_HALF)
                    })
                })
                .count()
        })
        .sum()
}

/// Prints what an engine answered (outside the timing; not when counting instructions), so the
/// engines can be seen to answer the same questions.
fn report(group: &str, id: &str, answer: usize) {
    if !counting_instructions() {
        eprintln!("{group}/{id}: {answer}");
    }
}

/// Times `run`, after checking (and reporting) its answer: every engine must answer the
/// oracle's `expected`, so all of them are timed on the same work.
fn time(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    group: &str,
    id: &str,
    expected: usize,
    run: impl Fn() -> usize,
) {
    let answer = run();
    report(group, id, answer);
    assert_eq!(answer, expected, "{group}/{id} answered {answer}, the oracle {expected}");
    g.bench_function(id, |b| b.iter(|| one_iteration(|| black_box(run()))));
}

fn ray_closest(c: &mut Criterion) {
    const GROUP: &str = "queries2d/ray_closest";
    let mut g = c.benchmark_group(GROUP);
    let rays = rays();
    let bodies = if listing() { Vec::new() } else { scene() };
    if listing() {
        for id in ["kollide", "rapier", "box2d"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let expected = ray_oracle(&bodies, &rays);
    if wanted(GROUP, "kollide") {
        let w = kollide_world(&bodies);
        let f = QueryFilter::new();
        time(&mut g, GROUP, "kollide", expected, || {
            let mut hits = 0;
            for (o, d) in &rays {
                let ray = Ray { origin: Point2::new(o[0], o[1]), dir: Vec2::new(d[0], d[1]) };
                hits += usize::from(w.cast_ray(&ray, RAY_LENGTH, &f).unwrap().is_some());
            }
            hits
        });
    }
    if wanted(GROUP, "rapier") {
        use rapier2d::prelude::*;
        let w = rapier_world(&bodies);
        time(&mut g, GROUP, "rapier", expected, || {
            let q = w.query_pipeline();
            let mut hits = 0;
            for (o, d) in &rays {
                let ray = Ray::new(Vector::new(o[0], o[1]), Vector::new(d[0], d[1]));
                hits += usize::from(q.cast_ray(&ray, RAY_LENGTH, true).is_some());
            }
            hits
        });
    }
    if wanted(GROUP, "box2d") {
        let w = box2d_world(&bodies);
        time(&mut g, GROUP, "box2d", expected, || {
            let q = w.world.query().expect("a query");
            let mut hits = 0;
            for (o, d) in &rays {
                let t = boxdd::Vec2::new(d[0] * RAY_LENGTH, d[1] * RAY_LENGTH);
                let origin = boxdd::Position::new(o[0], o[1]);
                let hit = q.cast_ray_closest(origin, t, boxdd::QueryFilter::default());
                hits += usize::from(hit.expect("a valid ray").is_some());
            }
            hits
        });
    }
    g.finish();
}

fn overlap_aabb(c: &mut Criterion) {
    const GROUP: &str = "queries2d/overlap_aabb";
    let mut g = c.benchmark_group(GROUP);
    let centres = centres();
    if listing() {
        for id in ["kollide", "rapier", "box2d"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let bodies = scene();
    if wanted(GROUP, "kollide") {
        let w = kollide_world(&bodies);
        let f = QueryFilter::new();
        time(&mut g, GROUP, "kollide", overlap_oracle(&bodies, &centres, 0.0), || {
            let mut found = 0;
            for c in &centres {
                let c = Point2::new(c[0], c[1]);
                let aabb = Aabb::from_half_extents(c, Vec2::new(BOX_HALF, BOX_HALF));
                w.intersect_aabb(&aabb, &f, |_| {
                    found += 1;
                    true
                })
                .unwrap();
            }
            found
        });
    }
    if wanted(GROUP, "rapier") {
        use rapier2d::prelude::*;
        let w = rapier_world(&bodies);
        time(&mut g, GROUP, "rapier", overlap_oracle(&bodies, &centres, RAPIER_SKIN), || {
            let q = w.query_pipeline();
            let mut found = 0;
            for c in &centres {
                let aabb = Aabb::new(
                    Vector::new(c[0] - BOX_HALF, c[1] - BOX_HALF),
                    Vector::new(c[0] + BOX_HALF, c[1] + BOX_HALF),
                );
                found += q.intersect_aabb_conservative(aabb).count();
            }
            found
        });
    }
    if wanted(GROUP, "box2d") {
        let w = box2d_world(&bodies);
        let buffer = std::cell::RefCell::new(boxdd::query::ShapeQueryBuffer::new());
        time(&mut g, GROUP, "box2d", overlap_oracle(&bodies, &centres, BOX2D_SKIN), || {
            let q = w.world.query().expect("a query");
            let mut buffer = buffer.borrow_mut();
            let mut found = 0;
            for c in &centres {
                let aabb = boxdd::Aabb::new(
                    [c[0] - BOX_HALF, c[1] - BOX_HALF],
                    [c[0] + BOX_HALF, c[1] + BOX_HALF],
                )
                .expect("a box");
                let origin = boxdd::Position::new(0.0, 0.0);
                q.overlap_aabb_into(origin, aabb, boxdd::QueryFilter::default(), &mut buffer)
                    .expect("a valid box");
                found += buffer.len();
            }
            found
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
}

/// Criterion's generated group function lives in a private module so it needs no docs.
mod groups {
    criterion::criterion_group! {
        name = benches;
        config = super::config();
        targets = super::ray_closest, super::overlap_aabb
    }
}

criterion_main!(groups::benches);
