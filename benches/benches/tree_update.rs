//! What keeping the broadphase tree up to date costs a step: the 10,000 bodies of the world
//! query benches (`queries.rs`, the same shapes at the same places) made dynamic and set flying,
//! in kollide, rapier 0.36 and Box2D v3.2 (2D), and in kollide and rapier3d (3D).
//!
//! | group | one iteration | ids |
//! |---|---|---|
//! | `queries2d/tree_update` | one step of 10,000 dynamic boxes and discs flying through a 1,000 × 1,000 m square | `kollide`, `rapier`, `box2d` |
//! | `queries3d/tree_update` | one step of 10,000 dynamic boxes and balls flying through a 100 m cube | `kollide`, `rapier` |
//!
//! **Motion.** Each body gets a seeded velocity of 0.5 to 5 m/s in a random direction and an
//! angular velocity of up to 1 rad/s; there is no gravity. At those speeds a body leaves its
//! tree leaf's margin (10 cm in kollide and Box2D) every 1 to 12 steps, so every step moves
//! several hundred to a few thousand leaves, and the pairs of the bodies that moved are searched
//! again. The bodies are spread thinly (a few percent of the space), so few touch and the
//! step is mostly the broadphase, the integration and each engine's fixed bookkeeping: the
//! whole step is what a game pays, and the broadphase's share of it in each engine can be read
//! from callgrind's profile.
//!
//! **Settings.** 60 Hz, density 1, friction 0.6 everywhere, sleeping off (no body would sleep
//! at these speeds, but it also keeps the engines from checking), one thread, each engine's
//! defaults otherwise (Box2D 4 substeps, kollide `StepSettings::default()`, rapier
//! `IntegrationParameters::default()`).
//!
//! **Same work.** Before timing, each engine steps the scene [`WARM_UP_STEPS`] times and the
//! bench checks that at least 60 % of the bodies are where free flight puts them (within 1 cm):
//! every engine moves every body as given. The others (about 10 % in 2D and 28 % in the denser
//! 3D scene) met another body, most of them because the seeded places overlap at the start;
//! each engine pushes those apart its own way. Criterion then times
//! single steps; the scene keeps flying between iterations.

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use kollide::prelude::*;
use kollide_benches::{listing, one_iteration, rng, unit_directions, wanted};
use rand::Rng;

use crate::query_scene::{Body, SIDE, SIDE_3D, scene};

/// The step (s).
const DT: f32 = 1.0 / 60.0;
/// Box2D's substeps (kollide's default is the same 4).
const SUBSTEPS: i32 = 4;
/// Steps before timing (and before the free-flight check).
const WARM_UP_STEPS: usize = 10;
/// The friction coefficient of every collider (kollide's and Box2D's default).
const FRICTION: f32 = 0.6;

/// A body's motion: linear velocity (m/s) and angular velocity (rad/s; one component in 2D).
struct Motion<const D: usize, const A: usize> {
    linear: [f32; D],
    angular: [f32; A],
}

/// The seeded motions of the scene's bodies: speeds in [0.5, 5] m/s along directions uniform on
/// the circle or sphere, each angular velocity component in [-1, 1] rad/s.
fn motions<const D: usize, const A: usize>() -> Vec<Motion<D, A>> {
    let mut r = rng(20);
    let dirs = unit_directions::<D>(21, crate::query_scene::BODIES);
    dirs.iter()
        .map(|d| {
            let speed = 0.5 + 4.5 * r.random::<f32>();
            Motion {
                linear: d.map(|x| x as f32 * speed),
                angular: core::array::from_fn(|_| 2.0 * r.random::<f32>() - 1.0),
            }
        })
        .collect()
}

/// One engine with the flying scene in it.
trait Engine<const D: usize> {
    /// Advances by one step of [`DT`].
    fn step(&mut self);
    /// The centre of body `i` (in the order of the scene's list).
    fn position(&mut self, i: usize) -> [f32; D];
}

/// Steps `engine` [`WARM_UP_STEPS`] times, then checks that at least 60 % of the bodies flew
/// freely (are within 1 cm of `start + v·t`); prints how many.
fn warm_up<const D: usize, const A: usize>(
    engine: &mut impl Engine<D>,
    id: &str,
    bodies: &[Body<D>],
    motions: &[Motion<D, A>],
) {
    for _ in 0..WARM_UP_STEPS {
        engine.step();
    }
    let t = DT * WARM_UP_STEPS as f32;
    let free = (0..bodies.len())
        .filter(|&i| {
            let (start, v, at) = (bodies[i].aabb().0, motions[i].linear, engine.position(i));
            (0..D).map(|k| (start[k] + v[k] * t - at[k]).powi(2)).sum::<f32>() < 1e-4
        })
        .count();
    eprintln!("{id}: {free} of {} bodies in free flight after the warm-up", bodies.len());
    assert!(free * 100 >= bodies.len() * 60, "{id}: only {free} bodies moved as given");
}

