//! Sink writers: one task per sink output, fed by a queue bounded in
//! records and in bytes.
//!
//! Producers never wait: [`Queue::offer`] either takes the record or
//! refuses it at once (the caller counts the drop). A writer that cannot
//! open or write its output drops what it receives and counts it; it never
//! hands content to another sink.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::forward::Forwarder;
use super::metrics::{DropReason, SinkCounters};
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
        forward: None,
    };
    let handle = tokio::spawn(writer.run(rx, flush_every, shutdown));
    (queue, handle)
}

struct Writer {
    name: String,
    output: SinkOutput,
    counters: Arc<SinkCounters>,
    out: Option<BufWriter<Box<dyn AsyncWrite + Send + Unpin>>>,
    forward: Option<Forwarder>,
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
        let mut dirty = false;
        loop {
            tokio::select! {
                biased;
                r = rx.recv() => match r {
                    Some(rec) => {
                        self.write(rec).await;
                        dirty = true;
                    }
                    None => break,
                },
                _ = tick.tick() => {
                    if self.out.is_none() && self.forward.is_none() {
                        self.open().await;
                    }
                    if dirty {
                        self.flush().await;
                        dirty = false;
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
        tracing::debug!(sink = %self.name, "sink writer stopped");
    }

    async fn open(&mut self) {
        let w: Box<dyn AsyncWrite + Send + Unpin> = match &self.output {
            SinkOutput::Stdout => Box::new(tokio::io::stdout()),
            SinkOutput::File(path) => match open_append(path).await {
                Ok(f) => Box::new(f),
                Err(e) => {
                    tracing::error!(sink = %self.name, path = %path.display(), error = %e.kind(), "cannot open sink output; its records are dropped");
                    return;
                }
            },
            SinkOutput::OtlpHttp(url) => {
                self.forward = Some(Forwarder::new(url));
                return;
            }
        };
        self.out = Some(BufWriter::with_capacity(WRITE_BUFFER, w));
    }

    async fn write(&mut self, rec: Rec) {
        let len = rec.bytes.len() as u64;
        self.counters.queued.fetch_sub(1, Ordering::AcqRel);
        self.counters.queued_bytes.fetch_sub(len, Ordering::AcqRel);
        self.counters.saturated.store(false, Ordering::Release);
        let ok = match (&mut self.out, &self.forward) {
            (_, Some(f)) => match f.send(&rec.bytes).await {
                Ok(()) => true,
                Err(e) => {
                    tracing::warn!(sink = %self.name, error = %e, "record not forwarded");
                    false
                }
            },
            (Some(w), None) => match w.write_all(&rec.bytes).await {
                Ok(()) => true,
                Err(e) => {
                    tracing::error!(sink = %self.name, error = %e.kind(), "sink write failed; reopening");
                    self.out = None;
                    false
                }
            },
            (None, None) => false,
        };
        if !ok {
            self.counters.drop_one(DropReason::SinkError);
        } else if rec.full {
            self.counters.out_full.fetch_add(1, Ordering::Relaxed);
        } else {
            self.counters.out_standard.fetch_add(1, Ordering::Relaxed);
        }
    }

    async fn flush(&mut self) {
        if let Some(w) = &mut self.out
            && let Err(e) = w.flush().await
        {
            tracing::error!(sink = %self.name, error = %e.kind(), "sink flush failed; reopening");
            self.out = None;
        }
    }
}

async fn open_append(path: &Path) -> std::io::Result<tokio::fs::File> {
    tokio::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .await
}
