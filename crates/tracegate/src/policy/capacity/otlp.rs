//! The OTLP/JSON messages a standard record may hold, as the capacity
//! walk reads them: the gate's schema (`gate::otlp::schema`), restated
//! here because the policy sits below the gate. A test beside the schema
//! holds the two equal (`capacity_mirror_matches_the_schema`), so a key
//! the gate starts to pass cannot be missed here.
//!
//! The one-unit path (one resource group, one scope group, one span or
//! log record) is written as [`Slot::One`]; the `resourceLogs` array of a
//! traces request may be present but empty ([`Slot::EmptyArray`]).

/// Which attribute allowlist an attribute list is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// `resource.attributes`.
    Resource,
    /// `scope.attributes`.
    Scope,
    /// A span's.
    Span,
    /// A span event's.
    Event,
    /// A span link's.
    Link,
    /// A log record's.
    Log,
}

/// A structural string held to a `[standard.otlp]` rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Structural {
    /// `schemaUrl`.
    SchemaUrl,
    /// `scope.name`.
    ScopeName,
    /// `scope.version`.
    ScopeVersion,
    /// Event names and log `eventName`.
    EventName,
}

/// A repeated structure within one unit, with its `[standard.otlp] max_*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeated {
    /// `events`.
    Events,
    /// `links`.
    Links,
}

impl Repeated {
    /// For derivations.
    pub fn note(self) -> &'static str {
        match self {
            Repeated::Events => "events",
            Repeated::Links => "links",
        }
    }
}

