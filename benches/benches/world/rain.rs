//! Box2D's `rain` benchmark (`shared/benchmarks.c`, with the ragdoll of `shared/human.c`) in
//! kollide and Box2D v3: groups of 11-bone ragdolls fall onto rows of ground boxes; every
//! eighth step a column of groups appears, and once every column holds one, the oldest column
//! is destroyed and made again. Bodies and joints are created and destroyed while the world
//! runs, and the ragdolls pile up and go to sleep: each timed step includes the spawning and
//! the removal, as Box2D's benchmark times them.
//!
//! The scene is Box2D's with [`ROWS`] of its five rows: each row is a platform 45 m above the
//! last with ragdolls of its own, so a row is a fifth of the work, and the warm-up to the
//! steady state stays short under callgrind. Both engines sleep as their users get them
//! (Box2D's benchmark keeps its default), with 4 substeps on one thread.
//!
//! **Where the two scenes differ.** A kollide body has one set of collision groups and one
//! friction: the lower leg (a capsule with a foot) takes the foot's friction (0.05) for both
//! parts, and its foot collides with other ragdolls, which Box2D's foot does not. The foot's
//! rounded polygon (radius 0.015) is a sharp polygon grown by the radius. kollide's sleep speed
//! is a world setting, set to the ragdolls' 0.1 m/s (Box2D's body `sleepThreshold`).
//! Everything else is the same: bones, density 1, limits, joint friction (a motor of speed 0),
//! joint springs, damping, and the filtering (the `i`-th ragdoll of every group never collides
//! with the `i`-th of another, as Box2D's group index `−(i + 1)` rules).

use std::f32::consts::PI;

use kollide::prelude::*;
use kollide::shapes::{Capsule, Compound2, ConvexPolygon, Shape2};
use kollide::solver::{CollisionGroups, JointDesc, RevoluteJoint, StepReport};

use super::{DT, Engine, GRAVITY, SUBSTEPS, full_mode};

/// Rows of ground with their ragdolls (Box2D: 5).
pub(super) const ROWS: usize = 1;
/// Columns of groups (as Box2D).
const COLUMNS: usize = 40;
/// Ragdolls per group (as Box2D).
const GROUP: usize = 5;
/// Ground boxes per row, less one (as Box2D), and their size (m).
const GRID_COUNT: usize = 500;
const GRID_SIZE: f32 = 0.5;
/// A column appears every this many steps (Box2D's `stepCount & 7 == 0`).
const SPAWN_EVERY: usize = 8;
/// Steps before timing: every column is made and made again once, and the first ragdolls
/// have landed: the steady state of spawning, falling, landing, sleeping and removal.
const WARM_UP: usize = 2 * COLUMNS * SPAWN_EVERY;
/// The ragdolls' joint friction (N·m, Box2D's `jointFriction` times the bone's share), spring
/// and surface friction (feet: [`FOOT_FRICTION`]).
const JOINT_FRICTION: f32 = 0.05;
const JOINT_HERTZ: f32 = 5.0;
const JOINT_DAMPING: f32 = 0.5;
const BONE_FRICTION: f32 = 0.2;
const FOOT_FRICTION: f32 = 0.05;
/// The foot (a polygon in the lower leg's frame) and its rounding radius.
const FOOT: [[f32; 2]; 4] = [[-0.03, -0.185], [0.11, -0.185], [0.11, -0.16], [-0.03, -0.14]];
const FOOT_RADIUS: f32 = 0.015;

/// One bone of the ragdoll (heights from the ragdoll's origin, m).
#[derive(Clone, Copy)]
struct Bone {
    /// The body's height, and its capsule: the segment's ends on the body's y axis, the radius.
    y: f32,
    capsule: [f32; 3],
    /// The parent bone and the hinge's height (none for the hip).
    parent: Option<(usize, f32)>,
    /// The hinge's limits (in units of π), the share of the joint friction, the body's linear
    /// damping, and whether the bone has a foot.
    limit: [f32; 2],
    friction_share: f32,
    damping: f32,
    foot: bool,
}

