//! The exact separating-axis test of a large 2D pair, walking counter-clockwise vertex loops.
//!
//! In 2D the candidate axes are the edge normals of both polygons (`sat.rs`), so trying each
//! against every vertex costs `(n + m)²`: a million products for two 1000-gons. A convex
//! polygon's vertices along a direction `u` rise and then fall around its loop, and as `u` turns
//! counter-clockwise the highest vertex moves counter-clockwise too. So taking one polygon's edge
//! normals in loop order, the other's support point is found by climbing from the previous one,
//! a step or two each time: `n + m` in all. This is the rotating-calipers idea (Shamos, "Computational
//! Geometry", PhD thesis, Yale 1978; Toussaint, "Solving geometric problems with the rotating
//! calipers", MELECON 1983), used here only to evaluate every SAT axis. A side that is not a
//! loop (a box, a segment: a few vertices) is scanned, and its listed normals are tried both
//! ways, as `sat.rs` does.

use kollide_math::{Scalar, Vector};
use kollide_shapes::Polytope;

/// The highest vertex of one side along each direction asked: by walking from the last answer
/// on a counter-clockwise loop, by scanning otherwise.
struct Support<'v> {
    verts: &'v [Vector<f64, 2>],
    walk: bool,
    /// The last answer's index (walks only).
    at: Option<usize>,
}

impl<'v> Support<'v> {
    fn new(verts: &'v [Vector<f64, 2>], walk: bool) -> Self {
        Support { verts, walk, at: None }
    }

    /// The largest `v · u` over the vertices.
    fn max_along(&mut self, u: &Vector<f64, 2>) -> f64 {
        let n = self.verts.len();
        let h = |i: usize| self.verts[i].dot(u);
        let Some(mut i) = self.at.filter(|_| self.walk) else {
            let best = (0..n).max_by(|&i, &j| h(i).total_cmp(&h(j))).unwrap_or(0);
            self.at = Some(best);
            return h(best);
        };
        // Forward over rises and level steps (a level run is either the top or the bottom, which
        // must be crossed), then back over rises; each at most once around the loop.
        for _ in 0..n {
            let next = (i + 1) % n;
            if h(next) < h(i) {
                break;
            }
            i = next;
        }
        for _ in 0..n {
            let prev = (i + n - 1) % n;
            if h(prev) <= h(i) {
                break;
            }
            i = prev;
        }
        self.at = Some(i);
        h(i)
    }
}

/// The outward unit normals of a counter-clockwise loop's edges, in loop order.
fn loop_normals(verts: &[Vector<f64, 2>]) -> impl Iterator<Item = Vector<f64, 2>> + '_ {
    let n = verts.len();
    (0..n).filter_map(move |i| {
        let e = verts[(i + 1) % n] - verts[i];
        Vector::<f64, 2>::new(e[1], -e[0]).try_normalize(0.0)
    })
}

