//! The serde mirror of the policy TOML: every key of the policy, no logic.
//!
//! Every table is declared with `raw_table!` ([`super::keys`]), which
//! writes the serde struct and its entry in the key table from one field
//! list: **adding a key is one doc-commented field here**, with its range
//! or members and its default in `#[spec = ...]` (then its meaning in
//! `compile` and a row in `docs/policy.md`; the built-in defaults,
//! `policies/default.toml`, the JSON Schema and the range checks follow
//! from the spec, and tests hold the docs to it). Every struct denies unknown
//! fields. Items that compile errors must point at carry their span
//! (`Spanned`); spans are in the merged policy's address space
//! ([`super::merge`]), so a span also names its file. Everything is
//! optional here; defaults and validation belong to [`super::compile`].

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use jiff::SignedDuration;
use serde::Deserialize;
use toml::Spanned;

use super::keys::{Describe, Dflt, REPLACE_DEFAULTS, Shape, Spec, raw_table};

/// The loopback address the receivers listen on by default.
const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

raw_table! {
    /// One policy file, as written.
    pub struct RawPolicy {
        /// Policy format version; only `1` exists.
        #[spec = Spec::value(Dflt::Int(1))]
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
        pub sink: Option<Vec<Spanned<RawSink>>>,
        /// `[[window]]`.
        pub window: Option<Vec<Spanned<RawWindow>>>,
        /// `[redact]`.
        pub redact: Option<Spanned<RawRedact>>,
        /// `[server]`: settings of `serve`.
        pub server: Option<Spanned<RawServer>>,
        /// `[[source]]`: inputs `serve` follows besides HTTP.
        pub source: Option<Vec<Spanned<RawSource>>>,
        /// `[fleet]`: budgets shared by several `serve` replicas.
        pub fleet: Option<Spanned<RawFleet>>,
        /// `[capture]`: what every capture must be.
        pub capture: Option<Spanned<RawCapture>>,
    }
}

raw_table! {
    /// `[capture]`: requirements on every full-allowed sink.
    pub struct RawCapture {
        /// Every `full_allowed` sink must seal (`seal_to`): a policy with
        /// one that does not is refused.
        pub require_seal: Option<bool>,
    }
}

raw_table! {
    /// `[fleet]`: how a window's budget is shared by a fleet of replicas.
    pub struct RawFleet {
        /// `redis://HOST:PORT` or `rediss://HOST:PORT`: the shared budget store.
        pub budget_store: Option<Spanned<String>>,
        /// File holding the store's password, relative to the file naming it.
        pub password_file: Option<Spanned<String>>,
        /// Key the replicas seal the store's budget counts with (never given to the store), relative to the file naming it.
        pub store_key_file: Option<Spanned<String>>,
        /// How many replicas share each budget.
        #[spec = Spec::int(1, 100_000, 1)]
        pub replicas: Option<Spanned<i64>>,
        /// This replica's name in audit entries (default: the host name).
        pub replica_id: Option<Spanned<String>>,
        /// Longest wait for one store call (humantime).
        #[spec = Spec::duration(SignedDuration::from_secs(60), SignedDuration::from_millis(500))]
        pub store_timeout: Option<Spanned<String>>,
    }
}

raw_table! {
    /// `[[source]]`.
    pub struct RawSource {
        /// `file`: follow a growing JSON Lines file across rotation.
        pub kind: Option<Spanned<String>>,
        /// The file, relative to the policy file that names it.
        pub path: Option<Spanned<String>>,
    }
}

