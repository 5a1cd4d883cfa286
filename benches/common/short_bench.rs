//! The criterion settings shared by the short benches (`narrowphase`, `manifold`, `composite`,
//! `hostile`): 20 samples, 2 s of measurement and 0.5 s of warm-up per benchmark, so that the whole
//! `cargo xtask bench` takes a few minutes on two cores.

/// Defines `groups::benches`, running the given bench functions with the short settings; the
/// `main` of `all.rs` runs it. Criterion's generated group function lives in a
/// crate-private module so it needs no docs.
macro_rules! short_bench_group {
    ($($target:path),+ $(,)?) => {
        pub(crate) mod groups {
            criterion::criterion_group! {
                name = benches;
                config = criterion::Criterion::default()
                    .sample_size(20)
                    .measurement_time(std::time::Duration::from_secs(2))
                    .warm_up_time(std::time::Duration::from_millis(500));
                targets = $($target),+
            }
        }
    };
}
