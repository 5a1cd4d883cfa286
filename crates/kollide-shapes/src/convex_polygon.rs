//! [`ConvexPolygon`]: a strictly convex 2D polygon with counter-clockwise vertices and
//! precomputed outward edge normals.
//!
//! ## Layout
//! Vertex `i` is `vertices()[i]`; edge `i` runs from vertex `i` to vertex `i + 1` (wrapping), and
//! `normals()[i]` is its outward unit normal. For a counter-clockwise polygon the interior is on
//! the left of every edge, so the outward normal of the edge vector `e = (x, y)` is `(y, −x)/|e|`
//! (the edge rotated by −90°).
//!
//! ## Validity
//! A constructed polygon is *strictly* convex: at every vertex the boundary turns left by more
//! than a tolerance. The test (shared with the hull, [`crate::convex_hull_2d`]) is: vertex `b`
//! between `a` and `c` is rejected when `cross(b − a, c − a) ≤ 0` (the boundary turns clockwise or
//! goes straight) or when `b` is within `tol` of the segment `ac`, where `tol` is
//! [`crate::validate::coincidence_tolerance`] of the input (64 ulps of its extent, at least 8 ulps
//! of its coordinates).
//! So a vertex in the middle of an edge (a 180° vertex), even one slightly off the edge, is
//! rejected as [`ShapeError::NotConvex`] by [`ConvexPolygon::from_convex_ccw`];
//! [`ConvexPolygon::from_hull`] drops such points instead. Strict convexity is what makes the
//! support queries below exact and their ties predictable.
//!
//! ## Support mapping and hill climbing
//! The support point in direction `d` is the vertex maximising `v · d`. Small polygons (at most
//! [`ConvexPolygon::LINEAR_SCAN_MAX`] vertices) scan all vertices; up to eight vertices the scan
//! runs over a copy padded to eight (with vertex 0 repeated) as a knock-out tournament of
//! pairwise comparisons ([`crate::small_hull_support`]), three rounds deep instead of one
//! comparison after another, because GJK and EPA wait for each support point before the next
//! step. That copy is also the polygon's [`SupportMap::small_hull`], which pair queries rotate
//! into the other shape's frame once instead of rotating every direction and support point.
//! Larger ones *hill climb* (the distance seed's "hill climbing", and Cameron's "enhanced GJK",
//! S. Cameron, "Enhancing GJK: computing minimum and penetration distances between convex
//! polyhedra", ICRA 1997): start at a hinted vertex and step to the neighbour `i ± 1` while the
//! dot product strictly increases. Along the boundary of a convex polygon `v · d` rises to a
//! maximum and falls again (it is *unimodal*), so the first vertex with no better neighbour is a
//! global maximum. When GJK's successive directions are close, a query warm-started from the
//! previous answer costs a few dot products.
//!
//! Ties: when `d` is exactly an edge normal, the two vertices of that edge tie. The scan keeps
//! the lowest index; the climb, after stopping, walks over neighbours with *equal* value in both
//! directions and returns the lowest index among them. The two methods therefore return the same
//! vertex, which the tests check for every hint, including the wrap-around tie between the last
//! vertex and vertex 0 (where the lowest index is 0).
//!
//! In floating point, `v · d` is only unimodal up to rounding. For a polygon near its local
//! origin the strict-convexity tolerance (64 ulps of the extent, at least 8 of the coordinates) is several times the rounding
//! error of a dot product, so the computed values keep a single maximum run and the climb agrees
//! with the scan. A polygon far from its origin (coordinates much larger than its extent) rounds
//! its dot products at the scale of its coordinates; the climb may then stop at a vertex whose dot
//! product is below the scan's by that rounding, never by more.
//!
//! ## Mass properties
//! Area, centroid and polar moment of inertia come from a fan of triangles `(r, vᵢ, vᵢ₊₁)` around
//! the vertex mean `r`, with coordinates taken relative to `r`: for `p = vᵢ − r`, `q = vᵢ₊₁ − r`
//! and `D = cross(p, q)`, a triangle has area `D/2`, centroid `r + (p + q)/3` and polar moment
//! about `r` of `D (p·p + p·q + q·q)/12` per unit density (e.g. D. Eberly, "Polyhedral Mass
//! Properties (Revisited)", Geometric Tools, 2002, in its 2D form). Shifting to `r` keeps the
//! numbers small for polygons far from the origin; the parallel-axis theorem then moves the
//! moment to the centroid.

use std::collections::HashMap;

use kollide_math::{Point2, Pose, Scalar, UnitVec2, Vec2, geom::cross2};

use crate::{
    Aabb, BoundingVolume, FeatureId, HasMass2, MassProperties2, SMALL_HULL, ShapeError,
    SupportFeature, SupportFeatureMap, SupportMap,
    hull2d::{redundant, remove_redundant_cyclic, simplify},
    mass::check_density,
    small_hull_support, validate,
};

/// A strictly convex polygon: counter-clockwise vertices and outward unit edge normals.
///
/// ```
/// use kollide_math::{Point2, Vec2};
/// use kollide_shapes::{ConvexPolygon, SupportMap};
/// let tri = ConvexPolygon::from_convex_ccw(&[
///     Point2::new(0.0f64, 0.0),
///     Point2::new(1.0, 0.0),
///     Point2::new(0.0, 1.0),
/// ])
/// .unwrap();
/// assert_eq!(tri.len(), 3);
/// assert_eq!(tri.normals()[0].into_inner(), Vec2::new(0.0, -1.0));
/// assert_eq!(tri.local_support_point(&Vec2::new(1.0, 0.2)), Point2::new(1.0, 0.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexPolygon<N: Scalar> {
    vertices: Vec<Point2<N>>,
    normals: Vec<UnitVec2<N>>,
    /// The largest vertex norm ([`SupportMap::bounding_radius`]), computed once.
    bounding_radius: N,
    /// For at most [`SMALL`] vertices: the vertices padded to [`SMALL`] with copies of vertex 0,
    /// for the fixed-length support scan ([`small_hull_support`]) and
    /// [`SupportMap::small_hull`]. Unused (all vertex 0) otherwise.
    small: [Point2<N>; SMALL],
}

impl<N: Scalar> ConvexPolygon<N> {
    /// Polygons with at most this many vertices answer support queries with a linear scan;
    /// larger ones hill climb from a hint.
    pub const LINEAR_SCAN_MAX: usize = 16;

