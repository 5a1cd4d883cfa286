//! Stage 2 of the step: the solver's copy of the bodies.
//!
//! The solver reads bodies through two arrays indexed by slot (so a constraint's body indices
//! are slot indices, and an empty slot is a body that never moves): [`SolverBody`], what stays
//! fixed during the step (start pose, inverse mass and inertia in the world frame, damping), and
//! [`BodyState`], the small hot part the constraint loops read and write (velocities and the
//! motion since the step started). Keeping the hot part apart keeps it dense in cache.
//!
//! A sleeping body is loaded as a body that does not move (no mass, not dynamic), so the solver
//! integrates nothing for it and the colouring skips its pairs (see `island.rs`).

use kollide_math::{Point, Scalar, Vector};

use crate::contact_solver::{BodyState, SolverBody};
use crate::world::Slot;
use crate::{BodyKind, Dim, SolverDim};

/// The solver's bodies, rebuilt every step (the buffers are reused).
#[derive(Clone, Debug, Default)]
pub(crate) struct SolverBodies<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) bodies: Vec<SolverBody<N, D>>,
    pub(crate) states: Vec<BodyState<N, D>>,
}

impl<N: Scalar, const D: usize> SolverBodies<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// No bodies.
    pub(crate) fn new() -> Self {
        Self { bodies: Vec::new(), states: Vec::new() }
    }

    /// Loads one solver body per slot; returns the number of awake dynamic bodies.
    pub(crate) fn load(&mut self, slots: &[Slot<N, D>]) -> usize {
        let mut awake = 0;
        self.bodies.clear();
        self.states.clear();
        let rest = BodyState {
            v: Vector::zeros(),
            w: Dim::<D>::angular_zero(),
            dp: Vector::zeros(),
            dq: Dim::<D>::rotation_identity(),
        };
        for s in slots {
            let Some(b) = s.body.as_ref().filter(|b| !b.is_sleeping()) else {
                self.states.push(rest);
                self.bodies.push(empty_slot());
                continue;
            };
            let dynamic = b.desc.kind == BodyKind::Dynamic;
            awake += usize::from(dynamic);
            let q = Dim::<D>::rotation(&b.desc.pose);
            self.states.push(BodyState {
                v: b.desc.linear_velocity,
                w: b.desc.angular_velocity,
                ..rest
            });
            self.bodies.push(SolverBody {
                center: b.center_of_mass(),
                local_center: b.local_center.coords,
                q0: q,
                q,
                inv_mass: b.inv_mass,
                inv_inertia: Dim::<D>::world_inverse_inertia(&b.inv_inertia_local, &q),
                gravity_scale: b.desc.gravity_scale,
                linear_damping: b.desc.linear_damping,
                angular_damping: b.desc.angular_damping,
                moves: b.desc.kind != BodyKind::Static,
                dynamic,
            });
        }
        awake
    }
}

/// The solver body of an empty slot: it never moves and takes no impulse.
fn empty_slot<N: Scalar, const D: usize>() -> SolverBody<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    SolverBody {
        center: Point::origin(),
        local_center: Vector::zeros(),
        q0: Dim::<D>::rotation_identity(),
        q: Dim::<D>::rotation_identity(),
        inv_mass: N::zero(),
        inv_inertia: Dim::<D>::inertia_zero(),
        gravity_scale: N::zero(),
        linear_damping: N::zero(),
        angular_damping: N::zero(),
        moves: false,
        dynamic: false,
    }
}
