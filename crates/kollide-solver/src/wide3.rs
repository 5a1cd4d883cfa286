//! The 3D `f32` contact solver on four constraints at once (SIMD).
//!
//! The 3D counterpart of `wide2.rs`: the constraints of one *wave* (see `World::step`) share no
//! dynamic body, so four of them are solved side by side, every number an `f32x4` with one lane
//! per constraint (structure of arrays). Grouping, masks and selects come from `wide.rs`.
//!
//! The whole contact part of a 3D `f32` step runs here ([`run`]): the scalar `prepare`, four
//! manifolds at a time straight into [`Bundle`]s, warm starting, the solve and relax passes, the
//! restitution pass, and writing the impulses back into the manifolds. Bodies live in [`Slot`]s
//! meanwhile (four aligned rows each, turned into lanes by 4×4 transposes; lanes that must not
//! write store to a spare slot), as in 2D.
//!
//! **Same answers.** Each lane performs exactly the scalar solver's operations
//! (`contact_solver.rs`) in the same order, with no fused multiply-adds, and branches become
//! selects:
//!
//! - sums are taken left to right as nalgebra takes them: a dot product `(x + y) + z`, a matrix
//!   times a vector row by row the same way;
//! - the current separation `n · (Δp_B − Δp_A + q_B r_B − q_A r_A) + s₀` rotates the anchors
//!   with the bodies' rotation since the step started, written as nalgebra's unit quaternion
//!   times vector (`t = 2 q⃗ × r`, `r + w t + q⃗ × t`);
//! - two-point manifolds try the block solver on both normal impulses first; lanes where it fails
//!   (a speculative point, or an impulse that would pull) solve point by point;
//! - manifolds of three or more points start at point `pass mod count`, so a bundle holds
//!   manifolds of one point count (`wide::group` sorts a wave's constraints by it); one- and
//!   two-point manifolds share bundles, a missing point having zero mass, arms and impulses;
//! - friction solves both tangents from the same velocities and scales the pair back onto the
//!   Coulomb disc `|λ_t| ≤ μ λ_n`.
//!
//! One thing is computed less often than in the scalar loop, with the same values: a point's
//! separation depends only on the bodies' motion since the step started, which the relax pass of
//! one substep and the soft pass of the next share, so the latter reuses the former's.
//!
//! The tests step worlds both ways and compare every number of every body (a velocity of `−0.0`
//! may come out `+0.0`, where a lane applies a zero impulse that the scalar loop skips).

use std::any::Any;

use kollide_manifold::Contact;
use kollide_math::{Scalar, Vec3, Vector};
use nalgebra::{Quaternion, UnitQuaternion};

use crate::contact_solver::{self as cs, BodyState, Pass, PrepareInput, SolverBody};
use crate::wide::{self, LANES, W, gather, mask, max, min};
use crate::{ContactImpulse, ContactPair, Dim, SolverDim};

/// What the contact part of a world step works on (the world's buffers).
pub(crate) struct Step<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The touching pairs' solver inputs in wave order, and the wave of each.
    pub inputs: &'a Vec<PrepareInput<N>>,
    pub waves: &'a [u32],
    pub pairs: &'a mut Vec<ContactPair<N, D>>,
    pub bodies: &'a mut Vec<SolverBody<N, D>>,
    pub states: &'a mut Vec<BodyState<N, D>>,
    pub gravity: &'a Vector<N, D>,
    /// The substep.
    pub h: N,
    pub substeps: u32,
    pub warm_starting: bool,
    pub restitution_threshold: N,
    /// The settings of the pass of a substep, with or without the soft bias.
    pub pass: &'a dyn Fn(usize, bool) -> Pass<N>,
    /// Scratch buffers.
    pub classes: &'a mut Vec<u8>,
    pub order: &'a mut Vec<u32>,
}

/// Runs the contact part of a 3D `f32` world step four constraints at a time and returns `true`;
/// returns `false`, doing nothing, for any other world (the caller then runs the scalar loop).
pub(crate) fn run<N: Scalar, const D: usize>(packed: &mut Bundles, step: Step<'_, N, D>) -> bool
where
    Dim<D>: SolverDim<N, D>,
{
    fn cast<T: Any>(x: &mut dyn Any) -> Option<&mut T> {
        x.downcast_mut::<T>()
    }
    let (Some(states), Some(bodies), Some(pairs)) = (
        cast::<Vec<BodyState<f32, 3>>>(step.states),
        cast::<Vec<SolverBody<f32, 3>>>(step.bodies),
        cast::<Vec<ContactPair<f32, 3>>>(step.pairs),
    ) else {
        return false;
    };
    let inputs = (step.inputs as &dyn Any)
        .downcast_ref::<Vec<PrepareInput<f32>>>()
        .expect("f32 inputs with 3D f32 states");
    let gravity = (step.gravity as &dyn Any)
        .downcast_ref::<Vec3<f32>>()
        .expect("3D f32 gravity with 3D f32 states");
    let h = step.h.to_f64() as f32;
    let threshold = step.restitution_threshold.to_f64() as f32;
    let pass = |sub: usize, use_bias: bool| {
        let p = (step.pass)(sub, use_bias);
        *(&p as &dyn Any).downcast_ref::<Pass<f32>>().expect("f32 pass settings")
    };
    let spare = bodies.len() as u32;
    prepare(inputs, step.waves, pairs, bodies, states, spare, step.classes, step.order, packed);
    let mut slots = std::mem::take(&mut packed.slots);
    to_slots(states, &mut slots);
    for sub in 0..step.substeps as usize {
        integrate_velocities(&mut slots, bodies, gravity, h);
        if step.warm_starting {
            warm_start(&mut slots, packed);
        }
        // Positions last moved before the previous substep's relax pass.
        solve(&mut slots, packed, pass(sub, true), sub == 0);
        integrate_positions(&mut slots, bodies, h);
        solve(&mut slots, packed, pass(sub, false), true);
    }
    restitution(&mut slots, packed, threshold);
    from_slots(&slots, states);
    packed.slots = slots;
    store_impulses(packed, pairs);
    true
}

/// A 3D vector in four lanes.
type V = [W; 3];

/// A 3×3 matrix in four lanes, by rows.
type M = [V; 3];

/// One contact point of four constraints.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WidePoint {
    /// Lanes whose constraint has this point (a mask).
    exists: W,
    r_a: V,
    r_b: V,
    adjusted_separation: W,
    normal_mass: W,
    normal_impulse: W,
    max_normal_impulse: W,
    relative_velocity: W,
    /// The separation as of the last pass that computed it (see [`solve`]).
    separation: W,
    /// The normal row's angular parts, as the scalar `ConstraintPoint` keeps them: `r × n` for
    /// each body, and the same through the body's inverse inertia.
    normal_arm: [V; 2],
    normal_turn: [V; 2],
    /// The distance from the friction patch's centre.
    twist_arm: W,
}

