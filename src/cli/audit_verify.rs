//! `tracegate audit verify FILE`: check the audit log's hash chain and its
//! checkpoint.
//!
//! Exit codes: 0 intact and vouched for by the checkpoint; 1 tampered (the
//! first bad seq is named); 2 usage or I/O error; 3 only a torn last line
//! (a crash mid-write); 4 chain intact but no checkpoint vouches for its
//! tail. Output never holds a byte of the log's lines: only seqs, line
//! numbers, sizes and kinds.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;

use super::OutputFormat;

use crate::audit::{AuditKey, VerifyReport, VerifyStatus, verify};

/// Arguments of `audit verify`.
#[derive(Debug, Clone, Args)]
pub struct VerifyArgs {
    /// The audit log to verify.
    pub file: PathBuf,
    /// More logs (a fleet's replicas each keep one), verified alike.
    pub more: Vec<PathBuf>,
    /// Also add up, per window, what every log's gates spent, and fail
    /// (exit 1) when a window's total exceeds its budget.
    #[arg(long)]
    pub fleet: bool,
    /// Key file of a keyed log (`[audit] key_file`): raw bytes, or 64+ hex
    /// digits; one trailing newline is ignored; at least 32 bytes.
    #[arg(long)]
    pub key_file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

/// Run `audit verify`; returns the exit code. The verdict goes to `stdout`,
/// errors to `stderr` (and, with `--format json`, also a JSON object with
/// `"status":"error"` to `stdout`).
pub fn run(args: &VerifyArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    if args.more.is_empty() && !args.fleet {
        return run_one(args, &args.file, stdout, stderr);
    }
    // Several logs: each verified on its own; the worst verdict wins
    // (tampered, then error, then torn, then unvouched).
    let files: Vec<PathBuf> = std::iter::once(args.file.clone())
        .chain(args.more.iter().cloned())
        .collect();
    let rank = |c: u8| match c {
        1 => 4,
        2 => 3,
        3 => 2,
        4 => 1,
        _ => 0,
    };
    let mut code = 0u8;
    for f in &files {
        let c = run_one(args, f, stdout, stderr);
        if rank(c) > rank(code) {
            code = c;
        }
    }
    if args.fleet {
        let c = run_fleet(args, &files, stdout, stderr);
        if rank(c) > rank(code) {
            code = c;
        }
    }
    code
}

/// `--fleet`: per window, the total spent across every log.
fn run_fleet(
    args: &VerifyArgs,
    files: &[PathBuf],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let totals = args
        .key_file
        .as_deref()
        .map(AuditKey::load)
        .transpose()
        .and_then(|key| super::audit_fleet::fleet_totals(files, key.as_ref()));
    let totals = match totals {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(stderr, "error: fleet totals: {e}");
            return 2;
        }
    };
    let mut code = 0;
    for t in &totals {
        let written = match args.format {
            OutputFormat::Text => writeln!(stdout, "{}", super::audit_fleet::render(t)),
            OutputFormat::Json => writeln!(
                stdout,
                "{}",
                serde_json::json!({"type": "fleet_window", "total": t})
            ),
        };
        if written.is_err() {
            return 2;
        }
        if t.over {
            code = 1;
        }
    }
    code
}

fn run_one(
    args: &VerifyArgs,
    path: &std::path::Path,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let file = path.display().to_string();
    let result = args
        .key_file
        .as_deref()
        .map(AuditKey::load)
        .transpose()
        .and_then(|key| verify(path, key.as_ref()));
    let (code, written) = match result {
        Ok(report) => {
            let out = match args.format {
                OutputFormat::Text => writeln!(stdout, "{file}: {}", report.message()),
                OutputFormat::Json => writeln!(stdout, "{}", json_report(&file, &report)),
            };
            (report.exit_code(), out)
        }
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            let out = match args.format {
                OutputFormat::Text => Ok(()),
                OutputFormat::Json => writeln!(
                    stdout,
                    "{}",
                    serde_json::json!({"file": file, "status": "error", "message": e.to_string()})
                ),
            };
            (2, out)
        }
    };
    match written {
        // A closed pipe is not an error of ours (as in ripgrep): the
        // verdict's code stands.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => 2,
        _ => code,
    }
}

/// The JSON verdict, keys in a fixed order.
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    file: &'a str,
    status: &'static str,
    entries: u64,
    last_seq: Option<u64>,
    first_bad_seq: Option<u64>,
    kind: Option<&'static str>,
    message: String,
}

fn json_report(file: &str, report: &VerifyReport) -> String {
    let (first_bad_seq, kind) = match &report.status {
        VerifyStatus::Tampered { seq, kind, .. } => (Some(*seq), Some(kind.as_str())),
        _ => (None, None),
    };
    let out = JsonReport {
        file,
        status: report.status_name(),
        entries: report.entries,
        last_seq: report.last_seq,
        first_bad_seq,
        kind,
        message: report.message(),
    };
    // Serializing this struct of plain fields cannot fail; the fallback
    // keeps library code panic-free.
    serde_json::to_string(&out).unwrap_or_else(|_| String::from("{\"status\":\"error\"}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn run_on(args: &VerifyArgs) -> (u8, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(args, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn missing_file_is_exit_2_with_a_named_path() {
        let args = VerifyArgs {
            file: "/nonexistent/audit.jsonl".into(),
            more: Vec::new(),
            fleet: false,
            key_file: None,
            format: OutputFormat::Text,
        };
        let (code, out, err) = run_on(&args);
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("`/nonexistent/audit.jsonl`"), "{err}");
        let (code, out, _) = run_on(&VerifyArgs {
            format: OutputFormat::Json,
            ..args
        });
        assert_eq!(code, 2);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["status"], "error");
    }
}
