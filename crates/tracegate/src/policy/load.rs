//! Reading a policy path: one file, or a folder of `*.toml` files plus its
//! `windows/` subfolder, in name order. This file and `redaction.rs` are
//! the policy's only IO.
//!
//! Every file the policy reads (policy files, keyword lists, keys) goes
//! through [`read_regular`]: it must be a regular file (a FIFO would block
//! the reader, a device would never end), it is opened without blocking and
//! checked again after opening, and it is read up to a size cap.
//!
//! A folder entry that looks like policy but cannot be read as policy (a
//! dangling symlink, a FIFO or a folder named `*.toml`, a file named
//! `*.TOML`) is an error, never skipped: skipping the file that held
//! `[redact]` would load a policy without it. What *is* skipped (other
//! names, hidden files) is listed in [`PolicyRead::ignored`] so that
//! `policy check` can show it.

use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::error::{PolicyError, PolicyErrors};

/// Largest policy file read, in bytes.
pub const MAX_POLICY_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// Largest keyword list read, in bytes.
pub const MAX_KEYWORD_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Largest key file read, in bytes.
pub const MAX_KEY_FILE_BYTES: u64 = 64 * 1024;

/// How long a policy must stay unchanged before a gate acts on it: a file
/// modified less than this long ago may still be being written (a
/// half-written window file can lack its budget lines and so be *looser*
/// than its final form).
pub const SETTLE: Duration = Duration::from_secs(1);

/// One policy file's path and text.
#[derive(Debug, Clone)]
pub struct PolicyFile {
    /// The file's path.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// A folder entry that is not part of the policy, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// The entry.
    pub path: PathBuf,
    /// Why it is not policy (one lowercase phrase).
    pub why: &'static str,
}

/// Everything one read of a policy path found.
#[derive(Debug, Clone)]
pub struct PolicyRead {
    /// The policy files, in merge order.
    pub files: Vec<PolicyFile>,
    /// Folder entries that are not policy.
    pub ignored: Vec<Ignored>,
    /// Each file's modification time, as read (same order as `files`).
    pub modified: Vec<Option<SystemTime>>,
    /// A file whose size or modification time changed while it was read.
    pub changed_while_read: Option<PathBuf>,
}

impl PolicyRead {
    /// `None` when every file is older than `settle` at `now` and none
    /// changed while it was read; else the youngest file and how long
    /// until it is old enough (a modification time in the future counts as
    /// "now", so a skewed clock delays by at most `settle` per read).
    pub fn unsettled(&self, now: SystemTime, settle: Duration) -> Option<(PathBuf, Duration)> {
        if let Some(p) = &self.changed_while_read {
            return Some((p.clone(), settle));
        }
        let mut worst: Option<(PathBuf, Duration)> = None;
        for (f, m) in self.files.iter().zip(&self.modified) {
            let Some(m) = m else { continue };
            let age = now.duration_since(*m).unwrap_or(Duration::ZERO);
            if age < settle {
                let left = settle - age;
                if worst.as_ref().is_none_or(|(_, w)| left > *w) {
                    worst = Some((f.path.clone(), left));
                }
            }
        }
        worst
    }
}

/// How long until the youngest of `paths` is `settle` old (by its
/// modification time) at `now`; `None` when all are (or cannot be read:
/// the read that follows reports that).
pub fn young_files(paths: &[PathBuf], now: SystemTime, settle: Duration) -> Option<Duration> {
    paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok()?.modified().ok())
        .map(|m| now.duration_since(m).unwrap_or(Duration::ZERO))
        .filter(|age| *age < settle)
        .map(|age| settle - age)
        .max()
}

/// Read every file of the policy at `path`.
pub fn read_policy_files(path: &Path) -> Result<Vec<PolicyFile>, PolicyErrors> {
    read_policy(path).map(|r| r.files)
}

