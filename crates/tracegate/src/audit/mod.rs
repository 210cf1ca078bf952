//! The tamper-evident audit log.
//!
//! JSON Lines, append-only, one entry per event, each line
//! `{"seq":N,"ts":"...Z","event":"...",<facts>,"prev":"<hex>"}` where
//! `prev` is the SHA-256 (or, with an [`AuditKey`], HMAC-SHA256) of the
//! previous line's raw bytes including its `\n`, and 64 zeros for the first
//! line. After each append, `FILE.checkpoint` is replaced atomically with
//! the last seq, the size and the last line's hash, and so is the anchor
//! (`[audit] anchor`, outside the log's folder) when there is one.
//!
//! - [`AuditLog`] appends: lock (`FILE.lock.d/lock`, a private folder),
//!   read the last line, check it against the checkpoint and the anchor,
//!   stamp (time never runs backwards), chain, write, fsync, checkpoint,
//!   anchor; Ok only when all of it is durable (fail closed).
//! - [`verify`] / [`verify_anchored`] stream over a log and say intact,
//!   tampered (with the first bad seq and the kind), torn tail or
//!   unvouched; [`init_anchor`] starts an anchor for an intact log.
//! - [`AuditLog::time_floor`] says what time has surely passed (the newest
//!   entry, the clock's high-water mark `FILE.clock`, the files' times);
//!   gates judge a window's end by it as well as by their clock.
//! - [`read_entries`] and [`closed_windows`] read entries back;
//!   [`LogCursor`] reads only what was appended since its last call, and
//!   [`AuditLog::transact`] does that under the append lock before appending.
//!
//! Every file here is opened without blocking on a FIFO or device and
//! created 0600 (`fsx`).
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

mod anchor;
mod chain;
mod checkpoint;
mod closed;
mod cursor;
mod entry;
mod error;
pub mod fsx;
mod highwater;
mod lines;
mod lock;
mod note;
pub mod ocsf;
mod sign;
mod tail;
mod verify;
mod writer;

pub use anchor::{AnchorInit, init_anchor};
pub use chain::{AuditKey, MIN_KEY_LEN, ZERO_PREV, link_hash, sha256_hex};
pub use checkpoint::{
    Checkpoint, CheckpointState, checkpoint_path, parent_or_dot, read_anchor, read_checkpoint,
};
pub use closed::{Entries, closed_windows, read_entries};
pub use cursor::LogCursor;
pub use entry::{
    AuditEvent, CAUSE_CAP, CUT_MARKER, CloseCause, DenyWhy, Entry, PATH_CAP, REASON_CAP, ReadFile,
    ReferencedFile, SEGMENT_CAP, SHORT_CAP, cap, format_ts,
};
pub use error::AuditError;
pub use highwater::{high_water_path, read_high_water, time_floor};
pub use lock::{lock_dir, lock_path};
pub use note::{
    Head, Note, NoteError, NoteFile, NoteSig, ORIGIN_PREFIX, PublishedHead, intent_path, note_path,
    origin_of, read_note_file, rotation_statement,
};
pub use sign::{KEY_NAME, KeyFormatError, SigningKey, VerifierKey};
pub use verify::{
    SignedCheck, TamperKind, Unvouched, VerifyReport, VerifyStatus, verify, verify_anchored,
    verify_signed,
};
pub use writer::{AppendReceipt, AuditLog, CLOCK_SLACK, Follow, LogSink};

/// The longest line the writer writes and the readers accept (64 KiB). Real
/// entries are a few hundred bytes; free-text facts are capped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
