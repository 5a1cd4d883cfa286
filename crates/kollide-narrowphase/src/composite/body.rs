//! [`BodyQueries`]: every query on what a body is made of ([`BodyShape2`], [`BodyShape3`]),
//! convex or composite, so that the world is written once over it.
//!
//! Each query picks its path by the kinds of its two sides:
//! - **convex and convex:** the convex query (`manifold3`, `ray_cast`, [`time_of_impact`], …);
//! - **composite and convex:** the composite query of this module (the composite is A there; a
//!   convex A takes the composite query with the roles swapped, and the answer is flipped back);
//! - **composite and composite:** every piece of one against the other as a convex shape
//!   ([`compound_manifold3`], [`pair_time_of_impact`], [`pair_intersection_test`]). Level
//!   geometry always stays on the A side, where its surface rules (internal edges, one-sided
//!   chains) apply; a compound takes the B side. Two pieces of level geometry never meet in a
//!   world (neither can be dynamic); between them the pieces of B are treated as solid.

use kollide_manifold::Manifold;
use kollide_math::{Iso2, Iso3, Scalar};
use kollide_shapes::{BodyShape2, BodyShape3, BoundingVolume, CompositeShape};

use super::toi::{composite_time_of_impact, pair_intersection_test, pair_time_of_impact};
use super::{
    Piece2, Piece3, composite_closest_points, composite_intersection_test, composite_manifold2,
    composite_manifold3, composite_ray_cast, composite_shape_cast, compound_manifold2,
    compound_manifold3,
};
use crate::query::{Intersection, ShapeContact};
use crate::toi::{Sweep, SweepPose, Toi, time_of_impact};
use crate::{
    CastHit, QuerySettings, Ray, closest_points, intersection_test, manifold2, manifold3, ray_cast,
    shape_cast,
};

/// The queries the world asks of a body's shape (see the module docs). Implemented by
/// [`BodyShape2`] and [`BodyShape3`]; the other side of a query is another body's shape or any
/// convex shape `S`.
pub trait BodyQueries<N: Scalar, const D: usize>: Sized {
    /// The pose type of the dimension.
    type Pose: SweepPose<N, D>;

    /// The first hit of a ray (world) on the shape at `pose`, with `t ≤ max_t`.
    fn ray_cast(
        &self,
        pose: &Self::Pose,
        ray: &Ray<N, D>,
        max_t: N,
        settings: &QuerySettings<N>,
    ) -> Option<CastHit<N, D>>;

    /// Whether the convex shape `s` at `pose_s` overlaps or touches the shape at `pose`.
    fn intersects_convex<S: BoundingVolume<N, D> + ?Sized>(
        &self,
        pose: &Self::Pose,
        s: &S,
        pose_s: &Self::Pose,
        settings: &QuerySettings<N>,
    ) -> Intersection;

    /// The first time `t ≤ max_toi` at which the convex shape `s`, leaving `pose_s` with
    /// velocity `vel_s`, touches the shape at rest at `pose` (normal from this shape to `s`).
    #[allow(clippy::too_many_arguments)]
    fn cast_convex<S: BoundingVolume<N, D> + ?Sized>(
        &self,
        pose: &Self::Pose,
        s: &S,
        pose_s: &Self::Pose,
        vel_s: &kollide_math::Vector<N, D>,
        max_toi: N,
        settings: &QuerySettings<N>,
    ) -> Option<CastHit<N, D>>;

    /// The closest points of the shape and the convex shape `s` (negative separation when
    /// they overlap); `None` only for a composite without pieces.
    fn closest_to_convex<S: BoundingVolume<N, D> + ?Sized>(
        &self,
        pose: &Self::Pose,
        s: &S,
        pose_s: &Self::Pose,
        settings: &QuerySettings<N>,
    ) -> Option<ShapeContact<N, D>>;

    /// The time of impact of the shape on `sweep` and the convex shape `s` on `sweep_s`
    /// (see [`time_of_impact`]).
    #[allow(clippy::too_many_arguments)]
    fn time_of_impact_convex<S: BoundingVolume<N, D> + ?Sized>(
        &self,
        sweep: &Sweep<N, D, Self::Pose>,
        s: &S,
        sweep_s: &Sweep<N, D, Self::Pose>,
        target: N,
        tolerance: N,
        settings: &QuerySettings<N>,
    ) -> Toi<N, D>;

    /// Whether two bodies' shapes overlap or touch.
    fn intersects(
        &self,
        pose: &Self::Pose,
        other: &Self,
        pose_other: &Self::Pose,
        settings: &QuerySettings<N>,
    ) -> Intersection;

