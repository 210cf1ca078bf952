//! The checkpoint beside the log (`FILE.checkpoint`) and the anchor
//! (`[audit] anchor`, kept outside the log's folder): the seq, size and
//! SHA-256 of the last line, replaced atomically after every append, so a
//! truncated tail or an edited last line is caught (checkpoint) and so is a
//! log put back to an older state together with its checkpoint (anchor).
//!
//! Form of both: `{"seq":N,"size":BYTES,"line_sha256":"<hex>"}`; a keyed
//! log adds `"hmac":true,"mac":"<hex>"`, an HMAC-SHA256 under the log's key
//! over a domain-separated `seq\nsize\nline_sha256` (one domain for the
//! checkpoint, another for the anchor), so neither can be forged without the
//! key nor passed off as the other.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::chain::{ANCHOR_MAC_DOMAIN, AuditKey, CHECKPOINT_MAC_DOMAIN, mark_mac, mark_mac_ok};
use super::error::{AuditError, io_cause};
use super::fsx::{How, MAX_SMALL_FILE, OpenFail, adopt_owner, open_regular, read_small};

/// What a checkpoint (or an anchor) vouches for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Seq of the last line.
    pub seq: u64,
    /// Size of the log in bytes after that line.
    pub size: u64,
    /// Lowercase hex SHA-256 of the last line's raw bytes (with `\n`).
    pub line_sha256: String,
    /// Whether the log is keyed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hmac: bool,
    /// MAC over the facts above (keyed logs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
}

/// Which of the two marks of the log's tail a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    /// `FILE.checkpoint`, beside the log.
    Checkpoint,
    /// `[audit] anchor`, outside the log's folder.
    Anchor,
}

