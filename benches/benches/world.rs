//! World-step benchmarks: Box2D's `large_pyramid` in kollide, Box2D v3 and rapier, and a 3D
//! pyramid of cubes in kollide and rapier.
//!
//! | group | scene | ids |
//! |---|---|---|
//! | `world2d/large_pyramid` | Box2D's `large_pyramid`: base 100, 5,050 boxes of half-size 0.5 on a 200 × 2 ground box | `kollide`, `kollide-fresh`, `box2d`, `rapier`, `kollide-2threads`, `box2d-2workers`, `kollide-coloured`, `kollide-coloured-2threads` |
//! | `world3d/pyramid` | square layers of unit cubes, base 10 (385 cubes), on a ground box | `kollide`, `kollide-fresh`, `rapier`, `kollide-2threads` |
//! | `world3d/mesh_scene` | 500 boxes, balls and capsules (half sizes 0.3–0.5 m) dropped in 5 layers on a rolling terrain of 2,048 triangles (32 × 32 cells of 1.25 m, hills up to 0.8 m), timed once they have landed; the bodies keep rolling and tumbling into the valleys | `kollide`, `rapier` (its `TriMesh` without flags, rapier's default), `rapier-internal-edges` (with `FIX_INTERNAL_EDGES`, rapier's remedy for ghost collisions; kollide's meshes always have one) |
//! | `world2d/joint_grid` | Box2D's `joint_grid`: 100 × 100 discs of radius 0.4 a metre apart, 19,800 revolute joints to the neighbours above and to the left, hanging from 7 static discs; the discs do not collide | `kollide`, `box2d` |
//! | `world2d/rain` | Box2D's `rain` with one of its five rows: 11-bone ragdolls made and destroyed while the world runs, sleeping on (see `world/rain.rs`) | `kollide`, `box2d` |
//! | `world2d/many_pyramids` | Box2D's `many_pyramids` at a quarter of its size, **sleeping on** in both engines (their default): 10 × 10 pyramids of base 10 (5,500 boxes), each row of pyramids on a static segment, stepped until every box sleeps, then timed; `-one-awake`: the same with one more box, which may not sleep, resting beside the pyramids (the step cannot be skipped as a whole) | `kollide`, `box2d`, `kollide-one-awake`, `box2d-one-awake` |
//! | `world2d/asleep_vs_awake` | the same scene with sleeping off (every box simulated): with `world2d/many_pyramids`, the cost of a sleeping scene against its awake step | `kollide-awake`, `box2d-awake` |
//!
//! `kollide-2threads` is kollide with `World::set_threads(2)`, and `box2d-2workers` Box2D with
//! two workers of its own scheduler: their wall times against the one-thread rows are the
//! thread speed-ups. (Under callgrind the instructions of all threads are summed, so their
//! instruction counts measure overhead, not speed.) `kollide-coloured` orders the 2D contacts
//! by graph colouring (`StepSettings::colour_2d`), as Box2D does: its colours are large enough
//! for the solver's passes to run on both threads in `kollide-coloured-2threads`, where the
//! default pair-order waves leave them on one.
//!
//! `kollide-fresh` is kollide with manifold reuse off (`manifold_reuse_distance = 0`): every
//! manifold computed every step. The default `kollide` keeps the manifold of a touching pair
//! that moved less than 1 mm relative to itself (and less than 1% of the smaller body's size), as
//! Jolt's body-pair cache does. The peers recycle contacts by default too, with a wider
//! tolerance: Box2D v3.2 while a pair has moved less than `B2_CONTACT_RECYCLE_DISTANCE` (10
//! linear slops, 5 cm) and turned less than about 11.5°, rapier 0.36 while its relative pose has
//! drifted less than `contact_recycle_distance()` (5 cm with a unit length of 1 m).
//!
//! **Settings.** 60 Hz, gravity −10 m/s², density 1, every engine single-threaded with its own
//! defaults otherwise: kollide `World2<f32>` / `World3<f32>` with `StepSettings::default()`
//! (4 substeps, friction 0.6), Box2D v3 (through `boxdd`, 4 substeps, 1 worker, friction 0.6,
//! compiled with `NDEBUG` as its release build is), rapier 0.36 with its default features and
//! `IntegrationParameters::default()` (4 solver iterations). Friction is [`FRICTION`] on every
//! collider in every engine (rapier's own default is 0.5; it is set to 0.6 here so that the three
//! engines solve the same scene).
//! Sleeping is off everywhere but in `world2d/many_pyramids` and `world2d/rain` (kollide's
//! `StepSettings::sleeping` off; Box2D's benchmarks disable it; rapier bodies are built with
//! `can_sleep(false)`), so every body is simulated in every step. In `world2d/many_pyramids`
//! both engines sleep as their users get them, and the warm-up runs until every box sleeps
//! (the bench prints how long that took each engine).
//!
//! **What is timed.** Each engine builds the scene and steps it [`WARM_UP_STEPS`] times (the
//! pyramid settles; broadphase and contact caches fill), then criterion times single steps of
//! the settled scene (one iteration = one step; the scene keeps evolving between iterations,
//! as in a game).
//!
//! **How well it stands.** Before timing, each engine runs the scene for [`SETTLE_SECONDS`] once
//! and prints the apex box's sag (how far it sank, m) and sway (how far it moved sideways, m, at
//! the end and at most during the run), the largest displacement of any box, and the mean step
//! time of that run (ms).
//!
//! **Smoke mode.** Under `cargo test --bench all` (what `cargo xtask bench-smoke` runs) criterion
//! runs each benchmark once, in the test profile. The bench detects that mode the way criterion
//! does (no `--bench` argument) and then skips the warm-up and the settling run: each scene is
//! built and stepped once per engine. Set `KOLLIDE_WORLD_SECONDS` to change the settling run's
//! length in full mode.
//!
//! **Alternating steps.** With `KOLLIDE_ALT=<rounds>` (and optionally `KOLLIDE_ALT_ONLY=<part of
//! a group name>`), a group builds and warms up all its engines, then steps each in turn,
//! [`ALTERNATE_STEPS`] steps at a time, `rounds` times, instead of criterion's timing, and prints
//! the median time of those runs and the per-round ratios to kollide's
//! ([`kollide_benches::alternate`]).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use kollide::prelude::*;
use kollide_benches::{
    alternate, alternating_id, alternating_rounds, counting_instructions, listing, one_iteration,
    wanted,
};

