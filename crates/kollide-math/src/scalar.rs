//! The [`Scalar`] trait: the floating-point type of every kollide computation.
//!
//! kollide is generic over its scalar instead of switching between `f32` and `f64` with cargo
//! features. Mutually exclusive features break as soon as two crates in one build ask for different
//! precisions; a trait lets a game use `f32` while its tools use `f64` in the same binary.
//!
//! The trait is nalgebra's `RealField + Copy` plus a handful of constants that the algorithms need
//! and that nalgebra does not name (machine epsilon, a conversion from `f64` literals).
//!
//! ## The envelope
//! Each scalar type also states the range of shapes it can represent faithfully: its *envelope*.
//! Shape constructors in `kollide-shapes` reject anything outside it with a typed error.
//!
//! | constant | `f32` | `f64` | bounds |
//! |---|---|---|---|
//! | [`Scalar::MIN_SIZE`] | `1e-3` | `1e-7` | every radius, half extent, half height, segment length and the extent of a point-built shape |
//! | [`Scalar::MAX_SIZE`] | `1e5` | `1e10` | the same sizes, from above |
//! | [`Scalar::MAX_COORDINATE`] | `1e5` | `1e10` | the magnitude of every local coordinate of a shape's vertices or end points |
//!
//! Why these numbers:
//! * **Small end.** The length tolerance of a query ([`crate::Tolerances::length`], the accuracy
//!   goal of its depths, distances and points) is `relative_length · max(scale, 1)`, so it never
//!   falls below `relative_length` (`3.5e-5` in `f32`, `7.5e-10` in `f64`). At
//!   [`Scalar::MIN_SIZE`] it is at most a few percent of the smallest shape (3.5 % in `f32`,
//!   1.5 % in `f64`); smaller shapes would sit entirely inside it. (The narrowphase's touching
//!   band, the gap below which shapes count as touching, is a hundredth of `relative_length`
//!   times the scale, with no floor: see `docs/conventions.md`.)
//! * **Large end.** Everything derived stays finite with a wide margin: squared lengths
//!   (`≤ 4e10` in `f32`), the triple products of GJK and EPA (`≤ 1e16`), and mass properties, which
//!   grow as `density · size⁵` (3D inertia): below `1e27 · density` in `f32`, so any density up to
//!   `1e10` gives finite inertia. A shape of size `1e10` in `f32` would give an infinite inertia at
//!   density `1`.
//! * **Coordinates.** A shape's local coordinates carry an absolute rounding error of about
//!   `ε · |x|`; at [`Scalar::MAX_COORDINATE`] that is `0.01` in `f32` and `2e-6` in `f64`, still well
//!   inside the touching band of a shape that size. Keep shapes near their local origin: a query's
//!   length scale is the shapes' bounding radius about it.

use core::fmt::{Debug, Display};
use nalgebra::RealField;

/// A real floating-point number: `f32` or `f64`.
///
/// Everything in kollide is generic over `N: Scalar`. Write literals with [`Scalar::lit`]:
///
/// ```
/// use kollide_math::Scalar;
/// fn half<N: Scalar>(x: N) -> N { x * N::lit(0.5) }
/// assert_eq!(half(3.0f32), 1.5);
/// assert_eq!(half(3.0f64), 1.5);
/// ```
pub trait Scalar:
    RealField + Copy + Default + Debug + Display + PartialOrd + Send + Sync + 'static
{
    /// The machine epsilon of the type (the gap between 1 and the next representable number).
    const EPSILON: Self;
    /// The largest finite value.
    const MAX: Self;
    /// The number of bits in the mantissa, 24 for `f32` and 53 for `f64`.
    const MANTISSA_BITS: u32;
    /// The smallest size a shape may have (radius, half extent, half height, segment length,
    /// extent of a point-built shape): `1e-3` for `f32`, `1e-7` for `f64`. See the module docs for
    /// why (the touching band).
    const MIN_SIZE: Self;
    /// The largest size a shape may have (radius, half extent, half height, segment length,
    /// extent of a point-built shape): `1e5` for `f32`, `1e10` for `f64`. Squared lengths, GJK's
    /// triple products and mass properties stay finite below it (see the module docs).
    const MAX_SIZE: Self;
    /// The largest magnitude of a coordinate of a shape's vertices or end points in its local
    /// frame: `1e5` for `f32`, `1e10` for `f64`.
    const MAX_COORDINATE: Self;

    /// Converts an `f64` literal or computed value into this type (rounding for `f32`).
    fn lit(x: f64) -> Self;

    /// Converts this value to `f64` (exact for both implementations).
    fn to_f64(self) -> f64;

    /// Converts a count (an index, a number of vertices) into this type.
    fn from_count(n: usize) -> Self {
        Self::lit(n as f64)
    }

    /// `true` when the value is neither NaN nor infinite.
    fn is_finite_value(self) -> bool {
        self.to_f64().is_finite()
    }

    /// The larger of two values; when one is NaN the other is returned.
    fn max_of(self, other: Self) -> Self {
        if self >= other || other.is_nan_value() { self } else { other }
    }

    /// The smaller of two values; when one is NaN the other is returned.
    fn min_of(self, other: Self) -> Self {
        if self <= other || other.is_nan_value() { self } else { other }
    }

    /// `true` when the value is NaN.
    #[allow(clippy::eq_op, reason = "x != x is the portable NaN test")]
    fn is_nan_value(self) -> bool {
        self != self
    }

    /// The same slice as `f32` when `Self` is `f32`, `None` for every other type. Each
    /// implementation returns a constant kind, so after monomorphisation a generic algorithm's
    /// `f32`-only path (a SIMD scan) is chosen at compile time, with no run-time type test.
    fn as_f32_slice(values: &[Self]) -> Option<&[f32]> {
        let _ = values;
        None
    }
}

