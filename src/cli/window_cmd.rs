//! `tracegate window open|close|list`: manage window files in a policy
//! folder's `windows/`, validating against the whole policy first.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use jiff::{SignedDuration, Timestamp};

use super::exit;
use crate::audit::{AuditEvent, AuditKey, AuditLog, CloseCause, DenyWhy};
use crate::policy::compile::{parse_duration, valid_name};
use crate::policy::load::{MAX_POLICY_FILE_BYTES, PolicyFile, read_policy_files, read_regular};
use crate::policy::revoke::read_window;
use crate::policy::{Policy, Window};

/// `window` subcommands.
#[derive(Debug, Subcommand)]
pub enum WindowCommand {
    /// Open a capture window: validate it, then write `windows/<id>.toml`.
    ///
    /// Refused (exit 2, audited as `full_denied`) when the window would make
    /// the policy invalid: too long, a sink not on the full allowlist, an
    /// overlap with another window of the sink.
    Open(OpenArgs),
    /// Close a window early by setting its end to now (a pending window's
    /// file is removed).
    Close {
        /// The policy folder.
        #[arg(long, value_name = "DIR")]
        policy: PathBuf,
        /// The window's id.
        id: String,
    },
    /// List windows with their state and time left.
    List {
        /// The policy (folder or file).
        #[arg(long, value_name = "PATH")]
        policy: PathBuf,
    },
}

/// `window open` options.
#[derive(Debug, Args)]
pub struct OpenArgs {
    /// The policy folder.
    #[arg(long, value_name = "DIR")]
    pub policy: PathBuf,
    /// The sink to open (must be `full_allowed`).
    #[arg(long)]
    pub sink: String,
    /// How long the window stays open, e.g. `30m`, `2h`.
    #[arg(long = "for", value_name = "DURATION")]
    pub duration: String,
    /// Why (kept in the window file and the audit log).
    #[arg(long)]
    pub reason: String,
    /// Who asks for it.
    #[arg(long = "by", value_name = "WHO")]
    pub requested_by: String,
    /// When it starts (RFC 3339); now when absent.
    #[arg(long, value_name = "TIME")]
    pub start: Option<String>,
    /// Budget: most full records.
    #[arg(long)]
    pub max_records: Option<u64>,
    /// Budget: most bytes of full records.
    #[arg(long)]
    pub max_bytes: Option<u64>,
    /// The window's id; `<sink>-<start time>` when absent.
    #[arg(long)]
    pub id: Option<String>,
}

/// Run a `window` subcommand; returns the exit code.
pub fn run(cmd: &WindowCommand) -> u8 {
    let result = match cmd {
        WindowCommand::Open(args) => open(args),
        WindowCommand::Close { policy, id } => close(policy, id),
        WindowCommand::List { policy } => list(policy),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            super::report_error(&e);
            exit::ERROR
        }
    }
}

fn require_folder(dir: &Path) -> anyhow::Result<()> {
    if !dir.is_dir() {
        anyhow::bail!(
            "`{}` is not a policy folder; windows are files in a folder's windows/",
            dir.display()
        );
    }
    Ok(())
}

