//! The exact fallback for polytope pairs: the separating-axis test over every candidate axis.
//!
//! GJK and EPA decide with rounded arithmetic on support points. On nearly degenerate input
//! (identical or nested boxes, rotations a few ulps off unit, slivers, a 10⁴:1 size ratio), most
//! of all in `f32`, rounding can stall them: GJK stops without a proof of separation and EPA
//! stops short of the boundary. They report it ([`Status::Degenerate`](crate::Status) or
//! [`Status::IterationCap`](crate::Status)), and when both shapes' cores are polytopes
//! ([`SupportMap::polytope`]) the pair queries then answer with this exact method instead.
//!
//! The Minkowski difference `A − B` of two convex polytopes is a convex polytope whose faces
//! have the normals of A's faces, of B's faces and (3D) the cross products of an edge of A with
//! an edge of B (Minkowski, and the separating axis theorem of Gottschalk, Lin and Manocha,
//! "OBBTree", SIGGRAPH 1996). For any unit axis `n`,
//!
//! ```text
//! s(n) = min over b ∈ B of n·b − max over a ∈ A of n·a
//! ```
//!
//! is a lower bound on the signed distance, and the largest `s` over all those candidates (both
//! orientations) is the exact signed distance when the shapes overlap (minus the penetration
//! depth) and a lower bound when they are apart. Every candidate costs one scan of both vertex
//! lists; the sums are done in `f64` whatever the scalar, from the same inputs, so the answer is
//! exact to the rounding of those inputs. When the shapes are apart, those axes give only a
//! lower bound (a vertex can face an edge), so the distance and closest points come from GJK run
//! in `f64` on the same vertex lists; that runs first, and SAT only when it does not converge
//! with a separating plane. SAT then adds the axes of a vertex facing a vertex or an edge
//! ([`apart_axes`]), with which its best separation is the distance, for pairs small enough.
//! SAT's work grows as (axes × vertices); beyond a budget (a smaller one in 2D), a pair
//! with a convex polyhedron walks its Gauss map ([`crate::sat_large`]), a 2D pair with a convex
//! polygon walks its vertex loop ([`crate::sat_loop`]), and other pairs are left to GJK and EPA's
//! own answer and status.

use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::Polytope;

use crate::sat_large::{self, Pair, Placed};
use crate::sat_loop;
use crate::witness::{common_point, feature};

/// The largest `candidate axes × vertices` the fallback takes on (a fraction of a millisecond).
const WORK_BUDGET: usize = 1 << 18;

/// The same in 2D with a vertex loop on one side: two 32-gons. The loop walk
/// ([`crate::sat_loop`]) is as exact and linear in the vertices, so it takes over early: a
/// 250-gon against a segment cost a millisecond by every axis against every vertex.
const LOOP_BUDGET: usize = 1 << 12;

/// The same for the axes of a pair apart ([`apart_axes`]): two boxes, or two 16-point hulls.
const APART_BUDGET: usize = 1 << 15;

/// The exact answer: the signed distance (negative when the polytopes overlap),
/// the unit normal from A to B (the best axis when they overlap) and witness points on A and B,
/// with `point_b − point_a = separation · normal` (in [`sat`]'s frame, or in the world).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SatContact<N: Scalar, const D: usize> {
    pub separation: N,
    pub normal: Vector<N, D>,
    pub point_a: Vector<N, D>,
    pub point_b: Vector<N, D>,
}

