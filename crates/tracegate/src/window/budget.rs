//! Window budgets shared by every gate that uses one audit log: leases.
//!
//! A window's `max_records` / `max_bytes` bound what all gates sharing the
//! audit log deliver at full level over the window's life, across runs,
//! restarts and concurrent processes. The audit log itself is the ledger:
//!
//! - Before spending anything, a gate takes a **lease** under the log's
//!   lock: it reads what was appended since it last looked (a
//!   [`LogCursor`]), computes what is left of the budget (the budget less
//!   every lease, plus what releases gave back), and appends a
//!   `budget_leased` entry for its share. Only then does it spend from it.
//! - A gate spends its lease locally, without IO.
//! - When it stops using the window (end of run, shutdown, reload, close)
//!   it appends `window_released` with what it spent and gives back the
//!   rest. A lease never given back (a crashed gate) stays counted as
//!   spent: fail closed.
//! - Lease sizes adapt: half of what is left, at least what the record at
//!   hand needs, at most [`LEASE_CAP_RECORDS`] / [`LEASE_CAP_BYTES`], so a
//!   nearly spent budget is not stranded in one process.
//! - When nothing is left in a dimension and no other gate holds any of
//!   it, the window is spent for good: `window_closed` `budget_spent`.
//!
//! The lease step is behind [`BudgetSource`], so a fleet-wide store (or a
//! fixed `floor(budget / replicas)` share) can replace the on-host one
//! ([`LogBudget`]) without touching the runtime.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::Duration;

use jiff::Timestamp;

use crate::audit::{
    AuditError, AuditEvent, AuditKey, AuditLog, CloseCause, DenyWhy, Entry, Follow, LogCursor,
};
use crate::policy::Window;

/// Budget units of full-level content: one unit is one OTLP span, one log
/// record, or a resource or scope that carries content itself; `bytes` are
/// the bytes of those units as written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Units {
    /// Units (records).
    pub records: u64,
    /// Bytes.
    pub bytes: u64,
}

impl Units {
    /// No limit.
    pub const UNLIMITED: Units = Units::new(u64::MAX, u64::MAX);

    /// `records` units of `bytes` bytes.
    pub const fn new(records: u64, bytes: u64) -> Units {
        Units { records, bytes }
    }

    /// `f` of `self` and `other`, measure by measure.
    pub fn zip(self, other: Units, f: impl Fn(u64, u64) -> u64) -> Units {
        Units::new(f(self.records, other.records), f(self.bytes, other.bytes))
    }

    /// Whether `self` fits within `limit` in both measures.
    pub fn fits(self, limit: Units) -> bool {
        self.records <= limit.records && self.bytes <= limit.bytes
    }
}

/// The most records one lease takes.
pub const LEASE_CAP_RECORDS: u64 = 1024;
/// The most bytes one lease takes (beyond what the record at hand needs).
pub const LEASE_CAP_BYTES: u64 = 16 * 1024 * 1024;

/// A window's budget; `None` is unbounded in that measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    /// `max_records`.
    pub records: Option<u64>,
    /// `max_bytes`.
    pub bytes: Option<u64>,
}

impl Budget {
    /// The budget of `w`.
    pub fn of(w: &Window) -> Budget {
        Budget {
            records: w.max_records,
            bytes: w.max_bytes,
        }
    }

    /// Whether the window has any budget (then gates lease it).
    pub fn is_bounded(self) -> bool {
        self.records.is_some() || self.bytes.is_some()
    }

    /// `units` with the unbounded measures set to "no limit".
    pub fn unbounded_as_max(self, units: Units) -> Units {
        Units::new(
            self.records.map_or(u64::MAX, |_| units.records),
            self.bytes.map_or(u64::MAX, |_| units.bytes),
        )
    }
}

/// What the log says about one window's budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WindowBook {
    /// Every lease taken.
    pub leased: Units,
    /// Given back by releases.
    pub returned: Units,
    /// Spent, as releases report it.
    pub spent: Units,
    /// A gate from before leases used the window (it wrote `window_closed`
    /// `shutdown`): what it spent is unknown, so the budget counts as spent.
    pub legacy: bool,
}

impl WindowBook {
    /// Leased and not yet settled by a release (held by live gates, or by
    /// crashed ones, which never give it back).
    pub fn outstanding(&self) -> Units {
        let settled = self.returned.zip(self.spent, |r, s| r + s);
        self.leased.zip(settled, u64::saturating_sub)
    }

