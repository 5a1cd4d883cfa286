//! Contact manifolds: the contact points of a pair of shapes, for a solver.
//!
//! A query such as [`crate::contact`] gives one point pair; a box resting on a box needs two
//! points in 2D and four in 3D to stand still. The routines here build a
//! [`Manifold`](kollide_manifold::Manifold) per pair kind, all with the same conventions: the
//! normal points from A to B, separations are negative when penetrating, contacts with a
//! separation up to the speculative `margin` are reported, and every contact carries the
//! [`ContactId`](kollide_manifold::ContactId) of the features it came from.
//!
//! ## 2D
//! In 2D every kollide shape but the circle is a (possibly rounded) convex polygon: a segment is
//! a polygon with two vertices, a capsule a rounded segment, a box a polygon with four. So three
//! routines cover every pair: [`contact_circles`], [`contact_circle_polygon`] and
//! [`contact_polygons`], which is SAT over both polygons' edge normals with a biased choice of the
//! reference face, the incident edge of the other polygon, and Sutherland–Hodgman clipping of the
//! incident edge against the reference face's side planes (the manifold seed; Box2D's
//! `b2CollidePolygons` is the model). [`contact_aabbs`] is the axis-aligned fast path.
//!
//! ## Dispatch
//! [`manifold2`] picks the routine for a pair of [`Shape2`](kollide_shapes::Shape2)s; swapped
//! pairs call the same routine and flip the result.

mod aabb;
mod circle;
mod clip;
mod dispatch2;
mod polygon;

pub use aabb::contact_aabbs;
pub use circle::{contact_circle_polygon, contact_circles};
pub use clip::{ClipVertex, clip_segment_to_line};
pub use dispatch2::manifold2;
pub use polygon::{PolygonView, contact_polygons};
