//! [`MotorJoint`]: drives body B towards a pose relative to body A with a bounded force and
//! torque, as an animated platform, a character's root or a top-down body with friction
//! against the ground is moved (Box2D's motor joint, Erin Catto, 2012; here in the soft step).
//!
//! The target is B's pose in A's frame. Its translation is held as a point lock between the
//! point `t` of A and B's origin, and its rotation as an angular lock with the reference
//! rotation `q_t`; but neither lock is soft: each row removes the relative velocity plus a
//! fraction of the pose error per substep, `Ċ + (β / h) C` with the joint's `correction` `β`,
//! and its accumulated impulse is clamped to `max_torque · h` (the angular row, by length in
//! 3D) and `max_force · h` (the linear rows, by length). So the joint pulls B along no harder
//! than it may, and a body it cannot move slips, as friction would let it. The angular row
//! comes first, the linear rows last (they matter most).

use kollide_math::Scalar;

use super::solver::{Kind, Pair, Prepared, Substep, clamp_length, clamp_vector};
use super::{PoseOf, check_pose};
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A motor joint: B driven towards a pose relative to A (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct MotorJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// B's pose in A's frame that the joint drives B towards (the bodies' origins, not their
    /// centres of mass); within the world's envelope, like a body's pose.
    pub target: PoseOf<N, D>,
    /// The largest force (N) the joint applies, finite and `≥ 0`.
    pub max_force: N,
    /// The largest torque (N·m) the joint applies, finite and `≥ 0`.
    pub max_torque: N,
    /// The fraction of the pose error the joint removes per substep, in `[0, 1]`. Default: 0.3
    /// (Box2D's).
    pub correction: N,
}

impl<N: Scalar, const D: usize> MotorJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A motor joint driving B to `target` (B's pose in A's frame) with at most `max_force`
    /// and `max_torque`.
    pub fn new(target: PoseOf<N, D>, max_force: N, max_torque: N) -> Self {
        Self { target, max_force, max_torque, correction: N::lit(0.3) }
    }

    /// Sets the fraction of the pose error removed per substep.
    pub fn correction(mut self, correction: N) -> Self {
        self.correction = correction;
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_pose::<N, D>(&self.target)?;
        WorldLimits::check("motor joint max force", self.max_force, N::zero(), N::MAX)?;
        WorldLimits::check("motor joint max torque", self.max_torque, N::zero(), N::MAX)?;
        WorldLimits::check("motor joint correction", self.correction, N::zero(), N::one())
    }
}

/// One pass over a motor joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Motor { max_force, max_torque, correction } = j.kind else { return };
    // The correction is the motor's target speed, not a soft bias: every pass keeps it.
    let bias = correction * step.inv_h;
    let (q_a, q_b) = j.rotations(pair);
    let error = Dim::<D>::rotation_vector(&j.angle_error(&q_a, &q_b));
    let x = j.angular_mass_solve(&(pair.b.w - pair.a.w + error * bias));
    let old = j.impulses.angular;
    let new = clamp_length::<N, D>(old - x, max_torque * step.h);
    j.impulses.angular = new;
    j.apply_angular(pair, &(new - old));

    let rhs = j.anchor_velocity(pair) + j.anchor_separation(pair) * bias;
    let x = j.point_mass_solve(pair, &rhs);
    let old = j.impulses.linear;
    let new = clamp_vector(old - x, max_force * step.h);
    j.impulses.linear = new;
    j.apply(pair, &(new - old), &Dim::<D>::angular_zero());
}
