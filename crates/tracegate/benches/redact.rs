//! Redaction throughput on a generated chat-template corpus.
//!
//! ```text
//! cargo bench --bench redact -- --measurement-time 5 --warm-up-time 1
//! ```
//!
//! The corpus (~20 MB of 1-4 KB texts, with emails, cards, keys, phones and
//! keyword hits sprinkled in) and the 1,000-word keyword list are generated
//! here from a fixed seed; no data is committed.
#![allow(missing_docs)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tracegate::{
    Action, KeywordRule, RedactConfig, RedactKey, Redactor, builtin_detectors as builtin_names,
};

#[path = "../../../tests/support/rng.rs"]
mod rng;
use rng::Rng;

const WORDS: &[&str] = &[
    "the",
    "invoice",
    "is",
    "overdue",
    "please",
    "check",
    "my",
    "dashboard",
    "we",
    "paid",
    "it",
    "three",
    "weeks",
    "ago",
    "thanks",
    "can",
    "you",
    "help",
    "with",
    "billing",
    "sure",
    "here",
    "how",
    "open",
    "Settings",
    "then",
    "Invoices",
    "context",
    "answer",
    "from",
    "provided",
    "only",
    "issued",
    "net-30",
    "2026-08-01",
    "12:30",
    "v1.4.2",
    "$1,299.00",
    "order",
    "#10234",
    "fn main() {",
    "}",
    "let x = 5;",
    "std::io::Error",
    "->",
    "café",
    "naïve",
    "日本語",
    "and",
    "of",
    "to",
    "a",
    "in",
    "for",
    "on",
    "that",
    "this",
    "record",
    "scheduler",
    "latency",
];

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

fn keyword(i: usize) -> String {
    let mut s = String::from("zq");
    let mut n = i;
    loop {
        s.push(char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            break;
        }
    }
    s.push_str("vex");
    s
}

fn sprinkle(r: &mut Rng) -> String {
    match r.index(6) {
        0 => format!("{}@example.com", r.chars(b"abcdefghij", 6)),
        1 => "4111 1111 1111 1111".to_string(),
        2 => format!("sk-proj-{}", r.chars(ALNUM, 40)),
        3 => format!("+1 (555) 123-{:04}", r.index(10_000)),
        4 => keyword(r.index(1000)),
        _ => format!("AKIA{}", r.chars(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
    }
}

fn corpus(total: usize) -> Vec<String> {
    let mut r = Rng(42);
    let mut docs = Vec::new();
    let mut size = 0;
    while size < total {
        let target = 1024 + r.index(3 * 1024);
        let mut s = String::from(
            "<|im_start|>system\nYou are the support assistant. Answer from the provided context only.<|im_end|>\n<|im_start|>user\n",
        );
        while s.len() < target {
            s.push_str(if r.index(12) == 0 { "\n" } else { " " });
            if r.index(60) == 0 {
                s.push_str(&sprinkle(&mut r));
            } else {
                s.push_str(WORDS[r.index(WORDS.len())]);
            }
        }
        s.push_str("<|im_end|>\n<|im_start|>assistant\n");
        size += s.len();
        docs.push(s);
    }
    docs
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

fn keywords(n: usize) -> KeywordRule {
    KeywordRule {
        name: "customer".into(),
        words: (0..n).map(keyword).collect(),
        case_insensitive: true,
        whole_word: true,
        action: Action::Hash,
    }
}

fn builtins() -> Vec<String> {
    builtin_names().iter().map(|s| s.to_string()).collect()
}

fn bench(c: &mut Criterion) {
    let docs = corpus(size(20 * 1024 * 1024));
    let bytes: usize = docs.iter().map(String::len).sum();
    let key = RedactKey::new(&[7; 32]).unwrap();

    let one_pass = Redactor::compile(
        &RedactConfig {
            builtin: builtins(),
            keywords: vec![keywords(1000)],
            ..RedactConfig::default()
        },
        Some(key.clone()),
    )
    .unwrap();
    let regex_only = one_pass.subset(&builtins()).unwrap();
    let keywords_only = one_pass.subset(&["customer".into()]).unwrap();

    let mut g = c.benchmark_group("redact");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    let mut out = String::with_capacity(64 * 1024);
    g.bench_function("builtin+1k_keywords", |b| {
        b.iter(|| {
            for d in &docs {
                out.clear();
                black_box(one_pass.redact(d, &mut out));
            }
        })
    });
    let mut mid = String::with_capacity(64 * 1024);
    g.bench_function("builtin_then_keywords_as_two_redactors", |b| {
        b.iter(|| {
            for d in &docs {
                mid.clear();
                out.clear();
                regex_only.redact(d, &mut mid);
                black_box(keywords_only.redact(&mid, &mut out));
            }
        })
    });
    g.bench_function("builtin_only", |b| {
        b.iter(|| {
            for d in &docs {
                out.clear();
                black_box(regex_only.redact(d, &mut out));
            }
        })
    });
    g.finish();

    // Candidates that need a confirming word, hundreds to a row: each one
    // asks for its table column's header. 60 TSV rows of 300 national
    // phone shapes (no header word), and the same separated by blanks.
    // Before the table memo the tabbed text cost 17 times what it does now
    // (release `tracegate redact`, 1.7 s against 0.1 s for 2.3 MB).
    let mut g = c.benchmark_group("redact_wide_rows");
    g.sample_size(10);
    let row = ["030 1234567"; 300].join("\t");
    let tabbed = [row.as_str(); 60].join("\n");
    let blanks = tabbed.replace('\t', " ");
    g.throughput(Throughput::Bytes(tabbed.len() as u64));
    for (name, text) in [("tsv", &tabbed), ("blanks", &blanks)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                black_box(regex_only.redact(text, &mut out));
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("compile");
    g.sample_size(10);
    let big = RedactConfig {
        builtin: builtins(),
        keywords: vec![keywords(100_000)],
        ..RedactConfig::default()
    };
    g.bench_function("builtin+100k_keywords", |b| {
        b.iter(|| black_box(Redactor::compile(&big, Some(key.clone())).is_ok()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
