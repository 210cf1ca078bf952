//! Capture budgets through the real binary, tried as an attacker would:
//! many runs, many processes at once, one OTLP request of many spans, a
//! close while a gate runs, and logs written before leases existed.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use tracegate::{AuditEvent, CloseCause, read_audit_log as read_entries};

use super::cli::tracegate;
use crate::wait::poll;

/// A policy folder: one full sink `cap`, one standard sink `plain`, the
/// audit log `audit.jsonl`, and window `w1` open now for 30 minutes with
/// `budget` keys.
fn folder(dir: &Path, budget: &str) {
    let now = Timestamp::now();
    let start = now - SignedDuration::from_secs(60);
    let end = now + SignedDuration::from_mins(30);
    std::fs::write(
        dir.join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\nlock_timeout = \"5s\"\n\
         [[sink]]\nname = \"cap\"\nfull_allowed = true\n[[sink]]\nname = \"plain\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("windows")).unwrap();
    std::fs::write(
        dir.join("windows/w1.toml"),
        format!(
            "[[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"{start}\"\nend = \"{end}\"\n\
             reason = \"budget test\"\nrequested_by = \"sre\"\n{budget}"
        ),
    )
    .unwrap();
    // Written a while ago, as a user's files are (see `cli::write`).
    super::cli::backdate(&dir.join("policy.toml"));
    super::cli::backdate(&dir.join("windows/w1.toml"));
}

fn cf(canary: &str, i: usize) -> String {
    let now = Timestamp::now().as_second();
    format!(
        "{{\"request_id\":\"chatcmpl-{i:x}\",\"t_arrival\":{now},\"t_completion\":{},\"prompt_text\":\"{canary}-{i}\"}}\n",
        now + 1
    )
}

fn cf_lines(canary: &str, n: usize) -> String {
    (0..n).map(|i| cf(canary, i)).collect()
}

fn filter_cap(dir: &Path, input: &str) -> super::cli::Run {
    let p = dir.to_str().unwrap();
    tracegate(
        &["filter", "--policy", p, "--sink", "cap"],
        input.as_bytes(),
    )
}

/// `filter --sink cap` on the policy folder `d`, running, its stdin,
/// stdout and stderr piped.
fn spawn_filter_cap(d: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(["filter", "--policy", d.to_str().unwrap(), "--sink", "cap"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn entries(dir: &Path) -> Vec<AuditEvent> {
    read_entries(&dir.join("audit.jsonl"), None)
        .unwrap()
        .map(|e| e.unwrap().event)
        .collect()
}

fn verify(dir: &Path) -> i32 {
    let log = dir.join("audit.jsonl");
    tracegate(&["audit", "verify", log.to_str().unwrap()], b"").code
}

/// What the releases in the log say was spent, in records and bytes.
fn released(events: &[AuditEvent]) -> (u64, u64) {
    events.iter().fold((0, 0), |(r, b), e| match e {
        AuditEvent::WindowReleased {
            spent_records,
            spent_bytes,
            ..
        } => (r + spent_records, b + spent_bytes),
        _ => (r, b),
    })
}

fn spent_closes(events: &[AuditEvent]) -> usize {
    events
        .iter()
        .filter(|e| {
            matches!(
                e,
                AuditEvent::WindowClosed {
                    cause: CloseCause::BudgetSpent,
                    ..
                }
            )
        })
        .count()
}

/// Issue 13 item 1: with `max_records = 2`, ten runs of one record each
/// used to deliver ten full records (each run spent its own budget in
/// memory). The budget bounds all runs together.
#[test]
fn a_budget_bounds_every_run_together() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "max_records = 2\n");
    let canary = "CANARY-runs";
    let mut full = 0;
    for i in 0..10 {
        let run = filter_cap(d, &cf(canary, i));
        assert_eq!(run.code, 0, "{}", run.stderr);
        full += run.stdout.matches(canary).count();
        assert_eq!(run.stdout.lines().count(), 1, "every record goes out");
    }
    assert_eq!(full, 2, "two full records over ten runs");
    let events = entries(d);
    assert_eq!(released(&events).0, 2, "the releases account for them");
    assert_eq!(spent_closes(&events), 1);
    assert_eq!(verify(d), 0);
    // And no later run enables the window again.
    let more = filter_cap(d, &cf_lines(canary, 3));
    assert!(!more.stdout.contains(canary));
}

/// Issue 13 item 1: several processes at once against one log spend the
/// budget exactly: never over, and (each wanting more than all of it) not
/// under either. Bytes likewise never over.
#[test]
fn concurrent_gates_spend_one_budget_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "max_records = 25\n");
    let canary = "CANARY-conc";
    // Each process wants less than the budget: each used to deliver all
    // of it, 60 in all. Now never more than the budget.
    let input = cf_lines(canary, 10);
    let runs: Vec<_> = (0..6)
        .map(|_| {
            let d = d.to_path_buf();
            let input = input.clone();
            std::thread::spawn(move || filter_cap(&d, &input))
        })
        .collect();
    let mut full = 0;
    for r in runs {
        let run = r.join().unwrap();
        assert_eq!(run.code, 0, "{}", run.stderr);
        full += run.stdout.matches(canary).count() as u64;
    }
    assert!(full <= 25, "{full} full records over a budget of 25");
    assert_eq!(released(&entries(d)).0, full, "the log accounts for each");
    assert_eq!(verify(d), 0);

    // Each process wants more than the whole budget: exactly the budget.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "max_records = 25\n");
    let input = cf_lines(canary, 60);
    let runs: Vec<_> = (0..6)
        .map(|_| {
            let d = d.to_path_buf();
            let input = input.clone();
            std::thread::spawn(move || filter_cap(&d, &input))
        })
        .collect();
    let mut full = 0;
    for r in runs {
        let run = r.join().unwrap();
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stdout.lines().count(), 60);
        full += run.stdout.matches(canary).count();
    }
    assert_eq!(full, 25, "exactly the budget, across six processes");
    let events = entries(d);
    assert_eq!(released(&events).0, 25);
    assert_eq!(spent_closes(&events), 1);
    assert_eq!(verify(d), 0);

    // A byte budget: the sum of full records' bytes never exceeds it.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let line = cf(canary, 7);
    let max = 10 * line.len() as u64 + line.len() as u64 / 2;
    folder(d, &format!("max_bytes = {max}\n"));
    let input = line.repeat(40);
    let runs: Vec<_> = (0..4)
        .map(|_| {
            let d = d.to_path_buf();
            let input = input.clone();
            std::thread::spawn(move || filter_cap(&d, &input))
        })
        .collect();
    let mut bytes = 0u64;
    for r in runs {
        let run = r.join().unwrap();
        assert_eq!(run.code, 0, "{}", run.stderr);
        bytes += run
            .stdout
            .lines()
            .filter(|l| l.contains(canary))
            .map(|l| l.len() as u64)
            .sum::<u64>();
    }
    assert!(bytes <= max, "{bytes} > {max}");
    assert_eq!(
        bytes,
        10 * (line.len() as u64 - 1),
        "ten records fit, not eleven"
    );
    assert_eq!(verify(d), 0);
}

