//! `tracegate redact`: apply the policy's redaction rules to the content of
//! stored full records (clean an existing capture file).
//!
//! Records are independent here (no window, no budget: every record is
//! judged at full level), so the inputs are redacted on every core through
//! `cli::par`, the output in input order, byte for byte that of
//! `--jobs 1`.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::filter::{FilterTally, gate_one, resolve_sink};
use super::input::{Inputs, is_broken_pipe};
use super::par::{Chunk, ChunkJudge, run_ordered};
use super::{InputArgs, exit, load_policy};
use crate::decision::LevelSource;
use crate::gate::Gate;
use crate::policy::redaction::SinkRedaction;
use crate::sink::Lines;
use crate::window::Level;

/// `redact` options.
#[derive(Debug, Args)]
pub struct RedactArgs {
    /// The policy: a TOML file or a folder of them.
    #[arg(long, value_name = "PATH")]
    pub policy: PathBuf,
    /// Apply this sink's redaction (its `redact = [...]` subset) instead of
    /// the policy's `[redact]` rules.
    #[arg(long, value_name = "SINK")]
    pub sink: Option<String>,
    /// Worker threads (0: one per core). Records come out in input order
    /// whatever the number.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// No summary on stderr (errors and warnings are still reported).
    #[arg(short, long)]
    pub quiet: bool,
    /// Input options.
    #[command(flatten)]
    pub input: InputArgs,
}

/// Every record is judged at full level: no window applies, since this
/// rewrites records that were already captured.
struct AlwaysFull;

impl LevelSource for AlwaysFull {
    fn level(&mut self) -> Level {
        Level::Full
    }
    fn spend(&mut self, _bytes: usize) -> bool {
        true
    }
}

/// A worker: its own gate with the redaction.
struct Redactor {
    gate: Gate,
}

/// A redacted chunk: the bytes to write and the counts.
struct Redacted {
    out: Vec<u8>,
    tally: FilterTally,
}

impl ChunkJudge for Redactor {
    type Done = Redacted;
    fn judge(&mut self, chunk: &Chunk) -> io::Result<Redacted> {
        let mut done = Redacted {
            out: Vec::new(),
            tally: FilterTally::default(),
        };
        let mut out = Lines(Vec::with_capacity(super::par::CHUNK_BYTES + 4096));
        for (n, line) in chunk.lines() {
            done.tally.records += 1;
            let d = gate_one(&mut self.gate, &mut AlwaysFull, n, &line, &mut done.tally);
            crate::sink::send(&mut out, &self.gate, &line, &d)?;
        }
        done.out = out.0;
        Ok(done)
    }
}

/// Run `redact`; returns the exit code.
pub fn run(args: &RedactArgs) -> u8 {
    let Some(policy) = load_policy(&args.policy) else {
        return exit::ERROR;
    };
    let policy = Arc::new(policy);
    let redaction = match &args.sink {
        Some(name) => {
            match resolve_sink(&policy, name) {
                Err(code) => return code,
                // SECURITY: `redact` prints content; only a sink that may
                // ever receive content may be named.
                Ok(s) if !s.full_allowed => {
                    eprintln!(
                        "tracegate: sink `{name}` is not full_allowed: it never receives content, so there is no redaction of it to apply; leave out --sink to use the policy's [redact] rules"
                    );
                    return exit::ERROR;
                }
                Ok(_) => {}
            }
            policy.redaction().sink(name)
        }
        None => policy.redaction().policy_rules(),
    };
    if redaction.redactor.is_none() {
        eprintln!(
            "tracegate: warning: policy `{}` defines no redaction rules{}; content passes unchanged",
            args.policy.display(),
            args.sink
                .as_deref()
                .map(|s| format!(" for sink `{s}`"))
                .unwrap_or_default()
        );
    }
    let inputs = match Inputs::new(&args.input) {
        Ok(i) => Arc::new(i),
        Err(e) => {
            super::report_error(&e);
            return exit::ERROR;
        }
    };
    let forced = args.input.input_format.forced();
    let make = |redaction: &SinkRedaction| {
        let mut gate = Gate::with_redaction(Arc::clone(&policy), redaction.clone());
        gate.force_format(forced);
        Redactor { gate }
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(256 * 1024, stdout.lock());
    let mut tally = FilterTally::default();
    let result = run_ordered(
        &inputs,
        policy.limits.max_line_bytes,
        super::par::jobs(args.jobs),
        || make(&redaction),
        |done: Redacted| {
            tally.add(&done.tally);
            out.write_all(&done.out)
        },
    )
    .and_then(|all_read| out.flush().map(|()| all_read));
    let all_read = match result {
        Ok(ok) => ok,
        // Like `filter`: a closed stdout ends the run quietly.
        Err(e) if is_broken_pipe(&e) => return exit::OK,
        Err(e) => {
            super::report_error(&anyhow::Error::new(e).context("cannot write to stdout"));
            return exit::ERROR;
        }
    };
    if !args.quiet {
        eprintln!("{}", tally.summary("redact"));
    }
    if all_read { exit::OK } else { exit::ERROR }
}
