//! Capture windows with a controllable clock: enablement only after the
//! audit entry, expiry on either clock, budgets, fail-closed audit errors,
//! and windows that stay closed across runs.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use tracegate::Capture;
use tracegate::Level;
use tracegate::Line;
use tracegate::ManualClock;
use tracegate::Policy;
use tracegate::{
    AuditEvent, CloseCause, read_audit_log as read_entries, verify_audit_log as verify,
};
use tracegate::{Gate, Verdict};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// A policy folder with one full sink, its audit log at `audit`, and one
/// window 10:00..11:00 with the given extra keys.
fn policy(dir: &Path, audit: &str, window_extra: &str) -> Arc<Policy> {
    let text = format!(
        "[audit]\npath = \"{audit}\"\nlock_timeout = \"200ms\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\n\
         [[sink]]\nname = \"plain\"\n\
         [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\n\
         reason = \"tune the ltr recipe\"\nrequested_by = \"sre-oncall\"\n{window_extra}"
    );
    let path = dir.join("policy.toml");
    std::fs::write(&path, text).unwrap();
    Arc::new(Policy::load(&path).unwrap())
}

fn events(log: &Path) -> Vec<String> {
    read_entries(log, None)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            match e.event {
                AuditEvent::WindowClosed { window, cause, .. } => {
                    format!("window_closed {window} {}", cause.as_str())
                }
                AuditEvent::WindowEnabled { window, .. } => format!("window_enabled {window}"),
                AuditEvent::WindowReleased {
                    window,
                    spent_records,
                    returned_records,
                    ..
                } => format!("window_released {window} {spent_records} {returned_records}"),
                AuditEvent::BudgetLeased {
                    window, records, ..
                } => format!("budget_leased {window} {}", records.unwrap_or(0)),
                other => other.name().to_string(),
            }
        })
        .collect()
}

fn audit_path(dir: &Path) -> PathBuf {
    dir.join("audit.jsonl")
}

#[test]
fn a_window_enables_only_inside_its_bounds_and_after_its_audit_entry() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T09:59:59Z")));
    let mut cap = Capture::start(p, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Standard, "before start");
    clock.advance(Duration::from_secs(1));
    // The enablement is on disk before `level()` returns Full.
    assert_eq!(cap.level(), Level::Full);
    assert_eq!(
        events(&audit_path(dir.path())),
        ["policy_loaded", "full_denied", "window_enabled w1"]
    );
    clock.advance(Duration::from_secs(3599));
    assert_eq!(cap.level(), Level::Full, "one second before the end");
    clock.advance(Duration::from_secs(1));
    assert_eq!(cap.level(), Level::Standard, "exactly at the end");
    assert_eq!(
        events(&audit_path(dir.path()))[3..],
        ["window_closed w1 expired", "window_released w1 0 0"]
    );
    assert_eq!(
        verify(&audit_path(dir.path()), None).unwrap().exit_code(),
        0
    );
}

#[test]
fn a_wall_clock_jump_backwards_does_not_extend_a_window() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:30:00Z")));
    let mut cap = Capture::start(p, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    clock.advance(Duration::from_secs(29 * 60));
    // The wall clock is set back 20 minutes; only 1 minute of the window remains
    // on the monotonic clock.
    clock.set_utc(ts("2026-12-01T10:39:00Z"));
    assert_eq!(cap.level(), Level::Full);
    clock.advance(Duration::from_secs(60));
    assert_eq!(
        cap.level(),
        Level::Standard,
        "the monotonic deadline passed"
    );
    assert!(events(&audit_path(dir.path())).contains(&"window_closed w1 expired".to_string()));
}

#[test]
fn budgets_close_the_window_at_their_edge_and_it_stays_closed_for_a_later_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(
        dir.path(),
        "audit.jsonl",
        "max_records = 2\nmax_bytes = 1000\n",
    );
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:00:00Z")));
    let mut cap = Capture::start(p.clone(), clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    assert!(cap.spend(100));
    assert_eq!(cap.level(), Level::Full);
    assert!(
        cap.spend(100),
        "the second record is within max_records = 2"
    );
    assert_eq!(cap.level(), Level::Standard, "spent: closed");
    cap.finish();
    let log = audit_path(dir.path());
    assert_eq!(
        events(&log).last().unwrap(),
        "window_closed w1 budget_spent"
    );

    // A later run, still inside the window's time: it stays closed.
    let mut again = Capture::start(p, clock, "cap");
    assert_eq!(again.level(), Level::Standard);
    assert!(
        !events(&log)
            .iter()
            .skip(4)
            .any(|e| e.starts_with("window_enabled"))
    );
}

