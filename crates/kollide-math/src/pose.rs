//! [`Pose`]: a rigid transform, the one abstraction that lets an algorithm be written once for 2D
//! and 3D.
//!
//! Vectors and points are already generic over their dimension in nalgebra
//! (`SVector<N, D>`, `Point<N, D>`), so a dimension-generic algorithm only needs one more thing:
//! a way to move points and directions between frames. nalgebra's isometries do that, but their
//! rotation type differs by dimension (`UnitComplex` in 2D, `UnitQuaternion` in 3D), which makes
//! generic bounds unreadable. `Pose<N, D>` names exactly the operations kollide needs and is
//! implemented by [`Iso2`](crate::Iso2) and [`Iso3`](crate::Iso3).
//!
//! A pose maps a shape's local frame to the world frame:
//! `world = rotation * local + translation`.

use crate::{Iso2, Iso3, Point, Scalar, Vector};
use core::fmt::Debug;
use nalgebra as na;

/// A rigid transform (rotation then translation) in `D` dimensions.
///
/// ```
/// use kollide_math::{Iso2, Point2, Pose, Vec2};
/// let pose = Iso2::new(Vec2::new(1.0f64, 0.0), std::f64::consts::FRAC_PI_2);
/// let p = pose.transform_point(&Point2::new(1.0, 0.0));
/// assert!((p - Point2::new(1.0, 1.0)).norm() < 1e-12);
/// let back = pose.inverse_transform_point(&p);
/// assert!((back - Point2::new(1.0, 0.0)).norm() < 1e-12);
/// ```
pub trait Pose<N: Scalar, const D: usize>:
    Copy + Debug + PartialEq + Send + Sync + 'static
{
    /// The identity transform.
    fn identity() -> Self;
    /// A pure translation.
    fn from_translation(t: Vector<N, D>) -> Self;
    /// The translation part: where the local origin lands in the world.
    fn translation(&self) -> Vector<N, D>;
    /// Maps a local point to the world.
    fn transform_point(&self, p: &Point<N, D>) -> Point<N, D>;
    /// Rotates a local direction into the world (no translation).
    fn transform_vector(&self, v: &Vector<N, D>) -> Vector<N, D>;
    /// Maps a world point into the local frame.
    fn inverse_transform_point(&self, p: &Point<N, D>) -> Point<N, D>;
    /// Rotates a world direction into the local frame.
    fn inverse_transform_vector(&self, v: &Vector<N, D>) -> Vector<N, D>;
    /// The inverse transform.
    fn inverse(&self) -> Self;
    /// The composition `self * rhs`: first `rhs`, then `self`.
    fn compose(&self, rhs: &Self) -> Self;
    /// `self⁻¹ * rhs`: the pose of `rhs` expressed in the frame of `self`. For two shapes this is
    /// "B's pose in A's frame" (parry calls it `pos12`).
    fn inv_compose(&self, rhs: &Self) -> Self {
        self.inverse().compose(rhs)
    }
    /// The same pose moved by `t` in the world.
    fn translated(&self, t: &Vector<N, D>) -> Self;
    /// `true` when every number in the pose is finite.
    fn is_finite(&self) -> bool;
    /// The columns of the rotation as the pose applies it (`transform_vector` of each axis),
    /// evaluated in `f64` from the stored numbers, so that an exact fallback computed in `f64`
    /// sees the same input as an `f64` oracle would. The default rotates in `N`.
    fn rotation_columns_f64(&self) -> [Vector<f64, D>; D] {
        core::array::from_fn(|i| {
            let mut e = Vector::<N, D>::zeros();
            e[i] = N::one();
            self.transform_vector(&e).map(|x| x.to_f64())
        })
    }
}

