//! Two convex polygons, each possibly rounded (capsules and rounded boxes), by SAT and clipping.
//!
//! 1. **SAT.** For every edge normal of A, the separation of B is `min over B's vertices of
//!    n · (b − aᵢ)`; likewise for B's edges against A. The largest is the axis of least
//!    penetration (see [`crate::polygon_separation`]). If it exceeds `margin + rA + rB`, there is no
//!    contact.
//! 2. **Reference face, with bias.** A's best edge is the reference face unless B's is better by
//!    a clear margin ([`kollide_math::geom::biased_greater`]): when two axes are nearly equal, the
//!    same one keeps winning from frame to frame, and stacks do not jitter.
//! 3. **Incident edge.** The edge of the other polygon whose normal is most anti-parallel to the
//!    reference normal.
//! 4. **Clip.** The incident edge is clipped against the two side planes of the reference face
//!    (Sutherland–Hodgman); points farther than the margin in front of the face are dropped.
//!
//! **Cost.** Step 1 is the work: every normal of one polygon against every vertex of the other.
//! It is done inside out: up to eight normals of A are rotated into B's frame at once, and each
//! vertex of B updates the running minima of all of them at once, eight independent lanes the
//! compiler turns into a few SIMD instructions per vertex (then the same for B's normals against
//! A's vertices). The products and minima are those of the plain loop, so the answer is too.
//! Steps 2 and 4 ([`b_is_reference`], [`clip_edges`]) and the move to the world ([`to_world`]) are
//! shared with the closed-form box routine ([`super::contact_boxes`]), which finds steps 1 and 3
//! for two boxes without searching.
//!
//! **World points.** Contacts are kept in the reference polygon's frame as the incident surface
//! points; each is moved to the world once, and the reference surface point is placed the
//! separation below it along the world normal.
//!
//! Rounded polygons whose cores are apart may touch vertex to vertex (two capsules end to end):
//! then the closest points of the reference and incident edges are both end points and the normal
//! joins them instead of being a face normal.
//!
//! For a rounded incident polygon each contact point is placed where the line through its core
//! point along the normal leaves the rounded surface: a radius below it at an end of the incident
//! edge, and `r / cos θ` below it where a side plane cut an edge tilted by `θ`. So both points lie
//! on their surfaces and the separation is the surfaces' gap along the normal at that point.
//! (Box2D places every point a radius below its core point, which is inside a tilted edge's
//! rounded surface and reports a shallower gap there.)
//!
//! Sources: the manifold seed (SAT, biased axis choice, reference/incident faces, clipping);
//! Catto, Box2D's `b2CollidePolygons` for the treatment of rounded polygons.

use kollide_manifold::{Contact, ContactId, Manifold};
use kollide_math::{Iso2, Point2, Pose, Scalar, UnitVec2, Vec2, geom};
use kollide_shapes::{FeatureId, climb_cyclic};

use super::clip::{ClipVertex, clip_segment_pair};
use super::segment_closest::{drop_to_capsule_surface, segments_closest};

/// A convex polygon as the clipping code sees it: vertices in counter-clockwise order, the
/// outward normal of each edge (edge `i` runs from vertex `i` to vertex `i + 1`), and a rounding
/// radius. A segment is a polygon with two vertices and two opposite normals. It is also a
/// support map (core plus radius), which the exact fallback uses.
#[derive(Clone, Copy, Debug)]
pub struct PolygonView<'a, N: Scalar> {
    /// Vertices, counter-clockwise.
    pub vertices: &'a [Point2<N>],
    /// Outward unit normal of each edge.
    pub normals: &'a [UnitVec2<N>],
    /// Rounding radius (0 for sharp polygons).
    pub radius: N,
}

