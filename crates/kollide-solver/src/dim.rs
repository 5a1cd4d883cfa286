//! [`SolverDim`]: everything the solver needs to know about the dimension, so that the world,
//! the broadphase and the contact solver are written once for 2D and 3D.
//!
//! Linear quantities are `Vector<N, D>` in both dimensions. What differs is rotation: in 2D an
//! angular velocity and an inverse inertia are scalars, in 3D they are a vector and a matrix. The
//! trait names those types and the handful of operations on them (`r × p`, `ω × r`, applying the
//! inverse inertia, integrating a rotation), plus the shape enum and the manifold routine of the
//! dimension. It is implemented by [`Dim<2>`] and [`Dim<3>`].

use core::fmt::Debug;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Iso3, Mat3, Point, Pose, Rot2, Rot3, Scalar, Vec2, Vec3, Vector, geom};
use kollide_narrowphase::SweepPose;
use kollide_narrowphase::composite::BodyQueries;
use kollide_shapes::{
    Aabb, BodyShape2, BodyShape3, BoundingVolume, HasMass2, HasMass3, Shape2, Shape3, ShapeError,
};

use crate::ContactImpulse;
use crate::lane::LaneScalar;
use crate::lane_dim::DimLanes;

/// The dimension marker: `Dim<2>` or `Dim<3>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim<const D: usize>;

/// Arithmetic an angular quantity needs (a scalar in 2D, a vector in 3D).
pub trait AngularOps<N>:
    Copy
    + Debug
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<N, Output = Self>
    + AddAssign
    + SubAssign
    + Send
    + Sync
    + 'static
{
}

impl<N, T> AngularOps<N> for T where
    T: Copy
        + Debug
        + PartialEq
        + Add<Output = T>
        + Sub<Output = T>
        + Neg<Output = T>
        + Mul<N, Output = T>
        + AddAssign
        + SubAssign
        + Send
        + Sync
        + 'static
{
}

/// Mass properties in the form the solver stores: mass, local centre of mass, local inertia.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMass<N: Scalar, const D: usize, I> {
    /// Mass (kg).
    pub mass: N,
    /// Centre of mass in the body's local frame.
    pub local_center: Point<N, D>,
    /// Rotational inertia about the centre of mass, local axes.
    pub inertia: I,
}

