//! [`MouseJoint`]: pulls a point of body B towards a target with a spring of bounded force, as
//! a user drags a body with the mouse (Box2D's mouse joint, Erin Catto; here in the soft step).
//!
//! The rows are the point lock's `D` rows between B's anchor and the target, made soft with the
//! joint's own spring (its stiffness and damping ratio, in every pass, as a spring is) instead
//! of the joint's constraint softness, and with the accumulated impulse clamped by length to
//! `max_force · h`: the body follows the target like a mass on a spring and is never yanked
//! harder than `max_force`, however far the target jumps. Held by one point, a body would swing
//! and spin about it for ever, so the joint also damps B's rotation relative to A: once per
//! substep, the angular impulse `−(I_A⁻¹ + I_B⁻¹)⁻¹ Δω · min(d h, 1)` (before the point rows)
//! slows the relative turning `Δω` at the rate `d`, `angular_damping`.
//!
//! **Body A** holds the target: it is kept in A's frame, where it was set. Make A a static body
//! (a ground, or an empty static body), so that the target stays where it was put.

use kollide_math::{Point, Scalar};

use super::solver::{Kind, Pair, Prepared, Substep, clamp_vector};
use super::{Spring, check_point, check_spring};
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A mouse joint: a point of B pulled towards a target (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct MouseJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The point of B that is pulled, in the world frame as B stands when the joint is added.
    pub anchor: Point<N, D>,
    /// Where it is pulled to, in the world frame (kept in A's frame; move it with
    /// [`crate::World::set_mouse_target`]).
    pub target: Point<N, D>,
    /// The pull's stiffness and damping. Default: 5 Hz, damping ratio 0.7. At 0 Hz the rows are
    /// rigid and have no position term: the grip's velocity is held to the target's frame (up
    /// to `max_force`) and nothing pulls it towards the target.
    pub spring: Spring<N>,
    /// The largest force (N) of the pull, finite and `≥ 0`. A few times the body's weight drags
    /// it briskly.
    pub max_force: N,
    /// The rate (1/s) at which B's turning relative to A is slowed, finite and `≥ 0`. Default:
    /// 5. A spin about B's own centre dies down at this rate; a swing about the grip, whose
    /// inertia includes B's mass at the arm's length, more slowly. 0 lets B spin freely.
    pub angular_damping: N,
}

impl<N: Scalar, const D: usize> MouseJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A mouse joint grabbing B at `anchor` (world frame), with the target there too, pulling
    /// with at most `max_force`.
    pub fn new(anchor: Point<N, D>, max_force: N) -> Self {
        let spring = Spring { hertz: N::lit(5.0), damping_ratio: N::lit(0.7) };
        Self { anchor, target: anchor, spring, max_force, angular_damping: N::lit(5.0) }
    }

    /// Sets the target (world frame).
    pub fn target(mut self, target: Point<N, D>) -> Self {
        self.target = target;
        self
    }

    /// Sets the rate (1/s) at which B's turning relative to A is slowed.
    pub fn angular_damping(mut self, rate: N) -> Self {
        self.angular_damping = rate;
        self
    }

    /// Sets the pull's stiffness and damping ratio.
    pub fn spring(mut self, hertz: N, damping_ratio: N) -> Self {
        self.spring = Spring { hertz, damping_ratio };
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_point("anchor", &self.anchor)?;
        check_point("mouse target", &self.target)?;
        check_spring(&self.spring)?;
        WorldLimits::check("mouse joint max force", self.max_force, N::zero(), N::MAX)?;
        WorldLimits::check("mouse joint angular damping", self.angular_damping, N::zero(), N::MAX)
    }
}

/// One pass over a mouse joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Mouse { max_force, angular_damping } = j.kind else { return };
    if step.use_bias {
        let slow = (angular_damping * step.h).min_of(N::one());
        let l = -j.angular_mass_solve(&(pair.b.w - pair.a.w)) * slow;
        j.apply_angular(pair, &l);
    }
    let soft = j.spring;
    let rhs = j.anchor_velocity(pair) + j.anchor_separation(pair) * soft.bias_rate;
    let x = j.point_mass_solve(pair, &rhs);
    let old = j.impulses.linear;
    let new =
        clamp_vector(old - x * soft.mass_scale - old * soft.impulse_scale, max_force * step.h);
    j.impulses.linear = new;
    j.apply(pair, &(new - old), &Dim::<D>::angular_zero());
}
