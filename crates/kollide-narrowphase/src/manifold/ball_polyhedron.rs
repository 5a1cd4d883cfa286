//! A ball against a convex polyhedron.
//!
//! In the polyhedron's frame, find the face whose plane the ball's centre `c` is farthest in front
//! of: `s = maxᵢ nᵢ · (c − vᵢ)`. If `s ≤ 0` the centre is inside, that face is the nearest one
//! (for a point inside a convex polyhedron, the distance to the boundary is the smallest plane
//! distance), and the ball is pushed out through it. Otherwise the closest point of the polyhedron
//! to `c` comes from GJK on the ball's core (a point) and the polyhedron — exact, no EPA — and the
//! radius is subtracted.
//!
//! The polyhedron's feature id names where the closest point `q` lies: a face whose plane is the
//! only one through `q`, an edge when two are, a vertex when more are (planes "through" `q`
//! within a small tolerance of the polyhedron's size).

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso3, Point3, Scalar};
use kollide_shapes::{ConvexPolyhedron, FeatureId, SupportMap};

use super::assemble3::UNKNOWN_ID;

/// The manifold of a ball (A, radius `ra`, centred at `pos_a`'s origin) and a convex polyhedron
/// (B).
pub fn contact_ball_polyhedron<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    ra: N,
    pos_b: &Iso3<N>,
    b: &ConvexPolyhedron<N>,
    margin: N,
) -> Manifold<N, 3, U> {
    let c = pos_b.inverse_transform_point(&Point3::from(pos_a.translation.vector));
    let mut best = (-N::MAX, 0usize);
    for i in 0..b.num_faces() {
        let v = b.vertices()[b.face(i)[0] as usize];
        let s = b.face_normal(i).dot(&(c - v));
        if s > best.0 {
            best = (s, i);
        }
    }
    let (s, face) = best;
    if s - ra > margin {
        return Manifold::new();
    }
    if s <= N::zero() {
        let n = b.face_normal(face).into_inner();
        let on_b = c - n * s;
        let world_n = pos_b.rotation * n;
        let mut m = Manifold::with_normal(-world_n);
        let id = ContactId::new(FeatureId::Face(0), FeatureId::Face(face as u32));
        m.push(Contact::new(pos_b * (c - n * ra), pos_b * on_b, s - ra, id));
        return m;
    }
    // Outside: exact closest points of the centre and the polyhedron.
    let ball = Sphere(ra);
    let mut m = super::assemble3::exact_contact(pos_a, &ball, pos_b, b, margin, UNKNOWN_ID);
    if let Some(k) = m.contacts_mut().first_mut() {
        let q = pos_b.inverse_transform_point(&k.point_b);
        k.id = ContactId::new(FeatureId::Face(0), closest_feature(b, &q, face));
    }
    m
}

/// A point grown by a radius (any radius, even zero, unlike a validated `Ball`).
struct Sphere<N>(N);

impl<N: Scalar> SupportMap<N, 3> for Sphere<N> {
    fn local_core_support(&self, _dir: &kollide_math::Vec3<N>) -> Point3<N> {
        Point3::origin()
    }

    fn radius(&self) -> N {
        self.0
    }
}

/// The feature of `poly` that the boundary point `q` lies on (see the module docs); `face` is
/// the answer when only one plane passes through `q`.
fn closest_feature<N: Scalar>(poly: &ConvexPolyhedron<N>, q: &Point3<N>, face: usize) -> FeatureId {
    let size = poly.vertices().iter().fold(N::zero(), |m, v| m.max_of(v.coords.norm()));
    let tol = N::lit(1e-6).max_of(N::EPSILON.sqrt()) * size;
    let mut on: [usize; 2] = [face, face];
    let mut count = 0;
    for i in 0..poly.num_faces() {
        let v = poly.vertices()[poly.face(i)[0] as usize];
        if poly.face_normal(i).dot(&(q - v)).abs() <= tol {
            if count < 2 {
                on[count] = i;
            }
            count += 1;
        }
    }
    match count {
        0 | 1 => FeatureId::Face(face as u32),
        2 => poly
            .edges()
            .iter()
            .position(|e| {
                (e.faces[0] as usize, e.faces[1] as usize) == (on[0], on[1])
                    || (e.faces[1] as usize, e.faces[0] as usize) == (on[0], on[1])
            })
            .map_or(FeatureId::Face(face as u32), |e| FeatureId::Edge(e as u32)),
        _ => {
            let mut best = (N::MAX, 0usize);
            for (i, v) in poly.vertices().iter().enumerate() {
                let d = (v - q).norm_squared();
                if d < best.0 {
                    best = (d, i);
                }
            }
            FeatureId::Vertex(best.1 as u32)
        }
    }
}
