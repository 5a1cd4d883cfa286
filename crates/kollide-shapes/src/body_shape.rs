//! [`BodyShape2`] and [`BodyShape3`]: everything a body of the world can be made of.
//!
//! A body is either **convex** (one [`Shape2`]/[`Shape3`], the fast path of every query), a
//! [`Compound`] of convex children (a dynamic body of several parts), or **level geometry**: a
//! [`TriMesh`] or a [`HeightField`] in 3D, a [`Polyline`] chain in 2D. Level geometry has no
//! volume, so it can only belong to a static or kinematic body; its mass properties are refused
//! with [`ShapeError::NoMass`]. Compounds and level shapes sit behind an [`Arc`], so that one mesh
//! can be shared by many bodies and a body description stays cheap to clone.
//!
//! The queries on these enums (manifolds, rays, casts, times of impact) are written once over
//! [`crate::CompositeShape`] in `kollide-narrowphase`; this module holds only what the shape
//! itself knows: its box, its bounding radius, its mass, how to draw it.

use core::ops::ControlFlow;
use std::sync::Arc;

use kollide_draw::{DebugDraw, Ortho, Style};
use kollide_math::{Iso2, Iso3, Pose, Scalar, Vector};

use crate::{
    Aabb, BoundingVolume, CompositeShape, Compound2, Compound3, Draw2, Draw3, HasMass2, HasMass3,
    HeightField, MassProperties2, MassProperties3, Polyline, Shape2, Shape3, ShapeError,
    SupportMap, TriMesh,
};

/// What a 2D body is made of (see the module docs).
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "the convex shape is stored inline, as in `Shape2`: boxing it would add an indirection to every support query of the common case"
)]
pub enum BodyShape2<N: Scalar> {
    /// One convex shape.
    Convex(Shape2<N>),
    /// Convex children with local poses.
    Compound(Arc<Compound2<N>>),
    /// A chain of one-sided segments (static or kinematic bodies only).
    Polyline(Arc<Polyline<N>>),
}

/// What a 3D body is made of (see the module docs).
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "the convex shape is stored inline, as in `Shape3`: boxing it would add an indirection to every support query of the common case"
)]
pub enum BodyShape3<N: Scalar> {
    /// One convex shape.
    Convex(Shape3<N>),
    /// Convex children with local poses.
    Compound(Arc<Compound3<N>>),
    /// A triangle mesh (static or kinematic bodies only).
    TriMesh(Arc<TriMesh<N>>),
    /// A grid of heights (static or kinematic bodies only).
    HeightField(Arc<HeightField<N>>),
}

/// The box of `local` (a box in a shape's frame) placed at `pose`: the box around the rotated
/// box, `|R|·h` about the moved centre.
pub fn placed_aabb<N: Scalar, const D: usize, P: Pose<N, D>>(
    local: &Aabb<N, D>,
    pose: &P,
) -> Aabb<N, D> {
    let center = pose.transform_point(&local.center());
    let h = local.half_extents();
    let mut half = Vector::<N, D>::zeros();
    for j in 0..D {
        let mut e = Vector::<N, D>::zeros();
        e[j] = N::one();
        half += pose.transform_vector(&e).abs() * h[j];
    }
    Aabb::new(center - half, center + half)
}

/// The largest distance from the origin of a frame to a point of `local` (a box in that frame).
fn box_reach<N: Scalar, const D: usize>(local: &Aabb<N, D>) -> N {
    local.center().coords.norm() + local.half_extents().norm()
}

/// Half the smallest width of a box: what a level shape offers as its smallest extent.
fn box_min_half_width<N: Scalar, const D: usize>(local: &Aabb<N, D>) -> N {
    local.half_extents().min()
}

