//! Support mapping: the one question every convex-shape algorithm asks.
//!
//! The *support point* of a convex shape `S` in a direction `d` is the point of `S` farthest along
//! `d`: `s(d) = argmax { p · d : p ∈ S }`. GJK, EPA, ray and shape casts and the directional
//! penetration query work on any shape that answers it, which is why they are written once for
//! every shape and for 2D and 3D.
//!
//! ## Core and radius
//! Many shapes are a simpler *core* shape grown by a radius: a ball is a point plus a radius, a
//! capsule a segment plus a radius, a rounded box a box plus a radius. [`SupportMap`] exposes the
//! core's support ([`SupportMap::local_core_support`]) and the radius ([`SupportMap::radius`])
//! separately. The narrowphase runs GJK on the cores and subtracts the radii, so shallow contacts
//! between round shapes never need EPA, and results are exact for balls and capsules.
//!
//! ## The Minkowski difference
//! `A − B = { a − b : a ∈ A, b ∈ B }` contains the origin exactly when `A` and `B` overlap, and the
//! distance from the origin to it is the distance between the shapes. Its support point is
//! `s_A(d) − s_B(−d)`; [`MinkowskiDifference::support`] returns it with both witness points, so
//! that closest points and contact points can be recovered from a GJK or EPA simplex. It works in
//! A's local frame, with B placed by `pos_ab` (B's pose in A's frame): one transform per call.
//!
//! ## Hill climbing
//! A polygon or polyhedron with many vertices answers through
//! [`SupportMap::local_core_support_hinted`], which starts at a hinted vertex and walks to a
//! neighbour while that improves the dot product (the distance seed's "hill climbing"). The
//! Minkowski difference keeps one hint per shape, so successive GJK directions, which are close,
//! cost a few dot products each instead of one per vertex.

use crate::Generator;
use core::cell::Cell;
use core::marker::PhantomData;
use kollide_math::{Point, Pose, Scalar, Vector};

/// The closed-form answer of [`SupportMap::local_core_ray`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CoreRay<N: Scalar, const D: usize> {
    /// The ray does not meet the core within its length.
    Miss,
    /// The ray meets the core first at `t`, where the core's outward normal is `normal` (zero
    /// for a start inside).
    Hit {
        /// The time of the hit, in units of the ray's direction.
        t: N,
        /// The outward unit normal at the hit (zero at `t = 0` from inside).
        normal: Vector<N, D>,
    },
}

/// Unit directions along which a core's support point jumps across a flat part of it (a cap,
/// a base, a straight side): [`SupportMap::flat_normals`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FlatNormal<N: Scalar, const D: usize> {
    /// One direction: the normal of a flat face.
    Direction(Vector<N, D>),
    /// Every unit direction at cosine `cos` from the unit `axis` (the normals of a cylinder's
    /// side, `cos = 0`, or of a cone's).
    Ring {
        /// The ring's axis.
        axis: Vector<N, D>,
        /// The cosine of the angle between the axis and each direction of the ring.
        cos: N,
    },
}

/// A convex shape described by its support function, in its local frame.
///
/// Implementors provide the support of the core and, for rounded shapes, a radius. Directions
/// need not be normalised; a zero direction returns some point of the shape (never NaN).
pub trait SupportMap<N: Scalar, const D: usize> {
    /// The support point of the core shape (without the radius) in the local direction `dir`.
    ///
    /// Ties (a face or an edge exactly facing `dir`) are broken consistently: the same input gives
    /// the same output, and for polytopes the lowest vertex index among the maximisers wins.
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D>;

    /// The rounding radius added around the core (zero for sharp shapes).
    #[inline]
    fn radius(&self) -> N {
        N::zero()
    }

