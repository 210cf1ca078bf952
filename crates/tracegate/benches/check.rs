//! Per-record `Gate::judge` throughput on generated in-memory corpora, next
//! to a serde_json `IgnoredAny` parse of the very same lines, so the ratio
//! issue 2 asks about (check >= 0.7x serde) is visible in one run.
//!
//! ```text
//! cargo bench --bench check -- --measurement-time 5 --warm-up-time 1
//! ```
//!
//! Corpora (seeded, generated here, never committed; shapes follow
//! `scripts/gen_corpus.py`):
//!
//! | id | records | path through the gate |
//! |---|---|---|
//! | `standard` | 50,000 clean cf records | the flat fast path (`gate::fast`) |
//! | `full_at_standard` | 5,000 cf records with 1-4 KB prompt/output | tape scan, content stripped, record rebuilt (what `filter` does for a standard sink) |
//! | `otlp` | 50,000 bare `llm_request` spans, ~50% with `gen_ai.prompt`/`gen_ai.completion` | the OTLP verifier (`check`: findings only) |
//! | `evidence` | 50,000 latency-evidence records | the nested evidence fast path (`evidence::FastPath`): allowlist and auditor model in one pass |
//! | `evidence_audit` | the same | the above plus `Auditor::audit_judged` on the gate's record (what `check` runs per evidence record; no second parse) |
//!
//! Each corpus is benched twice in one group: `<id>/tracegate` and
//! `<id>/serde_ignored_any`; throughput is in input bytes.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;
use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;
use tracegate::{Gate, Verdict};

#[path = "../../../tests/support/rng.rs"]
mod rng;
use rng::Rng;

const FAMILIES: &[&str] = &[
    "ltr",
    "ltr-promptlen",
    "affinity",
    "trace",
    "tie",
    "hybrid",
    "fcfs",
];
const WORDS: &[&str] = &[
    "the",
    "invoice",
    "dashboard",
    "payment",
    "account",
    "billing",
    "support",
    "question",
    "answer",
    "context",
    "receipt",
    "overdue",
    "paid",
    "terms",
    "console",
    "page",
    "row",
    "expands",
    "customer",
    "order",
    "shipment",
    "refund",
    "policy",
    "plan",
    "upgrade",
    "renewal",
    "contract",
];

fn standard(r: &mut Rng, i: u64) -> String {
    let t = 1_789_040_112.0 + i as f64 * 0.013;
    let lat = r.uniform(0.05, 9.0);
    format!(
        "{{\"request_id\": \"chatcmpl-{:08x}\", \"t_arrival\": {:.3}, \"t_completion\": {:.3}, \
         \"prompt_tokens\": {}, \"output_tokens\": {}, \"e2e_latency_s\": {:.3}, \"ttft_s\": null, \
         \"queue_wait_s\": {:.3}, \"scheduler_family\": \"{}\", \"priority_score\": {:.1}}}",
        r.next() as u32,
        t,
        t + lat,
        16 + r.below(4080),
        1 + r.below(1024),
        lat,
        r.uniform(0.0, 2.0),
        FAMILIES[r.below(FAMILIES.len() as u64) as usize],
        r.uniform(-2000.0, 0.0),
    )
}

/// Chat text with an email, a card or an API key now and then (JSON-escaped:
/// the template's newlines are written as `\n`).
fn text(r: &mut Rng, lo: u64, hi: u64) -> String {
    let n = (lo + r.below(hi - lo + 1)) as usize;
    let mut s = String::with_capacity(n + 64);
    while s.len() < n {
        let roll = r.unit();
        if roll < 0.01 {
            s.push_str(&format!("jane.doe{}@example.com", 1 + r.below(999)));
        } else if roll < 0.015 {
            s.push_str("4111 1111 1111 1111");
        } else if roll < 0.02 {
            s.push_str("sk-proj-");
            for _ in 0..40 {
                let c = b"abcdefghijklmnopqrstuvwxyz0123456789"[r.below(36) as usize];
                s.push(char::from(c));
            }
        } else {
            s.push_str(WORDS[r.below(WORDS.len() as u64) as usize]);
        }
        s.push(' ');
    }
    s
}

fn full(r: &mut Rng, i: u64) -> String {
    let mut rec = standard(r, i);
    rec.pop();
    let prompt = text(r, 800, 3000);
    let output = text(r, 200, 900);
    rec.push_str(&format!(
        ", \"prompt_text\": \"<|im_start|>system\\nYou are the support assistant.<|im_end|>\\n\
         <|im_start|>user\\n{prompt}<|im_end|>\\n<|im_start|>assistant\\n\", \"output_text\": \"{output}\"}}"
    ));
    rec
}

