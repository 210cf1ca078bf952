//! `tracegate policy check`: validate a policy and show what it does.

use std::collections::HashMap;
use std::path::PathBuf;

use clap::Subcommand;

use super::exit;
use crate::policy::compile::friendly;
use crate::policy::{Policy, SinkOutput};
use crate::window::{CloseCause, WindowState, state_at, time_left};

/// `policy` subcommands.
#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Validate a policy; list its sinks and windows with their state.
    ///
    /// Exit 0 when valid, 2 when invalid (every error is listed).
    Check {
        /// The policy: a TOML file or a folder of them.
        #[arg(value_name = "PATH")]
        policy: PathBuf,
    },
}

/// Run a `policy` subcommand; returns the exit code.
pub fn run(cmd: &PolicyCommand) -> u8 {
    match cmd {
        PolicyCommand::Check { policy } => check(policy),
    }
}

fn check(path: &std::path::Path) -> u8 {
    let Some(policy) = super::load_policy(path) else {
        return exit::ERROR;
    };
    print!(
        "{}",
        describe(&policy, jiff::Timestamp::now(), &closed_windows(&policy))
    );
    exit::OK
}

/// Windows the policy's audit log closed for good; empty when there is no
/// log yet. A log that cannot be read is reported and treated as empty here
/// (this command only displays; the gate itself fails closed).
pub fn closed_windows(policy: &Policy) -> HashMap<String, CloseCause> {
    let Some(audit) = &policy.audit() else {
        return HashMap::new();
    };
    if !audit.path.exists() {
        return HashMap::new();
    }
    let key = match &audit.key_file {
        Some(k) => match crate::audit::AuditKey::load(k) {
            Ok(k) => Some(k),
            Err(e) => {
                eprintln!("tracegate: warning: {e}");
                return HashMap::new();
            }
        },
        None => None,
    };
    match crate::audit::closed_windows(&audit.path, key.as_ref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tracegate: warning: cannot read window closures from the audit log: {e}");
            HashMap::new()
        }
    }
}

