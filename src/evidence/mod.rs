//! Auditor checks for `latency-evidence.v1` records (seed `002_*`).
//!
//! [`audit`] reads one record that the decoder has already proven to be a
//! well-formed JSON object, deserializes it into a borrowing model (no
//! `serde_json::Value` on the hot path), runs the per-record rules and
//! returns the [`EvidenceFacts`] that the [`Summary`] aggregates. The one
//! cross-record rule, `attempts_not_sequential`, lives in [`AttemptTracker`].
//!
//! # Rules
//!
//! Each rule answers a question of the seed's *Auditor Checklist*.
//!
//! | rule | what it catches | checklist question |
//! |---|---|---|
//! | `duration_mismatch` | a derived duration does not reproduce from its start and end events within the tolerance below, or cannot be computed because the events share no usable clock | Does each derived duration point to reproducible raw events? Can an independent reviewer reproduce the reported durations? |
//! | `negative_duration` | a stated or computed duration below zero (one finding per interval) | Are missing, duplicated, or out-of-order events detectable? (the seed's "negative durations, impossible ordering") |
//! | `events_out_of_order` | an event earlier than the last earlier event of its own service (by `monotonic_ns`, else UTC), or earlier than its immediate predecessor from another service (by UTC) | Are missing, duplicated, or out-of-order events detectable? |
//! | `missing_event` | an interval's `start_event` or `end_event` names no event (one finding per missing end) | Are missing, duplicated, or out-of-order events detectable? Does each derived duration point to reproducible raw events? |
//! | `duplicate_event` | the same `event_name` twice in one record, whatever the service (reported at the second one) | Are missing, duplicated, or out-of-order events detectable? |
//! | `cross_clock_monotonic` | a cross-service interval whose duration can only have come from subtracting two services' monotonic clocks: `clock_source` is monotonic-only, or the UTC computation fails while the cross-service monotonic difference matches | Are clock source, clock domain, synchronization status, units, and precision recorded? |
//! | `unsynced_cross_observer` | a cross-service interval computed from UTC while `sync_status` is absent, empty, `unknown`, `unsynchronized`, `unsynced`, `not_synchronized` or `none` | Are clock source, clock domain, synchronization status, units, and precision recorded? |
//! | `token_byte_mismatch` | an interval named for tokens (`token`, `tokens`, `ttft` as a `_`-separated word) with a byte event (`byte`, `bytes` word) at either end, or the reverse | Does the schema distinguish first byte from first token? |
//! | `unknown_duration_unit` | `duration_unit` absent or not one of `ns`, `us`, `ms`, `s` | Are clock source, clock domain, synchronization status, units, and precision recorded? |
//! | `missing_schema_version` | no `schema_version` (or null) | Is the schema version retained with the record? |
//! | `unknown_schema_version` | a `schema_version` other than `latency-evidence.v1` (the other rules still run, as for v1) | Is the schema version retained with the record? |
//! | `attempts_not_sequential` | across one file, the attempts of one (`trace_id`, `request_id`) are not exactly 1..n | Are retries and fallback routes assigned to distinct attempts? Is trace continuity preserved? |
//! | `completed_without_final_event` | `status` = `completed` with no final boundary event (`final_output_token`, `final_response_byte`, `final_response_flush`, `stream_complete`, `upstream_completion`), unless `partial_marked_completed` explains it | Is the end-to-end completion boundary final token, final byte, gateway flush, or client acknowledgment? |
//! | `partial_marked_completed` | `status` = `completed` with a non-empty `error_reason` or `cancellation_reason` (path `status`); or `completed` with no final event while the last listed event is a first-response event (`first_` + a `token`, `byte` or `response` word) (path of that event) | Are batching delay, cache outcome, cancellation, timeout, failure, and partial-stream states visible? |
//!
//! # Reproduction
//!
//! An interval is computed from `monotonic_ns` when both events name the same
//! `service` (one clock domain) and both carry it; otherwise from
//! `timestamp_utc`. Events with no `service` are never taken to share a clock.
//! The stated duration reproduces when `|stated - computed| <= tolerance`:
//! one unit of `duration_unit` for monotonic computations (covers a producer
//! that rounds, truncates or ceils to its unit), and one unit **plus** the
//! coarser of the two timestamps' resolutions (from their fractional digits:
//! `.120Z` is 1 ms) for UTC computations, since both the stated value and the
//! timestamps were rounded before we saw them.
//!
//! # The seed sample
//!
//! The seed's sample record draws no finding: its cross-service interval
//! (`gateway` to `stream_processor`) reproduces from UTC, its `clock_source`
//! declares UTC correlation and its `sync_status` is documented. That its
//! monotonic values also happen to differ by 290 ms across services is not
//! used, and not flagged: we never subtract them. The test
//! `seed_sample_is_clean_and_why` pins this.
//!
//! # Never echo content
//!
//! Findings and shape errors carry rule names, schema keys, array positions
//! and fixed messages: never a value of the record (no id, name, timestamp or
//! duration). The summary does show ids and interval names; the integrator
//! passes only ids that passed the allowlist's pattern constraints.
//!
//! # Untrusted input
//!
//! No input panics. Work per record is `O(events + intervals)` with hash
//! lookups; memory is one small struct per event. The decoder bounds line size.

