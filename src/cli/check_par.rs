//! `check`'s input side: lines in chunks, judged on every core, findings
//! written in input order.
//!
//! One thread reads the inputs and cuts them into chunks of whole lines
//! (about [`CHUNK_BYTES`], never across two files). Chunk `k` goes to
//! worker `k % jobs`; each worker has its own [`Gate`] and [`Auditor`] and
//! renders its chunk's findings into bytes. The calling thread takes the
//! results back in the same round-robin order, so chunks come out in input
//! order without a reorder buffer, and does the one thing that must see
//! every record in order: the attempt tracker (fed fingerprints, with the
//! offset in the chunk's output after which a finding it reports belongs)
//! and the summary (fed per-chunk batches). The output is byte for byte
//! that of `--jobs 1`.
//!
//! Memory: each channel holds at most one chunk or result, so at most
//! `2 * jobs + 1` chunks are alive at once; with lines near the policy's
//! `limits.max_line_bytes` that many such lines.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use jiff::Timestamp;

use super::check::{Tally, outside_window, write_finding};
use super::input::Inputs;
use super::{InputArgs, OutputFormat};
use crate::evidence::{AttemptTracker, Auditor, Fingerprinter, Summary, SummaryBatch, SummaryMode};
use crate::finding::{Finding, FindingKind};
use crate::gate::{Gate, Level, Verdict};
use crate::policy::Policy;
use crate::record::Format;
use crate::source::lines::Line;

/// A chunk is sent once it holds this many bytes of lines.
const CHUNK_BYTES: usize = 256 * 1024;

/// What every worker needs to judge a line.
pub(super) struct Settings<'a> {
    pub policy: Arc<Policy>,
    pub forced: Option<Format>,
    pub level: Level,
    /// `Some(full_allowed)` with `--sink`.
    pub window_check: Option<bool>,
    pub sink_name: &'a str,
    pub windows: &'a [(Timestamp, Timestamp)],
    pub audited: bool,
    pub evidence_only: bool,
    pub summary: Option<SummaryMode>,
    pub format: OutputFormat,
    pub horizon: usize,
    pub jobs: usize,
}

/// One line of a chunk.
enum LineRef {
    Text(usize, usize),
    TooLong(u64),
}

/// Whole lines of one input.
struct Chunk {
    file: usize,
    name: Arc<str>,
    data: Vec<u8>,
    lines: Vec<(u64, LineRef)>,
}

impl Chunk {
    fn new(file: usize, name: Arc<str>) -> Chunk {
        Chunk {
            file,
            name,
            data: Vec::with_capacity(CHUNK_BYTES + 4096),
            lines: Vec::new(),
        }
    }
}

/// An attempt observation: fingerprint, attempt, line, and the length of
/// the chunk's output once that line's findings are written.
struct Obs {
    fp: u64,
    attempt: u64,
    line: u64,
    at: usize,
}

/// A judged chunk.
struct Done {
    file: usize,
    name: Arc<str>,
    out: Vec<u8>,
    tally: Tally,
    obs: Vec<Obs>,
    summary: Option<SummaryBatch>,
}

/// A worker's reusable state.
struct Worker<'s> {
    s: &'s Settings<'s>,
    gate: Gate,
    auditor: Auditor,
    fingerprints: Fingerprinter,
    ev: Vec<crate::evidence::EvidenceFinding>,
    extra: Vec<Finding>,
}

