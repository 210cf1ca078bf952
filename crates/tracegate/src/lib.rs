//! tracegate: a privacy gate for LLM-inference trace records.
//!
//! Standard-level records are proven content-free against an allowlist with
//! types and constraints; full-level records reach only allowlisted sinks
//! inside audited, time-boxed capture windows.
//!
//! # The public API
//!
//! Everything an embedder needs is at the crate root; the modules behind it
//! are private, so that only a compiled [`Policy`] ever reaches a [`Gate`].
//!
//! | step | items |
//! |---|---|
//! | load a policy (every constructor compiles and checks it) | [`Policy`], [`PolicyErrors`], [`PolicyError`] |
//! | judge one line for one sink at one level | [`Gate`], [`Line`], [`Level`], [`Verdict`], [`Judgement`], [`Format`], [`Finding`], [`FindingKind`] |
//! | the per-record, per-sink decision: the level a sink's capture windows allow, then the gate's verdict | [`judge_for_sink`], [`Delivery`], [`Written`], [`LevelSource`] |
//! | capture windows and their clock (audit work inline, or on your own ticker: [`Capture::background`], [`CaptureJob`], [`CaptureDone`]) | [`Capture`], [`CaptureJob`], [`CaptureDone`], [`CaptureStats`], [`Grant`], [`Units`], [`Clock`], [`SystemClock`], [`ManualClock`] |
//! | write what a sink receives | [`RecordSink`], [`send`], [`JsonLines`] |
//! | redact a text | [`Redactor`], [`RedactConfig`], [`PatternRule`], [`KeywordRule`], [`Action`], [`RedactKey`], [`Redaction`], [`ContextRule`], [`Hits`], [`Edit`], [`RedactConfigError`], [`builtin_detectors`] |
//! | the audit log and its verification | [`AuditLog`], [`AuditKey`], [`AuditEvent`], [`AuditEntry`], [`CloseCause`], [`DenyWhy`], [`AuditError`], [`read_audit_log`], [`verify_audit_log`], [`VerifyReport`], [`VerifyStatus`], [`TamperKind`] |
//!
//! The library never prints and never exits: what goes wrong comes back as
//! a typed error, and warnings (full capture staying off, say) as
//! [`tracing`] events. Public enums are `#[non_exhaustive]`: match them
//! with a wildcard arm.
//!
//! # Gating one line
//!
//! A record goes out verbatim, rebuilt from its verified parts, or not at
//! all; findings say why, without a byte of the record's values.
//!
//! ```
//! use std::sync::Arc;
//! use tracegate::{Gate, Level, Line, Policy, Verdict};
//!
//! let policy = Policy::from_toml("inline.toml".as_ref(), "").unwrap();
//! let mut gate = Gate::new(Arc::new(policy));
//! let line = br#"{"request_id": "chatcmpl-9f2c41d0", "prompt_text": "hello"}"#;
//! let judged = gate.judge(1, &Line::Text(line), Level::Standard, true);
//! assert_eq!(judged.verdict, Verdict::Rewritten);
//! assert_eq!(gate.output(), br#"{"request_id":"chatcmpl-9f2c41d0"}"#);
//! assert_eq!(gate.findings()[0].rule, "content_field");
//! ```
//!
//! # Gating with a capture window and an audit log
//!
//! A `full_allowed` sink receives content only while one of its windows is
//! open, and only after the window's enablement is fsynced in the audit
//! log. [`judge_for_sink`] asks the sink's [`Capture`] for the level and
//! charges what a full record carried to the window's budget; [`send`]
//! writes what it decided.
//!
//! ```
//! use std::sync::Arc;
//! use tracegate::{
//!     AuditEvent, Capture, Gate, JsonLines, Line, ManualClock, Policy, VerifyStatus, judge_for_sink,
//!     read_audit_log, send, verify_audit_log,
//! };
//!
//! let dir = tempfile::tempdir().unwrap();
//! let policy = r#"
//! [audit]
//! path = "audit.jsonl"
//!
//! [[sink]]
//! name = "debug"
//! full_allowed = true
//!
//! [[window]]
//! id = "incident-4711"
//! sink = "debug"
//! start = "2026-12-01T10:00:00Z"
//! end = "2026-12-01T11:00:00Z"
//! reason = "reproduce a bad completion"
//! requested_by = "sre-oncall"
//! max_records = 10
//! "#;
//! std::fs::write(dir.path().join("policy.toml"), policy).unwrap();
//! let policy = Arc::new(Policy::load(&dir.path().join("policy.toml")).unwrap());
//!
//! // Inside the window (a real gate uses `SystemClock`).
//! let clock = Arc::new(ManualClock::new("2026-12-01T10:30:00Z".parse().unwrap()));
//! let mut capture = Capture::start(Arc::clone(&policy), clock, "debug");
//! let mut gate = Gate::for_sink(Arc::clone(&policy), "debug");
//! let mut out = JsonLines(Vec::new());
//!
//! let line = Line::Text(br#"{"request_id":"chatcmpl-9f2c41d0","prompt_text":"hello"}"#);
//! let delivery = judge_for_sink(&mut gate, Some(&mut capture), 1, &line);
//! assert!(delivery.is_full(), "the window is open: content goes out");
//! assert!(send(&mut out, &gate, &line, &delivery).unwrap());
//! capture.finish();
//!
//! assert_eq!(out.0, b"{\"request_id\":\"chatcmpl-9f2c41d0\",\"prompt_text\":\"hello\"}\n");
//! // The window's enablement was audited, and the log verifies.
//! let log = dir.path().join("audit.jsonl");
//! let enabled = read_audit_log(&log, None)
//!     .unwrap()
//!     .filter_map(Result::ok)
//!     .any(|e| matches!(e.event, AuditEvent::WindowEnabled { .. }));
//! assert!(enabled);
//! let report = verify_audit_log(&log, None).unwrap();
//! assert_eq!(report.status, VerifyStatus::Intact);
//! ```
//!
//! # Redacting a string
//!
//! ```
//! use tracegate::{RedactConfig, Redactor};
//!
//! let config = RedactConfig {
//!     builtin: vec!["email".into()],
//!     ..RedactConfig::default()
//! };
//! let redactor = Redactor::compile(&config, None).unwrap();
//! let (text, redaction) = redactor.redact_to_string("write to ada@example.com today");
//! assert_eq!(text, "write to [REDACTED:email] today");
//! assert!(redaction.changed);
//! ```
#![deny(missing_docs)]
// The hidden modules document their private neighbours for maintainers.
#![allow(rustdoc::private_intra_doc_links)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[doc(hidden)]
pub mod audit;
#[doc(hidden)]
pub mod decision;
#[doc(hidden)]
pub mod evidence;
#[doc(hidden)]
pub mod finding;
#[doc(hidden)]
pub mod fleet;
#[doc(hidden)]
pub mod gate;
#[doc(hidden)]
pub mod io_text;
#[doc(hidden)]
pub mod otlp_schema;
#[doc(hidden)]
pub mod policy;
#[doc(hidden)]
pub mod record;
#[doc(hidden)]
pub mod redact;
pub mod seal;
#[doc(hidden)]
pub mod sink;
#[doc(hidden)]
pub mod source;
#[doc(hidden)]
pub mod window;

