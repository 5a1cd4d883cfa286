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

/// Shapes with mass properties in 2D.
pub trait HasMass2<N: Scalar> {
    /// The mass properties for a uniform `density` (kg/m²). Fails with
    /// [`ShapeError::InvalidDensity`] for a zero, negative or non-finite density.
    fn mass_properties(&self, density: N) -> Result<MassProperties2<N>, ShapeError>;
}

/// Shapes with mass properties in 3D.
pub trait HasMass3<N: Scalar> {
    /// The mass properties for a uniform `density` (kg/m³). Fails with
    /// [`ShapeError::InvalidDensity`] for a zero, negative or non-finite density.
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
