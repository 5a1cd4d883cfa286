//! Query settings and the status every iterative query reports.
//!
//! GJK and EPA are iterative. On curved shapes they converge only in the limit, and on
//! nearly-degenerate input rounding can stall them. kollide never hides that: every iterative
//! query returns a [`Status`] next to its best estimate, and never turns an iteration cap into
//! "no collision".

use kollide_math::{Scalar, Tolerances};

/// How an iterative query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The answer is exact up to the tolerance.
    Converged,
    /// The iteration cap was hit; the result is the best estimate found, which is still a valid
    /// bound (for example a GJK distance is an upper bound, an EPA depth a lower bound).
    IterationCap,
    /// The input made the algorithm stall (for example a Minkowski difference with no area or
    /// volume, or rounding that stopped progress); the result is the best estimate found.
    Degenerate,
}

impl Status {
    /// `true` for [`Status::Converged`].
    pub fn is_converged(self) -> bool {
        self == Status::Converged
    }

    /// The worse of two statuses (`Converged` < `Degenerate` < `IterationCap`).
    pub fn worst(self, other: Status) -> Status {
        fn rank(s: Status) -> u8 {
            match s {
                Status::Converged => 0,
                Status::Degenerate => 1,
                Status::IterationCap => 2,
            }
        }
        if rank(other) > rank(self) { other } else { self }
    }
}

/// Settings of the iterative queries, with defaults that suit game and simulation scales.
///
/// Tolerances are relative to the size of the shapes involved (see [`Tolerances`]), so the same
/// settings serve millimetre and kilometre shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuerySettings<N> {
    /// Maximum GJK iterations.
    pub gjk_max_iterations: u32,
    /// Maximum EPA iterations (each adds one vertex to the polytope).
    pub epa_max_iterations: u32,
    /// Maximum iterations of a ray or shape cast.
    pub cast_max_iterations: u32,
    /// Relative accuracy of GJK distances and EPA depths: a query stops when its upper and lower
    /// bounds are within `relative_accuracy × scale` (the scale being the shapes' size).
    pub relative_accuracy: N,
    /// The shared tolerances.
    pub tolerances: Tolerances<N>,
}

impl<N: Scalar> QuerySettings<N> {
    /// The defaults: 64 GJK iterations, 512 EPA iterations, 64 cast iterations, and an accuracy of
    /// `64 ε` relative (`~7.6e-6` for `f32`, `~1.4e-14` for `f64`).
    pub fn new() -> Self {
        Self {
            gjk_max_iterations: 64,
            epa_max_iterations: 512,
            cast_max_iterations: 64,
            relative_accuracy: N::EPSILON * N::lit(64.0),
            tolerances: Tolerances::default(),
        }
    }
}

impl<N: Scalar> Default for QuerySettings<N> {
    fn default() -> Self {
        Self::new()
    }
}
