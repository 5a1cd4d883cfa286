//! [`WeldJoint`]: two bodies held with no relative motion (a *fixed* joint in 3D). The angular
//! lock holds the relative rotation at its value when the joint was added (one row in 2D, three
//! solved together in 3D, `(I_A⁻¹ + I_B⁻¹) x = Δω + b θ`, where `θ` is the rotation vector of
//! the error), then the point lock holds the anchor (as Box2D v3's weld joint orders them).

use kollide_math::{Point, Scalar};

use super::solver::{Pair, Prepared, Substep};
use crate::{Dim, SolverDim};

/// A weld (fixed) joint: no relative motion (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct WeldJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The point held together, in the world frame as the bodies stand when the joint is
    /// added (anywhere: it only sets where the linear rows act).
    pub anchor: Point<N, D>,
}

impl<N: Scalar, const D: usize> WeldJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A weld joint holding the bodies at `anchor` (world frame).
    pub fn new(anchor: Point<N, D>) -> Self {
        Self { anchor }
    }
}

/// One pass over a weld joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let (q_a, q_b) = j.rotations(pair);
    let error = j.angle_error(&q_a, &q_b);
    j.solve_angular_lock(pair, &error, step);
    j.solve_point(pair, step);
}
