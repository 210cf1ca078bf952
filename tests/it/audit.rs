//! The audit log: chain, checkpoint, tamper detection, concurrency, crashes
//! and I/O faults.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use hmac::{Hmac, KeyInit, Mac};
use jiff::Timestamp;
use proptest::prelude::*;
use sha2::{Digest, Sha256};
use tracegate::internals::audit::{
    AuditError, AuditEvent, AuditKey, AuditLog, Checkpoint, CloseCause, DenyWhy, LogSink,
    TamperKind, Unvouched, VerifyStatus, checkpoint_path, closed_windows, read_entries, verify,
};
use tracegate_cli::cli::OutputFormat as Format;

const LOCK: Duration = Duration::from_secs(10);
const CANARY: &str = "CANARY-7f3a-do-not-echo";

// ---------------------------------------------------------------- helpers

fn ts(i: u64) -> Timestamp {
    Timestamp::from_second(1_796_119_200 + i as i64).unwrap() // 2026-12-01T10:00:00Z
}

/// A varied event for entry `i`, carrying the canary in its free text.
fn event(i: u64) -> AuditEvent {
    match i % 5 {
        0 => AuditEvent::PolicyLoaded {
            policy_sha256: "ab".repeat(32),
            revision: i,
            source: "policy/".into(),
            referenced: Vec::new(),
            free_bits: Default::default(),
        },
        1 => AuditEvent::WindowEnabled {
            window: format!("w{i}"),
            sink: "replay-capture".into(),
            start: ts(0),
            end: ts(7200),
            reason: format!("tune the ltr recipe {CANARY}"),
            requested_by: "sre-oncall".into(),
            max_records: Some(50_000),
            max_bytes: None,
        },
        2 => AuditEvent::WindowClosed {
            window: format!("w{}", i - 1),
            sink: "replay-capture".into(),
            cause: CloseCause::Expired,
        },
        3 => AuditEvent::FullDenied {
            sink: "trace-file".into(),
            window: None,
            why: DenyWhy::NotAllowlisted,
            detail: Some(CANARY.into()),
        },
        _ => AuditEvent::PolicyRejected {
            cause: format!("unknown key {CANARY}"),
            policy_sha256: None,
        },
    }
}

fn key() -> AuditKey {
    AuditKey::from_bytes(b"0123456789abcdef0123456789abcdef-test-key".to_vec()).unwrap()
}

/// Write an `n`-entry log at `dir/audit.jsonl`.
fn make_log(dir: &Path, n: u64, key: Option<AuditKey>) -> PathBuf {
    let path = dir.join("audit.jsonl");
    let mut log = AuditLog::open(&path, key, LOCK).unwrap();
    for i in 0..n {
        let r = log.append(&event(i), ts(i)).unwrap();
        assert_eq!(r.seq, i);
    }
    path
}

fn lines_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

fn status(path: &Path, key: Option<&AuditKey>) -> VerifyStatus {
    verify(path, key).unwrap().status
}

fn tampered(path: &Path, key: Option<&AuditKey>) -> (u64, TamperKind) {
    match status(path, key) {
        VerifyStatus::Tampered { seq, kind, .. } => (seq, kind),
        other => panic!("expected tampered, got {other:?}"),
    }
}

fn sha256_hex(b: &[u8]) -> String {
    hex::encode(Sha256::digest(b))
}

// ---------------------------------------------------------------- chain

#[test]
fn two_line_log_hashes_match_an_independent_sha256() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 2, None);
    let bytes = fs::read(&path).unwrap();
    let lines = lines_of(&bytes);
    assert_eq!(lines.len(), 2);
    let first: serde_json::Value = serde_json::from_slice(&lines[0]).unwrap();
    let second: serde_json::Value = serde_json::from_slice(&lines[1]).unwrap();
    assert_eq!(first["prev"], "0".repeat(64));
    assert_eq!(second["prev"], sha256_hex(&lines[0]));
    assert_eq!(first["seq"], 0);
    assert_eq!(second["seq"], 1);
    assert_eq!(first["ts"], "2026-12-01T10:00:00.000000Z");
    // keys in the documented order: seq, ts, event, facts, prev
    let text = String::from_utf8(lines[1].clone()).unwrap();
    assert!(text.starts_with(
        "{\"seq\":1,\"ts\":\"2026-12-01T10:00:01.000000Z\",\"event\":\"window_enabled\","
    ));
    assert!(text.ends_with(&format!(",\"prev\":\"{}\"}}\n", sha256_hex(&lines[0]))));
    // the checkpoint vouches for the last line
    let cp: serde_json::Value =
        serde_json::from_slice(&fs::read(checkpoint_path(&path)).unwrap()).unwrap();
    assert_eq!(cp["seq"], 1);
    assert_eq!(cp["size"], bytes.len() as u64);
    assert_eq!(cp["line_sha256"], sha256_hex(&lines[1]));
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

#[test]
fn keyed_log_links_are_hmac_sha256_and_need_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 3, Some(key()));
    let lines = lines_of(&fs::read(&path).unwrap());
    for pair in lines.windows(2) {
        let mut m =
            Hmac::<Sha256>::new_from_slice(b"0123456789abcdef0123456789abcdef-test-key").unwrap();
        m.update(&pair[0]);
        let expected = hex::encode(m.finalize().into_bytes());
        let v: serde_json::Value = serde_json::from_slice(&pair[1]).unwrap();
        assert_eq!(v["prev"], expected);
    }
    let cp: serde_json::Value =
        serde_json::from_slice(&fs::read(checkpoint_path(&path)).unwrap()).unwrap();
    assert_eq!(cp["hmac"], true);
    assert_eq!(status(&path, Some(&key())), VerifyStatus::Intact);
    assert!(matches!(
        verify(&path, None),
        Err(AuditError::KeyRequired { .. })
    ));
    // a wrong key breaks the first link (rule 2: edited at seq 0)
    let other = AuditKey::from_bytes(vec![1; 32]).unwrap();
    assert_eq!(tampered(&path, Some(&other)), (0, TamperKind::Edited));
}

