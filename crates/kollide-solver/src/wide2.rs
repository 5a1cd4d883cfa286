//! The 2D `f32` contact solver on four constraints at once (SIMD).
//!
//! Sequential impulses spend their time on a short chain of arithmetic per contact row. The
//! constraints of one *wave* (see `World::step`) share no dynamic body, so any four of them can
//! be solved side by side: this module builds them straight into [`Bundle`]s whose every number
//! is an `f32x4` (one lane per constraint, structure of arrays), so that each line below is one
//! SIMD instruction for four rows. Box2D v3 does the same with graph colouring.
//!
//! The whole contact part of a step runs here: `prepare` (the scalar `prepare`, four manifolds at
//! a time), warm starting, the solve and relax passes, the restitution pass, and writing the
//! impulses back into the manifolds. Bodies live in [`Slot`]s for the duration: two aligned rows
//! of four numbers each, so that the four bodies of a bundle load with eight vector loads and two
//! 4×4 transposes, and store with one transpose and four vector stores (lanes that must not
//! write, static and kinematic bodies and unused lanes, write to a spare slot instead).
//!
//! **Same answers.** Each lane performs exactly the scalar solver's operations
//! (`contact_solver.rs`) in the same order, with no fused multiply-adds, and branches become
//! selects. Constraints of one wave commute, so solving them four at a time, in any order within
//! the wave, leaves the same state as solving them one by one: the tests step worlds both ways
//! and compare every number of every body. The one difference is the sign of a zero: where the
//! scalar loop skips a row, a lane applies a zero impulse (`v − 0·m`), which can turn a velocity
//! of `−0.0` into `+0.0`. Unused lanes (the last bundle of a wave) repeat a used lane's
//! constraint and are never written back; a missing point (one-point manifolds) has zero mass,
//! arms and impulses, so its rows apply zero.
//!
//! Only 2D `f32` worlds take this path; `f64` and 3D worlds use the scalar loop, which stays the
//! reference.

use kollide_math::{Rot2, Vec2};

use kollide_manifold::Contact;

use crate::contact_solver::{self as cs, BodyState, Pass, PrepareInput, SolverBody};
use crate::wide::{self, LANES, W, gather, mask, max, min};
use crate::{ContactImpulse, ContactPair};

/// One contact point of four constraints.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WidePoint {
    /// Lanes whose constraint has this point (a mask).
    exists: W,
    r_a: [W; 2],
    r_b: [W; 2],
    adjusted_separation: W,
    normal_mass: W,
    tangent_mass: W,
    normal_impulse: W,
    tangent_impulse: W,
    max_normal_impulse: W,
    relative_velocity: W,
}

/// Four constraints of one wave (fewer in a wave's last bundle).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bundle {
    /// Body (slot) indices; unused lanes repeat lane 0's bodies.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Where each lane's bodies are written: their own slots for dynamic bodies, the spare
    /// slot for the rest (and for unused lanes).
    write_a: [u32; LANES],
    write_b: [u32; LANES],
    /// Index of each lane's pair in the world's pair list.
    pair: [u32; LANES],
    used: u8,
    has_block: W,
    normal: [W; 2],
    friction: W,
    restitution: W,
    bias_rate: W,
    mass_scale: W,
    impulse_scale: W,
    inv_mass_a: W,
    inv_mass_b: W,
    /// Inverse inertias (zero for bodies that do not respond to impulses).
    inv_inertia_a: W,
    inv_inertia_b: W,
    /// `K⁻¹` (symmetric): its entries 00, 01 (= 10) and 11.
    k_inv: [W; 3],
    k_diag: [W; 2],
    points: [WidePoint; 2],
    /// The points' separations as the last relax pass computed them.
    separation: [W; 2],
}

/// A body's state as the SIMD loops keep it: two rows of four numbers, `(v.x, v.y, ω, 0)` and
/// `(dp.x, dp.y, cos dq, sin dq)`, so that four bodies load as eight aligned rows and one 4×4
/// transpose per row turns them into lanes. The solver keeps one slot per body and one spare
/// slot at the end that takes the writes of lanes that must not write.
pub(crate) type Slot = [W; 2];

