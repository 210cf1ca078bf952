//! A sealed sink's segments: when one opens and closes, and what goes out
//! (no IO: the audit appends go through the caller's [`SegmentAudit`], the
//! lines to the caller's writer).
//!
//! One segment per sink, window and gate process; a new one when the
//! window changes, when the segment reaches [`MAX_SEGMENT_BYTES`] or
//! [`MAX_SEGMENT_AGE`], and (in `serve`) when the sink's recipients change
//! on reload. Its key lives in the [`Sealer`] and is zeroized when the
//! segment closes.
//!
//! **Invariant:** a segment's header and records go out only after its
//! `capture_segment_opened` entry is durable; a record that cannot be
//! sealed, or whose segment cannot be opened in the log, does not go out
//! at full level.

use std::time::Duration;

use crate::audit::AuditEvent;
use crate::policy::Policy;
use crate::record::tape::Tape;
use crate::seal::{Recipient, SealError, Sealer, SegmentDigest, cf};

/// The most bytes one segment holds before a new one opens.
pub const MAX_SEGMENT_BYTES: u64 = 64 * 1024 * 1024;
/// The longest one segment stays open before a new one opens.
pub const MAX_SEGMENT_AGE: Duration = Duration::from_secs(3600);

/// Where a segment's audit entries go: `true` once the entry is durable.
pub trait SegmentAudit {
    /// Append `event` and make it durable.
    fn append_now(&mut self, event: &AuditEvent) -> bool;
}

/// Why a record was not sealed (it then must not go out at full level).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SegmentError {
    /// Sealing failed.
    #[error(transparent)]
    Seal(#[from] SealError),
    /// The segment's `capture_segment_opened` entry could not be written.
    #[error("the audit log did not take the segment's opening entry")]
    Audit,
}

struct Current {
    sealer: Sealer,
    window: String,
    digest: SegmentDigest,
    opened: Duration,
    /// The header line, until it goes out with the segment's first record.
    header: Option<Vec<u8>>,
}

/// The sealed segments of one sink.
pub struct Segments {
    sink: String,
    recipients: Vec<Recipient>,
    content: Vec<String>,
    tape: Tape,
    current: Option<Current>,
    max_bytes: u64,
    max_age: Duration,
}

impl std::fmt::Debug for Segments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Segments")
            .field("sink", &self.sink)
            .field("recipients", &self.recipients.len())
            .field("open", &self.current.as_ref().map(|c| c.sealer.header().id))
            .finish()
    }
}

impl Segments {
    /// The segments of `sink`, when the policy seals it (`seal_to`).
    pub fn for_sink(policy: &Policy, sink: &str) -> Option<Segments> {
        let s = policy.sink(sink)?;
        if s.seal_to.is_empty() {
            return None;
        }
        Some(Segments {
            sink: sink.to_owned(),
            recipients: s.seal_to.clone(),
            content: policy.full().content_fields.clone(),
            tape: Tape::new(),
            current: None,
            max_bytes: MAX_SEGMENT_BYTES,
            max_age: MAX_SEGMENT_AGE,
        })
    }

    /// Set the rotation bounds (tests).
    #[cfg(test)]
    pub fn with_bounds(mut self, max_bytes: u64, max_age: Duration) -> Segments {
        self.max_bytes = max_bytes;
        self.max_age = max_age;
        self
    }

    /// Seal one record that goes out at full level in `window` (`now`: the
    /// monotonic clock). Pushes the lines to write, in order, onto `out`:
    /// a new segment's header first. On error nothing was pushed and the
    /// record must not go out at full level.
    pub fn seal(
        &mut self,
        window: &str,
        now: Duration,
        record: &[u8],
        audit: &mut dyn SegmentAudit,
        out: &mut Vec<Vec<u8>>,
    ) -> Result<(), SegmentError> {
        let rotate = self.current.as_ref().is_some_and(|c| {
            c.window != window
                || c.digest.bytes >= self.max_bytes
                || now.saturating_sub(c.opened) >= self.max_age
        });
        if rotate {
            self.close(audit);
        }
        let content = &self.content;
        let is_content = |k: &str| content.iter().any(|c| c == k);
        if self.current.is_none() {
            let sealer = Sealer::new(&self.sink, window, &self.recipients)?;
            let line = sealer.header().to_line().into_bytes();
            let opened = AuditEvent::CaptureSegmentOpened {
                sink: self.sink.clone(),
                window: window.to_owned(),
                segment: sealer.header().id.to_string(),
                recipients: sealer.header().hints(),
                header_sha256: crate::seal::sha256_hex(&line),
            };
            // SECURITY: the log vouches for the segment before any of it
            // goes out.
            if !audit.append_now(&opened) {
                return Err(SegmentError::Audit);
            }
            let mut digest = SegmentDigest::default();
            digest.header(&line);
            self.current = Some(Current {
                sealer,
                window: window.to_owned(),
                digest,
                opened: now,
                header: Some(line),
            });
        }
        let Some(cur) = self.current.as_mut() else {
            return Err(SegmentError::Audit);
        };
        let line = match cf::seal_line(&mut cur.sealer, &mut self.tape, record, &is_content) {
            Ok(Some(l)) => l,
            // SECURITY: a full record the sealer finds no content in is
            // still not written in clear at full level: it is refused, and
            // goes out standard.
            Ok(None) => return Err(SegmentError::Seal(SealError::NotAnObject)),
            Err(e) => return Err(e.into()),
        };
        if let Some(h) = cur.header.take() {
            out.push(h);
        }
        cur.digest.record(&line);
        out.push(line);
        Ok(())
    }

    /// The open segment's window, if any.
    pub fn open_window(&self) -> Option<&str> {
        self.current.as_ref().map(|c| c.window.as_str())
    }

