//! [`QueryError`]: why a world query refused its input.

use thiserror::Error;

/// The reasons a world query refuses its input. A refused query reports nothing.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum QueryError {
    /// A number of the query (ray origin or direction, pose, velocity, point, box) is NaN or
    /// infinite.
    #[error("{0} is not finite")]
    NonFinite(&'static str),
    /// The ray's direction or the cast's velocity is zero.
    #[error("the direction is zero")]
    ZeroDirection,
    /// The maximum `t` is negative or NaN (or, for a shape cast, infinite).
    #[error("max t must be a non-negative number, got {0}")]
    BadMaxT(f64),
    /// A box has `mins > maxs` on some axis.
    #[error("the box is inverted")]
    InvertedAabb,
    /// The filter excludes a handle that names no body of this world.
    #[error("the excluded handle names no body")]
    StaleHandle,
}
