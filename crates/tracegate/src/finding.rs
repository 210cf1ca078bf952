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

crate::io_text::named_enum! {
    /// What sort of problem a finding is; `as_str` names it in JSON output.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[non_exhaustive]
    pub enum FindingKind {
        /// The record breaks the standard allowlist (or a window rule).
        Violation = "violation",
        /// The line is not a well-formed record.
        Malformed = "malformed",
        /// A latency-evidence record fails an auditor check.
        Evidence = "evidence",
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

crate::io_text::debug_as!(
    Finding,
    |this| "{}:{}:{}:{}",
    this.line,
    this.rule,
    this.field.as_deref().unwrap_or("-"),
    this.message
);

/// Show a key name from a record safely: printable ASCII as is, everything
/// else (controls, non-ASCII, invisible characters) as `\u{..}`, cut to
/// [`MAX_SHOWN_KEY`] characters with a trailing `…`.
///
/// SECURITY: this is the only way a record's key text reaches output.
pub fn escape_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len().min(MAX_SHOWN_KEY + 8));
    escape_key_into(&mut out, key);
    out
}

/// `n` in decimal, in `buf` (no formatting machinery: paths and line
/// numbers are written for every finding).
pub fn decimal(n: u64, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    let mut n = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
}

/// [`decimal`], appended to `out`.
pub fn push_decimal(out: &mut String, n: u64) {
    out.push_str(decimal(n, &mut [0; 20]));
}

/// [`escape_key`], appended to `out`.
pub fn escape_key_into(out: &mut String, key: &str) {
    // Most keys are short and plain: as they are.
    if key.len() <= MAX_SHOWN_KEY
        && key
            .bytes()
            .all(|b| (b.is_ascii_graphic() || b == b' ') && !matches!(b, b'\\' | b'`' | b'"'))
    {
        out.push_str(key);
        return;
    }
    escape_chars(out, key);
}

/// [`escape_key`] a character at a time: what the plain-key shortcut of
/// [`escape_key_into`] must agree with.
fn escape_chars(out: &mut String, key: &str) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain-key shortcut gives what the character loop gives.
    #[test]
    fn plain_keys_come_out_as_the_loop_writes_them() {
        use proptest::prelude::*;
        let by_chars = |key: &str| {
            let mut out = String::new();
            escape_chars(&mut out, key);
            out
        };
        proptest!(|(key in "[ -~]{0,90}|\\PC{0,20}")| {
            prop_assert_eq!(escape_key(&key), by_chars(&key));
        });
    }

    #[test]
    fn decimals_are_display() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(decimal(n, &mut [0; 20]), n.to_string());
        }
    }

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
