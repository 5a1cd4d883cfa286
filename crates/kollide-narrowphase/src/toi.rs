//! Time of impact of two convex shapes that move and turn: conservative advancement.
//!
//! A [`Sweep`] is a body's motion over an interval, rescaled to `t ∈ [0, 1]`: its centre of mass
//! moves on a straight line and the body turns about it at a constant rate (about a fixed axis
//! in 3D). [`time_of_impact`] finds the first `t` at which two swept shapes come within a
//! *target separation* of each other, so that a caller moving the bodies there leaves them
//! slightly apart (a speculative contact then takes over), never overlapping.
//!
//! **Conservative advancement** (Mirtich, "Timewarp rigid body simulation", SIGGRAPH 2000, and
//! his thesis, 1996; Erin Catto, "Continuous Collision", GDC 2013). At the current `t`, GJK gives
//! the distance `d` and the unit normal `n` from A to B. The gap of the two shapes along the
//! *fixed* direction `n`,
//!
//! `g(s) = min_{x ∈ B(s)} x·n − max_{y ∈ A(s)} y·n`,
//!
//! is a lower bound on their distance at every `s` (a separating slab is never wider than the
//! distance), and `g(t) = d`. Over the sweep the centre of mass of B moves by `Δc_B` and every
//! point of B turns about it by at most `θ_B r_B` (`θ` the sweep's total turn, `r` the largest
//! distance of a point of the shape from its centre of mass), likewise for A, so `g` shrinks at
//! most at the rate
//!
//! `μ = (Δc_A − Δc_B)·n + θ_A r_A + θ_B r_B`.
//!
//! Hence the shapes stay at least `target` apart until `t + (d − target)/μ`: advance to there and
//! repeat. The iteration stops with a hit once `d ≤ target + tolerance`, and with "separated"
//! when `μ ≤ 0` (nothing brings them closer along `n`) or the next step would pass `t = 1`. Every
//! `t` visited is *safe* (the shapes are at least `target` apart up to it), so the answer never
//! lies beyond the true time of impact, and a run stopped by the iteration cap still returns a
//! safe `t` with its own status ([`ToiStatus::Failed`]), never a silent "no hit".
//!
//! For pure translation and flat features facing each other the bound is exact and one step
//! lands on the answer; rotation makes it pessimistic (the `θ r` terms), and the steps shorten
//! as the shapes close in, converging linearly. Box2D v3's `b2TimeOfImpact` advances faster on
//! a separating axis with root finding; the plain bound is kept here because every step of it is
//! provably safe.

use kollide_math::{Iso2, Iso3, Point, Pose, Rot2, Rot3, Scalar, Vec3, Vector};
use kollide_shapes::SupportMap;

use crate::{QuerySettings, ShapeContact, closest_points};

/// A pose that can be turned by a rotation vector: what a [`Sweep`] needs beyond [`Pose`].
/// Implemented by [`Iso2`] (the turn is an angle) and [`Iso3`] (the turn is an axis times an
/// angle).
pub trait SweepPose<N: Scalar, const D: usize>: Pose<N, D> {
    /// A rotation vector: an angle (rad) in 2D, the axis times the angle in 3D.
    type Turn: Copy + core::fmt::Debug + PartialEq + Send + Sync + 'static;
    /// No rotation.
    fn turn_zero() -> Self::Turn;
    /// The shortest turn (angle at most π) that takes the rotation of `from` to that of `to`,
    /// in world axes.
    fn turn_between(from: &Self, to: &Self) -> Self::Turn;
    /// The angle of a turn (rad, `≥ 0`).
    fn turn_angle(turn: &Self::Turn) -> N;
    /// `true` when every number of the turn is finite.
    fn turn_is_finite(turn: &Self::Turn) -> bool;
    /// This pose with its rotation turned by `t · turn` (in world axes, applied after it); the
    /// translation is left as it is.
    fn turned(&self, turn: &Self::Turn, t: N) -> Self;
}

impl<N: Scalar> SweepPose<N, 2> for Iso2<N> {
    type Turn = N;
    fn turn_zero() -> N {
        N::zero()
    }
    fn turn_between(from: &Self, to: &Self) -> N {
        (to.rotation * from.rotation.inverse()).angle()
    }
    fn turn_angle(turn: &N) -> N {
        turn.abs()
    }
    fn turn_is_finite(turn: &N) -> bool {
        turn.is_finite_value()
    }
    fn turned(&self, turn: &N, t: N) -> Self {
        Iso2::from_parts(self.translation, Rot2::new(*turn * t) * self.rotation)
    }
}

