//! The append side: lock, read the tail, chain, write, fsync, checkpoint.

use std::fs::{self, File};
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use jiff::Timestamp;

use super::MAX_LINE_BYTES;
use super::chain::{AuditKey, ZERO_PREV, link_hash, sha256_hex};
use super::checkpoint::{
    Checkpoint, CheckpointState, Mark, parent_or_dot, read_checkpoint, read_mark, write_checkpoint,
    write_file_atomically, write_mark,
};
use super::cursor::LogCursor;
use super::entry::{AuditEvent, Entry, render_line_as};
use super::error::{AuditError, io_cause};
use super::fsx::{How, OpenFail, adopt_owner, open_regular};
use super::highwater::{files_floor, raise_high_water, read_high_water};
use super::lock::{LockGuard, open_lock};
use super::note::{
    Head, NoteFile, intent_path, note_path, origin_of, read_note_file, rotation_statement,
    sign_checkpoint, sign_intent,
};
use super::sign::SigningKey;
use super::tail::{Tail, TailError, read_tail};

/// How far behind the log's last entry a new entry's timestamp may be and
/// still be written (stamped with the last entry's time instead), on top of
/// the time this append waited for the lock. Appenders read the clock
/// before they take the lock, so two processes that append at once can
/// hold timestamps in the opposite order of their turns; anything further
/// behind is a clock set back, and is refused.
pub const CLOCK_SLACK: Duration = Duration::from_secs(1);

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
/// or many, may append to one file: each append holds an exclusive lock on
/// `FILE.lock.d/lock` around read-last-line + write + checkpoint + anchor.
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
    lock: File,
    anchor: Option<PathBuf>,
    /// Signs the checkpoint after every append (`[audit] signing_key`).
    signer: Option<Arc<SigningKey>>,
}

impl<S: LogSink> std::fmt::Debug for AuditLog<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditLog")
            .field("path", &self.path)
            .field("keyed", &self.key.is_some())
            .field("anchor", &self.anchor)
            .field("signer", &self.signer)
            .finish_non_exhaustive()
    }
}