/// The human of Box2D's `shared/human.c` at scale 1: hip, torso, head, then the left and
/// right upper and lower legs, then the arms.
fn bones() -> [Bone; 11] {
    let bone = |y, capsule, parent, limit, friction_share| Bone {
        y,
        capsule,
        parent,
        limit,
        friction_share,
        damping: 0.0,
        foot: false,
    };
    let upper_leg = bone(0.775, [-0.125, 0.125, 0.06], Some((0, 0.9)), [-0.05, 0.4], 1.0);
    let lower_leg = |parent| Bone {
        foot: true,
        ..bone(0.475, [-0.155, 0.125, 0.045], Some((parent, 0.625)), [-0.5, -0.02], 0.5)
    };
    let upper_arm = bone(1.225, [-0.125, 0.125, 0.035], Some((1, 1.35)), [-0.1, 0.8], 0.5);
    let lower_arm = |parent| Bone {
        damping: 0.1,
        ..bone(0.975, [-0.125, 0.125, 0.03], Some((parent, 1.1)), [-0.2, 0.3], 0.1)
    };
    [
        bone(0.95, [-0.02, 0.02, 0.095], None, [0.0, 0.0], 1.0),
        bone(1.2, [-0.135, 0.135, 0.09], Some((0, 1.0)), [-0.25, 0.0], 0.5),
        Bone {
            damping: 0.1,
            ..bone(1.475, [-0.038, 0.039, 0.075], Some((1, 1.4)), [-0.3, 0.1], 0.25)
        },
        upper_leg,
        lower_leg(3),
        upper_leg,
        lower_leg(5),
        upper_arm,
        lower_arm(7),
        upper_arm,
        lower_arm(9),
    ]
}

/// The centres of the ground boxes.
fn ground_cells() -> impl Iterator<Item = [f32; 2]> {
    let left = -0.5 * GRID_COUNT as f32 * GRID_SIZE;
    (0..ROWS).flat_map(move |r| {
        (0..=GRID_COUNT).map(move |j| [left + j as f32 * GRID_SIZE, 45.0 * r as f32])
    })
}

/// The origin of ragdoll `i` of the group in `row` and `column`.
fn origin(row: usize, column: usize, i: usize) -> [f32; 2] {
    let span = GRID_COUNT as f32 * GRID_SIZE;
    let spacing = span / COLUMNS as f32;
    let x = -0.5 * span + spacing * (column as f32 + 0.5) + 0.5 * i as f32;
    [x, 40.0 + 45.0 * row as f32]
}

/// Which column is made at each step, as Box2D's `StepRain` decides.
#[derive(Default)]
struct Spawner {
    step: usize,
    filled: usize,
    oldest: usize,
}

impl Spawner {
    /// The column to make at this step, and whether its groups must be destroyed first.
    fn next(&mut self) -> Option<(usize, bool)> {
        let step = self.step;
        self.step += 1;
        if !step.is_multiple_of(SPAWN_EVERY) {
            return None;
        }
        if self.filled < COLUMNS {
            self.filled += 1;
            return Some((self.filled - 1, false));
        }
        let column = self.oldest;
        self.oldest = (column + 1) % COLUMNS;
        Some((column, true))
    }
}

/// An engine that can make and destroy ragdolls.
pub(super) trait Ragdolls {
    type Body: Copy;
    /// Makes ragdoll `i` of a group at `origin`; returns its bodies.
    fn make(&mut self, origin: [f32; 2], i: usize) -> Vec<Self::Body>;
    /// Destroys a body with its joints.
    fn destroy(&mut self, body: Self::Body);
    /// Steps the world once.
    fn step_world(&mut self);
}

/// The scene around an engine: the spawner and the bodies of every group.
pub(super) struct Rain<E: Ragdolls> {
    engine: E,
    spawner: Spawner,
    groups: Vec<Vec<E::Body>>,
}

impl<E: Ragdolls> Rain<E> {
    fn new(engine: E) -> Self {
        let mut rain = Self { engine, spawner: Spawner::default(), groups: Vec::new() };
        rain.groups.resize_with(ROWS * COLUMNS, Vec::new);
        if full_mode() {
            for _ in 0..WARM_UP {
                rain.step();
            }
        }
        rain
    }

    /// The number of ragdoll bodies in the scene.
    fn bodies(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }
}

impl<E: Ragdolls> Engine<2> for Rain<E> {
    fn step(&mut self) {
        if let Some((column, renew)) = self.spawner.next() {
            for row in 0..ROWS {
                let group = &mut self.groups[row * COLUMNS + column];
                if renew {
                    for body in group.drain(..) {
                        self.engine.destroy(body);
                    }
                }
                for i in 0..GROUP {
                    let bodies = self.engine.make(origin(row, column, i), i);
                    self.groups[row * COLUMNS + column].extend(bodies);
                }
            }
        }
        self.engine.step_world();
    }
    fn position(&mut self, _: usize) -> [f32; 2] {
        [0.0, 0.0]
    }
}

