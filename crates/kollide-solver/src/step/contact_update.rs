//! Stage 3 of the step: the contact update.
//!
//! Every pair the broadphase reports gets a manifold. Pairs are persistent: the pair lists of
//! this step and the last are both sorted by slot indices, so one forward walk finds each pair's
//! predecessor. A pair whose bodies have barely moved relative to each other since its manifold
//! was computed keeps that manifold, carried with the bodies ([`PairCache`]); the others run the
//! narrowphase and match the new contacts to the old by feature id, so accumulated impulses carry
//! over (warm starting). A contact whose id found no match inherits from the previous contact
//! nearest to it (within [`WARM_START_MATCH_FRACTION`] of the shapes' size), because ids change
//! when nearly tied faces swap the reference role although nothing moved.
//!
//! **In place.** In a resting scene the broadphase reports the same pairs step after step.
//! Then the list is kept and each pair is updated where it is, instead of building a new list
//! from the old one: a kept manifold is carried with the bodies in place, and only a pair that
//! runs the narrowphase copies its old manifold aside (for the id matching).
//!
//! **Sleeping.** A pair whose bodies both stay put this step (asleep, static, or a kinematic
//! body at rest; see `island.rs`) keeps last step's manifold and cache untouched, as Box2D keeps
//! the contacts of a sleeping island, so a sleeping pile costs no narrowphase. A pair of a
//! sleeping body and a moving one is computed, and when it has a point the step is told that
//! the sleeping body's island must wake.
//!
//! **Threads.** Once the pairs are matched, each pair's manifold depends only on its two bodies
//! and its predecessor, so the pairs are cut into one contiguous run per thread and updated in
//! parallel. Every pair is computed by the same code from the same inputs whichever thread takes
//! it, so the result is bit-identical for any thread count.

use kollide_manifold::Manifold;
use kollide_math::{Pose, Scalar, Vector};
use kollide_narrowphase::QuerySettings;
use kollide_narrowphase::composite::BodyQueries;

use super::broadphase_update::BroadphaseStage;
use super::pair_cache::PairCache;
use crate::island::moving;
use crate::world::Slot;
use crate::{
    BodyHandle, ContactEvent, ContactImpulse, ContactPair, Dim, Events, SensorEvent, SolverDim,
    StepSettings,
};

/// How far (as a fraction of the smaller shape's bounding radius) a contact may lie from last
/// step's contact whose accumulated impulse it inherits when their feature ids differ (see
/// [`kollide_manifold::Manifold::match_previous_or_nearest`]).
pub const WARM_START_MATCH_FRACTION: f64 = 0.05;

/// The largest relative motion within which a pair keeps its manifold, as a fraction of the
/// smaller shape's bounding radius (see [`StepSettings::manifold_reuse_distance`], the limit in
/// metres).
pub(crate) const REUSE_FRACTION: f64 = 0.01;

/// The fewest pairs worth handing to a thread of their own: below this, starting the thread
/// costs more than the pairs.
const MIN_PAIRS_PER_THREAD: usize = 2048;

/// No predecessor.
const NONE: u32 = u32::MAX;

/// Where a pair's manifold of the last step is.
#[derive(Clone, Copy)]
enum Predecessor {
    /// Nowhere: the pair is new, or its cache was dropped.
    None,
    /// In the pair itself (the list was kept: see the module docs).
    Itself,
    /// At this index of last step's list.
    Old(usize),
}

/// What the contact update did.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContactUpdate {
    /// Manifolds kept from an earlier step because the bodies barely moved.
    pub(crate) reused: usize,
    /// Manifolds kept untouched because neither body moves (see the module docs).
    pub(crate) asleep: usize,
    /// Pairs with a point between a sleeping body and a moving one: islands to wake.
    pub(crate) wakes: usize,
    /// Threads that ran.
    pub(crate) threads: usize,
}

impl ContactUpdate {
    fn add(self, other: Self) -> Self {
        Self {
            reused: self.reused + other.reused,
            asleep: self.asleep + other.asleep,
            wakes: self.wakes + other.wakes,
            threads: self.threads.max(other.threads),
        }
    }
}

/// How one pair got its manifold.
enum Outcome {
    /// From the narrowphase.
    Fresh,
    /// Kept from the last step, carried with the bodies.
    Reused,
    /// Kept untouched: neither body moves.
    Asleep,
    /// From the narrowphase, with a point between a sleeping body and a moving one.
    Wakes,
}

