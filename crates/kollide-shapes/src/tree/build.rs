//! The static build: a tree over a slice of boxes, built top down.
//!
//! Each range of boxes is split in two along the axis where their centres spread most. The
//! centres are dropped into [`BINS`] equal bins along that axis, and the split between bins that
//! minimises the surface-area heuristic, `count_left · area(left) + count_right · area(right)`,
//! is taken (Wald, "On fast construction of SAH-based bounding volume hierarchies", 2007; the
//! heuristic is MacDonald and Booth's, 1990). When all centres coincide the range is cut in
//! half. One box per leaf, so the result is an ordinary [`Tree`] whose leaf data are the boxes'
//! indices in the slice. The build uses an explicit work list, so a deep tree cannot overflow
//! the call stack.

use kollide_math::{Point, Scalar};

use super::TreeError;
use super::node::{FREE, NULL, Node, Tree, is_valid_aabb};
use crate::Aabb;

/// Bins per split.
const BINS: usize = 16;

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// A tree over `aabbs`, the data of each leaf being its box's index in the slice. A box
    /// that is not finite or not ordered is refused.
    pub fn build(aabbs: &[Aabb<N, D>]) -> Result<Self, TreeError> {
        let n = aabbs.len();
        if n >= (u32::MAX / 2) as usize {
            return Err(TreeError::TooManyBoxes(n));
        }
        if !aabbs.iter().all(is_valid_aabb) {
            return Err(TreeError::BadAabb);
        }
        let mut tree = Self::new();
        tree.nodes.reserve((2 * n).saturating_sub(1));
        let mut leaves: Vec<u32> =
            aabbs.iter().enumerate().map(|(i, a)| tree.allocate(*a, i as u32)).collect();
        tree.build_over(&mut leaves);
        Ok(tree)
    }

    /// Rebuilds the internal nodes top down over the current leaves, as [`Tree::build`] would
    /// over their boxes. The leaves keep their [`ProxyId`](super::ProxyId)s and data; only the
    /// structure above them changes. Worth it after many insertions, whose tree is usually
    /// costlier to query than a top-down build (see [`Tree::area_cost`]).
    pub fn rebuild(&mut self) {
        let mut leaves = Vec::with_capacity(self.leaves);
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            if node.height == FREE {
                continue;
            }
            if node.is_leaf() {
                leaves.push(i as u32);
            } else {
                self.release(i as u32);
            }
        }
        self.build_over(&mut leaves);
    }

    /// Rebuilds the part of the tree above the leaves enlarged since the last rebuild
    /// ([`Tree::enlarge_proxy`]): every marked internal node is released, and the subtrees
    /// below them that hold no enlarged leaf, with the enlarged leaves, are linked again top
    /// down, as [`Tree::build`] links leaves (a subtree counts as one box). The cost grows with
    /// the number of moved leaves, not with the tree. Nothing happens when nothing was
    /// enlarged.
    pub fn rebuild_enlarged(&mut self) {
        if self.root == NULL || !self.nodes[self.root as usize].enlarged {
            return;
        }
        let mut units = Vec::new();
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            let node = &mut self.nodes[i as usize];
            if node.is_leaf() || !node.enlarged {
                node.enlarged = false;
                units.push(i);
            } else {
                stack.extend(node.children);
                self.release(i);
            }
        }
        self.link_top_down(&mut units, split_mid);
    }

    /// Links the allocated leaves `items` (all of this tree's leaves; no internal node in use)
    /// under new internal nodes, top down.
    fn build_over(&mut self, items: &mut [u32]) {
        self.leaves = items.len();
        self.link_top_down(items, split);
    }

    /// Links the nodes `items` (leaves or roots of subtrees, which together hold every leaf;
    /// no other internal node in use) under new internal nodes, top down, each range split by
    /// `split`.
    fn link_top_down(&mut self, items: &mut [u32], split: Split<N, D>) {
        self.root = NULL;
        if items.is_empty() {
            return;
        }
        let mut centers = vec![Point::<N, D>::origin(); self.nodes.len()];
        for &i in items.iter() {
            centers[i as usize] = self.nodes[i as usize].aabb.center();
        }
        // The internal nodes in the order they were made: parents before their children.
        let mut internal = Vec::with_capacity(items.len());
        // (range start, range end, parent, which child of the parent)
        let mut work = vec![(0, items.len(), NULL, 0)];
        while let Some((start, end, parent, side)) = work.pop() {
            let node = if end - start == 1 {
                items[start]
            } else {
                let mid = start + split(&mut items[start..end], &centers, &self.nodes);
                // Its box and height are set once its children exist.
                let aabb = self.nodes[items[start] as usize].aabb;
                let node = self.allocate(aabb, 0);
                internal.push(node);
                work.push((start, mid, node, 0));
                work.push((mid, end, node, 1));
                node
            };
            self.nodes[node as usize].parent = parent;
            if parent == NULL {
                self.root = node;
            } else {
                self.nodes[parent as usize].children[side] = node;
            }
        }
        for &i in internal.iter().rev() {
            self.refit(i);
        }
    }
}

