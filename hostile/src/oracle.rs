//! The oracles: signed distance, time of impact and directional depth, computed in `f64` from the
//! support functions of [`crate::geom`], never through kollide.
//!
//! ## The support gap
//! For two convex shapes `A`, `B` and a unit direction `n`, the *support gap*
//! `g(n) = −h_B(−n) − h_A(n)` is the width of the slab between A's supporting plane and B's
//! along `n`. For every `n`, `g(n) ≤ sd(A, B)`, the true signed distance (positive apart,
//! negative penetrating), and `sd = max_n g(n)`: when the shapes are apart the maximiser is the
//! direction of the closest points; when they overlap it is the normal of the Minkowski
//! difference's facet nearest to the origin (the minimum-depth normal). So
//!
//! * any set of directions gives a **lower bound** `lo = max g` on `sd`;
//! * for two point sets (polytopes) the set of **candidate directions** — facet normals of both,
//!   cross products of their edges (3D), vertex–vertex and vertex–edge directions — contains
//!   the maximiser, and `lo` is **exact** (SAT over all axes, extended to separated pairs);
//! * for curved shapes, a dense sample refined by a pattern search on the sphere gives a lower
//!   bound that is tight in practice, and an **upper bound** comes from any point `c`:
//!   `sd ≤ sdf_A(c) + sdf_B(c)` (the CSO contains a ball of radius `−sdf_A(c) − sdf_B(c)` around
//!   the origin when `c` is inside both; the triangle inequality otherwise), minimised over `c`.
//!
//! A reported normal `n` with separation `s` must *attain* it: `g(n) = s`. Together with
//! `g(n) ≤ sd` that bounds `s` from above exactly, whatever the shapes.
//!
//! ## Casts
//! B moving by `t·v` changes the gap to `g(n) + t·(n·v)`. The time of impact is
//! `max { g(n) / (−n·v) : n·v < 0 }` when the shapes meet at all (each direction gives a lower
//! bound, exact over the candidates for polytopes); a direction with `n·v ≥ 0` and `g(n) > 0`
//! proves they never meet. The smallest push of an overlapping B along a unit `d` that separates
//! the shapes is `min { −g(n) / (n·d) : n·d > 0 }` (each direction an upper bound). A ray is
//! the cast of a point.

use crate::geom::{Body, Core, V, cross, perp2};

/// Unit directions spread over the circle (2D, `count` angles) or the sphere (3D, a Fibonacci
/// lattice of `count` points).
pub fn sample_dirs<const D: usize>(count: usize) -> Vec<V<D>> {
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let mut v = V::<D>::zeros();
        if D == 2 {
            let a = std::f64::consts::TAU * (i as f64 + 0.5) / count as f64;
            v[0] = a.cos();
            v[1] = a.sin();
        } else {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / count as f64;
            let r = (1.0 - y * y).max(0.0).sqrt();
            let phi = i as f64 * 2.399_963_229_728_653;
            v[0] = r * phi.cos();
            v[1] = y;
            v[2] = r * phi.sin();
        }
        out.push(v);
    }
    out
}

/// The support gap `g(n) = −h_B(−n) − h_A(n)` for a unit `n` pointing from A to B.
#[inline]
pub fn gap<const D: usize>(a: &Body<D>, b: &Body<D>, n: &V<D>) -> f64 {
    -b.h(&-n) - a.h(n)
}

fn push_unit<const D: usize>(out: &mut Vec<V<D>>, v: V<D>) {
    let l = v.norm();
    if l > 1e-300 && l.is_finite() {
        let u = v / l;
        out.push(u);
        out.push(-u);
    }
}

