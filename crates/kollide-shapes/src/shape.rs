//! [`Shape2`] and [`Shape3`]: one enum per dimension holding any of kollide's shapes.
//!
//! Generic code (GJK, EPA, casts) takes any `SupportMap`, but a world of bodies needs one type
//! for "some shape", and the manifold dispatcher needs to know *which* shape it has to pick a
//! specialised routine. An enum does both without boxing or dynamic dispatch. Each variant wraps
//! an already-validated shape, so a `Shape2`/`Shape3` is valid by construction too.

use kollide_math::{Point, Pose, Scalar, Vector};

use crate::{
    Aabb, Ball, BoundingVolume, Capsule, Cone, ConvexPolygon, ConvexPolyhedron, Cuboid, Cylinder,
    HasMass2, HasMass3, MassProperties2, MassProperties3, Rounded, Segment, ShapeError,
    SupportFeature, SupportFeatureMap, SupportMap, Triangle,
};

/// Any 2D shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape2<N: Scalar> {
    /// A disc.
    Circle(Ball<N, 2>),
    /// A capsule (a segment grown by a radius).
    Capsule(Capsule<N, 2>),
    /// A segment (no area: static bodies only).
    Segment(Segment<N, 2>),
    /// A box.
    Cuboid(Cuboid<N, 2>),
    /// A triangle.
    Triangle(Triangle<N, 2>),
    /// A convex polygon.
    Polygon(ConvexPolygon<N>),
    /// A box with rounded corners.
    RoundedCuboid(Rounded<Cuboid<N, 2>, N>),
}

/// Any 3D shape.
#[derive(Clone, Debug, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "a shape is stored once per body; boxing the polyhedron would add an indirection to every support query"
)]
pub enum Shape3<N: Scalar> {
    /// A sphere.
    Ball(Ball<N, 3>),
    /// A capsule.
    Capsule(Capsule<N, 3>),
    /// A segment (no volume: static bodies only).
    Segment(Segment<N, 3>),
    /// A box.
    Cuboid(Cuboid<N, 3>),
    /// A triangle (no volume: static bodies only).
    Triangle(Triangle<N, 3>),
    /// A convex polyhedron.
    Polyhedron(ConvexPolyhedron<N>),
    /// A cylinder along local y.
    Cylinder(Cylinder<N>),
    /// A cone along local y.
    Cone(Cone<N>),
}

macro_rules! delegate {
    ($self:ident, $s:ident => $e:expr, [$($v:ident),*]) => {
        match $self { $( Self::$v($s) => $e, )* }
    };
}

