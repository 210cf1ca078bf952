//! Issue 15: real GenAI telemetry through the gate. One bad span (or log
//! record) is dropped on its own, the default policy fits the GenAI
//! semantic conventions, and structured content is captured inside a
//! window. The real binary and the real daemon, loopback only.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::serve::{Daemon, JSON, PROTO, events, policy_text, poll, window};
use tracegate::AuditEvent;
use tracegate::internals::record::otlp_proto::{decode_traces_protobuf, encode_traces_protobuf};

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
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"50ms\""),
    )
    .unwrap();
    let daemon = Daemon::start(d);
    let good = |id: &str, n: &str| {
        span(
            id,
            "llm_request",
            json!([
                {"key": "gen_ai.usage.input_tokens", "value": {"intValue": n}}
            ]),
        )
    };
    // The bad span breaks an allowlisted rule with a value an attacker
    // chose; a good attribute of it must not leak either.
    let bad = span(
        "0a0a0a0a0a0a0a0a",
        "llm_request",
        json!([
            {"key": "cf.request_id", "value": {"stringValue": "CANARY-ID not an id"}},
            {"key": "gen_ai.usage.output_tokens", "value": {"intValue": "424242"}}
        ]),
    );
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
    assert_eq!(
        r.body.get(..4),
        Some(&[0x0a, r.body[1], 0x08, 0x01][..]),
        "{:?}",
        r.body
    );
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
    poll("the capture sink", || {
        (read(d, "cap.jsonl").lines().count() == 2).then_some(())
    });
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

