use std::path::Path;

use super::*;

fn policy(toml: &str) -> Policy {
    Policy::from_toml(Path::new("p.toml"), toml).unwrap()
}

fn part<'a>(b: &'a Bound, path: &str) -> &'a Part {
    b.parts
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no part {path}: {:#?}", b.parts))
}

fn close(a: f64, exact: f64) {
    assert!(a >= exact, "{a} below {exact}");
    assert!(a - exact < 1e-4, "{a} far above {exact}");
}

/// Tiny cf allowlists whose counts are known by hand.
#[test]
fn tiny_cf_policies_count_exactly() {
    let p = policy(
        r#"
[standard.fields]
replace_defaults = true
a = { type = "string", one_of = ["w", "x", "y", "z"], required = true }
b = { type = "string", pattern = "[ab]{1,3}", required = true }
c = { type = "integer", min = 1, max = 8, required = true }
d = { type = "boolean" }
e = { type = "string", one_of = ["only"], nullable = true }
"#,
    );
    let cap = Capacity::of(&p);
    let cf = &cap.policy[0];
    assert_eq!(cf.format, RecordFormat::Cf);
    close(part(cf, "a").bits, 2.0);
    close(part(cf, "b").bits, 14f64.log2());
    close(part(cf, "c").bits, 3.0);
    // Absent, true or false.
    close(part(cf, "d").bits, 3f64.log2());
    // Absent, null or "only".
    close(part(cf, "e").bits, 3f64.log2());
    close(part(cf, "key order").bits, 120f64.log2());
    close(part(cf, "line").bits, 1.0);
    let sum: f64 = cf.parts.iter().map(|p| p.bits).sum();
    assert_eq!(cf.bits, sum);
}

/// `-0` is a second spelling of zero for an integer.
#[test]
fn integers_count_minus_zero() {
    let p = policy(
        r#"
[standard.fields]
replace_defaults = true
n = { type = "integer", min = 0, max = 2, required = true }
"#,
    );
    close(part(&Capacity::of(&p).policy[0], "n").bits, 4f64.log2());
}

#[test]
fn an_unbounded_rule_says_why() {
    let p = policy(
        r#"
[standard.fields]
replace_defaults = true
note = { type = "string", pattern = "[a-z ]+" }
"#,
    );
    let cf = &Capacity::of(&p).policy[0];
    assert!(!cf.is_bounded());
    let u: Vec<&Part> = cf.unbounded().collect();
    assert_eq!(u.len(), 1);
    assert!(
        u[0].derivation.contains("no max_len"),
        "{}",
        u[0].derivation
    );
    assert!(
        u[0].derivation.starts_with("unbounded: \u{60}note\u{60}"),
        "{}",
        u[0].derivation
    );
}

#[test]
fn the_default_policy_is_bounded_in_every_format() {
    let p = policy("");
    let cap = Capacity::of(&p);
    for b in &cap.policy {
        assert!(
            b.is_bounded(),
            "{:?}: {:#?}",
            b.format,
            b.unbounded().collect::<Vec<_>>()
        );
        eprintln!("{}: {:.1} bits", b.format.as_str(), b.bits);
        for t in b.top(5) {
            eprintln!("  {:>9.1}  {}  {}", t.bits, t.path, t.derivation);
        }
    }
}

/// A small deterministic generator (xorshift), seeded by proptest.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Hex with a letter every fourth place, so no run of digits looks
    /// like a card number to the detectors: `bits_of_id(n)` bits.
    fn id(&mut self, len: usize) -> String {
        (0..len)
            .map(|i| {
                if i % 4 == 3 {
                    char::from(b"abcdef"[self.below(6) as usize])
                } else {
                    char::from(b"0123456789abcdef"[self.below(16) as usize])
                }
            })
            .collect()
    }
    fn hex(&mut self, digits: usize) -> String {
        (0..digits)
            .map(|_| char::from(b"0123456789abcdef"[self.below(16) as usize]))
            .collect()
    }
    /// A random order of `items`.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The choices of [`Rng::id`].
fn bits_of_id(len: usize) -> f64 {
    let letters = len / 4;
    (len - letters) as f64 * 4.0 + letters as f64 * 6f64.log2()
}

/// `{"k":v,...}` with members in the order given.
fn obj(members: &[(String, String)]) -> String {
    let inner: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    format!("{{{}}}", inner.join(","))
}

