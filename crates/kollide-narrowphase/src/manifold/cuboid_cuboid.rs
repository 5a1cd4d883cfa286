//! Two boxes, by the separating axis test over 15 axes and clipping.
//!
//! 1. **SAT.** In A's frame, with B's rotation `R` (columns `bⱼ`, B's axes) and translation `t`,
//!    the separation of the boxes along a unit axis `L` is
//!    `|t · L| − Σₖ hAₖ |eₖ · L| − Σₖ hBₖ |bₖ · L|` (the distance between the centres along `L`
//!    minus the two boxes' projected radii; Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996;
//!    Ericson, *Real-Time Collision Detection*, §4.4.1). The candidate axes are A's three face
//!    normals `eᵢ`, B's three `bⱼ`, and the nine edge–edge cross products `eᵢ × bⱼ`
//!    (normalised; pairs of parallel edges, whose cross product is nearly zero, are skipped: they
//!    are covered by the face axes). Boxes are convex polyhedra, so the largest separation over
//!    these axes is the exact signed distance when they overlap. If any exceeds `margin`, there
//!    is no contact.
//! 2. **Biased choice.** A's best face axis is kept unless B's best face axis beats it by the
//!    bias tolerance (1e-4 of the boxes' size, [`kollide_math::geom::biased_greater`]); the best
//!    edge axis must beat the winner by the same amount. When two axes are nearly tied, as for a
//!    box resting on an equal box, the same face keeps winning from frame to frame, and A's face
//!    over B's, so reference faces do not flip. The reported depth may then be deeper than the
//!    exact one by at most the tolerance.
//! 3. **Face contact.** The reference face is the winner's face towards the other box; the
//!    incident face is the other box's face most anti-parallel to the reference normal. The
//!    incident quad is clipped against the reference face's four side planes
//!    ([`super::clip_reference_face`]), points above the margin are dropped, and up to eight
//!    points are reduced to four ([`kollide_manifold::reduce_to_four`]).
//! 4. **Edge contact.** For an edge axis `L` (oriented from A to B) the edges are those of A's
//!    support vertex in `+L` along `eᵢ` and of B's support vertex in `−L` along `bⱼ`; the one
//!    contact is at their closest points.
//!
//! If clipping leaves nothing (rounding, with every incident point just outside a side plane),
//! the manifold falls back to the exact GJK/EPA contact: it is never empty for boxes that touch.
//!
//! **Feature ids.** Faces `Face(2·axis + side)` and vertices `Vertex(i)` use the [`Cuboid`]
//! numbering; edges use the numbering of
//! [`ConvexPolyhedron::from_cuboid`](kollide_shapes::ConvexPolyhedron::from_cuboid) (see
//! [`cuboid_edge_id`]), so a box and its polyhedron twin name their features alike.

use kollide_manifold::{ContactId, Manifold};
use kollide_math::{Iso3, Mat3, Point3, Pose, Scalar, Tolerances, Vec3, geom};
use kollide_shapes::{Cuboid, FeatureId, SupportFeature, SupportFeatureMap};

use super::assemble3::{
    Candidates, UNKNOWN_ID, bias_tolerance, ensure_depth, exact_contact, to_world,
};
use super::face_clip::{IncidentFeature, ReferenceFace, clip_reference_face};
use super::segment_closest::segments_closest;

/// The index of the box edge from vertex `lo` (whose bit `axis` is clear) to vertex
/// `lo | 1 << axis`, in the numbering of
/// [`ConvexPolyhedron::from_cuboid`](kollide_shapes::ConvexPolyhedron::from_cuboid): the twelve
/// edges sorted by their vertex pair.
///
/// ```
/// use kollide_narrowphase::manifold::cuboid_edge_id;
/// assert_eq!(cuboid_edge_id(0, 0), 0); // (0, 1)
/// assert_eq!(cuboid_edge_id(6, 0), 11); // (6, 7)
/// ```
pub fn cuboid_edge_id(lo: u32, axis: u32) -> u32 {
    let hi = lo | (1 << axis);
    let mut index = 0;
    for a in 0..8u32 {
        for i in 0..3 {
            if a & (1 << i) == 0 {
                if (a, a | (1 << i)) == (lo, hi) {
                    return index;
                }
                index += 1;
            }
        }
    }
    index
}

/// The winning axis of the SAT.
#[derive(Clone, Copy, Debug)]
enum Axis<N: Scalar> {
    /// Face of A on `axis`; the normal from A to B is `sign · e_axis`.
    FaceA { axis: usize, sign: N },
    /// Face of B on `axis`; the normal from A to B is `sign · b_axis`.
    FaceB { axis: usize, sign: N },
    /// Edge of A along `i` and of B along `j`; `normal` from A to B in A's frame.
    Edge { i: usize, j: usize, normal: Vec3<N> },
}

