//! [`World`]: bodies, a broadphase with persistent pairs, and the step.
//!
//! Bodies live in slots addressed by [`BodyHandle`]s (index + generation). The step runs in
//! stages, each in its own file under `step/` (see its module docs): broadphase update, solver
//! bodies, contact update, colouring, solve, write back.
//!
//! The same scene stepped twice gives bit-identical states, whatever the number of threads.

use kollide_math::{Pose, Scalar, Vector};

use crate::body::check_velocities;
use crate::contact_solver::{Softness, SpeedLimits};
use crate::events::HitThresholds;
use crate::island::Islands;
use crate::joint::edit::JointSet;
use crate::joint::solver::JointSolver;
use crate::step::{
    Acceleration, BroadphaseStage, Colouring, ContactSettings, ContactStage, ContinuousInput,
    ContinuousStage, SolveInput, SolveStage, SolverBodies, write_back,
};
use crate::{
    Body, BodyDesc, BodyHandle, BodyKind, ContactHook, ContactPair, Dim, Events, SensorEvent,
    SolverDim, StepSettings, WorldError, WorldLimits,
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
    /// Threads the contact update ran on: at most [`World::threads`], and 1 when there were too
    /// few pairs to share.
    pub contact_threads: usize,
    /// Bundles of several contact constraints that the solver built and solved side by side
    /// in SIMD lanes (each bundle is solved in every pass of the step): non-zero in `f32`
    /// worlds with contacts, zero in `f64` worlds, whose solver runs one constraint at a time.
    pub simd_bundles: usize,
    /// Threads the solver's passes ran on: at most [`World::threads`], and 1 when no wave of
    /// constraints was large enough to share between threads.
    pub solve_threads: usize,
    /// Fast bodies swept by the continuous stage (bullets, and dynamic bodies that moved more
    /// than a fraction of their size; see [`StepSettings::continuous`]).
    pub continuous_sweeps: usize,
    /// Fast bodies the continuous stage moved back to a time of impact.
    pub toi_hits: usize,
    /// Dynamic bodies the solver moved: the awake ones (see [`StepSettings::sleeping`]).
    pub awake_bodies: usize,
    /// Bodies asleep after the step.
    pub sleeping_bodies: usize,
    /// Pairs whose manifolds the contact update kept untouched because neither body moves:
    /// a sleeping body and another sleeping, static or resting kinematic body.
    pub asleep_pairs: usize,
    /// Bodies that fell asleep at the end of the step.
    pub fell_asleep: usize,
}

