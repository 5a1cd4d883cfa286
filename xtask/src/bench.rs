//! The ratio table: kollide's time against each peer's, read from criterion's saved results.
//!
//! Every bench group runs the same seeded inputs through kollide (function id `kollide`) and
//! through its peers (function ids such as `parry`, `box2d`, `box2d-raw`, `rapier`), so a
//! ratio can be read from one run on one machine. Criterion saves each benchmark's latest result
//! under `target/criterion/<group>/<function>[/<parameter>]/new/`: `benchmark.json` holds the
//! group id, function id and parameter, and `estimates.json` the statistics. [`collect`] walks
//! that tree and [`ratio_table`] renders a Markdown table with one row per (group, parameter,
//! peer):
//!
//! ```text
//! | group | kollide | peer | peer time | kollide / peer |
//! |---|---|---|---|---|
//! | support/ball | 14.31 µs | parry | 15.02 µs | 0.95 |
//! ```
//!
//! A ratio below 1 means kollide is faster. The time is criterion's typical estimate: the slope
//! of the linear regression when criterion computed one, else the mean (the figure criterion
//! prints in the middle of its `time:` line). Groups with only a kollide result are listed with
//! `—` for the peer, so the table also works before any peer is wired in.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::json::Json;

/// The function id of kollide's benchmark inside each group.
pub const KOLLIDE_ID: &str = "kollide";

/// One saved criterion result.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The group id, e.g. `support/ball`.
    pub group: String,
    /// The function id, e.g. `kollide` or `parry`.
    pub function: String,
    /// The parameter of a parameterised benchmark, if any.
    pub value: Option<String>,
    /// The typical time per iteration, in nanoseconds.
    pub nanos: f64,
}

fn benchmark_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| p.is_dir()) {
        if path.file_name().is_some_and(|n| n == "new") {
            out.push(path);
        } else if path.file_name().is_some_and(|n| n != "report") {
            benchmark_dirs(&path, out);
        }
    }
}

fn read_json(path: &Path) -> Result<Json, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Json::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_estimate(new_dir: &Path) -> Result<Estimate, String> {
    let bench = read_json(&new_dir.join("benchmark.json"))?;
    let est = read_json(&new_dir.join("estimates.json"))?;
    let text = |key: &str| bench.get(key).and_then(Json::as_str).map(str::to_string);
    let point =
        |key: &str| est.get(key).and_then(|e| e.get("point_estimate")).and_then(Json::as_f64);
    let missing = |what: &str| format!("{}: missing {what}", new_dir.display());
    Ok(Estimate {
        group: text("group_id").ok_or_else(|| missing("group_id"))?,
        function: text("function_id").unwrap_or_default(),
        value: text("value_str"),
        nanos: point("slope").or_else(|| point("mean")).ok_or_else(|| missing("an estimate"))?,
    })
}

/// Every saved result under criterion's output directory (`target/criterion`), sorted by group,
/// parameter and function. A missing directory gives an empty list.
pub fn collect(criterion_dir: &Path) -> Result<Vec<Estimate>, String> {
    let mut dirs = Vec::new();
    benchmark_dirs(criterion_dir, &mut dirs);
    let mut out = dirs.iter().map(|d| read_estimate(d)).collect::<Result<Vec<_>, _>>()?;
    out.sort_by(|a, b| (&a.group, &a.value, &a.function).cmp(&(&b.group, &b.value, &b.function)));
    Ok(out)
}

/// A duration in nanoseconds with a readable unit, e.g. `14.31 µs`.
pub fn format_time(nanos: f64) -> String {
    let (v, unit) = match nanos {
        n if n < 1e3 => (n, "ns"),
        n if n < 1e6 => (n / 1e3, "µs"),
        n if n < 1e9 => (n / 1e6, "ms"),
        n => (n / 1e9, "s"),
    };
    format!("{v:.2} {unit}")
}

/// The Markdown ratio table of kollide against its peers, or `None` when there are no results.
pub fn ratio_table(estimates: &[Estimate]) -> Option<String> {
    if estimates.is_empty() {
        return None;
    }
    // (group, parameter) -> function -> time
    let mut groups: BTreeMap<(&str, Option<&str>), BTreeMap<&str, f64>> = BTreeMap::new();
    for e in estimates {
        groups.entry((&e.group, e.value.as_deref())).or_default().insert(&e.function, e.nanos);
    }
    let mut out = String::from(
        "| group | kollide | peer | peer time | kollide / peer |\n|---|---|---|---|---|\n",
    );
    for ((group, value), fns) in groups {
        let name = match value {
            Some(v) => format!("{group} ({v})"),
            None => group.to_string(),
        };
        let ours = fns.get(KOLLIDE_ID).copied();
        let ours_text = ours.map_or_else(|| "—".to_string(), format_time);
        let peers: Vec<(&str, f64)> =
            fns.iter().filter(|(f, _)| **f != KOLLIDE_ID).map(|(f, t)| (*f, *t)).collect();
        if peers.is_empty() {
            out.push_str(&format!("| {name} | {ours_text} | — | — | — |\n"));
        }
        for (peer, theirs) in peers {
            let ratio = ours.map_or_else(|| "—".to_string(), |o| format!("{:.2}", o / theirs));
            out.push_str(&format!(
                "| {name} | {ours_text} | {peer} | {} | {ratio} |\n",
                format_time(theirs)
            ));
        }
    }
    Some(out)
}

