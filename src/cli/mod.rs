//! The command line: one file per subcommand, thin glue over the library.
// Reports reach stdout and stderr only through `say!`, `sayln!` and
// `esayln!` (see `output.rs`): `print!` and `eprint!` panic when the reader
// of a pipe went away.
#![deny(clippy::print_stdout, clippy::print_stderr)]

/// `print!` for a command's report on stdout, through [`output::say`]: a
/// reader that went away (`| head`) ends the output quietly instead of a
/// panic.
macro_rules! say {
    ($($t:tt)*) => { $crate::cli::output::say(format_args!($($t)*)) };
}

/// `println!` through [`output::say`].
macro_rules! sayln {
    ($($t:tt)*) => { $crate::cli::output::say(format_args!("{}\n", format_args!($($t)*))) };
}

/// `eprintln!` through [`output::say_err`]: a stderr whose reader went
/// away is no panic.
macro_rules! esayln {
    ($($t:tt)*) => { $crate::cli::output::say_err(format_args!("{}\n", format_args!($($t)*))) };
}

pub mod audit_export;
pub mod audit_fleet;
pub mod audit_keys;
pub mod audit_report;
pub mod audit_verify;
pub mod capture_cmd;
pub mod capture_sealed;
pub mod check;
mod check_par;
pub mod completions;
pub mod explain;
pub mod filter;
pub mod input;
pub mod output;
mod par;
pub mod policy_cmd;
pub mod redact;
pub mod serve;
pub mod window_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::record::Format;

/// Exit codes shared by the commands (docs/reference.md).
pub mod exit {
    /// Success.
    pub const OK: u8 = 0;
    /// Violations or malformed lines (`check`).
    pub const FINDINGS: u8 = 1;
    /// Usage, policy or I/O error.
    pub const ERROR: u8 = 2;
}

/// The version `--version` prints: the crate version and, when built from
/// a git checkout, the commit (see `build.rs`).
pub const VERSION: &str = env!("TRACEGATE_VERSION");

/// tracegate: a privacy gate for LLM-inference trace records.
///
/// Standard-level records are proven content-free against an allowlist;
/// full-level records reach only allowlisted sinks inside audited,
/// time-boxed capture windows.
#[derive(Debug, Parser)]
#[command(name = "tracegate", version = VERSION, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Verify stored records: standard-clean, or (with --sink) inside a window.
    ///
    /// Exit 0 when all records are clean, 1 on any violation or malformed
    /// line, 2 on a usage, policy or I/O error.
    Check(check::CheckArgs),
    /// Show why each span or log record of a captured OTLP request is
    /// written or dropped.
    ///
    /// Reads request bodies (OTLP/protobuf or OTLP/JSON, as `serve`
    /// receives them), judges each as `serve` does at standard level, and
    /// lists every span or log record by index and ids with the rule and
    /// path that dropped it or removed its fields. Exit 0 when every item
    /// would be written, 1 when one would be dropped or a body refused, 2
    /// on a usage, policy or I/O error.
    Explain(explain::ExplainArgs),
    /// Stream records to stdout as a sink may receive them.
    ///
    /// Reads FILEs (or stdin), writes each record's projection for the sink
    /// to stdout and a summary to stderr. Exit 0 when the input was read to
    /// the end, 2 on a usage, policy or I/O error.
    Filter(filter::FilterArgs),
    /// Apply the redaction rules to the content of stored full records.
    ///
    /// Reads FILEs (or stdin) and writes each record at full level with its
    /// content redacted (every other field still held to the allowlist);
    /// counts on stderr. For cleaning a capture file after the fact.
    Redact(redact::RedactArgs),
    /// Run the daemon: receive records over HTTP, gate them per sink.
    ///
    /// Listens for OTLP/HTTP (`/v1/traces`, `/v1/logs`) and JSON Lines
    /// (`/v1/records`), writes each sink's view to its `output`, hot-reloads
    /// the policy. Exit 0 after SIGTERM/SIGINT, 2 when it cannot start.
    Serve(serve::ServeArgs),
    /// Validate a policy and list its sinks and windows.
    Policy {
        /// What to do with the policy.
        #[command(subcommand)]
        command: policy_cmd::PolicyCommand,
    },
    /// Open, close or list capture windows in a policy folder.
    Window {
        /// What to do with windows.
        #[command(subcommand)]
        command: window_cmd::WindowCommand,
    },
    /// Stop or allow full capture for a policy (the kill switch).
    Capture {
        /// What to do.
        #[command(subcommand)]
        command: capture_cmd::CaptureCommand,
    },
    /// Work with the audit log.
    Audit {
        /// What to do with the audit log.
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// Print shell completions for tracegate.
    ///
    /// For example `tracegate completions bash > /etc/bash_completion.d/tracegate`,
    /// `tracegate completions zsh > "${fpath[1]}/_tracegate"` or
    /// `tracegate completions fish > ~/.config/fish/completions/tracegate.fish`.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff), or write one per command to a folder.
    ///
    /// `tracegate man | man -l -` reads it; `tracegate man --dir DIR`
    /// writes `tracegate.1` and `tracegate-SUBCOMMAND.1` pages into DIR.
    Man(completions::ManArgs),
}

