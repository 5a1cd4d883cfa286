//! The depth of a penetration along the normals of the shapes' flat parts.
//!
//! The depth of two overlapping convex shapes is the least of `h(n)` over unit directions `n`,
//! with `h` the support function of their Minkowski difference `M = A − B`: `h(n)` is how far B
//! must move along `n` to leave A, and every `n` attains its own `h(n)`, an upper bound on the
//! depth. EPA approaches the least from inside `M`, and on a curved `M` the polish
//! ([`crate::polish`]) follows the boundary to a normal whose witnesses agree with its depth.
//!
//! Where a shape has a flat part (a cylinder's cap or side, a cone's base or side) `h` has a
//! kink along the part's normal: B's support point jumps across the part there. A small shape
//! deep inside a cylinder leaves through the side, along a normal exactly square to the axis;
//! tilt it by `θ` and the support jumps to a rim, `h` growing by the half height times `θ`. EPA's
//! polytope and the polish only approach such a kink, and on a nearly round pair (a small
//! cylinder centred in a large one) they stop on a tilted normal, deeper than the truth.
//!
//! So the flat normals of both shapes ([`Cso::flat_normals`]) are tried as well: each single
//! direction once, and each ring of them (a side's normals, all at one angle from the axis) by
//! a coarse scan of its angle and a golden-section search about the best sample (Kiefer,
//! "Sequential minimax search for a maximum", *Proc. AMS* 4, 1953). Since each candidate attains
//! its depth, the least of them and the polished answer is the nearest to the true depth. The
//! query tries them only where EPA or the polish did not settle.

use kollide_math::{Scalar, Vector};
use kollide_shapes::{FlatNormal, SupportPoint};

use crate::witness::plane_basis;
use crate::{Cso, EpaResult};

/// Samples of a ring's angle before the local search: enough that the ring's least depth lies
/// in the bracket about the best sample unless two minima are within an eighth of a turn.
const RING_SAMPLES: usize = 16;

/// Golden-section steps about the best sample: the bracket, a sixteenth of a turn on each
/// side, shrinks by `0.618` a step, to `2e-9` rad after 40.
const RING_STEPS: usize = 40;

/// A candidate normal, the depth it attains and the support point there.
struct Candidate<N: Scalar, const D: usize> {
    normal: Vector<N, D>,
    depth: N,
    support: SupportPoint<N, D>,
    /// The normal is a flat normal of B's (not of A's alone): A's support point is the one that
    /// rests on the flat part, B's can be anywhere on it.
    of_b: bool,
}

/// `e` (EPA's answer on `cso`, polished) replaced by the least depth along a flat normal of the
/// shapes when that is shallower than the depth `e`'s normal attains by more than `accept` (the
/// accuracy asked of the polish, so that an answer already right is left as it is); `e`
/// otherwise. The replacement keeps `e`'s status; its witnesses are the support point of the
/// shape resting on the other's flat part and the point of the other's support plane facing
/// it, marked clamped, and the caller moves them onto both features where it can.
pub(crate) fn least_on_flat_normals<N, const D: usize, C>(
    cso: &C,
    e: EpaResult<N, D>,
    accept: N,
) -> EpaResult<N, D>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    least_on_flat_normals_of(crate::cso::debug_erased(&cso), e, accept)
}

/// [`least_on_flat_normals`] on the CSO that `debug_erased` gives.
fn least_on_flat_normals_of<N, const D: usize, C>(
    cso: &C,
    e: EpaResult<N, D>,
    accept: N,
) -> EpaResult<N, D>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let Some(n) = e.normal.try_normalize(N::zero()) else { return e };
    let mut best: Option<Candidate<N, D>> = None;
    let mut consider = |c: Candidate<N, D>| {
        if best.as_ref().is_none_or(|b| c.depth < b.depth) {
            best = Some(c);
        }
    };
    // A cylinder and a cone have one ring each: two shapes, at most two.
    let mut rings: [Option<(Vector<N, D>, N)>; 2] = [None; 2];
    cso.flat_normals(&mut |k, of_b| match k {
        FlatNormal::Direction(d) => {
            if let Some(d) = d.try_normalize(N::zero()) {
                consider(Candidate { of_b, ..attained(cso, d) });
            }
        }
        FlatNormal::Ring { axis, cos } => {
            if let Some(c) = least_on_ring(cso, &axis, cos) {
                consider(Candidate { of_b, ..c });
            }
            if let Some(slot) = rings.iter_mut().find(|r| r.is_none()) {
                *slot = Some((axis, cos));
            }
        }
    });
    // Where both shapes' sides face each other (a small cylinder lying across a large one's
    // side), the least depth sits on both rings at once, a kink of each: the search along one
    // ring only approaches it, the rings' crossings hit it.
    if let [Some(a), Some(b)] = rings {
        for n in ring_crossings(a, b).into_iter().flatten() {
            consider(attained(cso, n));
        }
    }
    let Some(c) = best else { return e };
    let now = n.dot(&cso.support(&n).point);
    if c.depth >= now - accept {
        return e;
    }
    // The support point of the shape resting on the other's flat part, and the point `depth`
    // from it along the normal, on the other's support plane: the flat part's own support
    // point can lie anywhere on it, far off sideways.
    let (point_a, point_b) = if c.of_b {
        (c.support.a.coords, c.support.a.coords - c.normal * c.depth)
    } else {
        (c.support.b.coords + c.normal * c.depth, c.support.b.coords)
    };
    EpaResult {
        depth: c.depth,
        normal: c.normal,
        point_a,
        point_b,
        clamped: true,
        clamp_shift: N::zero(),
        ..e
    }
}

