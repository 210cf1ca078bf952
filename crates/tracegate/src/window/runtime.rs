//! Enabling, spending and closing capture windows for one sink, audited
//! first.
//!
//! A [`Capture`] answers, record by record, "may this sink receive the next
//! record at full level, and how much of the window's budget may it carry?"
//! ([`Capture::grant`]), and is told what a delivered record spent
//! ([`Capture::commit`]). It enables a window only after its
//! `window_enabled` entry is durably in the audit log, spends only what it
//! leased there first (see [`super::budget`]), checks expiry on every call
//! (by the UTC clock *and* a monotonic deadline fixed at enablement), and
//! follows the log so that a close written by any process ends its use of
//! the window within [`FOLLOW_EVERY`].
//!
//! The state here does no IO. Audit work (opening the log, enabling,
//! leasing, writing closes and releases, following) is a [`Job`] taken out
//! of the capture, run, and applied back. `filter` runs jobs inline (it
//! has nothing else to do); `serve` runs them on its ticker, so a request
//! never waits for the audit log while holding a lock other sinks need: a
//! full sink whose capture needs the log gets standard records until the
//! job is done.
//!
//! **Invariant:** `grant()` returns an allowance only while an enabled
//! window is open, its enablement (and the lease the allowance comes from)
//! was appended and fsynced, and neither clock says it has ended. Every
//! failure path returns `None` (standard).
//!
//! Taking rights away never waits for the log: a close (expiry, removal,
//! [`Capture::revoke`]) takes effect at once and its entry is queued and
//! written when the log can be written.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use jiff::Timestamp;

use super::Level;
use super::budget::{
    Budget, BudgetSource, Claim, Lease, Ledger, StoreFault, Units, bounded_part, busy_event,
};
use super::budget_source::{StoreClient, budget_source};
use super::clock::Clock;
use super::segments::{Prepared, SealedAt, SegmentError, Segments};
use super::{WindowState, latest, state_with_floor};
use crate::audit::{AuditEvent, AuditKey, CloseCause, DenyWhy};
use crate::policy::tls::TlsCheck;
use crate::policy::{Policy, Window};

/// After an audit failure, wait this long before trying the log again.
const AUDIT_RETRY: Duration = Duration::from_secs(1);
/// How often the kill switch is looked at (a `stat`), so that every gate
/// honours it within a second.
const KILL_SWITCH_EVERY: Duration = Duration::from_millis(250);
/// After a lease was refused (all leased by others), wait this long.
const LEASE_RETRY: Duration = Duration::from_secs(1);
/// After the fleet's budget store failed, wait this long before asking it
/// again (so capture resumes within about this long of its return).
const STORE_RETRY: Duration = Duration::from_secs(1);
/// How often a running gate raises the audit log's clock mark while time
/// passes (it also does at every window end and at the end of a run).
pub const MARK_EVERY: Duration = Duration::from_secs(30);
/// How often a running gate reads what other processes appended (closes,
/// leases) and, for `filter`, checks the open window's policy file.
pub const FOLLOW_EVERY: Duration = Duration::from_millis(500);

/// An allowance for one record: at full level it may carry at most
/// `allowance` (see [`Units`]); what it carried is then [`Capture::commit`]ted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// What the record may carry.
    pub allowance: Units,
    /// Which enablement this grant belongs to.
    epoch: u64,
}

impl Grant {
    /// A grant with no limit, outside any window (`tracegate redact`).
    pub fn unlimited() -> Grant {
        Grant {
            allowance: Units::UNLIMITED,
            epoch: 0,
        }
    }
}

/// The file that defines the open window, as it was when enabled.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
}

fn stamp(path: &std::path::Path) -> Option<FileStamp> {
    let m = std::fs::metadata(path).ok()?;
    Some(FileStamp {
        len: m.len(),
        modified: m.modified().ok(),
    })
}

/// An enabled window.
#[derive(Debug)]
struct Open {
    window: Window,
    budget: Budget,
    deadline: Duration,
    /// Leased in this use (bounded measures only).
    leased: Units,
    /// Spent in this use (both measures).
    spent: Units,
    last_lease: Units,
    epoch: u64,
    file: Option<FileStamp>,
}

impl Open {
    fn free(&self) -> Units {
        self.budget
            .unbounded_as_max(self.leased.zip(self.spent, u64::saturating_sub))
    }
}

/// Audit work queued until the log can take it.
#[derive(Debug, Clone)]
enum Pending {
    /// One entry.
    Event(AuditEvent),
    /// `window_closed` `expired`, unless the log holds a permanent close of
    /// the window by then.
    Expire {
        /// The window id.
        window: String,
        /// Its sink.
        sink: String,
    },
    /// `window_released` (and `budget_spent` when that leaves nothing).
    Release {
        window: Window,
        leased: Units,
        spent: Units,
    },
}

/// The log and the budget source, lent to a [`Job`] while it runs.
struct Io {
    ledger: Ledger,
    source: Box<dyn BudgetSource>,
}

enum IoSlot {
    Up(Box<Io>),
    /// Out with a job.
    Lent,
    Down,
}

/// What a job should acquire.
#[derive(Debug, Clone)]
enum Acquire {
    Enable(Window),
    Refill {
        window: Window,
        leased: Units,
        spent: Units,
        need: Units,
        epoch: u64,
    },
}

/// Counters a caller may report.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CaptureStats {
    /// Windows enabled in this run.
    pub enabled: u64,
    /// Windows this run stopped using (closed or released).
    pub closed: u64,
    /// Audit appends that failed.
    pub audit_failures: u64,
    /// Leases taken.
    pub leases: u64,
    /// Lease requests the fleet's budget store could not answer.
    pub store_failures: u64,
}

/// What a capture borrows from the daemon's floor, which the library does
/// not have: the client of the fleet's budget store and the policy's TLS
/// check. `filter` and `serve` hand theirs in
/// ([`Capture::start_with`], [`Capture::background_with`]). Without them
/// a policy that names `[fleet] budget_store` grants nothing
/// (`budget_source::NoStoreClient`), and a policy read again (`filter`,
/// when the open window's file changes) has its TLS files read and
/// fingerprinted but not parsed.
#[derive(Clone, Copy, Default)]
pub struct Extensions {
    /// Leases from `[fleet] budget_store`.
    pub budget_store: Option<StoreClient>,
    /// The check a policy read again goes through.
    pub tls_check: Option<&'static dyn TlsCheck>,
}

