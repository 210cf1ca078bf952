//! `${env:VAR}` in policy string values, as the OpenTelemetry Collector's
//! configuration has it, for the keys where a deployment legitimately
//! differs (where `serve` listens, where a standard sink writes).
//!
//! Expansion is refused everywhere else: a key that decides what reaches
//! a sink (allowlists, content lists, `full_allowed`, a full sink's
//! output), when (windows), how it is hidden (redaction, keys) or how it
//! is audited (`[audit]`) must be written in the policy, where a review
//! and the policy's digest see it, not in whatever environment a process
//! happens to start with. A new key is refused until it is added to
//! [`EXPANDABLE`]: fail closed.
//!
//! - `${env:NAME}` is replaced by the variable's value; `NAME` is
//!   `[A-Za-z_][A-Za-z0-9_]*`. An unset variable, a value that is not
//!   UTF-8, or any other `${...}` is an error. `$${` writes a literal `${`.
//! - The value is not expanded again.
//! - Every variable used, with a hash of its value, is part of the
//!   policy's digest (see [`super::Referenced`]), so a changed variable is
//!   a changed policy in the audit log.
//!
//! This module does no IO: the lookup is passed in (the process
//! environment, from [`super::load::process_env`]).

use std::ops::Range;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::keys::dotted;

/// What a variable lookup found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvValue {
    /// Set, with this value.
    Set(String),
    /// Not set.
    Unset,
    /// Set, but not valid UTF-8.
    NotUnicode,
}

/// A variable lookup.
pub type Lookup<'a> = &'a dyn Fn(&str) -> EnvValue;

/// The keys whose string values may hold `${env:VAR}` (dotted; an entry
/// of `[[sink]]` is `sink.output`).
pub const EXPANDABLE: &[&str] = &[
    "server.listen",
    "server.grpc_listen",
    "server.flush_interval",
    "server.header_read_timeout",
    "server.body_read_timeout",
    "server.idle_timeout",
    // Only for a sink that is not `full_allowed` (checked below): where
    // a standard sink writes, never where content goes.
    "sink.output",
    "source.path",
];

/// One use of a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvUse {
    /// The variable.
    pub var: String,
    /// The dotted key it was used in.
    pub key: String,
    /// Where (the string's span).
    pub span: Range<usize>,
    /// Its value, for the policy's digest (never shown).
    pub value: String,
}

/// A refused or failed expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvProblem {
    /// The string's span.
    pub span: Range<usize>,
    /// What is wrong (names the variable and the key, never the value).
    pub message: String,
    /// What to do.
    pub hint: String,
    /// The dotted key.
    pub key: String,
    /// Whether the value was taken out (a reference that could not be
    /// expanded: the key then takes its default, never the raw text).
    pub removed: bool,
}

/// Expand every `${env:VAR}` of a file's tree, in place.
pub fn expand(
    root: &mut DeTable<'_>,
    lookup: Lookup<'_>,
    uses: &mut Vec<EnvUse>,
    problems: &mut Vec<EnvProblem>,
) {
    walk_table(root, "", false, lookup, uses, problems);
}

fn walk_table(
    t: &mut DeTable<'_>,
    path: &str,
    full_sink: bool,
    lookup: Lookup<'_>,
    uses: &mut Vec<EnvUse>,
    problems: &mut Vec<EnvProblem>,
) {
    let mut failed = Vec::new();
    for (k, v) in t.iter_mut() {
        let sub = dotted(path, k.get_ref());
        let before = problems.len();
        walk_value(v, &sub, full_sink, lookup, uses, problems);
        // A string of an expandable key that did not expand is taken out.
        if v.get_ref().is_str() && EXPANDABLE.contains(&sub.as_str()) && problems.len() > before {
            failed.push(k.get_ref().to_string());
            for p in &mut problems[before..] {
                p.removed = true;
            }
        }
    }
    for k in failed {
        t.remove(k.as_str());
    }
}

fn walk_value(
    v: &mut Spanned<DeValue<'_>>,
    path: &str,
    full_sink: bool,
    lookup: Lookup<'_>,
    uses: &mut Vec<EnvUse>,
    problems: &mut Vec<EnvProblem>,
) {
    let span = v.span();
    match v.get_mut() {
        DeValue::String(s) => {
            if let Some(new) = expand_one(s, path, span, full_sink, lookup, uses, problems) {
                *s = std::borrow::Cow::Owned(new);
            }
        }
        DeValue::Array(items) => {
            for item in items.iter_mut() {
                // An array of `[[sink]]` tables: each says whether it is full.
                let full = match item.get_ref() {
                    DeValue::Table(t) if path == "sink" => t
                        .get("full_allowed")
                        .and_then(|f| f.get_ref().as_bool())
                        .unwrap_or(false),
                    _ => full_sink,
                };
                walk_value(item, path, full, lookup, uses, problems);
            }
        }
        DeValue::Table(t) => walk_table(t, path, full_sink, lookup, uses, problems),
        _ => {}
    }
}

