//! # kollide-manifold
//!
//! Contact and manifold types: a contact point pair with its separation and feature ids, a
//! manifold of at most 2 (2D) or 4 (3D) contacts sharing one normal from A to B, matching a new
//! manifold to last frame's by feature id (warm starting), and reduction of many candidate points
//! to the best four in 3D.
//!
//! **Architecture invariant:** this crate holds types and their small algorithms only; it never
//! computes a contact from shapes (that is `kollide-narrowphase`).
//!
//! Status: skeleton. The types land with the manifold issue.

pub use kollide_shapes::FeatureId;
