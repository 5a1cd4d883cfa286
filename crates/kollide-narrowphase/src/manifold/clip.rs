//! Sutherland–Hodgman clipping of a segment against a line, keeping feature ids.
//!
//! Clipping a polygon against a half-plane walks its edges and keeps the inside part of each:
//! an edge from inside to outside keeps its start and adds the crossing point, outside to inside
//! adds the crossing and the end (Sutherland & Hodgman, "Reentrant polygon clipping", CACM 1974).
//! In 2D the incident "polygon" is a segment, so clipping against the two side planes of the
//! reference face is two calls of [`clip_segment_to_line`].

use kollide_manifold::ContactId;
use kollide_math::{Point2, Scalar, Vec2};

/// A point of the incident feature being clipped, with the id it will carry as a contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipVertex<N: Scalar> {
    /// The point.
    pub p: Point2<N>,
    /// Its feature pair (reference feature, incident feature).
    pub id: ContactId,
}

/// Keeps the part of segment `seg` on the side `normal · p ≤ offset`. Returns the number of points
/// written to `out` (0 or 2).
///
/// A crossing point takes the id of the end it replaces. So an id means "this end of the incident
/// edge", whether or not the end was clipped this frame, and a box whose corner hovers at the
/// edge of the reference face keeps its contact ids (and its warm-started impulses) when rounding
/// moves the corner in and out. Box2D numbers its clipped points the same way.
pub fn clip_segment_to_line<N: Scalar>(
    seg: &[ClipVertex<N>; 2],
    normal: &Vec2<N>,
    offset: N,
    out: &mut [ClipVertex<N>; 2],
) -> usize {
    let d0 = normal.dot(&seg[0].p.coords) - offset;
    let d1 = normal.dot(&seg[1].p.coords) - offset;
    let mut n = 0;
    if d0 <= N::zero() {
        out[n] = seg[0];
        n += 1;
    }
    if d1 <= N::zero() {
        out[n] = seg[1];
        n += 1;
    }
    if d0 * d1 < N::zero() && n < 2 {
        let t = d0 / (d0 - d1);
        let replaced = if d0 > N::zero() { seg[0].id } else { seg[1].id };
        let p = seg[0].p + (seg[1].p - seg[0].p) * t;
        // Keep the order of the ends: the crossing stands where the clipped end stood.
        if d0 > N::zero() {
            out[1] = out[0];
            out[0] = ClipVertex { p, id: replaced };
        } else {
            out[n] = ClipVertex { p, id: replaced };
        }
        n += 1;
    }
    n
}

/// [`clip_segment_to_line`] when the caller only goes on with two points (the manifold's
/// clipping: fewer than two points means no face contact), by value: `Some` with the two points
/// `clip_segment_to_line` writes when it keeps two, else `None`. The same arithmetic, without
/// arrays in memory to write and read back.
#[inline(always)]
pub(crate) fn clip_segment_pair<N: Scalar>(
    seg: [ClipVertex<N>; 2],
    normal: &Vec2<N>,
    offset: N,
) -> Option<[ClipVertex<N>; 2]> {
    let d0 = normal.dot(&seg[0].p.coords) - offset;
    let d1 = normal.dot(&seg[1].p.coords) - offset;
    if d0 <= N::zero() && d1 <= N::zero() {
        return Some(seg);
    }
    // One end in, one strictly out: the crossing replaces the outside end and takes its id.
    if d0 * d1 < N::zero() {
        let t = d0 / (d0 - d1);
        let p = seg[0].p + (seg[1].p - seg[0].p) * t;
        return Some(if d0 > N::zero() {
            [ClipVertex { p, id: seg[0].id }, seg[1]]
        } else {
            [seg[0], ClipVertex { p, id: seg[1].id }]
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_shapes::FeatureId;

    fn cv(x: f64, y: f64, i: u32) -> ClipVertex<f64> {
        ClipVertex {
            p: Point2::new(x, y),
            id: ContactId::new(FeatureId::Edge(0), FeatureId::Vertex(i)),
        }
    }

    #[test]
    fn keeps_inside_and_adds_the_crossing() {
        let seg = [cv(-2.0, 0.0, 0), cv(2.0, 0.0, 1)];
        let mut out = [seg[0]; 2];
        let n = clip_segment_to_line(&seg, &Vec2::x(), 1.0, &mut out);
        assert_eq!(n, 2);
        assert_eq!(out[0], seg[0]);
        assert_eq!(out[1].p, Point2::new(1.0, 0.0));
        // The crossing keeps the id of the end it replaced.
        assert_eq!(out[1].id, seg[1].id);
        let n = clip_segment_to_line(&seg, &-Vec2::x(), 1.0, &mut out);
        assert_eq!(n, 2);
        assert_eq!(out[0].p, Point2::new(-1.0, 0.0));
        assert_eq!(out[0].id, seg[0].id);
        assert_eq!(out[1], seg[1]);
        let n = clip_segment_to_line(&seg, &Vec2::x(), -3.0, &mut out);
        assert_eq!(n, 0);
    }

    #[test]
    fn the_pair_version_agrees() {
        use rand::{Rng, SeedableRng};
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        // Coordinates on a coarse grid, so ends exactly on the line happen too.
        let mut c = || f64::from(r.random_range(-4..=4)) * 0.5;
        for _ in 0..20_000 {
            let seg = [cv(c(), c(), 0), cv(c(), c(), 1)];
            let normal = Vec2::new(c(), c());
            let offset = c();
            let mut out = [seg[0]; 2];
            let k = clip_segment_to_line(&seg, &normal, offset, &mut out);
            let pair = clip_segment_pair(seg, &normal, offset);
            assert_eq!(pair, (k == 2).then_some(out), "{seg:?} {normal:?} {offset}");
        }
    }
}
