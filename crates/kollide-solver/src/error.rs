//! [`WorldError`]: why the world refused a request. A refused request changes nothing.

use kollide_shapes::ShapeError;
use thiserror::Error;

/// The reasons a [`crate::World`] refuses a body, a setting, a time step or a handle. The
/// limits named in the messages are those of [`crate::WorldLimits`].
#[derive(Clone, Debug, PartialEq, Error)]
pub enum WorldError {
    /// A number of the request is NaN or infinite.
    #[error("{0} is not finite")]
    NonFinite(&'static str),
    /// A number is outside the world's envelope ([`crate::WorldLimits`]): a density, friction,
    /// restitution, damping or gravity scale out of its range, a position, speed or gravity
    /// beyond its largest magnitude (then `value` is the magnitude and `min` is zero), or a
    /// setting out of its range.
    #[error("{what} is out of range: {value} is not in [{min}, {max}]")]
    OutOfRange {
        /// Which quantity.
        what: &'static str,
        /// The value given (for vectors, their length).
        value: f64,
        /// The smallest value accepted.
        min: f64,
        /// The largest value accepted.
        max: f64,
    },
    /// A pose's rotation is not of unit length within
    /// [`crate::WorldLimits::rotation_tolerance`] (a zero or badly scaled quaternion in 3D,
    /// complex number in 2D).
    #[error("rotation is not unit length: its length is {length}")]
    NonUnitRotation {
        /// The length of the rotation's quaternion (3D) or complex number (2D).
        length: f64,
    },
    /// The shape cannot give a dynamic body mass (for example a segment), or its mass
    /// properties at the body's density are not finite.
    #[error("the shape cannot be dynamic: {0}")]
    Shape(#[from] ShapeError),
    /// Forces, torques and impulses act only on dynamic bodies, and kinematic targets only on
    /// kinematic ones: the body named is of another kind.
    #[error("the body is {actual:?}; this needs a {needed:?} body")]
    WrongKind {
        /// The kind the request needs.
        needed: crate::BodyKind,
        /// The body's kind.
        actual: crate::BodyKind,
    },
    /// The handle names a body that was removed (or never existed).
    #[error("stale or invalid body handle")]
    StaleHandle,
    /// The handle names a joint that was removed (or never existed); a joint goes with
    /// either of its bodies.
    #[error("stale or invalid joint handle")]
    StaleJoint,
    /// A joint needs two different bodies.
    #[error("a joint cannot connect a body to itself")]
    SameBody,
    /// A range (a joint limit, a length range) whose lower end is above its upper end.
    #[error("{what}: the lower end {lower} is above the upper end {upper}")]
    BadRange {
        /// Which range.
        what: &'static str,
        /// The lower end given.
        lower: f64,
        /// The upper end given.
        upper: f64,
    },
    /// The joint has no such part (a motor on a weld joint, a limit on a spherical joint).
    #[error("this kind of joint has no {0}")]
    NotInJoint(&'static str),
    /// A body cannot be put to sleep ([`crate::World::sleep`]): sleeping is off in the
    /// settings, or a body of its island may not sleep ([`crate::BodyDesc::can_sleep`]).
    #[error("cannot sleep: {0}")]
    CannotSleep(&'static str),
    /// The time step is not finite or not in
    /// [[`min_time_step`](crate::WorldLimits::min_time_step),
    /// [`max_time_step`](crate::WorldLimits::max_time_step)].
    #[error("time step must be finite and in [min_time_step, max_time_step], got {0}")]
    BadTimeStep(f64),
}
