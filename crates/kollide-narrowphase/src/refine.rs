//! Newton's method on a curved contact's supporting generators: the normal to full precision
//! where GJK's and EPA's chords of support points only approach it.
//!
//! The separation of two convex cores along a unit normal `n` is set by their support
//! functions, and the contact's normal is the one where the difference of the supporting sets
//! `F_A(n) − F_B(−n)` reaches the support plane's point nearest the origin, `h(n)·n`. GJK and
//! EPA find it through chords between support points; on a curved surface the chord's sag
//! shrinks with the square of its length, so their normal stalls about `√ε` off, and the
//! witnesses on a rim (a cylinder's, a cone's) slide by the rim's radius times that.
//!
//! Every core in kollide spans its supporting set with a few [`Generator`]s: vertices, and rim
//! points that move smoothly with `n`. Given those active at a normal near the answer, `p` of
//! A's and `q` of B's, the contact is the solution of a square system in the normal (`D − 1`
//! unknowns on the sphere) and the convex weights `λ`, `μ` of the witnesses
//! `a = Σ λ_i g_i(n)` and `b = Σ μ_j k_j(−n)`:
//!
//! - ties: every active generator of a shape lies on that shape's support plane,
//!   `(g_i(n) − g_0(n))·n = 0` and `(k_j(−n) − k_0(−n))·n = 0` (`p − 1 + q − 1` equations);
//! - the witnesses' difference is along the normal: `(a − b)·t = 0` for the `D − 1` tangent
//!   directions `t`.
//!
//! The equations are first-order in the support points (a rim point moves by its radius times
//! the normal's turn), so Newton's method settles the normal to a few ulps, where the chords'
//! sag left it at `√ε`. The Jacobian's columns for the normal are central differences, those
//! for the weights exact (the system is linear in them).
//!
//! The active set comes from the generators within a spread of their support planes, the
//! likeliest first, reduced to affinely independent points and to at most `D + 1` in all (one
//! more would over-determine the normal). A guess at the active set can be wrong; the caller
//! keeps the answer only when it is better than what it had: both weights non-negative (the
//! witnesses on their cores) and the witnesses' difference on the support plane of a fresh
//! support query along the normal (the separation attained).
//!
//! This is the Newton step of the optimality conditions of the separation as a minimum of the
//! support function over directions, in the style of the active-set methods of nonlinear
//! programming (Nocedal and Wright, *Numerical Optimization*, 2006, ch. 18), applied to the
//! supporting features that GJK (Gilbert, Johnson and Keerthi 1988) identifies.

use kollide_math::{Point, Scalar, Vector};
use kollide_shapes::Generator;
use smallvec::SmallVec;

use crate::Cso;
use crate::witness::plane_basis;

/// Newton iterations at most; three or four settle a good start.
const MAX_STEPS: usize = 12;
/// Generators of one shape listed at most: more within the spread is a flat part, which the
/// caller settles otherwise.
const MAX_LISTED: usize = 16;
/// Unknowns at most: `D − 1` for the normal and `D − 1` weights in 3D.
const MAX_UNKNOWNS: usize = 4;

/// A contact on the CSO as the polish and the refinement find it: the normal, the depth it
/// attains (`h(n)`, negative for a separation), the witnesses on A and B (A's frame), and how
/// far their difference misses `depth · normal`.
pub(crate) struct Candidate<N: Scalar, const D: usize> {
    pub(crate) normal: Vector<N, D>,
    pub(crate) depth: N,
    pub(crate) a: Vector<N, D>,
    pub(crate) b: Vector<N, D>,
    pub(crate) residual: N,
}

/// The active generators of one shape, each with how far below its support plane it lay.
type Active<N, const D: usize> = SmallVec<[(Generator<N, D>, N); 4]>;

/// The contact on `cso` near the unit normal `n`, solved on the generators within `spread` of
/// their support planes along it (see the module docs); `None` when the CSO lists none, the
/// system is singular, or a weight comes out negative.
pub(crate) fn refine<N, const D: usize, C>(
    cso: &C,
    n: &Vector<N, D>,
    spread: N,
    scale: N,
) -> Option<Candidate<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    refine_on(crate::cso::debug_erased(&cso), n, spread, scale)
}

