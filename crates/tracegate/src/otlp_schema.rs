//! The OTLP messages tracegate reads and writes, described once.
//!
//! Each [`Message`] lists its fields in the order the OTLP/JSON mapping
//! writes them (the order of prost's struct fields), each with its JSON
//! key, its protobuf field number and its [`FieldKind`]: what it holds, and for
//! the messages the gate judges, the rule it is held to. Everything in the
//! crate that knows OTLP's structure reads this table:
//!
//! - the gate's judges (`gate::otlp`: the full path, the one-pass path
//!   and the shape check) look keys up and check values by their kind;
//! - the capacity bound (`policy::capacity`) counts each field's freedom;
//! - the JSON to protobuf encoder writes fields in [`Message::by_number`]
//!   order, and the protobuf to JSON walk reads fields by number and writes
//!   them in table order (`record::otlp_proto`);
//! - the bounds counter finds each nested message by number.
//!
//! So a field is spelled in one place; property tests hold both codecs to
//! prost's bytes, which is what keeps the numbers and the order honest.
//!
//! It names nothing else of the crate (a leaf).

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
    /// A log severity word ([`SEVERITY_WORDS`]).
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

/// One case of `AnyValue`'s oneof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `stringValue`.
    String,
    /// `boolValue`.
    Bool,
    /// `intValue` (`int64`).
    Int,
    /// `doubleValue`.
    Double,
    /// `bytesValue` (base64 in JSON).
    Bytes,
}

/// What a field holds (its protobuf type and JSON form) and, in the
/// messages the gate judges, how it is checked.
#[derive(Debug, Clone, Copy)]
pub enum FieldKind {
    /// `bytes` written as this many hex digits in JSON (trace and span
    /// ids), or empty.
    Hex(usize),
    /// A `fixed64` nanosecond timestamp (a decimal string in JSON).
    Nanos,
    /// A `uint32` count.
    Uint32,
    /// A `fixed32` bit field; the gate clears bits outside the mask.
    Flags(u32),
    /// An enum (`int32`): a number or one of the names, by number.
    Enum(&'static [&'static str]),
    /// A string with a fixed rule.
    Text(Text),
    /// A string held to a `[standard.otlp]` rule.
    Rule(Structural),
    /// A W3C trace state, members held to `[standard.otlp.trace_state]`.
    TraceState,
    /// A span name, held to `span_names`.
    SpanName,
    /// An attribute list (repeated `KeyValue`) under an allowlist.
    Attributes(Place),
    /// A log body: an `AnyValue` that is content.
    Body,
    /// An optional nested message.
    Object(&'static Message),
    /// A repeated message, with its count limit.
    Array(&'static Message, Repeated),
    /// `KeyValue.key`: written even when empty.
    Key,
    /// `KeyValue.value`: an `AnyValue`.
    Value,
    /// `ArrayValue.values`: repeated `AnyValue`.
    Values,
    /// `KeyValueList.values`: repeated `KeyValue`.
    Pairs,
    /// One scalar case of `AnyValue`.
    Case(Case),
}

impl FieldKind {
    /// The message a field of this kind holds (one or many), if any:
    /// attribute lists hold `KeyValue`s, values `AnyValue`s.
    pub fn message(self) -> Option<&'static Message> {
        Some(match self {
            FieldKind::Object(m) | FieldKind::Array(m, _) => m,
            FieldKind::Attributes(_) | FieldKind::Pairs => &KEY_VALUE,
            FieldKind::Body | FieldKind::Value | FieldKind::Values => &ANY_VALUE,
            _ => return None,
        })
    }
}

/// Which OTLP message a [`Message`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    /// A JSON export request of either signal (the gate's view: a line may
    /// hold either array). Not a protobuf message.
    Request,
    /// `ExportTraceServiceRequest`.
    TracesRequest,
    /// `ExportLogsServiceRequest`.
    LogsRequest,
    /// `ResourceSpans`.
    ResourceSpans,
    /// `ResourceLogs`.
    ResourceLogs,
    /// `ScopeSpans`.
    ScopeSpans,
    /// `ScopeLogs`.
    ScopeLogs,
    /// `Resource`.
    Resource,
    /// `InstrumentationScope`.
    Scope,
    /// `Span`.
    Span,
    /// `Span.Event`.
    Event,
    /// `Span.Link`.
    Link,
    /// `Status`.
    Status,
    /// `LogRecord`.
    LogRecord,
    /// `KeyValue`.
    KeyValue,
    /// `AnyValue`.
    AnyValue,
    /// `ArrayValue`.
    ArrayValue,
    /// `KeyValueList`.
    KvList,
}