    /// The radius of a ball around the local origin that contains the whole shape (core plus
    /// [`Self::radius`]): an upper bound on `|p|` over the shape's points, used as the length
    /// scale of the queries' tolerances.
    ///
    /// The default is the half diagonal of the local box spanned by the `2·D` axis support points,
    /// a valid bound for every shape but `2·D` support queries (a linear scan each for a large
    /// polytope). Every kollide shape overrides it with an O(1) value (closed form, or computed
    /// once at construction); other implementors should too.
    #[inline]
    fn bounding_radius(&self) -> N {
        let mut r2 = N::zero();
        for k in 0..D {
            let mut e = Vector::<N, D>::zeros();
            e[k] = N::one();
            let hi = self.local_support_point(&e)[k].abs();
            let lo = self.local_support_point(&-e)[k].abs();
            let m = hi.max_of(lo);
            r2 += m * m;
        }
        r2.sqrt()
    }

    /// `true` when the core is a single point (the same `local_core_support` in every
    /// direction), as for a ball: then the shape is that point grown by [`Self::radius`], and
    /// pair queries between two such shapes have a closed form. Defaults to `false`, which is
    /// always correct.
    #[inline]
    fn core_is_point(&self) -> bool {
        false
    }

    /// For a shape whose core is a segment (a segment or a capsule) or a point (a ball, whose two
    /// end points are then equal): the two end points, in the local frame. Pair queries between
    /// two such shapes have a closed form (the closest points of two segments). `None` (the
    /// default) for every other shape, which is always correct.
    #[inline]
    fn core_segment(&self) -> Option<[Point<N, D>; 2]> {
        None
    }

    /// For a shape whose core is a box centred at the local origin with its faces square to the
    /// local axes (a [`crate::Cuboid`]): the box's half extents. Pair queries of such a shape
    /// against a triangle have a separating-axis form. `None` (the default) for every other
    /// shape, which is always correct.
    #[inline]
    fn core_cuboid(&self) -> Option<Vector<N, D>> {
        None
    }

    /// For a point `p` (local frame) inside the core: its depth, the distance to the core's
    /// boundary, and the outward unit normal of the boundary at the nearest point, in closed
    /// form. `None` (the default) when `p` is outside the core or the shape has no closed form,
    /// which is always correct: the caller then runs GJK and EPA.
    ///
    /// A ball deep inside a large shape has many boundary directions nearly as near as the
    /// nearest (a ball on a cylinder's axis); EPA refines them all alike and can stop short of
    /// the depth, while this answer is exact to rounding.
    #[inline]
    fn local_core_depth(&self, p: &Point<N, D>) -> Option<(N, Vector<N, D>)> {
        let _ = p;
        None
    }

    /// For a point `p` (local frame) outside the core: the core's point nearest to it, in closed
    /// form. `None` (the default) when `p` is inside the core or the shape has no closed form,
    /// which is always correct: the caller then runs GJK.
    ///
    /// GJK approaches a curved surface one support point at a time and converges on the
    /// distance faster than on the direction; this answer is exact to rounding, and a pair
    /// whose other core is a point or a segment needs nothing else (see `kollide_narrowphase`'s
    /// `core_projection`).
    #[inline]
    fn local_core_projection(&self, p: &Point<N, D>) -> Option<Point<N, D>> {
        let _ = p;
        None
    }

    /// For a point `p` (local frame) outside the core: the outward unit normal of the core's
    /// boundary at its projection ([`Self::local_core_projection`]), from the boundary's own
    /// shape, where that normal is unique (a side or a face, not a rim or an apex). `None` (the
    /// default) there, inside, or without a closed form.
    ///
    /// The direction from the projection to `p` is the same normal, but computed from two points
    /// a short distance apart in long coordinates it is off by their rounding over that
    /// distance: a segment 1e-6 from a cone 10 m across got a normal 2e-9 rad off.
    #[inline]
    fn local_core_normal_toward(&self, p: &Point<N, D>) -> Option<Vector<N, D>> {
        let _ = p;
        None
    }

