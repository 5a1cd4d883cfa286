//! Sweep and prune: a broadphase that finds which bodies' AABBs overlap. The world's step now
//! finds its pairs with a dynamic tree (`step/broadphase_update.rs`), which measured cheaper per
//! step; this one stays as a standalone broadphase and as the oracle the tree's pairs are tested
//! against (the same boxes give the same sorted pairs).
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
    /// Scratch space for merging the new pairs into the kept ones.
    merged: Vec<(u32, u32)>,
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
        let sorted = self.sorted(aabbs, movable);
        for (n, (a, i, movable_a)) in sorted.iter().enumerate() {
            for (b, j, movable_b) in &sorted[n + 1..] {
                if b.mins[0] > a.maxs[0] {
                    break;
                }
                if !(movable_a | movable_b) {
                    continue;
                }
                if (1..D).all(|k| a.mins[k] <= b.maxs[k] && b.mins[k] <= a.maxs[k]) {
                    out.push(((*i).min(*j), (*i).max(*j)));
                }
            }
        }
        out.sort_unstable();
    }

    /// Updates `out`, the result of the previous [`Self::find_pairs`] or `update_pairs`, after
    /// the AABBs of the slots in `moved` (no duplicates) changed; no slot was added or removed
    /// since. Gives exactly what `find_pairs` would, but only sweeps around the moved AABBs: the
    /// pairs of two unmoved AABBs cannot have changed. Falls back to `find_pairs` when many
    /// AABBs moved or many are much wider than the others.
    pub fn update_pairs<N: Scalar, const D: usize>(
        &mut self,
        aabbs: &[Option<Aabb<N, D>>],
        movable: &[bool],
        moved: &[u32],
        out: &mut Vec<(u32, u32)>,
    ) {
        let live = aabbs.iter().filter(|a| a.is_some()).count();
        if moved.len() * 4 > live {
            return self.find_pairs(aabbs, movable, out);
        }
        let sorted = self.sorted(aabbs, movable);
        let width = |a: &Aabb<N, D>| a.maxs[0] - a.mins[0];
        // AABBs wider than twice the mean (a ground box) are checked one by one; the others
        // bound how far back a sweep must look.
        let mut mean = N::zero();
        for (a, _, _) in &sorted {
            mean += width(a);
        }
        let wide_above = mean / N::lit(sorted.len().max(1) as f64) * N::lit(2.0);
        let mut wide = Vec::new();
        let mut max_narrow = N::zero();
        let mut position = vec![u32::MAX; aabbs.len()];
        for (n, (a, i, _)) in sorted.iter().enumerate() {
            position[*i as usize] = n as u32;
            let w = width(a);
            if w > wide_above || !w.is_finite_value() {
                wide.push(n);
            } else {
                max_narrow = max_narrow.max_of(w);
            }
        }
        if wide.len() > 64 {
            return self.find_pairs(aabbs, movable, out);
        }
        let mut is_moved = vec![false; aabbs.len()];
        for &m in moved {
            is_moved[m as usize] = true;
        }
        out.retain(|&(i, j)| !(is_moved[i as usize] || is_moved[j as usize]));
        let kept = out.len();
        let overlap = |a: &Aabb<N, D>, b: &Aabb<N, D>| {
            (0..D).all(|k| a.mins[k] <= b.maxs[k] && b.mins[k] <= a.maxs[k])
        };
        // Generous, so that rounding in the widths cannot end a backward sweep too early.
        let reach = max_narrow * N::lit(2.0);
        for &m in moved {
            let p = position[m as usize] as usize;
            let Some((a, i, movable_a)) = sorted.get(p) else { continue };
            // Later in the order: every overlap, as the full sweep finds it.
            for (b, j, movable_b) in &sorted[p + 1..] {
                if b.mins[0] > a.maxs[0] {
                    break;
                }
                if (movable_a | movable_b)
                    && (1..D).all(|k| a.mins[k] <= b.maxs[k] && b.mins[k] <= a.maxs[k])
                {
                    out.push(((*i).min(*j), (*i).max(*j)));
                }
            }
            // Earlier in the order: unmoved AABBs only (a moved one finds this pair in its own
            // forward sweep); narrow ones within `reach`, wide ones one by one.
            let lower = a.mins[0] - reach;
            for q in (0..p).rev() {
                let (b, j, movable_b) = &sorted[q];
                if b.mins[0] < lower {
                    break;
                }
                if width(b) > wide_above || !width(b).is_finite_value() || is_moved[*j as usize] {
                    continue;
                }
                if (movable_a | movable_b) && overlap(a, b) {
                    out.push(((*i).min(*j), (*i).max(*j)));
                }
            }
            for &q in wide.iter().take_while(|&&q| q < p) {
                let (b, j, movable_b) = &sorted[q];
                if !is_moved[*j as usize] && (movable_a | movable_b) && overlap(a, b) {
                    out.push(((*i).min(*j), (*i).max(*j)));
                }
            }
        }
        // The kept pairs are still sorted and the new ones (each with a moved body) are
        // distinct from them: sort the new ones and merge.
        merge_new_pairs(out, kept, &mut self.merged);
    }

    /// Repairs the order (live slots only, sorted by lower x bound) and returns the AABBs in
    /// that order with their slot and movable flag, copied once into a dense array (reading
    /// them through the slot indices costs a cache miss per test on large scenes).
    fn sorted<N: Scalar, const D: usize>(
        &mut self,
        aabbs: &[Option<Aabb<N, D>>],
        movable: &[bool],
    ) -> Vec<(Aabb<N, D>, u32, bool)> {
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
        self.order
            .iter()
            .filter_map(|&i| aabbs[i as usize].map(|a| (a, i, movable[i as usize])))
            .collect()
    }
}

