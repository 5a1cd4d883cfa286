//! The world step, stage by stage.
//!
//! [`crate::World`] keeps the bodies and the state that lives from step to step; each stage of
//! [`crate::World::step`] is a file here that owns the buffers it reuses and reads only what it
//! is handed, so it can be read, tested and changed on its own:
//!
//! 1. **Broadphase update** (`broadphase_update.rs`): swept, fattened AABBs in a dynamic tree
//!    and the pairs they overlap in. The same tree answers the scene queries and the continuous
//!    stage; after the step, the leaves of the bodies the step moved out of them follow.
//! 2. **Solver bodies** (`solver_bodies.rs`): the solver's copy of the bodies, the hot velocity
//!    state apart from the rest.
//! 3. **Contact update** (`contact_update.rs`, `pair_cache.rs`): a manifold per pair, kept from
//!    the last step when the bodies barely moved, matched to the last step's contacts for warm
//!    starting; on several threads when there are many pairs.
//! 4. **Colouring** (`colouring.rs`): the order in which the solver visits the contacts, in waves
//!    of constraints that share no dynamic body.
//! 5. **Solve** (`solve.rs`): the soft-step contact solver over substeps, on lanes (see
//!    `contact_solver.rs`), and on several threads when its waves are large (`schedule.rs`,
//!    `barrier.rs`).
//! 6. **Write back** (`write_back.rs`): poses and velocities back to the bodies.
//! 7. **Continuous collision** (`continuous.rs`): fast bodies swept against static and
//!    kinematic bodies, and moved back to their time of impact.
//! 8. **Islands** (`crate::island`, outside this folder since the world's API uses it too):
//!    sleep timers, and the islands that have been still long enough fall asleep.
//!
//! Sleeping bodies are left out of stages 1 to 7 (each stage's docs say how), and sleeping sets
//! woken by the contact update join the step before the colouring. When every dynamic body
//! sleeps and nothing was disturbed, the world skips the step altogether.
//!
//! The same scene stepped twice gives bit-identical states, with any number of threads: pairs
//! are visited in sorted order, each stage's output is a function of its inputs alone, and
//! nothing depends on hashing, addresses or which thread ran what.

mod barrier;
mod broadphase_update;
mod colouring;
mod contact_update;
mod continuous;
mod pair_cache;
mod schedule;
mod solve;
mod solver_bodies;
mod write_back;

pub(crate) use broadphase_update::BroadphaseStage;
pub(crate) use colouring::{Colouring, ContactSettings};
pub(crate) use contact_update::ContactStage;
pub use contact_update::WARM_START_MATCH_FRACTION;
pub(crate) use continuous::{ContinuousInput, ContinuousStage};
pub(crate) use solve::{Acceleration, SolveInput, SolveStage, slot_of, state_of};
pub(crate) use solver_bodies::SolverBodies;
pub(crate) use write_back::write_back;
