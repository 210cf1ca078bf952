//! The checkpoint beside the log (`FILE.checkpoint`): the seq, size and
//! SHA-256 of the last line, replaced atomically after every append, so a
//! truncated tail or an edited last line is caught.
//!
//! Form: `{"seq":N,"size":BYTES,"line_sha256":"<hex>"}`; a keyed log adds
//! `"hmac":true,"mac":"<hex>"`, an HMAC-SHA256 under the log's key over a
//! domain-separated `seq\nsize\nline_sha256`, so it cannot be forged without
//! the key.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::chain::{AuditKey, checkpoint_mac, checkpoint_mac_ok};
use super::error::{AuditError, io_cause};

/// Largest checkpoint file we read; a real one is under 300 bytes.
const MAX_CHECKPOINT_BYTES: u64 = 4096;

/// What a checkpoint vouches for.
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

impl Checkpoint {
    /// A checkpoint for these facts, with a MAC when `key` is given.
    pub fn new(seq: u64, size: u64, line_sha256: String, key: Option<&AuditKey>) -> Checkpoint {
        let mac = key.map(|k| checkpoint_mac(k, seq, size, &line_sha256));
        Checkpoint {
            seq,
            size,
            line_sha256,
            hmac: key.is_some(),
            mac,
        }
    }
}

/// The state of the checkpoint file as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointState {
    /// No checkpoint file.
    Missing,
    /// The file exists but is not a checkpoint, or its MAC does not verify
    /// under the given key, or a key was given and it has no MAC.
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
    let path = checkpoint_path(log);
    let bytes = match File::open(&path) {
        Ok(f) => {
            let mut buf = Vec::new();
            io::Read::read_to_end(&mut io::Read::take(f, MAX_CHECKPOINT_BYTES + 1), &mut buf)
                .map_err(|e| read_err(&path, &e))?;
            buf
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(CheckpointState::Missing),
        Err(e) => return Err(read_err(&path, &e)),
    };
    if bytes.len() as u64 > MAX_CHECKPOINT_BYTES {
        return Ok(CheckpointState::Invalid("the checkpoint is too large"));
    }
    let Ok(cp) = serde_json::from_slice::<Checkpoint>(&bytes) else {
        return Ok(CheckpointState::Invalid("the checkpoint is not valid"));
    };
    if cp.line_sha256.len() != 64 || !cp.line_sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(CheckpointState::Invalid("the checkpoint is not valid"));
    }
    // SECURITY: with a key, only a checkpoint whose MAC verifies vouches for
    // anything; an unkeyed checkpoint under a keyed verify is a forgery.
    match (key, cp.hmac, cp.mac.as_deref()) {
        (None, false, None) => Ok(CheckpointState::Valid(cp)),
        (None, true, _) => Err(AuditError::KeyRequired {
            path: log.to_path_buf(),
        }),
        (None, false, Some(_)) => Ok(CheckpointState::Invalid("the checkpoint is not valid")),
        (Some(_), false, _) | (Some(_), true, None) => Ok(CheckpointState::Invalid(
            "the checkpoint has no mac but the log is verified with a key",
        )),
        (Some(k), true, Some(mac)) => {
            if checkpoint_mac_ok(k, cp.seq, cp.size, &cp.line_sha256, mac) {
                Ok(CheckpointState::Valid(cp))
            } else {
                Ok(CheckpointState::Invalid(
                    "the checkpoint mac does not verify",
                ))
            }
        }
    }
}

fn read_err(path: &Path, e: &io::Error) -> AuditError {
    AuditError::Read {
        path: path.to_path_buf(),
        kind: e.kind(),
        cause: io_cause(e),
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
    let path = checkpoint_path(log);
    let mut tmp_os: OsString = path.as_os_str().to_owned();
    tmp_os.push(format!(".tmp.{}", std::process::id()));
    let tmp = PathBuf::from(tmp_os);
    let fail = |e: io::Error, renamed: bool| CheckpointWriteError {
        error: AuditError::Checkpoint {
            path: path.clone(),
            kind: e.kind(),
            cause: io_cause(&e),
        },
        renamed,
    };
    let mut body = serde_json::to_vec(cp).map_err(|e| fail(io::Error::other(e), false))?;
    body.push(b'\n');
    let written = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(&body)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(fail(e, false));
    }
    if let Err(e) = fs::rename(&tmp, &path) {
        let _ = fs::remove_file(&tmp);
        return Err(fail(e, false));
    }
    // SECURITY: the rename is durable only once the folder is synced; until
    // then append has not returned Ok, so nothing relies on it.
    sync_dir(log).map_err(|e| fail(e, true))
}

/// fsync the folder holding `log`.
pub(crate) fn sync_dir(log: &Path) -> io::Result<()> {
    let dir = match log.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
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
