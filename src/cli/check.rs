//! `tracegate check`: verify stored records and report findings.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use jiff::Timestamp;
use serde::Serialize;

use super::check_par;
use super::input::is_broken_pipe;
use super::{InputArgs, OutputFormat, exit, load_policy};
use crate::evidence::{DEFAULT_HORIZON, SummaryMode};
use crate::finding::{Finding, FindingKind};
use crate::gate::Level;
use crate::source::lines::Line;

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
    /// Findings as text lines or JSON objects (one per line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
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
    /// records (its chain is verified while reading).
    #[arg(long, value_name = "FILE", requires = "sink")]
    pub audit: Option<PathBuf>,
    /// Key file of a keyed audit log.
    #[arg(long, value_name = "FILE", requires = "audit")]
    pub audit_key_file: Option<PathBuf>,
    /// Input options.
    #[command(flatten)]
    pub input: InputArgs,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
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
        }
    }

    /// Add another tally.
    pub fn add(&mut self, o: &Tally) {
        self.records += o.records;
        self.violations += o.violations;
        self.malformed += o.malformed;
        self.evidence += o.evidence;
    }
}

/// Run `check`; returns the exit code.
pub fn run(args: &CheckArgs) -> u8 {
    let Some(policy) = load_policy(&args.policy) else {
        return exit::ERROR;
    };
    let policy = Arc::new(policy);
    let window_check = match &args.sink {
        None => None,
        Some(name) => match super::filter::resolve_sink(&policy, name) {
            Ok(s) => Some(s.full_allowed),
            Err(code) => return code,
        },
    };
    let sink_name = args.sink.clone().unwrap_or_default();
    let windows = match allowed_windows(&policy, &sink_name, args) {
        Ok(w) => w,
        Err(e) => {
            super::report_error(&e);
            return exit::ERROR;
        }
    };
    let stdout = io::stdout();
    let out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let level = if window_check == Some(true) {
        Level::Full
    } else {
        Level::Standard
    };
    let jobs = match args.jobs {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
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
        summary: args.summary.then_some(if args.exact {
            SummaryMode::Exact
        } else {
            SummaryMode::Sketch
        }),
        format: args.format,
        horizon: usize::try_from(args.attempt_horizon).unwrap_or(usize::MAX),
        jobs,
    };
    let result = check_par::run(&settings, &args.input, policy.limits.max_line_bytes, out)
        .and_then(|outcome| {
            if let Some(summary) = &outcome.summary {
                let stdout = io::stdout();
                let mut w = BufWriter::new(stdout.lock());
                match args.format {
                    OutputFormat::Text => summary.render_text(&mut w)?,
                    OutputFormat::Json => summary.render_json(&mut w)?,
                }
                w.flush()?;
            }
            Ok(outcome)
        });
    let (all_read, tally) = match result {
        Ok(o) => (o.all_read, o.tally),
        Err(e) if is_broken_pipe(&e) => return exit::OK,
        Err(e) => {
            super::report_error(&anyhow::Error::new(e).context("cannot write findings"));
            return exit::ERROR;
        }
    };
    let mut line = format!(
        "{} records, {} violations, {} malformed",
        tally.records, tally.violations, tally.malformed
    );
    if tally.evidence > 0 {
        line.push_str(&format!(", {} evidence findings", tally.evidence));
    }
    eprintln!("{line}");
    if !all_read {
        exit::ERROR
    } else if tally.violations + tally.malformed + tally.evidence > 0 {
        exit::FINDINGS
    } else {
        exit::OK
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
            rule: "outside_window",
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

/// The windows a capture for `sink` may lie in: the policy's, or with
/// `--audit` those whose `window_enabled` entry the (verified) log holds.
fn allowed_windows(
    policy: &crate::policy::Policy,
    sink: &str,
    args: &CheckArgs,
) -> anyhow::Result<Vec<(Timestamp, Timestamp)>> {
    use anyhow::Context;
    let Some(log) = &args.audit else {
        return Ok(policy
            .windows
            .iter()
            .filter(|w| w.sink == sink)
            .map(|w| (w.start, w.end))
            .collect());
    };
    let key = args
        .audit_key_file
        .as_deref()
        .map(crate::audit::AuditKey::load)
        .transpose()?;
    let mut out = Vec::new();
    let entries = crate::audit::read_entries(log, key.as_ref())
        .with_context(|| format!("cannot read audit log `{}`", log.display()))?;
    for entry in entries {
        let entry =
            entry.with_context(|| format!("audit log `{}` cannot be trusted", log.display()))?;
        if let crate::audit::AuditEvent::WindowEnabled {
            sink: s,
            start,
            end,
            ..
        } = entry.event
            && s == sink
        {
            out.push((start, end));
        }
    }
    Ok(out)
}

pub(super) fn write_finding(
    out: &mut impl Write,
    file: &str,
    f: &Finding,
    format: OutputFormat,
) -> io::Result<()> {
    match format {
        OutputFormat::Text => match &f.field {
            Some(field) => writeln!(out, "{file}:{}: {}: {field}: {}", f.line, f.rule, f.message),
            None => writeln!(out, "{file}:{}: {}: {}", f.line, f.rule, f.message),
        },
        OutputFormat::Json => {
            let j = JsonFinding {
                file,
                line: f.line,
                kind: f.kind.as_str(),
                rule: f.rule,
                field: f.field.as_deref(),
                message: &f.message,
            };
            serde_json::to_writer(&mut *out, &j).map_err(io::Error::other)?;
            out.write_all(b"\n")
        }
    }
}
