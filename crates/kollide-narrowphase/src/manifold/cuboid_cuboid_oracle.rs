//! The box-box manifold as it was before the specialised routine of [`super::cuboid_cuboid`]:
//! the same SAT written with vectors, and faces clipped through the generic polygon clipper
//! ([`super::clip_reference_face`]). Kept for tests only, as the oracle the specialised routine
//! must agree with (normals, separations, points and feature ids).

use kollide_manifold::{ContactId, Manifold};
use kollide_math::{Iso3, Mat3, Point3, Pose, Scalar, Tolerances, Vec3, geom};
use kollide_shapes::{Cuboid, FeatureId, SupportFeature, SupportFeatureMap};

use super::assemble3::{
    Candidates, UNKNOWN_ID, bias_tolerance, depth_slack, ensure_depth, exact_contact, to_world,
};
use super::cuboid_cuboid::cuboid_edge_id;
use super::face_clip::{IncidentFeature, ReferenceFace, clip_reference_face};
use super::segment_closest::segments_closest;

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
pub(crate) fn contact_cuboids_reference<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Cuboid<N, 3>,
    pos_b: &Iso3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let r: Mat3<N> = pos_ab.rotation.to_rotation_matrix().into_inner();
    let t = pos_ab.translation.vector;
    let (ha, hb) = (a.half_extents(), b.half_extents());
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
            ensure_depth(m, exact, depth_slack(tol), pos_a, a, pos_b, b, margin)
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
