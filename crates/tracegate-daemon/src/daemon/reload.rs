//! Hot reload: watch the policy, compile a change whole, swap it in or
//! refuse it, audited either way.
//!
//! The watcher listens on the policy file's parent folder (editors replace
//! a file by renaming a temporary over it; Kubernetes swaps a `..data`
//! symlink in a ConfigMap volume), or on the policy folder itself,
//! recursively, and on the folders of the keyword lists and keys the policy
//! refers to. Events are debounced; a content-hash check every
//! [`POLL_EVERY`] (over the policy files *and* the files they refer to)
//! catches whatever events were lost.
//!
//! A change is judged only once it has settled ([`SETTLE`]): a file still
//! being written (a window file without its budget lines yet) is never
//! enabled with looser bounds than its final form.
//!
//! **Invariant:** a refused policy grants nothing new: the last good one
//! stays in force, except that windows the refused content clearly takes
//! away (their file deleted, broken or changed, on a sink no longer
//! `full_allowed`: [`still_granted`]) are closed for good and barred at
//! once ([`Pipeline::revoke`]), audited `window_closed` cause `revoked`.
//! A folder that only fails to merge (a stray copy of a file) takes
//! nothing away: its windows stay open, and status, metrics, log and
//! audit all say so. A
//! policy that takes effect was first audited `policy_loaded` (when it has
//! an `[audit] path`); windows it removes or changes were closed, audited,
//! before the swap. A reload refused because the audit log could not be
//! written is tried again, with backoff.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use notify::{RecursiveMode, Watcher};
use tokio::sync::{Notify, watch};

use super::pipeline::{Pipeline, ReloadError};
use crate::audit::{AuditEvent, CAUSE_CAP, cap, parent_or_dot};
use crate::policy::load::{Look, PolicyFile, Reread, SETTLE, readable_files};
use crate::policy::revoke::still_granted;
use crate::policy::{AuditSettings, Policy};
use crate::sink::counters::lock;

/// Quiet time after the last file event before a reload is tried.
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// The fallback content-hash check.
pub const POLL_EVERY: Duration = Duration::from_secs(2);
/// First wait before a reload refused for the audit log is tried again;
/// it doubles up to [`AUDIT_RETRY_MAX`].
pub const AUDIT_RETRY_FIRST: Duration = Duration::from_secs(1);
/// Longest wait between tries of a reload refused for the audit log.
pub const AUDIT_RETRY_MAX: Duration = Duration::from_secs(60);

/// What the watcher remembers between attempts.
#[derive(Debug, Clone)]
pub struct WatchState {
    /// The content last judged and content still settling (shared with
    /// every watcher of a policy path).
    reread: Reread,
    /// A reload refused because the audit log could not be written: its
    /// content, when to try again, and the wait after that.
    retry: Option<(String, Instant, Duration)>,
}