/// The dimension-specific types and operations of the solver.
pub trait SolverDim<N: Scalar, const D: usize>: Copy + Debug + Send + Sync + 'static {
    /// What a body is made of ([`BodyShape2`] or [`BodyShape3`]: a convex shape, a compound or
    /// level geometry).
    type Shape: BodyQueries<N, D, Pose = Self::Pose> + Clone + Debug + PartialEq + Send + Sync;
    /// The convex shape enum ([`Shape2`] or [`Shape3`]), one kind of [`SolverDim::Shape`].
    type Convex: BoundingVolume<N, D> + Into<Self::Shape> + Clone + Debug + PartialEq + Send + Sync;
    /// The pose type ([`Iso2`] or [`Iso3`]).
    type Pose: Pose<N, D> + SweepPose<N, D>;
    /// The rotation type ([`Rot2`] or [`Rot3`]).
    type Rotation: Copy + Debug + PartialEq + Send + Sync;
    /// Angular velocity: `N` in 2D, `Vec3<N>` in 3D.
    type Angular: AngularOps<N>;
    /// Rotational inertia (or its inverse): `N` in 2D, `Mat3<N>` in 3D.
    type Inertia: Copy + Debug + PartialEq + Send + Sync;
    /// The lanes the contact solver runs on in this dimension: four constraints per
    /// instruction for `f32` worlds, one for `f64` (see [`LaneScalar`]).
    type Lanes: DimLanes<D, Scalar = N>;
    /// One constraint at a time (what the tests compare [`SolverDim::Lanes`] against).
    type OneLane: DimLanes<D, Scalar = N>;

    /// The zero angular velocity.
    fn angular_zero() -> Self::Angular;
    /// The components of an angular quantity (2D: the first; the rest zero).
    fn angular_components(w: &Self::Angular) -> [N; 3];
    /// The angular quantity with these components (2D: the first).
    fn angular_from_components(c: [N; 3]) -> Self::Angular;
    /// The components of a rotation as stored: `(cos, sin, 0, 0)` in 2D, the unit
    /// quaternion's `(i, j, k, w)` in 3D.
    fn rotation_components(q: &Self::Rotation) -> [N; 4];
    /// The rotation with these components (as [`SolverDim::rotation_components`] gives them;
    /// not normalised).
    fn rotation_from_components(c: [N; 4]) -> Self::Rotation;
    /// The entries of an inertia by rows (2D: the first).
    fn inertia_rows(i: &Self::Inertia) -> [[N; 3]; 3];
    /// `true` when every component is finite.
    fn angular_is_finite(w: &Self::Angular) -> bool;
    /// The magnitude of an angular velocity, computed in `f64` (so a finite `f32` value
    /// cannot overflow).
    fn angular_length(w: &Self::Angular) -> f64;
    /// The length of a pose's rotation as stored (a unit complex number in 2D, a unit
    /// quaternion in 3D), computed in `f64`: 1 for a rotation, anything else for a pose built
    /// around the constructors' normalisation.
    fn rotation_length(pose: &Self::Pose) -> f64;
    /// The pose with its rotation rescaled to unit length (the rotation must not be zero).
    fn renormalized(pose: &Self::Pose) -> Self::Pose;
    /// `r × p`: the angular impulse of a linear impulse `p` applied at offset `r`.
    fn cross(r: &Vector<N, D>, p: &Vector<N, D>) -> Self::Angular;
    /// `ω × r`: the velocity of a point at offset `r` on a body spinning at `ω`.
    fn cross_angular(w: &Self::Angular, r: &Vector<N, D>) -> Vector<N, D>;
    /// `a · b` for angular quantities.
    fn angular_dot(a: &Self::Angular, b: &Self::Angular) -> N;
    /// Applies an (inverse) inertia to an angular quantity.
    fn apply_inertia(i: &Self::Inertia, w: &Self::Angular) -> Self::Angular;
    /// The zero inverse inertia (a body that does not rotate).
    fn inertia_zero() -> Self::Inertia;
    /// The inverse of a local inertia, in world axes for the rotation `rot`.
    fn world_inverse_inertia(local: &Self::Inertia, rot: &Self::Rotation) -> Self::Inertia;
    /// The rotation of a pose, and a pose from a translation and a rotation.
    fn rotation(pose: &Self::Pose) -> Self::Rotation;
    /// Builds a pose.
    fn pose_from(translation: Vector<N, D>, rot: Self::Rotation) -> Self::Pose;
    /// Rotates a vector.
    fn rotate(rot: &Self::Rotation, v: &Vector<N, D>) -> Vector<N, D>;
    /// `rot · (integration of ω over h)`, renormalised.
    fn integrate_rotation(rot: &Self::Rotation, w: &Self::Angular, h: N) -> Self::Rotation;
    /// `a · b⁻¹`: the rotation that takes `b` to `a`.
    fn rotation_delta(a: &Self::Rotation, b: &Self::Rotation) -> Self::Rotation;
    /// The identity rotation.
    fn rotation_identity() -> Self::Rotation;
    /// The rotation angle of `rot` (its magnitude in 3D), for reports.
    fn rotation_angle(rot: &Self::Rotation) -> N;
    /// The rotation vector of `rot`: the angular velocity that turns by `rot` in one second
    /// (2D: the angle in `(−π, π]`; 3D: the axis times the angle).
    fn rotation_vector(rot: &Self::Rotation) -> Self::Angular;
    /// `2 sin(θ/2)` for the rotation angle `θ`: how far the rotation moves a point at unit
    /// distance from its axis (a chord of the unit circle), without trigonometry.
    fn rotation_chord(rot: &Self::Rotation) -> N;
    /// Unit tangents spanning the plane perpendicular to `n` (the second is zero in 2D).
    fn tangents(n: &Vector<N, D>) -> [Vector<N, D>; 2];
    /// Rotates an angular quantity (a 2D angular quantity, about the axis out of the plane, is
    /// unchanged by a rotation in the plane).
    fn rotate_angular(rot: &Self::Rotation, a: &Self::Angular) -> Self::Angular;
    /// `a × b` for angular quantities (2D: zero, since any two are parallel).
    fn angular_cross(a: &Self::Angular, b: &Self::Angular) -> Self::Angular;
    /// Two unit angular directions perpendicular to the unit `a` and to each other (2D: zero,
    /// since there is no rotation about an axis in the plane).
    fn angular_perpendiculars(a: &Self::Angular) -> [Self::Angular; 2];
    /// The angle in `(−π, π]` by which `rot` turns about the unit axis `axis`: the twist of its
    /// swing-twist decomposition (2D: its angle, negated when `axis` is negative).
    fn twist_angle(rot: &Self::Rotation, axis: &Self::Angular) -> N;
    /// The angular direction of a twist about the normal `n` (3D: `n` itself; 2D has no
    /// rotation about a contact normal, so zero).
    fn twist_axis(n: &Vector<N, D>) -> Self::Angular;
    /// Mass properties of a shape for a density.
    fn mass(shape: &Self::Shape, density: N) -> Result<BodyMass<N, D, Self::Inertia>, ShapeError>;
    /// The inverse of a local inertia (zero stays zero).
    fn invert_inertia(i: &Self::Inertia) -> Self::Inertia;
    /// `true` when every component of the inertia is finite.
    fn inertia_is_finite(i: &Self::Inertia) -> bool;
    /// The convex shape a body's shape is, if it is one.
    fn as_convex(shape: &Self::Shape) -> Option<&Self::Convex>;
    /// The world box of a body's shape at `pose`.
    fn shape_aabb(shape: &Self::Shape, pose: &Self::Pose) -> Aabb<N, D>;
    /// The largest distance from a body's local origin to a point of its shape (a bound).
    fn bounding_radius(shape: &Self::Shape) -> N;
    /// Half the smallest width of a body's shape along its local axes (its thinnest child's for
    /// a compound).
    fn min_half_width(shape: &Self::Shape) -> N;
    /// `true` for level geometry (meshes, heightfields, chains), which only a static or
    /// kinematic body can hold.
    fn is_level(shape: &Self::Shape) -> bool;
    /// The contact manifold of two shapes.
    fn manifold(
        pose_a: &Self::Pose,
        a: &Self::Shape,
        pose_b: &Self::Pose,
        b: &Self::Shape,
        margin: N,
    ) -> Manifold<N, D, ContactImpulse<N>>;
}

