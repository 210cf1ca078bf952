//! The canonical-bytes guarantee, attacked: records whose values meet
//! their rules but whose spelling carries data (whitespace, number digits,
//! escapes, hex case, leading zeros). Whatever the spelling, what the gate
//! emits is canonical (`record::canonical`), decodes to the same values,
//! and, when rewritten, depends on the decoded values alone.

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::Value;

use super::{Gate, Verdict};
use crate::policy::Policy;
use crate::record::tape::Tape;
use crate::source::lines::Line;
use crate::window::Level;

/// One way of writing a JSON text: where whitespace goes, how numbers and
/// strings are spelt.
#[derive(Debug, Clone)]
struct Spelling {
    /// Whitespace runs drawn in turn at every place JSON allows them.
    ws: Vec<&'static str>,
    /// Per number: how to spell it (see [`number`]).
    numbers: Vec<u8>,
    /// Per character of every string: escape it, and how.
    escapes: Vec<u8>,
    /// Pad plain integers written as strings with this many zeros.
    zeros: usize,
    /// Write hex ids in uppercase.
    upper_hex: bool,
}

fn spelling() -> impl Strategy<Value = Spelling> {
    let ws = proptest::sample::select(vec!["", "", "", " ", "  ", "\t", "\n", " \r\n "]);
    (
        proptest::collection::vec(ws, 1..12),
        proptest::collection::vec(any::<u8>(), 1..8),
        proptest::collection::vec(any::<u8>(), 1..16),
        0usize..4,
        any::<bool>(),
    )
        .prop_map(|(ws, numbers, escapes, zeros, upper_hex)| Spelling {
            ws,
            numbers,
            escapes,
            zeros,
            upper_hex,
        })
}

/// A writer of one JSON value in a given [`Spelling`].
struct Writer<'s> {
    sp: &'s Spelling,
    out: String,
    n_ws: usize,
    n_num: usize,
    n_esc: usize,
}

