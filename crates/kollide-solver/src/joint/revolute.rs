//! [`RevoluteJoint`]: one point shared by two bodies, which turn about an axis relative to each
//! other: a hinge. In 2D the axis is the one out of the plane; in 3D it is given, and two
//! angular rows keep the bodies' copies of it aligned.
//!
//! Rows, in the order they are solved (after Box2D v3's revolute joint): the spring, the motor
//! and the limit about the axis (each a scalar row with the axial effective mass
//! `1 / (a · (I_A⁻¹ + I_B⁻¹) a)`), then in 3D the two rows perpendicular to the axis (their
//! error is `t_i · (a_A × a_B)`, whose rate is `t_i · (ω_B − ω_A)` while the axes are aligned),
//! and last the point lock, the row that matters most.
//!
//! The joint's angle is the twist about the axis of the relative rotation since the joint was
//! added, in `(−π, π]`; a limit is a range of it inside `[−π, π]`.

use kollide_math::{Point, Point2, Point3, Scalar, Vec3};

use super::solver::{
    Kind, Pair, Prepared, Substep, limit_row, motor_row, positive, solve_spd, spring_row,
};
use super::{Ang, Motor, Spring, check_motor, check_point, check_range, check_spring};
use crate::lane::LaneScalar;
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A revolute joint: a shared point and an axis to turn about (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct RevoluteJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The shared point, in the world frame as the bodies stand when the joint is added.
    pub anchor: Point<N, D>,
    /// The axis, in the world frame: finite and not zero (it is normalised). In 2D the axis out
    /// of the plane, `1` (or `−1`, which turns the joint's angle around).
    pub axis: Ang<N, D>,
    /// The range of the joint's angle (rad), within `[−π, π]`, lower end first; `None`: free.
    pub limit: Option<[N; 2]>,
    /// A motor about the axis (speed in rad/s, torque in N·m).
    pub motor: Option<Motor<N>>,
    /// A spring that pulls the angle back to zero.
    pub spring: Option<Spring<N>>,
}

impl<N: LaneScalar> RevoluteJoint<N, 2> {
    /// A free revolute joint about `anchor` (world frame).
    pub fn new(anchor: Point2<N>) -> Self {
        Self::about(anchor, N::one())
    }
}

impl<N: LaneScalar> RevoluteJoint<N, 3> {
    /// A free hinge about `axis` through `anchor` (world frame).
    pub fn hinge(anchor: Point3<N>, axis: Vec3<N>) -> Self {
        Self::about(anchor, axis)
    }
}

impl<N: Scalar, const D: usize> RevoluteJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A free revolute joint about `axis` through `anchor` (world frame).
    pub fn about(anchor: Point<N, D>, axis: Ang<N, D>) -> Self {
        Self { anchor, axis, limit: None, motor: None, spring: None }
    }

    /// Limits the angle to `[lower, upper]` (rad).
    pub fn limit(mut self, lower: N, upper: N) -> Self {
        self.limit = Some([lower, upper]);
        self
    }

    /// Adds a motor driving the relative angular speed to `speed` (rad/s) with at most
    /// `max_torque` (N·m).
    pub fn motor(mut self, speed: N, max_torque: N) -> Self {
        self.motor = Some(Motor { speed, max_force: max_torque });
        self
    }

    /// Adds a spring pulling the angle back to zero.
    pub fn spring(mut self, hertz: N, damping_ratio: N) -> Self {
        self.spring = Some(Spring { hertz, damping_ratio });
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_point("anchor", &self.anchor)?;
        check_axis::<N, D>(&self.axis)?;
        self.validate_controls()
    }

    /// The limit, motor and spring checked.
    pub(crate) fn validate_controls(&self) -> Result<(), WorldError> {
        let pi = N::pi();
        if let Some(limit) = self.limit {
            check_range("angle limit", limit, -pi, pi)?;
        }
        if let Some(m) = &self.motor {
            check_motor(m, WorldLimits::<N>::new().max_angular_speed)?;
        }
        if let Some(s) = &self.spring {
            check_spring(s)?;
        }
        Ok(())
    }
}

