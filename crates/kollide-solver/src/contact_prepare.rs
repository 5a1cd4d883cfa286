//! Building the contact solver's bundles from the manifolds, and writing the impulses back.
//!
//! [`plan`] groups the touching pairs of a step (in wave order) into bundles of [`Lane::LANES`]
//! constraints, and [`build`] turns groups into [`Bundle`]s (each group on its own, so threads
//! can build different groups): for each point its anchors relative to both centres of mass,
//! its separation at the start of the step, the angular parts and effective masses of its rows
//! and the impulses it inherits from last step (warm starting); for each manifold its normal,
//! friction directions, softness, and for two-point manifolds the inverse of the coupled normal
//! mass `K` (the block solver's). In 3D it also builds the friction patch at the points'
//! centroid (see `contact_solver.rs`). [`store_impulses`] hands the accumulated impulses back to
//! the manifolds for the next step.
//!
//! **Grouping.** Constraints of one wave commute, so a wave's constraints may be bundled in any
//! order; [`group`] puts constraints of the same *class* together, the class being what the
//! lanes of a bundle should agree on. In 3D manifolds of three or more points rotate which point
//! leads by `(i + pass) % count`, so their lanes must have the same point count. In 2D the class
//! is the likely outcome (two touching points that pushed last step take the block solve; the
//! rest are solved point by point), so that most bundles run only one of the two.

use kollide_manifold::{Contact, MAX_CONTACTS};
use kollide_math::{Scalar, Vector};

use crate::contact_solver::{BodyState, Bundle, LaneAng, LanePoint, PrepareInput, SolverBody};
use crate::lane::Lane;
use crate::lane_dim::{DimLanes, add, dot, sub};
use crate::{ContactImpulse, ContactPair, Dim, SolverDim};

/// The constraints of one bundle, as [`group`] emits them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group {
    /// Constraint index of each lane; unused lanes repeat lane 0's.
    pub lanes: [u32; 4],
    /// Lanes in use.
    pub used: usize,
}

/// Groups the constraints (in wave order, `waves[k]` the wave of constraint `k`) into bundles of
/// up to `width` (at most four) constraints of the same wave and the same class (`class(k)`),
/// calling `emit` for each bundle in wave order. `scratch` is reused storage.
pub(crate) fn group(
    waves: &[u32],
    width: usize,
    class: impl Fn(usize) -> u8,
    scratch: &mut Vec<u32>,
    mut emit: impl FnMut(Group),
) {
    let mut start = 0;
    while start < waves.len() {
        let mut end = start + 1;
        while end < waves.len() && waves[end] == waves[start] {
            end += 1;
        }
        // The wave's constraints, grouped by class (stable: constraint order within a class),
        // one sweep per class present: classes are few, and this needs no sort buffer.
        scratch.clear();
        let top = (start..end).map(&class).max().unwrap_or(0);
        for c in 0..=top {
            scratch.extend((start as u32..end as u32).filter(|&k| class(k as usize) == c));
        }
        let mut i = 0;
        while i < scratch.len() {
            let c = class(scratch[i] as usize);
            let mut j = i + 1;
            while j < scratch.len() && j - i < width && class(scratch[j] as usize) == c {
                j += 1;
            }
            let lanes = core::array::from_fn(|l| scratch[if i + l < j { i + l } else { i }]);
            emit(Group { lanes, used: j - i });
            i = j;
        }
        start = end;
    }
}

/// What [`plan`] and [`build`] read.
pub(crate) struct PrepareFrom<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    /// The touching pairs' inputs in wave order, and the wave of each.
    pub inputs: &'a [PrepareInput<N>],
    pub waves: &'a [u32],
    pub pairs: &'a [ContactPair<N, D>],
    pub bodies: &'a [SolverBody<N, D>],
    pub states: &'a [BodyState<N, D>],
    /// The tangent velocities contact hooks set, by pair index (sorted).
    pub surfaces: &'a [(u32, Vector<N, D>)],
}

