//! Islands and sleeping.
//!
//! An *island* is a set of dynamic bodies linked, directly or through each other, by contacts
//! (a pair whose manifold has a point, speculative ones included, as Box2D counts a contact as
//! touching) and joints. Static and kinematic bodies link nothing: two piles on one ground are
//! two islands. Only a whole island can sleep, because a body at rest on a moving neighbour is
//! not at rest for long.
//!
//! **Falling asleep.** After each step every awake dynamic body updates its sleep timer: the
//! time it has been slower than [`crate::StepSettings::sleep_linear_speed`] and
//! [`crate::StepSettings::sleep_angular_speed`] (zero while it is faster, or may not sleep).
//! When some body's timer has reached [`crate::StepSettings::time_to_sleep`], the awake bodies
//! are joined into islands by union-find over the touching pairs and the joints, and each
//! island whose slowest-to-settle body has reached the time falls asleep: its bodies' velocities
//! are zeroed and it becomes a *sleeping set* that the world keeps until something wakes it.
//!
//! **Asleep.** A sleeping body is left out of every stage of the step that costs: the
//! broadphase does not recompute its box (so pairs of two sleeping bodies are never tested
//! again), the contact update keeps the manifolds of pairs between sleeping and still bodies as
//! they were (their impulses too, so the island wakes warm-started), the solver sees it as a
//! body that does not move, and the colouring and the solver skip the pairs and joints with no
//! awake dynamic body.
//!
//! **Waking.** A sleeping set wakes whole: when the contact update finds a point between one of
//! its bodies and an awake dynamic body or a moving kinematic one (before the solve, so the
//! woken bodies take part in this very step), and on every change a user makes to one of its
//! bodies, to a body touching it, or to a joint on it; changing gravity or the settings wakes
//! everything.
//!
//! This follows Erin Catto's design in Box2D v3 (`island.c`, `solver.c`; the blog post
//! "Simulation Islands", 2023): persistent sleeping sets, a per-body sleep timer, and islands
//! that only matter when something may fall asleep. Box2D keeps the awake islands too, merging
//! them when contacts begin and splitting a candidate lazily when it wants to sleep; here the
//! awake islands are found afresh by union-find in the steps where some body is sleepy, which
//! costs one pass over the awake pairs and gives the same islands.

use kollide_math::Scalar;

use crate::joint::edit::JointSet;
use crate::world::Slot;
use crate::{BodyHandle, BodyKind, ContactPair, Dim, SolverDim};

/// The `sleep_set` of an awake body.
pub(crate) const AWAKE: u32 = u32::MAX;

/// The sleeping sets and the buffers that find islands.
#[derive(Clone, Debug, Default)]
pub(crate) struct Islands<N> {
    /// Per sleeping set, its bodies' slots (in slot order); an empty list is a free set.
    sets: Vec<Vec<u32>>,
    /// The free sets, reused before new ones are made.
    free: Vec<u32>,
    /// The number of sleeping bodies.
    sleeping: usize,
    /// Union-find over slots: each slot's parent (reused).
    parent: Vec<u32>,
    /// Per island root: the shortest sleep timer of its bodies, then its new set (reused).
    shortest: Vec<N>,
    set_of_root: Vec<u32>,
    /// The bodies that woke and that fell asleep since the world last reported them (see
    /// [`crate::Events::woke`]).
    pub(crate) woke: Vec<BodyHandle>,
    pub(crate) fell_asleep: Vec<BodyHandle>,
}

/// Whether a body moves on its own this step: an awake dynamic body, or a kinematic body with a
/// velocity. A sleeping body touched by one must wake.
pub(crate) fn moving<N: Scalar, const D: usize>(b: &crate::Body<N, D>) -> bool
where
    Dim<D>: SolverDim<N, D>,
{
    match b.desc.kind {
        BodyKind::Dynamic => !b.is_sleeping(),
        BodyKind::Static => false,
        BodyKind::Kinematic => {
            b.desc.linear_velocity != kollide_math::Vector::<N, D>::zeros()
                || Dim::<D>::angular_length(&b.desc.angular_velocity) != 0.0
        }
    }
}

impl<N: Scalar> Islands<N> {
    /// No sleeping set.
    pub(crate) fn new() -> Self {
        Self {
            sets: Vec::new(),
            free: Vec::new(),
            sleeping: 0,
            parent: Vec::new(),
            shortest: Vec::new(),
            set_of_root: Vec::new(),
            woke: Vec::new(),
            fell_asleep: Vec::new(),
        }
    }

    /// The number of sleeping bodies.
    pub(crate) fn sleeping(&self) -> usize {
        self.sleeping
    }

