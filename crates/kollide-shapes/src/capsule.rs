//! [`Capsule`]: a segment grown by a radius (a stadium in 2D, a pill in 3D).
//!
//! A capsule is every point within `radius` of a segment. Like a [`Ball`](crate::Ball), it is a
//! *core* plus a radius: its core is the [`Segment`], so [`SupportMap::local_core_support`] is the
//! segment's support and [`SupportMap::radius`] is the capsule's radius. GJK on the cores gives
//! the exact distance between capsules (subtract the radii), which is why capsules are the usual
//! shape for characters and limbs.
//!
//! The usual convention puts the segment on the local `y` axis, from `−half_height` to
//! `+half_height`: that is [`Capsule::new_axis`]. [`Capsule::new`] takes any two end points.
//!
//! ## Mass properties
//! * 2D ([`HasMass2`]): a `L × 2r` rectangle plus two half discs (together one disc). Each half
//!   disc's centroid lies `4r / 3π` beyond its end point, and the parallel axis theorem moves its
//!   inertia to the capsule's centre (the midpoint of the segment):
//!   `I = m_rect (L² + 4r²) / 12 + m_disc (r² / 2 + L² / 4 + 4 r L / 3π)`.
//! * 3D ([`HasMass3`]): a cylinder of length `L` plus two hemispheres (together one sphere). About
//!   the axis, `I_axis = m_cyl r² / 2 + 2 m_sph r² / 5`; about a perpendicular axis through the
//!   centre, `I_perp = m_cyl (3r² + L²) / 12 + m_sph (2r² / 5 + L² / 4 + 3 r L / 8)` (each
//!   hemisphere's centroid lies `3r / 8` beyond its end point). For a segment of any orientation
//!   with unit direction `u`, the tensor is `I_perp · 1 + (I_axis − I_perp) u uᵀ`: the diagonal
//!   tensor of the segment frame rotated to the local frame.
//!
//! ```
//! use kollide_math::{Point2, Vec2};
//! use kollide_shapes::{Capsule, SupportMap};
//! let c = Capsule::<f64, 2>::new_axis(1.0, 0.5).unwrap();
//! // The top of the capsule: the segment's end (0, 1) plus the radius.
//! assert_eq!(c.local_support_point(&Vec2::new(0.0, 1.0)), Point2::new(0.0, 1.5));
//! ```

use kollide_math::{Mat3, Point, Point2, Point3, Pose, Scalar, Vector};

use crate::{
    Aabb, BoundingVolume, HasMass2, HasMass3, MassProperties2, MassProperties3, Segment,
    ShapeError, SupportFeature, SupportFeatureMap, SupportMap, mass::check_density, validate,
};

/// Every point within `radius` of `segment`, in `D` dimensions (`D` is 2 or 3).
///
/// ```
/// use kollide_math::Point3;
/// use kollide_shapes::{Capsule, ShapeError};
/// let c = Capsule::new(Point3::new(0.0f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), 0.25).unwrap();
/// assert_eq!(c.segment().length(), 1.0);
/// assert!(matches!(
///     Capsule::<f32, 3>::new_axis(1.0, 0.0),
///     Err(ShapeError::NonPositive { what: "radius", .. })
/// ));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<N: Scalar, const D: usize> {
    segment: Segment<N, D>,
    radius: N,
}

impl<N: Scalar, const D: usize> Capsule<N, D> {
    /// The capsule around the segment from `a` to `b`.
    ///
    /// Fails like [`Segment::new`] for non-finite or coincident end points, or a core length
    /// outside the envelope ([`ShapeError::OutOfEnvelope`], `"segment length"`), and with
    /// [`ShapeError::NonFinite`], [`ShapeError::NonPositive`] or [`ShapeError::OutOfEnvelope`] for
    /// a bad radius.
    ///
    /// **A zero-length core is refused**, although parry accepts one (and rapier's
    /// `capsule_y(0.0, r)`): such a capsule is exactly a [`Ball`](crate::Ball), which every query
    /// answers in closed form, while a capsule's core has no direction to report its side as an
    /// edge, to orient its mass frame, or to clip against. Refusing it keeps a valid capsule's
    /// axis well defined everywhere; callers porting `capsule_y(0.0, r)` get a typed error that
    /// points them to `Ball` instead of a shape that silently degrades.
    pub fn new(a: Point<N, D>, b: Point<N, D>, radius: N) -> Result<Self, ShapeError> {
        let segment = Segment::new(a, b)?;
        validate::size(radius, "radius")?;
        Ok(Self { segment, radius })
    }

