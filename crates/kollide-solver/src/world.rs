//! [`World`]: bodies, a broadphase with persistent pairs, and the step.
//!
//! Bodies live in slots addressed by [`BodyHandle`]s (index + generation). Each step:
//!
//! 1. **Broadphase.** AABBs grown by the speculative margin go through sweep and prune; the
//!    overlapping pairs come out sorted.
//! 2. **Narrowphase.** Each pair gets a fresh manifold from the dimension's dispatcher, matched
//!    by feature id to the pair's manifold from last step so accumulated impulses carry over
//!    (warm starting); a contact whose id found no match inherits from the previous contact
//!    nearest to it (within [`WARM_START_MATCH_FRACTION`] of the shapes' size), because ids
//!    change when nearly tied faces swap the reference role although nothing moved. Pairs are
//!    persistent: they live as long as their AABBs overlap.
//! 3. **Solve.** The soft-step contact solver (see `contact_solver.rs`) with substeps.
//! 4. **Write back** poses and velocities.
//!
//! The same scene stepped twice gives bit-identical states: pairs are visited in sorted order and
//! nothing depends on hashing or addresses.

use kollide_manifold::{MAX_CONTACTS, Manifold};
use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::{Aabb, BoundingVolume};

use crate::body::check_velocities;
use crate::broadphase::SweepAndPrune;
use crate::contact_solver::{self as cs, BodyState, Softness, SolverBody};
use crate::solve::Scratch;
use crate::{
    Body, BodyDesc, BodyHandle, BodyKind, ContactImpulse, ContactPair, Dim, SolverDim,
    StepSettings, WorldError, WorldLimits,
};

/// What a step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Pairs found by the broadphase.
    pub pairs: usize,
    /// Manifolds with at least one contact.
    pub touching_pairs: usize,
    /// Contact points solved.
    pub contacts: usize,
    /// Manifolds kept from an earlier step instead of computed (see
    /// [`StepSettings::manifold_reuse_distance`]).
    pub reused_manifolds: usize,
    /// Bundles of several contact constraints that the solver built and solved side by side
    /// in SIMD lanes (each bundle is solved in every pass of the step): non-zero in `f32`
    /// worlds with contacts, zero in `f64` worlds, whose solver runs one constraint at a time.
    pub simd_bundles: usize,
}

#[derive(Clone, Debug)]
struct Slot<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    generation: u32,
    body: Option<Body<N, D>>,
}

/// A world of bodies in `D` dimensions. Use [`World2`] or [`World3`].
///
/// **Input envelope.** Everything that enters a world is checked against [`WorldLimits`] (one
/// table per scalar type): gravity ([`World::new`], [`World::set_gravity`]), step settings
/// ([`World::set_settings`]), bodies ([`World::add`]: pose, rotation, velocities, density,
/// friction, restitution, damping, gravity scale), velocities ([`World::set_velocity`]) and time
/// steps ([`World::step`]). A request outside it is refused with a [`WorldError`] and leaves the
/// world bit for bit as it was; input inside it cannot make a body NaN.
#[derive(Clone, Debug)]
pub struct World<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Gravity (m/s²), within the envelope.
    gravity: Vector<N, D>,
    /// Settings of [`World::step`], validated.
    settings: StepSettings<N>,
    slots: Vec<Slot<N, D>>,
    free: Vec<u32>,
    broadphase: SweepAndPrune,
    pairs: Vec<ContactPair<N, D>>,
    /// The broadphase's pairs, reused while every body stays inside its fat AABB.
    scratch_pairs: Vec<(u32, u32)>,
    /// Per slot: the AABB the broadphase last saw, grown by [`FAT_MARGIN`].
    fat: Vec<Option<Aabb<N, D>>>,
    /// Bodies were added or removed since the broadphase last ran.
    bodies_changed: bool,
    /// Buffers reused from step to step (their contents do not outlive a step, except
    /// `spare_pairs`, which holds the pairs of the step before last until it is overwritten).
    scratch_movable: Vec<bool>,
    scratch_moved: Vec<u32>,
    scratch_wave_of_body: Vec<u32>,
    /// The colours (waves) taken at each body, one bit each.
    scratch_colours: Vec<u64>,
    scratch_waves: Vec<u32>,
    scratch_order: Vec<u32>,
    scratch_unsorted_inputs: Vec<cs::PrepareInput<N>>,
    spare_pairs: Vec<ContactPair<N, D>>,
    /// What each pair's manifold was computed from (aligned with `pairs`; see
    /// [`StepSettings::manifold_reuse_distance`]), and the same for `spare_pairs`.
    caches: Vec<PairCache<N, D>>,
    spare_caches: Vec<PairCache<N, D>>,
    solver_bodies: Vec<SolverBody<N, D>>,
    solver_states: Vec<BodyState<N, D>>,
    /// The wave of each constraint.
    constraint_waves: Vec<u32>,
    scratch_inputs: Vec<cs::PrepareInput<N>>,
    /// The contact solver's buffers, for its lanes and (tests) for one lane.
    solver_scratch: Scratch<<Dim<D> as SolverDim<N, D>>::Lanes, D>,
    solver_scratch_one_lane: Scratch<<Dim<D> as SolverDim<N, D>>::OneLane, D>,
    /// Solve `f32` contacts four at a time (the same numbers as one at a time; the tests
    /// turn it off to compare).
    pub(crate) simd: bool,
}

