//! Scene queries on a [`World`](crate::World): what a ray hits first (or at all), what a moving
//! shape would hit, which bodies overlap a box or a shape, and which body surface is nearest to
//! a point.
//!
//! **How.** The world keeps a bounding-volume tree of its bodies
//! ([`kollide_shapes::tree::Tree`]), whose leaves hold each body's AABB grown by a margin (a
//! *fat* box, Catto's scheme from Box2D, GDC 2019). A step re-inserts only the bodies whose
//! AABB left their fat box; adding and removing a body inserts and removes its leaf. A query
//! walks the tree to the bodies whose fat boxes it reaches, applies the [`QueryFilter`], and
//! asks the narrowphase the exact question for each: [`kollide_narrowphase::ray_cast`],
//! [`kollide_narrowphase::shape_cast`], [`kollide_narrowphase::intersection_test`], and
//! [`kollide_narrowphase::closest_points`] against a point. The closest-hit ray cast shortens
//! the ray to its best hit as it goes, so it skips every box beyond; the point projection does
//! the same with distances.
//!
//! **Same answer as a loop over all bodies.** The tree only skips bodies that cannot answer
//! (their fat boxes contain their shapes), and every body that remains is asked the same
//! narrowphase question a loop over all bodies would ask, with the same arguments. Ties (two
//! bodies hit at the same `t`) go to the lower slot index, so the answer does not depend on the
//! tree's shape.
//!
//! **Bad input** (a ray with a NaN, infinite or zero direction, a negative or NaN length, an
//! excluded handle that names no body) is refused with a [`QueryError`]; no query panics.

mod error;
mod filter;
pub(crate) mod index;
mod point;
mod ray;
mod shape;

pub use error::QueryError;
pub use filter::{BodyPredicate, QueryFilter};
pub use point::PointProjection;
pub use ray::RayHit;
pub use shape::ShapeHit;
