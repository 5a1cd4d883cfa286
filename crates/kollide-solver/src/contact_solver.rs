//! The contact solver: sequential impulses with soft contacts, substeps and relaxation.
//!
//! This follows Box2D v3's "soft step" (Catto, "Solver2D", 2024, and Box2D's `contact_solver.c`),
//! written once for 2D and 3D over [`SolverDim`]. One world step of length `dt` is `n` substeps of
//! `h = dt / n`:
//!
//! ```text
//! prepare contacts (anchors, effective masses, softness)        once per step
//! repeat n times:
//!     integrate velocities (gravity, damping)
//!     warm start: apply the accumulated impulses
//!     solve with bias: soft contacts push overlap apart
//!     integrate positions
//!     relax: solve again without bias, removing the push velocity
//! restitution: one pass that bounces fast approaching contacts
//! store impulses in the manifolds for next step's warm start
//! ```
//!
//! **Soft contact.** A contact is a spring-damper with stiffness `f` hertz and damping ratio `ζ`.
//! For a substep `h`, with `ω = 2πf`, `a1 = 2ζ + hω`, `a2 = hωa1`, `a3 = 1/(1 + a2)`, the
//! velocity bias is `ω/a1 · s` (for overlap `s < 0`), the effective mass is scaled by `a2·a3` and
//! `a3` of the accumulated impulse leaks away: an implicit spring, stable for any stiffness,
//! which is what keeps tall stacks from exploding.
//!
//! **Separation without re-running collision.** Each contact stores its anchors relative to both
//! centres of mass and its separation at the start of the step. During substeps the current
//! separation is estimated from the bodies' motion since then:
//! `s = n · ((Δp_B + ΔR_B r_B) − (Δp_A + ΔR_A r_A)) + s₀ − n · (r_B − r_A)`.
//!
//! **Accumulated impulses.** The normal impulse is clamped as a total, never per iteration:
//! `λ ← max(λ + Δλ, 0)`, so a contact can pull back an earlier over-push but never pull the bodies
//! together. Friction is clamped to the Coulomb disc `|λ_t| ≤ μ λ_n`.
//!
//! **Speculative contacts.** A contact with `s > 0` (within the speculative margin) removes only
//! the approach velocity that would close the gap within the substep: `bias = s / h`.

use kollide_manifold::Manifold;
use kollide_math::{Point, Scalar, Vector};

use crate::{ContactImpulse, Dim, SolverDim};

type Ang<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Angular;
type Inertia<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Inertia;
type Rot<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Rotation;

/// A body as the solver sees it: velocities, motion since the step started, inverse mass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverBody<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub v: Vector<N, D>,
    pub w: Ang<N, D>,
    /// Centre of mass at the start of the step, and the motion since.
    pub center: Point<N, D>,
    pub dp: Vector<N, D>,
    /// Rotation at the start of the step, current rotation, and the delta between them.
    pub q0: Rot<N, D>,
    pub q: Rot<N, D>,
    pub dq: Rot<N, D>,
    pub inv_mass: N,
    pub inv_inertia: Inertia<N, D>,
    pub gravity_scale: N,
    pub linear_damping: N,
    pub angular_damping: N,
    /// Integrates positions (dynamic and kinematic bodies).
    pub moves: bool,
    /// Is affected by gravity and impulses.
    pub dynamic: bool,
}

/// The softness coefficients of a soft constraint for one substep.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Softness<N> {
    pub bias_rate: N,
    pub mass_scale: N,
    pub impulse_scale: N,
}