fn open(args: &OpenArgs) -> anyhow::Result<u8> {
    require_folder(&args.policy)?;
    let files = read_policy_files(&args.policy).map_err(|e| anyhow::anyhow!("{e}"))?;
    let current = Policy::from_files(&args.policy, &files).map_err(|e| {
        anyhow::anyhow!("{e}\nthe policy is invalid as it stands; fix it before opening a window")
    })?;
    let Some(length) = parse_duration(&args.duration).filter(|d| d.is_positive()) else {
        anyhow::bail!(
            "`--for {}` is not a positive duration (write it like `30m` or `2h`)",
            args.duration
        );
    };
    let start = match &args.start {
        Some(s) => s.parse::<Timestamp>().map_err(|_| {
            anyhow::anyhow!(
                "`--start {s}` is not an RFC 3339 time (write it like `2026-12-01T10:00:00Z`)"
            )
        })?,
        None => Timestamp::now().round(
            jiff::TimestampRound::new()
                .smallest(jiff::Unit::Second)
                .mode(jiff::RoundMode::Trunc),
        )?,
    };
    let end = start.checked_add(length)?;
    let id = match &args.id {
        Some(id) => id.clone(),
        None => format!("{}-{}", args.sink, start.strftime("%Y%m%dT%H%M%SZ")),
    };
    if !valid_name(&id) {
        anyhow::bail!(
            "window id `{id}` is not a valid name (letters, digits, `-`, `_`, `.`; at most 64)"
        );
    }
    let window = Window {
        id: id.clone(),
        sink: args.sink.clone(),
        start,
        end,
        reason: args.reason.clone(),
        requested_by: args.requested_by.clone(),
        max_records: args.max_records,
        max_bytes: args.max_bytes,
        file: PathBuf::new(),
    };
    let path = args.policy.join("windows").join(format!("{id}.toml"));
    if path.exists() {
        anyhow::bail!("window file `{}` already exists", path.display());
    }
    let text = render(&window);
    let mut with_window = files.clone();
    with_window.push(PolicyFile {
        path: path.clone(),
        text: text.clone(),
    });
    if let Err(errors) = Policy::from_files(&args.policy, &with_window) {
        eprintln!("{errors}");
        eprintln!("tracegate: window `{id}` refused; the policy is unchanged");
        // SECURITY: the audit log gets the error without policy values.
        let detail = errors.0.first().map(|e| e.public());
        audit(
            &current,
            &AuditEvent::FullDenied {
                sink: args.sink.clone(),
                window: Some(id),
                why: DenyWhy::InvalidWindow,
                detail,
            },
        );
        return Ok(exit::ERROR);
    }
    write_atomically(&path, text.as_bytes())?;
    println!(
        "opened window `{id}` for sink `{}`: {start} .. {end} ({})",
        args.sink,
        crate::policy::compile::friendly(length)
    );
    println!("  file {}", path.display());
    Ok(exit::OK)
}

/// The TOML of a window file.
fn render(w: &Window) -> String {
    let q = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut t = format!(
        "# Written by `tracegate window open`.\n[[window]]\nid = {}\nsink = {}\nstart = {}\nend = {}\nreason = {}\nrequested_by = {}\n",
        q(&w.id),
        q(&w.sink),
        q(&w.start.to_string()),
        q(&w.end.to_string()),
        q(&w.reason),
        q(&w.requested_by)
    );
    if let Some(n) = w.max_records {
        t.push_str(&format!("max_records = {n}\n"));
    }
    if let Some(n) = w.max_bytes {
        t.push_str(&format!("max_bytes = {n}\n"));
    }
    if w.max_records.is_none() && w.max_bytes.is_none() {
        // A window file must say it has no budget: a file cut short before
        // its budget lines is then refused, never enabled unbudgeted.
        t.push_str("unbounded = true\n");
    }
    t
}

