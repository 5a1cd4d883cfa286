//! Sutherland–Hodgman clipping of a 3D polygon (or segment) against planes, keeping feature ids.
//!
//! Clipping a convex polygon against a half-space `s · p ≤ offset` walks its edges `prev → cur`
//! and keeps the inside part of each (Sutherland & Hodgman, "Reentrant polygon clipping", CACM
//! 1974):
//!
//! ```text
//!   prev in,  cur in   → push cur
//!   prev in,  cur out  → push the crossing
//!   prev out, cur in   → push the crossing, then cur
//!   prev out, cur out  → nothing
//! ```
//!
//! Face–face contact clips the *incident* face against the side planes of the *reference* face,
//! one plane after another; what is left is the part of the incident face above the reference
//! face. With `closed = false` the input is an open chain (a segment: an incident edge), and the
//! edge from the last point back to the first is not walked.
//!
//! ## Feature ids
//! Every point of the result carries a [`ContactId`] `(reference feature, incident feature)` that
//! says where it came from, so that a resting box's contacts keep their ids from frame to frame
//! (warm starting):
//!
//! * an incident vertex that survives keeps the id it was given (the caller uses
//!   `(reference face, incident vertex)`);
//! * a point where incident edge `e` crosses the side plane of reference edge `k` is
//!   `(k's edge id, e)`;
//! * a point where a piece of side plane `k'` (left by an earlier clip) crosses side plane `k` is
//!   the reference face's corner between those two edges: `(corner vertex id, incident face)`.
//!
//! To know which case a crossing is, each point also records what the edge *leaving* it lies on
//! ([`ClipEdge`]): an incident edge, or a side plane. A crossing that enters the half-space lies
//! on the same edge as its predecessor; one that leaves it starts an edge along the plane.
//!
//! Points are kept in a `SmallVec` with 16 inline slots: clipping an `n`-gon against `m` planes
//! leaves at most `n + m` points (8 for two boxes), so only faces with more than a dozen vertices
//! ever spill to the heap.

use kollide_manifold::ContactId;
use kollide_math::{Point3, Scalar, Vec3};
use kollide_shapes::FeatureId;
use smallvec::SmallVec;

use super::clip3_convex::clip_convex;

/// What the edge from a clip point to the next one lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClipEdge {
    /// An edge of the incident feature, with its id.
    Incident(FeatureId),
    /// The side plane with this index (in the slice of planes being clipped against).
    Side(usize),
}

/// A point of the incident feature being clipped, with its contact id and the edge leaving it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipVertex3<N: Scalar> {
    /// The point (in the reference frame).
    pub p: Point3<N>,
    /// Its feature pair (reference feature, incident feature).
    pub id: ContactId,
    /// What the edge from this point to the next one lies on.
    pub edge: ClipEdge,
}

/// The side plane of one edge of the reference face: points with `normal · p ≤ offset` are on the
/// face's side. `start` and `end` are the ids of the edge's two corners (edge `k` of a face runs
/// from corner `k` to corner `k + 1`), `edge` the edge's own id.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SidePlane<N: Scalar> {
    /// Outward normal of the plane (unit length, pointing away from the face).
    pub normal: Vec3<N>,
    /// `normal · p` on the plane.
    pub offset: N,
    /// The reference edge's id.
    pub edge: FeatureId,
    /// The id of the corner the edge starts at.
    pub start: FeatureId,
    /// The id of the corner the edge ends at.
    pub end: FeatureId,
}

impl<N: Scalar> SidePlane<N> {
    /// How far `p` lies beyond the plane (negative on the face's side).
    #[inline]
    pub fn distance(&self, p: &Point3<N>) -> N {
        self.normal.dot(&p.coords) - self.offset
    }
}

/// A polygon (or chain) being clipped, in inline storage.
pub type ClipPolygon<N> = SmallVec<[ClipVertex3<N>; 16]>;

/// Clips `input` against `planes[index]`, writing the kept part to `out` (cleared first).
///
/// `closed` says whether `input` is a polygon (its last point joins its first) or an open chain
/// such as a segment. `incident_face` is the id given to reference-face corners that the clip
/// produces (see the module docs).
pub fn clip_polygon_to_plane<N: Scalar>(
    input: &[ClipVertex3<N>],
    closed: bool,
    planes: &[SidePlane<N>],
    index: usize,
    incident_face: FeatureId,
    out: &mut ClipPolygon<N>,
) {
    out.clear();
    let n = input.len();
    if n == 0 {
        return;
    }
    let plane = &planes[index];
    let dist = |v: &ClipVertex3<N>| plane.distance(&v.p);
    let crossing = |prev: &ClipVertex3<N>, cur: &ClipVertex3<N>, dp: N, dc: N| {
        crossing(prev, cur, dp, dc, planes, index, incident_face)
    };
    if n == 1 {
        if dist(&input[0]) <= N::zero() {
            out.push(input[0]);
        }
        return;
    }
    // Walk the edges prev → cur. For an open chain the first point has no incoming edge.
    let (first, mut prev_i) = if closed { (0, n - 1) } else { (1, 0) };
    if !closed && dist(&input[0]) <= N::zero() {
        out.push(input[0]);
    }
    for i in first..n {
        let prev = &input[prev_i];
        let cur = &input[i];
        let (dp, dc) = (dist(prev), dist(cur));
        let prev_in = dp <= N::zero();
        let cur_in = dc <= N::zero();
        if prev_in && cur_in {
            out.push(*cur);
        } else if prev_in && !cur_in {
            let (p, id) = crossing(prev, cur, dp, dc);
            out.push(ClipVertex3 { p, id, edge: ClipEdge::Side(index) });
        } else if !prev_in && cur_in {
            let (p, id) = crossing(prev, cur, dp, dc);
            out.push(ClipVertex3 { p, id, edge: prev.edge });
            out.push(*cur);
        }
        prev_i = i;
    }
}

