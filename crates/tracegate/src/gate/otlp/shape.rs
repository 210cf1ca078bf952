//! Whether an OTLP/JSON line is the shape of an export request at all,
//! before anything in it is judged.
//!
//! The OTLP specification answers a request that is not a well-formed
//! `ExportTraceServiceRequest` / `ExportLogsServiceRequest` with HTTP 400
//! (gRPC `INVALID_ARGUMENT`); a protobuf body whose wire types do not fit
//! the messages does not decode at all. The JSON mapping is looser on the
//! wire, so this walk holds a request line to the same shape, driven by
//! the [`schema`](super::schema) tables the gate judges by: the top level
//! holds only the signal's member (`resourceSpans` or `resourceLogs`);
//! every member the schema knows has the JSON kind the protobuf JSON
//! mapping gives its type (a list is an array of objects, a message an
//! object, an id or a name a string, a count or a timestamp a number or
//! a string of one, `null` nowhere); attribute lists are arrays of
//! `{"key": string, "value": AnyValue}`. Members the schema does not know
//! are left to the gate, which strips them with a finding (the
//! specification's "ignore unknown fields"), except at the top level,
//! where nothing but the request's one list is an export request.
//!
//! **Invariant:** a line this walk refuses is malformed for every sink:
//! nothing of it is written (`{"resourceSpans": 5}` is not a record with
//! one unknown field to strip, it is not a request).
//!
//! SECURITY: the error names a path built from schema names and indexes
//! and a fixed phrase; never a key or a value of the line.

use std::fmt::Write as _;

use super::schema::{FieldKind, Message, REQUEST};
use crate::otlp_schema;
use crate::otlp_schema::{ANY_VALUE, Case, KEY_VALUE};
use crate::record::otlp_proto::bounds::Signal;
use crate::record::tape::{Kind, Tape, string_value};

/// Why a line is not an OTLP export request: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    /// The path of the member, from schema names and indexes
    /// (`resourceSpans[0].scopeSpans`); empty for the line itself.
    pub path: String,
    /// What was wrong there: a fixed phrase.
    pub problem: String,
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "`{}`: {}", self.path, self.problem)
        }
    }
}

/// The request member of `signal`.
pub fn request_member(signal: Signal) -> &'static str {
    match signal {
        Signal::Traces => "resourceSpans",
        Signal::Logs => "resourceLogs",
    }
}

/// Check that the line on `tape` (whose text is `text`) is an export
/// request: of `signal` when given, else of either signal but one only.
pub fn check_request(tape: &Tape, text: &str, signal: Option<Signal>) -> Result<(), ShapeError> {
    let tokens = tape.tokens();
    if tokens.first().map(|t| t.kind) != Some(Kind::Object) {
        return Err(ShapeError {
            path: String::new(),
            problem: "not an object".into(),
        });
    }
    let mut w = Walk {
        tape,
        text,
        path: String::new(),
    };
    let mut seen: Option<&'static str> = None;
    for (k, v) in tape.members(0) {
        let key = string_value(text, &tokens[k]);
        // SECURITY: the unknown key itself is never shown.
        let Some(otlp_schema::Field {
            key: name,
            kind: field,
            ..
        }) = REQUEST.field(&key)
        else {
            return Err(ShapeError {
                path: String::new(),
                problem: format!("a top-level member other than {}", wanted(signal)),
            });
        };
        if signal.is_some_and(|s| request_member(s) != *name) || seen.is_some_and(|s| s != *name) {
            return Err(ShapeError {
                path: String::new(),
                problem: format!(
                    "a top-level member other than {}",
                    wanted(signal.or(match seen {
                        Some("resourceLogs") => Some(Signal::Logs),
                        _ => Some(Signal::Traces),
                    }))
                ),
            });
        }
        seen = Some(name);
        w.path.push_str(name);
        w.field(*field, v)?;
        w.path.clear();
    }
    Ok(())
}

/// The top-level member(s) a request may hold, for a message.
fn wanted(signal: Option<Signal>) -> &'static str {
    match signal {
        Some(Signal::Traces) => "`resourceSpans`",
        Some(Signal::Logs) => "`resourceLogs`",
        None => "`resourceSpans` or `resourceLogs`",
    }
}

struct Walk<'a> {
    tape: &'a Tape,
    text: &'a str,
    /// The path of the value being checked.
    path: String,
}