/// When `group/id` is wanted: builds the engine with `build`, warms it up ([`warm_up`]) and
/// times single steps of it.
fn bench_engine<const D: usize, const A: usize, E: Engine<D>>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    (group, id): (&str, &str),
    (bodies, motions): (&[Body<D>], &[Motion<D, A>]),
    build: fn(&[Body<D>], &[Motion<D, A>]) -> E,
) {
    if !wanted(group, id) {
        return;
    }
    let mut engine = build(bodies, motions);
    warm_up(&mut engine, id, bodies, motions);
    g.bench_function(id, |b| b.iter(|| one_iteration(|| engine.step())));
    black_box(engine.position(0));
}

// ------------------------------------------------------------------------------------------------
// kollide.

/// A kollide world with sleeping off.
fn kollide_settings<const D: usize>(world: &mut kollide::solver::World<f32, D>)
where
    kollide::solver::Dim<D>: kollide::solver::SolverDim<f32, D>,
{
    let settings = StepSettings { sleeping: false, ..*world.settings() };
    world.set_settings(settings).expect("valid settings");
}

struct Kollide2 {
    world: World2<f32>,
    bodies: Vec<BodyHandle>,
}

impl Kollide2 {
    fn new(bodies: &[Body<2>], motions: &[Motion<2, 1>]) -> Self {
        let mut world = World2::new(Vec2::zeros()).expect("a world");
        kollide_settings(&mut world);
        let handles = bodies
            .iter()
            .zip(motions)
            .map(|(b, m)| {
                let desc = match *b {
                    Body::Box(_, h) => BodyDesc::dynamic(Cuboid::new(Vec2::from(h)).unwrap()),
                    Body::Ball(_, r) => BodyDesc::dynamic(Circle::new(r).unwrap()),
                };
                let c = b.aabb().0;
                let desc = desc
                    .pose(Iso2::translation(c[0], c[1]))
                    .linear_velocity(Vec2::from(m.linear))
                    .angular_velocity(m.angular[0])
                    .friction(FRICTION);
                world.add(desc).expect("a body")
            })
            .collect();
        Self { world, bodies: handles }
    }
}

impl Engine<2> for Kollide2 {
    fn step(&mut self) {
        self.world.step(DT).expect("a valid step");
    }
    fn position(&mut self, i: usize) -> [f32; 2] {
        let t = self.world.body(self.bodies[i]).expect("live body").pose().translation.vector;
        [t.x, t.y]
    }
}

struct Kollide3 {
    world: World3<f32>,
    bodies: Vec<BodyHandle>,
}

impl Kollide3 {
    fn new(bodies: &[Body<3>], motions: &[Motion<3, 3>]) -> Self {
        let mut world = World3::new(Vec3::zeros()).expect("a world");
        kollide_settings(&mut world);
        let handles = bodies
            .iter()
            .zip(motions)
            .map(|(b, m)| {
                let desc = match *b {
                    Body::Box(_, h) => BodyDesc::dynamic(Cuboid::new(Vec3::from(h)).unwrap()),
                    Body::Ball(_, r) => BodyDesc::dynamic(Ball::new(r).unwrap()),
                };
                let c = b.aabb().0;
                let desc = desc
                    .pose(Iso3::translation(c[0], c[1], c[2]))
                    .linear_velocity(Vec3::from(m.linear))
                    .angular_velocity(Vec3::from(m.angular))
                    .friction(FRICTION);
                world.add(desc).expect("a body")
            })
            .collect();
        Self { world, bodies: handles }
    }
}

impl Engine<3> for Kollide3 {
    fn step(&mut self) {
        self.world.step(DT).expect("a valid step");
    }
    fn position(&mut self, i: usize) -> [f32; 3] {
        let t = self.world.body(self.bodies[i]).expect("live body").pose().translation.vector;
        [t.x, t.y, t.z]
    }
}

// ------------------------------------------------------------------------------------------------
// rapier.

struct Rapier2 {
    world: rapier2d::prelude::PhysicsWorld,
    bodies: Vec<rapier2d::prelude::RigidBodyHandle>,
}

impl Rapier2 {
    fn new(bodies: &[Body<2>], motions: &[Motion<2, 1>]) -> Self {
        use rapier2d::prelude::*;
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(0.0, 0.0);
        world.integration_parameters.dt = DT;
        let handles = bodies
            .iter()
            .zip(motions)
            .map(|(b, m)| {
                let (c, collider) = match *b {
                    Body::Box(c, h) => (c, ColliderBuilder::cuboid(h[0], h[1])),
                    Body::Ball(c, r) => (c, ColliderBuilder::ball(r)),
                };
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(c[0], c[1]))
                    .linvel(Vector::new(m.linear[0], m.linear[1]))
                    .angvel(m.angular[0])
                    .can_sleep(false);
                world.insert(body, collider.density(1.0).friction(FRICTION)).0
            })
            .collect();
        Self { world, bodies: handles }
    }
}

