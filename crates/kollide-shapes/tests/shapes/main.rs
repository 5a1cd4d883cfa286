//! Integration tests of kollide-shapes: constructors, the envelope, composites and the tree.
//!
//! One test binary for the crate: each file below is a module, so the crate and its peers are
//! linked once rather than once per file (linking was most of CI's build time).

mod composite;
mod constructors;
mod core_normals;
mod envelope;
mod tree;
