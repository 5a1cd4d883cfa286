//! The convex hull of a 3D point cloud: [`convex_hull_3d`].
//!
//! The hull is built by *quickhull* (Barber, Dobkin and Huhdanpaa, "The Quickhull Algorithm for
//! Convex Hulls", ACM TOMS 22(4), 1996), an incremental algorithm with *conflict lists*:
//!
//! 1. Build a first tetrahedron from extreme points: the two farthest apart of the six axis
//!    extremes, the point farthest from the line through them, and the point farthest from the
//!    plane through those three. If the line or the plane already holds every point (within the
//!    tolerance below) the cloud has no volume and the hull fails with
//!    [`ShapeError::Degenerate`] (`"coincident"`, `"collinear"` or `"coplanar"`).
//! 2. Give every other point to the first face it lies above (its *outside set*). Points above no
//!    face are inside and are dropped for good.
//! 3. Repeatedly take a face with a non-empty outside set and its farthest point, the *eye*. Find
//!    the faces the eye sees by a breadth-first walk from that face, cut them out, and close the
//!    hole with a fan of triangles from the eye to the *horizon* (the boundary of the hole). The
//!    points of the removed faces are handed to the new faces or dropped.
//!
//! Every step consumes one point, so the loop runs at most once per input point.
//!
//! ## Robustness
//! Floating-point hulls go wrong when a point is almost on a face plane: rounding then decides
//! whether the face is visible, and inconsistent decisions tear or fold the surface. Tolerances
//! alone do not fix this. Counting faces the eye is barely *behind* as visible folds the new
//! fan at grazing angles, and leaving out faces it is barely *in front of* leaves a concave fold
//! of angle up to `ε / h` beside a new triangle of height `h`. Both happen on nearly flat clouds.
//! So the *combinatorics* are decided exactly:
//!
//! * "is `p` above triangle `abc`" is the sign of `((b − a) × (c − a)) · (p − a)`, evaluated with
//!   a floating-point filter and, when the filter cannot decide, exactly with floating-point
//!   *expansions* (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
//!   Geometric Predicates", 1997). Coordinates are converted to `f64` (exact for `f32` and `f64`)
//!   and scaled by a power of two, which is also exact;
//! * with exact signs the triangulated hull is exactly convex, the visible region is always a
//!   disc, and no point is lost. A repair step (grow the visible region until its boundary is one
//!   simple loop, or skip the eye) remains as a safety net, so the algorithm never panics and
//!   never loops on finite input.
//!
//! Tolerances only decide what counts as *the same plane* when triangles are merged into polygon
//! faces, with `ε` from [`hull_tolerance_3d`]. A cloud is degenerate when it lies within `ε` of a
//! line or a plane.
//!
//! Faces much smaller than the cloud have normals that the scalar type barely resolves: in `f32`
//! a face `10⁻⁴` across at coordinates near `5` has a normal good to about `0.5 %`. The hull is
//! still correct, but distances to such faces from far away carry that error.
//!
//! ## Polygon faces
//! Quickhull produces triangles. First, *slivers* (triangles less than `ε` high over their longest
//! edge, which exact arithmetic happily keeps and whose rounded normals mean nothing) are glued to
//! the triangle across that edge. Adjacent triangles are then merged greedily, most parallel
//! first, as long as the merged face stays planar within `2ε`. Each merged face must be a single
//! convex loop (a corner may bend inwards by at most `2ε`), and every corner that would be left
//! with only two faces must be straight within `2ε`. Faces that fail are merged again with the
//! check at every step, and in the worst case stay split. Each merged face becomes one polygon, so
//! a box has 6 quads, not 12 triangles. Straight corners lie on the edge between their two faces
//! and are removed, together with any sliver along such an edge, so the result keeps only extreme
//! vertices.
//!
//! ## Output and determinism
//! [`ConvexHull3`] lists the hull vertices in increasing order of their index in the input (with
//! that index), faces as counter-clockwise (seen from outside) loops of vertex indices starting at
//! their lowest index, sorted lexicographically, and an outward unit normal per face (Newell's
//! method). The same input always gives the same output; no hash map or randomness is used.
//!
//! ```
//! use kollide_math::Point3;
//! use kollide_shapes::convex_hull_3d;
//! // A cube with an extra point on one face and one inside.
//! let mut pts: Vec<Point3<f64>> = (0..8)
//!     .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
//!     .collect();
//! pts.push(Point3::new(0.5, 0.5, 1.0));
//! pts.push(Point3::new(0.5, 0.5, 0.5));
//! let hull = convex_hull_3d(&pts).unwrap();
//! assert_eq!(hull.vertices.len(), 8);
//! assert_eq!(hull.faces.len(), 6);
//! assert!(hull.faces.iter().all(|f| f.len() == 4));
//! ```

use kollide_math::{Point3, Scalar, UnitVec3, Vec3};

use crate::{ShapeError, validate};

/// "No face" in the adjacency arrays.
const NONE: u32 = u32::MAX;

/// The convex hull of a point cloud, as returned by [`convex_hull_3d`].
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull3<N: Scalar> {
    /// The hull's vertices, in increasing order of their index in the input cloud.
    pub vertices: Vec<Point3<N>>,
    /// `input_indices[i]` is the index in the input cloud of `vertices[i]`.
    pub input_indices: Vec<usize>,
    /// The faces: each a convex polygon given as indices into `vertices`, counter-clockwise when
    /// seen from outside, starting at its lowest index. Faces are sorted lexicographically.
    pub faces: Vec<Vec<u32>>,
    /// The outward unit normal of each face.
    pub normals: Vec<UnitVec3<N>>,
    /// The tolerance `ε` the hull was built with ([`hull_tolerance_3d`] of the input).
    pub tolerance: N,
}

/// The length `ε` below which [`convex_hull_3d`] treats points as lying on one plane (when
/// merging triangles into faces) and a cloud as flat or straight (degenerate):
/// `128 · machine epsilon · (half the cloud's extent)`, the extent being the longest side of its
/// axis-aligned bounding box.
///
/// It is relative to the cloud's own extent, not to its coordinates: the hull is computed on the
/// points moved so that their bounding box is centred on the origin (each move is one correctly
/// rounded subtraction, so the moved cloud is the same cloud to within an ulp of its extent), and
/// then the rounding error of every plane computation is bounded by the extent (`≈ 1.5e-5` of it
/// in `f32`, `≈ 3e-14` in `f64`). A unit box at `1e6` is as well resolved as one at the origin.
///
/// It is never below a few ulps of the coordinates ([`validate::coordinate_rounding`]), the
/// accuracy of points that a caller computed at that scale.
pub fn hull_tolerance_3d<N: Scalar>(points: &[Point3<N>]) -> N {
    (validate::cloud_extent(points) * N::EPSILON * N::lit(64.0))
        .max_of(validate::coordinate_rounding(points))
}

/// `points` moved so that their axis-aligned bounding box is centred on the origin.
pub(crate) fn centred<N: Scalar>(points: &[Point3<N>]) -> Vec<Point3<N>> {
    let Some(first) = points.first() else { return Vec::new() };
    let (mut lo, mut hi) = (*first, *first);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    let centre = nalgebra::center(&lo, &hi).coords;
    points.iter().map(|p| p - centre).collect()
}