#[test]
fn a_fresh_audit_log_continues_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 3, None);
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    assert_eq!(log.append(&event(3), ts(3)).unwrap().seq, 3);
    let r = log.append(&event(4), ts(4)).unwrap();
    assert_eq!(r.seq, 4);
    let lines = lines_of(&fs::read(&path).unwrap());
    assert_eq!(lines.len(), 5);
    let v: serde_json::Value = serde_json::from_slice(&lines[3]).unwrap();
    assert_eq!(v["prev"], sha256_hex(&lines[2]));
    assert_eq!(r.line_sha256, sha256_hex(&lines[4]));
    let report = verify(&path, None).unwrap();
    assert_eq!(report.status, VerifyStatus::Intact);
    assert_eq!((report.entries, report.last_seq), (5, Some(4)));
    let seqs: Vec<u64> = read_entries(&path, None)
        .unwrap()
        .map(|e| e.unwrap().seq)
        .collect();
    assert_eq!(seqs, vec![0, 1, 2, 3, 4]);
}

#[test]
fn two_handles_in_one_process_share_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let mut a = AuditLog::open(&path, None, LOCK).unwrap();
    let mut b = AuditLog::open(&path, None, LOCK).unwrap();
    for i in 0..6 {
        let log = if i % 2 == 0 { &mut a } else { &mut b };
        assert_eq!(log.append(&event(i), ts(i)).unwrap().seq, i);
    }
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

// ---------------------------------------------------------------- tamper suite

/// A 20-entry log with its checkpoint, built once.
fn base_log() -> &'static (Vec<u8>, Vec<u8>) {
    static BASE: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    BASE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = make_log(dir.path(), 20, None);
        (
            fs::read(&path).unwrap(),
            fs::read(checkpoint_path(&path)).unwrap(),
        )
    })
}

/// Write `log` (and the base checkpoint) into `dir`; return the log path.
///
/// Old files are removed first: truncating and rewriting a file makes ext4
/// flush it (`auto_da_alloc`), which made this suite I/O bound.
fn place(dir: &Path, log: &[u8]) -> PathBuf {
    let path = dir.join("audit.jsonl");
    let cp = checkpoint_path(&path);
    let _ = fs::remove_file(&path);
    let _ = fs::remove_file(&cp);
    fs::write(&path, log).unwrap();
    fs::write(&cp, &base_log().1).unwrap();
    path
}

fn with_lines(f: impl FnOnce(&mut Vec<Vec<u8>>)) -> Vec<u8> {
    let mut lines = lines_of(&base_log().0);
    f(&mut lines);
    lines.concat()
}

#[test]
fn every_single_byte_change_is_tampering() {
    // Rule: with a checkpoint, a change to any byte, the final newline
    // included, is tampered (1), never torn tail: the checkpoint still
    // vouches for the last line, so a missing final newline means damage.
    let dir = tempfile::tempdir().unwrap();
    let base = &base_log().0;
    let start = Instant::now();
    for pos in 0..base.len() {
        // every position with one bit flipped; every 7th also with another
        let flips: &[u8] = if pos % 7 == 0 { &[0x01, 0x20] } else { &[0x01] };
        for &flip in flips {
            let mut bytes = base.clone();
            bytes[pos] ^= flip;
            let path = place(dir.path(), &bytes);
            match status(&path, None) {
                VerifyStatus::Tampered { .. } => {}
                other => panic!("byte {pos} ^ {flip:#x}: {other:?}"),
            }
        }
    }
    // Every position: all positions are fast enough.
    assert!(base.len() > 2000, "log too small: {}", base.len());
    eprintln!("{} positions x 2 in {:?}", base.len(), start.elapsed());
}

#[test]
fn an_edit_names_the_edited_seq() {
    let dir = tempfile::tempdir().unwrap();
    // change the canary inside line seq 8 (same length)
    let bytes = with_lines(|l| {
        let s = String::from_utf8(l[8].clone())
            .unwrap()
            .replace("CANARY", "CANARX");
        l[8] = s.into_bytes();
    });
    assert_ne!(bytes, base_log().0);
    let path = place(dir.path(), &bytes);
    assert_eq!(tampered(&path, None), (8, TamperKind::Edited));
    // the last line: caught by the checkpoint
    let bytes = with_lines(|l| {
        let s = String::from_utf8(l[19].clone())
            .unwrap()
            .replace("unknown", "unknowm");
        l[19] = s.into_bytes();
    });
    assert_ne!(bytes, base_log().0);
    let path = place(dir.path(), &bytes);
    assert_eq!(tampered(&path, None), (19, TamperKind::Edited));
}

#[test]
fn a_deleted_line_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let path = place(
        dir.path(),
        &with_lines(|l| {
            l.remove(5);
        }),
    );
    assert_eq!(tampered(&path, None), (5, TamperKind::Deleted));
    // the first line
    let path = place(
        dir.path(),
        &with_lines(|l| {
            l.remove(0);
        }),
    );
    assert_eq!(tampered(&path, None), (0, TamperKind::Deleted));
}

#[test]
fn a_duplicated_line_is_duplicated() {
    let dir = tempfile::tempdir().unwrap();
    let path = place(
        dir.path(),
        &with_lines(|l| {
            let d = l[8].clone();
            l.insert(9, d);
        }),
    );
    assert_eq!(tampered(&path, None), (9, TamperKind::Duplicated));
}

#[test]
fn swapped_lines_are_reordered() {
    let dir = tempfile::tempdir().unwrap();
    let path = place(dir.path(), &with_lines(|l| l.swap(11, 12)));
    assert_eq!(tampered(&path, None), (11, TamperKind::Reordered));
}

#[test]
fn a_forged_line_is_inserted() {
    let dir = tempfile::tempdir().unwrap();
    // An attacker without the key forges a well-linked line with seq 6
    // after seq 5; the original seq 6 then repeats a seq.
    let path = place(
        dir.path(),
        &with_lines(|l| {
            let forged = format!(
                "{{\"seq\":6,\"ts\":\"2026-12-01T10:00:06.000000Z\",\"event\":\"window_closed\",\"window\":\"w1\",\"sink\":\"s\",\"cause\":\"shutdown\",\"prev\":\"{}\"}}\n",
                sha256_hex(&l[5])
            );
            l.insert(6, forged.into_bytes());
        }),
    );
    assert_eq!(tampered(&path, None), (7, TamperKind::Inserted));
    // a line with a stale seq put in
    let path = place(
        dir.path(),
        &with_lines(|l| {
            let old = l[2].clone();
            l.insert(10, old);
        }),
    );
    assert_eq!(tampered(&path, None), (10, TamperKind::Inserted));
}

