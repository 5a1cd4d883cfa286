//! Instruction counts per benchmark iteration, under valgrind's callgrind: `cargo xtask bench
//! --instructions [filter]`.
//!
//! Wall-clock ratios on a shared machine move with the load; the number of instructions a batch
//! executes does not. For every benchmark `group/id` whose name contains the filter, [`run`] runs
//! the bench binary once under `valgrind --tool=callgrind` in criterion's profile mode
//! (`--bench --profile-time 1 --exact group/id`), with [`INSTRUCTIONS_ENV`] naming the benchmark so
//! that the bench skips its untimed extras.
//!
//! **Per iteration, whatever the iteration count.** Criterion picks the number of iterations from
//! the time it measures, and valgrind slows everything ~50×, so the total count of a run means
//! nothing by itself. Every bench calls its timed work through `kollide_benches::one_iteration`,
//! a function that is never inlined; callgrind records each call to it with the call count and
//! the inclusive cost (the instructions of everything it ran). [`parse_callgrind`] sums those
//! over the output file, and the count per iteration is `inclusive / calls`: the setup, criterion's
//! own loop and its warm-up are outside the calls, and iterations all cost the same whether
//! criterion chose 10 of them or 10,000.
//!
//! The table ([`instruction_table`]) puts each peer's count beside kollide's, their ratio, and the
//! wall-clock ratio of the latest criterion results (from `cargo xtask bench`), when there are
//! any. Valgrind is not needed anywhere else (CI does not run this).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::bench::{Estimate, KOLLIDE_ID};
use crate::json::Json;

/// The environment variable that names the counted benchmark for the bench binary (the benches
/// read it through `kollide_benches::counting_instructions`).
pub const INSTRUCTIONS_ENV: &str = "KOLLIDE_BENCH_INSTRUCTIONS";

/// The environment variable that runs only one area of the bench binary (its `main` skips the
/// others' groups, and so their setup).
const AREA_ENV: &str = "KOLLIDE_AREA";

/// The function every bench runs one iteration through, as callgrind names it.
const ITERATION_FN: &str = "kollide_benches::one_iteration";
/// The same function's mangled name, in case valgrind does not demangle it.
const ITERATION_FN_MANGLED: &str = "15kollide_benches13one_iteration";

/// What callgrind recorded for the calls to the per-iteration function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IterationCost {
    /// How many times it was called (iterations, warm-up included).
    pub calls: u64,
    /// The instructions of all those calls, inclusive of everything they ran.
    pub instructions: u64,
}

impl IterationCost {
    /// Instructions per iteration.
    pub fn per_iteration(self) -> f64 {
        self.instructions as f64 / self.calls as f64
    }
}

/// Reads the calls to `kollide_benches::one_iteration` from a callgrind output file: each call
/// record is a `cfn=` line naming the callee, a `calls=<count> <target>` line, then a cost line
/// `<position> <inclusive Ir> ...`. Handles compressed names (`cfn=(7) name`, later `cfn=(7)`).
/// Fails when the file records no such call (the bench did not run, or does not use the wrapper).
pub fn parse_callgrind(text: &str) -> Result<IterationCost, String> {
    let first_event = text.lines().find_map(|l| l.strip_prefix("events:")).map(|e| e.trim_start());
    if first_event.is_some_and(|e| e.split_whitespace().next() != Some("Ir")) {
        return Err("callgrind output: the first event is not Ir".into());
    }
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut callee_is_iteration = false;
    let mut pending_calls: Option<u64> = None;
    let mut total = IterationCost { calls: 0, instructions: 0 };
    for line in text.lines() {
        if let Some(calls) = pending_calls.take() {
            let ir = line
                .split_whitespace()
                .nth(1)
                .and_then(|t| t.parse::<u64>().ok())
                .ok_or_else(|| format!("callgrind output: no cost after a call: `{line}`"))?;
            total.calls += calls;
            total.instructions += ir;
            continue;
        }
        if let Some(name) = line.strip_prefix("cfn=") {
            let name = resolve_name(name, &mut names);
            callee_is_iteration =
                name.contains(ITERATION_FN) || name.contains(ITERATION_FN_MANGLED);
        } else if let Some(name) = line.strip_prefix("fn=") {
            resolve_name(name, &mut names);
        } else if let Some(rest) = line.strip_prefix("calls=") {
            if callee_is_iteration {
                let count = rest.split_whitespace().next().and_then(|t| t.parse::<u64>().ok());
                pending_calls =
                    Some(count.ok_or_else(|| format!("callgrind output: bad `calls={rest}`"))?);
            }
            // A `calls=` line belongs to the `cfn=` just before it.
            callee_is_iteration = false;
        }
    }
    if total.calls == 0 {
        return Err(format!("callgrind output: no call to `{ITERATION_FN}`"));
    }
    Ok(total)
}

