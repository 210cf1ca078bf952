//! Bounded line reading over a snapshot of the log, shared by `verify` and
//! `read_entries`. Memory stays at one buffer plus one line of at most
//! [`MAX_LINE_BYTES`], whatever the file size.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Take};
use std::path::Path;
use std::time::Duration;

use super::MAX_LINE_BYTES;
use super::chain::AuditKey;
use super::checkpoint::{CheckpointState, Mark, read_checkpoint, read_mark};
use super::error::AuditError;
use super::fsx::{How, OpenFail, open_regular};
use super::lock::{LockGuard, open_lock_for_reading};
use super::note::{NoteFile, intent_path, note_path, read_note_file};

/// How long a reader waits for a writer to finish its append before it
/// takes its snapshot unlocked.
const SNAPSHOT_LOCK_WAIT: Duration = Duration::from_secs(5);

/// One line as read.
#[derive(Debug)]
pub(crate) struct RawLine {
    /// Raw bytes, including the `\n` when `complete`.
    pub(crate) bytes: Vec<u8>,
    /// Ends with `\n`.
    pub(crate) complete: bool,
    /// Longer than the line limit (then `bytes` holds only a prefix).
    pub(crate) too_long: bool,
}

impl RawLine {
    /// The line without its newline.
    pub(crate) fn body(&self) -> &[u8] {
        match self.bytes.split_last() {
            Some((b'\n', rest)) => rest,
            _ => &self.bytes,
        }
    }
}

/// A consistent view of the log: the anchor, the checkpoint and the byte
/// length, taken together, and a reader over exactly those bytes.
pub(crate) struct Snapshot {
    /// The anchor's state, when an anchor was given.
    pub(crate) anchor: Option<CheckpointState>,
    pub(crate) checkpoint: CheckpointState,
    /// The signed checkpoint (`FILE.checkpoint.note`) and the last intent
    /// (`FILE.checkpoint.intent`), read with the checkpoint.
    pub(crate) note: NoteFile,
    pub(crate) intent: NoteFile,
    pub(crate) size: u64,
    reader: BufReader<Take<File>>,
}

impl Snapshot {
    /// Open the log and take the snapshot. The anchor, checkpoint and size
    /// are read under a shared lock (on `FILE.lock.d/lock`, when this user
    /// can open it), so no append is half done between them; otherwise, or
    /// if a writer holds the lock too long, they are read unlocked in the
    /// order appends write them backwards: anchor, signed checkpoint,
    /// checkpoint, size, intent (each then vouches for no more than the
    /// next holds).
    ///
    /// A FIFO or device at the log path is refused without blocking.
    pub(crate) fn take(
        path: &Path,
        key: Option<&AuditKey>,
        anchor: Option<&Path>,
    ) -> Result<Snapshot, AuditError> {
        let read_err = |e: &io::Error| AuditError::read(path, e);
        let file = match open_regular(path, How::Read { follow: true }) {
            Ok(f) => f,
            Err(OpenFail::NotRegular) => {
                return Err(AuditError::NotRegularFile {
                    path: path.to_path_buf(),
                });
            }
            Err(OpenFail::Io(e)) => return Err(read_err(&e)),
        };
        let lock = open_lock_for_reading(path);
        let guard = lock
            .as_ref()
            .and_then(|l| LockGuard::shared(l, SNAPSHOT_LOCK_WAIT));
        let taken = (|| {
            let anchor = anchor
                .map(|a| read_mark(Mark::Anchor, a, path, key))
                .transpose()?;
            let note = read_note_file(&note_path(path)).map_err(|e| read_err(&e))?;
            let checkpoint = read_checkpoint(path, key)?;
            let size = file.metadata().map_err(|e| read_err(&e))?.len();
            let intent = read_note_file(&intent_path(path)).map_err(|e| read_err(&e))?;
            Ok::<_, AuditError>((anchor, note, checkpoint, size, intent))
        })();
        drop(guard);
        let (anchor, note, checkpoint, size, intent) = taken?;
        Ok(Snapshot {
            anchor,
            checkpoint,
            note,
            intent,
            size,
            reader: BufReader::with_capacity(64 * 1024, file.take(size)),
        })
    }

    /// The next line, or `None` at the end of the snapshot.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<RawLine>> {
        let mut bytes = Vec::new();
        let limit = MAX_LINE_BYTES as u64 + 1;
        let n = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut bytes)?;
        if n == 0 {
            return Ok(None);
        }
        let complete = bytes.last() == Some(&b'\n');
        let too_long = bytes.len() > MAX_LINE_BYTES;
        if too_long {
            // Skip the rest of the line without holding it.
            loop {
                let buf = self.reader.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        self.reader.consume(i + 1);
                        break;
                    }
                    None => {
                        let len = buf.len();
                        self.reader.consume(len);
                    }
                }
            }
        }
        Ok(Some(RawLine {
            bytes,
            complete,
            too_long,
        }))
    }
}