/// Four constraints of one wave with the same point count (or all of one or two points).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bundle {
    /// Body (state) indices; unused lanes repeat lane 0's bodies and are never written.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Index of each lane's pair in the world's pair list.
    pair: [u32; LANES],
    used: u8,
    /// Where each lane's bodies are written: their own slots for dynamic bodies, the spare
    /// slot for the rest (and for unused lanes).
    write_a: [u32; LANES],
    write_b: [u32; LANES],
    /// The bundle's points are `points[first..first + count]` of [`Bundles::points`].
    first: u32,
    count: u8,
    has_block: W,
    normal: V,
    tangents: [V; 2],
    friction: W,
    restitution: W,
    bias_rate: W,
    mass_scale: W,
    impulse_scale: W,
    /// Inverse masses (zero for bodies that do not respond to impulses).
    inv_mass_a: W,
    inv_mass_b: W,
    /// `K⁻¹` (symmetric): its entries 00, 01 (= 10) and 11.
    k_inv: [W; 3],
    k_diag: [W; 2],
    /// The friction patch (the scalar `Patch`): tangent rows at the points' centroid
    /// (`[tangent][body]`) and the twist row about the normal.
    tangent_arm: [[V; 2]; 2],
    tangent_turn: [[V; 2]; 2],
    tangent_mass: [W; 2],
    tangent_impulse: [W; 2],
    twist_turn: [V; 2],
    twist_mass: W,
    twist_impulse: W,
}

/// The bundles of a step, and buffers reused from step to step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bundles {
    bundles: Vec<Bundle>,
    points: Vec<WidePoint>,
    slots: Vec<Slot>,
}

/// A body's state as the SIMD loops keep it: four rows of four numbers, `(v, 0)`, `(ω, 0)`,
/// `(Δp, 0)` and the rotation since the step started `(i, j, k, w)`, so that four bodies load
/// as aligned rows and one 4×4 transpose per row turns them into lanes. The solver keeps one
/// slot per body and a spare slot at the end that takes the writes of lanes that must not
/// write.
pub(crate) type Slot = [W; 4];

/// A body state as a slot.
#[inline(always)]
fn slot_of(s: &BodyState<f32, 3>) -> Slot {
    let q = s.dq.coords;
    [
        W::new([s.v.x, s.v.y, s.v.z, 0.0]),
        W::new([s.w.x, s.w.y, s.w.z, 0.0]),
        W::new([s.dp.x, s.dp.y, s.dp.z, 0.0]),
        W::new([q.x, q.y, q.z, q.w]),
    ]
}

/// A slot as a body state.
#[inline(always)]
fn state_of(slot: &Slot) -> BodyState<f32, 3> {
    let [v, w, dp, q] = slot.map(|r| r.to_array());
    BodyState {
        v: Vec3::new(v[0], v[1], v[2]),
        w: Vec3::new(w[0], w[1], w[2]),
        dp: Vec3::new(dp[0], dp[1], dp[2]),
        dq: UnitQuaternion::new_unchecked(Quaternion::new(q[3], q[0], q[1], q[2])),
    }
}

/// Copies the body states into slots (plus the spare slot).
fn to_slots(states: &[BodyState<f32, 3>], slots: &mut Vec<Slot>) {
    slots.clear();
    slots.extend(states.iter().map(slot_of));
    slots.push([W::splat(0.0); 4]);
}

/// Copies the slots back into the body states.
fn from_slots(slots: &[Slot], states: &mut [BodyState<f32, 3>]) {
    for (s, slot) in states.iter_mut().zip(slots) {
        *s = state_of(slot);
    }
}

/// The scalar `integrate_velocities` on slots (the same per-body routine).
fn integrate_velocities(slots: &mut [Slot], bodies: &[SolverBody<f32, 3>], g: &Vec3<f32>, h: f32) {
    let limits = cs::SpeedLimits::for_substep(h);
    for (slot, b) in slots.iter_mut().zip(bodies).filter(|(_, b)| b.dynamic) {
        let mut s = state_of(slot);
        cs::integrate_velocity(&mut s, b, g, h, &limits);
        *slot = slot_of(&s);
    }
}

