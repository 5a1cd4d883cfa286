//! The face contact of two boxes: one box's face quad clipped against the other's face, with
//! every plane axis-aligned.
//!
//! This is [`super::clip_reference_face`] (the general face clipping, see [`super::face_clip`]
//! and [`super::clip3`]) written for the one case where all of it is known in advance, in the
//! frame of the reference box:
//!
//! * The **reference face** is the face of the reference box on axis `w` with outward normal
//!   `n = ±e_w`; the contact direction is `n` itself. Its corners are the box vertices listed by
//!   [`FACE_CORNERS`], counter-clockwise seen from outside, as
//!   [`Cuboid::local_support_feature`](kollide_shapes::SupportFeatureMap::local_support_feature)
//!   lists them.
//! * Its four **side planes** are axis-aligned: the plane of edge `k` (corners `k → k + 1`, along
//!   axis `e`) is `σ p_c ≤ h_c + slack`, with `c` the axis that is neither `w` nor `e` and `σ` the
//!   sign of corner `k` on `c`. The signed distance of a point to it is `σ p_c − h_c − slack`: one
//!   coordinate instead of a dot product, and exactly the value the general clipper computes
//!   (its unit side normal is `±e_c` with exact zeros).
//! * The **incident face** is the other box's face most anti-parallel to `n`: the largest
//!   component of `−n` in the incident box's frame. Its four corners are placed in the reference
//!   frame, and its normal is taken from them (Newell's formula), exactly as the general clipper
//!   does: the points handed to the reduction are then bit for bit the general clipper's, and so
//!   is the reduction's choice among points of equal area, which boxes produce all the time
//!   (points on parallel edges).
//! * **Clipping** is Sutherland–Hodgman on a fixed eight-slot polygon (a quad clipped by four
//!   planes keeps at most eight points), with the feature ids of [`super::clip3`]: incident
//!   vertices keep `(reference face, incident vertex)`, crossings of incident edges are
//!   `(reference edge, incident edge)`, crossings of two side planes are the reference corner
//!   `(corner, incident face)`. A box has 26 features, so while clipping every id is a one-byte
//!   code (vertices `0..8`, edges `8..20`, faces `20..26`), turned into [`FeatureId`]s at the end.
//!   The side planes of each of the six faces (axis, sign, edge and corner codes) and the edge
//!   codes of each face's corners are tables built at compile time.
//! * **Planes that cut nothing are skipped.** Each pass first measures every point against its
//!   plane: when all are inside, Sutherland–Hodgman would copy the polygon unchanged (same points,
//!   same order, same ids), so the pass does nothing; when none is, the face contact is empty.
//!   Only a plane that really cuts the polygon runs the clip, into the other of two buffers. Resting
//!   boxes mostly meet the first case: a box on a larger one, or beside an equal one, has every
//!   incident corner inside most side planes (inside all four when the faces coincide).
//! * The **slack** and the corner correction follow [`super::face_clip`]: side planes move out
//!   by `slack` when the faces are nearly anti-parallel (cosine ≥ 0.99), and a reference corner
//!   left by the clip is put back on the line through the true corner along `n`, where it meets
//!   the incident face's plane; any other point the slack kept beyond the rim is moved back onto
//!   it (its coordinates on the side axes clamped to the face), or, where that takes it off the
//!   incident face, to the nearest point of the incident face clipped without slack (a second
//!   clip, made only then). The rule is [`super::face_clip`]'s own code
//!   ([`settle_slack_point`]), given the box's planes and faces.
//! * Each point `p` left is lifted to the reference face: its gap is `n · p − h_w`, the point on
//!   the reference face `p − gap·n`. Points with a gap above the margin are dropped.
//!
//! Nothing is allocated; the result goes to a caller's [`FacePoints`]: at most eight points on
//! the incident box with their gaps and feature codes, which the caller turns into contacts (in
//! the world, and reduced to four only when there are more than four).

use kollide_manifold::{Contact, ContactId};
use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_shapes::{Cuboid, FeatureId};

use super::cuboid_cuboid::cuboid_edge_id_const;
use super::face_clip::{
    IncidentPlane, SlackRim, newell_normal, settle_slack_corner, settle_slack_point,
};

