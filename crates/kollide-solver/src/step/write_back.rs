//! Stage 6 of the step: the solver's results written back to the bodies.

use kollide_math::Scalar;

use super::solver_bodies::SolverBodies;
use crate::contact_solver::SpeedLimits;
use crate::world::Slot;
use crate::{Dim, SolverDim};

/// Writes each moving body's new pose and velocities from the solver's copy.
pub(crate) fn write_back<N: Scalar, const D: usize>(
    slots: &mut [Slot<N, D>],
    solver: &SolverBodies<N, D>,
) where
    Dim<D>: SolverDim<N, D>,
{
    for ((slot, sb), st) in slots.iter_mut().zip(&solver.bodies).zip(&solver.states) {
        let Some(b) = slot.body.as_mut() else { continue };
        if !sb.moves {
            continue;
        }
        let center = sb.center + st.dp;
        let origin = center.coords - Dim::<D>::rotate(&sb.q, &b.local_center.coords);
        b.desc.pose = Dim::<D>::pose_from(origin, sb.q);
        // Contacts may have pushed a body past the speed limits since the last substep's
        // integration kept it within them; what the world reports (and what a user may hand
        // back to `set_velocity`) stays inside the envelope.
        let (mut v, mut w) = (st.v, st.w);
        SpeedLimits::envelope().clamp::<D>(&mut v, &mut w);
        b.desc.linear_velocity = v;
        b.desc.angular_velocity = w;
    }
}
