//! # kollide
//!
//! Collision detection, contact generation and a small rigid-body impulse solver, in 2D and 3D,
//! generic over `f32` and `f64`.
//!
//! This crate only re-exports the layer crates and offers a [`prelude`]:
//!
//! * [`math`] (`kollide-math`): scalars, vectors, poses, tolerances.
//! * [`draw`] (`kollide-draw`): backend-independent debug drawing and the SVG backend; the
//!   shapes and the narrowphase draw themselves into it (`shapes::draw`, `narrowphase::draw`).
//! * [`shapes`] (`kollide-shapes`): convex shapes, support mapping, AABBs, mass.
//! * [`manifold`] (`kollide-manifold`): contacts and manifolds.
//! * [`narrowphase`] (`kollide-narrowphase`): GJK, EPA, SAT, casts, the dispatcher.
//! * [`solver`] (`kollide-solver`): bodies and the world step.
//!
//! The guide (`docs/guide/` in the repository) explains the algorithms chapter by chapter; its
//! Rust examples, like the README's, are compiled and run as doc tests of this crate.
//!
//! **Architecture invariant:** the umbrella holds no logic.

pub use kollide_draw as draw;
pub use kollide_manifold as manifold;
pub use kollide_math as math;
pub use kollide_narrowphase as narrowphase;
pub use kollide_shapes as shapes;
pub use kollide_solver as solver;

/// The names most programs need, in one import: `use kollide::prelude::*;`.
pub mod prelude {
    pub use kollide_manifold::{Contact, ContactId, Manifold};
    pub use kollide_math::{
        Iso2, Iso3, Point, Point2, Point3, Pose, Rot2, Rot3, Scalar, Tolerances, UnitVector, Vec2,
        Vec3, Vector,
    };
    pub use kollide_narrowphase::{
        QuerySettings, Ray, ShapeContact, Status, closest_points, contact, distance,
        intersection_test, manifold2, manifold3, ray_cast, shape_cast,
    };
    pub use kollide_shapes::{
        Aabb, Ball, BodyShape2, BodyShape3, BoundingVolume, Capsule, Circle, Compound2, Compound3,
        Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder, FeatureId, HeightField,
        MinkowskiDifference, Polyline, Rounded, Segment, Shape2, Shape3, ShapeError, SupportMap,
        TriMesh, TriMeshError, Triangle,
    };
    pub use kollide_solver::{
        BodyDesc, BodyHandle, BodyKind, StepSettings, World2, World3, WorldError,
    };
}

/// The README's usage example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The guide (`docs/guide/`), one chapter per item: every Rust block of every chapter is compiled
/// and run as a doc test, like the README's, so the guide cannot drift from the API.
#[cfg(doctest)]
pub mod guide {
    /// Chapter 1: getting started.
    #[doc = include_str!("../../../docs/guide/01-getting-started.md")]
    pub struct Guide01;
    /// Chapter 2: conventions.
    #[doc = include_str!("../../../docs/guide/02-conventions.md")]
    pub struct Guide02;
    /// Chapter 3: shapes and support mapping.
    #[doc = include_str!("../../../docs/guide/03-shapes-and-support-mapping.md")]
    pub struct Guide03;
    /// Chapter 4: GJK.
    #[doc = include_str!("../../../docs/guide/04-gjk.md")]
    pub struct Guide04;
    /// Chapter 5: EPA in 2D and 3D.
    #[doc = include_str!("../../../docs/guide/05-epa.md")]
    pub struct Guide05;
    /// Chapter 6: penetration along a direction, ray and shape casts.
    #[doc = include_str!("../../../docs/guide/06-casts.md")]
    pub struct Guide06;
    /// Chapter 7: manifolds and clipping.
    #[doc = include_str!("../../../docs/guide/07-manifolds.md")]
    pub struct Guide07;
    /// Chapter 8: the solver.
    #[doc = include_str!("../../../docs/guide/08-solver.md")]
    pub struct Guide08;
    /// Chapter 9: performance.
    #[doc = include_str!("../../../docs/guide/09-performance.md")]
    pub struct Guide09;
    /// Chapter 10: troubleshooting.
    #[doc = include_str!("../../../docs/guide/10-troubleshooting.md")]
    pub struct Guide10;
    /// Chapter 11: scene queries.
    #[doc = include_str!("../../../docs/guide/11-queries.md")]
    pub struct Guide11;
    /// Chapter 12: events, sensors and contact hooks.
    #[doc = include_str!("../../../docs/guide/12-events.md")]
    pub struct Guide12;
    /// Chapter 13: continuous collision.
    #[doc = include_str!("../../../docs/guide/13-continuous.md")]
    pub struct Guide13;
    /// Chapter 14: level geometry, meshes and chains.
    #[doc = include_str!("../../../docs/guide/14-level-geometry.md")]
    pub struct Guide14;
    /// Chapter 15: joints.
    #[doc = include_str!("../../../docs/guide/15-joints.md")]
    pub struct Guide15;
    /// Chapter 16: islands and sleeping.
    #[doc = include_str!("../../../docs/guide/16-sleeping.md")]
    pub struct Guide16;
}
