//! Queries: boxes overlapping a box or containing a point, boxes along a ray (nearest first,
//! with a ray the caller can shorten), and boxes near a point (nearest first, with a distance
//! the caller can shorten).
//!
//! Each walks the tree's [`Branch`]es (one per internal node: both children's boxes and
//! links, one cache line; see [`super::node`]) depth first with an explicit stack sized by the
//! tree's height: an array of [`INLINE_STACK`] entries on the call stack, or a `Vec` for a
//! taller tree (which a height-balanced tree reaches only past about 2^40 leaves), and returns
//! the number of nodes it visited.

use kollide_math::{Point, Scalar, Vector};

use super::node::{Branch, Child, NULL, Tree};
use crate::Aabb;

/// Pending nodes the query stacks hold without allocating.
pub(super) const INLINE_STACK: usize = 64;

/// A stack of pending nodes over a buffer sized for the tree: a walk that pops a node and
/// pushes at most its two children holds at most one pending sibling per level of its path,
/// and two at the bottom, so `height + 1` entries. The buffer is an array on the call stack
/// ([`INLINE_STACK`] entries) for any tree up to that height, and a `Vec` beyond.
struct Stack<'a, T: Copy> {
    items: &'a mut [T],
    len: usize,
}

impl<T: Copy> Stack<'_, T> {
    #[inline(always)]
    fn push(&mut self, x: T) {
        self.items[self.len] = x;
        self.len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<T> {
        self.len = self.len.checked_sub(1)?;
        Some(self.items[self.len])
    }
}

/// Declares `$stack`, a [`Stack`] of `$fill`s (any value; it is overwritten before it is read)
/// with room for a walk of `$tree`. A macro, not a function, because the array must live in
/// the caller's frame.
macro_rules! stack_for {
    ($tree:expr, $stack:ident, $fill:expr) => {
        let fill = $fill;
        let need = $tree.height() as usize + 1;
        let mut inline = [fill; INLINE_STACK];
        let mut heap = Vec::new();
        let items: &mut [_] = if need <= INLINE_STACK {
            &mut inline
        } else {
            heap.resize(need, fill);
            &mut heap
        };
        let mut $stack = Stack { items, len: 0 };
    };
}

/// The smaller of two numbers that are not NaN (one comparison; `min_of` also checks for NaN).
#[inline(always)]
fn min2<N: Scalar>(a: N, b: N) -> N {
    if a < b { a } else { b }
}

