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
//! * The **slack** and the corner correction follow [`super::face_clip`]: side planes move out
//!   by `slack` when the faces are nearly anti-parallel (cosine ≥ 0.99), and a reference corner
//!   left by the clip is put back on the line through the true corner along `n`, where it meets
//!   the incident face's plane.
//! * Each point `p` left is lifted to the reference face: its gap is `n · p − h_w`, the point on
//!   the reference face `p − gap·n`. Points with a gap above the margin are dropped.
//!
//! Nothing is allocated; the result goes to a caller's array of eight contacts.

use kollide_manifold::{Contact, ContactId};
use kollide_math::{Iso3, Point3, Scalar, Vec3};
use kollide_shapes::{Cuboid, FeatureId};

use super::cuboid_cuboid::cuboid_edge_id;
use super::face_clip::newell_normal;

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

/// The code of the box edge between adjacent corners `u` and `v` (see [`Point`]).
fn edge_code(u: u32, v: u32) -> u8 {
    EDGE + cuboid_edge_id(u & v, (u ^ v).trailing_zeros()) as u8
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

/// A point being clipped: the point, its feature pair `(a, b)` = (reference feature, incident
/// feature) and what the edge leaving it lies on (`edge`: side plane `0..4`, or the code of an
/// incident edge), all as one-byte feature codes so that the clip moves little memory.
#[derive(Clone, Copy, Debug)]
struct Point<N: Scalar> {
    p: Point3<N>,
    a: u8,
    b: u8,
    edge: u8,
}

/// A polygon being clipped, in fixed inline storage.
struct Quad<N: Scalar> {
    points: [Point<N>; MAX_FACE_POINTS],
    len: usize,
}

impl<N: Scalar> Quad<N> {
    fn new() -> Self {
        let p = Point { p: Point3::origin(), a: UNKNOWN, b: UNKNOWN, edge: UNKNOWN };
        Self { points: [p; MAX_FACE_POINTS], len: 0 }
    }

    fn push(&mut self, v: Point<N>) {
        // A convex quad clipped by four planes never exceeds eight points; the guard only keeps
        // rounding from ever indexing past the end.
        if self.len < MAX_FACE_POINTS {
            self.points[self.len] = v;
            self.len += 1;
        }
    }
}

/// The reference face's side planes: plane `k` (of the edge from corner `k` to corner `k + 1`)
/// is `sign[k] · p[axis[k]] ≤ offset[k]`; `corner[k]` and `edge[k]` are feature codes.
struct Sides<N: Scalar> {
    axis: [usize; 4],
    sign: [N; 4],
    offset: [N; 4],
    edge: [u8; 4],
    corner: [u8; 4],
}

/// Clips `input` against side plane `k` into `out` (one Sutherland–Hodgman pass, see
/// [`super::clip3`]). `face` is the incident face's code.
fn clip_to_side<N: Scalar>(
    input: &Quad<N>,
    sides: &Sides<N>,
    k: usize,
    face: u8,
    out: &mut Quad<N>,
) {
    out.len = 0;
    let n = input.len;
    if n == 0 {
        return;
    }
    let (axis, sign, offset) = (sides.axis[k], sides.sign[k], sides.offset[k]);
    let dist = |v: &Point<N>| sign * v.p[axis] - offset;
    let crossing = |prev: &Point<N>, cur: &Point<N>, dp: N, dc: N| {
        let t = dp / (dp - dc);
        let p = prev.p + (cur.p - prev.p) * t;
        if prev.edge >= EDGE {
            // An incident edge through the plane.
            (p, sides.edge[k], prev.edge)
        } else {
            // A piece of an earlier side plane through this one: the corner they share.
            let other = usize::from(prev.edge);
            let corner = if other == (k + 3) % 4 {
                sides.corner[k]
            } else if other == (k + 1) % 4 {
                sides.corner[(k + 1) % 4]
            } else {
                UNKNOWN
            };
            (p, corner, face)
        }
    };
    let mut prev = &input.points[n - 1];
    let mut dp = dist(prev);
    for cur in &input.points[..n] {
        let dc = dist(cur);
        let (prev_in, cur_in) = (dp <= N::zero(), dc <= N::zero());
        if prev_in && cur_in {
            out.push(*cur);
        } else if prev_in {
            let (p, a, b) = crossing(prev, cur, dp, dc);
            out.push(Point { p, a, b, edge: k as u8 });
        } else if cur_in {
            let (p, a, b) = crossing(prev, cur, dp, dc);
            out.push(Point { p, a, b, edge: prev.edge });
            out.push(*cur);
        }
        prev = cur;
        dp = dc;
    }
}

/// The face contact of the reference box `r` (its face on `axis` with outward normal
/// `sign · e_axis`, `sign = ±1`) and the box `inc` placed in `r`'s frame by `pos_ri`. Writes the
/// contacts with a separation up to `margin` to `out`, in `r`'s frame as
/// `(point on r, point on inc)` with ids `(feature of r, feature of inc)`, and returns how many.
/// `slack` moves the side planes out for resting faces (see the module docs).
pub(crate) fn cuboid_face_contact<N: Scalar, U: Copy + Default>(
    r: &Cuboid<N, 3>,
    axis: usize,
    sign: N,
    inc: &Cuboid<N, 3>,
    pos_ri: &Iso3<N>,
    margin: N,
    slack: N,
    out: &mut [Contact<N, 3, U>; MAX_FACE_POINTS],
) -> usize {
    let zero = N::zero();
    let hr = r.half_extents;
    let ref_face = 2 * axis + usize::from(sign < zero);
    let ref_corners = &FACE_CORNERS[ref_face];
    let ref_code = FACE + ref_face as u8;

    // The incident face: the support face of `inc` in −n (in its own frame).
    let mut n = Vec3::zeros();
    n[axis] = sign;
    let inc_face = inc.support_face_index(&pos_ri.inverse_transform_vector(&-n));
    let inc_code = FACE + inc_face as u8;
    let inc_corners = &FACE_CORNERS[inc_face as usize];
    let mut a = Quad::new();
    let mut corners = [Point3::origin(); 4];
    for k in 0..4 {
        let v = inc_corners[k];
        corners[k] = pos_ri * inc.vertex(v);
        a.push(Point {
            p: corners[k],
            a: ref_code,
            b: v as u8,
            edge: edge_code(v, inc_corners[(k + 1) % 4]),
        });
    }
    // The incident face's outward normal (from its corners, as the general clipper has it), and
    // its cosine with n.
    let inc_normal = newell_normal(&corners);
    let inc_denom = inc_normal.dot(&n);
    let slack = if -inc_denom >= N::lit(PARALLEL_FACES) { slack } else { zero };

    // The side planes, in the order of the reference face's edges.
    let mut sides =
        Sides { axis: [0; 4], sign: [zero; 4], offset: [zero; 4], edge: [0; 4], corner: [0; 4] };
    for k in 0..4 {
        let (u, v) = (ref_corners[k], ref_corners[(k + 1) % 4]);
        let c = 3 - axis - (u ^ v).trailing_zeros() as usize;
        sides.axis[k] = c;
        sides.sign[k] = if u & (1 << c) != 0 { N::one() } else { -N::one() };
        sides.offset[k] = hr[c] + slack;
        sides.edge[k] = edge_code(u, v);
        sides.corner[k] = u as u8;
    }
    let mut b = Quad::new();
    for k in 0..4 {
        clip_to_side(&a, &sides, k, inc_code, &mut b);
        core::mem::swap(&mut a, &mut b);
        if a.len == 0 {
            return 0;
        }
    }

    // Lift the points to the reference face.
    let plane = sign * hr[axis];
    let fix_corners = inc_denom.abs() > N::lit(1e-3);
    let mut count = 0;
    for v in &a.points[..a.len] {
        let mut p = v.p;
        if fix_corners && v.b == inc_code && v.a < EDGE {
            // A reference corner: back onto the true corner's line along n.
            let c = r.vertex(u32::from(v.a));
            p = c + n * (inc_normal.dot(&(corners[0] - c)) / inc_denom);
        }
        let gap = sign * (p[axis] - plane);
        if gap <= margin {
            let mut on_ref = p;
            on_ref[axis] -= sign * gap;
            out[count] = Contact::new(on_ref, p, gap, ContactId::new(feature(v.a), feature(v.b)));
            count += 1;
        }
    }
    count
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