macro_rules! impl_shape_enum {
    ($ty:ident, $d:literal, [$($v:ident),*]) => {
        impl<N: Scalar> SupportMap<N, $d> for $ty<N> {
            #[inline]
            fn local_core_support(&self, dir: &Vector<N, $d>) -> Point<N, $d> {
                delegate!(self, s => s.local_core_support(dir), [$($v),*])
            }
            #[inline]
            fn radius(&self) -> N {
                delegate!(self, s => SupportMap::<N, $d>::radius(s), [$($v),*])
            }
            #[inline]
            fn local_core_support_hinted(&self, dir: &Vector<N, $d>, hint: &mut u32) -> Point<N, $d> {
                delegate!(self, s => s.local_core_support_hinted(dir, hint), [$($v),*])
            }
            #[inline]
            fn bounding_radius(&self) -> N {
                delegate!(self, s => s.bounding_radius(), [$($v),*])
            }
            #[inline]
            fn core_is_point(&self) -> bool {
                delegate!(self, s => s.core_is_point(), [$($v),*])
            }
            #[inline]
            fn core_segment(&self) -> Option<[Point<N, $d>; 2]> {
                delegate!(self, s => s.core_segment(), [$($v),*])
            }
            #[inline]
            fn core_cuboid(&self) -> Option<Vector<N, $d>> {
                delegate!(self, s => s.core_cuboid(), [$($v),*])
            }
            #[inline]
            fn polytope(&self) -> Option<&dyn crate::Polytope<N, $d>> {
                delegate!(self, s => s.polytope(), [$($v),*])
            }
            #[inline]
            fn flat_normals(&self, f: &mut dyn FnMut(crate::FlatNormal<N, $d>)) {
                delegate!(self, s => s.flat_normals(f), [$($v),*])
            }
            #[inline]
            fn curved_core_feature(
                &self,
                dir: &Vector<N, $d>,
                tol: N,
                f: &mut dyn FnMut(Point<N, $d>),
            ) -> bool {
                delegate!(self, s => s.curved_core_feature(dir, tol, f), [$($v),*])
            }
            #[inline]
            fn curved_generators(
                &self,
                dir: &Vector<N, $d>,
                tol: N,
                f: &mut dyn FnMut(crate::Generator<N, $d>),
            ) -> bool {
                delegate!(self, s => s.curved_generators(dir, tol, f), [$($v),*])
            }
            #[inline]
            fn local_core_depth(&self, p: &Point<N, $d>) -> Option<(N, Vector<N, $d>)> {
                delegate!(self, s => s.local_core_depth(p), [$($v),*])
            }
            #[inline]
            fn local_core_projection(&self, p: &Point<N, $d>) -> Option<Point<N, $d>> {
                delegate!(self, s => s.local_core_projection(p), [$($v),*])
            }
            #[inline]
            fn local_core_normal_toward(&self, p: &Point<N, $d>) -> Option<Vector<N, $d>> {
                delegate!(self, s => s.local_core_normal_toward(p), [$($v),*])
            }
            #[inline]
            fn local_core_ray(
                &self,
                origin: &Vector<N, $d>,
                dir: &Vector<N, $d>,
                max_t: N,
            ) -> Option<crate::CoreRay<N, $d>> {
                delegate!(self, s => s.local_core_ray(origin, dir, max_t), [$($v),*])
            }
        }

        impl<N: Scalar> SupportFeatureMap<N, $d> for $ty<N> {
            fn local_support_feature(&self, dir: &Vector<N, $d>, out: &mut SupportFeature<N, $d>) {
                delegate!(self, s => s.local_support_feature(dir, out), [$($v),*])
            }
        }

        impl<N: Scalar> BoundingVolume<N, $d> for $ty<N> {
            fn aabb<P: Pose<N, $d>>(&self, pose: &P) -> Aabb<N, $d> {
                delegate!(self, s => s.aabb(pose), [$($v),*])
            }
            fn local_aabb(&self) -> Aabb<N, $d> {
                delegate!(self, s => s.local_aabb(), [$($v),*])
            }
        }
    };
}

impl_shape_enum!(Shape2, 2, [Circle, Capsule, Segment, Cuboid, Triangle, Polygon, RoundedCuboid]);
impl_shape_enum!(Shape3, 3, [Ball, Capsule, Segment, Cuboid, Triangle, Polyhedron, Cylinder, Cone]);

impl<N: Scalar> HasMass2<N> for Shape2<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError> {
        match self {
            Self::Circle(s) => s.mass_properties(density),
            Self::Capsule(s) => s.mass_properties(density),
            Self::Segment(_) => Err(ShapeError::NoMass("segment")),
            Self::Cuboid(s) => s.mass_properties(density),
            Self::Triangle(s) => s.mass_properties(density),
            Self::Polygon(s) => s.mass_properties(density),
            Self::RoundedCuboid(s) => s.mass_properties(density),
        }
    }
}

impl<N: Scalar> HasMass3<N> for Shape3<N> {
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError> {
        match self {
            Self::Ball(s) => s.mass_properties(density),
            Self::Capsule(s) => s.mass_properties(density),
            Self::Segment(_) => Err(ShapeError::NoMass("segment")),
            Self::Cuboid(s) => s.mass_properties(density),
            Self::Triangle(_) => Err(ShapeError::NoMass("triangle")),
            Self::Polyhedron(s) => s.mass_properties(density),
            Self::Cylinder(s) => s.mass_properties(density),
            Self::Cone(s) => s.mass_properties(density),
        }
    }
}