/// The persistent pairs and what their manifolds were computed from.
#[derive(Clone, Debug)]
pub(crate) struct ContactStage<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pairs: Vec<ContactPair<N, D>>,
    /// Aligned with `pairs` (shorter after a removal: then nothing is reused).
    caches: Vec<PairCache<N, D>>,
    /// Last step's lists while the new ones are built; swapped from step to step instead of
    /// allocated.
    spare_pairs: Vec<ContactPair<N, D>>,
    spare_caches: Vec<PairCache<N, D>>,
    /// Per pair: the index of the same pair in last step's list, or [`NONE`].
    previous: Vec<u32>,
    /// The pairs of a sensor and another body that the broadphase found this step.
    sensor_candidates: Vec<(u32, u32)>,
    /// The sensor overlaps after the last step, sorted by pair, and the list before it.
    overlaps: Vec<SensorEvent>,
    spare_overlaps: Vec<SensorEvent>,
    /// Whether the last step reported contact events (and so which pairs touch, as far as the
    /// user knows).
    pub(crate) reported_contacts: bool,
    /// Whether the world has sensors (without, pairs skip the test).
    pub(crate) any_sensors: bool,
    /// How many steps updated the list in place (read by the tests).
    pub(crate) in_place: u64,
}

/// A pair touches when a point of its manifold has separation `≤ 0` (see [`crate::Events`]).
pub(crate) fn touching<N: Scalar, const D: usize>(m: &Manifold<N, D, ContactImpulse<N>>) -> bool {
    m.contacts().iter().any(|c| c.separation <= N::zero())
}

/// What every pair's update reads.
struct Shared<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    slots: &'a [Slot<N, D>],
    /// The broadphase, for the bodies' AABBs.
    boxes: &'a BroadphaseStage<N, D>,
    old_pairs: &'a [ContactPair<N, D>],
    old_caches: &'a [PairCache<N, D>],
    margin: N,
    reuse: N,
    dt: N,
}