/// What SAT and clipping read of a polygon (a [`PolygonView`] through [`Prepared`]): the steps are
/// written against this trait so that the SAT loop can be specialised per polygon kind.
pub(super) trait SatPolygon<N: Scalar> {
    /// The number of vertices (and edges).
    fn len(&self) -> usize;
    /// Vertex `i`, for `i ≤ len` (vertex `len` is vertex 0).
    fn v(&self, i: usize) -> Point2<N>;
    /// The outward unit normal of edge `i` (from vertex `i` to `i + 1`).
    fn n(&self, i: usize) -> Vec2<N>;
    /// The rounding radius.
    fn radius(&self) -> N;
    /// The smallest `d · v` over the vertices `v`: the support value in `−d`, negated. `hint`
    /// is a vertex to start from, and is left at the vertex found where that is how it was
    /// found (successive directions of one SAT pass turn steadily, so their support vertices
    /// are neighbours).
    fn min_dot(&self, d: &Vec2<N>, hint: &mut usize) -> N;
    /// The largest distance of a vertex from the origin, plus the radius (for the bias).
    fn size(&self) -> N;

    /// The largest separation of `b` (placed by `pos_ab` in this polygon's frame) over this
    /// polygon's edge normals, with its edge (ties to the lowest index).
    #[inline(always)]
    fn max_separation(&self, b: &impl SatPolygon<N>, pos_ab: &Iso2<N>) -> (N, usize)
    where
        Self: Sized,
    {
        max_separation(self, b, pos_ab)
    }
}

impl<N: Scalar> PolygonView<'_, N> {
    fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Vertex `i`, for `i ≤ len` (vertex `len` is vertex 0): a compare instead of a division.
    fn v(&self, i: usize) -> Point2<N> {
        let len = self.len();
        self.vertices[if i >= len { i - len } else { i }]
    }

    fn n(&self, i: usize) -> Vec2<N> {
        self.normals[i].into_inner()
    }
}

/// A [`PolygonView`] as a [`SatPolygon`], with the SAT over its normals eight at a time
/// ([`max_separation_lanes`]).
struct Prepared<'v, 'a, N: Scalar> {
    view: &'v PolygonView<'a, N>,
}

impl<N: Scalar> SatPolygon<N> for Prepared<'_, '_, N> {
    fn len(&self) -> usize {
        self.view.len()
    }

    #[inline(always)]
    fn v(&self, i: usize) -> Point2<N> {
        self.view.v(i)
    }

    #[inline(always)]
    fn n(&self, i: usize) -> Vec2<N> {
        self.view.n(i)
    }

    fn radius(&self) -> N {
        self.view.radius
    }

    fn min_dot(&self, d: &Vec2<N>, hint: &mut usize) -> N {
        if self.len() > CLIMB_FROM {
            min_dot_climb(self.view.vertices, d, hint)
        } else {
            min_dot(self.view.vertices, d)
        }
    }

    fn size(&self) -> N {
        polygon_size(self.view)
    }

    #[inline(always)]
    fn max_separation(&self, b: &impl SatPolygon<N>, pos_ab: &Iso2<N>) -> (N, usize) {
        if (1..=LANES).contains(&self.len()) {
            max_separation_lanes(self.view, b, pos_ab)
        } else {
            max_separation(self, b, pos_ab)
        }
    }
}

/// The largest separation of `b` (placed by `pos_ab` in `a`'s frame) over `a`'s edge normals,
/// with its edge (ties to the lowest index): one normal at a time, `b`'s support value from
/// [`SatPolygon::min_dot`].
#[inline(always)]
fn max_separation<N: Scalar>(
    a: &impl SatPolygon<N>,
    b: &impl SatPolygon<N>,
    pos_ab: &Iso2<N>,
) -> (N, usize) {
    let mut best = (-N::MAX, 0);
    let mut hint = 0;
    for i in 0..a.len() {
        let n = a.n(i);
        let nb = pos_ab.inverse_transform_vector(&n);
        // B's support vertex in −n, in B's frame.
        let min = b.min_dot(&nb, &mut hint);
        best = better_edge(best, i, separation(min, &n, &a.v(i), pos_ab));
    }
    best
}

/// The separation of B along A's normal `n` of the edge through `a_i`, from B's smallest
/// `nb · v` (`nb` the normal in B's frame).
#[inline(always)]
fn separation<N: Scalar>(min: N, n: &Vec2<N>, a_i: &Point2<N>, pos_ab: &Iso2<N>) -> N {
    min + pos_ab.translation.vector.dot(n) - n.dot(&a_i.coords)
}