    /// A ray from `origin` along `dir` (local frame, `dir` of any length, times in units of it)
    /// against the core, in closed form: the first `t` in `[0, max_t]` where it meets the core
    /// and the core's outward normal there (a start inside or on the core hits at `t = 0` with a
    /// zero normal; a zero `dir` from outside misses). `None` (the default) when the shape has no
    /// closed form, which is always correct: the caller casts by GJK.
    #[inline]
    fn local_core_ray(
        &self,
        origin: &Vector<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
    ) -> Option<CoreRay<N, D>> {
        let _ = (origin, dir, max_t);
        None
    }

    /// For a core with curved parts (a cone, a cylinder): calls `f` with the vertices of the set
    /// of its points within `tol` of its support plane along `dir` (local frame, any length),
    /// and returns `true`. That set is one point (the support point), a straight side facing
    /// `dir` (its two ends), or a flat cap facing `dir` (a polygon inscribed in it, so every
    /// point listed is on the shape). `false` (the default) for every other shape, whose
    /// supporting features the caller lists from [`Self::polytope`] or [`Self::core_segment`].
    ///
    /// The narrowphase places a contact's witness points on these features (one point of each
    /// shape whose difference is the separation times the normal), where GJK's and EPA's
    /// barycentric combinations of support points would lie inside a curved surface.
    #[inline]
    fn curved_core_feature(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(Point<N, D>),
    ) -> bool {
        let _ = (dir, tol, f);
        false
    }

    /// For a core with curved parts (a cone, a cylinder): calls `f` with the [`Generator`]s of
    /// the set of its points within `tol` of its support plane along `dir` (local frame, any
    /// length), and returns `true`: the rim that supports `dir`, both rims along a straight
    /// side, the apex, or the apex and the rim along a cone's side. `false` where that set is a
    /// whole flat cap (no finite set of generators spans it) and for every other shape (the
    /// default), whose vertices the caller takes from [`Self::polytope`] or
    /// [`Self::core_segment`].
    ///
    /// The narrowphase solves for a curved contact's normal on them (`kollide_narrowphase`'s
    /// `refine`), which GJK and EPA approach only as fast as their chords of support points
    /// close in on a curved surface.
    #[inline]
    fn curved_generators(
        &self,
        dir: &Vector<N, D>,
        tol: N,
        f: &mut dyn FnMut(Generator<N, D>),
    ) -> bool {
        let _ = (dir, tol, f);
        false
    }

    /// For a core with curved and flat parts (a cone, a cylinder): calls `f` with the normals
    /// of its flat parts ([`FlatNormal`]). Along such a normal the support point jumps from one
    /// side of the flat part to the other, and the least depth of a penetration often lies
    /// exactly there (a small shape deep inside a cylinder leaves through the side, along a
    /// normal square to the axis), where EPA's polytope and its polish only approach it. The
    /// default lists none: polytopes are answered by their faces, round shapes have no kink.
    #[inline]
    fn flat_normals(&self, f: &mut dyn FnMut(FlatNormal<N, D>)) {
        let _ = f;
    }

    /// For a shape whose core is the convex hull of at most [`SMALL_HULL`] points (a polygon with
    /// at most eight vertices): those points, padded to [`SMALL_HULL`] with copies of the first,
    /// such that [`small_hull_support`] on them picks the point [`Self::local_core_support`]
    /// returns, in every direction. `None` (the default) for every other shape, which is always
    /// correct.
    ///
    /// A pair query uses it to rotate B's points into A's frame once per query
    /// (`kollide_narrowphase`'s `SmallHullDifference`) instead of rotating every search direction
    /// into B's frame and every support point back, two rotations on the path that GJK and EPA
    /// wait on at each iteration.
    #[inline]
    fn small_hull(&self) -> Option<&[Point<N, D>; SMALL_HULL]> {
        None
    }

    /// The core as a [`Polytope`](crate::Polytope) (vertices, face normals, edges) when it is
    /// one: boxes, triangles, polygons and polyhedra, and those rounded. `None` (the default) for
    /// every other shape, which is always correct. Read only by the narrowphase's exact
    /// separating-axis fallback, never on a query's fast path.
    #[inline]
    fn polytope(&self) -> Option<&dyn crate::Polytope<N, D>> {
        None
    }

