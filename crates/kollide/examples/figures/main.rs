//! Regenerates the figures of `docs/figures/` from the real code: `cargo xtask figures`, or
//! `cargo run -p kollide --example figures -- <output directory>`.
//!
//! Every figure is drawn by the library's own drawing code (`kollide::shapes::draw`,
//! `kollide::narrowphase::draw`) from the results of the real queries, into the SVG backend of
//! `kollide::draw`. Output is deterministic, so `cargo xtask ci` can regenerate the figures into a
//! temporary directory and fail when a committed one differs.

mod scenes;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "docs/figures".to_owned()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    for (name, figure) in scenes::all() {
        let path = dir.join(format!("{name}.svg"));
        if let Err(e) = figure.write(&path) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
