//! EPA: the Expanding Polytope Algorithm, for the penetration depth of overlapping shapes.
//!
//! When GJK reports that the Minkowski difference `A − B` contains the origin, the penetration
//! depth is the distance from the origin to the boundary of `A − B`, and the normal is the outward
//! normal of the closest boundary face. EPA finds it by growing a polytope inside `A − B`:
//!
//! 1. start from GJK's final simplex, grown to a full triangle (2D) or tetrahedron (3D) if GJK
//!    stopped early (touching shapes, the origin on an edge or face);
//! 2. take the polytope face closest to the origin, with outward normal `n` at distance `d`;
//! 3. `w` ← `support(n)`; if `n·w − d ≤ tol`, that face is on the boundary: done;
//! 4. otherwise add `w` and repair the polytope (2D: insert `w` between the face's two vertices;
//!    3D: remove every face `w` can see and close the hole with faces from `w` to the horizon
//!    edges, the edges that belong to exactly one removed face), then repeat.
//!
//! The result is `depth = d` and `normal = n`, which points from A to B: moving B by
//! `depth · normal` separates the shapes. Contact points come from the barycentric coordinates of
//! `d · n` in the final face, applied to the witness points.
//!
//! Sources: van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game
//! Objects", GDC 2001; the seeds `epa-2d-and-3d-polytope-repair.md` (removal of visible faces and
//! repair from unique edges) and `2d-gjk-epa-penetration-vector.md` (2D winding).

use kollide_math::{Scalar, Vector};

use crate::dim::{from_slice, point_from, sp2, sp3, to2, to3};
use crate::{Cso, QuerySettings, Simplex, Status, epa2, epa3};

/// The penetration found by EPA, in the CSO's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaResult<N: Scalar, const D: usize> {
    /// Penetration depth, `≥ 0` (a lower bound when the status is not converged).
    pub depth: N,
    /// Unit normal from A to B: moving B by `depth · normal` separates the shapes.
    pub normal: Vector<N, D>,
    /// Contact point on A.
    pub point_a: Vector<N, D>,
    /// Contact point on B (`point_a − point_b = depth · normal`).
    pub point_b: Vector<N, D>,
    /// How the expansion ended.
    pub status: Status,
    /// Iterations used.
    pub iterations: u32,
    /// The origin's projection fell outside the face EPA stopped at, whose weights were clamped
    /// to it: on a flat part of the Minkowski difference, split into several faces, the
    /// witnesses then need not lie on both contact features (the depth and normal are still
    /// the face's). Also set, in 3D, when the face is so thin a sliver that the rounding of its
    /// weights could move the witnesses as far.
    pub clamped: bool,
    /// How far the clamp moved the face's point from the origin's projection `depth · normal`:
    /// the most by which a witness can be off its shape's contact feature (zero when unclamped).
    pub clamp_shift: N,
}

/// Runs EPA on `cso` from GJK's final `simplex` (which contains the origin or touches it).
///
/// `scale` is the size of the shapes (for the tolerance); `fallback_normal` is used only when the
/// Minkowski difference has no area or volume (flat shapes touching), where every direction in
/// which it is flat is a valid normal with depth zero.
pub fn epa<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    simplex: &Simplex<N, D>,
    scale: N,
    fallback_normal: &Vector<N, D>,
    settings: &QuerySettings<N>,
) -> EpaResult<N, D> {
    epa_on(crate::cso::debug_erased(&cso), simplex, scale, fallback_normal, settings)
}

/// EPA's stopping tolerance: it stops when the support along its closest face's normal is within
/// this of the face. A hundredth of the relative length tolerance times the shapes' `scale`, with
/// no floor, so that a centimetre pair is resolved as finely, relative to its size, as a metre
/// pair (`Tolerances::length` floors the scale at `1`, which left small pairs' depths off by more
/// than `1e-9` of their size in `f64`). The CSO's coordinates are those of A's frame, of the
/// order of `scale`, so the tolerance is as far above their rounding at every size as it is at
/// one metre: far above in `f64`, a few ulps in `f32`.
pub(crate) fn stop_tolerance<N: Scalar>(settings: &QuerySettings<N>, scale: N) -> N {
    settings.tolerances.relative_length * scale * N::lit(0.01)
}

