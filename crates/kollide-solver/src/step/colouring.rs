//! Stage 4 of the step: the order in which the solver visits the contacts.
//!
//! The solver visits constraints in *waves* instead of pair order. The constraints of one wave
//! share no dynamic body, so they commute: each reads and writes only its two bodies' velocities
//! and its own points, and static and kinematic bodies are never written. So the solver can take
//! several constraints of a wave at once (four SIMD lanes, or several threads), and consecutive
//! constraints are independent, which lets the processor overlap them.
//!
//! * **2D:** a constraint's wave is one more than the last wave that touched either of its
//!   dynamic bodies, so constraints that share a body keep their pair order, and every pass gives
//!   bit-identical results to solving in pair order. That order is spatially coherent, and a tall
//!   pyramid sways least with it.
//! * **3D** (and 2D with [`crate::StepSettings::colour_2d`]): greedy graph colouring, as Box2D
//!   v3 colours its constraint graph: a constraint takes the lowest colour free at both of its
//!   dynamic bodies. A few colours of many constraints each fill the SIMD lanes better than
//!   pair-order waves, and can be shared between threads (`schedule.rs`), where pair-order
//!   waves hold a few dozen constraints each. Bodies with 64 contacts or more fall back to
//!   waves after the colours.
//!
//! The constraints are then put in wave order by a stable counting sort (pair order within a
//! wave), so the whole step stays deterministic.
//!
//! **Kept between steps.** A resting scene has the same touching pairs step after step, and
//! then the same waves and solver inputs: Box2D v3 keeps its constraint graph's colours
//! between steps for this reason, adding and removing a contact's colour only when it begins or
//! ends touching. Here the whole result is kept when everything it was computed from is the
//! same: each pair's bodies, whether they are dynamic, whether it touches (one comparison per
//! pair, against the [`PairKey`]s of the last colouring), and the settings. The bodies'
//! friction and restitution are not compared; the world drops the kept result whenever a body
//! is added, removed or edited ([`Colouring::forget`]). A contact hook may change any pair's
//! inputs, so a step with a hook always colours afresh. Debug builds colour afresh on every
//! reuse as well and assert that the two agree.

use kollide_math::{Scalar, Vector};

use crate::contact_solver::{PrepareInput, Softness, SolverBody};
use crate::hook::PreSolve;
use crate::world::Slot;
use crate::{
    BodyDesc, BodyHandle, ContactHook, ContactImpulse, ContactPair, Dim, SolverDim, StepReport,
};

/// The constraints' solver inputs in wave order, with their waves, and the buffers that build
/// them.
#[derive(Clone, Debug)]
pub(crate) struct Colouring<N: Scalar, const D: usize> {
    /// The touching pairs' solver inputs in wave order, and the wave of each.
    pub(crate) inputs: Vec<PrepareInput<N>>,
    pub(crate) waves: Vec<u32>,
    /// The tangent velocities a hook set, by pair index (sorted).
    pub(crate) surfaces: Vec<(u32, Vector<N, D>)>,
    /// Per body: one more than the last wave that touched it, and the colours taken at it (one
    /// bit each).
    wave_of_body: Vec<u32>,
    colours: Vec<u64>,
    /// The inputs and waves in pair order, and the counting sort's offsets.
    unsorted: Vec<PrepareInput<N>>,
    unsorted_waves: Vec<u32>,
    offsets: Vec<u32>,
    /// What the kept result was computed from: the key of each pair, and the settings (`None`:
    /// nothing kept).
    keys: Vec<PairKey>,
    kept_for: Option<ContactSettings<N>>,
    /// How many steps reused the kept result (read by the tests).
    pub(crate) reused: u64,
}

/// What a pair contributes to the colouring, besides its bodies' friction and restitution:
/// its two body slots and whether each is dynamic, or [`PairKey::SKIPPED`] when it gets no
/// constraint (no contact, or no dynamic body).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairKey {
    a: u32,
    b: u32,
    dynamic: [bool; 2],
}

impl PairKey {
    const SKIPPED: Self = Self { a: u32::MAX, b: u32::MAX, dynamic: [false; 2] };