/// Faces whose normals are anti-parallel within this cosine (about 8°) count as resting on each
/// other and get the clipping slack (the value of [`super::face_clip`]).
const PARALLEL_FACES: f64 = 0.99;

/// The most points a box face quad clipped by four planes can keep.
pub(crate) const MAX_FACE_POINTS: usize = 8;

/// The corners of box face `f` (`2·axis + side`, side 0 for `+`), counter-clockwise seen from
/// outside, in the order of the box's support feature: `(u, v, axis)` right-handed, starting at
/// the corner with both `u` and `v` negative.
pub(crate) const FACE_CORNERS: [[u32; 4]; 6] = face_corners_table();

const fn face_corners_table() -> [[u32; 4]; 6] {
    let mut table = [[0u32; 4]; 6];
    let mut f = 0;
    while f < 6 {
        let axis = f / 2;
        let side = if f % 2 == 0 { 1u32 << axis } else { 0 };
        let (bu, bv) = (1u32 << ((axis + 1) % 3), 1u32 << ((axis + 2) % 3));
        let corners = if side != 0 { [0, bu, bu | bv, bv] } else { [0, bv, bu | bv, bu] };
        let mut k = 0;
        while k < 4 {
            table[f][k] = corners[k] | side;
            k += 1;
        }
        f += 1;
    }
    table
}

/// The code of the box edge between adjacent corners `u` and `v` (see [`Poly`]).
const fn edge_code(u: u32, v: u32) -> u8 {
    EDGE + cuboid_edge_id_const(u & v, (u ^ v).trailing_zeros()) as u8
}

/// `FACE_EDGES[f][k]`: the code of the edge of face `f` from corner `k` to corner `k + 1`.
const FACE_EDGES: [[u8; 4]; 6] = face_edges_table();

const fn face_edges_table() -> [[u8; 4]; 6] {
    let mut table = [[0u8; 4]; 6];
    let mut f = 0;
    while f < 6 {
        let mut k = 0;
        while k < 4 {
            table[f][k] = edge_code(FACE_CORNERS[f][k], FACE_CORNERS[f][(k + 1) % 4]);
            k += 1;
        }
        f += 1;
    }
    table
}

/// A side plane of a reference face: the plane of the face's edge from corner `k` to corner
/// `k + 1` (along axis `e`) is `±p[axis] ≤ h[axis] + slack`, with `axis` the one that is neither
/// the face's axis nor `e`, and the sign of corner `k` on it (`negative` when it is `−`).
#[derive(Clone, Copy)]
struct Side {
    axis: u8,
    negative: bool,
    /// The code of the face edge.
    edge: u8,
    /// The code of corner `k` (where this plane meets the previous one).
    corner: u8,
}

/// `SIDES[f]`: the four side planes of face `f`, in the order of its edges.
const SIDES: [[Side; 4]; 6] = sides_table();

const fn sides_table() -> [[Side; 4]; 6] {
    let mut table = [[Side { axis: 0, negative: false, edge: 0, corner: 0 }; 4]; 6];
    let mut f = 0;
    while f < 6 {
        let mut k = 0;
        while k < 4 {
            let (u, v) = (FACE_CORNERS[f][k], FACE_CORNERS[f][(k + 1) % 4]);
            let axis = 3 - f / 2 - (u ^ v).trailing_zeros() as usize;
            table[f][k] = Side {
                axis: axis as u8,
                negative: u & (1 << axis) == 0,
                edge: edge_code(u, v),
                corner: u as u8,
            };
            k += 1;
        }
        f += 1;
    }
    table
}

/// Feature codes: vertices `0..8`, edges from [`EDGE`], faces from [`FACE`].
const EDGE: u8 = 8;
const FACE: u8 = 20;
const UNKNOWN: u8 = u8::MAX;

/// The feature of a code.
fn feature(code: u8) -> FeatureId {
    match code {
        0..EDGE => FeatureId::Vertex(u32::from(code)),
        EDGE..FACE => FeatureId::Edge(u32::from(code - EDGE)),
        FACE..UNKNOWN => FeatureId::Face(u32::from(code - FACE)),
        UNKNOWN => FeatureId::Unknown,
    }
}

