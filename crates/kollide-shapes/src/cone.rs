//! [`Cone`]: a solid circular cone along the local `y` axis.
//!
//! The cone has its apex at `(0, h, 0)` and its base disc of radius `r` at `y = −h`, for half
//! height `h`; the local origin is the middle of the axis (not the centre of mass, which is a
//! quarter of the height above the base, at `y = −h/2`).
//!
//! ## Support (constant cost)
//! The support point is the apex or a point of the base rim, whichever is farther along `d`
//! (van den Bergen, "A Fast and Robust GJK Implementation for Collision Detection of Convex
//! Objects", JGT 1999, §3.3). With full height `H = 2h` and `σ = |d_xz|`, the apex scores `h·d_y`
//! and the best rim point `−h·d_y + r·σ`, so the apex wins when `H·d_y > r·σ`: this compares the
//! two dot products directly and needs no square root of the slant height. Otherwise the support
//! is the rim point `(r·d_x/σ, −h, r·d_z/σ)`, or the base centre `(0, −h, 0)` when `σ = 0`.
//!
//! Ties: when `H·d_y = r·σ` (a direction along a side normal) the rim point is returned; a
//! direction along `−y` returns the base centre.
//!
//! ## Supporting feature
//! Features are `Vertex(0)` = the apex, `Face(0)` = the base, `Face(1)` = the curved side.
//! [`SupportFeatureMap`] returns:
//! * the base, as a regular octagon inscribed in the base circle (first vertex on `+x`,
//!   counter-clockwise seen from below), when `−d_y ≥ CAP_COS·|d|` ([`Cone::CAP_COS`], about
//!   5.7°);
//! * the apex alone when it is the support point and `d` is more than that angle away from the
//!   side normal below it;
//! * otherwise the side segment from the apex to the rim point in the direction of `d_xz`. One of
//!   its ends is always the support point.
//!
//! ## Mass
//! With `m = ρ π r² H / 3`, about the centre of mass: `I_yy = 3/10 · m r²` and
//! `I_xx = I_zz = m (3/20 · r² + 3/80 · H²)`.
//!
//! ```
//! use kollide_math::{Point3, Vec3};
//! use kollide_shapes::{Cone, SupportMap};
//! let c = Cone::new(1.0f64, 0.5).unwrap();
//! assert_eq!(c.local_support_point(&Vec3::new(0.0, 1.0, 0.0)), Point3::new(0.0, 1.0, 0.0));
//! assert_eq!(c.local_support_point(&Vec3::new(1.0, 0.0, 0.0)), Point3::new(0.5, -1.0, 0.0));
//! ```

use kollide_math::{Mat3, Point3, Scalar, Vec3};

use crate::{
    BoundingVolume, FeatureId, FlatNormal, Generator, HasMass3, MassProperties3, ShapeError,
    SupportFeature, SupportFeatureMap, SupportMap,
    cylinder::{CAP_POINTS, cap_angle, radial, rescale, witness_cap},
    mass::check_density,
    validate,
};

/// A solid cone along the local `y` axis: apex at `(0, half_height, 0)`, base disc of radius
/// `radius` at `y = −half_height`. The centre of mass is at `y = −half_height / 2`.
///
/// Support: the apex when `2·half_height·dir_y > radius·|dir_xz|`, else the rim point towards
/// `dir_xz` (the rim on an exact tie; the base centre when `dir_xz = 0`). Features: `Vertex(0)` the
/// apex, `Face(0)` the base (an inscribed octagon, counter-clockwise seen from below, when
/// `−dir_y ≥ CAP_COS·|dir|`), `Face(1)` the side (the segment apex → rim point). The apex alone is
/// reported when it supports `dir` and `dir` is farther than the `CAP_COS` angle from the side
/// normal.
///
/// ```
/// use kollide_shapes::{Cone, ShapeError};
/// assert!(Cone::new(1.0f64, 0.5).is_ok());
/// assert!(matches!(Cone::new(f64::NAN, 0.5), Err(ShapeError::NonFinite { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<N: Scalar> {
    half_height: N,
    radius: N,
}

impl<N: Scalar> Cone<N> {
    /// The supporting feature is the base when `−dir_y ≥ CAP_COS · |dir|` (about 5.7° from
    /// `−y`), and the apex alone when it supports `dir` and `dir` is farther than that angle from
    /// the side normal.
    pub const CAP_COS: f64 = 0.995;

    /// A cone with this half height and base radius. Fails for NaN, infinite, zero or negative
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