fn span_request(canary: &str, spans: usize) -> String {
    let now = Timestamp::now().as_nanosecond();
    let span = |i: usize| {
        format!(
            r#"{{"name":"llm_request","startTimeUnixNano":"{now}","endTimeUnixNano":"{}","attributes":[{{"key":"gen_ai.prompt","value":{{"stringValue":"{canary}-{i}"}}}}]}}"#,
            now + 1000
        )
    };
    let spans: Vec<String> = (0..spans).map(span).collect();
    format!(
        "{{\"resourceSpans\":[{{\"scopeSpans\":[{{\"spans\":[{}]}}]}}]}}\n",
        spans.join(",")
    )
}

/// Issue 13 item 2: with `max_records = 1`, one export request of 500
/// spans went out whole. One span is one unit: one span goes out full, the
/// other 499 standard; the next request gets none.
#[test]
fn one_otlp_request_is_split_by_span() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "max_records = 1\n");
    let canary = "CANARY-span";
    let input = format!("{}{}", span_request(canary, 500), span_request(canary, 3));
    let run = filter_cap(d, &input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].matches(canary).count(), 1, "one span full");
    assert_eq!(
        lines[0].matches("\"name\":\"llm_request\"").count(),
        500,
        "the other spans go out standard"
    );
    assert_eq!(lines[1].matches(canary).count(), 0);
    let events = entries(d);
    assert_eq!(released(&events).0, 1);
    assert_eq!(verify(d), 0);

    // By bytes: as many whole spans as fit, the rest standard.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "max_bytes = 1000\n");
    let run = filter_cap(d, &span_request(canary, 50));
    let spent = released(&entries(d)).1;
    assert!(spent <= 1000, "{spent}");
    let n = run.stdout.matches(canary).count() as u64;
    assert!((1..50).contains(&n), "{n} spans full");
    assert!(
        spent > 1000 - spent / n,
        "not stranded: {spent} for {n} spans"
    );
}

