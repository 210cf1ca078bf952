//! `tracegate serve` as it runs: the real binary on a loopback port, spoken
//! to over HTTP. Every wait is a bounded poll against a deadline.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub(crate) use crate::wait::poll;
use serde_json::{Value, json};
use tracegate::internals::record::otlp_proto::{
    decode_logs_protobuf, decode_traces_protobuf, encode_logs_protobuf, encode_traces_protobuf,
};
use tracegate::{AuditEvent, CloseCause, read_audit_log as read_entries};

/// How long any poll may wait before the test fails.
pub(crate) const DEADLINE: Duration = Duration::from_secs(15);

/// A running daemon; killed on drop if the test did not stop it.
pub(crate) struct Daemon {
    pub(crate) child: Child,
    pub(crate) addr: String,
    pub(crate) dir: PathBuf,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Daemon {
    /// Start `tracegate serve` on the policy `dir/policy.toml`.
    pub(crate) fn start(dir: &Path) -> Daemon {
        Daemon::start_with_stdout(dir, Stdio::null())
    }

    /// Likewise, with the daemon's stdout going to `stdout`.
    pub(crate) fn start_with_stdout(dir: &Path, stdout: Stdio) -> Daemon {
        Daemon::start_in(dir, stdout, None)
    }

    /// Likewise, started by `sh -c "{shell}; exec tracegate serve ..."`, to
    /// run under process limits (`ulimit`, `trap`); the shell's process
    /// becomes the daemon's.
    pub(crate) fn start_in(dir: &Path, stdout: Stdio, shell: Option<&str>) -> Daemon {
        let ready = dir.join("ready");
        let _ = std::fs::remove_file(&ready);
        let log = std::fs::File::create(dir.join("serve.log")).unwrap();
        let bin = env!("CARGO_BIN_EXE_tracegate");
        let mut cmd = match shell {
            None => Command::new(bin),
            Some(sh) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("{sh}; exec \"$0\" \"$@\""))
                    .arg(bin);
                c
            }
        };
        let child = cmd
            .args(["serve", "--policy"])
            .arg(dir.join("policy.toml"))
            .args(["--listen", "127.0.0.1:0", "--ready-file"])
            .arg(&ready)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(log)
            .spawn()
            .expect("spawn tracegate serve");
        let mut d = Daemon {
            child,
            addr: String::new(),
            dir: dir.to_path_buf(),
        };
        d.addr = poll("the ready file", || {
            std::fs::read_to_string(&ready)
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        });
        assert!(d.addr.starts_with("127.0.0.1:"), "{}", d.addr);
        d
    }

    pub(crate) fn post(&self, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
        http(&self.addr, "POST", path, headers, body)
    }

    pub(crate) fn get(&self, path: &str) -> Resp {
        http(&self.addr, "GET", path, &[], b"")
    }

    pub(crate) fn status(&self) -> Value {
        serde_json::from_slice(&self.get("/v1/status").body).unwrap()
    }

    /// SIGTERM, then the exit code (bounded wait).
    pub(crate) fn terminate(&mut self) -> i32 {
        let pid = self.child.id().to_string();
        let ok = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(ok.success());
        let code = poll("the daemon to exit", || {
            self.child
                .try_wait()
                .unwrap()
                .map(|s| s.code().unwrap_or(-1))
        });
        let log = std::fs::read_to_string(self.dir.join("serve.log")).unwrap_or_default();
        assert_eq!(code, 0, "serve log:\n{log}");
        code
    }
}

pub(crate) struct Resp {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Resp {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A minimal HTTP/1.1 client: one request per connection.
pub(crate) fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    http_within(addr, method, path, headers, body, DEADLINE)
}

/// Likewise, waiting up to `within` for the answer.
pub(crate) fn http_within(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    within: Duration,
) -> Resp {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(within)).unwrap();
    s.set_write_timeout(Some(within)).unwrap();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    // The server may answer (413) before reading the whole body.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete response head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Resp {
        status,
        headers,
        body,
    }
}

pub(crate) fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(i) = b.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let n = usize::from_str_radix(std::str::from_utf8(&b[..i]).unwrap().trim(), 16).unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + n]);
        b = &b[i + 2 + n + 2..];
    }
}

pub(crate) fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

pub(crate) const JSON: (&str, &str) = ("content-type", "application/json");
pub(crate) const PROTO: (&str, &str) = ("content-type", "application/x-protobuf");
pub(crate) const NDJSON: (&str, &str) = ("content-type", "application/x-ndjson");

pub(crate) fn ts(d: i64) -> String {
    let t = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(d);
    t.round(jiff::Unit::Second).unwrap().to_string()
}

/// A policy: a standard sink, a full sink, optional extra TOML.
pub(crate) fn policy_text(extra: &str) -> String {
    format!(
        "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"2s\"\n\
         [server]\nmax_body_bytes = 65536\n{extra}\n\
         [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n"
    )
}

pub(crate) fn window(id: &str, start: i64, end: i64) -> String {
    format!(
        "[[window]]\nid = \"{id}\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\n\
         reason = \"integration test\"\nrequested_by = \"tests\"\n",
        ts(start),
        ts(end)
    )
}

