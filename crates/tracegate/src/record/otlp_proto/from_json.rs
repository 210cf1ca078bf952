//! OTLP/JSON lines written as protobuf through `serde_json::Value`: the
//! encoder of every line the tape walk ([`super::encode`]) leaves alone.
//!
//! **Invariant:** the bytes are the ones prost's structures, filled from
//! the same `Value`, would encode, and a line refused there is refused
//! here with the same fixed words: what serde_json makes of the line
//! (a duplicate key: the last one; an escaped key: decoded), each
//! message's known keys read with the types the OTLP/JSON mapping gives
//! them (a 64-bit integer or a count as a number or a string of digits,
//! an enum as a number or its name, an id as hex, `bytesValue` as
//! base64), unknown keys ignored, and an `AnyValue` read by its first
//! member. Fields are read in the table's order (so the first error is
//! the one met first) and written in field-number order, defaults left
//! out; an `AnyValue`'s member is written even at its default, and a
//! message even when empty. A property test holds it to prost on
//! generated and edited lines.
//!
//! The crate's OTLP table ([`crate::otlp_schema`]) names each field's JSON
//! key, number and kind; the walk is the same for all messages.

use prost::encoding::{WireType, encode_key, encode_varint};
use serde_json::{Map, Value};

use super::ProtoError;
use super::bounds::Signal;
use super::encode::{Scalar, len_field, scalar};
use crate::otlp_schema::{
    ANY_VALUE, Case, Field, FieldKind, LOGS, Message, Name, RESOURCE_SPANS, SCOPE_SPANS, SPAN,
    TRACES,
};

type Obj = Map<String, Value>;

/// A trace export request line as protobuf.
pub fn traces(line: &str) -> Result<Vec<u8>, ProtoError> {
    request(&TRACES, line)
}

/// A logs export request line as protobuf.
pub fn logs(line: &str) -> Result<Vec<u8>, ProtoError> {
    request(&LOGS, line)
}

fn request(msg: &'static Message, line: &str) -> Result<Vec<u8>, ProtoError> {
    let v: Value = serde_json::from_str(line).map_err(|_| ProtoError::Json("invalid json"))?;
    message(msg, obj(&v)?)
}

/// One gated OTLP record as an export request of its signal, routed as
/// [`super::encode::export`] routes it: a request with `resourceSpans`,
/// else one with `resourceLogs`, else a bare span (`name` and an
/// `attributes` array) wrapped into a trace request with one resource and
/// one scope.
pub fn export(line: &[u8]) -> Result<(Signal, Vec<u8>), ProtoError> {
    let v: Value = serde_json::from_slice(line).map_err(|_| ProtoError::Json("invalid json"))?;
    let o = obj(&v)?;
    let has = |m: &Message| m.fields.iter().any(|f| o.contains_key(f.key));
    if has(&TRACES) {
        return Ok((Signal::Traces, message(&TRACES, o)?));
    }
    if has(&LOGS) {
        return Ok((Signal::Logs, message(&LOGS, o)?));
    }
    let field = |m: &Message, key: &str| m.field(key).ok_or(ProtoError::Json("not an OTLP record"));
    let (name, attributes) = (field(&SPAN, "name")?, field(&SPAN, "attributes")?);
    if o.contains_key(name.key) && matches!(o.get(attributes.key), Some(Value::Array(_))) {
        // resourceSpans { scopeSpans { spans { the span } } }, with no
        // resource, scope or schema URL.
        let span = message(&SPAN, o)?;
        let mut out = span;
        for (m, key) in [
            (&SCOPE_SPANS, "spans"),
            (&RESOURCE_SPANS, "scopeSpans"),
            (&TRACES, "resourceSpans"),
        ] {
            let mut outer = Vec::with_capacity(out.len() + 8);
            len_field(&mut outer, field(m, key)?.number, &out);
            out = outer;
        }
        return Ok((Signal::Traces, out));
    }
    Err(ProtoError::Json("not an OTLP record"))
}

