//! Type aliases over nalgebra so that users and kollide's own code write short names.
//!
//! The dimension-generic aliases ([`Vector`], [`Point`], [`UnitVector`]) take the scalar `N` and
//! the dimension `D` (2 or 3). The dimension-specific ones name the usual types directly.

use nalgebra as na;

/// A column vector with `D` components: a direction or a displacement.
pub type Vector<N, const D: usize> = na::SVector<N, D>;
/// A point with `D` coordinates: a position.
pub type Point<N, const D: usize> = na::Point<N, D>;
/// A vector of length one. Construct it with `UnitVector::new_normalize` or
/// `UnitVector::try_new`, which returns `None` for a zero or non-finite vector.
pub type UnitVector<N, const D: usize> = na::Unit<na::SVector<N, D>>;

/// A 2D vector.
pub type Vec2<N> = na::Vector2<N>;
/// A 3D vector.
pub type Vec3<N> = na::Vector3<N>;
/// A 2D point.
pub type Point2<N> = na::Point2<N>;
/// A 3D point.
pub type Point3<N> = na::Point3<N>;
/// A 2D unit vector.
pub type UnitVec2<N> = na::Unit<na::Vector2<N>>;
/// A 3D unit vector.
pub type UnitVec3<N> = na::Unit<na::Vector3<N>>;
/// A 2D rotation, stored as a unit complex number (cos θ, sin θ).
pub type Rot2<N> = na::UnitComplex<N>;
/// A 3D rotation, stored as a unit quaternion.
pub type Rot3<N> = na::UnitQuaternion<N>;
/// A 2D rigid transform (rotation then translation).
pub type Iso2<N> = na::Isometry2<N>;
/// A 3D rigid transform (rotation then translation).
pub type Iso3<N> = na::Isometry3<N>;
/// A 2×2 matrix (2D inertia tensors are scalars; this is for rotations and bases).
pub type Mat2<N> = na::Matrix2<N>;
/// A 3×3 matrix (3D inertia tensors, rotation matrices).
pub type Mat3<N> = na::Matrix3<N>;
