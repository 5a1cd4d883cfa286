//! [`Cuboid`]: a box centred on the local origin (a rectangle in 2D).
//!
//! A cuboid is described by its half extents `h`: it is the set `{ p : |p_i| ≤ h_i }`. Placed by
//! a pose it is an oriented box; at the identity pose it is an axis-aligned box, which is why
//! kollide has no separate AABB *shape* ([`Aabb`] is only a bounding volume).
//!
//! ## Numbering
//! * **Vertices.** There are `2^D`. Bit `i` of a vertex index is set when the vertex is at
//!   `+h_i` on axis `i` and clear when it is at `−h_i`: vertex 0 is `−h`, vertex `2^D − 1` is
//!   `+h`, and in 2D vertex 1 is `(+h_x, −h_y)`. [`Cuboid::vertex`] computes one.
//! * **Faces** (edges in 2D). Face `2·axis` is the face on the positive side of `axis` (outward
//!   normal `+e_axis`), face `2·axis + 1` the one on the negative side. So in 3D faces 0..6 are
//!   `+x, −x, +y, −y, +z, −z`, and in 2D edges 0..4 are `+x, −x, +y, −y`.
//!
//! ## Support
//! The support point costs `D` comparisons: on each axis take `+h_i` when `dir_i ≥ 0` and `−h_i`
//! otherwise. A component that is exactly zero (a direction along a face or an edge) therefore
//! always picks `+h_i`. This is a deliberate, documented exception to the "lowest vertex index"
//! tie rule of [`SupportMap`]: it keeps the support branch-free and the answer still depends only
//! on the input.
//!
//! ## Supporting feature
//! [`SupportFeatureMap`] returns the face whose normal best aligns with the direction: the axis
//! with the largest `|dir_i|` (ties to the lower axis), on the side of the sign of `dir_i` (a zero
//! component counts as positive). In 2D that face is an edge of 2 vertices ordered
//! counter-clockwise around the box; in 3D it is a quad of 4 vertices ordered counter-clockwise
//! when seen from outside. Vertex ids use the numbering above.
//!
//! ```
//! use kollide_math::{Point2, Vec2};
//! use kollide_shapes::{Cuboid, SupportMap};
//! let b = Cuboid::new(Vec2::new(2.0f64, 1.0)).unwrap();
//! assert_eq!(b.local_support_point(&Vec2::new(1.0, -1.0)), Point2::new(2.0, -1.0));
//! // A zero component picks the positive half extent.
//! assert_eq!(b.local_support_point(&Vec2::new(-1.0, 0.0)), Point2::new(-2.0, 1.0));
//! ```

use kollide_math::{Mat3, Point, Point2, Point3, Pose, Scalar, Vector};

use crate::{
    Aabb, BoundingVolume, FeatureId, HasMass2, HasMass3, MassProperties2, MassProperties3,
    ShapeError, SupportFeature, SupportFeatureMap, SupportMap, mass::check_density, validate,
};

/// A box with half extents `half_extents`, centred on the local origin, in `D` dimensions (`D`
/// is 2 or 3).
///
/// ```
/// use kollide_math::Vec3;
/// use kollide_shapes::{Cuboid, ShapeError};
/// let b = Cuboid::new(Vec3::new(1.0f32, 2.0, 3.0)).unwrap();
/// assert_eq!(b.vertices().len(), 8);
/// assert!(matches!(Cuboid::new(Vec3::new(1.0f32, 0.0, 3.0)), Err(ShapeError::NonPositive { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<N: Scalar, const D: usize> {
    half_extents: Vector<N, D>,
}

impl<N: Scalar, const D: usize> Cuboid<N, D> {
    /// The box with these half extents.
    ///
    /// Fails with [`ShapeError::NonFinite`] or [`ShapeError::NonPositive`] when a component is
    /// NaN, infinite, zero or negative.
    pub fn new(half_extents: Vector<N, D>) -> Result<Self, ShapeError> {
        validate::size_vector(&half_extents, "half extent")?;
        Ok(Self { half_extents })
    }

    /// Half the size of the box along each local axis: every component positive, finite and
    /// within [`Scalar::MIN_SIZE`]..=[`Scalar::MAX_SIZE`].
    #[inline]
    pub fn half_extents(&self) -> Vector<N, D> {
        self.half_extents
    }

    /// The number of vertices, `2^D`.
    pub const VERTEX_COUNT: usize = 1 << D;

