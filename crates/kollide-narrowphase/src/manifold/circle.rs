//! Circles against circles and against (rounded) polygons.
//!
//! * **Circle–circle.** The normal joins the centres; the separation is their distance minus the
//!   radii. When the centres coincide the normal is A's local +x axis (a fixed, documented choice:
//!   any direction is as good, and a fixed one is stable from frame to frame).
//! * **Circle–polygon.** In the polygon's frame, find the edge whose plane the centre is farthest
//!   in front of. If the centre is inside the polygon, that edge is the nearest face and the circle
//!   is pushed out through it. Otherwise the centre is in the Voronoi region of that edge or of one
//!   of its two end vertices, and the normal is the edge normal or the direction from the vertex
//!   (the distance seed's circle–polygon case; Box2D's `b2CollidePolygonAndCircle`).

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso2, Point2, Scalar, Vec2};
use kollide_shapes::FeatureId;

use super::polygon::PolygonView;

/// The manifold of two circles (radii `ra`, `rb`, centred at their poses' origins).
pub fn contact_circles<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    ra: N,
    pos_b: &Iso2<N>,
    rb: N,
    margin: N,
) -> Manifold<N, 2, U> {
    let ca = Point2::from(pos_a.translation.vector);
    let cb = Point2::from(pos_b.translation.vector);
    let d = cb - ca;
    let dist = d.norm();
    let sep = dist - ra - rb;
    if sep > margin {
        return Manifold::new();
    }
    let normal = if dist > N::zero() { d / dist } else { pos_a.rotation * Vec2::x() };
    let mut m = Manifold::with_normal(normal);
    let id = ContactId::new(FeatureId::Face(0), FeatureId::Face(0));
    m.push(Contact::new(ca + normal * ra, cb - normal * rb, sep, id));
    m
}

/// The manifold of a circle (A, radius `ra`) and a (rounded) polygon (B).
pub fn contact_circle_polygon<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    ra: N,
    pos_b: &Iso2<N>,
    b: &PolygonView<'_, N>,
    margin: N,
) -> Manifold<N, 2, U> {
    // Work in B's frame.
    let c = pos_b.inverse_transform_point(&Point2::from(pos_a.translation.vector));
    let radius = ra + b.radius;
    let n = b.vertices.len();
    let mut best = (-N::MAX, 0usize);
    for i in 0..n {
        let s = b.normals[i].dot(&(c - b.vertices[i]));
        if s > best.0 {
            best = (s, i);
        }
    }
    let (s, i) = best;
    if s > radius + margin {
        return Manifold::new();
    }
    let v1 = b.vertices[i];
    let v2 = b.vertices[(i + 1) % n];
    let face_n = b.normals[i].into_inner();
    // Feature of B and the normal from B to the circle.
    let (feature, normal, core_sep) = if s <= N::zero() {
        (FeatureId::Edge(i as u32), face_n, s)
    } else if (c - v1).dot(&(v2 - v1)) <= N::zero() && (c - v1).norm() > N::zero() {
        let d = c - v1;
        (FeatureId::Vertex(i as u32), d / d.norm(), d.norm())
    } else if (c - v2).dot(&(v1 - v2)) <= N::zero() && (c - v2).norm() > N::zero() {
        let d = c - v2;
        (FeatureId::Vertex(((i + 1) % n) as u32), d / d.norm(), d.norm())
    } else {
        (FeatureId::Edge(i as u32), face_n, s)
    };
    let sep = core_sep - radius;
    if sep > margin {
        return Manifold::new();
    }
    // Built as polygon (B) → circle (A), then expressed from A to B.
    let on_b = c - normal * core_sep + normal * b.radius;
    let on_a = c - normal * ra;
    let world_n = pos_b.rotation * normal;
    let mut m = Manifold::with_normal(-world_n);
    let id = ContactId::new(FeatureId::Face(0), feature);
    m.push(Contact::new(pos_b * on_a, pos_b * on_b, sep, id));
    m
}
