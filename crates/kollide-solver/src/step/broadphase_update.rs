//! Stage 1 of the step: the broadphase update.
//!
//! Each body's AABB is grown by the speculative margin and swept by the body's motion over the
//! step, so a fast body meets what lies in its path this step (speculative contacts instead of
//! tunnelling). The broadphase itself works on *fat* AABBs, grown by a further [`FAT_MARGIN`]:
//! while a body's swept AABB stays inside its fat one, none of its pairs can change, so a resting
//! pile costs no sweep at all. Only the bodies that left their fat AABBs are swept again
//! ([`SweepAndPrune::update_pairs`]); Box2D v3's dynamic tree enlarges its AABBs the same way.

use kollide_math::Scalar;
use kollide_shapes::{Aabb, BoundingVolume};

use crate::broadphase::SweepAndPrune;
use crate::world::Slot;
use crate::{BodyKind, Dim, SolverDim};

/// How much the broadphase grows each AABB (m); Box2D's AABB margin is the same 10 cm.
pub(crate) const FAT_MARGIN: f64 = 0.1;

/// The broadphase's state between steps: the sweep order, each slot's fat AABB, and the pairs
/// they overlap in.
#[derive(Clone, Debug)]
pub(crate) struct BroadphaseStage<N: Scalar, const D: usize> {
    sweep: SweepAndPrune,
    /// Per slot: the AABB the broadphase last saw, grown by [`FAT_MARGIN`].
    fat: Vec<Option<Aabb<N, D>>>,
    /// The overlapping pairs `(lower slot, higher slot)`, sorted.
    pairs: Vec<(u32, u32)>,
    /// Bodies were added or removed since the last sweep: sweep everything.
    bodies_changed: bool,
    /// Reused buffers: the slots whose fat AABB changed, and which slots are dynamic.
    moved: Vec<u32>,
    movable: Vec<bool>,
}

impl<N: Scalar, const D: usize> BroadphaseStage<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// No bodies yet.
    pub(crate) fn new() -> Self {
        Self {
            sweep: SweepAndPrune::new(),
            fat: Vec::new(),
            pairs: Vec::new(),
            bodies_changed: true,
            moved: Vec::new(),
            movable: Vec::new(),
        }
    }

    /// A body was added or removed: the next update sweeps every body.
    pub(crate) fn bodies_changed(&mut self) {
        self.bodies_changed = true;
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
            let aabb = b.desc.shape.aabb(&b.desc.pose).loosened(margin);
            let d = b.desc.linear_velocity * dt;
            let swept = Aabb::new(aabb.mins + d, aabb.maxs + d).merged(&aabb);
            let inside = fat.as_ref().is_some_and(|f| {
                (0..D).all(|k| f.mins[k] <= swept.mins[k] && swept.maxs[k] <= f.maxs[k])
            });
            if !inside {
                *fat = Some(swept.loosened(fat_margin));
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
                self.sweep.find_pairs(&self.fat, &self.movable, &mut self.pairs);
            } else {
                // Only pairs with a body whose fat AABB changed can have changed.
                self.sweep.update_pairs(&self.fat, &self.movable, &self.moved, &mut self.pairs);
            }
            self.bodies_changed = false;
        }
        &self.pairs
    }
}