impl Writer<'_> {
    fn ws(&mut self) {
        let w = self.sp.ws[self.n_ws % self.sp.ws.len()];
        self.n_ws += 1;
        self.out.push_str(w);
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Object(m) => {
                self.out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.ws();
                    self.string(k);
                    self.ws();
                    self.out.push(':');
                    self.ws();
                    self.value(v);
                    self.ws();
                }
                self.out.push('}');
            }
            Value::Array(a) => {
                self.out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.ws();
                    self.value(v);
                    self.ws();
                }
                self.out.push(']');
            }
            Value::String(s) => self.string_value(s),
            Value::Number(n) => {
                let how = self.sp.numbers[self.n_num % self.sp.numbers.len()];
                self.n_num += 1;
                self.out.push_str(&number(n, how));
            }
            other => self.out.push_str(&other.to_string()),
        }
    }

    fn string_value(&mut self, s: &str) {
        let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let hex = s.len() >= 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
        if digits && self.sp.zeros > 0 {
            let padded = format!("{}{s}", "0".repeat(self.sp.zeros));
            if padded.len() <= 20 {
                return self.string(&padded);
            }
        }
        if hex && self.sp.upper_hex {
            return self.string(&s.to_ascii_uppercase());
        }
        self.string(s)
    }

    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            let how = self.sp.escapes[self.n_esc % self.sp.escapes.len()];
            self.n_esc += 1;
            match (how % 4, c) {
                (0, '/') => self.out.push_str("\\/"),
                (1, _) => self.out.push_str(&format!("\\u{:04x}", c as u32 & 0xffff)),
                (2, _) => self.out.push_str(&format!("\\u{:04X}", c as u32 & 0xffff)),
                _ if c == '"' || c == '\\' => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                _ => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

/// A spelling of number `n` that reads back as the same value: as is, with
/// trailing zeros, with digits past a double's precision, in exponent form
/// (with a padded exponent).
fn number(n: &serde_json::Number, how: u8) -> String {
    let plain = n.to_string();
    let Some(f) = n.as_f64().filter(|_| n.is_f64()) else {
        // Integers have one spelling (the rule says integer).
        return plain;
    };
    match how % 5 {
        0 => plain,
        1 => {
            let base = if plain.contains('.') {
                plain
            } else {
                format!("{plain}.0")
            };
            format!("{base}{}", "0".repeat(40))
        }
        // The exact decimal expansion of the double: up to hundreds of digits.
        2 => format!("{f:.60}"),
        3 => {
            let e = format!("{f:e}");
            let (m, x) = e.split_once('e').unwrap_or((&e, "0"));
            let (sign, digits) = x.strip_prefix('-').map_or(("", x), |d| ("-", d));
            format!("{m}e{sign}000{digits}")
        }
        _ => format!("{}E+0", plain),
    }
}

fn spell(v: &Value, sp: &Spelling) -> String {
    let mut w = Writer {
        sp,
        out: String::new(),
        n_ws: 0,
        n_num: 0,
        n_esc: 0,
    };
    w.ws();
    w.value(v);
    w.ws();
    w.out
}

/// Two JSON values are the same when they decode alike, numbers as
/// doubles (integers exactly), hex ids and digit strings by their value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::String(x), Value::String(y)) => {
            x == y
                || (x.len() >= 16 && x.eq_ignore_ascii_case(y))
                || (x.bytes().all(|c| c.is_ascii_digit())
                    && y.bytes().all(|c| c.is_ascii_digit())
                    && x.trim_start_matches('0') == y.trim_start_matches('0'))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn policy() -> Arc<Policy> {
    Arc::new(Policy::from_toml(Path::new("p.toml"), "").unwrap())
}

/// Judge `line` at standard level and return what a sink receives.
fn emitted(gate: &mut Gate, line: &str) -> Option<(Verdict, String)> {
    let j = gate.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
    match j.verdict {
        Verdict::Verbatim => Some((j.verdict, line.to_string())),
        Verdict::Rewritten => Some((
            j.verdict,
            String::from_utf8(gate.output().to_vec()).unwrap(),
        )),
        _ => None,
    }
}

fn canonical(line: &str) -> bool {
    let mut t = Tape::new();
    t.scan(line.as_bytes()).is_ok() && t.canonical()
}

/// Records whose every value meets the default policy's rules.
fn clean_records() -> Vec<Value> {
    let parse = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    vec![
        parse(
            r#"{"request_id": "chatcmpl-9f2c41d0", "t_arrival": 1789040112.104, "t_completion": 1789040114.312, "prompt_tokens": 412, "output_tokens": 128, "e2e_latency_s": 2.208, "ttft_s": null, "queue_wait_s": 0.004, "scheduler_family": "ltr-promptlen", "priority_score": -318.0}"#,
        ),
        parse(
            r#"{"name": "llm_request", "kind": 1, "traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "startTimeUnixNano": "1788450022633673216", "endTimeUnixNano": "1788450022799637248", "attributes": [{"key": "cf.request_id", "value": {"stringValue": "chatcmpl-b8af6f4d128fdd4c-b31b5b1f"}}, {"key": "gen_ai.usage.prompt_tokens", "value": {"intValue": "54"}}, {"key": "cf.e2e_latency_s", "value": {"doubleValue": 0.1659}}, {"key": "cf.scheduler.family", "value": {"stringValue": "trace"}}]}"#,
        ),
        parse(
            r#"{"schema_version": "latency-evidence.v1", "trace_id": "tr_synthetic_8f31", "request_id": "req_synthetic_2047", "attempt": 2, "events": [{"stage": "upstream", "event_name": "provider_dispatch", "timestamp_utc": "2026-09-08T10:15:30.120Z", "monotonic_ns": 842001000000, "service": "gateway"}], "derived_intervals": [{"name": "token_streaming_time", "start_event": "first_output_token", "end_event": "final_output_token", "duration": 850.5, "duration_unit": "ms"}], "clock_source": "local_monotonic_with_utc_correlation", "status": "completed"}"#,
        ),
    ]
}

#[test]
fn every_spelling_of_a_clean_record_goes_out_canonical_with_the_same_values() {
    let policy = policy();
    let records = clean_records();
    let cfg = ProptestConfig {
        cases: 1500,
        ..ProptestConfig::default()
    };
    let rewritten = std::sync::atomic::AtomicUsize::new(0);
    proptest!(cfg, |(which in 0usize..3, sp in spelling())| {
        let record = &records[which];
        let line = spell(record, &sp);
        let mut gate = Gate::new(policy.clone());
        let Some((verdict, out)) = emitted(&mut gate, &line) else {
            return Err(TestCaseError::fail(format!("dropped: {line} {:?}", gate.findings())));
        };
        // The channel is gone: what goes out is canonical...
        prop_assert!(canonical(&out), "{line} -> {out}");
        prop_assert!(verdict == Verdict::Rewritten || canonical(&line), "{line}");
        // ...no number is longer than a double needs...
        let mut t = Tape::new();
        let text = t.scan(out.as_bytes()).unwrap();
        for tok in t.tokens() {
            if tok.kind == crate::record::tape::Kind::Number {
                prop_assert!(tok.end - tok.start <= 25, "{}", &text[tok.start as usize..tok.end as usize]);
            }
        }
        // ...and the values are unchanged.
        let back: Value = serde_json::from_str(&out).unwrap();
        prop_assert!(same(record, &back), "{line} -> {out}");
        if verdict == Verdict::Rewritten {
            rewritten.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
    assert!(rewritten.load(std::sync::atomic::Ordering::Relaxed) > 500);
}

#[test]
fn a_rewrite_depends_on_the_decoded_values_alone() {
    let policy = policy();
    let records = clean_records();
    proptest!(|(which in 0usize..3, mut a in spelling(), mut b in spelling())| {
        // Leave out the number spellings that are canonical already (an
        // exponent within bounds): a rewrite keeps those as written, a
        // bounded choice of a few bits.
        for n in a.numbers.iter_mut().chain(b.numbers.iter_mut()) {
            if *n % 5 == 4 {
                *n = 0;
            }
        }
        let record = &records[which];
        let mut gate = Gate::new(policy.clone());
        let (la, lb) = (spell(record, &a), spell(record, &b));
        let x = emitted(&mut gate, &la).ok_or_else(|| TestCaseError::fail(format!("{la} {:?}", gate.findings())))?;
        let y = emitted(&mut gate, &lb).ok_or_else(|| TestCaseError::fail(format!("{lb} {:?}", gate.findings())))?;
        if x.0 == Verdict::Rewritten && y.0 == Verdict::Rewritten {
            // Two spellings, one output: nothing of the spelling got through.
            prop_assert_eq!(x.1, y.1);
        }
    });
}

#[test]
fn the_issue_channels_are_rewritten() {
    let policy = policy();
    let mut gate = Gate::new(policy);
    let long = format!("0.{}", "7".repeat(225));
    for (line, gone) in [
        (
            format!(r#"{{"request_id":"chatcmpl-1","priority_score":{long}}}"#),
            "7777777777777777777",
        ),
        (
            r#"{"request_id":"chatcmpl-1","t_arrival":1.5e0000000001}"#.to_string(),
            "e0000",
        ),
        (
            "{\"request_id\":\"chatcmpl-1\",\t\"t_arrival\":1.5}".to_string(),
            "\t",
        ),
        (
            r#"{"request_id":"chatcmpl-1",  "t_arrival":1.5}"#.to_string(),
            "  ",
        ),
        (
            r#"{"request_id":"chatcmpl-\u0031"}"#.to_string(),
            "\\u",
        ),
        (
            r#"{"request_id":"chatcmpl-1","scheduler_family":"\u0066cfs"}"#.to_string(),
            "\\u",
        ),
        (
            r#"{"name":"llm_request","attributes":[{"key":"cf.e2e_latency_s","value":{"doubleValue":0.1000000000000000055511151231257827021181583404541015625}}]}"#.to_string(),
            "0000000000000000555",
        ),
        (
            r#"{"name":"llm_request","startTimeUnixNano":"00000000000000000001","attributes":[]}"#.to_string(),
            "\"0000",
        ),
        (
            r#"{"name":"llm_request","attributes":[{"key":"gen_ai.usage.prompt_tokens","value":{"intValue":"0054"}}]}"#.to_string(),
            "\"0054",
        ),
        (
            r#"{"name":"llm_request","traceId":"5B8EFFF798038103D269B633813FC60C","attributes":[]}"#.to_string(),
            "5B8E",
        ),
    ] {
        let j = gate.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
        assert_eq!(j.verdict, Verdict::Rewritten, "{line}: {:?}", gate.findings());
        let out = String::from_utf8(gate.output().to_vec()).unwrap();
        assert!(!out.contains(gone), "{line} -> {out}");
        assert!(canonical(&out), "{out}");
    }
}

#[test]
fn mixed_spacing_styles_are_not_canonical_but_each_style_is() {
    let policy = policy();
    let mut gate = Gate::new(policy);
    for (line, verbatim) in [
        (r#"{"request_id":"chatcmpl-1","t_arrival":1.5}"#, true),
        (r#"{"request_id": "chatcmpl-1", "t_arrival": 1.5}"#, true),
        (r#"{"request_id": "chatcmpl-1","t_arrival": 1.5}"#, false),
        (r#"{"request_id":"chatcmpl-1", "t_arrival":1.5}"#, false),
        (r#"{ "request_id":"chatcmpl-1"}"#, false),
        (r#"{"request_id":"chatcmpl-1" }"#, false),
        (r#"{"request_id" :"chatcmpl-1"}"#, false),
    ] {
        let j = gate.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
        assert_eq!(j.verdict == Verdict::Verbatim, verbatim, "{line}");
        assert!(gate.findings().is_empty(), "{line}");
    }
}

#[test]
fn line_separators_are_escaped_in_output() {
    let policy = Arc::new(
        Policy::from_toml(
            Path::new("p.toml"),
            "[standard.fields]\nnote = { type = \"string\", max_len = 64, free_text = true }\n",
        )
        .unwrap(),
    );
    let mut gate = Gate::new(policy);
    let line = "{\"note\":\"a\u{2028}b\u{2029}c\"}";
    let j = gate.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
    assert_eq!(j.verdict, Verdict::Rewritten, "{:?}", gate.findings());
    let out = String::from_utf8(gate.output().to_vec()).unwrap();
    assert_eq!(out, r#"{"note":"a\u2028b\u2029c"}"#);
    assert!(canonical(&out));
}

/// The clean example and seed records keep the verbatim path.
#[test]
fn clean_example_records_pass_verbatim() {
    let policy = policy();
    let mut gate = Gate::new(policy);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut verbatim = 0;
    for name in [
        "standard.jsonl",
        "otlp-spans.jsonl",
        "evidence.jsonl",
        "mixed.jsonl",
    ] {
        let text = std::fs::read_to_string(root.join("examples/traces").join(name)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let j = gate.judge(1, &Line::Text(line.as_bytes()), Level::Standard, true);
            if gate.findings().is_empty() {
                assert_eq!(j.verdict, Verdict::Verbatim, "{name}: {line}");
                verbatim += 1;
            }
        }
    }
    assert!(verbatim >= 5, "{verbatim}");
}
