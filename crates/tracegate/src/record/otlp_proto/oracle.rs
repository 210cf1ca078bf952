//! The test oracle: OTLP's messages as prost structures (field numbers of
//! `opentelemetry/proto/trace/v1/trace.proto`, `logs/v1/logs.proto`,
//! `common/v1`, `resource/v1`), and the conversions through them that the
//! library's codecs used to be: protobuf to OTLP/JSON by prost's decoder
//! and a writer per message, OTLP/JSON to protobuf by `serde_json` and a
//! conversion per message.
//!
//! Not production code: compiled for the crate's own tests and, through
//! the `oracle` feature, which only dev-dependencies (the daemon's tests,
//! the integration tests, the benches, the fuzz crate) turn on. The
//! library describes each message once, in its OTLP table
//! ([`crate::otlp_schema`]); this second, independent description (a
//! protobuf library's own decoder and encoder, hand-written field lists)
//! is what the table-driven codecs ([`super::transcode`],
//! [`super::encode`], [`super::merge`], [`super::from_json`]) are held to
//! by property tests and fuzz targets, byte for byte.

use prost::Message;
use serde_json::{Map, Value};

use super::{
    ProtoError, base64_decode, bounds, push_base64, push_decimal, push_double, push_enum, push_hex,
    push_int64, push_quoted_decimal,
};
use crate::otlp_schema::{SEVERITIES, SPAN_KINDS, STATUS_CODES};

/// `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ExportTraceServiceRequest {
    /// Spans grouped by resource.
    #[prost(message, repeated, tag = "1")]
    pub resource_spans: Vec<ResourceSpans>,
}

/// `ResourceSpans`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ResourceSpans {
    /// The resource.
    #[prost(message, optional, tag = "1")]
    pub resource: Option<Resource>,
    /// Spans grouped by scope.
    #[prost(message, repeated, tag = "2")]
    pub scope_spans: Vec<ScopeSpans>,
    /// Schema URL.
    #[prost(string, tag = "3")]
    pub schema_url: String,
}

/// `Resource`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct Resource {
    /// Attributes.
    #[prost(message, repeated, tag = "1")]
    pub attributes: Vec<KeyValue>,
    /// Dropped attributes.
    #[prost(uint32, tag = "2")]
    pub dropped_attributes_count: u32,
}

/// `ScopeSpans`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ScopeSpans {
    /// The instrumentation scope.
    #[prost(message, optional, tag = "1")]
    pub scope: Option<InstrumentationScope>,
    /// Spans.
    #[prost(message, repeated, tag = "2")]
    pub spans: Vec<Span>,
    /// Schema URL.
    #[prost(string, tag = "3")]
    pub schema_url: String,
}

/// `InstrumentationScope`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct InstrumentationScope {
    /// Name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// Version.
    #[prost(string, tag = "2")]
    pub version: String,
    /// Attributes.
    #[prost(message, repeated, tag = "3")]
    pub attributes: Vec<KeyValue>,
    /// Dropped attributes.
    #[prost(uint32, tag = "4")]
    pub dropped_attributes_count: u32,
}

/// `Span`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct Span {
    /// 16 bytes.
    #[prost(bytes = "vec", tag = "1")]
    pub trace_id: Vec<u8>,
    /// 8 bytes.
    #[prost(bytes = "vec", tag = "2")]
    pub span_id: Vec<u8>,
    /// W3C trace state.
    #[prost(string, tag = "3")]
    pub trace_state: String,
    /// 8 bytes or empty.
    #[prost(bytes = "vec", tag = "4")]
    pub parent_span_id: Vec<u8>,
    /// W3C trace flags and more.
    #[prost(fixed32, tag = "16")]
    pub flags: u32,
    /// Name.
    #[prost(string, tag = "5")]
    pub name: String,
    /// `SpanKind`.
    #[prost(int32, tag = "6")]
    pub kind: i32,
    /// Start.
    #[prost(fixed64, tag = "7")]
    pub start_time_unix_nano: u64,
    /// End.
    #[prost(fixed64, tag = "8")]
    pub end_time_unix_nano: u64,
    /// Attributes.
    #[prost(message, repeated, tag = "9")]
    pub attributes: Vec<KeyValue>,
    /// Dropped attributes.
    #[prost(uint32, tag = "10")]
    pub dropped_attributes_count: u32,
    /// Events.
    #[prost(message, repeated, tag = "11")]
    pub events: Vec<Event>,
    /// Dropped events.
    #[prost(uint32, tag = "12")]
    pub dropped_events_count: u32,
    /// Links.
    #[prost(message, repeated, tag = "13")]
    pub links: Vec<Link>,
    /// Dropped links.
    #[prost(uint32, tag = "14")]
    pub dropped_links_count: u32,
    /// Status.
    #[prost(message, optional, tag = "15")]
    pub status: Option<Status>,
}

