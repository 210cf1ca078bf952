//! The serde mirror of the policy TOML: every key SPEC.md defines, no logic.
//!
//! Every struct denies unknown fields: a misspelt key is an error, never a
//! silently weakened policy. Items that compile errors must point at carry
//! their span (`Spanned`). Everything is optional here; defaults and
//! validation belong to [`super::compile`].

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// One policy file, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPolicy {
    /// Policy format version; only `1` exists.
    pub version: Option<Spanned<i64>>,
    /// `[audit]`.
    pub audit: Option<Spanned<RawAudit>>,
    /// `[limits]`.
    pub limits: Option<Spanned<RawLimits>>,
    /// `[full]`.
    pub full: Option<Spanned<RawFull>>,
    /// `[standard]`.
    pub standard: Option<Spanned<RawStandard>>,
    /// `[[sink]]`.
    #[serde(default)]
    pub sink: Vec<Spanned<RawSink>>,
    /// `[[window]]`.
    #[serde(default)]
    pub window: Vec<Spanned<RawWindow>>,
    /// `[redact]`.
    pub redact: Option<Spanned<RawRedact>>,
    /// `[server]`: settings of `serve`.
    pub server: Option<Spanned<RawServer>>,
    /// `[[source]]`: inputs `serve` follows besides HTTP.
    #[serde(default)]
    pub source: Vec<Spanned<RawSource>>,
    /// `[fleet]`: budgets shared by several `serve` replicas.
    pub fleet: Option<Spanned<RawFleet>>,
}

/// `[fleet]`: how a window's budget is shared by a fleet of replicas.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawFleet {
    /// `redis://HOST:PORT` or `rediss://HOST:PORT`: the shared budget store.
    pub budget_store: Option<Spanned<String>>,
    /// File holding the store's password, relative to the file naming it.
    pub password_file: Option<Spanned<String>>,
    /// How many replicas share each budget.
    pub replicas: Option<Spanned<i64>>,
    /// This replica's name in audit entries (default: the host name).
    pub replica_id: Option<Spanned<String>>,
    /// Longest wait for one store call (humantime).
    pub store_timeout: Option<Spanned<String>>,
}

/// `[[source]]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawSource {
    /// `file`: follow a growing JSON Lines file across rotation.
    pub kind: Option<Spanned<String>>,
    /// The file, relative to the policy file that names it.
    pub path: Option<Spanned<String>>,
}

/// `[server]`: how `serve` listens and buffers.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawServer {
    /// Socket address to listen on (`127.0.0.1:4318`).
    pub listen: Option<Spanned<String>>,
    /// Largest accepted request body, after decompression, in bytes.
    pub max_body_bytes: Option<Spanned<i64>>,
    /// Per-sink queue bound, in records.
    pub queue_records: Option<Spanned<i64>>,
    /// Per-sink queue bound, in bytes.
    pub queue_bytes: Option<Spanned<i64>>,
    /// How often file sinks are flushed (humantime).
    pub flush_interval: Option<Spanned<String>>,
    /// Most client connections held at once (further ones wait in the kernel's backlog).
    pub max_connections: Option<Spanned<i64>>,
    /// Most spans in one request (and most resource or scope groups).
    pub max_spans: Option<Spanned<i64>>,
    /// Most log records in one request (and most resource or scope groups).
    pub max_log_records: Option<Spanned<i64>>,
    /// Most span events in one request.
    pub max_events: Option<Spanned<i64>>,
    /// Most span links in one request.
    pub max_links: Option<Spanned<i64>>,
    /// Most attributes in one request, at every level, nested values included.
    pub max_attributes: Option<Spanned<i64>>,
    /// Deepest nesting of `arrayValue`/`kvlistValue` in one attribute value.
    pub max_nesting: Option<Spanned<i64>>,
    /// Memory budget shared by the requests being read and decoded at once.
    pub decode_memory_bytes: Option<Spanned<i64>>,
    /// Longest time a client may take to send a request's header (humantime).
    pub header_read_timeout: Option<Spanned<String>>,
    /// Longest time a client may take to send a request's body (humantime).
    pub body_read_timeout: Option<Spanned<String>>,
    /// How long a connection may stay idle between requests (humantime).
    pub idle_timeout: Option<Spanned<String>>,
    /// OTLP/gRPC listen address (`127.0.0.1:4317`), or `"off"`.
    pub grpc_listen: Option<Spanned<String>>,
    /// PEM certificate chain of both receivers: with it they speak TLS only.
    pub tls_cert_file: Option<Spanned<String>>,
    /// PEM private key of `tls_cert_file`.
    pub tls_key_file: Option<Spanned<String>>,
    /// PEM CA certificates client certificates must chain to (mTLS).
    pub tls_client_ca_file: Option<Spanned<String>>,
    /// A file holding the token every ingest request must carry.
    pub bearer_token_file: Option<Spanned<String>>,
}

