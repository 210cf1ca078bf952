//! `tracegate redact`: apply the policy's redaction rules to the content of
//! stored full records (clean an existing capture file).

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use super::filter::{resolve_sink, stream};
use super::{InputArgs, exit, load_policy};
use crate::gate::{Gate, Level};
use crate::window::deliver::LevelSource;

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
    let mut gate = Gate::with_redaction(Arc::clone(&policy), redaction);
    gate.force_format(args.input.input_format.forced());
    stream(&mut gate, &mut AlwaysFull, &args.input, "redact")
}