use crate::box2d_boxes::{box2d_boxes, box2d_boxes_on_workers};

mod rain;

/// The step (s).
const DT: f32 = 1.0 / 60.0;
/// Gravity (m/s²), as in Box2D's benchmarks.
const GRAVITY: f32 = -10.0;
/// Box2D's substeps (kollide's default is the same 4).
const SUBSTEPS: i32 = 4;
/// Steps before timing in full mode.
const WARM_UP_STEPS: usize = 60;
/// Length of the settling run that measures sag and sway (s), in full mode.
const SETTLE_SECONDS: f32 = 10.0;
/// Base of the 2D pyramid (Box2D's `large_pyramid`).
const BASE_2D: usize = 100;
/// Base of the 3D pyramid.
const BASE_3D: usize = 10;
/// Half-size of every box and cube (m).
const HALF: f32 = 0.5;
/// The friction coefficient of every collider (kollide's and Box2D's default).
const FRICTION: f32 = 0.6;

/// `true` under `cargo bench` (cargo passes `--bench`), `false` in criterion's test mode.
fn full_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// The settling run's length in steps (0 in smoke mode).
fn settle_steps() -> usize {
    if !full_mode() || counting_instructions() {
        return 0;
    }
    let secs = std::env::var("KOLLIDE_WORLD_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f32>().ok())
        .unwrap_or(SETTLE_SECONDS);
    (secs / DT).round() as usize
}

// ------------------------------------------------------------------------------------------------
// The scenes, as lists of box centres.

/// Box2D's `large_pyramid` (shared/benchmarks.c): row `i` holds `base − i` boxes, centred.
fn pyramid_2d(base: usize) -> Vec<[f32; 2]> {
    let mut out = Vec::with_capacity(base * (base + 1) / 2);
    let shift = HALF;
    for i in 0..base {
        let y = (2.0 * i as f32 + 1.0) * shift;
        for j in i..base {
            let x = (i as f32 + 1.0) * shift + 2.0 * (j - i) as f32 * shift - HALF * base as f32;
            out.push([x, y]);
        }
    }
    out
}

/// A pyramid of square layers: layer `l` is `(base − l)²` cubes, centred on the y axis.
fn pyramid_3d(base: usize) -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    for layer in 0..base {
        let n = base - layer;
        for i in 0..n {
            for k in 0..n {
                let x = (i as f32 - n as f32 / 2.0 + 0.5) * 2.0 * HALF;
                let z = (k as f32 - n as f32 / 2.0 + 0.5) * 2.0 * HALF;
                out.push([x, (2.0 * layer as f32 + 1.0) * HALF, z]);
            }
        }
    }
    out
}

/// One engine with a scene in it.
trait Engine<const D: usize> {
    /// Advances by one step of [`DT`].
    fn step(&mut self);
    /// The centre of box `i` (in the order of the scene's list).
    fn position(&mut self, i: usize) -> [f32; D];
}

// ------------------------------------------------------------------------------------------------
// kollide.

/// A 2D world with sleeping off, as the benches other than `many_pyramids` run.
fn awake_world2() -> World2<f32> {
    let mut world = World2::<f32>::new(Vec2::new(0.0, GRAVITY)).unwrap();
    world.set_settings(StepSettings { sleeping: false, ..*world.settings() }).unwrap();
    world
}

struct Kollide2 {
    world: World2<f32>,
    boxes: Vec<BodyHandle>,
}

/// Dynamic boxes of half-size `HALF` at `centres`.
fn add_cubes(world: &mut World2<f32>, centres: &[[f32; 2]]) -> Vec<BodyHandle> {
    let cube = Cuboid::new(Vec2::new(HALF, HALF)).expect("positive extents");
    centres
        .iter()
        .map(|c| {
            world.add(BodyDesc::dynamic(cube).pose(Iso2::translation(c[0], c[1]))).expect("box")
        })
        .collect()
}

impl Kollide2 {
    fn new(centres: &[[f32; 2]]) -> Self {
        let mut world = awake_world2();
        let ground = Cuboid::new(Vec2::new(100.0, 1.0)).expect("positive extents");
        world.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -1.0))).expect("ground");
        let boxes = add_cubes(&mut world, centres);
        Self { world, boxes }
    }

    /// The same scene computing every manifold every step (no manifold reuse).
    fn fresh(mut self) -> Self {
        let settings = StepSettings { manifold_reuse_distance: 0.0, ..*self.world.settings() };
        self.world.set_settings(settings).unwrap();
        self
    }

    /// The same scene stepped on `threads` threads.
    fn on_threads(mut self, threads: usize) -> Self {
        self.world.set_threads(threads).unwrap();
        self
    }

    /// The same scene with its contacts ordered by graph colouring.
    fn coloured(mut self) -> Self {
        let settings = StepSettings { colour_2d: true, ..*self.world.settings() };
        self.world.set_settings(settings).unwrap();
        self
    }
}

impl Engine<2> for Kollide2 {
    fn step(&mut self) {
        self.world.step(DT).expect("a valid step");
    }
    fn position(&mut self, i: usize) -> [f32; 2] {
        let t = self.world.body(self.boxes[i]).expect("live body").pose().translation.vector;
        [t.x, t.y]
    }
}

