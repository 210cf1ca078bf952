//! The structural skeleton of OTLP/JSON: which keys each message may hold
//! and how each one is checked, as static data.
//!
//! Every key not listed here is an `unknown_field` (stripped). The rules
//! for text-carrying structural fields are deliberately narrow, because
//! free text is where content hides:
//!
//! | field | accepted |
//! |---|---|
//! | `traceId` | 32 hex digits, or empty |
//! | `spanId`, `parentSpanId` | 16 hex digits, or empty |
//! | `*UnixNano` | a JSON string of 1 to 20 digits, or a JSON integer, fitting in u64 |
//! | `droppedAttributesCount`, `droppedEventsCount`, `droppedLinksCount` | a u32 as JSON integer or string of digits |
//! | span and link `flags` | a u32; bits other than those OTLP defines are cleared (see [`SPAN_FLAGS`]) |
//! | log record `flags` | a u32; bits other than the W3C trace flags are cleared (see [`LOG_FLAGS`]) |
//! | `kind` | 0..=5 or `SPAN_KIND_*` |
//! | `status.code` | 0..=2 or `STATUS_CODE_*` |
//! | `severityNumber` | 0..=24 or `SEVERITY_NUMBER_*` |
//! | `status.message` | empty only |
//! | `traceState` | W3C `key=value` list (at most 32 members, 512 bytes) whose values hold no spaces; members whose key is not in `[standard.otlp.trace_state]` are stripped, the others held to its value rule |
//! | `scope.name`, `scope.version` | `[standard.otlp] scope_name`, `scope_version` |
//! | `events[].name`, `eventName` | `[standard.otlp] event_name` |
//! | `severityText` | empty, or a level word (`TRACE`, `DEBUG`, `INFO`, `INFORMATION`, `NOTICE`, `WARN`, `WARNING`, `ERROR`, `CRITICAL`, `ALERT`, `FATAL`, `EMERGENCY`, any case) with an optional digit 2-4 |
//! | `schemaUrl` | `[standard.otlp] schema_url` |
//! | span `name` | one of `[standard.otlp] span_names` |
//! | `resourceSpans`, `scopeSpans`, `spans`, `events`, `links`, `resourceLogs`, `scopeLogs`, `logRecords`, attribute lists | at most `[standard.otlp] max_*` elements |
//!
//! The policy rules are string rules like any allowlisted attribute's:
//! ASCII-only patterns, `one_of`, `max_len`, and the built-in detectors;
//! an empty string (the protobuf default) always passes.
//!
//! Enum names are accepted besides numbers because the protobuf JSON
//! mapping allows them; they are a closed vocabulary and carry no text.
//! Identifier-shaped strings (`canary.token`) do satisfy the identifier
//! patterns: a pattern bounds the *shape* of a value, not its meaning, so
//! scope names and event names remain a narrow channel for short tokens.

use crate::record::otlp_enums::{SEVERITIES, SPAN_KINDS, STATUS_CODES};

/// Which attribute allowlist applies to an attribute list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// `resource.attributes`.
    Resource,
    /// `scope.attributes`.
    Scope,
    /// A span's `attributes`.
    Span,
    /// A span event's `attributes`.
    Event,
    /// A span link's `attributes`.
    Link,
    /// A log record's `attributes`.
    Log,
}

/// A constrained text field with a fixed rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// Must be empty (status message).
    Empty,
    /// A log severity word.
    Severity,
}

/// A structural string held to a `[standard.otlp]` rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Structural {
    /// `schemaUrl`.
    SchemaUrl,
    /// A scope's `name`.
    ScopeName,
    /// A scope's `version`.
    ScopeVersion,
    /// Span event names and log `eventName`.
    EventName,
}

/// A repeated structure, for its `[standard.otlp] max_*` limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeated {
    /// `resourceSpans` / `resourceLogs`.
    Resources,
    /// `scopeSpans` / `scopeLogs`.
    Scopes,
    /// `spans`.
    Spans,
    /// `events`.
    Events,
    /// `links`.
    Links,
    /// `logRecords`.
    LogRecords,
}

