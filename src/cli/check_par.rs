//! `check`'s judging: every line through the gate and the auditor on
//! every core ([`super::par`]), findings written in input order.
//!
//! Each worker has its own [`Gate`] and [`Auditor`] and renders its
//! chunk's findings into bytes. The calling thread merges the chunks in
//! input order and does the one thing that must see every record in
//! order: the attempt tracker (fed fingerprints, with the offset in the
//! chunk's output after which a finding it reports belongs) and the
//! summary (fed per-chunk batches). The output is byte for byte that of
//! `--jobs 1`.

use crate::finding::Rule;
use std::io::{self, Write};
use std::sync::Arc;

use jiff::Timestamp;
use serde::Serialize;

use super::OutputFormat;
use super::input::{InputCounts, Inputs};
use super::output::{Paint, write_json};
use super::par::{Chunk, ChunkJudge, run_ordered};
use crate::evidence::{AttemptTracker, Auditor, Fingerprinter, Summary, SummaryBatch, SummaryMode};
use crate::finding::{Finding, FindingKind};
use crate::gate::{Gate, Verdict};
use crate::policy::Policy;
use crate::record::Format;
use crate::source::lines::Line;
use crate::window::Level;

#[derive(Serialize)]
struct JsonFinding<'a> {
    #[serde(rename = "type")]
    kind_of_message: &'static str,
    file: &'a str,
    line: u64,
    kind: &'static str,
    rule: &'static str,
    field: Option<&'a str>,
    message: &'a str,
}

/// Counts for the stderr summary.
#[derive(Default, Clone, Copy)]
pub(super) struct Tally {
    pub records: u64,
    pub violations: u64,
    pub malformed: u64,
    pub evidence: u64,
}

impl Tally {
    /// Count one finding.
    pub fn count(&mut self, kind: FindingKind) {
        match kind {
            FindingKind::Violation => self.violations += 1,
            FindingKind::Malformed => self.malformed += 1,
            FindingKind::Evidence => self.evidence += 1,
            // A kind this command does not know yet counts against the
            // input: fails closed.
            _ => self.violations += 1,
        }
    }

    /// Findings of every kind.
    pub fn findings(&self) -> u64 {
        self.violations + self.malformed + self.evidence
    }

    /// Add another tally.
    pub fn add(&mut self, o: &Tally) {
        self.records += o.records;
        self.violations += o.violations;
        self.malformed += o.malformed;
        self.evidence += o.evidence;
    }
}

/// A finding `outside_window` unless the record lies in a window of the sink.
pub(super) fn outside_window(
    n: u64,
    sink: &str,
    full_allowed: bool,
    line: &Line<'_>,
    windows: &[(Timestamp, Timestamp)],
    audited: bool,
) -> Option<Finding> {
    let finding = |message: String| {
        Some(Finding {
            line: n,
            kind: FindingKind::Violation,
            rule: Rule::OutsideWindow,
            field: None,
            message,
        })
    };
    if !full_allowed {
        return finding(format!(
            "record holds content but sink `{sink}` is not full_allowed"
        ));
    }
    let Line::Text(bytes) = line else {
        return finding("record cannot be placed in time".into());
    };
    let Some((start, end)) = crate::window::record_span(bytes) else {
        return finding(
            "record holds content but has no start and end times to place it in a window".into(),
        );
    };
    let inside = windows.iter().any(|(s, e)| *s <= start && end <= *e);
    if inside {
        None
    } else if audited {
        finding(format!(
            "record holds content outside every window of sink `{sink}` enabled in the audit log"
        ))
    } else {
        finding(format!(
            "record holds content outside every window of sink `{sink}`"
        ))
    }
}

