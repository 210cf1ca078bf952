//! The append side: lock, read the tail, chain, write, fsync, checkpoint.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use jiff::Timestamp;

use super::MAX_LINE_BYTES;
use super::chain::{AuditKey, ZERO_PREV, link_hash, sha256_hex};
use super::checkpoint::{Checkpoint, CheckpointState, read_checkpoint, write_checkpoint};
use super::cursor::LogCursor;
use super::entry::{AuditEvent, Entry, render_line_as};
use super::error::{AuditError, io_cause};
use super::tail::{Tail, TailError, read_tail};

/// The byte sink behind [`AuditLog`]: the log file itself in production, a
/// fault-injecting wrapper in tests. It is handed a clone of the log's
/// handle, opened in append mode.
pub trait LogSink {
    /// Write all of `line` at the end of the log, in one call.
    fn write_line(&mut self, line: &[u8]) -> io::Result<()>;
    /// Flush written data to stable storage (fdatasync).
    fn sync(&mut self) -> io::Result<()>;
    /// Cut the log back to `len` bytes (used to roll back a failed append).
    fn truncate(&mut self, len: u64) -> io::Result<()>;
}

impl LogSink for File {
    fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        Write::write_all(self, line)
    }
    fn sync(&mut self) -> io::Result<()> {
        File::sync_data(self)
    }
    fn truncate(&mut self, len: u64) -> io::Result<()> {
        File::set_len(self, len)
    }
}

/// Something that folds audit entries into a state, one at a time, in log
/// order (see [`AuditLog::transact`]).
pub trait Follow {
    /// Take one entry into account.
    fn seen(&mut self, entry: &Entry);
}

/// What a successful append wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppendReceipt {
    /// The entry's seq.
    pub seq: u64,
    /// Hex SHA-256 of the line's raw bytes (with `\n`).
    pub line_sha256: String,
}

/// An open audit log, ready to append. Several `AuditLog`s, in one process
/// or many, may append to one file: each append holds an exclusive file
/// lock around read-last-line + write + checkpoint.
pub struct AuditLog<S: LogSink = File> {
    path: PathBuf,
    file: File,
    sink: S,
    key: Option<AuditKey>,
    lock_timeout: Duration,
    dev: u64,
    ino: u64,
    /// Named in every entry this handle appends (`[fleet] replica_id`).
    replica_id: Option<String>,
}

impl<S: LogSink> std::fmt::Debug for AuditLog<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditLog")
            .field("path", &self.path)
            .field("keyed", &self.key.is_some())
            .finish_non_exhaustive()
    }
}

impl AuditLog<File> {
    /// Open (or create) the log at `path` for appending.
    ///
    /// The parent folder must exist ([`AuditError::MissingParent`]; it is
    /// never created, so a typo fails closed). A path that exists but is not
    /// a regular file (`/dev/full`, a FIFO, a folder) is refused with
    /// [`AuditError::NotRegularFile`]. `lock_timeout` bounds how long an
    /// append waits for another writer.
    pub fn open(
        path: impl AsRef<Path>,
        key: Option<AuditKey>,
        lock_timeout: Duration,
    ) -> Result<AuditLog<File>, AuditError> {
        AuditLog::open_with_sink(path, key, lock_timeout, |f| f)
    }
}