impl AuditLog<File> {
    /// Open (or create, 0600) the log at `path` for appending.
    ///
    /// The parent folder must exist ([`AuditError::MissingParent`]; it is
    /// never created, so a typo fails closed). A path that is not a regular
    /// file (`/dev/full`, a FIFO, a folder) is refused with
    /// [`AuditError::NotRegularFile`], without blocking on it. The lock
    /// (`FILE.lock.d/lock`, folder 0700) is created too. `lock_timeout`
    /// bounds how long an append waits for another writer.
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
        let existed = path.exists();
        let open_err = |e: &io::Error| AuditError::Open {
            path: path.clone(),
            kind: e.kind(),
            cause: io_cause(e),
        };
        // SECURITY: never open a device or FIFO as the log: writes to
        // `/dev/null` would "succeed" and a FIFO could block forever.
        let file = match open_regular(&path, How::LogAppend) {
            Ok(f) => f,
            Err(OpenFail::NotRegular) => return Err(AuditError::NotRegularFile { path }),
            Err(OpenFail::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                let parent = parent_or_dot(&path).to_path_buf();
                if !parent.exists() {
                    return Err(AuditError::MissingParent { path, parent });
                }
                return Err(open_err(&e));
            }
            Err(OpenFail::Io(e)) => return Err(open_err(&e)),
        };
        if !existed {
            adopt_owner(&path, parent_or_dot(&path));
        }
        let meta = file.metadata().map_err(|e| open_err(&e))?;
        let lock = open_lock(&path)?;
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
            lock,
            anchor: None,
            signer: None,
        })
    }

    /// Name `replica_id` (a policy identifier, never record content) in
    /// every entry this handle appends from now on.
    pub fn set_replica_id(&mut self, replica_id: Option<String>) {
        self.replica_id = replica_id;
    }

    /// Keep an anchor at `anchor` (when `Some`): a high-water mark of the
    /// log written after every append, outside the log's folder. Appends
    /// are refused while the log or its checkpoint is behind it.
    ///
    /// Refused ([`AuditError::AnchorPlacement`]) when the anchor's folder is
    /// the log's folder or inside it; its folder must exist.
    pub fn with_anchor(mut self, anchor: Option<PathBuf>) -> Result<AuditLog<S>, AuditError> {
        if let Some(a) = &anchor {
            check_anchor_placement(&self.path, a)?;
        }
        self.anchor = anchor;
        Ok(self)
    }

    /// Sign the checkpoint with `signer` after every append (when `Some`):
    /// the signed checkpoint `FILE.checkpoint.note`, and before each line
    /// the intent `FILE.checkpoint.intent`. Appends are then refused while
    /// the signed checkpoint does not vouch for the log's tail, or is not
    /// signed by this key.
    pub fn with_signer(mut self, signer: Option<Arc<SigningKey>>) -> AuditLog<S> {
        self.signer = signer;
        self
    }

    /// The key that signs this handle's checkpoints, if any.
    pub fn signer(&self) -> Option<&Arc<SigningKey>> {
        self.signer.as_ref()
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
        let asked = Instant::now();
        let lock = self.lock_handle()?;
        let _lock = LockGuard::exclusive(&lock, &self.path, self.lock_timeout)?;
        let waited = asked.elapsed();
        self.append_locked(event, ts, waited)
    }

    /// Replace the key that signs this log's checkpoints with `new`:
    /// append `key_rotated` (the old key, this handle's signer, signs the
    /// rotation statement into it), sign that entry's checkpoint (and its
    /// intent) with `new`, and sign with `new` from then on.
    ///
    /// Refused when this handle has no signing key, or when the log's
    /// signed checkpoint is not this handle's (see [`AuditLog::append`]).
    pub fn rotate_signing_key(
        &mut self,
        new: Arc<SigningKey>,
        ts: Timestamp,
    ) -> Result<AppendReceipt, AuditError> {
        let Some(old) = self.signer.clone() else {
            return Err(self.unsigned("there is no signing key to rotate from"));
        };
        let asked = Instant::now();
        let lock = self.lock_handle()?;
        let _lock = LockGuard::exclusive(&lock, &self.path, self.lock_timeout)?;
        let waited = asked.elapsed();
        let new_key = new.verifier().to_text();
        let receipt = self.append_made(
            |seq, prev| {
                let statement = rotation_statement(seq, prev, &new_key);
                AuditEvent::KeyRotated {
                    old_key: old.verifier().to_text(),
                    new_key: new_key.clone(),
                    signature: B64.encode(old.sign(statement.as_bytes())),
                }
            },
            Some(&new),
            ts,
            waited,
        )?;
        self.signer = Some(new);
        Ok(receipt)
    }

    /// Start signing a log that has entries but no signed checkpoint
    /// (`tracegate audit sign`): under the lock, the log must agree with
    /// its checkpoint (and anchor) at its very last line, and no signed
    /// checkpoint may exist; then this handle's key signs the log's head.
    /// The caller verifies the log first: signing vouches for every entry.
    /// Returns the head signed (`None` for an empty log: the first append
    /// signs it).
    pub fn start_signing(&mut self) -> Result<Option<Head>, AuditError> {
        let Some(signer) = self.signer.clone() else {
            return Err(self.unsigned("there is no signing key"));
        };
        let lock = self.lock_handle()?;
        let _lock = LockGuard::exclusive(&lock, &self.path, self.lock_timeout)?;
        let (size, tail, cp_seq) = self.read_checked_tail()?;
        if let Some(anchor) = &self.anchor {
            self.check_anchor(anchor, &tail, size, cp_seq)?;
        }
        let mismatch = |detail: &str| self.unsigned(detail);
        match read_note_file(&note_path(&self.path)).map_err(|e| self.read_err(&e))? {
            NoteFile::Missing => {}
            _ => {
                return Err(mismatch(
                    "the log already has a signed checkpoint; a log is started once",
                ));
            }
        }
        let Tail::Last { line, seq, .. } = &tail else {
            return Ok(None);
        };
        if cp_seq != Some(*seq) {
            return Err(mismatch(
                "the checkpoint does not vouch for the last entry (run `tracegate audit verify`)",
            ));
        }
        let line0 = first_line(&self.file, size)
            .map_err(|e| self.read_err(&e))?
            .ok_or_else(|| mismatch("the first entry cannot be read"))?;
        let head = head_of(origin_of(&line0), *seq, line);
        self.write_note_file(
            &note_path(&self.path),
            &sign_checkpoint(&head, &signer).render(),
        )?;
        Ok(Some(head))
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
        let asked = Instant::now();
        let lock = self.lock_handle()?;
        let _lock = LockGuard::exclusive(&lock, &self.path, self.lock_timeout)?;
        let waited = asked.elapsed();
        self.check_same_file()?;
        cursor.read_new(&self.path, self.key.as_ref(), |e| state.seen(e))?;
        let events = decide(state);
        let mut receipts = Vec::with_capacity(events.len());
        for event in &events {
            receipts.push(self.append_locked(event, ts, waited)?);
        }
        Ok(receipts)
    }

    /// A second handle on the lock file's open file description, to hold
    /// the lock on while `self` is borrowed mutably (the lock belongs to
    /// the description, so it is the same lock).
    fn lock_handle(&self) -> Result<File, AuditError> {
        self.lock.try_clone().map_err(|e| self.read_err(&e))
    }

    /// The key the log is chained under, if any.
    pub fn key(&self) -> Option<&AuditKey> {
        self.key.as_ref()
    }

    /// The append itself; the caller holds the lock (and waited `waited`
    /// for it).
    fn append_locked(
        &mut self,
        event: &AuditEvent,
        ts: Timestamp,
        waited: Duration,
    ) -> Result<AppendReceipt, AuditError> {
        self.append_made(|_, _| event.clone(), None, ts, waited)
    }

    /// The append itself, of the event `make` builds from the new entry's
    /// seq and `prev`; its checkpoint is signed by `next_signer` when
    /// given, else by this handle's signer. The caller holds the lock.
    fn append_made(
        &mut self,
        make: impl FnOnce(u64, &str) -> AuditEvent,
        next_signer: Option<&Arc<SigningKey>>,
        ts: Timestamp,
        waited: Duration,
    ) -> Result<AppendReceipt, AuditError> {
        let (size, tail, cp_seq) = self.read_checked_tail()?;
        let origin = match self.signer.clone() {
            Some(signer) => self.check_note(&signer, &tail, size)?,
            None => None,
        };
        if let Some(anchor) = &self.anchor {
            self.check_anchor(anchor, &tail, size, cp_seq)?;
        }
        let (seq, prev) = match &tail {
            Tail::Empty => (0, ZERO_PREV.to_owned()),
            Tail::Last { line, seq, .. } => (seq + 1, link_hash(self.key.as_ref(), line)),
        };
        let event = &make(seq, &prev);
        if matches!(event, AuditEvent::KeyRotated { .. }) && next_signer.is_none() {
            // SECURITY: a `key_rotated` hands the log to another key; only
            // `rotate_signing_key` writes one, with the old key's signature.
            return Err(self.unsigned("key_rotated is written only by a key rotation"));
        }
        let ts = self.stamp(&tail, event, ts, waited)?;
        if let AuditEvent::WindowEnabled { window, end, .. } = event {
            // SECURITY: never enable a window the log already vouches has
            // ended (the newest entry, the clock mark): a clock set back
            // must not reopen it. Checked under the lock, so no other gate
            // can move the log past the end between the check and the line.
            let mark = read_high_water(&self.path)?;
            if ts >= *end || mark.is_some_and(|m| m >= *end) {
                return Err(AuditError::WindowEnded {
                    path: self.path.clone(),
                    window: window.clone(),
                });
            }
        }
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
        let line_sha256 = sha256_hex(&line);
        let note_key = next_signer.or(self.signer.as_ref()).cloned();
        let head = match (&note_key, origin) {
            (None, _) => None,
            (Some(_), Some(origin)) => Some(head_of(origin, seq, &line)),
            (Some(_), None) if seq == 0 => Some(head_of(origin_of(&line), seq, &line)),
            (Some(_), None) => {
                // check_note returns the origin of every non-empty log.
                return Err(self.unsigned("the log's origin is unknown"));
            }
        };
        if let (Some(k), Some(h)) = (&note_key, &head) {
            // SECURITY: the intent is signed and durable before the line is
            // written, so a gate that crashes before it signs the line's
            // checkpoint can later prove the line is its own (and only
            // then sign it); a line no key holder wrote is never signed.
            self.write_note_file(&intent_path(&self.path), &sign_intent(h, k).render())?;
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
        if let (Some(k), Some(h)) = (&note_key, &head) {
            // The line is in and vouched for by the checkpoint, so it stays;
            // if the signed checkpoint cannot follow, the append fails, and
            // the next one signs it from the intent.
            self.write_note_file(&note_path(&self.path), &sign_checkpoint(h, k).render())?;
        }
        if let Some(anchor) = &self.anchor {
            // SECURITY: the line is in and vouched for by the checkpoint, so
            // it stays; but an anchor that could not follow fails the
            // append, so nothing relies on an entry the anchor misses.
            let mark = Checkpoint::anchor(seq, cp.size, cp.line_sha256, self.key.as_ref());
            write_mark(anchor, &mark).map_err(|(e, _)| AuditError::Anchor {
                path: anchor.clone(),
                kind: e.kind(),
                cause: io_cause(&e),
            })?;
        }
        Ok(AppendReceipt { seq, line_sha256 })
    }

    /// The latest time the log vouches has passed, whatever the clock says:
    /// its newest entry's `ts`, its clock mark (`FILE.clock`) and the
    /// modification times of the log, its checkpoint, the mark and the
    /// anchor, each placed on the caller's clock by `file_time` (`None`
    /// for a time it cannot place). `None` for an empty log with no such
    /// time. Reads without the lock: a floor only ever rises.
    ///
    /// A mark that is not one is an error (the caller fails closed).
    pub fn time_floor(
        &self,
        file_time: &dyn Fn(std::time::SystemTime) -> Option<Timestamp>,
    ) -> Result<Option<Timestamp>, AuditError> {
        let size = self.file.metadata().map_err(|e| self.read_err(&e))?.len();
        let newest = match read_tail(&self.file, size) {
            Ok(Tail::Last { ts, .. }) => Some(ts),
            // A torn or broken tail is refused by every append; here it
            // only vouches for nothing.
            Ok(Tail::Empty) | Err(TailError::Torn | TailError::Corrupt) => None,
            Err(TailError::Io(e)) => return Err(self.read_err(&e)),
        };
        let files = files_floor(&self.path, self.anchor.as_deref(), file_time)?;
        Ok(newest.max(files))
    }

    /// Raise the clock's high-water mark (`FILE.clock`) to `ts`, under the
    /// append lock; a mark already past `ts` stays (it never goes back).
    /// Returns the mark in place.
    pub fn raise_high_water(&mut self, ts: Timestamp) -> Result<Timestamp, AuditError> {
        let lock = self.lock_handle()?;
        let _lock = LockGuard::exclusive(&lock, &self.path, self.lock_timeout)?;
        self.check_same_file()?;
        raise_high_water(&self.path, ts)
    }

    /// The timestamp to write: `ts`, or the last entry's when `ts` is behind
    /// it and either the event only takes rights away or `ts` is behind by
    /// no more than the lock wait plus [`CLOCK_SLACK`].
    ///
    /// SECURITY: time never runs backwards in the log. A clock set back
    /// would otherwise let an entry claim an earlier time than the entries
    /// before it (and a window that already expired look active again).
    /// An entry that grants something (`policy_loaded`, `window_enabled`,
    /// ...) is refused then, so full capture stays off until the clock
    /// catches up; one that only takes rights away (`window_closed`,
    /// `full_denied`, `policy_rejected`) is written at the last entry's time
    /// instead, because losing it would hide a close from the auditor.
    fn stamp(
        &self,
        tail: &Tail,
        event: &AuditEvent,
        ts: Timestamp,
        waited: Duration,
    ) -> Result<Timestamp, AuditError> {
        let Tail::Last { ts: last, seq, .. } = tail else {
            return Ok(ts);
        };
        if ts >= *last {
            return Ok(ts);
        }
        let behind = last.duration_since(ts);
        if event.only_takes_rights_away() || behind.unsigned_abs() <= waited + CLOCK_SLACK {
            return Ok(*last);
        }
        Err(AuditError::ClockBehind {
            path: self.path.clone(),
            last_seq: *seq,
            behind_ms: i64::try_from(behind.as_millis()).unwrap_or(i64::MAX),
        })
    }

    /// SECURITY: a log (or checkpoint) behind its anchor was rolled back,
    /// replaced or deleted; appending would rewrite the anchor and launder
    /// that. So the tail must reach the anchor and hold the very line the
    /// anchor vouches for.
    fn check_anchor(
        &self,
        anchor: &Path,
        tail: &Tail,
        size: u64,
        cp_seq: Option<u64>,
    ) -> Result<(), AuditError> {
        let mismatch = |detail: String| AuditError::AnchorMismatch {
            path: self.path.clone(),
            anchor: anchor.to_path_buf(),
            detail,
        };
        let a = match read_mark(Mark::Anchor, anchor, &self.path, self.key.as_ref())? {
            CheckpointState::Invalid(why) => return Err(mismatch(why.to_owned())),
            CheckpointState::Missing => {
                return match tail {
                    Tail::Empty => Ok(()),
                    Tail::Last { .. } => Err(mismatch(
                        "the anchor is missing beside a non-empty log; to anchor an existing log, check it with `tracegate audit verify --anchor PATH --init-anchor`"
                            .to_owned(),
                    )),
                };
            }
            CheckpointState::Valid(a) => a,
        };
        let Tail::Last { line, seq, .. } = tail else {
            return Err(mismatch(format!(
                "the log is empty; the anchor vouches for seq {}",
                a.seq
            )));
        };
        if *seq < a.seq || size < a.size {
            return Err(mismatch(format!(
                "the log ends at seq {seq}, {size} bytes; the anchor vouches for seq {}, {} bytes",
                a.seq, a.size
            )));
        }
        if let Some(c) = cp_seq
            && c < a.seq
        {
            return Err(mismatch(format!(
                "the checkpoint vouches for seq {c}, behind the anchor's seq {}",
                a.seq
            )));
        }
        let (at_seq, at_hash) = if a.size == size {
            (*seq, sha256_hex(line))
        } else {
            match read_tail(&self.file, a.size) {
                Ok(Tail::Last { line, seq, .. }) => (seq, sha256_hex(&line)),
                Ok(Tail::Empty) | Err(TailError::Torn | TailError::Corrupt) => {
                    return Err(mismatch(format!(
                        "no entry of the log ends at byte {}, where the anchor's seq {} ends",
                        a.size, a.seq
                    )));
                }
                Err(TailError::Io(e)) => return Err(self.read_err(&e)),
            }
        };
        if at_seq != a.seq || at_hash != a.line_sha256 {
            return Err(mismatch(format!(
                "the entry ending at byte {} is not the seq {} the anchor vouches for (the log was replaced)",
                a.size, a.seq
            )));
        }
        Ok(())
    }

    /// SECURITY: signing after this append vouches for every line before
    /// it, so the log must already be vouched for by a checkpoint this
    /// gate's key signed: the signed checkpoint must name the tail (its
    /// seq and hash), or name the line before it while this key's intent
    /// names the tail (a crash between a line and its signature; the
    /// checkpoint is then signed here). A tail that is a `key_rotated` to
    /// this key may follow a checkpoint the old key signed. Anything else
    /// (no signed checkpoint beside entries, another key, a line nobody
    /// signed an intent for) is refused. Returns the log's origin.
    fn check_note(
        &self,
        signer: &SigningKey,
        tail: &Tail,
        size: u64,
    ) -> Result<Option<String>, AuditError> {
        let mismatch = |detail: String| self.unsigned(detail);
        let me = signer.verifier();
        let note = read_note_file(&note_path(&self.path)).map_err(|e| self.read_err(&e))?;
        let Tail::Last { line, seq, .. } = tail else {
            return match note {
                NoteFile::Missing => Ok(None),
                NoteFile::Invalid(why) => Err(mismatch(why.to_owned())),
                NoteFile::Note(_) => Err(mismatch(
                    "the log is empty but a signed checkpoint is beside it".to_owned(),
                )),
            };
        };
        let tail_hash = sha256_bytes(line);
        let note = match note {
            NoteFile::Invalid(why) => return Err(mismatch(why.to_owned())),
            NoteFile::Missing if *seq == 0 => {
                // A crash inside the very first append, after its line.
                let head = head_of(origin_of(line), 0, line);
                return self.recover(signer, &head).map(Some);
            }
            NoteFile::Missing => {
                return Err(mismatch(
                    "the log has entries but no signed checkpoint; to start signing an existing log, verify it and run `tracegate audit sign`"
                        .to_owned(),
                ));
            }
            NoteFile::Note(n) => n,
        };
        let head = note
            .head()
            .map_err(|_| mismatch("the signed checkpoint is not a checkpoint".to_owned()))?;
        let rotated_to_me = rotation_to(line, me);
        let signed_by_me = note.signed_by(me);
        match (signed_by_me, &rotated_to_me) {
            (Some(true), _) => {}
            (Some(false), _) => {
                return Err(mismatch(format!(
                    "its signature by {} does not verify",
                    me.id()
                )));
            }
            // The tail hands the log to this key: the checkpoint before it
            // is the old key's, checked below with the old key.
            (None, Some(old)) if note.signed_by(old) == Some(true) => {}
            (None, _) => {
                return Err(mismatch(format!(
                    "it is not signed by this gate's key {} (the key was rotated away, or another key signs this log)",
                    me.id()
                )));
            }
        }
        // At the tail only with this key's signature: a rotation's own
        // checkpoint is always the new key's.
        if head.seq() == Some(*seq) && head.hash == tail_hash && signed_by_me == Some(true) {
            return Ok(Some(head.origin));
        }
        // Behind by one line: the line before the tail must be the one
        // the checkpoint names, and this key's intent must name the tail.
        let before = seq.checked_sub(1);
        if head.seq() == before && before.is_some() {
            let start = size.saturating_sub(line.len() as u64);
            let prev_hash = match read_tail(&self.file, start) {
                Ok(Tail::Last { line: prev, .. }) => Some(sha256_bytes(&prev)),
                Ok(Tail::Empty) | Err(TailError::Torn | TailError::Corrupt) => None,
                Err(TailError::Io(e)) => return Err(self.read_err(&e)),
            };
            if prev_hash == Some(head.hash) {
                let now = head_of(head.origin.clone(), *seq, line);
                return self.recover(signer, &now).map(Some);
            }
        }
        Err(mismatch(format!(
            "it vouches for {}; the log ends at seq {seq}",
            crate::io_text::counted(head.size, "entry", "entries")
        )))
    }

    /// Sign the checkpoint of `head` (the log's tail) when this key's
    /// intent names exactly that head: the line is this gate's (or a gate
    /// holding this key), written before a crash kept it from signing.
    fn recover(&self, signer: &SigningKey, head: &Head) -> Result<String, AuditError> {
        let intent = read_note_file(&intent_path(&self.path)).map_err(|e| self.read_err(&e))?;
        let ok = match &intent {
            NoteFile::Note(n) => {
                n.signed_by(signer.verifier()) == Some(true)
                    && n.intent_head().as_ref() == Some(head)
            }
            NoteFile::Missing | NoteFile::Invalid(_) => false,
        };
        if !ok {
            return Err(self.unsigned(format!(
                    "seq {} is not vouched for by a signed checkpoint, and no intent of key {} names it: a gate holding the key did not write it",
                    head.size.saturating_sub(1),
                    signer.verifier().id()
                )));
        }
        self.write_note_file(
            &note_path(&self.path),
            &sign_checkpoint(head, signer).render(),
        )?;
        Ok(head.origin.clone())
    }

    fn write_note_file(&self, path: &Path, body: &str) -> Result<(), AuditError> {
        write_file_atomically(path, body.as_bytes()).map_err(|(e, _)| AuditError::Note {
            path: path.to_path_buf(),
            kind: e.kind(),
            cause: io_cause(&e),
        })
    }

    /// SECURITY: never write into a file that is no longer at the path
    /// (deleted or renamed away): the entry would vanish from the log.
    fn check_same_file(&self) -> Result<(), AuditError> {
        match fs::metadata(&self.path) {
            Ok(m) if m.dev() == self.dev && m.ino() == self.ino => Ok(()),
            Ok(_) => Err(AuditError::replaced(&self.path, "replaced")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(AuditError::replaced(&self.path, "deleted"))
            }
            Err(e) => Err(self.read_err(&e)),
        }
    }

    /// SECURITY: appending rewrites the checkpoint, which would launder a
    /// truncated or edited tail; so the tail must agree with the current
    /// checkpoint first. A checkpoint behind the tail is allowed (a crash
    /// between fsync and checkpoint); a missing checkpoint only beside an
    /// empty log (anything else is a log cut back and its checkpoint
    /// deleted). Returns the checkpoint's seq.
    fn check_checkpoint(&self, tail: &Tail, size: u64) -> Result<Option<u64>, AuditError> {
        let mismatch = |detail: String| AuditError::CheckpointMismatch {
            path: self.path.clone(),
            detail,
        };
        let state = read_checkpoint(&self.path, self.key.as_ref())?;
        match (state, tail) {
            (CheckpointState::Invalid(why), _) => Err(mismatch(why.to_owned())),
            (CheckpointState::Missing, Tail::Empty) => Ok(None),
            (CheckpointState::Missing, Tail::Last { .. }) => Err(mismatch(
                "the checkpoint is missing beside a non-empty log".to_owned(),
            )),
            (CheckpointState::Valid(cp), Tail::Empty) => Err(mismatch(format!(
                "the log is empty but the checkpoint vouches for seq {}",
                cp.seq
            ))),
            (CheckpointState::Valid(cp), Tail::Last { line, seq, .. }) => {
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
                    Ok(Some(cp.seq))
                }
            }
        }
    }

    /// The log's size and last entry, once it is known to be the file at
    /// its path and its checkpoint agrees (with the seq it vouches for).
    /// The caller holds the lock.
    fn read_checked_tail(&self) -> Result<(u64, Tail, Option<u64>), AuditError> {
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
        let cp_seq = self.check_checkpoint(&tail, size)?;
        Ok((size, tail, cp_seq))
    }

    /// The log's signed checkpoint does not vouch for what is asked.
    fn unsigned(&self, detail: impl Into<String>) -> AuditError {
        AuditError::SignedCheckpoint {
            path: self.path.clone(),
            detail: detail.into(),
        }
    }

    fn read_err(&self, e: &io::Error) -> AuditError {
        AuditError::read(&self.path, e)
    }
}

