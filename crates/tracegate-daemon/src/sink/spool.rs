//! An OTLP sink's spool (`[[sink]] spool_dir`): export requests the
//! receiver did not take wait here, on disk, in order, across restarts of
//! `serve`, until the receiver takes them, refuses them for good, or the
//! spool's byte bound (`spool_max_bytes`) refuses newer ones.
//!
//! One file per export request, named by a sequence number
//! (`00000000000000000042.otlp`) so that the folder lists in order. An
//! entry is written to `NAME.tmp`, synced, then renamed: a crash leaves at
//! most a `.tmp` file, which the next open deletes. Each entry carries a
//! SHA-256 of itself: an entry torn or changed on disk is found when the
//! spool is opened (or read), removed, and reported, never sent.
//!
//! The folder is private (0700, owned by this user; one open to others is
//! refused, never repaired), the entries 0600, and a lock file in it keeps
//! a second process (or a second sink) from using the same folder.
//!
//! Layout of an entry: `TGSPOOL1`, the signal (1 byte: 1 traces, 2 logs),
//! the record count (u64 LE), the body's length (u64 LE), the body (an
//! encoded `Export*ServiceRequest`), SHA-256 of all of the above.
//!
//! SECURITY: a spool holds what a standard sink receives, like a file sink
//! does; policy load refuses `spool_dir` on a `full_allowed` sink, and
//! [`Spool::push`] refuses a full record again. Errors carry error kinds
//! and counts, never a byte of an entry.

use std::collections::VecDeque;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::record::otlp_proto::bounds::Signal;

const MAGIC: &[u8; 8] = b"TGSPOOL1";
const HEADER: usize = 8 + 1 + 8 + 8;
const DIGEST: usize = 32;
const SUFFIX: &str = "otlp";
const LOCK: &str = "lock";
/// Entries up to this size are read at open even when `spool_max_bytes`
/// was lowered below them since they were written.
const MIN_READ: u64 = 64 << 20;

/// Why the spool cannot take or give an entry. SECURITY: fixed words and
/// error kinds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpoolError {
    /// The folder cannot be used (created, locked, listed).
    #[error("spool folder `{path}` cannot be used: {cause}")]
    Unusable {
        /// The folder.
        path: PathBuf,
        /// Why (an error kind or a fixed phrase).
        cause: String,
    },
    /// Taking the entry would pass `spool_max_bytes`.
    #[error("the spool is full (spool_max_bytes)")]
    Full,
    /// A full record: never spooled.
    #[error("a full record is never spooled")]
    Content,
    /// Writing or reading an entry failed.
    #[error("spool entry I/O failed: {0}")]
    Io(String),
}

/// One export request waiting in the spool.
pub struct Entry {
    /// Traces or logs.
    pub signal: Signal,
    /// Records it carries (all standard).
    pub records: u64,
    /// The encoded export request.
    pub body: Vec<u8>,
}

impl std::fmt::Debug for Entry {
    // SECURITY: never the body.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Entry({:?}, {} records, {} bytes)",
            self.signal,
            self.records,
            self.body.len()
        )
    }
}

/// What opening a spool found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Opened {
    /// Entries waiting.
    pub entries: u64,
    /// Records in them.
    pub records: u64,
    /// Entries found torn or changed, and removed.
    pub torn_entries: u64,
    /// Records of the torn entries whose header could still be read.
    pub torn_records: u64,
}

#[derive(Debug, Clone, Copy)]
struct Meta {
    seq: u64,
    bytes: u64,
    records: u64,
}

/// An open spool.
#[derive(Debug)]
pub struct Spool {
    dir: PathBuf,
    max_bytes: u64,
    entries: VecDeque<Meta>,
    bytes: u64,
    records: u64,
    next: u64,
    /// Held for the spool's life.
    _lock: File,
}

