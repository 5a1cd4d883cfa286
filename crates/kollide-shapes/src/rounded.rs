//! [`Rounded`]: any support-mapped shape grown by a border radius (a rounded box, a rounded
//! triangle, ...).
//!
//! Growing a convex shape `S` by a radius `r` gives the Minkowski sum `S ⊕ Ball(r)`: every point
//! within `r` of `S`. Its support function is `s_S(d) + r d / |d|`, so the rounded shape costs no
//! more than the inner one. kollide treats the radius separately from the *core* (see
//! [`SupportMap`]): a `Rounded<S>` has the same core as `S` and a radius of
//! `S::radius() + border_radius`. GJK then runs on the sharp cores and subtracts the radii, which
//! keeps shallow contacts between rounded shapes out of EPA and makes them smooth to slide on.
//!
//! The wrapper forwards everything else to the inner shape: hinted support (hill climbing),
//! the supporting feature (a rounded box reports the box's face; the contact generator adds the
//! radius) and the bounding box (the inner box grown by `border_radius` on every side).
//!
//! A zero border radius is rejected: a rounded shape with no rounding is the inner shape itself,
//! which should be used directly.
//!
//! ## Mass
//! Only the rounded rectangle (`Rounded<Cuboid<N, 2>, N>`) has mass properties here. It splits
//! into the `2h_x × 2h_y` rectangle, four border strips of thickness `r`, and four quarter discs
//! at the corners (together one disc, whose quarters' centroids lie `4r / 3π` beyond the corners
//! on both axes), combined with the parallel axis theorem:
//!
//! ```text
//! I = m_core (h_x² + h_y²) / 3
//!   + m_side ((r² + 4 h_y²) / 12 + (h_x + r/2)²)
//!   + m_cap  ((4 h_x² + r²) / 12 + (h_y + r/2)²)
//!   + m_disc (r² / 2 + h_x² + h_y² + 2 d (h_x + h_y)),    d = 4r / 3π,
//! ```
//!
//! where `m_side` and `m_cap` are the masses of both vertical and both horizontal strips.
//!
//! ```
//! use kollide_math::{Point2, Vec2};
//! use kollide_shapes::{Cuboid, Rounded, SupportMap};
//! let rounded = Rounded::new(Cuboid::new(Vec2::new(1.0f64, 1.0)).unwrap(), 0.5).unwrap();
//! // The core support is the box corner; the full support adds the border radius.
//! assert_eq!(rounded.local_core_support(&Vec2::new(0.0, 1.0)), Point2::new(1.0, 1.0));
//! assert_eq!(rounded.local_support_point(&Vec2::new(0.0, 1.0)), Point2::new(1.0, 1.5));
//! ```

use kollide_math::{Point, Point2, Pose, Scalar, Vector};

use crate::{
    Aabb, BoundingVolume, Cuboid, HasMass2, MassProperties2, ShapeError, SupportFeature,
    SupportFeatureMap, SupportMap, mass::check_density, validate,
};

/// The shape `inner` grown by `border_radius`: every point within `border_radius` of `inner`.
///
/// `N` is the scalar type of the radius (the same as the inner shape's). Works in 2D and 3D, for
/// any inner shape that implements [`SupportMap`].
///
/// ```
/// use kollide_math::Point3;
/// use kollide_shapes::{Rounded, ShapeError, SupportMap, Triangle};
/// let t = Triangle::new(
///     Point3::new(0.0f32, 0.0, 0.0),
///     Point3::new(1.0, 0.0, 0.0),
///     Point3::new(0.0, 1.0, 0.0),
/// )
/// .unwrap();
/// let r = Rounded::new(t, 0.1).unwrap();
/// assert_eq!(SupportMap::<f32, 3>::radius(&r), 0.1);
/// assert!(matches!(Rounded::new(t, 0.0), Err(ShapeError::NonPositive { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounded<S, N> {
    inner: S,
    border_radius: N,
}