/// The larger of two numbers that are not NaN.
#[inline(always)]
fn max2<N: Scalar>(a: N, b: N) -> N {
    if a > b { a } else { b }
}

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// Calls `f` with the data of every leaf whose box overlaps or touches `aabb`, until `f`
    /// returns `false`. Returns the number of nodes visited (whose box was tested).
    // Out of line, as `cast_ray` is: inlined into a caller, the box tests in its loop were
    // left as calls.
    #[inline(never)]
    pub fn query_aabb(&self, aabb: &Aabb<N, D>, f: impl FnMut(u32) -> bool) -> usize {
        self.walk_aabb::<false>(aabb, 0, f)
    }

    /// [`Tree::query_aabb`] for the leaves whose bits ([`Tree::set_proxy_bits`]) meet `mask`
    /// (`bits & mask != 0`): a subtree where no leaf's bits meet it is skipped whole. While
    /// every leaf has every bit set, it is the plain query (or, for a zero mask, none).
    #[inline(never)]
    pub fn query_aabb_masked(
        &self,
        aabb: &Aabb<N, D>,
        mask: u32,
        f: impl FnMut(u32) -> bool,
    ) -> usize {
        match (self.bits.is_empty(), mask) {
            (true, 0) => 0,
            (true, _) => self.query_aabb(aabb, f),
            _ => self.walk_aabb::<true>(aabb, mask, f),
        }
    }

    /// The walk of the box queries, with the mask test (`MASKED`) or without.
    #[inline(always)]
    fn walk_aabb<const MASKED: bool>(
        &self,
        aabb: &Aabb<N, D>,
        mask: u32,
        mut f: impl FnMut(u32) -> bool,
    ) -> usize {
        let Some(root) = self.nodes.get(self.root as usize) else { return 0 };
        if !root.aabb.intersects(aabb) || (MASKED && root.bits & mask == 0) {
            return 1;
        }
        let mut visited = 1;
        stack_for!(self, stack, Child::Node(0));
        // Every pending child overlaps the box: a child that misses is tested once, in its
        // parent's branch, and never pushed.
        stack.push(self.child(self.root));
        while let Some(next) = stack.pop() {
            match next {
                Child::Leaf(data) => {
                    if !f(data) {
                        break;
                    }
                }
                Child::Node(i) => {
                    visited += 2;
                    let branch = self.branch(i);
                    let meets = self.meets::<MASKED>(i, mask);
                    for ((b, c), m) in branch.boxes.iter().zip(branch.children).zip(meets) {
                        if m && b.intersects(aabb) {
                            stack.push(c);
                        }
                    }
                }
            }
        }
        visited
    }

    /// Whether the bits of each child of the internal node `i` meet `mask` (both, unmasked).
    #[inline(always)]
    fn meets<const MASKED: bool>(&self, i: u32, mask: u32) -> [bool; 2] {
        // A masked walk runs only on a tree whose bits beside the branches are kept.
        if MASKED { self.bits[i as usize].map(|b| b & mask != 0) } else { [true; 2] }
    }

    /// The branch of the internal node `i`, which a [`Child::Node`] names.
    #[inline(always)]
    fn branch(&self, i: u32) -> &Branch<N, D> {
        &self.branches[i as usize]
    }

    /// Calls `f` with the data of every leaf whose box contains `p` (boundary included), until
    /// `f` returns `false`. Returns the number of nodes visited.
    pub fn query_point(&self, p: &Point<N, D>, f: impl FnMut(u32) -> bool) -> usize {
        self.query_aabb(&Aabb::new(*p, *p), f)
    }

    /// Walks the leaves whose boxes the ray `origin + t·dir`, `0 ≤ t ≤ max_t`, enters, nearer
    /// boxes first. `f` gets a leaf's data and the current `max_t`, and returns `Some(t)` to go
    /// on with `max_t` lowered to `t` (return the `max_t` it got to keep it; a closest-hit
    /// search returns its best hit's `t`, and every box entered beyond it is skipped), or
    /// `None` to stop. Returns the number of nodes visited (whose box was tested).
    ///
    /// Boxes are tested with the slab method; an axis along which `dir` is zero is a slab the
    /// origin must lie in. A non-finite origin or direction, or a `max_t` that is negative or
    /// NaN, visits nothing.
    // Out of line: inlined into a caller, its loop came out longer (one callgrind count).
    #[inline(never)]
    pub fn cast_ray(
        &self,
        origin: &Point<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
        f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        self.ray::<false>(origin, dir, max_t, 0, f)
    }

    /// [`Tree::cast_ray`] for the leaves whose bits meet `mask`, as
    /// [`Tree::query_aabb_masked`].
    #[inline(never)]
    pub fn cast_ray_masked(
        &self,
        origin: &Point<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
        mask: u32,
        f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        match (self.bits.is_empty(), mask) {
            (true, 0) => 0,
            (true, _) => self.cast_ray(origin, dir, max_t, f),
            _ => self.ray::<true>(origin, dir, max_t, mask, f),
        }
    }

    /// The ray queries: the input checks, then the walk for the ray's kind.
    #[inline(always)]
    fn ray<const MASKED: bool>(
        &self,
        origin: &Point<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
        mask: u32,
        f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        let finite = origin.iter().chain(dir.iter()).all(|x| x.is_finite_value());
        if self.root == NULL || !finite || max_t.is_nan_value() || max_t < N::zero() {
            return 0;
        }
        if MASKED && self.nodes[self.root as usize].bits & mask == 0 {
            return 1;
        }
        let ray = Slabs::new(origin, dir);
        // The walk is compiled twice: without the parallel-axis checks for the usual ray, which
        // moves along every axis, and with them.
        if ray.parallel.iter().any(|&p| p) {
            self.walk_ray::<true, MASKED>(&ray, max_t, mask, f)
        } else {
            self.walk_ray::<false, MASKED>(&ray, max_t, mask, f)
        }
    }

    /// The walk of [`Tree::cast_ray`]: a child is pushed with the `t` at which the ray enters
    /// its box, tested in its parent's branch; the nearer child is pushed last, so it is popped
    /// first, and a child whose entry lies beyond the (shortened) ray is dropped when popped.
    #[inline(always)]
    fn walk_ray<const PARALLEL: bool, const MASKED: bool>(
        &self,
        ray: &Slabs<N, D>,
        max_t: N,
        mask: u32,
        mut f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        let mut max_t = max_t;
        let mut visited = 1;
        let root = self.root;
        let Some(t) = ray.entry::<PARALLEL>(&self.nodes[root as usize].aabb, max_t) else {
            return visited;
        };
        stack_for!(self, stack, (Child::Node(0), N::zero()));
        stack.push((self.child(root), t));
        while let Some((next, entry)) = stack.pop() {
            if entry > max_t {
                continue;
            }
            let i = match next {
                Child::Node(i) => i,
                Child::Leaf(data) => {
                    match f(data, max_t) {
                        Some(t) => max_t = min2(max_t, t),
                        None => break,
                    }
                    continue;
                }
            };
            visited += 2;
            let Branch { boxes: [box_a, box_b], children: [a, b] } = self.branch(i);
            let [ma, mb] = self.meets::<MASKED>(i, mask);
            let ta = ray.entry::<PARALLEL>(box_a, max_t).filter(|_| ma);
            let tb = ray.entry::<PARALLEL>(box_b, max_t).filter(|_| mb);
            match (ta, tb) {
                (Some(ta), Some(tb)) => {
                    let ((near, tn), (far, tf)) =
                        if ta <= tb { ((*a, ta), (*b, tb)) } else { ((*b, tb), (*a, ta)) };
                    stack.push((far, tf));
                    stack.push((near, tn));
                }
                (Some(ta), None) => stack.push((*a, ta)),
                (None, Some(tb)) => stack.push((*b, tb)),
                (None, None) => {}
            }
        }
        visited
    }

    /// Walks the leaves whose boxes lie within `max_dist` of `p`, nearer boxes first. `f` gets
    /// a leaf's data and the current bound, and returns `Some(d)` to go on with the bound
    /// lowered to `d`, or `None` to stop. Boxes farther than the bound are skipped. A
    /// non-finite point or a NaN or negative `max_dist` visits nothing. Returns the number of
    /// nodes visited.
    pub fn nearest(
        &self,
        p: &Point<N, D>,
        max_dist: N,
        f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        self.walk_nearest::<false>(p, max_dist, 0, f)
    }

    /// [`Tree::nearest`] for the leaves whose bits meet `mask`, as
    /// [`Tree::query_aabb_masked`].
    pub fn nearest_masked(
        &self,
        p: &Point<N, D>,
        max_dist: N,
        mask: u32,
        f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        match (self.bits.is_empty(), mask) {
            (true, 0) => 0,
            (true, _) => self.nearest(p, max_dist, f),
            _ => self.walk_nearest::<true>(p, max_dist, mask, f),
        }
    }

    /// The walk of the nearest-leaf queries: a child is pushed with its box's squared
    /// distance, the nearer last, so that it is popped first.
    fn walk_nearest<const MASKED: bool>(
        &self,
        p: &Point<N, D>,
        max_dist: N,
        mask: u32,
        mut f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        let finite = p.iter().all(|x| x.is_finite_value());
        if self.root == NULL || !finite || max_dist.is_nan_value() || max_dist < N::zero() {
            return 0;
        }
        let root = &self.nodes[self.root as usize];
        if MASKED && root.bits & mask == 0 {
            return 0;
        }
        let mut bound = max_dist;
        let mut visited = 0;
        stack_for!(self, stack, (Child::Node(0), N::zero()));
        stack.push((self.child(self.root), distance_squared(&root.aabb, p)));
        while let Some((next, d2)) = stack.pop() {
            visited += 1;
            if d2 > bound * bound {
                continue;
            }
            let i = match next {
                Child::Node(i) => i,
                Child::Leaf(data) => {
                    match f(data, bound) {
                        Some(d) => bound = bound.min_of(d),
                        None => break,
                    }
                    continue;
                }
            };
            let Branch { boxes: [box_a, box_b], children: [a, b] } = self.branch(i);
            match self.meets::<MASKED>(i, mask) {
                [true, true] => {
                    let (da, db) = (distance_squared(box_a, p), distance_squared(box_b, p));
                    let (near, far) =
                        if da <= db { ((*a, da), (*b, db)) } else { ((*b, db), (*a, da)) };
                    stack.push(far);
                    stack.push(near);
                }
                [true, false] => stack.push((*a, distance_squared(box_a, p))),
                [false, true] => stack.push((*b, distance_squared(box_b, p))),
                [false, false] => {}
            }
        }
        visited
    }
}