impl<N: Scalar> Softness<N> {
    pub fn new(hertz: N, zeta: N, h: N) -> Self {
        if hertz <= N::zero() {
            return Self { bias_rate: N::zero(), mass_scale: N::one(), impulse_scale: N::zero() };
        }
        let omega = N::two_pi() * hertz;
        let a1 = zeta * N::lit(2.0) + h * omega;
        let a2 = h * omega * a1;
        let a3 = N::one() / (N::one() + a2);
        Self { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstraintPoint<N: Scalar, const D: usize> {
    pub r_a: Vector<N, D>,
    pub r_b: Vector<N, D>,
    pub adjusted_separation: N,
    pub normal_mass: N,
    pub tangent_mass: [N; 2],
    pub normal_impulse: N,
    pub tangent_impulse: [N; 2],
    pub max_normal_impulse: N,
    pub relative_velocity: N,
}

impl<N: Scalar, const D: usize> Default for ConstraintPoint<N, D> {
    fn default() -> Self {
        Self {
            r_a: Vector::zeros(),
            r_b: Vector::zeros(),
            adjusted_separation: N::zero(),
            normal_mass: N::zero(),
            tangent_mass: [N::zero(); 2],
            normal_impulse: N::zero(),
            tangent_impulse: [N::zero(); 2],
            max_normal_impulse: N::zero(),
            relative_velocity: N::zero(),
        }
    }
}

/// The constraint of one manifold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactConstraint<N: Scalar, const D: usize> {
    pub a: usize,
    pub b: usize,
    pub pair: usize,
    pub normal: Vector<N, D>,
    pub tangents: [Vector<N, D>; 2],
    pub friction: N,
    pub restitution: N,
    pub softness: Softness<N>,
    pub count: usize,
    pub points: [ConstraintPoint<N, D>; 4],
    /// For two-point manifolds: the inverse of the 2×2 normal effective-mass matrix `K` and its
    /// diagonal, when `K` is well conditioned.
    pub block: Option<([[N; 2]; 2], [N; 2])>,
}

/// The part of a body a constraint reads and writes, copied into locals for the duration of one
/// constraint (read once, written once), as Box2D's solver does: indexing the body array for every
/// point of every contact costs more than the arithmetic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Local<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    v: Vector<N, D>,
    w: Ang<N, D>,
    dp: Vector<N, D>,
    dq: Rot<N, D>,
    inv_mass: N,
    inv_inertia: Inertia<N, D>,
    dynamic: bool,
}

impl<N: Scalar, const D: usize> Local<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    #[inline(always)]
    fn load(b: &SolverBody<N, D>) -> Self {
        Self {
            v: b.v,
            w: b.w,
            dp: b.dp,
            dq: b.dq,
            inv_mass: b.inv_mass,
            inv_inertia: b.inv_inertia,
            dynamic: b.dynamic,
        }
    }

    #[inline(always)]
    fn store(&self, b: &mut SolverBody<N, D>) {
        if self.dynamic {
            b.v = self.v;
            b.w = self.w;
        }
    }

    #[inline(always)]
    fn velocity_at(&self, r: &Vector<N, D>) -> Vector<N, D> {
        self.v + Dim::<D>::cross_angular(&self.w, r)
    }
}

#[inline(always)]
fn velocity_at<N: Scalar, const D: usize>(b: &SolverBody<N, D>, r: &Vector<N, D>) -> Vector<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    b.v + Dim::<D>::cross_angular(&b.w, r)
}

#[inline(always)]
fn effective_mass<N: Scalar, const D: usize>(
    a: &SolverBody<N, D>,
    b: &SolverBody<N, D>,
    r_a: &Vector<N, D>,
    r_b: &Vector<N, D>,
    dir: &Vector<N, D>,
) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    let ca = Dim::<D>::cross(r_a, dir);
    let cb = Dim::<D>::cross(r_b, dir);
    let k = a.inv_mass
        + b.inv_mass
        + Dim::<D>::angular_dot(&ca, &Dim::<D>::apply_inertia(&a.inv_inertia, &ca))
        + Dim::<D>::angular_dot(&cb, &Dim::<D>::apply_inertia(&b.inv_inertia, &cb));
    if k > N::zero() { N::one() / k } else { N::zero() }
}

/// Applies the impulse `p` at `r_b` on B and `−p` at `r_a` on A (static bodies do not move).
#[inline(always)]
fn apply<N: Scalar, const D: usize>(
    la: &mut Local<N, D>,
    lb: &mut Local<N, D>,
    r_a: &Vector<N, D>,
    r_b: &Vector<N, D>,
    p: &Vector<N, D>,
) where
    Dim<D>: SolverDim<N, D>,
{
    if la.dynamic {
        la.v -= p * la.inv_mass;
        let dw = Dim::<D>::apply_inertia(&la.inv_inertia, &Dim::<D>::cross(r_a, p));
        la.w -= dw;
    }
    if lb.dynamic {
        lb.v += p * lb.inv_mass;
        let dw = Dim::<D>::apply_inertia(&lb.inv_inertia, &Dim::<D>::cross(r_b, p));
        lb.w += dw;
    }
}

