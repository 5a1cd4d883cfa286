//! Polishing a penetration on curved shapes: the closest boundary point of the Minkowski
//! difference by repeated projection from just outside it.
//!
//! EPA grows a polytope inside `M = A − B` until the face closest to the origin lies on `M`'s
//! boundary. On a polytope that happens after a few iterations; on a curved boundary (cones,
//! cylinders) the polytope only approaches it, and where many directions are nearly as shallow
//! (a ball on a cylinder's axis) EPA refines all of them alike and reaches its iteration cap a few
//! per mille short of the depth. The normal, not the depth, is what it cannot settle there.
//!
//! The depth is the distance from the origin (inside `M`) to `M`'s boundary, reached at a point
//! `p*` whose outward normal is `p*/|p*|`. Given a direction `u`, this module takes the point
//! `q = (h(u) + pad) u` just beyond `M`'s support plane in `u` (`h` the support function), finds
//! `M`'s point `p` closest to `q` with GJK (a well-conditioned distance query: `q` is outside, near
//! the surface), and reads the outward normal at `p` as `m = (q − p)/|q − p|`. Then `u ← m`.
//!
//! Why it converges: the inscribed ball of radius `d` (the depth) touches `M` at `p*`, so `M`'s
//! boundary there is smooth and curves less than that ball: its radii of curvature are `ρ ≥ d`.
//! Near `p*` the step scales the error in `u` by `(d + pad)/(ρ + pad) ≤ 1`: one step on a face
//! (`ρ = ∞`), fast on gently curved parts, and slow only where the depth barely depends on the
//! normal (`ρ ≈ d`: every direction is nearly optimal, and the depth is already right).
//!
//! The projection point sits a hundredth of the pair's size outside: nearer, GJK's direction to
//! a curved surface is lost in rounding. It stops when the normal `m` *attains* the depth and the
//! witnesses agree with it: `|p − h(m) m|` within the tolerance. The answer is then
//! the depth `h(m)`, the normal `m` and GJK's witnesses of `p`, so that the contact's points lie
//! on the shapes and `point_b − point_a = separation · normal` holds to the tolerance.
//!
//! The polish finds the *local* minimum nearest EPA's normal. Where two distinct minima are
//! nearly tied (a ball on a cylinder's axis almost as near a cap as the side) and EPA stopped at
//! its cap before telling them apart, it can settle on the other one: still a translation that
//! separates the shapes (its depth is attained by its normal), deeper than the least one by at
//! most the tie's gap.
//!
//! Penetration depth as the distance from the origin to the boundary of `A − B`, and EPA for it:
//! van den Bergen, *Collision Detection in Interactive 3D Environments* (2003), ch. 4. The
//! projection from outside uses GJK as a distance oracle (Gilbert, Johnson, Keerthi 1988).

use kollide_math::{Scalar, Vector};
use kollide_shapes::SupportPoint;

use crate::kinks::least_on_flat_normals;
use crate::refine::{Candidate, refine};
use crate::{Cso, EpaResult, GjkOutcome, QuerySettings, Status, gjk};

/// Polishing steps before giving up (each is two support queries and a short GJK run). The
/// error shrinks by `d/ρ` per step (faster with the extrapolation of [`accelerated`]): 16 steps
/// leave `0.5^16` of it at `ρ = 2d`.
const MAX_STEPS: u32 = 16;

/// `cso` seen from `q`: every point shifted by `−q`, witnesses kept.
struct From<'c, C: ?Sized, N: Scalar, const D: usize> {
    cso: &'c C,
    q: Vector<N, D>,
}

impl<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized> Cso<N, D> for From<'_, C, N, D> {
    #[inline]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        let s = self.cso.support(dir);
        SupportPoint { point: s.point - self.q, a: s.a, b: s.b }
    }
}

