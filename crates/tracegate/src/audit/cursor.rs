//! Reading a log incrementally: remember how far it was read, and on each
//! call read only the entries appended since, checking the chain across
//! calls. Gates use this to follow what other processes write (leases,
//! releases, closes) without reading the whole log each time.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::MAX_LINE_BYTES;
use super::chain::{AuditKey, ZERO_PREV, link_hash};
use super::entry::{Entry, parse_entry};
use super::error::AuditError;
use super::verify::TamperKind;

/// Where a reader stopped in a log: the byte offset after the last
/// complete entry read, the seq the next entry must carry and the `prev`
/// it must link with, and the file's identity.
#[derive(Debug, Clone)]
pub struct LogCursor {
    offset: u64,
    next_seq: u64,
    link: String,
    file_id: Option<(u64, u64)>,
}

impl Default for LogCursor {
    fn default() -> Self {
        LogCursor::new()
    }
}

impl LogCursor {
    /// A cursor at the start of a log.
    pub fn new() -> LogCursor {
        LogCursor {
            offset: 0,
            next_seq: 0,
            link: ZERO_PREV.to_owned(),
            file_id: None,
        }
    }

    /// The byte offset read up to.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The seq the next entry must carry (the number of entries read).
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Read every complete entry appended since the last call, checking
    /// seq continuity and `prev` links under `key`, and hand each to
    /// `seen` in order. A last line without its newline (an append in
    /// progress, when read without the lock) is left for the next call.
    ///
    /// Fails closed: a log shorter than what was read before
    /// ([`TamperKind::Truncated`]), a file replaced since the first read
    /// ([`AuditError::Replaced`]), or a line that does not parse or link
    /// ([`AuditError::Broken`]) is an error and the cursor does not move
    /// past it. A missing file reads as empty only while nothing was read.
    pub fn read_new(
        &mut self,
        path: &Path,
        key: Option<&AuditKey>,
        mut seen: impl FnMut(&Entry),
    ) -> Result<u64, AuditError> {
        let read_err = |e: &std::io::Error| AuditError::read(path, e);
        let mut file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && self.file_id.is_none() => {
                return Ok(0);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(AuditError::replaced(path, "deleted"));
            }
            Err(e) => return Err(read_err(&e)),
        };
        let meta = file.metadata().map_err(|e| read_err(&e))?;
        if !meta.is_file() {
            return Err(AuditError::NotRegularFile {
                path: path.to_path_buf(),
            });
        }
        let id = (meta.dev(), meta.ino());
        match self.file_id {
            // SECURITY: a log swapped for another file since we read it
            // could drop entries we already counted on.
            Some(known) if known != id && self.offset > 0 => {
                return Err(AuditError::replaced(path, "replaced"));
            }
            _ => self.file_id = Some(id),
        }
        let size = meta.len();
        if size < self.offset {
            return Err(AuditError::Broken {
                path: path.to_path_buf(),
                seq: self.next_seq,
                kind: TamperKind::Truncated,
            });
        }
        if size == self.offset {
            return Ok(0);
        }
        file.seek(SeekFrom::Start(self.offset))
            .map_err(|e| read_err(&e))?;
        let mut reader = BufReader::with_capacity(64 * 1024, file.take(size - self.offset));
        let mut line = Vec::new();
        let mut count = 0;
        loop {
            line.clear();
            let n = (&mut reader)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut line)
                .map_err(|e| read_err(&e))?;
            if n == 0 {
                break;
            }
            let broken = |kind| AuditError::Broken {
                path: path.to_path_buf(),
                seq: self.next_seq,
                kind,
            };
            if line.last() != Some(&b'\n') {
                if line.len() > MAX_LINE_BYTES {
                    return Err(broken(TamperKind::Edited));
                }
                // An append in progress: read it next time.
                break;
            }
            let body = &line[..line.len() - 1];
            let entry = parse_entry(body).ok_or_else(|| broken(TamperKind::Edited))?;
            if entry.seq < self.next_seq {
                return Err(broken(TamperKind::Inserted));
            }
            if entry.seq > self.next_seq {
                return Err(broken(TamperKind::Deleted));
            }
            // SECURITY: an entry is believed only if it links to the one before.
            let links = serde_json::from_slice::<PrevOnly>(body).is_ok_and(|p| p.prev == self.link);
            if !links {
                return Err(broken(TamperKind::Edited));
            }
            self.link = link_hash(key, &line);
            self.next_seq += 1;
            self.offset += line.len() as u64;
            count += 1;
            seen(&entry);
        }
        Ok(count)
    }
}

