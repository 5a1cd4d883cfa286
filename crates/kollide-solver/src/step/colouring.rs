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
}

/// What the solver inputs take from the step's settings.
#[derive(Clone, Copy, Debug)]
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
        }
    }

    /// Gives each touching pair its wave and its solver input, counting the touching pairs and
    /// their contacts into `report`, and sorts the inputs into wave order. A `hook` sees each
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
        self.wave_of_body.clear();
        self.wave_of_body.resize(bodies.len(), 0);
        self.colours.clear();
        self.colours.resize(bodies.len(), 0);
        self.unsorted.clear();
        self.unsorted_waves.clear();
        self.surfaces.clear();
        let mut hook = hook;
        for (k, pair) in pairs.iter_mut().enumerate() {
            let (a, b) = (pair.a.index as usize, pair.b.index as usize);
            if pair.manifold.is_empty() || !(bodies[a].dynamic || bodies[b].dynamic) {
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