/// `Span.Event`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct Event {
    /// Time.
    #[prost(fixed64, tag = "1")]
    pub time_unix_nano: u64,
    /// Name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// Attributes.
    #[prost(message, repeated, tag = "3")]
    pub attributes: Vec<KeyValue>,
    /// Dropped attributes.
    #[prost(uint32, tag = "4")]
    pub dropped_attributes_count: u32,
}

/// `Span.Link`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct Link {
    /// 16 bytes.
    #[prost(bytes = "vec", tag = "1")]
    pub trace_id: Vec<u8>,
    /// 8 bytes.
    #[prost(bytes = "vec", tag = "2")]
    pub span_id: Vec<u8>,
    /// W3C trace state.
    #[prost(string, tag = "3")]
    pub trace_state: String,
    /// Attributes.
    #[prost(message, repeated, tag = "4")]
    pub attributes: Vec<KeyValue>,
    /// Dropped attributes.
    #[prost(uint32, tag = "5")]
    pub dropped_attributes_count: u32,
    /// Flags.
    #[prost(fixed32, tag = "6")]
    pub flags: u32,
}

/// `Status`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct Status {
    /// Message.
    #[prost(string, tag = "2")]
    pub message: String,
    /// `StatusCode`.
    #[prost(int32, tag = "3")]
    pub code: i32,
}

/// `opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ExportLogsServiceRequest {
    /// Log records grouped by resource.
    #[prost(message, repeated, tag = "1")]
    pub resource_logs: Vec<ResourceLogs>,
}

/// `ResourceLogs`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ResourceLogs {
    /// The resource.
    #[prost(message, optional, tag = "1")]
    pub resource: Option<Resource>,
    /// Log records grouped by scope.
    #[prost(message, repeated, tag = "2")]
    pub scope_logs: Vec<ScopeLogs>,
    /// Schema URL.
    #[prost(string, tag = "3")]
    pub schema_url: String,
}

/// `ScopeLogs`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ScopeLogs {
    /// The instrumentation scope.
    #[prost(message, optional, tag = "1")]
    pub scope: Option<InstrumentationScope>,
    /// Log records.
    #[prost(message, repeated, tag = "2")]
    pub log_records: Vec<LogRecord>,
    /// Schema URL.
    #[prost(string, tag = "3")]
    pub schema_url: String,
}

/// `LogRecord`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct LogRecord {
    /// Event time.
    #[prost(fixed64, tag = "1")]
    pub time_unix_nano: u64,
    /// Observation time.
    #[prost(fixed64, tag = "11")]
    pub observed_time_unix_nano: u64,
    /// `SeverityNumber`.
    #[prost(int32, tag = "2")]
    pub severity_number: i32,
    /// Severity text.
    #[prost(string, tag = "3")]
    pub severity_text: String,
    /// Body: content.
    #[prost(message, optional, tag = "5")]
    pub body: Option<AnyValue>,
    /// Attributes.
    #[prost(message, repeated, tag = "6")]
    pub attributes: Vec<KeyValue>,
    /// Dropped attributes.
    #[prost(uint32, tag = "7")]
    pub dropped_attributes_count: u32,
    /// Flags.
    #[prost(fixed32, tag = "8")]
    pub flags: u32,
    /// 16 bytes or empty.
    #[prost(bytes = "vec", tag = "9")]
    pub trace_id: Vec<u8>,
    /// 8 bytes or empty.
    #[prost(bytes = "vec", tag = "10")]
    pub span_id: Vec<u8>,
    /// Event name.
    #[prost(string, tag = "12")]
    pub event_name: String,
}

/// `KeyValue`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct KeyValue {
    /// Key.
    #[prost(string, tag = "1")]
    pub key: String,
    /// Value.
    #[prost(message, optional, tag = "2")]
    pub value: Option<AnyValue>,
}

/// `AnyValue`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct AnyValue {
    /// The one value.
    #[prost(oneof = "any_value::Value", tags = "1, 2, 3, 4, 5, 6, 7")]
    pub value: Option<any_value::Value>,
}

