//! The configuration-space obstacle (CSO): anything with a support function that returns witness
//! points. GJK, EPA and the casts only ever see this trait.
//!
//! The usual CSO is the [`MinkowskiDifference`] `A − B` of two shapes in A's frame. A single shape
//! is the CSO of itself minus a point ([`SingleShape`]), which is how ray casts reuse GJK.

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::{MinkowskiDifference, SupportMap, SupportPoint};

/// A convex set given by its support function, with the points of A and B behind each support
/// point.
pub trait Cso<N: Scalar, const D: usize> {
    /// The support point in direction `dir` (need not be unit).
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D>;
}

impl<N, const D: usize, A, B, P> Cso<N, D> for MinkowskiDifference<'_, N, D, A, B, P>
where
    N: Scalar,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
    P: Pose<N, D>,
{
    #[inline(always)]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        MinkowskiDifference::support(self, dir)
    }
}

/// One shape as a CSO: `S − {origin}`, whole (core plus radius) or core only.
#[derive(Clone, Copy, Debug)]
pub struct SingleShape<'s, S: ?Sized> {
    /// The shape, in its local frame.
    pub shape: &'s S,
    /// Include the rounding radius.
    pub with_radius: bool,
}

impl<N: Scalar, const D: usize, S: SupportMap<N, D> + ?Sized> Cso<N, D> for SingleShape<'_, S> {
    #[inline]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        let a = if self.with_radius {
            self.shape.local_support_point(dir)
        } else {
            self.shape.local_core_support(dir)
        };
        SupportPoint::new(a, Point::origin())
    }
}