struct Kollide3 {
    world: World3<f32>,
    boxes: Vec<BodyHandle>,
}

impl Kollide3 {
    fn new(centres: &[[f32; 3]], ground_half: f32) -> Self {
        let mut world = World3::<f32>::new(Vec3::new(0.0, GRAVITY, 0.0)).unwrap();
        world.set_settings(StepSettings { sleeping: false, ..*world.settings() }).unwrap();
        let ground = Cuboid::new(Vec3::new(ground_half, 1.0, ground_half)).expect("extents");
        world.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -1.0, 0.0))).expect("ground");
        let cube = Cuboid::new(Vec3::repeat(HALF)).expect("positive extents");
        let boxes = centres
            .iter()
            .map(|c| {
                let pose = Iso3::translation(c[0], c[1], c[2]);
                world.add(BodyDesc::dynamic(cube).pose(pose)).expect("cube")
            })
            .collect();
        Self { world, boxes }
    }

    /// The same scene computing every manifold every step (no manifold reuse).
    fn fresh(mut self) -> Self {
        let settings = StepSettings { manifold_reuse_distance: 0.0, ..*self.world.settings() };
        self.world.set_settings(settings).unwrap();
        self
    }

    /// The same scene stepped on `threads` threads.
    fn on_threads(mut self, threads: usize) -> Self {
        self.world.set_threads(threads).unwrap();
        self
    }
}

impl Engine<3> for Kollide3 {
    fn step(&mut self) {
        self.world.step(DT).expect("a valid step");
    }
    fn position(&mut self, i: usize) -> [f32; 3] {
        let t = self.world.body(self.boxes[i]).expect("live body").pose().translation.vector;
        [t.x, t.y, t.z]
    }
}

// ------------------------------------------------------------------------------------------------
// Box2D v3 (through boxdd's safe API).

struct Box2d {
    world: boxdd::World,
    boxes: Vec<boxdd::BodyId>,
}

impl Box2d {
    fn new(centres: &[[f32; 2]]) -> Self {
        let b = box2d_boxes(GRAVITY, [100.0, 1.0], [0.0, -1.0], HALF, centres.iter().copied());
        Self { world: b.world, boxes: b.boxes }
    }

    /// The same scene stepped by `workers` workers of Box2D's own scheduler.
    fn on_workers(centres: &[[f32; 2]], workers: u32) -> Self {
        let centres = centres.iter().copied();
        let b = box2d_boxes_on_workers(workers, GRAVITY, [100.0, 1.0], [0.0, -1.0], HALF, centres);
        Self { world: b.world, boxes: b.boxes }
    }
}

impl Engine<2> for Box2d {
    fn step(&mut self) {
        let done = self.world.step(DT, SUBSTEPS).expect("a valid step");
        assert!(done.post_step_error().is_none(), "Box2D reported a post-step error");
    }
    fn position(&mut self, i: usize) -> [f32; 2] {
        let p = self.world.body(self.boxes[i]).and_then(|b| b.position()).expect("live body");
        [p.x, p.y]
    }
}

// ------------------------------------------------------------------------------------------------
// Box2D's `joint_grid` (shared/benchmarks.c) in kollide and Box2D v3.

/// Discs per side of the joint grid.
const GRID: usize = 100;
/// The grid's discs.
const GRID_RADIUS: f32 = 0.4;

/// Disc `(k, i)` of the grid (column `k`, row `i` from the top): its centre, and whether it is
/// one of the seven static discs in the middle of the top row.
fn grid_disc(k: usize, i: usize) -> ([f32; 2], bool) {
    let fixed = i == 0 && k + 3 >= GRID / 2 && k <= GRID / 2 + 3;
    ([k as f32, -(i as f32)], fixed)
}

/// The joint grid in kollide: each disc hinged to the disc above it (at the point between
/// them) and to the disc to its left; the discs' groups keep them from colliding, as Box2D's
/// category and mask bits do.
fn kollide_joint_grid() -> Kollide2 {
    use kollide::solver::{CollisionGroups, JointDesc, RevoluteJoint};
    let mut world = awake_world2();
    let disc = Ball::new(GRID_RADIUS).expect("a positive radius");
    let groups = CollisionGroups::new(2, !2);
    let mut boxes: Vec<BodyHandle> = Vec::with_capacity(GRID * GRID);
    for k in 0..GRID {
        for i in 0..GRID {
            let ([x, y], fixed) = grid_disc(k, i);
            let desc = if fixed { BodyDesc::fixed(disc) } else { BodyDesc::dynamic(disc) };
            let desc = desc.pose(Iso2::translation(x, y)).collision_groups(groups);
            let b = world.add(desc).expect("a disc");
            if i > 0 {
                let hinge = RevoluteJoint::new(Point2::new(x, y + 0.5));
                world.add_joint(JointDesc::new(boxes[boxes.len() - 1], b, hinge)).expect("a joint");
            }
            if k > 0 {
                let hinge = RevoluteJoint::new(Point2::new(x - 0.5, y));
                world
                    .add_joint(JointDesc::new(boxes[boxes.len() - GRID], b, hinge))
                    .expect("a joint");
            }
            boxes.push(b);
        }
    }
    Kollide2 { world, boxes }
}