/// The exact answer for polytopes `a` and `b` whose rotations are `rot_a` and `rot_b` (matrix
/// columns) and whose positions differ by `t` (B's minus A's), in a frame with the world's axes
/// and A's position as origin; `None` when the pair is beyond the work budget and neither is a
/// [`kollide_shapes::ConvexPolyhedron`] ([`crate::sat_large`] takes those) nor, in 2D, a
/// [`kollide_shapes::ConvexPolygon`] ([`crate::sat_loop`]). `hint` is the stalled query's
/// direction from A to B, if it has one: only a place to start looking, which lets two large
/// hulls try the features around it before they walk their Gauss maps in full; the answer's
/// proof comes from GJK's bound, so a poor hint costs time, never correctness.
#[cold]
#[inline(never)]
fn sat<N: Scalar, const D: usize>(
    a: &dyn Polytope<N, D>,
    b: &dyn Polytope<N, D>,
    rot_a: &[Vector<f64, D>; D],
    rot_b: &[Vector<f64, D>; D],
    t: Vector<f64, D>,
    hint: Option<Vector<f64, D>>,
) -> Option<SatContact<f64, D>> {
    let (va, vb) = (rotated(a, rot_a), rotated(b, rot_b));
    // Apart, the usual case of a stalled `f32` distance: GJK in `f64` on the same vertices
    // answers at a fraction of the cost of every axis, when it converges with a separating plane.
    let placed: Vec<Vector<f64, D>> = vb.iter().map(|p| p + t).collect();
    let cloud = cloud_distance(&va, &placed, &t);
    if let Cloud::Tight(c) = cloud {
        return Some(c);
    }
    let axes = a.normal_count() + b.normal_count() + a.edge_count() * b.edge_count();
    let looped = D == 2 && (a.is_ccw_loop() || b.is_ccw_loop());
    let budget = if looped { LOOP_BUDGET } else { WORK_BUDGET };
    let best = if axes.saturating_mul(a.vertex_count() + b.vertex_count()) > budget {
        // GJK's bound, with the stalled query's normal, lets a large pair try the features
        // around that normal before the full walk.
        let hint = hint.and_then(|n| n.try_normalize(1e-150));
        let near = match &cloud {
            Cloud::Bound(upper) => hint.map(|n| (n, *upper)),
            Cloud::Noisy(c, _) => Some((hint.unwrap_or(c.normal), c.separation)),
            Cloud::Inside(simplex) => Some(deepest(&va, &placed, simplex, &hint.unwrap_or(t))),
            Cloud::Tight(_) => None,
        };
        let pair = large_pair(a, b, rot_a, rot_b, &va, &vb, t);
        let large = sat_large::best_axis(&pair, near);
        large.or_else(|| {
            let (na, nb) = (turned_normals(a, rot_a), turned_normals(b, rot_b));
            sat_loop::best_axis(a, b, (&va, &vb), (&na, &nb), &t)
        })?
    } else {
        every_axis(a, b, rot_a, rot_b, (&va, &vb), &t)?
    };
    let (s, n) =
        if best.0 > 0.0 { with_apart_axes(best, a, b, (&va, &vb, &placed), &t) } else { best };
    // Apart, the separation of a pair too large for `apart_axes` is a lower bound, the distance
    // when a face or an edge pair holds the closest points (then its axis is the exact normal),
    // short of it when a vertex faces a vertex or an edge. Below GJK's proven bound it is the
    // latter, and GJK's answer stands.
    if let Cloud::Noisy(c, lower_bound) = cloud
        && s < lower_bound
    {
        return Some(c);
    }
    let (pa, pb) = witnesses(&va, (&vb, &placed), &t, &n, s);
    Some(SatContact { separation: s, normal: n, point_a: pa, point_b: pb })
}

/// The listed face normals of `p` turned by the rotation with columns `rot` (through its
/// cofactor, as in [`every_axis`]); none for a loop, whose normals come from its edges.
fn turned_normals<N: Scalar, const D: usize>(
    p: &dyn Polytope<N, D>,
    rot: &[Vector<f64, D>; D],
) -> Vec<Vector<f64, D>> {
    if p.is_ccw_loop() {
        return Vec::new();
    }
    let nrm = cofactor(rot);
    (0..p.normal_count()).map(|i| times(&nrm, &wide(&p.normal(i)))).collect()
}

/// The vertices of `p` turned by the matrix with columns `rot`, in `f64`. B's are not
/// translated: the translation is added to each dot product once, so that a tiny B far out on a
/// large A keeps its own precision.
fn rotated<N: Scalar, const D: usize>(
    p: &dyn Polytope<N, D>,
    rot: &[Vector<f64, D>; D],
) -> Vec<Vector<f64, D>> {
    (0..p.vertex_count()).map(|i| times(rot, &wide(&p.vertex(i).coords))).collect()
}

/// `v` in `f64`.
pub(crate) fn wide<N: Scalar, const D: usize>(v: &Vector<N, D>) -> Vector<f64, D> {
    v.map(|x| x.to_f64())
}

/// The matrix with columns `cols` times `v`.
fn times<const D: usize>(cols: &[Vector<f64, D>; D], v: &Vector<f64, D>) -> Vector<f64, D> {
    let mut out = Vector::<f64, D>::zeros();
    for (i, c) in cols.iter().enumerate() {
        out += c * v[i];
    }
    out
}