#[test]
fn truncation_with_the_checkpoint_kept_is_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let path = place(dir.path(), &with_lines(|l| l.truncate(15)));
    assert_eq!(tampered(&path, None), (15, TamperKind::Truncated));
    // cut mid-line: still truncated, not a torn tail (the checkpoint
    // vouches for more than the file holds)
    let mut bytes = base_log().0.clone();
    bytes.truncate(bytes.len() - 30);
    let path = place(dir.path(), &bytes);
    assert_eq!(tampered(&path, None), (19, TamperKind::Truncated));
    // cut to nothing
    let path = place(dir.path(), b"");
    assert_eq!(tampered(&path, None), (0, TamperKind::Truncated));
}

#[test]
fn truncation_with_a_rewritten_checkpoint_is_the_known_limit_without_a_key() {
    // KNOWN LIMIT: without a key, an attacker who truncates the log and
    // writes a matching checkpoint gets "intact". Only a key (or an anchor
    // outside the attacker's reach) catches this.
    let dir = tempfile::tempdir().unwrap();
    let bytes = with_lines(|l| l.truncate(15));
    let path = place(dir.path(), &bytes);
    let last = lines_of(&bytes).pop().unwrap();
    let forged = Checkpoint::new(14, bytes.len() as u64, sha256_hex(&last), None);
    fs::write(checkpoint_path(&path), serde_json::to_vec(&forged).unwrap()).unwrap();
    assert_eq!(status(&path, None), VerifyStatus::Intact);

    // With a key, the same forgery (no key to MAC it) fails.
    let kdir = tempfile::tempdir().unwrap();
    let kpath = make_log(kdir.path(), 20, Some(key()));
    let kbytes = fs::read(&kpath).unwrap();
    let mut klines = lines_of(&kbytes);
    klines.truncate(15);
    let cut = klines.concat();
    fs::write(&kpath, &cut).unwrap();
    let guess_key = AuditKey::from_bytes(vec![0; 32]).unwrap();
    let forged = Checkpoint::new(
        14,
        cut.len() as u64,
        sha256_hex(&klines[14]),
        Some(&guess_key),
    );
    fs::write(
        checkpoint_path(&kpath),
        serde_json::to_vec(&forged).unwrap(),
    )
    .unwrap();
    assert_eq!(tampered(&kpath, Some(&key())).1, TamperKind::Checkpoint);
    // and an unkeyed checkpoint under a keyed verify fails too
    let unkeyed = Checkpoint::new(14, cut.len() as u64, sha256_hex(&klines[14]), None);
    fs::write(
        checkpoint_path(&kpath),
        serde_json::to_vec(&unkeyed).unwrap(),
    )
    .unwrap();
    assert_eq!(tampered(&kpath, Some(&key())).1, TamperKind::Checkpoint);
}

#[test]
fn checkpoint_states_torn_and_unvouched() {
    let dir = tempfile::tempdir().unwrap();
    let base = &base_log().0;
    // no checkpoint beside a log with entries: tampered (1), at the last seq
    let path = dir.path().join("audit.jsonl");
    fs::write(&path, base).unwrap();
    let r = verify(&path, None).unwrap();
    assert_eq!(r.exit_code(), 1);
    assert_eq!(tampered(&path, None), (19, TamperKind::Checkpoint));
    // an empty log without one is intact
    let empty = dir.path().join("empty.jsonl");
    fs::write(&empty, b"").unwrap();
    assert_eq!(status(&empty, None), VerifyStatus::Intact);
    // checkpoint one behind (crash between fsync and checkpoint): 4
    let lines = lines_of(base);
    let size19: usize = lines[..19].iter().map(Vec::len).sum();
    let behind = Checkpoint::new(18, size19 as u64, sha256_hex(&lines[18]), None);
    fs::write(checkpoint_path(&path), serde_json::to_vec(&behind).unwrap()).unwrap();
    assert_eq!(
        status(&path, None),
        VerifyStatus::Unvouched(Unvouched::CheckpointBehind { checkpoint_seq: 18 })
    );
    // a checkpoint that claims another hash for the same seq: tampered
    let wrong = Checkpoint::new(18, size19 as u64, sha256_hex(b"x"), None);
    fs::write(checkpoint_path(&path), serde_json::to_vec(&wrong).unwrap()).unwrap();
    assert_eq!(tampered(&path, None), (18, TamperKind::Edited));
    // a malformed checkpoint: tampered
    fs::write(checkpoint_path(&path), b"{\"seq\":").unwrap();
    assert_eq!(tampered(&path, None).1, TamperKind::Checkpoint);
    // torn tail after an intact, vouched log: 3
    let mut torn = base.clone();
    let partial = b"{\"seq\":20,\"ts\":\"2026-12";
    torn.extend_from_slice(partial);
    let path = place(dir.path(), &torn);
    let r = verify(&path, None).unwrap();
    assert_eq!(
        r.status,
        VerifyStatus::TornTail {
            torn_bytes: partial.len() as u64
        }
    );
    assert_eq!((r.exit_code(), r.entries), (3, 20));
    // and the writer refuses to chain onto it
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    assert!(matches!(
        log.append(&event(20), ts(20)),
        Err(AuditError::TornTail { .. })
    ));
    // a missing final newline without a checkpoint: the complete lines
    // before it have no checkpoint, which is tampering
    fs::remove_file(checkpoint_path(&path)).unwrap();
    fs::write(&path, &base[..base.len() - 1]).unwrap();
    assert_eq!(tampered(&path, None).1, TamperKind::Checkpoint);
    // a torn first line and nothing else is a crash in the first append
    fs::write(&path, b"{\"seq\":0,\"ts\"").unwrap();
    assert!(matches!(status(&path, None), VerifyStatus::TornTail { .. }));
}