/// The full-capture state of one sink.
pub struct Capture {
    policy: Arc<Policy>,
    clock: Arc<dyn Clock>,
    ext: Extensions,
    sink: String,
    full_allowed: bool,
    /// The sink seals (`seal_to`): it gets nothing at full level unless
    /// the caller seals what it writes ([`Capture::enable_sealing`]).
    sealed_sink: bool,
    /// The caller seals full records ([`Capture::enable_sealing`]).
    sealing: bool,
    /// The sealed segments of this sink, when the caller seals.
    segments: Option<Segments>,
    /// A record found no segment it could use: the next job opens one.
    segment_wanted: bool,
    /// Where the segments seal and write (`filter`): see
    /// [`Capture::seal_through`].
    pipe: Option<crate::seal::pipe::PipeTx>,
    holder: String,
    /// Run audit jobs inside `grant` (`filter`), or leave them to a ticker.
    inline_io: bool,
    io: IoSlot,
    closed_for_good: HashMap<String, CloseCause>,
    /// Windows this run used and stopped using: not enabled again.
    used: HashSet<String>,
    open: Option<Open>,
    epoch: u64,
    pending: VecDeque<Pending>,
    /// Extra units the next lease must cover.
    need: Option<Units>,
    denied_logged: bool,
    busy_logged: HashSet<String>,
    retry_at: Option<Duration>,
    lease_retry_at: Option<Duration>,
    next_follow: Duration,
    /// A job is wanted (for the ticker of `serve`).
    wanted: bool,
    /// An append was refused because the clock was behind the log.
    clock_was_behind: bool,
    stats: CaptureStats,
    /// The fleet's budget store, as the last job found it: `None` without
    /// a store, `Some(None)` healthy, `Some(Some(fault))` failing.
    store: Option<Option<StoreFault>>,
    /// The store's failure audited (`full_denied`) since it last worked:
    /// a different fault is audited again.
    store_denied_logged: Option<StoreFault>,
    /// When the kill switch was last looked at, and whether it was engaged.
    kill_checked: Option<(Duration, bool)>,
    /// The latest time the audit log vouches has passed (its newest entry,
    /// its clock mark, its files' times), as the last job read it; never
    /// lowered. A window's end is judged by `max(clock, floor)`.
    floor: Option<Timestamp>,
    /// The clock mark as this capture last left it.
    marked: Option<Timestamp>,
    /// Raise the clock mark in the next job whatever else is due (the end
    /// of a run).
    mark_now: bool,
}

crate::io_text::debug_as!(Capture, |c| "Capture" {
    sink: c.sink,
    open: c.open.as_ref().map(|o| &o.window.id),
});

/// A gate's name in `budget_leased` / `window_released`: the process id
/// and a random per-capture nonce (pids are reused).
fn new_holder() -> String {
    let nonce = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    format!("{}-{:08x}", std::process::id(), nonce as u32)
}

impl Capture {
    /// Prepare capture for `sink`, running audit work inline (`filter`).
    /// For a `full_allowed` sink this opens the audit log, reads it (closes
    /// and leases of every process) and records `policy_loaded`. If the log
    /// is unusable, full capture stays off: the failure is logged (a
    /// `tracing` warning) and the sink gets standard records. It cannot
    /// fail: what cannot be read does not grant.
    ///
    /// A policy that names `[fleet] budget_store` grants nothing here: the
    /// library has no client of the store (`filter` hands its capture the
    /// daemon's).
    pub fn start(policy: Arc<Policy>, clock: Arc<dyn Clock>, sink: &str) -> Capture {
        Capture::start_with(policy, clock, sink, Extensions::default())
    }

    /// [`Capture::start`], with the daemon's store client and TLS check.
    pub fn start_with(
        policy: Arc<Policy>,
        clock: Arc<dyn Clock>,
        sink: &str,
        ext: Extensions,
    ) -> Capture {
        let mut c = Capture::background_with(policy, clock, sink, ext);
        c.inline_io = true;
        c.service();
        c
    }

    /// Prepare capture for `sink` with audit work left to the caller's
    /// ticker ([`Capture::job`], `Job::run`, [`Capture::apply`]); nothing
    /// is read or written until then.
    pub fn background(policy: Arc<Policy>, clock: Arc<dyn Clock>, sink: &str) -> Capture {
        Capture::background_with(policy, clock, sink, Extensions::default())
    }

    /// [`Capture::background`], with the daemon's store client and TLS
    /// check.
    pub fn background_with(
        policy: Arc<Policy>,
        clock: Arc<dyn Clock>,
        sink: &str,
        ext: Extensions,
    ) -> Capture {
        let full_allowed = policy.sink(sink).is_some_and(|s| s.full_allowed);
        let sealed_sink = policy.sink(sink).is_some_and(|s| !s.seal_to.is_empty());
        let next_follow = clock.monotonic() + FOLLOW_EVERY;
        Capture {
            policy,
            clock,
            ext,
            sink: sink.to_string(),
            full_allowed,
            sealed_sink,
            sealing: false,
            segments: None,
            segment_wanted: false,
            pipe: None,
            holder: new_holder(),
            inline_io: false,
            io: IoSlot::Down,
            closed_for_good: HashMap::new(),
            used: HashSet::new(),
            open: None,
            epoch: 0,
            pending: VecDeque::new(),
            need: None,
            denied_logged: false,
            busy_logged: HashSet::new(),
            retry_at: None,
            lease_retry_at: None,
            next_follow,
            wanted: full_allowed,
            clock_was_behind: false,
            stats: CaptureStats::default(),
            store: None,
            store_denied_logged: None,
            kill_checked: None,
            floor: None,
            marked: None,
            mark_now: false,
        }
    }

    /// The fleet's budget store as the last job found it: `None` when the
    /// policy names no store (or none was asked yet), `Some(None)` when it
    /// answered, `Some(Some(fault))` when it did not.
    pub fn store_state(&self) -> Option<Option<StoreFault>> {
        self.store
    }

    fn audit_failed(&mut self, why: &str) {
        self.stats.audit_failures += 1;
        self.retry_at = Some(self.clock.monotonic() + AUDIT_RETRY);
        // The library never prints: the binary's subscriber shows it.
        tracing::warn!("full capture for sink `{}` stays off: {why}", self.sink);
    }

    /// Counters so far.
    pub fn stats(&self) -> CaptureStats {
        self.stats
    }

    /// Whether full capture could be enabled as far as the audit log goes:
    /// `true` for a sink that is not `full_allowed` (it needs no log), else
    /// whether the log is open and its last append succeeded.
    pub fn audit_ready(&self) -> bool {
        !self.full_allowed || !matches!(self.io, IoSlot::Down)
    }

