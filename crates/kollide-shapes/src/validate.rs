//! Input checks shared by the shape constructors, including the envelope of each scalar type
//! ([`Scalar::MIN_SIZE`], [`Scalar::MAX_SIZE`], [`Scalar::MAX_COORDINATE`]).
//!
//! *Sizes* (radii, half extents, half heights) must lie in `[MIN_SIZE, MAX_SIZE]`; *lengths*
//! (a segment's length, the extent of a point-built shape along its longest axis) in
//! `[MIN_SIZE, 2 · MAX_SIZE]`, so that a segment or box of the largest half size is still allowed;
//! every coordinate of a vertex or end point must have a magnitude of at most `MAX_COORDINATE`.

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

/// Fails unless `value` lies in `[min, max]` ([`ShapeError::OutOfEnvelope`] naming `what` and the
/// limit broken).
fn within<N: Scalar>(value: N, min: N, max: N, what: &str) -> Result<N, ShapeError> {
    let limit = if value < min {
        min
    } else if value > max {
        max
    } else {
        return Ok(value);
    };
    Err(ShapeError::OutOfEnvelope {
        what: what.to_string(),
        value: value.to_f64(),
        limit: limit.to_f64(),
    })
}

/// A size (radius, half extent, half height): finite, positive and within
/// `[MIN_SIZE, MAX_SIZE]`.
pub fn size<N: Scalar>(x: N, what: &'static str) -> Result<N, ShapeError> {
    positive(x, what)?;
    within(x, N::MIN_SIZE, N::MAX_SIZE, what)
}

/// Every component of `v` is a valid [`size`].
pub fn size_vector<N: Scalar, const D: usize>(
    v: &Vector<N, D>,
    what: &'static str,
) -> Result<(), ShapeError> {
    for x in v.iter() {
        size(*x, what)?;
    }
    Ok(())
}

/// A length (segment length, extent of a point-built shape), already known to be finite and
/// positive: within `[MIN_SIZE, 2 · MAX_SIZE]`.
pub fn length<N: Scalar>(x: N, what: &str) -> Result<N, ShapeError> {
    within(x, N::MIN_SIZE, N::MAX_SIZE * N::lit(2.0), what)
}

/// The extent of a point cloud along its longest axis-aligned side ([`cloud_extent`]), checked as
/// a [`length`].
pub fn extent<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> Result<N, ShapeError> {
    length(cloud_extent(points), "extent")
}

/// Fails unless every coordinate of every point is finite ([`ShapeError::NonFinite`]) and at most
/// `MAX_COORDINATE` in magnitude ([`ShapeError::OutOfEnvelope`]); names the first bad point.
pub fn finite_points<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> Result<(), ShapeError> {
    for (i, p) in points.iter().enumerate() {
        if !p.coords.iter().all(|x| x.is_finite_value()) {
            return Err(ShapeError::NonFinite { what: format!("point {i}") });
        }
    }
    for (i, p) in points.iter().enumerate() {
        let m = p.coords.amax();
        if m > N::MAX_COORDINATE {
            return Err(ShapeError::OutOfEnvelope {
                what: format!("point {i} coordinate"),
                value: m.to_f64(),
                limit: N::MAX_COORDINATE.to_f64(),
            });
        }
    }
    Ok(())
}

/// The longest side of the axis-aligned box around `points` (zero for no points).
pub fn cloud_extent<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> N {
    let Some(first) = points.first() else { return N::zero() };
    let (mut lo, mut hi) = (*first, *first);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    (hi - lo).amax()
}

/// A length below which two points of a cloud count as the same point and a vertex counts as on
/// the line of its neighbours: 64 ulps of the cloud's *extent* ([`cloud_extent`]), and at least
/// the rounding of its coordinates ([`coordinate_rounding`]).
///
/// It is relative to the extent, not to the coordinates, because the constructions it guards
/// (cross products and dot products of differences of points) only carry rounding errors of the
/// size of those differences: subtracting two floating-point numbers is correctly rounded, so a
/// unit box at `1e6` is exactly as well resolved as one at the origin. The floor is for the
/// input: points that a caller computed at the scale of their coordinates (a point on an edge,
/// `a + t (b − a)`) are only that accurate, and must not count as corners for it.
pub fn coincidence_tolerance<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> N {
    (cloud_extent(points) * N::EPSILON * N::lit(64.0)).max_of(coordinate_rounding(points))
}

/// A few ulps (eight) of the largest coordinate magnitude of `points`: the rounding that points
/// computed at that scale carry.
pub fn coordinate_rounding<N: Scalar, const D: usize>(points: &[Point<N, D>]) -> N {
    let largest = points.iter().fold(N::zero(), |m, p| m.max_of(p.coords.amax()));
    largest * N::EPSILON * N::lit(8.0)
}