    /// The polygon with exactly these vertices, which the caller promises form a strictly convex
    /// counter-clockwise loop (no repeated closing vertex).
    ///
    /// # Errors
    /// Checked in this order:
    /// * [`ShapeError::NonFinite`] for a NaN or infinite coordinate (naming `"point i"`);
    /// * [`ShapeError::TooFewPoints`] for fewer than three points;
    /// * [`ShapeError::DuplicatePoints`] when two points (consecutive or not) are within the
    ///   tolerance of each other, naming the lowest such pair;
    /// * [`ShapeError::Degenerate`] (`"collinear"`) when all points are within the tolerance of
    ///   one line;
    /// * [`ShapeError::Clockwise`] when the signed area is negative;
    /// * [`ShapeError::OutOfEnvelope`] for a coordinate beyond [`Scalar::MAX_COORDINATE`] (checked
    ///   with finiteness) or an extent outside [`Scalar::MIN_SIZE`]..=`2 ·`[`Scalar::MAX_SIZE`];
    /// * [`ShapeError::NotConvex`] at the first vertex where the boundary turns clockwise, goes
    ///   straight or nearly straight (see the module docs), or, for a loop that winds around more
    ///   than once (a pentagram), at the vertex where it has turned by more than 1.5 turns.
    pub fn from_convex_ccw(points: &[Point2<N>]) -> Result<Self, ShapeError> {
        validate::finite_points(points)?;
        let n = points.len();
        if n < 3 {
            return Err(ShapeError::TooFewPoints { got: n, needed: 3 });
        }
        let tol = validate::coincidence_tolerance(points);
        if let Some((first, second)) = find_duplicates(points, tol) {
            return Err(ShapeError::DuplicatePoints { first, second });
        }
        if all_collinear(points, tol) {
            return Err(ShapeError::Degenerate("collinear"));
        }
        let origin = points[0];
        let twice_area: N = (1..n - 1)
            .map(|i| cross2(&(points[i] - origin), &(points[i + 1] - origin)))
            .fold(N::zero(), |s, x| s + x);
        if twice_area < N::zero() {
            return Err(ShapeError::Clockwise);
        }
        validate::extent(points)?;
        let mut turned = 0.0f64;
        for i in 0..n {
            let a = &points[(i + n - 1) % n];
            let b = &points[i];
            let c = &points[(i + 1) % n];
            if redundant(a, b, c, tol) {
                return Err(ShapeError::NotConvex { vertex: i });
            }
            // Every turn is now a left turn in (0, π); a simple loop turns by 2π in total.
            let (e0, e1) = (b - a, c - b);
            turned += cross2(&e0, &e1).to_f64().atan2(e0.dot(&e1).to_f64());
            if turned > 3.0 * core::f64::consts::PI {
                return Err(ShapeError::NotConvex { vertex: i });
            }
        }
        Ok(Self::from_valid(points.to_vec()))
    }

    /// The convex hull of a point cloud (see [`crate::convex_hull_2d`]): interior points and
    /// points on the hull's edges are dropped; the first vertex is the lexicographically smallest
    /// (`x`, then `y`) hull vertex.
    ///
    /// # Errors
    /// Those of [`crate::convex_hull_2d`]: non-finite input, fewer than three points, all points
    /// coincident or collinear.
    ///
    /// ```
    /// use kollide_math::Point2;
    /// use kollide_shapes::ConvexPolygon;
    /// let cloud = [
    ///     Point2::new(0.0f32, 0.0),
    ///     Point2::new(0.5, 0.5),
    ///     Point2::new(1.0, 1.0),
    ///     Point2::new(1.0, 0.0),
    ///     Point2::new(0.0, 1.0),
    /// ];
    /// assert_eq!(ConvexPolygon::from_hull(&cloud).unwrap().len(), 4);
    /// ```
    pub fn from_hull(points: &[Point2<N>]) -> Result<Self, ShapeError> {
        let hull = crate::convex_hull_2d(points)?;
        // The hull passes the same tests with a tolerance at least as strict; validating again
        // keeps the invariant in one place.
        Self::from_convex_ccw(&hull)
    }