impl<S, N: Scalar> Rounded<S, N> {
    /// `inner` grown by `border_radius`.
    ///
    /// Fails with [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`] when the radius is NaN,
    /// infinite, zero or negative (zero is rejected because the result would just be `inner`).
    pub fn new(inner: S, border_radius: N) -> Result<Self, ShapeError> {
        validate::size(border_radius, "border_radius")?;
        Ok(Self { inner, border_radius })
    }

    /// The shape being rounded.
    #[inline]
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The radius added around `inner`: positive, finite and within
    /// [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    #[inline]
    pub fn border_radius(&self) -> N {
        self.border_radius
    }
}

impl<N: Scalar, const D: usize, S: SupportMap<N, D>> SupportMap<N, D> for Rounded<S, N> {
    /// The inner shape's *core* support (the inner radius is part of [`Self::radius`]).
    #[inline]
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D> {
        self.inner.local_core_support(dir)
    }

    /// `inner.radius() + border_radius`.
    #[inline]
    fn radius(&self) -> N {
        self.inner.radius() + self.border_radius
    }

    #[inline]
    fn local_core_support_hinted(&self, dir: &Vector<N, D>, hint: &mut u32) -> Point<N, D> {
        self.inner.local_core_support_hinted(dir, hint)
    }

    /// The inner shape's bounding radius plus the border.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.inner.bounding_radius() + self.border_radius
    }

    /// A rounded point is still a point grown by a radius.
    #[inline]
    fn core_is_point(&self) -> bool {
        self.inner.core_is_point()
    }

    /// A rounded segment (or point) is still a segment grown by a radius.
    #[inline]
    fn core_segment(&self) -> Option<[Point<N, D>; 2]> {
        self.inner.core_segment()
    }

    /// The inner shape's core polytope, if any.
    #[inline]
    fn polytope(&self) -> Option<&dyn crate::Polytope<N, D>> {
        self.inner.polytope()
    }

    /// The inner shape's flat normals (the core is the inner shape's).
    #[inline]
    fn flat_normals(&self, f: &mut dyn FnMut(crate::FlatNormal<N, D>)) {
        self.inner.flat_normals(f)
    }

    /// The inner shape's curved core feature (the core is the inner shape's).
    #[inline]
    fn curved_core_feature(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(Point<N, D>),
    ) -> bool {
        self.inner.curved_core_feature(dir, tol, f)
    }

    /// The inner shape's curved generators (the core is the inner shape's).
    #[inline]
    fn curved_generators(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(crate::Generator<N, D>),
    ) -> bool {
        self.inner.curved_generators(dir, tol, f)
    }

    /// The inner shape's core depth (the core is the inner shape's).
    #[inline]
    fn local_core_depth(&self, p: &Point<N, D>) -> Option<(N, Vector<N, D>)> {
        self.inner.local_core_depth(p)
    }

    /// The inner shape's core projection.
    #[inline]
    fn local_core_projection(&self, p: &Point<N, D>) -> Option<Point<N, D>> {
        self.inner.local_core_projection(p)
    }

    /// The inner shape's core normal.
    #[inline]
    fn local_core_normal_toward(&self, p: &Point<N, D>) -> Option<Vector<N, D>> {
        self.inner.local_core_normal_toward(p)
    }
}

impl<N: Scalar, const D: usize, S: SupportFeatureMap<N, D>> SupportFeatureMap<N, D>
    for Rounded<S, N>
{
    /// The inner shape's feature (without any radius).
    fn local_support_feature(&self, dir: &Vector<N, D>, out: &mut SupportFeature<N, D>) {
        self.inner.local_support_feature(dir, out);
    }
}

impl<N: Scalar, const D: usize, S: BoundingVolume<N, D>> BoundingVolume<N, D> for Rounded<S, N> {
    /// The inner shape's box grown by `border_radius` on every side (exact, because the box of a
    /// Minkowski sum with a ball is the box grown by the radius).
    fn aabb<P: Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        self.inner.aabb(pose).loosened(self.border_radius)
    }

    fn local_aabb(&self) -> Aabb<N, D> {
        self.inner.local_aabb().loosened(self.border_radius)
    }
}

