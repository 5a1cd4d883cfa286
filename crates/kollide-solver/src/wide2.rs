//! The 2D `f32` contact solver on four constraints at once (SIMD).
//!
//! Sequential impulses spend their time on a short chain of arithmetic per contact row. The
//! constraints of one *wave* (see `World::step`) share no dynamic body, so any four of them can
//! be solved side by side: this module packs them into [`Bundle`]s whose every number is an
//! `f32x4` (one lane per constraint, structure of arrays), so that each line below is one SIMD
//! instruction for four rows. Box2D v3 does the same with graph colouring.
//!
//! **Same answers.** Each lane performs exactly the scalar solver's operations
//! (`contact_solver.rs`) in the same order, with no fused multiply-adds, and branches become
//! selects. Constraints of one wave commute, so solving them four at a time leaves the same state
//! as solving them one by one: the tests step worlds both ways and compare every number of every
//! body. The one difference is the sign of a zero: where the scalar loop skips a row, a lane
//! applies a zero impulse (`v − 0·m`), which can turn a velocity of `−0.0` into `+0.0`. Unused
//! lanes (the last bundle of a wave) hold zeros and are never written back; a missing point
//! (one-point manifolds) has zero mass, arms and impulses, so its rows apply zero.
//!
//! Only 2D `f32` worlds take this path (3D `f32` worlds take `wide3.rs`); `f64` worlds use the
//! scalar loop, which stays the reference.

use kollide_math::Vec2;

use crate::contact_solver::{BodyState, ConstraintPoint, ContactConstraint, Pass};
use crate::wide::{self, LANES, W, mask, max, min};

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
    normal_arm: [W; 2],
    normal_turn: [W; 2],
    tangent_arm: [W; 2],
    tangent_turn: [W; 2],
}

/// Four constraints of one wave (fewer in a wave's last bundle).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bundle {
    /// Body (state) indices; unused lanes repeat lane 0's bodies and are never written.
    a: [u32; LANES],
    b: [u32; LANES],
    /// Index of each lane's constraint in the scalar list.
    constraint: [u32; LANES],
    used: u8,
    write_a: [bool; LANES],
    write_b: [bool; LANES],
    has_block: W,
    normal: [W; 2],
    tangent: [W; 2],
    friction: W,
    bias_rate: W,
    mass_scale: W,
    impulse_scale: W,
    inv_mass_a: W,
    inv_mass_b: W,
    k_inv: [[W; 2]; 2],
    k_diag: [W; 2],
    points: [WidePoint; 2],
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
    #[inline(always)]
    fn load(states: &[BodyState<f32, 2>], index: &[u32; LANES]) -> Self {
        let s: [&BodyState<f32, 2>; LANES] = index.map(|i| &states[i as usize]);
        let g = |f: fn(&BodyState<f32, 2>) -> f32| W::new([f(s[0]), f(s[1]), f(s[2]), f(s[3])]);
        Self {
            v: [g(|s| s.v.x), g(|s| s.v.y)],
            w: g(|s| s.w),
            dp: [g(|s| s.dp.x), g(|s| s.dp.y)],
            dq: [g(|s| s.dq.re), g(|s| s.dq.im)],
        }
    }

    #[inline(always)]
    fn store(&self, states: &mut [BodyState<f32, 2>], index: &[u32; LANES], write: &[bool; 4]) {
        let (vx, vy, w) = (self.v[0].to_array(), self.v[1].to_array(), self.w.to_array());
        for l in 0..LANES {
            if write[l] {
                let s = &mut states[index[l] as usize];
                s.v = Vec2::new(vx[l], vy[l]);
                s.w = w[l];
            }
        }
    }
}