impl<N: LaneScalar> SolverDim<N, 2> for Dim<2> {
    type Shape = BodyShape2<N>;
    type Convex = Shape2<N>;
    type Pose = Iso2<N>;
    type Rotation = Rot2<N>;
    type Angular = N;
    type Inertia = N;
    type Lanes = N::Lanes;
    type OneLane = N::OneLane;

    #[inline(always)]
    fn angular_components(w: &N) -> [N; 3] {
        [*w, N::zero(), N::zero()]
    }
    #[inline(always)]
    fn angular_from_components(c: [N; 3]) -> N {
        c[0]
    }
    #[inline(always)]
    fn rotation_components(q: &Rot2<N>) -> [N; 4] {
        [q.re, q.im, N::zero(), N::zero()]
    }
    #[inline(always)]
    fn rotation_from_components(c: [N; 4]) -> Rot2<N> {
        Rot2::from_cos_sin_unchecked(c[0], c[1])
    }
    #[inline(always)]
    fn inertia_rows(i: &N) -> [[N; 3]; 3] {
        let z = N::zero();
        [[*i, z, z], [z; 3], [z; 3]]
    }

    fn angular_zero() -> N {
        N::zero()
    }
    fn angular_is_finite(w: &N) -> bool {
        w.is_finite_value()
    }
    fn angular_length(w: &N) -> f64 {
        w.to_f64().abs()
    }
    fn rotation_length(pose: &Iso2<N>) -> f64 {
        let (c, s) = (pose.rotation.re.to_f64(), pose.rotation.im.to_f64());
        (c * c + s * s).sqrt()
    }
    fn renormalized(pose: &Iso2<N>) -> Iso2<N> {
        let (c, s) = (pose.rotation.re, pose.rotation.im);
        let length = (c * c + s * s).sqrt();
        let rot = Rot2::from_cos_sin_unchecked(c / length, s / length);
        Iso2::from_parts(pose.translation, rot)
    }
    #[inline(always)]
    fn cross(r: &Vec2<N>, p: &Vec2<N>) -> N {
        r.x * p.y - r.y * p.x
    }
    #[inline(always)]
    fn cross_angular(w: &N, r: &Vec2<N>) -> Vec2<N> {
        Vec2::new(-*w * r.y, *w * r.x)
    }
    #[inline(always)]
    fn angular_dot(a: &N, b: &N) -> N {
        *a * *b
    }
    #[inline(always)]
    fn apply_inertia(i: &N, w: &N) -> N {
        *i * *w
    }
    fn inertia_zero() -> N {
        N::zero()
    }
    fn world_inverse_inertia(local: &N, _rot: &Rot2<N>) -> N {
        *local
    }
    fn rotation(pose: &Iso2<N>) -> Rot2<N> {
        pose.rotation
    }
    fn pose_from(t: Vec2<N>, rot: Rot2<N>) -> Iso2<N> {
        Iso2::from_parts(t.into(), rot)
    }
    #[inline(always)]
    fn rotate(rot: &Rot2<N>, v: &Vec2<N>) -> Vec2<N> {
        rot * v
    }
    fn integrate_rotation(rot: &Rot2<N>, w: &N, h: N) -> Rot2<N> {
        // q + h·ω·perp(q), renormalised (Box2D's b2IntegrateRotation).
        let (c, s) = (rot.re, rot.im);
        let dw = *w * h;
        let (c2, s2) = (c - dw * s, s + dw * c);
        let mag = (c2 * c2 + s2 * s2).sqrt();
        Rot2::from_cos_sin_unchecked(c2 / mag, s2 / mag)
    }
    fn rotation_delta(a: &Rot2<N>, b: &Rot2<N>) -> Rot2<N> {
        a * b.inverse()
    }
    fn rotation_identity() -> Rot2<N> {
        Rot2::identity()
    }
    fn rotation_angle(rot: &Rot2<N>) -> N {
        rot.angle()
    }
    fn rotation_vector(rot: &Rot2<N>) -> N {
        rot.angle()
    }
    fn rotation_chord(rot: &Rot2<N>) -> N {
        // |e^{iθ} − 1|.
        let (c, s) = (rot.re - N::one(), rot.im);
        (c * c + s * s).sqrt()
    }
    fn twist_axis(_: &Vec2<N>) -> N {
        N::zero()
    }
    fn tangents(n: &Vec2<N>) -> [Vec2<N>; 2] {
        [Vec2::new(n.y, -n.x), Vec2::zeros()]
    }
    fn rotate_angular(_: &Rot2<N>, a: &N) -> N {
        *a
    }
    fn angular_cross(_: &N, _: &N) -> N {
        N::zero()
    }
    fn angular_perpendiculars(_: &N) -> [N; 2] {
        [N::zero(); 2]
    }
    fn twist_angle(rot: &Rot2<N>, axis: &N) -> N {
        if *axis < N::zero() { -rot.angle() } else { rot.angle() }
    }
    fn as_convex(shape: &BodyShape2<N>) -> Option<&Shape2<N>> {
        shape.as_convex()
    }
    fn shape_aabb(shape: &BodyShape2<N>, pose: &Iso2<N>) -> Aabb<N, 2> {
        shape.aabb(pose)
    }
    fn bounding_radius(shape: &BodyShape2<N>) -> N {
        shape.bounding_radius()
    }
    fn min_half_width(shape: &BodyShape2<N>) -> N {
        shape.min_half_width()
    }
    fn is_level(shape: &BodyShape2<N>) -> bool {
        shape.is_level()
    }
    fn mass(shape: &BodyShape2<N>, density: N) -> Result<BodyMass<N, 2, N>, ShapeError> {
        let m = shape.mass_properties(density)?;
        Ok(BodyMass { mass: m.mass, local_center: m.local_center, inertia: m.inertia })
    }
    fn invert_inertia(i: &N) -> N {
        if *i > N::zero() { N::one() / *i } else { N::zero() }
    }
    fn inertia_is_finite(i: &N) -> bool {
        i.is_finite_value()
    }
    fn manifold(
        pose_a: &Iso2<N>,
        a: &BodyShape2<N>,
        pose_b: &Iso2<N>,
        b: &BodyShape2<N>,
        margin: N,
    ) -> Manifold<N, 2, ContactImpulse<N>> {
        a.manifold(pose_a, b, pose_b, margin)
    }
}

