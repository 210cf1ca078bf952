//! The integration test binary: one binary, one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod audit;
mod audit_attacks;
mod budgets;
mod capacity;
mod capture;
mod capture_serve;
mod cases;
mod cli;
mod cli_first_hour;
mod evidence;
mod export;
mod export_retry;
mod faces;
mod fleet;
mod genai;
mod grpc;
mod identifiers;
mod otel_sdk;
mod otlp;
mod policy_errors;
mod policy_store;
mod policy_ux;
mod readme;
mod redaction;
mod sealed;
mod sealed_serve;
mod serve;
mod serve_hard;
mod signed;
mod standard;
mod tidy;
mod tls;
mod visible;
mod wait;

#[path = "../support/rng.rs"]
mod rng;