/// A body's place in the world: a handle is valid while its generation matches.
#[derive(Clone, Debug)]
pub(crate) struct Slot<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) generation: u32,
    pub(crate) body: Option<Body<N, D>>,
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
    pub(crate) slots: Vec<Slot<N, D>>,
    free: Vec<u32>,
    /// Threads a step may use (at least 1).
    threads: usize,
    /// The stages of the step (see `step/`), each with the state it keeps between steps and
    /// the buffers it reuses.
    /// (The broadphase's tree of the bodies' boxes also answers the queries, `query/`.)
    pub(crate) broadphase: BroadphaseStage<N, D>,
    solver_bodies: SolverBodies<N, D>,
    pub(crate) contacts: ContactStage<N, D>,
    pub(crate) colouring: Colouring<N, D>,
    pub(crate) solver: SolveStage<N, D>,
    continuous: ContinuousStage,
    /// The last step's events, and the end events of bodies removed since.
    events: Events<N, D>,
    /// The slots of the bodies with a force or torque for the next step, and of the kinematic
    /// bodies with a target (see `body_edit.rs`); their accelerations during a step.
    pub(crate) loaded: Vec<u32>,
    pub(crate) targeted: Vec<u32>,
    accelerations: Vec<Acceleration<N, D>>,
    /// The number of sensors among the bodies.
    pub(crate) sensors: usize,
    /// The number of bodies with a hit threshold of their own.
    pub(crate) hit_thresholds: usize,
    /// The joints (`joint/`), and the solver's copy of them during a step.
    pub(crate) joints: JointSet<N, D>,
    joint_solver: JointSolver<N, D>,
    /// The sleeping islands, and the buffers that find islands (`island.rs`).
    pub(crate) islands: Islands<N>,
    /// The numbers of dynamic and kinematic bodies: when every dynamic body sleeps and there is
    /// no kinematic body, nothing can move (see [`World::nothing_moves`]).
    dynamic_bodies: usize,
    kinematic_bodies: usize,
    /// A static or kinematic body was changed (moved, regrouped) since the last full step.
    pub(crate) disturbed: bool,
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
            threads: 1,
            broadphase: BroadphaseStage::new(),
            solver_bodies: SolverBodies::new(),
            contacts: ContactStage::new(),
            colouring: Colouring::new(),
            solver: SolveStage::new(),
            continuous: ContinuousStage::new(),
            events: Events::default(),
            loaded: Vec::new(),
            targeted: Vec::new(),
            accelerations: Vec::new(),
            sensors: 0,
            hit_thresholds: 0,
            joints: JointSet::default(),
            joint_solver: JointSolver::default(),
            islands: Islands::new(),
            dynamic_bodies: 0,
            kinematic_bodies: 0,
            disturbed: false,
        })
    }

    /// Gravity (m/s²).
    pub fn gravity(&self) -> &Vector<N, D> {
        &self.gravity
    }

    /// Sets gravity (m/s²) and wakes every body. Gravity that is not finite or longer than
    /// [`WorldLimits::max_gravity`] is refused and changes nothing.
    pub fn set_gravity(&mut self, gravity: Vector<N, D>) -> Result<(), WorldError> {
        check_gravity(&gravity)?;
        self.gravity = gravity;
        self.wake_all();
        Ok(())
    }

    /// The settings of [`World::step`].
    pub fn settings(&self) -> &StepSettings<N> {
        &self.settings
    }

    /// Sets the settings of [`World::step`]; settings that differ from the current ones wake
    /// every body. Settings that [`StepSettings::validate`] refuses are refused and change
    /// nothing.
    pub fn set_settings(&mut self, settings: StepSettings<N>) -> Result<(), WorldError> {
        settings.validate()?;
        if settings != self.settings {
            self.wake_all();
        }
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
        let index = self.free.last().copied().unwrap_or(self.slots.len() as u32);
        // A body inside the envelope has a finite box, which the tree accepts.
        let margin = self.settings.speculative_margin;
        let leaf = self.broadphase.insert(index, &body, margin);
        leaf.map_err(|_| WorldError::NonFinite("bounding box"))?;
        if self.free.pop().is_none() {
            self.slots.push(Slot { generation: 0, body: None });
        }
        self.sensors += usize::from(body.desc.sensor);
        self.dynamic_bodies += usize::from(body.desc.kind == BodyKind::Dynamic);
        self.kinematic_bodies += usize::from(body.desc.kind == BodyKind::Kinematic);
        let slot = &mut self.slots[index as usize];
        slot.body = Some(body);
        self.colouring.forget();
        Ok(BodyHandle { index, generation: slot.generation })
    }

    /// Removes a body, its contacts and its joints, and wakes the bodies it touched or was
    /// joined to. A stale handle is an error and changes nothing.
    ///
    /// The contacts the body touched (when contact events are on) and its sensor overlaps end:
    /// their end events are reported with the next step's events ([`World::events`]).
    pub fn remove(&mut self, h: BodyHandle) -> Result<Body<N, D>, WorldError> {
        self.check(h)?;
        self.disturb_around(h.index);
        let slot = &mut self.slots[h.index as usize];
        let body = slot.body.take().ok_or(WorldError::StaleHandle)?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(h.index);
        self.colouring.forget();
        self.broadphase.remove(h.index);
        self.contacts.remove_body(h.index, &mut self.events);
        self.sensors -= usize::from(body.desc.sensor);
        self.dynamic_bodies -= usize::from(body.desc.kind == BodyKind::Dynamic);
        self.kinematic_bodies -= usize::from(body.desc.kind == BodyKind::Kinematic);
        self.hit_thresholds -= usize::from(body.hit_threshold.is_some());
        self.remove_joints_of(h);
        Ok(body)
    }

    pub(crate) fn check(&self, h: BodyHandle) -> Result<(), WorldError> {
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

    /// Sets a body's velocities (of its centre of mass) and wakes it (see [`World::wake`]).
    /// Values that are not finite or faster than [`WorldLimits::max_linear_speed`] or
    /// [`WorldLimits::max_angular_speed`] are rejected and change nothing.
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
        self.disturb(h.index);
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

    /// The persistent pairs with their manifolds (after the last step). Sensors have none.
    pub fn contact_pairs(&self) -> &[ContactPair<N, D>] {
        self.contacts.pairs()
    }

    /// The events of the last step: contacts and sensor overlaps that began and ended, hits
    /// (see [`Events`] for the rules).
    pub fn events(&self) -> &Events<N, D> {
        &self.events
    }

    /// The sensors and the bodies that overlapped them after the last step, sorted by pair.
    pub fn sensor_overlaps(&self) -> &[SensorEvent] {
        self.contacts.overlaps()
    }

    /// The number of threads a step may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Lets steps use up to `threads` threads (in `[1, WorldLimits::max_threads]`; 1, the
    /// default, runs everything on the caller's thread). Results are bit-identical for any
    /// thread count. A count out of range is refused and changes nothing.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), WorldError> {
        let max = WorldLimits::<N>::new().max_threads;
        if !(1..=max).contains(&threads) {
            return Err(WorldError::OutOfRange {
                what: "threads",
                value: threads as f64,
                min: 1.0,
                max: max as f64,
            });
        }
        self.threads = threads;
        Ok(())
    }

    /// Solves contacts on the scalar type's SIMD lanes (`true`, the default: four constraints at
    /// a time in `f32`) or one constraint at a time (`false`). Not part of the API: the solver's
    /// tests turn the lanes off to check that both paths give the same numbers.
    #[doc(hidden)]
    pub fn set_simd_lanes(&mut self, on: bool) {
        self.solver.simd = on;
    }

    /// Advances the world by `dt` seconds. A `dt` that is not finite or not in
    /// [[`WorldLimits::min_time_step`], [`WorldLimits::max_time_step`]] is rejected with
    /// [`WorldError::BadTimeStep`] and changes nothing.
    pub fn step(&mut self, dt: N) -> Result<StepReport, WorldError> {
        self.step_inner(dt, None)
    }

    /// [`World::step`] with a [`ContactHook`] that sees each contact before the solver and may
    /// disable it or change its friction, restitution and tangent velocity.
    ///
    /// ```
    /// use kollide_math::{Iso2, Vec2};
    /// use kollide_shapes::Cuboid;
    /// use kollide_solver::{BodyDesc, PreSolve, World2};
    /// let mut world = World2::<f64>::new(Vec2::new(0.0, -9.81)).unwrap();
    /// world.add(BodyDesc::fixed(Cuboid::new(Vec2::new(10.0, 0.5)).unwrap())
    ///     .pose(Iso2::translation(0.0, -0.5))).unwrap();
    /// let b = world.add(BodyDesc::dynamic(Cuboid::new(Vec2::new(0.5, 0.5)).unwrap())
    ///     .pose(Iso2::translation(0.0, 1.0))).unwrap();
    /// // A ground that lets everything through.
    /// let mut ghost = |c: &mut PreSolve<'_, f64, 2>| c.disable();
    /// for _ in 0..60 {
    ///     world.step_with_hook(1.0 / 60.0, &mut ghost).unwrap();
    /// }
    /// assert!(world.body(b).unwrap().pose().translation.y < -3.0);
    /// ```
    pub fn step_with_hook(
        &mut self,
        dt: N,
        hook: &mut impl ContactHook<N, D>,
    ) -> Result<StepReport, WorldError> {
        self.step_inner(dt, Some(hook))
    }

    fn step_inner(
        &mut self,
        dt: N,
        hook: Option<&mut dyn ContactHook<N, D>>,
    ) -> Result<StepReport, WorldError> {
        let limits = WorldLimits::<N>::new();
        if !(dt.is_finite_value() && dt >= limits.min_time_step && dt <= limits.max_time_step) {
            return Err(WorldError::BadTimeStep(dt.to_f64()));
        }
        let settings = self.settings;
        let h = dt / N::lit(f64::from(settings.substeps));
        self.events.begin_step();
        if self.nothing_moves() {
            self.report_sleep_changes();
            return Ok(self.asleep_report());
        }
        if !self.targeted.is_empty() {
            self.head_for_targets(dt);
        }
        if !self.loaded.is_empty() {
            self.take_loads();
        }
        self.disturbed = false;
        let Self {
            slots,
            broadphase,
            solver_bodies,
            contacts,
            colouring,
            solver,
            events,
            accelerations,
            joints,
            joint_solver,
            islands,
            ..
        } = self;
        broadphase.update(slots, settings.speculative_margin, dt);
        let (broadphase, found) = (&*broadphase, broadphase.pairs());
        contacts.any_sensors = self.sensors > 0;
        let awake_bodies = solver_bodies.load(slots);
        let no_collide = joints.no_collide();
        let update =
            contacts.update(slots, broadphase, found, no_collide, &settings, dt, self.threads);
        let awake_bodies = if update.wakes > 0 {
            // Bodies that woke take part in this step: their solver bodies are loaded again.
            islands.wake_touched(slots, contacts.pairs());
            solver_bodies.load(slots)
        } else {
            awake_bodies
        };
        if settings.contact_events {
            contacts.contact_events(events);
        } else {
            contacts.end_contact_events(events);
        }
        contacts.update_sensors(slots, events);
        events.sort_ends();
        let mut report = StepReport {
            pairs: contacts.pairs().len(),
            reused_manifolds: update.reused,
            asleep_pairs: update.asleep,
            contact_threads: update.threads,
            awake_bodies,
            ..StepReport::default()
        };
        let contact = contact_settings(&settings, h);
        let pairs = contacts.pairs_mut();
        joint_solver.prepare(joints, &solver_bodies.bodies, h, settings.warm_starting);
        colouring.colour(slots, &solver_bodies.bodies, pairs, contact, &mut report, hook);
        (report.simd_bundles, report.solve_threads) = solver.run(
            SolveInput {
                inputs: &colouring.inputs,
                waves: &colouring.waves,
                pairs,
                surfaces: &colouring.surfaces,
                accelerations,
                hits_above: HitThresholds::new(
                    settings.hit_event_threshold,
                    slots,
                    self.hit_thresholds,
                ),
                hits: &mut events.hits,
                bodies: &mut solver_bodies.bodies,
                states: &mut solver_bodies.states,
                joints: &mut joint_solver.prepared,
                gravity: &self.gravity,
                h,
                substeps: settings.substeps,
                warm_starting: settings.warm_starting,
                restitution_threshold: settings.restitution_threshold,
                max_push_velocity: settings.max_push_velocity,
                linear_slop: settings.linear_slop,
            },
            self.threads,
        );
        joint_solver.store_impulses(joints);
        write_back(slots, solver_bodies);
        if settings.continuous {
            let input = ContinuousInput {
                start: solver_bodies,
                tree: self.broadphase.tree(),
                linear_slop: settings.linear_slop,
                no_collide: joints.no_collide(),
            };
            self.continuous.run(slots, &input, &mut report);
        }
        accelerations.clear();
        if !self.targeted.is_empty() {
            self.reach_targets();
        }
        self.broadphase.after_step(&self.slots, settings.speculative_margin, dt);
        report.fell_asleep = self.islands.fall_asleep(
            &mut self.slots,
            self.contacts.pairs(),
            &self.joints,
            &settings,
            dt,
        );
        report.sleeping_bodies = self.islands.sleeping();
        self.report_sleep_changes();
        Ok(report)
    }

    /// Moves the bodies that woke or fell asleep since the last step into its events.
    fn report_sleep_changes(&mut self) {
        let Islands { woke, fell_asleep, .. } = &mut self.islands;
        self.events.take_sleep_changes(&self.slots, woke, fell_asleep);
    }

    /// Whether this step can change nothing: every dynamic body sleeps, there is no kinematic
    /// body, no force or target waits, and no body was added, removed or disturbed since the
    /// last full step. Then every stage would leave the world as it is (the contact update
    /// would keep every manifold, the solver would move nothing), so the step is skipped, as
    /// Box2D's step touches only its awake set.
    fn nothing_moves(&self) -> bool {
        self.dynamic_bodies == self.islands.sleeping()
            && self.kinematic_bodies == 0
            && !self.disturbed
            && self.loaded.is_empty()
            && self.targeted.is_empty()
            && !self.broadphase.has_changes()
    }

    /// The report of a step that changed nothing: every pair kept as it was.
    fn asleep_report(&self) -> StepReport {
        let pairs = self.contacts.pairs().len();
        StepReport {
            pairs,
            asleep_pairs: pairs,
            contact_threads: 1,
            solve_threads: 1,
            sleeping_bodies: self.islands.sleeping(),
            ..StepReport::default()
        }
    }

    /// Gives each kinematic body with a target the velocity that takes it there in `dt`
    /// (within the speed limits).
    fn head_for_targets(&mut self, dt: N) {
        let inv_dt = N::one() / dt;
        for &slot in &self.targeted {
            let Some(b) = self.slots[slot as usize].body.as_mut() else { continue };
            let Some(target) = b.target else { continue };
            let pose = &b.desc.pose;
            let mut v = (target.translation() - pose.translation()) * inv_dt;
            let turn =
                Dim::<D>::rotation_delta(&Dim::<D>::rotation(&target), &Dim::<D>::rotation(pose));
            let mut w = Dim::<D>::rotation_vector(&turn) * inv_dt;
            SpeedLimits::envelope().clamp::<D>(&mut v, &mut w);
            b.desc.linear_velocity = v;
            b.desc.angular_velocity = w;
        }
    }

    /// Places each kinematic body with a target on it (the step's integration of its velocity
    /// lands there up to rounding) and forgets the targets.
    fn reach_targets(&mut self) {
        for &slot in &self.targeted {
            let Some(b) = self.slots[slot as usize].body.as_mut() else { continue };
            if let Some(target) = b.target.take() {
                b.desc.pose = target;
            }
        }
        self.targeted.clear();
    }

    /// Turns the forces and torques on bodies into accelerations for this step and clears them.
    fn take_loads(&mut self) {
        for &slot in &self.loaded {
            let Some(b) = self.slots[slot as usize].body.as_mut() else { continue };
            let Some(load) = b.load.take() else { continue };
            if b.desc.kind != BodyKind::Dynamic {
                continue;
            }
            let rot = Dim::<D>::rotation(&b.desc.pose);
            let inv_inertia = Dim::<D>::world_inverse_inertia(&b.inv_inertia_local, &rot);
            let dw = Dim::<D>::apply_inertia(&inv_inertia, &load.torque);
            self.accelerations.push((slot, load.force * b.inv_mass, dw));
        }
        self.loaded.clear();
    }
}

/// The softness of this step's contacts: the stiffness is capped at a quarter of the substep
/// rate, and contacts with a static or kinematic body are twice as stiff.
fn contact_settings<N: Scalar>(settings: &StepSettings<N>, h: N) -> ContactSettings<N> {
    let hertz = settings.contact_hertz.min_of(N::one() / h * N::lit(0.25));
    let zeta = settings.contact_damping_ratio;
    ContactSettings {
        soft: Softness::new(hertz, zeta, h),
        static_soft: Softness::new(hertz * N::lit(2.0), zeta, h),
        warm_start: settings.warm_starting,
        colour_2d: settings.colour_2d,
    }
}
