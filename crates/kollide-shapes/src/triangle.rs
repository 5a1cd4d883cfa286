//! [`Triangle`]: three points, in 2D (a filled triangle) or in 3D (a flat, two-sided triangle).
//!
//! Triangles are the pieces of meshes and heightfields, and the smallest 2D polygon.
//!
//! ## Validation
//! A constructed triangle has finite, pairwise distinct vertices that are not collinear. The
//! collinearity test is relative, so it means the same at any scale: the triangle is rejected
//! when its height over its longest edge is at most [`Tolerances::relative_length`], that is
//! when `2·area ≤ relative_length · longest_edge²`.
//!
//! In 2D kollide's convention is counter-clockwise winding, so [`Triangle::new`] rejects a
//! clockwise triangle with [`ShapeError::Clockwise`]; [`Triangle::new_any_winding`] accepts either
//! and swaps `b` and `c` when needed. In 3D there is no "clockwise": the order of the vertices
//! chooses the normal, `(b − a) × (c − a)` (right-hand rule: counter-clockwise seen from the side
//! the normal points to).
//!
//! ## Numbering
//! Vertex 0, 1, 2 are `a`, `b`, `c`. Edge `i` runs from vertex `i` to vertex `i + 1 (mod 3)`. In
//! 3D, face 0 is the triangle seen from the side of its normal (vertices `a, b, c`) and face 1 is
//! the triangle seen from the other side (vertices `a, c, b`), so that both are listed
//! counter-clockwise when seen from outside.
//!
//! ## Support and supporting feature
//! The support point is the vertex farthest along the direction, ties to the lowest index.
//!
//! * In 2D the supporting feature is the edge whose outward unit normal has the largest dot
//!   product with the direction (ties to the lowest edge index), as for every polygon.
//! * In 3D the candidates are the two faces, with normals `±n̂`, and the three edges, each with
//!   the unit normal `m̂_i` that lies in the triangle's plane and points away from the triangle.
//!   The rule is the same: the feature whose normal has the largest dot product with the
//!   direction wins. With `d̂` the normalised direction, the face is returned when
//!   `|d̂ · n̂| ≥ max_i d̂ · m̂_i` (ties go to the face), otherwise the edge with the largest
//!   `d̂ · m̂_i` (ties to the lowest index). Directions within 45° of the normal therefore always
//!   give the face. A vertex is never returned: like every polytope, a triangle reports an edge
//!   or a face.
//!
//! ```
//! use kollide_math::{Point2, Vec2};
//! use kollide_shapes::{ShapeError, SupportMap, Triangle};
//! let (a, b, c) = (Point2::new(0.0f64, 0.0), Point2::new(2.0, 0.0), Point2::new(0.0, 2.0));
//! let t = Triangle::new(a, b, c).unwrap();
//! // (1, 1) is perpendicular to the edge b–c: b and c tie, the lower index (b) wins.
//! assert_eq!(t.local_support_point(&Vec2::new(1.0, 1.0)), b);
//! assert_eq!(Triangle::new(a, c, b), Err(ShapeError::Clockwise));
//! assert_eq!(Triangle::new_any_winding(a, c, b), Ok(t));
//! ```

use kollide_math::{Point, Pose, Scalar, Tolerances, Vec2, Vec3, Vector, geom};

use crate::{
    Aabb, BoundingVolume, FeatureId, HasMass2, MassProperties2, ShapeError, SupportFeature,
    SupportFeatureMap, SupportMap, mass::check_density, validate,
};