#[test]
fn a_byte_budget_refuses_the_record_that_would_exceed_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "max_bytes = 250\n");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:00:00Z")));
    let mut cap = Capture::start(p, clock, "cap");
    assert_eq!(cap.level(), Level::Full);
    assert!(cap.spend(200));
    assert!(!cap.spend(51), "200 + 51 > 250");
    // A smaller record still fits what is left, to the byte.
    assert!(cap.spend(50));
    assert_eq!(cap.level(), Level::Standard, "all 250 bytes spent");
    assert_eq!(
        events(&audit_path(dir.path())).last().unwrap(),
        "window_closed w1 budget_spent"
    );
}

/// Issue 13 item 6: a run that ends releases the window (it does not close
/// it), and a later run enables it again.
#[test]
fn a_release_does_not_stop_a_later_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:10:00Z")));
    let mut cap = Capture::start(p.clone(), clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    cap.finish();
    let mut again = Capture::start(p, clock, "cap");
    assert_eq!(again.level(), Level::Full);
    let ev = events(&audit_path(dir.path()));
    assert!(ev.contains(&"window_released w1 0 0".to_string()), "{ev:?}");
    assert!(!ev.iter().any(|e| e.starts_with("window_closed")), "{ev:?}");
    assert_eq!(ev.iter().filter(|e| *e == "window_enabled w1").count(), 2);
}

#[test]
fn a_window_removed_from_the_policy_between_runs_is_not_enabled() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:10:00Z")));
    let p = policy(dir.path(), "audit.jsonl", "");
    let mut cap = Capture::start(p, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    cap.finish();
    // The next run's policy has no window.
    std::fs::write(
        dir.path().join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n",
    )
    .unwrap();
    let p = Arc::new(Policy::load(&dir.path().join("policy.toml")).unwrap());
    let mut cap = Capture::start(p, clock, "cap");
    assert_eq!(cap.level(), Level::Standard);
}

#[test]
fn a_standard_sink_never_gets_full_level() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:10:00Z")));
    let mut cap = Capture::start(p, clock, "plain");
    assert_eq!(cap.level(), Level::Standard);
    assert!(
        !audit_path(dir.path()).exists(),
        "a standard sink needs no audit log"
    );
}

/// SECURITY: when the audit log cannot be written, full capture stays off.
#[test]
fn full_capture_stays_off_when_the_audit_log_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let regular = dir.path().join("file.txt");
    std::fs::write(&regular, "x").unwrap();
    for audit in [
        "/dev/full",
        "file.txt/audit.jsonl",
        "missing-dir/audit.jsonl",
    ] {
        let p = policy(dir.path(), audit, "");
        let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:10:00Z")));
        let mut cap = Capture::start(p, clock.clone(), "cap");
        assert_eq!(cap.level(), Level::Standard, "{audit}");
        clock.advance(Duration::from_secs(5));
        assert_eq!(
            cap.level(),
            Level::Standard,
            "{audit}: retried and still off"
        );
        assert!(cap.stats().audit_failures >= 2, "{audit}");
    }
}

/// A full record through gate and capture: content flows only in the window,
/// and the standard projection is used outside it.
#[test]
fn content_flows_only_while_the_window_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T09:59:00Z")));
    let mut cap = Capture::start(p.clone(), clock.clone(), "cap");
    let mut gate = Gate::new(p);
    let line = br#"{"request_id":"chatcmpl-7d3fa9b2","prompt_text":"CANARY-content"}"#;
    let mut outputs = Vec::new();
    for _ in 0..3 {
        let level = cap.level();
        let j = gate.judge(1, &Line::Text(line), level, true);
        let out = match j.verdict {
            Verdict::Verbatim => String::from_utf8_lossy(line).into_owned(),
            Verdict::Rewritten => String::from_utf8_lossy(gate.output()).into_owned(),
            _ => String::new(),
        };
        outputs.push(out);
        clock.advance(Duration::from_secs(60 * 31));
    }
    assert!(!outputs[0].contains("CANARY"), "before the window");
    assert!(outputs[1].contains("CANARY"), "inside the window");
    assert!(!outputs[2].contains("CANARY"), "after the window");
    let log = std::fs::read_to_string(audit_path(dir.path())).unwrap();
    assert!(!log.contains("CANARY"), "no content in the audit log");
    let closed =
        tracegate::internals::audit::closed_windows(&audit_path(dir.path()), None).unwrap();
    assert!(!closed.contains_key("w1") || closed["w1"] != CloseCause::Shutdown);
}