    /// The vertex with this index: bit `i` set means `+h_i`, clear means `−h_i`. Bits above
    /// `D − 1` are ignored.
    #[inline]
    pub fn vertex(&self, index: u32) -> Point<N, D> {
        let mut p = Point::from(self.half_extents);
        for i in 0..D {
            if index & (1 << i) == 0 {
                p[i] = -p[i];
            }
        }
        p
    }

    /// The index of the support vertex in `dir`: bit `i` is set when `dir_i ≥ 0`.
    #[inline]
    pub fn support_vertex_index(&self, dir: &Vector<N, D>) -> u32 {
        let mut index = 0;
        for i in 0..D {
            if dir[i] >= N::zero() {
                index |= 1 << i;
            }
        }
        index
    }

    /// The index of the face whose outward normal best aligns with `dir`:
    /// `2·axis + (0 if dir_axis ≥ 0 else 1)` for the axis with the largest `|dir_axis|` (ties to
    /// the lower axis).
    #[inline]
    pub fn support_face_index(&self, dir: &Vector<N, D>) -> u32 {
        let mut axis = 0;
        for i in 1..D {
            if dir[i].abs() > dir[axis].abs() {
                axis = i;
            }
        }
        let negative = if dir[axis] >= N::zero() { 0 } else { 1 };
        (2 * axis + negative) as u32
    }
}

impl<N: Scalar> Cuboid<N, 2> {
    /// The 4 vertices, indexed as described in the module docs: `(−,−), (+,−), (−,+), (+,+)`.
    /// (This is bit order, not counter-clockwise order.)
    pub fn vertices(&self) -> [Point2<N>; 4] {
        [self.vertex(0), self.vertex(1), self.vertex(2), self.vertex(3)]
    }
}

impl<N: Scalar> Cuboid<N, 3> {
    /// The 8 vertices, indexed as described in the module docs (vertex `i` has `+h_x` when bit 0
    /// of `i` is set, `+h_y` for bit 1, `+h_z` for bit 2).
    pub fn vertices(&self) -> [Point3<N>; 8] {
        core::array::from_fn(|i| self.vertex(i as u32))
    }
}

impl<N: Scalar, const D: usize> SupportMap<N, D> for Cuboid<N, D> {
    #[inline]
    fn polytope(&self) -> Option<&dyn crate::Polytope<N, D>> {
        Some(self)
    }

    #[inline]
    fn core_cuboid(&self) -> Option<Vector<N, D>> {
        Some(self.half_extents)
    }

    /// The slab test: the ray is inside the box while it is inside every slab `|x_i| ≤ h_i`, so
    /// it enters at the latest of the slabs' entry times, through that slab's face, and leaves
    /// at the earliest exit (Kay and Kajiya, "Ray Tracing Complex Scenes", SIGGRAPH 1986).
    fn local_core_ray(
        &self,
        origin: &Vector<N, D>,
        dir: &Vector<N, D>,
        max_t: N,
    ) -> Option<crate::CoreRay<N, D>> {
        use crate::CoreRay::{Hit, Miss};
        let h = &self.half_extents;
        if (0..D).all(|i| origin[i].abs() <= h[i]) {
            let hit = Hit { t: N::zero(), normal: Vector::zeros() };
            return Some(if max_t >= N::zero() { hit } else { Miss });
        }
        let (mut enter, mut exit, mut axis) = (-N::MAX, N::MAX, 0);
        for i in 0..D {
            if dir[i] == N::zero() {
                if origin[i].abs() > h[i] {
                    return Some(Miss);
                }
                continue;
            }
            let near = if dir[i] > N::zero() { -h[i] } else { h[i] };
            let (t0, t1) = ((near - origin[i]) / dir[i], (-near - origin[i]) / dir[i]);
            if t0 > enter {
                (enter, axis) = (t0, i);
            }
            exit = exit.min_of(t1);
        }
        if enter > exit || enter < N::zero() || enter > max_t {
            return Some(Miss);
        }
        let mut normal = Vector::zeros();
        normal[axis] = if dir[axis] > N::zero() { -N::one() } else { N::one() };
        Some(Hit { t: enter, normal })
    }

    /// `±h_i` per axis by the sign of `dir_i`; a zero component gives `+h_i`.
    #[inline]
    fn local_core_support(&self, dir: &Vector<N, D>) -> Point<N, D> {
        let mut p = Point::from(self.half_extents);
        for i in 0..D {
            if dir[i] < N::zero() {
                p[i] = -p[i];
            }
        }
        p
    }