/// The manifold of two boxes placed at `pos_a` and `pos_b`, with contacts up to `margin` apart,
/// in world coordinates. See the module docs.
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::Cuboid;
/// use kollide_narrowphase::manifold::contact_cuboids;
/// let ground = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap();
/// let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
/// let m = contact_cuboids::<f64, ()>(&Iso3::translation(0.0, -0.5, 0.0), &ground,
///                                    &Iso3::translation(0.0, 0.49, 0.0), &cube, 0.0);
/// assert_eq!(m.len(), 4); // a cube resting on the ground touches at its four bottom corners
/// ```
pub fn contact_cuboids<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Cuboid<N, 3>,
    pos_b: &Iso3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let r: Mat3<N> = pos_ab.rotation.to_rotation_matrix().into_inner();
    let t = pos_ab.translation.vector;
    let (ha, hb) = (a.half_extents, b.half_extents);
    let abs_r = r.abs();
    let sign_of = |x: N| if x >= N::zero() { N::one() } else { -N::one() };

    // A's faces.
    let mut best_a = (-N::MAX, 0usize);
    for i in 0..3 {
        let rb = hb.x * abs_r[(i, 0)] + hb.y * abs_r[(i, 1)] + hb.z * abs_r[(i, 2)];
        let sep = t[i].abs() - ha[i] - rb;
        if sep > best_a.0 {
            best_a = (sep, i);
        }
    }
    if best_a.0 > margin {
        return Manifold::new();
    }
    // B's faces.
    let mut best_b = (-N::MAX, 0usize);
    for j in 0..3 {
        let ra = ha.x * abs_r[(0, j)] + ha.y * abs_r[(1, j)] + ha.z * abs_r[(2, j)];
        let sep = t.dot(&r.column(j)).abs() - ra - hb[j];
        if sep > best_b.0 {
            best_b = (sep, j);
        }
    }
    if best_b.0 > margin {
        return Manifold::new();
    }
    // Edge pairs.
    let parallel = Tolerances::<N>::default().parallel_cosine;
    let mut best_e: Option<(N, usize, usize, Vec3<N>)> = None;
    for i in 0..3 {
        let mut e = Vec3::zeros();
        e[i] = N::one();
        for j in 0..3 {
            let l = e.cross(&r.column(j));
            let len = l.norm();
            if len <= parallel {
                continue;
            }
            let l = l / len;
            let ra = ha.x * l.x.abs() + ha.y * l.y.abs() + ha.z * l.z.abs();
            let rb = (0..3).fold(N::zero(), |s, k| s + hb[k] * l.dot(&r.column(k)).abs());
            let d = t.dot(&l);
            let sep = d.abs() - ra - rb;
            if sep > margin {
                return Manifold::new();
            }
            if best_e.is_none_or(|b| sep > b.0) {
                best_e = Some((sep, i, j, l * sign_of(d)));
            }
        }
    }

    let tol = bias_tolerance(ha.norm(), hb.norm());
    // The exact separation: the largest over all axes.
    let exact = best_e.map_or(best_a.0.max_of(best_b.0), |e| e.0.max_of(best_a.0).max_of(best_b.0));
    let one = N::one();
    let mut axis = Axis::FaceA { axis: best_a.1, sign: sign_of(t[best_a.1]) };
    let mut sep = best_a.0;
    if geom::biased_greater(best_b.0, sep, one, tol) {
        let j = best_b.1;
        axis = Axis::FaceB { axis: j, sign: sign_of(t.dot(&r.column(j))) };
        sep = best_b.0;
    }
    if let Some((se, i, j, normal)) = best_e
        && geom::biased_greater(se, sep, one, tol)
    {
        axis = Axis::Edge { i, j, normal };
    }

    let m = match axis {
        Axis::FaceA { axis, sign } => {
            let mut n = Vec3::zeros();
            n[axis] = sign;
            face_contact(a, b, &pos_ab, &n, margin, tol).map(|m| to_world(m, pos_a))
        }
        Axis::FaceB { axis, sign } => {
            // Built in B's frame with B as the reference, then flipped.
            let mut n = Vec3::zeros();
            n[axis] = -sign;
            let pos_ba = pos_ab.inverse();
            face_contact(b, a, &pos_ba, &n, margin, tol).map(|m| to_world(m, pos_b).flipped())
        }
        Axis::Edge { i, j, normal } => {
            edge_contact(a, b, &pos_ab, &r, i, j, &normal, margin).map(|m| to_world(m, pos_a))
        }
    };
    match m {
        Some(m) if !m.is_empty() => {
            ensure_depth(m, exact, tol * N::lit(1e-2), pos_a, a, pos_b, b, margin)
        }
        _ => exact_contact(pos_a, a, pos_b, b, margin, UNKNOWN_ID),
    }
}

