//! The contact solver: sequential impulses with soft contacts, substeps and relaxation, written
//! once over lanes ([`Lane`]) and the dimension ([`DimLanes`]).
//!
//! This is Erin Catto's "soft step" (Solver2D, 2024), the solver of Box2D v3. One world step of
//! length `dt` is `n` substeps of `h = dt / n`:
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
//! `s = n · ((Δp_B + ΔR_B r_B) − (Δp_A + ΔR_A r_A)) + s₀ − n · (r_B − r_A)`. It depends only on
//! positions, which do not move between one substep's relax pass and the next substep's solve
//! pass, so the latter reuses the former's separations.
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
//! **Two-point manifolds** solve both normal impulses together (a block solver, as in Box2D
//! 2.4): symmetric contacts get symmetric impulses, so a box that lands flat does not start to
//! spin because one corner was solved first. Where the block would pull, or a point is
//! speculative, the points are solved one by one instead. Manifolds of three or more points (3D)
//! rotate which point goes first from pass to pass, so that no corner always leads.
//!
//! **Friction.** In 2D each point has its friction row, clamped to `|λ_t| ≤ μ λ_n`. In 3D
//! friction acts on the manifold as a whole (a *friction patch*, as in PhysX's patch friction
//! and rapier's simplified friction model): two tangent rows at the centroid `c` of the points,
//! whose impulse `λ_t` is clamped to the Coulomb disc `|λ_t| ≤ μ Σ λ_n,i`, and one twist row for
//! the relative spin about the normal, clamped to `|λ_τ| ≤ μ Σ λ_n,i |p_i − c|`: the largest
//! torque the points' own friction could resist. That is three rows per manifold instead of
//! two per point, with the same limits on the force and on the torque about the normal. Warm
//! starting keeps the patch impulses as equal shares on the manifold's contacts, so they survive
//! contacts coming and going.
//!
//! **Speculative contacts.** A contact with `s > 0` (within the speculative margin) removes only
//! the approach velocity that would close the gap within the substep: `bias = s / h`.
//!
//! **Lanes.** The world hands the constraints over in *waves* whose constraints share no dynamic
//! body (see `step/colouring.rs`), so they commute: solving them side by side, one per lane, leaves the
//! same state as solving them one by one. `prepare` (`contact_prepare.rs`) packs each wave into
//! [`Bundle`]s of [`Lane::LANES`] constraints (structure of arrays: every number of a bundle is a
//! lane value), and every pass below runs on bundles. Branches of the scalar algorithm become
//! masks and selects; a lane that must not change gets a zero impulse, and lanes whose body must
//! not be written (static and kinematic bodies, unused lanes) write to a spare slot. The same
//! code runs with one lane (`f64` worlds) and with four (`f32` worlds); each lane performs the
//! same operations in the same order, so the answers agree up to the sign of a zero velocity
//! (a masked lane adds a zero impulse where one lane adds nothing).
//!
//! **Data layout.** Bodies live in slots ([`DimLanes::Slot`]) while the solver runs: rows of four
//! numbers that load with one transpose per row. Each point keeps its rows' angular parts
//! (`r × n`, and the same through the inverse inertia), so a relative velocity or an impulse
//! costs a few multiplies.

use kollide_math::{Point, Scalar, Vector};

use crate::lane::Lane;
use crate::lane_dim::{DimLanes, dot, sub};
use crate::limits::max_speeds;
use crate::slots::Slots;
use crate::{Dim, SolverDim};

type Ang<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Angular;
type Inertia<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Inertia;
type Rot<N, const D: usize> = <Dim<D> as SolverDim<N, D>>::Rotation;
/// An angular quantity in lanes.
pub(crate) type LaneAng<L, const D: usize> = <L as DimLanes<D>>::Angular;

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
    /// Centre of mass at the start of the step, and in the body's frame.
    pub center: Point<N, D>,
    pub local_center: Vector<N, D>,
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
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// What `prepare` needs to know of a pair besides the bodies and the manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// Integrates the velocity of one dynamic body: gravity and damping, within the speed limits.
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