/// An entry read only for its `prev` link.
#[derive(serde::Deserialize)]
pub(super) struct PrevOnly {
    pub(super) prev: String,
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use std::io::Write;
    use std::time::Duration;

    use super::*;
    use crate::audit::{AuditEvent, AuditLog};

    fn ev(n: u64) -> AuditEvent {
        AuditEvent::PolicyLoaded {
            policy_sha256: "ab".into(),
            revision: n,
            source: "p".into(),
            referenced: Vec::new(),
            free_bits: Default::default(),
        }
    }

    #[test]
    fn reads_only_what_is_new_and_checks_links_across_calls() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let mut c = LogCursor::new();
        assert_eq!(
            c.read_new(&path, None, |_| {}).unwrap(),
            0,
            "missing = empty"
        );
        let mut log = AuditLog::open(&path, None, Duration::from_secs(1)).unwrap();
        let t: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        log.append(&ev(1), t).unwrap();
        log.append(&ev(2), t).unwrap();
        let mut seqs = Vec::new();
        assert_eq!(c.read_new(&path, None, |e| seqs.push(e.seq)).unwrap(), 2);
        log.append(&ev(3), t).unwrap();
        assert_eq!(c.read_new(&path, None, |e| seqs.push(e.seq)).unwrap(), 1);
        assert_eq!(seqs, [0, 1, 2]);
        // A torn tail (a write in progress) is left for later.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(b"{\"seq\":3").unwrap();
        assert_eq!(c.read_new(&path, None, |_| {}).unwrap(), 0);
    }

    #[test]
    fn a_truncated_edited_or_replaced_log_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let t: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let mut log = AuditLog::open(&path, None, Duration::from_secs(1)).unwrap();
        log.append(&ev(1), t).unwrap();
        log.append(&ev(2), t).unwrap();
        let mut c = LogCursor::new();
        c.read_new(&path, None, |_| {}).unwrap();
        // Truncated behind what was read.
        let bytes = std::fs::read(&path).unwrap();
        let first = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        std::fs::write(&path, &bytes[..first]).unwrap();
        let e = c.clone().read_new(&path, None, |_| {}).unwrap_err();
        assert!(
            matches!(
                e,
                AuditError::Broken {
                    kind: TamperKind::Truncated,
                    ..
                }
            ),
            "{e}"
        );
        // An appended line that does not link.
        let mut edited = bytes.clone();
        let mut third = bytes[first..].to_vec();
        third = String::from_utf8(third)
            .unwrap()
            .replace("\"seq\":1", "\"seq\":2")
            .into_bytes();
        edited.extend_from_slice(&third);
        let other = dir.path().join("b.jsonl");
        std::fs::write(&other, &bytes).unwrap();
        let mut c2 = LogCursor::new();
        c2.read_new(&other, None, |_| {}).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&other)
            .unwrap()
            .write_all(&third)
            .unwrap();
        let e = c2.read_new(&other, None, |_| {}).unwrap_err();
        assert!(
            matches!(
                e,
                AuditError::Broken {
                    kind: TamperKind::Edited,
                    ..
                }
            ),
            "{e}"
        );
        // Replaced by another file with as many bytes.
        let swap = dir.path().join("swap");
        std::fs::write(&swap, &edited).unwrap();
        std::fs::rename(&swap, &other).unwrap();
        let e = c2.read_new(&other, None, |_| {}).unwrap_err();
        assert!(matches!(e, AuditError::Replaced { .. }), "{e}");
    }
}
