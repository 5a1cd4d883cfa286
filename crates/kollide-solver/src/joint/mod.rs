//! Joints: constraints between two bodies, solved in the soft step alongside the contacts.
//!
//! A joint removes some of the relative motion of two bodies: a [`RevoluteJoint`] keeps one
//! point of each body together and lets them turn about an axis (2D: the axis out of the
//! plane; 3D: a hinge), a [`SphericalJoint`] keeps the point together and lets them turn freely,
//! a [`WeldJoint`] (a *fixed* joint in 3D) removes all relative motion, a [`PrismaticJoint`]
//! lets them slide along an axis without turning, a [`WheelJoint`] holds a wheel spinning on a
//! sprung suspension, and a [`DistanceJoint`]
//! keeps two points at a distance (a rod), within a range (a rope), or pulls them there with a
//! spring. A [`MotorJoint`] drives B towards a pose relative to A with a bounded force and
//! torque, and a [`MouseJoint`] drags a point of B towards a target on a spring. Revolute and
//! prismatic joints can have a limit, a motor and a spring; distance joints a spring and a
//! length range; spherical joints (3D) a cone limit.
//!
//! **The soft step.** Every row of a joint is solved as the contacts are (see
//! `contact_solver.rs`): Erin Catto's soft step (Solver2D, Box2D v3). The joints are prepared
//! once per step (anchors relative to the centres of mass, masses, softness); in each substep
//! their accumulated impulses are applied (warm start), each row is solved with a soft
//! position bias, and after the positions are integrated each row is solved again without bias
//! (relax), which removes the velocity the bias added. A row that keeps something together
//! (the point of a revolute joint, the angle of a weld) is a stiff spring-damper with the
//! joint's [`constraint_hertz`](JointDesc#structfield.constraint_hertz) (capped at a quarter
//! of the substep rate) and damping ratio: for a position error `C` and relative velocity
//! `Ċ`, the impulse is `λ = −s_m K⁻¹ (Ċ + b C) − s_i λ_acc`, where `b`, `s_m` and `s_i` are the
//! bias rate, mass scale and impulse scale of the soft constraint and `K` is the row's
//! effective mass matrix. A limit is one-sided: while it is not reached, it only removes the
//! velocity that would cross it within the substep (a *speculative* limit, bias `C / h`), and
//! its accumulated impulse never pulls. A motor drives the relative speed to its target with an
//! impulse clamped to `max_force · h`, and a spring is the same soft row with the user's
//! stiffness and no clamp.
//!
//! **Position errors without new geometry.** As with the contacts, each substep's error is
//! computed from the bodies' motion since the start of the step (`Δp`, `ΔR` in the solver's
//! body state), and the anchors are rotated with the bodies: `r = ΔR r₀`,
//! `C = (Δp_B − Δp_A) + (r_B − r_A) + (c_B − c_A)₀`.
//!
//! **Order and threads.** The joints are solved in a fixed order before the contacts of each
//! pass, on one thread, between barriers: the result does not depend on the number of threads
//! the contacts are solved on. The order is by greedy colour (computed in slot order), so that
//! consecutive joints seldom share a body and the processor can overlap them, as Box2D v3
//! solves its joints by graph colour.
//!
//! **2D and 3D.** The rows are written once over [`SolverDim`]: a point lock is a `D × D`
//! system, an angular lock has one row in 2D and three in 3D, and a hinge's two rows
//! perpendicular to its axis exist only in 3D (in 2D there is no rotation out of the plane).
//!
//! **Bad input.** [`crate::World::add_joint`] and the joint setters check every number (finite,
//! in range, a limit's lower bound not above its upper bound, a unit axis) and both bodies (they
//! exist and are different); a refused request leaves the world bit for bit as it was.

mod distance;
pub(crate) mod edit;
mod motor;
mod mouse;
mod prismatic;
mod revolute;
pub(crate) mod solver;
mod spherical;
mod weld;
mod wheel;

use kollide_math::{Point, Scalar, Vector};

