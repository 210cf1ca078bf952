//! A fast, seeded generator of `latency-evidence.v1` records (shaped
//! like the schema's sample, about 1 KB each), written to stdout: the corpus of the evidence
//! benchmarks, streamed into `tracegate check` so that a 10-million-record
//! run needs no 10 GB file.
//!
//! ```text
//! cargo run --release --example gen_evidence -- COUNT [--seed N] [--anomalies]
//! cargo run --release --example gen_evidence -- 10000000 | target/release/tracegate check --policy policies/default.toml
//! ```
//!
//! Every record is a clean attempt of a request; about 3% of requests are
//! retried, their attempts 2..4 following within a few dozen records (as a
//! gateway writes them). With `--anomalies`, about 1 record in 50 carries a
//! planted problem: a duration that does not reproduce, a missing event, an
//! unsynced cross-service interval, a gap or a duplicate in the attempts, an
//! escaped identifier (the gate's slow path), an unknown field, a malformed
//! line, or a retry that arrives far later than the rest of its request.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::VecDeque;
use std::io::{self, BufWriter, Write};

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

const ROUTES: &[&str] = &["route_a", "route_b", "route_c", "route_fallback"];
const MODELS: &[&str] = &["model_alias_small", "model_alias_large", "model/vendor-x"];

/// One pending attempt: emitted when its record index comes up.
struct Pending {
    due: u64,
    request: u64,
    attempt: u64,
}

