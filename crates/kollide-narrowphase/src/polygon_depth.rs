//! Exact penetration depth of two convex polygons through their Minkowski difference.
//!
//! The Minkowski difference `A − B` of two convex polygons is a convex polygon whose edges are
//! the edges of A and the (negated) edges of B. So its face closest to the origin has the normal of
//! one of those edges, and the distance to that face is, for an edge of A with outward normal `n`
//! through vertex `aᵢ`:
//!
//! ```text
//! separation(n) = min over b ∈ B of n · (b − aᵢ)     (B's support vertex in −n)
//! ```
//!
//! and symmetrically for the edges of B. The largest separation over all axes is the signed
//! distance along the best separating axis: negative (minus the exact penetration depth) when the
//! polygons overlap. This is the brute-force method of the distance seed; it costs
//! `O(n·m)` dot products and serves both as SAT for 2D manifolds and as the oracle EPA is tested
//! against. When the polygons are apart, the result is the SAT separation: a lower bound on the
//! distance that equals it unless the closest features are two vertices.

use kollide_math::{Iso2, Pose, Scalar, Vec2};
use kollide_shapes::ConvexPolygon;

/// Which polygon an axis belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// Shape A.
    A,
    /// Shape B.
    B,
}

/// The best separating axis of two convex polygons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonSeparation<N: Scalar> {
    /// Signed separation along the axis: negative (minus the depth) when overlapping.
    pub separation: N,
    /// Unit normal from A to B, in world space.
    pub normal: Vec2<N>,
    /// The polygon whose edge gives the axis.
    pub owner: Owner,
    /// That edge's index on its polygon.
    pub edge: usize,
}

/// The largest separation of B from A over the edge normals of A, in A's frame, with B at
/// `pos_ab`. Returns `(separation, edge index)`; ties go to the lowest index.
pub fn max_edge_separation<N: Scalar>(
    a: &ConvexPolygon<N>,
    b: &ConvexPolygon<N>,
    pos_ab: &Iso2<N>,
) -> (N, usize) {
    let mut best = (-N::MAX, 0);
    for (i, n) in a.normals().iter().enumerate() {
        let n_in_b = pos_ab.inverse_transform_vector(n);
        let v = b.vertex(b.support_vertex(&-n_in_b));
        let sep = n.dot(&(pos_ab.transform_point(&v) - a.vertex(i)));
        if sep > best.0 {
            best = (sep, i);
        }
    }
    best
}

/// The exact signed separation of two convex polygons (minus the penetration depth when they
/// overlap) with its axis, by SAT over every edge normal of both.
///
/// ```
/// use kollide_math::{Iso2, Vec2};
/// use kollide_shapes::ConvexPolygon;
/// use kollide_narrowphase::polygon_separation;
/// let sq = ConvexPolygon::from_box(Vec2::new(1.0f64, 1.0)).unwrap();
/// let s = polygon_separation(&Iso2::identity(), &sq, &Iso2::translation(1.5, 0.2), &sq);
/// assert!((s.separation + 0.5).abs() < 1e-12);
/// assert!((s.normal - Vec2::x()).norm() < 1e-12);
/// ```
pub fn polygon_separation<N: Scalar>(
    pos_a: &Iso2<N>,
    a: &ConvexPolygon<N>,
    pos_b: &Iso2<N>,
    b: &ConvexPolygon<N>,
) -> PolygonSeparation<N> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let pos_ba = pos_ab.inverse();
    let (sa, ia) = max_edge_separation(a, b, &pos_ab);
    let (sb, ib) = max_edge_separation(b, a, &pos_ba);
    if sb > sa {
        // B's edge normal points from B to A; the contact normal is its opposite.
        let n = pos_b.transform_vector(&b.edge_normal(ib));
        PolygonSeparation { separation: sb, normal: -n, owner: Owner::B, edge: ib }
    } else {
        let n = pos_a.transform_vector(&a.edge_normal(ia));
        PolygonSeparation { separation: sa, normal: n, owner: Owner::A, edge: ia }
    }
}
