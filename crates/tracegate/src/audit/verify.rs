//! `audit verify`: stream over the log, check the chain and the checkpoint.
//!
//! # Rules
//!
//! The log is read once, line by line, in bounded memory (one line of at
//! most [`super::MAX_LINE_BYTES`] plus one line of lookahead). Raw bytes are
//! hashed as read; nothing is re-serialized. `expected` is the seq the next
//! line must carry (0 first), `link` the `prev` it must carry (64 zeros
//! first, then the hash of the line before). The first problem ends the
//! scan. For the line at hand:
//!
//! 1. longer than the line limit, not JSON, or lacking a u64 `seq`, an
//!    RFC 3339 `ts` ending in `Z`, a string `event` or a 64-hex `prev`:
//!    **edited** at `expected`.
//! 2. `seq == expected`, `prev != link`: **edited** at `expected - 1`
//!    (at 0 for the first line): the earlier line's bytes or this line's
//!    `prev` changed; entries before it are vouched for by their successors,
//!    that one is not.
//! 3. `seq != expected`, `prev == link`: **edited** at `expected` (the seq
//!    field itself was changed; the chain still links).
//! 4. `seq < expected`: **duplicated** at `expected` when the line repeats
//!    the previous line byte for byte, else **inserted** at `expected`.
//! 5. `seq > expected`: look at the next line. If it carries `expected`
//!    and hashes to this line's `prev`, the two were swapped:
//!    **reordered** at `expected`. If it carries `expected` otherwise, this
//!    line was put in: **inserted**. Else **deleted** at `expected` (a line
//!    moved far away is reported as deleted where it is missing).
//!
//! A final line without `\n` is a *torn tail* and is not parsed. When the
//! chain holds, the checkpoint decides (it was read first, together with
//! the file size, under a shared lock):
//!
//! - unreadable, or its MAC fails under the key, or unkeyed under a key:
//!   **tampered** (`checkpoint`) at the last seq;
//! - vouches for more than the complete lines hold (higher seq or larger
//!   size): **truncated** at the first missing seq when the file is shorter
//!   than the checkpoint's size, else **edited** there (e.g. the last
//!   newline was overwritten);
//! - same seq as the last line but another hash or size: **edited** at
//!   that seq;
//! - an older seq whose line or size does not match: **edited** at it;
//! - missing beside a log with at least one complete entry: **tampered**
//!   (`checkpoint`) at the last seq (a log cut back and its checkpoint
//!   deleted looks exactly like this);
//! - otherwise: torn tail → **torn tail** (3); checkpoint at the last line
//!   (or no checkpoint and no entry) → **intact** (0); older →
//!   **unvouched**, checkpoint behind (4).
//!
//! Time: each intact line's `ts` must not be earlier than the line before
//! it; one that is is **tampered** (`clock`) at its seq (a writer refuses
//! to write such a line, so it was edited in or written by a clock set
//! back). Likewise a `window_enabled` stamped at or after the end of the
//! window it enables is **tampered** (`clock`) at its seq: a writer
//! refuses to enable a window once its own clock, the log's newest entry
//! or its clock mark is past the end.
//!
//! With an anchor (`--anchor`), once the above holds: a missing anchor
//! beside a log with entries, or one that does not verify, is **tampered**
//! (`anchor`); an anchor vouching for a seq or size the log does not reach,
//! or whose seq is another line than the one in the log, or a checkpoint
//! behind it, is **tampered** (`rolled_back`). A log missing altogether
//! beside a valid anchor is **tampered** (`rolled_back`) at seq 0.
//!
//! With trusted public keys (`--public-key`, [`SignedCheck::keys`]), once
//! the above holds: each `key_rotated` entry must retire a key that signs
//! the log at that point and carry its signature over the rotation
//! statement, or it is **tampered** (`key_rotation`) at its seq; the keys
//! start as the given ones and follow the rotations. Then the signed
//! checkpoint (`FILE.checkpoint.note`): missing beside entries, malformed,
//! not signed by a key in force at the end (a key rotated away: a replayed
//! checkpoint), or naming another log's origin: **tampered**
//! (`signature`); vouching for more entries than the log holds:
//! **truncated**; its hash not the SHA-256 of the line at its seq:
//! **edited**; behind the tail by one line that a trusted key's intent
//! names exactly: **unvouched** (4, a crash before the signature); behind
//! otherwise: **tampered** (`signature`) at the first seq it does not
//! cover.
//!
//! With a published head (`--since-head`, [`SignedCheck::since`]): a log
//! missing altogether, another origin, fewer entries than the head names,
//! or a line at the head's last seq whose SHA-256 is not the head's hash:
//! **tampered** (`rolled_back`). A signed head must be signed by a key of
//! the log's rotation chain when keys are given (`signature`).
//!
//! So a changed byte anywhere is never intact: inside a line it breaks the
//! next `prev` or, for the last line, the checkpoint hash; the final
//! newline turns the last line into a torn tail that the checkpoint still
//! vouches for (tampered, 1). Only when no checkpoint exists can damage to
//! the final newline read as a torn tail (3).
//!
//! # Known limit
//!
//! Without a key, an attacker who can write the log can rewrite the chain
//! and the checkpoint together (e.g. truncate and write a matching
//! checkpoint): verify then says intact. With a key but no anchor, an older
//! log and its older checkpoint put back together are both authentic. Only
//! an anchor outside the attacker's reach closes these (see SECURITY.md).

