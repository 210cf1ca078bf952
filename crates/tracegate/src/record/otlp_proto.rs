//! OTLP/protobuf for traces and logs: our own `prost` messages (field numbers of
//! `opentelemetry/proto/trace/v1/trace.proto`, `logs/v1/logs.proto`,
//! `common/v1`, `resource/v1`)
//! and conversions to and from the OTLP/JSON line the gate judges.
//!
//! The daemon receives `ExportTraceServiceRequest` bodies as protobuf,
//! turns each into one JSON line with [`decode_traces_protobuf`], gates it,
//! and re-encodes the projection for an OTLP sink ([`encode_export`], whose
//! requests the sink appends into a batch). Each conversion is first a walk
//! driven by the crate's OTLP table ([`transcode`], [`encode`]); the prost
//! messages and the conversions through them here decide what a walk
//! leaves alone (a request in an unusual encoding: a field sent twice, an
//! unknown field; a line with an escaped key, an `AnyValue` with two
//! members) and are the reference the walks' property tests and fuzz
//! targets hold them to. Own message types instead of
//! `opentelemetry-proto` keep the dependency tree to `prost` alone (no
//! tonic).
//!
//! The JSON written follows the OTLP/JSON mapping: camelCase keys, ids as
//! lowercase hex, `intValue` and `*UnixNano` as strings, enums as numbers
//! (signed, even outside the enum's values: the gate judges them), default
//! values omitted. Encoding reads only the keys of that mapping and ignores any
//! other, so it is meant for lines the gate has already verified.
//!
//! # Untrusted input
//!
//! Decoding is `prost`'s, bounded by its recursion limit. Errors are opaque
//! and hold no byte of the input.

pub mod bounds;
pub mod cut;
pub mod encode;
pub mod transcode;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::general_purpose::STANDARD;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use prost::Message;

use crate::otlp_schema::{SEVERITIES, SPAN_KINDS, STATUS_CODES};
use serde_json::{Map, Value};

/// Why a conversion failed. Never holds record content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtoError {
    /// The bytes are not a valid protobuf `ExportTraceServiceRequest`.
    #[error("body is not a valid OTLP protobuf trace request")]
    Decode,
    /// The JSON line is not an OTLP/JSON trace request.
    #[error("line is not an OTLP/JSON trace request: {0}")]
    Json(&'static str),
}

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

/// Decode a protobuf `ExportTraceServiceRequest` into one OTLP/JSON line
/// (no line ending).
pub fn decode_traces_protobuf(body: &[u8]) -> Result<String, ProtoError> {
    String::from_utf8(decode_traces_protobuf_bytes(body)?).map_err(|_| ProtoError::Decode)
}

