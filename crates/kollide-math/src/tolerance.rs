//! Named tolerances, scaled per scalar type.
//!
//! Every threshold kollide uses is named here once, so that a reader can find them and a user can
//! change them per call. The defaults are relative where they compare lengths (they are multiplied
//! by the size of the shapes involved by the algorithms that use them) and scale with the precision
//! of the scalar: `f32` gets looser tolerances than `f64`.

use crate::Scalar;

/// The tolerances shared by kollide's algorithms.
///
/// Lengths here are *relative*: an algorithm multiplies them by a length scale of the query (for
/// example the larger of the two shapes' bounding radii) before comparing. This keeps a query on
/// 1 mm shapes and one on 100 m shapes equally accurate.
///
/// ```
/// use kollide_math::Tolerances;
/// let t32 = Tolerances::<f32>::default();
/// let t64 = Tolerances::<f64>::default();
/// assert!(t32.relative_length > t64.relative_length as f32);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances<N> {
    /// Relative length below which two points are considered the same and a gap is considered
    /// closed (GJK termination, EPA convergence).
    pub relative_length: N,
    /// Absolute tolerance on the cosine of an angle: directions closer than this are parallel.
    pub parallel_cosine: N,
    /// Relative tolerance used when comparing candidate axes in SAT: a later axis must beat an
    /// earlier one by this fraction of the earlier separation to be chosen (see
    /// [`crate::geom::biased_greater`]).
    pub sat_relative_bias: N,
    /// Absolute tolerance, relative to the length scale, for the same comparison.
    pub sat_absolute_bias: N,
}

impl<N: Scalar> Tolerances<N> {
    /// The defaults for this scalar type.
    ///
    /// `relative_length` is about `2^(mantissa_bits / 2)` ulps, a tenth of `sqrt(eps)` in `f32`
    /// (`~3.5e-5`) and a twentieth in `f64` (`~7.5e-10`): each under the accuracy kollide
    /// promises for the type (`1e-9` of the shapes' size in `f64`, which a tenth, `1.5e-9`, let
    /// near-tied features and stalled refinements miss by up to its own width).
    pub fn new() -> Self {
        let eps = N::EPSILON;
        let fraction = if eps.to_f64() < 1e-10 { 0.05 } else { 0.1 };
        Self {
            relative_length: eps.sqrt() * N::lit(fraction),
            parallel_cosine: eps.sqrt() * N::lit(10.0),
            sat_relative_bias: N::lit(0.95),
            sat_absolute_bias: N::lit(0.01),
        }
    }

    /// The absolute length tolerance for a query whose shapes have size `scale` (for example the
    /// larger bounding radius): the accuracy goal of the query's lengths. Never smaller than a few
    /// ulps of `1`. (Whether two shapes touch is decided with a finer band, a hundredth of
    /// `relative_length` times the scale with no floor; see `docs/conventions.md`.)
    pub fn length(&self, scale: N) -> N {
        self.relative_length * scale.max_of(N::one())
    }
}

impl<N: Scalar> Default for Tolerances<N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_scale_with_precision_and_size() {
        let t32 = Tolerances::<f32>::default();
        let t64 = Tolerances::<f64>::default();
        assert!(t32.relative_length.to_f64() > t64.relative_length);
        assert!(t64.length(100.0) > t64.length(1.0));
        assert_eq!(t64.length(0.001), t64.length(1.0));
    }
}
