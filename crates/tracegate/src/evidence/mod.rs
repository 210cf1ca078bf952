//! Auditor checks for `latency-evidence.v1` records (seed `002_*`).
//!
//! An [`Auditor`] reads one record the gate has already judged, **without
//! parsing it again**: a clean record was read into the auditor's model by
//! the evidence fast path ([`FastPath`], one pass that checks the allowlist
//! and keeps byte ranges of the fields the rules read); any other record
//! is read from the tape the gate built. The auditor runs the per-record
//! rules and returns the [`EvidenceFacts`] that the [`Summary`] aggregates.
//! The one cross-record rule, `attempts_not_sequential`, lives in
//! [`AttemptTracker`], whose memory is bounded by a horizon (see there).
//!
//! # Rules
//!
//! Each rule answers a question of the latency-evidence *auditor checklist*.
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
//! No input panics. Work per record is `O(events + intervals)`: event names
//! are matched by a short scan in small records and through a hash map in
//! large ones; memory is one small struct per event, in buffers reused from
//! record to record. The decoder bounds line size.

mod attempts;
mod checks;
mod fast;
mod model;
mod summary;

use std::fmt;

pub use attempts::{AttemptFinding, AttemptTracker, DEFAULT_HORIZON, Fingerprinter};
pub use fast::FastPath;
pub use model::Record;
pub use summary::{
    EXACT_UP_TO, MAX_CELLS, MAX_GROUPS, SKETCH_RELATIVE_ACCURACY, Summary, SummaryBatch,
    SummaryMode,
};

use crate::finding::Rule;
use crate::record::tape::Tape;
use checks::View;

/// The schema version this module understands.
pub const SCHEMA_VERSION: &str = "latency-evidence.v1";

/// One auditor finding about one record.
///
/// **Invariant:** neither `path` nor `message` holds a value of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceFinding {
    /// The stable rule, e.g. [`Rule::DurationMismatch`].
    pub rule: Rule,
    /// Where: a schema key and positions, e.g. `derived_intervals[1]`.
    pub path: String,
    /// Lowercase one-line explanation.
    pub message: String,
}

impl EvidenceFinding {
    pub(crate) fn new(rule: Rule, path: String, message: &'static str) -> Self {
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

/// What the auditor reads of the line a gate judged last
/// ([`Auditor::audit_judged`]): the record the gate's evidence fast path
/// filled, else the tape the gate scanned the line into. The gate
/// implements it; the auditor names this trait rather than the gate, so
/// that it sits below the gate (which holds the evidence fast path).
pub trait Judged {
    /// The record the evidence fast path read, when it judged the line.
    fn evidence_record(&self) -> Option<&Record>;
    /// The tape the line was scanned into otherwise.
    fn tape(&self) -> &Tape;
}

/// What the summary and the attempt tracker need from one audited record:
/// a view of the record's ranges and the rules' verdict per interval.
#[derive(Clone, Copy)]
pub struct EvidenceFacts<'a> {
    view: View<'a>,
    reproduced: &'a [Option<f64>],
}

// SECURITY: hand-written so that `{:?}` never prints ids or names.
crate::io_text::debug_as!(EvidenceFacts<'_>, |e| "EvidenceFacts" {
    has_trace_id: e.trace_id().is_some(),
    has_request_id: e.request_id().is_some(),
    has_attempt: e.attempt().is_some(),
    intervals: e.reproduced.len(),
    ..
});