    /// Close the open segment, if any: its `capture_segment_closed` entry
    /// is appended, its key zeroized.
    pub fn close(&mut self, audit: &mut dyn SegmentAudit) {
        let Some(cur) = self.current.take() else {
            return;
        };
        let closed = AuditEvent::CaptureSegmentClosed {
            sink: self.sink.clone(),
            window: cur.window.clone(),
            segment: cur.sealer.header().id.to_string(),
            records: cur.digest.records,
            bytes: cur.digest.bytes,
            sha256: cur.digest.hex(),
        };
        // A close that cannot be written leaves the segment unvouched for:
        // `capture open` then refuses it (fail closed), and says why.
        let _ = audit.append_now(&closed);
        // `cur.sealer` drops here: its key is zeroized.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seal::{Identity, SegmentHeader};

    /// An audit log in memory; `fail` refuses appends.
    #[derive(Default)]
    struct Log {
        events: Vec<AuditEvent>,
        fail: bool,
    }

    impl SegmentAudit for Log {
        fn append_now(&mut self, event: &AuditEvent) -> bool {
            if self.fail {
                return false;
            }
            self.events.push(event.clone());
            true
        }
    }

    fn segments(dir: &std::path::Path) -> (Segments, Identity) {
        let id = Identity::generate().unwrap();
        let p = dir.join("p.toml");
        std::fs::write(
            &p,
            format!(
                "[audit]\npath = \"a.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\nseal_to = [\"{}\"]\n",
                id.recipient().encode()
            ),
        )
        .unwrap();
        let policy = Policy::load(&p).unwrap();
        (Segments::for_sink(&policy, "cap").unwrap(), id)
    }

    const REC: &[u8] = br#"{"request_id":"chatcmpl-1","prompt_text":"secret words"}"#;

    #[test]
    fn a_sealed_segment_is_opened_in_the_log_before_its_header_and_closed_with_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let (mut seg, id) = segments(dir.path());
        let mut log = Log::default();
        let mut out = Vec::new();
        seg.seal("w1", Duration::ZERO, REC, &mut log, &mut out)
            .unwrap();
        seg.seal("w1", Duration::ZERO, REC, &mut log, &mut out)
            .unwrap();
        assert_eq!(out.len(), 3, "header and two records");
        assert_eq!(log.events.len(), 1);
        let AuditEvent::CaptureSegmentOpened {
            header_sha256,
            segment,
            ..
        } = &log.events[0]
        else {
            panic!("opened first");
        };
        assert_eq!(*header_sha256, crate::seal::sha256_hex(&out[0]));
        let header = SegmentHeader::parse_line(&out[0]).unwrap();
        assert_eq!(header.id.to_string(), *segment);
        assert!(header.unwrap_key(&[id]).is_ok());
        seg.close(&mut log);
        let AuditEvent::CaptureSegmentClosed {
            records,
            bytes,
            sha256,
            ..
        } = &log.events[1]
        else {
            panic!("closed");
        };
        let mut text = Vec::new();
        for l in &out {
            text.extend_from_slice(l);
            text.push(b'\n');
        }
        assert_eq!((*records, *bytes), (2, text.len() as u64));
        assert_eq!(*sha256, crate::seal::sha256_hex(&text));
        for l in &out {
            assert!(memchr::memmem::find(l, b"secret words").is_none());
        }
    }

    #[test]
    fn a_sealed_segment_rotates_on_window_change_size_and_age() {
        let dir = tempfile::tempdir().unwrap();
        let (seg, _) = segments(dir.path());
        let mut seg = seg.with_bounds(400, Duration::from_secs(10));
        let mut log = Log::default();
        let mut out = Vec::new();
        seg.seal("w1", Duration::ZERO, REC, &mut log, &mut out)
            .unwrap();
        seg.seal("w2", Duration::ZERO, REC, &mut log, &mut out)
            .unwrap();
        seg.seal("w2", Duration::from_secs(11), REC, &mut log, &mut out)
            .unwrap();
        for _ in 0..3 {
            seg.seal("w2", Duration::from_secs(11), REC, &mut log, &mut out)
                .unwrap();
        }
        let names: Vec<&str> = log.events.iter().map(AuditEvent::name).collect();
        let opened = names
            .iter()
            .filter(|n| **n == "capture_segment_opened")
            .count();
        assert!(
            opened >= 4,
            "window, age and size each open a segment: {names:?}"
        );
        assert_eq!(
            names
                .iter()
                .filter(|n| **n == "capture_segment_closed")
                .count(),
            opened - 1
        );
    }

    /// Fail closed: when the log does not take the opening entry, nothing
    /// goes out (no header, no record) and the caller is told.
    #[test]
    fn a_sealed_record_whose_segment_the_log_refuses_does_not_go_out() {
        let dir = tempfile::tempdir().unwrap();
        let (mut seg, _) = segments(dir.path());
        let mut log = Log {
            fail: true,
            ..Log::default()
        };
        let mut out = Vec::new();
        assert!(
            seg.seal("w1", Duration::ZERO, REC, &mut log, &mut out)
                .is_err()
        );
        assert!(out.is_empty());
        // A full record in which the sealer finds no content field is
        // refused too, never written in clear.
        let mut log = Log::default();
        assert!(
            seg.seal(
                "w1",
                Duration::ZERO,
                br#"{"request_id":"chatcmpl-1"}"#,
                &mut log,
                &mut out
            )
            .is_err()
        );
        assert!(out.is_empty());
        // The segment's header goes out with its first record.
        seg.seal("w1", Duration::ZERO, REC, &mut log, &mut out)
            .unwrap();
        assert_eq!(out.len(), 2);
        assert!(SegmentHeader::is_header_line(&out[0]));
    }
}