/// Prints the ratio table from `<target_dir>/criterion` to stdout (or a note when there are no
/// results yet). This is what `cargo xtask bench` ends with.
pub fn print_ratio_table(target_dir: &Path) -> Result<(), String> {
    let dir = target_dir.join("criterion");
    match ratio_table(&collect(&dir)?) {
        Some(table) => {
            println!(
                "\nkollide against its peers (time per iteration; ratio < 1: kollide faster)\n"
            );
            print!("{table}");
        }
        None => println!("no criterion results under {}", dir.display()),
    }
    Ok(())
}

/// The name of Box2D's assert handler, which Box2D compiles only when `NDEBUG` is not defined
/// (or `B2_ENABLE_ASSERT` is): its presence in the library means the asserts are live.
const BOX2D_ASSERT_SYMBOL: &[u8] = b"b2InternalAssert";

/// Checks that the Box2D library built for the benches (the newest
/// `<target>/release/build/boxdd-sys-*/out/libbox2d.a`) was compiled with `NDEBUG`, as Box2D's
/// release build is: it must not contain [`BOX2D_ASSERT_SYMBOL`]. `.cargo/config.toml` sets
/// `CFLAGS = "-DNDEBUG"` for that; a `CFLAGS` from the environment replaces it and fails here.
pub fn check_box2d_release(target_dir: &Path) -> Result<(), String> {
    let build = target_dir.join("release").join("build");
    let newest = fs::read_dir(&build)
        .map_err(|e| format!("{}: {e}", build.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("boxdd-sys-"))
        .map(|e| e.path().join("out").join("libbox2d.a"))
        .filter_map(|p| Some((fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max();
    let Some((_, lib)) = newest else {
        return Err(format!("no boxdd-sys-*/out/libbox2d.a under {}", build.display()));
    };
    let bytes = fs::read(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    if asserts_live(&bytes) {
        return Err(format!(
            "{} holds Box2D's assert handler `b2InternalAssert`: Box2D was built without NDEBUG \
             (is CFLAGS set in the environment? .cargo/config.toml sets CFLAGS=-DNDEBUG)",
            lib.display()
        ));
    }
    eprintln!("Box2D built with NDEBUG (no `b2InternalAssert` in {})", lib.display());
    Ok(())
}

/// `true` when a library's bytes name Box2D's assert handler.
fn asserts_live(library: &[u8]) -> bool {
    library.windows(BOX2D_ASSERT_SYMBOL.len()).any(|w| w == BOX2D_ASSERT_SYMBOL)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(group: &str, function: &str, value: Option<&str>, nanos: f64) -> Estimate {
        Estimate {
            group: group.into(),
            function: function.into(),
            value: value.map(Into::into),
            nanos,
        }
    }

    #[test]
    fn table_has_one_row_per_peer() {
        let table = ratio_table(&[
            est("support/ball", "kollide", None, 1500.0),
            est("support/ball", "parry", None, 3000.0),
            est("support/ball", "box2d", None, 1000.0),
            est("gjk/distance", "kollide", Some("64"), 2.0e6),
            est("manifold2d/boxes", "kollide", None, 100.0),
            est("manifold2d/boxes", "box2d-raw", None, 200.0),
            est("manifold2d/boxes", "box2d-safe", None, 800.0),
        ])
        .unwrap();
        let rows: Vec<&str> = table.lines().collect();
        assert_eq!(rows.len(), 7, "{table}");
        assert_eq!(rows[2], "| gjk/distance (64) | 2.00 ms | — | — | — |");
        assert_eq!(rows[5], "| support/ball | 1.50 µs | box2d | 1.00 µs | 1.50 |");
        assert_eq!(rows[3], "| manifold2d/boxes | 100.00 ns | box2d-raw | 200.00 ns | 0.50 |");
        assert_eq!(rows[4], "| manifold2d/boxes | 100.00 ns | box2d-safe | 800.00 ns | 0.12 |");
        assert_eq!(rows[6], "| support/ball | 1.50 µs | parry | 3.00 µs | 0.50 |");
        assert_eq!(ratio_table(&[]), None);
    }

    #[test]
    fn reads_criterion_output() {
        let root = std::env::temp_dir().join(format!("kollide-xtask-bench-{}", std::process::id()));
        let new = root.join("support_ball").join("kollide").join("new");
        fs::create_dir_all(&new).unwrap();
        fs::write(
            new.join("benchmark.json"),
            r#"{"group_id":"support/ball","function_id":"kollide","value_str":null}"#,
        )
        .unwrap();
        fs::write(
            new.join("estimates.json"),
            r#"{"mean":{"point_estimate":20.0},"slope":{"point_estimate":12.5}}"#,
        )
        .unwrap();
        let found = collect(&root).unwrap();
        fs::remove_dir_all(&root).unwrap();
        assert_eq!(found, vec![est("support/ball", "kollide", None, 12.5)]);
        assert!(collect(&root).unwrap().is_empty());
    }

    #[test]
    fn finds_box2d_asserts() {
        assert!(asserts_live(b"\0b2Shape\0b2InternalAssert\0b2World"));
        assert!(!asserts_live(b"\0b2Shape\0b2World\0b2Internal"));
    }
}