/// Replace the policy the way editors do: write a temporary, rename it over.
pub(crate) fn replace_policy(dir: &Path, text: &str) {
    let tmp = dir.join(".policy.toml.swp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, dir.join("policy.toml")).unwrap();
}

pub(crate) fn events(dir: &Path) -> Vec<(jiff::Timestamp, AuditEvent)> {
    match read_entries(&dir.join("audit.jsonl"), None) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| (e.ts, e.event))
            .collect(),
        Err(_) => Vec::new(),
    }
}

pub(crate) fn span_request(attrs: Value) -> Value {
    json!({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "engine"}}]},
        "scopeSpans": [{"spans": [
            {"traceId": "0102030405060708090a0b0c0d0e0f10", "spanId": "0102030405060708",
             "name": "llm_request", "kind": 1,
             "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000001000000000",
             "attributes": attrs},
            {"traceId": "0102030405060708090a0b0c0d0e0f10", "spanId": "0102030405060709",
             "name": "llm_request", "startTimeUnixNano": "1700000000000000000",
             "endTimeUnixNano": "1700000001000000000",
             "attributes": [{"key": "gen_ai.usage.input_tokens", "value": {"intValue": "12"}}]}
        ]}]
    }]})
}

pub(crate) fn content_attrs(n: u32) -> Value {
    json!([
        {"key": "gen_ai.prompt", "value": {"stringValue": format!("CANARY-PROMPT-{n}")}},
        {"key": "cf.request_id", "value": {"stringValue": format!("chatcmpl-{n:x}")}},
        {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": "7"}}
    ])
}

fn logs_request() -> Value {
    json!({"resourceLogs": [{"scopeLogs": [{"logRecords": [
        {"timeUnixNano": "1700000000000000000", "severityNumber": 9,
         "body": {"stringValue": "CANARY-LOG-BODY"},
         "attributes": [{"key": "gen_ai.prompt", "value": {"stringValue": "CANARY-LOG"}}]}
    ]}]}]})
}

/// Run `tracegate filter` on `lines` for `sink`: what the sink should hold.
pub(crate) fn filter(dir: &Path, sink: &str, lines: &str) -> String {
    let input = dir.join(format!("input-{sink}.jsonl"));
    std::fs::write(&input, lines).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["filter", "--policy"])
        .arg(dir.join("policy.toml"))
        .args(["--sink", sink])
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_content_type_reaches_each_sink_exactly_as_filter_would_and_sigterm_flushes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A long flush interval: only the shutdown flush can put records on disk.
    let text = policy_text("flush_interval = \"1h\"") + &window("w-now", -60, 600);
    std::fs::write(d.join("policy.toml"), &text).unwrap();
    let mut daemon = Daemon::start(d);
    let mut expected_lines = String::new();

    // Pretty-printed OTLP/JSON: raw newlines in the body.
    let req = span_request(content_attrs(1));
    let pretty = serde_json::to_string_pretty(&req).unwrap();
    let r = daemon.post("/v1/traces", &[JSON], pretty.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(serde_json::from_slice::<Value>(&r.body).unwrap(), json!({}));
    expected_lines += &format!("{}\n", serde_json::to_string(&req).unwrap());

    // Protobuf, plain and gzip.
    let line = serde_json::to_string(&span_request(content_attrs(2))).unwrap();
    let pb = encode_traces_protobuf(&line).unwrap();
    let r = daemon.post("/v1/traces", &[PROTO], &pb);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/x-protobuf"));
    assert!(
        r.body.is_empty(),
        "no partial_success when nothing was rejected"
    );
    expected_lines += &format!("{}\n", decode_traces_protobuf(&pb).unwrap());
    let r = daemon.post(
        "/v1/traces",
        &[PROTO, ("content-encoding", "gzip")],
        &gzip(&pb),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    expected_lines += &format!("{}\n", decode_traces_protobuf(&pb).unwrap());

    // Logs, protobuf and gzip JSON.
    let logs = serde_json::to_string(&logs_request()).unwrap();
    let lpb = encode_logs_protobuf(&logs).unwrap();
    let r = daemon.post("/v1/logs", &[PROTO], &lpb);
    assert_eq!(r.status, 200, "{}", r.text());
    expected_lines += &format!("{}\n", decode_logs_protobuf(&lpb).unwrap());
    let r = daemon.post(
        "/v1/logs",
        &[JSON, ("content-encoding", "gzip")],
        &gzip(logs.as_bytes()),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    expected_lines += &format!("{logs}\n");

    // JSON Lines: cf records (clean, content, unknown field, violation) and a blank line.
    let records = "{\"request_id\":\"chatcmpl-1a\",\"prompt_tokens\":3,\"prompt_text\":\"CANARY-CF\"}\n\
                   \n\
                   {\"request_id\":\"chatcmpl-2b\",\"t_arrival\":1.5,\"note\":\"CANARY-UNKNOWN\"}\r\n\
                   {\"request_id\":\"CANARY sentence in an id\",\"prompt_tokens\":1}\n\
                   {\"request_id\":\"chatcmpl-3c\",\"output_tokens\":4}";
    let r = daemon.post("/v1/records", &[NDJSON], records.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let tally: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(tally["records"], 4);
    assert_eq!(
        tally["rejected"], 1,
        "the violating id is dropped for both sinks"
    );
    expected_lines += records;
    expected_lines += "\n";

    // A span rejected for every sink: partial success counts it alone (the
    // request's other span goes through).
    let bad = span_request(
        json!([{"key": "cf.request_id", "value": {"stringValue": "CANARY not an id"}}]),
    );
    let r = daemon.post("/v1/traces", &[JSON], bad.to_string().as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["partialSuccess"]["rejectedSpans"], 1, "{v}");
    assert!(
        !r.text().contains("CANARY"),
        "never echo content: {}",
        r.text()
    );
    expected_lines += &format!("{bad}\n");

    // SECURITY: no operations surface echoes content.
    for path in ["/metrics", "/v1/status", "/healthz"] {
        let text = daemon.get(path).text();
        assert!(!text.contains("CANARY"), "{path} echoes content");
        assert!(
            !text.contains("chatcmpl-"),
            "{path} shows a record identifier"
        );
    }
    // Nothing on disk yet (flush_interval is an hour): then SIGTERM flushes.
    let status = daemon.status();
    assert_eq!(status["policy"]["revision"], 1);
    assert_eq!(status["windows"][0]["state"], "enabled", "{status}");
    daemon.terminate();

    let std_out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let cap_out = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    assert!(!std_out.contains("CANARY"), "{std_out}");
    assert!(cap_out.contains("CANARY-PROMPT-1") && cap_out.contains("CANARY-CF"));
    let log = std::fs::read_to_string(d.join("serve.log")).unwrap();
    assert!(
        !log.contains("CANARY") && !log.contains("chatcmpl-"),
        "{log}"
    );
    assert!(
        std::fs::read_to_string(d.join("audit.jsonl"))
            .unwrap()
            .lines()
            .all(|l| !l.contains("CANARY"))
    );
    let evs = events(d);
    assert!(
        evs.iter()
            .any(|(_, e)| matches!(e, AuditEvent::WindowReleased { .. })),
        "the end of the daemon's use of the window is audited (window_released)"
    );
    // filter on the same records gives the same bytes, sink by sink.
    assert_eq!(std_out, filter(d, "std", &expected_lines));
    assert_eq!(cap_out, filter(d, "cap", &expected_lines));
}

#[test]
fn refusals_have_their_otlp_status_codes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), policy_text("")).unwrap();
    let daemon = Daemon::start(d);

    let r = daemon.post("/v1/traces", &[("content-type", "text/xml")], b"<x/>");
    assert_eq!(r.status, 415);
    let r = daemon.post("/v1/traces", &[JSON, ("content-encoding", "br")], b"{}");
    assert_eq!(r.status, 415);

    let r = daemon.post("/v1/traces", &[PROTO], b"\xff\xff\xff\xff not protobuf");
    assert_eq!(r.status, 400, "{}", r.text());
    let r = daemon.post("/v1/traces", &[JSON], b"{\"resourceSpans\": [");
    assert_eq!(r.status, 400);
    assert_eq!(r.header("content-type"), Some("application/json"));
    // Duplicate keys survive the compaction of a pretty body: malformed.
    let r = daemon.post(
        "/v1/traces",
        &[JSON],
        b"{\n \"resourceSpans\": [],\n \"resourceSpans\": []\n}",
    );
    assert_eq!(r.status, 400, "{}", r.text());
    let r = daemon.post(
        "/v1/traces",
        &[JSON, ("content-encoding", "gzip")],
        b"not gzip",
    );
    assert_eq!(r.status, 400);

    let big = vec![b' '; 65537];
    let r = daemon.post("/v1/traces", &[JSON], &big);
    assert_eq!(r.status, 413);
    // A gzip bomb: small on the wire, over the bound once inflated.
    let bomb = gzip(&vec![b' '; 1 << 20]);
    assert!(bomb.len() < 65536);
    let r = daemon.post("/v1/traces", &[JSON, ("content-encoding", "gzip")], &bomb);
    assert_eq!(r.status, 413);

    let r = daemon.get("/healthz");
    assert_eq!(r.status, 200, "{}", r.text());
    let m = daemon.get("/metrics").text();
    assert!(
        m.contains("tracegate_requests_refused_total{code=\"415\"} 2"),
        "{m}"
    );
    assert!(
        m.contains("tracegate_requests_refused_total{code=\"413\"} 2"),
        "{m}"
    );
    assert!(m.contains("tracegate_policy_revision 1"), "{m}");
}

fn wait_revision(daemon: &Daemon, rev: u64) {
    poll(&format!("revision {rev}"), || {
        (daemon.status()["policy"]["revision"] == rev).then_some(())
    });
}

#[test]
fn reloads_rename_replace_invalid_and_deleted_policies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("policy.toml"), policy_text("")).unwrap();
    let daemon = Daemon::start(d);

    for i in 0..5u64 {
        replace_policy(d, &format!("# edit {i}\n{}", policy_text("")));
        wait_revision(&daemon, 2 + i);
    }
    let loaded: Vec<u64> = events(d)
        .into_iter()
        .filter_map(|(_, e)| match e {
            AuditEvent::PolicyLoaded { revision, .. } => Some(revision),
            _ => None,
        })
        .collect();
    assert_eq!(loaded, vec![1, 2, 3, 4, 5, 6]);

    // Invalid (a misspelt key): refused, audited, the last good one stays.
    replace_policy(
        d,
        &format!(
            "{}\n[[sink]]\nname = \"x\"\nfull_alowed = true\n",
            policy_text("")
        ),
    );
    let st = poll("the refusal", || {
        let s = daemon.status();
        (s["reloads"]["refused"] == 1).then_some(s)
    });
    assert_eq!(st["policy"]["revision"], 6);
    let cause = st["last_reload_error"]["cause"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(cause.contains("unknown key `full_alowed`"), "{cause}");
    assert!(
        events(d)
            .iter()
            .any(|(_, e)| matches!(e, AuditEvent::PolicyRejected { .. }))
    );

    // Half-written (truncated mid-table), then complete: refused, then taken.
    let full = format!("# final\n{}", policy_text(""));
    replace_policy(d, &full[..full.len() - 20]);
    poll("the second refusal", || {
        (daemon.status()["reloads"]["refused"] == 2).then_some(())
    });
    replace_policy(d, &full);
    wait_revision(&daemon, 7);
    assert!(daemon.status()["last_reload_error"].is_null());

    // Deleted: refused, the last good policy still serves.
    std::fs::remove_file(d.join("policy.toml")).unwrap();
    poll("the deletion refusal", || {
        (daemon.status()["reloads"]["refused"] == 3).then_some(())
    });
    let r = daemon.post(
        "/v1/records",
        &[NDJSON],
        b"{\"request_id\":\"chatcmpl-9\"}\n",
    );
    assert_eq!(r.status, 200);
    assert_eq!(daemon.status()["policy"]["revision"], 7);
    assert_eq!(daemon.get("/healthz").status, 200);
}