#[test]
fn the_writer_refuses_to_launder_a_truncated_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 10, None);
    let bytes = fs::read(&path).unwrap();
    let mut lines = lines_of(&bytes);
    lines.truncate(7);
    fs::write(&path, lines.concat()).unwrap();
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    let err = log.append(&event(7), ts(7)).unwrap_err();
    assert!(
        matches!(err, AuditError::CheckpointMismatch { .. }),
        "{err}"
    );
    // nothing written, the evidence stays
    assert_eq!(fs::read(&path).unwrap(), lines.concat());
    assert_eq!(tampered(&path, None).1, TamperKind::Truncated);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_single_byte_change_breaks_verification(pos in any::<prop::sample::Index>(), to in any::<u8>()) {
        let base = &base_log().0;
        let pos = pos.index(base.len());
        prop_assume!(base[pos] != to);
        let mut bytes = base.clone();
        bytes[pos] = to;
        let dir = tempfile::tempdir().unwrap();
        let path = place(dir.path(), &bytes);
        let st = status(&path, None);
        prop_assert!(st != VerifyStatus::Intact, "byte {} -> {}: {:?}", pos, to, st);
        prop_assert!(matches!(st, VerifyStatus::Tampered { .. }), "byte {} -> {}: {:?}", pos, to, st);
    }
}

// ---------------------------------------------------------------- reading back

#[test]
fn closed_windows_reads_back_expired_budget_spent_and_removed_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    let closes = [
        ("a", CloseCause::BudgetSpent),
        ("b", CloseCause::Removed),
        ("c", CloseCause::Shutdown),
        ("d", CloseCause::Expired),
    ];
    let mut i = 0;
    for (w, cause) in closes {
        let enabled = AuditEvent::WindowEnabled {
            window: w.into(),
            sink: "s".into(),
            start: ts(0),
            end: ts(100),
            reason: "r".into(),
            requested_by: "q".into(),
            max_records: None,
            max_bytes: None,
        };
        log.append(&enabled, ts(i)).unwrap();
        log.append(
            &AuditEvent::WindowClosed {
                window: w.into(),
                sink: "s".into(),
                cause,
            },
            ts(i + 1),
        )
        .unwrap();
        i += 2;
    }
    let closed = closed_windows(&path, None).unwrap();
    let expected: HashMap<String, CloseCause> = [
        ("a".to_owned(), CloseCause::BudgetSpent),
        ("b".to_owned(), CloseCause::Removed),
        ("d".to_owned(), CloseCause::Expired),
    ]
    .into();
    assert_eq!(closed, expected);
    let enabled: Vec<String> = read_entries(&path, None)
        .unwrap()
        .filter_map(|e| match e.unwrap().event {
            AuditEvent::WindowEnabled { window, .. } => Some(window),
            _ => None,
        })
        .collect();
    assert_eq!(enabled, ["a", "b", "c", "d"]);
    // a broken chain fails closed
    let mut lines = lines_of(&fs::read(&path).unwrap());
    lines.remove(2);
    fs::write(&path, lines.concat()).unwrap();
    assert!(matches!(
        closed_windows(&path, None),
        Err(AuditError::Broken { seq: 2, .. })
    ));
}

// ---------------------------------------------------------------- concurrency

const CHILD_ENV: &str = "TRACEGATE_AUDIT_TEST_CHILD";

/// Not a test of its own: the body of the child processes spawned by the
/// concurrency and kill tests (selected by an environment variable). Run
/// without it, it does nothing.
#[test]
fn child_appender() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    // spec: "<path>|<count or 0 for forever>|<tag>"
    let mut parts = spec.splitn(3, '|');
    let path = PathBuf::from(parts.next().unwrap());
    let count: u64 = parts.next().unwrap().parse().unwrap();
    let tag = parts.next().unwrap().to_owned();
    let mut log = AuditLog::open(&path, None, Duration::from_secs(30)).unwrap();
    let mut i = 0u64;
    while count == 0 || i < count {
        let e = AuditEvent::FullDenied {
            sink: format!("sink-{tag}"),
            window: Some(format!("n{i}")),
            why: DenyWhy::NoWindow,
            detail: None,
        };
        log.append(&e, ts(i)).unwrap();
        i += 1;
    }
}

fn spawn_child(path: &Path, count: u64, tag: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "audit::child_appender",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, format!("{}|{count}|{tag}", path.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn four_processes_append_to_one_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let children: Vec<Child> = (0..4)
        .map(|t| spawn_child(&path, 50, &t.to_string()))
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let report = verify(&path, None).unwrap();
    assert_eq!(report.status, VerifyStatus::Intact);
    assert_eq!((report.entries, report.last_seq), (200, Some(199)));
    let entries: Vec<_> = read_entries(&path, None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let seqs: Vec<u64> = entries.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, (0..200).collect::<Vec<_>>());
    let mut per_child: HashMap<String, usize> = HashMap::new();
    for e in &entries {
        if let AuditEvent::FullDenied { sink, .. } = &e.event {
            *per_child.entry(sink.clone()).or_default() += 1;
        }
    }
    assert_eq!(per_child.len(), 4);
    assert!(per_child.values().all(|&n| n == 50));
}

#[test]
fn lock_timeout_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 1, None);
    // the writers' lock is its own file in a private folder, not the log
    let holder = File::open(tracegate::internals::audit::lock_path(&path)).unwrap();
    holder.lock().unwrap();
    let mut log = AuditLog::open(&path, None, Duration::from_millis(100)).unwrap();
    let start = Instant::now();
    assert!(matches!(
        log.append(&event(1), ts(1)),
        Err(AuditError::LockTimeout { .. })
    ));
    assert!(start.elapsed() < Duration::from_secs(2));
    holder.unlock().unwrap();
    assert_eq!(log.append(&event(1), ts(1)).unwrap().seq, 1);
}

// ---------------------------------------------------------------- crashes

