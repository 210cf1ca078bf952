//! Enabling and closing capture windows for one sink, audited first.
//!
//! A [`Capture`] answers, record by record, "at which level may this sink
//! receive the next record?" It enables a window only after its
//! `window_enabled` entry is durably in the audit log, checks expiry on every
//! call (by the UTC clock *and* a monotonic deadline fixed at enablement),
//! spends budgets, and writes `window_closed` when a window ends.
//!
//! **Invariant:** `level()` returns [`Level::Full`] only while an enabled
//! window is open, its enablement was appended and fsynced, its budgets hold
//! and neither clock says it has ended. Every failure path returns
//! [`Level::Standard`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use super::clock::Clock;
use super::{WindowState, state_at};
use crate::audit::{AuditEvent, AuditKey, AuditLog, CloseCause, DenyWhy, closed_windows};
use crate::gate::Level;
use crate::policy::{Policy, Window};

/// After an audit failure, wait this long before trying to enable again.
const AUDIT_RETRY: Duration = Duration::from_secs(1);
/// How often the kill switch is looked at (a `stat`), so that every gate
/// honours it within a second.
const KILL_SWITCH_EVERY: Duration = Duration::from_millis(250);

/// An enabled window.
#[derive(Debug)]
struct Open {
    id: String,
    end: Timestamp,
    deadline: Duration,
    records: u64,
    bytes: u64,
    max_records: Option<u64>,
    max_bytes: Option<u64>,
}

/// Counters a caller may report.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CaptureStats {
    /// Windows enabled in this run.
    pub enabled: u64,
    /// Windows closed in this run.
    pub closed: u64,
    /// Audit appends that failed.
    pub audit_failures: u64,
}

/// The full-capture state of one sink.
pub struct Capture {
    policy: Arc<Policy>,
    clock: Arc<dyn Clock>,
    sink: String,
    full_allowed: bool,
    audit: Option<AuditLog>,
    closed_for_good: HashMap<String, CloseCause>,
    /// Windows this run enabled and then closed: not enabled again.
    used: HashSet<String>,
    open: Option<Open>,
    denied_logged: bool,
    retry_at: Option<Duration>,
    stats: CaptureStats,
    /// When the kill switch was last looked at, and whether it was engaged.
    kill_checked: Option<(Duration, bool)>,
}

impl std::fmt::Debug for Capture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capture")
            .field("sink", &self.sink)
            .field("open", &self.open.as_ref().map(|o| &o.id))
            .finish()
    }
}

impl Capture {
    /// Prepare capture for `sink`. For a `full_allowed` sink this opens the
    /// audit log, reads which windows it closed for good, and records
    /// `policy_loaded`. If the log is unusable, full capture stays off: the
    /// failure is reported on stderr and the sink gets standard records.
    pub fn start(
        policy: Arc<Policy>,
        clock: Arc<dyn Clock>,
        sink: &str,
    ) -> anyhow::Result<Capture> {
        let full_allowed = policy.sink(sink).is_some_and(|s| s.full_allowed);
        let mut c = Capture {
            policy,
            clock,
            sink: sink.to_string(),
            full_allowed,
            audit: None,
            closed_for_good: HashMap::new(),
            used: HashSet::new(),
            open: None,
            denied_logged: false,
            retry_at: None,
            stats: CaptureStats::default(),
            kill_checked: None,
        };
        if full_allowed {
            c.open_audit();
        }
        Ok(c)
    }

    fn open_audit(&mut self) {
        let Some(settings) = self.policy.audit().cloned() else {
            return;
        };
        let key = match &settings.key_file {
            Some(p) => match AuditKey::load(p) {
                Ok(k) => Some(k),
                Err(e) => {
                    self.audit_failed(&e.to_string());
                    return;
                }
            },
            None => None,
        };
        // SECURITY: a log we cannot read back might hide a window closed for
        // good; then no window is enabled at all.
        let closed = match closed_windows(&settings.path, key.as_ref()) {
            Ok(c) => c,
            Err(e) if is_missing(&e) => HashMap::new(),
            Err(e) => {
                self.audit_failed(&e.to_string());
                return;
            }
        };
        match AuditLog::open(&settings.path, key, settings.lock_timeout) {
            Ok(mut log) => {
                let event = AuditEvent::policy_loaded(&self.policy, 1);
                match log.append(&event, self.clock.utc()) {
                    Ok(_) => {
                        self.closed_for_good = closed;
                        self.audit = Some(log);
                    }
                    Err(e) => self.audit_failed(&e.to_string()),
                }
            }
            Err(e) => self.audit_failed(&e.to_string()),
        }
    }