/// `[audit]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawAudit {
    /// The audit log, relative to the file that names it.
    pub path: Option<Spanned<String>>,
    /// HMAC key for the chain, relative to the file that names it.
    pub key_file: Option<Spanned<String>>,
    /// How long an append waits for the log's file lock (humantime).
    pub lock_timeout: Option<Spanned<String>>,
    /// The log's anchor (a high-water mark), outside the log's folder.
    pub anchor: Option<Spanned<String>>,
}

/// `[limits]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawLimits {
    /// Longest accepted line, in bytes.
    pub max_line_bytes: Option<Spanned<i64>>,
}

/// `[full]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawFull {
    /// cf fields that carry content.
    pub content_fields: Option<Vec<Spanned<String>>>,
    /// OTLP attribute keys (or `prefix.*` patterns) that carry content.
    pub content_attributes: Option<Vec<Spanned<String>>>,
    /// Longest permitted window (humantime, e.g. `24h`).
    pub max_window: Option<Spanned<String>>,
}

/// `[standard]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawStandard {
    /// `drop_record` (default) or `drop_field`.
    pub on_violation: Option<Spanned<String>>,
    /// Built-in detectors run over every allowlisted string value.
    pub detectors: Option<Vec<Spanned<String>>>,
    /// The cf allowlist.
    pub fields: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// OTLP allowlists.
    pub otlp: Option<RawOtlp>,
    /// Latency-evidence allowlist.
    pub evidence: Option<RawEvidence>,
}

/// `[standard.otlp]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawOtlp {
    /// Allowed span names.
    pub span_names: Option<Vec<Spanned<String>>>,
    /// Allowed span attributes.
    pub span_attributes: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// Allowed resource attributes.
    pub resource_attributes: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// Allowed instrumentation-scope attributes.
    pub scope_attributes: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// Allowed span-event attributes.
    pub event_attributes: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// Allowed span-link attributes.
    pub link_attributes: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// Allowed log-record attributes.
    pub log_attributes: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// The rule for `schemaUrl` (a string rule).
    pub schema_url: Option<Spanned<RawField>>,
    /// The rule for an instrumentation scope's `name`.
    pub scope_name: Option<Spanned<RawField>>,
    /// The rule for an instrumentation scope's `version`.
    pub scope_version: Option<Spanned<RawField>>,
    /// The rule for span event names and log `eventName`.
    pub event_name: Option<Spanned<RawField>>,
    /// The rule a span name not in `span_names` must meet to pass.
    pub span_name: Option<Spanned<RawField>>,
    /// `traceState` members kept at standard level: vendor key -> value rule.
    pub trace_state: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    /// Most `resourceSpans` / `resourceLogs` in one record.
    pub max_resources: Option<Spanned<i64>>,
    /// Most `scopeSpans` / `scopeLogs` per resource.
    pub max_scopes: Option<Spanned<i64>>,
    /// Most spans per scope.
    pub max_spans: Option<Spanned<i64>>,
    /// Most events per span.
    pub max_events: Option<Spanned<i64>>,
    /// Most links per span.
    pub max_links: Option<Spanned<i64>>,
    /// Most log records per scope.
    pub max_log_records: Option<Spanned<i64>>,
    /// Most attributes in one attribute list.
    pub max_attributes: Option<Spanned<i64>>,
}

/// `[standard.evidence]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawEvidence {
    /// The evidence allowlist.
    pub fields: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
}

/// One allowlisted field and its constraints.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawField {
    /// `string`, `number`, `integer`, `boolean`, `null`, `array`, `object`.
    #[serde(rename = "type")]
    pub ty: Option<Spanned<String>>,
    /// Whether `null` is accepted besides the type.
    pub nullable: Option<bool>,
    /// Regex the whole string must match (anchored by tracegate).
    pub pattern: Option<Spanned<String>>,
    /// Compile `pattern` Unicode-aware and admit non-ASCII values (the
    /// default is ASCII-only).
    pub unicode: Option<bool>,
    /// A string with neither `pattern` nor `one_of` is free text, which a
    /// standard allowlist refuses unless this says it is intended.
    pub free_text: Option<bool>,
    /// The string must be one of these.
    pub one_of: Option<Vec<String>>,
    /// Lower bound for numbers (inclusive).
    pub min: Option<f64>,
    /// Upper bound for numbers (inclusive).
    pub max: Option<f64>,
    /// Longest string, in bytes after unescaping.
    pub max_len: Option<Spanned<i64>>,
    /// The field must be present.
    pub required: Option<bool>,
    /// For arrays: the rule every element follows.
    pub items: Option<Box<Spanned<RawField>>>,
    /// For arrays: the most elements.
    pub max_items: Option<Spanned<i64>>,
    /// For objects: the allowlist of members.
    pub fields: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
}