mod attempts;
mod checks;
mod model;
mod shape;
mod summary;

use std::borrow::Cow;
use std::fmt;

pub use attempts::{AttemptFinding, AttemptTracker};
pub use summary::Summary;

/// The schema version this module understands.
pub const SCHEMA_VERSION: &str = "latency-evidence.v1";

/// One auditor finding about one record.
///
/// **Invariant:** neither `path` nor `message` holds a value of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceFinding {
    /// Stable snake_case rule name, e.g. `duration_mismatch`.
    pub rule: &'static str,
    /// Where: a schema key and positions, e.g. `derived_intervals[1]`.
    pub path: String,
    /// Lowercase one-line explanation.
    pub message: String,
}

impl EvidenceFinding {
    pub(crate) fn new(rule: &'static str, path: String, message: &'static str) -> Self {
        Self {
            rule,
            path,
            message: message.to_owned(),
        }
    }
}

/// The record does not fit the evidence model (a field of the wrong type, a
/// required field missing, a timestamp that is not RFC 3339). The integrator
/// reports it as a violation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceShapeError {
    /// Where, e.g. `derived_intervals[0].duration`; empty for the whole record.
    pub path: String,
    /// A fixed, value-free message.
    pub message: &'static str,
}

impl fmt::Display for EvidenceShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for EvidenceShapeError {}

/// What the summary and the attempt tracker need from one audited record.
/// Strings borrow from the line unless they held JSON escapes.
pub struct EvidenceFacts<'a> {
    /// `trace_id`, when present.
    pub trace_id: Option<Cow<'a, str>>,
    /// `request_id`, when present.
    pub request_id: Option<Cow<'a, str>>,
    /// `attempt`, when present.
    pub attempt: Option<u64>,
    /// `route_id`, when present.
    pub route_id: Option<Cow<'a, str>>,
    /// `model_id`, when present.
    pub model_id: Option<Cow<'a, str>>,
    /// One entry per derived interval, in record order.
    pub intervals: Vec<IntervalFact<'a>>,
}

// SECURITY: hand-written so that `{:?}` never prints ids or names.
impl fmt::Debug for EvidenceFacts<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EvidenceFacts")
            .field("has_trace_id", &self.trace_id.is_some())
            .field("has_request_id", &self.request_id.is_some())
            .field("has_attempt", &self.attempt.is_some())
            .field("has_route_id", &self.route_id.is_some())
            .field("has_model_id", &self.model_id.is_some())
            .field("intervals", &self.intervals.len())
            .finish()
    }
}

/// One derived interval's outcome.
pub struct IntervalFact<'a> {
    /// The interval's `name`.
    pub name: Cow<'a, str>,
    /// The duration computed from the events, in milliseconds, when the
    /// stated duration reproduced **and** no finding touches the interval;
    /// `None` otherwise.
    pub reproduced_ms: Option<f64>,
}

// SECURITY: hand-written so that `{:?}` never prints the name or duration.
impl fmt::Debug for IntervalFact<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IntervalFact")
            .field("reproduced", &self.reproduced_ms.is_some())
            .finish_non_exhaustive()
    }
}

/// Audits one evidence record: appends its findings to `out` and returns its
/// facts, or a shape error (in which case nothing is appended).
///
/// ```
/// use tracegate::evidence::audit;
/// let line = r#"{"schema_version": "latency-evidence.v1",
///   "events": [{"event_name": "a", "monotonic_ns": 0, "service": "gw"},
///              {"event_name": "b", "monotonic_ns": 2000000, "service": "gw"}],
///   "derived_intervals": [{"name": "ab", "start_event": "a", "end_event": "b",
///                          "duration": 2, "duration_unit": "ms"}]}"#;
/// let mut findings = Vec::new();
/// let facts = audit(line, &mut findings).unwrap();
/// assert!(findings.is_empty());
/// assert_eq!(facts.intervals[0].reproduced_ms, Some(2.0));
/// ```
pub fn audit<'a>(
    line: &'a str,
    out: &mut Vec<EvidenceFinding>,
) -> Result<EvidenceFacts<'a>, EvidenceShapeError> {
    // SECURITY: serde_json's error text quotes values; it is dropped here and
    // the shape error is rebuilt from positions by `shape::locate`.
    let record: model::Record<'a> = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(_) => return Err(shape::locate(line)),
    };
    let reproduced = checks::run(&record, out)?;
    let intervals = record
        .derived_intervals
        .into_iter()
        .zip(reproduced)
        .map(|(iv, reproduced_ms)| IntervalFact {
            name: iv.name,
            reproduced_ms,
        })
        .collect();
    Ok(EvidenceFacts {
        trace_id: record.trace_id,
        request_id: record.request_id,
        attempt: record.attempt,
        route_id: record.route_id,
        model_id: record.model_id,
        intervals,
    })
}