/// The depth the unit `n` attains.
fn attained<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    n: Vector<N, D>,
) -> Candidate<N, D> {
    let support = cso.support(&n);
    Candidate { normal: n, depth: n.dot(&support.point), support, of_b: false }
}

/// The least depth over the ring of unit directions at cosine `cos` from `axis` (3D only):
/// [`RING_SAMPLES`] samples of the angle, then [`RING_STEPS`] golden-section steps about the
/// best of them.
fn least_on_ring<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    axis: &Vector<N, D>,
    cos: N,
) -> Option<Candidate<N, D>> {
    if D != 3 {
        return None;
    }
    let axis = axis.try_normalize(N::zero())?;
    let (u, v) = plane_basis(&axis);
    let sin = (N::one() - cos * cos).max_of(N::zero()).sqrt();
    let at = |phi: N| attained(cso, axis * cos + (u * phi.cos() + v * phi.sin()) * sin);
    let step = N::two_pi() / N::lit(RING_SAMPLES as f64);
    let (mut centre, mut best) = (N::zero(), at(N::zero()));
    for k in 1..RING_SAMPLES {
        let phi = step * N::lit(k as f64);
        let c = at(phi);
        if c.depth < best.depth {
            (centre, best) = (phi, c);
        }
    }
    let golden = N::lit(0.618_033_988_749_894_8);
    let (mut lo, mut hi) = (centre - step, centre + step);
    let (mut x1, mut x2) = (hi - (hi - lo) * golden, lo + (hi - lo) * golden);
    let (mut f1, mut f2) = (at(x1), at(x2));
    for _ in 0..RING_STEPS {
        if f1.depth < f2.depth {
            (hi, x2, f2) = (x2, x1, f1);
            x1 = hi - (hi - lo) * golden;
            f1 = at(x1);
        } else {
            (lo, x1, f1) = (x1, x2, f2);
            x2 = lo + (hi - lo) * golden;
            f2 = at(x2);
        }
    }
    for c in [f1, f2] {
        if c.depth < best.depth {
            best = c;
        }
    }
    Some(best)
}

/// The unit directions on both rings `(axis, cos)` (3D): `n = α·a + β·b ± γ·(a × b)` with
/// `n·a = cos_a`, `n·b = cos_b` and `|n| = 1`; none where the rings do not cross or the axes
/// are parallel.
fn ring_crossings<N: Scalar, const D: usize>(
    (a, ca): (Vector<N, D>, N),
    (b, cb): (Vector<N, D>, N),
) -> [Option<Vector<N, D>>; 2] {
    let (Some(a), Some(b)) = (a.try_normalize(N::zero()), b.try_normalize(N::zero())) else {
        return [None; 2];
    };
    if D != 3 {
        return [None; 2];
    }
    let ab = a.dot(&b);
    let det = N::one() - ab * ab;
    if det <= N::EPSILON {
        return [None; 2];
    }
    let alpha = (ca - cb * ab) / det;
    let beta = (cb - ca * ab) / det;
    let inplane = a * alpha + b * beta;
    let rest = N::one() - inplane.norm_squared();
    if rest < N::zero() {
        return [None; 2];
    }
    let mut c = Vector::<N, D>::zeros();
    (c[0], c[1], c[2]) =
        (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
    let off = c * (rest / det).sqrt();
    [(inplane + off).try_normalize(N::zero()), (inplane - off).try_normalize(N::zero())]
}
