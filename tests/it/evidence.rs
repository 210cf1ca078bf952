//! Data-driven tests of the evidence auditor: the default allowlist against
//! the seed sample, a seeded corpus with planted anomalies, and the property
//! that consistent records draw no finding.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use tracegate::evidence::{AttemptTracker, EvidenceFinding, Summary, audit};

const SEED_SAMPLE: &str = r#"{ "schema_version": "latency-evidence.v1", "trace_id": "tr_synthetic_8f31", "request_id": "req_synthetic_2047", "attempt": 2, "parent_span_id": "span_gateway_01", "span_id": "span_upstream_02", "route_id": "route_example_b", "model_id": "model_alias_example", "provider_request_id": "provider_ref_when_available", "deployment_id": "deployment_example", "region": "region_example", "events": [ { "stage": "upstream", "event_name": "provider_dispatch", "timestamp_utc": "2026-09-08T10:15:30.120Z", "monotonic_ns": 842001000000, "service": "gateway" }, { "stage": "upstream", "event_name": "first_output_token", "timestamp_utc": "2026-09-08T10:15:30.410Z", "monotonic_ns": 842291000000, "service": "stream_processor" }, { "stage": "stream", "event_name": "final_output_token", "timestamp_utc": "2026-09-08T10:15:31.260Z", "monotonic_ns": 843141000000, "service": "stream_processor" } ], "derived_intervals": [ { "name": "gateway_observed_time_to_first_token", "start_event": "provider_dispatch", "end_event": "first_output_token", "duration": 290, "duration_unit": "ms" }, { "name": "token_streaming_time", "start_event": "first_output_token", "end_event": "final_output_token", "duration": 850, "duration_unit": "ms" } ], "clock_source": "local_monotonic_with_utc_correlation", "sync_status": "documented_by_deployment", "status": "completed" }"#;

// ---------------------------------------------------------------------------
// The default allowlist, checked against the seed sample through a local
// mirror of the integrator's policy model.

#[derive(Deserialize)]
struct PolicyFile {
    standard: Standard,
}

#[derive(Deserialize)]
struct Standard {
    evidence: Evidence,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Evidence {
    fields: BTreeMap<String, Spec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    #[serde(rename = "type")]
    ty: String,
    #[serde(default)]
    nullable: bool,
    pattern: Option<String>,
    one_of: Option<Vec<String>>,
    min: Option<f64>,
    max: Option<f64>,
    max_len: Option<usize>,
    #[serde(default)]
    required: bool,
    items: Option<Box<Spec>>,
    max_items: Option<usize>,
    fields: Option<BTreeMap<String, Spec>>,
}

fn policy() -> Evidence {
    let text = include_str!("../../src/evidence/default_policy.toml");
    toml::from_str::<PolicyFile>(text)
        .unwrap()
        .standard
        .evidence
}

/// Returns the paths that break the allowlist.
fn violations(fields: &BTreeMap<String, Spec>, obj: &Value, prefix: &str, bad: &mut Vec<String>) {
    let Value::Object(map) = obj else {
        bad.push(format!("{prefix}: not an object"));
        return;
    };
    for key in map.keys() {
        if !fields.contains_key(key) {
            bad.push(format!("{prefix}{key}: unknown field"));
        }
    }
    for (key, spec) in fields {
        match map.get(key) {
            None if spec.required => bad.push(format!("{prefix}{key}: required")),
            None => {}
            Some(v) => check_value(spec, v, &format!("{prefix}{key}"), bad),
        }
    }
}

fn check_value(spec: &Spec, v: &Value, path: &str, bad: &mut Vec<String>) {
    if v.is_null() {
        if !spec.nullable {
            bad.push(format!("{path}: null"));
        }
        return;
    }
    let type_ok = match spec.ty.as_str() {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    };
    if !type_ok {
        bad.push(format!("{path}: type"));
        return;
    }
    if let Some(s) = v.as_str() {
        if let Some(p) = &spec.pattern
            && !regex::Regex::new(p).unwrap().is_match(s)
        {
            bad.push(format!("{path}: pattern"));
        }
        if let Some(one_of) = &spec.one_of
            && !one_of.iter().any(|o| o == s)
        {
            bad.push(format!("{path}: one_of"));
        }
        if spec.max_len.is_some_and(|m| s.chars().count() > m) {
            bad.push(format!("{path}: max_len"));
        }
    }
    if let Some(n) = v.as_f64()
        && (spec.min.is_some_and(|m| n < m) || spec.max.is_some_and(|m| n > m))
    {
        bad.push(format!("{path}: range"));
    }
    if let Some(items) = v.as_array() {
        if spec.max_items.is_some_and(|m| items.len() > m) {
            bad.push(format!("{path}: max_items"));
        }
        if let Some(item_spec) = &spec.items {
            for (i, item) in items.iter().enumerate() {
                check_value(item_spec, item, &format!("{path}[{i}]"), bad);
            }
        }
    }
    if let (Some(fields), true) = (&spec.fields, v.is_object()) {
        violations(fields, v, &format!("{path}."), bad);
    }
}

fn all_specs<'s>(fields: &'s BTreeMap<String, Spec>, acc: &mut Vec<&'s Spec>) {
    for spec in fields.values() {
        acc.push(spec);
        if let Some(items) = &spec.items {
            acc.push(items);
            if let Some(f) = &items.fields {
                all_specs(f, acc);
            }
        }
        if let Some(f) = &spec.fields {
            all_specs(f, acc);
        }
    }
}

