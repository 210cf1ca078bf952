//! The audit log and the window commands, attacked through the real
//! binary: rollback (cut, replay, delete), clock games, local users (the
//! lock, file modes, FIFOs), back-dated and colliding windows, and the
//! auditor's `check --sink --audit`.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use tracegate::internals::audit::{
    AuditEvent, AuditLog, Checkpoint, CloseCause, DenyWhy, checkpoint_path, link_hash, read_entries,
};

use super::cli::{Run, tracegate};

/// The text planted in every captured record: it may reach a full sink's
/// output only while a window is legitimately enabled.
const CANARY: &str = "CANARY-prompt-4b1d";
const KEY_HEX: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// A deployment: a policy folder, a state folder for the log, and a
/// separate folder for the anchor.
struct Setup {
    _dir: tempfile::TempDir,
    policy: PathBuf,
    log: PathBuf,
    anchor: PathBuf,
    key: PathBuf,
}

impl Setup {
    /// `keyed`: `[audit] key_file`; `anchored`: `[audit] anchor`.
    fn new(keyed: bool, anchored: bool) -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let policy = dir.path().join("policy");
        let state = dir.path().join("state");
        let vault = dir.path().join("vault");
        for d in [&policy, &state, &vault] {
            fs::create_dir(d).unwrap();
        }
        let log = state.join("audit.jsonl");
        let anchor = vault.join("audit.anchor");
        let key = vault.join("audit.key");
        fs::write(&key, format!("{KEY_HEX}\n")).unwrap();
        let mut text = format!(
            "version = 1\n[audit]\npath = \"{}\"\nlock_timeout = \"500ms\"\n",
            log.display()
        );
        if keyed {
            text.push_str(&format!("key_file = \"{}\"\n", key.display()));
        }
        if anchored {
            text.push_str(&format!("anchor = \"{}\"\n", anchor.display()));
        }
        text.push_str("[[sink]]\nname = \"cap\"\nfull_allowed = true\n");
        fs::write(policy.join("main.toml"), text).unwrap();
        Setup {
            _dir: dir,
            policy,
            log,
            anchor,
            key,
        }
    }

    fn p(&self) -> &str {
        self.policy.to_str().unwrap()
    }

    /// Write a window file active now (started a minute ago, for an hour).
    fn active_window(&self, id: &str) {
        let now = Timestamp::now();
        let start = now - SignedDuration::from_secs(60);
        let end = now + SignedDuration::from_hours(1);
        self.window_file(id, start, end, "tune the ltr recipe", "sre-oncall");
    }

    fn window_file(&self, id: &str, start: Timestamp, end: Timestamp, reason: &str, by: &str) {
        let windows = self.policy.join("windows");
        fs::create_dir_all(&windows).unwrap();
        let q = |s: &str| toml::Value::String(s.to_owned()).to_string();
        fs::write(
            windows.join(format!("{id}.toml")),
            format!(
                "[[window]]\nid = {}\nsink = \"cap\"\nstart = \"{start}\"\nend = \"{end}\"\nreason = {}\nrequested_by = {}\nunbounded = true\n",
                q(id),
                q(reason),
                q(by)
            ),
        )
        .unwrap();
    }

    /// `filter --sink cap` on one record holding the canary.
    fn capture(&self) -> Run {
        tracegate(
            &["filter", "--policy", self.p(), "--sink", "cap"],
            record(Timestamp::now()).as_bytes(),
        )
    }

    fn verify(&self, extra: &[&str]) -> Run {
        let mut args = vec!["audit", "verify", self.log.to_str().unwrap()];
        args.extend_from_slice(extra);
        tracegate(&args, b"")
    }

    fn key_args(&self) -> [&str; 2] {
        ["--key-file", self.key.to_str().unwrap()]
    }

    fn events(&self, keyed: bool) -> Vec<String> {
        let key = keyed.then(|| tracegate::internals::audit::AuditKey::load(&self.key).unwrap());
        read_entries(&self.log, key.as_ref())
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                match e.event {
                    AuditEvent::WindowClosed { window, cause, .. } => {
                        format!("window_closed {window} {cause}")
                    }
                    AuditEvent::WindowEnabled { window, .. } => format!("window_enabled {window}"),
                    AuditEvent::FullDenied { why, .. } => format!("full_denied {why:?}"),
                    other => other.name().to_owned(),
                }
            })
            .collect()
    }
}