/// The pair as [`crate::sat_large`] takes it.
fn large_pair<'s, N: Scalar, const D: usize>(
    a: &'s dyn Polytope<N, D>,
    b: &'s dyn Polytope<N, D>,
    rot_a: &[Vector<f64, D>; D],
    rot_b: &[Vector<f64, D>; D],
    va: &'s [Vector<f64, D>],
    vb: &'s [Vector<f64, D>],
    t: Vector<f64, D>,
) -> Pair<'s, N, D> {
    let place = |shape, rot: &[Vector<f64, D>; D], verts| Placed {
        shape,
        rot: *rot,
        nrm: cofactor(rot),
        verts,
    };
    Pair { a: place(a, rot_a, va), b: place(b, rot_b, vb), t }
}

/// A polytope's vertices in `f64`, in one frame.
type Verts<'v, const D: usize> = &'v [Vector<f64, D>];

/// The best of every candidate axis (both orientations), each against every vertex: the
/// separation and the unit axis from A to B. `va` and `vb` are the rotated vertices, `placed`
/// B's moved by `t` into A's frame.
fn every_axis<N: Scalar, const D: usize>(
    a: &dyn Polytope<N, D>,
    b: &dyn Polytope<N, D>,
    rot_a: &[Vector<f64, D>; D],
    rot_b: &[Vector<f64, D>; D],
    (va, vb): (Verts<'_, D>, Verts<'_, D>),
    t: &Vector<f64, D>,
) -> Option<(f64, Vector<f64, D>)> {
    let best = core::cell::Cell::new((f64::MIN, Vector::<f64, D>::zeros()));
    let consider = |n: Vector<f64, D>| best.set(better_axis(best.get(), n, (va, vb), t));
    // Normals move with the cofactor matrix: a rotation a few ulps off unit is not quite
    // orthogonal, and the faces' true normals are what the exact answer must use.
    let (nrm_a, nrm_b) = (cofactor(rot_a), cofactor(rot_b));
    for i in 0..a.normal_count() {
        consider(times(&nrm_a, &wide(&a.normal(i))));
    }
    for i in 0..b.normal_count() {
        consider(times(&nrm_b, &wide(&b.normal(i))));
    }
    if D == 3 {
        let dir = |p: &dyn Polytope<N, D>, i: usize| {
            let [s, e] = p.edge(i);
            wide(&(p.vertex(e) - p.vertex(s)))
        };
        for i in 0..a.edge_count() {
            let ea = times(rot_a, &dir(a, i));
            for j in 0..b.edge_count() {
                let eb = times(rot_b, &dir(b, j));
                let c = cross(&ea, &eb);
                // Parallel edges give no axis of their own (the face normals cover them).
                if c.norm_squared() > 1e-24 * ea.norm_squared() * eb.norm_squared() {
                    consider(c);
                }
            }
        }
    }
    let best = best.get();
    (best.0 != f64::MIN).then_some(best)
}

/// The better of `best` and the axis `n` (both orientations, normalised here; none when `n` is
/// zero): the one with the larger separation `min_b n·b + n·t − max_a n·a`.
fn better_axis<const D: usize>(
    best: (f64, Vector<f64, D>),
    n: Vector<f64, D>,
    (va, vb): (Verts<'_, D>, Verts<'_, D>),
    t: &Vector<f64, D>,
) -> (f64, Vector<f64, D>) {
    let len = n.norm();
    if !(len > 0.0 && len.is_finite()) {
        return best;
    }
    let n = n / len;
    [n, -n].into_iter().fold(best, |best, n| {
        let max_a = va.iter().map(|p| p.dot(&n)).fold(f64::MIN, f64::max);
        let min_b = vb.iter().map(|p| p.dot(&n)).fold(f64::MAX, f64::min);
        let s = min_b + n.dot(t) - max_a;
        if s > best.0 { (s, n) } else { best }
    })
}