    /// The rectangle `[−hx, hx] × [−hy, hy]`, with vertices counter-clockwise from `(−hx, −hy)`.
    /// Its normals are exactly `(0, −1)`, `(1, 0)`, `(0, 1)` and `(−1, 0)`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`] for a bad half extent, and
    /// [`ShapeError::OutOfEnvelope`] for one outside [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    pub fn from_box(half_extents: Vec2<N>) -> Result<Self, ShapeError> {
        validate::size_vector(&half_extents, "half extent")?;
        let (hx, hy) = (half_extents.x, half_extents.y);
        let (one, zero) = (N::one(), N::zero());
        let vertices = vec![
            Point2::new(-hx, -hy),
            Point2::new(hx, -hy),
            Point2::new(hx, hy),
            Point2::new(-hx, hy),
        ];
        Ok(Self {
            bounding_radius: half_extents.norm(),
            small: padded(&vertices),
            vertices,
            normals: [(zero, -one), (one, zero), (zero, one), (-one, zero)]
                .iter()
                .map(|&(x, y)| UnitVec2::new_unchecked(Vec2::new(x, y)))
                .collect(),
        })
    }

    /// The regular polygon with `n` vertices on the circle of radius `radius` around the origin,
    /// vertex `k` at angle `2πk/n` (vertex 0 on the `+x` axis).
    ///
    /// # Errors
    /// [`ShapeError::TooFewPoints`] for `n < 3`; [`ShapeError::NonFinite`] or
    /// [`ShapeError::NonPositive`] for a bad radius; [`ShapeError::NotConvex`] (or, larger still,
    /// [`ShapeError::DuplicatePoints`]) when `n` is so large that neighbouring vertices are within
    /// the tolerance of being collinear in this precision (a few thousand vertices in `f32`).
    pub fn regular(n: usize, radius: N) -> Result<Self, ShapeError> {
        validate::size(radius, "radius")?;
        if n < 3 {
            return Err(ShapeError::TooFewPoints { got: n, needed: 3 });
        }
        let step = core::f64::consts::TAU / n as f64;
        let points: Vec<Point2<N>> = (0..n)
            .map(|k| {
                let (s, c) = (step * k as f64).sin_cos();
                Point2::new(N::lit(c) * radius, N::lit(s) * radius)
            })
            .collect();
        Self::from_convex_ccw(&points)
    }

    /// The polygon outlined by `points`, a counter-clockwise convex loop (no repeated closing
    /// vertex needed) that may contain repeated vertices and vertices on or nearly on the line
    /// of their neighbours: those are merged away, as parry's `ConvexPolygon::from_convex_polyline`
    /// does, so a nearly straight outline (a circle sampled densely, a box with points along its
    /// sides) is accepted where [`Self::from_convex_ccw`] refuses it. Unlike parry's, the
    /// convexity is checked: every input point must lie on the resulting polygon's boundary.
    ///
    /// "Nearly" is [`crate::validate::coincidence_tolerance`] of the input, `tol` (64 ulps of its
    /// extent). Consecutive points within `tol` of each other are merged (the first is kept), then
    /// runs of points within `tol` of one chord are replaced by that chord (the simplification
    /// of [`crate::convex_hull_2d`]). The result's vertices are a subset of the input, in input
    /// order (the first kept vertex is the first input point that survives).
    ///
    /// # Errors
    /// * [`ShapeError::NonFinite`] / [`ShapeError::OutOfEnvelope`] for a bad coordinate;
    /// * [`ShapeError::TooFewPoints`] for fewer than three points (after merging duplicates:
    ///   [`ShapeError::Degenerate`]`("coincident")` or `("collinear")`);
    /// * [`ShapeError::Clockwise`] when the outline winds clockwise;
    /// * [`ShapeError::NotConvex`] naming an input point that is farther than `2 · tol` from the
    ///   edge of the merged polygon that replaced it (a dent, a reflex corner), or that steps
    ///   back along that edge (an outline that doubles back on itself);
    /// * the errors of [`Self::from_convex_ccw`] for the merged outline (such as an extent outside
    ///   the envelope).
    ///
    /// ```
    /// use kollide_math::Point2;
    /// use kollide_shapes::{ConvexPolygon, ShapeError};
    /// // A square with a repeated corner and a point in the middle of its top side.
    /// let outline = [
    ///     Point2::new(0.0f64, 0.0), Point2::new(1.0, 0.0), Point2::new(1.0, 0.0),
    ///     Point2::new(1.0, 1.0), Point2::new(0.5, 1.0 + 1e-17), Point2::new(0.0, 1.0),
    /// ];
    /// assert_eq!(ConvexPolygon::from_convex_polyline(&outline).unwrap().len(), 4);
    /// assert!(ConvexPolygon::from_convex_ccw(&outline).is_err());
    /// // A dent is not merged away.
    /// let dented = [
    ///     Point2::new(0.0f64, 0.0), Point2::new(1.0, 0.0), Point2::new(1.0, 1.0),
    ///     Point2::new(0.5, 0.9), Point2::new(0.0, 1.0),
    /// ];
    /// assert_eq!(
    ///     ConvexPolygon::from_convex_polyline(&dented),
    ///     Err(ShapeError::NotConvex { vertex: 3 })
    /// );
    /// ```
    pub fn from_convex_polyline(points: &[Point2<N>]) -> Result<Self, ShapeError> {
        validate::finite_points(points)?;
        let n = points.len();
        if n < 3 {
            return Err(ShapeError::TooFewPoints { got: n, needed: 3 });
        }
        let tol = validate::coincidence_tolerance(points);
        // Merge runs of consecutive duplicates, around the loop.
        let mut ring: Vec<usize> = Vec::with_capacity(n);
        for i in 0..n {
            if ring.last().is_none_or(|&j| (points[i] - points[j]).norm() > tol) {
                ring.push(i);
            }
        }
        while ring.len() > 1 && (points[ring[ring.len() - 1]] - points[ring[0]]).norm() <= tol {
            ring.pop();
        }
        if ring.len() < 3 {
            let coincident = ring.len() < 2;
            return Err(ShapeError::Degenerate(if coincident {
                "coincident"
            } else {
                "collinear"
            }));
        }
        let origin = points[ring[0]];
        let twice_area = ring
            .windows(2)
            .map(|w| cross2(&(points[w[0]] - origin), &(points[w[1]] - origin)))
            .fold(N::zero(), |s, x| s + x);
        // A clockwise outline has a clearly negative area; a nearly straight one any sign.
        if twice_area < -(tol * validate::cloud_extent(points)) {
            return Err(ShapeError::Clockwise);
        }
        let mut kept = simplify(points, &ring, tol);
        remove_redundant_cyclic(points, &mut kept, tol);
        if kept.len() < 3 {
            return Err(ShapeError::Degenerate("collinear"));
        }
        if let Some(vertex) = off_boundary(points, &kept, tol * N::lit(2.0)) {
            return Err(ShapeError::NotConvex { vertex });
        }
        // Keep input order from the first surviving point.
        let start = (0..kept.len()).min_by_key(|&k| kept[k]).unwrap_or(0);
        kept.rotate_left(start);
        let vertices: Vec<Point2<N>> = kept.iter().map(|&i| points[i]).collect();
        // Errors name input points, not positions in the merged loop.
        Self::from_convex_ccw(&vertices).map_err(|e| match e {
            ShapeError::NotConvex { vertex } => ShapeError::NotConvex { vertex: kept[vertex] },
            ShapeError::DuplicatePoints { first, second } => {
                ShapeError::DuplicatePoints { first: kept[first], second: kept[second] }
            }
            other => other,
        })
    }

    /// Builds the polygon from vertices already known to be valid.
    fn from_valid(vertices: Vec<Point2<N>>) -> Self {
        let n = vertices.len();
        let normals = (0..n)
            .map(|i| {
                let e = vertices[(i + 1) % n] - vertices[i];
                UnitVec2::new_normalize(Vec2::new(e.y, -e.x))
            })
            .collect();
        let bounding_radius = max_norm(&vertices);
        let small = padded(&vertices);
        Self { vertices, normals, bounding_radius, small }
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Point2<N>] {
        &self.vertices
    }

    /// The outward unit normals; `normals()[i]` belongs to edge `i` (vertex `i` to `i + 1`).
    #[inline]
    pub fn normals(&self) -> &[UnitVec2<N>] {
        &self.normals
    }

    /// The number of vertices (and of edges), at least 3.
    #[inline]
    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    /// Always `false`: a polygon has at least three vertices.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// Vertex `i`, with `i` taken modulo [`Self::len`] (so `vertex(len())` is vertex 0).
    #[inline]
    pub fn vertex(&self, i: usize) -> Point2<N> {
        self.vertices[i % self.len()]
    }

    /// The outward unit normal of edge `i`, with `i` taken modulo [`Self::len`].
    #[inline]
    pub fn edge_normal(&self, i: usize) -> UnitVec2<N> {
        self.normals[i % self.len()]
    }

    /// The end points of edge `i` (vertex `i` and vertex `i + 1`), with `i` taken modulo
    /// [`Self::len`].
    #[inline]
    pub fn edge(&self, i: usize) -> (Point2<N>, Point2<N>) {
        (self.vertex(i), self.vertex(i + 1))
    }

    /// The index of the support vertex in direction `dir` by a linear scan: the lowest index
    /// among the vertices maximising `v · dir`. This is the reference the other queries agree
    /// with. A zero direction gives vertex 0.
    #[inline(always)]
    pub fn support_vertex(&self, dir: &Vec2<N>) -> usize {
        if self.len() <= SMALL {
            small_hull_support(&self.small, dir)
        } else {
            scan(self.len(), |i| self.vertices[i].coords.dot(dir))
        }
    }

    /// The index of the support vertex in direction `dir`, by hill climbing from vertex `start`
    /// (clamped to the last vertex when out of range). Returns the same vertex as
    /// [`Self::support_vertex`], in a number of steps proportional to how far `start` is from it.
    pub fn support_vertex_from(&self, dir: &Vec2<N>, start: usize) -> usize {
        let start = start.min(self.len() - 1);
        climb_cyclic(self.len(), start, |i| self.vertices[i].coords.dot(dir))
    }

    /// The index of the edge whose outward normal best faces `dir` (maximises `normal · dir`),
    /// the lowest index on ties: the reference face for SAT-style clipping.
    ///
    /// On a convex polygon that edge is one of the two edges at the support vertex `v`
    /// (edges `v − 1` and `v`), so this finds `v` ([`Self::support_vertex`], or hill climbing from
    /// vertex 0 for large polygons) and compares those two normals. The returned edge therefore
    /// always contains the support vertex, even when rounding makes nearly parallel edges tie.
    pub fn support_edge_index(&self, dir: &Vec2<N>) -> usize {
        let n = self.len();
        let v = self.support_index(dir, 0);
        let before = if v == 0 { n - 1 } else { v - 1 };
        let (lo, hi) = if before < v { (before, v) } else { (v, before) };
        if self.normals[hi].dot(dir) > self.normals[lo].dot(dir) { hi } else { lo }
    }

    /// The support vertex by the method suited to the polygon's size.
    #[inline(always)]
    fn support_index(&self, dir: &Vec2<N>, start: usize) -> usize {
        if self.len() <= Self::LINEAR_SCAN_MAX {
            self.support_vertex(dir)
        } else {
            self.support_vertex_from(dir, start)
        }
    }
}

/// Converts an index to the `u32` of hints and feature ids (saturating; polygons never have
/// four billion vertices).
#[inline]
fn to_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The largest `|v|` over the vertices.
fn max_norm<N: Scalar>(vertices: &[Point2<N>]) -> N {
    vertices.iter().fold(N::zero(), |m, v| m.max_of(v.coords.norm()))
}

/// The vertex count up to which the support scan runs over a fixed-length padded copy, as a
/// knock-out tournament ([`small_hull_support`]).
const SMALL: usize = SMALL_HULL;

