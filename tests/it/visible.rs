//! Issue 35 items 1 and 4: nothing the daemon throws away disappears
//! without a trace, and nothing that is not an OTLP export request is
//! taken for one. The real binary on loopback ports; every wait is a
//! bounded poll.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use tonic::Code;

use crate::grpc::{Call, call, start};
use crate::serve::{JSON, PROTO, policy_text, poll, span_request};
use tracegate::internals::record::otlp_proto::{encode_logs_protobuf, encode_traces_protobuf};
use tracegate_daemon::otlp_grpc::{LOGS_PATH, TRACES_PATH};

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// A metric's value in a Prometheus exposition (the whole sample line
/// before the value must match `series`); 0 when absent.
pub(crate) fn metric(text: &str, series: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0)
}

/// Bodies that name an export request's list but are not one, or are no
/// export request at all: (what, signal path, body).
fn wrong_shapes() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let span = |s: Value| {
        json!({"resourceSpans": [{"scopeSpans": [{"spans": [s]}]}]})
            .to_string()
            .into_bytes()
    };
    vec![
        (
            "a number for the list",
            "/v1/traces",
            b"{\"resourceSpans\": 5}".to_vec(),
        ),
        (
            "a misspelt list",
            "/v1/traces",
            b"{\"resourceSpan\": []}".to_vec(),
        ),
        (
            "the list and a stray member",
            "/v1/traces",
            b"{\"resourceSpans\": [], \"x\": 1}".to_vec(),
        ),
        (
            "logs on the traces path",
            "/v1/traces",
            b"{\"resourceLogs\": []}".to_vec(),
        ),
        (
            "traces on the logs path",
            "/v1/logs",
            b"{\"resourceSpans\": []}".to_vec(),
        ),
        (
            "a misspelt logs list",
            "/v1/logs",
            b"{\"resourceLog\": []}".to_vec(),
        ),
        (
            "a number for the logs list",
            "/v1/logs",
            b"{\"resourceLogs\": 5}".to_vec(),
        ),
        (
            "null for the list",
            "/v1/traces",
            b"{\"resourceSpans\": null}".to_vec(),
        ),
        (
            "a bare span",
            "/v1/traces",
            b"{\"name\": \"llm_request\", \"attributes\": []}".to_vec(),
        ),
        (
            "a number for a resource",
            "/v1/traces",
            b"{\"resourceSpans\": [5]}".to_vec(),
        ),
        (
            "an array for scopeSpans' element",
            "/v1/traces",
            b"{\"resourceSpans\": [{\"scopeSpans\": [[]]}]}".to_vec(),
        ),
        (
            "a string for spans",
            "/v1/traces",
            b"{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": \"x\"}]}]}".to_vec(),
        ),
        (
            "a number for a span name",
            "/v1/traces",
            span(json!({"name": 5})),
        ),
        (
            "an object for attributes",
            "/v1/traces",
            span(json!({"name": "llm_request", "attributes": {}})),
        ),
        (
            "a list for an attribute's string value",
            "/v1/traces",
            span(
                json!({"name": "llm_request", "attributes": [{"key": "service.name", "value": {"stringValue": ["x"]}}]}),
            ),
        ),
        (
            "a string for a log record list",
            "/v1/logs",
            b"{\"resourceLogs\": [{\"scopeLogs\": [{\"logRecords\": \"x\"}]}]}".to_vec(),
        ),
    ]
}

