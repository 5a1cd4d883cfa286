//! A triangle and a box, by the separating axis test over 13 axes and clipping.
//!
//! This is the pair a box meets on level geometry: every triangle of a mesh or a heightfield
//! under it. The routine follows the box–box one ([`super::contact_cuboids`]) step for step, with
//! the triangle in place of the first box; the algorithm is the separating axis test for a box
//! and a triangle (Ericson, *Real-Time Collision Detection*, 2005, §5.2.9; Gottschalk, Lin and
//! Manocha, "OBBTree", SIGGRAPH 1996, for the box's projected radius) turned into a contact
//! manifold as Gregorius describes it ("The Separating Axis Test between Convex Polyhedra", GDC
//! 2013; "Robust Contact Creation for Physics Simulations", GDC 2015).
//!
//! 1. **SAT, in the box's frame.** The triangle's corners `v₀, v₁, v₂` are placed in the frame of
//!    the box (half extents `h`, centred at the origin, axes `eᵢ`). Along an axis `L` the box
//!    covers `[−r, r]` with `r = Σᵢ hᵢ |Lᵢ|` and the triangle `[min pₖ, max pₖ]` with
//!    `pₖ = L · vₖ`; the box lies on the `+L` side at a separation `−r − max pₖ` or on the `−L`
//!    side at `min pₖ − r`, and the larger of the two, divided by `|L|`, is the separation along
//!    `L` (its side orients the normal from the triangle to the box). The 13 candidate axes are
//!    the triangle's normal (a triangle is flat: its two faces share one axis, and the side the
//!    box lies on is the one across which it is least deep), the box's three face normals `eᵢ`,
//!    and the nine cross products `eᵢ × tₖ` of a box edge and a triangle edge `tₖ = vₖ₊₁ − vₖ`
//!    (skipped when the edges are parallel: the face axes cover them). The largest separation is
//!    the exact signed distance when the shapes overlap; any separation above the margin means
//!    no contact.
//! 2. **Biased choice.** The triangle's face axis is kept unless the box's best face axis beats
//!    it by the bias tolerance (1e-4 of the smaller shape's size,
//!    [`kollide_math::geom::biased_greater`]), and the best edge axis must beat the winner by the
//!    same amount. A box resting on a triangle then always gets the triangle's normal, frame
//!    after frame and triangle after triangle (what the internal-edge rule of level geometry
//!    expects). An edge axis takes part in the choice only when the triangle's edge `tₖ` is the
//!    triangle's extreme feature along it (not its third corner): only then do the two edges
//!    touch across it.
//! 3. **Face contact.** On the triangle's axis the triangle is the reference face (counter-
//!    clockwise seen from the box's side, `Face(0)` or `Face(1)` as the triangle numbers its
//!    sides) and the box's face most anti-parallel to the normal is clipped against its three
//!    side planes; on a box axis the box's face is the reference and the triangle's feature
//!    facing it (its face, or an edge when the triangle stands on edge) is clipped against the
//!    face's four side planes, then the contacts are turned round (A is the triangle). Both are
//!    Sutherland–Hodgman clipping with the resting-face slack of [`super::clip_reference_face`];
//!    more than four points are reduced to four ([`kollide_manifold::reduce_to_four`]).
//! 4. **Edge contact.** On an edge axis the one contact is at the closest points of the
//!    triangle's edge `tₖ` and the box's edge along `eᵢ` through its vertex farthest towards
//!    the triangle, kept only when they lie on one line along the normal (within the bias):
//!    where an end of an edge is nearest, the edges do not cross over each other and the axis
//!    only bounds the distance.
//!
//! As in the box–box routine, a manifold shallower than the SAT's separation (by more than a
//! hundredth of the bias) is repaired with the exact GJK/EPA contact, and an empty one (rounding
//! left nothing after clipping, or the nearest features are corners, which no axis names) falls
//! back to it, so the manifold is never empty for shapes within the margin. What the two box
//! routines share is shared code: the bias and depth tolerances and the depth repair
//! ([`super::assemble3`]), the box's face corners and edge numbering ([`super::cuboid_face_clip`],
//! [`super::cuboid_edge_id`]), the face clipping ([`super::clip_reference_face`]) and the closest
//! points of two segments.
//!
//! **The single contact.** A composite's contact query ([`crate::composite::composite_contact`])
//! asks the same steps for a box penetrating a triangle (`triangle_cuboid_depth`), without the
//! bias so that the depth is the exact one: the deepest clipped contact along the winning axis
//! is the answer, and no EPA runs. Apart, the SAT only bounds the distance, so GJK measures it.
//!
//! **Conventions** are those of every manifold: A is the triangle, B the box, the normal points
//! from the triangle to the box, separations are negative when penetrating, and each contact's
//! `point_b − point_a` is `separation · normal`. **Feature ids** are the shapes' own: the
//! triangle's `Face(0)`/`Face(1)`, `Edge(k)` (from corner `k` to `k + 1`) and `Vertex(k)`; the
//! box's `Face(2·axis + side)`, `Vertex(i)` and edges numbered by [`super::cuboid_edge_id`]. They
//! are the ids the general routine ([`super::contact_convex`]) gives, so a composite's shifted
//! piece ids and warm starting see no difference.

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso3, Point3, Pose, Scalar, Vec3, geom};
use kollide_shapes::{Cuboid, FeatureId, Triangle};