/// `audit` subcommands.
#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Check the audit log's hash chain and checkpoint.
    ///
    /// Exit 0 intact and vouched for by the checkpoint; 1 tampered (the
    /// first bad seq is named); 2 usage or I/O error; 3 only a torn last
    /// line (a crash mid-write); 4 intact but no checkpoint vouches for the
    /// tail.
    Verify(audit_verify::VerifyArgs),
    /// Write a new Ed25519 key pair for `[audit] signing_key`.
    ///
    /// `--out PATH` gets the private key (PKCS#8 PEM, 0600), `PATH.pub`
    /// the public key in the signed-note verifier form; neither may exist.
    Keygen(audit_keys::KeygenArgs),
    /// Print the log's signed checkpoint, to publish out of your reach.
    ///
    /// The log is verified first; nothing is printed (exit 1, 3 or 4) for a
    /// log that does not verify. A log without a signing key gets its bare
    /// head (origin, size, hash). `audit verify --since-head` checks a log
    /// against what this printed.
    Head(audit_keys::HeadArgs),
    /// Start signing a log that already has entries (verified first).
    Sign(audit_keys::SignArgs),
    /// Hand the log to a new signing key (`key_rotated`, signed by the
    /// policy's current key).
    RotateKey(audit_keys::RotateArgs),
    /// Export what the log says happened in a time range, for an auditor.
    ///
    /// A DSSE envelope (signed with `--signing-key`) around an in-toto
    /// statement: windows, what they captured, denials, policies, reads of
    /// captured content, the verification result and the head. `--format
    /// ocsf` prints one OCSF event per entry instead. Exit 0 for an intact
    /// log; 1, 3 or 4 (written anyway, and said in the statement) when it
    /// is not; 2 on error.
    Export(audit_export::ExportArgs),
    /// Write the log as one self-contained HTML page for a reviewer.
    ///
    /// Whether the log can be trusted, in words, at the top; a timeline
    /// (one lane per sink, each capture window a bar from enablement to
    /// its enforced end, marked by how it ended; denials and policy
    /// reloads); every window with who asked, why and what it captured.
    /// Stdout unless `--out FILE`. Exit 0 for an intact log; 1, 3 or 4
    /// (written anyway, and said at the top) when it is not; 2 on error.
    Report(audit_report::ReportArgs),
}

/// `--format` of the commands that report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Lines for people (`FILE:LINE: rule: field: message` for findings).
    Text,
    /// One JSON object per line.
    Json,
}

/// Options every record-reading command takes.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Record format: detect per line, or force one.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub input_format: InputFormat,
    /// In folders, read only files matching GLOB (repeatable): a glob
    /// without `/` matches the file name, one with `/` the path below the
    /// folder. Default: `*.jsonl` and `*.ndjson`. Files named on the
    /// command line are always read.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,
    /// Input files (JSON Lines) or folders (walked recursively, sorted by
    /// name); stdin when none or `-`.
    #[arg(value_name = "PATH")]
    pub files: Vec<PathBuf>,
}

/// `--input-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Detect per line.
    Auto,
    /// The engine's flat records.
    Cf,
    /// OTLP/JSON.
    Otlp,
    /// latency-evidence.v1.
    Evidence,
}

