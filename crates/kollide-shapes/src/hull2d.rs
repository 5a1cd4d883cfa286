//! The convex hull of a 2D point cloud: [`convex_hull_2d`] and [`convex_hull_2d_indices`].
//!
//! The hull is computed with **Andrew's monotone chain** (A. M. Andrew, "Another efficient
//! algorithm for convex hulls in two dimensions", *Information Processing Letters* 9(5), 1979),
//! a variant of Graham's scan that sorts the points by `x` (then `y`) instead of by angle:
//!
//! 1. Sort the points lexicographically. The first and the last point are hull vertices.
//! 2. Walk the sorted points left to right, keeping a stack: before pushing a point `c`, pop the
//!    top `b` (with `a` below it) while `a → b → c` does not turn left. The stack is the *lower*
//!    hull.
//! 3. Walk right to left the same way for the *upper* hull, and join the two chains.
//!
//! The sort costs `O(n log n)`; the two walks are `O(n)` because every point is pushed and popped
//! at most once per chain. The result is counter-clockwise (lower chain left to right, upper
//! chain right to left).
//!
//! ## Tolerance
//! The chains above use the exact test (pop unless the computed turn is strictly left), so they
//! give the hull up to rounding, exact duplicates and exactly collinear points removed. Two more
//! passes then remove vertices that are only *nearly* redundant, with the tolerance `tol` of
//! [`validate::coincidence_tolerance`] (64 ulps of the cloud's extent: the rounding of the
//! differences of points the tests compute scales with the extent, not with the coordinates). A vertex `b` between `a` and `c` is redundant when the boundary does not turn
//! left at `b` or `b` is within `tol` of the *segment* `ac` (a segment, not the line: a needle's
//! tip is far from the segment joining its neighbours and is kept).
//!
//! 1. **Simplify** (`simplify`): from each kept vertex, jump to the farthest later vertex such
//!    that every vertex in between is within `tol` of the chord. Every dropped vertex is
//!    therefore within `tol` of the edge that replaces it. (Dropping vertices one at a time,
//!    each within `tol` of its *current* neighbours, looks equivalent but is not: along a dense,
//!    nearly flat arc the drops add up to many times `tol`.) An exponential then binary search
//!    for the farthest vertex keeps this `O(n log n)`.
//! 2. **Clean up** (`remove_redundant_cyclic`): drop any vertex still redundant with respect to
//!    its new neighbours, all the way round the loop. This is rare (a vertex kept by step 1 can be
//!    nearly collinear with its two kept neighbours) and only moves the boundary by `tol` there.
//!
//! So:
//! * near duplicates are merged and points on or near a hull edge are dropped: the output has no
//!   collinear vertices;
//! * every output vertex passes the strict-convexity test that
//!   [`ConvexPolygon::from_convex_ccw`] applies, so a hull can always be turned into a polygon;
//! * every input point is inside the hull or within `2·tol` of it (`tol` from step 1, and
//!   another `tol` where step 2 removed a vertex; on random clouds the tests see at most `tol`).
//!
//! ## Determinism
//! Ties in the sort are broken by input index, so the output depends only on the input: the same
//! cloud in the same order always gives the same hull, and the output always starts at the
//! lexicographically smallest (`x`, then `y`) hull vertex, so a permuted cloud gives the same
//! sequence of points.
//!
//! [`ConvexPolygon::from_convex_ccw`]: crate::ConvexPolygon::from_convex_ccw

use core::cmp::Ordering;
use std::collections::VecDeque;

use kollide_math::{Point2, Scalar, geom::cross2};

use crate::{ShapeError, validate};

