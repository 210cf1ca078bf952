//! The lock around every append: a file of its own, `FILE.lock.d/lock`, in
//! a private folder (0700, owned by the writer), never the log itself.
//!
//! Locking the log itself let anyone who could read the log hold the lock
//! and stall every append (and, in `serve`, every sink). A lock inside a
//! folder only the writer's user can enter can be held only by that user.
//! Readers (`audit verify`, `check --audit`) take a shared lock on it when
//! they can open it and read without it otherwise (their snapshot rules
//! hold either way).

use std::ffi::OsString;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use super::error::{AuditError, io_cause};
use super::fsx::{How, OpenFail, adopt_owner, open_regular, private_dir};

/// `FILE.lock.d` for a log at `FILE`.
pub fn lock_dir(log: &Path) -> PathBuf {
    let mut s: OsString = log.as_os_str().to_owned();
    s.push(".lock.d");
    PathBuf::from(s)
}

/// `FILE.lock.d/lock` for a log at `FILE`.
pub fn lock_path(log: &Path) -> PathBuf {
    lock_dir(log).join("lock")
}

/// Open (creating when missing) the lock of the log at `log`, after making
/// sure its folder is private.
pub(crate) fn open_lock(log: &Path) -> Result<File, AuditError> {
    let dir = lock_dir(log);
    private_dir(&dir).map_err(|cause| AuditError::Lock {
        path: dir.clone(),
        cause,
    })?;
    let path = lock_path(log);
    let existed = path.exists();
    let file = open_regular(&path, How::Lock).map_err(|e| AuditError::Lock {
        path: path.clone(),
        cause: match e {
            OpenFail::NotRegular => "not a regular file".to_owned(),
            OpenFail::Io(e) => io_cause(&e),
        },
    })?;
    if !existed {
        adopt_owner(&path, &dir);
    }
    Ok(file)
}

/// The lock opened for a reader's shared lock, when this user can open it.
pub(crate) fn open_lock_for_reading(log: &Path) -> Option<File> {
    open_regular(&lock_path(log), How::Read { follow: false }).ok()
}

/// A lock held on the lock file, released on drop (and by the kernel if the
/// process dies).
pub(crate) struct LockGuard<'a>(&'a File);

impl<'a> LockGuard<'a> {
    /// Take the exclusive lock, polling with a growing nap, for at most
    /// `timeout`. `log` names the log in the errors.
    pub(crate) fn exclusive(
        file: &'a File,
        log: &Path,
        timeout: Duration,
    ) -> Result<LockGuard<'a>, AuditError> {
        let start = Instant::now();
        let mut nap = Duration::from_millis(1);
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(LockGuard(file)),
                Err(TryLockError::WouldBlock) => {
                    let waited = start.elapsed();
                    if waited >= timeout {
                        return Err(AuditError::LockTimeout {
                            path: log.to_path_buf(),
                            waited_ms: waited.as_millis(),
                        });
                    }
                    thread::sleep(nap.min(timeout - waited));
                    nap = (nap * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::Error(e)) => {
                    return Err(AuditError::Append {
                        path: log.to_path_buf(),
                        kind: e.kind(),
                        cause: format!("cannot lock: {}", io_cause(&e)),
                    });
                }
            }
        }
    }

    /// Take the shared lock, waiting at most `timeout`; `None` when it could
    /// not be had (the reader then reads unlocked).
    pub(crate) fn shared(file: &'a File, timeout: Duration) -> Option<LockGuard<'a>> {
        let start = Instant::now();
        loop {
            match file.try_lock_shared() {
                Ok(()) => return Some(LockGuard(file)),
                Err(TryLockError::WouldBlock) if start.elapsed() < timeout => {
                    thread::sleep(Duration::from_millis(5));
                }
                Err(_) => return None,
            }
        }
    }
}

impl Drop for LockGuard<'_> {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}
