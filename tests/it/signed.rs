//! Signed checkpoints (`[audit] signing_key`): sign/verify round trips, and
//! the attacks a public key must catch: a forger who has only the public
//! key (rewrite and re-chain, re-sign with their own key), truncation,
//! replay of an older signed checkpoint, rollback behind a published head,
//! key substitution and forged rotations.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;
use sha2::{Digest, Sha256};
use tracegate::internals::audit::{
    AuditError, AuditEvent, AuditLog, Checkpoint, Head, Note, PublishedHead, SignedCheck,
    SigningKey, TamperKind, Unvouched, VerifierKey, VerifyStatus, checkpoint_path, link_hash,
    note_path, origin_of, verify_signed,
};

const LOCK: Duration = Duration::from_secs(10);

fn ts(i: u64) -> Timestamp {
    Timestamp::from_second(1_796_119_200 + i as i64).unwrap()
}

fn event(i: u64) -> AuditEvent {
    AuditEvent::PolicyRejected {
        cause: format!("entry {i}"),
        policy_sha256: None,
    }
}

fn key() -> Arc<SigningKey> {
    Arc::new(SigningKey::generate().unwrap().0)
}

/// A log of `n` entries signed by `k`.
fn signed_log(dir: &Path, n: u64, k: &Arc<SigningKey>) -> PathBuf {
    let path = dir.join("audit.jsonl");
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(k)));
    for i in 0..n {
        assert_eq!(log.append(&event(i), ts(i)).unwrap().seq, i);
    }
    path
}

fn check(keys: &[&VerifierKey]) -> SignedCheck {
    SignedCheck {
        keys: keys.iter().map(|k| (*k).clone()).collect(),
        since: None,
    }
}

fn status(path: &Path, c: &SignedCheck) -> VerifyStatus {
    verify_signed(path, None, None, c).unwrap().status
}

fn tampered(path: &Path, c: &SignedCheck) -> (u64, TamperKind) {
    match status(path, c) {
        VerifyStatus::Tampered { seq, kind, .. } => (seq, kind),
        other => panic!("expected tampered, got {other:?}"),
    }
}

fn lines(path: &Path) -> Vec<Vec<u8>> {
    fs::read(path)
        .unwrap()
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

/// What a forger without the HMAC key or the signing key can do: write
/// `lines` as the log, relink every line after the first to the one
/// before (SHA-256, as an unkeyed writer does) and write the matching
/// JSON checkpoint.
fn rewrite_and_rechain(path: &Path, mut ls: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    for i in 1..ls.len() {
        let prev = link_hash(None, &ls[i - 1]);
        let s = String::from_utf8(ls[i].clone()).unwrap();
        let at = s.rfind("\"prev\":\"").unwrap() + 8;
        ls[i] = format!("{}{prev}\"}}\n", &s[..at]).into_bytes();
    }
    let bytes = ls.concat();
    fs::write(path, &bytes).unwrap();
    let last = ls.last().unwrap();
    let cp = Checkpoint::new(
        ls.len() as u64 - 1,
        bytes.len() as u64,
        hex::encode(Sha256::digest(last)),
        None,
    );
    fs::write(checkpoint_path(path), serde_json::to_vec(&cp).unwrap()).unwrap();
    ls
}

/// The head of `ls` as a checkpoint states it.
fn head_of(ls: &[Vec<u8>]) -> Head {
    Head {
        origin: origin_of(&ls[0]),
        size: ls.len() as u64,
        hash: Sha256::digest(ls.last().unwrap()).into(),
    }
}

#[test]
fn a_signed_log_verifies_with_its_public_key_and_its_note_is_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 5, &k);
    let r = verify_signed(&path, None, None, &check(&[k.verifier()])).unwrap();
    assert_eq!(r.status, VerifyStatus::Intact, "{}", r.message());
    // The note on disk is the standard signed-note checkpoint of the log:
    // origin, size, base64 SHA-256 of the last line, blank line, signature.
    let text = fs::read_to_string(note_path(&path)).unwrap();
    let ls = lines(&path);
    let h = head_of(&ls);
    assert!(text.starts_with(&h.text()), "{text}");
    assert!(text.contains(&format!("\n\n\u{2014} {} ", k.verifier().name())));
    assert_eq!(r.head.as_ref(), Some(&h));
    let n = Note::parse(text.as_bytes()).unwrap();
    assert_eq!(n.signed_by(k.verifier()), Some(true));
    // The signature is Ed25519 over exactly the checkpoint text.
    assert!(k.verifier().verify(h.text().as_bytes(), &n.sigs[0].sig));
    // Another key is not the log's key.
    let other = key();
    assert_eq!(
        tampered(&path, &check(&[other.verifier()])).1,
        TamperKind::Signature
    );
}

