//! [`Ball`]: a disc in 2D ([`Circle`]), a sphere in 3D.
//!
//! A ball is a point grown by a radius: its core is its centre (the local origin), so its core
//! support is the origin in every direction and all of its shape is in [`SupportMap::radius`].

use kollide_math::{Mat3, Point, Point2, Point3, Scalar, Vector};

use crate::{
    Aabb, BoundingVolume, FeatureId, HasMass2, HasMass3, MassProperties2, MassProperties3,
    ShapeError, SupportFeature, SupportFeatureMap, SupportMap, mass::check_density, validate,
};

/// A ball of radius `radius` centred on the local origin, in `D` dimensions.
///
/// ```
/// use kollide_shapes::{Ball, ShapeError};
/// let b = Ball::<f32, 3>::new(0.5).unwrap();
/// assert_eq!(b.radius(), 0.5);
/// assert!(matches!(Ball::<f32, 2>::new(-1.0), Err(ShapeError::NonPositive { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<N: Scalar, const D: usize> {
    radius: N,
}

/// A 2D disc.
pub type Circle<N> = Ball<N, 2>;

impl<N: Scalar, const D: usize> Ball<N, D> {
    /// A ball of the given radius. Fails for a NaN, infinite, zero or negative radius.
    pub fn new(radius: N) -> Result<Self, ShapeError> {
        validate::size(radius, "radius")?;
        Ok(Self { radius })
    }

    /// The radius: positive, finite and within [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    #[inline]
    pub fn radius(&self) -> N {
        self.radius
    }
}

impl<N: Scalar, const D: usize> SupportMap<N, D> for Ball<N, D> {
    #[inline]
    fn local_core_support(&self, _dir: &Vector<N, D>) -> Point<N, D> {
        Point::origin()
    }

    #[inline]
    fn radius(&self) -> N {
        self.radius
    }

    #[inline]
    fn bounding_radius(&self) -> N {
        self.radius
    }

    #[inline]
    fn core_is_point(&self) -> bool {
        true
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point<N, D>; 2]> {
        Some([Point::origin(); 2])
    }
}

impl<N: Scalar, const D: usize> SupportFeatureMap<N, D> for Ball<N, D> {
    fn local_support_feature(&self, _dir: &Vector<N, D>, out: &mut SupportFeature<N, D>) {
        out.reset(FeatureId::Face(0));
        out.push(Point::origin(), FeatureId::Face(0));
    }
}

impl<N: Scalar, const D: usize> BoundingVolume<N, D> for Ball<N, D> {
    fn aabb<P: kollide_math::Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        Aabb::from_half_extents(Point::from(pose.translation()), Vector::repeat(self.radius))
    }

    fn local_aabb(&self) -> Aabb<N, D> {
        Aabb::from_half_extents(Point::origin(), Vector::repeat(self.radius))
    }
}

impl<N: Scalar> HasMass2<N> for Ball<N, 2> {
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let r2 = self.radius * self.radius;
        let mass = density * N::pi() * r2;
        MassProperties2::checked(MassProperties2 {
            mass,
            local_center: Point2::origin(),
            inertia: mass * r2 * N::lit(0.5),
        })
    }
}

impl<N: Scalar> HasMass3<N> for Ball<N, 3> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        let r = self.radius;
        let mass = density * N::lit(4.0 / 3.0) * N::pi() * r * r * r;
        let i = mass * r * r * N::lit(0.4);
        MassProperties3::checked(MassProperties3 {
            mass,
            local_center: Point3::origin(),
            inertia: Mat3::from_diagonal_element(i),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Vec2, Vec3};
    use rstest::rstest;

    #[rstest]
    #[case::x(Vec2::new(1.0, 0.0), Point2::new(2.0, 0.0))]
    #[case::diag(Vec2::new(1.0, 1.0), Point2::new(2.0f64.sqrt(), 2.0f64.sqrt()))]
    #[case::unnormalised(Vec2::new(0.0, -7.0), Point2::new(0.0, -2.0))]
    fn support_points(#[case] dir: Vec2<f64>, #[case] expected: Point2<f64>) {
        let b = Circle::new(2.0).unwrap();
        assert!((b.local_support_point(&dir) - expected).norm() < 1e-12);
    }

    #[test]
    fn zero_direction_gives_a_finite_point() {
        let b = Ball::<f32, 3>::new(1.0).unwrap();
        let p = b.local_support_point(&Vec3::zeros());
        assert!(p.coords.iter().all(|x| x.is_finite()));
    }

    #[rstest]
    #[case::zero(0.0)]
    #[case::negative(-1.0)]
    fn rejects_non_positive(#[case] r: f64) {
        assert!(matches!(Ball::<f64, 2>::new(r), Err(ShapeError::NonPositive { .. })));
    }

    #[rstest]
    #[case::nan(f64::NAN)]
    #[case::inf(f64::INFINITY)]
    fn rejects_non_finite(#[case] r: f64) {
        assert!(matches!(Ball::<f64, 3>::new(r), Err(ShapeError::NonFinite { .. })));
    }

    #[test]
    fn aabb_and_mass() {
        let b = Circle::new(2.0f64).unwrap();
        let aabb = b.aabb(&Iso2::new(Vec2::new(1.0, 1.0), 0.3));
        assert_eq!(aabb.mins, Point2::new(-1.0, -1.0));
        assert_eq!(aabb.maxs, Point2::new(3.0, 3.0));
        let m = b.mass_properties(1.0).unwrap();
        assert!((m.mass - 4.0 * std::f64::consts::PI).abs() < 1e-12);
        assert!(matches!(b.mass_properties(0.0), Err(ShapeError::InvalidDensity(_))));
        let s = Ball::<f64, 3>::new(1.0).unwrap().mass_properties(3.0).unwrap();
        assert!((s.mass - 4.0 * std::f64::consts::PI).abs() < 1e-12);
    }
}