    /// The sink this capture decides for.
    pub fn sink(&self) -> &str {
        &self.sink
    }

    /// The latest time the audit log vouches has passed, as last read:
    /// windows whose end is at or before it are expired whatever the clock
    /// says (see `window::state_with_floor`).
    pub fn time_floor(&self) -> Option<Timestamp> {
        self.floor
    }

    /// The windows this capture holds closed for good, and why: closed by
    /// this process, read closed from the audit log, or barred by a
    /// refused reload ([`Capture::revoke`]). What `/v1/status` shows, so
    /// that it never calls a barred window active.
    pub fn closed_windows(&self) -> &HashMap<String, CloseCause> {
        &self.closed_for_good
    }

    /// The caller seals every full record it writes for this sink through
    /// [`Capture::seal`]: only then does a sink with `seal_to` get anything
    /// at full level. The capture keeps the sink's segments and writes
    /// their entries in its jobs.
    pub fn enable_sealing(&mut self) {
        self.set_sealing(true);
    }

    /// Whether the caller seals (see [`Capture::enable_sealing`]). Turned
    /// off, the open segment closes and a sink with `seal_to` gets nothing
    /// at full level again (`serve`, when a reload gives the sink an
    /// output it cannot seal for).
    pub fn set_sealing(&mut self, on: bool) {
        if on == self.sealing {
            return;
        }
        self.sealing = on;
        if on {
            self.segments = self.new_segments();
        } else {
            self.close_segment();
            self.segments = None;
        }
    }

    /// Seal `record`, granted at full level in the open window, for this
    /// sink, and hand the bytes to write to `emit` (see
    /// [`Segments::seal`]). On error the record must go out at standard
    /// level.
    ///
    /// A record that needs a new segment (none yet, another window, the
    /// size or age bound) closes the old one and asks a job to open the
    /// next: with inline audit work (`filter`) that runs now; in `serve`
    /// the ticker runs it, and until then records get
    /// [`SegmentError::NotReady`] (they go out standard: fail closed).
    pub fn seal(
        &mut self,
        record: &[u8],
        emit: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<SealedAt, SegmentError> {
        let mono = self.clock.monotonic();
        let (Some(open), Some(segs)) = (self.open.as_ref(), self.segments.as_ref()) else {
            return Err(SegmentError::NoWindow);
        };
        if segs.due(&open.window.id, mono) {
            self.close_segment();
            self.segment_wanted = true;
            self.wanted = true;
            if self.inline_io {
                self.service();
            }
        }
        let r = match self.segments.as_mut() {
            Some(segs) => segs.seal(record, emit),
            None => Err(SegmentError::NoWindow),
        };
        if matches!(r, Err(SegmentError::NotTaken)) {
            // Its sequence number is spent: the segment ends before it.
            self.close_segment();
        }
        r
    }

    /// Seal through `pipe` ([`crate::seal::pipe`], `filter`): records are
    /// sealed and written on the pipe's thread, in the order the caller
    /// sends its own lines through the same pipe.
    pub fn seal_through(&mut self, pipe: crate::seal::pipe::PipeTx) {
        if let Some(s) = self.segments.as_mut() {
            s.pipe(pipe.clone());
        }
        self.pipe = Some(pipe);
    }

    fn new_segments(&self) -> Option<Segments> {
        let mut s = Segments::for_sink(&self.policy, &self.sink)?;
        if let Some(p) = &self.pipe {
            s.pipe(p.clone());
        }
        Some(s)
    }

    /// Close the open segment, if any; its entry is queued.
    fn close_segment(&mut self) {
        if let Some(closed) = self.segments.as_mut().and_then(Segments::close) {
            self.pending.push_back(Pending::Event(closed));
            self.wanted = true;
        }
    }

    /// The id of the window open now, if any.
    pub fn open_window(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.window.id.as_str())
    }

    /// What this process delivered at full level in its current use of the
    /// open window (records and bytes), if a window is open: the budget bar
    /// of the status page.
    pub fn open_spent(&self) -> Option<Units> {
        self.open.as_ref().map(|o| o.spent)
    }

    /// Whether audit work is waiting for a job (see [`Capture::job`]).
    pub fn wants_job(&self) -> bool {
        self.wanted
    }

    /// Whether this sink may be captured at all right now. The one place
    /// to add a switch that turns capture off.
    fn may_capture(&self) -> bool {
        self.full_allowed && !self.kill_checked.is_some_and(|(_, engaged)| engaged)
    }

    /// Whether the policy's kill switch is engaged, looked at no more often
    /// than every [`KILL_SWITCH_EVERY`].
    fn kill_switch(&mut self, mono: Duration) -> bool {
        match self.kill_checked {
            Some((at, engaged)) if mono.saturating_sub(at) < KILL_SWITCH_EVERY => engaged,
            _ => {
                let engaged = crate::policy::load::kill_switch_engaged(&self.policy.source);
                self.kill_checked = Some((mono, engaged));
                engaged
            }
        }
    }

    /// Adopt a new policy version (hot reload). Takes effect at once; the
    /// entries it needs are queued (see [`Capture::job`]).
    ///
    /// The open window stays open only when the new policy still defines it
    /// for this sink, unchanged (bounds, budgets, reason, requester) and the
    /// sink is still `full_allowed`; its lease and what was spent carry over.
    /// Otherwise it is closed with cause `removed`, for good: a window id
    /// names one definition, so changing a window (shortening, extending,
    /// new budget) under the same id ends it, and reopening takes a new id.
    /// When `[audit]` changed, queued entries go to the old log first, and
    /// the new log is opened by the next job.
    pub fn reload(&mut self, policy: Arc<Policy>) {
        let full_allowed = policy.sink(&self.sink).is_some_and(|s| s.full_allowed);
        if let Some(open) = &self.open {
            let new = policy
                .windows()
                .iter()
                .find(|w| w.id == open.window.id && w.sink == self.sink);
            let unchanged = new.is_some_and(|b| open.window.same_definition(b));
            if !full_allowed || !unchanged {
                // SECURITY: rights go at once; the entry follows.
                self.close_local(CloseCause::Removed, true);
            }
        }
        let fleet_changed = self.policy.fleet != policy.fleet;
        if fleet_changed && self.policy.audit() == policy.audit() {
            // Another budget source: give the open lease back through the
            // old one, then lease afresh (a new holder) through the new.
            if let Some(open) = &self.open {
                let id = open.window.id.clone();
                self.close_local(CloseCause::Shutdown, false);
                self.used.remove(&id);
            }
            if self.inline_io || matches!(self.io, IoSlot::Up(_)) {
                self.service_inline_pending();
            }
            self.holder = new_holder();
            self.io = IoSlot::Down;
            self.retry_at = None;
            self.store = None;
        }
        let audit_changed = self.policy.audit() != policy.audit();
        if audit_changed {
            if self.open.is_some() {
                // The enablement was recorded in the old log: do not carry it.
                self.close_local(CloseCause::Removed, true);
            }
            // The old log's entries go to the old log, now, best effort.
            if self.inline_io || matches!(self.io, IoSlot::Up(_)) {
                self.service_inline_pending();
            }
            self.io = IoSlot::Down;
            self.retry_at = None;
            // Another log: its clock mark is raised on its first job. The
            // floor stays: a time that has passed has passed.
            self.marked = None;
        }
        if self
            .segments
            .as_ref()
            .is_some_and(|s| !s.same_sealing(&policy))
        {
            // Recipients or content fields changed: the open segment
            // closes, and the next record opens one under the new ones.
            self.close_segment();
            self.segments = None;
        }
        self.policy = policy;
        self.full_allowed = full_allowed;
        self.sealed_sink = self
            .policy
            .sink(&self.sink)
            .is_some_and(|s| !s.seal_to.is_empty());
        if self.sealing && self.segments.is_none() {
            self.segments = self.new_segments();
        }
        self.wanted = true;
        if self.inline_io {
            self.service();
        }
    }

