//! OTLP/gRPC in and out, and TLS, with the real binary on loopback ports:
//! a tonic client over hyper (the same crates as the daemon, none of its
//! code but the pass-through codec) speaks to `serve`; one `serve` exports
//! to another. Certificates are made at test time (rcgen). Every wait is a
//! bounded poll.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use prost::Message;
use serde_json::{Value, json};
use tonic::Code;
use tonic::codec::CompressionEncoding;

use crate::serve::{Daemon, content_attrs, filter, policy_text, poll, span_request, window};
use tracegate::internals::record::otlp_proto::{
    decode_traces_protobuf, encode_logs_protobuf, encode_traces_protobuf,
};
use tracegate_daemon::otlp_grpc::{ExportResponse, LOGS_PATH, RawCodec, TRACES_PATH, retry_delay};

/// Start `tracegate serve` on `dir/policy.toml` with both receivers on
/// loopback port 0; the daemon and its gRPC address.
pub(crate) fn start(dir: &Path) -> (Daemon, String) {
    start_with(dir, Stdio::null())
}

fn start_with(dir: &Path, stdout: Stdio) -> (Daemon, String) {
    let ready = dir.join("ready");
    let grpc_ready = dir.join("grpc-ready");
    let _ = std::fs::remove_file(&ready);
    let _ = std::fs::remove_file(&grpc_ready);
    let log = std::fs::File::create(dir.join("serve.log")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["serve", "--policy"])
        .arg(dir.join("policy.toml"))
        .args(["--listen", "127.0.0.1:0", "--ready-file"])
        .arg(&ready)
        .args(["--grpc-listen", "127.0.0.1:0", "--grpc-ready-file"])
        .arg(&grpc_ready)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(log)
        .spawn()
        .unwrap();
    let mut d = Daemon {
        child,
        addr: String::new(),
        dir: dir.to_path_buf(),
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

/// How a test client calls.
#[derive(Default, Clone)]
pub(crate) struct Call {
    pub(crate) gzip: bool,
    pub(crate) token: Option<String>,
    pub(crate) tls: Option<rustls::ClientConfig>,
}

/// One unary call to `path` on `addr` with `body` as the message.
pub(crate) fn call(
    addr: &str,
    path: &'static str,
    body: Vec<u8>,
    how: &Call,
) -> Result<Bytes, tonic::Status> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let scheme = if how.tls.is_some() { "https" } else { "http" };
        let cfg = how.tls.clone().unwrap_or_else(|| {
            rustls::ClientConfig::builder_with_provider(tracegate_daemon::tls::provider())
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth()
        });
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(cfg)
            .https_or_http()
            .enable_http2()
            .build();
        let client =
            hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
                .http2_only(true)
                .build::<_, tonic::body::Body>(connector);
        let origin: axum::http::Uri = format!("{scheme}://{addr}").parse().unwrap();
        let mut grpc = tonic::client::Grpc::with_origin(client, origin);
        if how.gzip {
            grpc = grpc.send_compressed(CompressionEncoding::Gzip);
        }
        grpc = grpc.accept_compressed(CompressionEncoding::Gzip);
        let mut req = tonic::Request::new(Bytes::from(body));
        req.set_timeout(Duration::from_secs(10));
        if let Some(t) = &how.token {
            req.metadata_mut()
                .insert("authorization", format!("Bearer {t}").parse().unwrap());
        }
        grpc.ready()
            .await
            .map_err(|e| tonic::Status::unavailable(e.to_string()))?;
        grpc.unary::<Bytes, Bytes, _>(
            req,
            axum::http::uri::PathAndQuery::from_static(path),
            RawCodec,
        )
        .await
        .map(tonic::Response::into_inner)
    })
}

fn traces(v: &Value) -> Vec<u8> {
    encode_traces_protobuf(&v.to_string()).unwrap()
}

fn partial(resp: &Bytes) -> Option<(i64, String)> {
    ExportResponse::decode(resp.clone())
        .unwrap()
        .partial_success
        .map(|p| (p.rejected, p.error_message))
}

