//! The clean-record fast path: one pass over a flat record, no tape.
//!
//! Most records a gate sees in production are clean: every key on the
//! allowlist, every value a scalar within its constraints. For those the
//! answer is "pass verbatim", and finding it does not need a tape, a second
//! walk or any allocation. [`clean_flat`] scans such a record once, checking
//! syntax, keys and values as it meets them, and answers `true` only when the
//! full path would pass the record verbatim with no finding. On anything else
//! (an unknown key, an escape, a nested value, a violation, a syntax error)
//! it answers `false` and the full path judges the record and explains why.
//!
//! **Invariant:** `clean_flat(line) == true` implies the full path returns
//! [`super::Verdict::Verbatim`] with no finding. A property test holds the
//! two paths to that.

use crate::policy::{FieldRule, FieldSet, ValueType};
use crate::record::tape::{scan_number_shaped, scan_string};

/// Whether the flat record `line` is certainly clean against `fields`.
pub fn clean_flat(fields: &FieldSet, line: &[u8]) -> bool {
    scan(fields, line).is_some()
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// `Some(())` when clean; `None` means "ask the full path".
fn scan(fields: &FieldSet, b: &[u8]) -> Option<()> {
    // One UTF-8 check for the whole line; values are then sliced as `&str`.
    let text = std::str::from_utf8(b).ok()?;
    let mut i = ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = ws(b, i + 1);
    let mut seen: u64 = 0;
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            if b.get(i) != Some(&b'"') {
                return None;
            }
            let (kend, escaped) = scan_string(b, i).ok()?;
            if escaped {
                return None;
            }
            let (idx, rule) = fields.lookup_bytes(b.get(i + 1..kend - 1)?)?;
            // SECURITY: a key seen twice goes to the full path, which reports it.
            if idx >= 64 || seen & (1 << idx) != 0 {
                return None;
            }
            seen |= 1 << idx;
            i = ws(b, kend);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i = ws(b, i + 1);
            i = scalar(rule, text, i)?;
            i = ws(b, i);
            match b.get(i) {
                Some(b',') => i = ws(b, i + 1),
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    if ws(b, i) != b.len() {
        return None;
    }
    for &r in fields.required() {
        if r >= 64 || seen & (1 << r) == 0 {
            return None;
        }
    }
    Some(())
}

/// Check the scalar value at `i` against `rule`; the offset after it.
fn scalar(rule: &FieldRule, text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    match b.get(i)? {
        b'"' => {
            let (end, escaped) = scan_string(b, i).ok()?;
            if escaped || rule.ty != ValueType::String {
                return None;
            }
            rule.check_string(text.get(i + 1..end - 1)?).ok()?;
            Some(end)
        }
        b'-' | b'0'..=b'9' => {
            let (end, fraction, exponent) = scan_number_shaped(b, i).ok()?;
            if !matches!(rule.ty, ValueType::Number | ValueType::Integer) {
                return None;
            }
            rule.check_number_shaped(text.get(i..end)?, fraction, exponent)
                .ok()?;
            Some(end)
        }
        b't' if b.get(i..i + 4) == Some(b"true") && rule.ty == ValueType::Boolean => Some(i + 4),
        b'f' if b.get(i..i + 5) == Some(b"false") && rule.ty == ValueType::Boolean => Some(i + 5),
        b'n' if b.get(i..i + 4) == Some(b"null")
            && (rule.nullable || rule.ty == ValueType::Null) =>
        {
            Some(i + 4)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::policy::Policy;

    fn fields() -> FieldSet {
        Policy::from_toml(Path::new("p.toml"), "")
            .unwrap()
            .standard
            .fields
    }

    #[test]
    fn clean_seed_records_take_the_fast_path() {
        let f = fields();
        let line = br#"{"request_id": "chatcmpl-9f2c41d0", "t_arrival": 1789040112.104, "t_completion": 1789040114.312, "prompt_tokens": 412, "output_tokens": 128, "e2e_latency_s": 2.208, "ttft_s": null, "queue_wait_s": 0.004, "scheduler_family": "ltr-promptlen", "priority_score": -318.0}"#;
        assert!(clean_flat(&f, line));
        assert!(clean_flat(&f, b" {} "));
    }

    #[test]
    fn anything_unusual_goes_to_the_full_path() {
        let f = fields();
        for line in [
            &br#"{"prompt_text": "x"}"#[..],
            br#"{"request_id": "chatcmpl-1", "request_id": "chatcmpl-2"}"#,
            br#"{"request\u005fid": "chatcmpl-1"}"#,
            br#"{"request_id": "chatcmpl-\u0031"}"#,
            br#"{"request_id": "a sentence"}"#,
            br#"{"prompt_tokens": 1.5}"#,
            br#"{"prompt_tokens": -1}"#,
            br#"{"prompt_tokens": "1"}"#,
            br#"{"ttft_s": [1]}"#,
            br#"{"ttft_s": 1,}"#,
            br#"{"ttft_s": 1} x"#,
            br#"{"ttft_s": 01}"#,
            br#"{"scheduler_family": "FCFS"}"#,
            br#"{"priority_score": true}"#,
            b"{\"request_id\": \"chatcmpl-\xff\"}",
            b"[]",
            b"",
        ] {
            assert!(!clean_flat(&f, line), "{}", String::from_utf8_lossy(line));
        }
    }
}