/// One field of a message.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// Its OTLP/JSON key.
    pub key: &'static str,
    /// Its protobuf field number.
    pub number: u32,
    /// What it holds.
    pub kind: FieldKind,
}

/// The highest field number of any message (`Span.flags`), and so the
/// most fields a message has.
pub const MAX_NUMBER: usize = 16;

/// One message: its fields in the JSON mapping's order.
#[derive(Debug)]
pub struct Message {
    /// Which message.
    pub name: Name,
    /// Its fields, in the order OTLP/JSON writes them.
    pub fields: &'static [Field],
    /// Indexes into `fields` in ascending field number: the order prost
    /// writes them on the wire. Only the first `fields.len()` count.
    by_number: [u8; MAX_NUMBER],
    /// For each field number, 1 + its index in `fields` (0: none).
    at_number: [u8; MAX_NUMBER + 1],
    /// Whether a field is an attribute list (a resource, a scope, a span,
    /// an event, a link, a log record).
    attributes: bool,
}

impl Message {
    /// The field whose JSON key is `key`.
    #[inline]
    pub fn field(&self, key: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.key == key)
    }

    /// The field numbered `number`, with its index in [`Message::fields`].
    #[inline]
    pub fn numbered(&self, number: u32) -> Option<(usize, &'static Field)> {
        let slot = *self.at_number.get(usize::try_from(number).ok()?)?;
        let i = usize::from(slot.checked_sub(1)?);
        Some((i, self.fields.get(i)?))
    }

    /// The fields in ascending field number.
    pub fn by_number(&self) -> impl Iterator<Item = (usize, &'static Field)> + '_ {
        let fields = self.fields;
        self.by_number[..fields.len()]
            .iter()
            .map(move |&i| (usize::from(i), &fields[usize::from(i)]))
    }

    /// The message the field numbered `number` holds, if it holds one.
    pub fn child(&self, number: u32) -> Option<&'static Message> {
        self.numbered(number)?.1.kind.message()
    }

    /// Whether the message holds an attribute list.
    pub fn holds_attributes(&self) -> bool {
        self.attributes
    }

    /// Whether an object of this message is one unit of a capture budget:
    /// a span, a log record, or a resource or scope (which count as a unit
    /// of their own when they carry content).
    pub fn is_unit(&self) -> bool {
        matches!(
            self.name,
            Name::Span | Name::LogRecord | Name::Resource | Name::Scope
        )
    }

    /// Whether an object of this message is one item of an export request
    /// that a violation drops on its own: a span or a log record.
    pub fn is_item(&self) -> bool {
        matches!(self.name, Name::Span | Name::LogRecord)
    }
}

/// A message from its fields: the number indexes are computed here, at
/// compile time, and a field number past [`MAX_NUMBER`] or used twice
/// fails the build.
const fn message(name: Name, fields: &'static [Field]) -> Message {
    assert!(fields.len() <= MAX_NUMBER);
    let mut by_number = [0u8; MAX_NUMBER];
    let mut at_number = [0u8; MAX_NUMBER + 1];
    let mut attributes = false;
    let mut i = 0;
    while i < fields.len() {
        attributes |= matches!(fields[i].kind, FieldKind::Attributes(_));
        let n = fields[i].number as usize;
        assert!(n >= 1 && n <= MAX_NUMBER && at_number[n] == 0);
        at_number[n] = i as u8 + 1;
        i += 1;
    }
    let (mut n, mut k) = (1, 0);
    while n <= MAX_NUMBER {
        if at_number[n] != 0 {
            by_number[k] = at_number[n] - 1;
            k += 1;
        }
        n += 1;
    }
    Message {
        name,
        fields,
        by_number,
        at_number,
        attributes,
    }
}