/// The attacker has the public key and write access: edits an entry,
/// relinks the chain, rewrites the JSON checkpoint. The plain chain says
/// intact (the known limit without a key); the signed checkpoint does not.
#[test]
fn a_forger_with_only_the_public_key_cannot_rewrite_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 6, &k);
    let mut ls = lines(&path);
    ls[2] = String::from_utf8(ls[2].clone())
        .unwrap()
        .replace("entry 2", "entry X")
        .into_bytes();
    let ls = rewrite_and_rechain(&path, ls);
    assert_eq!(
        status(&path, &SignedCheck::default()),
        VerifyStatus::Intact,
        "the plain chain cannot see a relinked log"
    );
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])),
        (5, TamperKind::Edited)
    );
    // Re-signing the forged head with their own key does not help.
    let forger = key();
    let forged = Note::sign(head_of(&ls).text(), &forger).render();
    fs::write(note_path(&path), &forged).unwrap();
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])).1,
        TamperKind::Signature
    );
    // Nor does a note that borrows the real key's name and id.
    let mut borrowed = Note::sign(head_of(&ls).text(), &forger);
    borrowed.sigs[0].name = k.verifier().name().to_owned();
    borrowed.sigs[0].id = k.verifier().key_id();
    fs::write(note_path(&path), borrowed.render()).unwrap();
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])).1,
        TamperKind::Signature
    );
    // Nor deleting the signed checkpoint: an unsigned log is tampered.
    fs::remove_file(note_path(&path)).unwrap();
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])),
        (5, TamperKind::Signature)
    );
}

#[test]
fn truncation_with_a_rewritten_checkpoint_is_caught_by_the_signature() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 8, &k);
    let mut ls = lines(&path);
    ls.truncate(5);
    rewrite_and_rechain(&path, ls);
    assert_eq!(status(&path, &SignedCheck::default()), VerifyStatus::Intact);
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])),
        (5, TamperKind::Truncated)
    );
}

/// Replay: an older signed checkpoint (validly signed) put back beside the
/// log; and a forged line appended after the signed checkpoint.
#[test]
fn an_old_checkpoint_put_back_or_a_line_past_the_signature_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 3, &k);
    let old_note = fs::read(note_path(&path)).unwrap();
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&k)));
    for i in 3..8 {
        log.append(&event(i), ts(i)).unwrap();
    }
    drop(log);
    let good_note = fs::read(note_path(&path)).unwrap();
    fs::write(note_path(&path), &old_note).unwrap();
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])),
        (3, TamperKind::Signature)
    );
    // A line appended by someone without the key (chain and JSON
    // checkpoint made to match) is not covered by the signature.
    fs::write(note_path(&path), &good_note).unwrap();
    let mut ls = lines(&path);
    let extra = String::from_utf8(ls[7].clone())
        .unwrap()
        .replace("\"seq\":7", "\"seq\":8")
        .replace("entry 7", "entry 8");
    ls.push(extra.into_bytes());
    rewrite_and_rechain(&path, ls);
    assert_eq!(status(&path, &SignedCheck::default()), VerifyStatus::Intact);
    assert_eq!(
        tampered(&path, &check(&[k.verifier()])),
        (8, TamperKind::Signature)
    );
}

/// Rollback: the whole state (log, checkpoint, signed checkpoint) put back
/// to an older, validly signed copy. Only a published head catches it.
#[test]
fn a_rollback_behind_a_published_head_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 3, &k);
    let backup: Vec<(PathBuf, Vec<u8>)> = [path.clone(), checkpoint_path(&path), note_path(&path)]
        .into_iter()
        .map(|p| {
            let b = fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&k)));
    for i in 3..6 {
        log.append(&event(i), ts(i)).unwrap();
    }
    drop(log);
    // The operator publishes the head at 6 entries.
    let published = PublishedHead::parse(&fs::read(note_path(&path)).unwrap()).unwrap();
    assert_eq!(published.head.size, 6);
    let since = SignedCheck {
        keys: vec![k.verifier().clone()],
        since: Some(published.clone()),
    };
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&k)));
    log.append(&event(6), ts(6)).unwrap();
    drop(log);
    assert_eq!(
        status(&path, &since),
        VerifyStatus::Intact,
        "appending extends it"
    );
    for (p, b) in &backup {
        fs::write(p, b).unwrap();
    }
    assert_eq!(
        status(&path, &check(&[k.verifier()])),
        VerifyStatus::Intact,
        "an older signed state is authentic on its own"
    );
    assert_eq!(tampered(&path, &since), (3, TamperKind::RolledBack));
    // A bare (unsigned) published head catches it too, without any key.
    let bare = SignedCheck {
        keys: Vec::new(),
        since: Some(PublishedHead::parse(published.head.text().as_bytes()).unwrap()),
    };
    assert_eq!(tampered(&path, &bare), (3, TamperKind::RolledBack));
    // Another log signed by the same key, longer than the head, is not
    // the log the head names.
    let dir2 = tempfile::tempdir().unwrap();
    let other = dir2.path().join("audit.jsonl");
    let mut log = AuditLog::open(&other, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&k)));
    for i in 0..9 {
        log.append(&event(i + 100), ts(i)).unwrap();
    }
    drop(log);
    assert_eq!(tampered(&other, &since), (0, TamperKind::RolledBack));
    // A log deleted altogether.
    fs::remove_file(&path).unwrap();
    assert_eq!(tampered(&path, &since), (0, TamperKind::RolledBack));
}

