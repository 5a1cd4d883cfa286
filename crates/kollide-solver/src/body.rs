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
use kollide_shapes::SupportMap;

use crate::{Dim, SolverDim, WorldError};

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
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// How the body moves.
    pub kind: BodyKind,
    /// Its shape.
    pub shape: <Dim<D> as SolverDim<N, D>>::Shape,
    /// Its pose (places the shape's local frame in the world).
    pub pose: <Dim<D> as SolverDim<N, D>>::Pose,
    /// Velocity of the centre of mass (m/s).
    pub linear_velocity: Vector<N, D>,
    /// Angular velocity (rad/s).
    pub angular_velocity: <Dim<D> as SolverDim<N, D>>::Angular,
    /// Density (kg/m² in 2D, kg/m³ in 3D); used by dynamic bodies.
    pub density: N,
    /// Coulomb friction coefficient, `≥ 0`.
    pub friction: N,
    /// Restitution (bounciness), `≥ 0`: 0 does not bounce, 1 bounces back fully.
    pub restitution: N,
    /// Linear damping (1/s), `≥ 0`.
    pub linear_damping: N,
    /// Angular damping (1/s), `≥ 0`.
    pub angular_damping: N,
    /// Multiplies the world's gravity for this body.
    pub gravity_scale: N,
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
        }
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

    /// Sets the gravity scale.
    pub fn gravity_scale(mut self, scale: N) -> Self {
        self.gravity_scale = scale;
        self
    }
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
}

impl<N: Scalar, const D: usize> Body<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Validates a description and computes the mass. Fails without side effects.
    pub(crate) fn new(desc: BodyDesc<N, D>) -> Result<Self, WorldError> {
        if !desc.pose.is_finite() {
            return Err(WorldError::NonFinite("pose"));
        }
        if !desc.linear_velocity.iter().all(|x| x.is_finite_value()) {
            return Err(WorldError::NonFinite("linear velocity"));
        }
        if !Dim::<D>::angular_is_finite(&desc.angular_velocity) {
            return Err(WorldError::NonFinite("angular velocity"));
        }
        let non_negative = [
            ("friction", desc.friction),
            ("restitution", desc.restitution),
            ("linear damping", desc.linear_damping),
            ("angular damping", desc.angular_damping),
        ];
        for (what, v) in non_negative {
            if !v.is_finite_value() {
                return Err(WorldError::NonFinite(what));
            }
            if v < N::zero() {
                return Err(WorldError::OutOfRange { what, value: v.to_f64() });
            }
        }
        if !desc.gravity_scale.is_finite_value() {
            return Err(WorldError::NonFinite("gravity scale"));
        }
        let (mass, inv_mass, local_center, inv_inertia_local) = match desc.kind {
            BodyKind::Dynamic => {
                if !desc.density.is_finite_value() {
                    return Err(WorldError::NonFinite("density"));
                }
                if desc.density <= N::zero() {
                    return Err(WorldError::OutOfRange {
                        what: "density",
                        value: desc.density.to_f64(),
                    });
                }
                let m = Dim::<D>::mass(&desc.shape, desc.density)?;
                if !(m.mass.is_finite_value()
                    && m.mass > N::zero()
                    && Dim::<D>::inertia_is_finite(&m.inertia))
                {
                    return Err(WorldError::NonFinite("mass"));
                }
                (m.mass, N::one() / m.mass, m.local_center, Dim::<D>::invert_inertia(&m.inertia))
            }
            BodyKind::Static | BodyKind::Kinematic => {
                (N::zero(), N::zero(), Point::origin(), Dim::<D>::inertia_zero())
            }
        };
        let bounding_radius = desc.shape.bounding_radius();
        Ok(Self { desc, mass, inv_mass, local_center, inv_inertia_local, bounding_radius })
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
