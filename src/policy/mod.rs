//! The policy: TOML in a file or a folder, compiled into an immutable
//! [`Policy`] that the gate reads and never changes.
//!
//! `raw` mirrors the TOML, `schema` finds every unknown key, `compile`
//! validates and builds, `defaults` holds what an absent section means,
//! `load` is the only IO.

pub mod compile;
pub mod defaults;
pub mod error;
pub mod load;
pub mod raw;
pub mod redaction;
pub mod rule;
pub mod schema;

use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

pub use error::{PolicyError, PolicyErrors};
pub use rule::{FieldRule, FieldSet, ValueType};

/// The default `limits.max_line_bytes`: 16 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A compiled, validated policy. Immutable, `Send + Sync`; reloads build a
/// new one and swap it whole.
#[derive(Debug, Clone)]
pub struct Policy {
    /// SHA-256 (hex) of the policy's files, names and texts.
    pub sha256: String,
    /// The path the policy was loaded from.
    pub source: PathBuf,
    /// The files it was compiled from, in merge order.
    pub files: Vec<PathBuf>,
    /// `[limits]`.
    pub limits: Limits,
    /// `[full]`.
    pub full: FullRules,
    /// `[standard]`.
    pub standard: StandardRules,
    /// `[[sink]]`, in order.
    pub sinks: Vec<Sink>,
    /// `[[window]]`, in order.
    pub windows: Vec<Window>,
    /// `[audit]`, when present.
    pub audit: Option<AuditSettings>,
    /// `[redact]`, as configured.
    pub redact: RedactSettings,
    /// Each sink's compiled redaction (built by [`Policy::load`] and
    /// [`Policy::from_toml`], which read keyword and key files).
    pub redaction: redaction::Redaction,
    /// `[server]`: settings of `serve`.
    pub server: ServerSettings,
    /// `[[source]]`: files `serve` follows.
    pub sources: Vec<FileSource>,
}

/// A `[[source]] kind = "file"`: a growing JSON Lines file that `serve`
/// follows across rotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSource {
    /// The file, resolved against the policy file.
    pub path: PathBuf,
}

impl Policy {
    /// Read and compile the policy at `path` (a file or a folder).
    pub fn load(path: &Path) -> Result<Policy, PolicyErrors> {
        let files = load::read_policy_files(path)?;
        compile::compile(path, &files)?.with_redaction()
    }

    /// Build each sink's redaction (reads keyword and key files).
    fn with_redaction(mut self) -> Result<Policy, PolicyErrors> {
        self.redaction = redaction::build(&self)?;
        Ok(self)
    }

    /// Compile a policy from one TOML text, as if read from `name`.
    pub fn from_toml(name: &Path, text: &str) -> Result<Policy, PolicyErrors> {
        let files = [load::PolicyFile {
            path: name.to_path_buf(),
            text: text.to_string(),
        }];
        compile::compile(name, &files)?.with_redaction()
    }

    /// The sink called `name`.
    pub fn sink(&self, name: &str) -> Option<&Sink> {
        self.sinks.iter().find(|s| s.name == name)
    }

    /// Whether `field` is a cf content field.
    pub fn is_content_field(&self, field: &str) -> bool {
        self.full.content_fields.iter().any(|f| f == field)
    }
}

/// `[limits]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Longest accepted line in bytes.
    pub max_line_bytes: usize,
}

/// `[full]`.
#[derive(Debug, Clone, PartialEq)]
pub struct FullRules {
    /// cf fields that carry content.
    pub content_fields: Vec<String>,
    /// OTLP attributes that carry content.
    pub content_attributes: Vec<String>,
    /// Longest permitted window.
    pub max_window: SignedDuration,
}

/// What to do with a record whose allowlisted field breaks its constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnViolation {
    /// Drop the whole record (the default).
    DropRecord,
    /// Remove only the offending field.
    DropField,
}

/// `[standard]`.
#[derive(Debug, Clone, PartialEq)]
pub struct StandardRules {
    /// `on_violation`.
    pub on_violation: OnViolation,
    /// Built-in detectors run over every allowlisted string value at
    /// standard level; a hit is a violation (`detected_<name>`).
    pub detectors: Vec<String>,
    /// The cf allowlist.
    pub fields: FieldSet,
    /// The OTLP allowlists.
    pub otlp: OtlpRules,
    /// The latency-evidence allowlist.
    pub evidence: FieldSet,
}

