//! The tree's invariants, checked on demand (by tests, or by a user who suspects a bug).

use kollide_math::Scalar;
use thiserror::Error;

use super::node::{Branch, FREE, NULL, Tree};

/// An invariant of a [`Tree`] that does not hold (a bug in the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum InvariantViolation {
    /// A node's parent link does not point back at the node that lists it as a child.
    #[error("node {0} has the wrong parent")]
    Parent(u32),
    /// An internal node's box does not contain a child's box.
    #[error("node {0} does not contain its children")]
    Containment(u32),
    /// A node's height is not one more than its taller child's (0 for a leaf).
    #[error("node {0} has the wrong height")]
    Height(u32),
    /// An internal node's branch (the copy of its children's boxes and links that the queries
    /// walk) does not match its children.
    #[error("node {0} has a stale branch")]
    Branch(u32),
    /// An internal node's bits are not the union of its children's, or its copy of its
    /// children's bits is stale.
    #[error("node {0} has the wrong bits")]
    Bits(u32),
    /// A node is reached twice, or a free node is reached from the root.
    #[error("node {0} is reached twice or is free")]
    Structure(u32),
    /// The leaves reached, or the nodes reached plus the free ones, do not add up.
    #[error("the tree counts {counted} leaves and {nodes} nodes but holds {expected}")]
    Count {
        /// Leaves reached from the root.
        counted: usize,
        /// Nodes reached from the root plus free nodes.
        nodes: usize,
        /// Leaves the tree says it holds.
        expected: usize,
    },
}

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// Checks every invariant: parent links, each internal box containing its children's,
    /// heights, bits, each internal node's branch matching its children, and that every node is
    /// either reached once from the root or free.
    pub fn check_invariants(&self) -> Result<(), InvariantViolation> {
        let mut seen = vec![false; self.nodes.len()];
        let (mut leaves, mut reached) = (0, 0);
        let mut stack = Vec::new();
        if self.root != NULL {
            if self.nodes[self.root as usize].parent != NULL {
                return Err(InvariantViolation::Parent(self.root));
            }
            stack.push(self.root);
        }
        while let Some(i) = stack.pop() {
            let node = &self.nodes[i as usize];
            if seen[i as usize] || node.height == FREE {
                return Err(InvariantViolation::Structure(i));
            }
            seen[i as usize] = true;
            reached += 1;
            if node.is_leaf() {
                leaves += 1;
                if node.height != 0 {
                    return Err(InvariantViolation::Height(i));
                }
                continue;
            }
            let [a, b] = node.children;
            for c in [a, b] {
                let child = &self.nodes[c as usize];
                if child.parent != i {
                    return Err(InvariantViolation::Parent(c));
                }
                if !node.aabb.contains(&child.aabb) {
                    return Err(InvariantViolation::Containment(i));
                }
            }
            let h = 1 + self.nodes[a as usize].height.max(self.nodes[b as usize].height);
            if node.height != h {
                return Err(InvariantViolation::Height(i));
            }
            let bits = [self.nodes[a as usize].bits, self.nodes[b as usize].bits];
            let copy = self.bits.get(i as usize).unwrap_or(&[u32::MAX; 2]);
            if node.bits != bits[0] | bits[1] || *copy != bits {
                return Err(InvariantViolation::Bits(i));
            }
            let branch = Branch {
                boxes: [self.nodes[a as usize].aabb, self.nodes[b as usize].aabb],
                children: [self.child(a), self.child(b)],
            };
            if self.branches[i as usize] != branch {
                return Err(InvariantViolation::Branch(i));
            }
            stack.extend([a, b]);
        }
        let mut free = 0;
        let mut f = self.free;
        while f != NULL && free <= self.nodes.len() {
            free += 1;
            f = self.nodes[f as usize].parent;
        }
        if leaves != self.leaves || reached + free != self.nodes.len() {
            return Err(InvariantViolation::Count {
                counted: leaves,
                nodes: reached + free,
                expected: self.leaves,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Aabb;
    use kollide_math::Point2;

    /// The checker reports each kind of corruption (so the tests that rely on it can fail).
    #[test]
    fn corruption_is_reported() {
        let mut tree = Tree::<f64, 2>::new();
        for i in 0..8 {
            let x = f64::from(i);
            let b = Aabb::new(Point2::new(x, 0.0), Point2::new(x + 0.5, 1.0));
            tree.create_proxy(&b, 0.0, i).unwrap();
        }
        tree.check_invariants().unwrap();
        let root = tree.root as usize;
        let mut t = tree.clone();
        t.nodes[root].aabb.maxs.x -= 1.0;
        assert_eq!(t.check_invariants(), Err(InvariantViolation::Containment(root as u32)));
        let mut t = tree.clone();
        t.nodes[root].height += 1;
        assert_eq!(t.check_invariants(), Err(InvariantViolation::Height(root as u32)));
        let mut t = tree.clone();
        let c = t.nodes[root].children[0] as usize;
        t.nodes[c].parent = c as u32;
        assert_eq!(t.check_invariants(), Err(InvariantViolation::Parent(c as u32)));
        let mut t = tree.clone();
        t.branches[root].boxes[1].mins.y -= 1.0;
        assert_eq!(t.check_invariants(), Err(InvariantViolation::Branch(root as u32)));
        let mut t = tree.clone();
        t.leaves += 1;
        assert!(matches!(t.check_invariants(), Err(InvariantViolation::Count { .. })));
    }
}