/// The joint grid in Box2D v3, as its benchmark builds it (one worker, no sleeping).
fn box2d_joint_grid() -> Box2d {
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let def = boxdd::WorldBuilder::from(foundation.world_def())
        .gravity(boxdd::Vec2::new(0.0, GRAVITY))
        .enable_sleep(false)
        .worker_count(boxdd::WorkerCount::new(1).expect("a supported worker count"))
        .build()
        .expect("a world definition");
    let mut world = foundation.create_world(def).expect("a world");
    let filter = boxdd::Filter { category_bits: 2, mask_bits: !2, group_index: 0 };
    let shape =
        boxdd::ShapeDef::builder().density(1.0).filter(filter).build().expect("a shape definition");
    let circle = boxdd::shapes::circle([0.0, 0.0], GRID_RADIUS).expect("a circle");
    let mut boxes: Vec<boxdd::BodyId> = Vec::with_capacity(GRID * GRID);
    for k in 0..GRID {
        for i in 0..GRID {
            let ([x, y], fixed) = grid_disc(k, i);
            let kind = if fixed { boxdd::BodyType::Static } else { boxdd::BodyType::Dynamic };
            let body = boxdd::BodyBuilder::from(foundation.body_def())
                .body_type(kind)
                .position(boxdd::Position::new(x, y))
                .enable_sleep(false)
                .build()
                .expect("a body definition");
            let id = world.create_body(body).expect("a disc");
            world.body(id).and_then(|mut b| b.create_circle(&shape, &circle)).expect("a disc");
            if i > 0 {
                let above = boxes[boxes.len() - 1];
                let anchor = boxdd::Position::new(x, y + 0.5);
                world.revolute(above, id).anchor_world(anchor).build().expect("a joint");
            }
            if k > 0 {
                let left = boxes[boxes.len() - GRID];
                let anchor = boxdd::Position::new(x - 0.5, y);
                world.revolute(left, id).anchor_world(anchor).build().expect("a joint");
            }
            boxes.push(id);
        }
    }
    Box2d { world, boxes }
}

// ------------------------------------------------------------------------------------------------
// Box2D's `many_pyramids` (shared/benchmarks.c) in kollide and Box2D v3, with sleeping.

/// Rows and columns of pyramids (Box2D's benchmark: 20 × 20; a quarter keeps the settling
/// warm-up short under callgrind).
const PYRAMID_GRID: usize = 10;
/// Boxes at the base of each pyramid.
const PYRAMID_BASE: usize = 10;
/// The most steps the warm-up waits for every box to sleep.
const SLEEP_LIMIT_STEPS: usize = 1200;

/// The scene: the boxes' centres, and the ground segments (one per row of pyramids), as
/// Box2D's `CreateManyPyramids` and `CreateSmallPyramid` place them.
fn many_pyramids() -> (Vec<[f32; 2]>, Vec<[[f32; 2]; 2]>) {
    let (base, e) = (PYRAMID_BASE as f32, HALF);
    let row_height = 2.0 * e * (base + 1.0);
    let width = 2.0 * e * PYRAMID_GRID as f32 * (base + 1.0);
    let base_width = 2.0 * e * base;
    let mut boxes = Vec::new();
    let mut ground = Vec::new();
    for row in 0..PYRAMID_GRID {
        let y0 = row as f32 * row_height;
        ground.push([[-0.5 * width, y0], [0.5 * width, y0]]);
        for col in 0..PYRAMID_GRID {
            let cx = -0.5 * width + col as f32 * (base_width + 2.0 * e) + 2.0 * e;
            for i in 0..PYRAMID_BASE {
                let y = (2.0 * i as f32 + 1.0) * e + y0;
                for j in i..PYRAMID_BASE {
                    let x = (i as f32 + 1.0) * e + 2.0 * (j - i) as f32 * e + cx - 0.5;
                    boxes.push([x, y]);
                }
            }
        }
    }
    (boxes, ground)
}

/// Where the restless box of the `-one-awake` rows rests, on a short ground line of its own
/// left of the pyramids (touching them, it would keep them awake).
const RESTLESS_AT: [f32; 2] =
    [-0.5 * PYRAMID_GRID as f32 * (PYRAMID_BASE as f32 + 1.0) - 10.0, HALF];

/// The pyramids in kollide with sleeping on, and a box that may not sleep resting beside them:
/// the step cannot be skipped, and its cost is what the sleeping bodies still cost.
fn kollide_one_awake() -> Kollide2 {
    let mut k = kollide_many_pyramids(true);
    let [x, _] = RESTLESS_AT;
    let line = Segment::new(Point2::new(x - 2.0, 0.0), Point2::new(x + 2.0, 0.0)).expect("a line");
    k.world.add(BodyDesc::fixed(line)).expect("ground");
    let cube = Cuboid::new(Vec2::new(HALF, HALF)).expect("positive extents");
    let pose = Iso2::translation(RESTLESS_AT[0], RESTLESS_AT[1]);
    k.world.add(BodyDesc::dynamic(cube).pose(pose).can_sleep(false)).expect("a box");
    k
}

/// The same in Box2D: a box with sleep disabled beside the pyramids.
fn box2d_one_awake() -> Box2d {
    let mut b = box2d_many_pyramids(true);
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");
    let ground_def = boxdd::BodyBuilder::from(foundation.body_def()).build().expect("a body");
    let ground = b.world.create_body(ground_def).expect("ground");
    let [x, _] = RESTLESS_AT;
    let (l, r) = (boxdd::Vec2::new(x - 2.0, 0.0), boxdd::Vec2::new(x + 2.0, 0.0));
    b.world
        .body(ground)
        .and_then(|mut g| g.create_segment_between(&shape, l, r))
        .expect("a ground line");
    let def = boxdd::BodyBuilder::from(foundation.body_def())
        .body_type(boxdd::BodyType::Dynamic)
        .position(boxdd::Position::new(RESTLESS_AT[0], RESTLESS_AT[1]))
        .enable_sleep(false)
        .build()
        .expect("a body definition");
    let id = b.world.create_body(def).expect("a box");
    let cube = boxdd::shapes::box_polygon(HALF, HALF).expect("extents");
    b.world.body(id).and_then(|mut x| x.create_polygon(&shape, &cube)).expect("a box");
    b
}