/// The human summary of a valid policy.
pub fn describe(p: &Policy, now: jiff::Timestamp, closed: &HashMap<String, CloseCause>) -> String {
    let mut s = format!("policy `{}` is valid\n", p.source.display());
    s.push_str(&format!("  sha256  {}\n", p.sha256()));
    s.push_str(&format!(
        "  files   {}\n",
        p.files()
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    match &p.audit() {
        Some(a) => s.push_str(&format!("  audit   {}\n", a.path.display())),
        None => s.push_str("  audit   none (full capture impossible)\n"),
    }
    s.push_str(&format!(
        "  allowlist: {} cf fields, {} evidence fields, {} content fields, on_violation {}\n",
        p.standard.fields.len(),
        p.standard.evidence.len(),
        p.full.content_fields.len(),
        match p.standard.on_violation {
            crate::policy::OnViolation::DropRecord => "drop_record",
            crate::policy::OnViolation::DropField => "drop_field",
        }
    ));
    // SECURITY: a standard field that admits free text is the policy's
    // choice (`free_text = true`); say so, every time the policy is checked.
    let free = free_text_fields(p);
    if !free.is_empty() {
        s.push_str(&format!(
            "  free text: {} standard field(s) admit any string (free_text = true): {}\n",
            free.len(),
            free.join(", ")
        ));
    }
    if p.sinks().is_empty() {
        s.push_str("sinks: none\n");
    } else {
        s.push_str("sinks:\n");
        for sink in p.sinks() {
            let level = if sink.full_allowed {
                "full allowed"
            } else {
                "standard only"
            };
            let output = match &sink.output {
                Some(SinkOutput::File(f)) => format!("file:{}", f.display()),
                Some(SinkOutput::Stdout) => "stdout".to_string(),
                Some(SinkOutput::OtlpHttp(u)) => format!("otlp {u}"),
                Some(SinkOutput::OtlpHttps(x)) => format!("otlp {} (tls)", x.url),
                Some(SinkOutput::OtlpGrpc(x)) => format!(
                    "otlp+grpc {}{}",
                    x.url,
                    if x.tls.is_some() { " (tls)" } else { "" }
                ),
                None => "no output".to_string(),
            };
            s.push_str(&format!("  {:<24} {:<14} {}\n", sink.name, level, output));
        }
    }
    s.push_str(&crate::policy::tls::describe_listeners(&p.server));
    s.push_str(&describe_windows(p, now, closed));
    s.push_str(&describe_sources(p));
    s
}

/// Where each key came from, the files the policy refers to, and what the
/// folder held that is not policy.
pub fn describe_sources(p: &Policy) -> String {
    let mut s = String::new();
    if p.referenced().is_empty() {
        s.push_str("referenced files: none\n");
    } else {
        s.push_str("referenced files:\n");
        for r in p.referenced() {
            let what = match r.kind {
                crate::policy::RefKind::KeywordList => "sha256",
                _ => "fingerprint",
            };
            let path = r.path.as_ref().map_or_else(
                || format!("${}", crate::policy::redaction::KEY_ENV),
                |p| p.display().to_string(),
            );
            s.push_str(&format!(
                "  {:<13} {path}  {what} {}\n",
                r.kind.as_str(),
                r.sha256
            ));
        }
    }
    s.push_str("set by file (every other key is a built-in default):\n");
    if p.origins().is_empty() {
        s.push_str("  nothing\n");
    }
    for o in p.origins() {
        s.push_str(&format!("  {:<40} {}\n", o.key, o.file.display()));
    }
    if !p.ignored().is_empty() {
        s.push_str("ignored entries of the policy folder:\n");
        for i in p.ignored() {
            s.push_str(&format!("  {}: {}\n", i.path.display(), i.why));
        }
    }
    s
}

/// Every standard field marked `free_text = true`, by allowlist.
fn free_text_fields(p: &Policy) -> Vec<String> {
    let mut out = Vec::new();
    let o = &p.standard.otlp;
    for (prefix, set) in [
        ("", &p.standard.fields),
        ("evidence.", &p.standard.evidence),
        ("span_attributes.", &o.span_attributes),
        ("resource_attributes.", &o.resource_attributes),
        ("scope_attributes.", &o.scope_attributes),
        ("event_attributes.", &o.event_attributes),
        ("link_attributes.", &o.link_attributes),
        ("log_attributes.", &o.log_attributes),
    ] {
        set.free_text_paths(prefix, &mut out);
    }
    out
}

/// The windows of a policy with their state and time left.
pub fn describe_windows(
    p: &Policy,
    now: jiff::Timestamp,
    closed: &HashMap<String, CloseCause>,
) -> String {
    let mut s = String::new();
    if p.windows().is_empty() {
        s.push_str("windows: none\n");
    } else {
        s.push_str("windows:\n");
        for w in p.windows() {
            let state = state_at(w, now, closed);
            let when = match (state, time_left(w, now)) {
                (WindowState::Pending, Some(d)) => format!("starts in {}", friendly(round_secs(d))),
                (WindowState::Active, Some(d)) => format!("{} left", friendly(round_secs(d))),
                (WindowState::Closed(c), _) => format!("closed: {}", c.as_str()),
                _ => String::new(),
            };
            s.push_str(&format!(
                "  {:<24} sink {:<16} {} .. {}  {:<8} {}\n",
                w.id,
                w.sink,
                w.start,
                w.end,
                state.as_str(),
                when
            ));
            // SECURITY: free text from a window file, escaped for the terminal.
            s.push_str(&format!(
                "      by {}: {}\n",
                crate::window::escape_display(&w.requested_by),
                crate::window::escape_display(&w.reason)
            ));
        }
    }
    s
}

fn round_secs(d: jiff::SignedDuration) -> jiff::SignedDuration {
    jiff::SignedDuration::from_secs(d.as_secs())
}
