//! `tracegate filter`: stream records to stdout as one sink may receive them.

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;

use super::input::{Inputs, is_broken_pipe};
use super::par::{Chunk, ChunkJudge, run_ordered};
use super::{InputArgs, exit};
use crate::decision::{Delivery, LevelSource, Written, judge_for_sink};
use crate::gate::{Gate, Verdict};
use crate::policy::{Policy, Sink};
use crate::seal::pipe::Pipe;
use crate::sink::Lines;
use crate::source::lines::Line;
use crate::window::Level;
use crate::window::clock::SystemClock;
use crate::window::runtime::Capture;

/// `filter` options.
#[derive(Debug, Args)]
pub struct FilterArgs {
    /// The policy: a TOML file or a folder of them.
    #[arg(long, value_name = "PATH")]
    pub policy: PathBuf,
    /// The sink whose view of the records to write.
    #[arg(long, value_name = "SINK")]
    pub sink: String,
    /// No summary on stderr (errors are still reported).
    #[arg(short, long)]
    pub quiet: bool,
    /// Worker threads for a sink that is never full (0: one per core); the
    /// output is in input order whatever the number. A `full_allowed` sink
    /// is filtered on one thread, as its windows and budgets require.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// Input options.
    #[command(flatten)]
    pub input: InputArgs,
}

/// What `filter` counts for its summary.
#[derive(Debug, Default)]
pub struct FilterTally {
    /// Non-blank lines read.
    pub records: u64,
    /// Records written (verbatim or rebuilt).
    pub passed: u64,
    /// Of those, records written with fields removed.
    pub stripped: u64,
    /// Records written at full level.
    pub full: u64,
    /// Records not written: a constraint was broken.
    pub dropped: u64,
    /// Lines not written: malformed.
    pub malformed: u64,
    /// Findings by rule.
    pub rules: BTreeMap<&'static str, u64>,
}

impl FilterTally {
    /// The one-line summary printed on stderr.
    pub fn summary(&self, sink: &str) -> String {
        let mut s = format!(
            "{sink}: {}: {} passed ({} full, {} stripped), {} dropped, {} malformed",
            crate::io_text::counted(self.records, "record", "records"),
            self.passed,
            self.full,
            self.stripped,
            self.dropped,
            self.malformed
        );
        if !self.rules.is_empty() {
            s.push_str("; findings:");
            for (rule, n) in &self.rules {
                s.push_str(&format!(" {rule} {n}"));
            }
        }
        s
    }
}

impl FilterTally {
    /// Add the counts of another tally (a chunk judged on another thread).
    pub fn add(&mut self, o: &FilterTally) {
        self.records += o.records;
        self.passed += o.passed;
        self.stripped += o.stripped;
        self.full += o.full;
        self.dropped += o.dropped;
        self.malformed += o.malformed;
        for (rule, n) in &o.rules {
            *self.rules.entry(rule).or_default() += n;
        }
    }
}

/// Find `name` among the policy's sinks, or report it (exit 2).
pub fn resolve_sink<'p>(policy: &'p Policy, name: &str) -> Result<&'p Sink, u8> {
    match policy.sink(name) {
        Some(s) => Ok(s),
        None => {
            let names: Vec<&str> = policy.sinks().iter().map(|s| s.name.as_str()).collect();
            let hint = crate::policy::schema::did_you_mean(name, &names)
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            if names.is_empty() {
                esayln!(
                    "tracegate: unknown sink `{name}`: policy `{}` defines no [[sink]]",
                    policy.source().display()
                );
            } else {
                esayln!(
                    "tracegate: unknown sink `{name}`{hint}; the policy's sinks are: {}",
                    names.join(", ")
                );
            }
            Err(exit::ERROR)
        }
    }
}

/// Run `filter`; returns the exit code.
pub fn run(args: &FilterArgs) -> u8 {
    init_notices();
    let Some(policy) = super::load_policy_for_capture(&args.policy).map(Arc::new) else {
        return exit::ERROR;
    };
    let full_allowed = match resolve_sink(&policy, &args.sink) {
        Ok(s) => s.full_allowed,
        Err(code) => return code,
    };
    if !full_allowed {
        // A sink off the full allowlist has no window and no budget: every
        // record is judged at standard level on its own, so on every core.
        let forced = args.input.input_format.forced();
        return stream_ordered(
            &policy,
            &args.input,
            super::par::jobs(args.jobs),
            || {
                let mut gate = Gate::for_sink(Arc::clone(&policy), &args.sink);
                gate.force_format(forced);
                ChunkGate {
                    gate,
                    level: FixedLevel(Level::Standard),
                }
            },
            &format!("filter `{}`", args.sink),
            args.quiet,
        );
    }
    let mut capture = Capture::start_with(
        Arc::clone(&policy),
        Arc::new(SystemClock::new()),
        &args.sink,
        crate::daemon::capture_extensions(),
    );
    let mut gate = Gate::for_sink(Arc::clone(&policy), &args.sink);
    gate.force_format(args.input.input_format.forced());
    let name = format!("filter `{}`", args.sink);
    let sealed = policy
        .sink(&args.sink)
        .is_some_and(|s| !s.seal_to.is_empty());
    if sealed {
        capture.enable_sealing();
        // Ends the capture itself: its open segment closes through the
        // sealing writer.
        return stream_sealed(&mut gate, &mut capture, &args.input, &name, args.quiet);
    }
    let code = stream(&mut gate, &mut capture, &args.input, &name, args.quiet);
    capture.finish();
    code
}

