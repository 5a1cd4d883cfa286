//! The active-edge rule shared by the surfaces made of triangles ([`HeightField`](crate::HeightField),
//! [`TriMesh`](crate::TriMesh)): which internal edges may give a contact a normal of its own.
//!
//! An edge between two triangles is **active** only where the surface really creases outward
//! there: the two triangles meet in a convex crease (the neighbour's far corner lies below this
//! triangle's plane, seen from the side its normal points to) and their normals differ by more
//! than [`CREASE_ANGLE`]. Flat, concave and gently bent edges are inactive: a contact there
//! takes the triangle's face normal (Rouwé, "Jolt Physics: active edges", after Bullet's
//! internal-edge utility). Boundary edges, which no neighbour continues, are always active.
//! See the heightfield's module docs for why this removes ghost collisions.

use kollide_math::Scalar;

use crate::Triangle;

/// A convex edge bent by more than this angle (radians, about 1°) between its two faces'
/// normals is a real crease: a contact there keeps its own normal. Gentler bends are treated as
/// flat (see the module docs of [`HeightField`](crate::HeightField)).
pub const CREASE_ANGLE: f64 = 0.0175;

/// Whether edge `k` of `t` (from vertex `k` to `k + 1`), shared with edge `k_other` of its
/// neighbour `u`, is active. The two must be wound consistently (the shared edge runs in
/// opposite directions in them), so that their normals point to the same side of the surface.
pub(crate) fn shared_edge_is_active<N: Scalar>(
    t: &Triangle<N, 3>,
    k: u32,
    u: &Triangle<N, 3>,
    k_other: u32,
) -> bool {
    let (n, m) = (t.normal(), u.normal());
    let opposite = u.vertex((k_other + 2) % 3);
    // Convex when the neighbour's far vertex lies below this triangle's plane.
    let convex = n.dot(&(opposite - t.vertex(k))) < N::zero();
    convex && n.dot(&m) < N::lit(CREASE_ANGLE.cos())
}
