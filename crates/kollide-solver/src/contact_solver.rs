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
//! **Sweep direction.** Sequential impulses is Gauss–Seidel: each constraint sees the velocities
//! the constraints before it left. A pass always run first to last favours one direction (a
//! symmetric pyramid whose rows are listed left to right leans right while it settles), so odd
//! substeps visit the constraints last to first (symmetric Gauss–Seidel).
//!
//! **Accumulated impulses.** The normal impulse is clamped as a total, never per iteration:
//! `λ ← max(λ + Δλ, 0)`, so a contact can pull back an earlier over-push but never pull the bodies
//! together. Friction is clamped to the Coulomb limit of the normal impulses it rides on.
//!
//! **Friction.** In 2D each point has its friction row, clamped to `|λ_t| ≤ μ λ_n`. In 3D
//! friction acts on the manifold as a whole (a *friction patch*, as in PhysX's patch friction
//! and rapier's simplified friction model): two tangent rows at the centroid `c` of the points,
//! whose impulse `λ_t` is clamped to the Coulomb disc `|λ_t| ≤ μ Σ λ_n,i`, and one twist row for
//! the relative spin about the normal, clamped to `|λ_τ| ≤ μ Σ λ_n,i |p_i − c|`: the largest
//! torque the points' own friction could resist. That is three rows per manifold instead of
//! two per point (a face contact of four points: 7 rows instead of 12), with the same limits on
//! the force and on the torque about the normal. Warm starting keeps the patch impulses as equal
//! shares on the manifold's contacts, so they survive contacts coming and going.
//!
//! **Speculative contacts.** A contact with `s > 0` (within the speculative margin) removes only
//! the approach velocity that would close the gap within the substep: `bias = s / h`.
//!
//! **Data layout.** The loops above touch every contact several times per substep, so the data
//! they read is kept small and contiguous: the velocity state of each body ([`BodyState`]: `v`,
//! `ω`, and the motion since the step started) lives apart from the rest of the body, each
//! constraint carries the inverse masses it needs, and the points of all constraints sit in one
//! flat array in constraint order. Each point stores its rows' angular parts (`r × n`, and the
//! same through the inverse inertia), so a relative velocity or an impulse costs a few multiplies.
//! The world hands the constraints over in "waves" that keep consecutive constraints independent
//! (see `World::step`); `f32` worlds solve each wave four constraints at a time with the same
//! arithmetic in SIMD lanes (`wide2.rs` in 2D, `wide3.rs` in 3D).

use kollide_manifold::Manifold;
use kollide_math::{Point, Scalar, Vector};

use crate::limits::max_speeds;
use crate::{ContactImpulse, Dim, SolverDim};

type Ang<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Angular;
type Inertia<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Inertia;
type Rot<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Rotation;

/// The hot part of a body: what the constraint loops read and write.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyState<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub v: Vector<N, D>,
    pub w: Ang<N, D>,
    /// Motion of the centre of mass since the step started.
    pub dp: Vector<N, D>,
    /// Rotation since the step started.
    pub dq: Rot<N, D>,
}

/// The rest of a body as the solver sees it: start pose, inverse mass, damping.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverBody<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Centre of mass at the start of the step.
    pub center: Point<N, D>,
    /// Rotation at the start of the step, and the current rotation.
    pub q0: Rot<N, D>,
    pub q: Rot<N, D>,
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

/// One contact point of a constraint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstraintPoint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub r_a: Vector<N, D>,
    pub r_b: Vector<N, D>,
    pub adjusted_separation: N,
    pub normal_mass: N,
    pub tangent_mass: [N; 2],
    pub normal_impulse: N,
    pub tangent_impulse: [N; 2],
    pub max_normal_impulse: N,
    pub relative_velocity: N,
    /// The angular parts of the normal row, precomputed once per step: `r × n` for each body
    /// (the relative normal velocity is `(v_B − v_A)·n + ω_B·(r_B × n) − ω_A·(r_A × n)`), and
    /// the same through the body's inverse inertia (the angular velocity change per unit
    /// impulse; zero for bodies that do not respond to impulses).
    pub normal_arm: [Ang<N, D>; 2],
    pub normal_turn: [Ang<N, D>; 2],
    /// The same for each tangent (`[tangent][body]`; the second tangent is unused in 2D, and
    /// 3D keeps its friction in the constraint's [`Patch`] instead).
    pub tangent_arm: [[Ang<N, D>; 2]; 2],
    pub tangent_turn: [[Ang<N, D>; 2]; 2],
    /// 3D: the point's distance from the friction patch's centre, its lever for the twist
    /// limit.
    pub twist_arm: N,
}