    /// The radius of the base: positive, finite and within
    /// [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`]. (Not the [`SupportMap::radius`] of the core
    /// and radius split, which is zero for a cone.)
    #[inline]
    pub fn radius(&self) -> N {
        self.radius
    }

    /// The apex, `(0, half_height, 0)`.
    #[inline]
    pub fn apex(&self) -> Point3<N> {
        Point3::new(N::zero(), self.half_height, N::zero())
    }

    /// The point of the cone's profile (in the half plane `(ρ, y)` of `p`, the triangle apex
    /// `(0, h)`, rim `(r, −h)`, base centre `(0, −h)`) nearest to `p`, and the part of the
    /// profile it lies in; `None` when `p` is inside.
    fn profile_nearest(&self, p: &Point3<N>) -> Option<(N, N, ProfilePart)> {
        let (r, h) = (self.radius, self.half_height);
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        let two_h = h + h;
        if p.y >= -h && two_h * rho + r * (p.y - h) <= N::zero() {
            return None;
        }
        // The nearest point of the segment from `s` to `e` (in `(ρ, y)`) to `(rho, p.y)`, and
        // its parameter before clamping.
        let nearest = |s: (N, N), e: (N, N)| {
            let d = (e.0 - s.0, e.1 - s.1);
            let t = ((rho - s.0) * d.0 + (p.y - s.1) * d.1) / (d.0 * d.0 + d.1 * d.1);
            let c = t.max_of(N::zero()).min_of(N::one());
            let q = (s.0 + d.0 * c, s.1 + d.1 * c);
            (q, (q.0 - rho) * (q.0 - rho) + (q.1 - p.y) * (q.1 - p.y), t)
        };
        let (side, ds, t_side) = nearest((N::zero(), h), (r, -h));
        let (base, db, t_base) = nearest((N::zero(), -h), (r, -h));
        // The side's ends are the apex and the rim; the base's start is its centre, flat.
        let in_side = t_side > N::zero() && t_side < N::one();
        let in_base = t_base < N::one();
        Some(if ds <= db {
            (side.0, side.1, if in_side { ProfilePart::Side } else { ProfilePart::Corner })
        } else {
            (base.0, base.1, if in_base { ProfilePart::Base } else { ProfilePart::Corner })
        })
    }
}

/// Where a point of a cone's profile lies ([`Cone::profile_nearest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ProfilePart {
    /// Inside the slanted side.
    Side,
    /// Inside the base.
    Base,
    /// At the apex or the rim, where the normal is not unique.
    Corner,
}

impl<N: Scalar> SupportMap<N, 3> for Cone<N> {
    #[inline]
    fn local_core_support(&self, dir: &Vec3<N>) -> Point3<N> {
        let d = rescale(dir);
        let s = (d.x * d.x + d.z * d.z).sqrt();
        let height = self.half_height + self.half_height;
        if height * d.y > self.radius * s {
            self.apex()
        } else if s > N::zero() {
            let k = self.radius / s;
            Point3::new(d.x * k, -self.half_height, d.z * k)
        } else {
            Point3::new(N::zero(), -self.half_height, N::zero())
        }
    }

    /// In the half plane `(ρ, y)` of `p` the cone is the triangle apex `(0, h)`, rim `(r, −h)`,
    /// base centre `(0, −h)`; a point outside it (with `ρ ≥ 0`) is nearest to the side or the
    /// base, never to the axis, and the nearer of the two segments' points, turned back about
    /// the axis, is the cone's.
    fn local_core_projection(&self, p: &Point3<N>) -> Option<Point3<N>> {
        let (q_rho, q_y, _) = self.profile_nearest(p)?;
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        let (cx, cz) = if rho > N::zero() { (p.x / rho, p.z / rho) } else { (N::one(), N::zero()) };
        Some(Point3::new(cx * q_rho, q_y, cz * q_rho))
    }

    /// The side's normal `(2h, r)/L` turned about the axis, or `−y`, where `p`'s projection is
    /// inside the side or the base; `None` at the apex or the rim.
    fn local_core_normal_toward(&self, p: &Point3<N>) -> Option<Vec3<N>> {
        let (r, h) = (self.radius, self.half_height);
        match self.profile_nearest(p)?.2 {
            ProfilePart::Side => {
                let rho = (p.x * p.x + p.z * p.z).sqrt();
                let two_h = h + h;
                let len = (two_h * two_h + r * r).sqrt();
                (rho > N::zero()).then(|| Vec3::new(two_h * p.x / rho, r, two_h * p.z / rho) / len)
            }
            ProfilePart::Base => Some(-Vec3::y()),
            ProfilePart::Corner => None,
        }
    }

