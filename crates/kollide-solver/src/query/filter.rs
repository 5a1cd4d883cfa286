//! [`QueryFilter`]: which bodies a query sees.

use kollide_math::Scalar;

use super::QueryError;
use crate::{Body, BodyHandle, CollisionGroups, Dim, SolverDim, World};

/// A predicate on bodies: `true` for the bodies a query may see.
pub type BodyPredicate<'a, N, const D: usize> = dyn Fn(BodyHandle, &Body<N, D>) -> bool + 'a;

/// Which bodies a query sees: those whose [`CollisionGroups`] interact with the filter's, other
/// than the excluded body, for which the predicate (if any) returns `true`. The default sees
/// every body.
///
/// ```
/// use kollide_solver::{CollisionGroups, QueryFilter};
/// let only_group_2 = QueryFilter::<f64, 2>::new().groups(CollisionGroups::new(u32::MAX, 0b10));
/// # let _ = only_group_2;
/// ```
#[derive(Clone, Copy)]
pub struct QueryFilter<'a, N: Scalar, const D: usize>
where
    Dim<D>: SolverDim<N, D>,
{
    groups: CollisionGroups,
    exclude: Option<BodyHandle>,
    predicate: Option<&'a BodyPredicate<'a, N, D>>,
}

impl<N: Scalar, const D: usize> Default for QueryFilter<'_, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    fn default() -> Self {
        Self { groups: CollisionGroups::ALL, exclude: None, predicate: None }
    }
}

impl<N: Scalar, const D: usize> core::fmt::Debug for QueryFilter<'_, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("groups", &self.groups)
            .field("exclude", &self.exclude)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<'a, N: Scalar, const D: usize> QueryFilter<'a, N, D>
where
    Dim<D>: SolverDim<N, D>,
{
    /// Sees every body.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sees only bodies whose groups interact with `groups` ([`CollisionGroups::interacts`]).
    pub fn groups(mut self, groups: CollisionGroups) -> Self {
        self.groups = groups;
        self
    }

    /// Does not see this body. A handle that names no body of the queried world makes the
    /// query fail with [`QueryError::StaleHandle`].
    pub fn exclude(mut self, body: BodyHandle) -> Self {
        self.exclude = Some(body);
        self
    }

    /// Sees only bodies for which `predicate` returns `true`.
    pub fn predicate(mut self, predicate: &'a BodyPredicate<'a, N, D>) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// Refuses an excluded handle that names no body of `world`.
    pub(crate) fn check(&self, world: &World<N, D>) -> Result<(), QueryError> {
        match self.exclude {
            Some(h) if world.body(h).is_err() => Err(QueryError::StaleHandle),
            _ => Ok(()),
        }
    }

    /// The mask for the tree's masked queries: each leaf's bits are its body's memberships,
    /// and the query sees only bodies that belong to a group its groups accept.
    pub(crate) fn mask(&self) -> u32 {
        self.groups.filter()
    }

    /// `true` when the query sees this body.
    #[inline]
    pub fn accepts(&self, handle: BodyHandle, body: &Body<N, D>) -> bool {
        self.groups.interacts(&body.desc.collision_groups)
            && self.exclude != Some(handle)
            && self.predicate.is_none_or(|p| p(handle, body))
    }
}