/// How much the broadphase grows each AABB (m). While a body's swept AABB stays inside its fat
/// one, its broadphase pairs cannot change, so a resting pile costs no broadphase work at all
/// (Box2D's AABB margin is the same 10 cm).
pub const FAT_MARGIN: f64 = 0.1;

/// How far (as a fraction of the smaller shape's bounding radius) a contact may lie from last
/// step's contact whose accumulated impulse it inherits when their feature ids differ (see
/// [`kollide_manifold::Manifold::match_previous_or_nearest`]).
pub const WARM_START_MATCH_FRACTION: f64 = 0.05;

/// The largest relative motion within which a pair keeps its manifold, as a fraction of the
/// smaller shape's bounding radius (see [`StepSettings::manifold_reuse_distance`], the limit in
/// metres).
pub const REUSE_FRACTION: f64 = 0.01;

/// What a pair's manifold was computed from, so that a later step can tell whether it still
/// holds (Jolt's body-pair cache does the same).
#[derive(Clone, Copy, Debug)]
struct PairCache<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// B's pose in A's frame, and the speculative margin, when it was computed.
    relative: <Dim<D> as SolverDim<N, D>>::Pose,
    margin: N,
    /// The manifold's normal in A's frame and each contact's points in its body's frame (as
    /// [`Manifold::to_local`] puts them; ids and impulses stay in the pair's manifold).
    normal: Vector<N, D>,
    points: [[Point<N, D>; 2]; MAX_CONTACTS],
    /// The number of contacts; zero when there is nothing to reuse.
    len: u8,
}