/// Builds the constraint of one manifold (world frame) between solver bodies `a` and `b`.
pub(crate) fn prepare<N: Scalar, const D: usize>(
    bodies: &[SolverBody<N, D>],
    a: usize,
    b: usize,
    pair: usize,
    manifold: &Manifold<N, D, ContactImpulse<N>>,
    friction: N,
    restitution: N,
    softness: Softness<N>,
    warm_start: bool,
) -> ContactConstraint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let (ba, bb) = (&bodies[a], &bodies[b]);
    let normal = manifold.normal;
    let tangents = Dim::<D>::tangents(&normal);
    let mut c = ContactConstraint {
        a,
        b,
        pair,
        normal,
        tangents,
        friction,
        restitution,
        softness,
        count: manifold.len(),
        points: [ConstraintPoint::default(); 4],
        block: None,
    };
    for (k, mp) in manifold.contacts().iter().enumerate() {
        let p = mp.midpoint();
        let r_a = p - ba.center;
        let r_b = p - bb.center;
        let dv = velocity_at(bb, &r_b) - velocity_at(ba, &r_a);
        let cp = &mut c.points[k];
        cp.r_a = r_a;
        cp.r_b = r_b;
        cp.adjusted_separation = mp.separation - (r_b - r_a).dot(&normal);
        cp.normal_mass = effective_mass(ba, bb, &r_a, &r_b, &normal);
        for (mass, t) in cp.tangent_mass.iter_mut().zip(&tangents).take(D - 1) {
            *mass = effective_mass(ba, bb, &r_a, &r_b, t);
        }
        if warm_start {
            cp.normal_impulse = mp.user.normal;
            cp.tangent_impulse = mp.user.tangent;
        }
        cp.relative_velocity = normal.dot(&dv);
    }
    if c.count == 2 {
        c.block = block_inverse(ba, bb, &c.points[0], &c.points[1], &normal);
    }
    c
}

/// The inverse of `K = [[k11, k12], [k12, k22]]`, the coupled normal effective mass of two contact
/// points, and its diagonal; `None` when `K` is ill-conditioned (the points nearly coincide).
/// Box2D 2.4 uses the same condition-number guard for its block solver.
fn block_inverse<N: Scalar, const D: usize>(
    a: &SolverBody<N, D>,
    b: &SolverBody<N, D>,
    p1: &ConstraintPoint<N, D>,
    p2: &ConstraintPoint<N, D>,
    n: &Vector<N, D>,
) -> Option<([[N; 2]; 2], [N; 2])>
where
    Dim<D>: SolverDim<N, D>,
{
    let ang = |body: &SolverBody<N, D>, r1: &Vector<N, D>, r2: &Vector<N, D>| {
        let c1 = Dim::<D>::cross(r1, n);
        let c2 = Dim::<D>::cross(r2, n);
        Dim::<D>::angular_dot(&c1, &Dim::<D>::apply_inertia(&body.inv_inertia, &c2))
    };
    let m = a.inv_mass + b.inv_mass;
    let k11 = m + ang(a, &p1.r_a, &p1.r_a) + ang(b, &p1.r_b, &p1.r_b);
    let k22 = m + ang(a, &p2.r_a, &p2.r_a) + ang(b, &p2.r_b, &p2.r_b);
    let k12 = m + ang(a, &p1.r_a, &p2.r_a) + ang(b, &p1.r_b, &p2.r_b);
    let det = k11 * k22 - k12 * k12;
    if det <= N::zero() || det.is_nan_value() || k11 * k11 >= N::lit(1000.0) * det {
        return None;
    }
    let inv = N::one() / det;
    Some(([[k22 * inv, -k12 * inv], [-k12 * inv, k11 * inv]], [k11, k22]))
}