/// The best axis (from A to B) and its separation for polytopes `a` and `b` with rotated
/// vertices `va` and `vb` (B's not translated: `t` is B's position relative to A's) and face
/// normals `na` and `nb` in that frame; `None` in 3D or unless one of them is a loop.
pub(crate) fn best_axis<N: Scalar, const D: usize>(
    a: &dyn Polytope<N, D>,
    b: &dyn Polytope<N, D>,
    (va, vb): (&[Vector<f64, D>], &[Vector<f64, D>]),
    (na, nb): (&[Vector<f64, D>], &[Vector<f64, D>]),
    t: &Vector<f64, D>,
) -> Option<(f64, Vector<f64, D>)> {
    if D != 2 || !(a.is_ccw_loop() || b.is_ccw_loop()) {
        return None;
    }
    let two = |vs: &[Vector<f64, D>]| -> Vec<Vector<f64, 2>> {
        vs.iter().map(|v| Vector::<f64, 2>::new(v[0], v[1])).collect()
    };
    let (va, vb, na, nb) = (two(va), two(vb), two(na), two(nb));
    let t = Vector::<f64, 2>::new(t[0], t[1]);
    let (mut top_a, mut top_b) =
        (Support::new(&va, a.is_ccw_loop()), Support::new(&vb, b.is_ccw_loop()));
    let mut best = (f64::MIN, Vector::<f64, 2>::zeros());
    let mut consider = |u: Vector<f64, 2>, top_a: &mut Support<'_>, top_b: &mut Support<'_>| {
        let s = -top_b.max_along(&-u) + u.dot(&t) - top_a.max_along(&u);
        if s > best.0 {
            best = (s, u);
        }
    };
    // A loop's outward normals, in loop order, are axes from A (A's) or to A (B's); another
    // side's listed normals may face either way.
    if a.is_ccw_loop() {
        loop_normals(&va).for_each(|u| consider(u, &mut top_a, &mut top_b));
    } else {
        let unit = na.iter().filter_map(|n| n.try_normalize(0.0));
        unit.for_each(|u| [u, -u].into_iter().for_each(|u| consider(u, &mut top_a, &mut top_b)));
    }
    if b.is_ccw_loop() {
        loop_normals(&vb).for_each(|u| consider(-u, &mut top_a, &mut top_b));
    } else {
        let unit = nb.iter().filter_map(|n| n.try_normalize(0.0));
        unit.for_each(|u| [u, -u].into_iter().for_each(|u| consider(u, &mut top_a, &mut top_b)));
    }
    let (s, u) = best;
    (s != f64::MIN).then(|| (s, Vector::<f64, D>::from_fn(|i, _| u[i])))
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso2, Point2};
    use kollide_shapes::{ConvexPolygon, Cuboid, Triangle};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::sat::large_and_every_axis;

    /// `n` points on an ellipse with semi-axes `(rx, ry)`: every one is a vertex of the hull.
    fn ellipse(r: &mut ChaCha8Rng, n: usize, rx: f64, ry: f64) -> ConvexPolygon<f64> {
        let pts: Vec<Point2<f64>> = (0..n)
            .map(|_| {
                let a: f64 = r.random_range(0.0..core::f64::consts::TAU);
                Point2::new(rx * a.cos(), ry * a.sin())
            })
            .collect();
        ConvexPolygon::from_hull(&pts).unwrap()
    }

    /// The walk's answer against every axis scanned against every vertex, for `a` and `b` at
    /// random poses: the difference of their separations when the shapes overlap.
    fn compare(
        r: &mut ChaCha8Rng,
        a: &dyn Polytope<f64, 2>,
        b: &dyn Polytope<f64, 2>,
    ) -> Option<f64> {
        let pose = |r: &mut ChaCha8Rng| {
            let t = [r.random_range(-1.5..1.5), r.random_range(-1.5..1.5)];
            Iso2::new(Vector::<f64, 2>::new(t[0], t[1]), r.random_range(-3.2..3.2))
        };
        let (pa, pb) = (pose(r), pose(r));
        let t = pb.translation.vector - pa.translation.vector;
        let cols = |p: &Iso2<f64>| {
            let m = p.rotation.to_rotation_matrix().into_inner();
            [m.column(0).into_owned(), m.column(1).into_owned()]
        };
        let [walked, every] = large_and_every_axis(a, b, &cols(&pa), &cols(&pb), t, true);
        let (walked, every) = (walked.expect("the walk ran"), every.expect("an answer"));
        assert!((walked.1.norm() - 1.0).abs() < 1e-12);
        // Apart, both are only lower bounds on the distance (the queries ask GJK first), and
        // every axis tried both ways can bound it more closely than the outward normals.
        (every.0 <= 0.0).then(|| (walked.0 - every.0).abs())
    }

    #[test]
    fn the_walk_finds_the_best_axis_of_every_axis_against_every_vertex() {
        let mut r = ChaCha8Rng::seed_from_u64(0x0100_b5a7);
        let (mut worst, mut overlapping) = (0.0f64, 0);
        for case in 0..300 {
            let n = [200, 1000, 37][case % 3];
            let (ry, ry_other) = (r.random_range(0.01..1.0), r.random_range(0.001..0.8));
            let big = ellipse(&mut r, n, 1.0, ry);
            let other = ellipse(&mut r, [1000, 5, 300][case % 3], 0.8, ry_other);
            let tri = Triangle::new(
                Point2::new(-0.3, -0.2),
                Point2::new(0.4, -0.1),
                Point2::new(0.0, r.random_range(0.001..0.5)),
            )
            .unwrap();
            let boxed =
                Cuboid::new(Vector::<f64, 2>::new(0.6, r.random_range(0.001..0.4))).unwrap();
            let pairs: [(&dyn Polytope<f64, 2>, &dyn Polytope<f64, 2>); 4] =
                [(&big, &other), (&other, &big), (&big, &tri), (&boxed, &big)];
            for (a, b) in pairs {
                if let Some(d) = compare(&mut r, a, b) {
                    worst = worst.max(d);
                    overlapping += 1;
                }
            }
        }
        assert!(overlapping > 300, "only {overlapping} overlapping pairs");
        assert!(worst < 1e-13, "the walk's separation is {worst:e} off");
    }
}