#[test]
fn default_policy_patterns_compile_and_are_anchored() {
    let p = policy();
    let mut specs = Vec::new();
    all_specs(&p.fields, &mut specs);
    assert!(specs.len() > 30);
    for spec in specs {
        if let Some(pat) = &spec.pattern {
            regex::Regex::new(pat).unwrap();
            assert!(pat.starts_with('^') && pat.ends_with('$'), "{pat}");
        }
        // No string field without a pattern or an enumeration: free text
        // could echo content.
        if spec.ty == "string" {
            assert!(spec.pattern.is_some() || spec.one_of.is_some());
        }
    }
}

#[test]
fn default_policy_admits_the_seed_sample() {
    let p = policy();
    let sample: Value = serde_json::from_str(SEED_SAMPLE).unwrap();
    let mut bad = Vec::new();
    violations(&p.fields, &sample, "", &mut bad);
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn default_policy_refuses_content_in_an_id_or_reason() {
    let p = policy();
    for (key, value) in [
        ("request_id", json!("please summarise my contract")),
        (
            "error_reason",
            json!("Customer said: the card 4111 was declined"),
        ),
        ("status", json!("completed, mostly")),
    ] {
        let mut sample: Value = serde_json::from_str(SEED_SAMPLE).unwrap();
        sample[key] = value;
        let mut bad = Vec::new();
        violations(&p.fields, &sample, "", &mut bad);
        // Reasons and statuses are closed enumerations (issue 14 item 3).
        let rule = if matches!(key, "error_reason" | "status") {
            "one_of"
        } else {
            "pattern"
        };
        assert_eq!(bad, vec![format!("{key}: {rule}")]);
    }
    let mut sample: Value = serde_json::from_str(SEED_SAMPLE).unwrap();
    sample["events"][1]["event_name"] = json!("first token: Hello");
    let mut bad = Vec::new();
    violations(&p.fields, &sample, "", &mut bad);
    assert_eq!(bad, vec!["events[1].event_name: pattern".to_owned()]);
}

// ---------------------------------------------------------------------------
// A seeded generator of clean records.

use crate::rng::Rng;

/// RFC 3339 UTC text of `ns` since the epoch, truncated to `digits`
/// fractional digits.
fn utc_text(ns: i128, digits: usize) -> String {
    let secs = ns.div_euclid(1_000_000_000);
    let frac = ns.rem_euclid(1_000_000_000);
    let base = jiff::Timestamp::from_second(i64::try_from(secs).unwrap())
        .unwrap()
        .to_string();
    let base = base.trim_end_matches('Z');
    if digits == 0 {
        format!("{base}Z")
    } else {
        format!("{base}.{}Z", &format!("{frac:09}")[..digits])
    }
}

/// A stated duration for `true_ns` in a random unit, rounded as producers do.
fn stated(rng: &mut Rng, true_ns: i128) -> (Value, &'static str) {
    match rng.below(4) {
        0 => (json!(true_ns as i64), "ns"),
        1 => (json!(((true_ns as f64) / 1e3).round() as i64), "us"),
        2 => (json!(((true_ns as f64) / 1e6).round() as i64), "ms"),
        _ => (json!((true_ns as f64) / 1e9), "s"),
    }
}

const TIMELINE: &[(&str, &str, &str)] = &[
    ("ingress", "gateway_ingress", "gateway"),
    ("queue", "admission_wait_started", "scheduler"),
    ("queue", "execution_admitted", "scheduler"),
    ("upstream", "provider_dispatch", "gateway"),
    ("upstream", "first_response_byte", "gateway"),
    ("upstream", "first_output_token", "stream_processor"),
    ("stream", "final_output_token", "stream_processor"),
    ("egress", "final_response_flush", "gateway"),
];

const INTERVALS: &[(&str, usize, usize)] = &[
    ("queue_time", 1, 2),
    ("gateway_observed_time_to_first_byte", 3, 4),
    ("gateway_observed_time_to_first_token", 3, 5),
    ("token_streaming_time", 5, 6),
    ("end_to_end_time", 0, 7),
];

/// A clean record for request `req`, attempt `attempt`.
fn clean_record(rng: &mut Rng, req: u64, attempt: u64) -> Value {
    // True times in ns since the epoch; each service has its own monotonic
    // origin, as separate processes do.
    let mut t: i128 = 1_788_000_000_000_000_000 + i128::from(rng.below(1_000_000_000_000_000));
    let origin = |svc: &str| -> i128 {
        match svc {
            "gateway" => 842_000_000_000,
            "scheduler" => 17_000_000_000,
            _ => 5_123_456_789_000,
        }
    };
    let digits = [3usize, 6, 9][rng.below(3) as usize];
    let mut times = Vec::new();
    let mut events = Vec::new();
    for &(stage, name, svc) in TIMELINE {
        t += i128::from(rng.below(400_000_000));
        times.push(t);
        events.push(json!({
            "stage": stage, "event_name": name, "service": svc,
            "timestamp_utc": utc_text(t, digits),
            "monotonic_ns": (t - 1_788_000_000_000_000_000 + origin(svc)) as u64,
        }));
    }
    let intervals: Vec<Value> = INTERVALS
        .iter()
        .map(|&(name, s, e)| {
            let (duration, unit) = stated(rng, times[e] - times[s]);
            json!({"name": name, "start_event": TIMELINE[s].1, "end_event": TIMELINE[e].1,
                   "duration": duration, "duration_unit": unit})
        })
        .collect();
    json!({
        "schema_version": "latency-evidence.v1",
        "trace_id": format!("tr_{req:06x}"), "request_id": format!("req_{req}"),
        "attempt": attempt, "span_id": format!("span_{req}_{attempt}"),
        "route_id": format!("route_{}", rng.below(3)), "model_id": format!("model_{}", rng.below(2)),
        "events": events, "derived_intervals": intervals,
        "clock_source": "local_monotonic_with_utc_correlation",
        "sync_status": "ntp_synchronized", "status": "completed",
    })
}

fn interval_mut<'v>(rec: &'v mut Value, name: &str) -> &'v mut Value {
    let ivs = rec["derived_intervals"].as_array_mut().unwrap();
    ivs.iter_mut().find(|iv| iv["name"] == name).unwrap()
}