/// The pyramids in kollide, sleeping on or off.
fn kollide_many_pyramids(sleeping: bool) -> Kollide2 {
    let (centres, ground) = many_pyramids();
    let mut world = World2::<f32>::new(Vec2::new(0.0, GRAVITY)).unwrap();
    world.set_settings(StepSettings { sleeping, ..*world.settings() }).unwrap();
    for [a, b] in ground {
        let line = Segment::new(Point2::new(a[0], a[1]), Point2::new(b[0], b[1])).expect("a line");
        world.add(BodyDesc::fixed(line)).expect("ground");
    }
    let boxes = add_cubes(&mut world, &centres);
    Kollide2 { world, boxes }
}

/// The pyramids in Box2D v3, sleeping on (its default) or off; one worker.
fn box2d_many_pyramids(sleeping: bool) -> Box2d {
    let (centres, ground) = many_pyramids();
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let def = boxdd::WorldBuilder::from(foundation.world_def())
        .gravity(boxdd::Vec2::new(0.0, GRAVITY))
        .enable_sleep(sleeping)
        .worker_count(boxdd::WorkerCount::new(1).expect("a supported worker count"))
        .build()
        .expect("a world definition");
    let mut world = foundation.create_world(def).expect("a world");
    let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");
    let ground_def = boxdd::BodyBuilder::from(foundation.body_def()).build().expect("a body");
    let ground_id = world.create_body(ground_def).expect("ground");
    for [a, b] in ground {
        let (a, b) = (boxdd::Vec2::new(a[0], a[1]), boxdd::Vec2::new(b[0], b[1]));
        world
            .body(ground_id)
            .and_then(|mut g| g.create_segment_between(&shape, a, b))
            .expect("a ground line");
    }
    let cube = boxdd::shapes::box_polygon(HALF, HALF).expect("extents");
    let boxes = centres
        .iter()
        .map(|c| {
            let def = boxdd::BodyBuilder::from(foundation.body_def())
                .body_type(boxdd::BodyType::Dynamic)
                .position(boxdd::Position::new(c[0], c[1]))
                .build()
                .expect("a body definition");
            let id = world.create_body(def).expect("a box");
            world.body(id).and_then(|mut b| b.create_polygon(&shape, &cube)).expect("a box");
            id
        })
        .collect();
    Box2d { world, boxes }
}

/// Steps `engine` until `asleep` says every box sleeps (in full mode; the smoke run times the
/// scene as built) and prints how long that took.
fn until_asleep<const D: usize, E: Engine<D>>(
    id: &str,
    mut engine: E,
    asleep: impl Fn(&E) -> bool,
) -> E {
    if !full_mode() {
        return engine;
    }
    for step in 0..SLEEP_LIMIT_STEPS {
        if asleep(&engine) {
            eprintln!("world2d/many_pyramids {id}: every box asleep after {step} steps");
            return engine;
        }
        engine.step();
    }
    panic!("world2d/many_pyramids {id}: boxes still awake after {SLEEP_LIMIT_STEPS} steps");
}

// ------------------------------------------------------------------------------------------------
// rapier.

struct Rapier2 {
    world: rapier2d::prelude::PhysicsWorld,
    boxes: Vec<rapier2d::prelude::RigidBodyHandle>,
}

impl Rapier2 {
    fn new(centres: &[[f32; 2]]) -> Self {
        use rapier2d::prelude::*;
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(0.0, GRAVITY);
        world.integration_parameters.dt = DT;
        world.insert(
            RigidBodyBuilder::fixed().translation(Vector::new(0.0, -1.0)),
            ColliderBuilder::cuboid(100.0, 1.0).friction(FRICTION),
        );
        let boxes = centres
            .iter()
            .map(|c| {
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(c[0], c[1]))
                    .can_sleep(false);
                let collider = ColliderBuilder::cuboid(HALF, HALF).density(1.0).friction(FRICTION);
                world.insert(body, collider).0
            })
            .collect();
        Self { world, boxes }
    }
}

impl Engine<2> for Rapier2 {
    fn step(&mut self) {
        self.world.step();
    }
    fn position(&mut self, i: usize) -> [f32; 2] {
        let t = self.world.bodies[self.boxes[i]].translation();
        [t.x, t.y]
    }
}

struct Rapier3 {
    world: rapier3d::prelude::PhysicsWorld,
    boxes: Vec<rapier3d::prelude::RigidBodyHandle>,
}

impl Rapier3 {
    fn new(centres: &[[f32; 3]], ground_half: f32) -> Self {
        use rapier3d::prelude::*;
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(0.0, GRAVITY, 0.0);
        world.integration_parameters.dt = DT;
        world.insert(
            RigidBodyBuilder::fixed().translation(Vector::new(0.0, -1.0, 0.0)),
            ColliderBuilder::cuboid(ground_half, 1.0, ground_half).friction(FRICTION),
        );
        let boxes = centres
            .iter()
            .map(|c| {
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(c[0], c[1], c[2]))
                    .can_sleep(false);
                let collider =
                    ColliderBuilder::cuboid(HALF, HALF, HALF).density(1.0).friction(FRICTION);
                world.insert(body, collider).0
            })
            .collect();
        Self { world, boxes }
    }
}

impl Engine<3> for Rapier3 {
    fn step(&mut self) {
        self.world.step();
    }
    fn position(&mut self, i: usize) -> [f32; 3] {
        let t = self.world.bodies[self.boxes[i]].translation();
        [t.x, t.y, t.z]
    }
}

// ------------------------------------------------------------------------------------------------
// The mesh scene: convex bodies dropped on a rolling triangle mesh.