/// The full name of a callgrind function reference, remembering compressed ids: `(7) name`
/// defines id 7, `(7)` refers to it, a plain `name` is itself.
fn resolve_name(text: &str, names: &mut BTreeMap<String, String>) -> String {
    let Some(rest) = text.strip_prefix('(') else { return text.to_string() };
    let Some((id, name)) = rest.split_once(')') else { return text.to_string() };
    let name = name.trim();
    if name.is_empty() {
        names.get(id).cloned().unwrap_or_default()
    } else {
        names.insert(id.to_string(), name.to_string());
        name.to_string()
    }
}

/// The benchmark ids in the output of a criterion bench binary's `--list` (`group/id: benchmark`
/// lines).
/// Each benchmark's id with the area it belongs to: the bench binary prints `area: <name>`
/// before each area's list (the area is empty before the first such line).
pub fn parse_list(text: &str) -> Vec<(String, String)> {
    let mut area = "";
    let mut ids = Vec::new();
    for line in text.lines() {
        if let Some(a) = line.strip_prefix("area: ") {
            area = a;
        } else if let Some(id) = line.strip_suffix(": benchmark") {
            ids.push((area.to_string(), id.to_string()));
        }
    }
    ids
}

/// Splits a benchmark id `group/.../function` into its group and function id (the last part).
fn split_id(id: &str) -> (&str, &str) {
    id.rsplit_once('/').unwrap_or((id, ""))
}

/// The Markdown table of instructions per iteration: one row per (group, peer), with kollide's
/// count, the peer's, their ratio, and the wall-clock ratio from `wall` (criterion's latest
/// results) when it has both. `None` when there are no counts.
pub fn instruction_table(counts: &[(String, f64)], wall: &[Estimate]) -> Option<String> {
    if counts.is_empty() {
        return None;
    }
    let mut groups: BTreeMap<&str, BTreeMap<&str, f64>> = BTreeMap::new();
    for (id, n) in counts {
        let (group, function) = split_id(id);
        groups.entry(group).or_default().insert(function, *n);
    }
    let time = |group: &str, function: &str| {
        wall.iter()
            .find(|e| e.group == group && e.function == function && e.value.is_none())
            .map(|e| e.nanos)
    };
    let mut out = String::from(
        "| group | kollide (instr/iter) | peer | peer (instr/iter) | instr kollide / peer | \
         wall kollide / peer |\n|---|---|---|---|---|---|\n",
    );
    for (group, fns) in groups {
        let ours = fns.get(KOLLIDE_ID).copied();
        let ours_text = ours.map_or_else(|| "—".to_string(), format_count);
        let peers: Vec<(&str, f64)> =
            fns.iter().filter(|(f, _)| **f != KOLLIDE_ID).map(|(f, n)| (*f, *n)).collect();
        if peers.is_empty() {
            out.push_str(&format!("| {group} | {ours_text} | — | — | — | — |\n"));
        }
        for (peer, theirs) in peers {
            let ratio = ours.map_or_else(|| "—".to_string(), |o| format!("{:.2}", o / theirs));
            let wall_ratio = match (time(group, KOLLIDE_ID), time(group, peer)) {
                (Some(o), Some(t)) => format!("{:.2}", o / t),
                _ => "—".to_string(),
            };
            out.push_str(&format!(
                "| {group} | {ours_text} | {peer} | {} | {ratio} | {wall_ratio} |\n",
                format_count(theirs)
            ));
        }
    }
    Some(out)
}

