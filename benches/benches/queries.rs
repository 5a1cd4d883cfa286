//! World query benchmarks: closest-hit ray casts and box overlap queries on the same seeded
//! 10,000-body 2D scene in kollide, rapier 0.36 (its `QueryPipeline` over `BroadPhaseBvh`) and
//! Box2D v3.2 (`b2World_CastRayClosest` and `b2World_OverlapAABB`, through `boxdd`), and on a
//! 3D scene of the same kind in kollide and rapier3d.
//!
//! | group | one iteration | ids |
//! |---|---|---|
//! | `queries2d/ray_closest` | 100 closest-hit rays of length 50 from random points in random directions | `kollide`, `rapier`, `box2d` |
//! | `queries2d/overlap_aabb` | 100 queries for the bodies whose AABB overlaps a random 10 × 10 box | `kollide`, `rapier`, `box2d` |
//! | `queries3d/ray_closest` | the same in 3D: 100 closest-hit rays of length 50 | `kollide`, `rapier` |
//! | `queries3d/overlap_aabb` | the same in 3D: 100 random 10 × 10 × 10 boxes | `kollide`, `rapier` |
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
//! **3D scene.** The same 10,000 static bodies (boxes and balls, the same sizes) in a 100 m
//! cube, so that a ray of length 50 meets about as many bodies as in 2D; rays from random
//! points in directions uniform on the sphere; against rapier3d 0.36 only (Box2D is 2D).
//!
//! **Same answers.** Before timing, each engine's answer is checked against an oracle in f64:
//! the number of rays that hit a body (closed forms), and the number of (query, body) pairs
//! whose boxes overlap. kollide reports the bodies' own AABBs; rapier and Box2D report the
//! boxes of their trees, grown by a skin (0.01 m and 0.02 m), so their oracle grows the boxes
//! by as much. A bench whose engine answers otherwise panics instead of timing it.
//!
//! With `KOLLIDE_ALT=<rounds>`, each group runs its engines in turn, 8 batches each per round,
//! instead of criterion's timing ([`kollide_benches::alternate`]).

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use kollide::prelude::*;
use kollide::solver::QueryFilter;
use kollide_benches::{
    alternate, alternating_rounds, counting_instructions, listing, one_iteration, rng, wanted,
};

use crate::query_scene::{Body, SIDE, SIDE_3D, point, scene};
use rand::Rng;

const QUERIES: usize = 100;
const RAY_LENGTH: f32 = 50.0;
const BOX_HALF: f32 = 5.0;
/// How much rapier 0.36 grows a collider's box in its tree (half its default prediction
/// distance, 0.02 m; a leaf inserted once carries no change-detection skin yet), which its
/// `intersect_aabb_conservative` reports.
const RAPIER_SKIN: f32 = 0.01;
/// How much Box2D v3.2 grows a static shape's box in its tree (its speculative distance).
const BOX2D_SKIN: f32 = 0.02;

/// `QUERIES` rays: origin and unit direction.
fn rays() -> Vec<([f32; 2], [f32; 2])> {
    let mut r = rng(17);
    (0..QUERIES)
        .map(|_| {
            let o = point(&mut r, SIDE);
            let a = r.random::<f32>() * std::f32::consts::TAU;
            (o, [a.cos(), a.sin()])
        })
        .collect()
}

/// `QUERIES` rays in 3D: origin and unit direction (uniform on the sphere).
fn rays_3d() -> Vec<([f32; 3], [f32; 3])> {
    let mut r = rng(17);
    let dirs = kollide_benches::unit_directions::<3>(19, QUERIES);
    dirs.iter().map(|d| (point(&mut r, SIDE_3D), d.map(|x| x as f32))).collect()
}

/// `QUERIES` box centres.
fn centres<const D: usize>(side: f32) -> Vec<[f32; D]> {
    let mut r = rng(18);
    (0..QUERIES).map(|_| point(&mut r, side)).collect()
}