    #[inline(always)]
    fn of<N: Scalar, const D: usize>(pair: &ContactPair<N, D>, bodies: &[SolverBody<N, D>]) -> Self
    where
        Dim<D>: SolverDim<N, D>,
    {
        let (a, b) = (pair.a.index, pair.b.index);
        let dynamic = [bodies[a as usize].dynamic, bodies[b as usize].dynamic];
        if pair.manifold.is_empty() || dynamic == [false; 2] {
            return Self::SKIPPED;
        }
        Self { a, b, dynamic }
    }
}

/// What the solver inputs take from the step's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ContactSettings<N> {
    /// The softness of contacts between two dynamic bodies, and of the others.
    pub(crate) soft: Softness<N>,
    pub(crate) static_soft: Softness<N>,
    pub(crate) warm_start: bool,
    /// Colour 2D contacts too (3D contacts are always coloured).
    pub(crate) colour_2d: bool,
}

impl<N: Scalar, const D: usize> Colouring<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Empty buffers.
    pub(crate) fn new() -> Self {
        Self {
            inputs: Vec::new(),
            waves: Vec::new(),
            surfaces: Vec::new(),
            wave_of_body: Vec::new(),
            colours: Vec::new(),
            unsorted: Vec::new(),
            unsorted_waves: Vec::new(),
            offsets: Vec::new(),
            keys: Vec::new(),
            kept_for: None,
            reused: 0,
        }
    }

    /// Drops the kept result: the next step colours afresh (a body was added, removed or
    /// edited, which may change a pair's friction or restitution, or a slot's body).
    pub(crate) fn forget(&mut self) {
        self.kept_for = None;
    }

    /// Gives each touching pair its wave and its solver input, counting the touching pairs and
    /// their contacts into `report`, and sorts the inputs into wave order; keeps the last
    /// step's when nothing they depend on changed (see the module docs). A `hook` sees each
    /// pair first, in pair order, and may disable it (then it gets no input and its impulses
    /// are dropped) or change its friction, restitution and tangent velocity.
    pub(crate) fn colour(
        &mut self,
        slots: &[Slot<N, D>],
        bodies: &[SolverBody<N, D>],
        pairs: &mut [ContactPair<N, D>],
        settings: ContactSettings<N>,
        report: &mut StepReport,
        hook: Option<&mut dyn ContactHook<N, D>>,
    ) {
        if hook.is_none() && self.unchanged(bodies, pairs, settings, report) {
            self.reused += 1;
            #[cfg(debug_assertions)]
            {
                let mut fresh = self.clone();
                fresh.forget();
                fresh.colour(slots, bodies, pairs, settings, &mut StepReport::default(), None);
                assert!(
                    fresh.inputs == self.inputs && fresh.waves == self.waves,
                    "the kept colouring differs from a fresh one"
                );
            }
            return;
        }
        self.kept_for = hook.is_none().then_some(settings);
        self.keys.clear();
        self.wave_of_body.clear();
        self.wave_of_body.resize(bodies.len(), 0);
        self.colours.clear();
        self.colours.resize(bodies.len(), 0);
        self.unsorted.clear();
        self.unsorted_waves.clear();
        self.surfaces.clear();
        let mut hook = hook;
        for (k, pair) in pairs.iter_mut().enumerate() {
            let key = PairKey::of(pair, bodies);
            self.keys.push(key);
            if key == PairKey::SKIPPED {
                // No contact, or none that moves a body: a sleeping body's pairs.
                continue;
            }
            let (da, db) = descs(slots, pair);
            let mut mix =
                ((da.friction * db.friction).sqrt(), da.restitution.max_of(db.restitution));
            if let Some(hook) = hook.as_deref_mut() {
                match self.pre_solve(hook, k, pair, slots, mix) {
                    Some(changed) => mix = changed,
                    None => continue,
                }
            }
            self.push(k, pair, bodies, settings, mix, report);
        }
        self.sort_by_wave();
    }

    /// Whether the kept result is this step's (see the module docs); if so, counts the
    /// touching pairs and their contacts into `report`.
    fn unchanged(
        &self,
        bodies: &[SolverBody<N, D>],
        pairs: &[ContactPair<N, D>],
        settings: ContactSettings<N>,
        report: &mut StepReport,
    ) -> bool {
        if self.kept_for != Some(settings) || self.keys.len() != pairs.len() {
            return false;
        }
        let (mut touching, mut contacts) = (0, 0);
        for (pair, key) in pairs.iter().zip(&self.keys) {
            if PairKey::of(pair, bodies) != *key {
                return false;
            }
            if *key != PairKey::SKIPPED {
                touching += 1;
                contacts += pair.manifold.len();
            }
        }
        report.touching_pairs += touching;
        report.contacts += contacts;
        true
    }

    /// Runs the hook on pair `k` with the mixed `(friction, restitution)`: `None` when it
    /// disabled the contact (whose impulses are then dropped), else the friction and
    /// restitution to solve it with; keeps a tangent velocity it set. (Out of line: a step
    /// without a hook does not pay for it.)
    #[inline(never)]
    fn pre_solve(
        &mut self,
        hook: &mut dyn ContactHook<N, D>,
        k: usize,
        pair: &mut ContactPair<N, D>,
        slots: &[Slot<N, D>],
        (friction, restitution): (N, N),
    ) -> Option<(N, N)> {
        let body = |h: BodyHandle| slots[h.index as usize].body.as_ref().expect("a live body");
        let mut c = PreSolve {
            a: pair.a,
            b: pair.b,
            body_a: body(pair.a),
            body_b: body(pair.b),
            manifold: &pair.manifold,
            enabled: true,
            friction,
            restitution,
            tangent_velocity: Vector::zeros(),
        };
        hook.pre_solve(&mut c);
        let (enabled, mix, tangent_velocity) =
            (c.enabled, (c.friction, c.restitution), c.tangent_velocity);
        if !enabled {
            for contact in pair.manifold.contacts_mut() {
                contact.user = ContactImpulse::default();
            }
            return None;
        }
        if tangent_velocity != Vector::<N, D>::zeros() {
            self.surfaces.push((k as u32, tangent_velocity));
        }
        Some(mix)
    }

    /// Gives pair `k` (touching) its wave and its solver input, with `(friction, restitution)`.
    #[inline(always)]
    fn push(
        &mut self,
        k: usize,
        pair: &ContactPair<N, D>,
        bodies: &[SolverBody<N, D>],
        settings: ContactSettings<N>,
        (friction, restitution): (N, N),
        report: &mut StepReport,
    ) {
        let (a, b) = (pair.a.index as usize, pair.b.index as usize);
        let colour = D == 3 || settings.colour_2d;
        let wave = self.wave_of(a, bodies[a].dynamic, b, bodies[b].dynamic, colour);
        self.unsorted_waves.push(wave);
        report.touching_pairs += 1;
        report.contacts += pair.manifold.len();
        let both_dynamic = bodies[a].dynamic && bodies[b].dynamic;
        self.unsorted.push(PrepareInput {
            pair: k as u32,
            a: a as u32,
            b: b as u32,
            friction,
            restitution,
            softness: if both_dynamic { settings.soft } else { settings.static_soft },
            warm_start: settings.warm_start,
        });
    }

    /// The wave of a constraint between bodies `a` and `b` (see the module docs), marking it
    /// taken at their dynamic bodies.
    fn wave_of(&mut self, a: usize, da: bool, b: usize, db: bool, colour: bool) -> u32 {
        let taken = (if da { self.colours[a] } else { 0 }) | (if db { self.colours[b] } else { 0 });
        if colour && taken != u64::MAX {
            let colour = (!taken).trailing_zeros();
            for (d, k) in [(da, a), (db, b)] {
                if d {
                    self.colours[k] |= 1 << colour;
                }
            }
            return colour;
        }
        // 2D, or every colour is taken at one of the bodies: one more than the last wave of
        // either body (after the colours in 3D).
        let wave_a = if da { self.wave_of_body[a] } else { 0 };
        let wave_b = if db { self.wave_of_body[b] } else { 0 };
        let wave = wave_a.max(wave_b);
        for (d, k) in [(da, a), (db, b)] {
            if d {
                self.wave_of_body[k] = wave + 1;
            }
        }
        if colour { u64::BITS + wave } else { wave }
    }

    /// Counting sort of the inputs by wave, stable (pair order within a wave).
    fn sort_by_wave(&mut self) {
        let count = self.unsorted_waves.iter().map(|&w| w as usize + 1).max().unwrap_or(0);
        self.offsets.clear();
        self.offsets.resize(count + 1, 0);
        for &w in &self.unsorted_waves {
            self.offsets[w as usize + 1] += 1;
        }
        for w in 1..self.offsets.len() {
            self.offsets[w] += self.offsets[w - 1];
        }
        self.inputs.clear();
        self.inputs.extend_from_slice(&self.unsorted);
        self.waves.clear();
        self.waves.resize(self.unsorted_waves.len(), 0);
        for (&w, input) in self.unsorted_waves.iter().zip(&self.unsorted) {
            let slot = &mut self.offsets[w as usize];
            self.inputs[*slot as usize] = *input;
            self.waves[*slot as usize] = w;
            *slot += 1;
        }
    }
}