/// A record and the information its generator put in it: log2 of the
/// number of distinct records the generator can make (its choices are
/// independent and each one shows in the record, so the count is the
/// product of the choices).
struct Generated {
    line: String,
    bits: f64,
    /// Bits per structure: the bound's parts whose path starts with the
    /// name must hold at least these, and within a bit of them when the
    /// generator fills the structure completely (`true`).
    parts: Vec<(&'static str, f64, bool)>,
}

/// A u64 nanosecond time, as a string or a JSON number: 65 bits.
fn nanos(r: &mut Rng) -> String {
    let n = r.next();
    if r.below(2) == 0 {
        format!("\"{n}\"")
    } else {
        n.to_string()
    }
}

/// One span of the default policy, every channel the generator knows
/// filled with random choices: the order of the span's members, ids,
/// times (in both JSON kinds), kind, flags, the dropped counts, a name of
/// the `{operation} {model}` shape, attributes in random order with key
/// and value in random order, events and links up to their caps.
fn span(r: &mut Rng) -> Generated {
    let mut bits = 0.0;
    let mut parts = Vec::new();
    let mut m: Vec<(String, String)> = Vec::new();
    let add = |m: &mut Vec<(String, String)>, k: &str, v: String| m.push((k.into(), v));
    add(&mut m, "traceId", format!("\"{}\"", r.hex(32)));
    bits += 128.0;
    parts.push(("span.traceId", 128.0, true));
    add(&mut m, "spanId", format!("\"{}\"", r.hex(16)));
    add(&mut m, "parentSpanId", format!("\"{}\"", r.hex(16)));
    bits += 128.0;
    parts.push(("span.spanId", 64.0, true));
    parts.push(("span.parentSpanId", 64.0, true));
    add(&mut m, "startTimeUnixNano", nanos(r));
    add(&mut m, "endTimeUnixNano", nanos(r));
    bits += 130.0;
    parts.push(("span.startTimeUnixNano", 65.0, true));
    parts.push(("span.endTimeUnixNano", 65.0, true));
    // kind: 6 numbers or 6 names.
    let k = r.below(12);
    let kinds = crate::otlp_schema::SPAN_KINDS;
    add(
        &mut m,
        "kind",
        if k < 6 {
            k.to_string()
        } else {
            format!("\"{}\"", kinds[(k - 6) as usize])
        },
    );
    bits += 12f64.log2();
    parts.push(("span.kind", 12f64.log2(), true));
    // flags: the 4 defined bits, string or number.
    let f = [
        0u64, 1, 2, 3, 256, 257, 258, 259, 512, 513, 514, 515, 768, 769, 770, 771,
    ][r.below(16) as usize];
    add(
        &mut m,
        "flags",
        if r.below(2) == 0 {
            f.to_string()
        } else {
            format!("\"{f}\"")
        },
    );
    bits += 5.0;
    parts.push(("span.flags", 5.0, true));
    for d in [
        "span.droppedAttributesCount",
        "span.droppedEventsCount",
        "span.droppedLinksCount",
    ] {
        parts.push((d, 33.0, true));
    }
    for key in [
        "droppedAttributesCount",
        "droppedEventsCount",
        "droppedLinksCount",
    ] {
        let n = r.below(1 << 32);
        add(
            &mut m,
            key,
            if r.below(2) == 0 {
                n.to_string()
            } else {
                format!("\"{n}\"")
            },
        );
        bits += 33.0;
    }
    // name: one of 13 operations and 8 lowercase letters.
    let ops = [
        "chat",
        "generate_content",
        "text_completion",
        "embeddings",
        "retrieval",
        "create_agent",
        "invoke_agent",
        "execute_tool",
        "search_memory",
        "update_memory",
        "delete_memory",
        "create_memory_store",
        "delete_memory_store",
    ];
    let model: String = (0..8)
        .map(|_| char::from(b'a' + r.below(26) as u8))
        .collect();
    add(
        &mut m,
        "name",
        format!("\"{} {model}\"", ops[r.below(13) as usize]),
    );
    bits += 13f64.log2() + 8.0 * 26f64.log2();
    parts.push(("span.name", 13f64.log2() + 8.0 * 26f64.log2(), false));
    let before_attrs = bits;
    // attributes: four keys in random order, key/value in random order.
    let mut attrs: Vec<(String, String)> = vec![
        (
            "gen_ai.usage.input_tokens".into(),
            format!("{{\"intValue\":\"{}\"}}", r.below(1 << 62)),
        ),
        (
            "gen_ai.usage.output_tokens".into(),
            format!("{{\"intValue\":{}}}", r.below(1 << 62)),
        ),
        (
            "gen_ai.operation.name".into(),
            format!("{{\"stringValue\":\"{}\"}}", ops[r.below(13) as usize]),
        ),
        (
            "gen_ai.response.id".into(),
            format!("{{\"stringValue\":\"{}\"}}", r.id(24)),
        ),
    ];
    bits += 62.0 + 62.0 + 13f64.log2() + bits_of_id(24);
    r.shuffle(&mut attrs);
    bits += 24f64.log2();
    let list: Vec<String> = attrs
        .iter()
        .map(|(k, v)| {
            let key = format!("\"key\":\"{k}\"");
            let value = format!("\"value\":{v}");
            if r.below(2) == 0 {
                format!("{{{key},{value}}}")
            } else {
                format!("{{{value},{key}}}")
            }
        })
        .collect();
    bits += 4.0;
    parts.push(("span.attributes", bits - before_attrs, false));
    add(&mut m, "attributes", format!("[{}]", list.join(",")));
    // events: 0 to 32, each a time and a name in random order.
    let names = [
        "exception",
        "gen_ai.client.inference.operation.details",
        "gen_ai.evaluation.result",
        "gen_ai.content.prompt",
        "gen_ai.content.completion",
        "gen_ai.system.message",
        "gen_ai.user.message",
        "gen_ai.assistant.message",
        "gen_ai.tool.message",
        "gen_ai.choice",
        "rpc.message",
        "message",
        "first_scheduled",
        "first_token",
        "scheduler.admit",
    ];
    let n = r.below(33) as usize;
    let per_event = 65.0 + 15f64.log2() + 1.0;
    let events: Vec<String> = (0..n)
        .map(|_| {
            let mut e = vec![
                ("timeUnixNano".to_string(), nanos(r)),
                (
                    "name".to_string(),
                    format!("\"{}\"", names[r.below(15) as usize]),
                ),
            ];
            r.shuffle(&mut e);
            obj(&e)
        })
        .collect();
    // Sequences of at most 32 events: log2 of their number.
    bits += log2_sequences(per_event, 32);
    parts.push(("span.events", log2_sequences(per_event, 32), false));
    add(&mut m, "events", format!("[{}]", events.join(",")));
    // links: 0 to 8, each ids in random order.
    let n = r.below(9) as usize;
    let per_link = 192.0 + 1.0;
    let links: Vec<String> = (0..n)
        .map(|_| {
            let mut l = vec![
                ("traceId".to_string(), format!("\"{}\"", r.hex(32))),
                ("spanId".to_string(), format!("\"{}\"", r.hex(16))),
            ];
            r.shuffle(&mut l);
            obj(&l)
        })
        .collect();
    bits += log2_sequences(per_link, 8);
    parts.push(("span.links", log2_sequences(per_link, 8), false));
    add(&mut m, "links", format!("[{}]", links.join(",")));
    // status: 3 codes by number or name.
    let c = r.below(6);
    let codes = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];
    let code = if c < 3 {
        c.to_string()
    } else {
        format!("\"{}\"", codes[(c - 3) as usize])
    };
    add(&mut m, "status", format!("{{\"code\":{code}}}"));
    bits += 6f64.log2();
    parts.push(("span.status", 6f64.log2(), false));
    // The members in random order.
    r.shuffle(&mut m);
    bits += log2_factorial(m.len());
    parts.push(("span: key order", log2_factorial(m.len()), false));
    let span = obj(&m);
    // In a request with an empty resource and scope: one form.
    let line = format!(
        "{{\"resourceSpans\":[{{\"resource\":{{}},\"scopeSpans\":[{{\"scope\":{{}},\"spans\":[{span}]}}]}}]}}"
    );
    Generated { line, bits, parts }
}

