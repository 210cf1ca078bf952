//! Signed checkpoints: the signed-note text format and the log's head.
//!
//! A **signed note** is a text ending in `\n`, a blank line, and one or
//! more signature lines `— <key name> <base64(key id (4 bytes, big-endian)
//! || signature)>` (em dash U+2014, space). The text is what is signed.
//! Notes are UTF-8 with no control character but `\n`. This is the format
//! of Go's checksum database and of transparency-log checkpoints, so any
//! signed-note verifier reads ours.
//!
//! A log's **checkpoint note** (`FILE.checkpoint.note`) is a note whose
//! text is the log's head, three lines:
//!
//! ```text
//! tracegate-audit/<first 16 hex digits of SHA-256 of the log's line 0>
//! <entries in the log>
//! <base64 of the SHA-256 of the last line's raw bytes, its `\n` included>
//! ```
//!
//! The log is a hash chain, not a Merkle tree: the third line, where a
//! transparency log puts its tree's root hash, is the chain's head (each
//! line holds the hash of the line before it, so the last line's hash
//! commits to every line of an unkeyed chain). The origin names the log
//! by its first line, so a head of one log is never taken for another's.
//!
//! An **intent** (`FILE.checkpoint.intent`) is a note the gate signs
//! *before* it writes a line: its text is `tracegate-audit-intent` and
//! then the head the log will have once the line is in. It is not a
//! checkpoint (its first line is no log's origin). It lets a gate that
//! crashed between writing a line and signing its checkpoint recover
//! without ever signing a line it did not write: see
//! [`crate::audit::AuditLog::append`].
//!
//! A **rotation statement** is the text the old key signs inside a
//! `key_rotated` entry: `tracegate-audit-key-rotated/v1`, the entry's
//! seq, its `prev` and the new verifier key, one a line.

use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use sha2::{Digest, Sha256};

use super::fsx::{MAX_SMALL_FILE, OpenFail, read_small};
use super::sign::{SigningKey, VerifierKey, check_name};

/// The first word of every checkpoint origin.
pub const ORIGIN_PREFIX: &str = "tracegate-audit/";
/// The first line of an intent.
const INTENT_LINE: &str = "tracegate-audit-intent";
/// The first line of a rotation statement.
const ROTATION_LINE: &str = "tracegate-audit-key-rotated/v1";
/// The most signature lines a note may carry (the format asks verifiers to
/// accept at least 16).
const MAX_SIGNATURES: usize = 16;
/// The em dash that starts a signature line, and the space after it.
const SIG_PREFIX: &str = "\u{2014} ";

/// `FILE.checkpoint.note` for a log at `FILE`.
pub fn note_path(log: &Path) -> PathBuf {
    with_suffix(log, ".checkpoint.note")
}

/// `FILE.checkpoint.intent` for a log at `FILE`.
pub fn intent_path(log: &Path) -> PathBuf {
    with_suffix(log, ".checkpoint.intent")
}

fn with_suffix(log: &Path, suffix: &str) -> PathBuf {
    let mut s = log.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The origin of the log whose line 0 has these raw bytes (with `\n`).
pub fn origin_of(line0: &[u8]) -> String {
    let d = Sha256::digest(line0);
    format!("{ORIGIN_PREFIX}{}", &hex::encode(d)[..16])
}

/// A log's head: what a checkpoint says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The log's origin ([`origin_of`] its line 0).
    pub origin: String,
    /// Entries in the log (the last one's seq plus one).
    pub size: u64,
    /// SHA-256 of the last entry's raw bytes (with `\n`).
    pub hash: [u8; 32],
}

impl Head {
    /// The seq of the last entry the head names (`None` for size 0).
    pub fn seq(&self) -> Option<u64> {
        self.size.checked_sub(1)
    }

    /// The checkpoint text: origin, size, base64 hash, one a line.
    pub fn text(&self) -> String {
        format!(
            "{}\n{}\n{}\n",
            self.origin,
            self.size,
            B64.encode(self.hash)
        )
    }

    /// Parse a checkpoint text: exactly three lines, a size without
    /// leading zeros, a 32-byte base64 hash.
    pub fn parse_text(text: &str) -> Option<Head> {
        let body = text.strip_suffix('\n')?;
        let mut lines = body.split('\n');
        let (origin, size, hash) = (lines.next()?, lines.next()?, lines.next()?);
        if lines.next().is_some() || origin.is_empty() || origin.contains(['+', ' ']) {
            return None;
        }
        if size.is_empty()
            || !size.bytes().all(|b| b.is_ascii_digit())
            || (size.len() > 1 && size.starts_with('0'))
        {
            return None;
        }
        let size = size.parse().ok()?;
        let hash: [u8; 32] = B64.decode(hash).ok()?.try_into().ok()?;
        Some(Head {
            origin: origin.to_owned(),
            size,
            hash,
        })
    }