impl<'s> Worker<'s> {
    fn new(s: &'s Settings<'s>, fingerprints: Fingerprinter) -> Worker<'s> {
        let mut gate = Gate::for_check(Arc::clone(&s.policy));
        gate.force_format(s.forced);
        Worker {
            s,
            gate,
            auditor: Auditor::new(),
            fingerprints,
            ev: Vec::new(),
            extra: Vec::new(),
        }
    }

    fn judge(&mut self, chunk: &Chunk) -> io::Result<Done> {
        let s = self.s;
        let mut done = Done {
            file: chunk.file,
            name: Arc::clone(&chunk.name),
            out: Vec::new(),
            tally: Tally::default(),
            obs: Vec::new(),
            summary: s.summary.map(|_| SummaryBatch::new()),
        };
        for (n, l) in &chunk.lines {
            let n = *n;
            let line = match *l {
                LineRef::Text(a, e) => Line::Text(chunk.data.get(a..e).unwrap_or_default()),
                LineRef::TooLong(len) => Line::TooLong { len },
            };
            done.tally.records += 1;
            let judged = self.gate.judge(n, &line, s.level, false);
            self.extra.clear();
            let mut observed = None;
            if judged.verdict != Verdict::Malformed
                && judged.format == Some(Format::Evidence)
                && let Line::Text(bytes) = line
            {
                self.ev.clear();
                match self.auditor.audit_judged(&self.gate, bytes, &mut self.ev) {
                    Ok(facts) => {
                        observed = self.fingerprints.of_facts(&facts);
                        // Only records that met the allowlist (so their ids
                        // are identifiers, not text) reach the summary table.
                        if judged.verdict == Verdict::Verbatim
                            && let Some(batch) = done.summary.as_mut()
                        {
                            batch.add(&facts);
                        }
                    }
                    Err(shape) => self.extra.push(Finding {
                        line: n,
                        kind: FindingKind::Evidence,
                        rule: "evidence_shape",
                        field: Some(shape.path.clone()).filter(|p| !p.is_empty()),
                        message: shape.message.to_string(),
                    }),
                }
                self.extra.extend(self.ev.drain(..).map(|f| Finding {
                    line: n,
                    kind: FindingKind::Evidence,
                    rule: f.rule,
                    field: Some(f.path),
                    message: f.message,
                }));
            }
            if s.window_check.is_some()
                && judged.has_content
                && judged.verdict != Verdict::Malformed
            {
                self.extra.extend(outside_window(
                    n,
                    s.sink_name,
                    s.window_check == Some(true),
                    &line,
                    s.windows,
                    s.audited,
                ));
            }
            let privacy = self.gate.findings().iter().filter(|_| !s.evidence_only);
            for f in privacy.chain(
                self.extra
                    .iter()
                    .filter(|f| !s.evidence_only || f.kind == FindingKind::Evidence),
            ) {
                done.tally.count(f.kind);
                write_finding(&mut done.out, &chunk.name, f, s.format)?;
            }
            if let Some((fp, attempt)) = observed {
                done.obs.push(Obs {
                    fp,
                    attempt,
                    line: n,
                    at: done.out.len(),
                });
            }
        }
        Ok(done)
    }
}

/// The in-order side: writes chunk outputs, runs the attempt tracker and
/// the summary.
struct Merger<'s, W: Write> {
    s: &'s Settings<'s>,
    out: W,
    tally: Tally,
    fingerprints: Fingerprinter,
    tracker: Option<(usize, Arc<str>, AttemptTracker)>,
    summary: Option<Summary>,
}

impl<W: Write> Merger<'_, W> {
    fn flush_attempts(&mut self) -> io::Result<()> {
        if let Some((_, name, tracker)) = self.tracker.take() {
            for a in tracker.finish() {
                self.attempt_finding(&name, a)?;
            }
        }
        Ok(())
    }

    fn attempt_finding(
        &mut self,
        file: &str,
        a: crate::evidence::AttemptFinding,
    ) -> io::Result<()> {
        self.tally.count(FindingKind::Evidence);
        let f = Finding {
            line: a.line,
            kind: FindingKind::Evidence,
            rule: a.finding.rule,
            field: Some(a.finding.path),
            message: a.finding.message,
        };
        write_finding(&mut self.out, file, &f, self.s.format)
    }

    fn merge(&mut self, done: Done) -> io::Result<()> {
        // A new input starts a new attempt tracker.
        if self
            .tracker
            .as_ref()
            .is_none_or(|(f, _, _)| *f != done.file)
        {
            self.flush_attempts()?;
            self.tracker = Some((
                done.file,
                Arc::clone(&done.name),
                AttemptTracker::with_fingerprinter(self.s.horizon, self.fingerprints.clone()),
            ));
        }
        self.tally.add(&done.tally);
        let mut from = 0;
        for o in &done.obs {
            let found = match self.tracker.as_mut() {
                Some((_, _, t)) => t.observe_fingerprint(o.fp, o.attempt, o.line),
                None => None,
            };
            if let Some(a) = found {
                self.out
                    .write_all(done.out.get(from..o.at).unwrap_or_default())?;
                from = o.at;
                self.attempt_finding(&done.name, a)?;
            }
        }
        self.out
            .write_all(done.out.get(from..).unwrap_or_default())?;
        if let (Some(summary), Some(batch)) = (self.summary.as_mut(), &done.summary) {
            summary.merge_batch(batch);
        }
        Ok(())
    }
}