/// Copies the body states into slots (plus the spare slot).
pub(crate) fn to_slots(states: &[BodyState<f32, 2>], slots: &mut Vec<Slot>) {
    slots.clear();
    slots.extend(
        states.iter().map(|s| {
            [W::new([s.v.x, s.v.y, s.w, 0.0]), W::new([s.dp.x, s.dp.y, s.dq.re, s.dq.im])]
        }),
    );
    slots.push([W::splat(0.0); 2]);
}

/// One slot as a body state.
#[inline(always)]
fn state_of(slot: &Slot) -> BodyState<f32, 2> {
    let ([vx, vy, w, _], [dx, dy, c, s]) = (slot[0].to_array(), slot[1].to_array());
    BodyState {
        v: Vec2::new(vx, vy),
        w,
        dp: Vec2::new(dx, dy),
        dq: Rot2::from_cos_sin_unchecked(c, s),
    }
}

/// Copies the slots back into the body states.
pub(crate) fn from_slots(slots: &[Slot], states: &mut [BodyState<f32, 2>]) {
    for (s, slot) in states.iter_mut().zip(slots) {
        *s = state_of(slot);
    }
}

/// The scalar `integrate_velocities` on slots (the same arithmetic: the same per-body routine).
pub(crate) fn integrate_velocities(
    slots: &mut [Slot],
    bodies: &[SolverBody<f32, 2>],
    gravity: &Vec2<f32>,
    h: f32,
) {
    let limits = cs::SpeedLimits::for_substep(h);
    for (slot, b) in slots.iter_mut().zip(bodies).filter(|(_, b)| b.dynamic) {
        let mut s = state_of(slot);
        cs::integrate_velocity(&mut s, b, gravity, h, &limits);
        slot[0] = W::new([s.v.x, s.v.y, s.w, 0.0]);
    }
}

/// The scalar `integrate_positions` on slots.
pub(crate) fn integrate_positions(slots: &mut [Slot], bodies: &mut [SolverBody<f32, 2>], h: f32) {
    for (slot, b) in slots.iter_mut().zip(bodies.iter_mut()).filter(|(_, b)| b.moves) {
        let mut s = state_of(slot);
        cs::integrate_position(&mut s, b, h);
        slot[1] = W::new([s.dp.x, s.dp.y, s.dq.re, s.dq.im]);
    }
}

/// A body's velocity state in four lanes.
struct WideBody {
    v: [W; 2],
    w: W,
    dp: [W; 2],
    /// Rotation since the step started: cosine and sine.
    dq: [W; 2],
}

impl WideBody {
    /// The velocities of four bodies (`dp` and `dq` left zero).
    #[inline(always)]
    fn load_velocity(slots: &[Slot], index: &[u32; LANES]) -> Self {
        let s = index.map(|i| &slots[i as usize]);
        let [vx, vy, w, _] = W::transpose([s[0][0], s[1][0], s[2][0], s[3][0]]);
        let zero = W::splat(0.0);
        Self { v: [vx, vy], w, dp: [zero; 2], dq: [zero; 2] }
    }

    /// The whole state of four bodies.
    #[inline(always)]
    fn load(slots: &[Slot], index: &[u32; LANES]) -> Self {
        let s = index.map(|i| &slots[i as usize]);
        let [vx, vy, w, _] = W::transpose([s[0][0], s[1][0], s[2][0], s[3][0]]);
        let [dx, dy, c, sn] = W::transpose([s[0][1], s[1][1], s[2][1], s[3][1]]);
        Self { v: [vx, vy], w, dp: [dx, dy], dq: [c, sn] }
    }

    /// Writes the velocities back, lane `l` to slot `to[l]` (the spare slot for lanes that
    /// must not write).
    #[inline(always)]
    fn store(&self, slots: &mut [Slot], to: &[u32; LANES]) {
        let rows = W::transpose([self.v[0], self.v[1], self.w, W::splat(0.0)]);
        for l in 0..LANES {
            slots[to[l] as usize][0] = rows[l];
        }
    }
}