#[test]
fn kill_9_mid_append_never_leaves_tampering() {
    let dir = tempfile::tempdir().unwrap();
    // One entry first: a crash inside the very first append of a new log
    // (after its fsync, before its first checkpoint) leaves one line and no
    // checkpoint, which is tampering by rule (see SECURITY.md); every later
    // crash must not be.
    let path = make_log(dir.path(), 1, None);
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut seen: HashMap<&'static str, u32> = HashMap::new();
    for round in 0..24 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let delay = Duration::from_millis(15 + rng % 60);
        let mut child = spawn_child(&path, 0, &format!("k{round}"));
        std::thread::sleep(delay);
        child.kill().unwrap(); // SIGKILL on unix
        child.wait().unwrap();
        if !path.exists() {
            *seen.entry("not started").or_default() += 1;
            continue;
        }
        let report = verify(&path, None).unwrap();
        match report.status {
            VerifyStatus::Intact => *seen.entry("intact").or_default() += 1,
            VerifyStatus::Unvouched(_) => *seen.entry("unvouched").or_default() += 1,
            VerifyStatus::TornTail { torn_bytes } => {
                *seen.entry("torn").or_default() += 1;
                let mut log = AuditLog::open(&path, None, LOCK).unwrap();
                assert!(matches!(
                    log.append(&event(0), ts(0)),
                    Err(AuditError::TornTail { .. })
                ));
                // operator repair: cut the torn bytes off
                let len = fs::metadata(&path).unwrap().len();
                OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .unwrap()
                    .set_len(len - torn_bytes)
                    .unwrap();
            }
            // Tampered, or a status this test does not know.
            _ => panic!("round {round}: {}", report.message()),
        }
    }
    eprintln!("kill -9 outcomes: {seen:?}");
    let report = verify(&path, None).unwrap();
    assert!(report.entries > 0, "no child ever appended: {seen:?}");
    // after all the kills the log still takes appends and verifies
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    log.append(&event(0), ts(1_000_000)).unwrap();
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

// ---------------------------------------------------------------- faults

/// A sink that fails after `fail_after` bytes, at fsync, or at rollback.
struct FaultSink {
    inner: File,
    fail_after: Option<usize>,
    fail_sync: bool,
    fail_set_len: bool,
}

impl FaultSink {
    fn new(inner: File) -> Self {
        FaultSink {
            inner,
            fail_after: None,
            fail_sync: false,
            fail_set_len: false,
        }
    }
}

fn enospc() -> io::Error {
    io::Error::from_raw_os_error(28)
}

impl LogSink for FaultSink {
    fn write_line(&mut self, buf: &[u8]) -> io::Result<()> {
        match self.fail_after {
            Some(n) if n < buf.len() => {
                self.inner.write_all(&buf[..n])?;
                Err(enospc())
            }
            _ => self.inner.write_all(buf),
        }
    }
    fn sync(&mut self) -> io::Result<()> {
        if self.fail_sync {
            Err(io::Error::from_raw_os_error(5))
        } else {
            self.inner.sync_data()
        }
    }
    fn truncate(&mut self, len: u64) -> io::Result<()> {
        if self.fail_set_len {
            Err(io::Error::from_raw_os_error(5))
        } else {
            self.inner.set_len(len)
        }
    }
}

fn faulty(path: &Path, setup: impl FnOnce(&mut FaultSink)) -> AuditLog<FaultSink> {
    AuditLog::open_with_sink(path, None, LOCK, |f| {
        let mut s = FaultSink::new(f);
        setup(&mut s);
        s
    })
    .unwrap()
}

#[test]
fn a_write_failing_mid_line_is_rolled_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 5, None);
    let before = fs::read(&path).unwrap();
    let mut log = faulty(&path, |s| s.fail_after = Some(40));
    let err = log.append(&event(5), ts(5)).unwrap_err();
    assert_eq!(err.io_kind(), Some(io::ErrorKind::StorageFull));
    assert_eq!(
        err.to_string(),
        format!(
            "cannot append to audit log `{}`: no space left on device",
            path.display()
        )
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

#[test]
fn a_write_failing_mid_line_without_rollback_leaves_only_a_torn_tail() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 5, None);
    let mut log = faulty(&path, |s| {
        s.fail_after = Some(40);
        s.fail_set_len = true;
    });
    assert!(log.append(&event(5), ts(5)).is_err());
    assert_eq!(
        status(&path, None),
        VerifyStatus::TornTail { torn_bytes: 40 }
    );
    let mut good = AuditLog::open(&path, None, LOCK).unwrap();
    assert!(matches!(
        good.append(&event(5), ts(5)),
        Err(AuditError::TornTail { .. })
    ));
}

#[test]
fn a_failing_fsync_fails_the_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 5, None);
    let before = fs::read(&path).unwrap();
    let mut log = faulty(&path, |s| s.fail_sync = true);
    let err = log.append(&event(5), ts(5)).unwrap_err();
    assert!(matches!(err, AuditError::Append { .. }), "{err}");
    assert!(err.to_string().contains("input/output error"), "{err}");
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(status(&path, None), VerifyStatus::Intact);
    // fsync and rollback both fail: a whole unvouched line stays (4)
    let mut log = faulty(&path, |s| {
        s.fail_sync = true;
        s.fail_set_len = true;
    });
    assert!(log.append(&event(5), ts(5)).is_err());
    assert_eq!(
        status(&path, None),
        VerifyStatus::Unvouched(Unvouched::CheckpointBehind { checkpoint_seq: 4 })
    );
    // the next good append chains onto it and vouches again
    let mut good = AuditLog::open(&path, None, LOCK).unwrap();
    assert_eq!(good.append(&event(6), ts(6)).unwrap().seq, 6);
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

#[test]
fn a_real_dev_full_sink_fails_with_enospc() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 2, None);
    let before = fs::read(&path).unwrap();
    let mut log = AuditLog::open_with_sink(&path, None, LOCK, |_| {
        OpenOptions::new().write(true).open("/dev/full").unwrap()
    })
    .unwrap();
    let err = log.append(&event(2), ts(2)).unwrap_err();
    assert_eq!(err.io_kind(), Some(io::ErrorKind::StorageFull), "{err}");
    assert!(
        err.to_string().ends_with("no space left on device"),
        "{err}"
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

#[test]
fn non_regular_files_are_refused() {
    for p in ["/dev/full", "/dev/null"] {
        let err = AuditLog::open(p, None, LOCK).unwrap_err();
        assert!(
            matches!(err, AuditError::NotRegularFile { .. }),
            "{p}: {err}"
        );
        assert_eq!(
            err.to_string(),
            format!("cannot open audit log `{p}`: not a regular file")
        );
    }
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        AuditLog::open(dir.path(), None, LOCK),
        Err(AuditError::NotRegularFile { .. })
    ));
    assert!(matches!(
        verify(Path::new("/dev/null"), None),
        Err(AuditError::NotRegularFile { .. })
    ));
}