use std::path::Path;

use jiff::Timestamp;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use sha2::{Digest, Sha256};

use super::chain::{AuditKey, ZERO_PREV, link_hash, sha256_hex};
use super::checkpoint::{CheckpointState, Mark, read_mark};
use super::entry::{AuditEvent, ChainFields, parse_entry};
use super::error::AuditError;
use super::lines::{RawLine, Snapshot};
use super::note::{Head, NoteFile, PublishedHead, origin_of, rotation_statement};
use super::sign::VerifierKey;

/// What a verifier asks of a signed log beyond the chain: the public keys
/// it trusts (`--public-key`) and a head published earlier
/// (`--since-head`). The default asks nothing.
#[derive(Debug, Clone, Default)]
pub struct SignedCheck {
    /// The keys trusted to sign the log's checkpoints at its start: the
    /// first key of each rotation chain. Empty: signatures are not
    /// checked. Otherwise (see the module docs) an unsigned log is
    /// tampering.
    pub keys: Vec<VerifierKey>,
    /// A head published earlier: the log must extend it.
    pub since: Option<PublishedHead>,
}

crate::io_text::named_enum! {
    /// The kind of tampering found.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum TamperKind {
        /// A line's bytes changed (or it is not an entry).
        Edited = "edited",
        /// One or more lines are missing.
        Deleted = "deleted",
        /// A line was added.
        Inserted = "inserted",
        /// A line repeats the one before it.
        Duplicated = "duplicated",
        /// Two lines were swapped.
        Reordered = "reordered",
        /// The checkpoint vouches for lines or bytes the file no longer has.
        Truncated = "truncated",
        /// The checkpoint is malformed, not authentic under the key, or
        /// missing beside a log with entries.
        Checkpoint = "checkpoint",
        /// A line is stamped earlier than the line before it, or enables a
        /// window at or after the window's own end.
        Clock = "clock",
        /// The log or its checkpoint is behind its anchor, or the log is not the
        /// one the anchor vouches for: rolled back, replaced or deleted.
        RolledBack = "rolled_back",
        /// The anchor is missing beside a log with entries, malformed, or not
        /// authentic under the key.
        Anchor = "anchor",
        /// With trusted public keys: the signed checkpoint is missing beside a
        /// log with entries, malformed, not signed by a trusted key (another
        /// key, or one rotated away: a replayed checkpoint), names another
        /// log, or entries follow it that no signature covers.
        Signature = "signature",
        /// A `key_rotated` entry not signed by the key it retires, or retiring
        /// a key that does not sign the log at that point.
        KeyRotation = "key_rotation",
    }
}

/// Why an intact chain is not vouched for. (A missing checkpoint is not a
/// reason: beside a log with entries it is tampering, and an empty log
/// without one is intact.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unvouched {
    /// The checkpoint is older than the tail (a crash between the fsync of
    /// an entry and its checkpoint, or lines appended by something else).
    CheckpointBehind {
        /// The seq the checkpoint vouches for.
        checkpoint_seq: u64,
    },
}

/// The outcome of [`verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyStatus {
    /// Chain intact and the checkpoint vouches for the tail (exit 0).
    Intact,
    /// Tampered (exit 1).
    Tampered {
        /// The first seq that cannot be trusted (see the module rules).
        seq: u64,
        /// What kind of damage.
        kind: TamperKind,
        /// One line of detail: seqs, line numbers, never content.
        detail: String,
    },
    /// Intact except a last line without `\n`: a crash mid-write (exit 3).
    TornTail {
        /// Bytes in the torn line.
        torn_bytes: u64,
    },
    /// Chain intact but not vouched for by a checkpoint (exit 4).
    Unvouched(Unvouched),
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyReport {
    /// The verdict.
    pub status: VerifyStatus,
    /// Complete entries checked and found intact before any problem.
    pub entries: u64,
    /// Seq of the last intact entry, if any.
    pub last_seq: Option<u64>,
    /// The head of the intact entries (origin, count, SHA-256 of the last
    /// one), `None` when there are none: what `audit head` publishes.
    pub head: Option<Head>,
    /// Bytes of the intact entries (from the start of the file).
    pub bytes: u64,
}

