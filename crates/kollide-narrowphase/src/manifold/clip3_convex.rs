//! Sutherland–Hodgman clipping of a convex polygon against the side planes of a convex face, in
//! time linear in their sizes.
//!
//! [`super::clip3`] clips against one plane after another, and each pass reads every point:
//! `O(n·m)` for an `n`-gon and `m` planes, a quarter of a million distances for the 500-gon caps
//! of two cylinder hulls resting on each other. When both polygons are convex, two facts bring
//! each plane down to a few steps:
//!
//! * **The points beyond a plane form one run** around the polygon, about its *top*, the point
//!   farthest along the plane's normal. A plane whose top is on its inner side leaves the polygon
//!   whole. One whose top is beyond it replaces the run (found by walking from the top both ways)
//!   with its two crossings, which is what the plane's pass makes of such a polygon: the same
//!   points with the same ids.
//! * **The top turns one way.** The side planes of a face turn about the contact direction in one
//!   sense, and the top of a convex polygon follows its direction as that turns (the rotating
//!   calipers of Shamos, 1978, and Toussaint, "Solving geometric problems with the rotating
//!   calipers", 1983). After a clip, the next plane's top is at or past the later crossing. So each
//!   top is found by climbing on from the previous one, and over all the planes the climbs go
//!   round the polygon about once.
//!
//! The polygon is a ring of points linked both ways, in arrays: a clip unlinks its run and links
//! two new points, so all the clips together remove at most `n + 2m` points. Intersecting convex
//! polygons in linear time goes back to Shamos (1978) and to O'Rourke, Chien, Olson & Naddor, "A
//! new linear algorithm for intersecting convex polygons" (1982); this is the simpler clipping
//! form, which keeps the ids of the passes it replaces.
//!
//! **Rounding.** A clipped polygon is convex only up to rounding, and a climb could stop on a dip
//! one rounding deep, such as between two crossings a hair apart. So the climb goes on over
//! points that fall short of the best so far by less than the rounding of the coordinates, and
//! keeps the best. The first plane, and a plane that turns more than 120° from the one before
//! (where the previous top can lie by the new bottom, whose neighbours may tie), find their top by
//! a scan instead; a convex face has at most two such corners.

use kollide_math::{Scalar, Vec3};
use kollide_shapes::FeatureId;
use smallvec::SmallVec;

use super::clip3::{ClipEdge, ClipPolygon, ClipVertex3, SidePlane, crossing};

/// Clips the closed convex polygon `input` (at least 3 points) against the side planes of a
/// convex face, `planes`, in order; the result is that of [`super::clip3::clip_polygon`]'s
/// plane-by-plane passes, possibly from another first point. `None` when the polygon or the
/// planes have no orientation to follow (a polygon folded onto a line, planes that never turn),
/// for the passes to handle.
pub(super) fn clip_convex<N: Scalar>(
    input: &[ClipVertex3<N>],
    planes: &[SidePlane<N>],
    incident_face: FeatureId,
) -> Option<ClipPolygon<N>> {
    let forward = climbs_forward(input, planes)?;
    let mut ring = Ring::new(input, 2 * planes.len());
    let scale = input.iter().fold(N::zero(), |s, v| s.max_of(v.p.coords.amax()));
    let tol = scale * N::EPSILON * N::lit(64.0);
    let mut top: Option<usize> = None;
    for (k, plane) in planes.iter().enumerate() {
        let dist = |v: &ClipVertex3<N>| plane.distance(&v.p);
        let gentle = k > 0 && planes[k - 1].normal.dot(&plane.normal) >= N::lit(-0.5);
        let (s, ds) = match top {
            Some(t) if gentle => ring.climb(t, forward, &dist, tol),
            _ => ring.scan(&dist),
        };
        top = Some(s);
        if ds <= N::zero() {
            continue;
        }
        // The run beyond the plane, walked from the top both ways.
        let (mut first, mut last, mut count) = (s, s, 1);
        while count < ring.len && dist(&ring.points[ring.prev(first)]) > N::zero() {
            first = ring.prev(first);
            count += 1;
        }
        while count < ring.len && dist(&ring.points[ring.next(last)]) > N::zero() {
            last = ring.next(last);
            count += 1;
        }
        if count == ring.len {
            return Some(ClipPolygon::new());
        }
        let (before, after) = (ring.points[ring.prev(first)], ring.points[ring.next(last)]);
        let (out_first, out_last) = (ring.points[first], ring.points[last]);
        // As the pass makes them: the crossing that leaves the half-space starts an edge along
        // the plane, the one that comes back lies on the edge it came back along.
        let (d_before, d_first) = (dist(&before), dist(&out_first));
        let (p, id) = crossing(&before, &out_first, d_before, d_first, planes, k, incident_face);
        let leave = ClipVertex3 { p, id, edge: ClipEdge::Side(k) };
        let (d_last, d_after) = (dist(&out_last), dist(&after));
        let (p, id) = crossing(&out_last, &after, d_last, d_after, planes, k, incident_face);
        let back = ClipVertex3 { p, id, edge: out_last.edge };
        let (leave, back) = ring.replace(first, last, count, leave, back);
        // The next plane's top is at or past the crossing that comes later in the turning sense.
        top = Some(if forward { back } else { leave });
    }
    Some(ring.to_polygon())
}