/// The head of a log whose last line (seq `seq`) has these raw bytes.
fn head_of(origin: String, seq: u64, line: &[u8]) -> Head {
    Head {
        origin,
        size: seq + 1,
        hash: sha256_bytes(line),
    }
}

fn sha256_bytes(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).into()
}

/// When the line (without checking its chain) is a `key_rotated` entry to
/// `me` whose rotation statement the key it retires signed, that key.
fn rotation_to(line: &[u8], me: &super::sign::VerifierKey) -> Option<super::sign::VerifierKey> {
    use base64::Engine;
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let fields = super::entry::ChainFields::parse(body)?;
    let entry = super::entry::parse_entry(body)?;
    match entry.event {
        AuditEvent::KeyRotated {
            old_key,
            new_key,
            signature,
        } if new_key == me.to_text() => {
            let old = super::sign::VerifierKey::parse(&old_key).ok()?;
            let sig = B64.decode(signature.as_bytes()).ok()?;
            // SECURITY: a rotation nobody holding the old key signed does
            // not hand the log over.
            old.verify(
                rotation_statement(fields.seq, &fields.prev, &new_key).as_bytes(),
                &sig,
            )
            .then_some(old)
        }
        _ => None,
    }
}

/// The first line of the log (with its `\n`), for its origin; `None` when
/// the log is empty or its first line is longer than the line limit.
fn first_line(file: &File, size: u64) -> io::Result<Option<Vec<u8>>> {
    use std::os::unix::fs::FileExt;
    let want = size.min(MAX_LINE_BYTES as u64 + 1);
    let mut buf = vec![0u8; usize::try_from(want).unwrap_or(MAX_LINE_BYTES + 1)];
    file.read_exact_at(&mut buf, 0)?;
    Ok(buf
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| buf[..=i].to_vec()))
}