impl VerifyReport {
    /// The exit code of `audit verify`: 0 intact, 1 tampered, 3 torn tail,
    /// 4 unvouched (2, usage or I/O error, is an `Err` of [`verify`]).
    pub fn exit_code(&self) -> u8 {
        match self.status {
            VerifyStatus::Intact => 0,
            VerifyStatus::Tampered { .. } => 1,
            VerifyStatus::TornTail { .. } => 3,
            VerifyStatus::Unvouched(_) => 4,
        }
    }

    /// The last seq that an intact chain *and* the checkpoint vouch for:
    /// entries up to it can be trusted, later ones (unvouched, or past a
    /// torn tail) cannot. `None` when tampered or when nothing is vouched.
    pub fn vouched_seq(&self) -> Option<u64> {
        match &self.status {
            VerifyStatus::Intact | VerifyStatus::TornTail { .. } => self.last_seq,
            VerifyStatus::Unvouched(Unvouched::CheckpointBehind { checkpoint_seq }) => {
                Some(*checkpoint_seq)
            }
            VerifyStatus::Tampered { .. } => None,
        }
    }

    /// The stable status name: `intact`, `tampered`, `torn_tail`,
    /// `unvouched`.
    pub fn status_name(&self) -> &'static str {
        match self.status {
            VerifyStatus::Intact => "intact",
            VerifyStatus::Tampered { .. } => "tampered",
            VerifyStatus::TornTail { .. } => "torn_tail",
            VerifyStatus::Unvouched(_) => "unvouched",
        }
    }

    /// A one-line description (no content of the log, only seqs, line
    /// numbers and sizes).
    pub fn message(&self) -> String {
        let last = match self.last_seq {
            Some(s) => format!("last seq {s}"),
            None => "no entries".to_owned(),
        };
        match &self.status {
            VerifyStatus::Intact if self.entries == 0 => "intact, no entries".to_owned(),
            VerifyStatus::Intact => format!(
                "intact, {}, {last}, checkpoint matches",
                crate::io_text::counted(self.entries, "entry", "entries")
            ),
            VerifyStatus::Tampered { seq, kind, detail } => {
                format!("tampered at seq {seq}: {kind} ({detail})")
            }
            VerifyStatus::TornTail { torn_bytes } => format!(
                "torn tail: {}, {last}, then a last line of {torn_bytes} bytes without a newline (a crash mid-write)",
                crate::io_text::counted(self.entries, "intact entry", "intact entries")
            ),
            VerifyStatus::Unvouched(Unvouched::CheckpointBehind { checkpoint_seq }) => format!(
                "unvouched: chain intact, {}, {last}, but the checkpoint vouches only up to seq {checkpoint_seq}",
                crate::io_text::counted(self.entries, "entry", "entries")
            ),
        }
    }
}

/// Verify the log at `path` (with `key` for a keyed log). Streams the file:
/// memory is bounded whatever its size. See the module docs for the rules.
///
/// `Err` means the log could not be read (exit 2): missing, unreadable,
/// not a regular file, or keyed and no key given.
pub fn verify(path: &Path, key: Option<&AuditKey>) -> Result<VerifyReport, AuditError> {
    verify_anchored(path, key, None)
}

/// [`verify`], and then against the anchor at `anchor` when given (see the
/// module docs). A missing log beside a valid anchor is tampering, not an
/// error.
pub fn verify_anchored(
    path: &Path,
    key: Option<&AuditKey>,
    anchor: Option<&Path>,
) -> Result<VerifyReport, AuditError> {
    verify_signed(path, key, anchor, &SignedCheck::default())
}