/// The `AnyValue` oneof.
pub mod any_value {
    /// One of the value kinds.
    #[derive(Clone, PartialEq, prost::Oneof)]
    #[prost(skip_debug)]
    pub enum Value {
        /// `stringValue`.
        #[prost(string, tag = "1")]
        StringValue(String),
        /// `boolValue`.
        #[prost(bool, tag = "2")]
        BoolValue(bool),
        /// `intValue`.
        #[prost(int64, tag = "3")]
        IntValue(i64),
        /// `doubleValue`.
        #[prost(double, tag = "4")]
        DoubleValue(f64),
        /// `arrayValue`.
        #[prost(message, tag = "5")]
        ArrayValue(super::ArrayValue),
        /// `kvlistValue`.
        #[prost(message, tag = "6")]
        KvlistValue(super::KeyValueList),
        /// `bytesValue`.
        #[prost(bytes = "vec", tag = "7")]
        BytesValue(Vec<u8>),
    }
}

/// `ArrayValue`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct ArrayValue {
    /// Elements.
    #[prost(message, repeated, tag = "1")]
    pub values: Vec<AnyValue>,
}

/// `KeyValueList`.
#[derive(Clone, PartialEq, Message)]
#[prost(skip_debug)]
pub struct KeyValueList {
    /// Members.
    #[prost(message, repeated, tag = "1")]
    pub values: Vec<KeyValue>,
}

// SECURITY: every message above can hold record values (names, attribute
// keys and values, log bodies, status messages), so none derives `Debug`
// (`#[prost(skip_debug)]`). Their `Debug` shows the type, its encoded size
// and the lengths of its repeated fields: enough to debug a size problem,
// never a byte of content.
macro_rules! sized_debug {
    ($ty:ident $(, $field:ident)*) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($ty))
                    .field("encoded_len", &self.encoded_len())
                    $(.field(stringify!($field), &self.$field.len()))*
                    .finish_non_exhaustive()
            }
        }
    };
}

sized_debug!(ExportTraceServiceRequest, resource_spans);
sized_debug!(ResourceSpans, scope_spans);
sized_debug!(Resource, attributes);
sized_debug!(ScopeSpans, spans);
sized_debug!(InstrumentationScope, attributes);
sized_debug!(Span, attributes, events, links);
sized_debug!(Event, attributes);
sized_debug!(Link, attributes);
sized_debug!(Status);
sized_debug!(ExportLogsServiceRequest, resource_logs);
sized_debug!(ResourceLogs, scope_logs);
sized_debug!(ScopeLogs, log_records);
sized_debug!(LogRecord, attributes);

impl std::fmt::Debug for KeyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyValue")
            .field("key_len", &self.key.len())
            .field("value", &self.value)
            .finish()
    }
}

impl std::fmt::Debug for AnyValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("AnyValue").field(&self.value).finish()
    }
}
sized_debug!(ArrayValue, values);
sized_debug!(KeyValueList, values);

impl std::fmt::Debug for any_value::Value {
    // SECURITY: the kind of value and its size, never the value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use any_value::Value as V;
        match self {
            V::StringValue(s) => write!(f, "StringValue({} bytes)", s.len()),
            V::BoolValue(_) => f.write_str("BoolValue"),
            V::IntValue(_) => f.write_str("IntValue"),
            V::DoubleValue(_) => f.write_str("DoubleValue"),
            V::ArrayValue(a) => write!(f, "ArrayValue({} values)", a.values.len()),
            V::KvlistValue(kv) => write!(f, "KvlistValue({} values)", kv.values.len()),
            V::BytesValue(b) => write!(f, "BytesValue({} bytes)", b.len()),
        }
    }
}

/// [`decode_traces_protobuf_bytes`] through prost's structures: the
/// reference [`transcode`] is held to, and the decoder of every request it
/// leaves alone.
pub fn decode_traces_prost(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    through_prost(body, JsonWriter::request)
}

/// Decode `body` as an `M` and write it with `write`.
fn through_prost<M: Message + Default>(
    body: &[u8],
    write: fn(&mut JsonWriter, &M),
) -> Result<Vec<u8>, ProtoError> {
    let req = M::decode(body).map_err(|_| ProtoError::Decode)?;
    let mut w = JsonWriter::sized(body.len());
    write(&mut w, &req);
    Ok(w.out)
}

