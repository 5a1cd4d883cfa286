//! # kollide-manifold
//!
//! Contact and manifold types: a [`Contact`] is a point pair with its separation and the
//! [`ContactId`] of the features it came from; a [`Manifold`] holds at most 2 (2D) or 4 (3D)
//! contacts sharing one normal from A to B, in fixed inline storage. Manifolds flip
//! ([`Manifold::flipped`]), move between world and local frames, carry per-contact user data from
//! one frame to the next by feature id ([`Manifold::match_previous`], for warm starting), and
//! [`reduce_to_four`] picks the best four of many candidate points in 3D.
//!
//! **Conventions:** the normal points from A to B; separation is negative when penetrating; an
//! empty manifold means no contact within the speculative margin. See `docs/conventions.md`.
//!
//! **Architecture invariant:** this crate holds types and their small algorithms only; it never
//! computes a contact from shapes (that is `kollide-narrowphase`).

mod contact;
mod manifold;
mod reduce;

pub use contact::{Contact, ContactId};
pub use kollide_shapes::FeatureId;
pub use manifold::{Frame, MAX_CONTACTS, Manifold};
pub use reduce::reduce_to_four;