/// Plants the anomaly that `rule` must catch.
fn plant(rule: &str, rec: &mut Value) {
    match rule {
        "duration_mismatch" => {
            let iv = interval_mut(rec, "token_streaming_time");
            iv["duration"] = json!(iv["duration"].as_f64().unwrap() + 100.0);
        }
        "negative_duration" => {
            let iv = interval_mut(rec, "token_streaming_time");
            iv["start_event"] = json!("final_output_token");
            iv["end_event"] = json!("first_output_token");
            iv["duration"] = json!(-iv["duration"].as_f64().unwrap());
        }
        "events_out_of_order" => rec["events"].as_array_mut().unwrap().swap(5, 6),
        "missing_event" => {
            interval_mut(rec, "queue_time")["start_event"] = json!("batch_formation_started")
        }
        "duplicate_event" => {
            let copy = rec["events"][7].clone();
            rec["events"].as_array_mut().unwrap().push(copy);
        }
        "cross_clock_monotonic" => rec["clock_source"] = json!("process_monotonic"),
        "unsynced_cross_observer" => {
            rec.as_object_mut().unwrap().remove("sync_status");
        }
        "token_byte_mismatch" => {
            interval_mut(rec, "gateway_observed_time_to_first_byte")["name"] =
                json!("gateway_observed_ttft");
        }
        "unknown_duration_unit" => {
            interval_mut(rec, "queue_time")["duration_unit"] = json!("minutes")
        }
        "missing_schema_version" => {
            rec.as_object_mut().unwrap().remove("schema_version");
        }
        "unknown_schema_version" => rec["schema_version"] = json!("latency-evidence.v0"),
        "completed_without_final_event" => {
            rec["events"][6]["event_name"] = json!("last_output_token");
            rec["events"][7]["event_name"] = json!("response_closed");
            interval_mut(rec, "token_streaming_time")["end_event"] = json!("last_output_token");
            interval_mut(rec, "end_to_end_time")["end_event"] = json!("response_closed");
        }
        "partial_marked_completed" => rec["error_reason"] = json!("upstream_timeout"),
        other => unreachable!("{other}"),
    }
}