/// [`verify_anchored`], and then the signed checkpoint against
/// `check.keys` and the log against `check.since` (see the module docs).
/// A missing log beside a published head of entries is tampering.
pub fn verify_signed(
    path: &Path,
    key: Option<&AuditKey>,
    anchor: Option<&Path>,
    check: &SignedCheck,
) -> Result<VerifyReport, AuditError> {
    let missing =
        || std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
    let rolled_back = |detail: String| VerifyReport {
        status: VerifyStatus::Tampered {
            seq: 0,
            kind: TamperKind::RolledBack,
            detail,
        },
        entries: 0,
        last_seq: None,
        head: None,
        bytes: 0,
    };
    if let Some(p) = &check.since
        && p.head.size > 0
        && missing()
    {
        return Ok(rolled_back(format!(
            "the log is missing; the published head names {}",
            crate::io_text::counted(p.head.size, "entry", "entries")
        )));
    }
    if let Some(a) = anchor
        && missing()
        && let CheckpointState::Valid(mark) = read_mark(Mark::Anchor, a, path, key)?
    {
        return Ok(rolled_back(format!(
            "the log is missing; its anchor vouches for seq {} at {} bytes",
            mark.seq, mark.size
        )));
    }
    let mut snap = Snapshot::take(path, key, anchor)?;
    let checkpoint = snap.checkpoint.clone();
    let anchor_state = snap.anchor.clone();
    let cp_seq = match &checkpoint {
        CheckpointState::Valid(cp) => Some(cp.seq),
        _ => None,
    };
    let anchor_seq = match &anchor_state {
        Some(CheckpointState::Valid(a)) => Some(a.seq),
        _ => None,
    };
    let mut scan = Scan::new(key, cp_seq, anchor_seq);
    if !check.keys.is_empty() {
        scan.keys = Some(KeyChain {
            current: check.keys.clone(),
            ever: check.keys.clone(),
        });
    }
    scan.note_seq = match &snap.note {
        NoteFile::Note(n) => n.head().ok().and_then(|h| h.seq()),
        _ => None,
    };
    scan.head_seq = check.since.as_ref().and_then(|p| p.head.seq());
    let read_err = |e: std::io::Error| AuditError::read(path, &e);
    let mut lookahead: Option<RawLine> = None;
    let mut torn: Option<u64> = None;
    loop {
        let line = match lookahead.take() {
            Some(l) => l,
            None => match snap.next_line().map_err(read_err)? {
                Some(l) => l,
                None => break,
            },
        };
        if !line.complete && !line.too_long {
            torn = Some(line.bytes.len() as u64);
            break;
        }
        if let Some(t) = scan.step(&line, || snap.next_line().map_err(read_err), &mut lookahead)? {
            return Ok(scan.report(t));
        }
    }
    let status = judge_tail(&scan, &checkpoint, snap.size, torn);
    if matches!(status, VerifyStatus::Tampered { .. }) {
        return Ok(scan.report(status));
    }
    let anchored = anchor_state.and_then(|a| judge_anchor(&scan, &a, &checkpoint));
    let status = anchored.unwrap_or(status);
    if matches!(status, VerifyStatus::Tampered { .. }) {
        return Ok(scan.report(status));
    }
    let status = judge_signed(&scan, &snap.note, &snap.intent, check).unwrap_or(status);
    Ok(scan.report(status))
}

/// The keys that sign a log as a verifier follows its rotations.
struct KeyChain {
    /// The keys that may sign at this point of the log.
    current: Vec<VerifierKey>,
    /// Every key that signed at some point (a published head may be older
    /// than the last rotation).
    ever: Vec<VerifierKey>,
}