/// The friction of a whole 3D manifold (see "Friction" above): two tangent rows at the
/// centroid of its points and a twist row about the normal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Patch<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The tangent rows' angular parts (`[tangent][body]`, as [`ConstraintPoint::tangent_arm`]),
    /// effective masses and accumulated impulses.
    pub tangent_arm: [[Ang<N, D>; 2]; 2],
    pub tangent_turn: [[Ang<N, D>; 2]; 2],
    pub tangent_mass: [N; 2],
    pub tangent_impulse: [N; 2],
    /// The twist row: the normal through each body's inverse inertia (zero unless dynamic),
    /// its effective mass `1 / (n·I_A⁻¹n + n·I_B⁻¹n)` and its accumulated impulse.
    pub twist_turn: [Ang<N, D>; 2],
    pub twist_mass: N,
    pub twist_impulse: N,
}

/// The constraint of one manifold. Its points are `points[first..first + count]` of the
/// solver's flat point array.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactConstraint<N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    pub a: u32,
    pub b: u32,
    pub first: u32,
    pub count: u32,
    /// The index of the pair in the world's pair list.
    pub pair: u32,
    /// Whether A and B are dynamic (only dynamic bodies get their velocities written back).
    pub dynamic_a: bool,
    pub dynamic_b: bool,
    /// `k_inv` and `k_diag` hold a usable block solver (two points, `K` well conditioned).
    pub has_block: bool,
    pub normal: Vector<N, D>,
    pub tangents: [Vector<N, D>; 2],
    pub friction: N,
    pub restitution: N,
    pub softness: Softness<N>,
    /// Inverse masses (zero for bodies that do not respond to impulses).
    pub inv_mass_a: N,
    pub inv_mass_b: N,
    /// For two-point manifolds: the inverse of the 2×2 normal effective-mass matrix `K` and its
    /// diagonal, when `K` is well conditioned.
    pub k_inv: [[N; 2]; 2],
    pub k_diag: [N; 2],
    /// 3D friction (unused in 2D).
    pub patch: Patch<N, D>,
}

impl<N: Scalar, const D: usize> ContactConstraint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    #[inline(always)]
    pub(crate) fn range(&self) -> core::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }

    /// Applies the impulse `λ·dir` at B's point and `−λ·dir` at A's, given the row's angular
    /// velocity changes per unit impulse. Static and kinematic bodies have zero inverse mass
    /// and inertia, so they do not change (and are not stored).
    #[inline(always)]
    fn apply_row(
        &self,
        la: &mut Local<N, D>,
        lb: &mut Local<N, D>,
        dir: &Vector<N, D>,
        turn: &[Ang<N, D>; 2],
        impulse: N,
    ) {
        let p = dir * impulse;
        la.v -= p * self.inv_mass_a;
        la.w -= turn[0] * impulse;
        lb.v += p * self.inv_mass_b;
        lb.w += turn[1] * impulse;
    }

    /// Applies the twist impulse `λ` about the normal: `−λ n` to A's spin, `+λ n` to B's.
    #[inline(always)]
    fn apply_twist(&self, la: &mut Local<N, D>, lb: &mut Local<N, D>, impulse: N) {
        la.w -= self.patch.twist_turn[0] * impulse;
        lb.w += self.patch.twist_turn[1] * impulse;
    }

    #[inline(always)]
    fn load(&self, states: &[BodyState<N, D>]) -> (Local<N, D>, Local<N, D>) {
        (Local::load(&states[self.a as usize]), Local::load(&states[self.b as usize]))
    }

    #[inline(always)]
    fn store(&self, states: &mut [BodyState<N, D>], la: &Local<N, D>, lb: &Local<N, D>) {
        if self.dynamic_a {
            let s = &mut states[self.a as usize];
            s.v = la.v;
            s.w = la.w;
        }
        if self.dynamic_b {
            let s = &mut states[self.b as usize];
            s.v = lb.v;
            s.w = lb.w;
        }
    }
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
}