/// The convex hull of a 2D point cloud, as counter-clockwise vertices without collinear points.
///
/// The vertices are copies of input points (see [`convex_hull_2d_indices`] for which ones); the
/// first is the lexicographically smallest (`x`, then `y`) hull vertex.
///
/// # Errors
/// * [`ShapeError::NonFinite`] naming the first point (`"point 3"`) with a NaN or infinite
///   coordinate;
/// * [`ShapeError::TooFewPoints`] for fewer than three points;
/// * [`ShapeError::Degenerate`] with `"coincident"` when all points are within the tolerance of one
///   another, or `"collinear"` when they all lie within the tolerance of one line.
///
/// ```
/// use kollide_math::Point2;
/// use kollide_shapes::convex_hull_2d;
/// let cloud = [
///     Point2::new(0.0f64, 0.0),
///     Point2::new(2.0, 0.0),
///     Point2::new(1.0, 0.0), // on an edge: dropped
///     Point2::new(1.0, 0.5), // inside: dropped
///     Point2::new(2.0, 2.0),
///     Point2::new(0.0, 2.0),
/// ];
/// let hull = convex_hull_2d(&cloud).unwrap();
/// assert_eq!(hull, vec![cloud[0], cloud[1], cloud[4], cloud[5]]);
/// ```
pub fn convex_hull_2d<N: Scalar>(points: &[Point2<N>]) -> Result<Vec<Point2<N>>, ShapeError> {
    let indices = convex_hull_2d_indices(points)?;
    Ok(indices.into_iter().map(|i| points[i]).collect())
}

/// The convex hull of a 2D point cloud, as the indices (into `points`) of its counter-clockwise
/// vertices. Same contract and errors as [`convex_hull_2d`].
///
/// When several input points coincide (within the tolerance), the index of one of them is kept;
/// which one is deterministic.
///
/// ```
/// use kollide_math::Point2;
/// use kollide_shapes::convex_hull_2d_indices;
/// let cloud = [
///     Point2::new(1.0f32, 1.0),
///     Point2::new(0.0, 0.0),
///     Point2::new(3.0, 0.0),
///     Point2::new(0.0, 3.0),
/// ];
/// assert_eq!(convex_hull_2d_indices(&cloud).unwrap(), vec![1, 2, 3]);
/// ```
pub fn convex_hull_2d_indices<N: Scalar>(points: &[Point2<N>]) -> Result<Vec<usize>, ShapeError> {
    validate::finite_points(points)?;
    let n = points.len();
    if n < 3 {
        return Err(ShapeError::TooFewPoints { got: n, needed: 3 });
    }
    let tol = validate::coincidence_tolerance(points);

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| lex_cmp(&points[a], &points[b]).then(a.cmp(&b)));

    // Lower chain, left to right, with the exact test (pop unless a strict left turn).
    let mut hull: Vec<usize> = Vec::with_capacity(n + 1);
    for &c in &order {
        while hull.len() >= 2 && !left_turn(points, hull[hull.len() - 2], hull[hull.len() - 1], c) {
            hull.pop();
        }
        hull.push(c);
    }
    // Upper chain, right to left; never pop below the last point of the lower chain.
    let floor = hull.len() + 1;
    for &c in order.iter().rev().skip(1) {
        while hull.len() >= floor
            && !left_turn(points, hull[hull.len() - 2], hull[hull.len() - 1], c)
        {
            hull.pop();
        }
        hull.push(c);
    }
    // The upper chain ends where the lower one started.
    hull.pop();

    let mut hull = simplify(points, &hull, tol);
    remove_redundant_cyclic(points, &mut hull, tol);

    if hull.len() < 3 {
        let first = &points[order[0]];
        let spread = points.iter().map(|p| (p - first).norm()).fold(N::zero(), N::max_of);
        return Err(ShapeError::Degenerate(if spread <= tol { "coincident" } else { "collinear" }));
    }

    // Start at the lexicographically smallest vertex (the cyclic pass may have removed the first).
    let start = (0..hull.len())
        .min_by(|&a, &b| lex_cmp(&points[hull[a]], &points[hull[b]]).then(hull[a].cmp(&hull[b])))
        .unwrap_or(0);
    hull.rotate_left(start);
    Ok(hull)
}