/// Judge an intact log against a published head and its signed checkpoint
/// (see the module docs): `Some` when either says it is not what was
/// signed or published.
fn judge_signed(
    scan: &Scan<'_>,
    note: &NoteFile,
    intent: &NoteFile,
    check: &SignedCheck,
) -> Option<VerifyStatus> {
    let entries = scan.expected;
    let last = scan.last_seq().unwrap_or(0);
    let tampered = |seq: u64, kind: TamperKind, detail: String| {
        Some(VerifyStatus::Tampered { seq, kind, detail })
    };
    if let Some(p) = &check.since {
        // SECURITY: the published head is what the operator put beyond
        // their own reach; if it is signed, it must be by a key that
        // signed this log (else anyone could publish a head to match).
        if let (Some(n), Some(chain)) = (&p.note, &scan.keys)
            && n.signer_among(&chain.ever).is_none()
        {
            return tampered(
                p.head.seq().unwrap_or(0),
                TamperKind::Signature,
                "the published head is not signed by a trusted key".to_owned(),
            );
        }
        if let Some(seq) = p.head.seq() {
            if scan.origin.as_deref() != Some(p.head.origin.as_str()) {
                return tampered(
                    0,
                    TamperKind::RolledBack,
                    "the log is not the one the published head names (its first entry differs)"
                        .to_owned(),
                );
            }
            if p.head.size > entries {
                return tampered(
                    entries,
                    TamperKind::RolledBack,
                    format!(
                        "the published head names {}; the log holds {}: rolled back or truncated",
                        crate::io_text::counted(p.head.size, "entry", "entries"),
                        crate::io_text::counted(entries, "entry", "entries")
                    ),
                );
            }
            if scan.at_head != Some(p.head.hash) {
                return tampered(
                    seq,
                    TamperKind::RolledBack,
                    format!(
                        "the entry with seq {seq} is not the one the published head names: the log was rewritten up to it"
                    ),
                );
            }
        }
    }
    let chain = scan.keys.as_ref()?;
    let n = match note {
        NoteFile::Missing if entries == 0 => return None,
        NoteFile::Missing => {
            return tampered(
                last,
                TamperKind::Signature,
                format!(
                    "there is no signed checkpoint beside a log of {}",
                    crate::io_text::counted(entries, "entry", "entries")
                ),
            );
        }
        NoteFile::Invalid(why) => return tampered(last, TamperKind::Signature, (*why).to_owned()),
        NoteFile::Note(n) => n,
    };
    let Ok(head) = n.head() else {
        return tampered(
            last,
            TamperKind::Signature,
            "the signed checkpoint is not a checkpoint".to_owned(),
        );
    };
    let behind = head.size < entries;
    if n.signer_among(&chain.current).is_none() {
        let retired = n.signer_among(&chain.ever).is_some();
        // A crash right after a `key_rotated` line leaves the old key's
        // checkpoint behind it; that is judged as behind below.
        if !(retired && behind) {
            return tampered(
                last,
                TamperKind::Signature,
                if retired {
                    "the signed checkpoint is signed by a key rotated away (an old checkpoint put back)"
                        .to_owned()
                } else {
                    "the signed checkpoint is not signed by a trusted key".to_owned()
                },
            );
        }
    }
    let Some(seq) = head.seq() else {
        return tampered(
            0,
            TamperKind::Signature,
            "the signed checkpoint vouches for no entry".to_owned(),
        );
    };
    if scan.origin.as_deref() != Some(head.origin.as_str()) && entries > 0 {
        return tampered(
            0,
            TamperKind::Signature,
            "the signed checkpoint names another log".to_owned(),
        );
    }
    if head.size > entries {
        return tampered(
            entries,
            TamperKind::Truncated,
            format!(
                "the signed checkpoint vouches for {}; the log holds {}",
                crate::io_text::counted(head.size, "entry", "entries"),
                crate::io_text::counted(entries, "entry", "entries")
            ),
        );
    }
    if scan.at_note != Some(head.hash) {
        return tampered(
            seq,
            TamperKind::Edited,
            format!("the entry with seq {seq} does not match the signed checkpoint"),
        );
    }
    if !behind {
        return None;
    }
    // One line past the signed checkpoint, and a trusted key's intent for
    // exactly the log as it is: a gate crashed between writing that line
    // and signing it (its next append signs it). Anything else past the
    // signature was written by someone without the key.
    let tail = Head {
        origin: head.origin.clone(),
        size: entries,
        hash: scan.last_sha,
    };
    let intended = match intent {
        NoteFile::Note(i) => {
            i.signer_among(&chain.ever).is_some() && i.intent_head().as_ref() == Some(&tail)
        }
        NoteFile::Missing | NoteFile::Invalid(_) => false,
    };
    if head.size + 1 == entries && intended {
        return Some(VerifyStatus::Unvouched(Unvouched::CheckpointBehind {
            checkpoint_seq: seq,
        }));
    }
    tampered(
        head.size,
        TamperKind::Signature,
        format!(
            "entries from seq {} on are not covered by a signed checkpoint",
            head.size
        ),
    )
}

