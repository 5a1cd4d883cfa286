//! The polytope view of a shape's core: its vertices, face normals and edges, for the exact
//! separating-axis fallback of the narrowphase.
//!
//! GJK and EPA need only support points, which is what makes them general. When rounding stalls
//! them on a nearly degenerate pair (identical or nested boxes, slivers, a 10⁴:1 size ratio in
//! `f32`), a pair of polytopes still has an exact answer: the separating-axis test over every
//! face normal (edge normal in 2D) of both shapes and, in 3D, every cross product of an edge of
//! one with an edge of the other. [`Polytope`] lists exactly those candidates; a shape whose core
//! is a polytope returns itself from [`SupportMap::polytope`](crate::SupportMap::polytope).
//!
//! The view is read only on the fallback path, so it favours simplicity over speed: indexed
//! accessors, computed on demand.

use kollide_math::{Point, Scalar, Vector};

/// A convex polytope core: vertices, outward face normals and (3D) edges, in the local frame.
///
/// Normals need not be unit length; every face of the core must be listed (a flat shape lists
/// its plane once, either side). In 2D the faces are the edges and [`Self::edge_count`] is `0`.
pub trait Polytope<N: Scalar, const D: usize> {
    /// The number of vertices.
    fn vertex_count(&self) -> usize;
    /// Vertex `i`, for `i < vertex_count()`.
    fn vertex(&self, i: usize) -> Point<N, D>;
    /// The number of face normals.
    fn normal_count(&self) -> usize;
    /// The outward normal of face `i` (any positive length).
    fn normal(&self, i: usize) -> Vector<N, D>;
    /// The number of edges whose directions SAT crosses in 3D (`0` in 2D). Parallel edges may be
    /// listed once.
    fn edge_count(&self) -> usize {
        0
    }
    /// The end points of edge `i`, as vertex indices.
    fn edge(&self, i: usize) -> [usize; 2] {
        let _ = i;
        [0, 0]
    }
    /// The number of edges of the boundary, each listed (`0` in 2D). A pair apart can have its
    /// closest points on a vertex and any edge, where the separating axis test needs only one
    /// edge per direction.
    fn boundary_edge_count(&self) -> usize {
        self.edge_count()
    }
    /// The end points of boundary edge `i` (see [`Self::boundary_edge_count`]), as vertex
    /// indices.
    fn boundary_edge(&self, i: usize) -> [usize; 2] {
        self.edge(i)
    }
    /// The shape itself when it is a [`ConvexPolyhedron`](crate::ConvexPolyhedron), whose face
    /// and edge adjacency lets the exact test of large pairs walk its Gauss map instead of
    /// trying every axis against every vertex.
    fn polyhedron(&self) -> Option<&crate::ConvexPolyhedron<N>> {
        None
    }
    /// Whether the vertices, in index order, go counter-clockwise around a 2D polygon: the
    /// exact test of large 2D pairs then finds each support point by walking the loop from the
    /// previous one instead of scanning every vertex.
    fn is_ccw_loop(&self) -> bool {
        false
    }
}

/// The 2D normal of the edge `a → b` of a counter-clockwise polygon, or the 3D normal of the
/// triangle `a, b, c` (generic over `D` for the shapes that are).
fn face_normal<N: Scalar, const D: usize>(
    a: &Point<N, D>,
    b: &Point<N, D>,
    c: &Point<N, D>,
) -> Vector<N, D> {
    let (u, v) = (b - a, c - a);
    let mut n = Vector::zeros();
    if D == 2 {
        n[0] = u[1];
        n[1] = -u[0];
    } else {
        n[0] = u[1] * v[2] - u[2] * v[1];
        n[1] = u[2] * v[0] - u[0] * v[2];
        n[2] = u[0] * v[1] - u[1] * v[0];
    }
    n
}

