//! # kollide-hostile
//!
//! The hostile suite (issue 12): seeded cases for every pair of shape kinds, every query and both
//! scalars, checked against oracles computed another way, in `f64`, from the same inputs. Test
//! code only: it is not published and no published crate depends on it.
//!
//! * [`cases`]: the generator. Classes: random, coincident, nested, touching, near-touching,
//!   1e4 : 1 sizes, slivers, far from the origin, rotations a few ulps off unit, 1000-vertex
//!   hulls. Shapes are made with their public constructors only.
//! * [`geom`] and [`oracle`]: shapes as support functions in `f64`; the signed distance as the
//!   maximum support gap (exact over the SAT candidate axes for polytopes, bracketed for curved
//!   shapes), times of impact and directional depths the same way.
//! * [`run`]: builds the shapes in `f32` or `f64` and calls every query under `catch_unwind`.
//! * [`check`]: no panic, no NaN, no silent miss, no false hit, error bounds, and the identities
//!   (`point_b − point_a = separation·normal`, the normal attains the separation, unit normals,
//!   witnesses on the surfaces, `contact(A, B) = flip(contact(B, A))`).
//! * [`suite`]: runs categories, counts failures per (pair, query, scalar, class, kind) with one
//!   reproducer each, and compares with the expectations table `expected.tsv`.
//!
//! The CI slice is `tests/ci_slice.rs`; `cargo xtask hostile --cases N` runs millions through
//! the `hostile` example in release mode.

pub mod cases;
pub mod check;
pub mod geom;
pub mod oracle;
pub mod run;
pub mod suite;

pub use suite::{Options, Report, parse_expected, run as run_suite};