/// The first [`SMALL`] vertices, padded with copies of vertex 0 (all vertex 0 when there are
/// more, where the copy is not used).
fn padded<N: Scalar>(vertices: &[Point2<N>]) -> [Point2<N>; SMALL] {
    let first = vertices.first().copied().unwrap_or_else(Point2::origin);
    let small = vertices.len() <= SMALL;
    core::array::from_fn(|i| if small { vertices.get(i).copied().unwrap_or(first) } else { first })
}

/// The lowest index maximising `value` over `0..n` (`n ≥ 1`). A NaN value never wins.
fn scan<N: Scalar>(n: usize, value: impl Fn(usize) -> N) -> usize {
    let mut best = 0;
    let mut best_value = value(0);
    for i in 1..n {
        let v = value(i);
        if v > best_value {
            best = i;
            best_value = v;
        }
    }
    best
}

/// Hill climbing on a cyclic sequence of `n ≥ 1` values whose values rise to one maximum run and
/// fall again (the dot products of a direction with a convex polygon's vertices, in order): from
/// `start` (`< n`), step forward while the next value is strictly larger, otherwise backward
/// while the previous one is; then return the lowest index of the run of values equal to the
/// maximum found (which may wrap past index 0). Agrees with a scan on unimodal sequences.
pub fn climb_cyclic<N: Scalar>(n: usize, start: usize, value: impl Fn(usize) -> N) -> usize {
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let prev = |i: usize| if i == 0 { n - 1 } else { i - 1 };
    let mut i = start;
    let mut best = value(i);
    let mut moved = false;
    for _ in 0..n {
        let j = next(i);
        let v = value(j);
        if v > best {
            (i, best, moved) = (j, v, true);
        } else {
            break;
        }
    }
    if !moved {
        for _ in 0..n {
            let j = prev(i);
            let v = value(j);
            if v > best {
                (i, best) = (j, v);
            } else {
                break;
            }
        }
    }
    // The plateau of equal values around `i`: keep its lowest index.
    let mut lowest = i;
    let mut j = prev(i);
    while j != i && value(j) == best {
        lowest = lowest.min(j);
        j = prev(j);
    }
    let mut j = next(i);
    while j != i && value(j) == best {
        lowest = lowest.min(j);
        j = next(j);
    }
    lowest
}

/// The lowest pair `(first, second)` (by `second`, then `first`) of points within `tol` of each
/// other, consecutive pairs first. Uses a hash grid with cells of diagonal `tol`, so it is linear
/// in the number of points.
/// The first input point that is not on the edge of the merged loop `kept` (input indices,
/// increasing around the loop from some start) that replaced it, in order, if any. The points
/// between two kept vertices `a` and `b` must each be within `tol` of the segment `ab`, and must
/// not step back along it by more than `tol`: a point of a convex outline satisfies both, a dent
/// or an outline that doubles back does not.
fn off_boundary<N: Scalar>(points: &[Point2<N>], kept: &[usize], tol: N) -> Option<usize> {
    let m = kept.len();
    let n = points.len();
    for k in 0..m {
        let (from, to) = (kept[k], kept[(k + 1) % m]);
        let (a, b) = (points[from], points[to]);
        let len = (b - a).norm();
        let u = (b - a) / len;
        let mut last = N::zero();
        // The input points strictly between `from` and `to`, going forward around the loop.
        let mut i = (from + 1) % n;
        while i != to {
            let ap = points[i] - a;
            let along = ap.dot(&u);
            let off = cross2(&u, &ap).abs();
            if off > tol || along < last - tol || along > len + tol {
                return Some(i);
            }
            last = last.max_of(along);
            i = (i + 1) % n;
        }
    }
    None
}

fn find_duplicates<N: Scalar>(points: &[Point2<N>], tol: N) -> Option<(usize, usize)> {
    let n = points.len();
    for i in 0..n {
        let j = (i + 1) % n;
        if (points[j] - points[i]).norm() <= tol {
            return Some((i.min(j), i.max(j)));
        }
    }
    let cell = (tol / N::lit(core::f64::consts::SQRT_2)).to_f64();
    let key = |p: &Point2<N>| {
        ((p.x.to_f64() / cell).floor() as i64, (p.y.to_f64() / cell).floor() as i64)
    };
    let mut grid: HashMap<(i64, i64), usize> = HashMap::with_capacity(n);
    for (j, p) in points.iter().enumerate() {
        let (cx, cy) = key(p);
        let mut found: Option<usize> = None;
        for dx in -2..=2 {
            for dy in -2..=2 {
                if let Some(&i) = grid.get(&(cx + dx, cy + dy))
                    && (p - points[i]).norm() <= tol
                {
                    found = Some(found.map_or(i, |f| f.min(i)));
                }
            }
        }
        if let Some(i) = found {
            return Some((i, j));
        }
        grid.entry((cx, cy)).or_insert(j);
    }
    None
}

/// `true` when every point is within `tol` of the line through point 0 and the point farthest
/// from it. Points must be distinct (so that line is well defined).
fn all_collinear<N: Scalar>(points: &[Point2<N>], tol: N) -> bool {
    let a = points[0];
    let far = points.iter().map(|p| p - a).fold(Vec2::zeros(), |best: Vec2<N>, v| {
        if v.norm_squared() > best.norm_squared() { v } else { best }
    });
    let len = far.norm();
    points.iter().all(|p| cross2(&far, &(p - a)).abs() <= tol * len)
}

impl<N: Scalar> SupportMap<N, 2> for ConvexPolygon<N> {
    #[inline]
    fn polytope(&self) -> Option<&dyn crate::Polytope<N, 2>> {
        Some(self)
    }

    /// The clip against the edges' lines (the Cyrus–Beck clip of `ray_clip.rs`), up to its face
    /// count.
    fn local_core_ray(
        &self,
        origin: &Vec2<N>,
        dir: &Vec2<N>,
        max_t: N,
    ) -> Option<crate::CoreRay<N, 2>> {
        if self.len() > crate::ray_clip::MAX_CLIPPED_FACES {
            return None;
        }
        let planes = (0..self.len()).map(|i| {
            let n = self.normals[i].into_inner();
            (n, n.dot(&self.vertex(i).coords))
        });
        Some(crate::ray_clip::clip_ray(planes, origin, dir, max_t))
    }

    #[inline]
    fn local_core_support(&self, dir: &Vec2<N>) -> Point2<N> {
        self.vertices[self.support_index(dir, 0)]
    }

    #[inline(always)]
    fn local_core_support_hinted(&self, dir: &Vec2<N>, hint: &mut u32) -> Point2<N> {
        let i = self.support_index(dir, *hint as usize);
        *hint = to_u32(i);
        self.vertices[i]
    }

    /// The vertices padded to eight, for at most eight vertices.
    #[inline]
    fn small_hull(&self) -> Option<&[Point2<N>; SMALL_HULL]> {
        if self.len() <= SMALL { Some(&self.small) } else { None }
    }

    /// The largest vertex norm, computed at construction.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.bounding_radius
    }
}

impl<N: Scalar> SupportFeatureMap<N, 2> for ConvexPolygon<N> {
    /// The edge whose outward normal best faces `dir` (see
    /// [`ConvexPolygon::support_edge_index`]): id `Edge(i)`, vertices `i` and `i + 1`.
    fn local_support_feature(&self, dir: &Vec2<N>, out: &mut SupportFeature<N, 2>) {
        let i = self.support_edge_index(dir);
        let j = (i + 1) % self.len();
        out.reset(FeatureId::Edge(to_u32(i)));
        out.push(self.vertices[i], FeatureId::Vertex(to_u32(i)));
        out.push(self.vertices[j], FeatureId::Vertex(to_u32(j)));
    }
}

