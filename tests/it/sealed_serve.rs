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
    let end = start + jiff::SignedDuration::from_secs(3600);
    std::fs::write(
        dir.join("policy.toml"),
        format!(
            "[audit]\npath = \"audit.jsonl\"\n\
             [server]\nflush_interval = \"20ms\"\n\
             [redact]\nallow_unredacted_sinks = [\"cap\"]\n\
             [[sink]]\nname = \"std\"\noutput = \"file:std.jsonl\"\n\
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
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let req = format!(
        "POST /v1/records HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\
         content-type: application/x-ndjson\r\ncontent-length: {}\r\n\r\n{body}",
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