/// Groups the constraints into bundles (see [`group`]): `groups` gets each bundle's
/// constraints, in wave order, and `wave_starts` the index of each wave's first bundle.
/// `classes` and `order` are reused storage.
pub(crate) fn plan<L: DimLanes<D>, const D: usize>(
    from: &PrepareFrom<'_, L::Scalar, D>,
    classes: &mut Vec<u8>,
    order: &mut Vec<u32>,
    groups: &mut Vec<Group>,
    wave_starts: &mut Vec<u32>,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    groups.clear();
    wave_starts.clear();
    let zero = L::Scalar::lit(0.0);
    classes.clear();
    // One lane has nothing to agree on: every class is the same, so `group` keeps wave order.
    let one_lane = L::LANES == 1;
    classes.extend(from.inputs.iter().map(|input| {
        if one_lane {
            return 0;
        }
        let m = &from.pairs[input.pair as usize].manifold;
        if L::PATCH_FRICTION {
            // Bundles of three or more points need one point count.
            m.len().max(2) as u8
        } else {
            // Class 0: two points that touched and pushed last step (likely block solves).
            let block = m.len() == 2
                && m.contacts()
                    .iter()
                    .all(|c| c.separation <= zero && (!input.warm_start || c.user.normal > zero));
            u8::from(!block)
        }
    }));
    let mut last_wave = None;
    group(
        from.waves,
        L::LANES,
        |k| classes[k],
        order,
        |g| {
            let wave = Some(from.waves[g.lanes[0] as usize]);
            if wave != last_wave {
                wave_starts.push(groups.len() as u32);
                last_wave = wave;
            }
            groups.push(g);
        },
    );
}

/// Appends the bundles of `groups` to `bundles` and their points to `points` (each bundle's
/// `first` indexes `points`). `spare` is the spare slot's index.
pub(crate) fn build<L: DimLanes<D>, const D: usize>(
    from: &PrepareFrom<'_, L::Scalar, D>,
    groups: &[Group],
    spare: u32,
    bundles: &mut Vec<Bundle<L, D>>,
    points: &mut Vec<LanePoint<L, D>>,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    for &g in groups {
        let bundle = prepare_bundle(from, g, spare, points);
        bundles.push(bundle);
    }
}

/// The bodies of each lane as `prepare` reads them.
struct Bodies<L: DimLanes<D>, const D: usize> {
    /// Each lane's slot, and whether its body is dynamic (lanes past `LANES` repeat lane 0).
    at: [u32; 4],
    dynamic: [bool; 4],
    center: [L; D],
    v: [L; D],
    w: LaneAng<L, D>,
    /// Inverse mass and inertia as stored (the block solver's `K` uses these) and as applied
    /// (zero unless the body is dynamic).
    inv_mass: L,
    inv_inertia: L::Inertia,
    applied_inv_mass: L,
    applied_inv_inertia: L::Inertia,
}

impl<L: DimLanes<D>, const D: usize> Bodies<L, D> {
    #[inline(always)]
    fn gather(
        bodies: &[SolverBody<L::Scalar, D>],
        states: &[BodyState<L::Scalar, D>],
        at: impl Fn(usize) -> u32,
    ) -> Self
    where
        Dim<D>: SolverDim<L::Scalar, D>,
    {
        let (b, s) = (
            per_lane::<L, _>(|l| &bodies[at(l) as usize]),
            per_lane::<L, _>(|l| &states[at(l) as usize]),
        );
        let b = |l: usize| b[l];
        let s = |l: usize| s[l];
        let is_dynamic = per_lane::<L, _>(|l| b(l).dynamic);
        let dynamic = L::mask_from(|l| is_dynamic[l]);
        let inv_mass = L::from_fn(|l| b(l).inv_mass);
        let inv_inertia = L::inertia_from_fn(|l| Dim::<D>::inertia_rows(&b(l).inv_inertia));
        Self {
            at: per_lane::<L, _>(&at),
            dynamic: is_dynamic,
            center: vector(|l| b(l).center.coords),
            v: vector(|l| s(l).v),
            w: L::angular_from_fn(|l| Dim::<D>::angular_components(&s(l).w)),
            inv_mass,
            inv_inertia,
            applied_inv_mass: L::select(dynamic, inv_mass, L::zero()),
            applied_inv_inertia: L::inertia_where(dynamic, &inv_inertia),
        }
    }
}