impl Spool {
    /// Open (creating when missing) the spool folder `dir`: private, locked
    /// by this process, its entries checked in order; torn ones removed.
    pub fn open(dir: &Path, max_bytes: u64) -> Result<(Spool, Opened), SpoolError> {
        let unusable = |cause: String| SpoolError::Unusable {
            path: dir.to_path_buf(),
            cause,
        };
        if let Some(parent) = dir.parent()
            && !parent.as_os_str().is_empty()
        {
            // The folder's parents, like a file sink's: private when made.
            let mut b = fs::DirBuilder::new();
            b.recursive(true);
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            b.create(parent)
                .map_err(|e| unusable(crate::io_text::io_cause(&e)))?;
        }
        // SECURITY: 0700 and ours, or refused: the entries are records.
        crate::audit::fsx::private_dir(dir).map_err(unusable)?;
        let lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW)
            .open(dir.join(LOCK))
            .map_err(|e| unusable(crate::io_text::io_cause(&e)))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(unusable(
                    "another process (or sink) is using it".to_string(),
                ));
            }
            Err(fs::TryLockError::Error(e)) => {
                return Err(unusable(crate::io_text::io_cause(&e)));
            }
        }
        let mut found = Vec::new();
        let list = fs::read_dir(dir).map_err(|e| unusable(crate::io_text::io_cause(&e)))?;
        for e in list {
            let e = e.map_err(|e| unusable(crate::io_text::io_cause(&e)))?;
            let name = e.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.ends_with(".tmp") {
                // A write cut off before its rename: never complete.
                let _ = fs::remove_file(e.path());
                continue;
            }
            if let Some(seq) = name
                .strip_suffix(SUFFIX)
                .and_then(|s| s.strip_suffix('.'))
                .and_then(|s| s.parse::<u64>().ok())
            {
                found.push(seq);
            }
        }
        found.sort_unstable();
        let mut spool = Spool {
            dir: dir.to_path_buf(),
            max_bytes,
            entries: VecDeque::new(),
            bytes: 0,
            records: 0,
            next: found.last().map_or(1, |s| s.saturating_add(1)),
            _lock: lock,
        };
        let mut opened = Opened::default();
        for seq in found {
            let path = spool.path(seq);
            match read_entry(&path, spool.max_bytes.max(MIN_READ)) {
                Ok((e, bytes)) => {
                    spool.entries.push_back(Meta {
                        seq,
                        bytes,
                        records: e.records,
                    });
                    spool.bytes += bytes;
                    spool.records += e.records;
                    opened.entries += 1;
                    opened.records += e.records;
                }
                Err(torn) => {
                    let _ = fs::remove_file(&path);
                    opened.torn_entries += 1;
                    opened.torn_records += torn;
                }
            }
        }
        Ok((spool, opened))
    }

    fn path(&self, seq: u64) -> PathBuf {
        self.dir.join(format!("{seq:020}.{SUFFIX}"))
    }

    /// Append one export request of `records` standard records. Refused
    /// when it would pass the byte bound, or when it holds a full record.
    pub fn push(
        &mut self,
        signal: Signal,
        records: u64,
        full: u64,
        body: &[u8],
    ) -> Result<(), SpoolError> {
        // SECURITY: content is never written to a spool, whatever the
        // policy said (it refuses `spool_dir` on full sinks already).
        if full > 0 {
            return Err(SpoolError::Content);
        }
        let bytes = (HEADER + body.len() + DIGEST) as u64;
        if self.bytes.saturating_add(bytes) > self.max_bytes {
            return Err(SpoolError::Full);
        }
        let mut data = Vec::with_capacity(HEADER + body.len() + DIGEST);
        data.extend_from_slice(MAGIC);
        data.push(match signal {
            Signal::Traces => 1,
            Signal::Logs => 2,
        });
        data.extend_from_slice(&records.to_le_bytes());
        data.extend_from_slice(&(body.len() as u64).to_le_bytes());
        data.extend_from_slice(body);
        let digest = Sha256::digest(&data);
        data.extend_from_slice(&digest);
        let seq = self.next;
        let path = self.path(seq);
        let tmp = path.with_extension("tmp");
        let io = |e: io::Error| SpoolError::Io(crate::io_text::io_cause(&e));
        let written = (|| {
            let mut f = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&tmp)?;
            f.write_all(&data)?;
            f.sync_data()?;
            fs::rename(&tmp, &path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(io(e));
        }
        self.next = seq.saturating_add(1);
        self.entries.push_back(Meta {
            seq,
            bytes,
            records,
        });
        self.bytes += bytes;
        self.records += records;
        Ok(())
    }

    /// The oldest entry, read and checked. `Err(records)`: it is torn or
    /// changed (the records its header still names, else 0); remove it
    /// with [`Spool::pop`].
    pub fn front(&self) -> Option<Result<Entry, u64>> {
        let m = self.entries.front()?;
        Some(read_entry(&self.path(m.seq), m.bytes).map(|(e, _)| e))
    }

    /// Remove the oldest entry; the records it held.
    pub fn pop(&mut self) -> u64 {
        let Some(m) = self.entries.pop_front() else {
            return 0;
        };
        let _ = fs::remove_file(self.path(m.seq));
        self.bytes -= m.bytes;
        self.records -= m.records;
        m.records
    }

    /// Whether no entry waits.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes of the entries waiting.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Records in the entries waiting.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Apply a new byte bound (a reload); entries already held stay.
    pub fn set_max_bytes(&mut self, max: u64) {
        self.max_bytes = max;
    }
}

