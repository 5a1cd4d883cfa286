//! The joints' part of the soft step: [`JointSolver::prepare`] once per step, then in each
//! substep [`warm_start`] and [`solve`] (with bias, then relaxed without), over the solver's
//! body slots; the rows every kind shares (the point lock, the angular lock, one-sided limits,
//! motors, springs) are here, each kind's own rows in its file.

use kollide_math::{Scalar, Vector};

use super::{Ang, Impulses, Joint, JointKind, Rot};
use crate::contact_solver::{BodyState, Softness, SolverBody};
use crate::lane_dim::DimLanes;
use crate::slots::Slots;
use crate::step::{slot_of, state_of};
use crate::{Dim, SolverDim};

type Inertia<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Inertia;

/// A joint as the solver runs it for one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Prepared<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The bodies' solver slots, and whether each takes impulses (dynamic).
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) dynamic_a: bool,
    pub(crate) dynamic_b: bool,
    pub(crate) m_a: N,
    pub(crate) m_b: N,
    pub(crate) i_a: Inertia<N, D>,
    pub(crate) i_b: Inertia<N, D>,
    /// The anchors in the bodies' frames (from their origins).
    anchor_a: Vector<N, D>,
    anchor_b: Vector<N, D>,
    /// The anchors from the centres of mass, world axes, at the start of the step.
    pub(crate) r_a: Vector<N, D>,
    pub(crate) r_b: Vector<N, D>,
    /// `c_B − c_A` at the start of the step.
    pub(crate) delta_center: Vector<N, D>,
    /// The bodies' rotations at the start of the step.
    pub(crate) q0_a: Rot<N, D>,
    pub(crate) q0_b: Rot<N, D>,
    /// The frames in the bodies (see `LocalFrames`).
    pub(crate) reference: Rot<N, D>,
    pub(crate) axis_a: Ang<N, D>,
    pub(crate) axis_b: Ang<N, D>,
    pub(crate) length: N,
    pub(crate) slide_a: Vector<N, D>,
    /// The softness of the rows that hold the joint together, and of its spring.
    pub(crate) soft: Softness<N>,
    pub(crate) spring: Softness<N>,
    pub(crate) kind: Kind<N>,
    pub(crate) impulses: Impulses<N, D>,
}

/// The parameters of each kind the solver reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind<N> {
    Revolute { limit: Option<[N; 2]>, motor: Option<crate::Motor<N>>, spring: bool },
    Distance { min: N, max: N, spring: bool, rigid: bool },
    Weld,
    Spherical { cone: Option<N> },
    Prismatic { limit: Option<[N; 2]>, motor: Option<crate::Motor<N>>, spring: bool },
    Wheel { limit: Option<[N; 2]>, motor: Option<crate::Motor<N>>, spring: bool },
    Motor { max_force: N, max_torque: N, correction: N },
    Mouse { max_force: N, angular_damping: N },
}

/// The substep's constants a pass needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Substep<N> {
    pub(crate) h: N,
    pub(crate) inv_h: N,
    pub(crate) use_bias: bool,
}

/// Two bodies' states and rotations during one joint's solve.
pub(crate) struct Pair<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub(crate) a: BodyState<N, D>,
    pub(crate) b: BodyState<N, D>,
    /// The current anchors from the centres of mass.
    pub(crate) r_a: Vector<N, D>,
    pub(crate) r_b: Vector<N, D>,
}

/// The joints of one step, prepared (the buffers are reused).
#[derive(Clone, Debug, Default)]
pub(crate) struct JointSolver<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The joints in the order they are solved (see `JointSolver::order`).
    pub(crate) prepared: Vec<Prepared<N, D>>,
    /// The order the joints are solved in.
    colouring: JointColouring,
    /// What `prepared` was built from.
    built: Built<N>,
    /// Per joint slot, the joint's place in `prepared` (`u32::MAX` for none).
    rank: Vec<u32>,
}

/// What the prepared joints were built from; while it stays the same, their own part (and
/// their order) stays valid.
#[derive(Clone, Debug, Default)]
struct Built<N> {
    /// The joint set's version (see `JointSet::version`); `None` before the first build.
    version: Option<u64>,
    /// The substep.
    h: N,
    /// One bit per body slot: dynamic (and awake) when the joints were built; and a buffer for
    /// this step's bits.
    dynamic: Vec<u64>,
    fresh: Vec<u64>,
}