/// The bits of `Span.flags` and `Span.Link.flags` that OTLP defines.
///
/// `opentelemetry/proto/trace/v1/trace.proto`, `enum SpanFlags`: bits 0-7
/// are the W3C trace flags (`SPAN_FLAGS_TRACE_FLAGS_MASK = 0x000000FF`),
/// bit 8 says whether the parent or link is known to be remote or not
/// (`SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK = 0x00000100`) and bit 9 that
/// it is remote (`SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK = 0x00000200`); the
/// rest is reserved. Of the trace-flags byte, W3C Trace Context Level 2
/// (<https://www.w3.org/TR/trace-context-2/#trace-flags>) defines only
/// `sampled` (0x01) and `random` (0x02): "Vendors MUST set those to zero"
/// for the others. So 0x303.
pub const SPAN_FLAGS: u32 = 0x0000_0303;

/// The bits of `LogRecord.flags` that OTLP defines.
///
/// `opentelemetry/proto/logs/v1/logs.proto`, `enum LogRecordFlags`: bits
/// 0-7 are the W3C trace flags (`LOG_RECORD_FLAGS_TRACE_FLAGS_MASK =
/// 0x000000FF`), bits 8-31 are reserved; of the trace flags, W3C defines
/// 0x01 and 0x02 (see [`SPAN_FLAGS`]). So 0x03.
pub const LOG_FLAGS: u32 = 0x0000_0003;

/// How one structural member is checked.
#[derive(Debug, Clone, Copy)]
pub enum Field {
    /// Hex id of this many digits (or empty).
    Hex(usize),
    /// A `fixed64` nanosecond timestamp.
    Nanos,
    /// A `uint32` / `fixed32` count.
    Uint32,
    /// A `fixed32` bit field: bits outside the mask are cleared.
    Flags(u32),
    /// An enum: an integer index into the names, or one of the names.
    Enum(&'static [&'static str]),
    /// A string with a fixed rule.
    Text(Text),
    /// A string held to a `[standard.otlp]` rule.
    Rule(Structural),
    /// A W3C trace state, members held to `[standard.otlp.trace_state]`.
    TraceState,
    /// A span name, held to `span_names`.
    SpanName,
    /// An attribute list under an allowlist.
    Attributes(Place),
    /// A log body: content.
    Body,
    /// A nested message.
    Object(&'static Schema),
    /// A repeated nested message, with its count limit.
    Array(&'static Schema, Repeated),
}

/// The keys of one OTLP message.
#[derive(Debug)]
pub struct Schema {
    /// `(key, rule)` pairs; looked up linearly (a dozen at most).
    pub fields: &'static [(&'static str, Field)],
}

impl Schema {
    /// The rule of `key`.
    pub fn lookup(&self, key: &str) -> Option<Field> {
        self.fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, field)| field)
    }
}

/// `ExportTraceServiceRequest` / `ExportLogsServiceRequest` (one schema:
/// a line may hold either array).
pub static REQUEST: Schema = Schema {
    fields: &[
        (
            "resourceSpans",
            Field::Array(&RESOURCE_SPANS, Repeated::Resources),
        ),
        (
            "resourceLogs",
            Field::Array(&RESOURCE_LOGS, Repeated::Resources),
        ),
    ],
};

static RESOURCE: Schema = Schema {
    fields: &[
        ("attributes", Field::Attributes(Place::Resource)),
        ("droppedAttributesCount", Field::Uint32),
    ],
};

static SCOPE: Schema = Schema {
    fields: &[
        ("name", Field::Rule(Structural::ScopeName)),
        ("version", Field::Rule(Structural::ScopeVersion)),
        ("attributes", Field::Attributes(Place::Scope)),
        ("droppedAttributesCount", Field::Uint32),
    ],
};

static RESOURCE_SPANS: Schema = Schema {
    fields: &[
        ("resource", Field::Object(&RESOURCE)),
        ("scopeSpans", Field::Array(&SCOPE_SPANS, Repeated::Scopes)),
        ("schemaUrl", Field::Rule(Structural::SchemaUrl)),
    ],
};