fn obj(v: &Value) -> Result<&Obj, ProtoError> {
    v.as_object().ok_or(ProtoError::Json("expected an object"))
}

/// The message `msg` from the object `o`.
fn message(msg: &'static Message, o: &Obj) -> Result<Vec<u8>, ProtoError> {
    if msg.name == Name::AnyValue {
        return any_value(o);
    }
    // Each field encoded in the table's order, then put in number order.
    let mut parts = vec![Vec::new(); msg.fields.len()];
    for (field, part) in msg.fields.iter().zip(&mut parts) {
        self::field(field, o.get(field.key), part)?;
    }
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for (i, _) in msg.by_number() {
        out.extend_from_slice(parts.get(i).map_or(&[][..], Vec::as_slice));
    }
    Ok(out)
}

/// One field of a message from its JSON value (`None`: the key is not
/// there), appended to `out`.
fn field(field: &Field, v: Option<&Value>, out: &mut Vec<u8>) -> Result<(), ProtoError> {
    let n = field.number;
    match field.kind {
        FieldKind::Text(_)
        | FieldKind::Rule(_)
        | FieldKind::TraceState
        | FieldKind::SpanName
        | FieldKind::Key => scalar(out, field, Scalar::Bytes(string(v)?.as_bytes())),
        FieldKind::Hex(_) => {
            let id = hex::decode(string(v)?).map_err(|_| ProtoError::Json("id is not hex"))?;
            scalar(out, field, Scalar::Bytes(&id));
        }
        FieldKind::Nanos => scalar(out, field, Scalar::Number(unsigned(v)?)),
        FieldKind::Uint32 | FieldKind::Flags(_) => {
            scalar(out, field, Scalar::Number(u32_of(v)?.into()));
        }
        FieldKind::Enum(names) => {
            scalar(out, field, Scalar::Number(enumeration(v, names)?.into()));
        }
        FieldKind::Object(_) | FieldKind::Body | FieldKind::Value => {
            if let Some(v) = v {
                let m = child(field)?;
                len_field(out, n, &message(m, obj(v)?)?);
            }
        }
        FieldKind::Array(..) | FieldKind::Attributes(_) | FieldKind::Pairs | FieldKind::Values => {
            match v {
                None => {}
                Some(Value::Array(a)) => {
                    let m = child(field)?;
                    for e in a {
                        len_field(out, n, &message(m, obj(e)?)?);
                    }
                }
                Some(_) => return Err(ProtoError::Json("expected an array")),
            }
        }
        // `AnyValue`'s members are read by `any_value`.
        FieldKind::Case(_) => return Err(ProtoError::Json("invalid attribute value")),
    }
    Ok(())
}

fn child(field: &Field) -> Result<&'static Message, ProtoError> {
    field
        .kind
        .message()
        .ok_or(ProtoError::Json("expected an object"))
}

/// An `AnyValue`: empty, or its first member (in serde_json's order)
/// naming the case, written even at its default.
fn any_value(o: &Obj) -> Result<Vec<u8>, ProtoError> {
    let mut out = Vec::new();
    let Some((k, v)) = o.iter().next() else {
        return Ok(out);
    };
    let bad = ProtoError::Json("invalid attribute value");
    let field = ANY_VALUE.field(k).ok_or(bad.clone())?;
    let n = field.number;
    match (field.kind, v) {
        (FieldKind::Case(Case::String), Value::String(s)) => len_field(&mut out, n, s.as_bytes()),
        (FieldKind::Case(Case::Bool), Value::Bool(b)) => {
            encode_key(n, WireType::Varint, &mut out);
            out.push(u8::from(*b));
        }
        (FieldKind::Case(Case::Int), Value::String(_) | Value::Number(_)) => {
            let i = match v {
                Value::String(s) => s.parse::<i64>().ok(),
                _ => v.as_i64(),
            }
            .ok_or(bad)?;
            encode_key(n, WireType::Varint, &mut out);
            // prost writes an int64 as its two's complement u64.
            encode_varint(i.cast_unsigned(), &mut out);
        }
        (FieldKind::Case(Case::Double), Value::Number(x)) => {
            let d = x.as_f64().ok_or(bad)?;
            encode_key(n, WireType::SixtyFourBit, &mut out);
            out.extend_from_slice(&d.to_le_bytes());
        }
        (FieldKind::Case(Case::Double), Value::String(s)) => {
            let d = match s.as_str() {
                "NaN" => f64::NAN,
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                _ => return Err(bad),
            };
            encode_key(n, WireType::SixtyFourBit, &mut out);
            out.extend_from_slice(&d.to_le_bytes());
        }
        (FieldKind::Object(m), v) => len_field(&mut out, n, &message(m, obj(v)?)?),
        (FieldKind::Case(Case::Bytes), Value::String(s)) => {
            len_field(&mut out, n, &super::base64_decode(s).ok_or(bad)?);
        }
        _ => return Err(bad),
    }
    Ok(out)
}