impl<N: Scalar, const D: usize> PairCache<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Whether the manifold still holds for B at `relative` (in A's frame) with `margin`: no
    /// point of B within `radius_b` of its origin has moved by `tolerance` or more as seen from
    /// A (a translation `Δt` and a turn by `θ` move such a point by at most
    /// `|Δt| + 2 sin(θ/2) · radius_b`), and the margin has not grown beyond the tolerance
    /// (a faster approach wants a wider margin, which may hold more contacts).
    fn fits(
        &self,
        relative: &<Dim<D> as SolverDim<N, D>>::Pose,
        margin: N,
        tolerance: N,
        radius_b: N,
    ) -> bool {
        if self.len == 0 || margin > self.margin + tolerance {
            return false;
        }
        let shift = (relative.translation() - self.relative.translation()).norm();
        let turn = Dim::<D>::rotation_delta(
            &Dim::<D>::rotation(relative),
            &Dim::<D>::rotation(&self.relative),
        );
        shift + Dim::<D>::rotation_chord(&turn) * radius_b < tolerance
    }

    /// The cache of the world-frame manifold `m` of bodies at `pose_a` and `pose_b` (B at
    /// `relative` in A's frame), computed with `margin`.
    fn of(
        m: &Manifold<N, D, ContactImpulse<N>>,
        pose_a: &<Dim<D> as SolverDim<N, D>>::Pose,
        pose_b: &<Dim<D> as SolverDim<N, D>>::Pose,
        relative: <Dim<D> as SolverDim<N, D>>::Pose,
        margin: N,
    ) -> Self {
        let mut points = [[Point::origin(); 2]; MAX_CONTACTS];
        for (p, c) in points.iter_mut().zip(m.contacts()) {
            *p = [
                pose_a.inverse_transform_point(&c.point_a),
                pose_b.inverse_transform_point(&c.point_b),
            ];
        }
        let normal = pose_a.inverse_transform_vector(&m.normal);
        Self { relative, margin, normal, points, len: m.len() as u8 }
    }

    /// Nothing to reuse.
    fn none(relative: <Dim<D> as SolverDim<N, D>>::Pose) -> Self {
        Self {
            relative,
            margin: N::zero(),
            normal: Vector::zeros(),
            points: [[Point::origin(); 2]; MAX_CONTACTS],
            len: 0,
        }
    }

    /// Moves the cached contacts with the bodies into `m`, which holds the same contacts (ids
    /// and impulses) from the step before: points back in the world, separations recomputed
    /// along the normal, as [`Manifold::to_world`] does.
    fn apply(
        &self,
        pose_a: &<Dim<D> as SolverDim<N, D>>::Pose,
        pose_b: &<Dim<D> as SolverDim<N, D>>::Pose,
        m: &mut Manifold<N, D, ContactImpulse<N>>,
    ) {
        let n = pose_a.transform_vector(&self.normal);
        m.normal = n;
        for (c, [pa, pb]) in m.contacts_mut().iter_mut().zip(&self.points) {
            c.point_a = pose_a.transform_point(pa);
            c.point_b = pose_b.transform_point(pb);
            c.separation = (c.point_b - c.point_a).dot(&n);
        }
    }
}

/// Gravity checked against the envelope: finite and at most [`WorldLimits::max_gravity`] long.
fn check_gravity<N: Scalar, const D: usize>(gravity: &Vector<N, D>) -> Result<(), WorldError> {
    WorldLimits::check_vector("gravity", gravity, WorldLimits::<N>::new().max_gravity)
}