/// An instruction count with a readable unit, e.g. `1.23 M`.
pub fn format_count(n: f64) -> String {
    match n {
        n if n < 1e4 => format!("{n:.0}"),
        n if n < 1e6 => format!("{:.1} k", n / 1e3),
        n if n < 1e9 => format!("{:.2} M", n / 1e6),
        n => format!("{:.2} G", n / 1e9),
    }
}

/// The bench executables of `kollide-benches`, built in the bench profile: `cargo bench
/// --no-run --message-format=json`, reading the `executable` of each bench target.
fn build_bench_binaries() -> Result<Vec<PathBuf>, String> {
    let out = crate::cmd::Cmd::cargo([
        "bench",
        "-p",
        "kollide-benches",
        "--no-run",
        "--message-format=json-render-diagnostics",
    ])
    .read()?;
    let mut bins = Vec::new();
    for line in out.lines().filter(|l| l.starts_with('{')) {
        let msg = Json::parse(line)?;
        let is_bench = msg
            .get("target")
            .and_then(|t| t.get("kind"))
            .and_then(Json::as_array)
            .is_some_and(|k| k.iter().any(|k| k.as_str() == Some("bench")));
        if let (true, Some(exe)) = (is_bench, msg.get("executable").and_then(Json::as_str)) {
            bins.push(PathBuf::from(exe));
        }
    }
    if bins.is_empty() {
        return Err("cargo bench --no-run built no bench executable".into());
    }
    Ok(bins)
}

