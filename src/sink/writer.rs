//! Sink writers: one task per sink output, fed by a queue bounded in
//! records and in bytes.
//!
//! Producers never wait: [`Queue::offer`] either takes the record or
//! refuses it at once (the caller counts the drop). A record counts as
//! delivered only once the write and flush that carry it succeeded. A
//! writer that cannot open or write its output drops what it receives and
//! counts it, marks the sink unhealthy (`/healthz`, `/metrics`,
//! `/v1/status`), and tries to reopen every flush interval; it never hands
//! content to another sink.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::counters::{DropReason, SinkCounters};
use super::file::open_sink_file;
use super::otlp::{Batch, Forwarder, Levels};
use crate::policy::SinkOutput;

/// Write buffer of a sink writer.
const WRITE_BUFFER: usize = 256 * 1024;

/// One gated record on its way to a sink.
#[derive(Clone)]
pub struct Rec {
    /// The record, ending in `\n`.
    pub bytes: Vec<u8>,
    /// Delivered at full level.
    pub full: bool,
}

impl std::fmt::Debug for Rec {
    // SECURITY: never print record bytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rec({} bytes, full: {})", self.bytes.len(), self.full)
    }
}

/// The producer side of a sink's queue.
#[derive(Debug)]
pub struct Queue {
    tx: mpsc::Sender<Rec>,
    max_bytes: AtomicU64,
    counters: Arc<SinkCounters>,
    /// The output this queue feeds (a reload reuses the queue, and its
    /// writer, as long as the output is the same: two writers never append
    /// to one file).
    pub output: SinkOutput,
}

/// The queue refused a record: it is full (records or bytes) or closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueFull;

impl Queue {
    /// Enqueue without waiting, or refuse when a bound would be passed.
    pub fn offer(&self, rec: Rec) -> Result<(), QueueFull> {
        let len = rec.bytes.len() as u64;
        let before = self.counters.queued_bytes.fetch_add(len, Ordering::AcqRel);
        // A record larger than the whole byte bound still goes into an
        // empty queue, or it could never be delivered at all.
        if before > 0 && before + len > self.max_bytes.load(Ordering::Relaxed) {
            self.counters.queued_bytes.fetch_sub(len, Ordering::AcqRel);
            self.counters.saturated.store(true, Ordering::Release);
            return Err(QueueFull);
        }
        match self.tx.try_send(rec) {
            Ok(()) => {
                self.counters.queued.fetch_add(1, Ordering::AcqRel);
                Ok(())
            }
            Err(_) => {
                self.counters.queued_bytes.fetch_sub(len, Ordering::AcqRel);
                self.counters.saturated.store(true, Ordering::Release);
                Err(QueueFull)
            }
        }
    }

    /// Whether the next record would certainly be refused.
    pub fn is_full(&self) -> bool {
        self.tx.capacity() == 0
            || self.counters.saturated.load(Ordering::Acquire)
            || self.counters.queued_bytes.load(Ordering::Acquire)
                >= self.max_bytes.load(Ordering::Relaxed)
    }

    /// Apply a new byte bound (a reload); the record bound is fixed for
    /// the writer's life.
    pub fn set_max_bytes(&self, max: usize) {
        self.max_bytes.store(max as u64, Ordering::Relaxed);
    }
}

/// `serve`'s side of the seam: a record is copied into the queue, or
/// refused at once when it is full.
impl super::RecordSink for &Queue {
    type Error = QueueFull;
    fn put(&mut self, record: &[u8], full: bool) -> Result<(), QueueFull> {
        let mut bytes = Vec::with_capacity(record.len() + 1);
        bytes.extend_from_slice(record);
        bytes.push(b'\n');
        self.offer(Rec { bytes, full })
    }
}

/// Start the writer of one sink. Its task ends when every [`Queue`] handle
/// is dropped, or when `shutdown` turns true; either way it first writes
/// what is queued and flushes.
pub fn spawn(
    name: &str,
    output: SinkOutput,
    max_records: usize,
    max_bytes: usize,
    flush_every: Duration,
    counters: Arc<SinkCounters>,
    shutdown: watch::Receiver<bool>,
) -> (Arc<Queue>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(max_records.max(1));
    let queue = Arc::new(Queue {
        tx,
        max_bytes: AtomicU64::new(max_bytes as u64),
        counters: Arc::clone(&counters),
        output: output.clone(),
    });
    let writer = Writer {
        name: name.to_string(),
        output,
        counters,
        out: None,
        buf: Vec::new(),
        pending: Vec::new(),
        forward: None,
        batch: Batch::default(),
        flush_every,
    };
    let handle = tokio::spawn(writer.run(rx, flush_every, shutdown));
    (queue, handle)
}

/// Where a writer's bytes go.
enum Out {
    /// Written on the blocking pool with plain `write` calls, so that the
    /// bytes that reached the file are known exactly when a write fails.
    File(Option<std::fs::File>),
    Stdout(tokio::io::Stdout),
}

