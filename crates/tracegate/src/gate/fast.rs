//! The clean-record fast path: one pass over a flat record, no tape.
//!
//! Most records a gate sees in production are clean: every key on the
//! allowlist, every value a scalar within its constraints. For those the
//! answer is "pass verbatim", and finding it does not need a tape, a second
//! walk or any allocation. `clean_flat` scans such a record once, checking
//! syntax, keys and values as it meets them, and answers `true` only when the
//! full path would pass the record verbatim with no finding. On anything else
//! (an unknown key, an escape, a nested value, a violation, a syntax error)
//! it answers `false` and the full path judges the record and explains why.
//!
//! **Invariant:** `clean_flat(line) == true` implies the full path returns
//! `Verdict::Verbatim` with no finding. A property test holds the
//! two paths to that.
//!
//! The scanner below (keys, separators, scalars held to their rules) is
//! the one the OTLP and evidence fast paths read with too; their memo of
//! passed values is `gate::memo`.

use super::detect::Detectors;
use crate::policy::{FieldRule, FieldSet, ValueType};
use crate::record::canonical::{has_separator, number_canonical, too_precise_for_a_double};
use crate::record::tape::{scan_number_shaped, scan_string};

/// Key-order guesses: after the key at allowlist index `i` (or at the start,
/// index `KeyOrder::START`), the key that followed it last time.
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

/// Whether the flat record `line` is certainly clean against `fields`,
/// with `detectors` run over its pattern-checked strings.
#[cfg(test)]
pub fn clean_flat(fields: &FieldSet, detectors: &Detectors, line: &[u8]) -> bool {
    scan(fields, detectors, line, &mut KeyOrder::default()).is_some()
}

/// `clean_flat`, learning and using the order of keys across records.
pub fn clean_flat_ordered(
    fields: &FieldSet,
    detectors: &Detectors,
    line: &[u8],
    order: &mut KeyOrder,
) -> bool {
    scan(fields, detectors, line, order).is_some()
}

/// The separator style of a line that has no separator yet (see [`sep`]).
pub(crate) const UNSEEN: u8 = 0;
/// No whitespace after a `,` or `:`.
pub(crate) const COMPACT: u8 = 1;
/// One space after each `,` and `:`.
pub(crate) const SPACED: u8 = 2;

/// Whitespace after a `,` or `:`, where the canonical form has none or
/// one space, the same all through the line (`record::canonical`); the
/// offset after it. `style` is [`UNSEEN`] until the first separator, then
/// [`COMPACT`] or [`SPACED`]. `None` when the line changes style.
///
/// Whitespace anywhere else is not canonical: the scan below meets it
/// where it expects a quote, a value or a delimiter, and gives up.
#[inline(always)]
pub(crate) fn sep(b: &[u8], i: usize, style: &mut u8) -> Option<usize> {
    let (this, next) = if b.get(i) == Some(&b' ') {
        (SPACED, i + 1)
    } else {
        (COMPACT, i)
    };
    if *style != this {
        if *style != UNSEEN {
            return None;
        }
        *style = this;
    }
    Some(next)
}

/// After a value at `i`: the offset of the next member or element (past
/// `,` and a separator of the line's `style`), or at `close` the offset
/// after it as `Err`; `None` for anything else.
#[inline(always)]
pub(crate) fn next(b: &[u8], i: usize, close: u8, style: &mut u8) -> Option<Result<usize, usize>> {
    match b.get(i) {
        Some(b',') => sep(b, i + 1, style).map(Ok),
        Some(&c) if c == close => Some(Err(i + 1)),
        _ => None,
    }
}

/// Whether the allowlist bits `seen` hold every field `fields` requires.
pub(crate) fn has_required(fields: &FieldSet, seen: u64) -> bool {
    fields
        .required()
        .iter()
        .all(|&r| r < 64 && seen & (1 << r) != 0)
}

/// The member whose allowlisted key's quoted name starts at `i` (its
/// `"`), tried first as field `guess` (the one that followed the previous
/// key last time): its index, marked in `seen`, and the offset of its
/// value (after `:` and a separator of the line's `style`). `None` for an
/// escaped, unknown or repeated key: the full path judges those. Shared
/// by this path and the nested evidence one. Always inlined: a call per
/// key cost a tenth of a clean record.
#[inline(always)]
pub(crate) fn next_key(
    fields: &FieldSet,
    b: &[u8],
    i: usize,
    guess: usize,
    seen: &mut u64,
    style: &mut u8,
) -> Option<(usize, usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let (idx, kend) = match fields.key_at(b, i + 1, guess) {
        Some(kend) => (guess, kend),
        None => {
            let (k, kend) = plain_string(b, i)?;
            let (idx, _) = fields.lookup_bytes(k)?;
            (idx, kend)
        }
    };
    // SECURITY: a key seen twice goes to the full path, which reports it.
    if idx >= 64 || *seen & (1 << idx) != 0 {
        return None;
    }
    *seen |= 1 << idx;
    if b.get(kend) != Some(&b':') {
        return None;
    }
    Some((idx, sep(b, kend + 1, style)?))
}