/// Issue 13 item 3: a `filter` that is already running learns of a
/// `window close` (written by another process) within one second.
#[test]
fn window_close_stops_a_running_filter_within_a_second() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path(), "unbounded = true\n");
    close_stops_a_running_filter(dir.path(), "w1");
}

/// Issue 30 item 8: a window written in the main policy file, not in
/// windows/, is closed by `window close` too (closing early must always be
/// possible): for good, audited, honoured by a gate that is already running
/// and by every later one, and the command says where the window is
/// written. The file is left as the operator wrote it.
#[test]
fn window_close_closes_a_window_of_the_main_policy_file_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "unbounded = true\n");
    std::fs::remove_file(d.join("windows/w1.toml")).unwrap();
    let now = Timestamp::now();
    let window = |id: &str| {
        format!(
            "\n# {id}: written by hand\n[[window]]\nid = \"{id}\"\nsink = \"cap\"\nstart = \"{}\"\nend = \"{}\"\nreason = \"main file\"\nrequested_by = \"sre\"\n",
            now - SignedDuration::from_secs(60),
            now + SignedDuration::from_mins(30)
        )
    };
    let mut text = std::fs::read_to_string(d.join("policy.toml")).unwrap();
    text.push_str(&window("w1"));
    std::fs::write(d.join("policy.toml"), &text).unwrap();
    let line = text.lines().position(|l| l == "id = \"w1\"").unwrap() + 1;
    let out = close_stops_a_running_filter(d, "w1");
    assert!(
        out.contains(&format!("policy.toml:{line}")),
        "the command names the file and line of the window: {out}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("policy.toml")).unwrap(),
        text,
        "the operator's file is not rewritten"
    );
    // A later gate does not enable it again.
    let run = filter_cap(d, &cf_lines("CANARY-later", 2));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("CANARY-later"), "{}", run.stdout);
    let list = tracegate(&["window", "list", "--policy", d.to_str().unwrap()], b"");
    assert!(list.stdout.contains("closed: removed"), "{}", list.stdout);

    // A policy that is one file: `--policy FILE` closes its window too.
    let single = tempfile::tempdir().unwrap();
    let s = single.path();
    let file = s.join("one.toml");
    std::fs::write(&file, text.replace("w1", "w2")).unwrap();
    let close = tracegate(
        &["window", "close", "--policy", file.to_str().unwrap(), "w2"],
        b"",
    );
    assert_eq!(close.code, 0, "{}", close.stderr);
    assert!(
        close.stdout.contains(&format!("one.toml:{line}")),
        "{}",
        close.stdout
    );
    let run = tracegate(
        &[
            "filter",
            "--policy",
            file.to_str().unwrap(),
            "--sink",
            "cap",
        ],
        cf_lines("CANARY-single", 1).as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("CANARY-single"), "{}", run.stdout);
    assert!(entries(s).iter().any(|e| matches!(
        e,
        AuditEvent::WindowClosed { window, cause: CloseCause::Removed, .. } if window == "w2"
    )));
    // An invalid policy cannot audit a close: the command says where the
    // window is and the two ways that need no audit log.
    std::fs::write(&file, format!("{}bogus = 1\n", text.replace("w1", "w3"))).unwrap();
    let close = tracegate(
        &["window", "close", "--policy", file.to_str().unwrap(), "w3"],
        b"",
    );
    assert_eq!(close.code, 2, "{}", close.stdout);
    for want in [
        &format!("one.toml:{line}"),
        "tracegate capture off",
        "delete it",
    ] {
        assert!(close.stderr.contains(want), "{want}: {}", close.stderr);
    }
}

/// Start `filter` on the policy folder `d`, enable window `id` with one
/// record, `window close` it, and check that records sent a second later
/// go out standard; returns what `window close` printed.
fn close_stops_a_running_filter(d: &Path, id: &str) -> String {
    let canary = "CANARY-close";
    let mut child = spawn_filter_cap(d);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(cf(canary, 1).as_bytes()).unwrap();
    stdin.flush().unwrap();
    // The first record enabled the window.
    poll("the enablement", || {
        entries_if_any(d)
            .iter()
            .any(|e| matches!(e, AuditEvent::WindowEnabled { .. }))
            .then_some(())
    });
    let close = tracegate(
        &["window", "close", "--policy", d.to_str().unwrap(), id],
        b"",
    );
    assert_eq!(close.code, 0, "{}", close.stderr);
    // The promise under test is a time bound: records arriving one second
    // after the close must be judged standard. Wait out that second.
    std::thread::sleep(Duration::from_millis(1100));
    for i in 2..5 {
        stdin.write_all(cf(canary, i).as_bytes()).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].contains(canary), "before the close: full");
    for l in &lines[1..] {
        assert!(!l.contains(canary), "after the close: standard: {l}");
    }
    let events = entries(d);
    assert!(events.iter().any(|e| matches!(
        e,
        AuditEvent::WindowReleased {
            spent_records: 1,
            ..
        }
    )));
    assert_eq!(verify(d), 0);
    format!("{}{}", close.stdout, close.stderr)
}

