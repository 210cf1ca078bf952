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
//!
//! An OTLP writer retries a failed export as `[server] retry_*` says,
//! holding its queue meanwhile (new records wait there, up to its bounds);
//! when `retry_max_elapsed` has passed the export's records are dropped,
//! counted and logged. With a spool (`[[sink]] spool_dir`) it makes one
//! attempt and puts what failed on disk instead ([`super::spool`]); while
//! the spool holds anything, newer exports go behind it, so the receiver
//! gets them in order, and the spool is replayed with the same backoff.
//! When `serve` stops, an export gets one short attempt, then goes to the
//! spool, or is dropped and counted.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::counters::{DropReason, SinkCounters};
use super::file::open_sink_file;
use super::otlp::{
    Batch, Export, Fail, ForwardError, Forwarder, Levels, Part, attempt_timeout, backoff_wait, grow,
};
use super::spool::{Spool, SpoolError};
use crate::policy::{ExportRetry, SinkOutput, SpoolSettings};
use crate::record::otlp_proto::bounds::Signal;
use crate::sink::counters::lock;

/// Write buffer of a sink writer.
const WRITE_BUFFER: usize = 256 * 1024;

/// One gated record on its way to a sink.
#[derive(Clone)]
pub struct Rec {
    /// The record, ending in `\n`; or, with `encoded`, an export request
    /// as protobuf.
    pub bytes: Vec<u8>,
    /// Delivered at full level.
    pub full: bool,
    /// `bytes` is this signal's export request, encoded already (a
    /// request judged on the wire and cut, `gate::otlp::wire`): only an
    /// OTLP exporter takes it.
    pub encoded: Option<Signal>,
}

impl std::fmt::Debug for Rec {
    // SECURITY: never print record bytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Rec({} bytes, full: {}, encoded: {:?})",
            self.bytes.len(),
            self.full,
            self.encoded
        )
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
    /// The spool folder its writer uses, if any (likewise: a reload reuses
    /// the writer only while this is the same).
    pub spool_dir: Option<PathBuf>,
    /// How the writer retries exports (a reload changes it at once).
    retry: Arc<Mutex<ExportRetry>>,
    /// The spool's byte bound (a reload changes it at once).
    spool_max_bytes: Arc<AtomicU64>,
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

    /// Apply new retry settings and spool bound (a reload).
    pub fn set_export(&self, retry: ExportRetry, spool: Option<&SpoolSettings>) {
        *lock(&self.retry) = retry;
        if let Some(s) = spool {
            self.spool_max_bytes.store(s.max_bytes, Ordering::Relaxed);
        }
    }
}

/// What a sink writer needs besides its output: see [`spawn`].
#[derive(Debug, Clone)]
pub struct WriterSettings {
    /// Queue bound in records (fixed for the writer's life).
    pub max_records: usize,
    /// Queue bound in bytes.
    pub max_bytes: usize,
    /// How often the output is flushed (and an OTLP batch sent).
    pub flush_every: Duration,
    /// How OTLP exports are retried.
    pub retry: ExportRetry,
    /// The OTLP sink's spool, if it has one.
    pub spool: Option<SpoolSettings>,
}

/// `serve`'s side of the seam: a record is copied into the queue, or
/// refused at once when it is full.
impl super::RecordSink for &Queue {
    type Error = QueueFull;
    fn put(&mut self, record: &[u8], full: bool) -> Result<(), QueueFull> {
        let mut bytes = Vec::with_capacity(record.len() + 1);
        bytes.extend_from_slice(record);
        bytes.push(b'\n');
        self.offer(Rec {
            bytes,
            full,
            encoded: None,
        })
    }
}