use super::assemble3::{
    Candidates, UNKNOWN_ID, bias_tolerance, depth_slack, ensure_depth, exact_contact, to_world,
};
use super::cuboid_cuboid::cuboid_edge_id;
use super::cuboid_face_clip::FACE_CORNERS;
use super::face_clip::{IncidentFeature, ReferenceFace, clip_reference_face};
use super::segment_closest::segments_closest;

/// A single contact in the box's frame: `(point on the triangle, point on the box, unit normal
/// from the triangle to the box, separation)`.
pub(crate) type PairContact<N> = (Point3<N>, Point3<N>, Vec3<N>, N);

/// The winning axis of the SAT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Axis {
    /// The triangle's normal.
    Triangle,
    /// The box's face normal on this axis.
    Box(usize),
    /// The box's axis `i` crossed with the triangle's edge `k`.
    Edge { i: usize, k: usize },
}

/// The outcome of the SAT: the chosen axis with its separation and unit normal (box frame, from
/// the triangle to the box), and the largest separation over all axes.
#[derive(Clone, Copy, Debug)]
struct Sat<N: Scalar> {
    axis: Axis,
    separation: N,
    normal: Vec3<N>,
    exact: N,
}

/// The separation along `l` (not normalised: scaled by `|l|`) of the box of half extents `h` at
/// the origin from the triangle with corners `p = l · vₖ`, and the side (`±1`) of the triangle
/// the box lies on along `l`.
#[inline(always)]
fn along<N: Scalar>(l: &Vec3<N>, p: [N; 3], h: &Vec3<N>) -> (N, N) {
    let r = h.x * l.x.abs() + h.y * l.y.abs() + h.z * l.z.abs();
    let hi = p[0].max_of(p[1]).max_of(p[2]);
    let lo = p[0].min_of(p[1]).min_of(p[2]);
    let (above, below) = (-r - hi, lo - r);
    if above >= below { (above, N::one()) } else { (below, -N::one()) }
}

/// `eᵢ × t`: `(0, −t_z, t_y)`, `(t_z, 0, −t_x)` or `(−t_y, t_x, 0)`.
#[inline(always)]
fn cross_axis<N: Scalar>(i: usize, t: &Vec3<N>) -> Vec3<N> {
    let zero = N::zero();
    match i {
        0 => Vec3::new(zero, -t.z, t.y),
        1 => Vec3::new(t.z, zero, -t.x),
        _ => Vec3::new(-t.y, t.x, zero),
    }
}