/// Builds the bundles: the scalar `prepare` of every constraint (`inputs`, in wave order,
/// `waves[k]` the wave of `inputs[k]`), four at a time in lanes, with the same arithmetic in
/// the same order. `spare` is the spare slot's index.
///
/// Within a wave the order is free (its constraints share no dynamic body, so they commute), and
/// the packing uses that: constraints that will most likely take the two-point block solve (two
/// touching points that pushed last step) are bundled together, and the rest together, so that
/// most bundles run only one of the two normal solves of `solve_bundle`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prepare(
    inputs: &[PrepareInput<f32>],
    waves: &[u32],
    pairs: &[ContactPair<f32, 2>],
    bodies: &[SolverBody<f32, 2>],
    states: &[BodyState<f32, 2>],
    spare: u32,
    classes: &mut Vec<u8>,
    order: &mut Vec<u32>,
    bundles: &mut Vec<Bundle>,
) {
    bundles.clear();
    // Class 0: two points that touched and pushed last step (likely block solves); class 1:
    // the rest.
    classes.clear();
    classes.extend(inputs.iter().map(|input| {
        let m = &pairs[input.pair as usize].manifold;
        let block = m.len() == 2
            && m.contacts()
                .iter()
                .all(|c| c.separation <= 0.0 && (!input.warm_start || c.user.normal > 0.0));
        u8::from(!block)
    }));
    wide::group(
        waves,
        |k| classes[k],
        order,
        |g| {
            let input: [&PrepareInput<f32>; LANES] = g.lanes.map(|k| &inputs[k as usize]);
            bundles.push(prepare_bundle(input, g.used, pairs, bodies, states, spare));
        },
    );
}

/// `r × d` in lanes, as `Dim::<2>::cross`.
#[inline(always)]
fn cross(r: &[W; 2], d: &[W; 2]) -> W {
    r[0] * d[1] - r[1] * d[0]
}

/// `a·b` in lanes, as nalgebra's two-component dot product.
#[inline(always)]
fn dot(a: &[W; 2], b: &[W; 2]) -> W {
    a[0] * b[0] + a[1] * b[1]
}

/// A row's arms `[r_A × dir, r_B × dir]` and turns (the arms through the inverse inertias):
/// the scalar prepare's `normal_arm`/`normal_turn` and `tangent_arm`/`tangent_turn`, recomputed
/// from the anchors with the same operations (so the same numbers) instead of stored, which
/// keeps a bundle small enough that the passes over all bundles stay in cache.
#[inline(always)]
fn arms(bundle: &Bundle, p: &WidePoint, dir: &[W; 2]) -> ([W; 2], [W; 2]) {
    let arm = [cross(&p.r_a, dir), cross(&p.r_b, dir)];
    (arm, [bundle.inv_inertia_a * arm[0], bundle.inv_inertia_b * arm[1]])
}

/// `Dim::<2>::tangents`: the normal turned clockwise.
#[inline(always)]
fn tangent(normal: &[W; 2]) -> [W; 2] {
    [normal[1], -normal[0]]
}

/// A body of each lane as `prepare` reads it.
struct PrepBody {
    center: [W; 2],
    v: [W; 2],
    w: W,
    /// Inverse mass and inertia as stored (the effective masses use these) and as applied
    /// (zero unless the body is dynamic).
    inv_mass: W,
    inv_inertia: W,
    applied_inv_mass: W,
    applied_inv_inertia: W,
}

impl PrepBody {
    #[inline(always)]
    fn gather(
        bodies: &[SolverBody<f32, 2>],
        states: &[BodyState<f32, 2>],
        at: [u32; LANES],
    ) -> Self {
        let b = at.map(|i| &bodies[i as usize]);
        let s = at.map(|i| &states[i as usize]);
        let dynamic = mask(b.map(|b| b.dynamic));
        let zero = W::splat(0.0);
        let inv_mass = gather(&b, |b| b.inv_mass);
        let inv_inertia = gather(&b, |b| b.inv_inertia);
        Self {
            center: [gather(&b, |b| b.center.x), gather(&b, |b| b.center.y)],
            v: [gather(&s, |s| s.v.x), gather(&s, |s| s.v.y)],
            w: gather(&s, |s| s.w),
            inv_mass,
            inv_inertia,
            applied_inv_mass: dynamic.select(inv_mass, zero),
            applied_inv_inertia: dynamic.select(inv_inertia, zero),
        }
    }
}