    fn intent_text(&self) -> String {
        format!("{INTENT_LINE}\n{}", self.text())
    }
}

/// One signature line of a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteSig {
    /// The key name.
    pub name: String,
    /// The key id.
    pub id: u32,
    /// The signature bytes (after the key id).
    pub sig: Vec<u8>,
}

/// A signed note: its text and its signature lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The signed text, ending in `\n`.
    pub text: String,
    /// The signature lines, in order.
    pub sigs: Vec<NoteSig>,
}

/// Why bytes are not a note. Fixed words only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoteError {
    /// Not a signed note (grammar, encoding, too many signatures).
    #[error("not a signed note")]
    Malformed,
    /// A note whose text is not a checkpoint of a log.
    #[error("the note is not a checkpoint")]
    NotCheckpoint,
}

impl Note {
    /// A note of `text` signed by `key`.
    pub fn sign(text: String, key: &SigningKey) -> Note {
        let sig = key.sign(text.as_bytes()).to_vec();
        let v = key.verifier();
        Note {
            text,
            sigs: vec![NoteSig {
                name: v.name().to_owned(),
                id: v.key_id(),
                sig,
            }],
        }
    }

    /// The note's bytes: text, blank line, signature lines.
    pub fn render(&self) -> String {
        let mut out = self.text.clone();
        out.push('\n');
        for s in &self.sigs {
            let mut raw = s.id.to_be_bytes().to_vec();
            raw.extend_from_slice(&s.sig);
            out.push_str(SIG_PREFIX);
            out.push_str(&s.name);
            out.push(' ');
            out.push_str(&B64.encode(raw));
            out.push('\n');
        }
        out
    }

    /// Parse a signed note (at least one signature line).
    pub fn parse(bytes: &[u8]) -> Result<Note, NoteError> {
        let s = std::str::from_utf8(bytes).map_err(|_| NoteError::Malformed)?;
        if s.chars().any(|c| c.is_control() && c != '\n') || !s.ends_with('\n') {
            return Err(NoteError::Malformed);
        }
        // The text ends at the last blank line.
        let split = s.rfind("\n\n").ok_or(NoteError::Malformed)?;
        let text = &s[..=split];
        let sigs_text = &s[split + 2..];
        let mut sigs = Vec::new();
        for line in sigs_text
            .strip_suffix('\n')
            .unwrap_or(sigs_text)
            .split('\n')
        {
            let rest = line.strip_prefix(SIG_PREFIX).ok_or(NoteError::Malformed)?;
            let (name, b64) = rest.split_once(' ').ok_or(NoteError::Malformed)?;
            check_name(name).map_err(|_| NoteError::Malformed)?;
            let raw = B64.decode(b64).map_err(|_| NoteError::Malformed)?;
            if raw.len() < 5 {
                return Err(NoteError::Malformed);
            }
            let (id, sig) = raw.split_at(4);
            sigs.push(NoteSig {
                name: name.to_owned(),
                id: u32::from_be_bytes([id[0], id[1], id[2], id[3]]),
                sig: sig.to_vec(),
            });
        }
        if sigs.is_empty() || sigs.len() > MAX_SIGNATURES {
            return Err(NoteError::Malformed);
        }
        Ok(Note {
            text: text.to_owned(),
            sigs,
        })
    }

    /// What `key` says of this note: `None` when no signature line is
    /// from it (by name and id), else whether every line from it verifies.
    pub fn signed_by(&self, key: &VerifierKey) -> Option<bool> {
        let mine: Vec<&NoteSig> = self
            .sigs
            .iter()
            .filter(|s| s.name == key.name() && s.id == key.key_id())
            .collect();
        if mine.is_empty() {
            return None;
        }
        Some(
            mine.iter()
                .all(|s| key.verify(self.text.as_bytes(), &s.sig)),
        )
    }

    /// The first of `keys` that signed this note validly.
    pub fn signer_among<'k>(&self, keys: &'k [VerifierKey]) -> Option<&'k VerifierKey> {
        keys.iter().find(|k| self.signed_by(k) == Some(true))
    }

    /// The head a checkpoint note states.
    pub fn head(&self) -> Result<Head, NoteError> {
        let h = Head::parse_text(&self.text).ok_or(NoteError::NotCheckpoint)?;
        if !h.origin.starts_with(ORIGIN_PREFIX) {
            return Err(NoteError::NotCheckpoint);
        }
        Ok(h)
    }

    /// The head an intent states (`None` when the note is no intent).
    pub fn intent_head(&self) -> Option<Head> {
        let rest = self.text.strip_prefix(INTENT_LINE)?.strip_prefix('\n')?;
        Head::parse_text(rest)
    }
}

