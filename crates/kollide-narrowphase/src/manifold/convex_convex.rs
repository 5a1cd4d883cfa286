//! Any pair of 3D shapes: the exact GJK/EPA contact, then the supporting features clipped
//! against each other.
//!
//! The specialised routines know their shapes; this one knows only what every shape answers: its
//! support point (for GJK/EPA) and its supporting feature (the vertex, edge or face facing a
//! direction, [`SupportFeatureMap`]). It serves cylinders, cones, triangles, segments, capsules
//! against sharp shapes, boxes against hulls, and every other pair without its own routine
//! (Gregorius, "Robust Contact Creation for Physics Simulations", GDC 2015; parry's
//! `contact_manifold_pfm_pfm` works the same way).
//!
//! 1. **Normal and depth.** [`crate::contact`] gives the exact normal `n` (from A to B) and
//!    separation on the shapes' cores, radii subtracted; `None` or a separation above the
//!    margin means no contact.
//! 2. **Features.** A's feature facing `+n` and B's facing `−n`, in A's frame. A capsule's or a
//!    segment's feature is always its whole axis segment: `local_support_feature` reports a
//!    segment only when it is perpendicular to `n` within a tight tolerance, while a capsule
//!    lying *almost* flat on a box should still get two contacts (clipping drops the far end when
//!    it is beyond the margin).
//! 3. **Clipping**, by what the features are:
//!    * a **vertex** on either side (a ball, a cone's apex): one contact, the exact one;
//!    * a **face** on either side: the face better aligned with the normal is the reference
//!      (A's on a near tie, within `1e-6` in cosine), the other feature is clipped against its
//!      side planes along `n` ([`super::clip_reference_face`]) and the points are lifted to the
//!      reference face along `n`, so the manifold keeps the exact normal;
//!    * **two edges**: seen along `n`, parallel edges are clipped to each other's extent and give
//!      two contacts ([`super::clip_parallel_segments`]), each pair of points sharing the edges'
//!      sideways offset ([`super::overlap_end_contact`]) as long as that keeps the points on
//!      their surfaces within a fiftieth of the depth; edges that cross, even at a small angle,
//!      give the exact contact.
//! 4. **Never shallower than exact.** Supporting features can be approximations (a cylinder's cap
//!    is reported as an inscribed octagon), so if the clipped points are all shallower than the
//!    exact contact, the exact contact is added as a candidate; if clipping leaves nothing, the
//!    manifold is the exact contact alone. More than four points are reduced to four.
//!
//! Rounded shapes (balls, capsules) are handled as core plus radius: features are the cores',
//! contact points are moved out by the radii along `n`, and separations have the radii
//! subtracted.
//!
//! **Feature ids.** Vertex and face ids are the shapes' own. Edge ids are the shapes' own for
//! boxes ([`super::cuboid_edge_id`]), polyhedra and triangles; for the other shapes and for
//! generated points (the octagon standing for a cylinder's cap, the ends of a cylinder's side
//! segment), which have no index of their own, the manifold names point (or edge) `k` of the
//! feature `f` as `Vertex(GENERATED + 16·f + k)` (or `Edge(…)`), with
//! [`GENERATED`] `= 2²⁴` and `f` the feature's index: stable while the same feature faces the
//! other shape.

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso3, Point3, Pose, Scalar, Vec3};
use kollide_shapes::{
    BoundingVolume, FeatureId, Shape3, SupportFeature, SupportFeatureMap, SupportMap,
};
use smallvec::SmallVec;

use super::assemble3::{Candidates, bias_tolerance, to_world};
use super::cuboid_cuboid::cuboid_edge_id;
use super::face_clip::{IncidentFeature, ReferenceFace, clip_reference_face, newell_normal};
use super::segment_closest::{OverlapEnd, clip_parallel_segments, overlap_end_contact};

/// The first index used for generated vertices and edges (see the module docs).
pub const GENERATED: u32 = 1 << 24;

