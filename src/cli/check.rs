//! `tracegate check`: verify stored records and report findings.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use jiff::Timestamp;
use serde::Serialize;

use super::input::{Inputs, is_broken_pipe};
use super::{InputArgs, OutputFormat, exit, load_policy};
use crate::evidence::{self, AttemptTracker, Summary};
use crate::finding::{Finding, FindingKind};
use crate::gate::{Gate, Level, Verdict};
use crate::record::Format;
use crate::source::lines::Line;

/// Most distinct requests the attempt check tracks per file.
const MAX_TRACKED_REQUESTS: usize = 1_000_000;

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
    /// Print the latency-evidence summary table (per route and model).
    #[arg(long)]
    pub summary: bool,
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
#[derive(Default)]
struct Tally {
    records: u64,
    violations: u64,
    malformed: u64,
    evidence: u64,
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
    let mut gate = Gate::for_check(Arc::clone(&policy));
    gate.force_format(args.input.input_format.forced());
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut tally = Tally::default();
    let mut summary = Summary::new();
    let mut ev_findings = Vec::new();
    let mut extra: Vec<Finding> = Vec::new();
    let mut tracker: Option<(String, AttemptTracker)> = None;
    let inputs = Inputs::new(&args.input.files);
    let level = if window_check == Some(true) {
        Level::Full
    } else {
        Level::Standard
    };
    let result = inputs.for_each_line(policy.limits.max_line_bytes, |file, n, line| {
        // A new input starts a new attempt tracker. Names are compared by
        // length first: a byte compare per record showed in profiles.
        if tracker
            .as_ref()
            .is_none_or(|(f, _)| f.len() != file.len() || f != file)
        {
            if let Some((f, t)) = tracker.take() {
                flush_attempts(&mut out, &f, t, args.format, &mut tally)?;
            }
            tracker = Some((file.to_string(), AttemptTracker::new(MAX_TRACKED_REQUESTS)));
        }
        tally.records += 1;
        let judged = gate.judge(n, line, level, false);
        extra.clear();
        if judged.verdict != Verdict::Malformed
            && judged.format == Some(Format::Evidence)
            && let (Line::Text(bytes), Some((_, t))) = (line, tracker.as_mut())
        {
            {
                let text = std::str::from_utf8(bytes).unwrap_or("");
                ev_findings.clear();
                match evidence::audit(text, &mut ev_findings) {
                    Ok(facts) => {
                        t.observe_facts(&facts, n);
                        // Only records that met the allowlist (so their ids
                        // are identifiers, not text) reach the summary table.
                        if args.summary && judged.verdict == Verdict::Verbatim {
                            summary.add(&facts);
                        }
                    }
                    Err(shape) => extra.push(Finding {
                        line: n,
                        kind: FindingKind::Evidence,
                        rule: "evidence_shape",
                        field: Some(shape.path.clone()).filter(|p| !p.is_empty()),
                        message: shape.message.to_string(),
                    }),
                }
                extra.extend(ev_findings.drain(..).map(|f| Finding {
                    line: n,
                    kind: FindingKind::Evidence,
                    rule: f.rule,
                    field: Some(f.path),
                    message: f.message,
                }));
            }
        }
        if window_check.is_some() && judged.has_content && judged.verdict != Verdict::Malformed {
            extra.extend(outside_window(
                n,
                &sink_name,
                window_check == Some(true),
                line,
                &windows,
                args.audit.is_some(),
            ));
        }
        let privacy = gate.findings().iter().filter(|_| !args.evidence_only);
        for f in privacy.chain(
            extra
                .iter()
                .filter(|f| !args.evidence_only || f.kind == FindingKind::Evidence),
        ) {
            match f.kind {
                FindingKind::Violation => tally.violations += 1,
                FindingKind::Malformed => tally.malformed += 1,
                FindingKind::Evidence => tally.evidence += 1,
            }
            write_finding(&mut out, file, f, args.format)?;
        }
        Ok(())
    });
    let result = result.and_then(|ok| {
        if let Some((f, t)) = tracker.take() {
            flush_attempts(&mut out, &f, t, args.format, &mut tally)?;
        }
        if args.summary {
            match args.format {
                OutputFormat::Text => summary.render_text(&mut out)?,
                OutputFormat::Json => summary.render_json(&mut out)?,
            }
        }
        out.flush()?;
        Ok(ok)
    });
    let all_read = match result {
        Ok(ok) => ok,
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

fn flush_attempts(
    out: &mut impl Write,
    file: &str,
    tracker: AttemptTracker,
    format: OutputFormat,
    tally: &mut Tally,
) -> io::Result<()> {
    for a in tracker.finish() {
        tally.evidence += 1;
        let f = Finding {
            line: a.line,
            kind: FindingKind::Evidence,
            rule: a.finding.rule,
            field: Some(a.finding.path),
            message: a.finding.message,
        };
        write_finding(out, file, &f, format)?;
    }
    Ok(())
}

/// A finding `outside_window` unless the record lies in a window of the sink.
fn outside_window(
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
            .windows()
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

fn write_finding(
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