/// The squared distance from `p` to the box (zero inside).
fn distance_squared<N: Scalar, const D: usize>(aabb: &Aabb<N, D>, p: &Point<N, D>) -> N {
    let mut sum = N::zero();
    for k in 0..D {
        let d = (aabb.mins[k] - p[k]).max_of(p[k] - aabb.maxs[k]).max_of(N::zero());
        sum += d * d;
    }
    sum
}

/// A ray prepared for slab tests: the reciprocal of each direction component (clamped to the
/// largest finite value when the component is too small to invert), and which components are
/// zero (an axis along which the ray does not move is a slab the origin must lie in).
///
/// No product of the test is NaN: the box and the origin are finite and every reciprocal is a
/// finite non-zero number, so `(bound − origin)·inv` is a number or an infinity of the right
/// sign. The minima and maxima therefore need no NaN checks.
struct Slabs<N: Scalar, const D: usize> {
    origin: Point<N, D>,
    inv: Vector<N, D>,
    parallel: [bool; D],
}

impl<N: Scalar, const D: usize> Slabs<N, D> {
    fn new(origin: &Point<N, D>, dir: &Vector<N, D>) -> Self {
        let inv = dir.map(|d| {
            let i = N::one() / d;
            if i.is_finite_value() {
                i
            } else if i < N::zero() {
                -N::MAX
            } else {
                N::MAX
            }
        });
        Self { origin: *origin, inv, parallel: core::array::from_fn(|k| dir[k] == N::zero()) }
    }

