//! Inserting and removing leaves, and the rotations that keep the tree balanced.
//!
//! Insertion descends by the surface-area cost (Goldsmith and Salmon, 1987): at each internal
//! node, making the new leaf a sibling of the whole node costs the area of their merged box
//! (the new parent), and every ancestor passed on the way grows by its own merge with the leaf.
//! The descent goes to the child whose cost (its growth, or for a leaf child the new parent's
//! area, plus the growth inherited so far) is least, and stops when both children cost more
//! than stopping here. After the new parent is linked in, every ancestor is refitted and
//! rebalanced on the way back up.

use kollide_math::Scalar;

use super::node::{Branch, NULL, Tree};
use crate::Aabb;

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// Links the (allocated, unlinked) leaf `leaf` into the tree.
    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        self.leaves += 1;
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let aabb = self.nodes[leaf as usize].aabb;
        let sibling = self.best_sibling(&aabb);
        let old_parent = self.nodes[sibling as usize].parent;
        let merged = self.nodes[sibling as usize].aabb.merged(&aabb);
        let parent = self.allocate(merged, 0);
        {
            let p = &mut self.nodes[parent as usize];
            p.parent = old_parent;
            p.children = [sibling, leaf];
        }
        self.nodes[sibling as usize].parent = parent;
        self.nodes[leaf as usize].parent = parent;
        self.refit(parent);
        self.replace_child(old_parent, sibling, parent);
        self.refit_from(old_parent);
    }

    /// Unlinks the leaf `leaf` (which stays allocated): its sibling takes its parent's place.
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        self.leaves -= 1;
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grandparent = self.nodes[parent as usize].parent;
        let [c0, c1] = self.nodes[parent as usize].children;
        let sibling = if c0 == leaf { c1 } else { c0 };
        self.nodes[sibling as usize].parent = grandparent;
        self.replace_child(grandparent, parent, sibling);
        self.release(parent);
        self.refit_from(grandparent);
    }

    /// Gives the linked leaf `leaf` the box `aabb` in place: each ancestor's copy of its
    /// child's box is refreshed and its own box grown, up to the first that already contained
    /// the child's; every ancestor is marked enlarged (up to the first already marked above
    /// the growth), so that [`Tree::rebuild_enlarged`] finds the leaf from the root.
    pub(super) fn enlarge_leaf(&mut self, leaf: u32, aabb: Aabb<N, D>) {
        self.nodes[leaf as usize].aabb = aabb;
        let (mut child, mut changed) = (leaf, true);
        let mut parent = self.nodes[leaf as usize].parent;
        while parent != NULL {
            let p = parent as usize;
            if changed {
                let side = usize::from(self.nodes[p].children[1] == child);
                self.branches[p].boxes[side] = self.nodes[child as usize].aabb;
                let grown = self.nodes[p].aabb.merged(&self.nodes[child as usize].aabb);
                changed = grown != self.nodes[p].aabb;
                self.nodes[p].aabb = grown;
            }
            if !changed && self.nodes[p].enlarged {
                return;
            }
            self.nodes[p].enlarged = true;
            child = parent;
            parent = self.nodes[p].parent;
        }
    }

    /// The node the new box should become a sibling of.
    fn best_sibling(&self, aabb: &Aabb<N, D>) -> u32 {
        let mut index = self.root;
        // The growth of the ancestors passed so far.
        let mut inherited = N::zero();
        loop {
            let node = &self.nodes[index as usize];
            if node.is_leaf() {
                return index;
            }
            let area = node.aabb.perimeter();
            let merged_area = node.aabb.merged(aabb).perimeter();
            let here = merged_area + inherited;
            let inherited_below = inherited + (merged_area - area);
            let cost = |c: u32| {
                let child = &self.nodes[c as usize];
                let merged = child.aabb.merged(aabb).perimeter();
                if child.is_leaf() { merged } else { merged - child.aabb.perimeter() }
            };
            let [c0, c1] = node.children;
            let (cost0, cost1) = (cost(c0) + inherited_below, cost(c1) + inherited_below);
            if here < cost0 && here < cost1 {
                return index;
            }
            inherited = inherited_below;
            index = if cost0 <= cost1 { c0 } else { c1 };
        }
    }

    /// In `parent` (or at the root when `parent` is [`NULL`]), `old` is replaced by `new`.
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
        } else {
            let p = &mut self.nodes[parent as usize];
            let slot = usize::from(p.children[0] != old);
            p.children[slot] = new;
        }
    }

    /// Rebalances and refits the nodes from `index` up to the root, or up to the first node
    /// that neither rotated nor changed its box, height or bits: the nodes above it are as they
    /// were, since a node's box, height, bits and [`Branch`] depend only on its children's. (Its
    /// own branch is always rewritten, for the caller may have changed its children.) Most
    /// insertions and removals change the boxes of only a few ancestors, so this saves most of
    /// the climb.
    fn refit_from(&mut self, mut index: u32) {
        while index != NULL {
            let n = &self.nodes[index as usize];
            let (aabb, height, bits) = (n.aabb, n.height, n.bits);
            let top = self.balance(index);
            self.refit(top);
            let node = &self.nodes[top as usize];
            if top == index && node.height == height && node.aabb == aabb && node.bits == bits {
                return;
            }
            index = node.parent;
        }
    }

    /// Recomputes an internal node's box, height, bits and [`Branch`] (and its children's bits
    /// beside it) from its children.
    pub(super) fn refit(&mut self, index: u32) {
        let [c0, c1] = self.nodes[index as usize].children;
        let (a, b) = (&self.nodes[c0 as usize], &self.nodes[c1 as usize]);
        let aabb = a.aabb.merged(&b.aabb);
        let height = 1 + a.height.max(b.height);
        let bits = a.bits | b.bits;
        let branch = Branch { boxes: [a.aabb, b.aabb], children: [a.link(c0), b.link(c1)] };
        self.branches[index as usize] = branch;
        if let Some(children) = self.bits.get_mut(index as usize) {
            *children = [a.bits, b.bits];
        }
        let n = &mut self.nodes[index as usize];
        n.aabb = aabb;
        n.height = height;
        n.bits = bits;
    }

    /// Gives the leaf `leaf` new bits and brings its ancestors' bits up to date.
    pub(super) fn set_leaf_bits(&mut self, leaf: u32, bits: u32) {
        if self.bits.is_empty() {
            if bits == u32::MAX {
                return;
            }
            // The first leaf given other bits: until now every leaf and union had all bits.
            self.bits = vec![[u32::MAX; 2]; self.nodes.len()];
        }
        self.nodes[leaf as usize].bits = bits;
        let (mut child, mut parent) = (leaf, self.nodes[leaf as usize].parent);
        while parent != NULL {
            let p = parent as usize;
            let side = usize::from(self.nodes[p].children[1] == child);
            self.bits[p][side] = self.nodes[child as usize].bits;
            let [c0, c1] = self.nodes[p].children;
            let union = self.nodes[c0 as usize].bits | self.nodes[c1 as usize].bits;
            if union == self.nodes[p].bits {
                return;
            }
            self.nodes[p].bits = union;
            child = parent;
            parent = self.nodes[p].parent;
        }
    }

    /// If the children of `a` differ in height by more than one, rotates the taller child up
    /// into `a`'s place and returns it; otherwise returns `a`.
    fn balance(&mut self, a: u32) -> u32 {
        let node = &self.nodes[a as usize];
        if node.is_leaf() || node.height < 2 {
            return a;
        }
        let [c0, c1] = node.children;
        let (h0, h1) = (self.nodes[c0 as usize].height, self.nodes[c1 as usize].height);
        if h1 > h0 + 1 {
            self.rotate_up(a, 1)
        } else if h0 > h1 + 1 {
            self.rotate_up(a, 0)
        } else {
            a
        }
    }

    /// Promotes child `side` of `a` (call it `c`) to `a`'s place. `c` keeps its taller child
    /// and takes `a` as its other child; its shorter child goes to `a` in `c`'s old slot.
    fn rotate_up(&mut self, a: u32, side: usize) -> u32 {
        let c = self.nodes[a as usize].children[side];
        let b = self.nodes[a as usize].children[1 - side];
        let [f, g] = self.nodes[c as usize].children;
        let (keep, give) = if self.nodes[f as usize].height >= self.nodes[g as usize].height {
            (f, g)
        } else {
            (g, f)
        };
        let up = self.nodes[a as usize].parent;
        self.nodes[c as usize].parent = up;
        self.replace_child(up, a, c);
        self.nodes[a as usize].parent = c;
        self.nodes[c as usize].children = [a, keep];
        self.nodes[a as usize].children[side] = give;
        self.nodes[give as usize].parent = a;
        debug_assert_eq!(self.nodes[b as usize].parent, a);
        self.refit(a);
        self.refit(c);
        c
    }
}