/// `best`, a pair apart's best face or edge-pair axis, against the axes only such a pair has
/// ([`apart_axes`]): with them the best separation is the distance.
fn with_apart_axes<N: Scalar, const D: usize>(
    best: (f64, Vector<f64, D>),
    a: &dyn Polytope<N, D>,
    b: &dyn Polytope<N, D>,
    (va, vb, placed): (Verts<'_, D>, Verts<'_, D>, Verts<'_, D>),
    t: &Vector<f64, D>,
) -> (f64, Vector<f64, D>) {
    apart_axes(a, b, va, placed).into_iter().fold(best, |best, n| better_axis(best, n, (va, vb), t))
}

/// The axes a pair apart has besides the faces' and edge pairs': a vertex facing a vertex
/// (their offset) and, in 3D, a vertex facing an edge (the perpendicular from the edge's line),
/// for B's vertices `placed` in A's frame. With them the best separation is the
/// distance whatever features hold the closest points. None beyond a small pair's count.
///
/// The perpendicular is taken from the edge's nearer end and made square to the edge once more:
/// a vertex 4e-8 from an edge 10 long, taken from the far end, lost the cancelled digits, and the
/// axis leant along the edge by 1e-8, short of the distance by that times the edge.
fn apart_axes<N: Scalar, const D: usize>(
    a: &dyn Polytope<N, D>,
    b: &dyn Polytope<N, D>,
    va: &[Vector<f64, D>],
    placed: &[Vector<f64, D>],
) -> Vec<Vector<f64, D>> {
    let (na, nb) = (va.len(), placed.len());
    let edges =
        if D == 3 { a.boundary_edge_count() * nb + b.boundary_edge_count() * na } else { 0 };
    if (na * nb + edges) * (na + nb) > APART_BUDGET {
        return Vec::new();
    }
    let mut axes: Vec<Vector<f64, D>> =
        va.iter().flat_map(|p| placed.iter().map(move |q| q - p)).collect();
    if D == 3 {
        let square = |s: &Vector<f64, D>, e: &Vector<f64, D>, v: &Vector<f64, D>| {
            let d = e - s;
            let len2 = d.norm_squared();
            let along = |w: &Vector<f64, D>| d * (w.dot(&d) / len2);
            let w = if (v - s).dot(&d) > 0.5 * len2 { v - e } else { v - s };
            let p = w - along(&w);
            p - along(&p)
        };
        // Every edge: a box lists one edge per direction for the crossings, but a vertex can
        // face any of its twelve (a triangle's corner 2e-5 from a box's far edge got the best
        // crossing's separation, 1e-4 short, and a witness 3e-7 off the box).
        for i in 0..a.boundary_edge_count() {
            let [s, e] = a.boundary_edge(i);
            axes.extend(placed.iter().map(|q| square(&va[s], &va[e], q)));
        }
        for j in 0..b.boundary_edge_count() {
            let [s, e] = b.boundary_edge(j);
            axes.extend(va.iter().map(|p| -square(&placed[s], &placed[e], p)));
        }
    }
    axes
}

/// [`crate::sat_large`]'s answer given a normal and an upper bound on the signed distance
/// (`near`), for the tests.
#[cfg(test)]
pub(crate) fn large_near<N: Scalar>(
    a: &dyn Polytope<N, 3>,
    b: &dyn Polytope<N, 3>,
    (rot_a, rot_b): (&[Vector<f64, 3>; 3], &[Vector<f64, 3>; 3]),
    t: Vector<f64, 3>,
    near: (Vector<f64, 3>, f64),
) -> Option<(f64, Vector<f64, 3>)> {
    let (va, vb) = (rotated(a, rot_a), rotated(b, rot_b));
    sat_large::best_axis(&large_pair(a, b, rot_a, rot_b, &va, &vb, t), Some(near))
}

/// Both ways to the exact answer, whatever the budget: [`crate::sat_large`]'s (in 2D,
/// [`crate::sat_loop`]'s) and (with `every`) every axis against every vertex, for the tests that
/// compare them.
#[cfg(test)]
pub(crate) fn large_and_every_axis<N: Scalar, const D: usize>(
    a: &dyn Polytope<N, D>,
    b: &dyn Polytope<N, D>,
    rot_a: &[Vector<f64, D>; D],
    rot_b: &[Vector<f64, D>; D],
    t: Vector<f64, D>,
    every: bool,
) -> [Option<(f64, Vector<f64, D>)>; 2] {
    let (va, vb) = (rotated(a, rot_a), rotated(b, rot_b));
    let (na, nb) = (turned_normals(a, rot_a), turned_normals(b, rot_b));
    [
        sat_large::best_axis(&large_pair(a, b, rot_a, rot_b, &va, &vb, t), None)
            .or_else(|| sat_loop::best_axis(a, b, (&va, &vb), (&na, &nb), &t)),
        every.then(|| every_axis(a, b, rot_a, rot_b, (&va, &vb), &t)).flatten(),
    ]
}

/// The vertex lists of two polytopes, B's already placed in A's frame, as the CSO `A − B`.
struct Clouds<'v, const D: usize> {
    a: &'v [Vector<f64, D>],
    b: &'v [Vector<f64, D>],
}