impl<N: Scalar, const D: usize> Local<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    #[inline(always)]
    fn load(b: &BodyState<N, D>) -> Self {
        Self { v: b.v, w: b.w, dp: b.dp, dq: b.dq }
    }
}

/// The relative velocity of B against A along a row: `(v_B − v_A)·dir + ω_B·arm_B − ω_A·arm_A`.
#[inline(always)]
fn row_velocity<N: Scalar, const D: usize>(
    la: &Local<N, D>,
    lb: &Local<N, D>,
    dir: &Vector<N, D>,
    arm: &[Ang<N, D>; 2],
) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    (lb.v - la.v).dot(dir) + Dim::<D>::angular_dot(&lb.w, &arm[1])
        - Dim::<D>::angular_dot(&la.w, &arm[0])
}

/// The effective mass `1 / (m_A⁻¹ + m_B⁻¹ + arm_A·turn_A + arm_B·turn_B)` of a row from its
/// angular parts (see [`ConstraintPoint::normal_arm`]); zero when nothing responds. The turns of
/// bodies that do not respond to impulses are zero, as are their inverse masses.
#[inline(always)]
fn effective_mass<N: Scalar, const D: usize>(
    a: &SolverBody<N, D>,
    b: &SolverBody<N, D>,
    arm: &[Ang<N, D>; 2],
    turn: &[Ang<N, D>; 2],
) -> N
where
    Dim<D>: SolverDim<N, D>,
{
    let k = a.inv_mass
        + b.inv_mass
        + Dim::<D>::angular_dot(&arm[0], &turn[0])
        + Dim::<D>::angular_dot(&arm[1], &turn[1]);
    if k > N::zero() { N::one() / k } else { N::zero() }
}

/// What [`prepare`] needs besides the bodies and the manifold.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PrepareInput<N> {
    /// The pair (an index into the world's pair list) and its two solver bodies.
    pub pair: u32,
    pub a: u32,
    pub b: u32,
    pub friction: N,
    pub restitution: N,
    pub softness: Softness<N>,
    pub warm_start: bool,
}

/// Builds the constraint of one manifold (world frame) between solver bodies `input.a` and
/// `input.b`, appending its points to `points`.
pub(crate) fn prepare<N: Scalar, const D: usize>(
    bodies: &[SolverBody<N, D>],
    states: &[BodyState<N, D>],
    manifold: &Manifold<N, D, ContactImpulse<N>>,
    input: PrepareInput<N>,
    points: &mut Vec<ConstraintPoint<N, D>>,
) -> ContactConstraint<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let (a, b) = (input.a as usize, input.b as usize);
    let (ba, bb) = (&bodies[a], &bodies[b]);
    let (sa, sb) = (&states[a], &states[b]);
    let normal = manifold.normal;
    let tangents = Dim::<D>::tangents(&normal);
    let first = points.len();
    // Only dynamic bodies respond to impulses.
    let inv_inertia_a = if ba.dynamic { ba.inv_inertia } else { Dim::<D>::inertia_zero() };
    let inv_inertia_b = if bb.dynamic { bb.inv_inertia } else { Dim::<D>::inertia_zero() };
    let arms = |r_a: &Vector<N, D>, r_b: &Vector<N, D>, dir: &Vector<N, D>| {
        let arm = [Dim::<D>::cross(r_a, dir), Dim::<D>::cross(r_b, dir)];
        let turn = [
            Dim::<D>::apply_inertia(&inv_inertia_a, &arm[0]),
            Dim::<D>::apply_inertia(&inv_inertia_b, &arm[1]),
        ];
        (arm, turn)
    };
    // 3D friction acts at the centroid of the points (see "Friction" above).
    let patch_friction = D == 3;
    let count = manifold.len();
    let centre = if patch_friction && count > 0 {
        let mut sum = Vector::<N, D>::zeros();
        for mp in manifold.contacts() {
            sum += mp.midpoint().coords;
        }
        sum / N::lit(count as f64)
    } else {
        Vector::zeros()
    };
    for mp in manifold.contacts() {
        let p = mp.midpoint();
        let r_a = p - ba.center;
        let r_b = p - bb.center;
        let va = sa.v + Dim::<D>::cross_angular(&sa.w, &r_a);
        let vb = sb.v + Dim::<D>::cross_angular(&sb.w, &r_b);
        let dv = vb - va;
        let (normal_impulse, tangent_impulse) = if input.warm_start {
            (mp.user.normal, mp.user.tangent)
        } else {
            (N::zero(), [N::zero(); 2])
        };
        let (normal_arm, normal_turn) = arms(&r_a, &r_b, &normal);
        let zero = Dim::<D>::angular_zero();
        let mut tangent_arm = [[zero; 2]; 2];
        let mut tangent_turn = [[zero; 2]; 2];
        let mut tangent_mass = [N::zero(); 2];
        for t in (0..D - 1).filter(|_| !patch_friction) {
            (tangent_arm[t], tangent_turn[t]) = arms(&r_a, &r_b, &tangents[t]);
            tangent_mass[t] = effective_mass(ba, bb, &tangent_arm[t], &tangent_turn[t]);
        }
        let twist_arm = if patch_friction { (p.coords - centre).norm() } else { N::zero() };
        points.push(ConstraintPoint {
            r_a,
            r_b,
            adjusted_separation: mp.separation - (r_b - r_a).dot(&normal),
            normal_mass: effective_mass(ba, bb, &normal_arm, &normal_turn),
            tangent_mass,
            normal_impulse,
            tangent_impulse,
            max_normal_impulse: N::zero(),
            relative_velocity: normal.dot(&dv),
            normal_arm,
            normal_turn,
            tangent_arm,
            tangent_turn,
            twist_arm,
        });
    }
    let patch = if patch_friction {
        self::patch(ba, bb, manifold, &centre, &tangents, &inv_inertia_a, &inv_inertia_b, input)
    } else {
        Patch::zero()
    };
    let block = if count == 2 {
        block_inverse(ba, bb, &points[first], &points[first + 1], &normal)
    } else {
        None
    };
    let (k_inv, k_diag) = block.unwrap_or(([[N::zero(); 2]; 2], [N::zero(); 2]));
    ContactConstraint {
        a: a as u32,
        b: b as u32,
        first: first as u32,
        count: count as u32,
        pair: input.pair,
        dynamic_a: ba.dynamic,
        dynamic_b: bb.dynamic,
        has_block: block.is_some(),
        normal,
        tangents,
        friction: input.friction,
        restitution: input.restitution,
        softness: input.softness,
        inv_mass_a: if ba.dynamic { ba.inv_mass } else { N::zero() },
        inv_mass_b: if bb.dynamic { bb.inv_mass } else { N::zero() },
        k_inv,
        k_diag,
        patch,
    }
}

