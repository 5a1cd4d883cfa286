//! Axis-aligned bounding boxes.
//!
//! [`Aabb`] is the box `[mins, maxs]`; [`BoundingVolume`] gives the AABB of a shape placed by a
//! pose. The default computes it from `2·D` support queries along the world axes, which is exact
//! for every convex shape; shapes with a cheaper closed form override it.

use kollide_math::{Point, Pose, Scalar, Vector};

use crate::SupportMap;

/// An axis-aligned box `{ p : mins ≤ p ≤ maxs }` (component-wise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<N: Scalar, const D: usize> {
    /// The lower corner.
    pub mins: Point<N, D>,
    /// The upper corner.
    pub maxs: Point<N, D>,
}

impl<N: Scalar, const D: usize> Aabb<N, D> {
    /// The box with these corners. `mins` must not exceed `maxs` on any axis.
    pub fn new(mins: Point<N, D>, maxs: Point<N, D>) -> Self {
        Self { mins, maxs }
    }

    /// The box centred at `center` with half extents `half`.
    pub fn from_half_extents(center: Point<N, D>, half: Vector<N, D>) -> Self {
        Self { mins: center - half, maxs: center + half }
    }

    /// The centre of the box.
    pub fn center(&self) -> Point<N, D> {
        nalgebra::center(&self.mins, &self.maxs)
    }

    /// The half extents of the box.
    pub fn half_extents(&self) -> Vector<N, D> {
        (self.maxs - self.mins) * N::lit(0.5)
    }

    /// `true` when the two boxes overlap or touch.
    pub fn intersects(&self, other: &Self) -> bool {
        (0..D).all(|i| self.mins[i] <= other.maxs[i] && other.mins[i] <= self.maxs[i])
    }

    /// `true` when `other` lies inside this box (touching counts; `false` when either holds
    /// a NaN).
    pub fn contains(&self, other: &Self) -> bool {
        (0..D).all(|i| self.mins[i] <= other.mins[i] && other.maxs[i] <= self.maxs[i])
    }

    /// `true` when `p` is inside or on the box.
    pub fn contains_point(&self, p: &Point<N, D>) -> bool {
        (0..D).all(|i| self.mins[i] <= p[i] && p[i] <= self.maxs[i])
    }

    /// The smallest box containing both.
    pub fn merged(&self, other: &Self) -> Self {
        Self { mins: self.mins.inf(&other.mins), maxs: self.maxs.sup(&other.maxs) }
    }

    /// The box grown by `margin` on every side.
    pub fn loosened(&self, margin: N) -> Self {
        let m = Vector::<N, D>::repeat(margin);
        Self { mins: self.mins - m, maxs: self.maxs + m }
    }

    /// The total length (2D: perimeter, 3D: surface area) used as a cost by bounding-volume trees.
    pub fn perimeter(&self) -> N {
        let e = self.maxs - self.mins;
        if D == 2 {
            (e[0] + e[1]) * N::lit(2.0)
        } else {
            let mut s = N::zero();
            for i in 0..D {
                for j in (i + 1)..D {
                    s += e[i] * e[j];
                }
            }
            s * N::lit(2.0)
        }
    }
}

/// Shapes that can report their axis-aligned bounding box.
pub trait BoundingVolume<N: Scalar, const D: usize>: SupportMap<N, D> {
    /// The AABB of the shape (radius included) placed at `pose`, in world coordinates.
    ///
    /// The default asks the support function along `±x, ±y (, ±z)`: exact for any convex shape.
    fn aabb<P: Pose<N, D>>(&self, pose: &P) -> Aabb<N, D> {
        let mut mins = Point::<N, D>::origin();
        let mut maxs = Point::<N, D>::origin();
        for i in 0..D {
            let mut axis = Vector::<N, D>::zeros();
            axis[i] = N::one();
            maxs[i] = self.support_point(pose, &axis)[i];
            mins[i] = self.support_point(pose, &-axis)[i];
        }
        Aabb { mins, maxs }
    }

    /// The AABB in the shape's local frame.
    fn local_aabb(&self) -> Aabb<N, D> {
        let mut mins = Point::<N, D>::origin();
        let mut maxs = Point::<N, D>::origin();
        for i in 0..D {
            let mut axis = Vector::<N, D>::zeros();
            axis[i] = N::one();
            maxs[i] = self.local_support_point(&axis)[i];
            mins[i] = self.local_support_point(&-axis)[i];
        }
        Aabb { mins, maxs }
    }
}