pub use distance::DistanceJoint;
pub use motor::MotorJoint;
pub use mouse::MouseJoint;
pub use prismatic::PrismaticJoint;
pub use revolute::RevoluteJoint;
pub use spherical::{ConeLimit, SphericalJoint};
pub use weld::WeldJoint;
pub use wheel::WheelJoint;

use crate::{BodyHandle, Dim, SolverDim, WorldError, WorldLimits};

type Ang<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Angular;
type Rot<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Rotation;
/// The pose type of `D` dimensions ([`kollide_math::Iso2`] or [`kollide_math::Iso3`]).
pub type PoseOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Pose;

/// A handle to a joint in a [`crate::World`]: an index plus a generation, so that a handle to a
/// removed joint is detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JointHandle {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl JointHandle {
    /// The slot index (stable while the joint lives; reused after removal).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The generation of the slot when the joint was added.
    pub fn generation(&self) -> u32 {
        self.generation
    }
}

/// A motor: drives the relative speed of a joint (rad/s for a revolute joint) to `speed`
/// with at most `max_force` (N·m for a revolute joint).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor<N> {
    /// The target relative speed: finite, at most the world's largest angular speed
    /// ([`WorldLimits::max_angular_speed`]) in magnitude.
    pub speed: N,
    /// The largest torque (or force) the motor applies, finite and `≥ 0`.
    pub max_force: N,
}

/// A spring: a soft row with stiffness `hertz` (its natural frequency, `≥ 0`; zero turns the
/// spring off) and `damping_ratio` (`≥ 0`; 1 is critical damping).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring<N> {
    /// Natural frequency (Hz), finite and `≥ 0`.
    pub hertz: N,
    /// Damping ratio, in `[0, WorldLimits::max_damping_ratio]`.
    pub damping_ratio: N,
}

/// What a joint does (see the module docs of each kind).
#[derive(Clone, Debug, PartialEq)]
pub enum JointKind<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A point shared by both bodies, turning about an axis.
    Revolute(RevoluteJoint<N, D>),
    /// Two points at a distance, within a range, or pulled by a spring.
    Distance(DistanceJoint<N, D>),
    /// No relative motion at all (a fixed joint).
    Weld(WeldJoint<N, D>),
    /// A point shared by both bodies, turning freely (a ball-and-socket joint).
    Spherical(SphericalJoint<N, D>),
    /// Sliding along an axis without turning.
    Prismatic(PrismaticJoint<N, D>),
    /// A wheel spinning about an axis on a sprung suspension.
    Wheel(WheelJoint<N, D>),
    /// B driven towards a pose relative to A with a bounded force and torque.
    Motor(MotorJoint<N, D>),
    /// A point of B dragged towards a target on a spring.
    Mouse(MouseJoint<N, D>),
}

/// `From<TheJoint>` for [`JointKind`], one line per kind.
macro_rules! joint_kind_from {
    ($($joint:ident => $variant:ident),* $(,)?) => {$(
        impl<N: Scalar, const D: usize> From<$joint<N, D>> for JointKind<N, D>
        where
            Dim<D>: SolverDim<N, D>,
        {
            fn from(j: $joint<N, D>) -> Self {
                Self::$variant(j)
            }
        }
    )*};
}

joint_kind_from!(
    RevoluteJoint => Revolute,
    DistanceJoint => Distance,
    WeldJoint => Weld,
    SphericalJoint => Spherical,
    PrismaticJoint => Prismatic,
    WheelJoint => Wheel,
    MotorJoint => Motor,
    MouseJoint => Mouse,
);