static SCOPE_SPANS: Schema = Schema {
    fields: &[
        ("scope", Field::Object(&SCOPE)),
        ("spans", Field::Array(&SPAN, Repeated::Spans)),
        ("schemaUrl", Field::Rule(Structural::SchemaUrl)),
    ],
};

/// A `Span`; also a bare span object.
pub static SPAN: Schema = Schema {
    fields: &[
        ("traceId", Field::Hex(32)),
        ("spanId", Field::Hex(16)),
        ("parentSpanId", Field::Hex(16)),
        ("traceState", Field::TraceState),
        ("flags", Field::Flags(SPAN_FLAGS)),
        ("name", Field::SpanName),
        ("kind", Field::Enum(SPAN_KINDS)),
        ("startTimeUnixNano", Field::Nanos),
        ("endTimeUnixNano", Field::Nanos),
        ("attributes", Field::Attributes(Place::Span)),
        ("droppedAttributesCount", Field::Uint32),
        ("events", Field::Array(&EVENT, Repeated::Events)),
        ("droppedEventsCount", Field::Uint32),
        ("links", Field::Array(&LINK, Repeated::Links)),
        ("droppedLinksCount", Field::Uint32),
        ("status", Field::Object(&STATUS)),
    ],
};

static EVENT: Schema = Schema {
    fields: &[
        ("timeUnixNano", Field::Nanos),
        ("name", Field::Rule(Structural::EventName)),
        ("attributes", Field::Attributes(Place::Event)),
        ("droppedAttributesCount", Field::Uint32),
    ],
};

static LINK: Schema = Schema {
    fields: &[
        ("traceId", Field::Hex(32)),
        ("spanId", Field::Hex(16)),
        ("traceState", Field::TraceState),
        ("attributes", Field::Attributes(Place::Link)),
        ("droppedAttributesCount", Field::Uint32),
        ("flags", Field::Flags(SPAN_FLAGS)),
    ],
};

static STATUS: Schema = Schema {
    fields: &[
        ("code", Field::Enum(STATUS_CODES)),
        ("message", Field::Text(Text::Empty)),
    ],
};

static RESOURCE_LOGS: Schema = Schema {
    fields: &[
        ("resource", Field::Object(&RESOURCE)),
        ("scopeLogs", Field::Array(&SCOPE_LOGS, Repeated::Scopes)),
        ("schemaUrl", Field::Rule(Structural::SchemaUrl)),
    ],
};

static SCOPE_LOGS: Schema = Schema {
    fields: &[
        ("scope", Field::Object(&SCOPE)),
        (
            "logRecords",
            Field::Array(&LOG_RECORD, Repeated::LogRecords),
        ),
        ("schemaUrl", Field::Rule(Structural::SchemaUrl)),
    ],
};

static LOG_RECORD: Schema = Schema {
    fields: &[
        ("timeUnixNano", Field::Nanos),
        ("observedTimeUnixNano", Field::Nanos),
        ("severityNumber", Field::Enum(SEVERITIES)),
        ("severityText", Field::Text(Text::Severity)),
        ("body", Field::Body),
        ("attributes", Field::Attributes(Place::Log)),
        ("droppedAttributesCount", Field::Uint32),
        ("flags", Field::Flags(LOG_FLAGS)),
        ("traceId", Field::Hex(32)),
        ("spanId", Field::Hex(16)),
        ("eventName", Field::Rule(Structural::EventName)),
    ],
};

/// Whether an object of `schema` is one unit of a capture budget: a span,
/// a log record, or a resource or scope (which count as a unit of their
/// own when they carry content).
pub fn is_unit(schema: &Schema) -> bool {
    [&SPAN, &LOG_RECORD, &RESOURCE, &SCOPE]
        .iter()
        .any(|u| std::ptr::eq(*u, schema))
}

/// Whether an object of `schema` is one item of an export request that a
/// violation drops on its own: a span or a log record.
pub fn is_item(schema: &Schema) -> bool {
    std::ptr::eq(schema, &SPAN) || std::ptr::eq(schema, &LOG_RECORD)
}

