//! kollide's task runner: `cargo xtask <task>`, the single entry point for every check.
//!
//! `cargo xtask` is an alias (in `.cargo/config.toml`) for `cargo run --package xtask --`. Each
//! task logs the exact command it runs (`$ cargo fmt --all --check`), so any step can be
//! reproduced by hand, and stops with a non-zero exit at the first failure.
//!
//! | task | runs |
//! |---|---|
//! | `fmt` | `cargo fmt --all --check` |
//! | `lint` | `cargo clippy --workspace --all-targets -- -D warnings` |
//! | `test` | `cargo nextest run --workspace --all-targets -E 'not kind(bench)'` and `cargo test --workspace --bench "*"` (or `cargo test --workspace --all-targets` without nextest), then `cargo test --workspace --doc` |
//! | `doc` | `RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps` |
//! | `bench` | `cargo bench -p kollide-benches`, then the kollide/peer ratio table; `bench --instructions [filter]`: instructions per iteration under callgrind ([`instructions`]) |
//! | `bench-smoke` | `cargo test --workspace --bench "*"` (every bench once, criterion's test mode) |
//! | `tidy` | the repository policy checks of [`tidy`] |
//! | `figures` | regenerate `docs/figures/*.svg` ([`figures`]) |
//! | `hostile` | the hostile suite in release mode (`cargo run --release -p kollide-hostile --example hostile -- <args>`), e.g. `--cases 100000` |
//! | `ci` | fmt, lint, test (which runs every benchmark once and checks that `docs/figures` is fresh), doc, tidy, then a timing summary |
//!
//! xtask depends on the standard library only, so it builds in seconds on a fresh clone; the
//! little JSON it reads (`cargo metadata`, criterion's estimates) goes through [`json`].

