//! Hot reload of the policy folder for an in-process gate, judged the way
//! `serve` judges a change (`src/daemon/reload.rs`): read whole, compiled
//! whole, swapped in or refused, audited either way.
//!
//! The daemon's watcher drives a tokio pipeline; this one is a plain thread
//! polling the policy's content digest every [`POLL_EVERY`] (no file
//! events: the extension links no `notify`), and applies a change to the
//! one [`State`] the exporter judges with, under its lock, so that a batch
//! is judged by exactly one policy version.
//!
//! **Invariant (as in `serve`):** a refused policy grants nothing new. The
//! last good policy stays in force, except that the windows the refused
//! content takes away are closed for good at once (`window_closed`, cause
//! `revoked`); the refusal is audited `policy_rejected`. A policy that
//! takes effect is first audited `policy_loaded`; if that entry cannot be
//! written the change does not happen.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use tracegate::internals::audit::{CAUSE_CAP, cap};
use tracegate::internals::fleet::replica_id;
use tracegate::internals::policy::compile::policy_digest;
use tracegate::internals::policy::load::{
    MAX_POLICY_FILE_BYTES, PolicyFile, SETTLE, read_policy, read_regular, young_files,
};
use tracegate::internals::policy::redaction::rehash;
use tracegate::internals::policy::revoke::still_granted;
use tracegate::internals::window::budget::open_configured;
use tracegate::{AuditEvent, Clock, Policy};

use crate::gate::State;

/// How often the policy's content digest is compared with the one in force.
pub const POLL_EVERY: Duration = Duration::from_secs(1);

/// What the watcher remembers between polls.
#[derive(Debug, Default)]
pub struct Watch {
    /// Digest (or read error) of the last content judged, good or bad: the
    /// same content is never judged (or audited) twice in a row.
    last: String,
    /// Content first seen while still settling, and when.
    pending: Option<(String, Instant)>,
}

impl Watch {
    /// Start from the policy in force.
    pub fn new(policy: &Policy) -> Watch {
        Watch {
            last: policy.sha256().to_string(),
            pending: None,
        }
    }
}

/// Counters the Python side reads (`Gate.reloads`).
#[derive(Debug, Default)]
pub struct Counters {
    /// Policies swapped in.
    pub loaded: AtomicU64,
    /// Policy contents refused.
    pub refused: AtomicU64,
}

/// Poll once: when the policy's content changed and has settled, compile
/// it and swap it in, or refuse it. Blocking (file IO, fsync).
pub fn poll(state: &Mutex<State>, watch: &mut Watch, counters: &Counters) {
    // Reading and compiling happen outside the gate's lock: a batch being
    // judged never waits for a compile. The swap takes the lock.
    let (current, path) = {
        let s = state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.closed {
            return;
        }
        (Arc::clone(&s.policy), s.policy.source().to_path_buf())
    };
    let read = match read_policy(&path) {
        Ok(r) => r,
        Err(e) => {
            let cause = e.public_summary();
            let mark = format!("unreadable: {cause}");
            if mark == watch.last {
                return;
            }
            watch.last = mark;
            watch.pending = None;
            refuse(
                state,
                &current,
                &readable_files(&current),
                &cause,
                None,
                counters,
            );
            return;
        }
    };
    let digest = policy_digest(&read.files, &rehash(current.referenced()));
    if digest == watch.last {
        return;
    }
    // SECURITY: judge only settled content (as `serve`): a file modified
    // within SETTLE may still be being written, and a window file caught
    // mid-write must never be enabled with looser bounds than its final
    // form.
    let now = Instant::now();
    let referenced: Vec<PathBuf> = current
        .referenced()
        .iter()
        .filter_map(|r| r.path.clone())
        .collect();
    let young = read
        .unsettled(SystemTime::now(), SETTLE)
        .map(|(_, d)| d)
        .into_iter()
        .chain(young_files(&referenced, SystemTime::now(), SETTLE))
        .max();
    if young.is_some() {
        let seen_long_enough = read.changed_while_read.is_none()
            && watch
                .pending
                .as_ref()
                .is_some_and(|(d, at)| *d == digest && now.duration_since(*at) >= SETTLE);
        if !seen_long_enough {
            if watch.pending.as_ref().is_none_or(|(d, _)| *d != digest) {
                watch.pending = Some((digest, now));
            }
            return;
        }
    }
    watch.pending = None;
    watch.last = digest.clone();
    if digest == current.sha256() {
        // Back to the content in force (after a refused edit).
        return;
    }
    match Policy::from_files(&path, &read.files) {
        Ok(policy) => apply(state, &current, policy, &read.files, counters),
        Err(errs) => refuse(
            state,
            &current,
            &read.files,
            &errs.public_summary(),
            Some(digest),
            counters,
        ),
    }
}