impl<N: Scalar> BoundingVolume<N, 2> for ConvexPolygon<N> {
    /// The box of the transformed vertices: exact, one pass.
    fn aabb<P: Pose<N, 2>>(&self, pose: &P) -> Aabb<N, 2> {
        let first = pose.transform_point(&self.vertices[0]);
        let (mins, maxs) = self.vertices[1..].iter().fold((first, first), |(lo, hi), v| {
            let w = pose.transform_point(v);
            (lo.inf(&w), hi.sup(&w))
        });
        Aabb::new(mins, maxs)
    }

    fn local_aabb(&self) -> Aabb<N, 2> {
        let first = self.vertices[0];
        let (mins, maxs) =
            self.vertices[1..].iter().fold((first, first), |(lo, hi), v| (lo.inf(v), hi.sup(v)));
        Aabb::new(mins, maxs)
    }
}

impl<N: Scalar> HasMass2<N> for ConvexPolygon<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let n = self.len();
        let r = self.vertices.iter().fold(Vec2::zeros(), |s, v| s + v.coords) / N::from_count(n);
        let mut twice_area = N::zero();
        let mut first_moment = Vec2::zeros(); // Σ D (p + q), 6 × area × centroid offset
        let mut second_moment = N::zero(); // Σ D (p·p + p·q + q·q), 12 × polar moment about r
        for i in 0..n {
            let p = self.vertices[i].coords - r;
            let q = self.vertices[(i + 1) % n].coords - r;
            let d = cross2(&p, &q);
            twice_area += d;
            first_moment += (p + q) * d;
            second_moment += d * (p.dot(&p) + p.dot(&q) + q.dot(&q));
        }
        let area = twice_area * N::lit(0.5);
        let offset = first_moment / (twice_area * N::lit(3.0));
        let polar_about_r = second_moment / N::lit(12.0);
        let polar_about_centroid = polar_about_r - area * offset.norm_squared();
        MassProperties2::checked(MassProperties2 {
            mass: density * area,
            local_center: Point2::from(r + offset),
            inertia: density * polar_about_centroid,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, geom::argmax_dot};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn pts<N: Scalar>(xy: &[(f64, f64)]) -> Vec<Point2<N>> {
        xy.iter().map(|&(x, y)| Point2::new(N::lit(x), N::lit(y))).collect()
    }

    fn v2<N: Scalar>(x: f64, y: f64) -> Vec2<N> {
        Vec2::new(N::lit(x), N::lit(y))
    }

    const H: f64 = 0.866_025_403_784_438_6; // √3/2, written once so both top vertices share it.

    #[derive(Clone, Copy, Debug)]
    enum Shape {
        Square,
        Hexagon,
        Triangle,
    }

    fn shape<N: Scalar>(s: Shape) -> ConvexPolygon<N> {
        match s {
            Shape::Square => ConvexPolygon::from_box(v2(1.0, 1.0)).unwrap(),
            Shape::Hexagon => ConvexPolygon::from_convex_ccw(&pts(&[
                (1.0, 0.0),
                (0.5, H),
                (-0.5, H),
                (-1.0, 0.0),
                (-0.5, -H),
                (0.5, -H),
            ]))
            .unwrap(),
            Shape::Triangle => {
                ConvexPolygon::from_convex_ccw(&pts(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])).unwrap()
            }
        }
    }

    fn check_support_case<N: Scalar>(s: Shape, dir: (f64, f64), expected: usize) {
        let poly = shape::<N>(s);
        let d = v2::<N>(dir.0, dir.1);
        assert_eq!(poly.support_vertex(&d), expected, "scan");
        assert_eq!(poly.local_core_support(&d), poly.vertices()[expected]);
        for start in 0..poly.len() + 2 {
            assert_eq!(poly.support_vertex_from(&d, start), expected, "climb from {start}");
            let mut hint = start as u32;
            assert_eq!(poly.local_core_support_hinted(&d, &mut hint), poly.vertices()[expected]);
            assert_eq!(hint, expected as u32);
        }
        // The reference scan of kollide-math agrees (ties to the lowest index too).
        assert_eq!(argmax_dot(poly.vertices(), &d).map(|(i, _)| i), Some(expected));
    }

    #[rstest]
    #[case::square_generic(Shape::Square, (1.0, 0.5), 2)]
    #[case::square_slightly_below_x(Shape::Square, (1.0, -1e-3), 1)]
    #[case::square_diagonal(Shape::Square, (-1.0, -1.0), 0)]
    #[case::square_normal_px_tie(Shape::Square, (1.0, 0.0), 1)]
    #[case::square_normal_py_tie(Shape::Square, (0.0, 1.0), 2)]
    #[case::square_normal_nx_tie_wraps(Shape::Square, (-1.0, 0.0), 0)]
    #[case::square_normal_ny_tie(Shape::Square, (0.0, -1.0), 0)]
    #[case::square_zero_direction(Shape::Square, (0.0, 0.0), 0)]
    #[case::hexagon_px(Shape::Hexagon, (1.0, 0.0), 0)]
    #[case::hexagon_nx(Shape::Hexagon, (-1.0, 0.0), 3)]
    #[case::hexagon_diagonal(Shape::Hexagon, (1.0, 1.0), 1)]
    #[case::hexagon_normal_py_tie(Shape::Hexagon, (0.0, 1.0), 1)]
    #[case::hexagon_normal_ny_tie(Shape::Hexagon, (0.0, -2.0), 4)]
    #[case::triangle_px(Shape::Triangle, (1.0, 0.0), 1)]
    #[case::triangle_py(Shape::Triangle, (0.0, 1.0), 2)]
    #[case::triangle_steep(Shape::Triangle, (1.0, 2.0), 2)]
    #[case::triangle_hypotenuse_normal_tie(Shape::Triangle, (1.0, 1.0), 1)]
    #[case::triangle_normal_nx_tie_wraps(Shape::Triangle, (-1.0, 0.0), 0)]
    #[case::triangle_normal_ny_tie(Shape::Triangle, (0.0, -1.0), 0)]
    #[case::triangle_away(Shape::Triangle, (-1.0, -1.0), 0)]
    fn support_points(#[case] s: Shape, #[case] dir: (f64, f64), #[case] expected: usize) {
        check_support_case::<f32>(s, dir, expected);
        check_support_case::<f64>(s, dir, expected);
    }

    fn check_feature_case<N: Scalar>(s: Shape, dir: (f64, f64), edge: usize) {
        let poly = shape::<N>(s);
        let mut f = SupportFeature::new();
        poly.local_support_feature(&v2(dir.0, dir.1), &mut f);
        let next = (edge + 1) % poly.len();
        assert_eq!(f.id, FeatureId::Edge(edge as u32));
        assert_eq!(f.vertices.as_slice(), &[poly.vertices()[edge], poly.vertices()[next]]);
        assert_eq!(
            f.vertex_ids.as_slice(),
            &[FeatureId::Vertex(edge as u32), FeatureId::Vertex(next as u32)]
        );
    }

    #[rstest]
    #[case::square_px(Shape::Square, (1.0, 0.1), 1)]
    #[case::square_last_edge_wraps(Shape::Square, (-1.0, 0.0), 3)]
    #[case::square_corner_tie(Shape::Square, (1.0, 1.0), 1)]
    #[case::square_corner_tie_wraps(Shape::Square, (-1.0, -1.0), 0)]
    #[case::hexagon_top(Shape::Hexagon, (0.1, 1.0), 1)]
    #[case::triangle_hypotenuse(Shape::Triangle, (1.0, 1.0), 1)]
    #[case::triangle_left(Shape::Triangle, (-1.0, 0.3), 2)]
    fn support_features(#[case] s: Shape, #[case] dir: (f64, f64), #[case] edge: usize) {
        check_feature_case::<f32>(s, dir, edge);
        check_feature_case::<f64>(s, dir, edge);
    }

    /// A 4q-gon (q even) symmetric under exact 90° rotations and under the diagonal mirror, so
    /// that the directions ±x, ±y and the diagonals are *exact* edge normals: both vertices of
    /// those edges have bit-identical dot products.
    fn symmetric_polygon<N: Scalar>(q: usize) -> ConvexPolygon<N> {
        let half: Vec<(f64, f64)> = (0..q / 2)
            .map(|k| {
                let t = (k as f64 + 0.5) * core::f64::consts::FRAC_PI_2 / q as f64;
                (t.cos(), t.sin())
            })
            .collect();
        let quadrant: Vec<(f64, f64)> =
            half.iter().copied().chain(half.iter().rev().map(|&(x, y)| (y, x))).collect();
        let mut all = Vec::new();
        for r in 0..4 {
            for &(x, y) in &quadrant {
                let (mut x, mut y) = (x, y);
                for _ in 0..r {
                    (x, y) = (-y, x);
                }
                all.push((x, y));
            }
        }
        ConvexPolygon::from_convex_ccw(&pts(&all)).unwrap()
    }

    fn exact_ties_on_large_polygon<N: Scalar>() {
        let poly = symmetric_polygon::<N>(16);
        let n = poly.len();
        assert_eq!(n, 64);
        assert!(n > ConvexPolygon::<N>::LINEAR_SCAN_MAX);
        let dirs = [
            (1.0, 0.0),
            (0.0, 1.0),
            (-1.0, 0.0),
            (0.0, -1.0),
            (1.0, 1.0),
            (-1.0, 1.0),
            (-1.0, -1.0),
            (1.0, -1.0),
        ];
        for (x, y) in dirs {
            let d = v2::<N>(x, y);
            let best = poly.support_vertex(&d);
            // A genuine two-way tie, resolved to the lower index of the pair (wrapping at 0).
            let dot = |i: usize| poly.vertex(i).coords.dot(&d);
            let tied: Vec<usize> = (0..n).filter(|&i| dot(i) == dot(best)).collect();
            assert_eq!(tied.len(), 2, "direction {x},{y}");
            assert_eq!(best, tied[0]);
            for start in 0..n + 3 {
                assert_eq!(poly.support_vertex_from(&d, start), best, "from {start} along {x},{y}");
            }
            // The best edge is the tied pair's edge, and it faces the direction.
            let e = poly.support_edge_index(&d);
            let (a, b) = (e, (e + 1) % n);
            assert!(tied.contains(&a) && tied.contains(&b));
        }
    }

    #[test]
    fn exact_ties_on_large_polygon_both_precisions() {
        exact_ties_on_large_polygon::<f32>();
        exact_ties_on_large_polygon::<f64>();
    }

    /// Every support query on `poly` agrees with the scan, and the scan maximises the dot product
    /// over the vertices and over points sampled on the edges.
    fn check_support_properties<N: Scalar>(poly: &ConvexPolygon<N>, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = poly.len();
        let scale = poly.vertices().iter().map(|v| v.coords.norm()).fold(N::one(), N::max_of);
        let mut dirs: Vec<Vec2<N>> = (0..24)
            .map(|_| {
                let t: f64 = rng.random_range(0.0..core::f64::consts::TAU);
                let len: f64 = 10f64.powf(rng.random_range(-2.0..2.0));
                v2(t.cos() * len, t.sin() * len)
            })
            .collect();
        // Exactly along edge normals (near-ties decided by rounding), and their opposites.
        for _ in 0..8 {
            let k = rng.random_range(0..n);
            dirs.push(poly.normals()[k].into_inner());
            dirs.push(-poly.normals()[k].into_inner());
        }
        for d in &dirs {
            let best = poly.support_vertex(d);
            let best_dot = poly.vertex(best).coords.dot(d);
            let slack = N::lit(8.0) * N::EPSILON * scale * d.norm();
            for (i, v) in poly.vertices().iter().enumerate() {
                let x = v.coords.dot(d);
                assert!(x < best_dot || (x == best_dot && i >= best), "vertex {i} beats {best}");
                let w = poly.vertex(i + 1);
                for t in [0.125, 0.5, 0.875] {
                    let p = v + (w - v) * N::lit(t);
                    assert!(
                        p.coords.dot(d) <= best_dot + slack,
                        "edge {i} at {t} beats the support"
                    );
                }
            }
            assert_eq!(poly.local_core_support(d), poly.vertex(best));
            for _ in 0..6 {
                let start = rng.random_range(0..n + 4);
                assert_eq!(poly.support_vertex_from(d, start), best, "climb from {start}");
                let mut hint = start as u32;
                assert_eq!(poly.local_core_support_hinted(d, &mut hint), poly.vertex(best));
                assert_eq!(hint as usize, best);
            }
            // The best edge: its normal maximises normal · d (up to rounding; exactly when the
            // best is clear), and the support vertex is one of its end points.
            let e = poly.support_edge_index(d);
            let values: Vec<N> = poly.normals().iter().map(|m| m.dot(d)).collect();
            let top = scan(n, |i| values[i]);
            let eps = N::lit(8.0) * N::EPSILON * d.norm();
            assert!(values[e] >= values[top] - eps);
            let runner_up =
                (0..n).filter(|&i| i != top).map(|i| values[i]).fold(-N::MAX, N::max_of);
            if values[top] - runner_up > eps {
                assert_eq!(e, top);
            }
            assert!(best == e || best == (e + 1) % n, "support {best} not on edge {e}");
        }
    }

    fn polygon_checks<N: Scalar>(poly: &ConvexPolygon<N>, seed: u64) {
        check_support_properties(poly, seed);
        let n = poly.len();
        for (i, m) in poly.normals().iter().enumerate() {
            // Unit, outward (every vertex is behind the edge's line), perpendicular to the edge.
            assert!((m.norm() - N::one()).abs() < N::lit(1e-5));
            let (a, b) = poly.edge(i);
            let tol = N::lit(64.0) * N::EPSILON * (b - a).norm().max_of(N::one());
            assert!(m.dot(&(b - a)).abs() <= tol);
            for v in poly.vertices() {
                assert!(m.dot(&(v - a)) <= tol * N::lit(4.0));
            }
        }
        assert_eq!(poly.normals().len(), n);
    }

    fn transform(
        xy: &[(f64, f64)],
        angle: f64,
        scale: (f64, f64),
        offset: (f64, f64),
    ) -> Vec<(f64, f64)> {
        let (s, c) = angle.sin_cos();
        xy.iter()
            .map(|&(x, y)| {
                let (x, y) = (x * scale.0, y * scale.1);
                (c * x - s * y + offset.0, s * x + c * y + offset.1)
            })
            .collect()
    }

    fn regular_xy(n: usize) -> Vec<(f64, f64)> {
        (0..n)
            .map(|k| {
                let (s, c) = (core::f64::consts::TAU * k as f64 / n as f64).sin_cos();
                (c, s)
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn hull_of_random_cloud(cloud in prop::collection::vec((-10.0f64..10.0, -10.0f64..10.0), 3..80),
                                seed in any::<u64>()) {
            if let Ok(poly) = ConvexPolygon::<f64>::from_hull(&pts(&cloud)) {
                polygon_checks(&poly, seed);
            }
            if let Ok(poly) = ConvexPolygon::<f32>::from_hull(&pts(&cloud)) {
                polygon_checks(&poly, seed);
            }
        }

        #[test]
        fn regular_polygons(n in 3usize..=256, radius in 0.01f64..100.0, angle in 0.0f64..6.3,
                            ox in -50.0f64..50.0, oy in -50.0f64..50.0, seed in any::<u64>()) {
            let xy = transform(&regular_xy(n), angle, (radius, radius), (ox, oy));
            // In f64 every vertex is kept; f32 may be too coarse for the largest counts far from
            // the origin, in which case the hull drops vertices instead.
            let p64 = ConvexPolygon::<f64>::from_convex_ccw(&pts(&xy)).unwrap();
            prop_assert_eq!(p64.len(), n);
            polygon_checks(&p64, seed);
            let p32 = ConvexPolygon::<f32>::from_convex_ccw(&pts(&xy))
                .or_else(|_| ConvexPolygon::<f32>::from_hull(&pts(&xy)))
                .unwrap();
            polygon_checks(&p32, seed);
        }

        #[test]
        fn sliver_polygons(n in 3usize..=256, long in 0.1f64..20.0, angle in 0.0f64..6.3,
                           ox in -5.0f64..5.0, oy in -5.0f64..5.0, seed in any::<u64>()) {
            // 50:1 ellipses sampled at n points; the hull drops the vertices that are too flat.
            let xy = transform(&regular_xy(n), angle, (long, long / 50.0), (ox, oy));
            polygon_checks(&ConvexPolygon::<f64>::from_hull(&pts(&xy)).unwrap(), seed);
            polygon_checks(&ConvexPolygon::<f32>::from_hull(&pts(&xy)).unwrap(), seed);
        }
    }

    #[test]
    fn from_hull_keeps_hull_vertices() {
        let cloud =
            pts::<f64>(&[(0.0, 0.0), (4.0, 0.0), (2.0, 0.0), (1.0, 1.0), (4.0, 3.0), (0.0, 3.0)]);
        let poly = ConvexPolygon::from_hull(&cloud).unwrap();
        assert_eq!(poly.vertices(), &[cloud[0], cloud[1], cloud[4], cloud[5]]);
        assert_eq!(
            poly,
            ConvexPolygon::from_convex_ccw(&[cloud[0], cloud[1], cloud[4], cloud[5]]).unwrap()
        );
    }

    #[test]
    fn from_convex_ccw_keeps_vertices_exactly() {
        let points = pts::<f32>(&[(3.0, 1.0), (4.0, 2.0), (2.0, 3.0), (1.0, 1.5)]);
        let poly = ConvexPolygon::from_convex_ccw(&points).unwrap();
        assert_eq!(poly.vertices(), points.as_slice());
        assert_eq!(poly.vertex(5), points[1]);
        assert_eq!(poly.edge(3), (points[3], points[0]));
        assert_eq!(poly.edge_normal(4), poly.normals()[0]);
        assert!(!poly.is_empty());
    }

    fn expect_error<N: Scalar>(xy: &[(f64, f64)], expected: &ShapeError) {
        assert_eq!(&ConvexPolygon::<N>::from_convex_ccw(&pts(xy)).unwrap_err(), expected);
    }

    #[rstest]
    #[case::nan(&[(0.0, 0.0), (1.0, 0.0), (f64::NAN, 1.0)], ShapeError::NonFinite { what: "point 2".into() })]
    #[case::infinite(&[(0.0, 0.0), (f64::NEG_INFINITY, 0.0), (1.0, 1.0)], ShapeError::NonFinite { what: "point 1".into() })]
    #[case::two_points(&[(0.0, 0.0), (1.0, 0.0)], ShapeError::TooFewPoints { got: 2, needed: 3 })]
    #[case::duplicate_consecutive(&[(0.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 1.0)], ShapeError::DuplicatePoints { first: 1, second: 2 })]
    #[case::duplicate_closing_vertex(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 0.0)], ShapeError::DuplicatePoints { first: 0, second: 3 })]
    #[case::duplicate_non_consecutive(&[(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (0.0, 1.0)], ShapeError::DuplicatePoints { first: 0, second: 2 })]
    #[case::near_duplicate(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1e-15), (0.0, 1.0)], ShapeError::DuplicatePoints { first: 1, second: 2 })]
    #[case::collinear(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (-1.0, -1.0)], ShapeError::Degenerate("collinear"))]
    #[case::clockwise_square(&[(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)], ShapeError::Clockwise)]
    #[case::arrow(&[(0.0, 0.0), (2.0, 1.0), (0.0, 2.0), (0.5, 1.0)], ShapeError::NotConvex { vertex: 3 })]
    #[case::vertex_on_edge(&[(-1.0, -1.0), (0.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)], ShapeError::NotConvex { vertex: 1 })]
    #[case::vertex_barely_off_edge(&[(-1.0, -1.0), (0.0, -1.0 - 1e-15), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)], ShapeError::NotConvex { vertex: 1 })]
    #[case::pentagram(&[(1.0, 0.0), (-0.809_017, 0.587_785), (0.309_017, -0.951_057), (0.309_017, 0.951_057), (-0.809_017, -0.587_785)], ShapeError::NotConvex { vertex: 3 })]
    fn from_convex_ccw_errors(#[case] xy: &[(f64, f64)], #[case] expected: ShapeError) {
        expect_error::<f32>(xy, &expected);
        expect_error::<f64>(xy, &expected);
    }

    fn other_constructor_errors<N: Scalar>() {
        use ShapeError::*;
        assert!(matches!(ConvexPolygon::<N>::from_box(v2(1.0, -1.0)), Err(NonPositive { .. })));
        assert!(matches!(ConvexPolygon::<N>::from_box(v2(0.0, 1.0)), Err(NonPositive { .. })));
        assert!(matches!(ConvexPolygon::<N>::from_box(v2(f64::NAN, 1.0)), Err(NonFinite { .. })));
        assert_eq!(
            ConvexPolygon::<N>::regular(2, N::one()),
            Err(TooFewPoints { got: 2, needed: 3 })
        );
        assert!(matches!(ConvexPolygon::<N>::regular(5, N::lit(-1.0)), Err(NonPositive { .. })));
        assert!(matches!(
            ConvexPolygon::<N>::regular(5, N::lit(f64::INFINITY)),
            Err(NonFinite { .. })
        ));
        assert_eq!(
            ConvexPolygon::<N>::from_hull(&pts(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)])),
            Err(Degenerate("collinear"))
        );
        assert_eq!(
            ConvexPolygon::<N>::from_hull(&pts(&[(0.0, 0.0)])),
            Err(TooFewPoints { got: 1, needed: 3 })
        );
        let square = ConvexPolygon::<N>::from_box(v2(1.0, 1.0)).unwrap();
        assert!(matches!(square.mass_properties(N::zero()), Err(InvalidDensity(_))));
        assert!(matches!(square.mass_properties(N::lit(f64::NAN)), Err(InvalidDensity(_))));
    }

    #[test]
    fn other_constructor_errors_both_precisions() {
        other_constructor_errors::<f32>();
        other_constructor_errors::<f64>();
        // Too many vertices for the precision: neighbouring vertices are nearly collinear (f64
        // would need tens of millions of vertices).
        assert!(matches!(
            ConvexPolygon::<f32>::regular(4096, 1.0),
            Err(ShapeError::NotConvex { .. })
        ));
        assert_eq!(ConvexPolygon::<f64>::regular(4096, 1.0).map(|p| p.len()), Ok(4096));
    }

    fn close<N: Scalar>(a: N, b: f64, rel: f64) -> bool {
        (a.to_f64() - b).abs() <= rel * b.abs().max(1.0)
    }

    fn rectangle_mass<N: Scalar>(rel: f64) {
        let (hx, hy, density) = (2.0, 0.5, 3.0);
        let rect = ConvexPolygon::<N>::from_box(v2(hx, hy)).unwrap();
        let m = rect.mass_properties(N::lit(density)).unwrap();
        let (w, h) = (2.0 * hx, 2.0 * hy);
        let mass = density * w * h;
        assert!(close(m.mass, mass, rel));
        assert!(close(m.inertia, mass * (w * w + h * h) / 12.0, rel));
        assert!(m.local_center.coords.norm().to_f64() < rel);
    }

    fn regular_mass<N: Scalar>(n: usize, rel: f64) {
        let (r, density) = (1.5, 2.0);
        let poly = ConvexPolygon::<N>::regular(n, N::lit(r)).unwrap();
        let m = poly.mass_properties(N::lit(density)).unwrap();
        let t = core::f64::consts::TAU / n as f64;
        let area = 0.5 * n as f64 * r * r * t.sin();
        let mass = density * area;
        let c = (core::f64::consts::PI / n as f64).cos();
        assert!(close(m.mass, mass, rel), "mass {} vs {mass}", m.mass);
        assert!(close(m.inertia, mass * r * r * (1.0 + 2.0 * c * c) / 6.0, rel));
        assert!(m.local_center.coords.norm().to_f64() < rel);
    }

    fn translated_mass<N: Scalar>(rel: f64) {
        // An irregular quadrilateral and its copy moved far away: same mass and inertia, centroid
        // moved by the offset.
        let base = [(0.0, 0.0), (3.0, 0.5), (2.0, 2.0), (-0.5, 1.5)];
        let offset = (1000.0, -250.0);
        let moved: Vec<(f64, f64)> =
            base.iter().map(|&(x, y)| (x + offset.0, y + offset.1)).collect();
        let a = ConvexPolygon::<N>::from_convex_ccw(&pts(&base))
            .unwrap()
            .mass_properties(N::one())
            .unwrap();
        let b = ConvexPolygon::<N>::from_convex_ccw(&pts(&moved))
            .unwrap()
            .mass_properties(N::one())
            .unwrap();
        assert!(close(b.mass, a.mass.to_f64(), rel));
        assert!(close(b.inertia, a.inertia.to_f64(), rel * 100.0));
        let shift = b.local_center - a.local_center;
        assert!(close(shift.x, offset.0, rel));
        assert!(close(shift.y, offset.1, rel));
        // The triangle's centroid is the mean of its vertices.
        let tri = ConvexPolygon::<N>::from_convex_ccw(&pts(&[(1.0, 1.0), (4.0, 1.0), (1.0, 7.0)]))
            .unwrap();
        let m = tri.mass_properties(N::one()).unwrap();
        assert!(close(m.local_center.x, 2.0, rel) && close(m.local_center.y, 3.0, rel));
        assert!(close(m.mass, 9.0, rel));
        // Right triangle with legs a = 3, b = 6 about its centroid: m (a² + b²) / 18.
        assert!(close(m.inertia, 9.0 * (9.0 + 36.0) / 18.0, rel));
    }

    #[rstest]
    #[case::triangle(3)]
    #[case::hexagon(6)]
    #[case::many(100)]
    fn mass_of_regular_polygons(#[case] n: usize) {
        regular_mass::<f32>(n, 1e-5);
        regular_mass::<f64>(n, 1e-12);
    }

    #[test]
    fn mass_of_rectangles_and_translated_polygons() {
        rectangle_mass::<f32>(1e-6);
        rectangle_mass::<f64>(1e-14);
        translated_mass::<f32>(1e-5);
        translated_mass::<f64>(1e-12);
    }

    fn aabb_checks<N: Scalar>() {
        let rect = ConvexPolygon::<N>::from_box(v2(2.0, 1.0)).unwrap();
        let local = rect.local_aabb();
        assert_eq!(local.mins, Point2::new(N::lit(-2.0), N::lit(-1.0)));
        assert_eq!(local.maxs, Point2::new(N::lit(2.0), N::lit(1.0)));
        let pose = Iso2::new(v2(1.0, -1.0), N::frac_pi_2());
        let aabb = rect.aabb(&pose);
        let tol = N::lit(1e-5);
        assert!((aabb.mins - Point2::new(N::lit(0.0), N::lit(-3.0))).norm() < tol);
        assert!((aabb.maxs - Point2::new(N::lit(2.0), N::lit(1.0))).norm() < tol);
        // Agrees with the support-based box of the trait's default.
        let poly = ConvexPolygon::<N>::regular(40, N::lit(2.0)).unwrap();
        let pose = Iso2::new(v2(3.0, 4.0), N::lit(0.3));
        let aabb = poly.aabb(&pose);
        for k in 0..2 {
            let mut axis = Vec2::zeros();
            axis[k] = N::one();
            assert!((aabb.maxs[k] - poly.support_point(&pose, &axis)[k]).abs() < tol);
            assert!((aabb.mins[k] - poly.support_point(&pose, &-axis)[k]).abs() < tol);
        }
    }

    #[test]
    fn aabb_both_precisions() {
        aabb_checks::<f32>();
        aabb_checks::<f64>();
    }

    #[test]
    fn small_scan_agrees_with_scan() {
        // Ties, plateaus, padding and infinities in every position, and all-NaN (a NaN
        // direction).
        let values = [0.0f64, 1.0, -1.0, 2.0, f64::INFINITY, f64::NEG_INFINITY];
        let mut state = 12345u64;
        for case in 0..20_000 {
            let n = 1 + case % SMALL;
            let all_nan = case % 97 == 0;
            let vals: Vec<f64> = (0..n)
                .map(|_| {
                    state =
                        state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    if all_nan { f64::NAN } else { values[(state >> 33) as usize % values.len()] }
                })
                .collect();
            // Vertices (x, 0) with direction +x give exactly these values.
            let pts: Vec<Point2<f64>> = vals.iter().map(|&x| Point2::new(x, 0.0)).collect();
            let got = small_hull_support(&padded(&pts), &Vec2::x());
            assert_eq!(got, scan(n, |i| vals[i]), "{vals:?}");
        }
        // Through the polygon: every direction around a small polygon, against the scan.
        let poly = ConvexPolygon::<f64>::regular(7, 1.0).unwrap();
        for k in 0..720 {
            let (s, c) = (f64::from(k) * 0.5f64.to_radians()).sin_cos();
            let d = Vec2::new(c, s);
            let expected = scan(poly.len(), |i| poly.vertices()[i].coords.dot(&d));
            assert_eq!(poly.support_vertex(&d), expected);
        }
    }

    #[test]
    fn climb_handles_flat_sequences() {
        // All equal (a zero direction): the lowest index, from any start.
        for start in 0..5 {
            assert_eq!(climb_cyclic(5, start, |_| 0.0f64), 0);
        }
        // A plateau that wraps around index 0.
        let v = [3.0f64, 1.0, 0.0, 1.0, 3.0];
        for start in 0..5 {
            assert_eq!(climb_cyclic(5, start, |i| v[i]), 0);
            assert_eq!(scan(5, |i| v[i]), 0);
        }
    }
}