/// `effective_mass` of the scalar solver in lanes.
#[inline(always)]
fn effective_mass(a: &PrepBody, b: &PrepBody, r_a: &[W; 2], r_b: &[W; 2], dir: &[W; 2]) -> W {
    let ca = cross(r_a, dir);
    let cb = cross(r_b, dir);
    let k = a.inv_mass + b.inv_mass + ca * (a.inv_inertia * ca) + cb * (b.inv_inertia * cb);
    k.simd_gt(W::splat(0.0)).select(W::splat(1.0) / k, W::splat(0.0))
}

/// The constraints of up to four pairs (`used` lanes; the rest repeat the first one and are
/// never written back).
fn prepare_bundle(
    input: [&PrepareInput<f32>; LANES],
    used: usize,
    pairs: &[ContactPair<f32, 2>],
    bodies: &[SolverBody<f32, 2>],
    states: &[BodyState<f32, 2>],
    spare: u32,
) -> Bundle {
    let zero = W::splat(0.0);
    let in_use = |l: usize| l < used;
    let m = input.map(|i| &pairs[i.pair as usize].manifold);
    let (a_at, b_at) = (input.map(|i| i.a), input.map(|i| i.b));
    let ba = PrepBody::gather(bodies, states, a_at);
    let bb = PrepBody::gather(bodies, states, b_at);
    let normal = [gather(&m, |m| m.normal.x), gather(&m, |m| m.normal.y)];
    let tangent = tangent(&normal);
    let missing = Contact::default();
    let point = |i: usize| {
        let c: [&Contact<f32, 2, ContactImpulse<f32>>; LANES] =
            core::array::from_fn(|l| m[l].contacts().get(i).unwrap_or(&missing));
        let exists = mask(core::array::from_fn(|l| in_use(l) && i < m[l].len()));
        let keep = |x: W| exists.select(x, zero);
        let warm = |f: fn(&ContactImpulse<f32>) -> f32| {
            // Every pair of a step shares the warm-start setting.
            if input[0].warm_start { gather(&c, |c| f(&c.user)) } else { zero }
        };
        let half = W::splat(0.5);
        // Each lane's two points as one row, then one transpose.
        let [pax, pay, pbx, pby] =
            W::transpose(c.map(|c| W::new([c.point_a.x, c.point_a.y, c.point_b.x, c.point_b.y])));
        let mid = [(pax + pbx) * half, (pay + pby) * half];
        let r_a = [mid[0] - ba.center[0], mid[1] - ba.center[1]];
        let r_b = [mid[0] - bb.center[0], mid[1] - bb.center[1]];
        // v + ω × r for each body (`Dim::<2>::cross_angular`).
        let va = [ba.v[0] + -ba.w * r_a[1], ba.v[1] + ba.w * r_a[0]];
        let vb = [bb.v[0] + -bb.w * r_b[1], bb.v[1] + bb.w * r_b[0]];
        let dv = [vb[0] - va[0], vb[1] - va[1]];
        let rel = [r_b[0] - r_a[0], r_b[1] - r_a[1]];
        WidePoint {
            exists,
            r_a: r_a.map(keep),
            r_b: r_b.map(keep),
            adjusted_separation: keep(gather(&c, |c| c.separation) - dot(&rel, &normal)),
            normal_mass: keep(effective_mass(&ba, &bb, &r_a, &r_b, &normal)),
            tangent_mass: keep(effective_mass(&ba, &bb, &r_a, &r_b, &tangent)),
            normal_impulse: keep(warm(|u| u.normal)),
            tangent_impulse: keep(warm(|u| u.tangent[0])),
            max_normal_impulse: zero,
            relative_velocity: keep(dot(&normal, &dv)),
        }
    };
    let points = [point(0), point(1)];

    // The scalar `block_inverse`, where a lane has two points.
    let [p0, p1] = &points;
    let ang = |inv_inertia: W, r1: &[W; 2], r2: &[W; 2]| {
        cross(r1, &normal) * (inv_inertia * cross(r2, &normal))
    };
    let mass = ba.inv_mass + bb.inv_mass;
    let k11 = mass + ang(ba.inv_inertia, &p0.r_a, &p0.r_a) + ang(bb.inv_inertia, &p0.r_b, &p0.r_b);
    let k22 = mass + ang(ba.inv_inertia, &p1.r_a, &p1.r_a) + ang(bb.inv_inertia, &p1.r_b, &p1.r_b);
    let k12 = mass + ang(ba.inv_inertia, &p0.r_a, &p1.r_a) + ang(bb.inv_inertia, &p0.r_b, &p1.r_b);
    let det = k11 * k22 - k12 * k12;
    let block = p1.exists & det.simd_gt(zero) & !(k11 * k11).simd_ge(W::splat(1000.0) * det);
    let inv = W::splat(1.0) / det;
    let on = |x: W| block.select(x, zero);
    let spare_unless =
        |l: usize, dynamic: bool, at: u32| if in_use(l) && dynamic { at } else { spare };
    Bundle {
        a: a_at,
        b: b_at,
        write_a: core::array::from_fn(|l| {
            spare_unless(l, bodies[a_at[l] as usize].dynamic, a_at[l])
        }),
        write_b: core::array::from_fn(|l| {
            spare_unless(l, bodies[b_at[l] as usize].dynamic, b_at[l])
        }),
        pair: input.map(|i| i.pair),
        used: used as u8,
        has_block: block,
        normal,
        friction: gather(&input, |i| i.friction),
        restitution: gather(&input, |i| i.restitution),
        bias_rate: gather(&input, |i| i.softness.bias_rate),
        mass_scale: gather(&input, |i| i.softness.mass_scale),
        impulse_scale: gather(&input, |i| i.softness.impulse_scale),
        inv_mass_a: ba.applied_inv_mass,
        inv_mass_b: bb.applied_inv_mass,
        inv_inertia_a: ba.applied_inv_inertia,
        inv_inertia_b: bb.applied_inv_inertia,
        k_inv: [on(k22 * inv), on(-k12 * inv), on(k11 * inv)],
        k_diag: [on(k11), on(k22)],
        points,
        separation: [zero; 2],
    }
}