fn ts(ms: u64) -> String {
    let s = ms / 1000;
    format!(
        "2026-09-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        8 + (s / 86_400) % 20,
        (s / 3600) % 24,
        (s / 60) % 60,
        s % 60,
        ms % 1000
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Plant {
    None,
    Mismatch,
    MissingEvent,
    Unsynced,
    Escaped,
    Unknown,
    Malformed,
}

fn record(r: &mut Rng, i: u64, request: u64, attempt: u64, plant: Plant) -> String {
    let t0 = 1_000_000 + i * 7;
    let base = 842_001_000_000u64 + i * 7_000_000;
    let d1 = 50 + r.below(851);
    let d2 = 100 + r.below(2901);
    let (d1_stated, mut d2_stated) = (d1, d2);
    if plant == Plant::Mismatch {
        d2_stated += 40;
    }
    let end_event = if plant == Plant::MissingEvent {
        "final_output_tokenx"
    } else {
        "final_output_token"
    };
    let sync = if plant == Plant::Unsynced {
        "unknown"
    } else {
        "documented_by_deployment"
    };
    let trace = if plant == Plant::Escaped {
        format!("tr\\u005f{request:x}")
    } else {
        format!("tr_{request:x}")
    };
    let extra = if plant == Plant::Unknown {
        "\"customer_note\": \"call back\", "
    } else {
        ""
    };
    let route = ROUTES[(request % ROUTES.len() as u64) as usize];
    let model = MODELS[((request / 4) % MODELS.len() as u64) as usize];
    let line = format!(
        "{{\"schema_version\": \"latency-evidence.v1\", \"trace_id\": \"{trace}\", \"request_id\": \"req_{request:x}\", \
         \"attempt\": {attempt}, \"parent_span_id\": \"span_gw_{request:x}\", \"span_id\": \"span_up_{i:x}\", {extra}\
         \"route_id\": \"{route}\", \"model_id\": \"{model}\", \"provider_request_id\": \"prov_{i:x}\", \
         \"deployment_id\": \"deployment_eu_1\", \"region\": \"eu-west\", \
         \"events\": [\
         {{\"stage\": \"upstream\", \"event_name\": \"provider_dispatch\", \"timestamp_utc\": \"{}\", \"monotonic_ns\": {base}, \"service\": \"gateway\"}}, \
         {{\"stage\": \"upstream\", \"event_name\": \"first_output_token\", \"timestamp_utc\": \"{}\", \"monotonic_ns\": {}, \"service\": \"stream_processor\"}}, \
         {{\"stage\": \"stream\", \"event_name\": \"final_output_token\", \"timestamp_utc\": \"{}\", \"monotonic_ns\": {}, \"service\": \"stream_processor\"}}], \
         \"derived_intervals\": [\
         {{\"name\": \"gateway_observed_time_to_first_token\", \"start_event\": \"provider_dispatch\", \"end_event\": \"first_output_token\", \"duration\": {d1_stated}, \"duration_unit\": \"ms\"}}, \
         {{\"name\": \"token_streaming_time\", \"start_event\": \"first_output_token\", \"end_event\": \"{end_event}\", \"duration\": {d2_stated}, \"duration_unit\": \"ms\"}}], \
         \"clock_source\": \"local_monotonic_with_utc_correlation\", \"sync_status\": \"{sync}\", \"status\": \"completed\"}}",
        ts(t0),
        ts(t0 + d1),
        base + 290_000_000 + d1 * 1_000_000,
        ts(t0 + d1 + d2),
        base + 290_000_000 + (d1 + d2) * 1_000_000,
    );
    if plant == Plant::Malformed {
        // Cut the line short: not valid JSON.
        return line[..line.len() / 2].to_owned();
    }
    line
}

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut count: Option<u64> = None;
    let mut seed = 20_261_201u64;
    let mut anomalies = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed N"),
            "--anomalies" => anomalies = true,
            n => count = Some(n.parse().expect("COUNT")),
        }
    }
    let count = count.expect("usage: gen_evidence COUNT [--seed N] [--anomalies]");
    let mut r = Rng(seed);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut pending: VecDeque<Pending> = VecDeque::new();
    let mut late: Vec<Pending> = Vec::new();
    let mut next_request = 0u64;
    for i in 0..count {
        // A due retry, else a new request.
        let (request, attempt) = match pending.front() {
            Some(p) if p.due <= i => {
                let p = pending.pop_front().expect("front");
                (p.request, p.attempt)
            }
            _ => match late.last() {
                Some(p) if p.due <= i => {
                    let p = late.pop().expect("last");
                    (p.request, p.attempt)
                }
                _ => {
                    let req = next_request;
                    next_request += 1;
                    let roll = r.below(1000);
                    if roll < 30 {
                        // Retried: attempts 2..=k within a few dozen records.
                        let k = 2 + r.below(3);
                        let mut due = i;
                        for a in 2..=k {
                            due += 1 + r.below(20);
                            pending.push_back(Pending {
                                due,
                                request: req,
                                attempt: a,
                            });
                        }
                        pending.make_contiguous().sort_by_key(|p| p.due);
                    } else if anomalies && roll < 33 {
                        // Gap: attempt 3 follows, attempt 2 never.
                        pending.push_back(Pending {
                            due: i + 1 + r.below(10),
                            request: req,
                            attempt: 3,
                        });
                        pending.make_contiguous().sort_by_key(|p| p.due);
                    } else if anomalies && roll < 35 {
                        // Duplicate: attempt 1 again.
                        pending.push_back(Pending {
                            due: i + 1 + r.below(10),
                            request: req,
                            attempt: 1,
                        });
                        pending.make_contiguous().sort_by_key(|p| p.due);
                    } else if anomalies && roll < 36 && late.is_empty() {
                        // A retry long after: 300,000 records later.
                        late.push(Pending {
                            due: i + 300_000,
                            request: req,
                            attempt: 2,
                        });
                    }
                    (req, 1)
                }
            },
        };
        let plant = if anomalies && r.below(50) == 0 {
            match r.below(6) {
                0 => Plant::Mismatch,
                1 => Plant::MissingEvent,
                2 => Plant::Unsynced,
                3 => Plant::Escaped,
                4 => Plant::Unknown,
                _ => Plant::Malformed,
            }
        } else {
            Plant::None
        };
        out.write_all(record(&mut r, i, request, attempt, plant).as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
