//! Stage 1 of the step: the broadphase update.
//!
//! Each body's AABB is grown by the speculative margin and swept by the body's motion over the
//! step, so a fast body meets what lies in its path this step (speculative contacts instead of
//! tunnelling). The broadphase itself works on *fat* AABBs, grown by a further [`FAT_MARGIN`]:
//! while a body's swept AABB stays inside its fat one, none of its pairs can change, so a resting
//! pile costs no search at all.
//!
//! The fat AABBs live in a dynamic tree ([`kollide_shapes::tree`]), as in Box2D v3's
//! broadphase: a body that left its fat AABB gets a new one, its leaf is inserted again, and it
//! alone asks the tree which fat AABBs its new one overlaps; the pairs of two bodies that stayed
//! inside are kept as they were. After bodies were added or removed the tree is rebuilt top down
//! and every dynamic body asks it. The pairs are those of a full sweep: every two fat AABBs that
//! overlap or touch, with at least one dynamic body, sorted. The tree replaced the sweep and
//! prune of [`crate::SweepAndPrune`], which gives the same pairs but walks every body each step
//! to repair its order (the measurements are in `docs/performance.md`). A sleeping body is not
//! even looked at (`island.rs`).

use kollide_math::Scalar;
use kollide_shapes::tree::{ProxyId, Tree};
use kollide_shapes::{Aabb, BoundingVolume};

use crate::world::Slot;
use crate::{BodyKind, Dim, SolverDim};

/// How much the broadphase grows each AABB (m); Box2D's AABB margin is the same 10 cm.
pub(crate) const FAT_MARGIN: f64 = 0.1;

/// The broadphase's state between steps: each slot's fat AABB and its leaf in the tree, and the
/// pairs they overlap in.
#[derive(Clone, Debug)]
pub(crate) struct BroadphaseStage<N: Scalar, const D: usize> {
    /// The fat AABBs, one leaf per body, whose data is the slot.
    tree: Tree<N, D>,
    /// Per slot: the AABB the broadphase last saw, grown by [`FAT_MARGIN`], and its leaf
    /// (`None` only until the tree takes the box, which it does for every finite box).
    fat: Vec<Option<(Aabb<N, D>, Option<ProxyId>)>>,
    /// The overlapping pairs `(lower slot, higher slot)`, sorted.
    pairs: Vec<(u32, u32)>,
    /// Bodies were added or removed since the last update: rebuild and search everything.
    bodies_changed: bool,
    /// Reused buffers: the slots whose fat AABB changed, which slots are dynamic, which moved,
    /// and the pairs being merged.
    moved: Vec<u32>,
    movable: Vec<bool>,
    is_moved: Vec<bool>,
    merged: Vec<(u32, u32)>,
}

