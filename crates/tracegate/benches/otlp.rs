//! Throughput of the OTLP gate on the test fixtures: a clean Collector
//! export (verbatim), a seed span projected to standard, and the same span
//! at full level; and of the protobuf to OTLP/JSON walk on the same
//! Collector export encoded as protobuf; and of an OTLP sink's encoding
//! of the same export, by the table's walk and through prost. (`unsafe_code` is forbidden crate-wide, so no counting
//! allocator here.)
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tracegate::Gate;
use tracegate::Level;
use tracegate::Line;
use tracegate::Policy;

fn data(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/otlp")
        .join(name);
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string()
}

fn bench(c: &mut Criterion) {
    let policy = Arc::new(Policy::from_toml(Path::new("p.toml"), "").unwrap());
    let mut gate = Gate::new(policy);
    let cases = [
        (
            "collector_export_clean_standard",
            data("collector_export.jsonl"),
            Level::Standard,
        ),
        (
            "seed_full_standard_projection",
            data("seed_full.jsonl"),
            Level::Standard,
        ),
        ("seed_full_at_full", data("seed_full.jsonl"), Level::Full),
    ];
    let mut g = c.benchmark_group("otlp");
    for (name, line, level) in &cases {
        g.throughput(Throughput::Bytes(line.len() as u64));
        g.bench_function(*name, |b| {
            b.iter(|| gate.judge(1, &Line::Text(line.as_bytes()), *level, true))
        });
    }
    let body = tracegate::internals::record::otlp_proto::encode_traces_protobuf(&data(
        "collector_export.jsonl",
    ))
    .unwrap();
    g.throughput(Throughput::Bytes(body.len() as u64));
    g.bench_function("collector_export_protobuf_to_json", |b| {
        b.iter(|| {
            tracegate::internals::record::otlp_proto::decode_traces_protobuf_bytes(&body).unwrap()
        })
    });
    // The rare path the wire walk leaves requests to (the table-driven
    // fallback with prost's merge rules), and prost's structures with the
    // oracle's writer, which it replaced.
    g.bench_function("collector_export_protobuf_to_json_fallback", |b| {
        b.iter(|| tracegate::internals::record::otlp_proto::merge::traces(&body).unwrap())
    });
    g.bench_function("collector_export_protobuf_to_json_prost", |b| {
        b.iter(|| {
            tracegate::internals::record::otlp_proto::oracle::decode_traces_prost(&body).unwrap()
        })
    });
    // An OTLP sink's encoding of one gated record (`encode_export`, the
    // table's walk), the table-driven fallback through serde_json
    // (`from_json::export`, where the walk declines), and serde_json with
    // prost's structures (the oracle's `export_prost`: what the sink did
    // before it appended encoded requests, and the fallback before issue
    // 31).
    let line = data("collector_export.jsonl");
    g.throughput(Throughput::Bytes(line.len() as u64));
    g.bench_function("collector_export_sink_encode", |b| {
        b.iter(|| tracegate::internals::record::otlp_proto::encode_export(line.as_bytes()).unwrap())
    });
    g.bench_function("collector_export_sink_encode_fallback", |b| {
        b.iter(|| {
            tracegate::internals::record::otlp_proto::from_json::export(line.as_bytes()).unwrap()
        })
    });
    g.bench_function("collector_export_sink_encode_prost", |b| {
        b.iter(|| {
            tracegate::internals::record::otlp_proto::oracle::export_prost(line.as_bytes()).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
