//! Sealing on a second thread, in order: the writer of a sealed stream
//! (`filter` into a sealed sink) whose expensive per-byte work (the
//! record's AES-GCM, its base64, the segment's running SHA-256 and the
//! write itself) runs beside the thread that judges records, so sealing
//! costs the gate little wall time on a machine with a core to spare.
//!
//! The judging thread keeps every decision: it reserves each record's
//! sequence number ([`super::Sealer::reserve`]) and sends, in output
//! order, plain lines, a segment's header, lines it sealed itself, and cf
//! records to seal ([`PipeTx`]). This thread writes them in that order
//! and keeps the open segment's digest; closing a segment
//! ([`PipeTx::close`]) waits until everything before it is written and
//! returns its records, bytes and SHA-256.
//!
//! **Invariant:** nothing reaches the writer in clear that was sent to be
//! sealed: a record that cannot be sealed here (its number was reserved,
//! so it cannot go out standard in its place) is dropped, the pipe is
//! marked failed and the run must stop ([`PipeTx::failed`]); its segment
//! then has a gap, so `capture open` refuses it (fail closed).

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;

use super::{SealHandle, SegmentDigest, cf};
use crate::record::tape::Tape;

/// Batches in flight at most: bounds the memory the writer can fall
/// behind by (with [`BATCH`] and [`BATCH_BYTES`]).
const DEPTH: usize = 8;
/// Messages sent to the writer at once: one wake-up of its thread per
/// batch, not per record.
const BATCH: usize = 128;
/// Bytes of records and lines that make a batch go before it is full.
const BATCH_BYTES: usize = 1 << 20;

enum Msg {
    /// A line outside any segment (a standard record).
    Plain(Vec<u8>),
    /// A segment's header line: its digest starts.
    Header(Vec<u8>),
    /// A line sealed by the judging thread (an OTLP request).
    Sealed(Vec<u8>),
    /// A cf record to seal as number `seq` of `handle`'s segment.
    Record {
        handle: SealHandle,
        seq: u64,
        record: Vec<u8>,
        content: Arc<[String]>,
    },
    /// Close the open segment: its counts and digest, once all before it
    /// is written.
    Close(mpsc::Sender<Option<Closed>>),
    /// Flush and stop.
    End,
}

/// A closed segment as written: what `capture_segment_closed` records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    /// Sealed lines.
    pub records: u64,
    /// Bytes, header and line ends included.
    pub bytes: u64,
    /// SHA-256 of those bytes, hex.
    pub sha256: String,
}

/// The judging thread's end of the pipe.
#[derive(Clone)]
pub struct PipeTx {
    tx: mpsc::SyncSender<Vec<Msg>>,
    /// Messages not sent yet, and their bytes.
    batch: Arc<std::sync::Mutex<(Vec<Msg>, usize)>>,
    failed: Arc<AtomicBool>,
}

crate::io_text::debug_as!(PipeTx, |p| "PipeTx" {
    failed: p.failed(),
});

/// The writer thread and its sending end.
#[derive(Debug)]
pub struct Pipe {
    tx: PipeTx,
    thread: JoinHandle<io::Result<()>>,
}

fn gone() -> io::Error {
    io::Error::other("the sealing writer stopped")
}

impl PipeTx {
    fn send(&self, m: Msg) -> io::Result<()> {
        if self.failed() {
            return Err(gone());
        }
        let bytes = match &m {
            Msg::Plain(b) | Msg::Header(b) | Msg::Sealed(b) => b.len(),
            Msg::Record { record, .. } => record.len(),
            Msg::Close(_) | Msg::End => 0,
        };
        let full = {
            let mut b = self.batch();
            b.0.push(m);
            b.1 += bytes;
            b.0.len() >= BATCH || b.1 >= BATCH_BYTES
        };
        if full { self.flush() } else { Ok(()) }
    }

    /// The messages not sent yet (a poisoned lock still holds them).
    fn batch(&self) -> std::sync::MutexGuard<'_, (Vec<Msg>, usize)> {
        self.batch
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Send what is batched.
    fn flush(&self) -> io::Result<()> {
        let msgs = {
            let mut b = self.batch();
            b.1 = 0;
            std::mem::take(&mut b.0)
        };
        if msgs.is_empty() {
            return Ok(());
        }
        self.tx.send(msgs).map_err(|_| gone())
    }

