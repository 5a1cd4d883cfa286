//! The configuration-space obstacle (CSO): anything with a support function that returns witness
//! points. GJK, EPA and the casts only ever see this trait.
//!
//! The usual CSO is the [`MinkowskiDifference`] `A − B` of two shapes in A's frame. A single shape
//! is the CSO of itself minus a point ([`SingleShape`]), which is how ray casts reuse GJK.
//!
//! When B's core is the hull of at most eight points ([`SupportMap::small_hull`], a small
//! polygon), the pair queries use [`SmallHullDifference`] instead: B's points are rotated into
//! A's frame once per query, so a support query of `A − B` is A's support and a scan of those
//! points in the same direction, with no rotation of the direction into B's frame before the
//! scan and none of the support point back after it. Those two rotations sit on the path that
//! GJK and EPA wait on at every iteration (the next search direction needs the support point).
//! B's support point is the same point either way (the rotated point plus the translation is
//! what the pose's `transform_point` computes); only the dot products that pick it are rounded
//! differently (`(R p)·d` instead of `p·(Rᵀ d)`), which can matter only between two points
//! within rounding of each other along `d`, either of them a correct support point.

use core::cell::Cell;
use kollide_math::{Point, Pose, Scalar, Vector};
use kollide_shapes::{
    FlatNormal, Generator, MinkowskiDifference, SMALL_HULL, SupportMap, SupportPoint,
    small_hull_support,
};

/// A convex set given by its support function, with the points of A and B behind each support
/// point.
pub trait Cso<N: Scalar, const D: usize> {
    /// The support point in direction `dir` (need not be unit).
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D>;

    /// Calls `f` with the normals of the flat parts of the shapes behind the CSO
    /// ([`SupportMap::flat_normals`]) as directions of the CSO's support: A's as they are, B's
    /// turned into A's frame and negated (B is queried along `−dir`), each with whether it is
    /// B's. None by default.
    #[inline]
    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<N, D>, bool)) {
        let _ = f;
    }

    /// Calls `f` with the generators ([`Generator`]) of the cores' supporting sets along the
    /// unit `dir`, each with whether it is B's: A's along `dir`, B's along `−dir`, both in A's
    /// frame, each within `tol` of its support plane. `false` (the default) when a core has
    /// none to list (a flat cap faces the direction, or the CSO does not know its shapes).
    #[inline]
    fn generators(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(Generator<N, D>, bool),
    ) -> bool {
        let _ = (dir, tol, f);
        false
    }
}

/// A reference to a CSO is that CSO (so that any `&C` can become a trait object in debug builds,
/// see `debug_erased`).
impl<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized> Cso<N, D> for &C {
    #[inline(always)]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        (**self).support(dir)
    }

    #[inline(always)]
    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<N, D>, bool)) {
        (**self).flat_normals(f);
    }

    #[inline(always)]
    fn generators(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(Generator<N, D>, bool),
    ) -> bool {
        (**self).generators(dir, tol, f)
    }
}

/// The CSO that GJK, EPA, the polish, the refinement and the casts run on: `dyn Cso` in debug
/// builds, the concrete type in optimised ones.
///
/// Each of those algorithms is generic over its CSO, which is one type per shape pair, so a test
/// binary would hold a copy of each for every pair it queries (hundreds). Through a trait object
/// they are compiled once per scalar and dimension, which shortens the test build; the support
/// query behind the object is the same call, so the answers are too. Optimised builds keep the
/// concrete type, whose support function is then inlined into the algorithm's loop.
#[cfg(debug_assertions)]
#[inline(always)]
pub(crate) fn debug_erased<'c, N, const D: usize, C>(cso: &'c &'c C) -> &'c (dyn Cso<N, D> + 'c)
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    cso
}

/// See the debug version: optimised builds keep the concrete type.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub(crate) fn debug_erased<'c, N, const D: usize, C>(cso: &'c &'c C) -> &'c C
where
    N: Scalar,
    C: Cso<N, D> + ?Sized,
{
    cso
}