/// Swap `policy` in, once its load is in the audit log.
fn apply(
    state: &Mutex<State>,
    current: &Arc<Policy>,
    policy: Policy,
    files: &[PolicyFile],
    counters: &Counters,
) {
    let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
    if s.closed || !Arc::ptr_eq(&s.policy, current) {
        return;
    }
    let revision = s.revision + 1;
    if let Some(settings) = policy.audit() {
        // SECURITY: the new policy takes effect only once its load is
        // durably in the audit log; if the entry fails, the change does
        // not happen (what it takes away still does).
        let event = policy.loaded_event(revision);
        if let Err(e) = append(&policy, settings, &event, s.clock.as_ref()) {
            drop(s);
            let cause = format!("audit log not writable: {e}");
            refuse(
                state,
                current,
                files,
                &cause,
                Some(policy.sha256().to_string()),
                counters,
            );
            return;
        }
    }
    s.swap(Arc::new(policy), revision);
    counters.loaded.fetch_add(1, Ordering::Relaxed);
}

/// Record a refusal: close the windows the refused content takes away,
/// and audit `policy_rejected` in the log of the policy in force.
/// `cause` is free of policy values (a `PolicyErrors::public_summary`).
fn refuse(
    state: &Mutex<State>,
    current: &Arc<Policy>,
    files: &[PolicyFile],
    cause: &str,
    sha: Option<String>,
    counters: &Counters,
) {
    let kept = still_granted(current, files);
    let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
    // SECURITY: taking rights away never waits for a valid policy.
    if let Some(c) = s.capture.as_mut() {
        c.revoke(&|id| kept.contains(id));
    }
    if let Some(settings) = s.policy.audit() {
        let event = AuditEvent::PolicyRejected {
            cause: cap(cause, CAUSE_CAP),
            policy_sha256: sha,
        };
        if let Err(e) = append(&s.policy, settings, &event, s.clock.as_ref()) {
            tracing::error!(error = %e, "cannot audit the refused reload");
        }
    }
    counters.refused.fetch_add(1, Ordering::Release);
}

/// Append one entry to the log `settings` names (open, lock, append, fsync).
fn append(
    policy: &Policy,
    settings: &tracegate::settings::AuditSettings,
    event: &AuditEvent,
    clock: &dyn Clock,
) -> Result<(), tracegate::AuditError> {
    let mut log = open_configured(settings)?;
    log.set_replica_id(Some(replica_id(policy.fleet())));
    log.append(event, clock.utc())?;
    Ok(())
}

/// The files of the policy in force that can still be read, for deciding
/// what a policy that cannot be read whole still grants.
fn readable_files(current: &Policy) -> Vec<PolicyFile> {
    current
        .files()
        .iter()
        .filter_map(|f| {
            let r = read_regular(f, MAX_POLICY_FILE_BYTES).ok()?;
            let text = String::from_utf8(r.bytes).ok()?;
            Some(PolicyFile {
                path: f.clone(),
                text,
            })
        })
        .collect()
}

/// The watcher thread, stopped and joined by [`Watcher::stop`] (or drop).
pub struct Watcher {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    /// Poll `state`'s policy every `every` on a thread of its own.
    pub fn start(
        state: Arc<Mutex<State>>,
        counters: Arc<Counters>,
        every: Duration,
    ) -> std::io::Result<Watcher> {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let stop2 = Arc::clone(&stop);
        let mut watch = {
            let s = state.lock().unwrap_or_else(PoisonError::into_inner);
            Watch::new(&s.policy)
        };
        let thread = std::thread::Builder::new()
            .name("tracegate-reload".into())
            .spawn(move || {
                let (lock, cv) = &*stop2;
                loop {
                    {
                        let stopped = lock.lock().unwrap_or_else(PoisonError::into_inner);
                        let (stopped, _) = cv
                            .wait_timeout_while(stopped, every, |s| !*s)
                            .unwrap_or_else(PoisonError::into_inner);
                        if *stopped {
                            return;
                        }
                    }
                    poll(&state, &mut watch, &counters);
                }
            })?;
        Ok(Watcher {
            stop,
            thread: Some(thread),
        })
    }

    /// Stop polling and wait for the thread (at most one poll in flight).
    pub fn stop(&mut self) {
        let (lock, cv) = &*self.stop;
        *lock.lock().unwrap_or_else(PoisonError::into_inner) = true;
        cv.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop();
    }
}