/// A published head signed by a key that never signed the log proves
/// nothing: refused.
#[test]
fn a_published_head_signed_by_another_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 4, &k);
    let forger = key();
    let ls = lines(&path);
    let mut h = head_of(&ls);
    h.size = 2;
    h.hash = Sha256::digest(&ls[1]).into();
    let note = Note::sign(h.text(), &forger).render();
    let c = SignedCheck {
        keys: vec![k.verifier().clone()],
        since: Some(PublishedHead::parse(note.as_bytes()).unwrap()),
    };
    assert_eq!(tampered(&path, &c).1, TamperKind::Signature);
}

#[test]
fn a_rotation_signed_by_the_old_key_verifies_from_the_oldest_key() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (key(), key());
    let path = signed_log(dir.path(), 3, &a);
    let note_by_a = fs::read(note_path(&path)).unwrap();
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&a)));
    log.rotate_signing_key(Arc::clone(&b), ts(3)).unwrap();
    log.append(&event(4), ts(4)).unwrap();
    drop(log);
    let r = verify_signed(&path, None, None, &check(&[a.verifier()])).unwrap();
    assert_eq!(r.status, VerifyStatus::Intact, "{}", r.message());
    // A gate still holding the old key no longer appends.
    let mut stale = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&a)));
    assert!(matches!(
        stale.append(&event(5), ts(5)),
        Err(AuditError::SignedCheckpoint { .. })
    ));
    drop(stale);
    // The old key's checkpoint put back (its signature is valid, but the
    // key was rotated away): tampered.
    let good = fs::read(note_path(&path)).unwrap();
    let ls = lines(&path);
    let replay = Note::sign(head_of(&ls).text(), &a).render();
    fs::write(note_path(&path), replay).unwrap();
    assert_eq!(
        tampered(&path, &check(&[a.verifier()])).1,
        TamperKind::Signature
    );
    fs::write(note_path(&path), &note_by_a).unwrap();
    assert_eq!(
        tampered(&path, &check(&[a.verifier()])).1,
        TamperKind::Signature
    );
    fs::write(note_path(&path), good).unwrap();
    assert_eq!(status(&path, &check(&[a.verifier()])), VerifyStatus::Intact);
}

/// Key substitution: an attacker appends a `key_rotated` to their own key
/// (signing it with their own key, having no other), relinks, and signs
/// the checkpoint with their key. The rotation does not verify.
#[test]
fn a_forged_key_rotation_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (real, forger) = (key(), key());
    let path = signed_log(dir.path(), 3, &real);
    // What the forger appends, through the library (the writer refuses a
    // key_rotated outside a rotation; the forger writes the bytes).
    let mut log = AuditLog::open(&path, None, LOCK).unwrap();
    let refused = log.append(
        &AuditEvent::KeyRotated {
            old_key: real.verifier().to_text(),
            new_key: forger.verifier().to_text(),
            signature: String::new(),
        },
        ts(3),
    );
    assert!(matches!(refused, Err(AuditError::SignedCheckpoint { .. })));
    drop(log);
    let mut ls = lines(&path);
    let prev = link_hash(None, &ls[2]);
    let new_key = forger.verifier().to_text();
    let statement = format!("tracegate-audit-key-rotated/v1\n3\n{prev}\n{new_key}\n");
    use base64::Engine;
    let sig = base64::engine::general_purpose::STANDARD.encode(forger.sign(statement.as_bytes()));
    ls.push(
        format!(
            "{{\"seq\":3,\"ts\":\"2026-12-01T10:00:03Z\",\"event\":\"key_rotated\",\"old_key\":\"{}\",\"new_key\":\"{new_key}\",\"signature\":\"{sig}\",\"prev\":\"{prev}\"}}\n",
            real.verifier().to_text()
        )
        .into_bytes(),
    );
    let ls = rewrite_and_rechain(&path, ls);
    fs::write(
        note_path(&path),
        Note::sign(head_of(&ls).text(), &forger).render(),
    )
    .unwrap();
    assert_eq!(status(&path, &SignedCheck::default()), VerifyStatus::Intact);
    assert_eq!(
        tampered(&path, &check(&[real.verifier()])),
        (3, TamperKind::KeyRotation)
    );
}

