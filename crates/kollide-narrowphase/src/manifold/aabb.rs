//! Two axis-aligned boxes: the axis of least overlap gives the normal, and the overlap of the
//! two boxes on the other axis gives the two contact points (the corners of the contact area).

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Point2, Scalar, Vec2};
use kollide_shapes::{Aabb, FeatureId};

/// The manifold of two axis-aligned boxes (world coordinates), with contacts up to `margin`
/// apart. Ties between the axes go to x. Feature ids: the face of A (`Face(2·axis + side)`, the
/// cuboid numbering) paired with `Vertex(0)` for the low end of the overlap interval and
/// `Vertex(1)` for its high end.
pub fn contact_aabbs<N: Scalar, U: Copy + Default>(
    a: &Aabb<N, 2>,
    b: &Aabb<N, 2>,
    margin: N,
) -> Manifold<N, 2, U> {
    let ca = a.center();
    let cb = b.center();
    let ha = a.half_extents();
    let hb = b.half_extents();
    let d = cb - ca;
    // Separation along each axis (negative = overlap).
    let sx = d.x.abs() - (ha.x + hb.x);
    let sy = d.y.abs() - (ha.y + hb.y);
    let axis = if sy > sx { 1 } else { 0 };
    let sep = if axis == 0 { sx } else { sy };
    if sep > margin {
        return Manifold::new();
    }
    let sign = if d[axis] >= N::zero() { N::one() } else { -N::one() };
    let mut normal = Vec2::zeros();
    normal[axis] = sign;
    let other = 1 - axis;
    let lo = a.mins[other].max_of(b.mins[other]);
    let hi = a.maxs[other].min_of(b.maxs[other]);
    let face_a = 2 * axis as u32 + u32::from(sign < N::zero());
    let face_coord_a = if sign > N::zero() { a.maxs[axis] } else { a.mins[axis] };
    let face_coord_b = if sign > N::zero() { b.mins[axis] } else { b.maxs[axis] };
    let mut m = Manifold::with_normal(normal);
    for (k, t) in [lo, hi].into_iter().enumerate() {
        if k == 1 && hi <= lo {
            break;
        }
        let mut pa = Point2::origin();
        pa[axis] = face_coord_a;
        pa[other] = t;
        let mut pb = pa;
        pb[axis] = face_coord_b;
        let id = ContactId::new(FeatureId::Face(face_a), FeatureId::Vertex(k as u32));
        m.push(Contact::new(pa, pb, sep, id));
    }
    m
}
