//! The canonical form of what a sink receives.
//!
//! A record that meets its rules can still carry data in bytes no rule
//! looks at: how a number is spelt (`0.5` or a 225-digit fraction that
//! means the same double), where insignificant whitespace goes (spaces and
//! tabs carry bits), and which characters of a string are written as
//! escapes. So every byte a sink receives is either verified or canonical:
//! a line already in canonical form keeps the verbatim path, any other is
//! rewritten from its verified tokens into canonical form (not dropped;
//! values decode to the same thing).
//!
//! **The canonical form.**
//!
//! - *Whitespace*: none, except after `,` and `:`, where there is either
//!   none or exactly one space, the same all through the line. So both the
//!   compact form (`{"a":1,"b":[1,2]}`, serde_json, Go) and the spaced one
//!   (`{"a": 1, "b": [1, 2]}`, Python's `json.dumps`, the seed records) are
//!   canonical; a line mixing them, or with a tab, a newline, two spaces,
//!   or a space anywhere else, is not. The style is one bit per line.
//! - *Numbers*: at most [`MAX_SIGNIFICANT_DIGITS`] significant digits (a
//!   double never needs more), at most [`MAX_EXPONENT_DIGITS`] exponent
//!   digits and [`MAX_NUMBER_BYTES`] bytes in all. A plain integer (no
//!   fraction, no exponent) of up to 20 digits is canonical too: it is the
//!   only spelling of its value, and u64 timestamps need 19 or 20 digits;
//!   where the rule reads it as a double (`type = "number"`) the gate
//!   holds it to 17 digits. A rewritten number is the shortest spelling
//!   that reads back as the same double (`ryu`).
//! - *Strings* (and keys): escapes only where JSON requires them, one way
//!   each: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00XX` (lowercase
//!   hex) for the other control characters, and `\u2028`, `\u2029` for the
//!   two line separators JavaScript reads as line ends (raw, they are not
//!   canonical). Everything else is written as itself, in UTF-8.
//!
//! What is left is a few bits a record (the spacing style, trailing zeros
//! and exponent spelling within the bounds), where before a number alone
//! could carry a sentence.

use super::escape::write_json_string;
use super::tape::{Kind, Token, raw, string_value};

/// Most significant digits of a canonical number: 17 are enough to write
/// any double so that it reads back the same.
pub const MAX_SIGNIFICANT_DIGITS: usize = 17;

/// Most digits of a canonical number's exponent.
pub const MAX_EXPONENT_DIGITS: usize = 3;

/// Longest canonical number literal: `-1.2345678901234567e-308` is 24.
pub const MAX_NUMBER_BYTES: usize = 25;

/// Longest plain integer literal taken as canonical (a u64 has 20 digits).
const MAX_PLAIN_INTEGER_DIGITS: usize = 20;

/// Whether the grammar-checked JSON number literal `b` is canonical.
pub fn number_canonical(b: &[u8]) -> bool {
    let unsigned = b.strip_prefix(b"-").unwrap_or(b);
    if unsigned.iter().all(u8::is_ascii_digit) {
        return unsigned.len() <= MAX_PLAIN_INTEGER_DIGITS;
    }
    if b.len() > MAX_NUMBER_BYTES {
        return false;
    }
    let (mantissa, exponent) = match unsigned.iter().position(|&c| c == b'e' || c == b'E') {
        Some(p) => (&unsigned[..p], unsigned.get(p + 1..)),
        None => (unsigned, None),
    };
    if let Some(e) = exponent {
        let digits = e
            .strip_prefix(b"-")
            .or_else(|| e.strip_prefix(b"+"))
            .unwrap_or(e);
        if digits.len() > MAX_EXPONENT_DIGITS {
            return false;
        }
    }
    significant_digits(mantissa) <= MAX_SIGNIFICANT_DIGITS
}

/// Digits of a mantissa (`12.50`) from its first non-zero digit on.
fn significant_digits(mantissa: &[u8]) -> usize {
    mantissa
        .iter()
        .filter(|c| c.is_ascii_digit())
        .skip_while(|&&c| c == b'0')
        .count()
}

/// Whether a canonical number literal is a plain integer with more digits
/// than a double holds: canonical as an integer, not as a double.
pub fn too_precise_for_a_double(b: &[u8]) -> bool {
    let unsigned = b.strip_prefix(b"-").unwrap_or(b);
    unsigned.iter().all(u8::is_ascii_digit) && significant_digits(unsigned) > MAX_SIGNIFICANT_DIGITS
}

