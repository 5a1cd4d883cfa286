//! [`Contact`]: one contact point pair with its separation and the features it came from.

use kollide_math::{Point, Scalar};
use kollide_shapes::FeatureId;

/// The pair of features (one on A, one on B) a contact point comes from. Two contacts of
/// successive frames with the same id are "the same contact", which is what warm starting needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContactId {
    /// The feature of A.
    pub a: FeatureId,
    /// The feature of B.
    pub b: FeatureId,
}

impl ContactId {
    /// A pair of features.
    pub fn new(a: FeatureId, b: FeatureId) -> Self {
        Self { a, b }
    }

    /// The same pair seen from B.
    pub fn flipped(&self) -> Self {
        Self { a: self.b, b: self.a }
    }
}

/// One contact between shapes A and B.
///
/// **Conventions:** `point_a` is on A's surface and `point_b` on B's; with the manifold's normal
/// `n` (from A to B), `point_b − point_a ≈ separation · n`. `separation` is negative when the
/// shapes penetrate and positive (up to the speculative margin) when they are apart.
///
/// `U` is per-contact user data carried from one frame to the next by
/// [`crate::Manifold::match_previous`]: a solver stores its accumulated impulses there.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Contact<N: Scalar, const D: usize, U = ()> {
    /// Point on A.
    pub point_a: Point<N, D>,
    /// Point on B.
    pub point_b: Point<N, D>,
    /// Signed distance along the manifold normal; negative when penetrating.
    pub separation: N,
    /// The features of A and B this contact comes from.
    pub id: ContactId,
    /// User data carried across frames (for example accumulated impulses).
    pub user: U,
}

impl<N: Scalar, const D: usize, U: Copy + Default> Contact<N, D, U> {
    /// A contact with default user data.
    pub fn new(point_a: Point<N, D>, point_b: Point<N, D>, separation: N, id: ContactId) -> Self {
        Self { point_a, point_b, separation, id, user: U::default() }
    }

    /// The midpoint of the two points: where a solver applies the impulse.
    pub fn midpoint(&self) -> Point<N, D> {
        nalgebra::center(&self.point_a, &self.point_b)
    }

    /// The same contact seen from B (points and feature ids swapped; separation unchanged).
    pub fn flipped(&self) -> Self {
        Self {
            point_a: self.point_b,
            point_b: self.point_a,
            separation: self.separation,
            id: self.id.flipped(),
            user: self.user,
        }
    }
}
