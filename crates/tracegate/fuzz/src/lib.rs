//! Glue for the cargo-fuzz targets of tracegate: the invariants live in
//! `invariants.rs`, shared with the main crate's `tests/it/fuzz_replay.rs`.
#![allow(clippy::panic)]

pub mod invariants;
