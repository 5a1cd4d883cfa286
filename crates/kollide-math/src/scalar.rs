//! The [`Scalar`] trait: the floating-point type of every kollide computation.
//!
//! kollide is generic over its scalar instead of switching between `f32` and `f64` with cargo
//! features. Mutually exclusive features break as soon as two crates in one build ask for different
//! precisions; a trait lets a game use `f32` while its tools use `f64` in the same binary.
//!
//! The trait is nalgebra's `RealField + Copy` plus a handful of constants that the algorithms need
//! and that nalgebra does not name (machine epsilon, a conversion from `f64` literals).

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
}

impl Scalar for f32 {
    const EPSILON: Self = f32::EPSILON;
    const MAX: Self = f32::MAX;
    const MANTISSA_BITS: u32 = 24;

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
}

impl Scalar for f64 {
    const EPSILON: Self = f64::EPSILON;
    const MAX: Self = f64::MAX;
    const MANTISSA_BITS: u32 = 53;

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
}
