//! The world's tree of bodies: one leaf per body, holding its AABB grown by [`TREE_MARGIN`],
//! kept up to date by [`crate::World::add`], [`crate::World::remove`] and the step. The step
//! also rebuilds the tree top down (binned surface-area heuristic, [`Tree::rebuild`]) once half
//! its leaves were inserted one by one since the last rebuild: after a scene is built, and now
//! and then when many bodies move far.

use kollide_math::Scalar;
use kollide_shapes::tree::{ProxyId, Tree, TreeError};
use kollide_shapes::{Aabb, BoundingVolume};

use crate::world::Slot;
use crate::{Body, BodyHandle, BodyKind, Dim, SolverDim, World};

/// How much a moving body's leaf box exceeds its AABB (m): Box2D's margin. A body is
/// re-inserted only when it has moved (or turned) far enough for its AABB to leave this margin.
/// A static body's leaf is its AABB: it moves only when teleported, and a tight leaf is one that
/// fewer queries enter.
pub(crate) const TREE_MARGIN: f64 = 0.1;

/// The margin of a body's leaf (see [`TREE_MARGIN`]).
fn margin_of<N: Scalar, const D: usize>(body: &Body<N, D>) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    if body.desc.kind == BodyKind::Static { N::zero() } else { N::lit(TREE_MARGIN) }
}

/// The smallest tree worth rebuilding.
const REBUILD_MIN_LEAVES: usize = 64;

/// The tree and each slot's leaf.
#[derive(Clone, Debug)]
pub(crate) struct BodyTree<N: Scalar, const D: usize> {
    tree: Tree<N, D>,
    /// Per slot: the body's leaf and its AABB (the tight one, at the body's pose after the last
    /// step or when it was added).
    proxies: Vec<Option<(ProxyId, Aabb<N, D>)>>,
    /// Leaves inserted (new bodies, re-insertions) since the tree was last rebuilt.
    inserted: usize,
    /// The leaves of a step's update to move, with their bodies' new AABBs (reused).
    escaped: Vec<(ProxyId, Aabb<N, D>)>,
}

/// The AABB of a body's shape at its pose.
pub(crate) fn body_aabb<N: Scalar, const D: usize>(body: &Body<N, D>) -> Aabb<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    body.desc.shape.aabb(&body.desc.pose)
}

impl<N: Scalar, const D: usize> BodyTree<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) fn new() -> Self {
        Self { tree: Tree::new(), proxies: Vec::new(), inserted: 0, escaped: Vec::new() }
    }

    pub(crate) fn tree(&self) -> &Tree<N, D> {
        &self.tree
    }

    /// The AABB of the body in `slot` (which must hold a body).
    pub(crate) fn aabb(&self, slot: u32) -> Option<&Aabb<N, D>> {
        self.proxies.get(slot as usize)?.as_ref().map(|(_, a)| a)
    }

    /// Gives `body`, in `slot`, a leaf. Fails (changing nothing) only for a box that is not
    /// finite, which a body inside the world's envelope does not have.
    pub(crate) fn insert(&mut self, slot: u32, body: &Body<N, D>) -> Result<(), TreeError> {
        let aabb = &body_aabb(body);
        let id = self.tree.create_proxy(aabb, margin_of(body), slot)?;
        let s = slot as usize;
        if self.proxies.len() <= s {
            self.proxies.resize(s + 1, None);
        }
        self.proxies[s] = Some((id, *aabb));
        self.inserted += 1;
        Ok(())
    }

    /// Removes the leaf of `slot`, if it has one.
    pub(crate) fn remove(&mut self, slot: u32) {
        if let Some((id, _)) = self.proxies.get_mut(slot as usize).and_then(Option::take) {
            let removed = self.tree.remove_proxy(id);
            debug_assert!(removed.is_ok());
        }
    }

    /// `body`, in `slot`, was placed elsewhere (a teleport): its leaf follows its new AABB.
    pub(crate) fn teleported(&mut self, slot: u32, body: &Body<N, D>) {
        let Some(Some((id, tight))) = self.proxies.get_mut(slot as usize) else { return };
        *tight = body_aabb(body);
        // A body inside the envelope has a finite box, which the tree accepts.
        let moved = self.tree.move_proxy(*id, tight, margin_of(body));
        debug_assert!(moved.is_ok());
        self.inserted += usize::from(moved == Ok(true));
    }

    /// After a step: re-inserts the moving bodies whose AABB left their leaf's box. Static
    /// and sleeping bodies do not move, so they are not even looked at. Leaves inserted one by one make a
    /// tree that costs queries about twice as much as a top-down build over the same boxes: once
    /// they would be half the tree, the leaves that moved get their new boxes in place and the
    /// tree is rebuilt instead. (Out of line, so that profiles show what it costs the step.)
    #[inline(never)]
    pub(crate) fn update(&mut self, slots: &[Slot<N, D>]) {
        let margin = N::lit(TREE_MARGIN);
        self.escaped.clear();
        for (slot, proxy) in slots.iter().zip(&mut self.proxies) {
            let (Some(body), Some((id, tight))) = (&slot.body, proxy) else { continue };
            if body.desc.kind == BodyKind::Static || body.is_sleeping() {
                continue;
            }
            *tight = body_aabb(body);
            if !self.tree.proxy_contains(*id, tight) {
                self.escaped.push((*id, *tight));
            }
        }
        let len = self.tree.len();
        if (self.inserted + self.escaped.len()) * 2 > len && len >= REBUILD_MIN_LEAVES {
            // Bodies stay finite inside the envelope, so the tree cannot refuse the boxes.
            let moved = self.tree.move_proxies_and_rebuild(&self.escaped, margin);
            debug_assert!(moved.is_ok());
            self.inserted = 0;
            return;
        }
        for (id, tight) in &self.escaped {
            let moved = self.tree.move_proxy(*id, tight, margin);
            debug_assert!(moved.is_ok());
            self.inserted += usize::from(moved == Ok(true));
        }
    }
}

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The tree of the bodies' AABBs that the queries walk (one leaf per body, whose data is
    /// the body's slot index, [`BodyHandle::index`]): for statistics and debugging.
    pub fn query_tree(&self) -> &Tree<N, D> {
        self.body_tree.tree()
    }

    /// The body in slot `index`, with its handle.
    pub(crate) fn slot_body(&self, index: u32) -> Option<(BodyHandle, &Body<N, D>)> {
        let slot = self.slots.get(index as usize)?;
        slot.body.as_ref().map(|b| (BodyHandle { index, generation: slot.generation }, b))
    }
}