/// `(sep, i)` when it beats `best` (strictly: ties keep the lower index; NaN never wins).
#[inline(always)]
pub(super) fn better_edge<N: Scalar>(best: (N, usize), i: usize, sep: N) -> (N, usize) {
    if sep > best.0 { (sep, i) } else { best }
}

/// How many normals [`max_separation_lanes`] takes at once.
const LANES: usize = 8;

/// [`max_separation`] for a polygon with at most [`LANES`] edges, turned inside out: its normals
/// are rotated into B's frame all at once, and each vertex of B updates all their running
/// minima at once. Eight independent lanes with no reduction inside the loop: the compiler
/// turns each vertex into a few SIMD instructions (the unused lanes repeat normal 0 and are not
/// read). The products, minima and separations are the ones [`max_separation`] computes, so the
/// answer is the same, bit for bit.
#[inline(always)]
fn max_separation_lanes<N: Scalar>(
    a: &PolygonView<'_, N>,
    b: &impl SatPolygon<N>,
    pos_ab: &Iso2<N>,
) -> (N, usize) {
    let len = a.len();
    // `pos_ab.inverse_transform_vector(n)`: the conjugate rotation (re, −im) applied to n.
    let (re, im) = (pos_ab.rotation.re, -pos_ab.rotation.im);
    let normal = |k: usize| a.n(if k < len { k } else { 0 });
    let nbx: [N; LANES] = std::array::from_fn(|k| re * normal(k).x - im * normal(k).y);
    let nby: [N; LANES] = std::array::from_fn(|k| im * normal(k).x + re * normal(k).y);
    let mut min = [N::MAX; LANES];
    for j in 0..b.len() {
        let v = b.v(j);
        for k in 0..LANES {
            let d = nbx[k] * v.x + nby[k] * v.y;
            if d < min[k] {
                min[k] = d;
            }
        }
    }
    let mut best = (-N::MAX, 0);
    for (i, &min) in min.iter().enumerate().take(len) {
        best = better_edge(best, i, separation(min, &a.n(i), &a.v(i), pos_ab));
    }
    best
}

/// Above this many vertices, [`SatPolygon::min_dot`] climbs from its hint instead of scanning.
const CLIMB_FROM: usize = 32;

/// The smallest `d · v` over the vertices of a convex polygon, by climbing from vertex `hint`
/// ([`climb_cyclic`] on `−d · v`); `hint` is left at the vertex found.
///
/// Along a convex polygon's boundary `d · v` falls to one minimum and rises again, so the climb
/// finds it; a stored [`ConvexPolygon`]'s convexity tolerance keeps that true under rounding (its
/// own support climb relies on the same). In one SAT pass the normals turn once around, and so
/// does the support vertex: the whole pass costs about as many steps as the two polygons have
/// vertices, where scanning costs their product.
///
/// [`ConvexPolygon`]: kollide_shapes::ConvexPolygon
fn min_dot_climb<N: Scalar>(vertices: &[Point2<N>], d: &Vec2<N>, hint: &mut usize) -> N {
    let n = vertices.len();
    let i = climb_cyclic(n, (*hint).min(n - 1), |i| -d.dot(&vertices[i].coords));
    *hint = i;
    d.dot(&vertices[i].coords)
}

/// The smallest `d · v` over `vertices` of any count (`N::MAX` for none; NaN products are
/// skipped).
///
/// Four running minima over interleaved vertices instead of one: the compares of one chain no
/// longer wait for each other, and the minimum of the four is the same value.
fn min_dot<N: Scalar>(vertices: &[Point2<N>], d: &Vec2<N>) -> N {
    let mut m = [N::MAX; 4];
    let mut quads = vertices.chunks_exact(4);
    for q in &mut quads {
        for k in 0..4 {
            let x = d.dot(&q[k].coords);
            if x < m[k] {
                m[k] = x;
            }
        }
    }
    for (k, v) in quads.remainder().iter().enumerate() {
        let x = d.dot(&v.coords);
        if x < m[k] {
            m[k] = x;
        }
    }
    let lo = if m[1] < m[0] { m[1] } else { m[0] };
    let hi = if m[3] < m[2] { m[3] } else { m[2] };
    if hi < lo { hi } else { lo }
}