/// The SAT of the triangle `v` (box frame) and the box of half extents `h` (see the module
/// docs); `None` when some axis separates them by more than `margin`.
#[inline(always)]
fn sat<N: Scalar>(v: &[Vec3<N>; 3], h: &Vec3<N>, margin: N, tol: N) -> Option<Sat<N>> {
    let dots = |l: &Vec3<N>| [l.dot(&v[0]), l.dot(&v[1]), l.dot(&v[2])];
    // The triangle's normal.
    let nt = (v[1] - v[0]).cross(&(v[2] - v[0])).normalize();
    let (tri_sep, tri_side) = along(&nt, dots(&nt), h);
    if tri_sep > margin {
        return None;
    }
    // The box's faces.
    let mut best_box = (-N::MAX, 0usize, N::one());
    for i in 0..3 {
        let p = [v[0][i], v[1][i], v[2][i]];
        let (hi, lo) = (p[0].max_of(p[1]).max_of(p[2]), p[0].min_of(p[1]).min_of(p[2]));
        let (above, below) = (-h[i] - hi, lo - h[i]);
        let (sep, side) = if above >= below { (above, N::one()) } else { (below, -N::one()) };
        if sep > best_box.0 {
            best_box = (sep, i, side);
        }
    }
    if best_box.0 > margin {
        return None;
    }
    // Edge pairs: `eᵢ × tₖ` is square to `tₖ`, so edge `k`'s two corners project alike and the
    // triangle spans from that value to its third corner's.
    let parallel = N::EPSILON.sqrt() * N::lit(10.0);
    let parallel_sq = parallel * parallel;
    let mut exact = tri_sep.max_of(best_box.0);
    let mut best_edge: Option<(N, Axis, Vec3<N>)> = None;
    for k in 0..3 {
        let (start, other) = (&v[k], &v[(k + 2) % 3]);
        let t = v[(k + 1) % 3] - start;
        let t_sq = t.norm_squared();
        for i in 0..3 {
            let l = cross_axis(i, &t);
            let len_sq = l.norm_squared();
            if len_sq <= parallel_sq * t_sq {
                continue;
            }
            let (p_edge, p_other) = (l.dot(start), l.dot(other));
            let (sep, side) = along(&l, [p_edge, p_edge, p_other], h);
            let len = len_sq.sqrt();
            let sep = sep / len;
            if sep > margin {
                return None;
            }
            exact = exact.max_of(sep);
            // The edge is the triangle's extreme feature towards the box, not its third corner.
            let touches = side * (p_edge - p_other) >= N::zero();
            if touches && best_edge.is_none_or(|(s, _, _)| sep > s) {
                best_edge = Some((sep, Axis::Edge { i, k }, l * (side / len)));
            }
        }
    }
    let one = N::one();
    let mut best = (tri_sep, Axis::Triangle, nt * tri_side);
    if geom::biased_greater(best_box.0, best.0, one, tol) {
        let mut n = Vec3::zeros();
        n[best_box.1] = best_box.2;
        best = (best_box.0, Axis::Box(best_box.1), n);
    }
    if let Some(edge) = best_edge
        && geom::biased_greater(edge.0, best.0, one, tol)
    {
        best = edge;
    }
    Some(Sat { axis: best.1, separation: best.0, normal: best.2, exact })
}

/// The contact manifold of a triangle A at `pos_a` and a box B at `pos_b`, with contacts up to
/// `margin` apart, in world coordinates; the normal points from the triangle to the box. See the
/// module docs.
///
/// ```
/// use kollide_math::{Iso3, Point3, Vec3};
/// use kollide_shapes::{Cuboid, Triangle};
/// use kollide_narrowphase::manifold::contact_triangle_cuboid;
/// let floor = Triangle::new(Point3::new(-4.0f64, 0.0, 4.0), Point3::new(4.0, 0.0, 4.0),
///                           Point3::new(0.0, 0.0, -4.0)).unwrap();
/// let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
/// let m = contact_triangle_cuboid::<f64, ()>(&Iso3::identity(), &floor,
///                                            &Iso3::translation(0.0, 0.49, 0.5), &cube, 0.0);
/// assert_eq!(m.len(), 4); // the cube's four bottom corners
/// assert!((m.normal - Vec3::y()).norm() < 1e-12);
/// assert!((m.contacts()[0].separation + 0.01).abs() < 1e-12);
/// ```
pub fn contact_triangle_cuboid<N: Scalar, U: Copy + Default>(
    pos_a: &Iso3<N>,
    a: &Triangle<N, 3>,
    pos_b: &Iso3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
) -> Manifold<N, 3, U> {
    let pos_ba = pos_b.inv_compose(pos_a);
    let v = a.vertices().map(|p| (pos_ba * p).coords);
    let tol = tolerance(&v, b);
    let mut cands = Candidates::new();
    let Some(sat) = contacts_in_box_frame(&v, b, margin, tol, tol, &mut cands) else {
        return Manifold::new();
    };
    let m = to_world(cands.into_manifold(sat.normal), pos_b);
    // As deep as the SAT says (see `ensure_depth`); the check inline, the repair out of line.
    let slack = depth_slack(tol);
    match m.min_separation() {
        Some(s) if s <= sat.exact + slack => m,
        Some(_) => ensure_depth(m, sat.exact, slack, pos_a, a, pos_b, b, margin),
        None => exact_contact(pos_a, a, pos_b, b, margin, UNKNOWN_ID),
    }
}