fn entries_if_any(dir: &Path) -> Vec<AuditEvent> {
    match read_entries(&dir.join("audit.jsonl"), None) {
        Ok(it) => it.filter_map(Result::ok).map(|e| e.event).collect(),
        Err(_) => Vec::new(),
    }
}

/// Issue 13 item 6: a run that ends writes `window_released` (with what it
/// spent), never a `window_closed` `shutdown`, so the log does not read as
/// if the window ended. Logs written before still read and verify: a
/// budgeted window some older gate used counts as spent (what it delivered
/// is unknown), an unbudgeted one is enabled again.
#[test]
fn a_run_releases_the_window_and_old_shutdown_closes_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "unbounded = true\n");
    let canary = "CANARY-release";
    let run = filter_cap(d, &cf_lines(canary, 2));
    assert_eq!(run.stdout.matches(canary).count(), 2);
    let events = entries(d);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, AuditEvent::WindowClosed { .. }))
    );
    assert!(events.iter().any(|e| matches!(
        e,
        AuditEvent::WindowReleased {
            spent_records: 2,
            ..
        }
    )));
    let again = filter_cap(d, &cf_lines(canary, 1));
    assert!(
        again.stdout.contains(canary),
        "still active for a later run"
    );

    // An old log: enabled, then `window_closed` `shutdown`, by an old gate.
    for (budget, expect_full) in [("unbounded = true\n", true), ("max_records = 100\n", false)] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        folder(d, budget);
        let mut log =
            tracegate::AuditLog::open(d.join("audit.jsonl"), None, Duration::from_secs(1)).unwrap();
        let now = Timestamp::now();
        let w = tracegate::Policy::load(d).unwrap().windows()[0].clone();
        log.append(
            &AuditEvent::WindowEnabled {
                window: "w1".into(),
                sink: "cap".into(),
                start: w.start,
                end: w.end,
                reason: w.reason.clone(),
                requested_by: w.requested_by.clone(),
                max_records: w.max_records,
                max_bytes: None,
            },
            now,
        )
        .unwrap();
        log.append(
            &AuditEvent::WindowClosed {
                window: "w1".into(),
                sink: "cap".into(),
                cause: CloseCause::Shutdown,
            },
            now,
        )
        .unwrap();
        assert_eq!(verify(d), 0);
        let run = filter_cap(d, &cf_lines(canary, 1));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            run.stdout.contains(canary),
            expect_full,
            "budget `{budget}`"
        );
        assert_eq!(verify(d), 0);
    }
}

/// `filter` enables a window only once its file has settled (`SETTLE`,
/// one second): an editor's or a script's write caught half way (the
/// window's lines there, its budget line not yet) must not be enabled
/// with the looser bounds of that moment. Here the window file is
/// written without a budget line that bounds anything useful, `filter`
/// starts, and the final form (`max_records = 2`) lands while it waits;
/// the run must capture two records, not ten. Read at once (no wait),
/// the run captured all ten. The files here are dated now on purpose,
/// unlike the other tests' (see `cli::write`).
#[test]
fn a_window_file_still_being_written_is_enabled_only_in_its_final_form() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    folder(d, "max_records = 100\n");
    let window = std::fs::read_to_string(d.join("windows/w1.toml")).unwrap();
    // Dated now: the write in progress.
    std::fs::write(d.join("windows/w1.toml"), &window).unwrap();
    let mut child = spawn_filter_cap(d);
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(
        d.join("windows/w1.toml"),
        window.replace("max_records = 100", "max_records = 2"),
    )
    .unwrap();
    let canary = "CANARY-settle";
    let mut input = child.stdin.take().unwrap();
    input.write_all(cf_lines(canary, 10).as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 10, "every record goes out");
    assert_eq!(
        stdout.matches(canary).count(),
        2,
        "the final budget bounds the run"
    );
}
