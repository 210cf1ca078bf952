//! OTLP/protobuf for traces and logs: conversions to and from the
//! OTLP/JSON line the gate judges (messages and field numbers of
//! `opentelemetry/proto/trace/v1/trace.proto`, `logs/v1/logs.proto`,
//! `common/v1`, `resource/v1`, described once in the crate's OTLP table,
//! [`crate::otlp_schema`]).
//!
//! The daemon receives `ExportTraceServiceRequest` bodies as protobuf,
//! turns each into one JSON line with [`decode_traces_protobuf`], gates it,
//! and re-encodes the projection for an OTLP sink ([`encode_export`], whose
//! requests the sink appends into a batch). Each conversion is first a fast
//! walk driven by the table ([`transcode`], [`encode`]) that takes the
//! canonical encoding only; what a walk leaves alone (a request in an
//! unusual encoding: a field sent twice, an unknown field; a line with an
//! escaped key, an `AnyValue` with two members) goes to a fallback driven
//! by the same table with a protobuf library's semantics ([`merge`]:
//! last scalar wins, messages merged, unknown fields skipped;
//! [`from_json`]: through `serde_json::Value`). prost's own structures
//! and the conversions through them survive as the test oracle only
//! (`oracle`, for the crate's tests and the `oracle` feature): property
//! tests and fuzz targets hold all four codecs to it, byte for byte.
//! `prost` stays a dependency for its varint helpers; there is no
//! `opentelemetry-proto` (no tonic).
//!
//! The JSON written follows the OTLP/JSON mapping: camelCase keys, ids as
//! lowercase hex, `intValue` and `*UnixNano` as strings, enums as numbers
//! (signed, even outside the enum's values: the gate judges them), default
//! values omitted. Encoding reads only the keys of that mapping and ignores any
//! other, so it is meant for lines the gate has already verified.
//!
//! # Untrusted input
//!
//! Decoding follows prost's rules, bounded by its recursion limit (100
//! messages deep). Errors are opaque and hold no byte of the input.

pub mod bounds;
pub mod cut;
pub mod encode;
pub mod from_json;
pub mod merge;
#[cfg(any(test, feature = "oracle"))]
pub mod oracle;
pub mod transcode;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::general_purpose::STANDARD;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

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

/// Decode a protobuf `ExportTraceServiceRequest` into one OTLP/JSON line
/// (no line ending).
pub fn decode_traces_protobuf(body: &[u8]) -> Result<String, ProtoError> {
    String::from_utf8(decode_traces_protobuf_bytes(body)?).map_err(|_| ProtoError::Decode)
}

/// [`decode_traces_protobuf`], as bytes: the line `serve` hands the gate,
/// whose scan validates it again (so it is not checked twice here).
pub fn decode_traces_protobuf_bytes(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    transcode::traces(body).map_or_else(|| merge::traces(body), Ok)
}

/// Encode an OTLP/JSON trace request line as a protobuf
/// `ExportTraceServiceRequest`.
pub fn encode_traces_protobuf(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    encode::traces(json_line.as_bytes()).map_or_else(|| from_json::traces(json_line), Ok)
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
/// `body` ([`cut::Piece`]) when the wire walk wrote it (`None` when the
/// fallback, [`merge`], did: a request in an unusual encoding), so that a gated line whose
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
        bounds::Signal::Traces => merge::traces(body),
        bounds::Signal::Logs => merge::logs(body),
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
    /// The pieces of the line, or `None` when the fallback wrote it.
    pub pieces: Option<Vec<cut::Piece>>,
}

/// Decode a protobuf `ExportLogsServiceRequest` into one OTLP/JSON line.
pub fn decode_logs_protobuf(body: &[u8]) -> Result<String, ProtoError> {
    String::from_utf8(decode_logs_protobuf_bytes(body)?).map_err(|_| ProtoError::Decode)
}

/// [`decode_logs_protobuf`], as bytes (see [`decode_traces_protobuf_bytes`]).
pub fn decode_logs_protobuf_bytes(body: &[u8]) -> Result<Vec<u8>, ProtoError> {
    transcode::logs(body).map_or_else(|| merge::logs(body), Ok)
}

/// Encode an OTLP/JSON logs request line as a protobuf
/// `ExportLogsServiceRequest`.
pub fn encode_logs_protobuf(json_line: &str) -> Result<Vec<u8>, ProtoError> {
    encode::logs(json_line.as_bytes()).map_or_else(|| from_json::logs(json_line), Ok)
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
    encode::export(line).map_or_else(|| from_json::export(line), Ok)
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

// The OTLP/JSON spelling of protobuf values, shared by the wire walk, the
// fallback (`merge`) and the oracle's writer (`transcode`), which must write the same bytes.

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
pub(crate) fn push_int64(out: &mut Vec<u8>, i: i64) {
    out.push(b'"');
    if i < 0 {
        out.push(b'-');
    }
    push_decimal(out, i.unsigned_abs());
    out.push(b'"');
}

/// A `doubleValue`: a JSON number, or proto3's strings for NaN and the
/// infinities.
///
/// A number is written straight into `out`, not into a `String` of its
/// own first (a `malloc` and a `free` per double, in the line path and in
/// the wire judge's check of each `doubleValue`).
pub(crate) fn push_double(out: &mut Vec<u8>, d: f64) {
    use std::io::Write as _;
    match serde_json::Number::from_f64(d) {
        // Writing to a `Vec` cannot fail.
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None if d.is_nan() => out.extend_from_slice(b"\"NaN\""),
        None if d > 0.0 => out.extend_from_slice(b"\"Infinity\""),
        None => out.extend_from_slice(b"\"-Infinity\""),
    }
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

    #[test]
    fn errors_hold_no_input() {
        let e = decode_traces_protobuf(b"\xff\xff\xffCANARY").unwrap_err();
        assert!(!e.to_string().contains("CANARY"));
        let e = encode_traces_protobuf(r#"{"resourceSpans":"CANARY"}"#).unwrap_err();
        assert!(!e.to_string().contains("CANARY"));
    }
    /// A double is written as `serde_json` spells it (what it wrote
    /// through a `String` of its own before), appended after what `out`
    /// holds; NaN and the infinities as proto3's JSON strings.
    #[test]
    fn a_double_is_appended_as_json_spells_it() {
        for d in [
            0.0,
            -0.0,
            1.25,
            -3.5e-7,
            1e21,
            123_456_789.123,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            5e-324,
        ] {
            let mut out = b"x:".to_vec();
            push_double(&mut out, d);
            let want = serde_json::Number::from_f64(d).unwrap().to_string();
            assert_eq!(out, [&b"x:"[..], want.as_bytes()].concat(), "{d}");
        }
        for (d, want) in [
            (f64::NAN, "\"NaN\""),
            (f64::INFINITY, "\"Infinity\""),
            (f64::NEG_INFINITY, "\"-Infinity\""),
        ] {
            let mut out = Vec::new();
            push_double(&mut out, d);
            assert_eq!(out, want.as_bytes());
        }
    }
}