/// Stdout, as `filter` writes to it.
type Out<'a> = Lines<BufWriter<io::StdoutLock<'a>>>;

/// Read the inputs (lines up to `max_line` bytes), hand each line to `each`
/// with stdout and the tally, then flush and print the summary to stderr;
/// returns the exit code.
fn for_each_record(
    max_line: usize,
    input: &InputArgs,
    name: &str,
    quiet: bool,
    mut each: impl FnMut(&mut Out<'_>, &mut FilterTally, u64, &Line<'_>) -> io::Result<()>,
) -> u8 {
    let stdout = io::stdout();
    let mut out = Lines(BufWriter::with_capacity(256 * 1024, stdout.lock()));
    let mut tally = FilterTally::default();
    let Some(inputs) = super::reported(Inputs::new(input)) else {
        return exit::ERROR;
    };
    let result = inputs.for_each_line(max_line, |_, n, line| {
        tally.records += 1;
        each(&mut out, &mut tally, n, line)
    });
    let result = result.and_then(|ok| out.0.flush().map(|()| ok));
    finish(result, &tally, name, quiet)
}

/// [`stream`] for a sealed sink (`seal_to`): each record that goes out at
/// full level goes out sealed ([`Capture::seal`]), in a segment the audit
/// log vouches for; one that cannot be sealed goes out at standard level.
/// Every line goes through one sealing writer ([`Pipe`]): records are
/// sealed and written on its thread, in input order, while this one judges
/// the next. Ends the capture (its open segment closes through the
/// writer, which holds its digest) before the writer stops.
fn stream_sealed(
    gate: &mut Gate,
    capture: &mut Capture,
    input: &InputArgs,
    name: &str,
    quiet: bool,
) -> u8 {
    let pipe = Pipe::spawn(Box::new(io::stdout())).context("cannot start the sealing writer");
    let Some(pipe) = super::reported(pipe) else {
        capture.finish();
        return exit::ERROR;
    };
    let tx = pipe.tx();
    capture.seal_through(tx.clone());
    let max_line = gate.policy().limits().max_line_bytes;
    let mut warned = false;
    let mut tally = FilterTally::default();
    let Some(inputs) = super::reported(Inputs::new(input)) else {
        capture.finish();
        let _ = pipe.finish();
        return exit::ERROR;
    };
    let result = inputs.for_each_line(max_line, |_, n, line| {
        tally.records += 1;
        let mut out = &tx;
        let d = gate_one(gate, capture, n, line, &mut tally);
        if !d.is_full() {
            crate::sink::send(&mut out, gate, line, &d)?;
            return Ok(());
        }
        let bytes = match (d.written, line) {
            (Some(Written::Line), Line::Text(b)) => *b,
            (Some(Written::Rebuilt), _) => gate.output(),
            _ => &[],
        };
        match capture.seal(bytes, &mut |_| false) {
            Ok(_) => return Ok(()),
            Err(_) if tx.failed() => return Err(io::Error::other("the sealing writer stopped")),
            Err(e) => {
                // Said once per run; the error's text is fixed (no
                // record value).
                if !warned {
                    warned = true;
                    tracing::warn!(error = %e, "a record could not be sealed: it, and any other that cannot be, goes out at standard level");
                }
            }
        }
        // SECURITY: content that cannot be sealed never goes out: the
        // record goes out at standard level.
        tally.full = tally.full.saturating_sub(1);
        let d = judge_for_sink(gate, None, n, line);
        crate::sink::send(&mut out, gate, line, &d)?;
        Ok(())
    });
    capture.finish();
    drop(tx);
    let written = pipe.finish();
    // The writer's own error first: a closed stdout (`| head`) ends the
    // run quietly, as it does without sealing.
    finish(written.and(result), &tally, name, quiet)
}

