//! The tree's storage: nodes in one `Vec`, addressed by `u32`, with a free list, and beside
//! them the [`Branch`]es that the queries walk.
//!
//! **Two views of one tree.** [`Node`]s hold the structure that insertion, removal, rotations
//! and the build edit: each node's own box, its parent, children and height. A query instead
//! wants, at each internal node, both children's boxes (to test them and choose the nearer)
//! and what to do next with each: descend into an internal child or report a leaf's data.
//! Read from the nodes, that is three scattered reads per internal node (the node and its two
//! children, 44 bytes each for `f32` in 3D, often straddling two cache lines). So every
//! internal node also has a [`Branch`], at the same index: a copy of both children's boxes and
//! [`Child`] links, aligned to one 64-byte cache line (exactly one for `f32` in 3D; two for
//! `f64` in 3D). A walk reads one branch per internal node it expands and never reads a leaf's
//! node (parry's and most ray-tracing BVHs store children's boxes in the parent for the same
//! reason).
//!
//! **Bits.** Each leaf also carries 32 bits of the user's (the world gives a body's collision
//! memberships), each internal node the union of its children's, and beside the branches each
//! internal node keeps its two children's bits, so that a query with a mask skips every
//! subtree where no leaf's bits meet it, as Box2D's tree does with its category bits. They are
//! an array of their own rather than part of the branch, which they would push past its cache
//! line: a walk without a mask never reads them.
//!
//! The copy is kept by [`Tree::refit`], the only place an internal node's box and bits are
//! computed (apart from `Tree::set_leaf_bits`, which changes only bits):
//! every edit of the tree (insertion, removal, rotation, build) refits each internal node whose
//! children changed, on the way up to the root, so the branches never go stale
//! ([`Tree::check_invariants`] compares them with the nodes). A leaf's branch slot is unused:
//! the branches share the nodes' indices so that no second free list is needed.

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
    /// The box was grown in place ([`Tree::enlarge_proxy`]) since the last (partial) rebuild:
    /// a leaf that moved, or an ancestor of one, whose box may be looser than its children's.
    pub(super) enlarged: bool,
    /// A leaf's bits ([`Tree::set_proxy_bits`]; all set unless the user set others), or the
    /// union of an internal node's children's bits.
    pub(super) bits: u32,
}

impl<N: Scalar, const D: usize> Node<N, D> {
    pub(super) fn is_leaf(&self) -> bool {
        self.children[0] == NULL
    }

    /// The link a query follows to this node, whose index is `i`.
    #[inline(always)]
    pub(super) fn link(&self, i: u32) -> Child {
        if self.is_leaf() { Child::Leaf(self.data) } else { Child::Node(i) }
    }
}

/// What a query does with a child of an internal node: descend into an internal node (its
/// index) or report a leaf (its data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Child {
    Node(u32),
    Leaf(u32),
}

/// The query view of an internal node (see the module docs): its children's boxes and links.
/// One cache line for `f32` in 3D (two boxes of 24 bytes and two links of 8).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(align(64))]
pub(super) struct Branch<N: Scalar, const D: usize> {
    pub(super) boxes: [Aabb<N, D>; 2],
    pub(super) children: [Child; 2],
}

/// A bounding-volume tree of boxes with a `u32` of the user's in each leaf (see the
/// [module docs](crate::tree)).
#[derive(Clone, Debug)]
pub struct Tree<N: Scalar, const D: usize> {
    pub(super) nodes: Vec<Node<N, D>>,
    /// Per node index: the internal node's [`Branch`] (unused for leaves and free nodes).
    pub(super) branches: Vec<Branch<N, D>>,
    /// Per node index: the bits of the internal node's two children, in the branch's order
    /// (unused for leaves and free nodes). Empty while every leaf has every bit set, so that a
    /// tree that never uses bits (a mesh's) does not pay for them.
    pub(super) bits: Vec<[u32; 2]>,
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
        Self {
            nodes: Vec::new(),
            branches: Vec::new(),
            bits: Vec::new(),
            root: NULL,
            free: NULL,
            leaves: 0,
        }
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
        self.branches.clear();
        self.bits.clear();
        self.root = NULL;
        self.free = NULL;
        self.leaves = 0;
    }

    /// A node taken from the free list, or a new one.
    pub(super) fn allocate(&mut self, aabb: Aabb<N, D>, data: u32) -> u32 {
        let node = Node {
            aabb,
            parent: NULL,
            children: [NULL, NULL],
            height: 0,
            data,
            enlarged: false,
            bits: u32::MAX,
        };
        if self.free == NULL {
            self.nodes.push(node);
            // Placeholders, written by `refit` if the node becomes internal.
            self.branches.push(Branch { boxes: [aabb; 2], children: [Child::Leaf(data); 2] });
            if !self.bits.is_empty() {
                self.bits.push([u32::MAX; 2]);
            }
            (self.nodes.len() - 1) as u32
        } else {
            let i = self.free;
            self.free = self.nodes[i as usize].parent;
            self.nodes[i as usize] = node;
            i
        }
    }

    /// The link a query follows to node `i`.
    #[inline(always)]
    pub(super) fn child(&self, i: u32) -> Child {
        self.nodes[i as usize].link(i)
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