fn lines(p: &Path) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn grpc_exports_are_judged_per_sink_exactly_as_http_ones() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"50ms\"") + &window("grpc", -60, 3600),
    )
    .unwrap();
    let (mut daemon, grpc) = start(d);
    let req = span_request(content_attrs(1));
    // The same request, over gRPC (plain and gzip) and over OTLP/HTTP.
    let plain = call(&grpc, TRACES_PATH, traces(&req), &Call::default()).unwrap();
    assert_eq!(partial(&plain), None);
    let zipped = Call {
        gzip: true,
        ..Call::default()
    };
    call(&grpc, TRACES_PATH, traces(&req), &zipped).unwrap();
    let http = daemon.post(
        "/v1/traces",
        &[("content-type", "application/x-protobuf")],
        &traces(&req),
    );
    assert_eq!(http.status, 200, "{}", http.text());
    daemon.terminate();
    let std_out = lines(&d.join("std.jsonl"));
    let cap_out = lines(&d.join("cap.jsonl"));
    assert_eq!(std_out.len(), 3, "{std_out:?}");
    assert_eq!(cap_out.len(), 3, "{cap_out:?}");
    // One decision: each transport's record is the same, byte for byte.
    assert!(std_out.iter().all(|l| *l == std_out[0]), "{std_out:?}");
    assert!(cap_out.iter().all(|l| *l == cap_out[0]), "{cap_out:?}");
    assert!(!std_out[0].contains("CANARY"), "{}", std_out[0]);
    assert!(std_out[0].contains("chatcmpl-1"), "{}", std_out[0]);
    assert!(cap_out[0].contains("CANARY-PROMPT-1"), "{}", cap_out[0]);
}

/// Both kinds of output a sink writer has, stdout and a file, fed over
/// gRPC: each holds exactly what `filter` writes for the same spans, byte
/// for byte and in order, for requests smaller and larger than the
/// writer's buffer (a large one goes out in its own bytes), plain and gzip.
#[test]
fn grpc_exports_reach_stdout_and_file_sinks_exactly_as_filter_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = format!(
        "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"2s\"\n\
         [server]\nmax_body_bytes = 4194304\nflush_interval = \"20ms\"\n\
         [[sink]]\nname = \"std\"\noutput = \"stdout\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n{}",
        window("out", -60, 3600)
    );
    std::fs::write(d.join("policy.toml"), text).unwrap();
    let stdout = std::fs::File::create(d.join("stdout.jsonl")).unwrap();
    let (mut daemon, grpc) = start_with(d, Stdio::from(stdout));
    let small = span_request(content_attrs(1));
    // About 2,000 spans: its line is several times the 256 KiB buffer.
    let mut large = span_request(content_attrs(2));
    let one = large["resourceSpans"][0]["scopeSpans"][0]["spans"][0].clone();
    let spans = large["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array_mut()
        .unwrap();
    for i in 0..2000u32 {
        let mut s = one.clone();
        s["attributes"] = content_attrs(1000 + i);
        spans.push(s);
    }
    let mut expected = String::new();
    for (i, req) in [&small, &large, &small, &large].into_iter().enumerate() {
        let body = traces(req);
        let how = Call {
            gzip: i % 2 == 1,
            ..Call::default()
        };
        let r = call(&grpc, TRACES_PATH, body.clone(), &how).unwrap();
        assert_eq!(partial(&r), None);
        expected += &decode_traces_protobuf(&body).unwrap();
        expected.push('\n');
    }
    assert!(expected.len() > 4 * 256 * 1024, "{}", expected.len());
    daemon.terminate();
    let std_out = std::fs::read_to_string(d.join("stdout.jsonl")).unwrap();
    let cap_out = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    assert_eq!(std_out.lines().count(), 4);
    assert!(!std_out.contains("CANARY"));
    assert!(cap_out.contains("CANARY-PROMPT-2999"));
    assert!(
        std_out == filter(d, "std", &expected),
        "stdout differs from filter's"
    );
    assert!(
        cap_out == filter(d, "cap", &expected),
        "the file differs from filter's"
    );
}

