//! [`Segment`]: the straight line between two points, in 2D or 3D.
//!
//! A segment is the simplest shape with an extent: the set `{ a + t (b − a) : t ∈ [0, 1] }`. It
//! has no area and no volume, so it has no mass properties; it is useful on its own (a thin wire,
//! a ray's swept path, an edge of a mesh) and as the *core* of a [`Capsule`](crate::Capsule).
//!
//! ## Support
//! The support point in a direction `d` is the end point farther along `d`: `b` when
//! `d · (b − a) > 0`, otherwise `a`. When `d` is exactly perpendicular to the segment both ends
//! are equally far; the tie goes to `a`, always, so the same query gives the same answer.
//!
//! ## Supporting feature
//! [`SupportFeatureMap`] reports the whole segment (`Edge(0)`, with vertex ids `Vertex(0)` for `a`
//! and `Vertex(1)` for `b`, always in the order `a`, `b`) when `d` is *nearly* perpendicular to
//! it, and the single end point otherwise. "Nearly" is the tolerance
//! [`Tolerances::parallel_cosine`]: the edge is reported when
//! `|d · (b − a)| ≤ parallel_cosine · |d| · |b − a|`, i.e. when the cosine of the angle between
//! `d` and the segment is below that tolerance. Contact generation relies on this: two capsules
//! lying side by side touch along a line, and reporting both end points gives a stable two-point
//! manifold instead of one point that flickers between the ends.
//!
//! ```
//! use kollide_math::{Point2, Vec2};
//! use kollide_shapes::{Segment, SupportMap};
//! let s = Segment::new(Point2::new(0.0f64, 0.0), Point2::new(2.0, 1.0)).unwrap();
//! assert_eq!(s.local_support_point(&Vec2::new(1.0, 0.0)), Point2::new(2.0, 1.0));
//! // Perpendicular direction: the tie goes to `a`.
//! assert_eq!(s.local_support_point(&Vec2::new(-1.0, 2.0)), Point2::new(0.0, 0.0));
//! ```

use kollide_math::{Point, Pose, Scalar, Tolerances, Vector};

use crate::{
    Aabb, BoundingVolume, FeatureId, ShapeError, SupportFeature, SupportFeatureMap, SupportMap,
    validate,
};

/// The segment from `a` to `b` in `D` dimensions (`D` is 2 or 3).
///
/// The end points are distinct and finite, and the segment is within the envelope of `N`
/// (checked by [`Segment::new`]); read them with [`Segment::a`] and [`Segment::b`].
///
/// ```
/// use kollide_math::Point3;
/// use kollide_shapes::{Segment, ShapeError};
/// let s = Segment::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(0.0, 0.0, 3.0)).unwrap();
/// assert_eq!(s.length(), 3.0);
/// let p = Point3::new(1.0f32, 1.0, 1.0);
/// assert!(matches!(Segment::new(p, p), Err(ShapeError::DuplicatePoints { first: 0, second: 1 })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<N: Scalar, const D: usize> {
    a: Point<N, D>,
    b: Point<N, D>,
}

impl<N: Scalar, const D: usize> Segment<N, D> {
    /// The segment from `a` to `b`.
    ///
    /// Fails with [`ShapeError::NonFinite`] if a coordinate is NaN or infinite, and with
    /// [`ShapeError::DuplicatePoints`] (`first: 0, second: 1`) if the two points coincide: a
    /// segment of zero length has no direction and is degenerate. A coordinate beyond
    /// [`Scalar::MAX_COORDINATE`], or a length below [`Scalar::MIN_SIZE`] or above
    /// `2 ·` [`Scalar::MAX_SIZE`], fails with [`ShapeError::OutOfEnvelope`].
    pub fn new(a: Point<N, D>, b: Point<N, D>) -> Result<Self, ShapeError> {
        let points = [a, b];
        validate::finite_points(&points)?;
        if (b - a).norm() <= validate::coincidence_tolerance(&points) {
            return Err(ShapeError::DuplicatePoints { first: 0, second: 1 });
        }
        validate::length((b - a).norm(), "segment length")?;
        Ok(Self { a, b })
    }

