//! # kollide-shapes
//!
//! Convex shapes for 2D and 3D, validated at construction, and the support-mapping machinery that
//! every query in kollide is built on.
//!
//! | shape | 2D | 3D | core + radius |
//! |---|---|---|---|
//! | [`Ball`] | [`Circle`] | `Ball<N, 3>` | point + radius |
//! | [`Segment`] | yes | yes | — |
//! | [`Capsule`] | yes | yes | segment + radius |
//! | [`Cuboid`] (box; an AABB is a cuboid at identity) | yes | yes | — |
//! | [`Triangle`] | yes | yes | — |
//! | [`ConvexPolygon`] | yes | | — |
//! | [`ConvexPolyhedron`] | | yes | — |
//! | [`Cylinder`], [`Cone`] | | yes | — |
//! | [`Rounded`] | any | any | shape + radius |
//!
//! Level geometry is made of convex pieces behind one trait, [`CompositeShape`]: a
//! [`HeightField`] (3D terrain, two triangles per grid cell, with precomputed active edges
//! against ghost collisions), a [`TriMesh`] (3D triangles by index triples, a static tree, the
//! same active edges from its adjacency), a [`Polyline`] (a 2D chain of one-sided segments with
//! ghost vertices) and a [`Compound`] ([`Compound2`], [`Compound3`]: convex children with local
//! poses and the union's mass properties).
//!
//! The traits: [`SupportMap`] (support point of the core, radius, hill-climbing hint),
//! [`SupportFeatureMap`] (the vertex, edge or face facing a direction, with [`FeatureId`]s),
//! [`Polytope`] (the vertices, face normals and edges of a polytope core, for the narrowphase's
//! exact fallback), [`BoundingVolume`] ([`Aabb`] under a pose), [`HasMass2`]/[`HasMass3`] (mass
//! properties), and
//! the [`MinkowskiDifference`] of two support maps with witness points.
//!
//! [`tree`] is a bounding-volume tree of [`Aabb`]s (dynamic, with fat boxes, for the world's
//! queries; or built once from a slice, for meshes and chains).
//!
//! [`draw`] draws every shape through `kollide-draw`'s backend-independent `DebugDraw` ([`Draw2`],
//! [`Draw3`]).
//!
//! **Architecture invariant:** shapes know nothing of each other. Anything that takes two shapes
//! (other than the Minkowski difference, which only combines support functions) lives in
//! `kollide-narrowphase`.
//!
//! **Architecture invariant:** a constructed shape is valid. Constructors return
//! `Result<_, ShapeError>` and reject NaN, infinite, non-positive and degenerate input, and
//! anything outside the scalar type's envelope (sizes in
//! [`Scalar::MIN_SIZE`](kollide_math::Scalar::MIN_SIZE)..=[`Scalar::MAX_SIZE`](kollide_math::Scalar::MAX_SIZE),
//! coordinates up to [`Scalar::MAX_COORDINATE`](kollide_math::Scalar::MAX_COORDINATE); see
//! `docs/conventions.md`), so queries never re-validate. Fields that carry an invariant are
//! private and read through accessors of the same name (`Ball::radius()`,
//! `Cuboid::half_extents()`, `Segment::a()`, ...); constructors are the only way in.

mod aabb;
mod active_edge;
mod ball;
mod body_shape;
mod capsule;
mod composite;
mod compound;
mod cone;
mod convex_polygon;
mod convex_polyhedron;
mod cuboid;
mod cylinder;
pub mod draw;
mod error;
mod feature;
mod generator;
mod heightfield;
mod hull2d;
mod hull3d;
mod mass;
mod point_shape;
mod polyline;
mod polytope;
mod ray_clip;
mod rounded;
mod segment;
mod shape;
mod support;
pub mod tree;
mod triangle;
mod trimesh;
pub mod validate;

pub use aabb::{Aabb, BoundingVolume};
pub use active_edge::CREASE_ANGLE;
pub use ball::{Ball, Circle};
pub use body_shape::{BodyShape2, BodyShape3, placed_aabb};
pub use capsule::Capsule;
pub use composite::{CompositeShape, SurfaceRay};
pub use compound::{ChildPose, Compound, Compound2, Compound3, CompoundError};
pub use cone::Cone;
pub use convex_polygon::{ConvexPolygon, climb_cyclic};
pub use convex_polyhedron::{ConvexPolyhedron, EdgeArcs, PolyhedronEdge};
pub use cuboid::Cuboid;
pub use cylinder::Cylinder;
pub use draw::{Draw2, Draw3};
pub use error::ShapeError;
pub use feature::{FEATURE_INLINE, FeatureId, SupportFeature, SupportFeatureMap};
pub use generator::Generator;
pub use heightfield::{HeightField, HeightFieldError};
pub use hull2d::{convex_hull_2d, convex_hull_2d_indices};
pub use hull3d::{ConvexHull3, convex_hull_3d, hull_tolerance_3d};
pub use mass::{HasMass2, HasMass3, MassProperties2, MassProperties3, check_density};
pub use point_shape::PointShape;
pub use polyline::{Polyline, PolylineError};
pub use polytope::Polytope;
pub use rounded::Rounded;
pub use segment::Segment;
pub use shape::{Shape2, Shape3};
pub use support::{
    CoreRay, FlatNormal, MinkowskiDifference, SMALL_HULL, SupportMap, SupportPoint,
    small_hull_support,
};
pub use triangle::Triangle;
pub use trimesh::{TriMesh, TriMeshError};