    fn audit_failed(&mut self, why: &str) {
        self.stats.audit_failures += 1;
        self.retry_at = Some(self.clock.monotonic() + AUDIT_RETRY);
        eprintln!(
            "tracegate: full capture for sink `{}` stays off: {why}",
            self.sink
        );
    }

    /// Counters so far.
    pub fn stats(&self) -> CaptureStats {
        self.stats
    }

    /// Whether full capture could be enabled as far as the audit log goes:
    /// `true` for a sink that is not `full_allowed` (it needs no log), else
    /// whether the log is open and its last append succeeded.
    pub fn audit_ready(&self) -> bool {
        !self.full_allowed || self.audit.is_some()
    }

    /// The sink this capture decides for.
    pub fn sink(&self) -> &str {
        &self.sink
    }

    /// Adopt a new policy version (hot reload), audited first.
    ///
    /// The open window stays open only when the new policy still defines it
    /// for this sink, unchanged (bounds, budgets, reason, requester) and the
    /// sink is still `full_allowed`; spent budgets carry over. Otherwise it
    /// is closed with cause `removed`, for good: a window id names one
    /// definition, so changing a window (shortening, extending, new budget)
    /// under the same id ends it, and reopening takes a new id. Windows that
    /// were not open need no entry: the new policy's windows are enabled by
    /// [`Capture::level`] as usual. When `[audit]` changed, the log is
    /// reopened (and its closed windows read again) on the next call.
    pub fn reload(&mut self, policy: Arc<Policy>) {
        let full_allowed = policy.sink(&self.sink).is_some_and(|s| s.full_allowed);
        if let Some(open) = &self.open {
            let old = self.policy.windows().iter().find(|w| w.id == open.id);
            let new = policy
                .windows()
                .iter()
                .find(|w| w.id == open.id && w.sink == self.sink);
            let unchanged = match (old, new) {
                (Some(a), Some(b)) => same_window(a, b),
                _ => false,
            };
            if !full_allowed || !unchanged {
                // SECURITY: the old log records the close before the new
                // policy takes effect.
                self.close(CloseCause::Removed);
            }
        }
        let audit_changed = self.policy.audit() != policy.audit();
        self.policy = policy;
        self.full_allowed = full_allowed;
        if audit_changed {
            if self.open.is_some() {
                // The enablement was recorded in the old log: do not carry it.
                self.close(CloseCause::Removed);
            }
            self.audit = None;
            self.retry_at = None;
        }
    }