    /// Nearer of the base (`y + h`, along `−y`) and the side. In the half plane `(ρ, y)` the
    /// cone is a triangle, and a point inside is as deep as its distance to the nearer of the
    /// lines of its two real edges (the axis is none): the side line through the apex `(0, h)`
    /// and the rim `(r, −h)`, of outward normal `(2h, r)/L`, `L = √(4h² + r²)`.
    fn local_core_depth(&self, p: &Point3<N>) -> Option<(N, Vec3<N>)> {
        let (r, h) = (self.radius, self.half_height);
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        let two_h = h + h;
        let len = (two_h * two_h + r * r).sqrt();
        let side = -(two_h * rho + r * (p.y - h)) / len;
        let base = p.y + h;
        if side < N::zero() || base < N::zero() {
            return None;
        }
        Some(if side <= base {
            let (cx, cz) =
                if rho > N::zero() { (p.x / rho, p.z / rho) } else { (N::one(), N::zero()) };
            (side, Vec3::new(two_h * cx, r, two_h * cz) / len)
        } else {
            (base, -Vec3::y())
        })
    }

    /// `√(half_height² + radius²)`, the distance to the base rim (the apex is nearer).
    #[inline]
    fn bounding_radius(&self) -> N {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    /// The base's normal `−y` and the side's: the ring at cosine `r / √(4h² + r²)` from `+y`
    /// (the side line from the apex `(0, h)` to the rim `(r, −h)` has the outward normal
    /// `(2h, r)` in the half plane `(ρ, y)`).
    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<N, 3>)) {
        let (r, h) = (self.radius, self.half_height);
        let two_h = h + h;
        f(FlatNormal::Direction(-Vec3::y()));
        f(FlatNormal::Ring { axis: Vec3::y(), cos: r / (two_h * two_h + r * r).sqrt() });
    }

    /// The points of [`Self::curved_generators`] along `dir`, or the inscribed polygon of the
    /// base where it faces `dir`.
    fn curved_core_feature(&self, dir: &Vec3<N>, tol: N, f: &mut dyn FnMut(Point3<N>)) -> bool {
        let d = rescale(dir);
        if !self.curved_generators(&d, tol, &mut |g| f(g.at(&d))) {
            witness_cap(self.radius, -self.half_height, f);
        }
        true
    }

    /// Along a unit `d`, the apex has height `h·d_y`, the rim point `−h·d_y + r·|d_xz|`, and the
    /// side line between them is linear in between: the side is within `tol` of the support
    /// plane when those two differ by at most `tol` (the apex and the rim), the whole base when
    /// it supports `d` and `2r·|d_xz| ≤ tol` (`false`: no finite set of generators spans it);
    /// otherwise only the apex or the rim point (and a sliver around it, left out) is.
    fn curved_generators(&self, dir: &Vec3<N>, tol: N, f: &mut dyn FnMut(Generator<N, 3>)) -> bool {
        let d = rescale(dir);
        let len = d.norm();
        let d = if len > N::zero() { d / len } else { -Vec3::y() };
        let (r, h) = (self.radius, self.half_height);
        let (_, _, s) = radial(&d);
        let (apex, rim) = (h * d.y, s * r - h * d.y);
        let base = Generator::Rim {
            centre: Point3::new(N::zero(), -h, N::zero()),
            axis: Vec3::y(),
            radius: r,
        };
        if (apex - rim).abs() <= tol {
            f(Generator::Point(self.apex()));
            f(base);
        } else if apex > rim {
            f(Generator::Point(self.apex()));
        } else if s * (r + r) <= tol {
            return false;
        } else {
            f(base);
        }
        true
    }
}

impl<N: Scalar> SupportFeatureMap<N, 3> for Cone<N> {
    fn local_support_feature(&self, dir: &Vec3<N>, out: &mut SupportFeature<N, 3>) {
        let d = rescale(dir);
        let (r, h) = (self.radius, self.half_height);
        let len = d.norm();
        let cap_cos = N::lit(Self::CAP_COS);
        if -d.y >= cap_cos * len {
            out.reset(FeatureId::Face(0));
            for k in 0..CAP_POINTS {
                let (c, s) = cap_angle::<N>(k);
                out.push(Point3::new(r * c, -h, r * s), FeatureId::Unknown);
            }
            return;
        }
        let (ux, uz, s) = radial(&d);
        let height = h + h;
        let apex_wins = height * d.y > r * s;
        let side_normal = Vec3::new(height * ux, r, height * uz);
        let side_cos = side_normal.dot(&d) / (side_normal.norm() * len);
        if apex_wins && side_cos < cap_cos {
            out.reset(FeatureId::Vertex(0));
            out.push(self.apex(), FeatureId::Vertex(0));
        } else {
            out.reset(FeatureId::Face(1));
            out.push(self.apex(), FeatureId::Vertex(0));
            out.push(Point3::new(r * ux, -h, r * uz), FeatureId::Unknown);
        }
    }
}