/// Judge an intact, checkpoint-consistent log against its anchor: `Some`
/// when the anchor says it was rolled back (or the anchor is bad).
fn judge_anchor(
    scan: &Scan<'_>,
    anchor: &CheckpointState,
    checkpoint: &CheckpointState,
) -> Option<VerifyStatus> {
    let last = scan.last_seq();
    let tampered = |seq: u64, kind: TamperKind, detail: String| {
        Some(VerifyStatus::Tampered { seq, kind, detail })
    };
    let a = match anchor {
        CheckpointState::Invalid(why) => {
            return tampered(last.unwrap_or(0), TamperKind::Anchor, (*why).to_owned());
        }
        CheckpointState::Missing => {
            // Nothing complete was ever written: a new log, or a crash in
            // its very first append (the anchor is written last).
            return if last.is_none() {
                None
            } else {
                tampered(
                    last.unwrap_or(0),
                    TamperKind::Anchor,
                    format!(
                        "the anchor is missing beside a log of {}",
                        crate::io_text::counted(scan.expected, "entry", "entries")
                    ),
                )
            };
        }
        CheckpointState::Valid(a) => a,
    };
    if last.is_none_or(|l| a.seq > l) || a.size > scan.offset {
        return tampered(
            scan.expected,
            TamperKind::RolledBack,
            format!(
                "the log's entries end at {} bytes, {}; its anchor vouches for seq {} at {} bytes",
                scan.offset,
                last.map_or_else(|| "with none".to_owned(), |l| format!("with seq {l}")),
                a.seq,
                a.size
            ),
        );
    }
    match &scan.at_anchor {
        Some((hash, end)) if *hash == a.line_sha256 && *end == a.size => {}
        _ => {
            return tampered(
                a.seq,
                TamperKind::RolledBack,
                format!(
                    "the entry with seq {} is not the one its anchor vouches for (the log was replaced)",
                    a.seq
                ),
            );
        }
    }
    if let CheckpointState::Valid(cp) = checkpoint
        && cp.seq < a.seq
    {
        return tampered(
            cp.seq + 1,
            TamperKind::RolledBack,
            format!(
                "the checkpoint vouches for seq {}, behind its anchor at seq {}",
                cp.seq, a.seq
            ),
        );
    }
    None
}

/// The chain state while scanning.
struct Scan<'k> {
    key: Option<&'k AuditKey>,
    expected: u64,
    link: String,
    prev_line: Vec<u8>,
    line_no: u64,
    offset: u64,
    cp_seq: Option<u64>,
    /// SHA-256 and end offset of the line whose seq is the checkpoint's.
    at_cp: Option<(String, u64)>,
    anchor_seq: Option<u64>,
    /// SHA-256 and end offset of the line whose seq is the anchor's.
    at_anchor: Option<(String, u64)>,
    /// The timestamp of the last intact line.
    last_ts: Option<Timestamp>,
    /// With trusted keys: the keys that sign at this point of the log.
    keys: Option<KeyChain>,
    /// The log's origin (from its line 0).
    origin: Option<String>,
    /// SHA-256 of the last intact line.
    last_sha: [u8; 32],
    /// The seq the signed checkpoint names, and SHA-256 of its line.
    note_seq: Option<u64>,
    at_note: Option<[u8; 32]>,
    /// The seq a published head names, and SHA-256 of its line.
    head_seq: Option<u64>,
    at_head: Option<[u8; 32]>,
}

impl<'k> Scan<'k> {
    fn new(key: Option<&'k AuditKey>, cp_seq: Option<u64>, anchor_seq: Option<u64>) -> Self {
        Scan {
            key,
            expected: 0,
            link: ZERO_PREV.to_owned(),
            prev_line: Vec::new(),
            line_no: 0,
            offset: 0,
            cp_seq,
            at_cp: None,
            anchor_seq,
            at_anchor: None,
            last_ts: None,
            keys: None,
            origin: None,
            last_sha: [0; 32],
            note_seq: None,
            at_note: None,
            head_seq: None,
            at_head: None,
        }
    }

    fn last_seq(&self) -> Option<u64> {
        self.expected.checked_sub(1)
    }

    fn report(&self, status: VerifyStatus) -> VerifyReport {
        VerifyReport {
            status,
            entries: self.expected,
            last_seq: self.last_seq(),
            head: self.origin.as_ref().map(|origin| Head {
                origin: origin.clone(),
                size: self.expected,
                hash: self.last_sha,
            }),
            bytes: self.offset,
        }
    }

