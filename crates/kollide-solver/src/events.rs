//! [`Events`]: what happened during a step — contacts that began or ended, bodies that entered or
//! left a sensor, and hard hits — in buffers the world fills during [`crate::World::step`] and
//! the caller reads after it with [`crate::World::events`].
//!
//! **Touching.** A pair *touches* when its manifold (as [`crate::World::contact_pairs`] shows it
//! after the step) has at least one point with separation `≤ 0`; a speculative point (separation
//! `> 0`, within the speculative margin) does not count. A contact *begins* in the step after
//! which its pair touches and did not touch after the step before, and *ends* in the step after
//! which it no longer touches (or no longer has a pair: the bodies moved apart, or their
//! collision groups no longer interact). A sensor overlap begins and ends the same way, with
//! [`kollide_narrowphase::intersection_test`] in place of the manifold. A body made a sensor
//! or made solid ([`crate::World::set_sensor`]) ends, in the next step, what it had in its old
//! role (its contacts, or its overlaps) and begins what it has in the new one; an overlap whose
//! sensor and visitor swap roles ends and begins again.
//!
//! **Every begin has exactly one end.** [`crate::World::remove`] ends the removed body's
//! contacts and overlaps: their end events are reported with the next step's events (when the
//! removed body's handle is already stale). Turning contact events off
//! ([`crate::StepSettings::contact_events`]) ends every contact reported as begun (in the next
//! step's events) and then stops reporting; turning them on reports a begin for every pair that
//! touches after the next step.
//!
//! **Sleeping.** [`Events::fell_asleep`] lists the bodies that fell asleep, and
//! [`Events::woke`] those that woke, since the events before: in the step, or between the
//! steps by a user's call ([`crate::World::sleep`], [`crate::World::wake`], or any change that
//! wakes a body). A body that woke and fell asleep again in that time is in both lists. A body
//! removed before the step is in neither. Box2D v3 reports the same in its body move events
//! (`fellAsleep`); a game uses them to stop and restart what follows a body (sounds, effects,
//! network updates).
//!
//! **Order.** Each list is sorted by the pair's slot indices (the lower first), so it is the same
//! from run to run and for any number of threads. The buffers are cleared at the start of each
//! step and reused: once they have grown to a scene's needs, a step allocates nothing for them.
//!
//! Box2D v3 reports the same three kinds (its `b2ContactEvents`, `b2SensorEvents` and hit
//! events above a speed threshold); rapier reports collision events per collider pair.

use kollide_math::{Point, Scalar, Vector};

use crate::world::Slot;
use crate::{BodyHandle, Dim, SolverDim};

/// A contact that began or ended in the last step, between the bodies `a` and `b` (`a` has the
/// lower slot index, as in [`crate::ContactPair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContactEvent {
    /// The body with the lower slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
}

/// A body that entered or left a sensor in the last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SensorEvent {
    /// The sensor.
    pub sensor: BodyHandle,
    /// The body that entered or left it (never a sensor).
    pub visitor: BodyHandle,
}

impl SensorEvent {
    /// The pair's slot indices, lower first: the order of the event lists.
    pub(crate) fn key(&self) -> (u32, u32) {
        let (s, v) = (self.sensor.index, self.visitor.index);
        (s.min(v), s.max(v))
    }
}

/// A contact that pushed while its bodies approached faster than the pair's hit threshold, at
/// its fastest point. The threshold is the lower of the two bodies' own
/// ([`crate::World::set_hit_event_threshold`]), a body without one taking the world's
/// ([`crate::StepSettings::hit_event_threshold`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HitEvent<N: Scalar, const D: usize> {
    /// The body with the lower slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// The approach speed along the normal at the start of the step (m/s, positive).
    pub speed: N,
    /// The contact point (midway between the two surfaces), in the world.
    pub point: Point<N, D>,
    /// The manifold's normal, from A to B.
    pub normal: Vector<N, D>,
}

/// Which contacts report hits in a step: a pair whose bodies approach faster than the *lower*
/// of their two thresholds, where a body without a threshold of its own
/// ([`crate::World::set_hit_event_threshold`]) takes the world's
/// ([`crate::StepSettings::hit_event_threshold`]); a pair with no threshold at all reports
/// none. So a body given a low threshold hears of every hard hit on it, whatever it hit
/// (rapier's rule for its per-collider contact-force thresholds).
#[derive(Clone, Copy)]
pub(crate) struct HitThresholds<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    world: Option<N>,
    /// The bodies, looked up only when some of them has a threshold of its own.
    slots: Option<&'a [Slot<N, D>]>,
}

impl<'a, N: Scalar, const D: usize> HitThresholds<'a, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The world's threshold, and the bodies (`per_body` of them have their own).
    pub(crate) fn new(world: Option<N>, slots: &'a [Slot<N, D>], per_body: usize) -> Self {
        Self { world, slots: (per_body > 0).then_some(slots) }
    }

    /// `true` when some pair may report a hit.
    pub(crate) fn any(&self) -> bool {
        self.world.is_some() || self.slots.is_some()
    }

    /// The threshold of the pair of the bodies in slots `a` and `b`, if it has one.
    pub(crate) fn of_pair(&self, a: u32, b: u32) -> Option<N> {
        let Some(slots) = self.slots else { return self.world };
        let own = |i: u32| slots.get(i as usize)?.body.as_ref()?.hit_threshold;
        match (own(a).or(self.world), own(b).or(self.world)) {
            (Some(x), Some(y)) => Some(x.min_of(y)),
            (x, y) => x.or(y),
        }
    }
}