/// A cf record with content, placed in time at `at`.
fn record(at: Timestamp) -> String {
    let t = at.as_millisecond() as f64 / 1000.0;
    format!(
        "{{\"request_id\":\"chatcmpl-9f2c41d0\",\"t_arrival\":{t},\"t_completion\":{},\"prompt_tokens\":3,\"prompt_text\":\"{CANARY}\"}}\n",
        t + 1.0
    )
}

fn captured(r: &Run) -> bool {
    r.stdout.contains(CANARY)
}

/// Spawn the binary without waiting.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tracegate"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait for `child` at most `limit`; kill it and fail when it hangs.
fn finish_within(mut child: Child, limit: Duration, what: &str) -> Run {
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return Run {
                code: out.status.code().unwrap_or(-1),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            };
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} hung for {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The writers' lock folder, as SECURITY.md documents it: `FILE.lock.d`.
fn lock_dir(log: &Path) -> PathBuf {
    PathBuf::from(format!("{}.lock.d", log.display()))
}

fn lock_path(log: &Path) -> PathBuf {
    lock_dir(log).join("lock")
}

fn mode(p: &Path) -> u32 {
    fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(st.success());
}

// ---------------------------------------------------------------- rollback

#[test]
fn a_keyed_log_cut_to_its_first_line_without_checkpoint_is_tampered_and_refused() {
    let s = Setup::new(true, false);
    s.active_window("w1");
    assert!(captured(&s.capture()), "the window captures at first");
    let key = s.key_args();
    assert_eq!(s.verify(&key).code, 0);
    // the attack: keep only the first line, delete the checkpoint
    let bytes = fs::read(&s.log).unwrap();
    let first = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    fs::write(&s.log, &bytes[..first]).unwrap();
    fs::remove_file(checkpoint_path(&s.log)).unwrap();
    let v = s.verify(&key);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("checkpoint"), "{}", v.stdout);
    // and the gate refuses to chain on: capture stays off
    let r = s.capture();
    assert!(!captured(&r), "content went out after a rollback");
    assert!(r.stderr.contains("checkpoint is missing"), "{}", r.stderr);
    assert_eq!(
        fs::read(&s.log).unwrap(),
        &bytes[..first],
        "nothing chained on"
    );
}

#[test]
fn an_older_log_and_checkpoint_put_back_together_are_caught_by_the_anchor() {
    let s = Setup::new(true, true);
    s.active_window("w1");
    assert!(captured(&s.capture()));
    let old_log = fs::read(&s.log).unwrap();
    let old_cp = fs::read(checkpoint_path(&s.log)).unwrap();
    // the window is closed for good...
    let c = tracegate(&["window", "close", "--policy", s.p(), "w1"], b"");
    assert_eq!(c.code, 0, "{}", c.stderr);
    s.window_file(
        "w1",
        Timestamp::now() - SignedDuration::from_secs(60),
        Timestamp::now() + SignedDuration::from_hours(1),
        "tune the ltr recipe",
        "sre-oncall",
    );
    assert!(!captured(&s.capture()), "closed for good");
    // ...then the attacker puts the older, authentic pair back
    fs::write(&s.log, &old_log).unwrap();
    fs::write(checkpoint_path(&s.log), &old_cp).unwrap();
    let key = s.key_args();
    assert_eq!(
        s.verify(&key).code,
        0,
        "without the anchor both are authentic"
    );
    let anchor = ["--anchor", s.anchor.to_str().unwrap()];
    let v = s.verify(&[key[0], key[1], anchor[0], anchor[1]]);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("rolled_back"), "{}", v.stdout);
    let r = s.capture();
    assert!(!captured(&r), "a replayed log re-enabled a closed window");
    assert!(r.stderr.contains("anchor"), "{}", r.stderr);
}

#[test]
fn a_log_and_checkpoint_both_deleted_are_caught_by_the_anchor() {
    let s = Setup::new(true, true);
    s.active_window("w1");
    assert!(captured(&s.capture()));
    fs::remove_file(&s.log).unwrap();
    fs::remove_file(checkpoint_path(&s.log)).unwrap();
    let key = s.key_args();
    let anchor = ["--anchor", s.anchor.to_str().unwrap()];
    let v = s.verify(&[key[0], key[1], anchor[0], anchor[1]]);
    assert_eq!(v.code, 1, "{}{}", v.stdout, v.stderr);
    assert!(v.stdout.contains("log is missing"), "{}", v.stdout);
    let r = s.capture();
    assert!(!captured(&r), "a new chain started at seq 0");
    let v = s.verify(&[key[0], key[1], anchor[0], anchor[1]]);
    assert_eq!(v.code, 1, "still tampered: {}", v.stdout);
}