/// The expanded string, or `None` when it holds no reference (or an
/// error was recorded).
fn expand_one(
    s: &str,
    path: &str,
    span: Range<usize>,
    full_sink: bool,
    lookup: Lookup<'_>,
    uses: &mut Vec<EnvUse>,
    problems: &mut Vec<EnvProblem>,
) -> Option<String> {
    let mut problem = |message: String, hint: &str| {
        problems.push(EnvProblem {
            span: span.clone(),
            message,
            hint: hint.to_string(),
            key: path.to_string(),
            removed: false,
        })
    };
    let allowed = EXPANDABLE.contains(&path);
    if !allowed {
        if s.contains("${env:") {
            // SECURITY: a key that decides what reaches a sink, when, or
            // how it is redacted or audited is never taken from the
            // environment.
            problem(
                format!(
                    "`${{env:...}}` is not expanded in `{}`",
                    super::error::shown(path)
                ),
                &format!(
                    "only where the environment cannot widen what reaches a sink: {}",
                    EXPANDABLE.join(", ")
                ),
            );
        }
        return None;
    }
    if !s.contains('$') {
        return None;
    }
    if full_sink && path == "sink.output" {
        if s.contains("${") {
            // SECURITY: where content goes is written in the policy.
            problem(
                "`${env:...}` is not expanded in the `output` of a full_allowed sink".to_string(),
                "write where captured content goes in the policy itself, where reviews and the policy's digest see it",
            );
        }
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut ok = true;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        if let Some(tail) = after.strip_prefix("$${") {
            out.push_str("${");
            rest = tail;
        } else if let Some(tail) = after.strip_prefix("${") {
            let Some(close) = tail.find('}') else {
                problem(
                    format!("an unterminated `${{` in `{path}`"),
                    "write `${env:NAME}`, or `$${` for a literal `${`",
                );
                return None;
            };
            let inner = &tail[..close];
            rest = &tail[close + 1..];
            let Some(var) = inner.strip_prefix("env:").filter(|v| valid_name(v)) else {
                problem(
                    format!("`${{...}}` in `{path}` is not a variable reference"),
                    "write `${env:NAME}` (NAME of letters, digits and `_`), or `$${` for a literal `${`",
                );
                ok = false;
                continue;
            };
            match lookup(var) {
                EnvValue::Set(value) => {
                    out.push_str(&value);
                    uses.push(EnvUse {
                        var: var.to_string(),
                        key: path.to_string(),
                        span: span.clone(),
                        value,
                    });
                }
                EnvValue::Unset => {
                    problem(
                        format!("environment variable `{var}` (used in `{path}`) is not set"),
                        "set it, or write the value in the policy",
                    );
                    ok = false;
                }
                EnvValue::NotUnicode => {
                    problem(
                        format!(
                            "environment variable `{var}` (used in `{path}`) is not valid UTF-8"
                        ),
                        "set it to UTF-8 text",
                    );
                    ok = false;
                }
            }
        } else {
            out.push('$');
            rest = &after[1..];
        }
    }
    out.push_str(rest);
    ok.then_some(out)
}

fn valid_name(v: &str) -> bool {
    let mut b = v.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str, env: &[(&str, &str)]) -> (String, Vec<EnvUse>, Vec<EnvProblem>) {
        let mut root = DeTable::parse(src).unwrap().into_inner();
        let lookup = |n: &str| {
            env.iter()
                .find(|(k, _)| *k == n)
                .map_or(EnvValue::Unset, |(_, v)| EnvValue::Set(v.to_string()))
        };
        let (mut uses, mut problems) = (Vec::new(), Vec::new());
        expand(&mut root, &lookup, &mut uses, &mut problems);
        let listen = root
            .get("server")
            .and_then(|s| s.get_ref().as_table())
            .and_then(|t| t.get("listen"))
            .and_then(|v| v.get_ref().as_str())
            .unwrap_or("")
            .to_string();
        (listen, uses, problems)
    }

    #[test]
    fn references_expand_once_and_escapes_stay_literal() {
        let (listen, uses, problems) = run(
            "[server]\nlisten = \"${env:HOST}:${env:PORT}\"\n",
            &[("HOST", "127.0.0.1"), ("PORT", "${env:HOST}")],
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            listen, "127.0.0.1:${env:HOST}",
            "values are not expanded again"
        );
        assert_eq!(uses.len(), 2);
        let (listen, _, problems) = run("[server]\nlisten = \"$${env:X}$5\"\n", &[]);
        assert!(problems.is_empty());
        assert_eq!(listen, "${env:X}$5");
    }

    #[test]
    fn unset_malformed_and_refused_references_are_errors() {
        let (_, _, p) = run("[server]\nlisten = \"${env:NOPE}\"\n", &[]);
        assert!(p[0].message.contains("`NOPE`") && p[0].message.contains("not set"));
        for bad in ["${NOPE}", "${env:}", "${env:1X}", "${env:A", "${env:A-B}"] {
            let (_, _, p) = run(&format!("[server]\nlisten = \"{bad}\"\n"), &[("A", "x")]);
            assert_eq!(p.len(), 1, "{bad}: {p:?}");
        }
        let (_, _, p) = run(
            "[[sink]]\nname = \"cap\"\nfull_allowed = true\noutput = \"file:${env:DIR}/c.jsonl\"\n",
            &[("DIR", "/tmp")],
        );
        assert!(p[0].message.contains("full_allowed"), "{p:?}");
        let (_, u, p) = run(
            "[[sink]]\nname = \"std\"\noutput = \"file:${env:DIR}/c.jsonl\"\n",
            &[("DIR", "/tmp")],
        );
        assert!(p.is_empty() && u.len() == 1, "{p:?}");
        for key in [
            "[audit]\npath",
            "[redact]\nkey_file",
            "[[window]]\nreason",
            "[standard]\non_violation",
        ] {
            let (_, _, p) = run(&format!("{key} = \"${{env:A}}\"\n"), &[("A", "x")]);
            assert_eq!(p.len(), 1, "{key}");
            assert!(p[0].message.contains("is not expanded"), "{key}");
        }
        let (_, _, p) = run("[full]\ncontent_fields = [\"${env:A}\"]\n", &[("A", "x")]);
        assert_eq!(p.len(), 1);
    }
}