    /// Take rights away now, for a refused reload: close the open window
    /// if `keep` rejects its id (cause `revoked`), and bar every window of
    /// this sink whose id `keep` rejects for the rest of this capture's
    /// life. Works when the audit log cannot be
    /// written: the `window_closed` (`removed`) entry is queued and written
    /// when the log is back.
    pub fn revoke(&mut self, keep: &dyn Fn(&str) -> bool) {
        if self.open.as_ref().is_some_and(|o| !keep(&o.window.id)) {
            self.close_local(CloseCause::Revoked, true);
        }
        for w in self.policy.windows() {
            if w.sink == self.sink && !keep(&w.id) {
                // SECURITY: barred locally whatever the log says.
                self.closed_for_good
                    .entry(w.id.clone())
                    .or_insert(CloseCause::Revoked);
            }
        }
        if self.inline_io {
            self.service();
        }
    }

    /// The level the sink may receive the next record at (see
    /// [`Capture::grant`]).
    pub fn level(&mut self) -> Level {
        match self.grant() {
            Some(_) => Level::Full,
            None => Level::Standard,
        }
    }

    /// Whether the next record may go out at full level, and how much it
    /// may carry. With inline audit work this enables windows and leases
    /// budget as needed; otherwise it only asks for a job.
    pub fn grant(&mut self) -> Option<Grant> {
        if !self.full_allowed {
            return None;
        }
        // SECURITY: a sink that seals (`seal_to`) gets content only from a
        // caller that seals it; any other path stays standard.
        if self.sealed_sink && !self.sealing {
            return None;
        }
        let now = self.clock.utc();
        let mono = self.clock.monotonic();
        // SECURITY: the kill switch needs neither a valid policy nor a
        // writable log: while it is engaged nothing goes out full, and the
        // open window closes for good (its entry follows when it can).
        if self.kill_switch(mono) {
            if self.open.is_some() {
                self.close_local(CloseCause::Removed, true);
            }
            return None;
        }
        self.housekeeping(now, mono);
        if self.job_due(now, mono) {
            self.wanted = true;
            if self.inline_io {
                self.service();
            }
        }
        let open = self.open.as_ref()?;
        let free = open.free();
        (free.records > 0 && free.bytes > 0).then_some(Grant {
            allowance: free,
            epoch: open.epoch,
        })
    }

    /// The record needs `need` in all (more than `grant` allows): lease
    /// more. Inline, the lease is taken now and the larger grant returned;
    /// otherwise the lease is asked of the ticker and `None` returned.
    pub fn refill(&mut self, grant: Grant, need: Units) -> Option<Grant> {
        let open = self.open.as_ref()?;
        if open.epoch != grant.epoch {
            return None;
        }
        let free = open.free();
        self.need = Some(need.zip(free, u64::saturating_sub));
        self.wanted = true;
        if !self.inline_io {
            return None;
        }
        self.service();
        let open = self.open.as_ref()?;
        let free = open.free();
        (open.epoch == grant.epoch && need.fits(free)).then_some(Grant {
            allowance: free,
            epoch: open.epoch,
        })
    }

    /// A record judged under `grant` carried `spent`: charge it. `false`
    /// when it no longer fits (the window closed or expired since, or the
    /// allowance was spent by another record meanwhile): then the record
    /// must go out at standard level.
    pub fn commit(&mut self, grant: Grant, spent: Units) -> bool {
        let now = latest(self.clock.utc(), self.floor);
        let mono = self.clock.monotonic();
        let Some(open) = &mut self.open else {
            return false;
        };
        // SECURITY: a full record goes out only after it was charged to the
        // lease of the window that is still open now.
        if open.epoch != grant.epoch
            || now >= open.window.end
            || mono >= open.deadline
            || !spent.fits(open.free())
        {
            return false;
        }
        open.spent = open.spent.zip(spent, u64::saturating_add);
        true
    }

    /// Account for one full record of `bytes` (one unit), leasing more if
    /// needed. `false` when the budget does not allow it: the record goes
    /// out at standard level.
    pub fn spend(&mut self, bytes: usize) -> bool {
        let need = Units::new(1, bytes as u64);
        let Some(grant) = self.grant() else {
            return false;
        };
        if need.fits(grant.allowance) {
            return self.commit(grant, need);
        }
        self.refill(grant, need)
            .is_some_and(|g| self.commit(g, need))
    }

    /// Close the open window, if any, for `cause` (its entry, when the
    /// cause is one a gate writes, and the release are queued and written
    /// by the next job; inline, now). The window closes even if the
    /// entries cannot be written.
    pub fn close(&mut self, cause: CloseCause) {
        self.close_local(cause, cause.is_written());
        if self.inline_io {
            self.service();
        }
    }

    /// End of use (end of run, shutdown): release the open window (what
    /// was spent, the rest of the lease given back; no `window_closed`,
    /// the window goes on) and write what is queued, now. Blocks on the
    /// audit log.
    pub fn finish(&mut self) {
        self.close_local(CloseCause::Shutdown, false);
        // The clock mark keeps the last time this run saw, for later gates.
        self.mark_now = self.full_allowed && matches!(self.io, IoSlot::Up(_));
        self.service_inline_pending();
    }