impl<N: LaneScalar> SolverDim<N, 3> for Dim<3> {
    type Shape = BodyShape3<N>;
    type Convex = Shape3<N>;
    type Pose = Iso3<N>;
    type Rotation = Rot3<N>;
    type Angular = Vec3<N>;
    type Inertia = Mat3<N>;
    type Lanes = N::Lanes;
    type OneLane = N::OneLane;

    #[inline(always)]
    fn angular_components(w: &Vec3<N>) -> [N; 3] {
        [w.x, w.y, w.z]
    }
    #[inline(always)]
    fn angular_from_components(c: [N; 3]) -> Vec3<N> {
        Vec3::new(c[0], c[1], c[2])
    }
    #[inline(always)]
    fn rotation_components(q: &Rot3<N>) -> [N; 4] {
        let c = q.coords;
        [c.x, c.y, c.z, c.w]
    }
    #[inline(always)]
    fn rotation_from_components(c: [N; 4]) -> Rot3<N> {
        Rot3::new_unchecked(nalgebra::Quaternion::new(c[3], c[0], c[1], c[2]))
    }
    #[inline(always)]
    fn inertia_rows(i: &Mat3<N>) -> [[N; 3]; 3] {
        core::array::from_fn(|r| core::array::from_fn(|c| i[(r, c)]))
    }