/// A joint to add to a world ([`crate::World::add_joint`]). Anchors and axes are given in the
/// world frame, as the bodies stand when the joint is added; the world keeps them in the
/// bodies' frames from then on.
#[derive(Clone, Debug, PartialEq)]
pub struct JointDesc<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The first body.
    pub body_a: BodyHandle,
    /// The second body (not the first).
    pub body_b: BodyHandle,
    /// What the joint does.
    pub kind: JointKind<N, D>,
    /// Let the two bodies touch each other. Default: `false` (as in Box2D), so that the shapes
    /// of a chain's links may overlap at their hinges.
    pub collide_connected: bool,
    /// The stiffness (Hz) of the rows that hold the joint together, finite and `≥ 0`, capped
    /// at a quarter of the substep rate. Default: 60 (Box2D v3's).
    pub constraint_hertz: N,
    /// Their damping ratio, in `[0, WorldLimits::max_damping_ratio]`. Default: 2 (Box2D v3's;
    /// overdamped, so a joint pulled apart closes without ringing).
    pub constraint_damping_ratio: N,
}

impl<N: Scalar, const D: usize> JointDesc<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// A joint of this kind between two bodies, with the defaults.
    pub fn new(body_a: BodyHandle, body_b: BodyHandle, kind: impl Into<JointKind<N, D>>) -> Self {
        Self {
            body_a,
            body_b,
            kind: kind.into(),
            collide_connected: false,
            constraint_hertz: N::lit(60.0),
            constraint_damping_ratio: N::lit(2.0),
        }
    }

    /// Sets [`collide_connected`](JointDesc#structfield.collide_connected).
    pub fn collide_connected(mut self, collide: bool) -> Self {
        self.collide_connected = collide;
        self
    }

    /// Sets the stiffness and damping ratio of the rows that hold the joint together.
    pub fn constraint_softness(mut self, hertz: N, damping_ratio: N) -> Self {
        self.constraint_hertz = hertz;
        self.constraint_damping_ratio = damping_ratio;
        self
    }

    /// Checks every number against its range (see the fields of the kinds), without the
    /// bodies.
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        let limits = WorldLimits::<N>::new();
        WorldLimits::check("constraint hertz", self.constraint_hertz, N::zero(), N::MAX)?;
        WorldLimits::check(
            "constraint damping ratio",
            self.constraint_damping_ratio,
            N::zero(),
            limits.max_damping_ratio,
        )?;
        match &self.kind {
            JointKind::Revolute(j) => j.validate(),
            JointKind::Distance(j) => j.validate(),
            JointKind::Weld(j) => check_point("anchor", &j.anchor),
            JointKind::Spherical(j) => j.validate(),
            JointKind::Prismatic(j) => j.validate(),
            JointKind::Wheel(j) => j.validate(),
            JointKind::Motor(j) => j.validate(),
            JointKind::Mouse(j) => j.validate(),
        }
    }
}

/// A point checked against the envelope: each coordinate finite and at most
/// [`WorldLimits::max_coordinate`] in magnitude.
pub(crate) fn check_point<N: Scalar, const D: usize>(
    what: &'static str,
    p: &Point<N, D>,
) -> Result<(), WorldError> {
    let max = WorldLimits::<N>::new().max_coordinate;
    for x in p.iter() {
        WorldLimits::check(what, *x, -max, max)?;
    }
    Ok(())
}

/// A pose checked against the envelope, as a body's is.
pub(crate) fn check_pose<N: Scalar, const D: usize>(pose: &PoseOf<N, D>) -> Result<(), WorldError>
where
    Dim<D>: SolverDim<N, D>,
{
    crate::body::checked_pose::<N, D>(pose, &WorldLimits::new()).map(|_| ())
}

/// A motor checked: a finite speed within `max_speed`, a finite force `≥ 0`.
pub(crate) fn check_motor<N: Scalar>(m: &Motor<N>, max_speed: N) -> Result<(), WorldError> {
    WorldLimits::check("motor speed", m.speed, -max_speed, max_speed)?;
    WorldLimits::check("motor max force", m.max_force, N::zero(), N::MAX)
}

/// A spring checked: finite hertz `≥ 0`, a damping ratio in range.
pub(crate) fn check_spring<N: Scalar>(s: &Spring<N>) -> Result<(), WorldError> {
    WorldLimits::check("spring hertz", s.hertz, N::zero(), N::MAX)?;
    let max = WorldLimits::<N>::new().max_damping_ratio;
    WorldLimits::check("spring damping ratio", s.damping_ratio, N::zero(), max)
}