/// Packs the constraints (in wave order, `waves[k]` the wave of constraint `k`) into bundles of
/// up to four consecutive constraints of the same wave (`scratch` is reused storage).
pub(crate) fn pack(
    constraints: &[ContactConstraint<f32, 2>],
    points: &[ConstraintPoint<f32, 2>],
    waves: &[u32],
    bundles: &mut Vec<Bundle>,
    scratch: &mut Vec<u32>,
) {
    bundles.clear();
    let missing = ConstraintPoint::<f32, 2>::zero();
    // One class: runs of up to four consecutive constraints of a wave.
    wide::group(
        waves,
        |_| 0,
        scratch,
        |g| {
            let used = |l: usize| g.used(l);
            let c: [&ContactConstraint<f32, 2>; LANES] = g.lanes.map(|k| &constraints[k as usize]);
            // Each lane's point `i`, or zeros where the lane has no such point.
            let point = |i: usize| -> [&ConstraintPoint<f32, 2>; LANES] {
                core::array::from_fn(|l| {
                    if used(l) && i < c[l].count as usize {
                        &points[c[l].first as usize + i]
                    } else {
                        &missing
                    }
                })
            };
            let lanes = |f: &dyn Fn(&ContactConstraint<f32, 2>) -> f32| {
                W::new([f(c[0]), f(c[1]), f(c[2]), f(c[3])])
            };
            let wide_point = |i: usize| {
                let p = point(i);
                let g = |f: &dyn Fn(&ConstraintPoint<f32, 2>) -> f32| {
                    W::new([f(p[0]), f(p[1]), f(p[2]), f(p[3])])
                };
                WidePoint {
                    exists: mask(core::array::from_fn(|l| used(l) && i < c[l].count as usize)),
                    r_a: [g(&|p| p.r_a.x), g(&|p| p.r_a.y)],
                    r_b: [g(&|p| p.r_b.x), g(&|p| p.r_b.y)],
                    adjusted_separation: g(&|p| p.adjusted_separation),
                    normal_mass: g(&|p| p.normal_mass),
                    tangent_mass: g(&|p| p.tangent_mass[0]),
                    normal_impulse: g(&|p| p.normal_impulse),
                    tangent_impulse: g(&|p| p.tangent_impulse[0]),
                    max_normal_impulse: g(&|p| p.max_normal_impulse),
                    relative_velocity: g(&|p| p.relative_velocity),
                    normal_arm: [g(&|p| p.normal_arm[0]), g(&|p| p.normal_arm[1])],
                    normal_turn: [g(&|p| p.normal_turn[0]), g(&|p| p.normal_turn[1])],
                    tangent_arm: [g(&|p| p.tangent_arm[0][0]), g(&|p| p.tangent_arm[0][1])],
                    tangent_turn: [g(&|p| p.tangent_turn[0][0]), g(&|p| p.tangent_turn[0][1])],
                }
            };
            bundles.push(Bundle {
                a: c.map(|c| c.a),
                b: c.map(|c| c.b),
                constraint: g.lanes,
                used: g.used as u8,
                write_a: core::array::from_fn(|l| used(l) && c[l].dynamic_a),
                write_b: core::array::from_fn(|l| used(l) && c[l].dynamic_b),
                has_block: mask(core::array::from_fn(|l| used(l) && c[l].has_block)),
                normal: [lanes(&|c| c.normal.x), lanes(&|c| c.normal.y)],
                tangent: [lanes(&|c| c.tangents[0].x), lanes(&|c| c.tangents[0].y)],
                friction: lanes(&|c| c.friction),
                bias_rate: lanes(&|c| c.softness.bias_rate),
                mass_scale: lanes(&|c| c.softness.mass_scale),
                impulse_scale: lanes(&|c| c.softness.impulse_scale),
                inv_mass_a: lanes(&|c| c.inv_mass_a),
                inv_mass_b: lanes(&|c| c.inv_mass_b),
                k_inv: [
                    [lanes(&|c| c.k_inv[0][0]), lanes(&|c| c.k_inv[0][1])],
                    [lanes(&|c| c.k_inv[1][0]), lanes(&|c| c.k_inv[1][1])],
                ],
                k_diag: [lanes(&|c| c.k_diag[0]), lanes(&|c| c.k_diag[1])],
                points: [wide_point(0), wide_point(1)],
            });
        },
    );
}