impl<N: Scalar> SweepPose<N, 3> for Iso3<N> {
    type Turn = Vec3<N>;
    fn turn_zero() -> Vec3<N> {
        Vec3::zeros()
    }
    fn turn_between(from: &Self, to: &Self) -> Vec3<N> {
        let q = to.rotation * from.rotation.inverse();
        // `q` and `−q` are the same rotation; the one with `w ≥ 0` turns by at most π.
        let q = if q.w < N::zero() { Rot3::new_unchecked(-q.into_inner()) } else { q };
        q.scaled_axis()
    }
    fn turn_angle(turn: &Vec3<N>) -> N {
        turn.norm()
    }
    fn turn_is_finite(turn: &Vec3<N>) -> bool {
        turn.iter().all(|x| x.is_finite_value())
    }
    fn turned(&self, turn: &Vec3<N>, t: N) -> Self {
        Iso3::from_parts(self.translation, Rot3::from_scaled_axis(*turn * t) * self.rotation)
    }
}

/// The motion of a body over `t ∈ [0, 1]`: its centre of mass moves by `translation` on a
/// straight line, and the body turns by `turn` about it at a constant rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep<N: Scalar, const D: usize, P: SweepPose<N, D>> {
    /// The pose at `t = 0` (it places the shape's local frame).
    pub start: P,
    /// The centre of mass in the shape's local frame.
    pub local_center: Point<N, D>,
    /// How far the centre of mass moves over the sweep (world).
    pub translation: Vector<N, D>,
    /// How far the body turns about its centre of mass over the sweep (world axes); may exceed
    /// a half turn.
    pub turn: P::Turn,
}

impl<N: Scalar, const D: usize, P: SweepPose<N, D>> Sweep<N, D, P> {
    /// A body that stays at `pose`.
    pub fn fixed(pose: P) -> Self {
        Self {
            start: pose,
            local_center: Point::origin(),
            translation: Vector::zeros(),
            turn: P::turn_zero(),
        }
    }

    /// The motion from `start` to `end` with the centre of mass at `local_center`: the centre
    /// on a straight line, and the shortest turn between the two rotations (at most a half
    /// turn; build the sweep from its fields for more).
    pub fn between(start: P, end: P, local_center: Point<N, D>) -> Self {
        let c0 = start.transform_point(&local_center);
        let c1 = end.transform_point(&local_center);
        Self { start, local_center, translation: c1 - c0, turn: P::turn_between(&start, &end) }
    }

    /// A pure translation by `translation`.
    pub fn translation(start: P, translation: Vector<N, D>) -> Self {
        Self { start, local_center: Point::origin(), translation, turn: P::turn_zero() }
    }

    /// The pose at `t` (`t = 0` gives `start`).
    pub fn pose_at(&self, t: N) -> P {
        if t == N::zero() {
            return self.start;
        }
        let c = self.start.transform_point(&self.local_center) + self.translation * t;
        let turned = self.start.turned(&self.turn, t);
        turned.translated(&(c - turned.transform_point(&self.local_center)))
    }

    /// `true` when every number of the sweep is finite.
    pub fn is_finite(&self) -> bool {
        self.start.is_finite()
            && self.local_center.coords.iter().all(|x| x.is_finite_value())
            && self.translation.iter().all(|x| x.is_finite_value())
            && P::turn_is_finite(&self.turn)
    }

    /// An upper bound on how fast (per unit `t`) a point of `shape` moves relative to the
    /// centre of mass as it turns: the turn angle times the farthest point's distance from it.
    fn spin_speed<S: SupportMap<N, D> + ?Sized>(&self, shape: &S) -> N {
        let reach = shape.bounding_radius() + self.local_center.coords.norm();
        P::turn_angle(&self.turn) * reach
    }
}

/// How [`time_of_impact`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToiStatus {
    /// The shapes come within `target + tolerance` of each other at `t`, and are at least
    /// `target` apart (up to the distance query's accuracy) over `[0, t]`.
    Hit,
    /// The shapes stay farther than `target` apart over the whole sweep (`t = 1`).
    Separated,
    /// At `t = 0` the shapes are already within `target + tolerance` of each other (touching,
    /// or overlapping when the separation is negative): `t = 0`.
    Overlapping,
    /// The iteration cap was reached first: `t` is the last safe time found (the shapes are at
    /// least `target` apart over `[0, t]`), but the hit may lie anywhere after it.
    Failed,
    /// A sweep that is not finite, or a `target` or `tolerance` that is negative or not finite
    /// (a zero tolerance too): nothing was computed, `t = 0`.
    BadInput,
}

/// The answer of [`time_of_impact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi<N: Scalar, const D: usize> {
    /// How the search ended (see [`ToiStatus`] for what `t` means in each case).
    pub status: ToiStatus,
    /// The time of impact in `[0, 1]`.
    pub t: N,
    /// The closest points, normal (from A to B) and separation of the last distance query:
    /// at `t` for a hit, an overlap or a failure; at the last time looked at when separated.
    /// `None` for bad input.
    pub contact: Option<ShapeContact<N, D>>,
    /// The number of distance queries run.
    pub iterations: u32,
}

