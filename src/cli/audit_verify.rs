//! `tracegate audit verify FILE`: check the audit log's hash chain and its
//! checkpoint.
//!
//! Exit codes: 0 intact and vouched for by the checkpoint; 1 tampered (the
//! first bad seq is named); 2 usage or I/O error; 3 only a torn last line
//! (a crash mid-write); 4 chain intact but no checkpoint vouches for its
//! tail. Output never holds a byte of the log's lines: only seqs, line
//! numbers, sizes and kinds.
//!
//! With `--anchor PATH` the log is also checked against its anchor (a log
//! or checkpoint behind it, or a missing anchor beside entries, is
//! tampered); `--init-anchor` starts an anchor for a log that verifies
//! intact and has none yet.

use std::path::PathBuf;

use clap::Args;

use super::OutputFormat;

use crate::audit::{
    AnchorInit, AuditError, AuditKey, PublishedHead, SignedCheck, VerifierKey, VerifyReport,
    VerifyStatus, init_anchor, verify_signed,
};

/// How long `--init-anchor` waits for the writers' lock.
const INIT_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

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
    /// The log's anchor (`[audit] anchor`): the log and its checkpoint must
    /// reach it and hold the entry it vouches for.
    #[arg(long, value_name = "FILE")]
    pub anchor: Option<PathBuf>,
    /// Start the anchor at `--anchor` for a log that verifies intact and has
    /// no anchor yet (to add an anchor to an existing log).
    #[arg(long, requires = "anchor")]
    pub init_anchor: bool,
    /// Public key (`audit keygen`'s `PATH.pub`) trusted to sign the log's
    /// checkpoints: the log's signed checkpoint (`FILE.checkpoint.note`)
    /// must be signed by it, or by the keys `key_rotated` entries hand the
    /// log to from it; an unsigned log is then tampered. Repeatable (each
    /// key trusted from the log's start).
    #[arg(long = "public-key", value_name = "PUB")]
    pub public_keys: Vec<PathBuf>,
    /// A head published earlier (`audit head`'s output): the log must
    /// extend it (the entry it names still there, unchanged), or it was
    /// rolled back or rewritten (tampered, `rolled_back`).
    #[arg(long, value_name = "FILE")]
    pub since_head: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

/// Run `audit verify`; returns the exit code. The verdict goes to `stdout`,
/// errors to `stderr` (and, with `--format json`, also a JSON object with
/// `"status":"error"` to `stdout`).
pub fn run(args: &VerifyArgs) -> u8 {
    // An anchor belongs to one log (each replica keeps its own), and a
    // published head names one log (its origin is the log's first entry):
    // neither can vouch for several, so refuse rather than check some logs
    // against it and others against none.
    for (given, flag, what) in [
        (args.anchor.is_some(), "--anchor", "anchor"),
        (args.since_head.is_some(), "--since-head", "head"),
    ] {
        if given && !args.more.is_empty() {
            esayln!("error: {flag} names one log's {what}; verify each log with its own {flag}");
            return 2;
        }
    }
    if args.init_anchor
        && let Some(anchor) = &args.anchor
    {
        return run_init(args, anchor);
    }
    if args.more.is_empty() && !args.fleet {
        return run_one(args, &args.file);
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
    let mut codes: Vec<u8> = files.iter().map(|f| run_one(args, f)).collect();
    if args.fleet {
        codes.push(run_fleet(args, &files));
    }
    codes.into_iter().max_by_key(|&c| rank(c)).unwrap_or(0)
}

/// `--fleet`: per window, the total spent across every log.
fn run_fleet(args: &VerifyArgs, files: &[PathBuf]) -> u8 {
    let totals = AuditKey::load_if(args.key_file.as_deref())
        .and_then(|key| super::audit_fleet::fleet_totals(files, key.as_ref()));
    let totals = match totals {
        Ok(t) => t,
        Err(e) => return super::error_exit(format_args!("fleet totals: {e}")),
    };
    let mut code = 0;
    for t in &totals {
        match args.format {
            OutputFormat::Text => sayln!("{}", super::audit_fleet::render(t)),
            OutputFormat::Json => {
                sayln!(
                    "{}",
                    serde_json::json!({"type": "fleet_window", "total": t})
                )
            }
        }
        if t.over {
            code = 1;
        }
    }
    code
}

fn run_one(args: &VerifyArgs, path: &std::path::Path) -> u8 {
    let file = path.display().to_string();
    let result = AuditKey::load_if(args.key_file.as_deref()).and_then(|key| {
        let check = signed_check(&args.public_keys, args.since_head.as_deref())?;
        verify_signed(path, key.as_ref(), args.anchor.as_deref(), &check)
    });
    match result {
        Ok(report) => {
            match args.format {
                OutputFormat::Text => sayln!("{file}: {}", report.message()),
                OutputFormat::Json => sayln!("{}", json_report(&file, &report)),
            }
            report.exit_code()
        }
        Err(e) => {
            esayln!("error: {e}");
            if args.format == OutputFormat::Json {
                sayln!(
                    "{}",
                    serde_json::json!({"type": "verify", "file": file, "status": "error", "message": e.to_string()})
                );
            }
            2
        }
    }
}

/// The public keys and published head a verification asks for, loaded.
pub fn signed_check(
    public_keys: &[PathBuf],
    since_head: Option<&std::path::Path>,
) -> Result<SignedCheck, AuditError> {
    let keys = public_keys
        .iter()
        .map(|p| VerifierKey::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let since = since_head.map(load_published_head).transpose()?;
    Ok(SignedCheck { keys, since })
}

/// Read a published head (a signed checkpoint note, or a bare checkpoint
/// text).
pub fn load_published_head(path: &std::path::Path) -> Result<PublishedHead, AuditError> {
    let err = |cause: String| AuditError::PublishedHead {
        path: path.to_path_buf(),
        cause,
    };
    // Never blocks: a FIFO swapped in after the type check is refused on
    // the open handle, as every other file the audit commands read.
    let bytes = crate::policy::load::read_regular(path, 64 * 1024)
        .map_err(err)?
        .bytes;
    PublishedHead::parse(&bytes).map_err(|e| err(format!("not a published head: {e}")))
}

/// `--init-anchor`: 0 written (or nothing to anchor yet), the verdict's code
/// when the log is not intact, 2 when an anchor exists or on error.
fn run_init(args: &VerifyArgs, anchor: &std::path::Path) -> u8 {
    let file = args.file.display().to_string();
    let result = AuditKey::load_if(args.key_file.as_deref())
        .and_then(|key| init_anchor(&args.file, key.as_ref(), anchor, INIT_LOCK_WAIT));
    let (code, line) = match result {
        Ok(AnchorInit::Written { seq }) => (
            0,
            format!("{file}: anchor `{}` started at seq {seq}", anchor.display()),
        ),
        Ok(AnchorInit::EmptyLog) => (
            0,
            format!("{file}: no entries yet; the first append writes the anchor"),
        ),
        Ok(AnchorInit::Exists) => {
            esayln!(
                "error: anchor `{}` already exists; an anchor is never replaced by hand",
                anchor.display()
            );
            return 2;
        }
        Ok(AnchorInit::NotIntact(report)) => {
            esayln!("error: no anchor written: the log is not intact");
            (report.exit_code(), format!("{file}: {}", report.message()))
        }
        Err(e) => return super::error_exit(e),
    };
    sayln!("{line}");
    code
}

/// The JSON verdict, keys in a fixed order.
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    /// `verify`: every JSON message says what it is.
    #[serde(rename = "type")]
    kind_of_message: &'static str,
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
        kind_of_message: "verify",
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