impl InputFormat {
    /// The forced format, if any.
    pub fn forced(self) -> Option<Format> {
        match self {
            InputFormat::Auto => None,
            InputFormat::Cf => Some(Format::Cf),
            InputFormat::Otlp => Some(Format::Otlp),
            InputFormat::Evidence => Some(Format::Evidence),
        }
    }
}

/// Run the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Filter(args) => filter::run(&args),
        Command::Redact(args) => redact::run(&args),
        Command::Serve(args) => serve::run_serve(&args),
        Command::Policy { command } => policy_cmd::run(&command),
        Command::Window { command } => window_cmd::run(&command),
        Command::Capture { command } => capture_cmd::run(&command),
        Command::Audit { command } => match command {
            AuditCommand::Verify(args) => audit_verify::run(&args),
            AuditCommand::Keygen(args) => audit_keys::keygen(&args),
            AuditCommand::Head(args) => audit_keys::head(&args),
            AuditCommand::Sign(args) => audit_keys::sign(&args),
            AuditCommand::RotateKey(args) => audit_keys::rotate(&args),
            AuditCommand::Export(args) => audit_export::run(&args),
            AuditCommand::Report(args) => audit_report::run(&args),
        },
        Command::Completions(args) => completions::run_completions(&args),
        Command::Man(args) => completions::run_man(&args),
    };
    ExitCode::from(output::stdout_code(code))
}

/// Print an error the way every command does: `tracegate: ...` on stderr.
pub fn report_error(err: &anyhow::Error) {
    let mut msg = String::from("tracegate");
    for cause in err.chain() {
        msg.push_str(": ");
        match cause.downcast_ref::<std::io::Error>() {
            // Lowercase, without the OS's "(os error N)".
            Some(io) => msg.push_str(&crate::io_text::io_cause(io)),
            None => msg.push_str(&cause.to_string()),
        }
    }
    esayln!("{msg}");
}

/// Write `error: {e}` to stderr (the audit commands' form); the exit code
/// of an error, 2.
pub fn error_exit(e: impl std::fmt::Display) -> u8 {
    esayln!("error: {e}");
    2
}

/// `path`'s file name as text (lossy), empty when it has none.
pub fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `r`'s value, or `None` with its error reported ([`report_error`]).
pub fn reported<T>(r: anyhow::Result<T>) -> Option<T> {
    r.map_err(|e| report_error(&e)).ok()
}

/// Load a policy, printing every error on failure.
pub fn load_policy(path: &std::path::Path) -> Option<crate::policy::Policy> {
    report_policy(
        path,
        crate::policy::Policy::load_checked(path, &crate::tls::PemCheck),
    )
}

/// Load a policy for a command that enables windows (`filter`, `serve`):
/// once its files have settled ([`crate::policy::load::SETTLE`]), so that
/// a window file caught mid-write is never enabled.
pub fn load_policy_for_capture(path: &std::path::Path) -> Option<crate::policy::Policy> {
    let settled = crate::policy::Policy::load_settled_checked(
        path,
        crate::policy::load::SETTLE,
        10,
        &crate::tls::PemCheck,
    );
    report_policy(path, settled)
}

fn report_policy(
    path: &std::path::Path,
    loaded: Result<crate::policy::Policy, crate::policy::PolicyErrors>,
) -> Option<crate::policy::Policy> {
    match loaded {
        Ok(p) => Some(p),
        Err(errors) => {
            esayln!("{errors}");
            esayln!(
                "tracegate: policy `{}` is invalid ({})",
                path.display(),
                crate::io_text::counted(errors.0.len() as u64, "error", "errors")
            );
            None
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod version_tests {
    include!("../../build/version.rs");

    #[test]
    fn the_version_names_a_commit_only_when_one_is_known() {
        assert_eq!(
            describe_version("0.1.0", Some("0123456789ab\n"), false),
            "0.1.0 (commit 0123456789ab)"
        );
        assert_eq!(
            describe_version("0.1.0", Some("0123456789ab"), true),
            "0.1.0 (commit 0123456789ab, modified)"
        );
        // No git, or git saying something that is not a commit id.
        assert_eq!(describe_version("0.1.0", None, true), "0.1.0");
        assert_eq!(
            describe_version("0.1.0", Some("fatal: not a git repository"), false),
            "0.1.0"
        );
        assert_eq!(describe_version("0.1.0", Some(""), false), "0.1.0");
    }
}