/// The bias tolerance of the pair (see the module docs): 1e-4 of the smaller shape's size, the
/// triangle's being half its longest edge. It is also the clipping slack.
fn tolerance<N: Scalar>(v: &[Vec3<N>; 3], b: &Cuboid<N, 3>) -> N {
    let longest = (0..3).map(|k| (v[(k + 1) % 3] - v[k]).norm()).fold(N::zero(), N::max_of);
    let small = b.half_extents().norm().min_of(longest * N::lit(0.5));
    bias_tolerance(small, small)
}

/// Steps 1 to 4 of the module docs in the box's frame, for the triangle `v` placed there: the
/// SAT with the bias `bias`, and the contacts of the chosen axis pushed to `out` with the
/// clipping slack `slack`. `None` when an axis separates the shapes by more than `margin`.
fn contacts_in_box_frame<N: Scalar, U: Copy + Default>(
    v: &[Vec3<N>; 3],
    b: &Cuboid<N, 3>,
    margin: N,
    bias: N,
    slack: N,
    out: &mut Candidates<N, U>,
) -> Option<Sat<N>> {
    let sat = sat(v, &b.half_extents(), margin, bias)?;
    let n = sat.normal;
    match sat.axis {
        Axis::Triangle => triangle_face(v, n, b, margin, slack, out),
        Axis::Box(i) => box_reference(v, i, n, b, margin, slack, out),
        Axis::Edge { i, k } => edge_edge(v, k, i, n, b, margin, slack, out),
    }
    Some(sat)
}

/// The contact of the triangle `v` (in the box's frame) and the box `b` for a single-contact
/// query, in the box's frame: `(point on the triangle, point on the box, unit normal from the
/// triangle to the box, separation)`, from the unbiased SAT (the exact depth and its axis) when
/// a pair of features realises the SAT's largest separation: the incident feature's deepest
/// point lying over the reference face, or the two edges' closest points on one line along the
/// normal. That pair is then the exact answer, penetrating or apart (the axis bounds the
/// distance from below, and the pair reaches the bound). Penetrating, the clipped contacts are
/// asked next (their deepest). `Some(None)` when an axis separates the shapes by more than
/// `margin`; `None` when none of this answers (apart at corners, which no axis names, or a tie
/// that clipping misses): the caller's general query does.
pub(crate) fn triangle_cuboid_depth<N: Scalar>(
    v: &[Vec3<N>; 3],
    b: &Cuboid<N, 3>,
    margin: N,
) -> Option<Option<PairContact<N>>> {
    let Some(sat) = sat(v, &b.half_extents(), margin, N::zero()) else {
        return Some(None);
    };
    if sat.separation < sat.exact {
        return None;
    }
    let tol = tolerance(v, b);
    let (n, separation) = (sat.normal, sat.separation);
    if let Some((on_tri, on_box)) = realising_pair(v, b, &sat, tol) {
        return Some(Some((on_tri, on_box, n, (on_box - on_tri).dot(&n))));
    }
    if separation > N::zero() {
        return None;
    }
    let mut cands = Candidates::<N, ()>::new();
    contacts_in_box_frame(v, b, margin, N::zero(), tol, &mut cands)?;
    let deepest = cands.list.iter().min_by(|x, y| {
        x.separation.partial_cmp(&y.separation).unwrap_or(core::cmp::Ordering::Equal)
    })?;
    (deepest.separation <= sat.exact + depth_slack(tol)).then_some(Some((
        deepest.point_a,
        deepest.point_b,
        n,
        deepest.separation,
    )))
}