raw_table! {
    /// `[server]`: how `serve` listens and buffers.
    pub struct RawServer {
        /// Socket address to listen on (`127.0.0.1:4318`).
        #[spec = Spec::value(Dflt::Addr(SocketAddr::new(LOCALHOST, 4318)))]
        pub listen: Option<Spanned<String>>,
        /// Largest accepted request body, after decompression, in bytes.
        #[spec = Spec::int(1, 1 << 30, 8 << 20)]
        pub max_body_bytes: Option<Spanned<i64>>,
        /// Per-sink queue bound, in records.
        #[spec = Spec::int(1, 100_000_000, 10_000)]
        pub queue_records: Option<Spanned<i64>>,
        /// Per-sink queue bound, in bytes.
        #[spec = Spec::int(1, 64 << 30, 64 << 20)]
        pub queue_bytes: Option<Spanned<i64>>,
        /// How often file sinks are flushed (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(24), SignedDuration::from_secs(1))]
        pub flush_interval: Option<Spanned<String>>,
        /// OTLP sinks: wait before the first retry of a failed export (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(1), SignedDuration::from_secs(5))]
        pub retry_initial_interval: Option<Spanned<String>>,
        /// OTLP sinks: longest wait between two attempts (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(1), SignedDuration::from_secs(30))]
        pub retry_max_interval: Option<Spanned<String>>,
        /// OTLP sinks: how long one export is retried before its records are dropped (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(24), SignedDuration::from_mins(5))]
        pub retry_max_elapsed: Option<Spanned<String>>,
        /// Most client connections held at once (further ones wait in the kernel's backlog).
        #[spec = Spec::int(1, 65_536, 1024)]
        pub max_connections: Option<Spanned<i64>>,
        /// Most spans in one request (and most resource or scope groups).
        #[spec = Spec::int(1, 1 << 20, 16_384)]
        pub max_spans: Option<Spanned<i64>>,
        /// Most log records in one request (and most resource or scope groups).
        #[spec = Spec::int(1, 1 << 20, 16_384)]
        pub max_log_records: Option<Spanned<i64>>,
        /// Most span events in one request.
        #[spec = Spec::int(1, 1 << 22, 65_536)]
        pub max_events: Option<Spanned<i64>>,
        /// Most span links in one request.
        #[spec = Spec::int(1, 1 << 22, 65_536)]
        pub max_links: Option<Spanned<i64>>,
        /// Most attributes in one request, at every level, nested values included.
        #[spec = Spec::int(1, 1 << 22, 262_144)]
        pub max_attributes: Option<Spanned<i64>>,
        /// Deepest nesting of `arrayValue`/`kvlistValue` in one attribute value.
        #[spec = Spec::int(1, 16, 8)]
        pub max_nesting: Option<Spanned<i64>>,
        /// Memory budget shared by the requests being read and decoded at once.
        #[spec = Spec::int(1, 1 << 40, 256 << 20)]
        pub decode_memory_bytes: Option<Spanned<i64>>,
        /// Longest time a client may take to send a request's header (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(1), SignedDuration::from_secs(10))]
        pub header_read_timeout: Option<Spanned<String>>,
        /// Longest time a client may take to send a request's body (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(1), SignedDuration::from_secs(30))]
        pub body_read_timeout: Option<Spanned<String>>,
        /// How long a connection may stay idle between requests (humantime).
        #[spec = Spec::duration(SignedDuration::from_hours(1), SignedDuration::from_secs(60))]
        pub idle_timeout: Option<Spanned<String>>,
        /// OTLP/gRPC listen address (`127.0.0.1:4317`), or `"off"`.
        #[spec = Spec::value(Dflt::Addr(SocketAddr::new(LOCALHOST, 4317)))]
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
}

raw_table! {
    /// `[audit]`.
    pub struct RawAudit {
        /// The audit log, relative to the file that names it.
        pub path: Option<Spanned<String>>,
        /// HMAC key for the chain, relative to the file that names it.
        pub key_file: Option<Spanned<String>>,
        /// How long an append waits for the log's file lock (humantime).
        #[spec = Spec::duration(SignedDuration::from_secs(30), SignedDuration::from_secs(5))
            .because("an append waits this long for another writer; keep it short (the default is 5s)")
            .implicit()]
        pub lock_timeout: Option<Spanned<String>>,
        /// The log's anchor (a high-water mark), outside the log's folder.
        pub anchor: Option<Spanned<String>>,
        /// Ed25519 private key that signs the log's checkpoints, relative
        /// to the file that names it.
        pub signing_key: Option<Spanned<String>>,
    }
}

raw_table! {
    /// `[limits]`.
    pub struct RawLimits {
        /// Longest accepted line, in bytes.
        #[spec = Spec::int(1, 1 << 30, 16 << 20)]
        pub max_line_bytes: Option<Spanned<i64>>,
    }
}

raw_table! {
    /// `[full]`.
    pub struct RawFull {
        /// cf fields that carry content.
        pub content_fields: Option<Vec<Spanned<String>>>,
        /// OTLP attribute keys (or `prefix.*` patterns) that carry content.
        pub content_attributes: Option<Vec<Spanned<String>>>,
        /// Longest permitted window (humantime, e.g. `24h`).
        #[spec = Spec::duration(SignedDuration::from_hours(31 * 24), SignedDuration::from_hours(24))]
        pub max_window: Option<Spanned<String>>,
    }
}

raw_table! {
    /// `[standard]`.
    pub struct RawStandard {
        /// `drop_record` (default) or `drop_field`.
        #[spec = Spec::one_of(&["drop_record", "drop_field"])]
        pub on_violation: Option<Spanned<String>>,
        /// Built-in detectors run over every allowlisted string value.
        pub detectors: Option<Vec<Spanned<String>>>,
        /// The cf allowlist.
        pub fields: Option<RawAllowlist>,
        /// OTLP allowlists.
        pub otlp: Option<RawOtlp>,
        /// Latency-evidence allowlist.
        pub evidence: Option<RawEvidence>,
    }
}