/// Cells per side of the mesh scene's terrain (2 triangles each: 2,048 triangles).
const MESH_CELLS: usize = 32;
/// Side of one terrain cell (m): the terrain is 40 m across.
const MESH_CELL: f32 = 1.25;
/// Bodies per side of each layer of the mesh scene, and its layers: 10 × 10 × 5 = 500 bodies.
const MESH_COLUMNS: usize = 10;
const MESH_LAYERS: usize = 5;
/// Steps the mesh scene runs before it is timed (in full mode), on top of [`WARM_UP_STEPS`]: its
/// top layer falls for about 1.2 s before it lands.
const MESH_LANDING_STEPS: usize = 120;

/// The terrain's height at `(x, z)`: gentle hills up to 0.8 m.
fn hill(x: f32, z: f32) -> f32 {
    0.8 * (0.35 * x).sin() * (0.3 * z).cos()
}

/// The terrain as vertices and counter-clockwise (upward-facing) triangles, centred on the origin.
fn mesh_terrain() -> (Vec<[f32; 3]>, Vec<[u32; 3]>) {
    let n = MESH_CELLS;
    let half = n as f32 * MESH_CELL / 2.0;
    let mut vertices = Vec::with_capacity((n + 1) * (n + 1));
    for j in 0..=n {
        for i in 0..=n {
            let (x, z) = (i as f32 * MESH_CELL - half, j as f32 * MESH_CELL - half);
            vertices.push([x, hill(x, z), z]);
        }
    }
    let at = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut indices = Vec::with_capacity(2 * n * n);
    for j in 0..n {
        for i in 0..n {
            indices.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            indices.push([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)]);
        }
    }
    (vertices, indices)
}

/// What a body of the mesh scene is made of.
#[derive(Clone, Copy)]
enum Body {
    /// A box of these half extents (m).
    Box([f32; 3]),
    /// A ball of this radius (m).
    Ball(f32),
    /// A capsule along its local y axis: half height, radius (m).
    Capsule(f32, f32),
}

/// One body of the mesh scene: its shape, centre and rotation (a scaled axis, rad).
#[derive(Clone, Copy)]
struct Drop {
    body: Body,
    centre: [f32; 3],
    turn: [f32; 3],
}

/// The mesh scene's bodies: boxes, balls and capsules in turn, in layers 1.5 m apart above the
/// hills, each turned a little differently so that boxes land on edges and corners.
fn mesh_drops() -> Vec<Drop> {
    let spacing = 3.5;
    let first = -(MESH_COLUMNS as f32 - 1.0) * spacing / 2.0;
    let mut out = Vec::with_capacity(MESH_COLUMNS * MESH_COLUMNS * MESH_LAYERS);
    for layer in 0..MESH_LAYERS {
        for k in 0..MESH_COLUMNS * MESH_COLUMNS {
            let n = out.len() as f32;
            let x = first + (k % MESH_COLUMNS) as f32 * spacing + 0.3 * layer as f32;
            let z = first + (k / MESH_COLUMNS) as f32 * spacing - 0.2 * layer as f32;
            let body = match out.len() % 3 {
                0 => Body::Box([0.4, 0.3, 0.5]),
                1 => Body::Ball(0.4),
                _ => Body::Capsule(0.3, 0.3),
            };
            let centre = [x, 2.0 + 1.5 * layer as f32, z];
            let turn = [0.3 + 0.01 * n, 0.7 * n, 0.1];
            out.push(Drop { body, centre, turn });
        }
    }
    out
}

/// How many of the mesh scene's bodies ended below the terrain (centre more than 0.5 m under the
/// hills: they fell through), and how many left the terrain's square.
fn lost_bodies<E: Engine<3>>(engine: &mut E, n: usize) -> (usize, usize) {
    let half = MESH_CELLS as f32 * MESH_CELL / 2.0;
    let (mut below, mut off) = (0, 0);
    for i in 0..n {
        let [x, y, z] = engine.position(i);
        if x.abs() > half || z.abs() > half {
            off += 1;
        } else if y < hill(x, z) - 0.5 {
            below += 1;
        }
    }
    (below, off)
}

/// Steps the mesh scene until its bodies have landed (in full mode only).
fn landed<E: Engine<3>>(mut engine: E) -> E {
    if full_mode() {
        for _ in 0..MESH_LANDING_STEPS {
            engine.step();
        }
    }
    engine
}

/// The mesh scene in kollide (its bodies in the `boxes` list of [`Kollide3`]).
fn kollide_mesh(drops: &[Drop]) -> Kollide3 {
    let mut world = World3::<f32>::new(Vec3::new(0.0, GRAVITY, 0.0)).unwrap();
    world.set_settings(StepSettings { sleeping: false, ..*world.settings() }).unwrap();
    let (vertices, indices) = mesh_terrain();
    let vertices = vertices.iter().map(|&[x, y, z]| Point3::new(x, y, z)).collect();
    let mesh = TriMesh::new(vertices, indices).expect("a valid mesh");
    world.add(BodyDesc::fixed(mesh)).expect("terrain");
    let bodies = drops
        .iter()
        .map(|d| {
            let shape: Shape3<f32> = match d.body {
                Body::Box(h) => Cuboid::new(Vec3::from(h)).expect("extents").into(),
                Body::Ball(r) => Ball::new(r).expect("radius").into(),
                Body::Capsule(h, r) => Capsule::new_axis(h, r).expect("capsule").into(),
            };
            let pose = Iso3::new(Vec3::from(d.centre), Vec3::from(d.turn));
            world.add(BodyDesc::dynamic(shape).pose(pose)).expect("body")
        })
        .collect();
    Kollide3 { world, boxes: bodies }
}

