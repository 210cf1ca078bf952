//! The auditor's view of one `latency-evidence.v1` record: byte ranges of
//! the line, not copies, in buffers reused from record to record.
//!
//! A [`Record`] is filled either by the evidence fast path
//! ([`super::fast`], one pass over the bytes while the allowlist is
//! checked) or from the tape the gate already built ([`Record::fill_from_tape`]).
//! Neither parses the line a second time. Strings are [`Str`] ranges of the
//! line; a string that held JSON escapes is decoded once into the record's
//! own buffer and its range points there.
//!
//! Fields that the auditor does not read (span ids, region, deployment,
//! component, stage, ...) are ignored here: keeping them, with their types
//! and constraints, is the standard allowlist's job (`default_policy.toml`).
//!
//! Required by the model (absent or mistyped is a shape error): `events`,
//! `derived_intervals`, and per event `event_name`, per interval `name`,
//! `start_event`, `end_event`, `duration`. Everything else is optional, and
//! its absence is judged by the checks. The order in which shape errors are
//! looked for (record fields, then every event, then every interval) is
//! fixed, so a record with several problems always names the same one.

use crate::gate::fast::parse_u64;
use crate::record::tape::{Kind, Tape, Token, raw, raw_contents};

use super::EvidenceShapeError;

/// A string of the record: a byte range of the line, or of the record's
/// decode buffer when the string held escapes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Str {
    pub start: u32,
    pub end: u32,
    pub decoded: bool,
}

/// The top-level string fields the auditor reads, by slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Top {
    SchemaVersion,
    TraceId,
    RequestId,
    RouteId,
    ModelId,
    ClockSource,
    SyncStatus,
    Status,
    ErrorReason,
    CancellationReason,
}

/// Number of [`Top`] slots.
pub(crate) const TOP_SLOTS: usize = 10;

/// What a field of the model must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// A string, or null or absent.
    OptString,
    /// A string, present.
    String,
    /// A non-negative integer that fits u64, or null or absent.
    OptU64,
    /// A finite JSON number, present.
    Number,
    /// An array of objects, present.
    Array,
}

/// Where a field's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Top(Top),
    Attempt,
    Events,
    Intervals,
    EventName,
    EventUtc,
    EventMono,
    EventService,
    IvName,
    IvStart,
    IvEnd,
    IvDuration,
    IvUnit,
}

/// The record's own fields, in the order shape errors are looked for.
pub(crate) const RECORD_FIELDS: &[(&str, Want, Slot)] = &[
    (
        "schema_version",
        Want::OptString,
        Slot::Top(Top::SchemaVersion),
    ),
    ("trace_id", Want::OptString, Slot::Top(Top::TraceId)),
    ("request_id", Want::OptString, Slot::Top(Top::RequestId)),
    ("attempt", Want::OptU64, Slot::Attempt),
    ("route_id", Want::OptString, Slot::Top(Top::RouteId)),
    ("model_id", Want::OptString, Slot::Top(Top::ModelId)),
    ("clock_source", Want::OptString, Slot::Top(Top::ClockSource)),
    ("sync_status", Want::OptString, Slot::Top(Top::SyncStatus)),
    ("status", Want::OptString, Slot::Top(Top::Status)),
    ("error_reason", Want::OptString, Slot::Top(Top::ErrorReason)),
    (
        "cancellation_reason",
        Want::OptString,
        Slot::Top(Top::CancellationReason),
    ),
    ("events", Want::Array, Slot::Events),
    ("derived_intervals", Want::Array, Slot::Intervals),
];

/// An event's fields.
pub(crate) const EVENT_FIELDS: &[(&str, Want, Slot)] = &[
    ("event_name", Want::String, Slot::EventName),
    ("timestamp_utc", Want::OptString, Slot::EventUtc),
    ("monotonic_ns", Want::OptU64, Slot::EventMono),
    ("service", Want::OptString, Slot::EventService),
];

/// A derived interval's fields.
pub(crate) const INTERVAL_FIELDS: &[(&str, Want, Slot)] = &[
    ("name", Want::String, Slot::IvName),
    ("start_event", Want::String, Slot::IvStart),
    ("end_event", Want::String, Slot::IvEnd),
    ("duration", Want::Number, Slot::IvDuration),
    ("duration_unit", Want::OptString, Slot::IvUnit),
];

/// A raw, point-in-time boundary event.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Event {
    pub name: Str,
    pub utc: Option<Str>,
    pub mono: Option<u64>,
    pub service: Option<Str>,
}

