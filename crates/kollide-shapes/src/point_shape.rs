//! A single point as a shape: the query partner of point projections.

use kollide_math::{Point, Scalar, Vector};

use crate::{BoundingVolume, SupportMap};

/// The local origin as a shape, with no radius: its support point is itself.
///
/// Handing it to a pair query as the second shape, placed at a point `p`, projects `p` on the
/// first shape: the query's witness on the first shape is the surface point nearest to `p`, its
/// separation the signed distance of `p` (negative inside) and its normal the outward normal
/// there. A pair query settles that normal with its exact fallbacks, where the chords of a single
/// GJK run only approach it.
///
/// ```
/// use kollide_math::{Point3, Vec3};
/// use kollide_shapes::{PointShape, SupportMap};
/// let s = SupportMap::<f64, 3>::local_support_point(&PointShape, &Vec3::new(1.0, 2.0, 3.0));
/// assert_eq!(s, Point3::origin());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointShape;

impl<N: Scalar, const D: usize> SupportMap<N, D> for PointShape {
    #[inline]
    fn local_core_support(&self, _dir: &Vector<N, D>) -> Point<N, D> {
        Point::origin()
    }

    #[inline]
    fn core_is_point(&self) -> bool {
        true
    }
}

impl<N: Scalar, const D: usize> BoundingVolume<N, D> for PointShape {}