/// The triangle with vertices `a`, `b`, `c` in `D` dimensions (`D` is 2 or 3).
///
/// In 2D the vertices are counter-clockwise. See the module docs for the validation rules.
///
/// ```
/// use kollide_math::Point3;
/// use kollide_shapes::{ShapeError, Triangle};
/// let t = Triangle::new(
///     Point3::new(0.0f32, 0.0, 0.0),
///     Point3::new(1.0, 0.0, 0.0),
///     Point3::new(0.0, 1.0, 0.0),
/// )
/// .unwrap();
/// assert_eq!(t.normal().z, 1.0);
/// let collinear = Triangle::new(
///     Point3::new(0.0f32, 0.0, 0.0),
///     Point3::new(1.0, 1.0, 1.0),
///     Point3::new(2.0, 2.0, 2.0),
/// );
/// assert_eq!(collinear, Err(ShapeError::Degenerate("collinear")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle<N: Scalar, const D: usize> {
    a: Point<N, D>,
    b: Point<N, D>,
    c: Point<N, D>,
}

/// Twice the area of the triangle spanned by `u` and `v`, in 2D or 3D (non-negative).
fn twice_area<N: Scalar, const D: usize>(u: &Vector<N, D>, v: &Vector<N, D>) -> N {
    match D {
        2 => (u[0] * v[1] - u[1] * v[0]).abs(),
        3 => {
            let x = u[1] * v[2] - u[2] * v[1];
            let y = u[2] * v[0] - u[0] * v[2];
            let z = u[0] * v[1] - u[1] * v[0];
            (x * x + y * y + z * z).sqrt()
        }
        // Any other dimension: the Gram determinant |u|²|v|² − (u·v)².
        _ => (u.norm_squared() * v.norm_squared() - u.dot(v).powi(2)).max_of(N::zero()).sqrt(),
    }
}

impl<N: Scalar, const D: usize> Triangle<N, D> {
    /// Checks finiteness, distinct vertices and non-collinearity (not the winding).
    fn check(a: &Point<N, D>, b: &Point<N, D>, c: &Point<N, D>) -> Result<(), ShapeError> {
        let points = [*a, *b, *c];
        validate::finite_points(&points)?;
        let tol = validate::coincidence_tolerance(&points);
        for (first, second) in [(0, 1), (0, 2), (1, 2)] {
            if (points[second] - points[first]).norm() <= tol {
                return Err(ShapeError::DuplicatePoints { first, second });
            }
        }
        let longest =
            (b - a).norm_squared().max_of((c - b).norm_squared()).max_of((a - c).norm_squared());
        validate::length(longest.sqrt(), "longest edge")?;
        if twice_area(&(b - a), &(c - a)) <= Tolerances::<N>::default().relative_length * longest {
            return Err(ShapeError::Degenerate("collinear"));
        }
        Ok(())
    }

    /// Vertex 0.
    #[inline]
    pub fn a(&self) -> Point<N, D> {
        self.a
    }

    /// Vertex 1.
    #[inline]
    pub fn b(&self) -> Point<N, D> {
        self.b
    }

    /// Vertex 2.
    #[inline]
    pub fn c(&self) -> Point<N, D> {
        self.c
    }

    /// The three vertices `[a, b, c]`.
    #[inline]
    pub fn vertices(&self) -> [Point<N, D>; 3] {
        [self.a, self.b, self.c]
    }

    /// Vertex `i` (0 is `a`, 1 is `b`, anything else is `c`).
    #[inline]
    pub fn vertex(&self, i: u32) -> Point<N, D> {
        match i {
            0 => self.a,
            1 => self.b,
            _ => self.c,
        }
    }

    /// The centroid `(a + b + c) / 3`.
    #[inline]
    pub fn centroid(&self) -> Point<N, D> {
        Point::from((self.a.coords + self.b.coords + self.c.coords) / N::lit(3.0))
    }

    /// The same triangle moved so that its centroid is the origin, and that centroid: a piece
    /// of a mesh far from the mesh's origin, queried at the centroid, has coordinates of its own
    /// size (rounding relative to the triangle, not to where it lies in the mesh).
    #[inline]
    pub fn centred(&self) -> (Self, Vector<N, D>) {
        let c = self.centroid().coords;
        (Self::new_unchecked(self.a - c, self.b - c, self.c - c), c)
    }