/// A reference face must face the normal at least this well (`n_face · n`) to be clipped
/// against; below it lifting points to the face along the normal is ill-conditioned, and the
/// manifold is the exact contact alone.
const MIN_ALIGNMENT: f64 = 0.05;

/// When both features are faces, B's is the reference only if it faces the normal better than
/// A's by this much (in cosine): rotation noise of `θ` changes the cosines by about `θ²/2`, so
/// resting faces keep their roles for noise up to about 1e-3 rad.
const ALIGNMENT_BIAS: f64 = 1e-6;

/// Edges seen along the normal are parallel below this sine of their angle.
const PARALLEL_SIN: f64 = 1e-2;

/// A supporting feature with the ids of its points and edges, in A's frame.
struct Feature<N: Scalar> {
    points: SmallVec<[Point3<N>; 16]>,
    vertex_ids: SmallVec<[FeatureId; 16]>,
    edge_ids: SmallVec<[FeatureId; 16]>,
    id: FeatureId,
}

fn feature_index(id: FeatureId) -> u32 {
    match id {
        FeatureId::Vertex(i) | FeatureId::Edge(i) | FeatureId::Face(i) => i & 0xFFFF,
        FeatureId::Unknown => 0xFFFF,
    }
}

/// The feature of `shape` facing the local direction `dir`, with its points mapped by `to_a`.
fn shape_feature<N: Scalar>(
    shape: &Shape3<N>,
    dir: &Vec3<N>,
    to_a: impl Fn(&Point3<N>) -> Point3<N>,
) -> Feature<N> {
    let mut f = SupportFeature::new();
    match shape {
        Shape3::Capsule(c) => {
            f.reset(FeatureId::Edge(0));
            f.push(c.segment().a(), FeatureId::Vertex(0));
            f.push(c.segment().b(), FeatureId::Vertex(1));
        }
        Shape3::Segment(s) => {
            f.reset(FeatureId::Edge(0));
            f.push(s.a(), FeatureId::Vertex(0));
            f.push(s.b(), FeatureId::Vertex(1));
        }
        _ => shape.local_support_feature(dir, &mut f),
    }
    let n = f.vertices.len();
    let base = GENERATED + 16 * feature_index(f.id);
    let vertex_ids: SmallVec<[FeatureId; 16]> = (0..n)
        .map(|k| match f.vertex_ids[k] {
            FeatureId::Unknown => FeatureId::Vertex(base + k as u32),
            id => id,
        })
        .collect();
    let vertex = |k: usize| match vertex_ids[k % n] {
        FeatureId::Vertex(v) if v < GENERATED => Some(v),
        _ => None,
    };
    let edge_count = if n >= 3 { n } else { n.saturating_sub(1) };
    let edge_ids = (0..edge_count)
        .map(|k| {
            if n == 2 {
                // The feature is itself an edge (a segment, a cylinder's side line, a triangle's
                // edge): its own id.
                return f.id;
            }
            let own = match (shape, vertex(k), vertex(k + 1)) {
                (Shape3::Cuboid(_), Some(u), Some(v)) => {
                    Some(cuboid_edge_id(u & v, (u ^ v).trailing_zeros()))
                }
                (Shape3::Triangle(_), Some(u), Some(v)) => {
                    Some(if (u + 1) % 3 == v { u } else { v })
                }
                (Shape3::Polyhedron(p), Some(u), Some(v)) => {
                    let key = [u.min(v), u.max(v)];
                    p.edges().binary_search_by_key(&key, |e| e.vertices).ok().map(|e| e as u32)
                }
                _ => None,
            };
            FeatureId::Edge(own.unwrap_or(base + k as u32))
        })
        .collect();
    Feature { points: f.vertices.iter().map(to_a).collect(), vertex_ids, edge_ids, id: f.id }
}

