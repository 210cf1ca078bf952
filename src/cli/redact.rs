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
    /// Input options.
    #[command(flatten)]
    pub input: InputArgs,
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