impl<N: Scalar, const D: usize> Patch<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// No patch friction (2D).
    fn zero() -> Self {
        let z = Dim::<D>::angular_zero();
        Self {
            tangent_arm: [[z; 2]; 2],
            tangent_turn: [[z; 2]; 2],
            tangent_mass: [N::zero(); 2],
            tangent_impulse: [N::zero(); 2],
            twist_turn: [z; 2],
            twist_mass: N::zero(),
            twist_impulse: N::zero(),
        }
    }
}

/// The friction patch of a 3D manifold whose points have the centroid `centre`; the warm start
/// sums the contacts' shares of last step's patch impulses.
#[allow(clippy::too_many_arguments)]
fn patch<N: Scalar, const D: usize>(
    ba: &SolverBody<N, D>,
    bb: &SolverBody<N, D>,
    manifold: &Manifold<N, D, ContactImpulse<N>>,
    centre: &Vector<N, D>,
    tangents: &[Vector<N, D>; 2],
    inv_inertia_a: &Inertia<N, D>,
    inv_inertia_b: &Inertia<N, D>,
    input: PrepareInput<N>,
) -> Patch<N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    let r_a = centre - ba.center.coords;
    let r_b = centre - bb.center.coords;
    let mut tangent_arm = [[Dim::<D>::angular_zero(); 2]; 2];
    let mut tangent_turn = tangent_arm;
    let mut tangent_mass = [N::zero(); 2];
    for t in 0..2 {
        tangent_arm[t] = [Dim::<D>::cross(&r_a, &tangents[t]), Dim::<D>::cross(&r_b, &tangents[t])];
        tangent_turn[t] = [
            Dim::<D>::apply_inertia(inv_inertia_a, &tangent_arm[t][0]),
            Dim::<D>::apply_inertia(inv_inertia_b, &tangent_arm[t][1]),
        ];
        tangent_mass[t] = effective_mass(ba, bb, &tangent_arm[t], &tangent_turn[t]);
    }
    let axis = Dim::<D>::twist_axis(&manifold.normal);
    let twist_turn = [
        Dim::<D>::apply_inertia(inv_inertia_a, &axis),
        Dim::<D>::apply_inertia(inv_inertia_b, &axis),
    ];
    let k =
        Dim::<D>::angular_dot(&axis, &twist_turn[0]) + Dim::<D>::angular_dot(&axis, &twist_turn[1]);
    let twist_mass = if k > N::zero() { N::one() / k } else { N::zero() };
    let mut tangent_impulse = [N::zero(); 2];
    let mut twist_impulse = N::zero();
    if input.warm_start {
        for c in manifold.contacts() {
            tangent_impulse[0] += c.user.tangent[0];
            tangent_impulse[1] += c.user.tangent[1];
            twist_impulse += c.user.twist;
        }
    }
    Patch {
        tangent_arm,
        tangent_turn,
        tangent_mass,
        tangent_impulse,
        twist_turn,
        twist_mass,
        twist_impulse,
    }
}

