//! A cf record as the OTLP span the record's own documentation describes
//! it as (one span named `llm_request`), for sinks that carry only OTLP
//! (`otlp+http://`, `otlp+grpc://`, ...).
//!
//! | cf field | span |
//! |---|---|
//! | `t_arrival`, `t_completion` (Unix seconds) | `startTimeUnixNano`, `endTimeUnixNano` (to the microsecond) |
//! | `request_id` | `cf.request_id`; the span's `traceId` and `spanId` are derived from it (SHA-256), so one request is one span whatever path it took |
//! | `prompt_tokens`, `output_tokens` | `gen_ai.usage.prompt_tokens`, `gen_ai.usage.completion_tokens` |
//! | `e2e_latency_s`, `queue_wait_s`, `ttft_s`, `priority_score` | `cf.e2e_latency_s`, `cf.queue_wait_s`, `cf.ttft_s`, `cf.priority_score` |
//! | `scheduler_family` | `cf.scheduler.family` |
//! | `prompt_text`, `output_text` (full level only) | `gen_ai.prompt`, `gen_ai.completion` |
//! | any other scalar field `x` | `cf.x` |
//!
//! `null` fields, nested values and non-finite numbers are left out. The
//! resource is `service.name = "carbonforge-scheduler"`, the scope
//! `tracegate`.
//!
//! SECURITY: this converts a record the sink's gate already judged (its
//! standard projection, or its full form with content redacted); the span
//! it makes is then judged again by the same gate, at the same level,
//! against the sink's OTLP allowlist (`serve`'s pipeline), so a converted
//! span carries nothing that the OTLP allowlist would not let through.
//! Nothing here logs or reports a value.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// The span name of a converted cf record.
pub const SPAN_NAME: &str = "llm_request";
/// The `service.name` of a converted cf record's resource.
pub const SERVICE_NAME: &str = "carbonforge-scheduler";

/// The OTLP/JSON export request (one line, no line end) that carries the
/// cf record `record` as one span; `None` when `record` is not a JSON
/// object.
pub fn export_line(record: &[u8]) -> Option<Vec<u8>> {
    let Value::Object(fields) = serde_json::from_slice::<Value>(record).ok()? else {
        return None;
    };
    let mut span = Map::new();
    if let Some(Value::String(id)) = fields.get("request_id") {
        // Same request, same ids: a record sent twice is one span twice,
        // not two spans. The id is already in the span as `cf.request_id`
        // (or its pseudonym), so its hash tells nothing more.
        let h = Sha256::new()
            .chain_update(b"tracegate cf span\0")
            .chain_update(id.as_bytes())
            .finalize();
        span.insert("traceId".into(), Value::String(hex::encode(&h[..16])));
        span.insert("spanId".into(), Value::String(hex::encode(&h[16..24])));
    }
    span.insert("name".into(), Value::String(SPAN_NAME.into()));
    span.insert("kind".into(), json!(1));
    for (field, key) in [
        ("t_arrival", "startTimeUnixNano"),
        ("t_completion", "endTimeUnixNano"),
    ] {
        if let Some(ns) = fields.get(field).and_then(unix_nanos) {
            span.insert(key.into(), Value::String(ns.to_string()));
        }
    }
    let attributes: Vec<Value> = fields
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "t_arrival" | "t_completion"))
        .filter_map(|(k, v)| Some(json!({"key": attribute_key(k), "value": any_value(k, v)?})))
        .collect();
    span.insert("attributes".into(), Value::Array(attributes));
    let export = json!({"resourceSpans": [{
        "resource": {"attributes": [
            {"key": "service.name", "value": {"stringValue": SERVICE_NAME}}
        ]},
        "scopeSpans": [{"scope": {"name": "tracegate"}, "spans": [Value::Object(span)]}]
    }]});
    serde_json::to_vec(&export).ok()
}

/// The attribute a cf field becomes.
fn attribute_key(field: &str) -> String {
    match field {
        "prompt_tokens" => "gen_ai.usage.prompt_tokens".into(),
        "output_tokens" => "gen_ai.usage.completion_tokens".into(),
        "scheduler_family" => "cf.scheduler.family".into(),
        "prompt_text" => "gen_ai.prompt".into(),
        "output_text" => "gen_ai.completion".into(),
        other => format!("cf.{other}"),
    }
}

