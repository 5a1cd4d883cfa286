//! [`BodyHandle`]: an index plus a generation, so that a handle to a removed body is detected
//! instead of silently naming whichever body reused its slot.

/// A handle to a body in a [`crate::World`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl BodyHandle {
    /// The slot index (stable while the body lives; reused after removal).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// The generation of the slot when the body was added.
    pub fn generation(&self) -> u32 {
        self.generation
    }
}