/// The scalar `integrate_positions` on slots.
fn integrate_positions(slots: &mut [Slot], bodies: &mut [SolverBody<f32, 3>], h: f32) {
    for (slot, b) in slots.iter_mut().zip(bodies.iter_mut()).filter(|(_, b)| b.moves) {
        let mut s = state_of(slot);
        cs::integrate_position(&mut s, b, h);
        *slot = slot_of(&s);
    }
}

/// A body's velocities in four lanes.
struct WideBody {
    v: V,
    w: V,
}

/// A body's motion since the step started, in four lanes.
struct Motion {
    dp: V,
    /// Rotation since the step started: the unit quaternion `(i, j, k, w)`.
    dq: [W; 4],
}

impl Motion {
    #[inline(always)]
    fn load(slots: &[Slot], index: &[u32; LANES]) -> Self {
        let s = index.map(|i| &slots[i as usize]);
        let [dx, dy, dz, _] = W::transpose([s[0][2], s[1][2], s[2][2], s[3][2]]);
        let dq = W::transpose([s[0][3], s[1][3], s[2][3], s[3][3]]);
        Self { dp: [dx, dy, dz], dq }
    }
}

impl WideBody {
    #[inline(always)]
    fn load(slots: &[Slot], index: &[u32; LANES]) -> Self {
        let s = index.map(|i| &slots[i as usize]);
        let [vx, vy, vz, _] = W::transpose([s[0][0], s[1][0], s[2][0], s[3][0]]);
        let [wx, wy, wz, _] = W::transpose([s[0][1], s[1][1], s[2][1], s[3][1]]);
        Self { v: [vx, vy, vz], w: [wx, wy, wz] }
    }

    /// Writes the velocities back, lane `l` to slot `to[l]` (the spare slot for lanes that
    /// must not write).
    #[inline(always)]
    fn store(&self, slots: &mut [Slot], to: &[u32; LANES]) {
        let zero = W::splat(0.0);
        let v = W::transpose([self.v[0], self.v[1], self.v[2], zero]);
        let w = W::transpose([self.w[0], self.w[1], self.w[2], zero]);
        for l in 0..LANES {
            let slot = &mut slots[to[l] as usize];
            slot[0] = v[l];
            slot[1] = w[l];
        }
    }
}

/// `f` of each lane's item, a vector in four lanes.
#[inline(always)]
fn vector<T>(x: &[&T; LANES], f: impl Fn(&T) -> Vec3<f32>) -> V {
    let v = x.map(f);
    [W::new(v.map(|v| v.x)), W::new(v.map(|v| v.y)), W::new(v.map(|v| v.z))]
}

/// Builds the bundles: the scalar `prepare` of every constraint (`inputs`, in wave order,
/// `waves[k]` the wave of `inputs[k]`), four at a time in lanes, with the same arithmetic in
/// the same order.
///
/// Within a wave the order is free (its constraints share no dynamic body), so a wave's
/// constraints are grouped by point count: manifolds of three or more points rotate the point
/// that leads with the pass, which all lanes of a bundle must agree on; one- and two-point
/// manifolds share bundles.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare(
    inputs: &[PrepareInput<f32>],
    waves: &[u32],
    pairs: &[ContactPair<f32, 3>],
    bodies: &[SolverBody<f32, 3>],
    states: &[BodyState<f32, 3>],
    spare: u32,
    classes: &mut Vec<u8>,
    order: &mut Vec<u32>,
    out: &mut Bundles,
) {
    let Bundles { bundles, points, .. } = out;
    bundles.clear();
    points.clear();
    classes.clear();
    classes.extend(inputs.iter().map(|input| {
        let n = pairs[input.pair as usize].manifold.len();
        if n > 2 { n as u8 } else { 2 }
    }));
    wide::group(
        waves,
        |k| classes[k],
        order,
        |g| {
            let input: [&PrepareInput<f32>; LANES] = g.lanes.map(|k| &inputs[k as usize]);
            prepare_bundle(input, g.used, pairs, bodies, states, spare, bundles, points);
        },
    );
}

/// A body of each lane as `prepare` reads it.
struct PrepBody {
    center: V,
    v: V,
    w: V,
    /// Inverse mass and inertia as stored (the effective masses use these) and as applied
    /// (zero unless the body is dynamic).
    inv_mass: W,
    inv_inertia: M,
    applied_inv_mass: W,
    applied_inv_inertia: M,
}

impl PrepBody {
    #[inline(always)]
    fn gather(
        bodies: &[SolverBody<f32, 3>],
        states: &[BodyState<f32, 3>],
        at: [u32; LANES],
    ) -> Self {
        let b = at.map(|i| &bodies[i as usize]);
        let s = at.map(|i| &states[i as usize]);
        let dynamic = mask(b.map(|b| b.dynamic));
        let zero = W::splat(0.0);
        let inv_mass = gather(&b, |b| b.inv_mass);
        let inv_inertia: M = core::array::from_fn(|i| {
            core::array::from_fn(|j| gather(&b, |b| b.inv_inertia[(i, j)]))
        });
        Self {
            center: vector(&b, |b| b.center.coords),
            v: vector(&s, |s| s.v),
            w: vector(&s, |s| s.w),
            inv_mass,
            inv_inertia,
            applied_inv_mass: dynamic.select(inv_mass, zero),
            applied_inv_inertia: inv_inertia.map(|row| row.map(|x| dynamic.select(x, zero))),
        }
    }
}

/// `m · v`, summed as nalgebra's 3×3 matrix times vector sums each row.
#[inline(always)]
fn apply(m: &M, v: &V) -> V {
    core::array::from_fn(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2])
}

/// `a − b`.
#[inline(always)]
fn sub(a: &V, b: &V) -> V {
    core::array::from_fn(|k| a[k] - b[k])
}

