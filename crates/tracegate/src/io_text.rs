//! Text for humans: how I/O errors read in messages (one lowercase line,
//! without the OS's `(os error N)` suffix), and how text that did not come
//! from tracegate is shown on a terminal. Shared by the policy loader, the
//! audit log and the command line.

use std::fmt::Write as _;
use std::io;

/// `s` made safe to print on a terminal: control characters (C0, DEL,
/// C1), bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A-U+202E, U+2066-U+2069) and the line and paragraph separators
/// (U+2028, U+2029) are shown as `\u{..}`, and a backslash as `\\`;
/// everything else as itself.
///
/// SECURITY: text from a policy or a window file (a window's `reason`,
/// `requested_by`, a file name) goes through this before it reaches a
/// terminal, so a newline cannot draw a fake line of output and a bidi
/// override cannot reorder what the operator reads.
// Unused since the commands escape with `window::escape_display` (which
// also escapes U+200B-U+200D, U+2060-U+2065 and U+FEFF); kept for its
// tests until the two are merged into one.
#[allow(dead_code)]
pub fn escape_for_terminal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if needs_escape(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Characters [`escape_for_terminal`] escapes.
#[allow(dead_code)]
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// A lowercase, one-line description of an I/O error.
pub fn io_cause(e: &io::Error) -> String {
    let s = e.to_string();
    let s = match s.find(" (os error ") {
        Some(i) => &s[..i],
        None => &s,
    };
    let mut out: String = s.replace(['\n', '\r'], " ");
    if let Some(first) = out.get(..1)
        && first.chars().all(|c| c.is_ascii_uppercase())
    {
        out.replace_range(..1, &first.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn terminal_text_escapes_controls_and_bidi_and_nothing_else() {
        assert_eq!(
            escape_for_terminal("tune ltr recipe é"),
            "tune ltr recipe é"
        );
        assert_eq!(
            escape_for_terminal("ok\n  window  fake  active\r"),
            "ok\\u{a}  window  fake  active\\u{d}"
        );
        assert_eq!(
            escape_for_terminal("a\u{202e}dcba\u{2066}x\u{2069}\u{200f}"),
            "a\\u{202e}dcba\\u{2066}x\\u{2069}\\u{200f}"
        );
        assert_eq!(
            escape_for_terminal("\u{1b}[2J\u{7f}\u{85}"),
            "\\u{1b}[2J\\u{7f}\\u{85}"
        );
        assert_eq!(
            escape_for_terminal("\u{2028}\u{2029}"),
            "\\u{2028}\\u{2029}"
        );
        // Unambiguous: a literal `\u{a}` in the input is not a newline.
        assert_eq!(escape_for_terminal("\\u{a}"), "\\\\u{a}");
        use proptest::prelude::*;
        proptest!(|(s in "\\PC{0,30}|[\\x00-\\x1f\\u{202a}-\\u{202e}a]{0,10}")| {
            let e = escape_for_terminal(&s);
            prop_assert!(!e.chars().any(needs_escape), "{:?}", e);
        });
    }
}

/// `n` and its noun, singular for exactly one: `counted(1, "record",
/// "records")` is `1 record`, `counted(0, "entry", "entries")` is
/// `0 entries`. Every count a message shows goes through this, so that no
/// message reads `1 records` (issue 35 item 8).
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod counted_tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "record", "records"), "1 record");
        assert_eq!(counted(0, "record", "records"), "0 records");
        assert_eq!(counted(2, "entry", "entries"), "2 entries");
        assert_eq!(counted(11, "error", "errors"), "11 errors");
    }
}