/// The README walkthrough as a test: open a window, capture, verify the
/// audit log, check the capture; then scan everything for the canary.
#[test]
fn a_capture_session_end_to_end_leaks_content_only_to_the_capture() {
    use super::cli::tracegate;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"trace-file\"\n[[sink]]\nname = \"replay-capture\"\nfull_allowed = true\n",
    )
    .unwrap();
    let p = d.to_str().unwrap();
    let open = tracegate(
        &[
            "window",
            "open",
            "--policy",
            p,
            "--sink",
            "replay-capture",
            "--for",
            "30m",
            "--reason",
            "tune ltr",
            "--by",
            "sre-oncall",
        ],
        b"",
    );
    assert_eq!(open.code, 0, "{}", open.stderr);
    let now = Timestamp::now().as_second();
    let canary = "CANARY-walkthrough-3f9e";
    let input = format!(
        "{{\"request_id\":\"chatcmpl-7d3fa9b2\",\"t_arrival\":{now},\"t_completion\":{},\"prompt_text\":\"{canary}\",\"output_text\":\"ok\"}}\n",
        now + 2
    );
    let capture = tracegate(
        &["filter", "--policy", p, "--sink", "replay-capture"],
        input.as_bytes(),
    );
    assert_eq!(capture.code, 0, "{}", capture.stderr);
    assert!(
        capture.stdout.contains(canary),
        "inside the window the capture holds content"
    );
    assert!(capture.stderr.contains("1 full"), "{}", capture.stderr);
    let standard = tracegate(
        &["filter", "--policy", p, "--sink", "trace-file"],
        input.as_bytes(),
    );
    assert!(!standard.stdout.contains(canary));

    let log = d.join("audit.jsonl");
    let verify = tracegate(&["audit", "verify", log.to_str().unwrap()], b"");
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);

    let capture_file = d.join("capture.jsonl");
    std::fs::write(&capture_file, &capture.stdout).unwrap();
    let cf = capture_file.to_str().unwrap();
    let audited = tracegate(
        &[
            "check",
            "--policy",
            p,
            "--sink",
            "replay-capture",
            "--audit",
            log.to_str().unwrap(),
            cf,
        ],
        b"",
    );
    assert_eq!(audited.code, 0, "{}{}", audited.stdout, audited.stderr);
    // The same capture checked against a sink with no windows is flagged.
    let other = tracegate(&["check", "--policy", p, "--sink", "trace-file", cf], b"");
    assert_eq!(other.code, 1);
    assert!(other.stdout.contains("outside_window"), "{}", other.stdout);

    // SECURITY: the canary is nowhere but the capture.
    for (what, text) in [
        ("audit log", std::fs::read_to_string(&log).unwrap()),
        (
            "checkpoint",
            std::fs::read_to_string(d.join("audit.jsonl.checkpoint")).unwrap(),
        ),
        ("capture stderr", capture.stderr.clone()),
        ("standard stdout", standard.stdout.clone()),
        ("standard stderr", standard.stderr.clone()),
        ("check output", format!("{}{}", other.stdout, other.stderr)),
    ] {
        assert!(!text.contains(canary), "canary in the {what}");
    }
}

#[test]
fn window_close_ends_an_active_window_and_removes_a_pending_one() {
    use super::cli::tracegate;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n",
    )
    .unwrap();
    let p = d.to_str().unwrap();
    let open = |id: &str, extra: &[&str]| {
        let mut args = vec![
            "window", "open", "--policy", p, "--sink", "cap", "--for", "30m", "--reason", "r",
            "--by", "me", "--id", id,
        ];
        args.extend_from_slice(extra);
        tracegate(&args, b"")
    };
    assert_eq!(open("now", &[]).code, 0);
    // Pending: two days ahead (a window may start at most a week ahead).
    let later = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(48)).to_string();
    assert_eq!(open("later", &["--start", &later]).code, 0);
    // An overlapping window is refused and the refusal audited.
    let overlap = open("overlap", &[]);
    assert_eq!(overlap.code, 2);
    assert!(
        overlap.stderr.contains("overlaps window `now`"),
        "{}",
        overlap.stderr
    );
    let list = tracegate(&["window", "list", "--policy", p], b"");
    assert!(
        list.stdout.contains("now") && list.stdout.contains("active"),
        "{}",
        list.stdout
    );
    assert!(list.stdout.contains("pending"), "{}", list.stdout);
    assert_eq!(
        tracegate(&["window", "close", "--policy", p, "now"], b"").code,
        0
    );
    assert_eq!(
        tracegate(&["window", "close", "--policy", p, "later"], b"").code,
        0
    );
    assert!(!d.join("windows/later.toml").exists());
    let list = tracegate(&["window", "list", "--policy", p], b"");
    assert!(list.stdout.contains("closed: removed"), "{}", list.stdout);
    let log = std::fs::read_to_string(d.join("audit.jsonl")).unwrap();
    assert!(
        log.contains("\"event\":\"full_denied\"") && log.contains("\"why\":\"invalid_window\"")
    );
    assert_eq!(log.matches("\"cause\":\"removed\"").count(), 2);
    // An id no file defines.
    let bad = tracegate(&["window", "close", "--policy", p, "nope"], b"");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("no window `nope`"), "{}", bad.stderr);
}

