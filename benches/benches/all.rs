//! kollide's criterion benchmarks, all in one bench binary: one module per area (`shapes`,
//! `narrowphase`, `manifold`, `composite`, `world`, `hostile`, `queries`, `tree_update`), each
//! with its own criterion group settings, run in that order.
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

/// The areas in the order they run, each with its criterion groups.
const AREAS: [(&str, fn()); 8] = [
    ("shapes", shapes::group::benches),
    ("narrowphase", narrowphase::groups::benches),
    ("manifold", manifold::groups::benches),
    ("composite", composite::groups::benches),
    ("world", world::groups::benches),
    ("hostile", hostile::groups::benches),
    ("queries", queries::groups::benches),
    ("tree_update", tree_update::groups::benches),
];

/// What `criterion_main!` does, for one area only when [`AREA_ENV`] names it, so that counting
/// one benchmark's instructions under valgrind (`cargo xtask bench --instructions`) does not
/// build every other area's inputs. With `--list` each area's list is preceded by an `area:
/// <name>` line, which is how the xtask learns the area of each benchmark.
fn main() {
    let only = std::env::var(AREA_ENV).ok();
    for (name, benches) in AREAS {
        if only.as_deref().is_none_or(|o| o == name) {
            if kollide_benches::listing() {
                println!("area: {name}");
            }
            benches();
        }
    }
    criterion::Criterion::default().configure_from_args().final_summary();
}

/// The environment variable that restricts a run to one area (see [`main`]).
const AREA_ENV: &str = "KOLLIDE_AREA";