/// Read the inputs, judge each record, write what may go out to stdout and
/// the summary to stderr; returns the exit code.
pub fn stream(
    gate: &mut Gate,
    levels: &mut dyn LevelSource,
    input: &InputArgs,
    name: &str,
    quiet: bool,
) -> u8 {
    let max_line = gate.policy().limits().max_line_bytes;
    for_each_record(max_line, input, name, quiet, |out, tally, n, line| {
        let d = gate_one(gate, levels, n, line, tally);
        crate::sink::send(out, gate, line, &d)?;
        Ok(())
    })
}

/// The end of a `filter` or `redact` run: `result` says whether every
/// input was read (or why writing stopped); the summary on stderr unless
/// `quiet`. Returns the exit code.
fn finish(result: io::Result<bool>, tally: &FilterTally, name: &str, quiet: bool) -> u8 {
    let all_read = match result {
        Ok(ok) => ok,
        // docs/reference.md: a closed stdout ends the run quietly.
        Err(e) if is_broken_pipe(&e) => return exit::OK,
        Err(e) => {
            super::report_error(&anyhow::Error::new(e).context("cannot write to stdout"));
            return exit::ERROR;
        }
    };
    if !quiet {
        esayln!("{}", tally.summary(name));
    }
    if all_read { exit::OK } else { exit::ERROR }
}

/// A level that never changes: `redact` judges every record at full level,
/// `filter` for a sink that is never full at standard level.
pub(super) struct FixedLevel(pub(super) Level);

impl LevelSource for FixedLevel {
    fn level(&mut self) -> Level {
        self.0
    }
    fn spend(&mut self, _bytes: usize) -> bool {
        true
    }
}

/// One worker of [`stream_ordered`]: its own gate, a fixed level.
pub(super) struct ChunkGate {
    pub(super) gate: Gate,
    pub(super) level: FixedLevel,
}

/// What a worker made of one chunk: the bytes to write and the counts.
pub(super) struct Judged {
    out: Vec<u8>,
    tally: FilterTally,
}

impl ChunkJudge for ChunkGate {
    type Done = Judged;

    fn judge(&mut self, chunk: &Chunk) -> io::Result<Judged> {
        let mut tally = FilterTally::default();
        let mut out = Lines(Vec::with_capacity(super::par::CHUNK_BYTES + 4096));
        for (n, line) in chunk.lines() {
            tally.records += 1;
            let d = gate_one(&mut self.gate, &mut self.level, n, &line, &mut tally);
            crate::sink::send(&mut out, &self.gate, &line, &d)?;
        }
        Ok(Judged { out: out.0, tally })
    }
}

/// Judge the inputs on `jobs` workers made by `make` (records independent
/// of each other: no window, no budget) and write what goes out to stdout
/// in input order, byte for byte what one worker writes; the summary on
/// stderr as `name`. Returns the exit code.
pub(super) fn stream_ordered(
    policy: &Policy,
    input: &InputArgs,
    jobs: usize,
    make: impl Fn() -> ChunkGate + Sync,
    name: &str,
    quiet: bool,
) -> u8 {
    let Some(inputs) = super::reported(Inputs::new(input)).map(Arc::new) else {
        return exit::ERROR;
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(256 * 1024, stdout.lock());
    let mut tally = FilterTally::default();
    let result = run_ordered(
        &inputs,
        policy.limits().max_line_bytes,
        jobs,
        make,
        |done: Judged| {
            tally.add(&done.tally);
            out.write_all(&done.out)
        },
    )
    .and_then(|all_read| out.flush().map(|()| all_read));
    finish(result, &tally, name, quiet)
}

/// Judge one line for the sink (the shared decision of
/// [`judge_for_sink`]) and count the outcome.
pub(super) fn gate_one(
    gate: &mut Gate,
    capture: &mut dyn LevelSource,
    n: u64,
    line: &Line<'_>,
    tally: &mut FilterTally,
) -> Delivery {
    let d = judge_for_sink(gate, Some(capture), n, line);
    for f in gate.findings() {
        *tally.rules.entry(f.rule.as_str()).or_default() += 1;
    }
    match d.judged.verdict {
        Verdict::Malformed => tally.malformed += 1,
        Verdict::Dropped => tally.dropped += 1,
        _ => {
            tally.passed += 1;
            if d.is_full() {
                tally.full += 1;
            }
            if d.judged.stripped > 0 {
                tally.stripped += 1;
            }
        }
    }
    d
}

/// The library's warnings (full capture staying off, a budget store that
/// does not answer) as plain lines on stderr: `filter`'s stdout is the
/// record stream.
fn init_notices() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_level(false)
        .with_ansi(false)
        .try_init();
}
