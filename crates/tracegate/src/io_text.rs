//! Text for humans: how I/O errors read in messages (one lowercase line,
//! without the OS's `(os error N)` suffix), and how counts are worded.
//! Shared by the policy loader, the audit log and the command line. (Text
//! that did not come from tracegate is shown on a terminal through
//! [`crate::window::escape_display`].)

use std::io;

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
