//! How I/O errors read in messages: one lowercase line, without the OS's
//! `(os error N)` suffix. Shared by the policy loader, the audit log and
//! the command line.

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