/// [`encode_traces_protobuf`] through `serde_json` and prost's
/// structures: the reference [`encode`] is held to, and the encoder of
/// every line it leaves alone.
pub fn encode_traces_prost(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    let v: Value = serde_json::from_str(json_line).map_err(|_| ProtoError::Json("invalid json"))?;
    let req = ExportTraceServiceRequest {
        resource_spans: list(obj(&v)?, "resourceSpans", resource_spans)?,
    };
    Ok(req.encode_to_vec())
}

/// [`decode_logs_protobuf_bytes`] through prost's structures.
pub fn decode_logs_prost(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    through_prost(body, JsonWriter::logs_request)
}

/// [`encode_logs_protobuf`] through `serde_json` and prost's structures.
pub fn encode_logs_prost(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    let v: Value = serde_json::from_str(json_line).map_err(|_| ProtoError::Json("invalid json"))?;
    let req = ExportLogsServiceRequest {
        resource_logs: list(obj(&v)?, "resourceLogs", resource_logs)?,
    };
    Ok(req.encode_to_vec())
}

/// [`encode_export`] through `serde_json` and prost's structures: the
/// reference [`encode::export`] is held to, and the encoder of every line
/// it leaves alone.
pub fn export_prost(line: &[u8]) -> Result<(bounds::Signal, Vec<u8>), ProtoError> {
    let v: Value = serde_json::from_slice(line).map_err(|_| ProtoError::Json("invalid json"))?;
    let o = obj(&v)?;
    let traces = |resource_spans| {
        let req = ExportTraceServiceRequest { resource_spans };
        (bounds::Signal::Traces, req.encode_to_vec())
    };
    if o.contains_key("resourceSpans") {
        return Ok(traces(list(o, "resourceSpans", resource_spans)?));
    }
    if o.contains_key("resourceLogs") {
        let req = ExportLogsServiceRequest {
            resource_logs: list(o, "resourceLogs", resource_logs)?,
        };
        return Ok((bounds::Signal::Logs, req.encode_to_vec()));
    }
    if o.contains_key("name") && matches!(o.get("attributes"), Some(Value::Array(_))) {
        return Ok(traces(vec![ResourceSpans {
            resource: None,
            scope_spans: vec![ScopeSpans {
                scope: None,
                spans: vec![span(o)?],
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }]));
    }
    Err(ProtoError::Json("not an OTLP record"))
}

// ---------------------------------------------------------------------------
// JSON -> prost

type Obj = Map<String, Value>;

fn obj(v: &Value) -> Result<&Obj, ProtoError> {
    v.as_object().ok_or(ProtoError::Json("expected an object"))
}

fn list<T>(
    o: &Obj,
    key: &str,
    f: impl Fn(&Obj) -> Result<T, ProtoError>,
) -> Result<Vec<T>, ProtoError> {
    match o.get(key) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a.iter().map(|e| f(obj(e)?)).collect(),
        Some(_) => Err(ProtoError::Json("expected an array")),
    }
}

fn opt<T>(
    o: &Obj,
    key: &str,
    f: impl Fn(&Obj) -> Result<T, ProtoError>,
) -> Result<Option<T>, ProtoError> {
    o.get(key).map(|v| f(obj(v)?)).transpose()
}

fn string(o: &Obj, key: &str) -> Result<String, ProtoError> {
    match o.get(key) {
        None => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ProtoError::Json("expected a string")),
    }
}

fn unsigned(o: &Obj, key: &str) -> Result<u64, ProtoError> {
    match o.get(key) {
        None => Ok(0),
        Some(Value::String(s)) => s
            .parse()
            .map_err(|_| ProtoError::Json("expected an integer")),
        Some(Value::Number(n)) => n.as_u64().ok_or(ProtoError::Json("expected an integer")),
        Some(_) => Err(ProtoError::Json("expected an integer")),
    }
}

fn u32_of(o: &Obj, key: &str) -> Result<u32, ProtoError> {
    u32::try_from(unsigned(o, key)?).map_err(|_| ProtoError::Json("expected a u32"))
}

fn enumeration(o: &Obj, key: &str, names: &[&str]) -> Result<i32, ProtoError> {
    match o.get(key) {
        Some(Value::String(s)) => names
            .iter()
            .position(|n| n == s)
            .and_then(|i| i32::try_from(i).ok())
            .ok_or(ProtoError::Json("unknown enum name")),
        _ => i32::try_from(unsigned(o, key)?).map_err(|_| ProtoError::Json("enum out of range")),
    }
}