/// The impulses of the constraint's `i`th point as the manifold keeps them for the next step:
/// in 3D each contact holds an equal share of the patch impulses.
pub(crate) fn stored_impulse<N: Scalar, const D: usize>(
    c: &ContactConstraint<N, D>,
    cp: &ConstraintPoint<N, D>,
) -> ContactImpulse<N>
where
    Dim<D>: SolverDim<N, D>,
{
    if D == 3 {
        let share = N::lit(c.count as f64);
        ContactImpulse {
            normal: cp.normal_impulse,
            tangent: c.patch.tangent_impulse.map(|t| t / share),
            twist: c.patch.twist_impulse / share,
        }
    } else {
        ContactImpulse { normal: cp.normal_impulse, tangent: cp.tangent_impulse, twist: N::zero() }
    }
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
#[inline(always)]
fn solve_block<N: Scalar, const D: usize>(
    la: &mut Local<N, D>,
    lb: &mut Local<N, D>,
    c: &ContactConstraint<N, D>,
    pts: &mut [ConstraintPoint<N, D>],
    max_push: N,
    slop: N,
    use_bias: bool,
) -> bool
where
    Dim<D>: SolverDim<N, D>,
{
    let [p0, p1] = pts else { return false };
    let normal = c.normal;
    let ds = lb.dp - la.dp;
    // Both points share the constraint's softness, so one mass scale applies to the pair.
    let (ms, is) = if use_bias {
        (c.softness.mass_scale, c.softness.impulse_scale)
    } else {
        (N::one(), N::zero())
    };
    let mut rhs = [N::zero(); 2];
    for (k, cp) in [&*p0, &*p1].into_iter().enumerate() {
        let pr_a = Dim::<D>::rotate(&la.dq, &cp.r_a);
        let pr_b = Dim::<D>::rotate(&lb.dq, &cp.r_b);
        let s = (ds + (pr_b - pr_a)).dot(&normal) + cp.adjusted_separation;
        let bias = if s > N::zero() {
            // A speculative point: leave it to the one-by-one path.
            return false;
        } else if use_bias {
            let push = (s + slop).min_of(N::zero());
            (c.softness.bias_rate * push).max_of(-max_push)
        } else {
            N::zero()
        };
        rhs[k] = row_velocity(la, lb, &normal, &cp.normal_arm) + bias;
    }
    let e0 = ms * rhs[0] + is * c.k_diag[0] * p0.normal_impulse;
    let e1 = ms * rhs[1] + is * c.k_diag[1] * p1.normal_impulse;
    let d0 = -(c.k_inv[0][0] * e0 + c.k_inv[0][1] * e1);
    let d1 = -(c.k_inv[1][0] * e0 + c.k_inv[1][1] * e1);
    let n0 = p0.normal_impulse + d0;
    let n1 = p1.normal_impulse + d1;
    if n0 < N::zero() || n1 < N::zero() {
        return false;
    }
    for (cp, new, delta) in [(p0, n0, d0), (p1, n1, d1)] {
        cp.normal_impulse = new;
        cp.max_normal_impulse = cp.max_normal_impulse.max_of(new);
        c.apply_row(la, lb, &normal, &cp.normal_turn, delta);
    }
    true
}

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start<N: Scalar, const D: usize>(
    states: &mut [BodyState<N, D>],
    constraints: &[ContactConstraint<N, D>],
    points: &[ConstraintPoint<N, D>],
) where
    Dim<D>: SolverDim<N, D>,
{
    for c in constraints {
        let (mut la, mut lb) = c.load(states);
        for cp in &points[c.range()] {
            c.apply_row(&mut la, &mut lb, &c.normal, &cp.normal_turn, cp.normal_impulse);
            if D == 2 {
                let (t, turn) = (&c.tangents[0], &cp.tangent_turn[0]);
                c.apply_row(&mut la, &mut lb, t, turn, cp.tangent_impulse[0]);
            }
        }
        if D == 3 {
            let patch = &c.patch;
            for t in 0..2 {
                let (dir, turn) = (&c.tangents[t], &patch.tangent_turn[t]);
                c.apply_row(&mut la, &mut lb, dir, turn, patch.tangent_impulse[t]);
            }
            c.apply_twist(&mut la, &mut lb, patch.twist_impulse);
        }
        c.store(states, &la, &lb);
    }
}

/// The settings of one solver pass.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pass<N> {
    pub inv_h: N,
    pub max_push: N,
    pub slop: N,
    pub use_bias: bool,
    /// Rotates which point of a manifold of three or more points is solved first.
    pub index: usize,
    /// Visit the constraints last to first. Gauss–Seidel carries each impulse on to the
    /// constraints after it within a pass, so always sweeping one way favours a direction: a
    /// symmetric pyramid solved left to right leans right. The world alternates the direction
    /// from substep to substep.
    pub reverse: bool,
}