/// A bare `llm_request` span as the engine exports it; about half carry content.
fn otlp(r: &mut Rng, i: u64) -> String {
    let start = 1_788_450_022_633_673_216u64 + i * 13_000_000;
    let dur = 50_000_000 + r.below(9_000_000_000);
    let mut s = format!(
        "{{\"name\": \"llm_request\", \"kind\": 1, \"startTimeUnixNano\": \"{start}\", \
         \"endTimeUnixNano\": \"{}\", \"attributes\": [\
         {{\"key\": \"cf.request_id\", \"value\": {{\"stringValue\": \"chatcmpl-{:016x}-{:08x}\"}}}}, \
         {{\"key\": \"gen_ai.usage.prompt_tokens\", \"value\": {{\"intValue\": \"{}\"}}}}, \
         {{\"key\": \"gen_ai.usage.completion_tokens\", \"value\": {{\"intValue\": \"{}\"}}}}, \
         {{\"key\": \"cf.e2e_latency_s\", \"value\": {{\"doubleValue\": {:.4}}}}}, \
         {{\"key\": \"cf.queue_wait_s\", \"value\": {{\"doubleValue\": {:.4}}}}}, \
         {{\"key\": \"cf.scheduler.family\", \"value\": {{\"stringValue\": \"{}\"}}}}",
        start + dur,
        r.next(),
        r.next() as u32,
        16 + r.below(4080),
        1 + r.below(1024),
        dur as f64 / 1e9,
        r.uniform(0.0, 0.05),
        FAMILIES[r.below(FAMILIES.len() as u64) as usize],
    );
    if r.below(2) == 0 {
        let prompt = text(r, 80, 400);
        let completion = text(r, 20, 200);
        s.push_str(&format!(
            ", {{\"key\": \"gen_ai.prompt\", \"value\": {{\"stringValue\": \"system\\nYou are the billing assistant.\\nuser\\n{prompt}\\nassistant\\n\"}}}}, \
             {{\"key\": \"gen_ai.completion\", \"value\": {{\"stringValue\": \"{completion}\"}}}}"
        ));
    }
    s.push_str("]}");
    s
}

fn evidence(r: &mut Rng, i: u64) -> String {
    let base = 842_001_000_000u64 + i * 1_000_000;
    let d1 = 50 + r.below(851);
    let d2 = 100 + r.below(2901);
    let ts = |ms: u64| {
        format!(
            "2026-09-08T10:{:02}:{:06.3}Z",
            (ms / 60_000) % 60,
            (ms % 60_000) as f64 / 1000.0
        )
    };
    let t0 = 30_120 + i;
    format!(
        "{{\"schema_version\": \"latency-evidence.v1\", \"trace_id\": \"tr_{i:x}\", \"request_id\": \"req_{i:x}\", \
         \"attempt\": 1, \"span_id\": \"span_{i:x}\", \"route_id\": \"route_{}\", \"model_id\": \"model_{}\", \
         \"events\": [\
         {{\"stage\": \"upstream\", \"event_name\": \"provider_dispatch\", \"timestamp_utc\": \"{}\", \"monotonic_ns\": {base}, \"service\": \"gateway\"}}, \
         {{\"stage\": \"upstream\", \"event_name\": \"first_output_token\", \"timestamp_utc\": \"{}\", \"monotonic_ns\": {}, \"service\": \"gateway\"}}, \
         {{\"stage\": \"stream\", \"event_name\": \"final_output_token\", \"timestamp_utc\": \"{}\", \"monotonic_ns\": {}, \"service\": \"gateway\"}}], \
         \"derived_intervals\": [\
         {{\"name\": \"gateway_observed_time_to_first_token\", \"start_event\": \"provider_dispatch\", \"end_event\": \"first_output_token\", \"duration\": {d1}, \"duration_unit\": \"ms\"}}, \
         {{\"name\": \"token_streaming_time\", \"start_event\": \"first_output_token\", \"end_event\": \"final_output_token\", \"duration\": {d2}, \"duration_unit\": \"ms\"}}], \
         \"clock_source\": \"local_monotonic\", \"sync_status\": \"ntp_synced\", \"status\": \"completed\"}}",
        i % 4,
        i % 3,
        ts(t0),
        ts(t0 + d1),
        base + d1 * 1_000_000,
        ts(t0 + d1 + d2),
        base + (d1 + d2) * 1_000_000,
    )
}

