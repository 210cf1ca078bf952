//! What a policy that cannot be loaded still says: which windows in force
//! it takes away.
//!
//! A refused reload leaves the last good policy in force, but a change
//! that only takes rights away (a window file removed or closed early, a
//! sink losing `full_allowed`) must take effect anyway: the operator who
//! closes a window while another file is broken must not capture on. So
//! the files are read as far as they parse, file by file, and a window in
//! force is taken away only when that content *clearly* takes it away
//! (SECURITY.md, "A refused reload"):
//!
//! - the file that defined it is gone, does not parse, or no longer
//!   defines it unchanged (deleted, end moved, budget changed: a window id
//!   names one definition);
//! - another readable file defines the same id differently;
//! - its sink is defined nowhere readable among the files of the policy in
//!   force, or some readable file defines the sink without
//!   `full_allowed = true`.
//!
//! A folder that fails only to *merge* (a stray copy of a file, a key set
//! in two files) proves nothing was meant to be taken away: an identical
//! second definition of a window or of a `full_allowed` sink keeps it, and
//! the last good policy stays in force whole. Anything unreadable that a
//! window depends on does not grant: fail closed.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use jiff::Timestamp;

use super::load::PolicyFile;
use super::{Policy, Window};

/// Ids of the windows of `current` that `files` do not take away (see the
/// module documentation).
pub fn still_granted(current: &Policy, files: &[PolicyFile]) -> HashSet<String> {
    // Every readable definition of each window id and each sink, with the
    // file it is in.
    let mut windows: HashMap<String, Vec<(PathBuf, Option<Window>)>> = HashMap::new();
    let mut sinks: HashMap<String, Vec<(PathBuf, bool)>> = HashMap::new();
    for f in files {
        let Ok(table) = f.text.parse::<toml::Table>() else {
            continue;
        };
        for s in tables(&table, "sink") {
            if let Some(name) = s.get("name").and_then(toml::Value::as_str) {
                let full = s
                    .get("full_allowed")
                    .and_then(toml::Value::as_bool)
                    .unwrap_or(false);
                sinks
                    .entry(name.to_string())
                    .or_default()
                    .push((f.path.clone(), full));
            }
        }
        for w in tables(&table, "window") {
            if let Some(id) = w.get("id").and_then(toml::Value::as_str) {
                windows
                    .entry(id.to_string())
                    .or_default()
                    .push((f.path.clone(), window(w, id)));
            }
        }
    }
    let in_force: HashSet<&PathBuf> = current.files().iter().collect();
    // SECURITY: a sink keeps full capture only if a file of the policy in
    // force still marks it `full_allowed` and no readable file says
    // otherwise; a stray identical copy neither grants nor takes away.
    let full_allowed = |sink: &str| {
        sinks.get(sink).is_some_and(|defs| {
            defs.iter().all(|(_, full)| *full)
                && defs.iter().any(|(path, _)| in_force.contains(path))
        })
    };
    current
        .windows()
        .iter()
        .filter(|w| {
            let defs = windows.get(&w.id).map(Vec::as_slice).unwrap_or_default();
            let all_same = defs
                .iter()
                .all(|(_, d)| d.as_ref().is_some_and(|d| w.same_definition(d)));
            // SECURITY: the file that defined it must still define it,
            // unchanged; a copy elsewhere cannot keep a window its own
            // file dropped or broke.
            let own = w.file.as_os_str().is_empty() || defs.iter().any(|(path, _)| *path == w.file);
            !defs.is_empty() && all_same && own && full_allowed(&w.sink)
        })
        .map(|w| w.id.clone())
        .collect()
}

/// The window `id` as the policy text `text` defines it: `Ok(None)` when
/// the text does not define it, an error when the text does not parse or
/// the window's fields do not read.
pub fn read_window(text: &str, id: &str) -> Result<Option<Window>, String> {
    let table = text
        .parse::<toml::Table>()
        .map_err(|e| format!("invalid TOML: {}", e.message()))?;
    match tables(&table, "window")
        .into_iter()
        .find(|w| w.get("id").and_then(toml::Value::as_str) == Some(id))
    {
        None => Ok(None),
        Some(w) => window(w, id)
            .map(Some)
            .ok_or_else(|| format!("window `{id}` has a field that does not read")),
    }
}

/// The 1-based line of `text` where window `id` is defined (its `id`
/// key), for a message that sends the operator there; `None` when the
/// text does not parse or does not define it.
pub fn window_line(text: &str, id: &str) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let tree = DeTable::parse(text).ok()?;
    let Some(DeValue::Array(items)) = tree.get_ref().get("window").map(|v| v.get_ref()) else {
        return None;
    };
    items.iter().find_map(|item| {
        let DeValue::Table(t) = item.get_ref() else {
            return None;
        };
        let (key, value) = t.get_key_value("id")?;
        (value.get_ref().as_str() == Some(id))
            .then(|| super::error::line_col(text, key.span().start).0)
    })
}

fn tables<'t>(table: &'t toml::Table, key: &str) -> Vec<&'t toml::Table> {
    match table.get(key) {
        Some(toml::Value::Array(items)) => items.iter().filter_map(toml::Value::as_table).collect(),
        _ => Vec::new(),
    }
}