impl<N: Scalar, const D: usize> Polytope<N, D> for crate::Cuboid<N, D> {
    fn vertex_count(&self) -> usize {
        1 << D
    }
    fn vertex(&self, i: usize) -> Point<N, D> {
        // Vertices in bit order, except in 2D, where SAT does not care about the order either.
        crate::Cuboid::vertex(self, i as u32)
    }
    fn normal_count(&self) -> usize {
        D
    }
    fn normal(&self, i: usize) -> Vector<N, D> {
        let mut n = Vector::zeros();
        n[i] = N::one();
        n
    }
    fn edge_count(&self) -> usize {
        if D == 3 { 3 } else { 0 }
    }
    fn edge(&self, i: usize) -> [usize; 2] {
        // Vertex 0 is (−,−,−); flipping bit `i` moves along axis `i`.
        [0, 1 << i]
    }
    fn boundary_edge_count(&self) -> usize {
        if D == 3 { 12 } else { 0 }
    }
    fn boundary_edge(&self, i: usize) -> [usize; 2] {
        // Four edges along each axis `k`, from the vertices whose bit `k` is clear: the other
        // two bits of such a vertex are those of `j`, spread around bit `k`.
        let (k, j) = (i / 4, i % 4);
        let low = j & ((1 << k) - 1);
        let v = ((j >> k) << (k + 1)) | low;
        [v, v | (1 << k)]
    }
}

impl<N: Scalar, const D: usize> Polytope<N, D> for crate::Triangle<N, D> {
    fn vertex_count(&self) -> usize {
        3
    }
    fn vertex(&self, i: usize) -> Point<N, D> {
        crate::Triangle::vertex(self, i as u32)
    }
    fn normal_count(&self) -> usize {
        if D == 2 { 3 } else { 1 }
    }
    fn normal(&self, i: usize) -> Vector<N, D> {
        let p = |k: usize| crate::Triangle::vertex(self, (k % 3) as u32);
        face_normal(&p(i), &p(i + 1), &p(i + 2))
    }
    fn edge_count(&self) -> usize {
        if D == 3 { 3 } else { 0 }
    }
    fn edge(&self, i: usize) -> [usize; 2] {
        [i, (i + 1) % 3]
    }
}

impl<N: Scalar> Polytope<N, 2> for crate::ConvexPolygon<N> {
    fn vertex_count(&self) -> usize {
        self.len()
    }
    fn vertex(&self, i: usize) -> Point<N, 2> {
        crate::ConvexPolygon::vertex(self, i)
    }
    fn normal_count(&self) -> usize {
        self.len()
    }
    fn normal(&self, i: usize) -> Vector<N, 2> {
        self.edge_normal(i).into_inner()
    }
    fn is_ccw_loop(&self) -> bool {
        true
    }
}

impl<N: Scalar> Polytope<N, 3> for crate::ConvexPolyhedron<N> {
    fn vertex_count(&self) -> usize {
        self.vertices().len()
    }
    fn vertex(&self, i: usize) -> Point<N, 3> {
        self.vertices()[i]
    }
    fn normal_count(&self) -> usize {
        self.num_faces()
    }
    fn normal(&self, i: usize) -> Vector<N, 3> {
        self.face_normal(i).into_inner()
    }
    fn edge_count(&self) -> usize {
        self.edges().len()
    }
    fn edge(&self, i: usize) -> [usize; 2] {
        let e = self.edges()[i].vertices;
        [e[0] as usize, e[1] as usize]
    }
    fn polyhedron(&self) -> Option<&crate::ConvexPolyhedron<N>> {
        Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::Vec3;

    #[test]
    fn a_box_lists_each_of_its_twelve_edges() {
        let b = crate::Cuboid::new(Vec3::new(1.0, 2.0, 3.0)).unwrap();
        let p: &dyn Polytope<f64, 3> = &b;
        let mut edges: Vec<[usize; 2]> =
            (0..p.boundary_edge_count()).map(|i| p.boundary_edge(i)).collect();
        for &[s, e] in &edges {
            // Along one axis, the box's full length on it.
            assert_eq!((s ^ e).count_ones(), 1, "{s} {e}");
            let k = (s ^ e).trailing_zeros() as usize;
            let d = p.vertex(e) - p.vertex(s);
            assert!((d[k] - 2.0 * b.half_extents()[k]).abs() < 1e-12, "{s} {e}");
        }
        edges.sort();
        edges.dedup();
        assert_eq!(edges.len(), 12);
    }
}