#[test]
fn a_window_added_by_reload_enables_after_its_audit_entry_and_expires_without_traffic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"50ms\""),
    )
    .unwrap();
    let mut daemon = Daemon::start(d);
    let addr = daemon.addr.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = std::sync::Arc::clone(&stop);
    // Traffic: one record per request; remember when each answer came back.
    let sender = std::thread::spawn(move || {
        let mut answered = Vec::new();
        let mut n = 0u32;
        while !stop2.load(std::sync::atomic::Ordering::Relaxed) && n < 5000 {
            n += 1;
            let line =
                format!("{{\"request_id\":\"chatcmpl-{n:x}\",\"prompt_text\":\"CANARY-{n}\"}}\n");
            let r = http(&addr, "POST", "/v1/records", &[NDJSON], line.as_bytes());
            assert_eq!(r.status, 200);
            answered.push((n, jiff::Timestamp::now()));
            std::thread::sleep(Duration::from_millis(5));
        }
        answered
    });
    poll("standard traffic in the full sink", || {
        let s = std::fs::read_to_string(d.join("cap.jsonl")).unwrap_or_default();
        (s.lines().count() >= 5).then_some(())
    });
    let end_in = 3;
    replace_policy(
        d,
        &format!(
            "{}{}",
            policy_text("flush_interval = \"50ms\""),
            window("w-added", -5, end_in)
        ),
    );
    let enabled_at = poll("window_enabled in the audit log", || {
        events(d).into_iter().find_map(|(t, e)| match e {
            AuditEvent::WindowEnabled { window, .. } if window == "w-added" => Some(t),
            _ => None,
        })
    });
    poll("full records in the full sink", || {
        let s = std::fs::read_to_string(d.join("cap.jsonl")).unwrap_or_default();
        s.contains("CANARY").then_some(())
    });
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let answered = sender.join().unwrap();

    // Expiry with no traffic: window_closed (expired) within a second of end.
    let (closed_at, _) = poll("window_closed expired", || {
        events(d).into_iter().find(|(_, e)| {
            matches!(e, AuditEvent::WindowClosed { window, cause: CloseCause::Expired, .. } if window == "w-added")
        })
    });
    let policy_end: jiff::Timestamp = status_window_end(&daemon, "w-added");
    let late = closed_at.duration_since(policy_end);
    assert!(
        late >= jiff::SignedDuration::ZERO && late < jiff::SignedDuration::from_millis(1000),
        "closed {late:?} after end"
    );
    daemon.terminate();

    // Every record that went out full was answered after the enablement
    // was in the log; records before it went out standard.
    let cap = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    let mut full = 0;
    for line in cap.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let id = v["request_id"].as_str().unwrap();
        let n = u32::from_str_radix(id.trim_start_matches("chatcmpl-"), 16).unwrap();
        if v.get("prompt_text").is_some() {
            full += 1;
            let (_, at) = answered.iter().find(|(m, _)| *m == n).unwrap();
            assert!(*at >= enabled_at, "record {n} full before window_enabled");
        }
    }
    assert!(full > 0);
    assert!(
        !std::fs::read_to_string(d.join("std.jsonl"))
            .unwrap()
            .contains("CANARY")
    );
}