fn hex_id(o: &Obj, key: &str) -> Result<Vec<u8>, ProtoError> {
    hex::decode(string(o, key)?).map_err(|_| ProtoError::Json("id is not hex"))
}

fn resource(r: &Obj) -> Result<Resource, ProtoError> {
    Ok(Resource {
        attributes: attributes(r)?,
        dropped_attributes_count: u32_of(r, "droppedAttributesCount")?,
    })
}

fn scope(s: &Obj) -> Result<InstrumentationScope, ProtoError> {
    Ok(InstrumentationScope {
        name: string(s, "name")?,
        version: string(s, "version")?,
        attributes: attributes(s)?,
        dropped_attributes_count: u32_of(s, "droppedAttributesCount")?,
    })
}

/// The resource and scope wrappers of one signal, which differ only in
/// names: `$resources` holds a resource and `$scopes`, each a scope and
/// its `$items`.
macro_rules! wrappers {
    ($resources:ident: $Resources:ident { $scopes_field:ident: $scopes_key:literal },
     $scopes:ident: $Scopes:ident { $items_field:ident: $items_key:literal, $item:ident }) => {
        fn $resources(o: &Obj) -> Result<$Resources, ProtoError> {
            Ok($Resources {
                resource: opt(o, "resource", resource)?,
                $scopes_field: list(o, $scopes_key, $scopes)?,
                schema_url: string(o, "schemaUrl")?,
            })
        }

        fn $scopes(o: &Obj) -> Result<$Scopes, ProtoError> {
            Ok($Scopes {
                scope: opt(o, "scope", scope)?,
                $items_field: list(o, $items_key, $item)?,
                schema_url: string(o, "schemaUrl")?,
            })
        }
    };
}

wrappers!(
    resource_spans: ResourceSpans { scope_spans: "scopeSpans" },
    scope_spans: ScopeSpans { spans: "spans", span }
);
wrappers!(
    resource_logs: ResourceLogs { scope_logs: "scopeLogs" },
    scope_logs: ScopeLogs { log_records: "logRecords", log_record }
);

fn log_record(o: &Obj) -> Result<LogRecord, ProtoError> {
    Ok(LogRecord {
        time_unix_nano: unsigned(o, "timeUnixNano")?,
        observed_time_unix_nano: unsigned(o, "observedTimeUnixNano")?,
        severity_number: enumeration(o, "severityNumber", SEVERITIES)?,
        severity_text: string(o, "severityText")?,
        body: opt(o, "body", any_value)?,
        attributes: attributes(o)?,
        dropped_attributes_count: u32_of(o, "droppedAttributesCount")?,
        flags: u32_of(o, "flags")?,
        trace_id: hex_id(o, "traceId")?,
        span_id: hex_id(o, "spanId")?,
        event_name: string(o, "eventName")?,
    })
}

fn span(o: &Obj) -> Result<Span, ProtoError> {
    Ok(Span {
        trace_id: hex_id(o, "traceId")?,
        span_id: hex_id(o, "spanId")?,
        trace_state: string(o, "traceState")?,
        parent_span_id: hex_id(o, "parentSpanId")?,
        flags: u32_of(o, "flags")?,
        name: string(o, "name")?,
        kind: enumeration(o, "kind", SPAN_KINDS)?,
        start_time_unix_nano: unsigned(o, "startTimeUnixNano")?,
        end_time_unix_nano: unsigned(o, "endTimeUnixNano")?,
        attributes: attributes(o)?,
        dropped_attributes_count: u32_of(o, "droppedAttributesCount")?,
        events: list(o, "events", |e| {
            Ok(Event {
                time_unix_nano: unsigned(e, "timeUnixNano")?,
                name: string(e, "name")?,
                attributes: attributes(e)?,
                dropped_attributes_count: u32_of(e, "droppedAttributesCount")?,
            })
        })?,
        dropped_events_count: u32_of(o, "droppedEventsCount")?,
        links: list(o, "links", |l| {
            Ok(Link {
                trace_id: hex_id(l, "traceId")?,
                span_id: hex_id(l, "spanId")?,
                trace_state: string(l, "traceState")?,
                attributes: attributes(l)?,
                dropped_attributes_count: u32_of(l, "droppedAttributesCount")?,
                flags: u32_of(l, "flags")?,
            })
        })?,
        dropped_links_count: u32_of(o, "droppedLinksCount")?,
        status: opt(o, "status", |s| {
            Ok(Status {
                message: string(s, "message")?,
                code: enumeration(s, "code", STATUS_CODES)?,
            })
        })?,
    })
}

