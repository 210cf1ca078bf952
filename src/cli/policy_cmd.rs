//! `tracegate policy ...`: validate a policy and show what it does
//! (`check`), start one (`init`), show the built-in defaults
//! (`print-default`) and the policy file's JSON Schema (`schema`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use super::exit;
use crate::policy::compile::friendly;
use crate::policy::keys::REPLACE_DEFAULTS;
use crate::policy::{Policy, SinkOutput};
use crate::window::clock::Clock;
use crate::window::{CloseCause, WindowState, state_with_floor, time_left};

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
        /// How to print errors: `text` (with the offending line) on
        /// stderr, or `json` (one object per error, then a summary) on
        /// stdout, for editors and CI.
        #[arg(long, value_enum, default_value_t = ErrorFormat::Text)]
        error_format: ErrorFormat,
        /// How to print the report: `text`, or `json` (the whole capacity
        /// report, then a summary, one JSON object per line on stdout;
        /// errors as with `--error-format json`).
        #[arg(long, value_enum, default_value_t = ErrorFormat::Text)]
        format: ErrorFormat,
    },
    /// Write a commented starting policy folder that `serve` runs as written.
    ///
    /// A standard sink, a capture sink (full allowed, inside audited
    /// windows only), the audit log and redaction of personal data and
    /// credentials. Refuses to write into anything but a new or empty
    /// folder. Exit 0 when written, 2 otherwise.
    Init {
        /// The policy folder to create.
        #[arg(long, value_name = "DIR", default_value = "tracegate-policy")]
        dir: PathBuf,
        /// Also allow the OpenTelemetry GenAI metadata attributes
        /// (operation, provider, model, token usage; never content).
        #[arg(long)]
        otel_genai: bool,
    },
    /// Print the built-in defaults: what every section a policy leaves out means.
    PrintDefault,
    /// Print the JSON Schema of a policy file, for editor completion.
    Schema,
}

/// `--error-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ErrorFormat {
    /// `FILE:LINE:COL: message`, the offending line, a hint.
    Text,
    /// One JSON object per error, then `{"type":"summary",...}`.
    Json,
}

/// What `policy init` writes (relative path, text).
pub const STARTER: &str = include_str!("../../policies/starter/policy.toml");
/// What `policy init --otel-genai` adds.
pub const STARTER_OTEL_GENAI: &str = include_str!("../../policies/starter/otel-genai.toml");

/// Run a `policy` subcommand; returns the exit code.
pub fn run(cmd: &PolicyCommand) -> u8 {
    match cmd {
        PolicyCommand::Check {
            policy,
            error_format,
            format,
        } => match (format, error_format) {
            (ErrorFormat::Json, _) => check_json(policy, true),
            (_, ErrorFormat::Text) => check(policy),
            (_, ErrorFormat::Json) => check_json(policy, false),
        },
        PolicyCommand::Init { dir, otel_genai } => init(dir, *otel_genai),
        PolicyCommand::PrintDefault => {
            say!("{}", crate::policy::defaults::text());
            exit::OK
        }
        PolicyCommand::Schema => {
            say!("{}", crate::policy::json_schema::policy_schema());
            exit::OK
        }
    }
}

/// `policy check --error-format json`: every error as one JSON object on
/// stdout, then a summary object; with `capacity` (`--format json`), a
/// valid policy's capacity report (`"type": "capacity"`) before the summary.
fn check_json(path: &Path, capacity: bool) -> u8 {
    let (summary, code) = match Policy::load_checked(path, &crate::tls::PemCheck) {
        Ok(p) => {
            if capacity {
                sayln!("{}", capacity_json(&p));
            }
            let summary = serde_json::json!({
                "type": "summary", "valid": true, "errors": 0, "sha256": p.sha256(),
            });
            (summary, exit::OK)
        }
        Err(errors) => {
            for e in &errors.0 {
                sayln!("{}", e.to_json());
            }
            (
                serde_json::json!({ "type": "summary", "valid": false, "errors": errors.0.len() }),
                exit::ERROR,
            )
        }
    };
    sayln!("{summary}");
    code
}