mod bench;
mod cmd;
mod figures;
mod instructions;
mod json;
mod tidy;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use cmd::Cmd;

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  fmt          check formatting          (cargo fmt --all --check)
  lint         clippy, warnings denied   (cargo clippy --workspace --all-targets -- -D warnings)
  test         all tests, then doc tests (cargo nextest run / cargo test; cargo test --doc)
  doc          docs, warnings denied     (RUSTDOCFLAGS=\"-D warnings\" cargo doc --workspace --no-deps)
  bench        full benchmark run and the kollide/peer ratio table
               (cargo bench -p kollide-benches [-- <criterion args>])
               --instructions [FILTER]: instructions per iteration of each benchmark whose
               group/id contains FILTER, under valgrind's callgrind, beside the wall ratios
               --table: only the ratio table of the saved criterion results
  bench-smoke  every benchmark once      (cargo test --workspace --bench \"*\")
  tidy         repository policy: layering, module docs, workspace lints
  figures      regenerate docs/figures/*.svg (cargo run -p kollide --example figures)
  hostile      the hostile suite, release mode: cargo xtask hostile --cases N [--seed S] [--dim 2|3]
               [--pair NAME] [--class NAME] [--ci] [--write-expected PATH] [--no-repro] [--progress]
               (cargo run --release -p kollide-hostile --example hostile -- <args>)
  ci           fmt, lint, test (benchmarks once, figures fresh?), doc, tidy, with a timing summary";

/// What a task returns: `Err` carries the message printed before exiting with failure.
type TaskResult = Result<(), String>;

fn fmt() -> TaskResult {
    Cmd::cargo(["fmt", "--all", "--check"]).run()
}

fn lint() -> TaskResult {
    Cmd::cargo(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]).run()
}

fn test() -> TaskResult {
    // Every generic test instantiates both f32 and f64, so one run covers both scalar paths.
    const NOTE: &str = "tests are generic: one run covers both f32 and f64";
    let has_nextest = Cmd::cargo(["nextest", "--version"]).succeeds_quietly();
    if has_nextest {
        // nextest runs every test in its own process, and a criterion benchmark's process builds
        // the inputs of its whole binary before it runs the one benchmark asked for: one process
        // per benchmark spent 260 s of CPU on setup. So nextest builds every target but runs the
        // tests only, and the benchmarks run after it, one process per binary, from that build.
        Cmd::cargo(["nextest", "run", "--workspace", "--all-targets", "-E", "not kind(bench)"])
            .note(NOTE)
            .run()?;
        bench_smoke()?;
    } else {
        Cmd::cargo(["test", "--workspace", "--all-targets"]).note(NOTE).run()?;
    }
    // nextest does not run doc tests; cargo test does, separately.
    Cmd::cargo(["test", "--workspace", "--doc"]).note(NOTE).run()
}

fn doc() -> TaskResult {
    Cmd::cargo(["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings").run()
}

fn bench(args: &[String]) -> TaskResult {
    let meta = tidy::Metadata::load()?;
    if let Some(rest) = args.strip_prefix(&["--instructions".to_string()]) {
        let filter = match rest {
            [] => "",
            [filter] => filter.as_str(),
            _ => return Err(format!("`bench --instructions` takes one filter at most\n\n{USAGE}")),
        };
        return instructions::run(filter, &meta.target_directory);
    }
    if args == ["--table"] {
        return bench::print_ratio_table(&meta.target_directory);
    }
    let mut c = Cmd::cargo(["bench", "-p", "kollide-benches"]);
    if !args.is_empty() {
        c = c.args(["--"]).args(args.iter().cloned());
    }
    c.run()?;
    bench::check_box2d_release(&meta.target_directory)?;
    bench::print_ratio_table(&meta.target_directory)
}

/// The hostile suite (issue 12) in release mode: `--cases N` cases per (dimension, pair of shape
/// kinds, class), each in f32 and f64. Fails when a category fails more often than
/// `hostile/expected.tsv` allows.
fn hostile(args: &[String]) -> TaskResult {
    Cmd::cargo(["run", "--release", "-p", "kollide-hostile", "--example", "hostile", "--"])
        .args(args.iter().cloned())
        .run()
}

fn bench_smoke() -> TaskResult {
    // Without `--bench`, criterion runs each benchmark once in test mode. `cargo test` rather than
    // `cargo bench -- --test` reuses the test-profile build of the test step instead of compiling
    // everything again in release; `--workspace` (rather than `-p kollide-benches`) keeps the
    // feature set of the test step, so no dependency is rebuilt; `--bench "*"` selects only the
    // bench targets (`--benches` would also rerun every library's unit tests).
    Cmd::cargo(["test", "--workspace", "--bench", "*"])
        .note("criterion test mode: every benchmark runs once")
        .run()
}

/// A task that takes no arguments.
type Task = fn() -> TaskResult;

/// The steps of `cargo xtask ci`, in order.
const CI_STEPS: &[(&str, Task)] = &[
    ("fmt", fmt),
    ("lint", lint),
    ("test", test),
    ("doc", doc),
    // No separate `bench-smoke`: the test step runs it, from the build of its `--all-targets`.
    // No separate figures check either: a test of the test step compares `docs/figures`.
    ("tidy", tidy::run),
];

fn ci() -> TaskResult {
    let start = Instant::now();
    let mut times: Vec<(&str, Duration, bool)> = Vec::new();
    let mut failure = None;
    for (name, step) in CI_STEPS {
        eprintln!("\n==> xtask ci: {name}");
        let t = Instant::now();
        let result = step();
        times.push((name, t.elapsed(), result.is_ok()));
        if let Err(e) = result {
            failure = Some(format!("ci step `{name}` failed: {e}"));
            break;
        }
    }
    eprintln!("\n==> xtask ci: timing");
    for (name, t, ok) in &times {
        eprintln!("  {name:<12} {:>8.1} s  {}", t.as_secs_f64(), if *ok { "ok" } else { "FAILED" });
    }
    for (name, _) in CI_STEPS.iter().skip(times.len()) {
        eprintln!("  {name:<12} {:>8}    skipped", "-");
    }
    eprintln!("  {:<12} {:>8.1} s", "total", start.elapsed().as_secs_f64());
    failure.map_or(Ok(()), Err)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(task) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let rest = &args[1..];
    let criterion_args = match rest.first().map(String::as_str) {
        Some("--") => &rest[1..],
        _ => rest,
    };
    if task != "bench" && task != "hostile" && !rest.is_empty() {
        eprintln!("error: `{task}` takes no arguments\n\n{USAGE}");
        return ExitCode::FAILURE;
    }
    let result = match task.as_str() {
        "fmt" => fmt(),
        "lint" => lint(),
        "test" => test(),
        "doc" => doc(),
        "bench" => bench(criterion_args),
        "bench-smoke" => bench_smoke(),
        "tidy" => tidy::run(),
        "figures" => figures::regenerate(),
        "hostile" => hostile(criterion_args),
        "ci" => ci(),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => Err(format!("unknown task `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