impl<N: Scalar> BoundingVolume<N, 3> for Cone<N> {}

impl<N: Scalar> HasMass3<N> for Cone<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        let (r, hh) = (self.radius, self.half_height);
        let height = hh * N::lit(2.0);
        let mass = density * N::pi() * r * r * height / N::lit(3.0);
        let axial = mass * r * r * N::lit(0.3);
        let side = mass * (r * r * N::lit(3.0 / 20.0) + height * height * N::lit(3.0 / 80.0));
        MassProperties3::checked(MassProperties3 {
            mass,
            local_center: Point3::new(N::zero(), -hh * N::lit(0.5), N::zero()),
            inertia: Mat3::from_diagonal(&Vec3::new(side, axial, side)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cylinder::tests::{monte_carlo, random_dir};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn support<N: Scalar>(hh: f64, r: f64, dir: [f64; 3]) -> [f64; 3] {
        let c = Cone::<N>::new(N::lit(hh), N::lit(r)).unwrap();
        let p = c.local_support_point(&Vec3::new(N::lit(dir[0]), N::lit(dir[1]), N::lit(dir[2])));
        [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
    }

    // Half height 1, radius 0.5: the side normal is (2, 0.5, 0) / |…| in the xy plane.
    #[rstest]
    #[case::up([0.0, 1.0, 0.0], [0.0, 1.0, 0.0])]
    #[case::down([0.0, -1.0, 0.0], [0.0, -1.0, 0.0])]
    #[case::side_x([1.0, 0.0, 0.0], [0.5, -1.0, 0.0])]
    #[case::side_neg_z([0.0, 0.0, -2.0], [0.0, -1.0, -0.5])]
    #[case::side_normal_tie([2.0, 0.5, 0.0], [0.5, -1.0, 0.0])]
    #[case::just_above_side_normal([2.0, 0.51, 0.0], [0.0, 1.0, 0.0])]
    #[case::rim_down([3.0, -1.0, 4.0], [0.3, -1.0, 0.4])]
    #[case::zero([0.0, 0.0, 0.0], [0.0, -1.0, 0.0])]
    #[case::huge([1e300, 1e300, 0.0], [0.0, 1.0, 0.0])]
    fn support_points(#[case] dir: [f64; 3], #[case] expected: [f64; 3]) {
        let got = support::<f64>(1.0, 0.5, dir);
        for k in 0..3 {
            assert!((got[k] - expected[k]).abs() < 1e-12, "{got:?} vs {expected:?}");
        }
        if dir.iter().all(|x| x.abs() < 1e30) {
            let got = support::<f32>(1.0, 0.5, dir);
            for k in 0..3 {
                assert!((got[k] - expected[k]).abs() < 1e-6, "{got:?} vs {expected:?}");
            }
        }
    }

    fn support_maximises<N: Scalar>(tol: f64) {
        let (hh, r) = (0.6, 1.1);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let c = Cone::<N>::new(N::lit(hh), N::lit(r)).unwrap();
        let boundary: Vec<Vec3<f64>> = (0..3000)
            .map(|_| {
                let a = rng.random_range(0.0..core::f64::consts::TAU);
                let t: f64 = rng.random_range(0.0..=1.0); // 0 at the apex, 1 at the base
                let y = hh - 2.0 * hh * t;
                let rr = if rng.random_bool(0.3) {
                    r * rng.random_range(0.0f64..1.0).sqrt()
                } else {
                    r * t
                };
                let y = if rr > r * t { -hh } else { y };
                Vec3::new(rr * a.cos(), y, rr * a.sin())
            })
            .collect();
        for _ in 0..2000 {
            let d = random_dir(&mut rng);
            let s = c.local_support_point(&Vec3::new(N::lit(d.x), N::lit(d.y), N::lit(d.z)));
            let s = Vec3::new(s.x.to_f64(), s.y.to_f64(), s.z.to_f64());
            // On the cone: below the apex, above the base, inside the slanted side.
            let t = (hh - s.y) / (2.0 * hh);
            assert!((-tol..=1.0 + tol).contains(&t));
            assert!((s.x * s.x + s.z * s.z).sqrt() <= r * t + tol);
            let best = boundary.iter().map(|p| p.dot(&d)).fold(f64::MIN, f64::max);
            assert!(s.dot(&d) >= best - tol);
            let exact = (hh * d.y).max(-hh * d.y + r * (d.x * d.x + d.z * d.z).sqrt());
            assert!((s.dot(&d) - exact).abs() < tol);
        }
    }

    #[test]
    fn support_maximises_over_boundary_samples() {
        support_maximises::<f32>(1e-5);
        support_maximises::<f64>(1e-12);
    }

    fn features<N: Scalar>() {
        let c = Cone::<N>::new(N::lit(1.0), N::lit(0.5)).unwrap();
        let mut f = SupportFeature::new();
        let eps = N::lit(1e-5);
        c.local_support_feature(&-Vec3::y(), &mut f);
        assert_eq!(f.id, FeatureId::Face(0));
        assert_eq!(f.vertices.len(), CAP_POINTS);
        let mut n = Vec3::zeros();
        for k in 0..f.vertices.len() {
            n += f.vertices[k].coords.cross(&f.vertices[(k + 1) % f.vertices.len()].coords);
        }
        assert!(n.y < N::zero(), "base must be counter-clockwise seen from below");
        c.local_support_feature(&Vec3::y(), &mut f);
        assert_eq!(f.id, FeatureId::Vertex(0));
        assert_eq!(f.vertices.as_slice(), &[c.apex()]);
        assert_eq!(f.vertex_ids.as_slice(), &[FeatureId::Vertex(0)]);
        // Along a side normal: the side segment, apex first.
        let side = Vec3::new(N::lit(2.0), N::lit(0.5), N::zero());
        c.local_support_feature(&side, &mut f);
        assert_eq!(f.id, FeatureId::Face(1));
        assert_eq!(f.vertices.len(), 2);
        assert_eq!(f.vertices[0], c.apex());
        assert!((f.vertices[1] - Point3::new(N::lit(0.5), N::lit(-1.0), N::zero())).norm() < eps);
        // Below horizontal, away from the base normal: the segment, whose rim end is the support.
        let low = Vec3::new(N::zero(), N::lit(-1.0), N::lit(1.0));
        c.local_support_feature(&low, &mut f);
        assert_eq!(f.id, FeatureId::Face(1));
        assert!((f.vertices[1] - c.local_support_point(&low)).norm() < eps);
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
        assert!(matches!(Cone::<f64>::new(hh, r), Err(ShapeError::NonPositive { .. })));
        assert!(matches!(
            Cone::<f32>::new(hh as f32, r as f32),
            Err(ShapeError::NonPositive { .. })
        ));
    }

    #[rstest]
    #[case::nan_height(f64::NAN, 1.0)]
    #[case::nan_radius(1.0, f64::NAN)]
    #[case::infinite_height(f64::INFINITY, 1.0)]
    fn rejects_non_finite(#[case] hh: f64, #[case] r: f64) {
        assert!(matches!(Cone::<f64>::new(hh, r), Err(ShapeError::NonFinite { .. })));
    }

    #[test]
    fn mass_matches_monte_carlo() {
        let (hh, r) = (0.75, 0.5);
        let c = Cone::new(hh, r).unwrap();
        let m = c.mass_properties(1.5).unwrap();
        let (v, center, inertia) = monte_carlo(
            Vec3::new(r, hh, r),
            |p| {
                let t = (hh - p.y) / (2.0 * hh);
                (0.0..=1.0).contains(&t) && (p.x * p.x + p.z * p.z).sqrt() <= r * t
            },
            400_000,
            5,
        );
        assert!((m.mass / 1.5 - v).abs() < 0.02 * v);
        assert!((m.local_center.coords - center).norm() < 0.01);
        assert!((m.local_center.y + hh / 2.0).abs() < 1e-12);
        for k in 0..3 {
            assert!((m.inertia[(k, k)] / 1.5 - inertia[(k, k)]).abs() < 0.03 * inertia[(k, k)]);
        }
        assert!(matches!(c.mass_properties(f64::NAN), Err(ShapeError::InvalidDensity(_))));
        let m32 = Cone::new(0.75f32, 0.5).unwrap().mass_properties(1.5).unwrap();
        assert!((m32.mass as f64 - m.mass).abs() < 1e-5);
    }

    #[test]
    fn aabb_is_exact() {
        let c = Cone::new(1.0f32, 0.5).unwrap();
        let a = c.local_aabb();
        assert!((a.maxs - Point3::new(0.5, 1.0, 0.5)).norm() < 1e-6);
        assert!((a.mins - Point3::new(-0.5, -1.0, -0.5)).norm() < 1e-6);
    }
}
