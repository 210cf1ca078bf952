//! `tracegate window open|close|list`: manage window files in a policy
//! folder's `windows/`, validating against the whole policy first.
//!
//! `open` and `close` hold a lock on the `windows/` folder from reading the
//! policy to writing the file, so two of them never validate against the
//! same state and both write (two windows that overlap, each valid alone).
//! A window file is created exclusively (a new name, never over another
//! file), and every refusal after the current policy could be read is
//! audited as `full_denied`.

use std::fs::{File, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use jiff::{SignedDuration, Timestamp};
use sha2::{Digest, Sha256};

use super::exit;
use crate::audit::{AuditEvent, CloseCause, DenyWhy};
use crate::io_text::io_cause;
use crate::policy::compile::{parse_duration, valid_name};
use crate::policy::load::{MAX_POLICY_FILE_BYTES, PolicyFile, read_policy_files, read_regular};
use crate::policy::revoke::read_window;
use crate::policy::{Policy, Window};
use crate::tls::PemCheck;

/// How far in the past `--start` may lie without `--backdate`: clock skew
/// between the operator's machine and the gate's, not a way to cover
/// records captured before the window was opened.
pub const START_SKEW: SignedDuration = crate::window::CLOCK_SKEW;

/// How far ahead `--start` may lie: a window is opened for work at hand,
/// not scheduled for a later month (issue 22 item 12).
pub const START_AHEAD: SignedDuration = SignedDuration::from_hours(7 * 24);

/// How long `window open` or `close` waits for another one on the same
/// policy folder.
const FOLDER_LOCK_WAIT: Duration = Duration::from_secs(10);

/// `window` subcommands.
#[derive(Debug, Subcommand)]
pub enum WindowCommand {
    /// Open a capture window: validate it, then write `windows/<id>.toml`.
    ///
    /// Refused (exit 2, audited as `full_denied`) when the window would make
    /// the policy invalid: too long, a sink not on the full allowlist, an
    /// overlap with another window of the sink; or when it starts more
    /// than a minute in the past without `--backdate`.
    Open(OpenArgs),
    /// Close a window early: a window file in windows/ gets its end set to
    /// now (a pending window's file is removed); a window written in a
    /// policy file itself is closed for good in the audit log
    /// (`window_closed`, cause `removed`) and the command says where it is
    /// written.
    Close {
        /// The policy (folder or file).
        #[arg(long, value_name = "PATH")]
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
    /// When it starts (RFC 3339); now when absent. At most a minute in the
    /// past unless `--backdate` is given.
    #[arg(long, value_name = "TIME")]
    pub start: Option<String>,
    /// Allow a `--start` further in the past, on purpose: recorded in the
    /// audit log (`window_backdated`) before the window file is written,
    /// and refused when that entry cannot be written. Auditors still count
    /// the window only from the moment a gate enabled it.
    #[arg(long, requires = "start")]
    pub backdate: bool,
    /// Budget: most full records.
    #[arg(long)]
    pub max_records: Option<u64>,
    /// Budget: most bytes of full records.
    #[arg(long)]
    pub max_bytes: Option<u64>,
    /// The window's id; `<sink>-<start time>-<8 hex>` when absent.
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
    super::reported(result).unwrap_or(exit::ERROR)
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

/// An exclusive lock on a policy folder's `windows/` (the folder itself),
/// released on drop.
struct FolderLock(File);

impl FolderLock {
    fn take(windows: &Path) -> anyhow::Result<FolderLock> {
        std::fs::create_dir_all(windows)?;
        let dir = File::open(windows)?;
        let start = Instant::now();
        loop {
            match dir.try_lock() {
                Ok(()) => return Ok(FolderLock(dir)),
                Err(TryLockError::WouldBlock) if start.elapsed() < FOLDER_LOCK_WAIT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(TryLockError::WouldBlock) => anyhow::bail!(
                    "`{}` is locked by another `tracegate window` command (waited {}s)",
                    windows.display(),
                    FOLDER_LOCK_WAIT.as_secs()
                ),
                Err(TryLockError::Error(e)) => {
                    anyhow::bail!("cannot lock `{}`: {}", windows.display(), io_cause(&e))
                }
            }
        }
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// A refusal of `window open`: printed, then audited as `full_denied`
/// (with only fixed text and names, never the reason or requester).
/// `id` is the window's id once known (`--id`, then the generated one).
struct Refusal<'a> {
    policy: &'a Policy,
    sink: &'a str,
    id: Option<&'a str>,
}

impl Refusal<'_> {
    fn refuse(&self, message: &str, detail: &str) -> u8 {
        esayln!("error: {message}");
        match self.id {
            Some(id) => esayln!("tracegate: window `{id}` refused; the policy is unchanged"),
            None => esayln!("tracegate: window refused; the policy is unchanged"),
        }
        let sink = if valid_name(self.sink) {
            self.sink.to_owned()
        } else {
            "(not a valid sink name)".to_owned()
        };
        if let Err(e) = audit(
            self.policy,
            &AuditEvent::FullDenied {
                sink,
                window: self.id.filter(|i| valid_name(i)).map(str::to_owned),
                why: DenyWhy::InvalidWindow,
                detail: Some(detail.to_owned()),
            },
        ) {
            esayln!("tracegate: warning: not audited: {e}");
        }
        exit::ERROR
    }
}

fn open(args: &OpenArgs) -> anyhow::Result<u8> {
    require_folder(&args.policy)?;
    let windows = args.policy.join("windows");
    let current_policy = || -> anyhow::Result<(Vec<PolicyFile>, Policy)> {
        let files = read_policy_files(&args.policy).map_err(|e| anyhow::anyhow!("{e}"))?;
        let current = Policy::from_files_checked(&args.policy, &files, &PemCheck).map_err(|e| {
            anyhow::anyhow!(
                "{e}\nthe policy is invalid as it stands; fix it before opening a window"
            )
        })?;
        Ok((files, current))
    };
    // Read once to know where refusals are audited...
    let (_, before) = current_policy()?;
    // SECURITY: validation and the write happen under one lock, so two
    // opens cannot both pass the overlap check and both write.
    let _lock = match FolderLock::take(&windows) {
        Ok(l) => l,
        Err(e) => {
            let refusal = Refusal {
                policy: &before,
                sink: &args.sink,
                id: args.id.as_deref(),
            };
            return Ok(refusal.refuse(
                &e.to_string(),
                "the policy folder is locked by another window command",
            ));
        }
    };
    // ...and again under the lock, which is what the window is checked
    // against.
    let (files, current) = current_policy()?;
    let mut refusal = Refusal {
        policy: &current,
        sink: &args.sink,
        id: args.id.as_deref(),
    };
    // SECURITY: "now" is the latest of the clock and what the audit log
    // vouches has passed, so a clock set back cannot pass a start in the
    // past off as present (and dodge `--backdate`, which is audited).
    let now = super::policy_cmd::trusted_now(&current);
    let Some(length) = parse_duration(&args.duration).filter(|d| d.is_positive()) else {
        return Ok(refusal.refuse(
            &format!(
                "`--for {}` is not a positive duration (write it like `30m` or `2h`)",
                args.duration
            ),
            "the duration is not a positive duration",
        ));
    };
    // Said in the operator's own terms (the flag and the policy key), not
    // as an error in a window file that was never written.
    let max = current.full().max_window;
    if length > max {
        return Ok(refusal.refuse(
            &format!(
                "`--for {}` is longer than `[full] max_window` ({})",
                args.duration,
                crate::policy::compile::friendly(max)
            ),
            "the window is longer than `[full] max_window`",
        ));
    }
    let start = match args.start.as_ref().map(|s| (s, s.parse::<Timestamp>())) {
        Some((_, Ok(t))) => t,
        Some((s, Err(_))) => {
            return Ok(refusal.refuse(
                &format!(
                    "`--start {s}` is not an RFC 3339 time (write it like `2026-12-01T10:00:00Z`)"
                ),
                "the start is not an RFC 3339 time",
            ));
        }
        None => now.round(
            jiff::TimestampRound::new()
                .smallest(jiff::Unit::Second)
                .mode(jiff::RoundMode::Trunc),
        )?,
    };
    let end = start.checked_add(length)?;
    if !valid_name(&args.sink) {
        return Ok(refusal.refuse(
            "`--sink` is not a valid sink name (letters, digits, `-`, `_`, `.`; at most 64)",
            "the sink is not a valid name",
        ));
    }
    let id = match &args.id {
        Some(id) => id.clone(),
        None => generated_id(&args.sink, start),
    };
    refusal.id = Some(&id);
    if !valid_name(&id) {
        refusal.id = None;
        return Ok(refusal.refuse(
            "the window id is not a valid name (letters, digits, `-`, `_`, `.`; at most 64)",
            "the window id is not a valid name",
        ));
    }
    // SECURITY: a start in the past would let `check --sink` accept records
    // captured before anyone opened the window; only an explicit, audited
    // `--backdate` allows it.
    let past = now.duration_since(start);
    let backdated = past > START_SKEW;
    if backdated && !args.backdate {
        return Ok(refusal.refuse(
            &format!(
                "`--start` is {}s in the past (more than {}s of clock skew); pass --backdate to open a back-dated window on purpose (it is audited)",
                past.as_secs(),
                START_SKEW.as_secs()
            ),
            "the start is in the past and --backdate was not given",
        ));
    }
    let ahead = start.duration_since(now);
    if ahead > START_AHEAD {
        return Ok(refusal.refuse(
            &format!(
                "`--start` is {} ahead; a window may start at most {} from now",
                crate::policy::compile::friendly(ahead),
                crate::policy::compile::friendly(START_AHEAD)
            ),
            "the start is too far ahead",
        ));
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
    let path = windows.join(format!("{id}.toml"));
    let exists = || {
        let message = format!("window file `{}` already exists", path.display());
        refusal.refuse(&message, "a window file with this id already exists")
    };
    if std::fs::symlink_metadata(&path).is_ok() {
        return Ok(exists());
    }
    let text = render(&window);
    let mut with_window = files.clone();
    with_window.push(PolicyFile {
        path: path.clone(),
        text: text.clone(),
    });
    if let Err(errors) = Policy::from_files_checked(&args.policy, &with_window, &PemCheck) {
        for e in &errors.0 {
            if e.file == path {
                // The window's file was never written: say what is wrong
                // with the window, not a place in a file that is not there.
                esayln!("error: the window would be invalid: {}", e.message);
                if let Some(hint) = &e.hint {
                    esayln!("  help: {hint}");
                }
            } else {
                esayln!("error: {e}");
            }
        }
        // SECURITY: the audit log gets the error without policy values.
        let detail = errors
            .0
            .first()
            .map_or_else(|| "the policy would be invalid".to_owned(), |e| e.public());
        return Ok(refusal.refuse("the window would make the policy invalid", &detail));
    }
    if backdated {
        // SECURITY: the back-dating is on record before the window exists;
        // if it cannot be recorded, the window is not opened.
        let event = AuditEvent::WindowBackdated {
            window: id.clone(),
            sink: args.sink.clone(),
            start,
            end,
            requested_by: args.requested_by.clone(),
        };
        if let Err(e) = audit(&current, &event) {
            esayln!("error: the back-dating could not be audited: {e}");
            esayln!("tracegate: window `{id}` refused; the policy is unchanged");
            return Ok(exit::ERROR);
        }
    }
    if !create_exclusive(&path, text.as_bytes())? {
        return Ok(exists());
    }
    sayln!(
        "opened window `{id}` for sink `{}`: {start} .. {end} ({})",
        args.sink,
        crate::policy::compile::friendly(length)
    );
    sayln!("  file {}", path.display());
    Ok(exit::OK)
}

/// `<sink>-<start>-<8 hex>`, at most 64 bytes: the suffix keeps two opens
/// in the same second apart (distinct, not secret: a hash of the process
/// id, the clock's nanoseconds and a counter), and the file is created
/// exclusively anyway.
fn generated_id(sink: &str, start: Timestamp) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let stamp = start.strftime("%Y%m%dT%H%M%SZ").to_string();
    let mut h = Sha256::new();
    h.update(std::process::id().to_le_bytes());
    h.update(Timestamp::now().as_nanosecond().to_le_bytes());
    h.update(COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    let digest = h.finalize();
    let suffix = hex::encode(digest.get(..4).unwrap_or_default());
    let room = 64usize.saturating_sub(stamp.len() + suffix.len() + 2);
    // A valid sink name is ASCII, so cutting at a byte is cutting at a char.
    let sink_part = sink.get(..sink.len().min(room)).unwrap_or(sink);
    format!("{sink_part}-{stamp}-{suffix}")
}

/// Create `path` with `bytes`, only if nothing is at `path`: written to a
/// temporary file, fsynced, then hard-linked to its name (which fails when
/// the name exists, like `O_EXCL`, and never shows a half-written file),
/// then the folder is fsynced. `Ok(false)` when the name was taken.
fn create_exclusive(path: &Path, bytes: &[u8]) -> anyhow::Result<bool> {
    let (dir, tmp) = write_temp_beside(path, bytes)?;
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => {
            File::open(dir)?.sync_all()?;
            Ok(true)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e.into()),
    }
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

fn close(path: &Path, id: &str) -> anyhow::Result<u8> {
    if !path.is_dir() {
        return close_in_policy_file(path, id);
    }
    let dir = path;
    let _lock = FolderLock::take(&dir.join("windows"))?;
    // Only the window's own file is read and written: a close must work
    // while another file of the folder is invalid (closing only takes
    // rights away).
    let windows_dir = dir.join("windows");
    let Some((file, text, w)) = find_window_file(&windows_dir, id)? else {
        return close_in_policy_file(dir, id);
    };
    let now = Timestamp::now();
    if now >= w.end {
        // The clock may be ahead: the close is audited all the same, so the
        // window stays closed for good when the clock is put right.
        if let Ok(policy) = Policy::load(dir)
            && let Err(e) = audit_removed(&policy, &w)
        {
            esayln!("tracegate: warning: not audited: {e}");
        }
        sayln!("window `{id}` already ended at {}", w.end);
        return Ok(exit::OK);
    }
    // Audited when the policy is valid; otherwise the close still happens
    // and every running gate closes the window (audited) when it sees the
    // file change.
    match Policy::load_checked(dir, &PemCheck) {
        Ok(policy) => {
            if let Err(e) = audit_removed(&policy, &w) {
                esayln!("tracegate: warning: not audited: {e}");
            }
        }
        Err(e) => esayln!(
            "tracegate: warning: the policy is invalid ({}), so this command cannot audit the close; running gates record it when they see the change",
            crate::io_text::counted(e.0.len() as u64, "error", "errors")
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
        sayln!("removed pending window `{id}`");
    } else {
        let body = format!(
            "# Written by `tracegate window close`.\n{}",
            toml::to_string(&table)?
        );
        write_atomically(&file, body.as_bytes())?;
        if pending {
            sayln!("removed pending window `{id}`");
        } else {
            sayln!("closed window `{id}` at {end}");
        }
    }
    Ok(exit::OK)
}

/// Close window `id` written in a policy file itself (the main file of a
/// folder, or a policy that is one file), not in windows/.
///
/// The operator's file is not rewritten (it is theirs: comments, layout,
/// perhaps under version control); the close is a `window_closed` entry
/// with cause `removed`, which is permanent for the window id: every
/// running gate follows the log and stops using the window within a
/// second, and every later gate reads it and never enables the window
/// again. Closing early must always be possible, so when the entry cannot
/// be written the command names the two ways that need no audit log: the
/// kill switch and deleting the window from its file.
fn close_in_policy_file(path: &Path, id: &str) -> anyhow::Result<u8> {
    let files = read_policy_files(path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let windows_dir = path.join("windows");
    let Some((file, line)) = files
        .iter()
        .filter(|f| !f.path.starts_with(&windows_dir))
        .find_map(|f| {
            crate::policy::revoke::window_line(&f.text, id).map(|line| (f.path.clone(), line))
        })
    else {
        anyhow::bail!(
            "no window `{id}` in `{}`{}",
            path.display(),
            if path.is_dir() {
                " (neither in windows/ nor in a policy file)"
            } else {
                ""
            }
        );
    };
    let at = format!("{}:{line}", file.display());
    let other_ways = format!(
        "to stop full capture now without the audit log, run `tracegate capture off --policy {}` (the kill switch); to close the window, delete it from {at} (a change that only takes rights away applies even while the policy is invalid)",
        path.display()
    );
    let policy = match Policy::load(path) {
        Ok(p) => p,
        Err(e) => {
            esayln!("{e}");
            anyhow::bail!(
                "window `{id}` is written at {at}, and the policy is invalid, so its close cannot be audited; {other_ways}"
            );
        }
    };
    let Some(w) = policy.windows().iter().find(|w| w.id == id).cloned() else {
        anyhow::bail!("window `{id}` at {at} is not in the policy as loaded");
    };
    if Timestamp::now() >= w.end {
        sayln!("window `{id}` already ended at {} ({at})", w.end);
        return Ok(exit::OK);
    }
    if let Some(cause) = super::policy_cmd::closed_windows(&policy).get(id) {
        sayln!("window `{id}` is already closed for good ({cause}); it is written at {at}");
        return Ok(exit::OK);
    }
    if policy.audit().is_none() {
        // A valid policy with a window has an audit log; this is defence.
        anyhow::bail!(
            "window `{id}` is written at {at} and the policy has no [audit] path; {other_ways}"
        );
    }
    // SECURITY: the close is on record before the command says it is done;
    // every gate honours it from the log (a permanent cause).
    if let Err(e) = audit_removed(&policy, &w) {
        anyhow::bail!("the close of window `{id}` could not be audited: {e}; {other_ways}");
    }
    sayln!(
        "closed window `{id}` for good (audited as `window_closed`, cause `removed`): running gates stop using it within a second and no gate enables it again"
    );
    sayln!(
        "  it is still written at {at}; delete it there when convenient (its id cannot be opened again)"
    );
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
    let view = super::policy_cmd::audit_view(&policy);
    say!(
        "{}",
        super::policy_cmd::describe_windows(&policy, Timestamp::now(), &view)
    );
    Ok(exit::OK)
}

/// Append an audit entry from a command, to the log (with its key and
/// anchor) the policy names. `Ok` when there is no `[audit]` at all.
fn audit(policy: &Policy, event: &AuditEvent) -> Result<(), crate::audit::AuditError> {
    let Some(settings) = policy.audit() else {
        return Ok(());
    };
    let mut log = crate::window::budget::open_configured(settings)?;
    log.set_replica_id(Some(crate::fleet::replica_id(policy.fleet())));
    log.append(event, Timestamp::now())?;
    Ok(())
}

/// Audit the close of `w` by the operator (cause `removed`).
fn audit_removed(policy: &Policy, w: &Window) -> Result<(), crate::audit::AuditError> {
    let event = AuditEvent::WindowClosed {
        window: w.id.clone(),
        sink: w.sink.clone(),
        cause: CloseCause::Removed,
    };
    audit(policy, &event)
}

/// Write `path` via a temporary file, fsync and rename, then fsync the folder.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
    let (dir, tmp) = write_temp_beside(path, bytes)?;
    std::fs::rename(&tmp, path)?;
    std::fs::File::open(dir)?.sync_all()?;
    Ok(())
}

/// Write `bytes` to a temporary file beside `path`, fsynced (removed again
/// when the write fails); returns the folder and the temporary file.
fn write_temp_beside<'p>(path: &'p Path, bytes: &[u8]) -> io::Result<(&'p Path, PathBuf)> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy());
    let tmp = dir.join(format!(
        ".{}.tmp.{}",
        name.unwrap_or_default(),
        std::process::id()
    ));
    // SECURITY: a fresh temporary file, never one planted at the name (a
    // symlink there would redirect the write).
    let _ = std::fs::remove_file(&tmp);
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    match written {
        Ok(()) => Ok((dir, tmp)),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}
