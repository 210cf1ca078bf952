//! Findings: what `check` reports and `filter` counts.
//!
//! A finding names a line, a place (a field path) and a stable rule, with a
//! message built only from policy facts and fixed text.
//!
//! **Invariant:** no finding holds a value from a record. Key names that are
//! not on the allowlist are shown through [`escape_key`], as docs/reference.md allows.

use std::fmt::Write as _;

mod rule;

pub use rule::{Detector, Rule};

/// The longest key name shown in a finding, in characters.
pub const MAX_SHOWN_KEY: usize = 64;

/// What sort of problem a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindingKind {
    /// The record breaks the standard allowlist (or a window rule).
    Violation,
    /// The line is not a well-formed record.
    Malformed,
    /// A latency-evidence record fails an auditor check.
    Evidence,
}

impl FindingKind {
    /// The name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Violation => "violation",
            FindingKind::Malformed => "malformed",
            FindingKind::Evidence => "evidence",
        }
    }
}

/// One problem with one record.
#[derive(Clone, PartialEq)]
pub struct Finding {
    /// 1-based line number in its input.
    pub line: u64,
    /// Violation, malformed or evidence.
    pub kind: FindingKind,
    /// The stable rule (docs/reference.md), e.g. [`Rule::ContentField`].
    pub rule: Rule,
    /// Where: a field path such as `events[2].stage`, escaped and cut.
    pub field: Option<String>,
    /// One lowercase line, free of record values.
    pub message: String,
}

impl std::fmt::Debug for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}:{}",
            self.line,
            self.rule,
            self.field.as_deref().unwrap_or("-"),
            self.message
        )
    }
}

/// Show a key name from a record safely: printable ASCII as is, everything
/// else (controls, non-ASCII, invisible characters) as `\u{..}`, cut to
/// [`MAX_SHOWN_KEY`] characters with a trailing `…`.
///
/// SECURITY: this is the only way a record's key text reaches output.
pub fn escape_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len().min(MAX_SHOWN_KEY + 8));
    for (n, c) in key.chars().enumerate() {
        if n == MAX_SHOWN_KEY {
            out.push('…');
            break;
        }
        if c.is_ascii_graphic() || c == ' ' {
            if c == '\\' || c == '`' || c == '"' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_escaped_and_cut() {
        assert_eq!(escape_key("prompt_text"), "prompt_text");
        assert_eq!(escape_key("a\u{200b}b"), "a\\u{200b}b");
        assert_eq!(escape_key("é\n"), "\\u{e9}\\u{a}");
        assert_eq!(escape_key("a`b"), "a\\`b");
        let long = "x".repeat(100);
        let shown = escape_key(&long);
        assert_eq!(shown.chars().count(), MAX_SHOWN_KEY + 1);
        assert!(shown.ends_with('…'));
    }
}