    /// What is left to lease under `budget` (unbounded measures: no limit).
    pub fn left(&self, budget: Budget) -> Units {
        let left = |max: Option<u64>, leased: u64, returned: u64| match max {
            None => u64::MAX,
            // SECURITY: unknown spending by an old gate: nothing is left.
            Some(_) if self.legacy => 0,
            Some(m) => m.saturating_sub(leased.saturating_sub(returned)),
        };
        Units {
            records: left(budget.records, self.leased.records, self.returned.records),
            bytes: left(budget.bytes, self.leased.bytes, self.returned.bytes),
        }
    }
}

/// Budgets and closes as the log tells them, folded entry by entry.
#[derive(Debug, Default, Clone)]
pub struct Book {
    windows: HashMap<String, WindowBook>,
    closed: HashMap<String, CloseCause>,
    /// Per window: what each holder (`REPLICA/HOLDER`) leased.
    holders: HashMap<String, BTreeMap<String, Units>>,
}

impl Book {
    /// One window's budget state.
    pub fn window(&self, id: &str) -> WindowBook {
        self.windows.get(id).copied().unwrap_or_default()
    }

    /// Windows closed for good, with the first such cause.
    pub fn closed(&self) -> &HashMap<String, CloseCause> {
        &self.closed
    }

    /// What each holder leased of window `id`, by `REPLICA/HOLDER` (the
    /// entry's `replica_id`, `-` when it names none): the leases a fleet's
    /// budget store must still hold.
    pub fn holders(&self, id: &str) -> Vec<(String, Units)> {
        self.holders
            .get(id)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), *v)).collect())
            .unwrap_or_default()
    }
}

impl Follow for Book {
    fn seen(&mut self, entry: &Entry) {
        match &entry.event {
            AuditEvent::BudgetLeased {
                window,
                holder,
                records,
                bytes,
                ..
            } => {
                let got = Units::new(records.unwrap_or(0), bytes.unwrap_or(0));
                let w = self.windows.entry(window.clone()).or_default();
                w.leased = w.leased.zip(got, u64::saturating_add);
                let name = format!("{}/{holder}", entry.replica_id.as_deref().unwrap_or("-"));
                let h = self
                    .holders
                    .entry(window.clone())
                    .or_default()
                    .entry(name)
                    .or_default();
                *h = h.zip(got, u64::saturating_add);
            }
            AuditEvent::WindowReleased {
                window,
                spent_records,
                spent_bytes,
                returned_records,
                returned_bytes,
                ..
            } => {
                let w = self.windows.entry(window.clone()).or_default();
                let spent = Units::new(*spent_records, *spent_bytes);
                let returned = Units::new(*returned_records, *returned_bytes);
                w.spent = w.spent.zip(spent, u64::saturating_add);
                w.returned = w.returned.zip(returned, u64::saturating_add);
            }
            AuditEvent::WindowClosed { window, cause, .. } => {
                if *cause == CloseCause::Shutdown {
                    self.windows.entry(window.clone()).or_default().legacy = true;
                } else if cause.is_permanent() {
                    self.closed.entry(window.clone()).or_insert(*cause);
                }
            }
            _ => {}
        }
    }
}

/// The audit log a capture writes to, with its reader and the book it
/// keeps from it.
pub struct Ledger {
    log: AuditLog,
    path: PathBuf,
    key: Option<AuditKey>,
    cursor: LogCursor,
    book: Book,
}

crate::io_text::debug_as!(Ledger, |l| "Ledger" {
    path: l.path,
    read_to: l.cursor.offset(),
    ..
});

/// The signing key `[audit] signing_key` names, loaded (`None` without
/// one). SECURITY: a key that cannot be loaded (missing, open to others,
/// not Ed25519) is an error, like a log that cannot be opened: the caller
/// keeps full capture off rather than append unsigned.
pub fn load_signer(
    settings: &crate::policy::AuditSettings,
) -> Result<Option<std::sync::Arc<crate::audit::SigningKey>>, AuditError> {
    settings
        .signing_key
        .as_deref()
        .map(|p| crate::audit::SigningKey::load(p).map(std::sync::Arc::new))
        .transpose()
}

