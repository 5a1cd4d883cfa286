//! The generated figures of `docs/figures/`: `cargo xtask figures` regenerates them.
//!
//! The figures are drawn by the real code: the `figures` example of the `kollide` crate
//! (`crates/kollide/examples/figures/`) writes one SVG per scene. Its output is deterministic, so
//! freshness is a byte comparison, made by the `committed_figures_are_fresh` test of
//! `crates/kollide/tests/figures.rs` from the test step's build rather than by a separate build
//! of the example here.

use crate::cmd::{Cmd, workspace_root};

/// `cargo xtask figures`: regenerates `docs/figures/*.svg`.
pub fn regenerate() -> Result<(), String> {
    let dir = workspace_root().join("docs/figures");
    Cmd::cargo(["run", "--quiet", "-p", "kollide", "--example", "figures", "--"])
        .args([dir.display().to_string()])
        .note("draws every figure with the library's own drawing code")
        .run()
}