    /// Stop using the open window now. `write_close` queues a
    /// `window_closed` entry for `cause` (never for `shutdown`, which no
    /// gate writes: see [`CloseCause::is_written`]); the release is queued
    /// always.
    fn close_local(&mut self, cause: CloseCause, write_close: bool) {
        let write_close = write_close && cause.is_written();
        // The window's segment closes with it, and is said first.
        self.close_segment();
        let Some(open) = self.open.take() else { return };
        self.stats.closed += 1;
        self.used.insert(open.window.id.clone());
        if cause.is_permanent() {
            self.closed_for_good.insert(open.window.id.clone(), cause);
        }
        if write_close && cause == CloseCause::Expired {
            // Another gate may have written it already (see `close_ended`).
            self.pending.push_back(Pending::Expire {
                window: open.window.id.clone(),
                sink: self.sink.clone(),
            });
        } else if write_close {
            self.pending
                .push_back(Pending::Event(AuditEvent::WindowClosed {
                    window: open.window.id.clone(),
                    sink: self.sink.clone(),
                    cause,
                }));
        }
        self.pending.push_back(Pending::Release {
            window: open.window,
            leased: open.leased,
            spent: open.spent,
        });
        self.wanted = true;
    }

    /// Expiry, closes seen in the log, a changed window file.
    fn housekeeping(&mut self, now: Timestamp, mono: Duration) {
        let late = latest(now, self.floor);
        let Some(open) = &self.open else { return };
        if late >= open.window.end || mono >= open.deadline {
            self.close_local(CloseCause::Expired, true);
        } else if let Some(cause) = self.closed_for_good.get(&open.window.id).copied() {
            // Closed by another process: its entry is in the log already.
            self.close_local(cause, false);
        }
    }

    fn active_window(&self, now: Timestamp) -> Option<&Window> {
        self.policy.windows().iter().find(|w| {
            w.sink == self.sink
                && !self.used.contains(&w.id)
                && state_with_floor(w, now, self.floor, &self.closed_for_good)
                    == WindowState::Active
        })
    }

    /// Close for good, in the log, every window of the policy (of any
    /// sink) that has ended by `max(now, floor)` and that the log does not
    /// hold closed yet, enabled or not: from then on its expiry is in the
    /// hash-chained log, and no clock set back (nor a lost clock mark) can
    /// bring it back. Only once the log was read (so its closes are known);
    /// the entry is written only if no gate wrote a close for the window
    /// meanwhile (checked under the log's lock), so gates that see the same
    /// end write it once.
    ///
    /// SECURITY: the window is barred here at once; the entry follows.
    fn close_ended(&mut self, now: Timestamp) {
        if !self.full_allowed || self.policy.audit().is_none() || !matches!(self.io, IoSlot::Up(_))
        {
            return;
        }
        let late = latest(now, self.floor);
        let open = self.open.as_ref().map(|o| o.window.id.clone());
        let ended: Vec<(String, String)> = self
            .policy
            .windows()
            .iter()
            .filter(|w| {
                late >= w.end
                    && open.as_deref() != Some(w.id.as_str())
                    && !self.closed_for_good.contains_key(&w.id)
            })
            .map(|w| (w.id.clone(), w.sink.clone()))
            .collect();
        for (window, sink) in ended {
            self.closed_for_good
                .insert(window.clone(), CloseCause::Expired);
            self.pending.push_back(Pending::Expire { window, sink });
            self.wanted = true;
        }
    }

    /// Whether the next job should raise the clock mark: at the end of a
    /// run, the first time, every [`MARK_EVERY`], and whenever a window's
    /// end passed since the mark.
    fn mark_due(&self, now: Timestamp) -> bool {
        let late = latest(now, self.floor);
        self.mark_now
            || match self.marked {
                None => true,
                Some(m) if late <= m => false,
                Some(m) => {
                    late.duration_since(m).unsigned_abs() >= MARK_EVERY
                        || self
                            .policy
                            .windows()
                            .iter()
                            .any(|w| m < w.end && w.end <= late)
                }
            }
    }

    fn log_retry_due(&self, mono: Duration) -> bool {
        match self.io {
            IoSlot::Up(_) => true,
            IoSlot::Lent => false,
            IoSlot::Down => self.retry_at.is_none_or(|t| mono >= t),
        }
    }

    fn lease_due(&self, mono: Duration) -> bool {
        self.lease_retry_at.is_none_or(|t| mono >= t)
    }

    /// Whether a job would have work now.
    fn job_due(&self, now: Timestamp, mono: Duration) -> bool {
        if !self.log_retry_due(mono) {
            return false;
        }
        if !self.pending.is_empty() || mono >= self.next_follow {
            return true;
        }
        if !self.full_allowed || self.policy.audit().is_none() {
            return false;
        }
        match &self.open {
            Some(o) => self.lease_due(mono) && self.needs_refill(o),
            None => {
                matches!(self.io, IoSlot::Down)
                    || (self.lease_due(mono)
                        && (!self.denied_logged || self.active_window(now).is_some()))
            }
        }
    }

    fn needs_refill(&self, o: &Open) -> bool {
        if !o.budget.is_bounded() {
            return false;
        }
        let free = o.free();
        if free.records == 0 || free.bytes == 0 || self.need.is_some() {
            return true;
        }
        // Without inline IO, lease the next share before this one runs out,
        // so that capture does not pause while the ticker leases.
        !self.inline_io
            && (free.records.saturating_mul(2) < o.last_lease.records
                || free.bytes.saturating_mul(2) < o.last_lease.bytes)
    }

    /// Run the due audit work now, inline (blocks on the audit log). For
    /// a capture no request can reach yet, or at the end of a run.
    pub fn service_now(&mut self) {
        self.service();
    }

    /// Run the due audit work now, inline.
    fn service(&mut self) {
        if let Some(job) = self.job() {
            let done = job.run();
            self.apply(done);
        }
    }

    /// Write what is queued now (no enabling or leasing).
    fn service_inline_pending(&mut self) {
        let now = self.clock.utc();
        self.close_ended(now);
        if self.pending.is_empty() && !self.mark_now {
            return;
        }
        let enable_retry = self.lease_retry_at;
        // Suppress acquisition for this job.
        self.lease_retry_at = Some(Duration::MAX);
        self.retry_at = None;
        self.service();
        self.lease_retry_at = enable_retry;
    }