/// The scalar `restitution` pass on the bundles: points that approached faster than `threshold`
/// and pushed bounce back with `e ×` their approach speed.
pub(crate) fn restitution(slots: &mut [Slot], bundles: &mut [Bundle], threshold: f32) {
    let zero = W::splat(0.0);
    for bundle in bundles.iter_mut() {
        let bouncing = |p: &WidePoint| {
            p.exists
                & !bundle.restitution.simd_eq(zero)
                & !p.relative_velocity.simd_gt(W::splat(-threshold))
                & !p.max_normal_impulse.simd_eq(zero)
        };
        let on = [bouncing(&bundle.points[0]), bouncing(&bundle.points[1])];
        if (on[0] | on[1]).none() {
            continue;
        }
        let mut a = WideBody::load_velocity(slots, &bundle.a);
        let mut b = WideBody::load_velocity(slots, &bundle.b);
        for (k, m) in on.into_iter().enumerate() {
            let p = &bundle.points[k];
            let (arm, turn) = arms(bundle, p, &bundle.normal);
            let vn = row_velocity(&a, &b, &bundle.normal, &arm);
            let impulse = -p.normal_mass * (vn + bundle.restitution * p.relative_velocity);
            let new = max(p.normal_impulse + impulse, zero);
            let delta = new - p.normal_impulse;
            let p = &mut bundle.points[k];
            p.normal_impulse = m.select(new, p.normal_impulse);
            p.max_normal_impulse = m.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
            apply_row(bundle, &mut a, &mut b, &bundle.normal, &turn, m.select(delta, zero));
        }
        a.store(slots, &bundle.write_a);
        b.store(slots, &bundle.write_b);
    }
}

/// Writes the accumulated impulses into the pairs' manifolds (for next step's warm start), as
/// the scalar path does from its points.
pub(crate) fn store_impulses(bundles: &[Bundle], pairs: &mut [ContactPair<f32, 2>], warm: bool) {
    for b in bundles {
        for l in 0..b.used as usize {
            let m = &mut pairs[b.pair[l] as usize].manifold;
            for (contact, wp) in m.contacts_mut().iter_mut().zip(&b.points) {
                contact.user.normal = wp.normal_impulse.to_array()[l];
                contact.user.tangent[0] = wp.tangent_impulse.to_array()[l];
                if !warm {
                    // The scalar points start from zero impulses without warm starting.
                    contact.user.tangent[1] = 0.0;
                }
            }
        }
    }
}