/// A 2D world.
pub type World2<N> = World<N, 2>;
/// A 3D world.
pub type World3<N> = World<N, 3>;

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// An empty world with this gravity (m/s²) and default settings. Gravity that is not
    /// finite or longer than [`WorldLimits::max_gravity`] is refused.
    pub fn new(gravity: Vector<N, D>) -> Result<Self, WorldError> {
        check_gravity(&gravity)?;
        Ok(Self {
            gravity,
            settings: StepSettings::default(),
            slots: Vec::new(),
            free: Vec::new(),
            broadphase: SweepAndPrune::new(),
            pairs: Vec::new(),
            scratch_pairs: Vec::new(),
            fat: Vec::new(),
            bodies_changed: true,
            scratch_movable: Vec::new(),
            scratch_moved: Vec::new(),
            scratch_wave_of_body: Vec::new(),
            scratch_colours: Vec::new(),
            scratch_waves: Vec::new(),
            scratch_order: Vec::new(),
            scratch_unsorted_inputs: Vec::new(),
            spare_pairs: Vec::new(),
            caches: Vec::new(),
            spare_caches: Vec::new(),
            solver_bodies: Vec::new(),
            solver_states: Vec::new(),
            constraint_waves: Vec::new(),
            scratch_inputs: Vec::new(),
            solver_scratch: Scratch::default(),
            solver_scratch_one_lane: Scratch::default(),
            simd: true,
        })
    }

    /// Gravity (m/s²).
    pub fn gravity(&self) -> &Vector<N, D> {
        &self.gravity
    }

    /// Sets gravity (m/s²). Gravity that is not finite or longer than
    /// [`WorldLimits::max_gravity`] is refused and changes nothing.
    pub fn set_gravity(&mut self, gravity: Vector<N, D>) -> Result<(), WorldError> {
        check_gravity(&gravity)?;
        self.gravity = gravity;
        Ok(())
    }

    /// The settings of [`World::step`].
    pub fn settings(&self) -> &StepSettings<N> {
        &self.settings
    }

    /// Sets the settings of [`World::step`]. Settings that [`StepSettings::validate`] refuses
    /// are refused and change nothing.
    pub fn set_settings(&mut self, settings: StepSettings<N>) -> Result<(), WorldError> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Adds a body. A description outside the world's envelope ([`WorldLimits`]; see the
    /// fields of [`BodyDesc`]) — NaN or infinite numbers, a rotation that is not of unit length,
    /// a position, speed, density, friction, restitution, damping or gravity scale out of range
    /// — or a massless shape on a dynamic body is rejected with a [`WorldError`], and the world
    /// is left unchanged. A rotation a few ulps off unit length is accepted and renormalised.
    pub fn add(&mut self, desc: BodyDesc<N, D>) -> Result<BodyHandle, WorldError> {
        let body = Body::new(desc)?;
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot { generation: 0, body: None });
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.body = Some(body);
        self.bodies_changed = true;
        Ok(BodyHandle { index, generation: slot.generation })
    }

    /// Removes a body and its contacts. A stale handle is an error and changes nothing.
    pub fn remove(&mut self, h: BodyHandle) -> Result<Body<N, D>, WorldError> {
        self.check(h)?;
        let slot = &mut self.slots[h.index as usize];
        let body = slot.body.take().ok_or(WorldError::StaleHandle)?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(h.index);
        self.bodies_changed = true;
        self.pairs.retain(|p| p.a.index != h.index && p.b.index != h.index);
        // Removal is rare: the pairs' manifolds are computed afresh next step.
        self.caches.clear();
        Ok(body)
    }

    fn check(&self, h: BodyHandle) -> Result<(), WorldError> {
        match self.slots.get(h.index as usize) {
            Some(s) if s.generation == h.generation && s.body.is_some() => Ok(()),
            _ => Err(WorldError::StaleHandle),
        }
    }

    /// The body behind a handle.
    pub fn body(&self, h: BodyHandle) -> Result<&Body<N, D>, WorldError> {
        self.check(h)?;
        self.slots[h.index as usize].body.as_ref().ok_or(WorldError::StaleHandle)
    }

    /// Sets a body's velocities (of its centre of mass). Values that are not finite or faster
    /// than [`WorldLimits::max_linear_speed`] or [`WorldLimits::max_angular_speed`] are
    /// rejected and change nothing.
    pub fn set_velocity(
        &mut self,
        h: BodyHandle,
        linear: Vector<N, D>,
        angular: <Dim<D> as SolverDim<N, D>>::Angular,
    ) -> Result<(), WorldError> {
        self.check(h)?;
        check_velocities::<N, D>(&linear, &angular, &WorldLimits::new())?;
        if let Some(b) = self.slots[h.index as usize].body.as_mut() {
            b.desc.linear_velocity = linear;
            b.desc.angular_velocity = angular;
        }
        Ok(())
    }

    /// All bodies with their handles, in slot order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body<N, D>)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.body.as_ref().map(|b| (BodyHandle { index: i as u32, generation: s.generation }, b))
        })
    }

    /// The number of bodies.
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.body.is_some()).count()
    }

    /// `true` when the world has no body.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The persistent pairs with their manifolds (after the last step).
    pub fn contact_pairs(&self) -> &[ContactPair<N, D>] {
        &self.pairs
    }

    fn handle(&self, index: u32) -> BodyHandle {
        BodyHandle { index, generation: self.slots[index as usize].generation }
    }

    /// Advances the world by `dt` seconds. A `dt` that is not finite or not in
    /// [[`WorldLimits::min_time_step`], [`WorldLimits::max_time_step`]] is rejected with
    /// [`WorldError::BadTimeStep`] and changes nothing.
    pub fn step(&mut self, dt: N) -> Result<StepReport, WorldError> {
        let limits = WorldLimits::<N>::new();
        if !(dt.is_finite_value() && dt >= limits.min_time_step && dt <= limits.max_time_step) {
            return Err(WorldError::BadTimeStep(dt.to_f64()));
        }
        let settings = self.settings;
        let margin = settings.speculative_margin;
        // At least 1: the settings are validated.
        let substeps = settings.substeps;
        let h = dt / N::lit(f64::from(substeps));

        // 1. Broadphase.
        // AABBs grown by the margin and swept by this step's motion, so a fast body meets what
        // is in its way this step (speculative contacts instead of tunnelling). The broadphase
        // works on fat AABBs and reruns only when one of these leaves its fat box.
        let fat_margin = N::lit(FAT_MARGIN);
        self.fat.resize(self.slots.len(), None);
        let mut moved = std::mem::take(&mut self.scratch_moved);
        moved.clear();
        for (index, (slot, fat)) in self.slots.iter().zip(self.fat.iter_mut()).enumerate() {
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
                moved.push(index as u32);
            }
        }
        let mut found = std::mem::take(&mut self.scratch_pairs);
        if self.bodies_changed || !moved.is_empty() {
            let mut movable = std::mem::take(&mut self.scratch_movable);
            movable.clear();
            movable.extend(
                self.slots
                    .iter()
                    .map(|s| s.body.as_ref().is_some_and(|b| b.desc.kind == BodyKind::Dynamic)),
            );
            if self.bodies_changed {
                self.broadphase.find_pairs(&self.fat, &movable, &mut found);
            } else {
                // Only pairs with a body whose fat AABB changed can have changed.
                self.broadphase.update_pairs(&self.fat, &movable, &moved, &mut found);
            }
            self.scratch_movable = movable;
            self.bodies_changed = false;
        }

        // 2. Solver bodies (one per slot, so constraint indices are slot indices): the velocity
        // state apart from the rest.
        let mut bodies = std::mem::take(&mut self.solver_bodies);
        let mut states = std::mem::take(&mut self.solver_states);
        bodies.clear();
        states.clear();
        for s in &self.slots {
            match &s.body {
                Some(b) => {
                    let q = Dim::<D>::rotation(&b.desc.pose);
                    let dynamic = b.desc.kind == BodyKind::Dynamic;
                    states.push(BodyState {
                        v: b.desc.linear_velocity,
                        w: b.desc.angular_velocity,
                        dp: Vector::zeros(),
                        dq: Dim::<D>::rotation_identity(),
                    });
                    bodies.push(SolverBody {
                        center: b.center_of_mass(),
                        q0: q,
                        q,
                        inv_mass: b.inv_mass,
                        inv_inertia: Dim::<D>::world_inverse_inertia(&b.inv_inertia_local, &q),
                        gravity_scale: b.desc.gravity_scale,
                        linear_damping: b.desc.linear_damping,
                        angular_damping: b.desc.angular_damping,
                        moves: b.desc.kind != BodyKind::Static,
                        dynamic,
                    });
                }
                None => {
                    states.push(BodyState {
                        v: Vector::zeros(),
                        w: Dim::<D>::angular_zero(),
                        dp: Vector::zeros(),
                        dq: Dim::<D>::rotation_identity(),
                    });
                    bodies.push(SolverBody {
                        center: kollide_math::Point::origin(),
                        q0: Dim::<D>::rotation_identity(),
                        q: Dim::<D>::rotation_identity(),
                        inv_mass: N::zero(),
                        inv_inertia: Dim::<D>::inertia_zero(),
                        gravity_scale: N::zero(),
                        linear_damping: N::zero(),
                        angular_damping: N::zero(),
                        moves: false,
                        dynamic: false,
                    });
                }
            }
        }

        let substep_rate = N::one() / h;
        let hertz = settings.contact_hertz.min_of(substep_rate * N::lit(0.25));
        let soft = Softness::new(hertz, settings.contact_damping_ratio, h);
        let static_soft = Softness::new(hertz * N::lit(2.0), settings.contact_damping_ratio, h);

        // 3. Narrowphase, matched to last step's pairs, and each touching pair's wave. Both pair
        // lists are sorted by slot indices, so one forward walk through the old list finds each
        // pair's predecessor. The two pair buffers are swapped from step to step instead of
        // allocated.
        //
        // The solver visits constraints in "waves" instead of pair order, and the constraints of
        // one wave share no dynamic body, so they commute (each reads and writes only its two
        // bodies' velocities and its own points; static and kinematic bodies are never
        // written): the SIMD solvers take four of a wave at a time, and consecutive
        // constraints are independent, so the processor overlaps them.
        //
        // 2D: a constraint's wave is one more than the last wave that touched either of its
        // dynamic bodies, so constraints that share a body keep their pair order and every pass
        // gives bit-identical results to solving in pair order. That order is spatially
        // coherent, and the 100-row pyramid sways least with it.
        //
        // 3D: greedy colouring (as Box2D v3 colours its constraint graph): a constraint takes
        // the lowest colour free at both of its dynamic bodies. A few colours of many
        // constraints each fill the four SIMD lanes better than pair-order waves (a base-10 cube
        // pyramid: 16 colours and 633 bundles instead of 149 waves and 734 bundles for 2,470
        // constraints), which makes the 3D step about 6% faster; the cube pyramid stands as
        // well (apex drift 2.2 mm against 2.9 mm). Bodies with 64 contacts or more fall back to
        // waves after the colours.
        let old = std::mem::take(&mut self.pairs);
        let old_caches = std::mem::take(&mut self.caches);
        let mut pairs = std::mem::take(&mut self.spare_pairs);
        let mut caches = std::mem::take(&mut self.spare_caches);
        pairs.clear();
        pairs.reserve(found.len());
        caches.clear();
        caches.reserve(found.len());
        let reuse = settings.manifold_reuse_distance;
        let mut wave_of_body = std::mem::take(&mut self.scratch_wave_of_body);
        let mut waves = std::mem::take(&mut self.scratch_waves);
        let mut order = std::mem::take(&mut self.scratch_order);
        let mut unsorted = std::mem::take(&mut self.scratch_unsorted_inputs);
        wave_of_body.clear();
        wave_of_body.resize(bodies.len(), 0);
        let mut colours = std::mem::take(&mut self.scratch_colours);
        colours.clear();
        colours.resize(bodies.len(), 0);
        waves.clear();
        unsorted.clear();
        let mut report = StepReport::default();
        let mut cursor = 0;
        for &(i, j) in &found {
            let (Some(ba), Some(bb)) = (&self.slots[i as usize].body, &self.slots[j as usize].body)
            else {
                continue;
            };
            // The speculative margin grows with the pair's closing speed over the step.
            let closing = (ba.desc.linear_velocity - bb.desc.linear_velocity).norm() * dt;
            let pair_margin = margin + closing;
            let (ha, hb) = (self.handle(i), self.handle(j));
            while cursor < old.len() && (old[cursor].a.index, old[cursor].b.index) < (i, j) {
                cursor += 1;
            }
            let prev = old.get(cursor).filter(|p| p.a == ha && p.b == hb);
            let (pose_a, pose_b) = (&ba.desc.pose, &bb.desc.pose);
            let relative = pose_a.inv_compose(pose_b);
            let tolerance = reuse
                .min_of(N::lit(REUSE_FRACTION) * ba.bounding_radius.min_of(bb.bounding_radius));
            let cached = prev
                .and(old_caches.get(cursor))
                .filter(|c| c.fits(&relative, pair_margin, tolerance, bb.bounding_radius));
            // The manifold is written straight into its place in the list (a manifold is a few
            // hundred bytes; building it aside and pushing it copies it twice).
            pairs.push(ContactPair { a: ha, b: hb, manifold: Manifold::new() });
            let pair = pairs.len() - 1;
            let m = &mut pairs[pair].manifold;
            if let (Some(cache), Some(prev)) = (cached, prev) {
                // The bodies barely moved relative to each other since the manifold was
                // computed: last step's contacts (ids and impulses), carried with the bodies.
                *m = prev.manifold;
                cache.apply(pose_a, pose_b, m);
                caches.push(*cache);
                report.reused_manifolds += 1;
            } else {
                *m =
                    Dim::<D>::manifold(pose_a, &ba.desc.shape, pose_b, &bb.desc.shape, pair_margin);
                if let Some(prev) = prev {
                    // Feature ids can change while the contacts stay where they were (two
                    // nearly tied faces swapping the reference role as the bodies turn by a
                    // hair); such a contact takes the impulse of the previous contact nearest to
                    // it, so a loaded stack does not lose its warm start and creep.
                    let near = N::lit(WARM_START_MATCH_FRACTION)
                        * ba.bounding_radius.min_of(bb.bounding_radius);
                    m.match_previous_or_nearest(&prev.manifold, near);
                }
                caches.push(if reuse > N::zero() && !m.is_empty() {
                    PairCache::of(m, pose_a, pose_b, relative, pair_margin)
                } else {
                    PairCache::none(relative)
                });
            }
            let m = &pairs[pair].manifold;
            if !m.is_empty() {
                let (a, b) = (i as usize, j as usize);
                let (da, db) = (bodies[a].dynamic, bodies[b].dynamic);
                let taken = (if da { colours[a] } else { 0 }) | (if db { colours[b] } else { 0 });
                let wave = if D == 3 && taken != u64::MAX {
                    let colour = (!taken).trailing_zeros();
                    for (d, k) in [(da, a), (db, b)] {
                        if d {
                            colours[k] |= 1 << colour;
                        }
                    }
                    colour
                } else {
                    // 2D, or every colour is taken at one of the bodies (64 contacts or more):
                    // one more than the last wave of either body (after the colours in 3D).
                    let wave_a = if da { wave_of_body[a] } else { 0 };
                    let wave_b = if db { wave_of_body[b] } else { 0 };
                    let wave = wave_a.max(wave_b);
                    if da {
                        wave_of_body[a] = wave + 1;
                    }
                    if db {
                        wave_of_body[b] = wave + 1;
                    }
                    if D == 3 { u64::BITS + wave } else { wave }
                };
                waves.push(wave);
                report.touching_pairs += 1;
                report.contacts += m.len();
                unsorted.push(cs::PrepareInput {
                    pair: pair as u32,
                    a: i,
                    b: j,
                    friction: (ba.desc.friction * bb.desc.friction).sqrt(),
                    restitution: ba.desc.restitution.max_of(bb.desc.restitution),
                    softness: if da && db { soft } else { static_soft },
                    warm_start: settings.warm_starting,
                });
            }
        }
        report.pairs = pairs.len();
        self.scratch_pairs = found;
        self.scratch_moved = moved;
        self.spare_pairs = old;
        self.spare_caches = old_caches;
        self.caches = caches;

        // Counting sort of the touching pairs by wave, stable (pair order within a wave).
        let wave_count = waves.iter().map(|&w| w as usize + 1).max().unwrap_or(0);
        order.clear();
        order.resize(wave_count + 1, 0);
        for &w in &waves {
            order[w as usize + 1] += 1;
        }
        for w in 1..order.len() {
            order[w] += order[w - 1];
        }
        let mut inputs = std::mem::take(&mut self.scratch_inputs);
        inputs.clear();
        inputs.extend_from_slice(&unsorted);
        let mut constraint_waves = std::mem::take(&mut self.constraint_waves);
        constraint_waves.clear();
        constraint_waves.resize(waves.len(), 0);
        for (&w, input) in waves.iter().zip(&unsorted) {
            let slot = &mut order[w as usize];
            inputs[*slot as usize] = *input;
            constraint_waves[*slot as usize] = w;
            *slot += 1;
        }
        self.scratch_wave_of_body = wave_of_body;
        self.scratch_colours = colours;
        self.scratch_waves = waves;
        self.scratch_unsorted_inputs = unsorted;

        // 4. Substeps: the contact solver on the waves, `f32` worlds four constraints at a
        // time (see `solve.rs`).
        let input = crate::solve::SolveInput {
            inputs: &inputs,
            waves: &constraint_waves,
            pairs: &mut pairs,
            bodies: &mut bodies,
            states: &mut states,
            gravity: &self.gravity,
            h,
            substeps,
            warm_starting: settings.warm_starting,
            restitution_threshold: settings.restitution_threshold,
            max_push_velocity: settings.max_push_velocity,
            linear_slop: settings.linear_slop,
        };
        report.simd_bundles = if self.simd {
            crate::solve::run(&mut self.solver_scratch, input)
        } else {
            crate::solve::run(&mut self.solver_scratch_one_lane, input)
        };
        self.scratch_order = order;
        self.scratch_inputs = inputs;
        self.constraint_waves = constraint_waves;

        // 5. Write back.
        for ((slot, sb), st) in self.slots.iter_mut().zip(&bodies).zip(&states) {
            let Some(b) = slot.body.as_mut() else { continue };
            if !sb.moves {
                continue;
            }
            let center = sb.center + st.dp;
            let origin = center.coords - Dim::<D>::rotate(&sb.q, &b.local_center.coords);
            b.desc.pose = Dim::<D>::pose_from(origin, sb.q);
            // Contacts may have pushed a body past the speed limits since the last substep's
            // integration kept it within them; what the world reports (and what a user may hand
            // back to `set_velocity`) stays inside the envelope.
            let (mut v, mut w) = (st.v, st.w);
            cs::SpeedLimits::envelope().clamp::<D>(&mut v, &mut w);
            b.desc.linear_velocity = v;
            b.desc.angular_velocity = w;
        }
        self.solver_bodies = bodies;
        self.solver_states = states;
        self.pairs = pairs;
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso3, Vec3};
    use kollide_shapes::{Cuboid, Shape3, SupportMap};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// A manifold reused after a small relative motion against the one computed afresh: on
    /// random touching cuboid pairs moved by random amounts that `fits` accepts, the deepest
    /// separations agree within the tolerance (every point of B moved less than that) and the
    /// normals within the turn.
    #[test]
    fn reused_manifolds_agree_with_fresh_ones_within_the_tolerance() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut reused = 0;
        for _ in 0..8000 {
            let mut r = |lo: f64, hi: f64| rng.random_range(lo..hi);
            let size = |r: &mut dyn FnMut(f64, f64) -> f64| {
                Vec3::new(r(0.1, 1.0), r(0.1, 1.0), r(0.1, 1.0))
            };
            let a = Shape3::Cuboid(Cuboid::new(size(&mut r)).unwrap());
            let b = Shape3::Cuboid(Cuboid::new(size(&mut r)).unwrap());
            let pose_a = Iso3::new(
                Vec3::new(r(-5.0, 5.0), r(-5.0, 5.0), r(-5.0, 5.0)),
                Vec3::new(r(-2.0, 2.0), r(-2.0, 2.0), r(-2.0, 2.0)),
            );
            let rot_b = Vec3::new(r(-2.0, 2.0), r(-2.0, 2.0), r(-2.0, 2.0));
            // B placed so that the pair overlaps a little or nearly touches.
            let dir = Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize();
            let reach = a.bounding_radius() + b.bounding_radius();
            let mut pose_b =
                Iso3::new(pose_a.translation.vector + dir * reach * r(0.3, 0.8), rot_b);
            let margin = 0.04;
            let m0 = Dim::<3>::manifold(&pose_a, &a, &pose_b, &b, margin);
            if m0.is_empty() {
                continue;
            }
            let relative = pose_a.inv_compose(&pose_b);
            let cache = PairCache::<f64, 3>::of(&m0, &pose_a, &pose_b, relative, margin);
            // A small random motion of B.
            let step = r(0.0, 2e-3);
            let turn = r(0.0, 2e-3);
            pose_b = Iso3::new(
                pose_b.translation.vector
                    + Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize() * step,
                Vec3::zeros(),
            ) * Iso3::rotation(
                Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)).normalize() * turn,
            ) * Iso3::rotation(rot_b);
            let tolerance = 1e-3;
            let relative = pose_a.inv_compose(&pose_b);
            if !cache.fits(&relative, margin, tolerance, b.bounding_radius()) {
                continue;
            }
            reused += 1;
            let mut kept = m0;
            cache.apply(&pose_a, &pose_b, &mut kept);
            let fresh = Dim::<3>::manifold(&pose_a, &a, &pose_b, &b, margin);
            let deepest =
                |m: &Manifold<f64, 3, ContactImpulse<f64>>| m.min_separation().unwrap_or(margin);
            assert!(
                (deepest(&kept) - deepest(&fresh)).abs() <= tolerance + 1e-9 || fresh.is_empty(),
                "deepest separation {} reused against {} fresh",
                deepest(&kept),
                deepest(&fresh)
            );
            if !fresh.is_empty() {
                let angle = kept.normal.dot(&fresh.normal).clamp(-1.0, 1.0).acos();
                assert!(angle < 1e-2, "normals {} apart", angle);
            }
        }
        assert!(reused > 500, "only {reused} pairs reused");
    }
}