    /// The audit work due now, taken out of the capture (with the log) to
    /// run where no lock is held that records need; `None` when there is
    /// none or a job is already out. Hand the job's result to
    /// [`Capture::apply`].
    pub fn job(&mut self) -> Option<Job> {
        let now = self.clock.utc();
        let mono = self.clock.monotonic();
        self.housekeeping(now, mono);
        // SECURITY: the kill switch is honoured with no traffic too (the
        // ticker of `serve` asks for jobs): the open window closes for good.
        if self.full_allowed && self.kill_switch(mono) && self.open.is_some() {
            self.close_local(CloseCause::Removed, true);
        }
        self.close_ended(now);
        self.wanted = false;
        let io = match std::mem::replace(&mut self.io, IoSlot::Lent) {
            IoSlot::Up(io) => Some(io),
            IoSlot::Lent => return None,
            IoSlot::Down => None,
        };
        let settings = self.policy.audit().cloned();
        let reopen = io.is_none()
            && settings.is_some()
            && (self.full_allowed || !self.pending.is_empty())
            && self.retry_at.is_none_or(|t| mono >= t);
        if io.is_none() && !reopen {
            self.io = IoSlot::Down;
            return None;
        }
        let follow = mono >= self.next_follow;
        if follow {
            self.next_follow = mono + FOLLOW_EVERY;
            if self.inline_io {
                self.check_window_file();
            }
        }
        let mut deny = None;
        let acquire = if !self.may_capture() || !self.lease_due(mono) {
            None
        } else {
            match &self.open {
                Some(o) if self.needs_refill(o) => Some(Acquire::Refill {
                    window: o.window.clone(),
                    leased: o.leased,
                    spent: o.spent,
                    need: self.need.take().unwrap_or(Units::new(1, 1)),
                    epoch: o.epoch,
                }),
                Some(_) => None,
                None => match self.active_window(now) {
                    Some(w) => Some(Acquire::Enable(w.clone())),
                    None => {
                        if !self.denied_logged {
                            self.denied_logged = true;
                            deny = Some(AuditEvent::FullDenied {
                                sink: self.sink.clone(),
                                window: None,
                                why: DenyWhy::NoWindow,
                                detail: None,
                            });
                        }
                        None
                    }
                },
            }
        };
        if let Some(d) = deny {
            self.pending.push_back(Pending::Event(d));
        }
        let mark = self.full_allowed && self.mark_due(now);
        let enabling = match &acquire {
            Some(Acquire::Enable(w)) => Some(w.id.clone()),
            _ => None,
        };
        let enabling_segment = enabling.is_some();
        let segment = self.prepare_segment(mono, enabling);
        if io.is_some()
            && !follow
            && acquire.is_none()
            && self.pending.is_empty()
            && !mark
            && segment.is_none()
        {
            self.io = io.map_or(IoSlot::Down, IoSlot::Up);
            return None;
        }
        Some(Job {
            io,
            settings: if reopen { settings } else { None },
            fleet: self.policy.fleet.clone(),
            store_client: self.ext.budget_store,
            policy_loaded: self.policy.loaded_event(1),
            pending: self.pending.iter().cloned().collect(),
            enabling: enabling_segment,
            acquire,
            segment,
            follow,
            holder: self.holder.clone(),
            clock: Arc::clone(&self.clock),
            mark,
            note_clock: self.clock_was_behind.then(|| AuditEvent::FullDenied {
                sink: self.sink.clone(),
                window: None,
                why: DenyWhy::AuditUnavailable,
                detail: Some(
                    "the clock was behind the audit log's last entry; full capture stayed off until it caught up"
                        .to_owned(),
                ),
            }),
        })
    }

    /// The segment a job should open: for the window it enables (so that
    /// the first sealed record finds it ready), or because a record asked
    /// for one and the open window still has none it can use.
    fn prepare_segment(&mut self, mono: Duration, enabling: Option<String>) -> Option<Prepared> {
        let asked = std::mem::take(&mut self.segment_wanted);
        let window = match enabling {
            Some(w) => w,
            None if asked => self.open.as_ref()?.window.id.clone(),
            None => return None,
        };
        let segs = self.segments.as_ref()?;
        if !segs.due(&window, mono) {
            return None;
        }
        match segs.prepare(&window) {
            Ok(p) => Some(p),
            Err(e) => {
                // The system's random generator or HPKE failed: records
                // keep going out standard, and the next one asks again.
                tracing::warn!(sink = %self.sink, error = %e, "cannot make a sealed segment");
                None
            }
        }
    }

    /// `filter` only: the open window's file changed (a `window close`, an
    /// edit): read the policy again and adopt it, which closes the window
    /// unless its definition is unchanged. A policy that no longer loads
    /// ends this run's use of the window (fail closed).
    fn check_window_file(&mut self) {
        let Some(open) = &self.open else { return };
        if stamp(&open.window.file) == open.file {
            return;
        }
        let reread = match self.ext.tls_check {
            Some(tls) => Policy::load_checked(&self.policy.source, tls),
            None => Policy::load(&self.policy.source),
        };
        match reread {
            Ok(p) => {
                let policy = Arc::new(p);
                let still = policy
                    .windows()
                    .iter()
                    .find(|w| w.id == open.window.id && w.sink == self.sink)
                    .is_some_and(|w| open.window.same_definition(w));
                if still {
                    if let Some(o) = &mut self.open {
                        o.file = stamp(&o.window.file);
                    }
                } else {
                    self.close_local(CloseCause::Removed, true);
                }
            }
            Err(_) => self.close_local(CloseCause::Shutdown, false),
        }
    }

    /// Take back the result of a `Job`: the log, what was written, what
    /// was leased, the closes the log holds.
    pub fn apply(&mut self, done: Done) {
        let mono = self.clock.monotonic();
        let now = self.clock.utc();
        for _ in 0..done.written.min(self.pending.len()) {
            self.pending.pop_front();
        }
        if done.store.is_some() {
            self.store = done.store;
        }
        if done.clock_behind {
            self.clock_was_behind = true;
        } else if done.noted_clock {
            self.clock_was_behind = false;
        }
        if let Some(f) = done.floor {
            self.floor = Some(latest(f, self.floor));
        }
        if let Some(m) = done.marked {
            self.marked = Some(m);
            self.mark_now = false;
        }
        match (done.io, &done.failure) {
            (Some(io), None) => {
                self.io = IoSlot::Up(io);
                self.retry_at = None;
            }
            (_, failure) => {
                self.io = IoSlot::Down;
                if let Some(why) = failure {
                    self.audit_failed(why);
                }
            }
        }
        for (id, cause) in done.closed {
            self.closed_for_good.entry(id).or_insert(cause);
        }
        if let Some((acquire, lease)) = done.acquired {
            self.acquired(acquire, lease, now, mono);
        }
        if let Some(p) = done.segment {
            self.installed(p, mono);
        }
        self.housekeeping(now, mono);
    }