/// `f(l)` for each lane `l` (the rest of the four repeat lane 0's).
#[inline(always)]
fn per_lane<L: Lane, T: Copy>(f: impl Fn(usize) -> T) -> [T; 4] {
    let first = f(0);
    let mut out = [first; 4];
    for (l, x) in out.iter_mut().enumerate().take(L::LANES).skip(1) {
        *x = f(l);
    }
    out
}

/// Lane `l` holds the vector `f(l)` (`f` is called once per lane).
#[inline(always)]
fn vector<L: Lane, const D: usize>(f: impl Fn(usize) -> Vector<L::Scalar, D>) -> [L; D] {
    let mut lanes = [Vector::<L::Scalar, D>::zeros(); 4];
    for (l, v) in lanes.iter_mut().enumerate().take(L::LANES) {
        *v = f(l);
    }
    core::array::from_fn(|k| L::from_fn(|l| lanes[l][k]))
}

/// A row's arms `[r_A × dir, r_B × dir]` and turns (the arms through the applied inverse
/// inertias).
#[inline(always)]
fn arms<L: DimLanes<D>, const D: usize>(
    ba: &Bodies<L, D>,
    bb: &Bodies<L, D>,
    r_a: &[L; D],
    r_b: &[L; D],
    dir: &[L; D],
) -> ([LaneAng<L, D>; 2], [LaneAng<L, D>; 2]) {
    let arm = [L::cross(r_a, dir), L::cross(r_b, dir)];
    let turn = [
        L::apply_inertia(&ba.applied_inv_inertia, &arm[0]),
        L::apply_inertia(&bb.applied_inv_inertia, &arm[1]),
    ];
    (arm, turn)
}

/// The effective mass `1 / (m_A⁻¹ + m_B⁻¹ + arm_A·turn_A + arm_B·turn_B)` of a row; zero when
/// nothing responds.
#[inline(always)]
fn effective_mass<L: DimLanes<D>, const D: usize>(
    ba: &Bodies<L, D>,
    bb: &Bodies<L, D>,
    (arm, turn): &([LaneAng<L, D>; 2], [LaneAng<L, D>; 2]),
) -> L {
    let k = ba.inv_mass
        + bb.inv_mass
        + L::angular_dot(&arm[0], &turn[0])
        + L::angular_dot(&arm[1], &turn[1]);
    L::select(k.gt(L::zero()), L::one() / k, L::zero())
}

