//! `tracegate serve` attacked: bodies that lie, requests that explode when
//! decoded, slow clients, endless lines, full disks, picky receivers and
//! signals. The real binary on loopback; every wait is a bounded poll.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prost::Message;
use serde_json::{Value, json};
use tracegate::internals::record::otlp_proto::oracle::{
    AnyValue, Event, ExportTraceServiceRequest, KeyValue, Link, ResourceSpans, ScopeSpans, Span,
    any_value,
};

use super::serve::{
    DEADLINE, Daemon, JSON, NDJSON, PROTO, content_attrs, gzip, http_within, poll, replace_policy,
    span_request,
};

/// Peak resident memory of a process, in KiB (Linux).
fn vm_hwm_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

fn sink<'a>(st: &'a Value, name: &str) -> &'a Value {
    st["sinks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap()
}

fn one_sink_policy(d: &Path, extra: &str) {
    std::fs::write(
        d.join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\n{extra}\n\
             [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n"
        ),
    )
    .unwrap();
}

// ---------------------------------------------------------------------------
// Item 2: a JSON body is validated as received.

/// Regression: `/v1/traces` compacted a pretty body before validating it,
/// so a newline inside a number (`1\n2`) or a literal (`tr\nue`) became
/// `12` / `true` and the request was answered 200.
#[test]
fn a_json_body_is_validated_as_received_so_a_newline_never_joins_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    one_sink_policy(d, "");
    let mut daemon = Daemon::start(d);
    let split = [
        // A number split in two.
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"name\":\"llm_request\",\"kind\":1\n2}]}]}]}",
        // With a carriage return.
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"name\":\"llm_request\",\"kind\":1\r\n2}]}]}]}",
        // A literal split in two.
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"name\":\"llm_request\",\"attributes\":[{\"key\":\"x\",\"value\":{\"boolValue\":tr\nue}}]}]}]}]}",
    ];
    for body in split {
        let r = daemon.post("/v1/traces", &[JSON], body.as_bytes());
        assert_eq!(r.status, 400, "accepted: {}", r.text());
        assert!(r.text().contains("invalid_json"), "{}", r.text());
    }
    // A pretty body that is valid JSON still passes, compacted to one line.
    let pretty = serde_json::to_string_pretty(&span_request(content_attrs(1))).unwrap();
    let r = daemon.post("/v1/traces", &[JSON], pretty.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    // A pretty request every sink rejects (every span breaks a rule; one
    // bad span alone would be dropped on its own): its three spans are
    // counted.
    let bad = json!({"name": "llm_request", "attributes": [{"key": "cf.request_id", "value": {"stringValue": "a sentence"}}]});
    let rejected =
        serde_json::to_string_pretty(&json!({"resourceSpans": [{"scopeSpans": [{"spans": [
            bad, bad, bad
        ]}]}]}))
        .unwrap();
    let r = daemon.post("/v1/traces", &[JSON], rejected.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["partialSuccess"]["rejectedSpans"], 3, "{v}");
    // Counted out once flushed; the rejected one is not.
    poll("the valid request out", || {
        (sink(&daemon.status(), "std")["records_out"]["standard"] == 1).then_some(())
    });
    daemon.terminate();
    let out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    assert_eq!(out.lines().count(), 1, "{out}");
}

// ---------------------------------------------------------------------------
// Item 3: structure bounds and the memory budget.

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// `ExportTraceServiceRequest { ResourceSpans { ScopeSpans { Span{} x n } } }`
/// written by hand: two bytes per span.
fn empty_spans(n: usize) -> Vec<u8> {
    let spans: Vec<u8> = std::iter::repeat_n([0x12u8, 0x00], n).flatten().collect();
    let mut scope = vec![0x12];
    varint(&mut scope, spans.len() as u64);
    scope.extend_from_slice(&spans);
    let mut body = vec![0x0a];
    varint(&mut body, scope.len() as u64);
    body.extend_from_slice(&scope);
    body
}