fn status_window_end(daemon: &Daemon, id: &str) -> jiff::Timestamp {
    let st = daemon.status();
    let w = st["windows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["id"] == id)
        .unwrap()
        .clone();
    w["end"].as_str().unwrap().parse().unwrap()
}

#[test]
fn an_unwritable_audit_log_keeps_full_capture_off_and_healthz_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The audit path is a folder: the log cannot be opened.
    std::fs::create_dir(d.join("audit.jsonl")).unwrap();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"50ms\"") + &window("w", -60, 600),
    )
    .unwrap();
    let mut daemon = Daemon::start(d);
    let r = daemon.get("/healthz");
    assert_eq!(r.status, 503);
    assert!(
        r.text().contains("audit log is not writable"),
        "{}",
        r.text()
    );
    let r = daemon.post(
        "/v1/records",
        &[NDJSON],
        b"{\"request_id\":\"chatcmpl-1\",\"prompt_text\":\"CANARY\"}\n",
    );
    assert_eq!(r.status, 200);
    daemon.terminate();
    let cap = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    assert_eq!(cap, "{\"request_id\":\"chatcmpl-1\"}\n");
}

#[test]
fn a_stopped_sink_drops_and_counts_without_blocking_others() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The std sink's output cannot be opened: its "folder" is a file.
    std::fs::write(d.join("not-a-folder"), "").unwrap();
    let text =
        policy_text("queue_records = 4").replace("file:std.jsonl", "file:not-a-folder/std.jsonl");
    std::fs::write(d.join("policy.toml"), text).unwrap();
    let mut daemon = Daemon::start(d);
    let mut body = String::new();
    for n in 0..50 {
        body += &format!("{{\"request_id\":\"chatcmpl-{n:x}\"}}\n");
    }
    let r = daemon.post("/v1/records", &[NDJSON], body.as_bytes());
    assert_eq!(r.status, 200);
    let st = poll("the queues to drain", || {
        let s = daemon.status();
        let quiet = s["sinks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|k| k["queued"] == 0 && k["unflushed"] == 0);
        quiet.then_some(s)
    });
    for s in st["sinks"].as_array().unwrap() {
        let d = &s["dropped"];
        let sum = s["records_out"]["standard"].as_u64().unwrap()
            + s["records_out"]["full"].as_u64().unwrap()
            + d["queue_full"].as_u64().unwrap()
            + d["sink_error"].as_u64().unwrap()
            + d["violation"].as_u64().unwrap()
            + d["malformed"].as_u64().unwrap();
        assert_eq!(
            s["records_in"].as_u64().unwrap(),
            sum,
            "in = out + dropped: {s}"
        );
    }
    let std_sink = &st["sinks"][0];
    assert_eq!(std_sink["records_out"]["standard"], 0);
    assert_eq!(std_sink["healthy"], false, "{std_sink}");
    assert_eq!(daemon.get("/healthz").status, 503);
    daemon.terminate();
    let cap = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    assert!(!cap.is_empty(), "the healthy sink still gets records");
}

