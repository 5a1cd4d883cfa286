//! [`DistanceJoint`]: two points, one on each body, kept at a distance. Without a spring it is
//! a rigid rod: one soft row along the line between the anchors that holds its length. With a
//! spring it pulls the length towards its rest length at the spring's stiffness, and two
//! one-sided limit rows keep it inside `[min, max]` (a spring of zero hertz is a rope that is
//! free inside the range). The rows act along `n = d / |d|`, `d` the anchors' separation, with
//! the effective mass `1 / (m_A⁻¹ + m_B⁻¹ + (r_A × n)·I_A⁻¹(r_A × n) + (r_B × n)·I_B⁻¹(r_B × n))`
//! (after Box2D v3's distance joint).

use kollide_math::{Point, Scalar, Vector};

use super::solver::{Kind, Pair, Prepared, Substep, limit_row, positive, spring_row};
use super::{Spring, check_point, check_range, check_spring};
use crate::{Dim, SolverDim, WorldError, WorldLimits};

/// A distance joint (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceJoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The anchor on body A, in the world frame as the bodies stand when the joint is added.
    pub anchor_a: Point<N, D>,
    /// The anchor on body B, likewise.
    pub anchor_b: Point<N, D>,
    /// The rest length (m), in `[0, WorldLimits::max_coordinate]`; `None`: the anchors'
    /// distance when the joint is added.
    pub length: Option<N>,
    /// With a spring: the range the length stays in, `[min, max]`, `0 ≤ min ≤ max`. Default:
    /// `[0, N::MAX]`.
    pub range: [N; 2],
    /// A spring towards the rest length; `None`: a rigid rod (the range is not used).
    pub spring: Option<Spring<N>>,
}

impl<N: Scalar, const D: usize> DistanceJoint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A rigid rod between `anchor_a` and `anchor_b` (world frame), of their distance.
    pub fn new(anchor_a: Point<N, D>, anchor_b: Point<N, D>) -> Self {
        Self { anchor_a, anchor_b, length: None, range: [N::zero(), N::MAX], spring: None }
    }

    /// Sets the rest length.
    pub fn length(mut self, length: N) -> Self {
        self.length = Some(length);
        self
    }

    /// Sets the range of lengths (used with a spring).
    pub fn range(mut self, min: N, max: N) -> Self {
        self.range = [min, max];
        self
    }

    /// Adds a spring towards the rest length (zero hertz: a rope, free inside the range).
    pub fn spring(mut self, hertz: N, damping_ratio: N) -> Self {
        self.spring = Some(Spring { hertz, damping_ratio });
        self
    }

    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_point("anchor a", &self.anchor_a)?;
        check_point("anchor b", &self.anchor_b)?;
        if let Some(length) = self.length {
            let max = WorldLimits::<N>::new().max_coordinate;
            WorldLimits::check("length", length, N::zero(), max)?;
        }
        self.validate_controls()
    }

    /// The range and spring checked.
    pub(crate) fn validate_controls(&self) -> Result<(), WorldError> {
        check_range("length range", self.range, N::zero(), N::MAX)?;
        if let Some(s) = &self.spring {
            check_spring(s)?;
        }
        Ok(())
    }
}

/// One pass over a distance joint's rows.
#[inline(always)]
pub(super) fn solve<N: Scalar, const D: usize>(
    j: &mut Prepared<N, D>,
    pair: &mut Pair<N, D>,
    step: &Substep<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Kind::Distance { min, max, spring, rigid } = j.kind else { return };
    let d = j.anchor_separation(pair);
    let length = d.norm();
    if !positive(length) {
        return;
    }
    let n = d / length;
    let arm_a = Dim::<D>::cross(&pair.r_a, &n);
    let arm_b = Dim::<D>::cross(&pair.r_b, &n);
    let k = j.m_a
        + j.m_b
        + Dim::<D>::angular_dot(&arm_a, &Dim::<D>::apply_inertia(&j.i_a, &arm_a))
        + Dim::<D>::angular_dot(&arm_b, &Dim::<D>::apply_inertia(&j.i_b, &arm_b));
    if !positive(k) {
        return;
    }
    let mass = N::one() / k;
    let zero = Dim::<D>::angular_zero();
    let rate = |j: &Prepared<N, D>, p: &Pair<N, D>| j.anchor_velocity(p).dot(&n);
    let push = |j: &Prepared<N, D>, p: &mut Pair<N, D>, impulse: N| {
        let v: Vector<N, D> = n * impulse;
        j.apply(p, &v, &zero);
    };
    if rigid {
        let (bias_rate, mass_scale, impulse_scale) = j.hold(step);
        let c = length - j.length;
        let bias = if step.use_bias { bias_rate * c } else { N::zero() };
        let impulse =
            -mass_scale * mass * (rate(j, pair) + bias) - impulse_scale * j.impulses.axial;
        j.impulses.axial += impulse;
        push(j, pair, impulse);
        return;
    }
    if spring {
        let cdot = rate(j, pair);
        let impulse = spring_row(length - j.length, cdot, mass, &mut j.impulses.spring, &j.spring);
        push(j, pair, impulse);
    }
    if min > N::zero() {
        let cdot = rate(j, pair);
        let soft = j.soft;
        let impulse = limit_row(length - min, cdot, mass, &mut j.impulses.lower, &soft, step);
        push(j, pair, impulse);
    }
    if max < N::MAX {
        let cdot = rate(j, pair);
        let soft = j.soft;
        let impulse = limit_row(max - length, -cdot, mass, &mut j.impulses.upper, &soft, step);
        push(j, pair, -impulse);
    }
}