macro_rules! impl_pose {
    ($iso:ident, $d:literal, $is_finite:expr, $to_f64:expr) => {
        impl<N: Scalar> Pose<N, $d> for $iso<N> {
            #[inline]
            fn identity() -> Self {
                na::Isometry::identity()
            }
            #[inline]
            fn from_translation(t: Vector<N, $d>) -> Self {
                na::Isometry::from_parts(na::Translation::from(t), na::AbstractRotation::identity())
            }
            #[inline]
            fn translation(&self) -> Vector<N, $d> {
                self.translation.vector
            }
            #[inline]
            fn transform_point(&self, p: &Point<N, $d>) -> Point<N, $d> {
                self * p
            }
            #[inline]
            fn transform_vector(&self, v: &Vector<N, $d>) -> Vector<N, $d> {
                self.rotation * v
            }
            #[inline]
            fn inverse_transform_point(&self, p: &Point<N, $d>) -> Point<N, $d> {
                na::Isometry::inverse_transform_point(self, p)
            }
            #[inline]
            fn inverse_transform_vector(&self, v: &Vector<N, $d>) -> Vector<N, $d> {
                na::Isometry::inverse_transform_vector(self, v)
            }
            #[inline]
            fn inverse(&self) -> Self {
                na::Isometry::inverse(self)
            }
            #[inline]
            fn compose(&self, rhs: &Self) -> Self {
                self * rhs
            }
            #[inline]
            fn inv_compose(&self, rhs: &Self) -> Self {
                na::Isometry::inv_mul(self, rhs)
            }
            #[inline]
            fn translated(&self, t: &Vector<N, $d>) -> Self {
                let mut out = *self;
                out.translation.vector += t;
                out
            }
            fn is_finite(&self) -> bool {
                let f: fn(&Self) -> bool = $is_finite;
                f(self)
            }
            fn rotation_columns_f64(&self) -> [Vector<f64, $d>; $d] {
                let f: fn(&Self) -> $iso<f64> = $to_f64;
                let pose = f(self);
                core::array::from_fn(|i| {
                    let mut e = Vector::<f64, $d>::zeros();
                    e[i] = 1.0;
                    pose.rotation * e
                })
            }
        }
    };
}

// The `f64` copies keep the stored numbers as they are (a rotation a few ulps off unit stays so).
impl_pose!(
    Iso2,
    2,
    |p| {
        p.translation.vector.iter().all(|x| x.is_finite_value())
            && p.rotation.re.is_finite_value()
            && p.rotation.im.is_finite_value()
    },
    |p| {
        let c = na::Complex::new(p.rotation.re.to_f64(), p.rotation.im.to_f64());
        Iso2::from_parts(
            p.translation.vector.map(|x| x.to_f64()).into(),
            na::UnitComplex::new_unchecked(c),
        )
    }
);
impl_pose!(
    Iso3,
    3,
    |p| {
        p.translation.vector.iter().all(|x| x.is_finite_value())
            && p.rotation.coords.iter().all(|x| x.is_finite_value())
    },
    |p| {
        let q = na::Quaternion::from(p.rotation.coords.map(|x| x.to_f64()));
        Iso3::from_parts(
            p.translation.vector.map(|x| x.to_f64()).into(),
            na::UnitQuaternion::new_unchecked(q),
        )
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Point2, Point3, Vec2, Vec3};

    fn round_trip<N: Scalar, const D: usize, P: Pose<N, D>>(pose: P, p: Point<N, D>) -> N {
        let w = pose.transform_point(&p);
        let back = pose.inverse_transform_point(&w);
        let rel = pose.inv_compose(&pose);
        let same = rel.transform_point(&p);
        (back - p).norm() + (same - p).norm()
    }

    #[test]
    fn round_trips_in_both_dimensions_and_precisions() {
        let p2 = Iso2::new(Vec2::new(3.0f64, -2.0), 0.7);
        assert!(round_trip(p2, Point2::new(0.5, 0.25)) < 1e-12);
        let p2f = Iso2::new(Vec2::new(3.0f32, -2.0), 0.7);
        assert!(round_trip(p2f, Point2::new(0.5, 0.25)) < 1e-5);
        let p3 = Iso3::new(Vec3::new(1.0f64, 2.0, 3.0), Vec3::new(0.1, 0.2, 0.3));
        assert!(round_trip(p3, Point3::new(-1.0, 0.5, 2.0)) < 1e-12);
    }

    #[test]
    fn composition_and_translation() {
        let a = Iso2::new(Vec2::new(1.0f64, 0.0), 0.3);
        let b = Iso2::new(Vec2::new(0.0f64, 2.0), -1.1);
        let p = Point2::new(0.3, 0.4);
        let lhs = a.compose(&b).transform_point(&p);
        let rhs = a.transform_point(&b.transform_point(&p));
        assert!((lhs - rhs).norm() < 1e-12);
        let t = <Iso2<f64> as Pose<f64, 2>>::from_translation(Vec2::new(1.0, 2.0));
        assert_eq!(Pose::translation(&t), Vec2::new(1.0, 2.0));
        let moved = a.translated(&Vec2::new(0.0, 1.0));
        assert_eq!(Pose::translation(&moved), Vec2::new(1.0, 1.0));
        assert!(Pose::is_finite(&a));
        let bad = Iso2::new(Vec2::new(f64::NAN, 0.0), 0.0);
        assert!(!Pose::is_finite(&bad));
    }
}
