//! [`Cylinder`]: a solid circular cylinder along the local `y` axis.
//!
//! The cylinder is `{ (x, y, z) : |y| ≤ h, x² + z² ≤ r² }` for half height `h` and radius `r`,
//! centred on the local origin.
//!
//! ## Support (constant cost)
//! A cylinder is the Minkowski sum of a segment along `y` and a disc in the `xz` plane, so its
//! support point is the sum of theirs (van den Bergen, "A Fast and Robust GJK Implementation for
//! Collision Detection of Convex Objects", JGT 1999, §3.3):
//!
//! `s(d) = (r·d_xz/|d_xz|, sign(d_y)·h)`, with `+h` when `d_y = 0` and the axis point
//! `(0, ±h, 0)` when `d_xz = 0`.
//!
//! Those two rules are this shape's tie breaking: a direction along a cap normal returns the
//! cap's centre, a horizontal direction returns the top end of the side line.
//!
//! ## Supporting feature
//! Features are `Face(0)` = top cap (`+y`), `Face(1)` = bottom cap (`−y`), `Face(2)` = the curved
//! side. [`SupportFeatureMap`] returns:
//! * the cap facing `dir`, as a regular octagon inscribed in the cap circle (so it fits in
//!   [`FEATURE_INLINE`](crate::FEATURE_INLINE) points), when `|d_y| ≥ CAP_COS·|d|`
//!   ([`Cylinder::CAP_COS`], about 5.7°). The octagon has a fixed orientation (its first vertex
//!   on `+x`) so that contacts on a resting cylinder do not move from frame to frame; its vertices
//!   are at most `r·(1 − cos 22.5°)·sin 5.7° ≈ 0.008 r` shallower than the true support point.
//!   It is counter-clockwise seen from outside;
//! * otherwise the side segment in the direction of `d_xz`, top end first. One of its ends is
//!   always the support point, so contact clipping never misses the deepest point.
//!
//! Generated points carry the id `Unknown`.
//!
//! ## Mass
//! With full height `H = 2h` and mass `m = ρ π r² H`: `I_yy = m r²/2` and
//! `I_xx = I_zz = m (3r² + H²)/12`, about the centre.
//!
//! ```
//! use kollide_math::{Point3, Vec3};
//! use kollide_shapes::{Cylinder, SupportMap};
//! let c = Cylinder::new(1.0f64, 0.5).unwrap();
//! assert_eq!(c.local_support_point(&Vec3::new(3.0, -1.0, 0.0)), Point3::new(0.5, -1.0, 0.0));
//! ```

use kollide_math::{Mat3, Point3, Scalar, Vec3};

use crate::{
    BoundingVolume, FeatureId, FlatNormal, Generator, HasMass3, MassProperties3, ShapeError,
    SupportFeature, SupportFeatureMap, SupportMap, mass::check_density, validate,
};

/// A solid cylinder of half height `half_height` along the local `y` axis and radius `radius`,
/// centred on the local origin.
///
/// Support ties: `dir_y = 0` picks the top (`+half_height`); a direction along the axis picks the
/// cap centre. Features: `Face(0)` top cap, `Face(1)` bottom cap (each reported as an inscribed
/// octagon, counter-clockwise from outside, first vertex on `+x`, when `|dir_y| ≥ CAP_COS·|dir|`),
/// `Face(2)` the side (reported otherwise as the side segment towards `dir_xz`, top end first).
///
/// ```
/// use kollide_shapes::{Cylinder, ShapeError};
/// assert!(Cylinder::new(1.0f32, 0.25).is_ok());
/// assert!(matches!(Cylinder::new(1.0f32, 0.0), Err(ShapeError::NonPositive { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<N: Scalar> {
    half_height: N,
    radius: N,
}

/// Number of vertices of the polygon that stands for a circular cap in a supporting feature.
pub(crate) const CAP_POINTS: usize = 8;

/// `(cos, sin)` of the `k`-th of [`CAP_POINTS`] angles around a circle.
pub(crate) fn cap_angle<N: Scalar>(k: usize) -> (N, N) {
    circle_angle(k, CAP_POINTS)
}

/// `(cos, sin)` of the `k`-th of `count` equal angles around a circle.
fn circle_angle<N: Scalar>(k: usize, count: usize) -> (N, N) {
    let a = core::f64::consts::TAU * k as f64 / count as f64;
    (N::lit(a.cos()), N::lit(a.sin()))
}