/// The exact candidate directions of two point cores (see the module docs); empty unless both
/// are small point sets.
pub fn candidates<const D: usize>(a: &Body<D>, b: &Body<D>) -> Vec<V<D>> {
    let mut out = Vec::new();
    if !(a.is_exact() && b.is_exact()) {
        return out;
    }
    let (pa, pb) = (a.points(), b.points());
    for f in a.facets.iter().chain(&b.facets) {
        out.push(f.n);
        out.push(-f.n);
    }
    for p in pa {
        for q in pb {
            push_unit(&mut out, q - p);
        }
    }
    if D == 3 {
        for &(i, j) in &a.edges {
            for &(k, l) in &b.edges {
                let (e, f) = (pa[j] - pa[i], pb[l] - pb[k]);
                let c = cross(&e, &f);
                if c.norm() > 1e-8 * e.norm() * f.norm() {
                    push_unit(&mut out, c);
                } else {
                    // (Nearly) parallel edges: the rounded cross product points anywhere. Every
                    // direction across them is a candidate; when the edges are also collinear
                    // (no vertex–edge perpendicular below) all of those give the same gap.
                    push_unit(&mut out, across(&e));
                }
            }
        }
        // Vertex–edge: the perpendicular from the edge's line to the vertex (any direction
        // across the edge when the vertex is on that line), taken from the edge's nearer end
        // and made square to the edge once more, so that cancellation does not tilt it along
        // the edge (as kollide's `sat.rs` does for the same axes).
        let ve = |out: &mut Vec<V<D>>, pts: &[V<D>], edges: &[(usize, usize)], others: &[V<D>]| {
            for &(i, j) in edges {
                let e = pts[j] - pts[i];
                let l2 = e.norm_squared();
                if l2 == 0.0 {
                    continue;
                }
                for v in others {
                    let w = if (v - pts[i]).dot(&e) > 0.5 * l2 { v - pts[j] } else { v - pts[i] };
                    let p = w - e * (w.dot(&e) / l2);
                    let p = p - e * (p.dot(&e) / l2);
                    if p.norm() > 1e-8 * w.norm().max(l2.sqrt()) {
                        push_unit(out, p);
                    } else {
                        push_unit(out, across(&e));
                    }
                }
            }
        };
        ve(&mut out, pa, &a.edges, pb);
        ve(&mut out, pb, &b.edges, pa);
        // Two segments on one line: their Minkowski difference is a segment on a line through
        // the origin, and every direction perpendicular to it attains the separation (zero
        // where they overlap), where every direction above is zero or along the line.
        for (pts, edges) in [(pa, &a.edges), (pb, &b.edges)] {
            for &(i, j) in edges.iter() {
                let e = pts[j] - pts[i];
                let k = if e[0].abs() <= e[1].abs() && e[0].abs() <= e[2].abs() {
                    0
                } else if e[1].abs() <= e[2].abs() {
                    1
                } else {
                    2
                };
                let mut x = V::<D>::zeros();
                x[k] = 1.0;
                push_unit(&mut out, cross(&e, &x));
            }
        }
    } else {
        // 2D edges of a collinear set (segments) have no facets: their normals.
        for (pts, edges) in [(pa, &a.edges), (pb, &b.edges)] {
            for &(i, j) in edges.iter() {
                push_unit(&mut out, perp2(&(pts[j] - pts[i])));
            }
        }
    }
    // Coincident point cores: any direction is optimal; make sure there is one.
    let mut x = V::<D>::zeros();
    x[0] = 1.0;
    push_unit(&mut out, x);
    out
}

/// A direction perpendicular to the 3D vector `e` (crossed with the coordinate axis it is least
/// aligned with).
fn across<const D: usize>(e: &V<D>) -> V<D> {
    let mut k = 0;
    for i in 1..D {
        if e[i].abs() < e[k].abs() {
            k = i;
        }
    }
    let mut axis = V::<D>::zeros();
    axis[k] = 1.0;
    cross(e, &axis)
}