impl<N: Scalar> HasMass2<N> for Rounded<Cuboid<N, 2>, N> {
    /// The rounded rectangle: see the module docs for the decomposition.
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let (hx, hy) = (self.inner.half_extents().x, self.inner.half_extents().y);
        let r = self.border_radius;
        let (two, three, four, twelve) = (N::lit(2.0), N::lit(3.0), N::lit(4.0), N::lit(12.0));
        let half_r = r * N::lit(0.5);
        let m_core = density * four * hx * hy;
        let i_core = m_core * (hx * hx + hy * hy) / three;
        // The two r × 2h_y strips at x = ±(h_x + r/2).
        let m_side = density * four * r * hy;
        let i_side = m_side * ((r * r + four * hy * hy) / twelve + (hx + half_r) * (hx + half_r));
        // The two 2h_x × r strips at y = ±(h_y + r/2).
        let m_cap = density * four * r * hx;
        let i_cap = m_cap * ((four * hx * hx + r * r) / twelve + (hy + half_r) * (hy + half_r));
        // Four quarter discs: each has m r² / 2 about its corner; its centroid is d = 4r/3π
        // beyond the corner on both axes, so moving to the centroid subtracts 2 m d² and moving to
        // the origin adds m ((h_x + d)² + (h_y + d)²).
        let m_disc = density * N::pi() * r * r;
        let d = four * r / (three * N::pi());
        let i_disc = m_disc * (r * r * N::lit(0.5) + hx * hx + hy * hy + two * d * (hx + hy));
        MassProperties2::checked(MassProperties2 {
            mass: m_core + m_side + m_cap + m_disc,
            local_center: Point2::origin(),
            inertia: i_core + i_side + i_cap + i_disc,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Capsule, FeatureId, Triangle};
    use kollide_math::{Iso2, Iso3, Point3, Vec2, Vec3};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn v2<N: Scalar>(x: f64, y: f64) -> Vec2<N> {
        Vec2::new(N::lit(x), N::lit(y))
    }
    fn v3<N: Scalar>(x: f64, y: f64, z: f64) -> Vec3<N> {
        Vec3::new(N::lit(x), N::lit(y), N::lit(z))
    }
    fn rbox2<N: Scalar>() -> Rounded<Cuboid<N, 2>, N> {
        Rounded::new(Cuboid::new(v2(2.0, 1.0)).unwrap(), N::lit(0.5)).unwrap()
    }
    fn rbox3<N: Scalar>() -> Rounded<Cuboid<N, 3>, N> {
        Rounded::new(Cuboid::new(v3(1.0, 2.0, 3.0)).unwrap(), N::lit(0.25)).unwrap()
    }

    fn check_support_2d<N: Scalar>(dir: [f64; 2], core: [f64; 2], tol: f64) {
        let r = rbox2::<N>();
        let d = v2::<N>(dir[0], dir[1]);
        let core = Point2::from(v2::<N>(core[0], core[1]));
        assert_eq!(r.local_core_support(&d), core);
        let mut hint = 0;
        assert_eq!(r.local_core_support_hinted(&d, &mut hint), core);
        let expected = if d.norm() > N::zero() { core + d.normalize() * N::lit(0.5) } else { core };
        assert!((r.local_support_point(&d) - expected).norm() <= N::lit(tol));
    }

    #[rstest]
    #[case::corner([1.0, 1.0], [2.0, 1.0])]
    #[case::plus_x_face_tie([1.0, 0.0], [2.0, 1.0])]
    #[case::minus_y_face_tie([0.0, -1.0], [2.0, -1.0])]
    #[case::minus_minus([-1.0, -3.0], [-2.0, -1.0])]
    #[case::zero([0.0, 0.0], [2.0, 1.0])]
    fn support_2d(#[case] dir: [f64; 2], #[case] core: [f64; 2]) {
        check_support_2d::<f32>(dir, core, 1e-6);
        check_support_2d::<f64>(dir, core, 1e-14);
    }

    fn check_radius_adds<N: Scalar>() {
        // A rounded capsule: the radii add up, the core is still the segment.
        let c = Capsule::<N, 3>::new_axis(N::one(), N::lit(0.5)).unwrap();
        let r = Rounded::new(c, N::lit(0.25)).unwrap();
        assert_eq!(r.radius(), N::lit(0.75));
        let up = v3::<N>(0.0, 1.0, 0.0);
        assert_eq!(r.local_core_support(&up), Point3::new(N::zero(), N::one(), N::zero()));
        assert_eq!(r.local_support_point(&up), Point3::new(N::zero(), N::lit(1.75), N::zero()));
        let side = v3::<N>(0.0, 0.0, 1.0);
        assert_eq!(r.local_support_point(&side), Point3::new(N::zero(), -N::one(), N::lit(0.75)));
        let aabb = r.local_aabb();
        assert_eq!(aabb.maxs, Point3::new(N::lit(0.75), N::lit(1.75), N::lit(0.75)));
    }

    #[test]
    fn radii_add_up() {
        check_radius_adds::<f32>();
        check_radius_adds::<f64>();
    }

    fn check_feature_forwards<N: Scalar>() {
        let r = rbox3::<N>();
        let mut a = SupportFeature::new();
        let mut b = SupportFeature::new();
        for d in [v3::<N>(0.0, 0.0, 1.0), v3(-1.0, 0.2, 0.3), v3(0.1, -2.0, 0.3)] {
            r.local_support_feature(&d, &mut a);
            r.inner.local_support_feature(&d, &mut b);
            assert_eq!(a, b);
        }
        r.local_support_feature(&v3(0.0, 0.0, -1.0), &mut a);
        assert_eq!(a.id, FeatureId::Face(5));
        let t = Triangle::new(
            Point2::from(v2::<N>(0.0, 0.0)),
            Point2::from(v2(1.0, 0.0)),
            Point2::from(v2(0.0, 1.0)),
        )
        .unwrap();
        let rt = Rounded::new(t, N::lit(0.1)).unwrap();
        let mut f2 = SupportFeature::new();
        rt.local_support_feature(&v2(0.0, -1.0), &mut f2);
        assert_eq!(f2.id, FeatureId::Edge(0));
    }

    #[test]
    fn feature_forwards_to_inner() {
        check_feature_forwards::<f32>();
        check_feature_forwards::<f64>();
    }

    fn check_errors<N: Scalar>() {
        let inner = Cuboid::new(v2::<N>(1.0, 1.0)).unwrap();
        for bad in [0.0, -0.5] {
            assert!(matches!(
                Rounded::new(inner, N::lit(bad)),
                Err(ShapeError::NonPositive { what: "border_radius", .. })
            ));
        }
        for bad in [f64::NAN, f64::INFINITY] {
            assert!(matches!(Rounded::new(inner, N::lit(bad)), Err(ShapeError::NonFinite { .. })));
        }
        assert!(matches!(
            rbox2::<N>().mass_properties(N::zero()),
            Err(ShapeError::InvalidDensity(_))
        ));
    }

    #[test]
    fn constructor_errors() {
        check_errors::<f32>();
        check_errors::<f64>();
    }

    fn random_unit3<N: Scalar>(rng: &mut ChaCha8Rng) -> Vec3<N> {
        loop {
            let v = Vec3::new(rng.random::<f64>(), rng.random(), rng.random()) * 2.0
                - Vec3::repeat(1.0);
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return (v / n).map(N::lit);
            }
        }
    }