impl Out {
    /// Write `buf`; how many bytes were written, and the error that stopped
    /// the rest, if any.
    async fn write_flush(&mut self, buf: Vec<u8>) -> (usize, Option<std::io::Error>, Vec<u8>) {
        match self {
            Out::File(slot) => {
                let Some(mut f) = slot.take() else {
                    return (0, Some(std::io::ErrorKind::NotConnected.into()), buf);
                };
                let job = tokio::task::spawn_blocking(move || {
                    use std::io::Write;
                    let mut done = 0;
                    let mut err = None;
                    while done < buf.len() {
                        match f.write(&buf[done..]) {
                            Ok(0) => {
                                err = Some(std::io::ErrorKind::WriteZero.into());
                                break;
                            }
                            Ok(n) => done += n,
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                            Err(e) => {
                                err = Some(e);
                                break;
                            }
                        }
                    }
                    (f, done, err, buf)
                });
                match job.await {
                    Ok((f, done, err, buf)) => {
                        *slot = Some(f);
                        (done, err, buf)
                    }
                    Err(_) => (0, Some(std::io::ErrorKind::Other.into()), Vec::new()),
                }
            }
            Out::Stdout(o) => {
                let r = async {
                    o.write_all(&buf).await?;
                    o.flush().await
                }
                .await;
                match r {
                    Ok(()) => (buf.len(), None, buf),
                    Err(e) => (0, Some(e), buf),
                }
            }
        }
    }
}

struct Writer {
    name: String,
    output: SinkOutput,
    counters: Arc<SinkCounters>,
    out: Option<Out>,
    /// Records written to `buf` and not yet flushed: counted as delivered
    /// only once the bytes that carry them reached the output. Each has
    /// its end offset in `buf` and its level.
    buf: Vec<u8>,
    pending: Vec<(usize, bool)>,
    forward: Option<Forwarder>,
    batch: Batch,
    flush_every: Duration,
}