/// Regression: a 6.6 KB gzip body of 4 million empty spans took the daemon
/// to about 900 MB before anything looked at its structure.
#[cfg(target_os = "linux")]
#[test]
fn an_empty_span_bomb_is_refused_413_before_it_is_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    one_sink_policy(d, "");
    let mut daemon = Daemon::start(d);
    // Just under `max_body_bytes` (8 MiB), so only the structure bound
    // can refuse it.
    let raw = empty_spans(4_190_000);
    assert!(raw.len() < 8 << 20);
    let bomb = gzip(&raw);
    assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
    let gz = ("content-encoding", "gzip");
    for _ in 0..3 {
        let r = daemon.post("/v1/traces", &[PROTO, gz], &bomb);
        assert_eq!(r.status, 413, "{}", r.text());
    }
    let hwm = vm_hwm_kib(daemon.child.id());
    assert!(
        hwm < 128 * 1024,
        "peak RSS {hwm} KiB for three refused bombs"
    );
    // Just under the bound: accepted.
    let ok = gzip(&empty_spans(16_383));
    let r = daemon.post("/v1/traces", &[PROTO, gz], &ok);
    assert_eq!(r.status, 200, "{}", r.text());
    let m = daemon.get("/metrics").text();
    assert!(
        m.contains("tracegate_requests_refused_total{code=\"413\"} 3"),
        "{m}"
    );
    daemon.terminate();
}

/// The densest request the default limits allow: 16384 spans, 65536
/// events, 65536 links and 262144 attributes (each with a key and a value,
/// so every one allocates).
fn densest_allowed() -> Vec<u8> {
    let kv = |k: String| KeyValue {
        key: k,
        value: Some(AnyValue {
            value: Some(any_value::Value::StringValue("v".into())),
        }),
    };
    let spans = (0..16_384)
        .map(|i| Span {
            name: format!("s{i}"),
            attributes: (0..16).map(|a| kv(format!("a{a}"))).collect(),
            events: (0..4)
                .map(|_| Event {
                    name: "e".into(),
                    ..Default::default()
                })
                .collect(),
            links: (0..4).map(|_| Link::default()).collect(),
            ..Default::default()
        })
        .collect();
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: None,
            scope_spans: vec![ScopeSpans {
                scope: None,
                spans,
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }],
    }
    .encode_to_vec()
}

/// [`densest_allowed`] in an unusual encoding: an unknown field at the
/// start of its resource spans, which the wire walk leaves to the fallback
/// decoder (the one that merges, so it holds the whole request as a tree
/// before it writes the line).
fn densest_unusual() -> Vec<u8> {
    let dense = densest_allowed();
    // The request is one field: key 0x0a, the length, the resource spans.
    let mut at = 1;
    let mut len = 0u64;
    for shift in (0..).step_by(7) {
        let b = dense[at];
        at += 1;
        len |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            break;
        }
    }
    assert_eq!(at as u64 + len, dense.len() as u64);
    let mut inner = vec![15 << 3, 0];
    inner.extend_from_slice(&dense[at..]);
    let mut body = vec![0x0a];
    varint(&mut body, inner.len() as u64);
    body.extend_from_slice(&inner);
    body
}

/// The largest string the default body bound allows, in one attribute.
fn largest_allowed() -> Vec<u8> {
    let big = "x".repeat(8 * 1024 * 1024 - 64);
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: None,
            scope_spans: vec![ScopeSpans {
                scope: None,
                spans: vec![Span {
                    name: "llm_request".into(),
                    attributes: vec![KeyValue {
                        key: "gen_ai.prompt".into(),
                        value: Some(AnyValue {
                            value: Some(any_value::Value::StringValue(big)),
                        }),
                    }],
                    ..Default::default()
                }],
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }],
    }
    .encode_to_vec()
}