/// Calls `f` with the generators of `s`'s core within `tol` of its support plane along the
/// unit `dir` (its frame): the vertices of a polytope, a segment or a point, or a curved core's
/// own ([`SupportMap::curved_generators`]). `false` when a curved core has none to list.
fn core_generators<N, const D: usize, S>(
    s: &S,
    dir: &Vector<N, D>,
    tol: N,
    f: &mut dyn FnMut(Generator<N, D>),
) -> bool
where
    N: Scalar,
    S: SupportMap<N, D> + ?Sized,
{
    let top = s.local_core_support(dir).coords.dot(dir) - tol;
    let mut near = |p: Point<N, D>| {
        if p.coords.dot(dir) >= top {
            f(Generator::Point(p));
        }
    };
    if let Some(poly) = s.polytope() {
        (0..poly.vertex_count()).for_each(|i| near(poly.vertex(i)));
    } else if let Some(ends) = s.core_segment() {
        ends.into_iter().for_each(near);
    } else if s.core_is_point() {
        f(Generator::Point(Point::origin()));
    } else {
        return s.curved_generators(dir, tol, f);
    }
    true
}

impl<N, const D: usize, A, B, P> Cso<N, D> for MinkowskiDifference<'_, N, D, A, B, P>
where
    N: Scalar,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
    P: Pose<N, D>,
{
    #[inline(always)]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        MinkowskiDifference::support(self, dir)
    }

    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<N, D>, bool)) {
        self.a.flat_normals(&mut |m| f(m, false));
        let turn = |v: &Vector<N, D>| -self.pos_ab.transform_vector(v);
        self.b.flat_normals(&mut |m| {
            let m = match m {
                FlatNormal::Direction(d) => FlatNormal::Direction(turn(&d)),
                FlatNormal::Ring { axis, cos } => FlatNormal::Ring { axis: turn(&axis), cos },
            };
            f(m, true)
        });
    }

    fn generators(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(Generator<N, D>, bool),
    ) -> bool {
        let pos = &self.pos_ab;
        let dir_b = -pos.inverse_transform_vector(dir);
        core_generators(self.a, dir, tol, &mut |g| f(g, false))
            && core_generators(self.b, &dir_b, tol, &mut |g| {
                f(g.map(|p| pos.transform_point(p), |v| pos.transform_vector(v), |x| x), true)
            })
    }
}

/// One shape as a CSO: `S − {origin}`, whole (core plus radius) or core only.
#[derive(Clone, Copy, Debug)]
pub struct SingleShape<'s, S: ?Sized> {
    /// The shape, in its local frame.
    pub shape: &'s S,
    /// Include the rounding radius.
    pub with_radius: bool,
}

impl<N: Scalar, const D: usize, S: SupportMap<N, D> + ?Sized> Cso<N, D> for SingleShape<'_, S> {
    #[inline]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        let a = if self.with_radius {
            self.shape.local_support_point(dir)
        } else {
            self.shape.local_core_support(dir)
        };
        SupportPoint::new(a, Point::origin())
    }
}

/// `A − B` in A's frame for a B whose core is the hull of at most eight points
/// ([`SupportMap::small_hull`]), with those points rotated into A's frame once, at construction
/// (see the module docs). Support points carry both witnesses, as [`MinkowskiDifference`]'s do,
/// and B is taken without its radius (the difference of the cores).
#[derive(Clone, Debug)]
pub(crate) struct SmallHullDifference<'s, N: Scalar, const D: usize, A: ?Sized> {
    a: &'s A,
    /// B's points rotated by the pose's rotation (not translated), padded as B pads them.
    b: [Point<N, D>; SMALL_HULL],
    /// B's position in A's frame.
    t: Vector<N, D>,
    hint_a: Cell<u32>,
    hint_b: Cell<u32>,
}