    /// Check one complete line; `Some(status)` on the first problem.
    fn step(
        &mut self,
        line: &RawLine,
        mut peek: impl FnMut() -> Result<Option<RawLine>, AuditError>,
        lookahead: &mut Option<RawLine>,
    ) -> Result<Option<VerifyStatus>, AuditError> {
        self.line_no += 1;
        let n = self.line_no;
        let expected = self.expected;
        let tampered = |seq: u64, kind: TamperKind, detail: String| {
            Ok(Some(VerifyStatus::Tampered { seq, kind, detail }))
        };
        if line.too_long {
            return tampered(
                expected,
                TamperKind::Edited,
                format!("line {n} is longer than the line limit"),
            );
        }
        let Some(f) = ChainFields::parse(line.body()) else {
            return tampered(
                expected,
                TamperKind::Edited,
                format!("line {n} is not a valid audit entry"),
            );
        };
        let link_ok = f.prev == self.link;
        if f.seq == expected && !link_ok {
            return if expected == 0 {
                tampered(
                    0,
                    TamperKind::Edited,
                    format!("the prev of line {n} is not 64 zeros"),
                )
            } else {
                tampered(
                    expected - 1,
                    TamperKind::Edited,
                    format!(
                        "the prev of line {n} (seq {expected}) does not match the hash of line {} (seq {})",
                        n - 1,
                        expected - 1
                    ),
                )
            };
        }
        if f.seq != expected && link_ok {
            return tampered(
                expected,
                TamperKind::Edited,
                format!(
                    "line {n} carries seq {} where seq {expected} belongs, yet links to the line before",
                    f.seq
                ),
            );
        }
        if f.seq < expected {
            return if line.bytes == self.prev_line {
                tampered(
                    expected,
                    TamperKind::Duplicated,
                    format!("line {n} repeats line {} (seq {})", n - 1, f.seq),
                )
            } else {
                tampered(
                    expected,
                    TamperKind::Inserted,
                    format!(
                        "line {n} carries seq {} where seq {expected} belongs",
                        f.seq
                    ),
                )
            };
        }
        if f.seq > expected {
            *lookahead = peek()?;
            let next_seq = lookahead
                .as_ref()
                .filter(|l| l.complete && !l.too_long)
                .and_then(|l| ChainFields::parse(l.body()).map(|nf| (nf.seq, l)));
            return match next_seq {
                Some((s, next)) if s == expected => {
                    if link_hash(self.key, &next.bytes) == f.prev {
                        tampered(
                            expected,
                            TamperKind::Reordered,
                            format!(
                                "line {n} (seq {}) comes before line {} (seq {expected})",
                                f.seq,
                                n + 1
                            ),
                        )
                    } else {
                        tampered(
                            expected,
                            TamperKind::Inserted,
                            format!("line {n} carries seq {} before seq {expected}", f.seq),
                        )
                    }
                }
                _ => tampered(
                    expected,
                    TamperKind::Deleted,
                    format!("seq {expected} to {} missing before line {n}", f.seq - 1),
                ),
            };
        }
        // The line is intact and in place; its time must not run backwards.
        // (`ChainFields::parse` checked that `ts` parses.)
        let ts: Option<Timestamp> = f.ts.parse().ok();
        if let (Some(ts), Some(last)) = (ts, self.last_ts)
            && ts < last
        {
            return tampered(
                expected,
                TamperKind::Clock,
                format!(
                    "line {n} (seq {expected}) is stamped earlier than seq {}",
                    expected.saturating_sub(1)
                ),
            );
        }
        // SECURITY: a writer never enables a window at or after its end
        // (it refuses to), so such an entry was written by a clock set
        // back past the window's end, or edited in.
        if f.event == "window_enabled"
            && let (Some(ts), Some(e)) = (ts, parse_entry(line.body()))
            && let AuditEvent::WindowEnabled { end, .. } = e.event
            && ts >= end
        {
            return tampered(
                expected,
                TamperKind::Clock,
                format!(
                    "line {n} (seq {expected}) enables a window at or after its own end; a writer refuses to"
                ),
            );
        }
        if f.event == "key_rotated"
            && let Some(chain) = &mut self.keys
            && let Err(detail) = follow_rotation(chain, expected, &f.prev, line.body())
        {
            return tampered(expected, TamperKind::KeyRotation, detail);
        }
        let sha: [u8; 32] = Sha256::digest(&line.bytes).into();
        if expected == 0 {
            self.origin = Some(origin_of(&line.bytes));
        }
        if self.note_seq == Some(expected) {
            self.at_note = Some(sha);
        }
        if self.head_seq == Some(expected) {
            self.at_head = Some(sha);
        }
        self.last_sha = sha;
        self.last_ts = ts.or(self.last_ts);
        self.offset += line.bytes.len() as u64;
        if self.cp_seq == Some(f.seq) || self.anchor_seq == Some(f.seq) {
            let mark = (sha256_hex(&line.bytes), self.offset);
            if self.anchor_seq == Some(f.seq) {
                self.at_anchor = Some(mark.clone());
            }
            if self.cp_seq == Some(f.seq) {
                self.at_cp = Some(mark);
            }
        }
        self.link = link_hash(self.key, &line.bytes);
        self.prev_line.clone_from(&line.bytes);
        self.expected += 1;
        Ok(None)
    }
}