macro_rules! impl_body_shape {
    ($ty:ident, $d:literal, $pose:ident, $convex:ident, $mass:ident, $props:ident,
     [$($level:ident),*]) => {
        impl<N: Scalar> $ty<N> {
            /// The convex shape, when the body is one.
            #[inline]
            pub fn as_convex(&self) -> Option<&$convex<N>> {
                match self {
                    Self::Convex(s) => Some(s),
                    _ => None,
                }
            }

            /// `true` for level geometry, which only a static or kinematic body can hold.
            pub fn is_level(&self) -> bool {
                !matches!(self, Self::Convex(_) | Self::Compound(_))
            }

            /// The box of the shape (radius included) in its own frame.
            pub fn local_aabb(&self) -> Aabb<N, $d> {
                match self {
                    Self::Convex(s) => BoundingVolume::local_aabb(s),
                    Self::Compound(c) => c.local_aabb(),
                    $(Self::$level(c) => c.local_aabb(),)*
                }
            }

            /// The world box of the shape placed at `pose`.
            #[inline]
            pub fn aabb(&self, pose: &$pose<N>) -> Aabb<N, $d> {
                match self {
                    Self::Convex(s) => s.aabb(pose),
                    Self::Compound(c) => c.aabb(pose),
                    $(Self::$level(c) => placed_aabb(&c.local_aabb(), pose),)*
                }
            }

            /// The largest distance from the shape's origin to a point of it (a bound).
            pub fn bounding_radius(&self) -> N {
                match self {
                    Self::Convex(s) => s.bounding_radius(),
                    Self::Compound(c) => c.bounding_radius(),
                    $(Self::$level(c) => box_reach(&c.local_aabb()),)*
                }
            }

            /// Half the shape's smallest width along its local axes: for a compound, that of
            /// its thinnest child (how far a body can move in one step before it may pass
            /// through something, by the continuous stage's rule).
            pub fn min_half_width(&self) -> N {
                match self {
                    Self::Convex(s) => convex_min_half_width(s),
                    Self::Compound(c) => c
                        .children()
                        .iter()
                        .map(|(_, s)| convex_min_half_width(s))
                        .fold(N::MAX, |a, b| a.min_of(b)),
                    $(Self::$level(c) => box_min_half_width(&c.local_aabb()),)*
                }
            }
        }

        impl<N: Scalar> $mass<N> for $ty<N> {
            fn mass_properties(&self, density: N) -> Result<$props<N>, ShapeError> {
                match self {
                    Self::Convex(s) => s.mass_properties(density),
                    Self::Compound(c) => c.mass_properties(density),
                    $(Self::$level(_) => Err(ShapeError::NoMass(stringify!($level))),)*
                }
            }
        }

        impl<N: Scalar> PartialEq for $ty<N> {
            /// Convex shapes and compounds compare by value; level shapes by identity (the same
            /// shared mesh), since comparing every vertex of a level is rarely what is meant.
            fn eq(&self, other: &Self) -> bool {
                match (self, other) {
                    (Self::Convex(a), Self::Convex(b)) => a == b,
                    (Self::Compound(a), Self::Compound(b)) => a == b,
                    $((Self::$level(a), Self::$level(b)) => Arc::ptr_eq(a, b),)*
                    _ => false,
                }
            }
        }

        impl<N: Scalar, S: Into<$convex<N>>> From<S> for $ty<N> {
            fn from(s: S) -> Self {
                Self::Convex(s.into())
            }
        }
    };
}

/// Half the smallest width of a convex shape along its local axes.
fn convex_min_half_width<N: Scalar, const D: usize, S: BoundingVolume<N, D>>(s: &S) -> N {
    box_min_half_width(&BoundingVolume::local_aabb(s))
}

impl_body_shape!(BodyShape2, 2, Iso2, Shape2, HasMass2, MassProperties2, [Polyline]);
impl_body_shape!(BodyShape3, 3, Iso3, Shape3, HasMass3, MassProperties3, [TriMesh, HeightField]);

/// Calls `f` with every piece of a composite placed at `pose`.
fn each_piece<N, const D: usize, C>(c: &C, pose: &C::Pose, mut f: impl FnMut(&C::Pose, &C::Piece))
where
    N: Scalar,
    C: CompositeShape<N, D> + ?Sized,
{
    let _ = c.visit_pieces_in(&c.local_aabb(), |_, own, piece| {
        f(&own.map_or(*pose, |p| pose.compose(p)), piece);
        ControlFlow::Continue(())
    });
}

impl<N: Scalar> Draw2<N> for BodyShape2<N> {
    fn draw2(&self, pose: &Iso2<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        match self {
            Self::Convex(s) => s.draw2(pose, dd, style),
            Self::Compound(c) => each_piece(&**c, pose, |at, s| s.draw2(at, dd, style)),
            Self::Polyline(c) => each_piece(&**c, pose, |at, s| s.draw2(at, dd, style)),
        }
    }
}

