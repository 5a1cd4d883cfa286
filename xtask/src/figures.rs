//! The generated figures of `docs/figures/`: `cargo xtask figures` regenerates them, and the
//! `figures` step of `cargo xtask ci` fails when a committed figure is stale.
//!
//! The figures are drawn by the real code: the `figures` example of the `kollide` crate
//! (`crates/kollide/examples/figures/`) writes one SVG per scene. Its output is deterministic, so
//! freshness is a byte comparison: the check regenerates every figure into a temporary directory
//! and compares it with the committed file, listing the stale, missing and orphaned files.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cmd::{Cmd, workspace_root};

/// Where the committed figures live, relative to the workspace root.
const FIGURES_DIR: &str = "docs/figures";

fn generate(into: &Path) -> Result<(), String> {
    Cmd::cargo(["run", "--quiet", "-p", "kollide", "--example", "figures", "--"])
        .args([into.display().to_string()])
        .note("draws every figure with the library's own drawing code")
        .run()
}

/// `cargo xtask figures`: regenerates `docs/figures/*.svg`.
pub fn regenerate() -> Result<(), String> {
    generate(&workspace_root().join(FIGURES_DIR))
}

fn svg_files(dir: &Path) -> Result<BTreeSet<String>, String> {
    let mut out = BTreeSet::new();
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(format!("cannot read {}: {e}", dir.display())),
    };
    for entry in entries {
        let name = entry.map_err(|e| e.to_string())?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".svg") {
            out.insert(name);
        }
    }
    Ok(out)
}

/// The ci step: regenerates into a temporary directory and fails when a committed figure
/// differs from the code's output, is missing, or is no longer generated.
pub fn check() -> Result<(), String> {
    let tmp: PathBuf = std::env::temp_dir().join(format!("kollide-figures-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let result = generate(&tmp).and_then(|()| compare(&workspace_root().join(FIGURES_DIR), &tmp));
    let _ = fs::remove_dir_all(&tmp);
    result
}

fn compare(committed: &Path, fresh: &Path) -> Result<(), String> {
    let old = svg_files(committed)?;
    let new = svg_files(fresh)?;
    let mut problems = Vec::new();
    for name in &new {
        if !old.contains(name) {
            problems.push(format!("{FIGURES_DIR}/{name}: missing (not committed)"));
        } else if fs::read(committed.join(name)).ok() != fs::read(fresh.join(name)).ok() {
            problems.push(format!("{FIGURES_DIR}/{name}: stale (differs from the code's output)"));
        }
    }
    for name in old.difference(&new) {
        problems.push(format!("{FIGURES_DIR}/{name}: no longer generated (delete it)"));
    }
    if problems.is_empty() {
        eprintln!("figures: {} figures up to date", new.len());
        Ok(())
    } else {
        Err(format!(
            "{} figure(s) out of date; run `cargo xtask figures` and commit:\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_lists_stale_missing_and_orphaned_files() {
        let base =
            std::env::temp_dir().join(format!("kollide-figures-test-{}", std::process::id()));
        let (old, new) = (base.join("old"), base.join("new"));
        fs::create_dir_all(&old).unwrap();
        fs::create_dir_all(&new).unwrap();
        for (dir, name, body) in [
            (&old, "same.svg", "a"),
            (&new, "same.svg", "a"),
            (&old, "stale.svg", "a"),
            (&new, "stale.svg", "b"),
            (&new, "missing.svg", "c"),
            (&old, "orphan.svg", "d"),
        ] {
            fs::write(dir.join(name), body).unwrap();
        }
        let err = compare(&old, &new).unwrap_err();
        fs::remove_dir_all(&base).unwrap();
        assert!(err.starts_with("3 figure(s) out of date"), "{err}");
        assert!(err.contains("stale.svg: stale") && err.contains("missing.svg: missing"));
        assert!(err.contains("orphan.svg: no longer generated") && !err.contains("same.svg"));
    }
}