/// The window a table defines, when every field reads.
fn window(t: &toml::Table, id: &str) -> Option<Window> {
    let text = |k: &str| t.get(k).and_then(toml::Value::as_str).map(str::to_string);
    let time = |k: &str| -> Option<Timestamp> {
        match t.get(k)? {
            toml::Value::String(s) => s.parse().ok(),
            toml::Value::Datetime(d) => d.to_string().parse().ok(),
            _ => None,
        }
    };
    let budget = |k: &str| -> Option<Option<u64>> {
        match t.get(k) {
            None => Some(None),
            Some(v) => v.as_integer().and_then(|n| u64::try_from(n).ok()).map(Some),
        }
    };
    Some(Window {
        id: id.to_string(),
        sink: text("sink")?,
        start: time("start")?,
        end: time("end")?,
        reason: text("reason")?,
        requested_by: text("requested_by")?,
        max_records: budget("max_records")?,
        max_bytes: budget("max_bytes")?,
        file: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    const MAIN: &str = "[audit]\npath = \"a.jsonl\"\n[[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:cap.jsonl\"\n";
    const W: &str = "[[window]]\nid = \"w\"\nsink = \"cap\"\nstart = \"2026-12-01T10:00:00Z\"\nend = \"2026-12-01T12:00:00Z\"\nreason = \"r\"\nrequested_by = \"me\"\nunbounded = true\n";

    fn file(path: &str, text: &str) -> PolicyFile {
        PolicyFile {
            path: PathBuf::from(path),
            text: text.to_string(),
        }
    }

    fn current() -> Policy {
        let files = [file("d/main.toml", MAIN), file("d/windows/w.toml", W)];
        Policy::from_files(Path::new("d"), &files).unwrap()
    }

    #[test]
    fn a_window_is_found_at_the_line_of_its_id() {
        let text = format!("{MAIN}\n# comment\n{W}[[window]]\nid = \"x\"\n");
        assert_eq!(window_line(&text, "w"), Some(10));
        assert_eq!(window_line(&text, "x"), Some(18));
        assert_eq!(window_line(&text, "nope"), None);
        assert_eq!(window_line("[[window]\n", "w"), None);
        assert_eq!(window_line(MAIN, "w"), None);
    }

    proptest::proptest! {
        /// Any text: no panic, and never a window that is not defined
        /// unchanged.
        #[test]
        fn arbitrary_text_never_grants_more(text in "\\PC{0,200}") {
            // Compiled once for every case: the cases test the text, not compiling.
            static CURRENT: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(current);
            let p: &Policy = &CURRENT;
            let files = [file("d/main.toml", MAIN), file("d/windows/w.toml", &text)];
            let kept = still_granted(p, &files);
            proptest::prop_assert!(kept.is_empty() || text.contains("\"w\""));
            let _ = read_window(&text, "w");
        }
    }

    #[test]
    fn an_unchanged_window_is_kept_even_beside_a_broken_file() {
        let p = current();
        let files = [
            file("d/main.toml", MAIN),
            file("d/windows/w.toml", W),
            file("d/windows/x.toml", "[[window]\nbroken"),
        ];
        assert!(still_granted(&p, &files).contains("w"));
    }

    #[test]
    fn removed_changed_unreadable_or_unallowed_windows_are_not_kept() {
        let p = current();
        let gone = [file("d/main.toml", MAIN)];
        assert!(still_granted(&p, &gone).is_empty());
        let closed = W.replace("12:00:00Z", "10:30:00Z");
        let changed = [file("d/main.toml", MAIN), file("d/windows/w.toml", &closed)];
        assert!(still_granted(&p, &changed).is_empty());
        let cut = [
            file("d/main.toml", MAIN),
            file("d/windows/w.toml", &W[..40]),
        ];
        assert!(still_granted(&p, &cut).is_empty());
        let main = MAIN.replace("full_allowed = true", "full_allowed = false");
        let unallowed = [file("d/main.toml", &main), file("d/windows/w.toml", W)];
        assert!(still_granted(&p, &unallowed).is_empty());
        let broken_main = [
            file("d/main.toml", "[[sink]\n"),
            file("d/windows/w.toml", W),
        ];
        assert!(still_granted(&p, &broken_main).is_empty());
        let twice_changed = [
            file("d/main.toml", MAIN),
            file("d/windows/w.toml", W),
            file("d/windows/v.toml", &closed),
        ];
        assert!(still_granted(&p, &twice_changed).is_empty());
        // The window's own file gone, an identical copy elsewhere: the
        // operator removed it; the copy does not keep it.
        let moved = [file("d/main.toml", MAIN), file("d/windows/v.toml", W)];
        assert!(still_granted(&p, &moved).is_empty());
        // The sink only in a stray file, its own file broken.
        let sink_copy = [
            file("d/main.toml", "[[sink]\n"),
            file("d/backup.toml", MAIN),
            file("d/windows/w.toml", W),
        ];
        assert!(still_granted(&p, &sink_copy).is_empty());
    }

    /// Issue 35 item 2: a folder that fails only to merge (a stray copy of
    /// a file) takes nothing away.
    #[test]
    fn a_stray_identical_copy_takes_nothing_away() {
        let p = current();
        let main_copy = [
            file("d/main.toml", MAIN),
            file("d/main-backup.toml", MAIN),
            file("d/windows/w.toml", W),
        ];
        assert!(still_granted(&p, &main_copy).contains("w"));
        let window_copy = [
            file("d/main.toml", MAIN),
            file("d/windows/w.toml", W),
            file("d/windows/w-copy.toml", W),
        ];
        assert!(still_granted(&p, &window_copy).contains("w"));
    }
}
