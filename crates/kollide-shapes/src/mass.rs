//! Mass properties: mass, centre of mass and rotational inertia for a uniform density.
//!
//! In 2D the inertia is a scalar (about the axis perpendicular to the plane, through the centre
//! of mass); in 3D it is a symmetric 3×3 tensor about the centre of mass, in the shape's local
//! axes. Densities are per unit area in 2D and per unit volume in 3D (kg/m², kg/m³).

use kollide_math::{Mat3, Point2, Point3, Scalar};

use crate::ShapeError;

/// Mass properties of a 2D shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties2<N: Scalar> {
    /// Mass in kg.
    pub mass: N,
    /// Centre of mass in the shape's local frame.
    pub local_center: Point2<N>,
    /// Moment of inertia about the centre of mass (kg·m²).
    pub inertia: N,
}

/// Mass properties of a 3D shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties3<N: Scalar> {
    /// Mass in kg.
    pub mass: N,
    /// Centre of mass in the shape's local frame.
    pub local_center: Point3<N>,
    /// Inertia tensor about the centre of mass, in the shape's local axes (kg·m²).
    pub inertia: Mat3<N>,
}

/// `value` when it and its reciprocal are finite and it is positive (so a solver can invert it);
/// otherwise [`ShapeError::MassOutOfRange`].
fn invertible<N: Scalar>(value: N, what: &'static str) -> Result<(), ShapeError> {
    if value > N::zero() && value.is_finite_value() && (N::one() / value).is_finite_value() {
        Ok(())
    } else {
        Err(ShapeError::MassOutOfRange { what, value: value.to_f64() })
    }
}

impl<N: Scalar> MassProperties2<N> {
    /// `props` when its mass and inertia are finite, positive and invertible and its centre is
    /// finite; otherwise [`ShapeError::MassOutOfRange`]. Every [`HasMass2`] implementation of
    /// this crate returns through it, so an overflowing or underflowing density gives an error,
    /// never an infinite or NaN mass.
    pub fn checked(props: Self) -> Result<Self, ShapeError> {
        invertible(props.mass, "mass")?;
        invertible(props.inertia, "inertia")?;
        if !props.local_center.coords.iter().all(|x| x.is_finite_value()) {
            return Err(ShapeError::MassOutOfRange { what: "centre of mass", value: f64::NAN });
        }
        Ok(props)
    }
}

impl<N: Scalar> MassProperties3<N> {
    /// `props` when its mass and the diagonal of its inertia are finite, positive and
    /// invertible and every other entry and the centre are finite; otherwise
    /// [`ShapeError::MassOutOfRange`] (see [`MassProperties2::checked`]).
    pub fn checked(props: Self) -> Result<Self, ShapeError> {
        invertible(props.mass, "mass")?;
        for k in 0..3 {
            invertible(props.inertia[(k, k)], "inertia")?;
        }
        if let Some(bad) = props.inertia.iter().find(|x| !x.is_finite_value()) {
            return Err(ShapeError::MassOutOfRange { what: "inertia", value: bad.to_f64() });
        }
        if !props.local_center.coords.iter().all(|x| x.is_finite_value()) {
            return Err(ShapeError::MassOutOfRange { what: "centre of mass", value: f64::NAN });
        }
        Ok(props)
    }
}

/// Shapes with mass properties in 2D.
pub trait HasMass2<N: Scalar> {
    /// The mass properties for a uniform `density` (kg/m²). Fails with
    /// [`ShapeError::InvalidDensity`] for a zero, negative or non-finite density, and with
    /// [`ShapeError::MassOutOfRange`] when the mass or inertia would overflow or underflow the
    /// scalar type (never an infinite or NaN result).
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError>;
}

/// Shapes with mass properties in 3D.
pub trait HasMass3<N: Scalar> {
    /// The mass properties for a uniform `density` (kg/m³). Fails with
    /// [`ShapeError::InvalidDensity`] for a zero, negative or non-finite density, and with
    /// [`ShapeError::MassOutOfRange`] when the mass or inertia would overflow or underflow the
    /// scalar type (never an infinite or NaN result).
    fn mass_properties(&self, density: N) -> Result<MassProperties3<N>, ShapeError>;
}

/// Checks a density: positive and finite.
pub fn check_density<N: Scalar>(density: N) -> Result<N, ShapeError> {
    if density.is_finite_value() && density > N::zero() {
        Ok(density)
    } else {
        Err(ShapeError::InvalidDensity(density.to_f64()))
    }
}
