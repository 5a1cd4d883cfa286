//! [`StepSettings`]: the knobs of a world step, with defaults after Box2D v3.

use kollide_math::Scalar;

use crate::{WorldError, WorldLimits};

/// Settings of [`crate::World::step`].
///
/// A world takes settings only through [`crate::World::set_settings`], which refuses any that
/// [`StepSettings::validate`] refuses (and then changes nothing): every number finite and in the
/// range given on its field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepSettings<N> {
    /// Substeps per step, in `[1, WorldLimits::max_substeps]`. Each substep integrates velocities, warm starts, solves with the soft
    /// bias, integrates positions and relaxes without bias.
    pub substeps: u32,
    /// Contact stiffness in hertz, `≥ 0` (capped at a quarter of the substep rate; zero turns
    /// the soft push-out off). Stiffer contacts sag
    /// less under load (the sag goes as `g/ω²`), but a tall pile rocks more: with 4 substeps,
    /// Box2D's 100-row pyramid sways about ±0.1 m at 32 Hz, ±0.15 m at 40–50 Hz and slides apart
    /// at 60 Hz. The default, 32 Hz, sags a base-20 pyramid's boxes by at most 2.7 cm (Box2D
    /// v3 at its 30 Hz: 2.9 cm).
    pub contact_hertz: N,
    /// Contact damping ratio (dimensionless), in `[0, WorldLimits::max_damping_ratio]`. The static sag does not depend on it (the spring's
    /// stiffness is set by the hertz alone), but how a tall pile rocks while it settles does:
    /// Box2D's 100-row pyramid sways ±0.11 m at 10 (Box2D's value), ±0.08 m at 20 and ±0.06 m
    /// at the default, 30, against Box2D v3's ±0.07 m. The price is a slower push-out of deep
    /// overlap (at `2πf / (2ζ)` per second: 3.4/s at the defaults).
    pub contact_damping_ratio: N,
    /// The fastest speed (m/s) at which the soft contact pushes overlapping bodies apart, in
    /// `[0, WorldLimits::max_linear_speed]`.
    pub max_push_velocity: N,
    /// Overlap tolerated without correction (m), in `[0, WorldLimits::max_coordinate]`: the soft contact pushes only the overlap beyond
    /// it. The default is zero, because the soft contact's damping already keeps resting
    /// contacts quiet and every millimetre of slop is a millimetre a stack sinks per contact.
    pub linear_slop: N,
    /// Speculative margin (m), in `[0, WorldLimits::max_coordinate]`: contacts are created this far before bodies touch, so fast bodies
    /// are stopped in time. Each pair's margin also grows by its closing speed times the step.
    pub speculative_margin: N,
    /// Normal approach speeds below this (m/s, in `[0, WorldLimits::max_linear_speed]`) get no
    /// restitution (so resting bodies do not
    /// bounce).
    pub restitution_threshold: N,
    /// Apply last step's impulses at the start of this one.
    pub warm_starting: bool,
    /// Manifold reuse (m, in `[0, WorldLimits::max_coordinate]`), as Jolt's body-pair cache: a touching pair whose bodies have moved
    /// relative to each other by less than this since its manifold was computed (no point of B
    /// moved more, as seen from A) keeps that manifold, its points carried rigidly with the
    /// bodies and its separations recomputed along the normal, instead of running the
    /// narrowphase again. The tolerance used is also at most 1% of the smaller body's bounding
    /// radius. Zero turns reuse off.
    pub manifold_reuse_distance: N,
    /// Report contacts that begin and end ([`crate::Events::contact_begin`],
    /// [`crate::Events::contact_end`]). Off by default: finding them costs a walk over every
    /// pair per step. Sensor events are always reported.
    pub contact_events: bool,
    /// Report contacts whose bodies approached faster than this (m/s, in
    /// `[0, WorldLimits::max_linear_speed]`) and pushed ([`crate::Events::hits`]). `None`, the
    /// default, reports none.
    pub hit_event_threshold: Option<N>,
    /// Continuous collision: after each step, bullets and bodies that moved more than a
    /// fraction of their size are swept against static and kinematic bodies and moved back to
    /// the time of impact (see the `step/continuous.rs` module docs). On by default; turning it
    /// off lets fast bodies tunnel through thin static geometry.
    pub continuous: bool,
    /// Orders a 2D world's contacts by graph colouring, as 3D worlds always do, instead of in
    /// pair-order waves (see the `step/colouring.rs` module docs). Pair-order waves are the
    /// contacts solved in pair order, which lets a tall pile settle with less sway (Box2D's
    /// 100-row pyramid: at most 0.05 m at the apex, against 0.13 m with colours), but their
    /// waves hold a few dozen contacts each, too few to share between threads: only with
    /// colours does a 2D step's solver run on [`crate::World::set_threads`] threads. Off by
    /// default; either way the results do not depend on the thread count.
    pub colour_2d: bool,
    /// Sleeping (see the `island.rs` module docs): an island of dynamic bodies linked by
    /// contacts and joints whose bodies have all been slower than the sleep speeds for
    /// [`StepSettings::time_to_sleep`] falls asleep, and costs almost nothing per step until
    /// something wakes it. On by default, as in Box2D v3; turning it off wakes every body.
    pub sleeping: bool,
    /// A body is still enough to fall asleep below this speed (m/s, in
    /// `[0, WorldLimits::max_linear_speed]`) of its centre of mass.
    pub sleep_linear_speed: N,
    /// ... and below this angular speed (rad/s, in `[0, WorldLimits::max_angular_speed]`).
    pub sleep_angular_speed: N,
    /// How long (s, in `[0, WorldLimits::max_time_to_sleep]`) every body of an island must have
    /// been still before the island falls asleep.
    pub time_to_sleep: N,
}

