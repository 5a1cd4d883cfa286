//! [`WorldError`]: why the world refused a request. A refused request changes nothing.

use kollide_shapes::ShapeError;
use thiserror::Error;

/// The reasons a [`crate::World`] refuses a body or a handle.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum WorldError {
    /// A number of the body description is NaN or infinite.
    #[error("{0} is not finite")]
    NonFinite(&'static str),
    /// A number that must be positive (density) or non-negative (friction, restitution,
    /// damping) is out of range.
    #[error("{what} is out of range: {value}")]
    OutOfRange {
        /// Which field.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// The shape cannot give a dynamic body mass (for example a segment).
    #[error("the shape cannot be dynamic: {0}")]
    Shape(#[from] ShapeError),
    /// The handle names a body that was removed (or never existed).
    #[error("stale or invalid body handle")]
    StaleHandle,
    /// The time step is not positive and finite.
    #[error("time step must be positive and finite, got {0}")]
    BadTimeStep(f64),
}