/// The manifold of two (rounded) convex polygons placed at `pos_a` and `pos_b`, with contacts up
/// to `margin` apart, in world coordinates.
pub fn contact_polygons<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    a: &PolygonView<'_, N>,
    pos_b: &Iso2<N>,
    b: &PolygonView<'_, N>,
    margin: N,
) -> Manifold<N, 2, U> {
    let (pa, pb) = (Prepared { view: a }, Prepared { view: b });
    contact_sat(pos_a, &pa, pos_b, &pb, margin, || exact_fallback(pos_a, a, pos_b, b, margin))
}

/// Steps 1–4 on any pair of [`SatPolygon`]s; `fallback` gives the manifold when clipping keeps
/// no point.
#[inline(always)]
pub(super) fn contact_sat<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    a: &impl SatPolygon<N>,
    pos_b: &Iso2<N>,
    b: &impl SatPolygon<N>,
    margin: N,
    fallback: impl FnOnce() -> Manifold<N, 2, U>,
) -> Manifold<N, 2, U> {
    let pos_ab = pos_a.inv_compose(pos_b);
    let pos_ba = pos_ab.inverse();
    let radius = a.radius() + b.radius();
    let (sep_a, edge_a) = a.max_separation(b, &pos_ab);
    if sep_a > margin + radius {
        return Manifold::new();
    }
    let (sep_b, edge_b) = b.max_separation(a, &pos_ba);
    if sep_b > margin + radius {
        return Manifold::new();
    }
    let flip = b_is_reference(sep_a, sep_b, || a.size().max_of(b.size()));
    let clipped = if flip {
        clip_reference(b, edge_b, a, &pos_ba, margin, sep_b > N::zero())
    } else {
        clip_reference(a, edge_a, b, &pos_ab, margin, sep_a > N::zero())
    };
    if clipped.len == 0 {
        // SAT found no separating axis beyond the margin, but clipping kept no point: the
        // incident edge lies beyond the reference face's side planes (a short reference face,
        // such as a segment's, against a vertex). Never report "no contact" for that: take the
        // exact closest points or penetration from GJK/EPA as one contact.
        return fallback();
    }
    let scale = || a.size().max_of(b.size()) + pos_ab.translation.vector.norm();
    let floor = half_max_abs(&pos_ab.translation.vector);
    if clipped.shallower_than_sat(sep_a.max_of(sep_b) - radius, floor, scale) {
        let first =
            if flip { to_world(&clipped, pos_b, true) } else { to_world(&clipped, pos_a, false) };
        return deeper_of(first, || {
            let other = if flip {
                clip_reference(a, edge_a, b, &pos_ab, margin, sep_a > N::zero())
            } else {
                clip_reference(b, edge_b, a, &pos_ba, margin, sep_b > N::zero())
            };
            match (other.len, flip) {
                (0, _) => Manifold::new(),
                (_, true) => to_world(&other, pos_a, false),
                (_, false) => to_world(&other, pos_b, true),
            }
        });
    }
    // (The manifold is built where the caller wants it: the last expression, not a local
    // returned later, which would be copied out.)
    if flip { to_world(&clipped, pos_b, true) } else { to_world(&clipped, pos_a, false) }
}

/// Half the largest coordinate of `t`: at most `|t|`, without the root (the `floor` of
/// [`Clipped::shallower_than_sat`] for a scale that adds `|t|` to the shapes' sizes).
#[inline(always)]
pub(super) fn half_max_abs<N: Scalar>(t: &Vec2<N>) -> N {
    t.x.abs().max_of(t.y.abs()) * N::lit(0.5)
}

/// The deeper of `first` and the manifold `other` builds on the other polygon's face (see
/// [`Clipped::shallower_than_sat`]; rare, so out of line).
#[cold]
#[inline(never)]
pub(super) fn deeper_of<N: Scalar, U: Copy + Default>(
    first: Manifold<N, 2, U>,
    other: impl FnOnce() -> Manifold<N, 2, U>,
) -> Manifold<N, 2, U> {
    let second = other();
    if !second.is_empty() && deepest(&second) < deepest(&first) { second } else { first }
}