/// The first time `t ∈ [0, 1]` at which shape `a` on `sweep_a` and shape `b` on `sweep_b` come
/// within `target` (+ `tolerance`) of each other, by conservative advancement (see the module
/// docs). The iteration cap is [`QuerySettings::cast_max_iterations`].
///
/// `target` (`≥ 0`) is the separation to stop at, so that bodies moved to `t` are left slightly
/// apart; `tolerance` (`> 0`) is how much farther than `target` counts as arrived.
///
/// ```
/// use kollide_math::{Iso2, Vec2};
/// use kollide_shapes::{Circle, Cuboid};
/// use kollide_narrowphase::{QuerySettings, Sweep, ToiStatus, time_of_impact};
/// let wall = Cuboid::new(Vec2::new(0.05f64, 5.0)).unwrap();
/// let ball = Circle::new(0.1f64).unwrap();
/// // The ball moves 10 m to the right in one step; the wall's face is 5 m away from its surface.
/// let still = Sweep::fixed(Iso2::identity());
/// let fast = Sweep::translation(Iso2::translation(-5.15, 0.0), Vec2::new(10.0, 0.0));
/// let toi = time_of_impact(&wall, &still, &ball, &fast, 0.01, 0.001, &QuerySettings::default());
/// assert_eq!(toi.status, ToiStatus::Hit);
/// assert!((toi.t - 0.499).abs() < 1e-4);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn time_of_impact<N, const D: usize, P, A, B>(
    a: &A,
    sweep_a: &Sweep<N, D, P>,
    b: &B,
    sweep_b: &Sweep<N, D, P>,
    target: N,
    tolerance: N,
    settings: &QuerySettings<N>,
) -> Toi<N, D>
where
    N: Scalar,
    P: SweepPose<N, D>,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
{
    let valid = sweep_a.is_finite()
        && sweep_b.is_finite()
        && target.is_finite_value()
        && target >= N::zero()
        && tolerance.is_finite_value()
        && tolerance > N::zero();
    if !valid {
        return Toi { status: ToiStatus::BadInput, t: N::zero(), contact: None, iterations: 0 };
    }
    let closing = sweep_a.translation - sweep_b.translation;
    let spin = sweep_a.spin_speed(a) + sweep_b.spin_speed(b);
    let mut t = N::zero();
    let mut iterations = 0;
    while iterations < settings.cast_max_iterations.max(1) {
        iterations += 1;
        let c = closest_points(&sweep_a.pose_at(t), a, &sweep_b.pose_at(t), b, settings);
        let answer = |status, t| Toi { status, t, contact: Some(c), iterations };
        if !c.separation.is_finite_value() {
            return answer(ToiStatus::Failed, t);
        }
        if c.separation <= target + tolerance {
            let status = if t == N::zero() { ToiStatus::Overlapping } else { ToiStatus::Hit };
            return answer(status, t);
        }
        // The fastest rate at which the gap along this normal can shrink.
        let rate = closing.dot(&c.normal) + spin;
        if rate <= N::zero() {
            return answer(ToiStatus::Separated, N::one());
        }
        let step = (c.separation - target) / rate;
        if t + step >= N::one() {
            return answer(ToiStatus::Separated, N::one());
        }
        t += step;
    }
    // Out of iterations: `t` is still safe (each step was), so the caller may move there.
    let c = closest_points(&sweep_a.pose_at(t), a, &sweep_b.pose_at(t), b, settings);
    Toi { status: ToiStatus::Failed, t, contact: Some(c), iterations }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Iso3, Vec2, Vec3};

    #[test]
    fn a_sweep_reaches_its_end_pose_in_both_dimensions() {
        let lc2 = Point::from(Vec2::new(0.3_f64, -0.2));
        let (s2, e2) = (Iso2::new(Vec2::new(1.0, 2.0), 0.4), Iso2::new(Vec2::new(-3.0, 5.0), 2.9));
        let sw = Sweep::between(s2, e2, lc2);
        let p = sw.pose_at(1.0);
        assert!((p.translation.vector - e2.translation.vector).norm() < 1e-12);
        assert!((p.rotation.angle() - e2.rotation.angle()).abs() < 1e-12);
        assert_eq!(sw.pose_at(0.0), s2);
        let lc3 = Point::from(Vec3::new(0.3_f64, -0.2, 0.1));
        let s3 = Iso3::new(Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.4, -0.3, 0.2));
        let e3 = Iso3::new(Vec3::new(-1.0, 0.0, 4.0), Vec3::new(-2.0, 1.0, 0.5));
        let sw = Sweep::between(s3, e3, lc3);
        let p = sw.pose_at(1.0);
        assert!((p.translation.vector - e3.translation.vector).norm() < 1e-12);
        assert!(p.rotation.angle_to(&e3.rotation) < 1e-12);
        // The centre of mass moves on a straight line.
        let mid = sw.pose_at(0.5).transform_point(&lc3);
        let ends = (s3.transform_point(&lc3).coords + e3.transform_point(&lc3).coords) * 0.5;
        assert!((mid.coords - ends).norm() < 1e-12);
    }
}