const fn f(key: &'static str, number: u32, kind: FieldKind) -> Field {
    Field { key, number, kind }
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

/// `SpanKind` names, by number.
pub const SPAN_KINDS: &[&str] = &[
    "SPAN_KIND_UNSPECIFIED",
    "SPAN_KIND_INTERNAL",
    "SPAN_KIND_SERVER",
    "SPAN_KIND_CLIENT",
    "SPAN_KIND_PRODUCER",
    "SPAN_KIND_CONSUMER",
];

/// `StatusCode` names, by number.
pub const STATUS_CODES: &[&str] = &["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

/// `SeverityNumber` names, by number.
pub const SEVERITIES: &[&str] = &[
    "SEVERITY_NUMBER_UNSPECIFIED",
    "SEVERITY_NUMBER_TRACE",
    "SEVERITY_NUMBER_TRACE2",
    "SEVERITY_NUMBER_TRACE3",
    "SEVERITY_NUMBER_TRACE4",
    "SEVERITY_NUMBER_DEBUG",
    "SEVERITY_NUMBER_DEBUG2",
    "SEVERITY_NUMBER_DEBUG3",
    "SEVERITY_NUMBER_DEBUG4",
    "SEVERITY_NUMBER_INFO",
    "SEVERITY_NUMBER_INFO2",
    "SEVERITY_NUMBER_INFO3",
    "SEVERITY_NUMBER_INFO4",
    "SEVERITY_NUMBER_WARN",
    "SEVERITY_NUMBER_WARN2",
    "SEVERITY_NUMBER_WARN3",
    "SEVERITY_NUMBER_WARN4",
    "SEVERITY_NUMBER_ERROR",
    "SEVERITY_NUMBER_ERROR2",
    "SEVERITY_NUMBER_ERROR3",
    "SEVERITY_NUMBER_ERROR4",
    "SEVERITY_NUMBER_FATAL",
    "SEVERITY_NUMBER_FATAL2",
    "SEVERITY_NUMBER_FATAL3",
    "SEVERITY_NUMBER_FATAL4",
];

/// The level words a standard `severityText` may hold (any case, with an
/// optional digit 2 to 4).
pub const SEVERITY_WORDS: &[&str] = &[
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

/// A JSON export request of either signal: the gate's top level. Not a
/// protobuf message (each signal's request numbers its one field 1); the
/// numbers here only keep the table's indexes apart, and no codec reads
/// them.
pub static REQUEST: Message = message(
    Name::Request,
    &[
        f(
            "resourceSpans",
            1,
            FieldKind::Array(&RESOURCE_SPANS, Repeated::Resources),
        ),
        f(
            "resourceLogs",
            2,
            FieldKind::Array(&RESOURCE_LOGS, Repeated::Resources),
        ),
    ],
);

/// `ExportTraceServiceRequest`.
pub static TRACES: Message = message(
    Name::TracesRequest,
    &[f(
        "resourceSpans",
        1,
        FieldKind::Array(&RESOURCE_SPANS, Repeated::Resources),
    )],
);

/// `ExportLogsServiceRequest`.
pub static LOGS: Message = message(
    Name::LogsRequest,
    &[f(
        "resourceLogs",
        1,
        FieldKind::Array(&RESOURCE_LOGS, Repeated::Resources),
    )],
);

/// `Resource`.
pub static RESOURCE: Message = message(
    Name::Resource,
    &[
        f("attributes", 1, FieldKind::Attributes(Place::Resource)),
        f("droppedAttributesCount", 2, FieldKind::Uint32),
    ],
);

/// `InstrumentationScope`.
pub static SCOPE: Message = message(
    Name::Scope,
    &[
        f("name", 1, FieldKind::Rule(Structural::ScopeName)),
        f("version", 2, FieldKind::Rule(Structural::ScopeVersion)),
        f("attributes", 3, FieldKind::Attributes(Place::Scope)),
        f("droppedAttributesCount", 4, FieldKind::Uint32),
    ],
);

/// `ResourceSpans`.
pub static RESOURCE_SPANS: Message = message(
    Name::ResourceSpans,
    &[
        f("resource", 1, FieldKind::Object(&RESOURCE)),
        f(
            "scopeSpans",
            2,
            FieldKind::Array(&SCOPE_SPANS, Repeated::Scopes),
        ),
        f("schemaUrl", 3, FieldKind::Rule(Structural::SchemaUrl)),
    ],
);

/// `ScopeSpans`.
pub static SCOPE_SPANS: Message = message(
    Name::ScopeSpans,
    &[
        f("scope", 1, FieldKind::Object(&SCOPE)),
        f("spans", 2, FieldKind::Array(&SPAN, Repeated::Spans)),
        f("schemaUrl", 3, FieldKind::Rule(Structural::SchemaUrl)),
    ],
);

/// `Span`; also a bare span object.
pub static SPAN: Message = message(
    Name::Span,
    &[
        f("traceId", 1, FieldKind::Hex(32)),
        f("spanId", 2, FieldKind::Hex(16)),
        f("traceState", 3, FieldKind::TraceState),
        f("parentSpanId", 4, FieldKind::Hex(16)),
        f("flags", 16, FieldKind::Flags(SPAN_FLAGS)),
        f("name", 5, FieldKind::SpanName),
        f("kind", 6, FieldKind::Enum(SPAN_KINDS)),
        f("startTimeUnixNano", 7, FieldKind::Nanos),
        f("endTimeUnixNano", 8, FieldKind::Nanos),
        f("attributes", 9, FieldKind::Attributes(Place::Span)),
        f("droppedAttributesCount", 10, FieldKind::Uint32),
        f("events", 11, FieldKind::Array(&EVENT, Repeated::Events)),
        f("droppedEventsCount", 12, FieldKind::Uint32),
        f("links", 13, FieldKind::Array(&LINK, Repeated::Links)),
        f("droppedLinksCount", 14, FieldKind::Uint32),
        f("status", 15, FieldKind::Object(&STATUS)),
    ],
);

/// `Span.Event`.
pub static EVENT: Message = message(
    Name::Event,
    &[
        f("timeUnixNano", 1, FieldKind::Nanos),
        f("name", 2, FieldKind::Rule(Structural::EventName)),
        f("attributes", 3, FieldKind::Attributes(Place::Event)),
        f("droppedAttributesCount", 4, FieldKind::Uint32),
    ],
);

/// `Span.Link`.
pub static LINK: Message = message(
    Name::Link,
    &[
        f("traceId", 1, FieldKind::Hex(32)),
        f("spanId", 2, FieldKind::Hex(16)),
        f("traceState", 3, FieldKind::TraceState),
        f("attributes", 4, FieldKind::Attributes(Place::Link)),
        f("droppedAttributesCount", 5, FieldKind::Uint32),
        f("flags", 6, FieldKind::Flags(SPAN_FLAGS)),
    ],
);

/// `Status`.
pub static STATUS: Message = message(
    Name::Status,
    &[
        f("message", 2, FieldKind::Text(Text::Empty)),
        f("code", 3, FieldKind::Enum(STATUS_CODES)),
    ],
);

/// `ResourceLogs`.
pub static RESOURCE_LOGS: Message = message(
    Name::ResourceLogs,
    &[
        f("resource", 1, FieldKind::Object(&RESOURCE)),
        f(
            "scopeLogs",
            2,
            FieldKind::Array(&SCOPE_LOGS, Repeated::Scopes),
        ),
        f("schemaUrl", 3, FieldKind::Rule(Structural::SchemaUrl)),
    ],
);

/// `ScopeLogs`.
pub static SCOPE_LOGS: Message = message(
    Name::ScopeLogs,
    &[
        f("scope", 1, FieldKind::Object(&SCOPE)),
        f(
            "logRecords",
            2,
            FieldKind::Array(&LOG_RECORD, Repeated::LogRecords),
        ),
        f("schemaUrl", 3, FieldKind::Rule(Structural::SchemaUrl)),
    ],
);

/// `LogRecord`.
pub static LOG_RECORD: Message = message(
    Name::LogRecord,
    &[
        f("timeUnixNano", 1, FieldKind::Nanos),
        f("observedTimeUnixNano", 11, FieldKind::Nanos),
        f("severityNumber", 2, FieldKind::Enum(SEVERITIES)),
        f("severityText", 3, FieldKind::Text(Text::Severity)),
        f("body", 5, FieldKind::Body),
        f("attributes", 6, FieldKind::Attributes(Place::Log)),
        f("droppedAttributesCount", 7, FieldKind::Uint32),
        f("flags", 8, FieldKind::Flags(LOG_FLAGS)),
        f("traceId", 9, FieldKind::Hex(32)),
        f("spanId", 10, FieldKind::Hex(16)),
        f("eventName", 12, FieldKind::Rule(Structural::EventName)),
    ],
);

/// `KeyValue`'s fields.
const KEY_VALUE_FIELDS: [Field; 2] = [f("key", 1, FieldKind::Key), f("value", 2, FieldKind::Value)];

/// `KeyValue`: an attribute (the gate's attribute judge reads it, not
/// this table).
pub static KEY_VALUE: Message = message(Name::KeyValue, &KEY_VALUE_FIELDS);

/// `AnyValue`'s members, in field number order (1 to 7).
const ANY_VALUE_FIELDS: [Field; 7] = [
    f("stringValue", 1, FieldKind::Case(Case::String)),
    f("boolValue", 2, FieldKind::Case(Case::Bool)),
    f("intValue", 3, FieldKind::Case(Case::Int)),
    f("doubleValue", 4, FieldKind::Case(Case::Double)),
    f("arrayValue", 5, FieldKind::Object(&ARRAY_VALUE)),
    f("kvlistValue", 6, FieldKind::Object(&KVLIST_VALUE)),
    f("bytesValue", 7, FieldKind::Case(Case::Bytes)),
];

/// `AnyValue`: a oneof, one member in JSON naming the case.
pub static ANY_VALUE: Message = message(Name::AnyValue, &ANY_VALUE_FIELDS);

/// `ArrayValue`'s and `KeyValueList`'s one field (`values`; they differ
/// in what it holds).
const ARRAY_VALUE_FIELDS: [Field; 1] = [f("values", 1, FieldKind::Values)];
/// See [`ARRAY_VALUE_FIELDS`].
const KVLIST_VALUE_FIELDS: [Field; 1] = [f("values", 1, FieldKind::Pairs)];

/// `ArrayValue`.
pub static ARRAY_VALUE: Message = message(Name::ArrayValue, &ARRAY_VALUE_FIELDS);

/// `KeyValueList`.
pub static KVLIST_VALUE: Message = message(Name::KvList, &KVLIST_VALUE_FIELDS);

/// The JSON keys of the attribute messages (`KeyValue`, `AnyValue`,
/// `ArrayValue`, `KeyValueList`) as constants, read from the tables
/// above: the judges that read these messages by hand (the attribute
/// judge, the one-pass path, the structured-content redactor) `match`
/// on them, which compiles to a switch on length where a search of the
/// table would compare each key in turn.
pub mod keys {
    use super::{ANY_VALUE_FIELDS as ANY, ARRAY_VALUE_FIELDS, KEY_VALUE_FIELDS as KV};

    /// `KeyValue.key`.
    pub const KEY: &str = KV[0].key;
    /// `KeyValue.value`.
    pub const VALUE: &str = KV[1].key;
    /// `ArrayValue.values` and `KeyValueList.values`.
    pub const VALUES: &str = ARRAY_VALUE_FIELDS[0].key;
    /// `AnyValue.stringValue`.
    pub const STRING: &str = ANY[0].key;
    /// `AnyValue.boolValue`.
    pub const BOOL: &str = ANY[1].key;
    /// `AnyValue.intValue`.
    pub const INT: &str = ANY[2].key;
    /// `AnyValue.doubleValue`.
    pub const DOUBLE: &str = ANY[3].key;
    /// `AnyValue.arrayValue`.
    pub const ARRAY: &str = ANY[4].key;
    /// `AnyValue.kvlistValue`.
    pub const KVLIST: &str = ANY[5].key;
    /// `AnyValue.bytesValue`.
    pub const BYTES: &str = ANY[6].key;

    // The indexes above are field numbers - 1, and the two `values` are one
    // key: checked when the crate is built.
    const _: () = {
        let mut i = 0;
        while i < ANY.len() {
            assert!(ANY[i].number as usize == i + 1);
            i += 1;
        }
        assert!(KV[0].number == 1 && KV[1].number == 2);
        let (a, b) = (
            ARRAY_VALUE_FIELDS[0].key.as_bytes(),
            super::KVLIST_VALUE_FIELDS[0].key.as_bytes(),
        );
        assert!(a.len() == b.len());
        let mut j = 0;
        while j < a.len() {
            assert!(a[j] == b[j]);
            j += 1;
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_by_key_and_by_number() {
        assert!(matches!(
            SPAN.field("traceId").map(|f| f.kind),
            Some(FieldKind::Hex(32))
        ));
        assert!(SPAN.field("traceid").is_none());
        let (i, flags) = SPAN.numbered(16).unwrap();
        assert_eq!((i, flags.key), (4, "flags"));
        assert!(SPAN.numbered(17).is_none() && SPAN.numbered(0).is_none());
        assert!(STATUS.numbered(1).is_none());
        let wire: Vec<u32> = LOG_RECORD.by_number().map(|(_, f)| f.number).collect();
        assert_eq!(wire, [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]);
        assert!(std::ptr::eq(SPAN.child(11).unwrap(), &EVENT));
        assert!(std::ptr::eq(SPAN.child(9).unwrap(), &KEY_VALUE));
        assert!(std::ptr::eq(KEY_VALUE.child(2).unwrap(), &ANY_VALUE));
        assert!(SPAN.child(5).is_none());
    }
}