impl Engine<2> for Rapier2 {
    fn step(&mut self) {
        self.world.step();
    }
    fn position(&mut self, i: usize) -> [f32; 2] {
        let t = self.world.bodies[self.bodies[i]].translation();
        [t.x, t.y]
    }
}

struct Rapier3 {
    world: rapier3d::prelude::PhysicsWorld,
    bodies: Vec<rapier3d::prelude::RigidBodyHandle>,
}

impl Rapier3 {
    fn new(bodies: &[Body<3>], motions: &[Motion<3, 3>]) -> Self {
        use rapier3d::prelude::*;
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(0.0, 0.0, 0.0);
        world.integration_parameters.dt = DT;
        let handles = bodies
            .iter()
            .zip(motions)
            .map(|(b, m)| {
                let (c, collider) = match *b {
                    Body::Box(c, h) => (c, ColliderBuilder::cuboid(h[0], h[1], h[2])),
                    Body::Ball(c, r) => (c, ColliderBuilder::ball(r)),
                };
                let (v, w) = (m.linear, m.angular);
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(c[0], c[1], c[2]))
                    .linvel(Vector::new(v[0], v[1], v[2]))
                    .angvel(Vector::new(w[0], w[1], w[2]))
                    .can_sleep(false);
                world.insert(body, collider.density(1.0).friction(FRICTION)).0
            })
            .collect();
        Self { world, bodies: handles }
    }
}

impl Engine<3> for Rapier3 {
    fn step(&mut self) {
        self.world.step();
    }
    fn position(&mut self, i: usize) -> [f32; 3] {
        let t = self.world.bodies[self.bodies[i]].translation();
        [t.x, t.y, t.z]
    }
}

// ------------------------------------------------------------------------------------------------
// Box2D v3.2 (through boxdd's safe API).

struct Box2d {
    world: boxdd::World,
    bodies: Vec<boxdd::BodyId>,
}

impl Box2d {
    fn new(bodies: &[Body<2>], motions: &[Motion<2, 1>]) -> Self {
        let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
        let def = boxdd::WorldBuilder::from(foundation.world_def())
            .gravity(boxdd::Vec2::new(0.0, 0.0))
            .enable_sleep(false)
            .worker_count(boxdd::WorkerCount::new(1).expect("one worker"))
            .build()
            .expect("a world definition");
        let mut world = foundation.create_world(def).expect("a world");
        // Box2D's default friction is the same 0.6.
        let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");
        let ids = bodies
            .iter()
            .zip(motions)
            .map(|(b, m)| {
                let c = b.aabb().0;
                let def = boxdd::BodyBuilder::from(foundation.body_def())
                    .body_type(boxdd::BodyType::Dynamic)
                    .position(boxdd::Position::new(c[0], c[1]))
                    .linear_velocity(boxdd::Vec2::new(m.linear[0], m.linear[1]))
                    .angular_velocity(m.angular[0])
                    .enable_sleep(false)
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
                id
            })
            .collect();
        Self { world, bodies: ids }
    }
}

impl Engine<2> for Box2d {
    fn step(&mut self) {
        let done = self.world.step(DT, SUBSTEPS).expect("a valid step");
        assert!(done.post_step_error().is_none(), "Box2D reported a post-step error");
    }
    fn position(&mut self, i: usize) -> [f32; 2] {
        let p = self.world.body(self.bodies[i]).and_then(|b| b.position()).expect("live body");
        [p.x, p.y]
    }
}

// ------------------------------------------------------------------------------------------------
// The groups.

fn tree_update_2d(c: &mut Criterion) {
    const GROUP: &str = "queries2d/tree_update";
    let mut g = c.benchmark_group(GROUP);
    if listing() {
        for id in ["kollide", "rapier", "box2d"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let (bodies, motions) = (scene::<2>(SIDE), motions::<2, 1>());
    let scene = (&bodies[..], &motions[..]);
    bench_engine(&mut g, (GROUP, "kollide"), scene, Kollide2::new);
    bench_engine(&mut g, (GROUP, "rapier"), scene, Rapier2::new);
    bench_engine(&mut g, (GROUP, "box2d"), scene, Box2d::new);
    g.finish();
}

fn tree_update_3d(c: &mut Criterion) {
    const GROUP: &str = "queries3d/tree_update";
    let mut g = c.benchmark_group(GROUP);
    if listing() {
        for id in ["kollide", "rapier"] {
            g.bench_function(id, |b| b.iter(|| ()));
        }
        return;
    }
    let (bodies, motions) = (scene::<3>(SIDE_3D), motions::<3, 3>());
    let scene = (&bodies[..], &motions[..]);
    bench_engine(&mut g, (GROUP, "kollide"), scene, Kollide3::new);
    bench_engine(&mut g, (GROUP, "rapier"), scene, Rapier3::new);
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500))
}

/// Criterion's generated group function, run by the `main` of `all.rs`; the module is
/// crate-private, so it needs no docs.
pub(crate) mod groups {
    criterion::criterion_group! {
        name = benches;
        config = super::config();
        targets = super::tree_update_2d, super::tree_update_3d
    }
}