// ------------------------------------------------------------------------------------------------
// kollide.

pub(super) struct KollideRagdolls {
    world: World2<f32>,
    last: StepReport,
}

/// The scene in kollide, warmed up.
pub(super) fn kollide_rain() -> Rain<KollideRagdolls> {
    let mut world = World2::<f32>::new(Vec2::new(0.0, GRAVITY)).expect("a world");
    let settings = StepSettings { sleep_linear_speed: 0.1, ..*world.settings() };
    world.set_settings(settings).expect("valid settings");
    let cell = Cuboid::new(Vec2::repeat(0.5 * GRID_SIZE)).expect("positive extents");
    for [x, y] in ground_cells() {
        world.add(BodyDesc::fixed(cell).pose(Iso2::translation(x, y))).expect("a ground box");
    }
    let rain = Rain::new(KollideRagdolls { world, last: StepReport::default() });
    let last = &rain.engine.last;
    let pairs = format!(
        "{} pairs, {} touching, {} manifolds reused",
        last.pairs, last.touching_pairs, last.reused_manifolds
    );
    report("kollide", rain.bodies(), rain.engine.world.sleeping_bodies(), &pairs);
    rain
}

/// A convex polygon (counter-clockwise) grown by `r`, with sharp corners.
fn grown(points: &[[f32; 2]], r: f32) -> Vec<Point2<f32>> {
    let n = points.len();
    let normal = |a: [f32; 2], b: [f32; 2]| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let length = dx.hypot(dy);
        [dy / length, -dx / length]
    };
    (0..n)
        .map(|i| {
            let (prev, here, next) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
            let (n1, n2) = (normal(prev, here), normal(here, next));
            // The corner where both edges, moved out by `r`, meet.
            let k = r / (1.0 + n1[0] * n2[0] + n1[1] * n2[1]);
            Point2::new(here[0] + k * (n1[0] + n2[0]), here[1] + k * (n1[1] + n2[1]))
        })
        .collect()
}

impl Ragdolls for KollideRagdolls {
    type Body = BodyHandle;

    fn make(&mut self, [x, y]: [f32; 2], i: usize) -> Vec<BodyHandle> {
        let groups = CollisionGroups::new(1 << (1 + i), !(1 << (1 + i)));
        let foot = ConvexPolygon::from_convex_ccw(&grown(&FOOT, FOOT_RADIUS)).expect("a foot");
        let mut bodies: Vec<BodyHandle> = Vec::with_capacity(11);
        for bone in bones() {
            let [y0, y1, r] = bone.capsule;
            let capsule =
                Capsule::new(Point2::new(0.0, y0), Point2::new(0.0, y1), r).expect("a capsule");
            let desc = if bone.foot {
                let parts = vec![
                    (Iso2::identity(), Shape2::from(capsule)),
                    (Iso2::identity(), Shape2::from(foot.clone())),
                ];
                let leg = Compound2::new(parts).expect("a leg");
                BodyDesc::dynamic(leg).friction(FOOT_FRICTION)
            } else {
                BodyDesc::dynamic(capsule).friction(BONE_FRICTION)
            };
            let desc = desc
                .pose(Iso2::translation(x, y + bone.y))
                .damping(bone.damping, 0.0)
                .collision_groups(groups);
            let body = self.world.add(desc).expect("a bone");
            if let Some((parent, hinge)) = bone.parent {
                let [lower, upper] = bone.limit;
                let joint = RevoluteJoint::new(Point2::new(x, y + hinge))
                    .limit(lower * PI, upper * PI)
                    .motor(0.0, bone.friction_share * JOINT_FRICTION)
                    .spring(JOINT_HERTZ, JOINT_DAMPING);
                self.world.add_joint(JointDesc::new(bodies[parent], body, joint)).expect("a hinge");
            }
            bodies.push(body);
        }
        bodies
    }

    fn destroy(&mut self, body: BodyHandle) {
        self.world.remove(body).expect("a live bone");
    }

    fn step_world(&mut self) {
        self.last = self.world.step(DT).expect("a valid step");
    }
}

// ------------------------------------------------------------------------------------------------
// Box2D v3.

pub(super) struct Box2dRagdolls {
    world: boxdd::World,
    body: boxdd::BodyDef,
}