/// A range checked: both ends finite and in `[min, max]`, the lower not above the upper.
pub(crate) fn check_range<N: Scalar>(
    what: &'static str,
    [lower, upper]: [N; 2],
    min: N,
    max: N,
) -> Result<(), WorldError> {
    WorldLimits::check(what, lower, min, max)?;
    WorldLimits::check(what, upper, min, max)?;
    if lower > upper {
        return Err(WorldError::BadRange { what, lower: lower.to_f64(), upper: upper.to_f64() });
    }
    Ok(())
}

/// The impulses a joint accumulated (kept from step to step for warm starting).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Impulses<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The point lock's impulse (N·s).
    pub(crate) linear: Vector<N, D>,
    /// The angular lock's (weld) or the hinge's perpendicular rows' angular impulse.
    pub(crate) angular: Ang<N, D>,
    /// The rigid row of a distance joint.
    pub(crate) axial: N,
    /// Spring, motor, lower and upper limit rows.
    pub(crate) spring: N,
    pub(crate) motor: N,
    pub(crate) lower: N,
    pub(crate) upper: N,
}

impl<N: Scalar, const D: usize> Impulses<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) fn zero() -> Self {
        let z = N::zero();
        Self {
            linear: Vector::zeros(),
            angular: Dim::<D>::angular_zero(),
            axial: z,
            spring: z,
            motor: z,
            lower: z,
            upper: z,
        }
    }
}

/// A joint's geometry in the bodies' frames, fixed when it was added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LocalFrames<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The anchors, in each body's frame (from its origin).
    pub(crate) anchor_a: Vector<N, D>,
    pub(crate) anchor_b: Vector<N, D>,
    /// `q_A⁻¹ q_B` when the joint was added: the relative rotation the angular rows hold.
    pub(crate) reference: Rot<N, D>,
    /// The axis (revolute), a unit angular direction in each body's frame.
    pub(crate) axis_a: Ang<N, D>,
    pub(crate) axis_b: Ang<N, D>,
    /// The rest length (distance joint; zero for the others).
    pub(crate) length: N,
    /// The direction of sliding (prismatic), a unit vector in A's frame.
    pub(crate) slide_a: Vector<N, D>,
}

/// A joint in a world. Read it with [`crate::World::joint`].
#[derive(Clone, Debug, PartialEq)]
pub struct Joint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) desc: JointDesc<N, D>,
    pub(crate) frames: LocalFrames<N, D>,
    pub(crate) impulses: Impulses<N, D>,
}

impl<N: Scalar, const D: usize> Joint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The description it was added with (limits, motor and spring as last set).
    pub fn desc(&self) -> &JointDesc<N, D> {
        &self.desc
    }

    /// The first body.
    pub fn body_a(&self) -> BodyHandle {
        self.desc.body_a
    }

    /// The second body.
    pub fn body_b(&self) -> BodyHandle {
        self.desc.body_b
    }

    /// What the joint does.
    pub fn kind(&self) -> &JointKind<N, D> {
        &self.desc.kind
    }

    /// The impulse (N·s) the point lock applied to body B over the last step (zero for a
    /// distance joint); divide by the step for the force.
    pub fn linear_impulse(&self) -> Vector<N, D> {
        self.impulses.linear
    }

    /// The motor's impulse over the last step (N·m·s for a revolute joint).
    pub fn motor_impulse(&self) -> N {
        self.impulses.motor
    }

    /// The anchor on body A, in A's frame (from its origin).
    pub fn local_anchor_a(&self) -> Point<N, D> {
        Point::from(self.frames.anchor_a)
    }

    /// The anchor on body B, in B's frame (from its origin).
    pub fn local_anchor_b(&self) -> Point<N, D> {
        Point::from(self.frames.anchor_b)
    }
}