/// Whether validated string contents `raw` (between the quotes) escape
/// only what JSON requires, the one canonical way.
pub fn escapes_canonical(raw: &[u8]) -> bool {
    let mut i = 0;
    while let Some(p) = raw.get(i..).and_then(|r| memchr::memchr(b'\\', r)) {
        let at = i + p;
        match raw.get(at + 1) {
            Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => i = at + 2,
            Some(b'u') => {
                let Some(hex) = raw.get(at + 2..at + 6) else {
                    return false;
                };
                let lower = hex
                    .iter()
                    .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c));
                let canonical = lower
                    && match hex {
                        [b'0', b'0', b'0' | b'1', _] => {
                            // A control character without a short escape.
                            !matches!(hex, b"0008" | b"000c" | b"000a" | b"000d" | b"0009")
                        }
                        b"2028" | b"2029" => true,
                        _ => false,
                    };
                if !canonical {
                    return false;
                }
                i = at + 6;
            }
            // `\/` and anything else.
            _ => return false,
        }
    }
    true
}

/// Whether `b` holds a raw U+2028 or U+2029 (UTF-8 `E2 80 A8`/`E2 80 A9`).
pub fn has_separator(b: &[u8]) -> bool {
    memchr::memmem::find_iter(b, b"\xE2\x80").any(|at| matches!(b.get(at + 2), Some(0xA8 | 0xA9)))
}

/// Append the canonical form of the string or key token `t` of `text`:
/// its raw bytes when they are canonical, else its decoded text escaped
/// again.
pub fn write_string(text: &str, t: &Token, out: &mut Vec<u8>) {
    if t.canonical {
        out.extend_from_slice(raw(text, t).as_bytes());
    } else {
        write_json_string(&string_value(text, t), out);
    }
}

/// Append the canonical form of the number literal `raw`, read as a
/// double: as written when it is canonical, else the shortest spelling of
/// the same double. `false` (nothing written) when it is not a finite
/// double, which the rules refuse before anything is written.
pub fn write_double(raw: &str, canonical: bool, out: &mut Vec<u8>) -> bool {
    if canonical && !too_precise_for_a_double(raw.as_bytes()) {
        out.extend_from_slice(raw.as_bytes());
        return true;
    }
    match raw.parse::<f64>() {
        Ok(n) if n.is_finite() => {
            let mut buf = ryu::Buffer::new();
            out.extend_from_slice(buf.format_finite(n).as_bytes());
            true
        }
        _ => false,
    }
}

/// Append the canonical form of scalar token `t` as a value whose rule
/// type is not a double (strings, integers, literals): strings through
/// [`write_string`], everything else as written (a plain integer has one
/// spelling; `true`, `false`, `null` too).
pub fn write_scalar(text: &str, t: &Token, out: &mut Vec<u8>) {
    match t.kind {
        Kind::String | Kind::Key => write_string(text, t, out),
        Kind::Number if !t.canonical => {
            if !write_double(raw(text, t), false, out) {
                out.extend_from_slice(b"null");
            }
        }
        _ => out.extend_from_slice(raw(text, t).as_bytes()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_canonical_within_the_bounds() {
        for ok in [
            "0",
            "-0",
            "1",
            "1789040112.104",
            "-318.0",
            "0.004",
            "12345678901234567",
            "1544712660000000000",
            "18446744073709551615",
            "1.2345678901234567e-308",
            "1e-07",
            "1E+20",
            "0.00000000000000000000001",
        ] {
            assert!(number_canonical(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "123456789012345678901",
            "0.123456789012345678",
            "1.0000000000000000001",
            "1e0001",
            "0.000000000000000000000001",
            &format!("0.{}", "1".repeat(225)),
        ] {
            assert!(!number_canonical(bad.as_bytes()), "{bad}");
        }
        assert!(too_precise_for_a_double(b"1544712660000000000"));
        assert!(!too_precise_for_a_double(b"12345678901234567"));
        assert!(!too_precise_for_a_double(b"1.5"));
    }

    #[test]
    fn escapes_are_canonical_only_where_json_needs_them() {
        for ok in [
            r#"plain"#,
            r#"a\"b\\c"#,
            r#"\b\f\n\r\t"#,
            r#"\u0000\u001f\u000b"#,
            r#"\u2028\u2029"#,
        ] {
            assert!(escapes_canonical(ok.as_bytes()), "{ok}");
        }
        for bad in [
            r#"\/"#,
            r#"\u0041"#,
            r#"\u00e9"#,
            r#"\u000A"#,
            r#"\u000a"#,
            r#"\u0008"#,
            r#"\u001F"#,
            r#"\ud83d\ude00"#,
            r#"\u2028X\u202F"#,
        ] {
            assert!(!escapes_canonical(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn rewritten_numbers_read_back_as_the_same_double() {
        for raw in [
            format!("0.{}", "3".repeat(225)),
            "1544712660000000000".to_string(),
            "1e0001".to_string(),
            "123456789012345678901234567890".to_string(),
        ] {
            let mut out = Vec::new();
            assert!(write_double(
                &raw,
                number_canonical(raw.as_bytes()),
                &mut out
            ));
            let back: f64 = std::str::from_utf8(&out).unwrap().parse().unwrap();
            assert_eq!(back, raw.parse::<f64>().unwrap());
            assert!(number_canonical(&out) && !too_precise_for_a_double(&out));
        }
        assert!(!write_double("1e400", false, &mut Vec::new()));
    }
}
