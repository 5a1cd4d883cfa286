//! Bodies: what a user describes ([`BodyDesc`]) and what the world keeps ([`Body`]).
//!
//! A body carries one shape. Its pose places the shape (the body's local frame is the shape's);
//! its centre of mass comes from the shape and may differ from the local origin (a triangle).
//! Velocities are those of the centre of mass. Mass and inertia come from the shape and a
//! density; static and kinematic bodies have infinite mass (zero inverse mass).
//!
//! **Mixing rules:** a contact's friction is `sqrt(μA · μB)` and its restitution
//! `max(eA, eB)` (Box2D's rules).

use kollide_math::{Point, Pose, Scalar, Vector};

use crate::{CollisionGroups, Dim, SolverDim, WorldError, WorldLimits};

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyKind {
    /// Moved by gravity and contacts.
    Dynamic,
    /// Never moves.
    Static,
    /// Moves with the velocity it is given; contacts do not push it.
    Kinematic,
}

/// Everything needed to add a body to a world. Build it with [`BodyDesc::dynamic`],
/// [`BodyDesc::fixed`] or [`BodyDesc::kinematic`] and the builder methods.
///
/// A description is only a request: [`crate::World::add`] checks every field against the
/// world's envelope ([`WorldLimits`], one table per scalar type) and refuses what lies outside
/// it with a [`WorldError`], whatever the body's kind. The ranges are given on each field.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// How the body moves.
    pub kind: BodyKind,
    /// Its shape.
    pub shape: <Dim<D> as SolverDim<N, D>>::Shape,
    /// Its pose (places the shape's local frame in the world). Each coordinate of the position
    /// is at most [`WorldLimits::max_coordinate`] in magnitude; the rotation is of unit length
    /// within [`WorldLimits::rotation_tolerance`] (the world renormalises it).
    pub pose: <Dim<D> as SolverDim<N, D>>::Pose,
    /// Velocity of the centre of mass (m/s), at most [`WorldLimits::max_linear_speed`].
    pub linear_velocity: Vector<N, D>,
    /// Angular velocity (rad/s), at most [`WorldLimits::max_angular_speed`].
    pub angular_velocity: <Dim<D> as SolverDim<N, D>>::Angular,
    /// Density (kg/m² in 2D, kg/m³ in 3D), in [[`WorldLimits::min_density`],
    /// [`WorldLimits::max_density`]]; used by dynamic bodies.
    pub density: N,
    /// Coulomb friction coefficient, in `[0, WorldLimits::max_friction]`.
    pub friction: N,
    /// Restitution (bounciness), in `[0, 1]`: 0 does not bounce, 1 bounces back fully (more
    /// would add energy at every bounce).
    pub restitution: N,
    /// Linear damping (1/s), in `[0, WorldLimits::max_damping]`.
    pub linear_damping: N,
    /// Angular damping (1/s), in `[0, WorldLimits::max_damping]`.
    pub angular_damping: N,
    /// Multiplies the world's gravity for this body; at most
    /// [`WorldLimits::max_gravity_scale`] in magnitude.
    pub gravity_scale: N,
    /// The groups the body belongs to and interacts with: two bodies get contacts only when
    /// their groups interact ([`CollisionGroups::interacts`]), and a query sees the body only
    /// when the query's groups interact with them. Default: every group.
    pub collision_groups: CollisionGroups,
    /// A sensor reports the bodies that overlap it ([`crate::Events::sensor_begin`],
    /// [`crate::World::sensor_overlaps`]) and never touches anything: it gets no contacts and
    /// pushes nothing. A sensor sees dynamic bodies, and a dynamic sensor also sees static and
    /// kinematic ones; sensors do not see each other. Default: `false`.
    pub sensor: bool,
    /// A bullet is swept every step, however slowly it moves, against static and kinematic
    /// bodies and against the dynamic bodies that are not bullets (continuous collision; a
    /// dynamic body that is not a bullet is swept only when it moves more than a fraction of its
    /// size in a step, and only against static and kinematic bodies). Only a dynamic body can
    /// be a bullet ([`crate::World::add`] refuses others). Default: `false`.
    pub bullet: bool,
    /// Whatever the user wants to keep with the body (an entity id, an index); the world never
    /// reads it. Default: 0.
    pub user_data: u128,
    /// Whether the body may fall asleep (see [`crate::StepSettings::sleeping`]): a body that
    /// may not keeps its whole island awake. Default: `true`.
    pub can_sleep: bool,
}