    /// The time of impact of two bodies' shapes on their sweeps.
    #[allow(clippy::too_many_arguments)]
    fn time_of_impact(
        &self,
        sweep: &Sweep<N, D, Self::Pose>,
        other: &Self,
        sweep_other: &Sweep<N, D, Self::Pose>,
        target: N,
        tolerance: N,
        settings: &QuerySettings<N>,
    ) -> Toi<N, D>;

    /// The contact manifold of two bodies' shapes, contacts up to `margin` apart, normal from
    /// this shape to `other`.
    fn manifold<U: Copy + Default>(
        &self,
        pose: &Self::Pose,
        other: &Self,
        pose_other: &Self::Pose,
        margin: N,
    ) -> Manifold<N, D, U>;
}

/// A time of impact seen from the other side.
fn flip_toi<N: Scalar, const D: usize>(toi: Toi<N, D>) -> Toi<N, D> {
    Toi { contact: toi.contact.map(|c| c.flipped()), ..toi }
}

macro_rules! impl_body_queries {
    ($module:ident, $ty:ident, $d:literal, $iso:ident, $piece:ident, $manifold:ident,
     $composite_manifold:ident, $pair_manifold:ident, [$($v:ident),*]) => {
        mod $module {
            use super::*;

            /// `b` against a composite A (A's side kept as A).
            pub(super) fn manifold_against<N, U, C>(
                pos_a: &$iso<N>,
                a: &C,
                pos_b: &$iso<N>,
                b: &$ty<N>,
                margin: N,
            ) -> Manifold<N, $d, U>
            where
                N: Scalar,
                U: Copy + Default,
                C: CompositeShape<N, $d, Pose = $iso<N>> + ?Sized,
                C::Piece: $piece<N>,
            {
                match b {
                    $ty::Convex(s) => $composite_manifold(pos_a, a, pos_b, s, margin),
                    $($ty::$v(c) => $pair_manifold(pos_a, a, pos_b, &**c, margin),)*
                }
            }

            pub(super) fn intersects_against<N, C>(
                pos_a: &$iso<N>,
                a: &C,
                pos_b: &$iso<N>,
                b: &$ty<N>,
                settings: &QuerySettings<N>,
            ) -> Intersection
            where
                N: Scalar,
                C: CompositeShape<N, $d, Pose = $iso<N>> + ?Sized,
                C::Piece: $piece<N>,
            {
                match b {
                    $ty::Convex(s) => composite_intersection_test(pos_a, a, pos_b, s, settings),
                    $($ty::$v(c) => pair_intersection_test(pos_a, a, pos_b, &**c, settings),)*
                }
            }

            #[allow(clippy::too_many_arguments)]
            pub(super) fn toi_against<N, C>(
                a: &C,
                sweep_a: &Sweep<N, $d, $iso<N>>,
                b: &$ty<N>,
                sweep_b: &Sweep<N, $d, $iso<N>>,
                target: N,
                tolerance: N,
                settings: &QuerySettings<N>,
            ) -> Toi<N, $d>
            where
                N: Scalar,
                C: CompositeShape<N, $d, Pose = $iso<N>> + ?Sized,
            {
                match b {
                    $ty::Convex(s) => composite_time_of_impact(
                        a, sweep_a, s, sweep_b, target, tolerance, settings,
                    ),
                    $($ty::$v(c) => pair_time_of_impact(
                        a, sweep_a, &**c, sweep_b, target, tolerance, settings,
                    ),)*
                }
            }
        }

        impl<N: Scalar> BodyQueries<N, $d> for $ty<N> {
            type Pose = $iso<N>;

            fn ray_cast(
                &self,
                pose: &$iso<N>,
                ray: &Ray<N, $d>,
                max_t: N,
                settings: &QuerySettings<N>,
            ) -> Option<CastHit<N, $d>> {
                match self {
                    Self::Convex(s) => ray_cast(pose, s, ray, max_t, settings),
                    $(Self::$v(c) => composite_ray_cast(pose, &**c, ray, max_t, settings),)*
                }
            }

            fn intersects_convex<S: BoundingVolume<N, $d> + ?Sized>(
                &self,
                pose: &$iso<N>,
                s: &S,
                pose_s: &$iso<N>,
                settings: &QuerySettings<N>,
            ) -> Intersection {
                match self {
                    Self::Convex(x) => intersection_test(pose, x, pose_s, s, None, settings),
                    $(Self::$v(c) => composite_intersection_test(pose, &**c, pose_s, s, settings),)*
                }
            }

            fn cast_convex<S: BoundingVolume<N, $d> + ?Sized>(
                &self,
                pose: &$iso<N>,
                s: &S,
                pose_s: &$iso<N>,
                vel_s: &kollide_math::Vector<N, $d>,
                max_toi: N,
                settings: &QuerySettings<N>,
            ) -> Option<CastHit<N, $d>> {
                let zero = kollide_math::Vector::<N, $d>::zeros();
                match self {
                    Self::Convex(x) => {
                        shape_cast(pose, &zero, x, pose_s, vel_s, s, max_toi, settings)
                    }
                    $(Self::$v(c) => {
                        composite_shape_cast(pose, &**c, pose_s, vel_s, s, max_toi, settings)
                    })*
                }
            }

            fn closest_to_convex<S: BoundingVolume<N, $d> + ?Sized>(
                &self,
                pose: &$iso<N>,
                s: &S,
                pose_s: &$iso<N>,
                settings: &QuerySettings<N>,
            ) -> Option<ShapeContact<N, $d>> {
                match self {
                    Self::Convex(x) => Some(closest_points(pose, x, pose_s, s, settings)),
                    $(Self::$v(c) => composite_closest_points(pose, &**c, pose_s, s, settings),)*
                }
            }

            fn time_of_impact_convex<S: BoundingVolume<N, $d> + ?Sized>(
                &self,
                sweep: &Sweep<N, $d, $iso<N>>,
                s: &S,
                sweep_s: &Sweep<N, $d, $iso<N>>,
                target: N,
                tolerance: N,
                settings: &QuerySettings<N>,
            ) -> Toi<N, $d> {
                match self {
                    Self::Convex(x) => {
                        time_of_impact(x, sweep, s, sweep_s, target, tolerance, settings)
                    }
                    $(Self::$v(c) => composite_time_of_impact(
                        &**c, sweep, s, sweep_s, target, tolerance, settings,
                    ),)*
                }
            }

            fn intersects(
                &self,
                pose: &$iso<N>,
                other: &Self,
                pose_other: &$iso<N>,
                settings: &QuerySettings<N>,
            ) -> Intersection {
                match (self, other) {
                    (Self::Convex(a), _) => other.intersects_convex(pose_other, a, pose, settings),
                    $((Self::$v(a), _) => {
                        $module::intersects_against(pose, &**a, pose_other, other, settings)
                    })*
                }
            }

            fn time_of_impact(
                &self,
                sweep: &Sweep<N, $d, $iso<N>>,
                other: &Self,
                sweep_other: &Sweep<N, $d, $iso<N>>,
                target: N,
                tolerance: N,
                settings: &QuerySettings<N>,
            ) -> Toi<N, $d> {
                if other.is_level() && !self.is_level() {
                    let toi = other.time_of_impact(
                        sweep_other, self, sweep, target, tolerance, settings,
                    );
                    return flip_toi(toi);
                }
                match self {
                    Self::Convex(a) => flip_toi(other.time_of_impact_convex(
                        sweep_other, a, sweep, target, tolerance, settings,
                    )),
                    $(Self::$v(a) => $module::toi_against(
                        &**a, sweep, other, sweep_other, target, tolerance, settings,
                    ),)*
                }
            }

            #[inline]
            fn manifold<U: Copy + Default>(
                &self,
                pose: &$iso<N>,
                other: &Self,
                pose_other: &$iso<N>,
                margin: N,
            ) -> Manifold<N, $d, U> {
                // The common case first: two convex shapes.
                if let (Self::Convex(a), Self::Convex(b)) = (self, other) {
                    return $manifold(pose, a, pose_other, b, margin);
                }
                if other.is_level() && !self.is_level() {
                    return other.manifold::<U>(pose_other, self, pose, margin).flipped();
                }
                match self {
                    Self::Convex(a) => match other {
                        Self::Convex(b) => $manifold(pose, a, pose_other, b, margin),
                        _ => other.manifold::<U>(pose_other, self, pose, margin).flipped(),
                    },
                    $(Self::$v(a) => {
                        $module::manifold_against(pose, &**a, pose_other, other, margin)
                    })*
                }
            }
        }
    };
}

impl_body_queries!(
    dim2,
    BodyShape2,
    2,
    Iso2,
    Piece2,
    manifold2,
    composite_manifold2,
    compound_manifold2,
    [Compound, Polyline]
);
impl_body_queries!(
    dim3,
    BodyShape3,
    3,
    Iso3,
    Piece3,
    manifold3,
    composite_manifold3,
    compound_manifold3,
    [Compound, TriMesh, HeightField]
);
