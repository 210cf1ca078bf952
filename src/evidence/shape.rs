//! Locating a shape error, on the cold path only.
//!
//! serde_json's error messages quote the offending value (`invalid type:
//! string "..."`), and carry no field path. So when the model does not fit, the
//! line is parsed once more into a `serde_json::Value` and walked by this
//! mirror of the model's type rules, which yields a path and a fixed message.
//! **Invariant:** this walk accepts exactly what `model.rs` accepts; the
//! tests in this file pin the two together.

use serde_json::{Map, Value};

use super::EvidenceShapeError;

/// What a field of the model must hold.
#[derive(Clone, Copy)]
enum Want {
    /// A string, or null or absent.
    OptString,
    /// A string, present.
    String,
    /// A non-negative integer that fits u64, or null or absent.
    OptU64,
    /// Any JSON number, present.
    Number,
}

const RECORD_FIELDS: &[(&str, Want)] = &[
    ("schema_version", Want::OptString),
    ("trace_id", Want::OptString),
    ("request_id", Want::OptString),
    ("attempt", Want::OptU64),
    ("route_id", Want::OptString),
    ("model_id", Want::OptString),
    ("clock_source", Want::OptString),
    ("sync_status", Want::OptString),
    ("status", Want::OptString),
    ("error_reason", Want::OptString),
    ("cancellation_reason", Want::OptString),
];

const EVENT_FIELDS: &[(&str, Want)] = &[
    ("event_name", Want::String),
    ("timestamp_utc", Want::OptString),
    ("monotonic_ns", Want::OptU64),
    ("service", Want::OptString),
];

const INTERVAL_FIELDS: &[(&str, Want)] = &[
    ("name", Want::String),
    ("start_event", Want::String),
    ("end_event", Want::String),
    ("duration", Want::Number),
    ("duration_unit", Want::OptString),
];

fn err(path: String, message: &'static str) -> EvidenceShapeError {
    EvidenceShapeError { path, message }
}

/// Finds where `line` does not fit the evidence model.
// SECURITY: messages are fixed strings and paths are built from schema keys
// and array positions only; no value of the record reaches the error.
pub(crate) fn locate(line: &str) -> EvidenceShapeError {
    let Ok(root) = serde_json::from_str::<Value>(line) else {
        return err(String::new(), "line is not valid json");
    };
    let Value::Object(map) = &root else {
        return err(String::new(), "record is not an object");
    };
    if let Some(e) = check_fields(map, "", RECORD_FIELDS) {
        return e;
    }
    for (key, fields) in [
        ("events", EVENT_FIELDS),
        ("derived_intervals", INTERVAL_FIELDS),
    ] {
        let Some(Value::Array(items)) = map.get(key) else {
            let message = if map.contains_key(key) {
                "expected an array"
            } else {
                "required field is missing"
            };
            return err(key.to_owned(), message);
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("{key}[{i}]");
            let Value::Object(obj) = item else {
                return err(path, "expected an object");
            };
            if let Some(e) = check_fields(obj, &path, fields) {
                return e;
            }
        }
    }
    err(String::new(), "record does not fit the evidence model")
}

fn check_fields(
    map: &Map<String, Value>,
    prefix: &str,
    fields: &[(&str, Want)],
) -> Option<EvidenceShapeError> {
    for &(name, want) in fields {
        let path = || {
            if prefix.is_empty() {
                name.to_owned()
            } else {
                format!("{prefix}.{name}")
            }
        };
        let value = map.get(name);
        let message = match (want, value) {
            (Want::OptString | Want::OptU64, None | Some(Value::Null)) => continue,
            (Want::OptString | Want::String, Some(Value::String(_))) => continue,
            (Want::OptU64, Some(v)) if v.as_u64().is_some() => continue,
            (Want::Number, Some(Value::Number(_))) => continue,
            (Want::String | Want::Number, None) => "required field is missing",
            (Want::OptString | Want::String, Some(_)) => "expected a string",
            (Want::OptU64, Some(_)) => "expected a non-negative integer",
            (Want::Number, Some(_)) => "expected a number",
        };
        return Some(err(path(), message));
    }
    None
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::super::model::Record;
    use super::*;

    /// Each case: (line, expected path). Every line is also rejected by the
    /// model, which keeps the walk and the model in step.
    const CASES: &[(&str, &str)] = &[
        (r#"[1]"#, ""),
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
            r#"{"events": [{"event_name": "a", "monotonic_ns": -1}], "derived_intervals": []}"#,
            "events[0].monotonic_ns",
        ),
        (
            r#"{"events": [{"event_name": "a", "monotonic_ns": 1.5}], "derived_intervals": []}"#,
            "events[0].monotonic_ns",
        ),
        (
            r#"{"events": [], "derived_intervals": [{"name": "x", "start_event": "a", "end_event": "b", "duration": "290"}]}"#,
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
            r#"{"status": 1, "events": [], "derived_intervals": []}"#,
            "status",
        ),
        (
            r#"{"schema_version": 1, "events": [], "derived_intervals": []}"#,
            "schema_version",
        ),
    ];

    #[test]
    fn walk_names_the_path_the_model_rejects() {
        for &(line, path) in CASES {
            assert!(serde_json::from_str::<Record<'_>>(line).is_err(), "{line}");
            assert_eq!(locate(line).path, path, "{line}");
        }
    }

    #[test]
    fn walk_accepts_what_the_model_accepts() {
        let line = r#"{"attempt": null, "status": "x", "events": [{"event_name": "a", "monotonic_ns": 5}],
            "derived_intervals": [{"name": "n", "start_event": "a", "end_event": "a", "duration": 1.5}]}"#;
        assert!(serde_json::from_str::<Record<'_>>(line).is_ok());
        assert_eq!(locate(line).path, "");
    }
}