#[test]
fn an_anchor_is_refused_inside_the_log_folder_and_started_only_on_an_intact_log() {
    let s = Setup::new(false, false);
    let main = s.policy.join("main.toml");
    let text = fs::read_to_string(&main).unwrap();
    let inside = s.log.with_file_name("anchor.json");
    fs::write(
        &main,
        text.replace(
            "[[sink]]",
            &format!("anchor = \"{}\"\n[[sink]]", inside.display()),
        ),
    )
    .unwrap();
    let r = tracegate(&["policy", "check", s.p()], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains("inside the audit log's folder"),
        "{}",
        r.stderr
    );

    // an existing log adopts an anchor only through --init-anchor
    let s = Setup::new(false, false);
    s.active_window("w1");
    assert!(captured(&s.capture()));
    let main = s.policy.join("main.toml");
    let text = fs::read_to_string(&main).unwrap();
    fs::write(
        &main,
        text.replace(
            "[[sink]]",
            &format!("anchor = \"{}\"\n[[sink]]", s.anchor.display()),
        ),
    )
    .unwrap();
    let r = s.capture();
    assert!(!captured(&r), "a non-empty log without its anchor");
    assert!(r.stderr.contains("--init-anchor"), "{}", r.stderr);
    let a = s.anchor.to_str().unwrap();
    let v = s.verify(&["--anchor", a]);
    assert_eq!(v.code, 1, "missing anchor: {}", v.stdout);
    let init = s.verify(&["--anchor", a, "--init-anchor"]);
    assert_eq!(init.code, 0, "{}{}", init.stdout, init.stderr);
    assert!(init.stdout.contains("anchor"), "{}", init.stdout);
    assert_eq!(mode(&s.anchor), 0o600);
    assert_eq!(
        s.verify(&["--anchor", a, "--init-anchor"]).code,
        2,
        "never replaced"
    );
    assert!(captured(&s.capture()), "anchored now");
    assert_eq!(s.verify(&["--anchor", a]).code, 0);
}

// ---------------------------------------------------------------- clock

#[test]
fn a_window_that_expired_once_stays_closed_when_the_clock_is_set_back() {
    let s = Setup::new(false, false);
    s.active_window("w1");
    // A gate ran with the clock ahead and closed w1 `expired`; the clock
    // was then set back, so w1 looks active again.
    let mut log = AuditLog::open(&s.log, None, Duration::from_secs(5)).unwrap();
    let earlier = Timestamp::now() - SignedDuration::from_secs(30);
    log.append(
        &AuditEvent::WindowClosed {
            window: "w1".into(),
            sink: "cap".into(),
            cause: CloseCause::Expired,
        },
        earlier,
    )
    .unwrap();
    let r = s.capture();
    assert!(!captured(&r), "an expired window was enabled again");
    assert!(!s.events(false).iter().any(|e| e == "window_enabled w1"));
    let list = tracegate(&["window", "list", "--policy", s.p()], b"");
    assert!(list.stdout.contains("closed: expired"), "{}", list.stdout);
}

#[test]
fn a_clock_behind_the_log_keeps_capture_off_and_writes_nothing() {
    let s = Setup::new(false, false);
    s.active_window("w1");
    // the last entry was written an hour "later" than now
    let mut log = AuditLog::open(&s.log, None, Duration::from_secs(5)).unwrap();
    log.append(
        &AuditEvent::PolicyLoaded {
            policy_sha256: "ab".repeat(32),
            revision: 1,
            source: "p".into(),
            referenced: Vec::new(),
            free_bits: Default::default(),
        },
        Timestamp::now() + SignedDuration::from_hours(1),
    )
    .unwrap();
    let before = fs::read(&s.log).unwrap();
    let r = s.capture();
    assert!(
        !captured(&r),
        "content went out with the clock behind the log"
    );
    assert!(r.stderr.contains("clock is"), "{}", r.stderr);
    assert_eq!(
        fs::read(&s.log).unwrap(),
        before,
        "no entry stamped back in time"
    );
    assert_eq!(s.verify(&[]).code, 0);
}

