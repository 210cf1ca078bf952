//! Hot reload: watch the policy, compile a change whole, swap it in or
//! refuse it, audited either way.
//!
//! The watcher listens on the policy file's parent folder (editors replace
//! a file by renaming a temporary over it; Kubernetes swaps a `..data`
//! symlink in a ConfigMap volume), or on the policy folder itself,
//! recursively. Events are debounced; a content-hash check every
//! [`POLL_EVERY`] catches whatever events were lost.
//!
//! **Invariant:** a refused policy changes nothing: the last good one stays
//! in force. A policy that takes effect was first audited `policy_loaded`
//! (when it has an `[audit] path`); windows it removes or changes were
//! closed, audited, before the swap.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};
use tokio::sync::{Notify, watch};

use super::pipeline::{Pipeline, ReloadError};
use crate::audit::{AuditEvent, AuditKey, AuditLog, CAUSE_CAP, cap};
use crate::policy::compile::{compile, policy_digest};
use crate::policy::load::read_policy_files;
use crate::policy::{AuditSettings, Policy};

/// Quiet time after the last file event before a reload is tried.
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// The fallback content-hash check.
pub const POLL_EVERY: Duration = Duration::from_secs(2);

/// What the watcher remembers between attempts.
#[derive(Debug, Clone)]
pub struct WatchState {
    /// Digest (or read error) of the last content looked at, good or bad:
    /// the same content is never judged (or audited) twice in a row.
    last: String,
}

impl WatchState {
    /// Start from the policy in force.
    pub fn new(p: &Pipeline) -> WatchState {
        WatchState {
            last: p.snapshot().policy.sha256.clone(),
        }
    }
}

/// How an attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The content was the same as last time.
    Unchanged,
    /// The new policy is in force, as this revision.
    Loaded(u64),
    /// The new policy was refused; the last good one stays.
    Refused,
}

/// Read the policy and, when it changed, compile and apply or refuse it.
/// Blocking (file IO, fsync): run it off the async workers.
pub fn try_reload(p: &Pipeline, state: &mut WatchState) -> Attempt {
    let files = match read_policy_files(&p.policy_path) {
        Ok(f) => f,
        Err(e) => {
            let cause = first_line(&e.to_string());
            let mark = format!("unreadable: {cause}");
            if mark == state.last {
                return Attempt::Unchanged;
            }
            state.last = mark;
            refuse(p, &cause, None);
            return Attempt::Refused;
        }
    };
    let digest = policy_digest(&files);
    if digest == state.last {
        return Attempt::Unchanged;
    }
    state.last = digest.clone();
    if digest == p.snapshot().policy.sha256 {
        // Back to the content in force (after a refused edit): nothing to do.
        *p.last_reload_error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        return Attempt::Unchanged;
    }
    match compile(&p.policy_path, &files) {
        Ok(policy) => apply(p, policy),
        Err(errs) => {
            let cause = first_line(&errs.to_string());
            refuse(p, &cause, Some(digest));
            Attempt::Refused
        }
    }
}

fn apply(p: &Pipeline, policy: Policy) -> Attempt {
    let current = p.snapshot();
    let revision = current.revision + 1;
    if let Some(settings) = &policy.audit {
        let event = AuditEvent::PolicyLoaded {
            policy_sha256: policy.sha256.clone(),
            revision,
            source: policy.source.display().to_string(),
        };
        // SECURITY: the new policy takes effect only once its load is
        // durably in the audit log (SPEC: if the entry fails, the change
        // does not happen).
        if let Err(e) = append(settings, &event, p) {
            let cause = format!("audit log not writable: {e}");
            refuse(p, &cause, Some(policy.sha256.clone()));
            return Attempt::Refused;
        }
    }
    let sha = policy.sha256.clone();
    if policy.server.listen != current.policy.server.listen {
        tracing::warn!(listen = %policy.server.listen, "`server.listen` changed: it takes effect at restart");
    }
    let active = p.build(Arc::new(policy), revision);
    // Status readers see the error cleared no later than the new revision.
    *p.last_reload_error
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    p.swap(active);
    p.metrics.reloads_ok.fetch_add(1, Ordering::Relaxed);
    tracing::info!(revision, policy_sha256 = %sha, "policy reloaded");
    Attempt::Loaded(revision)
}

