//! Benchmarks of the shape layer (`kollide-shapes`): support-point queries.
//!
//! Each group runs one query over the same seeded inputs (from `kollide_benches`) for kollide
//! (function id `kollide`) and, once they are wired in, for its peers (ids `parry`, `box2d`, ...),
//! so `cargo xtask bench` can print the ratio kollide/peer from a single run.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use kollide::prelude::*;
use kollide_benches::{SEED, one_iteration, unit_directions};

/// Number of directions per iteration: large enough to amortise the loop, small enough for cache.
const QUERIES: usize = 1024;

/// `support/ball`: the support point of a posed 3D ball in world directions.
fn support_ball(c: &mut Criterion) {
    let dirs: Vec<Vec3<f64>> =
        unit_directions::<3>(SEED, QUERIES).into_iter().map(Vec3::from).collect();
    let ball = Ball::<f64, 3>::new(0.75).expect("a positive radius is valid");
    let pose = Iso3::new(Vec3::new(1.0, -2.0, 0.5), Vec3::new(0.3, 0.2, -0.1));

    let mut group = c.benchmark_group("support/ball");
    group.throughput(Throughput::Elements(QUERIES as u64));
    group.bench_function("kollide", |b| {
        b.iter(|| {
            one_iteration(|| {
                let mut acc = Vec3::zeros();
                for d in &dirs {
                    acc += ball.support_point(black_box(&pose), black_box(d)).coords;
                }
                acc
            })
        })
    });
    group.finish();
}

/// Criterion's generated group function, run by the `main` of `all.rs`; the module is
/// crate-private, so it needs no docs.
pub(crate) mod group {
    criterion::criterion_group!(benches, super::support_ball);
}