#[test]
fn grpc_logs_reach_the_standard_sink_without_their_content() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), policy_text("")).unwrap();
    let (mut daemon, grpc) = start(d);
    let logs = json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [
        {"timeUnixNano": "1700000000000000000", "severityNumber": 9,
         "body": {"stringValue": "CANARY-LOG-BODY"},
         "attributes": [{"key": "gen_ai.prompt", "value": {"stringValue": "CANARY-LOG"}}]}
    ]}]}]});
    let body = encode_logs_protobuf(&logs.to_string()).unwrap();
    call(&grpc, LOGS_PATH, body, &Call::default()).unwrap();
    daemon.terminate();
    let std_out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    assert_eq!(std_out.lines().count(), 1, "{std_out}");
    assert!(std_out.contains("resourceLogs"), "{std_out}");
    assert!(!std_out.contains("CANARY"), "{std_out}");
}

#[test]
fn grpc_refusals_have_the_otlp_codes_and_only_overloads_ask_for_a_retry() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), policy_text("max_spans = 2")).unwrap();
    let (mut daemon, grpc) = start(d);
    let plain = Call::default();
    // Not protobuf at all.
    let e = call(&grpc, TRACES_PATH, b"\xff\xff\xff".to_vec(), &plain).unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert_eq!(retry_delay(&e), None);
    // Past a structure bound, checked on the wire: final, no retry info.
    let three = json!({"resourceSpans": [{"scopeSpans": [{"spans": [
        {"name": "a"}, {"name": "b"}, {"name": "c"}]}]}]});
    let e = call(&grpc, TRACES_PATH, traces(&three), &plain).unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
    assert!(e.message().contains("max_spans"), "{e:?}");
    assert_eq!(retry_delay(&e), None, "a bound is not retryable");
    // A gzip bomb: 2 MiB of one attribute value, well under 64 KiB
    // compressed, inflates past max_body_bytes inside tonic's bounded
    // decompression: final, not OUT_OF_RANGE (which clients retry).
    let bomb = span_request(json!([
        {"key": "gen_ai.prompt", "value": {"stringValue": "A".repeat(2 << 20)}}
    ]));
    let gz = Call {
        gzip: true,
        ..Call::default()
    };
    let e = call(&grpc, TRACES_PATH, traces(&bomb), &gz).unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
    assert_eq!(retry_delay(&e), None);
    // Over max_body_bytes uncompressed: refused while it is read.
    let big = span_request(json!([
        {"key": "gen_ai.prompt", "value": {"stringValue": "A".repeat(70_000)}}
    ]));
    let e = call(&grpc, TRACES_PATH, traces(&big), &plain).unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
    // A span whose allowlisted field breaks its rule: dropped for every
    // sink, counted in partial_success; the rule is named, the value not.
    let bad = span_request(json!([
        {"key": "cf.request_id", "value": {"stringValue": "CANARY not an id"}}
    ]));
    let resp = call(&grpc, TRACES_PATH, traces(&bad), &plain).unwrap();
    let (rejected, why) = partial(&resp).expect("a partial success");
    assert_eq!(rejected, 1, "the bad span alone; the other went through");
    assert!(why.contains("pattern"), "{why}");
    assert!(!why.contains("CANARY"), "{why}");
    // Another service or method.
    let e = call(
        &grpc,
        "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export",
        vec![],
        &plain,
    )
    .unwrap_err();
    assert_eq!(e.code(), Code::Unimplemented, "{e:?}");
    let m = daemon.get("/metrics").text();
    assert!(
        m.contains("tracegate_requests_refused_total{code=\"413\"} 3"),
        "{m}"
    );
    assert!(
        m.contains("tracegate_requests_refused_total{code=\"400\"} 1"),
        "{m}"
    );
    daemon.terminate();
    let log = std::fs::read_to_string(d.join("serve.log")).unwrap();
    assert!(!log.contains("CANARY"), "{log}");
    assert!(
        !std::fs::read_to_string(d.join("std.jsonl"))
            .unwrap_or_default()
            .contains("CANARY")
    );
}

