//! [`WheelJoint`]: a wheel on a suspension. B (the wheel) spins freely about an axis fixed in A
//! (the chassis) and slides along a suspension axis fixed in A, held by a spring; it cannot
//! move across the suspension axis. It is the prismatic joint's rows across and along the
//! axis without its angular lock, plus the revolute joint's motor about the spin axis (and in
//! 3D its two rows that keep the spin axes aligned); after Box2D v3's wheel joint.

use kollide_math::{Point, Point2, Scalar, Vec2, Vector};

use super::prismatic::{Along, solve_across, solve_along};
use super::solver::{Kind, Pair, Prepared, Substep, motor_row, positive};
use super::{Ang, Motor, Spring, check_motor, check_point, check_range, check_spring};
use crate::lane::LaneScalar;
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A wheel joint: spin about an axis, a sprung suspension along another (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct WheelJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The wheel's centre, in the world frame as the bodies stand when the joint is added.
    pub anchor: Point<N, D>,
    /// The suspension's direction, in the world frame: finite and not zero (it is normalised).
    pub suspension: Vector<N, D>,
    /// The spin axis, in the world frame: finite and not zero (normalised); in 2D `1`.
    pub spin: Ang<N, D>,
    /// The suspension spring, towards the anchor's starting place. Default: 4 Hz, damping
    /// ratio 0.7.
    pub spring: Option<Spring<N>>,
    /// The suspension's travel (m) along its axis, lower end first; `None`: free.
    pub limit: Option<[N; 2]>,
    /// A motor driving the wheel's spin (rad/s, N·m).
    pub motor: Option<Motor<N>>,
}

impl<N: LaneScalar> WheelJoint<N, 2> {
    /// A wheel at `anchor` on a suspension along `suspension` (world frame).
    pub fn new(anchor: Point2<N>, suspension: Vec2<N>) -> Self {
        Self::about(anchor, suspension, N::one())
    }
}

impl<N: Scalar, const D: usize> WheelJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A wheel at `anchor` spinning about `spin` on a suspension along `suspension`.
    pub fn about(anchor: Point<N, D>, suspension: Vector<N, D>, spin: Ang<N, D>) -> Self {
        let spring = Some(Spring { hertz: N::lit(4.0), damping_ratio: N::lit(0.7) });
        Self { anchor, suspension, spin, spring, limit: None, motor: None }
    }

    /// Sets the suspension spring (`None`: a free suspension).
    pub fn spring(mut self, spring: Option<Spring<N>>) -> Self {
        self.spring = spring;
        self
    }

    /// Limits the suspension's travel to `[lower, upper]` (m).
    pub fn limit(mut self, lower: N, upper: N) -> Self {
        self.limit = Some([lower, upper]);
        self
    }

    /// Adds a motor driving the spin to `speed` (rad/s) with at most `max_torque` (N·m).
    pub fn motor(mut self, speed: N, max_torque: N) -> Self {
        self.motor = Some(Motor { speed, max_force: max_torque });
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_point("anchor", &self.anchor)?;
        let prismatic = super::PrismaticJoint::new(self.anchor, self.suspension);
        prismatic.validate()?;
        super::revolute::check_axis::<N, D>(&self.spin)?;
        self.validate_controls()
    }

    /// The limit, motor and spring checked.
    pub(crate) fn validate_controls(&self) -> Result<(), WorldError> {
        let limits = WorldLimits::<N>::new();
        if let Some(limit) = self.limit {
            let max = limits.max_coordinate;
            check_range("suspension limit", limit, -max, max)?;
        }
        if let Some(m) = &self.motor {
            check_motor(m, limits.max_angular_speed)?;
        }
        if let Some(s) = &self.spring {
            check_spring(s)?;
        }
        Ok(())
    }
}

/// One pass over a wheel joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Wheel { limit, motor, spring } = j.kind else { return };
    let (q_a, q_b) = j.rotations(pair);
    let spin = Dim::<D>::rotate_angular(&q_a, &j.axis_a);
    if let Some(m) = &motor {
        let turn_a = Dim::<D>::apply_inertia(&j.i_a, &spin);
        let turn_b = Dim::<D>::apply_inertia(&j.i_b, &spin);
        let k = Dim::<D>::angular_dot(&spin, &(turn_a + turn_b));
        if positive(k) {
            let cdot = Dim::<D>::angular_dot(&spin, &(pair.b.w - pair.a.w));
            let impulse = motor_row(cdot, N::one() / k, m, &mut j.impulses.motor, step.h);
            pair.a.w -= turn_a * impulse;
            pair.b.w += turn_b * impulse;
        }
    }
    let axis = Dim::<D>::rotate(&q_a, &j.slide_a);
    let d = j.anchor_separation(pair);
    let r_a = pair.r_a + d;
    let along = Along { limit, motor: None, spring };
    solve_along(j, pair, &r_a, &axis, &d, &along, step);
    if D == 3 {
        let spin_b = Dim::<D>::rotate_angular(&q_b, &j.axis_b);
        super::revolute::solve_hinge(j, pair, &spin, &spin_b, step);
    }
    solve_across(j, pair, &r_a, &axis, &d, step);
}
