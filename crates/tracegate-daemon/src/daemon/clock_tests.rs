//! `serve`'s windows on a test clock: the pipeline (the daemon's state,
//! its per-record judgement and the audit work its ticker runs) driven by a
//! [`ManualClock`], so when a window opens and closes is decided by the
//! test, never by the wall clock or a sleep. The ticker itself is
//! `Pipeline::tick` on an interval ([`super::TICK_EVERY`]); here the test
//! calls `tick` where the interval would.
//!
//! The clock is injected only here (`Pipeline::start` takes it; `serve`
//! passes the system clock): the binary has no way to fake time.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jiff::Timestamp;

use super::pipeline::Pipeline;
use crate::audit::{AuditEvent, CloseCause, read_entries};
use crate::policy::Policy;
use crate::window::clock::ManualClock;

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

const BASE: &str = "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"2s\"\n\
     [server]\nflush_interval = \"10ms\"\n\
     [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n";

/// The window `w`, 10:00..10:05 on 2030-01-01 (far from any real "now").
const WINDOW: &str = "[[window]]\nid = \"w\"\nsink = \"cap\"\n\
     start = \"2030-01-01T10:00:00Z\"\nend = \"2030-01-01T10:05:00Z\"\n\
     reason = \"clock test\"\nrequested_by = \"tests\"\n";

fn load(dir: &Path, text: &str) -> Arc<Policy> {
    let path = dir.join("policy.toml");
    std::fs::write(&path, text).unwrap();
    Arc::new(Policy::load(&path).unwrap())
}

/// The window events of the audit log, with their `ts`.
fn window_events(dir: &Path) -> Vec<(Timestamp, String)> {
    read_entries(&dir.join("audit.jsonl"), None)
        .unwrap()
        .filter_map(|e| {
            let e = e.unwrap();
            match e.event {
                AuditEvent::WindowEnabled { window, .. } => {
                    Some((e.ts, format!("enabled {window}")))
                }
                AuditEvent::WindowClosed {
                    window,
                    cause: CloseCause::Expired,
                    ..
                } => Some((e.ts, format!("expired {window}"))),
                AuditEvent::WindowClosed { window, .. } => Some((e.ts, format!("closed {window}"))),
                _ => None,
            }
        })
        .collect()
}

/// Judge one record `n` with content for every sink.
fn send(p: &Pipeline, n: u32) {
    let line = format!("{{\"request_id\":\"chatcmpl-{n:x}\",\"prompt_text\":\"CANARY-{n}\"}}\n");
    let t = p.ingest_lines(&p.snapshot(), line.as_bytes());
    assert_eq!((t.records, t.malformed, t.rejected), (1, 0, 0));
}

/// The numbers of the records the `cap` sink wrote with their content, once
/// it has written `count` records (the sink writer is a task: wait for it,
/// within a bounded deadline, by polling).
async fn full_records(dir: &Path, count: usize) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(dir.join("cap.jsonl")).unwrap_or_default();
        if text.lines().count() >= count {
            return text
                .lines()
                .filter(|l| l.contains("prompt_text"))
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).unwrap();
                    let id = v["request_id"].as_str().unwrap();
                    u32::from_str_radix(id.trim_start_matches("chatcmpl-"), 16).unwrap()
                })
                .collect();
        }
        assert!(Instant::now() < deadline, "the sink wrote {text:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_opens_and_expires_on_the_pipelines_clock_with_no_traffic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let clock = Arc::new(ManualClock::new(ts("2030-01-01T09:59:59Z")));
    let p = Pipeline::start(
        load(d, &format!("{BASE}{WINDOW}")),
        d.join("policy.toml"),
        clock.clone(),
    );
    p.tick();
    send(&p, 1);
    assert!(p.open_windows().is_empty(), "one second before the start");
    assert!(window_events(d).is_empty());

    // The start passes with no record in flight: the ticker's work alone
    // enables the window, and stamps the entry with the clock's time.
    clock.advance(Duration::from_secs(1));
    p.tick();
    assert_eq!(p.open_windows(), ["w"]);
    assert_eq!(
        window_events(d),
        [(ts("2030-01-01T10:00:00Z"), "enabled w".to_owned())]
    );
    send(&p, 2);

    clock.advance(Duration::from_secs(299));
    p.tick();
    assert_eq!(p.open_windows(), ["w"], "one second before the end");
    send(&p, 3);

    // Exactly at the end, still with no traffic: closed by the next tick,
    // stamped with the end, and the next record goes out standard.
    clock.advance(Duration::from_secs(1));
    p.tick();
    assert!(p.open_windows().is_empty(), "at the end");
    assert_eq!(
        window_events(d)[1..],
        [(ts("2030-01-01T10:05:00Z"), "expired w".to_owned())]
    );
    send(&p, 4);

    assert_eq!(full_records(d, 4).await, [2, 3]);
    p.shutdown(Duration::from_secs(5)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_added_by_reload_enables_after_its_audit_entry_and_expires_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let clock = Arc::new(ManualClock::new(ts("2030-01-01T10:01:00Z")));
    let p = Pipeline::start(load(d, BASE), d.join("policy.toml"), clock.clone());
    p.tick();
    send(&p, 1);

    // A reload adds a window that is already running: judged on the
    // pipeline's clock, it is enabled once its entry is in the log.
    let active = p.build(load(d, &format!("{BASE}{WINDOW}")), 2);
    p.swap(active);
    p.tick();
    assert_eq!(
        window_events(d),
        [(ts("2030-01-01T10:01:00Z"), "enabled w".to_owned())]
    );
    send(&p, 2);

    // A wall clock that jumps back does not extend the window: the
    // monotonic clock still reaches its four remaining minutes.
    clock.set_utc(ts("2030-01-01T10:00:30Z"));
    clock.advance(Duration::from_secs(239));
    p.tick();
    assert_eq!(p.open_windows(), ["w"]);
    send(&p, 3);
    clock.advance(Duration::from_secs(1));
    p.tick();
    assert!(
        p.open_windows().is_empty(),
        "four minutes after the enablement"
    );
    assert_eq!(window_events(d).len(), 2, "{:?}", window_events(d));
    send(&p, 4);

    assert_eq!(full_records(d, 4).await, [2, 3]);
    p.shutdown(Duration::from_secs(5)).await;
}