impl<N: Scalar> Built<N> {
    /// Whether the joints must be built again for this step, and if so records what they are
    /// built from.
    fn changed<const D: usize>(&mut self, version: u64, h: N, bodies: &[SolverBody<N, D>]) -> bool
    where
        Dim<D>: SolverDim<N, D>,
    {
        self.fresh.clear();
        self.fresh.resize(bodies.len().div_ceil(64), 0);
        for (i, b) in bodies.iter().enumerate() {
            self.fresh[i / 64] |= u64::from(b.dynamic) << (i % 64);
        }
        let same = self.version == Some(version) && self.h == h && self.fresh == self.dynamic;
        if !same {
            (self.version, self.h) = (Some(version), h);
            core::mem::swap(&mut self.dynamic, &mut self.fresh);
        }
        !same
    }
}

/// The greedy colouring of the joint graph that orders the joints (see `JointSolver::order`),
/// with its buffers kept from step to step.
#[derive(Clone, Debug, Default)]
struct JointColouring {
    /// Per body slot, the colours of the joints on it so far (one bit each).
    colours_of_body: Vec<u32>,
    /// The joints to solve with their colours, in slot order; and their slots in solve order.
    coloured: Vec<(u8, u32)>,
    sequence: Vec<u32>,
}

impl JointColouring {
    /// Colours `joints` (each a joint's slot and the slots of its dynamic bodies, `None` for a
    /// static or kinematic one, in slot order) over `bodies` body slots, and returns their slots
    /// in solve order: by colour, slot order within one. A joint takes the lowest colour no
    /// joint before it on either of its dynamic bodies has, up to `JOINT_COLOURS`; the rest
    /// share the last colour.
    fn order(
        &mut self,
        bodies: usize,
        joints: impl Iterator<Item = (u32, Option<usize>, Option<usize>)>,
    ) -> &[u32] {
        self.colours_of_body.clear();
        self.colours_of_body.resize(bodies, 0);
        self.coloured.clear();
        let mut counts = [0usize; JOINT_COLOURS as usize + 1];
        for (index, a, b) in joints {
            let of = |slot: Option<usize>| slot.map_or(0, |s| self.colours_of_body[s]);
            let c = (!(of(a) | of(b))).trailing_zeros().min(JOINT_COLOURS - 1);
            for slot in [a, b].into_iter().flatten() {
                self.colours_of_body[slot] |= 1 << c;
            }
            self.coloured.push((c as u8, index));
            counts[c as usize + 1] += 1;
        }
        for c in 1..counts.len() {
            counts[c] += counts[c - 1];
        }
        self.sequence.clear();
        self.sequence.resize(self.coloured.len(), 0);
        for &(c, index) in &self.coloured {
            self.sequence[counts[c as usize]] = index;
            counts[c as usize] += 1;
        }
        &self.sequence
    }
}

/// The colours of the joint order: a joint takes the lowest colour no joint before it on either
/// of its dynamic bodies has, up to this many; the rest share the last.
const JOINT_COLOURS: u32 = 24;