fn attributes(o: &Obj) -> Result<Vec<KeyValue>, ProtoError> {
    list(o, "attributes", key_value)
}

fn key_value(o: &Obj) -> Result<KeyValue, ProtoError> {
    Ok(KeyValue {
        key: string(o, "key")?,
        value: opt(o, "value", any_value)?,
    })
}

fn any_value(o: &Obj) -> Result<AnyValue, ProtoError> {
    use any_value::Value as V;
    let Some((k, v)) = o.iter().next() else {
        return Ok(AnyValue { value: None });
    };
    let bad = ProtoError::Json("invalid attribute value");
    let value = match (k.as_str(), v) {
        ("stringValue", Value::String(s)) => V::StringValue(s.clone()),
        ("boolValue", Value::Bool(b)) => V::BoolValue(*b),
        ("intValue", Value::String(s)) => V::IntValue(s.parse().map_err(|_| bad)?),
        ("intValue", Value::Number(n)) => V::IntValue(n.as_i64().ok_or(bad)?),
        ("doubleValue", Value::Number(n)) => V::DoubleValue(n.as_f64().ok_or(bad)?),
        ("doubleValue", Value::String(s)) => V::DoubleValue(match s.as_str() {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            _ => return Err(bad),
        }),
        ("arrayValue", v) => V::ArrayValue(ArrayValue {
            values: list(obj(v)?, "values", any_value)?,
        }),
        ("kvlistValue", v) => V::KvlistValue(KeyValueList {
            values: list(obj(v)?, "values", key_value)?,
        }),
        ("bytesValue", Value::String(s)) => V::BytesValue(base64_decode(s).ok_or(bad)?),
        _ => return Err(bad),
    };
    Ok(AnyValue { value: Some(value) })
}

// ---------------------------------------------------------------------------
// prost -> JSON

/// Writes compact OTLP/JSON, omitting default values. Everything it
/// appends is UTF-8: JSON string literals of `&str`, ASCII otherwise.
#[derive(Default)]
struct JsonWriter {
    out: Vec<u8>,
    /// Whether the open object already has a member.
    has_member: Vec<bool>,
}

impl JsonWriter {
    /// A writer with room for the JSON of a `body_len`-byte protobuf
    /// message (keys and hex ids make it about twice as long).
    fn sized(body_len: usize) -> JsonWriter {
        JsonWriter {
            out: Vec::with_capacity(body_len.saturating_mul(2).saturating_add(64)),
            has_member: Vec::new(),
        }
    }

    fn open(&mut self) {
        self.out.push(b'{');
        self.has_member.push(false);
    }

    fn close(&mut self) {
        self.out.push(b'}');
        self.has_member.pop();
    }

