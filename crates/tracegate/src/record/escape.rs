//! Writing a string as a JSON string literal: the one place rebuilt records
//! get their escaping.

use std::ops::Range;

use super::tape::RawCursor;

/// Append `s` as a JSON string literal (quotes included) to `out`.
pub fn write_json_string(s: &str, out: &mut Vec<u8>) {
    // Room for the text, its quotes and a few escapes up front: content runs
    // to kilobytes, and growing by doubling cost a tenth of a redaction run.
    out.reserve(s.len() + s.len() / 32 + 2);
    out.push(b'"');
    write_escaped(s, out);
    out.push(b'"');
}

/// Append, as a JSON string literal, the decoded text of the string
/// contents `raw` (validated, between the quotes) with `edits` applied:
/// each `(span, replacement)` replaces the decoded bytes `span`, in order.
///
/// The parts between edits are copied from `raw` as written, already
/// escaped, rather than decoded and escaped again; only the replacements
/// are escaped. Returns false, with `out` as it was, when an edit is out of
/// order or not on character boundaries of the decoded text.
pub fn write_edited_json_string<'r>(
    raw: &str,
    edits: impl IntoIterator<Item = (Range<usize>, &'r str)>,
    out: &mut Vec<u8>,
) -> bool {
    // SECURITY: raw U+2028/U+2029 are escaped in output; copying the raw
    // parts would keep them, so the caller escapes the whole text instead.
    if memchr::memchr(0xE2, raw.as_bytes()).is_some()
        && super::canonical::has_separator(raw.as_bytes())
    {
        return false;
    }
    let rollback = out.len();
    out.reserve(raw.len() + 2);
    out.push(b'"');
    let mut cursor = RawCursor::new(raw);
    let mut copied = 0;
    for (span, replacement) in edits {
        let (Some(start), Some(end)) = (cursor.seek(span.start), cursor.seek(span.end)) else {
            out.truncate(rollback);
            return false;
        };
        out.extend_from_slice(raw.as_bytes().get(copied..start).unwrap_or_default());
        write_escaped(replacement, out);
        copied = end;
    }
    out.extend_from_slice(raw.as_bytes().get(copied..).unwrap_or_default());
    out.push(b'"');
    true
}

/// Append `s` escaped as the inside of a JSON string literal, in the
/// canonical form of `super::canonical`: short escapes where JSON has them,
/// `\u00XX` for the other control characters, and `\u2028`/`\u2029` for
/// the two line separators JavaScript reads as line ends.
fn write_escaped(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    if memchr::memchr(0xE2, bytes).is_some() && super::canonical::has_separator(bytes) {
        let mut last = 0;
        for (at, c) in s.char_indices() {
            let escape: &[u8] = match c {
                '\u{2028}' => b"\\u2028",
                '\u{2029}' => b"\\u2029",
                _ => continue,
            };
            write_escaped_plain(s.get(last..at).unwrap_or_default(), out);
            out.extend_from_slice(escape);
            last = at + c.len_utf8();
        }
        write_escaped_plain(s.get(last..).unwrap_or_default(), out);
    } else {
        write_escaped_plain(s, out);
    }
}

/// [`write_escaped`] for text without U+2028 or U+2029.
fn write_escaped_plain(s: &str, out: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    let mut run = 0;
    // Jump from one byte that needs escaping to the next (eight bytes at a
    // time): content is long and mostly plain text.
    while let Some(at) = super::tape::find_special(&bytes[run..]) {
        let i = run + at;
        out.extend_from_slice(&bytes[run..i]);
        let b = bytes[i];
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
            }
        }
        run = i + 1;
    }
    out.extend_from_slice(&bytes[run..]);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::record::tape::{Tape, raw_contents, string_value};
    use proptest::prelude::*;

    /// Writes `c` into JSON string contents the way `style` picks: as
    /// itself where JSON allows, a short escape, or `\u` (a surrogate pair
    /// beyond the BMP).
    fn encode(c: char, style: u8, raw: &mut String) {
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\n' => Some("\\n"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            _ => None,
        };
        let must_escape = c == '"' || c == '\\' || c < ' ';
        match (style % 3, short) {
            (0, _) if !must_escape => raw.push(c),
            (1, Some(s)) => raw.push_str(s),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    raw.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }

    #[test]
    fn edited_output_is_the_decoded_text_with_the_edits_applied() {
        let chars = proptest::sample::select(vec![
            'a', 'b', ' ', '"', '\\', '/', '\n', '\t', '\u{8}', '\u{1}', 'é', '€', '😀',
        ]);
        let replacements = proptest::sample::select(vec!["[REDACTED:email]", "", "x\"\n\\y", "é"]);
        proptest!(|(
            text in proptest::collection::vec((chars, any::<u8>()), 0..40),
            cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
            reps in proptest::collection::vec(replacements, 3),
        )| {
            let mut raw = String::new();
            for &(c, style) in &text {
                encode(c, style, &mut raw);
            }
            let line = format!("{{\"k\":\"{raw}\"}}");
            let mut tape = Tape::new();
            let scanned = tape.scan(line.as_bytes()).unwrap();
            let tok = tape.tokens()[2];
            let decoded = string_value(scanned, &tok).into_owned();
            // Edits between sorted character boundaries, some empty.
            let bounds: Vec<usize> = (0..=decoded.len()).filter(|&i| decoded.is_char_boundary(i)).collect();
            let mut at: Vec<usize> = cuts.iter().map(|ix| bounds[ix.index(bounds.len())]).collect();
            at.sort_unstable();
            let spans: Vec<(Range<usize>, &str)> = at
                .chunks_exact(2)
                .enumerate()
                .map(|(i, p)| (p[0]..p[1], reps[i % reps.len()]))
                .collect();
            let mut expected = String::new();
            let mut last = 0;
            for (span, r) in &spans {
                expected.push_str(&decoded[last..span.start]);
                expected.push_str(r);
                last = span.end;
            }
            expected.push_str(&decoded[last..]);
            let mut out = b"prefix".to_vec();
            prop_assert!(write_edited_json_string(raw_contents(scanned, &tok), spans.iter().cloned(), &mut out));
            let got: String = serde_json::from_slice(&out[6..]).unwrap();
            prop_assert_eq!(got, expected);
        });
    }

    #[test]
    fn an_edit_off_a_character_boundary_or_out_of_order_is_refused() {
        // `\u00e9` decodes to two bytes; `\n` to one.
        let raw = r"a\u00e9b\nc";
        let mut out = b"kept".to_vec();
        assert!(!write_edited_json_string(raw, [(2..3, "X")], &mut out));
        assert!(!write_edited_json_string(
            raw,
            [(4..5, "X"), (1..2, "Y")],
            &mut out
        ));
        assert!(!write_edited_json_string(raw, [(0..99, "X")], &mut out));
        assert_eq!(out, b"kept");
        assert!(write_edited_json_string(
            raw,
            [(1..3, "X"), (4..5, "Y")],
            &mut out
        ));
        assert_eq!(out, b"kept\"aXbYc\"");
    }
}
