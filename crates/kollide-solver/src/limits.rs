//! [`WorldLimits`]: the input envelope of a world, one table per scalar type.
//!
//! Everything a world accepts (body descriptions, velocities, gravity, step settings, time
//! steps) is checked against this table, and anything outside it is refused with a
//! [`WorldError`] before the world changes. The numbers are chosen so that accepted input
//! cannot overflow what the step derives from it: squared speeds (the closing speed of a pair),
//! impulses (`mass · speed`), inertias (`density · size⁵` in 3D) and their inverses all stay
//! finite and normal in the scalar type, with room for a body to gain speed and travel over
//! many steps. Sizes and coordinates of shapes have their own envelope, checked when the shape
//! is built (`kollide_shapes`).
//!
//! | limit | `f32` | `f64` |
//! |---|---|---|
//! | [`max_coordinate`](WorldLimits::max_coordinate) (m, each pose coordinate) | `1e5` | `1e10` |
//! | [`max_linear_speed`](WorldLimits::max_linear_speed) (m/s) | `1e5` | `1e8` |
//! | [`max_angular_speed`](WorldLimits::max_angular_speed) (rad/s) | `1e4` | `1e6` |
//! | [`min_density`](WorldLimits::min_density), [`max_density`](WorldLimits::max_density) | `1e-6`, `1e6` | `1e-12`, `1e12` |
//! | [`max_gravity`](WorldLimits::max_gravity) (m/s²) | `1e4` | `1e6` |
//! | [`max_gravity_scale`](WorldLimits::max_gravity_scale) | `100` | `100` |
//! | [`min_time_step`](WorldLimits::min_time_step), [`max_time_step`](WorldLimits::max_time_step) (s) | `1e-6`, `1` | `1e-9`, `1` |
//! | [`max_substeps`](WorldLimits::max_substeps) | `64` | `64` |
//! | [`max_threads`](WorldLimits::max_threads) | `256` | `256` |
//! | [`max_time_to_sleep`](WorldLimits::max_time_to_sleep) (s) | `1e6` | `1e6` |
//! | [`max_friction`](WorldLimits::max_friction) | `1000` | `1000` |
//! | [`max_restitution`](WorldLimits::max_restitution) | `1` | `1` |
//! | [`max_damping`](WorldLimits::max_damping) (1/s) | `1e6` | `1e6` |
//! | [`max_damping_ratio`](WorldLimits::max_damping_ratio) | `1e6` | `1e6` |
//! | [`rotation_tolerance`](WorldLimits::rotation_tolerance) (`‖q‖ − 1`) | `3.5e-4` | `1.5e-8` |
//!
//! Why these: a bullet at 2,000 m/s is well inside the speed limit, and a spinning `f32` body of
//! the largest shape size (`1e5` m) at the largest angular speed has a surface speed of `1e9`
//! m/s, whose square (`1e18`) is still below `f32`'s overflow of squares (`1.8e19`). The densities
//! keep a `1e5` m box's inertia (`≈ density · 5e25`) and a `1 mm` box's inverse inertia inside
//! `f32`'s normal range. Restitution above 1 would add energy at every bounce until the speeds
//! overflow, so it is refused. A rotation is a unit quaternion (3D) or unit complex number (2D);
//! one within the tolerance of unit length (a few ulps off, as integration or another library
//! hands it over) is accepted and renormalised, anything else (zero, NaN, clearly not unit) is
//! refused.

use kollide_math::{Scalar, Vector};

use crate::WorldError;

