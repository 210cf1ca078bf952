//! The clock's high-water mark beside the log (`FILE.clock`) and the
//! earliest "now" the log's files vouch for.
//!
//! A gate judges a window's end by `max(clock, floor)`, where the floor is
//! the latest of: the newest `ts` in the log, the high-water mark, and the
//! modification times of the log, its checkpoint, the mark and the anchor
//! (as the caller's clock reads file times: see
//! `window::clock::Clock::file_time`). Each of them is a time that has
//! already passed, whatever the clock says now, so a clock set back cannot
//! make a window that ended look open again once any of them is past its
//! end.
//!
//! The mark is `{"high_water":"<RFC 3339>"}`, replaced atomically (0600,
//! fsync, rename, fsync of the folder) under the log's append lock, and
//! never lowered. It carries no MAC: a MAC would not stop an older mark
//! being put back, and a forged later mark only ends windows early (fail
//! closed). Deleting or rolling it back loses only what it alone knew; the
//! log's own timestamps and its `window_closed` `expired` entries stay.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::checkpoint::{checkpoint_path, write_file_atomically};
use super::error::{AuditError, io_cause};
use super::fsx::{How, MAX_SMALL_FILE, OpenFail, open_regular, read_small};
use super::tail::{Tail, TailError, read_tail};

/// `FILE.clock` for a log at `FILE`.
pub fn high_water_path(log: &Path) -> PathBuf {
    let mut s: OsString = log.as_os_str().to_owned();
    s.push(".clock");
    PathBuf::from(s)
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Mark {
    #[serde(with = "super::entry::rfc3339")]
    high_water: Timestamp,
}

/// The high-water mark of the log at `log`: `None` when there is none.
///
/// A mark that is not a regular file or does not parse is
/// [`AuditError::HighWater`]: something other than a gate wrote it, and a
/// caller fails closed.
pub fn read_high_water(log: &Path) -> Result<Option<Timestamp>, AuditError> {
    let path = high_water_path(log);
    let invalid = |detail: &str| AuditError::HighWater {
        path: path.clone(),
        detail: detail.to_owned(),
    };
    // SECURITY: never block on a FIFO planted at the path, never follow a
    // symlink: the mark is only ever renamed into place.
    let bytes = match read_small(&path, false, MAX_SMALL_FILE) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        Err(OpenFail::NotRegular) => return Err(invalid("it is not a regular file")),
        Err(OpenFail::Io(e)) => return Err(AuditError::read(&path, &e)),
    };
    if bytes.len() as u64 > MAX_SMALL_FILE {
        return Err(invalid("it is too large"));
    }
    match serde_json::from_slice::<Mark>(&bytes) {
        Ok(m) => Ok(Some(m.high_water)),
        Err(_) => Err(invalid("it is not a clock mark")),
    }
}

/// Raise the high-water mark of the log at `log` to `ts`; a mark already at
/// or past `ts` is left alone (it never goes backwards). The caller holds
/// the log's append lock, so two gates cannot lower each other's mark.
/// Returns the mark now in place.
pub(crate) fn raise_high_water(log: &Path, ts: Timestamp) -> Result<Timestamp, AuditError> {
    if let Some(old) = read_high_water(log)?
        && old >= ts
    {
        return Ok(old);
    }
    let path = high_water_path(log);
    let mut body = serde_json::to_vec(&Mark { high_water: ts }).map_err(|e| {
        let e = io::Error::other(e);
        AuditError::HighWater {
            path: path.clone(),
            detail: io_cause(&e),
        }
    })?;
    body.push(b'\n');
    write_file_atomically(&path, &body).map_err(|(e, _)| AuditError::HighWater {
        path: path.clone(),
        detail: format!("cannot write it: {}", io_cause(&e)),
    })?;
    Ok(ts)
}