impl<N: Scalar> Shape3<N> {
    /// The point the shape is symmetric about (`p ↦ 2c − p` maps it onto itself), in its own
    /// frame, when its kind always has one: the origin for a ball, a box and a cylinder, the
    /// middle of the core for a capsule and a segment; `None` for the other kinds.
    ///
    /// Such a shape reaches as far along any direction `d` as along `−d` from its centre
    /// (`d · (s(d) + s(−d)) = 2 d · c` for support points `s`), so which side of a plane most of
    /// it lies on is the side of its centre, with no support query.
    pub fn centre_of_symmetry(&self) -> Option<Point<N, 3>> {
        match self {
            Self::Ball(_) | Self::Cuboid(_) | Self::Cylinder(_) => Some(Point::origin()),
            Self::Capsule(c) => Some(c.segment().midpoint()),
            Self::Segment(s) => Some(s.midpoint()),
            Self::Triangle(_) | Self::Polyhedron(_) | Self::Cone(_) => None,
        }
    }
}

macro_rules! impl_from {
    ($ty:ident, $($v:ident($inner:ty)),*) => {
        $(impl<N: Scalar> From<$inner> for $ty<N> {
            fn from(s: $inner) -> Self { Self::$v(s) }
        })*
    };
}

impl_from!(
    Shape2,
    Circle(Ball<N, 2>),
    Capsule(Capsule<N, 2>),
    Segment(Segment<N, 2>),
    Cuboid(Cuboid<N, 2>),
    Triangle(Triangle<N, 2>),
    Polygon(ConvexPolygon<N>),
    RoundedCuboid(Rounded<Cuboid<N, 2>, N>)
);
impl_from!(
    Shape3,
    Ball(Ball<N, 3>),
    Capsule(Capsule<N, 3>),
    Segment(Segment<N, 3>),
    Cuboid(Cuboid<N, 3>),
    Triangle(Triangle<N, 3>),
    Polyhedron(ConvexPolyhedron<N>),
    Cylinder(Cylinder<N>),
    Cone(Cone<N>)
);

#[cfg(test)]
mod tests {
    use super::*;
    use kollide_math::{Iso2, Vec2, Vec3};