/// Read every file of the policy at `path`, with what was ignored and the
/// files' modification times.
pub fn read_policy(path: &Path) -> Result<PolicyRead, PolicyErrors> {
    let meta = std::fs::metadata(path).map_err(|e| {
        one(
            path,
            format!("cannot read policy: {}", missing_cause(path, &e)),
        )
    })?;
    let mut ignored = Vec::new();
    let mut errors = Vec::new();
    let paths = if meta.is_dir() {
        let mut paths = toml_files_in(path, false, &mut ignored, &mut errors)?;
        let windows = path.join("windows");
        match std::fs::symlink_metadata(&windows) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => errors.push(PolicyError::whole(
                &windows,
                format!(
                    "cannot read the windows folder: {}",
                    crate::io_text::io_cause(&e)
                ),
            )),
            Ok(_) => match std::fs::metadata(&windows) {
                Ok(m) if m.is_dir() => {
                    paths.extend(toml_files_in(&windows, true, &mut ignored, &mut errors)?)
                }
                Ok(m) => errors.push(PolicyError::whole(
                    &windows,
                    format!(
                        "`windows` in a policy folder must be a folder, not {}",
                        kind_name(&m)
                    ),
                )),
                Err(e) => errors.push(PolicyError::whole(
                    &windows,
                    format!(
                        "cannot read the windows folder: {}",
                        missing_cause(&windows, &e)
                    ),
                )),
            },
        }
        if paths.is_empty() && errors.is_empty() {
            return Err(one(
                path,
                "policy folder holds no `*.toml` file".to_string(),
            ));
        }
        paths
    } else {
        vec![path.to_path_buf()]
    };
    let mut files = Vec::with_capacity(paths.len());
    let mut modified = Vec::with_capacity(paths.len());
    let mut changed_while_read = None;
    for p in paths {
        match read_regular(&p, MAX_POLICY_FILE_BYTES) {
            Ok(r) => {
                if !r.stable && changed_while_read.is_none() {
                    changed_while_read = Some(p.clone());
                }
                match String::from_utf8(r.bytes) {
                    Ok(text) => {
                        files.push(PolicyFile { path: p, text });
                        modified.push(r.modified);
                    }
                    Err(e) => errors.push(PolicyError::whole(
                        &p,
                        format!(
                            "policy is not valid UTF-8 (byte {})",
                            e.utf8_error().valid_up_to()
                        ),
                    )),
                }
            }
            Err(cause) => errors.push(PolicyError::whole(
                &p,
                format!("cannot read policy: {cause}"),
            )),
        }
    }
    if errors.is_empty() {
        Ok(PolicyRead {
            files,
            ignored,
            modified,
            changed_while_read,
        })
    } else {
        Err(PolicyErrors(errors))
    }
}

/// The `*.toml` entries of a policy folder; everything else is listed in
/// `ignored` or, when it looks like policy but cannot be read as such, in
/// `errors`.
fn toml_files_in(
    dir: &Path,
    in_windows: bool,
    ignored: &mut Vec<Ignored>,
    errors: &mut Vec<PolicyError>,
) -> Result<Vec<PathBuf>, PolicyErrors> {
    let cannot_list = |e: std::io::Error| {
        let cause = crate::io_text::io_cause(&e);
        one(dir, format!("cannot list policy folder: {cause}"))
    };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot_list)? {
        let entry = entry.map_err(cannot_list)?;
        let p = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !in_windows && name == "windows" {
            // Read separately, after the top-level files.
            continue;
        }
        // Editors' and tools' temporaries (`.x.toml.swp`, `.x.toml.tmp.1`)
        // are not policy; `window open` writes through such a name.
        if name.starts_with('.') {
            ignored.push(Ignored {
                path: p,
                why: "hidden (a name starting with `.`)",
            });
            continue;
        }
        let ext = Path::new(name.as_ref())
            .extension()
            .map(|e| e.to_string_lossy().into_owned());
        match ext.as_deref() {
            Some("toml") => {}
            Some(e) if e.eq_ignore_ascii_case("toml") => {
                // SECURITY: a `*.TOML` file was meant as policy; skipping it
                // could drop the settings it holds.
                errors.push(PolicyError::whole(
                    &p,
                    "policy file names end in lowercase `.toml`; rename it (or move it out of the folder)",
                ));
                continue;
            }
            _ => {
                let why = match std::fs::symlink_metadata(&p) {
                    Ok(m) if m.is_dir() => "a folder (only `windows/` is read)",
                    _ => "not a `.toml` file",
                };
                ignored.push(Ignored { path: p, why });
                continue;
            }
        }
        // SECURITY: an entry named `*.toml` must be a readable regular file
        // (through symlinks); a dangling link, a FIFO or a folder is an
        // error, not a silently smaller policy.
        match std::fs::metadata(&p) {
            Ok(m) if m.is_file() => out.push(p),
            Ok(m) => errors.push(PolicyError::whole(
                &p,
                format!(
                    "a policy entry must be a regular file, not {}",
                    kind_name(&m)
                ),
            )),
            Err(e) => errors.push(PolicyError::whole(
                &p,
                format!("cannot read policy: {}", missing_cause(&p, &e)),
            )),
        }
    }
    out.sort();
    Ok(out)
}

