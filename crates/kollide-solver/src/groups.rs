//! [`CollisionGroups`]: which bodies may touch, and which bodies a query sees.
//!
//! Each body belongs to some of 32 groups (its *memberships*) and accepts contacts from some
//! (its *filter*). Two bodies interact when each belongs to a group the other accepts, the rule
//! of Box2D's category and mask bits and rapier's interaction groups. A query carries groups of
//! its own and sees a body under the same rule.

/// The groups a body belongs to and the groups it interacts with (32 bits each). The default
/// belongs to every group and interacts with every group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionGroups {
    memberships: u32,
    filter: u32,
}

impl Default for CollisionGroups {
    fn default() -> Self {
        Self::ALL
    }
}

impl CollisionGroups {
    /// Member of every group, interacting with every group (the default).
    pub const ALL: Self = Self { memberships: u32::MAX, filter: u32::MAX };
    /// Member of no group, interacting with none: touches nothing, seen by no query.
    pub const NONE: Self = Self { memberships: 0, filter: 0 };

    /// Member of the groups whose bits are set in `memberships`, interacting with the groups
    /// whose bits are set in `filter`. Every pair of masks is valid.
    pub const fn new(memberships: u32, filter: u32) -> Self {
        Self { memberships, filter }
    }

    /// The groups this body belongs to.
    pub const fn memberships(&self) -> u32 {
        self.memberships
    }

    /// The groups this body interacts with.
    pub const fn filter(&self) -> u32 {
        self.filter
    }

    /// `true` when each belongs to a group the other accepts.
    #[inline]
    pub const fn interacts(&self, other: &Self) -> bool {
        (self.memberships & other.filter) != 0 && (other.memberships & self.filter) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interaction_needs_both_ways() {
        let a = CollisionGroups::new(0b01, 0b10);
        let b = CollisionGroups::new(0b10, 0b01);
        let c = CollisionGroups::new(0b10, 0b10);
        assert!(a.interacts(&b) && b.interacts(&a));
        assert!(!a.interacts(&c) && !c.interacts(&a));
        assert!(CollisionGroups::ALL.interacts(&a));
        assert!(!CollisionGroups::NONE.interacts(&CollisionGroups::ALL));
    }
}
