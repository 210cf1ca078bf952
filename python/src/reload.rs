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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tracegate::internals::audit::{CAUSE_CAP, cap};
use tracegate::internals::fleet::replica_id;
use tracegate::internals::policy::load::{Look, PolicyFile, Reread, readable_files};
use tracegate::internals::policy::revoke::still_granted;
use tracegate::internals::window::budget::open_configured;
use tracegate::{AuditEvent, Clock, Policy};

use crate::gate::State;

/// How often the policy's content digest is compared with the one in force.
pub const POLL_EVERY: Duration = Duration::from_secs(1);

/// What the watcher remembers between polls: the library's [`Reread`],
/// shared with `serve`'s reload.
pub type Watch = Reread;

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
    let (read, digest) = match watch.look(&path, &current) {
        Look::Content { read, digest } => (read, digest),
        Look::Unreadable { fresh: false, .. } => return,
        Look::Unreadable { cause, fresh: true } => {
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
    if watch.judged_already(&digest)
        || watch
            .settled(&read, &digest, &current, Instant::now())
            .is_err()
    {
        return;
    }
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
            Reread::new(&s.policy)
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