/// What [`read_regular`] read.
#[derive(Debug)]
pub struct Regular {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Its modification time, when the platform has one.
    pub modified: Option<SystemTime>,
    /// Whether size and modification time were the same before and after
    /// the read (and the size matched what was read).
    pub stable: bool,
}

/// Read a regular file of at most `max` bytes without ever blocking on it.
///
/// The type is checked before opening (through symlinks), the file is
/// opened non-blocking (a FIFO swapped in between cannot hang the open) and
/// checked again on the open handle. The error is one lowercase phrase
/// without the path (callers name the file).
pub fn read_regular(path: &Path, max: u64) -> Result<Regular, String> {
    let before = std::fs::metadata(path).map_err(|e| missing_cause(path, &e))?;
    if !before.is_file() {
        return Err(format!("it is {}, not a regular file", kind_name(&before)));
    }
    let file = open_nonblocking(path).map_err(|e| crate::io_text::io_cause(&e))?;
    let opened = file.metadata().map_err(|e| crate::io_text::io_cause(&e))?;
    // SECURITY: checked again on the handle: the path may have been
    // replaced by a FIFO or device between the check and the open.
    if !opened.is_file() {
        return Err(format!("it is {}, not a regular file", kind_name(&opened)));
    }
    if opened.len() > max {
        return Err(format!("it is larger than {max} bytes"));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(opened.len()).unwrap_or(0));
    (&file)
        .take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| crate::io_text::io_cause(&e))?;
    if bytes.len() as u64 > max {
        return Err(format!("it is larger than {max} bytes"));
    }
    let after = file.metadata().map_err(|e| crate::io_text::io_cause(&e))?;
    let stable = after.len() == opened.len()
        && after.len() == bytes.len() as u64
        && after.modified().ok() == opened.modified().ok();
    Ok(Regular {
        bytes,
        modified: after.modified().ok(),
        stable,
    })
}

fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// The file's canonical path, through symlinks; for a path that does not
/// exist yet, the canonical form of its nearest existing ancestor with the
/// rest appended. Two paths with the same result name the same file.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(path) {
        return c;
    }
    let mut rest = Vec::new();
    let mut cur = path;
    while cur.parent().is_some() {
        if let Some(name) = cur.file_name() {
            rest.push(name.to_os_string());
        }
        let parent = crate::audit::parent_or_dot(cur);
        if let Ok(mut c) = std::fs::canonicalize(parent) {
            for n in rest.iter().rev() {
                c.push(n);
            }
            return c;
        }
        cur = parent;
    }
    path.to_path_buf()
}

/// A variable of the process environment, for `${env:VAR}` in a policy
/// ([`super::env`]).
pub fn process_env(name: &str) -> super::env::EnvValue {
    match std::env::var_os(name) {
        None => super::env::EnvValue::Unset,
        Some(v) => match v.into_string() {
            Ok(s) => super::env::EnvValue::Set(s),
            Err(_) => super::env::EnvValue::NotUnicode,
        },
    }
}

/// Where the kill switch of the policy at `policy` is: `DIR/capture-off`
/// for a folder, `FILE.capture-off` beside a single file.
pub fn kill_switch_path(policy: &Path) -> PathBuf {
    if policy.is_dir() {
        policy.join(super::KILL_SWITCH_NAME)
    } else {
        let mut name = policy
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(".");
        name.push(super::KILL_SWITCH_NAME);
        policy.with_file_name(name)
    }
}