/// Integrates the position of one moving body and its motion since the step started.
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

/// One contact point of each constraint of a bundle.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LanePoint<L: DimLanes<D>, const D: usize> {
    /// Lanes whose constraint has this point. A missing point has zero mass, arms and
    /// impulses, so its rows apply zero.
    pub exists: L::Mask,
    pub r_a: [L; D],
    pub r_b: [L; D],
    pub adjusted_separation: L,
    pub normal_mass: L,
    pub normal_impulse: L,
    pub max_normal_impulse: L,
    /// The approach speed at impact, for the restitution pass.
    pub relative_velocity: L,
    /// The separation as of the last pass that computed it (see [`solve`]).
    pub separation: L,
    /// The normal row's angular parts: `r × n` for each body (the relative normal velocity is
    /// `(v_B − v_A)·n + ω_B·(r_B × n) − ω_A·(r_A × n)`), and the same through the body's inverse
    /// inertia (the angular velocity change per unit impulse; zero for bodies that do not
    /// respond to impulses).
    pub normal_arm: [LaneAng<L, D>; 2],
    pub normal_turn: [LaneAng<L, D>; 2],
    /// 2D: the point's friction row (its angular parts, effective mass and impulse).
    pub tangent_rows: <L as DimLanes<D>>::PointFriction,
    pub tangent_mass: L,
    pub tangent_impulse: L,
    /// 3D: the point's distance from the friction patch's centre, its lever for the twist
    /// limit.
    pub twist_arm: L,
}

/// The constraints of up to [`Lane::LANES`] manifolds of one wave, one per lane. Its points are
/// `points[first..first + count]` of the solver's flat point array.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bundle<L: DimLanes<D>, const D: usize> {
    /// Body (slot) indices; unused lanes repeat lane 0's bodies.
    pub a: L::Index,
    pub b: L::Index,
    /// Where each lane's bodies are written: their own slots for dynamic bodies, the spare
    /// slot for the rest (and for unused lanes).
    pub write_a: L::Index,
    pub write_b: L::Index,
    /// Index of each lane's pair in the world's pair list.
    pub pair: L::Index,
    pub used: u8,
    pub count: u8,
    pub first: u32,
    /// Lanes with two points whose coupled mass `K` is well conditioned.
    pub has_block: L::Mask,
    pub normal: [L; D],
    /// The friction directions (2D: the first).
    pub tangents: [[L; D]; 2],
    /// The relative tangent velocity friction drives towards along each direction (zero
    /// unless a contact hook set one: the surfaces stick).
    pub surface: [L; 2],
    pub friction: L,
    pub restitution: L,
    pub bias_rate: L,
    pub mass_scale: L,
    pub impulse_scale: L,
    /// Inverse masses (zero for bodies that do not respond to impulses).
    pub inv_mass_a: L,
    pub inv_mass_b: L,
    /// `K⁻¹` (symmetric): its entries 00, 01 (= 10) and 11; and `K`'s diagonal.
    pub k_inv: [L; 3],
    pub k_diag: [L; 2],
    /// 3D: the friction patch: tangent rows at the points' centroid (`[tangent][body]`) and
    /// the twist row about the normal.
    pub patch_arm: [[LaneAng<L, D>; 2]; 2],
    pub patch_turn: [[LaneAng<L, D>; 2]; 2],
    pub patch_mass: [L; 2],
    pub patch_impulse: [L; 2],
    pub twist_turn: [LaneAng<L, D>; 2],
    pub twist_mass: L,
    pub twist_impulse: L,
}

impl<L: DimLanes<D>, const D: usize> Bundle<L, D> {
    /// The bundle's points in a run of points that starts with the point `base` of the flat
    /// point array.
    #[inline(always)]
    fn range(&self, base: usize) -> core::ops::Range<usize> {
        let first = self.first as usize - base;
        first..first + self.count as usize
    }