impl Walk<'_> {
    fn kind(&self, v: usize) -> Kind {
        // The tape's indexes come from its own iterators: always in range.
        self.tape.tokens().get(v).map_or(Kind::Null, |t| t.kind)
    }

    fn wrong(&self, expected: &str, v: usize) -> ShapeError {
        ShapeError {
            path: self.path.clone(),
            problem: format!(
                "expected {expected}, found {}",
                crate::gate::verify::kind_name(self.kind(v))
            ),
        }
    }

    /// Check value `v` of a member whose schema rule is `field`.
    fn field(&mut self, field: FieldKind, v: usize) -> Result<(), ShapeError> {
        let kind = self.kind(v);
        match field {
            FieldKind::Hex(_)
            | FieldKind::Text(_)
            | FieldKind::Rule(_)
            | FieldKind::TraceState
            | FieldKind::SpanName
            | FieldKind::Key
            | FieldKind::Case(Case::String | Case::Bytes) => {
                self.expect(kind == Kind::String, "a string", v)
            }
            FieldKind::Case(Case::Bool) => {
                self.expect(matches!(kind, Kind::True | Kind::False), "a boolean", v)
            }
            FieldKind::Nanos
            | FieldKind::Uint32
            | FieldKind::Flags(_)
            | FieldKind::Enum(_)
            | FieldKind::Case(Case::Int | Case::Double) => self.expect(
                matches!(kind, Kind::Number | Kind::String),
                "a number or a string",
                v,
            ),
            FieldKind::Attributes(_) | FieldKind::Pairs => {
                self.list(v, &mut |w, el| w.object(&KEY_VALUE, el))
            }
            FieldKind::Body | FieldKind::Value => self.object(&ANY_VALUE, v),
            FieldKind::Values => self.list(v, &mut |w, el| w.object(&ANY_VALUE, el)),
            FieldKind::Object(schema) => self.object(schema, v),
            FieldKind::Array(schema, _) => self.list(v, &mut |w, el| w.object(schema, el)),
        }
    }

    fn expect(&self, ok: bool, expected: &str, v: usize) -> Result<(), ShapeError> {
        if ok {
            Ok(())
        } else {
            Err(self.wrong(expected, v))
        }
    }

    /// An array whose every element passes `each`.
    fn list(
        &mut self,
        v: usize,
        each: &mut dyn FnMut(&mut Self, usize) -> Result<(), ShapeError>,
    ) -> Result<(), ShapeError> {
        self.expect(self.kind(v) == Kind::Array, "an array", v)?;
        let mark = self.path.len();
        for (i, el) in self.tape.elements(v).enumerate() {
            let _ = write!(self.path, "[{i}]");
            each(self, el)?;
            self.path.truncate(mark);
        }
        Ok(())
    }

    /// A message of `schema`: its known members, each of its kind.
    fn object(&mut self, schema: &'static Message, v: usize) -> Result<(), ShapeError> {
        self.expect(self.kind(v) == Kind::Object, "an object", v)?;
        let tokens = self.tape.tokens();
        let mark = self.path.len();
        for (k, m) in self.tape.members(v) {
            let key = string_value(self.text, &tokens[k]);
            // Unknown members are the gate's (an `unknown_field` strip).
            let Some(otlp_schema::Field {
                key: name,
                kind: field,
                ..
            }) = schema.field(&key)
            else {
                continue;
            };
            self.path.push('.');
            self.path.push_str(name);
            self.field(*field, m)?;
            self.path.truncate(mark);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn check(line: &str, signal: Option<Signal>) -> Result<(), String> {
        let mut tape = Tape::new();
        let text = tape.scan(line.as_bytes()).unwrap();
        check_request(&tape, text, signal).map_err(|e| e.to_string())
    }

    const SPAN: &str = r#"{"traceId":"5b8efff798038103d269b633813fc601","spanId":"0101010101010101","name":"n","kind":1,"startTimeUnixNano":"1","endTimeUnixNano":2,"attributes":[{"key":"a","value":{"arrayValue":{"values":[{"intValue":"1"},{"kvlistValue":{"values":[{"key":"b","value":{"boolValue":true}}]}}]}}}],"events":[{"name":"e","attributes":[]}],"links":[{"traceId":"","attributes":[]}],"status":{"code":"STATUS_CODE_OK"}}"#;

    fn traces(spans: &str) -> String {
        format!(
            r#"{{"resourceSpans":[{{"resource":{{"attributes":[]}},"scopeSpans":[{{"scope":{{"name":"s"}},"spans":[{spans}]}}]}}]}}"#
        )
    }

    #[test]
    fn export_requests_pass_and_unknown_inner_members_are_left_to_the_gate() {
        for line in [
            traces(SPAN),
            traces(""),
            r#"{"resourceSpans":[]}"#.to_string(),
            "{}".to_string(),
            traces(r#"{"name":"n","futureField":{"x":[1]}}"#),
        ] {
            assert_eq!(check(&line, None), Ok(()), "{line}");
            assert_eq!(check(&line, Some(Signal::Traces)), Ok(()), "{line}");
        }
        let logs = r#"{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"kvlistValue":{"values":[]}},"severityNumber":9,"attributes":[{"key":"k","value":{"doubleValue":"NaN"}}]}]}]}]}"#;
        assert_eq!(check(logs, Some(Signal::Logs)), Ok(()));
        assert!(check(logs, Some(Signal::Traces)).is_err());
    }

    #[test]
    fn every_level_of_the_wrong_shape_is_refused_with_its_path() {
        let cases = [
            (
                r#"{"resourceSpans":5}"#.to_string(),
                "`resourceSpans`: expected an array, found number",
            ),
            (
                r#"{"resourceSpan":[]}"#.to_string(),
                "a top-level member other than `resourceSpans` or `resourceLogs`",
            ),
            (
                r#"{"resourceSpans":[],"resourceLogs":[]}"#.to_string(),
                "a top-level member other than `resourceSpans`",
            ),
            (
                r#"{"resourceSpans":null}"#.to_string(),
                "`resourceSpans`: expected an array, found null",
            ),
            (
                r#"{"resourceSpans":[5]}"#.to_string(),
                "`resourceSpans[0]`: expected an object, found number",
            ),
            (
                r#"{"resourceSpans":[{"resource":[]}]}"#.to_string(),
                "`resourceSpans[0].resource`: expected an object, found array",
            ),
            (
                r#"{"resourceSpans":[{"scopeSpans":{}}]}"#.to_string(),
                "`resourceSpans[0].scopeSpans`: expected an array, found object",
            ),
            (
                traces("7"),
                "`resourceSpans[0].scopeSpans[0].spans[0]`: expected an object, found number",
            ),
            (
                traces(r#"{"name":5}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].name`: expected a string, found number",
            ),
            (
                traces(r#"{"kind":true}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].kind`: expected a number or a string, found boolean",
            ),
            (
                traces(r#"{"attributes":{}}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].attributes`: expected an array, found object",
            ),
            (
                traces(r#"{"attributes":[{"key":1}]}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].attributes[0].key`: expected a string, found number",
            ),
            (
                traces(r#"{"attributes":[{"key":"k","value":{"stringValue":[]}}]}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.stringValue`: expected a string, found array",
            ),
            (
                traces(
                    r#"{"attributes":[{"key":"k","value":{"kvlistValue":{"values":[{"key":"x","value":{"boolValue":"yes"}}]}}}]}"#,
                ),
                "`resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.kvlistValue.values[0].value.boolValue`: expected a boolean, found string",
            ),
            (
                traces(r#"{"events":[{"attributes":5}]}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].events[0].attributes`: expected an array, found number",
            ),
            (
                traces(r#"{"status":"ok"}"#),
                "`resourceSpans[0].scopeSpans[0].spans[0].status`: expected an object, found string",
            ),
        ];
        for (line, want) in cases {
            assert_eq!(check(&line, None), Err(want.to_string()), "{line}");
        }
        assert_eq!(
            check(r#"{"resourceLogs":[]}"#, Some(Signal::Traces)),
            Err("a top-level member other than `resourceSpans`".into())
        );
    }

    proptest::proptest! {
        /// No key or value of a refused line reaches the error.
        #[test]
        fn errors_never_echo_the_line(
            key in "Zq[a-z]{6,10}",
            value in "Qz[a-z]{6,10}",
        ) {
            for line in [
                format!(r#"{{"{key}":"{value}"}}"#),
                format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"{key}":1,"name":["{value}"]}}]}}]}}]}}"#),
                format!(r#"{{"resourceSpans":"{value}"}}"#),
            ] {
                let e = check(&line, None).unwrap_err();
                proptest::prop_assert!(!e.contains(&key) && !e.contains(&value), "{}", e);
            }
        }
    }
}