impl WatchState {
    /// Start from the policy in force.
    pub fn new(p: &Pipeline) -> WatchState {
        WatchState {
            reread: Reread::new(&p.snapshot().policy),
            retry: None,
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
    /// Try again after this long: the content is still settling, or the
    /// audit log refused the load.
    Later(Duration),
}

/// Read the policy and, when it changed, compile and apply or refuse it.
/// Blocking (file IO, fsync): run it off the async workers.
pub fn try_reload(p: &Pipeline, state: &mut WatchState) -> Attempt {
    let current = p.snapshot();
    let (read, digest) = match state.reread.look(&p.policy_path, &current.policy) {
        Look::Content { read, digest } => (read, digest),
        Look::Unreadable { fresh: false, .. } => return Attempt::Unchanged,
        Look::Unreadable { cause, fresh: true } => {
            revoke_readable(p, &current.policy, &readable_files(&current.policy));
            refuse(p, &cause, None);
            return Attempt::Refused;
        }
    };
    let now = Instant::now();
    if let Some((d, at, _)) = &state.retry {
        if *d == digest && now < *at {
            return Attempt::Later(*at - now);
        }
        if *d != digest {
            state.retry = None;
        }
    } else if state.reread.judged_already(&digest) {
        return Attempt::Unchanged;
    }
    if let Err(left) = state.reread.settled(&read, &digest, &current.policy, now) {
        return Attempt::Later(left.clamp(SETTLE / 4, SETTLE));
    }
    if digest == current.policy.sha256() {
        // Back to the content in force (after a refused edit): nothing to do.
        state.retry = None;
        *lock(&p.last_reload_error) = None;
        return Attempt::Unchanged;
    }
    match Policy::from_files_checked(&p.policy_path, &read.files, &crate::tls::PemCheck) {
        Ok(policy) => apply(p, policy, state, &digest),
        Err(errs) => {
            state.retry = None;
            revoke_readable(p, &current.policy, &read.files);
            refuse(p, &errs.public_summary(), Some(digest));
            Attempt::Refused
        }
    }
}

/// Close and bar every window in force that `files` no longer grant.
fn revoke_readable(p: &Pipeline, current: &Policy, files: &[PolicyFile]) {
    let kept = still_granted(current, files);
    let revoked: Vec<&str> = current
        .windows()
        .iter()
        .map(|w| w.id.as_str())
        .filter(|id| !kept.contains(*id))
        .collect();
    if !revoked.is_empty() {
        tracing::warn!(
            windows = ?revoked,
            "the refused policy takes these windows away: closed for good (audit `window_closed` cause `revoked`)"
        );
    }
    // SECURITY: taking rights away never waits for a valid policy.
    p.revoke(&|id| kept.contains(id));
}

fn apply(p: &Pipeline, policy: Policy, state: &mut WatchState, digest: &str) -> Attempt {
    let current = p.snapshot();
    let revision = current.revision + 1;
    if let Some(settings) = policy.audit() {
        let event = policy.loaded_event(revision);
        // SECURITY: the new policy takes effect only once its load is
        // durably in the audit log (docs/reference.md: if the entry fails, the change
        // does not happen). What it takes away happens anyway.
        if let Err(e) = append(settings, &event, p) {
            let granted = |id: &str| {
                policy.windows().iter().any(|w| {
                    w.id == id
                        && policy.sink(&w.sink).is_some_and(|s| s.full_allowed)
                        && current
                            .policy
                            .windows()
                            .iter()
                            .any(|o| o.id == id && o.same_definition(w))
                })
            };
            p.revoke(&granted);
            let wait = state
                .retry
                .as_ref()
                .map_or(AUDIT_RETRY_FIRST, |(_, _, w)| *w);
            state.retry = Some((
                digest.to_string(),
                Instant::now() + wait,
                (wait * 2).min(AUDIT_RETRY_MAX),
            ));
            let cause = format!("audit log not writable: {e}");
            refuse(p, &cause, Some(policy.sha256().to_string()));
            return Attempt::Later(wait);
        }
    }
    state.retry = None;
    let sha = policy.sha256().to_string();
    if policy.server().listen != current.policy.server().listen {
        tracing::warn!(listen = %policy.server().listen, "`server.listen` changed: it takes effect at restart");
    }
    if policy.server().grpc_listen != current.policy.server().grpc_listen {
        tracing::warn!("`server.grpc_listen` changed: it takes effect at restart");
    }
    let active = p.build(Arc::new(policy), revision);
    // Status readers see the error cleared no later than the new revision.
    *lock(&p.last_reload_error) = None;
    p.swap(active);
    p.metrics.reloads_ok.fetch_add(1, Ordering::Relaxed);
    tracing::info!(revision, policy_sha256 = %sha, "policy reloaded");
    Attempt::Loaded(revision)
}

/// Record a refusal. `cause` must already be free of policy values (a
/// [`crate::policy::PolicyErrors::public_summary`]): it goes to the audit
/// log and the unauthenticated `/v1/status`.
fn refuse(p: &Pipeline, cause: &str, sha: Option<String>) {
    let cause = cap(cause, CAUSE_CAP);
    let open = p.open_windows();
    tracing::warn!(
        cause = %cause,
        windows_open = ?open,
        "policy reload refused; the last good policy stays in force"
    );
    let current = p.snapshot();
    if let Some(settings) = current.policy.audit() {
        let event = AuditEvent::PolicyRejected {
            cause: cause.clone(),
            policy_sha256: sha,
        };
        if let Err(e) = append(settings, &event, p) {
            tracing::error!(error = %e, "cannot audit the refused reload");
        }
    }
    *lock(&p.last_reload_error) = Some(ReloadError {
        at: p.clock().utc(),
        cause,
    });
    // Counted last, with Release: whoever sees the count (status reads it
    // with Acquire, before the cause) also sees the cause and the entry.
    p.metrics.reloads_refused.fetch_add(1, Ordering::Release);
}

/// Append one entry to the log `settings` names (open, lock, append, fsync).
pub fn append(settings: &AuditSettings, event: &AuditEvent, p: &Pipeline) -> anyhow::Result<()> {
    let mut log = crate::window::budget::open_configured(settings)?;
    log.set_replica_id(Some(crate::fleet::replica_id(p.snapshot().policy.fleet())));
    log.append(event, p.clock().utc())?;
    Ok(())
}

/// Watch the policy until `shutdown`, reloading on change, and whenever
/// `reload_now` is notified (SIGHUP): the same attempt as a file change.
pub async fn run(p: Arc<Pipeline>, mut shutdown: watch::Receiver<bool>, reload_now: Arc<Notify>) {
    let changed = Arc::new(Notify::new());
    // Without a watcher (none could be set up) only the poll finds changes.
    let mut watched = watched_files(&p);
    let mut watcher = start_watcher(&p.policy_path, &watched, Arc::clone(&changed));
    let mut poll = tokio::time::interval(POLL_EVERY);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut state = Some(WatchState::new(&p));
    // A settling change or a retry after an audit failure: when to look again.
    let mut again: Option<tokio::time::Instant> = None;
    loop {
        let retry = async {
            match again {
                Some(t) => tokio::time::sleep_until(t).await,
                None => std::future::pending().await,
            }
        };
        let attempt_now = tokio::select! {
            _ = shutdown.changed() => break,
            () = changed.notified() => {
                // Debounce: wait until the folder is quiet.
                while tokio::time::timeout(DEBOUNCE, changed.notified()).await.is_ok() {}
                true
            }
            _ = poll.tick() => true,
            () = retry => true,
            () = reload_now.notified() => true,
        };
        if attempt_now {
            let (s, outcome) = attempt(&p, state).await;
            state = s;
            again = match outcome {
                Some(Attempt::Later(d)) => Some(tokio::time::Instant::now() + d),
                _ => None,
            };
            // Newly referenced keyword lists and keys.
            let now_watched = watched_files(&p);
            if now_watched != watched {
                watched = now_watched;
                watcher = start_watcher(&p.policy_path, &watched, Arc::clone(&changed));
            }
        }
    }
    drop(watcher);
}

/// The files the policy in force refers to (keyword lists, keys).
fn watched_files(p: &Pipeline) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = p
        .snapshot()
        .policy
        .referenced()
        .iter()
        .filter_map(|r| r.path.clone())
        .collect();
    files.sort();
    files.dedup();
    files
}

async fn attempt(
    p: &Arc<Pipeline>,
    state: Option<WatchState>,
) -> (Option<WatchState>, Option<Attempt>) {
    let p2 = Arc::clone(p);
    let mut s = state.unwrap_or_else(|| WatchState::new(p));
    match tokio::task::spawn_blocking(move || {
        let a = try_reload(&p2, &mut s);
        (s, a)
    })
    .await
    {
        Ok((s, a)) => (Some(s), Some(a)),
        Err(e) => {
            tracing::error!(error = %e, "policy reload task failed");
            (None, None)
        }
    }
}

fn start_watcher(
    path: &Path,
    referenced: &[PathBuf],
    changed: Arc<Notify>,
) -> Option<notify::RecommendedWatcher> {
    let is_dir = path.is_dir();
    let (dir, mode) = if is_dir {
        (path.to_path_buf(), RecursiveMode::Recursive)
    } else {
        let parent = parent_or_dot(path).to_path_buf();
        (parent, RecursiveMode::NonRecursive)
    };
    let name = path.file_name().map(|n| n.to_os_string());
    let watch_root = dir.clone();
    // Only the referenced files themselves matter in their folders: sink
    // outputs and logs may live there and change all the time.
    let extra: Vec<(PathBuf, std::ffi::OsString)> = referenced
        .iter()
        .filter_map(|f| Some((f.parent()?.to_path_buf(), f.file_name()?.to_os_string())))
        .collect();
    let handler = move |res: notify::Result<notify::Event>| {
        let Ok(ev) = res else {
            changed.notify_one();
            return;
        };
        // Reads (ours included) change nothing.
        if matches!(ev.kind, notify::EventKind::Access(_)) {
            return;
        }
        // In a file's parent folder only the file itself and Kubernetes'
        // `..data` swaps matter; sink and audit files may live there too.
        // Likewise in the folders of referenced files.
        let kube = |n: &std::ffi::OsStr| n.to_string_lossy().starts_with("..");
        let relevant = ev.paths.is_empty()
            || ev.paths.iter().any(|p| {
                let in_policy = if is_dir {
                    p.starts_with(&watch_root)
                } else {
                    p.file_name()
                        .is_none_or(|f| Some(f) == name.as_deref() || kube(f))
                };
                in_policy
                    || extra.iter().any(|(dir, file)| {
                        p.parent() == Some(dir.as_path())
                            && p.file_name()
                                .is_some_and(|n| n == file.as_os_str() || kube(n))
                    })
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
    let mut dirs: Vec<&Path> = referenced.iter().filter_map(|f| f.parent()).collect();
    dirs.sort();
    dirs.dedup();
    for d in dirs {
        // The poll still covers a folder that cannot be watched.
        if let Err(e) = w.watch(d, RecursiveMode::NonRecursive) {
            tracing::warn!(error = %e, folder = %d.display(), "cannot watch a referenced folder; polling only");
        }
    }
    Some(w)
}