/// Whether the tops follow the turning planes along the ring's `next` links (the polygon winds
/// about the planes' turning axis in their sense) or along `prev`; `None` when either has no
/// sense to compare.
fn climbs_forward<N: Scalar>(input: &[ClipVertex3<N>], planes: &[SidePlane<N>]) -> Option<bool> {
    let m = planes.len();
    let turning =
        (0..m).fold(Vec3::zeros(), |t, k| t + planes[k].normal.cross(&planes[(k + 1) % m].normal));
    let o = input[0].p;
    let winding = (1..input.len() - 1)
        .fold(Vec3::zeros(), |w, k| w + (input[k].p - o).cross(&(input[k + 1].p - o)));
    let sense = turning.dot(&winding);
    // (Both sums are far from zero for the faces this is for; a sense lost in their rounding is
    // no sense.)
    let noise = turning.norm() * winding.norm() * N::lit(1e-6);
    if sense > noise {
        Some(true)
    } else if sense < -noise {
        Some(false)
    } else {
        None
    }
}

/// A polygon as a ring of points linked both ways. Unlinked points stay in the arrays.
struct Ring<N: Scalar> {
    points: SmallVec<[ClipVertex3<N>; 32]>,
    next: SmallVec<[u32; 32]>,
    prev: SmallVec<[u32; 32]>,
    /// A point of the ring.
    head: usize,
    /// How many points are linked.
    len: usize,
}

impl<N: Scalar> Ring<N> {
    /// The ring of `input`, with room for `extra` more points.
    fn new(input: &[ClipVertex3<N>], extra: usize) -> Self {
        let n = input.len();
        let mut points = SmallVec::with_capacity(n + extra);
        points.extend_from_slice(input);
        let next = (0..n).map(|i| ((i + 1) % n) as u32).collect();
        let prev = (0..n).map(|i| ((i + n - 1) % n) as u32).collect();
        Ring { points, next, prev, head: 0, len: n }
    }

    fn next(&self, i: usize) -> usize {
        self.next[i] as usize
    }

    fn prev(&self, i: usize) -> usize {
        self.prev[i] as usize
    }

    /// The linked point with the largest `dist`, and that distance.
    fn scan(&self, dist: &impl Fn(&ClipVertex3<N>) -> N) -> (usize, N) {
        let mut best = (self.head, dist(&self.points[self.head]));
        let mut i = self.next(self.head);
        while i != self.head {
            let d = dist(&self.points[i]);
            if d > best.1 {
                best = (i, d);
            }
            i = self.next(i);
        }
        best
    }

    /// The top along `dist` found by climbing from `from` along `next` (`forward`) or `prev`:
    /// on while the points fall short of the best so far by no more than `tol`; the best seen.
    fn climb(
        &self,
        from: usize,
        forward: bool,
        dist: &impl Fn(&ClipVertex3<N>) -> N,
        tol: N,
    ) -> (usize, N) {
        let mut best = (from, dist(&self.points[from]));
        let mut i = from;
        for _ in 1..self.len {
            i = if forward { self.next(i) } else { self.prev(i) };
            let d = dist(&self.points[i]);
            if d < best.1 - tol {
                break;
            }
            if d > best.1 {
                best = (i, d);
            }
        }
        best
    }

    /// Replaces the `count` points from `first` to `last` (along `next`) with `a` then `b`;
    /// returns their indices.
    fn replace(
        &mut self,
        first: usize,
        last: usize,
        count: usize,
        a: ClipVertex3<N>,
        b: ClipVertex3<N>,
    ) -> (usize, usize) {
        let (before, after) = (self.prev(first), self.next(last));
        let (ia, ib) = (self.points.len(), self.points.len() + 1);
        self.points.extend([a, b]);
        self.next.extend([ib as u32, after as u32]);
        self.prev.extend([before as u32, ia as u32]);
        self.next[before] = ia as u32;
        self.prev[after] = ib as u32;
        self.len = self.len + 2 - count;
        self.head = ib;
        (ia, ib)
    }

