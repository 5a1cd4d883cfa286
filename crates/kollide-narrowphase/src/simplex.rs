//! The GJK simplex and its closest point to the origin, written once for 2D and 3D.
//!
//! A simplex here is 1 to `D + 1` points of the Minkowski difference, by default each kept with
//! its two witness points. [`Simplex::reduce`] finds the point of the simplex closest to the
//! origin, drops the vertices that do not contribute to it, and stores the barycentric weights of
//! the rest, so the same weights give the closest points on A and B.
//!
//! The vertex type is a parameter ([`SimplexVertex`]): a query that needs no witnesses (a ray
//! against one shape) stores the bare points (`Vector<N, D>`), so that the copies the reduction
//! makes move three numbers per vertex instead of nine. The arithmetic on the points is the same
//! for both, so both give bit-identical closest points.
//!
//! The sub-cases follow Ericson, *Real-Time Collision Detection* (2005), §5.1: a segment and a
//! triangle are solved with dot products only (Voronoi regions by barycentric signs), so the same
//! code serves 2D and 3D. In 2D a triangle that survives whole contains the origin; in 3D a
//! tetrahedron is tested face by face, and only faces whose plane separates the origin from the
//! opposite vertex are searched.

use kollide_math::{Scalar, Vec3, Vector};
use kollide_shapes::SupportPoint;

/// What a [`Simplex`] stores per vertex: a point of the CSO, possibly with more data (such as
/// witness points) that the reduction carries along without reading.
pub trait SimplexVertex<N: Scalar, const D: usize>: Copy {
    /// The point of the CSO.
    fn point(&self) -> &Vector<N, D>;
    /// The vertex for a support point of the CSO (keeping what this vertex type keeps).
    fn from_support(p: &SupportPoint<N, D>) -> Self;
}

impl<N: Scalar, const D: usize> SimplexVertex<N, D> for SupportPoint<N, D> {
    #[inline(always)]
    fn point(&self) -> &Vector<N, D> {
        &self.point
    }
    #[inline(always)]
    fn from_support(p: &SupportPoint<N, D>) -> Self {
        *p
    }
}

impl<N: Scalar, const D: usize> SimplexVertex<N, D> for Vector<N, D> {
    #[inline(always)]
    fn point(&self) -> &Vector<N, D> {
        self
    }
    #[inline(always)]
    fn from_support(p: &SupportPoint<N, D>) -> Self {
        p.point
    }
}

/// Up to four vertices (a tetrahedron in 3D, a triangle in 2D) with barycentric weights. The
/// vertices are [`SupportPoint`]s (with witnesses) unless `V` says otherwise.
#[derive(Clone, Copy, Debug)]
pub struct Simplex<N: Scalar, const D: usize, V = SupportPoint<N, D>> {
    pts: [V; 4],
    bary: [N; 4],
    len: usize,
}

impl<N: Scalar, const D: usize, V: SimplexVertex<N, D>> Simplex<N, D, V> {
    /// A simplex holding one point.
    pub fn new(p: V) -> Self {
        Self { pts: [p; 4], bary: [N::one(), N::zero(), N::zero(), N::zero()], len: 1 }
    }

    /// The number of points (1 to `D + 1`).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always `false`: a simplex has at least one point.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The points.
    pub fn points(&self) -> &[V] {
        &self.pts[..self.len]
    }

    /// The barycentric weights of the closest point, one per point (they sum to one).
    pub fn weights(&self) -> &[N] {
        &self.bary[..self.len]
    }

    /// Appends a point. The caller keeps `len ≤ D + 1`.
    pub fn push(&mut self, p: V) {
        debug_assert!(self.len <= D);
        self.pts[self.len] = p;
        self.bary[self.len] = N::zero();
        self.len += 1;
    }

    /// `true` when `p` is (exactly) one of the points.
    pub fn contains(&self, p: &Vector<N, D>) -> bool {
        self.points().iter().any(|q| q.point() == p)
    }

    /// The closest point alone (no witnesses), from the current weights.
    #[inline]
    pub fn closest_point(&self) -> Vector<N, D> {
        let mut v = Vector::zeros();
        for (p, w) in self.points().iter().zip(self.weights()) {
            v += p.point() * *w;
        }
        v
    }

    /// Reduces the simplex to the smallest sub-simplex containing its closest point to the
    /// origin and sets the weights. Returns `true` when the full simplex (`D + 1` points)
    /// contains the origin.
    #[inline]
    pub fn reduce(&mut self) -> bool {
        self.reduce_to_closest().0
    }