/// The convex hull of `points`, with polygon faces and only extreme vertices.
///
/// Repeated points, points inside and points on faces or edges of the hull are allowed and are
/// simply not vertices of the result.
///
/// Quickhull with exact orientation tests (a floating-point filter with an exact fallback), so the
/// hull's topology is always valid. Coplanar triangles (within `2ε`, [`hull_tolerance_3d`]) are
/// then merged into convex polygon faces, and vertices on straight edges are removed. The output
/// is deterministic: vertices in input order, each face starting at its lowest vertex, faces
/// sorted.
///
/// # Errors
/// * [`ShapeError::TooFewPoints`] for fewer than 4 points;
/// * [`ShapeError::NonFinite`] naming the first point with a NaN or infinite coordinate;
/// * [`ShapeError::Degenerate`] with `"coincident"`, `"collinear"` or `"coplanar"` when the cloud
///   has no volume (it lies within [`hull_tolerance_3d`] of a point, a line or a plane).
pub fn convex_hull_3d<N: Scalar>(points: &[Point3<N>]) -> Result<ConvexHull3<N>, ShapeError> {
    if points.len() < 4 {
        return Err(ShapeError::TooFewPoints { got: points.len(), needed: 4 });
    }
    validate::finite_points(points)?;
    if points.len() >= NONE as usize {
        return Err(ShapeError::Degenerate("too many points for 32-bit indices"));
    }
    let tol = hull_tolerance_3d(points);
    // Every decision is taken on the centred cloud, so that tolerances and rounding scale with
    // the cloud's extent and not with its distance from the origin.
    let moved = centred(points);
    let simplex = initial_simplex(&moved, tol)?;
    let mut b = Builder::new(&moved, tol);
    b.start(simplex);
    b.run();
    let faces = b.polygon_faces();
    Ok(finish(points, &moved, faces, tol))
}

/// One triangle of the hull under construction.
#[derive(Clone, Debug)]
struct Tri<N: Scalar> {
    /// Vertices (input indices), counter-clockwise from outside.
    v: [u32; 3],
    /// `nb[i]` is the triangle across the edge `v[i] → v[i + 1]`.
    nb: [u32; 3],
    /// Outward unit normal.
    n: Vec3<N>,
    /// Plane offset: the plane is `n · x = off`.
    off: N,
    /// The points above this triangle that it is responsible for.
    outside: Vec<u32>,
    alive: bool,
}

/// The outward unit normal and offset of the plane through `a, b, c` (counter-clockwise).
fn plane<N: Scalar>(a: &Point3<N>, b: &Point3<N>, c: &Point3<N>) -> (Vec3<N>, N) {
    let n = (b - a).cross(&(c - a));
    let len = n.norm();
    let n = if len > N::zero() && len.is_finite_value() { n / len } else { Vec3::zeros() };
    let centroid = (a.coords + b.coords + c.coords) / N::lit(3.0);
    (n, n.dot(&centroid))
}

/// Picks four points spanning a tetrahedron, or reports why none exists.
fn initial_simplex<N: Scalar>(pts: &[Point3<N>], tol: N) -> Result<[u32; 4], ShapeError> {
    let mut ext = [0usize; 6];
    for (i, p) in pts.iter().enumerate() {
        for k in 0..3 {
            if p[k] < pts[ext[2 * k]][k] {
                ext[2 * k] = i;
            }
            if p[k] > pts[ext[2 * k + 1]][k] {
                ext[2 * k + 1] = i;
            }
        }
    }
    let (mut i0, mut i1, mut best) = (ext[0], ext[1], N::zero());
    for a in 0..6 {
        for b in (a + 1)..6 {
            let d = (pts[ext[a]] - pts[ext[b]]).norm();
            if d > best {
                (i0, i1, best) = (ext[a], ext[b], d);
            }
        }
    }
    if best <= tol {
        return Err(ShapeError::Degenerate("coincident"));
    }
    let p0 = pts[i0];
    let u = (pts[i1] - p0) / best;
    let (mut i2, mut best) = (0usize, N::zero());
    for (i, p) in pts.iter().enumerate() {
        let d = (p - p0).cross(&u).norm();
        if d > best {
            (i2, best) = (i, d);
        }
    }
    if best <= tol {
        return Err(ShapeError::Degenerate("collinear"));
    }
    let n = (pts[i1] - p0).cross(&(pts[i2] - p0));
    let len = n.norm();
    if len <= N::zero() {
        return Err(ShapeError::Degenerate("collinear"));
    }
    let n = n / len;
    let (mut i3, mut best, mut side) = (0usize, N::zero(), N::zero());
    for (i, p) in pts.iter().enumerate() {
        let d = n.dot(&(p - p0));
        if d.abs() > best {
            (i3, best, side) = (i, d.abs(), d);
        }
    }
    if best <= tol {
        return Err(ShapeError::Degenerate("coplanar"));
    }
    // The fourth point must be below the first face.
    if side > N::zero() {
        core::mem::swap(&mut i1, &mut i2);
    }
    Ok([i0 as u32, i1 as u32, i2 as u32, i3 as u32])
}

/// Why a visible region could not be turned into a fan.
enum HorizonError {
    /// The horizon passes twice through this vertex.
    Pinch(u32),
    /// The horizon is made of several loops, or is empty.
    NotOneLoop,
}

/// The quickhull state.
struct Builder<'a, N: Scalar> {
    pts: &'a [Point3<N>],
    tol: N,
    tris: Vec<Tri<N>>,
    /// Per triangle: the step at which the visibility walk last reached it.
    stamp: Vec<u32>,
    /// Per triangle: part of the current visible region.
    visible: Vec<bool>,
    step: u32,
    /// The points as `f64`, scaled by a power of two so that the largest coordinate is at most
    /// one, for the exact orientation test.
    exact: Vec<[f64; 3]>,
}

impl<'a, N: Scalar> Builder<'a, N> {
    fn new(pts: &'a [Point3<N>], tol: N) -> Self {
        let mut scale = 0.0f64;
        for p in pts {
            for x in p.coords.iter() {
                scale = scale.max(x.to_f64().abs());
            }
        }
        // A power of two, so that scaling is exact.
        let mut factor = 1.0f64;
        while scale * factor > 1.0 {
            factor *= 0.5;
        }
        while scale > 0.0 && scale * factor * 2.0 <= 1.0 && factor < 1e300 {
            factor *= 2.0;
        }
        let exact = pts.iter().map(|p| [0, 1, 2].map(|k| p[k].to_f64() * factor)).collect();
        Self { pts, tol, tris: Vec::new(), stamp: Vec::new(), visible: Vec::new(), step: 0, exact }
    }

    /// `true` when point `p` is strictly above the plane of triangle `t`, decided exactly.
    #[inline]
    fn above(&self, t: usize, p: u32) -> bool {
        let v = self.tris[t].v;
        let e = |i: u32| &self.exact[i as usize];
        exact::orient(e(v[0]), e(v[1]), e(v[2]), e(p)) > 0
    }

    #[inline]
    fn dist(&self, t: usize, p: u32) -> N {
        let t = &self.tris[t];
        t.n.dot(&self.pts[p as usize].coords) - t.off
    }

    fn push_tri(&mut self, v: [u32; 3], nb: [u32; 3]) -> u32 {
        let (n, off) =
            plane(&self.pts[v[0] as usize], &self.pts[v[1] as usize], &self.pts[v[2] as usize]);
        self.tris.push(Tri { v, nb, n, off, outside: Vec::new(), alive: true });
        self.stamp.push(0);
        self.visible.push(false);
        (self.tris.len() - 1) as u32
    }

