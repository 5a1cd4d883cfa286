//! [`TreeError`]: why a [`crate::tree::Tree`] refused a request. A refused request changes
//! nothing.

use thiserror::Error;

/// The reasons a tree refuses a box or a proxy id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum TreeError {
    /// A box has a NaN or infinite coordinate, or `mins > maxs` on some axis, or a margin is
    /// negative or not finite.
    #[error("the box or margin is not finite or not ordered")]
    BadAabb,
    /// The proxy id names no live leaf of this tree.
    #[error("unknown proxy id {0}")]
    UnknownProxy(u32),
    /// A static build was given more boxes than `u32` leaf data can number.
    #[error("too many boxes for one tree: {0}")]
    TooManyBoxes(usize),
}