/// Issue 15 "done means": spans and an event made by the real OpenTelemetry
/// Python SDK with the GenAI conventions' exact attribute names. The clean
/// spans pass `check` under the default policy with no finding; the
/// standard sink holds their metadata and no content; inside a window the
/// capture sink holds the content, structured (the event's kvlist body, an
/// array of strings) and redacted (the card number).
#[test]
#[cfg_attr(
    not(otel_sdk),
    ignore = "needs the OpenTelemetry Python SDK: set TRACEGATE_OTEL_PYTHON (scripts/otel-sdk-check.sh)"
)]
fn genai_telemetry_from_the_python_sdk_fits_the_default_policy() {
    let Some(py) =
        crate::otel_sdk::python_with("opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http")
    else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otel_sdk/genai_spans.py");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let policy = policy_text("flush_interval = \"50ms\"") + &window("genai", -60, 600);
    std::fs::write(d.join("policy.toml"), &policy).unwrap();
    let daemon = Daemon::start(d);
    // The window is open once its audit entry is written.
    poll("window_enabled in the audit log", || {
        events(d).into_iter().find_map(|(_, e)| match e {
            AuditEvent::WindowEnabled { window, .. } if window == "genai" => Some(()),
            _ => None,
        })
    });
    let out = Command::new(&py)
        .arg(&script)
        .arg(&daemon.addr)
        .arg(d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The clean spans, as the SDK encoded them, pass `check` with no finding.
    let clean = decode_traces_protobuf(&std::fs::read(d.join("clean.pb")).unwrap()).unwrap();
    std::fs::write(d.join("clean.jsonl"), format!("{clean}\n")).unwrap();
    let check = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["check", "--format", "json", "--policy"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml"))
        .arg(d.join("clean.jsonl"))
        .output()
        .unwrap();
    let findings = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{findings}");
    assert!(!findings.contains("\"finding\""), "{findings}");

    let (std_out, cap_out) = poll("traces and logs in both sinks", || {
        let s = read(d, "std.jsonl");
        let c = read(d, "cap.jsonl");
        (s.lines().count() == 2 && c.lines().count() == 2).then_some((s, c))
    });
    // Standard: the metadata, by the conventions' names; no content.
    for meta in [
        "\"chat gpt-4o\"",
        "\"execute_tool get_weather\"",
        "\"invoke_agent math_tutor\"",
        "\"embeddings text-embedding-3-small\"",
        "gen_ai.response.finish_reasons",
        "gen_ai.usage.cache_read.input_tokens",
        "gen_ai.usage.reasoning.output_tokens",
        "gen_ai.conversation.id",
        "gen_ai.tool.call.id",
        "\"Math Tutor\"",
        "api.openai.com",
        "\"chat claude-sonnet-4\"",
    ] {
        assert!(std_out.contains(meta), "{meta} missing: {std_out}");
    }
    assert!(!std_out.contains("CANARY"), "{std_out}");
    // The card's digit groups with their blanks: a timestamp's digits may
    // hold `4111` (one run failed on `...044141110`), never a blank.
    let card_leaks = |out: &str| ["4111 1111", "1111 1111"].iter().any(|g| out.contains(g));
    assert!(!card_leaks(&std_out), "{std_out}");
    // Capture: content kept, card numbers redacted everywhere.
    assert!(!card_leaks(&cap_out), "{cap_out}");
    for text in [
        "CANARY-IN pay with",
        "CANARY-OUT-1",
        "CANARY-OUT-2",
        "CANARY-SYS",
        "CANARY-EVENT card",
        "CANARY-EVENT-REPLY",
    ] {
        assert!(cap_out.contains(text), "{text} missing: {cap_out}");
    }
    // Free text that is not on the allowlist and not a content key never
    // passes, not even inside a window.
    for text in [
        "CANARY-STOP",
        "CANARY-AGENT-DESC",
        "CANARY-TOOL-DESC",
        "CANARY-EXC",
        "CANARY-STACK",
    ] {
        assert!(!cap_out.contains(text), "{text} leaked: {cap_out}");
    }
    // The structure is kept: the event body is a kvlist of arrays of
    // kvlists, the output messages an array of strings.
    let logs: Value = cap_out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v.get("resourceLogs").is_some())
        .unwrap();
    let body =
        &logs["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0]["body"]["kvlistValue"]["values"];
    assert_eq!(body[0]["key"], "gen_ai.input.messages", "{logs}");
    let message = &body[0]["value"]["arrayValue"]["values"][0]["kvlistValue"]["values"];
    assert!(
        message
            .as_array()
            .unwrap()
            .iter()
            .any(|kv| kv["key"] == "parts"),
        "{logs}"
    );
    let spans: Value = cap_out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v.get("resourceSpans").is_some())
        .unwrap();
    let out_messages = spans["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["attributes"].as_array().unwrap().iter())
        .find(|a| a["key"] == "gen_ai.output.messages")
        .unwrap();
    assert_eq!(
        out_messages["value"]["arrayValue"]["values"][0]["stringValue"],
        "CANARY-OUT-1"
    );
}

/// Issue 15 item 3: every key of the content-key table in
/// `policies/README.md` is a content attribute of the default policy, and
/// every content attribute of the default policy is in that table with its
/// source: the list and its documentation cannot drift apart.
#[test]
fn the_content_key_table_and_the_default_policy_agree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let policy = tracegate::Policy::load(&root.join("policies/default.toml")).unwrap();
    let listed: std::collections::BTreeSet<String> =
        policy.full().content_attributes.iter().cloned().collect();
    let doc = std::fs::read_to_string(root.join("policies/README.md")).unwrap();
    let table = doc
        .split("Content keys (`[full] content_attributes`)")
        .nth(1)
        .expect("the content-key table")
        .split("\n\n")
        .nth(1)
        .unwrap();
    let mut documented = std::collections::BTreeSet::new();
    for row in table.lines().skip(2) {
        let cells: Vec<&str> = row.split('|').collect();
        assert!(cells.len() >= 5, "{row}");
        assert!(cells[3].contains('/'), "a source path for {row}");
        for key in cells[1].split('`').skip(1).step_by(2) {
            documented.insert(key.to_string());
        }
    }
    assert_eq!(documented, listed);
}
