//! Convex shapes against composite shapes (heightfields, compounds): every pair query written
//! once over [`CompositeShape`].
//!
//! A composite is not convex, but each of its pieces is. Every query here follows the same
//! three steps (the "mid-phase" of Ericson, *Real-Time Collision Detection*, 2005, ch. 6–7; parry
//! and Jolt work the same way):
//!
//! 1. **Candidates.** B's bounding box is brought into the composite's frame (grown by the
//!    query's margin, or swept along the motion for a cast) and the composite visits the pieces
//!    whose boxes overlap it ([`CompositeShape::visit_pieces_in`]): the cells under the box for a
//!    heightfield, the children's boxes for a compound. A ray visits pieces nearer first where
//!    the composite can order them ([`CompositeShape::visit_pieces_along_ray`]: a tree's walk),
//!    and each hit cuts the ray, so that nothing beyond the nearest hit is visited. A
//!    heightfield answers a ray itself ([`CompositeShape::surface_ray`]): its grid walk finds the
//!    crossing from the ray's height above the surface, with no per-triangle test.
//! 2. **Convex query per piece.** The ordinary convex query (GJK/EPA [`crate::contact`], the
//!    [`crate::manifold3`]/[`crate::manifold2`] dispatchers, [`crate::shape_cast`]) runs on the
//!    piece placed by `pose_a · pose_piece`. A surface's triangle or segment, stored in the
//!    composite's frame, is first moved to its own centre (and its pose to match), so that the
//!    query works on coordinates of the piece's size however far it lies from the composite's
//!    origin. Triangle pieces take a closed-form ray test (Möller and Trumbore, "Fast, Minimum
//!    Storage Ray/Triangle Intersection", 1997), and a box meets them through the separating
//!    axis test ([`crate::manifold::contact_triangle_cuboid`]): in a manifold, and in the single
//!    contact whenever the two penetrate (GJK still measures the distance of a box apart). A
//!    capsule's manifold with a triangle is the closest points of its core and the triangle in
//!    closed form ([`crate::manifold::contact_triangle_capsule`]); its single contact still runs
//!    GJK/EPA.
//! 3. **Combine.** The smallest separation (or time of impact, or ray parameter) wins; a
//!    manifold merges the pieces' contacts that share the deepest piece's normal and keeps the
//!    best four (3D) or two (2D). In 3D the contacts that touch come first: four or more of them
//!    are reduced by [`kollide_manifold::reduce_to_four`] (the deepest, then the largest area),
//!    and fewer are kept with the shallowest of the others, so that a body lying across many
//!    triangles is held by contacts that touch rather than by speculative ones far apart.
//!
//! **Internal edges.** On a triangle piece whose contact comes from an edge or vertex that the
//! composite marks inactive ([`CompositeShape::active_edges`]; see the heightfield's module docs
//! for the rule, after Jolt's active edges and Box2D's ghost vertices), the contact is rebuilt
//! along the triangle's face normal: B's feature facing the triangle is clipped against the
//! triangle's prism ([`crate::manifold::clip_reference_face`]); a single contact is rebuilt the
//! same way from B's deepest point along the face normal. When nothing of B lies over the
//! triangle, the piece keeps its own contact: on a flat or concave edge the neighbour's face
//! contact is deeper and wins (the merged normal is the deepest contact's), and on a gently
//! bent convex edge the edge's normal tilts by less than the bend. So a box sliding over a flat
//! tessellated floor
//! only ever sees the floor's normal.
//!
//! **Feature ids.** A piece's own feature ids (a triangle's `Face(0)`, `Edge(k)`, `Vertex(k)`,
//! a child's ids) are shifted by `piece · FEATURE_STRIDE` ([`CompositeShape::FEATURE_STRIDE`]),
//! so that contacts on different pieces never share an id and warm starting matches each
//! contact to its own piece.
//!
//! **Conventions.** The composite is shape A (at `pos_a`), the convex shape is B: normals point
//! from the composite towards the convex shape. Flip the result for the other order.

mod body;
mod chain;
mod manifold;
mod piece;
mod query;
mod toi;

pub use body::BodyQueries;
pub use manifold::{
    composite_manifold2, composite_manifold3, compound_manifold2, compound_manifold3,
};
pub use piece::{Piece2, Piece3, PieceRay};
pub use query::{
    composite_closest_points, composite_contact, composite_distance, composite_intersection_test,
    composite_ray_cast, composite_shape_cast,
};
pub use toi::{composite_time_of_impact, pair_intersection_test, pair_time_of_impact, piece_sweep};

use kollide_shapes::{CompositeShape, FeatureId};

/// A piece's feature id shifted into the composite's id space (see the module docs).
#[inline]
pub(crate) fn piece_feature<N, const D: usize, C>(piece: u32, id: FeatureId) -> FeatureId
where
    N: kollide_math::Scalar,
    C: CompositeShape<N, D> + ?Sized,
{
    let shift = piece.wrapping_mul(C::FEATURE_STRIDE);
    match id {
        FeatureId::Vertex(i) => FeatureId::Vertex(i.wrapping_add(shift)),
        FeatureId::Edge(i) => FeatureId::Edge(i.wrapping_add(shift)),
        FeatureId::Face(i) => FeatureId::Face(i.wrapping_add(shift)),
        FeatureId::Unknown => FeatureId::Unknown,
    }
}
