//! Issue 15: real GenAI telemetry through the gate. One bad span (or log
//! record) is dropped on its own, the default policy fits the GenAI
//! semantic conventions, and structured content is captured inside a
//! window. The real binary and the real daemon, loopback only.

use std::path::Path;

use serde_json::{Value, json};

use crate::serve::{Daemon, JSON, PROTO, poll, policy_text};
use tracegate::record::otlp_proto::encode_traces_protobuf;

/// A span of the conventions' shape with `attrs`.
fn span(span_id: &str, name: &str, attrs: Value) -> Value {
    json!({"traceId": "0102030405060708090a0b0c0d0e0f10", "spanId": span_id,
           "name": name, "kind": 3,
           "startTimeUnixNano": "1700000000000000000",
           "endTimeUnixNano": "1700000001000000000",
           "attributes": attrs})
}

fn request(spans: Vec<Value>) -> Value {
    json!({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "engine"}}]},
        "scopeSpans": [{"spans": spans}]
    }]})
}

fn read(d: &Path, name: &str) -> String {
    std::fs::read_to_string(d.join(name)).unwrap_or_default()
}

/// SECURITY (issue 15 item 1): a request with one bad span among good ones:
/// the good spans reach both sinks, `partialSuccess.rejectedSpans` counts
/// exactly the bad one, over OTLP/HTTP JSON and protobuf, and the bad
/// span's bytes (its canary) appear nowhere: not in a sink, the response,
/// the log, the metrics or the status.
#[test]
fn one_bad_span_is_rejected_alone_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), policy_text("flush_interval = \"50ms\"")).unwrap();
    let daemon = Daemon::start(d);
    let good = |id: &str, n: &str| {
        span(id, "llm_request", json!([
            {"key": "gen_ai.usage.input_tokens", "value": {"intValue": n}}
        ]))
    };
    // The bad span breaks an allowlisted rule with a value an attacker
    // chose; a good attribute of it must not leak either.
    let bad = span("0a0a0a0a0a0a0a0a", "llm_request", json!([
        {"key": "cf.request_id", "value": {"stringValue": "CANARY-ID not an id"}},
        {"key": "gen_ai.usage.output_tokens", "value": {"intValue": "424242"}}
    ]));
    let req = request(vec![
        good("0101010101010101", "11"),
        bad,
        good("0202020202020202", "22"),
    ]);
    let r = daemon.post("/v1/traces", &[JSON], req.to_string().as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["partialSuccess"]["rejectedSpans"], 1, "{v}");
    assert!(!r.text().contains("CANARY"), "{}", r.text());
    // Protobuf likewise (the partial success is a protobuf message: its
    // field 1 is the count, as a varint).
    let pb = encode_traces_protobuf(&req.to_string()).unwrap();
    let r = daemon.post("/v1/traces", &[PROTO], &pb);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.body.get(..4), Some(&[0x0a, r.body[1], 0x08, 0x01][..]), "{:?}", r.body);
    let lines = poll("both requests in the standard sink", || {
        let s = read(d, "std.jsonl");
        (s.lines().count() == 2).then_some(s)
    });
    for line in lines.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let spans = &v["resourceSpans"][0]["scopeSpans"][0]["spans"];
        let ids: Vec<&str> = spans
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["spanId"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["0101010101010101", "0202020202020202"], "{line}");
    }
    poll("the capture sink", || (read(d, "cap.jsonl").lines().count() == 2).then_some(()));
    for text in [
        read(d, "std.jsonl"),
        read(d, "cap.jsonl"),
        read(d, "serve.log"),
        daemon.get("/metrics").text(),
        daemon.get("/v1/status").text(),
    ] {
        assert!(!text.contains("CANARY"), "{text}");
        assert!(!text.contains("424242"), "{text}");
    }
}