impl<N: Scalar, const D: usize> JointSolver<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Prepares every joint of `joints` for a step of substeps `h`. When the joints, the
    /// substep and which bodies are dynamic are as at the last step, the joints' own part is
    /// kept as it was prepared then (their colour order too) and only the bodies' part is read
    /// again, reading the prepared joints in order instead of the world's joints scattered.
    pub(crate) fn prepare(
        &mut self,
        joints: &super::edit::JointSet<N, D>,
        bodies: &[SolverBody<N, D>],
        h: N,
        warm_starting: bool,
    ) {
        if joints.is_empty() {
            self.prepared.clear();
            return;
        }
        if self.built.changed(joints.version(), h, bodies) {
            self.build(joints, bodies, h);
        } else {
            // Every step after the first of a test checks the kept joints against new ones.
            #[cfg(debug_assertions)]
            self.check_kept(joints, bodies, h);
        }
        for p in &mut self.prepared {
            p.take_bodies(&bodies[p.a as usize], &bodies[p.b as usize]);
            if !warm_starting {
                p.impulses = Impulses::zero();
            }
        }
    }

    /// Orders the joints and prepares their own part.
    fn build(&mut self, joints: &super::edit::JointSet<N, D>, bodies: &[SolverBody<N, D>], h: N) {
        self.order(joints, bodies);
        self.prepared.clear();
        self.rank.clear();
        self.rank.resize(joints.slot_count(), u32::MAX);
        for &index in &self.colouring.sequence {
            let Some(joint) = joints.at(index) else { continue };
            self.rank[index as usize] = self.prepared.len() as u32;
            self.prepared.push(Prepared::of(joint, h));
        }
    }

    /// Stores the impulses the step accumulated into the joints. (In the joints' slot order:
    /// reading the prepared joints scattered costs less than writing the joints scattered.)
    pub(crate) fn store_impulses(&self, joints: &mut super::edit::JointSet<N, D>) {
        joints.store_impulses(|index| {
            let k = *self.rank.get(index as usize)?;
            self.prepared.get(k as usize).map(|p| p.impulses)
        });
    }

    /// Panics unless the joints kept from the last step are those a new build would give.
    #[cfg(debug_assertions)]
    fn check_kept(&self, joints: &super::edit::JointSet<N, D>, bodies: &[SolverBody<N, D>], h: N) {
        let mut fresh = Self::default();
        fresh.build(joints, bodies, h);
        let mut kept = self.prepared.clone();
        // The bodies' part is taken again either way.
        for p in kept.iter_mut().chain(&mut fresh.prepared) {
            p.take_bodies(&bodies[p.a as usize], &bodies[p.b as usize]);
        }
        let same = kept == fresh.prepared && self.rank == fresh.rank;
        assert!(same, "the joints kept from the last step are stale");
    }

    /// The joints to solve this step (both bodies present, one of them dynamic), in colour
    /// order, into `sequence`: greedy colours (in slot order, so the order is the same on every
    /// run and for any number of threads), then by colour, slot order within one. Two joints
    /// of one colour share no dynamic body, so consecutive joints rarely wait for each other's
    /// result as joints in slot order do (a chain's links one after the other): the processor
    /// overlaps their work, as in Box2D v3, which solves its joints by graph colour.
    fn order(&mut self, joints: &super::edit::JointSet<N, D>, bodies: &[SolverBody<N, D>]) {
        // A joint's bodies are always present: removing a body removes its joints.
        let dynamic = |slot: u32| bodies[slot as usize].dynamic.then_some(slot as usize);
        let solved = joints.iter().filter_map(|(index, joint)| {
            let (a, b) = (dynamic(joint.desc.body_a.index), dynamic(joint.desc.body_b.index));
            (a.is_some() || b.is_some()).then_some((index, a, b))
        });
        self.colouring.order(bodies.len(), solved);
    }
}

/// A body that takes no impulse.
fn no_mass<N: Scalar, const D: usize>() -> (N, Inertia<N, D>)
where
    Dim<D>: SolverDim<N, D>,
{
    (N::zero(), Dim::<D>::inertia_zero())
}

/// The solver's parameters of a joint kind, and its spring.
fn kind_of<N: Scalar, const D: usize>(kind: &JointKind<N, D>) -> (Kind<N>, Option<crate::Spring<N>>)
where
    Dim<D>: SolverDim<N, D>,
{
    match kind {
        JointKind::Revolute(j) => {
            let spring = j.spring.filter(|s| s.hertz > N::zero());
            (Kind::Revolute { limit: j.limit, motor: j.motor, spring: spring.is_some() }, spring)
        }
        JointKind::Distance(j) => {
            let [min, max] = j.range;
            let rigid = j.spring.is_none() || min >= max;
            let spring = j.spring.filter(|s| s.hertz > N::zero() && !rigid);
            (Kind::Distance { min, max, spring: spring.is_some(), rigid }, spring)
        }
        JointKind::Prismatic(j) => {
            let spring = j.spring.filter(|s| s.hertz > N::zero());
            (Kind::Prismatic { limit: j.limit, motor: j.motor, spring: spring.is_some() }, spring)
        }
        JointKind::Wheel(j) => {
            let spring = j.spring.filter(|s| s.hertz > N::zero());
            (Kind::Wheel { limit: j.limit, motor: j.motor, spring: spring.is_some() }, spring)
        }
        JointKind::Weld(_) => (Kind::Weld, None),
        JointKind::Spherical(j) => (Kind::Spherical { cone: j.cone.map(|c| c.half_angle) }, None),
        JointKind::Motor(j) => {
            let (max_force, max_torque, correction) = (j.max_force, j.max_torque, j.correction);
            (Kind::Motor { max_force, max_torque, correction }, None)
        }
        JointKind::Mouse(j) => {
            let (max_force, angular_damping) = (j.max_force, j.angular_damping);
            (Kind::Mouse { max_force, angular_damping }, Some(j.spring))
        }
    }
}