#[cfg(target_os = "linux")]
#[test]
fn full_queues_answer_resource_exhausted_with_retry_info() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One sink, stdout, into a pipe nobody reads: its queue fills.
    std::fs::write(
        d.join("policy.toml"),
        "[server]\nqueue_records = 1000000\nqueue_bytes = 1048576\nmax_body_bytes = 4194304\n\
         [[sink]]\nname = \"out\"\noutput = \"stdout\"\n",
    )
    .unwrap();
    let (daemon, grpc) = start_with(d, Stdio::piped());
    let mut body = String::new();
    let mut n = 0u32;
    while body.len() < 3 << 20 {
        n += 1;
        body += &format!("{{\"request_id\":\"chatcmpl-{n:x}\",\"prompt_tokens\":{n}}}\n");
    }
    let ndjson = ("content-type", "application/x-ndjson");
    let full = (0..8).any(|_| {
        daemon
            .post("/v1/records", &[ndjson], body.as_bytes())
            .status
            == 503
    });
    assert!(full, "the queue never filled");
    let req = span_request(content_attrs(1));
    let e = call(&grpc, TRACES_PATH, traces(&req), &Call::default()).unwrap_err();
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
    assert_eq!(retry_delay(&e), Some(Duration::from_secs(1)), "{e:?}");
    drop(daemon);
}

#[test]
fn a_bearer_token_is_required_on_every_ingest_path_when_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let token = "t0ken-for-the-test-0123456789";
    std::fs::write(d.join("token"), format!("{token}\n")).unwrap();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("bearer_token_file = \"token\""),
    )
    .unwrap();
    let (mut daemon, grpc) = start(d);
    let req = traces(&span_request(content_attrs(1)));
    for wrong in [
        None,
        Some("t0ken-for-the-test-012345678"),
        Some("T0KEN-FOR-THE-TEST-0123456789"),
    ] {
        let how = Call {
            token: wrong.map(str::to_string),
            ..Call::default()
        };
        let e = call(&grpc, TRACES_PATH, req.clone(), &how).unwrap_err();
        assert_eq!(e.code(), Code::Unauthenticated, "{e:?}");
        let mut headers = vec![("content-type", "application/x-protobuf")];
        let bearer = wrong.map(|w| format!("Bearer {w}"));
        if let Some(b) = &bearer {
            headers.push(("authorization", b.as_str()));
        }
        let r = daemon.post("/v1/traces", &headers, &req);
        assert_eq!(r.status, 401, "{}", r.text());
        assert_eq!(r.header("www-authenticate"), Some("Bearer"));
        let r = daemon.post(
            "/v1/records",
            &headers,
            b"{\"request_id\":\"chatcmpl-1\"}\n",
        );
        assert_eq!(r.status, 401);
    }
    let right = Call {
        token: Some(token.into()),
        ..Call::default()
    };
    call(&grpc, TRACES_PATH, req.clone(), &right).unwrap();
    let bearer = format!("Bearer {token}");
    let r = daemon.post(
        "/v1/traces",
        &[
            ("content-type", "application/x-protobuf"),
            ("authorization", &bearer),
        ],
        &req,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    // Operations endpoints stay open (probes carry no token).
    assert_eq!(daemon.get("/healthz").status, 200);
    let m = daemon.get("/metrics").text();
    assert!(
        m.contains("tracegate_requests_refused_total{code=\"401\"} 9"),
        "{m}"
    );
    daemon.terminate();
    let log = std::fs::read_to_string(d.join("serve.log")).unwrap();
    assert!(!log.contains("t0ken"), "the token is never logged: {log}");
    assert_eq!(lines(&d.join("std.jsonl")).len(), 2);
}