    /// Builds the first tetrahedron and distributes the other points.
    fn start(&mut self, s: [u32; 4]) {
        let [a, b, c, d] = s;
        for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
            self.push_tri(v, [NONE; 3]);
        }
        for f in 0..4 {
            for i in 0..3 {
                let (x, y) = (self.tris[f].v[i], self.tris[f].v[(i + 1) % 3]);
                for g in 0..4 {
                    if g != f
                        && (0..3)
                            .any(|j| self.tris[g].v[j] == y && self.tris[g].v[(j + 1) % 3] == x)
                    {
                        self.tris[f].nb[i] = g as u32;
                    }
                }
            }
        }
        for p in 0..self.pts.len() as u32 {
            if s.contains(&p) {
                continue;
            }
            for f in 0..4 {
                if self.above(f, p) {
                    self.tris[f].outside.push(p);
                    break;
                }
            }
        }
    }

    /// The main loop: adds eyes until no face has an outside set.
    fn run(&mut self) {
        let mut stack: Vec<u32> = (0..4).rev().collect();
        let mut visible_list: Vec<u32> = Vec::new();
        while let Some(f) = stack.pop() {
            let f = f as usize;
            if !self.tris[f].alive || self.tris[f].outside.is_empty() {
                continue;
            }
            // The eye: the farthest point above f.
            let mut eye = self.tris[f].outside[0];
            let mut best = self.dist(f, eye);
            for k in 1..self.tris[f].outside.len() {
                let p = self.tris[f].outside[k];
                let d = self.dist(f, p);
                if d > best {
                    (eye, best) = (p, d);
                }
            }
            self.step = self.step.wrapping_add(1);
            visible_list.clear();
            self.find_visible(f, eye, &mut visible_list);
            let horizon = match self.horizon(&visible_list) {
                Ok(h) => Some(h),
                Err(_) => self.repair(eye, &mut visible_list),
            };
            let Some(horizon) = horizon else {
                // Give up on this eye: drop it and carry on.
                for &t in &visible_list {
                    self.visible[t as usize] = false;
                }
                self.tris[f].outside.retain(|&p| p != eye);
                stack.push(f as u32);
                continue;
            };
            let first_new = self.add_fan(eye, &horizon);
            // Hand the points of the removed faces to the new ones.
            for &t in &visible_list {
                let t = t as usize;
                let outside = core::mem::take(&mut self.tris[t].outside);
                self.tris[t].alive = false;
                self.visible[t] = false;
                for p in outside {
                    if p == eye {
                        continue;
                    }
                    for k in first_new..self.tris.len() {
                        if self.above(k, p) {
                            self.tris[k].outside.push(p);
                            break;
                        }
                    }
                }
            }
            for k in (first_new..self.tris.len()).rev() {
                if !self.tris[k].outside.is_empty() {
                    stack.push(k as u32);
                }
            }
        }
    }

    /// Breadth-first walk from `f` over the faces whose plane the eye is more than `ε` above.
    fn find_visible(&mut self, f: usize, eye: u32, out: &mut Vec<u32>) {
        self.stamp[f] = self.step;
        self.visible[f] = true;
        out.push(f as u32);
        let mut head = 0;
        while head < out.len() {
            let t = out[head] as usize;
            head += 1;
            for i in 0..3 {
                let g = self.tris[t].nb[i] as usize;
                if self.stamp[g] == self.step {
                    continue;
                }
                self.stamp[g] = self.step;
                if self.above(g, eye) {
                    self.visible[g] = true;
                    out.push(g as u32);
                }
            }
        }
    }

    /// The boundary of the visible region as one loop of `(from, to, outer face)` edges.
    fn horizon(&self, visible_list: &[u32]) -> Result<Vec<(u32, u32, u32)>, HorizonError> {
        let mut edges = Vec::new();
        for &t in visible_list {
            let tri = &self.tris[t as usize];
            for i in 0..3 {
                if !self.visible[tri.nb[i] as usize] {
                    edges.push((tri.v[i], tri.v[(i + 1) % 3], tri.nb[i]));
                }
            }
        }
        if edges.len() < 3 {
            return Err(HorizonError::NotOneLoop);
        }
        let mut by_start: Vec<(u32, usize)> =
            edges.iter().enumerate().map(|(k, e)| (e.0, k)).collect();
        by_start.sort_unstable();
        for w in by_start.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(HorizonError::Pinch(w[0].0));
            }
        }
        let mut ordered = Vec::with_capacity(edges.len());
        let mut cur = 0usize;
        loop {
            ordered.push(edges[cur]);
            let end = edges[cur].1;
            match by_start.binary_search_by_key(&end, |&(s, _)| s) {
                Ok(pos) => cur = by_start[pos].1,
                Err(_) => return Err(HorizonError::NotOneLoop),
            }
            if cur == 0 {
                break;
            }
            if ordered.len() > edges.len() {
                return Err(HorizonError::NotOneLoop);
            }
        }
        if ordered.len() == edges.len() { Ok(ordered) } else { Err(HorizonError::NotOneLoop) }
    }

    /// Grows the visible region until its boundary is a single simple loop (filling holes, and
    /// swallowing the faces around a vertex the horizon passes twice). `None` when that eats the
    /// whole hull.
    fn repair(&mut self, eye: u32, visible_list: &mut Vec<u32>) -> Option<Vec<(u32, u32, u32)>> {
        for _ in 0..64 {
            // Keep only the invisible component facing most away from the eye.
            let mut seed = None;
            let mut lowest = N::zero();
            for t in 0..self.tris.len() {
                if self.tris[t].alive && !self.visible[t] {
                    let d = self.dist(t, eye);
                    if seed.is_none() || d < lowest {
                        (seed, lowest) = (Some(t), d);
                    }
                }
            }
            let seed = seed?;
            self.step = self.step.wrapping_add(1);
            self.stamp[seed] = self.step;
            let mut queue = vec![seed];
            let mut head = 0;
            while head < queue.len() {
                let t = queue[head];
                head += 1;
                for i in 0..3 {
                    let g = self.tris[t].nb[i] as usize;
                    if !self.visible[g] && self.stamp[g] != self.step {
                        self.stamp[g] = self.step;
                        queue.push(g);
                    }
                }
            }
            for t in 0..self.tris.len() {
                if self.tris[t].alive && !self.visible[t] && self.stamp[t] != self.step {
                    self.visible[t] = true;
                    visible_list.push(t as u32);
                }
            }
            match self.horizon(visible_list) {
                Ok(h) => return Some(h),
                Err(HorizonError::Pinch(v)) => {
                    for t in 0..self.tris.len() {
                        if self.tris[t].alive && !self.visible[t] && self.tris[t].v.contains(&v) {
                            self.visible[t] = true;
                            visible_list.push(t as u32);
                        }
                    }
                }
                Err(HorizonError::NotOneLoop) => {}
            }
        }
        None
    }

    /// Closes the hole with triangles from the eye to each horizon edge; returns the first new
    /// triangle's index.
    fn add_fan(&mut self, eye: u32, horizon: &[(u32, u32, u32)]) -> usize {
        let first = self.tris.len();
        let h = horizon.len();
        for (k, &(a, b, outer)) in horizon.iter().enumerate() {
            let next = (first + (k + 1) % h) as u32;
            let prev = (first + (k + h - 1) % h) as u32;
            let t = self.push_tri([a, b, eye], [outer, next, prev]);
            let o = &mut self.tris[outer as usize];
            for j in 0..3 {
                if o.v[j] == b && o.v[(j + 1) % 3] == a {
                    o.nb[j] = t;
                }
            }
        }
        first
    }

    /// Merges coplanar neighbouring triangles into polygons and returns the polygon loops
    /// (input indices, counter-clockwise from outside).
    ///
    /// Pass 0 glues every sliver (a triangle less than `ε` high over its longest edge, whose
    /// rounded normal means nothing) to the triangle across that edge: these *base groups* are
    /// never undone. Pass 1 merges on planarity alone (intermediate unions of a face's triangles
    /// may be non-convex when a point inside the face is still a vertex). Every group is then
    /// checked ([`Groups::valid`]); the base groups of failed groups are merged again with the
    /// check applied at every step, and groups that still fail fall back to their base groups, or
    /// to bare triangles.
    fn polygon_faces(&self) -> Vec<Vec<u32>> {
        let mut g = Groups::new(self);
        let m = g.alive.len();
        for k in 0..m {
            let t = &self.tris[g.alive[k]];
            let p = |i: usize| &self.pts[t.v[i % 3] as usize];
            let (mut longest, mut len) = (0usize, N::zero());
            for i in 0..3 {
                let l = (p(i + 1) - p(i)).norm();
                if l > len {
                    (longest, len) = (i, l);
                }
            }
            if g.area[k].norm() <= self.tol * len {
                let o = g.compact[t.nb[longest] as usize] as usize;
                let (r1, r2) = (g.find(k), g.find(o));
                if r1 != r2 {
                    let s = g.area[r1] + g.area[r2];
                    g.union(r1, r2, s);
                }
            }
        }
        g.base = (0..m).map(|k| g.find(k)).collect();
        // Candidate merges, most parallel first.
        let mut cand: Vec<(N, usize, usize)> = Vec::new();
        for k in 0..m {
            let t = &self.tris[g.alive[k]];
            for i in 0..3 {
                let o = g.compact[t.nb[i] as usize] as usize;
                if k < o {
                    // Slivers have unreliable normals: every pair is tried, in this order.
                    cand.push((t.n.dot(&self.tris[g.alive[o]].n), k, o));
                }
            }
        }
        cand.sort_by(|x, y| {
            y.0.partial_cmp(&x.0)
                .unwrap_or(core::cmp::Ordering::Equal)
                .then((x.1, x.2).cmp(&(y.1, y.2)))
        });
        for &(_, k, o) in &cand {
            let (r1, r2) = (g.find(k), g.find(o));
            if r1 != r2
                && let Some(s) = g.planar(r1, r2)
            {
                g.union(r1, r2, s);
            }
        }
        let mut redo = vec![false; m];
        for r in 0..m {
            if g.find(r) == r && g.valid(r, r, g.area[r]).is_none() {
                for k in g.split(r) {
                    redo[k] = true;
                }
            }
        }
        for &(_, k, o) in &cand {
            if !(redo[k] && redo[o]) {
                continue;
            }
            let (r1, r2) = (g.find(k), g.find(o));
            if r1 == r2 {
                continue;
            }
            let Some(s) = g.planar(r1, r2) else { continue };
            if g.valid(r1, r2, s).is_some() {
                g.union(r1, r2, s);
            }
        }
        let mut faces = Vec::new();
        let roots: Vec<usize> = (0..m).filter(|&r| g.find(r) == r).collect();
        for r in roots {
            let area = g.area[r];
            if let Some(face) = g.valid(r, r, area) {
                faces.push(face);
                continue;
            }
            for k in g.split(r) {
                if g.base[k] != k {
                    continue;
                }
                let area = g.area[k];
                match g.valid(k, k, area) {
                    Some(face) => faces.push(face),
                    None => {
                        for &t in &g.members[k] {
                            faces.push(self.tris[g.alive[t]].v.to_vec());
                        }
                    }
                }
            }
        }
        remove_edge_vertices(&mut faces);
        faces
    }
}