impl<N: Scalar, const D: usize> Prepared<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// `joint` for substeps `h`, with no bodies yet (see [`Prepared::take_bodies`]) and the
    /// impulses it accumulated last.
    fn of(joint: &Joint<N, D>, h: N) -> Self {
        let (desc, f) = (&joint.desc, &joint.frames);
        let hertz = desc.constraint_hertz.min_of(N::lit(0.25) / h);
        let soft = Softness::new(hertz, desc.constraint_damping_ratio, h);
        let (kind, spring) = kind_of(&desc.kind);
        let spring = spring.map_or(Softness::new(N::zero(), N::zero(), h), |s| {
            Softness::new(s.hertz, s.damping_ratio, h)
        });
        let (m, i) = no_mass();
        Self {
            a: desc.body_a.index,
            b: desc.body_b.index,
            dynamic_a: false,
            dynamic_b: false,
            m_a: m,
            m_b: m,
            i_a: i,
            i_b: i,
            anchor_a: f.anchor_a,
            anchor_b: f.anchor_b,
            r_a: Vector::zeros(),
            r_b: Vector::zeros(),
            delta_center: Vector::zeros(),
            q0_a: Dim::<D>::rotation_identity(),
            q0_b: Dim::<D>::rotation_identity(),
            reference: f.reference,
            axis_a: f.axis_a,
            axis_b: f.axis_b,
            length: f.length,
            slide_a: f.slide_a,
            soft,
            spring,
            kind,
            impulses: joint.impulses,
        }
    }

    /// Takes what the step needs of the bodies as the step starts: their masses (none for a
    /// body that is not dynamic), the anchors from their centres of mass, their rotations.
    #[inline(always)]
    fn take_bodies(&mut self, sa: &SolverBody<N, D>, sb: &SolverBody<N, D>) {
        let mass =
            |s: &SolverBody<N, D>| if s.dynamic { (s.inv_mass, s.inv_inertia) } else { no_mass() };
        (self.dynamic_a, self.dynamic_b) = (sa.dynamic, sb.dynamic);
        ((self.m_a, self.i_a), (self.m_b, self.i_b)) = (mass(sa), mass(sb));
        self.r_a = Dim::<D>::rotate(&sa.q0, &(self.anchor_a - sa.local_center));
        self.r_b = Dim::<D>::rotate(&sb.q0, &(self.anchor_b - sb.local_center));
        self.delta_center = sb.center - sa.center;
        (self.q0_a, self.q0_b) = (sa.q0, sb.q0);
    }

    /// Loads both bodies' states from the slots, with the current anchors.
    #[inline(always)]
    pub(crate) fn load<L, S>(&self, slots: &S) -> Pair<N, D>
    where
        L: DimLanes<D, Scalar = N>,
        S: Slots<L, D> + ?Sized,
    {
        let a = state_of::<L, D>(&slots.slot(self.a));
        let b = state_of::<L, D>(&slots.slot(self.b));
        let r_a = Dim::<D>::rotate(&a.dq, &self.r_a);
        let r_b = Dim::<D>::rotate(&b.dq, &self.r_b);
        Pair { a, b, r_a, r_b }
    }

    /// Writes the dynamic bodies' states back.
    #[inline(always)]
    pub(crate) fn store<L, S>(&self, slots: &mut S, pair: &Pair<N, D>)
    where
        L: DimLanes<D, Scalar = N>,
        S: Slots<L, D> + ?Sized,
    {
        if self.dynamic_a {
            slots.set_slot(self.a, &slot_of::<L, D>(&pair.a));
        }
        if self.dynamic_b {
            slots.set_slot(self.b, &slot_of::<L, D>(&pair.b));
        }
    }

    /// The bodies' current rotations.
    #[inline(always)]
    pub(crate) fn rotations(&self, pair: &Pair<N, D>) -> (Rot<N, D>, Rot<N, D>) {
        let inv = |q: &Rot<N, D>| Dim::<D>::rotation_delta(&Dim::<D>::rotation_identity(), q);
        let q_a = Dim::<D>::rotation_delta(&pair.a.dq, &inv(&self.q0_a));
        let q_b = Dim::<D>::rotation_delta(&pair.b.dq, &inv(&self.q0_b));
        (q_a, q_b)
    }

    /// The rotation by which B is off its reference relative to A, in world axes:
    /// `q_B q_ref⁻¹ q_A⁻¹` (the identity when the joint's angle is as when it was added).
    #[inline(always)]
    pub(crate) fn angle_error(&self, q_a: &Rot<N, D>, q_b: &Rot<N, D>) -> Rot<N, D> {
        Dim::<D>::rotation_delta(&Dim::<D>::rotation_delta(q_b, &self.reference), q_a)
    }

    /// Applies a linear impulse `p` at the anchors and an angular impulse `l`: minus to A,
    /// plus to B.
    #[inline(always)]
    pub(crate) fn apply(&self, pair: &mut Pair<N, D>, p: &Vector<N, D>, l: &Ang<N, D>) {
        let la = Dim::<D>::cross(&pair.r_a, p) + *l;
        let lb = Dim::<D>::cross(&pair.r_b, p) + *l;
        pair.a.v -= p * self.m_a;
        pair.a.w -= Dim::<D>::apply_inertia(&self.i_a, &la);
        pair.b.v += p * self.m_b;
        pair.b.w += Dim::<D>::apply_inertia(&self.i_b, &lb);
    }

    /// Applies an angular impulse `l` alone: minus to A, plus to B.
    #[inline(always)]
    pub(crate) fn apply_angular(&self, pair: &mut Pair<N, D>, l: &Ang<N, D>) {
        pair.a.w -= Dim::<D>::apply_inertia(&self.i_a, l);
        pair.b.w += Dim::<D>::apply_inertia(&self.i_b, l);
    }

    /// The relative velocity of the anchors (B's minus A's).
    #[inline(always)]
    pub(crate) fn anchor_velocity(&self, pair: &Pair<N, D>) -> Vector<N, D> {
        let vb = pair.b.v + Dim::<D>::cross_angular(&pair.b.w, &pair.r_b);
        let va = pair.a.v + Dim::<D>::cross_angular(&pair.a.w, &pair.r_a);
        vb - va
    }

    /// The separation of the anchors (B's minus A's).
    #[inline(always)]
    pub(crate) fn anchor_separation(&self, pair: &Pair<N, D>) -> Vector<N, D> {
        (pair.b.dp - pair.a.dp) + (pair.r_b - pair.r_a) + self.delta_center
    }

    /// The soft coefficients of a row that holds the joint together: `(bias rate, mass scale,
    /// impulse scale)`, rigid (no bias) when relaxing.
    #[inline(always)]
    pub(crate) fn hold(&self, step: &Substep<N>) -> (N, N, N) {
        if step.use_bias {
            (self.soft.bias_rate, self.soft.mass_scale, self.soft.impulse_scale)
        } else {
            (N::zero(), N::one(), N::zero())
        }
    }

    /// The point lock: the anchors kept together by a soft `D`-row constraint.
    #[inline(always)]
    pub(crate) fn solve_point(&mut self, pair: &mut Pair<N, D>, step: &Substep<N>) {
        let (rate, mass_scale, impulse_scale) = self.hold(step);
        let mut rhs = self.anchor_velocity(pair);
        if step.use_bias {
            rhs += self.anchor_separation(pair) * rate;
        }
        let x = self.point_mass_solve(pair, &rhs);
        let p = -x * mass_scale - self.impulses.linear * impulse_scale;
        self.impulses.linear += p;
        self.apply(pair, &p, &Dim::<D>::angular_zero());
    }

    /// `K⁻¹ rhs` for the point lock's effective mass `K`: the impulse at the anchors that
    /// changes their relative velocity by `rhs`.
    #[inline(always)]
    pub(crate) fn point_mass_solve(&self, pair: &Pair<N, D>, rhs: &Vector<N, D>) -> Vector<N, D> {
        Vector::from(solve_spd::<N, D>(self.point_mass(pair), (*rhs).into(), D))
    }

    /// `(I_A⁻¹ + I_B⁻¹)⁻¹ rhs`: the angular impulse that changes the relative angular velocity
    /// by `rhs` (one row in 2D, three in 3D).
    #[inline(always)]
    pub(crate) fn angular_mass_solve(&self, rhs: &Ang<N, D>) -> Ang<N, D> {
        let (ia, ib) = (Dim::<D>::inertia_rows(&self.i_a), Dim::<D>::inertia_rows(&self.i_b));
        let k: [[N; 3]; 3] =
            core::array::from_fn(|r| core::array::from_fn(|c| ia[r][c] + ib[r][c]));
        let n = if D == 2 { 1 } else { 3 };
        Dim::<D>::angular_from_components(solve_spd::<N, 3>(
            k,
            Dim::<D>::angular_components(rhs),
            n,
        ))
    }

    /// The point lock's effective mass `K` (symmetric): how the anchors' relative velocity
    /// changes per unit impulse, column by column.
    #[inline(always)]
    fn point_mass(&self, pair: &Pair<N, D>) -> [[N; D]; D] {
        let mut k = [[N::zero(); D]; D];
        let m = self.m_a + self.m_b;
        if D == 2 {
            // The same matrix in closed form (a scalar inertia `i`, `r × e` = `±r_y`, `r_x`):
            // `m + i r_y²`, `−i r_x r_y`, `m + i r_x²` summed over both bodies.
            let (ia, ib) = (Dim::<D>::inertia_rows(&self.i_a), Dim::<D>::inertia_rows(&self.i_b));
            let (ia, ib) = (ia[0][0], ib[0][0]);
            let (ra, rb) = (&pair.r_a, &pair.r_b);
            k[0][0] = m + ia * ra[1] * ra[1] + ib * rb[1] * rb[1];
            k[0][1] = -ia * ra[0] * ra[1] - ib * rb[0] * rb[1];
            k[1][0] = k[0][1];
            k[1][1] = m + ia * ra[0] * ra[0] + ib * rb[0] * rb[0];
            return k;
        }
        for (c, col) in k.iter_mut().enumerate() {
            let mut e = Vector::<N, D>::zeros();
            e[c] = N::one();
            let ta = Dim::<D>::apply_inertia(&self.i_a, &Dim::<D>::cross(&pair.r_a, &e));
            let tb = Dim::<D>::apply_inertia(&self.i_b, &Dim::<D>::cross(&pair.r_b, &e));
            let v = e * m
                + Dim::<D>::cross_angular(&ta, &pair.r_a)
                + Dim::<D>::cross_angular(&tb, &pair.r_b);
            *col = v.into();
        }
        // Stored by columns; `K` is symmetric, so columns are rows.
        k
    }

    /// The angular lock (weld): the relative rotation held at its reference by a soft row per
    /// angular degree of freedom (one in 2D, three in 3D).
    #[inline(always)]
    pub(crate) fn solve_angular_lock(
        &mut self,
        pair: &mut Pair<N, D>,
        error: &Rot<N, D>,
        step: &Substep<N>,
    ) {
        let (rate, mass_scale, impulse_scale) = self.hold(step);
        let mut rhs = pair.b.w - pair.a.w;
        if step.use_bias {
            rhs += Dim::<D>::rotation_vector(error) * rate;
        }
        let l = -self.angular_mass_solve(&rhs) * mass_scale - self.impulses.angular * impulse_scale;
        self.impulses.angular += l;
        self.apply_angular(pair, &l);
    }
}