    /// The (unsigned) area.
    #[inline]
    pub fn area(&self) -> N {
        twice_area(&(self.b - self.a), &(self.c - self.a)) * N::lit(0.5)
    }

    /// The triangle `a, b, c`.
    ///
    /// Fails with [`ShapeError::NonFinite`] for a NaN or infinite coordinate,
    /// [`ShapeError::DuplicatePoints`] when two vertices coincide, and
    /// [`ShapeError::Degenerate`]`("collinear")` when the three are (nearly) on a line. In 2D it
    /// also fails with [`ShapeError::Clockwise`] when the vertices are in clockwise order; in 3D
    /// the order only chooses the normal `(b − a) × (c − a)`.
    pub fn new(a: Point<N, D>, b: Point<N, D>, c: Point<N, D>) -> Result<Self, ShapeError> {
        Self::check(&a, &b, &c)?;
        if Self::is_clockwise_2d(&a, &b, &c) {
            return Err(ShapeError::Clockwise);
        }
        Ok(Self { a, b, c })
    }

    /// The triangle with these vertices in either order. In 2D, when `a, b, c` are clockwise, `b`
    /// and `c` are swapped so that the result is counter-clockwise; in 3D this is the same as
    /// [`Triangle::new`]. Fails like [`Triangle::new`], except that it never returns
    /// [`ShapeError::Clockwise`].
    pub fn new_any_winding(
        a: Point<N, D>,
        b: Point<N, D>,
        c: Point<N, D>,
    ) -> Result<Self, ShapeError> {
        Self::check(&a, &b, &c)?;
        if Self::is_clockwise_2d(&a, &b, &c) {
            Ok(Self { a, b: c, c: b })
        } else {
            Ok(Self { a, b, c })
        }
    }

    /// The triangle `a, b, c` without validation, for composite shapes that build their pieces
    /// from already-validated data (a heightfield's cells cannot be degenerate).
    #[inline]
    pub(crate) fn new_unchecked(a: Point<N, D>, b: Point<N, D>, c: Point<N, D>) -> Self {
        Self { a, b, c }
    }

    /// `true` in 2D when `a, b, c` turn clockwise (always `false` in other dimensions).
    fn is_clockwise_2d(a: &Point<N, D>, b: &Point<N, D>, c: &Point<N, D>) -> bool {
        if D != 2 {
            return false;
        }
        let (u, v) = (b - a, c - a);
        u[0] * v[1] - u[1] * v[0] < N::zero()
    }
}

impl<N: Scalar> Triangle<N, 2> {
    /// The outward normal of edge `i` (from vertex `i` to vertex `i + 1`), not normalised: its
    /// length is the edge's length.
    #[inline]
    pub fn edge_normal(&self, i: u32) -> Vec2<N> {
        let e = self.vertex((i + 1) % 3) - self.vertex(i % 3);
        -geom::perp(e)
    }
}

impl<N: Scalar> Triangle<N, 3> {
    /// `(b − a) × (c − a)`: normal to the triangle, with length twice its area.
    #[inline]
    pub fn scaled_normal(&self) -> Vec3<N> {
        (self.b - self.a).cross(&(self.c - self.a))
    }

    /// The unit normal, `(b − a) × (c − a)` normalised.
    #[inline]
    pub fn normal(&self) -> Vec3<N> {
        let n = self.scaled_normal();
        let len = n.norm();
        if len > N::zero() { n / len } else { n }
    }
}

impl<N: Scalar, const D: usize> SupportMap<N, D> for Triangle<N, D> {
    #[inline]
    fn polytope(&self) -> Option<&dyn crate::Polytope<N, D>> {
        Some(self)
    }

    /// The vertex with the largest `v · dir`, ties to the lowest index.
    #[inline]
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D> {
        let (da, db, dc) = (self.a.coords.dot(dir), self.b.coords.dot(dir), self.c.coords.dot(dir));
        if da >= db {
            if da >= dc { self.a } else { self.c }
        } else if db >= dc {
            self.b
        } else {
            self.c
        }
    }