    /// The first end point (vertex 0).
    #[inline]
    pub fn a(&self) -> Point<N, D> {
        self.a
    }

    /// The second end point (vertex 1).
    #[inline]
    pub fn b(&self) -> Point<N, D> {
        self.b
    }

    /// The vector from `a` to `b`.
    #[inline]
    pub fn direction(&self) -> Vector<N, D> {
        self.b - self.a
    }

    /// The length `|b − a|`.
    #[inline]
    pub fn length(&self) -> N {
        self.direction().norm()
    }

    /// The midpoint `(a + b) / 2`.
    #[inline]
    pub fn midpoint(&self) -> Point<N, D> {
        nalgebra::center(&self.a, &self.b)
    }

    /// The same segment moved so that its midpoint is the origin, and that midpoint (see
    /// [`Triangle::centred`](crate::Triangle::centred)).
    #[inline]
    pub fn centred(&self) -> (Self, Vector<N, D>) {
        let m = self.midpoint().coords;
        (Self { a: self.a - m, b: self.b - m }, m)
    }

    /// The end point with index `i` (0 is `a`, anything else is `b`).
    #[inline]
    pub fn vertex(&self, i: u32) -> Point<N, D> {
        if i == 0 { self.a } else { self.b }
    }
}

impl<N: Scalar, const D: usize> SupportMap<N, D> for Segment<N, D> {
    /// `b` when `dir · (b − a) > 0`, otherwise `a` (ties, including a zero `dir`, go to `a`).
    #[inline]
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D> {
        if dir.dot(&self.direction()) > N::zero() { self.b } else { self.a }
    }

    /// `max(|a|, |b|)`.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.a.coords.norm().max_of(self.b.coords.norm())
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point<N, D>; 2]> {
        Some([self.a, self.b])
    }
}

impl<N: Scalar, const D: usize> SupportFeatureMap<N, D> for Segment<N, D> {
    /// The whole segment (`Edge(0)`, points `a` then `b`) when `dir` is perpendicular to it within
    /// [`Tolerances::parallel_cosine`], otherwise the end point farther along `dir`.
    fn local_support_feature(&self, dir: &Vector<N, D>, out: &mut SupportFeature<N, D>) {
        let e = self.direction();
        let along = dir.dot(&e);
        let tol = Tolerances::<N>::default().parallel_cosine;
        if along.abs() <= tol * dir.norm() * e.norm() {
            out.reset(FeatureId::Edge(0));
            out.push(self.a, FeatureId::Vertex(0));
            out.push(self.b, FeatureId::Vertex(1));
        } else if along > N::zero() {
            out.reset(FeatureId::Vertex(1));
            out.push(self.b, FeatureId::Vertex(1));
        } else {
            out.reset(FeatureId::Vertex(0));
            out.push(self.a, FeatureId::Vertex(0));
        }
    }
}

