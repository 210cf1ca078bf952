//! A sealed sink's segments: when one opens and closes, and what goes out
//! (no IO: the capture that owns them writes their audit entries in its
//! jobs, [`crate::window::runtime::Capture::seal`]).
//!
//! One segment per sink, window and gate process; a new one when the
//! window changes or closes, when the segment reaches [`MAX_SEGMENT_BYTES`]
//! or [`MAX_SEGMENT_AGE`], and when the sink's recipients or content fields
//! change on reload. Its key lives in the [`Sealer`] and is zeroized when
//! the segment closes.
//!
//! **Invariant:** a segment is made ([`Segments::prepare`]) off the record
//! path, its `capture_segment_opened` entry is appended, and only then is
//! it installed ([`Segments::install`]) to seal records: its header and
//! records go out only after the log vouches for it. A record that cannot
//! be sealed does not go out at full level.

use std::time::Duration;

use crate::audit::AuditEvent;
use crate::policy::Policy;
use crate::record::tape::Tape;
use std::sync::Arc;

use crate::seal::pipe::PipeTx;
use crate::seal::{Recipient, SealError, Sealer, SegmentDigest, cf, otlp};

/// The most bytes one segment holds before a new one opens.
pub const MAX_SEGMENT_BYTES: u64 = 64 * 1024 * 1024;
/// The longest one segment stays open before a new one opens.
pub const MAX_SEGMENT_AGE: Duration = Duration::from_secs(3600);

/// Why a record was not sealed (it then must not go out at full level).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SegmentError {
    /// Sealing failed.
    #[error(transparent)]
    Seal(#[from] SealError),
    /// No segment the audit log vouches for is open yet (its opening entry
    /// is queued, or the log did not take it).
    #[error("no sealed segment is open yet (the audit log has not vouched for one)")]
    NotReady,
    /// The sink has no open window, or its caller does not seal.
    #[error("no open window to seal for")]
    NoWindow,
    /// The sink did not take the sealed record (a full queue, a write
    /// error): its sequence number is spent, so its segment must close.
    #[error("the sink did not take the sealed record")]
    NotTaken,
}

/// A segment made and not yet vouched for: its [`Prepared::opened`] entry
/// must be durable before [`Segments::install`] takes it. Dropped, its key
/// is zeroized.
pub struct Prepared {
    sealer: Sealer,
    window: String,
    header: Vec<u8>,
    opened: AuditEvent,
}

crate::io_text::debug_as!(Prepared, |p| "Prepared" {
    segment: p.sealer.header().id,
    window: p.window,
});

impl Prepared {
    /// The `capture_segment_opened` entry to append before install.
    pub fn opened(&self) -> &AuditEvent {
        &self.opened
    }

    /// The window the segment is for.
    pub fn window(&self) -> &str {
        &self.window
    }
}

/// Where a sealed record went: what a reference to it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedAt {
    /// Its segment.
    pub segment: crate::seal::SegmentId,
    /// Its sequence number in the segment (of an OTLP request: its first
    /// sealed value's; each span and log record has its own).
    pub seq: u64,
    /// The content keys sealed in it, in their order (a cf record's;
    /// empty for an OTLP request).
    pub keys: Vec<String>,
    /// Each sealed span's or log record's place (an OTLP request), or the
    /// cf record's as one item for its span: what references name.
    pub items: Vec<otlp::ItemRef>,
}

struct Current {
    sealer: Sealer,
    window: String,
    digest: SegmentDigest,
    /// Bytes written so far (exact inline; estimated when piped, where the
    /// exact count is the writer's): the size bound's measure.
    written: u64,
    opened: Duration,
    /// The header line, until it goes out with the segment's first record.
    header: Option<Vec<u8>>,
}