/// One pass over the contacts: non-penetration (soft when `use_bias`), then friction.
pub(crate) fn solve<N: Scalar, const D: usize>(
    states: &mut [BodyState<N, D>],
    constraints: &mut [ContactConstraint<N, D>],
    points: &mut [ConstraintPoint<N, D>],
    pass: Pass<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    if pass.reverse {
        for c in constraints.iter_mut().rev() {
            let (mut la, mut lb) = c.load(states);
            solve_one(c, &mut la, &mut lb, &mut points[c.range()], pass);
            c.store(states, &la, &lb);
        }
        return;
    }
    for c in constraints.iter_mut() {
        let (mut la, mut lb) = c.load(states);
        solve_one(c, &mut la, &mut lb, &mut points[c.range()], pass);
        c.store(states, &la, &lb);
    }
}

/// Solves one constraint on its bodies' local copies.
#[inline(always)]
fn solve_one<N: Scalar, const D: usize>(
    c: &mut ContactConstraint<N, D>,
    la: &mut Local<N, D>,
    lb: &mut Local<N, D>,
    pts: &mut [ConstraintPoint<N, D>],
    pass: Pass<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    let Pass { inv_h, max_push, slop, use_bias, index: pass, .. } = pass;
    let normal = c.normal;
    let count = pts.len();
    let block_done = c.has_block && solve_block(la, lb, c, pts, max_push, slop, use_bias);
    if !block_done {
        // For face contacts of three or more points (3D), the point that goes first rotates
        // from pass to pass, so that over a step every corner leads equally often (a fixed
        // order tilts a resting box towards the corner solved first, and friction then
        // walks it sideways).
        let ds = lb.dp - la.dp;
        for i in 0..count {
            let k = if count > 2 { (i + pass) % count } else { i };
            let cp = &mut pts[k];
            // Current separation from the motion since the step started.
            let pr_a = Dim::<D>::rotate(&la.dq, &cp.r_a);
            let pr_b = Dim::<D>::rotate(&lb.dq, &cp.r_b);
            let d = ds + (pr_b - pr_a);
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
            let vn = row_velocity(la, lb, &normal, &cp.normal_arm);
            let impulse =
                -cp.normal_mass * mass_scale * (vn + bias) - impulse_scale * cp.normal_impulse;
            let new_impulse = (cp.normal_impulse + impulse).max_of(N::zero());
            let delta = new_impulse - cp.normal_impulse;
            if delta > N::zero() {
                // The approach speed at impact (it grows during the step under gravity), for
                // the restitution pass.
                cp.relative_velocity = cp.relative_velocity.min_of(vn);
            }
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max_of(new_impulse);
            c.apply_row(la, lb, &normal, &cp.normal_turn, delta);
        }
    }
    if D == 3 {
        solve_patch(c, la, lb, pts);
        return;
    }
    // 2D: each point's Coulomb disc is the interval `[−max_f, max_f]`: a clamp, written as two
    // selects (an `if`/`else if` chain compiles to branches that mispredict whenever friction
    // saturates).
    for cp in pts.iter_mut() {
        let max_f = c.friction * cp.normal_impulse;
        let vt = row_velocity(la, lb, &c.tangents[0], &cp.tangent_arm[0]);
        let x = cp.tangent_impulse[0] - cp.tangent_mass[0] * vt;
        let low = if x < -max_f { -max_f } else { x };
        let new = if low > max_f { max_f } else { low };
        let delta = new - cp.tangent_impulse[0];
        cp.tangent_impulse[0] = new;
        c.apply_row(la, lb, &c.tangents[0], &cp.tangent_turn[0], delta);
    }
}

