//! The work budget of one [`Redactor::redact`](super::Redactor::redact)
//! call: what bounds the cost of redacting one field whatever its text.
//!
//! Why: record text is untrusted, and a scan that is linear on ordinary text
//! can still be made to try a shape at every other byte (`1 2 3 4 …`), or,
//! for a shape whose candidates can nest, to walk far from each start. The
//! engine is written to be linear with a small constant (see `trigger.rs`,
//! `validate.rs`), but a budget makes that a bound rather than a hope: every
//! unit of work is counted, and when a field's count passes its limit the
//! scan stops and the field is masked whole (fail closed).
//!
//! What is counted, one *step* each:
//!
//! - every byte an anchored built-in DFA reads (walked by hand in
//!   `shapes.rs`, so the count is exact, not an estimate);
//! - per "which shapes start here" question, the bytes it may read (at most
//!   [`SCAN_REACH`]);
//! - per check (Luhn, mod-97, ranges, context), the candidate's length;
//! - per user-pattern search, the bytes between where it started and where
//!   it ended (or the end of the text);
//! - per keyword pass, the text's length;
//! - every later pass and settle window, likewise.
//!
//! The limit is [`STEPS_PER_BYTE`] per byte of the field plus
//! [`STEPS_BASE`]. Measured (`benches/README.md`): ordinary text costs
//! 2-4 steps a byte, the densest adversarial text the tests build (digit
//! runs split by blanks, card-shaped groups, dotted quads, colons) 10-30;
//! the limit leaves a wide margin over both and still bounds the time of
//! one field to a few milliseconds per kilobyte at worst.

use std::cell::{Cell, RefCell};

use super::table_memo::TableMemo;

/// Steps allowed per byte of the text being redacted.
pub const STEPS_PER_BYTE: u64 = 128;

/// Steps allowed on top of the per-byte allowance (short texts with a long
/// user pattern, settle windows).
pub const STEPS_BASE: u64 = 1 << 16;

/// The most bytes a "which shapes start here" question reads: the longest
/// scan prefix of the built-in pack is well under this.
pub(crate) const SCAN_REACH: usize = 64;

/// A step counter with a limit. Shared by reference through one call
/// (a `Cell`: the scan's closures read and charge it).
#[derive(Debug)]
pub(crate) struct Work {
    steps: Cell<u64>,
    limit: u64,
    /// What the table header lookups learned about the rows of the text
    /// being scanned (keyed by the text, so a lookup on another text
    /// starts afresh).
    tables: RefCell<TableMemo>,
}

impl Work {
    /// A budget for redacting a text of `len` bytes.
    pub(crate) fn for_len(len: usize) -> Work {
        Work::with_limit(
            (len as u64)
                .saturating_mul(STEPS_PER_BYTE)
                .saturating_add(STEPS_BASE),
        )
    }

    /// A budget of `limit` steps.
    pub(crate) fn with_limit(limit: u64) -> Work {
        Work {
            steps: Cell::new(0),
            limit,
            tables: RefCell::new(TableMemo::default()),
        }
    }

    /// No limit: for callers outside a redaction call (tests, `settle`
    /// probes that charge their own call's budget instead).
    #[cfg(test)]
    pub(crate) fn unlimited() -> Work {
        Work::with_limit(u64::MAX)
    }

    /// Charges `n` steps.
    #[inline]
    pub(crate) fn charge(&self, n: usize) {
        self.steps.set(self.steps.get().saturating_add(n as u64));
    }

    /// Spends the whole budget: for a question the scan could not answer,
    /// so that the caller fails closed as on any spent budget.
    pub(crate) fn exhaust(&self) {
        self.steps.set(u64::MAX);
    }

    /// The budget is spent: the caller stops and fails closed.
    #[inline]
    pub(crate) fn spent(&self) -> bool {
        self.steps.get() > self.limit
    }

    /// Forget what the table memo learned: a scan starts on a text that
    /// may sit where an earlier one did (a pass's output in the freed
    /// buffer of the one before).
    pub(crate) fn forget_tables(&self) {
        *self.tables.borrow_mut() = TableMemo::default();
    }

    /// The table memo, for one lookup at a time.
    pub(crate) fn tables(&self) -> std::cell::RefMut<'_, TableMemo> {
        self.tables.borrow_mut()
    }

    /// Steps charged so far.
    pub(crate) fn steps(&self) -> u64 {
        self.steps.get()
    }
}
