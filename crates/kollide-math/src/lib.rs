//! # kollide-math
//!
//! The bottom layer of kollide: everything the geometry above it needs and nothing more.
//!
//! * [`Scalar`]: the floating-point trait every kollide algorithm is generic over. It is implemented
//!   for `f32` and `f64`, and both can be used in the same build (there is no feature to pick one).
//! * Type aliases over [nalgebra]: [`Vector`], [`Point`], [`UnitVector`] generic over the dimension `D`,
//!   and short 2D/3D names ([`Vec2`], [`Point3`], [`Iso2`], ...).
//! * [`Pose`]: the one trait that lets an algorithm be written once for 2D and 3D. It is implemented
//!   by [`Iso2`] and [`Iso3`] (nalgebra's `Isometry2`/`Isometry3`); a dimension-generic algorithm
//!   takes `N: Scalar, const D: usize` and a `P: Pose<N, D>`, and works on `Vector<N, D>` directly,
//!   because nalgebra's fixed-size vectors are already generic over their length.
//! * [`Tolerances`]: the named tolerances of kollide, scaled per scalar type.
//! * [`geom`]: small helpers (2D perp and cross, the vector triple product, an orthonormal basis
//!   from a unit vector, the biased comparison used to pick SAT axes consistently).
//!
//! **Architecture invariant:** this crate knows nothing of shapes, contacts or bodies.
//!
//! ## Conventions
//! SI units; counter-clockwise winding in 2D; right-handed coordinates in 3D. See
//! `docs/conventions.md` at the root of the repository.

pub mod geom;
mod pose;
mod scalar;
mod tolerance;
mod types;

pub use nalgebra;
pub use pose::Pose;
pub use scalar::Scalar;
pub use tolerance::Tolerances;
pub use types::*;
