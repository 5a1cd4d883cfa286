//! [`PrismaticJoint`]: two bodies that slide along an axis relative to each other without
//! turning (a slider). The angular lock of the weld holds their relative rotation, one row per
//! direction perpendicular to the axis (one in 2D, two in 3D) holds the anchors on the axis,
//! and the rows along the axis carry the spring, the motor and the limit on the translation
//! (after Box2D v3's prismatic joint).
//!
//! The axis turns with body A. Along a direction `t` the rows see the separation of the anchors
//! `d = (c_B + r_B) − (c_A + r_A)`: the error is `t · d`, and since the point of A that lies under
//! B's anchor is `r_A + d` from A's centre, the row's angular parts are `(r_A + d) × t` for A and
//! `r_B × t` for B. The translation is `a · d` along the axis `a`, zero when the joint is added.

use kollide_math::{Point, Scalar, Vector};

use super::solver::{Kind, Pair, Prepared, Substep, limit_row, motor_row, positive, spring_row};
use super::{Ang, Motor, Spring, check_motor, check_point, check_range, check_spring};
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A prismatic joint: a slider along an axis (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct PrismaticJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A point on the axis, in the world frame as the bodies stand when the joint is added.
    pub anchor: Point<N, D>,
    /// The direction of sliding, in the world frame: finite and not zero (it is normalised).
    pub axis: Vector<N, D>,
    /// The range of the translation along the axis (m), lower end first; `None`: free.
    pub limit: Option<[N; 2]>,
    /// A motor along the axis (speed in m/s, force in N).
    pub motor: Option<Motor<N>>,
    /// A spring that pulls the translation back to zero.
    pub spring: Option<Spring<N>>,
}

impl<N: Scalar, const D: usize> PrismaticJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A free slider along `axis` through `anchor` (world frame).
    pub fn new(anchor: Point<N, D>, axis: Vector<N, D>) -> Self {
        Self { anchor, axis, limit: None, motor: None, spring: None }
    }

    /// Limits the translation to `[lower, upper]` (m).
    pub fn limit(mut self, lower: N, upper: N) -> Self {
        self.limit = Some([lower, upper]);
        self
    }

    /// Adds a motor driving the relative speed along the axis to `speed` (m/s) with at most
    /// `max_force` (N).
    pub fn motor(mut self, speed: N, max_force: N) -> Self {
        self.motor = Some(Motor { speed, max_force });
        self
    }

    /// Adds a spring pulling the translation back to zero.
    pub fn spring(mut self, hertz: N, damping_ratio: N) -> Self {
        self.spring = Some(Spring { hertz, damping_ratio });
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_point("anchor", &self.anchor)?;
        if !self.axis.iter().all(|x| x.is_finite_value()) {
            return Err(WorldError::NonFinite("axis"));
        }
        let length = self.axis.iter().map(|x| x.to_f64() * x.to_f64()).sum::<f64>().sqrt();
        let min = N::EPSILON.to_f64().sqrt();
        if length.is_nan() || length < min {
            let (value, max) = (length, f64::MAX);
            return Err(WorldError::OutOfRange { what: "axis length", value, min, max });
        }
        self.validate_controls()
    }

    /// The limit, motor and spring checked.
    pub(crate) fn validate_controls(&self) -> Result<(), WorldError> {
        let limits = WorldLimits::<N>::new();
        if let Some(limit) = self.limit {
            let max = limits.max_coordinate;
            check_range("translation limit", limit, -max, max)?;
        }
        if let Some(m) = &self.motor {
            check_motor(m, limits.max_linear_speed)?;
        }
        if let Some(s) = &self.spring {
            check_spring(s)?;
        }
        Ok(())
    }
}

/// A row along the unit direction `t` (world), with A's arm `arm_a` (from its centre to the
/// point under B's anchor) and B's arm `pair.r_b`.
struct Row<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    t: Vector<N, D>,
    arm_a: Ang<N, D>,
    arm_b: Ang<N, D>,
    turn_a: Ang<N, D>,
    turn_b: Ang<N, D>,
    mass: N,
}