    /// `bounding_radius` bounds every support point and is tight (reached, or approached by
    /// random directions, within 1e-3) for every shape, through the enums.
    fn check_bounding_radius<const D: usize, S: SupportMap<f64, D>>(s: &S, name: &str) {
        let r = s.bounding_radius();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut unit = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut reached = 0.0f64;
        for _ in 0..20_000 {
            let d = Vector::<f64, D>::from_fn(|_, _| unit());
            let p = s.local_support_point(&d).coords.norm();
            assert!(p <= r * (1.0 + 1e-12), "{name}: support point at {p} > {r}");
            reached = reached.max(p);
        }
        assert!(reached >= r * (1.0 - 1e-3), "{name}: radius {r} but points only reach {reached}");
        // The trait's default (axis-aligned box) is a valid but looser bound.
        struct Default<'a, S>(&'a S);
        impl<const D: usize, S: SupportMap<f64, D>> SupportMap<f64, D> for Default<'_, S> {
            fn local_core_support(&self, dir: &Vector<f64, D>) -> Point<f64, D> {
                self.0.local_core_support(dir)
            }
            fn radius(&self) -> f64 {
                self.0.radius()
            }
        }
        assert!(Default(s).bounding_radius() >= r * (1.0 - 1e-12), "{name}: default bound");
    }

    /// One shape of every 3D kind, in the enum's order, off-centre where the kind allows.
    fn shapes3() -> Vec<Shape3<f64>> {
        use kollide_math::Point3;
        let cloud: Vec<Point3<f64>> = (0..40)
            .map(|i| {
                let t = i as f64 * 2.399_963;
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / 40.0;
                let r = (1.0 - z * z).sqrt();
                Point3::new(r * t.cos() + 0.3, r * t.sin() * 0.8, z * 0.6 - 0.2)
            })
            .collect();
        vec![
            Ball::new(0.7).unwrap().into(),
            Capsule::new(Point3::new(-1.0, 0.5, 0.2), Point3::new(0.5, 0.2, -1.0), 0.3)
                .unwrap()
                .into(),
            Segment::new(Point3::new(-1.0, 0.5, 0.0), Point3::new(2.0, 0.2, 1.0)).unwrap().into(),
            Cuboid::new(Vec3::new(1.0, 2.0, 0.5)).unwrap().into(),
            Triangle::new(
                Point3::new(0.0, 0.0, 1.0),
                Point3::new(3.0, 0.5, 0.0),
                Point3::new(1.0, 2.0, -1.0),
            )
            .unwrap()
            .into(),
            ConvexPolyhedron::from_points(&cloud).unwrap().into(),
            Cylinder::new(0.8, 0.5).unwrap().into(),
            Cone::new(0.8, 0.5).unwrap().into(),
        ]
    }

    #[test]
    fn bounding_radii() {
        use kollide_math::Point2;
        let shapes2: Vec<Shape2<f64>> = vec![
            Ball::new(0.7).unwrap().into(),
            Capsule::new(Point2::new(-1.0, 0.5), Point2::new(0.5, 0.2), 0.3).unwrap().into(),
            Segment::new(Point2::new(-1.0, 0.5), Point2::new(2.0, 0.2)).unwrap().into(),
            Cuboid::new(Vec2::new(1.0, 2.0)).unwrap().into(),
            Triangle::new(Point2::new(0.0, 0.0), Point2::new(3.0, 0.5), Point2::new(1.0, 2.0))
                .unwrap()
                .into(),
            ConvexPolygon::regular(7, 1.5).unwrap().into(),
            Rounded::new(Cuboid::new(Vec2::new(1.0, 0.5)).unwrap(), 0.25).unwrap().into(),
        ];
        for (k, s) in shapes2.iter().enumerate() {
            check_bounding_radius(s, &format!("2d shape {k}"));
        }
        let shapes3 = shapes3();
        for (k, s) in shapes3.iter().enumerate() {
            check_bounding_radius(s, &format!("3d shape {k}"));
        }
        let ball: Shape3<f64> = Ball::new(1.0).unwrap().into();
        assert!(ball.core_is_point());
        assert!(!shapes3[3].core_is_point());
        assert!(Rounded::new(Ball::<f64, 2>::new(1.0).unwrap(), 0.5).unwrap().core_is_point());
    }

    #[test]
    fn enums_delegate_support_aabb_and_mass() {
        let s: Shape2<f64> = Cuboid::new(Vec2::new(1.0, 2.0)).unwrap().into();
        assert_eq!(s.local_support_point(&Vec2::new(1.0, 1.0)), Point::from(Vec2::new(1.0, 2.0)));
        assert_eq!(s.aabb(&Iso2::identity()).maxs, Point::from(Vec2::new(1.0, 2.0)));
        assert!((s.mass_properties(1.0).unwrap().mass - 8.0).abs() < 1e-12);
        let seg: Shape2<f64> =
            Segment::new(Point::origin(), Point::from(Vec2::new(1.0, 0.0))).unwrap().into();
        assert!(matches!(seg.mass_properties(1.0), Err(ShapeError::NoMass(_))));
        let b: Shape3<f32> = Ball::new(2.0).unwrap().into();
        assert_eq!(b.radius(), 2.0);
        assert_eq!(b.local_support_point(&Vec3::x()), Point::from(Vec3::new(2.0, 0.0, 0.0)));
    }

    /// A centre of symmetry is one: the shape reaches as far from it along a direction as along
    /// the opposite one, for 1,000 directions per kind; the kinds without one say so.
    #[test]
    fn centres_of_symmetry_halve_opposite_supports() {
        let mut checked = 0;
        for (k, s) in shapes3().iter().enumerate() {
            let Some(c) = s.centre_of_symmetry() else {
                assert!(matches!(s, Shape3::Triangle(_) | Shape3::Polyhedron(_) | Shape3::Cone(_)));
                continue;
            };
            for i in 0..1000 {
                let t = i as f64 * 2.399_963;
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / 1000.0;
                let r = (1.0 - z * z).sqrt();
                let d = Vec3::new(r * t.cos(), r * t.sin(), z);
                let sum = s.local_support_point(&d).coords + s.local_support_point(&-d).coords;
                assert!((d.dot(&sum) - 2.0 * d.dot(&c.coords)).abs() < 1e-12, "shape {k}, {d:?}");
            }
            checked += 1;
        }
        assert_eq!(checked, 5);
    }
}