fn corpus(n: usize, seed: u64, make: fn(&mut Rng, u64) -> String) -> Vec<String> {
    let mut r = Rng(seed);
    (0..size(n) as u64).map(|i| make(&mut r, i)).collect()
}

/// The size to measure on: `n` under `cargo bench` (which passes
/// `--bench`), a twentieth of it under `cargo test --benches`, where CI
/// runs each benchmark once as a smoke test of its setup and assertions.
fn size(n: usize) -> usize {
    if std::env::args().any(|a| a == "--bench") {
        n
    } else {
        n / 20
    }
}

/// Judge every line; returns the verdict counts so nothing is optimised out
/// and the corpus shape can be asserted once before timing.
fn judge_all(gate: &mut Gate, lines: &[String], level: Level, rebuild: bool) -> [u64; 4] {
    let mut counts = [0u64; 4];
    for (i, l) in lines.iter().enumerate() {
        let j = gate.judge(i as u64 + 1, &Line::Text(l.as_bytes()), level, rebuild);
        counts[j.verdict as usize] += 1;
        black_box(gate.output());
    }
    counts
}

fn serde_all(lines: &[String]) -> u64 {
    let mut ok = 0;
    for l in lines {
        ok += u64::from(serde_json::from_slice::<IgnoredAny>(l.as_bytes()).is_ok());
    }
    ok
}

fn bench(crit: &mut Criterion) {
    let policy = Arc::new(
        Policy::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../policies/default.toml"))
            .unwrap(),
    );
    let mut gate = Gate::new(Arc::clone(&policy));
    let standard = corpus(50_000, 1, standard);
    let full = corpus(5_000, 2, full);
    let otlp = corpus(50_000, 3, otlp);
    let evidence = corpus(50_000, 4, evidence);

    // The corpora must take the paths the ids claim, or the figures lie.
    let v = |c: [u64; 4], verdict: Verdict| c[verdict as usize];
    let n = |x: &[String]| x.len() as u64;
    let c = judge_all(&mut gate, &standard, Level::Standard, false);
    assert_eq!(v(c, Verdict::Verbatim), n(&standard), "standard: {c:?}");
    let c = judge_all(&mut gate, &full, Level::Standard, true);
    assert_eq!(v(c, Verdict::Rewritten), n(&full), "full: {c:?}");
    let c = judge_all(&mut gate, &otlp, Level::Standard, false);
    assert_eq!(
        v(c, Verdict::Malformed) + v(c, Verdict::Dropped),
        0,
        "otlp: {c:?}"
    );
    assert!(v(c, Verdict::Rewritten) > n(&otlp) / 3, "otlp: {c:?}");
    let c = judge_all(&mut gate, &evidence, Level::Standard, false);
    assert_eq!(v(c, Verdict::Verbatim), n(&evidence), "evidence: {c:?}");
    assert_eq!(serde_all(&standard), n(&standard));

    let bytes = |x: &[String]| x.iter().map(|l| l.len() as u64 + 1).sum::<u64>();
    let mut g = crit.benchmark_group("check");
    g.sample_size(10);
    let cases: [(&str, &[String], bool); 4] = [
        ("standard", &standard, false),
        ("full_at_standard", &full, true),
        ("otlp", &otlp, false),
        ("evidence", &evidence, false),
    ];
    for (id, lines, rebuild) in cases {
        g.throughput(Throughput::Bytes(bytes(lines)));
        g.bench_function(format!("{id}/tracegate"), |b| {
            b.iter(|| judge_all(&mut gate, lines, Level::Standard, rebuild))
        });
        g.bench_function(format!("{id}/serde_ignored_any"), |b| {
            b.iter(|| serde_all(lines))
        });
    }
    g.throughput(Throughput::Bytes(bytes(&evidence)));
    let mut found = Vec::new();
    let mut auditor = tracegate::internals::evidence::Auditor::new();
    g.bench_function("evidence_audit/tracegate", |b| {
        b.iter(|| {
            for (i, l) in evidence.iter().enumerate() {
                gate.judge(
                    i as u64 + 1,
                    &Line::Text(l.as_bytes()),
                    Level::Standard,
                    false,
                );
                found.clear();
                black_box(
                    auditor
                        .audit_judged(&gate, l.as_bytes(), &mut found)
                        .is_ok(),
                );
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
