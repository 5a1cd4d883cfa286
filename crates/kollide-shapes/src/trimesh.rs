//! [`TriMesh`]: a surface of triangles given as vertices and index triples, with a static
//! bounding-volume tree and precomputed active edges.
//!
//! **A surface, not a solid.** Like a [`HeightField`](crate::HeightField), a mesh is the union
//! of its triangles, each flat and two-sided: a shape overlapping a triangle is pushed out of
//! it, a shape entirely inside a closed mesh touches nothing. The winding of a triangle `(a, b,
//! c)` chooses its **front** side, the side `(b − a) × (c − a)` points to (counter-clockwise seen
//! from the front, as kollide's convention for faces); the active-edge rule below judges creases
//! from the front.
//!
//! **Mid-phase: a static tree.** The triangles' bounding boxes go into one [`Tree`] built once,
//! top down, by the binned surface-area heuristic (MacDonald and Booth, "Heuristics for ray
//! tracing using space subdivision", 1990; Wald's binning, 2007; see [`crate::tree`]). A query
//! box visits the triangles whose boxes it overlaps in about `log n` node tests; a ray visits
//! the boxes it enters, nearer subtrees first. The tree's leaves are the triangles' indices,
//! which are the pieces' indices of the [`CompositeShape`].
//!
//! **Adjacency.** At construction every edge is keyed by its two vertex indices (smaller
//! first); sorting the keys (a counting sort on the smaller index, then the few edges of each
//! vertex by the larger) brings the triangles sharing an edge together. An edge of one
//! triangle is a **boundary**; an edge of two is **shared**; an edge of three or more is
//! **non-manifold**. Edges are matched by index, not by position: weld duplicate vertices before
//! building, or every seam is a boundary.
//!
//! **Active edges (no ghost collisions).** The rule of the heightfield, shared with it
//! (Rouwé's active edges in Jolt; Catto's ghost vertices in Box2D, see the heightfield's module
//! docs): a shared edge is active only where its two triangles meet in a convex crease sharper
//! than [`CREASE_ANGLE`](crate::CREASE_ANGLE); flat, concave and gently bent shared edges are
//! inactive, and a contact there takes the triangle's face normal. A vertex is active when
//! one of the triangle's two edges at it is. Boundary edges are active (nothing continues the
//! surface). Two choices where the surface is ambiguous, both keeping the real normal rather
//! than hiding a feature:
//!
//! * a **non-manifold** edge (three or more triangles) is active in all of them;
//! * a shared edge whose two triangles are **wound inconsistently** (the edge runs the same way
//!   in both, so their fronts face opposite sides) is active in both.
//!
//! The flags are 3 bits per triangle, read through [`CompositeShape::active_edges`].

use core::ops::ControlFlow;

use kollide_math::{Iso3, Point, Point3, Scalar, Vector};
use thiserror::Error;

use crate::active_edge::shared_edge_is_active;
use crate::tree::Tree;
use crate::{Aabb, CompositeShape, ShapeError, Triangle};

/// No neighbour across an edge (a boundary or non-manifold edge).
const NO_NEIGHBOUR: u32 = u32::MAX;

/// The most triangles a mesh holds: piece indices times the feature stride (4) must fit a
/// `u32`, and the tree numbers its leaves with `u32`s.
const MAX_TRIANGLES: usize = 1 << 30;

/// Why a [`TriMesh`] could not be built. Every variant names the triangle or vertex at fault.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum TriMeshError {
    /// No triangles were given.
    #[error("a triangle mesh needs at least one triangle")]
    Empty,
    /// More than 2^30 triangles.
    #[error("a triangle mesh holds at most 2^30 triangles, got {0}")]
    TooManyTriangles(usize),
    /// A vertex has a NaN or infinite coordinate.
    #[error("vertex {vertex} is not finite")]
    NonFiniteVertex {
        /// Index of the vertex.
        vertex: usize,
    },
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle} names vertex {index}, but there are {vertex_count} vertices")]
    IndexOutOfRange {
        /// Index of the triangle.
        triangle: usize,
        /// The index given.
        index: u32,
        /// The number of vertices.
        vertex_count: usize,
    },
    /// A triangle names the same vertex twice.
    #[error("triangle {triangle} names vertex {index} twice")]
    RepeatedIndex {
        /// Index of the triangle.
        triangle: usize,
        /// The repeated vertex index.
        index: u32,
    },
    /// A triangle's corners coincide or lie on one line (within the relative tolerance of
    /// [`Triangle::new`]).
    #[error("triangle {triangle} has (nearly) zero area")]
    ZeroArea {
        /// Index of the triangle.
        triangle: usize,
    },
    /// A vertex coordinate is beyond `Scalar::MAX_COORDINATE`, or a triangle's longest edge
    /// is outside `Scalar::MIN_SIZE ..= 2 · Scalar::MAX_SIZE`.
    #[error("{what} is {value}, beyond the limit {limit} of this scalar type's envelope")]
    OutOfEnvelope {
        /// What was out of range, e.g. `"vertex 3 coordinate"` or `"triangle 7 longest edge"`.
        what: String,
        /// The value.
        value: f64,
        /// The limit it broke.
        limit: f64,
    },
}

