//! [`ContactPair`] and [`ContactImpulse`]: a persistent pair of bodies with its manifold, and the
//! impulses each contact carries from one step to the next (warm starting). The world keeps the
//! pairs; the contact solver reads the manifolds and writes the impulses back.

use kollide_manifold::Manifold;
use kollide_math::Scalar;

use crate::BodyHandle;

/// Accumulated impulses of one contact, carried across steps for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactImpulse<N> {
    /// Normal impulse (N·s per substep).
    pub normal: N,
    /// Friction impulses along the contact's tangents (the second is unused in 2D). In 3D,
    /// friction acts on the whole manifold (see the solver's notes on friction), and each
    /// contact holds an equal share of the manifold's friction impulse.
    pub tangent: [N; 2],
    /// 3D: this contact's equal share of the manifold's twist impulse (torsional friction about
    /// the normal, N·m·s per substep); zero in 2D.
    pub twist: N,
}

/// A persistent pair of bodies whose AABBs overlap, with its current manifold (world frame).
#[derive(Clone, Debug)]
pub struct ContactPair<N: Scalar, const D: usize> {
    /// The body with the lower slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// The manifold from A to B, with the impulses of the last step in each contact's `user`.
    pub manifold: Manifold<N, D, ContactImpulse<N>>,
}
