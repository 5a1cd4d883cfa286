//! # kollide-narrowphase
//!
//! Exact queries between pairs of convex shapes, for 2D and 3D, `f32` and `f64`:
//!
//! * [`gjk`]: GJK on any [`Cso`] (intersection, distance, closest points), written once for both
//!   dimensions on a [`Simplex`] solved with dot products.
//! * [`epa`]: the expanding polytope algorithm in 2D (polygon) and 3D (polytope with horizon
//!   repair and a heap of faces).
//! * [`polygon_separation`]: the exact depth of two convex polygons through their Minkowski
//!   difference (SAT over every edge normal); the oracle EPA is tested against.
//! * [`ray_cast`], [`shape_cast`] (time of impact) and [`directional_penetration`] (the
//!   shortest push along a given direction), all from one [`gjk_ray_cast`].
//! * [`time_of_impact`]: when two shapes that move and turn ([`Sweep`]) first come within a
//!   target distance, by conservative advancement (continuous collision).
//! * [`manifold`]: contact manifolds (SAT with Sutherland–Hodgman clipping, circle cases) and
//!   the dispatchers [`manifold2`] and [`manifold3`].
//! * [`intersection_test`], [`contact`], [`closest_points`], [`distance`]: the world-space pair
//!   queries, with rounded shapes handled as core + radius, and pairs of balls, capsules and
//!   segments in closed form (`segment_cores`). When GJK or EPA stall on rounding and both
//!   cores are polytopes, they answer exactly instead (SAT over every axis, in `f64`; see
//!   `sat.rs`).
//! * [`composite`]: convex shapes against composite shapes (heightfields, compounds), every
//!   query written once over `kollide_shapes::CompositeShape`, with the internal-edge rule
//!   against ghost collisions.
//! * [`draw`]: debug drawing of Minkowski differences, GJK simplices, EPA iterations and manifolds
//!   (reference and incident faces), through `kollide-draw`.
//!
//! **Conventions:** normals point from A to B; separation is negative when penetrating; see
//! `docs/conventions.md`.
//!
//! **Architecture invariant:** no query allocates on the heap in the common case (inline
//! `SmallVec` storage; only pathological EPA polytopes spill).
//!
//! **Build time:** GJK, EPA, the polish, the refinement and the casts are generic over the CSO,
//! which is one type per shape pair, so a test binary would hold a copy of each for every pair it
//! queries (hundreds). In debug and test builds they take the CSO as a `dyn Cso` instead
//! (`cso::debug_erased`) and are compiled once per scalar and dimension; optimised builds keep
//! the concrete type, so that the support function is inlined into their loops. Their
//! shape-independent parts (the simplex reduction, the EPA polytope's faces and heap, the
//! refinement's Newton step) are inlined in optimised builds but marked
//! `#[cfg_attr(debug_assertions, inline(never))]`, for the same reason.
//!
//! **Architecture invariant:** no iterative query reports "no contact" because it ran out of
//! iterations; every result carries a [`Status`].

mod cast;
pub mod composite;
mod core_closed_form;
mod cso;
mod dim;
pub mod draw;
mod epa;
mod epa2;
mod epa3;
mod gjk;
mod kinks;
pub mod manifold;
mod polish;
mod polygon_depth;
mod query;
mod refine;
mod sat;
mod sat_large;
mod sat_loop;
mod segment_cores;
mod simplex;
mod status;
mod toi;
mod witness;

pub use cast::{CastHit, Ray, directional_penetration, gjk_ray_cast, ray_cast, shape_cast};
pub use cso::{Cso, SingleShape};
pub use epa::{EpaResult, epa};
pub use gjk::{GjkOutcome, GjkResult, gjk, gjk_with};
pub use manifold::{manifold2, manifold3};
pub use polygon_depth::{Owner, PolygonSeparation, max_edge_separation, polygon_separation};
pub use query::{
    GjkCache, Intersection, ShapeContact, closest_points, contact, distance, intersection_test,
};
pub use simplex::{Simplex, SimplexVertex};
pub use status::{QuerySettings, Status};
pub use toi::{Sweep, SweepPose, Toi, ToiStatus, time_of_impact};