/// Tidy: the core does no async IO; only `crates/tracegate-daemon/src/daemon` (and the `serve`
/// command) may name tokio or axum.
#[test]
fn the_core_never_imports_tokio() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/tracegate/src");
    let mut stack: Vec<PathBuf> = [
        "record", "gate", "policy", "redact", "evidence", "window", "audit",
    ]
    .iter()
    .map(|d| root.join(d))
    .collect();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&p).unwrap();
            for word in ["tokio", "axum", "hyper"] {
                assert!(!text.contains(word), "{} mentions {word}", p.display());
            }
        }
    }
}

/// Kubernetes mounts a ConfigMap as `..data -> ..2024_x/` with
/// `policy.toml -> ..data/policy.toml`, and updates it by swapping `..data`.
#[cfg(unix)]
#[test]
fn a_configmap_style_data_symlink_swap_is_picked_up() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let v1 = d.join("..v1");
    std::fs::create_dir(&v1).unwrap();
    // Paths in the policy are relative to the file that names them: keep
    // the audit log and sink files outside the versioned folders.
    let text = |tag: &str| {
        policy_text("")
            .replace(
                "\"audit.jsonl\"",
                &format!("\"{}\"", d.join("audit.jsonl").display()),
            )
            .replace(
                "file:std.jsonl",
                &format!("file:{}", d.join("std.jsonl").display()),
            )
            .replace(
                "file:cap.jsonl",
                &format!("file:{}", d.join("cap.jsonl").display()),
            )
            + &format!("# {tag}\n")
    };
    std::fs::write(v1.join("policy.toml"), text("v1")).unwrap();
    symlink("..v1", d.join("..data")).unwrap();
    symlink("..data/policy.toml", d.join("policy.toml")).unwrap();
    let daemon = Daemon::start(d);
    let v2 = d.join("..v2");
    std::fs::create_dir(&v2).unwrap();
    std::fs::write(v2.join("policy.toml"), text("v2")).unwrap();
    symlink("..v2", d.join("..data_tmp")).unwrap();
    std::fs::rename(d.join("..data_tmp"), d.join("..data")).unwrap();
    wait_revision(&daemon, 2);
}

#[test]
fn nothing_acknowledged_is_lost_when_sigterm_arrives_under_load() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        policy_text("flush_interval = \"1h\""),
    )
    .unwrap();
    let mut daemon = Daemon::start(d);
    let addr = daemon.addr.clone();
    let senders: Vec<_> = (0..3u32)
        .map(|t| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let mut acked = Vec::new();
                for n in 0..100_000u32 {
                    let id = format!("chatcmpl-{t:x}0{n:x}");
                    let line = format!("{{\"request_id\":\"{id}\",\"prompt_tokens\":1}}\n");
                    let Ok(mut s) = TcpStream::connect(&addr) else { break };
                    s.set_read_timeout(Some(DEADLINE)).unwrap();
                    let req = format!(
                        "POST /v1/records HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{line}",
                        line.len()
                    );
                    if s.write_all(req.as_bytes()).is_err() {
                        break;
                    }
                    let mut raw = Vec::new();
                    let _ = s.read_to_end(&mut raw);
                    if raw.starts_with(b"HTTP/1.1 200") {
                        acked.push(id);
                    } else {
                        break;
                    }
                }
                acked
            })
        })
        .collect();
    poll("some traffic", || {
        (daemon.status()["records"]["received"].as_u64().unwrap() > 200).then_some(())
    });
    daemon.terminate();
    let acked: Vec<String> = senders
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert!(acked.len() > 200);
    let written = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let ids: std::collections::HashSet<&str> = written
        .lines()
        .map(|l| l.split('"').nth(3).unwrap())
        .collect();
    for id in &acked {
        assert!(ids.contains(id.as_str()), "acknowledged {id} is missing");
    }
}