    /// Whether the writer failed (a write error, or a record it could not
    /// seal): the run must stop.
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Write a line outside any segment.
    pub fn plain(&self, line: &[u8]) -> io::Result<()> {
        self.send(Msg::Plain(line.to_vec()))
    }

    /// Start a segment with its header line.
    pub fn header(&self, line: Vec<u8>) -> io::Result<()> {
        self.send(Msg::Header(line))
    }

    /// Write a line already sealed, counted in the open segment.
    pub fn sealed(&self, line: Vec<u8>) -> io::Result<()> {
        self.send(Msg::Sealed(line))
    }

    /// Seal cf `record` as number `seq` (reserved) of `handle`'s segment,
    /// its members named in `content` as content, and write it.
    pub fn record(
        &self,
        handle: SealHandle,
        seq: u64,
        record: Vec<u8>,
        content: Arc<[String]>,
    ) -> io::Result<()> {
        self.send(Msg::Record {
            handle,
            seq,
            record,
            content,
        })
    }

    /// Close the open segment: its counts and digest once everything sent
    /// before is written; `None` when no segment was open or the writer
    /// stopped (the segment then stays unvouched for).
    pub fn close(&self) -> Option<Closed> {
        let (reply, answer) = mpsc::channel();
        // Sent whatever the failed flag says, so that the writer answers.
        self.batch().0.push(Msg::Close(reply));
        self.flush().ok()?;
        answer.recv().ok().flatten()
    }
}

impl Pipe {
    /// Start the writer thread on `out`.
    pub fn spawn(out: Box<dyn Write + Send>) -> io::Result<Pipe> {
        let (tx, rx) = mpsc::sync_channel(DEPTH);
        let failed = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&failed);
        let thread = std::thread::Builder::new()
            .name("tracegate-seal".into())
            .spawn(move || write_all(rx, out, &flag))?;
        Ok(Pipe {
            tx: PipeTx {
                tx,
                batch: Arc::default(),
                failed,
            },
            thread,
        })
    }

    /// A sending end.
    pub fn tx(&self) -> PipeTx {
        self.tx.clone()
    }

    /// Wait for everything sent so far to be written and flushed, and stop
    /// the writer (a [`PipeTx`] still held sends nothing after). The first
    /// write error, or an error if a record could not be sealed.
    pub fn finish(self) -> io::Result<()> {
        let _ = self.tx.flush();
        let _ = self.tx.tx.send(vec![Msg::End]);
        drop(self.tx);
        self.thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the sealing writer panicked")))
    }
}