/// Whether the kill switch of the policy at `policy` is engaged. Anything
/// at the marker's path counts, even what cannot be read: fail closed.
pub fn kill_switch_engaged(policy: &Path) -> bool {
    match std::fs::symlink_metadata(kill_switch_path(policy)) {
        Ok(_) => true,
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    }
}

/// "a folder", "a FIFO (named pipe)", ...
fn kind_name(m: &Metadata) -> &'static str {
    let t = m.file_type();
    [
        (t.is_dir(), "a folder"),
        (t.is_symlink(), "a symbolic link"),
        (t.is_fifo(), "a FIFO (named pipe)"),
        (t.is_socket(), "a socket"),
        (t.is_block_device() || t.is_char_device(), "a device"),
        (t.is_file(), "a regular file"),
    ]
    .into_iter()
    .find_map(|(is, name)| is.then_some(name))
    .unwrap_or("not a regular file")
}

/// An error from following `path`: a dangling symlink says so.
fn missing_cause(path: &Path, e: &std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::NotFound
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    {
        return "it is a symbolic link to nothing (dangling)".to_string();
    }
    crate::io_text::io_cause(e)
}

fn one(path: &Path, message: String) -> PolicyErrors {
    PolicyErrors(vec![PolicyError::whole(path, message)])
}

/// Wait `d` (between reads of a policy that is still settling).
pub fn pause(d: Duration) {
    std::thread::sleep(d);
}

/// A watcher's view of a policy path between reads: the content last
/// judged and content still settling. `serve`'s reload and the Python
/// package's watcher share it, so both judge a change at the same moment
/// and by the same rules; each then compiles, applies or refuses it its own
/// way.
#[derive(Debug, Clone)]
pub struct Reread {
    /// Digest (or read error) of the last content judged, good or bad:
    /// the same content is never judged (or audited) twice in a row.
    last: String,
    /// Content first seen while still settling, and when.
    pending: Option<(String, std::time::Instant)>,
}

/// What one [`Reread::look`] found.
#[derive(Debug)]
pub enum Look {
    /// The policy cannot be read: the public cause (no policy value),
    /// `fresh` when it differs from the last content judged.
    Unreadable {
        /// `PolicyErrors::public_summary` of the read.
        cause: String,
        /// Not the same failure as last time.
        fresh: bool,
    },
    /// The content and its digest (over the policy files and the files
    /// they refer to).
    Content {
        /// What the read found.
        read: PolicyRead,
        /// `compile::policy_digest` of it.
        digest: String,
    },
}

impl Reread {
    /// Start from the policy in force.
    pub fn new(current: &super::Policy) -> Reread {
        Reread {
            last: current.sha256().to_string(),
            pending: None,
        }
    }

    /// Read the policy at `path` and digest it together with the files the
    /// policy in force refers to (keyword lists and keys change under an
    /// unchanged policy file).
    pub fn look(&mut self, path: &Path, current: &super::Policy) -> Look {
        match read_policy(path) {
            Ok(read) => {
                let refs = super::redaction::rehash(current.referenced());
                let digest = super::compile::policy_digest(&read.files, &refs);
                Look::Content { read, digest }
            }
            Err(e) => {
                let cause = e.public_summary();
                let mark = format!("unreadable: {cause}");
                let fresh = mark != self.last;
                if fresh {
                    self.last = mark;
                    self.pending = None;
                }
                Look::Unreadable { cause, fresh }
            }
        }
    }

    /// Whether `digest` is the content judged last.
    pub fn judged_already(&self, digest: &str) -> bool {
        self.last == digest
    }