/// The events of the last step (see the module docs for the rules). Read them with
/// [`crate::World::events`].
#[derive(Clone, Debug)]
pub struct Events<N: Scalar, const D: usize> {
    pub(crate) contact_begin: Vec<ContactEvent>,
    pub(crate) contact_end: Vec<ContactEvent>,
    pub(crate) sensor_begin: Vec<SensorEvent>,
    pub(crate) sensor_end: Vec<SensorEvent>,
    pub(crate) hits: Vec<HitEvent<N, D>>,
    pub(crate) woke: Vec<BodyHandle>,
    pub(crate) fell_asleep: Vec<BodyHandle>,
    /// End events of removed bodies, reported by the next step.
    pub(crate) pending_contact_end: Vec<ContactEvent>,
    pub(crate) pending_sensor_end: Vec<SensorEvent>,
}

impl<N: Scalar, const D: usize> Default for Events<N, D> {
    fn default() -> Self {
        Self {
            contact_begin: Vec::new(),
            contact_end: Vec::new(),
            sensor_begin: Vec::new(),
            sensor_end: Vec::new(),
            hits: Vec::new(),
            woke: Vec::new(),
            fell_asleep: Vec::new(),
            pending_contact_end: Vec::new(),
            pending_sensor_end: Vec::new(),
        }
    }
}

impl<N: Scalar, const D: usize> Events<N, D> {
    /// Contacts that began in the last step, sorted by pair.
    pub fn contact_begin(&self) -> &[ContactEvent] {
        &self.contact_begin
    }

    /// Contacts that ended in the last step (including those of bodies removed before it),
    /// sorted by pair.
    pub fn contact_end(&self) -> &[ContactEvent] {
        &self.contact_end
    }

    /// Bodies that entered a sensor in the last step, sorted by pair.
    pub fn sensor_begin(&self) -> &[SensorEvent] {
        &self.sensor_begin
    }

    /// Bodies that left a sensor in the last step (including removed bodies and sensors),
    /// sorted by pair.
    pub fn sensor_end(&self) -> &[SensorEvent] {
        &self.sensor_end
    }

    /// Contacts that hit harder than the threshold in the last step, sorted by pair.
    pub fn hits(&self) -> &[HitEvent<N, D>] {
        &self.hits
    }

    /// Bodies that woke since the events before (in the last step or by a call before it),
    /// sorted by slot.
    pub fn woke(&self) -> &[BodyHandle] {
        &self.woke
    }

    /// Bodies that fell asleep since the events before (in the last step or by
    /// [`crate::World::sleep`] before it), sorted by slot.
    pub fn fell_asleep(&self) -> &[BodyHandle] {
        &self.fell_asleep
    }

    /// `true` when the last step reported nothing.
    pub fn is_empty(&self) -> bool {
        self.contact_begin.is_empty()
            && self.contact_end.is_empty()
            && self.sensor_begin.is_empty()
            && self.sensor_end.is_empty()
            && self.hits.is_empty()
            && self.woke.is_empty()
            && self.fell_asleep.is_empty()
    }

    /// Start of a step: forgets the last step's events and takes over the end events of the
    /// bodies removed since.
    pub(crate) fn begin_step(&mut self) {
        self.contact_begin.clear();
        self.contact_end.clear();
        self.sensor_begin.clear();
        self.sensor_end.clear();
        self.hits.clear();
        self.woke.clear();
        self.fell_asleep.clear();
        core::mem::swap(&mut self.contact_end, &mut self.pending_contact_end);
        core::mem::swap(&mut self.sensor_end, &mut self.pending_sensor_end);
    }

    /// End of a step: the bodies that woke and fell asleep since the last report (sorted by
    /// slot, once each, removed bodies left out), taken from `woke` and `fell_asleep`, which are
    /// left empty.
    pub(crate) fn take_sleep_changes(
        &mut self,
        slots: &[Slot<N, D>],
        woke: &mut Vec<BodyHandle>,
        fell_asleep: &mut Vec<BodyHandle>,
    ) where
        Dim<D>: SolverDim<N, D>,
    {
        handles_of(slots, woke, &mut self.woke);
        handles_of(slots, fell_asleep, &mut self.fell_asleep);
    }

    /// After the step's own events were added: the removed bodies' end events (added first)
    /// sorted in among them.
    pub(crate) fn sort_ends(&mut self) {
        if !self.contact_end.is_sorted() {
            self.contact_end.sort_unstable();
        }
        if !self.sensor_end.is_sorted_by_key(SensorEvent::key) {
            self.sensor_end.sort_unstable_by_key(SensorEvent::key);
        }
    }
}

/// The bodies of `list` that are still in the world (sorted by slot, once each) into `out`;
/// `list` is left empty.
fn handles_of<N: Scalar, const D: usize>(
    slots: &[Slot<N, D>],
    list: &mut Vec<BodyHandle>,
    out: &mut Vec<BodyHandle>,
) where
    Dim<D>: SolverDim<N, D>,
{
    list.sort_unstable();
    list.dedup();
    let live = |h: &&BodyHandle| {
        slots
            .get(h.index as usize)
            .is_some_and(|s| s.generation == h.generation && s.body.is_some())
    };
    out.extend(list.iter().filter(live));
    list.clear();
}