/// The scene in Box2D v3, warmed up.
pub(super) fn box2d_rain() -> Rain<Box2dRagdolls> {
    let foundation = boxdd::Foundation::initialize_default().expect("Box2D's foundation");
    let def = boxdd::WorldBuilder::from(foundation.world_def())
        .gravity(boxdd::Vec2::new(0.0, GRAVITY))
        .worker_count(boxdd::WorkerCount::new(1).expect("a supported worker count"))
        .build()
        .expect("a world definition");
    let mut world = foundation.create_world(def).expect("a world");
    let ground_def = boxdd::BodyBuilder::from(foundation.body_def()).build().expect("a body");
    let ground = world.create_body(ground_def).expect("the ground");
    let shape = boxdd::ShapeDef::builder().density(1.0).build().expect("a shape definition");
    let h = 0.5 * GRID_SIZE;
    for [x, y] in ground_cells() {
        let corners = [[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]];
        let cell = boxdd::shapes::polygon_from_points(corners, 0.0).expect("a ground box");
        world.body(ground).and_then(|mut g| g.create_polygon(&shape, &cell)).expect("a box");
    }
    let body = boxdd::BodyBuilder::from(foundation.body_def())
        .body_type(boxdd::BodyType::Dynamic)
        .sleep_threshold(0.1)
        .build()
        .expect("a body definition");
    let rain = Rain::new(Box2dRagdolls { world, body });
    let awake = rain.engine.world.awake_body_count().expect("a count");
    let contacts = rain.engine.world.counters().expect("counters").contact_count;
    let asleep = rain.bodies().saturating_sub(awake as usize);
    report("box2d", rain.bodies(), asleep, &format!("{contacts} contacts"));
    rain
}

impl Ragdolls for Box2dRagdolls {
    type Body = boxdd::BodyId;

    fn make(&mut self, [x, y]: [f32; 2], i: usize) -> Vec<boxdd::BodyId> {
        let filter = |mask| boxdd::Filter {
            category_bits: 2,
            mask_bits: mask,
            group_index: -(i as i32 + 1),
        };
        let material = |f| boxdd::SurfaceMaterial::default().with_friction(f).expect("a friction");
        let def = |f, mask| {
            let builder = boxdd::ShapeDef::builder().density(1.0).filter(filter(mask));
            builder.material(material(f)).build().expect("a shape definition")
        };
        let (shape, foot_shape) = (def(BONE_FRICTION, 1 | 2), def(FOOT_FRICTION, 1));
        let foot = boxdd::shapes::polygon_from_points(FOOT, FOOT_RADIUS).expect("a foot");
        let mut bodies: Vec<boxdd::BodyId> = Vec::with_capacity(11);
        for bone in bones() {
            let def = boxdd::BodyBuilder::from(self.body.clone())
                .position(boxdd::Position::new(x, y + bone.y))
                .linear_damping(bone.damping)
                .build()
                .expect("a body definition");
            let body = self.world.create_body(def).expect("a bone");
            let [y0, y1, r] = bone.capsule;
            let capsule = boxdd::shapes::capsule([0.0, y0], [0.0, y1], r).expect("a capsule");
            let mut b = self.world.body(body).expect("the new bone");
            b.create_capsule(&shape, &capsule).expect("a capsule");
            if bone.foot {
                b.create_polygon(&foot_shape, &foot).expect("a foot");
            }
            if let Some((parent, hinge)) = bone.parent {
                let [lower, upper] = bone.limit;
                self.world
                    .revolute(bodies[parent], body)
                    .anchor_world(boxdd::Position::new(x, y + hinge))
                    .limit(lower * PI, upper * PI)
                    .motor(bone.friction_share * JOINT_FRICTION, 0.0)
                    .spring(JOINT_HERTZ, JOINT_DAMPING)
                    .build()
                    .expect("a hinge");
            }
            bodies.push(body);
        }
        bodies
    }

    fn destroy(&mut self, body: boxdd::BodyId) {
        self.world.body(body).and_then(|b| b.destroy()).expect("a live bone");
    }

    fn step_world(&mut self) {
        let done = self.world.step(DT, SUBSTEPS).expect("a valid step");
        assert!(done.post_step_error().is_none(), "Box2D reported a post-step error");
    }
}

/// Prints the scene's size, how much of it sleeps and its pairs once warmed up (full mode only).
fn report(id: &str, bodies: usize, sleeping: usize, pairs: &str) {
    if full_mode() {
        eprintln!(
            "world2d/rain {id}: after {WARM_UP} steps, {bodies} ragdoll bodies, {sleeping} \
             asleep; {pairs}"
        );
    }
}