impl<N: Scalar, const D: usize> BodyDesc<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    fn with_kind(kind: BodyKind, shape: <Dim<D> as SolverDim<N, D>>::Shape) -> Self {
        Self {
            kind,
            shape,
            pose: Pose::identity(),
            linear_velocity: Vector::zeros(),
            angular_velocity: Dim::<D>::angular_zero(),
            density: N::one(),
            friction: N::lit(0.6),
            restitution: N::zero(),
            linear_damping: N::zero(),
            angular_damping: N::zero(),
            gravity_scale: N::one(),
            collision_groups: CollisionGroups::ALL,
            sensor: false,
            bullet: false,
            user_data: 0,
            can_sleep: true,
        }
    }

    /// Lets the body fall asleep or keeps it (and its island) awake (see
    /// [`BodyDesc::can_sleep`](#structfield.can_sleep)).
    pub fn can_sleep(mut self, can_sleep: bool) -> Self {
        self.can_sleep = can_sleep;
        self
    }

    /// A dynamic body with density 1, friction 0.6, no restitution.
    pub fn dynamic(shape: impl Into<<Dim<D> as SolverDim<N, D>>::Shape>) -> Self {
        Self::with_kind(BodyKind::Dynamic, shape.into())
    }

    /// A static body (`static` is a keyword).
    pub fn fixed(shape: impl Into<<Dim<D> as SolverDim<N, D>>::Shape>) -> Self {
        Self::with_kind(BodyKind::Static, shape.into())
    }

    /// A kinematic body.
    pub fn kinematic(shape: impl Into<<Dim<D> as SolverDim<N, D>>::Shape>) -> Self {
        Self::with_kind(BodyKind::Kinematic, shape.into())
    }

    /// Sets the pose.
    pub fn pose(mut self, pose: <Dim<D> as SolverDim<N, D>>::Pose) -> Self {
        self.pose = pose;
        self
    }

    /// Sets the linear velocity.
    pub fn linear_velocity(mut self, v: Vector<N, D>) -> Self {
        self.linear_velocity = v;
        self
    }

    /// Sets the angular velocity.
    pub fn angular_velocity(mut self, w: <Dim<D> as SolverDim<N, D>>::Angular) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Sets the density.
    pub fn density(mut self, density: N) -> Self {
        self.density = density;
        self
    }

    /// Sets the friction coefficient.
    pub fn friction(mut self, friction: N) -> Self {
        self.friction = friction;
        self
    }

    /// Sets the restitution.
    pub fn restitution(mut self, restitution: N) -> Self {
        self.restitution = restitution;
        self
    }

    /// Sets linear and angular damping.
    pub fn damping(mut self, linear: N, angular: N) -> Self {
        self.linear_damping = linear;
        self.angular_damping = angular;
        self
    }

    /// Sets the collision groups (every pair of masks is valid).
    pub fn collision_groups(mut self, groups: CollisionGroups) -> Self {
        self.collision_groups = groups;
        self
    }

    /// Sets the gravity scale.
    pub fn gravity_scale(mut self, scale: N) -> Self {
        self.gravity_scale = scale;
        self
    }

    /// Makes the body a sensor (see [`BodyDesc::sensor`](BodyDesc#structfield.sensor)).
    pub fn sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// Makes the body a bullet (see [`BodyDesc::bullet`](BodyDesc#structfield.bullet)).
    pub fn bullet(mut self, bullet: bool) -> Self {
        self.bullet = bullet;
        self
    }

    /// Sets the user data.
    pub fn user_data(mut self, data: u128) -> Self {
        self.user_data = data;
        self
    }
}

/// A force and a torque to apply during the next step (see [`crate::World::apply_force`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Load<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) force: Vector<N, D>,
    pub(crate) torque: <Dim<D> as SolverDim<N, D>>::Angular,
}

/// A body in a world. Read it with [`crate::World::body`].
#[derive(Clone, Debug, PartialEq)]
pub struct Body<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) desc: BodyDesc<N, D>,
    pub(crate) mass: N,
    pub(crate) inv_mass: N,
    pub(crate) local_center: Point<N, D>,
    pub(crate) inv_inertia_local: <Dim<D> as SolverDim<N, D>>::Inertia,
    /// The shape's bounding radius (for warm-start matching), computed once.
    pub(crate) bounding_radius: N,
    /// Half the shape's smallest width along its local axes: a body that moves more than a
    /// fraction of it in a step is swept (continuous collision).
    pub(crate) min_extent: N,
    /// The largest distance of a point of the shape from the centre of mass (at most): how far
    /// a turn can move a point of the body.
    pub(crate) reach: N,
    /// The force and torque to apply during the next step (dynamic bodies), if any.
    pub(crate) load: Option<Load<N, D>>,
    /// The pose a kinematic body is to reach at the end of the next step, if any.
    pub(crate) target: Option<<Dim<D> as SolverDim<N, D>>::Pose>,
    /// The body's own hit threshold (m/s), if it has one (see
    /// [`crate::World::set_hit_event_threshold`]).
    pub(crate) hit_threshold: Option<N>,
    /// How long the body has been still enough to sleep (s; see `island.rs`).
    pub(crate) sleep_time: N,
    /// The sleeping island the body belongs to, or [`crate::island::AWAKE`].
    pub(crate) sleep_set: u32,
}

