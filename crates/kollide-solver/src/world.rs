//! [`World`]: bodies, a broadphase with persistent pairs, and the step.
//!
//! Bodies live in slots addressed by [`BodyHandle`]s (index + generation). Each step:
//!
//! 1. **Broadphase.** AABBs grown by the speculative margin go through sweep and prune; the
//!    overlapping pairs come out sorted.
//! 2. **Narrowphase.** Each pair gets a fresh manifold from the dimension's dispatcher, matched
//!    by feature id to the pair's manifold from last step so accumulated impulses carry over
//!    (warm starting). Pairs are persistent: they live as long as their AABBs overlap.
//! 3. **Solve.** The soft-step contact solver (see `contact_solver.rs`) with substeps.
//! 4. **Write back** poses and velocities.
//!
//! The same scene stepped twice gives bit-identical states: pairs are visited in sorted order and
//! nothing depends on hashing or addresses.

use kollide_manifold::{MAX_CONTACTS, Manifold};
use kollide_math::{Scalar, Vector};
use kollide_shapes::{Aabb, BoundingVolume};

use crate::broadphase::SweepAndPrune;
use crate::contact_solver::{self as cs, Softness, SolverBody};
use crate::{Body, BodyDesc, BodyHandle, BodyKind, Dim, SolverDim, StepSettings, WorldError};

/// Accumulated impulses of one contact, carried across steps for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactImpulse<N> {
    /// Normal impulse (N·s per substep).
    pub normal: N,
    /// Friction impulses along the contact's tangents (the second is unused in 2D).
    pub tangent: [N; 2],
}

/// A persistent pair of bodies whose AABBs overlap, with its current manifold (world frame).
#[derive(Clone, Debug)]
pub struct ContactPair<N: Scalar, const D: usize> {
    /// The body with the lower slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// The manifold from A to B, with the impulses of the last step in each contact's `user`.
    pub manifold: Manifold<N, D, ContactImpulse<N>>,
}

/// What a step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Pairs found by the broadphase.
    pub pairs: usize,
    /// Manifolds with at least one contact.
    pub touching_pairs: usize,
    /// Contact points solved.
    pub contacts: usize,
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
#[derive(Clone, Debug)]
pub struct World<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Gravity (m/s²).
    pub gravity: Vector<N, D>,
    /// Settings of [`World::step`].
    pub settings: StepSettings<N>,
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
}

/// How much the broadphase grows each AABB (m). While a body's swept AABB stays inside its fat
/// one, its broadphase pairs cannot change, so a resting pile costs no broadphase work at all
/// (Box2D's AABB margin is the same 10 cm).
pub const FAT_MARGIN: f64 = 0.1;

/// A 2D world.
pub type World2<N> = World<N, 2>;
/// A 3D world.
pub type World3<N> = World<N, 3>;