#[test]
fn a_path_under_a_regular_file_is_enotdir() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file.txt");
    fs::write(&file, b"x").unwrap();
    let err = AuditLog::open(file.join("audit.jsonl"), None, LOCK).unwrap_err();
    assert_eq!(err.io_kind(), Some(io::ErrorKind::NotADirectory), "{err}");
    assert!(err.to_string().contains("not a directory"), "{err}");
}

#[test]
fn a_missing_parent_folder_is_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope").join("audit.jsonl");
    let err = AuditLog::open(&path, None, LOCK).unwrap_err();
    assert!(matches!(err, AuditError::MissingParent { .. }), "{err}");
    assert!(err.to_string().contains("does not exist"));
    assert!(!dir.path().join("nope").exists());
}

#[test]
fn a_deleted_or_renamed_log_is_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 3, None);
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    // deleted: keep a handle on the old inode to see nothing lands there
    let old = File::open(&path).unwrap();
    let old_len = old.metadata().unwrap().len();
    fs::remove_file(&path).unwrap();
    let err = log.append(&event(3), ts(3)).unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::Replaced {
                what: "deleted",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(old.metadata().unwrap().len(), old_len);
    assert!(!path.exists(), "a vanished log must not be recreated");

    // renamed away, and a new file put at the path
    // (a fresh folder: the old checkpoint would make the writer refuse a
    // new, empty log at the same path, which is its own guarantee)
    let sub = dir.path().join("second");
    fs::create_dir(&sub).unwrap();
    let path = make_log(&sub, 3, None);
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    let moved = dir.path().join("moved.jsonl");
    fs::rename(&path, &moved).unwrap();
    let moved_before = fs::read(&moved).unwrap();
    let err = log.append(&event(3), ts(3)).unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::Replaced {
                what: "deleted",
                ..
            }
        ),
        "{err}"
    );
    fs::write(&path, b"").unwrap();
    let err = log.append(&event(3), ts(3)).unwrap_err();
    assert!(
        matches!(
            err,
            AuditError::Replaced {
                what: "replaced",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(fs::read(&moved).unwrap(), moved_before);
    assert_eq!(fs::read(&path).unwrap(), b"");
}

#[test]
fn a_failing_checkpoint_fails_the_append_and_rolls_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 3, None);
    let before = fs::read(&path).unwrap();
    // a folder where the checkpoint's temp file goes makes its write fail
    let tmp = PathBuf::from(format!(
        "{}.tmp.{}",
        checkpoint_path(&path).display(),
        std::process::id()
    ));
    fs::create_dir(&tmp).unwrap();
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    let err = log.append(&event(3), ts(3)).unwrap_err();
    assert!(matches!(err, AuditError::Checkpoint { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), before);
    fs::remove_dir(&tmp).unwrap();
    assert_eq!(status(&path, None), VerifyStatus::Intact);
    assert_eq!(log.append(&event(3), ts(3)).unwrap().seq, 3);
}

// ---------------------------------------------------------------- CLI

/// `tracegate audit verify` on `path` as a user runs it: (exit code,
/// stdout, stderr).
fn cli(path: &Path, key_file: Option<PathBuf>, format: Format) -> (u8, String, String) {
    let format = match format {
        Format::Text => "text",
        Format::Json => "json",
    };
    let mut args = vec![
        "audit".to_string(),
        "verify".into(),
        path.display().to_string(),
        "--format".into(),
        format.into(),
    ];
    if let Some(k) = key_file {
        args.extend(["--key-file".into(), k.display().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = crate::cli::tracegate(&args, b"");
    (u8::try_from(run.code).unwrap(), run.stdout, run.stderr)
}

#[test]
fn cli_reports_every_status_without_echoing_content() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 20, None);
    let mut outputs = Vec::new();

    let (code, out, _) = cli(&path, None, Format::Text);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!(
            "{}: intact, 20 entries, last seq 19, checkpoint matches\n",
            path.display()
        )
    );
    outputs.push(out);

    let (code, out, _) = cli(&path, None, Format::Json);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "intact");
    assert_eq!(v["entries"], 20);
    assert!(v["first_bad_seq"].is_null());
    outputs.push(out);

    let bytes = fs::read(&path).unwrap();
    let mut lines = lines_of(&bytes);
    lines[16] = String::from_utf8(lines[16].clone())
        .unwrap()
        .replace("CANARY", "CANARZ")
        .into_bytes();
    assert_ne!(lines.concat(), bytes);
    fs::write(&path, lines.concat()).unwrap();
    let (code, out, _) = cli(&path, None, Format::Text);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "{}: tampered at seq 16: edited (the prev of line 18 (seq 17) does not match the hash of line 17 (seq 16))\n",
            path.display()
        )
    );
    outputs.push(out);
    let (code, out, _) = cli(&path, None, Format::Json);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            v["status"].as_str(),
            v["first_bad_seq"].as_u64(),
            v["kind"].as_str()
        ),
        (Some("tampered"), Some(16), Some("edited"))
    );
    outputs.push(out);

    fs::write(&path, &bytes).unwrap();
    let mut torn = bytes.clone();
    torn.extend_from_slice(format!("{{\"seq\":20,\"reason\":\"{CANARY}").as_bytes());
    fs::write(&path, &torn).unwrap();
    let (code, out, _) = cli(&path, None, Format::Text);
    assert_eq!(code, 3, "{out}");
    outputs.push(out);

    // a checkpoint behind the tail (a crash between fsync and checkpoint)
    fs::write(&path, &bytes).unwrap();
    let lines = lines_of(&bytes);
    let size19: usize = lines[..19].iter().map(Vec::len).sum();
    let behind = Checkpoint::new(18, size19 as u64, sha256_hex(&lines[18]), None);
    fs::write(checkpoint_path(&path), serde_json::to_vec(&behind).unwrap()).unwrap();
    let (code, out, _) = cli(&path, None, Format::Json);
    assert_eq!(code, 4);
    assert!(out.contains("\"status\":\"unvouched\""), "{out}");
    outputs.push(out);

    // no checkpoint beside a log with entries: tampered
    fs::remove_file(checkpoint_path(&path)).unwrap();
    let (code, out, _) = cli(&path, None, Format::Json);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\"kind\":\"checkpoint\""), "{out}");
    outputs.push(out);

    let (code, out, err) = cli(&dir.path().join("missing.jsonl"), None, Format::Text);
    assert_eq!(code, 2);
    outputs.push(out);
    outputs.push(err);

    for o in outputs {
        assert!(
            !o.contains("CANARY") && !o.contains("CANARZ"),
            "content echoed: {o}"
        );
    }
}