/// The pair of points (on the triangle `v`, on the box `b`; box frame) that realises the SAT's
/// separation along its axis, when the features of the axis meet there (see
/// [`triangle_cuboid_depth`]); `None` otherwise.
fn realising_pair<N: Scalar>(
    v: &[Vec3<N>; 3],
    b: &Cuboid<N, 3>,
    sat: &Sat<N>,
    tol: N,
) -> Option<(Point3<N>, Point3<N>)> {
    let (n, separation) = (sat.normal, sat.separation);
    match sat.axis {
        Axis::Triangle => {
            let on_box = b.vertex(b.support_vertex_index(&-n));
            let on_tri = on_box - n * separation;
            over_triangle(v, &on_tri.coords, tol).then_some((on_tri, on_box))
        }
        Axis::Box(i) => {
            let deepest = (1..3).fold(0, |d, k| if n.dot(&v[k]) > n.dot(&v[d]) { k } else { d });
            let on_tri = Point3::from(v[deepest]);
            let on_box = on_tri + n * separation;
            let h = b.half_extents();
            let inside = (0..3).all(|c| c == i || on_box[c].abs() <= h[c] + tol);
            inside.then_some((on_tri, on_box))
        }
        Axis::Edge { i, k } => {
            let lo = b.support_vertex_index(&-n) & !(1 << i);
            let (q1, q2) = (b.vertex(lo), b.vertex(lo | (1 << i)));
            let (p1, p2) = (Point3::from(v[k]), Point3::from(v[(k + 1) % 3]));
            let (_, _, on_tri, on_box) = segments_closest(&p1, &p2, &q1, &q2);
            let off = on_box - on_tri - n * separation;
            (off.norm() <= tol).then_some((on_tri, on_box))
        }
    }
}

/// Whether `p`, in the plane of the triangle `v`, lies inside it or within `tol` of it.
fn over_triangle<N: Scalar>(v: &[Vec3<N>; 3], p: &Vec3<N>, tol: N) -> bool {
    let n = (v[1] - v[0]).cross(&(v[2] - v[0]));
    let len = n.norm();
    (0..3).all(|k| {
        let e = v[(k + 1) % 3] - v[k];
        // `(e × (p − vₖ)) · n / |n|` is `|e|` times the signed distance inside edge `k`.
        e.cross(&(p - v[k])).dot(&n) >= -tol * len * e.norm()
    })
}

/// The box's face `f` as a polygon: corners counter-clockwise seen from outside, their ids and
/// the ids of the edges from each corner to the next.
fn face_polygon<N: Scalar>(
    b: &Cuboid<N, 3>,
    f: usize,
) -> ([Point3<N>; 4], [FeatureId; 4], [FeatureId; 4]) {
    let c = FACE_CORNERS[f];
    let edge = |k: usize| {
        let (u, w) = (c[k], c[(k + 1) % 4]);
        FeatureId::Edge(cuboid_edge_id(u & w, (u ^ w).trailing_zeros()))
    };
    (c.map(|i| b.vertex(i)), c.map(FeatureId::Vertex), core::array::from_fn(edge))
}

/// The triangle as a reference face seen from one side (`up`: the side its own normal
/// `(v₁ − v₀) × (v₂ − v₀)` points to): the order of its corners, counter-clockwise seen from that
/// side, the triangle's numbers of the edges from each of them to the next, and the face's id.
/// Face 0 is `(a, b, c)`, face 1 is `(a, c, b)`, the ids the triangle's own supporting feature
/// gives.
pub(crate) fn triangle_side(up: bool) -> ([usize; 3], [usize; 3], FeatureId) {
    if up {
        ([0, 1, 2], [0, 1, 2], FeatureId::Face(0))
    } else {
        ([0, 2, 1], [2, 1, 0], FeatureId::Face(1))
    }
}