#[test]
fn during_a_reload_storm_every_record_is_judged_by_exactly_one_policy_version() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A allows both token counts; B allows neither. A record judged by a
    // mix of the two would keep exactly one of them.
    let a = policy_text("flush_interval = \"50ms\"")
        + "[standard.fields]\nreplace_defaults = true\nrequest_id = { type = \"string\", free_text = true }\nprompt_tokens = { type = \"integer\" }\noutput_tokens = { type = \"integer\" }\n";
    let b = policy_text("flush_interval = \"50ms\"")
        + "[standard.fields]\nreplace_defaults = true\nrequest_id = { type = \"string\", free_text = true }\n";
    std::fs::write(d.join("policy.toml"), &a).unwrap();
    let mut daemon = Daemon::start(d);
    let addr = daemon.addr.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = std::sync::Arc::clone(&stop);
    let sender = std::thread::spawn(move || {
        let mut body = String::new();
        for n in 0..20 {
            body +=
                &format!("{{\"request_id\":\"r{n}\",\"prompt_tokens\":1,\"output_tokens\":2}}\n");
        }
        let mut sent = 0;
        while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
            let r = http(&addr, "POST", "/v1/records", &[NDJSON], body.as_bytes());
            assert_eq!(r.status, 200);
            sent += 20;
        }
        sent
    });
    for i in 0..6u64 {
        let text = if i % 2 == 0 { &b } else { &a };
        replace_policy(d, &format!("# storm {i}\n{text}"));
        wait_revision(&daemon, 2 + i);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let sent = sender.join().unwrap();
    daemon.terminate();
    let out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let (mut with_a, mut with_b) = (0, 0);
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match (
            v.get("prompt_tokens").is_some(),
            v.get("output_tokens").is_some(),
        ) {
            (true, true) => with_a += 1,
            (false, false) => with_b += 1,
            _ => panic!("a record judged by two policy versions: {line}"),
        }
    }
    assert_eq!(with_a + with_b, sent);
    assert!(with_a > 0 && with_b > 0, "a {with_a}, b {with_b}");
}