impl<N: Scalar, const D: usize> ContactStage<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// No pairs.
    pub(crate) fn new() -> Self {
        Self {
            pairs: Vec::new(),
            caches: Vec::new(),
            spare_pairs: Vec::new(),
            spare_caches: Vec::new(),
            previous: Vec::new(),
            sensor_candidates: Vec::new(),
            overlaps: Vec::new(),
            spare_overlaps: Vec::new(),
            reported_contacts: false,
            any_sensors: false,
            in_place: 0,
        }
    }

    /// The sensor overlaps after the last step, sorted by pair.
    pub(crate) fn overlaps(&self) -> &[SensorEvent] {
        &self.overlaps
    }

    /// The pairs with their manifolds.
    pub(crate) fn pairs(&self) -> &[ContactPair<N, D>] {
        &self.pairs
    }

    /// The pairs, for the solver to store its impulses in.
    pub(crate) fn pairs_mut(&mut self) -> &mut Vec<ContactPair<N, D>> {
        &mut self.pairs
    }

    /// Drops the pairs and sensor overlaps of the body in slot `index`, queueing the end
    /// events of those the user was told of into `events`. Removal is rare: every pair's
    /// manifold is computed afresh next step.
    pub(crate) fn remove_body(&mut self, index: u32, events: &mut Events<N, D>) {
        let has = |a: BodyHandle, b: BodyHandle| a.index == index || b.index == index;
        if self.reported_contacts {
            events.pending_contact_end.extend(
                self.pairs
                    .iter()
                    .filter(|p| has(p.a, p.b) && touching(&p.manifold))
                    .map(|p| ContactEvent { a: p.a, b: p.b }),
            );
        }
        self.pairs.retain(|p| !has(p.a, p.b));
        self.caches.clear();
        events.pending_sensor_end.extend(self.overlaps.iter().filter(|o| has(o.sensor, o.visitor)));
        self.overlaps.retain(|o| !has(o.sensor, o.visitor));
    }

    /// Reports the contacts that began and ended with this step's update into `events` (both
    /// pair lists are sorted by slot indices, and a slot index names the same body in both,
    /// since a removal drops its pairs). When the last step did not report, every touching
    /// pair begins.
    pub(crate) fn contact_events(&mut self, events: &mut Events<N, D>) {
        let old: &[ContactPair<N, D>] =
            if self.reported_contacts { &self.spare_pairs } else { &[] };
        let new = &self.pairs;
        let key = |p: &ContactPair<N, D>| (p.a.index, p.b.index);
        let event = |p: &ContactPair<N, D>| ContactEvent { a: p.a, b: p.b };
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            let (o, n) = (old.get(i), new.get(j));
            match (o, n) {
                (Some(o), Some(n)) if key(o) == key(n) => {
                    match (touching(&o.manifold), touching(&n.manifold)) {
                        (true, false) => events.contact_end.push(event(o)),
                        (false, true) => events.contact_begin.push(event(n)),
                        _ => {}
                    }
                    i += 1;
                    j += 1;
                }
                (Some(o), n) if n.is_none_or(|n| key(o) < key(n)) => {
                    if touching(&o.manifold) {
                        events.contact_end.push(event(o));
                    }
                    i += 1;
                }
                (_, Some(n)) => {
                    if touching(&n.manifold) {
                        events.contact_begin.push(event(n));
                    }
                    j += 1;
                }
                (_, None) => unreachable!("the loop runs while a list has pairs left"),
            }
        }
        self.reported_contacts = true;
    }

    /// Contact events were turned off: ends every contact the user was told of (those that
    /// touched after the last step), so that every begin still has its end.
    pub(crate) fn end_contact_events(&mut self, events: &mut Events<N, D>) {
        if self.reported_contacts {
            events.contact_end.extend(
                self.spare_pairs
                    .iter()
                    .filter(|p| touching(&p.manifold))
                    .map(|p| ContactEvent { a: p.a, b: p.b }),
            );
        }
        self.reported_contacts = false;
    }

    /// Tests the sensor pairs the broadphase found this step and reports the overlaps that
    /// began and ended into `events`.
    pub(crate) fn update_sensors(&mut self, slots: &[Slot<N, D>], events: &mut Events<N, D>) {
        if self.sensor_candidates.is_empty() && self.overlaps.is_empty() {
            return;
        }
        core::mem::swap(&mut self.overlaps, &mut self.spare_overlaps);
        self.overlaps.clear();
        let settings = QuerySettings::default();
        for &(i, j) in &self.sensor_candidates {
            let (Some(bi), Some(bj)) = (&slots[i as usize].body, &slots[j as usize].body) else {
                continue;
            };
            let (pi, pj) = (&bi.desc.pose, &bj.desc.pose);
            let (si, sj) = (&bi.desc.shape, &bj.desc.shape);
            if si.intersects(pi, sj, pj, &settings).intersecting {
                let handle =
                    |k: u32| BodyHandle { index: k, generation: slots[k as usize].generation };
                let (sensor, visitor) =
                    if bi.desc.sensor { (handle(i), handle(j)) } else { (handle(j), handle(i)) };
                self.overlaps.push(SensorEvent { sensor, visitor });
            }
        }
        let (old, new) = (&self.spare_overlaps, &self.overlaps);
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < new.len() {
            match (old.get(i), new.get(j)) {
                (Some(o), Some(n)) if o.key() == n.key() => {
                    // The same two bodies with the roles swapped (`World::set_sensor`): the
                    // overlap the user was told of ends, and the new one begins.
                    if o != n {
                        events.sensor_end.push(*o);
                        events.sensor_begin.push(*n);
                    }
                    i += 1;
                    j += 1;
                }
                (Some(o), n) if n.is_none_or(|n| o.key() < n.key()) => {
                    events.sensor_end.push(*o);
                    i += 1;
                }
                (_, Some(n)) => {
                    events.sensor_begin.push(*n);
                    j += 1;
                }
                (_, None) => unreachable!("the loop runs while a list has pairs left"),
            }
        }
    }

    /// Gives every pair in `found` (sorted slot pairs) its manifold for a step of `dt`, on up to
    /// `threads` threads, and says how.
    pub(crate) fn update(
        &mut self,
        slots: &[Slot<N, D>],
        boxes: &BroadphaseStage<N, D>,
        found: &[(u32, u32)],
        no_collide: &[(u32, u32)],
        settings: &StepSettings<N>,
        dt: N,
        threads: usize,
    ) -> ContactUpdate {
        let in_place = self.same_pairs(slots, found, no_collide);
        if in_place {
            self.in_place += 1;
            // The contact events compare the touching pairs with last step's.
            if self.reported_contacts {
                self.spare_pairs.clone_from(&self.pairs);
            }
        } else {
            core::mem::swap(&mut self.pairs, &mut self.spare_pairs);
            core::mem::swap(&mut self.caches, &mut self.spare_caches);
            self.match_pairs(slots, found, no_collide);
        }
        let previous = (!in_place).then_some(&self.previous[..]);
        let shared = Shared {
            slots,
            boxes,
            old_pairs: &self.spare_pairs,
            old_caches: &self.spare_caches,
            margin: settings.speculative_margin,
            reuse: settings.manifold_reuse_distance,
            dt,
        };
        let (pairs, caches) = (&mut self.pairs[..], &mut self.caches[..]);
        let threads = threads.min(pairs.len() / MIN_PAIRS_PER_THREAD).max(1);
        if threads == 1 {
            return ContactUpdate { threads: 1, ..shared.update_run(pairs, caches, previous) };
        }
        let run = pairs.len().div_ceil(threads);
        let previous = (0..threads).map(|t| previous.map(|p| &p[(t * run).min(p.len())..]));
        let mut runs = pairs.chunks_mut(run).zip(caches.chunks_mut(run)).zip(previous);
        let ((mine_p, mine_c), mine_prev) = runs.next().expect("at least one run");
        let shared = &shared;
        std::thread::scope(|scope| {
            let workers: Vec<_> = runs
                .map(|((p, c), prev)| scope.spawn(move || shared.update_run(p, c, prev)))
                .collect();
            let mine = shared.update_run(mine_p, mine_c, mine_prev);
            let theirs = workers.into_iter().map(|w| w.join().expect("a contact thread panicked"));
            let total = theirs.fold(mine, ContactUpdate::add);
            ContactUpdate { threads, ..total }
        })
    }

    /// Whether the pairs of `found` (sorted slot pairs) that get contacts are exactly the
    /// current list, with a cache for each: then the list is updated in place (see the module
    /// docs), and the sensor candidates are collected. Stops at the first difference.
    fn same_pairs(
        &mut self,
        slots: &[Slot<N, D>],
        found: &[(u32, u32)],
        no_collide: &[(u32, u32)],
    ) -> bool {
        self.sensor_candidates.clear();
        if self.caches.len() != self.pairs.len() {
            return false;
        }
        let mut k = 0;
        for &(i, j) in found {
            match self.role(slots, i, j, no_collide) {
                Role::None => {}
                Role::Sensor => self.sensor_candidates.push((i, j)),
                Role::Contact(a, b) => {
                    if !self.pairs.get(k).is_some_and(|p| p.a == a && p.b == b) {
                        return false;
                    }
                    k += 1;
                }
            }
        }
        k == self.pairs.len()
    }

    /// Builds this step's pair list from `found` (the manifolds empty), each pair's
    /// predecessor in last step's list (now `spare_pairs`), and room for the caches. The pairs
    /// in `no_collide` (sorted; bodies joined by a joint that does not let them collide) are
    /// left out; the sensor candidates are collected.
    fn match_pairs(
        &mut self,
        slots: &[Slot<N, D>],
        found: &[(u32, u32)],
        no_collide: &[(u32, u32)],
    ) {
        self.pairs.clear();
        self.previous.clear();
        self.sensor_candidates.clear();
        let mut cursor = 0;
        for &(i, j) in found {
            let (a, b) = match self.role(slots, i, j, no_collide) {
                Role::None => continue,
                Role::Sensor => {
                    self.sensor_candidates.push((i, j));
                    continue;
                }
                Role::Contact(a, b) => (a, b),
            };
            let old = &self.spare_pairs;
            while cursor < old.len() && (old[cursor].a.index, old[cursor].b.index) < (i, j) {
                cursor += 1;
            }
            let same = old.get(cursor).is_some_and(|p| p.a == a && p.b == b);
            self.previous.push(if same { cursor as u32 } else { NONE });
            self.pairs.push(ContactPair { a, b, manifold: Manifold::new() });
        }
        // Every pair's update writes its cache, so stale entries may stay (no need to clear).
        self.caches.resize(self.pairs.len(), PairCache::empty());
    }

    /// What the broadphase pair of slots `i` and `j` becomes this step.
    #[inline(always)]
    fn role(&self, slots: &[Slot<N, D>], i: u32, j: u32, no_collide: &[(u32, u32)]) -> Role {
        let (Some(bi), Some(bj)) = (&slots[i as usize].body, &slots[j as usize].body) else {
            return Role::None;
        };
        if !bi.desc.collision_groups.interacts(&bj.desc.collision_groups) {
            return Role::None;
        }
        if !no_collide.is_empty() && no_collide.binary_search(&(i, j)).is_ok() {
            return Role::None;
        }
        if self.any_sensors && (bi.desc.sensor | bj.desc.sensor) {
            // Sensors get no contacts, and do not see each other.
            return if bi.desc.sensor & bj.desc.sensor { Role::None } else { Role::Sensor };
        }
        let handle = |i: u32| BodyHandle { index: i, generation: slots[i as usize].generation };
        Role::Contact(handle(i), handle(j))
    }
}