/// The constraints of one group's pairs (`g.used` lanes; the rest repeat the first one and
/// are never written back); their points are appended to `points`.
#[inline(always)]
fn prepare_bundle<L: DimLanes<D>, const D: usize>(
    from: &PrepareFrom<'_, L::Scalar, D>,
    g: Group,
    spare: u32,
    points: &mut Vec<LanePoint<L, D>>,
) -> Bundle<L, D>
where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let zero = L::zero();
    let inputs = per_lane::<L, _>(|l| &from.inputs[g.lanes[l] as usize]);
    let manifolds = per_lane::<L, _>(|l| &from.pairs[inputs[l].pair as usize].manifold);
    let input = |l: usize| inputs[l];
    let m = |l: usize| manifolds[l];
    let ba = Bodies::<L, D>::gather(from.bodies, from.states, |l| input(l).a);
    let bb = Bodies::<L, D>::gather(from.bodies, from.states, |l| input(l).b);
    let normal: [L; D] = vector(|l| m(l).normal);
    let mut lane_tangents = [[Vector::zeros(); 2]; 4];
    for (l, t) in lane_tangents.iter_mut().enumerate().take(L::LANES) {
        *t = Dim::<D>::tangents(&m(l).normal);
    }
    let tangents = [vector(|l| lane_tangents[l][0]), vector(|l| lane_tangents[l][1])];
    let surface = if from.surfaces.is_empty() {
        [zero; 2]
    } else {
        let v: [L; D] = vector(|l| {
            let pair = input(l).pair;
            match from.surfaces.binary_search_by_key(&pair, |s| s.0) {
                Ok(k) => from.surfaces[k].1,
                Err(_) => Vector::zeros(),
            }
        });
        [dot(&v, &tangents[0]), dot(&v, &tangents[1])]
    };
    let count = (0..g.used).map(|l| m(l).len()).max().unwrap_or(0);
    let missing = Contact::default();
    let first = points.len() as u32;
    // Each point's midpoint in lanes, and where it exists.
    let mut mids = [[zero; D]; MAX_CONTACTS];
    let mut exist = [L::mask_from(|_| false); MAX_CONTACTS];
    for i in 0..count {
        mids[i] = midpoint::<L, D>(|l| m(l).contacts().get(i).unwrap_or(&missing));
        exist[i] = L::mask_from(|l| l < g.used && i < m(l).len());
    }
    let centre = if L::PATCH_FRICTION {
        centroid(&mids[..count], &exist[..count], |l| m(l).len())
    } else {
        [zero; D]
    };
    // Every pair of a step shares the warm-start setting.
    let warm = input(0).warm_start;
    let mut patch_impulse = [zero; 3];
    for i in 0..count {
        let contacts = per_lane::<L, _>(|l| m(l).contacts().get(i).unwrap_or(&missing));
        let c = |l: usize| contacts[l];
        let exists = exist[i];
        let keep = |x: L| L::select(exists, x, zero);
        let keep_ang = |w: [LaneAng<L, D>; 2]| {
            [L::angular_where(exists, &w[0]), L::angular_where(exists, &w[1])]
        };
        let warm_of = |f: fn(&ContactImpulse<L::Scalar>) -> L::Scalar| {
            if warm { keep(L::from_fn(|l| f(&c(l).user))) } else { zero }
        };
        let mid = mids[i];
        let r_a = sub(&mid, &ba.center);
        let r_b = sub(&mid, &bb.center);
        let va = add(&ba.v, &L::cross_angular(&ba.w, &r_a));
        let vb = add(&bb.v, &L::cross_angular(&bb.w, &r_b));
        let normal_row = arms(&ba, &bb, &r_a, &r_b, &normal);
        let (mut tangent_mass, mut tangent_impulse, mut twist_arm) = (zero, zero, zero);
        let mut tangent_rows = L::point_friction([L::angular_zero(); 2], [L::angular_zero(); 2]);
        if L::PATCH_FRICTION {
            patch_impulse[0] += warm_of(|u| u.tangent[0]);
            patch_impulse[1] += warm_of(|u| u.tangent[1]);
            patch_impulse[2] += warm_of(|u| u.twist);
            let off = sub(&mid, &centre);
            twist_arm = keep(dot(&off, &off).sqrt());
        } else {
            let row = arms(&ba, &bb, &r_a, &r_b, &tangents[0]);
            tangent_mass = keep(effective_mass(&ba, &bb, &row));
            tangent_rows = L::point_friction(keep_ang(row.0), keep_ang(row.1));
            tangent_impulse = warm_of(|u| u.tangent[0]);
        }
        points.push(LanePoint {
            exists,
            r_a: core::array::from_fn(|k| keep(r_a[k])),
            r_b: core::array::from_fn(|k| keep(r_b[k])),
            adjusted_separation: keep(
                L::from_fn(|l| c(l).separation) - dot(&sub(&r_b, &r_a), &normal),
            ),
            normal_mass: keep(effective_mass(&ba, &bb, &normal_row)),
            normal_impulse: warm_of(|u| u.normal),
            max_normal_impulse: zero,
            relative_velocity: keep(dot(&normal, &sub(&vb, &va))),
            separation: zero,
            normal_arm: keep_ang(normal_row.0),
            normal_turn: keep_ang(normal_row.1),
            tangent_rows,
            tangent_mass,
            tangent_impulse,
            twist_arm,
        });
    }
    let pts = &points[first as usize..];
    let (has_block, k_inv, k_diag) =
        block_inverse(&ba, &bb, &normal, pts, |l| l < g.used && m(l).len() == 2);
    let write =
        |b: &Bodies<L, D>| L::index(|l| if l < g.used && b.dynamic[l] { b.at[l] } else { spare });
    let mut bundle = Bundle {
        a: L::index(|l| ba.at[l]),
        b: L::index(|l| bb.at[l]),
        write_a: write(&ba),
        write_b: write(&bb),
        pair: L::index(|l| input(l).pair),
        used: g.used as u8,
        count: count as u8,
        first,
        has_block,
        normal,
        tangents,
        surface,
        friction: L::from_fn(|l| input(l).friction),
        restitution: L::from_fn(|l| input(l).restitution),
        bias_rate: L::from_fn(|l| input(l).softness.bias_rate),
        mass_scale: L::from_fn(|l| input(l).softness.mass_scale),
        impulse_scale: L::from_fn(|l| input(l).softness.impulse_scale),
        inv_mass_a: ba.applied_inv_mass,
        inv_mass_b: bb.applied_inv_mass,
        k_inv,
        k_diag,
        patch_arm: [[L::angular_zero(); 2]; 2],
        patch_turn: [[L::angular_zero(); 2]; 2],
        patch_mass: [zero; 2],
        patch_impulse: [patch_impulse[0], patch_impulse[1]],
        twist_turn: [L::angular_zero(); 2],
        twist_mass: zero,
        twist_impulse: patch_impulse[2],
    };
    if L::PATCH_FRICTION {
        patch(&ba, &bb, &centre, &mut bundle);
    }
    bundle
}