/// Start the writer of one sink. Its task ends when every [`Queue`] handle
/// is dropped, or when `shutdown` turns true; either way it first writes
/// what is queued and flushes (an OTLP writer: one short attempt per
/// export, then its spool or a counted drop).
pub fn spawn(
    name: &str,
    output: SinkOutput,
    settings: WriterSettings,
    counters: Arc<SinkCounters>,
    shutdown: watch::Receiver<bool>,
) -> (Arc<Queue>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel(settings.max_records.max(1));
    let retry = Arc::new(Mutex::new(settings.retry));
    let spool_max_bytes = Arc::new(AtomicU64::new(
        settings.spool.as_ref().map_or(0, |s| s.max_bytes),
    ));
    let queue = Arc::new(Queue {
        tx,
        max_bytes: AtomicU64::new(settings.max_bytes as u64),
        counters: Arc::clone(&counters),
        output: output.clone(),
        spool_dir: settings.spool.as_ref().map(|s| s.dir.clone()),
        retry: Arc::clone(&retry),
        spool_max_bytes: Arc::clone(&spool_max_bytes),
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
        flush_every: settings.flush_every,
        retry,
        stop: shutdown.clone(),
        spool: settings.spool.map(|s| SpoolState {
            dir: s.dir,
            max_bytes: spool_max_bytes,
            open: None,
            error: None,
            next_try: tokio::time::Instant::now(),
            interval: None,
            warned: None,
            unlogged: 0,
        }),
    };
    let handle = tokio::spawn(writer.run(rx, settings.flush_every, shutdown));
    (queue, handle)
}

/// A writer's spool: the folder, and the spool once it could be opened.
struct SpoolState {
    dir: PathBuf,
    max_bytes: Arc<AtomicU64>,
    open: Option<Spool>,
    /// Why it cannot be opened (logged once per change).
    error: Option<String>,
    /// When the oldest entry is tried next.
    next_try: tokio::time::Instant,
    /// The backoff interval of the next failure; `None`: the initial one.
    interval: Option<Duration>,
    /// When a refused export was last logged, and how many were refused
    /// since without a line of their own.
    warned: Option<tokio::time::Instant>,
    unlogged: u64,
}

/// At most one log line per this long for exports a spool refuses.
const SPOOL_WARN_EVERY: Duration = Duration::from_secs(10);

/// What an output thread reports for one buffer: how many of its bytes
/// reached the output, the error that stopped the rest, if any, and the
/// buffer (for reuse).
type Wrote = (usize, Option<std::io::Error>, Vec<u8>);

/// One buffer for an output thread, and where its report goes.
type Job = (Vec<u8>, tokio::sync::oneshot::Sender<Wrote>);

/// Where a writer's bytes go: a thread of the sink's own that owns the
/// file (or stdout) for as long as it is open, and writes each buffer the
/// writer hands it with plain blocking calls.
///
/// One long-lived thread rather than a task on the blocking pool per
/// flush (or tokio's `Stdout`, which is one per write, each after a copy
/// into its own buffer): a flush costs a channel send and a wake-up, and
/// the buffer is written where it lies. The thread ends when its `Out` is
/// dropped (the writer stops, or gives the output up after an error).
struct Out {
    jobs: std::sync::mpsc::Sender<Job>,
}

/// The output an [`Out`] thread writes to.
enum Dest {
    /// Written with plain `write` calls, so that the bytes that reached the
    /// file are known exactly when a write fails.
    File(std::fs::File),
    /// All or nothing, as far as the counts go: a failed write or flush
    /// counts the whole buffer lost.
    Stdout,
}

impl Dest {
    fn write(&mut self, buf: &[u8]) -> (usize, Option<std::io::Error>) {
        use std::io::Write;
        match self {
            Dest::File(f) => {
                let mut done = 0;
                while done < buf.len() {
                    match f.write(buf.get(done..).unwrap_or_default()) {
                        Ok(0) => return (done, Some(std::io::ErrorKind::WriteZero.into())),
                        Ok(n) => done += n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return (done, Some(e)),
                    }
                }
                (done, None)
            }
            Dest::Stdout => {
                let mut o = std::io::stdout().lock();
                match o.write_all(buf).and_then(|()| o.flush()) {
                    Ok(()) => (buf.len(), None),
                    Err(e) => (0, Some(e)),
                }
            }
        }
    }
}

impl Out {
    /// Start the output thread of sink `name` writing to `dest`.
    fn start(name: &str, mut dest: Dest) -> std::io::Result<Out> {
        let (jobs, rx) = std::sync::mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(format!("sink-{name}"))
            .spawn(move || {
                while let Ok((buf, done)) = rx.recv() {
                    let (n, err) = dest.write(&buf);
                    // The writer stopped waiting: nobody is left to count.
                    let _gone = done.send((n, err, buf));
                }
            })?;
        Ok(Out { jobs })
    }

    /// Write `buf`; how many bytes were written, and the error that stopped
    /// the rest, if any.
    async fn write_flush(&mut self, buf: Vec<u8>) -> Wrote {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if let Err(std::sync::mpsc::SendError((buf, _))) = self.jobs.send((buf, tx)) {
            // The thread is gone (it cannot end on its own while this
            // sender lives, short of a panic): nothing was written.
            return (0, Some(std::io::ErrorKind::BrokenPipe.into()), buf);
        }
        rx.await
            .unwrap_or_else(|_| (0, Some(std::io::ErrorKind::Other.into()), Vec::new()))
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
    retry: Arc<Mutex<ExportRetry>>,
    /// `serve` is stopping: no more waits between attempts.
    stop: watch::Receiver<bool>,
    spool: Option<SpoolState>,
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
            let replay_at = self.replay_at();
            tokio::select! {
                biased;
                // The spool first: what waits there is older than anything
                // in the queue, which holds meanwhile.
                _ = tokio::time::sleep_until(replay_at.unwrap_or_else(tokio::time::Instant::now)), if replay_at.is_some() => {
                    self.replay().await;
                }
                r = rx.recv() => match r {
                    Some(rec) => self.write(rec).await,
                    None => break,
                },
                _ = tick.tick() => {
                    if self.out.is_none() && self.forward.is_none() {
                        self.open().await;
                    }
                    if self.spool.as_ref().is_some_and(|s| s.open.is_none()) {
                        self.open_spool().await;
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
            SinkOutput::Stdout => match Out::start(&self.name, Dest::Stdout) {
                Ok(out) => self.out = Some(out),
                Err(e) => self.unhealthy(e.kind(), "cannot start the sink's output thread"),
            },
            SinkOutput::File(path) => {
                let path = path.clone();
                let name = self.name.clone();
                let opened = tokio::task::spawn_blocking(move || {
                    open_sink_file(&path).and_then(|f| Out::start(&name, Dest::File(f)))
                })
                .await;
                match opened {
                    Ok(Ok(out)) => {
                        self.out = Some(out);
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
                        if self.spool.is_some() {
                            self.open_spool().await;
                        }
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
            let export = match rec.encoded {
                Some(signal) => Export::encoded(signal, rec.bytes),
                None => match Batch::prepare(&rec.bytes) {
                    Ok(export) => export,
                    Err(_) => {
                        // Not OTLP: nothing an OTLP receiver could take.
                        self.counters.drop_one(DropReason::SinkError);
                        return;
                    }
                },
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
        // SECURITY: protobuf is for an exporter only; a line sink never
        // writes it (the pipeline queues it only for exporters).
        if self.out.is_none() || rec.encoded.is_some() {
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
        let Some(f) = self.forward.clone() else {
            return;
        };
        if self.batch.is_empty() {
            return;
        }
        for part in self.batch.take_parts() {
            self.export(&f, part).await;
        }
    }

    /// Send one export request; count where its records went.
    async fn export(&mut self, f: &Forwarder, part: Part) {
        let n = part.records.total();
        let c = Arc::clone(&self.counters);
        let stopping = *self.stop.borrow();
        let retry = *lock(&self.retry);
        if let Some(st) = self.spool.as_mut()
            && st.open.is_some()
        {
            // Behind what waits in the spool, or one attempt, then the
            // spool: the receiver gets exports in order.
            if st.open.as_ref().is_some_and(Spool::is_empty) {
                let timeout = attempt_timeout(stopping);
                match f.attempt(&part, timeout).await {
                    Ok(rejected) => {
                        c.unflushed.fetch_sub(n, Ordering::AcqRel);
                        delivered(&c, part.records, rejected);
                        c.set_health(None);
                        return;
                    }
                    Err(Fail::Permanent(code)) => {
                        c.unflushed.fetch_sub(n, Ordering::AcqRel);
                        refused(&c, &self.name, n, code);
                        return;
                    }
                    Err(Fail::Retry(after)) => {
                        c.retries.fetch_add(1, Ordering::Relaxed);
                        let interval = retry.initial_interval;
                        st.next_try = tokio::time::Instant::now() + backoff_wait(interval, after);
                        st.interval = Some(grow(interval, retry.max_interval));
                    }
                }
            }
            c.unflushed.fetch_sub(n, Ordering::AcqRel);
            self.spool_part(part);
            return;
        }
        let mut stop = self.stop.clone();
        let shared = Arc::clone(&self.retry);
        let sent = f
            .post(
                &part,
                || *lock(&shared),
                &mut stop,
                || {
                    c.retries.fetch_add(1, Ordering::Relaxed);
                    c.set_health(Some("receiver unavailable; retrying".to_string()));
                },
            )
            .await;
        c.unflushed.fetch_sub(n, Ordering::AcqRel);
        match sent {
            Ok(rejected) => {
                delivered(&c, part.records, rejected);
                c.set_health(self.spool.as_ref().and_then(|s| s.error.clone()));
            }
            Err(ForwardError::Refused(code)) => refused(&c, &self.name, n, code),
            Err(_) => {
                let stopping = *self.stop.borrow();
                c.drop_n(DropReason::SinkError, n);
                c.set_health(Some("receiver unavailable".to_string()));
                // SECURITY: counts and fixed words.
                tracing::warn!(
                    sink = %self.name,
                    records = n,
                    retry_max_elapsed = %humantime_secs(lock(&self.retry).max_elapsed),
                    stopping,
                    "the receiver did not take an export within retry_max_elapsed (or before shutdown); its records are dropped"
                );
            }
        }
    }

    /// Put an export the receiver did not take into the spool; when the
    /// spool refuses it, its records are dropped, counted and logged.
    fn spool_part(&mut self, part: Part) {
        let n = part.records.total();
        let c = Arc::clone(&self.counters);
        let Some(st) = self.spool.as_mut() else {
            c.drop_n(DropReason::SinkError, n);
            return;
        };
        let Some(sp) = st.open.as_mut() else {
            c.drop_n(DropReason::SinkError, n);
            return;
        };
        sp.set_max_bytes(st.max_bytes.load(Ordering::Relaxed));
        match sp.push(
            part.signal,
            part.records.standard,
            part.records.full,
            &part.body,
        ) {
            Ok(()) => {
                if c.set_health(Some(
                    "receiver unavailable; exports wait in the spool".to_string(),
                )) {
                    tracing::warn!(sink = %self.name, "the receiver did not take an export; exports wait in the spool until it does");
                }
            }
            Err(e) => {
                // `Full` drops the newest, as a full queue does.
                let why = match e {
                    SpoolError::Full => DropReason::QueueFull,
                    _ => DropReason::SinkError,
                };
                c.drop_n(why, n);
                if let SpoolError::Io(_) = e {
                    // A disk that cannot take the entry: say so where an
                    // operator looks (a full spool is not a fault).
                    c.set_health(Some(e.to_string()));
                }
                // Rate-limited: a full spool refuses every export.
                st.unlogged += n;
                let now = tokio::time::Instant::now();
                if st.warned.is_none_or(|t| now >= t + SPOOL_WARN_EVERY) {
                    // SECURITY: fixed words, an error kind, counts.
                    tracing::warn!(sink = %self.name, records = st.unlogged, error = %e, "exports could not be spooled; their records are dropped");
                    st.warned = Some(now);
                    st.unlogged = 0;
                }
            }
        }
        spool_gauges(&c, sp);
    }

    /// When the spool's oldest entry is tried next, if it holds any.
    fn replay_at(&self) -> Option<tokio::time::Instant> {
        let st = self.spool.as_ref()?;
        if self.forward.is_none() || st.open.as_ref().is_none_or(Spool::is_empty) {
            return None;
        }
        Some(st.next_try)
    }

    /// Try the spool's oldest entry once.
    async fn replay(&mut self) {
        let Some(f) = self.forward.clone() else {
            return;
        };
        let c = Arc::clone(&self.counters);
        let retry = *lock(&self.retry);
        let stopping = *self.stop.borrow();
        let Some(st) = self.spool.as_mut() else {
            return;
        };
        let Some(sp) = st.open.as_mut() else {
            return;
        };
        let now = tokio::time::Instant::now();
        match sp.front() {
            None => return,
            Some(Err(_)) => {
                let n = sp.pop();
                c.drop_n(DropReason::SinkError, n);
                // SECURITY: counts only.
                tracing::warn!(sink = %self.name, records = n, "a spool entry was torn or changed on disk; it is removed, not sent");
                st.next_try = now;
            }
            Some(Ok(e)) => {
                let part = Part {
                    signal: e.signal,
                    records: Levels {
                        standard: e.records,
                        full: 0,
                    },
                    body: axum::body::Bytes::from(e.body),
                };
                let timeout = attempt_timeout(stopping);
                match f.attempt(&part, timeout).await {
                    Ok(rejected) => {
                        sp.pop();
                        delivered(&c, part.records, rejected);
                        st.interval = None;
                        st.next_try = tokio::time::Instant::now();
                        if sp.is_empty() {
                            c.set_health(None);
                            tracing::info!(sink = %self.name, "the spool is replayed");
                        }
                    }
                    Err(Fail::Permanent(code)) => {
                        let n = sp.pop();
                        refused(&c, &self.name, n, code);
                        st.next_try = tokio::time::Instant::now();
                    }
                    Err(Fail::Retry(after)) => {
                        c.retries.fetch_add(1, Ordering::Relaxed);
                        let interval = st.interval.unwrap_or(retry.initial_interval);
                        st.next_try = tokio::time::Instant::now() + backoff_wait(interval, after);
                        st.interval = Some(grow(interval, retry.max_interval));
                        c.set_health(Some(
                            "receiver unavailable; exports wait in the spool".to_string(),
                        ));
                    }
                }
            }
        }
        spool_gauges(&c, sp);
    }

    /// Open the spool (at start, and every flush interval while it cannot
    /// be): what an earlier run left is counted and replayed first.
    async fn open_spool(&mut self) {
        let Some(st) = self.spool.as_mut() else {
            return;
        };
        let dir = st.dir.clone();
        let max = st.max_bytes.load(Ordering::Relaxed);
        let c = Arc::clone(&self.counters);
        let opened = tokio::task::spawn_blocking(move || Spool::open(&dir, max))
            .await
            .unwrap_or_else(|_| Err(SpoolError::Io(std::io::ErrorKind::Other.to_string())));
        match opened {
            Ok((sp, found)) => {
                if found.torn_entries > 0 {
                    c.drop_n(DropReason::SinkError, found.torn_records);
                    tracing::warn!(sink = %self.name, entries = found.torn_entries, records = found.torn_records, "spool entries were torn or changed on disk; they are removed, not sent");
                }
                if found.entries > 0 {
                    c.recovered.fetch_add(found.records, Ordering::AcqRel);
                    tracing::info!(sink = %self.name, entries = found.entries, records = found.records, "exports wait in the spool from an earlier run; replaying them first");
                }
                spool_gauges(&c, &sp);
                st.open = Some(sp);
                st.next_try = tokio::time::Instant::now();
                if st.error.take().is_some() {
                    c.set_health(None);
                }
            }
            Err(e) => {
                let e = e.to_string();
                if st.error.as_ref() != Some(&e) {
                    // SECURITY: the folder (the policy's) and an error
                    // kind. Exports go on without a spool: retried in
                    // memory, then dropped and counted.
                    tracing::error!(sink = %self.name, error = %e, "the sink's spool cannot be used; exports the receiver does not take are dropped");
                }
                c.set_health(Some(e.clone()));
                st.error = Some(e);
            }
        }
    }
}

/// Count an export the receiver took: what it rejected in a partial
/// success is dropped, counted against standard records first.
fn delivered(c: &SinkCounters, records: Levels, rejected: u64) {
    let rejected = rejected.min(records.total());
    let from_standard = rejected.min(records.standard);
    c.out_standard
        .fetch_add(records.standard - from_standard, Ordering::Relaxed);
    c.out_full
        .fetch_add(records.full - (rejected - from_standard), Ordering::Relaxed);
    c.drop_n(DropReason::SinkError, rejected);
    if rejected > 0 {
        tracing::warn!(
            records = rejected,
            "the receiver rejected records (partial success)"
        );
    }
}

/// Count an export the receiver refused for good.
fn refused(c: &SinkCounters, sink: &str, n: u64, code: u16) {
    c.drop_n(DropReason::SinkError, n);
    c.set_health(Some("receiver refused the request".to_string()));
    tracing::warn!(sink = %sink, records = n, status = code, "the receiver refused an export; its records are dropped");
}

fn spool_gauges(c: &SinkCounters, sp: &Spool) {
    c.spooled.store(sp.records(), Ordering::Release);
    c.spooled_bytes.store(sp.bytes(), Ordering::Release);
}

/// `300s`, for log lines.
fn humantime_secs(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
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
            WriterSettings {
                max_records: 64,
                max_bytes: 64 << 20,
                flush_every: Duration::from_millis(10),
                retry: ExportRetry::default(),
                spool: None,
            },
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
                    encoded: None,
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
