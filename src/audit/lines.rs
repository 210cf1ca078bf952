//! Bounded line reading over a snapshot of the log, shared by `verify` and
//! `read_entries`. Memory stays at one buffer plus one line of at most
//! [`MAX_LINE_BYTES`], whatever the file size.

use std::fs::{File, TryLockError};
use std::io::{self, BufRead, BufReader, Read, Take};
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use super::MAX_LINE_BYTES;
use super::chain::AuditKey;
use super::checkpoint::{CheckpointState, read_checkpoint};
use super::error::{AuditError, io_cause};

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

/// A consistent view of the log: the checkpoint and the byte length,
/// taken together, and a reader over exactly those bytes.
pub(crate) struct Snapshot {
    pub(crate) checkpoint: CheckpointState,
    pub(crate) size: u64,
    reader: BufReader<Take<File>>,
}

impl Snapshot {
    /// Open the log and take the snapshot. The checkpoint and size are read
    /// under a shared lock, so no append is half done between them; if a
    /// writer holds the lock too long they are read unlocked, checkpoint
    /// first (the file only grows, so the size is then at least what the
    /// checkpoint vouches for).
    pub(crate) fn take(path: &Path, key: Option<&AuditKey>) -> Result<Snapshot, AuditError> {
        let read_err = |e: &io::Error| AuditError::Read {
            path: path.to_path_buf(),
            kind: e.kind(),
            cause: io_cause(e),
        };
        let file = File::open(path).map_err(|e| read_err(&e))?;
        if !file.metadata().map_err(|e| read_err(&e))?.is_file() {
            return Err(AuditError::NotRegularFile {
                path: path.to_path_buf(),
            });
        }
        let locked = lock_shared(&file);
        let taken = (|| {
            let checkpoint = read_checkpoint(path, key)?;
            let size = file.metadata().map_err(|e| read_err(&e))?.len();
            Ok::<_, AuditError>((checkpoint, size))
        })();
        if locked {
            let _ = file.unlock();
        }
        let (checkpoint, size) = taken?;
        Ok(Snapshot {
            checkpoint,
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

fn lock_shared(file: &File) -> bool {
    let start = Instant::now();
    loop {
        match file.try_lock_shared() {
            Ok(()) => return true,
            Err(TryLockError::WouldBlock) if start.elapsed() < SNAPSHOT_LOCK_WAIT => {
                thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return false,
        }
    }
}