    fn key(&mut self, k: &str) {
        if let Some(h) = self.has_member.last_mut() {
            if *h {
                self.out.push(b',');
            }
            *h = true;
        }
        self.out.push(b'"');
        self.out.extend_from_slice(k.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    fn string(&mut self, k: &str, s: &str) {
        if !s.is_empty() {
            self.key(k);
            self.quoted(s);
        }
    }

    fn quoted(&mut self, s: &str) {
        super::super::escape::write_json_string(s, &mut self.out);
    }

    fn hex(&mut self, k: &str, id: &[u8]) {
        if !id.is_empty() {
            self.key(k);
            push_hex(&mut self.out, id);
        }
    }

    fn number(&mut self, k: &str, n: u64) {
        if n != 0 {
            self.key(k);
            push_decimal(&mut self.out, n);
        }
    }

    fn nanos(&mut self, k: &str, n: u64) {
        if n != 0 {
            self.key(k);
            push_quoted_decimal(&mut self.out, n);
        }
    }

    fn enumeration(&mut self, k: &str, n: i32) {
        if n != 0 {
            self.key(k);
            push_enum(&mut self.out, n);
        }
    }

    fn list<T>(&mut self, k: &str, items: &[T], mut f: impl FnMut(&mut Self, &T)) {
        if items.is_empty() {
            return;
        }
        self.key(k);
        self.out.push(b'[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            f(self, item);
        }
        self.out.push(b']');
    }

    fn request(&mut self, r: &ExportTraceServiceRequest) {
        self.open();
        self.list("resourceSpans", &r.resource_spans, Self::resource_spans);
        self.close();
    }

    fn logs_request(&mut self, r: &ExportLogsServiceRequest) {
        self.open();
        self.list("resourceLogs", &r.resource_logs, |w, rl| {
            w.open();
            w.resource(rl.resource.as_ref());
            w.list("scopeLogs", &rl.scope_logs, |w, sl| {
                w.open();
                w.scope(sl.scope.as_ref());
                w.list("logRecords", &sl.log_records, Self::log_record);
                w.string("schemaUrl", &sl.schema_url);
                w.close();
            });
            w.string("schemaUrl", &rl.schema_url);
            w.close();
        });
        self.close();
    }

    fn log_record(&mut self, l: &LogRecord) {
        self.open();
        self.nanos("timeUnixNano", l.time_unix_nano);
        self.nanos("observedTimeUnixNano", l.observed_time_unix_nano);
        self.enumeration("severityNumber", l.severity_number);
        self.string("severityText", &l.severity_text);
        if let Some(body) = &l.body {
            self.key("body");
            self.any_value(body);
        }
        self.attributes(&l.attributes);
        self.number("droppedAttributesCount", l.dropped_attributes_count.into());
        self.number("flags", l.flags.into());
        self.hex("traceId", &l.trace_id);
        self.hex("spanId", &l.span_id);
        self.string("eventName", &l.event_name);
        self.close();
    }

    fn resource(&mut self, res: Option<&Resource>) {
        if let Some(res) = res {
            self.key("resource");
            self.open();
            self.attributes(&res.attributes);
            self.number(
                "droppedAttributesCount",
                res.dropped_attributes_count.into(),
            );
            self.close();
        }
    }

    fn scope(&mut self, scope: Option<&InstrumentationScope>) {
        if let Some(scope) = scope {
            self.key("scope");
            self.open();
            self.string("name", &scope.name);
            self.string("version", &scope.version);
            self.attributes(&scope.attributes);
            self.number(
                "droppedAttributesCount",
                scope.dropped_attributes_count.into(),
            );
            self.close();
        }
    }

    fn resource_spans(&mut self, r: &ResourceSpans) {
        self.open();
        self.resource(r.resource.as_ref());
        self.list("scopeSpans", &r.scope_spans, Self::scope_spans);
        self.string("schemaUrl", &r.schema_url);
        self.close();
    }

    fn scope_spans(&mut self, s: &ScopeSpans) {
        self.open();
        self.scope(s.scope.as_ref());
        self.list("spans", &s.spans, Self::span);
        self.string("schemaUrl", &s.schema_url);
        self.close();
    }

    fn span(&mut self, s: &Span) {
        self.open();
        self.hex("traceId", &s.trace_id);
        self.hex("spanId", &s.span_id);
        self.string("traceState", &s.trace_state);
        self.hex("parentSpanId", &s.parent_span_id);
        self.number("flags", s.flags.into());
        self.string("name", &s.name);
        self.enumeration("kind", s.kind);
        self.nanos("startTimeUnixNano", s.start_time_unix_nano);
        self.nanos("endTimeUnixNano", s.end_time_unix_nano);
        self.attributes(&s.attributes);
        self.number("droppedAttributesCount", s.dropped_attributes_count.into());
        self.list("events", &s.events, |w, e| {
            w.open();
            w.nanos("timeUnixNano", e.time_unix_nano);
            w.string("name", &e.name);
            w.attributes(&e.attributes);
            w.number("droppedAttributesCount", e.dropped_attributes_count.into());
            w.close();
        });
        self.number("droppedEventsCount", s.dropped_events_count.into());
        self.list("links", &s.links, |w, l| {
            w.open();
            w.hex("traceId", &l.trace_id);
            w.hex("spanId", &l.span_id);
            w.string("traceState", &l.trace_state);
            w.attributes(&l.attributes);
            w.number("droppedAttributesCount", l.dropped_attributes_count.into());
            w.number("flags", l.flags.into());
            w.close();
        });
        self.number("droppedLinksCount", s.dropped_links_count.into());
        if let Some(st) = &s.status {
            self.key("status");
            self.open();
            self.string("message", &st.message);
            self.enumeration("code", st.code);
            self.close();
        }
        self.close();
    }

    fn attributes(&mut self, kvs: &[KeyValue]) {
        self.list("attributes", kvs, Self::key_value);
    }

    fn key_value(&mut self, kv: &KeyValue) {
        self.open();
        self.key("key");
        self.quoted(&kv.key);
        if let Some(v) = &kv.value {
            self.key("value");
            self.any_value(v);
        }
        self.close();
    }

    fn any_value(&mut self, v: &AnyValue) {
        use any_value::Value as V;
        self.open();
        match &v.value {
            None => {}
            Some(V::StringValue(s)) => {
                self.key("stringValue");
                self.quoted(s);
            }
            Some(V::BoolValue(b)) => {
                self.key("boolValue");
                self.out
                    .extend_from_slice(if *b { b"true" } else { b"false" });
            }
            Some(V::IntValue(i)) => {
                self.key("intValue");
                push_int64(&mut self.out, *i);
            }
            Some(V::DoubleValue(d)) => {
                self.key("doubleValue");
                push_double(&mut self.out, *d);
            }
            Some(V::ArrayValue(a)) => {
                self.key("arrayValue");
                self.open();
                self.list("values", &a.values, Self::any_value);
                self.close();
            }
            Some(V::KvlistValue(kv)) => {
                self.key("kvlistValue");
                self.open();
                self.list("values", &kv.values, Self::key_value);
                self.close();
            }
            Some(V::BytesValue(b)) => {
                self.key("bytesValue");
                push_base64(&mut self.out, b);
            }
        }
        self.close();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::super::{encode_logs_protobuf, encode_traces_protobuf};
    use super::*;

    /// Regression (issue 12, item 12): the derived `Debug` printed every
    /// string and byte of a decoded request.
    #[test]
    fn debug_of_decoded_requests_shows_sizes_never_content() {
        // A canary in every place a value can hide: names, keys, string,
        // bytes and nested values, trace state, status message, log body.
        let c = "CANARY";
        let b64 = "Q0FOQVJZ"; // "CANARY"
        let attrs = format!(
            r#"[{{"key":"{c}-k","value":{{"stringValue":"{c}-v"}}}},{{"key":"b","value":{{"bytesValue":"{b64}"}}}},{{"key":"n","value":{{"kvlistValue":{{"values":[{{"key":"{c}-nk","value":{{"arrayValue":{{"values":[{{"stringValue":"{c}-deep"}}]}}}}}}]}}}}}}]"#
        );
        let traces = format!(
            r#"{{"resourceSpans":[{{"resource":{{"attributes":{attrs}}},"scopeSpans":[{{"scope":{{"name":"{c}-scope","version":"{c}","attributes":{attrs}}},"spans":[{{"traceState":"{c}=1","name":"{c}-name","attributes":{attrs},"events":[{{"name":"{c}-ev","attributes":{attrs}}}],"links":[{{"traceState":"{c}","attributes":{attrs}}}],"status":{{"message":"{c}-status"}}}}],"schemaUrl":"{c}"}}],"schemaUrl":"{c}"}}]}}"#
        );
        let logs = format!(
            r#"{{"resourceLogs":[{{"scopeLogs":[{{"logRecords":[{{"severityText":"{c}","body":{{"stringValue":"{c}-body"}},"attributes":{attrs},"eventName":"{c}"}}]}}]}}]}}"#
        );
        let t = ExportTraceServiceRequest::decode(&encode_traces_protobuf(&traces).unwrap()[..])
            .unwrap();
        let l =
            ExportLogsServiceRequest::decode(&encode_logs_protobuf(&logs).unwrap()[..]).unwrap();
        let shown = [
            format!("{t:?}"),
            format!("{t:#?}"),
            format!("{l:?}"),
            format!("{l:#?}"),
            format!("{:?}", t.resource_spans[0].scope_spans[0].spans[0]),
            format!(
                "{:?}",
                t.resource_spans[0].scope_spans[0].spans[0].attributes
            ),
            format!("{:?}", t.resource_spans[0].scope_spans[0].spans[0].status),
            format!("{:?}", l.resource_logs[0].scope_logs[0].log_records[0].body),
        ];
        for s in &shown {
            assert!(!s.contains(c), "Debug printed content: {s}");
            assert!(!s.contains(b64), "Debug printed content: {s}");
        }
        // Still useful: the type and its size are there.
        assert!(
            shown[0].contains("ExportTraceServiceRequest"),
            "{}",
            shown[0]
        );
        assert!(shown[0].contains("encoded_len"), "{}", shown[0]);
        assert!(shown[7].contains("StringValue(11 bytes)"), "{}", shown[7]);
    }
}
