//! Starting an anchor for a log that already has entries.
//!
//! The appender writes the anchor after every append once `[audit] anchor`
//! is set, and refuses a non-empty log whose anchor is missing (that is
//! what deleting the anchor to hide a rollback looks like). So an operator
//! who adds an anchor to an existing log starts it here, after the log has
//! been verified intact under the writers' lock.

use std::path::Path;
use std::time::Duration;

use super::chain::AuditKey;
use super::checkpoint::{
    Checkpoint, CheckpointState, Mark, read_checkpoint, read_mark, write_mark,
};
use super::error::{AuditError, io_cause};
use super::lock::{LockGuard, open_lock};
use super::verify::{VerifyReport, VerifyStatus, verify};
use super::writer::check_anchor_placement;

/// What [`init_anchor`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnchorInit {
    /// The anchor now vouches for the log up to this seq.
    Written {
        /// The seq it vouches for.
        seq: u64,
    },
    /// The log has no entries; its first append writes the anchor.
    EmptyLog,
    /// An anchor is already there; it is never replaced by hand.
    Exists,
    /// The log is not intact; nothing written (the report says why).
    NotIntact(VerifyReport),
}

/// Start the anchor at `anchor` for the log at `log`: only when there is no
/// anchor yet and the log verifies intact (exit 0), and only for the entries
/// that verification saw, checked again under the writers' lock.
pub fn init_anchor(
    log: &Path,
    key: Option<&AuditKey>,
    anchor: &Path,
    lock_timeout: Duration,
) -> Result<AnchorInit, AuditError> {
    check_anchor_placement(log, anchor)?;
    if read_mark(Mark::Anchor, anchor, log, key)? != CheckpointState::Missing {
        return Ok(AnchorInit::Exists);
    }
    let report = verify(log, key)?;
    if report.status != VerifyStatus::Intact {
        return Ok(AnchorInit::NotIntact(report));
    }
    let Some(last) = report.last_seq else {
        return Ok(AnchorInit::EmptyLog);
    };
    let lock = open_lock(log)?;
    let _guard = LockGuard::exclusive(&lock, log, lock_timeout)?;
    // SECURITY: vouch only for what was verified: if an append slipped in
    // between, the checkpoint moved on and the operator runs this again.
    let cp = match read_checkpoint(log, key)? {
        CheckpointState::Valid(cp) if cp.seq == last => cp,
        _ => {
            return Err(AuditError::CheckpointMismatch {
                path: log.to_path_buf(),
                detail: "the log changed while it was verified; run the command again".to_owned(),
            });
        }
    };
    if read_mark(Mark::Anchor, anchor, log, key)? != CheckpointState::Missing {
        return Ok(AnchorInit::Exists);
    }
    let mark = Checkpoint::anchor(cp.seq, cp.size, cp.line_sha256, key);
    write_mark(anchor, &mark).map_err(|(e, _)| AuditError::Anchor {
        path: anchor.to_path_buf(),
        kind: e.kind(),
        cause: io_cause(&e),
    })?;
    Ok(AnchorInit::Written { seq: cp.seq })
}
