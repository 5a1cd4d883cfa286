//! EPA in 2D: the polytope is a counter-clockwise polygon; adding a support point splits the
//! closest edge in two. See [`crate::epa`] for the algorithm.
//!
//! ## Layout
//! The polygon is a singly linked loop stored in insertion order: vertex `k` keeps the index of
//! the next vertex counter-clockwise, and the outward unit normal and distance to the origin of
//! its edge `k → next(k)`. Splitting an edge appends one vertex and relinks one index, so nothing
//! is ever shifted. Each edge's normal and distance are computed once, when the edge is created.
//! Walking the loop from vertex 0 gives the polygon in counter-clockwise order, which only the
//! debug observer needs. The polygon is filled where it lives, on the caller's stack: building
//! it in a function that returns it would copy its whole inline buffer (640 bytes in `f32`,
//! twice that in `f64`), a `memcpy` call that cost a tenth of a typical two-iteration run.

use kollide_math::{Scalar, Vec2, geom::cross2};
use kollide_shapes::SupportPoint;
use smallvec::SmallVec;

use crate::epa::RawEpa;
use crate::{QuerySettings, Status};

type Sp<N> = SupportPoint<N, 2>;

/// Outward normal and distance of the edge `a → b` of a counter-clockwise polygon.
#[inline(always)]
fn edge<N: Scalar>(a: &Vec2<N>, b: &Vec2<N>) -> (Vec2<N>, N) {
    let e = b - a;
    let len = e.norm();
    if len == N::zero() {
        return (Vec2::zeros(), N::MAX);
    }
    let n = Vec2::new(e.y, -e.x) / len;
    (n, n.dot(a))
}

/// The support function EPA runs on: any `Fn(&Vec2) -> SupportPoint` (the debug drawing passes a
/// closure), or a type whose method is always inlined. EPA waits for each support point, and a
/// closure called from its several call sites is left out of line, with the point returned
/// through memory.
pub(crate) trait Support2<N: Scalar> {
    /// The support point of the CSO in direction `d`.
    fn support(&self, d: &Vec2<N>) -> Sp<N>;
}

impl<N: Scalar, F: Fn(&Vec2<N>) -> Sp<N>> Support2<N> for F {
    #[inline(always)]
    fn support(&self, d: &Vec2<N>) -> Sp<N> {
        self(d)
    }
}

/// Sees the polytope at every iteration of [`run_observed`] (debug drawing, see `crate::draw`).
/// The query path passes `()`, whose empty, inlined method compiles away: no branch, no
/// allocation.
pub(crate) trait Observer<N: Scalar> {
    /// `false` when [`Self::iteration`] ignores its arguments, so the polygon need not be put in
    /// counter-clockwise order for it.
    const WATCHING: bool = true;

    /// Called at the start of each iteration with the polygon, the index of the edge closest to
    /// the origin (from vertex `closest` to `closest + 1`) and the support point found along its
    /// normal.
    fn iteration(&mut self, polygon: &[Sp<N>], closest: usize, support: &Sp<N>);
}

impl<N: Scalar> Observer<N> for () {
    const WATCHING: bool = false;

    #[inline(always)]
    fn iteration(&mut self, _: &[Sp<N>], _: usize, _: &Sp<N>) {}
}

/// A vertex of the polygon with its outgoing edge.
#[derive(Clone, Copy, Debug)]
struct Vertex<N: Scalar> {
    /// The support point.
    sp: Sp<N>,
    /// The outward unit normal of the edge from this vertex to the next.
    normal: Vec2<N>,
    /// The distance of that edge's line from the origin.
    dist: N,
    /// The index of the next vertex, counter-clockwise.
    next: u32,
}

/// The expanding polygon: vertices in insertion order, linked counter-clockwise. Sixteen
/// vertices (thirteen iterations) live on the stack; a typical run uses four or five.
struct Polygon<N: Scalar> {
    verts: SmallVec<[Vertex<N>; 16]>,
}