/// Read and check one entry, at most `max` bytes (no entry the spool
/// wrote is larger than its bound, so a larger file is not one of them:
/// it is never read into memory); `Err(records)` when it is torn or
/// changed.
fn read_entry(path: &Path, max: u64) -> Result<(Entry, u64), u64> {
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|_| 0u64)?;
    let meta = f.metadata().map_err(|_| 0u64)?;
    if !meta.is_file() || meta.len() > max {
        return Err(0);
    }
    let mut data = Vec::new();
    f.take(max.saturating_add(1))
        .read_to_end(&mut data)
        .map_err(|_| 0u64)?;
    parse_entry(&data)
}

/// Check one entry's bytes; `Err(records)` when they are not a whole,
/// unchanged entry.
fn parse_entry(data: &[u8]) -> Result<(Entry, u64), u64> {
    let bytes = data.len() as u64;
    if data.len() < HEADER + DIGEST || &data[..8] != MAGIC {
        return Err(0);
    }
    let num = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&data[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let records = num(9);
    let len = num(17);
    let signal = match data[8] {
        1 => Signal::Traces,
        2 => Signal::Logs,
        _ => return Err(0),
    };
    if len != (data.len() - HEADER - DIGEST) as u64 {
        return Err(records);
    }
    let (head, digest) = data.split_at(data.len() - DIGEST);
    if Sha256::digest(head).as_slice() != digest {
        return Err(records);
    }
    let body = head[HEADER..].to_vec();
    Ok((
        Entry {
            signal,
            records,
            body,
        },
        bytes,
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn entries_come_back_in_order_after_a_reopen_and_are_private() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/spool");
        {
            let (mut s, opened) = Spool::open(&dir, 1 << 20).unwrap();
            assert_eq!(opened, Opened::default());
            for i in 0..5u8 {
                s.push(Signal::Traces, u64::from(i) + 1, 0, &[i; 100])
                    .unwrap();
            }
            s.push(Signal::Logs, 7, 0, b"logs").unwrap();
            assert_eq!(s.records(), 1 + 2 + 3 + 4 + 5 + 7);
        }
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        for n in names(&dir) {
            assert_eq!(mode(&dir.join(&n)), 0o600, "{n}");
        }
        let (mut s, opened) = Spool::open(&dir, 1 << 20).unwrap();
        assert_eq!(opened.entries, 6);
        assert_eq!(opened.records, 22);
        for i in 0..5u8 {
            let e = s.front().unwrap().unwrap();
            assert_eq!(e.signal, Signal::Traces);
            assert_eq!(e.records, u64::from(i) + 1);
            assert_eq!(e.body, vec![i; 100]);
            assert_eq!(s.pop(), u64::from(i) + 1);
        }
        // New entries go after the old ones, never before.
        s.push(Signal::Traces, 1, 0, b"later").unwrap();
        let e = s.front().unwrap().unwrap();
        assert_eq!((e.signal, e.body.as_slice()), (Signal::Logs, &b"logs"[..]));
        s.pop();
        assert_eq!(s.front().unwrap().unwrap().body, b"later");
    }

    #[test]
    fn a_torn_or_changed_entry_is_removed_and_reported_never_replayed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("spool");
        {
            let (mut s, _) = Spool::open(&dir, 1 << 20).unwrap();
            for i in 0..4u8 {
                s.push(Signal::Traces, 2, 0, &[i; 64]).unwrap();
            }
        }
        let files: Vec<String> = names(&dir)
            .into_iter()
            .filter(|n| n.ends_with(".otlp"))
            .collect();
        assert_eq!(files.len(), 4);
        // The last entry cut short (a crash mid-write on a disk that
        // reordered), the second with one byte changed, and a write that
        // never reached its rename.
        let last = dir.join(&files[3]);
        let len = fs::metadata(&last).unwrap().len();
        fs::OpenOptions::new()
            .write(true)
            .open(&last)
            .unwrap()
            .set_len(len - 10)
            .unwrap();
        let second = dir.join(&files[1]);
        let mut b = fs::read(&second).unwrap();
        b[HEADER + 3] ^= 1;
        fs::write(&second, b).unwrap();
        fs::write(dir.join("00000000000000000099.tmp"), b"half").unwrap();
        let (mut s, opened) = Spool::open(&dir, 1 << 20).unwrap();
        assert_eq!(opened.entries, 2);
        assert_eq!(opened.torn_entries, 2);
        assert_eq!(opened.torn_records, 4, "both headers were intact");
        assert!(!names(&dir).iter().any(|n| n.ends_with(".tmp")));
        assert_eq!(s.front().unwrap().unwrap().body, vec![0; 64]);
        s.pop();
        assert_eq!(s.front().unwrap().unwrap().body, vec![2; 64]);
        s.pop();
        assert!(s.is_empty());
        // Numbering goes on after the highest name ever seen.
        s.push(Signal::Traces, 1, 0, b"x").unwrap();
        assert!(names(&dir).iter().any(|n| n == "00000000000000000005.otlp"));
    }

    #[test]
    fn the_byte_bound_refuses_newer_entries_and_full_records_are_never_spooled() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("spool");
        let one = (HEADER + 100 + DIGEST) as u64;
        let (mut s, _) = Spool::open(&dir, 2 * one).unwrap();
        s.push(Signal::Traces, 1, 0, &[1; 100]).unwrap();
        s.push(Signal::Traces, 1, 0, &[2; 100]).unwrap();
        assert_eq!(
            s.push(Signal::Traces, 1, 0, &[3; 100]),
            Err(SpoolError::Full)
        );
        assert_eq!(s.bytes(), 2 * one);
        s.pop();
        s.push(Signal::Traces, 1, 0, &[3; 100]).unwrap();
        assert_eq!(
            s.push(Signal::Traces, 0, 1, b"content"),
            Err(SpoolError::Content)
        );
    }

    /// Any bytes at all: no panic, and a whole entry only when the bytes
    /// are one; any change to a whole entry (a byte flipped, a cut, bytes
    /// added) is found.
    #[test]
    fn entry_bytes_are_checked_whatever_they_hold() {
        use proptest::prelude::*;
        let whole = |body: &[u8]| {
            let tmp = tempfile::tempdir().unwrap();
            let (mut s, _) = Spool::open(&tmp.path().join("s"), 1 << 20).unwrap();
            s.push(Signal::Logs, 3, 0, body).unwrap();
            fs::read(tmp.path().join("s/00000000000000000001.otlp")).unwrap()
        };
        let good = whole(b"an export request");
        assert!(parse_entry(&good).is_ok());
        proptest!(|(junk in prop::collection::vec(any::<u8>(), 0..128))| {
            prop_assert!(parse_entry(&junk).is_err() || junk == good);
        });
        proptest!(|(at in 0usize..good.len(), flip in 1u8..=255, cut in 0usize..good.len(), extra in prop::collection::vec(any::<u8>(), 1..8))| {
            let mut b = good.clone();
            b[at] ^= flip;
            prop_assert!(parse_entry(&b).is_err());
            prop_assert!(parse_entry(&good[..cut]).is_err());
            let mut longer = good.clone();
            longer.extend_from_slice(&extra);
            prop_assert!(parse_entry(&longer).is_err());
        });
    }

    #[test]
    fn a_file_larger_than_the_bound_is_never_read_and_counts_as_torn() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("spool");
        {
            let (mut s, _) = Spool::open(&dir, 1 << 20).unwrap();
            s.push(Signal::Traces, 1, 0, b"ok").unwrap();
        }
        let big = dir.join("00000000000000000002.otlp");
        let f = fs::File::create(&big).unwrap();
        f.set_len(MIN_READ + 1).unwrap();
        let (s, opened) = Spool::open(&dir, 1 << 20).unwrap();
        assert_eq!((opened.entries, opened.torn_entries), (1, 1));
        assert!(!big.exists());
        assert_eq!(s.front().unwrap().unwrap().body, b"ok");
    }

    #[test]
    fn a_folder_open_to_others_or_in_use_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("spool");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        let e = Spool::open(&dir, 1 << 20).unwrap_err();
        assert!(e.to_string().contains("open to other users"), "{e}");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        let (_held, _) = Spool::open(&dir, 1 << 20).unwrap();
        let e = Spool::open(&dir, 1 << 20).unwrap_err();
        assert!(e.to_string().contains("another process"), "{e}");
    }
}