impl<const D: usize> crate::Cso<f64, D> for Clouds<'_, D> {
    fn support(&self, dir: &Vector<f64, D>) -> kollide_shapes::SupportPoint<f64, D> {
        let arg_max = |ps: &[Vector<f64, D>], d: &Vector<f64, D>| {
            let mut best = ps[0];
            for p in &ps[1..] {
                if p.dot(d) > best.dot(d) {
                    best = *p;
                }
            }
            best
        };
        kollide_shapes::SupportPoint::new(
            kollide_math::Point::from(arg_max(self.a, dir)),
            kollide_math::Point::from(arg_max(self.b, &-dir)),
        )
    }
}

/// The distance of two disjoint polytopes given by their vertices (in one frame), by GJK in
/// `f64`, with the unit normal from A to B and the closest points when GJK found a separating
/// plane; otherwise (touching, overlapping, or stalled early: SAT decides those) only an upper
/// bound on the signed distance ([`Cloud::Bound`]).
///
/// A run that converged, or stalled with its bounds bracketing the distance to a ten-billionth
/// of the clouds' size, is as good as exact ([`Cloud::Tight`]): SAT would give only a lower
/// bound for shapes apart. One whose bracket is only as narrow as the rounding of its lower bound
/// `v·w / |v|` ([`Cloud::Noisy`]) has the distance but not the normal: `v` is off by a few ulps
/// of the coordinates, its direction by that over `|v|`, and the bound by that angle times how
/// far the support points lie from `v`. Two 0.2 m triangles 3.5e-8 apart stalled with a bracket
/// 4e-11 wide.
fn cloud_distance<const D: usize>(
    a: &[Vector<f64, D>],
    b: &[Vector<f64, D>],
    dir: &Vector<f64, D>,
) -> Cloud<D> {
    let settings = crate::QuerySettings::<f64>::default();
    let g = crate::gjk(&Clouds { a, b }, dir, f64::MAX, 0.0, &settings);
    let crate::GjkOutcome::Separated { v, lower_bound } = g.outcome else {
        // The origin is in a simplex of points of `A − B`: the shapes overlap or touch.
        return Cloud::Inside(g.simplex);
    };
    if lower_bound <= 0.0 {
        return Cloud::Bound(v.norm());
    }
    let size = a.iter().chain(b).map(|p| p.amax()).fold(0.0, f64::max);
    let dist = v.norm();
    let (point_a, point_b) = g.witnesses();
    let c = SatContact { separation: dist, normal: -v / dist, point_a, point_b };
    let gap = dist - lower_bound;
    // The bracket holds the distance, not the direction: on a sliver simplex `v` can slide along
    // its face by far more than it changes in length (two 130 m sliver triangles 7.5e-3 apart:
    // `|v|` right to 1e-12, the normal 2.5e-5 rad off). Only a normal that attains `|v|` itself
    // makes the answer exact.
    let n = c.normal;
    let own = -a.iter().map(|p| p.dot(&n)).fold(f64::MIN, f64::max)
        - b.iter().map(|p| -p.dot(&n)).fold(f64::MIN, f64::max);
    if (g.status == crate::Status::Converged || gap <= 1e-10 * size) && dist - own <= 1e-10 * size {
        return Cloud::Tight(c);
    }
    let reach = g.simplex.points().iter().map(|p| (p.point - v).norm()).fold(0.0, f64::max);
    if gap <= 16.0 * f64::EPSILON * size * reach / dist {
        Cloud::Noisy(c, lower_bound)
    } else {
        Cloud::Bound(dist)
    }
}