/// [`refine`] on the CSO that `debug_erased` gives.
fn refine_on<N, const D: usize, C>(
    cso: &C,
    n: &Vector<N, D>,
    spread: N,
    scale: N,
) -> Option<Candidate<N, D>>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let (mut ga, mut gb) = active_sets(cso, n, spread, scale)?;
    // An active-set method: a generator whose weight comes out negative is not part of the
    // contact (a box's vertex listed with its edge's other end, 2.6e-6 below the plane, where
    // only the vertex touches a cone's side), and the system is solved again without it.
    for _ in 0..=MAX_DROPS {
        let mut sys = System { ga, gb, n: *n, lambda: SmallVec::new(), mu: SmallVec::new() };
        sys.lambda.resize(sys.ga.len(), N::one() / N::lit(sys.ga.len() as f64));
        sys.mu.resize(sys.gb.len(), N::one() / N::lit(sys.gb.len() as f64));
        for _ in 0..MAX_STEPS {
            let turn = sys.newton_step()?;
            if turn <= N::EPSILON * N::lit(4.0) {
                break;
            }
        }
        match sys.answer(cso) {
            Ok(c) => return Some(c),
            Err(Inactive::A(i)) => {
                ga = sys.ga;
                ga.remove(i);
                gb = sys.gb;
            }
            Err(Inactive::B(i)) => {
                gb = sys.gb;
                gb.remove(i);
                ga = sys.ga;
            }
            Err(Inactive::None) => return None,
        }
    }
    None
}

/// Generators dropped from an active set at most before [`refine`] gives up.
const MAX_DROPS: usize = 2;

/// Which generator a failed solve found inactive and should drop: the one with the most negative
/// weight, when its shape lists another; `None` when nothing can be dropped.
enum Inactive {
    A(usize),
    B(usize),
    None,
}

/// The generators of A and of B within `spread` of their support planes along `n`, the nearest
/// first, reduced to affinely independent ones and to at most `D + 1` in all.
fn active_sets<N, const D: usize, C>(
    cso: &C,
    n: &Vector<N, D>,
    spread: N,
    scale: N,
) -> Option<(Active<N, D>, Active<N, D>)>
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    let (mut ga, mut gb) = (Active::<N, D>::new(), Active::<N, D>::new());
    let mut overflow = false;
    let listed = cso.generators(n, spread, &mut |g, of_b| {
        // The point's height along the shape's own direction (B's is `−n`), stored negated and
        // made relative to the highest below.
        let (list, height) = if of_b {
            (&mut gb, -g.at(&-*n).coords.dot(n))
        } else {
            (&mut ga, g.at(n).coords.dot(n))
        };
        if list.len() == MAX_LISTED {
            overflow = true;
        } else {
            list.push((g, -height));
        }
    });
    if !listed || overflow || ga.is_empty() || gb.is_empty() {
        return None;
    }
    for list in [&mut ga, &mut gb] {
        let top = list.iter().fold(N::MAX, |m, g| m.min_of(g.1));
        list.iter_mut().for_each(|g| g.1 -= top);
    }
    let independent = scale * N::lit(1e-7);
    let ga = independent_points(ga, n, independent);
    let gb = independent_points(gb, &-*n, independent);
    let (mut ga, mut gb) = (ga, gb);
    // One generator more than `D + 1` ties the normal more times than it has freedoms.
    while ga.len() + gb.len() > D + 1 {
        let worst_a = ga.last().map(|g| g.1);
        let worst_b = gb.last().map(|g| g.1);
        if ga.len() > 1 && (gb.len() == 1 || worst_a >= worst_b) {
            ga.pop();
        } else {
            gb.pop();
        }
    }
    Some((ga, gb))
}

/// `list` sorted by how far below the support plane along `dir` each generator lay, keeping
/// those whose points along `dir` are affinely independent of the ones kept before them (by
/// more than `tol`), at most `D`.
#[cfg_attr(debug_assertions, inline(never))]
fn independent_points<N: Scalar, const D: usize>(
    mut list: Active<N, D>,
    dir: &Vector<N, D>,
    tol: N,
) -> Active<N, D> {
    list.sort_by(|x, y| x.1.partial_cmp(&y.1).unwrap_or(core::cmp::Ordering::Equal));
    let mut kept = Active::<N, D>::new();
    let mut basis: SmallVec<[Vector<N, D>; 3]> = SmallVec::new();
    let mut origin = None;
    for (g, below) in list {
        let p = g.at(dir);
        let Some(o) = origin else {
            origin = Some(p);
            kept.push((g, below));
            continue;
        };
        let mut off: Vector<N, D> = p - o;
        for e in &basis {
            off -= *e * e.dot(&off);
        }
        let len = off.norm();
        if len > tol && kept.len() < D {
            basis.push(off / len);
            kept.push((g, below));
        }
    }
    kept
}