/// Lexicographic order on (`x`, `y`). Inputs are finite, so `partial_cmp` never fails.
fn lex_cmp<N: Scalar>(a: &Point2<N>, b: &Point2<N>) -> Ordering {
    a.x.partial_cmp(&b.x)
        .unwrap_or(Ordering::Equal)
        .then(a.y.partial_cmp(&b.y).unwrap_or(Ordering::Equal))
}

/// `true` when the vertex `b`, between `a` and `c` on a counter-clockwise chain, is not needed:
/// the chain does not turn left at `b`, or `b` is within `tol` of the segment `ac`.
///
/// `cross(b − a, c − a)` is `|c − a|` times the distance from `b` to the line `ac`, positive when
/// the chain turns left at `b`. The distance is measured to the *segment*, not the line: a sharp
/// tip whose neighbours are nearly in line with it (a needle) is far from the segment and is kept.
#[inline]
pub(crate) fn redundant<N: Scalar>(a: &Point2<N>, b: &Point2<N>, c: &Point2<N>, tol: N) -> bool {
    let ab = b - a;
    let ac = c - a;
    let cross = cross2(&ab, &ac);
    if cross <= N::zero() {
        return true;
    }
    let along = ab.dot(&ac);
    let len2 = ac.norm_squared();
    if along < N::zero() {
        ab.norm() <= tol
    } else if along > len2 {
        (b - c).norm() <= tol
    } else {
        cross <= tol * len2.sqrt()
    }
}

/// Drops runs of vertices of the exact hull `exact` that are all within `tol` of one chord.
///
/// From each kept vertex `i`, the next kept vertex is the farthest `j` such that every vertex
/// strictly between them is [`redundant`] with respect to the chord `(i, j)` (found by an
/// exponential then a binary search, checking every vertex in between, so the chosen chord is
/// always checked). Every dropped vertex is therefore within `tol` of the chord that replaces it,
/// however many nearly collinear vertices a run holds. A purely local rule (drop a vertex within
/// `tol` of its current neighbours' chord, repeatedly) lets the error grow along a dense, nearly
/// flat arc; this one does not.
pub(crate) fn simplify<N: Scalar>(points: &[Point2<N>], exact: &[usize], tol: N) -> Vec<usize> {
    let m = exact.len();
    if m < 3 {
        return exact.to_vec();
    }
    let p = |k: usize| &points[exact[k % m]];
    let chord_covers = |i: usize, j: usize| (i + 1..j).all(|k| redundant(p(i), p(k), p(j), tol));
    let mut kept = vec![exact[0]];
    let mut i = 0;
    while i < m {
        // Largest j in (i, m] (m is vertex 0 again) whose chord covers the vertices in between.
        // From vertex 0 itself the chord may not close the loop: it would have zero length and
        // "cover" everything.
        let last = if i == 0 { m - 1 } else { m };
        let mut j = i + 1;
        let mut step = 1;
        while j + step <= last && chord_covers(i, j + step) {
            j += step;
            step *= 2;
        }
        let mut bad = (j + step).min(last + 1);
        while bad - j > 1 {
            let mid = j + (bad - j) / 2;
            if chord_covers(i, mid) {
                j = mid;
            } else {
                bad = mid;
            }
        }
        if j < m {
            kept.push(exact[j]);
        }
        i = j;
    }
    kept
}

/// `true` when `a → b → c` turns strictly left (counter-clockwise), as computed.
#[inline]
fn left_turn<N: Scalar>(points: &[Point2<N>], a: usize, b: usize, c: usize) -> bool {
    cross2(&(points[b] - points[a]), &(points[c] - points[a])) > N::zero()
}