#[test]
fn verify_reports_a_timestamp_running_backwards_as_tampering_at_its_seq() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    // A chain that links perfectly but whose seq 2 is stamped before seq 1.
    let stamps = [
        "2026-12-01T10:00:00.000000Z",
        "2026-12-01T10:05:00.000000Z",
        "2026-12-01T09:00:00.000000Z",
        "2026-12-01T10:06:00.000000Z",
    ];
    let mut bytes = Vec::new();
    let mut prev = "0".repeat(64);
    let mut last = Vec::new();
    for (i, ts) in stamps.iter().enumerate() {
        let line = format!(
            "{{\"seq\":{i},\"ts\":\"{ts}\",\"event\":\"full_denied\",\"sink\":\"cap\",\"why\":\"no_window\",\"prev\":\"{prev}\"}}\n"
        );
        prev = link_hash(None, line.as_bytes());
        bytes.extend_from_slice(line.as_bytes());
        last = line.into_bytes();
    }
    fs::write(&path, &bytes).unwrap();
    let cp = Checkpoint::new(
        3,
        bytes.len() as u64,
        tracegate::internals::audit::sha256_hex(&last),
        None,
    );
    fs::write(checkpoint_path(&path), serde_json::to_vec(&cp).unwrap()).unwrap();
    let r = tracegate(
        &[
            "audit",
            "verify",
            path.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["first_bad_seq"], 2);
    assert_eq!(v["kind"], "clock");
}

#[test]
fn a_gate_whose_clock_is_behind_the_files_cannot_reopen_a_window_that_ended() {
    // A two-minute window that ended a minute ago by the host's clock, used
    // once by a gate whose clock was 170 s back, then `filter` with its
    // clock 100 s back. The binary cannot fake its clock, so it runs on the
    // real one (R) and the host's time is T = R + 100 s: the window is
    // [T-180, T-60]. The first use is a library gate on a clock reading
    // T-170; the files it wrote are then stamped T, as the host stamps the
    // files of a process whose clock alone was moved.
    use std::sync::Arc;
    let s = Setup::new(false, false);
    let host = Timestamp::now() + SignedDuration::from_secs(100);
    let ago = |secs: i64| host - SignedDuration::from_secs(secs);
    s.window_file("w1", ago(180), ago(60), "tune the ltr recipe", "sre-oncall");
    let policy = Arc::new(tracegate::Policy::load(&s.policy).unwrap());
    let clock = Arc::new(tracegate::ManualClock::new(ago(170)));
    let mut first = tracegate::Capture::start(policy, clock, "cap");
    assert!(
        first.spend(100),
        "the first use, inside the window by its clock"
    );
    first.finish();
    let stamped = std::time::UNIX_EPOCH + Duration::from_millis(host.as_millisecond() as u64);
    let mark = PathBuf::from(format!("{}.clock", s.log.display()));
    for f in [s.log.clone(), checkpoint_path(&s.log), mark] {
        if !f.exists() {
            continue;
        }
        fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_modified(stamped)
            .unwrap();
    }
    let r = s.capture();
    assert!(
        !captured(&r),
        "a window that ended by the files' clock went out full with the gate's clock 100 s back"
    );
    assert_eq!(s.verify(&[]).code, 0);
    let ev = s.events(false);
    assert_eq!(
        ev.iter().filter(|e| *e == "window_enabled w1").count(),
        1,
        "{ev:?}"
    );
    assert!(
        ev.contains(&"window_closed w1 expired".to_owned()),
        "{ev:?}"
    );
    let list = tracegate(&["window", "list", "--policy", s.p()], b"");
    assert!(list.stdout.contains("closed: expired"), "{}", list.stdout);
}

