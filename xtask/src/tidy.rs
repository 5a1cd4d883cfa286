//! Tidy: repository policy checked by code rather than by memory.
//!
//! Each check is a function returning the list of problems it found (empty when the repository
//! is tidy), so `cargo xtask tidy` can report every problem at once, and each is also a `#[test]`
//! at the bottom of this file, so a plain `cargo test --workspace` enforces the policy too.
//!
//! The checks:
//!
//! * **Layering.** The kollide crates form a stack, [`LAYERS`], bottom first:
//!   `kollide-math < kollide-draw < kollide-shapes < kollide-manifold < kollide-narrowphase <
//!   kollide-solver < kollide`. A crate may depend (normal or build dependency) only on crates
//!   below it; dev-dependencies may point anywhere, since tests may use higher layers as oracles.
//!   Every package under `crates/` must be placed in [`LAYERS`]: a new crate has to be given its
//!   layer.
//!   The dependency graph comes from `cargo metadata --format-version 1 --no-deps`.
//! * **Module docs.** Every `.rs` file under `crates/*/src/` (and under `xtask/src`,
//!   `benches/src`, `benches/benches`) opens with a `//!` module doc: its first non-empty line
//!   starts with `//!`.
//! * **Workspace lints.** Every workspace package's `Cargo.toml` has `[lints] workspace = true`,
//!   so `missing_docs`, `unsafe_code = "forbid"` and the clippy settings reach every crate. The
//!   one exception is the bench crate (`kollide-benches`), which calls Box2D's C routine directly
//!   in one `#[allow(unsafe_code)]` module: it copies the lints into its own `[lints.rust]` with
//!   `unsafe_code = "deny"` (a `forbid` cannot be lifted locally), and tidy checks that it does.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cmd::Cmd;
use crate::json::Json;

/// The kollide crates in dependency order, bottom first: each may depend only on earlier ones.
pub const LAYERS: &[&str] = &[
    "kollide-math",
    "kollide-draw",
    "kollide-shapes",
    "kollide-manifold",
    "kollide-narrowphase",
    "kollide-solver",
    "kollide",
];

/// The kind of a dependency edge, as `cargo metadata` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKind {
    /// `[dependencies]`.
    Normal,
    /// `[dev-dependencies]`.
    Dev,
    /// `[build-dependencies]`.
    Build,
}

/// One dependency of a package.
#[derive(Clone, Debug)]
pub struct Dep {
    /// The package name of the dependency (not its rename).
    pub name: String,
    /// Which table it is declared in.
    pub kind: DepKind,
}

/// One workspace package.
#[derive(Clone, Debug)]
pub struct Package {
    /// The package name.
    pub name: String,
    /// The absolute path of its `Cargo.toml`.
    pub manifest_path: PathBuf,
    /// Its declared dependencies.
    pub deps: Vec<Dep>,
}

/// The parts of `cargo metadata` that xtask uses.
#[derive(Clone, Debug)]
pub struct Metadata {
    /// The workspace packages.
    pub packages: Vec<Package>,
    /// The workspace root directory.
    pub workspace_root: PathBuf,
    /// Cargo's target directory (respects `CARGO_TARGET_DIR`).
    pub target_directory: PathBuf,
}

impl Metadata {
    /// Runs `cargo metadata --format-version 1 --no-deps` and parses its output.
    pub fn load() -> Result<Self, String> {
        let text = Cmd::cargo(["metadata", "--format-version", "1", "--no-deps"]).read()?;
        Self::from_json_text(&text)
    }

