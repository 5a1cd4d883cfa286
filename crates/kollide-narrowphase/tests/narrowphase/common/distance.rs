//! Exact distances between points, segments and triangles in `f64`: the brute-force oracles'
//! building blocks. Each handles its degenerate inputs (a segment of zero length, a triangle
//! without area) instead of dividing by zero, since a NaN candidate silently drops out of the
//! `f64::min` the oracles take over feature pairs.

use kollide_math::Point3;

/// The distance from `p` to the segment `ab` (a point when `a == b`).
pub fn point_segment(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 <= 0.0 {
        return (p - a).norm();
    }
    let t = ((p - a).dot(&ab) / len2).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}

/// The distance from `p` to the triangle `abc`, by the Voronoi regions of its vertices, edges
/// and face (Ericson, *Real-Time Collision Detection*, 5.1.5, `ClosestPtPointTriangle`).
pub fn point_triangle(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>) -> f64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.norm();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.norm();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (p - (a + ab * v)).norm();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.norm();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (p - (a + ac * w)).norm();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (p - (b + (c - b) * w)).norm();
    }
    // `va + vb + vc` is the squared area's scale, `|ab × ac|²`. A triangle without area never
    // gets here in exact arithmetic (its edge regions cover every point), but rounding can send
    // a sliver here with a zero sum; its nearest point is then on an edge.
    let sum = va + vb + vc;
    if sum <= 0.0 {
        return point_segment(p, a, b).min(point_segment(p, b, c)).min(point_segment(p, c, a));
    }
    let (v, w) = (vb / sum, vc / sum);
    (p - (a + ab * v + ac * w)).norm()
}