impl<'a> EvidenceFacts<'a> {
    fn text(&self, t: model::Top) -> Option<&'a str> {
        // The model's strings are valid UTF-8 (a checked line, or decoded).
        let v = self.view;
        v.rec
            .top(t)
            .and_then(|s| std::str::from_utf8(v.rec.bytes(v.line, s)).ok())
    }

    /// `trace_id` and `request_id` as the record's bytes (valid UTF-8),
    /// when present: what the attempt tracker fingerprints.
    pub(crate) fn id_bytes(&self) -> (Option<&'a [u8]>, Option<&'a [u8]>) {
        let v = self.view;
        let get = |t| v.rec.top(t).map(|s| v.rec.bytes(v.line, s));
        (get(model::Top::TraceId), get(model::Top::RequestId))
    }

    /// `trace_id`, when present.
    pub fn trace_id(&self) -> Option<&'a str> {
        self.text(model::Top::TraceId)
    }

    /// `request_id`, when present.
    pub fn request_id(&self) -> Option<&'a str> {
        self.text(model::Top::RequestId)
    }

    /// `attempt`, when present.
    pub fn attempt(&self) -> Option<u64> {
        self.view.rec.attempt
    }

    /// `route_id`, when present.
    pub fn route_id(&self) -> Option<&'a str> {
        self.text(model::Top::RouteId)
    }

    /// `model_id`, when present.
    pub fn model_id(&self) -> Option<&'a str> {
        self.text(model::Top::ModelId)
    }

    /// One entry per derived interval, in record order: its `name`, and the
    /// duration computed from the events in milliseconds when the stated
    /// duration reproduced **and** no finding touches the interval.
    pub fn intervals(&self) -> impl Iterator<Item = (&'a str, Option<f64>)> + 'a {
        let v = self.view;
        v.rec
            .intervals
            .iter()
            .zip(self.reproduced.iter().copied())
            .map(move |(iv, r)| {
                (
                    std::str::from_utf8(v.rec.bytes(v.line, iv.name)).unwrap_or(""),
                    r,
                )
            })
    }
}

/// Runs the auditor rules on evidence records, with buffers reused from
/// record to record.
///
/// ```
/// use tracegate::internals::evidence::Auditor;
/// let line = r#"{"schema_version": "latency-evidence.v1",
///   "events": [{"event_name": "a", "monotonic_ns": 0, "service": "gw"},
///              {"event_name": "b", "monotonic_ns": 2000000, "service": "gw"}],
///   "derived_intervals": [{"name": "ab", "start_event": "a", "end_event": "b",
///                          "duration": 2, "duration_unit": "ms"}]}"#;
/// let mut auditor = Auditor::new();
/// let mut findings = Vec::new();
/// let facts = auditor.audit_line(line, &mut findings).unwrap();
/// assert!(findings.is_empty());
/// assert_eq!(facts.intervals().next(), Some(("ab", Some(2.0))));
/// ```
#[derive(Default)]
pub struct Auditor {
    rec: Record,
    tape: Tape,
    work: checks::Work,
}

crate::io_text::debug_as!(Auditor, "Auditor");

impl Auditor {
    /// An auditor with empty buffers.
    pub fn new() -> Auditor {
        Auditor::default()
    }

    /// Audits the evidence record `gate` judged last (the line `line`, whose
    /// judgement had format evidence and was not malformed): appends its
    /// findings to `out` and returns its facts, or a shape error (then
    /// nothing is appended). Reads the record the gate's evidence fast path
    /// kept, else the gate's tape: never a second parse.
    pub fn audit_judged<'a>(
        &'a mut self,
        gate: &'a (impl Judged + ?Sized),
        line: &'a [u8],
        out: &mut Vec<EvidenceFinding>,
    ) -> Result<EvidenceFacts<'a>, EvidenceShapeError> {
        if let Some(rec) = gate.evidence_record() {
            return Auditor::run(rec, line, &mut self.work, out);
        }
        // The gate scanned this line into its tape, so it is UTF-8.
        let Ok(text) = std::str::from_utf8(line) else {
            return Err(EvidenceShapeError {
                path: String::new(),
                message: "line is not valid utf-8",
            });
        };
        self.rec.fill_from_tape(text, gate.tape())?;
        Auditor::run(&self.rec, line, &mut self.work, out)
    }

    /// Audits one line on its own (scanned into the auditor's own tape): for
    /// callers without a gate, and tests.
    pub fn audit_line<'a>(
        &'a mut self,
        line: &'a str,
        out: &mut Vec<EvidenceFinding>,
    ) -> Result<EvidenceFacts<'a>, EvidenceShapeError> {
        if self.tape.scan(line.as_bytes()).is_err() {
            return Err(EvidenceShapeError {
                path: String::new(),
                message: "line is not a well-formed json object",
            });
        }
        self.rec.fill_from_tape(line, &self.tape)?;
        Auditor::run(&self.rec, line.as_bytes(), &mut self.work, out)
    }

    /// Runs the checks on `rec` (the gate's, or the auditor's own).
    fn run<'a>(
        rec: &'a Record,
        line: &'a [u8],
        work: &'a mut checks::Work,
        out: &mut Vec<EvidenceFinding>,
    ) -> Result<EvidenceFacts<'a>, EvidenceShapeError> {
        let view = View { rec, line };
        checks::run(view, work, out)?;
        Ok(EvidenceFacts {
            view,
            reproduced: &work.reproduced,
        })
    }
}
