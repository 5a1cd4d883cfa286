//! Integration tests of kollide-solver: the world, its queries, events, joints, continuous
//! collision and threads.
//!
//! One test binary for the crate: each file below is a module, so the crate and its peers are
//! linked once rather than once per file (linking was most of CI's build time).

mod ccd;
mod envelope;
mod events;
mod hooks;
mod joints_2d;
mod joints_3d;
mod joints_drive;
mod level;
mod physics2d;
mod physics3d;
mod queries;
mod simd;
mod threads;
mod world_api;