raw_table! {
    /// `[standard.otlp]`.
    pub struct RawOtlp {
        /// Allowed span names.
        pub span_names: Option<Vec<Spanned<String>>>,
        /// Allowed span attributes.
        pub span_attributes: Option<RawAllowlist>,
        /// Allowed resource attributes.
        pub resource_attributes: Option<RawAllowlist>,
        /// Allowed instrumentation-scope attributes.
        pub scope_attributes: Option<RawAllowlist>,
        /// Allowed span-event attributes.
        pub event_attributes: Option<RawAllowlist>,
        /// Allowed span-link attributes.
        pub link_attributes: Option<RawAllowlist>,
        /// Allowed log-record attributes.
        pub log_attributes: Option<RawAllowlist>,
        /// The rule for `schemaUrl` (a string rule).
        pub schema_url: Option<Spanned<RawRule>>,
        /// The rule for an instrumentation scope's `name`.
        pub scope_name: Option<Spanned<RawRule>>,
        /// The rule for an instrumentation scope's `version`.
        pub scope_version: Option<Spanned<RawRule>>,
        /// The rule for span event names and log `eventName`.
        pub event_name: Option<Spanned<RawRule>>,
        /// The rule for span names not in `span_names` (the GenAI
        /// conventions' `{operation} {model}` shape).
        pub span_name: Option<Spanned<RawRule>>,
        /// `traceState` members kept at standard level: vendor key -> value rule.
        pub trace_state: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
        /// Most `resourceSpans` / `resourceLogs` in one record.
        #[spec = Spec::int(1, 1_000_000, 64)]
        pub max_resources: Option<Spanned<i64>>,
        /// Most `scopeSpans` / `scopeLogs` per resource.
        #[spec = Spec::int(1, 1_000_000, 64)]
        pub max_scopes: Option<Spanned<i64>>,
        /// Most spans per scope.
        #[spec = Spec::int(1, 1_000_000, 2048)]
        pub max_spans: Option<Spanned<i64>>,
        /// Most events per span.
        #[spec = Spec::int(1, 1_000_000, 32)]
        pub max_events: Option<Spanned<i64>>,
        /// Most links per span.
        #[spec = Spec::int(1, 1_000_000, 8)]
        pub max_links: Option<Spanned<i64>>,
        /// Most log records per scope.
        #[spec = Spec::int(1, 1_000_000, 2048)]
        pub max_log_records: Option<Spanned<i64>>,
        /// Most attributes in one attribute list.
        #[spec = Spec::int(1, 1_000_000, 128)]
        pub max_attributes: Option<Spanned<i64>>,
    }
}

raw_table! {
    /// `[standard.evidence]`.
    pub struct RawEvidence {
        /// The evidence allowlist.
        pub fields: Option<RawAllowlist>,
    }
}

raw_table! {
    /// One allowlisted field and its constraints.
    pub struct RawField {
        /// `string`, `number`, `integer`, `boolean`, `null`, `array`, `object`.
        pub r#type: Option<Spanned<String>>,
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
        /// Most segments of a string: it is cut at every separator byte,
        /// so `k` separators make `k + 1` segments (at least 1).
        pub max_segments: Option<Spanned<i64>>,
        /// Most bytes in one segment of a string (at least 1).
        pub max_segment_len: Option<Spanned<i64>>,
        /// Most words in a string: non-empty segments without an ASCII digit.
        pub max_words: Option<Spanned<i64>>,
        /// The bytes that cut a string into segments: ASCII punctuation or
        /// space (default: every ASCII byte that is not a letter or digit).
        pub separators: Option<Spanned<String>>,
        /// The field must be present.
        pub required: Option<bool>,
        /// For arrays: the rule every element follows.
        pub items: Option<Box<Spanned<RawField>>>,
        /// For arrays: the most elements.
        pub max_items: Option<Spanned<i64>>,
        /// For objects: the allowlist of members.
        pub fields: Option<BTreeMap<Spanned<String>, Spanned<RawField>>>,
    }
}

raw_table! {
    /// `[[sink]]`.
    pub struct RawSink {
        /// Unique name.
        pub name: Option<Spanned<String>>,
        /// On the full allowlist.
        pub full_allowed: Option<bool>,
        /// Where `serve` writes: `file:PATH`, `stdout`, `otlp+http://HOST:PORT`,
        /// `otlp+https://`, `otlp+grpc://`, `otlp+grpcs://`.
        pub output: Option<Spanned<String>>,
        /// `false`, or the names of the detectors this sink applies.
        pub redact: Option<Spanned<RawSinkRedact>>,
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
        /// OTLP outputs: a folder where exports the receiver did not take
        /// wait, across restarts (standard sinks only).
        pub spool_dir: Option<Spanned<String>>,
        /// Most bytes the spool holds.
        #[spec = Spec::int(1, 1 << 40, 256 << 20)]
        pub spool_max_bytes: Option<Spanned<i64>>,
        /// Most free bits one standard record may carry to this sink (the
        /// capacity bound): one number for every record format, or a table
        /// by format (`cf`, `otlp_span`, `otlp_log`, `evidence`); a policy
        /// above it does not load.
        pub max_free_bits: Option<Spanned<RawFreeBits>>,
        /// Seal full-level content to these recipients (age X25519
        /// public keys, `age1...`): the sink never holds it in clear.
        pub seal_to: Option<Vec<Spanned<String>>>,
        /// The sealed sink whose captures this sink's standard records
        /// point to (`<content field>_ref` members naming the segment and
        /// record that hold the content).
        pub content_refs: Option<Spanned<String>>,
    }
}

