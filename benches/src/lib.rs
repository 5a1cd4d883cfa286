//! Shared inputs for the benchmarks.