    /// The largest vertex norm.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.a.coords.norm().max_of(self.b.coords.norm()).max_of(self.c.coords.norm())
    }
}

impl<N: Scalar> SupportFeatureMap<N, 2> for Triangle<N, 2> {
    /// The edge whose outward unit normal best aligns with `dir` (ties to the lowest index).
    fn local_support_feature(&self, dir: &Vec2<N>, out: &mut SupportFeature<N, 2>) {
        let mut best = 0;
        let mut best_dot = N::zero();
        for i in 0..3 {
            let n = self.edge_normal(i);
            let len = n.norm();
            let d = if len > N::zero() { n.dot(dir) / len } else { N::zero() };
            if i == 0 || d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        push_edge(self, best, out);
    }
}

/// Writes edge `i` (vertex `i` to vertex `i + 1`) into `out`.
fn push_edge<N: Scalar, const D: usize>(
    t: &Triangle<N, D>,
    i: u32,
    out: &mut SupportFeature<N, D>,
) {
    let j = (i + 1) % 3;
    out.reset(FeatureId::Edge(i));
    out.push(t.vertex(i), FeatureId::Vertex(i));
    out.push(t.vertex(j), FeatureId::Vertex(j));
}

impl<N: Scalar> SupportFeatureMap<N, 3> for Triangle<N, 3> {
    /// A face or an edge by the rule of the module docs: the face when `|d̂ · n̂|` is at least
    /// every edge's `d̂ · m̂_i`, otherwise the best edge.
    fn local_support_feature(&self, dir: &Vec3<N>, out: &mut SupportFeature<N, 3>) {
        let n = self.normal();
        let along_normal = dir.dot(&n);
        let mut best_edge = 0;
        let mut best_edge_dot = N::zero();
        for i in 0..3u32 {
            let e = self.vertex((i + 1) % 3) - self.vertex(i);
            // e × n̂ lies in the plane, points away from the triangle and has length |e|.
            let m = e.cross(&n);
            let len = m.norm();
            let d = if len > N::zero() { m.dot(dir) / len } else { N::zero() };
            if i == 0 || d > best_edge_dot {
                best_edge = i;
                best_edge_dot = d;
            }
        }
        if along_normal.abs() >= best_edge_dot {
            if along_normal >= N::zero() {
                out.reset(FeatureId::Face(0));
                out.push(self.a, FeatureId::Vertex(0));
                out.push(self.b, FeatureId::Vertex(1));
                out.push(self.c, FeatureId::Vertex(2));
            } else {
                out.reset(FeatureId::Face(1));
                out.push(self.a, FeatureId::Vertex(0));
                out.push(self.c, FeatureId::Vertex(2));
                out.push(self.b, FeatureId::Vertex(1));
            }
        } else {
            push_edge(self, best_edge, out);
        }
    }
}

impl<N: Scalar, const D: usize> BoundingVolume<N, D> for Triangle<N, D> {
    /// The box of the three transformed vertices.
    fn aabb<P: Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        let a = pose.transform_point(&self.a);
        let b = pose.transform_point(&self.b);
        let c = pose.transform_point(&self.c);
        Aabb::new(a.inf(&b).inf(&c), a.sup(&b).sup(&c))
    }

    fn local_aabb(&self) -> Aabb<N, D> {
        Aabb::new(self.a.inf(&self.b).inf(&self.c), self.a.sup(&self.b).sup(&self.c))
    }
}