/// The envelope of what a world of scalar type `N` accepts (see the module docs for the table
/// and the reasons). Read it with [`WorldLimits::new`]; the world checks against it, and
/// changing a copy changes nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldLimits<N> {
    /// The largest magnitude of each coordinate of a body's position (m).
    pub max_coordinate: N,
    /// The largest linear speed a body may be given (m/s), and the largest push-out speed and
    /// restitution threshold of the settings.
    pub max_linear_speed: N,
    /// The largest angular speed a body may be given (rad/s). During a step a dynamic body
    /// also turns by at most a quarter turn per substep (`π / (4h)` rad/s for a substep `h`:
    /// 188 rad/s at 60 Hz with 4 substeps), as in Box2D.
    pub max_angular_speed: N,
    /// The smallest density of a dynamic body (kg/m² in 2D, kg/m³ in 3D).
    pub min_density: N,
    /// The largest density of a dynamic body.
    pub max_density: N,
    /// The largest magnitude of the world's gravity (m/s²).
    pub max_gravity: N,
    /// The largest magnitude of a body's gravity scale.
    pub max_gravity_scale: N,
    /// The shortest time step (s).
    pub min_time_step: N,
    /// The longest time step (s).
    pub max_time_step: N,
    /// The most substeps per step (at least 1).
    pub max_substeps: u32,
    /// The most threads a step may use ([`crate::World::set_threads`]).
    pub max_threads: usize,
    /// The longest [`crate::StepSettings::time_to_sleep`] (s): about eleven days, long enough
    /// to mean "never" (to keep one body awake, use [`crate::BodyDesc::can_sleep`]).
    pub max_time_to_sleep: N,
    /// The largest friction coefficient.
    pub max_friction: N,
    /// The largest restitution (1: a perfectly elastic bounce).
    pub max_restitution: N,
    /// The largest linear or angular damping (1/s).
    pub max_damping: N,
    /// The largest contact damping ratio of the settings.
    pub max_damping_ratio: N,
    /// How far from 1 the length of a rotation's quaternion (3D) or complex number (2D) may be
    /// for the rotation to be accepted and renormalised: `sqrt(ε)` of the scalar type.
    pub rotation_tolerance: N,
}

/// `f32_value` for `f32`, `f64_value` for `f64`.
#[inline(always)]
fn pick<N: Scalar>(f32_value: f64, f64_value: f64) -> N {
    N::lit(if N::MANTISSA_BITS <= 24 { f32_value } else { f64_value })
}

/// [`WorldLimits::max_linear_speed`] and [`WorldLimits::max_angular_speed`], for the step's
/// velocity integration (which keeps dynamic bodies within them).
#[inline(always)]
pub(crate) fn max_speeds<N: Scalar>() -> (N, N) {
    (pick(1e5, 1e8), pick(1e4, 1e6))
}

impl<N: Scalar> WorldLimits<N> {
    /// The envelope of `N` (`f32` or `f64`).
    pub fn new() -> Self {
        let (max_linear_speed, max_angular_speed) = max_speeds::<N>();
        let pick = pick::<N>;
        Self {
            max_coordinate: pick(1e5, 1e10),
            max_linear_speed,
            max_angular_speed,
            min_density: pick(1e-6, 1e-12),
            max_density: pick(1e6, 1e12),
            max_gravity: pick(1e4, 1e6),
            max_gravity_scale: N::lit(100.0),
            min_time_step: pick(1e-6, 1e-9),
            max_time_step: N::one(),
            max_substeps: 64,
            max_threads: 256,
            max_time_to_sleep: N::lit(1e6),
            max_friction: N::lit(1000.0),
            max_restitution: N::one(),
            max_damping: N::lit(1e6),
            max_damping_ratio: N::lit(1e6),
            rotation_tolerance: N::EPSILON.sqrt(),
        }
    }

    /// `v` is finite and in `[min, max]`.
    pub(crate) fn check(what: &'static str, v: N, min: N, max: N) -> Result<(), WorldError> {
        if !v.is_finite_value() {
            return Err(WorldError::NonFinite(what));
        }
        if v < min || v > max {
            return Err(WorldError::OutOfRange {
                what,
                value: v.to_f64(),
                min: min.to_f64(),
                max: max.to_f64(),
            });
        }
        Ok(())
    }

    /// Every component of `v` is finite and its length is at most `max`.
    pub(crate) fn check_vector<const D: usize>(
        what: &'static str,
        v: &Vector<N, D>,
        max: N,
    ) -> Result<(), WorldError> {
        if !v.iter().all(|x| x.is_finite_value()) {
            return Err(WorldError::NonFinite(what));
        }
        // In f64, so that a finite f32 vector's length cannot overflow.
        let norm = v.iter().map(|x| x.to_f64() * x.to_f64()).sum::<f64>().sqrt();
        Self::check_norm(what, norm, max)
    }

    /// A length computed in `f64` is at most `max`.
    pub(crate) fn check_norm(what: &'static str, norm: f64, max: N) -> Result<(), WorldError> {
        if norm > max.to_f64() {
            return Err(WorldError::OutOfRange { what, value: norm, min: 0.0, max: max.to_f64() });
        }
        Ok(())
    }
}

impl<N: Scalar> Default for WorldLimits<N> {
    fn default() -> Self {
        Self::new()
    }
}