/// `[[sink]]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawSink {
    /// Unique name.
    pub name: Option<Spanned<String>>,
    /// On the full allowlist.
    pub full_allowed: Option<bool>,
    /// Where `serve` writes: `file:PATH`, `stdout`, `otlp+http://HOST:PORT`,
    /// `otlp+https://`, `otlp+grpc://`, `otlp+grpcs://`.
    pub output: Option<Spanned<String>>,
    /// `false`, or the names of the detectors this sink applies.
    pub redact: Option<Spanned<toml::Value>>,
    /// Identifier fields rewritten as keyed pseudonyms for this sink.
    pub pseudonymize: Option<Vec<Spanned<String>>>,
    /// PEM CA certificates the receiver must chain to (TLS outputs).
    pub tls_ca_file: Option<Spanned<String>>,
    /// PEM client certificate chain, for a receiver that asks (mTLS).
    pub tls_cert_file: Option<Spanned<String>>,
    /// PEM private key of `tls_cert_file`.
    pub tls_key_file: Option<Spanned<String>>,
    /// A file holding a token sent as `Authorization: Bearer` (TLS outputs).
    pub bearer_token_file: Option<Spanned<String>>,
}

/// `[[window]]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawWindow {
    /// Unique id.
    pub id: Option<Spanned<String>>,
    /// The sink it opens.
    pub sink: Option<Spanned<String>>,
    /// RFC 3339 start.
    pub start: Option<Spanned<RawTime>>,
    /// RFC 3339 end; required.
    pub end: Option<Spanned<RawTime>>,
    /// Why the window is open.
    pub reason: Option<Spanned<String>>,
    /// Who asked for it.
    pub requested_by: Option<Spanned<String>>,
    /// Budget: most full records delivered.
    pub max_records: Option<Spanned<i64>>,
    /// Budget: most bytes of full records delivered.
    pub max_bytes: Option<Spanned<i64>>,
    /// `true`: no budget, said explicitly (required in `windows/` files
    /// that set neither `max_records` nor `max_bytes`).
    pub unbounded: Option<Spanned<bool>>,
}

/// A timestamp written as an RFC 3339 string or a TOML datetime.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum RawTime {
    /// `"2026-12-01T10:00:00Z"`.
    Text(String),
    /// `2026-12-01T10:00:00Z` (unquoted).
    Toml(toml::value::Datetime),
}

/// `[redact]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawRedact {
    /// Built-in detectors to apply.
    pub builtin: Option<Vec<Spanned<String>>>,
    /// HMAC key for `hash` actions and pseudonyms.
    pub key_file: Option<Spanned<String>>,
    /// Sinks allowed to set `redact = false` or a subset.
    pub allow_unredacted_sinks: Option<Vec<Spanned<String>>>,
    /// Id prefixes a pseudonym keeps (`chatcmpl-`); any other is rewritten.
    pub pseudonym_prefixes: Option<Vec<Spanned<String>>>,
    /// `[[redact.pattern]]`.
    #[serde(default)]
    pub pattern: Vec<Spanned<RawPattern>>,
    /// `[[redact.keywords]]`.
    #[serde(default)]
    pub keywords: Vec<Spanned<RawKeywords>>,
    /// `[redact.context.<detector>]`: keyword proximity per built-in
    /// detector.
    pub context: Option<BTreeMap<String, Spanned<RawContext>>>,
}

/// `[redact.context.<detector>]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawContext {
    /// Words that confirm an ambiguous shape.
    pub words: Option<Vec<String>>,
    /// Words that veto an ambiguous shape.
    pub not_words: Option<Vec<String>>,
    /// Bytes before the candidate that are searched.
    pub window: Option<Spanned<i64>>,
}

/// `[[redact.pattern]]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawPattern {
    /// Detector name, shown in `[REDACTED:<name>]`.
    pub name: Option<Spanned<String>>,
    /// The regex.
    pub regex: Option<Spanned<String>>,
    /// `mask`, `hash` or `drop`.
    pub action: Option<Spanned<String>>,
}

/// `[[redact.keywords]]`.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RawKeywords {
    /// Detector name.
    pub name: Option<Spanned<String>>,
    /// The words.
    pub words: Option<Vec<String>>,
    /// Or a file of words, one a line.
    pub file: Option<Spanned<String>>,
    /// Match ignoring ASCII case.
    pub case_insensitive: Option<bool>,
    /// Match whole words only.
    pub whole_word: Option<bool>,
    /// `mask`, `hash` or `drop`.
    pub action: Option<Spanned<String>>,
}
