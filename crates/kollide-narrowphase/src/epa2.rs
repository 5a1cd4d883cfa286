//! EPA in 2D: the polytope is a counter-clockwise polygon; adding a support point splits the
//! closest edge in two. See [`crate::epa`] for the algorithm.

use kollide_math::{Scalar, Vec2, geom::cross2};
use kollide_shapes::SupportPoint;
use smallvec::SmallVec;

use crate::epa::RawEpa;
use crate::{QuerySettings, Status};

type Sp<N> = SupportPoint<N, 2>;

/// Outward normal and distance of the edge `a → b` of a counter-clockwise polygon.
#[inline]
fn edge<N: Scalar>(a: &Vec2<N>, b: &Vec2<N>) -> (Vec2<N>, N) {
    let e = b - a;
    let len = e.norm();
    if len == N::zero() {
        return (Vec2::zeros(), N::MAX);
    }
    let n = Vec2::new(e.y, -e.x) / len;
    (n, n.dot(a))
}

/// Sees the polytope at every iteration of [`run_observed`] (debug drawing, see `crate::draw`).
/// The query path passes `()`, whose empty, inlined method compiles away: no branch, no
/// allocation.
pub(crate) trait Observer<N: Scalar> {
    /// Called at the start of each iteration with the polygon, the index of the edge closest to
    /// the origin (from vertex `closest` to `closest + 1`) and the support point found along its
    /// normal.
    fn iteration(&mut self, polygon: &[Sp<N>], closest: usize, support: &Sp<N>);
}

impl<N: Scalar> Observer<N> for () {
    #[inline(always)]
    fn iteration(&mut self, _: &[Sp<N>], _: usize, _: &Sp<N>) {}
}

pub(crate) fn run<N: Scalar>(
    support: &impl Fn(&Vec2<N>) -> Sp<N>,
    simplex: &[Sp<N>],
    tol: N,
    fallback: &Vec2<N>,
    settings: &QuerySettings<N>,
) -> RawEpa<N, 2> {
    run_observed(support, simplex, tol, fallback, settings, &mut ())
}

/// [`run`], reporting every iteration to `observer`.
pub(crate) fn run_observed<N: Scalar>(
    support: &impl Fn(&Vec2<N>) -> Sp<N>,
    simplex: &[Sp<N>],
    tol: N,
    fallback: &Vec2<N>,
    settings: &QuerySettings<N>,
    observer: &mut impl Observer<N>,
) -> RawEpa<N, 2> {
    let Some(mut poly) = initial_triangle(support, simplex, tol) else {
        return crate::epa::flat(simplex, fallback);
    };
    let mut normals: SmallVec<[(Vec2<N>, N); 32]> = SmallVec::new();
    for i in 0..3 {
        normals.push(edge(&poly[i].point, &poly[(i + 1) % 3].point));
    }
    let mut status = Status::IterationCap;
    let mut iterations = 0;
    let mut best = 0;
    for it in 0..settings.epa_max_iterations {
        iterations = it + 1;
        best = closest_edge(&normals);
        let (n, dist) = normals[best];
        let w = support(&n);
        observer.iteration(&poly, best, &w);
        let d = n.dot(&w.point);
        let j = (best + 1) % poly.len();
        if d - dist <= tol || w.point == poly[best].point || w.point == poly[j].point {
            status = Status::Converged;
            break;
        }
        // Insert w between best and j.
        let at = best + 1;
        poly.insert(at, w);
        let e1 = edge(&poly[best].point, &poly[at].point);
        let e2 = edge(&poly[at].point, &poly[(at + 1) % poly.len()].point);
        normals[best] = e1;
        normals.insert(at, e2);
        if e1.1 < dist - tol || e2.1 < dist - tol {
            // Rounding made the polygon non-convex: the previous face was as good as it gets.
            poly.remove(at);
            normals.remove(at);
            normals[best] = (n, dist);
            status = Status::Degenerate;
            break;
        }
    }
    finish(&poly, &normals, best, status, iterations)
}

fn closest_edge<N: Scalar>(normals: &[(Vec2<N>, N)]) -> usize {
    let mut best = 0;
    for (i, e) in normals.iter().enumerate() {
        if e.1 < normals[best].1 {
            best = i;
        }
    }
    best
}

fn finish<N: Scalar>(
    poly: &[Sp<N>],
    normals: &[(Vec2<N>, N)],
    i: usize,
    status: Status,
    iterations: u32,
) -> RawEpa<N, 2> {
    let (n, dist) = normals[i];
    let p = &poly[i];
    let q = &poly[(i + 1) % poly.len()];
    let e = q.point - p.point;
    let len2 = e.norm_squared();
    let t = if len2 > N::zero() {
        kollide_math::geom::clamp((n * dist - p.point).dot(&e) / len2, N::zero(), N::one())
    } else {
        N::zero()
    };
    RawEpa {
        depth: dist.max_of(N::zero()),
        normal: n,
        point_a: p.a + (q.a - p.a) * t,
        point_b: p.b + (q.b - p.b) * t,
        status,
        iterations,
    }
}

/// Grows GJK's simplex (1 to 3 points) into a counter-clockwise triangle with positive area.
/// Returns `None` when the Minkowski difference itself has no area.
fn initial_triangle<N: Scalar>(
    support: &impl Fn(&Vec2<N>) -> Sp<N>,
    simplex: &[Sp<N>],
    tol: N,
) -> Option<SmallVec<[Sp<N>; 32]>> {
    let mut pts: SmallVec<[Sp<N>; 32]> = simplex.iter().copied().collect();
    if pts.len() == 3 {
        let area = cross2(&(pts[1].point - pts[0].point), &(pts[2].point - pts[0].point));
        let longest = (pts[1].point - pts[0].point)
            .norm()
            .max_of((pts[2].point - pts[0].point).norm())
            .max_of((pts[2].point - pts[1].point).norm());
        if area.abs() <= tol * longest {
            // Keep the two points farthest apart and grow again.
            let (i, j) = farthest_pair(&pts);
            let (a, b) = (pts[i], pts[j]);
            pts.clear();
            pts.push(a);
            pts.push(b);
        }
    }
    if pts.len() == 1 {
        for d in [Vec2::x(), -Vec2::x(), Vec2::y(), -Vec2::y()] {
            let w = support(&d);
            if (w.point - pts[0].point).norm() > tol {
                pts.push(w);
                break;
            }
        }
        if pts.len() == 1 {
            return None;
        }
    }
    if pts.len() == 2 {
        let e = pts[1].point - pts[0].point;
        let n = Vec2::new(-e.y, e.x);
        let w1 = support(&n);
        let w2 = support(&-n);
        let h1 = n.dot(&(w1.point - pts[0].point));
        let h2 = -n.dot(&(w2.point - pts[0].point));
        let len = e.norm();
        let w = if h1 >= h2 { w1 } else { w2 };
        if h1.max_of(h2) <= tol * len {
            return None;
        }
        pts.push(w);
    }
    if cross2(&(pts[1].point - pts[0].point), &(pts[2].point - pts[0].point)) < N::zero() {
        pts.swap(1, 2);
    }
    Some(pts)
}

fn farthest_pair<N: Scalar>(pts: &[Sp<N>]) -> (usize, usize) {
    let mut best = (0, 1);
    let mut bd = N::zero();
    for i in 0..pts.len() {
        for j in (i + 1)..pts.len() {
            let d = (pts[j].point - pts[i].point).norm_squared();
            if d > bd {
                bd = d;
                best = (i, j);
            }
        }
    }
    best
}