    /// The `t` at which the ray enters the box (0 when it starts inside), if it does so at
    /// some `t` in `[0, max_t]`. `PARALLEL` is `false` only when no axis is parallel: then
    /// every axis is computed and the interval is tested once, without a branch per axis
    /// (whether a box is hit is as good as random, so per-axis exits mispredict often).
    #[inline(always)]
    fn entry<const PARALLEL: bool>(&self, aabb: &Aabb<N, D>, max_t: N) -> Option<N> {
        let (mut lo, mut hi) = (N::zero(), max_t);
        for k in 0..D {
            let o = self.origin[k];
            if PARALLEL && self.parallel[k] {
                if o < aabb.mins[k] || o > aabb.maxs[k] {
                    return None;
                }
                continue;
            }
            // The slab's near side is fixed by the direction's sign, the same for every box.
            let (near, far) = if self.inv[k] < N::zero() {
                (aabb.maxs[k], aabb.mins[k])
            } else {
                (aabb.mins[k], aabb.maxs[k])
            };
            lo = max2(lo, (near - o) * self.inv[k]);
            hi = min2(hi, (far - o) * self.inv[k]);
            if PARALLEL && lo > hi {
                return None;
            }
        }
        (lo <= hi).then_some(lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Point2, Vec2};

    #[test]
    fn slab_entry_handles_parallel_and_inside_rays() {
        let b = Aabb::new(Point2::new(0.0f64, 0.0), Point2::new(1.0, 1.0));
        let r = Slabs::new(&Point2::new(-1.0, 0.5), &Vec2::new(2.0, 0.0));
        assert_eq!(r.entry::<true>(&b, 10.0), Some(0.5));
        assert_eq!(r.entry::<true>(&b, 0.4), None);
        // The walk without parallel checks gives the same answers for a ray along no axis.
        let r = Slabs::new(&Point2::new(-1.0, 0.25), &Vec2::new(2.0, 0.5));
        assert_eq!(r.entry::<false>(&b, 10.0), Some(0.5));
        assert_eq!(r.entry::<false>(&b, 10.0), r.entry::<true>(&b, 10.0));
        let r = Slabs::new(&Point2::new(2.0, 0.5), &Vec2::new(1.0, 1e-30));
        assert_eq!(r.entry::<false>(&b, f64::INFINITY), None);
        // Parallel, on the boundary plane: touches.
        let r = Slabs::new(&Point2::new(-1.0, 1.0), &Vec2::new(1.0, 0.0));
        assert_eq!(r.entry::<true>(&b, 10.0), Some(1.0));
        // Starting inside.
        let r = Slabs::new(&Point2::new(0.5, 0.5), &Vec2::new(0.0, -1.0));
        assert_eq!(r.entry::<true>(&b, 10.0), Some(0.0));
        // Pointing away.
        let r = Slabs::new(&Point2::new(2.0, 0.5), &Vec2::new(1.0, 0.0));
        assert_eq!(r.entry::<true>(&b, 10.0), None);
    }
}
