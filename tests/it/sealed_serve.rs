//! Sealed capture through `serve`: cf records posted over HTTP to a sealed
//! file sink never lie there (or anywhere else the daemon writes) in
//! clear, open byte for byte with the right identity, and a reload that
//! changes the recipients starts a new segment sealed to the new ones.
//! Every wait is a bounded poll.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use super::cli::tracegate;
use crate::wait::{DEADLINE, poll};

const CANARY: &str = "CANARY-5ea1: the vault code is \"quince\" \u{e9}\u{1F600}";

struct Daemon(Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Daemon {
    fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([sig, &self.0.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill {sig}");
    }
    fn stop(mut self) {
        self.signal("-TERM");
        let code = crate::wait::poll_within("serve to exit", DEADLINE, || {
            self.0.try_wait().unwrap().map(|s| s.code())
        });
        assert_eq!(code, Some(0), "serve exits cleanly on SIGTERM");
    }
}

fn keygen(path: &Path) -> String {
    let kg = tracegate(&["capture", "keygen", "--out", path.to_str().unwrap()], b"");
    assert_eq!(kg.code, 0, "{}", kg.stderr);
    kg.stdout.trim().to_owned()
}

/// A policy with a standard file sink `std` and a sealed capture sink
/// `cap` (sealed to `recipient`), and a window on `cap` open from `start`
/// for an hour (the same definition across rewrites: a changed window
/// closes for good).
fn write_policy(dir: &Path, recipient: &str, start: jiff::Timestamp) {
    write_policy_with(dir, recipient, start, "");
}

/// [`write_policy`], with `std_extra` added to the `std` sink's table.
fn write_policy_with(dir: &Path, recipient: &str, start: jiff::Timestamp, std_extra: &str) {
    let end = start + jiff::SignedDuration::from_secs(3600);
    std::fs::write(
        dir.join("policy.toml"),
        format!(
            "[audit]\npath = \"audit.jsonl\"\n\
             [server]\nflush_interval = \"20ms\"\n\
             [redact]\nallow_unredacted_sinks = [\"cap\"]\n\
             [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n{std_extra}\n\
             [[sink]]\nname = \"cap\"\nfull_allowed = true\nredact = false\noutput = \"file:cap.jsonl\"\nseal_to = [\"{recipient}\"]\n\
             [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"{start}\"\nend = \"{end}\"\n\
             reason = \"sealed serve test\"\nrequested_by = \"tester\"\n"
        ),
    )
    .unwrap();
}

fn record(i: usize, prompt: &str) -> String {
    let now = jiff::Timestamp::now().as_second();
    format!(
        "{{\"request_id\":\"chatcmpl-{i:x}\",\"t_arrival\":{now}.5,\"t_completion\":{now}.9,\"prompt_tokens\":{i},\"prompt_text\":{},\"output_text\":\"answer {i}\"}}\n",
        serde_json::to_string(prompt).unwrap()
    )
}

/// POST an NDJSON body to `/v1/records`; the status code.
fn post(addr: &str, body: &str) -> u16 {
    post_to(addr, "/v1/records", "application/x-ndjson", body)
}

/// POST `body` to `path` on `addr`; the status code.
fn post_to(addr: &str, path: &str, content_type: &str, body: &str) -> u16 {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\
         content-type: {content_type}\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw)
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn sealed_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"tracegate.sealed\":\""))
        .count()
}