/// Copies the accumulated impulses (and what the restitution pass reads) back to the scalar
/// points.
pub(crate) fn unpack(
    bundles: &[Bundle],
    constraints: &[ContactConstraint<f32, 2>],
    points: &mut [ConstraintPoint<f32, 2>],
) {
    for b in bundles {
        for l in 0..b.used as usize {
            let c = &constraints[b.constraint[l] as usize];
            for (i, wp) in b.points.iter().enumerate().take(c.count as usize) {
                let cp = &mut points[c.first as usize + i];
                cp.normal_impulse = wp.normal_impulse.to_array()[l];
                cp.tangent_impulse[0] = wp.tangent_impulse.to_array()[l];
                cp.max_normal_impulse = wp.max_normal_impulse.to_array()[l];
                cp.relative_velocity = wp.relative_velocity.to_array()[l];
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
pub(crate) fn warm_start(states: &mut [BodyState<f32, 2>], bundles: &[Bundle]) {
    for bundle in bundles {
        let mut a = WideBody::load(states, &bundle.a);
        let mut b = WideBody::load(states, &bundle.b);
        // Missing points hold zero impulses.
        for p in &bundle.points {
            apply_row(bundle, &mut a, &mut b, &bundle.normal, &p.normal_turn, p.normal_impulse);
            apply_row(bundle, &mut a, &mut b, &bundle.tangent, &p.tangent_turn, p.tangent_impulse);
        }
        a.store(states, &bundle.a, &bundle.write_a);
        b.store(states, &bundle.b, &bundle.write_b);
    }
}

/// One pass over the bundles, as the scalar `solve`.
pub(crate) fn solve(states: &mut [BodyState<f32, 2>], bundles: &mut [Bundle], pass: Pass<f32>) {
    if pass.reverse {
        for bundle in bundles.iter_mut().rev() {
            solve_bundle(states, bundle, pass);
        }
    } else {
        for bundle in bundles.iter_mut() {
            solve_bundle(states, bundle, pass);
        }
    }
}

#[inline(always)]
fn solve_bundle(states: &mut [BodyState<f32, 2>], bundle: &mut Bundle, pass: Pass<f32>) {
    let Pass { inv_h, max_push, slop, use_bias, .. } = pass;
    let zero = W::splat(0.0);
    let one = W::splat(1.0);
    let mut a = WideBody::load(states, &bundle.a);
    let mut b = WideBody::load(states, &bundle.b);
    let s = [
        separation(bundle, &a, &b, &bundle.points[0]),
        separation(bundle, &a, &b, &bundle.points[1]),
    ];
    let (bias_rate, neg_push, slop) = (bundle.bias_rate, W::splat(-max_push), W::splat(slop));
    let soft_bias =
        |s: W| if use_bias { max(bias_rate * min(s + slop, zero), neg_push) } else { zero };
    let (ms, is) = if use_bias { (bundle.mass_scale, bundle.impulse_scale) } else { (one, zero) };

    // Two-point manifolds: both normal impulses at once (the scalar `solve_block`).
    let rhs0 = row_velocity(&a, &b, &bundle.normal, &bundle.points[0].normal_arm) + soft_bias(s[0]);
    let rhs1 = row_velocity(&a, &b, &bundle.normal, &bundle.points[1].normal_arm) + soft_bias(s[1]);
    let (l0, l1) = (bundle.points[0].normal_impulse, bundle.points[1].normal_impulse);
    let e0 = ms * rhs0 + is * bundle.k_diag[0] * l0;
    let e1 = ms * rhs1 + is * bundle.k_diag[1] * l1;
    let d0 = -(bundle.k_inv[0][0] * e0 + bundle.k_inv[0][1] * e1);
    let d1 = -(bundle.k_inv[1][0] * e0 + bundle.k_inv[1][1] * e1);
    let (n0, n1) = (l0 + d0, l1 + d1);
    // The block holds where both points are touching (not speculative) and both impulses push.
    let block = bundle.has_block
        & !s[0].simd_gt(zero)
        & !s[1].simd_gt(zero)
        & !n0.simd_lt(zero)
        & !n1.simd_lt(zero);
    for (k, (new, delta)) in [(n0, d0), (n1, d1)].into_iter().enumerate() {
        let p = &mut bundle.points[k];
        p.normal_impulse = block.select(new, p.normal_impulse);
        p.max_normal_impulse = block.select(max(p.max_normal_impulse, new), p.max_normal_impulse);
        let turn = bundle.points[k].normal_turn;
        apply_row(bundle, &mut a, &mut b, &bundle.normal, &turn, block.select(delta, zero));
    }

    // The other lanes: point by point (the scalar loop). The separations are those computed
    // above: the bodies' motion since the step started does not change within a pass.
    for (k, &s) in s.iter().enumerate() {
        let m = !block & bundle.points[k].exists;
        if m.none() {
            continue;
        }
        let p = &bundle.points[k];
        let vn = row_velocity(&a, &b, &bundle.normal, &p.normal_arm);
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
        let turn = bundle.points[k].normal_turn;
        apply_row(bundle, &mut a, &mut b, &bundle.normal, &turn, m.select(delta, zero));
    }

    // Friction: the Coulomb interval. A missing point has zero mass, impulse and arms, so its
    // impulse stays zero without a mask.
    for k in 0..2 {
        let p = &bundle.points[k];
        let max_f = bundle.friction * p.normal_impulse;
        let vt = row_velocity(&a, &b, &bundle.tangent, &p.tangent_arm);
        let x = p.tangent_impulse - p.tangent_mass * vt;
        let low = x.simd_lt(-max_f).select(-max_f, x);
        let new = low.simd_gt(max_f).select(max_f, low);
        let delta = new - p.tangent_impulse;
        let turn = p.tangent_turn;
        bundle.points[k].tangent_impulse = new;
        apply_row(bundle, &mut a, &mut b, &bundle.tangent, &turn, delta);
    }

    a.store(states, &bundle.a, &bundle.write_a);
    b.store(states, &bundle.b, &bundle.write_b);
}

#[cfg(test)]
mod tests {
    use kollide_math::{Iso2, Point2, Vec2};
    use kollide_shapes::{Capsule, Circle, Cuboid};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::{BodyDesc, World2};

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
        let mut w = World2::new(Vec2::new(0.0, -9.81));
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
        let mut w = World2::new(Vec2::new(0.0, -9.81));
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
        let mut simd = make();
        let mut scalar = make();
        scalar.simd = false;
        for step in 0..steps {
            simd.step(1.0 / 60.0).unwrap();
            scalar.step(1.0 / 60.0).unwrap();
            // Equal values (a zero velocity may differ in its sign: a masked lane adds a zero
            // impulse where the scalar loop adds nothing).
            assert!(state(&simd) == state(&scalar), "the SIMD solver diverged at step {step}");
        }
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
}
