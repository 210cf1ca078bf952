//! Errors of the audit log. Messages are lowercase, one line, name the path
//! and the cause, and never quote a line of the log.

use std::io;
use std::path::{Path, PathBuf};

use super::verify::TamperKind;

/// An audit-log failure. Any of these means: the change the caller wanted
/// to record must not take effect (fail closed).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// The log's folder does not exist (it is never created implicitly).
    #[error("cannot open audit log `{path}`: folder `{parent}` does not exist")]
    MissingParent {
        /// The log path.
        path: PathBuf,
        /// Its missing parent folder.
        parent: PathBuf,
    },
    /// The log path exists but is not a regular file (a device, a FIFO, a
    /// folder, ...).
    #[error("cannot open audit log `{path}`: not a regular file")]
    NotRegularFile {
        /// The log path.
        path: PathBuf,
    },
    /// Opening the log failed.
    #[error("cannot open audit log `{path}`: {cause}")]
    Open {
        /// The log path.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The cause, lowercase.
        cause: String,
    },
    /// Reading the log failed.
    #[error("cannot read audit log `{path}`: {cause}")]
    Read {
        /// The log path.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The cause, lowercase.
        cause: String,
    },
    /// Writing or syncing an entry failed.
    #[error("cannot append to audit log `{path}`: {cause}")]
    Append {
        /// The log path.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The cause, lowercase.
        cause: String,
    },
    /// Writing the checkpoint failed.
    #[error("cannot write audit checkpoint `{path}`: {cause}")]
    Checkpoint {
        /// The checkpoint path.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The cause, lowercase.
        cause: String,
    },
    /// Another writer held the lock for longer than the lock timeout.
    #[error("cannot append to audit log `{path}`: lock not acquired within {waited_ms} ms")]
    LockTimeout {
        /// The log path.
        path: PathBuf,
        /// How long we waited.
        waited_ms: u128,
    },
    /// The last line has no newline: a crash mid-write. Appending would
    /// chain onto garbage, so it is refused until an operator repairs it.
    #[error(
        "audit log `{path}` ends with a torn line (a crash mid-write); run `tracegate audit verify` and repair it before appending"
    )]
    TornTail {
        /// The log path.
        path: PathBuf,
    },
    /// The file at the path is no longer the one this writer opened (it was
    /// deleted or renamed). Nothing is written; reopen the log.
    #[error("audit log `{path}` was {what} since it was opened; nothing written, reopen it")]
    Replaced {
        /// The log path.
        path: PathBuf,
        /// `deleted` or `replaced`.
        what: &'static str,
    },
    /// The last line is not an audit entry, so its seq cannot be learnt.
    #[error(
        "audit log `{path}` ends with a line that is not an audit entry; run `tracegate audit verify`"
    )]
    CorruptTail {
        /// The log path.
        path: PathBuf,
    },
    /// The log does not agree with its checkpoint (truncated, edited tail,
    /// forged or missing checkpoint); appending would launder that.
    #[error(
        "audit log `{path}` does not match its checkpoint ({detail}); run `tracegate audit verify`"
    )]
    CheckpointMismatch {
        /// The log path.
        path: PathBuf,
        /// What disagrees.
        detail: String,
    },
    /// The log's chain is broken (found while reading entries back).
    #[error("audit log `{path}` is broken at seq {seq}: {kind}; run `tracegate audit verify`")]
    Broken {
        /// The log path.
        path: PathBuf,
        /// First seq that cannot be trusted.
        seq: u64,
        /// What kind of damage.
        kind: TamperKind,
    },
    /// A line longer than [`super::MAX_LINE_BYTES`] would be written.
    #[error("cannot append to audit log `{path}`: entry of {len} bytes exceeds the line limit")]
    EntryTooLong {
        /// The log path.
        path: PathBuf,
        /// The line's length.
        len: usize,
    },
    /// The checkpoint says the log is keyed but no key was given.
    #[error("audit log `{path}` is keyed; a key file is required to verify or append")]
    KeyRequired {
        /// The log path.
        path: PathBuf,
    },
    /// The key file could not be read.
    #[error("cannot read audit key file `{path}`: {cause}")]
    Key {
        /// The key file.
        path: PathBuf,
        /// The cause, lowercase.
        cause: String,
    },
    /// The lock's private folder or file cannot be used (created, owned
    /// by another user, open to other users, not a regular file, ...).
    #[error("cannot use the audit lock `{path}`: {cause}")]
    Lock {
        /// The lock folder or file.
        path: PathBuf,
        /// The cause, lowercase.
        cause: String,
    },
    /// The log (or its checkpoint) is behind its anchor, or the anchor is
    /// missing or not authentic: the log was rolled back, replaced or
    /// deleted. Appending would launder that.
    #[error(
        "audit log `{path}` does not match its anchor `{anchor}` ({detail}); run `tracegate audit verify --anchor`"
    )]
    AnchorMismatch {
        /// The log path.
        path: PathBuf,
        /// The anchor path.
        anchor: PathBuf,
        /// What disagrees.
        detail: String,
    },
    /// Writing the anchor failed.
    #[error("cannot write audit anchor `{path}`: {cause}")]
    Anchor {
        /// The anchor path.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The cause, lowercase.
        cause: String,
    },
    /// The anchor lies inside the log's folder, where whoever can roll the
    /// log back can roll the anchor back too.
    #[error(
        "audit anchor `{anchor}` is inside the audit log's folder `{folder}`; keep it outside (another folder, disk or host)"
    )]
    AnchorPlacement {
        /// The anchor path.
        anchor: PathBuf,
        /// The log's folder.
        folder: PathBuf,
    },
    /// The clock says now is earlier than the log's last entry: an entry
    /// stamped now would make time run backwards in the log, so nothing is
    /// written (and nothing that needs an entry happens) until it catches up.
    #[error(
        "cannot append to audit log `{path}`: the clock is {behind_ms} ms behind its last entry (seq {last_seq}); nothing written until the clock catches up"
    )]
    ClockBehind {
        /// The log path.
        path: PathBuf,
        /// Seq of the last entry.
        last_seq: u64,
        /// How far behind, in milliseconds.
        behind_ms: i64,
    },
    /// The clock's high-water mark beside the log (`FILE.clock`) is not
    /// one (not a regular file, or not a mark), or could not be written:
    /// full capture stays off until it is fixed or removed.
    #[error("audit clock mark `{path}` cannot be used: {detail}")]
    HighWater {
        /// The mark's path.
        path: PathBuf,
        /// What is wrong, lowercase.
        detail: String,
    },
    /// A `window_enabled` entry would be stamped at or after the window's
    /// end, or the log already vouches for a time at or past it (its newest
    /// entry, its clock mark): the window has ended, whatever the clock
    /// says, so it is not enabled.
    #[error(
        "cannot append to audit log `{path}`: window `{window}` has ended (the log vouches for a time at or past its end); not enabled"
    )]
    WindowEnded {
        /// The log path.
        path: PathBuf,
        /// The window id (a policy identifier).
        window: String,
    },
    /// The signing key (`[audit] signing_key`) cannot be used: missing,
    /// unreadable, open to group or others, or not an Ed25519 key. Full
    /// capture stays off, as with a log that cannot be written.
    #[error("cannot use audit signing key `{path}`: {cause}")]
    SigningKey {
        /// The key file.
        path: PathBuf,
        /// The cause, lowercase (never a byte of the key).
        cause: String,
    },
    /// A public key file cannot be used.
    #[error("cannot use public key `{path}`: {cause}")]
    PublicKey {
        /// The key file.
        path: PathBuf,
        /// The cause, lowercase.
        cause: String,
    },
    /// A published head (`audit verify --since-head`) cannot be read.
    #[error("cannot use published head `{path}`: {cause}")]
    PublishedHead {
        /// The file.
        path: PathBuf,
        /// The cause, lowercase.
        cause: String,
    },
    /// The log's signed checkpoint does not vouch for its tail, or is not
    /// signed by this gate's key: signing after an append would vouch for
    /// entries nobody holding the key wrote, so nothing is appended.
    #[error(
        "audit log `{path}` is not covered by its signed checkpoint ({detail}); run `tracegate audit verify --public-key`"
    )]
    SignedCheckpoint {
        /// The log path.
        path: PathBuf,
        /// What disagrees.
        detail: String,
    },
    /// Writing the signed checkpoint or the intent failed.
    #[error("cannot write signed checkpoint `{path}`: {cause}")]
    Note {
        /// The file.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The cause, lowercase.
        cause: String,
    },
    /// The key is shorter than 32 bytes.
    #[error("audit key{} is {len} bytes; at least 32 are required", .path.as_ref().map(|p| format!(" file `{}`", p.display())).unwrap_or_default())]
    KeyTooShort {
        /// The key file, when loaded from one.
        path: Option<PathBuf>,
        /// The key's length.
        len: usize,
    },
}