    /// [`Self::reduce`], also returning the closest point: the same vector as
    /// [`Self::closest_point`] afterwards (the same products summed in the same order), but
    /// computed from the points the reduction already holds in registers rather than read back
    /// from the stored simplex, which GJK's next support query waits for.
    #[cfg_attr(not(debug_assertions), inline)]
    #[cfg_attr(debug_assertions, inline(never))]
    pub fn reduce_to_closest(&mut self) -> (bool, Vector<N, D>) {
        match self.len {
            1 => {
                self.bary[0] = N::one();
                (false, weighted(&[(self.pts[0].point(), N::one())]))
            }
            2 => (false, self.reduce_segment(0, 1)),
            3 => {
                let (inside, v) = self.reduce_triangle(0, 1, 2);
                (inside && D == 2, v)
            }
            _ => {
                let inside = self.reduce_tetrahedron();
                (inside, self.closest_point())
            }
        }
    }

    /// [`Self::push`] then [`Self::reduce_to_closest`], with the new point's coordinates taken
    /// from `p` itself rather than read back from the simplex just written: GJK's next support
    /// query waits on this reduction, and a read of a vertex just stored piecewise (a point with
    /// its witnesses) would first wait for the store.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline(never))]
    pub fn push_and_reduce(&mut self, p: V) -> (bool, Vector<N, D>) {
        let new = *p.point();
        self.push(p);
        match self.len {
            2 => (false, self.reduce_segment_of(0, 1, *self.pts[0].point(), new)),
            3 => {
                let (a, b) = (*self.pts[0].point(), *self.pts[1].point());
                let (inside, v) = self.reduce_triangle_of(0, 1, 2, a, b, new);
                (inside && D == 2, v)
            }
            _ => self.reduce_to_closest(),
        }
    }

    #[inline(always)]
    fn set(&mut self, idx: &[usize], w: &[N]) {
        if idx.windows(2).all(|p| p[0] < p[1]) {
            // Increasing indices (`idx[k] ≥ k`): moving forward in place never overwrites a
            // point still to be read, and saves copying the whole array.
            for (k, &i) in idx.iter().enumerate() {
                self.pts[k] = self.pts[i];
                self.bary[k] = w[k];
            }
        } else {
            // Only the faces of a tetrahedron list their indices out of order (3D): copy the
            // (at most three) kept points aside rather than the whole array.
            let mut kept = [self.pts[0]; 4];
            for (k, &i) in idx.iter().enumerate() {
                kept[k] = self.pts[i];
                self.bary[k] = w[k];
            }
            self.pts[..idx.len()].copy_from_slice(&kept[..idx.len()]);
        }
        self.len = idx.len();
    }

    /// Reduces to the closest feature of segment `ij` and returns the closest point.
    #[inline]
    fn reduce_segment(&mut self, i: usize, j: usize) -> Vector<N, D> {
        let (a, b) = (*self.pts[i].point(), *self.pts[j].point());
        self.reduce_segment_of(i, j, a, b)
    }

    /// [`Self::reduce_segment`] with the points `a` (vertex `i`) and `b` (vertex `j`) given.
    #[inline(always)]
    fn reduce_segment_of(
        &mut self,
        i: usize,
        j: usize,
        a: Vector<N, D>,
        b: Vector<N, D>,
    ) -> Vector<N, D> {
        let ab = b - a;
        let t = -a.dot(&ab);
        if t <= N::zero() {
            self.set(&[i], &[N::one()]);
            return weighted(&[(&a, N::one())]);
        }
        let denom = ab.norm_squared();
        if t >= denom {
            self.set(&[j], &[N::one()]);
            return weighted(&[(&b, N::one())]);
        }
        let t = t / denom;
        self.set(&[i, j], &[N::one() - t, t]);
        weighted(&[(&a, N::one() - t), (&b, t)])
    }

    /// Ericson's closest point on triangle, with the origin as the query point. Returns `true` when
    /// the closest point is in the interior of the face, and the closest point.
    fn reduce_triangle(&mut self, i: usize, j: usize, k: usize) -> (bool, Vector<N, D>) {
        let (a, b, c) = (*self.pts[i].point(), *self.pts[j].point(), *self.pts[k].point());
        self.reduce_triangle_of(i, j, k, a, b, c)
    }