/// A polygon being clipped, in fixed inline storage: point `i` is `p[i]`, with its feature pair
/// `(a[i], b[i])` = (reference feature, incident feature) and what the edge leaving it lies on
/// (`edge[i]`: side plane `0..4`, or the code of an incident edge), all as one-byte feature
/// codes so that the clip moves little memory.
#[derive(Clone, Copy)]
struct Poly<N: Scalar> {
    p: [Point3<N>; MAX_FACE_POINTS],
    a: [u8; MAX_FACE_POINTS],
    b: [u8; MAX_FACE_POINTS],
    edge: [u8; MAX_FACE_POINTS],
    len: usize,
}

impl<N: Scalar> Poly<N> {
    fn new() -> Self {
        Self {
            p: [Point3::origin(); MAX_FACE_POINTS],
            a: [UNKNOWN; MAX_FACE_POINTS],
            b: [UNKNOWN; MAX_FACE_POINTS],
            edge: [UNKNOWN; MAX_FACE_POINTS],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, p: Point3<N>, a: u8, b: u8, edge: u8) {
        // A convex quad clipped by four planes never exceeds eight points; the guard only keeps
        // rounding from ever indexing past the end.
        let i = self.len;
        if i < MAX_FACE_POINTS {
            self.p[i] = p;
            self.a[i] = a;
            self.b[i] = b;
            self.edge[i] = edge;
            self.len = i + 1;
        }
    }
}

/// Clips `input` against side plane `k` of reference face `f` into `out` (one
/// Sutherland–Hodgman pass, see [`super::clip3`]), given every point's signed distance `d` to
/// the plane. `face` is the incident face's code.
#[inline(always)]
fn clip_to_side<N: Scalar>(
    input: &Poly<N>,
    d: &[N; MAX_FACE_POINTS],
    f: usize,
    k: usize,
    face: u8,
    out: &mut Poly<N>,
) {
    out.len = 0;
    let n = input.len;
    let side = &SIDES[f][k];
    let crossing = |j: usize, i: usize| {
        let (dp, dc) = (d[j], d[i]);
        let t = dp / (dp - dc);
        let p = input.p[j] + (input.p[i] - input.p[j]) * t;
        let edge = input.edge[j];
        if edge >= EDGE {
            // An incident edge through the plane.
            (p, side.edge, edge)
        } else {
            // A piece of an earlier side plane through this one: the corner they share.
            let other = usize::from(edge);
            let corner = if other == (k + 3) % 4 {
                side.corner
            } else if other == (k + 1) % 4 {
                SIDES[f][(k + 1) % 4].corner
            } else {
                UNKNOWN
            };
            (p, corner, face)
        }
    };
    let zero = N::zero();
    let mut j = n - 1;
    for i in 0..n {
        let (prev_in, cur_in) = (d[j] <= zero, d[i] <= zero);
        if prev_in && cur_in {
            out.push(input.p[i], input.a[i], input.b[i], input.edge[i]);
        } else if prev_in {
            let (p, a, b) = crossing(j, i);
            out.push(p, a, b, k as u8);
        } else if cur_in {
            let (p, a, b) = crossing(j, i);
            out.push(p, a, b, input.edge[j]);
            out.push(input.p[i], input.a[i], input.b[i], input.edge[i]);
        }
        j = i;
    }
}

/// The points of a face contact, in the reference box's frame: point `i` of `len` is
/// `on_inc[i]`, on the incident box, `gap[i]` away from the reference face along its normal,
/// from the feature pair `(a[i], b[i])` (feature codes: reference feature, incident feature).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FacePoints<N: Scalar> {
    on_inc: [Point3<N>; MAX_FACE_POINTS],
    gap: [N; MAX_FACE_POINTS],
    a: [u8; MAX_FACE_POINTS],
    b: [u8; MAX_FACE_POINTS],
    /// How many points there are.
    pub(crate) len: usize,
}

impl<N: Scalar> FacePoints<N> {
    /// No points.
    pub(crate) fn new() -> Self {
        Self {
            on_inc: [Point3::origin(); MAX_FACE_POINTS],
            gap: [N::zero(); MAX_FACE_POINTS],
            a: [UNKNOWN; MAX_FACE_POINTS],
            b: [UNKNOWN; MAX_FACE_POINTS],
            len: 0,
        }
    }