/// The midpoints of the `i`th contacts (`c(l)` the contact of lane `l`).
#[inline(always)]
fn midpoint<'a, L: DimLanes<D>, const D: usize>(
    c: impl Fn(usize) -> &'a Contact<L::Scalar, D, ContactImpulse<L::Scalar>>,
) -> [L; D] {
    let pa: [L; D] = vector(|l| c(l).point_a.coords);
    let pb: [L; D] = vector(|l| c(l).point_b.coords);
    let half = L::splat(L::Scalar::lit(0.5));
    core::array::from_fn(|k| (pa[k] + pb[k]) * half)
}

/// The centroid of each lane's contact midpoints (`len(l)` points in lane `l`): the friction
/// patch's centre (a missing point adds zero, which leaves each lane's sum as one lane would
/// compute it).
fn centroid<L: DimLanes<D>, const D: usize>(
    mids: &[[L; D]],
    exist: &[L::Mask],
    len: impl Fn(usize) -> usize,
) -> [L; D] {
    let zero = L::zero();
    let mut sum = [zero; D];
    for (mid, &exists) in mids.iter().zip(exist) {
        for k in 0..D {
            sum[k] += L::select(exists, mid[k], zero);
        }
    }
    let n = L::from_fn(|l| L::Scalar::lit(len(l) as f64));
    sum.map(|x| x / n)
}

/// The friction patch of 3D manifolds whose points have the centroid `centre`: two tangent
/// rows there and the twist row about the normal.
fn patch<L: DimLanes<D>, const D: usize>(
    ba: &Bodies<L, D>,
    bb: &Bodies<L, D>,
    centre: &[L; D],
    bundle: &mut Bundle<L, D>,
) {
    let (r_a, r_b) = (sub(centre, &ba.center), sub(centre, &bb.center));
    for t in 0..2 {
        let row = arms(ba, bb, &r_a, &r_b, &bundle.tangents[t]);
        bundle.patch_mass[t] = effective_mass(ba, bb, &row);
        (bundle.patch_arm[t], bundle.patch_turn[t]) = row;
    }
    let axis = L::twist_axis(&bundle.normal);
    let twist_turn = [
        L::apply_inertia(&ba.applied_inv_inertia, &axis),
        L::apply_inertia(&bb.applied_inv_inertia, &axis),
    ];
    let k = L::angular_dot(&axis, &twist_turn[0]) + L::angular_dot(&axis, &twist_turn[1]);
    bundle.twist_turn = twist_turn;
    bundle.twist_mass = L::select(k.gt(L::zero()), L::one() / k, L::zero());
}

