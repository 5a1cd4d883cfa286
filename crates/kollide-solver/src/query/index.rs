//! The world's bodies as the queries see them: the broadphase's tree of their boxes (one leaf
//! per body, holding the body's current AABB; see `step/broadphase_update.rs`), and the body in
//! each slot.

use kollide_math::Scalar;
use kollide_shapes::tree::Tree;

use crate::{Body, BodyHandle, Dim, SolverDim, World};

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The tree of the bodies' boxes that the queries walk (one leaf per body, holding its
    /// AABB, whose data is the body's slot index, [`BodyHandle::index`]): for statistics and
    /// debugging.
    pub fn query_tree(&self) -> &Tree<N, D> {
        self.broadphase.tree()
    }

    /// The body in slot `index`, with its handle.
    pub(crate) fn slot_body(&self, index: u32) -> Option<(BodyHandle, &Body<N, D>)> {
        let slot = self.slots.get(index as usize)?;
        slot.body.as_ref().map(|b| (BodyHandle { index, generation: slot.generation }, b))
    }
}
