//! The tree's storage: nodes in one `Vec`, addressed by `u32`, with a free list.

use kollide_math::Scalar;

use crate::Aabb;

/// No node (a root's parent, a leaf's children, the end of the free list).
pub(super) const NULL: u32 = u32::MAX;

/// The height that marks a node on the free list.
pub(super) const FREE: u32 = u32::MAX;

/// A leaf of a [`Tree`]: stable from insertion to removal, whatever the tree does around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId(pub(super) u32);

impl ProxyId {
    /// The index of the leaf's node (for tables the user keeps next to the tree).
    pub fn index(self) -> u32 {
        self.0
    }
}

/// One node. A leaf has `children == [NULL, NULL]` and height 0; an internal node has two
/// children and the height of the taller plus one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<N: Scalar, const D: usize> {
    /// A leaf's (fat) box, or the smallest box containing both children.
    pub(super) aabb: Aabb<N, D>,
    /// The parent, or [`NULL`] at the root; on the free list, the next free node.
    pub(super) parent: u32,
    pub(super) children: [u32; 2],
    /// 0 for a leaf, [`FREE`] on the free list.
    pub(super) height: u32,
    /// The user's value (leaves only).
    pub(super) data: u32,
}

impl<N: Scalar, const D: usize> Node<N, D> {
    pub(super) fn is_leaf(&self) -> bool {
        self.children[0] == NULL
    }
}

/// A bounding-volume tree of boxes with a `u32` of the user's in each leaf (see the
/// [module docs](crate::tree)).
#[derive(Clone, Debug)]
pub struct Tree<N: Scalar, const D: usize> {
    pub(super) nodes: Vec<Node<N, D>>,
    pub(super) root: u32,
    /// Head of the free list.
    pub(super) free: u32,
    pub(super) leaves: usize,
}

impl<N: Scalar, const D: usize> Default for Tree<N, D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// An empty tree.
    pub fn new() -> Self {
        Self { nodes: Vec::new(), root: NULL, free: NULL, leaves: 0 }
    }

    /// The number of leaves.
    pub fn len(&self) -> usize {
        self.leaves
    }

    /// `true` when the tree has no leaf.
    pub fn is_empty(&self) -> bool {
        self.leaves == 0
    }

    /// The height of the tree: 0 for a single leaf (and for an empty tree), else the number of
    /// edges on the longest path from the root to a leaf.
    pub fn height(&self) -> u32 {
        if self.root == NULL { 0 } else { self.nodes[self.root as usize].height }
    }

    /// The nodes in use (leaves and internal nodes): `2·len() − 1` for a non-empty tree.
    pub fn node_count(&self) -> usize {
        if self.leaves == 0 { 0 } else { 2 * self.leaves - 1 }
    }

    /// The box of the whole tree, `None` when it is empty.
    pub fn root_aabb(&self) -> Option<&Aabb<N, D>> {
        self.nodes.get(self.root as usize).map(|n| &n.aabb)
    }

    /// The sum of the surface areas (2D: perimeters) of the internal nodes: the cost that
    /// insertion keeps low (see the module docs).
    pub fn area_cost(&self) -> N {
        let mut sum = N::zero();
        for n in &self.nodes {
            if n.height != FREE && !n.is_leaf() {
                sum += n.aabb.perimeter();
            }
        }
        sum
    }

    /// Removes every leaf (keeping the storage).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.root = NULL;
        self.free = NULL;
        self.leaves = 0;
    }

    /// A node taken from the free list, or a new one.
    pub(super) fn allocate(&mut self, aabb: Aabb<N, D>, data: u32) -> u32 {
        let node = Node { aabb, parent: NULL, children: [NULL, NULL], height: 0, data };
        if self.free == NULL {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let i = self.free;
            self.free = self.nodes[i as usize].parent;
            self.nodes[i as usize] = node;
            i
        }
    }

    /// Returns a node to the free list.
    pub(super) fn release(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.height = FREE;
        n.children = [NULL, NULL];
        n.parent = self.free;
        self.free = i;
    }

    /// The live leaf behind an id.
    pub(super) fn leaf(&self, id: ProxyId) -> Option<&Node<N, D>> {
        self.nodes.get(id.0 as usize).filter(|n| n.height == 0)
    }
}

/// `true` when every coordinate is finite and `mins ≤ maxs` on every axis.
pub(super) fn is_valid_aabb<N: Scalar, const D: usize>(aabb: &Aabb<N, D>) -> bool {
    (0..D).all(|k| {
        aabb.mins[k].is_finite_value()
            && aabb.maxs[k].is_finite_value()
            && aabb.mins[k] <= aabb.maxs[k]
    })
}

/// `true` when `outer` contains `inner` (touching counts).
pub(super) fn contains<N: Scalar, const D: usize>(outer: &Aabb<N, D>, inner: &Aabb<N, D>) -> bool {
    (0..D).all(|k| outer.mins[k] <= inner.mins[k] && inner.maxs[k] <= outer.maxs[k])
}