pub(super) fn write_finding(
    out: &mut impl Write,
    file: &str,
    f: &Finding,
    format: OutputFormat,
    paint: Paint,
) -> io::Result<()> {
    match format {
        OutputFormat::Text => {
            paint.path(out, file)?;
            out.write_all(b":")?;
            paint.line(out, f.line)?;
            out.write_all(b": ")?;
            paint.rule(out, f.rule.as_str())?;
            out.write_all(b": ")?;
            if let Some(field) = &f.field {
                paint.field(out, field)?;
                out.write_all(b": ")?;
            }
            out.write_all(f.message.as_bytes())?;
            out.write_all(b"\n")
        }
        OutputFormat::Json => {
            let j = JsonFinding {
                kind_of_message: "finding",
                file,
                line: f.line,
                kind: f.kind.as_str(),
                rule: f.rule.as_str(),
                field: f.field.as_deref(),
                message: &f.message,
            };
            write_json(out, &j)
        }
    }
}

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
    pub paint: Paint,
    /// `-q`: render nothing, stop at the first finding.
    pub quiet: bool,
    pub horizon: usize,
    pub jobs: usize,
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

    fn judge_chunk(&mut self, chunk: &Chunk) -> io::Result<Done> {
        let s = self.s;
        let mut done = Done {
            file: chunk.file,
            name: Arc::clone(&chunk.name),
            out: Vec::new(),
            tally: Tally::default(),
            obs: Vec::new(),
            summary: s.summary.map(|_| SummaryBatch::new()),
        };
        for (n, line) in chunk.lines() {
            // A sealed capture (`seal_to`), checked for a full sink: a
            // segment header is not a record, and a sealed record is judged
            // by its clear part (its content is the sealed value, which
            // counts as content). Anywhere else both are judged as they
            // are: their reserved keys are on no allowlist.
            let sealed_clear: Vec<u8>;
            let mut line = line;
            let mut sealed = false;
            if s.window_check == Some(true)
                && let Line::Text(bytes) = line
            {
                if crate::seal::SegmentHeader::is_header_line(bytes)
                    && crate::seal::SegmentHeader::parse_line(bytes).is_ok()
                {
                    continue;
                }
                if let Ok(split) = crate::seal::cf::split_line(bytes) {
                    sealed_clear = split.clear;
                    line = Line::Text(&sealed_clear);
                    sealed = true;
                } else if crate::seal::otlp::is_sealed_request(bytes)
                    && let Ok(clear) = crate::seal::otlp::clear_part(bytes)
                {
                    sealed_clear = clear;
                    line = Line::Text(&sealed_clear);
                    sealed = true;
                }
            }
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
                        rule: Rule::EvidenceShape,
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
                && (judged.has_content || sealed)
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
                if !s.quiet {
                    write_finding(&mut done.out, &chunk.name, f, s.format, s.paint)?;
                }
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
        if self.s.quiet {
            return Ok(());
        }
        let f = Finding {
            line: a.line,
            kind: FindingKind::Evidence,
            rule: a.finding.rule,
            field: Some(a.finding.path),
            message: a.finding.message,
        };
        write_finding(&mut self.out, file, &f, self.s.format, self.s.paint)
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
        // The chunk's lookups first, independent of each other: their
        // cache misses overlap, and the pass below finds the memory there
        // (a chunk's few hundred observations touch tens of kilobytes).
        if let Some((_, _, t)) = self.tracker.as_ref() {
            for (k, o) in done.obs.iter().enumerate() {
                t.warm(o.fp, k);
            }
        }
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
        if self.s.quiet && self.tally.findings() > 0 {
            // `-q` answers one question: is there any finding? Once there
            // is, reading on changes nothing.
            return Err(io::Error::other(Stopped));
        }
        Ok(())
    }
}

impl ChunkJudge for Worker<'_> {
    type Done = Done;
    fn judge(&mut self, chunk: &Chunk) -> io::Result<Done> {
        self.judge_chunk(chunk)
    }
}

/// The run stopped on purpose (`-q` saw a finding).
#[derive(Debug)]
pub(super) struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped at the first finding")
    }
}

impl std::error::Error for Stopped {}

/// Whether `e` is [`Stopped`].
pub(super) fn is_stopped(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Stopped>())
}

/// What the run produced: the totals and the summary so far, what was
/// read, and the error that ended it early, if any (a closed stdout,
/// [`Stopped`], a write error).
pub(super) struct Outcome {
    pub tally: Tally,
    pub counts: InputCounts,
    pub summary: Option<Summary>,
    pub error: Option<io::Error>,
}

/// Check every line of `inputs`, writing findings to `out` in input order.
pub(super) fn run<W: Write>(
    s: &Settings<'_>,
    inputs: &Arc<Inputs>,
    max_line: usize,
    out: W,
) -> Outcome {
    let fingerprints = Fingerprinter::new();
    let mut merger = Merger {
        s,
        out,
        tally: Tally::default(),
        fingerprints: fingerprints.clone(),
        tracker: None,
        summary: s.summary.map(Summary::with_mode),
    };
    let result = run_ordered(
        inputs,
        max_line,
        s.jobs,
        || Worker::new(s, fingerprints.clone()),
        |done| merger.merge(done),
    )
    .and_then(|_| merger.flush_attempts())
    .and_then(|()| merger.out.flush());
    Outcome {
        tally: merger.tally,
        counts: inputs.counts(),
        summary: merger.summary,
        error: result.err(),
    }
}
