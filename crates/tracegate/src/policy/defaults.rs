//! The built-in defaults: what a policy that leaves a section out gets.
//!
//! Written once, in two parts that [`text`] puts together: the plain
//! values (numbers, durations, addresses, enum members) are the defaults
//! of the key table (`#[spec = ...]` in [`super::raw`]), and the lists and
//! rule tables are TOML data in `defaults.toml` beside this file, which
//! holds every table header the plain values go under.
//!
//! **Invariant:** `policies/default.toml` is [`text`] byte for byte (a test
//! compares them; `tracegate policy print-default` prints it), so a
//! deleted or edited example file can never change what an absent section
//! means.

use std::fmt::Write as _;
use std::sync::LazyLock;

use super::keys::{Shape, TableShape, all_tables};

/// The lists and rule tables of the defaults, with the comments that
/// explain them, and every table header a plain default goes under.
const DATA: &str = include_str!("defaults.toml");

/// Where a plain value's comment starts, so the comments line up.
const COMMENT_COLUMN: usize = 35;

static TEXT: LazyLock<String> = LazyLock::new(generate);

/// The built-in defaults, in policy TOML (comments included).
pub fn text() -> &'static str {
    &TEXT
}

/// The plain defaults of the table at `path` (`""` for the top level,
/// `server`), each as a `key = value  # doc` line.
fn plain(tables: &[(String, bool, TableShape)], path: &str) -> String {
    let mut out = String::new();
    let Some((_, _, t)) = tables.iter().find(|(p, array, _)| p == path && !array) else {
        return out;
    };
    for k in (t.keys)() {
        let scalar = matches!(
            (k.shape)(),
            Shape::Str | Shape::Int | Shape::Float | Shape::Bool | Shape::Time
        );
        let Some(value) = k.spec.default.toml() else {
            continue;
        };
        if !scalar || k.spec.implicit {
            continue;
        }
        let line = format!("{} = {value}", k.name);
        let doc = k.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(
            out,
            "{line:<w$}# {doc}",
            w = COMMENT_COLUMN.max(line.len() + 1)
        );
    }
    out
}

/// [`DATA`] with the key table's plain defaults written under their
/// headers (the top level's before the first header's comment).
fn generate() -> String {
    let tables = all_tables(super::schema::root());
    let lines: Vec<&str> = DATA.lines().collect();
    let first_header = lines
        .iter()
        .position(|l| l.starts_with('['))
        .unwrap_or(lines.len());
    // The comment block that introduces the first table belongs to it.
    let mut top = first_header;
    while top > 0 && lines.get(top - 1).is_some_and(|l| l.starts_with('#')) {
        top -= 1;
    }
    let mut out = String::with_capacity(DATA.len() + 4096);
    for (i, line) in lines.iter().enumerate() {
        if i == top {
            out.push_str(&plain(&tables, ""));
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
        if let Some(path) = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .filter(|p| !p.starts_with('['))
        {
            out.push_str(&plain(&tables, path));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::keys::{Check, Dflt, Key};

    /// Every plain default of the key table reaches the generated text,
    /// under its own table, with its value.
    #[test]
    fn every_plain_default_is_written_under_its_table() {
        let parsed: toml::Table = text().parse().unwrap();
        let mut checked = 0;
        for (path, array, t) in all_tables(crate::policy::schema::root()) {
            if array || path.contains('<') || path == "field rule" {
                continue;
            }
            for k in (t.keys)() {
                let Some(want) = k.spec.default.toml() else {
                    continue;
                };
                if k.spec.implicit {
                    continue;
                }
                let mut at = &parsed;
                for part in path.split('.').filter(|p| !p.is_empty()) {
                    at = at
                        .get(part)
                        .and_then(|v| v.as_table())
                        .unwrap_or_else(|| panic!("no table `{path}` for `{}`", k.name));
                }
                let got = at
                    .get(k.name)
                    .unwrap_or_else(|| panic!("`{path}.{}` is not written", k.name));
                assert_eq!(got.to_string(), want, "`{path}.{}`", k.name);
                checked += 1;
            }
        }
        assert!(checked >= 30, "only {checked} defaults checked");
    }

    /// The typed accessors the compiled settings' `Default` read never
    /// meet a key without a default of their kind (they would return 0).
    #[test]
    fn keys_read_for_a_default_have_one_of_their_kind() {
        use crate::policy::raw::*;
        let ints: &[Key] = &[
            RawLimits::max_line_bytes,
            RawFleet::replicas,
            RawSink::spool_max_bytes,
            RawServer::max_body_bytes,
            RawServer::queue_records,
            RawServer::queue_bytes,
            RawServer::max_connections,
            RawServer::max_spans,
            RawServer::max_log_records,
            RawServer::max_events,
            RawServer::max_links,
            RawServer::max_attributes,
            RawServer::max_nesting,
            RawServer::decode_memory_bytes,
        ];
        for k in ints {
            assert!(
                matches!(k.spec.default, Dflt::Int(i) if i > 0),
                "{}",
                k.name
            );
        }
        let durations: &[Key] = &[
            RawFleet::store_timeout,
            RawFull::max_window,
            RawAudit::lock_timeout,
            RawServer::flush_interval,
            RawServer::retry_initial_interval,
            RawServer::retry_max_interval,
            RawServer::retry_max_elapsed,
            RawServer::header_read_timeout,
            RawServer::body_read_timeout,
            RawServer::idle_timeout,
        ];
        for k in durations {
            let max = match k.spec.check {
                Check::Duration { max, .. } => max,
                _ => jiff::SignedDuration::MAX,
            };
            assert!(
                matches!(k.spec.default, Dflt::Duration(d) if d.is_positive() && d <= max),
                "{}",
                k.name
            );
        }
        for k in [RawServer::listen, RawServer::grpc_listen] {
            assert!(matches!(k.spec.default, Dflt::Addr(_)), "{}", k.name);
        }
    }

    /// A default outside its own range would be refused as a user's value.
    #[test]
    fn every_default_is_within_its_range() {
        use crate::policy::keys::Check;
        for (_, _, t) in all_tables(crate::policy::schema::root()) {
            for k in (t.keys)() {
                match (k.spec.check, k.spec.default) {
                    (Check::Int { min, max }, Dflt::Int(d)) => {
                        assert!((min..=max).contains(&d), "{}", k.name)
                    }
                    (Check::Duration { max, .. }, Dflt::Duration(d)) => {
                        assert!(d.is_positive() && d <= max, "{}", k.name)
                    }
                    (Check::OneOf(m), Dflt::Str(d)) => assert!(m.contains(&d), "{}", k.name),
                    _ => {}
                }
            }
        }
    }
}