/// The scene in rapier (its bodies in the `boxes` list of [`Rapier3`]), its terrain a `TriMesh`
/// built with `flags` (rapier's default is none; `FIX_INTERNAL_EDGES` is its answer to ghost
/// collisions, which kollide's meshes always apply).
fn rapier_mesh(drops: &[Drop], flags: rapier3d::prelude::TriMeshFlags) -> Rapier3 {
    use rapier3d::prelude::*;
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, GRAVITY, 0.0);
    world.integration_parameters.dt = DT;
    let (vertices, indices) = mesh_terrain();
    let vertices = vertices.iter().map(|&[x, y, z]| Vector::new(x, y, z)).collect();
    let terrain = ColliderBuilder::trimesh_with_flags(vertices, indices, flags)
        .expect("a valid mesh")
        .friction(FRICTION);
    world.insert(RigidBodyBuilder::fixed(), terrain);
    let bodies = drops
        .iter()
        .map(|d| {
            let [x, y, z] = d.centre;
            let [u, v, w] = d.turn;
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, y, z))
                .rotation(Vector::new(u, v, w))
                .can_sleep(false);
            let collider = match d.body {
                Body::Box([a, b, c]) => ColliderBuilder::cuboid(a, b, c),
                Body::Ball(r) => ColliderBuilder::ball(r),
                Body::Capsule(h, r) => ColliderBuilder::capsule_y(h, r),
            };
            world.insert(body, collider.density(1.0).friction(FRICTION)).0
        })
        .collect();
    Rapier3 { world, boxes: bodies }
}

/// Runs the mesh scene for `steps` and prints how many bodies fell through the terrain or left
/// it, and the mean step time of the run.
fn settle_on_mesh<E: Engine<3>>(id: &str, n: usize, steps: usize, mut engine: E) {
    if steps == 0 {
        return;
    }
    let start = Instant::now();
    for _ in 0..steps {
        engine.step();
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
    let (below, off) = lost_bodies(&mut engine, n);
    eprintln!(
        "world3d/mesh_scene {id}: after {:.1} s: {below} of {n} bodies under the terrain, {off} \
         off its edge; {ms:.2} ms/step over the run",
        steps as f32 * DT
    );
}

// ------------------------------------------------------------------------------------------------
// Measuring.

/// Runs `steps` steps on a fresh scene and prints how well the pyramid stood: the apex box's
/// sag (downwards, m) and sway (sideways, the horizontal distance, m: at the end and the most
/// during the run), and the largest displacement of any box (m).
fn settle<const D: usize, E: Engine<D>>(
    group: &str,
    id: &str,
    centres: &[[f32; D]],
    steps: usize,
    mut engine: E,
) {
    if steps == 0 {
        return;
    }
    let apex = centres.len() - 1;
    let c = centres[apex];
    let sideways =
        |p: [f32; D]| (0..D).filter(|&k| k != 1).map(|k| (p[k] - c[k]).powi(2)).sum::<f32>().sqrt();
    let mut peak = 0.0f32;
    let mut busy = Duration::ZERO;
    for _ in 0..steps {
        let start = Instant::now();
        engine.step();
        busy += start.elapsed();
        peak = peak.max(sideways(engine.position(apex)));
    }
    let ms = busy.as_secs_f64() * 1e3 / steps as f64;
    let p = engine.position(apex);
    let sag = c[1] - p[1];
    let sway = sideways(p);
    let mut worst = 0.0f32;
    for (i, c) in centres.iter().enumerate() {
        let p = engine.position(i);
        worst = worst.max((0..D).map(|k| (p[k] - c[k]).powi(2)).sum::<f32>().sqrt());
    }
    eprintln!(
        "{group} {id}: after {:.1} s: apex sag {sag:.4} m, sway {sway:.2e} m (at most \
         {peak:.2e} m during the run), largest displacement {worst:.4} m; {ms:.2} ms/step over \
         the run",
        steps as f32 * DT
    );
}

/// One group's engines: criterion times single steps of each in turn, or, with
/// `KOLLIDE_ALT=<rounds>`, every engine is built and warmed up first and then their steps
/// alternate, one step of each per round ([`alternate`]), so that all meet the same load.
struct Steps<'c> {
    group: &'static str,
    g: criterion::BenchmarkGroup<'c, criterion::measurement::WallTime>,
    rounds: Option<usize>,
    engines: Vec<(&'static str, StepFn)>,
}

/// How many consecutive steps each engine takes per alternating round: one step after another
/// engine's runs on caches that engine has filled (a 5,050-box step then took 40 % longer for
/// kollide and 9 % for Box2D than in a run of its own steps), so each round times a run of
/// steps, as a game steps its one world.
const ALTERNATE_STEPS: usize = 8;

/// One engine's timed steps, for the alternating rounds.
type StepFn = Box<dyn FnMut() -> f32>;

impl<'c> Steps<'c> {
    fn new(c: &'c mut Criterion, group: &'static str) -> Self {
        let rounds = alternating_rounds(group).filter(|_| full_mode() && !listing());
        Self { group, g: c.benchmark_group(group), rounds, engines: Vec::new() }
    }

    /// Times the engine `make` builds, after the warm-up (none in smoke mode).
    fn time<const D: usize, E: Engine<D> + 'static>(
        &mut self,
        id: &'static str,
        make: impl FnOnce() -> E,
    ) {
        if !wanted(self.group, id) || (self.rounds.is_some() && !alternating_id(id)) {
            return;
        }
        if listing() {
            self.g.bench_function(id, |b| b.iter(|| ()));
            return;
        }
        let mut engine = make();
        if full_mode() {
            for _ in 0..WARM_UP_STEPS {
                engine.step();
            }
        }
        if self.rounds.is_some() {
            let steps = move || (0..ALTERNATE_STEPS).map(|_| one_step(&mut engine)).sum();
            self.engines.push((id, Box::new(steps)));
            return;
        }
        self.g.bench_function(id, |b| b.iter(|| one_step(&mut engine)));
    }

    fn finish(mut self) {
        if let Some(rounds) = self.rounds.filter(|_| !self.engines.is_empty()) {
            alternate(self.group, rounds, &mut self.engines);
        }
        self.g.finish();
    }
}