impl Writer {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Rec>,
        flush_every: Duration,
        mut shutdown: watch::Receiver<bool>,
    ) {
        self.open().await;
        let mut tick = tokio::time::interval(flush_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                biased;
                r = rx.recv() => match r {
                    Some(rec) => self.write(rec).await,
                    None => break,
                },
                _ = tick.tick() => {
                    if self.out.is_none() && self.forward.is_none() {
                        self.open().await;
                    }
                    self.flush().await;
                    if self.batch.due(self.flush_every) {
                        self.send_batch().await;
                    }
                }
                _ = shutdown.changed() => {
                    // Drain what was accepted before the stop: nothing a
                    // client was told is delivered is lost.
                    rx.close();
                    while let Some(rec) = rx.recv().await {
                        self.write(rec).await;
                    }
                    break;
                }
            }
        }
        self.flush().await;
        self.send_batch().await;
        tracing::debug!(sink = %self.name, "sink writer stopped");
    }

    async fn open(&mut self) {
        match &self.output {
            SinkOutput::Stdout => self.out = Some(Out::Stdout(tokio::io::stdout())),
            SinkOutput::File(path) => {
                let path = path.clone();
                match tokio::task::spawn_blocking(move || open_sink_file(&path)).await {
                    Ok(Ok(f)) => {
                        self.out = Some(Out::File(Some(f)));
                        self.counters.set_health(None);
                    }
                    Ok(Err(e)) => {
                        self.unhealthy(
                            e.kind(),
                            "cannot open sink output; its records are dropped",
                        );
                    }
                    Err(_) => self.unhealthy(std::io::ErrorKind::Other, "cannot open sink output"),
                }
            }
            SinkOutput::OtlpHttp(_) | SinkOutput::OtlpHttps(_) | SinkOutput::OtlpGrpc(_) => {
                match Forwarder::new(&self.output) {
                    Ok(f) => {
                        self.forward = Some(f);
                        self.counters.set_health(None);
                    }
                    Err(e) => {
                        // SECURITY: fixed words from the TLS setup; its
                        // records are dropped, never sent in the clear.
                        if self.counters.set_health(Some(e.clone())) {
                            tracing::error!(sink = %self.name, error = %e, "cannot set up the sink's exporter; its records are dropped");
                        }
                    }
                }
            }
        }
    }

    fn unhealthy(&self, kind: std::io::ErrorKind, what: &str) {
        // Log once per change, not once per record.
        if self.counters.set_health(Some(kind.to_string())) {
            tracing::error!(sink = %self.name, error = %kind, "{what}");
        }
    }

    async fn write(&mut self, rec: Rec) {
        let len = rec.bytes.len() as u64;
        self.counters.queued.fetch_sub(1, Ordering::AcqRel);
        self.counters.queued_bytes.fetch_sub(len, Ordering::AcqRel);
        self.counters.saturated.store(false, Ordering::Release);
        if self.forward.is_some() {
            let Ok(export) = Batch::prepare(&rec.bytes) else {
                // Not OTLP: nothing an OTLP receiver could take.
                self.counters.drop_one(DropReason::SinkError);
                return;
            };
            if self.batch.would_overflow(&export) {
                self.send_batch().await;
            }
            self.batch.push(export, rec.full);
            self.counters.unflushed.fetch_add(1, Ordering::AcqRel);
            if self.batch.due(self.flush_every) {
                self.send_batch().await;
            }
            return;
        }
        if self.out.is_none() {
            self.counters.drop_one(DropReason::SinkError);
            return;
        }
        if self.buf.is_empty() && rec.bytes.len() >= WRITE_BUFFER {
            // A record as large as the buffer goes out in its own bytes,
            // not copied into the buffer first (an OTLP request is often
            // hundreds of kilobytes).
            self.buf = rec.bytes;
            self.pending.push((self.buf.len(), rec.full));
            self.counters.unflushed.fetch_add(1, Ordering::AcqRel);
            self.flush().await;
            return;
        }
        self.buf.extend_from_slice(&rec.bytes);
        self.pending.push((self.buf.len(), rec.full));
        self.counters.unflushed.fetch_add(1, Ordering::AcqRel);
        if self.buf.len() >= WRITE_BUFFER {
            self.flush().await;
        }
    }

    /// Write the buffer; count a record delivered only when all of its
    /// bytes reached the output, else dropped (a write that failed part-way
    /// leaves a torn line: the next open ends it).
    async fn flush(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        let buf = std::mem::take(&mut self.buf);
        let (written, err, mut buf) = match &mut self.out {
            Some(out) => out.write_flush(buf).await,
            None => (0, Some(std::io::ErrorKind::NotConnected.into()), buf),
        };
        let mut done = Levels::default();
        let mut lost = 0;
        for (end, full) in pending {
            if end <= written {
                if full {
                    done.full += 1;
                } else {
                    done.standard += 1;
                }
            } else {
                lost += 1;
            }
        }
        let c = &self.counters;
        c.out_standard.fetch_add(done.standard, Ordering::Relaxed);
        c.out_full.fetch_add(done.full, Ordering::Relaxed);
        c.drop_n(DropReason::SinkError, lost);
        c.unflushed
            .fetch_sub(done.standard + done.full + lost, Ordering::AcqRel);
        match err {
            None => {
                c.set_health(None);
            }
            Some(e) => {
                self.unhealthy(
                    e.kind(),
                    "sink write failed; its records are dropped until it reopens",
                );
                self.out = None;
            }
        }
        buf.clear();
        if buf.capacity() <= 4 * WRITE_BUFFER {
            self.buf = buf;
        }
    }

    async fn send_batch(&mut self) {
        let Some(f) = &self.forward else { return };
        if self.batch.is_empty() {
            return;
        }
        let records = self.batch.records();
        let sent = f.send(&mut self.batch).await;
        let c = &self.counters;
        c.unflushed.fetch_sub(records, Ordering::AcqRel);
        c.out_standard
            .fetch_add(sent.delivered.standard, Ordering::Relaxed);
        c.out_full.fetch_add(sent.delivered.full, Ordering::Relaxed);
        c.drop_n(DropReason::SinkError, sent.dropped);
        c.set_health(sent.error.map(str::to_string));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    /// Records small and larger than the write buffer, mixed, reach the
    /// file whole, once each and in order, and each is counted at its level.
    #[tokio::test]
    async fn records_of_every_size_arrive_whole_in_order_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sink.jsonl");
        let counters = Arc::new(SinkCounters::default());
        let (stop_tx, stop) = watch::channel(false);
        let (queue, handle) = spawn(
            "s",
            SinkOutput::File(path.clone()),
            64,
            64 << 20,
            Duration::from_millis(10),
            Arc::clone(&counters),
            stop,
        );
        let sizes = [
            10,
            WRITE_BUFFER + 7,
            3,
            WRITE_BUFFER - 1,
            2,
            3 * WRITE_BUFFER,
            5,
        ];
        let mut expected = Vec::new();
        for (i, &n) in sizes.iter().enumerate() {
            let mut bytes = vec![b'a' + u8::try_from(i).unwrap(); n];
            bytes.push(b'\n');
            expected.extend_from_slice(&bytes);
            queue
                .offer(Rec {
                    bytes,
                    full: i % 2 == 1,
                })
                .unwrap();
        }
        stop_tx.send(true).unwrap();
        handle.await.unwrap();
        assert!(std::fs::read(&path).unwrap() == expected);
        assert_eq!(counters.out_full.load(Ordering::Relaxed), 3);
        assert_eq!(counters.out_standard.load(Ordering::Relaxed), 4);
        assert_eq!(counters.unflushed.load(Ordering::Relaxed), 0);
    }
}