/// A way to split a range of nodes in two (see [`split`]).
type Split<N, const D: usize> = fn(&mut [u32], &[Point<N, D>], &[Node<N, D>]) -> usize;

/// The bounds of the centres of `items`: their lowest and highest corner.
fn center_bounds<N: Scalar, const D: usize>(
    items: &[u32],
    centers: &[Point<N, D>],
) -> (Point<N, D>, Point<N, D>) {
    let first = centers[items[0] as usize];
    let (mut lo, mut hi) = (first, first);
    for &i in items.iter() {
        lo = lo.inf(&centers[i as usize]);
        hi = hi.sup(&centers[i as usize]);
    }
    (lo, hi)
}

/// The quick split of the partial rebuilds: at the middle of the centres' spread along its
/// widest axis, or in half when all of them lie on one side (Box2D v3 rebuilds its dynamic
/// tree so, every step: a tenth of the binned heuristic's work, for a tree a little costlier to
/// query). Same contract as [`split`].
fn split_mid<N: Scalar, const D: usize>(
    items: &mut [u32],
    centers: &[Point<N, D>],
    _nodes: &[Node<N, D>],
) -> usize {
    let (lo, hi) = center_bounds(items, centers);
    let axis = (hi - lo).imax();
    let mid = (lo[axis] + hi[axis]) * N::lit(0.5);
    let mut m = 0;
    for j in 0..items.len() {
        if centers[items[j] as usize][axis] < mid {
            items.swap(m, j);
            m += 1;
        }
    }
    if m == 0 || m == items.len() { items.len() / 2 } else { m }
}

/// Reorders `items` (at least two) so that the two halves of the best split come first and
/// last, and returns the size of the first (in `1..items.len()`).
fn split<N: Scalar, const D: usize>(
    items: &mut [u32],
    centers: &[Point<N, D>],
    nodes: &[Node<N, D>],
) -> usize {
    let half = items.len() / 2;
    let (lo, hi) = center_bounds(items, centers);
    let extent = hi - lo;
    let axis = extent.imax();
    let width = extent[axis];
    if width <= N::zero() || width.is_nan_value() {
        return half;
    }
    if let [first, second] = items {
        // Two items split one and one, the lower centre first (what the bins below give, with
        // none of their fixed cost, which is most of a build's time at the leaves).
        if centers[*second as usize][axis] < centers[*first as usize][axis] {
            core::mem::swap(first, second);
        }
        return 1;
    }
    let scale = N::from_count(BINS) / width;
    let bin = |i: u32| {
        let x = ((centers[i as usize][axis] - lo[axis]) * scale).to_f64();
        (x.max(0.0) as usize).min(BINS - 1)
    };
    let mut counts = [0usize; BINS];
    // An empty bin's box is inside out, so that merging into it gives the other box exactly.
    let empty = Aabb::new(Point::from([N::MAX; D]), Point::from([-N::MAX; D]));
    let mut boxes = [empty; BINS];
    for &i in items.iter() {
        let b = bin(i);
        counts[b] += 1;
        boxes[b] = boxes[b].merged(&nodes[i as usize].aabb);
    }
    // The cost on the right of each split, then a sweep from the left.
    let mut right_cost = [N::MAX; BINS];
    let (mut acc, mut count) = (empty, 0);
    for s in (1..BINS).rev() {
        acc = acc.merged(&boxes[s]);
        count += counts[s];
        if count > 0 {
            right_cost[s] = N::from_count(count) * acc.perimeter();
        }
    }
    let (mut acc, mut count) = (empty, 0);
    let mut best = (N::MAX, 0);
    for s in 0..BINS - 1 {
        acc = acc.merged(&boxes[s]);
        count += counts[s];
        // Splits with an empty side are not splits.
        if count == 0 || count == items.len() {
            continue;
        }
        let cost = N::from_count(count) * acc.perimeter() + right_cost[s + 1];
        if cost < best.0 || best.0 == N::MAX {
            best = (cost, s);
        }
    }
    let mut m = 0;
    for j in 0..items.len() {
        if bin(items[j]) <= best.1 {
            items.swap(m, j);
            m += 1;
        }
    }
    if m == 0 || m == items.len() { half } else { m }
}