    /// The id of the window open now, if any.
    pub fn open_window(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.id.as_str())
    }

    /// The level the sink may receive the next record at.
    pub fn level(&mut self) -> Level {
        if !self.full_allowed {
            return Level::Standard;
        }
        let now = self.clock.utc();
        let mono = self.clock.monotonic();
        // SECURITY: the kill switch needs neither a valid policy nor a
        // writable log: while it is engaged nothing goes out full, and the
        // open window closes for good.
        if self.kill_switch(mono) {
            self.close(CloseCause::Removed);
            return Level::Standard;
        }
        if let Some(open) = &self.open {
            if now < open.end && mono < open.deadline {
                return Level::Full;
            }
            self.close(CloseCause::Expired);
        }
        if self.audit.is_none() {
            if self.retry_at.is_some_and(|t| mono < t) {
                return Level::Standard;
            }
            self.retry_at = None;
            self.open_audit();
            if self.audit.is_none() {
                return Level::Standard;
            }
        }
        let Some(w) = self.active_window(now).cloned() else {
            if !self.denied_logged {
                self.denied_logged = true;
                self.append(&AuditEvent::FullDenied {
                    sink: self.sink.clone(),
                    window: None,
                    why: DenyWhy::NoWindow,
                    detail: None,
                });
            }
            return Level::Standard;
        };
        self.enable(&w, now, mono)
    }

    fn active_window(&self, now: Timestamp) -> Option<&Window> {
        self.policy.windows().iter().find(|w| {
            w.sink == self.sink
                && !self.used.contains(&w.id)
                && state_at(w, now, &self.closed_for_good) == WindowState::Active
        })
    }

    fn enable(&mut self, w: &Window, now: Timestamp, mono: Duration) -> Level {
        let event = AuditEvent::WindowEnabled {
            window: w.id.clone(),
            sink: w.sink.clone(),
            start: w.start,
            end: w.end,
            reason: w.reason.clone(),
            requested_by: w.requested_by.clone(),
            max_records: w.max_records,
            max_bytes: w.max_bytes,
        };
        // SECURITY: the enablement is durable before the first full record.
        if !self.append(&event) {
            return Level::Standard;
        }
        let left = w.end.duration_since(now).unsigned_abs();
        self.stats.enabled += 1;
        // Once a window was enabled, "no window" is no longer news.
        self.denied_logged = true;
        self.open = Some(Open {
            id: w.id.clone(),
            end: w.end,
            deadline: mono + left,
            records: 0,
            bytes: 0,
            max_records: w.max_records,
            max_bytes: w.max_bytes,
        });
        Level::Full
    }

    /// Account for one full record of `bytes` about to be delivered.
    /// Returns `false` (and closes the window) when the budget does not
    /// allow it; the caller then delivers the record at standard level.
    pub fn spend(&mut self, bytes: usize) -> bool {
        let Some(open) = &mut self.open else {
            return false;
        };
        let bytes = bytes as u64;
        let over_records = open.max_records.is_some_and(|m| open.records >= m);
        let over_bytes = open.max_bytes.is_some_and(|m| open.bytes + bytes > m);
        if over_records || over_bytes {
            self.close(CloseCause::BudgetSpent);
            return false;
        }
        open.records += 1;
        open.bytes += bytes;
        let spent = open.max_records.is_some_and(|m| open.records >= m)
            || open.max_bytes.is_some_and(|m| open.bytes >= m);
        if spent {
            self.close(CloseCause::BudgetSpent);
        }
        true
    }

    /// Close the open window, if any, for `cause`. The window closes even if
    /// the audit entry cannot be written (closing only takes rights away).
    pub fn close(&mut self, cause: CloseCause) {
        let Some(open) = self.open.take() else { return };
        self.stats.closed += 1;
        self.used.insert(open.id.clone());
        if matches!(cause, CloseCause::BudgetSpent | CloseCause::Removed) {
            self.closed_for_good.insert(open.id.clone(), cause);
        }
        self.append(&AuditEvent::WindowClosed {
            window: open.id,
            sink: self.sink.clone(),
            cause,
        });
    }

    /// End of run: close the open window for `shutdown`.
    pub fn finish(&mut self) {
        self.close(CloseCause::Shutdown);
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

    /// Close and bar every window whose id `keep` rejects: the open one is
    /// closed (cause `removed`, for good) and no window of this sink that
    /// `keep` rejects is enabled again by this capture. Used when a reload
    /// is refused but what could be read of it only takes rights away.
    ///
    /// (A minimal version: the capture owner's fuller one also queues the
    /// close entry while the audit log is down.)
    pub fn revoke(&mut self, keep: &dyn Fn(&str) -> bool) {
        if self.open.as_ref().is_some_and(|o| !keep(&o.id)) {
            self.close(CloseCause::Removed);
        }
        let barred: Vec<String> = self
            .policy
            .windows()
            .iter()
            .filter(|w| w.sink == self.sink && !keep(&w.id))
            .map(|w| w.id.clone())
            .collect();
        for id in barred {
            self.used.insert(id.clone());
            self.closed_for_good
                .entry(id)
                .or_insert(CloseCause::Removed);
        }
    }

    /// Append an audit entry; `false` (reported, counted) when it failed.
    fn append(&mut self, event: &AuditEvent) -> bool {
        let ts = self.clock.utc();
        let Some(log) = self.audit.as_mut() else {
            return false;
        };
        match log.append(event, ts) {
            Ok(_) => true,
            Err(e) => {
                // SECURITY: a log that failed once is dropped: no full capture
                // until it can be reopened and appended to again.
                self.audit = None;
                self.audit_failed(&e.to_string());
                false
            }
        }
    }
}

/// The same window definition, wherever it is written.
fn same_window(a: &Window, b: &Window) -> bool {
    a.id == b.id
        && a.sink == b.sink
        && a.start == b.start
        && a.end == b.end
        && a.reason == b.reason
        && a.requested_by == b.requested_by
        && a.max_records == b.max_records
        && a.max_bytes == b.max_bytes
}

fn is_missing(e: &crate::audit::AuditError) -> bool {
    e.io_kind() == Some(std::io::ErrorKind::NotFound)
}