fn events(log: &Path) -> Vec<String> {
    tracegate::read_audit_log(log, None)
        .map(|it| {
            it.filter_map(Result::ok)
                .map(|e| e.event.name().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

fn assert_no_canary(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_default();
    for needle in [
        serde_json::to_string(CANARY).unwrap().as_str(),
        "CANARY-5ea1",
        "quince",
    ] {
        assert!(
            memchr::memmem::find(&bytes, needle.as_bytes()).is_none(),
            "{} holds the canary in clear",
            path.display()
        );
    }
}

/// Post `n` records (record `i` of each batch the canary when `canary`)
/// until the capture holds `want` sealed records.
fn post_until(addr: &str, cap: &Path, from: usize, want: usize) {
    let mut i = from;
    poll("sealed records in the capture", || {
        let body = record(i, CANARY);
        i += 1;
        assert_eq!(post(addr, &body), 200);
        (sealed_lines(cap) >= want).then_some(())
    });
}

#[test]
fn a_canary_through_serve_is_sealed_and_a_new_recipient_gets_a_new_segment() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r1 = keygen(&d.join("id1.key"));
    let r2 = keygen(&d.join("id2.key"));
    let start = jiff::Timestamp::now().round(jiff::Unit::Second).unwrap()
        - jiff::SignedDuration::from_secs(60);
    write_policy(d, &r1, start);
    let (child, addr) = crate::wait::spawn_serve(&d.join("policy.toml"), d);
    let daemon = Daemon(child);
    let cap = d.join("cap.jsonl");
    post_until(&addr, &cap, 0, 3);

    // The recipients change on reload: the open segment closes and the
    // next records go into a new one, sealed to the new key only.
    write_policy(d, &r2, start);
    daemon.signal("-HUP");
    poll("the first segment to close", || {
        events(&d.join("audit.jsonl"))
            .iter()
            .any(|e| e == "capture_segment_closed")
            .then_some(())
    });
    let before = sealed_lines(&cap);
    post_until(&addr, &cap, 100, before + 3);
    daemon.stop();

    for f in ["cap.jsonl", "std.jsonl", "audit.jsonl", "serve.log"] {
        assert_no_canary(&d.join(f));
    }
    let ev = events(&d.join("audit.jsonl"));
    let count = |name: &str| ev.iter().filter(|e| *e == name).count();
    assert_eq!(count("capture_segment_opened"), 2, "{ev:?}");
    assert_eq!(count("capture_segment_closed"), 2, "{ev:?}");
    let enabled = ev.iter().position(|e| e == "window_enabled").unwrap();
    let opened = ev
        .iter()
        .position(|e| e == "capture_segment_opened")
        .unwrap();
    assert!(enabled < opened, "the window is enabled before its segment");

    let open = |ids: &[&str]| {
        let keys: String = ids
            .iter()
            .map(|k| std::fs::read_to_string(d.join(k)).unwrap())
            .collect();
        let both = d.join("ids.key");
        std::fs::write(&both, keys).unwrap();
        tracegate(
            &[
                "capture",
                "open",
                "--identity",
                both.to_str().unwrap(),
                "--audit",
                d.join("audit.jsonl").to_str().unwrap(),
                "--reason",
                "replay",
                "--by",
                "tester",
                cap.to_str().unwrap(),
            ],
            b"",
        )
    };
    // The first key alone does not open the second segment.
    let run = open(&["id1.key"]);
    assert_ne!(run.code, 0, "key 1 cannot open the segment sealed to key 2");
    assert!(run.stdout.is_empty(), "nothing half-written");
    let run = open(&["id1.key", "id2.key"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let prompts: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["prompt_text"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(prompts.len(), sealed_lines(&cap));
    assert!(
        prompts.iter().all(|p| p == CANARY),
        "every sealed record opens to the canary, byte for byte"
    );
}

/// `content_refs`: the standard copy of a record captured (sealed) in a
/// window points to the segment and record that hold its content, one
/// `<key>_ref` member per sealed content key, and holds no content.
#[test]
fn a_standard_copy_points_to_its_sealed_capture() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r1 = keygen(&d.join("id1.key"));
    let start = jiff::Timestamp::now().round(jiff::Unit::Second).unwrap()
        - jiff::SignedDuration::from_secs(60);
    write_policy_with(d, &r1, start, "content_refs = \"cap\"");
    let (child, addr) = crate::wait::spawn_serve(&d.join("policy.toml"), d);
    let daemon = Daemon(child);
    let cap = d.join("cap.jsonl");
    post_until(&addr, &cap, 0, 2);
    daemon.stop();
    for f in ["cap.jsonl", "std.jsonl", "audit.jsonl", "serve.log"] {
        assert_no_canary(&d.join(f));
    }
    // Where each request id was sealed, from the capture itself.
    let mut sealed = std::collections::HashMap::new();
    for l in std::fs::read_to_string(&cap).unwrap().lines() {
        if !l.contains("\"tracegate.sealed\"") {
            continue;
        }
        let split = tracegate::seal::cf::split_line(l.as_bytes()).unwrap();
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let id = v["request_id"].as_str().unwrap().to_owned();
        sealed.insert(id, (split.sealed.segment.to_string(), split.sealed.seq));
    }
    let mut pointed = 0;
    for l in std::fs::read_to_string(d.join("std.jsonl"))
        .unwrap()
        .lines()
    {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let id = v["request_id"].as_str().unwrap();
        assert!(
            v.get("prompt_text").is_none(),
            "no content on a standard sink"
        );
        match sealed.get(id) {
            Some((segment, seq)) => {
                for key in ["prompt_text", "output_text"] {
                    assert_eq!(
                        v[format!("{key}_ref")].as_str(),
                        Some(
                            format!("tracegate:sink/cap/segment/{segment}/record/{seq}#{key}")
                                .as_str()
                        ),
                        "{l}"
                    );
                }
                pointed += 1;
            }
            None => assert!(
                v.get("prompt_text_ref").is_none(),
                "a record that was not sealed has no reference: {l}"
            ),
        }
    }
    assert_eq!(pointed, sealed.len(), "every sealed record is pointed to");
}

/// A `content_refs` that could not point anywhere, or whose member a
/// producer could forge, does not load.
#[test]
fn content_refs_that_cannot_point_to_a_sealed_capture_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = keygen(&d.join("id.key"));
    let start = jiff::Timestamp::now().round(jiff::Unit::Second).unwrap();
    for (extra, cause) in [
        ("content_refs = \"nope\"", "names no sink of this policy"),
        ("content_refs = \"std\"", "names the sink itself"),
    ] {
        write_policy_with(d, &r, start, extra);
        let run = tracegate(
            &["policy", "check", d.join("policy.toml").to_str().unwrap()],
            b"",
        );
        assert_ne!(run.code, 0, "{extra}");
        let text = format!("{}{}", run.stdout, run.stderr);
        assert!(
            text.contains(cause) && text.contains("policy.toml:"),
            "{extra}: {text}"
        );
    }
    // A target that does not seal.
    let p = d.join("policy.toml");
    std::fs::write(
        &p,
        "[audit]\npath = \"a.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:c.jsonl\"\n\
         [[sink]]\nname = \"std\"\noutput = \"file:s.jsonl\"\ncontent_refs = \"cap\"\n",
    )
    .unwrap();
    let run = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_ne!(run.code, 0);
    assert!(format!("{}{}", run.stdout, run.stderr).contains("does not seal"));
    // The member a reference is written to, allowlisted: a producer could
    // forge it.
    write_policy_with(d, &r, start, "content_refs = \"cap\"");
    let mut text = std::fs::read_to_string(&p).unwrap();
    text.push_str("[standard.fields]\nprompt_text_ref = { type = \"string\" }\n");
    std::fs::write(&p, text).unwrap();
    let run = tracegate(&["policy", "check", p.to_str().unwrap()], b"");
    assert_ne!(run.code, 0);
    assert!(
        format!("{}{}", run.stdout, run.stderr)
            .contains("the member or attribute a reference is written to"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

/// OTLP through `serve`, over gRPC (protobuf) and HTTP (JSON), into a
/// sealed file sink: each span's content goes out sealed, nowhere in
/// clear, and `capture open` gives it back.
#[test]
fn otlp_content_through_serve_over_grpc_and_http_is_sealed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r1 = keygen(&d.join("id1.key"));
    let start = jiff::Timestamp::now().round(jiff::Unit::Second).unwrap()
        - jiff::SignedDuration::from_secs(60);
    write_policy(d, &r1, start);
    let (daemon, grpc) = crate::grpc::start(d);
    let now = jiff::Timestamp::now().as_nanosecond();
    let request = |span_id: &str| {
        serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [{
            "traceId": "5b8efff798038103d269b633813fc60c", "spanId": span_id,
            "name": "chat gpt-4o", "kind": 3,
            "startTimeUnixNano": (now - 1_000_000).to_string(), "endTimeUnixNano": now.to_string(),
            "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.prompt", "value": {"stringValue": CANARY}}
            ]
        }]}]}]})
    };
    let body = tracegate::internals::record::otlp_proto::encode_traces_protobuf(
        &request("eee19b7ec3c1b174").to_string(),
    )
    .unwrap();
    crate::grpc::call(
        &grpc,
        tracegate_daemon::otlp_grpc::TRACES_PATH,
        body,
        &crate::grpc::Call::default(),
    )
    .unwrap();
    let json = request("eee19b7ec3c1b175").to_string();
    assert_eq!(
        post_to(&daemon.addr, "/v1/traces", "application/json", &json),
        200
    );
    let cap = d.join("cap.jsonl");
    let sealed = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .filter(|l| tracegate::seal::otlp::is_sealed_request(l.as_bytes()))
            .count()
    };
    poll("both requests sealed in the capture", || {
        (sealed(&cap) >= 2).then_some(())
    });
    let ok = Command::new("kill")
        .args(["-TERM", &daemon.child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    poll("the segment to close", || {
        events(&d.join("audit.jsonl"))
            .iter()
            .any(|e| e == "capture_segment_closed")
            .then_some(())
    });
    drop(daemon);
    for f in ["cap.jsonl", "std.jsonl", "audit.jsonl", "serve.log"] {
        assert_no_canary(&d.join(f));
    }
    let run = tracegate(
        &[
            "capture",
            "open",
            "--identity",
            d.join("id1.key").to_str().unwrap(),
            "--audit",
            d.join("audit.jsonl").to_str().unwrap(),
            "--reason",
            "replay",
            "--by",
            "tester",
            cap.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let prompts: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let attrs = v["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"].clone();
            attrs
                .as_array()
                .unwrap()
                .iter()
                .find(|kv| kv["key"] == "gen_ai.prompt")
                .map(|kv| kv["value"]["stringValue"].as_str().unwrap().to_owned())
                .unwrap()
        })
        .collect();
    assert_eq!(
        prompts,
        [CANARY, CANARY],
        "both spans' content, byte for byte"
    );
}

/// An OTLP/HTTP receiver on loopback that keeps every request it gets
/// (path and body) and answers 200; its thread ends on its own after a
/// bounded time.
struct Receiver {
    addr: String,
    got: Got,
}

/// What a [`Receiver`] got: each request's path and body.
type Got = std::sync::Arc<std::sync::Mutex<Vec<(String, Vec<u8>)>>>;

/// An OTLP/HTTP receiver on loopback (axum, on a runtime of its own
/// thread) that keeps each request's path and body and answers 200.
fn receiver() -> Receiver {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let got: Got = std::sync::Arc::default();
    let keep = std::sync::Arc::clone(&got);
    let app = axum::Router::new().fallback(move |uri: axum::http::Uri, body: bytes::Bytes| {
        let keep = std::sync::Arc::clone(&keep);
        async move {
            keep.lock()
                .unwrap()
                .push((uri.path().to_owned(), body.to_vec()));
            ([("content-type", "application/x-protobuf")], "")
        }
    });
    crate::serve_on_thread(listener, |listener| async move {
        let _ = axum::serve(listener, app).await;
    });
    Receiver { addr, got }
}

/// An OTLP sink with `seal_to`: a cf record and an OTLP span captured in
/// a window reach the receiver with their content sealed (a
/// `tracegate.sealed` bytes attribute per span), after the segment's
/// header as a log record; no request holds the canary; the header and
/// an identity open what the backend holds, from its own protobuf.
#[test]
fn an_otlp_sink_gets_sealed_spans_and_the_segment_header_as_a_log_record() {
    let rx = receiver();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let id = d.join("id.key");
    let r = keygen(&id);
    let start = jiff::Timestamp::now().round(jiff::Unit::Second).unwrap()
        - jiff::SignedDuration::from_secs(60);
    let end = start + jiff::SignedDuration::from_secs(3600);
    std::fs::write(
        d.join("policy.toml"),
        format!(
            "[audit]\npath = \"audit.jsonl\"\n\
             [server]\nflush_interval = \"20ms\"\n\
             [redact]\nallow_unredacted_sinks = [\"cap\"]\n\
             [[sink]]\nname = \"cap\"\nfull_allowed = true\nredact = false\noutput = \"otlp+http://{}\"\nseal_to = [\"{r}\"]\n\
             [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"{start}\"\nend = \"{end}\"\n\
             reason = \"sealed otlp sink test\"\nrequested_by = \"tester\"\n",
            rx.addr
        ),
    )
    .unwrap();
    let (child, addr) = crate::wait::spawn_serve(&d.join("policy.toml"), d);
    let daemon = Daemon(child);
    assert_eq!(post(&addr, &record(1, CANARY)), 200);
    let now = jiff::Timestamp::now().as_nanosecond();
    let json = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [{
        "traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",
        "name": "chat gpt-4o", "kind": 3,
        "startTimeUnixNano": (now - 1_000_000).to_string(), "endTimeUnixNano": now.to_string(),
        "attributes": [{"key": "gen_ai.prompt", "value": {"stringValue": CANARY}}]
    }]}]}]})
    .to_string();
    assert_eq!(post_to(&addr, "/v1/traces", "application/json", &json), 200);
    use tracegate::internals::record::otlp_proto::{decode_logs_protobuf, decode_traces_protobuf};
    let (logs, traces) = poll("the header and two sealed spans at the receiver", || {
        let got = rx.got.lock().unwrap().clone();
        let mut logs = Vec::new();
        let mut traces = Vec::new();
        for (path, body) in &got {
            assert!(
                memchr::memmem::find(body, b"CANARY-5ea1").is_none()
                    && memchr::memmem::find(body, b"quince").is_none(),
                "a request to the OTLP sink holds the canary"
            );
            match path.as_str() {
                "/v1/logs" => logs.push(decode_logs_protobuf(body).unwrap()),
                "/v1/traces" => traces.extend(
                    decode_traces_protobuf(body)
                        .unwrap()
                        .lines()
                        .map(str::to_owned)
                        .collect::<Vec<_>>(),
                ),
                _ => {}
            }
        }
        // The exporter may batch both spans into one request.
        let sealed: usize = traces
            .iter()
            .map(|t| t.matches("\"key\":\"tracegate.sealed\"").count())
            .sum();
        (!logs.is_empty() && sealed >= 2).then_some((logs, traces))
    });
    daemon.stop();
    // The header, from the log record's body, unwraps with the identity.
    let v: serde_json::Value = serde_json::from_str(&logs[0]).unwrap();
    let rec = &v["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0];
    assert_eq!(rec["eventName"], "tracegate.segment");
    let header_line = rec["body"]["stringValue"].as_str().unwrap();
    let header = tracegate::seal::SegmentHeader::parse_line(header_line.as_bytes()).unwrap();
    let ids =
        tracegate::seal::Identity::parse_file(&std::fs::read_to_string(&id).unwrap()).unwrap();
    let opener = header.unwrap_key(&ids).unwrap();
    let mut opened = 0;
    for t in &traces {
        if !tracegate::seal::otlp::is_sealed_request(t.as_bytes()) {
            continue;
        }
        let plain = tracegate::seal::otlp::open_request(&opener, t.as_bytes()).unwrap();
        opened += memchr::memmem::find_iter(&plain, b"CANARY-5ea1").count();
    }
    assert_eq!(
        opened, 2,
        "the cf record's span and the OTLP span: {traces:?}"
    );

    // The same through the command: the backend's export as a file of
    // OTLP/JSON requests (traces first, as a backend may order them).
    let export = d.join("export.jsonl");
    let mut text = String::new();
    for l in traces.iter().chain(&logs) {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&export, &text).unwrap();
    let open = |file: &Path| {
        let audit = d.join("audit.jsonl");
        tracegate(
            &[
                "capture",
                "open",
                "--otlp-export",
                "--identity",
                id.to_str().unwrap(),
                "--audit",
                audit.to_str().unwrap(),
                "--reason",
                "replay",
                "--by",
                "tester",
                file.to_str().unwrap(),
            ],
            b"",
        )
    };
    let run = open(&export);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.matches("CANARY-5ea1").count(),
        2,
        "both spans open"
    );
    assert!(
        events(&d.join("audit.jsonl"))
            .iter()
            .any(|e| e == "capture_read")
    );
    // A sealed span replayed in the export is refused, nothing written.
    let first_sealed = traces
        .iter()
        .find(|t| tracegate::seal::otlp::is_sealed_request(t.as_bytes()))
        .unwrap();
    std::fs::write(&export, format!("{text}{first_sealed}\n")).unwrap();
    let run = open(&export);
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("appears twice"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    // Without the header's log record, nothing opens.
    let no_header: String = traces.iter().map(|t| format!("{t}\n")).collect();
    std::fs::write(&export, no_header).unwrap();
    let run = open(&export);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("whose header is in none of the files"),
        "{}",
        run.stderr
    );
}