/// Removes, around the closed loop, every vertex that is [`redundant`] with respect to its two
/// neighbours, until none is left (or fewer than three vertices remain).
///
/// One stack pass like the monotone chain checks every triple except the two that straddle the
/// seam (last, first); those are re-checked until both pass. Every vertex is pushed and removed at
/// most once, so the pass is linear.
pub(crate) fn remove_redundant_cyclic<N: Scalar>(
    points: &[Point2<N>],
    hull: &mut Vec<usize>,
    tol: N,
) {
    if hull.len() < 3 {
        return;
    }
    let mut out: VecDeque<usize> = VecDeque::with_capacity(hull.len());
    for &c in hull.iter() {
        while out.len() >= 2
            && redundant(&points[out[out.len() - 2]], &points[out[out.len() - 1]], &points[c], tol)
        {
            out.pop_back();
        }
        out.push_back(c);
    }
    while out.len() >= 3 {
        let n = out.len();
        if redundant(&points[out[n - 2]], &points[out[n - 1]], &points[out[0]], tol) {
            out.pop_back();
        } else if redundant(&points[out[n - 1]], &points[out[0]], &points[out[1]], tol) {
            out.pop_front();
        } else {
            break;
        }
    }
    hull.clear();
    hull.extend(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, seq::SliceRandom};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn pts<N: Scalar>(xy: &[(f64, f64)]) -> Vec<Point2<N>> {
        xy.iter().map(|&(x, y)| Point2::new(N::lit(x), N::lit(y))).collect()
    }

    /// Checks every promise of the hull on one cloud; returns the hull's indices.
    fn check_hull<N: Scalar>(cloud: &[Point2<N>]) -> Option<Vec<usize>> {
        let idx = match convex_hull_2d_indices(cloud) {
            Ok(idx) => idx,
            Err(ShapeError::Degenerate(_)) => return None,
            Err(e) => panic!("unexpected error {e:?}"),
        };
        let tol = validate::coincidence_tolerance(cloud);
        let hull: Vec<Point2<N>> = idx.iter().map(|&i| cloud[i]).collect();
        let n = hull.len();
        assert!(n >= 3);
        // A subset of the input, without repeated indices.
        let mut sorted = idx.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), n, "repeated hull vertex");
        assert!(idx.iter().all(|&i| i < cloud.len()));
        // Strictly convex and counter-clockwise: every vertex is a left turn by more than tol,
        // and the boundary turns exactly once around.
        let mut turning = 0.0f64;
        for i in 0..n {
            let (a, b, c) = (&hull[(i + n - 1) % n], &hull[i], &hull[(i + 1) % n]);
            assert!(!redundant(a, b, c, tol), "vertex {i} is not a strict left turn");
            let (e0, e1) = (b - a, c - b);
            turning += cross2(&e0, &e1).to_f64().atan2(e0.dot(&e1).to_f64());
        }
        assert!((turning - std::f64::consts::TAU).abs() < 1e-3, "turning {turning}");
        // Every input point is inside or within a few tolerances of every edge.
        for p in cloud {
            for i in 0..n {
                let (a, b) = (&hull[i], &hull[(i + 1) % n]);
                let e = b - a;
                let dist = cross2(&e, &(p - a)) / e.norm();
                assert!(dist >= -tol * N::lit(2.0), "point {p:?} outside edge {i} by {dist}");
            }
        }
        // Starts at the lexicographically smallest vertex.
        assert!(hull.iter().all(|p| lex_cmp(&hull[0], p) != Ordering::Greater));
        Some(idx)
    }

    fn random_cloud(rng: &mut ChaCha8Rng) -> Vec<(f64, f64)> {
        let n = rng.random_range(3..120);
        let kind = rng.random_range(0..5);
        let scale = 10f64.powf(rng.random_range(-3.0..3.0));
        let offset = (rng.random_range(-10.0..10.0) * scale, rng.random_range(-10.0..10.0) * scale);
        (0..n)
            .map(|_| {
                let (x, y) = match kind {
                    // Uniform in a square.
                    0 => (rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)),
                    // On a circle: most points are hull vertices.
                    1 => {
                        let t: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                        (t.cos(), t.sin())
                    }
                    // An integer grid: many duplicates and many points on hull edges.
                    2 => (rng.random_range(0..5) as f64, rng.random_range(0..5) as f64),
                    // A thin sliver.
                    3 => (rng.random_range(-1.0..1.0), rng.random_range(-0.01..0.01)),
                    // Clusters around the corners of a triangle.
                    _ => {
                        let c = [(0.0, 0.0), (1.0, 0.0), (0.3, 0.8)][rng.random_range(0..3)];
                        (c.0 + rng.random_range(-1e-3..1e-3), c.1 + rng.random_range(-1e-3..1e-3))
                    }
                };
                (x * scale + offset.0, y * scale + offset.1)
            })
            .collect()
    }

    fn random_clouds<N: Scalar>(seed: u64, cases: usize) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut non_degenerate = 0;
        for _ in 0..cases {
            let xy = random_cloud(&mut rng);
            let cloud = pts::<N>(&xy);
            if let Some(idx) = check_hull(&cloud) {
                non_degenerate += 1;
                // Deterministic, and independent of the input order (as a point sequence).
                assert_eq!(convex_hull_2d_indices(&cloud).unwrap(), idx);
                let mut shuffled = cloud.clone();
                shuffled.shuffle(&mut rng);
                let a = convex_hull_2d(&cloud).unwrap();
                let b = convex_hull_2d(&shuffled).unwrap();
                assert_eq!(a, b);
            }
        }
        assert!(non_degenerate > cases * 9 / 10);
    }

    #[test]
    fn random_clouds_f64() {
        random_clouds::<f64>(0x5eed_0002, 2500);
    }

    #[test]
    fn random_clouds_f32() {
        random_clouds::<f32>(0x0f32_0002, 2500);
    }

    fn expect_hull<N: Scalar>(xy: &[(f64, f64)], expected: &[usize]) {
        let cloud = pts::<N>(xy);
        assert_eq!(convex_hull_2d_indices(&cloud).unwrap(), expected);
        assert_eq!(check_hull(&cloud).unwrap(), expected);
    }

    #[rstest]
    #[case::triangle(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], &[0, 1, 2])]
    #[case::clockwise_triangle(&[(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)], &[0, 2, 1])]
    #[case::square_with_midpoints_and_centre(
        &[(1.0, 1.0), (0.0, 1.0), (-1.0, 1.0), (-1.0, 0.0), (0.0, 0.0),
          (-1.0, -1.0), (0.0, -1.0), (1.0, -1.0), (1.0, 0.0)],
        &[5, 7, 0, 2]
    )]
    #[case::duplicates(&[(0.0, 0.0), (2.0, 0.0), (0.0, 0.0), (1.0, 2.0), (2.0, 0.0), (1.0, 2.0)], &[0, 4, 3])]
    #[case::vertical_edges(&[(0.0, 0.0), (0.0, 1.0), (0.0, 2.0), (1.0, 2.0), (1.0, 0.0), (1.0, 1.0)], &[0, 4, 3, 2])]
    #[case::near_collinear_vertex_dropped(&[(0.0, 0.0), (1.0, 1e-17), (2.0, 0.0), (1.0, 1.0)], &[0, 2, 3])]
    fn known_hulls(#[case] xy: &[(f64, f64)], #[case] expected: &[usize]) {
        expect_hull::<f32>(xy, expected);
        expect_hull::<f64>(xy, expected);
    }

    /// The monotone chain never tests the two points where its chains meet; the cyclic pass
    /// removes them when they are within the tolerance of their neighbours' chord.
    fn junction_vertex_is_removed<N: Scalar>() {
        // The leftmost point is 1e-20 left of the chord of its neighbours.
        let cloud = pts::<N>(&[(0.0, -5.0), (-1e-20, 0.0), (0.0, 5.0), (3.0, 0.0)]);
        let idx = check_hull(&cloud).unwrap();
        assert_eq!(idx, vec![0, 3, 2]);
    }

    #[test]
    fn junction_vertex_is_removed_in_both_precisions() {
        junction_vertex_is_removed::<f32>();
        junction_vertex_is_removed::<f64>();
    }

    /// A dense arc whose consecutive points are each far within the tolerance of collinear, but
    /// whose sagitta is many tolerances: dropping points one at a time against their current
    /// neighbours would cut the arc by hundreds of tolerances; the chord-based simplification
    /// keeps every point within the documented bound.
    fn dense_flat_arc<N: Scalar>(m: usize) {
        let h = 1.0 / m as f64;
        let probe = pts::<N>(&[(0.0, 0.0), (1.0, 0.0), (0.5, 1.0)]);
        let tol = validate::coincidence_tolerance(&probe).to_f64();
        let k = 0.1 * tol / (h * h);
        let mut xy: Vec<(f64, f64)> = (0..=m).map(|i| (i as f64 * h, 0.0)).collect();
        for p in xy.iter_mut() {
            p.1 = -k * p.0 * (1.0 - p.0);
        }
        xy.push((0.5, 1.0));
        let cloud = pts::<N>(&xy);
        let tol = validate::coincidence_tolerance(&cloud);
        let hull = convex_hull_2d(&cloud).unwrap();
        let n = hull.len();
        assert!(n > 10, "the arc is kept ({n} vertices)");
        for p in &cloud {
            for i in 0..n {
                let (a, b) = (&hull[i], &hull[(i + 1) % n]);
                // Measured in f64 (exact enough for f32 input): within the documented two
                // tolerances (here one for the simplification and one for a clean-up step).
                let f = |q: &Point2<N>| Point2::new(q.x.to_f64(), q.y.to_f64());
                let (a, b, q) = (f(a), f(b), f(p));
                let d = cross2(&(b - a), &(q - a)) / (b - a).norm();
                assert!(d >= -tol.to_f64() * 2.0, "{p:?} outside edge {i} by {d}");
            }
        }
        check_hull(&cloud).unwrap();
    }

    #[test]
    fn dense_flat_arc_stays_within_tolerance() {
        dense_flat_arc::<f32>(20_000);
        dense_flat_arc::<f64>(20_000);
    }

    fn expect_error<N: Scalar>(xy: &[(f64, f64)], expected: &ShapeError) {
        assert_eq!(&convex_hull_2d(&pts::<N>(xy)).unwrap_err(), expected);
    }

    #[rstest]
    #[case::nan(&[(0.0, 0.0), (1.0, 0.0), (f64::NAN, 1.0)], ShapeError::NonFinite { what: "point 2".into() })]
    #[case::infinite(&[(0.0, 0.0), (0.0, f64::INFINITY), (1.0, 1.0)], ShapeError::NonFinite { what: "point 1".into() })]
    #[case::empty(&[], ShapeError::TooFewPoints { got: 0, needed: 3 })]
    #[case::two_points(&[(0.0, 0.0), (1.0, 0.0)], ShapeError::TooFewPoints { got: 2, needed: 3 })]
    #[case::collinear(&[(0.0, 0.0), (1.0, 1.0), (3.0, 3.0), (2.0, 2.0)], ShapeError::Degenerate("collinear"))]
    #[case::collinear_vertical(&[(1.0, 0.0), (1.0, 3.0), (1.0, -2.0)], ShapeError::Degenerate("collinear"))]
    #[case::nearly_collinear(&[(0.0, 0.0), (1.0, 1e-18), (2.0, 0.0)], ShapeError::Degenerate("collinear"))]
    #[case::coincident(&[(2.0, 3.0), (2.0, 3.0), (2.0, 3.0)], ShapeError::Degenerate("coincident"))]
    fn errors(#[case] xy: &[(f64, f64)], #[case] expected: ShapeError) {
        expect_error::<f32>(xy, &expected);
        expect_error::<f64>(xy, &expected);
    }
}