    /// The core segment (its end points are the centres of the two round caps).
    #[inline]
    pub fn segment(&self) -> Segment<N, D> {
        self.segment
    }

    /// The radius: positive, finite and within [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    #[inline]
    pub fn radius(&self) -> N {
        self.radius
    }

    /// The capsule whose segment runs along the local `y` axis from `−half_height` to
    /// `+half_height`, centred on the origin. Its total height is `2 (half_height + radius)`.
    ///
    /// Fails with [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`] for a bad
    /// `half_height` or `radius`.
    pub fn new_axis(half_height: N, radius: N) -> Result<Self, ShapeError> {
        validate::size(half_height, "half_height")?;
        let mut top = Point::<N, D>::origin();
        if let Some(y) = top.coords.get_mut(1) {
            *y = half_height;
        }
        Self::new(-top, top, radius)
    }

    /// The length of the core segment (the distance between the centres of the caps).
    #[inline]
    pub fn segment_length(&self) -> N {
        self.segment.length()
    }

    /// The centre of the capsule: the midpoint of its segment.
    #[inline]
    pub fn center(&self) -> Point<N, D> {
        self.segment.midpoint()
    }
}

impl<N: Scalar, const D: usize> SupportMap<N, D> for Capsule<N, D> {
    /// The support of the core segment (ties go to `segment.a`).
    #[inline]
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D> {
        self.segment.local_core_support(dir)
    }

    #[inline]
    fn radius(&self) -> N {
        self.radius
    }

    /// `max(|a|, |b|) + radius`.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.segment.bounding_radius() + self.radius
    }

    #[inline]
    fn core_segment(&self) -> Option<[Point<N, D>; 2]> {
        Some([self.segment.a(), self.segment.b()])
    }
}

impl<N: Scalar, const D: usize> SupportFeatureMap<N, D> for Capsule<N, D> {
    /// The feature of the core segment (see [`Segment`]'s module docs): the whole segment when
    /// `dir` is nearly perpendicular to it, otherwise the end point facing `dir`. The radius is
    /// not included.
    fn local_support_feature(&self, dir: &Vector<N, D>, out: &mut SupportFeature<N, D>) {
        self.segment.local_support_feature(dir, out);
    }
}

impl<N: Scalar, const D: usize> BoundingVolume<N, D> for Capsule<N, D> {
    /// The box of the transformed segment, grown by the radius.
    fn aabb<P: Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        self.segment.aabb(pose).loosened(self.radius)
    }

    fn local_aabb(&self) -> Aabb<N, D> {
        self.segment.local_aabb().loosened(self.radius)
    }
}

impl<N: Scalar> HasMass2<N> for Capsule<N, 2> {
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let l = self.segment.length();
        let r = self.radius;
        let (r2, l2) = (r * r, l * l);
        let m_rect = density * l * r * N::lit(2.0);
        let m_disc = density * N::pi() * r2;
        // Rectangle L × 2r about its centre.
        let i_rect = m_rect * (l2 + r2 * N::lit(4.0)) / N::lit(12.0);
        // Two half discs: each has inertia m r² / 2 about its end point; moving it to its own
        // centroid (offset d = 4r/3π) and then to the capsule's centre (offset L/2 + d) adds
        // m ((L/2 + d)² − d²) = m (L²/4 + L d).
        let d = r * N::lit(4.0) / (N::lit(3.0) * N::pi());
        let i_caps = m_disc * (r2 * N::lit(0.5) + l2 * N::lit(0.25) + l * d);
        let c = self.segment.midpoint();
        MassProperties2::checked(MassProperties2 {
            mass: m_rect + m_disc,
            local_center: Point2::new(c.x, c.y),
            inertia: i_rect + i_caps,
        })
    }
}