    /// Parses the JSON printed by `cargo metadata --format-version 1`.
    pub fn from_json_text(text: &str) -> Result<Self, String> {
        let json = Json::parse(text).map_err(|e| format!("cargo metadata: {e}"))?;
        let path_of = |key: &str| {
            json.get(key)
                .and_then(Json::as_str)
                .map(PathBuf::from)
                .ok_or_else(|| format!("cargo metadata: missing `{key}`"))
        };
        let mut packages = Vec::new();
        for p in json.get("packages").and_then(Json::as_array).unwrap_or_default() {
            let field = |key: &str| {
                p.get(key)
                    .and_then(Json::as_str)
                    .ok_or_else(|| format!("cargo metadata: a package lacks `{key}`"))
            };
            let mut deps = Vec::new();
            for d in p.get("dependencies").and_then(Json::as_array).unwrap_or_default() {
                let name = d
                    .get("name")
                    .and_then(Json::as_str)
                    .ok_or("cargo metadata: a dependency lacks `name`")?;
                let kind = match d.get("kind").and_then(Json::as_str) {
                    None => DepKind::Normal,
                    Some("dev") => DepKind::Dev,
                    Some("build") => DepKind::Build,
                    Some(other) => return Err(format!("cargo metadata: dependency kind {other}")),
                };
                deps.push(Dep { name: name.to_string(), kind });
            }
            packages.push(Package {
                name: field("name")?.to_string(),
                manifest_path: PathBuf::from(field("manifest_path")?),
                deps,
            });
        }
        Ok(Metadata {
            packages,
            workspace_root: path_of("workspace_root")?,
            target_directory: path_of("target_directory")?,
        })
    }

    fn rel<'p>(&self, path: &'p Path) -> &'p Path {
        path.strip_prefix(&self.workspace_root).unwrap_or(path)
    }
}

fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == name)
}

/// Layering: no crate depends on a layer above it, and every crate under `crates/` has a layer.
pub fn check_layering(meta: &Metadata) -> Vec<String> {
    let crates_dir = meta.workspace_root.join("crates");
    let order = LAYERS.join(" < ");
    let mut problems = Vec::new();
    for p in &meta.packages {
        let manifest = meta.rel(&p.manifest_path).display();
        let layer = layer_of(&p.name);
        if layer.is_none() && p.manifest_path.starts_with(&crates_dir) {
            problems.push(format!(
                "{manifest}: crate `{}` is in crates/ but has no layer; add it to LAYERS in \
                 xtask/src/tidy.rs (order: {order})",
                p.name
            ));
        }
        let Some(layer) = layer else { continue };
        for d in p.deps.iter().filter(|d| d.kind != DepKind::Dev) {
            match layer_of(&d.name) {
                Some(dep_layer) if dep_layer >= layer => problems.push(format!(
                    "{manifest}: `{}` depends on `{}`, which is not below it; crates depend only \
                     downward (order: {order})",
                    p.name, d.name
                )),
                _ => {}
            }
        }
    }
    problems
}