impl<N: Scalar> HasMass2<N> for Triangle<N, 2> {
    /// Mass `ρ · area`, centre at the centroid, and polar inertia about the centroid
    /// `m (|ab|² + |bc|² + |ca|²) / 36`.
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let mass = density * self.area();
        let sides = (self.b - self.a).norm_squared()
            + (self.c - self.b).norm_squared()
            + (self.a - self.c).norm_squared();
        MassProperties2::checked(MassProperties2 {
            mass,
            local_center: self.centroid(),
            inertia: mass * sides / N::lit(36.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Iso3, Point2, Point3};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn p2<N: Scalar>(x: f64, y: f64) -> Point2<N> {
        Point2::new(N::lit(x), N::lit(y))
    }
    fn p3<N: Scalar>(x: f64, y: f64, z: f64) -> Point3<N> {
        Point3::new(N::lit(x), N::lit(y), N::lit(z))
    }
    fn v3<N: Scalar>(x: f64, y: f64, z: f64) -> Vec3<N> {
        Vec3::new(N::lit(x), N::lit(y), N::lit(z))
    }
    /// (0, 0), (2, 0), (0, 2).
    fn tri2<N: Scalar>() -> Triangle<N, 2> {
        Triangle::new(p2(0.0, 0.0), p2(2.0, 0.0), p2(0.0, 2.0)).unwrap()
    }
    /// (1, 1, 1), (2, 1, 1), (1, 2, 1): normal +z.
    fn tri3<N: Scalar>() -> Triangle<N, 3> {
        Triangle::new(p3(1.0, 1.0, 1.0), p3(2.0, 1.0, 1.0), p3(1.0, 2.0, 1.0)).unwrap()
    }

    fn check_support_2d<N: Scalar>(dir: [f64; 2], vertex: u32) {
        let t = tri2::<N>();
        let d = Vec2::new(N::lit(dir[0]), N::lit(dir[1]));
        assert_eq!(t.local_support_point(&d), t.vertex(vertex));
    }

    #[rstest]
    #[case::x([1.0, 0.0], 1)]
    #[case::y([0.0, 1.0], 2)]
    #[case::down_tie_a_b([0.0, -1.0], 0)]
    #[case::left_tie_a_c([-1.0, 0.0], 0)]
    #[case::hypotenuse_tie_b_c([1.0, 1.0], 1)]
    #[case::toward_a([-1.0, -1.0], 0)]
    #[case::zero_all_tie([0.0, 0.0], 0)]
    fn support_2d(#[case] dir: [f64; 2], #[case] vertex: u32) {
        check_support_2d::<f32>(dir, vertex);
        check_support_2d::<f64>(dir, vertex);
    }

    fn check_support_3d<N: Scalar>(dir: [f64; 3], vertex: u32) {
        let t = tri3::<N>();
        assert_eq!(t.local_support_point(&v3(dir[0], dir[1], dir[2])), t.vertex(vertex));
    }

    #[rstest]
    #[case::normal_all_tie([0.0, 0.0, 1.0], 0)]
    #[case::minus_normal_all_tie([0.0, 0.0, -1.0], 0)]
    #[case::x([1.0, 0.0, 0.3], 1)]
    #[case::y([0.0, 1.0, -0.3], 2)]
    #[case::tie_b_c([1.0, 1.0, 5.0], 1)]
    #[case::tie_a_c([-1.0, 0.0, 0.0], 0)]
    fn support_3d(#[case] dir: [f64; 3], #[case] vertex: u32) {
        check_support_3d::<f32>(dir, vertex);
        check_support_3d::<f64>(dir, vertex);
    }

    fn check_feature_2d<N: Scalar>(dir: [f64; 2], edge: u32) {
        let t = tri2::<N>();
        let mut f = SupportFeature::new();
        t.local_support_feature(&Vec2::new(N::lit(dir[0]), N::lit(dir[1])), &mut f);
        let j = (edge + 1) % 3;
        assert_eq!(f.id, FeatureId::Edge(edge));
        assert_eq!(f.vertices.as_slice(), &[t.vertex(edge), t.vertex(j)]);
        assert_eq!(f.vertex_ids.as_slice(), &[FeatureId::Vertex(edge), FeatureId::Vertex(j)]);
    }

    #[rstest]
    #[case::bottom([0.0, -1.0], 0)]
    #[case::hypotenuse([1.0, 1.0], 1)]
    #[case::left([-1.0, 0.2], 2)]
    #[case::corner_a_tie([-1.0, -1.0], 0)]
    #[case::mostly_right([1.0, -0.1], 1)]
    #[case::mostly_down([1.0, -1.0], 0)]
    fn support_feature_2d(#[case] dir: [f64; 2], #[case] edge: u32) {
        check_feature_2d::<f32>(dir, edge);
        check_feature_2d::<f64>(dir, edge);
    }

    fn check_feature_3d<N: Scalar>(dir: [f64; 3], expected: FeatureId, ids: &[u32]) {
        let t = tri3::<N>();
        let mut f = SupportFeature::new();
        t.local_support_feature(&v3(dir[0], dir[1], dir[2]), &mut f);
        assert_eq!(f.id, expected);
        let want: Vec<_> = ids.iter().map(|&i| FeatureId::Vertex(i)).collect();
        assert_eq!(f.vertex_ids.as_slice(), want.as_slice());
        let pts: Vec<_> = ids.iter().map(|&i| t.vertex(i)).collect();
        assert_eq!(f.vertices.as_slice(), pts.as_slice());
    }

    #[rstest]
    #[case::up([0.0, 0.0, 1.0], FeatureId::Face(0), &[0, 1, 2])]
    #[case::down([0.0, 0.0, -1.0], FeatureId::Face(1), &[0, 2, 1])]
    #[case::up_tilted([1.0, 1.0, 2.0], FeatureId::Face(0), &[0, 1, 2])]
    #[case::edge0([0.0, -1.0, 0.0], FeatureId::Edge(0), &[0, 1])]
    #[case::edge1_slanted([1.0, 1.0, 0.5], FeatureId::Edge(1), &[1, 2])]
    #[case::edge2([-1.0, 0.0, -0.2], FeatureId::Edge(2), &[2, 0])]
    #[case::tie_face_wins([-1.0, 0.0, -1.0], FeatureId::Face(1), &[0, 2, 1])]
    #[case::corner_tie_lowest_edge([-1.0, -1.0, 0.0], FeatureId::Edge(0), &[0, 1])]
    fn support_feature_3d(#[case] dir: [f64; 3], #[case] expected: FeatureId, #[case] ids: &[u32]) {
        check_feature_3d::<f32>(dir, expected, ids);
        check_feature_3d::<f64>(dir, expected, ids);
    }

    #[test]
    fn face_vertices_are_ccw_from_outside() {
        let t = Triangle::new(p3(0.3, -1.0, 2.0), p3(1.0, 2.0, -1.0), p3(-2.0, 0.5, 0.0)).unwrap();
        let mut f = SupportFeature::new();
        for sign in [1.0, -1.0] {
            let d = t.normal() * sign;
            t.local_support_feature(&d, &mut f);
            let v = &f.vertices;
            assert!((v[1] - v[0]).cross(&(v[2] - v[0])).dot(&d) > 0.0);
        }
    }

    fn check_errors<N: Scalar>() {
        let (a, b, c) = (p2::<N>(0.0, 0.0), p2::<N>(1.0, 0.0), p2::<N>(0.0, 1.0));
        assert!(matches!(
            Triangle::new(p2::<N>(f64::NAN, 0.0), b, c),
            Err(ShapeError::NonFinite { .. })
        ));
        assert!(matches!(
            Triangle::new(p3::<N>(0.0, 0.0, 0.0), p3(1.0, 0.0, 0.0), p3(0.0, f64::INFINITY, 0.0)),
            Err(ShapeError::NonFinite { .. })
        ));
        assert_eq!(
            Triangle::new(a, a, c),
            Err(ShapeError::DuplicatePoints { first: 0, second: 1 })
        );
        assert_eq!(
            Triangle::new(a, b, a),
            Err(ShapeError::DuplicatePoints { first: 0, second: 2 })
        );
        assert_eq!(
            Triangle::new_any_winding(a, b, b),
            Err(ShapeError::DuplicatePoints { first: 1, second: 2 })
        );
        assert_eq!(Triangle::new(a, b, p2(3.0, 0.0)), Err(ShapeError::Degenerate("collinear")));
        // Nearly collinear, relative to the size: rejected at any scale.
        for scale in [1e-3, 1.0, 1e3] {
            let thin =
                Triangle::new(p2::<N>(0.0, 0.0), p2(scale, 0.0), p2(0.5 * scale, 5e-10 * scale));
            assert_eq!(thin, Err(ShapeError::Degenerate("collinear")));
            let fine =
                Triangle::new(p2::<N>(0.0, 0.0), p2(scale, 0.0), p2(0.5 * scale, 1e-3 * scale));
            assert!(fine.is_ok());
        }
        assert_eq!(
            Triangle::new(p3::<N>(0.0, 0.0, 0.0), p3(1.0, 1.0, 1.0), p3(-2.0, -2.0, -2.0)),
            Err(ShapeError::Degenerate("collinear"))
        );
        assert_eq!(Triangle::new(a, c, b), Err(ShapeError::Clockwise));
        let t = Triangle::new_any_winding(a, c, b).unwrap();
        assert_eq!((t.a, t.b, t.c), (a, b, c));
        assert_eq!(Triangle::new_any_winding(a, b, c), Triangle::new(a, b, c));
        assert!(matches!(t.mass_properties(N::zero()), Err(ShapeError::InvalidDensity(_))));
    }

    #[test]
    fn constructor_errors() {
        check_errors::<f32>();
        check_errors::<f64>();
    }

    fn check_aabb<N: Scalar>(tol: f64) {
        let tol = N::lit(tol);
        let t =
            Triangle::new(p3::<N>(0.3, -1.0, 2.0), p3(1.0, 2.0, -1.0), p3(-2.0, 0.5, 0.0)).unwrap();
        let pose = Iso3::new(v3(0.5, -2.0, 1.0), v3(0.3, -0.7, 1.1));
        let aabb = t.aabb(&pose);
        let grown = aabb.loosened(tol);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..100 {
            let s = N::lit(rng.random::<f64>());
            let i = rng.random_range(0..3u32);
            let p = t.vertex(i) + (t.vertex((i + 1) % 3) - t.vertex(i)) * s;
            assert!(grown.contains_point(&pose.transform_point(&p)));
        }
        for i in 0..3 {
            let mut e = Vec3::zeros();
            e[i] = N::one();
            assert!((t.support_point(&pose, &e)[i] - aabb.maxs[i]).abs() <= tol);
            assert!((t.support_point(&pose, &-e)[i] - aabb.mins[i]).abs() <= tol);
        }
        let t2 = tri2::<N>();
        let pose2 = Iso2::new(Vec2::new(N::one(), N::zero()), N::frac_pi_2());
        let box2 = t2.aabb(&pose2);
        assert!((box2.mins - p2(-1.0, 0.0)).norm() <= tol);
        assert!((box2.maxs - p2(1.0, 2.0)).norm() <= tol);
        assert_eq!(t2.local_aabb(), Aabb::new(p2(0.0, 0.0), p2(2.0, 2.0)));
    }

    #[test]
    fn aabb_is_tight_under_rotation() {
        check_aabb::<f32>(1e-5);
        check_aabb::<f64>(1e-12);
    }

    fn check_mass<N: Scalar>() {
        let (a, b, c) = ([-0.4, -0.3], [1.3, 0.2], [0.1, 0.9]);
        let t = Triangle::new(p2::<N>(a[0], a[1]), p2(b[0], b[1]), p2(c[0], c[1])).unwrap();
        let m = t.mass_properties(N::lit(2.0)).unwrap();
        // Monte Carlo over the bounding box, density 2.
        let (lo, hi) = ([-0.4, -0.3], [1.3, 0.9]);
        let inside = |x: f64, y: f64| {
            let e =
                |p: [f64; 2], q: [f64; 2]| (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
            e(a, b) >= 0.0 && e(b, c) >= 0.0 && e(c, a) >= 0.0
        };
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let n = 400_000;
        let mut pts = Vec::new();
        for _ in 0..n {
            let x = lo[0] + (hi[0] - lo[0]) * rng.random::<f64>();
            let y = lo[1] + (hi[1] - lo[1]) * rng.random::<f64>();
            if inside(x, y) {
                pts.push([x, y]);
            }
        }
        let dm = 2.0 * (hi[0] - lo[0]) * (hi[1] - lo[1]) / n as f64;
        let mass = pts.len() as f64 * dm;
        let cx = pts.iter().map(|p| p[0]).sum::<f64>() / pts.len() as f64;
        let cy = pts.iter().map(|p| p[1]).sum::<f64>() / pts.len() as f64;
        let inertia: f64 =
            pts.iter().map(|p| ((p[0] - cx).powi(2) + (p[1] - cy).powi(2)) * dm).sum();
        assert!((m.mass.to_f64() - mass).abs() < 0.01 * mass, "{m:?} {mass}");
        assert!((m.local_center.x.to_f64() - cx).abs() < 0.01);
        assert!((m.local_center.y.to_f64() - cy).abs() < 0.01);
        assert!((m.inertia.to_f64() - inertia).abs() < 0.02 * inertia, "{m:?} {inertia}");
        // Exact area and centroid.
        let area = 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
        assert!((m.mass.to_f64() - 2.0 * area).abs() < 1e-5);
        assert!((t.centroid() - p2(1.0 / 3.0, 0.8 / 3.0)).norm() < N::lit(1e-6));
    }

    #[test]
    fn mass_matches_monte_carlo() {
        check_mass::<f32>();
        check_mass::<f64>();
    }

    fn support_is_max<N: Scalar>(v: [[f64; 3]; 3], d: [f64; 3], samples: &[[f64; 2]], tol: f64) {
        let pt = |p: [f64; 3]| p3::<N>(p[0], p[1], p[2]);
        let Ok(t) = Triangle::new(pt(v[0]), pt(v[1]), pt(v[2])) else {
            return;
        };
        let dir = v3::<N>(d[0], d[1], d[2]);
        let best = t.local_support_point(&dir).coords.dot(&dir).to_f64();
        let scale = (1.0 + v.iter().flatten().map(|x| x.abs()).sum::<f64>()) * dir.norm().to_f64();
        // The support is a maximiser among the vertices with the lowest index.
        let dots = t.vertices().map(|p| p.coords.dot(&dir));
        let first = dots.iter().position(|x| *x == dots.iter().copied().fold(dots[0], N::max_of));
        assert_eq!(Some(t.local_support_point(&dir)), first.map(|i| t.vertex(i as u32)));
        for s in samples {
            // Barycentric sampling of the whole triangle (boundary included when s hits 0 or 1).
            let (u, w) = if s[0] + s[1] > 1.0 { (1.0 - s[0], 1.0 - s[1]) } else { (s[0], s[1]) };
            let p = t.a + (t.b - t.a) * N::lit(u) + (t.c - t.a) * N::lit(w);
            assert!(p.coords.dot(&dir).to_f64() <= best + tol * scale);
        }
    }

    proptest! {
        #[test]
        fn support_maximises_dot(v in prop::array::uniform3(prop::array::uniform3(-10.0f64..10.0)),
                                 d in prop::array::uniform3(-1.0f64..1.0),
                                 samples in prop::collection::vec(prop::array::uniform2(0.0f64..=1.0), 32)) {
            support_is_max::<f32>(v, d, &samples, 1e-5);
            support_is_max::<f64>(v, d, &samples, 1e-12);
        }
    }
}