/// The constraints of up to four pairs (`used` lanes; the rest repeat the first one and are
/// never written back), appended to `bundles` and their points to `points`.
fn prepare_bundle(
    input: [&PrepareInput<f32>; LANES],
    used: usize,
    pairs: &[ContactPair<f32, 3>],
    bodies: &[SolverBody<f32, 3>],
    states: &[BodyState<f32, 3>],
    spare: u32,
    bundles: &mut Vec<Bundle>,
    points: &mut Vec<WidePoint>,
) {
    let zero = W::splat(0.0);
    let one = W::splat(1.0);
    let in_use = |l: usize| l < used;
    let m = input.map(|i| &pairs[i.pair as usize].manifold);
    let (a_at, b_at) = (input.map(|i| i.a), input.map(|i| i.b));
    let ba = PrepBody::gather(bodies, states, a_at);
    let bb = PrepBody::gather(bodies, states, b_at);
    let normal = vector(&m, |m| m.normal);
    let t: [[Vec3<f32>; 2]; LANES] = m.map(|m| Dim::<3>::tangents(&m.normal));
    let t = [&t[0], &t[1], &t[2], &t[3]];
    let tangents = [vector(&t, |t| t[0]), vector(&t, |t| t[1])];
    let count = (0..used).map(|l| m[l].len()).max().unwrap_or(0);
    let first = points.len() as u32;
    let missing = Contact::default();
    // A row's arms `[r_A × dir, r_B × dir]` and turns (the arms through the applied inverse
    // inertias), and its effective mass (from the stored inverse masses).
    let arms = |r_a: &V, r_b: &V, dir: &V| {
        let arm = [cross(r_a, dir), cross(r_b, dir)];
        let turn =
            [apply(&ba.applied_inv_inertia, &arm[0]), apply(&bb.applied_inv_inertia, &arm[1])];
        (arm, turn)
    };
    let effective_mass = |arm: &[V; 2], turn: &[V; 2]| {
        let k = ba.inv_mass + bb.inv_mass + dot(&arm[0], &turn[0]) + dot(&arm[1], &turn[1]);
        k.simd_gt(zero).select(one / k, zero)
    };
    // Every pair of a step shares the warm-start setting.
    let warm = input[0].warm_start;
    let half = W::splat(0.5);
    let contact = |i: usize| -> [&Contact<f32, 3, ContactImpulse<f32>>; LANES] {
        core::array::from_fn(|l| m[l].contacts().get(i).unwrap_or(&missing))
    };
    let exists = |i: usize| mask(core::array::from_fn(|l| in_use(l) && i < m[l].len()));
    // The points' midpoints, and their centroid: the friction patch's centre (a missing point
    // adds zero, which leaves each lane's sum as the scalar's).
    let mut mids = [[zero; 3]; 4];
    let mut sum = [zero; 3];
    for (i, mid) in mids.iter_mut().enumerate().take(count) {
        let c = contact(i);
        let (pa, pb) = (vector(&c, |c| c.point_a.coords), vector(&c, |c| c.point_b.coords));
        *mid = core::array::from_fn(|k| (pa[k] + pb[k]) * half);
        let e = exists(i);
        for k in 0..3 {
            sum[k] += e.select(mid[k], zero);
        }
    }
    let n = W::new(m.map(|m| m.len() as f32));
    let centre: V = sum.map(|x| x / n);
    let mut patch_impulse = [zero; 3];
    for (i, mid) in mids.iter().enumerate().take(count) {
        let c = contact(i);
        let exists = exists(i);
        let keep = |x: W| exists.select(x, zero);
        let keep_v = |v: V| v.map(keep);
        let r_a = sub(mid, &ba.center);
        let r_b = sub(mid, &bb.center);
        // v + ω × r for each body.
        let wa = cross(&ba.w, &r_a);
        let wb = cross(&bb.w, &r_b);
        let va: V = core::array::from_fn(|k| ba.v[k] + wa[k]);
        let vb: V = core::array::from_fn(|k| bb.v[k] + wb[k]);
        let dv = sub(&vb, &va);
        let (normal_arm, normal_turn) = arms(&r_a, &r_b, &normal);
        let warm_of = |f: fn(&ContactImpulse<f32>) -> f32| {
            if warm { keep(gather(&c, |c| f(&c.user))) } else { zero }
        };
        patch_impulse[0] += warm_of(|u| u.tangent[0]);
        patch_impulse[1] += warm_of(|u| u.tangent[1]);
        patch_impulse[2] += warm_of(|u| u.twist);
        let off = sub(mid, &centre);
        points.push(WidePoint {
            exists,
            r_a: keep_v(r_a),
            r_b: keep_v(r_b),
            adjusted_separation: keep(
                gather(&c, |c| c.separation) - dot(&sub(&r_b, &r_a), &normal),
            ),
            normal_mass: keep(effective_mass(&normal_arm, &normal_turn)),
            normal_impulse: warm_of(|u| u.normal),
            max_normal_impulse: zero,
            relative_velocity: keep(dot(&normal, &dv)),
            separation: zero,
            normal_arm: normal_arm.map(keep_v),
            normal_turn: normal_turn.map(keep_v),
            twist_arm: keep(dot(&off, &off).sqrt()),
        });
    }
    // The patch rows (the scalar `patch`).
    let (r_a, r_b) = (sub(&centre, &ba.center), sub(&centre, &bb.center));
    let rows = [arms(&r_a, &r_b, &tangents[0]), arms(&r_a, &r_b, &tangents[1])];
    let twist_turn =
        [apply(&ba.applied_inv_inertia, &normal), apply(&bb.applied_inv_inertia, &normal)];
    let k = dot(&normal, &twist_turn[0]) + dot(&normal, &twist_turn[1]);

    // The scalar `block_inverse`, where a lane has exactly two points (with the stored inverse
    // masses and inertias).
    let two = mask(core::array::from_fn(|l| in_use(l) && m[l].len() == 2));
    let mut block = zero.simd_gt(zero);
    let mut k_inv = [zero; 3];
    let mut k_diag = [zero; 2];
    if count >= 2 && two.any() {
        let (p0, p1) = (&points[first as usize], &points[first as usize + 1]);
        let ang = |inv_inertia: &M, r1: &V, r2: &V| {
            dot(&cross(r1, &normal), &apply(inv_inertia, &cross(r2, &normal)))
        };
        let mass = ba.inv_mass + bb.inv_mass;
        let (ia, ib) = (&ba.inv_inertia, &bb.inv_inertia);
        let k11 = mass + ang(ia, &p0.r_a, &p0.r_a) + ang(ib, &p0.r_b, &p0.r_b);
        let k22 = mass + ang(ia, &p1.r_a, &p1.r_a) + ang(ib, &p1.r_b, &p1.r_b);
        let k12 = mass + ang(ia, &p0.r_a, &p1.r_a) + ang(ib, &p0.r_b, &p1.r_b);
        let det = k11 * k22 - k12 * k12;
        block = two & det.simd_gt(zero) & !(k11 * k11).simd_ge(W::splat(1000.0) * det);
        let inv = one / det;
        let on = |x: W| block.select(x, zero);
        k_inv = [on(k22 * inv), on(-k12 * inv), on(k11 * inv)];
        k_diag = [on(k11), on(k22)];
    }
    bundles.push(Bundle {
        a: a_at,
        b: b_at,
        pair: input.map(|i| i.pair),
        used: used as u8,
        write_a: core::array::from_fn(|l| {
            if in_use(l) && bodies[a_at[l] as usize].dynamic { a_at[l] } else { spare }
        }),
        write_b: core::array::from_fn(|l| {
            if in_use(l) && bodies[b_at[l] as usize].dynamic { b_at[l] } else { spare }
        }),
        first,
        count: count as u8,
        has_block: block,
        normal,
        tangents,
        friction: gather(&input, |i| i.friction),
        restitution: gather(&input, |i| i.restitution),
        bias_rate: gather(&input, |i| i.softness.bias_rate),
        mass_scale: gather(&input, |i| i.softness.mass_scale),
        impulse_scale: gather(&input, |i| i.softness.impulse_scale),
        inv_mass_a: ba.applied_inv_mass,
        inv_mass_b: bb.applied_inv_mass,
        k_inv,
        k_diag,
        tangent_arm: rows.map(|(arm, _)| arm),
        tangent_turn: rows.map(|(_, turn)| turn),
        tangent_mass: rows.map(|(arm, turn)| effective_mass(&arm, &turn)),
        tangent_impulse: [patch_impulse[0], patch_impulse[1]],
        twist_turn,
        twist_mass: k.simd_gt(zero).select(one / k, zero),
        twist_impulse: patch_impulse[2],
    });
}