/// The distance between the segments `p1 q1` and `p2 q2`, either or both of which may have zero
/// length (Ericson, *Real-Time Collision Detection*, 5.1.9, `ClosestPtSegmentSegment`).
///
/// Ericson tests the squared lengths against a small epsilon; this tests them against zero,
/// which is enough here: every division by one is of a dot product with that same segment
/// (bounded by its length times another vector's), and the quotient is only clamped to
/// `[0, 1]` or compared with its ends, so a tiny nonzero length gives a large finite or
/// infinite quotient that does no harm, never the 0/0 of a zero length.
pub fn segment_segment(
    p1: &Point3<f64>,
    q1: &Point3<f64>,
    p2: &Point3<f64>,
    q2: &Point3<f64>,
) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t) = if a <= 0.0 && e <= 0.0 {
        (0.0, 0.0)
    } else if a <= 0.0 {
        // The first segment is a point: the second's point nearest to it.
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(&r);
        if e <= 0.0 {
            // The second segment is a point: the first's point nearest to it.
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(&d2);
            // Zero for parallel segments: any `s` will do to start with (Ericson takes 0), since
            // where its `t` falls off the second segment, `s` is found again from the clamped end.
            let denom = a * e - b * b;
            let s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let t = (b * s + f) / e;
            if t < 0.0 {
                ((-c / a).clamp(0.0, 1.0), 0.0)
            } else if t > 1.0 {
                (((b - c) / a).clamp(0.0, 1.0), 1.0)
            } else {
                (s, t)
            }
        }
    };
    ((p1 + d1 * s) - (p2 + d2 * t)).norm()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::Vec3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// How far a helper may be from the search's answer (shapes about 1 across).
    const TOL: f64 = 1e-9;

    /// The least value of the convex function `f` on `[lo, hi]`, by ternary search. The distance
    /// from a point to a segment is convex in the segment's parameter, and so is the least
    /// distance over a second parameter (the other segment's, or the triangle's second
    /// coordinate): nested searches give the answers with none of the region logic under test.
    fn min_convex(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
        let (mut lo, mut hi) = (lo, hi);
        for _ in 0..100 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if f(m1) <= f(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        f(lo).min(f(hi))
    }

    fn by_search_segment(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
        min_convex(0.0, 1.0, |t| (p - (a + (b - a) * t)).norm())
    }

    fn by_search_triangle(
        p: &Point3<f64>,
        a: &Point3<f64>,
        b: &Point3<f64>,
        c: &Point3<f64>,
    ) -> f64 {
        let (ab, ac) = (b - a, c - a);
        min_convex(0.0, 1.0, |u| min_convex(0.0, 1.0 - u, |v| (p - (a + ab * u + ac * v)).norm()))
    }

    fn by_search_segments(
        p1: &Point3<f64>,
        q1: &Point3<f64>,
        p2: &Point3<f64>,
        q2: &Point3<f64>,
    ) -> f64 {
        min_convex(0.0, 1.0, |s| by_search_segment(&(p1 + (q1 - p1) * s), p2, q2))
    }

    fn point(rng: &mut ChaCha8Rng) -> Point3<f64> {
        Point3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
    }

    #[test]
    fn point_segment_matches_a_search() {
        let (a, b) = (Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0));
        // Before the start, over the middle, past the end, and against a zero-length segment.
        assert!((point_segment(&Point3::new(-1.0, 1.0, 0.0), &a, &b) - 2f64.sqrt()).abs() < TOL);
        assert!((point_segment(&Point3::new(1.0, 1.0, 1.0), &a, &b) - 2f64.sqrt()).abs() < TOL);
        assert!((point_segment(&Point3::new(3.0, 0.0, 1.0), &a, &b) - 2f64.sqrt()).abs() < TOL);
        assert_eq!(point_segment(&Point3::new(3.0, 4.0, 0.0), &a, &a), 5.0);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..200 {
            let (p, a, b) = (point(&mut rng), point(&mut rng), point(&mut rng));
            let d = point_segment(&p, &a, &b);
            assert!((d - by_search_segment(&p, &a, &b)).abs() < TOL, "{p} {a} {b}: {d}");
        }
    }

    #[test]
    fn segment_segment_handles_zero_length_segments() {
        let (a, b) = (Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0));
        // A point before the start, over the middle and past the end of the other segment, as
        // either argument: before and past are where a 0/0 used to give NaN.
        for (p, want) in [
            (Point3::new(-1.0, 1.0, 0.0), 2f64.sqrt()),
            (Point3::new(1.0, 0.0, 1.0), 1.0),
            (Point3::new(3.0, -1.0, 0.0), 2f64.sqrt()),
        ] {
            let d1 = segment_segment(&p, &p, &a, &b);
            let d2 = segment_segment(&a, &b, &p, &p);
            assert!((d1 - want).abs() < TOL && (d2 - want).abs() < TOL, "{p}: {d1} {d2}");
        }
        // Both points.
        let (p, q) = (Point3::new(1.0, 2.0, 3.0), Point3::new(4.0, 6.0, 3.0));
        assert_eq!(segment_segment(&p, &p, &q, &q), 5.0);
        assert_eq!(segment_segment(&p, &p, &p, &p), 0.0);
    }

    #[test]
    fn segment_segment_matches_a_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for i in 0..300 {
            let (p1, mut q1, p2, mut q2) =
                (point(&mut rng), point(&mut rng), point(&mut rng), point(&mut rng));
            // Some of them points, some parallel (collinear too), some crossing.
            match i % 6 {
                0 => q1 = p1,
                1 => q2 = p2,
                2 => q2 = p2 + (q1 - p1) * rng.random_range(-2.0..2.0),
                3 => q2 = p2 + (q1 - p1) * rng.random_range(-2.0..2.0) + (p1 - p2),
                4 => {
                    let x = p1 + (q1 - p1) * 0.3;
                    q2 = x + (x - p2);
                }
                _ => {}
            }
            let d = segment_segment(&p1, &q1, &p2, &q2);
            let want = by_search_segments(&p1, &q1, &p2, &q2);
            assert!((d - want).abs() < TOL, "case {i}: {d} against {want}");
            let swapped = segment_segment(&p2, &q2, &p1, &q1);
            assert!((swapped - want).abs() < TOL, "case {i} swapped: {swapped} against {want}");
        }
    }

    #[test]
    fn point_triangle_in_each_voronoi_region() {
        let (a, b, c) =
            (Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
        let h: f64 = 0.5;
        // One point per region, `h` off the triangle's plane, with its distance.
        let s2 = 2f64.sqrt();
        let cases = [
            ("vertex a", Point3::new(-1.0, -1.0, h), (2.0 + h * h).sqrt()),
            ("vertex b", Point3::new(2.0, -0.5, h), (1.25 + h * h).sqrt()),
            ("vertex c", Point3::new(-0.5, 2.0, -h), (1.25 + h * h).sqrt()),
            ("edge ab", Point3::new(0.5, -1.0, h), (1.0 + h * h).sqrt()),
            ("edge ac", Point3::new(-1.0, 0.5, -h), (1.0 + h * h).sqrt()),
            ("edge bc", Point3::new(1.0, 1.0, h), (0.5 + h * h).sqrt()),
            ("face", Point3::new(0.2, 0.3, -h), h),
        ];
        for (region, p, want) in cases {
            let d = point_triangle(&p, &a, &b, &c);
            assert!((d - want).abs() < TOL, "{region}: {d} against {want}");
            let searched = by_search_triangle(&p, &a, &b, &c);
            assert!((searched - want).abs() < TOL, "{region}: the search gave {searched}");
        }
        assert!((point_triangle(&Point3::new(1.0, 1.0, 0.0), &a, &b, &c) - s2 / 2.0).abs() < TOL);
    }

    #[test]
    fn point_triangle_matches_a_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for i in 0..200 {
            let (a, b, mut c) = (point(&mut rng), point(&mut rng), point(&mut rng));
            if i % 4 == 0 {
                // A 1000:1 sliver.
                c = a + (b - a) * rng.random_range(0.0..1.0) + Vec3::new(1e-3, -1e-3, 0.5e-3);
            }
            let p = point(&mut rng) * 2.0;
            let d = point_triangle(&p, &a, &b, &c);
            let want = by_search_triangle(&p, &a, &b, &c);
            assert!((d - want).abs() < TOL, "case {i}: {d} against {want}");
        }
    }
}