impl<N: Scalar, const D: usize> Body<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Validates a description against the world's envelope ([`WorldLimits`]), renormalises
    /// a rotation a few ulps off unit length, and computes the mass. Fails without side effects.
    pub(crate) fn new(mut desc: BodyDesc<N, D>) -> Result<Self, WorldError> {
        let limits = WorldLimits::<N>::new();
        desc.pose = checked_pose::<N, D>(&desc.pose, &limits)?;
        check_velocities::<N, D>(&desc.linear_velocity, &desc.angular_velocity, &limits)?;
        let zero = N::zero();
        let ranges = [
            ("friction", desc.friction, zero, limits.max_friction),
            ("restitution", desc.restitution, zero, limits.max_restitution),
            ("linear damping", desc.linear_damping, zero, limits.max_damping),
            ("angular damping", desc.angular_damping, zero, limits.max_damping),
            (
                "gravity scale",
                desc.gravity_scale,
                -limits.max_gravity_scale,
                limits.max_gravity_scale,
            ),
            ("density", desc.density, limits.min_density, limits.max_density),
        ];
        for (what, v, min, max) in ranges {
            WorldLimits::check(what, v, min, max)?;
        }
        if desc.bullet && desc.kind != BodyKind::Dynamic {
            return Err(WorldError::WrongKind { needed: BodyKind::Dynamic, actual: desc.kind });
        }
        let (mass, inv_mass, local_center, inv_inertia_local) = match desc.kind {
            BodyKind::Dynamic => {
                let m = Dim::<D>::mass(&desc.shape, desc.density)?;
                let inv_inertia = Dim::<D>::invert_inertia(&m.inertia);
                if !(m.mass.is_finite_value()
                    && m.mass > N::zero()
                    && (N::one() / m.mass).is_finite_value()
                    && Dim::<D>::inertia_is_finite(&m.inertia)
                    && Dim::<D>::inertia_is_finite(&inv_inertia))
                {
                    return Err(WorldError::NonFinite("mass"));
                }
                (m.mass, N::one() / m.mass, m.local_center, inv_inertia)
            }
            BodyKind::Static | BodyKind::Kinematic => {
                (N::zero(), N::zero(), Point::origin(), Dim::<D>::inertia_zero())
            }
        };
        let bounding_radius = Dim::<D>::bounding_radius(&desc.shape);
        let min_extent = Dim::<D>::min_half_width(&desc.shape);
        let reach = bounding_radius + local_center.coords.norm();
        Ok(Self {
            desc,
            mass,
            inv_mass,
            local_center,
            inv_inertia_local,
            bounding_radius,
            min_extent,
            reach,
            load: None,
            target: None,
            hit_threshold: None,
            sleep_time: N::zero(),
            sleep_set: crate::island::AWAKE,
        })
    }

    /// This body with its description changed by `change`: validated as [`crate::World::add`]
    /// validates a description and its mass recomputed, except that the pose and velocities,
    /// which `change` must leave alone, are kept bit for bit (a body may have moved beyond
    /// the envelope, which applies to what is handed in). Fails without side effects.
    pub(crate) fn with_desc(
        &self,
        change: impl FnOnce(&mut BodyDesc<N, D>),
    ) -> Result<Self, WorldError> {
        let mut desc = self.desc.clone();
        change(&mut desc);
        desc.pose = Pose::identity();
        desc.linear_velocity = Vector::zeros();
        desc.angular_velocity = Dim::<D>::angular_zero();
        let mut body = Self::new(desc)?;
        body.desc.pose = self.desc.pose;
        body.desc.linear_velocity = self.desc.linear_velocity;
        body.desc.angular_velocity = self.desc.angular_velocity;
        body.load = self.load;
        body.target = self.target;
        body.hit_threshold = self.hit_threshold;
        body.sleep_time = self.sleep_time;
        body.sleep_set = self.sleep_set;
        Ok(body)
    }

    /// Whether the body is asleep: it is not moved by the step until something wakes its
    /// island (see [`crate::World::wake`]). Static and kinematic bodies never sleep.
    pub fn is_sleeping(&self) -> bool {
        self.sleep_set != crate::island::AWAKE
    }

    /// How the body moves.
    pub fn kind(&self) -> BodyKind {
        self.desc.kind
    }

    /// Its shape.
    pub fn shape(&self) -> &<Dim<D> as SolverDim<N, D>>::Shape {
        &self.desc.shape
    }

    /// Its pose.
    pub fn pose(&self) -> &<Dim<D> as SolverDim<N, D>>::Pose {
        &self.desc.pose
    }

    /// Velocity of the centre of mass.
    pub fn linear_velocity(&self) -> Vector<N, D> {
        self.desc.linear_velocity
    }

    /// Angular velocity.
    pub fn angular_velocity(&self) -> <Dim<D> as SolverDim<N, D>>::Angular {
        self.desc.angular_velocity
    }

    /// The collision groups.
    pub fn collision_groups(&self) -> CollisionGroups {
        self.desc.collision_groups
    }

    /// `true` for a bullet (see [`BodyDesc::bullet`](BodyDesc#structfield.bullet)).
    pub fn is_bullet(&self) -> bool {
        self.desc.bullet
    }

    /// `true` for a sensor.
    pub fn is_sensor(&self) -> bool {
        self.desc.sensor
    }

    /// The body's own hit-event threshold (m/s), `None` when it takes the world's
    /// ([`crate::StepSettings::hit_event_threshold`]); see
    /// [`World::set_hit_event_threshold`](crate::World::set_hit_event_threshold).
    pub fn hit_event_threshold(&self) -> Option<N> {
        self.hit_threshold
    }

    /// The user data.
    pub fn user_data(&self) -> u128 {
        self.desc.user_data
    }

    /// Mass (zero for static and kinematic bodies).
    pub fn mass(&self) -> N {
        self.mass
    }

    /// The centre of mass in the world.
    pub fn center_of_mass(&self) -> Point<N, D> {
        self.desc.pose.transform_point(&self.local_center)
    }

    /// The description the body was created from, with its current pose and velocities.
    pub fn desc(&self) -> &BodyDesc<N, D> {
        &self.desc
    }
}