/// How one member is counted.
#[derive(Debug, Clone, Copy)]
pub enum Slot {
    /// Hex id of this many digits, or empty.
    Hex(usize),
    /// A u64 timestamp.
    Nanos,
    /// A u32 count.
    Uint32,
    /// A bit field: only the bits of the mask pass.
    Flags(u32),
    /// An enum of this many values (by number or name).
    Enum(usize),
    /// A string that must be empty.
    Empty,
    /// A log severity word.
    Severity,
    /// A structural string rule.
    Rule(Structural),
    /// A W3C trace state.
    TraceState,
    /// A span name.
    SpanName,
    /// An attribute list.
    Attributes(Place),
    /// A log body: content, never at standard level.
    Body,
    /// An optional nested message.
    Object(&'static Message),
    /// The array that holds the one unit: exactly one element.
    One(&'static Message),
    /// An array of the other signal, present only when empty.
    EmptyArray,
    /// A repeated message.
    Many(&'static Message, Repeated),
}

impl Slot {
    /// The gate schema's kind of the same member, for the mirror test.
    #[cfg(test)]
    pub fn tag(&self) -> String {
        match self {
            Slot::Hex(n) => format!("hex{n}"),
            Slot::Nanos => "nanos".into(),
            Slot::Uint32 => "uint32".into(),
            Slot::Flags(m) => format!("flags{m:#x}"),
            Slot::Enum(n) => format!("enum{n}"),
            Slot::Empty => "empty".into(),
            Slot::Severity => "severity".into(),
            Slot::Rule(r) => format!("rule:{r:?}"),
            Slot::TraceState => "trace_state".into(),
            Slot::SpanName => "span_name".into(),
            Slot::Attributes(p) => format!("attributes:{p:?}"),
            Slot::Body => "body".into(),
            Slot::Object(m) => format!("object:{}", m.schema),
            Slot::One(m) | Slot::Many(m, _) => format!("array:{}", m.schema),
            Slot::EmptyArray => "array:other".into(),
        }
    }
}

/// One OTLP message.
#[derive(Debug)]
pub struct Message {
    /// The gate schema it mirrors (`SPAN`, `RESOURCE`...), for the
    /// mirror test.
    #[cfg_attr(not(test), allow(dead_code))]
    pub schema: &'static str,
    /// Where its members are reported.
    pub path: &'static str,
    /// Its members.
    pub fields: &'static [(&'static str, Slot)],
}

/// `SpanFlags`: the W3C trace flags OTLP defines and the remote bits.
const SPAN_FLAGS: u32 = 0x303;
/// `LogRecordFlags`: the W3C trace flags.
const LOG_FLAGS: u32 = 0x3;

/// A traces request holding one span.
pub static REQUEST_SPANS: Message = Message {
    schema: "REQUEST",
    path: "request",
    fields: &[
        ("resourceSpans", Slot::One(&RESOURCE_SPANS)),
        ("resourceLogs", Slot::EmptyArray),
    ],
};

/// A logs request holding one log record.
pub static REQUEST_LOGS: Message = Message {
    schema: "REQUEST",
    path: "request",
    fields: &[
        ("resourceSpans", Slot::EmptyArray),
        ("resourceLogs", Slot::One(&RESOURCE_LOGS)),
    ],
};

static RESOURCE: Message = Message {
    schema: "RESOURCE",
    path: "resource",
    fields: &[
        ("attributes", Slot::Attributes(Place::Resource)),
        ("droppedAttributesCount", Slot::Uint32),
    ],
};

static SCOPE: Message = Message {
    schema: "SCOPE",
    path: "scope",
    fields: &[
        ("name", Slot::Rule(Structural::ScopeName)),
        ("version", Slot::Rule(Structural::ScopeVersion)),
        ("attributes", Slot::Attributes(Place::Scope)),
        ("droppedAttributesCount", Slot::Uint32),
    ],
};

static RESOURCE_SPANS: Message = Message {
    schema: "RESOURCE_SPANS",
    path: "resourceSpans",
    fields: &[
        ("resource", Slot::Object(&RESOURCE)),
        ("scopeSpans", Slot::One(&SCOPE_SPANS)),
        ("schemaUrl", Slot::Rule(Structural::SchemaUrl)),
    ],
};

static SCOPE_SPANS: Message = Message {
    schema: "SCOPE_SPANS",
    path: "scopeSpans",
    fields: &[
        ("scope", Slot::Object(&SCOPE)),
        ("spans", Slot::One(&SPAN)),
        ("schemaUrl", Slot::Rule(Structural::SchemaUrl)),
    ],
};

/// A span.
pub static SPAN: Message = Message {
    schema: "SPAN",
    path: "span",
    fields: &[
        ("traceId", Slot::Hex(32)),
        ("spanId", Slot::Hex(16)),
        ("parentSpanId", Slot::Hex(16)),
        ("traceState", Slot::TraceState),
        ("flags", Slot::Flags(SPAN_FLAGS)),
        ("name", Slot::SpanName),
        ("kind", Slot::Enum(6)),
        ("startTimeUnixNano", Slot::Nanos),
        ("endTimeUnixNano", Slot::Nanos),
        ("attributes", Slot::Attributes(Place::Span)),
        ("droppedAttributesCount", Slot::Uint32),
        ("events", Slot::Many(&EVENT, Repeated::Events)),
        ("droppedEventsCount", Slot::Uint32),
        ("links", Slot::Many(&LINK, Repeated::Links)),
        ("droppedLinksCount", Slot::Uint32),
        ("status", Slot::Object(&STATUS)),
    ],
};

static EVENT: Message = Message {
    schema: "EVENT",
    path: "span.events[]",
    fields: &[
        ("timeUnixNano", Slot::Nanos),
        ("name", Slot::Rule(Structural::EventName)),
        ("attributes", Slot::Attributes(Place::Event)),
        ("droppedAttributesCount", Slot::Uint32),
    ],
};

static LINK: Message = Message {
    schema: "LINK",
    path: "span.links[]",
    fields: &[
        ("traceId", Slot::Hex(32)),
        ("spanId", Slot::Hex(16)),
        ("traceState", Slot::TraceState),
        ("attributes", Slot::Attributes(Place::Link)),
        ("droppedAttributesCount", Slot::Uint32),
        ("flags", Slot::Flags(SPAN_FLAGS)),
    ],
};

static STATUS: Message = Message {
    schema: "STATUS",
    path: "span.status",
    fields: &[("code", Slot::Enum(3)), ("message", Slot::Empty)],
};

static RESOURCE_LOGS: Message = Message {
    schema: "RESOURCE_LOGS",
    path: "resourceLogs",
    fields: &[
        ("resource", Slot::Object(&RESOURCE)),
        ("scopeLogs", Slot::One(&SCOPE_LOGS)),
        ("schemaUrl", Slot::Rule(Structural::SchemaUrl)),
    ],
};

static SCOPE_LOGS: Message = Message {
    schema: "SCOPE_LOGS",
    path: "scopeLogs",
    fields: &[
        ("scope", Slot::Object(&SCOPE)),
        ("logRecords", Slot::One(&LOG_RECORD)),
        ("schemaUrl", Slot::Rule(Structural::SchemaUrl)),
    ],
};

static LOG_RECORD: Message = Message {
    schema: "LOG_RECORD",
    path: "log",
    fields: &[
        ("timeUnixNano", Slot::Nanos),
        ("observedTimeUnixNano", Slot::Nanos),
        ("severityNumber", Slot::Enum(25)),
        ("severityText", Slot::Severity),
        ("body", Slot::Body),
        ("attributes", Slot::Attributes(Place::Log)),
        ("droppedAttributesCount", Slot::Uint32),
        ("flags", Slot::Flags(LOG_FLAGS)),
        ("traceId", Slot::Hex(32)),
        ("spanId", Slot::Hex(16)),
        ("eventName", Slot::Rule(Structural::EventName)),
    ],
};

/// Every message of the table (for the mirror test).
#[cfg(test)]
pub fn messages() -> [&'static Message; 13] {
    [
        &REQUEST_SPANS,
        &REQUEST_LOGS,
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
    ]
}

/// The level words of `severityText` (`gate::otlp::schema`), held equal
/// by the mirror test.
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

/// How many non-empty severity texts pass: each word in any case, with
/// or without a digit 2 to 4 (the empty one is counted by the caller).
pub fn severity_texts() -> f64 {
    let words: f64 = SEVERITY_WORDS.iter().map(|w| (w.len() as f64).exp2()).sum();
    1.0 + 4.0 * words
}
