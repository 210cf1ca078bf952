//! `tracegate check`: verify stored records and report findings.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use jiff::Timestamp;

use super::check_par;
use super::input::{Inputs, is_broken_pipe};
use super::output::{ColorWhen, JsonSummary, Paint, write_json};
use super::{InputArgs, OutputFormat, exit, load_policy};
use crate::evidence::{DEFAULT_HORIZON, SummaryMode};
use crate::window::Level;

/// `check` options.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The policy: a TOML file or a folder of them.
    #[arg(long, value_name = "PATH")]
    pub policy: PathBuf,
    /// Check a capture for this sink: every record with content must lie
    /// inside one of the sink's windows (by its own start and end times).
    #[arg(long, value_name = "SINK")]
    pub sink: Option<String>,
    /// Findings as text lines or JSON objects (one per line, each with a
    /// `type`: `finding`, then one closing `summary` with the totals).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// Print nothing (errors aside) and stop at the first finding; the
    /// exit code is the answer (0 clean, 1 a finding, 2 an error).
    #[arg(short, long)]
    pub quiet: bool,
    /// Colour text findings: on a terminal unless NO_COLOR is set (auto),
    /// always, or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Run only the latency-evidence auditor checks.
    #[arg(long)]
    pub evidence_only: bool,
    /// Print the latency-evidence summary table (per route and model):
    /// median and p99 from a quantile sketch (1% relative error).
    #[arg(long)]
    pub summary: bool,
    /// With --summary: exact quantiles, keeping every value (memory grows
    /// with the input; for small inputs).
    #[arg(long, requires = "summary")]
    pub exact: bool,
    /// Worker threads (0: one per core). Findings come out in input order
    /// whatever the number.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// Records of one request are checked together (attempts_not_sequential)
    /// while each follows the previous one by at most this many evidence
    /// records; memory is about 72 bytes per record of horizon.
    #[arg(long, value_name = "RECORDS", default_value_t = DEFAULT_HORIZON as u64,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub attempt_horizon: u64,
    /// With --sink: accept only windows whose enablement this audit log
    /// records, from that enablement (never before it) to the window's
    /// first close of any cause. The log is verified first; only entries
    /// its checkpoint (and anchor) vouch for can enable anything.
    #[arg(long, value_name = "FILE", requires = "sink")]
    pub audit: Option<PathBuf>,
    /// Key file of a keyed audit log.
    #[arg(long, value_name = "FILE", requires = "audit")]
    pub audit_key_file: Option<PathBuf>,
    /// The audit log's anchor (`[audit] anchor`): the log must not be
    /// behind it.
    #[arg(long, value_name = "FILE", requires = "audit")]
    pub audit_anchor: Option<PathBuf>,
    /// Public key trusted to sign the audit log's checkpoints (as
    /// `audit verify --public-key`): a log not signed by it (or by the
    /// keys it was rotated to) cannot be trusted. Repeatable.
    #[arg(long = "public-key", value_name = "PUB", requires = "audit")]
    pub public_keys: Vec<PathBuf>,
    /// Input options.
    #[command(flatten)]
    pub input: InputArgs,
}

