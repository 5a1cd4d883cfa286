//! The hostile suite's runner: `cargo xtask hostile --cases N` runs this example in release mode.
//!
//! ```text
//! hostile [--cases N] [--seed S] [--dim 2|3] [--pair NAME] [--class NAME] [--ci]
//!         [--write-expected PATH] [--no-repro] [--progress] [--time-repeats K]
//! ```
//!
//! `--cases` is the number of cases per (dimension, pair of kinds, class), each run in `f32` and
//! `f64`; `--ci` uses the CI slice's settings (the ones `expected.tsv` is for). It prints the
//! failure table (one reproducer per row), the totals per kind and the slowest call per query
//! (with `--time-repeats K`, each call's time is the minimum of K runs).

use std::process::ExitCode;

use kollide_hostile::{Options, parse_expected, run_suite};

fn main() -> ExitCode {
    let mut opts = Options {
        cases: 10,
        seed: 1,
        dims: vec![2, 3],
        pair_filter: None,
        class_filter: None,
        progress: false,
    };
    let mut write_expected = None;
    let mut repro = true;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_default();
        match a.as_str() {
            "--cases" => opts.cases = value().parse().unwrap_or(10),
            "--seed" => opts.seed = value().parse().unwrap_or(1),
            "--dim" => opts.dims = vec![value().parse().unwrap_or(3)],
            "--pair" => opts.pair_filter = Some(value()),
            "--class" => opts.class_filter = Some(value()),
            "--ci" => {
                let ci = Options::ci();
                opts.cases = ci.cases;
                opts.seed = ci.seed;
            }
            "--write-expected" => write_expected = Some(value()),
            "--no-repro" => repro = false,
            "--progress" => opts.progress = true,
            "--time-repeats" => {
                let k = value().parse().unwrap_or(1);
                kollide_hostile::run::TIME_REPEATS.store(k, std::sync::atomic::Ordering::Relaxed);
            }
            other => {
                eprintln!("unknown argument `{other}`");
                return ExitCode::FAILURE;
            }
        }
    }
    let start = std::time::Instant::now();
    let report = run_suite(&opts);
    println!("{}", report.table(repro));
    println!("{}", report.summary());
    println!("elapsed {:.1} s", start.elapsed().as_secs_f64());
    if let Some(path) = write_expected {
        if let Err(e) = std::fs::write(&path, report.to_expected()) {
            eprintln!("cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
        eprintln!("wrote {path}");
    }
    let expected = parse_expected(include_str!("../expected.tsv"));
    let (worse, _) = report.compare(&expected);
    if worse.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