/// `[standard.otlp]`.
#[derive(Debug, Clone, PartialEq)]
pub struct OtlpRules {
    /// Allowed span names.
    pub span_names: Vec<String>,
    /// Allowed span attributes.
    pub span_attributes: FieldSet,
    /// Allowed resource attributes.
    pub resource_attributes: FieldSet,
    /// Allowed scope attributes.
    pub scope_attributes: FieldSet,
    /// Allowed span-event attributes.
    pub event_attributes: FieldSet,
    /// Allowed span-link attributes.
    pub link_attributes: FieldSet,
    /// Allowed log-record attributes.
    pub log_attributes: FieldSet,
    /// Rules for the structural strings that carry no attributes.
    pub structure: OtlpStructure,
    /// `traceState` members kept at standard level, by vendor key; any
    /// other member is stripped.
    pub trace_state: FieldSet,
    /// Count limits on repeated structures.
    pub limits: OtlpLimits,
}

/// `[standard.otlp]` rules for structural strings (an empty string, the
/// protobuf default, always passes).
#[derive(Debug, Clone, PartialEq)]
pub struct OtlpStructure {
    /// `schemaUrl` of resources and scopes.
    pub schema_url: FieldRule,
    /// An instrumentation scope's `name`.
    pub scope_name: FieldRule,
    /// An instrumentation scope's `version`.
    pub scope_version: FieldRule,
    /// Span event names and log `eventName`.
    pub event_name: FieldRule,
}

/// `[standard.otlp] max_*`: the most elements of each repeated structure
/// in one record; more is a `max_items` violation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtlpLimits {
    /// `resourceSpans` / `resourceLogs`.
    pub resources: usize,
    /// `scopeSpans` / `scopeLogs` per resource.
    pub scopes: usize,
    /// Spans per scope.
    pub spans: usize,
    /// Events per span.
    pub events: usize,
    /// Links per span.
    pub links: usize,
    /// Log records per scope.
    pub log_records: usize,
    /// Attributes per list.
    pub attributes: usize,
}

/// A `[[sink]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sink {
    /// Unique name.
    pub name: String,
    /// On the full allowlist.
    pub full_allowed: bool,
    /// Where `serve` writes it.
    pub output: Option<SinkOutput>,
    /// Which redaction applies to its full-level content.
    pub redact: SinkRedact,
    /// Identifier fields rewritten as keyed pseudonyms.
    pub pseudonymize: Vec<String>,
}

/// A sink's `output`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SinkOutput {
    /// `file:PATH`, resolved against the policy file.
    File(PathBuf),
    /// `stdout`.
    Stdout,
    /// `otlp+http://HOST:PORT`.
    OtlpHttp(String),
}

impl SinkOutput {
    /// Parse an output string; `resolve` makes file paths absolute.
    pub fn parse(s: &str, resolve: impl FnOnce(&str) -> PathBuf) -> Option<SinkOutput> {
        if s == "stdout" {
            Some(SinkOutput::Stdout)
        } else if let Some(p) = s.strip_prefix("file:") {
            (!p.is_empty()).then(|| SinkOutput::File(resolve(p)))
        } else if let Some(rest) = s.strip_prefix("otlp+http://") {
            (!rest.is_empty()).then(|| SinkOutput::OtlpHttp(format!("http://{rest}")))
        } else {
            None
        }
    }
}

/// A sink's redaction setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SinkRedact {
    /// The policy's `[redact]` rules (the default).
    Policy,
    /// Only these detectors (needs `allow_unredacted_sinks`).
    Only(Vec<String>),
    /// No redaction (needs `allow_unredacted_sinks`).
    Off,
}

/// A `[[window]]`: a bounded time in which a sink may receive full records.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// Unique id.
    pub id: String,
    /// The sink it opens.
    pub sink: String,
    /// First instant inside.
    pub start: Timestamp,
    /// First instant outside.
    pub end: Timestamp,
    /// Why.
    pub reason: String,
    /// Who asked.
    pub requested_by: String,
    /// Most full records.
    pub max_records: Option<u64>,
    /// Most bytes of full records.
    pub max_bytes: Option<u64>,
    /// The file that defines it.
    pub file: PathBuf,
}