/// Issue 35 item 4: wrong-shaped OTLP/JSON and protobuf bodies that are
/// not an export request are refused with 400, counted as malformed, and
/// nothing of them reaches a sink; an empty request is accepted and writes
/// nothing. Before the fix, `{"resourceSpans": 5}` and its siblings were
/// answered 200 and wrote `{}` to every sink.
#[test]
fn wrong_shaped_otlp_is_refused_over_http_counted_and_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"20ms\""),
    )
    .unwrap();
    let daemon = crate::serve::Daemon::start(d);
    let shapes = wrong_shapes();
    for (what, path, body) in &shapes {
        let r = daemon.post(path, &[JSON], body);
        assert_eq!(r.status, 400, "{what}: {}", r.text());
        assert!(
            r.text().contains("not an OTLP/JSON export request"),
            "{what}: {}",
            r.text()
        );
    }
    // Protobuf: a logs request on the traces path, a body whose top level
    // holds another field (protobuf would skip it and read an empty
    // request), a wire type that fits no message.
    let logs = encode_logs_protobuf(
        &json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [
            {"timeUnixNano": "1700000000000000000", "severityNumber": 9}]}]}]})
        .to_string(),
    )
    .unwrap();
    let pb: [(&str, &str, Vec<u8>); 3] = [
        ("a logs request on the traces path", "/v1/traces", logs),
        (
            "a stray top-level field",
            "/v1/traces",
            b"\x12\x03abc".to_vec(),
        ),
        ("a stray top-level field", "/v1/logs", b"\x1a\x01x".to_vec()),
    ];
    for (what, path, body) in &pb {
        let r = daemon.post(path, &[PROTO], body);
        assert_eq!(r.status, 400, "{what}: {}", r.text());
    }
    // Empty requests are valid and carry nothing: 200, nothing written.
    for (ct, path, body) in [
        (JSON, "/v1/traces", b"{}".to_vec()),
        (JSON, "/v1/traces", b"{\"resourceSpans\": []}".to_vec()),
        (
            JSON,
            "/v1/logs",
            b"{\"resourceLogs\": [{\"scopeLogs\": []}]}".to_vec(),
        ),
        (PROTO, "/v1/traces", Vec::new()),
    ] {
        let r = daemon.post(path, &[ct], &body);
        assert_eq!(r.status, 200, "{}", r.text());
    }
    // One good request, the marker that the sink was flushed.
    let good = span_request(json!([]));
    let r = daemon.post("/v1/traces", &[JSON], good.to_string().as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let std_out = poll("the good request in the standard sink", || {
        let s = read(&d.join("std.jsonl"));
        (!s.is_empty()).then_some(s)
    });
    assert_eq!(std_out.lines().count(), 1, "{std_out}");
    assert!(std_out.contains("llm_request"), "{std_out}");
    let m = daemon.get("/metrics").text();
    let bad = (shapes.len() + pb.len()) as u64;
    assert_eq!(metric(&m, "tracegate_records_malformed_total"), bad, "{m}");
    assert_eq!(
        metric(&m, "tracegate_requests_refused_total{code=\"400\"}"),
        bad,
        "{m}"
    );
    let status = daemon.status();
    assert_eq!(status["records"]["malformed"], bad, "{status}");
    // The capture sink (no window: standard) holds the good request alone.
    let cap = poll("the good request in the capture sink", || {
        let s = read(&d.join("cap.jsonl"));
        (!s.is_empty()).then_some(s)
    });
    assert_eq!(cap, std_out);
}

/// Issue 35 item 4 over gRPC: the same bodies, as protobuf where they can
/// be, answer `INVALID_ARGUMENT` through the one ingest path.
#[test]
fn wrong_shaped_otlp_is_refused_over_grpc_with_invalid_argument() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"20ms\""),
    )
    .unwrap();
    let (daemon, grpc) = start(d);
    let plain = Call::default();
    let logs = encode_logs_protobuf(
        &json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [
            {"timeUnixNano": "1700000000000000000", "severityNumber": 9}]}]}]})
        .to_string(),
    )
    .unwrap();
    let spans = encode_traces_protobuf(&span_request(json!([])).to_string()).unwrap();
    for (what, path, body) in [
        ("a logs request on the traces service", TRACES_PATH, logs),
        (
            "a traces request on the logs service",
            LOGS_PATH,
            spans.clone(),
        ),
        (
            "a stray top-level field",
            TRACES_PATH,
            b"\x12\x03abc".to_vec(),
        ),
    ] {
        let e = call(&grpc, path, body, &plain).unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{what}: {e:?}");
    }
    // An empty request: accepted, nothing written; then a good one.
    call(&grpc, TRACES_PATH, Vec::new(), &plain).unwrap();
    call(&grpc, TRACES_PATH, spans, &plain).unwrap();
    let std_out = poll("the good request in the standard sink", || {
        let s = read(&d.join("std.jsonl"));
        (!s.is_empty()).then_some(s)
    });
    assert_eq!(std_out.lines().count(), 1, "{std_out}");
    let m = daemon.get("/metrics").text();
    assert_eq!(metric(&m, "tracegate_records_malformed_total"), 3, "{m}");
}