    /// `Ok` once `read` may be judged; else how long until its youngest
    /// file settles.
    ///
    /// SECURITY: judge only settled content. A file modified within
    /// [`SETTLE`] may still be being written (a window file without its
    /// budget lines yet must never be enabled with looser bounds than its
    /// final form): it is judged once unchanged by its modification time,
    /// or across two reads [`SETTLE`] apart.
    pub fn settled(
        &mut self,
        read: &PolicyRead,
        digest: &str,
        current: &super::Policy,
        now: std::time::Instant,
    ) -> Result<(), Duration> {
        let referenced: Vec<PathBuf> = current
            .referenced()
            .iter()
            .filter_map(|r| r.path.clone())
            .collect();
        let wall = SystemTime::now();
        let young = read
            .unsettled(wall, SETTLE)
            .map(|(_, d)| d)
            .into_iter()
            .chain(young_files(&referenced, wall, SETTLE))
            .max();
        if let Some(left) = young {
            let seen_long_enough = read.changed_while_read.is_none()
                && self
                    .pending
                    .as_ref()
                    .is_some_and(|(d, at)| d == digest && now.duration_since(*at) >= SETTLE);
            if !seen_long_enough {
                if self.pending.as_ref().is_none_or(|(d, _)| d != digest) {
                    self.pending = Some((digest.to_string(), now));
                }
                return Err(left);
            }
        }
        self.pending = None;
        self.last = digest.to_string();
        Ok(())
    }
}

/// The files of the policy in force that can still be read, for deciding
/// what a policy that cannot be read whole still grants
/// (`revoke::still_granted`).
pub fn readable_files(current: &super::Policy) -> Vec<PolicyFile> {
    current
        .files()
        .iter()
        .filter_map(|f| {
            let r = read_regular(f, MAX_POLICY_FILE_BYTES).ok()?;
            let text = String::from_utf8(r.bytes).ok()?;
            Some(PolicyFile {
                path: f.clone(),
                text,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_young_or_changing_file_is_unsettled_and_an_old_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("p.toml");
        std::fs::write(&p, "version = 1\n").unwrap();
        let read = read_policy(&p).unwrap();
        let now = SystemTime::now();
        let (file, left) = read.unsettled(now, SETTLE).unwrap();
        assert_eq!(file, p);
        assert!(left <= SETTLE);
        let old = now - Duration::from_secs(5);
        File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(read_policy(&p).unwrap().unsettled(now, SETTLE).is_none());
        // A modification time in the future is "now": it settles by content.
        let future = now + Duration::from_secs(3600);
        File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(future)
            .unwrap();
        let (_, left) = read_policy(&p).unwrap().unsettled(now, SETTLE).unwrap();
        assert_eq!(left, SETTLE);
        assert_eq!(
            young_files(std::slice::from_ref(&p), now, SETTLE),
            Some(SETTLE)
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("list.txt");
        let ok = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(ok.success());
        let e = read_regular(&p, 10).unwrap_err();
        assert!(e.contains("FIFO"), "{e}");
        // Opening it non-blocking (as read_regular does after the first
        // check) returns at once even with no writer.
        let f = open_nonblocking(&p).unwrap();
        assert!(!f.metadata().unwrap().is_file());
    }

    #[test]
    fn size_caps_hold() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("k");
        std::fs::write(&p, vec![b'k'; 11]).unwrap();
        assert!(read_regular(&p, 10).unwrap_err().contains("larger than 10"));
        assert_eq!(read_regular(&p, 11).unwrap().bytes.len(), 11);
    }

    #[cfg(unix)]
    #[test]
    fn paths_that_do_not_exist_yet_resolve_through_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::os::unix::fs::symlink(&real, dir.path().join("link")).unwrap();
        assert_eq!(
            canonical(&dir.path().join("link/new/x.jsonl")),
            canonical(&real).join("new/x.jsonl")
        );
    }

    #[test]
    fn the_kill_switch_sits_beside_the_policy() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(kill_switch_path(dir.path()), dir.path().join("capture-off"));
        let f = dir.path().join("p.toml");
        std::fs::write(&f, "").unwrap();
        assert_eq!(kill_switch_path(&f), dir.path().join("p.toml.capture-off"));
        assert!(!kill_switch_engaged(&f));
        std::fs::write(dir.path().join("p.toml.capture-off"), "").unwrap();
        assert!(kill_switch_engaged(&f));
    }
}