/// Open the log an `[audit]` table names for appending: its HMAC key
/// loaded, its anchor set, its signing key loaded. Every command that
/// appends outside a [`Ledger`] opens it this way.
pub fn open_configured(
    settings: &crate::policy::AuditSettings,
) -> Result<AuditLog<std::fs::File>, AuditError> {
    let key = AuditKey::load_if(settings.key_file.as_deref())?;
    let signer = load_signer(settings)?;
    Ok(AuditLog::open(&settings.path, key, settings.lock_timeout)?
        .with_anchor(settings.anchor.clone())?
        .with_signer(signer))
}

impl Ledger {
    /// Open the log at `path` for appending and read it whole (checking its
    /// chain): a log that cannot be read back might hide a close or a
    /// lease, so it is an error (full capture stays off).
    ///
    /// With `signer`, every append signs the log's checkpoint
    /// ([`AuditLog::with_signer`]).
    pub fn open(
        path: PathBuf,
        key: Option<AuditKey>,
        lock_timeout: Duration,
        anchor: Option<PathBuf>,
        signer: Option<std::sync::Arc<crate::audit::SigningKey>>,
    ) -> Result<Ledger, AuditError> {
        let log = AuditLog::open(&path, key.clone(), lock_timeout)?
            .with_anchor(anchor)?
            .with_signer(signer);
        let mut ledger = Ledger {
            log,
            path,
            key,
            cursor: LogCursor::new(),
            book: Book::default(),
        };
        ledger.follow()?;
        Ok(ledger)
    }

    /// Name `replica_id` in every entry appended from now on (`[fleet]`).
    pub fn set_replica_id(&mut self, replica_id: Option<String>) {
        self.log.set_replica_id(replica_id);
    }

    /// Read what other gates appended since the last read (no lock).
    pub fn follow(&mut self) -> Result<u64, AuditError> {
        let book = &mut self.book;
        self.cursor
            .read_new(&self.path, self.key.as_ref(), |e| book.seen(e))
    }

    /// Append one entry (durable when Ok).
    pub fn append(&mut self, event: &AuditEvent, ts: Timestamp) -> Result<(), AuditError> {
        self.log.append(event, ts).map(|_| ())
    }

    /// Under the log's lock: read what is new, let `decide` name entries
    /// from the up-to-date book, append them.
    pub fn transact<R>(
        &mut self,
        ts: Timestamp,
        decide: impl FnOnce(&Book) -> (Vec<AuditEvent>, R),
    ) -> Result<R, AuditError> {
        let mut out = None;
        self.log
            .transact(&mut self.cursor, &mut self.book, ts, |book| {
                let (events, r) = decide(book);
                out = Some(r);
                events
            })?;
        out.ok_or(AuditError::replaced(&self.path, "unreadable"))
    }

    /// The book as last read.
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// What time the log vouches has passed ([`AuditLog::time_floor`]).
    pub fn time_floor(
        &self,
        file_time: &dyn Fn(std::time::SystemTime) -> Option<Timestamp>,
    ) -> Result<Option<Timestamp>, AuditError> {
        self.log.time_floor(file_time)
    }

    /// Raise the log's clock mark ([`AuditLog::raise_high_water`]).
    pub fn raise_high_water(&mut self, ts: Timestamp) -> Result<Timestamp, AuditError> {
        self.log.raise_high_water(ts)
    }
}

/// One gate's claim on a window, for a lease or a release.
#[derive(Debug, Clone, Copy)]
pub struct Claim<'a> {
    /// The window.
    pub window: &'a Window,
    /// The gate (see [`AuditEvent::BudgetLeased`]'s `holder`).
    pub holder: &'a str,
    /// What this gate leased in its current use of the window.
    pub leased: Units,
    /// What it spent of that.
    pub spent: Units,
}

impl Claim<'_> {
    /// What the gate leased and has not spent.
    pub fn free(&self) -> Units {
        self.leased.zip(self.spent, u64::saturating_sub)
    }
}

/// The answer to a lease request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lease {
    /// This much more may be spent (the lease is in the log).
    Granted(Units),
    /// Not now: what is left does not cover the need, and other gates
    /// hold leases they may give back.
    Busy,
    /// What is left does not cover this need, and no other gate holds any:
    /// a smaller record may still fit.
    Short,
    /// Nothing is left and no gate holds any: the window is spent for good
    /// (its `window_closed` `budget_spent` is in the log).
    Spent,
    /// The log closed the window for good (any gate, any process).
    Closed(CloseCause),
    /// The fleet's budget store gave no usable answer: no lease now; ask
    /// again later (the fault is audited and reported).
    Unavailable(StoreFault),
}