/// A one-sided limit row: `c ≥ 0` is allowed, `cdot` is its rate, `mass` its effective mass;
/// updates the accumulated impulse `acc` (never negative) and returns the impulse to apply.
/// Not yet reached (`c > 0`), it removes only the speed that would cross it within the substep.
#[inline(always)]
pub(crate) fn limit_row<N: Scalar>(
    c: N,
    cdot: N,
    mass: N,
    acc: &mut N,
    soft: &Softness<N>,
    step: &Substep<N>,
) -> N {
    let (bias, mass_scale, impulse_scale) = if c > N::zero() {
        (c * step.inv_h, N::one(), N::zero())
    } else if step.use_bias {
        (soft.bias_rate * c, soft.mass_scale, soft.impulse_scale)
    } else {
        (N::zero(), N::one(), N::zero())
    };
    let old = *acc;
    *acc = (old - mass_scale * mass * (cdot + bias) - impulse_scale * old).max_of(N::zero());
    *acc - old
}

/// A spring row towards `c = 0`; returns the impulse to apply (accumulated in `acc`).
#[inline(always)]
pub(crate) fn spring_row<N: Scalar>(c: N, cdot: N, mass: N, acc: &mut N, soft: &Softness<N>) -> N {
    let impulse = -soft.mass_scale * mass * (cdot + soft.bias_rate * c) - soft.impulse_scale * *acc;
    *acc += impulse;
    impulse
}