impl AuditError {
    /// [`AuditError::Replaced`] of `path`: it was `what` since it was opened.
    pub(crate) fn replaced(path: &Path, what: &'static str) -> AuditError {
        let path = path.to_path_buf();
        AuditError::Replaced { path, what }
    }

    /// [`AuditError::Read`] of `path`, from the I/O error `e`.
    pub fn read(path: &Path, e: &io::Error) -> AuditError {
        AuditError::Read {
            path: path.to_path_buf(),
            kind: e.kind(),
            cause: io_cause(e),
        }
    }

    /// The I/O error kind behind this error, when there is one.
    pub fn io_kind(&self) -> Option<io::ErrorKind> {
        match self {
            AuditError::Open { kind, .. }
            | AuditError::Read { kind, .. }
            | AuditError::Append { kind, .. }
            | AuditError::Checkpoint { kind, .. }
            | AuditError::Anchor { kind, .. }
            | AuditError::Note { kind, .. } => Some(*kind),
            _ => None,
        }
    }
}

pub(crate) use crate::io_text::io_cause;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn io_causes_are_lowercase_without_os_error_suffix() {
        let e = io::Error::from_raw_os_error(28);
        assert_eq!(io_cause(&e), "no space left on device");
        let msg = AuditError::Append {
            path: "/x/audit.jsonl".into(),
            kind: e.kind(),
            cause: io_cause(&e),
        }
        .to_string();
        assert_eq!(
            msg,
            "cannot append to audit log `/x/audit.jsonl`: no space left on device"
        );
    }
}
