//! A sink's counters: what it received, wrote and dropped, and whether it
//! can write now. The sink writer (`writer.rs`) and the daemon's pipeline
//! count into them; the daemon's metrics and status read them.
//!
//! SECURITY: counts, fixed words and error kinds; never a record value.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Lock a mutex whose data stays consistent even if a holder panicked
/// (maps of handles, replaced whole; counters; caches). For the whole
/// daemon: the lowest of its modules that holds mutexes.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

tracegate::named_enum! {
    /// Why a record did not reach a sink; `as_str` is the metrics label
    /// value, `ALL` the order metrics list them in.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum DropReason {
        /// The record is not well formed (dropped for every sink).
        Malformed = "malformed",
        /// An allowlisted field broke its rule (`on_violation = "drop_record"`).
        Violation = "violation",
        /// The sink's queue was full (records or bytes): the newest is dropped.
        QueueFull = "queue_full",
        /// The sink's output failed (open or write error).
        SinkError = "sink_error",
    }
}

tracegate::named_enum! {
    /// What a counted item is: a span (`traces`), a log record (`logs`), or a
    /// JSON Lines record that is not OTLP (`records`: cf, evidence); named
    /// by the label value `as_str`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum ItemSignal {
        /// Spans.
        Traces = "traces",
        /// Log records.
        Logs = "logs",
        /// Records of `/v1/records` and file sources that are not OTLP.
        Records = "records",
    }
}

/// The key of an item count: its signal, why, and the finding rule that
/// said so (`""` for a reason without one: a full queue, a sink error).
pub type ItemKey = (ItemSignal, DropReason, &'static str);

/// Counters of one sink. `in + recovered = out + dropped + queued +
/// unflushed + spooled`.
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
    /// Records waiting in the sink's spool now (OTLP sinks with
    /// `spool_dir`).
    pub spooled: AtomicU64,
    /// Bytes of the spool's entries now.
    pub spooled_bytes: AtomicU64,
    /// Records found in the spool when it was opened (left by an earlier
    /// run): not judged by this process, delivered or dropped by it.
    pub recovered: AtomicU64,
    /// Export attempts that failed and were retried (or spooled for a
    /// later attempt).
    pub retries: AtomicU64,
    /// The last offer was refused and the writer has not taken a record
    /// since: the queue counts as full.
    pub saturated: std::sync::atomic::AtomicBool,
    /// Why the sink cannot write now (an error kind, a fixed phrase);
    /// `None` while it can.
    health: Mutex<Option<String>>,
    /// Items (spans, log records, records) not written, by signal, reason
    /// and rule. SECURITY: keys are fixed words and stable rule names.
    items_dropped: Mutex<BTreeMap<ItemKey, u64>>,
    /// Fields removed from items that were written, by signal and rule.
    fields_stripped: Mutex<BTreeMap<(ItemSignal, &'static str), u64>>,
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

    /// Count `n` items of `signal` not written for `why`, under `rule`
    /// (a stable finding rule name, or `""`).
    pub fn drop_items(&self, signal: ItemSignal, why: DropReason, rule: &'static str, n: u64) {
        if n == 0 {
            return;
        }
        let mut m = self
            .items_dropped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *m.entry((signal, why, rule)).or_default() += n;
    }

    /// Count one field removed under each of `rules` (stable finding rule
    /// names) from items of `signal` that were written.
    pub fn strip_fields(&self, signal: ItemSignal, rules: impl Iterator<Item = &'static str>) {
        let mut m = self
            .fields_stripped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for rule in rules {
            *m.entry((signal, rule)).or_default() += 1;
        }
    }

    /// Every item count so far, in key order.
    pub fn items_dropped(&self) -> Vec<(ItemKey, u64)> {
        self.items_dropped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(k, v)| (*k, *v))
            .collect()
    }

    /// Every stripped-field count so far, in key order.
    pub fn fields_stripped(&self) -> Vec<((ItemSignal, &'static str), u64)> {
        self.fields_stripped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .map(|(k, v)| (*k, *v))
            .collect()
    }
}