/// Vertices of the polygon that stands for a whole flat cap in
/// [`SupportMap::curved_core_feature`]: inscribed, so its points are on the shape, and fine
/// enough that it misses only the outer half percent of the radius (`1 − cos(π/32)`).
const WITNESS_CAP_POINTS: usize = 32;

/// Calls `f` with the vertices of the polygon inscribed in the circle of radius `r` about the
/// axis at height `y` (see [`WITNESS_CAP_POINTS`]).
pub(crate) fn witness_cap<N: Scalar>(r: N, y: N, f: &mut dyn FnMut(Point3<N>)) {
    for k in 0..WITNESS_CAP_POINTS {
        let (c, s) = circle_angle::<N>(k, WITNESS_CAP_POINTS);
        f(Point3::new(r * c, y, r * s));
    }
}

/// `dir` scaled so that its largest component has magnitude one (or zero), so that squares
/// neither overflow nor underflow.
pub(crate) fn rescale<N: Scalar>(dir: &Vec3<N>) -> Vec3<N> {
    let m = dir.x.abs().max_of(dir.y.abs()).max_of(dir.z.abs());
    if m > N::zero() && m.is_finite_value() { dir / m } else { *dir }
}

/// The unit direction of the `xz` part of `d` and its length, or `(+x, 0)` when it is zero.
pub(crate) fn radial<N: Scalar>(d: &Vec3<N>) -> (N, N, N) {
    let s = (d.x * d.x + d.z * d.z).sqrt();
    if s > N::zero() { (d.x / s, d.z / s, s) } else { (N::one(), N::zero(), N::zero()) }
}

impl<N: Scalar> Cylinder<N> {
    /// The supporting feature is a cap when `|dir_y| ≥ CAP_COS · |dir|` (an angle of about 5.7°
    /// between `dir` and the axis).
    pub const CAP_COS: f64 = 0.995;

    /// A cylinder with this half height and radius. Fails for NaN, infinite, zero or negative
    /// values.
    pub fn new(half_height: N, radius: N) -> Result<Self, ShapeError> {
        validate::size(half_height, "half height")?;
        validate::size(radius, "radius")?;
        Ok(Self { half_height, radius })
    }

    /// Half the height along `y`: positive, finite and within
    /// [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    #[inline]
    pub fn half_height(&self) -> N {
        self.half_height
    }

    /// The radius of the circular cross-section: positive, finite and within
    /// [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`]. (Not the [`SupportMap::radius`] of the core
    /// and radius split, which is zero for a cylinder.)
    #[inline]
    pub fn radius(&self) -> N {
        self.radius
    }
}

impl<N: Scalar> SupportMap<N, 3> for Cylinder<N> {
    #[inline]
    /// The ray is inside the cylinder while it is inside the slab `|y| ≤ h` and the infinite
    /// cylinder `x² + z² ≤ r²`; it enters at the later of the two entries. The side's entry is
    /// the first root of `|o + t d|²_xz = r²`, taken as `c / (−b + √(a·h²))` with `h²` the
    /// radius squared less the squared distance from the axis to the ray's line, free of the
    /// textbook formula's cancellation for rays from afar (see `ray_ball` in the narrowphase).
    fn local_core_ray(&self, o: &Vec3<N>, d: &Vec3<N>, max_t: N) -> Option<crate::CoreRay<N, 3>> {
        use crate::CoreRay::{Hit, Miss};
        let (r, hh) = (self.radius, self.half_height);
        let c = o.x * o.x + o.z * o.z - r * r;
        if c <= N::zero() && o.y.abs() <= hh {
            let hit = Hit { t: N::zero(), normal: Vec3::zeros() };
            return Some(if max_t >= N::zero() { hit } else { Miss });
        }
        // The slab's interval.
        let (mut enter, mut exit, mut cap) = (-N::MAX, N::MAX, false);
        if d.y == N::zero() {
            if o.y.abs() > hh {
                return Some(Miss);
            }
        } else {
            let near = if d.y > N::zero() { -hh } else { hh };
            (enter, exit, cap) = ((near - o.y) / d.y, (-near - o.y) / d.y, true);
        }
        // The infinite cylinder's interval.
        let (a, b) = (d.x * d.x + d.z * d.z, o.x * d.x + o.z * d.z);
        if a == N::zero() {
            if c > N::zero() {
                return Some(Miss);
            }
        } else {
            let (px, pz) = (o.x - d.x * (b / a), o.z - d.z * (b / a));
            let h2 = r * r - (px * px + pz * pz);
            if h2 < N::zero() || (c > N::zero() && b >= N::zero()) {
                return Some(Miss);
            }
            let root = (a * h2).sqrt();
            if c > N::zero() {
                let side = c / (-b + root);
                if side > enter {
                    (enter, cap) = (side, false);
                }
            }
            exit = exit.min_of((-b + root) / a);
        }
        if enter > exit || enter < N::zero() || enter > max_t {
            return Some(Miss);
        }
        let normal = if cap {
            Vec3::new(N::zero(), if d.y > N::zero() { -N::one() } else { N::one() }, N::zero())
        } else {
            let (x, z) = (o.x + d.x * enter, o.z + d.z * enter);
            let l = (x * x + z * z).sqrt();
            if l > N::zero() { Vec3::new(x / l, N::zero(), z / l) } else { Vec3::x() }
        };
        Some(Hit { t: enter, normal })
    }