/// Groups of coplanar triangles being merged into polygon faces (a union-find over the final
/// triangles).
struct Groups<'b, 'a, N: Scalar> {
    b: &'b Builder<'a, N>,
    /// The live triangles.
    alive: Vec<usize>,
    /// Triangle index → index in `alive`.
    compact: Vec<u32>,
    parent: Vec<usize>,
    /// Per root: the sum of the triangles' area vectors (twice the area times the normal).
    area: Vec<Vec3<N>>,
    /// Per root: its triangles.
    members: Vec<Vec<usize>>,
    /// (vertex, triangle) pairs sorted by vertex: the triangles around each vertex.
    around: Vec<(u32, usize)>,
    /// Per triangle: the root of its base group (after pass 0).
    base: Vec<usize>,
    tol: N,
}

impl<'b, 'a, N: Scalar> Groups<'b, 'a, N> {
    fn new(b: &'b Builder<'a, N>) -> Self {
        let alive: Vec<usize> = (0..b.tris.len()).filter(|&t| b.tris[t].alive).collect();
        let mut compact = vec![NONE; b.tris.len()];
        for (k, &t) in alive.iter().enumerate() {
            compact[t] = k as u32;
        }
        let m = alive.len();
        let mut g = Self {
            b,
            parent: (0..m).collect(),
            area: vec![Vec3::zeros(); m],
            members: (0..m).map(|k| vec![k]).collect(),
            around: (0..m).flat_map(|k| b.tris[alive[k]].v.map(|v| (v, k))).collect(),
            base: (0..m).collect(),
            alive,
            compact,
            tol: b.tol * N::lit(2.0),
        };
        g.around.sort_unstable();
        for k in 0..m {
            g.area[k] = g.tri_area(k);
        }
        g
    }

    fn tri_area(&self, k: usize) -> Vec3<N> {
        let v = self.b.tris[self.alive[k]].v;
        let p = |i: usize| &self.b.pts[v[i] as usize];
        (p(1) - p(0)).cross(&(p(2) - p(0)))
    }

    fn find(&mut self, k: usize) -> usize {
        find(&mut self.parent, k)
    }

    fn point(&self, v: u32) -> &Point3<N> {
        &self.b.pts[v as usize]
    }

    /// The summed area vector if the union of two groups is planar within the tolerance.
    fn planar(&self, r1: usize, r2: usize) -> Option<Vec3<N>> {
        let s = self.area[r1] + self.area[r2];
        let len = s.norm();
        if len <= N::zero() {
            return None;
        }
        let n = s / len;
        let (mut lo, mut hi) = (N::MAX, -N::MAX);
        for &k in self.members[r1].iter().chain(self.members[r2].iter()) {
            for v in self.b.tris[self.alive[k]].v {
                let d = n.dot(&self.point(v).coords);
                lo = lo.min_of(d);
                hi = hi.max_of(d);
                if hi - lo > self.tol {
                    return None;
                }
            }
        }
        Some(s)
    }