/// A string member; absent: empty.
fn string(v: Option<&Value>) -> Result<&str, ProtoError> {
    match v {
        None => Ok(""),
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(ProtoError::Json("expected a string")),
    }
}

/// An unsigned integer: a number, or a string Rust's `u64` parser takes;
/// absent: 0.
fn unsigned(v: Option<&Value>) -> Result<u64, ProtoError> {
    let bad = ProtoError::Json("expected an integer");
    match v {
        None => Ok(0),
        Some(Value::String(s)) => s.parse().map_err(|_| bad),
        Some(Value::Number(n)) => n.as_u64().ok_or(bad),
        Some(_) => Err(bad),
    }
}

fn u32_of(v: Option<&Value>) -> Result<u32, ProtoError> {
    u32::try_from(unsigned(v)?).map_err(|_| ProtoError::Json("expected a u32"))
}

/// An enum: one of its `names`, or a number up to `i32::MAX`.
fn enumeration(v: Option<&Value>, names: &[&str]) -> Result<u32, ProtoError> {
    let n = match v {
        Some(Value::String(s)) => names
            .iter()
            .position(|n| n == s)
            .ok_or(ProtoError::Json("unknown enum name"))?,
        _ => usize::try_from(unsigned(v)?).unwrap_or(usize::MAX),
    };
    i32::try_from(n)
        .ok()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or(ProtoError::Json("enum out of range"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use proptest::prelude::*;
    use prost::Message as _;
    use serde_json::Value;

    use super::super::encode::tests::{apply, bare_spans, count, edits, nth};
    use super::super::oracle::{
        decode_logs_prost, decode_traces_prost, encode_logs_prost, encode_traces_prost,
        export_prost,
    };
    use super::super::transcode::tests::{log_request, trace_request};
    use super::{export, logs, traces};

    /// Values a producer other than the gate may write where the mapping
    /// wants another (or the same) type: numbers with exponents, signs and
    /// fractions, strings for numbers, NaN and the infinities, ids and
    /// base64 of each kind, enum names.
    const ODD: &[&str] = &[
        "null",
        "true",
        "1e3",
        "1E2",
        "2.5e-3",
        "-0",
        "1.0",
        "-1",
        "7",
        "4294967295",
        "4294967296",
        "2147483648",
        "9223372036854775808",
        "18446744073709551615",
        "\"1e3\"",
        "\"+5\"",
        "\"-5\"",
        "\" 5\"",
        "\"007\"",
        "\"-9223372036854775808\"",
        "\"18446744073709551616\"",
        "\"NaN\"",
        "\"Infinity\"",
        "\"-Infinity\"",
        "\"nan\"",
        "\"\"",
        "\"AQID\"",
        "\"AQ-_\"",
        "\"AQ\"",
        "\"A\"",
        "\"0A0b\"",
        "\"abc\"",
        "\"SPAN_KIND_CLIENT\"",
        "\"STATUS_CODE_OK\"",
        "\"SEVERITY_NUMBER_FATAL4\"",
        "\"SEVERITY_NUMBER_NOPE\"",
        "{}",
        "[]",
        "[{}]",
        "{\"stringValue\":\"s\",\"intValue\":\"1\"}",
        "{\"intValue\":\"1\",\"stringValue\":\"s\"}",
        "{\"doubleValue\":\"Infinity\"}",
        "{\"doubleValue\":1e308}",
        "{\"bytesValue\":\"AQ==\"}",
        "{\"arrayValue\":{\"values\":[{\"boolValue\":false}]}}",
        "{\"kvlistValue\":{\"values\":[{\"key\":\"\"}]}}",
        "{\"arrayValue\":[]}",
        "{\"zz\":1}",
    ];

    /// A change to one node of a line's JSON, or to its text.
    #[derive(Debug, Clone)]
    enum Twist {
        /// The node replaced by one of [`ODD`].
        Replace(usize),
        /// An object's first member written twice, the first time with
        /// one of [`ODD`] as its value (serde_json keeps the last), or
        /// the second time (`true`).
        Duplicate(usize, bool),
    }

    fn twists() -> impl Strategy<Value = Vec<(usize, Twist)>> {
        let twist = prop_oneof![
            (0..ODD.len()).prop_map(Twist::Replace),
            ((0..ODD.len()), any::<bool>()).prop_map(|(i, last)| Twist::Duplicate(i, last)),
        ];
        proptest::collection::vec((any::<usize>(), twist), 1..4)
    }

    /// `v` as text, the object at preorder index `target` with its first
    /// member written twice.
    fn write(v: &Value, target: Option<(usize, usize, bool)>, seen: &mut usize, out: &mut String) {
        let me = *seen;
        *seen += 1;
        match v {
            Value::Object(o) => {
                out.push('{');
                let mut first = true;
                let mut member = |k: &str, text: &str, out: &mut String| {
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push(':');
                    out.push_str(text);
                };
                let mut members = o.iter();
                if let (Some((i, odd, last)), Some((k, x))) = (target, o.iter().next())
                    && i == me
                {
                    members.next();
                    let mut own = String::new();
                    write(x, None, seen, &mut own);
                    let (a, b) = if last {
                        (own.as_str(), ODD[odd])
                    } else {
                        (ODD[odd], own.as_str())
                    };
                    member(k, a, out);
                    member(k, b, out);
                }
                for (k, x) in members {
                    let mut text = String::new();
                    write(x, target, seen, &mut text);
                    member(k, &text, out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(x, target, seen, out);
                }
                out.push(']');
            }
            other => out.push_str(&serde_json::to_string(other).unwrap()),
        }
    }

    fn twisted(line: &[u8], twists: &[(usize, Twist)]) -> String {
        let mut v: Value = serde_json::from_slice(line).unwrap();
        let mut dup = None;
        for (at, t) in twists {
            let n = count(&v);
            match *t {
                Twist::Replace(i) => *nth(&mut v, at % n) = serde_json::from_str(ODD[i]).unwrap(),
                Twist::Duplicate(i, last) => dup = Some((at % n, i, last)),
            }
        }
        let mut out = String::new();
        write(&v, dup, &mut 0, &mut out);
        out
    }

    /// The lines of a trace and a logs request as the gate writes them,
    /// and each span of the first as a bare record.
    fn lines(t: &[u8], l: &[u8]) -> Vec<Vec<u8>> {
        let (t, l) = (
            decode_traces_prost(t).unwrap(),
            decode_logs_prost(l).unwrap(),
        );
        let spans = bare_spans(&t);
        let mut out = vec![t, l];
        out.extend(spans);
        out
    }

    /// Each of the three encoders against prost's on one line: the same
    /// bytes or the same error.
    fn same(line: &str) -> Result<(), TestCaseError> {
        prop_assert_eq!(traces(line), encode_traces_prost(line), "{}", line);
        prop_assert_eq!(logs(line), encode_logs_prost(line), "{}", line);
        prop_assert_eq!(
            export(line.as_bytes()),
            export_prost(line.as_bytes()),
            "{}",
            line
        );
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Lines as the gate writes them: prost's bytes.
        #[test]
        fn gate_lines_are_encoded_as_prost_encodes_them(
            t in trace_request(),
            l in log_request(),
        ) {
            for line in lines(&t.encode_to_vec(), &l.encode_to_vec()) {
                same(std::str::from_utf8(&line).unwrap())?;
            }
        }

        /// Lines edited the ways other producers and broken ones write
        /// them (the tape walk's edits: numbers as strings, escapes,
        /// unknown keys, a second `AnyValue` member, wrong types): prost's
        /// bytes, or its error.
        #[test]
        fn edited_lines_are_encoded_as_prost_encodes_them(
            t in trace_request(),
            l in log_request(),
            es in edits(),
        ) {
            for line in lines(&t.encode_to_vec(), &l.encode_to_vec()) {
                same(&apply(&line, &es))?;
            }
        }

        /// Lines with duplicate keys, exponents, signs, NaN and the
        /// infinities as strings, two-member values, odd ids and base64:
        /// prost's bytes, or its error.
        #[test]
        fn twisted_lines_are_encoded_as_prost_encodes_them(
            t in trace_request(),
            l in log_request(),
            ts in twists(),
        ) {
            for line in lines(&t.encode_to_vec(), &l.encode_to_vec()) {
                same(&twisted(&line, &ts))?;
            }
        }
    }

    /// The rules of the prost path spelled out, each held to it too.
    #[test]
    fn json_rules_are_the_prost_paths() {
        let span = |members: &str| {
            format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{{members}}}]}}]}}]}}"#)
        };
        let attr = |value: &str| span(&format!(r#""attributes":[{{"key":"k","value":{value}}}]"#));
        let ok = [
            span(r#""name":"a","name":"b""#),
            span(r#""kind":"SPAN_KIND_CLIENT","droppedAttributesCount":"+7""#),
            span(r#""startTimeUnixNano":"18446744073709551615""#),
            attr(r#"{"intValue":"+5","stringValue":"s"}"#),
            attr(r#"{"doubleValue":"-Infinity"}"#),
            attr(r#"{"doubleValue":1e3}"#),
            attr(r#"{"bytesValue":"AQ-_"}"#),
            attr(r#"{"kvlistValue":{"values":[{}],"zz":1}}"#),
            span(r#""traceId":"0A0B""#),
        ];
        for line in &ok {
            assert!(traces(line).is_ok(), "{line}");
            same(line).unwrap();
        }
        let refused = [
            (span(r#""kind":-1"#), "expected an integer"),
            (span(r#""kind":2147483648"#), "enum out of range"),
            (span(r#""kind":"SPAN_KIND_NOPE""#), "unknown enum name"),
            (
                span(r#""droppedAttributesCount":4294967296"#),
                "expected a u32",
            ),
            (span(r#""startTimeUnixNano":1e3"#), "expected an integer"),
            (span(r#""name":null"#), "expected a string"),
            (span(r#""traceId":"abc""#), "id is not hex"),
            (span(r#""status":[]"#), "expected an object"),
            (span(r#""events":{}"#), "expected an array"),
            (attr(r#"{"doubleValue":"nan"}"#), "invalid attribute value"),
            (
                attr(r#"{"aa":1,"stringValue":"s"}"#),
                "invalid attribute value",
            ),
            (attr(r#"{"arrayValue":[]}"#), "expected an object"),
        ];
        for (line, why) in &refused {
            assert_eq!(traces(line), Err(super::ProtoError::Json(why)), "{line}");
            same(line).unwrap();
        }
        // Fields read in the table's order: the first error met is the
        // prost path's.
        let two = span(r#""status":[],"traceId":"zz""#);
        assert_eq!(traces(&two), Err(super::ProtoError::Json("id is not hex")));
        same(&two).unwrap();
    }
}
