//! Two capsules (3D): the closest points of their axis segments, and two contacts when the axes
//! are nearly parallel and overlap.
//!
//! A capsule is a segment grown by a radius, so the distance between two capsules is the distance
//! between their segments minus the radii, which [`segments_closest`] gives in closed form. The
//! normal joins the closest points of the segments, made perpendicular to the axis of each
//! segment whose closest point is interior (as the `contact` query's closed form makes it):
//! rounding moves such a point along its axis, and for two long, nearly parallel capsules in
//! `f32` that tilted the normal by 1e-4 rad, so that the capsules overlapped along it by twice
//! the depth reported.
//!
//! **Parallel axes.** One contact is not enough for a capsule lying along another one: it would
//! rock about the single point. When the axes are parallel within [`PARALLEL_SIN`] (the sine of
//! the angle between them) and their projections on A's axis overlap, B's axis is clipped to A's
//! extent and each end of the overlap gives a contact, measured along the common normal (the
//! 2D seed's clipping of an incident edge against a reference edge's side planes, in 3D). A
//! contact whose separation exceeds the margin is dropped, so a capsule touching another with one
//! end only gets one contact.
//!
//! **Intersecting axes.** When the segments meet (the closest points coincide) the normal is the
//! cross product of the axis directions, oriented from A's centre towards B's; for parallel axes
//! that meet, the component of the centres' offset perpendicular to A's axis, or if that is zero,
//! a fixed perpendicular of A's axis (the first vector of
//! [`orthonormal_basis`](kollide_math::geom::orthonormal_basis)): fixed choices, stable between
//! frames.
//!
//! Feature ids: `Vertex(0)`/`Vertex(1)` for a segment's end, `Edge(0)` for its interior.

use kollide_manifold::{ContactId, Manifold};
use kollide_math::{Iso3, Point3, Pose, Scalar, geom};
use kollide_shapes::{Capsule, FeatureId};

use super::segment_closest::{
    OverlapEnd, clip_parallel_segments, overlap_end_contact, segments_closest,
};

/// Axes whose directions make an angle with a sine below this are treated as parallel (about
/// 0.6°), giving two contacts where they overlap.
pub const PARALLEL_SIN: f64 = 1e-2;

/// The manifold of two capsules placed at `pos_a` and `pos_b`, with contacts up to `margin` apart,
/// in world coordinates.
pub fn contact_capsules<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Capsule<N, 3>,
    pos_b: &Iso3<N>,
    b: &Capsule<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    // Work in A's frame.
    let pos_ab = pos_a.inv_compose(pos_b);
    let (p1, p2) = (a.segment().a(), a.segment().b());
    let (q1, q2) = (pos_ab * b.segment().a(), pos_ab * b.segment().b());
    let radii = a.radius() + b.radius();
    let (s, t, pa, pb) = segments_closest(&p1, &p2, &q1, &q2);
    let d = pb - pa;
    let dist = d.norm();
    if dist - radii > margin {
        return Manifold::new();
    }
    let ua = (p2 - p1).normalize();
    let ub = (q2 - q1).normalize();
    let scale = (p2 - p1).norm().max_of((q2 - q1).norm()).max_of(radii);
    let tiny = N::EPSILON * N::lit(16.0) * scale.max_of(N::one());
    let cross = ua.cross(&ub);
    let cross_len = cross.norm();
    let centres = nalgebra::center(&q1, &q2) - nalgebra::center(&p1, &p2);
    // Rounding of the closest points along an axis they are interior to tilts `d`.
    let perp = if dist > tiny {
        crate::segment_cores::off_interiors(d, [(&[p1, p2], &pa), (&[q1, q2], &pb)], tiny)
    } else {
        d
    };
    let normal = if dist > tiny && perp.norm() > tiny {
        perp.normalize()
    } else if cross_len > N::lit(PARALLEL_SIN) {
        let n = cross / cross_len;
        if n.dot(&centres) < N::zero() { -n } else { n }
    } else {
        let w = centres - ua * ua.dot(&centres);
        let wl = w.norm();
        if wl > tiny { w / wl } else { geom::orthonormal_basis(&ua).0 }
    };
    let end_id = |x: N| {
        if x <= N::zero() {
            FeatureId::Vertex(0)
        } else if x >= N::one() {
            FeatureId::Vertex(1)
        } else {
            FeatureId::Edge(0)
        }
    };
    let contact = |qa: Point3<N>, qb: Point3<N>, id: ContactId| {
        overlap_end_contact(&qa, &qb, &normal, (a.radius(), b.radius()), id)
    };
    if cross_len <= N::lit(PARALLEL_SIN) {
        // Overlaps shorter than this give one contact: two would nearly coincide.
        let overlap_min = super::assemble3::bias_tolerance(scale, scale);
        let mut two = Manifold::with_normal(normal);
        let clipped =
            clip_parallel_segments(&p1, &p2, &q1, &q2, &ua, overlap_min, |qa, qb, end| {
                let id = match end {
                    OverlapEnd::P(k) => ContactId::new(FeatureId::Vertex(k), FeatureId::Edge(0)),
                    OverlapEnd::Q(k) => ContactId::new(FeatureId::Edge(0), FeatureId::Vertex(k)),
                };
                let c = contact(qa, qb, id);
                if c.separation <= margin {
                    two.push(c);
                }
            });
        if clipped && !two.is_empty() {
            return super::assemble3::to_world(two, pos_a);
        }
    }
    // One contact at the closest points, B's moved onto the normal through A's (by rounding).
    let mut m = Manifold::with_normal(normal);
    let on_b = pa + normal * normal.dot(&d);
    m.push(contact(pa, on_b, ContactId::new(end_id(s), end_id(t))));
    super::assemble3::to_world(m, pos_a)
}
