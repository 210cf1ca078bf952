//! The integration test binary: one binary, one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod audit;
mod capture;
mod cases;
mod cli;
mod evidence;
mod fuzz_replay;
mod otel_sdk;
mod otlp;
mod policy_errors;
mod redaction;
mod serve;
mod standard;
mod tidy;

#[path = "../support/rng.rs"]
mod rng;