crate::io_text::named_enum! {
    /// Why the fleet's budget store granted nothing; its word (`as_str`)
    /// is used in audit details, metrics and status. Fixed words only: the
    /// store's own error text is never passed on (it may quote keys or
    /// values).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum StoreFault {
        /// No connection could be made (refused, reset, DNS, TLS).
        Unreachable = "unreachable",
        /// No answer within `[fleet] store_timeout`.
        Timeout = "timeout",
        /// The store refused our credentials, or the password file is unreadable.
        Auth = "auth",
        /// The answer was not one the store's scripts give (a wrong type
        /// under the key, an error, a reply of the wrong shape).
        Nonsense = "nonsense",
        /// The store no longer holds leases this replica's log records: it
        /// lost its state (flushed, the key deleted, a restart without
        /// persistence) or an older state was written back. Not trusted: the
        /// window closes for good.
        LostState = "lost_state",
        /// Another replica leases the same window id under another definition.
        Conflict = "conflict",
        /// The window's state fails its seal (`[fleet] store_key_file`): it
        /// was written or changed without the key. Not trusted.
        Forged = "forged",
        /// The state is older than one this replica saw, or differs from it at
        /// the same sequence number (a replay or a fork). Not trusted.
        Rollback = "rollback",
        /// What all holders leased, less what they gave back (or what they
        /// spent), exceeds the budget. Not trusted.
        OverBudget = "over_budget",
        /// Another replica found the store untrusted and halted the window.
        Halted = "halted",
    }
}

impl StoreFault {
    /// Whether the fault is evidence that the store's counts cannot be
    /// trusted (rather than that it could not answer): the window then
    /// closes for good (`budget_store_untrusted`).
    pub fn is_integrity(self) -> bool {
        matches!(
            self,
            StoreFault::LostState
                | StoreFault::Forged
                | StoreFault::Rollback
                | StoreFault::OverBudget
                | StoreFault::Halted
        )
    }

    /// A few words for the service log.
    pub fn describe(self) -> &'static str {
        match self {
            StoreFault::Timeout => "too slow (timeout)",
            StoreFault::Unreachable => "unreachable",
            StoreFault::Auth => "refusing our credentials, or the store key is unreadable",
            StoreFault::Nonsense => "answering nonsense",
            StoreFault::LostState => "missing leases it granted (lost state)",
            StoreFault::Conflict => "holding another definition of the window",
            StoreFault::Forged => "holding a state that fails its seal (forged)",
            StoreFault::Rollback => "showing an older state than one seen (rollback)",
            StoreFault::OverBudget => "holding more leases than the budget (over budget)",
            StoreFault::Halted => "halted for this window by another replica",
        }
    }
}

/// Where leases come from. The on-host source is the audit log itself
/// ([`LogBudget`]); a fleet-wide store or a fixed per-replica share would
/// be other implementations. Every method appends its audit entries to
/// `ledger` before it returns Ok.
pub trait BudgetSource: Send {
    /// Lease at least `need` more for `claim` (and when `enable`, append
    /// the window's `window_enabled` first, in the same step).
    fn lease(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        need: Units,
        enable: bool,
        ts: Timestamp,
    ) -> Result<Lease, AuditError>;

    /// `claim`'s gate stops using the window: record what it spent and give
    /// back the rest; close the window for good when that leaves nothing.
    fn release(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        ts: Timestamp,
    ) -> Result<(), AuditError>;

    /// The state of a shared store behind this source, if there is one:
    /// `Some(None)` healthy at the last call, `Some(Some(fault))` failing.
    fn store_state(&self) -> Option<Option<StoreFault>> {
        None
    }
}

/// Leases from the audit log: exact across every process on one host that
/// appends to the same log.
#[derive(Debug, Default, Clone, Copy)]
pub struct LogBudget;

/// How much to lease in one measure: half of what is left, at least the
/// need, at most the cap (unless the need is larger), never more than left.
pub fn lease_size(left: u64, need: u64, cap: u64) -> u64 {
    lease_size_among(left, need, cap, 1)
}

