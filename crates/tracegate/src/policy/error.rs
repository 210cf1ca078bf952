//! Policy errors: each with its file, line, column and, where one helps, a hint.

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem with a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError {
    /// The file it is in (`<built-in defaults>` for the defaults).
    pub file: PathBuf,
    /// 1-based line, 0 when the error concerns the whole policy.
    pub line: usize,
    /// 1-based column, 0 when the error concerns the whole policy.
    pub column: usize,
    /// One lowercase line; policy text in backticks.
    pub message: String,
    /// What to do about it.
    pub hint: Option<String>,
    /// The dotted policy key it concerns (`server.listen`,
    /// `standard.fields.request_id`), when one does.
    pub key: Option<String>,
    /// The offending line, for the terminal; `None` for whole-policy
    /// errors and for lines that hold a customer list.
    pub snippet: Option<Box<Snippet>>,
}

/// The line an error points at, with the columns to underline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The line, control characters escaped, cut around the error.
    pub text: String,
    /// 1-based first column of the underline, in `text`.
    pub column: usize,
    /// How many columns to underline (at least 1).
    pub width: usize,
}

impl Snippet {
    /// The line of `src` that byte `span.start` is on, underlined from
    /// there to `span.end` (or the end of the line).
    pub fn of(src: &str, span: std::ops::Range<usize>) -> Option<Snippet> {
        let start = span.start.min(src.len());
        let line_start = src.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
        let line_end = src
            .get(start..)?
            .find('\n')
            .map_or(src.len(), |i| start + i);
        let line = src.get(line_start..line_end)?.trim_end_matches('\r');
        let before = src.get(line_start..start)?.chars().count();
        let end = span.end.clamp(start, line_start + line.len());
        let width = src.get(start..end).map_or(1, |s| s.chars().count()).max(1);
        // A long line (a minified policy) is cut to a window around the error.
        const WIDE: usize = 120;
        let chars: Vec<char> = line.chars().collect();
        let from = before.saturating_sub(WIDE / 2);
        let to = (from + WIDE).min(chars.len());
        let mut text = String::new();
        if from > 0 {
            text.push('…');
        }
        // SECURITY: the line is shown on a terminal: control characters
        // (an escape sequence in a window file) are escaped, and every
        // character keeps one column so that the caret still points.
        for c in &chars[from..to] {
            match c {
                '\t' => text.push(' '),
                c if c.is_control() => text.push('�'),
                c => text.push(*c),
            }
        }
        if to < chars.len() {
            text.push('…');
        }
        Some(Snippet {
            text,
            column: before - from + 1 + usize::from(from > 0),
            width: width.min(WIDE),
        })
    }
}

impl PolicyError {
    /// An error at a byte span of `src`, the text of `file`.
    pub fn at(file: &Path, src: &str, offset: usize, message: impl Into<String>) -> PolicyError {
        let (line, column) = line_col(src, offset);
        PolicyError {
            line,
            column,
            ..PolicyError::whole(file, message)
        }
    }

    /// An error about a file or the policy as a whole.
    pub fn whole(file: &Path, message: impl Into<String>) -> PolicyError {
        PolicyError {
            file: file.to_path_buf(),
            line: 0,
            column: 0,
            message: message.into(),
            hint: None,
            key: None,
            snippet: None,
        }
    }

    /// The same error naming the policy key it concerns.
    pub fn with_key(mut self, key: impl Into<String>) -> PolicyError {
        self.key = Some(key.into());
        self
    }

    /// The same error with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> PolicyError {
        self.hint = Some(hint.into());
        self
    }
}

impl PolicyError {
    /// The error as it may leave the terminal (the audit log, `/v1/status`,
    /// logs): file, line, column and the message with every quoted
    /// segment that is not a policy key name replaced by `…`. Keyword
    /// lists are customer lists and a misplaced value may be a secret, so
    /// no value written in a policy survives here; the location names it.
    pub fn public(&self) -> String {
        let msg = scrub(&self.message);
        if self.line > 0 {
            format!(
                "{}:{}:{}: {msg}",
                self.file.display(),
                self.line,
                self.column
            )
        } else {
            format!("{}: {msg}", self.file.display())
        }
    }
}