/// `true` when the first non-empty line of `text` is a `//!` module doc.
pub fn has_module_doc(text: &str) -> bool {
    text.lines().map(str::trim).find(|l| !l.is_empty()).is_some_and(|l| l.starts_with("//!"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The directories whose `.rs` files must open with a module doc.
fn doc_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Ok(entries) = fs::read_dir(root.join("crates")) {
        let mut crates: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        crates.sort();
        dirs.extend(crates.into_iter().map(|c| c.join("src")).filter(|s| s.is_dir()));
    }
    for extra in ["xtask/src", "benches/src", "benches/benches", "hostile/src"] {
        let d = root.join(extra);
        if d.is_dir() {
            dirs.push(d);
        }
    }
    dirs
}

/// Module docs: every `.rs` file under `crates/*/src/` (and xtask's and the benches' sources)
/// opens with `//!`.
pub fn check_module_docs(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mut files = Vec::new();
    for dir in doc_dirs(root) {
        if let Err(e) = rust_files(&dir, &mut files) {
            problems.push(e);
        }
    }
    for f in files {
        let rel = f.strip_prefix(root).unwrap_or(&f).display().to_string();
        match fs::read_to_string(&f) {
            Ok(text) if has_module_doc(&text) => {}
            Ok(_) => problems.push(format!(
                "{rel}: no module doc; the first non-empty line must start with `//!` (what the \
                 module computes, when to use it, its limits)"
            )),
            Err(e) => problems.push(format!("{rel}: {e}")),
        }
    }
    problems
}

/// Each line of a `Cargo.toml` text that is not a table header, comments and whitespace removed,
/// with the table it stands in (`""` before the first header).
fn manifest_entries(manifest: &str) -> impl Iterator<Item = (String, String)> + '_ {
    let mut section = String::new();
    manifest.lines().filter_map(move |line| {
        let line = line.split('#').next().unwrap_or("").trim();
        let squashed: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if squashed.starts_with('[') {
            section = squashed.trim_matches(['[', ']']).to_string();
            None
        } else {
            Some((section.clone(), squashed))
        }
    })
}

/// `true` when a `Cargo.toml` text opts into the workspace lints: `[lints]` with
/// `workspace = true`, or `lints.workspace = true`, or `lints = { workspace = true }`.
pub fn uses_workspace_lints(manifest: &str) -> bool {
    manifest_entries(manifest).any(|(section, entry)| match section.as_str() {
        "lints" => entry == "workspace=true",
        "" => entry == "lints.workspace=true" || entry == "lints={workspace=true}",
        _ => false,
    })
}

/// The package allowed its own lints table (see the module docs).
pub const OWN_LINTS_PACKAGE: &str = "kollide-benches";

/// `true` when a `Cargo.toml` text has its own `[lints.rust]` table with `unsafe_code = "deny"`
/// (the bench crate's exception to the workspace lints).
pub fn denies_unsafe_code(manifest: &str) -> bool {
    manifest_entries(manifest)
        .any(|(section, entry)| section == "lints.rust" && entry == "unsafe_code=\"deny\"")
}

/// Workspace lints: every workspace package's `Cargo.toml` has `[lints] workspace = true`
/// (the bench crate may instead deny `unsafe_code` in its own table).
pub fn check_lints(meta: &Metadata) -> Vec<String> {
    let mut problems = Vec::new();
    for p in &meta.packages {
        let rel = meta.rel(&p.manifest_path).display();
        match fs::read_to_string(&p.manifest_path) {
            Ok(text) if uses_workspace_lints(&text) => {}
            Ok(text) if p.name == OWN_LINTS_PACKAGE && denies_unsafe_code(&text) => {}
            Ok(_) => problems.push(format!(
                "{rel}: `{}` does not inherit the workspace lints; add `[lints]` with \
                 `workspace = true`",
                p.name
            )),
            Err(e) => problems.push(format!("{rel}: {e}")),
        }
    }
    problems
}

/// Runs every tidy check, printing each problem; fails when any check found one.
pub fn run() -> Result<(), String> {
    eprintln!("$ cargo metadata --format-version 1 --no-deps    # tidy: layering, lints");
    let meta = Metadata::load()?;
    let checks: [(&str, Vec<String>); 3] = [
        ("layering (crates depend only downward)", check_layering(&meta)),
        ("module docs (`//!` first)", check_module_docs(&meta.workspace_root)),
        ("workspace lints (`[lints] workspace = true`)", check_lints(&meta)),
    ];
    let mut total = 0;
    for (name, problems) in &checks {
        if problems.is_empty() {
            eprintln!("tidy: {name}: ok");
        } else {
            eprintln!("tidy: {name}: {} problem(s)", problems.len());
            for p in problems {
                eprintln!("  error: {p}");
            }
            total += problems.len();
        }
    }
    if total == 0 { Ok(()) } else { Err(format!("tidy found {total} problem(s)")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_tidy(problems: Vec<String>) {
        assert!(problems.is_empty(), "tidy problems:\n{}", problems.join("\n"));
    }

    // The repository itself.

    #[test]
    fn tidy_layering() {
        assert_tidy(check_layering(&Metadata::load().unwrap()));
    }

    #[test]
    fn tidy_module_docs() {
        assert_tidy(check_module_docs(&crate::cmd::workspace_root()));
    }

    #[test]
    fn tidy_workspace_lints() {
        assert_tidy(check_lints(&Metadata::load().unwrap()));
    }

    // The checks catch what they should.

    fn package(name: &str, dir: &str, deps: &[(&str, DepKind)]) -> Package {
        Package {
            name: name.into(),
            manifest_path: PathBuf::from(format!("/ws/{dir}/Cargo.toml")),
            deps: deps.iter().map(|(n, k)| Dep { name: (*n).into(), kind: *k }).collect(),
        }
    }

    fn meta(packages: Vec<Package>) -> Metadata {
        Metadata { packages, workspace_root: "/ws".into(), target_directory: "/ws/target".into() }
    }

    #[test]
    fn layering_accepts_downward_and_dev_edges() {
        let m = meta(vec![
            package("kollide-math", "crates/kollide-math", &[("nalgebra", DepKind::Normal)]),
            package(
                "kollide-shapes",
                "crates/kollide-shapes",
                &[("kollide-math", DepKind::Normal), ("kollide-narrowphase", DepKind::Dev)],
            ),
            package("kollide-benches", "benches", &[("kollide", DepKind::Normal)]),
            package("xtask", "xtask", &[]),
        ]);
        assert_tidy(check_layering(&m));
    }

    #[test]
    fn layering_rejects_upward_edges() {
        let m = meta(vec![
            package(
                "kollide-shapes",
                "crates/kollide-shapes",
                &[("kollide-solver", DepKind::Normal)],
            ),
            package("kollide-math", "crates/kollide-math", &[("kollide-math", DepKind::Build)]),
        ]);
        let problems = check_layering(&m);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("crates/kollide-shapes/Cargo.toml"));
        assert!(problems[0].contains("`kollide-solver`"));
    }

    #[test]
    fn layering_rejects_crates_without_a_layer() {
        let m = meta(vec![package("kollide-broadphase", "crates/kollide-broadphase", &[])]);
        let problems = check_layering(&m);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("kollide-broadphase") && problems[0].contains("no layer"));
    }

    #[test]
    fn module_doc_detection() {
        assert!(has_module_doc("//! Docs.\nfn f() {}"));
        assert!(has_module_doc("\n\n   //! Docs after blank lines."));
        assert!(!has_module_doc("// A plain comment.\n//! Too late."));
        assert!(!has_module_doc("#![allow(dead_code)]\n//! After an attribute."));
        assert!(!has_module_doc("/// An item doc.\nfn f() {}"));
        assert!(!has_module_doc(""));
    }

    #[test]
    fn workspace_lints_detection() {
        assert!(uses_workspace_lints("[package]\nname = \"a\"\n\n[lints]\nworkspace = true\n"));
        assert!(uses_workspace_lints("[lints]\n# inherit\nworkspace=true # yes\n"));
        assert!(uses_workspace_lints("lints.workspace = true\n[package]\n"));
        assert!(uses_workspace_lints("lints = { workspace = true }\n"));
        assert!(!uses_workspace_lints("[package]\nworkspace = true\n"));
        assert!(!uses_workspace_lints("[lints]\nworkspace = false\n"));
        assert!(!uses_workspace_lints("[lints.rust]\nworkspace = true\n"));
        assert!(!uses_workspace_lints("[package]\nname = \"a\"\n"));
        assert!(denies_unsafe_code(
            "[lints.rust]\nmissing_docs = \"warn\"\nunsafe_code = \"deny\"\n"
        ));
        assert!(!denies_unsafe_code("[lints.rust]\nunsafe_code = \"allow\"\n"));
        assert!(!denies_unsafe_code("[package]\nunsafe_code = \"deny\"\n"));
    }

    #[test]
    fn metadata_parsing() {
        let text = r#"{"packages":[{"name":"kollide-shapes","manifest_path":"/ws/crates/kollide-shapes/Cargo.toml",
            "dependencies":[{"name":"kollide-math","kind":null,"rename":null},{"name":"rstest","kind":"dev"}]}],
            "workspace_root":"/ws","target_directory":"/ws/target","version":1}"#;
        let m = Metadata::from_json_text(text).unwrap();
        assert_eq!(m.packages.len(), 1);
        assert_eq!(m.packages[0].deps[0].kind, DepKind::Normal);
        assert_eq!(m.packages[0].deps[1].kind, DepKind::Dev);
        assert_eq!(m.target_directory, PathBuf::from("/ws/target"));
    }
}