#[test]
fn serve_forwards_over_grpc_to_another_serve_and_every_record_arrives_once() {
    let downstream = tempfile::tempdir().unwrap();
    std::fs::write(
        downstream.path().join("policy.toml"),
        "[server]\nflush_interval = \"50ms\"\n[[sink]]\nname = \"store\"\noutput = \"file:store.jsonl\"\n",
    )
    .unwrap();
    let (mut down, down_grpc) = start(downstream.path());
    let upstream = tempfile::tempdir().unwrap();
    std::fs::write(
        upstream.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\n\
             [[sink]]\nname = \"fwd\"\noutput = \"otlp+grpc://{down_grpc}\"\n"
        ),
    )
    .unwrap();
    let (mut up, up_grpc) = start(upstream.path());
    let n = 40u32;
    for i in 0..n {
        let req = traces(&span_request(content_attrs(i)));
        if i % 2 == 0 {
            call(&up_grpc, TRACES_PATH, req, &Call::default()).unwrap();
        } else {
            let r = up.post(
                "/v1/traces",
                &[("content-type", "application/x-protobuf")],
                &req,
            );
            assert_eq!(r.status, 200);
        }
    }
    // Each request is two spans; the upstream batches them.
    poll("every record forwarded", || {
        let s = up.status();
        (s["sinks"][0]["records_out"]["standard"].as_u64() == Some(u64::from(n))).then_some(())
    });
    up.terminate();
    down.terminate();
    let got = std::fs::read_to_string(downstream.path().join("store.jsonl")).unwrap();
    assert!(!got.contains("CANARY"), "{got}");
    for i in 0..n {
        let id = format!("\"chatcmpl-{i:x}\"");
        assert_eq!(got.matches(&id).count(), 1, "{id} in {got}");
    }
}

/// Standard sink `std`; full sinks `cap` (a window open now) and `later`
/// (a window that opens in an hour).
fn sdk_policy(server: &str) -> String {
    use crate::serve::ts;
    format!(
        "[audit]\npath = \"audit.jsonl\"\n[server]\nflush_interval = \"50ms\"\n{server}\n\
         [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n\
         [[sink]]\nname = \"later\"\nfull_allowed = true\noutput = \"file:later.jsonl\"\n\
         [[window]]\nid = \"now\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\nreason = \"sdk test\"\nrequested_by = \"tests\"\n\
         [[window]]\nid = \"soon\"\nsink = \"later\"\nstart = \"{}\"\nend = \"{}\"\nreason = \"sdk test\"\nrequested_by = \"tests\"\n",
        ts(-60),
        ts(3600),
        ts(3600),
        ts(7200)
    )
}

fn sdk_export(py: &str, addr: &str, tag: &str, ca: Option<&Path>) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otel_sdk/export_spans_grpc.py");
    let mut c = Command::new(py);
    c.arg(&script).args([addr, tag, "20"]);
    if let Some(ca) = ca {
        c.arg(ca);
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn sdk_check(d: &Path, tag: &str) {
    let std_out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let cap_out = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    let later = std::fs::read_to_string(d.join("later.jsonl")).unwrap_or_default();
    assert_eq!(std_out.lines().count(), 1, "{std_out}");
    assert!(!std_out.contains("CANARY"), "{std_out}");
    assert!(
        std_out.contains("chatcmpl-14"),
        "standard attributes pass: {std_out}"
    );
    for i in 0..20 {
        assert!(cap_out.contains(&format!("CANARY-{tag}-{i} ")), "{cap_out}");
    }
    assert!(!later.contains("CANARY"), "outside its window: {later}");
    assert!(later.contains("chatcmpl-14"), "{later}");
}

#[test]
#[cfg_attr(
    not(otel_sdk),
    ignore = "needs the OpenTelemetry Python SDK: set TRACEGATE_OTEL_PYTHON (scripts/otel-sdk-check.sh)"
)]
fn the_opentelemetry_python_sdk_exports_over_grpc_through_serve() {
    let Some(py) =
        crate::otel_sdk::python_with("opentelemetry.exporter.otlp.proto.grpc.trace_exporter")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), sdk_policy("")).unwrap();
    let (mut daemon, grpc) = start(d);
    sdk_export(&py, &grpc, "GRPC", None);
    daemon.terminate();
    sdk_check(d, "GRPC");
}