/// The points of one shape's active generators at one normal.
type Points<N, const D: usize> = SmallVec<[Point<N, D>; 4]>;

/// The Newton iterate: the normal and the weights of the active generators.
struct System<N: Scalar, const D: usize> {
    ga: Active<N, D>,
    gb: Active<N, D>,
    n: Vector<N, D>,
    lambda: SmallVec<[N; 4]>,
    mu: SmallVec<[N; 4]>,
}

impl<N: Scalar, const D: usize> System<N, D> {
    /// Unknowns: the normal's `D − 1` tangent turns, then A's weights after the first, then
    /// B's (each shape's first weight is one less the others).
    fn unknowns(&self) -> usize {
        (D - 1) + (self.ga.len() - 1) + (self.gb.len() - 1)
    }

    /// The points of A's active generators at the normal `n`, and of B's at `−n`.
    fn points(&self, n: &Vector<N, D>) -> (Points<N, D>, Points<N, D>) {
        (
            self.ga.iter().map(|g| g.0.at(n)).collect(),
            self.gb.iter().map(|g| g.0.at(&-*n)).collect(),
        )
    }

    /// The equations at normal `n` with the current weights, in the tangent basis `(u, v)` of
    /// the current normal: ties of A, ties of B, then the witnesses' difference along the
    /// tangent directions.
    fn residual(&self, n: &Vector<N, D>, basis: &[Vector<N, D>; 2]) -> [N; MAX_UNKNOWNS] {
        let mut r = [N::zero(); MAX_UNKNOWNS];
        let (pa, pb) = self.points(n);
        let mut k = 0;
        for p in pa.iter().skip(1) {
            r[k] = (p - pa[0]).dot(n);
            k += 1;
        }
        for p in pb.iter().skip(1) {
            r[k] = (p - pb[0]).dot(n);
            k += 1;
        }
        let a = weighted(&pa, &self.lambda);
        let b = weighted(&pb, &self.mu);
        for t in basis.iter().take(D - 1) {
            let t = *t - *n * t.dot(n);
            r[k] = t.dot(&(a - b));
            k += 1;
        }
        r
    }

    /// One Newton step on [`Self::residual`]; returns the angle the normal turned, or `None`
    /// for a singular system.
    #[cfg_attr(debug_assertions, inline(never))]
    fn newton_step(&mut self) -> Option<N> {
        let m = self.unknowns();
        let (u, v) = plane_basis(&self.n);
        let basis = [u, v];
        let r0 = self.residual(&self.n, &basis);
        let mut jac = [[N::zero(); MAX_UNKNOWNS]; MAX_UNKNOWNS];
        // Central differences for the normal's turns, at the step that balances truncation
        // (`h²`) against rounding (`ε/h`).
        let h = N::lit(N::EPSILON.to_f64().cbrt());
        for (c, t) in basis.iter().take(D - 1).enumerate() {
            let plus = self.residual(&(self.n + *t * h).normalize(), &basis);
            let minus = self.residual(&(self.n - *t * h).normalize(), &basis);
            for row in 0..m {
                jac[row][c] = (plus[row] - minus[row]) / (h + h);
            }
        }
        // The weights enter the tangent equations (the last `D − 1` rows) linearly.
        let (pa, pb) = self.points(&self.n);
        let first = m - (D - 1);
        let columns =
            pa.iter().skip(1).map(|p| p - pa[0]).chain(pb.iter().skip(1).map(|p| pb[0] - p));
        for (c, col) in (D - 1..).zip(columns) {
            for (i, t) in basis.iter().take(D - 1).enumerate() {
                let t = *t - self.n * t.dot(&self.n);
                jac[first + i][c] = t.dot(&col);
            }
        }
        let mut rhs = [N::zero(); MAX_UNKNOWNS];
        for i in 0..m {
            rhs[i] = -r0[i];
        }
        let x = solve(&mut jac, &mut rhs, m)?;
        let mut turn = Vector::<N, D>::zeros();
        for (i, t) in basis.iter().take(D - 1).enumerate() {
            turn += *t * x[i];
        }
        self.n = (self.n + turn).try_normalize(N::zero())?;
        let mut k = D - 1;
        for w in [&mut self.lambda, &mut self.mu] {
            for i in 1..w.len() {
                w[i] += x[k];
                k += 1;
            }
            let rest: N = w.iter().skip(1).copied().fold(N::zero(), |s, x| s + x);
            w[0] = N::one() - rest;
        }
        Some(turn.norm())
    }