/// Whether `s` satisfies the text rule `t`.
pub fn text_ok(t: Text, s: &str) -> bool {
    match t {
        Text::Empty => s.is_empty(),
        Text::Severity => severity_ok(s),
    }
}

/// The finding message for a text rule, free of the value.
pub fn text_rule_message(t: Text) -> &'static str {
    match t {
        Text::Empty => "status message must be empty: free text can carry content",
        Text::Severity => "severity text must be empty or a severity level word",
    }
}

/// The stable rule name a failed text check reports.
pub fn text_rule_name(t: Text) -> crate::finding::Rule {
    use crate::finding::Rule;
    match t {
        Text::Empty => Rule::MaxLen,
        Text::Severity => Rule::OneOf,
    }
}

fn severity_ok(s: &str) -> bool {
    const WORDS: &[&str] = &[
        "TRACE",
        "DEBUG",
        "INFO",
        "INFORMATION",
        "NOTICE",
        "WARN",
        "WARNING",
        "ERROR",
        "CRITICAL",
        "ALERT",
        "FATAL",
        "EMERGENCY",
    ];
    if s.is_empty() {
        return true;
    }
    let word = match s.as_bytes().last() {
        Some(b'2'..=b'4') => &s[..s.len() - 1],
        _ => s,
    };
    WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// The members of a trace state that [`trace_state_ok`] accepted, as
/// `(key, value)`, empty members skipped.
pub fn trace_state_members(s: &str) -> impl Iterator<Item = (&str, &str)> {
    s.split(',')
        .map(|m| m.trim_matches([' ', '\t']))
        .filter(|m| !m.is_empty())
        .filter_map(|m| m.split_once('='))
}

/// W3C trace-context `tracestate`, narrowed: values hold no spaces.
///
/// SECURITY: the W3C grammar lets a value hold spaces, which is room for a
/// sentence; a vendor value is an opaque token and never needs one.
pub fn trace_state_ok(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if s.len() > 512 {
        return false;
    }
    let mut members = 0;
    for member in s.split(',') {
        let member = member.trim_matches([' ', '\t']);
        if member.is_empty() {
            // W3C allows empty list members (`a=1,,b=2`).
            continue;
        }
        members += 1;
        if members > 32 {
            return false;
        }
        let Some((key, value)) = member.split_once('=') else {
            return false;
        };
        if !trace_state_key_ok(key) || !trace_state_value_ok(value) {
            return false;
        }
    }
    true
}

fn trace_state_key_ok(key: &str) -> bool {
    let simple = |k: &str, max: usize, first_digit: bool| {
        let b = k.as_bytes();
        !b.is_empty()
            && b.len() <= max
            && (b[0].is_ascii_lowercase() || (first_digit && b[0].is_ascii_digit()))
            && b.iter()
                .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"_-*/".contains(&c))
    };
    match key.split_once('@') {
        Some((tenant, system)) => simple(tenant, 241, true) && simple(system, 14, false),
        None => simple(key, 256, false),
    }
}