    fn check_aabb<N: Scalar>(tol: f64) {
        let tol = N::lit(tol);
        let r = rbox3::<N>();
        let pose = Iso3::new(v3(0.5, -2.0, 1.0), v3(0.3, -0.7, 1.1));
        let aabb = r.aabb(&pose);
        let grown = aabb.loosened(tol);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..200 {
            // A point of the box's surface plus a border-radius offset.
            let mut p = Vec3::new(rng.random::<f64>(), rng.random(), rng.random()) * 2.0
                - Vec3::repeat(1.0);
            let axis = rng.random_range(0..3);
            p[axis] = if rng.random::<bool>() { 1.0 } else { -1.0 };
            let p = Point3::from(p.map(N::lit).component_mul(&r.inner.half_extents()))
                + random_unit3::<N>(&mut rng) * r.border_radius;
            assert!(grown.contains_point(&pose.transform_point(&p)));
        }
        for i in 0..3 {
            let mut e = Vec3::zeros();
            e[i] = N::one();
            assert!((r.support_point(&pose, &e)[i] - aabb.maxs[i]).abs() <= tol);
            assert!((r.support_point(&pose, &-e)[i] - aabb.mins[i]).abs() <= tol);
        }
        let r2 = rbox2::<N>();
        let box2 = r2.aabb(&Iso2::new(v2(1.0, 0.0), N::frac_pi_2()));
        assert!((box2.mins - Point2::from(v2(-0.5, -2.5))).norm() <= tol);
        assert!((box2.maxs - Point2::from(v2(2.5, 2.5))).norm() <= tol);
    }