/// `(v_B − v_A)·dir + ω_B·arm_B − ω_A·arm_A`, as the scalar `row_velocity`.
#[inline(always)]
fn row_velocity(a: &WideBody, b: &WideBody, dir: &[W; 2], arm: &[W; 2]) -> W {
    (b.v[0] - a.v[0]) * dir[0] + (b.v[1] - a.v[1]) * dir[1] + b.w * arm[1] - a.w * arm[0]
}

/// Applies `impulse·dir` to B and its opposite to A, as the scalar `apply_row`. A lane that
/// must not change gets a zero impulse (which leaves every velocity equal, up to the sign of a
/// zero velocity).
#[inline(always)]
fn apply_row(
    bundle: &Bundle,
    a: &mut WideBody,
    b: &mut WideBody,
    dir: &[W; 2],
    turn: &[W; 2],
    impulse: W,
) {
    let px = dir[0] * impulse;
    let py = dir[1] * impulse;
    a.v[0] -= px * bundle.inv_mass_a;
    a.v[1] -= py * bundle.inv_mass_a;
    a.w -= turn[0] * impulse;
    b.v[0] += px * bundle.inv_mass_b;
    b.v[1] += py * bundle.inv_mass_b;
    b.w += turn[1] * impulse;
}

/// The current separation of a point from the motion since the step started.
#[inline(always)]
fn separation(bundle: &Bundle, a: &WideBody, b: &WideBody, p: &WidePoint) -> W {
    let (ca, sa) = (a.dq[0], a.dq[1]);
    let (cb, sb) = (b.dq[0], b.dq[1]);
    let pax = ca * p.r_a[0] - sa * p.r_a[1];
    let pay = sa * p.r_a[0] + ca * p.r_a[1];
    let pbx = cb * p.r_b[0] - sb * p.r_b[1];
    let pby = sb * p.r_b[0] + cb * p.r_b[1];
    let dx = (b.dp[0] - a.dp[0]) + (pbx - pax);
    let dy = (b.dp[1] - a.dp[1]) + (pby - pay);
    (dx * bundle.normal[0] + dy * bundle.normal[1]) + p.adjusted_separation
}

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start(slots: &mut [Slot], bundles: &[Bundle]) {
    for bundle in bundles {
        let mut a = WideBody::load_velocity(slots, &bundle.a);
        let mut b = WideBody::load_velocity(slots, &bundle.b);
        // Missing points hold zero impulses.
        for p in &bundle.points {
            let t = tangent(&bundle.normal);
            let (_, normal_turn) = arms(bundle, p, &bundle.normal);
            let (_, tangent_turn) = arms(bundle, p, &t);
            apply_row(bundle, &mut a, &mut b, &bundle.normal, &normal_turn, p.normal_impulse);
            apply_row(bundle, &mut a, &mut b, &t, &tangent_turn, p.tangent_impulse);
        }
        a.store(slots, &bundle.write_a);
        b.store(slots, &bundle.write_b);
    }
}

/// One pass over the bundles, as the scalar `solve`.
///
/// `separations` says where the points' current separations come from. They depend only on the
/// positions, which do not change between a substep's relax pass and the next substep's solve
/// pass (only velocities are integrated in between), so the relax pass keeps them in the bundle
/// and the next solve pass reads them back instead of recomputing them.
pub(crate) fn solve(
    slots: &mut [Slot],
    bundles: &mut [Bundle],
    pass: Pass<f32>,
    separations: Separations,
) {
    if pass.reverse {
        for bundle in bundles.iter_mut().rev() {
            solve_bundle(slots, bundle, pass, separations);
        }
    } else {
        for bundle in bundles.iter_mut() {
            solve_bundle(slots, bundle, pass, separations);
        }
    }
}

/// Where a solve pass takes the current separations from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Separations {
    /// Compute them from the bodies' motion since the step started.
    Compute,
    /// Compute them and keep them in the bundles for the next pass.
    ComputeAndKeep,
    /// Read the ones the last pass kept (the positions have not changed since).
    Reuse,
}

