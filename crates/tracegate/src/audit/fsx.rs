//! Opening the audit files so that nobody on the host can turn them against
//! the gate: a FIFO or device at a path never blocks or fools us, a planted
//! symlink is never followed where we create a file, and whatever we create
//! is private (files 0600, folders 0700).
//!
//! Every open here is: look at the path first (not a regular file: refused),
//! open with `O_NONBLOCK` (so a FIFO swapped in between cannot block the
//! open) and, for files we create ourselves, `O_NOFOLLOW`, then look again
//! at what was actually opened (`fstat`). `O_NONBLOCK` has no effect on the
//! reads and writes of a regular file, so the handle is used as it is.

use std::fs::{self, DirBuilder, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Mode of every file the audit log creates: the log, its checkpoint, its
/// anchor, its lock.
pub(crate) const FILE_MODE: u32 = 0o600;
/// Mode of every folder the audit log creates (the lock's folder).
pub(crate) const DIR_MODE: u32 = 0o700;

/// Largest key, checkpoint or anchor file read; real ones are under 300
/// bytes.
pub(crate) const MAX_SMALL_FILE: u64 = 4096;

/// How a path is to be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum How {
    /// Read only; follow symlinks when `follow` (key files are often
    /// symlinks into a secret mount; files we write never are).
    Read {
        /// Follow a symlink at the last component.
        follow: bool,
    },
    /// The log: read and append, created 0600 when missing; symlinks
    /// followed (an operator may link the log elsewhere).
    LogAppend,
    /// A fresh temporary file: write, must not exist (`O_EXCL`), 0600.
    CreateNew,
    /// A lock file: read and write, created 0600, never through a symlink.
    Lock,
}

/// Why a path could not be opened.
#[derive(Debug)]
pub(crate) enum OpenFail {
    /// Not a regular file (a FIFO, a device, a folder, a socket, or a
    /// symlink where none may be).
    NotRegular,
    /// The open itself failed.
    Io(io::Error),
}

impl OpenFail {
    /// Why, as the errors of a key file say it.
    pub(crate) fn cause(self) -> String {
        match self {
            OpenFail::NotRegular => "not a regular file (a FIFO, a device or a folder)".to_owned(),
            OpenFail::Io(e) => crate::io_text::io_cause(&e),
        }
    }
}

/// Open `path` as `how` says, refusing anything but a regular file without
/// ever blocking on it.
pub(crate) fn open_regular(path: &Path, how: How) -> Result<File, OpenFail> {
    let follow = matches!(how, How::Read { follow: true } | How::LogAppend);
    // SECURITY: look before opening: opening a FIFO for reading blocks until
    // a writer appears, which would hang the gate (and SIGTERM with it).
    let before = if follow {
        fs::metadata(path)
    } else {
        fs::symlink_metadata(path)
    };
    if let Ok(m) = before
        && !m.is_file()
    {
        return Err(OpenFail::NotRegular);
    }
    let mut flags = rustix::fs::OFlags::NONBLOCK.bits();
    if !follow {
        flags |= rustix::fs::OFlags::NOFOLLOW.bits();
    }
    let mut o = OpenOptions::new();
    match how {
        How::Read { .. } => {
            o.read(true);
        }
        How::LogAppend => {
            o.read(true).append(true).create(true);
        }
        How::CreateNew => {
            o.write(true).create_new(true);
        }
        How::Lock => {
            o.read(true).write(true).create(true);
        }
    }
    // The flag bits are small positive constants; the cast cannot wrap.
    o.mode(FILE_MODE).custom_flags(flags as i32);
    let file = o.open(path).map_err(|e| {
        if !follow && e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
            OpenFail::NotRegular
        } else {
            OpenFail::Io(e)
        }
    })?;
    // SECURITY: and look again at what was opened: the path may have been
    // swapped between the look and the open.
    let after = file.metadata().map_err(OpenFail::Io)?;
    if !after.is_file() {
        return Err(OpenFail::NotRegular);
    }
    Ok(file)
}

/// Read a small file (key, checkpoint, anchor) of at most `max` bytes, as
/// [`open_regular`] opens it. `Ok(None)` when it does not exist; a file
/// longer than `max` is returned cut to `max + 1` bytes so the caller can
/// tell.
pub(crate) fn read_small(path: &Path, follow: bool, max: u64) -> Result<Option<Vec<u8>>, OpenFail> {
    let file = match open_regular(path, How::Read { follow }) {
        Ok(f) => f,
        Err(OpenFail::Io(e)) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut buf = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(file, max + 1), &mut buf).map_err(OpenFail::Io)?;
    Ok(Some(buf))
}