/// `Some(())` when clean; `None` means "ask the full path".
fn scan(fields: &FieldSet, detectors: &Detectors, b: &[u8], order: &mut KeyOrder) -> Option<()> {
    // SECURITY: UTF-8 is checked where it can fail, not over the whole line:
    // every byte outside strings is matched against ASCII syntax below, a
    // key is accepted only when its bytes equal an allowlisted name (valid
    // UTF-8), and a string value with a non-ASCII byte is validated on its
    // own. So a line that comes out clean is valid UTF-8.
    // SECURITY: only canonical whitespace passes (`record::canonical`).
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut i = 1;
    let mut style = UNSEEN;
    let mut seen: u64 = 0;
    let mut prev = KeyOrder::START;
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            let guess = usize::from(*order.0.get(prev)?);
            let (idx, v) = next_key(fields, b, i, guess, &mut seen, &mut style)?;
            *order.0.get_mut(prev)? = idx as u8;
            prev = idx;
            i = field_scalar(fields.rule(idx)?, Some((fields, idx)), detectors, b, v)?.end();
            match next(b, i, b'}', &mut style)? {
                Ok(n) => i = n,
                Err(end) => {
                    i = end;
                    break;
                }
            }
        }
    }
    (i == b.len() && has_required(fields, seen)).then_some(())
}

/// Whether a grammar-checked number literal meets `rule`'s range and may
/// go out as written. SECURITY: only canonical spellings pass verbatim; a
/// literal of up to 17 bytes without an exponent is one on sight.
#[inline(always)]
pub(crate) fn number_ok(rule: &FieldRule, literal: &[u8], fraction: bool, exponent: bool) -> bool {
    rule.check_number_bytes(literal, fraction, exponent).is_ok()
        && ((literal.len() <= 17 && !exponent)
            || (number_canonical(literal)
                && !(rule.ty == ValueType::Number && too_precise_for_a_double(literal))))
}

/// Whether a string value that met `rule` is one the detectors let pass
/// (`one_of` values are the policy's own words and are not scanned).
/// `None` when `s` is not UTF-8.
pub(crate) fn detectors_pass(rule: &FieldRule, detectors: &Detectors, s: &[u8]) -> Option<bool> {
    if rule.one_of.is_some() {
        return Some(true);
    }
    Some(detectors.hit_bytes(s).ok()?.is_none())
}

/// Whether the escape-free string `s` is a string `rule` takes by its own
/// checks (no field set's matcher), in canonical text, and the detectors
/// let it pass.
pub(crate) fn rule_string(rule: &FieldRule, detectors: &Detectors, s: &[u8]) -> bool {
    rule.ty == ValueType::String
        && canonical_text(s)
        && std::str::from_utf8(s).is_ok_and(|t| rule.check_string(t).is_ok())
        && detectors_pass(rule, detectors, s) == Some(true)
}

/// A JSON scalar at `i` whose type and spelling meet a rule, before a
/// string's own check ([`lex_scalar`]). Each holds the offset after it.
#[derive(Clone, Copy)]
pub(crate) enum Lexed<'a> {
    /// An escape-free string of canonical UTF-8 ([`canonical_text`]): its
    /// bytes between the quotes.
    Str(&'a [u8], usize),
    /// A number literal that met the rule's range and may go out as written.
    Num(usize),
    /// `true` or `false`.
    Bool(usize),
    /// `null`.
    Null(usize),
    /// A non-negative integer of at most 17 digits ([`plain_uint`]; the
    /// evidence path reads these itself, [`lex_scalar`] never does).
    Uint(u64, usize),
}

impl Lexed<'_> {
    /// The offset after the scalar.
    pub(crate) fn end(&self) -> usize {
        match *self {
            Lexed::Str(_, end)
            | Lexed::Num(end)
            | Lexed::Bool(end)
            | Lexed::Null(end)
            | Lexed::Uint(_, end) => end,
        }
    }
}