    /// The velocities of both bodies of each lane.
    #[inline(always)]
    fn load<S: Slots<L, D> + ?Sized>(&self, slots: &S) -> (Velocity<L, D>, Velocity<L, D>) {
        (Velocity::load(slots, self.a), Velocity::load(slots, self.b))
    }

    /// Writes the velocities back (the spare slot takes lanes that must not write).
    #[inline(always)]
    fn store<S: Slots<L, D> + ?Sized>(
        &self,
        slots: &mut S,
        a: &Velocity<L, D>,
        b: &Velocity<L, D>,
    ) {
        L::store_velocity(|i, r, row| slots.set_row(i, r, row), self.write_a, &a.v, &a.w);
        L::store_velocity(|i, r, row| slots.set_row(i, r, row), self.write_b, &b.v, &b.w);
    }

    /// Applies `impulse·dir` to B and its opposite to A, the angular parts through `turn`.
    #[inline(always)]
    fn apply_row(
        &self,
        a: &mut Velocity<L, D>,
        b: &mut Velocity<L, D>,
        dir: &[L; D],
        turn: &[LaneAng<L, D>; 2],
        impulse: L,
    ) {
        for (k, &d) in dir.iter().enumerate() {
            let p = d * impulse;
            a.v[k] -= p * self.inv_mass_a;
            b.v[k] += p * self.inv_mass_b;
        }
        L::sub_scaled(&mut a.w, &turn[0], impulse);
        L::add_scaled(&mut b.w, &turn[1], impulse);
    }

    /// Applies the twist impulse `λ` about the normal: `−λ n` to A's spin, `+λ n` to B's.
    #[inline(always)]
    fn apply_twist(&self, a: &mut Velocity<L, D>, b: &mut Velocity<L, D>, impulse: L) {
        L::sub_scaled(&mut a.w, &self.twist_turn[0], impulse);
        L::add_scaled(&mut b.w, &self.twist_turn[1], impulse);
    }
}

/// A body's velocities in lanes, as a constraint reads and writes them: loaded once per
/// bundle and stored once, as Box2D's solver does (indexing the bodies for every row costs
/// more than the arithmetic).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Velocity<L: DimLanes<D>, const D: usize> {
    v: [L; D],
    w: LaneAng<L, D>,
}

impl<L: DimLanes<D>, const D: usize> Velocity<L, D> {
    #[inline(always)]
    fn load<S: Slots<L, D> + ?Sized>(slots: &S, at: L::Index) -> Self {
        let (v, w) = L::load_velocity(|i, r| slots.row(i, r), at);
        Self { v, w }
    }
}

/// The relative velocity of B against A along a row: `(v_B − v_A)·dir + ω_B·arm_B − ω_A·arm_A`.
#[inline(always)]
fn row_velocity<L: DimLanes<D>, const D: usize>(
    a: &Velocity<L, D>,
    b: &Velocity<L, D>,
    dir: &[L; D],
    arm: &[LaneAng<L, D>; 2],
) -> L {
    dot(&sub(&b.v, &a.v), dir) + L::angular_dot(&b.w, &arm[1]) - L::angular_dot(&a.w, &arm[0])
}

/// The current separation of a point from its bodies' motion since the step started.
#[inline(always)]
fn separation<L: DimLanes<D>, const D: usize>(
    normal: &[L; D],
    a: &([L; D], L::Rotation),
    b: &([L; D], L::Rotation),
    p: &LanePoint<L, D>,
) -> L {
    let pa = L::rotate(&a.1, &p.r_a);
    let pb = L::rotate(&b.1, &p.r_b);
    let d: [L; D] = core::array::from_fn(|k| (b.0[k] - a.0[k]) + (pb[k] - pa[k]));
    dot(&d, normal) + p.adjusted_separation
}