/// SECURITY: a `key_rotated` entry hands the log to a new key only when
/// the key it retires signs the log at this point and signed the rotation
/// statement (this entry's seq and `prev`, and the new key): a key pasted
/// in by someone without the current key does not verify.
fn follow_rotation(chain: &mut KeyChain, seq: u64, prev: &str, body: &[u8]) -> Result<(), String> {
    let Some(AuditEvent::KeyRotated {
        old_key,
        new_key,
        signature,
    }) = parse_entry(body).map(|e| e.event)
    else {
        return Err(format!("seq {seq} is not a valid key_rotated entry"));
    };
    let (Ok(old), Ok(new)) = (VerifierKey::parse(&old_key), VerifierKey::parse(&new_key)) else {
        return Err(format!("seq {seq} names a key that is not a verifier key"));
    };
    if !chain.current.contains(&old) {
        return Err(format!(
            "seq {seq} retires key {}, which does not sign the log there",
            old.id()
        ));
    }
    let sig = B64.decode(signature.as_bytes()).unwrap_or_default();
    if !old.verify(rotation_statement(seq, prev, &new_key).as_bytes(), &sig) {
        return Err(format!(
            "the rotation at seq {seq} is not signed by the key it retires ({})",
            old.id()
        ));
    }
    chain.current.retain(|k| *k != old);
    if !chain.current.contains(&new) {
        chain.current.push(new.clone());
    }
    if !chain.ever.contains(&new) {
        chain.ever.push(new);
    }
    Ok(())
}

/// Judge the end of an intact chain against the checkpoint.
fn judge_tail(
    scan: &Scan<'_>,
    checkpoint: &CheckpointState,
    size: u64,
    torn: Option<u64>,
) -> VerifyStatus {
    let last = scan.last_seq();
    let next = scan.expected;
    let tampered =
        |seq: u64, kind: TamperKind, detail: String| VerifyStatus::Tampered { seq, kind, detail };
    let cp = match checkpoint {
        CheckpointState::Invalid(why) => {
            return tampered(last.unwrap_or(0), TamperKind::Checkpoint, (*why).to_owned());
        }
        CheckpointState::Missing => {
            return match (last, torn) {
                // SECURITY: entries and no checkpoint is what a log cut back
                // to its first lines with the checkpoint deleted looks like.
                (Some(l), _) => tampered(
                    l,
                    TamperKind::Checkpoint,
                    format!(
                        "there is no checkpoint beside a log of {}",
                        crate::io_text::counted(scan.expected, "entry", "entries")
                    ),
                ),
                (None, Some(torn_bytes)) => VerifyStatus::TornTail { torn_bytes },
                (None, None) => VerifyStatus::Intact,
            };
        }
        CheckpointState::Valid(cp) => cp,
    };
    let ahead = last.is_none_or(|l| cp.seq > l) || cp.size > scan.offset;
    if ahead {
        return if size < cp.size {
            tampered(
                next,
                TamperKind::Truncated,
                format!(
                    "the checkpoint vouches for seq {} and {} bytes; the log holds {} bytes, {}",
                    cp.seq,
                    cp.size,
                    size,
                    crate::io_text::counted(scan.expected, "complete entry", "complete entries")
                ),
            )
        } else {
            tampered(
                next,
                TamperKind::Edited,
                format!(
                    "the checkpoint vouches for seq {}; the log's entries end at line {} (seq {})",
                    cp.seq,
                    scan.line_no,
                    last.map_or_else(|| "none".to_owned(), |l| l.to_string())
                ),
            )
        };
    }
    let Some((hash, end)) = &scan.at_cp else {
        // Unreachable when not ahead (the line with the checkpoint's seq
        // was seen); reported as checkpoint damage rather than panicking.
        return tampered(
            cp.seq,
            TamperKind::Checkpoint,
            "the checkpoint's seq is not in the log".to_owned(),
        );
    };
    if *hash != cp.line_sha256 || *end != cp.size {
        return tampered(
            cp.seq,
            TamperKind::Edited,
            format!("the line with seq {} does not match the checkpoint", cp.seq),
        );
    }
    match (torn, last) {
        (Some(torn_bytes), _) => VerifyStatus::TornTail { torn_bytes },
        (None, Some(l)) if l == cp.seq => VerifyStatus::Intact,
        _ => VerifyStatus::Unvouched(Unvouched::CheckpointBehind {
            checkpoint_seq: cp.seq,
        }),
    }
}
