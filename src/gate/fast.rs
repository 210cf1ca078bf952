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

/// Key-order guesses: after the key at allowlist index `i` (or at the start,
/// index [`KeyOrder::START`]), the key that followed it last time.
#[derive(Debug, Clone)]
pub struct KeyOrder([u8; 65]);

impl KeyOrder {
    const START: usize = 64;
}

impl Default for KeyOrder {
    fn default() -> Self {
        KeyOrder([0; 65])
    }
}

/// Whether the flat record `line` is certainly clean against `fields`.
pub fn clean_flat(fields: &FieldSet, line: &[u8]) -> bool {
    scan(fields, line, &mut KeyOrder::default()).is_some()
}

/// [`clean_flat`], learning and using the order of keys across records.
pub fn clean_flat_ordered(fields: &FieldSet, line: &[u8], order: &mut KeyOrder) -> bool {
    scan(fields, line, order).is_some()
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = b.get(i) {
        i += 1;
    }
    i
}

/// `Some(())` when clean; `None` means "ask the full path".
fn scan(fields: &FieldSet, b: &[u8], order: &mut KeyOrder) -> Option<()> {
    // One UTF-8 check for the whole line; values are then sliced as `&str`.
    let text = std::str::from_utf8(b).ok()?;
    let mut i = ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = ws(b, i + 1);
    let mut seen: u64 = 0;
    let mut prev = KeyOrder::START;
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
            let guess = usize::from(order.0[prev]);
            let (idx, rule) = fields.lookup_guessed(b.get(i + 1..kend - 1)?, guess)?;
            // SECURITY: a key seen twice goes to the full path, which reports it.
            if idx >= 64 || seen & (1 << idx) != 0 {
                return None;
            }
            seen |= 1 << idx;
            order.0[prev] = idx as u8;
            prev = idx;
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

    /// The invariant: whenever the fast path says clean, the full path
    /// passes the record verbatim with no finding.
    #[test]
    fn fast_clean_implies_full_path_verbatim() {
        use proptest::prelude::*;
        use std::sync::Arc;

        use crate::gate::{Gate, Level, Verdict};
        use crate::source::lines::Line;

        let keys = prop_oneof![
            Just("request_id"),
            Just("t_arrival"),
            Just("prompt_tokens"),
            Just("ttft_s"),
            Just("scheduler_family"),
            Just("priority_score"),
            Just("prompt_text"),
            Just("x"),
            Just("request\\u005fid"),
        ];
        let values = prop_oneof![
            Just("\"chatcmpl-9f2c41d0\"".to_string()),
            Just("\"fcfs\"".to_string()),
            Just("\"a sentence\"".to_string()),
            Just("null".to_string()),
            Just("true".to_string()),
            Just("-0".to_string()),
            Just("1e400".to_string()),
            Just("3".to_string()),
            Just("-3.5".to_string()),
            Just("12345678901234567890".to_string()),
            Just("[1]".to_string()),
            Just("{}".to_string()),
            Just("\"chatcmpl-\\u0031\"".to_string()),
            Just("0.5".to_string()),
            Just("1.0".to_string()),
        ];
        let policy = Arc::new(Policy::from_toml(Path::new("p.toml"), "").unwrap());
        let f = policy.standard.fields.clone();
        let cfg = ProptestConfig {
            cases: 3000,
            ..ProptestConfig::default()
        };
        let clean = std::sync::atomic::AtomicUsize::new(0);
        proptest!(cfg, |(members in proptest::collection::vec((keys, values, any::<bool>()), 0..6))| {
            let mut line = String::from("{");
            for (i, (k, v, spaced)) in members.iter().enumerate() {
                if i > 0 { line.push(','); }
                if *spaced { line.push(' '); }
                line.push_str(&format!("\"{k}\":{}{v}", if *spaced { " " } else { "" }));
            }
            line.push('}');
            if clean_flat(&f, line.as_bytes()) {
                clean.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let mut fast_off = Gate::new(policy.clone());
                fast_off.fast_cf = false;
                let j = fast_off.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
                prop_assert_eq!(j.verdict, Verdict::Verbatim, "{}", line);
                prop_assert!(fast_off.findings().is_empty(), "{}", line);
            }
        });
        // Not vacuous: a good share of the generated records took the fast path.
        assert!(clean.load(std::sync::atomic::Ordering::Relaxed) > 100);
    }
}