    /// Wakes sleeping set `set`: its bodies start their sleep timers from zero.
    pub(crate) fn wake_set<const D: usize>(&mut self, slots: &mut [Slot<N, D>], set: u32)
    where
        Dim<D>: SolverDim<N, D>,
    {
        let Some(members) = self.sets.get_mut(set as usize) else { return };
        if members.is_empty() {
            return;
        }
        for &m in members.iter() {
            let slot = &mut slots[m as usize];
            if let Some(b) = slot.body.as_mut() {
                b.sleep_set = AWAKE;
                b.sleep_time = N::zero();
                self.woke.push(BodyHandle { index: m, generation: slot.generation });
            }
        }
        self.sleeping -= members.len();
        members.clear();
        self.free.push(set);
    }

    /// Wakes the body in `slot` (its whole set if it sleeps; its timer restarts either way).
    pub(crate) fn wake_body<const D: usize>(&mut self, slots: &mut [Slot<N, D>], slot: u32)
    where
        Dim<D>: SolverDim<N, D>,
    {
        let Some(b) = slots[slot as usize].body.as_mut() else { return };
        b.sleep_time = N::zero();
        let set = b.sleep_set;
        if set != AWAKE {
            self.wake_set(slots, set);
        }
    }

    /// Wakes every sleeping set.
    pub(crate) fn wake_all<const D: usize>(&mut self, slots: &mut [Slot<N, D>])
    where
        Dim<D>: SolverDim<N, D>,
    {
        for set in 0..self.sets.len() as u32 {
            self.wake_set(slots, set);
        }
    }