/// One timed step (the unit of every world benchmark).
fn one_step<const D: usize, E: Engine<D>>(engine: &mut E) -> f32 {
    one_iteration(|| engine.step());
    black_box(engine);
    0.0
}

fn world_2d(c: &mut Criterion) {
    const GROUP: &str = "world2d/large_pyramid";
    let centres = pyramid_2d(BASE_2D);
    let steps = settle_steps();
    settle(GROUP, "kollide", &centres, steps, Kollide2::new(&centres));
    settle(GROUP, "kollide-coloured", &centres, steps, Kollide2::new(&centres).coloured());
    settle(GROUP, "box2d", &centres, steps, Box2d::new(&centres));
    settle(GROUP, "rapier", &centres, steps, Rapier2::new(&centres));

    let mut g = Steps::new(c, GROUP);
    g.time("kollide", || Kollide2::new(&centres));
    g.time("kollide-fresh", || Kollide2::new(&centres).fresh());
    g.time("box2d", || Box2d::new(&centres));
    g.time("rapier", || Rapier2::new(&centres));
    g.time("kollide-2threads", || Kollide2::new(&centres).on_threads(2));
    g.time("box2d-2workers", || Box2d::on_workers(&centres, 2));
    g.time("kollide-coloured", || Kollide2::new(&centres).coloured());
    g.time("kollide-coloured-2threads", || Kollide2::new(&centres).coloured().on_threads(2));
    g.finish();
}

fn world_3d(c: &mut Criterion) {
    const GROUP: &str = "world3d/pyramid";
    let centres = pyramid_3d(BASE_3D);
    let ground = BASE_3D as f32 + 5.0;
    let steps = settle_steps();
    settle(GROUP, "kollide", &centres, steps, Kollide3::new(&centres, ground));
    settle(GROUP, "rapier", &centres, steps, Rapier3::new(&centres, ground));

    let mut g = Steps::new(c, GROUP);
    g.time("kollide", || Kollide3::new(&centres, ground));
    g.time("kollide-fresh", || Kollide3::new(&centres, ground).fresh());
    g.time("rapier", || Rapier3::new(&centres, ground));
    g.time("kollide-2threads", || Kollide3::new(&centres, ground).on_threads(2));
    g.finish();
}

fn mesh_scene(c: &mut Criterion) {
    use rapier3d::prelude::TriMeshFlags;
    const GROUP: &str = "world3d/mesh_scene";
    let drops = mesh_drops();
    let n = drops.len();
    let steps = settle_steps();
    settle_on_mesh("kollide", n, steps, kollide_mesh(&drops));
    settle_on_mesh("rapier", n, steps, rapier_mesh(&drops, TriMeshFlags::empty()));
    let fixed = TriMeshFlags::FIX_INTERNAL_EDGES;
    settle_on_mesh("rapier-internal-edges", n, steps, rapier_mesh(&drops, fixed));

    let mut g = Steps::new(c, GROUP);
    g.time("kollide", || landed(kollide_mesh(&drops)));
    g.time("rapier", || landed(rapier_mesh(&drops, TriMeshFlags::empty())));
    g.time("rapier-internal-edges", || landed(rapier_mesh(&drops, fixed)));
    g.finish();
}

fn joint_grid(c: &mut Criterion) {
    const GROUP: &str = "world2d/joint_grid";
    let mut g = Steps::new(c, GROUP);
    g.time("kollide", kollide_joint_grid);
    g.time("box2d", box2d_joint_grid);
    g.finish();
}

fn rain(c: &mut Criterion) {
    const GROUP: &str = "world2d/rain";
    let mut g = Steps::new(c, GROUP);
    g.time("kollide", rain::kollide_rain);
    g.time("box2d", rain::box2d_rain);
    g.finish();
}

fn pyramids_asleep(c: &mut Criterion) {
    const GROUP: &str = "world2d/many_pyramids";
    let mut g = Steps::new(c, GROUP);
    g.time("kollide", || {
        let all = |k: &Kollide2| k.world.sleeping_bodies() == k.boxes.len();
        until_asleep("kollide", kollide_many_pyramids(true), all)
    });
    g.time("box2d", || {
        let all = |b: &Box2d| b.world.awake_body_count().is_ok_and(|n| n == 0);
        until_asleep("box2d", box2d_many_pyramids(true), all)
    });
    // Every box asleep but the restless one (the pyramids' boxes are the scene's first ones).
    g.time("kollide-one-awake", || {
        let all = |k: &Kollide2| k.world.sleeping_bodies() == k.boxes.len();
        until_asleep("kollide-one-awake", kollide_one_awake(), all)
    });
    g.time("box2d-one-awake", || {
        let all = |b: &Box2d| b.world.awake_body_count().is_ok_and(|n| n == 1);
        until_asleep("box2d-one-awake", box2d_one_awake(), all)
    });
    g.finish();
}

fn pyramids_awake(c: &mut Criterion) {
    const GROUP: &str = "world2d/asleep_vs_awake";
    let mut g = Steps::new(c, GROUP);
    g.time("kollide-awake", || kollide_many_pyramids(false));
    g.time("box2d-awake", || box2d_many_pyramids(false));
    g.finish();
}

/// Steps take milliseconds: fewer samples than the narrowphase benches, a longer window.
fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1))
}

/// Criterion's generated group function, run by the `main` of `all.rs`; the module is
/// crate-private, so it needs no docs.
pub(crate) mod groups {
    criterion::criterion_group! {
        name = benches;
        config = super::config();
        targets = super::world_2d, super::world_3d, super::mesh_scene, super::joint_grid,
            super::rain, super::pyramids_asleep, super::pyramids_awake
    }
}