    /// [`Self::reduce_triangle`] with the points `a`, `b` and `c` (vertices `i`, `j` and `k`)
    /// given.
    #[inline(always)]
    fn reduce_triangle_of(
        &mut self,
        i: usize,
        j: usize,
        k: usize,
        a: Vector<N, D>,
        b: Vector<N, D>,
        c: Vector<N, D>,
    ) -> (bool, Vector<N, D>) {
        let ab = b - a;
        let ac = c - a;
        let ap = -a;
        let d1 = ab.dot(&ap);
        let d2 = ac.dot(&ap);
        if d1 <= N::zero() && d2 <= N::zero() {
            self.set(&[i], &[N::one()]);
            return (false, weighted(&[(&a, N::one())]));
        }
        let bp = -b;
        let d3 = ab.dot(&bp);
        let d4 = ac.dot(&bp);
        if d3 >= N::zero() && d4 <= d3 {
            self.set(&[j], &[N::one()]);
            return (false, weighted(&[(&b, N::one())]));
        }
        let vc = d1 * d4 - d3 * d2;
        if vc <= N::zero() && d1 >= N::zero() && d3 <= N::zero() {
            let t = d1 / (d1 - d3);
            self.set(&[i, j], &[N::one() - t, t]);
            return (false, weighted(&[(&a, N::one() - t), (&b, t)]));
        }
        let cp = -c;
        let d5 = ab.dot(&cp);
        let d6 = ac.dot(&cp);
        if d6 >= N::zero() && d5 <= d6 {
            self.set(&[k], &[N::one()]);
            return (false, weighted(&[(&c, N::one())]));
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= N::zero() && d2 >= N::zero() && d6 <= N::zero() {
            let t = d2 / (d2 - d6);
            self.set(&[i, k], &[N::one() - t, t]);
            return (false, weighted(&[(&a, N::one() - t), (&c, t)]));
        }
        let va = d3 * d6 - d5 * d4;
        if va <= N::zero() && (d4 - d3) >= N::zero() && (d5 - d6) >= N::zero() {
            let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            self.set(&[j, k], &[N::one() - t, t]);
            return (false, weighted(&[(&b, N::one() - t), (&c, t)]));
        }
        let sum = va + vb + vc;
        // `sum = |ab × ac|²`, `|ab|² = d1 − d3`, `|ac|² = d2 − d6`.
        if sum < N::lit(1e-4) * (d1 - d3) * (d2 - d6) {
            return self.reduce_sliver(i, j, k, &a, &ab, &ac);
        }
        if sum <= N::zero() {
            // A triangle with no area: keep its longest edge.
            self.reduce_degenerate_triangle(i, j, k);
            return (false, self.closest_point());
        }
        let inv = N::one() / sum;
        let w = [va * inv, vb * inv, vc * inv];
        self.set(&[i, j, k], &w);
        (true, weighted(&[(&a, w[0]), (&b, w[1]), (&c, w[2])]))
    }

    /// [`Self::reduce_triangle_of`] on a triangle with an angle below about 0.6° (`sin² <
    /// 1e-4`): the origin's projection onto the plane when it falls inside, with weights from
    /// [`interior_weights`], else the closest of the three edges. The region tests (Ericson,
    /// *Real-Time Collision Detection*, 5.1.5) form the weights through Lagrange's identity,
    /// whose rounding grows as `1/sin²` of that angle: on a sliver 50 long and 0.01 wide (a long
    /// segment's support points against a curved shape) they put GJK's closest point off by
    /// 1e-9 of the coordinates and stall it with a normal far from the true one. In 2D, `f32`,
    /// they put the origin inside a sliver 85 long and 0.014 wide (a 15 mm capsule against a
    /// 60 m polygon, 50 m from the origin) that it was 4e-3 outside of: a false hit.
    #[cold]
    #[inline(never)]
    fn reduce_sliver(
        &mut self,
        i: usize,
        j: usize,
        k: usize,
        a: &Vector<N, D>,
        ab: &Vector<N, D>,
        ac: &Vector<N, D>,
    ) -> (bool, Vector<N, D>) {
        let w = interior_weights(&to3(a), &to3(ab), &to3(ac));
        if w.iter().all(|x| *x >= N::zero()) {
            self.set(&[i, j, k], &w);
            // In 2D the plane is the whole space: the origin is inside the triangle.
            return (D == 2, self.closest_point());
        }
        self.reduce_degenerate_triangle(i, j, k);
        (false, self.closest_point())
    }

    fn reduce_degenerate_triangle(&mut self, i: usize, j: usize, k: usize) {
        let candidates = [(i, j), (j, k), (i, k)];
        let mut best: Option<(Self, N)> = None;
        for (p, q) in candidates {
            let mut s = *self;
            let d = s.reduce_segment(p, q).norm_squared();
            if best.as_ref().is_none_or(|(_, bd)| d < *bd) {
                best = Some((s, d));
            }
        }
        if let Some((s, _)) = best {
            *self = s;
        }
    }

    fn reduce_tetrahedron(&mut self) -> bool {
        let p: [Vec3<N>; 4] = core::array::from_fn(|i| to3(self.pts[i].point()));
        // Faces with the index of the opposite vertex.
        const FACES: [([usize; 3], usize); 4] =
            [([0, 1, 2], 3), ([0, 3, 1], 2), ([0, 2, 3], 1), ([1, 3, 2], 0)];
        let mut best: Option<(Self, N)> = None;
        let mut outside_any = false;
        let search_face = |f: [usize; 3], best: &mut Option<(Self, N)>| {
            let mut s = *self;
            s.len = 4;
            let d = s.reduce_triangle(f[0], f[1], f[2]).1.norm_squared();
            if best.as_ref().is_none_or(|(_, bd)| d < *bd) {
                *best = Some((s, d));
            }
        };
        let outside: [bool; 4] = core::array::from_fn(|k| {
            let (f, opp) = FACES[k];
            let n = (p[f[1]] - p[f[0]]).cross(&(p[f[2]] - p[f[0]]));
            let side_origin = -p[f[0]].dot(&n);
            let side_opp = (p[opp] - p[f[0]]).dot(&n);
            // The origin is outside this face when it is strictly on the other side from the
            // opposite vertex; a flat tetrahedron (side_opp == 0) searches every face.
            side_opp == N::zero() || side_origin * side_opp < N::zero()
        });
        if outside.iter().filter(|&&o| o).count() == 1 {
            // The usual case: one candidate face, reduced in place (no copies to compare).
            let k = outside.iter().position(|&o| o).unwrap_or(0);
            let f = FACES[k].0;
            let _ = self.reduce_triangle(f[0], f[1], f[2]);
            return false;
        }
        for (k, (f, _)) in FACES.into_iter().enumerate() {
            if outside[k] {
                outside_any = true;
                search_face(f, &mut best);
            }
        }
        if !outside_any {
            // Inside: barycentric weights from signed volumes.
            let vol = |a: &Vec3<N>, b: &Vec3<N>, c: &Vec3<N>| a.dot(&b.cross(c));
            let total = vol(&(p[1] - p[0]), &(p[2] - p[0]), &(p[3] - p[0]));
            let w1 = vol(&(-p[0]), &(p[2] - p[0]), &(p[3] - p[0])) / total;
            let w2 = vol(&(p[1] - p[0]), &(-p[0]), &(p[3] - p[0])) / total;
            let w3 = vol(&(p[1] - p[0]), &(p[2] - p[0]), &(-p[0])) / total;
            let w0 = N::one() - w1 - w2 - w3;
            if w0 >= N::zero() && w1 >= N::zero() && w2 >= N::zero() && w3 >= N::zero() {
                self.bary = [w0, w1, w2, w3];
                return true;
            }
            // The face tests and the volumes disagree: a sliver whose signs rounding decides
            // (seen in f32). Trust neither: the closest point of the best face is the answer,
            // at most rounding away from the origin when it really is inside.
            for (f, _) in FACES {
                search_face(f, &mut best);
            }
        }
        if let Some((s, _)) = best {
            *self = s;
        }
        false
    }
}

impl<N: Scalar, const D: usize> Simplex<N, D, SupportPoint<N, D>> {
    /// The closest point and the two witness points, from the current weights.
    pub fn closest(&self) -> (Vector<N, D>, Vector<N, D>, Vector<N, D>) {
        let mut v = Vector::zeros();
        let mut a = Vector::zeros();
        let mut b = Vector::zeros();
        for (p, w) in self.points().iter().zip(self.weights()) {
            v += p.point * *w;
            a += p.a.coords * *w;
            b += p.b.coords * *w;
        }
        (v, a, b)
    }
}

/// The barycentric weights of the origin's projection onto the plane of the triangle
/// `a, a + ab, a + ac` (a 2D triangle lies in the plane `z = 0`, and so does the origin): triple products with the triangle's normal `ab × ac`, which lose only
/// `1/sin` of the triangle's smallest angle where the region tests lose `1/sin²`.
#[inline(always)]
fn interior_weights<N: Scalar>(a: &Vec3<N>, ab: &Vec3<N>, ac: &Vec3<N>) -> [N; 3] {
    let n = ab.cross(ac);
    let inv = N::one() / n.norm_squared();
    let wb = a.cross(ac).dot(&n) * -inv;
    let wc = ab.cross(a).dot(&n) * -inv;
    [N::one() - wb - wc, wb, wc]
}

/// `Σ wᵢ pᵢ`, summed from zero in order: exactly what [`Simplex::closest_point`] computes for
/// the same points and weights.
#[inline(always)]
fn weighted<N: Scalar, const D: usize>(terms: &[(&Vector<N, D>, N)]) -> Vector<N, D> {
    let mut v = Vector::zeros();
    for (p, w) in terms {
        v += *p * *w;
    }
    v
}

/// The first three components of a vector (a 2D vector in the plane `z = 0`).
#[inline(always)]
fn to3<N: Scalar, const D: usize>(v: &Vector<N, D>) -> Vec3<N> {
    Vec3::new(v[0], v[1], if D > 2 { v[2] } else { N::zero() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Point, Vec2};

    fn sp<const D: usize>(v: Vector<f64, D>) -> SupportPoint<f64, D> {
        SupportPoint::new(Point::from(v), Point::origin())
    }

    #[test]
    fn segment_interior_and_ends() {
        let mut s = Simplex::new(sp(Vec2::new(-1.0, 1.0)));
        s.push(sp(Vec2::new(1.0, 1.0)));
        assert!(!s.reduce());
        assert_eq!(s.len(), 2);
        assert!((s.closest().0 - Vec2::new(0.0, 1.0)).norm() < 1e-15);
        let mut s = Simplex::new(sp(Vec2::new(1.0, 1.0)));
        s.push(sp(Vec2::new(2.0, 1.0)));
        s.reduce();
        assert_eq!(s.len(), 1);
        assert_eq!(s.closest().0, Vec2::new(1.0, 1.0));
    }

    #[test]
    fn triangle_contains_origin_in_2d() {
        let mut s = Simplex::new(sp(Vec2::new(-1.0, -1.0)));
        s.push(sp(Vec2::new(1.0, -1.0)));
        s.push(sp(Vec2::new(0.0, 1.0)));
        assert!(s.reduce());
        assert!(s.closest().0.norm() < 1e-15);
    }

    #[test]
    fn triangle_in_3d_projects_to_plane() {
        let mut s = Simplex::new(sp(Vec3::new(-1.0, -1.0, 1.0)));
        s.push(sp(Vec3::new(1.0, -1.0, 1.0)));
        s.push(sp(Vec3::new(0.0, 1.0, 1.0)));
        assert!(!s.reduce());
        assert_eq!(s.len(), 3);
        assert!((s.closest().0 - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-15);
    }

    #[test]
    fn tetrahedron_inside_and_outside() {
        let tet = |off: f64| {
            let mut s = Simplex::new(sp(Vec3::new(-1.0, -1.0, -1.0 + off)));
            s.push(sp(Vec3::new(1.0, -1.0, -1.0 + off)));
            s.push(sp(Vec3::new(0.0, 1.0, -1.0 + off)));
            s.push(sp(Vec3::new(0.0, 0.0, 1.0 + off)));
            s
        };
        let mut inside = tet(0.0);
        assert!(inside.reduce());
        assert!(inside.closest().0.norm() < 1e-14);
        let mut outside = tet(2.0);
        assert!(!outside.reduce());
        assert!((outside.closest().0 - Vec3::new(0.0, 0.0, 1.0)).norm() < 1e-14);
    }

    #[test]
    fn flat_triangle_keeps_an_edge() {
        let mut s = Simplex::new(sp(Vec2::new(-1.0, 1.0)));
        s.push(sp(Vec2::new(0.0, 1.0)));
        s.push(sp(Vec2::new(1.0, 1.0)));
        assert!(!s.reduce());
        assert!((s.closest().0 - Vec2::new(0.0, 1.0)).norm() < 1e-15);
    }
}