/// `[server]`: how `serve` listens and how much it buffers per sink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSettings {
    /// The OTLP/HTTP listen address.
    pub listen: std::net::SocketAddr,
    /// Largest accepted request body, after decompression.
    pub max_body_bytes: usize,
    /// Per-sink queue bound in records.
    pub queue_records: usize,
    /// Per-sink queue bound in bytes.
    pub queue_bytes: usize,
    /// How often file sinks are flushed.
    pub flush_interval: Duration,
}

impl Default for ServerSettings {
    /// The built-in defaults (equal to `policies/default.toml`).
    fn default() -> Self {
        ServerSettings {
            listen: std::net::SocketAddr::from(([127, 0, 0, 1], 4318)),
            max_body_bytes: 8 * 1024 * 1024,
            queue_records: 10_000,
            queue_bytes: 64 * 1024 * 1024,
            flush_interval: Duration::from_secs(1),
        }
    }
}

/// `[audit]`.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditSettings {
    /// The log, resolved against the policy file.
    pub path: PathBuf,
    /// HMAC key file for the chain.
    pub key_file: Option<PathBuf>,
    /// Longest wait for the log's lock.
    pub lock_timeout: Duration,
}

/// `[redact]`, uncompiled.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RedactSettings {
    /// Built-in detectors.
    pub builtin: Vec<String>,
    /// Key for `hash` and pseudonyms.
    pub key_file: Option<PathBuf>,
    /// Sinks allowed to weaken redaction.
    pub allow_unredacted_sinks: Vec<String>,
    /// Id prefixes a pseudonym keeps; any other prefix is rewritten too.
    pub pseudonym_prefixes: Vec<String>,
    /// User patterns.
    pub patterns: Vec<PatternSetting>,
    /// Keyword lists.
    pub keywords: Vec<KeywordSetting>,
}

/// `[[redact.pattern]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PatternSetting {
    /// Name.
    pub name: String,
    /// Regex.
    pub regex: String,
    /// Action.
    pub action: String,
}