/// A derived duration that names its start and end events.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Interval {
    pub name: Str,
    pub start: Str,
    pub end: Str,
    pub duration: f64,
    pub unit: Option<Str>,
}

/// One evidence record as ranges; reused from record to record.
#[derive(Default)]
pub struct Record {
    pub(crate) top: [Option<Str>; TOP_SLOTS],
    pub(crate) attempt: Option<u64>,
    pub(crate) events: Vec<Event>,
    pub(crate) intervals: Vec<Interval>,
    /// Strings that held escapes, decoded, end to end.
    pub(crate) decoded: String,
}

// SECURITY: hand-written so that `{:?}` never prints anything of the record.
crate::io_text::debug_as!(Record, |r| "Record" {
    events: r.events.len(),
    intervals: r.intervals.len(),
    ..
});

impl Record {
    /// Forget the last record, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.top = [None; TOP_SLOTS];
        self.attempt = None;
        self.events.clear();
        self.intervals.clear();
        self.decoded.clear();
    }

    /// The bytes of `s`: of `line`, or of the decode buffer.
    pub(crate) fn bytes<'a>(&'a self, line: &'a [u8], s: Str) -> &'a [u8] {
        let src = if s.decoded {
            self.decoded.as_bytes()
        } else {
            line
        };
        src.get(s.start as usize..s.end as usize).unwrap_or(b"")
    }

    /// A top-level string slot.
    pub(crate) fn top(&self, t: Top) -> Option<Str> {
        self.top[t as usize]
    }

    /// Fill from the tape of a scanned line. On a shape error the record is
    /// left half-filled and must not be audited.
    // SECURITY: shape errors carry schema keys, positions and fixed
    // messages only; no value of the record reaches them.
    pub(crate) fn fill_from_tape(
        &mut self,
        text: &str,
        tape: &Tape,
    ) -> Result<(), EvidenceShapeError> {
        self.clear();
        let tokens = tape.tokens();
        if tokens.first().map(|t| t.kind) != Some(Kind::Object) {
            return Err(err(String::new(), "record is not an object"));
        }
        let mut found = [None::<usize>; 13];
        for (k, v) in tape.members(0) {
            if let Some(i) = field_index(text, &tokens[k], RECORD_FIELDS) {
                found[i] = Some(v);
            }
        }
        for (i, &(name, want, slot)) in RECORD_FIELDS.iter().enumerate() {
            if want == Want::Array {
                continue;
            }
            let value = found[i].map(|v| &tokens[v]);
            match fit(text, value, want).map_err(|m| err(name.to_owned(), m))? {
                Fitted::None => {}
                Fitted::Str(t) => {
                    let s = self.string(text, t);
                    if let Slot::Top(top) = slot {
                        self.top[top as usize] = Some(s);
                    }
                }
                Fitted::U64(n) => self.attempt = Some(n),
                Fitted::Number(_) => {}
            }
        }
        for (key, fi, fields) in [
            ("events", 11, EVENT_FIELDS),
            ("derived_intervals", 12, INTERVAL_FIELDS),
        ] {
            let Some(arr) = found[fi] else {
                return Err(err(key.to_owned(), "required field is missing"));
            };
            if tokens[arr].kind != Kind::Array {
                return Err(err(key.to_owned(), "expected an array"));
            }
            for (j, el) in tape.elements(arr).enumerate() {
                if tokens[el].kind != Kind::Object {
                    return Err(err(format!("{key}[{j}]"), "expected an object"));
                }
                let mut at = [None::<usize>; 5];
                for (k, v) in tape.members(el) {
                    if let Some(i) = field_index(text, &tokens[k], fields) {
                        at[i] = Some(v);
                    }
                }
                let mut event = Event::default();
                let mut iv = Interval::default();
                for (i, &(name, want, slot)) in fields.iter().enumerate() {
                    let fitted = fit(text, at[i].map(|v| &tokens[v]), want)
                        .map_err(|m| err(format!("{key}[{j}].{name}"), m))?;
                    let s = match fitted {
                        Fitted::Str(t) => Some(self.string(text, t)),
                        _ => None,
                    };
                    match (slot, fitted) {
                        (Slot::EventName, _) => event.name = s.unwrap_or_default(),
                        (Slot::EventUtc, _) => event.utc = s,
                        (Slot::EventMono, Fitted::U64(n)) => event.mono = Some(n),
                        (Slot::EventService, _) => event.service = s,
                        (Slot::IvName, _) => iv.name = s.unwrap_or_default(),
                        (Slot::IvStart, _) => iv.start = s.unwrap_or_default(),
                        (Slot::IvEnd, _) => iv.end = s.unwrap_or_default(),
                        (Slot::IvDuration, Fitted::Number(d)) => iv.duration = d,
                        (Slot::IvUnit, _) => iv.unit = s,
                        _ => {}
                    }
                }
                if fi == 11 {
                    self.events.push(event);
                } else {
                    self.intervals.push(iv);
                }
            }
        }
        Ok(())
    }

    /// The range of string token `t`, decoding it when it holds escapes.
    fn string(&mut self, text: &str, t: &Token) -> Str {
        if !t.escaped {
            return Str {
                start: t.start + 1,
                end: t.end.saturating_sub(1),
                decoded: false,
            };
        }
        let start = self.decoded.len() as u32;
        let value = crate::record::tape::string_value(text, t);
        self.decoded.push_str(&value);
        Str {
            start,
            end: self.decoded.len() as u32,
            decoded: true,
        }
    }
}