/// Run `check`; returns the exit code.
pub fn run(args: &CheckArgs) -> u8 {
    let Some(policy) = load_policy(&args.policy).map(Arc::new) else {
        return exit::ERROR;
    };
    let window_check = match &args.sink {
        None => None,
        Some(name) => match super::filter::resolve_sink(&policy, name) {
            Ok(s) => Some(s.full_allowed),
            Err(code) => return code,
        },
    };
    let sink_name = args.sink.clone().unwrap_or_default();
    let Some(windows) = super::reported(allowed_windows(&policy, &sink_name, args)) else {
        return exit::ERROR;
    };
    let Some(inputs) = super::reported(Inputs::new(&args.input)).map(Arc::new) else {
        return exit::ERROR;
    };
    let stdout = io::stdout();
    let out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let level = if window_check == Some(true) {
        Level::Full
    } else {
        Level::Standard
    };
    let settings = check_par::Settings {
        policy: Arc::clone(&policy),
        forced: args.input.input_format.forced(),
        level,
        window_check,
        sink_name: &sink_name,
        windows: &windows,
        audited: args.audit.is_some(),
        evidence_only: args.evidence_only,
        summary: (args.summary && !args.quiet).then_some(if args.exact {
            SummaryMode::Exact
        } else {
            SummaryMode::Sketch
        }),
        format: args.format,
        paint: Paint::new(args.format == OutputFormat::Text && args.color.for_stdout()),
        quiet: args.quiet,
        horizon: usize::try_from(args.attempt_horizon).unwrap_or(usize::MAX),
        jobs: super::par::jobs(args.jobs),
    };
    let outcome = check_par::run(&settings, &inputs, policy.limits().max_line_bytes, out);
    let (tally, counts) = (outcome.tally, outcome.counts);
    // SECURITY: a run cut short (a closed stdout, `-q`'s early stop) keeps
    // the findings it saw: "findings" never turns into "clean" because the
    // reader of the report went away.
    let code = if args.quiet && tally.findings() > 0 {
        exit::FINDINGS
    } else if counts.failed > 0 {
        exit::ERROR
    } else if tally.findings() > 0 {
        exit::FINDINGS
    } else {
        exit::OK
    };
    // A closed stdout, or `-q`'s early stop, ends the run with its code.
    let failed = |e: io::Error| {
        if is_broken_pipe(&e) || check_par::is_stopped(&e) {
            return code;
        }
        super::report_error(&anyhow::Error::new(e).context("cannot write findings"));
        exit::ERROR
    };
    if let Some(e) = outcome.error {
        return failed(e);
    }
    if args.quiet {
        return code;
    }
    let closing = (|| -> io::Result<()> {
        let stdout = io::stdout();
        let mut w = BufWriter::new(stdout.lock());
        if let Some(summary) = &outcome.summary {
            match args.format {
                OutputFormat::Text => summary.render_text(&mut w)?,
                OutputFormat::Json => summary.render_json(&mut w)?,
            }
        }
        if args.format == OutputFormat::Json {
            write_json(
                &mut w,
                &JsonSummary {
                    kind: "summary",
                    records: tally.records,
                    findings: tally.findings(),
                    violations: tally.violations,
                    malformed: tally.malformed,
                    evidence: tally.evidence,
                    files: counts.files,
                    unread: counts.failed,
                    skipped: counts.skipped,
                },
            )?;
        }
        w.flush()
    })();
    if let Err(e) = closing {
        return failed(e);
    }
    let mut line = format!(
        "{}, {}, {} malformed",
        crate::io_text::counted(tally.records, "record", "records"),
        crate::io_text::counted(tally.violations, "violation", "violations"),
        tally.malformed
    );
    if tally.evidence > 0 {
        line.push_str(&format!(
            ", {}",
            crate::io_text::counted(tally.evidence, "evidence finding", "evidence findings")
        ));
    }
    if counts.files > 1 {
        line.push_str(&format!(", in {} files", counts.files));
    }
    if counts.skipped > 0 {
        let skipped = crate::io_text::counted(counts.skipped, "other file", "other files");
        line.push_str(&format!(" ({skipped} in the folders skipped)"));
    }
    esayln!("{line}");
    code
}

/// The windows a capture for `sink` may lie in: the policy's, or with
/// `--audit` the spans the audit log shows them in use (see
/// [`audited_windows`]).
fn allowed_windows(
    policy: &crate::policy::Policy,
    sink: &str,
    args: &CheckArgs,
) -> anyhow::Result<Vec<(Timestamp, Timestamp)>> {
    let Some(log) = &args.audit else {
        return Ok(policy
            .windows()
            .iter()
            .filter(|w| w.sink == sink)
            .map(|w| (w.start, w.end))
            .collect());
    };
    let key = crate::audit::AuditKey::load_if(args.audit_key_file.as_deref())?;
    let check = super::audit_verify::signed_check(&args.public_keys, None)?;
    audited_windows(
        log,
        key.as_ref(),
        args.audit_anchor.as_deref(),
        &check,
        sink,
    )
}