/// The scalar `restitution` pass on the bundles: points that approached faster than `threshold`
/// and pushed bounce back with `e ×` their approach speed.
pub(crate) fn restitution(slots: &mut [Slot], packed: &mut Bundles, threshold: f32) {
    let zero = W::splat(0.0);
    let Bundles { bundles, points, .. } = packed;
    for bundle in bundles.iter() {
        let pts = &mut points[bundle.first as usize..][..bundle.count as usize];
        let bouncing = |p: &WidePoint| {
            p.exists
                & !bundle.restitution.simd_eq(zero)
                & !p.relative_velocity.simd_gt(W::splat(-threshold))
                & !p.max_normal_impulse.simd_eq(zero)
        };
        if pts.iter().all(|p| bouncing(p).none()) {
            continue;
        }
        let mut a = WideBody::load(slots, &bundle.a);
        let mut b = WideBody::load(slots, &bundle.b);
        for p in pts.iter_mut() {
            let m = bouncing(p);
            let vn = row_velocity(&a, &b, &bundle.normal, &p.normal_arm);
            let impulse = -p.normal_mass * (vn + bundle.restitution * p.relative_velocity);
            let new = max(p.normal_impulse + impulse, zero);
            let delta = new - p.normal_impulse;
            p.normal_impulse = m.select(new, p.normal_impulse);
            p.max_normal_impulse = m.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
            apply_row(
                bundle,
                &mut a,
                &mut b,
                &bundle.normal,
                &p.normal_turn,
                m.select(delta, zero),
            );
        }
        a.store(slots, &bundle.write_a);
        b.store(slots, &bundle.write_b);
    }
}

/// Writes the accumulated impulses into the pairs' manifolds (for next step's warm start), as
/// the scalar path does from its points.
pub(crate) fn store_impulses(packed: &Bundles, pairs: &mut [ContactPair<f32, 3>]) {
    for b in &packed.bundles {
        let wide_points = &packed.points[b.first as usize..][..b.count as usize];
        for l in 0..b.used as usize {
            let m = &mut pairs[b.pair[l] as usize].manifold;
            // Each contact keeps an equal share of the patch impulses (the scalar
            // `stored_impulse`).
            let share = m.len() as f32;
            let tangent = b.tangent_impulse.map(|t| t.to_array()[l] / share);
            let twist = b.twist_impulse.to_array()[l] / share;
            for (contact, wp) in m.contacts_mut().iter_mut().zip(wide_points) {
                contact.user =
                    ContactImpulse { normal: wp.normal_impulse.to_array()[l], tangent, twist };
            }
        }
    }
}