/// EPA's penetration `e` on `cso`, polished (see the module docs) and, where the polish stops
/// above its target, refined on the supporting generators ([`crate::refine`]): that answer when its
/// witnesses agree with its depth within `relative · scale` (status `Converged`); otherwise the
/// best candidate with `e`'s status when its witnesses miss by less than `e`'s normal misses
/// `e`'s depth, else `e` unchanged. Where EPA itself stopped short, the flat parts' normals
/// ([`crate::kinks`]) are tried on the answer as well.
pub(crate) fn polish_penetration<N, const D: usize, C>(
    cso: &C,
    e: EpaResult<N, D>,
    scale: N,
    relative: N,
    settings: &QuerySettings<N>,
) -> EpaResult<N, D>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    polish_on(crate::cso::debug_erased(&cso), e, scale, relative, settings)
}

/// [`polish_penetration`] on the CSO that `debug_erased` gives.
fn polish_on<N, const D: usize, C>(
    cso: &C,
    e: EpaResult<N, D>,
    scale: N,
    relative: N,
    settings: &QuerySettings<N>,
) -> EpaResult<N, D>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let Some(mut u) = e.normal.try_normalize(N::zero()) else { return e };
    // A hundredth of the scale outside: near enough that the projection lands on the same smooth
    // part of the boundary, far enough that GJK's direction to it is not lost in rounding (from
    // `√ε` of the scale, GJK stalls on the curved surface with directions off by 1e-3).
    let pad = scale * N::lit(0.01);
    // Relative to the pair's own size, not floored at a metre as `Tolerances::length` is: the
    // witnesses of small shapes are held to their size.
    let accept = relative * scale;
    let tol = accept * N::lit(0.01);
    let mut best: Option<Candidate<N, D>> = None;
    let mut last_step: Option<Vector<N, D>> = None;
    // The best residual three steps ago: a polish that has not halved it since is not
    // converging at a rate worth its cost (a near-degenerate normal), and stops.
    let mut history = [N::MAX; 3];
    for k in 0..MAX_STEPS as usize {
        let Some(c) = step(cso, &u, pad, settings) else { break };
        let delta = c.normal - u;
        let settled = delta.norm() <= N::EPSILON * N::lit(4.0);
        if best.as_ref().is_none_or(|b| c.residual < b.residual) {
            best = Some(c);
        }
        let now = best.as_ref().map_or(N::MAX, |b| b.residual);
        if now <= tol || settled || (k >= 3 && now > history[k % 3] * N::lit(0.5)) {
            break;
        }
        history[k % 3] = now;
        u = (u + accelerated(&delta, last_step.as_ref())).try_normalize(N::zero()).unwrap_or(u);
        last_step = Some(delta);
    }
    let Some(mut c) = best else { return e };
    // Stalled above the target: within `accept` is not enough where the boundary has a kink (a
    // sliver's edge, a rim), since there the depth a normal attains is off by about its
    // residual, not by its square. The answer can then be as far from the least depth as the
    // accuracy asked of it, and the other argument order stops elsewhere in that band; Newton's
    // method on the generators settles it. Not where the target is within a few dozen ulps of
    // the scale (`f32`): neither method resolves it in that arithmetic, and the contact query
    // settles curved `f32` pairs again in `f64`. Separated cores as well: a cone's apex
    // 1e-6 from another cone's side stopped at a residual just under `accept`, with a distance
    // 1.2e-9 of the size short.
    let resolvable = tol > N::EPSILON * N::lit(64.0) * scale;
    if c.residual > accept || (c.residual > tol && resolvable) {
        c = refined(cso, c, scale, accept, tol);
    }
    let status = if c.residual <= accept {
        Status::Converged
    } else if c.residual < (e.normal.dot(&cso.support(&e.normal).point) - e.depth).abs() {
        // Not settled, but nearer than EPA's answer: the candidate's depth is attained by its
        // normal (a translation along it separates the shapes) and its witnesses miss by
        // `residual`, while EPA's depth and the depth its normal attains bracket the true one
        // no closer than their difference.
        e.status
    } else if c.residual < e.clamp_shift {
        // EPA's depth and normal stand, but its witnesses were clamped to the face it stopped
        // at (the origin projected outside it): one of them can be off its shape by the clamp's
        // shift, up to that face's size. The candidate's witnesses are GJK's, on both shapes,
        // and miss EPA's depth by about `residual`.
        let (point_a, point_b) = (c.a, c.b);
        return EpaResult { point_a, point_b, clamped: false, clamp_shift: N::zero(), ..e };
    } else {
        return e;
    };
    let answer = EpaResult {
        depth: c.depth,
        normal: c.normal,
        point_a: c.a,
        point_b: c.b,
        status,
        iterations: e.iterations,
        clamped: false,
        clamp_shift: N::zero(),
    };
    if e.status == Status::Converged {
        answer
    } else {
        // The polish and the refinement settle the stationary point nearest EPA's normal. Where
        // EPA stopped short, that need not be the least: a flat part's kink can hold a
        // shallower one, and the caller, seeing the answer converged, would not look, so the
        // kinks are tried here.
        least_on_flat_normals(cso, answer, accept)
    }
}

