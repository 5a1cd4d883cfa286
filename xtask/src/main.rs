//! kollide's task runner (placeholder until the xtask lands).
fn main() {}