    /// Point `i` as a contact of the reference face on `axis` with outward normal
    /// `sign · e_axis`: `(point on the reference face, point on the incident box)`, the gap as
    /// the separation, ids `(feature of the reference box, feature of the incident box)`.
    #[inline(always)]
    pub(crate) fn contact<U: Copy + Default>(
        &self,
        i: usize,
        axis: usize,
        sign: N,
    ) -> Contact<N, 3, U> {
        let (p, gap) = (self.on_inc[i], self.gap[i]);
        let mut on_ref = p;
        on_ref[axis] -= sign * gap;
        Contact::new(on_ref, p, gap, ContactId::new(feature(self.a[i]), feature(self.b[i])))
    }
}

/// The incident quad clipped against the four side planes of the reference face `ref_face` of a
/// box of half extents `hr`, moved out by `slack`; `None` when nothing is left.
#[inline(always)]
fn clip_quad<N: Scalar>(
    quad: &Poly<N>,
    hr: &Vec3<N>,
    ref_face: usize,
    inc_code: u8,
    slack: N,
) -> Option<Poly<N>> {
    let zero = N::zero();
    let mut bufs = [*quad, Poly::new()];
    let mut cur = 0;
    for (k, side) in SIDES[ref_face].iter().enumerate() {
        let c = usize::from(side.axis);
        let offset = hr[c] + slack;
        let [b0, b1] = &mut bufs;
        let (input, output) = if cur == 0 { (&*b0, b1) } else { (&*b1, b0) };
        let count = input.len;
        let mut d = [zero; MAX_FACE_POINTS];
        let mut inside = 0;
        for (di, p) in d.iter_mut().zip(&input.p[..count]) {
            let x = p[c];
            // `σ p_c − offset` with σ = ±1, the general clipper's dot product with `±e_c`.
            *di = if side.negative { -x - offset } else { x - offset };
            inside += usize::from(*di <= zero);
        }
        if inside == count {
            continue;
        }
        if inside == 0 {
            return None;
        }
        clip_to_side(input, &d, ref_face, k, inc_code, output);
        cur ^= 1;
    }
    Some(bufs[cur])
}

/// The face contact of the reference box `r` (its face on `axis` with outward normal
/// `sign · e_axis`, `sign = ±1`) and the box `inc` placed in `r`'s frame by `pos_ri`. Writes the
/// points with a separation up to `margin` to `out` (see [`FacePoints`]), in `r`'s frame, and
/// returns how many. `slack` moves the side planes out for resting faces (see the module docs).
pub(crate) fn cuboid_face_contact<N: Scalar>(
    r: &Cuboid<N, 3>,
    axis: usize,
    sign: N,
    inc: &Cuboid<N, 3>,
    pos_ri: &Iso3<N>,
    margin: N,
    slack: N,
    out: &mut FacePoints<N>,
) -> usize {
    out.len = 0;
    let zero = N::zero();
    let hr = r.half_extents();
    let ref_face = 2 * axis + usize::from(sign < zero);

    // The incident face: the support face of `inc` in −n (in its own frame).
    let mut n = Vec3::zeros();
    n[axis] = sign;
    let inc_face = inc.support_face_index(&pos_ri.inverse_transform_vector(&-n)) as usize;
    let inc_code = FACE + inc_face as u8;
    let inc_corners = &FACE_CORNERS[inc_face];
    let mut quad = Poly::new();
    let mut corners = [Point3::origin(); 4];
    for k in 0..4 {
        let v = inc_corners[k];
        corners[k] = pos_ri * inc.vertex(v);
        quad.push(corners[k], FACE + ref_face as u8, v as u8, FACE_EDGES[inc_face][k]);
    }
    // The incident face's outward normal (from its corners, as the general clipper has it), and
    // its cosine with n.
    let inc_normal = newell_normal(&corners);
    let inc_denom = inc_normal.dot(&n);
    let slack = if -inc_denom >= N::lit(PARALLEL_FACES) { slack } else { zero };
    let Some(clipped) = clip_quad(&quad, &hr, ref_face, inc_code, slack) else {
        return 0;
    };
    // Points the slack kept beyond the rim go back onto it ([`settle_slack_point`]).
    let mut rim = BoxRim {
        axis,
        hr,
        quad: &quad,
        ref_face,
        inc_code,
        pos_ri,
        hi: inc.half_extents(),
        inc_axis: inc_face / 2,
        exact: None,
    };
    let incident_plane = IncidentPlane {
        point: corners[0],
        normal: inc_normal,
        denom: inc_denom,
        on_face_tol: slack * N::EPSILON.sqrt() * N::lit(10.0),
    };

    // Lift the points to the reference face.
    let plane = sign * hr[axis];
    let fix_corners = inc_denom.abs() > N::lit(1e-3);
    let mut count = 0;
    for i in 0..clipped.len {
        let mut p = clipped.p[i];
        let (a, b) = (clipped.a[i], clipped.b[i]);
        if fix_corners && b == inc_code && a < EDGE {
            // A reference corner: back onto the true corner's line along n, which need not be
            // on the incident face ([`settle_slack_corner`]).
            let c = r.vertex(u32::from(a));
            p = c + n * (inc_normal.dot(&(corners[0] - c)) / inc_denom);
            if slack > zero {
                match settle_slack_corner(&mut rim, p, &incident_plane) {
                    Some(q) => p = q,
                    None => continue,
                }
            }
        } else if slack > zero {
            match settle_slack_point(&mut rim, p, &n, &incident_plane) {
                Some(q) => p = q,
                None => continue,
            }
        }
        let gap = sign * (p[axis] - plane);
        if gap <= margin {
            out.on_inc[count] = p;
            out.gap[count] = gap;
            out.a[count] = a;
            out.b[count] = b;
            count += 1;
        }
    }
    out.len = count;
    count
}