/// SECURITY.md's bound: a single request the defaults allow stays under
/// 256 MiB, and 16 of them in flight stay under 64 MiB of baseline plus
/// `decode_memory_bytes` (256 MiB) plus the sink's `queue_bytes` (64 MiB).
#[cfg(target_os = "linux")]
#[test]
fn requests_the_default_limits_allow_stay_under_the_documented_memory_bounds() {
    let dense = densest_allowed();
    let unusual = densest_unusual();
    let large = largest_allowed();
    assert!(unusual.len() < 8 << 20 && large.len() < 8 << 20);
    for (what, body) in [
        ("densest", &dense),
        ("densest, unusual encoding", &unusual),
        ("largest", &large),
    ] {
        let dir = tempfile::tempdir().unwrap();
        one_sink_policy(dir.path(), "");
        let mut daemon = Daemon::start(dir.path());
        let r = daemon.post("/v1/traces", &[PROTO], body);
        assert_eq!(r.status, 200, "{what}: {}", r.text());
        let hwm = vm_hwm_kib(daemon.child.id());
        eprintln!("{what}: one request, peak RSS {hwm} KiB");
        assert!(hwm < 256 * 1024, "{what}: peak RSS {hwm} KiB");
        daemon.terminate();
    }
    let dir = tempfile::tempdir().unwrap();
    one_sink_policy(dir.path(), "");
    let mut daemon = Daemon::start(dir.path());
    let addr = daemon.addr.clone();
    // Half of them in the encoding the wire walk takes, half in the one
    // the fallback decodes.
    let (dense, unusual) = (Arc::new(dense), Arc::new(unusual));
    let threads: Vec<_> = (0..16)
        .map(|i| {
            let body = Arc::clone(if i % 2 == 0 { &dense } else { &unusual });
            let addr = addr.clone();
            // A request may wait for the budget, then for its own decoding
            // on a busy machine: a patient client.
            std::thread::spawn(move || {
                http_within(&addr, "POST", "/v1/traces", &[PROTO], &body, 4 * DEADLINE).status
            })
        })
        .collect();
    let statuses: Vec<u16> = threads
        .into_iter()
        .map(|t| {
            t.join().unwrap_or_else(|_| {
                let log = std::fs::read_to_string(dir.path().join("serve.log")).unwrap();
                panic!("a request got no answer; serve log:\n{log}")
            })
        })
        .collect();
    // Each is served, or told to retry while the budget is taken.
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&200), "{statuses:?}");
    let hwm = vm_hwm_kib(daemon.child.id());
    eprintln!("16 in flight: peak RSS {hwm} KiB, statuses {statuses:?}");
    assert!(hwm < (64 + 256 + 64) * 1024, "peak RSS {hwm} KiB");
    daemon.terminate();
}

// ---------------------------------------------------------------------------
// Item 4: slow clients.

/// Regression: 150 connections that sent half a header were held forever;
/// under the open-file limit a real POST then timed out and the reloader
/// failed with "too many open files".
#[cfg(target_os = "linux")]
#[test]
fn half_headers_on_150_connections_stop_neither_a_real_post_nor_the_reloader() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    one_sink_policy(d, "header_read_timeout = \"1s\"");
    let daemon = Daemon::start_in(d, Stdio::null(), Some("ulimit -n 128"));
    let slow: Vec<TcpStream> = (0..150)
        .map(|_| {
            let mut s = TcpStream::connect(&daemon.addr).unwrap();
            let _ = s.write_all(b"POST /v1/records HTTP/1.1\r\nhost: x\r\ncontent-le");
            s
        })
        .collect();
    let r = daemon.post(
        "/v1/records",
        &[NDJSON],
        b"{\"request_id\":\"chatcmpl-1\"}\n",
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // The reloader can still open the policy.
    replace_policy(
        d,
        "[server]\nflush_interval = \"60ms\"\nheader_read_timeout = \"1s\"\n\
         [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n",
    );
    poll("the reload", || {
        (daemon.status()["policy"]["revision"] == 2).then_some(())
    });
    let st = daemon.status();
    assert_eq!(st["reloads"]["refused"], 0, "{st}");
    drop(slow);
}

// ---------------------------------------------------------------------------
// Item 5: an unterminated source line.