/// The descriptions of a pair's two bodies.
#[inline(always)]
fn descs<'a, N: Scalar, const D: usize>(
    slots: &'a [Slot<N, D>],
    pair: &ContactPair<N, D>,
) -> (&'a BodyDesc<N, D>, &'a BodyDesc<N, D>)
where
    Dim<D>: SolverDim<N, D>,
{
    let desc = |i: u32| &slots[i as usize].body.as_ref().expect("a live body").desc;
    (desc(pair.a.index), desc(pair.b.index))
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso2, Vec2};
    use kollide_shapes::Cuboid;

    use crate::{BodyDesc, BodyHandle, StepSettings, World2};

    /// A stack of five boxes on the ground, awake throughout; the top box's handle.
    fn stack() -> (World2<f64>, BodyHandle) {
        let mut w = World2::new(Vec2::new(0.0, -10.0)).unwrap();
        w.set_settings(StepSettings { sleeping: false, ..*w.settings() }).unwrap();
        let ground = Cuboid::new(Vec2::new(10.0, 0.5)).unwrap();
        w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
        let cube = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
        let mut top = None;
        for i in 0..5 {
            let pose = Iso2::translation(0.0, 0.5 + i as f64);
            top = Some(w.add(BodyDesc::dynamic(cube).pose(pose)).unwrap());
        }
        (w, top.unwrap())
    }

    /// A resting stack keeps its colouring step after step (debug builds check each reuse
    /// against a fresh colouring); a friction edit, an added body and a removed one each make
    /// the next step colour afresh, and its inputs carry the new friction.
    #[test]
    fn a_resting_stack_keeps_its_colouring_until_a_body_changes() {
        let (mut w, top) = stack();
        for _ in 0..30 {
            w.step(1.0 / 60.0).unwrap();
        }
        let reused = w.colouring.reused;
        assert!(reused > 20, "the colouring was kept in only {reused} of 30 steps");
        let friction = |w: &World2<f64>| {
            let top = w.colouring.inputs.iter().find(|i| i.b == top.index || i.a == top.index);
            top.expect("the top box touches the box below").friction
        };
        let before = friction(&w);
        w.set_friction(top, 0.1).unwrap();
        w.step(1.0 / 60.0).unwrap();
        assert_eq!(w.colouring.reused, reused, "a friction edit did not drop the colouring");
        // Both boxes had the same friction, so `before` is it; the mix is the geometric mean.
        let mixed = (0.1 * before).sqrt();
        assert!((friction(&w) - mixed).abs() < 1e-12, "friction {} for {mixed}", friction(&w));
        w.step(1.0 / 60.0).unwrap();
        assert_eq!(w.colouring.reused, reused + 1, "the colouring was not kept again");
        let far = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
        let added = w.add(BodyDesc::dynamic(far).pose(Iso2::translation(50.0, 0.5))).unwrap();
        w.step(1.0 / 60.0).unwrap();
        assert_eq!(w.colouring.reused, reused + 1, "adding a body did not drop the colouring");
        w.remove(added).unwrap();
        w.step(1.0 / 60.0).unwrap();
        assert_eq!(w.colouring.reused, reused + 1, "removing a body did not drop the colouring");
        w.step(1.0 / 60.0).unwrap();
        assert_eq!(w.colouring.reused, reused + 2);
    }
}
