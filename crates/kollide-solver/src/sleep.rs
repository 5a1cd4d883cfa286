//! Sleeping, as the user sees it: asking whether a body sleeps, waking it, putting it to sleep.
//! How islands fall asleep and wake during the step is in `island.rs`.

use kollide_math::Scalar;

use crate::{BodyHandle, BodyKind, Dim, SolverDim, World, WorldError};

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Whether the body sleeps (see [`crate::Body::is_sleeping`]). A stale handle is an error.
    pub fn is_sleeping(&self, h: BodyHandle) -> Result<bool, WorldError> {
        Ok(self.body(h)?.is_sleeping())
    }

    /// The number of sleeping bodies.
    pub fn sleeping_bodies(&self) -> usize {
        self.islands.sleeping()
    }

    /// Wakes a body and the island it sleeps with, and restarts its sleep timer (so an awake
    /// body stays awake for at least [`crate::StepSettings::time_to_sleep`]). Waking a static
    /// or kinematic body wakes the bodies it touches. A stale handle is an error and changes
    /// nothing.
    ///
    /// ```
    /// use kollide_math::{Iso2, Vec2};
    /// use kollide_shapes::Cuboid;
    /// use kollide_solver::{BodyDesc, World2};
    /// let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    /// world.add(BodyDesc::fixed(Cuboid::new(Vec2::new(10.0, 0.5)).unwrap())
    ///     .pose(Iso2::translation(0.0, -0.5))).unwrap();
    /// let b = world.add(BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap())
    ///     .pose(Iso2::translation(0.0, 0.5))).unwrap();
    /// world.sleep(b).unwrap();
    /// assert!(world.is_sleeping(b).unwrap());
    /// world.wake(b).unwrap();
    /// assert!(!world.is_sleeping(b).unwrap());
    /// ```
    pub fn wake(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        self.check(h)?;
        self.disturb(h.index);
        Ok(())
    }

    /// Puts a dynamic body to sleep at once, with every body of its island (the dynamic bodies
    /// it touches and is joined to, and theirs, as the last step left them): they stop, and the
    /// step leaves them alone until something wakes them. Refused, changing nothing, for a
    /// stale handle, a body that is not dynamic ([`WorldError::WrongKind`]), or when sleeping is
    /// off in the settings or a body of the island may not sleep ([`WorldError::CannotSleep`]).
    /// A sleeping body stays asleep.
    pub fn sleep(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        let body = self.body(h)?;
        if body.kind() != BodyKind::Dynamic {
            return Err(WorldError::WrongKind { needed: BodyKind::Dynamic, actual: body.kind() });
        }
        if !self.settings().sleeping {
            return Err(WorldError::CannotSleep("sleeping is off in the settings"));
        }
        if body.is_sleeping() {
            return Ok(());
        }
        let (pairs, joints) = (self.contacts.pairs(), &self.joints);
        self.islands.sleep_island(&mut self.slots, pairs, joints, h.index)
    }

    /// Wakes what a change to the body in `slot` disturbs: its island if it is dynamic (what
    /// it touches sleeps with it), the bodies it touches or is joined to if it is static or
    /// kinematic (they do not sleep with it). Called by every change a user makes.
    pub(crate) fn disturb(&mut self, slot: u32) {
        self.broadphase.body_changed();
        let dynamic =
            self.slots[slot as usize].body.as_ref().is_some_and(|b| b.kind() == BodyKind::Dynamic);
        if dynamic {
            self.islands.wake_body(&mut self.slots, slot);
        } else {
            self.disturb_around(slot);
        }
    }

    /// Wakes the body in `slot` and every body it touches or is joined to (a teleport, a
    /// removal).
    pub(crate) fn disturb_around(&mut self, slot: u32) {
        // Even when nothing wakes, the next step must look: the body may now overlap others.
        self.disturbed = true;
        self.broadphase.body_changed();
        let (pairs, joints) = (self.contacts.pairs(), &self.joints);
        self.islands.wake_touching(&mut self.slots, pairs, joints, slot);
    }

    /// Wakes every body (gravity or the settings changed).
    pub(crate) fn wake_all(&mut self) {
        self.broadphase.body_changed();
        self.islands.wake_all(&mut self.slots);
    }
}