/// 3D friction on the whole manifold: both tangent rows at the patch centre from the same
/// velocities, their impulse scaled back onto the disc `|λ_t| ≤ μ Σ λ_n,i`, then the twist row
/// clamped to `|λ_τ| ≤ μ Σ λ_n,i r_i`.
#[inline(always)]
fn solve_patch<N: Scalar, const D: usize>(
    c: &mut ContactConstraint<N, D>,
    la: &mut Local<N, D>,
    lb: &mut Local<N, D>,
    pts: &[ConstraintPoint<N, D>],
) where
    Dim<D>: SolverDim<N, D>,
{
    let mut pushed = N::zero();
    let mut torque = N::zero();
    for cp in pts {
        pushed += cp.normal_impulse;
        torque += cp.normal_impulse * cp.twist_arm;
    }
    let max_f = c.friction * pushed;
    let patch = c.patch;
    let mut new = [N::zero(); 2];
    let mut len2 = N::zero();
    for (t, x) in new.iter_mut().enumerate() {
        let vt = row_velocity(la, lb, &c.tangents[t], &patch.tangent_arm[t]);
        *x = patch.tangent_impulse[t] - patch.tangent_mass[t] * vt;
        len2 += *x * *x;
    }
    if len2 > max_f * max_f {
        let scale = max_f / len2.sqrt();
        for x in &mut new {
            *x *= scale;
        }
    }
    for (t, &x) in new.iter().enumerate() {
        let delta = x - patch.tangent_impulse[t];
        c.apply_row(la, lb, &c.tangents[t], &patch.tangent_turn[t], delta);
    }
    c.patch.tangent_impulse = new;

    let axis = Dim::<D>::twist_axis(&c.normal);
    let spin = Dim::<D>::angular_dot(&lb.w, &axis) - Dim::<D>::angular_dot(&la.w, &axis);
    let max_t = c.friction * torque;
    let x = patch.twist_impulse - patch.twist_mass * spin;
    let low = if x < -max_t { -max_t } else { x };
    let new = if low > max_t { max_t } else { low };
    let delta = new - patch.twist_impulse;
    c.patch.twist_impulse = new;
    c.apply_twist(la, lb, delta);
}

/// The restitution pass: contacts that were approaching faster than `threshold` bounce back
/// with `e ×` their approach speed.
pub(crate) fn restitution<N: Scalar, const D: usize>(
    states: &mut [BodyState<N, D>],
    constraints: &[ContactConstraint<N, D>],
    points: &mut [ConstraintPoint<N, D>],
    threshold: N,
) where
    Dim<D>: SolverDim<N, D>,
{
    for c in constraints {
        if c.restitution == N::zero() {
            continue;
        }
        let (mut la, mut lb) = c.load(states);
        for cp in &mut points[c.range()] {
            if cp.relative_velocity > -threshold || cp.max_normal_impulse == N::zero() {
                continue;
            }
            let vn = row_velocity(&la, &lb, &c.normal, &cp.normal_arm);
            let impulse = -cp.normal_mass * (vn + c.restitution * cp.relative_velocity);
            let new_impulse = (cp.normal_impulse + impulse).max_of(N::zero());
            let delta = new_impulse - cp.normal_impulse;
            cp.normal_impulse = new_impulse;
            cp.max_normal_impulse = cp.max_normal_impulse.max_of(new_impulse);
            c.apply_row(&mut la, &mut lb, &c.normal, &cp.normal_turn, delta);
        }
        c.store(states, &la, &lb);
    }
}

