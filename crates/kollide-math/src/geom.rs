//! Small geometric helpers shared by the shapes, the narrowphase and the solver.
//!
//! * [`perp`] and [`cross2`]: the 2D perpendicular (rotate by +90°, counter-clockwise) and the 2D
//!   cross product (the z component of the 3D cross product of two vectors in the xy plane).
//! * [`triple_product`]: `(a × b) × c = b (a·c) − a (b·c)`, written with dot products only, so it
//!   works in any dimension. 2D GJK uses it to get the normal of a simplex edge pointing towards
//!   the origin without building 3D vectors.
//! * [`orthonormal_basis`]: two unit vectors completing a 3D unit vector to a right-handed basis,
//!   without branches on the sign (Duff et al., "Building an Orthonormal Basis, Revisited", JCGT 2017).
//! * [`biased_greater`]: the comparison SAT uses to choose between nearly equal axes, so that the
//!   same axis wins frame after frame (the manifold seed's `BiasGreaterThan`).

use crate::{Scalar, Vec2, Vec3, Vector};

/// The counter-clockwise perpendicular of a 2D vector: `(x, y) → (−y, x)`.
///
/// For an edge `b − a` of a counter-clockwise polygon, `-perp(b − a)` is the outward normal.
///
/// ```
/// use kollide_math::{geom::perp, Vec2};
/// assert_eq!(perp(Vec2::new(1.0f32, 0.0)), Vec2::new(0.0, 1.0));
/// ```
#[inline(always)]
pub fn perp<N: Scalar>(v: Vec2<N>) -> Vec2<N> {
    Vec2::new(-v.y, v.x)
}

/// The 2D cross product `a.x * b.y − a.y * b.x`: positive when `b` is counter-clockwise from `a`.
#[inline(always)]
pub fn cross2<N: Scalar>(a: &Vec2<N>, b: &Vec2<N>) -> N {
    a.x * b.y - a.y * b.x
}

/// The vector triple product `(a × b) × c = b (a·c) − a (b·c)`, valid in any dimension.
///
/// With `a = b − a'`, `b = −a'`... the usual use is `triple_product(ab, ao, ab)`: the component of
/// `ao` perpendicular to `ab`, i.e. the normal of the edge `ab` on the side of `o`.
///
/// ```
/// use kollide_math::{geom::triple_product, Vec2};
/// let ab = Vec2::new(1.0f64, 0.0);
/// let ao = Vec2::new(0.5, 2.0);
/// assert_eq!(triple_product(&ab, &ao, &ab), Vec2::new(0.0, 2.0));
/// ```
#[inline(always)]
pub fn triple_product<N: Scalar, const D: usize>(
    a: &Vector<N, D>,
    b: &Vector<N, D>,
    c: &Vector<N, D>,
) -> Vector<N, D> {
    b * a.dot(c) - a * b.dot(c)
}

/// Two unit vectors `(t, b)` such that `(t, b, n)` is a right-handed orthonormal basis.
///
/// `n` must have unit length. The construction has no branch on which axis is smallest, only on
/// the sign of `n.z`, so nearby inputs give nearby outputs (Duff et al. 2017).
///
/// ```
/// use kollide_math::{geom::orthonormal_basis, Vec3};
/// let n = Vec3::new(0.0f64, 0.0, 1.0);
/// let (t, b) = orthonormal_basis(&n);
/// assert!((t.cross(&b) - n).norm() < 1e-12);
/// ```
pub fn orthonormal_basis<N: Scalar>(n: &Vec3<N>) -> (Vec3<N>, Vec3<N>) {
    let one = N::one();
    let sign = if n.z >= N::zero() { one } else { -one };
    let a = -one / (sign + n.z);
    let b = n.x * n.y * a;
    let t = Vec3::new(one + sign * n.x * n.x * a, sign * b, -sign * n.x);
    let bt = Vec3::new(b, sign + n.y * n.y * a, -n.y);
    (t, bt)
}

/// `true` when `candidate` beats `current` by a clear margin: SAT's biased comparison.
///
/// SAT picks the axis of least penetration (largest separation). When two axes are almost equally
/// good, rounding decides, and a reference face that flips from one frame to the next makes
/// stacks jitter. So a candidate replaces the current best only when
/// `candidate > current * relative + absolute`, with `relative` slightly below one and `absolute`
/// a small length (the manifold seed uses 0.95 and 0.01; kollide scales the absolute part by the
/// shapes' size). Separations are usually negative when this matters (penetration); for negative
/// `current`, `current * relative` is slightly *larger* than `current`, which is the bias.
///
/// Returns `false` when either value is NaN, so a NaN never wins.
///
/// ```
/// use kollide_math::geom::biased_greater;
/// // Two nearly equal penetrations: the first axis keeps winning.
/// assert!(!biased_greater(-0.1001f64, -0.1, 0.95, 0.001));
/// // A clearly shallower penetration wins.
/// assert!(biased_greater(-0.05f64, -0.1, 0.95, 0.001));
/// ```
#[inline]
pub fn biased_greater<N: Scalar>(candidate: N, current: N, relative: N, absolute: N) -> bool {
    candidate > current * relative + absolute
}