#[inline(always)]
fn solve_bundle(
    slots: &mut [Slot],
    bundle: &mut Bundle,
    pass: Pass<f32>,
    separations: Separations,
) {
    let Pass { inv_h, max_push, slop, use_bias, .. } = pass;
    let zero = W::splat(0.0);
    let one = W::splat(1.0);
    let (mut a, mut b, s);
    if separations == Separations::Reuse {
        a = WideBody::load_velocity(slots, &bundle.a);
        b = WideBody::load_velocity(slots, &bundle.b);
        s = bundle.separation;
    } else {
        a = WideBody::load(slots, &bundle.a);
        b = WideBody::load(slots, &bundle.b);
        s = [
            separation(bundle, &a, &b, &bundle.points[0]),
            separation(bundle, &a, &b, &bundle.points[1]),
        ];
        if separations == Separations::ComputeAndKeep {
            bundle.separation = s;
        }
    }
    let (bias_rate, neg_push, slop) = (bundle.bias_rate, W::splat(-max_push), W::splat(slop));
    let soft_bias =
        |s: W| if use_bias { max(bias_rate * min(s + slop, zero), neg_push) } else { zero };
    let (ms, is) = if use_bias { (bundle.mass_scale, bundle.impulse_scale) } else { (one, zero) };

    // Two-point manifolds: both normal impulses at once (the scalar `solve_block`).
    let normal_rows = [
        arms(bundle, &bundle.points[0], &bundle.normal),
        arms(bundle, &bundle.points[1], &bundle.normal),
    ];
    // The block holds where both points are touching (not speculative) and both impulses push;
    // a bundle where no lane can hold (speculative contacts) skips it.
    let touching = bundle.has_block & !s[0].simd_gt(zero) & !s[1].simd_gt(zero);
    let mut block = touching;
    if touching.any() {
        let rhs0 = row_velocity(&a, &b, &bundle.normal, &normal_rows[0].0) + soft_bias(s[0]);
        let rhs1 = row_velocity(&a, &b, &bundle.normal, &normal_rows[1].0) + soft_bias(s[1]);
        let (l0, l1) = (bundle.points[0].normal_impulse, bundle.points[1].normal_impulse);
        let e0 = ms * rhs0 + is * bundle.k_diag[0] * l0;
        let e1 = ms * rhs1 + is * bundle.k_diag[1] * l1;
        let d0 = -(bundle.k_inv[0] * e0 + bundle.k_inv[1] * e1);
        let d1 = -(bundle.k_inv[1] * e0 + bundle.k_inv[2] * e1);
        let (n0, n1) = (l0 + d0, l1 + d1);
        block = touching & !n0.simd_lt(zero) & !n1.simd_lt(zero);
        if block.any() {
            for (k, (new, delta)) in [(n0, d0), (n1, d1)].into_iter().enumerate() {
                let p = &mut bundle.points[k];
                p.normal_impulse = block.select(new, p.normal_impulse);
                p.max_normal_impulse =
                    block.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
                let turn = normal_rows[k].1;
                apply_row(bundle, &mut a, &mut b, &bundle.normal, &turn, block.select(delta, zero));
            }
        }
    }

    // The other lanes: point by point (the scalar loop). The separations are those computed
    // above: the bodies' motion since the step started does not change within a pass.
    for (k, &s) in s.iter().enumerate() {
        let m = !block & bundle.points[k].exists;
        if m.none() {
            continue;
        }
        let p = &bundle.points[k];
        let (arm, turn) = normal_rows[k];
        let vn = row_velocity(&a, &b, &bundle.normal, &arm);
        let spec = s.simd_gt(zero);
        let bias = spec.select(s * W::splat(inv_h), soft_bias(s));
        let mass_scale = spec.select(one, ms);
        let impulse_scale = spec.select(zero, is);
        let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
        let new = max(p.normal_impulse + impulse, zero);
        let delta = new - p.normal_impulse;
        let approach = m & delta.simd_gt(zero);
        let p = &mut bundle.points[k];
        p.relative_velocity = approach.select(min(p.relative_velocity, vn), p.relative_velocity);
        p.normal_impulse = m.select(new, p.normal_impulse);
        p.max_normal_impulse = m.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
        apply_row(bundle, &mut a, &mut b, &bundle.normal, &turn, m.select(delta, zero));
    }

    // Friction: the Coulomb interval. A missing point has zero mass, impulse and arms, so its
    // impulse stays zero without a mask.
    for k in 0..2 {
        let p = &bundle.points[k];
        let max_f = bundle.friction * p.normal_impulse;
        let t = tangent(&bundle.normal);
        let (arm, turn) = arms(bundle, p, &t);
        let vt = row_velocity(&a, &b, &t, &arm);
        let x = p.tangent_impulse - p.tangent_mass * vt;
        // `x < −max_f ? −max_f : x`, then `low > max_f ? max_f : low` (NaNs as the scalar).
        let low = (-max_f).fast_max(x);
        let new = max_f.fast_min(low);
        let delta = new - p.tangent_impulse;
        bundle.points[k].tangent_impulse = new;
        apply_row(bundle, &mut a, &mut b, &t, &turn, delta);
    }

    a.store(slots, &bundle.write_a);
    b.store(slots, &bundle.write_b);
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso2, Point2, Vec2};
    use kollide_shapes::{Capsule, Circle, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::{BodyDesc, StepSettings, World2};

    /// Every body's pose and velocities.
    fn state(w: &World2<f32>) -> Vec<f32> {
        w.bodies()
            .flat_map(|(_, b)| {
                let (p, v) = (b.pose(), b.linear_velocity());
                [p.translation.x, p.translation.y, p.rotation.re, p.rotation.im, v.x, v.y]
                    .into_iter()
                    .chain([b.angular_velocity()])
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn pyramid(base: usize) -> World2<f32> {
        let mut w = World2::new(Vec2::new(0.0, -9.81)).unwrap();
        let ground = Cuboid::new(Vec2::new(50.0, 0.5)).unwrap();
        w.add(BodyDesc::fixed(ground).pose(Iso2::translation(0.0, -0.5))).unwrap();
        for row in 0..base {
            for i in 0..base - row {
                let x = i as f32 - (base - row) as f32 / 2.0 + 0.5;
                let cube = Cuboid::new(Vec2::new(0.5, 0.5)).unwrap();
                let pose = Iso2::translation(x, 0.5 + row as f32);
                w.add(BodyDesc::dynamic(cube).pose(pose)).unwrap();
            }
        }
        w
    }

    /// Boxes, circles and capsules with random poses, velocities, friction and restitution
    /// dropped into a container: one- and two-point manifolds, speculative contacts, bounces.
    fn jumble(seed: u64) -> World2<f32> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut w = World2::new(Vec2::new(0.0, -9.81)).unwrap();
        let wall = |hx: f32, hy: f32, x: f32, y: f32| {
            BodyDesc::fixed(Cuboid::new(Vec2::new(hx, hy)).unwrap()).pose(Iso2::translation(x, y))
        };
        w.add(wall(20.0, 0.5, 0.0, -0.5)).unwrap();
        w.add(wall(0.5, 10.0, -6.0, 10.0)).unwrap();
        w.add(wall(0.5, 10.0, 6.0, 10.0)).unwrap();
        for i in 0..60 {
            let mut r = |lo: f32, hi: f32| rng.random_range(lo..hi);
            let desc = match i % 3 {
                0 => BodyDesc::dynamic(Circle::new(r(0.1, 0.5)).unwrap()),
                1 => BodyDesc::dynamic(Cuboid::new(Vec2::new(r(0.1, 0.6), r(0.1, 0.6))).unwrap()),
                _ => {
                    let (a, b) = (Point2::new(r(-0.4, -0.1), 0.0), Point2::new(r(0.1, 0.4), 0.0));
                    BodyDesc::dynamic(Capsule::new(a, b, r(0.05, 0.3)).unwrap())
                }
            };
            let pose = Iso2::new(Vec2::new(r(-5.0, 5.0), r(1.0, 15.0)), r(-3.0, 3.0));
            let v = Vec2::new(r(-5.0, 5.0), r(-10.0, 5.0));
            let desc = desc.pose(pose).linear_velocity(v).restitution(r(0.0, 0.6));
            w.add(desc.friction(r(0.0, 1.0))).unwrap();
        }
        w
    }

    fn same_with_and_without_simd(make: impl Fn() -> World2<f32>, steps: usize) {
        crate::wide::testing::same_with_and_without_simd(make, state, steps);
    }

    #[test]
    fn simd_matches_the_scalar_solver_on_a_pyramid() {
        same_with_and_without_simd(|| pyramid(14), 200);
    }

    #[test]
    fn simd_matches_the_scalar_solver_on_a_jumble() {
        for seed in 0..4 {
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