impl Mark {
    fn domain(self) -> &'static [u8] {
        match self {
            Mark::Checkpoint => CHECKPOINT_MAC_DOMAIN,
            Mark::Anchor => ANCHOR_MAC_DOMAIN,
        }
    }

    fn invalid(self, why: Invalid) -> &'static str {
        match (self, why) {
            (Mark::Checkpoint, Invalid::TooLarge) => "the checkpoint is too large",
            (Mark::Checkpoint, Invalid::Malformed) => "the checkpoint is not valid",
            (Mark::Checkpoint, Invalid::NoMac) => {
                "the checkpoint has no mac but the log is verified with a key"
            }
            (Mark::Checkpoint, Invalid::BadMac) => "the checkpoint mac does not verify",
            (Mark::Checkpoint, Invalid::NotRegular) => {
                "the checkpoint is not a regular file (a FIFO, a device, a folder or a symlink)"
            }
            (Mark::Anchor, Invalid::TooLarge) => "the anchor is too large",
            (Mark::Anchor, Invalid::Malformed) => "the anchor is not valid",
            (Mark::Anchor, Invalid::NoMac) => {
                "the anchor has no mac but the log is verified with a key"
            }
            (Mark::Anchor, Invalid::BadMac) => "the anchor mac does not verify",
            (Mark::Anchor, Invalid::NotRegular) => {
                "the anchor is not a regular file (a FIFO, a device, a folder or a symlink)"
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Invalid {
    TooLarge,
    Malformed,
    NoMac,
    BadMac,
    NotRegular,
}

impl Checkpoint {
    /// A checkpoint for these facts, with a MAC when `key` is given.
    pub fn new(seq: u64, size: u64, line_sha256: String, key: Option<&AuditKey>) -> Checkpoint {
        Checkpoint::mark(Mark::Checkpoint, seq, size, line_sha256, key)
    }

    /// An anchor for these facts, with a MAC (in the anchor's domain) when
    /// `key` is given.
    pub fn anchor(seq: u64, size: u64, line_sha256: String, key: Option<&AuditKey>) -> Checkpoint {
        Checkpoint::mark(Mark::Anchor, seq, size, line_sha256, key)
    }

    pub(crate) fn mark(
        kind: Mark,
        seq: u64,
        size: u64,
        line_sha256: String,
        key: Option<&AuditKey>,
    ) -> Checkpoint {
        let mac = key.map(|k| mark_mac(k, kind.domain(), seq, size, &line_sha256));
        Checkpoint {
            seq,
            size,
            line_sha256,
            hmac: key.is_some(),
            mac,
        }
    }
}

/// The state of the checkpoint (or anchor) file as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointState {
    /// No such file.
    Missing,
    /// The file exists but is not a checkpoint, or its MAC does not verify
    /// under the given key, or a key was given and it has no MAC, or it is
    /// not a regular file.
    Invalid(&'static str),
    /// A checkpoint that is well formed (and authentic, when keyed).
    Valid(Checkpoint),
}

/// `FILE.checkpoint` for a log at `FILE`.
pub fn checkpoint_path(log: &Path) -> PathBuf {
    let mut s: OsString = log.as_os_str().to_owned();
    s.push(".checkpoint");
    PathBuf::from(s)
}

/// Read and authenticate the checkpoint of the log at `log`.
///
/// A keyed checkpoint read without a key is [`AuditError::KeyRequired`]:
/// the chain cannot be checked without it.
pub fn read_checkpoint(log: &Path, key: Option<&AuditKey>) -> Result<CheckpointState, AuditError> {
    read_mark(Mark::Checkpoint, &checkpoint_path(log), log, key)
}

/// Read and authenticate the anchor at `anchor` of the log at `log`.
pub fn read_anchor(
    anchor: &Path,
    log: &Path,
    key: Option<&AuditKey>,
) -> Result<CheckpointState, AuditError> {
    read_mark(Mark::Anchor, anchor, log, key)
}

pub(crate) fn read_mark(
    kind: Mark,
    path: &Path,
    log: &Path,
    key: Option<&AuditKey>,
) -> Result<CheckpointState, AuditError> {
    let invalid = |why| Ok(CheckpointState::Invalid(kind.invalid(why)));
    // SECURITY: never block on a FIFO planted at the path, and never read
    // through a symlink: we only ever rename regular files into place.
    let bytes = match read_small(path, false, MAX_SMALL_FILE) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(CheckpointState::Missing),
        Err(OpenFail::NotRegular) => return invalid(Invalid::NotRegular),
        Err(OpenFail::Io(e)) => return Err(AuditError::read(path, &e)),
    };
    if bytes.len() as u64 > MAX_SMALL_FILE {
        return invalid(Invalid::TooLarge);
    }
    let Ok(cp) = serde_json::from_slice::<Checkpoint>(&bytes) else {
        return invalid(Invalid::Malformed);
    };
    if cp.line_sha256.len() != 64 || !cp.line_sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        return invalid(Invalid::Malformed);
    }
    // SECURITY: with a key, only a mark whose MAC verifies vouches for
    // anything; an unkeyed mark under a keyed verify is a forgery.
    match (key, cp.hmac, cp.mac.as_deref()) {
        (None, false, None) => Ok(CheckpointState::Valid(cp)),
        (None, true, _) => Err(AuditError::KeyRequired {
            path: log.to_path_buf(),
        }),
        (None, false, Some(_)) => invalid(Invalid::Malformed),
        (Some(_), false, _) | (Some(_), true, None) => invalid(Invalid::NoMac),
        (Some(k), true, Some(mac)) => {
            if mark_mac_ok(k, kind.domain(), cp.seq, cp.size, &cp.line_sha256, mac) {
                Ok(CheckpointState::Valid(cp))
            } else {
                invalid(Invalid::BadMac)
            }
        }
    }
}

/// Where [`write_checkpoint`] failed, which decides whether the appended
/// line may be rolled back.
#[derive(Debug)]
pub(crate) struct CheckpointWriteError {
    pub(crate) error: AuditError,
    /// The rename happened: the new checkpoint is in place, so the line it
    /// vouches for must stay.
    pub(crate) renamed: bool,
}

/// Replace the checkpoint atomically: write `FILE.checkpoint.tmp.<pid>`,
/// fsync it, rename it over `FILE.checkpoint`, fsync the folder.
pub(crate) fn write_checkpoint(log: &Path, cp: &Checkpoint) -> Result<(), CheckpointWriteError> {
    write_mark(&checkpoint_path(log), cp).map_err(|(e, renamed)| CheckpointWriteError {
        error: AuditError::Checkpoint {
            path: checkpoint_path(log),
            kind: e.kind(),
            cause: io_cause(&e),
        },
        renamed,
    })
}