    /// [`Self::local_core_support`] with a vertex hint for hill climbing. `hint` is read as the
    /// starting vertex and overwritten with the vertex found. Shapes without vertices ignore it.
    /// The result equals `local_core_support(dir)` up to ties.
    #[inline]
    fn local_core_support_hinted(&self, dir: &Vector<N, D>, hint: &mut u32) -> Point<N, D> {
        let _ = hint;
        self.local_core_support(dir)
    }

    /// The support point of the whole shape (core plus radius) in the local direction `dir`.
    #[inline]
    fn local_support_point(&self, dir: &Vector<N, D>) -> Point<N, D> {
        let core = self.local_core_support(dir);
        let r = self.radius();
        if r > N::zero() {
            let n = dir.norm();
            if n > N::zero() {
                return core + dir * (r / n);
            }
        }
        core
    }

    /// The support point of the whole shape in the world direction `dir`, for the shape placed at
    /// `pose`. Returns a world point.
    #[inline]
    fn support_point<P: Pose<N, D>>(&self, pose: &P, dir: &Vector<N, D>) -> Point<N, D> {
        pose.transform_point(&self.local_support_point(&pose.inverse_transform_vector(dir)))
    }
}

/// The number of points of a [`SupportMap::small_hull`] (padded with copies of the first).
pub const SMALL_HULL: usize = 8;

/// The index of the support point among eight points ([`SupportMap::small_hull`]): the lowest
/// index among the maximisers of `p · dir`, as a plain scan would return it, found as a knock-out
/// tournament: pairs of neighbours, then pairs of winners. In each match the right side, which
/// holds the higher indices, wins only when strictly larger, so the winner is the scan's answer
/// (a padded copy of the first point ties with it and loses to it), but the comparisons that
/// depend on each other form a chain of three instead of one per point. GJK and EPA wait for each
/// support point before choosing the next direction, so this latency, not the number of
/// operations, is what a support query costs them.
///
/// NaN: a NaN direction makes every value NaN, and point 0 wins every match, as in the scan.
/// Only a finite direction so large that some `p · dir` overflows to `∞ − ∞` (beyond the range
/// any query uses) gives NaN for some points and not others; the answer is then still one of the
/// points, but not necessarily the scan's. Nothing else is handled here: a check per value costs
/// as much as the tournament saves.
#[inline(always)]
pub fn small_hull_support<N: Scalar, const D: usize>(
    points: &[Point<N, D>; SMALL_HULL],
    dir: &Vector<N, D>,
) -> usize {
    let v: [N; SMALL_HULL] = core::array::from_fn(|i| points[i].coords.dot(dir));
    let pick = |l: (N, usize), r: (N, usize)| if r.0 > l.0 { r } else { l };
    let a = pick((v[0], 0), (v[1], 1));
    let b = pick((v[2], 2), (v[3], 3));
    let c = pick((v[4], 4), (v[5], 5));
    let d = pick((v[6], 6), (v[7], 7));
    pick(pick(a, b), pick(c, d)).1
}

/// The hint that names no vertex: [`SupportMap::local_core_support_hinted`] then starts wherever
/// the shape finds best (every vertex index is smaller).
const NO_HINT: u32 = u32::MAX;

/// A support point of the Minkowski difference `A − B` together with the points of `A` and `B`
/// it came from (all in A's local frame): `point = a − b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportPoint<N: Scalar, const D: usize> {
    /// `a − b`, a point of the Minkowski difference.
    pub point: Vector<N, D>,
    /// The support point of A in the direction.
    pub a: Point<N, D>,
    /// The support point of B in the opposite direction.
    pub b: Point<N, D>,
}

impl<N: Scalar, const D: usize> SupportPoint<N, D> {
    /// Builds a support point from its two witnesses.
    #[inline]
    pub fn new(a: Point<N, D>, b: Point<N, D>) -> Self {
        Self { point: a - b, a, b }
    }
}