#[test]
#[cfg_attr(
    not(otel_sdk),
    ignore = "needs the OpenTelemetry Python SDK: set TRACEGATE_OTEL_PYTHON (scripts/otel-sdk-check.sh)"
)]
fn the_opentelemetry_python_sdk_exports_over_grpc_with_tls_through_serve() {
    let Some(py) =
        crate::otel_sdk::python_with("opentelemetry.exporter.otlp.proto.grpc.trace_exporter")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = crate::tls::Pki::new(d, "main");
    pki.leaf("server", &["127.0.0.1", "localhost"]);
    std::fs::write(
        d.join("policy.toml"),
        sdk_policy("tls_cert_file = \"server.pem\"\ntls_key_file = \"server.key\""),
    )
    .unwrap();
    let (mut daemon, grpc) = start(d);
    // The CA travels to Python by file; the exporter trusts only it.
    sdk_export(&py, &grpc, "TLS", Some(&d.join("main-ca.pem")));
    daemon.terminate();
    sdk_check(d, "TLS");
}

/// What a scripted receiver answers to each call, in order; the last
/// answer repeats.
#[derive(Clone, Copy, Debug)]
enum Reply {
    Ok,
    /// OK, with a partial success rejecting this many items.
    Partial(i64),
    /// RESOURCE_EXHAUSTED, with a RetryInfo delay (ms) or none.
    Exhausted(Option<u64>),
    Code(Code),
}