/// The latest time the log at `log` vouches has passed, read without
/// writing anything (for commands that only look, such as `policy check`):
/// its newest entry's `ts` and `files_floor`. A missing log vouches for
/// nothing; a torn or broken tail only for what its files do.
pub fn time_floor(
    log: &Path,
    anchor: Option<&Path>,
    file_time: &dyn Fn(SystemTime) -> Option<Timestamp>,
) -> Result<Option<Timestamp>, AuditError> {
    let read_err = |e: &io::Error| AuditError::read(log, e);
    let newest = match open_regular(log, How::Read { follow: true }) {
        Ok(f) => {
            let size = f.metadata().map_err(|e| read_err(&e))?.len();
            match read_tail(&f, size) {
                Ok(Tail::Last { ts, .. }) => Some(ts),
                Ok(Tail::Empty) | Err(TailError::Torn | TailError::Corrupt) => None,
                Err(TailError::Io(e)) => return Err(read_err(&e)),
            }
        }
        Err(OpenFail::Io(e)) if e.kind() == io::ErrorKind::NotFound => None,
        Err(OpenFail::NotRegular) => {
            return Err(AuditError::NotRegularFile {
                path: log.to_path_buf(),
            });
        }
        Err(OpenFail::Io(e)) => return Err(read_err(&e)),
    };
    Ok(newest.max(files_floor(log, anchor, file_time)?))
}

/// The latest time the log's files vouch for, apart from the newest entry
/// (the caller reads that from the log's tail): the high-water mark and the
/// modification times of the log, its checkpoint, the mark and `anchor`,
/// each read through `file_time` (which returns `None` for a time it cannot
/// place on its clock). Missing files count for nothing.
pub(crate) fn files_floor(
    log: &Path,
    anchor: Option<&Path>,
    file_time: &dyn Fn(SystemTime) -> Option<Timestamp>,
) -> Result<Option<Timestamp>, AuditError> {
    let mut floor = read_high_water(log)?;
    let mut paths = vec![
        log.to_path_buf(),
        checkpoint_path(log),
        high_water_path(log),
    ];
    paths.extend(anchor.map(Path::to_path_buf));
    for p in &paths {
        // SECURITY: the time a file was last written is a time that has
        // passed; a link's own time is not (it can be set freely).
        let modified = fs::metadata(p).ok().and_then(|m| m.modified().ok());
        if let Some(t) = modified.and_then(file_time) {
            floor = Some(floor.map_or(t, |f| f.max(t)));
        }
    }
    Ok(floor)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn the_mark_never_goes_backwards_and_is_private() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        assert_eq!(read_high_water(&log).unwrap(), None);
        let t1 = ts("2026-12-01T10:00:00Z");
        assert_eq!(raise_high_water(&log, t1).unwrap(), t1);
        assert_eq!(read_high_water(&log).unwrap(), Some(t1));
        let earlier = ts("2026-12-01T09:00:00Z");
        assert_eq!(raise_high_water(&log, earlier).unwrap(), t1, "not lowered");
        assert_eq!(read_high_water(&log).unwrap(), Some(t1));
        let mode = fs::metadata(high_water_path(&log))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(
            fs::read_to_string(high_water_path(&log)).unwrap(),
            "{\"high_water\":\"2026-12-01T10:00:00Z\"}\n"
        );
        // no temporary file left behind
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_mark_that_is_not_one_fails_closed() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        fs::write(high_water_path(&log), "{\"high_water\":\"yesterday\"}").unwrap();
        assert!(matches!(
            read_high_water(&log),
            Err(AuditError::HighWater { .. })
        ));
        assert!(raise_high_water(&log, ts("2026-12-01T10:00:00Z")).is_err());
        fs::remove_file(high_water_path(&log)).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", high_water_path(&log)).unwrap();
        assert!(matches!(
            read_high_water(&log),
            Err(AuditError::HighWater { .. })
        ));
    }

    #[test]
    fn the_floor_is_the_latest_of_the_mark_and_the_file_times() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        let anchor_dir = tempfile::tempdir().unwrap();
        let anchor = anchor_dir.path().join("anchor");
        let real = |t: SystemTime| Timestamp::try_from(t).ok();
        let none = |_: SystemTime| None;
        assert_eq!(files_floor(&log, None, &real).unwrap(), None);
        fs::write(&log, b"").unwrap();
        fs::write(&anchor, b"").unwrap();
        let t = SystemTime::now() + std::time::Duration::from_secs(3600);
        fs::File::options()
            .write(true)
            .open(&anchor)
            .unwrap()
            .set_modified(t)
            .unwrap();
        let floor = files_floor(&log, Some(&anchor), &real).unwrap().unwrap();
        assert_eq!(floor, Timestamp::try_from(t).unwrap(), "the anchor's time");
        assert_eq!(files_floor(&log, Some(&anchor), &none).unwrap(), None);
        let mark = ts("2099-01-01T00:00:00Z");
        raise_high_water(&log, mark).unwrap();
        assert_eq!(files_floor(&log, Some(&anchor), &none).unwrap(), Some(mark));
    }
}