    /// `|half_extents|`, the distance to a corner.
    #[inline]
    fn bounding_radius(&self) -> N {
        self.half_extents.norm()
    }
}

impl<N: Scalar, const D: usize> SupportFeatureMap<N, D> for Cuboid<N, D> {
    /// The face (an edge in 2D) whose normal best aligns with `dir`, see the module docs.
    fn local_support_feature(&self, dir: &Vector<N, D>, out: &mut SupportFeature<N, D>) {
        let face = self.support_face_index(dir);
        out.reset(FeatureId::Face(face));
        let axis = (face / 2) as usize;
        let side = if face.is_multiple_of(2) { 1u32 << axis } else { 0 };
        // The other axes, in cyclic order so that (u, v, axis) is right-handed in 3D.
        let u = (axis + 1) % D;
        let (bu, bv) = (1u32 << u, 1u32 << ((axis + 2) % D));
        let positive = side != 0;
        let corners: &[u32] = if D == 2 {
            // Walking counter-clockwise along the face with outward normal n goes along perp(n):
            // along +y on the +x face, along −x on the +y face, and the reverse on the −x, −y faces.
            if positive == (axis == 0) { &[0, bu] } else { &[bu, 0] }
        } else if positive {
            // Counter-clockwise about +e_axis in the (u, v) plane.
            &[0, bu, bu | bv, bv]
        } else {
            &[0, bv, bu | bv, bu]
        };
        for &c in corners {
            let index = c | side;
            out.push(self.vertex(index), FeatureId::Vertex(index));
        }
    }
}

impl<N: Scalar, const D: usize> BoundingVolume<N, D> for Cuboid<N, D> {
    /// Centre at the pose's translation, half extents `|R| h` (`R` the rotation matrix with its
    /// entries replaced by their absolute values).
    fn aabb<P: Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        let mut half = Vector::<N, D>::zeros();
        for j in 0..D {
            let mut e = Vector::<N, D>::zeros();
            e[j] = self.half_extents[j];
            // Column j of R, scaled by h_j.
            let col = pose.transform_vector(&e);
            for i in 0..D {
                half[i] += col[i].abs();
            }
        }
        Aabb::from_half_extents(Point::from(pose.translation()), half)
    }

    fn local_aabb(&self) -> Aabb<N, D> {
        Aabb::from_half_extents(Point::origin(), self.half_extents)
    }
}

impl<N: Scalar> HasMass2<N> for Cuboid<N, 2> {
    /// Mass `4 ρ h_x h_y`; inertia `m (h_x² + h_y²) / 3` (that is `m (w² + h²) / 12`).
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        let density = check_density(density)?;
        let h = self.half_extents;
        let mass = density * N::lit(4.0) * h.x * h.y;
        MassProperties2::checked(MassProperties2 {
            mass,
            local_center: Point2::origin(),
            inertia: mass * (h.x * h.x + h.y * h.y) / N::lit(3.0),
        })
    }
}