/// A gRPC receiver built on tonic and hyper that answers from a script and
/// records when each call came. Stops when dropped.
struct Scripted {
    addr: String,
    calls: Arc<Mutex<Vec<std::time::Instant>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Scripted {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[derive(Clone)]
struct Answer(Bytes);

impl tonic::server::UnaryService<Bytes> for Answer {
    type Response = Bytes;
    type Future = std::future::Ready<Result<tonic::Response<Bytes>, tonic::Status>>;
    fn call(&mut self, _: tonic::Request<Bytes>) -> Self::Future {
        std::future::ready(Ok(tonic::Response::new(self.0.clone())))
    }
}

impl Scripted {
    fn start(script: Vec<Reply>) -> Scripted {
        let calls = Arc::new(Mutex::new(Vec::new()));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let seen = Arc::clone(&calls);
        let thread = crate::serve_on_thread(listener, move |listener| async move {
            let handler = move |req: axum::extract::Request| {
                let seen = Arc::clone(&seen);
                let script = script.clone();
                async move {
                    let n = {
                        let mut s = seen.lock().unwrap();
                        s.push(std::time::Instant::now());
                        s.len()
                    };
                    let reply = script[(n - 1).min(script.len() - 1)];
                    let status = match reply {
                        Reply::Ok | Reply::Partial(_) => {
                            let rejected = match reply {
                                Reply::Partial(n) => n,
                                _ => 0,
                            };
                            let answer = ExportResponse {
                                partial_success: (rejected > 0).then_some(
                                    tracegate_daemon::otlp_grpc::PartialSuccess {
                                        rejected,
                                        error_message: "scripted".into(),
                                    },
                                ),
                            };
                            let mut g = tonic::server::Grpc::new(RawCodec);
                            return g
                                .unary(Answer(Bytes::from(answer.encode_to_vec())), req)
                                .await
                                .map(axum::body::Body::new);
                        }
                        Reply::Exhausted(None) => tonic::Status::resource_exhausted("full"),
                        Reply::Exhausted(Some(ms)) => {
                            use tracegate_daemon::otlp_grpc::{
                                Any, ProtoDuration, RETRY_INFO_TYPE, RetryInfo, RpcStatus,
                            };
                            let info = RetryInfo {
                                retry_delay: Some(ProtoDuration {
                                    seconds: (ms / 1000) as i64,
                                    nanos: ((ms % 1000) * 1_000_000) as i32,
                                }),
                            };
                            let details = RpcStatus {
                                code: Code::ResourceExhausted as i32,
                                message: "full".into(),
                                details: vec![Any {
                                    type_url: RETRY_INFO_TYPE.into(),
                                    value: info.encode_to_vec(),
                                }],
                            };
                            tonic::Status::with_details(
                                Code::ResourceExhausted,
                                "full",
                                Bytes::from(details.encode_to_vec()),
                            )
                        }
                        Reply::Code(c) => tonic::Status::new(c, "scripted"),
                    };
                    status.into_http()
                }
            };
            let app = axum::Router::new().fallback(handler);
            loop {
                let (s, _) = tokio::select! {
                    _ = &mut rx => break,
                    r = listener.accept() => r.unwrap(),
                };
                let svc = hyper_util::service::TowerToHyperService::new(app.clone());
                tokio::spawn(async move {
                    let _ = hyper::server::conn::http2::Builder::new(
                        hyper_util::rt::TokioExecutor::new(),
                    )
                    .serve_connection(hyper_util::rt::TokioIo::new(s), svc)
                    .await;
                });
            }
        });
        Scripted {
            addr,
            calls,
            stop: Some(tx),
            thread: Some(thread),
        }
    }

    fn calls(&self) -> Vec<std::time::Instant> {
        self.calls.lock().unwrap().clone()
    }
}

/// Quick retries for a scripted receiver: 20 ms growing to 100 ms, for
/// at most 3 s.
const RETRY: &str = "retry_initial_interval = \"20ms\"\nretry_max_interval = \"100ms\"\nretry_max_elapsed = \"3s\"\n";

/// `serve` exporting to `receiver`; one request sent; the sink's status once
/// the record is delivered or dropped.
fn export_once(receiver: &Scripted) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"20ms\"\n{RETRY}[[sink]]\nname = \"fwd\"\noutput = \"otlp+grpc://{}\"\n",
            receiver.addr
        ),
    )
    .unwrap();
    let (mut daemon, grpc) = start(d);
    call(
        &grpc,
        TRACES_PATH,
        traces(&span_request(content_attrs(1))),
        &Call::default(),
    )
    .unwrap();
    let sink = poll("the record delivered or dropped", || {
        let s = daemon.status()["sinks"][0].clone();
        let done = s["records_out"]["standard"].as_u64() == Some(1)
            || s["dropped"]["sink_error"].as_u64() == Some(1);
        done.then_some(s)
    });
    daemon.terminate();
    sink
}

#[test]
fn the_grpc_exporter_waits_as_retry_info_asks_then_delivers_once() {
    let receiver = Scripted::start(vec![Reply::Exhausted(Some(1200)), Reply::Ok]);
    let sink = export_once(&receiver);
    assert_eq!(sink["records_out"]["standard"], 1, "{sink}");
    let calls = receiver.calls();
    assert_eq!(calls.len(), 2, "one retry");
    // The backoff alone would have waited at most 20 ms.
    assert!(
        calls[1] - calls[0] >= Duration::from_millis(1200),
        "{:?}",
        calls[1] - calls[0]
    );
}

#[test]
fn the_grpc_exporter_gives_up_on_final_codes_at_once_and_counts_the_drop() {
    for reply in [
        Reply::Exhausted(None),
        Reply::Code(Code::InvalidArgument),
        Reply::Code(Code::Unauthenticated),
    ] {
        let receiver = Scripted::start(vec![reply, Reply::Ok]);
        let sink = export_once(&receiver);
        assert_eq!(sink["dropped"]["sink_error"], 1, "{reply:?}: {sink}");
        assert_eq!(receiver.calls().len(), 1, "{reply:?} is not retried");
    }
}

