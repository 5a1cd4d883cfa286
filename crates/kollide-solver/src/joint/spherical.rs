//! [`SphericalJoint`]: one point shared by two bodies, which turn freely about it (a
//! ball-and-socket joint; in 2D the same as a free [`super::RevoluteJoint`]). Its rows are the
//! point lock (`D` soft rows solved together, `K x = Ċ + b C`, where `K` is the anchors'
//! effective mass matrix) and, in 3D, an optional cone limit, solved first.
//!
//! **The cone limit** keeps B's copy `b` of an axis within a half-angle `α` of A's copy `a`, as
//! a shoulder or hip swings (the swing part of Jolt's swing-twist constraint; twist about the
//! axis stays free). The angle is `θ = atan2(|a × b|, a · b)`, the limit is the one-sided row
//! `C = α − θ ≥ 0`, and since `θ` grows as B turns about `n = (a × b) / |a × b|`,
//! `Ċ = −n · (ω_B − ω_A)`, with the effective mass `1 / (n · (I_A⁻¹ + I_B⁻¹) n)`. When the axes
//! are (anti)parallel, `n` is any direction across `a`.

use kollide_math::{Point, Scalar};

use super::revolute::check_axis;
use super::solver::{Kind, Pair, Prepared, Substep, limit_row, positive};
use super::{Ang, Rot, check_point};
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A cone limit: B's copy of `axis` stays within `half_angle` of A's (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConeLimit<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The cone's axis, in the world frame as the bodies stand when the joint is added: finite
    /// and not zero (it is normalised).
    pub axis: Ang<N, D>,
    /// The half-angle (rad), in `[0, π]`.
    pub half_angle: N,
}

/// A spherical joint: a shared point (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct SphericalJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The shared point, in the world frame as the bodies stand when the joint is added.
    pub anchor: Point<N, D>,
    /// A cone limit (3D only; a 2D joint with one is refused): `None`, free.
    pub cone: Option<ConeLimit<N, D>>,
}

impl<N: Scalar, const D: usize> SphericalJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A spherical joint about `anchor` (world frame).
    pub fn new(anchor: Point<N, D>) -> Self {
        Self { anchor, cone: None }
    }

    /// Limits the swing of B's copy of `axis` (world frame) to `half_angle` (rad) from A's.
    pub fn cone(mut self, axis: Ang<N, D>, half_angle: N) -> Self {
        self.cone = Some(ConeLimit { axis, half_angle });
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_point("anchor", &self.anchor)?;
        let Some(cone) = &self.cone else { return Ok(()) };
        if D == 2 {
            return Err(WorldError::NotInJoint("cone limit (2D: use a revolute joint's limit)"));
        }
        check_axis::<N, D>(&cone.axis)?;
        WorldLimits::check("cone half-angle", cone.half_angle, N::zero(), N::pi())
    }
}

/// The direction `n` about which the cone's angle grows, and the angle, for the bodies'
/// current rotations.
#[inline(always)]
pub(super) fn cone_direction<N: Scalar, const D: usize>(
    j: &Prepared<N, D>,
    q_a: &Rot<N, D>,
    q_b: &Rot<N, D>,
) -> (Ang<N, D>, N)
where
    Dim<D>: SolverDim<N, D>,
{
    let a = Dim::<D>::rotate_angular(q_a, &j.axis_a);
    let b = Dim::<D>::rotate_angular(q_b, &j.axis_b);
    let c = Dim::<D>::angular_cross(&a, &b);
    let sin = Dim::<D>::angular_dot(&c, &c).sqrt();
    let angle = sin.atan2(Dim::<D>::angular_dot(&a, &b));
    if sin > N::EPSILON {
        (c * (N::one() / sin), angle)
    } else {
        (Dim::<D>::angular_perpendiculars(&a)[0], angle)
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
    if let Kind::Spherical { cone: Some(half_angle) } = j.kind {
        let (q_a, q_b) = j.rotations(pair);
        let (n, angle) = cone_direction(j, &q_a, &q_b);
        let turn = Dim::<D>::apply_inertia(&j.i_a, &n) + Dim::<D>::apply_inertia(&j.i_b, &n);
        let k = Dim::<D>::angular_dot(&n, &turn);
        if positive(k) {
            let cdot = -Dim::<D>::angular_dot(&n, &(pair.b.w - pair.a.w));
            let c = half_angle - angle;
            let impulse = limit_row(c, cdot, N::one() / k, &mut j.impulses.lower, &j.soft, step);
            j.apply_angular(pair, &(-n * impulse));
        }
    }
    j.solve_point(pair, step);
}