/// The smallest separation of a manifold's contacts (`N::MAX` for none).
fn deepest<N: Scalar, U: Copy + Default>(m: &Manifold<N, 2, U>) -> N {
    m.contacts().iter().fold(N::MAX, |d, c| d.min_of(c.separation))
}

/// Step 2: whether B's face is the reference face, given the best separations over A's and B's
/// normals and the larger of the two polygons' sizes ([`SatPolygon::size`]).
///
/// B's face wins only when better by 1e-4 of the polygons' size. The manifold's depth may then be
/// up to that much deeper than the exact one: the price of a reference face that does not flip
/// between frames when the two axes are nearly tied. The tolerance is positive, so B cannot win
/// unless its separation is the larger, and it is monotonic in the size and lies between its
/// values at the clamp's bounds, so outside that narrow band the answer is known without the
/// size: `size` (a square root) is only called inside it (same rounding, same answer).
#[inline(always)]
pub(super) fn b_is_reference<N: Scalar>(sep_a: N, sep_b: N, size: impl FnOnce() -> N) -> bool {
    let tolerance = |size: N| N::lit(1e-4) * geom::clamp(size, N::lit(1e-3), N::lit(1e3));
    sep_b > sep_a
        && (geom::biased_greater(sep_b, sep_a, N::one(), tolerance(N::lit(1e3)))
            || (geom::biased_greater(sep_b, sep_a, N::one(), tolerance(N::lit(1e-3)))
                && geom::biased_greater(sep_b, sep_a, N::one(), tolerance(size()))))
}

/// The exact closest points (or penetration) from GJK/EPA as one contact.
pub(super) fn exact_fallback<N: Scalar, U: Copy + Default>(
    pos_a: &Iso2<N>,
    a: &PolygonView<'_, N>,
    pos_b: &Iso2<N>,
    b: &PolygonView<'_, N>,
    margin: N,
) -> Manifold<N, 2, U> {
    let settings = crate::QuerySettings::default();
    match crate::contact(pos_a, a, pos_b, b, margin, &settings) {
        Some(c) if c.separation <= margin => {
            let mut m = Manifold::with_normal(c.normal);
            let id = ContactId::new(FeatureId::Unknown, FeatureId::Unknown);
            m.push(Contact::new(c.point_a, c.point_b, c.separation, id));
            m
        }
        _ => Manifold::new(),
    }
}

impl<N: Scalar> kollide_shapes::SupportMap<N, 2> for PolygonView<'_, N> {
    fn local_core_support(&self, dir: &Vec2<N>) -> Point2<N> {
        let mut best = self.vertices[0];
        let mut bd = best.coords.dot(dir);
        for v in &self.vertices[1..] {
            let d = v.coords.dot(dir);
            if d > bd {
                bd = d;
                best = *v;
            }
        }
        best
    }

    fn radius(&self) -> N {
        self.radius
    }
}

/// The largest distance of a vertex from the origin, plus the radius. (One square root: the
/// root of the largest squared norm is the largest root. Two running maxima, of the even and
/// the odd vertices, so the compares do not wait for each other; NaN never wins.)
fn polygon_size<N: Scalar>(p: &PolygonView<'_, N>) -> N {
    let mut m = [N::zero(); 2];
    for (k, v) in p.vertices.iter().enumerate() {
        let sq = v.coords.norm_squared();
        if sq > m[k & 1] {
            m[k & 1] = sq;
        }
    }
    let sq = if m[1] > m[0] { m[1] } else { m[0] };
    sq.sqrt() + p.radius
}

/// Up to two contacts in the reference polygon's frame, before they are moved to the world: a
/// few plain values, so no whole [`Manifold`] is built and copied. A contact is the incident
/// polygon's surface point where it was kept, with its separation and id; [`to_world`] places
/// the reference surface point from it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clipped<N: Scalar> {
    /// The normal from the reference polygon to the incident one.
    normal: Vec2<N>,
    /// The incident polygon's surface points.
    points: [Point2<N>; 2],
    /// Their separations (radii included).
    seps: [N; 2],
    /// Their feature ids, reference feature first.
    ids: [ContactId; 2],
    /// How many contacts were kept (the first `len`).
    pub(super) len: usize,
}