/// What [`cloud_distance`] settled.
enum Cloud<const D: usize> {
    /// The distance, normal and closest points.
    Tight(SatContact<f64, D>),
    /// The distance and closest points, with a normal off by the rounding of a short `v` in long
    /// coordinates, and the lower bound proven.
    Noisy(SatContact<f64, D>, f64),
    /// No separating plane (touching, or stalled early: SAT decides), only an upper bound on
    /// the signed distance: `|v|`, for a point of `A − B` at that distance from the origin.
    Bound(f64),
    /// The origin is in GJK's final simplex, of points of `A − B`: the signed distance is at
    /// most zero, and at most minus the depth of any polytope of such points around the origin
    /// ([`deepest`]).
    Inside(crate::Simplex<f64, D>),
}

/// EPA's normal and depth for the clouds `a` and `b` (B's placed in A's frame) whose
/// difference holds the origin in GJK's `simplex`, as a place to look and a bound:
/// `(normal, −depth)`. EPA's polytope has points of `A − B` for vertices, so it lies inside the
/// difference and the origin is no deeper in it than in the difference: minus its depth is an
/// upper bound on the signed distance, to EPA's stopping tolerance (a hundredth of the length
/// tolerance, well under what the features around its normal must prove against it). `fallback`
/// is EPA's normal for a difference without volume.
fn deepest<const D: usize>(
    a: &[Vector<f64, D>],
    b: &[Vector<f64, D>],
    simplex: &crate::Simplex<f64, D>,
    fallback: &Vector<f64, D>,
) -> (Vector<f64, D>, f64) {
    let size = a.iter().chain(b).map(|p| p.amax()).fold(0.0, f64::max);
    let settings = crate::QuerySettings::<f64>::default();
    let e = crate::epa(&Clouds { a, b }, simplex, size, fallback, &settings);
    (e.normal, -e.depth.max(0.0))
}

/// Witness points for the axis `n` with separation `s`: a point of A on its supporting plane
/// along `n` and the point `s·n` from it, on B's. A lone supporting vertex is taken as it is;
/// otherwise the point of the two supporting features' overlap ([`crate::witness`]) nearest the
/// middle of their centroids. B's vertices come rotated (`vb`) and placed in A's frame.
fn witnesses<const D: usize>(
    va: &[Vector<f64, D>],
    (vb, placed): (Verts<'_, D>, Verts<'_, D>),
    t: &Vector<f64, D>,
    n: &Vector<f64, D>,
    s: f64,
) -> (Vector<f64, D>, Vector<f64, D>) {
    // Vertices within a millionth of their own shape's size of the supporting plane are on the
    // supporting feature (plus, for B, the rounding of placing it): with the pair's size, a
    // rounded box 1e4 times smaller than the other shape took vertices off its feature, and its
    // radius carried the witness 2.3e-7 off its surface.
    let extent = |ps: &[Vector<f64, D>]| ps.iter().map(|p| p.amax()).fold(0.0, f64::max);
    let tol_a = extent(va) * 1e-6;
    let tol_b = extent(vb) * 1e-6 + 4.0 * f64::EPSILON * t.amax();
    let tol = tol_a.min(tol_b);
    let (on_a, max_a) = feature(va, n, tol_a);
    let (on_b, _) = feature(placed, &-n, tol_b);
    let mean = |ps: &[Vector<f64, D>]| ps.iter().sum::<Vector<f64, D>>() / ps.len() as f64;
    let pa = if on_a.len() == 1 {
        on_a[0]
    } else if on_b.len() == 1 {
        on_b[0] - n * s
    } else {
        let c = (mean(&on_a) + mean(&on_b)) * 0.5;
        let c = common_point(&on_a, &on_b, n, &c, tol).unwrap_or(c);
        c + n * (max_a - c.dot(n))
    };
    (pa, pa + n * s)
}

/// The columns of the cofactor matrix of the matrix with columns `m` (`det(M) · M⁻ᵀ`), which
/// maps a face normal of a shape to the normal of the same face after `M`.
fn cofactor<const D: usize>(m: &[Vector<f64, D>; D]) -> [Vector<f64, D>; D] {
    if D == 2 {
        let mut out = [Vector::<f64, D>::zeros(); D];
        (out[0][0], out[0][1]) = (m[1][1], -m[1][0]);
        (out[1][0], out[1][1]) = (-m[0][1], m[0][0]);
        out
    } else {
        core::array::from_fn(|i| cross(&m[(i + 1) % D], &m[(i + 2) % D]))
    }
}