/// The manifold of any two 3D shapes placed at `pos_a` and `pos_b`, with contacts up to `margin`
/// apart, in world coordinates. See the module docs.
///
/// ```
/// use kollide_math::{Iso3, Vec3};
/// use kollide_shapes::{Cuboid, Cylinder, Shape3};
/// use kollide_narrowphase::manifold::contact_convex;
/// let ground: Shape3<f64> = Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap().into();
/// let can: Shape3<f64> = Cylinder::new(0.5, 0.3).unwrap().into();
/// let m = contact_convex::<f64, ()>(&Iso3::translation(0.0, -0.5, 0.0), &ground,
///                                   &Iso3::translation(0.0, 0.49, 0.0), &can, 0.0);
/// assert_eq!(m.len(), 4); // four points of the cap's rim
/// ```
pub fn contact_convex<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Shape3<N>,
    pos_b: &Iso3<N>,
    b: &Shape3<N>,
    margin: N,
) -> Manifold<N, 3, U> {
    let settings = crate::QuerySettings::default();
    let c = match crate::contact(pos_a, a, pos_b, b, margin, &settings) {
        Some(c) if c.separation <= margin => c,
        _ => return Manifold::new(),
    };
    let pos_ab = pos_a.inv_compose(pos_b);
    let n = pos_a.inverse_transform_vector(&c.normal);
    let fa = shape_feature(a, &n, |p| *p);
    let fb = shape_feature(b, &pos_ab.inverse_transform_vector(&-n), |p| pos_ab * p);
    let (ra, rb) = (a.radius(), b.radius());
    // The exact contact, in A's frame.
    let exact = Contact::new(
        pos_a.inverse_transform_point(&c.point_a),
        pos_a.inverse_transform_point(&c.point_b),
        c.separation,
        ContactId::new(fa.id, fb.id),
    );
    let size = |s: &Shape3<N>| s.local_aabb().half_extents().norm();
    // The clipping slack and the shortest edge worth clipping, held to the smaller shape: its
    // points are clipped, and a slack at the larger one's scale (a box 1e-4 the size of a hull)
    // let a point through that lay off the hull by an eighth of the box.
    let small = size(a).min_of(size(b));
    let tol = bias_tolerance(small, small);
    let scale = size(a).max_of(size(b));
    let mut cands = Candidates::new();
    let (la, lb) = (fa.points.len(), fb.points.len());
    if la >= 3 || lb >= 3 {
        let na = if la >= 3 { newell_normal(&fa.points) } else { Vec3::zeros() };
        let nb = if lb >= 3 { newell_normal(&fb.points) } else { Vec3::zeros() };
        let (align_a, align_b) = (na.dot(&n), -nb.dot(&n));
        let a_is_ref = la >= 3 && (lb < 3 || align_a >= align_b - N::lit(ALIGNMENT_BIAS));
        let (rf, inc, nf, dir, r_ref, r_inc, align) = if a_is_ref {
            (&fa, &fb, na, n, ra, rb, align_a)
        } else {
            (&fb, &fa, nb, -n, rb, ra, align_b)
        };
        if align >= N::lit(MIN_ALIGNMENT) {
            let reference = ReferenceFace {
                vertices: &rf.points,
                vertex_ids: &rf.vertex_ids,
                edge_ids: &rf.edge_ids,
                normal: nf,
                id: rf.id,
                radius: r_ref,
            };
            let incident = IncidentFeature {
                vertices: &inc.points,
                vertex_ids: &inc.vertex_ids,
                edge_ids: &inc.edge_ids,
                id: inc.id,
                radius: r_inc,
            };
            clip_reference_face(&reference, &incident, &dir, margin, tol, &mut cands);
            if !a_is_ref {
                for k in cands.list.iter_mut() {
                    *k = k.flipped();
                }
            }
        }
    } else if la == 2 && lb == 2 {
        // The points of a kept pair of overlap ends lie on their surfaces within a fiftieth of
        // the depth, or within a tenth of the accuracy GJK/EPA promise when barely touching.
        let side_tol = (settings.tolerances.relative_length * N::lit(0.1) * scale)
            .max_of(N::lit(0.02) * c.separation.abs());
        let cores = [(ra, ra + side_roundness(a)), (rb, rb + side_roundness(b))];
        edge_edge(&fa, &fb, &n, cores, margin, (tol, side_tol), &mut cands);
    }
    // Shallower than the exact contact by more than a hundredth of its accuracy: a cap's
    // octagon cut the deepest part off, or a feature was an approximation. (A clipped point as
    // deep as the exact contact within that is kept in its place: it has a stable id.)
    let slack = settings.tolerances.relative_length * N::lit(0.01) * scale
        + N::lit(8.0) * N::EPSILON * (scale + pos_ab.translation().norm());
    match cands.min_separation() {
        None => cands.push(exact),
        Some(s) if s > c.separation + slack => cands.push(exact),
        _ => {}
    }
    to_world(cands.into_manifold(n), pos_a)
}