/// What a broadphase pair becomes (see [`ContactStage::role`]).
enum Role {
    /// Nothing: a body is gone, their groups or a joint rule it out, or two sensors.
    None,
    /// A sensor and a solid body: tested for overlap.
    Sensor,
    /// A contact pair of these bodies.
    Contact(BodyHandle, BodyHandle),
}

impl<N: Scalar, const D: usize> Shared<'_, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Updates a run of pairs, each with its predecessor in `previous` (`None`: each is its
    /// own, the list was kept); counts how they got their manifolds (threads: 1).
    fn update_run(
        &self,
        pairs: &mut [ContactPair<N, D>],
        caches: &mut [PairCache<N, D>],
        previous: Option<&[u32]>,
    ) -> ContactUpdate {
        let mut done = ContactUpdate { threads: 1, ..ContactUpdate::default() };
        for (k, (pair, cache)) in pairs.iter_mut().zip(caches).enumerate() {
            let prev = match previous {
                None => Predecessor::Itself,
                Some(p) if p[k] == NONE => Predecessor::None,
                Some(p) => Predecessor::Old(p[k] as usize),
            };
            match self.update_pair(pair, cache, prev) {
                Outcome::Fresh => {}
                Outcome::Reused => done.reused += 1,
                Outcome::Asleep => done.asleep += 1,
                Outcome::Wakes => done.wakes += 1,
            }
        }
        done
    }

    /// Gives one pair its manifold: kept untouched from its predecessor `prev` when neither
    /// body moves, kept and carried with the bodies when they have barely moved, otherwise
    /// fresh from the narrowphase.
    fn update_pair(
        &self,
        pair: &mut ContactPair<N, D>,
        cache: &mut PairCache<N, D>,
        prev: Predecessor,
    ) -> Outcome {
        let body = |h: BodyHandle| self.slots[h.index as usize].body.as_ref().expect("a live body");
        let (ba, bb) = (body(pair.a), body(pair.b));
        let asleep = ba.is_sleeping() || bb.is_sleeping();
        let still = !moving(ba) && !moving(bb);
        if asleep && still {
            match prev {
                Predecessor::Itself => return Outcome::Asleep,
                Predecessor::Old(k) if k < self.old_caches.len() => {
                    pair.manifold = self.old_pairs[k].manifold;
                    *cache = self.old_caches[k];
                    return Outcome::Asleep;
                }
                _ => {}
            }
        }
        let outcome = self.compute(pair, cache, prev, ba, bb);
        if asleep && !still && !pair.manifold.is_empty() { Outcome::Wakes } else { outcome }
    }

    /// Gives one pair its manifold, kept from its predecessor `prev` when the bodies have
    /// barely moved, otherwise fresh from the narrowphase.
    fn compute(
        &self,
        pair: &mut ContactPair<N, D>,
        cache: &mut PairCache<N, D>,
        prev: Predecessor,
        ba: &crate::Body<N, D>,
        bb: &crate::Body<N, D>,
    ) -> Outcome {
        // The speculative margin grows with the pair's closing speed over the step.
        let closing: Vector<N, D> = ba.desc.linear_velocity - bb.desc.linear_velocity;
        let margin = self.margin + closing.norm() * self.dt;
        let (pose_a, pose_b) = (&ba.desc.pose, &bb.desc.pose);
        let relative = pose_a.inv_compose(pose_b);
        let smaller = ba.bounding_radius.min_of(bb.bounding_radius);
        let tolerance = self.reuse.min_of(N::lit(REUSE_FRACTION) * smaller);
        // A level geometry's radius is the whole level's: the motion is bounded about the
        // other body when only B is one.
        let about_a = Dim::<D>::is_level(&bb.desc.shape) && !Dim::<D>::is_level(&ba.desc.shape);
        let radius = if about_a { ba.bounding_radius } else { bb.bounding_radius };
        let fits =
            |kept: &PairCache<N, D>| kept.fits(&relative, margin, tolerance, radius, about_a);
        // Last step's contacts (ids and impulses), carried with the bodies when they still fit.
        let saved;
        let old = match prev {
            Predecessor::None => None,
            Predecessor::Itself => {
                if fits(cache) {
                    cache.apply(pose_a, pose_b, &mut pair.manifold);
                    return Outcome::Reused;
                }
                // Set aside: the narrowphase overwrites it.
                saved = pair.manifold;
                Some(&saved)
            }
            Predecessor::Old(k) => {
                if let Some(kept) = self.old_caches.get(k)
                    && fits(kept)
                {
                    pair.manifold = self.old_pairs[k].manifold;
                    kept.apply(pose_a, pose_b, &mut pair.manifold);
                    *cache = *kept;
                    return Outcome::Reused;
                }
                Some(&self.old_pairs[k].manifold)
            }
        };
        let m = &mut pair.manifold;
        // Pairs of the broadphase's fat boxes are often farther apart than the margin: their
        // tight boxes say so for a few comparisons, without the narrowphase. (Asked only of
        // pairs that were apart or new: pairs in contact, a stack's, rarely come apart.)
        let was_apart = old.is_none_or(|m| m.is_empty());
        *m = if was_apart && self.boxes.apart((pair.a.index, ba), (pair.b.index, bb), margin) {
            Manifold::new()
        } else {
            Dim::<D>::manifold(pose_a, &ba.desc.shape, pose_b, &bb.desc.shape, margin)
        };
        if let Some(old) = old {
            // Feature ids can change while the contacts stay where they were (two nearly tied
            // faces swapping the reference role as the bodies turn by a hair); such a contact
            // takes the impulse of the previous contact nearest to it, so a loaded stack does not
            // lose its warm start and creep.
            let near = N::lit(WARM_START_MATCH_FRACTION) * smaller;
            m.match_previous_or_nearest(old, near);
        }
        *cache = if self.reuse > N::zero() && !m.is_empty() {
            PairCache::of(m, pose_a, pose_b, relative, margin)
        } else {
            PairCache::none(relative)
        };
        Outcome::Fresh
    }
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso2, Vec2};
    use kollide_shapes::Cuboid;

    use crate::{BodyDesc, ContactEvent, StepSettings, World2};

    /// A box resting on the ground keeps its pair list, which is then updated in place; thrown
    /// up, it ends its contact while the broadphase still pairs it with the ground, and the end
    /// event comes from a step that updated in place (the events compare with a copy of the
    /// list); landing again, it begins a contact again.
    #[test]
    fn a_kept_pair_list_reports_contact_events() {
        let mut w = World2::<f64>::new(Vec2::new(0.0, -10.0)).unwrap();
        let settings = StepSettings { sleeping: false, contact_events: true, ..*w.settings() };
        w.set_settings(settings).unwrap();
        let ground = Cuboid::new(Vec2::new(10.0, 0.5)).unwrap();
        let g = w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
        let cube = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
        let b = w.add(BodyDesc::dynamic(cube).pose(Iso2::translation(0.0, 0.5))).unwrap();
        for _ in 0..30 {
            w.step(1.0 / 60.0).unwrap();
        }
        let settled = w.contacts.in_place;
        assert!(settled > 20, "only {settled} of 30 steps updated in place");
        // About 5 mm up over the first step: within the broadphase's enlarged boxes.
        w.apply_impulse(b, Vec2::new(0.0, 0.3)).unwrap();
        let pair = ContactEvent { a: g, b };
        let (mut ended, mut began) = (None, None);
        for step in 0..120 {
            let before = w.contacts.in_place;
            w.step(1.0 / 60.0).unwrap();
            let kept = w.contacts.in_place > before;
            if ended.is_none() && w.events().contact_end.contains(&pair) {
                ended = Some((step, kept));
            }
            if ended.is_some() && w.events().contact_begin.contains(&pair) {
                began = Some(step);
                break;
            }
        }
        let (step, kept) = ended.expect("the thrown box ended its contact");
        assert!(kept, "the end event (step {step}) came from a rebuilt list");
        assert!(began.is_some(), "the box did not land again");
    }
}