/// `c` refined by Newton's method on the generators of the supporting sets along its normal
/// ([`crate::refine`]), where the polish's projections stalled (their GJK runs settle a normal
/// only to about `√ε`). The active set is guessed from the generators within a spread of their
/// support planes: first one scaled to how far `c` is off, then wider ones; the best answer
/// no deeper than `c` is kept, `c` itself when none is better. "No deeper" allows `accept` for a
/// `c` whose witnesses miss by more than that, and only `tol` (the polish's target) for one
/// already within it: there a deeper answer would trade a right depth for closer witnesses.
#[cold]
fn refined<N, const D: usize, C>(
    cso: &C,
    c: Candidate<N, D>,
    scale: N,
    accept: N,
    tol: N,
) -> Candidate<N, D>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let normal = c.normal;
    let deeper = if c.residual <= accept { tol } else { accept };
    let mut best = c;
    for spread in [best.residual * N::lit(64.0), scale * N::lit(1e-5), scale * N::lit(1e-3)] {
        // Both depths are attained by their normals, so both bound the least depth from
        // above: a deeper answer is another stationary point, not the one sought.
        if let Some(r) = refine(cso, &normal, spread, scale)
            && r.residual < best.residual
            && r.depth <= best.depth + deeper
        {
            best = r;
        }
        if best.residual <= tol {
            break;
        }
    }
    best
}

/// The next step from this one (`delta`) and the last: near a fixed point the steps shrink by a
/// steady ratio `r` (the `d/ρ` of the module docs) along a steady direction, so the remaining
/// distance is `delta/(1 − r)` (Aitken's extrapolation). Where the ratio or direction is not
/// steady, or `r` is within 1e-5 of 1 or above, the plain step. A bad guess costs steps, never
/// the answer: only a candidate whose witnesses agree with its depth is returned.
fn accelerated<N: Scalar, const D: usize>(
    delta: &Vector<N, D>,
    last: Option<&Vector<N, D>>,
) -> Vector<N, D> {
    let Some(last) = last else { return *delta };
    let (now, before) = (delta.norm(), last.norm());
    if before == N::zero() || delta.dot(last) < N::lit(0.9) * now * before {
        return *delta;
    }
    let r = now / before;
    if r >= N::lit(0.99999) || r <= N::lit(0.5) {
        return *delta;
    }
    *delta / (N::one() - r)
}

/// One projection from just outside `M` along `u`: the closest point `p` of `M` to
/// `q = (h(u) + pad) u`, the normal there, and the depth that normal attains.
fn step<N, const D: usize, C>(
    cso: &C,
    u: &Vector<N, D>,
    pad: N,
    settings: &QuerySettings<N>,
) -> Option<Candidate<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let h = u.dot(&cso.support(u).point);
    let q = *u * (h + pad);
    let shifted = From { cso, q };
    let g = gjk(&shifted, u, N::MAX, N::zero(), settings);
    let GjkOutcome::Separated { v, .. } = g.outcome else { return None };
    let normal = (-v).try_normalize(N::zero())?;
    let (a, b) = g.witnesses();
    let p = q + v;
    let depth = normal.dot(&cso.support(&normal).point);
    let residual = (p - normal * depth).norm();
    Some(Candidate { normal, depth, a, b, residual })
}