const PER_RECORD_RULES: &[&str] = &[
    "duration_mismatch",
    "negative_duration",
    "events_out_of_order",
    "missing_event",
    "duplicate_event",
    "cross_clock_monotonic",
    "unsynced_cross_observer",
    "token_byte_mismatch",
    "unknown_duration_unit",
    "missing_schema_version",
    "unknown_schema_version",
    "completed_without_final_event",
    "partial_marked_completed",
];

#[test]
fn corpus_finds_every_planted_anomaly_and_nothing_else() {
    let mut rng = Rng(0x7ace_9a7e);
    // (line text, the rule planted in it)
    let mut lines: Vec<(String, Option<&str>)> = Vec::new();
    for &rule in PER_RECORD_RULES {
        for i in 0..1000 {
            let req = rng.next();
            lines.push((clean_record(&mut rng, req, 1).to_string(), None));
            // Some requests retried cleanly: attempts 1, 2.
            if i % 97 == 0 {
                lines.push((clean_record(&mut rng, req, 2).to_string(), None));
            }
        }
        let req = rng.next();
        let mut planted = clean_record(&mut rng, req, 1);
        plant(rule, &mut planted);
        let at = rng.below(lines.len() as u64) as usize;
        lines.insert(at, (planted.to_string(), Some(rule)));
    }
    // The cross-record anomaly: attempt 3 of a request whose only other
    // attempt is 1.
    let gap_req = rng.next();
    lines.push((clean_record(&mut rng, gap_req, 1).to_string(), None));
    let gap_first_line = lines.len() as u64;
    for _ in 0..5 {
        let req = rng.next();
        lines.push((clean_record(&mut rng, req, 1).to_string(), None));
    }
    lines.push((clean_record(&mut rng, gap_req, 3).to_string(), None));

    let mut tracker = AttemptTracker::new(1 << 20);
    let mut summary = Summary::new();
    let mut found_rules = BTreeSet::new();
    for (n, (line, planted)) in lines.iter().enumerate() {
        let mut out: Vec<EvidenceFinding> = Vec::new();
        let facts = audit(line, &mut out).unwrap();
        let rules: Vec<_> = out.iter().map(|f| f.rule).collect();
        match planted {
            None => {
                assert!(out.is_empty(), "clean line {}: {out:?}", n + 1);
                assert!(facts.intervals.iter().all(|i| i.reproduced_ms.is_some()));
            }
            Some(rule) => {
                assert_eq!(rules, vec![*rule], "planted line {}", n + 1);
                found_rules.insert(*rule);
            }
        }
        tracker.observe_facts(&facts, n as u64 + 1);
        summary.add(&facts);
    }
    assert_eq!(found_rules.len(), PER_RECORD_RULES.len());
    let cross = tracker.finish();
    assert_eq!(cross.len(), 1);
    assert_eq!(cross[0].finding.rule, "attempts_not_sequential");
    assert_eq!(cross[0].line, gap_first_line);

    // The summary renders every route and keeps 13 * 1000 + retries records.
    let mut json_out = Vec::new();
    summary.render_json(&mut json_out).unwrap();
    let report: Value = serde_json::from_slice(&json_out).unwrap();
    let records: u64 = report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["records"].as_u64().unwrap())
        .sum();
    assert_eq!(records, lines.len() as u64);
}