#[test]
fn verify_reports_an_enablement_stamped_at_or_after_its_window_end() {
    // A chain that links, is vouched for and never runs backwards, but
    // enables window `w` (ending 10:02) at 10:03: what a gate with its
    // clock set back past the end, or an edited log, leaves.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let enabled = "\"event\":\"window_enabled\",\"window\":\"w\",\"sink\":\"cap\",\"start\":\"2026-12-01T10:00:00Z\",\"end\":\"2026-12-01T10:02:00Z\",\"reason\":\"r\",\"requested_by\":\"q\"";
    let denied = "\"event\":\"full_denied\",\"sink\":\"cap\",\"why\":\"no_window\"";
    let lines = [
        ("2026-12-01T10:00:30.000000Z", enabled),
        ("2026-12-01T10:01:00.000000Z", denied),
        ("2026-12-01T10:03:00.000000Z", enabled),
    ];
    let mut bytes = Vec::new();
    let mut prev = "0".repeat(64);
    let mut last = Vec::new();
    for (i, (ts, facts)) in lines.iter().enumerate() {
        let line = format!("{{\"seq\":{i},\"ts\":\"{ts}\",{facts},\"prev\":\"{prev}\"}}\n");
        prev = link_hash(None, line.as_bytes());
        bytes.extend_from_slice(line.as_bytes());
        last = line.into_bytes();
    }
    fs::write(&path, &bytes).unwrap();
    let cp = Checkpoint::new(
        2,
        bytes.len() as u64,
        tracegate::internals::audit::sha256_hex(&last),
        None,
    );
    fs::write(checkpoint_path(&path), serde_json::to_vec(&cp).unwrap()).unwrap();
    // The entries themselves are well formed: the reader takes them.
    assert_eq!(read_entries(&path, None).unwrap().count(), 3);
    let r = tracegate(
        &[
            "audit",
            "verify",
            path.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["first_bad_seq"], 2, "{}", r.stdout);
    assert_eq!(v["kind"], "clock");
    let text = tracegate(&["audit", "verify", path.to_str().unwrap()], b"");
    assert!(text.stdout.contains("seq 2"), "{}", text.stdout);
    assert!(text.stdout.contains("its own end"), "{}", text.stdout);
}

// ---------------------------------------------------------------- local users

#[test]
fn a_reader_holding_a_lock_on_the_log_stalls_nothing_and_files_are_private() {
    let s = Setup::new(true, false);
    s.active_window("w1");
    assert!(captured(&s.capture()));
    // any user who can read the log can flock it
    let reader = fs::File::open(&s.log).unwrap();
    reader.lock().unwrap();
    let started = Instant::now();
    let r = s.capture();
    assert!(
        captured(&r),
        "a reader's lock stalled the gate: {}",
        r.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    reader.unlock().unwrap();
    for f in [s.log.clone(), checkpoint_path(&s.log), lock_path(&s.log)] {
        assert_eq!(mode(&f), 0o600, "{}", f.display());
    }
    assert_eq!(mode(&lock_dir(&s.log)), 0o700);
    // a lock folder others can enter is refused, not used
    fs::set_permissions(lock_dir(&s.log), fs::Permissions::from_mode(0o755)).unwrap();
    let r = s.capture();
    assert!(!captured(&r));
    assert!(r.stderr.contains("mode 700"), "{}", r.stderr);
}

#[test]
fn lock_timeout_has_an_upper_bound() {
    let s = Setup::new(false, false);
    let main = s.policy.join("main.toml");
    let text = fs::read_to_string(&main).unwrap();
    fs::write(&main, text.replace("\"500ms\"", "\"1h\"")).unwrap();
    let r = tracegate(&["policy", "check", s.p()], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("lock_timeout"), "{}", r.stderr);
}

#[test]
fn a_fifo_at_any_audit_path_fails_closed_without_hanging() {
    let limit = Duration::from_secs(20);
    for target in ["log", "checkpoint", "key", "anchor"] {
        let anchored = target == "anchor";
        let s = Setup::new(true, anchored);
        s.active_window("w1");
        let path = match target {
            "log" => s.log.clone(),
            "checkpoint" => checkpoint_path(&s.log),
            "key" => {
                fs::remove_file(&s.key).unwrap();
                s.key.clone()
            }
            _ => s.anchor.clone(),
        };
        if target != "log" && target != "key" {
            // a log with entries, so its checkpoint and anchor are read
            assert!(captured(&s.capture()));
            fs::remove_file(&path).unwrap();
        }
        mkfifo(&path);
        let child = spawn(&["filter", "--policy", s.p(), "--sink", "cap", "/dev/null"]);
        let r = finish_within(child, limit, &format!("filter with a FIFO at the {target}"));
        if target == "key" {
            // The key is part of the policy: the policy load refuses it.
            assert_eq!(r.code, 2, "{target}: {}", r.stderr);
            assert!(r.stderr.contains("FIFO"), "{target}: {}", r.stderr);
        } else {
            assert_eq!(r.code, 0, "{target}: {}", r.stderr);
            assert!(
                r.stderr.contains("full capture for sink `cap` stays off"),
                "{target}: {}",
                r.stderr
            );
        }
        let a = s.anchor.to_str().unwrap();
        let k = s.key.to_str().unwrap();
        let mut args = vec!["audit", "verify", s.log.to_str().unwrap(), "--key-file", k];
        if anchored {
            args.extend(["--anchor", a]);
        }
        let child = spawn(&args);
        let v = finish_within(
            child,
            limit,
            &format!("audit verify with a FIFO at the {target}"),
        );
        assert_ne!(v.code, 0, "{target}: {}", v.stdout);
        let said = format!("{}{}", v.stdout, v.stderr);
        assert!(said.contains("not a regular file"), "{target}: {said}");
    }
}

// ---------------------------------------------------------------- windows

#[test]
fn two_window_opens_in_the_same_second_get_distinct_ids_and_the_real_refusal_is_audited() {
    let s = Setup::new(false, false);
    let start = (Timestamp::now() + SignedDuration::from_secs(120)).to_string();
    let open = || {
        tracegate(
            &[
                "window",
                "open",
                "--policy",
                s.p(),
                "--sink",
                "cap",
                "--for",
                "30m",
                "--reason",
                "tune",
                "--by",
                "sre",
                "--start",
                &start,
            ],
            b"",
        )
    };
    let first = open();
    assert_eq!(first.code, 0, "{}", first.stderr);
    let second = open();
    assert_eq!(second.code, 2);
    assert!(second.stderr.contains("overlaps"), "{}", second.stderr);
    assert!(
        !second.stderr.contains("already exists"),
        "{}",
        second.stderr
    );
    assert!(
        s.events(false)
            .iter()
            .any(|e| e == "full_denied InvalidWindow"),
        "{:?}",
        s.events(false)
    );
}

#[test]
fn concurrent_window_opens_leave_one_window_and_a_valid_policy() {
    let s = Setup::new(false, false);
    let base = Timestamp::now() + SignedDuration::from_secs(600);
    let children: Vec<Child> = (0..4)
        .map(|i| {
            let start = (base + SignedDuration::from_secs(i)).to_string();
            spawn(&[
                "window",
                "open",
                "--policy",
                s.p(),
                "--sink",
                "cap",
                "--for",
                "30m",
                "--reason",
                "tune",
                "--by",
                "sre",
                "--start",
                &start,
            ])
        })
        .collect();
    let codes: Vec<i32> = children
        .into_iter()
        .map(|c| finish_within(c, Duration::from_secs(60), "window open").code)
        .collect();
    assert_eq!(codes.iter().filter(|&&c| c == 0).count(), 1, "{codes:?}");
    assert_eq!(codes.iter().filter(|&&c| c == 2).count(), 3, "{codes:?}");
    let check = tracegate(&["policy", "check", s.p()], b"");
    assert_eq!(check.code, 0, "{}", check.stderr);
    let denied = s
        .events(false)
        .iter()
        .filter(|e| *e == "full_denied InvalidWindow")
        .count();
    assert_eq!(denied, 3);
}

#[test]
fn a_back_dated_start_is_refused_and_audited_unless_asked_for_and_then_audited() {
    let s = Setup::new(false, false);
    let start = (Timestamp::now() - SignedDuration::from_hours(2)).to_string();
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "window",
            "open",
            "--policy",
            s.p(),
            "--sink",
            "cap",
            "--for",
            "3h",
            "--reason",
            "tune",
            "--by",
            "sre",
            "--id",
            "back",
            "--start",
            &start,
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let run = |a: Vec<String>| tracegate(&a.iter().map(String::as_str).collect::<Vec<_>>(), b"");
    let r = run(args(&[]));
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(r.stderr.contains("--backdate"), "{}", r.stderr);
    assert!(!s.policy.join("windows/back.toml").exists());
    assert_eq!(s.events(false), ["full_denied InvalidWindow"]);
    let r = run(args(&["--backdate"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        s.events(false),
        ["full_denied InvalidWindow", "window_backdated"]
    );
    // a small clock skew needs no flag
    let s = Setup::new(false, false);
    let skew = (Timestamp::now() - SignedDuration::from_secs(20)).to_string();
    let r = tracegate(
        &[
            "window",
            "open",
            "--policy",
            s.p(),
            "--sink",
            "cap",
            "--for",
            "1m",
            "--reason",
            "t",
            "--by",
            "sre",
            "--id",
            "skewed",
            "--start",
            &skew,
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!s.log.exists(), "nothing to audit for an ordinary open");
}

#[test]
fn a_clock_set_back_cannot_pass_a_start_in_the_past_off_as_present() {
    // The log's newest entry is ten minutes "later" than this clock: the
    // clock was set back. A start at the clock's "now" is ten minutes in
    // the past by what the log vouches for, so it needs `--backdate`.
    let s = Setup::new(false, false);
    let mut log = AuditLog::open(&s.log, None, Duration::from_secs(5)).unwrap();
    log.append(
        &AuditEvent::FullDenied {
            sink: "cap".into(),
            window: None,
            why: DenyWhy::NoWindow,
            detail: None,
        },
        Timestamp::now() + SignedDuration::from_mins(10),
    )
    .unwrap();
    drop(log);
    let start = Timestamp::now().to_string();
    let r = tracegate(
        &[
            "window",
            "open",
            "--policy",
            s.p(),
            "--sink",
            "cap",
            "--for",
            "1h",
            "--reason",
            "tune",
            "--by",
            "sre",
            "--id",
            "now",
            "--start",
            &start,
        ],
        b"",
    );
    assert_eq!(
        r.code, 2,
        "a start behind the log's time passed: {}",
        r.stdout
    );
    assert!(r.stderr.contains("--backdate"), "{}", r.stderr);
    assert!(!s.policy.join("windows/now.toml").exists());
}

#[test]
fn window_close_of_a_window_the_clock_says_ended_still_closes_it_for_good() {
    // A clock set ahead makes an open window look ended; `window close`
    // must still close it, in the log, so it stays closed when the clock
    // is put right.
    let s = Setup::new(false, false);
    let now = Timestamp::now();
    s.window_file(
        "w1",
        now - SignedDuration::from_hours(2),
        now - SignedDuration::from_secs(5),
        "tune",
        "sre",
    );
    let r = tracegate(&["window", "close", "--policy", s.p(), "w1"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        s.events(false)
            .contains(&"window_closed w1 removed".to_owned()),
        "{:?}",
        s.events(false)
    );
}

#[test]
fn window_list_escapes_newlines_and_bidi_overrides() {
    let s = Setup::new(false, false);
    let now = Timestamp::now();
    s.window_file(
        "w1",
        now,
        now + SignedDuration::from_hours(1),
        "ok\n  w2  sink cap  APPROVED by the CISO\u{202E}evil",
        "sre\r\u{2066}oncall\u{1b}[2J",
    );
    let r = tracegate(&["window", "list", "--policy", s.p()], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let by_lines: Vec<&str> = r.stdout.lines().filter(|l| l.contains("by sre")).collect();
    assert_eq!(by_lines.len(), 1, "{}", r.stdout);
    assert!(
        !r.stdout.lines().any(|l| l.trim_start().starts_with("w2")),
        "{}",
        r.stdout
    );
    for c in ['\u{202E}', '\u{2066}', '\u{1b}', '\r'] {
        assert!(!r.stdout.contains(c), "{c:?} printed raw: {:?}", r.stdout);
    }
    assert!(by_lines[0].contains("\\u{202E}"), "{}", by_lines[0]);
}

// ---------------------------------------------------------------- the auditor

/// A log for the auditor: w1 enabled at `enabled`, bounds `start..end`,
/// closed at `closed` when given.
fn auditor_log(
    path: &Path,
    start: Timestamp,
    end: Timestamp,
    enabled: Timestamp,
    closed: Option<Timestamp>,
) {
    let mut log = AuditLog::open(path, None, Duration::from_secs(5)).unwrap();
    log.append(
        &AuditEvent::WindowEnabled {
            window: "w1".into(),
            sink: "cap".into(),
            start,
            end,
            reason: "r".into(),
            requested_by: "q".into(),
            max_records: None,
            max_bytes: None,
        },
        enabled,
    )
    .unwrap();
    if let Some(at) = closed {
        log.append(
            &AuditEvent::WindowClosed {
                window: "w1".into(),
                sink: "cap".into(),
                cause: CloseCause::Removed,
            },
            at,
        )
        .unwrap();
    }
}

fn audit_check(s: &Setup, records: &[Timestamp]) -> Run {
    let dir = s.log.parent().unwrap();
    let input = dir.join("capture.jsonl");
    fs::write(
        &input,
        records.iter().map(|t| record(*t)).collect::<String>(),
    )
    .unwrap();
    tracegate(
        &[
            "check",
            "--policy",
            s.p(),
            "--sink",
            "cap",
            "--audit",
            s.log.to_str().unwrap(),
            input.to_str().unwrap(),
        ],
        b"",
    )
}

fn flagged_lines(r: &Run) -> Vec<String> {
    r.stdout
        .lines()
        .filter(|l| l.contains("outside_window"))
        .map(|l| l.split(':').nth(1).unwrap_or("").to_owned())
        .collect()
}

#[test]
fn the_auditor_ends_a_window_at_its_first_close_and_starts_it_at_its_enablement() {
    let s = Setup::new(false, false);
    let t0: Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    let m = |mins: i64| t0 + SignedDuration::from_mins(mins);
    // bounds 09:00..12:00 (back-dated), enabled 10:00, closed 10:30
    auditor_log(&s.log, m(-60), m(120), t0, Some(m(30)));
    let sec = |s: i64| t0 + SignedDuration::from_secs(s);
    let r = audit_check(
        &s,
        &[
            m(-30),   // 1: inside the back-dated bounds, before the enablement
            m(10),    // 2: in use
            m(45),    // 3: after the close
            sec(-30), // 4: within the clock skew before the enablement
            sec(-90), // 5: beyond it
            m(29),    // 6: just before the close
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(flagged_lines(&r), ["1", "3", "5"], "{}", r.stdout);
}

#[test]
fn the_auditor_ignores_an_enablement_after_the_window_expired_for_good() {
    // Enabled 10:00 and closed `expired` at 10:05 by a gate whose clock was
    // behind the files (its close is stamped with that clock), then enabled
    // again at 10:10 by a gate that did not honour the close: the second
    // use vouches for nothing.
    let s = Setup::new(false, false);
    let t0: Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    let m = |mins: i64| t0 + SignedDuration::from_mins(mins);
    let mut log = AuditLog::open(&s.log, None, Duration::from_secs(5)).unwrap();
    let enabled = AuditEvent::WindowEnabled {
        window: "w1".into(),
        sink: "cap".into(),
        start: t0,
        end: m(60),
        reason: "r".into(),
        requested_by: "q".into(),
        max_records: None,
        max_bytes: None,
    };
    log.append(&enabled, t0).unwrap();
    log.append(
        &AuditEvent::WindowClosed {
            window: "w1".into(),
            sink: "cap".into(),
            cause: CloseCause::Expired,
        },
        m(5),
    )
    .unwrap();
    log.append(&enabled, m(10)).unwrap();
    drop(log);
    let r = audit_check(&s, &[m(3), m(20)]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(flagged_lines(&r), ["2"], "{}", r.stdout);
}

#[test]
fn the_auditor_trusts_no_enablement_the_checkpoint_does_not_vouch_for() {
    let s = Setup::new(false, false);
    let t0: Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    let m = |mins: i64| t0 + SignedDuration::from_mins(mins);
    let mut log = AuditLog::open(&s.log, None, Duration::from_secs(5)).unwrap();
    log.append(
        &AuditEvent::FullDenied {
            sink: "cap".into(),
            window: None,
            why: DenyWhy::NoWindow,
            detail: None,
        },
        t0,
    )
    .unwrap();
    let vouched = fs::read(checkpoint_path(&s.log)).unwrap();
    auditor_log(&s.log, m(0), m(120), m(1), None);
    // the checkpoint is put back to before the enablement
    fs::write(checkpoint_path(&s.log), vouched).unwrap();
    let r = audit_check(&s, &[m(10)]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(flagged_lines(&r), ["1"], "{}", r.stdout);
}

/// Issue 22 item 12: back-to-back windows, each within `max_window`, are
/// not a longer window. Three 24-hour windows opened back to back used to
/// give three days of capture; now the middle one is refused (a sink is
/// open at most `max_window` in any period of twice `max_window`), while
/// short windows a day apart all open, up to a week ahead.
#[test]
fn back_to_back_windows_are_bounded_by_max_window_together() {
    let s = Setup::new(false, false);
    let base = Timestamp::now() + SignedDuration::from_secs(120);
    let open = |start: Timestamp, length: &str| {
        tracegate(
            &[
                "window",
                "open",
                "--policy",
                s.p(),
                "--sink",
                "cap",
                "--for",
                length,
                "--reason",
                "tune",
                "--by",
                "sre",
                "--start",
                &start.to_string(),
            ],
            b"",
        )
    };
    let day = |d: i64| base + SignedDuration::from_hours(24 * d);
    let codes: Vec<i32> = (0..3)
        .map(|d| {
            let r = open(day(d), "24h");
            if r.code != 0 {
                assert!(r.stderr.contains("more than `max_window`"), "{}", r.stderr);
            }
            r.code
        })
        .collect();
    assert_eq!(codes, [0, 2, 0], "back-to-back full days");
    // Half an hour a day once the last full day is a `max_window` behind.
    for d in 4..7 {
        let r = open(day(d), "30m");
        assert_eq!(r.code, 0, "day {d}: {}", r.stderr);
    }
    // Further ahead than a week: refused.
    let r = open(day(8), "30m");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("ahead"), "{}", r.stderr);
}