    /// The linked points in order, from the head.
    fn to_polygon(&self) -> ClipPolygon<N> {
        let mut out = ClipPolygon::with_capacity(self.len);
        let mut i = self.head;
        for _ in 0..self.len {
            out.push(self.points[i]);
            i = self.next(i);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::clip3::clip_polygon_to_plane;
    use kollide_manifold::ContactId;
    use kollide_math::Point3;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn f(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// `n` points on an ellipse about `c` (radii `rx`, `ry`, turned by `turn`), at sorted
    /// angles, counter-clockwise about +z.
    fn ellipse(
        g: &mut Rng,
        n: usize,
        c: (f64, f64),
        (rx, ry): (f64, f64),
        turn: f64,
    ) -> Vec<[f64; 2]> {
        let mut angles: Vec<f64> = (0..n).map(|_| g.f() * core::f64::consts::TAU).collect();
        angles.sort_by(f64::total_cmp);
        angles.dedup();
        angles
            .iter()
            .map(|a| {
                let (x, y) = (rx * a.cos(), ry * a.sin());
                [c.0 + x * turn.cos() - y * turn.sin(), c.1 + x * turn.sin() + y * turn.cos()]
            })
            .collect()
    }

    /// The side planes of the face with these corners (z = 0), as the face clipper builds them
    /// for the contact direction +z.
    fn planes_of(corners: &[[f64; 2]]) -> Vec<SidePlane<f64>> {
        let m = corners.len();
        (0..m)
            .filter_map(|k| {
                let (a, b) = (corners[k], corners[(k + 1) % m]);
                let a3 = Vec3::new(a[0], a[1], 0.0);
                let s = (Vec3::new(b[0], b[1], 0.0) - a3).cross(&Vec3::z());
                let s = s.try_normalize(0.0)?;
                Some(SidePlane {
                    normal: s,
                    offset: s.dot(&a3),
                    edge: FeatureId::Edge(k as u32),
                    start: FeatureId::Vertex(k as u32),
                    end: FeatureId::Vertex(((k + 1) % m) as u32),
                })
            })
            .collect()
    }

    /// The incident polygon with these points at heights `z + tilt · x`, wound as given.
    fn incident(points: &[[f64; 2]], z: f64, tilt: f64) -> Vec<ClipVertex3<f64>> {
        (0..points.len())
            .map(|k| ClipVertex3 {
                p: Point3::new(points[k][0], points[k][1], z + tilt * points[k][0]),
                id: ContactId::new(FeatureId::Face(0), FeatureId::Vertex(100 + k as u32)),
                edge: ClipEdge::Incident(FeatureId::Edge(100 + k as u32)),
            })
            .collect()
    }

    /// The plane-by-plane passes.
    fn passes(input: &[ClipVertex3<f64>], planes: &[SidePlane<f64>]) -> ClipPolygon<f64> {
        let mut a: ClipPolygon<f64> = input.iter().copied().collect();
        let mut b = ClipPolygon::new();
        for k in 0..planes.len() {
            clip_polygon_to_plane(&a, true, planes, k, FeatureId::Face(7), &mut b);
            core::mem::swap(&mut a, &mut b);
        }
        a
    }

    /// Whether `x` is `y` from another first point.
    fn same_cycle(x: &[ClipVertex3<f64>], y: &[ClipVertex3<f64>]) -> bool {
        x.len() == y.len()
            && (x.is_empty()
                || (0..y.len()).any(|r| (0..x.len()).all(|i| x[i] == y[(i + r) % y.len()])))
    }

    #[test]
    fn linear_clipping_gives_what_the_passes_give() {
        let mut g = Rng(0x2545_f491_4f6c_dd1d);
        let (mut clipped, mut emptied, mut whole) = (0, 0, 0);
        for case in 0..3000 {
            let m = 3 + (g.f() * 60.0) as usize;
            let n = 3 + (g.f() * 60.0) as usize;
            let (ry, turn) = (0.2 + g.f(), g.f() * 3.0);
            let reference = ellipse(&mut g, m, (0.0, 0.0), (1.0, ry), turn);
            let mut points = match case % 4 {
                // The reference face itself (identical caps), shifted a little or not at all.
                0 => {
                    let shift = if case % 8 == 0 { 0.0 } else { 0.3 * (g.f() - 0.5) };
                    reference.iter().map(|p| [p[0] + shift, p[1] - shift]).collect()
                }
                // Small faces about the middle (mostly left whole), and faces anywhere.
                k => {
                    let (spread, size) = if k == 1 { (0.1, 0.15) } else { (2.0, 2.0) };
                    let c = (spread * (g.f() - 0.5), spread * (g.f() - 0.5));
                    let r = (0.05 + size * g.f(), 0.05 + size * g.f());
                    let turn = g.f() * 3.0;
                    ellipse(&mut g, n, c, r, turn)
                }
            };
            // An incident face winds the other way, seen along the contact direction; either
            // way must work.
            if case % 3 != 2 {
                points.reverse();
            }
            let planes = planes_of(&reference);
            let input = incident(&points, 0.1, 0.05 * (g.f() - 0.5));
            let Some(linear) = clip_convex(&input, &planes, FeatureId::Face(7)) else {
                panic!("case {case}: no orientation");
            };
            let expected = passes(&input, &planes);
            assert!(same_cycle(&linear, &expected), "case {case}:\n{linear:?}\n{expected:?}");
            match linear.len() {
                0 => emptied += 1,
                l if l == input.len() && same_cycle(&linear, &input) => whole += 1,
                _ => clipped += 1,
            }
        }
        // Every branch ran: polygons clipped, left whole, and clipped away.
        assert!(clipped > 1000 && whole > 100 && emptied > 50, "{clipped} {whole} {emptied}");
    }

    #[test]
    fn planes_that_never_turn_are_left_to_the_passes() {
        let planes = planes_of(&[[0.0, 0.0], [1.0, 0.0]]);
        let input = incident(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], 0.1, 0.0);
        assert!(clip_convex(&input, &planes, FeatureId::Face(7)).is_none());
    }
}