/// The escape-free JSON string whose quote is at `i`: its bytes (UTF-8
/// not checked) and the offset after it.
#[inline(always)]
pub(crate) fn plain_string(b: &[u8], i: usize) -> Option<(&[u8], usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let (end, escaped) = scan_string(b, i).ok()?;
    if escaped {
        return None;
    }
    Some((b.get(i + 1..end - 1)?, end))
}

/// A non-negative integer literal at `i` of at most 17 digits, with no
/// fraction and no exponent (the next byte is none of `.`, `e`, `E`, or a
/// digit after a leading `0`): the offset after it and its value.
///
/// Such a literal is canonical as written ([`number_ok`] passes up to 17
/// bytes without an exponent), its value is below 2^57, so `n as f64` is
/// the correctly rounded value a rule's bounds are compared with (what
/// parsing the literal as `i64` or `f64` gives), and `n` is what
/// [`parse_u64`] reads. Anything else is `None` and goes the general way.
#[inline(always)]
pub(crate) fn plain_uint(b: &[u8], i: usize) -> Option<(usize, u64)> {
    let first = b.get(i)?.wrapping_sub(b'0');
    if first > 9 {
        return None;
    }
    let mut n = u64::from(first);
    let mut j = i + 1;
    if first != 0 {
        while let Some(&c) = b.get(j) {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            if j - i == 17 {
                return None;
            }
            n = n * 10 + u64::from(d);
            j += 1;
        }
    }
    match b.get(j) {
        Some(b'.' | b'e' | b'E' | b'0'..=b'9') => None,
        _ => Some((j, n)),
    }
}

/// The scanner the fast paths share: the scalar at `i` lexed and held to
/// `rule`'s type, and a number to its bounds and canonical spelling;
/// `None` for anything the full path must judge (an escape, another type,
/// a non-canonical literal).
#[inline(always)]
pub(crate) fn lex_scalar<'a>(rule: &FieldRule, b: &'a [u8], i: usize) -> Option<Lexed<'a>> {
    match b.get(i)? {
        b'"' => {
            let (s, end) = plain_string(b, i)?;
            (rule.ty == ValueType::String && canonical_text(s)).then_some(Lexed::Str(s, end))
        }
        b'-' | b'0'..=b'9' => {
            let (end, fraction, exponent) = scan_number_shaped(b, i).ok()?;
            if !matches!(rule.ty, ValueType::Number | ValueType::Integer) {
                return None;
            }
            number_ok(rule, b.get(i..end)?, fraction, exponent).then_some(Lexed::Num(end))
        }
        b't' if b.get(i..i + 4) == Some(b"true") && rule.ty == ValueType::Boolean => {
            Some(Lexed::Bool(i + 4))
        }
        b'f' if b.get(i..i + 5) == Some(b"false") && rule.ty == ValueType::Boolean => {
            Some(Lexed::Bool(i + 5))
        }
        b'n' if b.get(i..i + 4) == Some(b"null")
            && (rule.nullable || rule.ty == ValueType::Null) =>
        {
            Some(Lexed::Null(i + 4))
        }
        _ => None,
    }
}

/// Whether an escape-free string's bytes may go out as written: valid
/// UTF-8 (so a line that comes out clean is UTF-8: outside strings only
/// ASCII syntax passes) and no raw U+2028/U+2029, which are not canonical
/// (the full path escapes them).
#[inline(always)]
pub(crate) fn canonical_text(s: &[u8]) -> bool {
    s.is_ascii() || (simdutf8::basic::from_utf8(s).is_ok() && !has_separator(s))
}

/// [`lex_scalar`] with a string held to its checks: those of field `idx`
/// of `fields` when `at` names one (its compiled matcher), else `rule`'s
/// own, and the detectors; `None` when it fails them.
#[inline(always)]
pub(crate) fn field_scalar<'a>(
    rule: &FieldRule,
    at: Option<(&FieldSet, usize)>,
    detectors: &Detectors,
    b: &'a [u8],
    i: usize,
) -> Option<Lexed<'a>> {
    let lexed = lex_scalar(rule, b, i)?;
    if let Lexed::Str(s, _) = lexed {
        // SECURITY: the detectors run here as on the full path (one_of
        // values are the policy's own words).
        let ok = match at {
            Some((fields, idx)) => fields.string_ok(idx, s) && detectors_pass(rule, detectors, s)?,
            None => rule_string(rule, detectors, s),
        };
        if !ok {
            return None;
        }
    }
    Some(lexed)
}

