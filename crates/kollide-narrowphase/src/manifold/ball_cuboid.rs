//! A ball against a box, in the box's frame.
//!
//! Clamp the ball's centre `c` to the box: `q = clamp(c, −h, h)`. When `c` is outside, `q` is the
//! closest point of the box and the normal runs from `q` to `c`; the number of clamped axes says
//! whether `q` is on a face (one), an edge (two) or a vertex (three), which gives the box's
//! feature id. When `c` is inside (`q = c`), the ball is pushed out through the nearest face: the
//! axis with the largest `|cᵢ| − hᵢ`, on the side of the sign of `cᵢ` (zero counts as positive,
//! the [`Cuboid`] convention; ties go to the lower axis). This is the manifold seed's
//! "AABB to circle" case, with the change of basis it describes for oriented boxes.
//!
//! Feature ids of the box: `Face(2·axis + side)` and `Vertex(i)` in the [`Cuboid`] numbering,
//! `Edge(i)` in the numbering of `ConvexPolyhedron::from_cuboid` (see
//! [`cuboid_edge_id`](super::cuboid_edge_id)).

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_shapes::{Cuboid, FeatureId};

use super::cuboid_cuboid::cuboid_edge_id;

/// The manifold of a ball (A, radius `ra`, centred at `pos_a`'s origin) and a box (B).
pub fn contact_ball_cuboid<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    ra: N,
    pos_b: &Iso3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    let c = pos_b.inverse_transform_point(&Point3::from(pos_a.translation.vector));
    let h = b.half_extents();
    let mut q = c;
    let mut clamped = 0u32; // bit i: axis i was clamped
    for i in 0..3 {
        if c[i] > h[i] {
            q[i] = h[i];
            clamped |= 1 << i;
        } else if c[i] < -h[i] {
            q[i] = -h[i];
            clamped |= 1 << i;
        }
    }
    let (normal, core_sep, feature) = if clamped == 0 {
        // Inside: the nearest face.
        let mut axis = 0;
        for i in 1..3 {
            if c[i].abs() - h[i] > c[axis].abs() - h[axis] {
                axis = i;
            }
        }
        let positive = c[axis] >= N::zero();
        let mut n = Vec3::zeros();
        n[axis] = if positive { N::one() } else { -N::one() };
        q[axis] = if positive { h[axis] } else { -h[axis] };
        let face = 2 * axis as u32 + u32::from(!positive);
        (n, c[axis].abs() - h[axis], FeatureId::Face(face))
    } else {
        let d = c - q;
        let dist = d.norm();
        let count = clamped.count_ones();
        let vertex = b.support_vertex_index(&(q.coords));
        let feature = match count {
            1 => {
                let axis = clamped.trailing_zeros() as usize;
                FeatureId::Face(2 * axis as u32 + u32::from(c[axis] < N::zero()))
            }
            2 => {
                let axis = (!clamped & 7).trailing_zeros();
                let lo = vertex & !(1 << axis);
                FeatureId::Edge(cuboid_edge_id(lo, axis))
            }
            _ => FeatureId::Vertex(vertex),
        };
        // `dist > 0` because some axis was clamped strictly.
        (d / dist, dist, feature)
    };
    let sep = core_sep - ra;
    if sep > margin {
        return Manifold::new();
    }
    // Built from B to the ball, then expressed from A (the ball) to B.
    let on_a = c - normal * ra;
    let world_n = pos_b.rotation * normal;
    let mut m = Manifold::with_normal(-world_n);
    let id = ContactId::new(FeatureId::Face(0), feature);
    m.push(Contact::new(pos_b * on_a, pos_b * q, sep, id));
    m
}