#[test]
fn the_grpc_exporter_retries_retryable_codes_for_retry_max_elapsed() {
    let receiver = Scripted::start(vec![Reply::Code(Code::Unavailable)]);
    let sink = export_once(&receiver);
    assert_eq!(sink["dropped"]["sink_error"], 1, "{sink}");
    let calls = receiver.calls();
    // Waits of 10-20 ms growing to 50-100 ms, for at most 3 s: many
    // attempts, all started within the budget. The receiver stamps an
    // attempt when it arrives, a transit after the exporter started it
    // (0.6 ms late once on a loaded CI machine): a 50 ms allowance, at
    // most the shortest backoff step (50-100 ms) near the budget's end.
    assert!(calls.len() >= 10, "{} attempts", calls.len());
    assert!(
        calls[calls.len() - 1] - calls[0] <= Duration::from_millis(3050),
        "{:?}",
        calls[calls.len() - 1] - calls[0]
    );
    assert_eq!(sink["export_retries"], calls.len() as u64 - 1, "{sink}");
    let receiver = Scripted::start(vec![
        Reply::Code(Code::Aborted),
        Reply::Code(Code::DataLoss),
        Reply::Ok,
    ]);
    let sink = export_once(&receiver);
    assert_eq!(sink["records_out"]["standard"], 1, "{sink}");
    assert_eq!(receiver.calls().len(), 3);
}

#[test]
fn items_a_receiver_rejects_in_a_partial_success_are_counted_as_dropped() {
    let receiver = Scripted::start(vec![Reply::Partial(5)]);
    let sink = export_once(&receiver);
    // One record (one export request) was sent; the receiver rejected its
    // items: the record counts as dropped, never as delivered.
    assert_eq!(sink["dropped"]["sink_error"], 1, "{sink}");
    assert_eq!(sink["records_out"]["standard"], 0, "{sink}");
    assert_eq!(
        receiver.calls().len(),
        1,
        "a partial success is not retried"
    );
}

/// Regression: a batch grew past 4 MiB before it was sent, and a gRPC
/// receiver with the usual 4 MiB message limit (tonic's and the
/// Collector's default) refused it whole: every record of it was dropped.
#[test]
fn batches_stay_under_the_usual_grpc_message_limit() {
    let receiver = Scripted::start(vec![Reply::Ok]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"5s\"\nmax_spans = 32768\n[standard.otlp]\nmax_spans = 20000\n[[sink]]\nname = \"fwd\"\noutput = \"otlp+grpc://{}\"\n",
            receiver.addr
        ),
    )
    .unwrap();
    let (mut daemon, _) = start(d);
    // Two records of about 2.6 MB each (20,000 standard spans), sent
    // within one flush interval: together past 4 MiB.
    for i in 0..2u32 {
        let spans: Vec<Value> = (0..20_000u32)
            .map(|k| {
                json!({"traceId": format!("{:032x}", k + 1), "spanId": format!("{:016x}", k + 1),
                       "name": "llm_request", "startTimeUnixNano": "1700000000000000000",
                       "endTimeUnixNano": "1700000001000000000",
                       "attributes": [
                           {"key": "cf.request_id", "value": {"stringValue": format!("chatcmpl-{i:x}-{k:x}")}},
                           {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": "7"}}]})
            })
            .collect();
        let req = json!({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]});
        let body = encode_traces_protobuf(&req.to_string()).unwrap();
        assert!(body.len() > 5 << 19, "{}", body.len());
        let r = daemon.post(
            "/v1/traces",
            &[("content-type", "application/x-protobuf")],
            &body,
        );
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let sink = poll("both records delivered or dropped", || {
        let s = daemon.status()["sinks"][0].clone();
        let out = s["records_out"]["standard"].as_u64().unwrap_or(0);
        let dropped = s["dropped"]["sink_error"].as_u64().unwrap_or(0);
        (out + dropped == 2).then_some(s)
    });
    daemon.terminate();
    assert_eq!(sink["records_out"]["standard"], 2, "{sink}");
}