/// The spans in which the audit log at `log` shows a window of `sink` in
/// use: from each `window_enabled` entry (at its `ts` less
/// [`crate::window::CLOCK_SKEW`], or the window's start if later) to the
/// window's first `window_closed` after it, of any cause (at its `ts` plus
/// the same skew, or the window's end if earlier); an enablement after the
/// window's first permanent close opens nothing. The skew allowance is
/// there because a record is placed by its producer's clock, not the
/// gate's, and always starts before the gate handles it: the first record
/// of a window is what enables it.
///
/// SECURITY: the log is verified (with its anchor when given) before it is
/// read, and a tampered log is an error. Only entries up to the seq the
/// checkpoint vouches for can enable a window; a close anywhere in the
/// intact chain ends one (a close only takes rights away). A window never
/// covers time before its enablement, so a back-dated `start` cannot
/// vouch for records captured before the gate enabled it.
fn audited_windows(
    log: &std::path::Path,
    key: Option<&crate::audit::AuditKey>,
    anchor: Option<&std::path::Path>,
    signed: &crate::audit::SignedCheck,
    sink: &str,
) -> anyhow::Result<Vec<(Timestamp, Timestamp)>> {
    use crate::audit::{AuditEvent, VerifyStatus};
    use anyhow::Context;
    let report = crate::audit::verify_signed(log, key, anchor, signed)
        .with_context(|| format!("cannot read audit log `{}`", log.display()))?;
    if let VerifyStatus::Tampered { .. } = report.status {
        anyhow::bail!(
            "audit log `{}` cannot be trusted: {}",
            log.display(),
            report.message()
        );
    }
    let vouched = report.vouched_seq();
    let mut spans: Vec<(Timestamp, Timestamp)> = Vec::new();
    // Window id -> the spans it opened that no close has ended yet.
    let mut open: std::collections::HashMap<String, Vec<usize>> = Default::default();
    // Windows closed for good (`expired`, `budget_spent`, `removed`): an
    // enablement after that vouches for nothing (a writer refuses it; one
    // in the log was written by a clock set back or a broken writer).
    let mut closed_for_good: std::collections::HashSet<String> = Default::default();
    let entries = crate::audit::read_entries(log, key)
        .with_context(|| format!("cannot read audit log `{}`", log.display()))?;
    let mut next_seq = 0u64;
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            // Past what the checkpoint vouches for (a torn tail), a read
            // error only ends the reading.
            Err(_) if vouched.is_none_or(|v| next_seq > v) => break,
            Err(e) => {
                return Err(anyhow::Error::new(e)
                    .context(format!("audit log `{}` cannot be trusted", log.display())));
            }
        };
        next_seq = entry.seq + 1;
        let is_vouched = vouched.is_some_and(|v| entry.seq <= v);
        match entry.event {
            AuditEvent::WindowEnabled {
                window,
                sink: s,
                start,
                end,
                ..
            } if s == sink && is_vouched && !closed_for_good.contains(&window) => {
                let enabled = entry
                    .ts
                    .checked_sub(crate::window::CLOCK_SKEW)
                    .unwrap_or(entry.ts);
                let from = start.max(enabled);
                if from < end {
                    open.entry(window).or_default().push(spans.len());
                    spans.push((from, end));
                }
            }
            AuditEvent::WindowClosed { window, cause, .. } => {
                if cause.is_permanent() {
                    closed_for_good.insert(window.clone());
                }
                let closed = entry
                    .ts
                    .checked_add(crate::window::CLOCK_SKEW)
                    .unwrap_or(entry.ts);
                for i in open.remove(&window).unwrap_or_default() {
                    if let Some(span) = spans.get_mut(i) {
                        span.1 = span.1.min(closed);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(spans)
}