/// `a · b` summed as nalgebra sums a 3-vector dot product.
#[inline(always)]
fn dot(a: &V, b: &V) -> W {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `a × b`, as nalgebra's cross product.
#[inline(always)]
fn cross(a: &V, b: &V) -> V {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// A unit quaternion `(i, j, k, w)` applied to a vector, as nalgebra's `UnitQuaternion * Vector3`.
#[inline(always)]
fn rotate(q: &[W; 4], r: &V) -> V {
    let qv = [q[0], q[1], q[2]];
    let two = W::splat(2.0);
    let c = cross(&qv, r);
    let t = [c[0] * two, c[1] * two, c[2] * two];
    let u = cross(&qv, &t);
    core::array::from_fn(|k| t[k] * q[3] + u[k] + r[k])
}

/// `(v_B − v_A)·dir + ω_B·arm_B − ω_A·arm_A`, as the scalar `row_velocity`.
#[inline(always)]
fn row_velocity(a: &WideBody, b: &WideBody, dir: &V, arm: &[V; 2]) -> W {
    let dv = [b.v[0] - a.v[0], b.v[1] - a.v[1], b.v[2] - a.v[2]];
    dot(&dv, dir) + dot(&b.w, &arm[1]) - dot(&a.w, &arm[0])
}

/// Applies `impulse·dir` to B and its opposite to A, as the scalar `apply_row`. A lane that
/// must not change gets a zero impulse.
#[inline(always)]
fn apply_row(
    bundle: &Bundle,
    a: &mut WideBody,
    b: &mut WideBody,
    dir: &V,
    turn: &[V; 2],
    impulse: W,
) {
    for k in 0..3 {
        let p = dir[k] * impulse;
        a.v[k] -= p * bundle.inv_mass_a;
        a.w[k] -= turn[0][k] * impulse;
        b.v[k] += p * bundle.inv_mass_b;
        b.w[k] += turn[1][k] * impulse;
    }
}

/// Applies the twist impulse `λ` about the normal: `−λ n` to A's spin, `+λ n` to B's, as the
/// scalar `apply_twist`.
#[inline(always)]
fn apply_twist(bundle: &Bundle, a: &mut WideBody, b: &mut WideBody, impulse: W) {
    for k in 0..3 {
        a.w[k] -= bundle.twist_turn[0][k] * impulse;
        b.w[k] += bundle.twist_turn[1][k] * impulse;
    }
}

/// The current separation of a point from the motion since the step started.
#[inline(always)]
fn separation(bundle: &Bundle, a: &Motion, b: &Motion, p: &WidePoint) -> W {
    let pa = rotate(&a.dq, &p.r_a);
    let pb = rotate(&b.dq, &p.r_b);
    let d: V = core::array::from_fn(|k| (b.dp[k] - a.dp[k]) + (pb[k] - pa[k]));
    dot(&d, &bundle.normal) + p.adjusted_separation
}

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start(slots: &mut [Slot], packed: &Bundles) {
    for bundle in &packed.bundles {
        let mut a = WideBody::load(slots, &bundle.a);
        let mut b = WideBody::load(slots, &bundle.b);
        // Missing points hold zero impulses.
        for p in &packed.points[bundle.first as usize..][..bundle.count as usize] {
            apply_row(bundle, &mut a, &mut b, &bundle.normal, &p.normal_turn, p.normal_impulse);
        }
        for t in 0..2 {
            let (dir, turn) = (&bundle.tangents[t], &bundle.tangent_turn[t]);
            apply_row(bundle, &mut a, &mut b, dir, turn, bundle.tangent_impulse[t]);
        }
        apply_twist(bundle, &mut a, &mut b, bundle.twist_impulse);
        a.store(slots, &bundle.write_a);
        b.store(slots, &bundle.write_b);
    }
}

/// One pass over the bundles, as the scalar `solve`.
///
/// A point's separation depends only on the bodies' motion since the step started, which
/// changes when positions are integrated, not within a pass. With `moved` the pass computes
/// every separation and stores it with the point; without, it reuses the stored ones: the relax
/// pass of one substep and the soft pass of the next see the same positions.
pub(crate) fn solve(slots: &mut [Slot], packed: &mut Bundles, pass: Pass<f32>, moved: bool) {
    let Bundles { bundles, points, .. } = packed;
    if pass.reverse {
        for bundle in bundles.iter_mut().rev() {
            let pts = &mut points[bundle.first as usize..][..bundle.count as usize];
            solve_bundle(slots, bundle, pts, pass, moved);
        }
    } else {
        for bundle in bundles.iter_mut() {
            let pts = &mut points[bundle.first as usize..][..bundle.count as usize];
            solve_bundle(slots, bundle, pts, pass, moved);
        }
    }
}

#[inline(always)]
fn solve_bundle(
    slots: &mut [Slot],
    bundle: &mut Bundle,
    pts: &mut [WidePoint],
    pass: Pass<f32>,
    moved: bool,
) {
    let Pass { inv_h, max_push, slop, use_bias, index, .. } = pass;
    let zero = W::splat(0.0);
    let one = W::splat(1.0);
    let mut a = WideBody::load(slots, &bundle.a);
    let mut b = WideBody::load(slots, &bundle.b);
    let count = pts.len();
    // The bodies' motion since the step started does not change within a pass, so every
    // point's separation is computed once, up front (or reused, see `solve`).
    if moved {
        let (ma, mb) = (Motion::load(slots, &bundle.a), Motion::load(slots, &bundle.b));
        for p in pts.iter_mut() {
            p.separation = separation(bundle, &ma, &mb, p);
        }
    }
    let mut s = [zero; 4];
    for (s, p) in s.iter_mut().zip(pts.iter()) {
        *s = p.separation;
    }
    let (bias_rate, neg_push, slop) = (bundle.bias_rate, W::splat(-max_push), W::splat(slop));
    let soft_bias =
        |s: W| if use_bias { max(bias_rate * min(s + slop, zero), neg_push) } else { zero };
    let (ms, is) = if use_bias { (bundle.mass_scale, bundle.impulse_scale) } else { (one, zero) };

    // Two-point manifolds: both normal impulses at once (the scalar `solve_block`).
    let mut block = zero.simd_gt(zero);
    if count == 2 && bundle.has_block.any() {
        let rhs0 = row_velocity(&a, &b, &bundle.normal, &pts[0].normal_arm) + soft_bias(s[0]);
        let rhs1 = row_velocity(&a, &b, &bundle.normal, &pts[1].normal_arm) + soft_bias(s[1]);
        let (l0, l1) = (pts[0].normal_impulse, pts[1].normal_impulse);
        let e0 = ms * rhs0 + is * bundle.k_diag[0] * l0;
        let e1 = ms * rhs1 + is * bundle.k_diag[1] * l1;
        let d0 = -(bundle.k_inv[0] * e0 + bundle.k_inv[1] * e1);
        let d1 = -(bundle.k_inv[1] * e0 + bundle.k_inv[2] * e1);
        let (n0, n1) = (l0 + d0, l1 + d1);
        // The block holds where both points touch (not speculative) and both impulses push.
        block = bundle.has_block
            & !s[0].simd_gt(zero)
            & !s[1].simd_gt(zero)
            & !n0.simd_lt(zero)
            & !n1.simd_lt(zero);
        for (p, (new, delta)) in pts.iter_mut().zip([(n0, d0), (n1, d1)]) {
            p.normal_impulse = block.select(new, p.normal_impulse);
            p.max_normal_impulse =
                block.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
            let turn = &p.normal_turn;
            apply_row(bundle, &mut a, &mut b, &bundle.normal, turn, block.select(delta, zero));
        }
    }

    // The other lanes: point by point. Manifolds of three or more points start at point
    // `pass mod count` (every lane of such a bundle has `count` points).
    let lead = if count > 2 { index % count } else { 0 };
    for i in 0..count {
        let k = if i + lead < count { i + lead } else { i + lead - count };
        let s = s[k];
        let p = &mut pts[k];
        let m = !block & p.exists;
        if m.none() {
            continue;
        }
        let vn = row_velocity(&a, &b, &bundle.normal, &p.normal_arm);
        let spec = s.simd_gt(zero);
        let bias = spec.select(s * W::splat(inv_h), soft_bias(s));
        let mass_scale = spec.select(one, ms);
        let impulse_scale = spec.select(zero, is);
        let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
        let new = max(p.normal_impulse + impulse, zero);
        let delta = new - p.normal_impulse;
        let approach = m & delta.simd_gt(zero);
        p.relative_velocity = approach.select(min(p.relative_velocity, vn), p.relative_velocity);
        p.normal_impulse = m.select(new, p.normal_impulse);
        p.max_normal_impulse = m.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
        apply_row(bundle, &mut a, &mut b, &bundle.normal, &p.normal_turn, m.select(delta, zero));
    }

    // Friction on the whole manifold (the scalar `solve_patch`): both tangents from the same
    // velocities, the pair scaled back onto the Coulomb disc of the summed normal impulses,
    // then the twist clamped to their summed torque. Missing points add zero.
    let mut pushed = zero;
    let mut torque = zero;
    for p in pts.iter() {
        pushed += p.normal_impulse;
        torque += p.normal_impulse * p.twist_arm;
    }
    let max_f = bundle.friction * pushed;
    let mut new = [zero; 2];
    let mut len2 = zero;
    for (t, x) in new.iter_mut().enumerate() {
        let vt = row_velocity(&a, &b, &bundle.tangents[t], &bundle.tangent_arm[t]);
        *x = bundle.tangent_impulse[t] - bundle.tangent_mass[t] * vt;
        len2 += *x * *x;
    }
    let over = len2.simd_gt(max_f * max_f);
    // Sliding is the exception in a pile: the square root and division only when a lane
    // needs them.
    if over.any() {
        let scale = max_f / len2.sqrt();
        for x in &mut new {
            *x = over.select(*x * scale, *x);
        }
    }
    for (t, &x) in new.iter().enumerate() {
        let delta = x - bundle.tangent_impulse[t];
        apply_row(bundle, &mut a, &mut b, &bundle.tangents[t], &bundle.tangent_turn[t], delta);
    }
    bundle.tangent_impulse = new;
    let n = &bundle.normal;
    let spin = dot(&b.w, n) - dot(&a.w, n);
    let max_t = bundle.friction * torque;
    let x = bundle.twist_impulse - bundle.twist_mass * spin;
    // `x < −max_t ? −max_t : x`, then `low > max_t ? max_t : low` (NaNs as the scalar).
    let low = (-max_t).fast_max(x);
    let new = max_t.fast_min(low);
    let delta = new - bundle.twist_impulse;
    bundle.twist_impulse = new;
    apply_twist(bundle, &mut a, &mut b, delta);

    a.store(slots, &bundle.write_a);
    b.store(slots, &bundle.write_b);
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso3, Vec3};
    use kollide_shapes::{Ball, Capsule, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::{BodyDesc, StepSettings, World3};

    /// Every body's pose and velocities.
    fn state(w: &World3<f32>) -> Vec<f32> {
        w.bodies()
            .flat_map(|(_, b)| {
                let (p, v, o) = (b.pose(), b.linear_velocity(), b.angular_velocity());
                let (t, q) = (p.translation.vector, p.rotation.coords);
                [t.x, t.y, t.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, o.x, o.y, o.z]
            })
            .collect()
    }

    /// Square layers of unit cubes, `base` on a side at the bottom.
    fn pyramid(base: usize) -> World3<f32> {
        let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
        let ground = Cuboid::new(Vec3::new(50.0, 0.5, 50.0)).unwrap();
        w.add(BodyDesc::fixed(ground).pose(Iso3::translation(0.0, -0.5, 0.0))).unwrap();
        for layer in 0..base {
            let n = base - layer;
            for i in 0..n {
                for j in 0..n {
                    let x = i as f32 - n as f32 / 2.0 + 0.5;
                    let z = j as f32 - n as f32 / 2.0 + 0.5;
                    let cube = Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
                    let pose = Iso3::translation(x, 0.5 + layer as f32, z);
                    w.add(BodyDesc::dynamic(cube).pose(pose)).unwrap();
                }
            }
        }
        w
    }

    /// Boxes, balls and capsules with random poses, velocities, friction and restitution
    /// dropped into a box: manifolds of one to four points, speculative contacts, bounces.
    fn jumble(seed: u64) -> World3<f32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = World3::new(Vec3::new(0.0, -9.81, 0.0)).unwrap();
        let wall = |h: Vec3<f32>, p: Vec3<f32>| {
            BodyDesc::fixed(Cuboid::new(h).unwrap()).pose(Iso3::translation(p.x, p.y, p.z))
        };
        w.add(wall(Vec3::new(20.0, 0.5, 20.0), Vec3::new(0.0, -0.5, 0.0))).unwrap();
        w.add(wall(Vec3::new(0.5, 10.0, 5.0), Vec3::new(-4.0, 10.0, 0.0))).unwrap();
        w.add(wall(Vec3::new(0.5, 10.0, 5.0), Vec3::new(4.0, 10.0, 0.0))).unwrap();
        w.add(wall(Vec3::new(5.0, 10.0, 0.5), Vec3::new(0.0, 10.0, -4.0))).unwrap();
        w.add(wall(Vec3::new(5.0, 10.0, 0.5), Vec3::new(0.0, 10.0, 4.0))).unwrap();
        for i in 0..60 {
            let mut r = |lo: f32, hi: f32| rng.random_range(lo..hi);
            let desc = match i % 3 {
                0 => BodyDesc::dynamic(Ball::<f32, 3>::new(r(0.1, 0.5)).unwrap()),
                1 => {
                    let h = Vec3::new(r(0.1, 0.6), r(0.1, 0.6), r(0.1, 0.6));
                    BodyDesc::dynamic(Cuboid::new(h).unwrap())
                }
                _ => {
                    let capsule = Capsule::<f32, 3>::new_axis(r(0.1, 0.4), r(0.05, 0.3));
                    BodyDesc::dynamic(capsule.unwrap())
                }
            };
            let t = Vec3::new(r(-3.0, 3.0), r(1.0, 15.0), r(-3.0, 3.0));
            let axis = Vec3::new(r(-3.0, 3.0), r(-3.0, 3.0), r(-3.0, 3.0));
            let v = Vec3::new(r(-5.0, 5.0), r(-10.0, 5.0), r(-5.0, 5.0));
            let desc = desc.pose(Iso3::new(t, axis)).linear_velocity(v).restitution(r(0.0, 0.6));
            w.add(desc.friction(r(0.0, 1.0))).unwrap();
        }
        w
    }

    fn same_with_and_without_simd(make: impl Fn() -> World3<f32>, steps: usize) {
        crate::wide::testing::same_with_and_without_simd(make, state, steps);
    }

    /// The physics tests run in `f64` (the scalar loop); this is the `f32` stack on the SIMD
    /// path: ten cubes for 10 s, the top one within 1 mm of its column.
    #[test]
    fn simd_stack_of_ten_cubes_stands() {
        let mut w = pyramid(0);
        let cube = || Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).unwrap();
        let top = (0..10)
            .map(|i| {
                let pose = Iso3::translation(0.0, 0.5 + i as f32, 0.0);
                w.add(BodyDesc::dynamic(cube()).pose(pose)).unwrap()
            })
            .last()
            .unwrap();
        for _ in 0..600 {
            w.step(1.0 / 60.0).unwrap();
        }
        let t = w.body(top).unwrap().pose().translation.vector;
        let drift = (t.x * t.x + t.z * t.z).sqrt();
        assert!(drift < 1e-3, "drifted {drift} m");
        assert!(9.5 - t.y < 0.05, "sank {} m", 9.5 - t.y);
    }

    #[test]
    fn simd_matches_the_scalar_solver_on_a_pyramid() {
        same_with_and_without_simd(|| pyramid(6), 200);
    }

    #[test]
    fn simd_matches_the_scalar_solver_on_a_jumble() {
        for seed in 0..3 {
            same_with_and_without_simd(|| jumble(seed), 300);
        }
    }

    #[test]
    fn simd_matches_the_scalar_solver_without_warm_starting_and_with_bounces() {
        let make = || {
            let mut w = jumble(7);
            let settings =
                StepSettings { warm_starting: false, restitution_threshold: 0.2, ..*w.settings() };
            w.set_settings(settings).unwrap();
            w
        };
        same_with_and_without_simd(make, 300);
    }
}