/// `a == b`, compared in words with no call to `memcmp` (values here are
/// short: a call and its dispatch cost more than the compare).
#[inline(always)]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let w = |x: &[u8], at: usize| {
            x.get(at..at + 8)
                .and_then(|w| <[u8; 8]>::try_from(w).ok())
                .map(u64::from_le_bytes)
        };
        let mut at = 0;
        while at + 8 < n {
            if w(a, at) != w(b, at) {
                return false;
            }
            at += 8;
        }
        w(a, n - 8) == w(b, n - 8)
    } else if n >= 4 {
        let w = |x: &[u8], at: usize| {
            x.get(at..at + 4)
                .and_then(|w| <[u8; 4]>::try_from(w).ok())
                .map(u32::from_le_bytes)
        };
        w(a, 0) == w(b, 0) && w(a, n - 4) == w(b, n - 4)
    } else {
        a.iter().zip(b).all(|(x, y)| x == y)
    }
}

/// A grammar-checked JSON number literal as u64: digits only, no sign,
/// fraction or exponent, and no overflow.
pub(crate) fn parse_u64(b: &[u8]) -> Option<u64> {
    if b.is_empty() {
        return None;
    }
    if b.len() <= 19 {
        // At most 19 digits never overflow (10^19 - 1 < 2^64): no checked
        // multiply (a `mul` and a flag test per digit, one after the other,
        // showed in profiles for the 12-digit monotonic clocks).
        let mut n: u64 = 0;
        let mut digits = true;
        for &c in b {
            let d = c.wrapping_sub(b'0');
            digits &= d < 10;
            n = n.wrapping_mul(10).wrapping_add(u64::from(d));
        }
        return digits.then_some(n);
    }
    let mut n: u64 = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(u64::from(c - b'0'))?;
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The word compare is `==`, at every length around its word sizes.
    #[test]
    fn same_is_equality() {
        use super::same;
        use proptest::prelude::*;
        let cfg = ProptestConfig {
            cases: 3000,
            ..ProptestConfig::default()
        };
        proptest!(cfg, |(a in prop::collection::vec(0u8..3, 0..50), flip in any::<prop::sample::Index>(), grow in any::<bool>())| {
            prop_assert!(same(&a, &a.clone()));
            let mut b = a.clone();
            if grow {
                b.push(0);
            } else if !b.is_empty() {
                let k = flip.index(b.len());
                b[k] ^= 0x80;
            }
            prop_assert_eq!(same(&a, &b), a == b);
            prop_assert_eq!(same(&b, &a), a == b);
        });
    }

    use super::*;
    use crate::policy::Policy;

    fn det() -> Detectors {
        Detectors::new(
            &Policy::from_toml(Path::new("p.toml"), "")
                .unwrap()
                .standard
                .detectors,
        )
    }

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
        assert!(clean_flat(&f, &det(), line));
        assert!(clean_flat(&f, &det(), b"{}"));
        // Not canonical: the full path rewrites these.
        assert!(!clean_flat(&f, &det(), b" {} "));
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
            assert!(
                !clean_flat(&f, &det(), line),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    /// A policy with free-form and patterned strings and awkward names, for
    /// the UTF-8 and key-matching tests.
    const ODD_POLICY: &str = r#"
version = 1
[standard.fields]
note = { type = "string", max_len = 8, free_text = true, max_words = 1 }
tag = { type = "string", pattern = "[a-z]+(-[a-z]+)*", max_segments = 2, max_segment_len = 3 }
"café" = { type = "number", nullable = true }
"a\\b" = { type = "integer" }
n = { type = "integer", min = 0 }
a_name_longer_than_sixteen = { type = "boolean" }
"#;

    #[test]
    fn utf8_is_checked_inside_strings_only_where_it_can_fail() {
        let policy = Policy::from_toml(Path::new("p.toml"), ODD_POLICY).unwrap();
        let f = &policy.standard.fields;
        assert!(clean_flat(f, &det(), "{\"note\": \"café\"}".as_bytes()));
        assert!(clean_flat(f, &det(), "{\"café\": 1}".as_bytes()));
        assert!(clean_flat(
            f,
            &det(),
            br#"{"a_name_longer_than_sixteen": true, "tag": "a-b"}"#
        ));
        for line in [
            &b"{\"note\": \"caf\xc3\"}"[..],
            b"{\"note\": \"\xff\"}",
            b"{\"note\": \"\xed\xa0\x80\"}",
            b"{\"caf\xc3\": 1}",
            b"{\"n\": 1\xa0}",
            b"\xef\xbb\xbf{}",
            // A name with a backslash is never matched raw: `\b` is an escape.
            br#"{"a\b": 1}"#,
            br#"{"tag": "a--b"}"#,
            br#"{"note": "123456789"}"#,
        ] {
            assert!(
                !clean_flat(f, &det(), line),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
    }

    /// The invariant on raw bytes, with key orders learned across records
    /// (so guesses are right and wrong), non-ASCII and invalid UTF-8.
    #[test]
    fn fast_clean_implies_full_path_verbatim_on_bytes() {
        use proptest::prelude::*;
        use std::sync::Arc;

        use crate::gate::{Gate, Verdict};
        use crate::source::lines::Line;
        use crate::window::Level;

        let keys: Vec<&[u8]> = vec![
            b"note",
            b"tag",
            "café".as_bytes(),
            b"caf\xc3",
            b"a\\b",
            b"n",
            b"nn",
            b"a_name_longer_than_sixteen",
            b"a_name_longer_than_sixteeN",
            b"no",
            b"note\\u0020",
        ];
        let values: Vec<&[u8]> = vec![
            b"\"caf\xc3\xa9\"",
            b"\"\xff\"",
            b"\"\xc3\"",
            b"\"abc\"",
            b"\"a-b-c\"",
            b"\"ab-cd\"",
            b"\"abcd\"",
            b"\"a b\"",
            b"\"a1 b\"",
            b"\"a--b\"",
            b"\"-a\"",
            b"\"123456789\"",
            b"\"12345678\"",
            b"\"a@b.io\"",
            b"\"\\u00e9\"",
            b"1",
            b"-1",
            b"1.5",
            b"null",
            b"true",
            b"1\xa0",
        ];
        let policy = Arc::new(Policy::from_toml(Path::new("p.toml"), ODD_POLICY).unwrap());
        let f = policy.standard.fields.clone();
        let cfg = ProptestConfig {
            cases: 3000,
            ..ProptestConfig::default()
        };
        let clean = std::sync::atomic::AtomicUsize::new(0);
        let order = std::sync::Mutex::new(KeyOrder::default());
        // Built once: a policy's detectors cost far more than a case.
        let det = det();
        proptest!(cfg, |(members in proptest::collection::vec((proptest::sample::select(keys), proptest::sample::select(values), any::<bool>()), 0..5))| {
            let mut line = b"{".to_vec();
            // One spacing style per record, as the canonical form has it
            // (sometimes two, which the fast path refuses).
            let style = members.first().is_some_and(|m| m.2);
            for (i, (k, v, mixed)) in members.iter().enumerate() {
                let spaced = if i == 1 { *mixed } else { style };
                let spaced = &spaced;
                if i > 0 { line.push(b','); }
                if *spaced && i > 0 { line.push(b' '); }
                line.push(b'"');
                line.extend_from_slice(k);
                line.extend_from_slice(if *spaced { b"\": " } else { b"\":" });
                line.extend_from_slice(v);
            }
            line.push(b'}');
            let mut order = order.lock().unwrap();
            let ordered = clean_flat_ordered(&f, &det, &line, &mut order);
            prop_assert_eq!(ordered, clean_flat(&f, &det, &line), "{}", String::from_utf8_lossy(&line));
            if ordered {
                clean.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let mut fast_off = Gate::new(policy.clone());
                fast_off.fast_cf = false;
                let j = fast_off.judge(1, &Line::Text(&line), Level::Standard, true);
                prop_assert_eq!(j.verdict, Verdict::Verbatim, "{}", String::from_utf8_lossy(&line));
                prop_assert!(fast_off.findings().is_empty(), "{}", String::from_utf8_lossy(&line));
            }
        });
        assert!(clean.load(std::sync::atomic::Ordering::Relaxed) > 100);
    }

    /// The invariant: whenever the fast path says clean, the full path
    /// passes the record verbatim with no finding.
    #[test]
    fn fast_clean_implies_full_path_verbatim() {
        use proptest::prelude::*;
        use std::sync::Arc;

        use crate::gate::{Gate, Verdict};
        use crate::source::lines::Line;
        use crate::window::Level;

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
            Just("\"chatcmpl-4111111111111111\"".to_string()),
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
        // Built once: a policy's detectors cost far more than a case.
        let det = det();
        proptest!(cfg, |(members in proptest::collection::vec((keys, values, any::<bool>()), 0..6))| {
            let mut line = String::from("{");
            let style = members.first().is_some_and(|m| m.2);
            for (i, (k, v, mixed)) in members.iter().enumerate() {
                let spaced = if i == 1 { *mixed } else { style };
                let spaced = &spaced;
                if i > 0 { line.push(','); }
                if *spaced && i > 0 { line.push(' '); }
                line.push_str(&format!("\"{k}\":{}{v}", if *spaced { " " } else { "" }));
            }
            line.push('}');
            if clean_flat(&f, &det, line.as_bytes()) {
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