/// The inverse of `K = [[k11, k12], [k12, k22]]`, the coupled normal effective mass of two
/// contact points, and its diagonal, in the lanes where `two(l)` (exactly two points) and `K` is
/// well conditioned (Box2D 2.4's condition-number guard for its block solver); zero elsewhere.
#[allow(clippy::type_complexity)]
fn block_inverse<L: DimLanes<D>, const D: usize>(
    ba: &Bodies<L, D>,
    bb: &Bodies<L, D>,
    normal: &[L; D],
    pts: &[LanePoint<L, D>],
    two: impl Fn(usize) -> bool,
) -> (L::Mask, [L; 3], [L; 2]) {
    let zero = L::zero();
    let two = L::mask_from(two);
    let [p0, p1, ..] = pts else { return (L::mask_from(|_| false), [zero; 3], [zero; 2]) };
    if L::none(two) {
        return (L::mask_from(|_| false), [zero; 3], [zero; 2]);
    }
    let ang = |inv_inertia: &L::Inertia, r1: &[L; D], r2: &[L; D]| {
        let c2 = L::cross(r2, normal);
        L::angular_dot(&L::cross(r1, normal), &L::apply_inertia(inv_inertia, &c2))
    };
    let mass = ba.inv_mass + bb.inv_mass;
    let (ia, ib) = (&ba.inv_inertia, &bb.inv_inertia);
    let k11 = mass + ang(ia, &p0.r_a, &p0.r_a) + ang(ib, &p0.r_b, &p0.r_b);
    let k22 = mass + ang(ia, &p1.r_a, &p1.r_a) + ang(ib, &p1.r_b, &p1.r_b);
    let k12 = mass + ang(ia, &p0.r_a, &p1.r_a) + ang(ib, &p0.r_b, &p1.r_b);
    let det = k11 * k22 - k12 * k12;
    let block = two & det.gt(zero) & !(k11 * k11).ge(L::splat(L::Scalar::lit(1000.0)) * det);
    let inv = L::one() / det;
    let on = |x: L| L::select(block, x, zero);
    (block, [on(k22 * inv), on(-k12 * inv), on(k11 * inv)], [on(k11), on(k22)])
}

/// Writes the accumulated impulses into the pairs' manifolds, for next step's warm start. In
/// 3D each contact keeps an equal share of its manifold's patch impulses.
pub(crate) fn store_impulses<L: DimLanes<D>, const D: usize>(
    bundles: &[Bundle<L, D>],
    points: &[LanePoint<L, D>],
    pairs: &mut [ContactPair<L::Scalar, D>],
    warm: bool,
) where
    Dim<D>: SolverDim<L::Scalar, D>,
{
    let zero = L::Scalar::lit(0.0);
    for b in bundles {
        let pts = &points[b.first as usize..][..b.count as usize];
        for l in 0..b.used as usize {
            let m = &mut pairs[L::index_lane(b.pair, l) as usize].manifold;
            let share = L::Scalar::lit(m.len() as f64);
            for (contact, p) in m.contacts_mut().iter_mut().zip(pts) {
                let normal = p.normal_impulse.lane(l);
                contact.user = if L::PATCH_FRICTION {
                    ContactImpulse {
                        normal,
                        tangent: b.patch_impulse.map(|t| t.lane(l) / share),
                        twist: b.twist_impulse.lane(l) / share,
                    }
                } else {
                    // Without warm starting the points start from zero impulses.
                    let second = if warm { contact.user.tangent[1] } else { zero };
                    ContactImpulse {
                        normal,
                        tangent: [p.tangent_impulse.lane(l), second],
                        twist: zero,
                    }
                };
            }
        }
    }
}
