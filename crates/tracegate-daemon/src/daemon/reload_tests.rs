//! A refused reload and the windows it leaves open or closes (issue 35
//! item 2), on a test clock: the pipeline, the reload attempt `serve`'s
//! watcher makes, and what `/v1/status`, `/metrics` and the audit log say
//! after it. The four must agree, and a close must read differently from
//! a refusal.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use super::pipeline::Pipeline;
use super::reload::{Attempt, WatchState, try_reload};
use super::status::status_json;
use crate::audit::{AuditEvent, read_entries};
use crate::policy::Policy;
use crate::window::clock::ManualClock;

const MAIN: &str = "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"2s\"\n\
     [server]\nflush_interval = \"10ms\"\n\
     [[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n";

const WINDOW: &str = "[[window]]\nid = \"w\"\nsink = \"cap\"\n\
     start = \"2030-01-01T10:00:00Z\"\nend = \"2030-01-01T12:00:00Z\"\n\
     reason = \"reload test\"\nrequested_by = \"tests\"\nunbounded = true\n";

/// Write `text` at `path` with a modification time well in the past, so
/// that the reload judges it settled at once.
fn write_settled(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let f = std::fs::File::options().write(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - Duration::from_secs(60))
        .unwrap();
}

/// A `policy init`-like folder (`policy.toml`, `windows/w.toml`) served on
/// a clock inside the window, the window enabled.
fn live(d: &Path) -> (Arc<Pipeline>, Arc<ManualClock>) {
    let dir = d.join("policy");
    std::fs::create_dir_all(dir.join("windows")).unwrap();
    write_settled(&dir.join("policy.toml"), MAIN);
    write_settled(&dir.join("windows/w.toml"), WINDOW);
    let clock = Arc::new(ManualClock::new("2030-01-01T10:30:00Z".parse().unwrap()));
    let policy = Arc::new(Policy::load(&dir).unwrap());
    let p = Pipeline::start(policy, dir, clock.clone());
    p.tick();
    assert_eq!(
        p.open_windows(),
        ["w"],
        "the window is live before the test"
    );
    (p, clock)
}

/// One reload attempt, as the watcher makes it, followed by the ticker's
/// audit work.
fn reload(p: &Pipeline, state: &mut WatchState) -> Attempt {
    let a = try_reload(p, state);
    p.tick();
    a
}

fn audit(p: &Pipeline) -> Vec<AuditEvent> {
    let path = p.policy_path.join("audit.jsonl");
    read_entries(&path, None)
        .unwrap()
        .map(|e| e.unwrap().event)
        .collect()
}

fn window_status(p: &Pipeline) -> Value {
    status_json(p)["windows"][0].clone()
}

/// Judge one record with content; whether the `cap` sink took it at full
/// level is read from its file later.
fn send(p: &Pipeline, n: u32) {
    let line = format!("{{\"request_id\":\"chatcmpl-{n:x}\",\"prompt_text\":\"CANARY-{n}\"}}\n");
    let t = p.ingest_lines(&p.snapshot(), line.as_bytes());
    assert_eq!((t.records, t.malformed, t.rejected), (1, 0, 0));
}

/// The numbers of the records the sink wrote with their content, once it
/// wrote `count` records (bounded wait for the writer task).
async fn full_records(p: &Pipeline, count: usize) -> Vec<u32> {
    let path = p.policy_path.join("cap.jsonl");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if text.lines().count() >= count {
            return text
                .lines()
                .filter(|l| l.contains("prompt_text"))
                .map(|l| {
                    let v: Value = serde_json::from_str(l).unwrap();
                    let id = v["request_id"].as_str().unwrap();
                    u32::from_str_radix(id.trim_start_matches("chatcmpl-"), 16).unwrap()
                })
                .collect();
        }
        assert!(Instant::now() < deadline, "the sink wrote {text:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn closes(events: &[AuditEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            AuditEvent::WindowClosed { window, cause, .. } => Some(format!("{window} {cause}")),
            _ => None,
        })
        .collect()
}

fn rejections(events: &[AuditEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AuditEvent::PolicyRejected { .. }))
        .count()
}