/// Regression: a `[[source]]` line without its newline was buffered whole
/// (200 MB line = 215 MB RSS), searched again on every read.
#[cfg(target_os = "linux")]
#[test]
fn an_unterminated_source_line_is_bounded_by_max_line_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("engine.jsonl");
    std::fs::write(&input, "").unwrap();
    one_sink_policy(
        d,
        "[limits]\nmax_line_bytes = 1048576\n[[source]]\nkind = \"file\"\npath = \"engine.jsonl\"",
    );
    let mut daemon = Daemon::start(d);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&input)
        .unwrap();
    let mb = vec![b'a'; 1 << 20];
    for _ in 0..96 {
        f.write_all(&mb).unwrap();
    }
    f.write_all(b"\n{\"request_id\":\"chatcmpl-1\"}\n").unwrap();
    drop(f);
    let out = poll("the next line in the sink", || {
        let s = std::fs::read_to_string(d.join("std.jsonl")).unwrap_or_default();
        s.contains("chatcmpl-1").then_some(s)
    });
    assert_eq!(out.lines().count(), 1, "{out}");
    let st = daemon.status();
    assert_eq!(st["records"]["malformed"], 1, "{st}");
    let hwm = vm_hwm_kib(daemon.child.id());
    assert!(hwm < 48 * 1024, "peak RSS {hwm} KiB for a 96 MiB line");
    daemon.terminate();
}

// ---------------------------------------------------------------------------
// Item 8: delivery, full disks, health, private files.

fn record(i: usize) -> String {
    // 100 bytes a line.
    format!("{{\"request_id\":\"chatcmpl-{i:073x}\"}}\n")
}

/// Regression: on a full disk `/v1/status` reported records out and no
/// sink errors while the file held none of them, and after space returned
/// the next record was appended to the torn fragment.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_counts_drops_reports_unhealthy_and_the_next_record_starts_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    one_sink_policy(d, "");
    // A 4096-byte file size limit (RLIMIT_FSIZE): writes past it fail with
    // EFBIG, as on a full disk; SIGXFSZ is ignored so the write returns.
    let mut daemon = Daemon::start_in(
        d,
        Stdio::null(),
        Some("trap '' XFSZ; exec prlimit --fsize=4096:unlimited \"$0\" \"$@\""),
    );
    let body: String = (0..20).map(record).collect();
    assert_eq!(body.len(), 2000);
    let r = daemon.post("/v1/records", &[NDJSON], body.as_bytes());
    assert_eq!(r.status, 200);
    poll("20 records out", || {
        (sink(&daemon.status(), "std")["records_out"]["standard"] == 20).then_some(())
    });
    let body: String = (20..60).map(record).collect();
    let r = daemon.post("/v1/records", &[NDJSON], body.as_bytes());
    assert_eq!(r.status, 200);
    // 4096 bytes fit: 20 more whole records and a torn 21st; the other 19
    // never reach the file.
    let st = poll("the failed write to be counted", || {
        let st = daemon.status();
        let s = sink(&st, "std");
        (s["records_out"]["standard"].as_u64().unwrap()
            + s["dropped"]["sink_error"].as_u64().unwrap()
            == 60)
            .then_some(st)
    });
    let s = sink(&st, "std");
    assert_eq!(s["records_out"]["standard"], 40, "{s}");
    assert_eq!(s["dropped"]["sink_error"], 20, "{s}");
    assert_eq!(s["healthy"], false, "{s}");
    let h = daemon.get("/healthz");
    assert_eq!(h.status, 503, "{}", h.text());
    assert!(h.text().contains("sink `std`"), "{}", h.text());
    assert!(
        daemon
            .get("/metrics")
            .text()
            .contains("tracegate_sink_up{sink=\"std\"} 0")
    );
    // Every line counted out is in the file, whole.
    let text = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let whole = text
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count();
    assert_eq!(whole, 40, "{text}");
    // Space returns.
    let pid = daemon.child.id().to_string();
    let ok = Command::new("prlimit")
        .args(["--pid", &pid, "--fsize=unlimited"])
        .status()
        .unwrap();
    assert!(ok.success());
    poll("the sink to be healthy again", || {
        (daemon.get("/healthz").status == 200).then_some(())
    });
    let r = daemon.post("/v1/records", &[NDJSON], record(99).as_bytes());
    assert_eq!(r.status, 200);
    poll("the next record out", || {
        (sink(&daemon.status(), "std")["records_out"]["standard"] == 41).then_some(())
    });
    daemon.terminate();
    let text = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let last = text.lines().last().unwrap();
    assert_eq!(format!("{last}\n"), record(99), "appended to a torn line");
    let whole = text
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok())
        .count();
    assert_eq!(whole, 41);
    // The torn fragment is a line of its own, before the new record.
    assert_eq!(text.lines().count(), 42, "{text}");
}