/// A cf record of the default policy: every field, in random order, each
/// with random choices.
fn cf(r: &mut Rng) -> Generated {
    let mut bits = 0.0;
    let mut m: Vec<(String, String)> = Vec::new();
    let hex: String = r.id(40);
    m.push(("request_id".into(), format!("\"chatcmpl-{hex}\"")));
    bits += bits_of_id(40);
    for key in ["t_arrival", "t_completion", "e2e_latency_s", "queue_wait_s"] {
        // A canonical literal: up to 9 digits, a point, 6 digits.
        m.push((
            key.into(),
            format!("{}.{:06}", r.below(1_000_000_000), r.below(1_000_000)),
        ));
        bits += (1e9f64 * 1e6).log2();
    }
    for key in ["prompt_tokens", "output_tokens"] {
        m.push((key.into(), r.below(1 << 62).to_string()));
        bits += 62.0;
    }
    let fam = [
        "ltr",
        "ltr-promptlen",
        "affinity",
        "trace",
        "tie",
        "hybrid",
        "fcfs",
    ];
    m.push((
        "scheduler_family".into(),
        format!("\"{}\"", fam[r.below(7) as usize]),
    ));
    bits += 7f64.log2();
    m.push((
        "ttft_s".into(),
        if r.below(2) == 0 {
            "null".into()
        } else {
            format!("0.{}", r.below(1000) + 1000)
        },
    ));
    bits += 1001f64.log2();
    r.shuffle(&mut m);
    bits += log2_factorial(m.len());
    Generated {
        line: obj(&m),
        bits,
        parts: vec![("key order", log2_factorial(10), true)],
    }
}

