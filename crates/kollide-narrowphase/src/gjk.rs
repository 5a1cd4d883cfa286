//! GJK: the Gilbert–Johnson–Keerthi distance algorithm, written once for 2D and 3D.
//!
//! GJK finds the point of a convex set `C` (here the Minkowski difference `A − B`) closest to the
//! origin, using only `C`'s support function. It keeps a simplex of support points and repeats:
//!
//! 1. `v` ← the point of the simplex closest to the origin ([`Simplex::reduce`]);
//! 2. `w` ← `support(−v)`, the point of `C` farthest towards the origin;
//! 3. stop when `w` brings `v` no closer: `|v|² − v·w ≤ ε |v|²` (then `|v|` is the distance to
//!    within a relative `ε`: `v·w / |v|` is a lower bound and `|v|` an upper bound);
//! 4. stop with *intersection* when the simplex has `D + 1` points and contains the origin;
//! 5. stop with *separation* as soon as `v·w > 0` in the boolean test (a separating plane exists),
//!    or when the lower bound exceeds `max_distance`.
//!
//! Exits on no progress (rounding) and on the iteration cap are reported in the [`Status`], never
//! as "separated" unless the lower bound proves it.
//!
//! Sources: Gilbert, Johnson, Keerthi, "A fast procedure for computing the distance between
//! complex objects in three-dimensional space", IEEE J. Robotics and Automation 4(2), 1988;
//! van den Bergen, *Collision Detection in Interactive 3D Environments* (2003), ch. 4 (the
//! termination test); the seed `2d-gjk-epa-penetration-vector.md` for the 2D walk-through.

use kollide_math::{Scalar, Vector};
use kollide_shapes::SupportPoint;

use crate::{Cso, QuerySettings, Simplex, SimplexVertex, Status};

/// What GJK found.
#[derive(Clone, Copy, Debug)]
pub enum GjkOutcome<N: Scalar, const D: usize> {
    /// The origin is inside the CSO, or within the touching tolerance of it. The simplex is
    /// handed to EPA.
    Intersecting,
    /// The CSO does not contain the origin. `v` is its closest point found; witnesses come from
    /// the simplex.
    Separated {
        /// The closest point of the CSO to the origin (an upper bound on the distance).
        v: Vector<N, D>,
        /// A lower bound on the distance (from the last support point), at most `|v|`.
        lower_bound: N,
    },
}

/// The full result of a GJK run: outcome, final simplex, status and iteration count.
#[derive(Clone, Copy, Debug)]
pub struct GjkResult<N: Scalar, const D: usize, V = SupportPoint<N, D>> {
    /// Intersecting or separated.
    pub outcome: GjkOutcome<N, D>,
    /// The final simplex: the supporting feature of the closest point, or a simplex around the
    /// origin for EPA (its vertices with their witnesses, unless `V` drops them).
    pub simplex: Simplex<N, D, V>,
    /// How the run ended.
    pub status: Status,
    /// Iterations used.
    pub iterations: u32,
}

impl<N: Scalar, const D: usize> GjkResult<N, D> {
    /// The witness points on A and B (in the CSO's frame) of the closest point.
    pub fn witnesses(&self) -> (Vector<N, D>, Vector<N, D>) {
        let (_, a, b) = self.simplex.closest();
        (a, b)
    }
}

/// Runs GJK on `cso`.
///
/// * `search_dir`: the first search direction (for two shapes, the direction from A to B is a
///   good guess; a cached separating direction from last frame is better). Zero means +x.
/// * `max_distance`: stop with [`GjkOutcome::Separated`] as soon as the distance is proven larger
///   than this (`0` makes it the boolean intersection test; `N::MAX` computes the exact
///   distance).
/// * `touch_tolerance`: a distance at or below which the sets count as touching, reported as
///   [`GjkOutcome::Intersecting`].
pub fn gjk<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    search_dir: &Vector<N, D>,
    max_distance: N,
    touch_tolerance: N,
    settings: &QuerySettings<N>,
) -> GjkResult<N, D> {
    gjk_with(cso, search_dir, max_distance, touch_tolerance, settings)
}

/// [`gjk`] with simplex vertices of type `V`: bare points (`Vector<N, D>`) for a query that
/// needs no witness points (the boolean intersection test), whose simplex copies then move a
/// third of the numbers. The arithmetic on the points is the same, so is the outcome.
pub fn gjk_with<N, const D: usize, C, V>(
    cso: &C,
    search_dir: &Vector<N, D>,
    max_distance: N,
    touch_tolerance: N,
    settings: &QuerySettings<N>,
) -> GjkResult<N, D, V>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
    V: SimplexVertex<N, D>,
{
    gjk_on(crate::cso::debug_erased(&cso), search_dir, max_distance, touch_tolerance, settings)
}