/// Issue 35 item 4 in the command line: `check` and `filter` call such a
/// line malformed (`otlp_shape`, exit 1 and nothing written), not a record
/// with an unknown field to strip. Before the fix `filter` wrote `{}`.
#[test]
fn check_and_filter_call_wrong_shaped_otlp_lines_malformed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), policy_text("")).unwrap();
    let lines: Vec<String> = wrong_shapes()
        .into_iter()
        // In a file, a line that names no export request's list is a
        // record of its own (a bare span; a cf record whose unknown fields
        // are stripped); a request holding only the other signal's list
        // is fine on a line of its own.
        .filter(|(what, _, _)| {
            !what.contains("bare span") && !what.contains(" path") && !what.contains("misspelt")
        })
        .map(|(_, _, b)| String::from_utf8(b).unwrap())
        .chain([r#"{"resourceSpans":[],"resourceLogs":[]}"#.to_string()])
        .collect();
    let input = d.join("in.jsonl");
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["filter", "--policy"])
        .arg(d.join("policy.toml"))
        .args(["--sink", "std"])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "nothing passes");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{} malformed", lines.len())), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["check", "--format", "json", "--policy"])
        .arg(d.join("policy.toml"))
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let findings: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v["type"] == "finding")
        .collect();
    assert_eq!(findings.len(), lines.len(), "{findings:?}");
    for f in &findings {
        assert_eq!(f["kind"], "malformed", "{f}");
        assert_eq!(f["rule"], "otlp_shape", "{f}");
    }
}

/// `tracegate serve` on a policy folder, with both receivers on loopback
/// port 0: the daemon, its HTTP and its gRPC address.
fn serve_folder(folder: &Path) -> (crate::serve::Daemon, String) {
    let ready = folder.join("ready");
    let grpc_ready = folder.join("grpc-ready");
    let log = std::fs::File::create(folder.join("serve.log")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["serve", "--policy"])
        .arg(folder)
        .args(["--listen", "127.0.0.1:0", "--ready-file"])
        .arg(&ready)
        .args(["--grpc-listen", "127.0.0.1:0", "--grpc-ready-file"])
        .arg(&grpc_ready)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut d = crate::serve::Daemon {
        child,
        addr: String::new(),
        dir: folder.to_path_buf(),
    };
    let read = |p: &Path| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    d.addr = poll("the ready file", || read(&ready));
    let grpc = poll("the gRPC ready file", || read(&grpc_ready));
    (d, grpc)
}

/// A `policy init` folder.
fn init_folder(parent: &Path) -> std::path::PathBuf {
    let folder = parent.join("pol");
    let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["policy", "init", "--dir"])
        .arg(&folder)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    folder
}