/// The checkpoint note of `head`, signed by `key`.
pub fn sign_checkpoint(head: &Head, key: &SigningKey) -> Note {
    Note::sign(head.text(), key)
}

/// The intent for `head`, signed by `key`.
pub fn sign_intent(head: &Head, key: &SigningKey) -> Note {
    Note::sign(head.intent_text(), key)
}

/// The text the old key signs in a `key_rotated` entry.
pub fn rotation_statement(seq: u64, prev: &str, new_key: &str) -> String {
    format!("{ROTATION_LINE}\n{seq}\n{prev}\n{new_key}\n")
}

/// A published head as `audit verify --since-head` reads it: a checkpoint
/// note, or a bare checkpoint text (three lines, no signature), as
/// `audit head` prints for a log that is not signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedHead {
    /// The head.
    pub head: Head,
    /// The note, when it is signed.
    pub note: Option<Note>,
}

impl PublishedHead {
    /// Parse a published head.
    pub fn parse(bytes: &[u8]) -> Result<PublishedHead, NoteError> {
        if let Ok(note) = Note::parse(bytes) {
            let head = note.head()?;
            return Ok(PublishedHead {
                head,
                note: Some(note),
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|_| NoteError::Malformed)?;
        let head = Head::parse_text(text).ok_or(NoteError::Malformed)?;
        if !head.origin.starts_with(ORIGIN_PREFIX) {
            return Err(NoteError::NotCheckpoint);
        }
        Ok(PublishedHead { head, note: None })
    }
}

/// A note file as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteFile {
    /// No such file.
    Missing,
    /// There, but not a note (or not a regular file, or too large).
    Invalid(&'static str),
    /// A well-formed note (its signatures not yet checked).
    Note(Note),
}

/// Read the note at `path`, never blocking on a FIFO, never through a
/// symlink (only regular files are ever renamed into place). An I/O error
/// other than "missing" is returned.
pub fn read_note_file(path: &Path) -> std::io::Result<NoteFile> {
    match read_small(path, false, MAX_SMALL_FILE) {
        Ok(None) => Ok(NoteFile::Missing),
        Ok(Some(b)) if b.len() as u64 > MAX_SMALL_FILE => {
            Ok(NoteFile::Invalid("the signed checkpoint is too large"))
        }
        Ok(Some(b)) => Ok(match Note::parse(&b) {
            Ok(n) => NoteFile::Note(n),
            Err(_) => NoteFile::Invalid("the signed checkpoint is not a signed note"),
        }),
        Err(OpenFail::NotRegular) => Ok(NoteFile::Invalid(
            "the signed checkpoint is not a regular file (a FIFO, a device, a folder or a symlink)",
        )),
        Err(OpenFail::Io(e)) => Err(e),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::audit::sign::tests::{PETER_VKEY, peter};

    const TEXT: &str = "If you think cryptography is the answer to your problem,\n\
                        then you don't know what your problem is.\n";

    /// The signed-note format's published example (golang.org/x/mod
    /// sumdb/note): Ed25519 is deterministic, so our note for the same key
    /// and text is byte for byte the published one.
    #[test]
    fn signing_reproduces_the_published_note() {
        let want = format!(
            "{TEXT}\n\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
        );
        let note = Note::sign(TEXT.to_owned(), &peter());
        assert_eq!(note.render(), want);
        let parsed = Note::parse(want.as_bytes()).unwrap();
        assert_eq!(parsed, note);
        let v = VerifierKey::parse(PETER_VKEY).unwrap();
        assert_eq!(parsed.signed_by(&v), Some(true));
    }

    /// The published note with a second signature by a key we do not know
    /// (EnochRoot): ours is found, the other is ignored.
    #[test]
    fn unknown_signatures_are_ignored_and_known_ones_checked() {
        let peter_sig = "\u{2014} PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n";
        let enoch_sig = "\u{2014} EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n";
        let v = VerifierKey::parse(PETER_VKEY).unwrap();
        let both = Note::parse(format!("{TEXT}\n{peter_sig}{enoch_sig}").as_bytes()).unwrap();
        assert_eq!(both.signed_by(&v), Some(true));
        let enoch =
            VerifierKey::parse("EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop")
                .unwrap();
        assert_eq!(both.signed_by(&enoch), Some(true));
        let only_enoch = Note::parse(format!("{TEXT}\n{enoch_sig}").as_bytes()).unwrap();
        assert_eq!(only_enoch.signed_by(&v), None);
        // A changed text: the signature no longer verifies.
        let other =
            Note::parse(format!("{}\n{peter_sig}", TEXT.replace("answer", "answers")).as_bytes())
                .unwrap();
        assert_eq!(other.signed_by(&v), Some(false));
    }

    #[test]
    fn malformed_notes_are_refused() {
        let good = Note::sign(TEXT.to_owned(), &peter()).render();
        let sig_line = good[TEXT.len() + 1..].to_owned();
        for bad in [
            TEXT.to_owned(),
            format!("{TEXT}\n"),
            format!("{TEXT}\n{}", &sig_line[..sig_line.len() - 1]),
            format!("\u{1}{TEXT}\n{sig_line}"),
            format!("{TEXT}\n\u{2014} Bad Name AAAAAAAA\n"),
            format!("{TEXT}\n{sig_line}Unexpected line.\n"),
            format!("{TEXT}\n{}", sig_line.repeat(17)),
        ] {
            assert_eq!(
                Note::parse(bad.as_bytes()),
                Err(NoteError::Malformed),
                "{bad:?}"
            );
        }
        assert!(Note::parse(b"\xff\n\n").is_err());
    }

    #[test]
    fn heads_round_trip_and_refuse_near_misses() {
        let h = Head {
            origin: origin_of(b"{\"seq\":0}\n"),
            size: 12,
            hash: [7; 32],
        };
        assert!(h.origin.starts_with(ORIGIN_PREFIX) && h.origin.len() == ORIGIN_PREFIX.len() + 16);
        assert_eq!(Head::parse_text(&h.text()), Some(h.clone()));
        assert_eq!(h.seq(), Some(11));
        let note = sign_checkpoint(&h, &peter());
        let back = Note::parse(note.render().as_bytes()).unwrap();
        assert_eq!(back.head().unwrap(), h);
        // An intent is no checkpoint, and a checkpoint no intent.
        let intent = sign_intent(&h, &peter());
        assert_eq!(intent.head(), Err(NoteError::NotCheckpoint));
        assert_eq!(intent.intent_head(), Some(h.clone()));
        assert_eq!(note.intent_head(), None);
        for bad in [
            "o\n012\nBwcH\n",
            "o\n\nBwcH\n",
            "o\n1\nBwcH\n",
            "o\n1\n",
            &format!("{}extra\n", h.text()),
            &h.text().replace('\n', "\r\n"),
        ] {
            assert_eq!(Head::parse_text(bad), None, "{bad:?}");
        }
    }

    proptest::proptest! {
        /// Hostile bytes never panic the parsers.
        #[test]
        fn arbitrary_bytes_never_panic(b in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            let _ = Note::parse(&b);
            let _ = PublishedHead::parse(&b);
        }

        /// Heads round-trip through their text.
        #[test]
        fn heads_round_trip(size in proptest::prelude::any::<u64>(), hash in proptest::prelude::any::<[u8; 32]>(), line0 in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let h = Head { origin: origin_of(&line0), size, hash };
            proptest::prop_assert_eq!(Head::parse_text(&h.text()), Some(h.clone()));
        }

        /// One byte of a signed checkpoint changed anywhere (text, key name,
        /// key id, signature): it never still verifies under the key.
        #[test]
        fn a_changed_byte_never_verifies(at in proptest::prelude::any::<proptest::sample::Index>(), delta in 1u8..=255) {
            let h = Head { origin: origin_of(b"x\n"), size: 7, hash: [3; 32] };
            let good = sign_checkpoint(&h, &peter()).render().into_bytes();
            let mut bad = good.clone();
            let i = at.index(bad.len());
            bad[i] = bad[i].wrapping_add(delta);
            let v = VerifierKey::parse(PETER_VKEY).unwrap();
            if let Ok(n) = Note::parse(&bad) {
                proptest::prop_assert_ne!(n.signed_by(&v), Some(true));
            }
        }
    }

    #[test]
    fn a_published_head_may_be_bare_or_signed() {
        let h = Head {
            origin: origin_of(b"x\n"),
            size: 3,
            hash: [1; 32],
        };
        let bare = PublishedHead::parse(h.text().as_bytes()).unwrap();
        assert_eq!(bare.head, h);
        assert!(bare.note.is_none());
        let signed =
            PublishedHead::parse(sign_checkpoint(&h, &peter()).render().as_bytes()).unwrap();
        assert_eq!(signed.head, h);
        assert!(signed.note.is_some());
        // Another program's checkpoint is not one of ours.
        let foreign = Head {
            origin: "example.com/log".into(),
            ..h
        };
        assert!(PublishedHead::parse(foreign.text().as_bytes()).is_err());
    }
}