/// Clamps `x` into `[lo, hi]` (NaN is returned as is).
#[inline(always)]
pub fn clamp<N: Scalar>(x: N, lo: N, hi: N) -> N {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// `true` when every component of the vector is finite.
#[inline]
pub fn is_finite_vector<N: Scalar, const D: usize>(v: &Vector<N, D>) -> bool {
    v.iter().all(|x| x.is_finite_value())
}

/// The index and value of the largest `v · dir` over `points`, with ties broken towards the lower
/// index (so the result is deterministic). Returns `None` for an empty slice.
///
/// This is the linear-scan support function of a point cloud; shapes with many vertices use hill
/// climbing instead (see `kollide-shapes`).
pub fn argmax_dot<N: Scalar, const D: usize>(
    points: &[crate::Point<N, D>],
    dir: &Vector<N, D>,
) -> Option<(usize, N)> {
    let mut best: Option<(usize, N)> = None;
    for (i, p) in points.iter().enumerate() {
        let d = p.coords.dot(dir);
        match best {
            Some((_, b)) if d <= b => {}
            _ => best = Some((i, d)),
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point2;
    use proptest::prelude::*;
    use rstest::rstest;

    #[rstest]
    #[case::x(Vec2::new(1.0, 0.0), Vec2::new(0.0, 1.0), 1.0)]
    #[case::y(Vec2::new(0.0, 1.0), Vec2::new(1.0, 0.0), -1.0)]
    #[case::parallel(Vec2::new(2.0, 2.0), Vec2::new(1.0, 1.0), 0.0)]
    fn cross_products(#[case] a: Vec2<f64>, #[case] b: Vec2<f64>, #[case] expected: f64) {
        assert_eq!(cross2(&a, &b), expected);
        assert_eq!(cross2(&a, &perp(a)), a.norm_squared());
    }

    #[test]
    fn argmax_breaks_ties_towards_lower_index() {
        let pts = [Point2::new(1.0f64, 0.0), Point2::new(1.0, 1.0), Point2::new(1.0, -1.0)];
        assert_eq!(argmax_dot(&pts, &Vec2::new(1.0, 0.0)), Some((0, 1.0)));
        assert_eq!(argmax_dot::<f64, 2>(&[], &Vec2::new(1.0, 0.0)), None);
    }

    #[test]
    fn biased_comparison_rejects_nan() {
        assert!(!biased_greater(f64::NAN, -1.0, 0.95, 0.01));
        assert!(!biased_greater(-1.0, f64::NAN, 0.95, 0.01));
    }

    #[test]
    fn clamp_works() {
        assert_eq!(clamp(2.0f32, 0.0, 1.0), 1.0);
        assert_eq!(clamp(-2.0f32, 0.0, 1.0), 0.0);
        assert_eq!(clamp(0.5f32, 0.0, 1.0), 0.5);
    }

    proptest! {
        #[test]
        fn basis_is_orthonormal_and_right_handed(x in -1.0f64..1.0, y in -1.0f64..1.0, z in -1.0f64..1.0) {
            let v = Vec3::new(x, y, z);
            prop_assume!(v.norm() > 1e-3);
            let n = v.normalize();
            let (t, b) = orthonormal_basis(&n);
            prop_assert!((t.norm() - 1.0).abs() < 1e-9);
            prop_assert!((b.norm() - 1.0).abs() < 1e-9);
            prop_assert!(t.dot(&n).abs() < 1e-9);
            prop_assert!(b.dot(&n).abs() < 1e-9);
            prop_assert!((t.cross(&b) - n).norm() < 1e-9);
        }

        #[test]
        fn triple_product_matches_cross_in_3d(a in prop::array::uniform3(-10.0f64..10.0),
                                              b in prop::array::uniform3(-10.0f64..10.0),
                                              c in prop::array::uniform3(-10.0f64..10.0)) {
            let (a, b, c) = (Vec3::from(a), Vec3::from(b), Vec3::from(c));
            let expected = a.cross(&b).cross(&c);
            prop_assert!((triple_product(&a, &b, &c) - expected).norm() < 1e-9 * (1.0 + expected.norm()));
        }
    }
}