#[test]
fn cli_names_a_missing_log_and_says_error_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.jsonl");
    let (code, out, err) = cli(&missing, None, Format::Text);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains(&format!("`{}`", missing.display())), "{err}");
    let (code, out, _) = cli(&missing, None, Format::Json);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "error");
}

/// One anchor vouches for one log: with several logs `--anchor` (and
/// `--init-anchor`) is refused, rather than checking the other logs
/// against the wrong anchor or against none at all.
#[test]
fn cli_refuses_one_anchor_for_several_logs() {
    let logs = tempfile::tempdir().unwrap();
    let anchors = tempfile::tempdir().unwrap();
    let (a, b) = (logs.path().join("r1"), logs.path().join("r2"));
    fs::create_dir_all(&a).unwrap();
    fs::create_dir_all(&b).unwrap();
    let (la, lb) = (a.join("audit.jsonl"), b.join("audit.jsonl"));
    let anchor = anchors.path().join("r1.anchor");
    let mut log = AuditLog::open(&la, None, LOCK)
        .unwrap()
        .with_anchor(Some(anchor.clone()))
        .unwrap();
    log.append(&event(0), ts(0)).unwrap();
    AuditLog::open(&lb, None, LOCK)
        .unwrap()
        .append(&event(0), ts(0))
        .unwrap();
    let (la, lb, anchor) = (
        la.to_str().unwrap(),
        lb.to_str().unwrap(),
        anchor.to_str().unwrap(),
    );
    let one = crate::cli::tracegate(&["audit", "verify", la, "--anchor", anchor], b"");
    assert_eq!(
        one.code, 0,
        "the anchor vouches for its own log: {}",
        one.stderr
    );
    for extra in [&[][..], &["--fleet"], &["--init-anchor"]] {
        let mut args = vec!["audit", "verify", la, lb, "--anchor", anchor];
        args.extend_from_slice(extra);
        let run = crate::cli::tracegate(&args, b"");
        assert_eq!(run.code, 2, "{extra:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        assert!(
            run.stderr.contains("--anchor names one log's anchor"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn cli_verifies_a_keyed_log_with_a_hex_key_file() {
    let dir = tempfile::tempdir().unwrap();
    let raw = b"0123456789abcdef0123456789abcdef-test-key";
    let key_file = dir.path().join("audit.key");
    fs::write(&key_file, format!("{}\n", hex::encode(raw))).unwrap();
    let path = make_log(dir.path(), 4, Some(key()));
    assert_eq!(cli(&path, Some(key_file), Format::Text).0, 0);
    let (code, _, err) = cli(&path, None, Format::Text);
    assert_eq!(code, 2);
    assert!(err.contains("keyed"), "{err}");
    let short = dir.path().join("short.key");
    fs::write(&short, "abc").unwrap();
    assert_eq!(cli(&path, Some(short), Format::Text).0, 2);
}

// ---------------------------------------------------------------- anchor and clock

#[test]
fn every_older_state_put_back_is_behind_the_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let vault = dir.path().join("vault");
    fs::create_dir(&state).unwrap();
    fs::create_dir(&vault).unwrap();
    let path = state.join("audit.jsonl");
    let anchor = vault.join("anchor");
    let mut log = AuditLog::open(&path, Some(key()), LOCK)
        .unwrap()
        .with_anchor(Some(anchor.clone()))
        .unwrap();
    // every authentic state the log went through: (log, checkpoint)
    let mut states = Vec::new();
    for i in 0..8 {
        log.append(&event(i), ts(i)).unwrap();
        states.push((
            fs::read(&path).unwrap(),
            fs::read(checkpoint_path(&path)).unwrap(),
        ));
    }
    drop(log);
    let k = key();
    let anchored =
        |p: &Path| tracegate::internals::audit::verify_anchored(p, Some(&k), Some(&anchor));
    assert_eq!(anchored(&path).unwrap().status, VerifyStatus::Intact);
    for (n, (old_log, old_cp)) in states.iter().enumerate().take(states.len() - 1) {
        fs::write(&path, old_log).unwrap();
        fs::write(checkpoint_path(&path), old_cp).unwrap();
        // both are authentic: only the anchor tells
        assert_eq!(status(&path, Some(&k)), VerifyStatus::Intact, "state {n}");
        match anchored(&path).unwrap().status {
            VerifyStatus::Tampered { kind, seq, .. } => {
                assert_eq!(
                    (kind, seq),
                    (TamperKind::RolledBack, n as u64 + 1),
                    "state {n}"
                )
            }
            other => panic!("state {n}: {other:?}"),
        }
        let mut again = AuditLog::open(&path, Some(key()), LOCK)
            .unwrap()
            .with_anchor(Some(anchor.clone()))
            .unwrap();
        assert!(
            matches!(
                again.append(&event(9), ts(9)),
                Err(AuditError::AnchorMismatch { .. })
            ),
            "state {n}"
        );
        assert_eq!(&fs::read(&path).unwrap(), old_log, "nothing appended");
    }
    // a different chain of the same length (same key) is not the anchored one
    let other_dir = tempfile::tempdir().unwrap();
    let other = other_dir.path().join("audit.jsonl");
    let mut w = AuditLog::open(&other, Some(key()), LOCK).unwrap();
    for i in 0..8 {
        w.append(&event(i), ts(i + 1000)).unwrap();
    }
    fs::copy(&other, &path).unwrap();
    fs::copy(checkpoint_path(&other), checkpoint_path(&path)).unwrap();
    assert!(matches!(
        anchored(&path).unwrap().status,
        VerifyStatus::Tampered {
            kind: TamperKind::RolledBack,
            ..
        }
    ));
    // an anchor may not live beside the log, below it, or reach it by `..`
    // or a symlink
    fs::create_dir(state.join("sub")).unwrap();
    std::os::unix::fs::symlink(&state, vault.join("link")).unwrap();
    for inside in [
        state.join("anchor"),
        state.join("sub/anchor"),
        vault.join("../state/sub/../anchor"),
        vault.join("link/anchor"),
    ] {
        let err = AuditLog::open(&path, Some(key()), LOCK)
            .unwrap()
            .with_anchor(Some(inside.clone()))
            .unwrap_err();
        assert!(
            matches!(err, AuditError::AnchorPlacement { .. }),
            "{}: {err}",
            inside.display()
        );
    }
}

#[test]
fn time_never_runs_backwards_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = make_log(dir.path(), 2, None);
    let granting = AuditEvent::WindowEnabled {
        window: "w".into(),
        sink: "s".into(),
        start: ts(0),
        end: ts(100),
        reason: "r".into(),
        requested_by: "q".into(),
        max_records: None,
        max_bytes: None,
    };
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    // far behind: a grant is refused, nothing written
    let before = fs::read(&path).unwrap();
    let err = log.append(&granting, ts(1) - jiff::SignedDuration::from_secs(60));
    assert!(
        matches!(err, Err(AuditError::ClockBehind { last_seq: 1, .. })),
        "{err:?}"
    );
    assert_eq!(fs::read(&path).unwrap(), before);
    // a close is never lost: stamped with the last entry's time
    let close = AuditEvent::WindowClosed {
        window: "w".into(),
        sink: "s".into(),
        cause: CloseCause::Removed,
    };
    log.append(&close, ts(0)).unwrap();
    // within the slack (two appenders racing for the lock): the last time
    log.append(&granting, ts(1) - jiff::SignedDuration::from_millis(300))
        .unwrap();
    let stamps: Vec<Timestamp> = read_entries(&path, None)
        .unwrap()
        .map(|e| e.unwrap().ts)
        .collect();
    assert_eq!(stamps, [ts(0), ts(1), ts(1), ts(1)]);
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

#[test]
fn capture_stays_off_while_the_clock_is_behind_the_log_and_says_so_when_it_recovers() {
    use std::sync::Arc;
    use tracegate::Capture;
    use tracegate::Level;
    use tracegate::ManualClock;

    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("policy.toml"),
        "[audit]\npath = \"audit.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\n\
         [[window]]\nid = \"w1\"\nsink = \"cap\"\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T11:00:00Z\"\n\
         reason = \"r\"\nrequested_by = \"q\"\n",
    )
    .unwrap();
    let policy = Arc::new(tracegate::Policy::load(&dir.path().join("policy.toml")).unwrap());
    let path = dir.path().join("audit.jsonl");
    // the log's last entry is at 10:20; the clock was set back to 10:10
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    log.append(&event(0), ts(20 * 60)).unwrap();
    drop(log);
    let clock = Arc::new(ManualClock::new(ts(10 * 60)));
    let mut cap = Capture::start(policy, clock.clone(), "cap");
    assert_eq!(cap.level(), Level::Standard);
    clock.advance(Duration::from_secs(5 * 60));
    assert_eq!(cap.level(), Level::Standard, "still behind");
    assert_eq!(
        read_entries(&path, None).unwrap().count(),
        1,
        "nothing written"
    );
    clock.advance(Duration::from_secs(6 * 60));
    assert_eq!(cap.level(), Level::Full, "caught up");
    let events: Vec<AuditEvent> = read_entries(&path, None)
        .unwrap()
        .map(|e| e.unwrap().event)
        .collect();
    assert!(matches!(events[1], AuditEvent::PolicyLoaded { .. }));
    assert!(
        matches!(
            &events[2],
            AuditEvent::FullDenied {
                why: DenyWhy::AuditUnavailable,
                detail: Some(d),
                ..
            } if d.contains("clock")
        ),
        "{events:?}"
    );
    assert!(matches!(events[3], AuditEvent::WindowEnabled { .. }));
    assert_eq!(status(&path, None), VerifyStatus::Intact);
}

#[test]
fn files_root_creates_or_replaces_go_to_the_log_folders_owner() {
    use std::os::unix::fs::MetadataExt;
    // Only root can give files away; as any other user this is moot.
    if !rustix::process::geteuid().is_root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    fs::create_dir(&state).unwrap();
    let (uid, gid) = (54_321, 54_322);
    rustix::fs::chown(
        &state,
        Some(rustix::fs::Uid::from_raw(uid)),
        Some(rustix::fs::Gid::from_raw(gid)),
    )
    .unwrap();
    let path = state.join("audit.jsonl");
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    log.append(&event(0), ts(0)).unwrap();
    for f in [
        path.clone(),
        checkpoint_path(&path),
        tracegate::internals::audit::lock_dir(&path),
        tracegate::internals::audit::lock_path(&path),
    ] {
        let m = fs::symlink_metadata(&f).unwrap();
        assert_eq!((m.uid(), m.gid()), (uid, gid), "{}", f.display());
    }
}

#[test]
fn the_writer_never_enables_a_window_the_log_says_has_ended() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    let enable = |end: Timestamp| AuditEvent::WindowEnabled {
        window: "w".into(),
        sink: "cap".into(),
        start: ts(0),
        end,
        reason: "r".into(),
        requested_by: "q".into(),
        max_records: None,
        max_bytes: None,
    };
    let ended = |r: Result<_, AuditError>| matches!(r, Err(AuditError::WindowEnded { .. }));
    // stamped at its own end
    assert!(ended(log.append(&enable(ts(60)), ts(60))));
    // the clock is half a second behind the log's newest entry (within the
    // slack, so it would be stamped with that entry's time, the window's end)
    log.append(&event(0), ts(61)).unwrap();
    assert!(ended(log.append(
        &enable(ts(61)),
        ts(60) + jiff::SignedDuration::from_millis(500)
    )));
    // the clock mark beside the log is past the end
    fs::write(
        format!("{}.clock", path.display()),
        format!("{{\"high_water\":\"{}\"}}\n", ts(200)),
    )
    .unwrap();
    assert!(ended(log.append(&enable(ts(150)), ts(100))));
    // a window that ends after all of them is enabled
    log.append(&enable(ts(300)), ts(100)).unwrap();
    assert_eq!(read_entries(&path, None).unwrap().count(), 2);
    assert_eq!(verify(&path, None).unwrap().exit_code(), 0);
}
