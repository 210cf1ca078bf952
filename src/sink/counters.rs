//! A sink's counters: what it received, wrote and dropped, and whether it
//! can write now. The sink writer (`writer.rs`) and the daemon's pipeline
//! count into them; the daemon's metrics and status read them.
//!
//! SECURITY: counts, fixed words and error kinds; never a record value.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a record did not reach a sink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// The record is not well formed (dropped for every sink).
    Malformed,
    /// An allowlisted field broke its rule (`on_violation = "drop_record"`).
    Violation,
    /// The sink's queue was full (records or bytes): the newest is dropped.
    QueueFull,
    /// The sink's output failed (open or write error).
    SinkError,
}

impl DropReason {
    /// The label value.
    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::Malformed => "malformed",
            DropReason::Violation => "violation",
            DropReason::QueueFull => "queue_full",
            DropReason::SinkError => "sink_error",
        }
    }

    /// Every reason, in the order metrics list them.
    pub const ALL: [DropReason; 4] = [
        DropReason::Malformed,
        DropReason::Violation,
        DropReason::QueueFull,
        DropReason::SinkError,
    ];
}

/// Counters of one sink. `in = out + dropped + queued + unflushed`.
#[derive(Debug, Default)]
pub struct SinkCounters {
    /// Records judged for the sink.
    pub records_in: AtomicU64,
    /// Records written at standard level.
    pub out_standard: AtomicU64,
    /// Records written at full level.
    pub out_full: AtomicU64,
    /// Records passed with fields removed.
    pub stripped: AtomicU64,
    dropped: [AtomicU64; 4],
    /// Records in the queue now.
    pub queued: AtomicU64,
    /// Bytes in the queue now.
    pub queued_bytes: AtomicU64,
    /// Records the writer took from the queue and has not yet counted out
    /// or dropped (in its write buffer or forwarding batch).
    pub unflushed: AtomicU64,
    /// The last offer was refused and the writer has not taken a record
    /// since: the queue counts as full.
    pub saturated: std::sync::atomic::AtomicBool,
    /// Why the sink cannot write now (an error kind, a fixed phrase);
    /// `None` while it can.
    health: Mutex<Option<String>>,
}

impl SinkCounters {
    /// Count one dropped record.
    pub fn drop_one(&self, why: DropReason) {
        self.dropped[why as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// Count `n` dropped records.
    pub fn drop_n(&self, why: DropReason, n: u64) {
        self.dropped[why as usize].fetch_add(n, Ordering::Relaxed);
    }

    /// Record whether the sink can write (`None`) or why not; returns
    /// whether that changed. SECURITY: callers pass error kinds and fixed
    /// phrases, never a record or a path from one.
    pub fn set_health(&self, error: Option<String>) -> bool {
        let mut h = self
            .health
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let changed = *h != error;
        *h = error;
        changed
    }

    /// Why the sink cannot write, or `None` while it can.
    pub fn health(&self) -> Option<String> {
        self.health
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Records dropped for `why`.
    pub fn dropped(&self, why: DropReason) -> u64 {
        self.dropped[why as usize].load(Ordering::Relaxed)
    }
}