    /// A segment whose opening entry the log holds: used from now if its
    /// window is still the open one, else closed at once (the log vouched
    /// for it, so it is closed there too, empty).
    fn installed(&mut self, p: Prepared, mono: Duration) {
        let current = self
            .open
            .as_ref()
            .is_some_and(|o| o.window.id == p.window());
        let Some(segs) = self.segments.as_mut() else {
            return;
        };
        if let Some(closed) = segs.install(p, mono) {
            self.pending.push_back(Pending::Event(closed));
        }
        if !current {
            self.close_segment();
        }
    }

    fn acquired(&mut self, acquire: Acquire, lease: Lease, now: Timestamp, mono: Duration) {
        if !matches!(lease, Lease::Unavailable(_)) {
            self.store_denied_logged = None;
        }
        match (acquire, lease) {
            (Acquire::Enable(w), Lease::Granted(units)) => {
                let budget = Budget::of(&w);
                let leased = bounded_part(budget, units);
                let still = self.open.is_none()
                    && self.may_capture()
                    && self
                        .active_window(now)
                        .is_some_and(|a| a.same_definition(&w));
                if !still {
                    // Rights went while the job ran: give the lease back.
                    self.pending.push_back(Pending::Release {
                        window: w,
                        leased,
                        spent: Units::default(),
                    });
                    return;
                }
                // SECURITY: the monotonic deadline counts from the trusted
                // "now", so a clock set back does not lengthen it either.
                let left = w.end.duration_since(latest(now, self.floor)).unsigned_abs();
                self.stats.enabled += 1;
                if budget.is_bounded() {
                    self.stats.leases += 1;
                }
                self.denied_logged = true;
                self.epoch += 1;
                let file = stamp(&w.file);
                self.open = Some(Open {
                    budget,
                    deadline: mono + left,
                    leased,
                    spent: Units::default(),
                    last_lease: leased,
                    epoch: self.epoch,
                    file,
                    window: w,
                });
            }
            (Acquire::Refill { window, epoch, .. }, Lease::Granted(units)) => {
                let leased = bounded_part(Budget::of(&window), units);
                self.stats.leases += 1;
                match &mut self.open {
                    Some(o) if o.epoch == epoch => {
                        o.leased = o.leased.zip(leased, u64::saturating_add);
                        o.last_lease = leased;
                    }
                    _ => self.pending.push_back(Pending::Release {
                        window,
                        leased,
                        spent: Units::default(),
                    }),
                }
            }
            (acquire, Lease::Busy) => {
                self.lease_retry_at = Some(mono + LEASE_RETRY);
                let w = match &acquire {
                    Acquire::Enable(w) | Acquire::Refill { window: w, .. } => w,
                };
                if self.busy_logged.insert(w.id.clone()) {
                    self.pending.push_back(Pending::Event(busy_event(w)));
                    self.wanted = true;
                }
            }
            (acquire, Lease::Unavailable(fault)) => {
                // SECURITY: no lease; what is in hand may still be spent,
                // nothing more. Audited once per outage, retried soon.
                self.stats.store_failures += 1;
                self.store = Some(Some(fault));
                self.lease_retry_at = Some(mono + STORE_RETRY);
                if self.store_denied_logged != Some(fault) {
                    self.store_denied_logged = Some(fault);
                    let w = match &acquire {
                        Acquire::Enable(w) | Acquire::Refill { window: w, .. } => w,
                    };
                    self.pending
                        .push_back(Pending::Event(AuditEvent::FullDenied {
                            sink: self.sink.clone(),
                            window: Some(w.id.clone()),
                            why: DenyWhy::BudgetStoreUnavailable,
                            detail: Some(fault.as_str().to_owned()),
                        }));
                    self.wanted = true;
                }
                tracing::warn!(
                    "no new lease for sink `{}`: the budget store is {}",
                    self.sink,
                    fault.describe()
                );
            }
            (_, Lease::Short) => {}
            (acquire, Lease::Spent) => {
                let (w, epoch) = match acquire {
                    Acquire::Enable(w) => (w, None),
                    Acquire::Refill { window, epoch, .. } => (window, Some(epoch)),
                };
                self.closed_for_good
                    .insert(w.id.clone(), CloseCause::BudgetSpent);
                if let Some(o) = &self.open
                    && Some(o.epoch) == epoch
                {
                    // The release and the close were written with the lease
                    // request; nothing was spendable meanwhile.
                    self.open = None;
                    self.stats.closed += 1;
                    self.used.insert(w.id);
                }
            }
            (_, Lease::Closed(cause)) => {
                // Recorded through `done.closed`; housekeeping ends the use.
                let _ = cause;
            }
        }
    }
}

/// Audit work taken out of a [`Capture`] by [`Capture::job`].
pub struct Job {
    io: Option<Box<Io>>,
    settings: Option<crate::policy::AuditSettings>,
    fleet: crate::policy::FleetSettings,
    store_client: Option<StoreClient>,
    policy_loaded: AuditEvent,
    pending: Vec<Pending>,
    acquire: Option<Acquire>,
    /// A sealed segment to vouch for (its opening entry).
    segment: Option<Prepared>,
    /// The segment is for the window this job enables.
    enabling: bool,
    follow: bool,
    holder: String,
    clock: Arc<dyn Clock>,
    /// Raise the log's clock mark to the trusted "now".
    mark: bool,
    /// The last job failed because the clock was behind the log: say in
    /// the log that capture stayed off, before anything else is written.
    note_clock: Option<AuditEvent>,
}

crate::io_text::debug_as!(Job, |j| "Job" {
    pending: j.pending.len(),
    follow: j.follow,
    ..
});

/// The result of a [`Job`], for [`Capture::apply`].
pub struct Done {
    io: Option<Box<Io>>,
    failure: Option<String>,
    /// The failure was a clock behind the log's last entry.
    clock_behind: bool,
    /// The clock-recovery note was written.
    noted_clock: bool,
    written: usize,
    acquired: Option<(Acquire, Lease)>,
    closed: HashMap<String, CloseCause>,
    store: Option<Option<StoreFault>>,
    /// The time floor the log vouches for, read after its new entries.
    floor: Option<Timestamp>,
    /// The clock mark as left by this job, when it raised it.
    marked: Option<Timestamp>,
    /// The segment whose opening entry this job appended.
    segment: Option<Prepared>,
}