    #[test]
    fn aabb_is_tight_under_rotation() {
        check_aabb::<f32>(1e-5);
        check_aabb::<f64>(1e-12);
    }

    fn check_mass<N: Scalar>() {
        let (hx, hy, r) = (2.0, 1.0, 0.5);
        let m = rbox2::<N>().mass_properties(N::lit(2.0)).unwrap();
        let exact_area = 4.0 * hx * hy + 4.0 * r * (hx + hy) + std::f64::consts::PI * r * r;
        assert!((m.mass.to_f64() - 2.0 * exact_area).abs() < 1e-5 * exact_area);
        // Monte Carlo for the inertia, density 2.
        let (ex, ey) = (hx + r, hy + r);
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let n = 400_000;
        let dm = 2.0 * 4.0 * ex * ey / n as f64;
        let (mut mass, mut inertia) = (0.0, 0.0);
        for _ in 0..n {
            let x = ex * (2.0 * rng.random::<f64>() - 1.0);
            let y = ey * (2.0 * rng.random::<f64>() - 1.0);
            let dx = (x.abs() - hx).max(0.0);
            let dy = (y.abs() - hy).max(0.0);
            if dx * dx + dy * dy <= r * r {
                mass += dm;
                inertia += dm * (x * x + y * y);
            }
        }
        assert!((m.mass.to_f64() - mass).abs() < 0.01 * mass);
        let got = m.inertia.to_f64();
        assert!((got - inertia).abs() < 0.01 * inertia, "{got} {inertia}");
        assert_eq!(m.local_center, Point2::origin());
    }

    #[test]
    fn mass_matches_monte_carlo() {
        check_mass::<f32>();
        check_mass::<f64>();
    }

    fn support_is_max<N: Scalar>(
        h: [f64; 3],
        radius: f64,
        d: [f64; 3],
        samples: &[[f64; 6]],
        tol: f64,
    ) {
        let inner = Cuboid::new(v3::<N>(h[0], h[1], h[2])).unwrap();
        let r = Rounded::new(inner, N::lit(radius)).unwrap();
        let dir = v3::<N>(d[0], d[1], d[2]);
        let best = r.local_support_point(&dir).coords.dot(&dir).to_f64();
        let scale = (1.0 + h.iter().sum::<f64>() + radius) * dir.norm().to_f64();
        for s in samples {
            let u = v3::<N>(s[3], s[4], s[5]);
            if u.norm() < N::lit(1e-2) {
                continue;
            }
            let p = v3::<N>(s[0], s[1], s[2]).component_mul(&inner.half_extents())
                + u.normalize() * r.border_radius;
            assert!(p.dot(&dir).to_f64() <= best + tol * scale);
        }
    }

    proptest! {
        #[test]
        fn support_maximises_dot(h in prop::array::uniform3(0.01f64..10.0),
                                 radius in 0.01f64..3.0,
                                 d in prop::array::uniform3(-1.0f64..1.0),
                                 samples in prop::collection::vec(prop::array::uniform6(-1.0f64..=1.0), 32)) {
            support_is_max::<f32>(h, radius, d, &samples, 1e-5);
            support_is_max::<f64>(h, radius, d, &samples, 1e-12);
        }
    }
}