fn err(path: String, message: &'static str) -> EvidenceShapeError {
    EvidenceShapeError { path, message }
}

/// The index in `fields` of the key token `k`, compared after unescaping.
fn field_index(text: &str, k: &Token, fields: &[(&str, Want, Slot)]) -> Option<usize> {
    if k.escaped {
        let name = crate::record::tape::string_value(text, k);
        return fields.iter().position(|f| f.0 == name);
    }
    let name = raw_contents(text, k);
    fields.iter().position(|f| f.0 == name)
}

/// A value that fits its [`Want`].
enum Fitted<'t> {
    None,
    Str(&'t Token),
    U64(u64),
    Number(f64),
}

/// Whether `value` fits `want`; the fixed message when it does not.
fn fit<'t>(text: &str, value: Option<&'t Token>, want: Want) -> Result<Fitted<'t>, &'static str> {
    let Some(t) = value else {
        return match want {
            Want::OptString | Want::OptU64 => Ok(Fitted::None),
            _ => Err("required field is missing"),
        };
    };
    match (want, t.kind) {
        (Want::OptString | Want::OptU64, Kind::Null) => Ok(Fitted::None),
        (Want::OptString | Want::String, Kind::String) => Ok(Fitted::Str(t)),
        (Want::OptString | Want::String, _) => Err("expected a string"),
        (Want::OptU64, Kind::Number) => parse_u64(raw(text, t).as_bytes())
            .map(Fitted::U64)
            .ok_or("expected a non-negative integer"),
        (Want::OptU64, _) => Err("expected a non-negative integer"),
        (Want::Number, Kind::Number) => match parse_f64(raw(text, t).as_bytes()) {
            Some(d) => Ok(Fitted::Number(d)),
            None => Err("number is out of range"),
        },
        (Want::Number, _) => Err("expected a number"),
        (Want::Array, Kind::Array) => Ok(Fitted::None),
        (Want::Array, _) => Err("expected an array"),
    }
}