fn refuse(p: &Pipeline, cause: &str, sha: Option<String>) {
    let cause = cap(cause, CAUSE_CAP);
    tracing::warn!(cause = %cause, "policy reload refused; the last good policy stays in force");
    let current = p.snapshot();
    if let Some(settings) = &current.policy.audit {
        let event = AuditEvent::PolicyRejected {
            cause: cause.clone(),
            policy_sha256: sha,
        };
        if let Err(e) = append(settings, &event, p) {
            tracing::error!(error = %e, "cannot audit the refused reload");
        }
    }
    *p.last_reload_error
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(ReloadError {
        at: p.clock().utc(),
        cause,
    });
    // Counted last: whoever sees the count also sees the cause and the entry.
    p.metrics.reloads_refused.fetch_add(1, Ordering::Relaxed);
}

/// Append one entry to the log `settings` names (open, lock, append, fsync).
pub fn append(settings: &AuditSettings, event: &AuditEvent, p: &Pipeline) -> anyhow::Result<()> {
    let key = match &settings.key_file {
        Some(k) => Some(AuditKey::load(k)?),
        None => None,
    };
    let mut log = AuditLog::open(&settings.path, key, settings.lock_timeout)?
        .with_anchor(settings.anchor.clone())?;
    log.append(event, p.clock().utc())?;
    Ok(())
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

/// Watch the policy until `shutdown`, reloading on change, and whenever
/// `reload_now` is notified (SIGHUP): the same attempt as a file change.
pub async fn run(p: Arc<Pipeline>, mut shutdown: watch::Receiver<bool>, reload_now: Arc<Notify>) {
    let changed = Arc::new(Notify::new());
    // Without a watcher (none could be set up) only the poll finds changes.
    let watcher = start_watcher(&p.policy_path, Arc::clone(&changed));
    let mut poll = tokio::time::interval(POLL_EVERY);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut state = Some(WatchState::new(&p));
    loop {
        tokio::select! {
            _ = shutdown.changed() => break,
            () = changed.notified() => {
                // Debounce: wait until the folder is quiet.
                while tokio::time::timeout(DEBOUNCE, changed.notified()).await.is_ok() {}
                state = attempt(&p, state).await;
            }
            _ = poll.tick() => state = attempt(&p, state).await,
            () = reload_now.notified() => state = attempt(&p, state).await,
        }
    }
    drop(watcher);
}

async fn attempt(p: &Arc<Pipeline>, state: Option<WatchState>) -> Option<WatchState> {
    let p2 = Arc::clone(p);
    let mut s = state.unwrap_or_else(|| WatchState::new(p));
    match tokio::task::spawn_blocking(move || {
        try_reload(&p2, &mut s);
        s
    })
    .await
    {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::error!(error = %e, "policy reload task failed");
            None
        }
    }
}

fn start_watcher(path: &Path, changed: Arc<Notify>) -> Option<notify::RecommendedWatcher> {
    let is_dir = path.is_dir();
    let (dir, mode) = if is_dir {
        (path.to_path_buf(), RecursiveMode::Recursive)
    } else {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        (parent, RecursiveMode::NonRecursive)
    };
    let name = path.file_name().map(|n| n.to_os_string());
    let handler = move |res: notify::Result<notify::Event>| {
        let Ok(ev) = res else {
            changed.notify_one();
            return;
        };
        // In a file's parent folder only the file itself and Kubernetes'
        // `..data` swaps matter; sink and audit files may live there too.
        let relevant = is_dir
            || ev.paths.is_empty()
            || ev.paths.iter().any(|p| match p.file_name() {
                Some(f) => Some(f) == name.as_deref() || f.to_string_lossy().starts_with(".."),
                None => true,
            });
        if relevant {
            changed.notify_one();
        }
    };
    let mut w = match notify::recommended_watcher(handler) {
        Ok(w) => w,
        Err(e) => {
            tracing::warn!(error = %e, "cannot watch the policy; polling only");
            return None;
        }
    };
    if let Err(e) = w.watch(&dir, mode) {
        tracing::warn!(error = %e, folder = %dir.display(), "cannot watch the policy folder; polling only");
        return None;
    }
    Some(w)
}