/// [`decode_traces_protobuf`], as bytes: the line `serve` hands the gate,
/// whose scan validates it again (so it is not checked twice here).
pub fn decode_traces_protobuf_bytes(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    transcode::traces(body).map_or_else(|| decode_traces_prost(body), Ok)
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

/// Encode an OTLP/JSON trace request line as a protobuf
/// `ExportTraceServiceRequest`.
pub fn encode_traces_protobuf(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    encode::traces(json_line.as_bytes()).map_or_else(|| encode_traces_prost(json_line), Ok)
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

/// An OTLP protobuf export request of `signal` as the one OTLP/JSON line
/// the gate judges, the way `serve` takes one in: its structure counted
/// against `limits` on the wire first (nothing is decoded from a request
/// past a bound), then decoded. `Ok(None)`: a valid request with no span
/// or log record, which carries nothing.
///
/// SECURITY: the error holds fixed words and policy limits, never a byte
/// of the request.
pub fn request_line(
    body: &[u8],
    signal: bounds::Signal,
    limits: &crate::policy::StructureLimits,
) -> Result<Option<Vec<u8>>, bounds::BoundError> {
    let counts = bounds::check_protobuf(body, signal, limits)?;
    if counts.export_items() == 0 {
        return Ok(None);
    }
    let line = match signal {
        bounds::Signal::Traces => decode_traces_protobuf_bytes(body),
        bounds::Signal::Logs => decode_logs_protobuf_bytes(body),
    };
    line.map(Some).map_err(|_| bounds::BoundError::Malformed)
}

/// [`request_line`], with where each member of the line came from in
/// `body` ([`cut::Piece`]) when the wire walk wrote it (`None` when prost
/// did: a request in an unusual encoding), so that a gated line whose
/// members were only stripped can be cut out of `body`
/// ([`cut::project`]) instead of encoded again.
pub fn request_line_mapped(
    body: &[u8],
    signal: bounds::Signal,
    limits: &crate::policy::StructureLimits,
) -> Result<Option<MappedLine>, bounds::BoundError> {
    let counts = bounds::check_protobuf(body, signal, limits)?;
    if counts.export_items() == 0 {
        return Ok(None);
    }
    let mapped = match signal {
        bounds::Signal::Traces => transcode::traces_mapped(body),
        bounds::Signal::Logs => transcode::logs_mapped(body),
    };
    if let Some((line, pieces)) = mapped {
        return Ok(Some(MappedLine {
            line,
            pieces: Some(pieces),
        }));
    }
    let line = match signal {
        bounds::Signal::Traces => decode_traces_prost(body),
        bounds::Signal::Logs => decode_logs_prost(body),
    };
    line.map(|line| Some(MappedLine { line, pieces: None }))
        .map_err(|_| bounds::BoundError::Malformed)
}

/// An export request's OTLP/JSON line and, when the wire walk wrote it,
/// where each of its members came from ([`request_line_mapped`]).
#[derive(Debug, Clone)]
pub struct MappedLine {
    /// The line.
    pub line: Vec<u8>,
    /// The pieces of the line, or `None` when prost wrote it.
    pub pieces: Option<Vec<cut::Piece>>,
}

/// Decode a protobuf `ExportLogsServiceRequest` into one OTLP/JSON line.
pub fn decode_logs_protobuf(body: &[u8]) -> Result<String, ProtoError> {
    String::from_utf8(decode_logs_protobuf_bytes(body)?).map_err(|_| ProtoError::Decode)
}

/// [`decode_logs_protobuf`], as bytes (see [`decode_traces_protobuf_bytes`]).
pub fn decode_logs_protobuf_bytes(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    transcode::logs(body).map_or_else(|| decode_logs_prost(body), Ok)
}

/// [`decode_logs_protobuf_bytes`] through prost's structures.
pub fn decode_logs_prost(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    through_prost(body, JsonWriter::logs_request)
}

/// Encode an OTLP/JSON logs request line as a protobuf
/// `ExportLogsServiceRequest`.
pub fn encode_logs_protobuf(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    encode::logs(json_line.as_bytes()).map_or_else(|| encode_logs_prost(json_line), Ok)
}

/// [`encode_logs_protobuf`] through `serde_json` and prost's structures.
pub fn encode_logs_prost(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    let v: Value = serde_json::from_str(json_line).map_err(|_| ProtoError::Json("invalid json"))?;
    let req = ExportLogsServiceRequest {
        resource_logs: list(obj(&v)?, "resourceLogs", resource_logs)?,
    };
    Ok(req.encode_to_vec())
}

/// One gated OTLP/JSON record as a protobuf export request of its signal,
/// routed by what the record is (not by how its bytes start): a request
/// with `resourceSpans` or `resourceLogs`, in any key order and spacing,
/// or a bare span (`name` and an `attributes` array), wrapped into a
/// request with one resource and one scope. Requests of one signal
/// concatenated are one request (a repeated field's encoding is its
/// elements' encodings one after another): an OTLP sink batches records
/// by appending these bytes.
pub fn encode_export(line: &[u8]) -> Result<(bounds::Signal, Vec<u8>), ProtoError> {
    encode::export(line).map_or_else(|| export_prost(line), Ok)
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

fn resource_spans(o: &Obj) -> Result<ResourceSpans, ProtoError> {
    Ok(ResourceSpans {
        resource: opt(o, "resource", resource)?,
        scope_spans: list(o, "scopeSpans", scope_spans)?,
        schema_url: string(o, "schemaUrl")?,
    })
}

fn scope_spans(o: &Obj) -> Result<ScopeSpans, ProtoError> {
    Ok(ScopeSpans {
        scope: opt(o, "scope", scope)?,
        spans: list(o, "spans", span)?,
        schema_url: string(o, "schemaUrl")?,
    })
}

fn resource_logs(o: &Obj) -> Result<ResourceLogs, ProtoError> {
    Ok(ResourceLogs {
        resource: opt(o, "resource", resource)?,
        scope_logs: list(o, "scopeLogs", scope_logs)?,
        schema_url: string(o, "schemaUrl")?,
    })
}

fn scope_logs(o: &Obj) -> Result<ScopeLogs, ProtoError> {
    Ok(ScopeLogs {
        scope: opt(o, "scope", scope)?,
        log_records: list(o, "logRecords", log_record)?,
        schema_url: string(o, "schemaUrl")?,
    })
}

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
        super::escape::write_json_string(s, &mut self.out);
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

// ---------------------------------------------------------------------------
// base64 for `bytesValue`, by the `base64` crate

/// Padding optional on decode: proto3's JSON mapping accepts both.
const ANY_PADDING: GeneralPurposeConfig =
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
/// The standard alphabet (`+/`), padded or not.
const STANDARD_ANY_PADDING: GeneralPurpose = GeneralPurpose::new(&alphabet::STANDARD, ANY_PADDING);
/// The URL-safe alphabet (`-_`), padded or not.
const URL_SAFE_ANY_PADDING: GeneralPurpose = GeneralPurpose::new(&alphabet::URL_SAFE, ANY_PADDING);

/// Standard alphabet, padded: what proto3's JSON mapping writes.
fn base64_encode(data: &[u8], out: &mut String) {
    STANDARD.encode_string(data, out);
}

// The OTLP/JSON spelling of protobuf values, shared by the prost path's
// writer and the wire walk (`transcode`), which must write the same bytes.

/// `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(crate::finding::decimal(n, &mut [0; 20]).as_bytes());
}

/// A 64-bit integer as OTLP/JSON writes it: a decimal string.
fn push_quoted_decimal(out: &mut Vec<u8>, n: u64) {
    out.push(b'"');
    push_decimal(out, n);
    out.push(b'"');
}

/// An enum (`kind`, `status.code`, `severityNumber`): the number as
/// protobuf holds it, signed. SECURITY: a number outside the enum's values
/// (negative, or past the last name) is written as it is, never as the
/// default 0, so the gate refuses it (`one_of`) exactly as it refuses the
/// same number in OTLP/JSON; a 0 would pass and hide that the producer
/// sent something the conventions do not define.
fn push_enum(out: &mut Vec<u8>, n: i32) {
    if n < 0 {
        out.push(b'-');
    }
    push_decimal(out, u64::from(n.unsigned_abs()));
}

/// An `intValue`: a signed decimal string.
fn push_int64(out: &mut Vec<u8>, i: i64) {
    out.push(b'"');
    if i < 0 {
        out.push(b'-');
    }
    push_decimal(out, i.unsigned_abs());
    out.push(b'"');
}

/// A `doubleValue`: a JSON number, or proto3's strings for NaN and the
/// infinities.
fn push_double(out: &mut Vec<u8>, d: f64) {
    let text = match serde_json::Number::from_f64(d) {
        Some(n) => n.to_string(),
        None if d.is_nan() => "\"NaN\"".into(),
        None if d > 0.0 => "\"Infinity\"".into(),
        None => "\"-Infinity\"".into(),
    };
    out.extend_from_slice(text.as_bytes());
}

/// Bytes (trace and span ids) as a quoted lowercase hex string.
fn push_hex(out: &mut Vec<u8>, id: &[u8]) {
    out.push(b'"');
    let at = out.len();
    out.resize(at + id.len() * 2, 0);
    // The room is exactly twice the input's length: it cannot fail.
    let _ = hex::encode_to_slice(id, &mut out[at..]);
    out.push(b'"');
}

/// A `bytesValue`: quoted standard base64.
fn push_base64(out: &mut Vec<u8>, data: &[u8]) {
    let mut text = String::new();
    base64_encode(data, &mut text);
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// A `bytesValue` as proto3's JSON mapping reads it: standard or URL-safe
/// base64, padded or not. SECURITY: one alphabet per value; a mix, a
/// leftover character, stray trailing bits or misplaced padding is refused
/// (the request is malformed) rather than decoded to a guess.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    STANDARD_ANY_PADDING
        .decode(s)
        .or_else(|_| URL_SAFE_ANY_PADDING.decode(s))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for data in [&b""[..], b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar"] {
            let mut s = String::new();
            base64_encode(data, &mut s);
            assert_eq!(base64_decode(&s).unwrap(), data);
        }
        let mut s = String::new();
        base64_encode(b"foobar", &mut s);
        assert_eq!(s, "Zm9vYmFy");
        assert!(base64_decode("a b").is_none());
    }

    /// proto3's JSON mapping takes `bytes` as standard or URL-safe base64,
    /// padded or not: one alphabet per value. An attacker mixing both (or
    /// writing a lone trailing character, stray bits or padding in the
    /// middle) gets a refusal, never a guess at what was meant.
    #[test]
    fn base64_refuses_mixed_alphabets_and_malformed_input() {
        // Each alphabet alone, padded or not: 0xfb 0xff 0xbf.
        for ok in ["+/+/", "-_-_", "Zm8=", "Zm8", "Zg==", "Zg"] {
            assert!(base64_decode(ok).is_some(), "{ok}");
        }
        assert_eq!(base64_decode("-_-_"), base64_decode("+/+/"));
        for bad in [
            "+_+_", // standard and URL-safe in one value
            "-/-/",
            "ab+_",
            "Zm9v-/==",
            "Z",    // one character left over: no whole byte
            "Zh==", // non-zero bits after the last byte
            "Zg=a", // padding in the middle
            "Zg===",
            "=",
            "Zm9v=Zm9v",
        ] {
            assert!(base64_decode(bad).is_none(), "{bad} was accepted");
        }
    }

    proptest::proptest! {
        /// Whatever the bytes, both alphabets and both padding styles
        /// decode to them, and swapping one character of the other
        /// alphabet in is refused.
        #[test]
        fn base64_decodes_each_alphabet_and_refuses_a_mix(
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
        ) {
            let mut std = String::new();
            base64_encode(&data, &mut std);
            let url = std.replace('+', "-").replace('/', "_");
            for s in [std.clone(), std.trim_end_matches('=').to_owned(), url.clone(), url.trim_end_matches('=').to_owned()] {
                let got = base64_decode(&s);
                proptest::prop_assert_eq!(got.as_deref(), Some(&data[..]));
            }
            if let Some(i) = std.find(['+', '/']) {
                let mut mixed = url.clone().into_bytes();
                mixed[i] = std.as_bytes()[i];
                let mixed = String::from_utf8(mixed).unwrap_or_default();
                // Only a mix when a URL-safe character is still there.
                if mixed.contains(['-', '_']) && mixed.contains(['+', '/']) {
                    proptest::prop_assert_eq!(base64_decode(&mixed), None);
                }
            }
        }
    }

    #[test]
    fn every_value_kind_round_trips() {
        let line = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"s","value":{"stringValue":"a\"b\n"}},{"key":"b","value":{"boolValue":true}},{"key":"i","value":{"intValue":"-5"}},{"key":"d","value":{"doubleValue":0.25}},{"key":"a","value":{"arrayValue":{"values":[{"intValue":"1"},{}]}}},{"key":"k","value":{"kvlistValue":{"values":[{"key":"x","value":{"bytesValue":"Zm9v"}}]}}},{"key":"e"}],"droppedAttributesCount":1},"scopeSpans":[{"scope":{"name":"n","version":"v"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","traceState":"a=b","parentSpanId":"b7ad6b7169203331","flags":257,"name":"llm_request","kind":2,"startTimeUnixNano":"1","endTimeUnixNano":"2","events":[{"timeUnixNano":"3","name":"e"}],"links":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","flags":1}],"status":{"message":"m","code":2}}],"schemaUrl":"https://x"}]}]}"#;
        let pb = encode_traces_protobuf(line).unwrap();
        let back = decode_traces_protobuf(&pb).unwrap();
        assert_eq!(back, line);
    }

    #[test]
    fn logs_round_trip() {
        let line = r#"{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeLogs":[{"scope":{"name":"n"},"logRecords":[{"timeUnixNano":"1","observedTimeUnixNano":"2","severityNumber":9,"severityText":"INFO","body":{"stringValue":"hello"},"attributes":[{"key":"k","value":{"intValue":"3"}}],"droppedAttributesCount":1,"flags":1,"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","eventName":"e.v"}],"schemaUrl":"https://x"}]}]}"#;
        let pb = encode_logs_protobuf(line).unwrap();
        assert_eq!(decode_logs_protobuf(&pb).unwrap(), line);
    }

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

    #[test]
    fn errors_hold_no_input() {
        let e = decode_traces_protobuf(b"\xff\xff\xffCANARY").unwrap_err();
        assert!(!e.to_string().contains("CANARY"));
        let e = encode_traces_protobuf(r#"{"resourceSpans":"CANARY"}"#).unwrap_err();
        assert!(!e.to_string().contains("CANARY"));
    }
}
