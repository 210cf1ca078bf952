//! The tamper-evident audit log.
//!
//! JSON Lines, append-only, one entry per event, each line
//! `{"seq":N,"ts":"...Z","event":"...",<facts>,"prev":"<hex>"}` where
//! `prev` is the SHA-256 (or, with an [`AuditKey`], HMAC-SHA256) of the
//! previous line's raw bytes including its `\n`, and 64 zeros for the first
//! line. After each append, `FILE.checkpoint` is replaced atomically with
//! the last seq, the size and the last line's hash.
//!
//! - [`AuditLog`] appends: lock, read the last line, chain, write, fsync,
//!   checkpoint; Ok only when all of it is durable (fail closed).
//! - [`verify`] streams over a log and says intact, tampered (with the first
//!   bad seq and the kind), torn tail or unvouched.
//! - [`read_entries`] and [`closed_windows`] read entries back.
//!
//! **Invariant:** no entry holds record content: the API takes typed facts
//! ([`AuditEvent`]), never a record, and free text is capped.
//!
//! **Invariant:** the library never reads the clock; callers pass the
//! timestamp of each entry.
//!
//! # Untrusted input
//!
//! A log may be hostile. Reading it never loads it whole: lines longer than
//! [`MAX_LINE_BYTES`] are reported as edited and skipped, and no message
//! quotes a byte of the log, only seqs, line numbers and sizes.

mod chain;
mod checkpoint;
mod closed;
mod entry;
mod error;
mod lines;
mod tail;
mod verify;
mod writer;

pub use chain::{AuditKey, MIN_KEY_LEN, ZERO_PREV, link_hash, sha256_hex};
pub use checkpoint::{Checkpoint, CheckpointState, checkpoint_path, read_checkpoint};
pub use closed::{Entries, closed_windows, read_entries};
pub use entry::{
    AuditEvent, CAUSE_CAP, CUT_MARKER, CloseCause, DenyWhy, Entry, REASON_CAP, ReferencedFile,
    SHORT_CAP, cap, format_ts,
};
pub use error::AuditError;
pub use verify::{TamperKind, Unvouched, VerifyReport, VerifyStatus, verify};
pub use writer::{AppendReceipt, AuditLog, LogSink};

/// The longest line the writer writes and the readers accept (64 KiB). Real
/// entries are a few hundred bytes; free-text facts are capped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