/// When this process runs as root (an operator's `sudo tracegate window
/// close`), give what it just created to the owner of `like` (the log's
/// folder), so the gate's own user can still read and replace it: a 0600
/// checkpoint left owned by root would shut the gate out for good. A no-op
/// for any other user. Best effort: a failure leaves root's ownership,
/// which fails closed.
pub(crate) fn adopt_owner(created: &Path, like: &Path) {
    if !rustix::process::geteuid().is_root() {
        return;
    }
    if let Ok(m) = fs::metadata(like) {
        let _ = rustix::fs::chown(
            created,
            Some(rustix::fs::Uid::from_raw(m.uid())),
            Some(rustix::fs::Gid::from_raw(m.gid())),
        );
    }
}

/// Make sure `dir` is a private folder of ours: create it 0700 when missing;
/// when it exists it must be a real folder (not a symlink), owned by this
/// process's user (or this process is root), and closed to group and
/// others. `Err` holds a lowercase cause.
pub fn private_dir(dir: &Path) -> Result<(), String> {
    match DirBuilder::new().mode(DIR_MODE).create(dir) {
        Ok(()) => {
            if let Some(parent) = dir.parent() {
                adopt_owner(dir, parent);
            }
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(crate::io_text::io_cause(&e)),
    }
    let m = fs::symlink_metadata(dir).map_err(|e| crate::io_text::io_cause(&e))?;
    // SECURITY: a folder someone else made (or can enter) would let them
    // open the lock inside and hold it, stalling every append.
    if !m.is_dir() {
        return Err("it is not a folder".to_owned());
    }
    let me = rustix::process::geteuid();
    if !me.is_root() && m.uid() != me.as_raw() {
        return Err(format!(
            "it is owned by user {}, not by this process's user",
            m.uid()
        ));
    }
    let mode = m.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "it is open to other users (mode {mode:o}); make it mode 700"
        ));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn mkfifo(path: &Path) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
    }

    #[test]
    fn a_fifo_is_refused_at_once_in_every_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("fifo");
        mkfifo(&p);
        let start = Instant::now();
        for how in [
            How::Read { follow: true },
            How::Read { follow: false },
            How::LogAppend,
            How::CreateNew,
            How::Lock,
        ] {
            assert!(
                matches!(open_regular(&p, how), Err(OpenFail::NotRegular)),
                "{how:?}"
            );
        }
        // a symlink to the FIFO is refused too, followed or not
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        assert!(matches!(
            open_regular(&link, How::Read { follow: true }),
            Err(OpenFail::NotRegular)
        ));
        assert!(matches!(
            read_small(&link, true, 10),
            Err(OpenFail::NotRegular)
        ));
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn files_we_create_are_never_opened_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, b"x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(matches!(
            open_regular(&link, How::Lock),
            Err(OpenFail::NotRegular)
        ));
        assert!(matches!(
            open_regular(&link, How::Read { follow: false }),
            Err(OpenFail::NotRegular)
        ));
        assert!(open_regular(&link, How::Read { follow: true }).is_ok());
    }

    #[test]
    fn created_files_are_0600_and_private_dirs_0700() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        open_regular(&f, How::LogAppend).unwrap();
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let d = dir.path().join("d");
        private_dir(&d).unwrap();
        assert_eq!(
            fs::metadata(&d).unwrap().permissions().mode() & 0o777,
            0o700
        );
        // an open folder is refused, not silently fixed
        fs::set_permissions(&d, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(private_dir(&d).unwrap_err().contains("mode 755"));
        // a symlink to a private folder is not a private folder
        fs::set_permissions(&d, fs::Permissions::from_mode(0o700)).unwrap();
        let l = dir.path().join("l");
        std::os::unix::fs::symlink(&d, &l).unwrap();
        assert!(private_dir(&l).unwrap_err().contains("not a folder"));
    }

    #[test]
    fn small_reads_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        fs::write(&f, vec![b'a'; 100]).unwrap();
        assert_eq!(read_small(&f, false, 10).unwrap().unwrap().len(), 11);
        assert!(
            read_small(&dir.path().join("none"), false, 10)
                .unwrap()
                .is_none()
        );
    }
}