/// Issue 35 item 1, the issue's own repro: with a `policy init` folder, the
/// real OpenTelemetry Python SDK exports `chat gpt-4o` and `retrieve_docs`
/// (with `db.system`) in one batch, over OTLP/HTTP and then OTLP/gRPC. The
/// SDK hears success both times and only the chat span reaches the
/// standard sink; the drop of `retrieve_docs` must show in `/metrics` (by
/// sink, signal, reason and rule), in `/v1/status` (counts and the last
/// drop's rule and path) and in the log (rule and path, never a value).
/// Before the fix none of the three said anything.
#[test]
#[cfg_attr(
    not(otel_sdk),
    ignore = "needs the OpenTelemetry Python SDK: set TRACEGATE_OTEL_PYTHON (scripts/otel-sdk-check.sh)"
)]
fn a_span_the_policy_drops_shows_in_metrics_status_and_log_over_http_and_grpc() {
    let Some(py) = crate::otel_sdk::python_with(
        "opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http, opentelemetry.exporter.otlp.proto.grpc.trace_exporter",
    ) else {
        eprintln!("skipped: the OpenTelemetry Python SDK is not available");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = init_folder(dir.path());
    let (daemon, grpc) = serve_folder(&folder);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otel_sdk/dropped_span.py");
    for (mode, addr) in [("http", daemon.addr.clone()), ("grpc", grpc.clone())] {
        let out = Command::new(&py)
            .arg(&script)
            .args([mode, &addr])
            .arg(dir.path().join(format!("{mode}.pb")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let std_out = poll("both chat spans in the standard sink", || {
        let s = read(&folder.join("data/standard.jsonl"));
        (s.lines().count() == 2).then_some(s)
    });
    assert!(std_out.contains("chat gpt-4o"), "{std_out}");
    assert!(!std_out.contains("retrieve_docs"), "{std_out}");

    let m = daemon.get("/metrics").text();
    for sink in ["traces", "capture"] {
        let series = format!(
            "tracegate_items_dropped_total{{sink=\"{sink}\",signal=\"traces\",reason=\"violation\",rule=\"one_of\"}}"
        );
        assert_eq!(metric(&m, &series), 2, "{series} in\n{m}");
    }
    let status = daemon.status();
    let sinks = status["sinks"].as_array().unwrap();
    let traces = sinks.iter().find(|s| s["name"] == "traces").unwrap();
    assert_eq!(
        traces["items_dropped"],
        json!([{"signal": "traces", "reason": "violation", "rule": "one_of", "count": 2}]),
        "{status}"
    );
    let last = &status["last_drop"];
    assert_eq!(last["rule"], "one_of", "{status}");
    assert_eq!(
        last["path"], "resourceSpans[0].scopeSpans[0].spans[1].name",
        "{status}"
    );
    assert_eq!(last["signal"], "traces", "{status}");

    let log = read(&folder.join("serve.log"));
    let line = log
        .lines()
        .find(|l| l.contains("dropped:"))
        .unwrap_or_else(|| panic!("no drop in the log:\n{log}"));
    for want in [
        "rule=\"one_of\"",
        "path=\"resourceSpans[0].scopeSpans[0].spans[1].name\"",
        "signal=\"traces\"",
        "reason=\"violation\"",
    ] {
        assert!(line.contains(want), "{want} missing: {line}");
    }
    // `explain` on the very body the SDK sent says which span and why.
    let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["explain", "--policy"])
        .arg(&folder)
        .arg(dir.path().join("http.pb"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a span is dropped");
    let explained = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = explained.lines().collect();
    assert!(
        lines[0].ends_with("traces request: accepted: 2 spans, 1 written, 1 dropped"),
        "{explained}"
    );
    assert!(lines[1].starts_with("  span 0 (trace "), "{explained}");
    assert!(lines[1].ends_with("): written"), "{explained}");
    assert!(lines[2].starts_with("  span 1 (trace "), "{explained}");
    assert!(lines[2].ends_with("): dropped"), "{explained}");
    assert!(
        lines[3].starts_with("    one_of: resourceSpans[0].scopeSpans[0].spans[1].name: "),
        "{explained}"
    );
    assert!(
        explained.contains(
            "unknown_field: resourceSpans[0].scopeSpans[0].spans[1].attributes[\"db.system\"]"
        ),
        "{explained}"
    );
    // SECURITY: the rule and the path; never the span's name or values.
    for text in [&log, &m, &status.to_string(), &explained] {
        assert!(!text.contains("retrieve_docs"), "{text}");
        assert!(!text.contains("postgresql"), "{text}");
    }
}

/// `explain` reads what `serve` receives: protobuf (traces or logs), JSON
/// pretty or on one line, gzip or not, and refuses what `serve` refuses
/// with its status code; it shows items by index and ids only.
#[test]
fn explain_reads_protobuf_json_and_gzip_bodies_and_never_prints_a_value() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let policy = Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/default.toml");
    let logs = json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [
        {"timeUnixNano": "1700000000000000000", "severityNumber": 9,
         "severityText": "CANARY free text"},
        {"timeUnixNano": "1700000000000000000", "severityNumber": 9,
         "traceId": "0102030405060708090a0b0c0d0e0f10", "spanId": "0102030405060708",
         "body": {"stringValue": "CANARY-BODY"}}
    ]}]}]});
    let spans = span_request(json!([
        {"key": "gen_ai.prompt", "value": {"stringValue": "CANARY-PROMPT"}}
    ]));
    std::fs::write(
        d.join("logs.pb"),
        encode_logs_protobuf(&logs.to_string()).unwrap(),
    )
    .unwrap();
    std::fs::write(
        d.join("spans.json.gz"),
        crate::serve::gzip(serde_json::to_string_pretty(&spans).unwrap().as_bytes()),
    )
    .unwrap();
    std::fs::write(d.join("bad.json"), b"{\"resourceSpans\": 5}").unwrap();
    std::fs::write(d.join("junk.pb"), b"\x12\x03abc").unwrap();
    let run = |file: &str, extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
            .args(["explain", "--policy"])
            .arg(&policy)
            .args(extra)
            .arg(d.join(file))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(!text.contains("CANARY"), "{text}");
        (out.status.code(), text)
    };
    let (code, text) = run("logs.pb", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("logs request: accepted: 2 log records, 1 written, 1 dropped"),
        "{text}"
    );
    // No ids: none shown.
    assert!(
        text.contains("  log record 0 (trace -, span -): dropped"),
        "{text}"
    );
    assert!(
        text.contains("  log record 1 (trace 0102030405060708090a0b0c0d0e0f10, span 0102030405060708): written, fields removed"),
        "{text}"
    );
    let (code, text) = run("spans.json.gz", &["--format", "json"]);
    assert_eq!(code, Some(0), "content stripped, nothing dropped: {text}");
    let items: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items.len(), 3, "{text}");
    assert_eq!(items[1]["outcome"], "written, fields removed", "{text}");
    assert_eq!(items[1]["findings"][0]["rule"], "content_field", "{text}");
    assert_eq!(items[2]["outcome"], "written", "{text}");
    let (code, text) = run("bad.json", &[]);
    assert_eq!(code, Some(1));
    assert!(text.contains("traces request: refused (400)"), "{text}");
    assert!(
        text.contains("`resourceSpans`: expected an array, found number"),
        "{text}"
    );
    let (code, text) = run("junk.pb", &[]);
    assert_eq!(code, Some(1));
    assert!(text.contains("refused (400)"), "{text}");
}