impl<N: Scalar, const D: usize> Row<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    fn new(j: &Prepared<N, D>, pair: &Pair<N, D>, r_a: &Vector<N, D>, t: Vector<N, D>) -> Self {
        let arm_a = Dim::<D>::cross(r_a, &t);
        let arm_b = Dim::<D>::cross(&pair.r_b, &t);
        let turn_a = Dim::<D>::apply_inertia(&j.i_a, &arm_a);
        let turn_b = Dim::<D>::apply_inertia(&j.i_b, &arm_b);
        let k = j.m_a
            + j.m_b
            + Dim::<D>::angular_dot(&arm_a, &turn_a)
            + Dim::<D>::angular_dot(&arm_b, &turn_b);
        let mass = if positive(k) { N::one() / k } else { N::zero() };
        Self { t, arm_a, arm_b, turn_a, turn_b, mass }
    }

    /// The relative velocity along the row.
    fn rate(&self, pair: &Pair<N, D>) -> N {
        self.t.dot(&(pair.b.v - pair.a.v)) + Dim::<D>::angular_dot(&self.arm_b, &pair.b.w)
            - Dim::<D>::angular_dot(&self.arm_a, &pair.a.w)
    }

    /// Applies an impulse along the row.
    fn push(&self, j: &Prepared<N, D>, pair: &mut Pair<N, D>, impulse: N) {
        pair.a.v -= self.t * (j.m_a * impulse);
        pair.a.w -= self.turn_a * impulse;
        pair.b.v += self.t * (j.m_b * impulse);
        pair.b.w += self.turn_b * impulse;
    }
}

/// One pass over a prismatic joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Prismatic { limit, motor, spring } = j.kind else { return };
    let (q_a, q_b) = j.rotations(pair);
    let axis = Dim::<D>::rotate(&q_a, &j.slide_a);
    let d = j.anchor_separation(pair);
    let r_a = pair.r_a + d;
    let along = Along { limit, motor: motor.as_ref(), spring };
    solve_along(j, pair, &r_a, &axis, &d, &along, step);
    let error = j.angle_error(&q_a, &q_b);
    j.solve_angular_lock(pair, &error, step);
    solve_across(j, pair, &r_a, &axis, &d, step);
}

/// The rows along a sliding axis: a limit on the translation, a motor, a spring.
pub(super) struct Along<'a, N> {
    pub(super) limit: Option<[N; 2]>,
    pub(super) motor: Option<&'a Motor<N>>,
    pub(super) spring: bool,
}

/// Solves the rows `along` the unit `axis` (world), for the anchors' separation `d` and A's
/// arm `r_a` to the point under B's anchor.
#[inline(always)]
pub(super) fn solve_along<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    r_a: &Vector<N, D>,
    axis: &Vector<N, D>,
    d: &Vector<N, D>,
    along: &Along<'_, N>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    if along.limit.is_none() && along.motor.is_none() && !along.spring {
        return;
    }
    let row = Row::new(j, pair, r_a, *axis);
    let translation = axis.dot(d);
    if along.spring {
        let (cdot, acc) = (row.rate(pair), &mut j.impulses.spring);
        let impulse = spring_row(translation, cdot, row.mass, acc, &j.spring);
        row.push(j, pair, impulse);
    }
    if let Some(m) = along.motor {
        let (cdot, acc) = (row.rate(pair), &mut j.impulses.motor);
        let impulse = motor_row(cdot, row.mass, m, acc, step.h);
        row.push(j, pair, impulse);
    }
    if let Some([lower, upper]) = along.limit {
        let soft = j.soft;
        let c = translation - lower;
        let impulse = limit_row(c, row.rate(pair), row.mass, &mut j.impulses.lower, &soft, step);
        row.push(j, pair, impulse);
        let c = upper - translation;
        let impulse = limit_row(c, -row.rate(pair), row.mass, &mut j.impulses.upper, &soft, step);
        row.push(j, pair, -impulse);
    }
}

/// Solves the rows across the unit `axis` (one in 2D, two in 3D) that keep B's anchor on it.
#[inline(always)]
pub(super) fn solve_across<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    r_a: &Vector<N, D>,
    axis: &Vector<N, D>,
    d: &Vector<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let (rate, mass_scale, impulse_scale) = j.hold(step);
    for t in Dim::<D>::tangents(axis) {
        // 2D has one direction across the axis; its second tangent is zero.
        if !positive(t.norm_squared()) {
            continue;
        }
        let row = Row::new(j, pair, r_a, t);
        let bias = if step.use_bias { rate * t.dot(d) } else { N::zero() };
        let old = t.dot(&j.impulses.linear);
        let impulse = -mass_scale * row.mass * (row.rate(pair) + bias) - impulse_scale * old;
        j.impulses.linear += t * impulse;
        row.push(j, pair, impulse);
    }
}
