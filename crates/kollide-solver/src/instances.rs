//! The worlds of both precisions and dimensions, compiled once in this crate (feature
//! `instances`, for the workspace's own tests).
//!
//! At opt-level 0 and 1 rustc shares generic instances between crates: a crate that steps a
//! `World<f32, 2>` links to the copy compiled upstream instead of compiling its own, when there
//! is one. The workspace's test binaries, examples and benchmarks step the same four worlds, so
//! compiling them once here saves compiling them again in each. A user's crate gains nothing
//! from it, hence the feature, off by default.

use crate::World;

/// The addresses of the instances, which makes the compiler build them here. Never called;
/// `inline(never)` keeps rustc from treating it as inlinable and skipping it.
#[inline(never)]
pub fn instances() -> [*const (); 12] {
    [
        World::<f32, 2>::step as *const (),
        World::<f64, 2>::step as *const (),
        World::<f32, 3>::step as *const (),
        World::<f64, 3>::step as *const (),
        World::<f32, 2>::add as *const (),
        World::<f64, 2>::add as *const (),
        World::<f32, 3>::add as *const (),
        World::<f64, 3>::add as *const (),
        World::<f32, 2>::remove as *const (),
        World::<f64, 2>::remove as *const (),
        World::<f32, 3>::remove as *const (),
        World::<f64, 3>::remove as *const (),
    ]
}