/// `[[redact.keywords]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordSetting {
    /// Name.
    pub name: String,
    /// Inline words.
    pub words: Vec<String>,
    /// A words file, resolved against the policy file.
    pub file: Option<PathBuf>,
    /// Ignore ASCII case.
    pub case_insensitive: bool,
    /// Whole words only.
    pub whole_word: bool,
    /// Action.
    pub action: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(src: &str) -> Vec<String> {
        match Policy::from_toml(Path::new("p.toml"), src) {
            Ok(_) => vec![],
            Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn empty_policy_equals_the_shipped_default_file() {
        let empty = Policy::from_toml(Path::new("empty.toml"), "").unwrap();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml");
        let shipped = Policy::load(&path).unwrap();
        assert_eq!(empty.limits, shipped.limits);
        assert_eq!(empty.full, shipped.full);
        assert_eq!(empty.standard, shipped.standard);
        assert_eq!(empty.sinks, shipped.sinks);
        assert_eq!(empty.windows, shipped.windows);
        assert_eq!(empty.audit, shipped.audit);
        assert_eq!(empty.redact, shipped.redact);
        assert_eq!(empty.server, shipped.server);
        assert_eq!(empty.server, ServerSettings::default());
        assert_eq!(empty.sources, shipped.sources);
        assert_eq!(empty.standard.fields.len(), 10);
    }

    #[test]
    fn all_errors_are_reported_at_once() {
        let errs = errors(
            "[[sink]]\nname = \"a\"\nfull_alowed = true\n[[sink]]\nname = \"b\"\noutptu = \"stdout\"\n",
        );
        assert_eq!(errs.len(), 2, "{errs:#?}");
        assert!(errs[0].starts_with("p.toml:3:1: unknown key `full_alowed` in [[sink]]"));
        assert!(errs[0].contains("did you mean `full_allowed`?"));
        assert!(errs[1].starts_with("p.toml:6:1: unknown key `outptu`"));
    }

    #[test]
    fn semantic_errors_are_all_reported() {
        let errs = errors(
            r#"
[audit]
path = "audit.jsonl"
[standard]
on_violation = "drop_recrod"
[standard.fields]
a = { type = "strng" }
b = { type = "string", pattern = "(" }
[[sink]]
name = "cap"
full_allowed = true
[[sink]]
name = "plain"
[[window]]
id = "w1"
sink = "plain"
start = "2026-12-01T10:00:00Z"
end = "2026-12-01T11:00:00Z"
reason = "r"
requested_by = "me"
[[window]]
id = "w2"
sink = "cap"
start = "2026-12-01T10:00:00Z"
reason = "r"
requested_by = "me"
"#,
        );
        let joined = errs.join("\n");
        for want in [
            "unknown `on_violation` value `drop_recrod`",
            "did you mean `drop_record`?",
            "unknown type `strng`",
            "pattern does not compile",
            "sink `plain` is not full_allowed",
            "[[window]] has no `end`",
        ] {
            assert!(joined.contains(want), "missing {want:?} in\n{joined}");
        }
    }

    #[test]
    fn windows_are_validated() {
        let base = "[audit]\npath = \"a.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n";
        let w = |body: &str| {
            errors(&format!(
                "{base}[[window]]\nid = \"w\"\nsink = \"cap\"\nreason = \"r\"\nrequested_by = \"me\"\n{body}"
            ))
        };
        assert!(w("start = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\n").is_empty());
        assert!(w("start = 2026-12-01T10:00:00Z\nend = 2026-12-01T11:00:00Z\n").is_empty());
        assert!(
            w("start = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T09:00:00Z\"\n")[0]
                .contains("ends before it starts")
        );
        assert!(
            w("start = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-03T10:00:00Z\"\n")[0]
                .contains("longer than `max_window`")
        );
        assert!(
            w("start = \"yesterday\"\nend = \"2026-12-03T10:00:00Z\"\n")[0].contains("RFC 3339")
        );
        let no_audit = errors("[[sink]]\nname = \"cap\"\nfull_allowed = true\n");
        assert!(no_audit[0].contains("no [audit] path"));
    }

    #[test]
    fn overlapping_windows_and_duplicate_ids_are_refused() {
        let errs = errors(
            r#"
[audit]
path = "a.jsonl"
[[sink]]
name = "cap"
full_allowed = true
[[window]]
id = "w1"
sink = "cap"
start = "2026-12-01T10:00:00Z"
end = "2026-12-01T12:00:00Z"
reason = "r"
requested_by = "me"
[[window]]
id = "w2"
sink = "cap"
start = "2026-12-01T11:00:00Z"
end = "2026-12-01T13:00:00Z"
reason = "r"
requested_by = "me"
[[window]]
id = "w1"
sink = "cap"
start = "2026-12-02T11:00:00Z"
end = "2026-12-02T13:00:00Z"
reason = "r"
requested_by = "me"
"#,
        );
        let joined = errs.join("\n");
        assert!(joined.contains("overlaps window `w1`"), "{joined}");
        assert!(joined.contains("window id `w1` is used twice"), "{joined}");
    }

    #[test]
    fn a_key_set_in_two_files_is_an_error_naming_both() {
        let files = vec![
            load::PolicyFile {
                path: "a.toml".into(),
                text: "[limits]\nmax_line_bytes = 10\n".into(),
            },
            load::PolicyFile {
                path: "b.toml".into(),
                text: "[limits]\nmax_line_bytes = 20\n".into(),
            },
        ];
        let errs = compile::compile(Path::new("dir"), &files).unwrap_err();
        assert_eq!(errs.0.len(), 1);
        let e = errs.0[0].to_string();
        assert!(
            e.starts_with("b.toml:2:18: key `limits.max_line_bytes` is defined twice"),
            "{e}"
        );
        assert!(e.contains("also set in a.toml"), "{e}");
    }

    #[test]
    fn syntax_and_type_errors_name_line_and_column() {
        let errs = errors("[limits]\nmax_line_bytes = \"big\"\n");
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].starts_with("p.toml:2:18:"), "{errs:?}");
        let errs = errors("[limits\n");
        assert!(errs[0].starts_with("p.toml:1:"), "{errs:?}");
        assert!(errs[0].contains("invalid TOML"), "{errs:?}");
    }

    #[test]
    fn patterns_are_anchored() {
        let p = Policy::from_toml(
            Path::new("p.toml"),
            "[standard.fields]\nid = { type = \"string\", pattern = \"abc\" }\n",
        )
        .unwrap();
        let (_, rule) = p.standard.fields.lookup("id").unwrap();
        let re = rule.pattern.as_ref().unwrap();
        assert!(re.is_match("abc"));
        assert!(!re.is_match("xx abc yy"));
    }

    #[test]
    fn policy_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Policy>();
    }
}
