//! A ball against a capsule: the ball's centre against the capsule's axis segment.
//!
//! The closest point `q` of the capsule's segment to the ball's centre `c` gives the normal
//! (from `q` to `c`) and the separation `|c − q| − r_ball − r_capsule`: exact, closed form. When
//! the centre lies on the axis the normal is a fixed direction perpendicular to the segment (the
//! first vector of [`orthonormal_basis`](kollide_math::geom::orthonormal_basis) of its
//! direction, in the capsule's frame), so that it does not change from frame to frame.
//!
//! The capsule's feature id is `Vertex(0)` or `Vertex(1)` when `q` is an end of the segment (the
//! ball touches a round cap) and `Edge(0)` otherwise (the cylindrical side).

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso3, Point3, Scalar, geom};
use kollide_shapes::{Capsule, FeatureId};

use super::segment_closest::segment_point_closest;

/// The manifold of a ball (A, radius `ra`, centred at `pos_a`'s origin) and a capsule (B).
pub fn contact_ball_capsule<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    ra: N,
    pos_b: &Iso3<N>,
    b: &Capsule<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    let c = pos_b.inverse_transform_point(&Point3::from(pos_a.translation.vector));
    let (s0, s1) = (b.segment().a(), b.segment().b());
    let (t, q) = segment_point_closest(&s0, &s1, &c);
    let axis = (s1 - s0).normalize();
    let mut d = c - q;
    if t > N::zero() && t < N::one() {
        // Beside the segment `d` is perpendicular to it, up to rounding that matters when the
        // centre is near the axis: there a tilted normal would put the capsule's point inside
        // it, off its side. Any perpendicular direction is right, so the rounding is removed.
        d -= axis * axis.dot(&d);
    }
    let dist = d.norm();
    let sep = dist - ra - b.radius();
    if sep > margin {
        return Manifold::new();
    }
    let normal = if dist > N::zero() { d / dist } else { geom::orthonormal_basis(&axis).0 };
    let feature = if t <= N::zero() {
        FeatureId::Vertex(0)
    } else if t >= N::one() {
        FeatureId::Vertex(1)
    } else {
        FeatureId::Edge(0)
    };
    let world_n = pos_b.rotation * normal;
    let mut m = Manifold::with_normal(-world_n);
    let id = ContactId::new(FeatureId::Face(0), feature);
    m.push(Contact::new(pos_b * (c - normal * ra), pos_b * (q + normal * b.radius()), sep, id));
    m
}