/// A value from a policy (a name, a path, a word it wrote) as a message
/// quotes it in backticks: a backslash, backtick or double quote gets a
/// backslash before it and a control character is written `\u{..}`, so the
/// value ends only at its closing backtick, on the terminal and for
/// [`scrub`], which hides it whole in the public form.
pub fn shown(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | '`' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A path as a message quotes it ([`shown`]).
pub fn shown_path(path: &std::path::Path) -> String {
    shown(&path.display().to_string())
}

/// Policy syntax the messages and hints of policy errors quote: keys with
/// a value (`unbounded = true`), enum words, schemes, examples. Our own
/// text, never a value from a policy, so the public form keeps it (key
/// names alone are kept by [`super::schema::is_key_name`]); a value that
/// happens to equal one of these reveals only this public text.
///
/// Complete by test: `policy_syntax_in_messages_keeps_its_quotes` (tests/it/tidy.rs)
/// reads every quoted literal in `src/policy` and fails on one the public
/// form would hide.
pub const POLICY_SYNTAX: &[&str] = &[
    "unbounded = true",
    "seal_to = [\"age1...\"]",
    "age1...",
    "age-keygen",
    "tracegate capture keygen",
    "full_allowed = true",
    "replace_defaults = true",
    "free_text = true",
    "version = 1",
    "type = \"string\"",
    "key = \"value\"",
    "[audit] path = \"audit.jsonl\"",
    "[[...]]",
    "[\"a\", \"b\"]",
    "[\"email\"]",
    "true",
    "false",
    "drop_record",
    "drop_field",
    "hash",
    "off",
    "stdout",
    "file:PATH",
    "HOST:PORT",
    "otlp+http://",
    "otlp+https://",
    "otlp+https://HOST:PORT",
    "otlp+grpc://",
    "otlp+grpcs://",
    "otlp+grpcs://HOST:PORT",
    "redis://",
    "rediss://",
    "redis://10.0.0.5:6379",
    "rediss://store.internal:6380",
    "openssl rand -hex 32 > store.key",
    "cf",
    "otlp_span",
    "otlp_log",
    "evidence",
    "20000",
    "{ otlp_span = 20000 }",
    "{ otlp_span = 20000, cf = 1024 }",
    "._-",
    "127.0.0.1:4317",
    "127.0.0.1:4318",
    "[::1]:4317",
    "[::1]:4318",
    "2026-12-01T10:00:00Z",
    "30m",
    "2h",
    "24h",
    "0.5",
    "1024",
    "{1000}",
    "${",
    "${...}",
    "${env:...}",
    "*.toml",
    ".toml",
    "windows/",
    "windows",
    "A-Z a-z 0-9 . _ -",
    "-",
    "_",
    ".",
    "tracegate window close",
    "[full] max_window",
];

/// `message` with the text inside every pair of backticks, double quotes
/// or single quotes replaced by `…`, unless it is a policy key name or
/// policy syntax ([`POLICY_SYNTAX`]). Inside quotes a backslash escapes the
/// next character, as in Rust's `Debug` strings (serde's messages) and
/// [`crate::finding::escape_key`] (ours): a quote inside a value never ends
/// it early, so no part of the value falls outside the quotes.
// SECURITY: serde and our own messages quote the offending value
// (`invalid type: string "Northwind", expected a sequence`); this is the
// one place such text is cut before it leaves the terminal. An unpaired
// quote hides everything after it.
pub fn scrub(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    loop {
        let Some(open) = opening(rest) else {
            out.push_str(rest);
            break;
        };
        let quote = rest[open..].chars().next().unwrap_or('`');
        out.push_str(&rest[..open + 1]);
        let after = &rest[open + 1..];
        match closing(after, quote) {
            Some(close) => {
                let inner = &after[..close];
                // A key the message names as a key (`unknown key `x``) is
                // structure, shown escaped and cut like a record's keys.
                let named_key = quote == '`' && out.ends_with("key `");
                if super::schema::is_key_name(inner) || POLICY_SYNTAX.contains(&inner) {
                    out.push_str(inner);
                } else if named_key {
                    out.push_str(&cut_chars(inner, 64));
                } else {
                    out.push('…');
                }
                out.push(quote);
                rest = &after[close + 1..];
            }
            None => {
                // An unpaired quote: whatever follows may be a value.
                out.push('…');
                break;
            }
        }
    }
    out.replace(['\n', '\r'], " ")
}

/// The byte offset in `s` of the first opening quote: a backtick, a double
/// quote, or a single quote that is not an apostrophe between two letters
/// (`the window's`), which would otherwise hide the rest of our own text.
fn opening(s: &str) -> Option<usize> {
    let mut prev = None;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let apostrophe = c == '\''
            && prev.is_some_and(char::is_alphanumeric)
            && chars.peek().is_some_and(|(_, n)| n.is_alphanumeric());
        if matches!(c, '`' | '"' | '\'') && !apostrophe {
            return Some(i);
        }
        prev = Some(c);
    }
    None
}

/// The byte offset in `s` of the first `quote` not escaped by a backslash.
fn closing(s: &str, quote: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            c if c == quote => return Some(i),
            _ => {}
        }
    }
    None
}

fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.column,
                self.message
            )?;
        } else {
            write!(f, "{}: {}", self.file.display(), self.message)?;
        }
        if let Some(s) = &self.snippet {
            let n = self.line.to_string();
            let pad = " ".repeat(n.len());
            write!(
                f,
                "\n {pad} |\n {n} | {}\n {pad} | {}{}",
                s.text,
                " ".repeat(s.column.saturating_sub(1)),
                "^".repeat(s.width)
            )?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl PolicyError {
    /// The error as one JSON object (`--error-format json`): `file`,
    /// `line`, `column` (0 for the whole policy), `message`, `hint`, `key`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "error",
            "file": self.file.display().to_string(),
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
            "key": self.key,
        })
    }
}