#[test]
fn an_otlp_sink_forwards_gated_protobuf_and_a_dead_receiver_only_costs_its_own_records() {
    // B: the receiver, a plain standard file sink.
    let dir_b = tempfile::tempdir().unwrap();
    std::fs::write(
        dir_b.path().join("policy.toml"),
        "[server]\nflush_interval = \"50ms\"\n[[sink]]\nname = \"store\"\noutput = \"file:store.jsonl\"\n",
    )
    .unwrap();
    let receiver = Daemon::start(dir_b.path());
    // A dead receiver: a port that was bound and released.
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    // A: forwards its standard view to B, and to the dead one.
    let dir_a = tempfile::tempdir().unwrap();
    std::fs::write(
        dir_a.path().join("policy.toml"),
        format!(
            "[server]\nretry_initial_interval = \"20ms\"\nretry_max_elapsed = \"500ms\"\n\
             [[sink]]\nname = \"fwd\"\noutput = \"otlp+http://{}\"\n\
             [[sink]]\nname = \"dead\"\noutput = \"otlp+http://{dead}\"\n",
            receiver.addr
        ),
    )
    .unwrap();
    let mut sender = Daemon::start(dir_a.path());
    let req = span_request(content_attrs(7));
    let r = sender.post("/v1/traces", &[JSON], req.to_string().as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let r = sender.post(
        "/v1/records",
        &[NDJSON],
        b"{\"request_id\":\"chatcmpl-1\"}\n",
    );
    assert_eq!(r.status, 200);
    let stored = poll("the forwarded spans", || {
        let s = std::fs::read_to_string(dir_b.path().join("store.jsonl")).unwrap_or_default();
        (!s.is_empty()).then_some(s)
    });
    assert!(!stored.contains("CANARY"), "{stored}");
    assert!(
        stored.contains("\"gen_ai.usage.prompt_tokens\""),
        "{stored}"
    );
    let st = poll("the dead sink's drops", || {
        let s = sender.status();
        let dead = s["sinks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == "dead")
            .cloned()
            .unwrap();
        (dead["dropped"]["sink_error"] == 2).then_some(s)
    });
    let fwd = st["sinks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "fwd")
        .cloned()
        .unwrap();
    // The cf record went as its span (issue 35 item 3).
    assert_eq!(fwd["records_out"]["standard"], 2, "{fwd}");
    assert_eq!(fwd["dropped"]["sink_error"], 0, "{fwd}");
    sender.terminate();
}

/// The spans a receiving daemon stored (OTLP/JSON lines), flattened.
fn stored_spans(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .flat_map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let mut spans = Vec::new();
            for rs in v["resourceSpans"].as_array().cloned().unwrap_or_default() {
                for ss in rs["scopeSpans"].as_array().cloned().unwrap_or_default() {
                    spans.extend(ss["spans"].as_array().cloned().unwrap_or_default());
                }
            }
            spans
        })
        .collect()
}

/// Attacker test (issue 35 item 3): cf records routed to an `otlp+http://`
/// sink were dropped silently (counted `sink_error` within milliseconds,
/// no log line, `sink_up` 1, `/healthz` 200). Now a cf record goes out as
/// the span its documentation describes, held to the sink's OTLP
/// allowlist (no content at standard level); what an OTLP sink cannot
/// carry at all (an evidence record) is counted and logged.
#[test]
fn a_cf_record_for_an_otlp_sink_goes_as_its_span_and_nothing_is_dropped_silently() {
    let dir_b = tempfile::tempdir().unwrap();
    std::fs::write(
        dir_b.path().join("policy.toml"),
        "[server]\nflush_interval = \"50ms\"\n[[sink]]\nname = \"store\"\noutput = \"file:store.jsonl\"\n",
    )
    .unwrap();
    let receiver = Daemon::start(dir_b.path());
    let dir_a = tempfile::tempdir().unwrap();
    std::fs::write(
        dir_a.path().join("policy.toml"),
        format!(
            "[server]\nflush_interval = \"50ms\"\n[[sink]]\nname = \"fwd\"\noutput = \"otlp+http://{}\"\n",
            receiver.addr
        ),
    )
    .unwrap();
    let mut sender = Daemon::start(dir_a.path());
    let cf = r#"{"request_id": "chatcmpl-9f2c41d0", "t_arrival": 1789040112.104, "t_completion": 1789040114.312, "prompt_tokens": 412, "output_tokens": 128, "e2e_latency_s": 2.208, "ttft_s": null, "queue_wait_s": 0.004, "scheduler_family": "ltr-promptlen", "priority_score": -318.0, "prompt_text": "CANARY-cf-prompt", "output_text": "CANARY-cf-output"}"#;
    let r = sender.post("/v1/records", &[NDJSON], format!("{cf}\n").as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let spans = poll("the converted span", || {
        let s = stored_spans(&dir_b.path().join("store.jsonl"));
        (!s.is_empty()).then_some(s)
    });
    assert_eq!(spans.len(), 1, "{spans:?}");
    let span = &spans[0];
    assert_eq!(span["name"], "llm_request", "{span}");
    assert_eq!(span["startTimeUnixNano"], "1789040112104000000", "{span}");
    assert_eq!(span["endTimeUnixNano"], "1789040114312000000", "{span}");
    let attr = |k: &str| {
        span["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["key"] == k)
            .map(|a| a["value"].clone())
    };
    assert_eq!(
        attr("cf.request_id"),
        Some(serde_json::json!({"stringValue": "chatcmpl-9f2c41d0"}))
    );
    assert_eq!(
        attr("gen_ai.usage.prompt_tokens"),
        Some(serde_json::json!({"intValue": "412"}))
    );
    assert_eq!(attr("gen_ai.prompt"), None, "standard level: no content");
    let all = std::fs::read_to_string(dir_b.path().join("store.jsonl")).unwrap();
    assert!(!all.contains("CANARY"), "{all}");

    // An evidence record has no span form: counted and logged, not silent.
    let evidence = crate::evidence::SEED_SAMPLE;
    let r = sender.post("/v1/records", &[NDJSON], format!("{evidence}\n").as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let fwd = poll("the evidence record counted", || {
        let s = sender.status();
        let fwd = s["sinks"][0].clone();
        (fwd["dropped"]["sink_error"] == 1).then_some(fwd)
    });
    assert_eq!(fwd["records_out"]["standard"], 1, "{fwd}");
    let log = poll("the log line", || {
        let log = std::fs::read_to_string(dir_a.path().join("serve.log")).unwrap_or_default();
        log.contains("an evidence record cannot go to an OTLP sink")
            .then_some(log)
    });
    assert!(!log.contains("CANARY"), "{log}");
    sender.terminate();
}

#[test]
#[cfg_attr(
    not(otel_sdk),
    ignore = "needs the OpenTelemetry Python SDK: set TRACEGATE_OTEL_PYTHON (scripts/otel-sdk-check.sh)"
)]
fn the_opentelemetry_python_sdk_exports_through_serve() {
    let Some(py) =
        crate::otel_sdk::python_with("opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http")
    else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/otel_sdk/export_spans.py");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        // 15 s of window: the SDK's start and export fit in it on a loaded
        // two-core machine (3 s did not), and the test waits for its end.
        policy_text("flush_interval = \"50ms\"") + &window("sdk", -60, 15),
    )
    .unwrap();
    let window_end = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(15);
    let mut daemon = Daemon::start(d);
    let export = |tag: &str, gzip: bool| {
        let mut c = Command::new(&py);
        c.arg(&script).args([daemon.addr.as_str(), tag, "20"]);
        if gzip {
            c.arg("gzip");
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    export("OPEN", false);
    assert!(
        jiff::Timestamp::now() < window_end,
        "the export inside the window ended after the window did: the machine is too loaded for this test"
    );
    crate::wait::poll_within("window_closed expired", Duration::from_secs(45), || {
        events(d)
            .iter()
            .any(|(_, e)| {
                matches!(
                    e,
                    AuditEvent::WindowClosed {
                        cause: CloseCause::Expired,
                        ..
                    }
                )
            })
            .then_some(())
    });
    export("CLOSED", true);
    daemon.terminate();
    let std_out = std::fs::read_to_string(d.join("std.jsonl")).unwrap();
    let cap_out = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    assert_eq!(std_out.lines().count(), 2, "{std_out}");
    assert!(!std_out.contains("CANARY"), "{std_out}");
    assert!(
        std_out.contains("chatcmpl-14"),
        "standard attributes pass: {std_out}"
    );
    assert!(cap_out.contains("CANARY-OPEN-19"), "{cap_out}");
    assert!(!cap_out.contains("CANARY-CLOSED"), "{cap_out}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_sink_whose_reader_stopped_keeps_memory_bounded_and_counts_its_drops() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One sink, stdout, into a pipe nobody reads: its writer blocks once
    // the pipe is full.
    std::fs::write(
        d.join("policy.toml"),
        "[server]\nqueue_records = 1000000\nqueue_bytes = 1048576\nmax_body_bytes = 4194304\n\
         [[sink]]\nname = \"out\"\noutput = \"stdout\"\n",
    )
    .unwrap();
    let mut daemon = Daemon::start_with_stdout(d, Stdio::piped());
    let mut body = String::new();
    let mut n = 0u32;
    while body.len() < 3 << 20 {
        n += 1;
        body += &format!("{{\"request_id\":\"chatcmpl-{n:x}\",\"prompt_tokens\":{n}}}\n");
    }
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(daemon.post("/v1/records", &[NDJSON], body.as_bytes()));
    }
    // Once the only queue is full, the daemon says so: 503 + Retry-After.
    let refused = statuses
        .iter()
        .find(|r| r.status == 503)
        .expect("a 503 once the queue is full");
    assert_eq!(refused.header("retry-after"), Some("1"));
    let st = daemon.status();
    let s = &st["sinks"][0];
    let queued_bytes = s["queued_bytes"].as_u64().unwrap();
    assert!(queued_bytes <= 1 << 20, "queue over its byte bound: {s}");
    let dropped = s["dropped"]["queue_full"].as_u64().unwrap();
    assert!(dropped > 0, "{s}");
    let total = s["records_out"]["standard"].as_u64().unwrap()
        + dropped
        + s["queued"].as_u64().unwrap()
        + s["unflushed"].as_u64().unwrap();
    // in = out + dropped + queued + unflushed (the blocked writer's
    // buffer), give or take the one record between dequeue and buffer.
    let records_in = s["records_in"].as_u64().unwrap();
    assert!(
        records_in - total <= 1,
        "in {records_in}, out+dropped+queued {total}: {s}"
    );
    let rss_kib: u64 = std::fs::read_to_string(format!("/proc/{}/status", daemon.child.id()))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    // 24 MiB of records were offered; the queue holds at most 1 MiB.
    assert!(rss_kib < 64 * 1024, "resident memory {rss_kib} KiB");
    // Unblock the writer so shutdown can drain.
    let mut out = daemon.child.stdout.take().unwrap();
    let drain = std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()).unwrap());
    daemon.terminate();
    drain.join().unwrap();
}

#[test]
fn a_file_source_is_followed_across_rotation_and_truncation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("engine.jsonl");
    // Present at start: followed from its end, so this line is not shipped.
    std::fs::write(&input, "{\"request_id\":\"chatcmpl-0\"}\n").unwrap();
    std::fs::write(
        d.join("policy.toml"),
        "[server]\nflush_interval = \"20ms\"\n[[source]]\nkind = \"file\"\npath = \"engine.jsonl\"\n\
         [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n",
    )
    .unwrap();
    let mut daemon = Daemon::start(d);
    let append = |path: &Path, text: &str| {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    };
    let shipped = |n: usize| {
        poll(&format!("{n} lines in the sink"), || {
            let s = std::fs::read_to_string(d.join("std.jsonl")).unwrap_or_default();
            (s.lines().count() >= n).then_some(s)
        })
    };
    append(
        &input,
        "{\"request_id\":\"chatcmpl-1\",\"prompt_text\":\"CANARY\"}\n{\"request_id\":\"chatcmpl-2\"",
    );
    append(&input, "}\n");
    shipped(2);
    // Rotation: a last line into the old file, then a new file.
    std::fs::rename(&input, d.join("engine.jsonl.1")).unwrap();
    append(
        &d.join("engine.jsonl.1"),
        "{\"request_id\":\"chatcmpl-3\"}\n",
    );
    append(&input, "{\"request_id\":\"chatcmpl-4\"}\n");
    shipped(4);
    // Truncation: read again from the start (once the follower saw it).
    std::fs::write(&input, "").unwrap();
    poll("the truncation to be noticed", || {
        let log = std::fs::read_to_string(d.join("serve.log")).unwrap_or_default();
        log.contains("source truncated").then_some(())
    });
    append(&input, "{\"request_id\":\"chatcmpl-5\"}\n");
    let s = shipped(5);
    daemon.terminate();
    let ids: Vec<&str> = s.lines().map(|l| l.split('"').nth(3).unwrap()).collect();
    assert_eq!(
        ids,
        [
            "chatcmpl-1",
            "chatcmpl-2",
            "chatcmpl-3",
            "chatcmpl-4",
            "chatcmpl-5"
        ]
    );
    assert!(!s.contains("CANARY"));
}