/// [`lease_size`] for one of `replicas` sharing what is left:
/// `ceil(left / (2 * replicas))`, at least the need, at most the cap
/// (unless the need is larger), never more than left.
pub fn lease_size_among(left: u64, need: u64, cap: u64, replicas: u64) -> u64 {
    left.div_ceil(replicas.max(1).saturating_mul(2))
        .min(cap)
        .max(need)
        .min(left)
}

pub fn enabled(w: &Window) -> AuditEvent {
    AuditEvent::WindowEnabled {
        window: w.id.clone(),
        sink: w.sink.clone(),
        start: w.start,
        end: w.end,
        reason: w.reason.clone(),
        requested_by: w.requested_by.clone(),
        max_records: w.max_records,
        max_bytes: w.max_bytes,
    }
}

pub fn spent_for_good(w: &Window) -> AuditEvent {
    AuditEvent::WindowClosed {
        window: w.id.clone(),
        sink: w.sink.clone(),
        cause: CloseCause::BudgetSpent,
    }
}

/// Whether some bounded measure has nothing left and nothing held by any
/// gate but `mine`: no gate can ever spend in it again.
fn exhausted(budget: Budget, left: Units, others: Units) -> bool {
    (budget.records.is_some() && left.records == 0 && others.records == 0)
        || (budget.bytes.is_some() && left.bytes == 0 && others.bytes == 0)
}

impl BudgetSource for LogBudget {
    fn lease(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        need: Units,
        enable: bool,
        ts: Timestamp,
    ) -> Result<Lease, AuditError> {
        log_lease(ledger, claim, Budget::of(claim.window), need, enable, ts)
    }

    fn release(
        &mut self,
        ledger: &mut Ledger,
        claim: Claim<'_>,
        ts: Timestamp,
    ) -> Result<(), AuditError> {
        log_release(ledger, claim, Budget::of(claim.window), ts)
    }
}

/// A lease from the audit log under `budget` (the window's own, or a
/// replica's share of it: see [`super::budget_share`]).
pub(crate) fn log_lease(
    ledger: &mut Ledger,
    claim: Claim<'_>,
    budget: Budget,
    need: Units,
    enable: bool,
    ts: Timestamp,
) -> Result<Lease, AuditError> {
    let w = claim.window;
    ledger.transact(ts, |book| {
        if let Some(cause) = book.closed().get(&w.id) {
            return (Vec::new(), Lease::Closed(*cause));
        }
        let mut events = Vec::new();
        if !budget.is_bounded() {
            if enable {
                events.push(enabled(w));
            }
            return (events, Lease::Granted(Units::UNLIMITED));
        }
        let state = book.window(&w.id);
        let left = state.left(budget);
        let others = state.outstanding().zip(claim.leased, u64::saturating_sub);
        let bounded = (budget.records.is_some(), budget.bytes.is_some());
        // The need, and at least one unit, left in every bounded measure.
        let need = need.zip(Units::new(1, 1), u64::max);
        if within(budget, need, left) {
            let granted = bounded_part(
                budget,
                Units::new(
                    lease_size(left.records, need.records, LEASE_CAP_RECORDS),
                    lease_size(left.bytes, need.bytes, LEASE_CAP_BYTES),
                ),
            );
            if enable {
                events.push(enabled(w));
            }
            events.push(leased_event(claim, budget, granted));
            return (events, Lease::Granted(budget.unbounded_as_max(granted)));
        }
        // SECURITY: with nothing held by anyone (this gate's own lease
        // is spent in that measure too) no gate can ever spend again:
        // the window is closed for good.
        let mine = claim.free();
        let mine_empty = (bounded.0 && mine.records == 0) || (bounded.1 && mine.bytes == 0);
        if mine_empty && exhausted(budget, left, others) {
            if !enable {
                events.push(release_event(claim));
            }
            events.push(spent_for_good(w));
            return (events, Lease::Spent);
        }
        let held = (bounded.0 && others.records > 0) || (bounded.1 && others.bytes > 0);
        (events, if held { Lease::Busy } else { Lease::Short })
    })
}

