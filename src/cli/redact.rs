//! `tracegate redact`: apply the policy's redaction rules to the content of
//! stored full records (clean an existing capture file).
//!
//! Records are independent here (no window, no budget: every record is
//! judged at full level), so the inputs are redacted on every core through
//! `cli::par`, the output in input order, byte for byte that of
//! `--jobs 1`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::filter::{ChunkGate, FixedLevel, resolve_sink, stream_ordered};
use super::{InputArgs, exit, load_policy};
use crate::gate::Gate;
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
    /// Why captured content is read: appends a `capture_read` entry (this
    /// reason, `--by`, and each file by path and SHA-256) to the audit log
    /// before any file is read; if it cannot be appended, nothing is read.
    /// The inputs must then be files (not folders or stdin).
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// Who reads (with `--reason`); default: `$USER`.
    #[arg(long, value_name = "NAME", requires = "reason")]
    pub by: Option<String>,
    /// The audit log for `--reason` (default: the policy's `[audit] path`;
    /// the policy's key, anchor and signing key apply either way).
    #[arg(long, value_name = "LOG", requires = "reason")]
    pub audit: Option<PathBuf>,
    /// Input options.
    #[command(flatten)]
    pub input: InputArgs,
}

/// Run `redact`; returns the exit code.
pub fn run(args: &RedactArgs) -> u8 {
    let Some(policy) = load_policy(&args.policy).map(Arc::new) else {
        return exit::ERROR;
    };
    let redaction = match &args.sink {
        Some(name) => {
            match resolve_sink(&policy, name) {
                Err(code) => return code,
                // SECURITY: `redact` prints content; only a sink that may
                // ever receive content may be named.
                Ok(s) if !s.full_allowed => {
                    esayln!(
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
        esayln!(
            "tracegate: warning: policy `{}` defines no redaction rules{}; content passes unchanged",
            args.policy.display(),
            args.sink
                .as_deref()
                .map(|s| format!(" for sink `{s}`"))
                .unwrap_or_default()
        );
    }
    if let Some(reason) = &args.reason
        && let Err(e) = audit_read(&policy, args, reason)
    {
        super::report_error(
            &e.context("nothing read: the read of captured content cannot be audited"),
        );
        return exit::ERROR;
    }
    let forced = args.input.input_format.forced();
    // Every record is judged at full level: no window applies, since this
    // rewrites records that were already captured.
    stream_ordered(
        &policy,
        &args.input,
        super::par::jobs(args.jobs),
        || {
            let mut gate = Gate::with_redaction(Arc::clone(&policy), redaction.clone());
            gate.force_format(forced);
            ChunkGate {
                gate,
                level: FixedLevel(Level::Full),
            }
        },
        "redact",
        args.quiet,
    )
}

/// SECURITY: append `capture_read` (reason, reader, each file's path and
/// SHA-256 as it is now) before any content is read; an error means
/// nothing may be read.
fn audit_read(
    policy: &crate::policy::Policy,
    args: &RedactArgs,
    reason: &str,
) -> anyhow::Result<()> {
    use anyhow::Context;
    if args.input.files.is_empty() {
        anyhow::bail!("--reason names the files read: give capture files, not stdin");
    }
    let mut files = Vec::new();
    for p in &args.input.files {
        let meta =
            std::fs::metadata(p).with_context(|| format!("cannot read `{}`", p.display()))?;
        if !meta.is_file() {
            anyhow::bail!(
                "--reason names the files read: `{}` is not a file (name the files of a folder)",
                p.display()
            );
        }
        let sha256 = super::audit_export::digest_prefix(p, u64::MAX)
            .with_context(|| format!("cannot read `{}`", p.display()))?;
        files.push(crate::audit::ReadFile {
            path: p.display().to_string(),
            sha256,
            segments: Vec::new(),
        });
    }
    let by = super::capture_sealed::reader(args.by.as_deref());
    let mut log = match (policy.audit(), &args.audit) {
        (Some(settings), path) => {
            let mut s = settings.clone();
            if let Some(p) = path {
                s.path.clone_from(p);
            }
            crate::window::budget::open_configured(&s)?
        }
        (None, Some(p)) => {
            crate::audit::AuditLog::open(p, None, std::time::Duration::from_secs(5))?
        }
        (None, None) => anyhow::bail!(
            "--reason needs an audit log: the policy has no [audit]; give --audit LOG"
        ),
    };
    log.set_replica_id(Some(crate::fleet::replica_id(policy.fleet())));
    for event in crate::audit::AuditEvent::capture_reads(reason, &by, "redact", files) {
        log.append(&event, jiff::Timestamp::now())?;
    }
    Ok(())
}