/// A motor row driving `cdot` to `speed` with at most `max_force`; returns the impulse to
/// apply (accumulated in `acc`, clamped to `max_force · h`).
#[inline(always)]
pub(crate) fn motor_row<N: Scalar>(
    cdot: N,
    mass: N,
    motor: &crate::Motor<N>,
    acc: &mut N,
    h: N,
) -> N {
    let max = motor.max_force * h;
    let old = *acc;
    *acc = (old - mass * (cdot - motor.speed)).max_of(-max).min_of(max);
    *acc - old
}

/// `v` shortened to length `max` if it is longer.
#[inline(always)]
pub(crate) fn clamp_vector<N: Scalar, const D: usize>(v: Vector<N, D>, max: N) -> Vector<N, D> {
    let length = v.norm();
    if length > max { v * (max / length) } else { v }
}

/// An angular `l` shortened to length `max` if it is longer.
#[inline(always)]
pub(crate) fn clamp_length<N: Scalar, const D: usize>(l: Ang<N, D>, max: N) -> Ang<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let length = Dim::<D>::angular_dot(&l, &l).sqrt();
    if length > max { l * (max / length) } else { l }
}

/// `x > 0` (`false` for NaN).
#[inline(always)]
pub(crate) fn positive<N: Scalar>(x: N) -> bool {
    x > N::zero()
}