impl<N: Scalar> Clipped<N> {
    /// Whether these face-clipped points are shallower than the pair's SAT separation `sat` (the
    /// larger of the two polygons' best face separations, radii included) by more than rounding
    /// at `scale`, the size of the coordinates. The true separation is at most `sat`, so such a
    /// manifold misses overlap. The reference face kept by the bias (step 2) can be blind to it:
    /// a capsule's side, whose rounded end dips into a box's face beyond the side's clipping
    /// planes, keeps only the point on a side plane above it. The other polygon's face sees it.
    /// (An end-to-end contact may rightly be shallower: the closest points of two rounded cores
    /// need not lie on a face axis.)
    ///
    /// `floor` is a lower bound on the scale, cheaper than `scale()` (which scans the vertices):
    /// the test against it comes first and is implied by the test against the scale, so it
    /// decides nothing, and the usual case (points as deep as the SAT to rounding) skips the
    /// scan. The points are tested before they become a manifold, so that the manifold is built
    /// once, in its caller's place.
    #[inline(always)]
    pub(super) fn shallower_than_sat(&self, sat: N, floor: N, scale: impl FnOnce() -> N) -> bool {
        let deepest = if self.len > 1 { self.seps[0].min_of(self.seps[1]) } else { self.seps[0] };
        let id = self.ids[0];
        let face = matches!(id.a, FeatureId::Edge(_)) || matches!(id.b, FeatureId::Edge(_));
        let rounding = N::EPSILON * N::lit(64.0);
        self.len > 0
            && deepest > sat
            && face
            && deepest > sat + rounding * floor
            && deepest > sat + rounding * scale()
    }

    fn none(normal: Vec2<N>) -> Self {
        let zero = N::zero();
        let ids = [ContactId::default(); 2];
        Self { normal, points: [Point2::origin(); 2], seps: [zero; 2], ids, len: 0 }
    }
}

/// Builds the contacts in the reference polygon's frame (reference = A of the result): step 3
/// (the incident edge) on any [`SatPolygon`], then [`clip_edges`].
#[inline(always)]
fn clip_reference<N: Scalar>(
    r: &impl SatPolygon<N>,
    edge: usize,
    inc: &impl SatPolygon<N>,
    pos_ri: &Iso2<N>,
    margin: N,
    cores_apart: bool,
) -> Clipped<N> {
    let n = r.n(edge);
    // Incident edge: the most anti-parallel normal.
    let n_in_inc = pos_ri.inverse_transform_vector(&n);
    let mut ie = 0;
    let mut best = N::MAX;
    for i in 0..inc.len() {
        let d = inc.n(i).dot(&n_in_inc);
        if d < best {
            best = d;
            ie = i;
        }
    }
    let i1 = ie;
    let i2 = if ie + 1 == inc.len() { 0 } else { ie + 1 };
    let reference = ReferenceEdge {
        edge,
        next: if edge + 1 == r.len() { 0 } else { edge + 1 },
        v1: r.v(edge),
        v2: r.v(edge + 1),
        n,
        radius: r.radius(),
    };
    let incident = IncidentEdge {
        vertices: [i1, i2],
        ends: [pos_ri.transform_point(&inc.v(i1)), pos_ri.transform_point(&inc.v(i2))],
        radius: inc.radius(),
    };
    clip_edges(&reference, &incident, margin, cores_apart)
}

/// The reference face in its polygon's frame: edge `edge`, from `v1` (vertex `edge`) to `v2`
/// (vertex `next`), with outward unit normal `n`; `radius` is the polygon's rounding radius.
#[derive(Clone, Copy, Debug)]
pub(super) struct ReferenceEdge<N: Scalar> {
    pub(super) edge: usize,
    pub(super) next: usize,
    pub(super) v1: Point2<N>,
    pub(super) v2: Point2<N>,
    pub(super) n: Vec2<N>,
    pub(super) radius: N,
}

/// The incident edge: from vertex `vertices[0]` to vertex `vertices[1]` of its polygon, `ends`
/// in the reference polygon's frame; `radius` is the incident polygon's rounding radius.
#[derive(Clone, Copy, Debug)]
pub(super) struct IncidentEdge<N: Scalar> {
    pub(super) vertices: [usize; 2],
    pub(super) ends: [Point2<N>; 2],
    pub(super) radius: N,
}