/// Every error found in a policy, in file order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct PolicyErrors(pub Vec<PolicyError>);

impl fmt::Display for PolicyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "error: {e}")?;
        }
        Ok(())
    }
}

impl PolicyErrors {
    /// The first error in its public form ([`PolicyError::public`]), with
    /// how many more there are: the one-line cause a refused reload
    /// records.
    pub fn public_summary(&self) -> String {
        match self.0.first() {
            None => "invalid policy".to_string(),
            Some(e) if self.0.len() == 1 => e.public(),
            Some(e) => format!(
                "{} (and {} more)",
                e.public(),
                crate::io_text::counted(self.0.len() as u64 - 1, "error", "errors")
            ),
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = src.get(..offset).unwrap_or(src);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before
        .get(line_start..)
        .map_or(1, |s| s.chars().count() + 1);
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let src = "a = 1\nbé = 2\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        assert_eq!(line_col(src, src.find('=').unwrap()), (1, 3));
        assert_eq!(line_col(src, src.rfind('=').unwrap()), (2, 4));
    }

    proptest::proptest! {
        /// Whatever value a message quotes, in whichever quotes, escaped as
        /// its writer escapes it (ours: [`shown`]; serde's: `Debug`), the
        /// public form hides it whole: exactly one `…` between its quotes,
        /// whatever quotes and backslashes the value holds.
        #[test]
        fn no_quoted_value_survives(
            value in "[A-Za-z0-9 @._`\"'\\\\-]{3,40}",
            quote in proptest::sample::select(vec!['`', '"', '\'']),
            // Messages put a space before a quote (a quote right after a
            // letter reads as an apostrophe: `the window's`).
            before in "([a-z ]{0,20} )?",
        ) {
            proptest::prop_assume!(!super::super::schema::is_key_name(&value));
            proptest::prop_assume!(!POLICY_SYNTAX.contains(&value.as_str()));
            proptest::prop_assume!(!before.ends_with("key "));
            let escaped = match quote {
                '`' => shown(&value),
                '"' => {
                    let debug = format!("{value:?}");
                    debug[1..debug.len() - 1].to_string()
                }
                _ => value.replace('\\', "\\\\").replace('\'', "\\'"),
            };
            let msg = format!("{before}{quote}{escaped}{quote} and `max_records`");
            let out = scrub(&msg);
            proptest::prop_assert_eq!(out, format!("{before}{quote}…{quote} and `max_records`"));
        }
    }

    #[test]
    fn syntax_and_apostrophes_stay_and_escaped_quotes_do_not_end_a_value() {
        assert_eq!(
            scrub("a window in windows/ needs `max_records`, `max_bytes` or `unbounded = true`"),
            "a window in windows/ needs `max_records`, `max_bytes` or `unbounded = true`"
        );
        assert_eq!(
            scrub("`unbounded = true` contradicts the window's `max_records`"),
            "`unbounded = true` contradicts the window's `max_records`"
        );
        assert_eq!(
            scrub(r#"invalid type: string "Acme \"Widgets\" Inc", expected a sequence"#),
            r#"invalid type: string "…", expected a sequence"#
        );
        assert_eq!(
            scrub(&format!(
                "unknown `on_violation` value `{}`",
                shown("drop`me` now")
            )),
            "unknown `on_violation` value `…`"
        );
        // A raw backslash at a value's end escapes its closing quote: the
        // value runs on to the next quote and stays hidden (fail closed).
        assert_eq!(
            scrub(r"path `C:\dir\` and `max_records`"),
            "path `…`max_records`…"
        );
        assert_eq!(shown("a`b\"c\\d\u{1b}"), "a\\`b\\\"c\\\\d\\u{1b}");
    }

    #[test]
    fn public_form_keeps_keys_and_cuts_values() {
        let e = PolicyError::at(
            Path::new("p.toml"),
            "a\nb",
            2,
            "invalid type: string \"Northwind Analytics\", expected a sequence for key `redact.keywords`",
        );
        assert_eq!(
            e.public(),
            "p.toml:2:1: invalid type: string \"…\", expected a sequence for key `redact.keywords`"
        );
        assert_eq!(
            scrub("unknown `on_violation` value `drop_recrod`; char 'x' and `max_line_bytes`"),
            "unknown `on_violation` value `…`; char '…' and `max_line_bytes`"
        );
        assert_eq!(scrub("cut `secret"), "cut `…");
        assert_eq!(
            scrub("unknown key `full_alowed` in [[sink]]"),
            "unknown key `full_alowed` in [[sink]]"
        );
        assert_eq!(scrub("plain"), "plain");
    }
}