#[test]
fn a_reload_keeps_an_unchanged_window_and_closes_a_changed_or_removed_one_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "max_records = 10\n");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:30:00Z")));
    let mut cap = Capture::start(p, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    assert!(cap.spend(10));
    // The same definition written again (another file, a comment): stays
    // open, and the budget already spent carries over.
    let same = policy(dir.path(), "audit.jsonl", "max_records = 10\n# touched\n");
    cap.reload(same);
    assert_eq!(cap.open_window(), Some("w1"));
    assert_eq!(cap.level(), Level::Full);
    for _ in 0..9 {
        assert!(cap.spend(10));
    }
    assert!(!cap.spend(10), "the carried-over budget is spent");
    assert_eq!(cap.open_window(), None);
    assert_eq!(
        events(&audit_path(dir.path())).last().unwrap(),
        "window_closed w1 budget_spent"
    );

    // A changed window (here: shortened) under the same id closes for good.
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let mut cap = Capture::start(p, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    // (A policy is immutable outside `policy::`: edit the file instead.)
    let path = dir.path().join("policy.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("2026-12-01T11:00:00Z", "2026-12-01T10:45:00Z"),
    )
    .unwrap();
    let shorter = Policy::load(&path).unwrap();
    cap.reload(Arc::new(shorter.clone()));
    assert_eq!(cap.open_window(), None);
    assert_eq!(
        events(&audit_path(dir.path()))
            .iter()
            .rev()
            .take(2)
            .collect::<Vec<_>>(),
        ["window_released w1 0 0", "window_closed w1 removed"]
    );
    assert_eq!(cap.level(), Level::Standard, "closed for good in this run");
    let again = Capture::start(Arc::new(shorter), clock.clone(), "cap");
    let mut again = again;
    assert_eq!(again.level(), Level::Standard, "and in a later one");

    // A removed window closes too.
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let mut cap = Capture::start(p.clone(), clock, "cap");
    assert_eq!(cap.level(), Level::Full);
    let path = dir.path().join("policy.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = text.find("[[window]]").unwrap();
    std::fs::write(&path, &text[..cut]).unwrap();
    let none = Policy::load(&path).unwrap();
    cap.reload(Arc::new(none));
    assert_eq!(
        events(&audit_path(dir.path()))
            .iter()
            .rev()
            .take(2)
            .collect::<Vec<_>>(),
        ["window_released w1 0 0", "window_closed w1 removed"]
    );
    assert_eq!(cap.level(), Level::Standard);
}

struct Nothing;
impl tracegate::internals::audit::Follow for Nothing {
    fn seen(&mut self, _: &tracegate::internals::audit::Entry) {}
}

/// Issue 22 item 1 (runtime part): `revoke` takes rights away at once even
/// while the audit log cannot be written (here another process holds its
/// lock); the `window_closed` entry is queued and written when the log is
/// back, and the window is never enabled again by this capture.
#[test]
fn revoke_closes_at_once_without_the_log_and_audits_when_it_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let p = policy(dir.path(), "audit.jsonl", "");
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:10:00Z")));
    let mut cap = Capture::start(p, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Full);
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let log = audit_path(dir.path());
    let holder = std::thread::spawn(move || {
        let mut other = tracegate::AuditLog::open(&log, None, Duration::from_secs(5)).unwrap();
        let mut cursor = tracegate::internals::audit::LogCursor::new();
        other
            .transact(
                &mut cursor,
                &mut Nothing,
                ts("2026-12-01T10:10:00Z"),
                |_| {
                    locked_tx.send(()).unwrap();
                    let _ = release_rx.recv_timeout(Duration::from_secs(30));
                    Vec::new()
                },
            )
            .unwrap();
    });
    locked_rx.recv().unwrap();
    cap.revoke(&|id| id != "w1");
    assert_eq!(cap.open_window(), None, "closed at once");
    assert_eq!(cap.level(), Level::Standard);
    assert!(
        !std::fs::read_to_string(audit_path(dir.path()))
            .unwrap()
            .contains("\"cause\":\"removed\""),
        "the log could not be written"
    );
    release_tx.send(()).unwrap();
    holder.join().unwrap();
    clock.advance(Duration::from_secs(2));
    assert_eq!(cap.level(), Level::Standard, "barred for good");
    let ev = events(&audit_path(dir.path()));
    assert!(
        ev.contains(&"window_closed w1 revoked".to_string()),
        "{ev:?}"
    );
    assert!(ev.contains(&"window_released w1 0 0".to_string()), "{ev:?}");
    assert_eq!(
        verify(&audit_path(dir.path()), None).unwrap().exit_code(),
        0
    );
}

// ---------------------------------------------------------------- clock set back

/// Two full sinks, `cap` with the two-minute window `w1` (10:00..10:02 on
/// 2030-01-01) and `cap2` with none.
fn two_sinks(dir: &Path) -> Arc<Policy> {
    let text = "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"500ms\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\n\
         [[sink]]\nname = \"cap2\"\nfull_allowed = true\n\
         [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"2030-01-01T10:00:00Z\"\nend = \"2030-01-01T10:02:00Z\"\n\
         reason = \"clock test\"\nrequested_by = \"tests\"\n";
    let path = dir.join("policy.toml");
    std::fs::write(&path, text).unwrap();
    Arc::new(Policy::load(&path).unwrap())
}

#[test]
fn a_clock_set_back_cannot_reopen_a_window_another_gate_saw_end() {
    let dir = tempfile::tempdir().unwrap();
    let p = two_sinks(dir.path());
    let log = audit_path(dir.path());
    let clock = Arc::new(ManualClock::new(ts("2030-01-01T10:00:10Z")));
    // w1 is used once, inside its bounds.
    let mut first = Capture::start(p.clone(), clock.clone(), "cap");
    assert!(first.spend(10), "w1 is open at 10:00:10");
    first.finish();
    // Another gate (sink `cap2`, no window of its own) runs past w1's end
    // with nothing of its own to audit.
    let mut other = Capture::start(p.clone(), clock.clone(), "cap2");
    assert_eq!(other.level(), Level::Standard);
    clock.advance(Duration::from_secs(5 * 60));
    assert_eq!(other.level(), Level::Standard, "10:05:10");
    // The clock is set back into w1 and a new gate starts for its sink.
    clock.set_utc(ts("2030-01-01T10:01:30Z"));
    let mut again = Capture::start(p.clone(), clock.clone(), "cap");
    assert_eq!(
        again.level(),
        Level::Standard,
        "a window another gate saw end was enabled again with the clock set back"
    );
    assert!(!again.spend(10));
    again.finish();
    let ev = events(&log);
    assert_eq!(
        ev.iter().filter(|e| *e == "window_enabled w1").count(),
        1,
        "{ev:?}"
    );
    assert!(
        ev.contains(&"window_closed w1 expired".to_string()),
        "{ev:?}"
    );
    // The expiry is in the log itself: losing the clock mark changes nothing.
    let mark = PathBuf::from(format!("{}.clock", log.display()));
    std::fs::remove_file(&mark).unwrap();
    let mut after = Capture::start(p, clock.clone(), "cap");
    assert_eq!(after.level(), Level::Standard, "clock mark deleted");
    after.finish();
    assert_eq!(verify(&log, None).unwrap().exit_code(), 0);
}

#[test]
fn a_clock_mark_past_the_end_ends_the_window_and_a_rolled_back_one_does_not_reopen_it() {
    use tracegate::internals::audit::high_water_path;
    let dir = tempfile::tempdir().unwrap();
    let p = two_sinks(dir.path());
    let log = audit_path(dir.path());
    let clock = Arc::new(ManualClock::new(ts("2030-01-01T10:00:10Z")));
    let mut first = Capture::start(p.clone(), clock.clone(), "cap");
    assert!(first.spend(10));
    first.finish();
    let mark = high_water_path(&log);
    let marked = std::fs::read_to_string(&mark).unwrap();
    assert!(marked.contains("2030-01-01T10:00:10"), "{marked}");
    // The mark says time reached 10:03 (a gate saw it and could not write
    // its close); the log's newest entry is from 10:00:10.
    std::fs::write(&mark, "{\"high_water\":\"2030-01-01T10:03:00Z\"}\n").unwrap();
    clock.set_utc(ts("2030-01-01T10:01:00Z"));
    let mut gate = Capture::start(p.clone(), clock.clone(), "cap");
    assert_eq!(gate.level(), Level::Standard, "the mark is past w1's end");
    gate.finish();
    assert!(events(&log).contains(&"window_closed w1 expired".to_string()));
    // Rolled back to before the end: the log's close holds.
    std::fs::write(&mark, "{\"high_water\":\"2030-01-01T10:00:00Z\"}\n").unwrap();
    let mut gate = Capture::start(p.clone(), clock.clone(), "cap");
    assert_eq!(gate.level(), Level::Standard, "mark rolled back");
    gate.finish();
    // A mark that is not one keeps full capture off (fail closed).
    std::fs::write(&mark, "garbage").unwrap();
    let mut gate = Capture::start(p, clock, "cap2");
    assert_eq!(gate.level(), Level::Standard);
    assert!(
        !gate.audit_ready(),
        "an unreadable clock mark must fail closed"
    );
}

#[test]
fn a_process_clock_behind_the_file_system_cannot_use_a_window_that_ended() {
    // This process's clock alone is set back (the host's, which stamps the
    // files, is right): 170 s, then 100 s. The window lasted two minutes
    // and ended a minute ago by the host's clock.
    let dir = tempfile::tempdir().unwrap();
    let now = Timestamp::now();
    let at = |secs: i64| now + jiff::SignedDuration::from_secs(secs);
    let text = format!(
        "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"500ms\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\n\
         [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\n\
         reason = \"r\"\nrequested_by = \"q\"\n",
        at(-180),
        at(-60)
    );
    let path = dir.path().join("policy.toml");
    std::fs::write(&path, text).unwrap();
    let p = Arc::new(Policy::load(&path).unwrap());
    let clock = Arc::new(ManualClock::with_file_times(at(-170)));
    let mut first = Capture::start(p.clone(), clock.clone(), "cap");
    assert_eq!(first.level(), Level::Standard, "clock 170 s back");
    first.finish();
    clock.set_utc(at(-100));
    let mut second = Capture::start(p, clock, "cap");
    assert_eq!(second.level(), Level::Standard, "clock 100 s back");
    second.finish();
    let ev = events(&audit_path(dir.path()));
    assert!(!ev.contains(&"window_enabled w1".to_string()), "{ev:?}");
    assert!(
        ev.contains(&"window_closed w1 expired".to_string()),
        "{ev:?}"
    );
}

/// A capture from the library alone (`Capture::start`: the client of a
/// fleet's shared store is the daemon's, and the library links none)
/// whose policy names `[fleet] budget_store` never reaches the store and
/// grants nothing: the replica's own log does not stand in for the fleet's
/// budget.
#[test]
fn a_capture_without_a_store_client_never_reaches_the_store_and_grants_nothing() {
    let store = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    store.set_nonblocking(true).unwrap();
    let fleet = format!(
        "max_records = 10\n[fleet]\nbudget_store = \"redis://{}\"\nstore_key_file = \"store.key\"\nstore_timeout = \"200ms\"\n",
        store.local_addr().unwrap()
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("store.key"),
        format!("{}\n", "5e".repeat(32)),
    )
    .unwrap();
    let p = policy(dir.path(), "audit.jsonl", &fleet);
    let clock = Arc::new(ManualClock::new(ts("2026-12-01T10:30:00Z")));
    let mut cap = Capture::start(p, clock.clone(), "cap");
    for _ in 0..3 {
        assert_eq!(cap.level(), Level::Standard);
        assert!(cap.grant().is_none());
        clock.advance(Duration::from_secs(2));
    }
    match store.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        Ok(_) => panic!("a capture without a store client connected to the store"),
        Err(e) => panic!("{e}"),
    }
    assert_eq!(
        cap.store_state(),
        Some(Some(tracegate::settings::StoreFault::Unreachable))
    );
    let seen = events(&audit_path(dir.path()));
    assert!(
        !seen
            .iter()
            .any(|e| e.starts_with("window_enabled") || e.starts_with("budget_leased")),
        "{seen:?}"
    );
}