/// An axis checked: finite, and long enough to normalise.
pub(crate) fn check_axis<N: Scalar, const D: usize>(axis: &Ang<N, D>) -> Result<(), WorldError>
where
    Dim<D>: SolverDim<N, D>,
{
    if !Dim::<D>::angular_is_finite(axis) {
        return Err(WorldError::NonFinite("axis"));
    }
    let length = Dim::<D>::angular_length(axis);
    let min = N::EPSILON.to_f64().sqrt();
    if length.is_nan() || length < min {
        return Err(WorldError::OutOfRange {
            what: "axis length",
            value: length,
            min,
            max: f64::MAX,
        });
    }
    Ok(())
}

/// One pass over a revolute joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Revolute { limit, motor, spring } = j.kind else { return };
    let axial = limit.is_some() || motor.is_some() || spring;
    if axial || D == 3 {
        let (q_a, q_b) = j.rotations(pair);
        let axis = Dim::<D>::rotate_angular(&q_a, &j.axis_a);
        if axial {
            let angle = Dim::<D>::twist_angle(&j.angle_error(&q_a, &q_b), &axis);
            solve_axial(j, pair, &axis, angle, step);
        }
        if D == 3 {
            let axis_b = Dim::<D>::rotate_angular(&q_b, &j.axis_b);
            solve_hinge(j, pair, &axis, &axis_b, step);
        }
    }
    j.solve_point(pair, step);
}

/// The spring, motor and limit rows about the (world) `axis`, at the joint's `angle`.
#[inline(always)]
fn solve_axial<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    axis: &Ang<N, D>,
    angle: N,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Revolute { limit, motor, spring } = j.kind else { return };
    let turn_a = Dim::<D>::apply_inertia(&j.i_a, axis);
    let turn_b = Dim::<D>::apply_inertia(&j.i_b, axis);
    let k = Dim::<D>::angular_dot(axis, &(turn_a + turn_b));
    if !positive(k) {
        return;
    }
    let mass = N::one() / k;
    let rate = |p: &Pair<N, D>| Dim::<D>::angular_dot(axis, &(p.b.w - p.a.w));
    let push = |p: &mut Pair<N, D>, impulse: N| {
        p.a.w -= turn_a * impulse;
        p.b.w += turn_b * impulse;
    };
    let imp = &mut j.impulses;
    if spring {
        let impulse = spring_row(angle, rate(pair), mass, &mut imp.spring, &j.spring);
        push(pair, impulse);
    }
    if let Some(m) = &motor {
        let impulse = motor_row(rate(pair), mass, m, &mut imp.motor, step.h);
        push(pair, impulse);
    }
    if let Some([lower, upper]) = limit {
        let impulse = limit_row(angle - lower, rate(pair), mass, &mut imp.lower, &j.soft, step);
        push(pair, impulse);
        let impulse = limit_row(upper - angle, -rate(pair), mass, &mut imp.upper, &j.soft, step);
        push(pair, -impulse);
    }
}

/// 3D: the two rows that keep B's copy of the axis on A's (perpendicular to `axis`).
#[inline(always)]
pub(super) fn solve_hinge<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    axis: &Ang<N, D>,
    axis_b: &Ang<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let (rate, mass_scale, impulse_scale) = j.hold(step);
    let t = Dim::<D>::angular_perpendiculars(axis);
    let w = pair.b.w - pair.a.w;
    let error = Dim::<D>::angular_cross(axis, axis_b);
    let turn =
        |x: &Ang<N, D>| Dim::<D>::apply_inertia(&j.i_a, x) + Dim::<D>::apply_inertia(&j.i_b, x);
    let turns = [turn(&t[0]), turn(&t[1])];
    let k: [[N; 2]; 2] =
        core::array::from_fn(|r| core::array::from_fn(|c| Dim::<D>::angular_dot(&t[r], &turns[c])));
    let rhs: [N; 2] = core::array::from_fn(|r| {
        let c = if step.use_bias { Dim::<D>::angular_dot(&t[r], &error) * rate } else { N::zero() };
        Dim::<D>::angular_dot(&t[r], &w) + c
    });
    let x = solve_spd::<N, 2>(k, rhs, 2);
    let old = &j.impulses.angular;
    let impulse = |r: usize| -x[r] * mass_scale - Dim::<D>::angular_dot(&t[r], old) * impulse_scale;
    let l = t[0] * impulse(0) + t[1] * impulse(1);
    j.impulses.angular += l;
    j.apply_angular(pair, &l);
}