/// The Minkowski difference `A − B` of two support-mapped shapes, in A's local frame.
///
/// By default it works on the *cores* of the shapes (see the module docs); use
/// [`MinkowskiDifference::with_radii`] to include the radii.
///
/// ```
/// use kollide_math::{Iso2, Pose, Vec2};
/// use kollide_shapes::{Ball, MinkowskiDifference};
/// let a = Ball::<f64, 2>::new(1.0).unwrap();
/// let b = Ball::<f64, 2>::new(0.5).unwrap();
/// let pos_ab = Iso2::new(Vec2::new(3.0, 0.0), 0.0);
/// let md = MinkowskiDifference::new(&a, &b, pos_ab).with_radii();
/// // The farthest point of A − B along +x is (rightmost of A) − (leftmost of B) = 1 − 2.5.
/// let s = md.support(&Vec2::new(1.0, 0.0));
/// assert!((s.point.x + 1.5).abs() < 1e-12);
/// ```
#[derive(Debug)]
pub struct MinkowskiDifference<'s, N: Scalar, const D: usize, A: ?Sized, B: ?Sized, P> {
    /// Shape A, at the origin of the frame.
    pub a: &'s A,
    /// Shape B, placed by `pos_ab`.
    pub b: &'s B,
    /// B's pose in A's frame.
    pub pos_ab: P,
    include_radii: bool,
    hint_a: Cell<u32>,
    hint_b: Cell<u32>,
    _n: PhantomData<N>,
}

impl<'s, N, const D: usize, A, B, P> MinkowskiDifference<'s, N, D, A, B, P>
where
    N: Scalar,
    A: SupportMap<N, D> + ?Sized,
    B: SupportMap<N, D> + ?Sized,
    P: Pose<N, D>,
{
    /// The difference of the cores of `a` and `b`, with `b` at `pos_ab` in `a`'s frame.
    ///
    /// Hill climbing starts without a hint (`u32::MAX`, out of range for every shape): each
    /// shape picks its own start (a polyhedron the best of a few stored extreme vertices).
    pub fn new(a: &'s A, b: &'s B, pos_ab: P) -> Self {
        Self {
            a,
            b,
            pos_ab,
            include_radii: false,
            hint_a: Cell::new(NO_HINT),
            hint_b: Cell::new(NO_HINT),
            _n: PhantomData,
        }
    }

    /// The same difference, but of the whole shapes (cores grown by their radii).
    pub fn with_radii(mut self) -> Self {
        self.include_radii = true;
        self
    }

    /// Starts hill climbing from these vertices (for example the ones a previous query ended at).
    pub fn with_hints(self, hint_a: u32, hint_b: u32) -> Self {
        self.hint_a.set(hint_a);
        self.hint_b.set(hint_b);
        self
    }

    /// The vertices hill climbing last ended at, to warm-start a later query.
    pub fn hints(&self) -> (u32, u32) {
        (self.hint_a.get(), self.hint_b.get())
    }

    /// The sum of the radii that [`Self::support`] leaves out (zero after
    /// [`Self::with_radii`]).
    pub fn excluded_radius(&self) -> N {
        if self.include_radii { N::zero() } else { self.a.radius() + self.b.radius() }
    }

    /// The support point of `A − B` in direction `dir` (A's frame), with its witnesses.
    #[inline(always)]
    pub fn support(&self, dir: &Vector<N, D>) -> SupportPoint<N, D> {
        let mut ha = self.hint_a.get();
        let mut hb = self.hint_b.get();
        let mut a = self.a.local_core_support_hinted(dir, &mut ha);
        let dir_b = -self.pos_ab.inverse_transform_vector(dir);
        let mut b_local = self.b.local_core_support_hinted(&dir_b, &mut hb);
        self.hint_a.set(ha);
        self.hint_b.set(hb);
        if self.include_radii {
            let n = dir.norm();
            if n > N::zero() {
                let unit = dir / n;
                a += unit * self.a.radius();
                b_local += dir_b * (self.b.radius() / n);
            }
        }
        SupportPoint::new(a, self.pos_ab.transform_point(&b_local))
    }
}