/// [`gjk_with`] on the CSO that `debug_erased` gives.
fn gjk_on<N, const D: usize, C, V>(
    cso: &C,
    search_dir: &Vector<N, D>,
    max_distance: N,
    touch_tolerance: N,
    settings: &QuerySettings<N>,
) -> GjkResult<N, D, V>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
    V: SimplexVertex<N, D>,
{
    let mut dir = *search_dir;
    if dir.norm_squared() == N::zero() || !dir.iter().all(|x| x.is_finite_value()) {
        dir = Vector::zeros();
        dir[0] = N::one();
    }
    let first: SupportPoint<N, D> = cso.support(&dir);
    let mut simplex = Simplex::new(V::from_support(&first));
    let mut v = first.point;
    let mut lower_bound = N::zero();
    // Warm start: if the first search direction already separates (a cached direction from last
    // frame usually does), the whole set lies beyond the plane through `first`, and we are done.
    let along = first.point.dot(&dir);
    if along < N::zero() {
        lower_bound = -along / dir.norm();
        if lower_bound > max_distance || max_distance == N::zero() {
            return GjkResult {
                outcome: GjkOutcome::Separated { v: first.point, lower_bound },
                simplex,
                status: Status::Converged,
                iterations: 1,
            };
        }
    }
    let rel = settings.relative_accuracy;
    let touch2 = touch_tolerance * touch_tolerance;
    let max2 = if max_distance >= N::MAX.sqrt() { N::MAX } else { max_distance * max_distance };

    for iteration in 1..=settings.gjk_max_iterations {
        let vv = v.norm_squared();
        if vv <= touch2 {
            return GjkResult {
                outcome: GjkOutcome::Intersecting,
                simplex,
                status: Status::Converged,
                iterations: iteration,
            };
        }
        let w: SupportPoint<N, D> = cso.support(&-v);
        let vw = v.dot(&w.point);
        if vw > N::zero() {
            lower_bound = lower_bound.max_of(vw / vv.sqrt());
            if vw * vw > vv * max2 || (max_distance == N::zero()) {
                return GjkResult {
                    outcome: GjkOutcome::Separated { v, lower_bound },
                    simplex,
                    status: Status::Converged,
                    iterations: iteration,
                };
            }
        }
        if vv - vw <= rel * vv || simplex.contains(&w.point) {
            // A support point already in the simplex with the gap still wide open means the
            // reduction's `v` is off by rounding: the separation is not proven.
            let lower_bound = lower_bound.max_of(N::zero());
            let met = bounds_met(&simplex, vv, vw, lower_bound, touch_tolerance, rel);
            let status = if met { Status::Converged } else { Status::Degenerate };
            return stalled(simplex, v, lower_bound, status, iteration);
        }
        let previous = simplex;
        let (inside, v_new) = simplex.push_and_reduce(V::from_support(&w));
        if inside {
            return GjkResult {
                outcome: GjkOutcome::Intersecting,
                simplex,
                status: Status::Converged,
                iterations: iteration,
            };
        }
        if v_new.norm_squared() >= vv {
            // No progress: rounding has the last word. The previous simplex is the better one.
            // When the bounds are already close this is ordinary convergence.
            // Converged also when the bounds are within the touching tolerance of each other.
            let met = bounds_met(&previous, vv, vw, lower_bound, touch_tolerance, rel);
            let status = if met { Status::Converged } else { Status::Degenerate };
            return stalled(previous, v, lower_bound, status, iteration);
        }
        v = v_new;
    }
    GjkResult {
        outcome: GjkOutcome::Separated { v, lower_bound },
        simplex,
        status: Status::IterationCap,
        iterations: settings.gjk_max_iterations,
    }
}

/// The result of a run that stopped making progress with `v` as its closest point. When the gap
/// is still open (`status` not converged) and `|v|` is within the rounding noise of the
/// simplex's coordinates, the origin is on the simplex as far as this arithmetic can tell: the
/// sets touch or overlap (which EPA then measures), and "separated" would be a guess. A larger
/// `|v|` with an open gap stays separated (`|v|` is an upper bound on the distance). Either way
/// the status stays [`Status::Degenerate`], so that the pair queries answer polytopes exactly.
#[cold]
fn stalled<N: Scalar, const D: usize, V: SimplexVertex<N, D>>(
    simplex: Simplex<N, D, V>,
    v: Vector<N, D>,
    lower_bound: N,
    status: Status,
    iterations: u32,
) -> GjkResult<N, D, V> {
    let outcome = if status != Status::Converged && v.norm() <= rounding_noise(&simplex) {
        GjkOutcome::Intersecting
    } else {
        GjkOutcome::Separated { v, lower_bound }
    };
    GjkResult { outcome, simplex, status, iterations }
}

/// `true` when a run that stopped making progress still brackets the distance as tightly as
/// converging would: the gap between `|v|` (an upper bound) and `lower_bound` is within `√rel`
/// of `|v|`, or within the touching tolerance, or, once a separating plane has been found
/// (`lower_bound > 0`), within the rounding noise of the simplex's coordinates, which is as close
/// as this arithmetic can bracket it. Without that plane a small `|v|` proves nothing (identical
/// shapes can leave a rounding-sized `v` while overlapping deeply).
#[inline]
fn bounds_met<N: Scalar, const D: usize, V: SimplexVertex<N, D>>(
    simplex: &Simplex<N, D, V>,
    vv: N,
    vw: N,
    lower_bound: N,
    touch_tolerance: N,
    rel: N,
) -> bool {
    let gap = vv.sqrt() - lower_bound;
    vv - vw <= rel.sqrt() * vv
        || gap <= touch_tolerance
        || (lower_bound > N::zero() && gap <= rounding_noise(simplex))
}

/// The rounding noise of a closest point computed from these simplex points: a few ulps of
/// their largest coordinate (the reduction subtracts and weighs points of that size).
pub(crate) fn rounding_noise<N: Scalar, const D: usize, V: SimplexVertex<N, D>>(
    simplex: &Simplex<N, D, V>,
) -> N {
    let mut m = N::zero();
    for p in simplex.points() {
        for x in p.point().iter() {
            m = m.max_of(x.abs());
        }
    }
    m * N::EPSILON * N::lit(16.0)
}