/// Sorts the pairs `pairs[kept..]` (found this step) and merges them into the sorted pairs
/// `pairs[..kept]` (kept from the last one), which they do not repeat, through `scratch`.
pub(crate) fn merge_new_pairs(
    pairs: &mut Vec<(u32, u32)>,
    kept: usize,
    scratch: &mut Vec<(u32, u32)>,
) {
    pairs[kept..].sort_unstable();
    scratch.clear();
    scratch.reserve(pairs.len());
    let (old, new) = pairs.split_at(kept);
    let (mut x, mut y) = (0, 0);
    while x < old.len() && y < new.len() {
        if old[x] < new[y] {
            scratch.push(old[x]);
            x += 1;
        } else {
            scratch.push(new[y]);
            y += 1;
        }
    }
    scratch.extend_from_slice(&old[x..]);
    scratch.extend_from_slice(&new[y..]);
    core::mem::swap(pairs, scratch);
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

    #[test]
    fn updating_matches_a_full_sweep() {
        let mut rng = 987654321u64;
        let mut next = || {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng >> 33) as f64) / (1u64 << 31) as f64
        };
        let mut aabbs: Vec<_> = (0..300)
            .map(|_| {
                let (x, y) = (next() * 20.0, next() * 20.0);
                bx(x, y, x + next(), y + next())
            })
            .collect();
        // A wide ground box, a static body among the others and an empty slot.
        aabbs[0] = bx(-5.0, -1.0, 25.0, 0.5);
        aabbs[7] = None;
        let movable: Vec<bool> = (0..300).map(|i| i != 0 && i % 5 != 0).collect();
        let (mut full, mut incremental) = (SweepAndPrune::new(), SweepAndPrune::new());
        let (mut expected, mut out) = (Vec::new(), Vec::new());
        full.find_pairs(&aabbs, &movable, &mut expected);
        incremental.find_pairs(&aabbs, &movable, &mut out);
        assert_eq!(out, expected);
        for round in 0..20 {
            let mut moved = Vec::new();
            for (i, aabb) in aabbs.iter_mut().enumerate() {
                if aabb.is_some() && next() < 0.05 + 0.01 * round as f64 {
                    let (x, y) = (next() * 20.0, next() * 20.0);
                    let w = if i == 0 { 30.0 } else { next() };
                    *aabb = bx(x, y, x + w, y + next());
                    moved.push(i as u32);
                }
            }
            full.find_pairs(&aabbs, &movable, &mut expected);
            incremental.update_pairs(&aabbs, &movable, &moved, &mut out);
            assert_eq!(out, expected, "round {round}");
        }
    }
}