/// The face contact with the triangle `v` (box frame) as the reference, its side facing the box
/// along `n`, and the box's face most anti-parallel to `n` as the incident face.
fn triangle_face<N: Scalar, U: Copy + Default>(
    v: &[Vec3<N>; 3],
    n: Vec3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
    tol: N,
    out: &mut Candidates<N, U>,
) {
    let up = (v[1] - v[0]).cross(&(v[2] - v[0])).dot(&n) >= N::zero();
    let (order, edges, id) = triangle_side(up);
    let vertices = order.map(|k| Point3::from(v[k]));
    let reference = ReferenceFace {
        vertices: &vertices,
        vertex_ids: &order.map(|k| FeatureId::Vertex(k as u32)),
        edge_ids: &edges.map(|k| FeatureId::Edge(k as u32)),
        normal: n,
        id,
        radius: N::zero(),
    };
    let f = b.support_face_index(&-n) as usize;
    let (corners, corner_ids, edge_ids) = face_polygon(b, f);
    let incident = IncidentFeature {
        vertices: &corners,
        vertex_ids: &corner_ids,
        edge_ids: &edge_ids,
        id: FeatureId::Face(f as u32),
        radius: N::zero(),
    };
    clip_reference_face(&reference, &incident, &n, margin, tol, out);
}

/// The face contact with the box's face on axis `i` facing the triangle as the reference (its
/// outward normal `−n`) and the triangle's feature facing the box as the incident feature, turned
/// round so that A is the triangle (`v`, in the box's frame).
fn box_reference<N: Scalar, U: Copy + Default>(
    v: &[Vec3<N>; 3],
    i: usize,
    n: Vec3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
    tol: N,
    out: &mut Candidates<N, U>,
) {
    let f = 2 * i + usize::from(n[i] > N::zero());
    let (corners, corner_ids, edge_ids) = face_polygon(b, f);
    let reference = ReferenceFace {
        vertices: &corners,
        vertex_ids: &corner_ids,
        edge_ids: &edge_ids,
        normal: -n,
        id: FeatureId::Face(f as u32),
        radius: N::zero(),
    };
    let (order, count, id) = triangle_feature(v, &n);
    let points = order.map(|k| Point3::from(v[k]));
    let ids = order.map(|k| FeatureId::Vertex(k as u32));
    // Edge `j` of the feature runs from its point `j` to `j + 1`; the triangle names an edge by
    // the corner it starts from in its own cyclic order. An edge feature is its single edge.
    let edges: [FeatureId; 3] = core::array::from_fn(|j| {
        let (u, w) = (order[j], order[(j + 1) % 3]);
        if count == 2 {
            id
        } else {
            FeatureId::Edge(if (u + 1) % 3 == w { u as u32 } else { w as u32 })
        }
    });
    let incident = IncidentFeature {
        vertices: &points[..count],
        vertex_ids: &ids[..count],
        edge_ids: &edges[..if count == 2 { 1 } else { 3 }],
        id,
        radius: N::zero(),
    };
    let first = out.list.len();
    clip_reference_face(&reference, &incident, &-n, margin, tol, out);
    for c in &mut out.list[first..] {
        *c = c.flipped();
    }
}

/// The triangle's feature facing the direction `d` (the triangle `v` and `d` in any one frame),
/// by [`Triangle`]'s rule (its `local_support_feature`): the face seen from `d`'s side when
/// `|d̂ · n̂|` is at least every edge's outward in-plane `d̂ · m̂ₖ`, otherwise the best edge. Returns
/// the corners' order (the first `count` of them), `count` and the feature's id.
pub(super) fn triangle_feature<N: Scalar>(
    v: &[Vec3<N>; 3],
    d: &Vec3<N>,
) -> ([usize; 3], usize, FeatureId) {
    let n = (v[1] - v[0]).cross(&(v[2] - v[0])).normalize();
    let along = d.dot(&n);
    let mut best = (0usize, N::zero());
    for k in 0..3 {
        // (vₖ₊₁ − vₖ) × n̂ lies in the plane and points away from the triangle.
        let m = (v[(k + 1) % 3] - v[k]).cross(&n);
        let len = m.norm();
        let dot = if len > N::zero() { m.dot(d) / len } else { N::zero() };
        if k == 0 || dot > best.1 {
            best = (k, dot);
        }
    }
    if along.abs() >= best.1 {
        if along >= N::zero() {
            ([0, 1, 2], 3, FeatureId::Face(0))
        } else {
            ([0, 2, 1], 3, FeatureId::Face(1))
        }
    } else {
        let k = best.0;
        ([k, (k + 1) % 3, (k + 2) % 3], 2, FeatureId::Edge(k as u32))
    }
}

