//! [`ContactHook`]: a callback that sees each contact before the solver does, and may disable
//! it or change how it is solved ([`PreSolve`]), with [`crate::World::step_with_hook`].
//!
//! The world calls the hook once per pair whose manifold has points (touching or within the
//! speculative margin: a one-way platform must turn a contact off before it pushes) and that
//! has an awake dynamic body (the pairs of sleeping bodies are not solved; see
//! [`crate::StepSettings::sleeping`]), after the
//! contact update and before the solver, in pair order (so a step with a hook is as
//! deterministic as one without, for any number of threads). Through [`PreSolve`] the hook can
//!
//! * **disable** the contact for this step: it is not solved, and its warm-start impulses are
//!   dropped. Its manifold stays in [`crate::World::contact_pairs`], and contact events follow
//!   the manifold, not the hook;
//! * change the **friction** and **restitution** of this contact (the mixing rules give the
//!   defaults);
//! * set a **tangent velocity**: friction then drives B's surface to slide at this velocity
//!   relative to A's instead of sticking (a conveyor belt, a treadmill). Its component along
//!   the normal is ignored.
//!
//! Box2D v3 offers the same through its pre-solve callback and a shape's tangent speed, rapier
//! through `PhysicsHooks::modify_solver_contacts`.

use kollide_manifold::Manifold;
use kollide_math::{Scalar, Vector};

use crate::{Body, BodyHandle, ContactImpulse, Dim, SolverDim, WorldError, WorldLimits};

/// A contact about to be solved, as a [`ContactHook`] sees and changes it.
#[derive(Debug)]
pub struct PreSolve<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) a: BodyHandle,
    pub(crate) b: BodyHandle,
    pub(crate) body_a: &'a Body<N, D>,
    pub(crate) body_b: &'a Body<N, D>,
    pub(crate) manifold: &'a Manifold<N, D, ContactImpulse<N>>,
    pub(crate) enabled: bool,
    pub(crate) friction: N,
    pub(crate) restitution: N,
    pub(crate) tangent_velocity: Vector<N, D>,
}

impl<N: Scalar, const D: usize> PreSolve<'_, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The body with the lower slot index (A: the normal points from it to B).
    pub fn a(&self) -> BodyHandle {
        self.a
    }

    /// The other body.
    pub fn b(&self) -> BodyHandle {
        self.b
    }

    /// Body A.
    pub fn body_a(&self) -> &Body<N, D> {
        self.body_a
    }

    /// Body B.
    pub fn body_b(&self) -> &Body<N, D> {
        self.body_b
    }

    /// The manifold (world frame, normal from A to B, at least one point).
    pub fn manifold(&self) -> &Manifold<N, D, ContactImpulse<N>> {
        self.manifold
    }

    /// The normal, from A to B.
    pub fn normal(&self) -> Vector<N, D> {
        self.manifold.normal
    }

    /// `false` once [`PreSolve::disable`] was called.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// Turns the contact off for this step: it pushes nothing and loses its warm start.
    pub fn disable(&mut self) {
        self.enabled = false;
    }

    /// The friction coefficient the contact will be solved with.
    pub fn friction(&self) -> N {
        self.friction
    }

    /// Sets the friction coefficient for this step, in `[0, WorldLimits::max_friction]`;
    /// anything else is refused and changes nothing.
    pub fn set_friction(&mut self, friction: N) -> Result<(), WorldError> {
        WorldLimits::check("friction", friction, N::zero(), WorldLimits::<N>::new().max_friction)?;
        self.friction = friction;
        Ok(())
    }

    /// The restitution the contact will be solved with.
    pub fn restitution(&self) -> N {
        self.restitution
    }

    /// Sets the restitution for this step, in `[0, 1]`; anything else is refused and changes
    /// nothing.
    pub fn set_restitution(&mut self, restitution: N) -> Result<(), WorldError> {
        let max = WorldLimits::<N>::new().max_restitution;
        WorldLimits::check("restitution", restitution, N::zero(), max)?;
        self.restitution = restitution;
        Ok(())
    }

    /// The velocity at which friction lets B's surface slide relative to A's (m/s; zero: it
    /// sticks, the default).
    pub fn tangent_velocity(&self) -> Vector<N, D> {
        self.tangent_velocity
    }

    /// Sets the velocity (m/s, world frame) at which friction drives B's surface relative to
    /// A's at this contact; its component along the normal is ignored. A belt that is body A
    /// and whose surface runs at `v` carries B with `set_tangent_velocity(v)`; a belt that is
    /// body B, with `-v`. Not finite or faster than [`WorldLimits::max_linear_speed`]: refused,
    /// nothing changes.
    pub fn set_tangent_velocity(&mut self, velocity: Vector<N, D>) -> Result<(), WorldError> {
        let max = WorldLimits::<N>::new().max_linear_speed;
        WorldLimits::check_vector("tangent velocity", &velocity, max)?;
        self.tangent_velocity = velocity;
        Ok(())
    }
}

/// Sees each contact before the solver (see the module docs); give it to
/// [`crate::World::step_with_hook`]. A closure `|c: &mut PreSolve<'_, N, D>| { ... }` is a hook.
pub trait ContactHook<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Called once per pair with manifold points, in pair order, before the solver.
    fn pre_solve(&mut self, contact: &mut PreSolve<'_, N, D>);
}

impl<N: Scalar, const D: usize, F> ContactHook<N, D> for F
where
    Dim<D>: SolverDim<N, D>,
    F: FnMut(&mut PreSolve<'_, N, D>),
{
    fn pre_solve(&mut self, contact: &mut PreSolve<'_, N, D>) {
        self(contact)
    }
}
