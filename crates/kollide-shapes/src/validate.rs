//! Input checks shared by the shape constructors.

use kollide_math::{Point, Scalar, Vector};

use crate::ShapeError;

/// Fails with [`ShapeError::NonFinite`] unless `x` is finite.
pub fn finite<N: Scalar>(x: N, what: &str) -> Result<N, ShapeError> {
    if x.is_finite_value() { Ok(x) } else { Err(ShapeError::NonFinite { what: what.to_string() }) }
}

/// Fails unless `x` is finite and strictly positive.
pub fn positive<N: Scalar>(x: N, what: &'static str) -> Result<N, ShapeError> {
    finite(x, what)?;
    if x > N::zero() { Ok(x) } else { Err(ShapeError::NonPositive { what, value: x.to_f64() }) }
}

/// Fails unless every component of `v` is finite and strictly positive.
pub fn positive_vector<N: Scalar, const D: usize>(
    v: &Vector<N, D>,
    what: &'static str,
) -> Result<(), ShapeError> {
    for x in v.iter() {
        positive(*x, what)?;
    }
    Ok(())
}

/// Fails unless every coordinate of every point is finite; names the first bad point.
pub fn finite_points<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> Result<(), ShapeError> {
    for (i, p) in points.iter().enumerate() {
        if !p.coords.iter().all(|x| x.is_finite_value()) {
            return Err(ShapeError::NonFinite { what: format!("point {i}") });
        }
    }
    Ok(())
}

/// A length below which two points of a cloud count as the same point: a few ulps of the cloud's
/// extent.
pub fn coincidence_tolerance<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> N {
    let mut scale = N::zero();
    for p in points {
        for x in p.coords.iter() {
            scale = scale.max_of(x.abs());
        }
    }
    scale.max_of(N::one()) * N::EPSILON * N::lit(64.0)
}