/// Solves the symmetric positive semi-definite system `K x = b` in its first `n` rows by
/// Gaussian elimination; a row without stiffness (a zero pivot) gets `x = 0`.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // Row and column indices read as the algebra does.
pub(crate) fn solve_spd<N: Scalar, const M: usize>(
    mut k: [[N; M]; M],
    mut b: [N; M],
    n: usize,
) -> [N; M] {
    let zero = N::zero();
    if M == 2 && n == 2 {
        // Cramer's rule, when `K` is invertible.
        let det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
        if det != zero {
            let inv = N::one() / det;
            let mut x = [zero; M];
            x[0] = inv * (k[1][1] * b[0] - k[0][1] * b[1]);
            x[1] = inv * (k[0][0] * b[1] - k[1][0] * b[0]);
            return x;
        }
    }
    for i in 0..n {
        let pivot = k[i][i];
        if !positive(pivot) {
            continue;
        }
        for r in i + 1..n {
            let f = k[r][i] / pivot;
            for c in i..n {
                k[r][c] -= f * k[i][c];
            }
            b[r] -= f * b[i];
        }
    }
    let mut x = [zero; M];
    for i in (0..n).rev() {
        if !positive(k[i][i]) {
            continue;
        }
        let mut s = b[i];
        for c in i + 1..n {
            s -= k[i][c] * x[c];
        }
        x[i] = s / k[i][i];
    }
    x
}

/// Applies every joint's accumulated impulses (warm start), in order.
pub(crate) fn warm_start<L, S, const D: usize>(slots: &mut S, joints: &[Prepared<L::Scalar, D>])
where
    L: DimLanes<D>,
    S: Slots<L, D> + ?Sized,
    Dim<D>: SolverDim<L::Scalar, D>,
{
    for j in joints {
        let mut pair = j.load::<L, S>(slots);
        let imp = &j.impulses;
        let axial = imp.spring + imp.motor + imp.lower - imp.upper;
        let mut angular = imp.angular;
        match j.kind {
            Kind::Revolute { limit, motor, spring } => {
                if limit.is_some() || motor.is_some() || spring {
                    let (q_a, _) = j.rotations(&pair);
                    angular += Dim::<D>::rotate_angular(&q_a, &j.axis_a) * axial;
                }
            }
            Kind::Distance { .. } => {
                let d = j.anchor_separation(&pair);
                let length = d.norm();
                if length > L::Scalar::lit(0.0) {
                    let p = d * ((imp.axial + axial) / length);
                    j.apply(&mut pair, &p, &angular);
                    j.store::<L, S>(slots, &pair);
                    continue;
                }
            }
            Kind::Prismatic { .. } => {
                // The linear impulses act at the point of A under B's anchor.
                let (q_a, _) = j.rotations(&pair);
                let axis = Dim::<D>::rotate(&q_a, &j.slide_a);
                pair.r_a += j.anchor_separation(&pair);
                let p = imp.linear + axis * axial;
                j.apply(&mut pair, &p, &angular);
                j.store::<L, S>(slots, &pair);
                continue;
            }
            Kind::Wheel { .. } => {
                // The suspension's impulses along its axis and across it act at the point of
                // A under B's anchor; the motor's about the spin axis.
                let (q_a, _) = j.rotations(&pair);
                let axis = Dim::<D>::rotate(&q_a, &j.slide_a);
                let spin = Dim::<D>::rotate_angular(&q_a, &j.axis_a);
                pair.r_a += j.anchor_separation(&pair);
                let p = imp.linear + axis * (imp.spring + imp.lower - imp.upper);
                j.apply(&mut pair, &p, &(angular + spin * imp.motor));
                j.store::<L, S>(slots, &pair);
                continue;
            }
            Kind::Spherical { cone: Some(_) } => {
                let (q_a, q_b) = j.rotations(&pair);
                angular -= super::spherical::cone_direction(j, &q_a, &q_b).0 * imp.lower;
            }
            Kind::Weld
            | Kind::Spherical { cone: None }
            | Kind::Motor { .. }
            | Kind::Mouse { .. } => {}
        }
        j.apply(&mut pair, &imp.linear, &angular);
        j.store::<L, S>(slots, &pair);
    }
}