    /// The disc's projection of `(x, z)` and the interval's of `y`: the cylinder is their
    /// product.
    fn local_core_projection(&self, p: &Point3<N>) -> Option<Point3<N>> {
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        let y = p.y.max_of(-self.half_height).min_of(self.half_height);
        if rho <= self.radius && y == p.y {
            return None;
        }
        let k = if rho > self.radius { self.radius / rho } else { N::one() };
        Some(Point3::new(p.x * k, y, p.z * k))
    }

    /// Radially out beside the side, along `±y` over a cap; `None` beyond a rim.
    fn local_core_normal_toward(&self, p: &Point3<N>) -> Option<Vec3<N>> {
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        let beyond_cap = p.y.abs() > self.half_height;
        match (rho > self.radius, beyond_cap) {
            (true, false) => Some(Vec3::new(p.x / rho, N::zero(), p.z / rho)),
            (false, true) => Some(Vec3::new(
                N::zero(),
                if p.y > N::zero() { N::one() } else { -N::one() },
                N::zero(),
            )),
            _ => None,
        }
    }

    /// Nearer of the side (`r − ρ`, radially out) and the nearer cap (`h − |y|`, along `±y`);
    /// on the axis the side normal is `+x`.
    fn local_core_depth(&self, p: &Point3<N>) -> Option<(N, Vec3<N>)> {
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        let (side, cap) = (self.radius - rho, self.half_height - p.y.abs());
        if side < N::zero() || cap < N::zero() {
            return None;
        }
        Some(if side <= cap {
            let n = if rho > N::zero() {
                Vec3::new(p.x / rho, N::zero(), p.z / rho)
            } else {
                Vec3::x()
            };
            (side, n)
        } else {
            (
                cap,
                Vec3::new(N::zero(), if p.y < N::zero() { -N::one() } else { N::one() }, N::zero()),
            )
        })
    }

    fn local_core_support(&self, dir: &Vec3<N>) -> Point3<N> {
        let d = rescale(dir);
        let y = if d.y >= N::zero() { self.half_height } else { -self.half_height };
        let s = (d.x * d.x + d.z * d.z).sqrt();
        if s > N::zero() {
            let k = self.radius / s;
            Point3::new(d.x * k, y, d.z * k)
        } else {
            Point3::new(N::zero(), y, N::zero())
        }
    }

