//! Two balls (3D): the normal joins the centres, the separation is their distance minus the radii.
//!
//! When the centres coincide any direction is as good as another; the manifold uses A's local
//! +x axis (as [`super::contact_circles`] does in 2D): a fixed, documented choice, stable from
//! frame to frame. The contact id is `(Face(0), Face(0))`, the single face of a smooth shape.

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_shapes::FeatureId;

/// The manifold of two balls (radii `ra`, `rb`, centred at their poses' origins), with a contact
/// when their separation is at most `margin`.
///
/// ```
/// use kollide_math::Iso3;
/// use kollide_narrowphase::manifold::contact_balls;
/// let m = contact_balls::<f64, ()>(&Iso3::identity(), 1.0, &Iso3::translation(1.5, 0.0, 0.0),
///                                  1.0, 0.0);
/// assert!((m.contacts()[0].separation + 0.5).abs() < 1e-12);
/// ```
pub fn contact_balls<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    ra: N,
    pos_b: &Iso3<N>,
    rb: N,
    margin: N,
) -> Manifold<N, 3, U> {
    let ca = Point3::from(pos_a.translation.vector);
    let cb = Point3::from(pos_b.translation.vector);
    let d = cb - ca;
    let dist = d.norm();
    let sep = dist - ra - rb;
    if sep > margin {
        return Manifold::new();
    }
    let normal = if dist > N::zero() { d / dist } else { pos_a.rotation * Vec3::x() };
    let mut m = Manifold::with_normal(normal);
    let id = ContactId::new(FeatureId::Face(0), FeatureId::Face(0));
    m.push(Contact::new(ca + normal * ra, cb - normal * rb, sep, id));
    m
}