fn close(dir: &Path, id: &str) -> anyhow::Result<u8> {
    require_folder(dir)?;
    // Only the window's own file is read and written: a close must work
    // while another file of the folder is invalid (closing only takes
    // rights away).
    let windows_dir = dir.join("windows");
    let Some((file, text, w)) = find_window_file(&windows_dir, id)? else {
        if let Ok(policy) = Policy::load(dir)
            && let Some(w) = policy.windows().iter().find(|w| w.id == id)
        {
            anyhow::bail!(
                "window `{id}` is defined in `{}`, not in windows/; edit that file to change it",
                w.file.display()
            );
        }
        anyhow::bail!("no window `{id}` in `{}`", windows_dir.display());
    };
    let now = Timestamp::now();
    if now >= w.end {
        println!("window `{id}` already ended at {}", w.end);
        return Ok(exit::OK);
    }
    // Audited when the policy is valid; otherwise the close still happens
    // and every running gate closes the window (audited) when it sees the
    // file change.
    match Policy::load(dir) {
        Ok(policy) => audit(
            &policy,
            &AuditEvent::WindowClosed {
                window: w.id.clone(),
                sink: w.sink.clone(),
                cause: CloseCause::Removed,
            },
        ),
        Err(e) => eprintln!(
            "tracegate: warning: the policy is invalid ({} errors), so this command cannot audit the close; running gates record it when they see the change",
            e.0.len()
        ),
    }
    let mut table: toml::Table = text.parse()?;
    let pending = now < w.start;
    let end = now.max(w.start.checked_add(SignedDuration::from_secs(1))?);
    if let Some(toml::Value::Array(items)) = table.get_mut("window") {
        if pending {
            items.retain(|t| {
                t.as_table()
                    .and_then(|t| t.get("id"))
                    .and_then(toml::Value::as_str)
                    != Some(id)
            });
        } else {
            for t in items.iter_mut().filter_map(toml::Value::as_table_mut) {
                if t.get("id").and_then(toml::Value::as_str) == Some(id) {
                    t.insert("end".into(), toml::Value::String(end.to_string()));
                    if !t.contains_key("max_records")
                        && !t.contains_key("max_bytes")
                        && !t.contains_key("unbounded")
                    {
                        t.insert("unbounded".into(), toml::Value::Boolean(true));
                    }
                }
            }
        }
    }
    let empty = matches!(table.get("window"), Some(toml::Value::Array(a)) if a.is_empty());
    if pending && empty && table.len() == 1 {
        std::fs::remove_file(&file)?;
        println!("removed pending window `{id}`");
    } else {
        let body = format!(
            "# Written by `tracegate window close`.\n{}",
            toml::to_string(&table)?
        );
        write_atomically(&file, body.as_bytes())?;
        if pending {
            println!("removed pending window `{id}`");
        } else {
            println!("closed window `{id}` at {end}");
        }
    }
    Ok(exit::OK)
}

/// The file of `windows_dir` that defines window `id` (its text and the
/// window): `<id>.toml` first, then every other `*.toml` there.
fn find_window_file(
    windows_dir: &Path,
    id: &str,
) -> anyhow::Result<Option<(PathBuf, String, Window)>> {
    let mut candidates = vec![windows_dir.join(format!("{id}.toml"))];
    if let Ok(entries) = std::fs::read_dir(windows_dir) {
        let mut others: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .filter(|p| !candidates.contains(p))
            .collect();
        others.sort();
        candidates.extend(others);
    }
    for path in candidates {
        let Ok(r) = read_regular(&path, MAX_POLICY_FILE_BYTES) else {
            continue;
        };
        let Ok(text) = String::from_utf8(r.bytes) else {
            continue;
        };
        match read_window(&text, id) {
            Ok(Some(w)) => return Ok(Some((path, text, w))),
            Ok(None) => {}
            Err(e) if path.file_stem().is_some_and(|s| s == id) => {
                anyhow::bail!("`{}`: {e}", path.display())
            }
            Err(_) => {}
        }
    }
    Ok(None)
}

fn list(path: &Path) -> anyhow::Result<u8> {
    let Some(policy) = super::load_policy(path) else {
        return Ok(exit::ERROR);
    };
    let closed = super::policy_cmd::closed_windows(&policy);
    print!(
        "{}",
        super::policy_cmd::describe_windows(&policy, Timestamp::now(), &closed)
    );
    Ok(exit::OK)
}

/// Best-effort audit entry from a command: reported on failure.
fn audit(policy: &Policy, event: &AuditEvent) {
    let Some(settings) = &policy.audit() else {
        return;
    };
    let key = match settings.key_file.as_deref().map(AuditKey::load).transpose() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("tracegate: warning: not audited: {e}");
            return;
        }
    };
    let result = AuditLog::open(&settings.path, key, settings.lock_timeout)
        .and_then(|mut log| log.append(event, Timestamp::now()));
    if let Err(e) = result {
        eprintln!("tracegate: warning: not audited: {e}");
    }
}

/// Write `path` via a temporary file, fsync and rename, then fsync the folder.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.tmp.{}",
        path.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default(),
        std::process::id()
    ));
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    std::fs::File::open(dir)?.sync_all()?;
    Ok(())
}