/// Runs one benchmark of `bin` under callgrind and returns its instructions per iteration.
fn count(bin: &Path, area: &str, id: &str, out_dir: &Path) -> Result<f64, String> {
    let file = out_dir.join(format!("callgrind.{}.out", id.replace('/', "_")));
    let mut c = Command::new("valgrind");
    c.args(["--tool=callgrind", "--compress-strings=no", "--compress-pos=no"])
        .arg(format!("--callgrind-out-file={}", file.display()))
        .arg(bin)
        .args(["--bench", "--profile-time", "1", "--exact", id])
        .env(INSTRUCTIONS_ENV, id)
        .env("KOLLIDE_ONLY", split_id(id).0)
        .env(AREA_ENV, area);
    eprintln!("$ {c:?}");
    let out = c.output().map_err(|e| format!("could not start valgrind: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "valgrind on `{id}` failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let cost = parse_callgrind(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    eprintln!("  {id}: {} calls, {:.0} instructions each", cost.calls, cost.per_iteration());
    Ok(cost.per_iteration())
}

/// `cargo xtask bench --instructions [filter]`: counts the instructions per iteration of every
/// benchmark whose `group/id` contains `filter` and prints the table of [`instruction_table`].
pub fn run(filter: &str, target_dir: &Path) -> Result<(), String> {
    if !Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return Err("`--instructions` needs valgrind (callgrind) on the PATH".into());
    }
    let bins = build_bench_binaries()?;
    crate::bench::check_box2d_release(target_dir)?;
    let out_dir = target_dir.join("callgrind");
    fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut counts = Vec::new();
    for bin in &bins {
        let list = Command::new(bin)
            .args(["--bench", "--list"])
            .env(INSTRUCTIONS_ENV, "--list")
            .output()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        let ids = parse_list(&String::from_utf8_lossy(&list.stdout));
        for (area, id) in ids.into_iter().filter(|(_, id)| id.contains(filter)) {
            counts.push((id.clone(), count(bin, &area, &id, &out_dir)?));
        }
    }
    let wall = crate::bench::collect(&target_dir.join("criterion"))?;
    match instruction_table(&counts, &wall) {
        Some(table) => {
            println!(
                "\nInstructions per iteration (callgrind; ratio < 1: kollide executes fewer), \
                 beside the wall-clock ratio of the latest `cargo xtask bench` results\n"
            );
            print!("{table}");
            Ok(())
        }
        None => Err(format!("no benchmark matches `{filter}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A callgrind file as valgrind writes it with `--compress-strings=no`: two callers of the
    /// iteration function (criterion's warm-up and timed loops) and an unrelated call.
    const PLAIN: &str = "\
version: 1
creator: callgrind-3.22.0
positions: line
events: Ir
summary: 9999999

fn=criterion::bencher::Bencher<M>::iter
12 40
cfn=kollide_benches::one_iteration
calls=7 30
12 7000
cfn=core::fmt::write
calls=3 0
13 500
cfn=kollide_benches::one_iteration
calls=3 30
14 3000

fn=kollide_benches::one_iteration
30 21
";

    #[test]
    fn sums_calls_and_inclusive_cost() {
        let cost = parse_callgrind(PLAIN).unwrap();
        assert_eq!(cost, IterationCost { calls: 10, instructions: 10_000 });
        assert_eq!(cost.per_iteration(), 1000.0);
    }

    #[test]
    fn reads_compressed_names_and_mangled_ones() {
        let compressed = "\
events: Ir
fn=(1) criterion::bencher::Bencher<M>::iter
cfn=(2) kollide_benches::one_iteration
calls=2 5
7 200
cfn=(3) other
calls=1 5
7 99
cfn=(2)
calls=2 5
8 300
";
        assert_eq!(
            parse_callgrind(compressed).unwrap(),
            IterationCost { calls: 4, instructions: 500 }
        );
        let mangled =
            "events: Ir\ncfn=_ZN15kollide_benches13one_iteration17h0123E\ncalls=5 1\n1 50\n";
        assert_eq!(parse_callgrind(mangled).unwrap(), IterationCost { calls: 5, instructions: 50 });
    }

    #[test]
    fn fails_without_the_iteration_function_or_on_another_event() {
        assert!(parse_callgrind("events: Ir\ncfn=other\ncalls=1 1\n1 5\n").is_err());
        assert!(parse_callgrind("events: Dr Ir\ncfn=kollide_benches::one_iteration\n").is_err());
        let truncated = "events: Ir\ncfn=kollide_benches::one_iteration\ncalls=1 1\n";
        assert!(parse_callgrind(truncated).is_err());
    }

    #[test]
    fn lists_benchmarks() {
        let out = "area: narrowphase\nball_ball/3d/kollide: benchmark\nnoise\n\
                   area: world\nworld2d/pyramid/box2d: benchmark\n";
        let pair = |a: &str, id: &str| (a.to_string(), id.to_string());
        assert_eq!(
            parse_list(out),
            [pair("narrowphase", "ball_ball/3d/kollide"), pair("world", "world2d/pyramid/box2d")]
        );
    }

    #[test]
    fn table_puts_instruction_and_wall_ratios_side_by_side() {
        let counts = [
            ("ball_ball/3d/kollide".to_string(), 70_000.0),
            ("ball_ball/3d/parry".to_string(), 100_000.0),
            ("world2d/large_pyramid/kollide".to_string(), 2.5e9),
            ("world2d/large_pyramid/box2d".to_string(), 2.0e9),
            ("support/ball/kollide".to_string(), 900.0),
        ];
        let est = |group: &str, function: &str, nanos: f64| Estimate {
            group: group.into(),
            function: function.into(),
            value: None,
            nanos,
        };
        let wall = [est("ball_ball/3d", "kollide", 60.0), est("ball_ball/3d", "parry", 100.0)];
        let table = instruction_table(&counts, &wall).unwrap();
        let rows: Vec<&str> = table.lines().collect();
        assert_eq!(rows.len(), 5, "{table}");
        assert_eq!(rows[2], "| ball_ball/3d | 70.0 k | parry | 100.0 k | 0.70 | 0.60 |");
        assert_eq!(rows[3], "| support/ball | 900 | — | — | — | — |");
        assert_eq!(rows[4], "| world2d/large_pyramid | 2.50 G | box2d | 2.00 G | 1.25 | — |");
        assert_eq!(instruction_table(&[], &wall), None);
    }
}
