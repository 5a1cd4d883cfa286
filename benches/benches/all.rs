//! kollide's criterion benchmarks, all in one bench binary: one module per area (`shapes`,
//! `narrowphase`, `manifold`, `composite`, `world`, `hostile`, `queries`, `tree_update`), each
//! with its own criterion group settings, run in that order by one `criterion_main!`.
//!
//! One binary rather than one per area: every area links kollide, and most link parry, rapier or
//! Box2D too, so separate binaries compiled and linked the same generic code up to eight times
//! (the test step of CI builds them all, in the test profile, for its bench smoke run). Select
//! benchmarks with criterion's filter, e.g. `cargo bench -p kollide-benches -- world2d/`.

#[path = "../common/box2d_boxes.rs"]
mod box2d_boxes;
#[path = "../common/parry_poses.rs"]
mod parry_poses;
#[path = "../common/query_scene.rs"]
mod query_scene;
#[path = "../common/short_bench.rs"]
#[macro_use]
mod short_bench;

mod composite;
mod hostile;
mod manifold;
mod narrowphase;
mod queries;
mod shapes;
mod tree_update;
mod world;

criterion::criterion_main!(
    shapes::group::benches,
    narrowphase::groups::benches,
    manifold::groups::benches,
    composite::groups::benches,
    world::groups::benches,
    hostile::groups::benches,
    queries::groups::benches,
    tree_update::groups::benches,
);