/// Solves the two normal impulses of a two-point manifold together:
/// `Δλ = −K⁻¹ [m_s (v_n + bias) + i_s diag(K) λ]`. Its fixed point is exactly that of solving the
/// points one by one (each point a spring with its own effective mass `1/kᵢᵢ`, as in Box2D), so
/// the contact is as stiff as the per-point solver; but symmetric contacts get symmetric
/// impulses, so a box that lands flat does not start to spin (and walk sideways through friction)
/// because one corner was solved first. (Using `−m_s K⁻¹ (v_n + bias) − i_s λ` instead would make
/// two points on the same side of a body 1.6× softer.) Returns `false`, changing nothing, when
/// the result would pull (an impulse below zero): the caller then solves the points one by one,
/// which handles the clamping.
fn solve_block<N: Scalar, const D: usize>(
    la: &mut Local<N, D>,
    lb: &mut Local<N, D>,
    c: &mut ContactConstraint<N, D>,
    max_push: N,
    slop: N,
    use_bias: bool,
) -> bool
where
    Dim<D>: SolverDim<N, D>,
{
    let Some((k_inv, k_diag)) = c.block else { return false };
    let normal = c.normal;
    let mut rhs = [N::zero(); 2];
    let mut scales = [(N::one(), N::zero()); 2];
    for k in 0..2 {
        let cp = &c.points[k];
        let pr_a = Dim::<D>::rotate(&la.dq, &cp.r_a);
        let pr_b = Dim::<D>::rotate(&lb.dq, &cp.r_b);
        let s = ((lb.dp - la.dp) + (pr_b - pr_a)).dot(&normal) + cp.adjusted_separation;
        let (bias, ms, is) = if s > N::zero() {
            // A speculative point: leave it to the one-by-one path.
            return false;
        } else if use_bias {
            let push = (s + slop).min_of(N::zero());
            (
                (c.softness.bias_rate * push).max_of(-max_push),
                c.softness.mass_scale,
                c.softness.impulse_scale,
            )
        } else {
            (N::zero(), N::one(), N::zero())
        };
        let vn = (lb.velocity_at(&cp.r_b) - la.velocity_at(&cp.r_a)).dot(&normal);
        rhs[k] = vn + bias;
        scales[k] = (ms, is);
    }
    // Both points share the constraint's softness, so one mass scale applies to the pair.
    let (ms, is) = scales[0];
    let e0 = ms * rhs[0] + is * k_diag[0] * c.points[0].normal_impulse;
    let e1 = ms * rhs[1] + is * k_diag[1] * c.points[1].normal_impulse;
    let d0 = -(k_inv[0][0] * e0 + k_inv[0][1] * e1);
    let d1 = -(k_inv[1][0] * e0 + k_inv[1][1] * e1);
    let n0 = c.points[0].normal_impulse + d0;
    let n1 = c.points[1].normal_impulse + d1;
    if n0 < N::zero() || n1 < N::zero() {
        return false;
    }
    for (k, (new, delta)) in [(n0, d0), (n1, d1)].into_iter().enumerate() {
        let cp = &mut c.points[k];
        cp.normal_impulse = new;
        cp.max_normal_impulse = cp.max_normal_impulse.max_of(new);
        let (r_a, r_b) = (cp.r_a, cp.r_b);
        apply(la, lb, &r_a, &r_b, &(normal * delta));
    }
    true
}

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start<N: Scalar, const D: usize>(
    bodies: &mut [SolverBody<N, D>],
    constraints: &[ContactConstraint<N, D>],
) where
    Dim<D>: SolverDim<N, D>,
{
    for c in constraints {
        let mut la = Local::load(&bodies[c.a]);
        let mut lb = Local::load(&bodies[c.b]);
        for cp in &c.points[..c.count] {
            let mut p = c.normal * cp.normal_impulse;
            for t in 0..D - 1 {
                p += c.tangents[t] * cp.tangent_impulse[t];
            }
            apply(&mut la, &mut lb, &cp.r_a, &cp.r_b, &p);
        }
        la.store(&mut bodies[c.a]);
        lb.store(&mut bodies[c.b]);
    }
}

