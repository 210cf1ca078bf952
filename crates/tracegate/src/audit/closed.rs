//! Reading entries back: for a gate that starts later (windows closed for
//! good stay closed) and for auditors (`check --audit`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::chain::{AuditKey, ZERO_PREV, link_hash};
use super::cursor::PrevOnly;
use super::entry::{AuditEvent, CloseCause, Entry, parse_entry};
use super::error::AuditError;
use super::lines::Snapshot;
use super::verify::TamperKind;

/// An iterator over the entries of a log, checking the chain as it goes
/// (seq continuity, `prev` links and time never running backwards; not the
/// checkpoint: a writer refuses
/// to append to a log that disagrees with its checkpoint, which is what
/// keeps a truncated log from enabling anything).
///
/// Yields `Err` and then stops at the first broken link
/// ([`AuditError::Broken`]), at a torn last line ([`AuditError::TornTail`])
/// or on a read error. Memory is bounded: one line at a time.
pub struct Entries<'k> {
    path: PathBuf,
    key: Option<&'k AuditKey>,
    snap: Snapshot,
    expected: u64,
    link: String,
    last_ts: Option<jiff::Timestamp>,
    done: bool,
}

crate::io_text::debug_as!(Entries<'_>, |e| "Entries" {
    path: e.path,
    expected: e.expected,
    ..
});

/// Read the entries of the log at `path`, checking the chain under `key`.
pub fn read_entries<'k>(path: &Path, key: Option<&'k AuditKey>) -> Result<Entries<'k>, AuditError> {
    Ok(Entries {
        path: path.to_path_buf(),
        key,
        snap: Snapshot::take(path, key, None)?,
        expected: 0,
        link: ZERO_PREV.to_owned(),
        last_ts: None,
        done: false,
    })
}

impl Iterator for Entries<'_> {
    type Item = Result<Entry, AuditError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.next_inner();
        if !matches!(item, Some(Ok(_))) {
            self.done = true;
        }
        item
    }
}

impl Entries<'_> {
    fn next_inner(&mut self) -> Option<Result<Entry, AuditError>> {
        let line = match self.snap.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => return None,
            Err(e) => return Some(Err(AuditError::read(&self.path, &e))),
        };
        if !line.complete && !line.too_long {
            return Some(Err(AuditError::TornTail {
                path: self.path.clone(),
            }));
        }
        let broken = |seq, kind| AuditError::Broken {
            path: self.path.clone(),
            seq,
            kind,
        };
        let parsed = (!line.too_long).then(|| parse_entry(line.body()));
        let Some(entry) = parsed.flatten() else {
            return Some(Err(broken(self.expected, TamperKind::Edited)));
        };
        if entry.seq < self.expected {
            return Some(Err(broken(self.expected, TamperKind::Inserted)));
        }
        if entry.seq > self.expected {
            return Some(Err(broken(self.expected, TamperKind::Deleted)));
        }
        // SECURITY: an entry is believed only if it links to the one before.
        let prev_ok =
            serde_json::from_slice::<PrevOnly>(line.body()).is_ok_and(|p| p.prev == self.link);
        if !prev_ok {
            return Some(Err(broken(
                self.expected.saturating_sub(1),
                TamperKind::Edited,
            )));
        }
        // SECURITY: time never runs backwards in a log a writer wrote.
        if self.last_ts.is_some_and(|last| entry.ts < last) {
            return Some(Err(broken(self.expected, TamperKind::Clock)));
        }
        self.last_ts = Some(entry.ts);
        self.link = link_hash(self.key, &line.bytes);
        self.expected += 1;
        Some(Ok(entry))
    }
}

/// Windows closed for good: every window with a `window_closed` entry whose
/// cause is `expired`, `budget_spent` or `removed`, mapped to the first such
/// cause. A later gate must not enable them again; an `expired` close
/// counts so that a wall clock set back cannot re-enable a window that
/// already ran out. `shutdown` (one process stopped) does not count.
///
/// Deliberately "any permanent close", not "the last close": a correct gate
/// never closes a permanently closed window again, so the two differ only
/// after a misbehaving writer, and then staying closed is the safe side.
///
/// Fails on any broken link or torn tail (fail closed: the caller keeps
/// full capture off).
pub fn closed_windows(
    path: &Path,
    key: Option<&AuditKey>,
) -> Result<HashMap<String, CloseCause>, AuditError> {
    let mut closed: HashMap<String, CloseCause> = HashMap::new();
    for entry in read_entries(path, key)? {
        if let AuditEvent::WindowClosed { window, cause, .. } = entry?.event
            && cause.is_permanent()
        {
            closed.entry(window).or_insert(cause);
        }
    }
    Ok(closed)
}