/// [`epa`] on the CSO that `debug_erased` gives.
fn epa_on<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized>(
    cso: &C,
    simplex: &Simplex<N, D>,
    scale: N,
    fallback_normal: &Vector<N, D>,
    settings: &QuerySettings<N>,
) -> EpaResult<N, D> {
    let tol = stop_tolerance(settings, scale);
    if D == 2 {
        let support = Cso2(cso);
        // A 2D simplex has at most three points.
        let all = simplex.points();
        let pts: [_; 3] = core::array::from_fn(|i| sp2(&all[i.min(all.len() - 1)]));
        let r = epa2::run(&support, &pts[..all.len().min(3)], tol, &to2(fallback_normal), settings);
        EpaResult {
            depth: r.depth,
            normal: from_slice(r.normal.as_slice()),
            point_a: point_from::<N, D, 2>(&r.point_a).coords,
            point_b: on_b(point_from::<N, D, 2>(&r.point_a).coords, &r.normal, r.depth),
            status: r.status,
            iterations: r.iterations,
            clamped: r.clamped,
            clamp_shift: r.clamp_shift(),
        }
    } else {
        let support = |d: &kollide_math::Vec3<N>| {
            let dir: Vector<N, D> = from_slice(d.as_slice());
            sp3(&cso.support(&dir))
        };
        let pts: smallvec::SmallVec<[_; 4]> = simplex.points().iter().map(sp3).collect();
        let r = epa3::run(&support, &pts, tol, &to3(fallback_normal), settings);
        EpaResult {
            depth: r.depth,
            normal: from_slice(r.normal.as_slice()),
            point_a: point_from::<N, D, 3>(&r.point_a).coords,
            point_b: on_b(point_from::<N, D, 3>(&r.point_a).coords, &r.normal, r.depth),
            status: r.status,
            iterations: r.iterations,
            clamped: r.clamped,
            clamp_shift: r.clamp_shift(),
        }
    }
}

/// B's contact point: A's moved by the depth against the normal, so that `point_a − point_b =
/// depth · normal` holds by construction. The face's barycentric weights give both witnesses,
/// but when rounding or a clamp puts `depth · normal` off the face, the two would disagree with
/// the depth they come with.
#[inline(always)]
fn on_b<N: Scalar, const D: usize, const E: usize>(
    point_a: Vector<N, D>,
    normal: &Vector<N, E>,
    depth: N,
) -> Vector<N, D> {
    point_a - from_slice::<N, D>(normal.as_slice()) * depth
}

/// A `D`-dimensional CSO seen as the 2D one it is (only built when `D == 2`), for
/// [`epa2::run`], whose support queries it inlines.
struct Cso2<'c, C: ?Sized, const D: usize>(&'c C);

impl<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized> epa2::Support2<N> for Cso2<'_, C, D> {
    #[inline(always)]
    fn support(&self, d: &kollide_math::Vec2<N>) -> kollide_shapes::SupportPoint<N, 2> {
        let dir: Vector<N, D> = from_slice(d.as_slice());
        sp2(&self.0.support(&dir))
    }
}

/// EPA's raw output in one concrete dimension.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawEpa<N: Scalar, const D: usize> {
    pub depth: N,
    pub normal: Vector<N, D>,
    pub point_a: kollide_math::Point<N, D>,
    pub point_b: kollide_math::Point<N, D>,
    pub status: Status,
    pub iterations: u32,
    pub clamped: bool,
}

impl<N: Scalar, const D: usize> RawEpa<N, D> {
    /// [`EpaResult::clamp_shift`]: the face's point (the witnesses' difference) against the
    /// origin's projection.
    pub(crate) fn clamp_shift(&self) -> N {
        if !self.clamped {
            return N::zero();
        }
        (self.point_a - self.point_b - self.normal * self.depth).norm()
    }
}

/// The answer for a Minkowski difference with no area (2D) or volume (3D), which happens only
/// when both shapes are flat (segments, triangles, a flat hull) and touch: depth zero.
///
/// The normal must be a direction in which the difference is flat, for only along those is the
/// overlap zero: `flat_dir` when the caller found one (the plane normal of a flat difference,
/// a direction across a straight one), turned to agree with `fallback`; `fallback` itself when
/// every direction is flat (the difference is a point). The witnesses are the origin's
/// projection onto GJK's simplex, a point both shapes share.
pub(crate) fn flat<N: Scalar, const D: usize>(
    simplex: &[kollide_shapes::SupportPoint<N, D>],
    flat_dir: Option<Vector<N, D>>,
    fallback: &Vector<N, D>,
) -> RawEpa<N, D> {
    let origin = kollide_math::Point::origin();
    let first =
        simplex.first().copied().unwrap_or(kollide_shapes::SupportPoint::new(origin, origin));
    let mut s = Simplex::new(first);
    for p in simplex.iter().skip(1).take(D) {
        s.push(*p);
    }
    s.reduce();
    let (_, a, b) = s.closest();
    let toward = |d: Vector<N, D>| if d.dot(fallback) < N::zero() { -d } else { d };
    let normal = flat_dir
        .and_then(|d| d.try_normalize(N::zero()))
        .map(toward)
        .or_else(|| fallback.try_normalize(N::zero()))
        .unwrap_or_else(|| {
            let mut x = Vector::zeros();
            x[0] = N::one();
            x
        });
    let mid = kollide_math::Point::from((a + b) * N::lit(0.5));
    // Depth zero: one point serves both shapes (they meet within the touching tolerance).
    RawEpa {
        depth: N::zero(),
        normal,
        point_a: mid,
        point_b: mid,
        status: Status::Converged,
        iterations: 0,
        clamped: false,
    }
}