/// Step 4 (and the end-to-end contact of rounded polygons), once the reference face and the
/// incident edge are known: the contacts in the reference polygon's frame. `cores_apart` is
/// whether the reference separation is positive.
#[inline(always)]
pub(super) fn clip_edges<N: Scalar>(
    reference: &ReferenceEdge<N>,
    incident: &IncidentEdge<N>,
    margin: N,
    cores_apart: bool,
) -> Clipped<N> {
    let ReferenceEdge { edge, next, v1, v2, n, radius: r_radius } = *reference;
    let [i1, i2] = incident.vertices;
    let inc_pts = [
        ClipVertex {
            p: incident.ends[0],
            id: ContactId::new(FeatureId::Edge(edge as u32), FeatureId::Vertex(i1 as u32)),
        },
        ClipVertex {
            p: incident.ends[1],
            id: ContactId::new(FeatureId::Edge(edge as u32), FeatureId::Vertex(i2 as u32)),
        },
    ];
    let radius = r_radius + incident.radius;

    // Rounded cores that are apart and meet end to end: one contact along the line joining the end
    // points. (When the cores overlap, the closest points of these two edges say nothing; nor
    // do ends closer than the rounding of their coordinates, as those of two coincident
    // capsules are, whose SAT separation is zero give or take that rounding: the line joining
    // them points anywhere, and the face normal stands.)
    if radius > N::zero() && cores_apart {
        let (s, t, pr, pi) = segments_closest(&v1, &v2, &inc_pts[0].p, &inc_pts[1].p);
        let at_end = |x: N| x <= N::zero() || x >= N::one();
        let d = pi - pr;
        let dist = d.norm();
        let noise = N::EPSILON * N::lit(16.0) * (pr.coords.norm() + pi.coords.norm());
        if at_end(s) && at_end(t) && dist > noise && d.dot(&n) < dist {
            let normal = d / dist;
            let sep = dist - radius;
            let mut m = Clipped::none(normal);
            if sep <= margin {
                let fr = if s <= N::zero() { edge } else { next };
                let fi = if t <= N::zero() { i1 } else { i2 };
                let id = ContactId::new(FeatureId::Vertex(fr as u32), FeatureId::Vertex(fi as u32));
                m = Clipped {
                    points: [pi - normal * incident.radius; 2],
                    seps: [sep; 2],
                    ids: [id; 2],
                    len: 1,
                    ..m
                };
            }
            return m;
        }
    }

    // Side planes of the reference face: t·p ≥ t·v1 and t·p ≤ t·v2. The unit tangent is the
    // normal turned a quarter turn back: the normal `(e.y, −e.x)/|e|` of the edge `e = v2 − v1`
    // gives `(e.x, e.y)/|e|`, the normalised edge itself, without a square root and divisions.
    let tangent = Vec2::new(-n.y, n.x);
    let none = Clipped::none(n);
    let Some(clipped) = clip_segment_pair(inc_pts, &-tangent, -tangent.dot(&v1.coords)) else {
        return none;
    };
    let Some(out) = clip_segment_pair(clipped, &tangent, tangent.dot(&v2.coords)) else {
        return none;
    };
    let face = n.dot(&v1.coords);
    // How far below each core point the incident surface lies: its radius, or more where a
    // tilted rounded edge was cut by a side plane ([`rounded_drops`]). Sharp polygons, the
    // common case, skip it.
    let sep = |cv: &ClipVertex<N>| (n.dot(&cv.p.coords) - face) - radius;
    let (mut sep0, mut sep1) = (sep(&out[0]), sep(&out[1]));
    let mut out = out;
    if incident.radius > N::zero() {
        (sep0, sep1) = rounded_drops(&mut out, incident, &n, [sep0, sep1]);
    }
    let (keep0, keep1) = (sep0 <= margin, sep1 <= margin);
    // The kept points are moved to the front: selects, not stores at a running index.
    let first = if keep0 { 0 } else { 1 };
    Clipped {
        normal: n,
        points: [out[first].p, out[1].p],
        seps: [if keep0 { sep0 } else { sep1 }, sep1],
        ids: [out[first].id, out[1].id],
        len: usize::from(keep0) + usize::from(keep1),
    }
}