/// Replace the file at `path` atomically with `cp`: a fresh
/// `PATH.tmp.<pid>` (created exclusively, 0600, never through a symlink),
/// fsync, rename, fsync of the folder. On error, whether the rename already
/// happened.
pub(crate) fn write_mark(path: &Path, cp: &Checkpoint) -> Result<(), (io::Error, bool)> {
    let mut body = serde_json::to_vec(cp).map_err(|e| (io::Error::other(e), false))?;
    body.push(b'\n');
    write_file_atomically(path, &body)
}

/// Replace the file at `path` atomically with `body`, as [`write_mark`]
/// does (the checkpoint, the anchor, the clock's high-water mark).
pub(crate) fn write_file_atomically(path: &Path, body: &[u8]) -> Result<(), (io::Error, bool)> {
    let mut tmp_os: OsString = path.as_os_str().to_owned();
    tmp_os.push(format!(".tmp.{}", std::process::id()));
    let tmp = PathBuf::from(tmp_os);
    let written = (|| {
        // A temporary file left by a crashed process of the same pid is
        // ours to replace; anything else at the name is refused below.
        if fs::symlink_metadata(&tmp).is_ok_and(|m| m.is_file()) {
            fs::remove_file(&tmp)?;
        }
        let mut f = open_regular(&tmp, How::CreateNew).map_err(|e| match e {
            OpenFail::Io(e) => e,
            OpenFail::NotRegular => io::Error::other("a non-regular file holds the temporary name"),
        })?;
        adopt_owner(&tmp, parent_or_dot(path));
        f.write_all(body)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err((e, false));
    }
    if let Err(e) = fs::rename(&tmp, path) {
        let _ = fs::remove_file(&tmp);
        return Err((e, false));
    }
    // SECURITY: the rename is durable only once the folder is synced; until
    // then append has not returned Ok, so nothing relies on it.
    sync_dir(path).map_err(|e| (e, true))
}

/// The folder holding `file` (`.` for a bare name).
pub fn parent_or_dot(file: &Path) -> &Path {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// fsync the folder holding `file`.
pub(crate) fn sync_dir(file: &Path) -> io::Result<()> {
    File::open(parent_or_dot(file))?.sync_all()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_form_and_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("a.jsonl");
        let cp = Checkpoint::new(3, 100, "ab".repeat(32), None);
        write_checkpoint(&log, &cp).unwrap();
        let text = fs::read_to_string(checkpoint_path(&log)).unwrap();
        assert_eq!(
            text,
            format!(
                "{{\"seq\":3,\"size\":100,\"line_sha256\":\"{}\"}}\n",
                "ab".repeat(32)
            )
        );
        assert_eq!(
            read_checkpoint(&log, None).unwrap(),
            CheckpointState::Valid(cp)
        );
        // no temp file left behind
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn keyed_checkpoint_needs_the_key_and_resists_forgery() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("a.jsonl");
        let key = AuditKey::from_bytes(vec![5; 32]).unwrap();
        let cp = Checkpoint::new(3, 100, "ab".repeat(32), Some(&key));
        write_checkpoint(&log, &cp).unwrap();
        assert!(matches!(
            read_checkpoint(&log, Some(&key)).unwrap(),
            CheckpointState::Valid(_)
        ));
        assert!(matches!(
            read_checkpoint(&log, None),
            Err(AuditError::KeyRequired { .. })
        ));
        // forged: same mac, different seq
        let forged = Checkpoint {
            seq: 2,
            ..cp.clone()
        };
        write_checkpoint(&log, &forged).unwrap();
        assert!(matches!(
            read_checkpoint(&log, Some(&key)).unwrap(),
            CheckpointState::Invalid(_)
        ));
        // forged: unkeyed checkpoint under a keyed verify
        write_checkpoint(&log, &Checkpoint::new(3, 100, "ab".repeat(32), None)).unwrap();
        assert!(matches!(
            read_checkpoint(&log, Some(&key)).unwrap(),
            CheckpointState::Invalid(_)
        ));
    }
}