/// How many of `rays` hit some body within `RAY_LENGTH`: the oracle every engine's answer is
/// checked against (closed forms in f64: a quadratic for the balls, slabs for the boxes).
fn ray_oracle<const D: usize>(bodies: &[Body<D>], rays: &[([f32; D], [f32; D])]) -> usize {
    let dot = |a: [f64; D], b: [f64; D]| (0..D).map(|k| a[k] * b[k]).sum::<f64>();
    let hits = |o: [f64; D], d: [f64; D], b: &Body<D>| match *b {
        Body::Ball(c, r) => {
            let m: [f64; D] = core::array::from_fn(|k| o[k] - f64::from(c[k]));
            let (b, c) = (dot(m, d), dot(m, m) - f64::from(r).powi(2));
            let disc = b * b - dot(d, d) * c;
            c <= 0.0
                || (b < 0.0
                    && disc >= 0.0
                    && (-b - disc.sqrt()) / dot(d, d) <= f64::from(RAY_LENGTH))
        }
        Body::Box(c, h) => {
            let (mut lo, mut hi) = (0.0f64, f64::from(RAY_LENGTH));
            for k in 0..D {
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
            let (o, d) = (o.map(f64::from), d.map(f64::from));
            bodies.iter().any(|b| hits(o, d, b))
        })
        .count()
}

/// How many (body, query) pairs there are whose AABB, grown by `grow`, overlaps or touches the
/// query box: kollide's answer with no growth; Box2D and rapier report the boxes of their trees,
/// which are the bodies' AABBs grown by a margin.
fn overlap_oracle<const D: usize>(bodies: &[Body<D>], centres: &[[f32; D]], grow: f32) -> usize {
    centres
        .iter()
        .map(|q| {
            bodies
                .iter()
                .filter(|b| {
                    let (c, h) = b.aabb();
                    (0..D).all(|k| {
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

/// How many batches each engine runs per alternating round. A batch takes 10–100 µs, and one
/// batch after another engine's finds its tree evicted from the caches by that engine's (kollide's
/// 2D rays took 30 µs a batch so, against 19 µs in a run of their own): each round times a run
/// of batches, as a game asks its one world many questions.
const ALTERNATE_BATCHES: usize = 8;

/// The engines of a group kept for alternating rounds (`KOLLIDE_ALT`), each a closure that runs
/// the batch; `None` when criterion times them one after another.
type Alternating<'a> = Option<Vec<(&'static str, Box<dyn FnMut() -> f32 + 'a>)>>;

/// The collector of group `group`: a list when alternating rounds are asked for.
fn alternating<'a>(group: &str) -> Alternating<'a> {
    alternating_rounds(group).map(|_| Vec::new())
}

/// Times `run`, after checking (and reporting) its answer: every engine must answer the
/// oracle's `expected`, so all of them are timed on the same work. With alternating rounds, `run`
/// is kept in `alt` for [`finish`] instead.
fn time<'a>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    alt: &mut Alternating<'a>,
    group: &str,
    id: &'static str,
    expected: usize,
    run: impl Fn() -> usize + 'a,
) {
    let answer = run();
    report(group, id, answer);
    assert_eq!(answer, expected, "{group}/{id} answered {answer}, the oracle {expected}");
    if let Some(list) = alt {
        list.push((id, Box::new(move || (0..ALTERNATE_BATCHES).map(|_| run() as f32).sum())));
        return;
    }
    g.bench_function(id, |b| b.iter(|| one_iteration(|| black_box(run()))));
}

/// Ends group `group`: its alternating rounds, if it kept its engines for them.
fn finish(
    g: criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    group: &str,
    alt: Alternating<'_>,
) {
    if let (Some(mut list), Some(rounds)) = (alt, alternating_rounds(group)) {
        alternate(group, rounds, &mut list);
    }
    g.finish();
}

fn kollide_world(bodies: &[Body<2>]) -> World2<f32> {
    let mut w = World2::new(Vec2::zeros()).unwrap();
    for b in bodies {
        let desc = match *b {
            Body::Box(c, h) => BodyDesc::fixed(Cuboid::new(Vec2::new(h[0], h[1])).unwrap())
                .pose(Iso2::translation(c[0], c[1])),
            Body::Ball(c, r) => {
                BodyDesc::fixed(Circle::new(r).unwrap()).pose(Iso2::translation(c[0], c[1]))
            }
        };
        w.add(desc).unwrap();
    }
    w.step(1.0 / 60.0).unwrap();
    w
}

fn rapier_world(bodies: &[Body<2>]) -> rapier2d::prelude::PhysicsWorld {
    use rapier2d::prelude::*;
    let mut w = PhysicsWorld::new();
    w.gravity = Vector::new(0.0, 0.0);
    for b in bodies {
        let (c, collider) = match *b {
            Body::Box(c, h) => (c, ColliderBuilder::cuboid(h[0], h[1])),
            Body::Ball(c, r) => (c, ColliderBuilder::ball(r)),
        };
        w.insert(RigidBodyBuilder::fixed().translation(Vector::new(c[0], c[1])), collider);
    }
    w.step();
    w
}

struct Box2dWorld {
    world: boxdd::World,
}

fn box2d_world(bodies: &[Body<2>]) -> Box2dWorld {
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let def = boxdd::WorldBuilder::from(foundation.world_def())
        .gravity(boxdd::Vec2::new(0.0, 0.0))
        .build()
        .expect("a world definition");
    let mut world = foundation.create_world(def).expect("a world");
    let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");
    for b in bodies {
        let c = match *b {
            Body::Box(c, _) | Body::Ball(c, _) => c,
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
            Body::Ball(_, r) => {
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

fn ray_closest(c: &mut Criterion) {
    const GROUP: &str = "queries2d/ray_closest";
    let mut g = c.benchmark_group(GROUP);
    let rays = rays();
    let bodies = if listing() { Vec::new() } else { scene::<2>(SIDE) };
    if listing() {
        for id in ["kollide", "rapier", "box2d"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let expected = ray_oracle(&bodies, &rays);
    let rays = &rays;
    let mut alt = alternating(GROUP);
    if wanted(GROUP, "kollide") {
        let w = kollide_world(&bodies);
        let f = QueryFilter::new();
        time(&mut g, &mut alt, GROUP, "kollide", expected, move || {
            let mut hits = 0;
            for (o, d) in rays {
                let ray = Ray { origin: Point2::new(o[0], o[1]), dir: Vec2::new(d[0], d[1]) };
                hits += usize::from(w.cast_ray(&ray, RAY_LENGTH, &f).unwrap().is_some());
            }
            hits
        });
    }
    if wanted(GROUP, "rapier") {
        use rapier2d::prelude::*;
        let w = rapier_world(&bodies);
        time(&mut g, &mut alt, GROUP, "rapier", expected, move || {
            let q = w.query_pipeline();
            let mut hits = 0;
            for (o, d) in rays {
                let ray = Ray::new(Vector::new(o[0], o[1]), Vector::new(d[0], d[1]));
                hits += usize::from(q.cast_ray(&ray, RAY_LENGTH, true).is_some());
            }
            hits
        });
    }
    if wanted(GROUP, "box2d") {
        let w = box2d_world(&bodies);
        time(&mut g, &mut alt, GROUP, "box2d", expected, move || {
            let q = w.world.query().expect("a query");
            let mut hits = 0;
            for (o, d) in rays {
                let t = boxdd::Vec2::new(d[0] * RAY_LENGTH, d[1] * RAY_LENGTH);
                let origin = boxdd::Position::new(o[0], o[1]);
                let hit = q.cast_ray_closest(origin, t, boxdd::QueryFilter::default());
                hits += usize::from(hit.expect("a valid ray").is_some());
            }
            hits
        });
    }
    finish(g, GROUP, alt);
}

fn overlap_aabb(c: &mut Criterion) {
    const GROUP: &str = "queries2d/overlap_aabb";
    let mut g = c.benchmark_group(GROUP);
    let centres = centres::<2>(SIDE);
    if listing() {
        for id in ["kollide", "rapier", "box2d"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let bodies = scene::<2>(SIDE);
    let centres = &centres;
    let mut alt = alternating(GROUP);
    if wanted(GROUP, "kollide") {
        let w = kollide_world(&bodies);
        let f = QueryFilter::new();
        time(
            &mut g,
            &mut alt,
            GROUP,
            "kollide",
            overlap_oracle(&bodies, centres, 0.0),
            move || {
                let mut found = 0;
                for c in centres {
                    let c = Point2::new(c[0], c[1]);
                    let aabb = Aabb::from_half_extents(c, Vec2::new(BOX_HALF, BOX_HALF));
                    w.intersect_aabb(&aabb, &f, |_| {
                        found += 1;
                        true
                    })
                    .unwrap();
                }
                found
            },
        );
    }
    if wanted(GROUP, "rapier") {
        use rapier2d::prelude::*;
        let w = rapier_world(&bodies);
        time(
            &mut g,
            &mut alt,
            GROUP,
            "rapier",
            overlap_oracle(&bodies, centres, RAPIER_SKIN),
            move || {
                let q = w.query_pipeline();
                let mut found = 0;
                for c in centres {
                    let aabb = Aabb::new(
                        Vector::new(c[0] - BOX_HALF, c[1] - BOX_HALF),
                        Vector::new(c[0] + BOX_HALF, c[1] + BOX_HALF),
                    );
                    found += q.intersect_aabb_conservative(aabb).count();
                }
                found
            },
        );
    }
    if wanted(GROUP, "box2d") {
        let w = box2d_world(&bodies);
        let buffer = std::cell::RefCell::new(boxdd::query::ShapeQueryBuffer::new());
        time(
            &mut g,
            &mut alt,
            GROUP,
            "box2d",
            overlap_oracle(&bodies, centres, BOX2D_SKIN),
            move || {
                let q = w.world.query().expect("a query");
                let mut buffer = buffer.borrow_mut();
                let mut found = 0;
                for c in centres {
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
            },
        );
    }
    finish(g, GROUP, alt);
}

fn kollide_world_3d(bodies: &[Body<3>]) -> World3<f32> {
    let mut w = World3::new(Vec3::zeros()).unwrap();
    for b in bodies {
        let desc = match *b {
            Body::Box(c, h) => BodyDesc::fixed(Cuboid::new(Vec3::from(h)).unwrap())
                .pose(Iso3::translation(c[0], c[1], c[2])),
            Body::Ball(c, r) => {
                BodyDesc::fixed(Ball::new(r).unwrap()).pose(Iso3::translation(c[0], c[1], c[2]))
            }
        };
        w.add(desc).unwrap();
    }
    w.step(1.0 / 60.0).unwrap();
    w
}

fn rapier_world_3d(bodies: &[Body<3>]) -> rapier3d::prelude::PhysicsWorld {
    use rapier3d::prelude::*;
    let mut w = PhysicsWorld::new();
    w.gravity = Vector::new(0.0, 0.0, 0.0);
    for b in bodies {
        let (c, collider) = match *b {
            Body::Box(c, h) => (c, ColliderBuilder::cuboid(h[0], h[1], h[2])),
            Body::Ball(c, r) => (c, ColliderBuilder::ball(r)),
        };
        w.insert(RigidBodyBuilder::fixed().translation(Vector::new(c[0], c[1], c[2])), collider);
    }
    w.step();
    w
}

fn ray_closest_3d(c: &mut Criterion) {
    const GROUP: &str = "queries3d/ray_closest";
    let mut g = c.benchmark_group(GROUP);
    if listing() {
        for id in ["kollide", "rapier"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let (bodies, rays) = (scene::<3>(SIDE_3D), rays_3d());
    let expected = ray_oracle(&bodies, &rays);
    let rays = &rays;
    let mut alt = alternating(GROUP);
    if wanted(GROUP, "kollide") {
        let w = kollide_world_3d(&bodies);
        let f = QueryFilter::new();
        time(&mut g, &mut alt, GROUP, "kollide", expected, move || {
            let mut hits = 0;
            for (o, d) in rays {
                let ray = Ray { origin: Point3::from(*o), dir: Vec3::from(*d) };
                hits += usize::from(w.cast_ray(&ray, RAY_LENGTH, &f).unwrap().is_some());
            }
            hits
        });
    }
    if wanted(GROUP, "rapier") {
        use rapier3d::prelude::*;
        let w = rapier_world_3d(&bodies);
        time(&mut g, &mut alt, GROUP, "rapier", expected, move || {
            let q = w.query_pipeline();
            let mut hits = 0;
            for (o, d) in rays {
                let ray = Ray::new(Vector::new(o[0], o[1], o[2]), Vector::new(d[0], d[1], d[2]));
                hits += usize::from(q.cast_ray(&ray, RAY_LENGTH, true).is_some());
            }
            hits
        });
    }
    finish(g, GROUP, alt);
}

fn overlap_aabb_3d(c: &mut Criterion) {
    const GROUP: &str = "queries3d/overlap_aabb";
    let mut g = c.benchmark_group(GROUP);
    if listing() {
        for id in ["kollide", "rapier"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let (bodies, centres) = (scene::<3>(SIDE_3D), centres::<3>(SIDE_3D));
    let centres = &centres;
    let mut alt = alternating(GROUP);
    if wanted(GROUP, "kollide") {
        let w = kollide_world_3d(&bodies);
        let f = QueryFilter::new();
        time(
            &mut g,
            &mut alt,
            GROUP,
            "kollide",
            overlap_oracle(&bodies, centres, 0.0),
            move || {
                let mut found = 0;
                for c in centres {
                    let aabb = Aabb::from_half_extents(Point3::from(*c), Vec3::repeat(BOX_HALF));
                    w.intersect_aabb(&aabb, &f, |_| {
                        found += 1;
                        true
                    })
                    .unwrap();
                }
                found
            },
        );
    }
    if wanted(GROUP, "rapier") {
        use rapier3d::prelude::*;
        let w = rapier_world_3d(&bodies);
        time(
            &mut g,
            &mut alt,
            GROUP,
            "rapier",
            overlap_oracle(&bodies, centres, RAPIER_SKIN),
            move || {
                let q = w.query_pipeline();
                let mut found = 0;
                for c in centres {
                    let (lo, hi) = (c.map(|x| x - BOX_HALF), c.map(|x| x + BOX_HALF));
                    let aabb = Aabb::new(
                        Vector::new(lo[0], lo[1], lo[2]),
                        Vector::new(hi[0], hi[1], hi[2]),
                    );
                    found += q.intersect_aabb_conservative(aabb).count();
                }
                found
            },
        );
    }
    finish(g, GROUP, alt);
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
}

/// Criterion's generated group function, run by the `main` of `all.rs`; the module is
/// crate-private, so it needs no docs.
pub(crate) mod groups {
    criterion::criterion_group! {
        name = benches;
        config = super::config();
        targets = super::ray_closest, super::overlap_aabb, super::ray_closest_3d, super::overlap_aabb_3d
    }
}