/// The sealed segments of one sink.
pub struct Segments {
    sink: String,
    recipients: Vec<Recipient>,
    content: Vec<String>,
    /// `[full] content_attributes`: what is content in an OTLP request.
    content_attributes: Vec<String>,
    tape: Tape,
    current: Option<Current>,
    max_bytes: u64,
    max_age: Duration,
    /// Sealing on the writer's thread (`filter`): see [`Segments::pipe`].
    pipe: Option<PipeTx>,
    /// `content`, shared with the writer's thread.
    content_shared: Arc<[String]>,
    /// `"<content key>":` for each content key: a cf record that holds one
    /// is sealed on the writer's thread.
    content_needles: Vec<Vec<u8>>,
}

crate::io_text::debug_as!(Segments, |s| "Segments" {
    sink: s.sink,
    recipients: s.recipients.len(),
    open: s.current.as_ref().map(|c| c.sealer.header().id),
});

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
            content_attributes: policy.full().content_attributes.clone(),
            tape: Tape::new(),
            current: None,
            max_bytes: MAX_SEGMENT_BYTES,
            max_age: MAX_SEGMENT_AGE,
            pipe: None,
            content_shared: policy.full().content_fields.clone().into(),
            content_needles: policy
                .full()
                .content_fields
                .iter()
                .map(|k| format!("\"{k}\":").into_bytes())
                .collect(),
        })
    }

    /// Seal through `pipe` ([`crate::seal::pipe`]): the caller writes
    /// every line of the stream through the same pipe (its plain ones with
    /// [`PipeTx::plain`]), in order; a cf record is sealed on the writer's
    /// thread under a sequence number reserved here, an OTLP request
    /// here; the writer keeps the digest, which [`Segments::close`] asks
    /// it for. `emit` is not called.
    pub fn pipe(&mut self, pipe: PipeTx) {
        self.pipe = Some(pipe);
    }

    /// Whether `policy` seals this sink exactly as these segments do (the
    /// same recipients and content fields): if not, a reload closes the
    /// open segment and starts anew.
    pub fn same_sealing(&self, policy: &Policy) -> bool {
        policy
            .sink(&self.sink)
            .is_some_and(|s| s.seal_to == self.recipients)
            && policy.full().content_fields == self.content
            && policy.full().content_attributes == self.content_attributes
    }

    /// Set the rotation bounds (tests).
    #[cfg(test)]
    pub fn with_bounds(mut self, max_bytes: u64, max_age: Duration) -> Segments {
        self.max_bytes = max_bytes;
        self.max_age = max_age;
        self
    }

    /// Whether a record in `window` at `now` (the monotonic clock) needs a
    /// new segment: none is open, or the open one is for another window or
    /// past its size or age bound.
    pub fn due(&self, window: &str, now: Duration) -> bool {
        self.current.as_ref().is_none_or(|c| {
            c.window != window
                || c.written >= self.max_bytes
                || now.saturating_sub(c.opened) >= self.max_age
        })
    }

    /// Make a new segment for `window`: a fresh key wrapped to the
    /// recipients, and the entry the log must hold before it is used.
    pub fn prepare(&self, window: &str) -> Result<Prepared, SealError> {
        let sealer = Sealer::new(&self.sink, window, &self.recipients)?;
        let header = sealer.header().to_line().into_bytes();
        let opened = AuditEvent::CaptureSegmentOpened {
            sink: self.sink.clone(),
            window: window.to_owned(),
            segment: sealer.header().id.to_string(),
            recipients: sealer.header().hints(),
            header_sha256: crate::seal::sha256_hex(&header),
        };
        Ok(Prepared {
            sealer,
            window: window.to_owned(),
            header,
            opened,
        })
    }

    /// Use `prepared`, whose opening entry is durable, from now (`now`: the
    /// monotonic clock). Returns the closing entry of the segment it
    /// replaces, if one was open.
    pub fn install(&mut self, prepared: Prepared, now: Duration) -> Option<AuditEvent> {
        let closed = self.close();
        self.current = Some(Current {
            sealer: prepared.sealer,
            window: prepared.window,
            digest: SegmentDigest::default(),
            written: 0,
            opened: now,
            header: Some(prepared.header),
        });
        closed
    }

    /// Seal one record that goes out at full level in the open segment and
    /// hand what to write to `emit`, once: the sealed line, after the
    /// segment's header line (`header\nline`) for its first record. `emit`
    /// says whether the sink took it; only then is it counted in the
    /// segment's digest. On error the record must not go out at full
    /// level; after [`SegmentError::NotTaken`] the segment must close
    /// (its sequence has a gap from here).
    pub fn seal(
        &mut self,
        record: &[u8],
        emit: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<SealedAt, SegmentError> {
        if let Some(pipe) = self.pipe.clone() {
            return self.seal_piped(&pipe, record);
        }
        let cur = self.current.as_mut().ok_or(SegmentError::NotReady)?;
        let first = cur.sealer.sealed();
        let attrs = &self.content_attributes;
        let is_attr = |k: &str| crate::policy::content::is_content_attribute(attrs, k);
        let content = &self.content;
        let is_field = |k: &str| content.iter().any(|c| c == k);
        let as_otlp = |sealer: &mut Sealer| {
            otlp::seal_request(sealer, record, &is_attr)
                .map(|r| r.map(|r| (r.line, Vec::new(), r.items)))
        };
        let sealed = if otlp::is_request(record) {
            as_otlp(&mut cur.sealer)
        } else {
            match cf::seal_line_keys(&mut cur.sealer, &mut self.tape, record, &is_field) {
                // No cf content: a bare span, perhaps (the gate judges a
                // line with `name` and an `attributes` array as one).
                Ok(None) => as_otlp(&mut cur.sealer),
                Ok(Some((line, keys))) => {
                    // A cf record's span (an OTLP sink's copy) points to it
                    // whole.
                    let item = otlp::ItemRef {
                        header: None,
                        seq: first,
                        keys: keys.clone(),
                    };
                    Ok(Some((line, keys, vec![item])))
                }
                Err(e) => Err(e),
            }
        };
        // SECURITY: a full record the sealer finds no content in is still
        // not written in clear at full level: it is refused, and goes out
        // standard.
        let Some((line, keys, items)) = sealed? else {
            return Err(SegmentError::Seal(SealError::NotAnObject));
        };
        let taken = match &cur.header {
            Some(h) => {
                let mut both = Vec::with_capacity(h.len() + 1 + line.len());
                both.extend_from_slice(h);
                both.push(b'\n');
                both.extend_from_slice(&line);
                emit(&both)
            }
            None => emit(&line),
        };
        if !taken {
            return Err(SegmentError::NotTaken);
        }
        if let Some(h) = cur.header.take() {
            cur.digest.header(&h);
        }
        cur.digest.record(&line);
        cur.written = cur.digest.bytes;
        Ok(SealedAt {
            segment: cur.sealer.header().id,
            seq: first,
            keys,
            items,
        })
    }

    /// [`Segments::seal`] through the pipe. A cf record whose content
    /// members the writer will find (a quick look here for a content key)
    /// goes to the writer's thread under a reserved number; anything else
    /// (an OTLP request, a bare span) is sealed here and sent as a line.
    fn seal_piped(&mut self, pipe: &PipeTx, record: &[u8]) -> Result<SealedAt, SegmentError> {
        let cur = self.current.as_mut().ok_or(SegmentError::NotReady)?;
        let cf = !otlp::is_request(record)
            && self
                .content_needles
                .iter()
                .any(|n| memchr::memmem::find(record, n).is_some());
        let first = cur.sealer.sealed();
        let line = if cf {
            None
        } else {
            let attrs = &self.content_attributes;
            let is_attr = |k: &str| crate::policy::content::is_content_attribute(attrs, k);
            match otlp::seal_request(&mut cur.sealer, record, &is_attr)? {
                Some(r) => Some(r.line),
                // SECURITY: no content found, or none it can seal: refused,
                // and the record goes out standard.
                None => return Err(SegmentError::Seal(SealError::NotAnObject)),
            }
        };
        if let Some(h) = cur.header.take() {
            cur.written += h.len() as u64 + 1;
            pipe.header(h).map_err(|_| SegmentError::NotTaken)?;
        }
        let sent = match line {
            Some(l) => {
                cur.written += l.len() as u64 + 1;
                pipe.sealed(l)
            }
            None => {
                let seq = cur.sealer.reserve()?;
                // Base64 makes the content a third longer.
                cur.written += record.len() as u64 * 4 / 3 + 64;
                pipe.record(
                    cur.sealer.handle(),
                    seq,
                    record.to_vec(),
                    Arc::clone(&self.content_shared),
                )
            }
        };
        sent.map_err(|_| SegmentError::NotTaken)?;
        Ok(SealedAt {
            segment: cur.sealer.header().id,
            seq: first,
            keys: Vec::new(),
            items: Vec::new(),
        })
    }

    /// Close the open segment, if any: returns its
    /// `capture_segment_closed` entry (records, bytes, running digest) for
    /// the log; its key is zeroized. A close the log never takes leaves the
    /// segment unvouched for: `capture open` then refuses it (fail closed).
    pub fn close(&mut self) -> Option<AuditEvent> {
        let cur = self.current.take()?;
        let (records, bytes, sha256) = match &self.pipe {
            // A segment whose header never went out holds nothing.
            Some(_) if cur.header.is_some() => (0, 0, SegmentDigest::default().hex()),
            // The writer's count, once all before is written; a writer that
            // stopped leaves the segment unvouched for.
            Some(pipe) => {
                let c = pipe.close()?;
                (c.records, c.bytes, c.sha256)
            }
            None => (cur.digest.records, cur.digest.bytes, cur.digest.hex()),
        };
        Some(AuditEvent::CaptureSegmentClosed {
            sink: self.sink.clone(),
            window: cur.window.clone(),
            segment: cur.sealer.header().id.to_string(),
            records,
            bytes,
            sha256,
        })
        // `cur.sealer` drops here (and the writer's handle after its last
        // record): the key is zeroized.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seal::{Identity, SegmentHeader};

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

    /// What a capture's job does: prepare, log the opening, install (and
    /// log the close of the one it replaced).
    fn open(seg: &mut Segments, window: &str, now: Duration, log: &mut Vec<AuditEvent>) {
        if let Some(closed) = seg.close() {
            log.push(closed);
        }
        let p = seg.prepare(window).unwrap();
        log.push(p.opened().clone());
        assert!(seg.install(p, now).is_none());
    }

    const REC: &[u8] = br#"{"request_id":"chatcmpl-1","prompt_text":"secret words"}"#;

    /// Seal `rec` and keep what goes out as lines.
    fn seal(
        seg: &mut Segments,
        rec: &[u8],
        out: &mut Vec<Vec<u8>>,
    ) -> Result<SealedAt, SegmentError> {
        seg.seal(rec, &mut |b: &[u8]| {
            out.extend(b.split(|&c| c == b'\n').map(<[u8]>::to_vec));
            true
        })
    }

    #[test]
    fn a_sealed_segment_is_opened_in_the_log_before_its_header_and_closed_with_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let (mut seg, id) = segments(dir.path());
        let mut log = Vec::new();
        let mut out = Vec::new();
        open(&mut seg, "w1", Duration::ZERO, &mut log);
        let first = seal(&mut seg, REC, &mut out).unwrap();
        let second = seal(&mut seg, REC, &mut out).unwrap();
        assert_eq!(out.len(), 3, "header and two records");
        // Where each went: the segment and position its sealed value names.
        for (at, line) in [(first, &out[1]), (second, &out[2])] {
            let split = cf::split_line(line).unwrap();
            assert_eq!(
                (at.segment, at.seq),
                (split.sealed.segment, split.sealed.seq)
            );
            assert_eq!(at.keys, ["prompt_text"]);
        }
        assert_eq!(log.len(), 1);
        let AuditEvent::CaptureSegmentOpened {
            header_sha256,
            segment,
            ..
        } = &log[0]
        else {
            panic!("opened first");
        };
        assert_eq!(*header_sha256, crate::seal::sha256_hex(&out[0]));
        let header = SegmentHeader::parse_line(&out[0]).unwrap();
        assert_eq!(header.id.to_string(), *segment);
        assert!(header.unwrap_key(&[id]).is_ok());
        let Some(AuditEvent::CaptureSegmentClosed {
            records,
            bytes,
            sha256,
            ..
        }) = seg.close()
        else {
            panic!("closed");
        };
        let mut text = Vec::new();
        for l in &out {
            text.extend_from_slice(l);
            text.push(b'\n');
        }
        assert_eq!((records, bytes), (2, text.len() as u64));
        assert_eq!(sha256, crate::seal::sha256_hex(&text));
        for l in &out {
            assert!(memchr::memmem::find(l, b"secret words").is_none());
        }
        assert!(seg.close().is_none(), "closed once");
    }

    #[test]
    fn a_segment_is_due_on_window_change_size_and_age() {
        let dir = tempfile::tempdir().unwrap();
        let (seg, _) = segments(dir.path());
        let mut seg = seg.with_bounds(400, Duration::from_secs(10));
        let mut log = Vec::new();
        let mut out = Vec::new();
        assert!(seg.due("w1", Duration::ZERO), "none open");
        open(&mut seg, "w1", Duration::ZERO, &mut log);
        assert!(!seg.due("w1", Duration::from_secs(9)));
        assert!(seg.due("w2", Duration::ZERO), "another window");
        assert!(seg.due("w1", Duration::from_secs(10)), "age");
        for _ in 0..3 {
            seal(&mut seg, REC, &mut out).unwrap();
        }
        assert!(seg.due("w1", Duration::ZERO), "size");
    }

    /// Fail closed: without a segment the log vouches for, nothing goes
    /// out; a full record without content is refused, never written clear.
    #[test]
    fn a_record_without_a_vouched_segment_or_without_content_does_not_go_out() {
        let dir = tempfile::tempdir().unwrap();
        let (mut seg, _) = segments(dir.path());
        let mut out = Vec::new();
        assert!(matches!(
            seal(&mut seg, REC, &mut out),
            Err(SegmentError::NotReady)
        ));
        // Prepared but not installed (its entry not durable): still nothing.
        let _p = seg.prepare("w1").unwrap();
        assert!(seal(&mut seg, REC, &mut out).is_err());
        assert!(out.is_empty());
        let mut log = Vec::new();
        open(&mut seg, "w1", Duration::ZERO, &mut log);
        assert!(seal(&mut seg, br#"{"request_id":"chatcmpl-1"}"#, &mut out).is_err());
        assert!(out.is_empty());
        // The segment's header goes out with its first record, and not
        // before the sink takes them.
        assert!(matches!(
            seg.seal(REC, &mut |_: &[u8]| false),
            Err(SegmentError::NotTaken)
        ));
        seal(&mut seg, REC, &mut out).unwrap();
        assert_eq!(out.len(), 2);
        assert!(SegmentHeader::is_header_line(&out[0]));
    }

    /// A record the sink did not take is not in the segment's digest (the
    /// caller closes the segment: its sequence has a gap after it).
    #[test]
    fn a_record_the_sink_did_not_take_is_not_vouched_for() {
        let dir = tempfile::tempdir().unwrap();
        let (mut seg, _) = segments(dir.path());
        let mut log = Vec::new();
        let mut out = Vec::new();
        open(&mut seg, "w1", Duration::ZERO, &mut log);
        seal(&mut seg, REC, &mut out).unwrap();
        assert!(seg.seal(REC, &mut |_: &[u8]| false).is_err());
        let Some(AuditEvent::CaptureSegmentClosed { records, bytes, .. }) = seg.close() else {
            panic!("closed");
        };
        let written: usize = out.iter().map(|l| l.len() + 1).sum();
        assert_eq!((records, bytes), (1, written as u64));
    }
}
