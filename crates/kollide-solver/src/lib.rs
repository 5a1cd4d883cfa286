//! # kollide-solver
//!
//! Rigid bodies, a broadphase (a dynamic AABB tree) with persistent pairs, and a world step with
//! sequential impulses: accumulated clamping, Coulomb friction, restitution above a threshold,
//! warm starting from feature-matched contacts, speculative contacts and soft (spring-damper)
//! position correction with substeps, after Box2D v3's soft step. One implementation serves 2D
//! and 3D through [`SolverDim`].
//!
//! ```
//! use kollide_math::{Iso2, Vec2};
//! use kollide_shapes::Cuboid;
//! use kollide_solver::{BodyDesc, World2};
//! let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
//! world.add(BodyDesc::fixed(Cuboid::new(Vec2::new(10.0, 0.5)).unwrap())
//!     .pose(Iso2::translation(0.0, -0.5))).unwrap();
//! let b = world.add(BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap())
//!     .pose(Iso2::translation(0.0, 2.0))).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0).unwrap();
//! }
//! let y = world.body(b).unwrap().pose().translation.vector.y;
//! assert!((y - 0.5).abs() < 0.01); // resting on the ground
//! ```
//!
//! **Scene queries** (`src/query/`): ray casts, shape casts, overlap tests and point
//! projection on a [`World`], through a bounding-volume tree of the bodies, with a
//! [`QueryFilter`] ([`CollisionGroups`], an excluded body, a predicate).
//!
//! **Events, sensors and hooks**: a step reports what happened ([`World::events`]: contacts
//! that began and ended, bodies entering and leaving sensors, hard hits; see [`Events`]), a
//! sensor body ([`BodyDesc::sensor`](BodyDesc#structfield.sensor)) reports overlaps without
//! touching, and [`World::step_with_hook`] lets a [`ContactHook`] disable or change each
//! contact before the solver (one-way platforms, conveyor belts).
//!
//! **Continuous collision**: after the positions are integrated, bullets
//! ([`BodyDesc::bullet`](BodyDesc#structfield.bullet)) and bodies that moved more than a
//! fraction of their size are swept against static and kinematic bodies and moved back to the
//! time of impact, so they do not tunnel through thin walls ([`StepSettings::continuous`]).
//!
//! **Joints** (`src/joint/`): revolute (a hinge in 3D), spherical, weld (fixed), prismatic,
//! wheel and distance joints between two bodies ([`World::add_joint`], [`JointDesc`]), with
//! limits, motors and springs, solved as soft constraints in the same substeps as the contacts.
//!
//! **Islands and sleeping** (`src/island.rs`, `src/sleep.rs`): bodies linked by contacts and
//! joints form islands, and an island whose bodies have all been still for
//! [`StepSettings::time_to_sleep`] falls asleep and costs almost nothing per step until a
//! moving body touches it or the user changes it ([`World::wake`], [`World::sleep`],
//! [`Body::is_sleeping`]), after Box2D v3.
//!
//! **Architecture invariant:** the solver sees shapes only through the narrowphase's manifold
//! dispatchers; it never calls a pair routine directly.
//!
//! **Bad input:** everything that enters a world (gravity, settings, bodies, velocities, time
//! steps) is checked against the world's envelope, [`WorldLimits`] (one table per scalar
//! type); a request outside it, or a massless shape on a dynamic body, is rejected with a
//! [`WorldError`] and the world is unchanged. Input inside the envelope cannot make a body
//! NaN.

mod body;
mod body_edit;
mod broadphase;
mod contact_pair;
mod contact_prepare;
mod contact_solver;
mod dim;
mod draw;
mod error;
mod events;
mod groups;
mod handle;
mod hook;
#[cfg(feature = "instances")]
#[doc(hidden)]
pub mod instances;
mod island;
mod joint;
mod lane;
mod lane_dim;
mod limits;
mod query;
mod settings;
mod sleep;
mod slots;
mod step;
mod world;

pub use body::{Body, BodyDesc, BodyKind};
pub use broadphase::SweepAndPrune;
pub use contact_pair::{ContactImpulse, ContactPair};
pub use dim::{AngularOps, BodyMass, Dim, SolverDim};
pub use draw::WorldStyle;
pub use error::WorldError;
pub use events::{ContactEvent, Events, HitEvent, SensorEvent};
pub use groups::CollisionGroups;
pub use handle::BodyHandle;
pub use hook::{ContactHook, PreSolve};
pub use joint::{
    ConeLimit, DistanceJoint, Joint, JointDesc, JointHandle, JointKind, Motor, MotorJoint,
    MouseJoint, PoseOf, PrismaticJoint, RevoluteJoint, SphericalJoint, Spring, WeldJoint,
    WheelJoint,
};
pub use lane::{Lane, LaneScalar};
pub use lane_dim::DimLanes;
pub use limits::WorldLimits;
pub use query::{BodyPredicate, PointProjection, QueryError, QueryFilter, RayHit, ShapeHit};
pub use settings::StepSettings;
pub use step::WARM_START_MATCH_FRACTION;
pub use world::{StepReport, World, World2, World3};