fn trace_state_value_ok(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= 256
        && value
            .bytes()
            .all(|c| (0x21..=0x7e).contains(&c) && c != b',' && c != b'=')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_state_follows_w3c_without_spaces_in_values() {
        assert!(trace_state_ok(""));
        assert!(trace_state_ok("rojo=00f067aa0ba902b7"));
        assert!(trace_state_ok("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"));
        assert!(trace_state_ok("tenant1@vendor=v1, b=2"));
        assert!(!trace_state_ok("rojo=a secret sentence"));
        assert!(!trace_state_ok("Rojo=1"));
        assert!(!trace_state_ok("novalue"));
        assert!(!trace_state_ok("a=b=c"));
        let many = (0..33).map(|i| format!("k{i}=v")).collect::<Vec<_>>();
        assert!(!trace_state_ok(&many.join(",")));
        let members: Vec<_> = trace_state_members("a=1,, b=2 ").collect();
        assert_eq!(members, vec![("a", "1"), ("b", "2")]);
    }

    #[test]
    fn severity_and_status_message_are_closed() {
        for ok in ["", "INFO", "info", "Warning", "ERROR3", "fatal4"] {
            assert!(text_ok(Text::Severity, ok), "{ok}");
        }
        for bad in ["INFO5", "my text", "CANARY", "INFO 2"] {
            assert!(!text_ok(Text::Severity, bad), "{bad}");
        }
        assert!(!text_ok(Text::Empty, "x"));
    }

    #[test]
    fn lookups_find_declared_keys_only() {
        assert!(matches!(SPAN.lookup("traceId"), Some(Field::Hex(32))));
        assert!(SPAN.lookup("traceid").is_none());
        assert!(REQUEST.lookup("resourceSpans").is_some());
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod capacity_mirror {
    use super::*;
    use crate::policy::capacity::otlp;

    fn name_of(s: &Schema) -> &'static str {
        let all: [(&Schema, &str); 12] = [
            (&REQUEST, "REQUEST"),
            (&RESOURCE, "RESOURCE"),
            (&SCOPE, "SCOPE"),
            (&RESOURCE_SPANS, "RESOURCE_SPANS"),
            (&SCOPE_SPANS, "SCOPE_SPANS"),
            (&SPAN, "SPAN"),
            (&EVENT, "EVENT"),
            (&LINK, "LINK"),
            (&STATUS, "STATUS"),
            (&RESOURCE_LOGS, "RESOURCE_LOGS"),
            (&SCOPE_LOGS, "SCOPE_LOGS"),
            (&LOG_RECORD, "LOG_RECORD"),
        ];
        all.iter().find(|(x, _)| std::ptr::eq(*x, s)).unwrap().1
    }

    fn tag(f: &Field) -> String {
        match f {
            Field::Hex(n) => format!("hex{n}"),
            Field::Nanos => "nanos".into(),
            Field::Uint32 => "uint32".into(),
            Field::Flags(m) => format!("flags{m:#x}"),
            Field::Enum(names) => format!("enum{}", names.len()),
            Field::Text(Text::Empty) => "empty".into(),
            Field::Text(Text::Severity) => "severity".into(),
            Field::Rule(r) => format!("rule:{r:?}"),
            Field::TraceState => "trace_state".into(),
            Field::SpanName => "span_name".into(),
            Field::Attributes(p) => format!("attributes:{p:?}"),
            Field::Body => "body".into(),
            Field::Object(s) => format!("object:{}", name_of(s)),
            Field::Array(s, _) => format!("array:{}", name_of(s)),
        }
    }

    /// The capacity walk restates the gate's schema (the policy sits
    /// below the gate): every message, key and kind the gate passes is
    /// counted there, and nothing else.
    #[test]
    fn capacity_mirror_matches_the_schema() {
        let schemas = [
            &REQUEST,
            &RESOURCE,
            &SCOPE,
            &RESOURCE_SPANS,
            &SCOPE_SPANS,
            &SPAN,
            &EVENT,
            &LINK,
            &STATUS,
            &RESOURCE_LOGS,
            &SCOPE_LOGS,
            &LOG_RECORD,
        ];
        let mirrored = otlp::messages();
        for s in schemas {
            let name = name_of(s);
            let ms: Vec<_> = mirrored.iter().filter(|m| m.schema == name).collect();
            assert!(!ms.is_empty(), "{name} is not mirrored");
            for m in ms {
                assert_eq!(m.fields.len(), s.fields.len(), "{name}");
                for ((k, f), (mk, ms)) in s.fields.iter().zip(m.fields) {
                    assert_eq!(k, mk, "{name}");
                    let (want, got) = (tag(f), ms.tag());
                    let other_signal = got == "array:other" && want.starts_with("array:");
                    assert!(want == got || other_signal, "{name}.{k}: {want} vs {got}");
                }
            }
        }
        for w in otlp::SEVERITY_WORDS {
            assert!(severity_ok(w) && severity_ok(&format!("{}3", w.to_lowercase())));
        }
        assert!(!severity_ok("VERBOSE"));
    }
}
