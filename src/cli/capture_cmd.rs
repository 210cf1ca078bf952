//! `tracegate capture off|on|status`: the kill switch for full capture;
//! `capture keygen|ls|open`: sealed capture (`capture_sealed.rs`).
//!
//! `off` creates a marker beside the policy (`DIR/capture-off` for a
//! folder, `FILE.capture-off` for a file). It needs neither a valid policy
//! nor a writable audit log: it only takes rights away. Every gate
//! (`filter`, `serve`) looks for the marker at least every 250 ms; while it
//! exists no record goes out at full level and an open window closes for
//! good (audited `window_closed`, cause `removed`, when the log is
//! writable). `on` removes the marker; windows closed by it stay closed.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::exit;
use crate::policy::load::{kill_switch_engaged, kill_switch_path};

/// `capture` subcommands.
#[derive(Debug, Subcommand)]
pub enum CaptureCommand {
    /// Stop all full capture now (the kill switch), whatever the policy says.
    ///
    /// Works with an invalid policy and an unwritable audit log.
    Off {
        /// The policy (folder or file) whose gates stop capturing.
        #[arg(long, value_name = "PATH")]
        policy: PathBuf,
        /// Why (kept in the marker file).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Release the kill switch; windows it closed stay closed.
    On {
        /// The policy (folder or file).
        #[arg(long, value_name = "PATH")]
        policy: PathBuf,
    },
    /// Say whether the kill switch is engaged (exit 0 released, 1 engaged).
    Status {
        /// The policy (folder or file).
        #[arg(long, value_name = "PATH")]
        policy: PathBuf,
    },
    /// Make an identity for sealed capture (an age X25519 key): writes the
    /// identity to PATH (owner-only) and prints its recipient (`age1...`)
    /// for `[[sink]] seal_to`.
    Keygen {
        /// Where to write the identity (never replaces a file).
        #[arg(long, value_name = "PATH")]
        out: PathBuf,
    },
    /// List sealed segments: those the audit log opened, and those found
    /// in the capture files with whether the log vouches for them (exit 1
    /// when one is not vouched for).
    Ls {
        /// The audit log.
        #[arg(long, value_name = "LOG")]
        audit: PathBuf,
        /// Capture files (a sealed sink's JSON Lines).
        #[arg(value_name = "CAPTURE")]
        captures: Vec<PathBuf>,
    },
    /// Decrypt sealed captures: verifies the audit log, checks every
    /// segment against it, appends `capture_read`, then writes the records
    /// in plaintext JSON Lines (stdout, or --out atomically).
    Open {
        /// The identity file (`capture keygen`'s or age-keygen's).
        #[arg(long, value_name = "KEY")]
        identity: PathBuf,
        /// The audit log that vouches for the segments.
        #[arg(long, value_name = "LOG")]
        audit: PathBuf,
        /// Why the content is read (kept in `capture_read`).
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// Who reads (default: `$USER`).
        #[arg(long, value_name = "NAME")]
        by: Option<String>,
        /// Write here instead of stdout (never a capture file).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// The files are an OTLP/JSON export of what an OTLP sink sent (as
        /// a trace backend or collector exports it), not a capture file:
        /// segment headers come from `tracegate.segment` log records and
        /// no byte digest is checked (the backend re-encoded the lines).
        #[arg(long)]
        otlp_export: bool,
        /// Capture files.
        #[arg(value_name = "CAPTURE", required = true)]
        captures: Vec<PathBuf>,
    },
}

/// Run a `capture` subcommand; returns the exit code.
pub fn run(cmd: &CaptureCommand) -> u8 {
    let result = match cmd {
        CaptureCommand::Off { policy, reason } => off(policy, reason),
        CaptureCommand::On { policy } => on(policy),
        CaptureCommand::Keygen { out } => super::capture_sealed::keygen(out),
        CaptureCommand::Ls { audit, captures } => super::capture_sealed::ls(audit, captures),
        CaptureCommand::Open {
            identity,
            audit,
            reason,
            by,
            out,
            otlp_export,
            captures,
        } => super::capture_sealed::open(&super::capture_sealed::OpenRequest {
            identity,
            audit,
            reason,
            by: by.as_deref(),
            out: out.as_deref(),
            captures,
            otlp_export: *otlp_export,
        }),
        CaptureCommand::Status { policy } => {
            let engaged = kill_switch_engaged(policy);
            sayln!(
                "capture is {} for `{}` ({})",
                if engaged { "off" } else { "allowed" },
                policy.display(),
                kill_switch_path(policy).display()
            );
            return if engaged { exit::FINDINGS } else { exit::OK };
        }
    };
    super::reported(result).unwrap_or(exit::ERROR)
}

fn off(policy: &Path, reason: &str) -> anyhow::Result<u8> {
    if !policy.exists() {
        anyhow::bail!("no policy at `{}`", policy.display());
    }
    let path = kill_switch_path(policy);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(&path)
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot write `{}`: {}",
                path.display(),
                crate::io_text::io_cause(&e)
            )
        })?;
    let text = format!(
        "# Written by `tracegate capture off`: no gate delivers full records while this file exists.\nat = \"{}\"\nreason = {}\n",
        jiff::Timestamp::now(),
        toml::Value::String(reason.to_string())
    );
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    if let Some(dir) = path.parent()
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    sayln!(
        "full capture is off for `{}` (every gate honours it within a second)\n  marker {}",
        policy.display(),
        path.display()
    );
    Ok(exit::OK)
}

fn on(policy: &Path) -> anyhow::Result<u8> {
    let path = kill_switch_path(policy);
    match std::fs::remove_file(&path) {
        Ok(()) => sayln!("the kill switch is released; windows it closed stay closed"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            sayln!("the kill switch was not engaged")
        }
        Err(e) => anyhow::bail!(
            "cannot remove `{}`: {}",
            path.display(),
            crate::io_text::io_cause(&e)
        ),
    }
    Ok(exit::OK)
}