    /// `√(half_height² + radius²)`, the distance to the rims.
    #[inline]
    fn bounding_radius(&self) -> N {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    /// The caps' normals `±y` and the side's, the ring square to `y`.
    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<N, 3>)) {
        f(FlatNormal::Direction(Vec3::y()));
        f(FlatNormal::Direction(-Vec3::y()));
        f(FlatNormal::Ring { axis: Vec3::y(), cos: N::zero() });
    }

    /// The points of [`Self::curved_generators`] along `dir`, or the inscribed polygon of the
    /// cap that faces it.
    fn curved_core_feature(&self, dir: &Vec3<N>, tol: N, f: &mut dyn FnMut(Point3<N>)) -> bool {
        let d = rescale(dir);
        if !self.curved_generators(&d, tol, &mut |g| f(g.at(&d))) {
            let h = self.half_height;
            witness_cap(self.radius, if d.y >= N::zero() { h } else { -h }, f);
        }
        true
    }

    /// Along a unit `d`, a cap point at radial offset `w` has height `|d_y|·h + d_xz·w` and a
    /// side point at height `y` has `|d_xz|·r + d_y·y`: the whole cap is within `tol` of the
    /// support plane when `2r·|d_xz| ≤ tol` (`false`: no finite set of generators spans it), the
    /// whole side segment when `2h·|d_y| ≤ tol` (both rims), and otherwise only the rim point
    /// (and a sliver around it, left out) is (the rim on the side `d` faces).
    fn curved_generators(&self, dir: &Vec3<N>, tol: N, f: &mut dyn FnMut(Generator<N, 3>)) -> bool {
        let d = rescale(dir);
        let len = d.norm();
        let d = if len > N::zero() { d / len } else { Vec3::y() };
        let (r, h) = (self.radius, self.half_height);
        let (_, _, s) = radial(&d);
        if s * (r + r) <= tol {
            return false;
        }
        let rim = |y: N| Generator::Rim {
            centre: Point3::new(N::zero(), y, N::zero()),
            axis: Vec3::y(),
            radius: r,
        };
        if d.y.abs() * (h + h) <= tol {
            f(rim(h));
            f(rim(-h));
        } else {
            f(rim(if d.y >= N::zero() { h } else { -h }));
        }
        true
    }
}

impl<N: Scalar> SupportFeatureMap<N, 3> for Cylinder<N> {
    fn local_support_feature(&self, dir: &Vec3<N>, out: &mut SupportFeature<N, 3>) {
        let d = rescale(dir);
        let (r, h) = (self.radius, self.half_height);
        if d.y.abs() >= N::lit(Self::CAP_COS) * d.norm() {
            let top = d.y >= N::zero();
            out.reset(FeatureId::Face(if top { 0 } else { 1 }));
            for k in 0..CAP_POINTS {
                let (c, s) = cap_angle::<N>(k);
                // Counter-clockwise seen from +y means clockwise in (x, z) for the top cap.
                let p =
                    if top { Point3::new(r * c, h, -r * s) } else { Point3::new(r * c, -h, r * s) };
                out.push(p, FeatureId::Unknown);
            }
        } else {
            let (ux, uz, _) = radial(&d);
            out.reset(FeatureId::Face(2));
            out.push(Point3::new(r * ux, h, r * uz), FeatureId::Unknown);
            out.push(Point3::new(r * ux, -h, r * uz), FeatureId::Unknown);
        }
    }
}

impl<N: Scalar> BoundingVolume<N, 3> for Cylinder<N> {}

