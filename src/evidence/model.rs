//! The serde model of a `latency-evidence.v1` record, borrowing from the line.
//!
//! Strings are `Cow<'a, str>` with `#[serde(borrow)]`: they borrow from the
//! input unless the JSON string holds an escape, which is the only case that
//! allocates. No `serde_json::Value` is built on the hot path.
//!
//! Fields that the auditor does not read (span ids, region, deployment,
//! component, stage, ...) are ignored here: keeping them, with their types and
//! constraints, is the standard allowlist's job (`default_policy.toml`).
//!
//! Required by the model (absent or mistyped is a shape error): `events`,
//! `derived_intervals`, and per event `event_name`, per interval `name`,
//! `start_event`, `end_event`, `duration`. Everything else is optional, and
//! its absence is judged by the checks.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};

/// One evidence record: one attempt of one logical request.
#[derive(Deserialize)]
pub(crate) struct Record<'a> {
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub schema_version: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub trace_id: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub request_id: Option<Cow<'a, str>>,
    #[serde(default)]
    pub attempt: Option<u64>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub route_id: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub model_id: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub clock_source: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub sync_status: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub status: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub error_reason: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub cancellation_reason: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub events: Vec<Event<'a>>,
    #[serde(borrow)]
    pub derived_intervals: Vec<Interval<'a>>,
}

/// A raw, point-in-time boundary event.
#[derive(Deserialize)]
pub(crate) struct Event<'a> {
    #[serde(borrow)]
    pub event_name: Cow<'a, str>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub timestamp_utc: Option<Cow<'a, str>>,
    #[serde(default)]
    pub monotonic_ns: Option<u64>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub service: Option<Cow<'a, str>>,
}

/// A derived duration that names its start and end events.
#[derive(Deserialize)]
pub(crate) struct Interval<'a> {
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow)]
    pub start_event: Cow<'a, str>,
    #[serde(borrow)]
    pub end_event: Cow<'a, str>,
    pub duration: f64,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub duration_unit: Option<Cow<'a, str>>,
}

/// `Option<Cow<str>>` that borrows: serde's `borrow` on a `Cow` nested in an
/// `Option` silently produces owned strings, so the `Cow` is wrapped in a
/// newtype whose field borrows.
fn opt_cow<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    #[derive(Deserialize)]
    struct Borrowing<'a>(#[serde(borrow)] Cow<'a, str>);
    Ok(Option::<Borrowing<'de>>::deserialize(d)?.map(|b| b.0))
}