/// Maximises `f` over unit directions by a pattern search from the best few `starts`.
/// Returns the best value and direction (never worse than the best start).
pub fn maximize_on_sphere<const D: usize>(
    starts: &[V<D>],
    f: &dyn Fn(&V<D>) -> f64,
    budget: usize,
) -> (f64, V<D>) {
    let mut scored: Vec<(f64, V<D>)> = starts.iter().map(|n| (f(n), *n)).collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut best = scored.first().copied().unwrap_or((f64::MIN, V::zeros()));
    for &(v0, n0) in scored.iter().take(6) {
        let (mut v, mut n) = (v0, n0);
        let mut step = 0.05;
        let mut evals = 0;
        let mut turn = 0usize;
        while step > 1e-13 && evals < budget {
            // The tangent directions turn a little every round, so that ridges of a
            // non-smooth gap (a rim against an edge) are followed rather than stalled on.
            turn += 1;
            let tangents = tangents(&n, turn);
            let mut moved = false;
            for t in &tangents {
                for s in [step, -step] {
                    let m = (n + t * s).normalize();
                    let fm = f(&m);
                    evals += 1;
                    if fm > v {
                        v = fm;
                        n = m;
                        moved = true;
                    }
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        if v > best.0 {
            best = (v, n);
        }
    }
    best
}

/// Tangent directions at a unit `n`: one in 2D, four (two axes and two diagonals) in 3D.
fn tangents<const D: usize>(n: &V<D>, turn: usize) -> Vec<V<D>> {
    if D == 2 {
        return vec![perp2(n)];
    }
    let mut e = V::<D>::zeros();
    let k = if n[0].abs() < 0.6 { 0 } else { 1 };
    e[k] = 1.0;
    let t1 = cross(n, &e).normalize();
    let t2 = cross(n, &t1);
    let offset = 0.37 * turn as f64;
    (0..6)
        .map(|i| {
            let a = offset + i as f64 * std::f64::consts::PI / 6.0;
            t1 * a.cos() + t2 * a.sin()
        })
        .collect()
}

/// Minimises `f` over points by a pattern search from `starts`, with initial step `step`.
fn minimize_in_space<const D: usize>(
    starts: &[V<D>],
    f: &dyn Fn(&V<D>) -> f64,
    step0: f64,
    budget: usize,
) -> f64 {
    let mut dirs: Vec<V<D>> = Vec::new();
    for k in 0..D {
        let mut e = V::<D>::zeros();
        e[k] = 1.0;
        dirs.push(e);
    }
    if D == 3 {
        for s in [[1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [-1.0, 1.0, 1.0]] {
            let mut e = V::<D>::zeros();
            for k in 0..3 {
                e[k] = s[k] / 3f64.sqrt();
            }
            dirs.push(e);
        }
    } else {
        for s in [[1.0, 1.0], [1.0, -1.0]] {
            let mut e = V::<D>::zeros();
            e[0] = s[0] * std::f64::consts::FRAC_1_SQRT_2;
            e[1] = s[1] * std::f64::consts::FRAC_1_SQRT_2;
            dirs.push(e);
        }
    }
    let mut best = f64::MAX;
    for c0 in starts {
        let (mut c, mut v) = (*c0, f(c0));
        let mut step = step0;
        let mut evals = 0;
        while step > step0 * 1e-10 && evals < budget {
            let mut moved = false;
            for d in &dirs {
                for s in [step, -step] {
                    let m = c + d * s;
                    let fm = f(&m);
                    evals += 1;
                    if fm < v {
                        v = fm;
                        c = m;
                        moved = true;
                    }
                }
            }
            if !moved {
                step *= 0.5;
            }
        }
        best = best.min(v);
    }
    best
}

/// What the oracle knows about the signed distance of a pair.
#[derive(Clone, Copy, Debug)]
pub struct Truth<const D: usize> {
    /// A lower bound on the signed distance (exact when `exact`).
    pub lo: f64,
    /// An upper bound on the signed distance (equal to `lo` when `exact`).
    pub hi: f64,
    /// The direction attaining `lo`.
    pub n: V<D>,
    /// `true` when `lo` is the exact signed distance (two small point sets).
    pub exact: bool,
}

impl<const D: usize> Truth<D> {
    /// The best estimate of the signed distance.
    pub fn value(&self) -> f64 {
        self.lo
    }
}

/// The signed distance of A and B (see the module docs), bracketed or exact.
pub fn signed_distance<const D: usize>(a: &Body<D>, b: &Body<D>, dirs: &[V<D>]) -> Truth<D> {
    let cands = candidates(a, b);
    let exact = !cands.is_empty();
    let f = |n: &V<D>| gap(a, b, n);
    let mut starts: Vec<V<D>> = cands;
    if !exact {
        starts.extend_from_slice(dirs);
        let d = b.center() - a.center();
        if d.norm() > 0.0 {
            starts.push(d.normalize());
        }
    }
    let (lo, n) = if exact {
        let best = starts
            .iter()
            .map(|n| (f(n), *n))
            .fold((f64::MIN, starts[0]), |x, y| if y.0 > x.0 { y } else { x });
        // A candidate is computed with rounding: a vertex–edge perpendicular whose vertex lies
        // 1e-8 from an edge 1e3 times longer loses the cancelled digits, and its direction is
        // off by `ε·|edge| / gap`, which costs the gap a multiple of that times the edge. A
        // local search from it takes back what was lost (every direction is a lower bound).
        let refined = maximize_on_sphere(&[best.1], &f, 600);
        if refined.0 > best.0 { refined } else { best }
    } else {
        maximize_on_sphere(&starts, &f, 1500)
    };
    let hi = if exact { lo } else { upper_bound(a, b, &n).max(lo) };
    Truth { lo, hi, n, exact }
}

/// An upper bound on the signed distance: `min_c sdf_A(c) + sdf_B(c)`.
pub fn upper_bound<const D: usize>(a: &Body<D>, b: &Body<D>, n: &V<D>) -> f64 {
    let (ca, cb) = (a.center(), b.center());
    // Points near the contact: A's and B's supporting planes along n.
    let on_a = ca + n * (a.h(n) - ca.dot(n));
    let on_b = cb - n * (b.h(&-n) + cb.dot(&-n));
    let starts = [ca, cb, (ca + cb) * 0.5, (on_a + on_b) * 0.5, on_a, on_b];
    let f = |c: &V<D>| a.sdf_upper(c) + b.sdf_upper(c);
    let step = 0.25 * (a.size + b.size).max(1e-300);
    minimize_in_space(&starts, &f, step, 400)
}

/// What the oracle knows about a cast of B with velocity `v` (relative to A) up to `max_t`.
#[derive(Clone, Copy, Debug)]
pub struct TimeOfImpact {
    /// A lower bound on the time of impact (exact for polytopes when `hit == Some(true)`).
    pub lo: f64,
    /// `Some(true)`: they certainly meet by `max_t`; `Some(false)`: they certainly do not;
    /// `None`: too close to call.
    pub hit: Option<bool>,
    /// `true` when `lo` is exact.
    pub exact: bool,
    /// Whether they overlap (beyond the band) at the start.
    pub start_overlap: bool,
}

/// The time of impact of B moving by `t·v` against A, for `t ∈ [0, max_t]`; `band` is the
/// distance within which contact is too close to call.
pub fn time_of_impact<const D: usize>(
    a: &Body<D>,
    b: &Body<D>,
    v: &V<D>,
    max_t: f64,
    band: f64,
    dirs: &[V<D>],
) -> TimeOfImpact {
    // About A's centre: a support value far from the origin is rounded at the coordinates'
    // size, and a gap is a difference of two of them. A ray 7e4 m out crossing a 1.6 cm ball got
    // a lower bound 8e-9 of its time above the true one.
    let o = a.center();
    let (a, b) = (&a.translated(&-o), &b.translated(&-o));
    let sd0 = signed_distance(a, b, dirs);
    let speed = v.norm();
    if sd0.hi < -band {
        return TimeOfImpact { lo: 0.0, hit: Some(true), exact: sd0.exact, start_overlap: true };
    }
    if speed == 0.0 {
        let hit = if sd0.lo > band { Some(false) } else { None };
        return TimeOfImpact { lo: 0.0, hit, exact: sd0.exact, start_overlap: false };
    }
    // Exact only for sharp polytopes: a radius rounds the Minkowski difference's facets.
    let cands = candidates(a, b);
    let exact = !cands.is_empty() && a.radius == 0.0 && b.radius == 0.0;
    let mut starts = cands;
    if !exact {
        starts.extend_from_slice(dirs);
        starts.push(-v / speed);
        starts.push(sd0.n);
    }
    let tiny = 1e-12 * speed;
    let f = |n: &V<D>| {
        let nv = n.dot(v);
        if nv < -tiny { gap(a, b, n) / -nv } else { f64::MIN }
    };
    let (t, _) = if exact {
        starts
            .iter()
            .map(|n| (f(n), *n))
            .fold((f64::MIN, starts[0]), |x, y| if y.0 > x.0 { y } else { x })
    } else {
        maximize_on_sphere(&starts, &f, 1500)
    };
    let lo = t.max(0.0);
    let never = starts.iter().any(|n| n.dot(v) >= 0.0 && gap(a, b, n) > band);
    let tol_t = band / speed;
    if sd0.lo <= band {
        // Touching at the start: a hit at t ≈ 0 and a miss are both defensible.
        return TimeOfImpact { lo: 0.0, hit: None, exact, start_overlap: false };
    }
    if never || lo > max_t + tol_t {
        return TimeOfImpact { lo, hit: Some(false), exact, start_overlap: false };
    }
    let at = |t: f64| b.translated(&(v * t));
    let hit = if exact {
        let sd = signed_distance(a, &at(lo), dirs).lo;
        if lo > max_t - tol_t {
            None
        } else if sd <= band * 1e-3 {
            // They touch at `lo` (up to the oracle's own rounding): a hit. A pass that comes
            // within the band without touching is a graze, too close to call either way: a
            // segment flying 8e-5 m past another's end, in `f32` at 30 m from the origin.
            Some(true)
        } else if sd > band * 2.0 {
            Some(false)
        } else {
            None
        }
    } else {
        let mut certain = None;
        for frac in [0.001, 0.01, 0.1, 0.3, 0.6, 1.0] {
            let t = lo + frac * (max_t - lo);
            let bt = at(t);
            if upper_bound(a, &bt, &(-v / speed)) < -band {
                certain = Some(true);
                break;
            }
        }
        certain
    };
    TimeOfImpact { lo, hit, exact, start_overlap: false }
}

/// An upper bound on the push of B along the unit `d` that separates an overlapping pair
/// (exact for polytopes).
pub fn directional_depth<const D: usize>(
    a: &Body<D>,
    b: &Body<D>,
    d: &V<D>,
    dirs: &[V<D>],
) -> (f64, bool) {
    let cands = candidates(a, b);
    let exact = !cands.is_empty() && a.radius == 0.0 && b.radius == 0.0;
    let mut starts = cands;
    if !exact {
        starts.extend_from_slice(dirs);
        starts.push(*d);
    }
    let f = |n: &V<D>| {
        let nd = n.dot(d);
        if nd > 1e-12 { gap(a, b, n) / nd } else { f64::MIN }
    };
    let (best, _) = if exact {
        starts
            .iter()
            .map(|n| (f(n), *n))
            .fold((f64::MIN, starts[0]), |x, y| if y.0 > x.0 { y } else { x })
    } else {
        maximize_on_sphere(&starts, &f, 1500)
    };
    (-best, exact)
}

/// How far `p` lies outside the body, as far as the oracle can tell (a lower bound on the true
/// distance; exact where the body's distance function is).
pub fn outside_by<const D: usize>(body: &Body<D>, p: &V<D>, dirs: &[V<D>]) -> f64 {
    if body.has_exact_sdf() && !matches!(body.core, Core::Points(_)) || body.is_exact() {
        return body.sdf_upper(p);
    }
    dirs.iter().map(|m| p.dot(m) - body.h(m)).fold(f64::MIN, f64::max)
}