/// Integrates velocities of dynamic bodies: gravity and damping.
pub(crate) fn integrate_velocities<N: Scalar, const D: usize>(
    states: &mut [BodyState<N, D>],
    bodies: &[SolverBody<N, D>],
    gravity: &Vector<N, D>,
    h: N,
) where
    Dim<D>: SolverDim<N, D>,
{
    let limits = SpeedLimits::for_substep(h);
    for (s, b) in states.iter_mut().zip(bodies).filter(|(_, b)| b.dynamic) {
        integrate_velocity(s, b, gravity, h, &limits);
    }
}

/// [`integrate_velocities`] for one dynamic body.
#[inline(always)]
pub(crate) fn integrate_velocity<N: Scalar, const D: usize>(
    s: &mut BodyState<N, D>,
    b: &SolverBody<N, D>,
    gravity: &Vector<N, D>,
    h: N,
    limits: &SpeedLimits<N>,
) where
    Dim<D>: SolverDim<N, D>,
{
    s.v += gravity * (b.gravity_scale * h);
    s.v *= N::one() / (N::one() + h * b.linear_damping);
    s.w = s.w * (N::one() / (N::one() + h * b.angular_damping));
    limits.clamp::<D>(&mut s.v, &mut s.w);
}

/// The speeds a dynamic body keeps during a step.
///
/// Speeds stay inside the world's envelope ([`crate::WorldLimits`]; Box2D clamps to its
/// maximum speeds the same way): a long fall under strong gravity would otherwise grow a speed
/// until its square, and then the body, overflow. Within a substep a body also turns by at most
/// a quarter turn (Box2D's limit too): beyond that the first-order rotation update and the
/// contacts' estimate of their separation from the bodies' turn (`ΔR r`, over lever arms as
/// long as a speculative contact) are meaningless, and with light bodies they blow up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SpeedLimits<N> {
    linear: N,
    angular: N,
}

impl<N: Scalar> SpeedLimits<N> {
    /// The limits within a substep of `h` seconds.
    #[inline(always)]
    pub(crate) fn for_substep(h: N) -> Self {
        let quarter_turn = N::lit(0.25 * core::f64::consts::PI) / h;
        Self::with_turn_rate(quarter_turn)
    }

    /// The envelope's limits alone.
    #[inline(always)]
    pub(crate) fn envelope() -> Self {
        Self::with_turn_rate(N::MAX)
    }

    #[inline(always)]
    fn with_turn_rate(turn_rate: N) -> Self {
        // A few ulps inside the limits, so that rounding in the squares and the scaling cannot
        // leave a speed outside them (where `World::set_velocity` would refuse it).
        let inside = N::one() - N::lit(8.0) * N::EPSILON;
        let (linear, angular) = max_speeds::<N>();
        Self { linear: linear * inside, angular: angular.min_of(turn_rate) * inside }
    }

    /// Scales a velocity down to the limits where it exceeds them.
    #[inline(always)]
    pub(crate) fn clamp<const D: usize>(&self, v: &mut Vector<N, D>, w: &mut Ang<N, D>)
    where
        Dim<D>: SolverDim<N, D>,
    {
        let v2 = v.norm_squared();
        if v2 > self.linear * self.linear {
            *v *= self.linear / v2.sqrt();
        }
        let w2 = Dim::<D>::angular_dot(w, w);
        if w2 > self.angular * self.angular {
            *w = *w * (self.angular / w2.sqrt());
        }
    }
}

/// Integrates positions of moving bodies and updates their motion since the step started.
pub(crate) fn integrate_positions<N: Scalar, const D: usize>(
    states: &mut [BodyState<N, D>],
    bodies: &mut [SolverBody<N, D>],
    h: N,
) where
    Dim<D>: SolverDim<N, D>,
{
    for (s, b) in states.iter_mut().zip(bodies.iter_mut()).filter(|(_, b)| b.moves) {
        integrate_position(s, b, h);
    }
}

/// [`integrate_positions`] for one moving body.
#[inline(always)]
pub(crate) fn integrate_position<N: Scalar, const D: usize>(
    s: &mut BodyState<N, D>,
    b: &mut SolverBody<N, D>,
    h: N,
) where
    Dim<D>: SolverDim<N, D>,
{
    s.dp += s.v * h;
    b.q = Dim::<D>::integrate_rotation(&b.q, &s.w, h);
    s.dq = Dim::<D>::rotation_delta(&b.q, &b.q0);
}