    /// Merges two roots.
    fn union(&mut self, r1: usize, r2: usize, s: Vec3<N>) {
        let (root, other) = if r1 < r2 { (r1, r2) } else { (r2, r1) };
        self.parent[other] = root;
        self.area[root] = s;
        let moved = core::mem::take(&mut self.members[other]);
        self.members[root].extend(moved);
    }

    /// Dissolves a group into its base groups; returns its triangles.
    fn split(&mut self, r: usize) -> Vec<usize> {
        let all = core::mem::take(&mut self.members[r]);
        for &k in &all {
            let b = self.base[k];
            self.parent[k] = b;
            if b == k {
                self.members[b].clear();
                self.area[b] = Vec3::zeros();
            }
        }
        for &k in &all {
            let b = self.base[k];
            self.members[b].push(k);
            let a = self.tri_area(k);
            self.area[b] += a;
        }
        all
    }

    /// The boundary loop of the union of groups `r1` and `r2` (equal for a single group), with
    /// area vector `area`, if it makes a valid polygon face: one simple loop, convex (no corner
    /// bends inwards by more than the tolerance), and every real corner shared by at least three
    /// faces (corners with two faces must be straight, to be removed).
    fn valid(&mut self, r1: usize, r2: usize, area: Vec3<N>) -> Option<Vec<u32>> {
        let mut edges = Vec::new();
        for i in 0..self.members[r1].len() + if r1 == r2 { 0 } else { self.members[r2].len() } {
            let k = if i < self.members[r1].len() {
                self.members[r1][i]
            } else {
                self.members[r2][i - self.members[r1].len()]
            };
            let tri = &self.b.tris[self.alive[k]];
            let (v, nb) = (tri.v, tri.nb);
            for j in 0..3 {
                let o = self.find(self.compact[nb[j] as usize] as usize);
                if o != r1 && o != r2 {
                    edges.push((v[j], v[(j + 1) % 3]));
                }
            }
        }
        let boundary = boundary_loop(&mut edges)?;
        let n = area.try_normalize(N::zero())?;
        let mut roots = Vec::new();
        for i in 0..boundary.len() {
            let a = self.point(boundary[i]);
            let bv = boundary[(i + 1) % boundary.len()];
            let b = self.point(bv);
            let c = self.point(boundary[(i + 2) % boundary.len()]);
            let chord = (c - a).norm();
            let turn = (b - a).cross(&(c - b)).dot(&n);
            if turn < -self.tol * chord {
                return None;
            }
            if turn > self.tol * chord {
                let lo = self.around.partition_point(|e| e.0 < bv);
                roots.clear();
                for j in lo..self.around.len() {
                    let (v, t) = self.around[j];
                    if v != bv {
                        break;
                    }
                    let root = self.find(t);
                    let root = if root == r2 { r1 } else { root };
                    if !roots.contains(&root) {
                        roots.push(root);
                    }
                }
                if roots.len() < 3 {
                    return None;
                }
            }
        }
        Some(boundary)
    }
}

/// Union-find root with path halving.
fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Chains directed edges into one simple loop, or `None`.
fn boundary_loop(edges: &mut [(u32, u32)]) -> Option<Vec<u32>> {
    if edges.len() < 3 {
        return None;
    }
    edges.sort_unstable();
    if edges.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let start = edges[0].0;
    let mut out = vec![start];
    let mut cur = edges[0].1;
    while cur != start {
        if out.len() >= edges.len() {
            return None;
        }
        out.push(cur);
        let pos = edges.binary_search_by_key(&cur, |e| e.0).ok()?;
        cur = edges[pos].1;
    }
    (out.len() == edges.len()).then_some(out)
}

/// Removes vertices that belong to only two faces: they lie on the straight edge between them
/// (the merge checks guarantee it). When one of the two faces is a triangle, that triangle is a
/// sliver along the edge: it is deleted, and the other face takes over its third edge.
fn remove_edge_vertices(faces: &mut Vec<Vec<u32>>) {
    let passes = faces.iter().map(Vec::len).sum::<usize>();
    for _ in 0..=passes {
        let mut incident: Vec<(u32, usize)> = Vec::new();
        for (f, face) in faces.iter().enumerate() {
            for &v in face {
                incident.push((v, f));
            }
        }
        incident.sort_unstable();
        // Faces whose deletion changed other vertices' counts: wait for the next pass.
        let mut touched = vec![false; faces.len()];
        let mut changed = false;
        for w in incident.chunk_by(|a, b| a.0 == b.0) {
            if w.len() != 2 {
                continue;
            }
            let (v, f, g) = (w[0].0, w[0].1, w[1].1);
            if touched[f] || touched[g] || (faces[f].len() == 3 && faces[g].len() == 3) {
                continue;
            }
            changed = true;
            for h in [f, g] {
                if faces[h].len() == 3 {
                    faces[h].clear();
                    touched[f] = true;
                    touched[g] = true;
                } else {
                    faces[h].retain(|&x| x != v);
                }
            }
        }
        faces.retain(|f| !f.is_empty());
        if !changed {
            break;
        }
    }
}

/// Newell's normal of a polygon loop, computed around its centroid.
pub(crate) fn polygon_normal<N: Scalar>(pts: &[Point3<N>], face: &[u32]) -> UnitVec3<N> {
    let mut c = Vec3::zeros();
    for &v in face {
        c += pts[v as usize].coords;
    }
    c /= N::from_count(face.len().max(1));
    let mut n = Vec3::zeros();
    for k in 0..face.len() {
        let a = pts[face[k] as usize].coords - c;
        let b = pts[face[(k + 1) % face.len()] as usize].coords - c;
        n += a.cross(&b);
    }
    UnitVec3::try_new(n, N::zero()).unwrap_or_else(|| UnitVec3::new_unchecked(Vec3::y()))
}

/// Renumbers the vertices by input order and puts the faces in canonical form.
fn finish<N: Scalar>(
    pts: &[Point3<N>],
    moved: &[Point3<N>],
    faces: Vec<Vec<u32>>,
    tol: N,
) -> ConvexHull3<N> {
    let mut input_indices: Vec<usize> = faces.iter().flatten().map(|&v| v as usize).collect();
    input_indices.sort_unstable();
    input_indices.dedup();
    let mut map = vec![NONE; pts.len()];
    for (i, &v) in input_indices.iter().enumerate() {
        map[v] = i as u32;
    }
    let vertices: Vec<Point3<N>> = input_indices.iter().map(|&i| pts[i]).collect();
    let mut faces: Vec<Vec<u32>> = faces
        .into_iter()
        .map(|f| {
            let mut f: Vec<u32> = f.into_iter().map(|v| map[v as usize]).collect();
            if let Some(pos) = f.iter().enumerate().min_by_key(|(_, v)| **v).map(|(i, _)| i) {
                f.rotate_left(pos);
            }
            f
        })
        .collect();
    faces.sort();
    // Normals from the centred cloud: Newell's sums then carry errors of the extent's size only.
    let moved: Vec<Point3<N>> = input_indices.iter().map(|&i| moved[i]).collect();
    let normals = faces.iter().map(|f| polygon_normal(&moved, f)).collect();
    ConvexHull3 { vertices, input_indices, faces, normals, tolerance: tol }
}

