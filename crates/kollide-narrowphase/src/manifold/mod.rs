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
//! `b2CollidePolygons` is the model). [`contact_boxes`] takes the same steps on two boxes in
//! closed form (Box2D-Lite style: SAT from the relative rotation's `|R|`, the incident edge by
//! sign; the same manifolds, faster); [`contact_aabbs`] is the
//! axis-aligned fast path.
//!
//! ## Dispatch
//! [`manifold2`] picks the routine for a pair of [`Shape2`](kollide_shapes::Shape2)s; swapped
//! pairs call the same routine and flip the result.

mod aabb;
mod assemble3;
mod ball_ball;
mod ball_capsule;
mod ball_cuboid;
mod ball_polyhedron;
mod box_box;
mod capsule_capsule;
mod circle;
mod clip;
mod clip3;
mod clip3_convex;
mod convex_convex;
mod cuboid_cuboid;
#[cfg(test)]
mod cuboid_cuboid_oracle;
mod cuboid_face_clip;
mod dispatch2;
mod dispatch3;
mod face_clip;
mod gauss_walk;
#[cfg(test)]
mod gauss_walk_oracle;
mod polygon;
mod polyhedra_epa;
mod polyhedron_polyhedron;
mod segment_closest;
mod triangle_capsule;
mod triangle_cuboid;

pub use aabb::contact_aabbs;
pub use assemble3::{Candidates, exact_contact, to_world};
pub use ball_ball::contact_balls;
pub use ball_capsule::contact_ball_capsule;
pub use ball_cuboid::contact_ball_cuboid;
pub use ball_polyhedron::contact_ball_polyhedron;
pub use box_box::contact_boxes;
pub use capsule_capsule::{PARALLEL_SIN, contact_capsules};
pub use circle::{contact_circle_polygon, contact_circles};
pub use clip::{ClipVertex, clip_segment_to_line};
pub use clip3::{
    ClipEdge, ClipPolygon, ClipVertex3, SidePlane, clip_polygon, clip_polygon_to_plane,
};
pub use convex_convex::{GENERATED, contact_convex};
pub use cuboid_cuboid::{contact_cuboids, cuboid_edge_id};
pub use dispatch2::manifold2;
pub use dispatch3::manifold3;
pub use face_clip::{IncidentFeature, ReferenceFace, clip_reference_face};
pub use polygon::{PolygonView, contact_polygons};
pub(crate) use polyhedra_epa::candidates;
pub use polyhedron_polyhedron::{PolyhedraCache, contact_polyhedra, contact_polyhedra_cached};
pub(crate) use polyhedron_polyhedron::{Sat, sat_walk};
pub use segment_closest::{
    OverlapEnd, clip_parallel_segments, overlap_end_contact, segment_point_closest,
    segments_closest,
};
pub use triangle_capsule::contact_triangle_capsule;
pub use triangle_cuboid::contact_triangle_cuboid;
pub(crate) use triangle_cuboid::{triangle_cuboid_depth, triangle_side};

/// A random unit vector, uniform on the sphere (rejection from the cube), for the unit tests of
/// the 3D routines.
#[cfg(test)]
pub(crate) fn random_unit3(r: &mut rand_chacha::ChaCha8Rng) -> kollide_math::Vec3<f64> {
    use rand::Rng;
    loop {
        let v = kollide_math::Vec3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}