// ---------------------------------------------------------------------------
// Property: a record built from consistent events draws no finding.

#[derive(Debug, Clone)]
struct Ev {
    service: usize,
    gap_ns: u64,
}

fn consistent_record(evs: &[Ev], pairs: &[(usize, usize, u8)], digits: usize) -> Value {
    let mut t: i128 = 1_800_000_000_000_000_000;
    let mut times = Vec::new();
    let mut events = Vec::new();
    let n = evs.len();
    for (k, ev) in evs.iter().enumerate() {
        t += i128::from(ev.gap_ns);
        times.push(t);
        // The last event is final, so a completed record is complete.
        let name = if k + 1 == n {
            "stream_complete".to_owned()
        } else {
            format!("ev_{k}")
        };
        events.push(json!({
            "event_name": name, "service": format!("svc{}", ev.service),
            "timestamp_utc": utc_text(t, digits),
            "monotonic_ns": (t - 1_800_000_000_000_000_000) as u64 + 1_000_000 * ev.service as u64,
        }));
    }
    let intervals: Vec<Value> = pairs
        .iter()
        .enumerate()
        .map(|(k, &(a, b, unit))| {
            let (s, e) = (a % n, b % n);
            let (s, e) = (s.min(e), s.max(e));
            let true_ns = times[e] - times[s];
            let (d, u) = match unit % 4 {
                0 => (json!(true_ns as i64), "ns"),
                1 => (json!((true_ns as f64 / 1e3).round() as i64), "us"),
                2 => (json!((true_ns as f64 / 1e6).floor() as i64), "ms"),
                _ => (json!(true_ns as f64 / 1e9), "s"),
            };
            json!({"name": format!("iv_{k}"), "start_event": events[s]["event_name"],
                   "end_event": events[e]["event_name"], "duration": d, "duration_unit": u})
        })
        .collect();
    json!({
        "schema_version": "latency-evidence.v1", "trace_id": "t", "request_id": "r", "attempt": 1,
        "events": events, "derived_intervals": intervals,
        "clock_source": "local_monotonic_with_utc_correlation", "sync_status": "ptp_synchronized",
        "status": "completed",
    })
}

proptest! {
    #[test]
    fn consistent_records_draw_no_finding(
        evs in prop::collection::vec(
            (0usize..3, 0u64..5_000_000_000).prop_map(|(service, gap_ns)| Ev { service, gap_ns }),
            1..12,
        ),
        pairs in prop::collection::vec((0usize..12, 0usize..12, any::<u8>()), 0..8),
        digits in prop::sample::select(vec![0usize, 3, 6, 9]),
    ) {
        let line = consistent_record(&evs, &pairs, digits).to_string();
        let mut out = Vec::new();
        let facts = audit(&line, &mut out).unwrap();
        prop_assert!(out.is_empty(), "{:?}", out);
        prop_assert!(facts.intervals.iter().all(|i| i.reproduced_ms.is_some()));
    }
}

#[test]
fn seed_sample_line_is_clean() {
    let mut out = Vec::new();
    let facts = audit(SEED_SAMPLE, &mut out).unwrap();
    assert!(out.is_empty());
    assert_eq!(facts.intervals.len(), 2);
}