/// What the run produced: whether every input was read, the totals and the
/// summary.
pub(super) struct Outcome {
    pub all_read: bool,
    pub tally: Tally,
    pub summary: Option<Summary>,
}

/// Check every line of `input`, writing findings to `out` in input order.
pub(super) fn run<W: Write>(
    s: &Settings<'_>,
    input: &InputArgs,
    max_line: usize,
    out: W,
) -> io::Result<Outcome> {
    let fingerprints = Fingerprinter::new();
    let mut merger = Merger {
        s,
        out,
        tally: Tally::default(),
        fingerprints: fingerprints.clone(),
        tracker: None,
        summary: s.summary.map(Summary::with_mode),
    };
    let inputs = Inputs::new(&input.files);
    let all_read = if s.jobs <= 1 {
        let mut worker = Worker::new(s, fingerprints);
        read_chunks(&inputs, max_line, |chunk| {
            let done = worker.judge(&chunk)?;
            merger.merge(done)
        })?
    } else {
        parallel(s, &inputs, max_line, fingerprints, &mut merger)?
    };
    merger.flush_attempts()?;
    merger.out.flush()?;
    Ok(Outcome {
        all_read,
        tally: merger.tally,
        summary: merger.summary,
    })
}

/// Cut the inputs into chunks and hand each to `each`, in order.
fn read_chunks(
    inputs: &Inputs,
    max_line: usize,
    mut each: impl FnMut(Chunk) -> io::Result<()>,
) -> io::Result<bool> {
    let mut chunk: Option<Chunk> = None;
    let all_read = inputs.for_each_line_of_input(max_line, |file, name, n, line| {
        if chunk.as_ref().is_some_and(|c| c.file != file)
            && let Some(c) = chunk.take()
        {
            each(c)?;
        }
        let c = chunk.get_or_insert_with(|| Chunk::new(file, Arc::from(name)));
        match line {
            Line::Text(b) => {
                let a = c.data.len();
                c.data.extend_from_slice(b);
                c.lines.push((n, LineRef::Text(a, c.data.len())));
            }
            Line::TooLong { len } => c.lines.push((n, LineRef::TooLong(*len))),
        }
        if c.data.len() >= CHUNK_BYTES
            && let Some(full) = chunk.take()
        {
            each(full)?;
        }
        Ok(())
    })?;
    if let Some(c) = chunk.take() {
        each(c)?;
    }
    Ok(all_read)
}

/// Reader, `s.jobs` workers and the in-order merge on this thread.
fn parallel<W: Write>(
    s: &Settings<'_>,
    inputs: &Inputs,
    max_line: usize,
    fingerprints: Fingerprinter,
    merger: &mut Merger<'_, W>,
) -> io::Result<bool> {
    let jobs = s.jobs;
    std::thread::scope(|scope| {
        let mut to_workers: Vec<SyncSender<Chunk>> = Vec::new();
        let mut from_workers: Vec<Receiver<io::Result<Done>>> = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..jobs {
            let (tx, rx) = sync_channel::<Chunk>(1);
            let (rtx, rrx) = sync_channel::<io::Result<Done>>(1);
            to_workers.push(tx);
            from_workers.push(rrx);
            let fp = fingerprints.clone();
            handles.push(scope.spawn(move || {
                let mut worker = Worker::new(s, fp);
                while let Ok(chunk) = rx.recv() {
                    if rtx.send(worker.judge(&chunk)).is_err() {
                        break;
                    }
                }
            }));
        }
        let reader = scope.spawn(move || {
            let mut k = 0usize;
            read_chunks(inputs, max_line, |chunk| {
                let tx = &to_workers[k % jobs];
                k += 1;
                // The merge stopped (a closed output): stop reading.
                tx.send(chunk)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "check stopped"))
            })
        });
        let mut k = 0usize;
        let merged: io::Result<()> = loop {
            let Ok(done) = from_workers[k % jobs].recv() else {
                break Ok(());
            };
            k += 1;
            if let Err(e) = done.and_then(|d| merger.merge(d)) {
                break Err(e);
            }
        };
        // Dropping the receivers stops the workers, which stops the reader.
        drop(from_workers);
        let read = reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the input reader failed")));
        // SECURITY: a worker that died took its chunks' findings with it:
        // that is an error, never a shorter, clean-looking report.
        let workers_ok = handles.into_iter().all(|h| h.join().is_ok());
        merged?;
        if !workers_ok {
            return Err(io::Error::other("a checking thread failed"));
        }
        read
    })
}
