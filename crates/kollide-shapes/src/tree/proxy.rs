//! Proxies: the dynamic use of the tree. A proxy is a leaf with a fat box; it moves in the tree
//! only when its object's tight box leaves the fat one.

use kollide_math::Scalar;

use super::TreeError;
use super::node::{ProxyId, Tree, is_valid_aabb};
use crate::Aabb;

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// Inserts a leaf holding `tight` grown by `margin` (its fat box) and `data`, and returns
    /// its id. A box that is not finite or not ordered, or a margin that is negative or not
    /// finite, is refused and changes nothing.
    pub fn create_proxy(
        &mut self,
        tight: &Aabb<N, D>,
        margin: N,
        data: u32,
    ) -> Result<ProxyId, TreeError> {
        let fat = fattened(tight, margin)?;
        let leaf = self.allocate(fat, data);
        self.insert_leaf(leaf);
        Ok(ProxyId(leaf))
    }

    /// Tells the tree that the proxy's object now has the box `tight`. When `tight` still lies
    /// inside the proxy's fat box nothing changes and the result is `false`; otherwise the leaf
    /// gets the fat box `tight` grown by `margin`, is inserted again where it now belongs (its
    /// id stays the same), and the result is `true`.
    pub fn move_proxy(
        &mut self,
        id: ProxyId,
        tight: &Aabb<N, D>,
        margin: N,
    ) -> Result<bool, TreeError> {
        let Some(fat) = self.new_fat_box(id, tight, margin)? else { return Ok(false) };
        self.remove_leaf(id.0);
        self.nodes[id.0 as usize].aabb = fat;
        self.insert_leaf(id.0);
        Ok(true)
    }

    /// Like [`Tree::move_proxy`], but a proxy whose object left its fat box is not inserted
    /// again: its leaf takes the new fat box where it is, and its ancestors grow to contain it
    /// and are marked, so that [`Tree::rebuild_enlarged`] rebuilds just the part of the tree
    /// above moved leaves (Box2D v3's broadphase does the same). Queries stay exact in between:
    /// every internal box still contains its children's, only more loosely. Returns whether
    /// the leaf changed.
    pub fn enlarge_proxy(
        &mut self,
        id: ProxyId,
        tight: &Aabb<N, D>,
        margin: N,
    ) -> Result<bool, TreeError> {
        let Some(fat) = self.new_fat_box(id, tight, margin)? else { return Ok(false) };
        self.enlarge_leaf(id.0, fat);
        Ok(true)
    }

    /// The fat box the proxy `id` needs for its object's box `tight`: `None` while `tight` lies
    /// inside its current one.
    fn new_fat_box(
        &self,
        id: ProxyId,
        tight: &Aabb<N, D>,
        margin: N,
    ) -> Result<Option<Aabb<N, D>>, TreeError> {
        let leaf = self.leaf(id).ok_or(TreeError::UnknownProxy(id.0))?;
        // The common case first: a NaN box is never contained, so it is refused below.
        if leaf.aabb.contains(tight) {
            return Ok(None);
        }
        fattened(tight, margin).map(Some)
    }

    /// Moves many proxies at once: each `(id, tight)` of `moves` gets the fat box `tight` grown
    /// by `margin` (whether or not `tight` left its old one), then the whole tree is rebuilt
    /// top down ([`Tree::rebuild`]). Cheaper than [`Tree::move_proxy`] one by one when so many
    /// proxies move that the tree is to be rebuilt anyway. An unknown id, a box that is not
    /// finite or not ordered, or a bad margin is refused and changes nothing.
    pub fn move_proxies_and_rebuild(
        &mut self,
        moves: &[(ProxyId, Aabb<N, D>)],
        margin: N,
    ) -> Result<(), TreeError> {
        for (id, tight) in moves {
            self.leaf(*id).ok_or(TreeError::UnknownProxy(id.0))?;
            fattened(tight, margin)?;
        }
        for (id, tight) in moves {
            self.nodes[id.0 as usize].aabb = fattened(tight, margin)?;
        }
        self.rebuild();
        Ok(())
    }

    /// `true` when `tight` lies inside the fat box of the proxy `id` (`false` for an unknown
    /// id): [`Tree::move_proxy`] would leave it where it is.
    pub fn proxy_contains(&self, id: ProxyId, tight: &Aabb<N, D>) -> bool {
        self.leaf(id).is_some_and(|leaf| leaf.aabb.contains(tight))
    }

    /// Removes a proxy and returns its data.
    pub fn remove_proxy(&mut self, id: ProxyId) -> Result<u32, TreeError> {
        let data = self.leaf(id).ok_or(TreeError::UnknownProxy(id.0))?.data;
        self.remove_leaf(id.0);
        self.release(id.0);
        Ok(data)
    }

    /// The fat box of a proxy, `None` for an unknown id.
    pub fn fat_aabb(&self, id: ProxyId) -> Option<&Aabb<N, D>> {
        self.leaf(id).map(|n| &n.aabb)
    }

    /// The data of a proxy, `None` for an unknown id.
    pub fn data(&self, id: ProxyId) -> Option<u32> {
        self.leaf(id).map(|n| n.data)
    }

    /// Gives a proxy new bits (a new proxy has every bit set): [`Tree::query_aabb_masked`]
    /// skips the proxies whose bits do not meet its mask. Costs a walk up to the root at most.
    pub fn set_proxy_bits(&mut self, id: ProxyId, bits: u32) -> Result<(), TreeError> {
        self.leaf(id).ok_or(TreeError::UnknownProxy(id.0))?;
        self.set_leaf_bits(id.0, bits);
        Ok(())
    }

    /// The bits of a proxy, `None` for an unknown id.
    pub fn proxy_bits(&self, id: ProxyId) -> Option<u32> {
        self.leaf(id).map(|n| n.bits)
    }
}

/// `tight` grown by `margin`, both checked.
fn fattened<N: Scalar, const D: usize>(
    tight: &Aabb<N, D>,
    margin: N,
) -> Result<Aabb<N, D>, TreeError> {
    if !(is_valid_aabb(tight) && margin.is_finite_value() && margin >= N::zero()) {
        return Err(TreeError::BadAabb);
    }
    let fat = tight.loosened(margin);
    if is_valid_aabb(&fat) { Ok(fat) } else { Err(TreeError::BadAabb) }
}