/// The edge contact of the triangle's edge `k` and the box's edge along axis `i` through the
/// box's vertex farthest along `−n` (box frame). None when the closest points are more than `tol`
/// off the line along `n` (an end of an edge is nearest: the edges do not cross over each other,
/// as when the shapes are apart corner to edge), so that the caller falls back to the exact
/// contact.
fn edge_edge<N: Scalar, U: Copy + Default>(
    v: &[Vec3<N>; 3],
    k: usize,
    i: usize,
    n: Vec3<N>,
    b: &Cuboid<N, 3>,
    margin: N,
    tol: N,
    out: &mut Candidates<N, U>,
) {
    let lo = b.support_vertex_index(&-n) & !(1 << i);
    let (q1, q2) = (b.vertex(lo), b.vertex(lo | (1 << i)));
    let (p1, p2) = (Point3::from(v[k]), Point3::from(v[(k + 1) % 3]));
    let (_, _, pa, pb) = segments_closest(&p1, &p2, &q1, &q2);
    let separation = (pb - pa).dot(&n);
    if separation <= margin && (pb - pa - n * separation).norm() <= tol {
        let id = ContactId::new(
            FeatureId::Edge(k as u32),
            FeatureId::Edge(cuboid_edge_id(lo, i as u32)),
        );
        out.push(Contact::new(pa, pb, separation, id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::QuerySettings;
    use crate::composite::composite_contact;
    use kollide_shapes::{Shape3, TriMesh};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::manifold::random_unit3 as unit;

    /// A mesh's single contact with a box is the SAT's (the deepest clipped contact, mapped to
    /// the world) bit for bit whenever they penetrate, and GJK/EPA's answer differs: the query
    /// path runs the SAT instead of EPA.
    #[test]
    fn the_mesh_contact_of_a_box_runs_the_sat() {
        let mut r = ChaCha8Rng::seed_from_u64(0x9e5);
        let settings = QuerySettings::default();
        let (mut compared, mut differ) = (0, 0);
        for _ in 0..3000 {
            let corners: Vec<Point3<f64>> =
                (0..3).map(|_| Point3::from(unit(&mut r) * r.random_range(0.5..3.0))).collect();
            let Ok(tri) = Triangle::new(corners[0], corners[1], corners[2]) else { continue };
            let mesh = TriMesh::new(corners.clone(), vec![[0, 1, 2]]).unwrap();
            let h = Vec3::new(
                r.random_range(0.1..1.0),
                r.random_range(0.1..1.0),
                r.random_range(0.1..1.0),
            );
            let cube = Cuboid::new(h).unwrap();
            let at = tri.centroid() + unit(&mut r) * r.random_range(0.0..h.norm());
            let pos_b = Iso3::new(at.coords, unit(&mut r) * r.random_range(0.0..3.0));
            let b: Shape3<f64> = cube.into();
            let id = Iso3::identity();
            let query = composite_contact(&id, &mesh, &pos_b, &b, 0.01, &settings);
            // What the piece asks of the SAT: the triangle at its centroid, in the box's frame.
            let (centred, c) = tri.centred();
            let rel = pos_b.inv_compose(&Iso3::translation(c.x, c.y, c.z));
            let v = centred.vertices().map(|p| (rel * p).coords);
            let Some(Some((pa, pb, n, sep))) = triangle_cuboid_depth(&v, &cube, 0.01) else {
                continue;
            };
            let q = query.expect("penetrating");
            assert_eq!(q.separation, sep);
            assert_eq!(q.normal, pos_b.rotation * n);
            assert_eq!((q.point_a, q.point_b), (pos_b * pa, pos_b * pb));
            let general = crate::contact(&id, &tri, &pos_b, &cube, 0.01, &settings).unwrap();
            compared += 1;
            differ += usize::from((general.point_a, general.point_b) != (q.point_a, q.point_b));
        }
        assert!(compared > 500 && differ > compared / 2, "{differ} of {compared} differ");
    }
}