impl<N: Scalar> StepSettings<N> {
    /// The defaults: 4 substeps, 32 Hz contacts with damping ratio 30, push-out at most 3 m/s,
    /// no slop, 4 cm speculative margin, restitution above 1 m/s, warm starting on, manifolds
    /// reused within 1 mm of relative motion, no contact or hit events, continuous collision on,
    /// 2D contacts in pair-order waves, sleeping on below 5 cm/s and 0.05 rad/s for half a second
    /// (Box2D v3's speed threshold and time).
    pub fn new() -> Self {
        Self {
            substeps: 4,
            contact_hertz: N::lit(32.0),
            contact_damping_ratio: N::lit(30.0),
            max_push_velocity: N::lit(3.0),
            linear_slop: N::lit(0.0),
            speculative_margin: N::lit(0.04),
            restitution_threshold: N::lit(1.0),
            warm_starting: true,
            manifold_reuse_distance: N::lit(1e-3),
            contact_events: false,
            hit_event_threshold: None,
            continuous: true,
            colour_2d: false,
            sleeping: true,
            sleep_linear_speed: N::lit(0.05),
            sleep_angular_speed: N::lit(0.05),
            time_to_sleep: N::lit(0.5),
        }
    }

    /// Checks every field against its range (see the fields and [`WorldLimits`]); the first
    /// field out of range is named in the error.
    pub fn validate(&self) -> Result<(), WorldError> {
        let limits = WorldLimits::<N>::new();
        let max_substeps = limits.max_substeps;
        if !(1..=max_substeps).contains(&self.substeps) {
            return Err(WorldError::OutOfRange {
                what: "substeps",
                value: f64::from(self.substeps),
                min: 1.0,
                max: f64::from(max_substeps),
            });
        }
        let zero = N::zero();
        let ranges = [
            ("contact hertz", self.contact_hertz, N::MAX),
            ("contact damping ratio", self.contact_damping_ratio, limits.max_damping_ratio),
            ("max push velocity", self.max_push_velocity, limits.max_linear_speed),
            ("linear slop", self.linear_slop, limits.max_coordinate),
            ("speculative margin", self.speculative_margin, limits.max_coordinate),
            ("restitution threshold", self.restitution_threshold, limits.max_linear_speed),
            ("manifold reuse distance", self.manifold_reuse_distance, limits.max_coordinate),
            ("sleep linear speed", self.sleep_linear_speed, limits.max_linear_speed),
            ("sleep angular speed", self.sleep_angular_speed, limits.max_angular_speed),
            ("time to sleep", self.time_to_sleep, limits.max_time_to_sleep),
        ];
        for (what, v, max) in ranges {
            WorldLimits::check(what, v, zero, max)?;
        }
        if let Some(v) = self.hit_event_threshold {
            WorldLimits::check("hit event threshold", v, zero, limits.max_linear_speed)?;
        }
        Ok(())
    }
}

impl<N: Scalar> Default for StepSettings<N> {
    fn default() -> Self {
        Self::new()
    }
}