pub use audit::{
    AuditError, AuditEvent, AuditKey, AuditLog, CloseCause, DenyWhy, Entry as AuditEntry,
    TamperKind, VerifyReport, VerifyStatus, read_entries as read_audit_log,
    verify as verify_audit_log,
};
pub use decision::{Delivery, LevelSource, Written, judge_for_sink};
pub use finding::{Detector, Finding, FindingKind, Rule};
pub use gate::{Gate, Judgement, Verdict};
pub use policy::{Policy, PolicyError, PolicyErrors};

/// What a standard record can carry: the free bits of each record format,
/// per sink, computed from a [`Policy`] alone (`Policy::capacity`).
pub mod capacity {
    pub use crate::policy::capacity::{Bound, Capacity, Part, RecordFormat, SinkCapacity};
}
pub use record::Format;

/// The parts of a compiled [`Policy`], as its accessors return them
/// (limits, sinks, windows, the standard and full rules, redaction and
/// server settings). Read-only views: a [`Policy`] is built only by its
/// constructors, which run the whole compile step, so nothing here can
/// make or change one.
pub mod settings {
    pub use crate::policy::rule::{
        Broken, FieldRule, FieldSet, Pattern, PatternError, Segments, ValueType,
    };
    pub use crate::policy::{
        AuditSettings, BudgetStoreUrl, FileSource, FleetSettings, FreeBitsLimit, FullRules,
        KeyOrigin, KeywordSetting, Limits, OnViolation, OtlpLimits, OtlpRules, OtlpStructure,
        PatternSetting, RedactSettings, RefKind, Referenced, ServerSettings, Sink, SinkOutput,
        SinkRedact, StandardRules, StructureLimits, Window,
    };
    pub use crate::window::budget::StoreFault;
}
pub use redact::{
    Action, ContextRule, Edit, Hits, KeywordRule, PatternRule, RedactConfig, RedactConfigError,
    RedactKey, Redaction, Redactor, builtin_names as builtin_detectors,
};
pub use sink::{Lines as JsonLines, RecordSink, send};
pub use source::lines::Line;
pub use window::Level;
pub use window::budget::Units;
pub use window::clock::{Clock, ManualClock, SystemClock};
pub use window::runtime::{Capture, CaptureStats, Done as CaptureDone, Grant, Job as CaptureJob};

/// Internals the benches, the fuzz targets, the examples and the
/// integration tests reach into (the tape, OTLP encoding, audit-log
/// plumbing, OTLP/gRPC's codec). Not part of the API: no semver
/// promise, hidden from the docs.
/// The modules behind the public API, for the other crates of this
/// workspace: the daemon (`tracegate-daemon`) and the command
/// (`tracegate-cli`) build on the library's internals (the tape, the
/// policy's compiled parts, the audit log's files, the capture runtime),
/// and their tests and the fuzz targets reach the same parts. Not a stable
/// API: embed through the items at the crate root.
#[doc(hidden)]
#[allow(rustdoc::private_intra_doc_links)]
pub mod internals {
    pub use crate::{
        audit, decision, evidence, finding, fleet, gate, io_text, otlp_schema, policy, record,
        seal, sink, source, window,
    };
}
