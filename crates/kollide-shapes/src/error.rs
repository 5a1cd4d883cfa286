//! [`ShapeError`]: why a shape could not be built.
//!
//! Every constructor that takes user numbers validates them and returns `Result<_, ShapeError>`.
//! A shape that exists is valid: finite, with positive extents, and (for polygons and polyhedra)
//! convex with the promised winding. Queries on shapes therefore never re-check their input.

use thiserror::Error;

/// The reasons a shape constructor rejects its input.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ShapeError {
    /// A coordinate, extent or radius is NaN or infinite.
    #[error("{what} is not finite (NaN or infinite)")]
    NonFinite {
        /// Which input was bad, e.g. `"radius"` or `"vertex 3"`.
        what: String,
    },
    /// An extent, radius or height is zero or negative.
    #[error("{what} must be positive, got {value}")]
    NonPositive {
        /// Which input was bad.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A density given for mass properties is zero, negative or not finite.
    #[error("density must be positive and finite, got {0}")]
    InvalidDensity(f64),
    /// Too few points to make the shape.
    #[error("at least {needed} points are needed, got {got}")]
    TooFewPoints {
        /// How many points were given.
        got: usize,
        /// How many the shape needs.
        needed: usize,
    },
    /// Two input points are equal (or closer than the tolerance).
    #[error("points {first} and {second} coincide")]
    DuplicatePoints {
        /// Index of the first point.
        first: usize,
        /// Index of the second point.
        second: usize,
    },
    /// All points lie on one line (2D) or one line or plane (3D): the shape would have no area or
    /// no volume.
    #[error("the points are degenerate: all {0}")]
    Degenerate(&'static str),
    /// A polygon promised to be convex is not: the turn at `vertex` goes the wrong way.
    #[error("the polygon is not convex at vertex {vertex}")]
    NotConvex {
        /// The vertex where the boundary turns clockwise (or doubles back).
        vertex: usize,
    },
    /// Mass properties were asked of a shape with no area (2D) or no volume (3D), such as a
    /// segment; such a shape can only belong to a static body.
    #[error("a {0} has no area or volume, so it has no mass")]
    NoMass(&'static str),
    /// A size or coordinate is outside the envelope of the scalar type ([`Scalar::MIN_SIZE`],
    /// [`Scalar::MAX_SIZE`], [`Scalar::MAX_COORDINATE`]): the shape could not be represented
    /// faithfully (its touching band would swallow it, or its derived quantities would overflow).
    ///
    /// [`Scalar::MIN_SIZE`]: kollide_math::Scalar::MIN_SIZE
    /// [`Scalar::MAX_SIZE`]: kollide_math::Scalar::MAX_SIZE
    /// [`Scalar::MAX_COORDINATE`]: kollide_math::Scalar::MAX_COORDINATE
    #[error("{what} is {value}, beyond the limit {limit} of this scalar type's envelope")]
    OutOfEnvelope {
        /// Which input was bad, e.g. `"radius"` or `"point 3 coordinate"`.
        what: String,
        /// The value given (or derived from the input, such as a segment's length).
        value: f64,
        /// The limit it broke: a minimum when `value` is below it, a maximum when above.
        limit: f64,
    },
    /// Mass properties would not be finite, positive numbers in this scalar type (the density is
    /// too large or too small for the shape's size).
    #[error("the {what} would be {value}, not a finite positive number in this scalar type")]
    MassOutOfRange {
        /// `"mass"` or `"inertia"`.
        what: &'static str,
        /// The value computed (possibly infinite, zero or NaN).
        value: f64,
    },
    /// Points promised to lie on one plane do not: `point` is `distance` away from the plane of
    /// the others, more than the tolerance allows.
    #[error("point {point} is {distance} away from the plane of the others")]
    NotCoplanar {
        /// Index of the point farthest from the plane.
        point: usize,
        /// Its distance from the plane.
        distance: f64,
    },
    /// A polygon promised to be counter-clockwise is wound clockwise.
    #[error("the polygon is wound clockwise; kollide expects counter-clockwise vertices")]
    Clockwise,
}