/// The OTLP `AnyValue` of a scalar; `None` for `null`, nested values and
/// numbers OTLP cannot hold.
fn any_value(field: &str, v: &Value) -> Option<Value> {
    match v {
        Value::String(s) => Some(json!({"stringValue": s})),
        Value::Bool(b) => Some(json!({"boolValue": b})),
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            // Token counts are integers in the record and in the span.
            Some(json!({"intValue": n.to_string()}))
        }
        Value::Number(n) => {
            let f = n.as_f64().filter(|f| f.is_finite())?;
            if matches!(field, "prompt_tokens" | "output_tokens") && f.fract() == 0.0 {
                // A count written `412.0` is still a count.
                Some(json!({"intValue": (f as i64).to_string()}))
            } else {
                Some(json!({"doubleValue": f}))
            }
        }
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// Unix seconds as nanoseconds, to the microsecond (an `f64` holds no
/// more at today's epoch); `None` unless a finite time at or after 1970.
fn unix_nanos(v: &Value) -> Option<u64> {
    let s = v.as_f64().filter(|s| s.is_finite() && *s >= 0.0)?;
    let micros = (s * 1e6).round();
    if micros >= u64::MAX as f64 / 1000.0 {
        return None;
    }
    Some(micros as u64 * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    const SEED: &str = r#"{"request_id": "chatcmpl-9f2c41d0", "t_arrival": 1789040112.104, "t_completion": 1789040114.312, "prompt_tokens": 412, "output_tokens": 128, "e2e_latency_s": 2.208, "ttft_s": null, "queue_wait_s": 0.004, "scheduler_family": "ltr-promptlen", "priority_score": -318.0}"#;

    fn span(line: &[u8]) -> Value {
        let v: Value = serde_json::from_slice(line).unwrap();
        v["resourceSpans"][0]["scopeSpans"][0]["spans"][0].clone()
    }

    fn attr<'a>(span: &'a Value, key: &str) -> Option<&'a Value> {
        span["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["key"] == key)
            .map(|a| &a["value"])
    }

    /// The seed's standard record becomes the seed's span.
    #[test]
    fn the_seed_record_becomes_the_seed_span() {
        let s = span(&export_line(SEED.as_bytes()).unwrap());
        assert_eq!(s["name"], "llm_request");
        assert_eq!(s["kind"], 1);
        assert_eq!(s["startTimeUnixNano"], "1789040112104000000");
        assert_eq!(s["endTimeUnixNano"], "1789040114312000000");
        assert_eq!(s["traceId"].as_str().unwrap().len(), 32);
        assert_eq!(s["spanId"].as_str().unwrap().len(), 16);
        let want = [
            ("cf.request_id", json!({"stringValue": "chatcmpl-9f2c41d0"})),
            ("gen_ai.usage.prompt_tokens", json!({"intValue": "412"})),
            ("gen_ai.usage.completion_tokens", json!({"intValue": "128"})),
            ("cf.e2e_latency_s", json!({"doubleValue": 2.208})),
            ("cf.queue_wait_s", json!({"doubleValue": 0.004})),
            (
                "cf.scheduler.family",
                json!({"stringValue": "ltr-promptlen"}),
            ),
            ("cf.priority_score", json!({"doubleValue": -318.0})),
        ];
        for (k, v) in want {
            assert_eq!(attr(&s, k), Some(&v), "{k}");
        }
        assert_eq!(attr(&s, "cf.ttft_s"), None, "null is left out");
        assert_eq!(s["attributes"].as_array().unwrap().len(), 7);
    }

    #[test]
    fn content_fields_become_the_genai_content_attributes() {
        let full = SEED.replace(
            "}",
            r#", "prompt_text": "CANARY-P", "output_text": "CANARY-O"}"#,
        );
        let s = span(&export_line(full.as_bytes()).unwrap());
        assert_eq!(
            attr(&s, "gen_ai.prompt"),
            Some(&json!({"stringValue": "CANARY-P"}))
        );
        assert_eq!(
            attr(&s, "gen_ai.completion"),
            Some(&json!({"stringValue": "CANARY-O"}))
        );
    }

    #[test]
    fn the_same_request_is_the_same_span_and_another_is_not() {
        let a = span(&export_line(SEED.as_bytes()).unwrap());
        let b = span(&export_line(SEED.as_bytes()).unwrap());
        let c = span(&export_line(SEED.replace("9f2c41d0", "9f2c41d1").as_bytes()).unwrap());
        assert_eq!(a["traceId"], b["traceId"]);
        assert_ne!(a["traceId"], c["traceId"]);
        let none = span(&export_line(br#"{"prompt_tokens":1}"#).unwrap());
        assert!(none.get("traceId").is_none());
    }

    #[test]
    fn what_is_not_an_object_is_not_converted() {
        for bad in [&b"[]"[..], b"5", b"", b"{", b"\"x\""] {
            assert!(export_line(bad).is_none());
        }
    }

    proptest::proptest! {
        /// Any JSON object: no panic, and the result is one OTLP export
        /// request holding one span.
        #[test]
        fn any_object_converts_to_one_span(
            fields in proptest::collection::btree_map(
                "[a-z_]{1,12}",
                proptest::prop_oneof![
                    proptest::num::f64::ANY.prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
                    proptest::num::i64::ANY.prop_map(|i| json!(i)),
                    "\\PC{0,20}".prop_map(Value::String),
                    proptest::bool::ANY.prop_map(Value::Bool),
                    proptest::strategy::Just(Value::Null),
                ],
                0..12,
            )
        ) {
            let obj = Value::Object(fields.into_iter().collect());
            let line = export_line(&serde_json::to_vec(&obj).unwrap()).unwrap();
            let v: Value = serde_json::from_slice(&line).unwrap();
            proptest::prop_assert_eq!(v["resourceSpans"].as_array().unwrap().len(), 1);
            proptest::prop_assert_eq!(&span(&line)["name"], "llm_request");
        }
    }
}