impl<S: LogSink> AuditLog<S> {
    /// Like [`AuditLog::open`], with the byte sink built from a clone of the
    /// log's handle by `make_sink`: the seam for fault-injection tests.
    pub fn open_with_sink(
        path: impl AsRef<Path>,
        key: Option<AuditKey>,
        lock_timeout: Duration,
        make_sink: impl FnOnce(File) -> S,
    ) -> Result<AuditLog<S>, AuditError> {
        let path = path.as_ref().to_path_buf();
        let open_err = |e: &io::Error| AuditError::Open {
            path: path.clone(),
            kind: e.kind(),
            cause: io_cause(e),
        };
        // SECURITY: never open a device or FIFO as the log: writes to
        // `/dev/null` would "succeed" and a FIFO could block forever.
        if let Ok(m) = fs::metadata(&path)
            && !m.is_file()
        {
            return Err(AuditError::NotRegularFile { path });
        }
        let file = match OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let parent = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                if !parent.exists() {
                    return Err(AuditError::MissingParent { path, parent });
                }
                return Err(open_err(&e));
            }
            Err(e) => return Err(open_err(&e)),
        };
        let meta = file.metadata().map_err(|e| open_err(&e))?;
        if !meta.is_file() {
            return Err(AuditError::NotRegularFile { path });
        }
        let sink = make_sink(file.try_clone().map_err(|e| open_err(&e))?);
        Ok(AuditLog {
            path,
            file,
            sink,
            key,
            lock_timeout,
            dev: meta.dev(),
            ino: meta.ino(),
            replica_id: None,
        })
    }

    /// Name `replica_id` (a policy identifier, never record content) in
    /// every entry this handle appends from now on.
    pub fn set_replica_id(&mut self, replica_id: Option<String>) {
        self.replica_id = replica_id;
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one event, stamped `ts`, and make it durable.
    ///
    /// Ok means: the line is written and fsynced and the checkpoint that
    /// vouches for it is in place. Only then may the change it records take
    /// effect. On any error the change must not happen; the line is rolled
    /// back where that is still possible (it stays only if the checkpoint
    /// already vouches for it, or if even the rollback failed, which leaves
    /// a torn or unvouched tail for `audit verify` to report).
    ///
    /// Refuses to append onto a torn last line ([`AuditError::TornTail`]), a
    /// last line that is not an entry, a log that disagrees with its
    /// checkpoint (which would launder a truncation), and a file that was
    /// deleted or replaced since it was opened ([`AuditError::Replaced`]).
    pub fn append(
        &mut self,
        event: &AuditEvent,
        ts: Timestamp,
    ) -> Result<AppendReceipt, AuditError> {
        let handle = self.lock_handle()?;
        let _lock = LockGuard::acquire(&handle, &self.path, self.lock_timeout)?;
        self.append_locked(event, ts)
    }

    /// Under the append lock: bring `cursor` up to the end of the log
    /// (handing each new entry to `state.seen`), then let `decide` look at
    /// `state` and name the entries to append, and append them in order.
    ///
    /// This is the read-then-write step that makes a shared budget exact
    /// across processes: nothing can be appended between what `decide`
    /// saw and what it writes. The entries appended here are read back by
    /// the cursor on the next call (so `state` counts them once, from the
    /// log). Returns the receipts of the entries appended; on an error, the
    /// entries before the failing one are durable and the rest are not.
    pub fn transact<T: Follow + ?Sized>(
        &mut self,
        cursor: &mut LogCursor,
        state: &mut T,
        ts: Timestamp,
        decide: impl FnOnce(&mut T) -> Vec<AuditEvent>,
    ) -> Result<Vec<AppendReceipt>, AuditError> {
        let handle = self.lock_handle()?;
        let _lock = LockGuard::acquire(&handle, &self.path, self.lock_timeout)?;
        self.check_same_file()?;
        cursor.read_new(&self.path, self.key.as_ref(), |e| state.seen(e))?;
        let events = decide(state);
        let mut receipts = Vec::with_capacity(events.len());
        for event in &events {
            receipts.push(self.append_locked(event, ts)?);
        }
        Ok(receipts)
    }

    /// A second handle on the log's open file description, to hold the
    /// lock on while `self` is borrowed mutably (the lock belongs to the
    /// description, so it is the same lock).
    fn lock_handle(&self) -> Result<File, AuditError> {
        self.file.try_clone().map_err(|e| self.read_err(&e))
    }

    /// The key the log is chained under, if any.
    pub fn key(&self) -> Option<&AuditKey> {
        self.key.as_ref()
    }

    fn append_locked(
        &mut self,
        event: &AuditEvent,
        ts: Timestamp,
    ) -> Result<AppendReceipt, AuditError> {
        self.check_same_file()?;
        let size = self.file.metadata().map_err(|e| self.read_err(&e))?.len();
        let tail = read_tail(&self.file, size).map_err(|e| match e {
            TailError::Torn => AuditError::TornTail {
                path: self.path.clone(),
            },
            TailError::Corrupt => AuditError::CorruptTail {
                path: self.path.clone(),
            },
            TailError::Io(e) => self.read_err(&e),
        })?;
        self.check_checkpoint(&tail, size)?;
        let (seq, prev) = match &tail {
            Tail::Empty => (0, ZERO_PREV.to_owned()),
            Tail::Last { line, seq } => (seq + 1, link_hash(self.key.as_ref(), line)),
        };
        let line =
            render_line_as(seq, ts, event, self.replica_id.as_deref(), &prev).map_err(|e| {
                AuditError::Append {
                    path: self.path.clone(),
                    kind: io::ErrorKind::InvalidData,
                    cause: format!("cannot serialize the entry ({:?} error)", e.classify())
                        .to_lowercase(),
                }
            })?;
        if line.len() > MAX_LINE_BYTES {
            return Err(AuditError::EntryTooLong {
                path: self.path.clone(),
                len: line.len(),
            });
        }
        // SECURITY: one write_all of the whole line, then fsync, before
        // anything can rely on the entry.
        let written = self.sink.write_line(&line).and_then(|()| self.sink.sync());
        if let Err(e) = written {
            roll_back(&mut self.sink, size);
            return Err(AuditError::Append {
                path: self.path.clone(),
                kind: e.kind(),
                cause: io_cause(&e),
            });
        }
        let line_sha256 = sha256_hex(&line);
        let cp = Checkpoint::new(
            seq,
            size + line.len() as u64,
            line_sha256.clone(),
            self.key.as_ref(),
        );
        if let Err(e) = write_checkpoint(&self.path, &cp) {
            if !e.renamed {
                roll_back(&mut self.sink, size);
            }
            return Err(e.error);
        }
        Ok(AppendReceipt { seq, line_sha256 })
    }

    /// SECURITY: never write into a file that is no longer at the path
    /// (deleted or renamed away): the entry would vanish from the log.
    fn check_same_file(&self) -> Result<(), AuditError> {
        match fs::metadata(&self.path) {
            Ok(m) if m.dev() == self.dev && m.ino() == self.ino => Ok(()),
            Ok(_) => Err(AuditError::Replaced {
                path: self.path.clone(),
                what: "replaced",
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(AuditError::Replaced {
                path: self.path.clone(),
                what: "deleted",
            }),
            Err(e) => Err(self.read_err(&e)),
        }
    }

    /// SECURITY: appending rewrites the checkpoint, which would launder a
    /// truncated or edited tail; so the tail must agree with the current
    /// checkpoint first. A checkpoint behind the tail is allowed (a crash
    /// between fsync and checkpoint), as is a missing checkpoint while the
    /// log holds at most its first line.
    fn check_checkpoint(&self, tail: &Tail, size: u64) -> Result<(), AuditError> {
        let mismatch = |detail: String| AuditError::CheckpointMismatch {
            path: self.path.clone(),
            detail,
        };
        let state = read_checkpoint(&self.path, self.key.as_ref())?;
        match (state, tail) {
            (CheckpointState::Invalid(why), _) => Err(mismatch(why.to_owned())),
            (CheckpointState::Missing, Tail::Empty) => Ok(()),
            (CheckpointState::Missing, Tail::Last { seq: 0, .. }) => Ok(()),
            (CheckpointState::Missing, Tail::Last { .. }) => {
                Err(mismatch("the checkpoint is missing".to_owned()))
            }
            (CheckpointState::Valid(cp), Tail::Empty) => Err(mismatch(format!(
                "the log is empty but the checkpoint vouches for seq {}",
                cp.seq
            ))),
            (CheckpointState::Valid(cp), Tail::Last { line, seq }) => {
                if cp.seq > *seq || cp.size > size {
                    Err(mismatch(format!(
                        "the log ends at seq {seq}, {size} bytes; the checkpoint vouches for seq {}, {} bytes",
                        cp.seq, cp.size
                    )))
                } else if cp.seq == *seq && (cp.size != size || cp.line_sha256 != sha256_hex(line))
                {
                    Err(mismatch(format!(
                        "the last line (seq {seq}) differs from the checkpoint"
                    )))
                } else if cp.seq < *seq && cp.size >= size {
                    Err(mismatch(format!(
                        "the checkpoint vouches for seq {} at {} bytes, past the log's lines",
                        cp.seq, cp.size
                    )))
                } else {
                    Ok(())
                }
            }
        }
    }

    fn read_err(&self, e: &io::Error) -> AuditError {
        AuditError::Read {
            path: self.path.clone(),
            kind: e.kind(),
            cause: io_cause(e),
        }
    }
}

/// Best effort: cut a failed append back off. If this fails too, the log
/// keeps a torn or unvouched tail, which verify reports (3 or 4).
fn roll_back<S: LogSink>(sink: &mut S, size: u64) {
    if sink.truncate(size).is_ok() {
        let _ = sink.sync();
    }
}

/// An exclusive lock on the log file, released on drop (and by the kernel
/// if the process dies).
struct LockGuard<'a>(&'a File);

impl<'a> LockGuard<'a> {
    fn acquire(
        file: &'a File,
        path: &Path,
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
                            path: path.to_path_buf(),
                            waited_ms: waited.as_millis(),
                        });
                    }
                    thread::sleep(nap.min(timeout - waited));
                    nap = (nap * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::Error(e)) => {
                    return Err(AuditError::Append {
                        path: path.to_path_buf(),
                        kind: e.kind(),
                        cause: format!("cannot lock: {}", io_cause(&e)),
                    });
                }
            }
        }
    }
}

impl Drop for LockGuard<'_> {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}