/// Exact orientation of four points, after Shewchuk ("Adaptive Precision Floating-Point
/// Arithmetic and Fast Robust Geometric Predicates", Discrete Comput. Geom. 18, 1997): a
/// floating-point evaluation with a forward error bound, and when that is inconclusive an exact
/// evaluation with *expansions* (sums of non-overlapping doubles, built with the error-free
/// transformations `two_sum` and `two_product`).
mod exact {
    /// Half an ulp of one: the unit roundoff of `f64`.
    const EPS: f64 = f64::EPSILON * 0.5;

    #[inline]
    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let x = a + b;
        let bv = x - a;
        let av = x - bv;
        (x, (a - av) + (b - bv))
    }

    #[inline]
    fn two_diff(a: f64, b: f64) -> (f64, f64) {
        let x = a - b;
        let bv = a - x;
        let av = x + bv;
        (x, (a - av) + (bv - b))
    }

    #[inline]
    fn two_product(a: f64, b: f64) -> (f64, f64) {
        let x = a * b;
        (x, a.mul_add(b, -x))
    }

    /// `e + b` for an expansion `e` (increasing magnitude), dropping zero components.
    fn grow(e: &[f64], b: f64) -> Vec<f64> {
        let mut q = b;
        let mut h = Vec::with_capacity(e.len() + 1);
        for &x in e {
            let (s, err) = two_sum(q, x);
            if err != 0.0 {
                h.push(err);
            }
            q = s;
        }
        if q != 0.0 {
            h.push(q);
        }
        h
    }

    fn sum(e: &[f64], f: &[f64]) -> Vec<f64> {
        let mut h = e.to_vec();
        for &b in f {
            h = grow(&h, b);
        }
        h
    }

    /// `e · b` for an expansion `e`.
    fn scale(e: &[f64], b: f64) -> Vec<f64> {
        let mut h = Vec::with_capacity(2 * e.len());
        let Some((&e0, rest)) = e.split_first() else { return h };
        let (mut q, h0) = two_product(e0, b);
        if h0 != 0.0 {
            h.push(h0);
        }
        for &x in rest {
            let (big, small) = two_product(x, b);
            let (s, err) = two_sum(q, small);
            if err != 0.0 {
                h.push(err);
            }
            let (s2, err2) = two_sum(big, s);
            if err2 != 0.0 {
                h.push(err2);
            }
            q = s2;
        }
        if q != 0.0 {
            h.push(q);
        }
        h
    }

    fn mul(e: &[f64], f: &[f64]) -> Vec<f64> {
        let mut h = Vec::new();
        for &b in f {
            h = sum(&h, &scale(e, b));
        }
        h
    }

    fn diff(a: f64, b: f64) -> Vec<f64> {
        let (x, y) = two_diff(a, b);
        [y, x].into_iter().filter(|v| *v != 0.0).collect()
    }

    fn neg(e: &[f64]) -> Vec<f64> {
        e.iter().map(|x| -x).collect()
    }

    /// The sign (−1, 0 or 1) of `((b − a) × (c − a)) · (p − a)`: positive when `p` is above the
    /// plane of the counter-clockwise triangle `a, b, c`.
    pub(super) fn orient(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], p: &[f64; 3]) -> i32 {
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let w = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
        // u · (v × w) equals (u × v) · w.
        let det = u[0] * (v[1] * w[2] - v[2] * w[1])
            + u[1] * (v[2] * w[0] - v[0] * w[2])
            + u[2] * (v[0] * w[1] - v[1] * w[0]);
        let permanent = u[0].abs() * ((v[1] * w[2]).abs() + (v[2] * w[1]).abs())
            + u[1].abs() * ((v[2] * w[0]).abs() + (v[0] * w[2]).abs())
            + u[2].abs() * ((v[0] * w[1]).abs() + (v[1] * w[0]).abs());
        let bound = (8.0 + 64.0 * EPS) * EPS * permanent;
        if det > bound {
            return 1;
        }
        if -det > bound {
            return -1;
        }
        let u: [Vec<f64>; 3] = [0, 1, 2].map(|k| diff(b[k], a[k]));
        let v: [Vec<f64>; 3] = [0, 1, 2].map(|k| diff(c[k], a[k]));
        let w: [Vec<f64>; 3] = [0, 1, 2].map(|k| diff(p[k], a[k]));
        let cross = |i: usize, j: usize| sum(&mul(&v[i], &w[j]), &neg(&mul(&v[j], &w[i])));
        let total = sum(
            &sum(&mul(&u[0], &cross(1, 2)), &mul(&u[1], &cross(2, 0))),
            &mul(&u[2], &cross(0, 1)),
        );
        match total.iter().rev().find(|x| **x != 0.0) {
            Some(x) if *x > 0.0 => 1,
            Some(_) => -1,
            None => 0,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::orient;
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;

        fn exact_i128(p: [[i64; 3]; 4]) -> i32 {
            let d = |i: usize, k: usize| (p[i][k] - p[0][k]) as i128;
            let det = d(1, 0) * (d(2, 1) * d(3, 2) - d(2, 2) * d(3, 1))
                + d(1, 1) * (d(2, 2) * d(3, 0) - d(2, 0) * d(3, 2))
                + d(1, 2) * (d(2, 0) * d(3, 1) - d(2, 1) * d(3, 0));
            det.signum() as i32
        }

        #[test]
        fn matches_integer_arithmetic_on_nearly_coplanar_points() {
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let mut inconclusive = 0;
            for _ in 0..20000 {
                // Large coordinates with small, nearly coplanar offsets: the float filter fails.
                let base: [i64; 3] =
                    [0, 1, 2].map(|_| rng.random_range(-(1i64 << 40)..(1i64 << 40)));
                let e1: [i64; 3] = [0, 1, 2].map(|_| rng.random_range(-1000..1000));
                let e2: [i64; 3] = [0, 1, 2].map(|_| rng.random_range(-1000..1000));
                let (s, t) = (rng.random_range(-3..4), rng.random_range(-3..4));
                let bump: [i64; 3] = [0, 1, 2].map(|_| rng.random_range(-1..=1));
                let p = [
                    base,
                    [0, 1, 2].map(|k| base[k] + e1[k]),
                    [0, 1, 2].map(|k| base[k] + e2[k]),
                    [0, 1, 2].map(|k| base[k] + s * e1[k] + t * e2[k] + bump[k]),
                ];
                let f = p.map(|q| q.map(|x| x as f64));
                let got = orient(&f[0], &f[1], &f[2], &f[3]);
                assert_eq!(got, exact_i128(p), "{p:?}");
                inconclusive += (got == 0) as usize;
            }
            assert!(inconclusive > 100, "exactly coplanar cases are exercised");
        }

        #[test]
        fn fractional_coordinates() {
            // 0.1 is not representable, but the test is exact for the stored values.
            let a = [0.1, 0.2, 0.3];
            let b = [0.4, 0.5, 0.6];
            let c = [0.7, 0.8, 1.9];
            let mid = [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5, (a[2] + b[2]) * 0.5];
            assert_eq!(orient(&a, &b, &c, &a), 0);
            let s = orient(&a, &b, &c, &mid);
            assert!(s.abs() <= 1);
            assert_eq!(
                orient(&a, &b, &c, &[0.0, 0.0, 10.0]),
                -orient(&b, &a, &c, &[0.0, 0.0, 10.0])
            );
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use kollide_math::Rot3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    pub(crate) fn p3<N: Scalar>(x: f64, y: f64, z: f64) -> Point3<N> {
        Point3::new(N::lit(x), N::lit(y), N::lit(z))
    }

    /// `n` points on the unit sphere (Fibonacci lattice), all extreme.
    pub(crate) fn sphere_points<N: Scalar>(n: usize) -> Vec<Point3<N>> {
        let golden = core::f64::consts::PI * (3.0 - 5.0f64.sqrt());
        (0..n)
            .map(|i| {
                let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let r = (1.0 - y * y).sqrt();
                let a = golden * i as f64;
                p3(r * a.cos(), y, r * a.sin())
            })
            .collect()
    }

    /// The kinds of clouds the hull is tested on.
    #[derive(Clone, Copy, Debug)]
    pub(crate) enum Cloud {
        Uniform,
        Sphere,
        Grid,
        RotatedGrid,
        Flat,
        Duplicates,
        Clustered,
    }

    pub(crate) fn cloud<N: Scalar>(kind: Cloud, rng: &mut ChaCha8Rng) -> Vec<Point3<N>> {
        let n = rng.random_range(4..=300usize);
        let center = Vec3::new(
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
        );
        fn u(rng: &mut ChaCha8Rng) -> f64 {
            rng.random_range(-1.0f64..1.0)
        }
        let pts: Vec<Vec3<f64>> = match kind {
            Cloud::Uniform => (0..n).map(|_| Vec3::new(u(rng), u(rng), u(rng))).collect(),
            Cloud::Sphere => (0..n)
                .map(|_| {
                    loop {
                        let v = Vec3::new(u(rng), u(rng), u(rng));
                        if v.norm() > 0.1 {
                            break v.normalize();
                        }
                    }
                })
                .collect(),
            Cloud::Grid | Cloud::RotatedGrid => {
                let dims = [rng.random_range(2..6), rng.random_range(2..6), rng.random_range(2..6)];
                let size = Vec3::new(
                    rng.random_range(0.2..2.0),
                    rng.random_range(0.2..2.0),
                    rng.random_range(0.2..2.0),
                );
                let rot = if matches!(kind, Cloud::RotatedGrid) {
                    Rot3::from_scaled_axis(Vec3::new(
                        rng.random_range(-3.0..3.0),
                        rng.random_range(-3.0..3.0),
                        rng.random_range(-3.0..3.0),
                    ))
                } else {
                    Rot3::identity()
                };
                let mut out = Vec::new();
                for i in 0..dims[0] {
                    for j in 0..dims[1] {
                        for k in 0..dims[2] {
                            let v = Vec3::new(
                                size.x * (i as f64 / (dims[0] - 1) as f64 - 0.5),
                                size.y * (j as f64 / (dims[1] - 1) as f64 - 0.5),
                                size.z * (k as f64 / (dims[2] - 1) as f64 - 0.5),
                            );
                            out.push(rot * v);
                        }
                    }
                }
                // Shuffle deterministically.
                for i in (1..out.len()).rev() {
                    out.swap(i, rng.random_range(0..=i));
                }
                out
            }
            Cloud::Flat => {
                let t = if rng.random_bool(0.5) { 1e-3 } else { 1e-2 };
                let rot = Rot3::from_scaled_axis(Vec3::new(u(rng), u(rng), u(rng)));
                (0..n).map(|_| rot * Vec3::new(u(rng), u(rng), u(rng) * t)).collect()
            }
            Cloud::Duplicates => {
                let base: Vec<Vec3<f64>> =
                    (0..n / 3 + 4).map(|_| Vec3::new(u(rng), u(rng), u(rng))).collect();
                (0..n).map(|i| base[i % base.len()]).collect()
            }
            Cloud::Clustered => (0..n.max(8))
                .map(|i| {
                    let c = Vec3::new((i % 2) as f64, ((i / 2) % 2) as f64, ((i / 4) % 2) as f64);
                    // Clusters a few hundred ε wide: tiny faces whose normals f32 barely resolves.
                    c + Vec3::new(u(rng), u(rng), u(rng)) * (N::EPSILON.to_f64().sqrt() * 10.0)
                })
                .collect(),
        };
        pts.into_iter().map(|v| Point3::from((v + center).map(N::lit))).collect()
    }

    /// Every property a hull must have; returns `(V, E, F)`.
    pub(crate) fn check_hull<N: Scalar>(
        pts: &[Point3<N>],
        hull: &ConvexHull3<N>,
    ) -> (usize, usize, usize) {
        let tol = hull.tolerance.to_f64();
        let v = |i: u32| hull.vertices[i as usize].coords.map(|x| x.to_f64());
        let nv = hull.vertices.len();
        assert!(nv >= 4 && hull.faces.len() >= 4);
        assert_eq!(hull.input_indices.len(), nv);
        for (i, &k) in hull.input_indices.iter().enumerate() {
            assert_eq!(hull.vertices[i], pts[k], "hull vertices come from the input");
            if i > 0 {
                assert!(hull.input_indices[i - 1] < k);
            }
        }
        let centroid =
            hull.vertices.iter().map(|p| p.coords.map(|x| x.to_f64())).sum::<Vec3<f64>>()
                / nv as f64;
        let mut directed = Vec::new();
        let mut degree = vec![0usize; nv];
        for (f, face) in hull.faces.iter().enumerate() {
            assert!(face.len() >= 3);
            assert_eq!(face[0], *face.iter().min().unwrap());
            let n = hull.normals[f].into_inner().map(|x| x.to_f64());
            assert!((n.norm() - 1.0).abs() < 1e-5);
            let ds: Vec<f64> = face.iter().map(|&i| n.dot(&v(i))).collect();
            let (lo, hi) = ds.iter().fold((f64::MAX, f64::MIN), |(a, b), &d| (a.min(d), b.max(d)));
            assert!(hi - lo <= 8.0 * tol, "face {f} is not planar: {}", hi - lo);
            let fc = face.iter().map(|&i| v(i)).sum::<Vec3<f64>>() / face.len() as f64;
            assert!(
                n.dot(&(fc - centroid)) > 0.0,
                "face {f} is not outward: {} {face:?} n {n:?} tol {tol} nv {nv}",
                n.dot(&(fc - centroid))
            );
            for k in 0..face.len() {
                let (a, b, c) =
                    (v(face[k]), v(face[(k + 1) % face.len()]), v(face[(k + 2) % face.len()]));
                let turn = (b - a).cross(&(c - b)).dot(&n);
                assert!(
                    turn > -8.0 * tol * (b - a).norm().max((c - b).norm()),
                    "face {f} ({} vertices) is not convex: turn {turn}, edges {} {}",
                    face.len(),
                    (b - a).norm(),
                    (c - b).norm()
                );
                directed.push((face[k], face[(k + 1) % face.len()]));
                degree[face[k] as usize] += 1;
            }
        }
        // Every directed edge once, with its twin: a closed 2-manifold.
        directed.sort_unstable();
        assert!(directed.windows(2).all(|w| w[0] != w[1]));
        for &(a, b) in &directed {
            assert!(directed.binary_search(&(b, a)).is_ok());
        }
        assert!(degree.iter().all(|&d| d >= 3), "every vertex is a corner of 3 faces");
        let (e, f) = (directed.len() / 2, hull.faces.len());
        assert_eq!(nv + f, e + 2, "Euler's formula");
        // Every input point inside or on the hull.
        for p in pts {
            let p = p.coords.map(|x| x.to_f64());
            for (fi, face) in hull.faces.iter().enumerate() {
                let n = hull.normals[fi].into_inner().map(|x| x.to_f64());
                let d = n.dot(&(p - v(face[0])));
                assert!(d <= 16.0 * tol, "point outside face {fi} by {d} (tol {tol})");
            }
        }
        (nv, e, f)
    }

    fn random_clouds<N: Scalar>(seed: u64, per_kind: usize) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let kinds = [
            Cloud::Uniform,
            Cloud::Sphere,
            Cloud::Grid,
            Cloud::RotatedGrid,
            Cloud::Flat,
            Cloud::Duplicates,
            Cloud::Clustered,
        ];
        for kind in kinds {
            for _ in 0..per_kind {
                let pts = cloud::<N>(kind, &mut rng);
                match convex_hull_3d(&pts) {
                    Ok(hull) => {
                        let (nv, _, f) = check_hull(&pts, &hull);
                        if matches!(kind, Cloud::Grid | Cloud::RotatedGrid) {
                            assert_eq!((nv, f), (8, 6), "{kind:?}");
                        }
                        if matches!(kind, Cloud::Clustered)
                            && pts.len() >= 8
                            && N::EPSILON.to_f64() < 1e-10
                        {
                            assert!(nv >= 8);
                        }
                        assert_eq!(convex_hull_3d(&pts).unwrap(), hull, "deterministic");
                    }
                    Err(e) => panic!("{kind:?} cloud of {} points failed: {e}", pts.len()),
                }
            }
        }
    }

    #[test]
    fn random_clouds_f64() {
        random_clouds::<f64>(1, 60);
    }

    #[test]
    fn random_clouds_f32() {
        random_clouds::<f32>(2, 60);
    }

    fn grid_cube<N: Scalar>(n: usize) -> Vec<Point3<N>> {
        let mut pts = Vec::new();
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let c = |x: usize| -1.0 + 2.0 * x as f64 / (n - 1) as f64;
                    pts.push(p3(c(i), c(j), c(k)));
                }
            }
        }
        pts
    }

    fn cube_grid_gives_a_cube<N: Scalar>() {
        let pts = grid_cube::<N>(5);
        let hull = convex_hull_3d(&pts).unwrap();
        check_hull(&pts, &hull);
        assert_eq!(hull.vertices.len(), 8);
        assert_eq!(hull.faces.len(), 6);
        assert!(hull.faces.iter().all(|f| f.len() == 4));
        assert_eq!(hull.input_indices, vec![0, 4, 20, 24, 100, 104, 120, 124]);
        for n in &hull.normals {
            let n = n.into_inner().map(|x| x.to_f64());
            assert!(n.iter().filter(|x| x.abs() > 1.0 - 1e-6).count() == 1);
        }
    }

    #[test]
    fn cube_grid() {
        cube_grid_gives_a_cube::<f32>();
        cube_grid_gives_a_cube::<f64>();
    }

    fn sphere_keeps_every_point<N: Scalar>() {
        let pts = sphere_points::<N>(256);
        let hull = convex_hull_3d(&pts).unwrap();
        check_hull(&pts, &hull);
        assert_eq!(hull.vertices.len(), 256);
    }

    #[test]
    fn sphere() {
        sphere_keeps_every_point::<f32>();
        sphere_keeps_every_point::<f64>();
    }

    #[test]
    fn octahedron_and_prism() {
        let oct: Vec<Point3<f64>> = vec![
            p3(1.0, 0.0, 0.0),
            p3(-1.0, 0.0, 0.0),
            p3(0.0, 1.0, 0.0),
            p3(0.0, -1.0, 0.0),
            p3(0.0, 0.0, 1.0),
            p3(0.0, 0.0, -1.0),
            p3(0.0, 0.0, 0.0),
        ];
        let hull = convex_hull_3d(&oct).unwrap();
        assert_eq!(check_hull(&oct, &hull), (6, 12, 8));
        // A hexagonal prism with points on its side faces and edges.
        let mut prism: Vec<Point3<f32>> = Vec::new();
        for k in 0..6 {
            let a = core::f64::consts::TAU * k as f64 / 6.0;
            for z in [-1.0, -0.5, 0.0, 1.0] {
                prism.push(p3(a.cos(), a.sin(), z));
            }
        }
        prism.push(p3(0.0, 0.0, 1.0));
        let hull = convex_hull_3d(&prism).unwrap();
        assert_eq!(check_hull(&prism, &hull), (12, 18, 8));
    }

    #[test]
    fn permuted_input_gives_the_same_shape() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let pts = cloud::<f64>(Cloud::Uniform, &mut rng);
        let hull = convex_hull_3d(&pts).unwrap();
        let mut rev = pts.clone();
        rev.reverse();
        let hull2 = convex_hull_3d(&rev).unwrap();
        let mut a: Vec<usize> = hull.input_indices.clone();
        let mut b: Vec<usize> = hull2.input_indices.iter().map(|&i| pts.len() - 1 - i).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_eq!(hull.faces.len(), hull2.faces.len());
    }

    #[test]
    fn nearly_flat_cloud_has_volume() {
        let mut pts: Vec<Point3<f64>> =
            grid_cube::<f64>(4).iter().map(|p| p3(p.x, p.y, 0.0)).collect();
        pts.push(p3(0.0, 0.0, 1e-9));
        let hull = convex_hull_3d(&pts).unwrap();
        check_hull(&pts, &hull);
        assert_eq!(hull.vertices.len(), 5);
        // Below the tolerance it is flat.
        pts.pop();
        pts.push(p3(0.0, 0.0, 1e-15));
        assert_eq!(convex_hull_3d(&pts), Err(ShapeError::Degenerate("coplanar")));
    }

    fn cube_corners() -> Vec<[f64; 3]> {
        (0..8).map(|i| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64]).collect()
    }

    #[rstest]
    #[case::nan(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, f64::NAN, 0.0], [0.0, 0.0, 1.0]],
        ShapeError::NonFinite { what: "point 2".into() })]
    #[case::infinite(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, f64::INFINITY]],
        ShapeError::NonFinite { what: "point 3".into() })]
    #[case::three_points(vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        ShapeError::TooFewPoints { got: 3, needed: 4 })]
    #[case::empty(vec![], ShapeError::TooFewPoints { got: 0, needed: 4 })]
    #[case::coincident(vec![[1.0, 2.0, 3.0]; 5], ShapeError::Degenerate("coincident"))]
    #[case::collinear(vec![[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [-3.0, -3.0, -3.0], [0.5, 0.5, 0.5]],
        ShapeError::Degenerate("collinear"))]
    #[case::coplanar(vec![[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [0.3, 0.2, 1.0]],
        ShapeError::Degenerate("coplanar"))]
    #[case::tilted_coplanar(cube_corners().into_iter().filter(|c| c[0] == c[2]).collect(),
        ShapeError::Degenerate("coplanar"))]
    fn errors(#[case] pts: Vec<[f64; 3]>, #[case] expected: ShapeError) {
        let p64: Vec<Point3<f64>> = pts.iter().map(|c| p3(c[0], c[1], c[2])).collect();
        assert_eq!(convex_hull_3d(&p64), Err(expected.clone()));
        let p32: Vec<Point3<f32>> = pts.iter().map(|c| p3(c[0], c[1], c[2])).collect();
        assert_eq!(convex_hull_3d(&p32), Err(expected));
    }
}