/// Issue 35 item 1 without the SDK (so it runs everywhere): the same
/// batch over OTLP/HTTP JSON, OTLP/HTTP protobuf and OTLP/gRPC is counted
/// once per request on each sink under the same labels, and the standard
/// sink holds the chat spans alone.
#[test]
fn drops_over_http_json_protobuf_and_grpc_are_counted_alike() {
    let dir = tempfile::tempdir().unwrap();
    let folder = init_folder(dir.path());
    let (daemon, grpc) = serve_folder(&folder);
    let body = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/requests/rag-batch.json"),
    )
    .unwrap();
    let r = daemon.post("/v1/traces", &[JSON], &body);
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("\"rejectedSpans\":1"), "{}", r.text());
    let compact: Value = serde_json::from_slice(&body).unwrap();
    let pb = encode_traces_protobuf(&compact.to_string()).unwrap();
    let r = daemon.post("/v1/traces", &[PROTO], &pb);
    assert_eq!(r.status, 200, "{}", r.text());
    call(&grpc, TRACES_PATH, pb, &Call::default()).unwrap();
    let std_out = poll("three chat spans in the standard sink", || {
        let s = read(&folder.join("data/standard.jsonl"));
        (s.lines().count() == 3).then_some(s)
    });
    assert!(!std_out.contains("retrieve_docs"), "{std_out}");
    let m = daemon.get("/metrics").text();
    for sink in ["traces", "capture"] {
        let series = format!(
            "tracegate_items_dropped_total{{sink=\"{sink}\",signal=\"traces\",reason=\"violation\",rule=\"one_of\"}}"
        );
        assert_eq!(metric(&m, &series), 3, "{series} in\n{m}");
    }
    assert!(
        !m.contains("postgresql") && !m.contains("retrieve_docs"),
        "{m}"
    );
}
