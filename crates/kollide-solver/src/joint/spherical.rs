//! [`SphericalJoint`]: one point shared by two bodies, which turn freely about it (a
//! ball-and-socket joint; in 2D the same as a free [`super::RevoluteJoint`]). It is the point
//! lock alone: `D` soft rows solved together, `K x = Ċ + b C`, where `K` is the anchors'
//! effective mass matrix.

use kollide_math::{Point, Scalar};

use super::solver::{Pair, Prepared, Substep};
use crate::{Dim, SolverDim};

/// A spherical joint: a shared point (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct SphericalJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The shared point, in the world frame as the bodies stand when the joint is added.
    pub anchor: Point<N, D>,
}

impl<N: Scalar, const D: usize> SphericalJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A spherical joint about `anchor` (world frame).
    pub fn new(anchor: Point<N, D>) -> Self {
        Self { anchor }
    }
}

/// One pass over a spherical joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    j.solve_point(pair, step);
}