impl<'s, N: Scalar, const D: usize, A: SupportMap<N, D> + ?Sized> SmallHullDifference<'s, N, D, A> {
    /// The difference of the cores of `a` and of the shape whose [`SupportMap::small_hull`] is
    /// `b_hull`, placed at `pos_ab` in A's frame. `hints` start A's hill climbing as in
    /// [`MinkowskiDifference::with_hints`] (B, a scan, needs none).
    #[inline]
    pub(crate) fn new<P: Pose<N, D>>(
        a: &'s A,
        b_hull: &[Point<N, D>; SMALL_HULL],
        pos_ab: &P,
        hints: (u32, u32),
    ) -> Self {
        Self {
            a,
            b: core::array::from_fn(|i| Point::from(pos_ab.transform_vector(&b_hull[i].coords))),
            t: pos_ab.translation(),
            hint_a: Cell::new(hints.0),
            hint_b: Cell::new(hints.1),
        }
    }

    /// The vertices the last support query ended at (A's hill-climbing vertex, B's point), to
    /// warm-start a later query, as [`MinkowskiDifference::hints`].
    pub(crate) fn hints(&self) -> (u32, u32) {
        (self.hint_a.get(), self.hint_b.get())
    }
}

impl<N: Scalar, const D: usize, A: SupportMap<N, D> + ?Sized> Cso<N, D>
    for SmallHullDifference<'_, N, D, A>
{
    #[inline(always)]
    fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        let mut ha = self.hint_a.get();
        let a = self.a.local_core_support_hinted(dir, &mut ha);
        self.hint_a.set(ha);
        let i = small_hull_support(&self.b, &-dir);
        self.hint_b.set(i as u32);
        // `R p + t`, as the pose's `transform_point` computes it.
        SupportPoint::new(a, Point::from(self.b[i].coords + self.t))
    }
}

/// An `N` CSO seen as an `f64` one: directions rounded to `N` for the support query, points
/// widened to `f64`. The support points are exactly the `N` shapes' (up to the direction's
/// rounding, which picks a support point of a direction a few `N` ulps away); GJK, EPA and the
/// polish then run in `f64`, where the simplex and polytope arithmetic (the part that stalls
/// on slivers and near touching contacts in `f32`) has room to spare.
pub(crate) struct Widened<'c, C: ?Sized, N> {
    cso: &'c C,
    scalar: core::marker::PhantomData<N>,
}

impl<'c, C: ?Sized, N> Widened<'c, C, N> {
    /// `cso` seen in `f64`.
    pub(crate) fn new(cso: &'c C) -> Self {
        Widened { cso, scalar: core::marker::PhantomData }
    }
}

impl<N: Scalar, const D: usize, C: Cso<N, D> + ?Sized> Cso<f64, D> for Widened<'_, C, N> {
    #[inline]
    fn support(&self, dir: &Vector<f64, D>) -> kollide_shapes::SupportPoint<f64, D> {
        let s = self.cso.support(&dir.map(N::lit));
        kollide_shapes::SupportPoint {
            point: s.point.map(|x| x.to_f64()),
            a: Point::from(s.a.coords.map(|x| x.to_f64())),
            b: Point::from(s.b.coords.map(|x| x.to_f64())),
        }
    }

    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<f64, D>, bool)) {
        let wide = |v: Vector<N, D>| v.map(|x| x.to_f64());
        self.cso.flat_normals(&mut |m, of_b| {
            let m = match m {
                FlatNormal::Direction(d) => FlatNormal::Direction(wide(d)),
                FlatNormal::Ring { axis, cos } => {
                    FlatNormal::Ring { axis: wide(axis), cos: cos.to_f64() }
                }
            };
            f(m, of_b)
        });
    }

    fn generators(
        &self,
        dir: &Vector<f64, D>,
        tol: f64,
        f: &mut dyn FnMut(Generator<f64, D>, bool),
    ) -> bool {
        let wide = |v: &Vector<N, D>| v.map(|x| x.to_f64());
        let g = |g: Generator<N, D>| g.map(|p| Point::from(wide(&p.coords)), wide, |x| x.to_f64());
        self.cso.generators(&dir.map(N::lit), N::lit(tol), &mut |x, of_b| f(g(x), of_b))
    }
}