/// A release into the audit log under `budget` (see [`log_lease`]).
pub(crate) fn log_release(
    ledger: &mut Ledger,
    claim: Claim<'_>,
    budget: Budget,
    ts: Timestamp,
) -> Result<(), AuditError> {
    let w = claim.window;
    ledger.transact(ts, |book| {
        let mut events = vec![release_event(claim)];
        if budget.is_bounded() && !book.closed().contains_key(&w.id) {
            let state = book.window(&w.id);
            // After this release: what is left gains what it gives back.
            let free = claim.free();
            let left = state.left(budget);
            let left = left.zip(free, u64::saturating_add);
            let others = state.outstanding().zip(claim.leased, u64::saturating_sub);
            if exhausted(budget, left, others) {
                events.push(spent_for_good(w));
            }
        }
        (events, ())
    })
}

pub(crate) fn release_event(claim: Claim<'_>) -> AuditEvent {
    released_event(claim, bounded_part(Budget::of(claim.window), claim.free()))
}

/// The `budget_leased` entry of `claim`, leasing `granted` in each
/// measure `budget` bounds.
pub fn leased_event(claim: Claim<'_>, budget: Budget, granted: Units) -> AuditEvent {
    let w = claim.window;
    AuditEvent::BudgetLeased {
        window: w.id.clone(),
        sink: w.sink.clone(),
        holder: claim.holder.to_owned(),
        records: budget.records.map(|_| granted.records),
        bytes: budget.bytes.map(|_| granted.bytes),
    }
}

/// Whether `granted` fits in `left` in every measure `budget` bounds.
pub fn within(budget: Budget, granted: Units, left: Units) -> bool {
    (budget.records.is_none() || granted.records <= left.records)
        && (budget.bytes.is_none() || granted.bytes <= left.bytes)
}

/// The `window_released` entry of `claim`, giving back `returned`.
pub fn released_event(claim: Claim<'_>, returned: Units) -> AuditEvent {
    let w = claim.window;
    AuditEvent::WindowReleased {
        window: w.id.clone(),
        sink: w.sink.clone(),
        holder: claim.holder.to_owned(),
        spent_records: claim.spent.records,
        spent_bytes: claim.spent.bytes,
        returned_records: returned.records,
        returned_bytes: returned.bytes,
    }
}

/// The part of `units` a bounded budget counts: 0 for a unit it does not bound.
pub(crate) fn bounded_part(budget: Budget, units: Units) -> Units {
    Units {
        records: budget.records.map_or(0, |_| units.records),
        bytes: budget.bytes.map_or(0, |_| units.bytes),
    }
}

/// The `full_denied` entry of a window whose budget is all leased.
pub fn busy_event(w: &Window) -> AuditEvent {
    AuditEvent::FullDenied {
        sink: w.sink.clone(),
        window: Some(w.id.clone()),
        why: DenyWhy::BudgetLeased,
        detail: None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lease_sizes_halve_what_is_left_within_need_and_cap() {
        assert_eq!(lease_size(10, 1, 1024), 5);
        assert_eq!(lease_size(1, 1, 1024), 1);
        assert_eq!(lease_size(0, 1, 1024), 0);
        assert_eq!(lease_size(100_000, 1, 1024), 1024);
        assert_eq!(lease_size(100_000, 5000, 1024), 5000);
        assert_eq!(lease_size(10, 50, 1024), 10);
    }

    #[test]
    fn every_store_fault_has_its_own_word_and_reads_back() {
        let mut words = std::collections::HashSet::new();
        for f in StoreFault::ALL {
            // Exhaustive: a new fault stops this compiling until it is
            // listed here, and so reminds that it belongs in `ALL` too.
            match f {
                StoreFault::Unreachable
                | StoreFault::Timeout
                | StoreFault::Auth
                | StoreFault::Nonsense
                | StoreFault::LostState
                | StoreFault::Conflict
                | StoreFault::Forged
                | StoreFault::Rollback
                | StoreFault::OverBudget
                | StoreFault::Halted => {}
            }
            assert!(words.insert(f.as_str()), "{f:?}");
            assert_eq!(StoreFault::from_name(f.as_str()), Some(f));
        }
        assert_eq!(StoreFault::from_name("lost"), None);
    }

    proptest! {
        /// A lease never exceeds what is left and never falls short of a
        /// need that fits.
        #[test]
        fn lease_size_is_bounded(left in 0u64..1_000_000, need in 0u64..2_000_000, cap in 1u64..5000) {
            let n = lease_size(left, need, cap);
            prop_assert!(n <= left);
            if need <= left { prop_assert!(n >= need); }
            if left > 0 { prop_assert!(n >= 1 || need == 0 && left.div_ceil(2).min(cap) == 0); }
        }
    }
}
