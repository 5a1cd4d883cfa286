//! Moving between the dimension-generic `Vector<N, D>` and the concrete 2D/3D types.
//!
//! Most of the narrowphase is written once over `const D: usize`. EPA is the exception: a 2D
//! polygon and a 3D polytope are different data structures. The generic entry point branches on
//! `D` (a constant, so the branch is compiled away) and converts with these helpers, which copy
//! two or three numbers.

use kollide_math::{Point, Point2, Point3, Scalar, Vec2, Vec3, Vector};
use kollide_shapes::SupportPoint;

#[inline(always)]
pub(crate) fn to2<N: Scalar, const D: usize>(v: &Vector<N, D>) -> Vec2<N> {
    Vec2::new(v[0], v[1])
}

#[inline(always)]
pub(crate) fn to3<N: Scalar, const D: usize>(v: &Vector<N, D>) -> Vec3<N> {
    Vec3::new(v[0], v[1], if D > 2 { v[2] } else { N::zero() })
}

#[inline(always)]
pub(crate) fn from_slice<N: Scalar, const D: usize>(v: &[N]) -> Vector<N, D> {
    Vector::from_fn(|i, _| v[i])
}

#[inline(always)]
pub(crate) fn sp2<N: Scalar, const D: usize>(s: &SupportPoint<N, D>) -> SupportPoint<N, 2> {
    SupportPoint {
        point: to2(&s.point),
        a: Point2::from(to2(&s.a.coords)),
        b: Point2::from(to2(&s.b.coords)),
    }
}

#[inline(always)]
pub(crate) fn sp3<N: Scalar, const D: usize>(s: &SupportPoint<N, D>) -> SupportPoint<N, 3> {
    SupportPoint {
        point: to3(&s.point),
        a: Point3::from(to3(&s.a.coords)),
        b: Point3::from(to3(&s.b.coords)),
    }
}

#[inline(always)]
pub(crate) fn point_from<N: Scalar, const D: usize, const E: usize>(
    p: &Point<N, E>,
) -> Point<N, D> {
    Point::from(from_slice::<N, D>(p.coords.as_slice()))
}