/// A retired key signing a second rotation: it no longer signs the log.
#[test]
fn a_rotation_by_a_retired_key_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (key(), key(), key());
    let path = signed_log(dir.path(), 2, &a);
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&a)));
    log.rotate_signing_key(Arc::clone(&b), ts(2)).unwrap();
    drop(log);
    // The holder of the retired key a writes a rotation to c.
    let mut ls = lines(&path);
    let prev = link_hash(None, &ls[2]);
    let new_key = c.verifier().to_text();
    let statement = format!("tracegate-audit-key-rotated/v1\n3\n{prev}\n{new_key}\n");
    use base64::Engine;
    let sig = base64::engine::general_purpose::STANDARD.encode(a.sign(statement.as_bytes()));
    ls.push(
        format!(
            "{{\"seq\":3,\"ts\":\"2026-12-01T10:00:03Z\",\"event\":\"key_rotated\",\"old_key\":\"{}\",\"new_key\":\"{new_key}\",\"signature\":\"{sig}\",\"prev\":\"{prev}\"}}\n",
            a.verifier().to_text()
        )
        .into_bytes(),
    );
    let ls = rewrite_and_rechain(&path, ls);
    fs::write(
        note_path(&path),
        Note::sign(head_of(&ls).text(), &c).render(),
    )
    .unwrap();
    assert_eq!(
        tampered(&path, &check(&[a.verifier()])),
        (3, TamperKind::KeyRotation)
    );
}

/// A gate holding another key refuses to append to a log signed by a key
/// it does not hold (full capture stays off); so does any gate beside a
/// log whose signed checkpoint is missing, and a gate whose signing key is
/// missing never opens the log.
#[test]
fn gates_refuse_a_log_they_cannot_vouch_for() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (key(), key());
    let path = signed_log(dir.path(), 2, &a);
    let mut other = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&b)));
    assert!(matches!(
        other.append(&event(2), ts(2)),
        Err(AuditError::SignedCheckpoint { .. })
    ));
    drop(other);
    fs::remove_file(note_path(&path)).unwrap();
    let mut same = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&a)));
    let e = same.append(&event(2), ts(2)).unwrap_err();
    assert!(matches!(e, AuditError::SignedCheckpoint { .. }), "{e}");
    assert_eq!(lines(&path).len(), 2, "nothing appended");
    // `audit sign` starts signing the (verified) log again.
    let head = same.start_signing().unwrap().unwrap();
    assert_eq!(head.size, 2);
    same.append(&event(2), ts(2)).unwrap();
    assert_eq!(status(&path, &check(&[a.verifier()])), VerifyStatus::Intact);
    // A missing key file is an error, never an unsigned log.
    let e = SigningKey::load(&dir.path().join("no-such.key")).unwrap_err();
    assert!(matches!(e, AuditError::SigningKey { .. }), "{e}");
}

/// A crash between a line and its signed checkpoint: the line is covered
/// by the key's intent, so verify says unvouched (4), not intact and not
/// tampered, and the next append signs it.
#[test]
fn a_crash_before_the_signature_is_unvouched_then_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let k = key();
    let path = signed_log(dir.path(), 3, &k);
    let before = fs::read(note_path(&path)).unwrap();
    let mut log = AuditLog::open(&path, None, LOCK)
        .unwrap()
        .with_signer(Some(Arc::clone(&k)));
    log.append(&event(3), ts(3)).unwrap();
    // Simulate the crash: the note as it was before the last append.
    fs::write(note_path(&path), &before).unwrap();
    assert_eq!(
        status(&path, &check(&[k.verifier()])),
        VerifyStatus::Unvouched(Unvouched::CheckpointBehind { checkpoint_seq: 2 })
    );
    log.append(&event(4), ts(4)).unwrap();
    assert_eq!(status(&path, &check(&[k.verifier()])), VerifyStatus::Intact);
}