/// A triangle mesh (see the module docs): vertices, index triples, a static tree over the
/// triangles and their active edges.
///
/// ```
/// use kollide_math::Point3;
/// use kollide_shapes::{CompositeShape, TriMesh, TriMeshError};
/// // A unit square of two triangles, facing +y.
/// let vertices = vec![
///     Point3::new(0.0f64, 0.0, 0.0),
///     Point3::new(0.0, 0.0, 1.0),
///     Point3::new(1.0, 0.0, 1.0),
///     Point3::new(1.0, 0.0, 0.0),
/// ];
/// let mesh = TriMesh::new(vertices.clone(), vec![[0, 1, 2], [0, 2, 3]]).unwrap();
/// assert_eq!(mesh.triangle_count(), 2);
/// // The diagonal is shared and flat: inactive in both; the outer edges are active.
/// assert_eq!(mesh.active_edges(0), Some(0b011));
/// assert_eq!(mesh.neighbour(0, 2), Some((1, 0)));
/// let bad = TriMesh::new(vertices, vec![[0, 1, 4]]);
/// assert!(matches!(bad, Err(TriMeshError::IndexOutOfRange { triangle: 0, index: 4, .. })));
/// ```
#[derive(Clone, Debug)]
pub struct TriMesh<N: Scalar> {
    vertices: Vec<Point3<N>>,
    indices: Vec<[u32; 3]>,
    /// The triangles, in the mesh's frame (one copy, so a query reads one piece contiguously).
    triangles: Vec<Triangle<N, 3>>,
    /// Per triangle and edge: `neighbour << 2 | its edge`, or [`NO_NEIGHBOUR`].
    neighbours: Vec<[u32; 3]>,
    /// Per triangle: bit `k` set when edge `k` is active.
    active: Vec<u8>,
    tree: Tree<N, 3>,
    aabb: Aabb<N, 3>,
}

impl<N: Scalar> TriMesh<N> {
    /// A mesh of the triangles `indices` over `vertices` (each triple names three distinct
    /// vertices; its order chooses the front side, see the module docs).
    ///
    /// Fails with [`TriMeshError::Empty`] without triangles, [`TriMeshError::NonFiniteVertex`],
    /// [`TriMeshError::IndexOutOfRange`], [`TriMeshError::RepeatedIndex`],
    /// [`TriMeshError::ZeroArea`] and [`TriMeshError::OutOfEnvelope`] naming the first vertex
    /// or triangle at fault, and [`TriMeshError::TooManyTriangles`] beyond 2^30 triangles.
    /// Vertices no triangle names are checked too.
    pub fn new(vertices: Vec<Point3<N>>, indices: Vec<[u32; 3]>) -> Result<Self, TriMeshError> {
        if indices.is_empty() {
            return Err(TriMeshError::Empty);
        }
        if indices.len() > MAX_TRIANGLES {
            return Err(TriMeshError::TooManyTriangles(indices.len()));
        }
        check_vertices(&vertices)?;
        let triangles = indices
            .iter()
            .enumerate()
            .map(|(t, idx)| make_triangle(&vertices, t, idx))
            .collect::<Result<Vec<_>, _>>()?;
        let boxes: Vec<Aabb<N, 3>> = triangles.iter().map(triangle_aabb).collect();
        let aabb = boxes.iter().skip(1).fold(boxes[0], |acc, b| acc.merged(b));
        // Every box is finite and ordered and there are fewer than 2^31: the build succeeds.
        let tree = Tree::build(&boxes).map_err(|_| TriMeshError::TooManyTriangles(boxes.len()))?;
        let neighbours = adjacency(&indices, vertices.len());
        let mut mesh =
            Self { vertices, indices, triangles, neighbours, active: Vec::new(), tree, aabb };
        mesh.active =
            (0..mesh.triangles.len() as u32).map(|t| mesh.triangle_active_edges(t)).collect();
        Ok(mesh)
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Point3<N>] {
        &self.vertices
    }

