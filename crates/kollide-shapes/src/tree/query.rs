//! Queries: boxes overlapping a box or containing a point, boxes along a ray (nearest first,
//! with a ray the caller can shorten), and boxes near a point (nearest first, with a distance
//! the caller can shorten).
//!
//! Each walks the tree depth first with an explicit stack held inline up to [`INLINE_STACK`]
//! entries (it spills to the heap only beyond that, which a height-balanced tree reaches only
//! past about 2^40 leaves), and returns the number of nodes it visited.

use kollide_math::{Point, Scalar, Vector};
use smallvec::SmallVec;

use super::node::{NULL, Tree};
use crate::Aabb;

/// Pending nodes the query stacks hold without allocating.
pub(super) const INLINE_STACK: usize = 64;

type Stack<T> = SmallVec<[T; INLINE_STACK]>;

impl<N: Scalar, const D: usize> Tree<N, D> {
    /// Calls `f` with the data of every leaf whose box overlaps or touches `aabb`, until `f`
    /// returns `false`. Returns the number of nodes visited.
    pub fn query_aabb(&self, aabb: &Aabb<N, D>, mut f: impl FnMut(u32) -> bool) -> usize {
        let mut visited = 0;
        if self.root == NULL {
            return 0;
        }
        let mut stack: Stack<u32> = SmallVec::new();
        stack.push(self.root);
        while let Some(i) = stack.pop() {
            visited += 1;
            let node = &self.nodes[i as usize];
            if !node.aabb.intersects(aabb) {
                continue;
            }
            if node.is_leaf() {
                if !f(node.data) {
                    break;
                }
            } else {
                stack.push(node.children[0]);
                stack.push(node.children[1]);
            }
        }
        visited
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
    /// `None` to stop. Returns the number of nodes visited.
    ///
    /// Boxes are tested with the slab method; an axis along which `dir` is zero is a slab the
    /// origin must lie in. A non-finite origin or direction, or a `max_t` that is negative or
    /// NaN, visits nothing.
    pub fn cast_ray(
        &self,
        origin: &Point<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
        mut f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        let finite = origin.iter().chain(dir.iter()).all(|x| x.is_finite_value());
        if self.root == NULL || !finite || max_t.is_nan_value() || max_t < N::zero() {
            return 0;
        }
        let ray = Slabs::new(origin, dir);
        let mut max_t = max_t;
        let mut visited = 0;
        let mut stack: Stack<(u32, N)> = SmallVec::new();
        if let Some(t) = ray.entry(&self.nodes[self.root as usize].aabb, max_t) {
            stack.push((self.root, t));
        }
        while let Some((i, entry)) = stack.pop() {
            visited += 1;
            if entry > max_t {
                continue;
            }
            let node = &self.nodes[i as usize];
            if node.is_leaf() {
                match f(node.data, max_t) {
                    Some(t) => max_t = max_t.min_of(t),
                    None => break,
                }
                continue;
            }
            let [a, b] = node.children;
            let ta = ray.entry(&self.nodes[a as usize].aabb, max_t);
            let tb = ray.entry(&self.nodes[b as usize].aabb, max_t);
            match (ta, tb) {
                (Some(ta), Some(tb)) if ta <= tb => {
                    stack.push((b, tb));
                    stack.push((a, ta));
                }
                (Some(ta), Some(tb)) => {
                    stack.push((a, ta));
                    stack.push((b, tb));
                }
                (Some(ta), None) => stack.push((a, ta)),
                (None, Some(tb)) => stack.push((b, tb)),
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
        mut f: impl FnMut(u32, N) -> Option<N>,
    ) -> usize {
        let finite = p.iter().all(|x| x.is_finite_value());
        if self.root == NULL || !finite || max_dist.is_nan_value() || max_dist < N::zero() {
            return 0;
        }
        let mut bound = max_dist;
        let mut visited = 0;
        let mut stack: Stack<(u32, N)> = SmallVec::new();
        stack.push((self.root, distance_squared(&self.nodes[self.root as usize].aabb, p)));
        while let Some((i, d2)) = stack.pop() {
            visited += 1;
            if d2 > bound * bound {
                continue;
            }
            let node = &self.nodes[i as usize];
            if node.is_leaf() {
                match f(node.data, bound) {
                    Some(d) => bound = bound.min_of(d),
                    None => break,
                }
                continue;
            }
            let [a, b] = node.children;
            let da = distance_squared(&self.nodes[a as usize].aabb, p);
            let db = distance_squared(&self.nodes[b as usize].aabb, p);
            let (near, far) = if da <= db { ((a, da), (b, db)) } else { ((b, db), (a, da)) };
            stack.push(far);
            stack.push(near);
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
    /// some `t` in `[0, max_t]`.
    #[inline(always)]
    fn entry(&self, aabb: &Aabb<N, D>, max_t: N) -> Option<N> {
        let (mut lo, mut hi) = (N::zero(), max_t);
        for k in 0..D {
            let o = self.origin[k];
            if self.parallel[k] {
                if o < aabb.mins[k] || o > aabb.maxs[k] {
                    return None;
                }
                continue;
            }
            let t1 = (aabb.mins[k] - o) * self.inv[k];
            let t2 = (aabb.maxs[k] - o) * self.inv[k];
            let (near, far) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
            if near > lo {
                lo = near;
            }
            if far < hi {
                hi = far;
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
        assert_eq!(r.entry(&b, 10.0), Some(0.5));
        assert_eq!(r.entry(&b, 0.4), None);
        // Parallel, on the boundary plane: touches.
        let r = Slabs::new(&Point2::new(-1.0, 1.0), &Vec2::new(1.0, 0.0));
        assert_eq!(r.entry(&b, 10.0), Some(1.0));
        // Starting inside.
        let r = Slabs::new(&Point2::new(0.5, 0.5), &Vec2::new(0.0, -1.0));
        assert_eq!(r.entry(&b, 10.0), Some(0.0));
        // Pointing away.
        let r = Slabs::new(&Point2::new(2.0, 0.5), &Vec2::new(1.0, 0.0));
        assert_eq!(r.entry(&b, 10.0), None);
    }
}