/// The bound holds against generated records: every record the generator
/// makes passes the gate verbatim at standard level (so each choice
/// reaches the sink), the information the generator put in is at most
/// the bound, as a whole and structure by structure (ids, times, counts,
/// the name, the attributes, events, links, status, the order of the
/// members: a channel the bound forgot fails here), and on the structures
/// the generator fills completely the bound is within a bit of it.
#[test]
fn generated_records_carry_no_more_than_the_bound() {
    use proptest::prelude::*;
    let p = std::sync::Arc::new(policy(""));
    let cap = Capacity::of(&p);
    let bound = |f: RecordFormat| cap.policy.iter().find(|b| b.format == f).unwrap().clone();
    let (span_bound, cf_bound) = (bound(RecordFormat::OtlpSpan), bound(RecordFormat::Cf));
    let gate = std::cell::RefCell::new(crate::gate::Gate::new(p.clone()));
    let cfg = ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    };
    proptest!(cfg, |(seed in 1u64..)| {
        let mut r = Rng(seed);
        for (g, b) in [(span(&mut r), &span_bound), (cf(&mut r), &cf_bound)] {
            let mut gate = gate.borrow_mut();
            let j = gate.judge(1, &crate::source::lines::Line::Text(g.line.as_bytes()), crate::window::Level::Standard, true);
            let rules: Vec<String> = gate.findings().iter().map(|f| format!("{}@{:?}", f.rule, f.field)).collect();
            prop_assert_eq!(j.verdict, crate::gate::Verdict::Verbatim, "{:?}", rules);
            prop_assert!(g.bits <= b.bits, "{} bits generated, bound {}", g.bits, b.bits);
            for (path, carried, exact) in &g.parts {
                let got: f64 = b
                    .parts
                    .iter()
                    .filter(|p| p.path.starts_with(path))
                    .map(|p| p.bits)
                    .sum();
                prop_assert!(got >= *carried, "{path}: bound {got} below generated {carried}");
                prop_assert!(!exact || got - carried < 1.0, "{path}: bound {got}, generated {carried}");
            }
        }
    });
}

/// Each sink's pseudonyms lower its bound: a pseudonymized id carries its
/// presence, a pseudonymized identifier its shape.
#[test]
fn pseudonyms_lower_a_sinks_bound() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k");
    std::fs::write(&key, [7u8; 32]).unwrap();
    let text = format!(
        r#"
[redact]
key_file = "{}"
[[sink]]
name = "plain"
pseudonymize = []
[[sink]]
name = "masked"
pseudonymize = ["traceId", "spanId", "parentSpanId", "gen_ai.conversation.id", "request_id"]
"#,
        key.display()
    );
    let p = Policy::from_toml(&dir.path().join("p.toml"), &text).unwrap();
    let cap = Capacity::of(&p);
    let get = |s: &str, f: RecordFormat| cap.sink(s).unwrap().format(f).unwrap().clone();
    let (plain, masked) = (
        get("plain", RecordFormat::OtlpSpan),
        get("masked", RecordFormat::OtlpSpan),
    );
    close(part(&masked, "span.traceId").bits, 3f64.log2());
    assert!(part(&plain, "span.traceId").bits >= 128.0);
    let conv = r#"span.attributes["gen_ai.conversation.id"]"#;
    assert!(
        part(&masked, conv).bits < part(&plain, conv).bits * 0.6,
        "{:?}",
        part(&masked, conv)
    );
    let (plain, masked) = (
        get("plain", RecordFormat::Cf),
        get("masked", RecordFormat::Cf),
    );
    assert!(part(&masked, "request_id").bits < part(&plain, "request_id").bits);
}