crate::io_text::debug_as!(Done, |d| "Done" {
    written: d.written,
    failed: d.failure.is_some(),
    ..
});

fn open_io(
    settings: &crate::policy::AuditSettings,
    fleet: &crate::policy::FleetSettings,
    store: Option<StoreClient>,
) -> Result<Io, crate::audit::AuditError> {
    let key = AuditKey::load_if(settings.key_file.as_deref())?;
    let mut ledger = Ledger::open(
        settings.path.clone(),
        key,
        settings.lock_timeout,
        settings.anchor.clone(),
        super::budget::load_signer(settings)?,
    )?;
    let replica_id = crate::fleet::replica_id(fleet);
    let source = budget_source(fleet, &replica_id, store);
    ledger.set_replica_id(Some(replica_id));
    Ok(Io { ledger, source })
}

impl Done {
    fn fail(&mut self, e: &crate::audit::AuditError) {
        self.clock_behind = matches!(e, crate::audit::AuditError::ClockBehind { .. });
        self.failure = Some(e.to_string());
    }
}

impl Job {
    /// Do the work: blocks on the audit log (its lock, fsync). Run it where
    /// no lock is held that a record's path needs.
    pub fn run(self) -> Done {
        let mut done = Done {
            io: None,
            failure: None,
            clock_behind: false,
            noted_clock: false,
            written: 0,
            acquired: None,
            closed: HashMap::new(),
            store: None,
            floor: None,
            marked: None,
            segment: None,
        };
        let clock = self.clock;
        // This gate's claim on `window`.
        let claim = |window, leased, spent| Claim {
            window,
            holder: &self.holder,
            leased,
            spent,
        };
        let mut io = match (self.io, &self.settings) {
            (Some(io), _) => io,
            (None, Some(settings)) => {
                // SECURITY: a log we cannot read back might hide a close or
                // a lease; then nothing is enabled.
                let opened =
                    open_io(settings, &self.fleet, self.store_client).and_then(|mut io| {
                        io.ledger.append(&self.policy_loaded, clock.utc())?;
                        Ok(io)
                    });
                match opened {
                    Ok(io) => Box::new(io),
                    Err(e) => {
                        done.fail(&e);
                        return done;
                    }
                }
            }
            (None, None) => return done,
        };
        if let Some(note) = &self.note_clock {
            // SECURITY: capture stayed off while the clock was behind the
            // log; the log says so before anything else is written.
            if let Err(e) = io.ledger.append(note, clock.utc()) {
                done.fail(&e);
                return done;
            }
            done.noted_clock = true;
        }
        for p in &self.pending {
            let r = match p {
                Pending::Event(e) => io.ledger.append(e, clock.utc()),
                Pending::Expire { window, sink } => io.ledger.transact(clock.utc(), |book| {
                    if book.closed().contains_key(window) {
                        return (Vec::new(), ());
                    }
                    let close = AuditEvent::WindowClosed {
                        window: window.clone(),
                        sink: sink.clone(),
                        cause: CloseCause::Expired,
                    };
                    (vec![close], ())
                }),
                Pending::Release {
                    window,
                    leased,
                    spent,
                } => {
                    let claim = claim(window, *leased, *spent);
                    io.source.release(&mut io.ledger, claim, clock.utc())
                }
            };
            if let Err(e) = r {
                // SECURITY: a log that failed once is dropped: no full
                // capture until it can be reopened and appended to again.
                done.fail(&e);
                return done;
            }
            done.written += 1;
        }
        if self.follow
            && let Err(e) = io.ledger.follow()
        {
            done.fail(&e);
            return done;
        }
        // SECURITY: what time has surely passed, read before anything is
        // enabled or leased: a window that ended by it is not, whatever
        // the clock says. A clock mark that cannot be read fails closed.
        let floor = match io.ledger.time_floor(&|t| clock.file_time(t)) {
            Ok(f) => f,
            Err(e) => {
                done.fail(&e);
                return done;
            }
        };
        done.floor = floor;
        let late = latest(clock.utc(), floor);
        let ended = self.acquire.as_ref().is_some_and(|a| match a {
            Acquire::Enable(w) | Acquire::Refill { window: w, .. } => late >= w.end,
        });
        if ended && let Some(acquire) = self.acquire {
            done.acquired = Some((acquire, Lease::Closed(CloseCause::Expired)));
        } else if let Some(acquire) = self.acquire {
            let result = match &acquire {
                Acquire::Enable(w) => {
                    let claim = claim(w, Units::default(), Units::default());
                    let need = Units::new(1, 1);
                    io.source
                        .lease(&mut io.ledger, claim, need, true, clock.utc())
                }
                Acquire::Refill {
                    window,
                    leased,
                    spent,
                    need,
                    ..
                } => {
                    let claim = claim(window, *leased, *spent);
                    io.source
                        .lease(&mut io.ledger, claim, *need, false, clock.utc())
                }
            };
            done.store = io.source.store_state();
            match result {
                Ok(lease) => done.acquired = Some((acquire, lease)),
                Err(e) => {
                    done.fail(&e);
                    done.closed = io.ledger.book().closed().clone();
                    return done;
                }
            }
        }
        if done.store.is_none() {
            done.store = io.source.store_state().filter(|_| !self.pending.is_empty());
        }
        // A segment for the window this job enabled goes with a granted
        // enablement only.
        let enabled = matches!(
            &done.acquired,
            Some((Acquire::Enable(_), Lease::Granted(_)))
        );
        if let Some(p) = self.segment
            && (enabled || !self.enabling)
        {
            // SECURITY: the log vouches for a segment before any of it goes
            // out; a segment whose entry failed is dropped (its key with it).
            if let Err(e) = io.ledger.append(p.opened(), clock.utc()) {
                done.fail(&e);
                done.closed = io.ledger.book().closed().clone();
                return done;
            }
            done.segment = Some(p);
        }
        if self.mark {
            match io.ledger.raise_high_water(latest(clock.utc(), floor)) {
                Ok(m) => done.marked = Some(m),
                Err(e) => {
                    // SECURITY: a mark that cannot be kept fails closed,
                    // as the log itself does.
                    done.fail(&e);
                    done.closed = io.ledger.book().closed().clone();
                    return done;
                }
            }
        }
        done.closed = io.ledger.book().closed().clone();
        done.io = Some(io);
        done
    }
}