/// `pose` checked against the envelope: finite, each coordinate of its position at most
/// [`WorldLimits::max_coordinate`] in magnitude, its rotation of unit length within
/// [`WorldLimits::rotation_tolerance`]. A rotation off unit length by more than rounding (two
/// ulps) comes back renormalised; any other pose comes back bit for bit.
pub(crate) fn checked_pose<N: Scalar, const D: usize>(
    pose: &<Dim<D> as SolverDim<N, D>>::Pose,
    limits: &WorldLimits<N>,
) -> Result<<Dim<D> as SolverDim<N, D>>::Pose, WorldError>
where
    Dim<D>: SolverDim<N, D>,
{
    if !pose.is_finite() {
        return Err(WorldError::NonFinite("pose"));
    }
    let max = limits.max_coordinate;
    for x in pose.translation().iter() {
        WorldLimits::check("position", *x, -max, max)?;
    }
    let length = Dim::<D>::rotation_length(pose);
    let off = (length - 1.0).abs();
    if off > limits.rotation_tolerance.to_f64() {
        return Err(WorldError::NonUnitRotation { length });
    }
    Ok(if off <= 2.0 * N::EPSILON.to_f64() { *pose } else { Dim::<D>::renormalized(pose) })
}

/// Velocities checked against the envelope: finite, the linear speed at most
/// [`WorldLimits::max_linear_speed`], the angular speed at most
/// [`WorldLimits::max_angular_speed`].
pub(crate) fn check_velocities<N: Scalar, const D: usize>(
    linear: &Vector<N, D>,
    angular: &<Dim<D> as SolverDim<N, D>>::Angular,
    limits: &WorldLimits<N>,
) -> Result<(), WorldError>
where
    Dim<D>: SolverDim<N, D>,
{
    WorldLimits::check_vector("linear velocity", linear, limits.max_linear_speed)?;
    if !Dim::<D>::angular_is_finite(angular) {
        return Err(WorldError::NonFinite("angular velocity"));
    }
    let speed = Dim::<D>::angular_length(angular);
    WorldLimits::check_norm("angular velocity", speed, limits.max_angular_speed)
}
