//! Changing a body in a [`World`]: teleporting it, pushing it (forces, torques, impulses),
//! steering a kinematic body to a target pose, and setting its properties.
//!
//! Every call checks its input as [`World::add`] checks a description (against
//! [`WorldLimits`]); a refused call returns a [`WorldError`] and leaves the world bit for bit as
//! it was. Forces and torques act during the next step only (Box2D's rule): they add up until
//! then, and the step clears them. Impulses change the velocities at once.
//!
//! Every change that can move something wakes what it may move (see `sleep.rs`): a change to a
//! dynamic body wakes its island; a teleport, new collision groups or a sensor flag also wake
//! the bodies the body touches; a change to a static or kinematic body wakes the bodies it
//! touches. The user data and hit thresholds move nothing and wake nothing.

use kollide_math::{Point, Scalar, Vector};

use crate::body::{Load, check_velocities, checked_pose};
use crate::{
    Body, BodyHandle, BodyKind, CollisionGroups, Dim, SolverDim, World, WorldError, WorldLimits,
};

type PoseOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Pose;
type AngularOf<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Angular;

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The body behind a handle, to change.
    fn body_mut(&mut self, h: BodyHandle) -> Result<&mut Body<N, D>, WorldError> {
        self.body(h)?;
        self.slots[h.index as usize].body.as_mut().ok_or(WorldError::StaleHandle)
    }

    /// The body behind a handle, which must be of kind `needed`.
    fn body_of_kind(
        &mut self,
        h: BodyHandle,
        needed: BodyKind,
    ) -> Result<&mut Body<N, D>, WorldError> {
        let body = self.body_mut(h)?;
        if body.desc.kind != needed {
            return Err(WorldError::WrongKind { needed, actual: body.desc.kind });
        }
        Ok(body)
    }

    /// Changes a body's description, validated (see [`Body::with_desc`]).
    fn edit(
        &mut self,
        h: BodyHandle,
        change: impl FnOnce(&mut crate::BodyDesc<N, D>),
    ) -> Result<(), WorldError> {
        let changed = self.body(h)?.with_desc(change)?;
        *self.body_mut(h)? = changed;
        // The contacts' friction and restitution are mixed from the bodies' when coloured.
        self.colouring.forget();
        self.disturb(h.index);
        Ok(())
    }

    /// Places a body at `pose` (a teleport: its velocities are kept, and the scene queries see
    /// it there at once). A pose outside the envelope (not finite, a coordinate beyond
    /// [`WorldLimits::max_coordinate`], a rotation not of unit length) is refused.
    pub fn set_pose(&mut self, h: BodyHandle, pose: PoseOf<N, D>) -> Result<(), WorldError> {
        self.body(h)?;
        let pose = checked_pose::<N, D>(&pose, &WorldLimits::new())?;
        self.body_mut(h)?.desc.pose = pose;
        if let Some(body) = &self.slots[h.index as usize].body {
            self.broadphase.teleported(h.index, body, self.settings().speculative_margin);
        }
        self.disturb_around(h.index);
        Ok(())
    }

    /// Sets a kinematic body's target: the next step gives it the velocity that takes it from
    /// its pose to `pose` in that step (within the speed limits) and leaves it there, with that
    /// velocity (so set a target every step to follow a path, or the velocity to zero to stop).
    /// A pose outside the envelope, or a body that is not kinematic, is refused.
    pub fn set_kinematic_target(
        &mut self,
        h: BodyHandle,
        pose: PoseOf<N, D>,
    ) -> Result<(), WorldError> {
        self.body_of_kind(h, BodyKind::Kinematic)?;
        let pose = checked_pose::<N, D>(&pose, &WorldLimits::new())?;
        let body = self.body_mut(h)?;
        if body.target.replace(pose).is_none() {
            self.targeted.push(h.index);
        }
        self.disturb(h.index);
        Ok(())
    }

    /// Adds a force (N) at the centre of mass of a dynamic body, for the next step.
    /// See [`World::apply_force_at`].
    pub fn apply_force(&mut self, h: BodyHandle, force: Vector<N, D>) -> Result<(), WorldError> {
        self.add_load(h, force, Dim::<D>::angular_zero())
    }

    /// Adds a force (N) at a point in the world, for the next step: the force at the centre of
    /// mass and the torque `(point − centre) × force`. The forces and torques on a body add up
    /// until the step; one that is not finite, or a total that would speed the body up by more
    /// than [`WorldLimits::max_linear_speed`] (or [`WorldLimits::max_angular_speed`]) in a
    /// second, is refused. Only dynamic bodies take forces.
    pub fn apply_force_at(
        &mut self,
        h: BodyHandle,
        force: Vector<N, D>,
        point: Point<N, D>,
    ) -> Result<(), WorldError> {
        let r = point - self.body(h)?.center_of_mass();
        self.add_load(h, force, Dim::<D>::cross(&r, &force))
    }

    /// Adds a torque (N·m) to a dynamic body, for the next step (see
    /// [`World::apply_force_at`]).
    pub fn apply_torque(
        &mut self,
        h: BodyHandle,
        torque: AngularOf<N, D>,
    ) -> Result<(), WorldError> {
        self.add_load(h, Vector::zeros(), torque)
    }

    fn add_load(
        &mut self,
        h: BodyHandle,
        force: Vector<N, D>,
        torque: AngularOf<N, D>,
    ) -> Result<(), WorldError> {
        let body = self.body_of_kind(h, BodyKind::Dynamic)?;
        let limits = WorldLimits::<N>::new();
        let old =
            body.load.unwrap_or(Load { force: Vector::zeros(), torque: Dim::<D>::angular_zero() });
        let load = Load { force: old.force + force, torque: old.torque + torque };
        let (dv, dw) = velocity_change(body, &load.force, &load.torque);
        WorldLimits::check_vector("force", &load.force, N::MAX)?;
        if !Dim::<D>::angular_is_finite(&load.torque) {
            return Err(WorldError::NonFinite("torque"));
        }
        WorldLimits::check_vector("acceleration", &dv, limits.max_linear_speed)?;
        if !Dim::<D>::angular_is_finite(&dw) {
            return Err(WorldError::NonFinite("angular acceleration"));
        }
        let spin = Dim::<D>::angular_length(&dw);
        WorldLimits::check_norm("angular acceleration", spin, limits.max_angular_speed)?;
        if body.load.replace(load).is_none() {
            self.loaded.push(h.index);
        }
        self.disturb(h.index);
        Ok(())
    }

    /// Applies an impulse (N·s) at the centre of mass of a dynamic body: its velocity changes
    /// at once. See [`World::apply_impulse_at`].
    pub fn apply_impulse(
        &mut self,
        h: BodyHandle,
        impulse: Vector<N, D>,
    ) -> Result<(), WorldError> {
        self.kick(h, impulse, Dim::<D>::angular_zero())
    }

    /// Applies an impulse (N·s) at a point in the world to a dynamic body: its linear and
    /// angular velocities change at once. An impulse that is not finite, or that would take
    /// the body beyond the speed limits ([`WorldLimits::max_linear_speed`],
    /// [`WorldLimits::max_angular_speed`]), is refused.
    pub fn apply_impulse_at(
        &mut self,
        h: BodyHandle,
        impulse: Vector<N, D>,
        point: Point<N, D>,
    ) -> Result<(), WorldError> {
        let r = point - self.body(h)?.center_of_mass();
        self.kick(h, impulse, Dim::<D>::cross(&r, &impulse))
    }

    /// Applies an angular impulse (N·m·s) to a dynamic body (see [`World::apply_impulse_at`]).
    pub fn apply_angular_impulse(
        &mut self,
        h: BodyHandle,
        impulse: AngularOf<N, D>,
    ) -> Result<(), WorldError> {
        self.kick(h, Vector::zeros(), impulse)
    }

    fn kick(
        &mut self,
        h: BodyHandle,
        impulse: Vector<N, D>,
        angular: AngularOf<N, D>,
    ) -> Result<(), WorldError> {
        let body = self.body_of_kind(h, BodyKind::Dynamic)?;
        WorldLimits::check_vector("impulse", &impulse, N::MAX)?;
        if !Dim::<D>::angular_is_finite(&angular) {
            return Err(WorldError::NonFinite("angular impulse"));
        }
        let (dv, dw) = velocity_change(body, &impulse, &angular);
        let v = body.desc.linear_velocity + dv;
        let w = body.desc.angular_velocity + dw;
        check_velocities::<N, D>(&v, &w, &WorldLimits::new())?;
        body.desc.linear_velocity = v;
        body.desc.angular_velocity = w;
        self.disturb(h.index);
        Ok(())
    }

    /// Sets a body's friction coefficient, in `[0, WorldLimits::max_friction]`.
    pub fn set_friction(&mut self, h: BodyHandle, friction: N) -> Result<(), WorldError> {
        self.edit(h, |d| d.friction = friction)
    }

    /// Sets a body's restitution, in `[0, 1]`.
    pub fn set_restitution(&mut self, h: BodyHandle, restitution: N) -> Result<(), WorldError> {
        self.edit(h, |d| d.restitution = restitution)
    }

    /// Sets a body's linear and angular damping (1/s), each in
    /// `[0, WorldLimits::max_damping]`.
    pub fn set_damping(&mut self, h: BodyHandle, linear: N, angular: N) -> Result<(), WorldError> {
        self.edit(h, |d| {
            d.linear_damping = linear;
            d.angular_damping = angular;
        })
    }

    /// Sets a body's gravity scale, at most [`WorldLimits::max_gravity_scale`] in magnitude.
    pub fn set_gravity_scale(&mut self, h: BodyHandle, scale: N) -> Result<(), WorldError> {
        self.edit(h, |d| d.gravity_scale = scale)
    }

    /// Sets a body's density, in [[`WorldLimits::min_density`],
    /// [`WorldLimits::max_density`]], and recomputes its mass and inertia (its velocities are
    /// kept). A density whose mass properties are not finite is refused.
    pub fn set_density(&mut self, h: BodyHandle, density: N) -> Result<(), WorldError> {
        self.edit(h, |d| d.density = density)
    }

    /// Sets a body's collision groups (every pair of masks is valid). Contacts that its new
    /// groups rule out end at the next step.
    pub fn set_collision_groups(
        &mut self,
        h: BodyHandle,
        groups: CollisionGroups,
    ) -> Result<(), WorldError> {
        self.body_mut(h)?.desc.collision_groups = groups;
        self.broadphase.regrouped(h.index, groups);
        self.disturb_around(h.index);
        Ok(())
    }

    /// Gives a body a hit-event threshold of its own (m/s, in
    /// `[0, WorldLimits::max_linear_speed]`), or `None` to take the world's again
    /// ([`crate::StepSettings::hit_event_threshold`], the default). A contact reports a hit
    /// when its bodies approach faster than the lower of their two thresholds, so a body with
    /// its own reports hits even when the world reports none (see [`crate::HitEvent`]). A
    /// threshold out of range or not finite is refused.
    pub fn set_hit_event_threshold(
        &mut self,
        h: BodyHandle,
        threshold: Option<N>,
    ) -> Result<(), WorldError> {
        self.body(h)?;
        if let Some(v) = threshold {
            let max = WorldLimits::<N>::new().max_linear_speed;
            WorldLimits::check("hit event threshold", v, N::zero(), max)?;
        }
        let body = self.body_mut(h)?;
        let had = body.hit_threshold.is_some();
        body.hit_threshold = threshold;
        self.hit_thresholds =
            self.hit_thresholds - usize::from(had) + usize::from(threshold.is_some());
        Ok(())
    }

    /// Makes a body a sensor or a solid body from the next step on (see
    /// [`BodyDesc::sensor`](crate::BodyDesc#structfield.sensor)). Its events stay paired, as if
    /// the body had been removed and added back in the other role: a body that becomes a sensor
    /// ends its contacts (end events in the next step's events, when contact events are on) and
    /// begins overlapping what it overlaps; a sensor that becomes solid ends its overlaps (end
    /// events in the next step's events) and begins the contacts it touches. Setting the flag a
    /// body already has changes nothing.
    pub fn set_sensor(&mut self, h: BodyHandle, sensor: bool) -> Result<(), WorldError> {
        let body = self.body_mut(h)?;
        let was = core::mem::replace(&mut body.desc.sensor, sensor);
        self.sensors = self.sensors - usize::from(was) + usize::from(sensor);
        self.disturb_around(h.index);
        Ok(())
    }

    /// Sets a body's user data.
    pub fn set_user_data(&mut self, h: BodyHandle, data: u128) -> Result<(), WorldError> {
        self.body_mut(h)?.desc.user_data = data;
        Ok(())
    }
}

/// The changes of a body's velocities that an impulse and an angular impulse cause (or, per
/// second, a force and a torque): `p / m` and `I⁻¹ L`, the inertia in world axes.
fn velocity_change<N: Scalar, const D: usize>(
    body: &Body<N, D>,
    linear: &Vector<N, D>,
    angular: &AngularOf<N, D>,
) -> (Vector<N, D>, AngularOf<N, D>)
where
    Dim<D>: SolverDim<N, D>,
{
    let rot = Dim::<D>::rotation(&body.desc.pose);
    let inv_inertia = Dim::<D>::world_inverse_inertia(&body.inv_inertia_local, &rot);
    (linear * body.inv_mass, Dim::<D>::apply_inertia(&inv_inertia, angular))
}