/// One bound as JSON: `free_bits` (`null` when unbounded), whole bits
/// rounded up, and every part.
fn bound_json(b: &crate::policy::capacity::Bound) -> serde_json::Value {
    let num = |x: f64| {
        if x.is_finite() {
            serde_json::json!((x * 100.0).ceil() / 100.0)
        } else {
            serde_json::Value::Null
        }
    };
    serde_json::json!({
        "format": b.format.as_str(),
        "free_bits": num(b.bits),
        "free_bits_ceil": b.is_bounded().then(|| b.ceil()),
        "bounded": b.is_bounded(),
        "unbounded": b.unbounded().map(|p| p.derivation.clone()).collect::<Vec<_>>(),
        "parts": b.parts.iter().map(|p| serde_json::json!({
            "path": p.path, "bits": num(p.bits), "derivation": p.derivation,
        })).collect::<Vec<_>>(),
    })
}

/// The capacity report of `p` as one JSON object.
pub fn capacity_json(p: &Policy) -> serde_json::Value {
    let cap = p.capacity();
    serde_json::json!({
        "type": "capacity",
        "policy": p.source().display().to_string(),
        "sha256": p.sha256(),
        "without_sink": cap.policy.iter().map(bound_json).collect::<Vec<_>>(),
        "sinks": cap.sinks.iter().map(|s| serde_json::json!({
            "sink": s.sink,
            "max_free_bits": p.sink(&s.sink).and_then(|k| k.max_free_bits.as_ref()).map(|l| l.by_format()),
            "formats": s.formats.iter().map(bound_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The capacity table of `policy check`: per sink, the bound of each
/// format and the five largest contributors with their derivation.
pub fn describe_capacity(p: &Policy) -> String {
    use crate::policy::FreeBitsLimit;
    use crate::policy::capacity::{Bound, bits_text};
    let cap = p.capacity();
    let mut s = String::from(
        "capacity (most free bits one standard record can carry; docs/policy.md, \"How the bound is computed\")\n",
    );
    let table = |s: &mut String, bounds: &[Bound], limit: Option<&FreeBitsLimit>| {
        for b in bounds {
            let over = limit
                .and_then(|l| l.of(b.format))
                .is_some_and(|l| !b.is_bounded() || b.bits > l as f64);
            s.push_str(&format!(
                "    {:<10} {:>10} bits{}\n",
                b.format.as_str(),
                if b.is_bounded() {
                    b.ceil().to_string()
                } else {
                    "unbounded".into()
                },
                if over { "  (above max_free_bits)" } else { "" }
            ));
            for part in b.top(5) {
                s.push_str(&format!(
                    "      {:>9}  {}: {}\n",
                    bits_text(part.bits),
                    part.path,
                    part.derivation
                ));
            }
        }
    };
    if cap.sinks.is_empty() {
        s.push_str("  without a sink\n");
        table(&mut s, &cap.policy, None);
    }
    for sink in &cap.sinks {
        let limit = p.sink(&sink.sink).and_then(|k| k.max_free_bits.as_ref());
        let note = limit.map_or(String::new(), |l| format!(" (max_free_bits {l})"));
        s.push_str(&format!("  sink {}{note}\n", sink.sink));
        table(&mut s, &sink.formats, limit);
    }
    s
}

/// `policy init`: build the folder beside its destination, then rename it
/// into place, so that a folder that exists (and is not empty) is never
/// written into and a failure leaves nothing half-made.
fn init(dir: &Path, otel_genai: bool) -> u8 {
    let Some(files) = super::reported(write_starter(dir, otel_genai)) else {
        return exit::ERROR;
    };
    sayln!("wrote a starting policy to `{}`:", dir.display());
    for f in files {
        sayln!("  {}", dir.join(f).display());
    }
    let d = dir.display();
    sayln!("next:");
    sayln!("  tracegate policy check {d}");
    sayln!("  tracegate serve --policy {d}");
    exit::OK
}

fn write_starter(dir: &Path, otel_genai: bool) -> anyhow::Result<Vec<&'static str>> {
    use anyhow::Context;
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot use `{}`", dir.display())),
        Ok(m) if m.is_dir() && std::fs::read_dir(dir)?.next().is_none() => {}
        Ok(_) => anyhow::bail!(
            "`{}` exists and is not an empty folder; init never writes into an existing policy (choose another --dir)",
            dir.display()
        ),
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "policy".to_string());
    let tmp = dir.with_file_name(format!(".{name}.init-{}", std::process::id()));
    let build = || -> anyhow::Result<Vec<&'static str>> {
        std::fs::create_dir(&tmp).with_context(|| format!("cannot create `{}`", tmp.display()))?;
        let mut files = vec![("policy.toml", STARTER)];
        if otel_genai {
            files.push(("otel-genai.toml", STARTER_OTEL_GENAI));
        }
        for (f, text) in &files {
            std::fs::write(tmp.join(f), text)
                .with_context(|| format!("cannot write `{}`", tmp.join(f).display()))?;
        }
        std::fs::create_dir(tmp.join("windows"))?;
        Ok(files.iter().map(|(f, _)| *f).chain(["windows/"]).collect())
    };
    let written = build().and_then(|files| {
        // Onto a missing or empty folder only: rename fails on any other.
        std::fs::rename(&tmp, dir).with_context(|| {
            format!(
                "cannot create `{}` (it must not exist, or be an empty folder)",
                dir.display()
            )
        })?;
        Ok(files)
    });
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    written
}

fn check(path: &std::path::Path) -> u8 {
    let Some(policy) = super::load_policy(path) else {
        return exit::ERROR;
    };
    say!(
        "{}",
        describe(&policy, jiff::Timestamp::now(), &audit_view(&policy))
    );
    say!("{}", describe_capacity(&policy));
    exit::OK
}

/// What the policy's audit log says about its windows, for display.
#[derive(Debug, Default)]
pub struct AuditView {
    /// Windows the log closed for good.
    pub closed: HashMap<String, CloseCause>,
    /// The latest time the log vouches has passed (see
    /// [`crate::audit::time_floor`]): a window that ended by it is shown
    /// expired whatever the clock says, as a gate judges it.
    pub floor: Option<jiff::Timestamp>,
}

/// [`AuditView`] of the policy's audit log: empty when there is no log yet.
/// A log that cannot be read is reported and treated as empty here (this
/// command only displays; the gate itself fails closed).
pub fn audit_view(policy: &Policy) -> AuditView {
    AuditView {
        closed: closed_windows(policy),
        floor: log_floor(policy),
    }
}

/// The latest time the policy's audit log vouches has passed, if any. A
/// log that cannot be read is reported and vouches for nothing here.
fn log_floor(policy: &Policy) -> Option<jiff::Timestamp> {
    let a = policy.audit()?;
    let clock = crate::window::clock::SystemClock::new();
    crate::audit::time_floor(&a.path, a.anchor.as_deref(), &|t| clock.file_time(t))
        .inspect_err(|e| esayln!("tracegate: warning: {e}"))
        .ok()
        .flatten()
}

/// The clock, or what the policy's audit log vouches has passed when that
/// is later (see [`AuditView::floor`]).
pub fn trusted_now(policy: &Policy) -> jiff::Timestamp {
    crate::window::latest(jiff::Timestamp::now(), log_floor(policy))
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
    let key = match crate::audit::AuditKey::load_if(audit.key_file.as_deref()) {
        Ok(k) => k,
        Err(e) => {
            esayln!("tracegate: warning: {e}");
            return HashMap::new();
        }
    };
    match crate::audit::closed_windows(&audit.path, key.as_ref()) {
        Ok(c) => c,
        Err(e) => {
            esayln!("tracegate: warning: cannot read window closures from the audit log: {e}");
            HashMap::new()
        }
    }
}

/// The human summary of a valid policy.
pub fn describe(p: &Policy, now: jiff::Timestamp, log: &AuditView) -> String {
    let mut s = format!("policy `{}` is valid\n", p.source().display());
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
        p.standard().fields.len(),
        p.standard().evidence.len(),
        p.full().content_fields.len(),
        match p.standard().on_violation {
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
    s.push_str(&crate::policy::tls::describe_listeners(p.server()));
    s.push_str(&describe_windows(p, now, log));
    s.push_str(&describe_allowlists(p));
    s.push_str(&describe_sources(p));
    s
}

/// The allowlists in force, each rule under the file that wrote it or
/// `built-in`.
pub fn describe_allowlists(p: &Policy) -> String {
    let mut s = format!(
        "effective allowlists (a table extends the built-in rules unless it says `{REPLACE_DEFAULTS} = true`):\n"
    );
    for (path, set) in p.standard().allowlists() {
        let origin = |key: &str| {
            p.origins()
                .iter()
                .find(|o| o.key == key)
                .map(|o| o.file.display().to_string())
        };
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for (name, _) in set.iter() {
            let from = origin(&format!("{path}.{name}")).unwrap_or_else(|| "built-in".to_string());
            let shown = crate::finding::escape_key(name);
            match groups.iter_mut().find(|(f, _)| *f == from) {
                Some((_, names)) => names.push(shown),
                None => groups.push((from, vec![shown])),
            }
        }
        let how = match origin(&format!("{path}.{REPLACE_DEFAULTS}")) {
            Some(f) if set_replaces(p, path) => format!(", replacing the built-in rules ({f})"),
            _ => String::new(),
        };
        let rules = crate::io_text::counted(set.len() as u64, "rule", "rules");
        s.push_str(&format!("  [{path}] {rules}{how}\n"));
        groups.sort_by_key(|(f, _)| f != "built-in");
        for (from, names) in groups {
            s.push_str(&format!("    {from}: {}\n", names.join(", ")));
        }
    }
    s
}

/// Whether the allowlist at `path` said `replace_defaults = true` (its
/// origin is recorded either way; the value decides).
fn set_replaces(p: &Policy, path: &str) -> bool {
    p.replaced_allowlists().iter().any(|r| r == path)
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
    // Allowlist rules are listed with the allowlists above.
    let lists = p
        .standard()
        .allowlists()
        .map(|(path, _)| format!("{path}."));
    for o in p.origins() {
        if lists.iter().any(|l| o.key.starts_with(l.as_str())) {
            continue;
        }
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
    let o = &p.standard().otlp;
    for (prefix, set) in [
        ("", &p.standard().fields),
        ("evidence.", &p.standard().evidence),
        ("span_attributes.", &o.span_attributes),
        ("resource_attributes.", &o.resource_attributes),
        ("scope_attributes.", &o.scope_attributes),
        ("event_attributes.", &o.event_attributes),
        ("link_attributes.", &o.link_attributes),
        ("log_attributes.", &o.log_attributes),
        ("otlp.trace_state.", &o.trace_state),
    ] {
        set.free_text_paths(prefix, &mut out);
    }
    // The structural rules (`schema_url`, ...) may say `free_text` too.
    let s = &o.structure;
    let structure = crate::policy::rule::FieldSet::new(
        [
            ("schema_url", &s.schema_url),
            ("scope_name", &s.scope_name),
            ("scope_version", &s.scope_version),
            ("event_name", &s.event_name),
        ]
        .into_iter()
        .map(|(name, rule)| (name.to_string(), rule.clone()))
        .collect(),
    );
    structure.free_text_paths("otlp.", &mut out);
    out
}

/// The windows of a policy with their state and time left.
pub fn describe_windows(p: &Policy, now: jiff::Timestamp, log: &AuditView) -> String {
    let mut s = String::new();
    if p.windows().is_empty() {
        s.push_str("windows: none\n");
    } else {
        s.push_str("windows:\n");
        for w in p.windows() {
            let state = state_with_floor(w, now, log.floor, &log.closed);
            let judged = match state {
                WindowState::Active => crate::window::latest(now, log.floor),
                _ => now,
            };
            let when = match (state, time_left(w, judged)) {
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