impl<N: Scalar> Polygon<N> {
    /// An empty polygon. The caller fills it in place ([`Self::push_triangle`]): returning a
    /// filled polygon by value would copy its whole inline buffer.
    #[inline(always)]
    fn new() -> Self {
        Self { verts: SmallVec::new() }
    }

    /// Makes the (empty) polygon the counter-clockwise triangle `t`.
    #[inline(always)]
    fn push_triangle(&mut self, t: &[Sp<N>; 3]) {
        for k in 0..3 {
            let next = if k == 2 { 0 } else { k + 1 };
            let (normal, dist) = edge(&t[k].point, &t[next].point);
            self.verts.push(Vertex { sp: t[k], normal, dist, next: next as u32 });
        }
    }

    /// The edge closest to the origin: the lowest distance, the first created on ties.
    #[inline]
    fn closest_edge(&self) -> usize {
        let mut best = 0;
        let mut best_dist = self.verts[0].dist;
        for (i, v) in self.verts.iter().enumerate().skip(1) {
            if v.dist < best_dist {
                (best, best_dist) = (i, v.dist);
            }
        }
        best
    }

    /// The vertex after `k`.
    #[inline]
    fn next(&self, k: usize) -> usize {
        self.verts[k].next as usize
    }

    /// Inserts `w` between vertex `k` and its successor, with the edges `k → w` (`e1`) and
    /// `w → next` (`e2`) already computed.
    #[inline]
    fn split(&mut self, k: usize, w: Sp<N>, e1: (Vec2<N>, N), e2: (Vec2<N>, N)) {
        let m = self.verts.len() as u32;
        let next = self.verts[k].next;
        self.verts.push(Vertex { sp: w, normal: e2.0, dist: e2.1, next });
        let v = &mut self.verts[k];
        (v.next, v.normal, v.dist) = (m, e1.0, e1.1);
    }

    /// The vertices counter-clockwise from vertex 0, and the position of vertex `k` among them.
    fn ordered(&self, k: usize) -> (Vec<Sp<N>>, usize) {
        let mut out = Vec::with_capacity(self.verts.len());
        let (mut i, mut at) = (0, 0);
        loop {
            if i == k {
                at = out.len();
            }
            out.push(self.verts[i].sp);
            i = self.next(i);
            if i == 0 {
                break;
            }
        }
        (out, at)
    }
}

pub(crate) fn run<N: Scalar>(
    support: &impl Support2<N>,
    simplex: &[Sp<N>],
    tol: N,
    fallback: &Vec2<N>,
    settings: &QuerySettings<N>,
) -> RawEpa<N, 2> {
    run_observed(support, simplex, tol, fallback, settings, &mut ())
}

/// [`run`], reporting every iteration to `observer`.
pub(crate) fn run_observed<N: Scalar, O: Observer<N>>(
    support: &impl Support2<N>,
    simplex: &[Sp<N>],
    tol: N,
    fallback: &Vec2<N>,
    settings: &QuerySettings<N>,
    observer: &mut O,
) -> RawEpa<N, 2> {
    let triangle = match initial_triangle(support, simplex, tol) {
        Ok(triangle) => triangle,
        Err(flat_dir) => return crate::epa::flat(simplex, flat_dir, fallback),
    };
    let mut poly = Polygon::new();
    poly.push_triangle(&triangle);
    let mut status = Status::IterationCap;
    let mut iterations = 0;
    let mut best = 0;
    for it in 0..settings.epa_max_iterations {
        iterations = it + 1;
        best = poly.closest_edge();
        let (n, dist) = (poly.verts[best].normal, poly.verts[best].dist);
        let w = support.support(&n);
        if O::WATCHING {
            let (ordered, at) = poly.ordered(best);
            observer.iteration(&ordered, at, &w);
        }
        let d = n.dot(&w.point);
        let j = poly.next(best);
        let (p, q) = (poly.verts[best].sp.point, poly.verts[j].sp.point);
        if d - dist <= tol || w.point == p || w.point == q {
            status = Status::Converged;
            break;
        }
        let e1 = edge(&p, &w.point);
        let e2 = edge(&w.point, &q);
        if e1.1 < dist - tol || e2.1 < dist - tol {
            // Rounding would make the polygon non-convex: the current edge is as good as it gets.
            status = Status::Degenerate;
            break;
        }
        poly.split(best, w, e1, e2);
    }
    finish(&poly, best, status, iterations)
}