impl Scalar for f32 {
    const EPSILON: Self = f32::EPSILON;
    const MAX: Self = f32::MAX;
    const MANTISSA_BITS: u32 = 24;
    const MIN_SIZE: Self = 1e-3;
    const MAX_SIZE: Self = 1e5;
    const MAX_COORDINATE: Self = 1e5;

    #[inline(always)]
    fn lit(x: f64) -> Self {
        x as f32
    }

    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }

    #[inline(always)]
    fn is_finite_value(self) -> bool {
        self.is_finite()
    }

    #[inline(always)]
    fn as_f32_slice(values: &[Self]) -> Option<&[f32]> {
        Some(values)
    }
}

impl Scalar for f64 {
    const EPSILON: Self = f64::EPSILON;
    const MAX: Self = f64::MAX;
    const MANTISSA_BITS: u32 = 53;
    const MIN_SIZE: Self = 1e-7;
    const MAX_SIZE: Self = 1e10;
    const MAX_COORDINATE: Self = 1e10;

    #[inline(always)]
    fn lit(x: f64) -> Self {
        x
    }

    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }

    #[inline(always)]
    fn is_finite_value(self) -> bool {
        self.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn roundtrip<N: Scalar>(x: f64) -> f64 {
        N::lit(x).to_f64()
    }

    #[rstest]
    #[case::zero(0.0)]
    #[case::one(1.0)]
    #[case::negative(-2.5)]
    fn literals_round_trip(#[case] x: f64) {
        assert_eq!(roundtrip::<f32>(x), x);
        assert_eq!(roundtrip::<f64>(x), x);
    }

    #[test]
    fn finiteness_and_nan() {
        assert!(1.0f32.is_finite_value());
        assert!(!f32::NAN.is_finite_value());
        assert!(!f64::INFINITY.is_finite_value());
        assert!(f64::NAN.is_nan_value());
        assert_eq!(1.0f64.max_of(f64::NAN), 1.0);
        assert_eq!(1.0f32.min_of(f32::NAN), 1.0);
        assert_eq!(2.0f32.max_of(3.0), 3.0);
    }

    #[test]
    fn both_precisions_in_one_build() {
        fn eps<N: Scalar>() -> f64 {
            N::EPSILON.to_f64()
        }
        assert!(eps::<f32>() > eps::<f64>());
        assert_eq!(f32::MANTISSA_BITS, 24);
        assert_eq!(f64::MANTISSA_BITS, 53);
        assert_eq!(f32::from_count(7), 7.0);
    }

    /// The envelope keeps the derived quantities the docs promise finite: `size⁵ · 1e10` (3D
    /// inertia at a dense material) and the squared extent of a shape at the largest coordinate.
    fn envelope_is_finite<N: Scalar>() {
        let (s, c) = (N::MAX_SIZE, N::MAX_COORDINATE);
        let inertia = N::lit(1e10) * N::lit(8.0) * s * s * s * (s * s * N::lit(4.0));
        assert!(inertia.is_finite_value());
        let far = (c + s) * (c + s) * N::lit(3.0);
        assert!(far.is_finite_value());
        assert!(N::MIN_SIZE < N::MAX_SIZE);
        // The smallest shape is many touching bands wide.
        assert!(N::MIN_SIZE > N::lit(25.0) * crate::Tolerances::<N>::default().relative_length);
    }

    #[test]
    fn envelope() {
        envelope_is_finite::<f32>();
        envelope_is_finite::<f64>();
    }
}