impl<N: Scalar> Draw3<N> for BodyShape3<N> {
    fn draw3(&self, pose: &Iso3<N>, view: &Ortho<N>, dd: &mut dyn DebugDraw<N>, style: &Style) {
        match self {
            Self::Convex(s) => s.draw3(pose, view, dd, style),
            Self::Compound(c) => each_piece(&**c, pose, |at, s| s.draw3(at, view, dd, style)),
            Self::TriMesh(c) => each_piece(&**c, pose, |at, s| s.draw3(at, view, dd, style)),
            Self::HeightField(c) => each_piece(&**c, pose, |at, s| s.draw3(at, view, dd, style)),
        }
    }
}

macro_rules! impl_from_shared {
    ($ty:ident, $($v:ident($inner:ty)),*) => {
        $(impl<N: Scalar> From<$inner> for $ty<N> {
            fn from(s: $inner) -> Self { Self::$v(Arc::new(s)) }
        }
        impl<N: Scalar> From<Arc<$inner>> for $ty<N> {
            fn from(s: Arc<$inner>) -> Self { Self::$v(s) }
        })*
    };
}

impl_from_shared!(BodyShape2, Compound(Compound2<N>), Polyline(Polyline<N>));
impl_from_shared!(
    BodyShape3,
    Compound(Compound3<N>),
    TriMesh(TriMesh<N>),
    HeightField(HeightField<N>)
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ball, Cuboid};
    use kollide_math::{Point3, Vec2, Vec3};

    #[test]
    fn a_placed_box_bounds_the_placed_corners_tightly() {
        let local = Aabb::new(Point3::new(-1.0, 0.5, -2.0), Point3::new(3.0, 1.0, 0.0));
        let pose = Iso3::new(Vec3::new(0.3, -2.0, 5.0), Vec3::new(0.4, -1.1, 0.7));
        let placed = placed_aabb(&local, &pose);
        let mut hull: Option<Aabb<f64, 3>> = None;
        for k in 0..8 {
            let pick = |bit: usize, lo: f64, hi: f64| if k >> bit & 1 == 1 { hi } else { lo };
            let c = Point3::new(
                pick(0, local.mins.x, local.maxs.x),
                pick(1, local.mins.y, local.maxs.y),
                pick(2, local.mins.z, local.maxs.z),
            );
            let p = pose * c;
            let b = Aabb::new(p, p);
            hull = Some(hull.map_or(b, |h| h.merged(&b)));
        }
        let hull = hull.unwrap();
        assert!(
            (placed.mins - hull.mins).norm() < 1e-12 && (placed.maxs - hull.maxs).norm() < 1e-12
        );
    }

    #[test]
    fn level_shapes_have_no_mass_and_convex_ones_keep_theirs() {
        let field = HeightField::new(3, 3, vec![0.0f64; 9], Vec3::new(2.0, 1.0, 2.0)).unwrap();
        let level = BodyShape3::from(field);
        assert!(level.is_level());
        assert_eq!(level.mass_properties(1.0), Err(ShapeError::NoMass("HeightField")));
        let ball = BodyShape3::from(Ball::new(0.5f64).unwrap());
        let direct = Ball::<f64, 3>::new(0.5).unwrap().mass_properties(1.0).unwrap();
        assert_eq!(ball.mass_properties(1.0).unwrap(), direct);
        assert!(!ball.is_level() && ball.as_convex().is_some());
        let chain = Polyline::open(
            vec![kollide_math::Point2::new(0.0f64, 0.0), kollide_math::Point2::new(1.0, 0.0)],
            None,
            None,
        )
        .unwrap();
        let shared = Arc::new(chain);
        let (a, b) = (BodyShape2::from(shared.clone()), BodyShape2::from(shared));
        assert_eq!(a, b);
        assert_eq!(a.mass_properties(1.0), Err(ShapeError::NoMass("Polyline")));
        let boxed = BodyShape2::from(Cuboid::new(Vec2::new(0.5f64, 0.25)).unwrap());
        assert_ne!(a, boxed);
        assert_eq!(boxed.min_half_width(), 0.25);
    }
}