/// The point of the flat point array that a run of bundles' points starts with.
#[inline(always)]
fn base<L: DimLanes<D>, const D: usize>(bundles: &[Bundle<L, D>]) -> usize {
    bundles.first().map_or(0, |b| b.first as usize)
}

/// Applies the accumulated impulses (start of each substep). `bundles` are consecutive, and
/// `points` are their points (as in all the passes below).
pub(crate) fn warm_start<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized>(
    slots: &mut S,
    bundles: &[Bundle<L, D>],
    points: &[LanePoint<L, D>],
) {
    let base = base(bundles);
    for bundle in bundles {
        let (mut a, mut b) = bundle.load(slots);
        for p in &points[bundle.range(base)] {
            bundle.apply_row(&mut a, &mut b, &bundle.normal, &p.normal_turn, p.normal_impulse);
            if !L::PATCH_FRICTION {
                let (t, (_, turn)) = (&bundle.tangents[0], L::point_friction_rows(&p.tangent_rows));
                bundle.apply_row(&mut a, &mut b, t, turn, p.tangent_impulse);
            }
        }
        if L::PATCH_FRICTION {
            for t in 0..2 {
                let (dir, turn) = (&bundle.tangents[t], &bundle.patch_turn[t]);
                bundle.apply_row(&mut a, &mut b, dir, turn, bundle.patch_impulse[t]);
            }
            bundle.apply_twist(&mut a, &mut b, bundle.twist_impulse);
        }
        bundle.store(slots, &a, &b);
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
    /// Some bundle has a surface velocity (a contact hook set a tangent velocity): friction
    /// reads it. Without, the friction rows skip it.
    pub surfaces: bool,
}

/// One pass over the bundles: non-penetration (soft when `use_bias`), then friction.
///
/// A point's separation depends only on the bodies' motion since the step started, which
/// changes when positions are integrated, not within a pass. With `moved` the pass computes
/// every separation and keeps it with the point; without, it reuses the kept ones.
pub(crate) fn solve<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized>(
    slots: &mut S,
    bundles: &mut [Bundle<L, D>],
    points: &mut [LanePoint<L, D>],
    pass: Pass<L::Scalar>,
    moved: bool,
) {
    if pass.surfaces {
        solve_bundles::<L, D, S, true>(slots, bundles, points, pass, moved);
    } else {
        solve_bundles::<L, D, S, false>(slots, bundles, points, pass, moved);
    }
}

/// [`solve`], with surface velocities read by the friction rows when `SURFACE`.
#[inline(always)]
fn solve_bundles<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized, const SURFACE: bool>(
    slots: &mut S,
    bundles: &mut [Bundle<L, D>],
    points: &mut [LanePoint<L, D>],
    pass: Pass<L::Scalar>,
    moved: bool,
) {
    let base = base(bundles);
    if pass.reverse {
        for bundle in bundles.iter_mut().rev() {
            let pts = &mut points[bundle.range(base)];
            solve_bundle::<L, D, S, SURFACE>(slots, bundle, pts, pass, moved);
        }
    } else {
        for bundle in bundles.iter_mut() {
            let pts = &mut points[bundle.range(base)];
            solve_bundle::<L, D, S, SURFACE>(slots, bundle, pts, pass, moved);
        }
    }
}

/// What the normal rows of one pass share.
#[derive(Clone, Copy)]
struct NormalPass<L> {
    /// Whether the soft bias applies, and its mass and impulse scales.
    use_bias: bool,
    mass_scale: L,
    impulse_scale: L,
    bias_rate: L,
    neg_max_push: L,
    slop: L,
    inv_h: L,
}

impl<L: Lane> NormalPass<L> {
    /// The soft push-out bias of a touching point of separation `s`.
    #[inline(always)]
    fn soft_bias(&self, s: L) -> L {
        if self.use_bias {
            (self.bias_rate * (s + self.slop).min(L::zero())).max(self.neg_max_push)
        } else {
            L::zero()
        }
    }
}

/// Solves one bundle: its normal rows, then its friction.
#[inline(always)]
fn solve_bundle<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized, const SURFACE: bool>(
    slots: &mut S,
    bundle: &mut Bundle<L, D>,
    pts: &mut [LanePoint<L, D>],
    pass: Pass<L::Scalar>,
    moved: bool,
) {
    let (mut a, mut b) = bundle.load(slots);
    if moved {
        let motion = |at| L::load_motion(|i, r| slots.row(i, r), at);
        let (ma, mb) = (motion(bundle.a), motion(bundle.b));
        for p in pts.iter_mut() {
            p.separation = separation(&bundle.normal, &ma, &mb, p);
        }
    }
    let (one, zero) = (L::one(), L::zero());
    let (mass_scale, impulse_scale) =
        if pass.use_bias { (bundle.mass_scale, bundle.impulse_scale) } else { (one, zero) };
    let np = NormalPass {
        use_bias: pass.use_bias,
        mass_scale,
        impulse_scale,
        bias_rate: bundle.bias_rate,
        neg_max_push: L::splat(-pass.max_push),
        slop: L::splat(pass.slop),
        inv_h: L::splat(pass.inv_h),
    };
    let block = solve_block(bundle, pts, &mut a, &mut b, &np);
    solve_points(bundle, pts, &mut a, &mut b, &np, block, pass.index);
    if L::PATCH_FRICTION {
        solve_patch::<L, D, SURFACE>(bundle, pts, &mut a, &mut b);
    } else {
        solve_point_friction::<L, D, SURFACE>(bundle, pts, &mut a, &mut b);
    }
    bundle.store(slots, &a, &b);
}

/// Solves the two normal impulses of two-point manifolds together:
/// `Δλ = −K⁻¹ [m_s (v_n + bias) + i_s diag(K) λ]`. Its fixed point is exactly that of solving the
/// points one by one (each point a spring with its own effective mass `1/kᵢᵢ`, as in Box2D), so
/// the contact is as stiff as the per-point solver, but symmetric. (Using
/// `−m_s K⁻¹ (v_n + bias) − i_s λ` instead would make two points on the same side of a body
/// softer.) Returns the lanes it solved: those where both points touch (none is speculative) and
/// both new impulses push; the others are left to [`solve_points`], which handles the clamping.
#[inline(always)]
fn solve_block<L: DimLanes<D>, const D: usize>(
    bundle: &Bundle<L, D>,
    pts: &mut [LanePoint<L, D>],
    a: &mut Velocity<L, D>,
    b: &mut Velocity<L, D>,
    np: &NormalPass<L>,
) -> L::Mask {
    let zero = L::zero();
    let none = L::mask_from(|_| false);
    let [p0, p1] = pts else { return none };
    let (s0, s1) = (p0.separation, p1.separation);
    let touching = bundle.has_block & !s0.gt(zero) & !s1.gt(zero);
    if L::none(touching) {
        return none;
    }
    let n = &bundle.normal;
    let rhs0 = row_velocity(a, b, n, &p0.normal_arm) + np.soft_bias(s0);
    let rhs1 = row_velocity(a, b, n, &p1.normal_arm) + np.soft_bias(s1);
    let (l0, l1) = (p0.normal_impulse, p1.normal_impulse);
    let (ms, is) = (np.mass_scale, np.impulse_scale);
    let e0 = ms * rhs0 + is * bundle.k_diag[0] * l0;
    let e1 = ms * rhs1 + is * bundle.k_diag[1] * l1;
    let d0 = -(bundle.k_inv[0] * e0 + bundle.k_inv[1] * e1);
    let d1 = -(bundle.k_inv[1] * e0 + bundle.k_inv[2] * e1);
    let (n0, n1) = (l0 + d0, l1 + d1);
    let block = touching & !n0.lt(zero) & !n1.lt(zero);
    if L::none(block) {
        return block;
    }
    for (p, (new, delta)) in [p0, p1].into_iter().zip([(n0, d0), (n1, d1)]) {
        p.normal_impulse = L::select(block, new, p.normal_impulse);
        p.max_normal_impulse =
            L::select(block, p.max_normal_impulse.max(new), p.max_normal_impulse);
        let delta = L::select(block, delta, zero);
        bundle.apply_row(a, b, n, &p.normal_turn, delta);
    }
    block
}

/// The normal rows point by point, in the lanes the block solver left. Manifolds of three or
/// more points start at point `pass mod count` (all lanes of such a bundle have `count`
/// points), so that over a step every corner leads equally often: a fixed order tilts a
/// resting box towards the corner solved first, and friction then walks it sideways.
#[inline(always)]
fn solve_points<L: DimLanes<D>, const D: usize>(
    bundle: &Bundle<L, D>,
    pts: &mut [LanePoint<L, D>],
    a: &mut Velocity<L, D>,
    b: &mut Velocity<L, D>,
    np: &NormalPass<L>,
    block: L::Mask,
    pass: usize,
) {
    let (zero, one) = (L::zero(), L::one());
    let count = pts.len();
    let lead = if count > 2 { pass % count } else { 0 };
    for i in 0..count {
        let k = if i + lead < count { i + lead } else { i + lead - count };
        let p = &mut pts[k];
        let m = !block & p.exists;
        if L::none(m) {
            continue;
        }
        let s = p.separation;
        let vn = row_velocity(a, b, &bundle.normal, &p.normal_arm);
        let spec = s.gt(zero);
        let bias = L::select(spec, s * np.inv_h, np.soft_bias(s));
        let mass_scale = L::select(spec, one, np.mass_scale);
        let impulse_scale = L::select(spec, zero, np.impulse_scale);
        let impulse = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
        let new = (p.normal_impulse + impulse).max(zero);
        let delta = new - p.normal_impulse;
        // The approach speed at impact (it grows during the step under gravity).
        let approach = m & delta.gt(zero);
        p.relative_velocity = L::select(approach, p.relative_velocity.min(vn), p.relative_velocity);
        p.normal_impulse = L::select(m, new, p.normal_impulse);
        p.max_normal_impulse = L::select(m, p.max_normal_impulse.max(new), p.max_normal_impulse);
        bundle.apply_row(a, b, &bundle.normal, &p.normal_turn, L::select(m, delta, zero));
    }
}

/// `x` clamped to `[−limit, limit]` as `x < −limit ? −limit : x`, then `low > limit ? limit :
/// low` (two selects: branches would mispredict whenever friction saturates).
#[inline(always)]
fn clamp<L: Lane>(x: L, limit: L) -> L {
    limit.min((-limit).max(x))
}

/// 2D friction: each point's Coulomb interval `|λ_t| ≤ μ λ_n`, driving the relative tangent
/// velocity to the bundle's surface velocity (zero: sticking). A missing point has zero mass,
/// impulse and arms, so its impulse stays zero.
#[inline(always)]
fn solve_point_friction<L: DimLanes<D>, const D: usize, const SURFACE: bool>(
    bundle: &Bundle<L, D>,
    pts: &mut [LanePoint<L, D>],
    a: &mut Velocity<L, D>,
    b: &mut Velocity<L, D>,
) {
    let t = &bundle.tangents[0];
    for p in pts.iter_mut() {
        let max_f = bundle.friction * p.normal_impulse;
        let (arm, turn) = L::point_friction_rows(&p.tangent_rows);
        let mut vt = row_velocity(a, b, t, arm);
        if SURFACE {
            vt -= bundle.surface[0];
        }
        let new = clamp(p.tangent_impulse - p.tangent_mass * vt, max_f);
        let delta = new - p.tangent_impulse;
        p.tangent_impulse = new;
        bundle.apply_row(a, b, t, turn, delta);
    }
}

/// 3D friction on the whole manifold: both tangent rows at the patch centre from the same
/// velocities, their impulse scaled back onto the disc `|λ_t| ≤ μ Σ λ_n,i`, then the twist row
/// clamped to `|λ_τ| ≤ μ Σ λ_n,i r_i`. Missing points add zero.
#[inline(always)]
fn solve_patch<L: DimLanes<D>, const D: usize, const SURFACE: bool>(
    bundle: &mut Bundle<L, D>,
    pts: &[LanePoint<L, D>],
    a: &mut Velocity<L, D>,
    b: &mut Velocity<L, D>,
) {
    let zero = L::zero();
    let (mut pushed, mut torque) = (zero, zero);
    for p in pts {
        pushed += p.normal_impulse;
        torque += p.normal_impulse * p.twist_arm;
    }
    let max_f = bundle.friction * pushed;
    let mut new = [zero; 2];
    let mut len2 = zero;
    for (t, x) in new.iter_mut().enumerate() {
        let mut vt = row_velocity(a, b, &bundle.tangents[t], &bundle.patch_arm[t]);
        if SURFACE {
            vt -= bundle.surface[t];
        }
        *x = bundle.patch_impulse[t] - bundle.patch_mass[t] * vt;
        len2 += *x * *x;
    }
    let over = len2.gt(max_f * max_f);
    // Sliding is the exception in a pile: the square root and division only when a lane
    // needs them.
    if L::any(over) {
        let scale = max_f / len2.sqrt();
        for x in &mut new {
            *x = L::select(over, *x * scale, *x);
        }
    }
    for (t, &x) in new.iter().enumerate() {
        let delta = x - bundle.patch_impulse[t];
        bundle.apply_row(a, b, &bundle.tangents[t], &bundle.patch_turn[t], delta);
    }
    bundle.patch_impulse = new;
    let axis = L::twist_axis(&bundle.normal);
    let spin = L::angular_dot(&b.w, &axis) - L::angular_dot(&a.w, &axis);
    let max_t = bundle.friction * torque;
    let new = clamp(bundle.twist_impulse - bundle.twist_mass * spin, max_t);
    let delta = new - bundle.twist_impulse;
    bundle.twist_impulse = new;
    bundle.apply_twist(a, b, delta);
}

/// The restitution pass: points that approached faster than `threshold` and pushed bounce
/// back with `e ×` their approach speed.
pub(crate) fn restitution<L: DimLanes<D>, const D: usize, S: Slots<L, D> + ?Sized>(
    slots: &mut S,
    bundles: &[Bundle<L, D>],
    points: &mut [LanePoint<L, D>],
    threshold: L::Scalar,
) {
    let zero = L::zero();
    let neg_threshold = L::splat(-threshold);
    let base = base(bundles);
    for bundle in bundles {
        let pts = &mut points[bundle.range(base)];
        let bouncing = |p: &LanePoint<L, D>| {
            p.exists
                & !bundle.restitution.eq(zero)
                & !p.relative_velocity.gt(neg_threshold)
                & !p.max_normal_impulse.eq(zero)
        };
        if pts.iter().all(|p| L::none(bouncing(p))) {
            continue;
        }
        let (mut a, mut b) = bundle.load(slots);
        for p in pts.iter_mut() {
            let m = bouncing(p);
            let vn = row_velocity(&a, &b, &bundle.normal, &p.normal_arm);
            let impulse = -p.normal_mass * (vn + bundle.restitution * p.relative_velocity);
            let new = (p.normal_impulse + impulse).max(zero);
            let delta = new - p.normal_impulse;
            p.normal_impulse = L::select(m, new, p.normal_impulse);
            p.max_normal_impulse =
                L::select(m, p.max_normal_impulse.max(new), p.max_normal_impulse);
            let delta = L::select(m, delta, zero);
            bundle.apply_row(&mut a, &mut b, &bundle.normal, &p.normal_turn, delta);
        }
        bundle.store(slots, &a, &b);
    }
}