fn finish<N: Scalar>(poly: &Polygon<N>, i: usize, status: Status, iterations: u32) -> RawEpa<N, 2> {
    let (n, dist) = (poly.verts[i].normal, poly.verts[i].dist);
    let p = &poly.verts[i].sp;
    let q = &poly.verts[poly.next(i)].sp;
    let e = q.point - p.point;
    let len2 = e.norm_squared();
    let t = if len2 > N::zero() { (n * dist - p.point).dot(&e) / len2 } else { N::zero() };
    let slack = N::EPSILON * N::lit(64.0);
    let clamped = t < -slack || t > N::one() + slack;
    let t = kollide_math::geom::clamp(t, N::zero(), N::one());
    RawEpa {
        depth: dist.max_of(N::zero()),
        normal: n,
        point_a: p.a + (q.a - p.a) * t,
        point_b: p.b + (q.b - p.b) * t,
        status,
        iterations,
        clamped,
    }
}

/// Grows GJK's simplex (1 to 3 points) into a counter-clockwise triangle with positive area.
/// When the Minkowski difference itself has no area it returns `Err` with a direction in which
/// the difference is flat, if it has one short of being a point.
fn initial_triangle<N: Scalar>(
    support: &impl Support2<N>,
    simplex: &[Sp<N>],
    tol: N,
) -> Result<[Sp<N>; 3], Option<Vec2<N>>> {
    let first = *simplex.first().ok_or(None)?;
    let mut len = simplex.len().min(3);
    // Element by element: a copy of a run-time length would be a call to `memcpy`.
    let mut pts = [first, simplex[usize::from(len > 1)], simplex[2 * usize::from(len > 2)]];
    if len == 3 {
        // Flat when the height over the longest side is within `tol`: `|area| ≤ tol · longest`,
        // compared squared.
        let (e1, e2) = (pts[1].point - pts[0].point, pts[2].point - pts[0].point);
        let area = cross2(&e1, &e2);
        let longest2 = e1
            .norm_squared()
            .max_of(e2.norm_squared())
            .max_of((pts[2].point - pts[1].point).norm_squared());
        if area * area <= tol * tol * longest2 {
            // Keep the two points farthest apart and grow again.
            let (i, j) = farthest_pair(&pts);
            (pts[0], pts[1]) = (pts[i], pts[j]);
            len = 2;
        }
    }
    if len == 1 {
        for d in [Vec2::x(), -Vec2::x(), Vec2::y(), -Vec2::y()] {
            let w = support.support(&d);
            if (w.point - pts[0].point).norm() > tol {
                pts[1] = w;
                len = 2;
                break;
            }
        }
        if len == 1 {
            return Err(None);
        }
    }
    if len == 2 {
        let e = pts[1].point - pts[0].point;
        let n = Vec2::new(-e.y, e.x);
        let w1 = support.support(&n);
        let w2 = support.support(&-n);
        let h1 = n.dot(&(w1.point - pts[0].point));
        let h2 = -n.dot(&(w2.point - pts[0].point));
        let len = e.norm();
        let w = if h1 >= h2 { w1 } else { w2 };
        if h1.max_of(h2) <= tol * len {
            // A straight difference: flat across it.
            return Err(Some(n));
        }
        pts[2] = w;
    }
    if cross2(&(pts[1].point - pts[0].point), &(pts[2].point - pts[0].point)) < N::zero() {
        pts.swap(1, 2);
    }
    Ok(pts)
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