/// `content_refs` for OTLP: the standard copy of a span sealed into the
/// capture gets a `<attribute>_ref` attribute naming the segment and the
/// span's own sealed value.
#[test]
fn a_standard_span_points_to_its_sealed_span() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r1 = keygen(&d.join("id1.key"));
    let start = jiff::Timestamp::now().round(jiff::Unit::Second).unwrap()
        - jiff::SignedDuration::from_secs(60);
    write_policy_with(d, &r1, start, "content_refs = \"cap\"");
    let (child, addr) = crate::wait::spawn_serve(&d.join("policy.toml"), d);
    let daemon = Daemon(child);
    let now = jiff::Timestamp::now().as_nanosecond();
    let span = |id: &str| {
        serde_json::json!({
            "traceId": "5b8efff798038103d269b633813fc60c", "spanId": id,
            "name": "chat gpt-4o", "kind": 3,
            "startTimeUnixNano": (now - 1_000_000).to_string(), "endTimeUnixNano": now.to_string(),
            "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.prompt", "value": {"stringValue": CANARY}}
            ]
        })
    };
    let json = serde_json::json!({"resourceSpans": [{"scopeSpans": [{"spans": [span("eee19b7ec3c1b174"), span("eee19b7ec3c1b175")]}]}]}).to_string();
    assert_eq!(post_to(&addr, "/v1/traces", "application/json", &json), 200);
    let std_file = d.join("std.jsonl");
    poll("the standard copy", || {
        std::fs::read_to_string(&std_file)
            .ok()
            .filter(|t| t.contains("_ref"))
    });
    daemon.stop();
    for f in ["cap.jsonl", "std.jsonl"] {
        assert_no_canary(&d.join(f));
    }
    let cap = std::fs::read_to_string(d.join("cap.jsonl")).unwrap();
    let sealed_line = cap
        .lines()
        .find(|l| tracegate::seal::otlp::is_sealed_request(l.as_bytes()))
        .unwrap();
    let values = tracegate::seal::otlp::sealed_values(sealed_line.as_bytes()).unwrap();
    assert_eq!(values.len(), 2);
    let std_text = std::fs::read_to_string(&std_file).unwrap();
    let v: serde_json::Value = serde_json::from_str(std_text.lines().next().unwrap()).unwrap();
    let spans = v["resourceSpans"][0]["scopeSpans"][0]["spans"]
        .as_array()
        .unwrap();
    for (span, sealed) in spans.iter().zip(&values) {
        let r = span["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|kv| kv["key"] == "gen_ai.prompt_ref")
            .unwrap_or_else(|| panic!("no reference on {span}"));
        assert_eq!(
            r["value"]["stringValue"].as_str().unwrap(),
            format!(
                "tracegate:sink/cap/segment/{}/record/{}#gen_ai.prompt",
                sealed.segment, sealed.seq
            )
        );
    }
}
