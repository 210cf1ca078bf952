//! Allowlist patterns: the hand-written simple matcher
//! (`src/policy/rule/pattern.rs`) against an anchored dense DFA (the
//! technique `src/redact/shapes.rs` uses) and the `regex` crate, on the
//! default policy's patterns and typical values (half match, half do not).
//!
//! ```text
//! cargo bench --bench pattern -- --measurement-time 5 --warm-up-time 1
//! ```
//!
//! The matcher is compiled from its source file (`#[path]`), so it needs no
//! public API.
#![allow(missing_docs)]
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::util::start;
use regex_automata::{Anchored, nfa::thompson, util::syntax};
use std::hint::black_box;

// Its unit tests are compiled out here (`#[test]` needs the test harness);
// their imports are then unused when clippy checks this bench.
#[allow(unused_imports)]
#[path = "../src/policy/rule/pattern.rs"]
mod pattern;

/// The default policy's patterns (`policies/default.toml`), each with a
/// value that matches and one that does not.
const CASES: &[(&str, &str, &str)] = &[
    (
        "chatcmpl-[0-9a-f]+(-[0-9a-f]+)*",
        "chatcmpl-9f2c41d0a7b3c55e",
        "chatcmpl-9f2c41d0 hello there",
    ),
    (
        r"https://opentelemetry\.io/schemas/[0-9]{1,2}\.[0-9]{1,3}\.[0-9]{1,3}",
        "https://opentelemetry.io/schemas/1.26.0",
        "https://example.com/schemas/1.26.0",
    ),
    (
        "@?[A-Za-z][A-Za-z0-9_-]{0,63}([./][A-Za-z0-9_-]{1,64}){0,15}",
        "opentelemetry.instrumentation.openai_v2",
        "my name is Jane and I live here",
    ),
    (
        r"v?[0-9]{1,6}(\.[0-9]{1,6}){0,3}([a-z]{1,5}[0-9]{0,4})?([-+][0-9A-Za-z.]{1,32})?",
        "2.1.0b1",
        "version two",
    ),
    (
        "[a-z]{1,16}([._][a-z]{1,16}){0,7}",
        "gen_ai.content.prompt",
        "Gen AI prompt",
    ),
    (
        r"[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,3}",
        "azure.ai.openai",
        "Azure OpenAI (EU)",
    ),
    (
        "[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}",
        "gpt-4o-2024-08-06",
        "gpt-4o, answer in French",
    ),
    (
        "[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}",
        "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452e3795b",
        "resp 67ccd2bed1ec",
    ),
    (
        "[A-Za-z0-9][A-Za-z0-9_.-]{0,31}( [A-Za-z0-9][A-Za-z0-9_.-]{0,31}){0,3}",
        "travel planner v2",
        "Please book me a flight to Lisbon",
    ),
    (
        "[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}",
        "get_weather",
        "get weather",
    ),
    (
        "[A-Za-z0-9][A-Za-z0-9.-]{0,252}",
        "api.openai.com",
        "api.openai.com:443",
    ),
    (
        "[A-Za-z0-9_][A-Za-z0-9_.:$-]{0,127}",
        "timeout",
        "timeout after 30 s",
    ),
    (
        "[A-Za-z0-9_.-]{1,64}",
        "inference-gateway",
        "inference gateway",
    ),
    ("[A-Za-z0-9_.+-]{1,64}", "1.45.2", "1.45.2 (beta)"),
    (
        "[A-Za-z0-9_.:-]{1,128}",
        "627cc493-f310-47de-96bd-71410b7dec09",
        "627cc493 f310",
    ),
    ("[a-z0-9_+-]{1,32}", "python", "Python"),
    (
        "^[A-Za-z0-9]{1,64}([_.:-][A-Za-z0-9]{1,64}){0,5}$",
        "4bf92f3577b34da6a3ce929d0e0e4736",
        "4bf92f35 77b34da6",
    ),
];

fn dfa(p: &str) -> dense::DFA<Vec<u32>> {
    dense::Builder::new()
        .configure(dense::Config::new().start_kind(StartKind::Anchored))
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .thompson(thompson::Config::new())
        .build(&format!("^(?:{p})$"))
        .unwrap()
}

/// Whether all of `s` matches: one table step per byte, the end-of-input
/// step, a match-state test.
fn dfa_matches(dfa: &dense::DFA<Vec<u32>>, s: &[u8]) -> bool {
    let Ok(mut st) = dfa.start_state(&start::Config::new().anchored(Anchored::Yes)) else {
        return false;
    };
    for &b in s {
        st = dfa.next_state(st, b);
        if dfa.is_dead_state(st) {
            return false;
        }
    }
    dfa.is_match_state(dfa.next_eoi_state(st))
}

fn bench(c: &mut Criterion) {
    let mut simple = Vec::new();
    let mut dfas = Vec::new();
    let mut regexes = Vec::new();
    let mut values: Vec<(usize, &[u8])> = Vec::new();
    for (p, yes, no) in CASES {
        let anchored = format!("^(?:{p})$");
        let Some(s) = pattern::Simple::compile(&anchored, false) else {
            continue;
        };
        let d = dfa(p);
        let re = regex::bytes::RegexBuilder::new(&anchored)
            .unicode(false)
            .build()
            .unwrap();
        for v in [yes.as_bytes(), no.as_bytes()] {
            // The three agree, or the figures mean nothing.
            assert_eq!(s.matches(v), re.is_match(v), "{p} {v:?}");
            assert_eq!(dfa_matches(&d, v), re.is_match(v), "{p} {v:?}");
            values.push((simple.len(), v));
        }
        assert!(
            s.matches(yes.as_bytes()) && !s.matches(no.as_bytes()),
            "{p}"
        );
        simple.push(s);
        dfas.push(d);
        regexes.push(re);
    }
    eprintln!(
        "{} of {} default patterns are simple; {} values",
        simple.len(),
        CASES.len(),
        values.len()
    );
    let mut g = c.benchmark_group("pattern");
    g.throughput(Throughput::Elements(values.len() as u64));
    g.bench_function("simple", |b| {
        b.iter(|| {
            values
                .iter()
                .filter(|(i, v)| simple[*i].matches(black_box(v)))
                .count()
        })
    });
    g.bench_function("dense_dfa", |b| {
        b.iter(|| {
            values
                .iter()
                .filter(|(i, v)| dfa_matches(&dfas[*i], black_box(v)))
                .count()
        })
    });
    g.bench_function("regex", |b| {
        b.iter(|| {
            values
                .iter()
                .filter(|(i, v)| regexes[*i].is_match(black_box(v)))
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