impl<N: Scalar> HasMass3<N> for Capsule<N, 3> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        let axis = self.segment.direction();
        let l = axis.norm();
        let r = self.radius;
        let (r2, l2) = (r * r, l * l);
        let m_cyl = density * N::pi() * r2 * l;
        let m_sph = density * N::lit(4.0 / 3.0) * N::pi() * r2 * r;
        let two_fifths = N::lit(0.4);
        let i_axis = m_cyl * r2 * N::lit(0.5) + m_sph * r2 * two_fifths;
        // Each hemisphere: m r² 2/5 about its end point (perpendicular axis), centroid 3r/8 beyond
        // it; the parallel axis theorem adds m ((L/2 + 3r/8)² − (3r/8)²) = m (L²/4 + 3rL/8).
        let i_perp = m_cyl * (r2 * N::lit(3.0) + l2) / N::lit(12.0)
            + m_sph * (r2 * two_fifths + l2 * N::lit(0.25) + r * l * N::lit(3.0 / 8.0));
        // Rotate diag(I_perp, I_perp, I_axis) from the segment frame: I_perp·1 + Δ u uᵀ.
        let u = axis / l;
        let inertia = Mat3::from_diagonal_element(i_perp) + (u * u.transpose()) * (i_axis - i_perp);
        let c = self.segment.midpoint();
        MassProperties3::checked(MassProperties3 {
            mass: m_cyl + m_sph,
            local_center: Point3::new(c.x, c.y, c.z),
            inertia,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Iso3, Vec2, Vec3};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
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

    fn check_support_2d<N: Scalar>(dir: [f64; 2], core: [f64; 2], full: [f64; 2], tol: f64) {
        let c = Capsule::<N, 2>::new_axis(N::lit(1.0), N::lit(0.5)).unwrap();
        let d = Vec2::new(N::lit(dir[0]), N::lit(dir[1]));
        assert_eq!(c.local_core_support(&d), p2(core[0], core[1]));
        let s = c.local_support_point(&d);
        assert!((s - p2(full[0], full[1])).norm().to_f64() <= tol, "{s:?}");
    }

    const H: f64 = std::f64::consts::FRAC_1_SQRT_2 * 0.5;

    #[rstest]
    #[case::up(        [0.0, 1.0],  [0.0, 1.0],  [0.0, 1.5])]
    #[case::down(      [0.0, -2.0], [0.0, -1.0], [0.0, -1.5])]
    #[case::side_tie(  [1.0, 0.0],  [0.0, -1.0], [0.5, -1.0])]
    #[case::other_side_tie([-3.0, 0.0], [0.0, -1.0], [-0.5, -1.0])]
    #[case::diagonal(  [1.0, 1.0],  [0.0, 1.0],  [H, 1.0 + H])]
    #[case::zero(      [0.0, 0.0],  [0.0, -1.0], [0.0, -1.0])]
    fn support_2d(#[case] dir: [f64; 2], #[case] core: [f64; 2], #[case] full: [f64; 2]) {
        check_support_2d::<f32>(dir, core, full, 1e-6);
        check_support_2d::<f64>(dir, core, full, 1e-14);
    }

    fn check_support_3d<N: Scalar>(dir: [f64; 3], core: [f64; 3]) {
        let c = Capsule::new(p3::<N>(1.0, 0.0, 0.0), p3(1.0, 0.0, 2.0), N::lit(0.3)).unwrap();
        let d = v3::<N>(dir[0], dir[1], dir[2]);
        assert_eq!(c.local_core_support(&d), p3(core[0], core[1], core[2]));
        let expected = p3::<N>(core[0], core[1], core[2]) + d.normalize() * N::lit(0.3);
        assert!((c.local_support_point(&d) - expected).norm() <= N::lit(1e-6));
    }

    #[rstest]
    #[case::up(      [0.0, 0.0, 1.0],  [1.0, 0.0, 2.0])]
    #[case::down(    [0.0, 0.0, -1.0], [1.0, 0.0, 0.0])]
    #[case::side_tie([0.0, 1.0, 0.0],  [1.0, 0.0, 0.0])]
    #[case::slanted( [-1.0, 1.0, 0.2], [1.0, 0.0, 2.0])]
    fn support_3d(#[case] dir: [f64; 3], #[case] core: [f64; 3]) {
        check_support_3d::<f32>(dir, core);
        check_support_3d::<f64>(dir, core);
    }

    fn check_feature<N: Scalar>() {
        let c = Capsule::<N, 3>::new_axis(N::lit(2.0), N::lit(1.0)).unwrap();
        let mut f = SupportFeature::new();
        c.local_support_feature(&v3(1.0, 0.0, 1.0), &mut f);
        assert_eq!(f.id, crate::FeatureId::Edge(0));
        assert_eq!(f.vertices.as_slice(), &[p3(0.0, -2.0, 0.0), p3(0.0, 2.0, 0.0)]);
        c.local_support_feature(&v3(1.0, 0.1, 1.0), &mut f);
        assert_eq!(f.id, crate::FeatureId::Vertex(1));
        assert_eq!(f.vertices.as_slice(), &[p3(0.0, 2.0, 0.0)]);
        c.local_support_feature(&v3(0.0, -1.0, 0.0), &mut f);
        assert_eq!(f.id, crate::FeatureId::Vertex(0));
    }

    #[test]
    fn support_feature_is_the_segments() {
        check_feature::<f32>();
        check_feature::<f64>();
    }

    fn check_errors<N: Scalar>() {
        let (a, b) = (p2::<N>(0.0, 0.0), p2::<N>(1.0, 0.0));
        let one = N::one();
        assert_eq!(
            Capsule::new(a, a, one),
            Err(ShapeError::DuplicatePoints { first: 0, second: 1 })
        );
        let nan = p2::<N>(f64::NAN, 0.0);
        assert!(matches!(Capsule::new(nan, b, one), Err(ShapeError::NonFinite { .. })));
        for r in [0.0, -1.0] {
            assert!(matches!(
                Capsule::new(a, b, N::lit(r)),
                Err(ShapeError::NonPositive { what: "radius", .. })
            ));
            assert!(matches!(
                Capsule::<N, 3>::new_axis(N::lit(r), one),
                Err(ShapeError::NonPositive { what: "half_height", .. })
            ));
        }
        for x in [f64::NAN, f64::INFINITY] {
            assert!(matches!(Capsule::new(a, b, N::lit(x)), Err(ShapeError::NonFinite { .. })));
            assert!(matches!(
                Capsule::<N, 2>::new_axis(N::lit(x), one),
                Err(ShapeError::NonFinite { .. })
            ));
        }
        let c = Capsule::<N, 2>::new_axis(one, one).unwrap();
        assert!(matches!(
            HasMass2::mass_properties(&c, N::zero()),
            Err(ShapeError::InvalidDensity(_))
        ));
    }

    #[test]
    fn constructor_errors() {
        check_errors::<f32>();
        check_errors::<f64>();
    }

    fn check_aabb_3d<N: Scalar>(tol: f64) {
        let c = Capsule::new(p3::<N>(-1.0, 0.5, 0.0), p3(2.0, -1.0, 0.3), N::lit(0.4)).unwrap();
        let pose = Iso3::new(v3(0.5, -2.0, 1.0), v3(0.3, -0.7, 1.1));
        let aabb = c.aabb(&pose);
        let grown = aabb.loosened(N::lit(tol));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let t = N::lit(rng.random::<f64>());
            let v = v3::<N>(rng.random(), rng.random(), rng.random()) - v3(0.5, 0.5, 0.5);
            if v.norm() < N::lit(1e-3) {
                continue;
            }
            let p = c.segment.a() + c.segment.direction() * t + v.normalize() * c.radius;
            assert!(grown.contains_point(&pose.transform_point(&p)));
        }
        for i in 0..3 {
            let mut e = Vec3::zeros();
            e[i] = N::one();
            assert!((c.support_point(&pose, &e)[i] - aabb.maxs[i]).abs() <= N::lit(tol));
            assert!((c.support_point(&pose, &-e)[i] - aabb.mins[i]).abs() <= N::lit(tol));
        }
        let local = Capsule::<N, 2>::new_axis(N::one(), N::lit(0.5)).unwrap().local_aabb();
        assert_eq!(local, Aabb::new(p2(-0.5, -1.5), p2(0.5, 1.5)));
        let rotated = Capsule::<N, 2>::new_axis(N::one(), N::lit(0.5))
            .unwrap()
            .aabb(&Iso2::new(Vec2::new(N::one(), N::zero()), N::frac_pi_2()));
        assert!((rotated.mins - p2(-0.5, -0.5)).norm() <= N::lit(tol));
        assert!((rotated.maxs - p2(2.5, 0.5)).norm() <= N::lit(tol));
    }

    #[test]
    fn aabb_is_tight_under_rotation() {
        check_aabb_3d::<f32>(1e-5);
        check_aabb_3d::<f64>(1e-12);
    }

    /// Distance from `p` to the segment `[a, b]`.
    fn dist_to_segment(p: Vec3<f64>, a: Vec3<f64>, b: Vec3<f64>) -> f64 {
        let ab = b - a;
        let t = ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0);
        (p - (a + ab * t)).norm()
    }

    /// Monte Carlo mass properties of a capsule given as `(a, b, r)`, density 1, in 3D (`dim = 3`)
    /// or in the xy plane (`dim = 2`, returns the polar inertia in `inertia[(2, 2)]`).
    fn monte_carlo(
        a: Vec3<f64>,
        b: Vec3<f64>,
        r: f64,
        dim: usize,
    ) -> (f64, Vec3<f64>, nalgebra::Matrix3<f64>) {
        let lo = a.inf(&b) - Vec3::repeat(r);
        let hi = a.sup(&b) + Vec3::repeat(r);
        let mut ext = hi - lo;
        if dim == 2 {
            ext.z = 1.0;
        }
        let box_measure = ext.x * ext.y * ext.z;
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let n = 400_000;
        let mut inside = Vec::with_capacity(n);
        for _ in 0..n {
            let mut p = Vec3::new(
                lo.x + ext.x * rng.random::<f64>(),
                lo.y + ext.y * rng.random::<f64>(),
                lo.z + ext.z * rng.random::<f64>(),
            );
            if dim == 2 {
                p.z = 0.0;
            }
            if dist_to_segment(p, a, b) <= r {
                inside.push(p);
            }
        }
        let dm = box_measure / n as f64;
        let mass = inside.len() as f64 * dm;
        let com = inside.iter().sum::<Vec3<f64>>() / inside.len() as f64;
        let mut inertia = nalgebra::Matrix3::zeros();
        for p in &inside {
            let q = p - com;
            inertia += (nalgebra::Matrix3::identity() * q.norm_squared() - q * q.transpose()) * dm;
        }
        (mass, com, inertia)
    }

    fn check_mass_3d<N: Scalar>() {
        let (a, b, r) = (Vec3::new(-0.5, 0.2, 0.1), Vec3::new(0.7, -0.4, 0.9), 0.35);
        let c = Capsule::new(p3::<N>(a.x, a.y, a.z), p3(b.x, b.y, b.z), N::lit(r)).unwrap();
        let m = c.mass_properties(N::lit(2.0)).unwrap();
        let (mass, com, inertia) = monte_carlo(a, b, r, 3);
        let rel = |x: f64, y: f64| (x - y).abs() / y.abs().max(1e-3);
        assert!(rel(m.mass.to_f64() / 2.0, mass) < 0.01, "{m:?} {mass}");
        let center = Vec3::new(
            m.local_center.x.to_f64(),
            m.local_center.y.to_f64(),
            m.local_center.z.to_f64(),
        );
        assert!((center - com).norm() < 0.01);
        let scale = inertia.norm();
        for i in 0..3 {
            for j in 0..3 {
                let got = m.inertia[(i, j)].to_f64() / 2.0;
                assert!((got - inertia[(i, j)]).abs() < 0.02 * scale, "{i}{j} {got} {inertia}");
            }
        }
        // Closed form check along the axis for the y-aligned capsule: symmetric, diagonal.
        let y = Capsule::<N, 3>::new_axis(N::one(), N::lit(0.5)).unwrap();
        let my = y.mass_properties(N::one()).unwrap();
        let expect_mass = std::f64::consts::PI * (0.25 * 2.0 + 4.0 / 3.0 * 0.125);
        assert!(rel(my.mass.to_f64(), expect_mass) < 1e-6);
        assert!(my.inertia[(0, 1)].to_f64().abs() < 1e-6);
        assert!((my.inertia[(0, 0)] - my.inertia[(2, 2)]).abs().to_f64() < 1e-6);
    }

    #[test]
    fn mass_3d_matches_monte_carlo() {
        check_mass_3d::<f32>();
        check_mass_3d::<f64>();
    }

    fn check_mass_2d<N: Scalar>() {
        let (a, b, r) = (Vec3::new(-0.5, 0.2, 0.0), Vec3::new(0.9, -0.4, 0.0), 0.3);
        let c = Capsule::new(p2::<N>(a.x, a.y), p2(b.x, b.y), N::lit(r)).unwrap();
        let m = c.mass_properties(N::lit(3.0)).unwrap();
        let (mass, com, inertia) = monte_carlo(a, b, r, 2);
        let l = (b - a).norm();
        let exact_area = 2.0 * r * l + std::f64::consts::PI * r * r;
        assert!((m.mass.to_f64() / 3.0 - exact_area).abs() < 1e-5 * exact_area);
        assert!((mass - exact_area).abs() < 0.01 * exact_area);
        assert!((m.local_center.x.to_f64() - com.x).abs() < 0.01);
        assert!((m.local_center.y.to_f64() - com.y).abs() < 0.01);
        let got = m.inertia.to_f64() / 3.0;
        assert!((got - inertia[(2, 2)]).abs() < 0.02 * got, "{got} {}", inertia[(2, 2)]);
    }

    #[test]
    fn mass_2d_matches_monte_carlo() {
        check_mass_2d::<f32>();
        check_mass_2d::<f64>();
    }

    fn support_is_max<N: Scalar>(
        a: [f64; 3],
        b: [f64; 3],
        r: f64,
        d: [f64; 3],
        samples: &[[f64; 4]],
        tol: f64,
    ) {
        let Ok(c) = Capsule::new(p3::<N>(a[0], a[1], a[2]), p3(b[0], b[1], b[2]), N::lit(r)) else {
            return;
        };
        let dir = v3::<N>(d[0], d[1], d[2]);
        let best = c.local_support_point(&dir).coords.dot(&dir).to_f64();
        let scale = (1.0 + a.iter().chain(&b).map(|x| x.abs()).sum::<f64>())
            * d.iter().map(|x| x.abs()).sum::<f64>();
        for s in samples {
            let u = v3::<N>(s[1], s[2], s[3]);
            if u.norm() < N::lit(1e-2) {
                continue;
            }
            let p = c.segment.a() + c.segment.direction() * N::lit(s[0]) + u.normalize() * c.radius;
            assert!(p.coords.dot(&dir).to_f64() <= best + tol * scale);
        }
    }

    proptest! {
        #[test]
        fn support_maximises_dot(a in prop::array::uniform3(-10.0f64..10.0),
                                 b in prop::array::uniform3(-10.0f64..10.0),
                                 r in 0.01f64..5.0,
                                 d in prop::array::uniform3(-1.0f64..1.0),
                                 samples in prop::collection::vec(
                                     (0.0f64..=1.0, -1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0)
                                         .prop_map(|(t, x, y, z)| [t, x, y, z]),
                                     32)) {
            support_is_max::<f32>(a, b, r, d, &samples, 1e-5);
            support_is_max::<f64>(a, b, r, d, &samples, 1e-12);
        }
    }
}