    /// The index triples, one per triangle.
    pub fn indices(&self) -> &[[u32; 3]] {
        &self.indices
    }

    /// The number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// Triangle `piece`, in the mesh's frame. Panics when `piece ≥ triangle_count()`.
    pub fn triangle(&self, piece: u32) -> Triangle<N, 3> {
        self.triangles[piece as usize]
    }

    /// The static tree over the triangles' boxes (leaf data: triangle indices).
    pub fn tree(&self) -> &Tree<N, 3> {
        &self.tree
    }

    /// The triangle across edge `k` of triangle `piece`, with the index of the shared edge in
    /// it, or `None` on a boundary or non-manifold edge.
    pub fn neighbour(&self, piece: u32, k: u32) -> Option<(u32, u32)> {
        let packed = self.neighbours[piece as usize][k as usize];
        (packed != NO_NEIGHBOUR).then_some((packed >> 2, packed & 3))
    }

    /// The active-edge bits of triangle `piece` (see the module docs).
    fn triangle_active_edges(&self, piece: u32) -> u8 {
        let mut bits = 0u8;
        for k in 0..3u32 {
            let active = match self.neighbour(piece, k) {
                None => true,
                Some((other, k_other)) => {
                    let (t, u) = (self.indices[piece as usize], self.indices[other as usize]);
                    // Consistent winding: the edge runs the other way in the neighbour.
                    let consistent = t[k as usize] == u[(k_other as usize + 1) % 3];
                    !consistent
                        || shared_edge_is_active(
                            &self.triangle(piece),
                            k,
                            &self.triangle(other),
                            k_other,
                        )
                }
            };
            if active {
                bits |= 1 << k;
            }
        }
        bits
    }
}

/// Fails on the first non-finite vertex or coordinate beyond the envelope.
fn check_vertices<N: Scalar>(vertices: &[Point3<N>]) -> Result<(), TriMeshError> {
    for (vertex, p) in vertices.iter().enumerate() {
        if !p.coords.iter().all(|x| x.is_finite_value()) {
            return Err(TriMeshError::NonFiniteVertex { vertex });
        }
        let m = p.coords.amax();
        if m > N::MAX_COORDINATE {
            return Err(TriMeshError::OutOfEnvelope {
                what: format!("vertex {vertex} coordinate"),
                value: m.to_f64(),
                limit: N::MAX_COORDINATE.to_f64(),
            });
        }
    }
    Ok(())
}

/// Triangle `t` of the mesh, validated as [`Triangle::new`] validates (the errors renamed to
/// name the triangle).
fn make_triangle<N: Scalar>(
    vertices: &[Point3<N>],
    t: usize,
    idx: &[u32; 3],
) -> Result<Triangle<N, 3>, TriMeshError> {
    for &index in idx {
        if index as usize >= vertices.len() {
            return Err(TriMeshError::IndexOutOfRange {
                triangle: t,
                index,
                vertex_count: vertices.len(),
            });
        }
    }
    for (i, j) in [(0, 1), (1, 2), (0, 2)] {
        if idx[i] == idx[j] {
            return Err(TriMeshError::RepeatedIndex { triangle: t, index: idx[i] });
        }
    }
    let [a, b, c] = idx.map(|i| vertices[i as usize]);
    Triangle::new(a, b, c).map_err(|e| match e {
        ShapeError::OutOfEnvelope { what, value, limit } => {
            TriMeshError::OutOfEnvelope { what: format!("triangle {t} {what}"), value, limit }
        }
        // Coincident corners, collinear corners (vertices are already known to be finite).
        _ => TriMeshError::ZeroArea { triangle: t },
    })
}

fn triangle_aabb<N: Scalar>(t: &Triangle<N, 3>) -> Aabb<N, 3> {
    let [a, b, c] = t.vertices();
    Aabb::new(a.inf(&b).inf(&c), a.sup(&b).sup(&c))
}