/// Regression: a sink whose output folder did not exist logged an error
/// every second and dropped everything; files were created 0644.
#[cfg(unix)]
#[test]
fn a_missing_output_folder_is_created_private_and_sink_files_are_0600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        "[server]\nflush_interval = \"50ms\"\n\
         [[sink]]\nname = \"std\"\noutput = \"file:state/traces/std.jsonl\"\n",
    )
    .unwrap();
    let mut daemon = Daemon::start_in(d, Stdio::null(), Some("umask 022"));
    let r = daemon.post(
        "/v1/records",
        &[NDJSON],
        b"{\"request_id\":\"chatcmpl-1\"}\n",
    );
    assert_eq!(r.status, 200);
    let file = d.join("state/traces/std.jsonl");
    poll("the record in the new folder", || {
        let s = std::fs::read_to_string(&file).unwrap_or_default();
        s.contains("chatcmpl-1").then_some(())
    });
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&file), 0o600);
    assert_eq!(mode(&d.join("state/traces")), 0o700);
    assert_eq!(mode(&d.join("state")), 0o700);
    daemon.terminate();
}

// ---------------------------------------------------------------------------
// Item 9: the OTLP forwarder.

/// Regression: records that passed the gate but did not start with the
/// bytes `{"resourceSpans"` were dropped by the forwarder (3 of 4 lost).
#[test]
fn the_forwarder_delivers_every_otlp_shape_in_batches() {
    let dir_b = tempfile::tempdir().unwrap();
    one_sink_policy(dir_b.path(), "");
    let receiver = Daemon::start(dir_b.path());
    let dir_a = tempfile::tempdir().unwrap();
    std::fs::write(
        dir_a.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\n\
             [[sink]]\nname = \"fwd\"\noutput = \"otlp+http://{}\"\n",
            receiver.addr
        ),
    )
    .unwrap();
    let mut sender = Daemon::start(dir_a.path());
    let attrs = |n: u32| json!([{"key": "cf.request_id", "value": {"stringValue": format!("chatcmpl-a{n}")}}]);
    let span = |n: u32| json!({"name": "llm_request", "kind": 1, "attributes": attrs(n)});
    let req = |n: u32| json!({"resourceSpans": [{"scopeSpans": [{"spans": [span(n)]}]}]});
    let lines = [
        // Spaces after the brace and around the colon.
        format!("{{ \"resourceSpans\" : {} }}", req(1)["resourceSpans"]),
        // A bare span, as in the seeds.
        span(2).to_string(),
        // A bare span with its keys in another order.
        format!(
            "{{\"attributes\":{},\"kind\":1,\"name\":\"llm_request\"}}",
            attrs(3)
        ),
        // The plain form.
        req(4).to_string(),
    ];
    let body = lines.join("\n") + "\n";
    let r = sender.post("/v1/records", &[NDJSON], body.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["rejected"], 0, "{v}");
    let stored = poll("all four at the receiver", || {
        let s = std::fs::read_to_string(dir_b.path().join("std.jsonl")).unwrap_or_default();
        (1..=4)
            .all(|n| s.contains(&format!("chatcmpl-a{n}\"")))
            .then_some(s)
    });
    let st = sender.status();
    assert_eq!(sink(&st, "fwd")["records_out"]["standard"], 4, "{st}");
    assert_eq!(sink(&st, "fwd")["dropped"]["sink_error"], 0, "{st}");
    // Batched: fewer export requests than records.
    let requests = receiver.status()["records"]["received"].as_u64().unwrap();
    assert!(requests < 4, "{requests} requests for 4 records: {stored}");
    sender.terminate();
}