/// Where the edge `prev → cur` crosses `planes[index]` (`dp` and `dc` are the two points'
/// distances to it, of opposite signs), with the crossing's id (see the module docs).
pub(super) fn crossing<N: Scalar>(
    prev: &ClipVertex3<N>,
    cur: &ClipVertex3<N>,
    dp: N,
    dc: N,
    planes: &[SidePlane<N>],
    index: usize,
    incident_face: FeatureId,
) -> (Point3<N>, ContactId) {
    let plane = &planes[index];
    let t = dp / (dp - dc);
    let p = prev.p + (cur.p - prev.p) * t;
    let id = match prev.edge {
        ClipEdge::Incident(e) => ContactId::new(plane.edge, e),
        ClipEdge::Side(k) => {
            let other = &planes[k];
            // The corner shared by side planes `k` and `index`.
            let corner = if other.end == plane.start {
                plane.start
            } else if other.start == plane.end {
                plane.end
            } else {
                FeatureId::Unknown
            };
            ContactId::new(corner, incident_face)
        }
    };
    (p, id)
}

/// Closed polygons with more than this many points times planes are clipped by
/// [`clip_convex`], in time linear in their sizes; below it the plane-by-plane passes cost less.
const LARGE_CLIP: usize = 256;

/// Clips `input` against every plane of `planes` in turn and returns what is left.
///
/// A closed polygon against many planes (two large faces, such as the caps of cylinder hulls,
/// resting on each other) is clipped in `clip3_convex.rs`, which gives the same points and ids
/// in the same cyclic order, possibly from another first point, in `O(n + m)` instead of
/// `O(n·m)`.
pub fn clip_polygon<N: Scalar>(
    input: &[ClipVertex3<N>],
    closed: bool,
    planes: &[SidePlane<N>],
    incident_face: FeatureId,
) -> ClipPolygon<N> {
    if closed
        && input.len() >= 3
        && input.len() * planes.len() > LARGE_CLIP
        && let Some(clipped) = clip_convex(input, planes, incident_face)
    {
        return clipped;
    }
    let mut a: ClipPolygon<N> = input.iter().copied().collect();
    let mut b = ClipPolygon::new();
    for (k, plane) in planes.iter().enumerate() {
        // A plane with every point on its inner side would hand the polygon back unchanged: the
        // test reads the points, where the pass copies each (two large faces resting on each
        // other, whose side planes mostly leave the incident face whole).
        if a.iter().all(|v| plane.distance(&v.p) <= N::zero()) {
            continue;
        }
        clip_polygon_to_plane(&a, closed, planes, k, incident_face, &mut b);
        core::mem::swap(&mut a, &mut b);
        if a.is_empty() {
            break;
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The side planes of the square `[-1, 1]²` in the plane z = 0, corners counter-clockwise
    /// about +z from (−1, −1), corner ids `Vertex(k)`, edge ids `Edge(k)`.
    fn square_planes() -> [SidePlane<f64>; 4] {
        let c = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
        core::array::from_fn(|k| {
            let (a, b) = (c[k], c[(k + 1) % 4]);
            let e = Vec3::new(b.0 - a.0, b.1 - a.1, 0.0);
            let normal = e.cross(&Vec3::z()).normalize();
            SidePlane {
                normal,
                offset: normal.dot(&Vec3::new(a.0, a.1, 0.0)),
                edge: FeatureId::Edge(k as u32),
                start: FeatureId::Vertex(k as u32),
                end: FeatureId::Vertex(((k + 1) % 4) as u32),
            }
        })
    }

    fn quad(h: f64, z: f64) -> Vec<ClipVertex3<f64>> {
        let c = [(-h, -h), (h, -h), (h, h), (-h, h)];
        (0..4)
            .map(|k| ClipVertex3 {
                p: Point3::new(c[k].0, c[k].1, z),
                id: ContactId::new(FeatureId::Face(0), FeatureId::Vertex(10 + k as u32)),
                edge: ClipEdge::Incident(FeatureId::Edge(10 + k as u32)),
            })
            .collect()
    }

    #[test]
    fn a_smaller_quad_is_kept_whole() {
        let planes = square_planes();
        let out = clip_polygon(&quad(0.5, 0.1), true, &planes, FeatureId::Face(7));
        assert_eq!(out.len(), 4);
        let expected: Vec<_> = quad(0.5, 0.1).iter().map(|v| v.id).collect();
        let got: Vec<_> = out.iter().map(|v| v.id).collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn a_larger_quad_leaves_the_reference_corners() {
        let planes = square_planes();
        let out = clip_polygon(&quad(2.0, 0.1), true, &planes, FeatureId::Face(7));
        assert_eq!(out.len(), 4);
        for v in &out {
            assert!((v.p.x.abs() - 1.0).abs() < 1e-12 && (v.p.y.abs() - 1.0).abs() < 1e-12);
            // Every point is a corner of the reference face on the incident face.
            assert!(matches!(v.id.a, FeatureId::Vertex(0..=3)), "{:?}", v.id);
            assert_eq!(v.id.b, FeatureId::Face(7));
        }
        let mut corners: Vec<_> = out.iter().map(|v| v.id.a).collect();
        corners.sort();
        corners.dedup();
        assert_eq!(corners.len(), 4);
    }

    #[test]
    fn a_rotated_quad_gives_an_octagon_of_edge_crossings() {
        let planes = square_planes();
        let r = 1.2;
        let input: Vec<_> = (0..4)
            .map(|k| {
                let a = core::f64::consts::FRAC_PI_2 * k as f64;
                ClipVertex3 {
                    p: Point3::new(r * a.cos(), r * a.sin(), 0.0),
                    id: ContactId::new(FeatureId::Face(0), FeatureId::Vertex(k)),
                    edge: ClipEdge::Incident(FeatureId::Edge(k)),
                }
            })
            .collect();
        let out = clip_polygon(&input, true, &planes, FeatureId::Face(7));
        assert_eq!(out.len(), 8);
        let mut ids: Vec<_> = out.iter().map(|v| v.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 8, "crossing ids are unique");
        for v in &out {
            assert!(matches!((v.id.a, v.id.b), (FeatureId::Edge(_), FeatureId::Edge(_))));
        }
    }

    #[test]
    fn skipped_planes_give_what_every_pass_gives() {
        // Squares of every size about points near the reference square: planes that leave the
        // polygon whole are skipped, and the result must be the one of a pass on every plane.
        let planes = square_planes();
        let mut skipped = 0;
        for k in 0..200 {
            let (h, cx, cy) = (0.1 + 0.02 * k as f64, 0.013 * (k % 17) as f64, -0.007 * k as f64);
            let input: Vec<_> = quad(h, 0.1)
                .into_iter()
                .map(|v| ClipVertex3 { p: v.p + Vec3::new(cx, cy, 0.0), ..v })
                .collect();
            let mut every: ClipPolygon<f64> = input.iter().copied().collect();
            let mut out = ClipPolygon::new();
            for i in 0..planes.len() {
                clip_polygon_to_plane(&every, true, &planes, i, FeatureId::Face(7), &mut out);
                core::mem::swap(&mut every, &mut out);
                let inside = |v: &ClipVertex3<f64>| planes[i].distance(&v.p) <= 0.0;
                skipped += usize::from(input.iter().all(inside));
            }
            assert_eq!(clip_polygon(&input, true, &planes, FeatureId::Face(7)), every);
        }
        assert!(skipped > 100, "{skipped} planes left a polygon whole");
    }

    #[test]
    fn segments_are_clipped_as_open_chains() {
        let planes = square_planes();
        let seg = [
            ClipVertex3 {
                p: Point3::new(-3.0, 0.0, 0.0),
                id: ContactId::new(FeatureId::Face(0), FeatureId::Vertex(0)),
                edge: ClipEdge::Incident(FeatureId::Edge(0)),
            },
            ClipVertex3 {
                p: Point3::new(0.5, 0.0, 0.0),
                id: ContactId::new(FeatureId::Face(0), FeatureId::Vertex(1)),
                edge: ClipEdge::Incident(FeatureId::Edge(0)),
            },
        ];
        let out = clip_polygon(&seg, false, &planes, FeatureId::Face(7));
        assert_eq!(out.len(), 2);
        assert!((out[0].p - Point3::new(-1.0, 0.0, 0.0)).norm() < 1e-12);
        assert_eq!(out[0].id, ContactId::new(FeatureId::Edge(3), FeatureId::Edge(0)));
        assert_eq!(out[1], seg[1]);
        let far = [seg[0], ClipVertex3 { p: Point3::new(-2.0, 0.0, 0.0), ..seg[1] }];
        assert!(clip_polygon(&far, false, &planes, FeatureId::Face(7)).is_empty());
    }
}