/// The four corners of a box face with their ids and the ids of its edges.
struct BoxFace<N: Scalar> {
    vertices: [Point3<N>; 4],
    vertex_ids: [FeatureId; 4],
    edge_ids: [FeatureId; 4],
    id: FeatureId,
}

fn box_face<N: Scalar>(c: &Cuboid<N, 3>, dir: &Vec3<N>) -> BoxFace<N> {
    let mut f = SupportFeature::new();
    c.local_support_feature(dir, &mut f);
    let vertices = core::array::from_fn(|k| f.vertices[k]);
    let vertex_ids = core::array::from_fn(|k| f.vertex_ids[k]);
    let index = |id: FeatureId| if let FeatureId::Vertex(v) = id { v } else { 0 };
    let edge_ids = core::array::from_fn(|k| {
        let (u, v) = (index(f.vertex_ids[k]), index(f.vertex_ids[(k + 1) % 4]));
        let diff = u ^ v;
        FeatureId::Edge(cuboid_edge_id(u & v, diff.trailing_zeros()))
    });
    BoxFace { vertices, vertex_ids, edge_ids, id: f.id }
}

/// The face contact with `r` as the reference (in `r`'s frame), `inc` placed by `pos_ri`, and
/// `n` the reference face's outward normal. The manifold is in `r`'s frame, from `r` to `inc`.
fn face_contact<N: Scalar, U: Copy + Default>(
    r: &Cuboid<N, 3>,
    inc: &Cuboid<N, 3>,
    pos_ri: &Iso3<N>,
    n: &Vec3<N>,
    margin: N,
    slack: N,
) -> Option<Manifold<N, 3, U>> {
    let rf = box_face(r, n);
    let mut fi = box_face(inc, &pos_ri.inverse_transform_vector(&-n));
    for v in fi.vertices.iter_mut() {
        *v = pos_ri * *v;
    }
    let reference = ReferenceFace {
        vertices: &rf.vertices,
        vertex_ids: &rf.vertex_ids,
        edge_ids: &rf.edge_ids,
        normal: *n,
        id: rf.id,
        radius: N::zero(),
    };
    let incident = IncidentFeature {
        vertices: &fi.vertices,
        vertex_ids: &fi.vertex_ids,
        edge_ids: &fi.edge_ids,
        id: fi.id,
        radius: N::zero(),
    };
    let mut cands = Candidates::new();
    clip_reference_face(&reference, &incident, n, margin, slack, &mut cands);
    Some(cands.into_manifold(*n))
}

/// The edge contact of A's edge along `i` and B's along `j` (manifold in A's frame).
fn edge_contact<N: Scalar, U: Copy + Default>(
    a: &Cuboid<N, 3>,
    b: &Cuboid<N, 3>,
    pos_ab: &Iso3<N>,
    r: &Mat3<N>,
    i: usize,
    j: usize,
    normal: &Vec3<N>,
    margin: N,
) -> Option<Manifold<N, 3, U>> {
    let va = a.support_vertex_index(normal);
    let vb = b.support_vertex_index(&(r.transpose() * -normal));
    let (lo_a, lo_b) = (va & !(1 << i), vb & !(1 << j));
    let (p1, p2) = (a.vertex(lo_a), a.vertex(lo_a | (1 << i)));
    let (q1, q2) = (pos_ab * b.vertex(lo_b), pos_ab * b.vertex(lo_b | (1 << j)));
    let (_, _, pa, pb) = segments_closest(&p1, &p2, &q1, &q2);
    let sep = (pb - pa).dot(normal);
    if sep > margin {
        return None;
    }
    let id = ContactId::new(
        FeatureId::Edge(cuboid_edge_id(lo_a, i as u32)),
        FeatureId::Edge(cuboid_edge_id(lo_b, j as u32)),
    );
    let mut m = Manifold::with_normal(*normal);
    m.push(kollide_manifold::Contact::new(pa, pb, sep, id));
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_shapes::ConvexPolyhedron;

    #[test]
    fn edge_ids_match_the_polyhedron_twin() {
        let poly = ConvexPolyhedron::from_cuboid(Vec3::new(1.0f64, 2.0, 3.0)).unwrap();
        for (k, e) in poly.edges().iter().enumerate() {
            let [lo, hi] = e.vertices;
            assert_eq!(cuboid_edge_id(lo, (lo ^ hi).trailing_zeros()), k as u32);
        }
    }
}