/// A grammar-checked JSON number literal as a finite f64 (correctly
/// rounded). Short integers, the common case, skip the float parser.
pub(crate) fn parse_f64(b: &[u8]) -> Option<f64> {
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) {
        // Fewer than 2^53: exact as f64.
        let n = parse_u64(digits)? as f64;
        return Some(if neg { -n } else { n });
    }
    let v: f64 = std::str::from_utf8(b).ok()?.parse().ok()?;
    v.is_finite().then_some(v)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn shape(line: &str) -> Result<Record, EvidenceShapeError> {
        let mut tape = Tape::new();
        let text = tape.scan(line.as_bytes()).unwrap();
        let mut rec = Record::default();
        rec.fill_from_tape(text, &tape).map(|()| rec)
    }

    /// Each case: (line, expected path): the paths the serde model and its
    /// shape walk named before the model read the tape.
    const CASES: &[(&str, &str)] = &[
        (r#"{"derived_intervals": []}"#, "events"),
        (r#"{"events": {}, "derived_intervals": []}"#, "events"),
        (
            r#"{"events": [], "derived_intervals": null}"#,
            "derived_intervals",
        ),
        (r#"{"events": [1], "derived_intervals": []}"#, "events[0]"),
        (
            r#"{"events": [{"event_name": 3}], "derived_intervals": []}"#,
            "events[0].event_name",
        ),
        (
            r#"{"events": [{"event_name": null}], "derived_intervals": []}"#,
            "events[0].event_name",
        ),
        (
            r#"{"events": [{"event_name": "a", "monotonic_ns": -1}], "derived_intervals": []}"#,
            "events[0].monotonic_ns",
        ),
        (
            r#"{"events": [{"event_name": "a", "monotonic_ns": 1.5}], "derived_intervals": []}"#,
            "events[0].monotonic_ns",
        ),
        (
            r#"{"events": [{"event_name": "a", "monotonic_ns": 18446744073709551616}], "derived_intervals": []}"#,
            "events[0].monotonic_ns",
        ),
        (
            r#"{"events": [], "derived_intervals": [{"name": "x", "start_event": "a", "end_event": "b", "duration": "290"}]}"#,
            "derived_intervals[0].duration",
        ),
        (
            r#"{"events": [], "derived_intervals": [{"name": "x", "start_event": "a", "end_event": "b", "duration": 1e400}]}"#,
            "derived_intervals[0].duration",
        ),
        (
            r#"{"events": [], "derived_intervals": [{"name": "x", "start_event": "a", "duration": 1}]}"#,
            "derived_intervals[0].end_event",
        ),
        (
            r#"{"attempt": "2", "events": [], "derived_intervals": []}"#,
            "attempt",
        ),
        (
            r#"{"attempt": -0, "events": [], "derived_intervals": []}"#,
            "attempt",
        ),
        (
            r#"{"status": 1, "events": [], "derived_intervals": []}"#,
            "status",
        ),
        (
            r#"{"schema_version": 1, "events": [], "derived_intervals": []}"#,
            "schema_version",
        ),
        // Record fields are looked at before events, events before intervals.
        (
            r#"{"events": [1], "derived_intervals": [2], "status": 1}"#,
            "status",
        ),
        (r#"{"derived_intervals": [2], "events": [1]}"#, "events[0]"),
    ];

    #[test]
    fn shape_errors_name_the_path() {
        for &(line, path) in CASES {
            match shape(line) {
                Err(e) => assert_eq!(e.path, path, "{line}"),
                Ok(_) => panic!("accepted {line}"),
            }
        }
    }

    #[test]
    fn escaped_strings_are_decoded_once_and_plain_ones_borrowed() {
        let line = r#"{"trace_id": "t\u005f1", "request_id": "r_1", "attempt": 7, "events": [{"event_name": "a\u0062", "monotonic_ns": 5}], "derived_intervals": [{"name": "n", "start_event": "ab", "end_event": "ab", "duration": 1.5}]}"#;
        let rec = shape(line).unwrap();
        let b = line.as_bytes();
        let trace = rec.top(Top::TraceId).unwrap();
        assert!(trace.decoded);
        assert_eq!(rec.bytes(b, trace), b"t_1");
        let req = rec.top(Top::RequestId).unwrap();
        assert!(!req.decoded);
        assert_eq!(rec.bytes(b, req), b"r_1");
        assert_eq!(rec.attempt, Some(7));
        assert_eq!(rec.bytes(b, rec.events[0].name), b"ab");
        assert_eq!(rec.events[0].mono, Some(5));
        assert_eq!(rec.intervals[0].duration, 1.5);
        assert!(rec.intervals[0].unit.is_none());
    }

    #[test]
    fn number_parsers_agree_with_std() {
        use proptest::prelude::*;
        proptest!(|(n in any::<u64>())| {
            prop_assert_eq!(parse_u64(n.to_string().as_bytes()), Some(n));
        });
        proptest!(|(x in any::<f64>().prop_filter("finite", |x| x.is_finite()), int in any::<i64>())| {
            let s = serde_json::to_string(&x).unwrap();
            prop_assert_eq!(parse_f64(s.as_bytes()), s.parse::<f64>().ok());
            let s = int.to_string();
            prop_assert_eq!(parse_f64(s.as_bytes()), s.parse::<f64>().ok());
        });
        // Any bytes around the digits (the neighbours of `0` and `9`), at
        // every length around the 19 digits that cannot overflow.
        proptest!(|(s in "[0-9/:a]{0,22}|[0-9]{17,22}|1844674407370955161[0-9]")| {
            let want = if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) { s.parse::<u64>().ok() } else { None };
            prop_assert_eq!(parse_u64(s.as_bytes()), want, "{}", s);
        });
        assert_eq!(parse_u64(b"18446744073709551616"), None);
        assert_eq!(
            parse_u64(b"9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        assert_eq!(parse_u64(b"99999999999999999999"), None);
        assert_eq!(parse_u64(b"1e3"), None);
        assert_eq!(parse_f64(b"1e400"), None);
        assert_eq!(parse_f64(b"-0"), Some(-0.0));
    }
}