    /// Wakes the sets of the sleeping bodies that a moving body touches in `pairs` (found by
    /// the contact update, which tells the world when there are any).
    pub(crate) fn wake_touched<const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        pairs: &[ContactPair<N, D>],
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        for p in pairs.iter().filter(|p| !p.manifold.is_empty()) {
            let (a, b) = (p.a.index as usize, p.b.index as usize);
            let (Some(ba), Some(bb)) = (&slots[a].body, &slots[b].body) else { continue };
            let wake = match (ba.is_sleeping(), bb.is_sleeping()) {
                (true, false) if moving(bb) => Some(ba.sleep_set),
                (false, true) if moving(ba) => Some(bb.sleep_set),
                _ => None,
            };
            if let Some(set) = wake {
                self.wake_set(slots, set);
            }
        }
    }

    /// Wakes the bodies that share a touching pair or a joint with the body in `slot`, and the
    /// body itself: what a change to that body (a teleport, a removal) may disturb.
    pub(crate) fn wake_touching<const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        pairs: &[ContactPair<N, D>],
        joints: &JointSet<N, D>,
        slot: u32,
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        self.wake_body(slots, slot);
        for p in pairs.iter().filter(|p| !p.manifold.is_empty()) {
            if p.a.index == slot {
                self.wake_body(slots, p.b.index);
            } else if p.b.index == slot {
                self.wake_body(slots, p.a.index);
            }
        }
        for (_, j) in joints.iter() {
            let (a, b) = (j.desc.body_a.index, j.desc.body_b.index);
            if a == slot {
                self.wake_body(slots, b);
            } else if b == slot {
                self.wake_body(slots, a);
            }
        }
    }

    /// Joins the awake dynamic bodies into islands (union-find over the touching pairs and the
    /// joints between two of them); afterwards `find` gives each body's island root.
    fn link<const D: usize>(
        &mut self,
        slots: &[Slot<N, D>],
        pairs: &[ContactPair<N, D>],
        joints: &JointSet<N, D>,
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        self.parent.clear();
        self.parent.extend(0..slots.len() as u32);
        let awake = |i: u32| {
            slots[i as usize]
                .body
                .as_ref()
                .is_some_and(|b| b.desc.kind == BodyKind::Dynamic && !b.is_sleeping())
        };
        for p in pairs {
            if !p.manifold.is_empty() && awake(p.a.index) && awake(p.b.index) {
                self.union(p.a.index, p.b.index);
            }
        }
        for (_, j) in joints.iter() {
            let (a, b) = (j.desc.body_a.index, j.desc.body_b.index);
            if awake(a) && awake(b) {
                self.union(a, b);
            }
        }
    }

    /// The root of `i`'s island (halving the path on the way).
    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    /// Joins the islands of `a` and `b`; the lower root wins, so the roots (and the order the
    /// sets are made in) do not depend on the order of the links.
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (low, high) = (ra.min(rb), ra.max(rb));
        self.parent[high as usize] = low;
    }

    /// After a step of `dt`: updates the awake dynamic bodies' sleep timers and puts to sleep
    /// the islands whose bodies have all been still for `time_to_sleep`. Returns how many bodies
    /// fell asleep.
    pub(crate) fn fall_asleep<const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        pairs: &[ContactPair<N, D>],
        joints: &JointSet<N, D>,
        settings: &crate::StepSettings<N>,
        dt: N,
    ) -> usize
    where
        Dim<D>: SolverDim<N, D>,
    {
        if !settings.sleeping || !self.update_timers(slots, settings, dt) {
            return 0;
        }
        self.link(slots, pairs, joints);
        self.shortest.clear();
        self.shortest.resize(slots.len(), N::MAX);
        for i in 0..slots.len() as u32 {
            let Some(t) = awake_timer(&slots[i as usize]) else { continue };
            let r = self.find(i) as usize;
            self.shortest[r] = self.shortest[r].min_of(t);
        }
        self.set_of_root.clear();
        self.set_of_root.resize(slots.len(), AWAKE);
        let mut fell = 0;
        for i in 0..slots.len() as u32 {
            if awake_timer(&slots[i as usize]).is_none() {
                continue;
            }
            let r = self.find(i) as usize;
            if self.shortest[r] < settings.time_to_sleep {
                continue;
            }
            if self.set_of_root[r] == AWAKE {
                self.set_of_root[r] = self.new_set();
            }
            self.put_to_sleep(slots, i, self.set_of_root[r]);
            fell += 1;
        }
        fell
    }

    /// Advances the awake dynamic bodies' sleep timers by `dt`, or restarts those of the bodies
    /// too fast (or not allowed) to sleep; returns whether any timer reached `time_to_sleep`.
    fn update_timers<const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        settings: &crate::StepSettings<N>,
        dt: N,
    ) -> bool
    where
        Dim<D>: SolverDim<N, D>,
    {
        let linear = settings.sleep_linear_speed * settings.sleep_linear_speed;
        let angular = settings.sleep_angular_speed.to_f64();
        let mut sleepy = false;
        for slot in slots.iter_mut() {
            let Some(b) = slot.body.as_mut() else { continue };
            if b.desc.kind != BodyKind::Dynamic || b.is_sleeping() {
                continue;
            }
            let still = b.desc.can_sleep
                && b.desc.linear_velocity.norm_squared() < linear
                && Dim::<D>::angular_length(&b.desc.angular_velocity) < angular;
            b.sleep_time = if still { b.sleep_time + dt } else { N::zero() };
            sleepy |= b.sleep_time >= settings.time_to_sleep;
        }
        sleepy
    }

    /// Puts the island of the awake dynamic body in `slot` (as the last step left the pairs
    /// and joints) to sleep at once, whatever its timers. Fails, changing nothing, when a body
    /// of the island may not sleep.
    pub(crate) fn sleep_island<const D: usize>(
        &mut self,
        slots: &mut [Slot<N, D>],
        pairs: &[ContactPair<N, D>],
        joints: &JointSet<N, D>,
        slot: u32,
    ) -> Result<(), crate::WorldError>
    where
        Dim<D>: SolverDim<N, D>,
    {
        self.link(slots, pairs, joints);
        let root = self.find(slot);
        let mut members = Vec::new();
        for i in 0..slots.len() as u32 {
            if awake_timer(&slots[i as usize]).is_some() && self.find(i) == root {
                members.push(i);
            }
        }
        let restless = members
            .iter()
            .any(|&m| slots[m as usize].body.as_ref().is_some_and(|b| !b.desc.can_sleep));
        if restless {
            return Err(crate::WorldError::CannotSleep("a body of its island has can_sleep off"));
        }
        let set = self.new_set();
        for m in members {
            self.put_to_sleep(slots, m, set);
        }
        Ok(())
    }

    /// A free sleeping set (empty).
    fn new_set(&mut self) -> u32 {
        self.free.pop().unwrap_or_else(|| {
            self.sets.push(Vec::new());
            self.sets.len() as u32 - 1
        })
    }

    /// Puts the body in `slot` to sleep in `set`: it stops.
    fn put_to_sleep<const D: usize>(&mut self, slots: &mut [Slot<N, D>], slot: u32, set: u32)
    where
        Dim<D>: SolverDim<N, D>,
    {
        let generation = slots[slot as usize].generation;
        let Some(b) = slots[slot as usize].body.as_mut() else { return };
        b.sleep_set = set;
        b.sleep_time = N::zero();
        b.desc.linear_velocity = kollide_math::Vector::zeros();
        b.desc.angular_velocity = Dim::<D>::angular_zero();
        self.sets[set as usize].push(slot);
        self.fell_asleep.push(BodyHandle { index: slot, generation });
        self.sleeping += 1;
    }
}

/// The sleep timer of the body in a slot, if it is an awake dynamic body.
fn awake_timer<N: Scalar, const D: usize>(slot: &Slot<N, D>) -> Option<N>
where
    Dim<D>: SolverDim<N, D>,
{
    slot.body
        .as_ref()
        .filter(|b| b.desc.kind == BodyKind::Dynamic && !b.is_sleeping())
        .map(|b| b.sleep_time)
}