impl<N: Scalar> HasMass3<N> for Cuboid<N, 3> {
    /// Mass `8 ρ h_x h_y h_z`; diagonal inertia, `I_xx = m (h_y² + h_z²) / 3` and so on.
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        let density = check_density(density)?;
        let h = self.half_extents;
        let mass = density * N::lit(8.0) * h.x * h.y * h.z;
        let sq = h.component_mul(&h);
        let third = mass / N::lit(3.0);
        MassProperties3::checked(MassProperties3 {
            mass,
            local_center: Point3::origin(),
            inertia: Mat3::from_diagonal(&kollide_math::Vec3::new(
                third * (sq.y + sq.z),
                third * (sq.x + sq.z),
                third * (sq.x + sq.y),
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Iso3, Vec2, Vec3, geom};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use rstest::rstest;

    fn v2<N: Scalar>(x: f64, y: f64) -> Vec2<N> {
        Vec2::new(N::lit(x), N::lit(y))
    }
    fn v3<N: Scalar>(x: f64, y: f64, z: f64) -> Vec3<N> {
        Vec3::new(N::lit(x), N::lit(y), N::lit(z))
    }
    fn box2<N: Scalar>() -> Cuboid<N, 2> {
        Cuboid::new(v2(2.0, 1.0)).unwrap()
    }
    fn box3<N: Scalar>() -> Cuboid<N, 3> {
        Cuboid::new(v3(1.0, 2.0, 3.0)).unwrap()
    }

    fn check_support_2d<N: Scalar>(dir: [f64; 2], vertex: u32) {
        let b = box2::<N>();
        let d = v2::<N>(dir[0], dir[1]);
        assert_eq!(b.local_support_point(&d), b.vertex(vertex));
        assert_eq!(b.support_vertex_index(&d), vertex);
    }

    #[rstest]
    #[case::pp([1.0, 1.0], 3)]
    #[case::pm([1.0, -1.0], 1)]
    #[case::mm([-1.0, -0.5], 0)]
    #[case::mp([-3.0, 0.1], 2)]
    #[case::along_plus_x_face([1.0, 0.0], 3)]
    #[case::along_minus_x_face([-1.0, 0.0], 2)]
    #[case::along_minus_y_face([0.0, -1.0], 1)]
    #[case::negative_zero([-0.0, -1.0], 1)]
    #[case::zero([0.0, 0.0], 3)]
    fn support_2d(#[case] dir: [f64; 2], #[case] vertex: u32) {
        check_support_2d::<f32>(dir, vertex);
        check_support_2d::<f64>(dir, vertex);
    }

    fn check_support_3d<N: Scalar>(dir: [f64; 3], vertex: u32) {
        let b = box3::<N>();
        let d = v3::<N>(dir[0], dir[1], dir[2]);
        assert_eq!(b.local_support_point(&d), b.vertex(vertex));
    }

    #[rstest]
    #[case::corner([1.0, 1.0, 1.0], 7)]
    #[case::corner_x([1.0, -1.0, -1.0], 1)]
    #[case::minus_z_face([0.0, 0.0, -1.0], 3)]
    #[case::plus_y_face([0.0, 2.0, 0.0], 7)]
    #[case::edge_xy([-1.0, -1.0, 0.0], 4)]
    #[case::edge_yz([0.0, -1.0, -1.0], 1)]
    fn support_3d(#[case] dir: [f64; 3], #[case] vertex: u32) {
        check_support_3d::<f32>(dir, vertex);
        check_support_3d::<f64>(dir, vertex);
    }

    #[test]
    fn vertex_numbering() {
        let b = box2::<f64>();
        assert_eq!(
            b.vertices(),
            [
                Point2::new(-2.0, -1.0),
                Point2::new(2.0, -1.0),
                Point2::new(-2.0, 1.0),
                Point2::new(2.0, 1.0)
            ]
        );
        let c = box3::<f32>();
        let v = c.vertices();
        assert_eq!(v[0], Point3::new(-1.0, -2.0, -3.0));
        assert_eq!(v[5], Point3::new(1.0, -2.0, 3.0));
        assert_eq!(v[6], Point3::new(-1.0, 2.0, 3.0));
        assert_eq!(Cuboid::<f32, 3>::VERTEX_COUNT, 8);
    }

    fn check_feature_2d<N: Scalar>(dir: [f64; 2], face: u32, ids: [u32; 2]) {
        let b = box2::<N>();
        let d = v2::<N>(dir[0], dir[1]);
        let mut f = SupportFeature::new();
        b.local_support_feature(&d, &mut f);
        assert_eq!(f.id, FeatureId::Face(face));
        assert_eq!(f.vertex_ids.as_slice(), &ids.map(FeatureId::Vertex));
        assert_eq!(f.vertices.as_slice(), &ids.map(|i| b.vertex(i)));
        // Counter-clockwise: the outward normal is −perp(edge), and it points along the face's
        // axis direction.
        let edge = f.vertices[1] - f.vertices[0];
        let normal = -geom::perp(edge);
        let axis = (face / 2) as usize;
        let sign = if face.is_multiple_of(2) { N::one() } else { -N::one() };
        assert!(normal[axis] * sign > N::zero());
        assert_eq!(normal[1 - axis], N::zero());
    }

    #[rstest]
    #[case::plus_x([1.0, 0.0], 0, [1, 3])]
    #[case::minus_x([-1.0, 0.5], 1, [2, 0])]
    #[case::plus_y([0.2, 1.0], 2, [3, 2])]
    #[case::minus_y([-0.9, -1.0], 3, [0, 1])]
    #[case::diagonal_tie_goes_to_x([1.0, 1.0], 0, [1, 3])]
    #[case::diagonal_tie_minus([-1.0, -1.0], 1, [2, 0])]
    fn support_feature_2d(#[case] dir: [f64; 2], #[case] face: u32, #[case] ids: [u32; 2]) {
        check_feature_2d::<f32>(dir, face, ids);
        check_feature_2d::<f64>(dir, face, ids);
    }

    fn check_feature_3d<N: Scalar>(dir: [f64; 3], face: u32) {
        let b = box3::<N>();
        let d = v3::<N>(dir[0], dir[1], dir[2]);
        let mut f = SupportFeature::new();
        b.local_support_feature(&d, &mut f);
        assert_eq!(f.id, FeatureId::Face(face));
        assert_eq!(f.vertices.len(), 4);
        let axis = (face / 2) as usize;
        let sign = if face.is_multiple_of(2) { N::one() } else { -N::one() };
        let mut n = Vec3::zeros();
        n[axis] = sign;
        for (p, id) in f.vertices.iter().zip(&f.vertex_ids) {
            let FeatureId::Vertex(i) = *id else { panic!("not a vertex id") };
            assert_eq!(*p, b.vertex(i));
            assert_eq!(p[axis], b.half_extents[axis] * sign);
        }
        // Counter-clockwise seen from outside: every corner turns left about the normal.
        for k in 0..4 {
            let (p0, p1, p2) = (f.vertices[k], f.vertices[(k + 1) % 4], f.vertices[(k + 2) % 4]);
            assert!((p1 - p0).cross(&(p2 - p1)).dot(&n) > N::zero());
        }
    }

    #[rstest]
    #[case::plus_x([1.0, 0.5, 0.5], 0)]
    #[case::minus_x([-1.0, 0.5, -0.5], 1)]
    #[case::plus_y([0.0, 1.0, 0.0], 2)]
    #[case::minus_y([0.3, -1.0, 0.9], 3)]
    #[case::plus_z([0.0, 0.0, 1.0], 4)]
    #[case::minus_z([0.1, 0.2, -1.0], 5)]
    #[case::tie_xz_goes_to_x([-1.0, 0.0, 1.0], 1)]
    #[case::tie_yz_goes_to_y([0.0, 1.0, -1.0], 2)]
    fn support_feature_3d(#[case] dir: [f64; 3], #[case] face: u32) {
        check_feature_3d::<f32>(dir, face);
        check_feature_3d::<f64>(dir, face);
    }

    #[test]
    fn feature_vertex_order_plus_z() {
        let b = box3::<f64>();
        let mut f = SupportFeature::new();
        b.local_support_feature(&Vec3::z(), &mut f);
        assert_eq!(f.vertex_ids.as_slice(), &[4, 5, 7, 6].map(FeatureId::Vertex));
        b.local_support_feature(&-Vec3::z(), &mut f);
        assert_eq!(f.vertex_ids.as_slice(), &[0, 2, 3, 1].map(FeatureId::Vertex));
    }

    fn check_errors<N: Scalar>() {
        for bad in [0.0, -1.0] {
            assert!(matches!(Cuboid::new(v2::<N>(1.0, bad)), Err(ShapeError::NonPositive { .. })));
        }
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(matches!(
                Cuboid::new(v3::<N>(bad, 1.0, 1.0)),
                Err(ShapeError::NonFinite { .. })
            ));
        }
        assert!(matches!(
            HasMass3::mass_properties(&box3::<N>(), N::lit(-1.0)),
            Err(ShapeError::InvalidDensity(_))
        ));
        assert!(matches!(
            HasMass2::mass_properties(&box2::<N>(), N::lit(f64::NAN)),
            Err(ShapeError::InvalidDensity(_))
        ));
    }

    #[test]
    fn constructor_errors() {
        check_errors::<f32>();
        check_errors::<f64>();
    }

    fn check_aabb<N: Scalar>(tol: f64) {
        let tol = N::lit(tol);
        let b = box3::<N>();
        let pose = Iso3::new(v3(0.5, -2.0, 1.0), v3(0.3, -0.7, 1.1));
        let aabb = b.aabb(&pose);
        let grown = aabb.loosened(tol);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            // A random point on a random face.
            let mut p =
                Point3::from(v3::<N>(rng.random(), rng.random(), rng.random()) * N::lit(2.0))
                    - Vec3::repeat(N::one());
            let axis = rng.random_range(0..3);
            p[axis] = if rng.random::<bool>() { N::one() } else { -N::one() };
            let p = Point3::from(p.coords.component_mul(&b.half_extents));
            assert!(grown.contains_point(&pose.transform_point(&p)));
        }
        for i in 0..3 {
            let mut e = Vec3::zeros();
            e[i] = N::one();
            assert!((b.support_point(&pose, &e)[i] - aabb.maxs[i]).abs() <= tol);
            assert!((b.support_point(&pose, &-e)[i] - aabb.mins[i]).abs() <= tol);
        }
        // The default (support-based) AABB agrees with the closed form.
        let b2 = box2::<N>();
        let pose2 = Iso2::new(v2(1.0, -1.0), N::lit(0.4));
        let closed = b2.aabb(&pose2);
        for i in 0..2 {
            let mut e = Vec2::zeros();
            e[i] = N::one();
            assert!((b2.support_point(&pose2, &e)[i] - closed.maxs[i]).abs() <= tol);
            assert!((b2.support_point(&pose2, &-e)[i] - closed.mins[i]).abs() <= tol);
        }
        assert_eq!(
            b2.local_aabb(),
            Aabb::new(Point2::from(v2(-2.0, -1.0)), Point2::from(v2(2.0, 1.0)))
        );
    }

    #[test]
    fn aabb_is_tight_under_rotation() {
        check_aabb::<f32>(1e-5);
        check_aabb::<f64>(1e-12);
    }

    fn check_mass<N: Scalar>(tol: f64) {
        // 3D against a midpoint grid integration of the box [−1,1]×[−2,2]×[−3,3], density 1.
        let m = box3::<N>().mass_properties(N::one()).unwrap();
        let n = 40;
        let (mut mass, mut ixx, mut iyy, mut izz) = (0.0, 0.0, 0.0, 0.0);
        let h = [1.0, 2.0, 3.0];
        let cell: f64 = h.iter().map(|x| 2.0 * x / n as f64).product();
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let c =
                        |idx: usize, a: usize| -h[a] + (idx as f64 + 0.5) * 2.0 * h[a] / n as f64;
                    let (x, y, z) = (c(i, 0), c(j, 1), c(k, 2));
                    mass += cell;
                    ixx += cell * (y * y + z * z);
                    iyy += cell * (x * x + z * z);
                    izz += cell * (x * x + y * y);
                }
            }
        }
        assert!((m.mass.to_f64() - mass).abs() < 1e-6 * mass);
        let got = [m.inertia[(0, 0)], m.inertia[(1, 1)], m.inertia[(2, 2)]].map(|x| x.to_f64());
        for (g, e) in got.iter().zip([ixx, iyy, izz]) {
            // The midpoint rule underestimates x² integrals by h²/(3n²) per axis.
            assert!((g - e).abs() < 2e-3 * e, "{g} {e}");
        }
        assert_eq!(m.inertia[(0, 1)], N::zero());
        // 2D closed form: a 4 × 2 rectangle of density 2 has mass 16 and I = m (16 + 4) / 12.
        let m2 = box2::<N>().mass_properties(N::lit(2.0)).unwrap();
        assert!((m2.mass.to_f64() - 16.0).abs() < tol);
        assert!((m2.inertia.to_f64() - 16.0 * 20.0 / 12.0).abs() < tol * 30.0);
        assert_eq!(m2.local_center, Point2::origin());
    }

    #[test]
    fn mass_matches_integration() {
        check_mass::<f32>(1e-5);
        check_mass::<f64>(1e-12);
    }

    fn support_is_max<N: Scalar>(
        h: [f64; 3],
        d: [f64; 3],
        samples: &[(usize, bool, f64, f64)],
        tol: f64,
    ) {
        let b = Cuboid::new(v3::<N>(h[0], h[1], h[2])).unwrap();
        let dir = v3::<N>(d[0], d[1], d[2]);
        let best = b.local_support_point(&dir).coords.dot(&dir).to_f64();
        for &(axis, positive, s, t) in samples {
            let mut p = Vec3::zeros();
            p[axis] = if positive { N::one() } else { -N::one() };
            p[(axis + 1) % 3] = N::lit(s);
            p[(axis + 2) % 3] = N::lit(t);
            let p = p.component_mul(&b.half_extents);
            assert!(p.dot(&dir).to_f64() <= best + tol * (1.0 + best.abs()));
        }
        // Hitting a vertex exactly: the support is one of the vertices.
        assert!((0..8).any(|i| b.vertex(i) == b.local_support_point(&dir)));
    }

    proptest! {
        #[test]
        fn support_maximises_dot(h in prop::array::uniform3(0.01f64..10.0),
                                 d in prop::array::uniform3(-1.0f64..1.0),
                                 samples in prop::collection::vec(
                                     (0usize..3, any::<bool>(), -1.0f64..=1.0, -1.0f64..=1.0), 32)) {
            support_is_max::<f32>(h, d, &samples, 1e-5);
            support_is_max::<f64>(h, d, &samples, 1e-12);
        }
    }
}