/// A receiver that answers the first request 503 with `Retry-After: 2`,
/// then 200; it records when each request arrived.
fn picky_receiver() -> (String, Arc<Mutex<Vec<Instant>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = Arc::clone(&seen);
    std::thread::spawn(move || {
        for (i, conn) in l.incoming().enumerate().take(8) {
            let Ok(mut c) = conn else { return };
            c.set_read_timeout(Some(DEADLINE)).unwrap();
            let mut req = Vec::new();
            let mut buf = [0u8; 4096];
            // Headers, then the body by its length.
            let body_len = loop {
                let n = c.read(&mut buf).unwrap_or(0);
                if n == 0 {
                    return;
                }
                req.extend_from_slice(&buf[..n]);
                if let Some(h) = req.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&req[..h]).to_ascii_lowercase();
                    let len: usize = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .map_or(0, |v| v.trim().parse().unwrap());
                    break h + 4 + len;
                }
            };
            while req.len() < body_len {
                let n = c.read(&mut buf).unwrap_or(0);
                if n == 0 {
                    return;
                }
                req.extend_from_slice(&buf[..n]);
            }
            seen2.lock().unwrap().push(Instant::now());
            let resp: &[u8] = if i == 0 {
                b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 2\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            } else {
                b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            };
            let _ = c.write_all(resp);
        }
    });
    (addr, seen)
}

/// Regression: the forwarder retried after a fixed 100 ms whatever the
/// receiver asked for.
#[test]
fn the_forwarder_waits_as_long_as_retry_after_asks() {
    let (addr, seen) = picky_receiver();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\n\
             [[sink]]\nname = \"fwd\"\noutput = \"otlp+http://{addr}\"\n"
        ),
    )
    .unwrap();
    let mut sender = Daemon::start(dir.path());
    let r = sender.post(
        "/v1/traces",
        &[JSON],
        span_request(content_attrs(1)).to_string().as_bytes(),
    );
    assert_eq!(r.status, 200);
    poll("the record delivered on the second attempt", || {
        (sink(&sender.status(), "fwd")["records_out"]["standard"] == 1).then_some(())
    });
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let gap = seen[1] - seen[0];
    assert!(gap >= Duration::from_millis(1900), "retried after {gap:?}");
    sender.terminate();
}

// ---------------------------------------------------------------------------
// Item 10: SIGHUP.

/// Regression: SIGHUP killed the daemon (exit 129), nothing drained.
#[cfg(unix)]
#[test]
fn sighup_reloads_the_policy_and_the_daemon_keeps_serving() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    one_sink_policy(d, "");
    let mut daemon = Daemon::start(d);
    let hup = |daemon: &Daemon| {
        let pid = daemon.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-HUP", &pid])
                .status()
                .unwrap()
                .success()
        );
    };
    hup(&daemon);
    poll("the SIGHUP to be handled", || {
        let log = std::fs::read_to_string(d.join("serve.log")).unwrap_or_default();
        log.contains("SIGHUP: reloading the policy").then_some(())
    });
    assert!(
        daemon.child.try_wait().unwrap().is_none(),
        "SIGHUP ended it"
    );
    // Unchanged policy: no new revision.
    assert_eq!(daemon.status()["policy"]["revision"], 1);
    replace_policy(
        d,
        "[server]\nflush_interval = \"70ms\"\n[[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n",
    );
    hup(&daemon);
    poll("revision 2", || {
        (daemon.status()["policy"]["revision"] == 2).then_some(())
    });
    let r = daemon.post(
        "/v1/records",
        &[NDJSON],
        b"{\"request_id\":\"chatcmpl-1\"}\n",
    );
    assert_eq!(r.status, 200);
    daemon.terminate();
}