impl<N: Scalar, const D: usize> World<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// An empty world with this gravity and default settings.
    pub fn new(gravity: Vector<N, D>) -> Self {
        Self {
            gravity,
            settings: StepSettings::default(),
            slots: Vec::new(),
            free: Vec::new(),
            broadphase: SweepAndPrune::new(),
            pairs: Vec::new(),
            scratch_pairs: Vec::new(),
            fat: Vec::new(),
            bodies_changed: true,
        }
    }

    /// Adds a body. A description with NaN or infinite numbers, a non-positive density, negative
    /// friction or restitution, or a massless shape on a dynamic body is rejected with a
    /// [`WorldError`], and the world is left unchanged.
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

    /// Sets a body's velocities. Non-finite values are rejected and change nothing.
    pub fn set_velocity(
        &mut self,
        h: BodyHandle,
        linear: Vector<N, D>,
        angular: <Dim<D> as SolverDim<N, D>>::Angular,
    ) -> Result<(), WorldError> {
        self.check(h)?;
        if !linear.iter().all(|x| x.is_finite_value()) || !Dim::<D>::angular_is_finite(&angular) {
            return Err(WorldError::NonFinite("velocity"));
        }
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

    /// Advances the world by `dt` seconds. A non-positive or non-finite `dt` is rejected and
    /// changes nothing.
    pub fn step(&mut self, dt: N) -> Result<StepReport, WorldError> {
        if !(dt.is_finite_value() && dt > N::zero()) {
            return Err(WorldError::BadTimeStep(dt.to_f64()));
        }
        let settings = self.settings;
        let margin = settings.speculative_margin;
        let substeps = settings.substeps.max(1);
        let h = dt / N::lit(f64::from(substeps));

        // 1. Broadphase.
        // AABBs grown by the margin and swept by this step's motion, so a fast body meets what
        // is in its way this step (speculative contacts instead of tunnelling). The broadphase
        // works on fat AABBs and reruns only when one of these leaves its fat box.
        let fat_margin = N::lit(FAT_MARGIN);
        self.fat.resize(self.slots.len(), None);
        let mut moved_out = self.bodies_changed;
        for (slot, fat) in self.slots.iter().zip(self.fat.iter_mut()) {
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
                moved_out = true;
            }
        }
        let mut found = std::mem::take(&mut self.scratch_pairs);
        if moved_out {
            let movable: Vec<bool> = self
                .slots
                .iter()
                .map(|s| s.body.as_ref().is_some_and(|b| b.desc.kind == BodyKind::Dynamic))
                .collect();
            self.broadphase.find_pairs(&self.fat, &movable, &mut found);
            self.bodies_changed = false;
        }

        // 2. Narrowphase, matched to last step's pairs.
        let old = std::mem::take(&mut self.pairs);
        let mut pairs = Vec::with_capacity(found.len());
        for &(i, j) in &found {
            let (Some(ba), Some(bb)) = (&self.slots[i as usize].body, &self.slots[j as usize].body)
            else {
                continue;
            };
            // The speculative margin grows with the pair's closing speed over the step.
            let closing = (ba.desc.linear_velocity - bb.desc.linear_velocity).norm() * dt;
            let mut m = Dim::<D>::manifold(
                &ba.desc.pose,
                &ba.desc.shape,
                &bb.desc.pose,
                &bb.desc.shape,
                margin + closing,
            );
            let (ha, hb) = (self.handle(i), self.handle(j));
            if let Ok(k) = old.binary_search_by(|p| (p.a.index, p.b.index).cmp(&(i, j)))
                && old[k].a == ha
                && old[k].b == hb
            {
                m.match_previous(&old[k].manifold);
            }
            pairs.push(ContactPair { a: ha, b: hb, manifold: m });
        }
        self.scratch_pairs = found;

        // 3. Solver bodies (one per slot, so constraint indices are slot indices).
        let mut bodies: Vec<SolverBody<N, D>> = self
            .slots
            .iter()
            .map(|s| match &s.body {
                Some(b) => {
                    let q = Dim::<D>::rotation(&b.desc.pose);
                    let dynamic = b.desc.kind == BodyKind::Dynamic;
                    SolverBody {
                        v: b.desc.linear_velocity,
                        w: b.desc.angular_velocity,
                        center: b.center_of_mass(),
                        dp: Vector::zeros(),
                        q0: q,
                        q,
                        dq: Dim::<D>::rotation_identity(),
                        inv_mass: b.inv_mass,
                        inv_inertia: Dim::<D>::world_inverse_inertia(&b.inv_inertia_local, &q),
                        gravity_scale: b.desc.gravity_scale,
                        linear_damping: b.desc.linear_damping,
                        angular_damping: b.desc.angular_damping,
                        moves: b.desc.kind != BodyKind::Static,
                        dynamic,
                    }
                }
                None => SolverBody {
                    v: Vector::zeros(),
                    w: Dim::<D>::angular_zero(),
                    center: kollide_math::Point::origin(),
                    dp: Vector::zeros(),
                    q0: Dim::<D>::rotation_identity(),
                    q: Dim::<D>::rotation_identity(),
                    dq: Dim::<D>::rotation_identity(),
                    inv_mass: N::zero(),
                    inv_inertia: Dim::<D>::inertia_zero(),
                    gravity_scale: N::zero(),
                    linear_damping: N::zero(),
                    angular_damping: N::zero(),
                    moves: false,
                    dynamic: false,
                },
            })
            .collect();

        let substep_rate = N::one() / h;
        let hertz = settings.contact_hertz.min_of(substep_rate * N::lit(0.25));
        let soft = Softness::new(hertz, settings.contact_damping_ratio, h);
        let static_soft = Softness::new(hertz * N::lit(2.0), settings.contact_damping_ratio, h);
        let mut constraints = Vec::with_capacity(pairs.len());
        let mut report = StepReport { pairs: pairs.len(), ..StepReport::default() };
        for (k, p) in pairs.iter().enumerate() {
            if p.manifold.is_empty() {
                continue;
            }
            let (a, b) = (p.a.index as usize, p.b.index as usize);
            let (Some(ba), Some(bb)) = (&self.slots[a].body, &self.slots[b].body) else {
                continue;
            };
            report.touching_pairs += 1;
            report.contacts += p.manifold.len();
            let friction = (ba.desc.friction * bb.desc.friction).sqrt();
            let restitution = ba.desc.restitution.max_of(bb.desc.restitution);
            let softness = if bodies[a].dynamic && bodies[b].dynamic { soft } else { static_soft };
            constraints.push(cs::prepare(
                &bodies,
                a,
                b,
                k,
                &p.manifold,
                friction,
                restitution,
                softness,
                settings.warm_starting,
            ));
        }

        // 4. Substeps.
        let inv_h = N::one() / h;
        for sub in 0..substeps as usize {
            cs::integrate_velocities(&mut bodies, &self.gravity, h);
            if settings.warm_starting {
                cs::warm_start(&mut bodies, &constraints);
            }
            cs::solve(
                &mut bodies,
                &mut constraints,
                inv_h,
                settings.max_push_velocity,
                settings.linear_slop,
                true,
                2 * sub,
            );
            cs::integrate_positions(&mut bodies, h);
            cs::solve(
                &mut bodies,
                &mut constraints,
                inv_h,
                settings.max_push_velocity,
                settings.linear_slop,
                false,
                2 * sub + 1,
            );
        }
        cs::restitution(&mut bodies, &mut constraints, settings.restitution_threshold);

        // 5. Store impulses and write back.
        for c in &constraints {
            let m = &mut pairs[c.pair].manifold;
            for (k, contact) in m.contacts_mut().iter_mut().enumerate().take(MAX_CONTACTS) {
                contact.user = ContactImpulse {
                    normal: c.points[k].normal_impulse,
                    tangent: c.points[k].tangent_impulse,
                };
            }
        }
        for (slot, sb) in self.slots.iter_mut().zip(&bodies) {
            let Some(b) = slot.body.as_mut() else { continue };
            if !sb.moves {
                continue;
            }
            let center = sb.center + sb.dp;
            let origin = center.coords - Dim::<D>::rotate(&sb.q, &b.local_center.coords);
            b.desc.pose = Dim::<D>::pose_from(origin, sb.q);
            b.desc.linear_velocity = sb.v;
            b.desc.angular_velocity = sb.w;
        }
        self.pairs = pairs;
        Ok(report)
    }
}
