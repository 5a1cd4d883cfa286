//! Feature ids and supporting features.
//!
//! A *feature* is a vertex, an edge or a face of a shape. Contact generation clips the feature of
//! A that faces B against the feature of B that faces A, and labels every contact point with the
//! features it came from, so that next frame's contacts can be matched to this frame's (warm
//! starting). [`FeatureId`] is that label; [`SupportFeature`] is the geometry of one feature.

use kollide_math::{Point, Scalar, Vector};
use smallvec::SmallVec;

/// Which vertex, edge or face of a shape a point or a contact comes from.
///
/// Indices are the shape's own: vertex `i` of a polygon is `vertices()[i]`, edge `i` of a polygon
/// runs from vertex `i` to vertex `i + 1`, face `i` of a polyhedron is `faces()[i]`. Smooth shapes
/// (a ball) have a single face `0`; `Unknown` is for points without a feature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureId {
    /// A vertex, by index.
    Vertex(u32),
    /// An edge, by index.
    Edge(u32),
    /// A face, by index.
    Face(u32),
    /// No feature is known.
    #[default]
    Unknown,
}

/// Inline capacity of a [`SupportFeature`]: faces with more vertices spill to the heap.
pub const FEATURE_INLINE: usize = 8;

/// The feature of a shape that best faces a direction: one vertex, an edge (two points) or a face
/// (a convex polygon, counter-clockwise when seen from outside, i.e. from the direction).
///
/// Points are in the shape's local frame unless a function says otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct SupportFeature<N: Scalar, const D: usize> {
    /// The feature's id on its shape.
    pub id: FeatureId,
    /// The feature's vertices: 1 for a vertex, 2 for an edge, 3 or more for a face.
    pub vertices: SmallVec<[Point<N, D>; FEATURE_INLINE]>,
    /// The id of each vertex (`FeatureId::Vertex(i)`, or `Unknown` for generated points such as
    /// the ends of a cylinder's side segment).
    pub vertex_ids: SmallVec<[FeatureId; FEATURE_INLINE]>,
}

impl<N: Scalar, const D: usize> SupportFeature<N, D> {
    /// An empty feature, to be filled by [`SupportFeatureMap::local_support_feature`].
    pub fn new() -> Self {
        Self { id: FeatureId::Unknown, vertices: SmallVec::new(), vertex_ids: SmallVec::new() }
    }

    /// Clears the feature and sets its id, keeping the storage.
    pub fn reset(&mut self, id: FeatureId) {
        self.id = id;
        self.vertices.clear();
        self.vertex_ids.clear();
    }

    /// Appends a vertex with its id.
    pub fn push(&mut self, p: Point<N, D>, id: FeatureId) {
        self.vertices.push(p);
        self.vertex_ids.push(id);
    }

    /// Maps every vertex through `f` (for example a pose).
    pub fn transform(&mut self, f: impl Fn(&Point<N, D>) -> Point<N, D>) {
        for v in self.vertices.iter_mut() {
            *v = f(v);
        }
    }
}

impl<N: Scalar, const D: usize> Default for SupportFeature<N, D> {
    fn default() -> Self {
        Self::new()
    }
}

/// Shapes that can report the feature that best faces a direction.
pub trait SupportFeatureMap<N: Scalar, const D: usize> {
    /// Writes into `out` the feature of the shape (in its local frame, without any rounding
    /// radius) whose outward normal is closest to `dir`.
    ///
    /// For polygons and polyhedra this is always a face (an edge in 2D): the face whose normal
    /// maximises `normal · dir`, ties broken towards the lowest index. Round parts report a
    /// vertex (a ball's centre) or a segment (a capsule's axis when `dir` is nearly perpendicular
    /// to it). `dir` need not be normalised but must not be zero.
    fn local_support_feature(&self, dir: &Vector<N, D>, out: &mut SupportFeature<N, D>);
}