/// `max_free_bits` refuses a policy whose bound for the sink is above
/// it, naming the sink, the format and the largest contributors, at the
/// key's line; a limit the bound fits loads.
#[test]
fn max_free_bits_refuses_a_policy_above_it() {
    let text = "[[sink]]\nname = \"s\"\nmax_free_bits = 2048\n";
    let errs = Policy::from_toml(Path::new("p.toml"), text).unwrap_err();
    let msgs: Vec<String> = errs
        .0
        .iter()
        .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
        .collect();
    assert!(
        msgs.iter().any(|m| m.starts_with("3:")
            && m.contains("sink \u{60}s\u{60}")
            && m.contains("otlp_span")
            && m.contains("span.events[].timeUnixNano")),
        "{msgs:#?}"
    );
    assert!(
        !msgs.iter().any(|m| m.contains("one cf record ")),
        "cf fits in 2048: {msgs:#?}"
    );
    let p = policy("[[sink]]\nname = \"s\"\nmax_free_bits = 1000000\n");
    let limit = p.sinks()[0].max_free_bits.clone().unwrap();
    for f in RecordFormat::ALL {
        assert_eq!(
            limit.of(f),
            Some(1_000_000),
            "one number holds every format"
        );
    }
    assert_eq!(limit.to_string(), "1000000");
}

/// A table of limits holds each format it names to its own limit and
/// leaves the others free: the evidence format's large bound does not stop
/// a sink that limits only spans; a span limit below the span bound does.
#[test]
fn max_free_bits_by_format_holds_only_the_formats_it_names() {
    let p = policy("[[sink]]\nname = \"s\"\nmax_free_bits = { otlp_span = 100000, cf = 2048 }\n");
    let limit = p.sinks()[0].max_free_bits.clone().unwrap();
    assert_eq!(limit.of(RecordFormat::OtlpSpan), Some(100_000));
    assert_eq!(limit.of(RecordFormat::Cf), Some(2048));
    assert_eq!(limit.of(RecordFormat::Evidence), None);
    assert_eq!(limit.to_string(), "cf 2048, otlp_span 100000");
    let errs = Policy::from_toml(
        Path::new("p.toml"),
        "[[sink]]\nname = \"s\"\nmax_free_bits = { otlp_span = 2048 }\n",
    )
    .unwrap_err();
    let msgs: Vec<&str> = errs.0.iter().map(|e| e.message.as_str()).collect();
    assert!(
        msgs.iter().any(|m| m.contains("one otlp_span record")),
        "{msgs:#?}"
    );
    assert!(
        !msgs
            .iter()
            .any(|m| m.contains("one evidence record") || m.contains("one cf record")),
        "only the named format is held: {msgs:#?}"
    );
    // A name that is not a format, a negative or a non-integer limit, and
    // an empty table are refused at the key.
    for (text, want) in [
        ("{ spans = 1 }", "not a record format"),
        ("{ cf = -1 }", "0 or more"),
        ("{ cf = \"1\" }", "table of integers"),
        ("{}", "names no record format"),
        ("-5", "0 or more"),
    ] {
        let errs = Policy::from_toml(
            Path::new("p.toml"),
            &format!("[[sink]]\nname = \"s\"\nmax_free_bits = {text}\n"),
        )
        .unwrap_err();
        assert!(
            errs.0
                .iter()
                .any(|e| e.line == 3 && e.message.contains(want)),
            "{text}: {errs:?}"
        );
    }
}

/// Unbounded is above every limit.
#[test]
fn an_unbounded_format_is_above_every_limit() {
    let errs = Policy::from_toml(
        Path::new("p.toml"),
        "[standard.fields]\nnote = { type = \"string\", free_text = true }\n[[sink]]\nname = \"s\"\nmax_free_bits = 100000000\n",
    )
    .unwrap_err();
    assert!(
        errs.0.iter().any(|e| e
            .message
            .contains("one cf record can carry unbounded free bits")),
        "{errs:?}"
    );
}