/// The cross product of two vectors that are 3D (only called when `D == 3`).
fn cross<const D: usize>(u: &Vector<f64, D>, v: &Vector<f64, D>) -> Vector<f64, D> {
    let mut c = Vector::<f64, D>::zeros();
    c[0] = u[1] * v[2] - u[2] * v[1];
    c[1] = u[2] * v[0] - u[0] * v[2];
    c[2] = u[0] * v[1] - u[1] * v[0];
    c
}

/// The exact answer for two shapes whose cores are both polytopes (`None` otherwise, or beyond
/// the work budget), on the cores, in world space. It is computed in `f64` from the poses'
/// stored numbers ([`Pose::rotation_columns_f64`]), not from the relative pose rounded in `N`:
/// in `f32` that rounding alone is an ulp of the distance between the shapes' centres. `hint`
/// is the stalled query's direction from A to B in world axes, as in [`sat`].
#[cold]
#[inline(never)]
pub(crate) fn exact<N, const D: usize, P, A, B>(
    pos_a: &P,
    a: &A,
    pos_b: &P,
    b: &B,
    hint: Option<Vector<N, D>>,
) -> Option<SatContact<N, D>>
where
    N: Scalar,
    P: Pose<N, D>,
    A: kollide_shapes::SupportMap<N, D> + ?Sized,
    B: kollide_shapes::SupportMap<N, D> + ?Sized,
{
    let (ta, tb) =
        (pos_a.translation().map(|x| x.to_f64()), pos_b.translation().map(|x| x.to_f64()));
    // A point or segment core against a polytope is a pair of polytopes too (two points and no
    // face in 3D): a ball deep in a 1000-vertex hull stalls EPA as two hulls do.
    let (core_a, core_b) = (SegmentPolytope::of(a), SegmentPolytope::of(b));
    let (pa, pb): (&dyn Polytope<N, D>, &dyn Polytope<N, D>) =
        match (a.polytope(), b.polytope(), &core_a, &core_b) {
            (Some(pa), Some(pb), _, _) => (pa, pb),
            (Some(pa), None, _, Some(cb)) => (pa, cb),
            (None, Some(pb), Some(ca), _) => (ca, pb),
            _ => return None,
        };
    let rotations = (pos_a.rotation_columns_f64(), pos_b.rotation_columns_f64());
    let hint = hint.map(|n| n.map(|x| x.to_f64()));
    let r = sat(pa, pb, &rotations.0, &rotations.1, tb - ta, hint)?;
    let world = |p: &Vector<f64, D>| (p + ta).map(N::lit);
    Some(SatContact {
        separation: N::lit(r.separation),
        normal: r.normal.map(N::lit),
        point_a: world(&r.point_a),
        point_b: world(&r.point_b),
    })
}

/// A point or segment core ([`SupportMap::core_segment`]) as a [`Polytope`]: its one or two
/// vertices; in 2D a segment's line is its face (either side), in 3D it has no face and one
/// edge, whose crossings with the other shape's edges are the rest of the candidate axes.
///
/// [`SupportMap::core_segment`]: kollide_shapes::SupportMap::core_segment
struct SegmentPolytope<N: Scalar, const D: usize> {
    ends: [Point<N, D>; 2],
    /// One vertex (a point) or two (a segment).
    len: usize,
}

impl<N: Scalar, const D: usize> SegmentPolytope<N, D> {
    fn of<S: kollide_shapes::SupportMap<N, D> + ?Sized>(s: &S) -> Option<Self> {
        let ends = s.core_segment()?;
        Some(Self { ends, len: if ends[0] == ends[1] { 1 } else { 2 } })
    }
}

impl<N: Scalar, const D: usize> Polytope<N, D> for SegmentPolytope<N, D> {
    fn vertex_count(&self) -> usize {
        self.len
    }

    fn vertex(&self, i: usize) -> Point<N, D> {
        self.ends[i]
    }

    fn normal_count(&self) -> usize {
        usize::from(D == 2 && self.len == 2)
    }

    fn normal(&self, _: usize) -> Vector<N, D> {
        let e = self.ends[1] - self.ends[0];
        let mut n = Vector::<N, D>::zeros();
        (n[0], n[1]) = (e[1], -e[0]);
        n
    }

    fn edge_count(&self) -> usize {
        usize::from(D == 3 && self.len == 2)
    }

    fn edge(&self, _: usize) -> [usize; 2] {
        [0, 1]
    }
}