/// Solves every joint once (with the soft bias when `step.use_bias`), in order.
pub(crate) fn solve<L, S, const D: usize>(
    slots: &mut S,
    joints: &mut [Prepared<L::Scalar, D>],
    step: &Substep<L::Scalar>,
) where
    L: DimLanes<D>,
    S: Slots<L, D> + ?Sized,
    Dim<D>: SolverDim<L::Scalar, D>,
{
    for j in joints.iter_mut() {
        let mut pair = j.load::<L, S>(slots);
        match j.kind {
            Kind::Revolute { .. } => super::revolute::solve(j, &mut pair, step),
            Kind::Distance { .. } => super::distance::solve(j, &mut pair, step),
            Kind::Weld => super::weld::solve(j, &mut pair, step),
            Kind::Spherical { .. } => super::spherical::solve(j, &mut pair, step),
            Kind::Motor { .. } => super::motor::solve(j, &mut pair, step),
            Kind::Mouse { .. } => super::mouse::solve(j, &mut pair, step),
            Kind::Prismatic { .. } => super::prismatic::solve(j, &mut pair, step),
            Kind::Wheel { .. } => super::wheel::solve(j, &mut pair, step),
        }
        j.store::<L, S>(slots, &pair);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Joint graphs: a chain, a grid, a star and random graphs with static ends. Every joint
    /// is solved once; colours ascend along the order and slots ascend within a colour; two
    /// joints of one colour below the last share no dynamic body; each joint's colour is the
    /// lowest its earlier neighbours leave free (greedy), so a chain takes two colours and a
    /// grid at most four.
    #[test]
    fn joints_are_ordered_by_greedy_colours() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x_c010_0125);
        let chain: Vec<(usize, usize)> = (0..100).map(|i| (i, i + 1)).collect();
        let grid: Vec<(usize, usize)> = (0..100)
            .flat_map(|k| {
                let (i, j) = (k % 10, k / 10);
                let right = (i < 9).then_some((k, k + 1));
                let down = (j < 9).then_some((k, k + 10));
                right.into_iter().chain(down)
            })
            .collect();
        let star: Vec<(usize, usize)> = (1..40).map(|i| (0, i)).collect();
        let mut graphs = vec![(chain, 101, 2), (grid, 100, 4), (star, 40, JOINT_COLOURS)];
        for _ in 0..50 {
            let bodies = rng.random_range(2..60);
            let edges = (0..rng.random_range(1..200))
                .map(|_| (rng.random_range(0..bodies), rng.random_range(0..bodies)))
                .filter(|(a, b)| a != b)
                .collect();
            graphs.push((edges, bodies, JOINT_COLOURS));
        }
        let mut colouring = JointColouring::default();
        for (edges, bodies, most) in &graphs {
            // Body 0 is static in every other random graph: it takes no colour.
            let fixed = |b: usize| b == 0 && edges.len() % 2 == 0;
            let joints = edges
                .iter()
                .enumerate()
                .map(|(i, &(a, b))| (i as u32, (!fixed(a)).then_some(a), (!fixed(b)).then_some(b)));
            let order = colouring.order(*bodies, joints).to_vec();
            let mut seen = order.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..edges.len() as u32).collect::<Vec<_>>());
            // The greedy colours, recomputed from their definition.
            let mut colour = vec![0u32; edges.len()];
            for (i, &(a, b)) in edges.iter().enumerate() {
                let taken = |c: u32| {
                    edges[..i].iter().zip(&colour).any(|(&(x, y), &cj)| {
                        cj == c && [x, y].iter().any(|&e| !fixed(e) && (e == a || e == b))
                    })
                };
                colour[i] = (0..JOINT_COLOURS).find(|&c| !taken(c)).unwrap_or(JOINT_COLOURS - 1);
            }
            assert!(colour.iter().all(|&c| c < *most), "{} colours", colour.iter().max().unwrap());
            for w in order.windows(2) {
                let (c0, c1) = (colour[w[0] as usize], colour[w[1] as usize]);
                assert!(c0 < c1 || (c0 == c1 && w[0] < w[1]), "order {w:?}");
            }
            for (i, &(a, b)) in edges.iter().enumerate() {
                for (j, &(x, y)) in edges.iter().enumerate().take(i) {
                    let share = [a, b].iter().any(|&e| !fixed(e) && (e == x || e == y));
                    let c = colour[i];
                    assert!(!(share && c == colour[j] && c < JOINT_COLOURS - 1), "{i} and {j}");
                }
            }
        }
    }
}