impl<N: Scalar, const D: usize> BoundingVolume<N, D> for Segment<N, D> {
    /// The box spanned by the two transformed end points.
    fn aabb<P: Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        let a = pose.transform_point(&self.a);
        let b = pose.transform_point(&self.b);
        Aabb::new(a.inf(&b), a.sup(&b))
    }

    fn local_aabb(&self) -> Aabb<N, D> {
        Aabb::new(self.a.inf(&self.b), self.a.sup(&self.b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Iso3, Point2, Point3, Vec2, Vec3};
    use proptest::prelude::*;
    use rstest::rstest;

    fn p2<N: Scalar>(x: f64, y: f64) -> Point2<N> {
        Point2::new(N::lit(x), N::lit(y))
    }
    fn p3<N: Scalar>(x: f64, y: f64, z: f64) -> Point3<N> {
        Point3::new(N::lit(x), N::lit(y), N::lit(z))
    }
    fn v3<N: Scalar>(x: f64, y: f64, z: f64) -> Vec3<N> {
        Vec3::new(N::lit(x), N::lit(y), N::lit(z))
    }

    /// The 2D segment of the tables: from (−1, 0) to (1, 2).
    fn seg2<N: Scalar>() -> Segment<N, 2> {
        Segment::new(p2(-1.0, 0.0), p2(1.0, 2.0)).unwrap()
    }

    fn check_support_2d<N: Scalar>(dir: [f64; 2], expected: usize) {
        let s = seg2::<N>();
        let d = Vec2::new(N::lit(dir[0]), N::lit(dir[1]));
        let want = if expected == 0 { s.a } else { s.b };
        assert_eq!(s.local_core_support(&d), want);
        assert_eq!(s.local_support_point(&d), want);
    }

    #[rstest]
    #[case::along(         [1.0, 1.0], 1)]
    #[case::against(       [-1.0, -1.0], 0)]
    #[case::x(             [1.0, 0.0], 1)]
    #[case::minus_y(       [0.0, -1.0], 0)]
    #[case::perpendicular( [1.0, -1.0], 0)]
    #[case::perpendicular_other_side([-1.0, 1.0], 0)]
    #[case::zero(          [0.0, 0.0], 0)]
    fn support_2d(#[case] dir: [f64; 2], #[case] expected: usize) {
        check_support_2d::<f32>(dir, expected);
        check_support_2d::<f64>(dir, expected);
    }

    fn check_support_3d<N: Scalar>(dir: [f64; 3], expected: usize) {
        let s = Segment::new(p3::<N>(0.0, 0.0, -1.0), p3(0.0, 0.0, 1.0)).unwrap();
        let d = v3::<N>(dir[0], dir[1], dir[2]);
        let want = if expected == 0 { s.a } else { s.b };
        assert_eq!(s.local_core_support(&d), want);
    }

    #[rstest]
    #[case::up(        [0.0, 0.0, 1.0], 1)]
    #[case::down(      [0.0, 0.0, -1.0], 0)]
    #[case::slanted(   [3.0, -2.0, 0.1], 1)]
    #[case::side_x(    [1.0, 0.0, 0.0], 0)]
    #[case::side_xy(   [1.0, -4.0, 0.0], 0)]
    fn support_3d(#[case] dir: [f64; 3], #[case] expected: usize) {
        check_support_3d::<f32>(dir, expected);
        check_support_3d::<f64>(dir, expected);
    }

    fn check_feature<N: Scalar>(dir: [f64; 2], expected: FeatureId) {
        let s = seg2::<N>();
        let mut f = SupportFeature::new();
        s.local_support_feature(&Vec2::new(N::lit(dir[0]), N::lit(dir[1])), &mut f);
        assert_eq!(f.id, expected);
        match expected {
            FeatureId::Edge(0) => {
                assert_eq!(f.vertices.as_slice(), &[s.a, s.b]);
                assert_eq!(f.vertex_ids.as_slice(), &[FeatureId::Vertex(0), FeatureId::Vertex(1)]);
            }
            FeatureId::Vertex(i) => {
                assert_eq!(f.vertices.as_slice(), &[s.vertex(i)]);
                assert_eq!(f.vertex_ids.as_slice(), &[expected]);
            }
            _ => unreachable!(),
        }
    }

    #[rstest]
    #[case::perpendicular([1.0, -1.0], FeatureId::Edge(0))]
    #[case::perpendicular_other_side([-2.0, 2.0], FeatureId::Edge(0))]
    #[case::almost_perpendicular([1.0, -0.9999999999], FeatureId::Edge(0))]
    #[case::tilted([1.0, -0.9], FeatureId::Vertex(1))]
    #[case::along([1.0, 1.0], FeatureId::Vertex(1))]
    #[case::against([-1.0, 0.0], FeatureId::Vertex(0))]
    fn support_feature(#[case] dir: [f64; 2], #[case] expected: FeatureId) {
        check_feature::<f32>(dir, expected);
        check_feature::<f64>(dir, expected);
    }

    fn check_errors<N: Scalar>() {
        let p = p3::<N>(1.0, 2.0, 3.0);
        assert_eq!(Segment::new(p, p), Err(ShapeError::DuplicatePoints { first: 0, second: 1 }));
        let bad = p3::<N>(0.0, f64::NAN, 0.0);
        assert!(matches!(Segment::new(p, bad), Err(ShapeError::NonFinite { .. })));
        let inf = p2::<N>(f64::INFINITY, 0.0);
        assert!(matches!(Segment::new(inf, p2(0.0, 0.0)), Err(ShapeError::NonFinite { .. })));
        // A tiny but genuine segment is accepted.
        assert!(Segment::new(p2::<N>(0.0, 0.0), p2(1e-3, 0.0)).is_ok());
    }

    #[test]
    fn constructor_errors() {
        check_errors::<f32>();
        check_errors::<f64>();
    }

    fn check_aabb<N: Scalar>(tol: f64) {
        let s = Segment::new(p3::<N>(-1.0, 0.5, 0.0), p3(2.0, -1.0, 0.3)).unwrap();
        let pose = Iso3::new(v3(0.5, -2.0, 1.0), v3(0.3, -0.7, 1.1));
        let aabb = s.aabb(&pose);
        let tol = N::lit(tol);
        for k in 0..=10 {
            let t = N::lit(k as f64 / 10.0);
            let p = pose.transform_point(&(s.a + s.direction() * t));
            let grown = aabb.loosened(tol);
            assert!(grown.contains_point(&p));
        }
        for i in 0..3 {
            let mut e = Vec3::zeros();
            e[i] = N::one();
            assert!((s.support_point(&pose, &e)[i] - aabb.maxs[i]).abs() <= tol);
            assert!((s.support_point(&pose, &-e)[i] - aabb.mins[i]).abs() <= tol);
        }
        let local = s.local_aabb();
        assert_eq!(local.mins, p3(-1.0, -1.0, 0.0));
        assert_eq!(local.maxs, p3(2.0, 0.5, 0.3));
        let flat = seg2::<N>().aabb(&Iso2::new(Vec2::zeros(), N::zero()));
        assert_eq!(flat, Aabb::new(p2(-1.0, 0.0), p2(1.0, 2.0)));
    }

    #[test]
    fn aabb_is_tight_under_rotation() {
        check_aabb::<f32>(1e-5);
        check_aabb::<f64>(1e-12);
    }

    fn support_is_max<N: Scalar>(a: [f64; 3], b: [f64; 3], d: [f64; 3], tol: f64) {
        let Ok(s) = Segment::new(p3::<N>(a[0], a[1], a[2]), p3(b[0], b[1], b[2])) else {
            return;
        };
        let dir = v3::<N>(d[0], d[1], d[2]);
        let best = s.local_support_point(&dir).coords.dot(&dir).to_f64();
        let scale = 1.0 + s.a.coords.norm().to_f64() + s.b.coords.norm().to_f64();
        for k in 0..=20 {
            let t = N::lit(k as f64 / 20.0);
            let p = s.a + s.direction() * t;
            assert!(p.coords.dot(&dir).to_f64() <= best + tol * scale * dir.norm().to_f64());
        }
    }

    proptest! {
        #[test]
        fn support_maximises_dot(a in prop::array::uniform3(-10.0f64..10.0),
                                 b in prop::array::uniform3(-10.0f64..10.0),
                                 d in prop::array::uniform3(-1.0f64..1.0)) {
            support_is_max::<f32>(a, b, d, 1e-5);
            support_is_max::<f64>(a, b, d, 1e-12);
        }
    }
}