/// Per triangle and edge, the neighbour across it packed as `triangle << 2 | edge`, or
/// [`NO_NEIGHBOUR`] for boundary and non-manifold edges. The edges are bucketed by their smaller
/// vertex index (a counting sort, linear in the number of edges) and sorted by the larger one
/// within each bucket (a few edges), so that the triangles sharing an edge are adjacent.
fn adjacency(indices: &[[u32; 3]], vertex_count: usize) -> Vec<[u32; 3]> {
    let ends = |idx: &[u32; 3], k: usize| {
        let (u, v) = (idx[k], idx[(k + 1) % 3]);
        (u.min(v) as usize, u.max(v))
    };
    let mut start = vec![0usize; vertex_count + 1];
    for idx in indices {
        for k in 0..3 {
            start[ends(idx, k).0 + 1] += 1;
        }
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut edges = vec![(0u32, 0u32); 3 * indices.len()];
    for (t, idx) in indices.iter().enumerate() {
        for k in 0..3 {
            let (lo, hi) = ends(idx, k);
            edges[fill[lo]] = (hi, (t as u32) << 2 | k as u32);
            fill[lo] += 1;
        }
    }
    let mut out = vec![[NO_NEIGHBOUR; 3]; indices.len()];
    for v in 0..vertex_count {
        let bucket = &mut edges[start[v]..start[v + 1]];
        bucket.sort_unstable();
        for group in bucket.chunk_by(|x, y| x.0 == y.0) {
            if let [(_, p), (_, q)] = group {
                out[(p >> 2) as usize][(p & 3) as usize] = *q;
                out[(q >> 2) as usize][(q & 3) as usize] = *p;
            }
        }
    }
    out
}

impl<N: Scalar> CompositeShape<N, 3> for TriMesh<N> {
    type Pose = Iso3<N>;
    type Piece = Triangle<N, 3>;
    const FEATURE_STRIDE: u32 = 4;

    fn local_aabb(&self) -> Aabb<N, 3> {
        self.aabb
    }

    fn piece_count(&self) -> usize {
        self.triangles.len()
    }

    fn visit_pieces_in<F>(&self, aabb: &Aabb<N, 3>, f: F) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> ControlFlow<()>,
    {
        crate::composite::visit_tree_pieces_in(&self.tree, &self.triangles, aabb, f)
    }

    /// The triangles whose boxes the segment enters, nearer subtrees first.
    fn visit_pieces_along_ray<F>(
        &self,
        origin: &Point<N, 3>,
        dir: &Vector<N, 3>,
        max_t: N,
        f: F,
    ) -> ControlFlow<()>
    where
        F: FnMut(u32, Option<&Self::Pose>, &Self::Piece) -> Option<N>,
    {
        crate::composite::visit_tree_pieces_along_ray(
            &self.tree,
            &self.triangles,
            (origin, dir, max_t),
            f,
        )
    }

    fn active_edges(&self, piece: u32) -> Option<u8> {
        Some(self.active[piece as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point3<f64> {
        Point3::new(x, y, z)
    }

    /// A ridge: two triangles meeting along the z axis at an angle, `drop` below on both sides.
    fn ridge(drop: f64, flip_second: bool) -> TriMesh<f64> {
        let v = vec![p(0.0, 0.0, 0.0), p(0.0, 0.0, 1.0), p(1.0, -drop, 0.5), p(-1.0, -drop, 0.5)];
        let second = if flip_second { [0, 1, 3] } else { [1, 0, 3] };
        // Triangle 0 (0, 1, 2) faces +y; its edge 0 (0 → 1) is the ridge.
        TriMesh::new(v, vec![[0, 1, 2], second]).unwrap()
    }

    #[test]
    fn crease_rule() {
        // Flat: inactive; a sharp convex ridge: active; a valley (concave): inactive.
        let ridge_bit = |drop, flip| ridge(drop, flip).active_edges(0).unwrap() & 1;
        assert_eq!(ridge_bit(0.0, false), 0);
        assert_eq!(ridge_bit(0.5, false), 1);
        assert_eq!(ridge_bit(-0.5, false), 0);
        // A bend below the crease angle is flat.
        assert_eq!(ridge_bit(0.005, false), 0);
        // Inconsistent winding: active, even when flat.
        assert_eq!(ridge_bit(0.0, true), 1);
        assert_eq!(ridge(0.0, false).neighbour(0, 0), Some((1, 0)));
        // The boundary edges are active.
        assert_eq!(ridge(0.0, false).active_edges(1), Some(0b110));
    }

    /// The neighbours against a search over every pair of triangles, on a grid with a fan of
    /// extra triangles on one edge (non-manifold) and a vertex no triangle uses.
    #[test]
    fn adjacency_matches_a_pair_search() {
        let n = 6;
        let mut v: Vec<Point3<f64>> = (0..(n + 1) * (n + 1))
            .map(|k| p((k % (n + 1)) as f64, ((k * 7) % 5) as f64 * 0.1, (k / (n + 1)) as f64))
            .collect();
        let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
        let mut idx = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let (a, b, c, d) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
                if (i + j) % 2 == 0 {
                    idx.extend([[a, c, b], [c, d, b]]);
                } else {
                    idx.extend([[a, c, d], [a, d, b]]);
                }
            }
        }
        v.push(p(0.5, 3.0, 0.5));
        v.push(p(9.0, 9.0, 9.0));
        idx.push([at(0, 0), at(0, 1), (v.len() - 2) as u32]);
        let mesh = TriMesh::new(v, idx.clone()).unwrap();
        let key = |t: usize, k: usize| {
            let (a, b) = (idx[t][k], idx[t][(k + 1) % 3]);
            (a.min(b), a.max(b))
        };
        let mut shared = 0;
        for t in 0..idx.len() {
            for k in 0..3 {
                let others: Vec<(u32, u32)> = (0..idx.len())
                    .flat_map(|u| (0..3).map(move |m| (u, m)))
                    .filter(|&(u, m)| u != t && key(u, m) == key(t, k))
                    .map(|(u, m)| (u as u32, m as u32))
                    .collect();
                let expected = if others.len() == 1 { Some(others[0]) } else { None };
                assert_eq!(mesh.neighbour(t as u32, k as u32), expected, "triangle {t} edge {k}");
                shared += usize::from(expected.is_some());
            }
        }
        assert!(shared > 100);
    }

    #[test]
    fn non_manifold_edges_are_active() {
        // Three flat-ish triangles on the edge 0–1: no neighbour, active in all.
        let v = vec![p(0.0, 0.0, 0.0), p(0.0, 0.0, 1.0), p(1.0, 0.0, 0.5), p(-1.0, 0.0, 0.5)];
        let v = [v, vec![p(-1.0, 0.01, 0.4)]].concat();
        let mesh = TriMesh::new(v, vec![[0, 1, 2], [1, 0, 3], [0, 1, 4]]).unwrap();
        for t in 0..3 {
            assert_eq!(mesh.neighbour(t, 0), None);
            assert_eq!(mesh.active_edges(t).unwrap() & 1, 1);
        }
        // The same two first triangles alone share a flat, inactive edge.
        let two = TriMesh::new(mesh.vertices().to_vec(), vec![[0, 1, 2], [1, 0, 3]]).unwrap();
        assert_eq!(two.active_edges(0).unwrap() & 1, 0);
    }

    #[test]
    fn every_error_names_its_culprit() {
        let v = || vec![p(0.0, 0.0, 0.0), p(0.0, 0.0, 1.0), p(1.0, 0.0, 0.5), p(2.0, 0.0, 1.0)];
        let new = |v: Vec<Point3<f64>>, i: Vec<[u32; 3]>| TriMesh::new(v, i).map(|_| ());
        assert_eq!(new(v(), vec![]), Err(TriMeshError::Empty));
        let mut bad = v();
        bad[3].y = f64::NAN;
        assert_eq!(new(bad, vec![[0, 1, 2]]), Err(TriMeshError::NonFiniteVertex { vertex: 3 }));
        assert_eq!(
            new(v(), vec![[0, 1, 2], [0, 1, 7]]),
            Err(TriMeshError::IndexOutOfRange { triangle: 1, index: 7, vertex_count: 4 })
        );
        assert_eq!(
            new(v(), vec![[0, 1, 2], [2, 3, 2]]),
            Err(TriMeshError::RepeatedIndex { triangle: 1, index: 2 })
        );
        // Collinear corners: (0, 0, 0), (1, 0, 0.5), (2, 0, 1).
        assert_eq!(
            new(v(), vec![[0, 1, 2], [0, 2, 3]]),
            Err(TriMeshError::ZeroArea { triangle: 1 })
        );
        // Two distinct indices at the same place.
        let mut dup = v();
        dup[3] = dup[1];
        assert_eq!(new(dup, vec![[0, 3, 1]]), Err(TriMeshError::ZeroArea { triangle: 0 }));
        let mut far = v();
        far[2].x = 1e11;
        assert!(matches!(
            new(far, vec![[0, 1, 3]]),
            Err(TriMeshError::OutOfEnvelope { what, .. }) if what == "vertex 2 coordinate"
        ));
        let tiny = vec![p(0.0, 0.0, 0.0), p(1e-8, 0.0, 0.0), p(0.0, 0.0, 1e-8)];
        assert!(matches!(
            new(tiny, vec![[0, 1, 2]]),
            Err(TriMeshError::OutOfEnvelope { what, .. }) if what.starts_with("triangle 0")
        ));
    }
}