/// Best effort: cut a failed append back off. If this fails too, the log
/// keeps a torn or unvouched tail, which verify reports (3 or 4).
fn roll_back<S: LogSink>(sink: &mut S, size: u64) {
    if sink.truncate(size).is_ok() {
        let _ = sink.sync();
    }
}

/// SECURITY: an anchor in the log's folder (or below it) falls to whoever
/// can roll the log back; refuse it. Folders are compared after resolving
/// symlinks and `..`, so a link cannot hide the anchor inside.
pub(crate) fn check_anchor_placement(log: &Path, anchor: &Path) -> Result<(), AuditError> {
    let folder = parent_or_dot(log);
    let anchor_folder = parent_or_dot(anchor);
    let anchor_err = |e: &io::Error| AuditError::Anchor {
        path: anchor.to_path_buf(),
        kind: e.kind(),
        cause: format!("its folder: {}", io_cause(e)),
    };
    let log_real = fs::canonicalize(folder).map_err(|e| AuditError::Open {
        path: log.to_path_buf(),
        kind: e.kind(),
        cause: io_cause(&e),
    })?;
    let anchor_real = fs::canonicalize(anchor_folder).map_err(|e| anchor_err(&e))?;
    if anchor_real.starts_with(&log_real) {
        return Err(AuditError::AnchorPlacement {
            anchor: anchor.to_path_buf(),
            folder: folder.to_path_buf(),
        });
    }
    Ok(())
}
