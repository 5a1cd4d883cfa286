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
        Aabb, Ball, BoundingVolume, Capsule, Circle, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid,
        Cylinder, FeatureId, MinkowskiDifference, Rounded, Segment, Shape2, Shape3, ShapeError,
        SupportMap, Triangle,
    };
    pub use kollide_solver::{
        BodyDesc, BodyHandle, BodyKind, StepSettings, World2, World3, WorldError,
    };
}

/// The README's usage example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