/// Attacker test (issue 35 item 2): `cp policy.toml policy-backup.toml` in
/// a live folder (or anyone who can drop a file there) made the reload
/// fail to merge, which closed the window for good while `/v1/status` went
/// on calling it active. A folder that only fails to merge takes nothing
/// away: the refusal is audited and shown, the window stays open, and
/// status, metrics, log and audit agree on it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stray_copy_is_refused_and_the_live_window_stays_open_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let (p, _clock) = live(tmp.path());
    let mut state = WatchState::new(&p);
    send(&p, 1);

    let backup = p.policy_path.join("policy-backup.toml");
    write_settled(&backup, MAIN);
    assert_eq!(reload(&p, &mut state), Attempt::Refused);
    send(&p, 2);

    let st = status_json(&p);
    assert_eq!(st["reloads"]["refused"], 1, "{st}");
    assert!(st["last_reload_error"]["cause"].is_string(), "{st}");
    assert_eq!(window_status(&p)["state"], "enabled", "{st}");
    assert_eq!(window_status(&p)["closed_cause"], Value::Null, "{st}");
    assert_eq!(p.gauges().windows_active, 1);
    assert_eq!(p.open_windows(), ["w"]);
    let events = audit(&p);
    assert_eq!(rejections(&events), 1, "{events:?}");
    assert!(closes(&events).is_empty(), "{events:?}");

    // The stray file removed: back to the policy in force, nothing to do.
    std::fs::remove_file(&backup).unwrap();
    assert_eq!(reload(&p, &mut state), Attempt::Unchanged);
    send(&p, 3);
    assert_eq!(p.open_windows(), ["w"]);
    assert_eq!(status_json(&p)["last_reload_error"], Value::Null);
    assert_eq!(full_records(&p, 3).await, [1, 2, 3]);
    p.shutdown(Duration::from_secs(5)).await;
}

/// The same for a stray copy of the window file: an identical second
/// definition neither grants nor takes away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stray_copy_of_the_window_file_takes_nothing_away() {
    let tmp = tempfile::tempdir().unwrap();
    let (p, _clock) = live(tmp.path());
    let mut state = WatchState::new(&p);
    write_settled(&p.policy_path.join("windows/w-copy.toml"), WINDOW);
    assert_eq!(reload(&p, &mut state), Attempt::Refused);
    assert_eq!(p.open_windows(), ["w"]);
    assert_eq!(window_status(&p)["state"], "enabled");
    assert!(closes(&audit(&p)).is_empty());
    p.shutdown(Duration::from_secs(5)).await;
}

/// Attacker test (issue 35 item 2): a refused reload that clearly takes a
/// window away (its file deleted, while a stray broken file keeps the
/// folder from loading) closes it at once and for good, and every view
/// says so: `/v1/status` shows it `closed` with cause `revoked` and no
/// time left (it once showed `active` with seconds left), `/metrics` 0
/// active, the audit log `policy_rejected` and `window_closed` cause
/// `revoked` (distinct from `removed`, a policy that took effect without
/// it). Fixing the folder does not bring it back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_reload_that_removes_a_window_closes_it_and_every_view_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let (p, _clock) = live(tmp.path());
    let mut state = WatchState::new(&p);
    send(&p, 1);

    let window_file = p.policy_path.join("windows/w.toml");
    std::fs::remove_file(&window_file).unwrap();
    let stray = p.policy_path.join("stray.toml");
    write_settled(&stray, "[[sink]\nbroken");
    assert_eq!(reload(&p, &mut state), Attempt::Refused);
    send(&p, 2);

    let st = status_json(&p);
    let w = window_status(&p);
    assert_eq!(w["state"], "closed", "{st}");
    assert_eq!(w["closed_cause"], "revoked", "{st}");
    assert_eq!(w["seconds_left"], 0, "{st}");
    assert_eq!(st["reloads"]["refused"], 1, "{st}");
    assert!(p.open_windows().is_empty());
    assert_eq!(p.gauges().windows_active, 0);
    let events = audit(&p);
    assert_eq!(rejections(&events), 1, "{events:?}");
    assert_eq!(closes(&events), ["w revoked"], "{events:?}");

    // The folder fixed (the window file back, the stray gone): the same
    // content as the policy in force, but the window stays closed.
    write_settled(&window_file, WINDOW);
    std::fs::remove_file(&stray).unwrap();
    assert_eq!(reload(&p, &mut state), Attempt::Unchanged);
    send(&p, 3);
    assert!(p.open_windows().is_empty());
    assert_eq!(window_status(&p)["state"], "closed");
    assert_eq!(window_status(&p)["closed_cause"], "revoked");
    assert_eq!(closes(&audit(&p)), ["w revoked"]);
    assert_eq!(full_records(&p, 3).await, [1]);
    p.shutdown(Duration::from_secs(5)).await;
}

/// A refused reload whose window file moves the end earlier (the operator
/// closing early while another file is broken) closes it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_reload_that_moves_a_windows_end_earlier_closes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (p, _clock) = live(tmp.path());
    let mut state = WatchState::new(&p);
    write_settled(
        &p.policy_path.join("windows/w.toml"),
        &WINDOW.replace("12:00:00Z", "10:45:00Z"),
    );
    write_settled(&p.policy_path.join("policy-backup.toml"), MAIN);
    assert_eq!(reload(&p, &mut state), Attempt::Refused);
    assert!(p.open_windows().is_empty());
    assert_eq!(window_status(&p)["closed_cause"], "revoked");
    assert_eq!(closes(&audit(&p)), ["w revoked"]);
    p.shutdown(Duration::from_secs(5)).await;
}