impl<N: Scalar, const D: usize> BroadphaseStage<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// No bodies yet.
    pub(crate) fn new() -> Self {
        Self {
            tree: Tree::new(),
            fat: Vec::new(),
            pairs: Vec::new(),
            bodies_changed: true,
            moved: Vec::new(),
            movable: Vec::new(),
            is_moved: Vec::new(),
            merged: Vec::new(),
        }
    }

    /// A body was added or removed: the next update rebuilds the tree and searches every body.
    pub(crate) fn bodies_changed(&mut self) {
        self.bodies_changed = true;
    }

    /// Whether bodies were added or removed since the last update.
    pub(crate) fn has_changes(&self) -> bool {
        self.bodies_changed
    }

    /// Brings the pairs up to date for a step of `dt` with speculative margin `margin`, and
    /// returns them, sorted.
    pub(crate) fn update(&mut self, slots: &[Slot<N, D>], margin: N, dt: N) -> &[(u32, u32)] {
        let fat_margin = N::lit(FAT_MARGIN);
        self.fat.resize(slots.len(), None);
        self.moved.clear();
        for (index, (slot, fat)) in slots.iter().zip(self.fat.iter_mut()).enumerate() {
            let Some(b) = &slot.body else {
                *fat = None;
                continue;
            };
            if b.is_sleeping() && fat.is_some() {
                // It has not moved since it fell asleep: its box is inside its fat one, and
                // its pairs with other sleeping bodies are kept without a test.
                continue;
            }
            let aabb = b.desc.shape.aabb(&b.desc.pose).loosened(margin);
            let d = b.desc.linear_velocity * dt;
            let swept = Aabb::new(aabb.mins + d, aabb.maxs + d).merged(&aabb);
            let inside = fat.as_ref().is_some_and(|(f, _)| {
                (0..D).all(|k| f.mins[k] <= swept.mins[k] && swept.maxs[k] <= f.maxs[k])
            });
            if !inside {
                // The leaf follows below; until then the old one (if any) stays with the box.
                let id = fat.and_then(|(_, id)| id);
                *fat = Some((swept.loosened(fat_margin), id));
                self.moved.push(index as u32);
            }
        }
        if self.bodies_changed || !self.moved.is_empty() {
            self.movable.clear();
            self.movable.extend(
                slots
                    .iter()
                    .map(|s| s.body.as_ref().is_some_and(|b| b.desc.kind == BodyKind::Dynamic)),
            );
            if self.bodies_changed {
                self.search_all();
            } else {
                self.search_moved();
            }
            self.bodies_changed = false;
        }
        &self.pairs
    }

    /// Rebuilds the tree over every fat AABB and finds every pair: each dynamic body asks the
    /// tree, and a pair of two dynamic bodies is taken from the lower slot's answer.
    fn search_all(&mut self) {
        self.tree.clear();
        for (i, fat) in self.fat.iter_mut().enumerate() {
            if let Some((aabb, id)) = fat {
                *id = self.tree.create_proxy(aabb, N::zero(), i as u32).ok();
            }
        }
        self.tree.rebuild();
        self.pairs.clear();
        let (movable, pairs) = (&self.movable, &mut self.pairs);
        for (i, fat) in self.fat.iter().enumerate() {
            let Some((aabb, _)) = fat else { continue };
            if !movable[i] {
                continue;
            }
            self.tree.query_aabb(aabb, |j| {
                let j = j as usize;
                if j != i && !(movable[j] && j < i) {
                    pairs.push((i.min(j) as u32, i.max(j) as u32));
                }
                true
            });
        }
        self.pairs.sort_unstable();
    }

    /// Re-inserts the leaves of the bodies that left their fat AABBs, drops their pairs and
    /// finds their new ones (a pair of two moved bodies from the lower slot's answer), then
    /// merges the new pairs into the kept ones.
    fn search_moved(&mut self) {
        self.is_moved.clear();
        self.is_moved.resize(self.fat.len(), false);
        for &m in &self.moved {
            self.is_moved[m as usize] = true;
            let Some((aabb, id)) = &mut self.fat[m as usize] else { continue };
            // Both succeed: the id is the body's live leaf and the box is finite (the body is
            // inside the world's envelope).
            if let Some(old) = id.take() {
                let removed = self.tree.remove_proxy(old);
                debug_assert!(removed.is_ok());
            }
            *id = self.tree.create_proxy(aabb, N::zero(), m).ok();
        }
        let is_moved = &self.is_moved;
        self.pairs.retain(|&(i, j)| !(is_moved[i as usize] || is_moved[j as usize]));
        let kept = self.pairs.len();
        let (movable, pairs) = (&self.movable, &mut self.pairs);
        for &m in &self.moved {
            let i = m as usize;
            let Some((aabb, _)) = &self.fat[i] else { continue };
            self.tree.query_aabb(aabb, |j| {
                let j = j as usize;
                if j != i && (movable[i] | movable[j]) && !(is_moved[j] && j < i) {
                    pairs.push((i.min(j) as u32, i.max(j) as u32));
                }
                true
            });
        }
        // The kept pairs are still sorted and the new ones (each with a moved body) are
        // distinct from them: sort the new ones and merge.
        crate::broadphase::merge_new_pairs(&mut self.pairs, kept, &mut self.merged);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Body, BodyDesc, SweepAndPrune};
    use kollide_math::{Iso2, Vec2};
    use kollide_shapes::{Ball, Cuboid, Shape2};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn body(rng: &mut ChaCha8Rng) -> Body<f64, 2> {
        let shape = if rng.random::<bool>() {
            Shape2::from(Ball::new(rng.random_range(0.1..1.0)).unwrap())
        } else {
            let h = Vec2::new(rng.random_range(0.1..2.0), rng.random_range(0.1..0.5));
            Shape2::from(Cuboid::new(h).unwrap())
        };
        let pose = Iso2::new(
            Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0)),
            rng.random_range(0.0..6.3),
        );
        let v = Vec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
        let desc = match rng.random_range(0..4) {
            0 => BodyDesc::fixed(shape),
            1 => BodyDesc::kinematic(shape).linear_velocity(v),
            _ => BodyDesc::dynamic(shape).linear_velocity(v),
        };
        Body::new(desc.pose(pose)).unwrap()
    }

    /// The tree's pairs, step after step with bodies moving a little, jumping, appearing and
    /// disappearing, equal those of a full sweep and prune over the same fat boxes.
    #[test]
    fn tree_pairs_equal_a_full_sweep() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let mut slots: Vec<Slot<f64, 2>> =
            (0..300).map(|_| Slot { generation: 0, body: Some(body(&mut rng)) }).collect();
        let mut stage = BroadphaseStage::new();
        let mut sap = SweepAndPrune::new();
        let (mut incremental, mut pairs_seen) = (0, 0);
        for round in 0..60 {
            for slot in &mut slots {
                let Some(b) = &mut slot.body else { continue };
                match rng.random_range(0..10) {
                    0 => b.desc.pose.translation.vector.x += rng.random_range(-5.0..5.0),
                    1..=4 => b.desc.pose.translation.vector.y += rng.random_range(-0.05..0.05),
                    _ => {}
                }
            }
            if round % 10 == 9 {
                let i = rng.random_range(0..slots.len());
                slots[i].body = if slots[i].body.is_some() { None } else { Some(body(&mut rng)) };
                stage.bodies_changed();
            }
            incremental += usize::from(!stage.bodies_changed && round > 0);
            let got = stage.update(&slots, 0.02, 1.0 / 60.0).to_vec();
            let fat: Vec<Option<Aabb<f64, 2>>> =
                stage.fat.iter().map(|f| f.map(|(aabb, _)| aabb)).collect();
            let movable: Vec<bool> = slots
                .iter()
                .map(|s| s.body.as_ref().is_some_and(|b| b.desc.kind == BodyKind::Dynamic))
                .collect();
            let mut want = Vec::new();
            sap.find_pairs(&fat, &movable, &mut want);
            assert_eq!(got, want, "round {round}");
            pairs_seen += got.len();
        }
        assert!(incremental > 40 && pairs_seen > 1000, "{incremental} {pairs_seen}");
    }
}