    fn angular_zero() -> Vec3<N> {
        Vec3::zeros()
    }
    fn angular_is_finite(w: &Vec3<N>) -> bool {
        w.iter().all(|x| x.is_finite_value())
    }
    fn angular_length(w: &Vec3<N>) -> f64 {
        w.iter().map(|x| x.to_f64() * x.to_f64()).sum::<f64>().sqrt()
    }
    fn rotation_length(pose: &Iso3<N>) -> f64 {
        pose.rotation.coords.iter().map(|x| x.to_f64() * x.to_f64()).sum::<f64>().sqrt()
    }
    fn renormalized(pose: &Iso3<N>) -> Iso3<N> {
        Iso3::from_parts(pose.translation, Rot3::new_normalize(*pose.rotation.quaternion()))
    }
    #[inline(always)]
    fn cross(r: &Vec3<N>, p: &Vec3<N>) -> Vec3<N> {
        r.cross(p)
    }
    #[inline(always)]
    fn cross_angular(w: &Vec3<N>, r: &Vec3<N>) -> Vec3<N> {
        w.cross(r)
    }
    #[inline(always)]
    fn angular_dot(a: &Vec3<N>, b: &Vec3<N>) -> N {
        a.dot(b)
    }
    #[inline(always)]
    fn apply_inertia(i: &Mat3<N>, w: &Vec3<N>) -> Vec3<N> {
        i * w
    }
    fn inertia_zero() -> Mat3<N> {
        Mat3::zeros()
    }
    fn world_inverse_inertia(local: &Mat3<N>, rot: &Rot3<N>) -> Mat3<N> {
        let r = rot.to_rotation_matrix().into_inner();
        r * local * r.transpose()
    }
    fn rotation(pose: &Iso3<N>) -> Rot3<N> {
        pose.rotation
    }
    fn pose_from(t: Vec3<N>, rot: Rot3<N>) -> Iso3<N> {
        Iso3::from_parts(t.into(), rot)
    }
    #[inline(always)]
    fn rotate(rot: &Rot3<N>, v: &Vec3<N>) -> Vec3<N> {
        rot * v
    }
    fn integrate_rotation(rot: &Rot3<N>, w: &Vec3<N>, h: N) -> Rot3<N> {
        // q + h/2 · (ω, 0) ⊗ q, renormalised: the first-order quaternion update.
        let q = rot.quaternion();
        let omega = nalgebra::Quaternion::from_parts(N::zero(), *w);
        let dq = omega * q * (h * N::lit(0.5));
        Rot3::new_normalize(q + dq)
    }
    fn rotation_delta(a: &Rot3<N>, b: &Rot3<N>) -> Rot3<N> {
        a * b.inverse()
    }
    fn rotation_identity() -> Rot3<N> {
        Rot3::identity()
    }
    fn rotation_angle(rot: &Rot3<N>) -> N {
        rot.angle()
    }
    fn rotation_vector(rot: &Rot3<N>) -> Vec3<N> {
        rot.scaled_axis()
    }
    fn rotation_chord(rot: &Rot3<N>) -> N {
        // A unit quaternion's vector part has length sin(θ/2).
        rot.imag().norm() * N::lit(2.0)
    }
    fn twist_axis(n: &Vec3<N>) -> Vec3<N> {
        *n
    }
    fn tangents(n: &Vec3<N>) -> [Vec3<N>; 2] {
        let (t, b) = geom::orthonormal_basis(n);
        [t, b]
    }
    fn rotate_angular(rot: &Rot3<N>, a: &Vec3<N>) -> Vec3<N> {
        rot * a
    }
    fn angular_cross(a: &Vec3<N>, b: &Vec3<N>) -> Vec3<N> {
        a.cross(b)
    }
    fn angular_perpendiculars(a: &Vec3<N>) -> [Vec3<N>; 2] {
        let (t, b) = geom::orthonormal_basis(a);
        [t, b]
    }
    fn twist_angle(rot: &Rot3<N>, axis: &Vec3<N>) -> N {
        // The twist about `axis` keeps the quaternion's scalar part and its vector part's
        // component along the axis: its angle is 2 atan2(v · axis, w), wrapped to (−π, π].
        let q = rot.quaternion();
        let (mut s, mut w) = (q.imag().dot(axis), q.w);
        if w < N::zero() {
            (s, w) = (-s, -w);
        }
        s.atan2(w) * N::lit(2.0)
    }
    fn as_convex(shape: &BodyShape3<N>) -> Option<&Shape3<N>> {
        shape.as_convex()
    }
    fn shape_aabb(shape: &BodyShape3<N>, pose: &Iso3<N>) -> Aabb<N, 3> {
        shape.aabb(pose)
    }
    fn bounding_radius(shape: &BodyShape3<N>) -> N {
        shape.bounding_radius()
    }
    fn min_half_width(shape: &BodyShape3<N>) -> N {
        shape.min_half_width()
    }
    fn is_level(shape: &BodyShape3<N>) -> bool {
        shape.is_level()
    }
    fn mass(shape: &BodyShape3<N>, density: N) -> Result<BodyMass<N, 3, Mat3<N>>, ShapeError> {
        let m = shape.mass_properties(density)?;
        Ok(BodyMass { mass: m.mass, local_center: m.local_center, inertia: m.inertia })
    }
    fn invert_inertia(i: &Mat3<N>) -> Mat3<N> {
        // In f64: the inverse's cofactors and determinant are products of two and three
        // inertias, which overflow f32 for inertias beyond about 1e19 (a body a few hundred
        // metres across at a dense material's density), while the inverse itself is fine.
        let wide = i.map(|x| x.to_f64());
        match wide.try_inverse() {
            Some(inv) => inv.map(N::lit),
            None => Mat3::zeros(),
        }
    }
    fn inertia_is_finite(i: &Mat3<N>) -> bool {
        i.iter().all(|x| x.is_finite_value())
    }
    fn manifold(
        pose_a: &Iso3<N>,
        a: &BodyShape3<N>,
        pose_b: &Iso3<N>,
        b: &BodyShape3<N>,
        margin: N,
    ) -> Manifold<N, 3, ContactImpulse<N>> {
        a.manifold(pose_a, b, pose_b, margin)
    }
}