/// The writer thread: each message in order.
fn write_all(
    rx: mpsc::Receiver<Vec<Msg>>,
    out: Box<dyn Write + Send>,
    failed: &AtomicBool,
) -> io::Result<()> {
    let mut w = io::BufWriter::with_capacity(256 * 1024, out);
    let mut digest: Option<SegmentDigest> = None;
    let mut tape = Tape::new();
    let mut error: Option<io::Error> = None;
    let put = |w: &mut io::BufWriter<Box<dyn Write + Send>>,
               line: &[u8],
               error: &mut Option<io::Error>| {
        if error.is_some() {
            return;
        }
        if let Err(e) = w.write_all(line).and_then(|()| w.write_all(b"\n")) {
            *error = Some(e);
            failed.store(true, Ordering::Release);
        }
    };
    for m in rx.into_iter().flatten() {
        match m {
            Msg::Plain(line) => put(&mut w, &line, &mut error),
            Msg::Header(line) => {
                let mut d = SegmentDigest::default();
                d.header(&line);
                digest = Some(d);
                put(&mut w, &line, &mut error);
            }
            Msg::Sealed(line) => {
                if let Some(d) = digest.as_mut() {
                    d.record(&line);
                }
                put(&mut w, &line, &mut error);
            }
            Msg::Record {
                handle,
                seq,
                record,
                content,
            } => {
                let is_content = |k: &str| content.iter().any(|c| c == k);
                let sealed = cf::seal_line_with(
                    &mut |c, k, x| handle.seal_at(seq, c, k, x),
                    &mut tape,
                    &record,
                    &is_content,
                );
                match sealed {
                    Ok(Some((line, _))) => {
                        if let Some(d) = digest.as_mut() {
                            d.record(&line);
                        }
                        put(&mut w, &line, &mut error);
                    }
                    // SECURITY: its number is reserved, so it cannot go out
                    // standard in its place: dropped, and the run stops.
                    _ => {
                        failed.store(true, Ordering::Release);
                        if error.is_none() {
                            error = Some(io::Error::other(
                                "a record sent to be sealed could not be sealed; its segment is incomplete",
                            ));
                        }
                    }
                }
            }
            Msg::Close(reply) => {
                let closed = digest.take().map(|d| Closed {
                    records: d.records,
                    bytes: d.bytes,
                    sha256: d.hex(),
                });
                let _ = reply.send(closed);
            }
            Msg::End => break,
        }
    }
    if error.is_none()
        && let Err(e) = w.flush()
    {
        error = Some(e);
    }
    error.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seal::{Identity, Sealer, SegmentHeader};
    use std::sync::Mutex;

    /// A writer into shared memory, or one that fails.
    #[derive(Clone, Default)]
    struct Mem(Arc<Mutex<Vec<u8>>>, bool);

    impl Write for Mem {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.1 {
                return Err(io::Error::other("disk full"));
            }
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn content() -> Arc<[String]> {
        vec!["prompt_text".to_owned()].into()
    }

    const REC: &[u8] = br#"{"request_id":"chatcmpl-1","prompt_text":"secret words"}"#;

    /// Lines come out in the order sent; the digest the close returns is
    /// the one of the segment's lines as written; the record opens.
    #[test]
    fn lines_go_out_in_order_and_the_close_digests_what_was_written() {
        let id = Identity::generate().unwrap();
        let mut sealer = Sealer::new("cap", "w1", &[id.recipient()]).unwrap();
        let mem = Mem::default();
        let pipe = Pipe::spawn(Box::new(mem.clone())).unwrap();
        let tx = pipe.tx();
        let header = sealer.header().to_line().into_bytes();
        tx.plain(b"{\"before\":1}").unwrap();
        tx.header(header.clone()).unwrap();
        for _ in 0..3 {
            let seq = sealer.reserve().unwrap();
            tx.record(sealer.handle(), seq, REC.to_vec(), content())
                .unwrap();
        }
        let closed = tx.close().unwrap();
        tx.plain(b"{\"after\":1}").unwrap();
        pipe.finish().unwrap();
        let out = mem.0.lock().unwrap().clone();
        let lines: Vec<&[u8]> = out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), 6);
        assert_eq!(lines[0], b"{\"before\":1}");
        assert_eq!(lines[5], b"{\"after\":1}");
        let mut d = SegmentDigest::default();
        d.header(lines[1]);
        for l in &lines[2..5] {
            d.record(l);
        }
        assert_eq!(
            closed,
            Closed {
                records: 3,
                bytes: d.bytes,
                sha256: d.hex()
            }
        );
        assert!(memchr::memmem::find(&out, b"secret").is_none());
        let opener = SegmentHeader::parse_line(lines[1])
            .unwrap()
            .unwrap_key(&[id])
            .unwrap();
        for (i, l) in lines[2..5].iter().enumerate() {
            let split = cf::split_line(l).unwrap();
            assert_eq!(split.sealed.seq, i as u64, "numbers in order");
            assert!(cf::open_line(&opener, &split).is_ok());
        }
    }

    /// Fail closed: a record the writer cannot seal is not written (in
    /// clear or at all), the pipe says it failed, and finishing is an
    /// error; a write error is the same.
    #[test]
    fn a_record_it_cannot_seal_or_a_failed_write_stops_the_run() {
        let id = Identity::generate().unwrap();
        let mut sealer = Sealer::new("cap", "w1", &[id.recipient()]).unwrap();
        let mem = Mem::default();
        let pipe = Pipe::spawn(Box::new(mem.clone())).unwrap();
        let tx = pipe.tx();
        let seq = sealer.reserve().unwrap();
        tx.record(
            sealer.handle(),
            seq,
            br#"{"request_id":"x","meta":{"prompt_text":"secret"}}"#.to_vec(),
            content(),
        )
        .unwrap();
        assert!(tx.close().is_none(), "no segment was open");
        assert!(tx.failed());
        assert!(tx.plain(b"{}").is_err(), "nothing more is taken");
        assert!(pipe.finish().is_err());
        assert!(memchr::memmem::find(&mem.0.lock().unwrap(), b"secret").is_none());

        let pipe = Pipe::spawn(Box::new(Mem(Arc::default(), true))).unwrap();
        let tx = pipe.tx();
        // Buffered: the error comes out when the buffer is written, at the
        // latest when the pipe finishes.
        let _ = tx.plain(b"{\"a\":1}");
        assert!(pipe.finish().is_err());
    }
}