/// One pass over the contacts: non-penetration (soft when `use_bias`), then friction.
pub(crate) fn solve<N: Scalar, const D: usize>(
    bodies: &mut [SolverBody<N, D>],
    constraints: &mut [ContactConstraint<N, D>],
    inv_h: N,
    max_push: N,
    slop: N,
    use_bias: bool,
    pass: usize,
) where
    Dim<D>: SolverDim<N, D>,
{
    for c in constraints.iter_mut() {
        let (a, b) = (c.a, c.b);
        let normal = c.normal;
        let mut la = Local::load(&bodies[a]);
        let mut lb = Local::load(&bodies[b]);
        let block_done = c.count == 2
            && c.block.is_some()
            && solve_block(&mut la, &mut lb, c, max_push, slop, use_bias);
        // For face contacts of three or more points (3D), the point that goes first rotates from
        // pass to pass, so that over a step every corner leads equally often (a fixed order
        // tilts a resting box towards the corner solved first, and friction then walks it
        // sideways).
        let count = c.count.max(1);
        for i in 0..c.count {
            if block_done {
                break;
            }
            let k = if count > 2 { (i + pass) % count } else { i };
            let cp = c.points[k];
            // Current separation from the motion since the step started.
            let pr_a = Dim::<D>::rotate(&la.dq, &cp.r_a);
            let pr_b = Dim::<D>::rotate(&lb.dq, &cp.r_b);
            let d = (lb.dp - la.dp) + (pr_b - pr_a);
            let s = d.dot(&normal) + cp.adjusted_separation;
            let (bias, mass_scale, impulse_scale) = if s > N::zero() {
                (s * inv_h, N::one(), N::zero())
            } else if use_bias {
                let push = (s + slop).min_of(N::zero());
                (
                    (c.softness.bias_rate * push).max_of(-max_push),
                    c.softness.mass_scale,
                    c.softness.impulse_scale,
                )
            } else {
                (N::zero(), N::one(), N::zero())
            };
            let vn = (lb.velocity_at(&cp.r_b) - la.velocity_at(&cp.r_a)).dot(&normal);
            let impulse =
                -cp.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = (cp.normal_impulse + impulse).max_of(N::zero());
            let delta = new_impulse - cp.normal_impulse;
            let pt = &mut c.points[k];
            if delta > N::zero() {
                // The approach speed at impact (it grows during the step under gravity), for
                // the restitution pass.
                pt.relative_velocity = pt.relative_velocity.min_of(vn);
            }
            pt.normal_impulse = new_impulse;
            pt.max_normal_impulse = pt.max_normal_impulse.max_of(new_impulse);
            apply(&mut la, &mut lb, &cp.r_a, &cp.r_b, &(normal * delta));
        }
        for k in 0..c.count {
            let cp = c.points[k];
            let dv = lb.velocity_at(&cp.r_b) - la.velocity_at(&cp.r_a);
            let max_f = c.friction * cp.normal_impulse;
            // Unclamped impulses per tangent, then clamp the total to the Coulomb disc.
            let mut new = [N::zero(); 2];
            let mut len2 = N::zero();
            for (t, x) in new.iter_mut().enumerate().take(D - 1) {
                *x = cp.tangent_impulse[t] - cp.tangent_mass[t] * dv.dot(&c.tangents[t]);
                len2 += *x * *x;
            }
            if len2 > max_f * max_f {
                let scale = max_f / len2.sqrt();
                for x in new.iter_mut() {
                    *x *= scale;
                }
            }
            let mut p = Vector::<N, D>::zeros();
            for (t, tangent) in c.tangents.iter().enumerate().take(D - 1) {
                p += tangent * (new[t] - cp.tangent_impulse[t]);
            }
            c.points[k].tangent_impulse = new;
            apply(&mut la, &mut lb, &cp.r_a, &cp.r_b, &p);
        }
        la.store(&mut bodies[a]);
        lb.store(&mut bodies[b]);
    }
}

/// The restitution pass: contacts that were approaching faster than `threshold` bounce back
/// with `e ×` their approach speed.
pub(crate) fn restitution<N: Scalar, const D: usize>(
    bodies: &mut [SolverBody<N, D>],
    constraints: &mut [ContactConstraint<N, D>],
    threshold: N,
) where
    Dim<D>: SolverDim<N, D>,
{
    for c in constraints.iter_mut() {
        if c.restitution == N::zero() {
            continue;
        }
        let (a, b) = (c.a, c.b);
        let mut la = Local::load(&bodies[a]);
        let mut lb = Local::load(&bodies[b]);
        for k in 0..c.count {
            let cp = c.points[k];
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == N::zero() {
                continue;
            }
            let vn = (lb.velocity_at(&cp.r_b) - la.velocity_at(&cp.r_a)).dot(&c.normal);
            let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let new_impulse = (cp.normal_impulse + impulse).max_of(N::zero());
            let delta = new_impulse - cp.normal_impulse;
            c.points[k].normal_impulse = new_impulse;
            c.points[k].max_normal_impulse = cp.max_normal_impulse.max_of(new_impulse);
            apply(&mut la, &mut lb, &cp.r_a, &cp.r_b, &(c.normal * delta));
        }
        la.store(&mut bodies[a]);
        lb.store(&mut bodies[b]);
    }
}

/// Integrates velocities of dynamic bodies: gravity and damping.
pub(crate) fn integrate_velocities<N: Scalar, const D: usize>(
    bodies: &mut [SolverBody<N, D>],
    gravity: &Vector<N, D>,
    h: N,
) where
    Dim<D>: SolverDim<N, D>,
{
    for b in bodies.iter_mut().filter(|b| b.dynamic) {
        b.v += gravity * (b.gravity_scale * h);
        b.v *= N::one() / (N::one() + h * b.linear_damping);
        b.w = b.w * (N::one() / (N::one() + h * b.angular_damping));
    }
}

/// Integrates positions of moving bodies and updates their motion since the step started.
pub(crate) fn integrate_positions<N: Scalar, const D: usize>(bodies: &mut [SolverBody<N, D>], h: N)
where
    Dim<D>: SolverDim<N, D>,
{
    for b in bodies.iter_mut().filter(|b| b.moves) {
        b.dp += b.v * h;
        b.q = Dim::<D>::integrate_rotation(&b.q, &b.w, h);
        b.dq = Dim::<D>::rotation_delta(&b.q, &b.q0);
    }
}