impl<N: Scalar> HasMass3<N> for Cylinder<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        let (r, hh) = (self.radius, self.half_height);
        let height = hh * N::lit(2.0);
        let mass = density * N::pi() * r * r * height;
        let side = mass * (N::lit(3.0) * r * r + height * height) / N::lit(12.0);
        let axial = mass * r * r * N::lit(0.5);
        MassProperties3::checked(MassProperties3 {
            mass,
            local_center: Point3::origin(),
            inertia: Mat3::from_diagonal(&Vec3::new(side, axial, side)),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use kollide_math::Iso3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    /// A uniformly distributed unit direction.
    pub(crate) fn random_dir(rng: &mut ChaCha8Rng) -> Vec3<f64> {
        loop {
            let v = Vec3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    /// Monte Carlo volume, centre and inertia (density 1) of the set `inside` within the box
    /// `[-half, half]`.
    pub(crate) fn monte_carlo(
        half: Vec3<f64>,
        inside: impl Fn(&Vec3<f64>) -> bool,
        samples: usize,
        seed: u64,
    ) -> (f64, Vec3<f64>, Mat3<f64>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut count, mut sum, mut second) = (0usize, Vec3::zeros(), Mat3::zeros());
        for _ in 0..samples {
            let p = Vec3::new(
                rng.random_range(-half.x..half.x),
                rng.random_range(-half.y..half.y),
                rng.random_range(-half.z..half.z),
            );
            if inside(&p) {
                count += 1;
                sum += p;
                second += p * p.transpose();
            }
        }
        let box_volume = 8.0 * half.x * half.y * half.z;
        let volume = box_volume * count as f64 / samples as f64;
        let center = sum / count as f64;
        let cov = second * (volume / count as f64) - center * center.transpose() * volume;
        (volume, center, Mat3::identity() * cov.trace() - cov)
    }

    fn support<N: Scalar>(hh: f64, r: f64, dir: [f64; 3]) -> [f64; 3] {
        let c = Cylinder::<N>::new(N::lit(hh), N::lit(r)).unwrap();
        let p = c.local_support_point(&Vec3::new(N::lit(dir[0]), N::lit(dir[1]), N::lit(dir[2])));
        [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
    }

    #[rstest]
    #[case::up([0.0, 1.0, 0.0], [0.0, 2.0, 0.0])]
    #[case::down([0.0, -3.0, 0.0], [0.0, -2.0, 0.0])]
    #[case::side_x([1.0, 0.0, 0.0], [0.5, 2.0, 0.0])]
    #[case::side_neg_z([0.0, 0.0, -1.0], [0.0, 2.0, -0.5])]
    #[case::rim([3.0, -1.0, 4.0], [0.3, -2.0, 0.4])]
    #[case::rim_up([0.0, 1.0, 1.0], [0.0, 2.0, 0.5])]
    #[case::negative_zero_y([1.0, -0.0, 0.0], [0.5, 2.0, 0.0])]
    #[case::zero([0.0, 0.0, 0.0], [0.0, 2.0, 0.0])]
    #[case::huge([1e300, -1e300, 0.0], [0.5, -2.0, 0.0])]
    #[case::tiny([1e-300, 1e-300, 0.0], [0.5, 2.0, 0.0])]
    fn support_points(#[case] dir: [f64; 3], #[case] expected: [f64; 3]) {
        let got = support::<f64>(2.0, 0.5, dir);
        for k in 0..3 {
            assert!((got[k] - expected[k]).abs() < 1e-12, "{got:?} vs {expected:?}");
        }
        if dir.iter().all(|x| x.abs() < 1e30 && (x.abs() > 1e-30 || *x == 0.0)) {
            let got = support::<f32>(2.0, 0.5, dir);
            for k in 0..3 {
                assert!((got[k] - expected[k]).abs() < 1e-6, "{got:?} vs {expected:?}");
            }
        }
    }

    fn support_maximises<N: Scalar>(tol: f64) {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let c = Cylinder::<N>::new(N::lit(0.7), N::lit(1.3)).unwrap();
        let boundary: Vec<Vec3<f64>> = (0..2000)
            .map(|_| {
                let a = rng.random_range(0.0..core::f64::consts::TAU);
                let y: f64 = if rng.random_bool(0.5) {
                    rng.random_range(-0.7..0.7)
                } else if rng.random_bool(0.5) {
                    0.7
                } else {
                    -0.7
                };
                let rr =
                    if y.abs() == 0.7 { 1.3 * rng.random_range(0.0f64..1.0).sqrt() } else { 1.3 };
                Vec3::new(rr * a.cos(), y, rr * a.sin())
            })
            .collect();
        for _ in 0..2000 {
            let d = random_dir(&mut rng);
            let dn = Vec3::new(N::lit(d.x), N::lit(d.y), N::lit(d.z));
            let s = c.local_support_point(&dn);
            let s = Vec3::new(s.x.to_f64(), s.y.to_f64(), s.z.to_f64());
            // On the cylinder.
            assert!(s.y.abs() <= 0.7 + tol && (s.x * s.x + s.z * s.z).sqrt() <= 1.3 + tol);
            let best = boundary.iter().map(|p| p.dot(&d)).fold(f64::MIN, f64::max);
            assert!(s.dot(&d) >= best - tol);
            let exact = 0.7 * d.y.abs() + 1.3 * (d.x * d.x + d.z * d.z).sqrt();
            assert!((s.dot(&d) - exact).abs() < tol);
        }
    }

    #[test]
    fn support_maximises_over_boundary_samples() {
        support_maximises::<f32>(1e-5);
        support_maximises::<f64>(1e-12);
    }

    fn features<N: Scalar>() {
        let c = Cylinder::<N>::new(N::lit(1.0), N::lit(0.5)).unwrap();
        let mut f = SupportFeature::new();
        let eps = N::lit(1e-5);
        for (dir, id) in [(Vec3::y(), 0), (-Vec3::y(), 1)] {
            c.local_support_feature(&dir, &mut f);
            assert_eq!(f.id, FeatureId::Face(id));
            assert_eq!(f.vertices.len(), CAP_POINTS);
            assert!(!f.vertices.spilled());
            // Counter-clockwise seen from outside: the polygon normal points along dir.
            let mut n = Vec3::zeros();
            for k in 0..f.vertices.len() {
                let a = f.vertices[k].coords;
                let b = f.vertices[(k + 1) % f.vertices.len()].coords;
                n += a.cross(&b);
            }
            assert!(n.dot(&dir) > N::zero());
            for p in &f.vertices {
                assert!((p.y.abs() - N::one()).abs() < eps);
                assert!(((p.x * p.x + p.z * p.z).sqrt() - N::lit(0.5)).abs() < eps);
            }
        }
        // Slightly tilted: still the cap; more tilted: the side segment through the support point.
        let tilted = Vec3::new(N::lit(0.05), N::one(), N::zero());
        c.local_support_feature(&tilted, &mut f);
        assert_eq!(f.id, FeatureId::Face(0));
        let oblique = Vec3::new(N::lit(1.0), N::lit(1.0), N::lit(1.0));
        c.local_support_feature(&oblique, &mut f);
        assert_eq!(f.id, FeatureId::Face(2));
        assert_eq!(f.vertices.len(), 2);
        assert!((f.vertices[0] - c.local_support_point(&oblique)).norm() < eps);
        let down_side = Vec3::new(N::zero(), N::lit(-1.0), N::lit(-2.0));
        c.local_support_feature(&down_side, &mut f);
        assert_eq!(f.id, FeatureId::Face(2));
        assert!((f.vertices[1] - c.local_support_point(&down_side)).norm() < eps);
    }

    #[test]
    fn supporting_features() {
        features::<f32>();
        features::<f64>();
    }

    #[rstest]
    #[case::zero_height(0.0, 1.0)]
    #[case::negative_height(-1.0, 1.0)]
    #[case::zero_radius(1.0, 0.0)]
    #[case::negative_radius(1.0, -2.0)]
    fn rejects_non_positive(#[case] hh: f64, #[case] r: f64) {
        assert!(matches!(Cylinder::<f64>::new(hh, r), Err(ShapeError::NonPositive { .. })));
        assert!(matches!(
            Cylinder::<f32>::new(hh as f32, r as f32),
            Err(ShapeError::NonPositive { .. })
        ));
    }

    #[rstest]
    #[case::nan_height(f64::NAN, 1.0)]
    #[case::infinite_radius(1.0, f64::INFINITY)]
    #[case::negative_infinite(1.0, f64::NEG_INFINITY)]
    fn rejects_non_finite(#[case] hh: f64, #[case] r: f64) {
        assert!(matches!(Cylinder::<f64>::new(hh, r), Err(ShapeError::NonFinite { .. })));
    }

    #[test]
    fn mass_matches_monte_carlo() {
        let c = Cylinder::new(0.8f64, 0.5).unwrap();
        let m = c.mass_properties(2.0).unwrap();
        let (v, center, inertia) = monte_carlo(
            Vec3::new(0.5, 0.8, 0.5),
            |p| p.y.abs() <= 0.8 && p.x * p.x + p.z * p.z <= 0.25,
            400_000,
            11,
        );
        assert!((m.mass / 2.0 - v).abs() < 0.02 * v);
        assert!((m.local_center.coords - center).norm() < 0.01);
        for k in 0..3 {
            assert!((m.inertia[(k, k)] / 2.0 - inertia[(k, k)]).abs() < 0.03 * inertia[(k, k)]);
        }
        assert!((m.mass - 2.0 * core::f64::consts::PI * 0.25 * 1.6).abs() < 1e-12);
        assert!(matches!(c.mass_properties(-1.0), Err(ShapeError::InvalidDensity(_))));
        let m32 = Cylinder::new(0.8f32, 0.5).unwrap().mass_properties(2.0).unwrap();
        assert!((m32.mass as f64 - m.mass).abs() < 1e-5);
    }

    #[test]
    fn aabb_is_exact() {
        let c = Cylinder::new(1.0f64, 0.5).unwrap();
        let a = c.local_aabb();
        assert!((a.maxs - Point3::new(0.5, 1.0, 0.5)).norm() < 1e-12);
        assert!((a.mins + Point3::new(0.5, 1.0, 0.5).coords).coords.norm() < 1e-12);
        // Lying along x after a quarter turn about z.
        let pose =
            Iso3::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 0.0, core::f64::consts::FRAC_PI_2));
        let w = c.aabb(&pose);
        assert!((w.maxs - Point3::new(2.0, 0.5, 0.5)).norm() < 1e-9);
        assert!((w.mins - Point3::new(0.0, -0.5, -0.5)).norm() < 1e-9);
    }
}