/// The radius of curvature across an edge feature of `shape` beyond its core radius: a
/// cylinder's side line lies on a surface of the cylinder's radius, every other edge is sharp.
fn side_roundness<N: Scalar>(shape: &Shape3<N>) -> N {
    match shape {
        Shape3::Cylinder(c) => c.radius(),
        _ => N::zero(),
    }
}

/// Two edges: two contacts where they overlap if they are parallel seen along `n`, none (the
/// caller adds the exact contact) if they cross.
///
/// Each end of the overlap gives a pair of points on one line along `n`, each moved sideways by
/// half the edges' offset there ([`overlap_end_contact`]). A sharp edge moved sideways leaves its
/// shape by that half-offset, a surface curved across the edge (a capsule's, a cylinder's side)
/// only by its square over twice its radius of curvature (`cores` holds each shape's core radius
/// and that radius); so the ends are kept only while the half-offset leaves both surfaces within
/// `side_tol`. Edges that drift further apart along the overlap cross at a small angle: they
/// touch at one point, the exact contact.
fn edge_edge<N: Scalar, U: Copy + Default>(
    fa: &Feature<N>,
    fb: &Feature<N>,
    n: &Vec3<N>,
    [(ra, round_a), (rb, round_b)]: [(N, N); 2],
    margin: N,
    (tol, side_tol): (N, N),
    out: &mut Candidates<N, U>,
) {
    let flat = |v: Vec3<N>| v - n * n.dot(&v);
    let (p1, p2, q1, q2) = (fa.points[0], fa.points[1], fb.points[0], fb.points[1]);
    let (dp, dq) = (flat(p2 - p1), flat(q2 - q1));
    let (lp, lq) = (dp.norm(), dq.norm());
    if lp <= tol || lq <= tol || dp.cross(&dq).norm() > N::lit(PARALLEL_SIN) * lp * lq {
        return;
    }
    // The largest half-offset that keeps a point on a surface of core radius `r` within
    // `side_tol`: `h²/2r ≤ side_tol` on a rounded core, `h ≤ side_tol` on a sharp edge.
    let reach = |r: N| side_tol.max_of((N::lit(2.0) * r * side_tol).sqrt());
    let half_offset_max = reach(round_a).min_of(reach(round_b));
    let mut ends: SmallVec<[Contact<N, 3, U>; 2]> = SmallVec::new();
    let mut parallel = true;
    clip_parallel_segments(&p1, &p2, &q1, &q2, &(dp / lp), tol, |on_a, on_b, end| {
        parallel &= flat(on_b - on_a).norm() * N::lit(0.5) <= half_offset_max;
        let id = match end {
            OverlapEnd::P(k) => ContactId::new(fa.vertex_ids[k as usize], fb.id),
            OverlapEnd::Q(k) => ContactId::new(fa.id, fb.vertex_ids[k as usize]),
        };
        ends.push(overlap_end_contact(&on_a, &on_b, n, (ra, rb), id));
    });
    if parallel {
        for c in ends.into_iter().filter(|c| c.separation <= margin) {
            out.push(c);
        }
    }
}
