//! The world's bodies as the queries see them: the broadphase's tree of their boxes (one leaf
//! per body, holding the body's current AABB; see `step/broadphase_update.rs`), and the body in
//! each slot.

use kollide_math::{Point, Scalar, Vector};
use kollide_shapes::Aabb;
use kollide_shapes::tree::Tree;

use crate::{Body, BodyHandle, Dim, QueryFilter, SolverDim, World};

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

    /// The tree's box query for `filter` (each leaf's bits are its body's memberships): the
    /// masked walk when its groups accept some groups only, so that the subtrees of bodies it
    /// cannot see are skipped, else the plain one (`f` applies the filter either way).
    #[inline]
    pub(crate) fn walk_aabb(
        &self,
        aabb: &Aabb<N, D>,
        filter: &QueryFilter<'_, N, D>,
        f: impl FnMut(u32) -> bool,
    ) {
        match filter.mask() {
            u32::MAX => self.query_tree().query_aabb(aabb, f),
            mask => self.query_tree().query_aabb_masked(aabb, mask, f),
        };
    }

    /// The tree's ray walk for `filter`, as [`World::walk_aabb`].
    #[inline]
    pub(crate) fn walk_ray(
        &self,
        (origin, dir, max_t): (&Point<N, D>, &Vector<N, D>, N),
        filter: &QueryFilter<'_, N, D>,
        f: impl FnMut(u32, N) -> Option<N>,
    ) {
        match filter.mask() {
            u32::MAX => self.query_tree().cast_ray(origin, dir, max_t, f),
            mask => self.query_tree().cast_ray_masked(origin, dir, max_t, mask, f),
        };
    }

    /// The tree's nearest-leaf walk for `filter`, as [`World::walk_aabb`].
    #[inline]
    pub(crate) fn walk_nearest(
        &self,
        p: &Point<N, D>,
        max_dist: N,
        filter: &QueryFilter<'_, N, D>,
        f: impl FnMut(u32, N) -> Option<N>,
    ) {
        match filter.mask() {
            u32::MAX => self.query_tree().nearest(p, max_dist, f),
            mask => self.query_tree().nearest_masked(p, max_dist, mask, f),
        };
    }

    /// The body in slot `index`, with its handle.
    pub(crate) fn slot_body(&self, index: u32) -> Option<(BodyHandle, &Body<N, D>)> {
        let slot = self.slots.get(index as usize)?;
        slot.body.as_ref().map(|b| (BodyHandle { index, generation: slot.generation }, b))
    }
}