/// The side planes of a box's reference face and the face of the incident box, for
/// [`settle_slack_point`].
struct BoxRim<'a, N: Scalar> {
    /// The reference face's axis, and the reference box's half extents.
    axis: usize,
    hr: Vec3<N>,
    /// The incident quad as clipped, and the codes of the two faces.
    quad: &'a Poly<N>,
    ref_face: usize,
    inc_code: u8,
    /// The incident box's pose in the reference frame, its half extents and its face's axis.
    pos_ri: &'a Iso3<N>,
    hi: Vec3<N>,
    inc_axis: usize,
    /// The clip without slack, once made (`None` inside: nothing left).
    exact: Option<Option<Poly<N>>>,
}

impl<N: Scalar> SlackRim<N> for BoxRim<'_, N> {
    #[inline(always)]
    fn onto_rim(&self, p: &Point3<N>) -> Option<Point3<N>> {
        let (axis, hr) = (self.axis, &self.hr);
        if !(0..3).any(|c| c != axis && p[c].abs() > hr[c]) {
            return None;
        }
        // The side planes are `±p_c ≤ h_c`: clamping the side coordinates is the move across n.
        let mut q = *p;
        for c in (0..3).filter(|&c| c != axis) {
            q[c] = q[c].max_of(-hr[c]).min_of(hr[c]);
        }
        Some(q)
    }

    #[inline(always)]
    fn off_face(&self, p: &Point3<N>) -> N {
        let q = self.pos_ri.inverse_transform_point(p);
        (0..3)
            .filter(|&c| c != self.inc_axis)
            .map(|c| q[c].abs() - self.hi[c])
            .fold(N::zero(), N::max_of)
    }

    fn exact_clip(&mut self) -> &[Point3<N>] {
        let exact = self.exact.get_or_insert_with(|| {
            clip_quad(self.quad, &self.hr, self.ref_face, self.inc_code, N::zero())
        });
        match exact {
            Some(e) => &e.p[..e.len],
            None => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_shapes::{SupportFeature, SupportFeatureMap};

    #[test]
    fn face_corners_follow_the_support_feature() {
        let c = Cuboid::new(Vec3::new(1.0f64, 2.0, 3.0)).unwrap();
        for (f, corners) in FACE_CORNERS.iter().enumerate() {
            let mut dir = Vec3::zeros();
            dir[f / 2] = if f % 2 == 0 { 1.0 } else { -1.0 };
            let mut feature = SupportFeature::new();
            c.local_support_feature(&dir, &mut feature);
            assert_eq!(feature.id, FeatureId::Face(f as u32));
            let ids: Vec<_> = corners.iter().map(|&v| FeatureId::Vertex(v)).collect();
            assert_eq!(&feature.vertex_ids[..], &ids[..]);
        }
    }
}