    /// The refined contact, checked against a fresh support query along its normal; when a
    /// weight is negative (a witness off its core: the active set was wrong), the generator
    /// to drop.
    fn answer<C: Cso<N, D> + ?Sized>(&self, cso: &C) -> Result<Candidate<N, D>, Inactive> {
        if self.lambda.iter().chain(&self.mu).any(|w| !w.is_finite_value()) {
            return Err(Inactive::None);
        }
        let slack = N::lit(-1e-9);
        let least = |w: &SmallVec<[N; 4]>| {
            let i = (0..w.len())
                .min_by(|&i, &j| w[i].partial_cmp(&w[j]).unwrap_or(core::cmp::Ordering::Equal))?;
            (w[i] < slack).then_some((i, w[i]))
        };
        let worst = match (least(&self.lambda), least(&self.mu)) {
            (None, None) => None,
            (Some((i, x)), Some((_, y))) if x <= y => Some(Inactive::A(i)),
            (Some((i, _)), None) => Some(Inactive::A(i)),
            (_, Some((j, _))) => Some(Inactive::B(j)),
        };
        if let Some(w) = worst {
            let listed = if matches!(w, Inactive::A(_)) { self.ga.len() } else { self.gb.len() };
            return Err(if listed > 1 { w } else { Inactive::None });
        }
        let n = self.n;
        let (pa, pb) = self.points(&n);
        let clamp = |w: &SmallVec<[N; 4]>| -> SmallVec<[N; 4]> {
            let w: SmallVec<[N; 4]> = w.iter().map(|x| x.max_of(N::zero())).collect();
            let sum = w.iter().copied().fold(N::zero(), |s, x| s + x);
            w.iter().map(|x| *x / sum).collect()
        };
        let a = weighted(&pa, &clamp(&self.lambda)).coords;
        let b = weighted(&pb, &clamp(&self.mu)).coords;
        let depth = n.dot(&cso.support(&n).point);
        let residual = ((a - b) - n * depth).norm();
        Ok(Candidate { normal: n, depth, a, b, residual })
    }
}

/// `Σ w_i p_i`.
fn weighted<N: Scalar, const D: usize>(p: &[Point<N, D>], w: &[N]) -> Point<N, D> {
    let mut s = Vector::<N, D>::zeros();
    for (p, w) in p.iter().zip(w) {
        s += p.coords * *w;
    }
    Point::from(s)
}

/// The solution of the `m × m` system `a x = b` by Gaussian elimination with partial
/// pivoting; `None` when a pivot vanishes against the matrix's largest entry.
#[cfg_attr(debug_assertions, inline(never))]
fn solve<N: Scalar>(
    a: &mut [[N; MAX_UNKNOWNS]; MAX_UNKNOWNS],
    b: &mut [N; MAX_UNKNOWNS],
    m: usize,
) -> Option<[N; MAX_UNKNOWNS]> {
    let big =
        a.iter().take(m).flat_map(|r| r.iter().take(m)).fold(N::zero(), |s, x| s.max_of(x.abs()));
    let tiny = big * N::EPSILON * N::lit(16.0);
    for col in 0..m {
        let piv = (col..m).max_by(|&i, &j| {
            a[i][col].abs().partial_cmp(&a[j][col].abs()).unwrap_or(core::cmp::Ordering::Equal)
        })?;
        if a[piv][col].abs() <= tiny {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        let pivot = a[col];
        for row in col + 1..m {
            let f = a[row][col] / pivot[col];
            for (x, p) in a[row].iter_mut().zip(pivot).take(m).skip(col) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [N::zero(); MAX_UNKNOWNS];
    for row in (0..m).rev() {
        let s = (row + 1..m).fold(b[row], |s, k| s - a[row][k] * x[k]);
        x[row] = s / a[row][row];
    }
    Some(x)
}