raw_table! {
    /// `[[window]]`.
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

impl Describe for RawTime {
    fn shape() -> Shape {
        Shape::Time
    }
}

/// A sink's `max_free_bits`: one integer for every record format, or a
/// table of integers by format (read by `compile`, which names a wrong
/// format or value better than serde would).
#[derive(Debug, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct RawFreeBits(pub toml::Value);

impl Describe for RawFreeBits {
    fn shape() -> Shape {
        Shape::IntOrInts
    }
}

/// A sink's `redact`: `true`, `false` or a list of detector names (read
/// by `compile`, which explains a wrong value better than serde would).
#[derive(Debug, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct RawSinkRedact(pub toml::Value);

impl Describe for RawSinkRedact {
    fn shape() -> Shape {
        Shape::BoolOrStrings
    }
}

/// One field rule that stands alone (`[standard.otlp] schema_url`): set in
/// one file, replaced whole by a user's rule, never merged key by key with
/// another file's or the defaults' (a default `pattern` must not creep into
/// a user's `one_of` rule).
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct RawRule(pub RawField);

impl Describe for RawRule {
    fn shape() -> Shape {
        Shape::Rule(RawField::shape)
    }
}

/// An allowlist table (`[standard.fields]`, `[standard.otlp.*_attributes]`,
/// `[standard.evidence.fields]`): field rules by name, and whether the
/// table replaces the built-in defaults instead of extending them.
#[derive(Debug, Default, PartialEq)]
pub struct RawAllowlist {
    /// `replace_defaults = true`: only the rules written here apply.
    pub replace_defaults: Option<Spanned<bool>>,
    /// The rules, by field or attribute name.
    pub fields: BTreeMap<Spanned<String>, Spanned<RawField>>,
}

impl Describe for RawAllowlist {
    fn shape() -> Shape {
        Shape::Allowlist(RawField::shape)
    }
}

impl<'de> Deserialize<'de> for RawAllowlist {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = RawAllowlist;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a table of field rules")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawAllowlist, A::Error> {
                let mut out = RawAllowlist::default();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    if key.get_ref() == REPLACE_DEFAULTS {
                        out.replace_defaults = Some(map.next_value()?);
                    } else {
                        let rule = map.next_value()?;
                        out.fields.insert(key, rule);
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(Visit)
    }
}

raw_table! {
    /// `[redact]`.
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
        pub pattern: Option<Vec<Spanned<RawPattern>>>,
        /// `[[redact.keywords]]`.
        pub keywords: Option<Vec<Spanned<RawKeywords>>>,
        /// `[redact.context.<detector>]`: keyword proximity per built-in detector.
        pub context: Option<RawContexts>,
    }
}

raw_table! {
    /// `[redact.context.<detector>]`: the words just before a shape that
    /// is ambiguous on its own decide it. A key left out keeps the
    /// built-in value.
    pub struct RawContext {
        /// Words that confirm an ambiguous shape.
        pub words: Option<Vec<String>>,
        /// Words that veto an ambiguous shape.
        pub not_words: Option<Vec<String>>,
        /// Bytes before the candidate that are searched (1-256).
        #[spec = Spec::int_in(1, crate::redact::MAX_CONTEXT_WINDOW as i64)]
        pub window: Option<Spanned<i64>>,
    }
}

/// `[redact.context]`: a [`RawContext`] per built-in detector name. A
/// detector's table is replaced whole by a user's; the defaults fill in
/// the detectors the user left out.
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(transparent)]
pub struct RawContexts(pub BTreeMap<String, Spanned<RawContext>>);

impl Describe for RawContexts {
    fn shape() -> Shape {
        Shape::Named(RawContext::shape)
    }
}

raw_table! {
    /// `[[redact.pattern]]`.
    pub struct RawPattern {
        /// Detector name, shown in `[REDACTED:<name>]`.
        pub name: Option<Spanned<String>>,
        /// The regex.
        pub regex: Option<Spanned<String>>,
        /// `mask`, `hash` or `drop`.
        pub action: Option<Spanned<String>>,
    }
}

raw_table! {
    /// `[[redact.keywords]]`.
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
}