/// Moves the clipped core points `out` of a rounded incident polygon down along `−n` to its
/// surface, and deepens their separations `seps` (which count the plain radius) to match. For
/// a box or a capsule, whose corners turn by at most a right angle, the incident edge's own
/// capsule is the whole story: the line starts on the edge and heads within a right angle of
/// its outward normal (the most anti-parallel to `n`), so no neighbouring edge's band reaches
/// further. Out of line: sharp polygons never call it.
#[inline(never)]
fn rounded_drops<N: Scalar>(
    out: &mut [ClipVertex<N>; 2],
    incident: &IncidentEdge<N>,
    n: &Vec2<N>,
    seps: [N; 2],
) -> (N, N) {
    let mut drop = |k: usize| {
        let d = drop_to_capsule_surface(&out[k].p, &incident.ends, n, incident.radius);
        out[k].p -= n * d;
        seps[k] - (d - incident.radius)
    };
    (drop(0), drop(1))
}

/// The world manifold of contacts built in the reference polygon's frame, placed in the world by
/// `frame` (the reference polygon's pose). `flip` is whether the reference was B: the normal is
/// then negated, and points and feature ids swapped, to go from A to B.
///
/// Each contact's incident surface point is moved to the world once; the reference surface point
/// lies the separation below it along the normal (`point_b − point_a = separation · normal`).
#[inline(always)]
pub(super) fn to_world<N: Scalar, U: Copy + Default>(
    clipped: &Clipped<N>,
    frame: &Iso2<N>,
    flip: bool,
) -> Manifold<N, 2, U> {
    let n = frame.rotation * clipped.normal;
    // Both slots are placed (the second may be unused: a few products, no branch), and the
    // manifold is written once.
    let world = |k: usize| {
        let on_inc = frame * clipped.points[k];
        let on_ref = on_inc - n * clipped.seps[k];
        let (sep, id) = (clipped.seps[k], clipped.ids[k]);
        if flip {
            Contact::new(on_inc, on_ref, sep, id.flipped())
        } else {
            Contact::new(on_ref, on_inc, sep, id)
        }
    };
    Manifold::from_contacts(if flip { -n } else { n }, [world(0), world(1)], clipped.len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_shapes::ConvexPolygon;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The climb finds the scan's minimum, bit for bit, from any hint, on hulls of random points
    /// of a thin ring (so that most are hull vertices), f32 and f64, far from the origin too; the
    /// test counts the climbs that moved.
    fn climb_matches_scan<N: Scalar>(seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moved = 0;
        for _ in 0..200 {
            let count = rng.random_range(33..1500);
            let (cx, cy): (f64, f64) = (rng.random_range(-1e3..1e3), rng.random_range(-1e3..1e3));
            let scale = 10f64.powf(rng.random_range(-2.0..2.0));
            let pts: Vec<Point2<N>> = (0..count)
                .map(|_| {
                    let (r, t) =
                        (1.0 - rng.random_range(0.0f64..0.01), rng.random_range(0.0f64..6.3));
                    Point2::new(N::lit(cx + scale * r * t.cos()), N::lit(cy + scale * r * t.sin()))
                })
                .collect();
            let Ok(p) = ConvexPolygon::from_hull(&pts) else { continue };
            for _ in 0..50 {
                let a = rng.random_range(0.0..6.3f64);
                let d = Vec2::new(N::lit(a.cos()), N::lit(a.sin()));
                let start = rng.random_range(0..p.vertices().len());
                let mut hint = start;
                let climbed = min_dot_climb(p.vertices(), &d, &mut hint);
                assert_eq!(climbed, min_dot(p.vertices(), &d));
                moved += usize::from(hint != start);
            }
        }
        assert!(moved > 1000, "{moved} climbs moved");
    }

    #[test]
    fn the_climb_finds_the_scans_minimum_f64() {
        climb_matches_scan::<f64>(1);
    }

    #[test]
    fn the_climb_finds_the_scans_minimum_f32() {
        climb_matches_scan::<f32>(2);
    }
}
