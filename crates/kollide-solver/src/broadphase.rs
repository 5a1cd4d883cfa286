//! Sweep and prune: the broadphase that finds which bodies' AABBs overlap.
//!
//! Bodies are kept sorted by the lower x bound of their AABB. Between steps bodies move a little,
//! so the order is almost right and an insertion sort repairs it in near-linear time. A sweep
//! then walks the sorted list: each body is tested only against the bodies that start before it
//! ends on x, and the other axes are compared directly. Pairs of two non-dynamic bodies are
//! skipped. The output is sorted, so the world visits pairs in the same order every run
//! (determinism) and can match them to last step's pairs by binary search (persistence).
//!
//! Source: Baraff, "Dynamic simulation of non-penetrating rigid bodies" (1992), §6.2 (sort and
//! sweep); Ericson, *Real-Time Collision Detection*, §7.5.

use kollide_math::Scalar;
use kollide_shapes::Aabb;

/// The broadphase state: slot indices sorted by AABB lower x bound.
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    order: Vec<u32>,
}

impl SweepAndPrune {
    /// An empty broadphase.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds the overlapping pairs among `aabbs` (indexed by slot; `None` for empty slots).
    /// `movable[i]` says whether slot `i` is dynamic; pairs of two non-dynamic bodies are
    /// skipped. Writes `(lower slot, higher slot)` pairs, sorted, into `out`.
    pub fn find_pairs<N: Scalar, const D: usize>(
        &mut self,
        aabbs: &[Option<Aabb<N, D>>],
        movable: &[bool],
        out: &mut Vec<(u32, u32)>,
    ) {
        out.clear();
        // Keep live slots, add new ones, then repair the order (insertion sort: near-linear on
        // an almost sorted list).
        self.order.retain(|&i| aabbs.get(i as usize).is_some_and(Option::is_some));
        let mut present = vec![false; aabbs.len()];
        for &i in &self.order {
            present[i as usize] = true;
        }
        for (i, a) in aabbs.iter().enumerate() {
            if a.is_some() && !present[i] {
                self.order.push(i as u32);
            }
        }
        let key = |i: u32| aabbs[i as usize].as_ref().map_or(N::zero(), |a| a.mins[0]);
        for i in 1..self.order.len() {
            let cur = self.order[i];
            let k = key(cur);
            let mut j = i;
            while j > 0 && key(self.order[j - 1]) > k {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            self.order[j] = cur;
        }
        for (n, &i) in self.order.iter().enumerate() {
            let Some(a) = &aabbs[i as usize] else { continue };
            for &j in &self.order[n + 1..] {
                let Some(b) = &aabbs[j as usize] else { continue };
                if b.mins[0] > a.maxs[0] {
                    break;
                }
                if !(movable[i as usize] || movable[j as usize]) {
                    continue;
                }
                if (1..D).all(|k| a.mins[k] <= b.maxs[k] && b.mins[k] <= a.maxs[k]) {
                    out.push((i.min(j), i.max(j)));
                }
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::Point2;

    fn bx(x0: f64, y0: f64, x1: f64, y1: f64) -> Option<Aabb<f64, 2>> {
        Some(Aabb::new(Point2::new(x0, y0), Point2::new(x1, y1)))
    }

    #[test]
    fn finds_exactly_the_overlapping_pairs() {
        let aabbs = vec![
            bx(0.0, 0.0, 1.0, 1.0),
            bx(0.5, 0.5, 1.5, 1.5),
            None,
            bx(3.0, 0.0, 4.0, 1.0),
            bx(0.9, 2.0, 1.2, 3.0),
            bx(-1.0, -1.0, 5.0, 0.1),
        ];
        let movable = vec![true, true, false, true, true, false];
        let mut sap = SweepAndPrune::new();
        let mut out = Vec::new();
        sap.find_pairs(&aabbs, &movable, &mut out);
        assert_eq!(out, vec![(0, 1), (0, 5), (3, 5)]);
        // Brute force agrees on a random scene, and again after the bodies move.
        let mut rng = 12345u64;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng >> 33) as f64) / (1u64 << 31) as f64
        };
        for _round in 0..3 {
            let aabbs: Vec<_> = (0..200)
                .map(|_| {
                    let (x, y) = (next() * 20.0, next() * 20.0);
                    bx(x, y, x + next(), y + next())
                })
                .collect();
            let movable: Vec<bool> = (0..200).map(|i| i % 3 != 0).collect();
            sap.find_pairs(&aabbs, &movable, &mut out);
            let mut brute = Vec::new();
            for i in 0..200 {
                for j in (i + 1)..200 {
                    let (a, b) = (aabbs[i].unwrap(), aabbs[j].unwrap());
                    if (movable[i] || movable[j]) && a.intersects(&b) {
                        brute.push((i as u32, j as u32));
                    }
                }
            }
            assert_eq!(out, brute);
        }
    }
}
